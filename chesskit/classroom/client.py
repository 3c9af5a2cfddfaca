"""The classroom from a kernel: ``ck.classroom.ask(...)``, ``join()``, ``close()``, ``summary()``.

A :class:`Classroom` talks to the classroom service (docs/classroom-api.md): REST calls with
``urllib`` from the calling thread, and the service's websocket (``api/events``) held by a
:class:`Listener` thread with its own asyncio loop.  A thread, not the kernel's own event loop:
the kernel's loop is busy while any cell runs (and ipykernel 6 and 7 run it differently), while
a thread gets a new round within a second even then; a widget's traitlets set from that thread
reach the page through ipykernel's thread-safe IOPub channel.  When the websocket cannot be
opened, the thread asks ``api/rounds/current`` instead and tries again after 1 s, backing off
to 10 s, so a student still gets the round (a little later) behind a proxy that drops
websockets.  A student's answer goes over that websocket while it is open (it costs the
service less than half of a ``POST``), else, or when no reply comes in time, by ``POST``.

On a JupyterHub the service's address comes from ``$CHESSKIT_CLASSROOM_URL`` (the trial
``jupyterhub_config.py`` sets it) and the identity from the kernel's ``$JUPYTERHUB_API_TOKEN``;
a laptop-mode session token may be given as ``$CHESSKIT_CLASSROOM_TOKEN`` or with
:func:`connect`.  The functions for the notebook never raise: a problem is one sentence.

>>> from_environment({}).problem
'The live classroom works on a JupyterHub with the classroom service. This kernel is not on a hub.'
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import html
import json
import os
import queue
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import chess
from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

from chesskit.classroom.widgets import StudentBoard, TeacherBoard
from chesskit.errors import ClassroomError
from chesskit.i18n import get_language, sentences, t
from chesskit.widgets.board import Board

TIMEOUT = 10.0
"""Seconds a REST call may take before the service counts as unreachable."""
RETRY = (1.0, 10.0)
"""The listener's first and longest wait before it tries the websocket again."""
ANSWER_TIMEOUT = 10.0
"""Seconds an answer sent on the websocket waits for its reply before it is sent by POST."""

Handler = Callable[[Mapping[str, Any]], None]


class Notice(str):
    """A sentence a notebook shows as it is (what the notebook functions return on a problem).

    >>> Notice("The round is closed.")
    The round is closed.
    """

    def __repr__(self) -> str:
        return str(self)


@dataclass(frozen=True)
class Connection:
    """Where the service is and who we are: ``url`` ends with ``/``; ``problem`` a sentence
    when there is no service to talk to."""

    url: str = ""
    token: str = ""
    problem: str = ""

    def request(self, method: str, path: str, body: Mapping[str, Any] | None = None, *,
                lang: str | None = None) -> Any:
        """One REST call; the JSON reply, or :class:`ClassroomError` with the service's
        sentence (code ``http_<status>``) or a sentence of ours (``unreachable``).

        >>> Connection(problem="No hub.").request("GET", "api/me")
        Traceback (most recent call last):
        ...
        chesskit.errors.ClassroomError: No hub.
        """
        if self.problem:
            raise ClassroomError("no_service", self.problem)
        lang = get_language(lang)
        query = "&" if "?" in path else "?"
        request = urllib.request.Request(
            f"{self.url}{path}{query}lang={urllib.parse.quote(lang)}", method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"token {self.token}",
                     "Content-Type": "application/json", "Accept-Language": lang})
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as reply:
                text = reply.read()
        except urllib.error.HTTPError as error:
            raise ClassroomError(f"http_{error.code}", _error_sentence(error, lang)) from None
        except (OSError, ValueError):
            raise ClassroomError("unreachable", t("classroom.client_unreachable", lang=lang,
                                                  url=self.url)) from None
        return json.loads(text) if text else None

    def events_url(self) -> str:
        """The websocket's address (``ws:`` for ``http:``, ``wss:`` for ``https:``).

        >>> Connection("https://school.example/services/classroom/", "x").events_url()
        'wss://school.example/services/classroom/api/events'
        """
        return "ws" + self.url.removeprefix("http") + "api/events"


