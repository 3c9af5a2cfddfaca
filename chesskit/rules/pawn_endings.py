"""King and pawn endings searched with more than material: how far the passed pawns are, whether
a king can still catch one (the rule of the square), how near the kings stand. Zugzwang
(:mod:`chesskit.rules.tactics`) compares this score with the side to move passing.

A score is in centipawns from the side to move's view; :func:`win_chance` turns it into
Lichess's chance of winning, from -1 to 1.

>>> score(chess.Board("8/8/8/8/8/k7/7P/K7 w - - 0 1"), depth=2) > 500  # the h-pawn runs
True
>>> score(chess.Board("8/8/8/8/8/7k/7P/K7 w - - 0 1"), depth=2) < 100  # the king catches it
True
"""

from __future__ import annotations

import itertools
import math

import chess

from chesskit.rules.position import position_key
from chesskit.rules.search import TableEntry, remember, table_entry, table_score
from chesskit.rules.values import balance

PAWN = 100
"""A pawn, in centipawns."""
PASSED = (0, 0, 10, 20, 35, 60, 100, 0)
"""What a passed pawn is worth besides itself, by its rank counted from its own side (0-7)."""
NEAR = 5
"""For a passed pawn, each step the own king stands nearer its queening square than the enemy
king, times the pawn's rank // 3."""
ACTIVE = 16
"""For each king, how near it stands to the enemy pawns: 7 less the mean distance, times this."""
RUNAWAY = 700
"""A passed pawn the enemy king cannot catch (the rule of the square), when the enemy has no
such pawn of its own that queens as soon: nearly a queen."""
QUIESCE = 4
"""How many captures and promotions are searched after the last ply."""
MATE = 100_000
"""A mate's score, beyond any material."""

_TABLE: dict[tuple[object, int], TableEntry] = {}
"""(position, depth) -> score, bound kind, best move (see
:func:`chesskit.rules.search.table_entry`)."""
_EVALUATED: dict[tuple[int, int, int, int, bool], int] = {}
""":func:`_evaluate` by the position's bitboards and side to move."""


def _ahead(color: chess.Color, square: chess.Square, files: int) -> int:
    """The squares in front of a pawn on ``square``, on its file and ``files`` files each side."""
    rank, file = chess.square_rank(square), chess.square_file(square)
    ranks = range(rank + 1, 8) if color == chess.WHITE else range(rank)
    return sum(chess.BB_SQUARES[chess.square(f, r)] for r in ranks
               for f in range(max(0, file - files), min(7, file + files) + 1))


_BY_COLOR = (chess.BLACK, chess.WHITE)
"""The tables below are indexed by colour: ``table[chess.WHITE]`` is ``table[1]``."""
_FILE_AHEAD = [[_ahead(color, square, 0) for square in chess.SQUARES] for color in _BY_COLOR]
_SPAN_AHEAD = [[_ahead(color, square, 1) for square in chess.SQUARES] for color in _BY_COLOR]
_RANK = [[chess.square_rank(square) if color else 7 - chess.square_rank(square)
          for square in chess.SQUARES] for color in _BY_COLOR]
"""A pawn's rank counted from its own side (0-7), by colour and square."""
_QUEENING = [[chess.square(chess.square_file(square), 7 if color else 0)
              for square in chess.SQUARES] for color in _BY_COLOR]
_DISTANCE = [[chess.square_distance(a, b) for b in chess.SQUARES] for a in chess.SQUARES]


def is_pawn_ending(board: chess.Board) -> bool:
    """Only kings and pawns on the board.

    >>> is_pawn_ending(chess.Board("8/8/5k2/5p1p/7P/5KP1/8/8 w - - 3 47"))
    True
    """
    return not board.occupied & ~board.pawns & ~board.kings


def win_chance(centipawns: float) -> float:
    """Lichess's chance of winning for a score, from -1 (lost) to 1 (won).

    >>> round(win_chance(0), 2), round(win_chance(300), 2)
    (0.0, 0.5)
    """
    return 2 / (1 + math.exp(-0.00368208 * centipawns)) - 1


def score(board: chess.Board, *, depth: int) -> int:
    """The side to move's score, searched ``depth`` plies (deepening one ply at a time), then
    through captures and queen promotions. Draws by repetition are not seen.

    >>> score(chess.Board("8/8/8/8/8/8/k6P/2K5 b - - 0 1"), depth=1) < -500  # Black to move
    True
    """
    value = 0
    for plies in range(1, depth + 1):
        value = _search(board, plies, -MATE, MATE)
    return value


def _moves(board: chess.Board) -> list[chess.Move]:
    """The legal moves, promotions to a queen only, promotions and captures first."""
    moves = [move for move in board.legal_moves if move.promotion in (None, chess.QUEEN)]
    moves.sort(key=lambda move: not (move.promotion or board.is_capture(move)))
    return moves


