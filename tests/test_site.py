"""The browser course (``chesskit site``): built, served on 127.0.0.1, used offline in Chromium.

One learner's path: play a move on a lesson's board, answer in the exercise notebook of the
same file name (opened from the lesson's link), reload the page, see the answer counted in the
restored lesson, download the exercise notebook and grade it.  Every request to a host other
than 127.0.0.1 is aborted and recorded; the test fails if there was any.  The site is built
once per set of inputs into ``.cache/site/build-<hash>`` (a fresh clone builds it; the
registries are needed only for that).  Waits are event-driven with long limits: the first
Pyodide start can take a minute on a loaded 2-core machine.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import chess
import pytest
from _laptop import SITE_START_MS

from chesskit.course.site import build
from chesskit.i18n import color_name, t

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
START_LIMIT = SITE_START_MS
pytestmark = [pytest.mark.browser, pytest.mark.slow]

pytest.importorskip("playwright.sync_api", reason="needs playwright for Python")
from playwright.sync_api import BrowserContext, Page, sync_playwright  # noqa: E402


def test_site_notebook_is_trusted_and_keeps_progress() -> None:
    lesson = {"cells": [{"cell_type": "code", "source": ["ck.board(", "'start')"],
                         "metadata": {}, "outputs": [{"output_type": "stream", "name": "stdout",
                                                      "text": ["a", "b"]}],
                         "execution_count": 1}]}
    served = json.loads(build.site_notebook(json.dumps(lesson)))
    first, code = served["cells"]
    assert "keep_progress()" in first["source"] and first["metadata"]["tags"] == ["setup"]
    assert code["source"] == "ck.board('start')" and code["metadata"]["trusted"] is True
    assert code["outputs"][0]["text"] == "ab"


def test_saved_boards_share_their_pieces_squares_and_coordinates() -> None:
    from xml.etree import ElementTree  # noqa: PLC0415 (only this test parses SVG)

    from chesskit.drawing.diagram import board  # noqa: PLC0415

    boards = [board("start", marks={"cross": ["e5"]}, arrows=["e2e4"]),
              board("4k3/8/8/8/8/8/8/4K2R b - - 0 1", check=True, orientation=chess.BLACK)]
    lesson = {"cells": [{"cell_type": "code", "source": "b", "metadata": {},
                         "execution_count": 1, "outputs": [
                             {"output_type": "display_data", "metadata": {},
                              "data": {"text/html": f'<div class="ck-static">{svg}</div>'}}
                             for svg in boards]}]}
    pieces: dict[str, str] = {}
    served = json.loads(build.site_notebook(json.dumps(lesson), pieces))
    outputs = [o["data"]["text/html"] for o in served["cells"][1]["outputs"]]
    shared = ElementTree.fromstring(build.pieces_svg(pieces))
    ids = {element.get("id") for element in shared.iter()} - {None}
    for html_text, original in zip(outputs, boards, strict=True):
        svg = ElementTree.fromstring(html_text.removeprefix('<div class="ck-static">')
                                     .removesuffix("</div>"))
        hrefs = [use.get("href") for use in svg.iter("{http://www.w3.org/2000/svg}use")]
        assert hrefs and all(h.partition("#")[0] == build.PIECES_HREF for h in hrefs)
        assert {h.partition("#")[2] for h in hrefs} <= ids
        assert 'id="ck-' not in html_text and len(html_text) < len(original) / 2
    assert "check_gradient" in outputs[1] and {"ck-K", "ck-k", "ck-R", "ck-x"} <= ids


def test_lock_lists_what_the_browser_needs_and_nothing_it_cannot_run() -> None:
    assert build.browser_requirements(
        "Requires-Dist: pexpect>4.3; sys_platform != 'emscripten'\n"
        "Requires-Dist: colorama; sys_platform == 'win32'\nRequires-Dist: traitlets>=5\n"
        "Requires-Dist: pytest; extra == 'test'\n") == ["traitlets"]
    config = build.lite_config(["chesskit", "chess"])
    kernel = config["jupyter-config-data"]["litePluginSettings"][build.KERNEL_PLUGIN]  # type: ignore[index]
    assert kernel["disablePyPIFallback"] is True
    assert kernel["loadPyodideOptions"]["env"]["CHESSKIT_DATA_DIR"] == build.DATA_DIR


def test_sessions_are_found_by_path_in_the_built_app(tmp_path: Path) -> None:
    (tmp_path / "build").mkdir()
    app = tmp_path / "build" / "app.js"
    app.write_text("let{path:p,name:n}=o,s=this._sessions.find(x=>x.name===n);", encoding="utf-8")
    build.correct_sessions(tmp_path)
    assert "this._sessions.find(x=>x.path===p)" in app.read_text(encoding="utf-8")
    with pytest.raises(build.SiteError, match="found 0 times"):
        build.correct_sessions(tmp_path)  # already corrected, or JupyterLite changed


@pytest.fixture(scope="module")
def site() -> Path:
    try:
        return build.cached_site()
    except build.SiteError as error:
        if not build.registries_reachable():
            pytest.skip(f"the package registries (PyPI, npm) cannot be reached to build the "
                        f"site once: {str(error).splitlines()[0]}")
        raise


@pytest.fixture(scope="module")
def base_url(site: Path) -> Iterator[str]:
    with build.serve(site) as url:
        yield url


def test_site_is_under_its_size_budget(site: Path) -> None:
    assert build.site_size(site) < 60e6  # bytes; was 86.5 MB before the shared pieces
    assert (site / build.PIECES_FILE).exists() and not build.font_fallbacks(site / "build")


def test_what_the_first_board_imports_is_compiled(site: Path) -> None:
    """The standard library modules the kernel and lesson 0 import come as bytecode (Pyodide
    ships them as source: the browser compiled them at every start); the SOURCELESS wheels
    carry bytecode only, the others bytecode beside their source."""
    import zipfile  # noqa: PLC0415 (only this test reads the archives)

    runtime = site / "static" / "pyodide"
    stdlib = zipfile.ZipFile(runtime / build.STDLIB_ZIP).namelist()
    assert {"argparse.pyc", "email/message.pyc", "asyncio/__init__.pyc"} <= set(stdlib)
    assert "argparse.py" not in stdlib and "tkinter/__init__.pyc" not in stdlib
    for wheel in runtime.glob("*.whl"):
        names = zipfile.ZipFile(wheel).namelist()
        sources = [n for n in names if n.endswith(".py")]
        if wheel.name.split("-")[0].lower() in build.SOURCELESS:
            assert not sources and any(n.endswith(".pyc") for n in names), wheel.name
        elif sources:
            assert any("__pycache__/" in n for n in names), wheel.name


@pytest.fixture()
def offline(tmp_path: Path) -> Iterator[tuple[BrowserContext, list[str]]]:
    """A Chromium context where every request to another host is aborted (and listed)."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail("needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)")
    elsewhere: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900},
                                      accept_downloads=True)
        context.set_default_timeout(START_LIMIT)

        def route(route: Any) -> None:
            if urlparse(route.request.url).hostname != "127.0.0.1":
                elsewhere.append(route.request.url)
                route.abort()
            else:
                route.continue_()

        context.route("**/*", route)
        try:
            yield context, elsewhere
        finally:
            browser.close()


