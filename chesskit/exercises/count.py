"""``count``: a number computed from the rules (legal moves, a piece's moves, material,
attackers) or from the rating rules (no board); answered with digits or Chinese numerals.

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=5, kind="count", fen="8/8/8/8/3N4/8/8/8 w - - 0 1",
...               data={"count": "piece_moves", "square": "d4"})
>>> ex.solutions(), ex.check("八").correct
(['8'], True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, get_args

import chess

from chesskit.exercises.answers import number_text, read_number
from chesskit.exercises.common import prompt_fields, squares_board
from chesskit.exercises.feedback import Feedback
from chesskit.exercises.protocol import (
    BoardInput,
    BoardMarks,
    CountName,
    Kind,
    Lang,
    Problem,
    feedback,
    field_square,
    praise,
    square_mark,
)
from chesskit.i18n import color_name, piece_on, t
from chesskit.rules import ratings, values

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise

COUNTS: tuple[CountName, ...] = get_args(CountName)
RATING_COUNTS = {"elo_change": 0.05, "expected_score": 0.01, "club_points": 0.05}
"""The counts about ratings (no board) and how far off an answer may be."""


def _attacker_color(ex: Exercise) -> chess.Color:
    if "color" in ex.data:
        return str(ex.data["color"]) == "white"
    color = ex.position.color_at(field_square(ex))
    return ex.position.turn if color is None else not color


def _rating_value(d: Mapping[str, Any]) -> float:
    if d["count"] == "elo_change":
        return ratings.rating_change(float(d["rating"]), float(d["opponent"]), float(d["score"]),
                                     games_played=int(d.get("games_played", 0)))
    if d["count"] == "expected_score":
        return round(ratings.expected_score(float(d["rating"]), float(d["opponent"])), 2)
    return ratings.club_points(float(d["winner_points"]), float(d["loser_points"]),
                               draw=bool(d.get("draw", False)))


def count_value(ex: Exercise) -> float:
    """The right number for a ``count`` item, computed from the rules (or the rating rule)."""
    what = ex.data["count"]
    if what in RATING_COUNTS:
        return _rating_value(ex.data)
    board = ex.position
    if what == "legal_moves":
        return board.legal_moves.count()
    if what == "material":
        return values.balance(board)
    if what == "attackers":
        return len(board.attackers(_attacker_color(ex), field_square(ex)))
    moved = squares_board(ex)
    return len({m.to_square for m in moved.legal_moves if m.from_square == field_square(ex)})


class CountKind(Kind):
    """A number to count or work out."""

    name = "count"
    required = ("count",)
    closed = {"count": COUNTS}

    def needs_fen(self, ex: Exercise) -> bool:
        return ex.data.get("count") not in RATING_COUNTS

    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        number = read_number(text)
        if number is None:
            return feedback(ex, "unparseable", t("exercises.number_unreadable", lang=lang), text)
        value = count_value(ex)
        shown = number_text(number)
        if abs(number - value) <= RATING_COUNTS.get(str(ex.data["count"]), 0) + 1e-9:
            return praise(ex, shown, lang)
        key = "count_high" if number > value else "count_low"
        if str(ex.data["count"]) in (*RATING_COUNTS, "material"):
            key = f"{key}_{ex.data['count']}"
        if key == "count_high_material" and value < 0:
            key += "_below_zero"  # "0 is too many" reads oddly when the answer is -1
        return feedback(ex, "wrong", t(f"exercises.{key}", lang=lang, n=shown), shown)

    def solutions(self, ex: Exercise) -> list[str]:
        return [number_text(count_value(ex))]

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        d = ex.data
        fields = prompt_fields(ex, lang)
        fields.update({k: d[k] for k in ("rating", "opponent", "score", "winner_points",
                                          "loser_points") if k in d})
        if d["count"] == "attackers":
            fields["side"] = color_name(_attacker_color(ex), lang=lang)
        return t(f"exercises.prompt_count_{d['count']}", lang=lang, **fields)

    def first_hint(self, ex: Exercise, lang: Lang) -> str:
        if ex.data.get("count") in RATING_COUNTS:
            return t("exercises.nudge_count_rating", lang=lang)
        return super().first_hint(ex, lang)

    def step_hint(self, ex: Exercise, lang: Lang) -> str:
        """What to count: one side or both, one piece or all (or the rule of a rating count)."""
        what = str(ex.data["count"])
        fields: dict[str, object] = {"side": ex.side(lang=lang)}
        if "square" in ex.data:
            fields["square"] = str(ex.data["square"]).lower()
            piece = ex.position.piece_type_at(field_square(ex))
            fields["piece"] = piece_on(piece or chess.PAWN, field_square(ex), lang=lang)
        if what == "attackers":
            fields["side"] = color_name(_attacker_color(ex), lang=lang)
        return t(f"exercises.hint_count_{what}", lang=lang, **fields)

    def board_input(self, ex: Exercise) -> BoardInput:
        return "number"

    def board_marks(self, ex: Exercise) -> BoardMarks:
        return square_mark(str(ex.data["square"])) if "square" in ex.data else BoardMarks()

    def verify(self, ex: Exercise) -> list[Problem]:
        problems = super().verify(ex)
        solutions = ex.solutions()
        if "answer" in ex.data and float(ex.data["answer"]) != float(solutions[0]):
            problems.append(("answer", f"the rules give {solutions[0]}, not {ex.data['answer']}"))
        return problems


KIND = CountKind()
