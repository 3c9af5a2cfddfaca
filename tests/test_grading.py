"""Static grading: answers are read from notebook source, never executed; what counts is the
teacher's assignment, never what students wrote."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import sqlite3
import stat
import time
import zipfile
from pathlib import Path

import _teacher_fakes
import chess
import pytest

from chesskit.errors import GradingError
from chesskit.exercises import catalog
from chesskit.rules import search
from chesskit.teacher import grading, submissions
from chesskit.teacher.gradebook import Gradebook

EXTRA_LESSON = """lesson = 3
slug = "extra"
title = { en = "Extra", zh = "附加" }

[[item]]
id = "03.01"
kind = "line"
mate_in = 2
fen = "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1"
topic = "mate"
difficulty = 900

[[item]]
id = "03.02"
kind = "squares"
square = "d4"
mode = "moves"
fen = "8/8/8/8/3R4/8/8/8 w - - 0 1"
topic = "rook"
difficulty = 400
"""


@pytest.fixture(autouse=True)
def fake_bank(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if "real_bank" not in request.node.name:
        _teacher_fakes.install(monkeypatch)


def notebook(*sources: str, lang: str = "en", meta: dict[str, object] | None = None) -> str:
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": f"import chesskit as ck\nck.set_language({lang!r})"}]
    cells += [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
               "source": s} for s in sources]
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": meta or {},
                       "cells": cells})


def answers(pairs: dict[str, str], **kwargs: object) -> str:
    return notebook(*(f"ck.answer({k!r}, {v!r})" for k, v in pairs.items()), **kwargs)  # type: ignore[arg-type]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def marks(out: Path) -> dict[str, dict[str, tuple[str, str]]]:
    with Gradebook(out / "gradebook.sqlite") as book:
        return {r.student: {m.exercise_id: (m.code, m.answer) for m in r.marks}
                for r in book.results()}


def rows(out: Path, name: str = "grades.csv") -> list[dict[str, str]]:
    raw = (out / name).read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    return list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))


def by_student(out: Path) -> dict[str, dict[str, str]]:
    return {r["student"]: r for r in rows(out) if r["student"] != "(class note)"}


RIGHT_1 = {"01.01": "Ra8#", "01.02": "Qh8#", "01.03": "Rd1#"}
RIGHT_2 = {"02.01": "Qxf7#", "02.02": "Re2+"}


def test_folders_per_student_csv_and_report(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    write(subs / "ana" / "01-mate.ipynb", answers({"01.01": "Ra8#", "01.02": "Qa2"}))
    write(subs / "bo" / "01-mate.ipynb",
          answers({"01.01": "Ra7", "01.02": "Qh8#"}, lang="zh-Hans"))
    write(subs / "ana" / ".ipynb_checkpoints" / "old.ipynb", "not json")
    report = grading.grade([subs], out=tmp_path / "out")
    assert report.students == ("ana", "bo")
    assert report.exercises == ("01.01", "01.02", "01.03")
    assert report.problems == ()
    assert marks(tmp_path / "out")["ana"] == {"01.01": ("correct", "Ra8#"),
                                             "01.02": ("wrong", "Qa2+")}
    got = by_student(tmp_path / "out")
    assert (got["bo"]["language"], got["bo"]["points"], got["bo"]["out of"],
            got["bo"]["percent"]) == ("zh-Hans", "1", "3", "33")
    assert (got["bo"]["01-mate"], got["bo"]["01.01"], got["bo"]["01.02"],
            got["bo"]["01.03"]) == ("1", "0", "1", "")
    index = report.html.read_text(encoding="utf-8")
    assert index.index("By notebook") < index.index("Students") < index.index("By exercise")
    assert "Lesson 1 · Mate in one" in index and "White to move: mate in one." in index
    assert "Ra7 ×1" in index  # the most common wrong answers are named
    page = (report.html.parent / "students" / "bo.html").read_text(encoding="utf-8")
    assert 'lang="zh-Hans"' in page and "你得了1分，满分3分" in page and "第1课 · 一步杀" in page


def test_dangerous_code_is_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    write(tmp_path / "subs" / "eve" / "01-mate.ipynb", notebook(
        f"import os\nos.system('touch {marker}')", "while True:\n    pass",
        "%%bash\nrm -rf /", "!rm -rf ~\nck.answer('01.01', 'Ra8#')",
        "if True:\n    %time 1\nck.answer('01.03', 'Rd1#')"))
    grading.grade([tmp_path / "subs"], out=tmp_path / "out")
    assert not marker.exists()
    assert marks(tmp_path / "out")["eve"] == {"01.01": ("correct", "Ra8#"),
                                             "01.03": ("correct", "Rd1#")}


def test_last_answer_counts_expressions_are_not_gradable_and_others_are_ignored(
        tmp_path: Path) -> None:
    write(tmp_path / "subs" / "cy" / "01-mate.ipynb", notebook(
        'ck.answer("01.02", "Qh8#")', 'ck.answer("01.01", "Ra8#")', 'ck.answer("01.02", "Qh3")',
        'move = "Ra8#"\nck.answer("01.03", move)', "from chesskit import answer as a\n"
        "a('02.02', ['Rd8+'])", 'ck.answer("99.99", "e4")',
        "this is ( not python\nck.answer('01.01', 'Ra7')"))
    report = grading.grade([tmp_path / "subs"], out=tmp_path / "out")
    got = marks(tmp_path / "out")["cy"]
    assert got["01.02"] == ("wrong", "Qh3")
    assert got["01.01"] == ("wrong", "Ra7")
    assert got["01.03"][0] == "not_gradable"
    assert "02.02" not in got  # lesson 2 is not what 01-mate.ipynb is graded on
    ignored = [p for _, p in report.problems]
    assert ignored == ["2 answers were ignored because their exercises are not in the "
                       "assignment: 02.02, 99.99."]
    assert "02.02, 99.99" in by_student(tmp_path / "out")["cy"]["problems"]
    assert "02.02, 99.99" in report.html.read_text(encoding="utf-8")


def test_broken_files_are_reported_and_the_batch_goes_on(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    write(subs / "ana" / "01-mate.ipynb", '{"cells": [')
    write(subs / "ana" / "notes.txt", "hello")
    write(subs / "bo" / "01-mate.ipynb", '{"just": "json"}')
    write(subs / "cy" / "01-mate.ipynb", answers({"01.01": "Ra8#"}))
    write(subs / "stray.txt", "?")
    report = grading.grade([subs], out=tmp_path / "out")
    assert report.students == ("ana", "bo", "cy")
    problems = report.problems
    assert ("ana", "The file notes.txt is not a notebook (.ipynb file).") in problems
    assert any(w == "ana" and "01-mate.ipynb is broken" in p for w, p in problems)
    assert ("bo", "The file 01-mate.ipynb is not a notebook (.ipynb file).") in problems
    assert "stray.txt" in dict(problems)
    assert marks(tmp_path / "out")["cy"]["01.01"][0] == "correct"
    table = rows(tmp_path / "out")
    assert any(r["student"] == "(class note)" and "stray.txt" in r["problems"] for r in table)
    assert "stray.txt" in report.html.read_text(encoding="utf-8")


def test_zip_from_an_lms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("Ana Li_123_assignsubmission/01-mate.ipynb",
                    notebook('ck.answer("01.01", "Ra8#")'))
        zf.writestr("Bo/01-mate.ipynb", notebook('ck.answer("01.01", "Ra7")'))
        zf.writestr("Bo/../../evil.ipynb", "{}")
        zf.writestr("../escape.ipynb", "{}")
        zf.writestr("/etc/passwd.ipynb", "{}")
        zf.writestr("__MACOSX/Bo/._01-mate.ipynb", "junk")
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


def test_a_classmate_cannot_change_anyone_s_score(tmp_path: Path) -> None:
    """The denominator is the assignment's: answering every id, or handing in every lesson's
    notebook, changes nobody else's score."""
    subs = tmp_path / "subs"
    write(subs / "ana" / "01-mate.ipynb", answers(RIGHT_1))
    write(subs / "bo" / "01-mate.ipynb", answers({"01.01": "Ra7"}))
    alone = by_student(grading.grade([subs], out=tmp_path / "alone").csv.parent)["ana"]
    every = {e.id: "" for e in _teacher_fakes.bank()}
    for name in ("01-mate", "02-fork"):
        write(subs / "eve" / f"{name}.ipynb", answers(every))
    report = grading.grade([subs], out=tmp_path / "out")
    with_eve = by_student(tmp_path / "out")["ana"]
    assert (with_eve["points"], with_eve["out of"]) == (alone["points"], alone["out of"])
    assert (alone["points"], alone["out of"]) == ("3", "3")
    assert report.notes == ("The notebook 02-fork was handed in by 1 of 3 students, so it does "
                            "not count in the scores. Give --assignment to count it.",)


