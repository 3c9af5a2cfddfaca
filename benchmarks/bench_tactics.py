"""How well chesskit.rules.tactics names Lichess's themes, and how fast ``motifs`` is.

Part 1, naming (printed after part 2). The packaged Lichess sample is split by
``tests/_lichess.py``'s ``puzzle_part``:
SHA-256 of the PuzzleId, even first byte = "tuning", odd = "held-out" (the definitions were
tuned on the first part only); "held-out, not bank" is the held-out part without the puzzles
the exercise bank uses. For fork, pin, skewer and discovered attack it prints the number of
puzzles with the theme, the recall (the tag on the learner's first move / on any learner
move), the number without the theme and the false tags (on any / on the first learner move).
Lichess tags a theme when it happens on any move of the solution. ``motifs`` is given the board
with the puzzle's moves pushed, so the in-between move sees the move just played.

Part 2, speed: median and 95th percentile of ``motifs`` on middlegame positions beside plain
python-chess (``board.push(move); board.is_check(); board.pop()``): the first call on each
position ("cold": the short searches of the second part's tactics run) and the calls after it
("again": ``motifs`` remembers its answer per position and move). It prints the load average,
since two cores are shared.

Part 1 reads the three packaged files: ``lichess-puzzles-sample.csv`` (every kind of puzzle),
``lichess-puzzles-tactics.csv`` (the second part's themes; no zugzwang theme in it) and
``lichess-puzzles-zugzwang.csv`` (zugzwang puzzles and as many endgame puzzles without it).

Run: ``.venv/bin/python benchmarks/bench_tactics.py``.
"""

from __future__ import annotations

import csv
import os
import statistics
import sys
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from _lichess import (  # noqa: E402
    NEW_THEMES,
    SAMPLE,
    TACTICS,
    THEMES,
    ZUGZWANG,
    bank_puzzles,
    puzzle_part,
    theme_rates,
)

from chesskit.rules.tactics import describe_motifs, motifs  # noqa: E402


def _rows(name: str = SAMPLE) -> list[dict[str, str]]:
    path = resources.files("chesskit") / "data" / name
    with path.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _middlegame_moves(rows: list[dict[str, str]], limit: int = 200
                      ) -> list[tuple[chess.Board, chess.Move]]:
    """The learner's first move of Lichess sample puzzles tagged middlegame."""
    cases: list[tuple[chess.Board, chess.Move]] = []
    for row in rows:
        if "middlegame" in row["Themes"].split() and len(cases) < limit:
            board = chess.Board(row["FEN"])
            moves = [chess.Move.from_uci(uci) for uci in row["Moves"].split()]
            board.push(moves[0])
            cases.append((board, moves[1]))
    return cases


def _times_ms(work: Callable[[chess.Board, chess.Move], object],
              cases: list[tuple[chess.Board, chess.Move]], *, rounds: int = 5
              ) -> tuple[float, float]:
    """Median and 95th percentile in milliseconds."""
    samples = []
    for _ in range(rounds):
        for board, move in cases:
            start = time.perf_counter()
            work(board, move)
            samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000, statistics.quantiles(samples, n=20)[-1] * 1000


def _plain(board: chess.Board, move: chess.Move) -> bool:
    board.push(move)
    check = board.is_check()
    board.pop()
    return check


def naming_table(rows: list[dict[str, str]], title: str, themes: dict[str, str]) -> None:
    print(f"\n{title}")
    print(f"{'theme':<18}{'part':<20}{'with':>5}{'first':>8}{'any':>8}{'without':>8}"
          f"{'false+':>8}{'false+1':>8}")
    bank = bank_puzzles()
    parts = {part: [row for row in rows if puzzle_part(row["PuzzleId"]) == part]
             for part in ("tuning", "held-out")}
    parts["held-out, not bank"] = [r for r in parts["held-out"] if r["PuzzleId"] not in bank]
    for part, chosen in parts.items():
        for theme, rate in theme_rates(chosen, themes).items():
            print(f"{theme:<18}{part:<20}{rate.with_theme:>5}{rate.recall_first:>8.1%}"
                  f"{rate.recall_any:>8.1%}{rate.without_theme:>8}{rate.false_any:>8.1%}"
                  f"{rate.false_first:>8.1%}")
    print("first/any: recall on the first / any learner move; false+ (false+1): tagged on any "
          "(the first) learner move of a puzzle without the theme")


def main() -> None:
    rows = _rows()
    cases = _middlegame_moves(rows)
    plain = _times_ms(_plain, cases)[0]
    timings = [
        ("push/is_check/pop (python-chess)", _times_ms(_plain, cases)),
        ("motifs(board, move), cold", _times_ms(motifs, cases, rounds=1)),
        ("motifs(board, move), again", _times_ms(motifs, cases)),
        ("motifs(fen, san), again", _times_ms(lambda b, m: motifs(b.fen(), b.san(m)), cases)),
        ("describe_motifs(board, move), again",
         _times_ms(lambda b, m: describe_motifs(b, m, lang="en"), cases)),
    ]
    print(f"\n{len(cases)} middlegame positions (Lichess sample); load average "
          f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'call':<38}{'median ms':>10}{'p95 ms':>9}{'ratio':>9}")
    for name, (median, p95) in timings:
        print(f"{name:<38}{median:>10.3f}{p95:>9.3f}{median / plain:>8.1f}x")
    naming_table(rows, SAMPLE, {**THEMES, **NEW_THEMES})  # after the timings: cold means cold
    second = {theme: tag for theme, tag in NEW_THEMES.items() if theme != "zugzwang"}
    naming_table(_rows(TACTICS), TACTICS, {**THEMES, **second})
    naming_table(_rows(ZUGZWANG), ZUGZWANG, {"zugzwang": "zugzwang"})


if __name__ == "__main__":
    main()
