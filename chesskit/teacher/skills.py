"""The class's skills map (who is weak where) and homework from the weakest skills.

Each student's graded marks are summed up per skill of the course
(:data:`chesskit.learner.skills.SKILLS`): right answers out of answered exercises.

>>> from chesskit.teacher.gradebook import Mark, StudentResult
>>> book = skills_map([StudentResult("ana", "en", "d", marks=(Mark("23.01", "Nc7+", True,
...                                                               "correct", ""),))])
>>> book.share("ana", "fork")
1.0
"""

from __future__ import annotations

import html
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chesskit.errors import GradingError
from chesskit.exercises import catalog
from chesskit.i18n import t
from chesskit.learner.skills import SKILLS, bank_skills, skill_name
from chesskit.teacher.gradebook import Gradebook, StudentResult

WEAK_SHOWN = 2


@dataclass
class SkillsMap:
    """Right answers and answers per (student, skill), from graded marks."""

    students: list[str] = field(default_factory=list)
    counts: dict[tuple[str, str], list[int]] = field(default_factory=dict)

    def share(self, student: str | None, skill: str) -> float | None:
        """The share right at a skill, for a student or (None) the class; None: no answers."""
        cells = [c for (s, k), c in self.counts.items() if k == skill and student in (None, s)]
        total = sum(c[1] for c in cells)
        return sum(c[0] for c in cells) / total if total else None

    def skills(self) -> list[str]:
        return [s for s in SKILLS if any(k == s for _, k in self.counts)]

    def weakest(self, student: str | None = None, *, n: int = WEAK_SHOWN) -> list[str]:
        """The skills with the lowest share right (a student's, or the class's)."""
        found = [(share, s) for s in self.skills()
                 if (share := self.share(student, s)) is not None]
        return [s for _, s in sorted(found)[:n]]

    def html(self, *, lang: str) -> str:
        """A table: a row per student, a column per skill, each cell a bar of the share."""
        esc = html.escape
        skills = self.skills()
        head = "".join(f"<th>{esc(skill_name(s, lang=lang))}</th>" for s in skills)
        rows = []
        for student in [None, *self.students]:
            cells = []
            for skill in skills:
                share = self.share(student, skill)
                cells.append("<td></td>" if share is None else
                             f'<td title="{round(100 * share)}%"><svg width="50" height="10">'
                             f'<rect width="50" height="10" fill="#eef2f6"/><rect width='
                             f'"{round(50 * share)}" height="10" fill="#3b82c4"/></svg></td>')
            name = esc(t("learner.class_row", lang=lang) if student is None else student)
            rows.append(f"<tr><td>{name}</td>{''.join(cells)}</tr>")
        weak = ", ".join(skill_name(s, lang=lang) for s in self.weakest())
        return (f"<h2>{esc(t('learner.skills_map', lang=lang))}</h2>"
                f"<p>{esc(t('learner.class_weakest', lang=lang, skills=weak or '-'))}</p>"
                f"<table><tr><th></th>{head}</tr>{''.join(rows)}</table>")


def skills_map(results: Iterable[StudentResult]) -> SkillsMap:
    """The skills map of graded results (each student's first mark per exercise)."""
    found = SkillsMap()
    skills = bank_skills()
    for result in results:
        found.students.append(result.student)
        seen: set[str] = set()
        for mark in result.marks:
            if mark.exercise_id in seen:
                continue
            seen.add(mark.exercise_id)
            for skill in skills.get(mark.exercise_id, ()):
                cell = found.counts.setdefault((result.student, skill), [0, 0])
                cell[0] += mark.correct
                cell[1] += 1
    return found


SKILLS_PAGE = "skills.html"


def skills_link(*, lang: str) -> str:
    """The report index's link to the class's skills map (``skills.html`` beside it).

    >>> skills_link(lang="en")
    '<p><a href="skills.html">Skills map: who is weak where</a></p>'
    """
    return f'<p><a href="{SKILLS_PAGE}">{html.escape(t("learner.skills_link", lang=lang))}</a></p>'


def write_skills_page(results: Iterable[StudentResult], folder: Path, *, lang: str) -> Path:
    """Write ``skills.html`` (the class's skills map) into the report folder."""
    page = folder / SKILLS_PAGE
    body = skills_map(results).html(lang=lang)
    page.write_text(f'<!doctype html><html lang="{lang}"><meta charset="utf-8"><title>'
                    f"{html.escape(t('learner.skills_map', lang=lang))}</title><body>{body}"
                    "</body></html>\n", encoding="utf-8")
    return page


def weak_items(results: Iterable[StudentResult], *, student: str | None = None,
               count: int = 10, seed: int = 7) -> tuple[list[str], list[Any]]:
    """The weakest skills (of a student, or the class) and ``count`` bank exercises of them,
    not yet answered right by that student (or by most of the class), easiest first."""

    results = list(results)
    found = skills_map(results)
    weak = found.weakest(student)
    right = {m.exercise_id for r in results if student in (None, r.student)
             for m in r.marks if m.correct}
    skills = bank_skills()
    pool = [ex for ex in catalog.bank() if set(skills.get(ex.id, ())) & set(weak)
            and ex.id not in right]
    chosen = random.Random(seed).sample(pool, min(count, len(pool)))
    return weak, sorted(chosen, key=lambda ex: (ex.difficulty, ex.id))


def weak_homework(gradebook: str | Path, *, student: str | None = None, count: int = 10,
                  seed: int = 7, lang: str | None = None) -> tuple[list[Any], str]:
    """The exercises and title of a homework on the weakest skills in a gradebook (the file,
    or the grading folder that holds ``gradebook.sqlite``); GradingError when it has none."""

    path = Path(gradebook)
    if path.is_dir():
        path = path / "gradebook.sqlite"
    if not path.is_file():
        raise GradingError(t("grading.no_gradebook", lang=lang, path=path))
    with Gradebook(path) as book:
        results = book.results()
    if student is not None and student not in {r.student for r in results}:
        raise GradingError(t("learner.no_student", lang=lang, student=student))
    weak, items = weak_items(results, student=student, count=count, seed=seed)
    if not items:
        raise GradingError(t("learner.no_weak", lang=lang))
    names = ", ".join(skill_name(s, lang=lang) for s in weak)
    return items, t("learner.weak_title", lang=lang, skills=names)
