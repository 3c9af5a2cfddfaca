"""The teacher's HTML report: how the class did per exercise, and a page per student.

The class chart is inline SVG (no scripts, no network), most-missed exercise first.  Each
student's page is written in that student's language so it can be handed back.

>>> class_rates([StudentResult("ana", "en", "", (Mark("01.01", "Ra8#", True, "correct", ""),))])
[('01.01', 1, 1)]
"""

from __future__ import annotations

import functools
import html
import urllib.parse
from pathlib import Path

from chesskit.errors import BankError
from chesskit.gradebook import Mark, StudentResult
from chesskit.i18n import t

_STYLE = """body{font-family:'Noto Sans CJK SC',sans-serif;max-width:52em;margin:2em auto;
padding:0 1em;color:#222}table{border-collapse:collapse}td,th{padding:.3em .6em;
border-bottom:1px solid #ddd;text-align:left}.ok{color:#1a7f37}.no{color:#b42318}
.note{color:#555}"""


def class_rates(results: list[StudentResult]) -> list[tuple[str, int, int]]:
    """``(exercise id, students right, students with an answer cell)``, most missed first."""
    right: dict[str, int] = {}
    seen: dict[str, int] = {}
    for result in results:
        for mark in result.marks:
            seen[mark.exercise_id] = seen.get(mark.exercise_id, 0) + 1
            right[mark.exercise_id] = right.get(mark.exercise_id, 0) + int(mark.correct)
    rows = [(e, right[e], seen[e]) for e in seen]
    return sorted(rows, key=lambda r: (r[1] / r[2], r[0]))


def _text_width(text: str) -> int:
    """About how many pixels ``text`` takes at 12 px (CJK characters are full width)."""
    return sum(12 if ord(c) > 0x2E80 else 7 for c in text)


def bar_chart(rows: list[tuple[str, int, int]], *, title: str) -> str:
    """An inline SVG with a horizontal bar per ``(label, done, out of)`` row.

    >>> bar_chart([("01.01", 1, 2)], title="Class").count("<rect")
    2
    """
    row, width = 22, 300
    left = max([_text_width(label) for label, _, _ in rows] + [40]) + 10
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
            f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>"
            f"<body><h1>{html.escape(title)}</h1>\n{body}\n</body></html>\n")


def student_file(student: str) -> str:
    """The file name of a student's page (names are already checked to be safe)."""
    return f"{student}.html"


@functools.lru_cache(maxsize=4096)
def _task(exercise_id: str, lang: str) -> str:
    from chesskit import catalog

    try:
        return str(catalog.exercise(exercise_id).prompt_text(lang=lang))
    except (BankError, AttributeError):
        return ""


def _mark_row(exercise_id: str, mark: Mark | None, *, lang: str) -> str:
    esc = html.escape
    if mark is None:
        verdict, answer, message = "—", "", t("grading.no_answer", lang=lang)
    else:
        verdict = (f'<span class="ok">✓ {esc(t("grading.right", lang=lang))}</span>' if mark.correct
                   else f'<span class="no">✗ {esc(t("grading.not_right", lang=lang))}</span>')
        answer, message = mark.answer, mark.message
    return (f"<tr><td>{esc(exercise_id)}</td><td>{esc(_task(exercise_id, lang))}</td>"
            f"<td><code>{esc(answer)}</code></td><td>{verdict}</td>"
            f'<td class="note">{esc(message)}</td></tr>')


def student_page(result: StudentResult, columns: list[str]) -> str:
    """One student's feedback page, in the student's language."""
    lang = result.lang
    marks = {m.exercise_id: m for m in result.marks}
    right = sum(m.correct for m in result.marks)
    head = "".join(f"<th>{html.escape(t(f'grading.col_{k}', lang=lang))}</th>"
                   for k in ("exercise", "task", "answer", "result", "feedback"))
    rows = "\n".join(_mark_row(c, marks.get(c), lang=lang) for c in columns)
    notes = "".join(f"<li>{html.escape(p)}</li>" for p in result.problems)
    body = (f"<p>{html.escape(t('grading.score', lang=lang, right=right, total=len(columns)))}</p>"
            f"<table><tr>{head}</tr>\n{rows}</table>"
            + (f"<h2>{html.escape(t('grading.problems', lang=lang))}</h2><ul>{notes}</ul>"
               if notes else ""))
    return _page(t("grading.student_title", lang=lang, student=result.student), body, lang=lang)


def class_page(results: list[StudentResult], columns: list[str], *, lang: str | None) -> str:
    """The teacher's overview: the chart, then every student with a link to their page."""
    from chesskit.i18n import get_language

    code = get_language(lang)
    rows = []
    for result in results:
        right = sum(m.correct for m in result.marks)
        link = urllib.parse.quote(f"students/{student_file(result.student)}")
        rows.append(f'<tr><td><a href="{link}">{html.escape(result.student)}</a></td>'
                    f"<td>{right}/{len(columns)}</td><td>{len(result.problems)}</td></tr>")
    head = "".join(f"<th>{html.escape(t(f'grading.col_{k}', lang=code))}</th>"
                   for k in ("student", "score", "problems"))
    body = (f"<h2>{html.escape(t('grading.chart_title', lang=code))}</h2>"
            f"{bar_chart(class_rates(results), title=t('grading.chart_title', lang=code))}"
            f"<h2>{html.escape(t('grading.students', lang=code))}</h2>"
            f"<table><tr>{head}</tr>\n" + "\n".join(rows) + "</table>")
    return _page(t("grading.report_title", lang=code, students=len(results)), body, lang=code)


def write_report(results: list[StudentResult], *, out: Path, lang: str | None = None) -> Path:
    """Write ``out/index.html`` and ``out/students/<name>.html``; return the index path."""
    columns = sorted({m.exercise_id for r in results for m in r.marks})
    (out / "students").mkdir(parents=True, exist_ok=True)
    for result in results:
        (out / "students" / student_file(result.student)).write_text(
            student_page(result, columns), encoding="utf-8")
    index = out / "index.html"
    index.write_text(class_page(results, columns, lang=lang), encoding="utf-8")
    return index
