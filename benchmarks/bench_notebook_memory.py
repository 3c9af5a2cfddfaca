"""Peak memory of grading one notebook, whatever its shape (issue 19).

Each shape is a notebook of at most 20 MB (the grader's cap on a file), graded alone in a fresh
process; the peak resident memory above a process that graded a small notebook is printed.
Shapes: the most ``ck.answer`` cells the grader reads, the most tiny JSON values, one 20 MB
string, an output nested 100,000 deep, and the issue's 340,000 cells (refused before it is
built).

Run: ``.venv/bin/python benchmarks/bench_notebook_memory.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MB = 1024 * 1024
LIMIT = 20 * MB

RUN = """
import resource, sys, time
from pathlib import Path
from chesskit.teacher.grading import grade_submission
from chesskit.teacher.submissions import StoredFile, Submission
start = time.perf_counter()
path = Path(sys.argv[1])
result = grade_submission(Submission("s", ((path.name, StoredFile(path)),)))
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, time.perf_counter() - start,
      len(result.marks), "|".join(result.problems)[:70])
"""


def cell(source: str) -> str:
    return json.dumps({"cell_type": "code", "metadata": {}, "outputs": [],
                       "execution_count": None, "source": source})


def notebook(cells: list[str], *, meta: str = "{}") -> str:
    return ('{"nbformat": 4, "nbformat_minor": 5, "metadata": ' + meta + ', "cells": ['
            + ",".join(cells) + "]}")


def padded(text: str, size: int = LIMIT - 4096) -> str:
    """``text`` padded to ``size`` bytes with a long string in the metadata."""
    pad = size - len(text.encode()) - 20
    return text.replace('"metadata": {}', '"metadata": {"pad": "' + "x" * max(pad, 0) + '"}', 1)


def shapes() -> dict[str, str]:
    answer = cell("ck.answer('07.01', 'O-O')")
    small = notebook([cell("import chesskit as ck"), answer])
    deep = ('{"output_type": "display_data", "data": {"x": ' + "[" * 100_000 + "]" * 100_000
            + "}}")
    return {
        "small (baseline)": small,
        "44,000 answer cells (just under the limit)": padded(notebook([answer] * 44_000)),
        "400,000 tiny values": padded(notebook([answer], meta='{"v": ['
                                               + ",".join(["1"] * 399_000) + "]}")),
        "one 20 MB string": padded(small),
        "an output nested 100,000 deep": padded(small.replace(
            '"outputs": []', '"outputs": [' + deep + "]", 1)),
        "340,000 answer cells (refused)": notebook([answer] * 340_000)[:LIMIT],
    }


def main() -> None:
    base = None
    with tempfile.TemporaryDirectory() as folder:
        for name, text in shapes().items():
            path = Path(folder) / "07-castling.ipynb"
            path.write_text(text, encoding="utf-8")
            done = subprocess.run([sys.executable, "-c", RUN, str(path)], capture_output=True,
                                  text=True, cwd=ROOT, check=True)
            peak, seconds, marks, note = done.stdout.split(" ", 3)
            base = float(peak) if base is None else base
            print(f"{name:45s} {len(text.encode()) / MB:5.1f} MB file  peak {float(peak):6.0f} MB"
                  f" (+{float(peak) - base:4.0f})  {float(seconds):5.1f} s  marks {marks}"
                  f"  {note.strip()}")


if __name__ == "__main__":
    main()
