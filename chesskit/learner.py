"""A student's own record: every ``ck.answer`` is saved, and ``ck.progress()`` sums it up.

Attempts live in SQLite (WAL mode, so several kernels can write at once) in the user's data
folder, or in ``$CHESSKIT_DATA_DIR``.  Missed exercises come back for review after 1, 3 and 7
days; the practice rating follows the Elo rule ΔR = K(W − We), each exercise's difficulty
being the opponent.

>>> practice_rating([Attempt("01.01", 1, 800, True, "correct", "Ra8#", 0.0)])
812
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sqlite3
import sys
import time
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from chesskit.errors import BankError
from chesskit.i18n import localize, t
from chesskit.ratings import expected_score, k_factor

START_RATING = 800
REVIEW_DAYS = (1, 3, 7)
_DAY = 86400.0
_SCHEMA = """CREATE TABLE IF NOT EXISTS attempts (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, exercise_id TEXT NOT NULL, lesson INTEGER,
    difficulty INTEGER, correct INTEGER NOT NULL, code TEXT NOT NULL, answer TEXT NOT NULL,
    at REAL NOT NULL)"""


@dataclass(frozen=True)
class Attempt:
    """One recorded answer; ``at`` is seconds since the epoch."""

    exercise_id: str
    lesson: int | None
    difficulty: int | None
    correct: bool
    code: str
    answer: str
    at: float


def data_dir() -> Path:
    """Where progress is kept: ``$CHESSKIT_DATA_DIR`` or the user's data folder."""
    if os.environ.get("CHESSKIT_DATA_DIR"):
        return Path(os.environ["CHESSKIT_DATA_DIR"])
    home = Path.home()
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming") / "chesskit"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "chesskit"
    return Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share") / "chesskit"


def recording() -> bool:
    """False when ``$CHESSKIT_RECORD`` is "0": the course build and its tests keep no progress."""
    return os.environ.get("CHESSKIT_RECORD", "1") != "0"


def _connect() -> sqlite3.Connection:
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(folder / "progress.sqlite", timeout=30, isolation_level=None)
    db.execute("PRAGMA busy_timeout=30000")
    db.execute("PRAGMA journal_mode=WAL")
    db.execute(_SCHEMA)
    return db


def _lesson_of(exercise_id: str) -> int | None:
    head = exercise_id.partition(".")[0]
    return int(head) if head.isdigit() else None


def record_attempt(exercise_id: str, *, correct: bool, code: str = "", answer: str = "",
                   lesson: int | None = None, difficulty: int | None = None,
                   at: float | None = None) -> None:
    """Save one attempt (one short transaction; safe with several kernels).

    >>> record_attempt("01.01", correct=True, code="correct", answer="Ra8#")  # doctest: +SKIP
    """
    if not recording():
        return
    db = _connect()
    try:
        db.execute("INSERT INTO attempts (exercise_id, lesson, difficulty, correct, code, answer,"
                   " at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (exercise_id, lesson if lesson is not None else _lesson_of(exercise_id),
                    difficulty, int(correct), code, answer, time.time() if at is None else at))
    finally:
        db.close()


def attempts() -> list[Attempt]:
    """Every recorded attempt, oldest first."""
    if not recording():
        return []
    db = _connect()
    try:
        rows = db.execute("SELECT exercise_id, lesson, difficulty, correct, code, answer, at"
                          " FROM attempts ORDER BY at, seq").fetchall()
    finally:
        db.close()
    return [Attempt(r[0], r[1], r[2], bool(r[3]), r[4], r[5], r[6]) for r in rows]


# ---------------------------------------------------------------- answering

def answer(exercise_id: str, answer: object) -> Any:
    """Check an answer and record the attempt; the Feedback shows itself; never raises.

    >>> answer("99.99", "e4").code  # doctest: +SKIP
    'unknown_exercise'
    """
    from chesskit import catalog
    from chesskit.exercises import Feedback

    text = answer if isinstance(answer, str) else str(answer)
    try:
        exercise = catalog.exercise(str(exercise_id))
    except (BankError, TypeError, ValueError):
        feedback = Feedback(correct=False, code="unknown_exercise",
                            message=t("learner.unknown_exercise", id=str(exercise_id)),
                            squares=(), answer=text, exercise_id=str(exercise_id))
        return feedback
    feedback = exercise.check(answer)
    if feedback.code != "empty":
        with contextlib.suppress(sqlite3.Error, OSError):
            record_attempt(exercise.id, correct=feedback.correct, code=feedback.code,
                           answer=feedback.answer or text, lesson=exercise.lesson,
                           difficulty=exercise.difficulty)
    return feedback


# ---------------------------------------------------------------- summing up

def practice_rating(history: Iterable[Attempt], *, start: int = START_RATING) -> int:
    """The Elo rating after each exercise's first rated attempt (K 25 for 30, then 15)."""
    rating, games, seen = float(start), 0, set()
    for attempt in history:
        if attempt.exercise_id in seen or attempt.difficulty is None:
            continue
        seen.add(attempt.exercise_id)
        rating += k_factor(games_played=games) * (
            float(attempt.correct) - expected_score(rating, attempt.difficulty))
        games += 1
    return round(rating)


