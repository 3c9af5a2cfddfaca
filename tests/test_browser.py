"""The board in a real browser: JupyterLab + Debian's Chromium driven by Playwright.

One JupyterLab server for the module (token, temp root, widget state saved via the shipped
overrides.json); each test writes a notebook, runs it, clicks square centres and checks both
the page and the kernel. A failing test leaves a screenshot in /tmp.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import nbformat
import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
TOKEN = "chesskit-test-token"
pytestmark = pytest.mark.browser

if not os.access(CHROMIUM, os.X_OK):
    pytest.skip("needs Debian's chromium at /usr/bin/chromium", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="needs playwright for Python")
from playwright.sync_api import Page, sync_playwright  # noqa: E402


class Lab:
    """A running JupyterLab: its URL, root directory and process."""

    def __init__(self, root: Path, port: int, process: subprocess.Popen[bytes]) -> None:
        self.root, self.port, self.process = root, port, process
        self.url = f"http://127.0.0.1:{port}"

    def api(self, path: str, *, method: str = "GET") -> Any:
        request = urllib.request.Request(self.url + path, method=method,
                                         headers={"Authorization": f"token {TOKEN}"})
        with urllib.request.urlopen(request, timeout=5) as response:
            body = response.read()
        return json.loads(body) if body else None

    def kernel_ready(self, name: str) -> bool:
        """The notebook's kernel is idle and its websocket is connected."""
        kernels = [s["kernel"] for s in self.api("/api/sessions") if s["path"] == name]
        return any(k["execution_state"] == "idle" and k["connections"] > 0 for k in kernels)

    def stop_kernels(self) -> None:
        for session in self.api("/api/sessions"):
            self.api(f"/api/sessions/{session['id']}", method="DELETE")

    def write(self, name: str, *sources: str) -> Path:
        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                     "language": "python"}
        nb.cells = [nbformat.v4.new_code_cell(source) for source in sources]
        path = self.root / name
        nbformat.write(nb, path)
        return path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_lab(base: Path) -> Lab:
    """Start JupyterLab in ``base`` with saveState on (overrides.json as dev.py installs it)."""
    root, settings = base / "root", base / "app-settings"
    root.mkdir()
    settings.mkdir()
    overrides = json.loads((resources.files("chesskit") / "jupyter/overrides.json").read_text())
    overrides["@jupyterlab/apputils-extension:notification"] = {"fetchNews": "false",
                                                               "checkForUpdates": False}
    (settings / "overrides.json").write_text(json.dumps(overrides))
    port = _free_port()
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(base / "config"),
           "JUPYTER_RUNTIME_DIR": str(base / "runtime"), "JUPYTER_DATA_DIR": str(base / "data")}
    command = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1",
               f"--port={port}", f"--IdentityProvider.token={TOKEN}",
               f"--ServerApp.root_dir={root}", f"--LabApp.app_settings_dir={settings}",
               f"--LabApp.user_settings_dir={base / 'user-settings'}",
               f"--LabApp.workspaces_dir={base / 'workspaces'}", "--allow-root"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                               stderr=open(base / "lab.log", "wb"))  # noqa: SIM115
    lab = Lab(root, port, process)
    for _ in range(150):
        if process.poll() is not None:
            break
        try:
            lab.api("/api/status")
            return lab
        except OSError:
            time.sleep(0.1)
    process.terminate()
    raise RuntimeError("JupyterLab did not start: " + (base / "lab.log").read_text()[-2000:])


@pytest.fixture(scope="module")
def lab() -> Iterator[Lab]:
    base = Path(tempfile.mkdtemp(prefix="chesskit-lab-"))
    server = start_lab(base)
    yield server
    server.process.terminate()
    server.process.wait(timeout=10)
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 1000})
    tab = context.new_page()
    failed = request.session.testsfailed
    yield tab
    if request.session.testsfailed > failed:
        tab.screenshot(path=f"/tmp/chesskit-{request.node.name}.png")
    context.close()
    request.getfixturevalue("lab").stop_kernels()


def open_and_run(lab: Lab, page: Page, name: str, *sources: str, boards: int = 1) -> None:
    """Open a notebook, wait for a connected idle kernel, Run All, wait for the boards."""
    lab.write(name, "import chesskit as ck\nck.set_language('en')", *sources)
    page.goto(f"{lab.url}/lab/workspaces/{Path(name).stem}/tree/{name}?token={TOKEN}")
    deadline = time.time() + 30
    while time.time() < deadline and not lab.kernel_ready(name):
        time.sleep(0.1)
    menu(page, "Run", "Run All Cells")
    page.locator(".ck-board").nth(boards - 1).wait_for(timeout=20000)


def menu(page: Page, top: str, item: str) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text=top).first.click()
    page.locator(".lm-Menu-itemLabel", has_text=item).first.click()


