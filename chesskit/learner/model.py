"""The learner model: a Glicko-2 rating, each exercise's first try, and spaced review.

It is a fold over the attempts, oldest first (:func:`fold`), so the store can keep it as a
checkpoint and add each new attempt in a few microseconds. Only the FIRST rated try at an
exercise moves the rating (a retry never does); a success after hints or after "Show solution"
counts less, as Lichess weighs puzzles whose theme gives the answer away. Every tried exercise
comes back for review after 4 h, 1 d, 3 d, 1 w, 2 w, 1 m, 3 m, 6 m (Chessable's steps); a miss
sends it back to the start.

>>> state = fold(State(), [Attempt("01.01", 1, 800, True, "correct", "Ra8#", 0.0)])
>>> round(state.rating.rating), state.reviews["01.01"]
(975, (0, 14400.0))
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from chesskit.rules.ratings import Game, Glicko, glicko2

START_RATING = 800
START_RD = 350.0
MIN_RD = 80.0
"""The learner's RD never falls below this: a child learns fast, so the rating keeps moving."""
ITEM_RD = 75.0
"""The uncertainty of an exercise's rating (Lichess puzzles of the sample have RD 75-100)."""
RATED_CODES = frozenset({"correct", "wrong", "illegal"})
"""The answers that are a try; a typo (``unparseable``), an empty or unfinished answer is not."""
HOUR = 3600.0
DAY = 86400.0
REVIEW_STEPS = tuple(s * HOUR for s in (4, 24, 72, 168, 336, 720, 2160, 4320))
"""4 h, 1 d, 3 d, 1 w, 2 w, 1 m, 3 m, 6 m."""
TREND_DAYS = 30
CHECKS_KEPT = 4
VERSION = 2


@dataclass(frozen=True)
class Attempt:
    """One recorded answer; ``at`` is seconds since the epoch; ``hints`` how many hints were
    shown before it and ``shown`` whether "Show solution" was."""

    exercise_id: str
    lesson: int | None
    difficulty: int | None
    correct: bool
    code: str
    answer: str
    at: float
    hints: int = 0
    shown: bool = False


def success_weight(attempt: Attempt) -> float:
    """How much a try counts: a miss 1; a success 1, 0.5 after one hint, 0.25 after more,
    0.1 after "Show solution" (Lichess's weight for a win on a theme that gives it away).

    >>> success_weight(Attempt("01.01", 1, 800, True, "correct", "Ra8#", 0.0, hints=1))
    0.5
    """
    if not attempt.correct:
        return 1.0
    if attempt.shown:
        return 0.1
    return (1.0, 0.5)[attempt.hints] if attempt.hints < 2 else 0.25


@dataclass
class State:
    """The learner model as the store keeps it (see :func:`fold`)."""

    rating: Glicko = field(default_factory=lambda: Glicko(START_RATING, START_RD))
    first: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    """exercise id -> (score, weight, difficulty, at) of its first rated try."""
    reviews: dict[str, tuple[int, float]] = field(default_factory=dict)
    """exercise id -> (step of REVIEW_STEPS, due time); gone once the last step is passed."""
    checks: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    """exercise id -> (score, weight) of its first try and of each review when it was due,
    the last CHECKS_KEPT: what the skills' mastery is measured from."""
    solved: set[str] = field(default_factory=set)
    trend: list[tuple[int, float]] = field(default_factory=list)
    """(day number, rating at the end of that day), the last TREND_DAYS days with tries."""
    answers: int = 0
    reach: int = 0
    """The highest lesson answered in."""
    seq: int = 0
    """The last attempt of the store folded in."""

    def to_json(self) -> str:
        r = self.rating
        return json.dumps({"version": VERSION, "rating": [r.rating, r.rd, r.volatility],
                           "first": self.first, "reviews": self.reviews, "checks": self.checks,
                           "solved": sorted(self.solved), "trend": self.trend,
                           "answers": self.answers, "reach": self.reach, "seq": self.seq},
                          separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> State | None:
        """The state, or None when the text is not one of this version (it is rebuilt)."""
        try:
            d = json.loads(text)
            if d.get("version") != VERSION:
                return None
            return cls(Glicko(*d["rating"]), {k: tuple(v) for k, v in d["first"].items()},
                       {k: (int(v[0]), float(v[1])) for k, v in d["reviews"].items()},
                       {k: [(float(a), float(b)) for a, b in v] for k, v in d["checks"].items()},
                       set(d["solved"]), [(int(a), float(b)) for a, b in d["trend"]],
                       int(d["answers"]), int(d["reach"]), int(d["seq"]))
        except (ValueError, TypeError, KeyError, AttributeError):
            return None


def _review(state: State, attempt: Attempt, *, first: bool) -> None:
    """Schedule the next review: a miss starts again at 4 h; a success when due (or the first
    try) moves one step on; after the 6 months' step the exercise is done."""
    key = attempt.exercise_id
    if not attempt.correct or attempt.shown:
        state.reviews[key] = (0, attempt.at + REVIEW_STEPS[0])
    elif key not in state.reviews:
        if first:
            state.reviews[key] = (0, attempt.at + REVIEW_STEPS[0])
    elif attempt.at >= state.reviews[key][1]:
        step = state.reviews[key][0] + 1
        if step >= len(REVIEW_STEPS):
            del state.reviews[key]
        else:
            state.reviews[key] = (step, attempt.at + REVIEW_STEPS[step])


def add(state: State, attempt: Attempt) -> None:
    """Fold one attempt into ``state`` (in place)."""
    state.answers += 1
    if attempt.lesson is not None:
        state.reach = max(state.reach, attempt.lesson)
    if attempt.code not in RATED_CODES:
        return
    if attempt.correct:
        state.solved.add(attempt.exercise_id)
    first = attempt.exercise_id not in state.first
    review = state.reviews.get(attempt.exercise_id)
    if first or (review is not None and attempt.at >= review[1]):
        checks = state.checks.setdefault(attempt.exercise_id, [])
        checks[:] = [*checks, (float(attempt.correct), success_weight(attempt))][-CHECKS_KEPT:]
    if first:
        weight = success_weight(attempt)
        difficulty = float(attempt.difficulty) if attempt.difficulty is not None else -1.0
        state.first[attempt.exercise_id] = (float(attempt.correct), weight, difficulty,
                                            attempt.at)
        if attempt.difficulty is not None:
            after = glicko2(state.rating, [Game(difficulty, ITEM_RD, float(attempt.correct),
                                                weight)])
            state.rating = replace(after, rd=max(after.rd, MIN_RD))
            day = int(attempt.at // DAY)
            if state.trend and state.trend[-1][0] == day:
                state.trend[-1] = (day, state.rating.rating)
            else:
                state.trend = [*state.trend, (day, state.rating.rating)][-TREND_DAYS:]
    _review(state, attempt, first=first)


def fold(state: State, history: Iterable[Attempt]) -> State:
    """``state`` with every attempt of ``history`` added, oldest first (in place)."""
    for attempt in history:
        add(state, attempt)
    return state
