"""Peak memory of grading one notebook, whatever its shape (issue 19).

Each shape is a notebook of at most 20 MB (the grader's cap on a file), read alone in a fresh
process (its bytes, JSON, code cells and board records: everything the grader holds for one
notebook before the answers are checked); the peak of Python's allocations (tracemalloc) is
printed: that is the memory one notebook may cost a grading process.
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
import sys, time, tracemalloc
from pathlib import Path
from chesskit.teacher import answer_reader, grading
def peak(): return tracemalloc.get_traced_memory()[1] / 2**20
tracemalloc.start()
base = peak()
start = time.perf_counter()
path = Path(sys.argv[1])
data = path.read_bytes()
notebook, note = answer_reader._read_notebook(path.name, data, lang=None)
answers = grading._notebook_answers(notebook)[0] if notebook is not None else {}
print(peak() - base, time.perf_counter() - start, len(answers), (note or "")[:60])
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
        "11,000 answer cells (just under the limit)": padded(notebook([answer] * 11_000)),
        "99,000 tiny values": padded(notebook([answer], meta='{"v": ['
                                              + ",".join(["1"] * 99_000) + "]}")),
        "one 20 MB string": padded(small),
        "an output nested 100,000 deep": padded(small.replace(
            '"outputs": []', '"outputs": [' + deep + "]", 1)),
        "340,000 answer cells (refused)": notebook([answer] * 340_000)[:LIMIT],
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for name, text in shapes().items():
            path = Path(folder) / "07-castling.ipynb"
            path.write_text(text, encoding="utf-8")
            done = subprocess.run([sys.executable, "-c", RUN, str(path)], capture_output=True,
                                  text=True, cwd=ROOT, check=True)
            rise, seconds, answers, note = done.stdout.split(" ", 3)
            print(f"{name:45s} {len(text.encode()) / MB:5.1f} MB  +{float(rise):5.0f} MB "
                  f"{float(seconds):6.1f} s  {answers} answers  {note.strip()}")


if __name__ == "__main__":
    main()
