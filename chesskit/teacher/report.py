"""What the teacher reads: ``grades.csv``, ``lms-grades.csv`` and the HTML report.

Everything is written in one pass over the gradebook, one student at a time (a class is never
held in memory).  The class page comes first per part (a lesson's notebook or a homework) with
averages and who needs help, then per exercise, lesson and task named, with the most common
wrong answers.  Each student's page is written in that student's language so it can be handed
back.

>>> a = Assignment((Part("01-mate", ("01.01", "01.02")),))
>>> score(StudentResult("ana", "en", "", (Mark("01.01", "Ra8#", True, "correct", ""),)), a).percent
50
"""

from __future__ import annotations

import contextlib
import csv
import functools
import hashlib
import html
import os
import urllib.parse
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from chesskit.drawing.text import ems
from chesskit.errors import BankError
from chesskit.exercises import catalog
from chesskit.i18n import get_language, localize, t
from chesskit.teacher.assignment import Assignment, Part
from chesskit.teacher.gradebook import Gradebook, Mark, StudentResult
from chesskit.teacher.items import analyse, write_items
from chesskit.teacher.live_rounds import (
    LiveRound,
    live_marks,
    report_section,
    rounds_section,
    with_marks,
    with_rounds,
)
from chesskit.teacher.skills import skills_link, write_skills_page

HELP_BELOW = 50  # a student under this percent on a part needs help with it
TOP_WRONG = 3
_KEPT_WRONG = 50  # distinct wrong answers counted per exercise (the rest count as "other")

_STYLE = """body{font-family:'Noto Sans CJK SC',sans-serif;max-width:64em;margin:2em auto;
padding:0 1em;color:#222;line-height:1.5}table{border-collapse:collapse;width:100%}
td,th{padding:.3em .6em;border-bottom:1px solid #ddd;text-align:left;vertical-align:top;
word-break:keep-all;overflow-wrap:anywhere}th{white-space:nowrap}td.n{white-space:nowrap}
td.task{min-width:14em;white-space:pre-line}.ok{color:#1a7f37}.no{color:#b42318}.note{color:#555}
.bar{display:inline-block;height:.8em;background:#1a7f37;vertical-align:middle}
.bar.low{background:#b42318}details{margin:.4em 0}summary{cursor:pointer;font-weight:bold}"""


@dataclass(frozen=True)
class PartScore:
    """A student's result on one part: points, out of, and whether it came in (late)."""

    part: str
    points: float
    out_of: float
    handed: bool
    late: bool


@dataclass(frozen=True)
class Score:
    """A student's score on the assignment."""

    points: float
    out_of: float
    parts: tuple[PartScore, ...]

    @property
    def percent(self) -> int:
        """The whole-number percent (0 when there is nothing to score)."""
        return round(100 * self.points / self.out_of) if self.out_of else 0


def score(result: StudentResult, assignment: Assignment) -> Score:
    """The student's points on ``assignment``; the denominator is the assignment's alone."""
    shares = {m.exercise_id: m.share for m in result.marks}
    handed = {h.part for h in result.handed}
    due = assignment.due
    parts, counted = [], set()
    for part in assignment.parts:
        items = [i for i in part.ids if i not in counted]
        counted.update(items)
        points = sum(assignment.points_for(i) * shares.get(i, 0.0) for i in items)
        late = due is not None and any(h.part == part.name and h.submitted is not None
                                       and h.submitted > due for h in result.handed)
        parts.append(PartScore(part.name, points,
                               sum(assignment.points_for(i) for i in items),
                               part.name in handed or any(i in shares for i in part.ids), late))
    return Score(sum(p.points for p in parts), sum(p.out_of for p in parts), tuple(parts))