def test_real_bank_answering_all_1027_ids_changes_no_classmate(tmp_path: Path) -> None:
    ids = [e.id for e in catalog.bank()]
    assert len(ids) >= 1000
    first = grading.course_default().parts[1]
    subs = tmp_path / "subs"
    right = {i: catalog.exercise(i).solutions()[0] for i in first.ids}
    write(subs / "ana" / f"{first.name}.ipynb", answers(right))
    alone = by_student(grading.grade([subs], out=tmp_path / "a", jobs=1).csv.parent)["ana"]
    write(subs / "eve" / f"{first.name}.ipynb", answers({i: "" for i in ids}))
    report = grading.grade([subs], out=tmp_path / "b", jobs=1)
    assert by_student(tmp_path / "b")["ana"]["out of"] == alone["out of"] == str(len(first.ids))
    assert by_student(tmp_path / "b")["ana"]["points"] == alone["points"] == alone["out of"]
    assert len(report.exercises) == len(first.ids)


def test_everyone_gets_a_row_even_with_nothing_handed_in(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    subs = tmp_path / "subs"
    write(subs / "ana" / "01-mate.ipynb", answers(RIGHT_1))
    write(subs / "ana" / "02-fork.ipynb", answers(RIGHT_2))
    write(subs / "bo" / "01-mate.ipynb", answers({"01.01": "Ra8#"}))
    write(subs / "bo" / "02-fork.ipynb", answers({"02.01": "Qxf7#"}))
    write(subs / "cy" / "01-mate.ipynb", answers({"01.01": "Ra8#"}))
    real = grading.collect

    def with_empty(paths: object, **kwargs: object) -> object:
        found, loose = real(paths, **kwargs)  # type: ignore[arg-type]
        return [*found, grading.Submission("dan")], loose  # what intake gives an empty folder

    monkeypatch.setattr(grading, "collect", with_empty)
    report = grading.grade([subs], out=tmp_path / "out")
    assert report.students == ("ana", "bo", "cy", "dan")
    got = by_student(tmp_path / "out")
    assert (got["dan"]["points"], got["dan"]["out of"], got["dan"]["percent"]) == ("0", "5", "0")
    assert got["dan"]["not handed in"] == "01-mate 02-fork"
    assert got["cy"]["not handed in"] == "02-fork" and got["cy"]["02-fork"] == "0"
    assert ("dan", "No notebook was handed in.") in report.problems
    index = report.html.read_text(encoding="utf-8")
    assert "cy, dan" in index  # not handed in, named under the notebook
    page = (report.html.parent / "students" / "dan.html").read_text(encoding="utf-8")
    assert page.count("Not handed in") == 2


def test_regrading_is_idempotent(tmp_path: Path) -> None:
    write(tmp_path / "subs" / "ana" / "01-mate.ipynb", answers({"01.01": "Ra8#"}))
    first = grading.grade([tmp_path / "subs"], out=tmp_path / "out")
    again = grading.grade([tmp_path / "subs"], out=tmp_path / "out")
    assert again.unchanged == ("ana",) and first.students == again.students
    write(tmp_path / "subs" / "ana" / "01-mate.ipynb", answers({"01.01": "Ra7"}))
    third = grading.grade([tmp_path / "subs"], out=tmp_path / "out")
    assert third.unchanged == ()
    assert marks(tmp_path / "out") == {"ana": {"01.01": ("wrong", "Ra7")}}


def test_regrading_one_student_or_one_notebook_touches_nobody_else(tmp_path: Path) -> None:
    subs, out = tmp_path / "class", tmp_path / "out"
    for who in ("Ana", "Bo"):
        write(subs / who / "01-mate.ipynb", answers({"01.01": "Ra7"}))
        write(subs / who / "02-fork.ipynb", answers({"02.02": "Re2+"}))
    grading.grade([subs], out=out)
    write(subs / "Ana" / "01-mate.ipynb", answers(RIGHT_1))
    write(subs / "Bo" / "01-mate.ipynb", answers(RIGHT_1))  # changed, but not re-graded
    report = grading.grade([subs / "Ana"], out=out)
    assert report.students == ("Ana", "Bo")
    assert marks(out)["Ana"]["01.03"] == ("correct", "Rd1#")
    assert "01.03" not in marks(out)["Bo"]
    assert "02.02" in marks(out)["Ana"]  # her other notebook is still graded
    again = grading.grade([subs / "Bo" / "01-mate.ipynb"], out=out)
    assert again.students == ("Ana", "Bo") and marks(out)["Bo"]["01.03"][0] == "correct"


def test_remove_and_rename(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for who in ("ana", "bo", "cy"):
        write(tmp_path / "s" / who / "01-mate.ipynb", answers({"01.01": "Ra8#"}))
    out = tmp_path / "out"
    grading.grade([tmp_path / "s"], out=out)
    assert grading.main(["--out", str(out), "--remove", "bo"]) == 0
    assert grading.main(["--out", str(out), "--rename", "cy", "Cy Wang"]) == 0
    assert sorted(by_student(out)) == ["Cy Wang", "ana"]
    assert not (out / "report" / "students" / "bo.html").exists()
    assert (out / "report" / "students" / "Cy Wang.html").exists()
    assert "Removed bo" in capsys.readouterr().out

    assert grading.main(["--out", str(out), "--remove", "nobody"]) == 0  # idempotent
    assert "no student nobody in the gradebook" in capsys.readouterr().out
    with pytest.raises(GradingError, match="another student"):
        grading.main(["--out", str(out), "--rename", "ana", "Cy Wang"])


def test_an_old_gradebook_is_migrated(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    with sqlite3.connect(out / "gradebook.sqlite") as db:
        db.executescript("""
            CREATE TABLE students (student TEXT PRIMARY KEY, lang TEXT NOT NULL,
                                   digest TEXT NOT NULL);
            CREATE TABLE marks (student TEXT NOT NULL, exercise_id TEXT NOT NULL,
                answer TEXT NOT NULL, correct INTEGER NOT NULL, code TEXT NOT NULL,
                message TEXT NOT NULL, origin TEXT NOT NULL, PRIMARY KEY (student, exercise_id));
            CREATE TABLE problems (student TEXT NOT NULL, seq INTEGER NOT NULL,
                message TEXT NOT NULL, PRIMARY KEY (student, seq));
            INSERT INTO students VALUES ('old', 'en', 'x');
            INSERT INTO marks VALUES ('old', '01.01', 'Ra8#', 1, 'correct', 'Yes', 'code');
        """)
    with Gradebook(out / "gradebook.sqlite") as book:
        [old] = book.results()
        assert old.marks[0].share == 1.0 and book.setting("schema") == "2"
    write(tmp_path / "s" / "ana" / "01-mate.ipynb", answers({"01.01": "Ra8#"}))
    report = grading.grade([tmp_path / "s"], out=out)
    assert report.students == ("ana", "old")


def test_an_assignment_file_points_partial_credit_and_due_date(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bank = tmp_path / "bank"
    shutil.copytree(_teacher_fakes.FOLDER, bank)
    (bank / "03-extra.toml").write_text(EXTRA_LESSON, encoding="utf-8")
    monkeypatch.setattr(catalog, "bank_dir", lambda: bank)
    board = chess.Board("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1")
    assert "Ra7" in [board.san(m) for m in search.mate_in(board, 2)]
    assert not search.mate_in(board, 1)
    assert not search.forces_mate(board, board.parse_san("Rb8+"), 2)
    spec = write(tmp_path / "hw.toml", 'title = "Week 3"\nnotebook = "hw.ipynb"\n'
                 'ids = ["01.01", "03.01", "03.02"]\npoints = 2\ndue = 2026-03-09T08:00:00\n'
                 '[points_for]\n"03.01" = 4\n')
    due = time.mktime((2026, 3, 9, 8, 0, 0, 0, 0, -1))
    subs = tmp_path / "subs"
    write(subs / "ana" / "hw.ipynb", answers(
        {"01.01": "Ra8#", "03.01": "1. Ra7 Kg8 2. Rbb7",  # key move right: half
         "03.02": "d1 d2 d3 d5 d6 d7 d8 a4 b4 c4 e4 f4 g4", "02.01": "Qxf7#"}))  # most: half
    write(subs / "bo" / "homework (1).ipynb", answers({"03.02": "d1 d2 h8", "01.01": "Ra7",
                                                                "03.01": "1. Rb8+ Kg7"}))
    write(subs / "cy" / "hw.ipynb", answers({"01.01": "Ra8#"},
                                            meta={"chesskit": {"saved": due - 60}}))
    os.utime(subs / "ana" / "hw.ipynb", (due + 3600, due + 3600))
    os.utime(subs / "bo" / "homework (1).ipynb", (due - 3600, due - 3600))
    os.utime(subs / "cy" / "hw.ipynb", (due + 3600, due + 3600))  # metadata wins: on time
    report = grading.grade([subs], out=tmp_path / "out", assignment=spec)
    assert report.exercises == ("01.01", "03.01", "03.02")
    got = by_student(tmp_path / "out")
    assert (got["ana"]["points"], got["ana"]["out of"]) == ("5", "8")  # 2 + 4/2 + 2/2
    assert (got["ana"]["03.01"], got["ana"]["03.02"]) == ("2", "1")
    assert got["bo"]["points"] == "0" and got["bo"]["late"] == ""
    assert got["ana"]["late"] == "hw" and got["cy"]["late"] == ""
    assert any(w == "ana" and "02.01" in p for w, p in report.problems)
    lms = rows(tmp_path / "out", "lms-grades.csv")
    assert lms[0] == {"Student": "ana", "ID": "ana", "Week 3 (8)": "5"}
    again = grading.grade([subs / "bo"], out=tmp_path / "out")  # the assignment is remembered
    assert again.exercises == ("01.01", "03.01", "03.02")


def test_answers_are_stored_capped(tmp_path: Path) -> None:
    write(tmp_path / "s" / "ana" / "01-mate.ipynb", answers({"01.01": "x" * 100_000}))
    grading.grade([tmp_path / "s"], out=tmp_path / "out")
    code, answer = marks(tmp_path / "out")["ana"]["01.01"]
    assert len(answer) <= grading.MAX_SHOWN
    page = (tmp_path / "out" / "report" / "students" / "ana.html").read_text(encoding="utf-8")
    assert len(page) < 20_000


def test_board_answers_fill_empty_cells_and_show_solution_is_reported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grading, "_board_answers", lambda nb: [
        grading.Found("01.01", "Ra8#", "board"),
        grading.Found("01.02", "Qa1", "board"),
        grading.Found("01.03", "Rd1#", "board", after_solution=True)])
    write(tmp_path / "s" / "ana" / "01-mate.ipynb", answers({"01.01": "", "01.02": "Qh8#"}))
    report = grading.grade([tmp_path / "s"], out=tmp_path / "out")
    assert marks(tmp_path / "out")["ana"] == {"01.01": ("correct", "Ra8#"),
                                             "01.02": ("correct", "Qh8#"),
                                             "01.03": ("correct", "Rd1#")}
    assert by_student(tmp_path / "out")["ana"]["after solution"] == "1"
    page = (report.html.parent / "students" / "ana.html").read_text(encoding="utf-8")
    assert 'after "Show solution"' in page.replace("&quot;", '"')
    assert '1 after "Show solution"' in report.html.read_text(encoding="utf-8").replace(
        "&quot;", '"')


def test_two_processes_grade_like_one(tmp_path: Path) -> None:
    wrong = ["Ra7", "Rb8", "", "Kf1", "nonsense", "Ra8"]
    for i in range(8):
        write(tmp_path / "s" / f"s{i}" / "01-mate.ipynb",
              answers({"01.01": wrong[i % len(wrong)], "01.02": "Qh8#"}))
    grading.grade([tmp_path / "s"], out=tmp_path / "one", jobs=1)
    grading.grade([tmp_path / "s"], out=tmp_path / "two", jobs=2)
    assert (tmp_path / "one" / "grades.csv").read_bytes() == \
        (tmp_path / "two" / "grades.csv").read_bytes()
    assert marks(tmp_path / "one") == marks(tmp_path / "two")


def test_csv_is_formula_safe_and_chinese_report_reads_in_chinese(tmp_path: Path) -> None:
    write(tmp_path / "s" / "=cmd" / "01-mate.ipynb", answers({"01.01": "Ra8#"}))
    write(tmp_path / "s" / "王小明" / "01-mate.ipynb", answers({"01.01": "Ra7"}, lang="zh-Hans"))
    report = grading.grade([tmp_path / "s"], out=tmp_path / "out", lang="zh-Hans")
    text = (tmp_path / "out" / "grades.csv").read_text(encoding="utf-8-sig")
    assert "'=cmd" in text and "\n=cmd" not in text
    lms = (tmp_path / "out" / "lms-grades.csv").read_text(encoding="utf-8-sig")
    assert "'=cmd" in lms
    index = report.html.read_text(encoding="utf-8")
    assert 'lang="zh-Hans"' in index and "按笔记本" in index and "需要帮助" in index
    assert "By notebook" not in index and "Needs help" not in index
    assert "word-break:keep-all" in index  # no one-character-per-line cells


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path / "s" / "ana" / "01-mate.ipynb", answers({"01.01": "Ra8#"}))
    write(tmp_path / "s" / "bo" / "01-mate.ipynb", answers({"01.01": "Ra7"}))
    assert grading.main([str(tmp_path / "s"), "--out", str(tmp_path / "o")]) == 0
    captured = capsys.readouterr()
    assert "Graded 2 students on 3 exercises; 0 problems" in captured.out
    assert "graded 2/2" in captured.err

    with pytest.raises(GradingError, match="no file or folder"):
        grading.main([str(tmp_path / "nothing"), "--out", str(tmp_path / "o2")])


def test_the_class_is_never_held_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Marks go to the gradebook student by student, and outputs are written from it one
    student at a time: the whole-class list is never built."""
    for i in range(5):
        write(tmp_path / "s" / f"s{i}" / "01-mate.ipynb", answers({"01.01": "Ra8#"}))

    def whole_class(self: Gradebook) -> list[object]:
        raise AssertionError("the whole class was loaded")

    monkeypatch.setattr(Gradebook, "results", whole_class)
    report = grading.grade([tmp_path / "s"], out=tmp_path / "out")
    assert len(report.students) == 5