def centre(page: Page, square: str, *, board: int = 0, white: bool = True) -> tuple[float, float]:
    """The screen centre of ``square`` on board number ``board``."""
    box = page.locator(".ck-board").nth(board).bounding_box()
    assert box is not None
    file, rank = "abcdefgh".index(square[0]), int(square[1]) - 1
    col, row = (file, 7 - rank) if white else (7 - file, rank)
    return box["x"] + (col + 0.5) * box["width"] / 8, box["y"] + (row + 0.5) * box["height"] / 8


def click(page: Page, square: str, *, board: int = 0) -> None:
    page.mouse.click(*centre(page, square, board=board))


def cell(page: Page, square: str, *, board: int = 0) -> Any:
    return page.locator(".ck-board").nth(board).locator(f'[data-sq="{square}"]')


def run_cell(page: Page, index: int) -> str:
    """Run code cell ``index`` again and return its text output."""
    target = page.locator(".jp-CodeCell").nth(index)
    target.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    output = target.locator(".jp-OutputArea-output")
    output.first.wait_for(timeout=10000)
    page.wait_for_function(
        "([i]) => { const c = document.querySelectorAll('.jp-CodeCell')[i];"
        " return c && !c.querySelector('.jp-InputPrompt').textContent.includes('*'); }",
        arg=[index])
    return str(output.first.inner_text())


def test_pick_shows_targets_and_move_reaches_kernel(lab: Lab, page: Page) -> None:
    open_and_run(lab, page, "move.ipynb", "b = ck.Board()\nb", "print(b.fen)")
    click(page, "g1")
    page.wait_for_selector('.ck-board [data-sq="f3"].ck-dot')
    assert "ck-dot" in (cell(page, "h3").get_attribute("class") or "")
    assert cell(page, "g1").get_attribute("aria-label") == "white knight on g1"
    click(page, "f3")
    page.wait_for_selector('.ck-board [data-sq="f3"] .ck-w')
    assert page.locator(".ck-msg").inner_text().strip() == "White played Nf3."
    assert page.locator(".ck-status").inner_text().strip() == "Black to move."
    assert "Take back" in page.locator(".ck-takeback").inner_text()
    assert "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b" in run_cell(page, 2)


def test_illegal_move_is_explained(lab: Lab, page: Page) -> None:
    open_and_run(lab, page, "illegal.ipynb", "ck.Board()")
    click(page, "e2")
    click(page, "e5")
    page.wait_for_selector(".ck-msg.ck-error")
    text = page.locator(".ck-msg").inner_text()
    assert "pawn on e2" in text
    page.wait_for_selector('.ck-board [data-sq="e5"].ck-flash')


def test_mark_squares_and_keyboard(lab: Lab, page: Page) -> None:
    open_and_run(lab, page, "mark.ipynb", "m = ck.Board('8/8/8/8/3R4/8/8/8', mode='mark')\nm",
                 "print(m.marked)")
    click(page, "d7")
    click(page, "a4")
    cell(page, "a4").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_selector('.ck-board [data-sq="b4"].ck-marked')
    assert "['a4', 'b4', 'd7']" in run_cell(page, 2)


def test_exercise_answer_is_saved_and_graded(lab: Lab, page: Page) -> None:
    ex = ("from chesskit.exercises import Exercise\n"
          "ex = Exercise(id='12.01', lesson=12, kind='move', goal='mate',"
          " fen='6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1')\nck.Board(ex.fen, exercise=ex)")
    open_and_run(lab, page, "exercise.ipynb", ex)
    path = lab.root / "exercise.ipynb"
    click(page, "a1")
    click(page, "a8")
    page.wait_for_selector(".ck-msg.ck-ok")
    page.wait_for_selector(".ck.ck-solved")
    assert page.locator(".ck-hint").is_hidden() and page.locator(".ck-solution").is_visible()
    menu(page, "File", "Save Notebook")
    from chesskit.boardstate import board_answers

    deadline = time.time() + 15
    answers: dict[str, str] = {}
    while time.time() < deadline and not answers:
        time.sleep(0.2)
        answers = board_answers(json.loads(path.read_text()))
    assert answers == {"12.01": "Ra8#"}


def test_fools_mate_two_players(lab: Lab, page: Page) -> None:
    open_and_run(lab, page, "game.ipynb", "g = ck.play()\ng", "print(g.result, g.reason)")
    for source, target in (("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")):
        click(page, source)
        click(page, target)
        page.wait_for_selector(f'.ck-board [data-sq="{target}"] .ck-p')
    page.wait_for_function("document.querySelector('.ck-moves').textContent.includes('Qh4#')")
    assert "checkmate" in page.locator(".ck-msg").inner_text()
    assert "0-1 checkmate" in run_cell(page, 2)
