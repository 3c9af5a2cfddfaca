"""What a class is graded on: defined by the teacher, never by what students wrote.

An assignment is a list of parts (a notebook each: a lesson's exercise notebook or a homework
notebook) with the exercise ids of that part, points per item and an optional due date.  By
default each lesson's exercise notebook (``07-castling.ipynb``, in any language) is its own
part, holding the items its built notebook holds; ``chesskit grade --assignment FILE`` reads a
small TOML file instead (see :func:`parse_assignment`).

>>> a = parse_assignment('ids = ["01.01"]\\npoints = 2\\nnotebook = "hw.ipynb"')
>>> a.parts[0].name, a.points_for("01.01")
('hw', 2.0)
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import math
import os
import re
import stat
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from chesskit.course import lessons
from chesskit.errors import BankError, GradingError
from chesskit.exercises import catalog
from chesskit.i18n import t


@dataclass(frozen=True)
class Part:
    """One notebook of an assignment: its file name without ``.ipynb`` and its exercise ids."""

    name: str
    ids: tuple[str, ...]
    lesson: int | None = None


@dataclass(frozen=True)
class Assignment:
    """The parts, points and due time (a UNIX time, or None) a class is graded on."""

    parts: tuple[Part, ...]
    title: str = ""
    points: Mapping[str, float] = field(default_factory=dict)
    default_points: float = 1.0
    due: float | None = None
    opens: float | None = None  # when it was handed out: a saved time before it is not trusted
    source: str = ""  # the TOML text; "" for the default (lesson notebooks)
    pass_share: float | None = None  # ``pass = 0.8``: the share of the points that passes

    def passed(self, points: float) -> bool | None:
        """Whether ``points`` pass (None when the assignment sets no pass mark).

        >>> Assignment((Part("hw", ("01.01", "01.02")),), pass_share=0.5).passed(1)
        True
        """
        if self.pass_share is None:
            return None
        out_of = sum(self.points_for(i) for i in self.ids())
        return points >= self.pass_share * out_of - 1e-9

    def points_for(self, exercise_id: str) -> float:
        """The points one item is worth."""
        return float(self.points.get(exercise_id, self.default_points))

    def ids(self) -> list[str]:
        """Every item once, in part order."""
        return list(dict.fromkeys(i for part in self.parts for i in part.ids))

    def part_of(self, file_name: str) -> Part | None:
        """The part a handed-in file is, by its name (``07-castling (1).ipynb`` is 07-castling).

        A browser-course download keeps its folders in its name, with any prefix
        (``exercises_en_07-castling.ipynb``): that is the lesson's notebook too.

        >>> Assignment((Part("07-castling", ()),)).part_of("07-Castling (1).ipynb").name
        '07-castling'
        >>> Assignment((Part("07-castling", ()),)).part_of("exercises_en_07-castling.ipynb").name
        '07-castling'
        """
        stem = Path(file_name).name.lower().removesuffix(".ipynb")
        download = _DOWNLOAD.fullmatch(stem)
        stems = (stem, download["lesson"]) if download else (stem,)
        return next((p for p in self.parts for s in stems if s.startswith(p.name.lower())),
                    None)


_DOWNLOAD = re.compile(r"[\w.-]*_(?P<lesson>\d\d-[^_]+)")


def _lesson_ids(number: int, slug: str) -> tuple[str, ...]:
    """The items the built exercise notebook of a lesson holds: from its lesson source in the
    course folder this package sits in (a checkout), else the lesson's own bank items."""
    with contextlib.suppress(lessons.LessonSourceError):
        root = lessons.course_root(Path(__file__).parent)
        for path in lessons.lesson_sources(root):
            if path.stem == f"{number:02d}-{slug}":
                own, review = lessons.exercise_ids(lessons.read_lesson(path))
                return tuple(own + review)
    return tuple(lessons.own_exercise_ids(number))


