"""What learning platforms and children really hand in (issue 19): zips read by many workers,
many copies of one notebook, names that look alike, times that lie, nested zips and browser
downloads.  Every fixture is built here."""

from __future__ import annotations

import csv
import io
import json
import os
import zipfile
from pathlib import Path

import _teacher_fakes
import pytest

from chesskit import cli, rules
from chesskit.teacher import answer_reader, grading, submissions
from chesskit.teacher.assignment import course_default

RIGHT = {"01.01": "Ra8#", "01.03": "Rd1#"}


@pytest.fixture(autouse=True)
def fake_bank(monkeypatch: pytest.MonkeyPatch) -> None:
    _teacher_fakes.install(monkeypatch)
    submissions._opened.cache_clear()


def notebook(pairs: dict[str, str], *, meta: dict[str, object] | None = None,
             outputs: list[object] | None = None) -> str:
    cells: list[dict[str, object]] = [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": "import chesskit as ck\nck.set_language('en')"}]
    cells += [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
               "source": f"ck.answer({k!r}, {v!r})"} for k, v in pairs.items()]
    if outputs:
        cells.append({"cell_type": "code", "metadata": {}, "execution_count": None,
                      "source": "board", "outputs": outputs})
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": meta or {},
                       "cells": cells})


def zip_of(path: Path, entries: dict[str, str | bytes], *,
           times: dict[str, tuple[int, ...]] | None = None) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in entries.items():
            info = zipfile.ZipInfo(name, (times or {}).get(name, (2026, 3, 1, 12, 0, 0)))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, text)
    return path


def table(out: Path, name: str = "grades.csv") -> list[dict[str, str]]:
    with (out / name).open(encoding="utf-8-sig", newline="") as stream:
        return list(csv.DictReader(stream))


def by_student(out: Path) -> dict[str, dict[str, str]]:
    return {row["student"]: row for row in table(out) if row["student"] != "(class note)"}


def test_a_zip_graded_by_two_workers_ten_times_equals_one_worker(tmp_path: Path) -> None:
    entries: dict[str, str | bytes] = {}
    for n in range(20):
        pairs = RIGHT if n % 3 else {"01.01": "Ra7", "01.03": "Rd1#"}
        # long, incompressible-ish padding so that reads cross buffer boundaries
        pad = {f"pad{i}": str(hash((n, i))) * 50 for i in range(40)}
        entries[f"student{n:02d}/01-mate.ipynb"] = notebook(pairs, meta=pad)
    archive = zip_of(tmp_path / "class20.zip", entries)
    grading.grade([archive], out=tmp_path / "one", jobs=1)
    expected = (tmp_path / "one" / "grades.csv").read_text(encoding="utf-8-sig")
    assert "damaged" not in expected and len(by_student(tmp_path / "one")) == 20
    for run in range(10):
        submissions._opened.cache_clear()
        archive_reader = submissions._archive(archive)  # opened before the workers start
        assert archive_reader.infos
        grading.grade([archive], out=tmp_path / f"two{run}", jobs=2)
        got = (tmp_path / f"two{run}" / "grades.csv").read_text(encoding="utf-8-sig")
        assert got == expected, f"run {run}"


# ---------------------------------------------------------------- many copies, one rule

FULL = {"01.01": "Ra8#", "01.02": "Qh8#", "01.03": "Rd1#"}
BLANK = {"01.01": "", "01.02": "", "01.03": ""}


def points(out: Path, student: str) -> str:
    return by_student(out)[student]["points"]


def problems_of(out: Path, student: str) -> str:
    return by_student(out)[student]["problems"]


@pytest.mark.parametrize(("real", "blank", "real_newer"), [
    ("01-mate-Copy1.ipynb", "01-mate.ipynb", True),
    ("01-mate (1).ipynb", "01-mate.ipynb", True),
    ("01-mate.ipynb", "01-mate (1).ipynb", False),  # the blank is newer: still no wipe-out
    ("01-mate.ipynb", "zz-scratch.ipynb", False),
])
def test_a_blank_copy_never_wipes_out_answers(tmp_path: Path, real: str, blank: str,
                                              real_newer: bool) -> None:
    ana = tmp_path / "class" / "ana"
    ana.mkdir(parents=True)
    (ana / real).write_text(notebook(FULL), encoding="utf-8")
    (ana / blank).write_text(notebook(BLANK), encoding="utf-8")
    older, newer = (blank, real) if real_newer else (real, blank)
    os.utime(ana / older, (1_700_000_000, 1_700_000_000))
    os.utime(ana / newer, (1_700_100_000, 1_700_100_000))
    grading.grade([tmp_path / "class"], out=tmp_path / "out", jobs=1)
    assert points(tmp_path / "out", "ana") == "3"
    said = problems_of(tmp_path / "out", "ana")
    assert "2 copies of 01-mate" in said and real in said and blank in said