def _number(value: float) -> str:
    """Points as short text: 3, 2.5."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


MAX_CELL = 1_000  # characters of a problems cell (Excel holds 32,767); the page has them all


def _cell(value: object) -> str:
    """Any cell as text a spreadsheet never reads as a formula.

    >>> _cell("=HYPERLINK(1)"), _cell(3)
    ("'=HYPERLINK(1)", '3')
    """
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r", "\n") else text


def _problems_cell(problems: tuple[str, ...], *, lang: str) -> str:
    """The problems of a student, summarised and capped (the full list is on their page)."""
    text = " | ".join(problems)
    if len(text) <= MAX_CELL:
        return text
    head = t("grading.problems_cut", lang=lang, n=len(problems))
    return head + " " + text[: MAX_CELL - len(head) - 2] + "…"


class _SafeWriter:
    """A CSV writer whose every cell is neutralised for spreadsheets."""

    def __init__(self, stream: IO[str]) -> None:
        self._writer = csv.writer(stream)

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([_cell(value) for value in row])


@functools.lru_cache(maxsize=4096)
def _task(exercise_id: str, lang: str) -> str:

    try:
        return str(catalog.exercise(exercise_id).prompt_text(lang=lang))
    except (BankError, AttributeError):
        return ""


@functools.lru_cache(maxsize=256)
def _part_title(part: Part, lang: str) -> str:
    """"07-castling · Castling" for a lesson's notebook, the notebook's name otherwise."""

    if part.lesson is None:
        return part.name
    title = next((localize(dict(info.title), lang=lang) for info in catalog.lessons()
                  if info.lesson == part.lesson), "")
    return f"{t('grading.lesson', lang=lang, n=part.lesson)} · {title}" if title else part.name


def student_file(student: str) -> str:
    """The file name of a student's page: readable, safe on every file system, and unique
    (long or odd names are shortened and given a short fingerprint)."""

    safe = "".join(c if c.isalnum() or c in "-_ " else "_" for c in student).strip()[:60]
    if safe == student and safe:
        return f"{safe}.html"
    return f"{safe or 'student'}-{hashlib.sha256(student.encode()).hexdigest()[:8]}.html"


def bar_chart(rows: list[tuple[str, int, int]], *, title: str) -> str:
    """An inline SVG with a horizontal bar per ``(label, done, out of)`` row.

    >>> bar_chart([("01.01", 1, 2)], title="Class").count("<rect")
    2
    """
    row, width = 22, 300
    left = max([round(12 * ems(label)) for label, _, _ in rows] + [40]) + 10
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 90}" '
             f'height="{row * len(rows) + 20}" role="img" aria-label="{html.escape(title)}" '
             'font-family="Noto Sans CJK SC, sans-serif" font-size="12">'
             f"<title>{html.escape(title)}</title>"]
    for i, (label, done, total) in enumerate(rows):
        y = 10 + i * row
        share = done / total if total else 0.0
        parts.append(f'<text x="0" y="{y + 13}">{html.escape(label)}</text>'
                     f'<rect x="{left}" y="{y}" width="{width}" height="16" fill="#eee"/>'
                     f'<rect x="{left}" y="{y}" width="{round(width * share)}" height="16" '
                     f'fill="{"#1a7f37" if share >= 0.5 else "#b42318"}"/>'
                     f'<text x="{left + width + 6}" y="{y + 13}">{round(100 * share)}% '
                     f"({done}/{total})</text>")
    parts.append("</svg>")
    return "".join(parts)


def _page(title: str, body: str, *, lang: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width">'
            f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>"
            f"<body><h1>{html.escape(title)}</h1>\n{body}\n</body></html>\n")


def _bar(share: float) -> str:
    low = " low" if 100 * share < HELP_BELOW else ""
    return (f'<span class="bar{low}" style="width:{round(6 * share, 2)}em"></span> '
            f"{round(100 * share)}%")


def _head(keys: Iterable[str], *, lang: str) -> str:
    return "<tr>" + "".join(f"<th>{html.escape(t(f'grading.col_{k}', lang=lang))}</th>"
                            for k in keys) + "</tr>"


def _verdict(mark: Mark | None, *, lang: str) -> str:
    esc = html.escape
    if mark is None:
        return f'<span class="no">{esc(t("grading.no_answer_short", lang=lang))}</span>'
    if mark.correct:
        return f'<span class="ok">✓ {esc(t("grading.right", lang=lang))}</span>'
    if mark.share:
        return f'<span class="ok">½ {esc(t("grading.partial", lang=lang))}</span>'
    return f'<span class="no">✗ {esc(t("grading.not_right", lang=lang))}</span>'


def student_page(result: StudentResult, assignment: Assignment, marks_score: Score) -> str:
    """One student's feedback page, in the student's language."""
    lang, esc = result.lang, html.escape
    marks = {m.exercise_id: m for m in result.marks}
    sections = []
    for part, got in zip(assignment.parts, marks_score.parts, strict=True):
        status = ("not_handed_in" if not got.handed else "late" if got.late else "handed_in")
        rows = []
        for exercise_id in part.ids:
            mark = marks.get(exercise_id)
            note = mark.message if mark else t("grading.no_answer", lang=lang)
            if mark and mark.after_solution:
                note += " " + t("grading.after_solution_note", lang=lang)
            rows.append(f"<tr><td class=n>{esc(exercise_id)}</td>"
                        f"<td class=task>{esc(_task(exercise_id, lang))}</td>"
                        f"<td><code>{esc(mark.answer if mark else '')}</code></td>"
                        f"<td class=n>{_verdict(mark, lang=lang)}</td>"
                        f'<td class="note">{esc(note)}</td></tr>')
        sections.append(
            f"<h2>{esc(_part_title(part, lang))}</h2><p>{esc(t(f'grading.{status}', lang=lang))}"
            f" · {esc(t('grading.points', lang=lang, points=_number(got.points), out_of=_number(got.out_of)))}</p>"  # noqa: E501
            f"<table>{_head(('exercise', 'task', 'answer', 'result', 'feedback'), lang=lang)}"
            + "\n".join(rows) + "</table>")
    notes = "".join(f"<li>{esc(p)}</li>" for p in result.problems)
    body = (f"<p>{esc(t('grading.score', lang=lang, points=_number(marks_score.points), out_of=_number(marks_score.out_of), percent=marks_score.percent))}</p>"  # noqa: E501
            + "".join(f"<p><b>{esc(v)}</b></p>" for v in _passed(assignment, marks_score,
                                                                   lang=lang))
            + "".join(sections)
            + (f"<h2>{esc(t('grading.problems', lang=lang))}</h2><ul>{notes}</ul>"
               if notes else ""))
    return _page(t("grading.student_title", lang=lang, student=result.name or result.student),
                 body, lang=lang)


@dataclass
class _PartTally:
    handed: int = 0
    late: int = 0
    percent_sum: float = 0.0
    help: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


@dataclass
class _ItemTally:
    right: int = 0
    partial: int = 0
    answered: int = 0
    blank: int = 0
    after_solution: int = 0
    wrong: Counter[str] = field(default_factory=Counter)

    def add(self, mark: Mark) -> None:
        self.after_solution += mark.after_solution
        if mark.code == "empty" or not mark.answer:
            self.blank += 1
            return
        self.answered += 1
        self.right += mark.correct
        self.partial += 0 < mark.share < 1
        if not mark.correct:
            key = mark.answer[:40]
            if key in self.wrong or len(self.wrong) < _KEPT_WRONG:
                self.wrong[key] += 1


@dataclass
class _Class:
    """The class's tallies, built student by student."""

    assignment: Assignment
    students: int = 0
    points: float = 0.0
    passed: int = 0
    parts: dict[str, _PartTally] = field(default_factory=dict)
    items: dict[str, _ItemTally] = field(default_factory=dict)
    rows: list[str] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)

    def add(self, result: StudentResult, got: Score, *, lang: str) -> None:
        esc = html.escape
        shown = result.name or result.student
        self.students += 1
        self.points += got.percent
        self.passed += bool(self.assignment.passed(got.points))
        for part in got.parts:
            tally = self.parts.setdefault(part.part, _PartTally())
            percent = 100 * part.points / part.out_of if part.out_of else 0
            tally.percent_sum += percent
            if not part.handed:
                tally.missing.append(shown)
            else:
                tally.handed += 1
                tally.late += part.late
                if percent < HELP_BELOW:
                    tally.help.append(shown)
        wanted = set(self.assignment.ids())
        for mark in result.marks:
            if mark.exercise_id in wanted:
                self.items.setdefault(mark.exercise_id, _ItemTally()).add(mark)
        missing = sum(not p.handed for p in got.parts)
        late = sum(p.late for p in got.parts)
        after = sum(m.after_solution for m in result.marks)
        link = urllib.parse.quote(f"students/{student_file(result.student)}")
        self.rows.append(
            f'<tr><td><a href="{link}">{esc(shown)}</a></td>'
            f"<td class=n>{_number(got.points)}/{_number(got.out_of)}</td>"
            f"<td class=n>{_bar(got.percent / 100)}</td><td class=n>{missing or ''}</td>"
            f"<td class=n>{late or ''}</td><td class=n>{after or ''}</td>"
            f"<td class=n>{len(result.problems) or ''}</td></tr>")
        self.problems += [(result.student, p) for p in result.problems]


