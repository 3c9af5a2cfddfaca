"""The board on a tablet (issue 22): an emulated iPad (touch, 1024x768 and 768x1024, scale 2)
in JupyterLab. A child taps a piece and then its square, drags a piece with a finger, and
reaches every button under the board with a finger: at least 44 px each way, none overlapping,
the board whole inside the screen and its cell. The typed-answer box is sent with OK (Play is
for a move); the keys' line (Tab, arrows) is not shown where there is no keyboard pointer.
Upright (768 px), the first board on the page closes JupyterLab's file browser, once; every
lesson's first board and a board of every kind fit, in English and Traditional Chinese.

The JupyterLab server, Chromium and the helpers are those of ``tests/test_browser.py``; every
wait is event-driven with a generous limit. Screenshots go to /tmp/chesskit-tablet-*.png.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import nbformat
import pytest
import test_browser
from playwright.sync_api import Page, ViewportSize
from test_browser import Lab, centre, lab_page, open_and_run

from chesskit.exercises.catalog import bank
from chesskit.exercises.protocol import KindName

pytestmark = pytest.mark.browser
browser, lab = test_browser.browser, test_browser.lab
"""The fixtures of tests/test_browser.py: pytest finds them under these names."""

ROOT = Path(__file__).resolve().parents[1]
IPAD: ViewportSize = {"width": 1024, "height": 768}
UPRIGHT: ViewportSize = {"width": 768, "height": 1024}
FINGER = 44
"""Pixels: the smallest button a child's finger hits reliably (Apple's guideline)."""

LAYOUT = """() => {
  const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const out = [];
  for (const ck of [...document.querySelectorAll('.ck')].filter(shown)) {
    const board = ck.querySelector('.ck-wrap').getBoundingClientRect();
    const area = ck.closest('.jp-OutputArea-output');
    if (board.right > innerWidth + 1) out.push('board past the screen');
    if (board.right > area.getBoundingClientRect().right + 1) out.push('board past its cell');
    if (area.scrollWidth > area.clientWidth + 1) out.push('the cell scrolls sideways');
    const buttons = [...ck.querySelectorAll('button')].filter(shown);
    const boxes = buttons.map((b) => b.getBoundingClientRect());
    buttons.forEach((b, i) => {
      const r = boxes[i], name = b.textContent.trim();
      if (r.height < FINGER || r.width < FINGER) out.push(`${name}: ${r.width}x${r.height}`);
      if (b.scrollWidth > b.clientWidth + 1) out.push(`${name}: text cut`);
      boxes.slice(i + 1).forEach((o, j) => {
        if (r.left < o.right - 1 && o.left < r.right - 1 && r.top < o.bottom - 1
            && o.top < r.bottom - 1) out.push(`${name} overlaps ${buttons[i + 1 + j].textContent}`);
      });
    });
    const keys = ck.querySelector('.ck-keys');
    if (keys && shown(keys)) out.push('the keys line on a tablet');
  }
  return out;
}""".replace("FINGER", str(FINGER))


@pytest.fixture
def tablet(browser: Any, lab: Lab, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A page on an emulated iPad held sideways (touch, scale 2)."""
    with lab_page(browser, lab, request, viewport=IPAD, has_touch=True, is_mobile=True,
                  device_scale_factor=2) as tab:
        yield tab


def whole(page: Page, board: int) -> None:
    """Scroll board number ``board`` to the middle of the notebook: all of it in sight (a board
    only partly in sight would put a square under the tab bar, and a finger on the tab bar)."""
    page.locator(".ck-wrap").nth(board).evaluate("(e) => e.scrollIntoView({block: 'center'})")
    page.wait_for_function(
        "([i]) => { const r = document.querySelectorAll('.ck-wrap')[i].getBoundingClientRect();"
        " const top = document.querySelector('.jp-NotebookPanel-toolbar').getBoundingClientRect();"
        " return r.top >= top.bottom && r.bottom <= innerHeight; }", arg=[board])


def tap(page: Page, square: str, *, board: int = 0) -> None:
    whole(page, board)
    page.touchscreen.tap(*centre(page, square, board=board))


def drag(page: Page, source: str, target: str, *, board: int = 0) -> None:
    """A finger down on ``source``, moved in steps, lifted on ``target`` (real touch events)."""
    whole(page, board)
    (x1, y1), (x2, y2) = centre(page, source, board=board), centre(page, target, board=board)
    touch = page.context.new_cdp_session(page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart",
                                            "touchPoints": [{"x": x1, "y": y1}]})
    for step in range(1, 9):
        x, y = x1 + (x2 - x1) * step / 8, y1 + (y2 - y1) * step / 8
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove",
                                                "touchPoints": [{"x": x, "y": y}]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    touch.detach()


def said(page: Page, text: str, *, board: int = 0) -> str:
    page.wait_for_function(
        "([i, t]) => { const m = document.querySelectorAll('.ck')[i]?.querySelector('.ck-msg');"
        " return !!m && !m.hidden && m.textContent.includes(t); }", arg=[board, text])
    return str(page.locator(".ck").nth(board).locator(".ck-msg").inner_text()).strip()


