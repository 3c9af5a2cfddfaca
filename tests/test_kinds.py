"""The registry of kinds: every kind keeps the protocol, and a throwaway kind added in a fixture
(one class, one registry entry) works end to end: check, solutions, prompt, hints, the board,
loading from a bank file and check-bank."""

from __future__ import annotations

import importlib
import logging
import pathlib
from collections.abc import Iterator
from typing import get_args

import chess
import pytest

from chesskit.errors import BankError
from chesskit.exercises import CODES, KINDS, BoardMarks, Exercise, Feedback, Kind, catalog, registry
from chesskit.exercises.protocol import (
    BoardInput,
    KindName,
    Lang,
    Problem,
    feedback,
    field_square,
    praise,
)


class ColourKind(Kind):
    """Is the square light or dark?  (Its texts are written here: a test cannot add locale
    keys; a real kind puts them in locale/*/exercises.toml.)"""

    name = "colour"
    required = ("square",)

    def needs_fen(self, ex: Exercise) -> bool:
        return False

    def _colour(self, ex: Exercise) -> str:
        return "light" if chess.BB_LIGHT_SQUARES & chess.BB_SQUARES[field_square(ex)] else "dark"

    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        word = text.lower()
        if word not in ("light", "dark"):
            return feedback(ex, "unparseable", "Write light or dark.", text)
        if word == self._colour(ex):
            return praise(ex, word, lang)
        return feedback(ex, "wrong", f"{ex.data['square']} is not {word}.", word,
                        (field_square(ex),))

    def solutions(self, ex: Exercise) -> list[str]:
        return [self._colour(ex)]

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        return f"Is {ex.data['square']} light or dark?"

    def first_hint(self, ex: Exercise, lang: Lang) -> str:
        return "a1 is dark."

    def step_hint(self, ex: Exercise, lang: Lang) -> str:
        return "Neighbours have different colours."

    def board_input(self, ex: Exercise) -> BoardInput:
        return "options"

    def options(self, ex: Exercise, lang: Lang) -> list[str]:
        return ["light", "dark"]

    def board_marks(self, ex: Exercise) -> BoardMarks:
        return BoardMarks(marks={"yellow": [str(ex.data["square"])]})

    def verify(self, ex: Exercise) -> list[Problem]:
        stored = ex.data.get("answer")
        if stored is not None and stored != self._colour(ex):
            return [("answer", f"the board says {self._colour(ex)}, not {stored}")]
        return []


@pytest.fixture
def colour_kind(monkeypatch: pytest.MonkeyPatch) -> Iterator[Kind]:
    kind = ColourKind()
    monkeypatch.setitem(registry.KINDS, kind.name, kind)
    yield kind


BANK = """\
lesson = 98
slug = "colours"
title = { en = "Colours", zh = "颜色" }

[[item]]
id = "98.01"
kind = "colour"
square = "e4"
topic = "coordinates"
difficulty = 500

[[item]]
id = "98.02"
kind = "colour"
square = "a1"
answer = "light"
topic = "coordinates"
difficulty = 500
"""


def test_every_kind_keeps_the_protocol() -> None:
    assert tuple(KINDS) == get_args(KindName)
    for name, kind in KINDS.items():
        module = importlib.import_module(f"chesskit.exercises.{name}")
        assert isinstance(kind, Kind) and kind.name == name and module.KIND is kind


def test_a_module_that_is_no_kind_is_refused() -> None:
    with pytest.raises(TypeError, match="chesskit.exercises.model.KIND is not the Kind"):
        registry.load_kind("model")


def test_a_throwaway_kind_works_end_to_end(colour_kind: Kind) -> None:
    ex = Exercise(id="98.10", lesson=98, kind="colour", data={"square": "e4"})  # type: ignore[arg-type]
    assert ex.spec is colour_kind
    assert ex.check("light").correct and ex.check("Light").correct
    assert ex.check("dark").code == "wrong" and ex.check("blue").code == "unparseable"
    assert ex.check("").code == "empty" and ex.check(object()).code == "unparseable"
    assert ex.solutions() == ["light"]
    assert ex.prompt_text(lang="en") == "Is e4 light or dark?\nA. light  B. dark"
    assert [ex.hint(level, lang="en") for level in range(4)] == [
        "a1 is dark.", "Neighbours have different colours.", "One right answer: light.",
        "No more hints."]
    assert ex.board_input() == "options"
    assert ex.board_marks().marks == {"yellow": ["e4"]}
    assert ex.board_svg().startswith("<svg")
    with pytest.raises(BankError, match="field square: a colour item needs the field"):
        Exercise(id="98.11", lesson=98, kind="colour")  # type: ignore[arg-type]


