"""The classroom on a real JupyterHub (the trial jupyterhub_config.py on 127.0.0.1): a teacher
and two students call the service through the hub's proxy with their own hub tokens, a
browser-like client signs in through the hub's OAuth, and the websocket pushes a new round.

The part with real kernels answering through ``ck.classroom`` belongs to the client's tests;
they can reuse ``classroom_hub`` and ``hub_token`` from here.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
import tornado.websocket
from test_hub import pytestmark as hub_marks
from test_hub import running_hub
from tornado.httpclient import HTTPRequest

pytestmark = hub_marks
PREFIX = "/services/classroom/"
STUDENTS = ("student1", "student2")


def _opener() -> tuple[urllib.request.OpenerDirector, http.cookiejar.CookieJar]:
    jar = http.cookiejar.CookieJar()
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar)), jar


def _cookie(jar: http.cookiejar.CookieJar, name: str, path: str = "") -> str:
    return next(c.value or "" for c in jar if c.name == name and c.path.startswith(path))


def signed_in(hub: str, user: str) -> tuple[urllib.request.OpenerDirector,
                                            http.cookiejar.CookieJar]:
    """A browser-like client (cookies, redirects) signed in to the hub as ``user``."""
    opener, jar = _opener()
    with opener.open(f"{hub}/hub/login", timeout=60) as page:
        xsrf = re.search(r'name="_xsrf"\s+value="([^"]+)"', page.read().decode())
    form = urllib.parse.urlencode({"username": user, "password": "test-pw",
                                   "_xsrf": xsrf.group(1) if xsrf else ""}).encode()
    opener.open(f"{hub}/hub/login", data=form, timeout=120).close()
    return opener, jar


def hub_token(hub: str, user: str) -> str:
    """A hub API token of ``user``'s own, made as that user does on the hub's token page."""
    opener, jar = signed_in(hub, user)
    request = urllib.request.Request(
        f"{hub}/hub/api/users/{user}/tokens", method="POST",
        data=json.dumps({"note": "classroom test", "expires_in": 3600}).encode(),
        headers={"X-XSRFToken": _cookie(jar, "_xsrf", "/hub/"),
                 "Content-Type": "application/json"})
    with opener.open(request, timeout=60) as reply:
        return str(json.loads(reply.read())["token"])


def call(hub: str, method: str, path: str, token: str | None, body: object = None
         ) -> tuple[int, Any]:
    """One API call through the hub's proxy: (status, JSON reply)."""
    data = None if body is None else json.dumps(body).encode()
    if method == "POST" and data is None:
        data = b"{}"
    headers = {"Authorization": f"token {token}"} if token else {}
    request = urllib.request.Request(f"{hub}{PREFIX}{path}", data=data, method=method,
                                     headers={**headers, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            return reply.status, json.loads(reply.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


@pytest.fixture(scope="module")
def classroom_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str,
                                                                                        str]]]:
    """The trial hub with its classroom up: (hub address, {user: hub token})."""
    with running_hub(tmp_path_factory.mktemp("classroom-hub")) as hub:
        tokens = {user: hub_token(hub, user) for user in ("teacher", *STUDENTS)}
        deadline = time.monotonic() + 120
        while call(hub, "GET", "api/me", tokens["teacher"])[0] != 200:
            assert time.monotonic() < deadline, "the classroom service did not start"
            time.sleep(0.5)
        yield hub, tokens


def test_identity_comes_from_the_hub(classroom_hub: tuple[str, dict[str, str]]) -> None:
    hub, tokens = classroom_hub
    assert call(hub, "GET", "api/me", tokens["teacher"])[1]["role"] == "teacher"
    assert call(hub, "GET", "api/me", tokens["student1"])[1] == {
        "mode": "hub", "user": "student1", "role": "student", "class": "class", "lang": "en"}
    assert call(hub, "GET", "api/me", None)[0] in (401, 403)
    assert call(hub, "GET", "api/me", "not-a-token")[0] in (401, 403)
    assert call(hub, "POST", "api/join", tokens["student1"], {"code": "x", "name": "y"})[0] \
        == 403