def test_every_button_fits_a_finger_both_ways_round(lab: Lab, tablet: Page) -> None:
    """A set-up (palette, answer box), a choice (option buttons), a count (number pad), a free
    board (Take back greyed until a move) and a notation task whose arrow is the question (no
    "Clear arrows" to tap it away): each button 44 px or more, apart, the boards whole."""
    open_and_run(lab, tablet, "fingers.ipynb", "ck.exercise('02.01')", "ck.exercise('00.07')",
                 "ck.exercise('02.10')", "ck.Board()", "ck.exercise('09.01')", boards=5)
    free = tablet.locator(".ck").nth(3)
    assert free.locator(".ck-takeback").is_disabled(), "nothing to take back yet"
    tap(tablet, "e2", board=3)
    tap(tablet, "e4", board=3)
    said(tablet, "White played e4.", board=3)
    assert free.locator(".ck-takeback").is_enabled()
    task = tablet.locator(".ck").nth(4)
    assert task.locator(".ck-draw line").count() and task.locator(".ck-clear").is_hidden()
    for screen in (IPAD, UPRIGHT):
        tablet.set_viewport_size(screen)
        tablet.wait_for_function("([w]) => innerWidth === w", arg=[screen["width"]])
        assert tablet.evaluate(LAYOUT) == [], screen
        tablet.screenshot(path=f"/tmp/chesskit-tablet-{screen['width']}x{screen['height']}.png")
    assert tablet.locator(".ck-play").nth(0).inner_text() == "OK", "an answer is sent with OK"
    assert tablet.locator(".ck-play").nth(3).inner_text() == "Play", "a move is played"


def test_tap_a_piece_then_its_square_and_drag_with_a_finger(lab: Lab, tablet: Page) -> None:
    """Tap, tap on an exercise; a finger drags the knight of lesson 3's "Try the knight and the
    king" (too few pieces to mate, yet a board to move on)."""
    open_and_run(lab, tablet, "touch.ipynb", "ck.exercise('12.01')",
                 "ck.Board('4k3/8/8/8/4N3/8/8/4K3 w - - 0 1')", boards=2)
    tap(tablet, "b1")
    tablet.wait_for_selector('.ck-board [data-sq="h7"].ck-cap, .ck-board [data-sq="h7"].ck-dot')
    tap(tablet, "h7")
    assert said(tablet, "Right").startswith("Right")
    assert tablet.locator(".ck").nth(1).locator(".ck-msg").is_hidden(), "no draw announced"
    drag(tablet, "e4", "f6", board=1)
    assert said(tablet, "White played", board=1).startswith("White played Nf6+.")
    tablet.locator(".ck-board").nth(1).locator('[data-sq="f6"] .ck-w').wait_for()



SIDEBAR_OPEN = ("() => { const s = document.getElementById('jp-left-stack');"
                " return !!s && !s.classList.contains('lm-mod-hidden') && s.offsetWidth > 0; }")
