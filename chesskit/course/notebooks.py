"""Build the course notebooks: one source per lesson, one notebook per language out.

A lesson source (``lessons/src/LL-slug.md``, format in DESIGN.md) becomes
``lessons/<lang>/LL-slug.ipynb``; the lesson's bank items become
``exercises/<lang>/LL-slug.ipynb``.  ``chesskit build`` writes and executes them.

>>> lesson = parse_lesson("---\\nlesson: 1\\nslug: board\\ntitle: {en: \\"The board\\"}\\n---\\nHi")
>>> lesson.slug
'board'
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import hashlib
import os
import re
import sys
from collections.abc import Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from chesskit.errors import ChessKitError
from chesskit.i18n import Language, language, languages, localize, t, to_traditional

if TYPE_CHECKING:  # imported where a notebook is made: reading lessons does not pay for it
    import nbformat

REVIEW_ITEMS = 4
MAX_DRILLS = 12

_FENCE = re.compile(r"^```(\w*)\s*$")
_LANG_OPEN = re.compile(r"^:::\s*([\w-]+)\s*$")
_FIELD = re.compile(r'(\w[\w-]*)\s*:\s*"((?:[^"\\]|\\.)*)"')


class LessonSourceError(ChessKitError):
    """A lesson source that cannot be read; the message names the file and the line."""


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


def _setup_cell(lang: str) -> nbformat.NotebookNode:
    import nbformat

    cell = nbformat.v4.new_code_cell(
        f'import chess\nimport chesskit as ck\n\nck.set_language("{lang}")')
    cell.metadata["tags"] = ["setup"]
    cell.metadata["jupyter"] = {"source_hidden": True}
    return cell


def course_notebook(cells: list[nbformat.NotebookNode], *, lang: str, prefix: str,
                    metadata: Mapping[str, object] | None = None) -> nbformat.NotebookNode:
    """A notebook of the course's shape: the hidden set-up cell, then ``cells``.

    Cell ids are stable (``prefix-000``, ...), so rebuilding changes nothing.
    """
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [_setup_cell(lang), *cells]
    notebook.metadata = {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
        "chesskit": {"language": lang, **(metadata or {})},
    }
    for index, cell in enumerate(notebook.cells):
        cell["id"] = f"{prefix}-{index:03d}"
    return notebook


def exercise_cells(ids: Iterable[str], *, review: bool = False) -> list[nbformat.NotebookNode]:
    """Two cells per exercise: ``ck.exercise("id")`` shows it, ``ck.answer("id", "")`` checks."""
    import nbformat

    cells = []
    show = ", review=True" if review else ""
    for exercise_id in ids:
        cells.append(nbformat.v4.new_code_cell(f'ck.exercise("{exercise_id}"{show})'))
        cells.append(nbformat.v4.new_code_cell(f'ck.answer("{exercise_id}", "")'))
    return cells


def lesson_notebook(lesson: Lesson, lang: str) -> nbformat.NotebookNode:
    """The unexecuted notebook of one lesson in one language."""
    import nbformat

    cells = []
    for cell in lesson.cells:
        text = cell.text(lang)
        if cell.kind == "code":
            cells.append(nbformat.v4.new_code_cell(text))
        elif text:
            cells.append(nbformat.v4.new_markdown_cell(text))
    return course_notebook(cells, lang=lang, prefix=f"l{lesson.number:02d}")


def exercise_ids(lesson: Lesson) -> tuple[list[str], list[str]]:
    """The items of a lesson's exercise notebook: (its own items, mixed review from earlier).

    Composed items all come; generated drills at most MAX_DRILLS; the review takes the
    ``lesson.review`` items of lessons ``review_from`` up to the one before that rank first by
    a hash of the lesson number and the item's id: the same build always picks the same items,
    and an item added to the bank changes a review only when it ranks among those picked.
    """
    from chesskit.exercises.catalog import bank

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
    from chesskit.exercises.catalog import bank

    own = list(bank(lesson=number))
    composed = [item.id for item in own if not item.data.get("generated")]
    return composed + [item.id for item in own if item.data.get("generated")][:MAX_DRILLS]


def exercise_notebook(lesson: Lesson, lang: str) -> nbformat.NotebookNode:
    """The unexecuted exercise notebook of one lesson in one language."""
    import nbformat

    own, review = exercise_ids(lesson)
    name = localize(dict(lesson.title), lang=lang)
    cells = [nbformat.v4.new_markdown_cell(
        t("notebooks.exercise_intro", lang=lang, number=lesson.number, title=name))]
    cells += exercise_cells(own, review=lesson.mixed)
    if review:
        cells.append(nbformat.v4.new_markdown_cell(t("notebooks.review_intro", lang=lang)))
        cells += exercise_cells(review, review=True)
    cells.append(nbformat.v4.new_markdown_cell(t("notebooks.exercise_end", lang=lang)))
    return course_notebook(cells, lang=lang, prefix=f"x{lesson.number:02d}")


def targets(lesson: Lesson, root: Path) -> list[tuple[Path, nbformat.NotebookNode]]:
    """Every notebook a lesson source builds, with its path."""
    built = []
    for lang in languages():
        built.append((root / "lessons" / lang / f"{lesson.name}.ipynb",
                      lesson_notebook(lesson, lang)))
        built.append((root / "exercises" / lang / f"{lesson.name}.ipynb",
                      exercise_notebook(lesson, lang)))
    return built


def _strip_volatile(notebook: nbformat.NotebookNode) -> None:
    """Drop what changes from run to run: widget views (random model ids), widget state, and
    the way printed text happened to arrive (one stream output, not chunks)."""
    notebook.metadata.pop("widgets", None)
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
        outputs: list[nbformat.NotebookNode] = []
        for output in cell.get("outputs", []):
            data = output.get("data")
            if data:
                data.pop("application/vnd.jupyter.widget-view+json", None)
            if (output.get("output_type") == "stream" and outputs
                    and outputs[-1].get("output_type") == "stream"
                    and outputs[-1].get("name") == output.get("name")):
                outputs[-1]["text"] = _text(outputs[-1]["text"]) + _text(output["text"])
            else:
                outputs.append(output)
        if "outputs" in cell:
            cell["outputs"] = outputs


def _text(value: str | list[str]) -> str:
    return value if isinstance(value, str) else "".join(value)


def execute(notebook: nbformat.NotebookNode, *, cwd: Path, name: str = "the notebook",
            tries: int = 2) -> nbformat.NotebookNode:
    """Run a notebook top to bottom in a fresh kernel. A kernel that dies or does not start
    (a busy machine) is started again, ``tries`` times in all; a failing cell raises
    LessonSourceError naming ``name`` and the error."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    attempt = 0
    while True:
        attempt += 1
        run = copy.deepcopy(notebook)
        client = NotebookClient(run, timeout=300, kernel_name="python3",
                                resources={"metadata": {"path": str(cwd)}},
                                record_timing=False, store_widget_state=False)
        try:
            client.execute()
        except CellExecutionError as error:
            said = re.sub(r"\x1b\[[0-9;]*m", "", str(error)).strip()  # no terminal colours
            last = said.splitlines()[-1] if said else "an error"
            raise LessonSourceError(f"{name}: a cell failed: {last}") from None
        except (RuntimeError, TimeoutError) as error:  # the kernel died or never answered
            if attempt >= tries:
                raise LessonSourceError(f"{name}: the kernel stopped {tries} times "
                                        f"({error}); try again on a less busy machine.") from None
            continue
        _strip_volatile(run)
        return run