def test_a_round_with_a_teacher_and_two_students(classroom_hub: tuple[str, dict[str, str]]
                                                  ) -> None:
    hub, tokens = classroom_hub
    teacher, one, two = tokens["teacher"], tokens["student1"], tokens["student2"]
    assert call(hub, "POST", "api/rounds", one, {"exercise": "15.60"})[0] == 403
    code, rnd = call(hub, "POST", "api/rounds", teacher, {"exercise": "15.60"})
    assert code == 201 and rnd["state"] == "open"
    rid = rnd["id"]
    for token in (one, two):
        code, current = call(hub, "GET", "api/rounds/current", token)
        assert code == 200 and current["id"] == rid and current["prompt"]
    assert call(hub, "POST", f"api/rounds/{rid}/answers", one,
                {"answer": "rd1", "student": "student2"}) == (
        200, {"round": rid, "move": "Rd1#", "uci": "d7d1"})
    code, refused = call(hub, "POST", f"api/rounds/{rid}/answers", two, {"answer": "Rd9"})
    assert code == 400 and refused["error"]
    assert call(hub, "POST", f"api/rounds/{rid}/answers", two, {"answer": "Kg1"})[0] == 400
    assert call(hub, "POST", f"api/rounds/{rid}/answers", two, {"answer": "Rh7"})[0] == 200
    assert call(hub, "POST", f"api/rounds/{rid}/answers", teacher, {"answer": "Rd1"})[0] == 403
    assert call(hub, "GET", f"api/rounds/{rid}/summary", one)[0] == 403
    code, summary = call(hub, "GET", f"api/rounds/{rid}/summary", teacher)
    assert code == 200
    assert (summary["answered"], summary["correct"], summary["moves"]) == (
        2, 1, {"Rd1#": 1, "Rh7": 1})
    assert [a["student"] for a in summary["answers"]] == ["student1", "student2"]
    assert call(hub, "POST", f"api/rounds/{rid}/close", two)[0] == 403
    code, closed = call(hub, "POST", f"api/rounds/{rid}/close", teacher)
    assert code == 200 and closed["solution"]["moves"] == ["Rd1#"]
    assert call(hub, "POST", f"api/rounds/{rid}/answers", one, {"answer": "Rd1"})[0] == 409


def test_a_new_round_is_pushed_through_the_proxy(classroom_hub: tuple[str, dict[str, str]]
                                                 ) -> None:
    hub, tokens = classroom_hub

    async def read(sock: Any) -> dict[str, Any]:
        message = await asyncio.wait_for(sock.read_message(), 30)
        assert message is not None, "the connection closed"
        return dict(json.loads(message))

    async def scenario() -> list[dict[str, Any]]:
        url = hub.replace("http", "ws", 1) + PREFIX + "api/events"
        socks = [await tornado.websocket.websocket_connect(HTTPRequest(
            url, headers={"Authorization": f"token {tokens[user]}"})) for user in STUDENTS]
        for sock in socks:
            assert (await read(sock))["type"] == "hello"
        started = time.monotonic()
        await asyncio.to_thread(call, hub, "POST", "api/rounds", tokens["teacher"],
                                {"fen": "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"})
        got = []
        for sock in socks:
            while True:
                message = await read(sock)
                if message["type"] == "round_opened":
                    got.append(message)
                    break
        assert time.monotonic() - started < 10
        for sock in socks:
            sock.close()
        return got

    opened = asyncio.run(scenario())
    assert [m["round"]["fen"].split()[0] for m in opened] == ["6k1/5ppp/8/8/8/8/5PPP/R5K1"] * 2


def test_a_browser_signs_in_through_the_hubs_oauth(classroom_hub: tuple[str, dict[str, str]]
                                                   ) -> None:
    hub, _ = classroom_hub
    opener, jar = signed_in(hub, "student2")
    try:
        opener.open(f"{hub}{PREFIX}", timeout=60).close()  # hub OAuth, back to the page
    except urllib.error.HTTPError as error:
        assert error.code == 404  # the page itself is the client's (static/student.html)
    request = urllib.request.Request(f"{hub}{PREFIX}api/me", headers={
        "X-XSRFToken": _cookie(jar, "_xsrf", PREFIX), "Sec-Fetch-Mode": "cors",
        "Sec-Fetch-Site": "same-origin"})
    with opener.open(request, timeout=60) as reply:
        assert json.loads(reply.read())["user"] == "student2"
    forged = urllib.request.Request(f"{hub}{PREFIX}api/me", headers={
        "X-XSRFToken": "forged", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "cross-site"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        opener.open(forged, timeout=60)
    assert refused.value.code in (401, 403)