def _error_sentence(error: urllib.error.HTTPError, lang: str) -> str:
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sentence = json.loads(error.read()).get("error")
        if isinstance(sentence, str) and sentence:
            return sentence
    return t("classroom.client_refused", lang=lang, status=error.code)


def from_environment(environ: Mapping[str, str] | None = None) -> Connection:
    """The service of this kernel's hub (or of ``$CHESSKIT_CLASSROOM_URL`` with a laptop
    session's ``$CHESSKIT_CLASSROOM_TOKEN``); ``problem`` says why there is none.

    >>> from_environment({"CHESSKIT_CLASSROOM_URL": "http://127.0.0.1:8765",
    ...                   "CHESSKIT_CLASSROOM_TOKEN": "abc"}).url
    'http://127.0.0.1:8765/'
    """
    environ = os.environ if environ is None else environ
    url = environ.get("CHESSKIT_CLASSROOM_URL", "")
    token = environ.get("CHESSKIT_CLASSROOM_TOKEN") or environ.get("JUPYTERHUB_API_TOKEN", "")
    if not token:
        return Connection(problem=t("classroom.client_no_hub"))
    if not url:
        return Connection(problem=t("classroom.client_no_service"))
    return Connection(url.rstrip("/") + "/", token)


class Listener(threading.Thread):
    """The service's events, read in a thread of their own; ``handler`` gets each message
    (and ``{"type": "poll", "round": ...}`` from ``api/rounds/current`` while the websocket
    is down) from one more thread, in order, so a board busy sending an answer never holds up
    the reply it waits for.  :meth:`send_answer` answers over the websocket.  ``stop()`` ends
    it."""

    def __init__(self, connection: Connection, handler: Handler) -> None:
        super().__init__(name="chesskit-classroom-events", daemon=True)
        self.connection, self.handler = connection, handler
        self.connected = threading.Event()
        self.lang = get_language()
        """The language of the websocket's sentences (the refusals of answers sent on it)."""
        self._stopping = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._socket: Any = None
        self._events: queue.SimpleQueue[Mapping[str, Any] | None] = queue.SimpleQueue()
        self._waiting: list[tuple[int, concurrent.futures.Future[Mapping[str, Any] | None]]] = []
        self._waiting_lock = threading.Lock()

    def run(self) -> None:
        handing = threading.Thread(target=self._hand_over, name="chesskit-classroom-handler",
                                   daemon=True)
        handing.start()
        try:
            asyncio.run(self._main())
        finally:
            self._settle_all()
            self._events.put(None)

    def send_answer(self, round_id: int, text: str, *,
                    timeout: float | None = None) -> Mapping[str, Any] | None:
        """Send an answer on the websocket (from any thread): the reply ``{"round", "move",
        "uci"}``, ClassroomError with the service's sentence (code ``http_<status>``), or None
        when the websocket is down or no reply came within ``timeout`` s (default
        :data:`ANSWER_TIMEOUT`; then send it by
        POST: one answer per student and round, the last counts, so nothing counts twice)."""
        loop, socket = self._loop, self._socket
        if not self.connected.is_set() or loop is None or socket is None:
            return None
        reply: concurrent.futures.Future[Mapping[str, Any] | None] = concurrent.futures.Future()
        waiting = (round_id, reply)
        with self._waiting_lock:
            self._waiting.append(waiting)
        message = json.dumps({"type": "answer", "round": round_id, "answer": text})
        try:
            loop.call_soon_threadsafe(self._write, socket, message, reply)
            event = reply.result(ANSWER_TIMEOUT if timeout is None else timeout)
        except (RuntimeError, concurrent.futures.TimeoutError):  # a loop gone, or no reply
            event = None
        finally:
            with self._waiting_lock, contextlib.suppress(ValueError):
                self._waiting.remove(waiting)
        if event is None:
            return None
        if event.get("type") == "error":
            status = event.get("status", 400)
            raise ClassroomError(f"http_{status}", str(event.get("error")) or t(
                "classroom.client_refused", lang=self.lang, status=status))
        return {"round": round_id, "move": event.get("move", ""), "uci": event.get("uci", "")}

    @staticmethod
    def _write(socket: Any, message: str,
               reply: concurrent.futures.Future[Mapping[str, Any] | None]) -> None:
        try:
            socket.write_message(message)
        except Exception:  # noqa: BLE001  (closed meanwhile: the caller sends it by POST)
            if not reply.done():
                reply.set_result(None)

    def _settle(self, event: Mapping[str, Any]) -> None:
        """An ``answer_ack`` or ``error`` is the reply to the oldest answer waiting for its
        round (the service answers a socket's messages in order)."""
        if event.get("type") not in ("answer_ack", "error"):
            return
        with self._waiting_lock:
            for waiting in self._waiting:
                if waiting[0] == event.get("round"):
                    self._waiting.remove(waiting)
                    if not waiting[1].done():
                        waiting[1].set_result(event)
                    return

    def _settle_all(self) -> None:
        """The websocket is gone: every answer waiting for a reply goes by POST at once."""
        with self._waiting_lock:
            waiting, self._waiting = self._waiting, []
        for _, reply in waiting:
            if not reply.done():
                reply.set_result(None)

    def stop(self) -> None:
        """Close the websocket and end the thread (soon, not at once)."""
        self._stopping.set()
        loop, socket = self._loop, self._socket
        if loop is not None and socket is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(socket.close)

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        wait = RETRY[0]
        while not self._stopping.is_set():
            self.lang = get_language()
            request = HTTPRequest(self.connection.events_url() + f"?lang={self.lang}",
                                  headers={"Authorization": f"token {self.connection.token}"},
                                  connect_timeout=TIMEOUT, request_timeout=TIMEOUT)
            try:
                self._socket = await websocket_connect(request, ping_interval=20)
            except Exception:  # noqa: BLE001  (refused, unreachable, proxy: poll, try again)
                await asyncio.get_running_loop().run_in_executor(None, self.poll)
            else:
                wait = RETRY[0]
                self.connected.set()
                await self._read(self._socket)
                self.connected.clear()
                self._settle_all()
            if self._stopping.is_set():
                break
            await asyncio.sleep(wait)
            wait = min(wait * 2, RETRY[1])

    async def _read(self, socket: Any) -> None:
        while not self._stopping.is_set():
            message = await socket.read_message()
            if message is None:
                return
            with contextlib.suppress(ValueError):
                event = json.loads(message)
                if isinstance(event, dict):
                    self._settle(event)
                    self._events.put(event)

    def poll(self) -> None:
        """Ask for the current round once (what the listener does while it cannot connect)."""
        try:
            current = self.connection.request("GET", "api/rounds/current")
        except ClassroomError as error:
            if error.code != "http_404":
                self._deliver({"type": "lost"})  # the boards say so until the next event
                return
            current = None
        self._deliver({"type": "poll", "round": current})

    def _deliver(self, event: Mapping[str, Any]) -> None:
        with contextlib.suppress(Exception):  # a widget's failure never ends the listener
            self.handler(event)

    def _hand_over(self) -> None:
        """The handler thread: the websocket's events to ``handler``, in order."""
        while (event := self._events.get()) is not None:
            self._deliver(event)


