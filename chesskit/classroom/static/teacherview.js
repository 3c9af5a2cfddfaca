// chesskit classroom: the teacher's big board (the notebook widget and the laptop page).
// update(state) draws everything from one plain object; act(type, text) asks for "ask",
// "close", "next" or "names".
const CKTeacherView = (el, { tx, act }) => {
  const h = (tag, cls, attrs = {}) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    return e;
  };
  const root = h("div", "ckc ckc-teacher");
  const head = h("div", "ckc-head"), prompt = h("div", "ckc-prompt");
  const main = h("div", "ckc-main"), board = h("div", "ckc-board");
  const side = h("div", "ckc-side"), stats = h("div", "ckc-stats", { role: "status", "aria-live": "polite" });
  const moves = h("ol", "ckc-moves"), names = h("table", "ckc-names");
  const msg = h("div", "ckc-msg", { role: "status" }), solution = h("div", "ckc-solution");
  const buttons = h("div", "ckc-buttons"), askRow = h("div", "ckc-ask");
  const button = (cls, key, fn) => {
    const b = h("button", "ckc-btn " + cls, { type: "button" });
    b.dataset.key = key;
    b.addEventListener("click", fn);
    return b;
  };
  const close = button("ckc-close", "close", () => act("close"));
  const next = button("ckc-next", "next", () => act("next"));
  const reveal = button("ckc-reveal", "show_names", () => act("names"));
  const input = h("input", "ckc-input", { type: "text", autocomplete: "off", spellcheck: "false" });
  const ask = button("ckc-askbtn", "ask", () => { if (input.value.trim()) act("ask", input.value.trim()); });
  input.addEventListener("keydown", (e) => { e.stopPropagation(); if (e.key === "Enter") ask.click(); });
  buttons.append(close, next, reveal);
  askRow.append(input, ask);
  side.append(stats, moves, buttons, names);
  main.append(board, side);
  root.append(head, prompt, main, solution, msg, askRow);
  el.append(root);
  const stat = (cls, label, value) => `<div class="ckc-stat ${cls}"><span class="ckc-n">${value}</span><span class="ckc-l">${CKBoard.esc(label)}</span></div>`;

  const update = (s) => {
    root.style.setProperty("--ckc-size", (s.size || 520) + "px");
    root.setAttribute("lang", s.lang || "en");
    const open = s.round_state === "open", closed = s.round_state === "closed";
    head.textContent = s.round_id ? tx("round").replace("{id}", s.round_id) + " \u00B7 " + tx("state_" + (s.round_state || "open")) : tx("waiting");
    head.className = "ckc-head ckc-" + (s.round_state || "none");
    prompt.textContent = s.prompt || "";
    prompt.hidden = !prompt.textContent;
    const most = Math.max(1, ...(s.moves || []).map((m) => m.count));
    const colour = (m) => (m.right === true ? "green" : m.right === false ? "red" : "blue");
    const arrows = (s.moves || []).map((m) => ({ uci: m.uci, colour: colour(m), label: m.count,
      width: 5 + (13 * m.count) / most, opacity: closed && m.right === false ? 0.5 : 0.85 }));
    const played = new Set((s.moves || []).map((m) => m.uci));
    if (closed) for (const u of s.solution || []) if (!played.has(u)) arrows.push({ uci: u, colour: "green", width: 7, dashed: true });
    arrows.sort((a, b) => (b.width || 0) - (a.width || 0)); // the thin ones on top
    board.innerHTML = CKBoard.draw({ fen: s.fen, orientation: s.orientation, arrows, label: tx("board_label") });
    const wrong = s.correct >= 0 ? s.answered - s.correct : null;
    stats.innerHTML = stat("ckc-answered", tx("answered"), `${s.answered}<small>/${s.joined}</small>`)
      + (s.judged && s.correct >= 0 ? stat("ckc-right", tx("right"), s.correct) + stat("ckc-wrong", tx("wrong"), wrong) : "");
    moves.innerHTML = "";
    for (const m of s.moves || []) {
      const li = h("li", "ckc-move ckc-" + colour(m));
      li.innerHTML = `<b>${CKBoard.esc(m.san)}</b><span class="ckc-bar" style="width:${(100 * m.count) / most}%"></span><span class="ckc-c">${m.count}</span>`;
      moves.append(li);
    }
    if (!(s.moves || []).length) moves.innerHTML = `<li class="ckc-none">${CKBoard.esc(tx("no_answers"))}</li>`;
    names.hidden = !s.show_names;
    names.innerHTML = `<tr><th>${CKBoard.esc(tx("student"))}</th><th>${CKBoard.esc(tx("move"))}</th></tr>`
      + (s.answers || []).map((a) => `<tr class="ckc-${a.correct === true ? "green" : a.correct === false ? "red" : "blue"}"><td>${CKBoard.esc(a.student)}</td><td>${CKBoard.esc(a.move)}${a.correct === true ? " \u2713" : a.correct === false ? " \u2717" : ""}</td></tr>`).join("");
    close.textContent = tx("close");
    next.textContent = tx("next");
    reveal.textContent = tx(s.show_names ? "hide_names" : "show_names");
    reveal.setAttribute("aria-pressed", s.show_names ? "true" : "false");
    ask.textContent = tx("ask");
    input.placeholder = tx("ask_box");
    input.setAttribute("aria-label", input.placeholder);
    close.disabled = !open;
    next.disabled = !s.exercise;
    solution.textContent = closed ? s.solution_text || "" : "";
    solution.hidden = !solution.textContent;
    msg.textContent = s.message || "";
    msg.className = "ckc-msg ckc-" + (s.message_kind || "info");
    msg.hidden = !msg.textContent;
  };
  return { update, root };
};
