"""``capture_all``: take every enemy piece in ``par`` moves (the fewest, proved by a
breadth-first search); the enemy pieces stand still.  With ``safe = true`` no piece of yours
may ever stand where an enemy piece could take it ("capture without losing your pieces").

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=5, kind="capture_all", fen="8/8/8/3p4/8/8/3p4/3R4 w - - 0 1",
...               data={"par": 2})
>>> ex.check("Rxd2 Rxd5").correct, ex.check("Rxd2").code
(True, 'incomplete')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess

from chesskit.exercises import solo
from chesskit.exercises.protocol import BoardMarks, Lang, Problem
from chesskit.exercises.route import SoloKind
from chesskit.i18n import color_name, t

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise


def _targets(ex: Exercise) -> frozenset[chess.Square]:
    board = ex._board
    return frozenset(chess.SquareSet(board.occupied_co[not board.turn]))


class CaptureAllKind(SoloKind):
    """Capture every enemy piece, which stands still, in the fewest moves."""

    name = "capture_all"
    required = ("par",)

    def goal(self, ex: Exercise) -> solo.Goal:
        return solo.Goal(targets=_targets(ex), safe=bool(ex.data.get("safe", False)))

    def field_problems(self, ex: Exercise) -> list[Problem]:
        if ex.fen and ex._board.king(not ex._board.turn) is not None:
            return [("fen", "the pieces to capture include no king")]
        return []

    def unfinished(self, ex: Exercise, state: solo.State, lang: Lang) -> str:
        n = len(state.left)
        key = "exercises.capture_left_one" if n == 1 else "exercises.capture_left"
        return t(key, lang=lang, n=n)

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        key = "exercises.prompt_capture_all_safe" if ex.data.get("safe") \
            else "exercises.prompt_capture_all"
        return t(key, lang=lang, n=len(_targets(ex)), par=self.par(ex),
                 side=color_name(ex._board.turn, lang=lang),
                 other=color_name(not ex._board.turn, lang=lang))

    def board_marks(self, ex: Exercise) -> BoardMarks:
        return BoardMarks(marks={"cross": sorted(chess.square_name(s) for s in _targets(ex))})

    def verify(self, ex: Exercise) -> list[Problem]:
        if not _targets(ex):
            return [("fen", "there is nothing to capture")]
        return super().verify(ex)


KIND = CaptureAllKind()
