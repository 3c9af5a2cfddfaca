"""A teacher's own exercises: each position of a source becomes a verified bank item, or is
refused with one sentence that says why.

The goal is worked out, never guessed: a forced mate found by exhaustive search
(:mod:`chesskit.rules.search`; Stockfish says how long to look when it is there) makes a
``move``/``mate`` item (mate in one) or a ``line`` item (mate in N); else the material the
given answer wins against every reply makes a ``move``/``win_material`` item; else a move the
engine puts far ahead of every other makes a ``move``/``best`` item. Every item is then
checked as ``chesskit check-bank`` checks the course's: the kind's own verification and the
engine's (:func:`chesskit.exercises.bank_engine.item_problems`): no accepted move is bad, and
no refused move is as good.

>>> from chesskit.teacher.author_sources import Source
>>> made = make_item(Source("line 1", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", ("Ra8#",)),
...                  engine=None)
>>> made.item["kind"], made.item["goal"], made.item["difficulty"]
('move', 'mate', 800)
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import chess
import chess.engine

from chesskit.errors import ChessKitError, EngineMissingError, PositionError
from chesskit.exercises import Exercise, bank_engine
from chesskit.i18n import t
from chesskit.rules import engine as stockfish
from chesskit.rules import search
from chesskit.rules.notation import read_move
from chesskit.rules.position import to_board
from chesskit.teacher.author_sources import Source

MAX_MATE = 3
"""The longest mate proved by exhaustive search (a mate in 4 takes minutes)."""
SEARCH_MATE = 2
"""Without Stockfish, mates are looked for up to this length unless the source names one."""
WIDE = 200
"""A ``best`` item needs its move this far (centipawns) ahead of every other."""
DIFFICULTY = {"mate": 800, "line": 1200, "win_material": 1100, "best": 1400}
"""A difficulty (Elo-like) by goal when the source gives no rating; 300 more a move of mate."""
Scores = dict[str, int]


class AuthorError(ChessKitError):
    """A source that gives no exercise at all, or an output that cannot be written."""


@dataclass(frozen=True)
class Made:
    """One entry of a source: the bank item built (``item``, without its id) or the reason it
    was refused (``refused``); ``note`` says what the teacher should know (the source said
    mate in 3, it is a mate in 2)."""

    label: str
    item: dict[str, Any] | None = None
    refused: str = ""
    note: str = ""
    source: Source | None = field(default=None, compare=False, repr=False)


class _Refused(Exception):
    """Raised inside :func:`make_item` with the locale key and fields of the reason."""

    def __init__(self, key: str, **fields: object) -> None:
        super().__init__(key)
        self.key = key
        self.fields: dict[str, Any] = fields


def _position(src: Source) -> chess.Board:
    """The source's position, or _Refused naming what makes it illegal (a game position: both
    kings, the side to move not giving check ...)."""
    try:
        board = to_board(src.fen, allow_drill=False)
    except PositionError as error:
        raise _Refused("illegal", why=str(error)) from None
    if board.is_game_over():
        raise _Refused("game_over")
    return board


def _line(board: chess.Board, moves: Sequence[str]) -> list[chess.Move]:
    """The source's solution as moves (each legal in turn), or _Refused naming the first bad one."""
    played = board.copy()
    line = []
    for text in moves:
        try:
            move = read_move(played, text)
        except ChessKitError:
            raise _Refused("bad_answer", move=text) from None
        line.append(move)
        played.push(move)
    return line


def _analyse(sf: chess.engine.SimpleEngine | None, board: chess.Board) -> Scores | None:
    """The engine's scores of the ``bank_engine.TOP`` best moves, as check-bank gets them."""
    if sf is None:
        return None
    found = stockfish.analyse_moves(sf, board, depth=bank_engine.DEPTH, count=bank_engine.TOP)
    return {m.uci(): s for m, s in found.items()}


