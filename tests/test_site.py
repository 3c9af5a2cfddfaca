"""The browser course (``chesskit site``): built, served on 127.0.0.1, used offline in Chromium.

Every request to a host other than 127.0.0.1 is aborted and recorded; the test fails if there
was any.  The site is built once per set of inputs into ``.cache/site/build-<hash>`` (a fresh
clone builds it; the registries are needed only for that).  Waits are event-driven with long
limits: the first Pyodide start can take a minute on a loaded 2-core machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from chesskit.course.site import build

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
# ms: a cold Pyodide start on a busy machine; CHESSKIT_SITE_WAIT_MS changes it
START_LIMIT = int(os.environ.get("CHESSKIT_SITE_WAIT_MS", 300_000))
pytestmark = [pytest.mark.browser, pytest.mark.slow]

pytest.importorskip("playwright.sync_api", reason="needs playwright for Python")
from playwright.sync_api import BrowserContext, Page, sync_playwright  # noqa: E402


def test_site_notebook_is_trusted_and_keeps_progress() -> None:
    lesson = {"cells": [{"cell_type": "code", "source": ["ck.board(", "'start')"],
                         "metadata": {}, "outputs": [{"output_type": "stream", "name": "stdout",
                                                      "text": ["a", "b"]}],
                         "execution_count": 1}]}
    served = json.loads(build.site_notebook(json.dumps(lesson), keep_outputs=True))
    first, code = served["cells"]
    assert "keep_progress()" in first["source"] and first["metadata"]["tags"] == ["setup"]
    assert code["source"] == "ck.board('start')" and code["metadata"]["trusted"] is True
    assert code["outputs"][0]["text"] == "ab"


def test_lock_lists_what_the_browser_needs_and_nothing_it_cannot_run() -> None:
    assert build.browser_requirements(
        "Requires-Dist: pexpect>4.3; sys_platform != 'emscripten'\n"
        "Requires-Dist: colorama; sys_platform == 'win32'\nRequires-Dist: traitlets>=5\n"
        "Requires-Dist: pytest; extra == 'test'\n") == ["traitlets"]
    config = build.lite_config(["chesskit", "chess"])
    kernel = config["jupyter-config-data"]["litePluginSettings"][build.KERNEL_PLUGIN]  # type: ignore[index]
    assert kernel["disablePyPIFallback"] is True
    assert kernel["loadPyodideOptions"]["env"]["CHESSKIT_DATA_DIR"] == build.DATA_DIR


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


def open_notebook(page: Page, base_url: str, path: str) -> None:
    """Load JupyterLite with ``path`` open (and the tabs it restores); wait for its kernel."""
    page.goto(f"{base_url}/lab/index.html?path={path}")
    page.locator(".lm-TabBar-tab.jp-mod-current", has_text=Path(path).name).first.wait_for()
    kernel_idle(page)


def kernel_idle(page: Page) -> None:
    """The current notebook's kernel has started and is idle (the status bar says so)."""
    page.get_by_text("Python (Pyodide) | Idle").first.wait_for()


def menu(page: Page, top: str, item: str) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text=top).first.click()
    page.locator(".lm-Menu-itemLabel", has_text=item).first.click()


def run_all(page: Page) -> None:
    menu(page, "Run", "Run All Cells")


def save_and_close(page: Page) -> None:
    """Save the current notebook and close its tab, so the next page load restores no tab.

    A second Pyodide kernel started in the same page stayed "Initializing" here: every
    notebook of this test is opened by loading the page again, one kernel per page.
    """
    menu(page, "File", "Save Notebook")
    page.locator(".lm-TabBar-tab.jp-mod-current:not(.jp-mod-dirty)").first.wait_for()
    tabs = page.locator(".jp-NotebookPanel").count()
    menu(page, "File", "Close Tab")
    page.wait_for_function("n => document.querySelectorAll('.jp-NotebookPanel').length < n",
                           arg=tabs)


