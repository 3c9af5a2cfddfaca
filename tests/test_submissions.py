"""Finding students and their files: nothing a class hands in stops, hangs or hides a student."""

from __future__ import annotations

import json
import os
import socket
import stat
import struct
import threading
import time
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import _teacher_fakes
import pytest

from chesskit.teacher import grading, submissions
from chesskit.teacher.assignment import Assignment, Part
from chesskit.teacher.submissions import Submission, collect

T = TypeVar("T")
Read = dict[str, bytes | str]


def notebook(*sources: str) -> str:
    cells: list[dict[str, object]] = [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": s} for s in ("import chesskit as ck", *sources)]
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells})


def write(path: Path, text: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text or notebook('ck.answer("01.01", "Ra8#")'), encoding="utf-8")
    return path


def by_student(found: list[Submission]) -> dict[str, Submission]:
    return {s.student: s for s in found}


def contents(submission: Submission) -> Read:
    return {name: submissions._load(stored) for name, stored in submission.files}


def zip_with(path: Path, entries: dict[str, str], *, deflate: bool = False) -> Path:
    method = zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED
    with zipfile.ZipFile(path, "w", method) as archive:
        for name, text in entries.items():
            archive.writestr(name, text)
    return path


def rename_in_zip(path: Path, placeholder: str, raw: bytes) -> None:
    """Put raw name bytes in place of an ASCII placeholder of the same length, as a zip tool
    that writes no UTF-8 flag does (zipfile itself always flags non-ASCII names)."""
    assert len(placeholder.encode()) == len(raw)
    path.write_bytes(path.read_bytes().replace(placeholder.encode(), raw))


@pytest.fixture(autouse=True)
def fresh_archives() -> None:
    submissions._opened.cache_clear()


# ---------------------------------------------------------------- bad input, one student each

def test_corrupt_deflate_entry_is_that_students_problem(tmp_path: Path) -> None:
    archive = zip_with(tmp_path / "class.zip", {"Ana/01-mate.ipynb": notebook("x = 1" * 500),
                                                "Bo/01-mate.ipynb": notebook()}, deflate=True)
    with zipfile.ZipFile(archive) as zf:
        info = zf.getinfo("Ana/01-mate.ipynb")
    data = bytearray(archive.read_bytes())
    start = info.header_offset + 30 + len(info.filename)
    start += struct.unpack_from("<H", data, info.header_offset + 28)[0]
    data[start] = 0x07  # a final block of the reserved type 3: zlib.error "invalid block type"
    archive.write_bytes(bytes(data))
    found = by_student(collect([archive])[0])
    assert contents(found["Ana"]) == {"01-mate.ipynb": "damaged"}
    assert isinstance(contents(found["Bo"])["01-mate.ipynb"], bytes)


