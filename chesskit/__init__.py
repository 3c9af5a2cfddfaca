"""chesskit: a beginners' chess course in Jupyter.

One import is all a notebook needs::

    >>> import chesskit as ck
    >>> ck.read_move("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Nf3").uci()
    'g1f3'

Names are loaded on first use, so ``import chesskit`` stays cheap in a kernel.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

from chesskit.errors import BankError, ChessKitError, MoveError, PositionError
from chesskit.i18n import get_language, set_language

__version__ = "0.1.0"

_LAZY = {
    "board": "diagram",
    "BoardSvg": "diagram",
    "save_board": "render",
    "read_move": "notation",
    "explain_move": "explain",
    "CODES": "explain",
    "normalize_move_text": "notation",
    "Verdict": "explain",
    "motifs": "tactics",
    "describe_motifs": "tactics",
    "opening": "openings",
    "name_opening": "openings",
    "to_board": "position",
    "Exercise": "exercises",
    "Feedback": "exercises",
    "exercise": "catalog",
    "bank": "catalog",
    "answer": "learner",
    "progress": "learner",
    "Board": "widget",
    "play": "games",
    "rating_change": "ratings",
    "expected_score": "ratings",
}

__all__ = [
    "BankError", "ChessKitError", "MoveError", "PositionError",
    "get_language", "set_language", *sorted(_LAZY),
]

if TYPE_CHECKING:
    from chesskit.catalog import bank, exercise
    from chesskit.diagram import BoardSvg, board
    from chesskit.exercises import Exercise, Feedback
    from chesskit.explain import CODES, Verdict, explain_move
    from chesskit.games import play
    from chesskit.learner import answer, progress
    from chesskit.notation import normalize_move_text, read_move
    from chesskit.openings import name_opening, opening
    from chesskit.position import to_board
    from chesskit.ratings import expected_score, rating_change
    from chesskit.render import save_board
    from chesskit.tactics import describe_motifs, motifs
    from chesskit.widget import Board


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'chesskit' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"chesskit.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


if "IPython" in sys.modules:  # a forgotten pair of quotes in ck.answer(...) gets a sentence
    from chesskit.learner import install_answer_hint

    install_answer_hint()
