// chesskit classroom: the student's page. Join with the code and a name (laptop mode), then
// answer each round on the board (click a piece then a square, or drag it) or by typing.
// The server says whether a move can be played (a 400 carries the sentence why not). An answer
// goes on the open websocket (the reply: answer_ack, or an error with the sentence), else, or
// when no reply comes within 10 s, by POST (one answer per student and round: the last counts).
(() => {
  const app = document.getElementById("app");
  const conn = CKConnection("student"), tx = conn.tx;
  const h = (tag, cls, attrs = {}) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    return e;
  };
  const say = (el, text, kind) => { el.textContent = text || ""; el.className = "ckc-msg ckc-" + (kind || "info"); el.hidden = !text; };

  // -- joining (laptop mode) ------------------------------------------------------------
  const showJoin = (error) => {
    document.title = tx("join_title");
    app.innerHTML = "";
    const form = h("form", "ckc-join");
    const title = h("h1");
    title.textContent = tx("join_title");
    const field = (name, label, input) => {
      const l = h("label", "", { for: "ckc-" + name });
      l.textContent = label;
      input.id = "ckc-" + name;
      form.append(l, input);
      return input;
    };
    const code = field("code", tx("join_code"), h("input", "ckc-input ckc-code", { autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: "12", required: "" }));
    const name = field("name", tx("join_name"), h("input", "ckc-input", { autocomplete: "nickname", maxlength: "30", required: "" }));
    const lang = field("lang", tx("join_language"), h("select", "ckc-input"));
    for (const [c, n] of Object.entries(CK_LANGUAGES)) {
      const o = h("option", "", { value: c });
      o.textContent = n;
      if (c === conn.lang()) o.selected = true;
      lang.append(o);
    }
    lang.addEventListener("change", () => { conn.setLang(lang.value); showJoin(); });
    const go = h("button", "ckc-btn ckc-joinbtn", { type: "submit" });
    go.textContent = tx("join");
    const msg = h("div", "ckc-msg");
    say(msg, error, "error");
    form.append(h("div", "ckc-row"), msg);
    form.lastChild.previousSibling.append(go);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      go.disabled = true;
      const r = await conn.api("POST", "api/join", { code: code.value.trim().toUpperCase(), name: name.value.trim(), lang: conn.lang() });
      go.disabled = false;
      if (!r.ok) return say(msg, r.data.error || tx("refused").replace("{status}", r.status), "error");
      conn.setToken(r.data.token);
      start();
    });
    app.append(title, form);
    (code.value ? name : code).focus();
  };

  // -- the board ----------------------------------------------------------------------------
  const showBoard = (me) => {
    document.title = tx("student_title");
    document.documentElement.lang = conn.lang();
    app.innerHTML = "";
    const hello = h("div", "ckc-head"), prompt = h("div", "ckc-prompt", { "aria-live": "polite" });
    const board = h("div", "ckc-board"), promo = h("div", "ckc-promo", { role: "group" });
    const row = h("div", "ckc-row"), msg = h("div", "ckc-msg", { role: "status", "aria-live": "polite" });
    const input = h("input", "ckc-input", { type: "text", autocomplete: "off", spellcheck: "false", autocapitalize: "off" });
    const send = h("button", "ckc-btn ckc-send", { type: "button" });
    hello.textContent = tx("hello").replace("{name}", me.user || "");
    input.placeholder = tx("type_move");
    input.setAttribute("aria-label", input.placeholder);
    send.textContent = tx("send");
    row.append(input, send);
    promo.hidden = true;
    app.append(hello, prompt, board, promo, row, msg);
    let round = null, sent = null, selected = null, drag = null, online = true;
    let sendEvent = () => false, sending = 0;
    const waiting = []; // answers sent on the socket, oldest first: { id, done }

    // an answer on the socket: the reply as conn.api gives it, or null (no socket, no reply)
    const viaSocket = (id, text) => new Promise((resolve) => {
      if (!sendEvent({ type: "answer", round: id, answer: text })) return resolve(null);
      const entry = { id };
      const timer = setTimeout(() => entry.done(null), 10000);
      entry.done = (r) => {
        clearTimeout(timer);
        const i = waiting.indexOf(entry);
        if (i >= 0) waiting.splice(i, 1);
        resolve(r);
      };
      waiting.push(entry);
    });
    const replied = (event) => {
      const entry = waiting.find((w) => w.id === event.round);
      if (!entry) return;
      entry.done(event.type === "answer_ack" ? { ok: true, status: 200, data: event }
        : { ok: false, status: event.status || 400, data: { error: event.error } });
    };

    const draw = () => {
      const arrows = [];
      app.dataset.orientation = round ? CKBoard.turn(round.fen) : "white";
      const solution = round && round.state === "closed" && round.solution ? round.solution.arrows || [] : [];
      for (const u of solution) arrows.push({ uci: u, colour: "green", width: 10 });
      if (sent && !solution.includes(sent.uci)) arrows.push({ uci: sent.uci, colour: "blue", width: 9 });
      board.innerHTML = CKBoard.draw({ fen: round ? round.fen : "8/8/8/8/8/8/8/8 w - - 0 1", orientation: round ? CKBoard.turn(round.fen) : "white", arrows, selected, label: tx("board_label") });
      const open = !!round && round.state === "open";
      input.disabled = send.disabled = !open;
    };
    const show = () => {
      draw();
      if (!round) { prompt.textContent = ""; return online ? say(msg, tx("waiting")) : say(msg, tx("offline"), "error"); }
      prompt.textContent = (round.prompts && round.prompts[conn.lang()]) || round.prompt || "";
      if (round.state === "closed") {
        const sol = round.solution || {}, text = (sol.text && (sol.text[conn.lang()] || sol.text.en)) || "";
        const mine = !sent ? tx("no_answer") : round.judged && (sol.moves || []).includes(sent.move)
          ? tx("found_it").replace("{san}", sent.move) : tx("your_answer").replace("{san}", sent.move);
        return say(msg, text ? tx("two_sentences").replace("{first}", text).replace("{second}", mine) : mine, "ok");
      }
      if (!online) return say(msg, tx("offline"), "error");
      say(msg, sent ? tx("sent").replace("{san}", sent.move) : tx("your_move"), sent ? "ok" : "info");
    };
    const setRound = (r) => {
      if (!r) { if (round && round.state === "open") round = { ...round, state: "closed" }; selected = null; return show(); }
      if (round && (r.id < round.id || (r.id === round.id && round.state === "closed" && r.state === "open"))) return; // news older than the round shown
      if (!round || r.id !== round.id) { sent = null; selected = null; promo.hidden = true; }
      round = r;
      if (r.answer) sent = { move: r.answer.move, uci: r.answer.uci };
      show();
    };
    const answer = async (text) => {
      if (!round || round.state !== "open") return say(msg, tx("not_open"), "error");
      const id = round.id, turn = ++sending;
      let r = await viaSocket(id, text);
      if (!r && turn !== sending) return false; // a newer answer is on its way: it counts
      if (!r) r = await conn.api("POST", `api/rounds/${id}/answers`, { answer: text });
      selected = null;
      promo.hidden = true;
      if (r.ok) { sent = { move: r.data.move, uci: r.data.uci }; show(); return true; }
      if (r.status === 401 || r.status === 403 && !conn.token()) return start();
      draw();
      say(msg, r.data.error || tx("refused").replace("{status}", r.status), "error");
      if (r.status === 409) conn.api("GET", `api/rounds/${round.id}`).then((x) => x.ok && setRound(x.data));
      return false;
    };
    const pieces = () => CKBoard.pieces(round ? round.fen : "");
    const mine = (sq) => {
      const p = pieces()[sq];
      return !!p && (p === p.toUpperCase()) === (CKBoard.turn(round.fen) === "white");
    };
    const tryMove = (from, to) => {
      const p = pieces()[from];
      if (p && p.toLowerCase() === "p" && (to[1] === "8" || to[1] === "1")) return choosePromotion(from, to, p === "P");
      answer(from + to);
    };
    const choosePromotion = (from, to, white) => {
      promo.innerHTML = "";
      promo.setAttribute("aria-label", tx("choose_piece"));
      for (const k of "qrbn") {
        const symbol = white ? k.toUpperCase() : k, b = h("button", "ckc-btn", { type: "button", "data-piece": k });
        b.innerHTML = `<svg viewBox="0 0 45 45"><defs>${CK_PIECES[symbol]}</defs><use href="#ck-${symbol}"/></svg>`;
        b.addEventListener("click", () => answer(from + to + k));
        promo.append(b);
      }
      promo.hidden = false;
      say(msg, tx("choose_piece"));
    };
    const at = (e) => { const s = board.querySelector("svg"); return s && round ? CKBoard.squareAt(s, e.clientX, e.clientY, CKBoard.turn(round.fen)) : null; };
    board.addEventListener("pointerdown", (e) => {
      if (!round || round.state !== "open") return;
      const sq = at(e);
      if (!sq) return;
      e.preventDefault();
      if (selected && sq !== selected && !mine(sq)) { const from = selected; selected = null; draw(); return tryMove(from, sq); }
      if (mine(sq)) {
        const again = sq === selected;
        selected = again ? null : sq;
        drag = again ? null : { sq };
        promo.hidden = true;
        draw();
      }
    });
    board.addEventListener("pointerup", (e) => {
      const sq = at(e), from = drag && drag.sq;
      drag = null;
      if (from && sq && sq !== from && selected === from) { selected = null; draw(); tryMove(from, sq); }
    });
    const typed = () => { if (input.value.trim()) answer(input.value.trim()).then((ok) => { if (ok) input.value = ""; }); };
    send.addEventListener("click", typed);
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") typed(); });
    sendEvent = conn.events((event) => {
      if (event.type === "answer_ack" || event.type === "error") replied(event);
      if (["hello", "round_opened", "round_closed"].includes(event.type)) setRound(event.round);
      else if (event.type === "answer_ack" && round && event.round === round.id) { sent = { move: event.move, uci: event.uci }; show(); }
    }, (up) => {
      online = up;
      if (!up) for (const w of [...waiting]) w.done(null); // the socket is gone: POST them
      show();
    });
    show();
  };

  const start = async () => {
    document.documentElement.lang = conn.lang();
    const r = await conn.api("GET", "api/me");
    if (r.ok && r.data.role === "student") return showBoard(r.data);
    if (r.ok && r.data.role === "teacher") { app.innerHTML = ""; const a = h("a", "ckc-btn", { href: "teacher" }); a.textContent = tx("teacher_title"); return app.append(a); }
    conn.forget();
    showJoin();
  };
  start();
})();
