"""Exercise checks: median time of Exercise.check, p95 of a mate-in-two check, check-bank,
and the engine verification of the bank with its cache (``--cold``: also with an empty cache,
which runs Stockfish on every move and line item: many minutes).

Run: .venv/bin/python benchmarks/bench_exercises.py [--cold]  (prints a table, no assertions)
"""

from __future__ import annotations

import pathlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable

import chess

from chesskit.exercises import Exercise, bank_engine, catalog
from chesskit.rules import search

MATE2 = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1"


def timings(run: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        out.append((time.perf_counter() - start) * 1000)
    return sorted(out)


def once(ex: Exercise, answer: str) -> float:
    """Milliseconds of one check."""
    start = time.perf_counter()
    ex.check(answer)
    return (time.perf_counter() - start) * 1000


def plain_mate_in_two(board: chess.Board, key: chess.Move) -> bool:
    """The plain python-chess way: every reply, every answer, is_checkmate, no ordering."""
    board.push(key)
    try:
        for reply in list(board.legal_moves):
            board.push(reply)
            mated = False
            for answer in list(board.legal_moves):
                board.push(answer)
                mated = board.is_checkmate()
                board.pop()
                if mated:
                    break
            board.pop()
            if not mated:
                return False
        return True
    finally:
        board.pop()


def engine_seconds(*, cold: bool) -> float:
    """Seconds of the engine verification of the whole bank, cached or from an empty cache."""
    items = list(catalog.bank())
    start = time.perf_counter()
    if cold:
        with tempfile.TemporaryDirectory() as folder:
            bank_engine.verify(items, cache_path=pathlib.Path(folder) / "cache.json")
    else:
        bank_engine.verify(items, write=False)
    return time.perf_counter() - start


def main() -> None:
    items = [ex for ex in catalog.bank() if ex.kind != "playout"]
    answers = [(ex, (ex.solutions() or ["?"])[0]) for ex in items]
    check_times = sorted(once(ex, answer) for ex, answer in answers)
    wrong_times = sorted(once(ex, "a1") for ex, _ in answers)
    board = chess.Board(MATE2)
    key = board.parse_san("Nf6+")
    line = Exercise(id="x", lesson=12, kind="line", fen=MATE2, data={"mate_in": 2})
    ours = timings(lambda: search.forces_mate(board, key, 2), 50)
    plain = timings(lambda: plain_mate_in_two(board, key), 50)
    line_check = timings(lambda: line.check("Nf6+"), 50)
    start = time.perf_counter()
    catalog.check_bank()
    bank_s = time.perf_counter() - start

    def p95(values: list[float]) -> float:
        return values[int(len(values) * 0.95) - 1]

    rows = [
        ("Exercise.check, right answer (bank)", statistics.median(check_times),
         p95(check_times), "", "< 5 ms median"),
        ("Exercise.check, wrong answer (bank)", statistics.median(wrong_times),
         p95(wrong_times), "", "< 5 ms median"),
        ("mate-in-two key check (search)", statistics.median(ours), p95(ours),
         f"{statistics.median(plain) / statistics.median(ours):.1f}x faster than plain",
         "< 50 ms p95"),
        ("mate-in-two Exercise.check", statistics.median(line_check), p95(line_check), "",
         "< 50 ms p95"),
    ]
    print(f"{'what':<40} {'median ms':>10} {'p95 ms':>8}  {'vs plain python-chess':<28} target")
    for name, median, high, ratio, target in rows:
        print(f"{name:<40} {median:>10.2f} {high:>8.2f}  {ratio:<28} {target}")
    print(f"{'check-bank, ' + str(len(list(catalog.bank()))) + ' items (s)':<40} "
          f"{bank_s:>10.2f} {'':>8}  {'':<28} < 60 s")
    engine_items = sum(bank_engine.checked(ex) for ex in catalog.bank())
    for cold in (False, True) if "--cold" in sys.argv else (False,):
        name = f"engine check, {engine_items} items, {'cold' if cold else 'cached'} (s)"
        print(f"{name:<40} {engine_seconds(cold=cold):>10.2f}")


if __name__ == "__main__":
    main()
