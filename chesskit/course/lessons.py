"""Lesson sources: reading ``lessons/src/LL-slug.md`` (format in DESIGN.md) into cells per
language, finding the course folder, and which bank items a lesson's exercise notebook holds.
Making and running the notebooks is :mod:`chesskit.course.notebooks`; the grader reads lessons
here without loading nbformat.

>>> lesson = parse_lesson("---\\nlesson: 1\\nslug: board\\ntitle: {en: \\"The board\\"}\\n---\\nHi")
>>> lesson.slug
'board'
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from chesskit.errors import LessonSourceError as LessonSourceError  # also importable from here
from chesskit.exercises.catalog import bank
from chesskit.i18n import Language, language, languages, to_traditional

REVIEW_ITEMS = 4
MAX_DRILLS = 12

_FENCE = re.compile(r"^```(\w*)\s*$")
_LANG_OPEN = re.compile(r"^:::\s*([\w-]+)\s*$")
_FIELD = re.compile(r'(\w[\w-]*)\s*:\s*"((?:[^"\\]|\\.)*)"')


@dataclasses.dataclass(frozen=True)
class Cell:
    """One notebook cell: ``kind`` is "markdown" or "code"; ``parts`` are (block key, text),
    the key "all" for text every language shares, else a language's block key ("en", "zh")."""

    kind: str
    parts: tuple[tuple[str, str], ...]

    def text(self, lang: str) -> str:
        """The cell's text for one language (shared text plus that language's blocks)."""
        return self._text(language(lang)).replace("{lang}", lang)

    def _text(self, spec: Language) -> str:
        if spec.derived_from is not None:
            return to_traditional(self._text(language(spec.derived_from)), lang=spec.code)
        chunks = [body for which, body in self.parts if which in ("all", spec.block)]
        return "\n".join(chunks).strip("\n")


@dataclasses.dataclass(frozen=True)
class Lesson:
    """A parsed lesson source."""

    number: int
    slug: str
    title: Mapping[str, str]
    cells: tuple[Cell, ...]
    checks: tuple[tuple[int, str], ...]  # (line number, code)
    review: int = REVIEW_ITEMS
    review_from: int = 1
    mixed: bool = False  # a test: no task of the exercise notebook names its idea

    @property
    def name(self) -> str:
        return f"{self.number:02d}-{self.slug}"


def _front_matter(lines: list[str], origin: str) -> tuple[dict[str, object], int]:
    if not lines or lines[0].strip() != "---":
        raise LessonSourceError(f"{origin}: line 1: a lesson starts with '---' front matter.")
    meta: dict[str, object] = {}
    for index, line in enumerate(lines[1:], start=1):
        if line.strip() == "---":
            return meta, index + 1
        key, sep, value = line.partition(":")
        if not sep:
            raise LessonSourceError(f"{origin}: line {index + 1}: expected 'key: value'.")
        value = value.strip()
        if value.startswith("{"):
            meta[key.strip()] = {k: v.replace('\\"', '"') for k, v in _FIELD.findall(value)}
        else:
            meta[key.strip()] = value.strip('"')
    raise LessonSourceError(f"{origin}: the front matter is never closed with '---'.")


