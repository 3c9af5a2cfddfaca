"""What teachers have, read into positions with a task: a PGN file or a Lichess study export, a
text or CSV list of FENs, a Lichess puzzle CSV. ``chesskit author`` turns each into an exercise.

Nothing here judges the chess: a position, the moves the source gives, the goal it names and
the teacher's words are read as written; :mod:`chesskit.teacher.author` verifies them.

>>> [s.label for s in read_text("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1; mate in 1; Ra8#")]
['line 1']
>>> read_text("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1; mate in 1; Ra8#")[0].goal
'mate in 1'
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn

from chesskit.errors import ChessKitError
from chesskit.i18n import t

MAX_BYTES = 20_000_000
"""A source larger than this is refused whole (20 MB: thousands of exercises)."""
MAX_COMMENTS = 4_000
"""A game or chapter whose comments are longer than this (characters) is refused."""
MAX_ITEMS = 2_000
_COMMAND = re.compile(r"\[%[^\]]*\]")
_GOAL = re.compile(
    r"(?P<mate>(?:mate|checkmate)\s+in\s+(?P<n>\d)|#(?P<n2>\d)\b|(?P<n3>\d|[一二三四五])\s*步杀)"
    r"|(?P<plainmate>\b(?:checkmate|mate)\b|将死|杀)"
    r"|(?P<material>win(?:s|ning)?\s+(?:the\s+)?(?:material|a\s+piece|the\s+\w+)|得子|赢子)"
    r"|(?P<only>only\s+move|唯一)"
    r"|(?P<best>best\s+move|最佳|最好)", re.IGNORECASE)
_CHINESE_NUMBERS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5}
_COLOURS = {"green": "green", "red": "red", "yellow": "yellow", "blue": "blue"}


class SourceError(ChessKitError):
    """A source file that cannot be read at all (not text, too big, empty)."""


@dataclass(frozen=True)
class Source:
    """One position with what the source says about it.

    ``moves``: the solution as written (SAN or UCI, the first one is the answer); ``goal``: the
    goal as written ("mate in 2", "win material", "the only move", "" when none);
    ``problem``: why the entry could not be read ("" when it could).
    """

    label: str
    fen: str = ""
    moves: tuple[str, ...] = ()
    goal: str = ""
    title: str = ""
    note: str = ""
    hints: tuple[str, ...] = ()
    marks: dict[str, list[str]] = field(default_factory=dict)
    arrows: tuple[str, ...] = ()
    orientation: str = ""
    source: str = ""
    difficulty: int | None = None
    problem: str = ""


def goal_words(text: str) -> str:
    """The goal a text names, in the author's words ("mate in 2", "mate", "win material",
    "the only move", "best move"), or "".

    >>> goal_words("White to play: Mate in 2!"), goal_words("黑先，两步杀"), goal_words("Nf3")
    ('mate in 2', 'mate', '')
    """
    match = _GOAL.search(text)
    if match is None:
        return ""
    number = match["n"] or match["n2"] or match["n3"]
    if number:
        return f"mate in {_CHINESE_NUMBERS.get(number, number)}"
    if match["plainmate"]:
        return "mate"
    if match["material"]:
        return "win material"
    return "the only move" if match["only"] else "best move"


def decode(data: bytes, *, name: str) -> str:
    """The text of a source; SourceError for binary data or a file too big to be a source.

    >>> try:
    ...     decode(b"\\x00\\x01\\x02", name="x.pgn")
    ... except SourceError as error:
    ...     print(error)
    The file x.pgn is not a text file (it holds binary data).
    """
    if len(data) > MAX_BYTES:
        raise SourceError(t("author.error_too_big", name=name, mb=len(data) // 1_000_000,
                            limit=MAX_BYTES // 1_000_000))
    try:
        text = data.decode("utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            text = "\x00"
    if "\x00" in text or sum(not (c.isprintable() or c in "\r\n\t") for c in text) > max(
            8, len(text) // 100):
        raise SourceError(t("author.error_binary", name=name))
    if not text.strip():
        raise SourceError(t("author.error_empty", name=name))
    return text


def read_source(path: str | Path) -> list[Source]:
    """The entries of a source file, whatever its kind (by its contents, not its name)."""
    file = Path(path)
    text = decode(file.read_bytes(), name=file.name)
    return read_any(text)


def read_any(text: str) -> list[Source]:
    """The entries of a source's text: a puzzle CSV, a PGN or a list of positions."""
    first = text.lstrip().splitlines()[0] if text.strip() else ""
    if first.lower().startswith("puzzleid,") or first.lower().startswith("puzzleid\t"):
        return read_puzzles(text)
    if first.startswith("[") or re.match(r"\s*(\{|1\.)", text):
        return read_pgn(text)
    return read_text(text)


