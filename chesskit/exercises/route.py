"""``route``: collect the stars.  A lone piece visits every star square (``stars``) in as few
moves as it can; the other side stands still.  ``par`` is the fewest moves, proved by a
breadth-first search (check-bank); ``safe = true`` forbids stopping where an enemy piece could
take the piece.  :class:`SoloKind` is the part the other solo drills share.

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=2, kind="route", fen="8/8/8/8/8/8/8/R7 w - - 0 1",
...               data={"square": "a1", "stars": "a8 h8", "par": 2})
>>> ex.check("Ra8 Rh8").correct, ex.check("a1h1 h1h8 h8a8").code, ex.solutions()[0]
(True, 'wrong', 'Ra8 Rh8')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import chess

from chesskit.exercises import solo
from chesskit.exercises.answers import move_tokens
from chesskit.exercises.common import fail_code, on
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
)
from chesskit.i18n import join_words, piece_on, t
from chesskit.rules.explain import explain_move

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise

SEARCH_LIMIT = 12
"""No solo drill needs more moves than this."""

HOW_EXAMPLES: dict[chess.PieceType, tuple[str, str]] = {
    chess.ROOK: ("Rc1 Rc8", "a1c1 c1c8"), chess.BISHOP: ("Bc4 Bf7", "f1c4 c4f7"),
    chess.KNIGHT: ("Nf3 Ng5", "g1f3 f3g5"), chess.QUEEN: ("Qd4 Qa7", "d1d4 d4a7"),
    chess.KING: ("Kd2 Kc3", "e1d2 d2c3"), chess.PAWN: ("e4 e5", "e2e4 e4e5")}
"""How to write a solo drill's moves, with the piece that moves (each example is the piece's
two moves from its start square on an empty board, tested)."""


def square_list(text: object) -> list[chess.Square]:
    """Squares written in a field ("c4 f7" or a list), in the order written."""
    words = text if isinstance(text, list) else str(text).replace(",", " ").split()
    return [chess.parse_square(str(w).lower()) for w in words]


def names(squares: Iterable[chess.Square]) -> str:
    """Square names, sorted, joined by spaces."""
    return " ".join(sorted(chess.square_name(s) for s in squares))


class SoloKind(Kind):
    """A goal one side reaches alone, moving again and again while the other side passes."""

    chess_endings = False

    def goal(self, ex: Exercise) -> solo.Goal:
        """What the side must do (its targets, which piece moves, safety, castling)."""
        raise NotImplementedError

    def par(self, ex: Exercise) -> int:
        """The number of moves the item allows (the proved shortest)."""
        return int(ex.data["par"])

    def _routes(self, ex: Exercise) -> list[list[chess.Move]]:
        return solo.shortest_routes(ex.board(), self.goal(ex), limit=SEARCH_LIMIT)

    def _line(self, ex: Exercise, moves: list[chess.Move]) -> str:
        return solo.route_text(ex.board(), moves, self.goal(ex).replies)

    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        tokens = solo.pass_tokens(move_tokens(text))
        if not tokens:
            return feedback(ex, "unparseable", t("exercises.unreadable", lang=lang), text)
        goal = self.goal(ex)
        state = solo.start(ex.board(), goal)
        played: list[chess.Move] = []
        for number, token in enumerate(tokens, start=1):
            if solo.done(state, goal):
                return feedback(ex, "wrong", t("exercises.solo_extra", lang=lang, n=number - 1),
                                self._line(ex, played))
            board = state.board
            verdict = explain_move(board, token, lang=lang)
            if verdict.move is None or not verdict.legal:
                return feedback(ex, fail_code(verdict), t("exercises.at_move", lang=lang,
                                                          number=number, message=verdict.message),
                                self._line(ex, played), verdict.squares)
            move = verdict.move
            if state.mover is not None and move.from_square != state.mover:
                message = t("exercises.solo_only_piece", lang=lang,
                            piece=on(board, state.mover, lang))
                return feedback(ex, "illegal", t("exercises.at_move", lang=lang, number=number,
                                                 message=message),
                                self._line(ex, played), (move.from_square,))
            after = solo.play(state, move, goal)
            danger = solo.unsafe(after) if goal.safe else []
            if danger:
                attacker = min(after.board.attackers(not board.turn, danger[0]))
                message = t("exercises.solo_unsafe", lang=lang, san=board.san(move),
                            attacker=on(after.board, attacker, lang),
                            piece=on(after.board, danger[0], lang))
                return feedback(ex, "wrong", t("exercises.at_move", lang=lang, number=number,
                                               message=message),
                                self._line(ex, [*played, move]),
                                (attacker, danger[0]))
            played.append(move)
            state = after
        line = self._line(ex, played)
        if not solo.done(state, goal):
            return feedback(ex, "incomplete", self.unfinished(ex, state, lang), line,
                            tuple(sorted(state.left)))
        par = self.par(ex)
        if len(played) > par:
            return feedback(ex, "wrong", t("exercises.solo_over_par", lang=lang, moves=len(played),
                                           par=par), line)
        return praise(ex, line, lang, t("exercises.solo_par", lang=lang, moves=len(played)))

    def unfinished(self, ex: Exercise, state: solo.State, lang: Lang) -> str:
        """What is still to do after the moves written."""
        left = sorted(chess.square_name(s) for s in state.left)
        key = "exercises.route_left_one" if len(left) == 1 else "exercises.route_left"
        return t(key, lang=lang, n=len(left), squares=join_words(left, lang=lang))

    def solutions(self, ex: Exercise) -> list[str]:
        return [self._line(ex, r) for r in self._routes(ex)]

    def defender_reply(self, ex: Exercise, board: chess.Board) -> chess.Move | None:
        """The other side's scripted move, or a pass (a null move: the learner moves again)."""
        return solo.scripted_reply(board, self.goal(ex).replies)

    def answer_how(self, ex: Exercise, lang: Lang) -> str:
        board = ex.board()
        mover = self.goal(ex).mover
        pieces = [board.piece_type_at(mover)] if mover is not None else [
            p.piece_type for p in board.piece_map().values()
            if p.color == board.turn and p.piece_type != chess.KING]
        san, uci = HOW_EXAMPLES.get(pieces[0] or chess.ROOK if pieces else chess.ROOK,
                                    HOW_EXAMPLES[chess.ROOK])
        return t("exercises.solo_how", lang=lang, san=san, uci=uci)

    def step_hint(self, ex: Exercise, lang: Lang) -> str:
        return t("exercises.solo_par_hint", lang=lang, par=self.par(ex))

    def board_input(self, ex: Exercise) -> BoardInput:
        return "moves"

    def solution_marks(self, ex: Exercise) -> BoardMarks:
        routes = self._routes(ex)
        return BoardMarks(arrows=tuple(m.uci()[:4] for m in routes[0])) if routes \
            else BoardMarks()

    def verify(self, ex: Exercise) -> list[Problem]:
        routes = self._routes(ex)
        if not routes:
            return [("par", f"the goal cannot be reached in {SEARCH_LIMIT} moves")]
        if len(routes[0]) != self.par(ex):
            return [("par", f"the fewest moves are {len(routes[0])}, not {self.par(ex)}")]
        return []