"""The left sidebar (the file browser) is open and takes room beside the notebook."""
FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""Two frames: time for a board just drawn to do what it does at its first frame."""


def test_upright_the_first_board_closes_the_file_browser_once(lab: Lab, tablet: Page) -> None:
    """An iPad upright (768 px): the file browser takes half of the notebook's width; the first
    board on the page closes it, once: opened again by the child, it stays open while more
    boards come."""
    tablet.set_viewport_size(UPRIGHT)
    name = "upright.ipynb"
    lab.write(name, "import chesskit as ck\nck.set_language('en')", "ck.Board()",
              "ck.Board('4k3/8/8/8/8/8/8/4K3 w - - 0 1')")
    tablet.goto(f"{lab.url}/lab/workspaces/upright/tree/{name}?token={test_browser.TOKEN}")
    test_browser.wait_for(lambda: lab.kernel_ready(name), what=f"the kernel of {name}")
    tablet.wait_for_function(SIDEBAR_OPEN)
    before = tablet.locator(".jp-NotebookPanel").first.bounding_box()
    tablet.screenshot(path="/tmp/chesskit-tablet-upright-before.png")
    test_browser.menu(tablet, "Run", "Run All Cells")
    tablet.locator(".ck-board").nth(1).wait_for()
    tablet.wait_for_function(f"() => !({SIDEBAR_OPEN})()")
    after = tablet.locator(".jp-NotebookPanel").first.bounding_box()
    assert before is not None and after is not None and after["width"] > before["width"] + 200
    assert tablet.evaluate(LAYOUT) == []
    tablet.screenshot(path="/tmp/chesskit-tablet-upright.png")
    tablet.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab").first.click()  # the child
    tablet.wait_for_function(SIDEBAR_OPEN)
    old = tablet.locator(".ck").nth(1).element_handle()
    tablet.locator(".jp-CodeCell").nth(2).locator(".jp-InputArea-editor").click()
    tablet.keyboard.press("Shift+Enter")  # the cell again: a new board on the page
    tablet.wait_for_function("(old) => !old.isConnected && document.querySelectorAll("
                             "'.ck-board').length === 2", arg=old)
    tablet.evaluate(FRAMES)
    assert tablet.evaluate(SIDEBAR_OPEN), "the file browser the child opened stays open"


FITS = """async (first) => {
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const sideways = (e) => e.scrollWidth > e.clientWidth + 1;
  const out = [];
  for (const cell of [...document.querySelectorAll('.jp-CodeCell')].slice(first)) {
    const name = cell.querySelector('.jp-InputArea-editor').textContent.trim().slice(0, 50);
    const board = [...cell.querySelectorAll('.ck-wrap')].find(shown)
      || [...cell.querySelectorAll('.jp-OutputArea-output svg[role="img"]')].find(shown);
    if (!board) { out.push(`${name}: no board`); continue; }
    board.scrollIntoView({block: 'center'});
    await frame();
    await frame();
    const r = board.getBoundingClientRect();
    if (r.left < 0 || r.right > innerWidth + 1) out.push(`${name}: board past the screen`);
    if (r.top < 0 || r.bottom > innerHeight + 1) out.push(`${name}: board taller than the screen`);
    const areas = [...cell.querySelectorAll('.jp-OutputArea-output')].filter(shown);
    if (areas.some(sideways)) out.push(`${name}: the cell scrolls sideways`);
    if (sideways(cell.closest('.jp-WindowedPanel-outer'))) out.push(`${name}: notebook sideways`);
    if (sideways(document.scrollingElement)) out.push(`${name}: the page scrolls sideways`);
  }
  return out;
}"""
"""What does not fit, cell by cell (from code cell ``first``), each board scrolled into sight:
a board (live, else the diagram) past the screen's sides or taller than it, or anything that
scrolls sideways (the cell's outputs, the notebook, the page)."""


def first_boards() -> list[str]:
    """The code of every lesson's first board: its first live board (the built notebook saved
    its picture), else its first diagram."""
    sources = []
    for path in sorted((ROOT / "lessons" / "en").glob("[0-9][0-9]-*.ipynb")):
        cells = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
        live = [c for c in cells if "ck-static" in json.dumps(c.get("outputs", []))]
        diagrams = [c for c in cells if c.source.startswith("ck.board(")]
        sources.append((live or diagrams)[0].source)
    return sources


def kinds() -> dict[tuple[str, str], str]:
    """The first exercise of every kind and every way it takes its answer on the board."""
    first: dict[tuple[str, str], str] = {}
    for ex in bank():
        first.setdefault((ex.kind, str(ex.board_input())), ex.id)
    return first


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_every_kind_and_every_lessons_first_board_fit_upright(
        lab: Lab, tablet: Page, lang: str) -> None:
    """An iPad upright (768 x 1024), the file browser closed by the first board and then opened
    again by the child: every lesson's first board and a board of every kind of exercise fit,
    nothing scrolls sideways, every button fits a finger."""
    lessons, first = first_boards(), kinds()
    assert len(lessons) == len(list((ROOT / "lessons" / "src").glob("[0-9][0-9]-*.md")))
    assert {kind for kind, _ in first} == set(get_args(KindName))
    tasks = [f"ck.exercise({i!r})" for i in first.values()]
    tablet.set_viewport_size(UPRIGHT)
    name = f"fit-{lang}.ipynb"
    open_and_run(lab, tablet, name, f"import chess\nck.set_language({lang!r})", *lessons, *tasks,
                 boards=sum("ck.board(" not in s for s in lessons) + len(tasks))
    tablet.wait_for_function(f"() => !({SIDEBAR_OPEN})()")
    tablet.wait_for_function("() => ![...document.querySelectorAll('.jp-InputPrompt')]"
                             ".some((p) => p.textContent.includes('*'))")
    assert tablet.evaluate(FITS, 2) == [], "the file browser closed"
    tablet.screenshot(path=f"/tmp/chesskit-tablet-fit-{lang}.png")
    assert tablet.evaluate(LAYOUT) == []
    tablet.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab").first.click()
    tablet.wait_for_function(SIDEBAR_OPEN)
    assert tablet.evaluate(FITS, 2) == [], "the file browser open"
    assert tablet.evaluate(LAYOUT) == []


@pytest.mark.parametrize("lesson", ["10-two-rooks-mate", "11-queen-mate"])
def test_your_turn_of_the_mate_lessons_has_the_computer_move_the_king(
        lab: Lab, tablet: Page, lesson: str) -> None:
    """Lessons 10 and 11's "Your turn" (the lesson's first live board): the child taps a white
    move, the computer answers with the black king; nobody has to move both sides."""
    code = first_boards()[int(lesson[:2])]
    assert code.startswith('ck.play(opponent="computer"'), code
    open_and_run(lab, tablet, f"{lesson}.ipynb", code)
    said(tablet, "You play White.")
    piece, target, san = {"10": ("a1", "a4", "Ra4"), "11": ("d1", "d3", "Qd3")}[lesson[:2]]
    tap(tablet, piece)
    tap(tablet, target)
    assert said(tablet, "Black played K").startswith("Black played K")
    moves = tablet.locator(".ck-moves").inner_text().split()
    assert moves[:2] == ["1.", san] and moves[2].startswith("K"), moves
