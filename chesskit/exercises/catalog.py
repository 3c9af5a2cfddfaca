"""The exercise bank: ``chesskit/bank/LL-slug.toml`` files, loaded once and verified.

>>> exercise("07.01").kind
'move'
>>> lessons()[0].lesson >= 0
True
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import functools
import logging
import pathlib
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, NamedTuple, cast

import chess

from chesskit.errors import BankError, ChessKitError
from chesskit.exercises import Exercise, Goal, KindName, bank_engine
from chesskit.i18n import t

logger = logging.getLogger("chesskit.exercises")
_COMMON = ("id", "kind", "goal", "fen", "topic", "difficulty", "prompt", "hints", "source",
           "last_move")
_REQUIRED = ("id", "kind", "topic", "difficulty")
_ID = re.compile(r"(\d\d)\.(\d\d)")


class LessonInfo(NamedTuple):
    """One lesson of the bank: number, slug and ``{"en", "zh"}`` title."""

    lesson: int
    slug: str
    title: Mapping[str, str]


@dataclass(frozen=True)
class Problem:
    """One broken thing in the bank, printed as
    ``bank/07-castling.toml: item 07.03: field fen: ...``.
    """

    file: str
    item: str
    field: str
    message: str

    def __str__(self) -> str:
        where = [self.file] + ([f"item {self.item}"] if self.item else [])
        where += [f"field {self.field}"] if self.field else []
        return ": ".join([*where, self.message])


@dataclass(frozen=True)
class _File:
    info: LessonInfo | None
    items: tuple[Exercise, ...]
    problems: tuple[Problem, ...]


def bank_dir() -> pathlib.Path:
    """The folder of the packaged bank files."""
    return pathlib.Path(str(resources.files("chesskit") / "bank"))


def _label(path: pathlib.Path) -> str:
    return f"{path.parent.name}/{path.name}"


def _exercise(raw: Mapping[str, Any], lesson: int) -> Exercise:
    hints = raw.get("hints", ())
    prompt = raw.get("prompt")
    if not isinstance(hints, list | tuple) or (prompt is not None and not isinstance(
            prompt, str | dict)):
        raise BankError("field hints: hints are a list of {en, zh} and prompt one {en, zh}")
    try:
        difficulty = int(raw["difficulty"])
    except (TypeError, ValueError):
        raise BankError("field difficulty: a whole number such as 800") from None
    return Exercise(
        # kind and goal are checked against the registry by Exercise itself
        id=str(raw["id"]), lesson=lesson, kind=cast(KindName, str(raw["kind"])),
        goal=cast(Goal, str(raw.get("goal", ""))),
        fen=str(raw.get("fen", "")), topic=str(raw["topic"]), difficulty=difficulty,
        prompt=prompt if isinstance(prompt, dict) else ({"en": prompt} if prompt else None),
        hints=tuple(hints), source=str(raw.get("source", "")),
        last_move=str(raw.get("last_move", "")),
        data={k: v for k, v in raw.items() if k not in _COMMON})


def _item_problems(raw: Mapping[str, Any], lesson: int) -> list[tuple[str, str]]:
    missing = [(name, "this field is missing") for name in _REQUIRED if name not in raw]
    if missing:
        return missing
    match = _ID.fullmatch(str(raw["id"]))
    if match is None:
        return [("id", "an id looks like \"07.03\" (lesson, then item)")]
    if int(match[1]) != lesson:
        return [("id", f"the id belongs to lesson {int(match[1])}, but this file is lesson "
                       f"{lesson}")]
    return []


def _fen_problem(ex: Exercise) -> str | None:
    if not ex.fen:
        return None
    try:
        ex.board()
    except (ChessKitError, ValueError) as error:
        return str(error)
    return None


def _parse(path: pathlib.Path) -> _File:
    label = _label(path)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        return _File(None, (), (Problem(label, "", "", f"cannot read the file: {error}"),))
    problems: list[Problem] = []
    for name in ("lesson", "slug", "title"):
        if name not in doc:
            problems.append(Problem(label, "", name, "this field is missing"))
    if problems:
        return _File(None, (), tuple(problems))
    info = LessonInfo(int(doc["lesson"]), str(doc["slug"]), doc["title"])
    if re.match(r"\d\d-", path.stem) and path.stem != f"{info.lesson:02d}-{info.slug}":
        problems.append(Problem(label, "", "slug", f"the file should be named "
                                                   f"{info.lesson:02d}-{info.slug}.toml"))
    items: list[Exercise] = []
    seen: set[str] = set()
    for index, raw in enumerate(doc.get("item", [])):
        item = str(raw.get("id", f"#{index + 1}"))
        found = _item_problems(raw, info.lesson)
        if not found and item in seen:
            found = [("id", "this id is used twice")]
        if not found:
            ex, found = _built(raw, info.lesson)
            items += [ex] if ex is not None else []
        seen.add(item)
        problems += [Problem(label, item, field, message) for field, message in found]
    return _File(info, tuple(items), tuple(problems))


def _built(raw: Mapping[str, Any], lesson: int) -> tuple[Exercise | None, list[tuple[str, str]]]:
    """An item of a bank or set file as an Exercise, or None with its (field, problem) pairs."""
    try:
        ex = _exercise(raw, lesson)
    except BankError as error:
        field, _, message = str(error).removeprefix("field ").partition(": ")
        return None, [(field, message)]
    fen = _fen_problem(ex)
    return (None, [("fen", fen)]) if fen else (ex, [])


@functools.cache
def _load(path: pathlib.Path) -> _File:
    return _parse(path)


def _paths() -> list[pathlib.Path]:
    return sorted(bank_dir().glob("[0-9][0-9]-*.toml"))


def _loaded(path: pathlib.Path) -> _File:
    """A file's contents; BankError naming file, item and field when it is broken."""
    parsed = _load(path)
    if parsed.problems:
        raise BankError(str(parsed.problems[0]))
    return parsed


