"""The classroom's boards in a notebook: the student's board and the teacher's big board.

:class:`StudentBoard` is a :class:`chesskit.widgets.board.Board` (the course's board, its
clicks, drags, typed moves and explanations): a move played on it is not pushed but sent as the
answer, shown as an arrow with "sent", and may be changed while the round is open.
:class:`TeacherBoard` draws the class's answers as arrows weighted by how many played each move,
with the same board drawing and view as the laptop's teacher page (``static/chessboard.js`` and
``static/teacherview.js``).  Both get the service's events from
:class:`chesskit.classroom.client.Listener` and keep all their state in synced traitlets.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any

import anywidget
import chess
import traitlets

from chesskit.drawing.diagram import BoardSvg
from chesskit.drawing.diagram import board as diagram
from chesskit.errors import ClassroomError
from chesskit.exercises.catalog import bank
from chesskit.i18n import get_language, sentences, t
from chesskit.rules.explain import Verdict, explain_move
from chesskit.widgets.board import Board

if TYPE_CHECKING:
    from chesskit.classroom.client import Classroom

STATIC = resources.files("chesskit.classroom") / "static"
EMPTY = "8/8/8/8/8/8/8/8 w - - 0 1"
EXERCISE_ID = re.compile(r"^\d\d\.\d\d$")
TEACHER_TEXTS = ("joined", "answered", "right", "wrong", "connected", "ask", "ask_box",
                 "close", "next", "show_names", "hide_names", "student", "move", "no_answers",
                 "round", "solution", "waiting", "board_label", "state_open", "state_closed")
"""The ``client_*`` texts the teacher's view shows (``ui`` of the widget, CK_TEXTS of a page)."""


def prompt_of(round_: Mapping[str, Any], lang: str) -> str:
    """The round's task in ``lang`` (from ``prompts``), else its ``prompt``.

    >>> prompt_of({"prompt": "Mate!", "prompts": {"en": "Mate!", "zh-Hans": "将死！"}}, "zh-Hans")
    '将死！'
    """
    prompts = round_.get("prompts") or {}
    return str(prompts.get(lang) or round_.get("prompt") or "")


def solution_text(round_: Mapping[str, Any], lang: str) -> str:
    """The closed round's sentence in ``lang`` ("" while it is open)."""
    solution = round_.get("solution") or {}
    text = solution.get("text") or {}
    return str(text.get(lang) or text.get("en") or "") if isinstance(text, Mapping) else str(text)


def is_stale(round_: Mapping[str, Any], shown: int, state: str) -> bool:
    """Is this news older than the round shown (events and replies may cross)? Round ids
    only grow, and a round never opens again once closed.

    >>> is_stale({"id": 3, "state": "open"}, 4, "open")
    True
    >>> is_stale({"id": 4, "state": "open"}, 4, "closed")
    True
    """
    rid = int(round_["id"])
    return rid < shown or (rid == shown and state == "closed" and round_.get("state") == "open")


def turn_of(fen: str) -> str:
    """``"white"`` or ``"black"``: the side to move, which the board shows at the bottom.

    >>> turn_of("8/8/8/8/8/8/8/8 b - - 0 1")
    'black'
    """
    return "black" if fen.split(" ")[1:2] == ["b"] else "white"


