"""DESIGN.md's recipes for a kind and a command, done exactly as written in a copy of chesskit.

The kind ``colour`` ("is the square light or dark?") is one new module, one name added to
``KindName`` and its texts in the two written locale files; the command ``hello`` is one new
module with ``main(argv)`` and one line in ``cli.COMMANDS``. Everything runs in the copy
(``PYTHONPATH``); no other file of the copy differs from the package. (The recipe for a language
is tested the same way by tests/test_languages.py.)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import chesskit

PACKAGE = Path(chesskit.__file__).parent
pytestmark = pytest.mark.slow  # a copy of the package and a Python process per check

KIND_MODULE = '''"""Is the square light or dark?"""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess

from chesskit.exercises.protocol import BoardInput, Kind, Lang, feedback, field_square, praise
from chesskit.i18n import t

if TYPE_CHECKING:
    from chesskit.exercises.feedback import Feedback
    from chesskit.exercises.model import Exercise


def _colour(ex: Exercise) -> str:
    return "light" if chess.BB_LIGHT_SQUARES & chess.BB_SQUARES[field_square(ex)] else "dark"


class ColourKind(Kind):
    name = "colour"
    required = ("square",)

    def needs_fen(self, ex: Exercise) -> bool:
        return False

    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        word = text.lower()
        if word not in ("light", "dark"):
            return feedback(ex, "unparseable", t("exercises.colour_unreadable", lang=lang), text)
        if word == _colour(ex):
            return praise(ex, word, lang)
        message = t("exercises.colour_wrong", lang=lang, square=ex.data["square"], colour=word)
        return feedback(ex, "wrong", message, word, (field_square(ex),))

    def solutions(self, ex: Exercise) -> list[str]:
        return [_colour(ex)]

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        return t("exercises.prompt_colour", lang=lang, square=ex.data["square"])

    def board_input(self, ex: Exercise) -> BoardInput:
        return "options"

    def options(self, ex: Exercise, lang: Lang) -> list[str]:
        return ["light", "dark"]


KIND = ColourKind()
'''
KIND_TEXTS = {
    "en": '''nudge_colour = "a1 is dark."
colour_unreadable = "Write light or dark."
colour_wrong = "{square} is not {colour}."
prompt_colour = "Is {square} light or dark?"
''',
    "zh-Hans": '''nudge_colour = "a1是深色格。"
colour_unreadable = "请写light或dark。"
colour_wrong = "{square}不是{colour}。"
prompt_colour = "{square}是浅色格还是深色格？"
''',
}
BANK = """lesson = 98
slug = "colours"
title = { en = "Colours", zh = "颜色" }

[[item]]
id = "98.01"
kind = "colour"
square = "e4"
topic = "coordinates"
difficulty = 500
"""
COMMAND_MODULE = '''"""``chesskit hello``: greet someone (a command made by DESIGN.md's recipe)."""

from __future__ import annotations

import argparse

from chesskit.errors import ChessKitError
from chesskit.i18n import t


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="chesskit hello")
    parser.add_argument("--name", required=True, help=t("hello.name_help"))
    args = parser.parse_args(argv)
    if not args.name.isalpha():
        raise ChessKitError(t("hello.bad_name", name=args.name))
    print(t("hello.greeting", name=args.name))
    return 0