def _finishes(action: Callable[[], T], *, limit: float = 60.0) -> T:
    """Run ``action`` in a thread; fail (instead of hanging the suite) if it blocks."""
    result: list[T] = []
    worker = threading.Thread(target=lambda: result.append(action()), daemon=True)
    worker.start()
    worker.join(limit)
    assert not worker.is_alive(), "blocked on a special file"
    return result[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_never_blocks(tmp_path: Path) -> None:
    write(tmp_path / "class" / "Ana" / "01-mate.ipynb")
    (tmp_path / "class" / "Bo").mkdir()
    os.mkfifo(tmp_path / "class" / "Bo" / "07-castling.ipynb")
    os.mkfifo(tmp_path / "class" / "cy.ipynb")

    def everything() -> tuple[list[Submission], list[tuple[str, str]], list[Read]]:
        found, loose = collect([tmp_path / "class", tmp_path / "class" / "cy.ipynb"])
        return found, loose, [contents(s) for s in found]

    found, loose, read = _finishes(everything)
    students = by_student(found)
    assert sorted(students) == ["Ana", "Bo", "cy"]
    assert students["Bo"].files == ()
    assert "not an ordinary file" in students["Bo"].problems[0]
    assert any("not an ordinary file" in p for p in students["cy"].problems) or any(
        "not an ordinary file" in p for _, p in loose)
    # a file that turns into a FIFO after it was listed is refused when read, without waiting
    os.remove(tmp_path / "class" / "Ana" / "01-mate.ipynb")
    os.mkfifo(tmp_path / "class" / "Ana" / "01-mate.ipynb")
    assert _finishes(lambda: contents(students["Ana"])) == {"01-mate.ipynb": "unreadable"}


def test_sockets_devices_and_special_zip_entries(tmp_path: Path) -> None:
    folder = tmp_path / "class" / "Ana"
    write(folder / "01-mate.ipynb")
    if hasattr(socket, "AF_UNIX"):
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(folder / "02-forks.ipynb"))
        server.close()
    with_device = True
    try:
        os.mknod(folder / "03-tty.ipynb", stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except (PermissionError, AttributeError, OSError):
        with_device = False
    archive = tmp_path / "class.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        device = zipfile.ZipInfo("Bo/07-castling.ipynb")
        device.create_system = 3
        device.external_attr = (stat.S_IFCHR | 0o600) << 16
        zf.writestr(device, "")
        zf.writestr("Bo/01-mate.ipynb", notebook())
    found = by_student(_finishes(lambda: collect([tmp_path / "class", archive])[0]))
    assert [n for n, _ in found["Ana"].files] == ["01-mate.ipynb"]
    special = [p for p in found["Ana"].problems if "not an ordinary file" in p]
    assert len(special) == int(hasattr(socket, "AF_UNIX")) + int(with_device)
    assert [n for n, _ in found["Bo"].files] == ["01-mate.ipynb"]
    assert "07-castling.ipynb is not an ordinary file" in found["Bo"].problems[0]


def test_links_are_never_followed_and_their_owner_still_gets_a_row(tmp_path: Path) -> None:
    secret = write(tmp_path / "secret" / "01-mate.ipynb")
    cls = tmp_path / "class"
    write(cls / "Ana" / "01-mate.ipynb")
    (cls / "Ana" / "02-forks.ipynb").symlink_to(secret)
    (cls / "Ana" / "more").symlink_to(secret.parent, target_is_directory=True)
    (cls / "Bo").symlink_to(secret.parent, target_is_directory=True)
    (cls / "Cy").mkdir()
    (cls / "Cy" / "07-castling.ipynb").symlink_to(secret)
    found, loose = collect([cls])
    students = by_student(found)
    assert [n for n, _ in students["Ana"].files] == ["01-mate.ipynb"]
    assert sum("is a link" in p for p in students["Ana"].problems) == 2
    assert students["Bo"].files == () and "is a link" in students["Bo"].problems[0]
    assert students["Cy"].files == () and "is a link" in students["Cy"].problems[0]
    assert loose == []


def test_students_who_hand_in_nothing_still_get_a_row(tmp_path: Path) -> None:
    cls = tmp_path / "class"
    (cls / "Ana").mkdir(parents=True)
    write(cls / "Bo" / ".ipynb_checkpoints" / "01-mate-checkpoint.ipynb")
    write(cls / "Cy" / "01-mate.ipynb")
    archive = tmp_path / "more.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(zipfile.ZipInfo("Dee/"), "")
        zf.writestr("Eve/01-mate.ipynb", notebook())
    students = by_student(collect([cls, archive])[0])
    assert sorted(students) == ["Ana", "Bo", "Cy", "Dee", "Eve"]
    for name in ("Ana", "Bo", "Dee"):
        assert students[name].files == ()
        assert students[name].problems == (f"The folder {name} holds no notebook: nothing was "
                                           "handed in.",)
    assert students["Cy"].problems == ()


def test_a_255_byte_name_gets_a_safe_stable_bounded_identity(tmp_path: Path) -> None:
    long_name = "Ana" + "é" * 126  # 255 bytes in UTF-8, the longest a file name may be
    assert len(long_name.encode()) == 255
    write(tmp_path / "class" / long_name / "01-mate.ipynb")
    write(tmp_path / "class" / "Bo" / "01-mate.ipynb")
    first = by_student(collect([tmp_path / "class"])[0])
    again = by_student(collect([tmp_path / "class"])[0])
    assert sorted(first) == sorted(again)
    (identity,) = [s for s in first if s != "Bo"]
    assert len(identity.encode()) <= submissions.MAX_ID_BYTES and identity.startswith("Anaé")
    assert first[identity].name.startswith("Anaé") and len(first[identity].name) <= 100
    assert "stored as" in first[identity].problems[0]
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / f"{identity}.html").write_text("a page per student fits", "utf-8")
    assert submissions.student_id("a/b:c") != submissions.student_id("a_b_c")