def _names(names: list[str], *, limit: int = 12) -> str:
    more = f" … (+{len(names) - limit})" if len(names) > limit else ""
    return "、".join(names[:limit]) + more if names and _is_cjk(names) else \
        ", ".join(names[:limit]) + more


def _is_cjk(names: list[str]) -> bool:
    return any(ord(c) > 0x2E80 for c in "".join(names[:3]))


def class_page(tally: _Class, *, lang: str, notes: list[str], live: str = "") -> str:
    """The teacher's overview: parts first, then students, then every exercise (then the
    ``live`` rounds section, when there is one)."""
    esc, a = html.escape, tally.assignment
    n = tally.students
    head = [f"<p>{esc(t('grading.class_summary', lang=lang, students=n, out_of=_number(sum(a.points_for(i) for i in a.ids())), average=round(tally.points / n) if n else 0))}</p>"]  # noqa: E501
    if a.title:
        head.insert(0, f"<p><b>{esc(a.title)}</b></p>")
    if a.pass_share is not None:
        head.append(f"<p>{esc(t('grading.class_passed', lang=lang, n=tally.passed, students=n, percent=round(100 * a.pass_share)))}</p>")  # noqa: E501
    head.append(skills_link(lang=lang))
    if notes:
        head.append("<ul>" + "".join(f'<li class="note">{esc(x)}</li>' for x in notes) + "</ul>")
    part_rows = []
    for part in a.parts:
        p = tally.parts.get(part.name, _PartTally())
        part_rows.append(
            f"<tr><td>{esc(_part_title(part, lang))}</td><td class=n>{p.handed}/{n}</td>"
            f"<td class=n>{p.late or ''}</td><td class=n>{_bar(p.percent_sum / n / 100 if n else 0)}</td>"  # noqa: E501
            f"<td>{esc(_names(p.help))}</td><td>{esc(_names(p.missing))}</td></tr>")
    parts = (f"<h2>{esc(t('grading.by_part', lang=lang))}</h2><table>"
             + _head(("part", "handed", "late", "average", "needs_help", "missing"), lang=lang)
             + "\n".join(part_rows) + "</table>")
    students = (f"<h2>{esc(t('grading.students', lang=lang))}</h2><table>"
                + _head(("student", "score", "percent", "missing", "late", "after_solution",
                         "problems"), lang=lang) + "\n".join(tally.rows) + "</table>")
    exercises = [f"<h2>{esc(t('grading.by_exercise', lang=lang))}</h2>"]
    for part in a.parts:
        rows = []
        items = [(i, tally.items.get(i, _ItemTally())) for i in part.ids]
        items.sort(key=lambda it: (it[1].right / n if n else 0, it[0]))
        for exercise_id, item in items:
            wrong = ", ".join(f"{w} ×{c}" for w, c in item.wrong.most_common(TOP_WRONG))
            extra = t("grading.blanks", lang=lang, n=item.blank) if item.blank else ""
            if item.after_solution:
                extra += " " + t("grading.after_solution_count", lang=lang,
                                 n=item.after_solution)
            rows.append(f"<tr><td class=n>{esc(exercise_id)}</td>"
                        f"<td class=task>{esc(_task(exercise_id, lang))}</td>"
                        f"<td class=n>{_bar(item.right / n if n else 0)} ({item.right}/{n})</td>"
                        f"<td><code>{esc(wrong)}</code></td>"
                        f'<td class="note">{esc(extra.strip())}</td></tr>')
        exercises.append(f"<details><summary>{esc(_part_title(part, lang))}</summary><table>"
                         + _head(("exercise", "task", "right", "common_wrong", "note"),
                                 lang=lang) + "\n".join(rows) + "</table></details>")
    problems = ""
    if tally.problems:
        problems = (f"<h2>{esc(t('grading.all_problems', lang=lang))}</h2><table>"
                    + _head(("student", "problem"), lang=lang)
                    + "\n".join(f"<tr><td>{esc(w)}</td><td>{esc(p)}</td></tr>"
                                for w, p in tally.problems) + "</table>")
    body = "".join(head) + parts + students + "".join(exercises) + problems + live
    return _page(t("grading.report_title", lang=lang, students=n), body, lang=lang)


