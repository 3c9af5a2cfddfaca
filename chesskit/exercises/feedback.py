"""The verdict on one answer.

>>> Feedback(True, "correct", "Right!", exercise_id="12.01")
<chesskit.Feedback 12.01 correct>
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

import chess

Code = Literal["correct", "wrong", "illegal", "unparseable", "empty", "incomplete",
               "not_gradable", "unknown_exercise", "counted", "check_error"]
"""What a verdict can say; ``unknown_exercise`` and ``counted`` are ``ck.answer``'s own;
``check_error``: the checking code failed (a bug, logged), the learner is told it is not their
mistake."""
CODES: tuple[Code, ...] = get_args(Code)


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer: ``correct``, a ``code`` of :data:`CODES` and a sentence.

    >>> Feedback(False, "empty", "Write your answer.").code
    'empty'
    """

    correct: bool
    code: str
    message: str
    squares: tuple[chess.Square, ...] = ()
    answer: str = ""
    exercise_id: str = ""

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"<chesskit.Feedback {self.exercise_id} {self.code}>"

    def _repr_markdown_(self) -> str:
        mark = "✓" if self.correct else ("✎" if self.code == "empty" else "✗")
        return f"{mark} {self.message}"