def test_names_that_are_not_utf8_and_nul_bytes(tmp_path: Path) -> None:
    cls = tmp_path / "class"
    cls.mkdir()
    gbk = os.fsdecode("王小明".encode("gbk"))
    write(cls / gbk / "01-mate.ipynb")
    write(cls / os.fsdecode(b"bad\xff") / "01-mate.ipynb")
    archive = zip_with(tmp_path / "nul.zip", {"Ana/01-mate.ipynbX": notebook(),
                                              "Ana/02-forks.ipynb": notebook()})
    rename_in_zip(archive, "01-mate.ipynbX", b"01-mate.ipynb\x00")
    nul_file = write(tmp_path / "nul" / "Bo" / "01-mate.ipynb", notebook() + "\x00")
    found, loose = collect([cls, archive, nul_file.parent.parent])
    students = by_student(found)
    assert "王小明" in students and students["王小明"].name == "王小明"
    assert any(s.startswith("bad") for s in students)
    assert [n for n, _ in students["Ana"].files] == ["02-forks.ipynb"]
    assert "refused" in students["Ana"].problems[0] and "\\0" in students["Ana"].problems[0]
    assert isinstance(contents(students["Bo"])["01-mate.ipynb"], bytes)
    assert loose == []


def test_duplicate_zip_entries_are_reported_and_the_last_is_graded(tmp_path: Path) -> None:
    archive = tmp_path / "class.zip"
    with warnings.catch_warnings(), zipfile.ZipFile(archive, "w") as zf:
        warnings.simplefilter("ignore")  # zipfile warns about the duplicate it writes
        zf.writestr("Ana/01-mate.ipynb", notebook('ck.answer("01.01", "Ra7")'))
        zf.writestr("Ana/01-mate.ipynb", notebook('ck.answer("01.01", "Ra8#")'))
    (ana,) = collect([archive])[0]
    assert len(ana.files) == 2 and not ana.problems  # both kept: grading picks and says
    (data,) = contents(ana).values()
    assert isinstance(data, bytes) and b"Ra8#" in data


# ---------------------------------------------------------------- LMS exports

def test_two_students_with_one_name_are_never_merged(tmp_path: Path) -> None:
    archive = zip_with(tmp_path / "moodle.zip", {
        "Ana Lee_1000_assignsubmission_file_/07-castling.ipynb": notebook(),
        "Ana Lee_1007_assignsubmission_file_/07-castling.ipynb": notebook(),
        "Bo Chen_1002_assignsubmission_file_/07-castling.ipynb": notebook()})
    found = collect([archive])[0]
    assert [(s.student, s.name) for s in found] == [
        ("Ana Lee_1000", "Ana Lee"), ("Ana Lee_1007", "Ana Lee"), ("Bo Chen", "Bo Chen")]
    assert all(s.problems == () and len(s.files) == 1 for s in found)


def test_moodle_folders_and_flat_files(tmp_path: Path) -> None:
    archive = zip_with(tmp_path / "moodle.zip", {
        "Ana Lee_1000_assignsubmission_file_/07-castling.ipynb": notebook(),
        "Ana Lee_1000_assignsubmission_file_/01-mate.ipynb": notebook(),
        "王小明_1001_assignsubmission_file_/07-castling.ipynb": notebook(),
        "Bo Chen_1002_assignsubmission_onlinetext_/onlinetext.html": "<p>hi</p>"})
    flat = zip_with(tmp_path / "flat.zip", {
        "Cy Park_1003_assignsubmission_file_07-castling.ipynb": notebook()})
    students = by_student(collect([archive, flat])[0])
    assert sorted(students) == ["Ana Lee", "Bo Chen", "Cy Park", "王小明"]
    assert [n for n, _ in students["Ana Lee"].files] == ["01-mate.ipynb", "07-castling.ipynb"]
    assert [n for n, _ in students["Cy Park"].files] == ["07-castling.ipynb"]
    assert "not a notebook" in students["Bo Chen"].problems[0]


