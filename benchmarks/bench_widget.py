"""Board speed in a real browser: click to highlighted targets, and a move's round trip.

Starts JupyterLab and Chromium like tests/test_browser.py, clicks with the real mouse and times
inside the page (pointerdown -> the DOM shows the result). The Python side alone (``handle``)
and plain python-chess (``legal_moves`` + ``push``) are timed for the ratio column.

    .venv/bin/python benchmarks/bench_widget.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from playwright.sync_api import sync_playwright  # noqa: E402
from test_browser import ARGS, CHROMIUM, centre, open_and_run, running_lab  # noqa: E402

from chesskit.widgets.board import Board  # noqa: E402

ROUNDS = 30
CYCLE = [("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8")]
WATCH = """([square, what]) => new Promise((resolve) => {
  const t0 = window.__t0;
  const node = document.querySelector(`.ck-board [data-sq="${square}"]`);
  const done = () => what === "dot" ? node.classList.contains("ck-dot")
    : !!node.querySelector(".ck-p");
  if (done()) return resolve(performance.now() - t0);
  const observer = new MutationObserver(() => {
    if (done()) { observer.disconnect(); resolve(performance.now() - t0); }
  });
  observer.observe(node, { attributes: true, childList: true, subtree: true });
  setTimeout(() => resolve(NaN), 3000);
})"""
STAMP = ("document.addEventListener('pointerdown', () => { window.__t0 = performance.now(); },"
         " true)")


def browser_times() -> tuple[list[float], list[float]]:
    """(click -> targets shown, click on target -> piece redrawn there) in ms."""
    with running_lab() as lab, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 1000})
        open_and_run(lab, page, "bench.ipynb", "b = ck.Board()\nb")
        page.evaluate(STAMP)
        picks, moves = [], []
        for i in range(ROUNDS * 2):
            source, target = CYCLE[i % len(CYCLE)]
            page.mouse.click(*centre(page, source))
            picks.append(page.evaluate(WATCH, [target, "dot"]))
            page.mouse.click(*centre(page, target))
            moves.append(page.evaluate(WATCH, [target, "piece"]))
            if i % len(CYCLE) == len(CYCLE) - 1:  # back to the start: no repetition draw
                page.locator(".ck-first").click()
                page.wait_for_selector(".ck-first[disabled]")
        browser.close()
    return picks[ROUNDS // 5:], moves[ROUNDS // 5:]


def python_times() -> tuple[list[float], list[float]]:
    """(Board.handle of a move request, python-chess legal_moves + push) in ms."""
    widget, plain = [], []
    board = Board()
    bare = chess.Board()
    for i in range(ROUNDS * 4):
        source, target = CYCLE[i % len(CYCLE)]
        if i % len(CYCLE) == 0:
            board.goto(0)
        start = time.perf_counter()
        board.handle({"type": "move", "from": source, "to": target})
        widget.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        move = chess.Move(chess.parse_square(source), chess.parse_square(target))
        list(bare.legal_moves)
        bare.push(move)
        plain.append((time.perf_counter() - start) * 1000)
    return widget, plain


def main() -> None:
    picks, moves = browser_times()
    handle, plain = python_times()
    base = statistics.median(plain)
    rows = [("click -> targets highlighted (browser)", picks, 150),
            ("move round trip: click, Python check, redraw", moves, 200),
            ("Board.handle(move) in Python only", handle, None),
            ("python-chess legal_moves + push", plain, None)]
    print(f"{'measure':48} {'median ms':>10} {'p95 ms':>8} {'target':>7} {'x chess':>8}")
    for name, values, target in rows:
        ordered = sorted(values)
        p95 = ordered[int(len(ordered) * 0.95) - 1]
        median = statistics.median(values)
        goal = f"<{target}" if target else ""
        print(f"{name:48} {median:10.2f} {p95:8.2f} {goal:>7} {median / base:8.0f}")


if __name__ == "__main__":
    main()
