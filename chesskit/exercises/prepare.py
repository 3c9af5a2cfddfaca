"""``prepare``: reach a goal after preparing moves, the other side standing still.  The goal
is ``castle = "king" | "queen" | "any"``: "find a way to castle" by first moving the pieces
in the way; ``par`` is the fewest moves, castling included (proved by a breadth-first search).

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=7, kind="prepare", fen="8/8/8/8/8/8/8/4KB1R w K - 0 1",
...               data={"castle": "king", "par": 2})
>>> ex.check("Bd3 O-O").correct, ex.check("Bd3").code
(True, 'incomplete')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chesskit.exercises import solo
from chesskit.exercises.protocol import Lang, Problem
from chesskit.exercises.route import SoloKind
from chesskit.i18n import t

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
        if ex.fen and ex.position.king(not ex.position.turn) is not None:
            return [("fen", "the side that stands still has no king in a prepare drill")]
        return []

    def unfinished(self, ex: Exercise, state: solo.State, lang: Lang) -> str:
        return t("exercises.prepare_left", lang=lang)

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        return t(f"exercises.prompt_prepare_{ex.data['castle']}", lang=lang, par=self.par(ex))


KIND = PrepareKind()
