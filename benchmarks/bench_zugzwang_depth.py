"""How deep a search must look to name Lichess's zugzwangs (issue 24's 70% goal).

Lichess tags a puzzle zugzwang when, after one of the learner's moves, Stockfish (30,000 nodes)
finds the side to move worse off moving than passing by 0.3 of its chance of winning (-1 to 1).
This runs that test with Stockfish held to fixed depths on the king and pawn endings of
``lichess-puzzles-zugzwang.csv`` (the positions after each learner move, not in check, at most
15 replies) and prints the recall and false tags per depth: what any search with an evaluation
as good as Stockfish's finds at that depth. chesskit's own test (``motifs``, 4-6 plies in
Python) is measured by ``bench_tactics.py``.

Run: ``.venv/bin/python benchmarks/bench_zugzwang_depth.py [--part tuning|held-out]
[--depths 4 6 8 10]`` (needs ``/usr/games/stockfish``; about a minute).
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

import chess
import chess.engine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from _lichess import ZUGZWANG, sample  # noqa: E402

from chesskit.rules import engine  # noqa: E402
from chesskit.rules.pawn_endings import is_pawn_ending, win_chance  # noqa: E402
from chesskit.rules.tactics import ZUGZWANG_REPLIES  # noqa: E402

LICHESS_GAP = 0.3
"""How much worse moving must be than passing, in Lichess's chance of winning."""


def _positions(row: dict[str, str]) -> list[chess.Board]:
    """The king and pawn endings after the learner's moves of a puzzle where zugzwang is
    looked for (not in check, not over, at most ``ZUGZWANG_REPLIES`` replies)."""
    board = chess.Board(row["FEN"])
    moves = [chess.Move.from_uci(uci) for uci in row["Moves"].split()]
    board.push(moves[0])
    found = []
    for index, move in enumerate(moves[1:]):
        board.push(move)
        if index % 2 == 0 and is_pawn_ending(board) and not board.is_check() \
                and not board.is_game_over() and board.legal_moves.count() <= ZUGZWANG_REPLIES:
            found.append(board.copy(stack=False))
    return found


def _zugzwang(stockfish: chess.engine.SimpleEngine, board: chess.Board, depth: int) -> bool:
    """Lichess's test with Stockfish at ``depth``: moving costs 0.3 of the chance of winning."""
    def score(position: chess.Board) -> int:
        # a new game each time: Stockfish's hash would carry deeper results between positions
        info = stockfish.analyse(position, chess.engine.Limit(depth=depth), game=object())
        return info["score"].pov(position.turn).score(mate_score=10_000)

    moving = score(board)
    board.push(chess.Move.null())
    passing = -score(board)
    board.pop()
    return win_chance(passing) - win_chance(moving) >= LICHESS_GAP


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("tuning", "held-out"), default="tuning")
    parser.add_argument("--depths", type=int, nargs="+", default=[4, 6, 8, 10])
    args = parser.parse_args()
    if not engine.available():
        print(f"Error: {engine.MISSING}", file=sys.stderr)
        return 1
    logging.getLogger("chess.engine").setLevel(logging.ERROR)  # "no history with null moves"
    rows = [(row, _positions(row)) for row in sample(args.part, name=ZUGZWANG)]
    print(f"{args.part} half of {ZUGZWANG}: {len(rows)} puzzles, "
          f"{sum(len(found) for _, found in rows)} pawn-ending positions after a learner move")
    print(f"{'Stockfish depth':<17}{'recall':>14}{'false tags':>14}{'seconds':>9}")
    with engine.open_engine() as stockfish:
        for depth in args.depths:
            start = time.perf_counter()
            counts = {True: [0, 0], False: [0, 0]}  # has the theme -> [puzzles, tagged]
            for row, found in rows:
                theme = "zugzwang" in row["Themes"].split()
                counts[theme][0] += 1
                counts[theme][1] += any(_zugzwang(stockfish, board, depth) for board in found)
            (pos, hit), (neg, false) = counts[True], counts[False]
            print(f"{depth:<17}{hit:>5}/{pos} {hit / pos:>6.1%}{false:>5}/{neg} {false / neg:>6.1%}"
                  f"{time.perf_counter() - start:>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
