"""``capture_all``: take every enemy piece in ``par`` moves (the fewest, proved by a
breadth-first search); the enemy pieces stand still, or play the moves of ``replies`` ("a7a5
a5a4", from-square and to-square, one after each of your moves; a move that cannot be played
any more is skipped).  With ``safe = true`` no piece of yours may ever stand where an enemy
piece could take it ("capture without losing your pieces").

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=5, kind="capture_all", fen="8/8/8/3p4/8/8/3p4/3R4 w - - 0 1",
...               data={"par": 2})
>>> ex.check("Rxd2 Rxd5").correct, ex.check("Rxd2").code
(True, 'incomplete')
>>> run = Exercise(id="y", lesson=5, kind="capture_all", fen="8/p7/8/8/8/8/8/1R6 w - - 0 1",
...                data={"par": 2, "replies": "a7a5"})
>>> run.solutions()[0], run.check("Ra1 Rxa5").correct, run.check("Rb7 Ra7", lang="en").message
('Ra1 Rxa5', True, 'One piece is still left to capture.')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess

from chesskit.exercises import solo
from chesskit.exercises.protocol import BoardMarks, Lang, Problem
from chesskit.exercises.route import SoloKind
from chesskit.i18n import color_name, join_words, t

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise


def _targets(ex: Exercise) -> frozenset[chess.Square]:
    board = ex.position
    return frozenset(chess.SquareSet(board.occupied_co[not board.turn]))


def _words(ex: Exercise) -> list[str]:
    """The scripted replies as written ("a7a5"); [] when the enemy stands still."""
    text = ex.data.get("replies", "")
    return [str(w) for w in text] if isinstance(text, list) else str(text).split()


def _replies(ex: Exercise) -> tuple[chess.Move, ...]:
    return tuple(chess.Move.from_uci(word) for word in _words(ex))


class CaptureAllKind(SoloKind):
    """Capture every enemy piece, which stands still, in the fewest moves."""

    name = "capture_all"
    required = ("par",)

    def goal(self, ex: Exercise) -> solo.Goal:
        return solo.Goal(targets=_targets(ex), safe=bool(ex.data.get("safe", False)),
                         replies=_replies(ex))

    def field_problems(self, ex: Exercise) -> list[Problem]:
        if ex.fen and ex.position.king(not ex.position.turn) is not None:
            return [("fen", "the pieces to capture include no king")]
        for word in _words(ex):
            try:
                move = chess.Move.from_uci(word)
            except ValueError:
                move = chess.Move.null()
            if not move or len(word) != 4:
                return [("replies", f"{word!r} is not a move written as from-square and "
                                    "to-square, like a7a5")]
        return []

    def unfinished(self, ex: Exercise, state: solo.State, lang: Lang) -> str:
        n = len(state.left)
        key = "exercises.capture_left_one" if n == 1 else "exercises.capture_left"
        return t(key, lang=lang, n=n)

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        replies = _words(ex)
        key = "prompt_capture_all" + ("_safe" if ex.data.get("safe") else "") + \
            ("_moving" if replies else "")
        return t(f"exercises.{key}", lang=lang, n=len(_targets(ex)), par=self.par(ex),
                 side=color_name(ex.position.turn, lang=lang),
                 other=color_name(not ex.position.turn, lang=lang),
                 moves=join_words([f"{w[:2]}-{w[2:]}" for w in replies], lang=lang))

    def board_marks(self, ex: Exercise) -> BoardMarks:
        return BoardMarks(marks={"cross": sorted(chess.square_name(s) for s in _targets(ex))})

    def verify(self, ex: Exercise) -> list[Problem]:
        if not _targets(ex):
            return [("fen", "there is nothing to capture")]
        replies = _replies(ex)
        if len(replies) > self.par(ex):
            return [("replies", f"only {self.par(ex)} replies can be played, one after each "
                                "move of the learner")]
        homes = set(_targets(ex))
        for reply in replies:
            if reply.from_square not in homes:
                color = chess.COLOR_NAMES[not ex.position.turn]
                return [("replies", f"{reply.uci()} starts where no {color} piece stands or "
                                    "goes")]
            homes.add(reply.to_square)
        return super().verify(ex) or self._script_problems(ex, replies)

    def _script_problems(self, ex: Exercise, replies: tuple[chess.Move, ...]) -> list[Problem]:
        """A scripted reply whose piece is still there must be legal along the best route."""
        goal, route = self.goal(ex), self._routes(ex)[0]
        state = solo.start(ex.board(), goal)
        for number, move in enumerate(route[: len(replies)]):
            board = state.board.copy(stack=False)
            board.push(move)
            reply = replies[number]
            if board.color_at(reply.from_square) == board.turn and not board.is_legal(reply):
                return [("replies", f"{reply.uci()} cannot be played after the shortest "
                                    f"solution's move {number + 1}")]
            state = solo.play(state, move, goal)
        return []


KIND = CaptureAllKind()