LESSON, EXERCISES = "lessons/en/00-start-here.ipynb", "exercises/en/00-start-here-exercises.ipynb"


def tab(page: Page, path: str, *, current: bool = False) -> Any:
    """The tab of the notebook at ``path`` (its tooltip names the path: lessons and exercises
    share file names)."""
    state = ".jp-mod-current" if current else ""
    return page.locator(f'.lm-DockPanel-tabBar .lm-TabBar-tab{state}[title*="Path: {path}"]')


def open_notebook(page: Page, base_url: str, path: str) -> None:
    """Load JupyterLite with ``path`` open (and the tabs it restores); wait for its kernel."""
    page.goto(f"{base_url}/lab/index.html?path={path}")
    bring_forward(page, path)
    kernel_idle(page)


def bring_forward(page: Page, path: str) -> None:
    """Wait for the tab of ``path`` and make it the current one, as a learner would by tapping it
    (a tab the workspace restores may come to the front after the one the address names: on a
    loaded machine it does, once in a while)."""
    tab(page, path).click()
    tab(page, path, current=True).wait_for()


def kernel_idle(page: Page) -> None:
    """The current notebook's kernel has started and is idle (the status bar says so)."""
    page.get_by_text("Python (Pyodide) | Idle").first.wait_for()


def menu(page: Page, top: str, item: str) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text=top).first.click()
    page.locator(".lm-Menu-itemLabel", has_text=item).first.click()


