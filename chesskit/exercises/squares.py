"""``squares``: every square a piece moves to, attacks or may go to safely, or that a side
controls (``mode``); answered with square names in any order.

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=2, kind="squares", fen="8/8/8/8/8/8/8/N7 w - - 0 1",
...               data={"mode": "moves", "square": "a1"})
>>> ex.solutions(), ex.check("c2, b3").correct
(['b3 c2'], True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, get_args

import chess

from chesskit.exercises.answers import read_squares
from chesskit.exercises.common import named_king, prompt_fields, squares_board
from chesskit.exercises.feedback import Feedback
from chesskit.exercises.protocol import (
    BoardInput,
    BoardMarks,
    Kind,
    Lang,
    Problem,
    SquaresMode,
    feedback,
    field_square,
    praise,
    square_mark,
)
from chesskit.i18n import color_name, piece_on, t
from chesskit.rules.explain import explain_move

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise

_MOVER_KIND = {chess.KNIGHT: "knight", chess.KING: "king", chess.PAWN: "pawn"}
"""Pieces whose moves are not "follow each line" (the locale key suffix of their nudge)."""


def target_squares(ex: Exercise) -> set[chess.Square]:
    """The squares the item asks for, computed with the rules."""
    board = ex.position.copy(stack=False)
    mode = ex.data["mode"]
    if mode == "controlled":
        color = str(ex.data.get("color", "white")) == "white"
        return {sq for p in board.piece_map() if board.color_at(p) == color
                for sq in board.attacks(p)}
    square = field_square(ex)
    if mode == "attacks":
        return set(board.attacks(square))
    moving = squares_board(ex)
    return {m.to_square for m in moving.legal_moves if m.from_square == square}


def _extra_reason(ex: Exercise, square: chess.Square, lang: Lang) -> str:
    name = chess.square_name(square)
    if ex.data["mode"] == "controlled" or "square" not in ex.data:
        return t("exercises.squares_extra_side", lang=lang, square=name)
    board = squares_board(ex)
    origin = field_square(ex)
    piece = board.piece_type_at(origin) or chess.PAWN
    if ex.data["mode"] in ("moves", "king_safe"):
        verdict = explain_move(board, chess.square_name(origin) + name, lang=lang)
        if verdict.message and verdict.code not in ("ok", "unparseable"):
            return named_king(board, verdict, lang)
    return t("exercises.squares_extra", lang=lang, piece=piece_on(piece, origin, lang=lang),
             square=name)


class SquaresKind(Kind):
    """A set of squares, marked on the board or written."""

    name = "squares"
    required = ("mode",)
    closed = {"mode": get_args(SquaresMode)}

    def field_problems(self, ex: Exercise) -> list[Problem]:
        if ex.data.get("mode") != "controlled" and "square" not in ex.data:
            return [("square", "this squares item needs the square of its piece")]
        return []

    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        given = read_squares(text)
        if given is None:
            return feedback(ex, "unparseable", t("exercises.squares_unreadable", lang=lang), text)
        names = " ".join(sorted({chess.square_name(s) for s in given}))
        target = target_squares(ex)
        extra = sorted(set(given) - target)
        missing = target - set(given)
        if extra:
            return feedback(ex, "wrong", _extra_reason(ex, extra[0], lang), names, tuple(extra))
        if missing:
            key = "exercises.squares_missing" if len(missing) > 1 else "exercises.square_missing"
            return feedback(ex, "incomplete", t(key, lang=lang, n=len(missing)), names)
        return praise(ex, names, lang, squares=tuple(sorted(target)))

    def solutions(self, ex: Exercise) -> list[str]:
        return [" ".join(sorted(chess.square_name(s) for s in target_squares(ex)))]

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        fields = prompt_fields(ex, lang)
        if ex.data["mode"] == "controlled":
            fields["side"] = color_name(ex.data.get("color", "white") == "white", lang=lang)
        return t(f"exercises.prompt_squares_{ex.data['mode']}", lang=lang, **fields)

    def first_hint(self, ex: Exercise, lang: Lang) -> str:
        """How the piece moves (a knight jumps, a king never into check ...)."""
        if "square" not in ex.data:
            return super().first_hint(ex, lang)
        piece = ex.position.piece_type_at(field_square(ex))
        return t(f"exercises.nudge_squares_{_MOVER_KIND.get(piece or chess.QUEEN, 'line')}",
                 lang=lang)

    def step_hint(self, ex: Exercise, lang: Lang) -> str:
        n = len(target_squares(ex))
        return t(f"exercises.hint_squares_{min(n, 2)}", lang=lang, n=n)

    def board_input(self, ex: Exercise) -> BoardInput:
        return "squares"

    def board_marks(self, ex: Exercise) -> BoardMarks:
        return square_mark(str(ex.data["square"])) if "square" in ex.data else BoardMarks()

    def solution_marks(self, ex: Exercise) -> BoardMarks:
        return BoardMarks(marks={"green": sorted(chess.square_name(s)
                                                 for s in target_squares(ex))})


KIND = SquaresKind()