@dataclass
class Classroom:
    """The kernel's link to the service: REST calls, and events for the boards shown.

    >>> Classroom(Connection(problem="No hub.")).ask("06.12")
    No hub.
    """

    connection: Connection
    boards: list[StudentBoard | TeacherBoard] = field(default_factory=list)
    listener: Listener | None = None
    me: Mapping[str, Any] | None = None

    # -- for the notebook: never raise ------------------------------------------------------

    def ask(self, exercise: object = None, *, fen: str | None = None,
            prompt: str | Mapping[str, str] | None = None, answers: list[str] | None = None,
            goal: str | None = None, klass: str | None = None) -> TeacherBoard | Notice:
        """Open a round for the class and show the teacher's big board: ``ask("06.12")``,
        ``ask(fen=..., prompt=...)``, or ``ask(board)`` (a ``ck.Board``: its position)."""
        try:
            round_ = self.open_round(exercise, fen=fen, prompt=prompt, answers=answers,
                                     goal=goal, klass=klass)
            board = self.teacher_board()
        except ClassroomError as error:
            return Notice(str(error))
        board.show_round(round_)
        return board

    def close(self) -> Summary | Notice:
        """Close the open round: every board shows the solution; the summary is returned."""
        try:
            current = self.current_round()
            if current is None:
                return Notice(t("classroom.client_no_open_round"))
            closed = self.connection.request("POST", f"api/rounds/{current['id']}/close", {})
            for board in self.boards:
                board.show_round(closed)
            return self.round_summary(closed["id"])
        except ClassroomError as error:
            return Notice(str(error))

    def summary(self, round_id: int | None = None) -> Summary | Notice:
        """What the class answered in the current round (or round ``round_id``)."""
        try:
            if round_id is None:
                last = self.current_round() or self._last_round()
                if last is None:
                    return Notice(t("classroom.client_no_round_yet"))
                round_id = int(last["id"])
            return self.round_summary(round_id)
        except ClassroomError as error:
            return Notice(str(error))

    def join(self, *, size: int = 400, lang: str | None = None) -> StudentBoard | Notice:
        """The student's board: it gets each round the teacher opens, within a second; its
        texts in ``lang`` (default: the notebook's language)."""
        try:
            me = self.whoami()
        except ClassroomError as error:
            return Notice(str(error))
        if me.get("role") == "teacher":
            return Notice(t("classroom.client_teacher_joins"))
        board = StudentBoard(self, size=size, lang=lang)
        self._follow(board)
        return board

    def teacher(self, *, size: int = 520) -> TeacherBoard | Notice:
        """The teacher's big board, following the class's rounds (no round is opened)."""
        try:
            return self.teacher_board(size=size)
        except ClassroomError as error:
            return Notice(str(error))

    # -- for programs: raise ClassroomError ------------------------------------------------

    def whoami(self) -> Mapping[str, Any]:
        """``api/me``: the user, their role and class (asked once)."""
        if self.me is None:
            self.me = self.connection.request("GET", "api/me")
        return self.me

    def open_round(self, exercise: object = None, *, fen: str | None = None,
                   prompt: str | Mapping[str, str] | None = None,
                   answers: list[str] | None = None, goal: str | None = None,
                   klass: str | None = None) -> Mapping[str, Any]:
        """``POST api/rounds``; the round (see :meth:`ask` for the arguments)."""
        body = round_request(exercise, fen=fen, prompt=prompt, answers=answers, goal=goal)
        if klass:
            body["class"] = klass
        return dict(self.connection.request("POST", "api/rounds", body))

    def current_round(self) -> Mapping[str, Any] | None:
        """The open round of the class, or None."""
        try:
            return dict(self.connection.request("GET", "api/rounds/current"))
        except ClassroomError as error:
            if error.code == "http_404":
                return None
            raise

    def round_summary(self, round_id: int) -> Summary:
        """``GET api/rounds/<id>/summary`` as a :class:`Summary`."""
        return Summary(self.connection.request("GET", f"api/rounds/{round_id}/summary"))

    def answer(self, round_id: int, text: str, *, lang: str | None = None) -> Mapping[str, Any]:
        """Send a student's answer; ``{"move", "uci", "round"}`` or ClassroomError (400 with
        the sentence that says why the move cannot be played, 409 once the round is over).
        It goes over the listener's websocket when that is open and speaks ``lang``, else (or
        when no reply comes in time) by ``POST api/rounds/<id>/answers``."""
        listener = self.listener
        if listener is not None and listener.lang == get_language(lang):
            reply = listener.send_answer(round_id, text)
            if reply is not None:
                return dict(reply)
        return dict(self.connection.request("POST", f"api/rounds/{round_id}/answers",
                                            {"answer": text}, lang=lang))

    def close_round(self, round_id: int) -> Mapping[str, Any]:
        """``POST api/rounds/<id>/close``: the closed round with its solution."""
        return dict(self.connection.request("POST", f"api/rounds/{round_id}/close", {}))

    def teacher_board(self, *, size: int = 520) -> TeacherBoard:
        """The teacher's board of this kernel (made once); ClassroomError for a student."""
        if self.whoami().get("role") != "teacher":
            raise ClassroomError("not_teacher", t("classroom.client_not_teacher"))
        for board in self.boards:
            if isinstance(board, TeacherBoard):
                return board
        board = TeacherBoard(self, size=size)
        self._follow(board)
        return board

    def _last_round(self) -> Mapping[str, Any] | None:
        for board in self.boards:
            if board.round_id:
                return {"id": board.round_id}
        return None

    # -- events ---------------------------------------------------------------------------

    def _follow(self, board: StudentBoard | TeacherBoard) -> None:
        self.boards.append(board)
        if self.listener is None or not self.listener.is_alive():
            self.listener = Listener(self.connection, self.dispatch)
            self.listener.start()
        else:  # the websocket's hello went to the boards before this one: catch up at once
            with contextlib.suppress(ClassroomError):
                board.show_round(self.current_round())

    def dispatch(self, event: Mapping[str, Any]) -> None:
        """One event of the service, to every board of this kernel."""
        for board in list(self.boards):
            board.on_event(event)

    def stop(self) -> None:
        """Stop listening (the boards stay as they are)."""
        if self.listener is not None:
            self.listener.stop()
            self.listener = None


