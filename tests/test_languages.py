"""A language is data: DESIGN.md's recipe, done for a throwaway language in a copy of chesskit.

The language ``up`` ("UPPER ENGLISH": every English text upper-cased, its ``{fields}`` kept) is a
folder ``locale/up/`` (a ``language.toml`` and one file per module), ``::: up`` blocks in a lesson
source and ``up = "..."`` texts in a bank file.  The copy's Python files are the package's, byte
for byte; everything runs in the copy (``PYTHONPATH``), so nothing of the real package is touched.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path

import nbformat
import pytest
from test_i18n import MODULES, mismatches

import chesskit
from chesskit.course.lessons import LessonSourceError, lesson_sources, parse_lesson, read_lesson
from chesskit.i18n import FALLBACK, language, languages
from chesskit.rules.explain import explain_move
from chesskit.rules.openings import opening

PACKAGE = Path(chesskit.__file__).parent
FIELD = re.compile(r"(\{\w*\})")
LANGUAGE = """name = "UPPER ENGLISH"
block = "up"
locales = ["up"]
"""
LESSON = """---
lesson: 90
slug: upper
title: {en: "Loud", zh: "大声", up: "LOUD"}
review: 0
---

::: en
# Lesson 90: Loud
:::
::: zh
# 第90课：大声
:::
::: up
# LESSON 90: LOUD
:::

```python
ck.board("8/8/8/8/3Q4/8/8/8", caption={"en": "The queen", "zh": "后", "up": "THE QUEEN"})
```
"""
BANK = """lesson = 90
slug = "upper"
title = { en = "Loud", zh = "大声", up = "LOUD" }

[[item]]
id = "90.01"
kind = "square"
mode = "name"
square = "e4"
topic = "coordinates"
difficulty = 400
prompt = { en = "Name the square.", zh = "说出这个格子。", up = "NAME THE SQUARE." }
hints = [{ en = "Count the files.", zh = "数一数列。", up = "COUNT THE FILES." }]
"""
# What the copy answers in "up" and in "en" (printed as JSON by a script run in the copy).
PROBE = """
import json, sys
import chess
import chesskit as ck
from chesskit import i18n
from chesskit.course.site.build import start_page

lang = sys.argv[1]
ex = ck.exercise("90.01")
print(json.dumps({
    "package": ck.__file__, "languages": i18n.languages(), "code": i18n.get_language("UP"),
    "side": i18n.t("core.side_to_move", side=i18n.color_name(chess.WHITE, lang=lang), lang=lang),
    "piece": i18n.piece_on(chess.BISHOP, chess.C1, lang=lang),
    "explain": ck.explain_move("start", "Bh6", lang=lang).message,
    "prompt": ex.prompt_text(lang=lang), "hint": ex.hint(0, lang=lang),
    "wrong": ex.check("e5", lang=lang).message, "right": ex.check("e4", lang=lang).message,
    "opening": ck.opening("sicilian").title(lang=lang),
    "site": start_page(),
}))
"""


def shout(text: str) -> str:
    """English upper-cased, its ``{fields}`` kept: ``"The {piece}."`` -> ``"THE {piece}."``."""
    return "".join(part if FIELD.fullmatch(part) else part.upper() for part in FIELD.split(text))


def _toml_value(value: object) -> str:
    shouted = [shout(v) for v in value] if isinstance(value, list) else shout(str(value))
    return json.dumps(shouted, ensure_ascii=False)  # a JSON string or list is valid TOML


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course root holding a copy of chesskit with the language ``up`` added as data only."""
    root = tmp_path_factory.mktemp("course")
    copy = root / "chesskit"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    folder = copy / "locale" / "up"
    folder.mkdir()
    (folder / "language.toml").write_text(LANGUAGE, encoding="utf-8")
    for module in MODULES:
        english = tomllib.loads((PACKAGE / "locale" / "en" / f"{module}.toml")
                                .read_text(encoding="utf-8"))
        (folder / f"{module}.toml").write_text(
            "".join(f"{key} = {_toml_value(value)}\n" for key, value in english.items()),
            encoding="utf-8")
    (copy / "bank" / "90-upper.toml").write_text(BANK, encoding="utf-8")
    (root / "lessons" / "src").mkdir(parents=True)
    (root / "lessons" / "src" / "90-upper.md").write_text(LESSON, encoding="utf-8")
    return root


