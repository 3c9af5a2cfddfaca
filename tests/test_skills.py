"""The class's skills map, homework from the weakest skills, and the item analysis."""

from __future__ import annotations

import csv
import random
import subprocess
import sys
from pathlib import Path

import pytest

from chesskit.learner.skills import bank_skills
from chesskit.teacher import report
from chesskit.teacher.assignment import Assignment
from chesskit.teacher.gradebook import Gradebook, Mark, StudentResult
from chesskit.teacher.items import analyse, write_items
from chesskit.teacher.skills import skills_map, weak_homework


def _class() -> list[StudentResult]:
    """Eight students; forks are hard for everyone, pins for Bo only; stronger students
    solve more (so every item separates them)."""
    skills = bank_skills()
    forks = [e for e, s in skills.items() if s and s[0] == "fork"][:6]
    pins = [e for e, s in skills.items() if s and s[0] == "pin"][:6]
    checks = [e for e, s in skills.items() if s and s[0] == "check"][:6]
    rng = random.Random(5)
    results = []
    for n, name in enumerate(["ana", "bo", "cy", "di", "ed", "fu", "gu", "hu"]):
        marks = []
        for exercise_id in forks + pins + checks:
            chance = 0.4 + 0.07 * n - (0.35 if exercise_id in forks else 0)
            if name == "bo" and exercise_id in pins:
                chance = 0.0
            marks.append(Mark(exercise_id, "x", rng.random() < chance, "wrong", ""))
        results.append(StudentResult(name, "en", name, marks=tuple(marks)))
    return results


def test_skills_map_finds_the_class_and_the_student_weak_spots() -> None:
    found = skills_map(_class())
    assert found.weakest() [0] == "fork"
    assert "pin" in found.weakest("bo")
    page = found.html(lang="zh-Hans")
    assert "技能图" in page and "捉双" in page and "<svg" in page


def test_item_analysis_separates_and_rerates(tmp_path: Path) -> None:
    rows = analyse(_class())
    assert len(rows) == 18 and all(0 <= r.success <= 1 for r in rows)
    fork = [r for r in rows if bank_skills()[r.exercise_id][0] == "fork"]
    others = [r for r in rows if r not in fork]
    mean = sum(r.class_difficulty or 0 for r in rows) / len(rows)
    assert mean == pytest.approx(sum(r.bank_difficulty or 0 for r in rows) / len(rows), abs=2)
    assert min(r.class_difficulty or 0 for r in fork) > min(r.class_difficulty or 0
                                                            for r in others)
    assert sum(r.upper_lower or 0 for r in rows) > 0
    path = write_items(rows, tmp_path / "items.csv")
    with path.open(encoding="utf-8-sig") as stream:
        assert next(csv.reader(stream))[:3] == ["exercise_id", "answered", "success"]


def test_homework_from_the_weakest_skills(tmp_path: Path) -> None:
    with Gradebook(tmp_path / "gradebook.sqlite") as book:
        for result in _class():
            book.record(result)
    items, title = weak_homework(tmp_path, count=5, lang="en")
    assert len(items) == 5 and title.startswith("Homework: practise Forks")
    mine, _ = weak_homework(tmp_path / "gradebook.sqlite", student="bo", count=4)
    assert any("pin" in bank_skills()[ex.id] for ex in mine)
    out = tmp_path / "hw.ipynb"
    run = subprocess.run([sys.executable, "-m", "chesskit", "homework", "--weak", str(tmp_path),
                          "--count", "3", "-o", str(out)], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0 and out.exists(), run.stderr
    run = subprocess.run([sys.executable, "-m", "chesskit", "homework", "--weak",
                          str(tmp_path / "none"), "-o", str(out)], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 1 and run.stderr.startswith("Error: ")


def test_the_report_index_links_to_the_skills_map() -> None:
    tally = report._Class(Assignment(parts=()))  # noqa: SLF001 (the page's input, empty)
    page = report.class_page(tally, lang="zh-Hant", notes=[])
    assert '<a href="skills.html">技能圖：' in page
