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
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from chesskit.course import lessons
from chesskit.errors import BankError, GradingError
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
    source: str = ""  # the TOML text; "" for the default (lesson notebooks)

    def points_for(self, exercise_id: str) -> float:
        """The points one item is worth."""
        return float(self.points.get(exercise_id, self.default_points))

    def ids(self) -> list[str]:
        """Every item once, in part order."""
        return list(dict.fromkeys(i for part in self.parts for i in part.ids))

    def part_of(self, file_name: str) -> Part | None:
        """The part a handed-in file is, by its name (``07-castling (1).ipynb`` is 07-castling).

        >>> Assignment((Part("07-castling", ()),)).part_of("07-Castling (1).ipynb").name
        '07-castling'
        """
        stem = Path(file_name).name.lower().removesuffix(".ipynb")
        return next((p for p in self.parts if stem.startswith(p.name.lower())), None)


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
    from chesskit.exercises import catalog

    del bank_key  # only keys the cache: another bank (a test's) has other parts
    return tuple(Part(f"{info.lesson:02d}-{info.slug}", _lesson_ids(info.lesson, info.slug),
                      info.lesson) for info in catalog.lessons())


def lesson_parts() -> tuple[Part, ...]:
    """Every lesson's exercise notebook as a part (``01-mate`` with its items)."""
    from chesskit.exercises import catalog

    return _lesson_parts(catalog.bank_dir())


def course_default() -> Assignment:
    """The default assignment: every lesson's exercise notebook, one point per item."""
    return Assignment(lesson_parts())


def _due(value: object) -> float | None:
    """A TOML date (due at the end of that day), datetime (local time unless it has an offset)
    or ISO text, as a UNIX time."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value) if "T" in value or ":" in value \
                else dt.date.fromisoformat(value)
        except ValueError:
            raise GradingError(t("grading.bad_due", value=value)) from None
    if isinstance(value, dt.datetime):
        return value.timestamp()
    if isinstance(value, dt.date):
        return dt.datetime.combine(value, dt.time(23, 59, 59)).timestamp()
    raise GradingError(t("grading.bad_due", value=value))


def _known(ids: Iterable[object]) -> tuple[str, ...]:
    from chesskit.exercises import catalog

    out = []
    for raw in ids:
        try:
            out.append(catalog.exercise(str(raw)).id)
        except BankError:
            raise GradingError(t("grading.assignment_unknown_id", id=raw)) from None
    return tuple(dict.fromkeys(out))


def parse_assignment(text: str, *, folder: Path | None = None) -> Assignment:
    """An assignment from TOML text; GradingError names what is wrong.

    Keys (all optional but one of ``ids`` / ``lessons``)::

        title = "Forks"
        notebook = "homework-fork.ipynb"   # the file students hand in for ``ids``
        ids = ["02.01", "02.02"]
        lessons = [7, 8]                   # lesson exercise notebooks, their items
        points = 1                         # per item
        due = 2026-03-09T08:00:00          # a date, a local time or a time with offset
        [points_for]
        "02.01" = 2
    """
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise GradingError(t("grading.assignment_broken", error=error)) from None
    if doc.get("bank"):  # a teacher's own set (chesskit author): beside the assignment file
        _load_set(Path(folder or ".") / str(doc["bank"]))
    by_lesson = {p.lesson: p for p in lesson_parts()}
    parts = []
    for number in doc.get("lessons", []):
        if not isinstance(number, int) or number not in by_lesson:
            raise GradingError(t("grading.assignment_unknown_lesson", lesson=number))
        parts.append(by_lesson[number])
    if doc.get("ids"):
        name = str(doc.get("notebook") or doc.get("title") or "homework")
        parts.append(Part(re.sub(r"\.ipynb$", "", Path(name).name, flags=re.I),
                          _known(doc["ids"])))
    if not parts:
        raise GradingError(t("grading.assignment_empty"))
    weights = doc.get("points_for", {})
    points = {key: float(v) for key, v in zip(_known(weights), weights.values(), strict=True)}
    default = doc.get("points", 1)
    if not isinstance(default, int | float) or default < 0 or any(v < 0 for v in points.values()):
        raise GradingError(t("grading.assignment_points"))
    return Assignment(tuple(parts), str(doc.get("title", "")), points, float(default),
                      _due(doc.get("due")), text)


def read_assignment(path: str | Path) -> Assignment:
    """The assignment file at ``path``."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise GradingError(t("grading.assignment_unreadable", path=path, error=error)) from None
    return parse_assignment(text, folder=Path(path).parent)


def _load_set(path: Path) -> None:
    """Make a set's items known to the grader; a set loaded before (the same run) may be gone."""
    from chesskit.exercises import catalog

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
