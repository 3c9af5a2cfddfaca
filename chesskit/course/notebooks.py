"""Build the course notebooks: one source per lesson, one notebook per language out.

A lesson source (``lessons/src/LL-slug.md``, format in DESIGN.md) becomes
``lessons/<lang>/LL-slug.ipynb``; the lesson's bank items become
``exercises/<lang>/LL-slug-exercises.ipynb`` (a name of its own, so the two tabs say which is
which).  ``chesskit build`` writes and executes them.

>>> from chesskit.course.lessons import parse_lesson
>>> lesson = parse_lesson("---\\nlesson: 1\\nslug: board\\ntitle: {en: \\"The board\\"}\\n---\\nHi")
>>> lesson_notebook(lesson, "en").cells[-1].source.splitlines()[0]
'Hi'
"""

from __future__ import annotations

import argparse
import copy
import os
import re
import sys
from collections.abc import Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat

from chesskit.course.lessons import (
    Lesson,
    LessonSourceError,
    course_root,
    exercise_ids,
    lesson_sources,
    read_lesson,
)
from chesskit.i18n import languages, localize, t


def _setup_cell(lang: str) -> nbformat.NotebookNode:
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
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [_setup_cell(lang), *cells]
    notebook.metadata = {
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                       "name": "python3"},
        "language_info": {"name": "python"},
        "chesskit": {"language": lang, **(metadata or {})},
    }
    for index, cell in enumerate(notebook.cells):
        cell["id"] = f"{prefix}-{index:03d}"
    return notebook


def exercise_cells(ids: Iterable[str], *, review: bool = False) -> list[nbformat.NotebookNode]:
    """Two cells per exercise: ``ck.exercise("id")`` shows it, ``ck.answer("id", "")`` checks."""
    cells = []
    show = ", review=True" if review else ""
    for exercise_id in ids:
        cells.append(nbformat.v4.new_code_cell(f'ck.exercise("{exercise_id}"{show})'))
        cells.append(nbformat.v4.new_code_cell(f'ck.answer("{exercise_id}", "")'))
    return cells


def lesson_notebook(lesson: Lesson, lang: str) -> nbformat.NotebookNode:
    """The unexecuted notebook of one lesson in one language; its first text ends with the
    note that the (hidden) first cell runs first."""
    cells = []
    for cell in lesson.cells:
        text = cell.text(lang)
        if cell.kind == "code":
            cells.append(nbformat.v4.new_code_cell(text))
        elif text:
            if not any(c.cell_type == "markdown" for c in cells):
                text += "\n\n" + t("notebooks.setup_note", lang=lang)
            cells.append(nbformat.v4.new_markdown_cell(text))
    if lesson.number:  # the last page: practise the lessons reached so far
        cells.append(nbformat.v4.new_markdown_cell(t("notebooks.practice_intro", lang=lang)))
        cells.append(nbformat.v4.new_code_cell(f"ck.practice_button(upto={lesson.number})"))
    return course_notebook(cells, lang=lang, prefix=f"l{lesson.number:02d}")


def exercise_notebook(lesson: Lesson, lang: str) -> nbformat.NotebookNode:
    """The unexecuted exercise notebook of one lesson in one language."""
    own, review = exercise_ids(lesson)
    name = localize(dict(lesson.title), lang=lang)
    cells = [nbformat.v4.new_markdown_cell(
        t("notebooks.exercise_intro", lang=lang, number=lesson.number, title=name) + "\n\n"
        + t("notebooks.setup_note", lang=lang))]
    cells += exercise_cells(own, review=lesson.mixed)
    if review:
        cells.append(nbformat.v4.new_markdown_cell(t("notebooks.review_intro", lang=lang)))
        cells += exercise_cells(review, review=True)
    cells.append(nbformat.v4.new_markdown_cell(t("notebooks.exercise_end", lang=lang)))
    return course_notebook(cells, lang=lang, prefix=f"x{lesson.number:02d}")


def exercise_file(lesson_name: str) -> str:
    """The file name of a lesson's exercise notebook (the lesson's own is ``LL-slug.ipynb``).

    >>> exercise_file("07-castling")
    '07-castling-exercises.ipynb'
    """
    return f"{lesson_name}-exercises.ipynb"


def targets(lesson: Lesson, root: Path) -> list[tuple[Path, nbformat.NotebookNode]]:
    """Every notebook a lesson source builds, with its path."""
    built = []
    for lang in languages():
        built.append((root / "lessons" / lang / f"{lesson.name}.ipynb",
                      lesson_notebook(lesson, lang)))
        built.append((root / "exercises" / lang / exercise_file(lesson.name),
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
                if not data:  # a live board's own output: its saved picture is just before
                    continue
            if (output.get("output_type") == "stream" and outputs
                    and outputs[-1].get("output_type") == "stream"
                    and outputs[-1].get("name") == output.get("name")):
                outputs[-1]["text"] = (_stream_text(outputs[-1]["text"])
                                       + _stream_text(output["text"]))
            else:
                outputs.append(output)
        if "outputs" in cell:
            cell["outputs"] = outputs


def _stream_text(value: str | list[str]) -> str:
    return value if isinstance(value, str) else "".join(value)


def execute(notebook: nbformat.NotebookNode, *, cwd: Path, name: str = "the notebook",
            tries: int = 2) -> nbformat.NotebookNode:
    """Run a notebook top to bottom in a fresh kernel. A kernel that dies or does not start
    (a busy machine) is started again, ``tries`` times in all; a failing cell raises
    LessonSourceError naming ``name`` and the error."""
    from nbclient import NotebookClient  # noqa: PLC0415 (only `chesskit build` runs notebooks)
    from nbclient.exceptions import CellExecutionError  # noqa: PLC0415 (as above)

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