def test_per_exercise_the_newest_written_answer_counts_whatever_the_names(
        tmp_path: Path) -> None:
    entries: dict[str, str | bytes] = {
        # the newer copy fixes 01.01 and leaves 01.02 blank; the older has 01.02 right
        "ana/b-first-by-name.ipynb": notebook({"01.01": "Ra8#", "01.02": ""}),
        "ana/01-mate.ipynb": notebook({"01.01": "Ra7", "01.02": "Qh8#"}),
    }
    times = {"ana/b-first-by-name.ipynb": (2026, 3, 2, 12, 0, 0),
             "ana/01-mate.ipynb": (2026, 3, 1, 12, 0, 0)}
    grading.grade([zip_of(tmp_path / "c.zip", entries, times=times)], out=tmp_path / "o")
    row = by_student(tmp_path / "o")["ana"]
    assert (row["01.01"], row["01.02"]) == ("1", "1")


def test_lms_resubmissions_and_blank_extra_files(tmp_path: Path) -> None:
    entries: dict[str, str | bytes] = {
        "Ana Lee_1000_assignsubmission_file_/01-mate.ipynb": notebook(FULL),
        "Ana Lee_1000_assignsubmission_file_/01-mate (1).ipynb": notebook(BLANK),
        "bolee_2000_3000_01-mate.ipynb": notebook(FULL),
        "bolee_2000_3001_01-mate-1.ipynb": notebook(BLANK),
    }
    times = {name: (2026, 3, 1 + n, 12, 0, 0) for n, name in enumerate(entries)}
    grading.grade([zip_of(tmp_path / "lms.zip", entries, times=times)], out=tmp_path / "o")
    got = by_student(tmp_path / "o")
    assert got["Ana Lee"]["points"] == "3" and "2 copies" in got["Ana Lee"]["problems"]
    assert got["bolee_2000"]["points"] == "3" and "2 copies" in got["bolee_2000"]["problems"]


def test_google_classroom_names(tmp_path: Path) -> None:
    entries: dict[str, str | bytes] = {
        "Homework/Ana Lee - 01-mate.ipynb": notebook(FULL),
        "Homework/Ana Lee - 01-mate (1).ipynb": notebook(BLANK),  # a classmate's blank, newer
        "Homework/Mary - Jane Smith - 01-mate.ipynb": notebook(FULL),
        "Homework/Mary - Ann Jones - 01-mate.ipynb": notebook({"01.01": "Ra8#"}),
    }
    times = {"Homework/Ana Lee - 01-mate (1).ipynb": (2026, 3, 5, 12, 0, 0)}
    grading.grade([zip_of(tmp_path / "drive.zip", entries, times=times)], out=tmp_path / "o")
    got = by_student(tmp_path / "o")
    assert sorted(got) == ["Ana Lee", "Mary - Ann Jones", "Mary - Jane Smith"]
    assert got["Ana Lee"]["points"] == "3" and "Ana Lee - 01-mate (1).ipynb" in got[
        "Ana Lee"]["problems"]
    assert (got["Mary - Jane Smith"]["points"], got["Mary - Ann Jones"]["points"]) == ("3", "1")