def _build_one(job: tuple[str, str, bool]) -> str:
    import nbformat

    os.environ["CHESSKIT_RECORD"] = "0"  # a built notebook shows nobody's progress
    path_text, content, run = job
    path = Path(path_text)
    notebook = nbformat.reads(content, as_version=4)
    path.parent.mkdir(parents=True, exist_ok=True)
    if run:
        notebook = execute(notebook, cwd=path.parent, name=path_text)
    path.write_text(nbformat.writes(notebook) + "\n", encoding="utf-8")
    return path_text


def build(root: Path, *, lessons: Iterable[int] | None = None, run: bool = True,
          jobs: int = 2) -> list[Path]:
    """Write (and execute) the notebooks of the chosen lessons; returns the paths written."""
    import nbformat

    wanted = set(lessons) if lessons is not None else None
    work = []
    for source in lesson_sources(root):
        lesson = read_lesson(source)
        if wanted is None or lesson.number in wanted:
            work += [(str(path), nbformat.writes(nb), run) for path, nb in targets(lesson, root)]
    if jobs <= 1 or len(work) <= 1:
        return [Path(_build_one(job)) for job in work]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return [Path(done) for done in pool.map(_build_one, work)]


def stale(root: Path) -> list[str]:
    """Committed notebooks whose cells differ from a fresh build of their source."""
    import nbformat

    problems = []
    for source in lesson_sources(root):
        for path, fresh in targets(read_lesson(source), root):
            if not path.exists():
                problems.append(f"{path.relative_to(root)}: missing; run 'chesskit build'.")
                continue
            old = nbformat.read(path, as_version=4)
            if [(c.cell_type, c.source) for c in old.cells] != \
                    [(c.cell_type, c.source) for c in fresh.cells]:
                problems.append(f"{path.relative_to(root)}: stale against "
                                f"{source.relative_to(root)}; run 'chesskit build'.")
    return problems


def main(argv: list[str]) -> int:
    """``chesskit build [--root DIR] [--lesson N ...] [--no-execute] [--jobs 2] [--check]``."""
    parser = argparse.ArgumentParser(prog="chesskit build", description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=None,
                        help="the course folder (default: the one holding the current folder)")
    parser.add_argument("--lesson", type=int, action="append", help="only this lesson (repeat)")
    parser.add_argument("--no-execute", action="store_true", help="write without running")
    parser.add_argument("--jobs", type=int, default=2, help="notebooks run at once (default 2)")
    parser.add_argument("--check", action="store_true",
                        help="only report notebooks that are stale against their sources")
    options = parser.parse_args(argv)
    root = course_root(options.root)
    if options.check:
        problems = stale(root)
        for problem in problems:
            print(problem)
        return 1 if problems else 0
    unknown = sorted(set(options.lesson or ()) - {lesson.number for lesson in
                                                  map(read_lesson, lesson_sources(root))})
    if unknown:
        raise LessonSourceError(f"There is no lesson {unknown[0]}: see lessons/src/.")
    written = build(root, lessons=options.lesson, run=not options.no_execute, jobs=options.jobs)
    print(f"{len(written)} notebooks written.", file=sys.stderr)
    return 0
