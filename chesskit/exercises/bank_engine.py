"""Engine verification of the bank: every accepted answer of a move or line item is a good
move, and every refused move as good as the best accepted one (that the goal is about) is
accepted. ``chesskit check-bank`` runs it after the rule checks.

The item's legal moves are graded as ``Exercise.check`` grades them, and Stockfish
(:mod:`chesskit.rules.engine`, depth ``DEPTH``) scores the ``TOP`` best moves in one multipv search
and every accepted move outside them on its own. Scores are in centipawns from the mover's side; a
mate in n plies is ``MATE - n``. A refused move as good as the best accepted one is always among the
top moves, unless ``TOP`` refused moves are better still (and then those are reported).

**A bad accepted move** (``ref`` is the best legal move for the goals that ask for the best or
a winning move, :data:`PLAY_GOALS` and line items, and the best *accepted* move for the goals
about a kind of move, such as check, escape_check, promote, capture):

- it lets the opponent force mate while ``ref`` does not, or
- it scores more than ``MARGIN`` (1.5 pawns) below ``ref`` and under ``WIN`` (+3): a win thrown
  away, a piece lost, a draw or a loss where ``ref`` keeps the balance (never when ``ref`` is
  itself a forced mate against the mover).

A move still clearly winning (at least ``WIN``) is never bad, however much better ``ref`` is.

**A wrongly refused move** (only for :data:`COMPLETE_GOALS` and line items, where the goal is
"the best" or "a winning" move): a refused move that mates as fast as the fastest accepted mate,
or, when no accepted move mates, scores within ``EQUAL`` (0.5 pawn) of the best accepted move
while that move wins (at least ``WIN``); for ``win_material`` only a move that does win the
material (searched two plies deeper than the item) meets the goal. Where nothing wins (an
opening choice), the answers are the lesson's choice among equal moves and only the bad-move
rule applies.

Results are kept in ``chesskit/bank/engine-cache.json``, keyed by the position's FEN, the
engine's name and version and the depth: CI evaluates only new or changed positions. Without
Stockfish the cache still verifies what it covers; the items it does not cover are named in a
warning (not a problem: the learner's check never needs Stockfish, and CI has it).

>>> describe(engine.mate_score(3)), describe(-engine.mate_score(2)), describe(-120)
('mate in 2', 'mated in 1', '-1.20')
"""

from __future__ import annotations

import contextlib
import json
import pathlib
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources

import chess
import chess.engine

from chesskit.errors import EngineMissingError
from chesskit.exercises import Exercise
from chesskit.rules import engine, search

DEPTH = 12
TOP = 5
"""How many best moves one multipv search scores (accepted moves outside them: one by one)."""
MARGIN = 150
WIN = 300
EQUAL = 50
MATED = -(engine.MATE - 1000)
"""Scores at or below this are a forced mate against the mover."""
PLAY_GOALS = ("mate", "win_material", "fork", "pin", "skewer", "discovered_attack",
              "double_check", "perpetual", "best")
COMPLETE_GOALS = ("mate", "win_material", "best")
CACHE = pathlib.Path(str(resources.files("chesskit") / "bank" / "engine-cache.json"))
Scores = dict[str, int]


def describe(score: int) -> str:
    """A score as a reader says it: "+1.20", "mate in 2", "mated in 1"."""
    if score >= engine.MATE - 1000:
        return f"mate in {(engine.MATE - score + 1) // 2}"
    if score <= MATED:
        return f"mated in {(engine.MATE + score) // 2}"
    return f"{score / 100:+.2f}"


def is_mate(score: int) -> bool:
    """True for a score that mates the opponent."""
    return score >= engine.MATE - 1000


@dataclass
class Cache:
    """Engine results by ``"<FEN>|<engine>|<depth>"``: each legal move's UCI and score."""

    entries: dict[str, Scores]
    used: set[str]
    changed: bool = False

    @classmethod
    def load(cls, path: pathlib.Path) -> Cache:
        """The cache at ``path`` (empty when the file is missing)."""
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raw = {}
        return cls({str(k): dict(v) for k, v in raw.items()}, set())

    def get(self, fen: str, name: str | None, depth: int) -> Scores | None:
        """The scores of ``fen`` by engine ``name`` (None: any engine) at ``depth``."""
        keys = [f"{fen}|{name}|{depth}"] if name else sorted(
            k for k in self.entries if k.startswith(f"{fen}|") and k.endswith(f"|{depth}"))
        key = next((k for k in reversed(keys) if k in self.entries), None)
        if key is None:
            return None
        self.used.add(key)
        return self.entries[key]

    def put(self, fen: str, name: str, depth: int, scores: Scores) -> None:
        key = f"{fen}|{name}|{depth}"
        self.entries[key], self.changed = scores, True
        self.used.add(key)

    def save(self, path: pathlib.Path, *, prune: bool) -> None:
        """Write the cache (one position a line, sorted); ``prune`` keeps only used entries."""
        keep = sorted(self.used if prune else self.entries)
        if not self.changed and keep == sorted(self.entries):
            return
        self.changed = False
        lines = [json.dumps(k) + ":" + json.dumps(self.entries[k], sort_keys=True,
                                                  separators=(",", ":")) for k in keep]
        path.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


def _graded(ex: Exercise, board: chess.Board) -> dict[str, bool]:
    """Each legal move's UCI -> True when the exercise accepts it (``Exercise.solutions``: the
    moves ``Exercise.check`` accepts, without composing a message for each refused one)."""
    accepted = set(ex.solutions())
    return {m.uci(): board.san(m) in accepted for m in board.legal_moves}


