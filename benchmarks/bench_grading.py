"""Static grading of a class against executing the notebooks (what nbgrader and otter do).

40 students hand in every exercise notebook of the course (``exercises/en/*.ipynb``; homework
notebooks built from the bank when the course is not built yet).  ``chesskit grade`` reads them
all; a sample is executed with nbclient and extrapolated to the class.  Also times a
12-diagram worksheet.  Run: ``.venv/bin/python benchmarks/bench_grading.py [--students 40]``.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _bank_note() -> str:
    """Use the real bank; before it exists, the tests' tiny bank stands in (said in the table)."""
    try:
        from chesskit import catalog

        next(iter(catalog.bank()))
        return "installed bank"
    except (ImportError, StopIteration):
        import pytest

        sys.path.insert(0, str(ROOT / "tests"))
        import _teacher_fakes

        _teacher_fakes.install(pytest.MonkeyPatch())
        return "test bank (chesskit.catalog not ready)"


def course_notebooks() -> list[dict[str, Any]]:
    """The course's English exercise notebooks, or one homework notebook per lesson."""
    paths = sorted((ROOT / "exercises" / "en").glob("*.ipynb"))
    if paths:
        return [json.loads(p.read_text(encoding="utf-8")) for p in paths]
    import nbformat

    from chesskit import catalog
    from chesskit.homework import homework

    lessons = sorted({item.lesson for item in catalog.bank()})
    return [json.loads(nbformat.writes(homework(lesson=n, count=12, lang="en")))
            for n in lessons]


def _answers(notebook: dict[str, Any]) -> list[str]:
    from chesskit.grading import notebook_answers

    return [found.exercise_id for found in notebook_answers(notebook)[0]]


def fill(notebook: dict[str, Any], *, rng: random.Random) -> dict[str, Any]:
    """A student's copy: each empty answer replaced by a right one (70 %) or a wrong one."""
    from chesskit import catalog

    copy = json.loads(json.dumps(notebook))
    for cell in copy["cells"]:
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        for exercise_id in _answers({"cells": [{"cell_type": "code", "source": source}]}):
            solutions = catalog.exercise(exercise_id).solutions()
            given = solutions[0] if solutions and rng.random() < 0.7 else "e4"
            source = source.replace(f'ck.answer("{exercise_id}", "")',
                                    f"ck.answer({exercise_id!r}, {given!r})")
        cell["source"] = source
    return copy


def write_class(folder: Path, notebooks: list[dict[str, Any]], *, students: int) -> list[Path]:
    rng = random.Random(7)
    paths = []
    for s in range(students):
        for n, notebook in enumerate(notebooks):
            path = folder / f"student{s:02d}" / f"{n:02d}.ipynb"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(fill(notebook, rng=rng)), encoding="utf-8")
            paths.append(path)
    return paths


def execute(path: Path) -> float:
    import nbclient
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    nbclient.NotebookClient(notebook, kernel_name="python3", timeout=120, allow_errors=True,
                            resources={"metadata": {"path": str(path.parent)}}).execute()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--sample", type=int, default=3, help="notebooks executed by nbclient")
    args = parser.parse_args(argv)
    note = _bank_note()
    from chesskit.grading import grade

    notebooks = course_notebooks()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        paths = write_class(folder / "subs", notebooks, students=args.students)
        answers = sum(len(_answers(nb)) for nb in notebooks) * args.students
        runs = []
        for run in range(3):
            start = time.perf_counter()
            grade([folder / "subs"], out=folder / f"out{run}")
            runs.append(time.perf_counter() - start)
        static = statistics.median(runs)
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        sample = random.Random(1).sample(paths, min(args.sample, len(paths)))
        executed = [execute(p) for p in sample]
    per_notebook = statistics.median(executed)
    extrapolated = per_notebook * len(paths)

    from chesskit import catalog
    from chesskit.worksheet import worksheet

    items = (list(catalog.bank()) * 12)[:12]
    sheet = []
    for _ in range(5):
        start = time.perf_counter()
        worksheet(items, per_page=12, lang="zh-Hans", answers=True)
        sheet.append(time.perf_counter() - start)

    print(f"bank: {note}; {len(notebooks)} notebooks x {args.students} students = "
          f"{len(paths)} notebooks, {answers} answers")
    print(f"{'what':<44}{'median s':>12}{'ratio':>10}")
    print(f"{'chesskit grade (static, whole class)':<44}{static:>12.3f}{1:>10}")
    print(f"{'nbclient, one notebook (sample of ' + str(len(sample)) + ')':<44}"
          f"{per_notebook:>12.3f}")
    print(f"{'nbclient, whole class (extrapolated)':<44}{extrapolated:>12.1f}"
          f"{extrapolated / static:>9.0f}x")
    print(f"{'peak memory of the static grader (MB)':<44}{peak_mb:>12.0f}")
    print(f"{'worksheet, 12 diagrams + key (zh-Hans)':<44}{statistics.median(sheet):>12.3f}")
    print("targets: ratio >= 100x, peak < 300 MB, worksheet < 2 s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
