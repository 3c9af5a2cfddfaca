"""Every teacher input is checked before any work (issue 19): one ``Error:`` line, exit 1,
nothing half written."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import _teacher_fakes
import pytest

from chesskit import cli
from chesskit.errors import GradingError
from chesskit.teacher import assignment, grading
from chesskit.teacher.gradebook import SCHEMA_VERSION, Gradebook


@pytest.fixture(autouse=True)
def fake_bank(monkeypatch: pytest.MonkeyPatch) -> None:
    _teacher_fakes.install(monkeypatch)


def class_folder(tmp_path: Path) -> Path:
    book = tmp_path / "class" / "ana" / "01-mate.ipynb"
    book.parent.mkdir(parents=True)
    book.write_text('{"cells": [{"cell_type": "code", "source": "ck.answer(\'01.01\', '
                    '\'Ra8#\')"}]}', encoding="utf-8")
    return tmp_path / "class"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = cli.main(argv)
    return code, capsys.readouterr().err


@pytest.mark.parametrize("text", [
    "lessons = 7", "ids = 5", "lessons = [true]", 'lessons = ["1"]', "lessons = [99]",
    'ids = ["01.01"]\npoints = 1e308', 'ids = ["01.01"]\npoints = inf',
    'ids = ["01.01"]\npoints = nan', 'ids = ["01.01"]\npoints = -1',
    'ids = ["01.01"]\npoints = true',
    'ids = ["01.01"]\npoints_for = 3', 'ids = ["01.01"]\npoints_for = "x"',
    'ids = ["01.01"]\n[points_for]\n"01.01" = nan',
    'ids = ["01.01"]\n[points_for]\n"01.01" = inf',
    'ids = ["01.01"]\n[points_for]\n"01.01" = {a = 1}',
    'ids = ["01.01"]\n[points_for]\n"01.01" = 1\n" 01.01" = 2',
    'ids = ["01.01"]\ndue = 0001-01-01', 'ids = ["01.01"]\ndue = 3',
    'ids = ["01.01"]\ntitle = 5', 'ids = ["01.01"]\npas = 0.8', 'ids = ["01.01"]\npass = 1.5',
    'ids = ["01.01"]\npass = nan',
    "ids = " + "[" * 3000 + "]" * 3000, 'ids = ["01.01"]\n#' + "x" * 300_000,
])
def test_a_bad_assignment_is_one_error_and_nothing_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    spec = tmp_path / "a.toml"
    spec.write_text(text, encoding="utf-8")
    code, err = run(["grade", str(class_folder(tmp_path)), "--out", str(tmp_path / "o"),
                     "--assignment", str(spec)], capsys)
    assert code == 1 and err.startswith("Error: ") and err.count("\n") == 1, err
    assert not (tmp_path / "o").exists()


def test_a_pass_mark_is_a_share_and_the_report_says_who_passed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "a.toml"
    spec.write_text('lessons = [1]\npass = 0.3\ntitle = "=HYPERLINK(1)"', encoding="utf-8")
    assert assignment.read_assignment(spec).pass_share == 0.3
    assert run(["grade", str(class_folder(tmp_path)), "--out", str(tmp_path / "o"),
                "--assignment", str(spec)], capsys)[0] == 0
    text = (tmp_path / "o" / "grades.csv").read_text(encoding="utf-8-sig")
    assert "passed" in text.splitlines()[0] and ",passed," in text.splitlines()[1]
    assert "1 of 1 students passed" in (tmp_path / "o" / "report" / "index.html").read_text(
        encoding="utf-8")
    lms = (tmp_path / "o" / "lms-grades.csv").read_text(encoding="utf-8-sig")
    assert "'=HYPERLINK(1)" in lms


def test_an_assignment_that_is_a_fifo_or_a_device_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "a.toml"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero"), tmp_path):
        done = subprocess.run([sys.executable, "-m", "chesskit", "grade", str(tmp_path),
                               "--out", str(tmp_path / "o"), "--assignment", str(path)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 1 and done.stderr.startswith("Error: "), done.stderr


@pytest.mark.parametrize("make", ["garbage", "folder", "newer", "foreign"])
def test_a_gradebook_that_is_not_ours_is_a_clear_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], make: str) -> None:
    book = tmp_path / "o" / "gradebook.sqlite"
    book.parent.mkdir()
    if make == "garbage":
        book.write_bytes(os.urandom(4096))
    elif make == "folder":
        book.mkdir()
    elif make == "newer":
        with Gradebook(book):
            pass
        with sqlite3.connect(book) as db:
            db.execute("UPDATE settings SET value = ? WHERE key = 'schema'",
                       (str(SCHEMA_VERSION + 1),))
    else:
        with sqlite3.connect(book) as db:
            db.execute("CREATE TABLE photos (id INTEGER)")
    before = sorted(p.name for p in book.parent.iterdir())
    code, err = run(["grade", str(class_folder(tmp_path)), "--out", str(book.parent)], capsys)
    assert code == 1 and err.startswith("Error: ") and err.count("\n") == 1, err
    assert sorted(p.name for p in book.parent.iterdir() if p.name != "grading.log") == before


@pytest.mark.parametrize("jobs", ["0", "-3", "100000"])
def test_jobs_must_fit_the_computer(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   jobs: str) -> None:
    code, err = run(["grade", str(class_folder(tmp_path)), "--out", str(tmp_path / "o"),
                     "--jobs", jobs], capsys)
    assert code == 1 and "--jobs" in err and not (tmp_path / "o").exists()


def test_more_jobs_than_cores_when_forced_and_never_more_workers_than_students(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run(["grade", str(class_folder(tmp_path)), "--out", str(tmp_path / "o"),
                   "--jobs", "48", "--jobs-force"], capsys)
    assert code == 0


def test_a_missing_input_path_is_an_error(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(["grade", str(tmp_path / "nope"), "--out", str(tmp_path / "o")], capsys)
    assert code == 1 and "nope" in err and not (tmp_path / "o").exists()
    with pytest.raises(GradingError):
        grading.grade([tmp_path / "nope"], out=tmp_path / "o")


@pytest.mark.parametrize(("command", "count"), [("homework", "-5"), ("homework", "0"),
                                                ("worksheet", "-3"), ("worksheet", "0"),
                                                ("worksheet", "100000")])
def test_counts_are_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str,
                            count: str) -> None:
    out = tmp_path / ("hw.ipynb" if command == "homework" else "s.pdf")
    code, err = run([command, "--lesson", "1", "--count", count, "-o", str(out)], capsys)
    assert code == 1 and err.startswith("Error: ") and not out.exists()


@pytest.mark.parametrize("points", ["nan", "inf", "1e308", "-1"])
def test_homework_points_are_checked_before_writing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], points: str) -> None:
    out = tmp_path / "hw.ipynb"
    code, err = run(["homework", "--lesson", "1", "--count", "2", "--points", points,
                     "-o", str(out)], capsys)
    assert code == 1 and err.startswith("Error: ") and not out.exists()
    assert not out.with_suffix(".toml").exists()