def test_a_throwaway_kind_loads_from_the_bank_and_is_checked(
        colour_kind: Kind, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "98-colours.toml").write_text(BANK, encoding="utf-8")
    problems = catalog.check_bank([tmp_path / "98-colours.toml"])
    assert [(p.item, p.field, p.message) for p in problems] == [
        ("98.02", "answer", "the board says dark, not light")]
    monkeypatch.setattr(catalog, "bank_dir", lambda: tmp_path)
    catalog._index.cache_clear()  # noqa: SLF001 (the bank is cached: read the new folder)
    try:
        loaded = catalog.exercise("98.01")
        assert loaded.kind == "colour" and loaded.check("light").correct
        assert [ex.id for ex in catalog.bank(kind="colour")] == ["98.01", "98.02"]
    finally:
        catalog._index.cache_clear()  # noqa: SLF001


def test_an_unknown_kind_names_the_registered_ones() -> None:
    with pytest.raises(BankError, match="unknown kind 'colour'; use one of square, "):
        Exercise(id="98.12", lesson=98, kind="colour", data={"square": "e4"})  # type: ignore[arg-type]


@pytest.mark.parametrize(("item", "board_input"), [
    ("01.01", "text"), ("02.01", "placement"), ("04.08", "move"), ("12.01", "move"),
])
def test_the_board_asks_the_kind(item: str, board_input: str) -> None:
    assert catalog.exercise(item).board_input() == board_input


def test_the_widget_takes_each_items_answer_as_its_kind_says() -> None:
    from chesskit.widgets.exercise_board import ExerciseBoard  # noqa: PLC0415 (anywidget: this test only)

    seen = {(ex.kind, str(ex.data.get("mode"))): ex for ex in catalog.bank()}
    for ex in seen.values():
        assert ExerciseBoard(exercise=ex, lang="en").board_input == ex.board_input(), ex.id


class BrokenKind(ColourKind):
    """A kind with a bug: its check and its verification read a field the item does not have."""

    name = "broken"

    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        if text == "x":
            raise ValueError("x is no colour")  # what an answer can cause
        return feedback(ex, "wrong", ex.data["missing"], text)

    def verify(self, ex: Exercise) -> list[Problem]:
        return [("answer", ex.data["missing"])]


def test_a_bug_in_a_kind_is_logged_and_reported_not_blamed_on_the_answer(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setitem(registry.KINDS, "broken", BrokenKind())
    ex = Exercise(id="98.20", lesson=98, kind="broken", data={"square": "e4"})  # type: ignore[arg-type]
    assert ex.check("x").code == "unparseable" and not caplog.records
    with caplog.at_level(logging.ERROR, logger="chesskit.exercises"):
        fb = ex.check("light", lang="en")
    assert (fb.correct, fb.code, fb.answer) == (False, "check_error", "light")
    assert fb.code in CODES and fb.message.startswith("Something went wrong while checking")
    [record] = caplog.records
    assert record.name == "chesskit.exercises" and "98.20" in record.getMessage()
    assert record.exc_info is not None and record.exc_info[0] is KeyError


def test_a_bug_in_a_kinds_verification_is_reported_for_that_item(
        monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setitem(registry.KINDS, "broken", BrokenKind())
    (tmp_path / "98-colours.toml").write_text(BANK.replace('"colour"', '"broken"'),
                                              encoding="utf-8")
    with caplog.at_level(logging.ERROR, logger="chesskit.exercises"):
        problems = catalog.check_bank([tmp_path / "98-colours.toml"])
    assert [(p.item, p.message) for p in problems] == [
        ("98.01", "cannot be checked (a bug: KeyError: 'missing')"),
        ("98.02", "cannot be checked (a bug: KeyError: 'missing')")]
    assert len(caplog.records) == 2 and caplog.records[0].exc_info is not None