def wait_done(page: Page) -> None:
    """Every code cell of the current notebook has run (no pending ``[*]`` prompt)."""
    page.wait_for_function(
        "() => { const p = [...document.querySelectorAll("
        "'.jp-NotebookPanel:not(.lm-mod-hidden) .jp-InputPrompt')].map(e => e.textContent);"
        " return p.length && !p.some(t => t.includes('*')) && p.some(t => /\\d/.test(t)); }",
        polling=500)


def click_square(board: Any, square: str) -> None:
    """Click the centre of ``square`` (Playwright scrolls it into view first)."""
    board.locator(f'[data-sq="{square}"]').click()


def set_cell(page: Page, code_index: int, source: str) -> Any:
    """Replace the text of code cell ``code_index`` and run it; returns the cell."""
    target = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell").nth(code_index)
    target.scroll_into_view_if_needed()
    target.locator(".cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(source)
    page.keyboard.press("Shift+Enter")
    return target


def test_course_runs_offline_and_a_notebook_is_handed_in(
        base_url: str, offline: tuple[BrowserContext, list[str]], tmp_path: Path) -> None:
    context, elsewhere = offline
    page = context.new_page()
    try:
        _lesson_and_hand_in(page, base_url, tmp_path)
    finally:
        page.screenshot(path=str(tmp_path / "last-screen.png"))  # kept by pytest for a look
    assert elsewhere == [], f"the site asked another host: {elsewhere[:5]}"


@pytest.mark.xfail(strict=False, reason="a second notebook's Pyodide kernel stays 'Initializing' "
                   "after a first one has run in the same browser (issue 13, open)")
def test_progress_is_kept_when_the_page_loads_again(
        base_url: str, offline: tuple[BrowserContext, list[str]], tmp_path: Path) -> None:
    context, _ = offline
    page = context.new_page()
    open_notebook(page, base_url, "exercises/en/00-start-here.ipynb")
    run_all(page)
    wait_done(page)
    set_cell(page, 3, 'ck.answer("00.01", "e4")').locator(".jp-OutputArea-output").first.wait_for()
    wait_done(page)
    save_and_close(page)
    open_notebook(page, base_url, "lessons/en/00-start-here.ipynb")  # the page loads again
    run_all(page)
    wait_done(page)
    page.get_by_text("after 1 answer").first.wait_for()  # ck.progress() remembers


def _lesson_and_hand_in(page: Page, base_url: str, tmp_path: Path) -> None:
    open_notebook(page, base_url, "exercises/en/00-start-here.ipynb")
    run_all(page)
    board = page.locator(".ck .ck-board").first
    board.wait_for()
    wait_done(page)
    # code cells: 0 keeps progress, 1 sets up, 2 shows exercise 00.01, 3 answers it
    answered = set_cell(page, 3, 'ck.answer("00.01", "e4")')
    answered.locator(".jp-OutputArea-output").first.wait_for()
    wait_done(page)
    menu(page, "File", "Save Notebook")
    page.locator(".lm-TabBar-tab.jp-mod-current:not(.jp-mod-dirty)").first.wait_for()
    page.locator(".lm-MenuBar-itemLabel", has_text="File").first.click()
    with page.expect_download() as download:
        page.locator(".lm-Menu-itemLabel", has_text="Download").first.click()
    handed_in = tmp_path / "class" / "ada" / "00-start-here.ipynb"
    handed_in.parent.mkdir(parents=True)
    download.value.save_as(handed_in)

    graded = subprocess.run([sys.executable, "-m", "chesskit", "grade",
                             str(tmp_path / "class"), "--out", str(tmp_path / "grades")],
                            capture_output=True, text=True)
    assert graded.returncode == 0, graded.stderr
    grades = (tmp_path / "grades" / "grades.csv").read_text(encoding="utf-8")
    assert "00.01" in grades.splitlines()[0] and "ada" in grades