def round_request(exercise: object = None, *, fen: str | None = None,
                  prompt: str | Mapping[str, str] | None = None,
                  answers: list[str] | None = None, goal: str | None = None) -> dict[str, Any]:
    """The body of ``POST api/rounds`` for an exercise id, a FEN or a board.

    >>> round_request("06.12")
    {'exercise': '06.12'}
    >>> import chess; round_request(chess.Board(), prompt="Open!")["fen"][:8]
    'rnbqkbnr'
    """
    exercise_id = None if isinstance(exercise, str) else getattr(exercise, "id", None)
    if isinstance(exercise, str) and fen is None and "/" not in exercise:
        body: dict[str, Any] = {"exercise": exercise.strip()}
    elif isinstance(exercise_id, str):  # an Exercise
        body = {"exercise": exercise_id}
    elif fen is not None or exercise is not None:
        body = {"fen": fen if fen is not None else _fen_of(exercise)}
    else:
        raise ClassroomError("no_task", t("classroom.client_what_to_ask"))
    for key, value in (("prompt", prompt), ("answers", answers), ("goal", goal)):
        if value is not None:
            body[key] = dict(value) if isinstance(value, Mapping) else value
    return body


def _fen_of(position: object) -> str:
    """The FEN of a FEN string, a ``chess.Board`` or a ``ck.Board`` widget (its position)."""
    if isinstance(position, str):
        return position.strip()
    board = position if isinstance(position, chess.Board) else getattr(position, "board", None)
    if isinstance(board, chess.Board):
        return board.fen()
    raise ClassroomError("no_task", t("classroom.client_what_to_ask"))


