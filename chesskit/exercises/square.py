"""``square``: name the marked square (``mode = "name"``) or find a named one (``"find"``).

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=1, kind="square", data={"mode": "find", "square": "c6"})
>>> ex.check("c6").correct, ex.check("c5", lang="en").message
(True, 'c5 has the right letter, but count the numbers again.')
>>> chain = Exercise(id="y", lesson=34, kind="square", data={"mode": "find", "square": "c3"},
...                  fen="4k3/8/8/4P3/3P4/2P5/8/4K3 w - - 0 1")
>>> chain.check("d4", lang="en").message
'That is the white pawn on d4: not the one the question asks for. Read the question again.'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, get_args

import chess

from chesskit.exercises.answers import read_squares
from chesskit.exercises.feedback import Feedback
from chesskit.exercises.protocol import (
    BoardInput,
    BoardMarks,
    Kind,
    Lang,
    SquareMode,
    feedback,
    field_square,
    praise,
    square_mark,
)
from chesskit.i18n import piece_on, t

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise


class SquareKind(Kind):
    """One square, named or found."""

    name = "square"
    required = ("mode", "square")
    closed = {"mode": get_args(SquareMode)}

    def needs_fen(self, ex: Exercise) -> bool:
        return False  # the empty board by default

    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        squares = read_squares(text)
        if squares is None or len(squares) != 1:
            return feedback(ex, "unparseable", t("exercises.one_square", lang=lang), text)
        given, target = squares[0], field_square(ex)
        name = chess.square_name(given)
        if given == target:
            return praise(ex, name, lang, squares=(given,))
        if ex.fen:  # a question about the position, not about coordinates
            return feedback(ex, "wrong", self._not_this(ex, given, lang), name, (given,))
        if chess.square_file(given) == chess.square_file(target):
            key = "square_file_right"
        elif chess.square_rank(given) == chess.square_rank(target):
            key = "square_rank_right"
        else:
            key = "square_wrong"
        return feedback(ex, "wrong", t(f"exercises.{key}", lang=lang, square=name), name, (given,))

    @staticmethod
    def _not_this(ex: Exercise, given: chess.Square, lang: Lang) -> str:
        """A wrong square of a question about the position (the backward pawn, the base of
        a chain): what stands there, never a coordinates lesson."""
        piece = ex.position.piece_at(given)
        if piece is None:
            return t("exercises.square_not_this_empty", lang=lang,
                     square=chess.square_name(given))
        return t("exercises.square_not_this_piece", lang=lang,
                 piece=piece_on(piece.piece_type, given, color=piece.color, lang=lang))

    def solutions(self, ex: Exercise) -> list[str]:
        return [chess.square_name(field_square(ex))]

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        return t(f"exercises.prompt_square_{ex.data['mode']}", lang=lang,
                 square=str(ex.data["square"]).lower())

    def board_input(self, ex: Exercise) -> BoardInput:
        return "square" if ex.data["mode"] == "find" else "text"

    def board_marks(self, ex: Exercise) -> BoardMarks:
        return square_mark(str(ex.data["square"])) if ex.data["mode"] == "name" else BoardMarks()

    def solution_marks(self, ex: Exercise) -> BoardMarks:
        return square_mark(str(ex.data["square"]))


KIND = SquareKind()