def test_canvas_flat_export_of_30_students_gives_30_students(tmp_path: Path) -> None:
    lessons = ["01-mate", "07-castling", "12-queen-rook-mates"]
    entries = {}
    for n in range(30):
        for k, lesson in enumerate(lessons):
            late = "_late" if n % 10 == 0 and k == 0 else ""
            again = "-1" if n == 3 and k == 1 else ""
            entries[f"student{chr(97 + n % 26)}{n}{late}_{5000 + n}_{9000 + 3 * n + k}_"
                    f"{lesson}{again}.ipynb"] = notebook()
    found, loose = collect([zip_with(tmp_path / "submissions.zip", entries)])
    assert len(found) == 30 and loose == []
    first = found[0]
    assert first.student == "studenta0_5000" and first.name == "studenta0"
    assert [n for n, _ in first.files] == [f"{lesson}.ipynb" for lesson in lessons]
    assert [f.late for _, f in first.files] == [True, False, False]
    resubmitted = by_student(found)["studentd3_5003"]
    assert [n for n, _ in resubmitted.files] == [f"{lesson}.ipynb" for lesson in lessons]
    assert all(len(s.files) == 3 and s.problems == () for s in found)


def test_google_classroom_drive_download(tmp_path: Path) -> None:
    archive = zip_with(tmp_path / "Homework 7-20261201T101500Z-001.zip", {
        "Homework 7/Ana Lee - 07-castling.ipynb": notebook(),
        "Homework 7/Ana Lee - 07-castling (1).ipynb": notebook(),
        "Homework 7/Bo Chen - 07-castling.ipynb": notebook(),
        "Homework 7/王小明 - 07-castling.ipynb": notebook()})
    students = by_student(collect([archive])[0])
    assert sorted(students) == ["Ana Lee", "Bo Chen", "王小明"]
    assert [f.label for _, f in students["Ana Lee"].files] == [
        "Ana Lee - 07-castling (1).ipynb", "Ana Lee - 07-castling.ipynb"]  # grading picks
    assert [n for n, _ in students["Bo Chen"].files] == ["07-castling.ipynb"]


def test_zipped_class_folder_and_one_students_folder(tmp_path: Path) -> None:
    wrapped = zip_with(tmp_path / "class.zip", {"7B/Ana/01-mate.ipynb": notebook(),
                                                "7B/Bo/01-mate.ipynb": notebook()})
    assert [s.student for s in collect([wrapped])[0]] == ["Ana", "Bo"]
    write(tmp_path / "class" / "Ana" / "01-mate.ipynb")
    write(tmp_path / "class" / "Ana" / "07-castling.ipynb")
    write(tmp_path / "class" / "Bo" / "01-mate.ipynb")
    (one,) = collect([tmp_path / "class" / "Ana"])[0]
    assert one.student == "Ana" and len(one.files) == 2
    (same,) = collect([tmp_path / "class" / "Ana" / "07-castling.ipynb"])[0]
    assert same.student == "Ana" and [n for n, _ in same.files] == ["07-castling.ipynb"]
    write(tmp_path / "flat" / "ana.ipynb")
    assert [s.student for s in collect([tmp_path / "flat"])[0]] == ["ana"]