@functools.lru_cache(maxsize=1)
def _index() -> dict[str, Exercise]:
    index: dict[str, Exercise] = {}
    for path in _paths():
        parsed = _load(path)
        if parsed.problems:
            continue  # a broken file must not take the rest of the course down; check-bank names it
        for ex in parsed.items:
            if ex.id in index:
                raise BankError(f"{_label(path)}: item {ex.id}: field id: this id is used twice")
            index[ex.id] = ex
    return dict(sorted(index.items()))


def exercise(exercise_id: str, *, review: bool = False) -> Exercise:
    """The exercise with this id ("12.07"); BankError if there is none.

    With ``review=True`` its task does not name the idea (mixed review: "Find the best move.").

    >>> exercise("07.01").lesson
    7
    """
    index = _index()
    key = str(exercise_id).strip()
    if key in _SETS:  # a teacher's own set, loaded by load_bank_file (chesskit author)
        return _SETS[key]
    if key not in index:
        raise BankError(f"There is no exercise {key!r} in the bank; ids look like \"07.03\".")
    return dataclasses.replace(index[key], review=True) if review else index[key]


def bank(*, lesson: int | None = None, topic: str | None = None,
         kind: str | None = None) -> Iterator[Exercise]:
    """The exercises of the bank sorted by id, optionally of one lesson, topic or kind.

    >>> all(ex.kind == "move" for ex in bank(lesson=7, kind="move"))
    True
    """
    for ex in _index().values():
        if ((lesson is None or ex.lesson == lesson) and (topic is None or ex.topic == topic)
                and (kind is None or ex.kind == kind)):
            yield ex


def matching(*, lesson: int | None = None, topic: str | None = None,
             lang: str | None = None) -> list[Exercise]:
    """The exercises of a lesson and/or topic, by id; a BankError naming what exists if none.

    >>> [ex.id for ex in matching(lesson=7)][:2]
    ['07.01', '07.02']
    """
    found = list(bank(lesson=lesson, topic=topic))
    if found:
        return found
    numbers = [info.lesson for info in lessons()]
    if lesson is not None and lesson not in numbers:
        raise BankError(t("catalog.unknown_lesson", lang=lang, lesson=lesson,
                          first=numbers[0], last=numbers[-1]))
    topics = sorted({ex.topic for ex in bank(lesson=lesson)})
    raise BankError(t("catalog.unknown_topic", lang=lang, topic=topic, topics=", ".join(topics)))


def lessons() -> list[LessonInfo]:
    """The lessons that have a bank file, in order."""
    infos = [_loaded(path).info for path in _paths()]
    return sorted(info for info in infos if info is not None)


# ---- verification ------------------------------------------------------------------------------

LICHESS_FILES = ("lichess-puzzles-sample.csv", "lichess-puzzles-tactics.csv")
"""The packaged Lichess puzzles (CC0, ``chesskit/data/NOTICE.md``) a bank item may come from."""


