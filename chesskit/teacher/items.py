"""Item analysis from a graded class: how many solved each exercise, how well it separates
strong from weak students, and its rating re-estimated from the class.

Discrimination is the point-biserial correlation of the item with the rest of the score
(the item left out) and the upper-lower index (the share right among the top 27% of the class
minus the share among the bottom 27%). The re-rated difficulty comes from a Rasch fit of the
class's answers, on the rating scale, anchored so the items keep the bank's mean difficulty.
The result is written beside the grades (``items.csv``); the bank never changes.

>>> from chesskit.teacher.gradebook import Mark, StudentResult
>>> marks = {"a": [True, True], "b": [True, False], "c": [False, False]}
>>> rows = analyse([StudentResult(s, "en", "d", marks=tuple(Mark(f"01.0{i + 1}", "", ok, "", "")
...                 for i, ok in enumerate(m))) for s, m in marks.items()],
...                difficulty={"01.01": 500, "01.02": 700})
>>> [(r.exercise_id, r.answered, round(r.success, 2), round(r.upper_lower, 2)) for r in rows]
[('01.01', 3, 0.67, 1.0), ('01.02', 3, 0.33, 1.0)]
"""

from __future__ import annotations

import csv
import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import astuple, dataclass, fields
from pathlib import Path

from chesskit.exercises import catalog
from chesskit.teacher.gradebook import StudentResult

UPPER_LOWER = 0.27
LOGIT = math.log(10) / 400


@dataclass(frozen=True)
class ItemAnalysis:
    """One exercise's figures from a class."""

    exercise_id: str
    answered: int
    success: float
    point_biserial: float | None
    upper_lower: float | None
    bank_difficulty: int | None
    class_difficulty: int | None


def _point_biserial(item: list[float], rest: list[float]) -> float | None:
    if len(item) < 3 or len(set(item)) < 2 or len(set(rest)) < 2:
        return None
    return statistics.correlation(item, rest)


def _rasch(answers: dict[str, dict[str, bool]], mean: float) -> dict[str, float]:
    """Item difficulties (rating points) that fit the answers, mean ``mean`` (joint maximum
    likelihood, a few Newton steps, with a weak prior that keeps all-right items finite)."""
    items = sorted({e for marks in answers.values() for e in marks})
    b = dict.fromkeys(items, 0.0)
    theta = dict.fromkeys(answers, 0.0)
    for _ in range(20):
        for s, marks in answers.items():
            p = {e: 1 / (1 + math.exp(b[e] - theta[s])) for e in marks}
            grad = sum(ok - p[e] for e, ok in marks.items()) - 0.1 * theta[s]
            theta[s] += grad / (sum(q * (1 - q) for q in p.values()) + 0.1)
        for e in items:
            who = [(s, marks[e]) for s, marks in answers.items() if e in marks]
            p = {s: 1 / (1 + math.exp(b[e] - theta[s])) for s, _ in who}
            grad = sum(p[s] - ok for s, ok in who) - 0.1 * b[e]
            b[e] += grad / (sum(q * (1 - q) for q in p.values()) + 0.1)
        shift = statistics.fmean(b.values()) if b else 0.0
        b = {e: v - shift for e, v in b.items()}
    return {e: mean + v / LOGIT for e, v in b.items()}


def analyse(results: Iterable[StudentResult], *,
            difficulty: Mapping[str, int] | None = None) -> list[ItemAnalysis]:
    """The item analysis of graded ``results`` (each student's first mark per exercise);
    ``difficulty``: the bank's difficulty per exercise (read from the bank by default)."""
    if difficulty is None:

        difficulty = {ex.id: ex.difficulty for ex in catalog.bank()}
    answers: dict[str, dict[str, bool]] = {}
    for result in results:
        marks = answers.setdefault(result.student, {})
        for mark in result.marks:
            marks.setdefault(mark.exercise_id, mark.correct)
    totals = {s: sum(m.values()) for s, m in answers.items()}
    ranked = sorted(answers, key=totals.__getitem__)
    cut = max(1, round(len(ranked) * UPPER_LOWER))
    lower, upper = set(ranked[:cut]), set(ranked[-cut:])
    known = [difficulty[e] for e in {e for m in answers.values() for e in m} if e in difficulty]
    rated = _rasch(answers, statistics.fmean(known) if known else 800.0)
    rows = []
    for exercise_id in sorted(rated):
        who = [(s, m[exercise_id]) for s, m in answers.items() if exercise_id in m]
        item = [float(ok) for _, ok in who]
        rest = [float(totals[s] - ok) for s, ok in who]
        up = [ok for s, ok in who if s in upper]
        low = [ok for s, ok in who if s in lower]
        rows.append(ItemAnalysis(
            exercise_id, len(who), statistics.fmean(item), _point_biserial(item, rest),
            statistics.fmean(up) - statistics.fmean(low) if up and low else None,
            difficulty.get(exercise_id), round(rated[exercise_id])))
    return rows


def write_items(rows: list[ItemAnalysis], path: Path) -> Path:
    """Write the analysis as a CSV file spreadsheets open right (UTF-8 with a BOM)."""
    with path.open("w", encoding="utf-8-sig", newline="") as stream:
        out = csv.writer(stream)
        out.writerow([f.name for f in fields(ItemAnalysis)])
        out.writerows([("" if v is None else round(v, 3) if isinstance(v, float) else v)
                       for v in astuple(row)] for row in rows)
    return path
