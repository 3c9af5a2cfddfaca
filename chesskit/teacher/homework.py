"""Homework sets: an exercise notebook drawn from the bank, graded like the course's own.

The layout is the course's: a hidden set-up cell (``import chesskit as ck``,
``ck.set_language(...)``), then per item ``ck.exercise("id")`` and ``ck.answer("id", "")``.

>>> pick(["01.01", "01.02", "01.03"], count=2, seed=7)
['01.01', '01.02']
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import nbformat

from chesskit.course.notebooks import course_notebook, exercise_cells
from chesskit.errors import WorksheetError
from chesskit.exercises import catalog
from chesskit.i18n import get_language, t
from chesskit.teacher.assignment import assignment_toml, parse_assignment
from chesskit.teacher.skills import weak_homework
from chesskit.teacher.worksheet import checked_count, sheet_name, worksheet


def pick(ids: Sequence[str], *, count: int, seed: int) -> list[str]:
    """``count`` of ``ids`` drawn with ``seed`` (all of them if there are fewer), sorted."""
    return sorted(random.Random(seed).sample(list(ids), min(count, len(ids))))


def select(*, topic: str | None = None, lesson: int | None = None, count: int = 10,
           seed: int = 7, lang: str | None = None) -> list[Any]:
    """The exercises of a homework set, easiest first."""

    pool = {item.id: item for item in catalog.matching(lesson=lesson, topic=topic, lang=lang)}
    chosen = [pool[i] for i in pick(sorted(pool), count=count, seed=seed)]
    return sorted(chosen, key=lambda item: (item.difficulty, item.id))


def title_for(*, topic: str | None, lesson: int | None, lang: str | None = None) -> str:
    """The homework's title: "Homework: Lesson 12 · fork"."""
    return t("worksheet.homework_title", lang=lang,
             name=sheet_name(lesson=lesson, topic=topic, lang=lang))


def notebook_for(exercises: Sequence[Any], *, title: str, lang: str) -> nbformat.NotebookNode:
    """The homework notebook for ``exercises`` (cell ids are stable: ``hw-000`` ...)."""

    intro_text = t("worksheet.homework_intro", lang=lang)
    intro = nbformat.v4.new_markdown_cell(f"# {title}\n\n{intro_text}")
    return course_notebook([intro, *exercise_cells(item.id for item in exercises)], lang=lang,
                           prefix="hw", metadata={"homework": [item.id for item in exercises]})


def homework(*, topic: str | None = None, lesson: int | None = None, count: int = 10,
             seed: int = 7, lang: str | None = None) -> nbformat.NotebookNode:
    """A homework notebook of ``count`` exercises on a topic and/or lesson, drawn with ``seed``."""
    code = get_language(lang)
    items = select(topic=topic, lesson=lesson, count=count, seed=seed, lang=code)
    return notebook_for(items, title=title_for(topic=topic, lesson=lesson, lang=code), lang=code)


def main(argv: list[str] | None = None) -> int:
    """``chesskit homework --topic fork --count 10 --seed 7 -o hw.ipynb [--worksheet s.pdf]
    [--due 2026-03-09] [--points 1]``; writes ``hw.toml`` next to it for ``chesskit grade
    --assignment hw.toml``."""
    parser = argparse.ArgumentParser(prog="chesskit homework",
                                     description=t("worksheet.homework_cli_help"))
    parser.add_argument("--topic", help=t("worksheet.cli_topic"))
    parser.add_argument("--lesson", type=int, help=t("worksheet.cli_lesson"))
    parser.add_argument("--count", type=int, default=10, help=t("worksheet.cli_count", n=10))
    parser.add_argument("--seed", type=int, default=7, help=t("worksheet.cli_seed"))
    parser.add_argument("--lang", help=t("worksheet.cli_lang"))
    parser.add_argument("-o", "--output", required=True, help=t("worksheet.cli_notebook"))
    parser.add_argument("--worksheet", metavar="PDF", help=t("worksheet.cli_also_pdf"))
    parser.add_argument("--points", type=float, default=1.0, help=t("worksheet.cli_points"))
    parser.add_argument("--due", help="2026-03-09 or 2026-03-09T08:00:00")
    parser.add_argument("--weak", metavar="GRADEBOOK", help=t("learner.cli_weak"))
    parser.add_argument("--student", help=t("learner.cli_student"))
    args = parser.parse_args(argv)
    lang = get_language(args.lang)
    checked_count(args.count, lang=lang)
    if args.weak:  # the weakest skills of the class or of one student (teacher.skills)

        items, title = weak_homework(args.weak, student=args.student, count=args.count,
                                     seed=args.seed, lang=lang)
    else:
        items = select(topic=args.topic, lesson=args.lesson, count=args.count, seed=args.seed,
                       lang=lang)
        title = title_for(topic=args.topic, lesson=args.lesson, lang=lang)
    if not items:
        raise WorksheetError(t("worksheet.no_items", lang=lang))
    notebook = notebook_for(items, title=title, lang=lang)
    output = Path(args.output)
    text = assignment_toml(ids=[item.id for item in items], notebook=output.name, title=title,
                           points=args.points, due=args.due)
    parse_assignment(text)  # bad points or due date stop here, before anything is written
    output.write_text(nbformat.writes(notebook) + "\n", encoding="utf-8")
    output.with_suffix(".toml").write_text(text, encoding="utf-8")
    print(t("worksheet.homework_written", lang=lang, path=args.output, n=len(items)))
    print(t("grading.assignment_written", lang=lang, path=output.with_suffix(".toml")))
    if args.worksheet:

        Path(args.worksheet).write_bytes(worksheet(items, lang=lang, answers=True, title=title))
        print(t("worksheet.written", lang=lang, path=args.worksheet, n=len(items)))
    return 0