@functools.lru_cache(maxsize=1)
def _lichess() -> dict[str, tuple[str, str, bool]]:
    """PuzzleId -> the FEN after the puzzle's first move, that move (UCI) and whether it took a
    piece, for :data:`LICHESS_FILES`."""
    puzzles: dict[str, tuple[str, str, bool]] = {}
    for name in LICHESS_FILES:
        path = pathlib.Path(str(resources.files("chesskit") / "data" / name))
        if not path.exists():
            continue
        with path.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                board = chess.Board(row["FEN"])
                first = chess.Move.from_uci(row["Moves"].split()[0])
                took = board.is_capture(first)
                board.push(first)
                puzzles[row["PuzzleId"]] = board.fen(), first.uci(), took
    return puzzles


def _verify(ex: Exercise) -> list[tuple[str, str]]:
    """(field, problem) pairs for one exercise: its kind's verification, its last move, then
    its source."""
    problems = ex.spec.verify(ex) + _last_move_problems(ex)
    if ex.source.startswith("lichess:"):
        problems += _lichess_problems(ex)
    return problems


def _last_move_problems(ex: Exercise) -> list[tuple[str, str]]:
    """``last_move`` is a capture that could have led to the position: the piece on its
    to-square belongs to the side not to move and could have come from its from-square (now
    empty) taking something there.

    >>> from chesskit.exercises.model import Exercise
    >>> ex = Exercise(id="x", lesson=32, kind="move", goal="capture", last_move="e3f5",
    ...               fen="4k3/8/8/5P2/8/8/8/4K3 b - - 0 1")
    >>> _last_move_problems(ex)
    [('last_move', 'the pawn on f5 cannot have come from e3')]
    """
    if not ex.last_move:
        return []
    try:
        move = chess.Move.from_uci(ex.last_move)
    except ValueError:
        return [("last_move", f"{ex.last_move!r} is not a move in UCI such as \"e3f4\"")]
    board = ex.board()
    piece = board.piece_at(move.to_square)
    if piece is None or piece.color == board.turn or move.drop:
        return [("last_move", f"no piece of the side not to move stands on "
                              f"{chess.square_name(move.to_square)}")]
    earlier = board.copy(stack=False)
    earlier.turn = piece.color
    earlier.set_piece_at(move.from_square, chess.Piece(
        chess.PAWN if move.promotion else piece.piece_type, piece.color))
    earlier.set_piece_at(move.to_square, chess.Piece(chess.KNIGHT, not piece.color))
    if board.piece_at(move.from_square) is not None or not earlier.is_pseudo_legal(move):
        return [("last_move", f"the {chess.piece_name(piece.piece_type)} on "
                              f"{chess.square_name(move.to_square)} cannot have come from "
                              f"{chess.square_name(move.from_square)}")]
    return []


def _lichess_problems(ex: Exercise) -> list[tuple[str, str]]:
    puzzles = _lichess()
    if not puzzles:
        return []
    puzzle = ex.source.removeprefix("lichess:")
    if puzzle not in puzzles:
        return [("source", f"puzzle {puzzle} is not in the packaged Lichess puzzles")]
    fen, first, took = puzzles[puzzle]
    if chess.Board(ex.fen).fen() != fen:
        return [("fen", f"differs from the Lichess position after the first move: {fen}")]
    if ex.last_move and (ex.last_move != first or not took):
        return [("last_move", f"the puzzle's first move {first} is not it, or took nothing")]
    return []


def _task(ex: Exercise) -> tuple[object, ...]:
    data = tuple(sorted((k, repr(v)) for k, v in ex.data.items() if k != "generated"))
    return (ex.kind, ex.goal, " ".join(ex.fen.split(" ")[:4]), data, repr(ex.prompt))


def check_bank(paths: Iterable[str | pathlib.Path] | None = None) -> list[Problem]:
    """Every problem of the bank files (all of them by default), one Problem each.

    >>> check_bank([bank_dir() / "07-castling.toml"])
    []
    """
    files = [pathlib.Path(p) for p in paths] if paths is not None else _paths()
    problems: list[Problem] = []
    owners: dict[str, str] = {}
    items: list[Exercise] = []
    for path in files:
        parsed = _parse_set(path) if is_set_file(path) else _parse(path)
        label = _label(path)
        problems += parsed.problems
        items += parsed.items
        tasks: dict[tuple[object, ...], str] = {}
        for ex in parsed.items:
            if ex.id in owners:
                problems.append(Problem(label, ex.id, "id", f"also used in {owners[ex.id]}"))
            owners[ex.id] = label
            task = _task(ex)
            if task in tasks:
                problems.append(Problem(label, ex.id, "kind", f"the same task as {tasks[task]}"))
            tasks[task] = ex.id
            try:
                found = _verify(ex)
            except (ChessKitError, ValueError) as error:  # what a field's value can cause
                found = [("kind", f"cannot be checked: {error}")]
            except Exception as error:  # a bug in the kind: logged, reported for this item
                logger.exception("verifying %s (kind %s) failed", ex.id, ex.kind)
                found = [("kind", f"cannot be checked (a bug: {type(error).__name__}: {error})")]
            problems += [Problem(label, ex.id, field, message) for field, message in found]
    packaged = all(path.parent == bank_dir() for path in files)
    problems += [Problem(owners[item], item, field, message) for item, field, message in
                 bank_engine.verify(items, write=packaged, prune=sorted(files) == _paths())]
    return problems