def _complete(sf: chess.engine.SimpleEngine | None, board: chess.Board, scores: Scores,
              moves: Sequence[str]) -> Scores:
    """``scores`` with each of ``moves`` (UCI) they lack searched alone (as check-bank does)."""
    full = dict(scores)
    for uci in moves:
        if uci not in full and sf is not None:
            full[uci] = stockfish.score_move(sf, board, chess.Move.from_uci(uci),
                                             depth=bank_engine.DEPTH)
    return full


def _wanted_mate(goal: str) -> int | None:
    """The N of "mate in N" (0 for a plain "mate"), None when the source names no mate."""
    if goal.startswith("mate in "):
        return int(goal.removeprefix("mate in "))
    return 0 if goal == "mate" else None


def _mate_length(board: chess.Board, scores: Scores | None, wanted: int | None) -> int | None:
    """The shortest forced mate, proved by exhaustive search, or None. With the engine, its
    score says how long to look; without it, up to :data:`SEARCH_MATE` (or the source's N)."""
    if scores:
        best = max(scores.values())
        if not bank_engine.is_mate(best):
            return None
        length = (stockfish.MATE - best + 1) // 2
        if length > MAX_MATE:
            return None
        return search.shortest_mate(board, limit=length)
    limit = min(MAX_MATE, max(SEARCH_MATE, wanted or 0))
    return search.shortest_mate(board, limit=limit)


def _san(board: chess.Board, move: chess.Move | str) -> str:
    return board.san(chess.Move.from_uci(move) if isinstance(move, str) else move)


def _mate_item(board: chess.Board, length: int, answer: chess.Move | None) -> dict[str, Any]:
    if length == 1:
        item: dict[str, Any] = {"kind": "move", "goal": "mate", "topic": "mate"}
        good = list(search.mate_in(board, 1))
    else:
        item = {"kind": "line", "mate_in": length, "topic": "mate"}
        good = search.mate_in(board, length)
    if answer is not None and answer not in good:
        raise _Refused("answer_not_mate", move=_san(board, answer), n=length,
                       best=_san(board, good[0]))
    return item


def _not_forced(board: chess.Board, answer: chess.Move | None, wanted: int) -> _Refused:
    """The refusal of a mate the source names that is not forced."""
    n = wanted or MAX_MATE
    if answer is None:
        return _Refused("no_mate", n=n)
    reply = search.refutation(board, answer, n)
    if reply is None:
        return _Refused("no_mate", n=n)
    after = board.copy()
    after.push(answer)
    return _Refused("not_forced", move=_san(board, answer), n=n, reply=after.san(reply))


def _material_item(board: chess.Board, answer: chess.Move | None) -> dict[str, Any] | None:
    """A win_material item for what the given answer wins (at least a pawn), else None."""
    if answer is None:
        return None
    gain = search.material_gain(board, answer, depth=2)
    if gain < 1 or gain >= search.MATE_SCORE:
        return None
    return {"kind": "move", "goal": "win_material", "gain": gain, "topic": "material"}


def _best_item(board: chess.Board, scores: Scores, answer: chess.Move | None
               ) -> dict[str, Any]:
    """A best-move item when one move is :data:`WIDE` ahead of every other (the answer, when
    the source gives one); else _Refused saying what the engine found."""
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    top_uci, top = ranked[0]
    if answer is not None and answer.uci() != top_uci:
        mine = scores.get(answer.uci())
        if mine is not None and (top - mine <= bank_engine.EQUAL or mine >= bank_engine.WIN):
            raise _Refused("two_answers", move=_san(board, answer), other=_san(board, top_uci),
                           score=bank_engine.describe(top))
        raise _Refused("engine_prefers", move=_san(board, answer), best=_san(board, top_uci),
                       score=bank_engine.describe(top))
    second_uci, second = ranked[1] if len(ranked) > 1 else (top_uci, -stockfish.MATE)
    if len(ranked) > 1 and top - second < WIDE:
        if top < bank_engine.WIN:
            raise _Refused("no_win", best=_san(board, top_uci), score=bank_engine.describe(top))
        raise _Refused("two_answers", move=_san(board, top_uci), other=_san(board, second_uci),
                       score=bank_engine.describe(second))
    return {"kind": "move", "goal": "best", "answers": [_san(board, top_uci)], "topic": "best"}


