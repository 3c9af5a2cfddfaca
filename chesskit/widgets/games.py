"""Practice games on the board: two players, or one player against the computer.

>>> game = play(opponent="human")
>>> for san in ["f3", "e5", "g4", "Qh4#"]:
...     _ = game.move(san)
>>> game.result, game.reason
('0-1', 'checkmate')
>>> game.message
'Black played Qh4#. Checkmate! Black wins.'
"""

from __future__ import annotations

import random
import zlib
from typing import Any

import chess
import chess.engine
import chess.pgn
import traitlets

from chesskit.errors import EngineMissingError
from chesskit.i18n import color_name, t
from chesskit.rules import engine, search
from chesskit.rules.position import Position
from chesskit.rules.values import VALUES
from chesskit.widgets.board import Board

# level 1..8 -> Stockfish "Skill Level" and search depth: a beginner's opponent
_SKILL = (0, 1, 2, 4, 6, 9, 13, 20)
_DEPTH = (1, 1, 2, 3, 4, 6, 8, 12)


def builtin_move(board: chess.Board, *, seed: int = 0) -> chess.Move | None:
    """The built-in opponent: mates in one when it can, else takes the most valuable hanging
    piece, else plays a seeded random move that leaves the moved piece safe.

    >>> builtin_move(chess.Board("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1")).uci()
    'd1d5'
    """
    moves = sorted(board.legal_moves, key=lambda m: m.uci())
    if not moves:
        return None
    for move in moves:
        if search.forces_mate(board, move, 1):
            return move
    captures = [(VALUES[_captured(board, m)], -_value(board, m.from_square), m.uci(), m)
                for m in moves if _wins_material(board, m)]
    if captures:
        return max(captures)[3]
    safe = [m for m in moves if _lands_safely(board, m)] or moves
    return random.Random(zlib.crc32(board.fen().encode()) ^ seed).choice(safe)


def _captured(board: chess.Board, move: chess.Move) -> chess.PieceType:
    if board.is_en_passant(move):
        return chess.PAWN
    piece = board.piece_at(move.to_square)
    return piece.piece_type if piece is not None else chess.KING


def _value(board: chess.Board, square: chess.Square) -> int:
    piece = board.piece_at(square)
    return VALUES[piece.piece_type] if piece is not None else 0


def _wins_material(board: chess.Board, move: chess.Move) -> bool:
    """A capture of an undefended piece, or of a piece worth more than the capturer."""
    if not board.is_capture(move):
        return False
    taken = VALUES[_captured(board, move)]
    defended = board.is_attacked_by(not board.turn, move.to_square)
    return not defended or taken > _value(board, move.from_square)


def _lands_safely(board: chess.Board, move: chess.Move) -> bool:
    board.push(move)
    try:
        return not board.is_attacked_by(board.turn, move.to_square)
    finally:
        board.pop()


def computer_move(board: chess.Board, *, level: int = 1) -> chess.Move | None:
    """The computer's move at ``level`` 1..8: Stockfish at a beginner skill when installed,
    else :func:`builtin_move`. A fresh engine per move (about 70 ms) leaves no process behind.
    """
    level = max(1, min(level, len(_SKILL)))
    if not engine.available() or board.is_game_over():
        return builtin_move(board, seed=level)
    try:
        with engine.open_engine(options={"Skill Level": _SKILL[level - 1]}) as sf:
            limit = chess.engine.Limit(depth=_DEPTH[level - 1], time=0.2)
            return sf.play(board, limit).move
    except (EngineMissingError, chess.engine.EngineError):
        return builtin_move(board, seed=level)


class Game(Board):
    """A practice game: the move list grows as you play, PGN in ``pgn``, result with reason."""

    opponent = traitlets.Unicode("human").tag(sync=True)
    level = traitlets.Int(1).tag(sync=True)
    player = traitlets.Unicode("white").tag(sync=True)
    result = traitlets.Unicode("*").tag(sync=True)
    reason = traitlets.Unicode("").tag(sync=True)
    pgn = traitlets.Unicode("").tag(sync=True)

    def __init__(self, *, opponent: str = "human", level: int = 1, color: str = "white",
                 position: Position = "start", lang: str | None = None, **kwargs: Any) -> None:
        super().__init__(position, orientation=color, lang=lang, show_moves=True,
                         opponent=opponent, level=level, player=color, **kwargs)
        self.after_move(self._frames[self.index])
        if opponent == "computer":
            self.say(t("widget.you_play", lang=self.lang,
                       side=color_name(color != "black", lang=self.lang)))

    def _computer_turn(self, board: chess.Board) -> bool:
        return self.opponent == "computer" and board.turn != (self.player != "black")

    def _legal_now(self, board: chess.Board) -> dict[str, list[str]]:
        if self._computer_turn(board) or self._ending[1]:
            return {}
        return super()._legal_now(board)

    def _status(self, board: chess.Board) -> str:
        if self._computer_turn(board) and not self._ending[1]:
            return t("widget.thinking", lang=self.lang)
        return super()._status(board)

    def _show(self, index: int) -> None:
        super()._show(index)
        board = self._frames[index]
        result, reason, _ = self._ending
        with self.hold_sync():
            self.result, self.reason = result, reason
            self.pgn = game_pgn(board, opponent=self.opponent, player=self.player,
                                result=result)

    def after_move(self, board: chess.Board) -> None:
        """Let the computer answer after the page's pause (the board announces a result)."""
        if not self._ending[1] and self._computer_turn(board):
            self.waiting = True

    def take_back(self) -> None:
        """Against the computer, take back its answer and your move together."""
        super().take_back()
        if self._computer_turn(self._frames[self.index]):
            if self.index > 0:
                super().take_back()
            else:
                self.waiting = True

    def reply(self) -> None:
        """The computer's move."""
        super().reply()
        board = self._frames[self.index]
        if not self._computer_turn(board) or board.is_game_over(claim_draw=True):
            return
        move = computer_move(board, level=self.level)
        if move is not None:
            self.play_move(move)


def game_pgn(board: chess.Board, *, opponent: str = "human", player: str = "white",
             result: str = "*") -> str:
    """The game so far as PGN text (deterministic headers, no date).

    >>> b = chess.Board(); _ = b.push_san("e4"); game_pgn(b).splitlines()[-1]
    '1. e4 *'
    """
    game = chess.pgn.Game.from_board(board)
    names = {"white": "Player", "black": "Player"}
    if opponent == "computer":
        names["black" if player != "black" else "white"] = "Computer"
    game.headers["Event"] = "chesskit practice game"
    game.headers["White"], game.headers["Black"] = names["white"], names["black"]
    game.headers["Result"] = result
    return str(game)


def play(*, opponent: str = "human", level: int = 1, color: str = "white",
         position: Position = "start", lang: str | None = None) -> Game:
    """A practice game widget: ``ck.play()`` for two players, ``ck.play(opponent="computer")``.

    >>> play(opponent="computer", color="black").waiting
    True
    """
    return Game(opponent=opponent, level=level, color=color, position=position, lang=lang)
