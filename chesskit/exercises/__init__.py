"""Exercises: one model for every kind, answers checked from the rules, never from one line.

The package: ``model`` (the Exercise), ``feedback`` (the verdict), ``answers`` (reading
answers), ``hints`` (the hint ladder), ``display`` (the notebook), ``protocol`` (what a kind
implements), ``registry`` (the kinds) and one module per kind (``square`` ... ``playout``).

>>> ex = Exercise(id="12.01", lesson=12, kind="move", goal="mate",
...               fen="6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
>>> ex.check("Ra8#").correct, ex.check("ra8").correct
(True, True)
>>> ex.check("Ra7").code
'wrong'
"""

from __future__ import annotations

from chesskit.exercises.answers import (
    MAX_ANSWER,
    move_tokens,
    read_number,
    read_placement,
    read_squares,
)
from chesskit.exercises.choice import OPTIONS, QUESTIONS, choice_key
from chesskit.exercises.count import COUNTS, RATING_COUNTS, count_value
from chesskit.exercises.feedback import CODES, Feedback
from chesskit.exercises.model import EMPTY_FEN, Exercise
from chesskit.exercises.move import MOTIF_GOALS, MOVE_GOALS, REVIEW_GOALS
from chesskit.exercises.protocol import (
    BoardInput,
    BoardMarks,
    CountName,
    Goal,
    Kind,
    KindName,
    Mode,
    Question,
)
from chesskit.exercises.registry import KINDS

MODES = {name: kind.closed["mode"] for name, kind in KINDS.items() if "mode" in kind.closed}
"""The modes of the kinds that have one."""

__all__ = [
    "CODES", "COUNTS", "EMPTY_FEN", "KINDS", "MAX_ANSWER", "MODES", "MOTIF_GOALS", "MOVE_GOALS",
    "OPTIONS", "QUESTIONS", "RATING_COUNTS", "REVIEW_GOALS", "BoardInput", "BoardMarks",
    "CountName", "Exercise", "Feedback", "Goal", "Kind", "KindName", "Mode", "Question",
    "choice_key", "count_value", "move_tokens", "read_number", "read_placement", "read_squares",
]
