"""``setup``: put the pieces of a position on the board (``target`` a FEN placement or
"start", or ``pieces`` a piece list); the check names the first wrong or missing piece.

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=2, kind="setup", data={"pieces": "Ke1 Qd1 ke8"})
>>> ex.check("ke8, Qd1, Ke1").correct, ex.check("Ke1 ke8", lang="en").message
(True, 'd1 needs the white queen.')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess

from chesskit.errors import BankError
from chesskit.exercises.answers import read_placement
from chesskit.exercises.feedback import Feedback
from chesskit.exercises.protocol import (
    BoardInput,
    BoardMarks,
    Kind,
    Lang,
    Problem,
    feedback,
    praise,
)
from chesskit.i18n import color_name, join_words, piece_name, t

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise

_ORDER = (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN)
_SHORT = 8
"""Placements of up to this many pieces are shown first as a piece list."""


def setup_target(ex: Exercise) -> chess.BaseBoard:
    """The placement the item asks for."""
    text = str(ex.data.get("target", ex.data.get("pieces", "")))
    if text == "start":
        return chess.BaseBoard()
    board = read_placement(text)
    if board is None:
        raise BankError(f"field target: cannot read {text!r}")
    return board


def piece_list(board: chess.BaseBoard) -> str:
    """The placement as the piece list a learner types: White first, king to pawn, a1 to h8.

    >>> piece_list(chess.BaseBoard("4k3/8/8/8/8/8/8/3QK3"))
    'Ke1 Qd1 ke8'
    """
    return " ".join(f"{chess.Piece(p_type, color).symbol()}{chess.square_name(sq)}"
                    for color in (chess.WHITE, chess.BLACK) for p_type in _ORDER
                    for sq in board.pieces(p_type, color))


def _material_words(board: chess.BaseBoard, lang: Lang) -> str:
    """ "White: king e1, queen d1. Black: king e8." from a placement."""
    parts = []
    for color in (chess.WHITE, chess.BLACK):
        items = [t("exercises.piece_at", lang=lang, piece=piece_name(p_type, lang=lang),
                   square=chess.square_name(sq))
                 for p_type in _ORDER for sq in board.pieces(p_type, color)]
        if items:
            parts.append(t("exercises.side_pieces", lang=lang, side=color_name(color, lang=lang),
                           pieces=join_words(items, lang=lang)))
    return " ".join(parts)


def _put_name(piece: chess.Piece | None, lang: Lang) -> str:
    return piece_name(piece.piece_type, color=piece.color, lang=lang) if piece else ""


def _only_missing(target: chess.BaseBoard, given: chess.BaseBoard) -> bool:
    return all(target.piece_at(sq) == p for sq, p in given.piece_map().items())


class SetupKind(Kind):
    """A position to set up."""

    name = "setup"

    def needs_fen(self, ex: Exercise) -> bool:
        return False

    def field_problems(self, ex: Exercise) -> list[Problem]:
        if "target" not in ex.data and "pieces" not in ex.data:
            return [("target", "a setup item needs target or pieces")]
        return []

    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        given = read_placement(text)
        if given is None:
            return feedback(ex, "unparseable", t("exercises.setup_unreadable", lang=lang), text)
        target = setup_target(ex)
        answer = given.board_fen()
        for square in chess.SQUARES:
            want, have = target.piece_at(square), given.piece_at(square)
            if want == have:
                continue
            name = chess.square_name(square)
            key = ("setup_missing" if have is None else "setup_extra" if want is None
                   else "setup_wrong")
            piece = want or have
            assert piece is not None
            code = ("incomplete" if key == "setup_missing" and _only_missing(target, given)
                    else "wrong")
            return feedback(ex, code, t(f"exercises.{key}", lang=lang, square=name,
                                        piece=piece_name(piece.piece_type, color=piece.color,
                                                         lang=lang),
                                        put=_put_name(have, lang)), answer, (square,))
        return praise(ex, answer, lang)

    def solutions(self, ex: Exercise) -> list[str]:
        """The placement as a piece list ("Ke1 Qd1 ke8", first when it is short) and as FEN."""
        target = setup_target(ex)
        forms = [piece_list(target), target.board_fen()]
        return forms if len(target.piece_map()) <= _SHORT else forms[::-1]

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        target = setup_target(ex)
        if target.board_fen() == chess.STARTING_BOARD_FEN:
            return t("exercises.prompt_setup_start", lang=lang)
        return t("exercises.prompt_setup", lang=lang, pieces=_material_words(target, lang))

    def answer_how(self, ex: Exercise, lang: Lang) -> str:
        return t("exercises.setup_how", lang=lang)

    def board_input(self, ex: Exercise) -> BoardInput:
        return "placement"

    def solution_marks(self, ex: Exercise) -> BoardMarks:
        return BoardMarks(placement=setup_target(ex).board_fen())


KIND = SetupKind()
