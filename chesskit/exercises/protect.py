"""``protect``: one move that saves the attacked piece on ``square`` (move it to safety, defend
it, block, or take the attacker).  Checked from the rules: after the move the other side wins
no material with any capture (a capture search), and every such move is accepted.

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=5, kind="protect", fen="4k3/8/8/3r4/8/8/3N4/7K w - - 0 1",
...               data={"square": "d2"})
>>> "Nf3" in ex.solutions(), ex.check("Nb3").correct, ex.check("Kg2").code
(True, True, 'wrong')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess

from chesskit.exercises.common import after, fail_code, on, prompt_fields
from chesskit.exercises.feedback import Feedback
from chesskit.exercises.protocol import (
    BoardInput,
    BoardMarks,
    Kind,
    Lang,
    Problem,
    feedback,
    field_square,
    praise,
    square_mark,
)
from chesskit.i18n import color_name, t
from chesskit.rules import search
from chesskit.rules.explain import explain_move

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise


def best_capture(board: chess.Board) -> tuple[int, chess.Move | None]:
    """The most material the side to move wins with a capture (search after it), and that
    capture; (0, None) when no capture wins anything.

    >>> best_capture(chess.Board("4k3/8/8/3r4/8/8/3N4/7K b - - 0 1"))
    (3, Move.from_uci('d5d2'))
    """
    best: tuple[int, chess.Move | None] = (0, None)
    for move in search.ordered_moves(board):
        if board.is_capture(move):
            gain = search.material_gain(board, move, depth=1)
            if gain > best[0]:
                best = (gain, move)
    return best


def saves(board: chess.Board, move: chess.Move) -> bool:
    """True when after ``move`` the other side cannot win material by a capture."""
    return best_capture(after(board, move))[0] <= 0


class ProtectKind(Kind):
    """Save the attacked piece with one move."""

    name = "protect"
    required = ("square",)

    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        board = ex.position
        verdict = explain_move(board, text, lang=lang)
        if verdict.move is None or not verdict.legal:
            return feedback(ex, fail_code(verdict), verdict.message, text, verdict.squares)
        move = verdict.move
        san = board.san(move)
        later = after(board, move)
        gain, capture = best_capture(later)
        if gain > 0 and capture is not None:
            message = t("exercises.protect_loses", lang=lang, san=san,
                        side=color_name(later.turn, lang=lang), reply=later.san(capture),
                        piece=on(later, capture.to_square, lang))
            return feedback(ex, "wrong", message, san, (capture.from_square, capture.to_square))
        square = field_square(ex)
        piece = on(later, move.to_square if move.from_square == square else square, lang)
        return praise(ex, san, lang, t("exercises.protect_right", lang=lang, piece=piece),
                      (move.from_square, move.to_square))

    def solutions(self, ex: Exercise) -> list[str]:
        board = ex.position
        return sorted(board.san(m) for m in board.legal_moves if saves(board, m))

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        return t("exercises.prompt_protect", lang=lang, **prompt_fields(ex, lang))

    def names_idea(self, ex: Exercise) -> bool:
        return True

    def board_input(self, ex: Exercise) -> BoardInput:
        return "move"

    def board_marks(self, ex: Exercise) -> BoardMarks:
        return square_mark(str(ex.data["square"]))

    def verify(self, ex: Exercise) -> list[Problem]:
        board = ex.board()
        if board.color_at(field_square(ex)) != board.turn or board.is_check():
            return [("square", "the piece to save is the side to move's, not in check")]
        board.push(chess.Move.null())
        gain, capture = best_capture(board)
        if gain <= 0 or capture is None or capture.to_square != field_square(ex):
            return [("square", "the piece is not lost when the side to move does nothing")]
        return super().verify(ex)


KIND = ProtectKind()