def _run(course: Path, *args: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(course), CHESSKIT_RECORD="0",
               CHESSKIT_DATA_DIR=str(course / "data"))
    done = subprocess.run([sys.executable, *args], cwd=course, env=env, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _python_files(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in folder.rglob("*.py")
            if "__pycache__" not in path.parts}


def test_no_python_module_is_edited_and_the_files_match_english(course: Path) -> None:
    assert _python_files(course / "chesskit") == _python_files(PACKAGE)
    assert not [problem for module in MODULES
                for problem in mismatches(course / "chesskit" / "locale", "up", module)]


def test_the_library_speaks_the_new_language(course: Path) -> None:
    up, en = (json.loads(_run(course, "-c", PROBE, lang)) for lang in ("up", "en"))
    assert Path(up["package"]).parent == course / "chesskit"
    assert up["languages"] == ["en", "up", "zh-Hans", "zh-Hant"] and up["code"] == "up"
    for key in ("side", "piece", "explain", "prompt", "hint", "wrong", "right", "opening"):
        assert up[key] != en[key] and up[key].upper() == en[key].upper(), key
    assert en["explain"] == explain_move("start", "Bh6", lang="en").message
    assert up["explain"] == "THE BISHOP ON c1 CANNOT GET PAST THE PAWN ON d2."
    assert up["prompt"].startswith("NAME THE SQUARE.") and up["hint"] == "COUNT THE FILES."
    assert up["opening"] == opening("sicilian").title(lang="en").upper()
    assert '<a href="lab/index.html?path=lessons/up/00-start-here.ipynb" lang="up">' \
        "UPPER ENGLISH</a>" in up["site"]


@pytest.mark.slow
def test_the_builder_writes_its_notebooks_and_feedback_speaks_it(course: Path) -> None:
    _run(course, "-m", "chesskit", "build", "--root", str(course), "--lesson", "90")
    for folder in ("lessons", "exercises"):
        assert sorted(path.parent.name for path in (course / folder).glob("*/90-upper*.ipynb")) \
            == ["en", "up", "zh-Hans", "zh-Hant"]
    lesson = nbformat.read(course / "lessons" / "up" / "90-upper.ipynb", as_version=4)
    assert lesson.cells[0].source == 'import chess\nimport chesskit as ck\n\nck.set_language("up")'
    assert lesson.cells[1].source.startswith("# LESSON 90: LOUD\n\n> **FIRST OF ALL:**")
    assert "THE QUEEN" in lesson.cells[2].outputs[0]["data"]["text/html"]
    english = nbformat.read(course / "lessons" / "en" / "90-upper.ipynb", as_version=4)
    assert english.cells[1].source.startswith("# Lesson 90: Loud\n\n> **First of all:**")
    traditional = nbformat.read(course / "lessons" / "zh-Hant" / "90-upper.ipynb", as_version=4)
    assert traditional.cells[1].source.startswith("# 第90課：大聲\n\n")
    up, en = (_shown(course / "exercises" / lang / "90-upper-exercises.ipynb")
              for lang in ("up", "en"))
    assert up["intro"].startswith("# EXERCISES FOR LESSON 90: LOUD\n")
    assert up['ck.exercise("90.01")'].startswith("**90.01** NAME THE SQUARE.")
    assert up['ck.answer("90.01", "")'] == "✎ WRITE YOUR ANSWER BETWEEN THE QUOTES FIRST."
    assert up['ck.answer("90.01", "")'].upper() == en['ck.answer("90.01", "")'].upper()


def _shown(path: Path) -> dict[str, str]:
    """What an executed exercise notebook shows: its first text ("intro"), then per code cell
    the markdown it displays."""
    book = nbformat.read(path, as_version=4)
    shown = {"intro": book.cells[1].source}
    for cell in book.cells:
        shown[cell.source] = "".join(str(output.get("data", {}).get("text/markdown", ""))
                                     for output in cell.get("outputs", []))
    return shown


def test_the_command_line_accepts_it_and_check_bank_its_texts(course: Path) -> None:
    up = _run(course, "-m", "chesskit", "progress", "--lang", "up")
    en = _run(course, "-m", "chesskit", "progress", "--lang", "en")
    assert up != en and up.upper() == en.upper()
    checked = _run(course, "-m", "chesskit", "check-bank", "--file", "chesskit/bank/90-upper.toml")
    assert checked.splitlines()[-1] == "1 items checked, 0 problems"


def test_a_block_of_no_language_is_refused() -> None:
    source = "---\nlesson: 1\nslug: x\n---\n::: fr\nBonjour\n:::\n"
    with pytest.raises(LessonSourceError, match="line 5: '::: fr' is no language's block; "
                                                "they are en, zh."):
        parse_lesson(source)


def _text_tables(node: object) -> Iterator[Mapping[str, object]]:
    """The ``{en = ..., zh = ...}`` tables of a bank file (titles, prompts, hints, options)."""
    if isinstance(node, dict) and FALLBACK in node and all(isinstance(v, str)
                                                          for v in node.values()):
        yield node
    elif isinstance(node, dict | list):
        for value in node.values() if isinstance(node, dict) else node:
            yield from _text_tables(value)


def test_every_lesson_and_bank_text_has_every_written_language() -> None:
    """What the recipe's step 3 asks: a language's blocks beside every other's."""
    blocks = {language(code).block for code in languages(written=True)}
    for source in lesson_sources(PACKAGE.parent):
        lesson = read_lesson(source)
        assert set(lesson.title) == blocks, source.name
        for cell in lesson.cells:
            assert {which for which, _ in cell.parts} - {"all"} in (set(), blocks), source.name
    for path in sorted((PACKAGE / "bank").glob("*.toml")):
        tables = list(_text_tables(tomllib.loads(path.read_text(encoding="utf-8"))))
        assert tables and all(set(table) == blocks for table in tables), path.name
