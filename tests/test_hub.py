"""The trial hub of jupyterhub_config.py starts on 127.0.0.1 and lets a test user log in."""

from __future__ import annotations

import contextlib
import http.cookiejar
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEARCH_PATH = os.pathsep.join([str(Path(sys.executable).parent),  # the venv's jupyterhub
                               str(ROOT / ".venv" / "node" / "node_modules" / ".bin"),  # dev.py
                               str(Path(sys.executable).parents[1] / "node" / "node_modules"
                                   / ".bin"),  # the same, for a worktree using that venv
                               os.environ.get("PATH", "")])
HUB = shutil.which("jupyterhub", path=SEARCH_PATH)
STARTUP = 180  # seconds: a busy 2-core machine can take a minute to start a hub
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(HUB is None, reason="jupyterhub is not installed (pip install jupyterhub)"),
    pytest.mark.skipif(shutil.which("configurable-http-proxy", path=SEARCH_PATH) is None,
                       reason="JupyterHub's proxy is missing: python3 dev.py test installs it"
                              " into .venv/node with npm"),
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def running_hub(state: Path) -> Iterator[str]:
    """The trial hub of jupyterhub_config.py on free ports of 127.0.0.1, its state in
    ``state``; yields its address, stops it afterwards."""
    port = _free_port()
    env = {**os.environ, "CHESSKIT_HUB_DIR": str(state), "CHESSKIT_HUB_PORT": str(port),
           "CHESSKIT_HUB_API_PORT": str(_free_port()),
           "CHESSKIT_HUB_PROXY_PORT": str(_free_port()), "CHESSKIT_HUB_PASSWORD": "test-pw",
           "CHESSKIT_CLASSROOM_PORT": str(_free_port()), "PATH": SEARCH_PATH}
    log = (state / "hub.log").open("wb")
    process = subprocess.Popen([str(HUB), "-f", str(ROOT / "jupyterhub_config.py")], cwd=state,
                               env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{url}/hub/api", timeout=10) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                assert process.poll() is None, (state / "hub.log").read_text()
                time.sleep(0.2)
        else:
            pytest.fail(f"the hub did not start in {STARTUP} s:\n"
                        + (state / "hub.log").read_text())
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_hub(tmp_path_factory.mktemp("hub")) as url:
        yield url


def _log_in(url: str, user: str, password: str) -> tuple[int, str, list[str]]:
    jar = http.cookiejar.CookieJar()

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
    with opener.open(f"{url}/hub/login", timeout=60) as page:
        xsrf = re.search(r'name="_xsrf"\s+value="([^"]+)"', page.read().decode())
    form = urllib.parse.urlencode({"username": user, "password": password,
                                   "_xsrf": xsrf.group(1) if xsrf else ""}).encode()
    try:
        with opener.open(f"{url}/hub/login", data=form, timeout=60) as reply:
            status, location = reply.status, reply.headers.get("Location", "")
    except urllib.error.HTTPError as error:
        status, location = error.code, error.headers.get("Location", "")
    return status, location, sorted(c.name for c in jar)


def test_a_test_user_logs_in(hub: str) -> None:
    status, location, cookies = _log_in(hub, "student1", "test-pw")
    assert status == 302 and "/hub/" in location
    assert "jupyterhub-session-id" in cookies and "jupyterhub-hub-login" in cookies


def test_wrong_password_and_unknown_user_are_refused(hub: str) -> None:
    assert "jupyterhub-hub-login" not in _log_in(hub, "student1", "nope")[2]
    assert "jupyterhub-hub-login" not in _log_in(hub, "mallory", "test-pw")[2]
