"""The classroom service as it runs (tornado.testing): every refusal of docs/classroom-api.md,
the push over the websocket, concurrency, reconnects, and nothing counted twice."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import tornado.websocket
from tornado.httpclient import HTTPClientError, HTTPResponse
from tornado.testing import AsyncHTTPTestCase, gen_test

from chesskit.classroom import service
from chesskit.classroom.rounds import from_position, judge
from chesskit.classroom.service import Classroom, make_app
from chesskit.classroom.store import Store
from chesskit.errors import ClassroomError

ROOT = Path(__file__).resolve().parents[1]
MATE_IN_ONE = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
CODE, TEACHER = "ABC234", "teacher-secret"
WAIT = 10  # seconds: generous, a loaded machine is slow


class FakeHubAuth:
    """Stands in for HubOAuth: ``Authorization: token <name>:<group>,<group>``."""

    access_scopes: set[str] = set()
    asked = 0

    async def get_user(self, handler: Any, *, sync: bool = True) -> dict[str, Any] | None:
        header = handler.request.headers.get("Authorization", "")
        if not header.startswith("token "):
            return None
        name, _, groups = header[6:].partition(":")
        handler._token_authenticated = True  # noqa: SLF001  (HubOAuth's own flag: the service reads it)
        self.asked += 1
        return {"name": name, "kind": "user", "groups": [g for g in groups.split(",") if g]}


class Room(AsyncHTTPTestCase):
    """A laptop classroom on a fresh store, with helpers to call it."""

    def get_app(self) -> Any:
        self.store = Store(":memory:")
        self.room = Classroom(self.store, mode="laptop", code=CODE, teacher_token=TEACHER)
        return make_app(self.room)

    def call(self, method: str, path: str, body: object = None, token: str | None = TEACHER,
             **headers: str) -> tuple[int, Any]:
        if token:
            headers["Authorization"] = f"token {token}"
        data = body if isinstance(body, (str, bytes)) else (
            None if body is None else json.dumps(body))
        if method == "POST" and data is None:
            data = ""
        reply = self.fetch(path, method=method, body=data, headers=headers)
        return reply.code, json.loads(reply.body) if reply.body else None

    def join(self, name: str, **extra: object) -> str:
        code, reply = self.call("POST", "/api/join", {"code": CODE, "name": name, **extra},
                                token=None)
        assert code == 200, reply
        return str(reply["token"])

    def open_round(self, **body: object) -> dict[str, Any]:
        code, reply = self.call("POST", "/api/rounds", body or {"exercise": "06.12"})
        assert code == 201, reply
        return dict(reply)

    def answer(self, token: str, round_id: int, text: str) -> tuple[int, Any]:
        return self.call("POST", f"/api/rounds/{round_id}/answers", {"answer": text}, token)

    def summary(self, round_id: int) -> dict[str, Any]:
        code, reply = self.call("GET", f"/api/rounds/{round_id}/summary")
        assert code == 200, reply
        return dict(reply)


class TestJoining(Room):
    def test_a_student_joins_with_code_and_name(self) -> None:
        token = self.join("Ana", lang="zh-Hans")
        assert self.call("GET", "/api/me", token=token) == (200, {
            "mode": "laptop", "user": "Ana", "role": "student", "class": "class",
            "lang": "zh-Hans"})

    def test_a_name_is_unique_in_the_class_and_a_rejoin_is_the_same_student(self) -> None:
        token = self.join("Ana")
        for other in ("Ana", "ana", " ＡＮＡ "):
            code, reply = self.call("POST", "/api/join", {"code": CODE, "name": other},
                                    token=None)
            assert code == 409 and reply["error"]
        again, reply = self.call("POST", "/api/join", {"code": CODE, "name": "ignored"},
                                 token=token)
        assert again == 200 and reply["user"] == "Ana" and reply["token"] == token

    def test_wrong_code_bad_name_and_malformed_bodies_are_refused(self) -> None:
        assert self.call("POST", "/api/join", {"code": "ZZZZZZ", "name": "Bo"}, token=None)[0] \
            == 403
        for name in ("", "   ", "x" * 31, "a\x00b"):
            assert self.call("POST", "/api/join", {"code": CODE, "name": name},
                             token=None)[0] == 400
        for body in ("not json", "[1, 2]", json.dumps({"code": CODE, "name": 7})):
            code, reply = self.call("POST", "/api/join", body, token=None)
            assert code == 400 and reply["error"].endswith(".")
        assert self.store.joined("class") == 0

    def test_guessing_codes_is_slowed_down(self) -> None:
        codes = [self.call("POST", "/api/join", {"code": f"WRONG{i}", "name": "Bo"},
                           token=None)[0] for i in range(service.FAILED_JOINS + 5)]
        assert codes[0] == 403 and codes[-1] == 429  # a slow machine refills a token or two

    def test_a_student_cannot_act_as_the_teacher(self) -> None:
        token = self.join("Ana")
        assert self.call("POST", "/api/rounds", {"exercise": "06.12"}, token)[0] == 403
        rid = self.open_round()["id"]
        assert self.call("GET", f"/api/rounds/{rid}/summary", token=token)[0] == 403
        assert self.call("POST", f"/api/rounds/{rid}/close", token=token)[0] == 403
        assert self.call("GET", "/api/me", token="guess")[0] == 401
        assert self.call("GET", "/api/rounds/current", token=None)[0] == 401

    def test_the_teacher_sees_the_join_code_and_the_exercises(self) -> None:
        code, me = self.call("GET", "/api/me")
        assert code == 200 and me["role"] == "teacher" and me["join_code"] == CODE
        code, exercises = self.call("GET", "/api/exercises")
        assert code == 200 and "06.12" in exercises["ids"] and "00.07" not in exercises["ids"]
        assert self.call("GET", "/api/exercises", token=self.join("Ana"))[0] == 403

    def test_the_teacher_cannot_join(self) -> None:
        assert self.call("POST", "/api/join", {"code": CODE, "name": "T"})[0] == 403


class TestRounds(Room):
    def test_open_a_bank_exercise(self) -> None:
        token = self.join("Ana", lang="zh-Hant")
        assert self.call("GET", "/api/rounds/current", token=token)[0] == 404
        rnd = self.open_round()
        assert rnd["state"] == "open" and rnd["exercise"] == "06.12" and rnd["judged"]
        assert {"id", "fen", "prompt", "prompts"} <= set(rnd)
        code, current = self.call("GET", "/api/rounds/current", token=token)
        assert code == 200 and current["id"] == rnd["id"] and current["fen"] == rnd["fen"]
        assert current["prompt"] == rnd["prompts"]["zh-Hant"] and current["answer"] is None

    def test_bad_rounds_are_refused(self) -> None:
        for body in ({"exercise": "99.99"}, {"exercise": "00.07"}, {"fen": "8/8/8/8/8/8/8/8 x"},
                     {"fen": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}, {}, {"fen": MATE_IN_ONE,
                     "answers": ["Ke3"]}, {"fen": MATE_IN_ONE, "goal": "dance"},
                     {"fen": MATE_IN_ONE, "prompt": 5}, {"exercise": 6.12}):
            code, reply = self.call("POST", "/api/rounds", body)
            assert code == 400 and reply["error"], body
        assert self.call("POST", "/api/rounds", {"exercise": "06.12", "class": "7b"})[0] == 404
        assert self.store.latest_round("class") is None

    def test_answers_are_read_judged_and_the_last_one_counts(self) -> None:
        ana, bo = self.join("Ana"), self.join("Bo")
        rid = self.open_round(fen=MATE_IN_ONE, prompt={"en": "Mate!", "zh": "将死！"})["id"]
        assert self.answer(ana, rid, "Nf3") == (200, {"round": rid, "move": "Nf3",
                                                      "uci": "g1f3"})
        assert self.answer(ana, rid, "qxf7") == (200, {"round": rid, "move": "Qxf7#",
                                                       "uci": "h5f7"})
        assert self.answer(bo, rid, "Ｎｆ３")[1]["move"] == "Nf3"
        summary = self.summary(rid)
        assert (summary["joined"], summary["answered"], summary["correct"]) == (2, 2, 1)
        assert summary["moves"] == {"Nf3": 1, "Qxf7#": 1}
        assert summary["answers"] == [
            {"student": "Ana", "move": "Qxf7#", "uci": "h5f7", "correct": True},
            {"student": "Bo", "move": "Nf3", "uci": "g1f3", "correct": False}]

    def test_unreadable_illegal_and_teacher_answers_are_refused(self) -> None:
        ana = self.join("Ana")
        rid = self.open_round()["id"]
        code, reply = self.answer(ana, rid, "Ke2")
        assert code == 400 and "e2" in reply["error"]
        assert self.answer(ana, rid, "hello")[0] == 400
        assert self.answer(ana, rid, "")[0] == 400
        assert self.answer(ana, rid, "e4" * 30)[0] == 400
        assert self.call("POST", f"/api/rounds/{rid}/answers", {"answer": ["Rd1"]}, ana)[0] \
            == 400
        assert self.call("POST", f"/api/rounds/{rid}/answers", {}, ana)[0] == 400
        assert self.answer(TEACHER, rid, "Rd1")[0] == 403
        assert self.summary(rid)["answered"] == 0

    def test_stale_and_wrong_round_ids(self) -> None:
        ana = self.join("Ana")
        old = self.open_round()["id"]
        new = self.open_round(fen=MATE_IN_ONE)["id"]
        assert self.answer(ana, old, "Rd1")[0] == 409
        assert self.answer(ana, new + 1, "Qxf7")[0] == 404
        code, _ = self.call("POST", "/api/rounds/abc/answers", {"answer": "e4"}, ana)
        assert code == 404
        assert self.call("POST", f"/api/rounds/{new}/close")[0] == 200
        assert self.answer(ana, new, "Qxf7")[0] == 409
        assert self.call("POST", f"/api/rounds/{new}/close")[0] == 409
        assert self.call("GET", "/api/rounds/current", token=ana)[0] == 404
        assert self.summary(old)["answered"] == self.summary(new)["answered"] == 0

    def test_close_shows_the_solution(self) -> None:
        ana = self.join("Ana", lang="zh-Hans")
        rid = self.open_round(fen=MATE_IN_ONE)["id"]
        self.answer(ana, rid, "Nf3")
        code, closed = self.call("POST", f"/api/rounds/{rid}/close")
        assert code == 200 and closed["state"] == "closed"
        assert closed["solution"]["moves"] == ["Qxf7#"]
        assert closed["solution"]["arrows"] == ["h5f7"]
        assert set(closed["solution"]["text"]) == {"en", "zh-Hans", "zh-Hant"}
        code, mine = self.call("GET", f"/api/rounds/{rid}", token=ana)
        assert code == 200 and mine["answer"]["move"] == "Nf3" and mine["solution"]

    def test_a_body_claiming_another_identity_is_ignored(self) -> None:
        ana = self.join("Ana")
        self.join("Bo")
        rid = self.open_round()["id"]
        self.call("POST", f"/api/rounds/{rid}/answers",
                  {"answer": "Rd1", "student": "Bo", "user": "teacher", "role": "teacher"}, ana)
        assert [a["student"] for a in self.summary(rid)["answers"]] == ["Ana"]

    def test_oversized_bodies_get_413_and_store_nothing(self) -> None:
        ana = self.join("Ana")
        rid = self.open_round()["id"]
        body = json.dumps({"answer": "Rd1", "pad": "x" * service.MAX_BODY})
        code, reply = self.call("POST", f"/api/rounds/{rid}/answers", body, ana)
        assert code == 413 and reply["error"]
        assert self.summary(rid)["answered"] == 0

    def test_a_flood_from_one_student_gets_429_and_the_others_are_served(self) -> None:
        ana, bo = self.join("Ana"), self.join("Bo")
        rid = self.open_round()["id"]
        self.room.rate = 0.01  # however slow the machine, no token comes back during the test
        codes = [self.answer(ana, rid, "Rd1")[0] for _ in range(service.BURST + 5)]
        assert codes[0] == 200 and 429 in codes
        reply = self.fetch(f"/api/rounds/{rid}/answers", method="POST",
                           body=json.dumps({"answer": "Rd1"}),
                           headers={"Authorization": f"token {ana}"})
        assert reply.code == 429 and reply.headers["Retry-After"]
        assert self.answer(bo, rid, "Rd1")[0] == 200
        assert self.summary(rid)["answered"] == 2

    def test_unknown_paths_get_a_json_404(self) -> None:
        code, reply = self.call("GET", "/api/nothing")
        assert code == 404 and reply["error"]

    def test_a_store_that_cannot_be_written_says_so(self) -> None:
        ana = self.join("Ana")
        rid = self.open_round()["id"]
        self.store._db.execute("PRAGMA query_only = ON")  # noqa: SLF001  (a disk turned read-only)
        code, reply = self.answer(ana, rid, "Rd1")
        assert code == 503 and "could not save" in reply["error"]
        self.store._db.execute("PRAGMA query_only = OFF")  # noqa: SLF001
        assert self.answer(ana, rid, "Rd1")[0] == 200


class TestEvents(Room):
    async def connect(self, token: str | None, query: str = "") -> Any:
        url = f"ws://127.0.0.1:{self.get_http_port()}/api/events?{query}"
        if token:
            url += f"&token={token}"
        return await tornado.websocket.websocket_connect(url)

    async def expect(self, sock: Any, kind: str) -> dict[str, Any]:
        while True:
            message = await asyncio.wait_for(sock.read_message(), WAIT)
            assert message is not None, f"closed while waiting for {kind}"
            data = json.loads(message)
            if data["type"] == kind:
                return dict(data)

    async def post(self, path: str, body: object, token: str) -> HTTPResponse:
        return await self.http_client.fetch(
            self.get_url(path), method="POST", body=json.dumps(body), raise_error=False,
            headers={"Authorization": f"token {token}"})

    async def ajoin(self, name: str, **extra: object) -> str:
        reply = await self.http_client.fetch(self.get_url("/api/join"), method="POST",
                                             body=json.dumps({"code": CODE, "name": name,
                                                              **extra}))
        return str(json.loads(reply.body)["token"])

    async def asummary(self, round_id: int) -> dict[str, Any]:
        reply = await self.http_client.fetch(self.get_url(f"/api/rounds/{round_id}/summary"),
                                             headers={"Authorization": f"token {TEACHER}"})
        return dict(json.loads(reply.body))

    @gen_test(timeout=60)
    async def test_without_a_token_the_socket_is_refused(self) -> None:
        for token in (None, "not-a-session"):
            with pytest.raises(HTTPClientError) as refused:
                await self.connect(token)
            assert refused.value.code == 401

    @gen_test(timeout=60)
    async def test_a_round_reaches_every_board_and_answers_reach_the_teacher(self) -> None:
        ana, bo = await self.ajoin("Ana", lang="zh-Hans"), await self.ajoin("Bo")
        teacher = await self.connect(TEACHER)
        hello = await self.expect(teacher, "hello")
        assert hello["role"] == "teacher" and hello["round"] is None
        students = [await self.connect(ana), await self.connect(bo)]
        for sock in students:
            assert (await self.expect(sock, "hello"))["round"] is None
        reply = await self.post("/api/rounds", {"fen": MATE_IN_ONE, "prompt": {
            "en": "Mate in one.", "zh": "一步杀。"}}, TEACHER)
        rid = json.loads(reply.body)["id"]
        opened = [await self.expect(sock, "round_opened") for sock in students]
        assert [m["round"]["prompt"] for m in opened] == ["一步杀。", "Mate in one."]
        assert (await self.expect(teacher, "summary"))["summary"]["answered"] == 0
        await self.post(f"/api/rounds/{rid}/answers", {"answer": "Qxf7"}, ana)
        ack = await self.expect(students[0], "answer_ack")
        assert ack == {"type": "answer_ack", "round": rid, "move": "Qxf7#", "uci": "h5f7"}
        while True:
            summary = (await self.expect(teacher, "summary"))["summary"]
            if summary["answered"] == 1:
                break
        assert summary["moves"] == {"Qxf7#": 1} and summary["connected"] == 2
        await self.post(f"/api/rounds/{rid}/close", {}, TEACHER)
        for sock in students:
            closed = await self.expect(sock, "round_closed")
            assert closed["round"]["solution"]["arrows"] == ["h5f7"]
        for sock in (teacher, *students):
            sock.close()

    @gen_test(timeout=60)
    async def test_a_reconnect_or_late_joiner_gets_the_current_round(self) -> None:
        ana = await self.ajoin("Ana")
        reply = await self.post("/api/rounds", {"exercise": "06.12"}, TEACHER)
        rid = json.loads(reply.body)["id"]
        first = await self.connect(ana)
        assert (await self.expect(first, "hello"))["round"]["id"] == rid
        await self.post(f"/api/rounds/{rid}/answers", {"answer": "Rd1"}, ana)
        first.close()
        again = await self.connect(ana)
        hello = await self.expect(again, "hello")
        assert hello["round"]["id"] == rid and hello["round"]["answer"]["move"] == "Rd1"
        late = await self.ajoin("Cy")
        assert (await self.expect(await self.connect(late), "hello"))["round"]["id"] == rid
        await self.post(f"/api/rounds/{rid}/answers", {"answer": "Rd1"}, ana)
        assert (await self.asummary(rid))["answered"] == 1

    @gen_test(timeout=60)
    async def test_a_dropped_network_gets_the_current_round_and_nothing_counts_twice(
            self) -> None:
        ana, bo = await self.ajoin("Ana"), await self.ajoin("Bo")
        teacher = await self.connect(TEACHER)
        await self.expect(teacher, "hello")
        sock = await self.connect(ana)
        await self.expect(sock, "hello")
        first = json.loads((await self.post("/api/rounds", {"fen": MATE_IN_ONE},
                                            TEACHER)).body)["id"]
        await self.expect(sock, "round_opened")
        assert (await self.post(f"/api/rounds/{first}/answers", {"answer": "Qxf7"},
                                ana)).code == 200
        sock.protocol.stream.close()  # the wifi drops: no closing handshake, the socket dies
        while (await self.expect(teacher, "summary"))["summary"]["connected"] != 0:
            pass
        # the answer sent again by a client that did not hear the reply: still one answer
        assert (await self.post(f"/api/rounds/{first}/answers", {"answer": "Qxf7#"},
                                ana)).code == 200
        assert (await self.post(f"/api/rounds/{first}/answers", {"answer": "Nf3"},
                                bo)).code == 200
        await self.post(f"/api/rounds/{first}/close", {}, TEACHER)
        second = json.loads((await self.post("/api/rounds", {"fen": MATE_IN_ONE},
                                             TEACHER)).body)["id"]
        late = await self.post(f"/api/rounds/{first}/answers", {"answer": "Nf3"}, ana)
        assert late.code == 409  # a retry that arrives after the round moved on
        again = await self.connect(ana)
        hello = await self.expect(again, "hello")
        assert (hello["round"]["id"], hello["round"]["state"], hello["round"]["answer"]) == (
            second, "open", None)
        for _ in range(2):
            await self.post(f"/api/rounds/{second}/answers", {"answer": "Bxf7+"}, ana)
        old, new = await self.asummary(first), await self.asummary(second)
        assert (old["answered"], old["moves"]) == (2, {"Nf3": 1, "Qxf7#": 1})
        assert (new["answered"], new["moves"], new["connected"]) == (1, {"Bxf7+": 1}, 1)
        for each in (teacher, again):
            each.close()

    @gen_test(timeout=60)
    async def test_an_answer_on_the_socket_is_checked_like_one_over_http(self) -> None:
        ana = await self.ajoin("Ana")
        reply = await self.post("/api/rounds", {"fen": MATE_IN_ONE}, TEACHER)
        rid = json.loads(reply.body)["id"]
        sock = await self.connect(ana)
        await self.expect(sock, "hello")
        sock.write_message(json.dumps({"type": "answer", "round": rid, "answer": "qxf7",
                                       "student": "Bo"}))
        assert (await self.expect(sock, "answer_ack"))["move"] == "Qxf7#"
        for bad, status in (({"round": rid, "answer": "Ke3"}, 400),
                            ({"round": str(rid), "answer": "Nf3"}, 400),
                            ({"round": rid + 1, "answer": "Nf3"}, 404)):
            sock.write_message(json.dumps({"type": "answer", **bad}))
            assert (await self.expect(sock, "error"))["status"] == status
        await self.post(f"/api/rounds/{rid}/close", {}, TEACHER)
        sock.write_message(json.dumps({"type": "answer", "round": rid, "answer": "Nf3"}))
        assert (await self.expect(sock, "error"))["status"] == 409
        teacher = await self.connect(TEACHER)
        await self.expect(teacher, "hello")
        teacher.write_message(json.dumps({"type": "answer", "round": rid, "answer": "Nf3"}))
        assert (await self.expect(teacher, "error"))["status"] == 403
        summary = await self.asummary(rid)
        assert summary["answers"] == [{"student": "Ana", "move": "Qxf7#", "uci": "h5f7",
                                       "correct": True}]

    @gen_test(timeout=60)
    async def test_a_fifth_socket_closes_the_oldest(self) -> None:
        ana = await self.ajoin("Ana")
        socks = [await self.connect(ana) for _ in range(service.SOCKETS_PER_USER + 1)]
        for sock in socks:
            await self.expect(sock, "hello")
        assert await asyncio.wait_for(socks[0].read_message(), WAIT) is None
        sock = socks[-1]
        sock.write_message(json.dumps({"type": "ping"}))
        assert (await self.expect(sock, "pong")) == {"type": "pong"}

    @gen_test(timeout=120)
    async def test_thirty_students_answering_at_once_are_each_counted_once(self) -> None:
        tokens = [await self.ajoin(f"student{i}") for i in range(30)]
        reply = await self.post("/api/rounds", {"fen": MATE_IN_ONE}, TEACHER)
        rid = json.loads(reply.body)["id"]
        moves = ["Qxf7", "Nf3", "Bxf7+", "d3"]
        replies = await asyncio.gather(*[
            self.post(f"/api/rounds/{rid}/answers", {"answer": moves[(i + k) % 4]}, token)
            for k in range(2) for i, token in enumerate(tokens)])
        assert {r.code for r in replies} == {200}
        summary = (await self.asummary(rid))
        assert summary["answered"] == 30 and sum(summary["moves"].values()) == 30
        last = {f"student{i}": judge(from_position(MATE_IN_ONE), moves[(i + 1) % 4]).san
                for i in range(30)}
        assert {a["student"]: a["move"] for a in summary["answers"]} == last


class HubRoom(AsyncHTTPTestCase):
    """Hub mode: identity only from the hub; teachers by group; classes by group."""

    classes: tuple[str, ...] = ("class",)

    def get_app(self) -> Any:
        self.store = Store(":memory:")
        self.room = Classroom(self.store, mode="hub", classes=self.classes,
                              every_user=self.classes == ("class",))
        self.hub_auth = FakeHubAuth()
        return make_app(self.room, prefix="/services/classroom/", hub_auth=self.hub_auth)

    def me(self, who: str) -> tuple[int, Any]:
        reply = self.fetch("/services/classroom/api/me", headers={
            "Authorization": f"token {who}"} if who else {})
        return reply.code, json.loads(reply.body)


class TestHubIdentity(HubRoom):
    def test_teachers_by_group_and_every_other_user_in_one_class(self) -> None:
        assert self.me("teacher:teachers")[1]["role"] == "teacher"
        assert self.me("student1:")[1] == {"mode": "hub", "user": "student1", "role": "student",
                                            "class": "class", "lang": "en"}
        assert self.me("")[0] == 401
        assert self.store.joined("class") == 1
        asked = self.hub_auth.asked
        assert self.me("student1:")[1]["user"] == "student1"
        assert self.hub_auth.asked == asked  # the hub's answer about a token is kept a while

    def test_join_is_for_the_laptop_only(self) -> None:
        reply = self.fetch("/services/classroom/api/join", method="POST", body=json.dumps(
            {"code": "x", "name": "x"}), headers={"Authorization": "token student1:"})
        assert reply.code == 403


class TestHubClasses(HubRoom):
    classes = ("7a", "7b")

    def test_a_class_is_a_hub_group(self) -> None:
        assert self.me("ana:7b")[1]["class"] == "7b"
        assert self.me("stray:")[0] == 403
        reply = self.fetch("/services/classroom/api/rounds?class=7b", method="POST",
                           body=json.dumps({"exercise": "06.12", "class": "7b"}),
                           headers={"Authorization": "token t:teachers"})
        assert reply.code == 201 and json.loads(reply.body)["class"] == "7b"
        current = self.fetch("/services/classroom/api/rounds/current",
                             headers={"Authorization": "token ana:7b"})
        other = self.fetch("/services/classroom/api/rounds/current",
                           headers={"Authorization": "token bo:7a"})
        assert (current.code, other.code) == (200, 404)


def test_the_store_keeps_one_answer_per_student_and_refuses_stale_rounds(
        tmp_path: Path) -> None:
    store = Store(tmp_path / "c.sqlite")
    first = store.open_round("class", {"fen": "start"})
    second = store.open_round("class", {"fen": "start"})
    with pytest.raises(ClassroomError) as stale:
        store.answer(first, "ana", san="e4", uci="e2e4", correct=None)
    assert stale.value.code == "not_current"
    store.close_round(second)
    with pytest.raises(ClassroomError) as closed:
        store.answer(second, "ana", san="e4", uci="e2e4", correct=None)
    assert closed.value.code == "closed"
    with pytest.raises(ClassroomError) as unknown:
        store.answer(second + 1, "ana", san="e4", uci="e2e4", correct=None)
    assert unknown.value.code == "unknown_round"
    other = sqlite3.connect(tmp_path / "c.sqlite")
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert other.execute("SELECT count(*) FROM answers").fetchone()[0] == 0


def test_a_restarted_service_goes_on_with_the_round_and_its_answers(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    before = Classroom(Store(db), mode="laptop", code=CODE, teacher_token=TEACHER)
    rnd = before.open_round("class", from_position(MATE_IN_ONE))
    ana = service.Identity("Ana", "student", "class")
    before.answer(ana, rnd.id, "Nf3", None)
    before.store.close()
    after = Classroom(Store(db), mode="laptop", code=CODE, teacher_token=TEACHER)
    current = after.current("class")
    assert current is not None and current.id == rnd.id
    after.answer(ana, rnd.id, "Qxf7", None)  # the last answer counts, also across a restart
    after.answer(service.Identity("Bo", "student", "class"), rnd.id, "d3", None)
    summary = after.summary(current)
    assert summary["moves"] == {"Qxf7#": 1, "d3": 1} and summary["correct"] == 1
    assert [(a.student, a.san) for a in Store(db).answers(rnd.id)] == [("Ana", "Qxf7#"),
                                                                        ("Bo", "d3")]


def test_the_laptop_command_refuses_a_folder_that_is_not_a_site(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "chesskit", "classroom", "--site",
                             str(tmp_path), "--db", str(tmp_path / "c.sqlite")],
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 1
    assert result.stderr.startswith("Error: ") and "index.html" in result.stderr
