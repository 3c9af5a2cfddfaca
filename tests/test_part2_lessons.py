"""Lessons 30-32 (decoy, deflection, removing the defender, interference, clearance, the
in-between move, zugzwang and the waiting move): every exercise's best answer is named by
:func:`chesskit.rules.tactics.motifs` with the tactic the item teaches, each tactic has its
twelve exercises, and the puzzles come from the tuning part of the packaged Lichess files only
(the sample, and the file of the second part's tactics)."""

from collections import Counter
from functools import cache

import chess
import pytest

from chesskit.exercises import Exercise
from chesskit.exercises.catalog import bank
from chesskit.rules.tactics import motifs
from tests._lichess import TACTICS, puzzle_part, sample

LESSONS = {30: ("decoy", "deflection"),
           31: ("removing_the_defender", "interference", "clearance"),
           32: ("in_between_move", "zugzwang")}
TOPICS = [topic for topics in LESSONS.values() for topic in topics]
ITEMS = [ex for lesson in LESSONS for ex in bank(lesson=lesson)]
BY_ID = {ex.id: ex for ex in ITEMS}


@cache
def _solutions(exercise_id: str) -> tuple[str, ...]:
    return tuple(BY_ID[exercise_id].solutions())


def _best(ex: Exercise) -> str:
    return _solutions(ex.id)[0].split()[0]


def test_twelve_exercises_a_tactic() -> None:
    counts = Counter(ex.topic for ex in ITEMS)
    assert set(counts) == set(TOPICS)
    assert all(counts[topic] >= 12 for topic in TOPICS), counts


@pytest.mark.parametrize("ex", ITEMS, ids=lambda ex: ex.id)
def test_the_best_answer_uses_the_tactic(ex: Exercise) -> None:
    """The first solution (the best) is tagged with the item's topic by the detector."""
    assert ex.topic in motifs(ex.fen, _best(ex)), (ex.id, _best(ex), ex.topic)


@pytest.mark.parametrize("ex", [ex for ex in ITEMS if ex.topic == "zugzwang"],
                         ids=lambda ex: ex.id)
def test_the_waiting_move_is_quiet(ex: Exercise) -> None:
    board = chess.Board(ex.fen)
    move = board.parse_san(_best(ex))
    assert not board.is_capture(move) and not board.gives_check(move)
    assert ex.goal == "win_material" and _solutions(ex.id) == (_best(ex),)


def test_puzzles_come_from_the_tuning_part() -> None:
    ratings = {row["PuzzleId"]: int(row["Rating"])
               for row in sample("tuning") + sample("tuning", name=TACTICS)}
    puzzles = [ex for ex in ITEMS if ex.source.startswith("lichess:")]
    assert puzzles
    for ex in puzzles:
        puzzle = ex.source.removeprefix("lichess:")
        assert puzzle_part(puzzle) == "tuning", ex.id
        assert ex.difficulty == ratings[puzzle], ex.id
