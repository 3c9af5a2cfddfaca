// chesskit board: draws the synced state, sends requests; Python judges every rule.
const FILES = "abcdefgh";
const GLYPH = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F\uFE0E" };
const COLOURS = { green: "#009E73", red: "#D55E00", blue: "#0072B2", yellow: "#E69F00" };
const h = (tag, cls, attrs = {}) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
};
const pieces = (fen) => {
  const out = {};
  fen.split(" ")[0].split("/").forEach((row, i) => {
    let f = 0;
    for (const c of row) {
      if (c >= "1" && c <= "8") f += +c;
      else out[FILES[f++] + (8 - i)] = c;
    }
  });
  return out;
};
const DEAD_MS = 8000;
const isSave = (e) => (e.ctrlKey || e.metaKey) && !e.altKey && (e.key === "s" || e.key === "S");
// a tablet upright (a page under 900 px): JupyterLab's left sidebar (the file browser) takes
// half of the notebook's width, so the first board on the page closes it, once, with the
// app's own shortcut (Ctrl+B; Cmd+B where the platform says Mac, as an iPad's Safari does);
// a child who opens it again keeps it open. Only in JupyterLab and the browser course:
// Notebook 7 opens a scratchpad on that key.
const NARROW = 900;
const SIDEBAR = Symbol.for("chesskit.sidebar");
const closeSidebarOnce = () => {
  if (window[SIDEBAR] || window.innerWidth >= NARROW) return;
  window[SIDEBAR] = true;
  const stack = document.getElementById("jp-left-stack");
  if (!document.querySelector(".jp-LabShell") || !stack || stack.classList.contains("lm-mod-hidden")) return;
  const apple = /Mac/i.test(navigator.platform || "");  // Lumino's own test for Cmd
  const key = new KeyboardEvent("keydown", { key: "b", code: "KeyB", ctrlKey: !apple, metaKey: apple, bubbles: true, cancelable: true });
  Object.defineProperty(key, "keyCode", { get: () => 66 });  // Lumino reads the key code
  document.body.dispatchEvent(key);
};
const glyph = (c) => `<span class="ck-p ${c === c.toUpperCase() ? "ck-w" : "ck-b"}">${GLYPH[c.toLowerCase()]}</span>`;