@pytest.mark.parametrize("raw", [
    "王小明".encode("gbk"),  # Windows (Chinese) zip: GBK, no UTF-8 flag
    "王小明".encode(),  # Info-ZIP on Linux or macOS: UTF-8, no flag
])
def test_zip_names_without_the_utf8_flag(tmp_path: Path, raw: bytes) -> None:
    placeholder = "N" * len(raw)
    archive = zip_with(tmp_path / "class.zip", {f"{placeholder}/01-mate.ipynb": notebook(),
                                                "JOSE/01-mate.ipynb": notebook()})
    rename_in_zip(archive, placeholder, raw)
    rename_in_zip(archive, "JOSE", "José".encode("cp437"))
    with zipfile.ZipFile(archive) as zf:
        assert all(not info.flag_bits & 0x800 for info in zf.infolist()[:1])
    found = collect([archive])[0]
    assert sorted(s.student for s in found) == ["José", "王小明"]
    assert all(isinstance(data, bytes) for s in found for data in contents(s).values())


def test_decode_name() -> None:
    assert submissions.decode_name("王小明".encode("gbk")) == "王小明"
    assert submissions.decode_name("王小明".encode()) == "王小明"
    assert submissions.decode_name("Müller".encode("cp437")) == "Müller"
    assert submissions.decode_name(b"ana") == "ana"


def test_each_zip_is_opened_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    entries = {f"s{n:03d}/01-mate.ipynb": notebook() for n in range(300)}
    archive = zip_with(tmp_path / "big.zip", entries)
    opened: list[Path] = []
    real = submissions._Archive.__init__

    def counting(self: submissions._Archive, path: Path) -> None:
        opened.append(path)
        real(self, path)

    monkeypatch.setattr(submissions._Archive, "__init__", counting)
    found = collect([archive])[0]
    started = time.perf_counter()
    assert all(isinstance(d, bytes) for s in found for d in contents(s).values())
    assert len(found) == 300 and opened == [archive]
    assert time.perf_counter() - started < 30


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_class_with_every_bad_input_is_graded(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    _teacher_fakes.install(monkeypatch)
    cls = tmp_path / "class"
    write(cls / "Ana" / "01-mate.ipynb")
    (cls / "Bo").mkdir()
    os.mkfifo(cls / "Bo" / "07-castling.ipynb")
    long_name = "Ana" + "é" * 126
    write(cls / long_name / "01-mate.ipynb")
    write(cls / os.fsdecode("王小明".encode("gbk")) / "01-mate.ipynb", notebook() + "\x00")
    (cls / "Cy").mkdir()
    report = _finishes(lambda: grading.grade([cls], out=tmp_path / "out"))
    again = _finishes(lambda: grading.grade([cls], out=tmp_path / "out"))
    assert len(report.students) == 5 and report.students == again.students
    assert "王小明" in report.students and report.csv.exists() and report.html.exists()


@pytest.mark.parametrize("handed_in", [
    ("Ana Lee_1000_assignsubmission_file_", "07-castling-exercises.ipynb"),
    ("Ana Lee_1000_assignsubmission_file_07-castling-exercises.ipynb",),
    ("leeana_12345_67890_07-castling-exercises-1.ipynb",),
    ("Ana Lee - 07-castling-exercises (1).ipynb",),
    ("Ana Lee - 07-castling-exercises.ipynb",),
    ("Ana Lee_1000_assignsubmission_file_07-castling.ipynb",),  # the name before the rename
    ("leeana_12345_67890_07-castling-1.ipynb",),
    ("Ana", "exercises_en_07-castling-exercises.ipynb"),  # a browser-course download
])
def test_exercise_notebooks_old_and_new_names_are_the_lessons_part(
        handed_in: tuple[str, ...]) -> None:
    owner = submissions.student_of(handed_in)
    assert owner.student in ("Ana Lee", "leeana", "Ana")
    castling = Assignment((Part("07-castling", ("07.01",), 7), Part("07-castle", ())))
    part = castling.part_of(owner.file)
    assert part is not None and part.name == "07-castling"


def test_a_folder_of_course_notebooks_is_one_student(tmp_path: Path) -> None:
    for name in ("07-castling-exercises.ipynb", "08-how-a-game-ends.ipynb"):
        write(tmp_path / "Ana" / name)
    (found,) = collect([tmp_path / "Ana"])[0]
    assert found.student == "Ana" and len(found.files) == 2
