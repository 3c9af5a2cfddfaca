"""``playout``: mate a lone king within ``max_moves`` (K+Q, K+R+R, K+R), the whole game written
as moves and replayed against the built-in defender.

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=11, kind="playout", fen="7k/8/5K2/8/8/8/8/6Q1 w - - 0 1",
...               data={"max_moves": 5})
>>> ex.check("Qg7#").correct, ex.hint(1, lang="en").startswith("Make the box smaller")
(True, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess

from chesskit.exercises import opponent
from chesskit.exercises.answers import move_tokens, san_line
from chesskit.exercises.common import defender_turn, fail_code, prompt_fields
from chesskit.exercises.feedback import Feedback
from chesskit.exercises.protocol import BoardInput, Kind, Lang, Problem, feedback, praise
from chesskit.i18n import color_name, piece_on, t
from chesskit.rules import search
from chesskit.rules.explain import explain_move

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise

ENDINGS = ("KQ", "KRR", "KR")
"""The mating material a playout may give the strong side."""


def _material_code(board: chess.Board, color: chess.Color) -> str:
    return "".join(chess.piece_symbol(p).upper() * len(board.pieces(p, color))
                   for p in (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT,
                             chess.PAWN))


def _replay(ex: Exercise, board: chess.Board, tokens: list[str], defend: search.Defender,
            lang: Lang) -> int | Feedback:
    """Play the written moves against the defender; the number of moves or what went wrong."""
    start, attacker, limit = board.copy(), board.turn, int(ex.data["max_moves"])
    moves = 0
    for token in tokens:
        if board.turn != attacker:
            turn = defender_turn(ex, board, token, defend(board), start=start, lang=lang)
            if turn is True:
                continue
            if not isinstance(turn, bool):
                return turn
        verdict = explain_move(board, token, lang=lang)
        if not verdict.legal or verdict.move is None:
            return feedback(ex, fail_code(verdict), t("exercises.at_move", lang=lang,
                                                      number=moves + 1, message=verdict.message),
                            san_line(start, board.move_stack), verdict.squares)
        board.push(verdict.move)
        moves += 1
        if board.is_game_over(claim_draw=True) or moves >= limit:
            break
    if board.turn != attacker and not board.is_game_over(claim_draw=True) and moves < limit:
        reply = defend(board)
        if reply is not None:
            board.push(reply)
    return moves


def _result(ex: Exercise, start: chess.Board, board: chess.Board, moves: int,
            lang: Lang) -> Feedback:
    line = san_line(start, board.move_stack)
    king = board.king(board.turn)
    fields = {"n": ex.data["max_moves"], "side": color_name(not board.turn, lang=lang),
              "king": piece_on(chess.KING, king, lang=lang) if king is not None else ""}
    if board.is_checkmate():
        key = "exercises.playout_mated_one" if moves == 1 else "exercises.playout_mated"
        return praise(ex, line, lang, t(key, lang=lang, moves=moves))
    if board.is_stalemate():
        return feedback(ex, "wrong", t("exercises.playout_stalemate", lang=lang, **fields), line)
    if board.is_game_over(claim_draw=True):
        return feedback(ex, "wrong", t("exercises.playout_draw", lang=lang, **fields), line)
    if moves >= int(ex.data["max_moves"]):
        return feedback(ex, "wrong", t("exercises.playout_limit", lang=lang, **fields), line)
    last = board.pop()
    reply = board.san(last)
    board.push(last)
    return feedback(ex, "incomplete", t("exercises.playout_more", lang=lang, reply=reply, **fields),
                    line)


def _technique_hint(ex: Exercise, lang: Lang) -> str:
    """The method for the mating material of a playout (K+Q, K+R+R, K+R), else the nudge."""
    board = ex.position
    pieces = "".join(sorted(chess.piece_symbol(p.piece_type) for p in board.piece_map().values()
                            if p.color == board.turn and p.piece_type != chess.KING))
    key = {"q": "technique_q", "rr": "technique_rr", "r": "technique_r"}.get(pieces,
                                                                            "nudge_playout")
    return t(f"exercises.{key}", lang=lang)


class PlayoutKind(Kind):
    """A won ending played to mate against the defender."""

    name = "playout"
    required = ("max_moves",)

    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        board = ex.board()
        start = board.copy()
        tokens = move_tokens(text)
        if not tokens:
            return feedback(ex, "unparseable", t("exercises.unreadable", lang=lang), text)
        with search.defender() as defend:
            moves = _replay(ex, board, tokens, defend, lang)
        if isinstance(moves, Feedback):
            return moves
        return _result(ex, start, board, moves, lang)

    def solutions(self, ex: Exercise) -> list[str]:
        """One game that mates: the built-in attacker against the built-in defender ("Show
        me" plays it out); many others mate too, the check replays the one written."""
        board = ex.board()
        if not opponent.ending(board):
            return []
        return [san_line(board, opponent.demonstration(board,
                                                       max_moves=int(ex.data["max_moves"])))]

    def defender_reply(self, ex: Exercise, board: chess.Board) -> chess.Move | None:
        """The built-in defender's move (the same one the check replays against)."""
        return search.defender_move(board)

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        return t("exercises.prompt_playout", lang=lang, n=ex.data["max_moves"],
                 **prompt_fields(ex, lang))

    def step_hint(self, ex: Exercise, lang: Lang) -> str:
        return self.first_hint(ex, lang) if ex.hints else _technique_hint(ex, lang)

    def answer_hint(self, ex: Exercise, lang: Lang) -> str:
        return _technique_hint(ex, lang)

    def board_input(self, ex: Exercise) -> BoardInput:
        return "game"

    def verify(self, ex: Exercise) -> list[Problem]:
        board = ex.board()
        strong = _material_code(board, board.turn)
        weak = _material_code(board, not board.turn)
        if strong not in ENDINGS or weak != "K":
            return [("fen", "a playout is K+Q, K+R+R or K+R against a lone king, "
                            "the strong side to move")]
        if board.is_game_over() or int(ex.data["max_moves"]) < 1:
            return [("max_moves", "the game must be on and max_moves at least 1")]
        return []


KIND = PlayoutKind()
