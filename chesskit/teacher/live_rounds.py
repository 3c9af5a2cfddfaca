"""The live classroom's rounds in the teacher's class report and gradebook.

:func:`grade_rounds` makes closed rounds graded items of the gradebook (one point for a right
answer), once: the same round is never added twice (the commands are in
:mod:`chesskit.teacher.live_cli`).  The gradebook keeps the graded rounds in its setting
``live_rounds`` (JSON) and the store's path in ``classroom_store``, so ``chesskit grade``
puts the rounds in its report and its CSVs (the part ``live``), also after students handed in
homework again.

>>> from chesskit.classroom.store import Store
>>> store = Store(":memory:")
>>> rid = store.open_round("class", {"fen": "7k/8/6K1/8/8/8/8/R7 w - - 0 1",
...                                  "prompts": {"en": "Mate in one."}, "right": ["a1a8"]})
>>> store.answer(rid, "ana", san="Ra8#", uci="a1a8", correct=True)
>>> [(r.answered, r.correct, dict(r.moves)) for r in live_rounds(store)]
[(1, 1, {'Ra8#': 1})]
"""

from __future__ import annotations

import html
import json
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from chesskit.classroom.store import Answer, Store
from chesskit.errors import ClassroomError
from chesskit.i18n import FALLBACK, t
from chesskit.teacher.assignment import Assignment, Part
from chesskit.teacher.gradebook import Gradebook, Mark, StudentResult
from chesskit.teacher.submissions import likeness

PART = "live"
"""The part of the assignment that holds the graded rounds."""
SETTING, STORE_SETTING = "live_rounds", "classroom_store"


@dataclass(frozen=True)
class LiveRound:
    """A round as the report shows it: the task, who answered what."""

    id: int
    klass: str
    state: str
    opened: float
    fen: str
    exercise: str | None
    prompts: dict[str, str]
    judged: bool
    joined: int
    answers: tuple[Answer, ...]

    @property
    def item(self) -> str:
        """Its id as a graded item: the day it was played and its number, ``live-20261204-7``."""
        return f"live-{time.strftime('%Y%m%d', time.localtime(self.opened))}-{self.id}"

    @property
    def answered(self) -> int:
        """How many students answered."""
        return len(self.answers)

    @property
    def correct(self) -> int | None:
        """How many answered right (None when the round was not judged)."""
        return sum(bool(a.correct) for a in self.answers) if self.judged else None

    @property
    def right_percent(self) -> str:
        """"75%" of the answers right ("" when the round was not judged)."""
        right, answered = self.correct, self.answered
        return "" if right is None else f"{round(100 * right / answered) if answered else 0}%"

    @property
    def moves(self) -> dict[str, int]:
        """Move -> how many played it, the most played first."""
        counts = Counter(a.san for a in self.answers)
        return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))

    def prompt(self, lang: str) -> str:
        """The task in ``lang`` (else English)."""
        return self.prompts.get(lang) or self.prompts.get(FALLBACK, "")


def live_rounds(store: Store, *, ids: Iterable[int] | None = None) -> list[LiveRound]:
    """The rounds of every class in the store, oldest first (with ``ids``, those only)."""
    wanted = None if ids is None else set(ids)
    found = []
    for rnd in store.rounds():
        if wanted is not None and rnd.id not in wanted:
            continue
        task = rnd.task
        found.append(LiveRound(
            rnd.id, rnd.klass, rnd.state, rnd.opened, str(task["fen"]), task.get("exercise"),
            dict(task.get("prompts") or {}),
            bool(task.get("exercise") or task.get("goal") or task.get("right")),
            store.joined(rnd.klass, before=rnd.closed or time.time()),
            tuple(store.answers(rnd.id))))
    return found


def open_classroom_store(path: str | Path) -> Store:
    """The classroom store at ``path``; ClassroomError when there is none."""
    if not Path(path).is_file():
        raise ClassroomError("store", t("classroom.live_no_store", path=str(path)))
    return Store(path)


# -- the report ------------------------------------------------------------------------------
def _moves(rnd: LiveRound) -> str:
    return ", ".join(f"{move} ×{count}" for move, count in rnd.moves.items())


