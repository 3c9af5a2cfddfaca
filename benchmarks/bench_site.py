"""How big the browser course is, and how long until its first board can be played.

    .venv/bin/python benchmarks/bench_site.py [--runs 3] [--load 4] [--against OTHER_SITE]

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
import contextlib
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
# The Pyodide kernel's worker (jupyterlite-pyodide-kernel 0.8.6, minified) with a console line
# "ck-phase <name> <Date.now()>" after each step of its start (``--phases`` only).
# With the early worker (build.early_kernel) the kernel's initialize waits for the runtime the
# page asked for before JupyterLab loaded ("early kernel": Pyodide, the wheels, IPython imported).
WORKER_STEPS = (
    ("await this.initRuntime(e),", "runtime+packages"),
    (":this.initRuntime(e)),", "runtime+packages"), ("await this.initFilesystem(e),", "drive"),
    ("await this.initPackageManager(e),", "piplite"), ("await this.initKernel(e),", "kernel"),
    ("await this.initGlobals(e),", "globals"))
WORKER_RUNTIME = ("{loadPyodide:n}=await zo(t);", "pyodide.mjs")


def timed_worker(script: str) -> str:
    """The kernel worker's code with a console line after each start step (see WORKER_STEPS)."""
    def log(name: str) -> str:
        return f'console.log("ck-phase {name} "+Date.now())'

    script = script.replace("async initialize(e){", "async initialize(e){" + log("worker") + ";", 1)
    for step, name in WORKER_STEPS:
        script = script.replace(step, f"{step.rstrip(',')},{log(name)},", 1)
    early = 'import pyodide_kernel"))'
    script = script.replace(early, f"{early}.then(()=>{log('early-kernel')})", 1)
    code, name = WORKER_RUNTIME
    return script.replace(code, code + log(name) + ";", 1)


# Marks the time each code cell has run (its prompt went from [*] to a number).
CELL_WATCH = """() => { window.ckCells = {}; const busy = {};
  const seen = () => document.querySelectorAll(
  '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell').forEach((cell, i) => {
  const p = cell.querySelector('.jp-InputPrompt'); if (!p) return;
  if (p.textContent.includes('*')) busy[i] = true;
  else if (busy[i] && !(i in window.ckCells)) window.ckCells[i] = Date.now(); });
  new MutationObserver(seen).observe(document.body, {subtree: true, childList: true,
  characterData: true}); }"""


