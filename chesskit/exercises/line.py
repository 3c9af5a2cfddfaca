"""``line``: mate in ``mate_in`` moves against every defence; the key alone or the whole line.

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=11, kind="line", data={"mate_in": 2},
...               fen="r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1")
>>> ex.solutions(), ex.check("Nf6+").correct, ex.check("1. Nf6+ gxf6 2. Bxf7#").correct
(['Nf6+'], True, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess

from chesskit.exercises.answers import san_line
from chesskit.exercises.common import (
    after,
    game_at,
    piece_hint,
    prompt_fields,
    read_line,
    solution_arrow,
)
from chesskit.exercises.feedback import Feedback
from chesskit.exercises.move import topic_problems
from chesskit.exercises.protocol import BoardInput, BoardMarks, Kind, Lang, Problem, praise
from chesskit.i18n import color_name, t
from chesskit.rules import search

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise


class LineKind(Kind):
    """A forced mate in N, played against the most stubborn defence."""

    name = "line"
    required = ("mate_in",)

    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        n = int(ex.data["mate_in"])

        def judge(board: chess.Board, move: chess.Move, k: int) -> str | None:
            if search.forces_mate(board, move, n - k):
                return None
            refutation = search.refutation(board, move, n - k)
            message = t("exercises.wrong_line", lang=lang, san=board.san(move),
                        side=color_name(not board.turn, lang=lang),
                        reply=after(board, move).san(refutation) if refutation else "")
            return game_at(board, message, lang) if k else message

        played = read_line(ex, text, lang, judge=judge)
        if not isinstance(played, list):
            return played
        key = played[0]
        return praise(ex, san_line(ex.position, played), lang,
                      t("exercises.line_right", lang=lang, san=ex.position.san(key), n=n),
                      (key.from_square, key.to_square))

    def solutions(self, ex: Exercise) -> list[str]:
        board = ex.position
        return sorted(board.san(m) for m in search.mate_in(board, int(ex.data["mate_in"])))

    def defender_reply(self, ex: Exercise, board: chess.Board) -> chess.Move | None:
        """The most stubborn defence in ``board`` (defender to move)."""
        return search.stubborn_reply(board, limit=int(ex.data.get("mate_in", 2)))

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        return t("exercises.prompt_line", lang=lang, n=ex.data["mate_in"],
                 **prompt_fields(ex, lang))

    def names_idea(self, ex: Exercise) -> bool:
        return True

    def step_hint(self, ex: Exercise, lang: Lang) -> str:
        return piece_hint(ex, lang) or super().step_hint(ex, lang)

    def board_input(self, ex: Exercise) -> BoardInput:
        return "line"

    def solution_marks(self, ex: Exercise) -> BoardMarks:
        return solution_arrow(ex)

    def verify(self, ex: Exercise) -> list[Problem]:
        problems = super().verify(ex) + topic_problems(ex, ex.solutions())
        n = int(ex.data["mate_in"])
        if n > 1 and search.can_mate(ex.board(), n - 1):
            problems.append(("mate_in", f"there is a shorter mate than in {n}"))
        return problems


KIND = LineKind()