def test_names_that_look_alike_are_kept_apart_and_flagged(tmp_path: Path) -> None:
    spellings = ["Ana", "Ana ", "Ana\u200b", "Ana\u00a0"]
    for n, name in enumerate(spellings):
        folder = tmp_path / "class" / name
        folder.mkdir(parents=True)
        (folder / "01-mate.ipynb").write_text(
            notebook(FULL if n == 0 else BLANK), encoding="utf-8")
    folder = tmp_path / "class" / "(class note)"
    folder.mkdir()
    (folder / "01-mate.ipynb").write_text(notebook(FULL), encoding="utf-8")
    grading.grade([tmp_path / "class"], out=tmp_path / "o")
    got = by_student(tmp_path / "o")
    assert len(got) == 5 and got["Ana"]["points"] == "3"
    lookalikes = [s for s in got if s.startswith("Ana")]
    assert len(lookalikes) == 4 and all("kept apart" in got[s]["problems"] for s in lookalikes)
    (escaped,) = [s for s in got if s.startswith("_(class note)")]
    assert got[escaped]["points"] == "3" and "stored as" in got[escaped]["problems"]
    again = grading.grade([tmp_path / "class"], out=tmp_path / "o")  # a re-grade: same rows
    assert len(again.unchanged) == 5 and len(by_student(tmp_path / "o")) == 5


def test_one_lms_id_under_two_spellings_is_one_student(tmp_path: Path) -> None:
    entries: dict[str, str | bytes] = {
        "Ana Lee_1000_assignsubmission_file_/01-mate.ipynb": notebook({"01.01": "Ra8#"}),
        "Ana Lee \u200b_1000_assignsubmission_file_/01-mate (1).ipynb": notebook(
            {"01.02": "Qh8#"}),
    }
    grading.grade([zip_of(tmp_path / "m.zip", entries)], out=tmp_path / "o")
    got = by_student(tmp_path / "o")
    assert list(got) == ["Ana Lee"] and got["Ana Lee"]["points"] == "2"
    assert "one id" in got["Ana Lee"]["problems"]


# ---------------------------------------------------------------- time you can trust

@pytest.mark.parametrize("saved", ["2020-01-01T00:00:00Z", float("nan"), -1e300,
                                   "0001-01-01T00:00:00Z", "2999-01-01T00:00:00Z", "soon"])
def test_late_work_cannot_hide_behind_a_forged_saved_time(tmp_path: Path,
                                                          saved: object) -> None:
    spec = tmp_path / "hw.toml"
    spec.write_text('lessons = [1]\ndue = 2026-03-09T08:00:00\n', encoding="utf-8")
    book = tmp_path / "class" / "ana" / "01-mate.ipynb"
    book.parent.mkdir(parents=True)
    book.write_text(notebook(FULL, meta={"chesskit": {"saved": saved}}), encoding="utf-8")
    late = grading.dt.datetime(2026, 3, 10, 9, 0).timestamp()
    os.utime(book, (late, late))
    grading.grade([tmp_path / "class"], out=tmp_path / "o", assignment=spec)
    row = by_student(tmp_path / "o")["ana"]
    assert row["late"] == "01-mate" and row["points"] == "3"
    assert "cannot be right" in row["problems"] and "2026-03-10 09:00" in row["problems"]


def test_a_zip_entry_time_decides_and_a_plausible_saved_time_is_kept(tmp_path: Path) -> None:
    spec = tmp_path / "hw.toml"
    spec.write_text('lessons = [1]\ndue = 2026-03-09T08:00:00\n', encoding="utf-8")
    entries: dict[str, str | bytes] = {
        "late/01-mate.ipynb": notebook(FULL),
        "ontime/01-mate.ipynb": notebook(FULL),
        # copied an hour after the due time, saved a minute before it: on time
        "copied/01-mate.ipynb": notebook(FULL, meta={"chesskit": {
            "saved": "2026-03-09T07:59:00"}}),
    }
    times = {"late/01-mate.ipynb": (2026, 3, 9, 9, 0, 0),
             "ontime/01-mate.ipynb": (2026, 3, 9, 7, 0, 0),
             "copied/01-mate.ipynb": (2026, 3, 9, 9, 0, 0)}
    grading.grade([zip_of(tmp_path / "c.zip", entries, times=times)], out=tmp_path / "o",
                  assignment=spec)
    got = by_student(tmp_path / "o")
    assert [got[s]["late"] for s in ("late", "ontime", "copied")] == ["01-mate", "", ""]
    assert "the saved time was used" in got["copied"]["problems"]


# ---------------------------------------------------------------- nested zips, browser downloads