def count_items(paths: Iterable[pathlib.Path]) -> int:
    """How many items the files hold (broken ones included)."""
    total = 0
    for path in paths:
        try:
            total += len(tomllib.loads(path.read_text(encoding="utf-8")).get("item", []))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
    return total


def check_bank_main(argv: list[str]) -> int:
    """``chesskit check-bank [--file PATH ...]``: print each problem and a summary; 1 if any."""
    parser = argparse.ArgumentParser(prog="chesskit check-bank",
                                     description="Verify every exercise of the bank.")
    parser.add_argument("--file", action="append", type=pathlib.Path, default=None,
                        metavar="PATH", help="check only this bank file (repeatable)")
    args = parser.parse_args(argv)
    paths = args.file if args.file else _paths()
    problems = check_bank(paths)
    for problem in problems:
        print(problem)
    print(f"{count_items(paths)} items checked, {len(problems)} problems")
    return 1 if problems else 0


# ---- a teacher's own bank file (``chesskit author``), outside the course's bank ---------------

SET_LESSON = 99
"""The lesson number of a teacher's own items (no course lesson has it)."""
_SET_ID = re.compile(r"[a-z][a-z0-9-]*\.\d{2,4}")
_SETS: dict[str, Exercise] = {}


def is_set_file(path: pathlib.Path) -> bool:
    """True for a teacher's own bank file: it names its ``set`` instead of a ``lesson``."""
    try:
        return "set" in tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False


def _parse_set(path: pathlib.Path) -> _File:
    """A set file: ``set = "club"``, ``title``, items with ids ``club.01``."""
    label = _label(path)
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    name = str(doc["set"])
    if not re.fullmatch(r"[a-z][a-z0-9-]*", name):  # never a lesson's "07": ids stay apart
        return _File(None, (), (Problem(label, "", "set", "a set name is a lowercase letter, "
                                                          "then letters, digits and dashes"),))
    items: list[Exercise] = []
    problems: list[Problem] = []
    for index, raw in enumerate(doc.get("item", [])):
        item = str(raw.get("id", f"#{index + 1}"))
        found = [(field, "this field is missing") for field in _REQUIRED if field not in raw]
        if not found and (not _SET_ID.fullmatch(item) or not item.startswith(f"{name}.")):
            found = [("id", f"an id of this set looks like \"{name}.01\"")]
        if not found and any(ex.id == item for ex in items):
            found = [("id", "this id is used twice")]
        if not found:
            ex, found = _built(raw, SET_LESSON)
            items += [ex] if ex is not None else []
        problems += [Problem(label, item, field, message) for field, message in found]
    info = LessonInfo(SET_LESSON, name, doc.get("title", {"en": name}))
    return _File(info, tuple(items), tuple(problems))


def load_bank_file(path: str | pathlib.Path) -> list[Exercise]:
    """Make the items of a teacher's own bank file known to :func:`exercise` (notebooks, the
    grader); BankError naming the first problem when the file is broken.

    A set's items are not part of the course: ``bank()``, ``lessons()`` and progress skip them.
    """
    file = pathlib.Path(path)
    if not file.is_file():
        raise BankError(f"There is no bank file {file}: keep it beside the notebook.")
    if not is_set_file(file):
        raise BankError(f"{file} is not a bank file made by chesskit author (no set = ...).")
    parsed = _parse_set(file)
    if parsed.problems:
        raise BankError(str(parsed.problems[0]))
    _SETS.update((ex.id, ex) for ex in parsed.items)
    return list(parsed.items)


def is_set_loaded(name: str) -> bool:
    """True when items of the set ``name`` were loaded in this process."""
    return any(key.startswith(f"{name}.") for key in _SETS)