export default {
  render({ model, el }) {
    const get = (k) => model.get(k);
    // every request is answered ("done"); a board that hears nothing for DEAD_MS has lost its
    // kernel (restarted, shut down, a notebook reopened) and says so on the board
    let deadTimer = null;
    const alive = () => { clearTimeout(deadTimer); deadTimer = null; dead.hidden = true; };
    const send = (msg) => {
      if (deadTimer === null) deadTimer = setTimeout(() => { dead.hidden = false; }, DEAD_MS);
      try { model.send(msg); } catch (_) { /* no comm: the timer tells */ }
    };
    const root = h("div", "ck", { "data-lm-suppress-shortcuts": "true" });
    const prompt = h("div", "ck-prompt");
    const wrap = h("div", "ck-wrap");
    const grid = h("div", "ck-board", { role: "grid", "data-jp-suppress-context-menu": "" });
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "ck-draw");
    svg.setAttribute("viewBox", "0 0 8 8");
    const promo = h("div", "ck-promo");
    const bar = h("div", "ck-bar");
    // the message is the live region: it says the last move only, never the whole list
    const moves = h("div", "ck-moves");
    const msg = h("div", "ck-msg", { role: "status", "aria-live": "polite" });
    const sr = h("div", "ck-sr", { "aria-live": "polite" });
    const status = h("div", "ck-status");
    const answerBar = h("div", "ck-bar ck-answers");
    const palette = h("div", "ck-bar ck-palette", { role: "toolbar" });
    const dead = h("div", "ck-dead", { role: "alert" });
    dead.hidden = true;
    wrap.append(grid, svg, promo, dead);
    const help = h("div", "ck-bar ck-help");
    // how to use the keys, always there under the board: nothing moves when the focus does
    const keys = h("div", "ck-keys", { id: "ck-keys-" + Math.random().toString(36).slice(2) });
    grid.setAttribute("aria-describedby", keys.id);
    root.append(prompt, wrap, keys, palette, answerBar, bar, help, msg, status, moves, sr);
    el.append(root);
    // Lumino skips shortcuts inside the board (so "d d" on a square deletes no cell), except
    // the save shortcut: lifted before the app's own listener (capture on document) sees it.
    const letSave = (e) => {
      if (!isSave(e) || !root.contains(e.target)) return;
      root.removeAttribute("data-lm-suppress-shortcuts");
      setTimeout(() => root.setAttribute("data-lm-suppress-shortcuts", "true"), 0);
    };
    window.addEventListener("keydown", letSave, true);

    const cells = {};
    for (let r = 8; r >= 1; r--) for (const f of FILES) {
      const sq = f + r;
      const c = h("div", "ck-sq " + ((FILES.indexOf(f) + r) % 2 ? "ck-light" : "ck-dark"),
        { role: "gridcell", tabindex: "-1", "data-sq": sq });
      cells[sq] = c;
      grid.append(c);
    }
    let selected = null, focus = null, drag = null, rdrag = null, flashing = new Set();
    let shownFen = null, chosen = null;
    const white = () => get("orientation") !== "black";
    const at = (x, y) => {
      const b = grid.getBoundingClientRect();
      let col = Math.floor(((x - b.left) / b.width) * 8), row = Math.floor(((y - b.top) / b.height) * 8);
      if (col < 0 || col > 7 || row < 0 || row > 7) return null;
      return white() ? FILES[col] + (8 - row) : FILES[7 - col] + (row + 1);
    };
    const xy = (sq) => {
      const f = FILES.indexOf(sq[0]), r = +sq[1] - 1;
      return white() ? [f + 0.5, 7.5 - r] : [7.5 - f, r + 0.5];
    };

    const button = (key, label, act, title, icon) => {
      const b = h("button", "ck-btn ck-" + key, { type: "button", "aria-label": title || label, title: title || label });
      b.textContent = icon ? icon + "\u00A0" + label : label;
      b.addEventListener("click", act);
      return b;
    };
    const ui = (k) => (get("ui") || {})[k] || k;
    const input = h("input", "ck-input", { type: "text", autocomplete: "off", spellcheck: "false" });
    const go = () => { if (input.value.trim()) send({ type: "text", text: input.value }); input.value = ""; };
    input.addEventListener("keydown", (e) => { if (isSave(e)) return; e.stopPropagation(); if (e.key === "Enter") go(); });
    const btn = {
      first: button("first", "\u00AB", () => send({ type: "goto", index: 0 }), ui("first")),
      back: button("back", "\u25C0", () => send({ type: "step", delta: -1 }), ui("back")),
      forward: button("forward", "\u25B6", () => send({ type: "step", delta: 1 }), ui("forward")),
      last: button("last", "\u00BB", () => send({ type: "goto", index: 9999 }), ui("last")),
      flip: button("flip", "\u21C5", () => { model.set("orientation", white() ? "black" : "white"); model.save_changes(); }, ui("flip")),
      takeback: button("takeback", ui("takeback"), () => send({ type: "takeback" }), ui("takeback"), "\u21B6"),
      clear: button("clear", ui("clear"), () => { model.set("arrows", []); model.set("circles", []); model.save_changes(); }, ui("clear"), "\u2715"),
      play: button("play", ui("play"), go),
      submit: button("submit", ui("submit"), () => send({ type: "submit" })),
      hint: button("hint", ui("hint"), () => send({ type: "hint" })),
      solution: button("solution", ui("solution"), () => send({ type: "solution" })),
      again: button("again", ui("again"), () => send({ type: "retry" }), ui("again"), "\u21BB"),
      ask: button("ask", ui("ask"), () => send({ type: "ask" }), ui("ask")),
    };
    bar.append(btn.first, btn.back, btn.forward, btn.last, btn.flip, btn.takeback, btn.clear,
      input, btn.play);
    help.append(btn.again, btn.submit, btn.hint, btn.solution, btn.ask);

    // answers that are not moves: a piece palette, option buttons, a number pad
    const paletteButtons = {};
    for (const p of "KQRBNPkqrbnp") {
      const b = h("button", "ck-btn ck-pick", { type: "button", "data-piece": p, "aria-pressed": "false" });
      b.innerHTML = glyph(p);
      b.addEventListener("click", () => { chosen = chosen === p ? null : p; draw(); });
      paletteButtons[p] = b;
      palette.append(b);
    }
    const pad = (key) => {
      if (key === "ok") return go();
      input.value = key === "delete" ? input.value.slice(0, -1) : input.value + key;
      input.focus();
    };
    const drawAnswers = () => {
      const kind = get("board_input") || "", shown = get("solution_choice") || "";
      const keys = kind === "number" ? [..."1234567890", "-", ".", "delete", "ok"]
        : kind === "options" ? (get("choices") || []).map((c) => c[0]) : [];
      const labels = Object.fromEntries((get("choices") || []).map((c) => [c[0], c[1]]));
      const sig = kind + keys.join() + JSON.stringify(labels) + shown;
      if (answerBar.dataset.sig === sig) return;
      answerBar.dataset.sig = sig;
      answerBar.innerHTML = "";
      answerBar.className = "ck-bar ck-answers ck-" + kind;
      for (const k of keys) {
        const name = { "-": ui("minus"), delete: ui("delete"), ok: ui("ok") }[k];
        const text = kind === "options" ? labels[k] : k === "delete" ? "\u232B" : k === "ok" ? ui("ok") : k;
        const b = button("key", text, () => (kind === "options" ? send({ type: "text", text: k }) : pad(k)), name);
        b.dataset.key = k;
        if (kind === "options" && k === shown) b.classList.add("ck-right");
        answerBar.append(b);
      }
      answerBar.hidden = !keys.length;
    };

    const draw = () => {
      const size = get("size"), pos = pieces(get("fen")), legal = get("legal") || {};
      const targets = selected ? legal[selected] || [] : [];
      const canGo = ui("can_go");
      const last = get("lastmove"), marked = new Set(get("marked")), labels = get("labels") || {};
      const hl = {};
      for (const [colour, sqs] of Object.entries(get("marks") || {})) for (const s of sqs) hl[s] = colour;
      // the board follows its cell: at least the size asked (when the cell is that wide), up
      // to 1.8 x that size and the screen's height less room for the page's bars and the
      // board's buttons (a tablet, a projector): board, buttons and message are seen at once
      root.style.setProperty("--ck-size",
        `max(min(100%, ${size}px), min(100%, ${Math.round(size * 1.8)}px, 100vh - 360px))`);
      keys.textContent = ui("keys");
      const start = focus || startSquare(pos, legal);
      root.setAttribute("lang", get("lang") || "en");
      grid.setAttribute("aria-label", labels.board || "");
      for (const [sq, c] of Object.entries(cells)) {
        const [x, y] = xy(sq);
        c.style.gridColumn = x + 0.5;
        c.style.gridRow = y + 0.5;
        const cls = c.className.split(" ").slice(0, 2);
        if (last && (last.slice(0, 2) === sq || last.slice(2, 4) === sq)) cls.push("ck-last");
        if (hl[sq]) cls.push("ck-hl-" + hl[sq]);
        if (marked.has(sq)) cls.push("ck-marked");
        if (sq === get("check")) cls.push("ck-check");
        if (sq === selected) cls.push("ck-sel");
        if (targets.includes(sq)) cls.push(pos[sq] ? "ck-cap" : "ck-dot");
        if (flashing.has(sq)) cls.push("ck-flash");
        c.className = cls.join(" ");
        let html = pos[sq] ? glyph(pos[sq]) : "";
        if (y === 7.5) html += `<span class="ck-file">${sq[0]}</span>`;
        if (x === 0.5) html += `<span class="ck-rank">${sq[1]}</span>`;
        c.innerHTML = html;
        c.setAttribute("aria-label", (labels[sq] || sq) + (targets.includes(sq) ? ", " + canGo : ""));
        c.setAttribute("aria-selected", sq === selected || marked.has(sq) ? "true" : "false");
        c.tabIndex = sq === start ? 0 : -1;
      }
      drawShapes();
      const n = get("count"), i = get("index"), mode = get("mode"), ex = get("exercise_id");
      // a drill is undone with Take back and Try again, never stepped through
      const steps = n < 2 || (!!get("drill") && !(get("demo") || []).length);
      for (const k of ["first", "back", "forward", "last"]) btn[k].hidden = steps;
      btn.first.disabled = btn.back.disabled = i === 0;
      btn.forward.disabled = btn.last.disabled = i >= n - 1;
      btn.takeback.hidden = !get("takeback") || mode !== "play";
      btn.takeback.disabled = i === 0;  // greyed, not hidden: nothing moves after a move
      const shows = get("buttons") || {};  // false: never shown; ask: only when true
      btn.clear.hidden = !(get("arrows").length || get("circles").length) || shows.clear === false;
      btn.ask.hidden = shows.ask !== true;
      const text = get("text_input"), feedback = get("feedback");
      input.hidden = btn.play.hidden = mode === "view" && text !== "answer";
      btn.play.hidden = btn.play.hidden || get("board_input") === "number";
      input.placeholder = ui(text === "answer" ? "answer_box" : "move_box");
      // a typed answer is sent with OK, a typed move with Play
      btn.play.textContent = ui(text === "answer" ? "ok" : "play");
      btn.play.title = btn.play.textContent;
      btn.play.setAttribute("aria-label", btn.play.textContent);
      input.setAttribute("aria-label", input.placeholder);
      const submits = ["squares", "placement", "moves"].includes(get("board_input")) && !get("drill");
      btn.submit.hidden = ex ? !submits || mode === "view" : mode !== "mark";
      btn.hint.hidden = !ex || !!get("solved") || !!(get("demo") || []).length;
      btn.solution.hidden = !ex;
      btn.again.hidden = !get("retry");
      help.hidden = btn.submit.hidden && btn.hint.hidden && btn.solution.hidden && btn.again.hidden
        && btn.ask.hidden;
      dead.textContent = ui("dead");
      prompt.textContent = get("prompt") || "";
      prompt.hidden = !prompt.textContent;
      moves.textContent = get("show_moves") ? get("movetext") : "";
      msg.textContent = get("message");
      const kind = get("message") ? get("message_kind") : feedback && (get("correct") ? "ok" : "error");
      msg.className = "ck-msg ck-" + (kind || "info");
      root.classList.toggle("ck-solved", !!get("solved"));
      root.classList.toggle("ck-drill", !!get("drill"));
      if (ex && feedback && !get("message")) msg.textContent = feedback;
      msg.hidden = !msg.textContent;
      status.textContent = get("status") || "";
      status.hidden = !status.textContent;
      palette.hidden = mode !== "place";
      palette.setAttribute("aria-label", ui("palette"));
      for (const [p, b] of Object.entries(paletteButtons)) {
        b.setAttribute("aria-label", ui("palette_" + p));
        b.title = ui("palette_" + p);
        b.setAttribute("aria-pressed", chosen === p ? "true" : "false");
        b.classList.toggle("ck-chosen", chosen === p);
      }
      drawAnswers();
      drawPromo(pos);
    };
    // keyboard focus enters on a piece of the side to move: the last-moved piece, the king if
    // it can move, else the first piece that can, else the king (never always e2)
    const startSquare = (pos, legal) => {
      const turn = (get("fen").split(" ")[1] || "w") === "w";
      const mine = Object.keys(pos).filter((s) => (pos[s] === pos[s].toUpperCase()) === turn);
      const king = mine.find((s) => pos[s].toLowerCase() === "k");
      const to = (get("lastmove") || "").slice(2, 4);
      if (mine.includes(to) && legal[to]) return to;
      if (king && legal[king]) return king;
      return Object.keys(legal).find((s) => mine.includes(s)) || king || mine[0] || (turn ? "e1" : "e8");
    };
    const drawShapes = () => {
      let out = "";
      const pos = pieces(get("fen"));
      for (const [a, b, colour] of get("arrows") || []) {
        const [x1, y1] = xy(a), [x2, y2] = xy(b), c = COLOURS[colour] || COLOURS.green;
        const len = Math.hypot(x2 - x1, y2 - y1), ux = (x2 - x1) / len, uy = (y2 - y1) / len;
        // from the from-square's edge (its piece stays visible) to just before the to-square's
        // piece; a short arrow (next square) keeps at least half a square of length
        const edge = 0.5 / Math.max(Math.abs(ux), Math.abs(uy));
        let from = 0.85 * edge, to = pos[b] ? 0.7 * edge : 0;
        const k = Math.min(1, Math.max(0, len - 0.55) / (from + to || 1));
        from *= k; to *= k;
        const sx = x1 + ux * from, sy = y1 + uy * from, tx = x2 - ux * to, ty = y2 - uy * to;
        const ex = tx - ux * 0.35, ey = ty - uy * 0.35;
        const head = `points="${tx},${ty} ${ex - uy * 0.3},${ey + ux * 0.3} ${ex + uy * 0.3},${ey - ux * 0.3}"`;
        // a white edge under every arrow keeps it apart from squares of any colour
        out += `<g opacity="0.9"><line x1="${sx}" y1="${sy}" x2="${ex}" y2="${ey}" stroke="#fff" stroke-width="0.3" stroke-linecap="round"/>`;
        out += `<polygon ${head} fill="#fff" stroke="#fff" stroke-width="0.12" stroke-linejoin="round"/>`;
        out += `<line x1="${sx}" y1="${sy}" x2="${ex}" y2="${ey}" stroke="${c}" stroke-width="0.18" stroke-linecap="round"/>`;
        out += `<polygon ${head} fill="${c}"/></g>`;
      }
      for (const [s, colour] of get("circles") || []) {
        const [x, y] = xy(s);
        out += `<circle cx="${x}" cy="${y}" r="0.44" fill="none" stroke="${COLOURS[colour] || COLOURS.green}" stroke-width="0.08"/>`;
      }
      svg.innerHTML = out;
    };
    const drawPromo = (pos) => {
      const p = get("promotion");
      promo.hidden = !p;
      if (!p) return;
      const isWhite = pos[p.slice(0, 2)] === "P";
      promo.innerHTML = "";
      promo.setAttribute("aria-label", ui("promote"));
      for (const k of "qrbn") {
        const b = h("button", "ck-btn ck-pick", { type: "button", "data-piece": k });
        b.innerHTML = glyph(isWhite ? k.toUpperCase() : k);
        b.setAttribute("aria-label", ui("piece_" + k));
        b.title = ui("piece_" + k);
        b.addEventListener("click", () => send({ type: "promote", piece: k }));
        promo.append(b);
      }
      promo.append(button("cancel", "\u2715", () => send({ type: "promote", piece: "" }), ui("cancel")));
      promo.querySelector("button").focus();
    };

    // picking and dropping: the same for mouse, touch and keyboard
    // a piece of the side to move is picked even with no legal move: the next click asks
    // Python why that move is not allowed (a pin, a check), as a typed move would
    const own = (sq) => {
      const p = pieces(get("fen"))[sq], turn = (get("fen").split(" ")[1] || "w") === "w";
      return !!p && (p === p.toUpperCase()) === turn && Object.keys(get("legal") || {}).length > 0;
    };
    const say = (sq) => {
      const labels = get("labels") || {}, targets = (get("legal") || {})[sq] || [];
      sr.textContent = targets.length ? ui("targets").replace("{piece}", labels[sq] || sq)
        .replace("{squares}", targets.join(", ")) : "";
    };
    const select = (sq) => {
      selected = sq;
      say(sq);
      if (!(get("legal") || {})[sq]) send({ type: "pick", square: sq });
    };
    const choose = (sq) => {
      const mode = get("mode");
      if (mode === "mark") return send({ type: "mark", square: sq });
      if (mode === "place") return send({ type: "place", square: sq, piece: chosen || "" });
      // a finished exercise says what to do next (Try again, the next exercise)
      if (mode !== "play") return get("exercise_id") ? send({ type: "pick", square: sq }) : undefined;
      if (selected === sq) selected = null;
      else if (own(sq)) select(sq);
      else if (selected) {
        send({ type: "move", from: selected, to: sq });
        selected = null;
      } else send({ type: "pick", square: sq });
      draw();
    };
    const drop = (sq) => {
      if (selected && sq && sq !== selected) { send({ type: "move", from: selected, to: sq }); selected = null; draw(); }
    };
    const ghost = h("div", "ck-ghost");
    wrap.append(ghost);
    grid.addEventListener("contextmenu", (e) => { e.preventDefault(); e.stopPropagation(); });
    grid.addEventListener("pointerdown", (e) => {
      const sq = at(e.clientX, e.clientY);
      if (!sq) return;
      if (e.button === 2) { rdrag = sq; return; }
      if (e.button !== 0) return;
      focus = sq;
      if (get("mode") === "play" && own(sq) && selected !== sq) {
        select(sq);
        draw();
        drag = { sq, x: e.clientX, y: e.clientY, moved: false };
        try { grid.setPointerCapture(e.pointerId); } catch (_) { /* synthetic events */ }
      } else choose(sq);
    });
    grid.addEventListener("pointermove", (e) => {
      if (!drag) return;
      if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 5) return;
      drag.moved = true;
      const b = wrap.getBoundingClientRect();
      ghost.innerHTML = glyph(pieces(get("fen"))[drag.sq]);
      ghost.style.left = e.clientX - b.left + "px";
      ghost.style.top = e.clientY - b.top + "px";
      ghost.hidden = false;
      cells[drag.sq].classList.add("ck-lifted");
    });
    grid.addEventListener("pointerup", (e) => {
      const sq = at(e.clientX, e.clientY);
      if (e.button === 2 && rdrag) {
        const colour = e.shiftKey ? "red" : e.ctrlKey || e.metaKey ? "blue" : e.altKey ? "yellow" : "green";
        if (sq && sq !== rdrag) toggleShape("arrows", [rdrag, sq, colour], 2);
        else if (sq) toggleShape("circles", [sq, colour], 1);
        rdrag = null;
        return;
      }
      if (drag && drag.moved) { ghost.hidden = true; drop(sq); if (selected) draw(); }
      drag = null;
    });
    const toggleShape = (key, shape, n) => {
      const list = (get(key) || []).filter((s) => s.slice(0, n).join() !== shape.slice(0, n).join());
      if (list.length === (get(key) || []).length) list.push(shape);
      model.set(key, list);
      model.save_changes();
    };
    ghost.hidden = true;

    root.addEventListener("keydown", (e) => {
      const sq = e.target.dataset && e.target.dataset.sq;
      const dirs = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
      if (sq && dirs[e.key]) {
        const [dx, dy] = dirs[e.key], s = white() ? 1 : -1;
        const f = Math.min(7, Math.max(0, FILES.indexOf(sq[0]) + dx * s)), r = Math.min(8, Math.max(1, +sq[1] + dy * s));
        focus = FILES[f] + r;
        draw();
        cells[focus].focus();
      } else if (sq && (e.key === "Enter" || e.key === " ")) {
        focus = sq;
        choose(sq);
        cells[focus].focus();
      } else if (e.key === "Escape") {
        selected = null;
        draw();
      } else if (e.target.tagName !== "INPUT" && ["PageUp", "PageDown", "Home", "End"].includes(e.key)) {
        const d = { PageUp: -1, PageDown: 1 }[e.key];
        send(d ? { type: "step", delta: d } : { type: "goto", index: e.key === "Home" ? 0 : 9999 });
      } else if (!sq && e.target.tagName !== "INPUT" && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
        send({ type: "step", delta: e.key === "ArrowLeft" ? -1 : 1 });
      } else return;
      e.preventDefault();
      e.stopPropagation();
    });
    shownFen = get("fen");

    let flashTimer = null;
    const flash = () => {
      flashing = new Set();
      draw();
      void grid.offsetWidth;
      flashing = new Set(get("message_squares") || []);
      draw();
      clearTimeout(flashTimer);
      flashTimer = setTimeout(() => { flashing = new Set(); draw(); }, 1500);
    };
    let replyTimer = null;
    const wait = () => {
      clearTimeout(replyTimer);
      if (get("waiting")) replyTimer = setTimeout(() => send({ type: "reply" }), get("pause"));
    };
    const redraw = () => {
      if (get("fen") !== shownFen) { selected = null; shownFen = get("fen"); sr.textContent = ""; }
      draw();
    };
    model.on("change", () => { alive(); redraw(); });
    model.on("msg:custom", (m) => { if (m && m.type === "done") alive(); });
    model.on("comm_live_update", () => send({ type: "ping" }));
    // the saved picture printed before the board (widgets.board.saved_picture) is for pages
    // without a live board: this one is live, so it goes (once the view is on the page)
    let pictureGone = false;
    const hidePicture = () => {
      const child = el.isConnected && el.closest(".jp-OutputArea-child");
      if (pictureGone || !child) return;
      pictureGone = true;
      const picture = child.previousElementSibling;
      if (picture && picture.querySelector(".ck-static, svg") && !picture.querySelector(".ck"))
        picture.style.display = "none";
    };
    const shown = new MutationObserver(() => { hidePicture(); if (pictureGone) shown.disconnect(); });
    shown.observe(document.body, { childList: true, subtree: true });
    requestAnimationFrame(hidePicture);
    requestAnimationFrame(closeSidebarOnce);
    model.on("change:flash", flash);
    model.on("change:waiting", wait);
    draw();
    wait();
    return () => {
      clearTimeout(replyTimer);
      clearTimeout(flashTimer);
      clearTimeout(deadTimer);
      shown.disconnect();
      window.removeEventListener("keydown", letSave, true);
    };
  },
};