class Summary:
    """What the class answered: counts, moves by how many played them, who played what.

    >>> s = Summary({"round": 3, "state": "open", "judged": True, "joined": 3, "answered": 2,
    ...              "correct": 1, "moves": {"Qxf7#": 1, "Nf3": 1}, "answers": [
    ...              {"student": "ana", "move": "Qxf7#", "correct": True},
    ...              {"student": "bo", "move": "Nf3", "correct": False}]})
    >>> print(repr(s))
    Round 3 (open): 2 of 3 answered. 1 right.
    Qxf7# 1 (right)
    Nf3 1
    """

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = dict(data)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def _head(self) -> str:
        d = self.data
        state = t(f"classroom.client_state_{d.get('state', 'open')}")
        head = t("classroom.client_summary_head", id=d.get("round", ""), state=state,
                 answered=d.get("answered", 0), joined=d.get("joined", 0))
        if d.get("judged") and d.get("correct") is not None:
            head = sentences(head, t("classroom.client_summary_right", correct=d["correct"]))
        return head

    def _right_moves(self) -> set[str]:
        return {a["move"] for a in self.data.get("answers", []) if a.get("correct")}

    def __repr__(self) -> str:
        right, mark = self._right_moves(), t("classroom.client_right_mark")
        lines = [self._head()] + [f"{san} {count}" + (f" {mark}" if san in right else "")
                                  for san, count in self.data.get("moves", {}).items()]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        right = self._right_moves()
        rows = "".join(
            f"<tr><td>{html.escape(a['student'])}</td><td>{html.escape(a['move'])}</td>"
            f"<td>{'✓' if a.get('correct') else ('✗' if a.get('correct') is False else '')}"
            "</td></tr>" for a in self.data.get("answers", []))
        moves = "".join(f"<li><b>{html.escape(san)}</b> {count}"
                        + (" ✓" if san in right else "") + "</li>"
                        for san, count in self.data.get("moves", {}).items())
        return (f"<div class='ck-summary'><p>{html.escape(self._head())}</p><ul>{moves}</ul>"
                f"<details><summary>{html.escape(t('classroom.client_who_played'))}</summary>"
                f"<table>{rows}</table></details></div>")