class RouteKind(SoloKind):
    """Collect the stars with one piece, in as few moves as it can."""

    name = "route"
    required = ("square", "stars", "par")

    def goal(self, ex: Exercise) -> solo.Goal:
        return solo.Goal(targets=frozenset(square_list(ex.data["stars"])), mover=field_square(ex),
                         safe=bool(ex.data.get("safe", False)))

    def field_problems(self, ex: Exercise) -> list[Problem]:
        if not all(k in ex.data for k in self.required):
            return []
        board = ex.position
        piece = board.piece_at(field_square(ex))
        if piece is None or piece.color != board.turn:
            return [("square", f"no piece of the side to move on {ex.data['square']}")]
        stars = square_list(ex.data["stars"])
        if not stars or any(board.color_at(s) == board.turn for s in stars):
            return [("stars", "give one star or more, none on a piece of the side to move")]
        if board.king(not board.turn) is not None:
            return [("fen", "the side that stands still has no king in a route")]
        return []

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        key = "exercises.prompt_route_safe" if ex.data.get("safe") else "exercises.prompt_route"
        piece = ex.position.piece_type_at(field_square(ex)) or chess.PAWN
        return t(key, lang=lang, piece=piece_on(piece, field_square(ex), lang=lang),
                 n=len(square_list(ex.data["stars"])), par=self.par(ex),
                 squares=names(square_list(ex.data["stars"])))

    def board_marks(self, ex: Exercise) -> BoardMarks:
        return BoardMarks(marks={"yellow": sorted(chess.square_name(s)
                                                  for s in square_list(ex.data["stars"]))})


KIND = RouteKind()
