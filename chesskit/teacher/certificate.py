"""``chesskit certificate GRADED``: a PDF certificate for each student who passed an exam.

An exam is an assignment with a pass mark (``pass = 0.8`` in its TOML). The scores come from
the gradebook ``chesskit grade`` wrote (``GRADED/gradebook.sqlite``), scored by
:func:`chesskit.teacher.report.score` as the class report scores them; each certificate is in
the student's own language (the one their notebook was in).

>>> svg = certificate_svg(name="Li Lei", title="Forks", percent=90, pass_percent=80,
...                       date="2026-03-09", lang="zh-Hans")
>>> "Li Lei" in svg and "Noto Sans CJK SC" in svg
True
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import html
import shutil
import subprocess
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from chesskit.drawing.render import svgs_to_pdf
from chesskit.drawing.text import FONT_FAMILY, wrap
from chesskit.errors import GradingError, LanguageError
from chesskit.i18n import get_language, t
from chesskit.teacher.assignment import Assignment, parse_assignment, read_assignment
from chesskit.teacher.gradebook import Gradebook
from chesskit.teacher.report import score, student_file

PAGE_W, PAGE_H = 297.0, 210.0
TRADITIONAL_FONT = "Noto Sans CJK TC"


@functools.cache
def font_family(lang: str) -> str:
    """The font a certificate in ``lang`` is set in: Traditional Chinese in the TC family of the
    CJK font when it is installed, else the course's font (SC).

    >>> font_family("en") == FONT_FAMILY
    True
    """
    if lang != "zh-Hant" or shutil.which("fc-list") is None:
        return FONT_FAMILY
    found = subprocess.run(["fc-list", f":family={TRADITIONAL_FONT}", "family"],
                           capture_output=True, text=True, check=False).stdout
    return TRADITIONAL_FONT if found.strip() else FONT_FAMILY


def _text(x: float, y: float, text: str, *, size: float, weight: str = "normal",
          colour: str = "#222") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="middle" '
            f'font-weight="{weight}" fill="{colour}">{html.escape(text, quote=False)}</text>')


def _corner(x: float, y: float, size: float) -> str:
    """A small chessboard corner of four squares, the course's colours."""
    squares = [(0, 0, "#f0d9b5"), (1, 0, "#b58863"), (0, 1, "#b58863"), (1, 1, "#f0d9b5")]
    return "".join(f'<rect x="{x + i * size:.1f}" y="{y + j * size:.1f}" width="{size}" '
                   f'height="{size}" fill="{c}"/>' for i, j, c in squares)


def certificate_svg(*, name: str, title: str, percent: int, pass_percent: int, date: str,
                    lang: str) -> str:
    """One A4 landscape certificate page as SVG, in ``lang``."""
    body = [f'<rect width="{PAGE_W}" height="{PAGE_H}" fill="#fff"/>',
            f'<rect x="8" y="8" width="{PAGE_W - 16}" height="{PAGE_H - 16}" fill="none" '
            'stroke="#b58863" stroke-width="2.5"/>',
            f'<rect x="13" y="13" width="{PAGE_W - 26}" height="{PAGE_H - 26}" fill="none" '
            'stroke="#b58863" stroke-width="0.6"/>',
            _corner(20, 20, 6), _corner(PAGE_W - 32, 20, 6), _corner(20, PAGE_H - 32, 6),
            _corner(PAGE_W - 32, PAGE_H - 32, 6),
            _text(PAGE_W / 2, 52, t("certificate.heading", lang=lang), size=16, weight="bold",
                  colour="#7a4f26"),
            _text(PAGE_W / 2, 72, t("certificate.awarded_to", lang=lang), size=6),
            _text(PAGE_W / 2, 96, name, size=14, weight="bold"),
            f'<line x1="{PAGE_W / 2 - 70}" y1="100" x2="{PAGE_W / 2 + 70}" y2="100" '
            'stroke="#222" stroke-width="0.3"/>']
    reason = t("certificate.reason", lang=lang, title=title, percent=percent,
               pass_percent=pass_percent)
    body += [_text(PAGE_W / 2, 116 + 9 * n, line, size=6)
             for n, line in enumerate(wrap(reason, width=38)[:3])]
    body += [_text(PAGE_W / 2 - 60, 168, t("certificate.date", lang=lang, date=date), size=5),
             _text(PAGE_W / 2 + 60, 168, t("certificate.teacher", lang=lang), size=5)]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{PAGE_W}mm" height="{PAGE_H}mm" '
            f'viewBox="0 0 {PAGE_W} {PAGE_H}" font-family="{font_family(lang)}">'
            + "".join(body) + "</svg>")


