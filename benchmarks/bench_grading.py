"""Static grading of a class against executing the notebooks (what nbgrader and otter do).

A class of ``--students`` (default 40; a quarter of them Chinese) hands in all 30 exercise
notebooks of the course (``exercises/<lang>/*.ipynb``).  Answers are varied the way a class
answers: right ones (any of the solutions, not only the first), odd spellings of right moves,
blanks, and wrong ones of several kinds; half of the wrong move answers are random legal moves
of the position (a student guessing).  ``chesskit grade`` runs in a fresh process, cold (a new
gradebook, no remembered checks); its time and peak memory (the parent and the largest worker)
are printed.  A sample of notebooks is executed with nbclient and extrapolated to the class.

Run: ``.venv/bin/python benchmarks/bench_grading.py [--students 40] [--jobs 2] [--sample 3]``;
for the issue's large class, ``--students 1000 --cold-only`` (the cold run only: the 30,000
notebooks take about 7 GB in the temporary folder).  ``--keep FOLDER`` keeps the class and the
cold run's gradebook (``FOLDER/cold``), to compare grades before and after a change.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import chess
import nbclient
import nbformat

from chesskit.exercises import catalog
from chesskit.teacher.worksheet import worksheet

ROOT = Path(__file__).resolve().parents[1]
SHARES = {"right": 0.40, "odd_spelling": 0.08, "blank": 0.10}  # the rest is wrong

RUN = """
import json, resource, sys, time
from chesskit.teacher.grading import grade
start = time.perf_counter()
report = grade([sys.argv[1]], out=sys.argv[2], jobs=int(sys.argv[3]))
seconds = time.perf_counter() - start
own, workers = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
print(json.dumps({"seconds": seconds, "students": len(report.students),
                  "cpu": own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime,
                  "self_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "worker_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""


def course_notebooks(lang: str) -> list[tuple[str, dict[str, Any]]]:
    """The course's exercise notebooks in one language, by file name."""
    return [(p.name, json.loads(p.read_text(encoding="utf-8")))
            for p in sorted((ROOT / "exercises" / lang).glob("*.ipynb"))]


def _odd(board: chess.Board, san: str) -> str:
    """The same move written another way: lowercase piece letter, coordinates, 0-0."""
    move = board.parse_san(san)
    choices = [move.uci(), san.replace("O-O", "0-0"), san.rstrip("+#")]
    if san[0] in "NBRQK":
        choices.append(san[0].lower() + san[1:])
    return random.Random(san).choice(choices)


class Answers:
    """A class's answers for every exercise, drawn with one seeded generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.solutions: dict[str, list[str]] = {}

    def _solutions(self, exercise: Any) -> list[str]:
        if exercise.id not in self.solutions:
            self.solutions[exercise.id] = exercise.solutions()
        return self.solutions[exercise.id]

    def _wrong(self, exercise: Any, right: list[str]) -> str:
        rng, board = self.rng, exercise.board()
        if exercise.kind in ("move", "line") and not board.is_game_over():
            moves = sorted(board.legal_moves, key=chess.Move.uci)
            if rng.random() < 0.5:
                return board.san(rng.choice(moves))  # a guess
            common = [board.san(m) for m in moves[:3]]  # the class's usual mistakes
            return rng.choice(common + ["e4", "Kh1", "Qxf7"])
        if exercise.kind == "squares" and right:
            squares = right[0].split()
            return " ".join(squares[:-1] if rng.random() < 0.5 else squares + ["a1"])
        if exercise.kind == "count":
            return f"{float(right[0]) + rng.choice([-1, 1]):g}" if right else "3"
        if exercise.kind == "choice":
            return rng.choice("ABCD")
        if exercise.kind == "square":
            return rng.choice(["a1", "h8", "e4", "d5"])
        return rng.choice(["e4 e5", "Ke1 Qd1", "?", "I don't know"])

    def answer(self, exercise: Any) -> str:
        rng, right = self.rng, self._solutions(exercise)
        draw = rng.random()
        if right and draw < SHARES["right"]:
            return rng.choice(right)
        if right and exercise.kind == "move" and draw < SHARES["right"] + SHARES["odd_spelling"]:
            return _odd(exercise.board(), rng.choice(right))
        if draw < SHARES["right"] + SHARES["odd_spelling"] + SHARES["blank"]:
            return ""
        return self._wrong(exercise, right)


def fill(notebook: dict[str, Any], answers: Answers) -> dict[str, Any]:
    """A student's copy: each ``ck.answer("id", "")`` filled in."""

    cells = []
    for cell in notebook["cells"]:
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if source.startswith("ck.answer("):
            exercise_id = source.split('"')[1]
            given = answers.answer(catalog.exercise(exercise_id))
            cell = {**cell, "source": f"ck.answer({exercise_id!r}, {given!r})"}
        cells.append(cell)
    return {**notebook, "cells": cells}  # the other cells are shared, not copied


def write_class(folder: Path, *, students: int) -> tuple[list[Path], int]:
    """Every student's folder of 30 notebooks; returns the paths and the answer count."""
    by_lang = {lang: course_notebooks(lang) for lang in ("en", "zh-Hans")}
    answers = Answers(7)
    paths, count = [], 0
    for s in range(students):
        lang = "zh-Hans" if s % 4 == 3 else "en"
        for name, notebook in by_lang[lang]:
            filled = fill(notebook, answers)
            count += sum("".join(c["source"]).startswith("ck.answer(") for c in filled["cells"])
            path = folder / f"student{s:03d}" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(filled), encoding="utf-8")
            paths.append(path)
    return paths, count


def run_grader(subs: Path, out: Path, *, jobs: int) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", RUN, str(subs), str(out), str(jobs)],
                          check=True, capture_output=True, text=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def execute(path: Path) -> float:

    notebook = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    nbclient.NotebookClient(notebook, kernel_name="python3", timeout=600, allow_errors=True,
                            resources={"metadata": {"path": str(path.parent)}}).execute()
    return time.perf_counter() - start


def worksheet_seconds() -> float:
    """The median time of a 12-diagram worksheet with its answer key."""

    items = list(catalog.bank(lesson=12))[:12]
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        worksheet(items, per_page=12, lang="zh-Hans", answers=True)
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sample", type=int, default=3, help="notebooks executed by nbclient")
    parser.add_argument("--cold-only", action="store_true",
                        help="only the cold run (no re-grading), for a large class")
    parser.add_argument("--keep", type=Path, metavar="FOLDER",
                        help="write the class and the cold run's gradebook there (kept)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.keep:
            folder = args.keep
            folder.mkdir(parents=True)  # a fresh folder: the cold run needs a new gradebook
        paths, count = write_class(folder / "subs", students=args.students)
        load = os.getloadavg()
        cold = run_grader(folder / "subs", folder / "out", jobs=args.jobs)
        if args.keep:
            shutil.copytree(folder / "out", folder / "cold")
        load = tuple(max(a, b) for a, b in zip(load, os.getloadavg(), strict=True))
        again = warm = None
        if not args.cold_only:
            again = run_grader(folder / "subs", folder / "out", jobs=args.jobs)
            with sqlite3.connect(folder / "out" / "gradebook.sqlite") as db:
                db.execute("UPDATE students SET digest = ''")  # every student handed in again
            warm = run_grader(folder / "subs", folder / "out", jobs=args.jobs)
        sample = random.Random(1).sample(paths, min(args.sample, len(paths)))
        executed = [execute(p) for p in sample]
    per_notebook = statistics.median(executed)
    sheet = worksheet_seconds()
    extrapolated = per_notebook * len(paths)
    static = cold["seconds"]
    print(f"{args.students} students x 30 notebooks = {len(paths)} notebooks, {count} answers "
          f"(right {SHARES['right']:.0%}, odd spellings {SHARES['odd_spelling']:.0%}, blank "
          f"{SHARES['blank']:.0%}, the rest wrong, half of the wrong moves random legal moves)")
    print(f"{'what':<52}{'value':>12}{'ratio':>10}")
    print(f"{'chesskit grade, cold, ' + str(args.jobs) + ' processes (s)':<52}{static:>12.1f}"
          f"{1:>10}")
    print(f"{'  CPU time, all processes (s)':<52}{cold['cpu']:>12.1f}")
    print(f"{'  per student: wall, CPU (s)':<52}{static / args.students:>6.2f}"
          f"{cold['cpu'] / args.students:>6.2f}")
    if again is not None and warm is not None:
        print(f"{'  again, nothing changed (s)':<52}{again['seconds']:>12.2f}")
        print(f"{'  everyone again, checks remembered (s)':<52}{warm['seconds']:>12.1f}")
    print(f"{'  peak memory, parent (MB)':<52}{cold['self_mb']:>12.0f}")
    print(f"{'  peak memory, largest worker (MB)':<52}{cold['worker_mb']:>12.0f}")
    total = cold['self_mb'] + args.jobs * cold['worker_mb']
    print(f"{'  peak memory, all processes at most (MB)':<52}{total:>12.0f}")
    print(f"{'nbclient, one notebook (median of ' + str(len(sample)) + ') (s)':<52}"
          f"{per_notebook:>12.2f}")
    print(f"{'nbclient, whole class (extrapolated) (s)':<52}{extrapolated:>12.0f}"
          f"{extrapolated / static:>9.0f}x")
    print(f"{'worksheet, 12 diagrams + key (zh-Hans) (s)':<52}{sheet:>12.3f}")
    print(f"load average (1, 5, 15 min; the larger of before and after the cold run): "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    print("targets: ratio >= 100x, peak < 300 MB; 1,000 students < 10 min and < 1 GB; "
          "worksheet < 2 s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
