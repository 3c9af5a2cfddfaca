"""The live classroom under a class answering at once: push, answers to the teacher, memory.

The service runs in its own process as a hub-managed service would (``python -m
chesskit.classroom.service``, the real HubOAuth code), its hub being a small stand-in that
answers the identity request (``GET /hub/api/user``) for the students' tokens; the laptop mode
(``chesskit classroom``, students join with code and name) is measured too.  Every simulated
student has its own token, its own websocket and its own HTTP requests; one teacher per class
listens on its websocket.

Per round: the teacher opens it (the push: from the teacher's request to each student's
``round_opened``), then every student answers at once (from each answer sent to the first
summary on the teacher's socket that holds it; and from the last answer sent to the summary
holding the whole class).  Answers go by ``POST api/rounds/<id>/answers``; the last row sends
them on the students' websockets instead (``{"type": "answer"}``).  The service's memory is
its resident set (``/proc``).  The plain way to compare with is the teacher walking round the
room, or a quiz tool that cannot take a move: there is no program to time, so the goal is the
issue's (p95 under 1 s).

Every row prints the load average too: on a shared machine the figures follow it.

Run: ``.venv/bin/python benchmarks/bench_classroom.py [--rounds 5] [--big-rounds 3]``;
``--big-only`` for the 400 students alone, ``--profile /tmp/prof`` to run the hub service under
cProfile (``/tmp/prof.<n>`` per scenario, read with ``pstats``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chess
import tornado.httpclient
import tornado.netutil
import tornado.web
import tornado.websocket

ROOT = Path(__file__).resolve().parents[1]
PREFIX = "/services/classroom/"
FEN = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
MOVES = [chess.Board(FEN).san(m) for m in chess.Board(FEN).legal_moves]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class FakeHubUser(tornado.web.RequestHandler):
    """``GET /hub/api/user``: the token ``<name>:<group>`` is that user in that group."""

    def get(self) -> None:
        token = self.request.headers.get("Authorization", "").split(None, 1)[-1]
        name, _, group = token.partition(":")
        self.finish({"name": name, "kind": "user", "groups": [group],
                     "scopes": ["access:services!service=classroom"]})


class LiteralResolver(tornado.netutil.Resolver):
    """Addresses are IP literals here: no thread pool per connection (the default resolver
    hands each one to a thread, which costs a loaded client milliseconds a request)."""

    async def resolve(self, host: str, port: int, family: socket.AddressFamily = socket.AF_UNSPEC
                      ) -> list[tuple[int, Any]]:
        return [(socket.AF_INET, (host, port))]


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used (user + system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> tuple[float, float]:
    """(resident now, peak) of a process, in MB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text()
                  .splitlines() if ":" in line)
    return (int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


@dataclass
class Client:
    """One user: a token, a websocket, and what arrived on it (with the time)."""

    name: str
    token: str
    klass: str
    sock: Any = None
    inbox: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    event: asyncio.Event = field(default_factory=asyncio.Event)

    async def listen(self) -> None:
        while True:
            message = await self.sock.read_message()
            if message is None:
                return
            self.inbox.append((time.perf_counter(), json.loads(message)))
            self.event.set()

    async def wait_for(self, test: Any, since: int = 0, timeout: float = 60) -> float:
        """The arrival time of the first message (from ``since``) that passes ``test``."""
        deadline = time.perf_counter() + timeout
        seen = since
        while True:
            for at, message in self.inbox[seen:]:
                if test(message):
                    return at
            seen = len(self.inbox)
            self.event.clear()
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"{self.name}: nothing matched")
            await asyncio.wait_for(self.event.wait(), left)