def run_all(page: Page) -> None:
    menu(page, "Run", "Run All Cells")


def save(page: Page) -> None:
    """Save the current notebook and wait until its tab is no longer marked as changed."""
    menu(page, "File", "Save Notebook")
    page.locator(".lm-TabBar-tab.jp-mod-current:not(.jp-mod-dirty)").first.wait_for()


def wait_done(page: Page) -> None:
    """Every code cell of the current notebook has run (no pending ``[*]`` prompt)."""
    page.wait_for_function(
        "() => { const p = [...document.querySelectorAll("
        "'.jp-NotebookPanel:not(.lm-mod-hidden) .jp-InputPrompt')].map(e => e.textContent);"
        " return p.length && !p.some(t => t.includes('*')) && p.some(t => /\\d/.test(t)); }",
        polling=500)


def shown(page: Page, selector: str) -> Any:
    """``selector`` inside the notebook on show."""
    return page.locator(f".jp-NotebookPanel:not(.lm-mod-hidden) {selector}")


def set_cell(page: Page, code_index: int, source: str) -> Any:
    """Replace the text of code cell ``code_index`` and run it; returns the cell."""
    target = shown(page, ".jp-CodeCell").nth(code_index)
    target.scroll_into_view_if_needed()
    target.locator(".cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(source)
    page.keyboard.press("Shift+Enter")
    return target


def side_to_move(color: chess.Color) -> str:
    return t("core.side_to_move", lang="en", side=color_name(color, lang="en"))


def test_notebooks_open_unchanged_with_their_boards_and_tasks_shown(
        base_url: str, offline: tuple[BrowserContext, list[str]], tmp_path: Path) -> None:
    """A lesson and its exercise notebook show their saved boards (SVG) and tasks before
    anything runs, in tabs named apart, and opening them does not mark them as changed."""
    context, _ = offline
    page = context.new_page()
    try:
        for path, text in ((LESSON, "Lesson 0"), (EXERCISES, "00.01")):
            open_notebook(page, base_url, path)
            shown(page, ".jp-OutputArea-output svg").first.wait_for()
            shown(page, ".jp-Cell").filter(has_text=text).first.wait_for()
            page.wait_for_timeout(2000)  # JupyterLab writes kernel metadata just after idle
            assert tab(page, path, current=True).locator(".lm-TabBar-tabLabel").inner_text() \
                == path.rsplit("/", 1)[1]
            dirty = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.jp-mod-dirty")
            assert dirty.count() == 0, f"{path} shows as changed right after opening"
    finally:
        page.screenshot(path=str(tmp_path / "last-screen.png"))  # kept by pytest for a look


def test_course_runs_offline_keeps_progress_and_a_notebook_is_handed_in(
        base_url: str, offline: tuple[BrowserContext, list[str]], tmp_path: Path) -> None:
    context, elsewhere = offline
    page = context.new_page()
    try:
        _play_a_move_in_the_lesson(page, base_url)
        _answer_an_exercise(page)
        _progress_is_kept_after_a_reload(page)
        _hand_in_and_grade(page, tmp_path)
    finally:
        page.screenshot(path=str(tmp_path / "last-screen.png"))  # kept by pytest for a look
    assert elsewhere == [], f"the site asked another host: {elsewhere[:5]}"


def _play_a_move_in_the_lesson(page: Page, base_url: str) -> None:
    open_notebook(page, base_url, LESSON)
    run_all(page)
    wait_done(page)
    # code cells: 0 keeps progress, 1 sets up, 2 draws a picture, 3 is a board to play on
    board = shown(page, ".jp-CodeCell").nth(3).locator(".ck")
    board.locator(".ck-status", has_text=side_to_move(chess.WHITE)).wait_for()
    for square in ("e2", "e4"):  # click the pawn, then its square
        board.locator(f'[data-sq="{square}"]').click()
    board.locator(".ck-status", has_text=side_to_move(chess.BLACK)).wait_for()  # the kernel moved
    save(page)


def _answer_an_exercise(page: Page) -> None:
    """The lesson's link opens its exercise notebook beside it, in a tab of its own name."""
    shown(page, 'a[href*="exercises/en/00-start-here-exercises.ipynb"]').first.click()
    tab(page, EXERCISES, current=True).wait_for()
    kernel_idle(page)
    run_all(page)
    wait_done(page)
    # code cells: 0 keeps progress, 1 sets up, 2 shows exercise 00.01, 3 answers it
    set_cell(page, 3, 'ck.answer("00.01", "e4")').locator(".jp-OutputArea-output").first.wait_for()
    wait_done(page)
    save(page)


def _progress_is_kept_after_a_reload(page: Page) -> None:
    """After a reload the restored lesson, with a kernel of its own, counts the answer."""
    page.reload()
    bring_forward(page, LESSON)
    kernel_idle(page)
    run_all(page)
    wait_done(page)
    shown(page, ".jp-OutputArea-output").filter(has_text="after 1 exercise").first.wait_for()


def _hand_in_and_grade(page: Page, tmp_path: Path) -> None:
    bring_forward(page, EXERCISES)
    page.locator(".lm-MenuBar-itemLabel", has_text="File").first.click()
    with page.expect_download() as download:
        page.locator(".lm-Menu-itemLabel", has_text="Download").first.click()
    handed_in = tmp_path / "class" / "ada" / download.value.suggested_filename  # as downloaded
    handed_in.parent.mkdir(parents=True)
    download.value.save_as(handed_in)

    graded = subprocess.run([sys.executable, "-m", "chesskit", "grade",
                             str(tmp_path / "class"), "--out", str(tmp_path / "grades")],
                            capture_output=True, text=True)
    assert graded.returncode == 0, graded.stderr
    with (tmp_path / "grades" / "grades.csv").open(encoding="utf-8-sig") as table:
        (ada,) = csv.DictReader(table)
    assert ada["student"] == "ada" and ada["00.01"] == "1"  # the answer given in the browser


def test_a_patch_of_the_built_site_that_no_longer_matches_stops_the_build(tmp_path: Path) -> None:
    """EARLY_PATCHES change JupyterLite's built code by exact text: a text found no time or
    twice (JupyterLite upgraded) is a SiteError, and no file is changed."""
    page = tmp_path / "lab" / "index.html"
    page.parent.mkdir()
    page.write_text("<head><link id=main></head>", encoding="utf-8")
    found = ("lab/index.html", "<head>", "<head><script>early()</script>")
    for missing in (("lab/*.html", "<link id=gone>", ""), ("lab/*.html", "</", "[")):
        with pytest.raises(build.SiteError, match=r"found its text [02] times instead of once"):
            build.patch_site(tmp_path, [found, missing])
        assert page.read_text(encoding="utf-8") == "<head><link id=main></head>"
    assert build.patch_site(tmp_path, [found]) == [page]
    assert page.read_text(encoding="utf-8") == "<head><script>early()</script><link id=main></head>"
    with pytest.raises(build.SiteError, match="0 files"):
        build.early_kernel(tmp_path)  # not a built site (no kernel worker)


def test_the_notebook_kernel_runs_in_the_worker_started_before_jupyterlab(
        site: Path, base_url: str, offline: tuple[BrowserContext, list[str]]) -> None:
    """lab/index.html starts the kernel's worker (Pyodide, the wheels, IPython) before
    JupyterLab loads; the notebook's kernel is that worker (no second one), and it runs the
    lesson: its board answers a move."""
    assert "chesskit-early-kernel" in (site / "lab" / "index.html").read_text(encoding="utf-8")
    context, elsewhere = offline
    page = context.new_page()
    workers: list[str] = []
    page.on("worker", lambda worker: workers.append(worker.url))
    open_notebook(page, base_url, LESSON)
    kernel_id, waiting = page.evaluate("() => [self.ckEarlyKernelId, self.ckEarlyWorker]")
    assert kernel_id and waiting is None  # taken by a kernel
    run_all(page)
    wait_done(page)
    board = shown(page, ".jp-CodeCell").nth(3).locator(".ck")
    board.locator(".ck-status", has_text=side_to_move(chess.WHITE)).wait_for()
    for square in ("e2", "e4"):
        board.locator(f'[data-sq="{square}"]').click()
    board.locator(".ck-status", has_text=side_to_move(chess.BLACK)).wait_for()
    # code cell 2 draws a picture: ask it which kernel took the early worker
    set_cell(page, 2, "import js\nprint('early kernel', js.ckEarlyKernelId)").locator(
        ".jp-OutputArea-output", has_text=f"early kernel {kernel_id}").wait_for()
    assert [url for url in workers if "comlink.worker" in url] == [workers[0]], workers
    assert elsewhere == []
