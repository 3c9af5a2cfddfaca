"""chesskit.rules.search: forced mates, material, perpetual check, the playout defender."""

from __future__ import annotations

import time

import chess
import pytest

from chesskit.rules import engine, search, values

MATE2 = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1"


def test_mate_in_one_and_two() -> None:
    board = chess.Board("k7/8/1K6/8/8/8/8/3Q3R w - - 0 1")
    assert [board.san(m) for m in search.mate_in(board, 1)] == ["Qd8#", "Rh8#"]
    board = chess.Board(MATE2)
    assert [board.san(m) for m in search.mate_in(board, 2)] == ["Nf6+"]
    assert search.shortest_mate(board) == 2
    assert not search.can_mate(board, 1)
    assert board.fen() == MATE2  # the board is left as found


def test_mate_in_two_is_fast() -> None:
    board = chess.Board(MATE2)
    key = board.parse_san("Nf6+")
    times = []
    for _ in range(20):
        start = time.perf_counter()
        assert search.forces_mate(board, key, 2)
        times.append(time.perf_counter() - start)
    assert sorted(times)[18] < 0.05


def test_material() -> None:
    board = chess.Board("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1")
    assert search.material_gain(board, board.parse_san("Rxd5")) == 9
    assert search.wins_at_least(board, board.parse_san("Rxd5"), 9)
    assert not search.wins_at_least(board, board.parse_san("Rd2"), 1)
    protected = chess.Board("4k3/4p3/3q4/8/8/8/8/3QK3 w - - 0 1")
    assert search.material_gain(protected, protected.parse_san("Qxd6")) == 0


def _plain_quiesce(board: chess.Board, depth: int) -> int:
    """The quiescence value without pruning: stand pat or the best capture."""
    if board.is_checkmate():
        return -search.MATE_SCORE
    stand = values.balance(board) * (1 if board.turn else -1)
    if depth == 0:
        return stand
    scores = [stand]
    for move in list(board.generate_legal_captures()):
        board.push(move)
        scores.append(-_plain_quiesce(board, depth - 1))
        board.pop()
    return max(scores)


def _plain_negamax(board: chess.Board, depth: int) -> int:
    """The value the material search defines, by full minimax (no pruning, no table)."""
    moves = list(board.legal_moves)
    if not moves:
        return -search.MATE_SCORE if board.is_check() else 0
    if board.is_insufficient_material():
        return 0
    if depth == 0:
        return _plain_quiesce(board, 4)
    scores = []
    for move in moves:
        board.push(move)
        scores.append(-_plain_negamax(board, depth - 1))
        board.pop()
    return max(scores)


TACTICAL = [
    "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1",
    "6k1/5ppp/8/8/3n4/8/2Q2PPP/6K1 b - - 0 1",
    "r5k1/5ppp/2n5/3b4/8/2N2Q2/5PPP/3R2K1 w - - 0 1",
    "7k/5Q2/8/8/8/8/8/K7 w - - 0 1",
]


@pytest.mark.parametrize("fen", TACTICAL)
def test_pruned_search_gives_the_plain_minimax_value(fen: str) -> None:
    """The table, the move order and the pruning change the speed, never a score or the
    reply named: every move's gain and refutation agree with a plain minimax, searched twice
    (the second time from a warm table)."""
    board = chess.Board(fen)
    sign = 1 if board.turn else -1
    for move in sorted(board.legal_moves, key=chess.Move.uci)[::3]:
        board.push(move)
        replies = search.ordered_moves(board)
        scores = []
        for reply in replies:
            board.push(reply)
            scores.append(_plain_negamax(board, 1))
            board.pop()
        board.pop()
        for _ in range(2):
            gain, reply = search.best_defence(board, move)
            if replies:
                best = min(scores)
                assert reply == replies[scores.index(best)]
                assert gain == (best if abs(best) >= search.MATE_SCORE
                                else best - values.balance(board) * sign)
                for target in (gain - 1, gain, gain + 1):
                    if abs(gain) < search.MATE_SCORE:
                        assert search.wins_at_least(board, move, target) == (gain >= target)
    assert board.fen() == fen


def test_perpetual() -> None:
    board = chess.Board("6k1/6p1/8/8/8/8/8/K3Q3 w - - 0 1")
    assert search.is_perpetual(board, board.parse_san("Qe8+"))
    assert not search.is_perpetual(board, board.parse_san("Qe2"))
    free = chess.Board("4k3/8/8/8/8/8/8/K3R3 w - - 0 1")
    assert not search.is_perpetual(free, free.parse_san("Re2+"))


def test_builtin_defender_is_deterministic_and_central() -> None:
    board = chess.Board("8/8/8/4k3/8/8/8/KQ6 b - - 0 1")
    moves = {search.builtin_defence(board) for _ in range(3)}
    assert len(moves) == 1
    assert search.centre_distance(moves.pop().to_square) == 0.5


def test_defender_avoids_mate_in_one() -> None:
    board = chess.Board("1k6/8/2K5/8/8/8/8/7Q b - - 0 1")

    def allows_mate(move: chess.Move) -> bool:
        board.push(move)
        try:
            return search.can_mate(board, 1)
        finally:
            board.pop()
    assert any(allows_mate(m) for m in board.legal_moves)
    reply = search.builtin_defence(board)
    assert reply is not None and not allows_mate(reply)


@pytest.mark.skipif(not engine.available(), reason="no Stockfish")
def test_engine_defender_is_deterministic() -> None:
    board = chess.Board("8/8/8/4k3/8/8/8/KQ6 b - - 0 1")
    with search.defender() as defend:
        first, second = defend(board), defend(board)
    assert first == second and first in board.legal_moves
