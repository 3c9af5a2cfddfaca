"""chesskit: a beginners' chess course in Jupyter.

One import is all a notebook needs::

    >>> import chesskit as ck
    >>> ck.read_move("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Nf3").uci()
    'g1f3'

Names are loaded on first use, so ``import chesskit`` stays cheap in a kernel.
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
from typing import TYPE_CHECKING, Any

from chesskit.errors import BankError, ChessKitError, MoveError, PositionError
from chesskit.i18n import get_language, set_language

__version__ = "0.3.0"
"""The version, written only here (pyproject.toml reads it); see CHANGELOG.md."""

logging.getLogger("chesskit").addHandler(logging.NullHandler())  # the application configures logs

_LAZY = {
    "board": "drawing.diagram",
    "BoardSvg": "drawing.diagram",
    "save_board": "drawing.render",
    "read_move": "rules.notation",
    "explain_move": "rules.explain",
    "CODES": "rules.explain",
    "normalize_move_text": "rules.notation",
    "Verdict": "rules.explain",
    "motifs": "rules.tactics",
    "describe_motifs": "rules.tactics",
    "opening": "rules.openings",
    "name_opening": "rules.openings",
    "to_board": "rules.position",
    "Exercise": "exercises",
    "Feedback": "exercises",
    "exercise": "exercises.catalog",
    "bank": "exercises.catalog",
    "load_bank_file": "exercises.catalog",  # a teacher's own set (chesskit author)
    "author": "teacher.author_output",
    "answer": "learner",
    "progress": "learner",
    "practice": "learner",
    "practice_button": "learner",
    "learner_model": "learner",
    "LearnerModel": "learner",
    "Board": "widgets.board",
    "play": "widgets.games",
    "rating_change": "rules.ratings",
    "expected_score": "rules.ratings",
}

_PACKAGES = ("classroom",)
"""Subpackages that are public names themselves (``ck.classroom.ask(...)``)."""

__all__ = [
    "BankError", "ChessKitError", "MoveError", "PositionError",
    "get_language", "set_language", *sorted([*_LAZY, *_PACKAGES]),
]

if TYPE_CHECKING:
    from chesskit import classroom
    from chesskit.drawing.diagram import BoardSvg, board
    from chesskit.drawing.render import save_board
    from chesskit.exercises import Exercise, Feedback
    from chesskit.exercises.catalog import bank, exercise, load_bank_file
    from chesskit.learner import (
        LearnerModel,
        answer,
        learner_model,
        practice,
        practice_button,
        progress,
    )
    from chesskit.rules.explain import CODES, Verdict, explain_move
    from chesskit.rules.notation import normalize_move_text, read_move
    from chesskit.rules.openings import name_opening, opening
    from chesskit.rules.position import to_board
    from chesskit.rules.ratings import expected_score, rating_change
    from chesskit.rules.tactics import describe_motifs, motifs
    from chesskit.teacher.author_output import author
    from chesskit.widgets.board import Board
    from chesskit.widgets.games import play


def __getattr__(name: str) -> Any:
    if name in _PACKAGES:
        return importlib.import_module(f"chesskit.{name}")
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'chesskit' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"chesskit.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | set(_PACKAGES))


if "IPython" in sys.modules:  # a forgotten pair of quotes in ck.answer(...) gets a sentence
    from chesskit.learner import install_answer_hint

    install_answer_hint()

if os.environ.get("CHESSKIT_CLASSROOM_URL"):  # a classroom's kernel: its boards offer the
    importlib.import_module("chesskit.classroom.client")  # teacher "Ask the class"
