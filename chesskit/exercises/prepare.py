"""``prepare``: reach a goal after preparing moves, the other side standing still.  The goal
is ``castle = "king" | "queen" | "any"``: "find a way to castle" by first moving the pieces
in the way; ``par`` is the fewest moves, castling included (proved by a breadth-first search).
The side that stands still may have its king (a real position has both): a move that gives it
check is refused, since a king in check cannot stand still, and routes never give check.

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=7, kind="prepare", fen="8/8/8/8/8/8/8/4KB1R w K - 0 1",
...               data={"castle": "king", "par": 2})
>>> ex.check("Bd3 O-O").correct, ex.check("Bd3").code
(True, 'incomplete')
>>> ex = Exercise(id="x", lesson=7, kind="prepare", fen="k7/8/8/8/8/8/8/4KB1R w K - 0 1",
...               data={"castle": "king", "par": 2})
>>> ex.check("Bd3 O-O").correct, ex.check("Be2 Bf3").message.split(":")[1]
(True, ' Bf3+ gives check to the king on a8')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess

from chesskit.exercises import solo
from chesskit.exercises.answers import move_tokens
from chesskit.exercises.common import on
from chesskit.exercises.feedback import Feedback
from chesskit.exercises.protocol import Lang, Problem, feedback
from chesskit.exercises.route import SoloKind
from chesskit.i18n import t
from chesskit.rules.explain import explain_move

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise

CASTLE_SIDES = ("king", "queen", "any")


class PrepareKind(SoloKind):
    """Prepare, then castle: the fewest moves, the other side passing."""

    name = "prepare"
    required = ("castle", "par")
    closed = {"castle": CASTLE_SIDES}

    def goal(self, ex: Exercise) -> solo.Goal:
        return solo.Goal(castle=str(ex.data["castle"]))

    def field_problems(self, ex: Exercise) -> list[Problem]:
        if ex.fen and ex.position.was_into_check():
            return [("fen", "the side that stands still is in check at the start")]
        return []

    def _routes(self, ex: Exercise) -> list[list[chess.Move]]:
        return [r for r in super()._routes(ex) if not _gives_check(ex.board(), r)]

    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        board = ex.board()
        for number, token in enumerate(solo.pass_tokens(move_tokens(text)), start=1):
            move = explain_move(board, token, lang=lang).move
            if move is None or not board.is_legal(move):
                break  # SoloKind.check says what is wrong with it
            if board.gives_check(move):
                king = board.king(not board.turn)
                message = t("exercises.prepare_check", lang=lang, san=board.san(move),
                            king=on(board, king, lang) if king is not None else "")
                return feedback(ex, "wrong", t("exercises.at_move", lang=lang, number=number,
                                               message=message), text)
            board.push(move)
            board.push(chess.Move.null())
        return super().check(ex, text, lang)

    def unfinished(self, ex: Exercise, state: solo.State, lang: Lang) -> str:
        return t("exercises.prepare_left", lang=lang)

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        return t(f"exercises.prompt_prepare_{ex.data['castle']}", lang=lang, par=self.par(ex))


def _gives_check(board: chess.Board, moves: list[chess.Move]) -> bool:
    """True when one of ``moves`` (each followed by a pass) gives check."""
    board = board.copy(stack=False)
    for move in moves:
        if board.gives_check(move):
            return True
        board.push(move)
        board.push(chess.Move.null())
    return False


KIND = PrepareKind()