class StudentBoard(Board):
    """The student's board: the round's position and task; a move played or typed is sent.

    Made by ``ck.classroom.join()``; ``show_round`` and ``on_event`` are called by the kernel's
    listener thread (serialised by a lock), ``move`` by the page.  It has no "Clear arrows"
    (its arrows are its answer and the solution) and never offers "Ask the class".  While the
    service cannot be reached it says so, and says again what it said before once it can.
    """

    _offers_ask = False

    prompt = traitlets.Unicode("").tag(sync=True)
    round_id = traitlets.Int(0).tag(sync=True)
    round_state = traitlets.Unicode("").tag(sync=True)
    sent = traitlets.Unicode("").tag(sync=True)

    def __init__(self, classroom: Classroom, *, size: int = 400, lang: str | None = None) -> None:
        super().__init__(EMPTY, mode="view", size=size, takeback=False, lang=lang,
                         buttons={"clear": False})
        self._classroom = classroom
        self._lock = threading.RLock()
        self._solution: list[list[str]] = []
        self._before_lost: tuple[str, str] | None = None
        self.say(t("classroom.client_waiting", lang=self.lang))

    def show_round(self, round_: Mapping[str, Any] | None) -> None:
        """Show a round as the service sent it (None: there is no open round)."""
        with self._lock, self.hold_sync():
            if round_ is None:
                if self.round_state == "open":  # closed while we were away: say so
                    self.round_state = "closed"
                    self.set_position(self.board, arrows=self.arrows, mode="view")
                    self.say(t("classroom.client_closed_wait", lang=self.lang))
                elif not self.round_id:
                    self.say(t("classroom.client_waiting", lang=self.lang))
                return
            if is_stale(round_, self.round_id, self.round_state):
                return
            new = int(round_["id"]) != self.round_id
            self.round_id, self.round_state = int(round_["id"]), str(round_.get("state", ""))
            self.orientation = turn_of(str(round_["fen"]))
            self.set_position(chess.Board(str(round_["fen"])),
                              mode="play" if self.round_state == "open" else "view")
            self.prompt = prompt_of(round_, self.lang)
            answer = round_.get("answer") or {}
            if answer:
                self.sent = str(answer.get("move", ""))
                self._own = str(answer.get("uci", ""))
            elif new:
                self.sent, self._own = "", ""
            solution = round_.get("solution") or {}
            self._solution = [[u[:2], u[2:4], "green"] for u in solution.get("arrows", [])]
            self._draw()
            if self.round_state == "closed":
                self._say_solution(round_, solution)
            elif self.sent:
                self.say(t("classroom.client_sent", lang=self.lang, san=self.sent), kind="ok")
            else:
                self.say(t("classroom.client_your_move", lang=self.lang))

    _own = ""

    def _draw(self) -> None:
        own = [[self._own[:2], self._own[2:4], "blue"]] if self._own else []
        shown = {tuple(a[:2]) for a in self._solution}
        self.arrows = self._solution + [a for a in own if tuple(a[:2]) not in shown]

    def _say_solution(self, round_: Mapping[str, Any], solution: Mapping[str, Any]) -> None:
        text = solution_text(round_, self.lang)
        if not self.sent:
            mine = t("classroom.client_no_answer", lang=self.lang)
        elif round_.get("judged") and self.sent in solution.get("moves", []):
            mine = t("classroom.client_found_it", lang=self.lang, san=self.sent)
        else:
            mine = t("classroom.client_your_answer", lang=self.lang, san=self.sent)
        self.say(sentences(text, mine, lang=self.lang), kind="ok")

    def on_event(self, event: Mapping[str, Any]) -> None:
        """One event of the service (``hello``, ``round_opened``, ``answer_ack``...; ``lost``
        from the listener when the service cannot be reached)."""
        kind = event.get("type")
        if kind == "lost":
            self.lost()
            return
        self.rejoined()
        if kind in ("hello", "poll", "round_opened", "round_closed"):
            self.show_round(event.get("round"))
        elif kind == "answer_ack" and event.get("round") == self.round_id:
            with self._lock, self.hold_sync():
                self.sent, self._own = str(event.get("move", "")), str(event.get("uci", ""))
                self._draw()
                self.say(t("classroom.client_sent", lang=self.lang, san=self.sent), kind="ok")

    def lost(self) -> None:
        """The service cannot be reached: say so (the listener keeps trying)."""
        with self._lock:
            if self._before_lost is None:
                self._before_lost = (self.message, self.message_kind)
            self.say(t("classroom.board_lost", lang=self.lang), kind="error")

    def rejoined(self) -> None:
        """The service answers again: say again what was said before the notice."""
        with self._lock:
            if self._before_lost is not None:
                message, kind = self._before_lost
                self._before_lost = None
                self.say(message, kind=kind)

    def move(self, move: str | chess.Move) -> Verdict:
        """Send ``move`` as the answer (the position stays, so it can be changed)."""
        with self._lock:
            verdict = explain_move(self.board, move, lang=self.lang)
            if self.round_state != "open":
                self.say(t("classroom.client_not_open", lang=self.lang), kind="error")
                return verdict
            if not verdict.legal or verdict.move is None:
                self.say(verdict.message, squares=verdict.squares, kind="error")
                return verdict
            try:
                reply = self._classroom.answer(self.round_id, verdict.move.uci(), lang=self.lang)
            except ClassroomError as error:
                self.say(str(error), kind="error")
                return verdict
            with self.hold_sync():
                self.sent, self._own = str(reply.get("move", "")), str(reply.get("uci", ""))
                self._draw()
                self.say(t("classroom.client_sent", lang=self.lang, san=self.sent), kind="ok")
            return verdict


