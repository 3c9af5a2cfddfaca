// chesskit classroom: the teacher's page (the projector). The same view as the notebook's
// teacher board; rounds are opened from an exercise id or a FEN, closed, and followed.
(() => {
  const app = document.getElementById("app");
  const conn = CKConnection("teacher"), tx = conn.tx;
  const state = { fen: "8/8/8/8/8/8/8/8 w - - 0 1", orientation: "white", size: 560, lang: conn.lang(),
    round_id: 0, round_state: "", judged: false, joined: 0, connected: 0, answered: 0, correct: -1,
    moves: [], answers: [], show_names: false, solution: [], solution_text: "", message: "",
    message_kind: "info", prompt: "", exercise: "" };
  let view = null;
  const update = () => view && view.update(state);
  const fail = (r) => { state.message = r.data.error || tx("refused").replace("{status}", r.status); state.message_kind = "error"; update(); };
  const showRound = (r) => {
    if (!r) return;
    if (r.id < state.round_id || (r.id === state.round_id && state.round_state === "closed" && r.state === "open")) return; // older news
    if (r.id !== state.round_id) Object.assign(state, { moves: [], answers: [], answered: 0, correct: -1 });
    const sol = r.solution || {};
    Object.assign(state, { round_id: r.id, round_state: r.state, fen: r.fen, orientation: CKBoard.turn(r.fen),
      prompt: (r.prompts && r.prompts[conn.lang()]) || r.prompt || "", exercise: r.exercise || "",
      judged: !!r.judged, solution: sol.arrows || [], message: "",
      solution_text: (sol.text && (sol.text[conn.lang()] || sol.text.en)) || "" });
    update();
  };
  const showSummary = (s) => {
    if (!s || (s.round !== undefined && s.round !== state.round_id)) return;
    const right = Object.fromEntries((s.answers || []).map((a) => [a.move, a.correct]));
    Object.assign(state, { joined: s.joined || 0, connected: s.connected || 0, answered: s.answered || 0,
      correct: s.correct === null || s.correct === undefined ? -1 : s.correct, answers: s.answers || [],
      moves: Object.entries(s.moves || {}).map(([san, count]) => ({ san, count, uci: (s.uci || {})[san] || "", right: right[san] })) });
    update();
  };
  const summary = async () => {
    if (!state.round_id) return;
    const r = await conn.api("GET", `api/rounds/${state.round_id}/summary`);
    if (r.ok) showSummary(r.data);
  };
  const open = async (body) => {
    const r = await conn.api("POST", "api/rounds", body);
    if (!r.ok) { fail(r); return false; }
    showRound(r.data);
    summary();
    return true;
  };
  // the next exercise of the bank that a round can be opened from (api/exercises, in bank order)
  let exercises = null;
  const next = async () => {
    if (!exercises) {
      const r = await conn.api("GET", "api/exercises");
      if (!r.ok) return fail(r);
      exercises = r.data.ids || [];
    }
    const following = exercises.find((id) => id > state.exercise);
    if (!following) { state.message = tx("no_next"); state.message_kind = "info"; return update(); }
    return open({ exercise: following });
  };
  const act = async (type, text) => {
    if (type === "names") { state.show_names = !state.show_names; return update(); }
    if (type === "close" && state.round_id) {
      const r = await conn.api("POST", `api/rounds/${state.round_id}/close`, {});
      if (!r.ok) return fail(r);
      showRound(r.data);
      return summary();
    }
    if (type === "next") return next();
    if (type === "ask") return open(/^\d\d\.\d\d$/.test(text) ? { exercise: text } : { fen: text });
  };
  const start = async () => {
    const r = await conn.api("GET", "api/me");
    if (!r.ok || r.data.role !== "teacher") {
      app.innerHTML = "";
      const p = document.createElement("p");
      p.className = "ckc-msg ckc-error";
      p.textContent = r.status === 0 ? tx("offline") : tx("teacher_only");
      return app.append(p);
    }
    if (r.data.lang) conn.setLang(r.data.lang);
    state.lang = conn.lang();
    document.title = tx("teacher_title");
    if (r.data.join_code) {
      const info = document.createElement("div");
      info.className = "ckc ckc-joininfo";
      info.textContent = tx("students_open").replace("{url}", r.data.student_url || new URL(".", location.href).href).replace("{code}", r.data.join_code);
      app.append(info);
    }
    view = CKTeacherView(app, { tx, act });
    update();
    conn.events((e) => {
      if (e.type === "summary") showSummary(e.summary);
      else if (["hello", "round_opened", "round_closed"].includes(e.type)) { showRound(e.round); summary(); }
    }, () => {});
  };
  start();
})();
