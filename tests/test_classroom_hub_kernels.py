"""The classroom on the trial JupyterHub with real kernels: a teacher and two students, each in
a kernel of their own hub server, answer through ``ck.classroom`` (issue 20's integration test).

The hub and the users' tokens come from ``classroom_hub`` (tests/test_classroom_hub.py).  Each
user's server is started through the hub's API and a kernel through the server's; code runs
over the kernel's websocket, as a notebook's cells would.  The kernels find the service by the
hub's environment only (``$CHESSKIT_CLASSROOM_URL``, ``$JUPYTERHUB_API_TOKEN``).  A student's
board gets the round from the listener thread while the student's cell is busy waiting, and
its traitlets reach the front end from that thread (``comm_msg`` updates on IOPub).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import textwrap
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from test_classroom_hub import classroom_hub
from test_hub import pytestmark as hub_marks
from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

__all__ = ["classroom_hub"]  # the fixture, reused
pytestmark = hub_marks
LIMIT = 180.0
MATE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"


def hub_api(hub: str, method: str, path: str, token: str, body: object = None) -> Any:
    request = urllib.request.Request(
        f"{hub}{path}", method=method, data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as reply:
        text = reply.read()
    return json.loads(text) if text else None


def start_server(hub: str, user: str, token: str) -> None:
    """Start ``user``'s single-user server through the hub and wait until it is ready."""
    deadline = time.monotonic() + 2 * LIMIT
    while True:
        server = hub_api(hub, "GET", f"/hub/api/users/{user}", token).get("servers", {}).get("")
        if server and server.get("ready"):
            return
        assert time.monotonic() < deadline, f"{user}'s server did not start"
        if not server:  # not started yet (or a start that failed): start it
            with contextlib.suppress(urllib.error.HTTPError):  # 400: already starting
                hub_api(hub, "POST", f"/hub/api/users/{user}/server", token, {})
        time.sleep(0.5)


class Kernel:
    """A kernel on ``user``'s hub server, driven over its websocket like a notebook."""

    def __init__(self, hub: str, user: str, token: str) -> None:
        self.hub, self.user, self.token = hub, user, token
        self.id = hub_api(hub, "POST", f"/user/{user}/api/kernels", token, {})["id"]
        self.loop = asyncio.new_event_loop()
        url = hub.replace("http", "ws", 1) + f"/user/{user}/api/kernels/{self.id}/channels"

        async def connect() -> Any:  # made inside the loop that will read it
            return await websocket_connect(HTTPRequest(
                url, headers={"Authorization": f"token {token}"}, request_timeout=LIMIT))

        self.socket = self.loop.run_until_complete(connect())
        self.iopub: list[dict[str, Any]] = []

    def run(self, code: str) -> str:
        """Execute ``code``; its printed output (an error fails the test with the traceback)."""
        return self.loop.run_until_complete(asyncio.wait_for(self._run(code), LIMIT))

    async def _run(self, code: str) -> str:
        msg_id = uuid.uuid4().hex
        await self.socket.write_message(json.dumps({
            "header": {"msg_id": msg_id, "username": self.user, "session": self.id,
                       "msg_type": "execute_request", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": textwrap.dedent(code), "silent": False,
                        "store_history": False, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": True}}))
        out: list[str] = []
        replied = idle = False
        while not (replied and idle):
            message = json.loads(await self.socket.read_message())
            kind = message["header"]["msg_type"]
            if message["channel"] == "iopub":
                self.iopub.append(message)
            if message.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            if kind == "stream":
                out.append(message["content"]["text"])
            elif kind == "error":
                pytest.fail(f"{self.user}'s kernel: " + "\n".join(message["content"]["traceback"]))
            elif kind == "execute_reply":
                replied = True
            elif kind == "status" and message["content"]["execution_state"] == "idle":
                idle = True
        return "".join(out)

    def synced(self, name: str, value: object) -> bool:
        """Did a widget of this kernel send ``name = value`` to the front end?"""
        return any(m["header"]["msg_type"] == "comm_msg"
                   and m["content"]["data"].get("state", {}).get(name) == value
                   for m in self.iopub)

    async def _close_socket(self) -> None:
        self.socket.close()  # tornado writes the close frame on the loop that is running

    def close(self) -> None:
        self.loop.run_until_complete(self._close_socket())
        hub_api(self.hub, "DELETE", f"/user/{self.user}/api/kernels/{self.id}", self.token)
        self.loop.close()


WAIT = """
import time
deadline = time.monotonic() + 60
while not ({condition}) and time.monotonic() < deadline:
    time.sleep(0.05)  # the cell is busy: only the listener thread can bring the news
"""


@pytest.fixture(scope="module")
def kernels(classroom_hub: tuple[str, dict[str, str]]) -> Iterator[dict[str, Kernel]]:
    hub, tokens = classroom_hub
    started: dict[str, Kernel] = {}
    try:
        for user in ("teacher", "student1", "student2"):
            start_server(hub, user, tokens[user])
            started[user] = Kernel(hub, user, tokens[user])
            started[user].run("import chesskit as ck")
        yield started
    finally:
        for kernel in started.values():
            kernel.close()


def test_a_teacher_and_two_students_in_kernels(kernels: dict[str, Kernel],
                                               classroom_hub: tuple[str, dict[str, str]]
                                               ) -> None:
    teacher, one, two = kernels["teacher"], kernels["student1"], kernels["student2"]
    assert "teacher" in teacher.run("print(ck.classroom.join())")  # a sentence, no traceback
    for student in (one, two):
        assert student.run("b = ck.classroom.join(); print(type(b).__name__)") \
            == "StudentBoard\n"
    rid = int(teacher.run(f"t = ck.classroom.ask(fen={MATE!r}); print(t.round_id)"))
    started = time.monotonic()
    for student in (one, two):
        shown = student.run(WAIT.format(condition=f"b.round_id == {rid}")
                            + "print(b.round_id, b.mode, b.fen)")
        assert shown == f"{rid} play {MATE}\n"
        assert student.synced("round_id", rid)  # sent to the page from the listener thread
    assert time.monotonic() - started < 30

    assert one.run('b.handle({"type": "move", "from": "a1", "to": "a8"}); print(b.sent)') \
        == "Ra8#\n"
    assert two.run('b.handle({"type": "text", "text": "h3"}); print(b.sent)') == "h3\n"
    moves = teacher.run(WAIT.format(condition="t.answered == 2")
                        + "print(sorted((m['san'], m['count'], m['right']) for m in t.moves))")
    assert moves == "[('Ra8#', 1, True), ('h3', 1, False)]\n"

    one.close()  # student1's kernel is restarted: a new kernel gets the round and the answer
    hub, tokens = classroom_hub
    kernels["student1"] = one = Kernel(hub, "student1", tokens["student1"])
    shown = one.run("import chesskit as ck\nb = ck.classroom.join()\n"
                    + WAIT.format(condition=f"b.round_id == {rid}") + "print(b.sent)")
    assert shown == "Ra8#\n"

    summary = teacher.run("print(repr(ck.classroom.close()))")
    assert summary.startswith(f"Round {rid} (closed): 2 of ") and "Ra8# 1 (right)" in summary
    for student in (one, two):
        message = student.run(WAIT.format(condition="b.round_state == 'closed'")
                              + "print(b.message)")
        assert "Ra8#" in message
