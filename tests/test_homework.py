"""Homework notebooks: the course's layout, seeded, and gradable by `chesskit grade`."""

from __future__ import annotations

import json
from pathlib import Path

import _teacher_fakes
import nbformat
import pytest

from chesskit.errors import GradingError
from chesskit.teacher import grading, homework


@pytest.fixture(autouse=True)
def fake_bank(monkeypatch: pytest.MonkeyPatch) -> None:
    _teacher_fakes.install(monkeypatch)


def test_layout_and_seed() -> None:
    notebook = homework.homework(lesson=1, count=2, seed=7, lang="zh-Hans")
    nbformat.validate(notebook)
    sources = [c.source for c in notebook.cells]
    assert sources[0] == 'import chess\nimport chesskit as ck\n\nck.set_language("zh-Hans")'
    assert sources[1].startswith("# 家庭作业：第1课")
    ids = notebook.metadata["chesskit"]["homework"]
    assert len(ids) == 2 and f'ck.answer("{ids[0]}", "")' in sources
    assert nbformat.writes(notebook) == nbformat.writes(
        homework.homework(lesson=1, count=2, seed=7, lang="zh-Hans"))
    assert homework.homework(topic="fork", count=10, lang="en").metadata["chesskit"][
        "homework"] == ["02.02", "02.01"]


def test_cli_and_grading_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "hw.ipynb"
    assert homework.main(["--topic", "fork", "-o", str(path), "--lang", "en", "--due",
                          "2026-03-09", "--worksheet", str(tmp_path / "hw.pdf")]) == 0
    assert (tmp_path / "hw.pdf").read_bytes().startswith(b"%PDF-")
    data = json.loads(path.read_text(encoding="utf-8"))
    for cell in data["cells"]:
        cell["source"] = cell["source"] if isinstance(cell["source"], str) else "".join(
            cell["source"])
        cell["source"] = cell["source"].replace('ck.answer("02.01", "")',
                                                'ck.answer("02.01", "Qxf7#")')
    spec = (tmp_path / "hw.toml").read_text(encoding="utf-8")
    assert spec == ('title = "Homework: fork"\nnotebook = "hw.ipynb"\n'
                    'ids = ["02.02", "02.01"]\npoints = 1\ndue = 2026-03-09\n')
    (tmp_path / "subs" / "ana").mkdir(parents=True)
    (tmp_path / "subs" / "ana" / "hw.ipynb").write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / "subs" / "bo").mkdir()
    report = grading.grade([tmp_path / "subs"], out=tmp_path / "out",
                           assignment=tmp_path / "hw.toml")
    assert report.exercises == ("02.02", "02.01")
    rows = (tmp_path / "out" / "lms-grades.csv").read_text(encoding="utf-8-sig").splitlines()
    assert rows == ["Student,ID,Homework: fork (2)", "ana,ana,1", "bo,bo,0"]  # bo: nothing in


def test_a_due_date_that_cannot_be_read_writes_nothing(tmp_path: Path) -> None:

    with pytest.raises(GradingError):
        homework.main(["--topic", "fork", "-o", str(tmp_path / "hw.ipynb"), "--due", "soon"])
    assert list(tmp_path.iterdir()) == []