@dataclass(frozen=True)
class Written:
    """The files ``write_outputs`` wrote and the problems it found in the gradebook."""

    csv: Path
    lms: Path
    html: Path
    students: tuple[str, ...]
    problems: tuple[tuple[str, str], ...]


_COLUMNS = ("student", "name", "language", "points", "out_of", "percent", "not_handed_in",
            "late", "after_solution", "problems")


def _csv_header(assignment: Assignment, *, lang: str) -> list[str]:
    passed = [t("grading.csv_passed", lang=lang)] if assignment.pass_share is not None else []
    return ([t(f"grading.csv_{k}", lang=lang) for k in _COLUMNS] + passed
            + [p.name for p in assignment.parts] + assignment.ids())


def _passed(assignment: Assignment, got: Score, *, lang: str) -> list[str]:
    verdict = assignment.passed(got.points)
    return [] if verdict is None else [t(f"grading.{'passed' if verdict else 'not_passed'}",
                                         lang=lang)]


def _csv_row(result: StudentResult, got: Score, assignment: Assignment, *,
             lang: str) -> list[object]:
    shares = {m.exercise_id: m.share for m in result.marks}
    return ([result.student, result.name or result.student, result.lang,
             _number(got.points), _number(got.out_of), got.percent,
             " ".join(p.part for p in got.parts if not p.handed),
             " ".join(p.part for p in got.parts if p.late),
             sum(m.after_solution for m in result.marks),
             _problems_cell(result.problems, lang=lang)]
            + _passed(assignment, got, lang=lang)
            + [_number(p.points) for p in got.parts]
            + [_number(assignment.points_for(i) * shares[i]) if i in shares else ""
               for i in assignment.ids()])