def _san(board: chess.Board, uci: str) -> str:
    return board.san(chess.Move.from_uci(uci))


def item_problems(ex: Exercise, scores: Mapping[str, int], *, label: str) -> list[str]:
    """The engine's objections to one item, given every legal move's score ("engine" field).

    >>> ex = Exercise(id="x", lesson=6, kind="move", goal="check",
    ...               fen="4k3/8/8/8/8/8/3q4/R3K3 w - - 0 1")
    >>> item_problems(ex, {"e1d2": 0}, label="Stockfish 15.1 depth 16")
    []
    """
    board = ex.board()
    accepted = _graded(ex, board)
    good = {uci: s for uci, s in scores.items() if accepted.get(uci)}
    if not good:
        return []
    play = ex.kind == "line" or ex.goal in PLAY_GOALS
    ref_uci = max(scores if play else good, key=lambda u: (scores[u], u))
    ref = scores[ref_uci]
    found = []
    for uci, score in sorted(good.items()):
        if score <= MATED < ref or (ref > MATED and ref - score > MARGIN and score < WIN):
            found.append(f"{label}: accepted {_san(board, uci)} is {describe(score)}, but "
                         f"{_san(board, ref_uci)} is {describe(ref)}")
    complete = ex.kind == "line" or ex.goal in COMPLETE_GOALS
    best_uci = max(good, key=lambda u: (good[u], u))
    best = good[best_uci]
    for uci, score in sorted(scores.items()):
        if not complete or accepted.get(uci):
            continue
        if (score >= best if is_mate(best) else score >= best - EQUAL and best >= WIN) and (
                _wins_deeper(ex, board, uci)):
            found.append(f"{label}: refused {_san(board, uci)} is {describe(score)}, as good as "
                         f"accepted {_san(board, best_uci)} ({describe(best)})")
    return found


def _wins_deeper(ex: Exercise, board: chess.Board, uci: str) -> bool:
    """For a win_material item, whether a refused move does win the material (searched two
    plies deeper than the item): only such a move meets the goal. True for the other goals."""
    if ex.goal != "win_material":
        return True
    return search.wins_at_least(board, chess.Move.from_uci(uci), int(ex.data.get("gain", 3)),
                                depth=int(ex.data.get("depth", 2)) + 2)


def _start(stack: contextlib.ExitStack) -> chess.engine.SimpleEngine | None:
    """Stockfish for the run (closed with ``stack``), or None when it is missing."""
    if not engine.available():
        return None
    try:
        return stack.enter_context(engine.open_engine())
    except EngineMissingError:
        return None


def _missing(ex: Exercise, scores: Scores | None) -> list[str]:
    """The accepted moves (UCI) the cached scores lack (all of them when nothing is cached)."""
    accepted = _graded(ex, ex.board())
    return sorted(uci for uci, ok in accepted.items() if ok and uci not in (scores or {}))


def _evaluate(sf: chess.engine.SimpleEngine, board: chess.Board, scores: Scores | None,
              missing: list[str], *, depth: int) -> Scores:
    """The cached scores, or the ``TOP`` best moves of one multipv search, with each accepted
    move they lack searched alone (so each score depends only on position, move and depth)."""
    found = dict(scores) if scores is not None else {
        m.uci(): s for m, s in engine.analyse_moves(sf, board, depth=depth, count=TOP).items()}
    for uci in missing:
        if uci not in found:
            found[uci] = engine.score_move(sf, board, chess.Move.from_uci(uci), depth=depth)
    return found


def checked(ex: Exercise) -> bool:
    """True for the items the engine verifies: move and line items with a position."""
    return ex.kind in ("move", "line") and bool(ex.fen)


def verify(items: Iterable[Exercise], *, cache_path: pathlib.Path = CACHE, depth: int = DEPTH,
           write: bool = True, prune: bool = False) -> list[tuple[str, str, str]]:
    """``(item id, field, problem)`` for every engine objection to ``items``. The cache is read
    from ``cache_path`` and, with ``write``, updated there (``prune``: entries no item used are
    dropped). Prints one warning line to stderr when Stockfish is missing and the cache does not
    cover an item.
    """
    todo = [ex for ex in items if checked(ex)]
    cache = Cache.load(cache_path)
    found: list[tuple[str, str, str]] = []
    uncovered: list[str] = []
    with contextlib.ExitStack() as stack:
        sf = _start(stack)
        name = engine.version(sf) if sf is not None else None
        for ex in todo:
            fen = ex.board().fen()
            scores = cache.get(fen, name, depth)
            missing = _missing(ex, scores)
            if (scores is None or missing) and sf is not None and name is not None:
                scores = _evaluate(sf, ex.board(), scores, missing, depth=depth)
                cache.put(fen, name, depth, scores)
            elif missing:
                scores = None  # without Stockfish an accepted move with no score is not judged
                if write and len(cache.used) % 20 == 0:
                    cache.save(cache_path, prune=False)  # an interrupted cold run keeps its work
            if scores is None:
                uncovered.append(ex.id)
                continue
            label = f"engine ({name or 'cache'}, depth {depth})"
            found += [(ex.id, "engine", p) for p in item_problems(ex, scores, label=label)]
    if uncovered:
        print(f"warning: {engine.MISSING} {len(uncovered)} items not in the engine cache were "
              f"not verified by the engine: {' '.join(uncovered)}", file=sys.stderr)
    if write:
        cache.save(cache_path, prune=prune and not uncovered)
    return found