@functools.lru_cache(maxsize=4)
def _lesson_parts(bank_key: object) -> tuple[Part, ...]:

    del bank_key  # only keys the cache: another bank (a test's) has other parts
    return tuple(Part(f"{info.lesson:02d}-{info.slug}", _lesson_ids(info.lesson, info.slug),
                      info.lesson) for info in catalog.lessons())


def lesson_parts() -> tuple[Part, ...]:
    """Every lesson's exercise notebook as a part (``01-mate`` with its items)."""

    return _lesson_parts(catalog.bank_dir())


def course_default() -> Assignment:
    """The default assignment: every lesson's exercise notebook, one point per item."""
    return Assignment(lesson_parts())


MAX_POINTS = 1000.0  # points one item may be worth
MAX_FILE = 256 * 1024  # bytes of an assignment file
MAX_TEXT = 200  # characters of a title or notebook name
KEYS = ("title", "notebook", "ids", "lessons", "points", "points_for", "due", "opens", "pass",
        "bank")
_YEARS = (1971, 2999)


def _time(value: object, *, field: str) -> float | None:
    """A TOML date (the end of that day), datetime (local time unless it has an offset) or
    ISO text, as a UNIX time; GradingError for anything else or a year out of range."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value) if "T" in value or ":" in value \
                else dt.date.fromisoformat(value)
        except ValueError:
            raise GradingError(t("grading.bad_due", value=value, field=field)) from None
    if isinstance(value, dt.date) and _YEARS[0] <= value.year <= _YEARS[1]:
        if not isinstance(value, dt.datetime):
            value = dt.datetime.combine(value, dt.time(23, 59, 59))
        with contextlib.suppress(OverflowError, OSError, ValueError):
            return value.timestamp()
    raise GradingError(t("grading.bad_due", value=str(value)[:40], field=field))


def _known(ids: Iterable[object]) -> tuple[str, ...]:

    out = []
    for raw in ids:
        if not isinstance(raw, str):
            raise _wrong_type("ids", "text")
        try:
            out.append(catalog.exercise(raw.strip()).id)
        except BankError:
            raise GradingError(t("grading.assignment_unknown_id", id=raw[:40])) from None
    return tuple(dict.fromkeys(out))


def _wrong_type(field: str, want: str) -> GradingError:
    return GradingError(t("grading.assignment_type", field=field, want=t(f"grading.want_{want}")))


def _number(value: object, *, field: str, top: float) -> float:
    """A finite number from 0 to ``top``; GradingError names the key otherwise."""
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not math.isfinite(value) or not 0 <= value <= top:
        raise GradingError(t("grading.assignment_number", field=field, top=f"{top:g}"))
    return float(value)


def _text(doc: Mapping[str, object], field: str) -> str:
    value = doc.get(field, "")
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise _wrong_type(field, "text")
    return value


def _list(doc: Mapping[str, object], field: str) -> list[object]:
    value = doc.get(field, [])
    if not isinstance(value, list):
        raise _wrong_type(field, "list")
    return value


def _weights(doc: Mapping[str, object]) -> dict[str, float]:
    """``[points_for]``: exercise id -> points; one id written two ways is an error."""
    weights = doc.get("points_for", {})
    if not isinstance(weights, Mapping):
        raise _wrong_type("points_for", "table")
    points: dict[str, float] = {}
    for raw, value in weights.items():
        (exercise_id,) = _known([raw])
        if exercise_id in points:
            raise GradingError(t("grading.assignment_twice", id=exercise_id))
        points[exercise_id] = _number(value, field=f"points_for.{raw.strip()}", top=MAX_POINTS)
    return points


def parse_assignment(text: str, *, folder: Path | None = None) -> Assignment:
    """An assignment from TOML text; GradingError names what is wrong (nothing is graded
    until every key is right).

    Keys (all optional but one of ``ids`` / ``lessons``)::

        title = "Forks"
        notebook = "homework-fork.ipynb"   # the file students hand in for ``ids``
        ids = ["02.01", "02.02"]
        lessons = [7, 8]                   # lesson exercise notebooks, their items
        points = 1                         # per item, 0 to 1000
        due = 2026-03-09T08:00:00          # a date, a local time or a time with offset
        opens = 2026-03-02                 # handed out: a saved time before it is not trusted
        pass = 0.8                         # the share of the points that passes, 0 to 1
        bank = "forks.toml"                # a teacher's own set (chesskit author), beside it
        [points_for]
        "02.01" = 2
    """
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE:
        raise GradingError(t("grading.assignment_too_big", limit=MAX_FILE // 1024))
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise GradingError(t("grading.assignment_broken", error=error)) from None
    except (RecursionError, MemoryError):
        raise GradingError(t("grading.assignment_broken", error="nested too deep")) from None
    unknown = sorted(set(doc) - set(KEYS))
    if unknown:
        raise GradingError(t("grading.assignment_unknown_key", field=unknown[0][:40],
                             keys=", ".join(KEYS)))
    if _text(doc, "bank"):  # a teacher's own set (chesskit author): beside the assignment file
        _load_set(Path(folder or ".") / _text(doc, "bank"))
    by_lesson = {p.lesson: p for p in lesson_parts()}
    parts = []
    for number in _list(doc, "lessons"):
        if isinstance(number, bool) or not isinstance(number, int) or number not in by_lesson:
            raise GradingError(t("grading.assignment_unknown_lesson", lesson=str(number)[:40]))
        parts.append(by_lesson[number])
    ids = _list(doc, "ids")
    name = _text(doc, "notebook") or _text(doc, "title") or "homework"
    if ids:
        parts.append(Part(re.sub(r"\.ipynb$", "", Path(name).name, flags=re.I) or "homework",
                          _known(ids)))
    if not parts:
        raise GradingError(t("grading.assignment_empty"))
    points = _weights(doc)
    default = _number(doc.get("points", 1), field="points", top=MAX_POINTS)
    passing = doc.get("pass")
    return Assignment(tuple(parts), _text(doc, "title"), points, default,
                      _time(doc.get("due"), field="due"), _time(doc.get("opens"), field="opens"),
                      source=text, pass_share=None if passing is None
                      else _number(passing, field="pass", top=1.0))


def read_assignment(path: str | Path) -> Assignment:
    """The assignment file at ``path``: a regular file (never a pipe or a device) of at most
    MAX_FILE bytes."""
    try:
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
        descriptor = os.open(path, flags)
        with os.fdopen(descriptor, "rb") as stream:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                raise GradingError(t("grading.assignment_unreadable", path=path,
                                     error=t("grading.not_regular")))
            data = stream.read(MAX_FILE + 1)
        text = data.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise GradingError(t("grading.assignment_unreadable", path=path, error=error)) from None
    return parse_assignment(text, folder=Path(path).parent)


def _load_set(path: Path) -> None:
    """Make a set's items known to the grader; a set loaded before (the same run) may be gone."""

    try:
        catalog.load_bank_file(path)
    except (BankError, OSError) as error:
        if not path.exists() and catalog.is_set_loaded(path.stem):
            return
        raise GradingError(str(error)) from None


def assignment_toml(*, ids: Sequence[str], notebook: str, title: str, points: float = 1,
                    due: str | None = None) -> str:
    """The text of an assignment file for a homework notebook.

    >>> print(assignment_toml(ids=["02.01"], notebook="hw.ipynb", title="Forks"))
    title = "Forks"
    notebook = "hw.ipynb"
    ids = ["02.01"]
    points = 1
    <BLANKLINE>
    """
    def quoted(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    lines = [f"title = {quoted(title)}", f"notebook = {quoted(notebook)}",
             "ids = [" + ", ".join(quoted(i) for i in ids) + "]",
             f"points = {points:g}"]
    if due:
        lines.append(f"due = {due}")
    return "\n".join(lines) + "\n"
