"""Median time of chesskit.tactics.motifs on middlegame positions, beside plain python-chess.

The plain way is ``board.push(move); board.is_check(); board.pop()`` for the same move.
Run: ``.venv/bin/python benchmarks/bench_tactics.py``.
"""

from __future__ import annotations

import csv
import statistics
import time
from collections.abc import Callable
from importlib import resources

import chess

from chesskit.tactics import describe_motifs, motifs


def _middlegame_moves(limit: int = 200) -> list[tuple[chess.Board, chess.Move]]:
    """The learner's first move of Lichess sample puzzles tagged middlegame."""
    path = resources.files("chesskit") / "data" / "lichess-puzzles-sample.csv"
    cases: list[tuple[chess.Board, chess.Move]] = []
    with path.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if "middlegame" in row["Themes"].split() and len(cases) < limit:
                board = chess.Board(row["FEN"])
                moves = [chess.Move.from_uci(uci) for uci in row["Moves"].split()]
                board.push(moves[0])
                cases.append((board, moves[1]))
    return cases


def _median_ms(work: Callable[[chess.Board, chess.Move], object],
               cases: list[tuple[chess.Board, chess.Move]], *, rounds: int = 5) -> float:
    samples = []
    for _ in range(rounds):
        for board, move in cases:
            start = time.perf_counter()
            work(board, move)
            samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def _plain(board: chess.Board, move: chess.Move) -> bool:
    board.push(move)
    check = board.is_check()
    board.pop()
    return check


def main() -> None:
    cases = _middlegame_moves()
    plain = _median_ms(_plain, cases)
    rows = [
        ("push/is_check/pop (python-chess)", plain),
        ("motifs(board, move)", _median_ms(motifs, cases)),
        ("motifs(fen, san)", _median_ms(lambda b, m: motifs(b.fen(), b.san(m)), cases)),
        ("describe_motifs(board, move)",
         _median_ms(lambda b, m: describe_motifs(b, m, lang="en"), cases)),
    ]
    print(f"{len(cases)} middlegame positions (Lichess sample), median of 5 rounds")
    print(f"{'call':<36}{'median ms':>10}{'ratio':>9}")
    for name, ms in rows:
        print(f"{name:<36}{ms:>10.3f}{ms / plain:>8.1f}x")


if __name__ == "__main__":
    main()
