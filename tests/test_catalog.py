"""chesskit.exercises.catalog: loading the bank, broken files, check-bank."""

from __future__ import annotations

import pathlib

import pytest

from chesskit.errors import BankError
from chesskit.exercises import Exercise, catalog
from chesskit.exercises.move import topic_problems

DATA = pathlib.Path(__file__).parent / "data"


def test_exercise_and_bank() -> None:
    first = next(catalog.bank())
    assert isinstance(first, Exercise)
    assert catalog.exercise(first.id) is first
    ids = [ex.id for ex in catalog.bank()]
    assert ids == sorted(ids) and len(ids) == len(set(ids))
    lesson = first.lesson
    assert all(ex.lesson == lesson for ex in catalog.bank(lesson=lesson))
    assert all(ex.kind == "move" for ex in catalog.bank(kind="move"))
    assert all(ex.topic == first.topic for ex in catalog.bank(topic=first.topic))


def test_unknown_id() -> None:
    with pytest.raises(BankError, match="no exercise '99.99'"):
        catalog.exercise("99.99")


def test_lessons() -> None:
    infos = catalog.lessons()
    assert infos == sorted(infos) and all(info.slug for info in infos)
    assert {"en", "zh"} <= set(infos[0].title)


@pytest.mark.parametrize(("name", "field"), [
    ("broken-fen", "fen"), ("broken-kind", "kind"), ("broken-goal", "goal"),
    ("broken-missing", "topic"), ("broken-duplicate", "id"),
])
def test_broken_files_name_file_item_field(name: str, field: str) -> None:
    problems = catalog.check_bank([DATA / f"{name}.toml"])
    assert problems
    text = str(problems[-1])
    assert text.startswith(f"data/{name}.toml: item 98.01: field {field}: "), text
    with pytest.raises(BankError, match=f"data/{name}.toml: item 98.01: field {field}"):
        catalog._loaded(DATA / f"{name}.toml")


def test_unverified_items() -> None:
    problems = {(p.item, p.field) for p in catalog.check_bank([DATA / "broken-unverified.toml"])}
    assert ("98.01", "goal") in problems  # no fork there
    assert ("98.02", "mate_in") in problems  # a shorter mate exists
    assert ("98.03", "answer") in problems  # it is stalemate
    assert ("97.04", "id") in problems  # id of another lesson
    assert ("98.06", "last_move") in problems  # the king on g8 cannot have come from e8
    if catalog._lichess():
        assert ("98.05", "fen") in problems
        assert ("98.07", "last_move") in problems  # the puzzle's first move is e3f4


def test_a_last_move_is_said_and_marked() -> None:
    """A lesson 32 item knows the capture just played: the prompt says it, the board marks it,
    and ``motifs`` names the answer an in-between move with it."""
    ex = catalog.exercise("32.01")
    assert ex.last_move == "g5d8" and catalog._last_move_problems(ex) == []
    assert ex.prompt_text(lang="en").startswith("White has just taken on d8 with the bishop. ")
    assert ex.prompt_text(lang="zh-Hans").startswith("白方刚用象在d8吃了子。")
    assert 'class="lastmove' in ex.board_svg()
    assert topic_problems(ex, ex.solutions()) == []


def test_good_file_passes() -> None:
    assert catalog.check_bank([DATA / "98-good.toml"]) == []


def test_check_bank_main(capsys: pytest.CaptureFixture[str]) -> None:
    assert catalog.check_bank_main(["--file", str(DATA / "98-good.toml")]) == 0
    assert capsys.readouterr().out == "2 items checked, 0 problems\n"
    assert catalog.check_bank_main(["--file", str(DATA / "broken-goal.toml")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("data/broken-goal.toml: item 98.01: field goal: unknown goal")
    assert out[-1] == "1 items checked, 1 problems"


@pytest.mark.slow
def test_whole_bank_is_valid() -> None:
    assert [str(p) for p in catalog.check_bank()] == []


@pytest.mark.slow
def test_every_listed_solution_is_accepted() -> None:
    wrong = [(ex.id, answer) for ex in catalog.bank() for answer in ex.solutions()
             if not ex.check(answer).correct]
    assert wrong == []