# ---- PGN and Lichess studies ------------------------------------------------------------------

class _Builder(chess.pgn.GameBuilder[chess.pgn.Game]):
    """python-chess's game builder, quiet: errors are kept on the game, not logged."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


def _plain(comment: str) -> str:
    """A comment without its ``[%csl ...]`` / ``[%cal ...]`` / ``[%clk ...]`` commands."""
    return " ".join(_COMMAND.sub(" ", comment).split())


def _drawn(node: chess.pgn.GameNode) -> tuple[dict[str, list[str]], tuple[str, ...]]:
    """The squares (``[%csl]``) and arrows (``[%cal]``) of a comment, in ``ck.board``'s form."""
    marks: dict[str, list[str]] = {}
    arrows = []
    for arrow in node.arrows():
        colour = _COLOURS.get(arrow.color, "green")
        if arrow.tail == arrow.head:
            marks.setdefault(colour, []).append(chess.square_name(arrow.tail))
        else:
            arrows.append(chess.square_name(arrow.tail) + chess.square_name(arrow.head)
                          + ("" if colour == "green" else f" {colour}"))
    return {k: sorted(v) for k, v in sorted(marks.items())}, tuple(arrows)


def _title(headers: chess.pgn.Headers) -> str:
    """A chapter's name (``ChapterName``; in an older study export the part of ``Event``
    after "Study name: "), else the game's ``Event``."""
    if headers.get("ChapterName"):
        return headers["ChapterName"]
    event = headers.get("Event", "")
    if "/study/" in headers.get("Site", ""):
        return event.split(": ", 1)[-1]
    return "" if event == "?" else event


def _game_source(game: chess.pgn.Game, number: int) -> Source:
    title = _title(game.headers)
    label = t("author.label_game", n=number) + (f" ({title})" if title else "")
    comments = [game.comment] + [node.comment for node in game.mainline()]
    if sum(len(c) for c in comments) > MAX_COMMENTS:
        return Source(label, problem=t("author.problem_comments", limit=MAX_COMMENTS))
    if game.errors:
        return Source(label, problem=t("author.problem_pgn", error=game.errors[0]))
    try:
        board = game.board()
    except ValueError as error:
        return Source(label, problem=t("author.problem_fen_tag", error=error))
    moves = tuple(node.san() for node in game.mainline())
    marks, arrows = _drawn(game)
    note = _plain(game.comment)
    hints = tuple(h for h in (_plain(node.comment) for node in game.mainline()) if h)[:2]
    orientation = game.headers.get("Orientation", "").lower()
    return Source(label, board.fen(), moves, goal_words(" ".join((title, note))), title, note,
                  hints, marks, arrows, orientation if orientation in ("white", "black") else "")


def read_pgn(text: str) -> list[Source]:
    """Each game or study chapter of a PGN: its start (``[FEN]`` or the initial position), its
    mainline as the solution, its first comment as the teacher's note, later comments as hints.

    >>> [s.moves for s in read_pgn('[FEN "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"]\\n\\n1. Ra8# *')]
    [('Ra8#',)]
    """
    handle = io.StringIO(text)
    found: list[Source] = []
    while len(found) < MAX_ITEMS:
        try:
            game = chess.pgn.read_game(handle, Visitor=_Builder)
        except (ValueError, RecursionError) as error:
            found.append(Source(t("author.label_game", n=len(found) + 1),
                                problem=t("author.problem_pgn", error=error)))
            break
        if game is None:
            break
        found.append(_game_source(game, len(found) + 1))
    return found


