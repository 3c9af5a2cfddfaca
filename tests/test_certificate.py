"""chesskit certificate: a PDF per student who passed the exam's pass mark, in their language."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

from chesskit import cli
from chesskit.teacher import author_output
from chesskit.teacher.certificate import certificate_svg, certificates, font_family
from chesskit.teacher.grading import grade

EXAM = ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1; Ra8#\n"
        "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1; Rxd5\n"
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1; mate in 2\n")
ANSWERS = {"alice": ("en", ["Ra8#", "Rxd5", "Nf6+"]),
           "bo": ("zh-Hans", ["Ra8", "Rxd5", "1. Nf6+ gxf6 2. Bxf7#"]),
           "chen": ("zh-Hant", ["Ra8#", "Kd2", "Qh5"]),
           "dan": ("zh-Hant", ["Ra8#", "Rxd5", "Kd2"])}


@pytest.fixture
def graded(tmp_path: Path) -> Path:
    """An exam made by chesskit author (pass = 0.6), four students' notebooks, graded."""
    source = tmp_path / "exam.txt"
    source.write_text(EXAM, encoding="utf-8")
    author_output.author(source, out=tmp_path / "exam", engine=False, worksheets=False,
                         pass_mark=0.6)
    for student, (lang, moves) in ANSWERS.items():
        notebook = nbformat.read(tmp_path / "exam" / f"exam.{lang}.ipynb", as_version=4)
        for number, move in enumerate(moves, 1):
            for cell in notebook.cells:
                cell.source = cell.source.replace(f'ck.answer("exam.0{number}", "")',
                                                  f'ck.answer("exam.0{number}", "{move}")')
        (tmp_path / "subs" / student).mkdir(parents=True)
        nbformat.write(notebook, tmp_path / "subs" / student / f"exam.{lang}.ipynb")
    grade(sorted((tmp_path / "subs").iterdir()), out=tmp_path / "graded",
          assignment=tmp_path / "exam" / "assignment.toml", jobs=1)
    return tmp_path / "graded"


def test_a_certificate_for_each_student_who_passed(graded: Path) -> None:
    passed, failed = certificates(graded, assignment=graded.parent / "exam" / "assignment.toml",
                                  date="2026-12-04")
    assert [(p.student, p.lang, p.percent) for p in passed] == [
        ("alice", "en", 100), ("bo", "zh-Hans", 100), ("dan", "zh-Hant", 67)]
    assert failed == ["chen"]
    assert sorted(p.name for p in (graded / "certificates").iterdir()) == [
        "alice.pdf", "bo.pdf", "dan.pdf"]
    assert all(p.path.read_bytes().startswith(b"%PDF-") for p in passed)


def test_the_students_language_and_font() -> None:
    svg = certificate_svg(name="陈东", title="Forks", percent=90, pass_percent=80,
                          date="2026-12-04", lang="zh-Hant")
    assert "榮譽證書" in svg and "國際象棋" not in svg and "通過了考試" in svg
    assert f'font-family="{font_family("zh-Hant")}"' in svg
    english = certificate_svg(name="Ann", title="Forks", percent=90, pass_percent=80,
                              date="2026-12-04", lang="en")
    assert "Certificate of Achievement" in english and "with 90%" in english


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler is not installed")
def test_the_certificate_renders(graded: Path, tmp_path: Path) -> None:
    certificates(graded, assignment=graded.parent / "exam" / "assignment.toml",
                 date="2026-12-04")
    subprocess.run(["pdftoppm", "-png", "-r", "20", str(graded / "certificates" / "dan.pdf"),
                    str(tmp_path / "dan")], check=True)
    assert (tmp_path / "dan-1.png").stat().st_size > 1000


def test_the_command_and_its_refusals(graded: Path, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    exam = str(graded.parent / "exam" / "assignment.toml")
    assert cli.main(["certificate", str(graded), "--assignment", exam]) == 0
    assert capsys.readouterr().out.endswith("3 passed and got a certificate, 1 did not pass.\n")
    assert cli.main(["certificate", str(tmp_path / "nowhere")]) == 1
    assert capsys.readouterr().err.startswith("Error: ")
    plain = tmp_path / "plain.toml"
    plain.write_text('ids = ["exam.01"]\nnotebook = "exam.ipynb"\n', encoding="utf-8")
    assert cli.main(["certificate", str(graded), "--assignment", str(plain)]) == 1
    assert capsys.readouterr().err == ("Error: This assignment has no pass mark: add a line such "
                                       "as pass = 0.8 to its TOML file.\n")
