// chesskit classroom: a board drawn as SVG from a FEN, with weighted arrows. No rules here:
// the server judges every move. The pieces and colours are the course diagrams' (generated.js).
const CKBoard = (() => {
  const FILES = "abcdefgh", SQ = 45, LEFT = 16, TOP = 1, WIDTH = LEFT + 8 * SQ + 1;
  const HEIGHT = TOP + 8 * SQ + 16;
  const pieces = (fen) => {
    const out = {};
    (fen || "").split(" ")[0].split("/").forEach((row, i) => {
      let f = 0;
      for (const c of row) {
        if (c >= "1" && c <= "8") f += +c;
        else out[FILES[f++] + (8 - i)] = c;
      }
    });
    return out;
  };
  const turn = (fen) => ((fen || "").split(" ")[1] === "b" ? "black" : "white");
  const corner = (sq, white) => {
    const f = FILES.indexOf(sq[0]), r = +sq[1] - 1;
    const col = white ? f : 7 - f, row = white ? 7 - r : r;
    return [LEFT + col * SQ, TOP + row * SQ];
  };
  const centre = (sq, white) => corner(sq, white).map((v) => v + SQ / 2);
  const num = (v) => (Math.round(v * 10) / 10).toString();
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  // an arrow of any width: shaft and head as the diagrams draw them, a white edge under it
  // (apart from squares of any colour), and the count in a disc on the shaft
  const arrow = (a, white) => {
    const from = a.uci.slice(0, 2), to = a.uci.slice(2, 4);
    const colour = CK_STYLE.arrows[a.colour] || a.colour || CK_STYLE.arrows.green;
    const [xt, yt] = centre(from, white), [xh, yh] = centre(to, white);
    const w = a.width || 9, head = Math.max(0.75 * SQ, w * 2.4), gap = 0.1 * SQ;
    const dx = xh - xt, dy = yh - yt, len = Math.hypot(dx, dy) || 1, ux = dx / len, uy = dy / len;
    const sx = xh - ux * (head + gap), sy = yh - uy * (head + gap);
    const pts = [[xh - ux * gap, yh - uy * gap], [sx + (uy * head) / 2, sy - (ux * head) / 2],
      [sx - (uy * head) / 2, sy + (ux * head) / 2]].map((p) => p.map(num).join(",")).join(" ");
    const dash = a.dashed ? ' stroke-dasharray="6 5"' : "";
    let out = `<g class="ckc-arrow" data-move="${esc(a.uci)}" opacity="${a.opacity || 0.85}">`;
    out += `<line x1="${num(xt)}" y1="${num(yt)}" x2="${num(sx)}" y2="${num(sy)}" stroke="#fff" stroke-width="${num(w + 4)}" stroke-linecap="round"/>`;
    out += `<polygon points="${pts}" fill="#fff" stroke="#fff" stroke-width="4" stroke-linejoin="round"/>`;
    out += `<line x1="${num(xt)}" y1="${num(yt)}" x2="${num(sx)}" y2="${num(sy)}" stroke="${colour}" stroke-width="${num(w)}" stroke-linecap="round"${dash}/>`;
    out += `<polygon points="${pts}" fill="${colour}"/></g>`;
    if (a.label !== undefined && a.label !== "") {
      // on the shaft; beside a short arrow, so the count never hides the piece that moves
      const side = len < 1.5 * SQ ? 0.42 * SQ : 0;
      const mx = (xt + (side ? xh : sx)) / 2 + uy * side, my = (yt + (side ? yh : sy)) / 2 - ux * side;
      out += `<g class="ckc-count"><circle cx="${num(mx)}" cy="${num(my)}" r="12" fill="#fff" stroke="${colour}" stroke-width="3"/>`;
      out += `<text x="${num(mx)}" y="${num(my + 6)}" text-anchor="middle" font-size="17" font-weight="bold" fill="#000">${esc(a.label)}</text></g>`;
    }
    return out;
  };
  // opts: fen, orientation ("white"|"black"), arrows [{uci, colour, width, label, dashed}],
  // selected (a square), label (the board's name for screen readers)
  const draw = (opts) => {
    const white = opts.orientation !== "black", pos = pieces(opts.fen);
    let dark = "", out = "";
    for (let f = 0; f < 8; f++) for (let r = 1; r <= 8; r++) {
      if ((f + r) % 2 === 0) continue; // a1 (f 0, r 1) is dark
      const [x, y] = corner(FILES[f] + r, white);
      dark += `M${x} ${y}h45v45h-45z`;
    }
    out += `<rect x="${LEFT}" y="${TOP}" width="360" height="360" fill="${CK_STYLE.light}"/><path d="${dark}" fill="${CK_STYLE.dark}"/>`;
    if (opts.selected) {
      const [x, y] = corner(opts.selected, white);
      out += `<rect class="ckc-selected" x="${x + 1.5}" y="${y + 1.5}" width="42" height="42" fill="${CK_STYLE.arrows.blue}" fill-opacity=".45" stroke="${CK_STYLE.arrows.blue}" stroke-width="3"/>`;
    }
    let coords = "";
    for (let i = 0; i < 8; i++) {
      const file = white ? FILES[i] : FILES[7 - i], rank = white ? 8 - i : i + 1;
      coords += `<text x="${LEFT + i * SQ + SQ / 2}" y="${TOP + 8 * SQ + 13}">${file}</text>`;
      coords += `<text x="8" y="${TOP + i * SQ + SQ / 2 + 5}">${rank}</text>`;
    }
    out += `<g font-family="${CK_STYLE.font}" font-size="13" font-weight="bold" fill="#222" text-anchor="middle">${coords}</g>`;
    const used = new Set();
    for (const [sq, p] of Object.entries(pos)) {
      const [x, y] = corner(sq, white);
      used.add(p);
      out += `<use href="#ck-${p}" x="${x}" y="${y}"/>`;
    }
    for (const a of opts.arrows || []) if (a.uci && a.uci.length >= 4) out += arrow(a, white);
    const defs = [...used].map((p) => CK_PIECES[p]).join("");
    return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${esc(opts.label || "")}" class="ckc-svg"><defs>${defs}</defs>${out}</svg>`;
  };
  // the square under a point of the page, or null
  const squareAt = (svgEl, x, y, orientation) => {
    const b = svgEl.getBoundingClientRect(), k = b.width / WIDTH;
    const col = Math.floor((x - b.left) / k / SQ - LEFT / SQ), row = Math.floor((y - b.top) / k / SQ - TOP / SQ);
    if (col < 0 || col > 7 || row < 0 || row > 7) return null;
    return orientation !== "black" ? FILES[col] + (8 - row) : FILES[7 - col] + (row + 1);
  };
  return { draw, squareAt, pieces, turn, esc };
})();