def test_a_zip_inside_the_lms_zip_is_graded_one_level_deep(tmp_path: Path) -> None:
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as archive:
        archive.writestr("01-mate.ipynb", notebook(FULL))
    deeper = io.BytesIO()
    with zipfile.ZipFile(deeper, "w") as archive:
        archive.writestr("deep.zip", inner.getvalue())
    entries: dict[str, str | bytes] = {"ana.zip": inner.getvalue(),
                                       "bo/01-mate.ipynb": notebook({"01.01": "Ra8#"}),
                                       "cy/work.zip": deeper.getvalue(),
                                       "dee.zip": b"not a zip at all"}
    grading.grade([zip_of(tmp_path / "lms.zip", entries)], out=tmp_path / "o", jobs=2)
    got = by_student(tmp_path / "o")
    assert (got["ana"]["points"], got["bo"]["points"]) == ("3", "1")
    assert "deep.zip" in got["cy"]["problems"] and "dee.zip" in got["dee"]["problems"]


def test_browser_course_downloads_map_to_their_lesson(tmp_path: Path) -> None:
    download = "exercises_en_01-mate.ipynb"
    (tmp_path / "class" / "ada").mkdir(parents=True)
    (tmp_path / "class" / "ada" / download).write_text(notebook(FULL), encoding="utf-8")
    (tmp_path / "class" / "ben").mkdir()
    (tmp_path / "class" / "ben" / f"files_exercises_zh-Hans_{download[13:]}").write_text(
        notebook({"01.01": "Ra8#"}), encoding="utf-8")
    (tmp_path / "class" / "dana.ipynb").write_text(notebook(FULL), encoding="utf-8")
    report = grading.grade([tmp_path / "class"], out=tmp_path / "o")
    assert report.exercises == ("01.01", "01.02", "01.03")
    got = by_student(tmp_path / "o")
    assert [got[s]["points"] for s in ("ada", "ben", "dana")] == ["3", "1", "3"]


