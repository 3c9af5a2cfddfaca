"""Lesson sources parse, build into three languages, and the committed notebooks are fresh."""

from pathlib import Path

import nbformat
import pytest

from chesskit.course.lessons import LessonSourceError, course_root, parse_lesson, review_ids
from chesskit.course.notebooks import execute, lesson_notebook, stale
from chesskit.i18n import t

ROOT = Path(__file__).resolve().parents[1]

SOURCE = """---
lesson: 3
slug: queen
title: {en: "The queen", zh: "后"}
---
::: en
# The queen
:::
::: zh
# 后的走法
:::

```python
ck.board("8/8/8/8/3Q4/8/8/8")
```

```check
assert True
```
+++
Both.
"""


def test_parse_and_build_three_languages() -> None:
    lesson = parse_lesson(SOURCE)
    assert (lesson.number, lesson.slug, lesson.name) == (3, "queen", "03-queen")
    assert len(lesson.checks) == 1
    sources = {lang: [c.source for c in lesson_notebook(lesson, lang).cells]
               for lang in ("en", "zh-Hans", "zh-Hant")}
    note = {lang: "\n\n" + t("notebooks.setup_note", lang=lang) for lang in sources}
    assert sources["en"][1:] == ["# The queen" + note["en"], 'ck.board("8/8/8/8/3Q4/8/8/8")',
                                 "Both.", t("notebooks.practice_intro", lang="en"),
                                 "ck.practice_button(upto=3)"]
    assert sources["zh-Hans"][1] == "# 后的走法" + note["zh-Hans"]
    assert sources["zh-Hant"][1] == "# 后的走法" + note["zh-Hant"]
    assert "NameError" in note["zh-Hant"] and "第一個格子" in note["zh-Hant"]
    assert sources["zh-Hant"][0].endswith('ck.set_language("zh-Hant")')


@pytest.mark.parametrize(("text", "message"), [
    ("no front matter", "line 1"),
    ("---\nlesson: 1\nslug: x\n---\n::: en\nopen", "never closed"),
    ("---\nlesson: 1\nslug: x\n---\n```ruby\nx\n```", "unknown block"),
    ("---\nslug: x\n---\n", "lesson: N"),
])
def test_bad_sources_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(LessonSourceError, match=message):
        parse_lesson(text, origin="x.md")


def test_committed_notebooks_are_fresh() -> None:
    assert stale(ROOT) == []


def test_every_notebook_starts_with_its_set_up_and_says_so() -> None:
    """``ck.progress()`` before the set-up is a NameError: the set-up cell is first and the
    first text says to run it, and what to do after a NameError."""
    for path in sorted([*ROOT.glob("lessons/*/*.ipynb"), *ROOT.glob("exercises/*/*.ipynb")]):
        notebook = nbformat.read(path, as_version=4)
        first, text = notebook.cells[0], next(c for c in notebook.cells
                                               if c.cell_type == "markdown")
        lang = notebook.metadata["chesskit"]["language"]
        assert "setup" in first.metadata["tags"] and "import chesskit as ck" in first.source, path
        assert text.source.endswith(t("notebooks.setup_note", lang=lang)), path


def test_the_course_folder_is_found_from_inside_it_or_refused(tmp_path) -> None:
    assert course_root(ROOT / "lessons" / "src") == ROOT
    with pytest.raises(LessonSourceError, match="No course here"):
        course_root(tmp_path)


def test_a_new_bank_item_changes_a_review_by_one_item_at_most() -> None:
    earlier = [f"{lesson:02d}.{n:02d}" for lesson in range(1, 12) for n in range(1, 40)]
    for number in range(12, 30):
        before = set(review_ids(number, earlier, count=10))
        for added in ("05.99", "11.50", "01.00"):
            after = set(review_ids(number, [*earlier, added], count=10))
            assert len(after) == 10 and len(before - after) <= 1 and after - before <= {added}


def test_a_failing_cell_names_the_notebook_and_the_error(tmp_path) -> None:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 / 0")])
    with pytest.raises(LessonSourceError, match=r"^x\.ipynb: a cell failed: ZeroDivisionError"):
        execute(notebook, cwd=tmp_path, name="x.ipynb")
    assert notebook.cells[0].outputs == []  # the notebook given is left as it was


def test_printed_text_is_one_output_however_it_arrived(tmp_path) -> None:
    code = "import sys\nprint('a', flush=True)\nsys.stdout.flush()\nprint('b', flush=True)"
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    (output,) = execute(notebook, cwd=tmp_path).cells[0].outputs
    assert output.name == "stdout" and output.text == "a\nb\n"


def test_a_built_board_is_its_saved_picture_without_widget_output(tmp_path) -> None:
    code = "import chesskit as ck\nck.set_language('en')\nck.Board()"
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    (output,) = execute(notebook, cwd=tmp_path).cells[0].outputs
    assert 'class="ck-static"' in output.data["text/html"]
    assert "application/vnd.jupyter.widget-view+json" not in output.data
