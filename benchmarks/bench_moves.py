"""Reading and explaining moves on a middlegame position, beside plain ``Board.parse_san``.

Run: ``.venv/bin/python benchmarks/bench_moves.py``. Prints median and p95 per call in
microseconds and the ratio to python-chess reading the same text (target: explain < 1 ms).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial

import chess

from chesskit.rules.explain import explain_move
from chesskit.rules.notation import read_move

MIDDLEGAME = "r1bqk2r/pppp1ppp/2n2n2/4p3/1bB1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 1 6"
CASES = (("legal", "Bg5"), ("figurine", "♗g5"), ("illegal: pinned", "Nd5"),
         ("illegal: blocked", "Qh5"), ("unparseable", "hello"))
RUNS, BATCH = 31, 50


def _per_call(work: Callable[[], object]) -> tuple[float, float]:
    """Median and p95 of one call in microseconds, over RUNS batches of BATCH calls."""
    samples = []
    for _ in range(RUNS):
        begin = time.perf_counter()
        for _ in range(BATCH):
            work()
        samples.append((time.perf_counter() - begin) / BATCH * 1e6)
    samples.sort()
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))]


def _plain(text: str) -> object:
    try:
        return chess.Board(MIDDLEGAME).parse_san(text)
    except ValueError:
        return None


def _read(text: str) -> object:
    try:
        return read_move(MIDDLEGAME, text)
    except ValueError:
        return None


def main() -> None:
    explain_move(MIDDLEGAME, "Bg5", lang="en")  # warm the locale caches
    print(f"{'case':18} {'text':7} {'parse_san':>10} {'read_move':>10} {'explain':>9} "
          f"{'p95':>7} {'ratio':>6}  code")
    for name, text in CASES:
        plain, _ = _per_call(partial(_plain, text))
        read, _ = _per_call(partial(_read, text))
        explain, p95 = _per_call(partial(explain_move, MIDDLEGAME, text, lang="en"))
        code = explain_move(MIDDLEGAME, text, lang="en").code
        print(f"{name:18} {text:7} {plain:10.1f} {read:10.1f} {explain:9.1f} {p95:7.1f} "
              f"{explain / plain:6.1f}  {code}")
    print("microseconds per call; parse_san includes chess.Board(fen), as explain_move does")


if __name__ == "__main__":
    main()