def test_real_bank_browser_download_name_is_its_lesson(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()  # the course's own bank
    part = course_default().part_of("exercises_en_06-check-and-mate.ipynb")
    assert part is not None and part.name == "06-check-and-mate"


# ---------------------------------------------------------------- board answers, memory

ANSWER = "application/vnd.chesskit.answer+json"


def board(exercise_id: str, answer: str, after: object = False) -> dict[str, object]:
    return {"output_type": "display_data", "metadata": {}, "data": {ANSWER: {
        "exercise_id": exercise_id, "answer": answer, "after_solution": after}}}


def test_a_forged_later_false_never_hides_show_solution(tmp_path: Path) -> None:
    outputs = [board("01.01", "Ra8#", True), board("01.01", "Ra8#", False),
               board("01.02", "Qh8#", "true"), board("01.03", "Rd1#", 1)]
    book = tmp_path / "c" / "ana" / "01-mate.ipynb"
    book.parent.mkdir(parents=True)
    book.write_text(notebook({}, outputs=outputs), encoding="utf-8")
    grading.grade([tmp_path / "c"], out=tmp_path / "o")
    row = by_student(tmp_path / "o")["ana"]
    assert row["points"] == "3" and row["after solution"] == "3"


def test_one_output_nested_deep_hides_no_other_answer(tmp_path: Path) -> None:
    deep_text = "[" * 100_000 + "]" * 100_000  # a JSON text inside the output
    outputs: list[object] = [board("01.01", "Ra8#"),
                             {"output_type": "display_data", "data": {ANSWER: deep_text}},
                             board("01.02", "Qh8#")]
    text = notebook({"01.03": "Rd1#"}, outputs=outputs)
    # and one output nested 100k deep in the notebook's own JSON
    text = text.replace('"outputs": [{', '"outputs": [' + "[" * 100_000 + "]" * 100_000
                        + ', {', 1)
    book = tmp_path / "c" / "ana" / "01-mate.ipynb"
    book.parent.mkdir(parents=True)
    book.write_text(text, encoding="utf-8")
    grading.grade([tmp_path / "c"], out=tmp_path / "o")
    assert points(tmp_path / "o", "ana") == "3"


def test_a_notebook_of_340k_cells_is_refused_with_a_note_not_read(tmp_path: Path) -> None:
    cell = json.dumps({"cell_type": "code", "metadata": {}, "outputs": [],
                       "execution_count": None, "source": "ck.answer('01.01', 'Ra8#')"})
    text = '{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [' + ",".join(
        [cell] * 150_000) + "]}"
    book = tmp_path / "c" / "ana" / "01-mate.ipynb"
    book.parent.mkdir(parents=True)
    book.write_text(text, encoding="utf-8")
    (tmp_path / "c" / "bo").mkdir()
    (tmp_path / "c" / "bo" / "01-mate.ipynb").write_text(notebook(FULL), encoding="utf-8")
    grading.grade([tmp_path / "c"], out=tmp_path / "o")
    got = by_student(tmp_path / "o")
    assert "pieces of data" in got["ana"]["problems"] and got["bo"]["points"] == "3"


def test_an_unexpected_error_is_logged_and_said_never_a_silent_zero(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:

    def broken(notebook: object) -> list[object]:
        raise KeyError("a bug in the grader")

    monkeypatch.setattr(grading, "_board_answers", broken)
    for who in ("ana", "bo"):
        (tmp_path / "c" / who).mkdir(parents=True)
        (tmp_path / "c" / who / "01-mate.ipynb").write_text(notebook(FULL), encoding="utf-8")
    grading.grade([tmp_path / "c"], out=tmp_path / "o", jobs=1)
    row = by_student(tmp_path / "o")["ana"]
    assert "unexpected problem" in row["problems"] and "damaged" not in row["problems"]
    log = (tmp_path / "o" / "grading.log").read_text(encoding="utf-8")
    assert "Traceback" in log and "a bug in the grader" in log and "ana" in log
    assert answer_reader  # the reader itself is untouched


def test_the_check_cache_follows_the_checking_code(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    first = grading._bank_fingerprint()
    extra = Path(rules.__file__).parent / "_fingerprint_probe.py"
    try:
        extra.write_text("# a change to the checking code\n", encoding="utf-8")
        assert grading._bank_fingerprint() != first
    finally:
        extra.unlink()
    assert grading._bank_fingerprint() == first


# ---------------------------------------------------------------- spreadsheets, gradebook

def test_a_student_with_5000_stray_files_gets_a_capped_cell_and_a_full_page(
        tmp_path: Path) -> None:
    entries: dict[str, str | bytes] = {f"ana/stray{n:04d}.txt": "?" for n in range(5000)}
    entries["ana/01-mate.ipynb"] = notebook(FULL)
    entries["=cmd|' /C calc'!A0/01-mate.ipynb"] = notebook(FULL)
    grading.grade([zip_of(tmp_path / "c.zip", entries)], out=tmp_path / "o")
    text = (tmp_path / "o" / "grades.csv").read_text(encoding="utf-8-sig")
    rows = table(tmp_path / "o")
    assert all(len(cell) <= 32_767 for row in rows for cell in row.values())
    ana = by_student(tmp_path / "o")["ana"]
    assert ana["points"] == "3" and ana["problems"].startswith("5000 problems")
    assert len(ana["problems"]) <= 1_000
    page = (tmp_path / "o" / "report" / "students" / "ana.html").read_text(encoding="utf-8")
    assert page.count("<li>") == 5000
    assert "\n=" not in text and ",=" not in text and "'=cmd" in text


def test_rename_then_regrade_keeps_one_row_and_remove_twice_is_idempotent(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for who in ("Ana", "Dev"):
        (tmp_path / "class" / who).mkdir(parents=True)
        (tmp_path / "class" / who / "01-mate.ipynb").write_text(notebook(FULL),
                                                                encoding="utf-8")
    out = tmp_path / "o"
    grading.grade([tmp_path / "class"], out=out)
    assert cli.main(["grade", "--out", str(out), "--rename", "Ana", "=1+1"]) == 0
    grading.grade([tmp_path / "class" / "Ana"], out=out)
    grading.grade([tmp_path / "class"], out=out)
    assert sorted(by_student(out)) == ["'=1+1", "Dev"]  # one row for Ana, neutralised
    assert cli.main(["grade", "--out", str(out), "--remove", "Dev", "--remove", "Dev"]) == 0
    assert "Dev" not in " ".join(by_student(out))
    assert not (out / "report" / "students" / "Dev.html").exists()
    assert cli.main(["grade", "--out", str(out), "--remove", "Dev"]) == 0