def phase_table(base_url: str, browser: object) -> list[tuple[str, float, float]]:
    """One cold start of lesson 0 split into phases: (what, ends at s, takes s)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    context.set_default_timeout(600_000)
    marks: dict[str, float] = {}
    requests: dict[str, list[float]] = {}

    def route(route: object) -> None:
        request = route.request  # type: ignore[attr-defined]
        if not request.url.startswith("http://127.0.0.1"):
            route.abort()  # type: ignore[attr-defined]
        elif "comlink.worker" in request.url:
            response = route.fetch()  # type: ignore[attr-defined]
            route.fulfill(response=response, body=timed_worker(response.text()))  # type: ignore[attr-defined]
        else:
            route.continue_()  # type: ignore[attr-defined]

    def console(message: object) -> None:
        words = str(message.text).split()  # type: ignore[attr-defined]
        if len(words) == 3 and words[0] == "ck-phase":
            marks.setdefault(words[1], int(words[2]) / 1000)

    def worker(found: object) -> None:
        found.on("console", console)  # type: ignore[attr-defined]

    def request_name(url: str) -> str:
        name = url.split("?")[0].rsplit("/", 1)[-1]
        return "wheel" if name.endswith(".whl") else name

    def started(request: object) -> None:
        requests.setdefault(request_name(request.url), [time.time(), float("nan")])  # type: ignore[attr-defined]

    def finished(request: object) -> None:
        times = requests.get(request_name(request.url))  # type: ignore[attr-defined]
        if times:
            times[1] = time.time()

    context.route("**/*", route)
    page = context.new_page()
    page.on("console", console)
    page.on("worker", worker)
    page.on("request", started)
    page.on("requestfinished", finished)
    start = time.time()
    page.goto(f"{base_url}/lab/index.html?path={LESSON}")
    page.locator(".jp-OutputArea-output svg").first.wait_for()
    marks["picture"] = time.time()
    page.evaluate(CELL_WATCH)
    kernel_idle(page)
    marks["idle"] = time.time()
    run_all(page)
    marks["run all"] = time.time()
    page.locator(".ck .ck-board .ck-sq").first.wait_for()
    marks["board"] = time.time()
    cells = page.evaluate("() => window.ckCells")
    context.close()
    for name, (begun, ended) in requests.items():
        if not any(word in name for word in ("pyodide", "wheel", "comlink", "bundle.js",
                                             "python_stdlib", "all.json")):
            continue
        marks[f"{name} asked"] = begun
        marks[f"{name} arrived"] = ended
    for index, at in cells.items():
        marks[f"cell {index} ran"] = at / 1000
    rows = sorted((at - start, name) for name, at in marks.items() if at == at)
    table, previous = [], 0.0
    for at, name in rows:
        table.append((name, at, at - previous))
        previous = at
    return table


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


def _measure(browser: object, base_url: str) -> tuple[dict[str, float], dict[str, float]]:
    """One cold and one warm start of lesson 0 in a fresh browser profile."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    context.set_default_timeout(600_000)
    context.route("**/*", lambda route: route.abort()
                  if not route.request.url.startswith("http://127.0.0.1") else route.continue_())
    page = context.new_page()
    cold = first_board(page, base_url)
    warm = first_board(page, base_url)
    context.close()
    return cold, warm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--load", type=int, default=0,
                        help="busy processes kept spinning while measuring (default 0)")
    parser.add_argument("--phases", action="store_true",
                        help="one more cold start, split into phases (the kernel worker's steps, "
                             "requests, cells)")
    parser.add_argument("--site", type=Path, default=None,
                        help="a built site to measure (default: build or reuse the cached one)")
    parser.add_argument("--against", type=Path, default=None,
                        help="another built site (e.g. main's), measured in turn with the first "
                             "one, run by run: A/B in the same minutes on a shared machine")
    options = parser.parse_args()
    sites = {"": options.site or build.cached_site()}
    if options.against is not None:
        sites = {"A ": sites[""], "B ": options.against}
    print(f"Load average (1 min) at the start: {os.getloadavg()[0]:.1f}.")
    for label, site in sites.items():
        print(f"\n{label}{site}\n| part | MB |\n|---|---:|")
        for name, megabytes in sizes(site):
            print(f"| {name} | {megabytes:.1f} |")
    results: dict[str, tuple[list[dict[str, float]], list[dict[str, float]]]] = {
        label: ([], []) for label in sites}
    spinners = busy(options.load)
    try:
        with contextlib.ExitStack() as stack:
            urls = {label: stack.enter_context(build.serve(site)) for label, site in sites.items()}
            playwright = stack.enter_context(sync_playwright())
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for _ in range(options.runs):
                for label, url in urls.items():
                    cold, warm = _measure(browser, url)
                    results[label][0].append(cold)
                    results[label][1].append(warm)
            phases = phase_table(next(iter(urls.values())), browser) if options.phases else []
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
    for label, (colds, warms) in results.items():
        for name, runs in (("cold", colds), ("warm", warms)):
            if not runs:
                continue
            medians = [statistics.median(run[phase] for run in runs) for phase in PHASES]
            board = medians[-1]
            print(f"| {label}{name} ({len(runs)} runs) | " + " | ".join(f"{m:.1f}" for m in medians)
                  + f" | {max(run['board'] for run in runs):.1f} | {goal} | {board / goal:.2f} |")
    if phases:
        print("\n| one cold start: what happened | at s | s since the line before |\n"
              "|---|---:|---:|")
        for name, at, step in phases:
            print(f"| {name} | {at:.2f} | {step:.2f} |")


if __name__ == "__main__":
    main()