class Bench:
    """A running service and its clients."""

    def __init__(self, base: str, http: tornado.httpclient.AsyncHTTPClient, *,
                 on_socket: bool = False) -> None:
        self.base, self.http, self.on_socket = base, http, on_socket

    async def call(self, method: str, path: str, token: str, body: object = None) -> Any:
        reply = await self.http.fetch(
            self.base + path, method=method, raise_error=False,
            body=None if method == "GET" else json.dumps(body or {}),
            headers={"Authorization": f"token {token}"}, request_timeout=120)
        if reply.code >= 400:
            raise RuntimeError(f"{method} {path}: {reply.code} {reply.body[:200]!r}")
        return json.loads(reply.body)

    async def connect(self, client: Client, query: str = "") -> None:
        url = self.base.replace("http", "ws", 1) + "api/events" + query
        client.sock = await tornado.websocket.websocket_connect(
            tornado.httpclient.HTTPRequest(url, headers={"Authorization":
                                                         f"token {client.token}"},
                                           request_timeout=120), max_message_size=1 << 24)
        asyncio.ensure_future(client.listen())
        await client.wait_for(lambda m: m["type"] == "hello")

    async def round(self, teachers: list[Client], students: list[Client],
                    rng: random.Random) -> dict[str, list[float]]:
        """One round in every class at once; the figures of that round."""
        marks = {c.name: len(c.inbox) for c in teachers + students}
        sent = time.perf_counter()
        opened = await asyncio.gather(*[self.call("POST", "api/rounds", t.token,
                                                  {"fen": FEN, "class": t.klass})
                                        for t in teachers])
        rid = {t.klass: r["id"] for t, r in zip(teachers, opened, strict=True)}
        arrived = await asyncio.gather(*[s.wait_for(
            lambda m, s=s: m["type"] == "round_opened" and m["round"]["id"] == rid[s.klass],
            marks[s.name]) for s in students])
        push = [at - sent for at in arrived]
        marks = {c.name: len(c.inbox) for c in teachers}
        moves = {s.name: rng.choice(MOVES) for s in students}
        sends: dict[str, float] = {}

        async def answer(s: Client) -> None:
            sends[s.name] = time.perf_counter()
            if self.on_socket:
                await s.sock.write_message(json.dumps({"type": "answer", "round": rid[s.klass],
                                                       "answer": moves[s.name]}))
                return
            await self.call("POST", f"api/rounds/{rid[s.klass]}/answers", s.token,
                            {"answer": moves[s.name]})

        await asyncio.gather(*[answer(s) for s in students])
        per_answer, whole = [], []
        for teacher in teachers:
            mine = [s for s in students if s.klass == teacher.klass]

            def holds(m: dict[str, Any], who: list[Client] = mine,
                      round_id: int = rid[teacher.klass]) -> bool:
                if m["type"] != "summary" or m["summary"]["round"] != round_id:
                    return False
                got = {a["student"]: a["move"] for a in m["summary"]["answers"]}
                return all(got.get(s.name) == moves[s.name] for s in who)

            full = await teacher.wait_for(holds, marks[teacher.name])
            whole.append(full - max(sends[s.name] for s in mine))
            for s in mine:
                at = await teacher.wait_for(lambda m, s=s: holds(m, [s]), marks[teacher.name])
                per_answer.append(at - sends[s.name])
        return {"push": push, "answer": per_answer, "whole": whole}


async def scenario(base: str, *, classes: int, per_class: int, rounds: int, laptop: bool,
                   pid: int, teacher_token: str = "", code: str = "",
                   on_socket: bool = False) -> dict[str, Any]:
    tornado.netutil.Resolver.configure(LiteralResolver)
    tornado.httpclient.AsyncHTTPClient.configure(None, max_clients=2000)
    http = tornado.httpclient.AsyncHTTPClient()
    bench = Bench(base, http, on_socket=on_socket)
    if laptop:
        teachers = [Client("teacher", teacher_token, "class")]
        students = []
        for i in range(per_class):
            reply = await http.fetch(base + "api/join", method="POST", body=json.dumps(
                {"code": code, "name": f"student{i}"}))
            students.append(Client(f"student{i}", json.loads(reply.body)["token"], "class"))
    else:
        teachers = [Client(f"teacher{k}", f"teacher{k}:teachers", f"c{k}")
                    for k in range(classes)]
        students = [Client(f"s{k}-{i}", f"s{k}-{i}:c{k}", f"c{k}")
                    for k in range(classes) for i in range(per_class)]
    started = time.perf_counter()
    for group in range(0, len(students), 50):  # connect in waves, as a class arrives
        await asyncio.gather(*[bench.connect(c) for c in students[group:group + 50]])
    for teacher in teachers:  # each teacher's socket listens to their own class
        await bench.connect(teacher, "" if laptop else f"?class={teacher.klass}")
    connect = time.perf_counter() - started
    rng = random.Random(7)
    cpu, mine = cpu_seconds(pid), time.process_time()
    figures: dict[str, list[float]] = {"push": [], "answer": [], "whole": []}
    for _ in range(rounds):
        for key, values in (await bench.round(teachers, students, rng)).items():
            figures[key] += values
        await asyncio.sleep(0.6)  # the students' request budget refills between rounds
    for client in teachers + students:
        client.sock.close()
    now, peak = rss_mb(pid)
    requests = rounds * (len(teachers) + len(students))
    return {"figures": figures, "connect": connect, "rss": now, "peak": peak,
            "cpu_ms": (cpu_seconds(pid) - cpu) * 1000 / requests,
            "client_ms": (time.process_time() - mine) * 1000 / requests}


def start(command: list[str], env: dict[str, str], port: int, log: Path
          ) -> subprocess.Popen[str]:
    """Start a service, its output to ``log``; wait until it listens."""
    with log.open("w") as out:
        process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=out,
                                   stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(log.read_text()) from None
            time.sleep(0.2)
    raise RuntimeError(f"the service did not start on {port}")