@dataclass(frozen=True)
class Passed:
    """A student who passed, their language and percent, and the certificate written."""

    student: str
    lang: str
    percent: int
    path: Path


def pass_mark(assignment: Assignment) -> float:
    """The assignment's pass mark (a fraction); GradingError when it sets none."""
    value = getattr(assignment, "pass_mark", None)
    if value is None:
        value = tomllib.loads(assignment.source or "").get("pass")
    if not isinstance(value, int | float) or not 0 < value <= 1:
        raise GradingError(t("certificate.no_pass_mark"))
    return float(value)


def _assignment(book: Gradebook, path: str | Path | None, folder: Path) -> Assignment:
    if path is not None:
        return read_assignment(path)
    stored = book.setting("assignment")
    if not stored:
        raise GradingError(t("certificate.no_assignment", folder=folder))
    try:
        return parse_assignment(stored, folder=folder)
    except GradingError as error:  # a teacher's own set lives beside its assignment file
        raise GradingError(t("certificate.give_assignment", error=error)) from None


def _date(assignment: Assignment, date: str | None) -> str:
    if date:
        return date
    if assignment.due is not None:
        return dt.date.fromtimestamp(assignment.due).isoformat()
    return dt.date.today().isoformat()


def certificates(graded: str | Path, *, out: str | Path | None = None,
                 assignment: str | Path | None = None, date: str | None = None,
                 title: str | None = None) -> tuple[list[Passed], list[str]]:
    """Write ``certificates/<student>.pdf`` for each student of a graded folder who passed;
    return who passed and who did not."""
    folder = Path(graded)
    book_path = folder / "gradebook.sqlite"
    if not book_path.exists():
        raise GradingError(t("grading.no_gradebook", path=book_path))
    target = Path(out) if out else folder / "certificates"
    passed: list[Passed] = []
    failed: list[str] = []
    with Gradebook(book_path) as book:
        exam = _assignment(book, assignment, folder)
        mark = pass_mark(exam)
        when = _date(exam, date)
        name = title or exam.title or folder.name
        target.mkdir(parents=True, exist_ok=True)
        for result in book.each_result():
            got = score(result, exam)
            if not got.out_of or got.points / got.out_of < mark - 1e-9:
                failed.append(result.student)
                continue
            lang = _language(result.lang)
            path = target / student_file(result.student).replace(".html", ".pdf")
            path.write_bytes(svgs_to_pdf([certificate_svg(
                name=result.name or result.student, title=name, percent=got.percent,
                pass_percent=round(100 * mark), date=when, lang=lang)]))
            passed.append(Passed(result.student, lang, got.percent, path))
    return passed, failed


def _language(code: str) -> str:
    try:
        return get_language(code)
    except LanguageError:  # a language this copy of the course does not have: English
        return "en"


def main(argv: Sequence[str] | None = None) -> int:
    """``chesskit certificate GRADED [--assignment A.toml] [-o DIR] [--date 2026-03-09]``."""
    parser = argparse.ArgumentParser(prog="chesskit certificate",
                                     description=t("certificate.cli_help"))
    parser.add_argument("graded", help=t("certificate.cli_graded"))
    parser.add_argument("--assignment", help=t("certificate.cli_assignment"))
    parser.add_argument("-o", "--output", help=t("certificate.cli_output"))
    parser.add_argument("--date", help=t("certificate.cli_date"))
    parser.add_argument("--title", help=t("certificate.cli_title"))
    args = parser.parse_args(argv)
    passed, failed = certificates(args.graded, out=args.output, assignment=args.assignment,
                                  date=args.date, title=args.title)
    for one in passed:
        print(t("certificate.line", student=one.student, percent=one.percent, path=one.path))
    print(t("certificate.summary", passed=len(passed), failed=len(failed)))
    return 0
