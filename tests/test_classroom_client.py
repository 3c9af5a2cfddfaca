"""``ck.classroom`` against a real classroom service started in this process (laptop mode).

Each "kernel" is a :class:`chesskit.classroom.client.Classroom` with its own token: its boards
get the service's events through the listener thread (a real websocket), and answers go over
that websocket (or through the REST API when it is down).  The boards are driven as the page
drives them (``handle`` with the page's messages).
Every wait is event-driven with a generous limit.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import chess
import pytest
from _classroom import Laptop, free_port, running_classroom

import chesskit as ck
from chesskit.classroom import client, pages, service
from chesskit.classroom.client import Classroom, Connection, Notice, Summary, from_environment
from chesskit.classroom.widgets import StudentBoard, TeacherBoard, next_exercise
from chesskit.errors import ClassroomError

LIMIT = 30.0
MATE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
"""White mates with Ra8# (the service judges a free position with a mate in one)."""


def wait_for(ready: Callable[[], object], *, what: str, limit: float = LIMIT) -> Any:
    """Poll ``ready`` every 0.02 s until it is true (at most ``limit`` s)."""
    deadline = time.monotonic() + limit
    while True:
        found = ready()
        if found:
            return found
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {limit:.0f} s for {what}")
        time.sleep(0.02)


@pytest.fixture(scope="module")
def laptop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Laptop]:
    with running_classroom(tmp_path_factory.mktemp("classroom") / "classroom.sqlite") as room:
        yield room


@contextlib.contextmanager
def kernel(laptop: Laptop, token: str) -> Iterator[Classroom]:
    """A kernel's classroom session; its listener stops at the end."""
    room = Classroom(Connection(laptop.url, token))
    try:
        yield room
    finally:
        room.stop()


def in_round(board: StudentBoard, round_id: int) -> bool:
    return board.round_id == round_id


def closed(board: StudentBoard) -> bool:
    return board.round_state == "closed"


def play(board: StudentBoard, source: str, target: str) -> None:
    """A click-click or a drag on the board, as the page sends it."""
    board.handle({"type": "move", "from": source, "to": target})


# -- without a service: one sentence, never a traceback -------------------------------------


def test_outside_a_hub_every_call_is_one_sentence() -> None:
    room = Classroom(from_environment({}))
    for result in (room.ask("06.12"), room.close(), room.summary(), room.join(),
                   room.teacher()):
        assert isinstance(result, Notice)
        assert "not on a hub" in result
    hub_without_service = from_environment({"JUPYTERHUB_API_TOKEN": "x"})
    assert "CHESSKIT_CLASSROOM_URL" in hub_without_service.problem
    assert from_environment({"JUPYTERHUB_API_TOKEN": "x", "CHESSKIT_CLASSROOM_URL":
                             "http://hub/services/classroom"}).url.endswith("/classroom/")


def test_a_service_that_is_down_is_one_sentence() -> None:
    room = Classroom(Connection(f"http://127.0.0.1:{free_port()}/", "token"))
    result = room.join()
    assert isinstance(result, Notice)
    assert "does not answer" in result


def test_ck_classroom_is_the_package_with_the_kernel_functions() -> None:
    assert ck.classroom.ask is client.ask
    assert ck.classroom.join is client.join
    assert "classroom" in dir(ck)


def test_a_round_request_reads_an_id_a_fen_or_a_board() -> None:
    assert client.round_request("06.12") == {"exercise": "06.12"}
    assert client.round_request(fen=MATE, prompt="Mate!") == {"fen": MATE, "prompt": "Mate!"}
    board = ck.Board(MATE)
    board.move("h3")
    assert client.round_request(board)["fen"] == board.fen  # the position shown now
    assert client.round_request(chess.Board(MATE))["fen"] == MATE
    assert client.round_request(ck.exercise("06.12")) == {"exercise": "06.12"}
    with pytest.raises(ck.ChessKitError):
        client.round_request()


def test_the_pages_data_is_fresh() -> None:
    """``static/generated.js`` is what ``python -m chesskit.classroom.pages`` writes."""
    assert pages.GENERATED.read_text(encoding="utf-8") == pages.generated_js()
    assert pages.texts("zh-Hant")["waiting"] == "等老師提問。"


