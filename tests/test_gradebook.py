"""The gradebook: one transaction per student, idempotent, safe against a killed run."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import _teacher_fakes
import pytest

from chesskit.teacher import grading
from chesskit.teacher.gradebook import Gradebook, Mark, StudentResult

ANA = StudentResult("ana", "en", "d1", (Mark("01.01", "Ra8#", True, "correct", "Yes"),),
                    ("a note",))


def test_record_replaces_a_student(tmp_path: Path) -> None:
    with Gradebook(tmp_path / "g.sqlite") as book:
        book.record(ANA)
        book.record(ANA)
        assert book.results() == [ANA]
        assert book.digest("ana") == "d1" and book.digest("bo") is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.sqlite"]


def test_a_failed_record_changes_nothing(tmp_path: Path) -> None:
    twice = Mark("01.02", "x", False, "wrong", "")
    with Gradebook(tmp_path / "g.sqlite") as book:
        book.record(ANA)
        with pytest.raises(sqlite3.IntegrityError):
            book.record(StudentResult("ana", "en", "d2", (twice, twice)))
        assert book.results() == [ANA]


CHILD = """
import sys, time
sys.path.insert(0, {tests!r})
import pytest, _teacher_fakes
from chesskit.teacher import grading
mp = pytest.MonkeyPatch()
_teacher_fakes.install(mp)
grade_one = grading.grade_submission
def slow(*args, **kwargs):
    time.sleep(0.1)
    return grade_one(*args, **kwargs)
mp.setattr(grading, "grade_submission", slow)
grading.grade([{subs!r}], out={out!r})
"""


def _notebook(answer: str) -> str:
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": f'ck.answer("{e}", "{answer}")'} for e in ("01.01", "01.02", "01.03")]
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells})


def _students(book: Path) -> int:
    if not book.exists():
        return 0
    try:
        with sqlite3.connect(book, timeout=5) as db:
            return int(db.execute("SELECT count(*) FROM students").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except OSError:
        return False
    return state != "Z"


def test_a_killed_run_resumes_without_losing_or_doubling(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    subs, out = tmp_path / "subs", tmp_path / "out"
    subs.mkdir()
    for i in range(40):
        (subs / f"s{i:02d}").mkdir()
        (subs / f"s{i:02d}" / "01-mate.ipynb").write_text(_notebook("Ra8#" if i % 2 else "e4"))
    code = CHILD.format(tests=str(Path(__file__).parent), subs=str(subs), out=str(out))
    child = subprocess.Popen([sys.executable, "-c", code])
    deadline = time.monotonic() + 30
    while _students(out / "gradebook.sqlite") < 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    workers = _children(child.pid)
    child.send_signal(signal.SIGKILL)
    child.wait()
    deadline = time.monotonic() + 60
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in workers)  # the worker processes end with the run
    before = _students(out / "gradebook.sqlite")
    assert 5 <= before < 40
    _teacher_fakes.install(monkeypatch)
    report = grading.grade([subs], out=out)
    assert len(report.unchanged) >= before and len(report.students) == 40
    with sqlite3.connect(out / "gradebook.sqlite") as db:
        rows = db.execute("SELECT student, count(*) FROM marks GROUP BY student").fetchall()
    assert len(rows) == 40 and {n for _, n in rows} == {3}