# ---- lists of positions ---------------------------------------------------------------------

def _fields(line: str) -> list[str]:
    """A line's fields: a FEN holds no ``,`` ``;`` ``|`` or tab, so they separate the rest."""
    return [part.strip().strip('"') for part in re.split(r"[;,|\t]", line)]


def _entry(parts: list[str], label: str) -> Source:
    fen, rest = parts[0], [p for p in parts[1:] if p]
    goal = next((goal_words(p) for p in rest if goal_words(p)), "")
    answers = [p for p in rest if not goal_words(p)]
    moves = tuple(answers[0].replace(".", " ").split()) if answers else ()
    moves = tuple(m for m in moves if not m.isdigit())
    note = " ".join(answers[1:])
    return Source(label, fen, moves, goal, note=note)


def read_text(text: str) -> list[Source]:
    """A list of positions, one a line: ``FEN[; goal][; answer]`` (``,``, ``;``, ``|`` or a tab
    between fields, in any order after the FEN), or a CSV with a ``fen`` column and optional
    ``goal``, ``answer`` and ``note`` columns. Blank lines and lines starting with # are skipped.
    """
    lines = [line for line in text.splitlines()]
    header = _fields(lines[0].lower()) if lines else []
    if "fen" in header:
        rows = csv.DictReader(io.StringIO(text))
        found: list[Source] = []
        for number, row in enumerate(rows, 2):
            cells = {str(k).strip().lower(): str(v or "").strip() for k, v in row.items() if k}
            label = t("author.label_line", n=number)
            goal = goal_words(cells.get("goal", ""))
            source = _entry([cells.get("fen", ""), cells.get("answer", "")], label)
            found.append(Source(label, source.fen, source.moves, goal or source.goal,
                                note=cells.get("note", "")))
        return found[:MAX_ITEMS]
    found = []
    for number, line in enumerate(lines, 1):
        if line.strip() and not line.lstrip().startswith("#"):
            found.append(_entry(_fields(line), t("author.label_line", n=number)))
    return found[:MAX_ITEMS]


# ---- Lichess puzzles ------------------------------------------------------------------------

def _puzzle(row: dict[str, str]) -> Source:
    puzzle = row.get("PuzzleId", "").strip()
    label = t("author.label_puzzle", id=puzzle)
    try:
        board = chess.Board(row["FEN"])
        moves = row["Moves"].split()
        board.push(chess.Move.from_uci(moves[0]))
    except (KeyError, IndexError, ValueError, AssertionError):
        return Source(label, problem=t("author.problem_puzzle"))
    themes = row.get("Themes", "").split()
    mate = next((f"mate in {theme[-1]}" for theme in themes if re.fullmatch(r"mateIn\d", theme)),
                "")
    try:
        rating = int(row.get("Rating", "")) if row.get("Rating") else None
    except ValueError:
        rating = None
    return Source(label, board.fen(), tuple(moves[1:]), mate, source=f"lichess:{puzzle}",
                  difficulty=rating)


def read_puzzles(text: str) -> list[Source]:
    """A Lichess puzzle CSV (``PuzzleId,FEN,Moves,Rating,...``): the FEN is before the
    opponent's move, so each task starts after ``Moves``' first move; the rest is the solution.
    """
    return [_puzzle(row) for row in _rows(text)][:MAX_ITEMS]


def _rows(text: str) -> Iterator[dict[str, str]]:
    delimiter = "\t" if "\t" in text.splitlines()[0] else ","
    yield from csv.DictReader(io.StringIO(text), delimiter=delimiter)
