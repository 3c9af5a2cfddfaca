"""A laptop classroom served in-process for the client and browser tests.

The tornado application of ``chesskit classroom`` runs on its own asyncio loop in a thread, so
a test (and a kernel-like client in another thread) can talk to it over real HTTP and
websockets; :func:`running_classroom` stops it however the block ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chesskit.classroom.laptop import laptop_classroom
from chesskit.classroom.service import serve


@dataclass
class Laptop:
    """A running laptop classroom: its address, join code and teacher token."""

    url: str
    code: str
    teacher: str

    def call(self, method: str, path: str, body: object = None, *, token: str = "") -> tuple[
            int, Any]:
        """One API call: (status, JSON reply)."""
        request = urllib.request.Request(
            self.url + path, method=method, data=None if body is None else json.dumps(
                body).encode(), headers={"Authorization": f"token {token}"} if token else {})
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:
                return reply.status, json.loads(reply.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def join(self, name: str, *, lang: str = "en") -> str:
        """A student's session token."""
        status, reply = self.call("POST", "api/join",
                                  {"code": self.code, "name": name, "lang": lang})
        assert status == 200, reply
        return str(reply["token"])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def running_classroom(db: Path) -> Iterator[Laptop]:
    """``chesskit classroom`` on 127.0.0.1 (a free port), in a thread of this process."""
    room, app, _warning = laptop_classroom(db)
    port, loop, ready = free_port(), asyncio.new_event_loop(), threading.Event()
    servers = []

    def run() -> None:
        asyncio.set_event_loop(loop)

        async def start() -> None:
            servers.append(serve(app, port))
            ready.set()

        loop.run_until_complete(start())
        loop.run_forever()

    thread = threading.Thread(target=run, name="classroom-service", daemon=True)
    thread.start()
    assert ready.wait(30), "the classroom did not start"
    try:
        yield Laptop(f"http://127.0.0.1:{port}/", str(room.code), str(room.teacher_token))
    finally:
        def stop() -> None:
            for server in servers:
                server.stop()
            loop.stop()

        loop.call_soon_threadsafe(stop)
        thread.join(10)