def hub_service(folder: Path, hub_port: int, profile: str = ""
                ) -> tuple[subprocess.Popen[str], int]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT),
           "JUPYTERHUB_API_TOKEN": "service-token",
           "JUPYTERHUB_API_URL": f"http://127.0.0.1:{hub_port}/hub/api",
           "JUPYTERHUB_BASE_URL": "/", "JUPYTERHUB_SERVICE_NAME": "classroom",
           "JUPYTERHUB_SERVICE_PREFIX": PREFIX,
           "JUPYTERHUB_SERVICE_URL": f"http://127.0.0.1:{port}",
           "JUPYTERHUB_CLIENT_ID": "service-classroom",
           "JUPYTERHUB_OAUTH_CALLBACK_URL": f"{PREFIX}oauth_callback",
           "JUPYTERHUB_OAUTH_ACCESS_SCOPES": json.dumps(["access:services!service=classroom"]),
           "CHESSKIT_CLASSROOM_DB": str(folder / "hub.sqlite"),
           "CHESSKIT_CLASSROOM_CLASSES": ",".join(f"c{k}" for k in range(10))}
    profiler = ["-m", "cProfile", "-o", profile] if profile else []
    process = start([sys.executable, *profiler, "-m", "chesskit.classroom.service"], env, port,
                    folder / "hub.log")
    return process, port


def row(label: str, result: dict[str, Any]) -> str:
    f = result["figures"]
    return (f"{label:<34} {len(f['push']):>5} {pct(f['push'], .5) * 1000:>7.0f} "
            f"{pct(f['push'], .95) * 1000:>7.0f} {pct(f['answer'], .5) * 1000:>7.0f} "
            f"{pct(f['answer'], .95) * 1000:>7.0f} {pct(f['whole'], .5) * 1000:>7.0f} "
            f"{pct(f['whole'], .95) * 1000:>7.0f} {result['rss']:>6.0f} {result['peak']:>6.0f}"
            f" {result['cpu_ms']:>6.1f} {result['client_ms']:>6.1f}")


async def main_async(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-classroom-"))
    hub_port = free_port()
    fake_hub = tornado.web.Application([("/hub/api/user", FakeHubUser)])
    fake_hub.listen(hub_port, "127.0.0.1")
    print("times in ms (push: teacher's request -> a student's round_opened; answer: a"
          " student's answer sent -> the teacher's summary holding it; class: the last answer"
          " sent -> the summary holding the whole class); memory: the service's RSS now / peak,"
          " MB; cpu/rq: the service's CPU ms per request of the rounds (opening, answering);"
          " client: the simulated clients' (this process's) CPU ms per request\n")
    print(f"{'scenario':<34} {'n':>5} {'push50':>7} {'push95':>7} {'ans50':>7} {'ans95':>7} "
          f"{'class50':>7} {'class95':>7} {'rss':>6} {'peak':>6} {'cpu/rq':>6} {'client':>6}")
    results = []

    if not args.big_only:
        laptop_port = free_port()
        laptop = start([sys.executable, "-m", "chesskit", "classroom", "--host", "127.0.0.1",
                        "--port", str(laptop_port), "--db", str(folder / "laptop.sqlite")],
                       {**os.environ, "PYTHONPATH": str(ROOT)}, laptop_port,
                       folder / "laptop.log")
        try:
            with sqlite3.connect(folder / "laptop.sqlite") as db:
                code, teacher = db.execute("SELECT code, teacher_token FROM classes").fetchone()
            result = await scenario(f"http://127.0.0.1:{laptop_port}/", classes=1, per_class=40,
                                    rounds=args.rounds, laptop=True, pid=laptop.pid,
                                    teacher_token=teacher, code=code)
            results.append(("laptop: 40 students, 1 class", result))
            print(row(*results[-1]) + f"   (load {os.getloadavg()[0]:.1f})", flush=True)
        finally:
            laptop.terminate()
            laptop.wait()

    for label, classes, per_class, rounds, on_socket in (
            ("hub: 40 students, 1 class", 1, 40, args.rounds, False),
            ("hub: 400 students, 10 classes", 10, 40, args.big_rounds, False),
            ("hub: 400, answers on the socket", 10, 40, args.big_rounds, True)):
        if args.big_only and classes == 1:
            continue
        profile = f"{args.profile}.{len(results)}" if args.profile else ""
        service, port = hub_service(folder, hub_port, profile)
        try:
            idle = rss_mb(service.pid)[0]
            result = await scenario(f"http://127.0.0.1:{port}{PREFIX}", classes=classes,
                                    per_class=per_class, rounds=rounds, laptop=False,
                                    pid=service.pid, on_socket=on_socket)
            results.append((label, result))
            print(row(label, result) + f"   (idle {idle:.0f} MB, connect all"
                  f" {result['connect']:.1f} s, load {os.getloadavg()[0]:.1f})", flush=True)
        finally:
            service.send_signal(signal.SIGINT)  # a profiled service writes its profile then
            service.wait()
        (folder / "hub.sqlite").unlink(missing_ok=True)
    print(f"\ngoal: push95 and ans95 under 1000 ms; load average"
          f" {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; clients and service share them")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds with 40 students")
    parser.add_argument("--big-rounds", type=int, default=3, help="rounds with 400 students")
    parser.add_argument("--big-only", action="store_true", help="the 400 students only")
    parser.add_argument("--profile", default="", metavar="PREFIX",
                        help="run the hub service under cProfile, its profiles PREFIX.<n>")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
