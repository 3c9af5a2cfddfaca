"""How big the browser course is, and how long until its first board can be played.

    .venv/bin/python benchmarks/bench_site.py [--runs 3] [--load 4]

Builds the site (or reuses the cached build of the same inputs), serves it on 127.0.0.1, and
opens lesson 0 in Chromium with every other host blocked.  "cold": a fresh browser profile
(nothing cached, Pyodide and every wheel downloaded from the local server); "warm": the same
profile loading the page again.  The time runs from the navigation to the first interactive
board (the anywidget board drawn by the running kernel after Run All); "kernel ready" is the
part of it until the kernel is idle (Pyodide started, wheels loaded, IPython imported), the
rest runs the first cells (chesskit imported, progress loaded, the board drawn).  Prints
medians; no assertions.  "--load N" keeps N busy processes spinning while it measures (a school
laptop doing other work); the machine's load average is printed with the figures.  The ratio
column compares with the goals: 8 s with no load, 15 s at a load of 4; 60 MB.  "picture" is
when the first saved board (SVG) is on the page, before any kernel; "runtime" and "wheels"
when pyodide.asm.wasm and the last wheel arrived (the rest of "kernel ready" is Pyodide
starting, installing the wheels and importing IPython).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the tests' helpers import each other

from playwright.sync_api import sync_playwright  # noqa: E402

from chesskit.course.site import build  # noqa: E402
from tests.test_site import ARGS, CHROMIUM, kernel_idle, run_all  # noqa: E402

LESSON = "lessons/en/00-start-here.ipynb"


PHASES = ("picture", "runtime", "wheels", "kernel ready", "board")


def first_board(page: object, base_url: str) -> dict[str, float]:
    """Seconds from navigating to lesson 0 until: its first saved board picture shows, the
    Pyodide runtime (pyodide.asm.wasm) and the last wheel have arrived (from the server or the
    browser's cache), its kernel is idle, and its interactive board is drawn."""
    start = time.perf_counter()
    arrived: dict[str, float] = {}

    def finished(request: object) -> None:
        url = str(request.url)  # type: ignore[attr-defined]
        phase = "runtime" if url.endswith(".wasm") else "wheels" if url.endswith(".whl") else ""
        if phase:
            arrived[phase] = time.perf_counter() - start

    page.on("requestfinished", finished)  # type: ignore[attr-defined]
    page.goto(f"{base_url}/lab/index.html?path={LESSON}")  # type: ignore[attr-defined]
    page.locator(".jp-OutputArea-output svg").first.wait_for()  # type: ignore[attr-defined]
    times = {"picture": time.perf_counter() - start}
    kernel_idle(page)  # type: ignore[arg-type]
    times["kernel ready"] = time.perf_counter() - start
    run_all(page)  # type: ignore[arg-type]
    page.locator(".ck .ck-board .ck-sq").first.wait_for()  # type: ignore[attr-defined]
    times["board"] = time.perf_counter() - start
    page.remove_listener("requestfinished", finished)  # type: ignore[attr-defined]
    return {phase: times.get(phase, arrived.get(phase, float("nan"))) for phase in PHASES}


def _spin() -> None:
    while True:
        pass


def busy(count: int) -> list[multiprocessing.Process]:
    """``count`` processes that keep a core busy each (stopped with :func:`rest`)."""
    spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(count)]
    for spinner in spinners:
        spinner.start()
    return spinners


def rest(spinners: list[multiprocessing.Process]) -> None:
    for spinner in spinners:
        spinner.terminate()
        spinner.join()


def sizes(site: Path) -> list[tuple[str, float]]:
    pyodide = site / "static" / "pyodide"
    runtime = sum(p.stat().st_size for p in pyodide.iterdir() if p.suffix != ".whl")
    wheels = sum(p.stat().st_size for p in pyodide.glob("*.whl"))
    notebooks = build.site_size(site / "files")
    total = build.site_size(site)
    return [("Pyodide runtime", runtime / 1e6), ("wheels (preloaded)", wheels / 1e6),
            ("notebooks", notebooks / 1e6),
            ("JupyterLite app", (total - runtime - wheels - notebooks) / 1e6),
            ("whole site", total / 1e6)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--load", type=int, default=0,
                        help="busy processes kept spinning while measuring (default 0)")
    parser.add_argument("--site", type=Path, default=None,
                        help="a built site to measure (default: build or reuse the cached one)")
    options = parser.parse_args()
    site = options.site or build.cached_site()
    print(f"Load average (1 min) at the start: {os.getloadavg()[0]:.1f}.")
    print("| part | MB |\n|---|---:|")
    for name, megabytes in sizes(site):
        print(f"| {name} | {megabytes:.1f} |")
    cold, warm = [], []
    spinners = busy(options.load)
    try:
        with build.serve(site) as base_url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for _ in range(options.runs):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                context.set_default_timeout(600_000)
                context.route("**/*", lambda route: route.abort()
                              if not route.request.url.startswith("http://127.0.0.1") else
                              route.continue_())
                page = context.new_page()
                cold.append(first_board(page, base_url))
                warm.append(first_board(page, base_url))
                context.close()
            browser.close()
        load = os.getloadavg()[0]
    finally:
        rest(spinners)
    goal = 8 if options.load == 0 else 15
    print(f"\nBusy processes: {options.load}; load average (1 min) at the end: {load:.1f} on "
          f"{os.cpu_count()} cores.")
    print("\n| first interactive board (medians, s from navigation) | "
          + " | ".join(PHASES) + " | slowest board | goal | ratio to goal |\n|---|"
          + "---:|" * (len(PHASES) + 3))
    for name, runs in (("cold", cold), ("warm", warm)):
        medians = [statistics.median(run[phase] for run in runs) for phase in PHASES]
        board = medians[-1]
        print(f"| {name} ({len(runs)} runs) | " + " | ".join(f"{m:.1f}" for m in medians)
              + f" | {max(run['board'] for run in runs):.1f} | {goal} | {board / goal:.2f} |")


if __name__ == "__main__":
    main()
