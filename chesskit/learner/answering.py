"""``ck.answer``: check an answer, record the attempt, say what happened; never raises.

An empty answer to an exercise already answered on its board says that the board answer was
counted (and shows it) instead of asking for an answer.

>>> answer("99.99", "e4").code
'unknown_exercise'
"""

from __future__ import annotations

import contextlib
import sqlite3

from chesskit.errors import BankError
from chesskit.exercises import Feedback, catalog
from chesskit.i18n import t
from chesskit.learner import store


def _counted(exercise_id: str, empty: Feedback) -> Feedback:
    """The answer already recorded for an exercise (on its board), or ``empty``."""
    last = store.last_attempt(exercise_id)
    if last is None or not last.answer:
        return empty
    key = "learner.counted_right" if last.correct else "learner.counted_wrong"
    return Feedback(last.correct, "counted", t(key, id=exercise_id, answer=last.answer),
                    (), last.answer, exercise_id)


def answer(exercise_id: str, answer: object) -> Feedback:
    """Check an answer and record the attempt; the Feedback shows itself; never raises."""
    text = answer if isinstance(answer, str) else str(answer)
    try:
        exercise = catalog.exercise(str(exercise_id))
    except (BankError, TypeError, ValueError):
        return Feedback(correct=False, code="unknown_exercise",
                        message=t("learner.unknown_exercise", id=str(exercise_id)),
                        squares=(), answer=text, exercise_id=str(exercise_id))
    feedback = exercise.check(answer)
    if feedback.code == "empty":
        return _counted(exercise.id, feedback)
    said = len(store.notes())
    with contextlib.suppress(sqlite3.Error, OSError):  # record_attempt keeps it aside
        store.record_attempt(exercise.id, correct=feedback.correct, code=feedback.code,
                             answer=feedback.answer or text, lesson=exercise.lesson,
                             difficulty=exercise.difficulty)
    for note in store.notes()[said:]:
        print(note)
    return feedback