def parse_lesson(source: str, *, origin: str = "<lesson>") -> Lesson:
    """Read a lesson source text into cells and checks; LessonSourceError names the line."""
    lines = source.splitlines()
    meta, start = _front_matter(lines, origin)
    try:
        number = int(str(meta["lesson"]))
        slug = str(meta["slug"])
    except (KeyError, ValueError) as error:
        raise LessonSourceError(f"{origin}: front matter needs 'lesson: N' and 'slug: name'.") \
            from error
    title = meta.get("title")
    blocks = {language(code).block for code in languages(written=True)}
    cells: list[Cell] = []
    checks: list[tuple[int, str]] = []
    parts: list[tuple[str, str]] = []
    block: list[str] = []
    which = "all"

    def flush_block() -> None:
        nonlocal block
        if block and any(line.strip() for line in block):
            parts.append((which, "\n".join(block)))
        block = []

    def flush_cell() -> None:
        nonlocal parts
        flush_block()
        if parts:
            cells.append(Cell("markdown", tuple(parts)))
        parts = []

    index = start
    while index < len(lines):
        line = lines[index]
        fence = _FENCE.match(line)
        if fence and which == "all":
            kind = fence.group(1)
            if kind not in ("python", "check"):
                raise LessonSourceError(f"{origin}: line {index + 1}: unknown block '{kind}'.")
            end = index + 1
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            if end == len(lines):
                raise LessonSourceError(f"{origin}: line {index + 1}: block never closed.")
            code = "\n".join(lines[index + 1:end])
            if kind == "check":
                checks.append((index + 1, code))
            else:
                flush_cell()
                cells.append(Cell("code", (("all", code),)))
            index = end + 1
            continue
        opened = _LANG_OPEN.match(line)
        if opened:
            if opened.group(1) not in blocks:
                raise LessonSourceError(f"{origin}: line {index + 1}: '::: {opened.group(1)}' "
                                        f"is no language's block; they are "
                                        f"{', '.join(sorted(blocks))}.")
            if which != "all":
                raise LessonSourceError(f"{origin}: line {index + 1}: '::: {opened.group(1)}' "
                                        f"inside another language block.")
            flush_block()
            which = opened.group(1)
        elif line.strip() == ":::":
            if which == "all":
                raise LessonSourceError(f"{origin}: line {index + 1}: ':::' closes nothing.")
            flush_block()
            which = "all"
        elif line.strip() == "+++" and which == "all":
            flush_cell()
        else:
            block.append(line)
        index += 1
    if which != "all":
        raise LessonSourceError(f"{origin}: a '::: {which}' block is never closed.")
    flush_cell()
    try:
        review = int(str(meta.get("review", REVIEW_ITEMS if number >= 2 else 0)))
        review_from = int(str(meta.get("review_from", 1)))
    except ValueError as error:
        raise LessonSourceError(f"{origin}: 'review' and 'review_from' are numbers.") from error
    return Lesson(number, slug, title if isinstance(title, dict) else {"en": slug},
                  tuple(cells), tuple(checks), review, review_from,
                  mixed=str(meta.get("mixed", "")).lower() == "true")


def read_lesson(path: Path) -> Lesson:
    """Parse the lesson source file at ``path``."""
    return parse_lesson(path.read_text(encoding="utf-8"), origin=str(path))


def course_root(start: Path | None = None) -> Path:
    """The course folder (the one holding ``lessons/src``): ``start`` or a folder above it.

    >>> (course_root() / "lessons" / "src").is_dir()  # run inside the course folder
    True
    """
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "lessons" / "src").is_dir():
            return folder
    raise LessonSourceError(f"No course here: neither {here} nor a folder above it holds "
                            "lessons/src (run this in the course folder or give --root).")


def lesson_sources(root: Path) -> list[Path]:
    """Every lesson source under the course folder ``root``, in lesson order."""
    return sorted((root / "lessons" / "src").glob("[0-9][0-9]-*.md"))


def exercise_ids(lesson: Lesson) -> tuple[list[str], list[str]]:
    """The items of a lesson's exercise notebook: (its own items, mixed review from earlier).

    Composed items all come; generated drills at most MAX_DRILLS; the review takes the
    ``lesson.review`` items of lessons ``review_from`` up to the one before that rank first by
    a hash of the lesson number and the item's id: the same build always picks the same items,
    and an item added to the bank changes a review only when it ranks among those picked.
    """
    earlier = [item.id for item in bank() if max(1, lesson.review_from) <= item.lesson
               < lesson.number and item.kind != "playout"]
    return own_exercise_ids(lesson.number), review_ids(lesson.number, earlier,
                                                       count=lesson.review)


def review_ids(number: int, earlier: Iterable[str], *, count: int) -> list[str]:
    """The ``count`` items of ``earlier`` that rank first for lesson ``number`` (by a hash of
    both), sorted: one more item in ``earlier`` changes at most one of them.

    >>> review_ids(12, ["05.01", "05.02", "06.01"], count=2)
    ['05.02', '06.01']
    """
    ranked = sorted(earlier, key=lambda item_id: hashlib.sha256(
        f"{number}:{item_id}".encode()).digest())
    return sorted(ranked[:count])


def own_exercise_ids(number: int) -> list[str]:
    """A lesson's own items in its exercise notebook: every composed item, at most MAX_DRILLS
    generated drills.

    >>> own_exercise_ids(7)[:2]
    ['07.01', '07.02']
    """
    own = list(bank(lesson=number))
    composed = [item.id for item in own if not item.data.get("generated")]
    return composed + [item.id for item in own if item.data.get("generated")][:MAX_DRILLS]