def review_schedule(history: Iterable[Attempt]) -> dict[str, float]:
    """When each missed exercise is due again: 1 day after a miss, then 3, then 7; then done.

    >>> review_schedule([Attempt("01.01", 1, 800, False, "wrong", "e4", 0.0)])
    {'01.01': 86400.0}
    """
    stage: dict[str, int] = {}
    due: dict[str, float] = {}
    for attempt in history:
        key = attempt.exercise_id
        if not attempt.correct:
            stage[key] = 0
        elif key in stage:
            stage[key] += 1
        else:
            continue
        if stage[key] >= len(REVIEW_DAYS):
            del stage[key]
            due.pop(key, None)
        else:
            due[key] = attempt.at + REVIEW_DAYS[stage[key]] * _DAY
    return dict(sorted(due.items()))


@dataclass(frozen=True)
class LessonProgress:
    lesson: int
    title: str
    solved: int
    total: int


@dataclass(frozen=True)
class Progress:
    """What ``ck.progress()`` shows; displays itself as HTML with an SVG chart."""

    lessons: tuple[LessonProgress, ...]
    review: tuple[tuple[str, int], ...]  # (exercise id, days until due; 0 = today)
    rating: int
    attempts: int
    lang: str

    def __str__(self) -> str:
        lines = [t("learner.rating", lang=self.lang, rating=self.rating, attempts=self.attempts)]
        lines += [t("learner.lesson_line", lang=self.lang, title=p.title, solved=p.solved,
                    total=p.total) for p in self.lessons]
        lines.append(self._review_text())
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def _review_text(self) -> str:
        if not self.review:
            return t("learner.nothing_to_review", lang=self.lang)
        due = [e for e, days in self.review if days == 0]
        later = [t("learner.review_tomorrow" if d == 1 else "learner.review_later",
                   lang=self.lang, id=e, days=d) for e, d in self.review if d > 0]
        parts = [t("learner.review_now", lang=self.lang, ids=", ".join(due))] if due else []
        return " ".join(parts + later)

    def _repr_html_(self) -> str:
        import html

        from chesskit.report import bar_chart

        rows = [(p.title, p.solved, p.total) for p in self.lessons]
        rating = t("learner.rating", lang=self.lang, rating=self.rating, attempts=self.attempts)
        return (f"<p>{html.escape(rating)}</p>"
                + bar_chart(rows, title=t("learner.chart_title", lang=self.lang))
                + f"<p>{html.escape(self._review_text())}</p>")


def _lesson_titles(lang: str | None) -> dict[int, str]:
    from chesskit import catalog

    titles: dict[int, str] = {}
    with contextlib.suppress(AttributeError, BankError):
        for info in catalog.lessons():
            number = getattr(info, "lesson", getattr(info, "number", None))
            title = getattr(info, "title", None)
            if isinstance(number, int) and isinstance(title, str | Mapping):
                titles[number] = t("learner.lesson_title", lang=lang, n=number,
                                   title=localize(title, lang=lang))
    return titles


def summarize(history: list[Attempt], *, now: float, lang: str | None = None) -> Progress:
    """The progress shown for ``history`` at time ``now`` (a pure function of both)."""
    from chesskit import catalog
    from chesskit.i18n import get_language

    solved = {a.exercise_id for a in history if a.correct}
    totals: dict[int, list[int]] = {}
    for item in catalog.bank():
        counts = totals.setdefault(item.lesson, [0, 0])
        counts[0] += item.id in solved
        counts[1] += 1
    titles = _lesson_titles(lang)
    lessons = tuple(LessonProgress(n, titles.get(n, t("learner.lesson", lang=lang, n=n)), s, k)
                    for n, (s, k) in sorted(totals.items()))
    review = tuple((e, max(0, math.ceil((due - now) / _DAY)))
                   for e, due in review_schedule(history).items())
    return Progress(lessons, review, practice_rating(history), len(history), get_language(lang))


def progress(*, lang: str | None = None) -> Progress:
    """Your completion per lesson, what to review today, and your practice rating."""
    return summarize(attempts(), now=time.time(), lang=lang)


def progress_main(argv: list[str] | None = None) -> int:
    """``chesskit progress [--export FILE] [--lang zh-Hans]``: print, or write a file to hand in."""
    parser = argparse.ArgumentParser(prog="chesskit progress", description=t("learner.cli_help"))
    parser.add_argument("--export", metavar="FILE", help=t("learner.cli_export"))
    parser.add_argument("--lang", default=None)
    args = parser.parse_args(argv)
    history = attempts()
    summary = summarize(history, now=time.time(), lang=args.lang)
    if args.export:
        record = {"rating": summary.rating, "lessons": [asdict(p) for p in summary.lessons],
                  "review": [list(r) for r in summary.review],
                  "attempts": [asdict(a) for a in history]}
        Path(args.export).write_text(json.dumps(record, ensure_ascii=False, indent=1,
                                                sort_keys=True) + "\n", encoding="utf-8")
        print(t("learner.exported", lang=args.lang, path=args.export))
    else:
        print(summary)
    return 0