@pytest.fixture
def posted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the rounds answered by ``POST api/rounds/<id>/answers`` during a test."""
    rounds: list[str] = []
    original = service.Answers.post

    async def counted(self: service.Answers, round_id: str) -> None:
        rounds.append(round_id)
        await original(self, round_id)

    monkeypatch.setattr(service.Answers, "post", counted)
    return rounds


def refusal(laptop: Laptop, token: str, round_id: int, text: str) -> tuple[int, str]:
    """What ``POST api/rounds/<id>/answers`` says to ``text``: status and sentence."""
    status, data = laptop.call("POST", f"api/rounds/{round_id}/answers", {"answer": text},
                               token=token)
    return status, data["error"]


def refused(room: Classroom, round_id: int, text: str) -> tuple[int, str]:
    """What :meth:`Classroom.answer` says to ``text``: status and sentence."""
    with pytest.raises(ClassroomError) as error:
        room.answer(round_id, text)
    return int(error.value.code.removeprefix("http_")), str(error.value)


# -- a class: a teacher, two students --------------------------------------------------------


def test_two_students_answer_and_the_teacher_board_fills(laptop: Laptop) -> None:
    with kernel(laptop, laptop.teacher) as teacher_room, \
            kernel(laptop, laptop.join("Ana")) as ana_room, \
            kernel(laptop, laptop.join("Ming", lang="zh-Hans")) as ming_room:
        assert isinstance(teacher_room.join(), Notice)  # the teacher does not answer
        assert isinstance(ana_room.ask("06.12"), Notice)  # a student cannot ask
        ana = ana_room.join()
        ming = ming_room.join(size=360, lang="zh-Hans")
        assert isinstance(ana, StudentBoard) and isinstance(ming, StudentBoard)
        assert ana.mode == "view" and "Waiting" in ana.message

        big = teacher_room.ask(fen=MATE, prompt={"en": "Mate in one!", "zh": "一步杀！"})
        assert isinstance(big, TeacherBoard), big
        round_id = big.round_id
        for student in (ana, ming):  # the round arrives through the websocket
            wait_for(functools.partial(in_round, student, round_id), what="the round")
        assert ana.prompt == "Mate in one!" and ming.prompt == "一步杀！"
        assert ana.mode == "play" and ana.legal["a1"][:2] == ["a2", "a3"]

        play(ana, "a1", "a8")
        assert ana.sent == "Ra8#" and ["a1", "a8", "blue"] in ana.arrows
        assert ana.fen == MATE  # the position stays: the answer may change
        ming.handle({"type": "text", "text": "h3"})
        assert ming.sent == "h3" and "已发送" in ming.message
        ming.handle({"type": "text", "text": "Kg2"})  # onto its own pawn: explained, not sent
        assert ming.sent == "h3" and ming.message_kind == "error" and "g2" in ming.message
        wait_for(lambda: big.answered == 2, what="the summary on the teacher's board")
        assert {m["san"]: (m["count"], m["right"]) for m in big.moves} == {
            "Ra8#": (1, True), "h3": (1, False)}
        assert big.correct == 1 and big.joined >= 2
        assert big.svg().startswith("<svg")  # what a notebook without the widget shows

        ming.handle({"type": "text", "text": "车a8"})  # changed, typed the Chinese way
        wait_for(lambda: big.correct == 2, what="the changed answer")
        assert big.answered == 2 and [m["san"] for m in big.moves] == ["Ra8#"]

        summary = teacher_room.close()
        assert isinstance(summary, Summary) and summary["correct"] == 2
        assert repr(summary).startswith(f"Round {round_id} (closed): 2 of ")
        assert big.round_state == "closed" and big.solution == ["a1a8"]
        for student in (ana, ming):
            wait_for(functools.partial(closed, student), what="the close")
            assert ["a1", "a8", "green"] in student.arrows and student.mode == "view"
        assert "Ra8#" in ana.message and "找到了" in ming.message
        play(ana, "h2", "h3")  # too late: nothing is sent
        assert ana.sent == "Ra8#" and ana.message_kind == "error"


def test_a_restarted_kernel_or_a_late_student_gets_the_current_round(laptop: Laptop) -> None:
    bo_token = laptop.join("Bo")
    with kernel(laptop, laptop.teacher) as teacher_room:
        big = teacher_room.ask(fen=MATE)
        assert isinstance(big, TeacherBoard)
        with kernel(laptop, bo_token) as first:
            board = first.join()
            assert isinstance(board, StudentBoard)
            wait_for(lambda: board.round_id == big.round_id, what="the round")
            play(board, "g2", "g3")
        with kernel(laptop, bo_token) as restarted:  # the same student, a new kernel
            again = restarted.join()
            assert isinstance(again, StudentBoard)
            wait_for(lambda: again.round_id == big.round_id and again.sent,
                     what="the round after a restart")
            assert again.sent == "g3" and ["g2", "g3", "blue"] in again.arrows
            play(again, "f2", "f3")
        with kernel(laptop, laptop.join("Cy")) as late:
            cy = late.join()
            assert isinstance(cy, StudentBoard)
            wait_for(lambda: cy.round_id == big.round_id, what="the round for a late joiner")
            assert cy.sent == "" and cy.mode == "play"
        wait_for(lambda: [(a["student"], a["move"]) for a in big.answers] == [("Bo", "f3")],
                 what="Bo's changed answer")
        assert big.answered == 1  # the last answer counts, once


def test_the_teacher_board_buttons(laptop: Laptop) -> None:
    with kernel(laptop, laptop.teacher) as teacher_room:
        big = teacher_room.teacher()
        assert isinstance(big, TeacherBoard)
        big.handle({"type": "ask", "text": "06.12"})
        assert big.exercise == "06.12" and big.round_state == "open" and big.judged
        first = big.round_id
        big.handle({"type": "next"})
        assert big.exercise == next_exercise("06.12") and big.round_id > first
        big.handle({"type": "close"})
        assert big.round_state == "closed" and big.solution
        big.handle({"type": "ask", "text": "not a position"})
        assert big.message_kind == "error" and big.message
        big.handle({"type": "ask", "text": MATE})
        assert big.fen == MATE and big.message == ""
        assert repr(big) == f"<chesskit.TeacherBoard round={big.round_id} fen={MATE!r}>"


def test_the_listener_falls_back_to_asking_for_the_current_round(laptop: Laptop) -> None:
    events: list[Mapping[str, Any]] = []
    listener = client.Listener(Connection(laptop.url, laptop.teacher), events.append)
    listener.poll()
    assert events and events[0]["type"] == "poll"


# -- answers over the websocket ----------------------------------------------------------------


def test_an_answer_goes_over_the_open_websocket(laptop: Laptop, posted: list[str]) -> None:
    dee_token = laptop.join("Dee")
    with kernel(laptop, laptop.teacher) as teacher_room, kernel(laptop, dee_token) as dee_room:
        big = teacher_room.ask(fen=MATE)
        dee = dee_room.join()
        assert isinstance(big, TeacherBoard) and isinstance(dee, StudentBoard)
        assert dee_room.listener is not None and dee_room.listener.connected.wait(LIMIT)
        wait_for(lambda: dee.round_id == big.round_id, what="the round")
        play(dee, "a1", "a8")
        assert dee.sent == "Ra8#" and dee.message_kind == "ok"
        play(dee, "h2", "h3")  # changed: the last answer counts
        assert dee.sent == "h3" and ["h2", "h3", "blue"] in dee.arrows
        wait_for(lambda: [(a["student"], a["move"]) for a in big.answers] == [("Dee", "h3")],
                 what="Dee's changed answer")
        assert big.answered == 1
        # every refusal is the sentence the HTTP endpoint gives, with its status
        for text in ("Kg2", "zz"):  # (a student's budget: 10 requests, then 2 a second)
            status, sentence = refused(dee_room, big.round_id, text)
            assert status == 400 and (status, sentence) == refusal(
                laptop, dee_token, big.round_id, text)
        assert refused(teacher_room, big.round_id, "Ra8#") == refusal(
            laptop, laptop.teacher, big.round_id, "Ra8#")
        posted.clear()  # the HTTP refusals asked above for comparison
        teacher_room.close()
        status, sentence = refused(dee_room, big.round_id, "Ra8#")
        assert status == 409 and (status, sentence) == refusal(
            laptop, dee_token, big.round_id, "Ra8#")
        assert posted == [str(big.round_id)]  # only the comparison: no answer went by POST
        assert big.answered == 1


def test_an_answer_goes_by_post_when_the_websocket_is_down(laptop: Laptop,
                                                           posted: list[str]) -> None:
    eve_token = laptop.join("Eve")
    with kernel(laptop, laptop.teacher) as teacher_room, kernel(laptop, eve_token) as eve_room:
        big = teacher_room.ask(fen=MATE)
        assert isinstance(big, TeacherBoard)
        assert eve_room.answer(big.round_id, "h3")["move"] == "h3"  # no listener: POST
        assert posted == [str(big.round_id)]
        eve = eve_room.join()
        assert isinstance(eve, StudentBoard) and eve_room.listener is not None
        wait_for(lambda: eve.round_id == big.round_id and eve.sent == "h3", what="the round")
        eve_room.listener.stop()
        wait_for(lambda: not eve_room.listener or not eve_room.listener.is_alive(),
                 what="the listener to end")
        play(eve, "a1", "a8")  # the socket is down: POST, the same reply
        assert eve.sent == "Ra8#" and posted == [str(big.round_id)] * 2
        wait_for(lambda: big.correct == 1, what="Eve's changed answer")
        assert big.answered == 1 and [m["san"] for m in big.moves] == ["Ra8#"]


def test_an_answer_without_a_reply_is_sent_again_by_post_and_counts_once(
        laptop: Laptop, posted: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    with kernel(laptop, laptop.teacher) as teacher_room, \
            kernel(laptop, laptop.join("Flo")) as flo_room:
        big = teacher_room.ask(fen=MATE)
        flo = flo_room.join()
        assert isinstance(big, TeacherBoard) and isinstance(flo, StudentBoard)
        listener = flo_room.listener
        assert listener is not None and listener.connected.wait(LIMIT)
        wait_for(lambda: flo.round_id == big.round_id, what="the round")
        monkeypatch.setattr(client, "ANSWER_TIMEOUT", 1.0)
        monkeypatch.setattr(listener, "_settle", lambda event: None)  # every reply lost
        play(flo, "a1", "a8")  # counted over the socket, no reply in 1 s: POST again
        assert flo.sent == "Ra8#" and posted == [str(big.round_id)]
        wait_for(lambda: big.correct == 1, what="Flo's answer")
        summary = teacher_room.summary()
        assert isinstance(summary, Summary)
        assert summary["answered"] == 1 and summary["moves"] == {"Ra8#": 1}
