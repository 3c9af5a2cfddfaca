"""The board in a real browser: JupyterLab + Debian's Chromium driven by Playwright.

One JupyterLab server for the module (token, temp root, no autosave, widget state NOT saved:
board answers must reach the file through cell outputs and Ctrl+S alone); each test writes a
notebook, runs it, clicks square centres and checks both the page and the kernel. Every wait
is event-driven with a generous limit (a busy 2-core machine starts JupyterLab in 26 s); the
server and its temp folder go away even when starting fails. A failing test leaves a
screenshot in /tmp.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

from chesskit.exercises.catalog import exercise
from chesskit.widgets.boardstate import BoardAnswer, board_answers

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
TOKEN = "chesskit-test-token"
LIMIT = 120.0
"""Seconds any wait may take: generous, since each wait ends as soon as its event happens."""
MS = int(LIMIT * 1000)
pytestmark = pytest.mark.browser

if not os.access(CHROMIUM, os.X_OK):
    pytest.skip("needs Debian's chromium at /usr/bin/chromium", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="needs playwright for Python")
from playwright.sync_api import Page, sync_playwright  # noqa: E402


def wait_for(ready: Callable[[], object], *, what: str, limit: float = LIMIT) -> Any:
    """Poll ``ready`` (every 0.1 s, up to ``limit`` s) until it returns something true."""
    deadline = time.monotonic() + limit
    while True:
        with contextlib.suppress(OSError, ValueError, KeyError):
            found = ready()
            if found:
                return found
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {limit:.0f} s for {what}")
        time.sleep(0.1)


class Lab:
    """A running JupyterLab: its URL, root directory and process."""

    def __init__(self, root: Path, port: int, process: subprocess.Popen[bytes]) -> None:
        self.root, self.port, self.process = root, port, process
        self.url = f"http://127.0.0.1:{port}"

    def api(self, path: str, *, method: str = "GET") -> Any:
        request = urllib.request.Request(self.url + path, method=method,
                                         headers={"Authorization": f"token {TOKEN}"})
        with urllib.request.urlopen(request, timeout=10) as response:
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


@contextlib.contextmanager
def running_lab(*, save_widget_state: bool = False) -> Iterator[Lab]:
    """JupyterLab in a temp folder; stopped and the folder removed however the block ends."""
    base = Path(tempfile.mkdtemp(prefix="chesskit-lab-"))
    process: subprocess.Popen[bytes] | None = None
    try:
        root, settings = base / "root", base / "app-settings"
        root.mkdir()
        settings.mkdir()
        overrides = {"@jupyter-widgets/jupyterlab-manager:plugin": {
                         "saveState": save_widget_state},
                     "@jupyterlab/docmanager-extension:plugin": {"autosave": False},
                     "@jupyterlab/apputils-extension:notification": {
                         "fetchNews": "false", "checkForUpdates": False}}
        (settings / "overrides.json").write_text(json.dumps(overrides))
        port = _free_port()
        env = {**os.environ, "JUPYTER_CONFIG_DIR": str(base / "config"),
               "JUPYTER_RUNTIME_DIR": str(base / "runtime"),
               "JUPYTER_DATA_DIR": str(base / "data")}
        command = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1",
                   f"--port={port}", f"--IdentityProvider.token={TOKEN}",
                   f"--ServerApp.root_dir={root}", f"--LabApp.app_settings_dir={settings}",
                   f"--LabApp.user_settings_dir={base / 'user-settings'}",
                   f"--LabApp.workspaces_dir={base / 'workspaces'}", "--allow-root"]
        with open(base / "lab.log", "wb") as log:
            process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=log)
        lab = Lab(root, port, process)

        def up() -> bool:
            if process is not None and process.poll() is not None:
                raise RuntimeError("JupyterLab exited: " + (base / "lab.log").read_text()[-2000:])
            lab.api("/api/status")
            return True

        wait_for(up, what="JupyterLab to answer /api/status")
        yield lab
    finally:
        if process is not None:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=30)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module")
def lab() -> Iterator[Lab]:
    with running_lab() as server:
        yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@contextlib.contextmanager
def lab_page(browser: Any, lab: Lab, request: pytest.FixtureRequest,
             **options: Any) -> Iterator[Page]:
    """A fresh browser page (``options`` go to ``new_context``: viewport, touch); a screenshot
    in /tmp when the test fails; the lab's kernels stopped afterwards."""
    context = browser.new_context(**options)
    context.set_default_timeout(MS)
    tab = context.new_page()
    failed = request.session.testsfailed
    try:
        yield tab
    finally:
        if request.session.testsfailed > failed:
            with contextlib.suppress(Exception):
                tab.screenshot(path=f"/tmp/chesskit-{request.node.name}.png")
        context.close()
        with contextlib.suppress(OSError):
            lab.stop_kernels()