def _search(board: chess.Board, depth: int, alpha: int, beta: int) -> int:
    """Fail-soft alpha-beta with a transposition table; scores from the side to move's view."""
    if depth == 0:
        if not any(board.generate_legal_moves()):
            return -MATE if board.is_check() else 0
        return _quiesce(board, alpha, beta, QUIESCE)
    key = (position_key(board), depth)
    known = _TABLE.get(key)
    settled = table_score(known, alpha, beta)
    if settled is not None:
        return settled
    moves = _moves(board)
    if not moves:
        return -MATE if board.is_check() else 0
    if board.occupied == board.kings:
        return 0
    if known is not None and known[2] in moves:
        moves.remove(known[2])
        moves.insert(0, known[2])
    best, start, best_move = -MATE - 1, alpha, None
    for move in moves:
        board.push(move)
        value = -_search(board, depth - 1, -beta, -alpha)
        board.pop()
        if value > best:
            best, best_move = value, move
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    remember(_TABLE, key, table_entry(best, start, beta, best_move))
    return best


def _quiesce(board: chess.Board, alpha: int, beta: int, depth: int) -> int:
    """Captures and queen promotions only, the side to move may stand pat."""
    stand = _evaluate(board)
    if depth == 0 or stand >= beta:
        return stand
    alpha = max(alpha, stand)
    last = chess.BB_RANK_8 if board.turn == chess.WHITE else chess.BB_RANK_1
    captures = board.generate_legal_moves(to_mask=board.occupied_co[not board.turn])
    promotions = board.generate_legal_moves(board.pawns, last & ~board.occupied)
    for move in itertools.chain(captures, promotions):
        if move.promotion not in (None, chess.QUEEN):
            continue
        board.push(move)
        value = -_quiesce(board, -beta, -alpha, depth - 1)
        board.pop()
        if value >= beta:
            return value
        alpha = max(alpha, value)
    return alpha


def _evaluate(board: chess.Board) -> int:
    """The side to move's static score: material, then (with only kings and pawns besides any
    queens) passed pawns, kings near them and near the enemy pawns, and runaway pawns."""
    key = (board.occupied_co[chess.WHITE], board.occupied, board.pawns, board.kings, board.turn)
    known = _EVALUATED.get(key)
    if known is None:
        passed = (_passed(board, chess.BLACK), _passed(board, chess.WHITE))
        white = PAWN * balance(board) + _pawn_terms(board, chess.WHITE, passed[chess.WHITE]) \
            - _pawn_terms(board, chess.BLACK, passed[chess.BLACK]) + _runaways(board, passed)
        known = remember(_EVALUATED, key, white if board.turn == chess.WHITE else -white)
    return known


def _passed(board: chess.Board, color: chess.Color) -> list[chess.Square]:
    """The passed pawns of ``color``: no enemy pawn ahead on their file or the next ones.

    >>> board = chess.Board("8/8/8/1p1p4/1P1P3k/7P/4K3/8 b - - 0 1")
    >>> [chess.square_name(s) for s in _passed(board, chess.WHITE)], _passed(board, chess.BLACK)
    (['h3'], [])
    """
    enemy = board.pawns & board.occupied_co[not color]
    return [square for square in chess.scan_forward(board.pawns & board.occupied_co[color])
            if not _SPAN_AHEAD[color][square] & enemy]


def _pawn_terms(board: chess.Board, color: chess.Color, passed: list[chess.Square]) -> int:
    """What ``color``'s passed pawns and king placement are worth, in centipawns."""
    king, enemy_king = board.king(color), board.king(not color)
    if king is None or enemy_king is None:
        return 0
    total = 0
    for square in passed:
        rank, queening = _RANK[color][square], _QUEENING[color][square]
        nearer = _DISTANCE[enemy_king][queening] - _DISTANCE[king][queening]
        total += PASSED[rank] + NEAR * nearer * (rank // 3)
    near = _DISTANCE[king]
    targets = [near[square] for square in
               chess.scan_forward(board.pawns & board.occupied_co[not color])]
    if targets:
        total += round(ACTIVE * (7 - sum(targets) / len(targets)))
    return total


def _runaway_plies(board: chess.Board, color: chess.Color,
                   passed: list[chess.Square]) -> int | None:
    """How many plies ``color``'s fastest pawn needs to queen when the enemy king cannot catch it
    (nothing stands in its way and the king is outside its square), or None."""
    enemy_king = board.king(not color)
    if enemy_king is None or board.occupied & ~board.pawns & ~board.kings:
        return None
    fastest = None
    to_move = board.turn == color
    for square in passed:
        if _FILE_AHEAD[color][square] & board.occupied:
            continue
        rank = _RANK[color][square]
        steps = 5 if rank == 1 else 7 - rank
        if _DISTANCE[enemy_king][_QUEENING[color][square]] > steps + (not to_move):
            plies = 2 * steps - to_move
            fastest = plies if fastest is None else min(fastest, plies)
    return fastest


def _runaways(board: chess.Board, passed: tuple[list[chess.Square], list[chess.Square]]) -> int:
    """White's gain from a runaway pawn (negative: Black's), when the other side has none that
    queens within a move of it."""
    white = _runaway_plies(board, chess.WHITE, passed[chess.WHITE])
    black = _runaway_plies(board, chess.BLACK, passed[chess.BLACK])
    if white is not None and (black is None or black > white + 2):
        return RUNAWAY
    if black is not None and (white is None or white > black + 2):
        return -RUNAWAY
    return 0
