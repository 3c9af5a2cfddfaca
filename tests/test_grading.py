"""Static grading: answers are read from notebook source, never executed."""

from __future__ import annotations

import csv
import json
import stat
import zipfile
from pathlib import Path

import _teacher_fakes
import pytest

from chesskit import grading, submissions
from chesskit.gradebook import Gradebook


@pytest.fixture(autouse=True)
def fake_bank(monkeypatch: pytest.MonkeyPatch) -> None:
    _teacher_fakes.install(monkeypatch)


def notebook(*sources: str, lang: str = "en") -> str:
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": f"import chesskit as ck\nck.set_language({lang!r})"}]
    cells += [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
               "source": s} for s in sources]
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells})


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def marks(out: Path) -> dict[str, dict[str, tuple[str, str]]]:
    with Gradebook(out / "gradebook.sqlite") as book:
        return {r.student: {m.exercise_id: (m.code, m.answer) for m in r.marks}
                for r in book.results()}


def test_folders_per_student_csv_and_report(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    write(subs / "ana" / "01-mate.ipynb", notebook('ck.answer("01.01", "Ra8#")',
                                                  'ck.answer("01.02", "Qa2")'))
    write(subs / "bo" / "01-mate.ipynb", notebook('ck.answer("01.01", "Ra7")',
                                                 'ck.answer("01.02", "Qh8#")', lang="zh-Hans"))
    write(subs / "ana" / ".ipynb_checkpoints" / "old.ipynb", "not json")
    report = grading.grade([subs], out=tmp_path / "out")
    assert report.students == ("ana", "bo")
    assert report.exercises == ("01.01", "01.02")
    assert report.problems == ()
    assert marks(tmp_path / "out")["ana"] == {"01.01": ("correct", "Ra8#"),
                                             "01.02": ("wrong", "Qa2+")}
    raw = (tmp_path / "out" / "grades.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(raw.decode("utf-8-sig").splitlines()))
    assert rows[0] == ["student", "language", "01.01", "01.02", "correct", "exercises",
                       "percent", "problems"]
    assert rows[2] == ["bo", "zh-Hans", "0", "1", "1", "2", "50", "0"]
    index = report.html.read_text(encoding="utf-8")
    assert "<svg" in index and index.index(">01.01<") < index.index(">01.02<")
    page = (report.html.parent / "students" / "bo.html").read_text(encoding="utf-8")
    assert 'lang="zh-Hans"' in page and "你答对了1道" in page


def test_dangerous_code_is_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    write(tmp_path / "subs" / "eve.ipynb", notebook(
        f"import os\nos.system('touch {marker}')", "while True:\n    pass",
        "%%bash\nrm -rf /", "!rm -rf ~\nck.answer('01.01', 'Ra8#')",
        "if True:\n    %time 1\nck.answer('01.03', 'Rd1#')"))
    grading.grade([tmp_path / "subs"], out=tmp_path / "out")
    assert not marker.exists()
    assert marks(tmp_path / "out")["eve"] == {"01.01": ("correct", "Ra8#"),
                                             "01.03": ("correct", "Rd1#")}


def test_last_answer_counts_and_expressions_are_not_gradable(tmp_path: Path) -> None:
    write(tmp_path / "subs" / "cy.ipynb", notebook(
        'ck.answer("01.02", "Qh8#")', 'ck.answer("01.01", "Ra8#")', 'ck.answer("01.02", "Qh3")',
        'move = "Ra8#"\nck.answer("02.01", move)', 'ck.answer("01.03", "Rd" + "1#")',
        "from chesskit import answer as a\na('02.02', ['Rd8+'])", 'ck.answer("99.99", "e4")',
        "this is ( not python\nck.answer('01.01', 'Ra7')"))
    report = grading.grade([tmp_path / "subs"], out=tmp_path / "out")
    got = marks(tmp_path / "out")["cy"]
    assert got["01.02"] == ("wrong", "Qh3")
    assert got["01.01"] == ("wrong", "Ra7")
    assert got["02.01"][0] == got["01.03"][0] == "not_gradable"
    assert got["02.02"] == ("correct", "Rd8+")
    assert [p for _, p in report.problems] == ["Exercise 99.99 is not in the exercise bank."]


def test_broken_files_are_reported_and_the_batch_goes_on(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    write(subs / "ana" / "hw.ipynb", '{"cells": [')
    write(subs / "ana" / "notes.txt", "hello")
    write(subs / "bo" / "hw.ipynb", '{"just": "json"}')
    write(subs / "cy" / "hw.ipynb", notebook('ck.answer("01.01", "Ra8#")'))
    write(subs / "stray.txt", "?")
    report = grading.grade([subs, tmp_path / "missing.ipynb"], out=tmp_path / "out")
    assert report.students == ("ana", "bo", "cy")
    problems = report.problems
    assert ("ana", "The file notes.txt is not a notebook (.ipynb file).") in problems
    assert any(w == "ana" and "hw.ipynb is broken" in p for w, p in problems)
    assert ("bo", "The file hw.ipynb is not a notebook (.ipynb file).") in problems
    assert any("no file or folder" in p for w, p in problems)
    assert "stray.txt" in dict(problems)
    assert marks(tmp_path / "out")["cy"]["01.01"][0] == "correct"


def test_zip_from_an_lms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("Ana Li_123_assignsubmission/hw.ipynb", notebook('ck.answer("01.01", "Ra8#")'))
        zf.writestr("Bo/hw.ipynb", notebook('ck.answer("01.01", "Ra7")'))
        zf.writestr("Bo/../../evil.ipynb", "{}")
        zf.writestr("../escape.ipynb", "{}")
        zf.writestr("/etc/passwd.ipynb", "{}")
        zf.writestr("__MACOSX/Bo/._hw.ipynb", "junk")
        zf.writestr("Cy/big.ipynb", "x" * 2000)
        link = zipfile.ZipInfo("Bo/link.ipynb")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "/etc/passwd")
    monkeypatch.setattr(submissions, "MAX_BYTES", 1000)
    report = grading.grade([archive], out=tmp_path / "out")
    assert report.students == ("Ana Li_123_assignsubmission", "Bo", "Cy")
    problems = report.problems
    refused = [w for w, p in problems if "refused" in p]
    assert sorted(refused) == ["../escape.ipynb", "/etc/passwd.ipynb", "Bo", "Bo"]
    assert any(w == "Cy" and "bigger than" in p for w, p in problems)
    assert marks(tmp_path / "out")["Bo"] == {"01.01": ("wrong", "Ra7")}


def test_regrading_is_idempotent(tmp_path: Path) -> None:
    write(tmp_path / "subs" / "ana.ipynb", notebook('ck.answer("01.01", "Ra8#")'))
    first = grading.grade([tmp_path / "subs"], out=tmp_path / "out")
    again = grading.grade([tmp_path / "subs"], out=tmp_path / "out")
    assert again.unchanged == ("ana",) and first.students == again.students
    write(tmp_path / "subs" / "ana.ipynb", notebook('ck.answer("01.01", "Ra7")'))
    third = grading.grade([tmp_path / "subs"], out=tmp_path / "out")
    assert third.unchanged == ()
    assert marks(tmp_path / "out") == {"ana": {"01.01": ("wrong", "Ra7")}}


def test_board_answers_fill_empty_cells(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    boardstate = types.ModuleType("chesskit.boardstate")
    boardstate.board_answers = lambda nb: {"01.01": "Ra8#", "01.02": "Qa1"}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "chesskit.boardstate", boardstate)
    write(tmp_path / "s" / "ana.ipynb", notebook('ck.answer("01.01", "")',
                                                'ck.answer("01.02", "Qh8#")'))
    grading.grade([tmp_path / "s"], out=tmp_path / "out")
    assert marks(tmp_path / "out")["ana"] == {"01.01": ("correct", "Ra8#"),
                                             "01.02": ("correct", "Qh8#")}


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path / "s" / "ana.ipynb", notebook('ck.answer("01.01", "Ra8#")'))
    write(tmp_path / "s" / "bo.ipynb", notebook('ck.answer("01.01", "Ra7")'))
    assert grading.main([str(tmp_path / "s"), "--out", str(tmp_path / "o")]) == 0
    captured = capsys.readouterr()
    assert "Graded 2 students on 1 exercises" in captured.out
    assert "graded 2/2" in captured.err
    assert grading.main([str(tmp_path / "nothing"), "--out", str(tmp_path / "o2")]) == 1