@pytest.fixture
def page(browser: Any, lab: Lab, request: pytest.FixtureRequest) -> Iterator[Page]:
    with lab_page(browser, lab, request, viewport={"width": 1200, "height": 1000}) as tab:
        yield tab


def open_and_run(lab: Lab, page: Page, name: str, *sources: str, boards: int = 1,
                 app: str = "lab") -> None:
    """Open a notebook (JupyterLab, or Notebook 7 with ``app="notebooks"``), wait for a
    connected idle kernel, Run All, wait for the boards."""
    lab.write(name, "import chesskit as ck\nck.set_language('en')", *sources)
    where = f"lab/workspaces/{Path(name).stem}/tree" if app == "lab" else "notebooks"
    page.goto(f"{lab.url}/{where}/{name}?token={TOKEN}")
    wait_for(lambda: lab.kernel_ready(name), what=f"the kernel of {name}")
    menu(page, "Run", "Run All Cells")
    page.locator(".ck-board").nth(boards - 1).wait_for()


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


def click(page: Page, square: str, *, board: int = 0, white: bool = True) -> None:
    cell(page, square, board=board).scroll_into_view_if_needed()
    page.mouse.click(*centre(page, square, board=board, white=white))


def cell(page: Page, square: str, *, board: int = 0) -> Any:
    return page.locator(".ck-board").nth(board).locator(f'[data-sq="{square}"]')


def message(page: Page, text: str) -> str:
    """Wait until the board's message contains ``text``; return the whole message."""
    page.wait_for_function("([t]) => [...document.querySelectorAll('.ck-msg')]"
                           ".some((m) => m.textContent.includes(t))", arg=[text])
    return str(page.locator(".ck-msg").first.inner_text())


def run_cell(page: Page, index: int) -> str:
    """Run code cell ``index`` again and return its text output."""
    target = page.locator(".jp-CodeCell").nth(index)
    target.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    output = target.locator(".jp-OutputArea-output")
    output.first.wait_for()
    page.wait_for_function(
        "([i]) => { const c = document.querySelectorAll('.jp-CodeCell')[i];"
        " return c && !c.querySelector('.jp-InputPrompt').textContent.includes('*'); }",
        arg=[index])
    return str(output.first.inner_text())


def saved_answers(path: Path, exercise_id: str) -> list[Any]:
    """Wait until the saved file holds a board answer for ``exercise_id``; return them all."""
    def found() -> list[Any]:
        answers = board_answers(json.loads(path.read_text()))
        return answers if any(a.exercise_id == exercise_id for a in answers) else []

    return list(wait_for(found, what=f"a saved board answer in {path.name}"))


def test_pick_shows_targets_and_move_reaches_kernel(lab: Lab, page: Page) -> None:
    open_and_run(lab, page, "move.ipynb", "b = ck.Board()\nb", "print(b.fen)")
    click(page, "g1")
    page.wait_for_selector('.ck-board [data-sq="f3"].ck-dot')
    assert "ck-dot" in (cell(page, "h3").get_attribute("class") or "")
    assert cell(page, "g1").get_attribute("aria-label") == "white knight on g1"
    click(page, "f3")
    page.wait_for_selector('.ck-board [data-sq="f3"] .ck-w')
    assert message(page, "White played").strip() == "White played Nf3."
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

