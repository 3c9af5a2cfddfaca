// the teacher's board in a notebook: the synced traitlets are the view's state
export default {
  render({ model, el }) {
    const keys = ["fen", "orientation", "size", "lang", "prompt", "exercise", "round_id",
      "round_state", "judged", "joined", "connected", "answered", "correct", "moves", "answers",
      "show_names", "solution", "solution_text", "message", "message_kind"];
    const view = CKTeacherView(el, {
      tx: (k) => (model.get("ui") || {})[k] || k,
      act: (type, text) => {
        if (type === "names") { model.set("show_names", !model.get("show_names")); model.save_changes(); }
        else model.send({ type, text: text || "" });
      },
    });
    const update = () => view.update(Object.fromEntries(keys.map((k) => [k, model.get(k)])));
    model.on("change", update);
    update();
  },
};
