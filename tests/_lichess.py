"""Measuring :mod:`chesskit.rules.tactics` against the themes of the packaged Lichess sample
(CC0): the split into a tuning part and a held-out part, and recall / false-tag rates. Used by
``tests/test_tactics.py`` and ``benchmarks/bench_tactics.py`` only.

>>> puzzle_part("000rZ"), puzzle_part("002X3")
('tuning', 'held-out')
"""

from __future__ import annotations

import csv
import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources

import chess

from chesskit.rules.tactics import motifs

THEMES: dict[str, str] = {
    "fork": "fork", "pin": "pin", "skewer": "skewer", "discoveredAttack": "discovered_attack",
}
"""Lichess puzzle theme -> the tag of ``MOTIFS`` that names it (the first part's tactics)."""

NEW_THEMES: dict[str, str] = {
    "attraction": "decoy", "deflection": "deflection", "capturingDefender":
    "removing_the_defender", "interference": "interference", "clearance": "clearance",
    "intermezzo": "in_between_move", "zugzwang": "zugzwang",
}
"""The second part's tactics: Lichess theme -> tag."""


SAMPLE = "lichess-puzzles-sample.csv"
"""The packaged sample: 1,499 puzzles of every kind, mostly for beginners (the bank's source)."""

TACTICS = "lichess-puzzles-tactics.csv"
"""1,500 puzzles with the second part's themes (attraction, deflection, capturingDefender,
interference, clearance, intermezzo); their Themes keep only the tactical themes (no mate,
length or phase, no zugzwang): see ``chesskit/data/NOTICE.md``."""

ZUGZWANG = "lichess-puzzles-zugzwang.csv"
"""648 endgame puzzles with their full Themes: the 324 with zugzwang and as many without it
(of the same kinds of ending), for measuring zugzwang only: see ``chesskit/data/NOTICE.md``."""


def sample(part: str | None = None, *, name: str = SAMPLE) -> list[dict[str, str]]:
    """The rows of a packaged Lichess file (:data:`SAMPLE`, :data:`TACTICS` or :data:`ZUGZWANG`),
    all or one part (see :func:`puzzle_part`)."""
    path = resources.files("chesskit") / "data" / name
    with path.open(encoding="utf-8") as handle:
        return [row for row in csv.DictReader(handle)
                if part is None or puzzle_part(row["PuzzleId"]) == part]


def bank_puzzles() -> frozenset[str]:
    """PuzzleIds the exercise bank uses (``source = "lichess:<id>"``)."""
    bank = resources.files("chesskit") / "bank"
    found: set[str] = set()
    for entry in bank.iterdir():
        if entry.name.endswith(".toml"):
            found.update(re.findall(r'"lichess:(\w+)"', entry.read_text(encoding="utf-8")))
    return frozenset(found)


def puzzle_part(puzzle_id: str) -> str:
    """``"held-out"`` or ``"tuning"``: held-out when the first byte of SHA-256(PuzzleId) is
    odd. The definitions of the tactics module were tuned on the other part only."""
    odd = hashlib.sha256(puzzle_id.encode()).digest()[0] % 2 == 1
    return "held-out" if odd else "tuning"


@dataclass(frozen=True)
class ThemeRate:
    """How well one tag names one Lichess theme on a set of puzzles."""

    with_theme: int
    recall_first: float
    recall_any: float
    without_theme: int
    false_any: float
    false_first: float


def learner_tags(row: Mapping[str, str]) -> list[frozenset[str]]:
    """The tags of each learner move of a puzzle row (the first UCI move is the opponent's),
    each asked of the board with the puzzle's moves so far pushed, as a course plays them: the
    in-between move reads the move just played (the other tags ignore it)."""
    board = chess.Board(row["FEN"])
    moves = [chess.Move.from_uci(uci) for uci in row["Moves"].split()]
    board.push(moves[0])
    learner: list[frozenset[str]] = []
    for index, move in enumerate(moves[1:]):
        if index % 2 == 0:
            learner.append(motifs(board, move))
        board.push(move)
    return learner


def theme_rates(rows: Iterable[Mapping[str, str]], themes: Mapping[str, str] = THEMES
                ) -> dict[str, ThemeRate]:
    """For each theme: recall and false positives of its tag on puzzle rows, looking at the
    learner's first move and at any of them.

    >>> row = {"FEN": "r3k3/7p/8/1N6/8/8/8/4K3 b - - 0 1", "Moves": "h7h6 b5c7",
    ...        "Themes": "fork"}
    >>> theme_rates([row])["fork"].recall_first
    1.0
    """
    counts = {theme: [0, 0, 0, 0, 0, 0] for theme in themes}
    for row in rows:
        learner = learner_tags(row)
        every = frozenset().union(*learner)
        present = set(row["Themes"].split())
        for theme, tag in themes.items():
            row_counts = counts[theme]
            offset = 0 if theme in present else 3
            row_counts[offset] += 1
            row_counts[offset + 1] += tag in learner[0]
            row_counts[offset + 2] += tag in every
    return {theme: ThemeRate(c[0], c[1] / max(c[0], 1), c[2] / max(c[0], 1), c[3],
                             c[5] / max(c[3], 1), c[4] / max(c[3], 1))
            for theme, c in counts.items()}
