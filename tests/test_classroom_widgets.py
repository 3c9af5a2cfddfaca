"""The classroom's boards on the Python side: the buttons each board shows, "Ask the class" on
a lesson's board (a stand-in classroom), and a student's board that loses the classroom (a real
``chesskit classroom`` process, stopped and started again) and finds it back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from _classroom import free_port
from _laptop import laptop_process

from chesskit.classroom import client
from chesskit.classroom.client import Classroom, Connection, Notice
from chesskit.classroom.widgets import StudentBoard
from chesskit.errors import ClassroomError
from chesskit.exercises.catalog import exercise as get_exercise
from chesskit.i18n import t
from chesskit.widgets.board import Board
from chesskit.widgets.exercise_board import ExerciseBoard

LIMIT = 60.0
MATE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"


def wait_for(ready: Callable[[], object], *, what: str, limit: float = LIMIT) -> Any:
    """Poll ``ready`` every 0.02 s until it is true (at most ``limit`` s)."""
    deadline = time.monotonic() + limit
    while not (found := ready()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {limit:.0f} s for {what}")
        time.sleep(0.02)
    return found


class StandIn:
    """A kernel's classroom session as ``Board`` sees it: who we are, and ``ask``."""

    def __init__(self, role: str | None, *, refuse: str = "") -> None:
        self.connection = Connection("http://127.0.0.1:9/", "token") if role else Connection(
            problem="No hub.")
        self.role, self.refuse = role, refuse
        self.asked: list[object] = []

    def whoami(self) -> Mapping[str, Any]:
        if self.role == "gone":
            raise ClassroomError("unreachable", "The classroom cannot be reached.")
        return {"role": self.role}

    def ask(self, exercise: object = None, **_options: object) -> object:
        self.asked.append(exercise)
        return Notice(self.refuse) if self.refuse else object()


@pytest.mark.parametrize("role", ["student", None, "gone"])
def test_only_a_teacher_is_offered_ask_the_class(monkeypatch: pytest.MonkeyPatch,
                                                 role: str | None) -> None:
    monkeypatch.setattr(client, "session", lambda: StandIn(role))
    board = Board("start", lang="en")
    assert not board.offer_ask() and "ask" not in board.buttons


def test_ask_the_class_sends_the_boards_position(monkeypatch: pytest.MonkeyPatch) -> None:
    room = StandIn("teacher")
    monkeypatch.setattr(client, "session", lambda: room)
    board = Board("start", lang="en")
    wait_for(lambda: board.buttons.get("ask"), what="the button, offered from a thread")
    board.handle({"type": "move", "from": "e2", "to": "e4"})
    board.handle({"type": "ask"})
    assert room.asked == [board] and board.message == "Sent to the class."
    assert board.message_kind == "ok" and board.ui["ask"] == "Ask the class"
    assert client.round_request(board)["fen"] == board.fen  # what ask(board) sends
    zh = Board("start", lang="zh-Hans")
    zh.handle({"type": "ask"})
    assert zh.message == "已经发给全班了。"
    room.refuse = "The round is still open."
    board.handle({"type": "ask"})
    assert board.message == "The round is still open." and board.message_kind == "error"


def test_ask_the_class_on_an_exercise_board_sends_the_exercise(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At the exercise's start the class gets the exercise (its task in each language, its own
    check); once a move is on the board, the position shown."""
    room = StandIn("teacher")
    monkeypatch.setattr(client, "session", lambda: room)
    exercise = get_exercise("06.12")
    board = ExerciseBoard(exercise=exercise, lang="en")
    wait_for(lambda: board.buttons.get("ask"), what="the button, offered from a thread")
    board.handle({"type": "ask"})
    assert room.asked == [exercise]
    assert client.round_request(room.asked[0]) == {"exercise": "06.12"}
    shown = Board(exercise.fen, lang="en")
    assert client.asked_of(shown) is shown  # a lesson board of the same position: its FEN


def test_a_students_board_never_offers_ask_nor_clear_arrows(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client, "session", lambda: StandIn("teacher"))
    student = StudentBoard(Classroom(Connection(problem="No hub.")), lang="en")
    lesson = Board("start")  # in the same (teacher's) kernel
    wait_for(lambda: lesson.buttons.get("ask"), what="the button, offered from a thread")
    assert student.buttons == {"clear": False} and lesson.buttons == {"ask": True}


@pytest.mark.slow
def test_a_students_board_says_the_classroom_is_lost_and_rejoins(tmp_path: Path) -> None:
    db, port = tmp_path / "classroom.sqlite", free_port()
    lost = t("classroom.board_lost", lang="en")
    with laptop_process(db, port=port) as laptop:
        status, opened = laptop.call("POST", "api/rounds", {"fen": MATE, "prompt": "Mate!"},
                                     token=laptop.teacher)
        assert status == 201
        room = Classroom(Connection(laptop.url, laptop.join("Ana")))
        board = room.join(lang="en")
        assert isinstance(board, StudentBoard)
        wait_for(lambda: board.round_id == opened["id"], what="the round")
        board.handle({"type": "move", "from": "a1", "to": "a8"})
        assert board.sent == "Ra8#"
        said = board.message
    try:
        wait_for(lambda: board.message == lost, what="the notice")
        assert board.message_kind == "error"
        assert lost == "Lost the connection to the classroom: trying again..."
        with laptop_process(db, port=port):  # the same classroom on the same address
            wait_for(lambda: board.message == said, what="the notice to go")
        assert board.sent == "Ra8#" and board.round_state == "open"
        assert board.arrows == [["a1", "a8", "blue"]]
    finally:
        room.stop()


def test_a_notebook_of_boards_asks_who_we_are_once(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def request(_connection: Connection, method: str, path: str, *_a: object,
                **_k: object) -> object:
        asked.append(f"{method} {path}")
        time.sleep(0.05)  # slow enough for the boards' threads to meet
        return {"role": "teacher"}

    monkeypatch.setattr(Connection, "request", request)
    room = Classroom(Connection("http://127.0.0.1:9/", "token"))
    monkeypatch.setattr(client, "session", lambda: room)
    boards = [Board("start") for _ in range(8)]
    wait_for(lambda: all(b.buttons.get("ask") for b in boards), what="every board's button")
    assert asked == ["GET api/me"]
