"""chesskit author: items built (worked out and verified) per second, for 200 positions of the
packaged Lichess sample, with Stockfish and without it; and the plain way, Stockfish's one
multipv search per position with nothing verified, for the ratio.

Run: ``.venv/bin/python benchmarks/bench_author.py [COUNT]``. Prints a table: positions, built,
refused, seconds, positions per second, and the time per position against the plain way.
"""

from __future__ import annotations

import random
import sys
import time
from importlib import resources
from pathlib import Path

import chess

from chesskit.exercises import bank_engine
from chesskit.rules import engine
from chesskit.teacher.author import make_items
from chesskit.teacher.author_sources import read_puzzles


def positions(count: int) -> str:
    """``count`` puzzles of the packaged sample (seeded), as a puzzle CSV."""
    path = Path(str(resources.files("chesskit") / "data" / "lichess-puzzles-sample.csv"))
    lines = path.read_text(encoding="utf-8").splitlines()
    return "\n".join([lines[0], *random.Random(200).sample(lines[1:], count)]) + "\n"


def plain(fens: list[str]) -> float:
    """Seconds for Stockfish's multipv search of every position (what author starts from)."""
    start = time.perf_counter()
    with engine.open_engine() as sf:
        for fen in fens:
            engine.analyse_moves(sf, chess.Board(fen), depth=bank_engine.DEPTH,
                                 count=bank_engine.TOP)
    return time.perf_counter() - start


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    sources = read_puzzles(positions(count))
    rows = []
    for label, use_engine in (("without Stockfish", False), ("with Stockfish", True)):
        if use_engine and not engine.available():
            continue
        start = time.perf_counter()
        made = make_items(sources, use_engine=use_engine)
        seconds = time.perf_counter() - start
        built = sum(m.item is not None for m in made)
        rows.append((label, len(made), built, len(made) - built, seconds))
    base = plain([s.fen for s in sources]) if engine.available() else None
    print(f"{'mode':<20} {'positions':>9} {'built':>6} {'refused':>8} {'seconds':>8} "
          f"{'pos/s':>6} {'built/s':>8} {'x plain':>8}")
    for label, total, built, refused, seconds in rows:
        ratio = f"{seconds / base:8.2f}" if base else "       -"
        print(f"{label:<20} {total:>9} {built:>6} {refused:>8} {seconds:>8.1f} "
              f"{total / seconds:>6.1f} {built / seconds:>8.2f} {ratio}")
    if base:
        print(f"{'plain (multipv only)':<20} {count:>9} {'-':>6} {'-':>8} {base:>8.1f} "
              f"{count / base:>6.1f} {'-':>8} {1:8.2f}")


if __name__ == "__main__":
    main()