_SESSION: Classroom | None = None
_SESSION_LOCK = threading.Lock()


def session() -> Classroom:
    """This kernel's :class:`Classroom` (made from the environment on first use)."""
    global _SESSION
    with _SESSION_LOCK:
        if _SESSION is None:
            _SESSION = Classroom(from_environment())
        return _SESSION


def connect(url: str | None = None, token: str | None = None) -> Classroom:
    """Use another service or token than the environment's (e.g. a laptop classroom):
    ``ck.classroom.connect("http://192.168.1.20:8765/", token)``."""
    global _SESSION
    with _SESSION_LOCK:
        if _SESSION is not None:
            _SESSION.stop()
        environ = dict(os.environ)
        if url is not None:
            environ["CHESSKIT_CLASSROOM_URL"] = url
        if token is not None:
            environ["CHESSKIT_CLASSROOM_TOKEN"] = token
        _SESSION = Classroom(from_environment(environ))
        return _SESSION


def ask(exercise: object = None, *, fen: str | None = None,
        prompt: str | Mapping[str, str] | None = None, answers: list[str] | None = None,
        goal: str | None = None, klass: str | None = None) -> TeacherBoard | Notice:
    """Open a round for the class: ``ask("06.12")``, ``ask(fen=..., prompt=...)``,
    ``ask(board)``; shows the teacher's big board."""
    return session().ask(exercise, fen=fen, prompt=prompt, answers=answers, goal=goal,
                         klass=klass)


def close() -> Summary | Notice:
    """Close the open round: every board shows the solution."""
    return session().close()


def summary(round_id: int | None = None) -> Summary | Notice:
    """What the class answered in the current round (counts, moves, who played what)."""
    return session().summary(round_id)


def join(*, size: int = 400, lang: str | None = None) -> StudentBoard | Notice:
    """The student's board for the live classroom (texts in ``lang``, default the notebook's
    language)."""
    return session().join(size=size, lang=lang)


def teacher(*, size: int = 520) -> TeacherBoard | Notice:
    """The teacher's big board, without opening a round."""
    return session().teacher(size=size)


def asked_of(board: Board) -> object:
    """What "Ask the class" on ``board`` asks: its exercise while the board shows the
    exercise's start (the class gets the task in each language and the exercise's own check),
    else the position shown.

    >>> from chesskit.widgets.board import Board
    >>> asked_of(Board("8/8/8/8/8/8/8/K6k w - - 0 1")) is not None
    True
    """
    exercise = getattr(board, "exercise", None)
    shown = board.board
    if exercise is not None and shown.board_fen() == exercise.position.board_fen() \
            and shown.turn == exercise.position.turn:
        return exercise
    return board


class BoardAsker:
    """``Board.asker`` once this module is imported: "Ask the class" on a lesson's board asks
    this kernel's session (see :class:`chesskit.widgets.board.Asker`)."""

    def is_teacher(self) -> bool:
        room = session()
        if room.connection.problem:
            return False
        try:
            return room.whoami().get("role") == "teacher"
        except ClassroomError:
            return False

    def ask(self, board: Board) -> str | None:
        asked = session().ask(asked_of(board))
        return str(asked) if isinstance(asked, Notice) else None


Board.asker = BoardAsker()