'''
COMMAND_TEXTS = {
    "en": 'name_help = "who to greet"\nbad_name = "{name} is not a name."\n'
          'greeting = "Hello, {name}!"\n',
    "zh-Hans": 'name_help = "问候谁"\nbad_name = "{name}不是名字。"\ngreeting = "{name}，你好！"\n',
}
COMMAND_LINE = '    "hello": ("hello", "main", "greet someone"),\n'
PROBE = """
import json
import chesskit as ck
from chesskit.exercises import KINDS, catalog

ex = ck.exercise("98.01")
print(json.dumps({
    "kinds": list(KINDS)[-2:], "prompt": ex.prompt_text(lang="en"),
    "right": ex.check("Light").message, "wrong": ex.check("dark", lang="zh-Hans").message,
    "unreadable": ex.check("blue").code, "hints": [ex.hint(level) for level in range(3)],
    "board_input": ex.board_input(), "svg": ex.board_svg().startswith("<svg"),
}))
"""


def _add(path: Path, text: str, *, after: str = "") -> None:
    """Append ``text`` to the file, or insert it after the line ``after``."""
    old = path.read_text(encoding="utf-8")
    new = old.replace(after, after + text, 1) if after else old + text
    assert new != old, path
    path.write_text(new, encoding="utf-8")


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of chesskit with the kind ``colour`` and the command ``hello`` added by recipe."""
    root = tmp_path_factory.mktemp("recipes")
    copy = root / "chesskit"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    # a kind: (1) its module, (2) its name in KindName, (3) its texts
    (copy / "exercises" / "colour.py").write_text(KIND_MODULE, encoding="utf-8")
    protocol = copy / "exercises" / "protocol.py"
    text = protocol.read_text(encoding="utf-8")
    protocol.write_text(text.replace('"minigame"]', '"minigame", "colour"]', 1), encoding="utf-8")
    for lang, texts in KIND_TEXTS.items():
        _add(copy / "locale" / lang / "exercises.toml", texts)
    (copy / "bank" / "98-colours.toml").write_text(BANK, encoding="utf-8")
    # a command: its module with main(argv), its texts, one line in COMMANDS
    (copy / "hello.py").write_text(COMMAND_MODULE, encoding="utf-8")
    for lang, texts in COMMAND_TEXTS.items():
        (copy / "locale" / lang / "hello.toml").write_text(texts, encoding="utf-8")
    _add(copy / "cli.py", COMMAND_LINE, after="COMMANDS = {\n")
    return root


def _run(course: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(course), CHESSKIT_RECORD="0", CHESSKIT_LANG="en",
               CHESSKIT_DATA_DIR=str(course / "data"))
    done = subprocess.run([sys.executable, *args], cwd=course, env=env, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == code, done.stderr
    return done


def test_only_the_files_the_recipes_name_differ(course: Path) -> None:
    copy = course / "chesskit"
    changed = sorted(str(path.relative_to(copy)) for path in copy.rglob("*")
                     if path.is_file() and "__pycache__" not in path.parts
                     and (not (PACKAGE / path.relative_to(copy)).exists()
                          or path.read_bytes() != (PACKAGE / path.relative_to(copy)).read_bytes()))
    assert changed == sorted([
        "bank/98-colours.toml", "cli.py", "exercises/colour.py", "exercises/protocol.py",
        "hello.py", "locale/en/exercises.toml", "locale/en/hello.toml",
        "locale/zh-Hans/exercises.toml", "locale/zh-Hans/hello.toml"])


def test_the_new_kind_works_end_to_end(course: Path) -> None:
    seen = json.loads(_run(course, "-c", PROBE).stdout)
    assert seen == {
        "kinds": ["minigame", "colour"], "prompt": "Is e4 light or dark?\nA. light  B. dark",
        "right": "Right!", "wrong": "e4不是dark。", "unreadable": "unparseable",
        "hints": ["a1 is dark.", "One right answer: light.", "No more hints."],
        "board_input": "options", "svg": True,
    }
    done = _run(course, "-m", "chesskit", "check-bank", "--file",
                str(course / "chesskit" / "bank" / "98-colours.toml"))
    assert done.stdout == "1 items checked, 0 problems\n"


def test_the_new_command_runs_and_reports_errors(course: Path) -> None:
    assert "  hello       greet someone" in _run(course, "-m", "chesskit").stdout
    assert _run(course, "-m", "chesskit", "hello", "--name", "Ana").stdout == "Hello, Ana!\n"
    assert "who to greet" in _run(course, "-m", "chesskit", "hello", "--help").stdout
    failed = _run(course, "-m", "chesskit", "hello", "--name", "4", code=1)
    assert failed.stderr == "Error: 4 is not a name.\n"