def rounds_section(rounds: list[LiveRound], *, lang: str, graded: Iterable[str] | None = None,
                   heading: bool = True) -> str:
    """The "Live rounds" section of the class report (HTML): a row per round, and per round
    who played what; with ``graded`` (the gradebook's items), a column naming them."""
    esc, done = html.escape, None if graded is None else set(graded)
    keys = ("time", "round", "task", "answered", "right", "moves") + (
        () if done is None else ("graded",))
    head = "".join(f"<th>{esc(t(f'classroom.live_col_{k}', lang=lang))}</th>" for k in keys)
    rows = []
    for rnd in rounds:
        task = rnd.prompt(lang) + (f" ({rnd.exercise})" if rnd.exercise else "")
        who = ", ".join(
            f"{a.student}: {a.san}" + ("" if a.correct is None else " ✓" if a.correct else " ✗")
            for a in rnd.answers)
        rows.append(
            f"<tr><td class=n>{esc(time.strftime('%Y-%m-%d %H:%M', time.localtime(rnd.opened)))}"
            f"</td><td class=n>{rnd.id}</td><td class=task>{esc(task)}<br><code>{esc(rnd.fen)}"
            f"</code></td><td class=n>{rnd.answered}/{rnd.joined}</td>"
            f"<td class=n>{rnd.right_percent}</td>"
            f"<td><code>{esc(_moves(rnd))}</code><details><summary>"
            f"{esc(t('classroom.live_who', lang=lang))}</summary>{esc(who)}</details></td>"
            + ("" if done is None else
               f"<td class=n>{esc(rnd.item if rnd.item in done else '')}</td>") + "</tr>")
    if not rows:
        return ""
    title = f"<h2>{esc(t('classroom.live_title', lang=lang))}</h2>" if heading else ""
    return f"{title}<table><tr>{head}</tr>" + "\n".join(rows) + "</table>"


def report_section(book: Gradebook, *, lang: str) -> str:
    """The "Live rounds" section for the gradebook's class report ("" when the teacher never
    graded a round; a store that cannot be read any more is said in one sentence)."""
    path = book.setting(STORE_SETTING)
    if not path:
        return ""
    try:
        store = open_classroom_store(path)
    except ClassroomError as error:
        return f'<p class="note">{html.escape(str(error))}</p>'
    try:
        return rounds_section(live_rounds(store), lang=lang, graded=graded_items(book))
    finally:
        store.close()


# -- the gradebook ---------------------------------------------------------------------------
def graded_items(book: Gradebook) -> dict[str, dict[str, Any]]:
    """The rounds in the gradebook: item -> {"round", "class", "prompt", "marks":
    {student: [move, right]}}."""
    stored = book.setting(SETTING)
    return dict(json.loads(stored)) if stored else {}


def _student(name: str, known: dict[str, str], book: Gradebook) -> str:
    """The gradebook's name of a classroom student: the name the teacher renamed them to,
    else the student whose name looks the same (NFKC, case, spaces), else the name."""
    renamed = book.alias(name)
    if renamed != name:
        return renamed
    return known.get(likeness(name), name)


def grade_rounds(book: Gradebook, store: Store, rounds: list[LiveRound], *,
                 store_path: str = "") -> list[tuple[LiveRound, bool]]:
    """Add closed rounds to the gradebook as items (one point for a right answer); each
    with False when it was there already (nothing changes then).  Students who are not in
    the gradebook yet are added."""
    for rnd in rounds:
        if rnd.state != "closed":
            raise ClassroomError("open", t("classroom.live_open_round", id=rnd.id))
    items = graded_items(book)
    known = {likeness(s): s for s in book.students()}
    done = []
    for rnd in rounds:
        if rnd.item in items:
            done.append((rnd, False))
            continue
        langs = store.languages(rnd.klass)
        marks: dict[str, list[Any]] = {}
        for answer in rnd.answers:
            student = _student(answer.student, known, book)
            if student not in known.values():
                book.record(StudentResult(student, langs.get(answer.student, FALLBACK), ""))
                known[likeness(student)] = student
            marks[student] = [answer.san, bool(answer.correct)]
        items[rnd.item] = {"round": rnd.id, "class": rnd.klass, "prompt": rnd.prompt(FALLBACK),
                           "marks": marks}
        done.append((rnd, True))
    book.set_setting(SETTING, json.dumps(items, ensure_ascii=False))
    if store_path:
        book.set_setting(STORE_SETTING, str(Path(store_path).resolve()))
    return done


def with_rounds(assignment: Assignment, book: Gradebook) -> Assignment:
    """The assignment with the graded rounds as its last part (unchanged when there are
    none)."""
    items = graded_items(book)
    if not items:
        return assignment
    return replace(assignment, parts=(*assignment.parts, Part(PART, tuple(items))))


def live_marks(book: Gradebook) -> dict[str, tuple[Mark, ...]]:
    """Student (the gradebook's name, after renames) -> their answers to the graded rounds as
    marks (origin ``live``, the round's task as the message)."""
    marks: dict[str, list[Mark]] = {}
    for item, info in graded_items(book).items():
        for name, (move, right) in info["marks"].items():
            marks.setdefault(book.alias(name), []).append(
                Mark(item, move, bool(right), "live", info["prompt"], origin="live"))
    return {student: tuple(found) for student, found in marks.items()}


def with_marks(result: StudentResult, marks: dict[str, tuple[Mark, ...]]) -> StudentResult:
    """A student's result with their answers to the graded rounds (from :func:`live_marks`)."""
    added = marks.get(result.student, ())
    return replace(result, marks=(*result.marks, *added)) if added else result
