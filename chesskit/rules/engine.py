"""Stockfish, in one place: find it, open one process for a batch of positions, and score every
legal move of a position the same way on every run.

Deterministic by construction: one thread, a fixed hash cleared before each position, a fixed
depth (never a time limit), every legal move searched (``multipv`` = the number of moves).

>>> stockfish_path() in (None, STOCKFISH) or stockfish_path().endswith("stockfish")
True
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator

import chess
import chess.engine

from chesskit.errors import EngineMissingError

STOCKFISH = "/usr/games/stockfish"
HASH_MB = 16
MATE = 100_000
"""A mate in n plies scores ``MATE - n`` centipawns (``-(MATE - n)`` when the mover is mated)."""
MISSING = ("Stockfish is not installed (looked for /usr/games/stockfish, then `stockfish` on "
           "PATH): install it with `apt-get install stockfish` or `python3 dev.py setup`.")


def stockfish_path() -> str | None:
    """Where Stockfish is: /usr/games/stockfish when executable, else ``stockfish`` on PATH.

    >>> stockfish_path() is None or os.access(stockfish_path(), os.X_OK)
    True
    """
    if os.access(STOCKFISH, os.X_OK):
        return STOCKFISH
    return shutil.which("stockfish")


def available() -> bool:
    """True when Stockfish can be started."""
    return stockfish_path() is not None


@contextlib.contextmanager
def open_engine(*, threads: int = 1, hash_mb: int = HASH_MB,
                options: chess.engine.ConfigMapping | None = None
                ) -> Iterator[chess.engine.SimpleEngine]:
    """One Stockfish process for a batch of positions, closed on exit; EngineMissingError
    (with :data:`MISSING` as its message) when it is not installed or does not start.

    >>> if available():
    ...     with open_engine() as sf:
    ...         sf.id["name"].startswith("Stockfish")
    ... else:
    ...     True
    True
    """
    path = stockfish_path()
    if path is None:
        raise EngineMissingError(MISSING)
    try:
        sf = chess.engine.SimpleEngine.popen_uci(path)
    except (OSError, chess.engine.EngineError) as error:
        raise EngineMissingError(f"{MISSING} ({error})") from None
    try:
        sf.configure({"Threads": threads, "Hash": hash_mb, **(options or {})})
        yield sf
    finally:
        sf.quit()


def version(sf: chess.engine.SimpleEngine) -> str:
    """The engine's name and version as it says them ("Stockfish 15.1")."""
    return str(sf.id.get("name", "unknown engine"))


def mate_score(plies: int) -> int:
    """The score of a mate ``plies`` half-moves away (the side to move mates when it is odd).

    >>> mate_score(1)
    99999
    """
    return MATE - plies


def centipawns(score: chess.engine.Score) -> int:
    """A score as one integer: centipawns, or ``±(MATE - plies)`` for a mate.

    >>> centipawns(chess.engine.Mate(1)), centipawns(chess.engine.Mate(-2)), centipawns(
    ...     chess.engine.Cp(35))
    (99999, -99996, 35)
    """
    mate = score.mate()
    if mate is None:
        return int(score.score() or 0)
    plies = 2 * mate - 1 if mate > 0 else -2 * mate
    return MATE - plies if mate > 0 else -(MATE - plies)


def analyse_moves(sf: chess.engine.SimpleEngine, board: chess.Board, *, depth: int,
                  count: int | None = None) -> dict[chess.Move, int]:
    """The ``count`` best legal moves of ``board`` (all of them by default) scored from the
    mover's side (see :func:`centipawns`), one multipv search to ``depth`` plies; the hash is
    cleared first, so the result depends only on the position, the engine, depth and count.

    >>> if available():
    ...     with open_engine() as sf:
    ...         scores = analyse_moves(sf, chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"),
    ...                                depth=8, count=1)
    ...     scores
    ... else:
    ...     {chess.Move.from_uci("a1a8"): 99999}
    {Move.from_uci('a1a8'): 99999}
    """
    moves = list(board.legal_moves)
    if not moves:
        return {}
    wanted = len(moves) if count is None else min(count, len(moves))
    infos = sf.analyse(board, chess.engine.Limit(depth=depth), multipv=wanted,
                       game=object(), info=chess.engine.INFO_SCORE | chess.engine.INFO_PV)
    scores: dict[chess.Move, int] = {}
    for info in infos:
        pv, score = info.get("pv"), info.get("score")
        if pv and score is not None and pv[0] not in scores:
            scores[pv[0]] = centipawns(score.pov(board.turn))
    return scores


def score_move(sf: chess.engine.SimpleEngine, board: chess.Board, move: chess.Move, *,
               depth: int) -> int:
    """One move's score from the mover's side, searched alone to ``depth`` (hash cleared)."""
    info = sf.analyse(board, chess.engine.Limit(depth=depth), root_moves=[move], game=object())
    score = info.get("score")
    return centipawns(score.pov(board.turn)) if score is not None else 0