def _esm(glue: str) -> str:
    """The drawing scripts shared with the laptop pages, then the widget's own glue."""
    return "\n".join((STATIC / name).read_text(encoding="utf-8")
                     for name in ("generated.js", "chessboard.js", "teacherview.js", glue))


class TeacherBoard(anywidget.AnyWidget):
    """The teacher's big board: the round's position, the class's moves as arrows weighted by
    how many played them (green right, red wrong, blue when any move counts), the counts, who
    played what one click away, and buttons to close, go on and ask the class.

    Made by ``ck.classroom.ask(...)`` or ``ck.classroom.teacher()``.
    """

    _esm = _esm("teacherwidget.js")
    _css = (STATIC / "classroom.css").read_text(encoding="utf-8")

    fen = traitlets.Unicode(EMPTY).tag(sync=True)
    orientation = traitlets.Unicode("white").tag(sync=True)
    size = traitlets.Int(520).tag(sync=True)
    lang = traitlets.Unicode("en").tag(sync=True)
    ui = traitlets.Dict().tag(sync=True)
    prompt = traitlets.Unicode("").tag(sync=True)
    exercise = traitlets.Unicode("").tag(sync=True)
    round_id = traitlets.Int(0).tag(sync=True)
    round_state = traitlets.Unicode("").tag(sync=True)
    judged = traitlets.Bool(False).tag(sync=True)
    joined = traitlets.Int(0).tag(sync=True)
    connected = traitlets.Int(0).tag(sync=True)
    answered = traitlets.Int(0).tag(sync=True)
    correct = traitlets.Int(-1).tag(sync=True)
    moves = traitlets.List(traitlets.Dict()).tag(sync=True)
    answers = traitlets.List(traitlets.Dict()).tag(sync=True)
    show_names = traitlets.Bool(False).tag(sync=True)
    solution = traitlets.List(traitlets.Unicode()).tag(sync=True)
    solution_text = traitlets.Unicode("").tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    message_kind = traitlets.Unicode("info").tag(sync=True)

    def __init__(self, classroom: Classroom, *, size: int = 520, lang: str | None = None) -> None:
        lang = get_language(lang)
        super().__init__(size=size, lang=lang,
                         ui={key: t(f"classroom.client_{key}", lang=lang)
                             for key in TEACHER_TEXTS})
        self._classroom = classroom
        self._lock = threading.RLock()
        self.on_msg(self._on_msg)

    def __repr__(self) -> str:
        return f"<chesskit.TeacherBoard round={self.round_id} fen={self.fen!r}>"

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        bundle = super()._repr_mimebundle_(**kwargs)
        data, metadata = bundle if bundle is not None else ({}, {})
        data.update(self.svg()._repr_mimebundle_())
        return data, metadata

    def svg(self) -> BoardSvg:
        """The position with the class's arrows as a course diagram (the offline fallback)."""
        colour = {True: "green", False: "red", None: "blue"}
        arrows = [(m["uci"][:2], m["uci"][2:4], colour[m.get("right")]) for m in self.moves
                  if len(m.get("uci", "")) >= 4]
        return diagram(self.fen, arrows=arrows or None, orientation=self.orientation != "black",
                       caption=self.prompt or None, lang=self.lang)

    # -- what the service says --------------------------------------------------------------

    def show_round(self, round_: Mapping[str, Any] | None) -> None:
        """Show a round (its position, task, and once closed its solution)."""
        if round_ is None:
            return
        with self._lock, self.hold_sync():
            if is_stale(round_, self.round_id, self.round_state):
                return
            new = int(round_["id"]) != self.round_id
            self.round_id, self.round_state = int(round_["id"]), str(round_.get("state", ""))
            self.fen = str(round_["fen"])
            self.orientation = turn_of(self.fen)
            self.prompt = prompt_of(round_, self.lang)
            self.exercise = str(round_.get("exercise") or "")
            self.judged = bool(round_.get("judged"))
            solution = round_.get("solution") or {}
            self.solution = [str(u) for u in solution.get("arrows", [])]
            self.solution_text = solution_text(round_, self.lang)
            self.message = ""
            if new:
                self.moves, self.answers, self.answered, self.correct = [], [], 0, -1
        self.refresh()

    def refresh(self) -> None:
        """Ask the service for the round's summary now (the websocket sends it as it changes)."""
        if not self.round_id:
            return
        try:
            self.show_summary(self._classroom.round_summary(self.round_id).data)
        except ClassroomError as error:
            self.say(str(error), kind="error")

    def show_summary(self, summary: Mapping[str, Any]) -> None:
        """Show the counts, the weighted moves and who played what."""
        with self._lock, self.hold_sync():
            if summary.get("round") not in (None, self.round_id):
                return
            answers = [dict(a) for a in summary.get("answers", [])]
            right = {a.get("move"): a.get("correct") for a in answers}
            uci = summary.get("uci") or {}
            self.joined = int(summary.get("joined") or 0)
            self.connected = int(summary.get("connected") or 0)
            self.answered = int(summary.get("answered") or 0)
            correct = summary.get("correct")
            self.correct = -1 if correct is None else int(correct)
            self.moves = [{"san": san, "uci": str(uci.get(san, "")), "count": int(count),
                           "right": right.get(san)}
                          for san, count in (summary.get("moves") or {}).items()]
            self.answers = answers

    def on_event(self, event: Mapping[str, Any]) -> None:
        """One event of the service (``lost``: the service cannot be reached, said until the
        next event)."""
        kind = event.get("type")
        lost = t("classroom.board_lost", lang=self.lang)
        if kind == "lost":
            self.say(lost, kind="error")
            return
        if self.message == lost:
            self.say("")
        if kind == "summary":
            self.show_summary(event.get("summary") or {})
        elif kind in ("hello", "poll", "round_opened", "round_closed"):
            self.show_round(event.get("round"))

    def say(self, message: str, *, kind: str = "info") -> None:
        """A sentence under the board."""
        with self.hold_sync():
            self.message, self.message_kind = message, kind

    # -- the buttons --------------------------------------------------------------------------

    def _on_msg(self, _widget: object, content: object, _buffers: object) -> None:
        if isinstance(content, Mapping):
            self.handle(content)

    def handle(self, content: Mapping[str, object]) -> None:
        """A button of the page: ``{"type": "ask", "text": "06.12"}``, ``close``, ``next``."""
        kind, text = content.get("type"), str(content.get("text", "")).strip()
        try:
            if kind == "close" and self.round_id and self.round_state == "open":
                self.show_round(self._classroom.close_round(self.round_id))
            elif kind == "next":
                following = next_exercise(self.exercise)
                if following is None:
                    self.say(t("classroom.client_no_next", lang=self.lang))
                else:
                    self.show_round(self._classroom.open_round(following))
            elif kind == "ask" and text:
                self.ask(text)
        except ClassroomError as error:
            self.say(str(error), kind="error")

    def ask(self, text: str) -> None:
        """Open a round from what the teacher typed: an exercise id or a FEN."""
        if EXERCISE_ID.match(text):
            self.show_round(self._classroom.open_round(text))
        else:
            self.show_round(self._classroom.open_round(fen=text))


def next_exercise(exercise_id: str) -> str | None:
    """The bank's next exercise answered by one move on the board, after ``exercise_id``.

    >>> next_exercise("06.12") > "06.12"
    True
    """
    if not exercise_id:
        return None
    for item in bank():
        if item.id > exercise_id and item.board_input() in ("move", "line"):
            return item.id
    return None