def _exercise(item: Mapping[str, Any], fen: str) -> Exercise:
    common = ("kind", "goal", "topic")
    return Exercise(id="check", lesson=99, kind=item["kind"], goal=item.get("goal", ""),
                    fen=fen, topic=item["topic"], difficulty=0,
                    data={k: v for k, v in item.items() if k not in common})


def _problems(item: Mapping[str, Any], board: chess.Board, sf: chess.engine.SimpleEngine | None,
              scores: Scores | None) -> list[str]:
    """What check-bank would say of the item: its kind's verification, then the engine's."""
    ex = _exercise(item, board.fen())
    found = [message for _, message in ex.spec.verify(ex)]
    if found or scores is None:
        return found
    accepted = [board.parse_san(san).uci() for san in ex.solutions()]
    full = _complete(sf, board, scores, accepted)
    return bank_engine.item_problems(ex, full, label="Stockfish")


def _goal_item(board: chess.Board, src: Source, sf: chess.engine.SimpleEngine | None,
               ) -> tuple[dict[str, Any], str]:
    """The item that fits the position (fields without id) and a note for the teacher."""
    line = _line(board, src.moves)
    answer = line[0] if line else None
    wanted = _wanted_mate(src.goal)
    scores = _analyse(sf, board)
    length = _mate_length(board, scores, wanted)
    if length is not None:
        item = _mate_item(board, length, answer)
        note = t("author.note_mate_length", said=src.goal, n=length) if wanted and (
            wanted != length) else ""
        problems = _problems(item, board, sf, scores)
        if problems:
            raise _Refused("engine", why=problems[0])
        return item, note
    if wanted is not None:
        raise _not_forced(board, answer, wanted)
    tried: list[str] = []
    material = _material_item(board, answer)
    if material is not None:
        tried = _problems(material, board, sf, scores)
        if not tried:
            note = "" if scores is not None else t("author.note_no_engine")
            return material, note
    if scores is None:
        raise _Refused("needs_engine")
    scores = _complete(sf, board, scores, [answer.uci()] if answer else [])
    best = _best_item(board, scores, answer)
    problems = _problems(best, board, sf, scores)
    if problems:
        raise _Refused("engine", why=(tried or problems)[0])
    return best, ""


def make_item(src: Source, *, engine: chess.engine.SimpleEngine | None) -> Made:
    """The verified item for one entry of a source, or the reason it cannot be one."""
    if src.problem:
        return Made(src.label, refused=src.problem, source=src)
    try:
        board = _position(src)
        item, note = _goal_item(board, src, engine)
    except _Refused as refusal:
        reason = t(f"author.refuse_{refusal.key}", lang=None, **refusal.fields)
        return Made(src.label, refused=reason,
                    source=src)
    guess = DIFFICULTY[item.get("goal") or "line"] + 300 * (int(item.get("mate_in", 2)) - 2)
    item = {**item, "fen": board.fen(), "difficulty": src.difficulty or guess}
    return Made(src.label, item, note=note, source=src)


@contextlib.contextmanager
def maybe_engine(wanted: bool = True) -> Iterator[chess.engine.SimpleEngine | None]:
    """Stockfish for a batch when it is wanted and installed, else None."""
    if not wanted or not stockfish.available():
        yield None
        return
    try:
        with stockfish.open_engine() as sf:
            yield sf
    except EngineMissingError:
        yield None


def make_items(sources: Sequence[Source], *, use_engine: bool = True) -> list[Made]:
    """Every entry of a source made into an item or refused, in the source's order; the same
    position twice is refused the second time."""
    made: list[Made] = []
    seen: dict[str, str] = {}
    with maybe_engine(use_engine) as sf:
        for src in sources:
            result = make_item(src, engine=sf)
            if result.item is not None:
                key = " ".join(str(result.item["fen"]).split()[:4])
                if key in seen:
                    result = Made(src.label, refused=t("author.refuse_twice", other=seen[key]),
                                  source=src)
                else:
                    seen[key] = src.label
            made.append(result)
    return made
