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

from chesskit.exercises.answers import move_tokens, san_line
from chesskit.exercises.common import (
    after,
    fail_code,
    named_king,
    piece_hint,
    prompt_fields,
    solution_arrow,
)
from chesskit.exercises.feedback import Feedback
from chesskit.exercises.protocol import BoardInput, BoardMarks, Kind, Lang, Problem
from chesskit.i18n import color_name, t
from chesskit.rules import search
from chesskit.rules.explain import explain_move

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise


class LineKind(Kind):
    """A forced mate in N, played against the most stubborn defence."""

    name = "line"
    required = ("mate_in",)

    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        n = int(ex.data["mate_in"])
        board = ex.board()
        tokens = move_tokens(text)
        if not tokens:
            return ex._fb("unparseable", t("exercises.unreadable", lang=lang), text)
        played: list[chess.Move] = []
        for index, token in enumerate(tokens):
            where = {"number": board.fullmove_number, "side": color_name(board.turn, lang=lang)}
            verdict = explain_move(board, token, lang=lang)
            if verdict.move is None or not verdict.legal:
                said = named_king(board, verdict, lang) if index % 2 else verdict.message
                message = t("exercises.game_at", lang=lang, message=said, **where)
                return ex._fb(fail_code(verdict), message, san_line(ex._board, played),
                              verdict.squares)
            move = verdict.move
            if index % 2 == 0 and not search.forces_mate(board, move, n - index // 2):
                refutation = search.refutation(board, move, n - index // 2)
                message = t("exercises.wrong_line", lang=lang, san=board.san(move),
                            side=color_name(not board.turn, lang=lang),
                            reply=after(board, move).san(refutation) if refutation else "")
                if index:
                    message = t("exercises.game_at", lang=lang, message=message, **where)
                return ex._fb("wrong", message, san_line(ex._board, [*played, move]),
                              (move.from_square, move.to_square))
            board.push(move)
            played.append(move)
        key = played[0]
        return ex._right(san_line(ex._board, played), lang,
                         t("exercises.line_right", lang=lang, san=ex._board.san(key), n=n),
                         (key.from_square, key.to_square))

    def solutions(self, ex: Exercise) -> list[str]:
        board = ex._board
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
        problems = super().verify(ex)
        n = int(ex.data["mate_in"])
        if n > 1 and search.can_mate(ex.board(), n - 1):
            problems.append(("mate_in", f"there is a shorter mate than in {n}"))
        return problems


KIND = LineKind()