def _lms_header(assignment: Assignment) -> list[str]:
    out_of = _number(sum(assignment.points_for(i) for i in assignment.ids()))
    return ["Student", "ID", f"{assignment.title or 'chesskit'} ({out_of})"]


def write_outputs(book: Gradebook, assignment: Assignment, *, out: Path,
                  lang: str | None = None, notes: Iterable[str] = ()) -> Written:
    """Write ``grades.csv``, ``lms-grades.csv``, ``report/index.html`` and a page per student
    from the gradebook, one student at a time."""
    code = get_language(lang)
    assignment, live = with_rounds(assignment, book), live_marks(book)  # the graded rounds
    (out / "report" / "students").mkdir(parents=True, exist_ok=True)
    tally = _Class(assignment)
    students: list[str] = []
    pages: set[str] = set()
    grades, lms = out / "grades.csv", out / "lms-grades.csv"
    with _csv(grades) as g_stream, _csv(lms) as l_stream:
        g, lm = _SafeWriter(g_stream), _SafeWriter(l_stream)
        g.writerow(_csv_header(assignment, lang=code))
        lm.writerow(_lms_header(assignment))
        for stored in book.each_result():
            result = with_marks(stored, live)
            got = score(result, assignment)
            g.writerow(_csv_row(result, got, assignment, lang=code))
            lm.writerow([result.name or result.student, result.student, _number(got.points)])
            (out / "report" / "students" / student_file(result.student)).write_text(
                student_page(result, assignment, got), encoding="utf-8")
            tally.add(result, got, lang=code)
            students.append(result.student)
            pages.add(student_file(result.student))
        notes = list(notes)
        for note in notes:
            g.writerow([t("grading.csv_class_note", lang=code)] + [""] * 8
                       + [shown_note(note)])
    for stale in (out / "report" / "students").glob("*.html"):
        if stale.name not in pages:  # a student removed or renamed
            stale.unlink()
    index = out / "report" / "index.html"
    index.write_text(class_page(tally, lang=code, notes=notes,
                                live=report_section(book, lang=code)), encoding="utf-8")
    write_skills_page(book.each_result(), out / "report", lang=code)  # the class's skills map
    write_items(analyse(book.each_result()), out / "items.csv")  # item analysis, re-rated
    return Written(grades, lms, index, tuple(students), tuple(tally.problems))


def live_page(rounds: list[LiveRound], *, lang: str, empty: str) -> str:
    """A page of the live rounds alone (``chesskit classroom report``); ``empty`` says that
    there are none."""
    return _page(t("classroom.live_title", lang=lang),
                 rounds_section(rounds, lang=lang, heading=False) or html.escape(empty),
                 lang=lang)


def shown_note(note: str) -> str:
    """A class note as a CSV cell: capped like a problems cell."""
    return note if len(note) <= MAX_CELL else note[: MAX_CELL - 1] + "…"


@contextlib.contextmanager
def _csv(path: Path) -> Iterator[IO[str]]:
    """A CSV file spreadsheets open right (UTF-8 with a byte-order mark), written whole or
    not at all: it replaces ``path`` only once every row is written."""
    partial = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        with partial.open("w", encoding="utf-8-sig", newline="") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