def test_board_follows_the_screen_tablet_and_projector(lab: Lab, page: Page) -> None:
    """At least the size asked (or the whole cell when it is narrower: an iPad upright with the
    file browser open), up to 1.8 x that and the screen's height less 360 px; whole on an iPad (both
    ways) and a projector. Screenshots in /tmp for a look."""
    open_and_run(lab, page, "size.ipynb", "ck.Board()")
    for width, height in ((1024, 768), (768, 1024), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(
            "([h]) => { const w = document.querySelector('.ck-wrap');"
            " const b = w.getBoundingClientRect(), top = Math.max(400, Math.min(720, h - 360));"
            " const cell = w.closest('.jp-OutputArea-output').getBoundingClientRect().width;"
            " return b.width <= top + 1 && (b.width >= 400 || b.width >= cell - 1); }",
            arg=[height])
        box = page.locator(".ck-wrap").bounding_box()
        assert box is not None and box["x"] + box["width"] <= width
        assert abs(box["width"] - box["height"]) < 1, "square"
        page.screenshot(path=f"/tmp/chesskit-board-{width}x{height}.png")
    assert box["width"] > 700, "a projector shows a big board"


def test_keys_start_on_a_piece_to_move_and_arrows_leave_the_piece_visible(
        lab: Lab, page: Page) -> None:
    open_and_run(lab, page, "keys.ipynb",
                 "k = ck.Board('4k3/8/8/8/8/8/8/R3K3 b - - 0 1').draw('a1a8')\nk",
                 "print(k.fen)")
    keys = page.locator(".ck-keys")
    assert "Enter" in keys.inner_text() and keys.is_visible(), "said before any focus"
    line = page.locator(".ck-draw line").first
    assert 7.0 <= float(line.get_attribute("y1") or 0) < 7.2, "from a1's edge, not its centre"
    before = keys.bounding_box()
    page.locator(".ck-flip").focus()
    page.keyboard.press("Shift+Tab")  # the keyboard enters the board: on Black's king
    assert page.evaluate("document.activeElement.dataset.sq") == "e8"
    assert keys.bounding_box() == before, "nothing moves when the board takes the focus"
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_selector('.ck-board [data-sq="e7"] .ck-b')
    assert "8/4k3/8/8/8/8/8/R3K3 w" in run_cell(page, 2)
    # the learner's arrow (right-drag) from the white king: it starts at e1's edge
    page.mouse.move(*centre(page, "e1"))
    page.mouse.down(button="right")
    page.mouse.move(*centre(page, "e4"))
    page.mouse.up(button="right")
    page.wait_for_function("document.querySelectorAll('.ck-draw g').length === 2")
    y1 = float(page.locator(".ck-draw g").nth(1).locator("line").first.get_attribute("y1") or 0)
    assert 7.0 <= y1 < 7.2


def test_buttons_under_the_board_work_with_the_board_focused_or_not(
        lab: Lab, page: Page) -> None:
    """The keys' line never comes and goes: a click on a square (the board takes the focus)
    and then on Submit lands on Submit; so does a second one with the focus elsewhere."""
    open_and_run(lab, page, "focus.ipynb", "ck.Board('8/8/8/8/3R4/8/8/8', mode='mark')")
    click(page, "d7")
    page.wait_for_selector('.ck-board [data-sq="d7"].ck-marked')
    assert page.evaluate("document.activeElement.dataset.sq") == "d7"
    page.locator(".ck-submit").click()
    message(page, "Marked: d7.")
    page.evaluate("document.activeElement.blur()")
    click(page, "a4")
    page.locator(".ck-prompt, .ck-keys").last.click()  # the focus leaves the board
    page.locator(".ck-submit").click()
    message(page, "Marked: a4 and d7.")


def test_board_answer_saved_with_ctrl_s_and_graded(lab: Lab, page: Page) -> None:
    open_and_run(lab, page, "exercise.ipynb", "ck.exercise('12.01')")
    path = lab.root / "exercise.ipynb"
    page.wait_for_selector("text=your answer on the board is saved here")
    click(page, "b1")
    click(page, "h7")
    message(page, "Right")
    assert page.locator("text=your answer on the board: Qh7#").is_visible()
    page.wait_for_selector(".ck.ck-solved")
    assert page.locator(".ck-hint").is_hidden() and page.locator(".ck-solution").is_visible()
    focused = page.evaluate("document.activeElement.dataset.sq || ''")
    assert focused in ("b1", "h7"), "the focus is on a board square"
    page.keyboard.press("Control+s")
    answers = saved_answers(path, "12.01")
    assert answers == [BoardAnswer("12.01", "Qh7#", False)]
    assert exercise("12.01").check(answers[0].answer).correct
    assert "widgets" not in json.loads(path.read_text())["metadata"], "no setting needed"


def test_set_up_answer_placed_with_the_palette(lab: Lab, page: Page) -> None:
    open_and_run(lab, page, "setup.ipynb", "ck.exercise('02.02')")
    status = page.locator(".ck-status").inner_text()
    assert "Choose a piece" in status
    for square, piece in zip("abcdefgh", "RNBQKBNR", strict=True):
        square += "1"
        page.locator(f'.ck-palette [data-piece="{piece}"]').click()
        click(page, square)
        page.wait_for_selector(f'.ck-board [data-sq="{square}"] .ck-w')
    click(page, "e1")  # a click on a placed piece takes it away ...
    page.wait_for_function(
        "!document.querySelector('.ck-board [data-sq=\"e1\"] .ck-p')")
    page.locator('.ck-palette [data-piece="K"]').click()
    click(page, "e1")  # ... and the king goes back
    page.wait_for_selector('.ck-board [data-sq="e1"] .ck-w')
    assert page.locator('.ck-palette [data-piece="K"]').get_attribute("aria-label") == \
        "White king"
    page.locator(".ck-submit").click()
    message(page, "Right")
    page.keyboard.press("Control+s")
    answers = saved_answers(lab.root / "setup.ipynb", "02.02")
    assert exercise("02.02").check(answers[0].answer).correct


def test_pinned_piece_clicked_is_explained(lab: Lab, page: Page) -> None:
    open_and_run(lab, page, "pin.ipynb",
                 "b = ck.Board('2b1k3/pp6/2n5/1B6/3P4/8/5PPP/6K1 b - - 0 1')\nb",
                 "b.say('')\nprint('cleared')")
    click(page, "c6")
    first = message(page, "pinned")
    run_cell(page, 2)  # clear the message, so that the next one is surely new
    page.wait_for_selector(".ck-msg", state="hidden")
    click(page, "d4")
    assert message(page, "pinned") == first and "must wait" not in first


def test_game_end_announced_after_promotion_to_a_knight(lab: Lab, page: Page) -> None:
    open_and_run(lab, page, "draw.ipynb", "ck.Board('8/4P3/8/8/8/k7/8/4K3 w - - 0 1')")
    click(page, "e7")
    click(page, "e8")
    page.wait_for_selector(".ck-promo .ck-pick")
    names = page.locator(".ck-promo .ck-pick").evaluate_all(
        "(bs) => bs.map((b) => b.getAttribute('aria-label'))")
    assert names == ["Queen", "Rook", "Bishop", "Knight"]
    page.locator('.ck-promo [data-piece="n"]').click()
    assert "Draw" in message(page, "e8=N")
    click(page, "a3")
    assert "no legal move" not in message(page, "Draw")


def test_screen_reader_labels(lab: Lab, page: Page) -> None:
    open_and_run(lab, page, "labels.ipynb", "ck.Board()", "ck.board('7k/8/8/8/8/8/8/K7')")
    # the diagram of the second cell (the first cell's board also prints its saved picture)
    diagram = page.locator('.jp-OutputArea-output svg[role="img"]'
                           '[aria-label^="White: king a1."]').first
    diagram.wait_for()
    assert diagram.get_attribute("aria-label") == "White: king a1. Black: king h8. White to move."
    click(page, "g1")
    page.wait_for_selector('.ck-board [data-sq="f3"].ck-dot')
    assert cell(page, "f3").get_attribute("aria-label") == "f3, empty, you can move here"
    assert cell(page, "a3").get_attribute("aria-label") == "a3, empty"
    assert page.locator(".ck-sr").inner_text() == "white knight on g1 can go to f3, h3."
    click(page, "f3")
    message(page, "White played Nf3.")
    live = page.locator(".ck [aria-live]").evaluate_all(
        "(ns) => ns.map((n) => n.className.split(' ')[0] + ': ' + n.textContent)")
    assert live == ["ck-msg: White played Nf3.", "ck-sr: "]


def test_board_answer_saved_in_notebook_7(lab: Lab, page: Page) -> None:
    open_and_run(lab, page, "nb7.ipynb", "ck.exercise('04.10')", app="notebooks")
    click(page, "b4", white=False)
    click(page, "c3", white=False)
    message(page, "Right")  # the answer's output is updated before the feedback shows
    assert page.locator("text=your answer on the board: bxc3").is_visible()
    page.keyboard.press("Control+s")
    assert saved_answers(lab.root / "nb7.ipynb", "04.10") == [
        BoardAnswer("04.10", "bxc3", False)]


def test_fools_mate_two_players(lab: Lab, page: Page) -> None:
    open_and_run(lab, page, "game.ipynb", "g = ck.play()\ng", "print(g.result, g.reason)")
    for source, target in (("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")):
        click(page, source)
        click(page, target)
        page.wait_for_selector(f'.ck-board [data-sq="{target}"] .ck-p')
    page.wait_for_function("document.querySelector('.ck-moves').textContent.includes('Qh4#')")
    assert "Checkmate! Black wins." in message(page, "Checkmate")
    assert "0-1 checkmate" in run_cell(page, 2)


def test_drill_over_par_offers_try_again(lab: Lab, page: Page) -> None:
    open_and_run(lab, page, "drill.ipynb", "ck.exercise('02.42')")
    assert page.locator(".ck-back").is_hidden(), "a drill is not stepped through"
    for source, target in (("c1", "d2"), ("d2", "e3"), ("e3", "h6"), ("h6", "f8")):
        click(page, source)
        click(page, target)
        page.wait_for_selector(f'.ck-board [data-sq="{target}"] .ck-w')
    assert "it can be done in 3" in message(page, "You used 4 moves")
    page.locator(".ck-again").wait_for()
    assert page.locator(".ck-back").is_hidden() and page.locator(".ck-takeback").is_hidden()
    click(page, "f8")  # the piece does not silently stop moving: the board says what to do
    assert "Try again" in message(page, "This try is over")
    page.locator(".ck-again").click()
    message(page, "back at the start")
    page.wait_for_selector('.ck-board [data-sq="c1"] .ck-w')
    assert page.locator(".ck-again").is_hidden()
    for source, target in (("c1", "e3"), ("e3", "h6"), ("h6", "f8")):
        click(page, source)
        click(page, target)
        page.wait_for_selector(f'.ck-board [data-sq="{target}"] .ck-w')
    assert "3 moves" in message(page, "Right")


def test_a_board_without_its_kernel_says_so_and_a_reopened_one_shows_its_picture(
        lab: Lab, page: Page) -> None:
    open_and_run(lab, page, "dead.ipynb", "ck.Board()")
    assert page.locator(".ck-static").is_hidden(), "the live board hides its saved picture"
    kernel = next(s["kernel"]["id"] for s in lab.api("/api/sessions")
                  if s["path"] == "dead.ipynb")
    lab.api(f"/api/kernels/{kernel}/restart", method="POST")
    wait_for(lambda: lab.kernel_ready("dead.ipynb"), what="the restarted kernel")
    click(page, "g1")
    click(page, "f3")
    dead = page.locator(".ck-dead")
    dead.wait_for()
    assert dead.inner_text() == ("This board is not connected to Python any more. "
                                 "Run this cell again to use the board.")
    menu(page, "File", "Save Notebook")
    wait_for(lambda: "ck-static" in (lab.root / "dead.ipynb").read_text(), what="the save")
    page.reload()
    picture = page.locator(".ck-static").first
    picture.wait_for()
    assert picture.locator('svg[role="img"]').is_visible()
    assert picture.locator(".ck-run").inner_text() == "Run this cell to use the board."
