"""``check_in``: give check at your ``n``-th move (``n = 2``: "check in two"), whatever the
other side replies; the moves before it are not checks.  The key alone or the whole line.

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=6, kind="check_in", fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
...               data={"n": 2})
>>> ex.check("Ra1").code, "Ra7" in ex.solutions(), ex.check("Ra8+").code
('illegal', True, 'wrong')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess

from chesskit.exercises.answers import san_line
from chesskit.exercises.common import after, read_line
from chesskit.exercises.feedback import Feedback
from chesskit.exercises.protocol import BoardInput, BoardMarks, Kind, Lang, Problem, praise
from chesskit.i18n import color_name, t

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise


def forces_check(board: chess.Board, move: chess.Move, n: int) -> bool:
    """True when ``move`` is a check at move ``n`` == 1, or (``n`` > 1) a quiet move after which
    every reply allows a check at move ``n`` - 1 again.

    >>> forces_check(chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), chess.Move.from_uci("a1a7"), 2)
    True
    """
    if n <= 1:
        return board.gives_check(move)
    if board.gives_check(move):
        return False
    later = after(board, move)
    replies = list(later.legal_moves)
    return bool(replies) and all(
        any(forces_check(after(later, r), m, n - 1) for m in after(later, r).legal_moves)
        for r in replies)


def _checks_left(board: chess.Board, n: int) -> int:
    """How many moves give check at the right time from ``board`` (fewer is more stubborn)."""
    return sum(1 for m in board.legal_moves if forces_check(board, m, n))


class CheckInKind(Kind):
    """Check at the n-th move against any defence."""

    name = "check_in"
    required = ("n",)

    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        n = int(ex.data["n"])

        def judge(board: chess.Board, move: chess.Move, k: int) -> str | None:
            if forces_check(board, move, n - k):
                return None
            key = "exercises.check_in_early" if n - k > 1 and board.gives_check(move) \
                else "exercises.check_in_wrong"
            return t(key, lang=lang, san=board.san(move), n=n)

        played = read_line(ex, text, lang, judge=judge, limit=2 * n - 1)
        if not isinstance(played, list):
            return played
        first = played[0]
        return praise(ex, san_line(ex.position, played), lang,
                      t("exercises.check_in_right", lang=lang, san=ex.position.san(first), n=n),
                      (first.from_square, first.to_square))

    def solutions(self, ex: Exercise) -> list[str]:
        board = ex.position
        n = int(ex.data["n"])
        return sorted(board.san(m) for m in board.legal_moves if forces_check(board, m, n))

    def defender_reply(self, ex: Exercise, board: chess.Board) -> chess.Move | None:
        """The reply that leaves the fewest checking continuations (UCI order on ties); none
        once the solver has made its ``n`` moves (the check is given: the line is over)."""
        n = int(ex.data["n"])
        made = (len(board.move_stack) - len(ex.position.move_stack) + 1) // 2
        if made >= n:
            return None
        left = n - made
        return min(board.legal_moves, default=None,
                   key=lambda r: (_checks_left(after(board, r), left), r.uci()))

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        return t("exercises.prompt_check_in", lang=lang, n=ex.data["n"],
                 side=color_name(ex.position.turn, lang=lang))

    def names_idea(self, ex: Exercise) -> bool:
        return True

    def board_input(self, ex: Exercise) -> BoardInput:
        return "line"

    def solution_marks(self, ex: Exercise) -> BoardMarks:
        solutions = ex.solutions()
        if not solutions:
            return BoardMarks()
        return BoardMarks(arrows=(ex.position.parse_san(solutions[0]).uci()[:4],))

    def verify(self, ex: Exercise) -> list[Problem]:
        problems = super().verify(ex)
        if int(ex.data["n"]) < 1 or ex.position.king(not ex.position.turn) is None:
            problems.append(("n", "n is 1 or more and the other side has a king"))
        return problems


KIND = CheckInKind()
