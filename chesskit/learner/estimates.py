"""What the learner model says: the rating, each skill's mastery, the weak skills, the reviews.

A skill's estimate is the learner's rating moved by how the first tries of that skill (and
the reviews when they were due) went against what the rating expected (a logistic fit with a
prior, so a skill tried once moves little); its mastery is the chance to solve a typical
exercise of the skill, between 0 and 1.

>>> from chesskit.learner.model import Attempt, State, fold
>>> model = estimate(fold(State(), [Attempt("01.01", 1, 800, True, "correct", "Ra8#", 0.0)]),
...                  now=0.0, skills={"01.01": ("mate_in_1",)})
>>> model.rating, model.due, 0.5 < model.mastery["mate_in_1"] < 1
(975, (), True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from chesskit.learner.model import DAY, State
from chesskit.learner.skills import SKILLS, bank_skills, typical_difficulties

LOGIT = math.log(10) / 400  # logistic units per rating point
PRIOR = 1.0
"""The prior's weight on a skill's offset: a skill tried once moves about half as far."""
UNTRIED_SPREAD = 1 / math.sqrt(PRIOR) / LOGIT
WEAK_MIN_TRIES = 2
WEAK_SHOWN = 8
NEWTON_STEPS = 3  # from 0, the fit moves less than a point after the third step


@dataclass(frozen=True)
class LearnerModel:
    """The learner model as data: rating and its uncertainty (RD), each tried skill's mastery
    (0 to 1), the weakest skills first, the exercises due for review now, the rating by day."""

    rating: int
    rd: int
    mastery: Mapping[str, float]
    weak_skills: tuple[str, ...]
    due: tuple[str, ...]
    trend: tuple[tuple[str, int], ...]
    tries: Mapping[str, int]
    """How many checks each skill has had (first tries, and reviews when due)."""
    offsets: Mapping[str, float]
    """Each tried skill's rating minus the learner's rating (negative: weaker)."""
    spread: Mapping[str, float]
    """The standard error of each tried skill's offset (an untried skill: UNTRIED_SPREAD)."""
    solved: frozenset[str]
    first_tries: int
    answers: int
    reach: int
    """The highest lesson the learner has answered in."""

    def skill_rating(self, skill: str) -> float:
        """The learner's rating on a skill (the rating when the skill is not tried yet)."""
        return self.rating + self.offsets.get(skill, 0.0)


def _offset(rating: float, tries: Mapping[tuple[float, float, float], int]
            ) -> tuple[float, float]:
    """The offset (rating points) that fits the (score, weight, difficulty) tries best, with a
    normal prior at 0 (Newton's method on the logistic likelihood), and its standard error;
    ``tries`` counts each distinct try, so the work grows with the distinct difficulties, not
    with the answers."""
    delta = 0.0
    curvature = PRIOR
    for _ in range(NEWTON_STEPS):
        gradient, curvature = -PRIOR * delta, PRIOR
        for (score, weight, difficulty), count in tries.items():
            p = 1 / (1 + math.exp(-((rating - difficulty) * LOGIT + delta)))
            gradient += count * weight * (score - p)
            curvature += count * weight * p * (1 - p)
        delta += gradient / curvature
    return delta / LOGIT, 1 / math.sqrt(curvature) / LOGIT


def estimate(state: State, *, now: float | None = None,
             skills: Mapping[str, tuple[str, ...]] | None = None) -> LearnerModel:
    """The learner model of ``state`` at time ``now`` (``skills``: exercise id -> skills,
    the bank's by default)."""
    now = time.time() if now is None else now
    skills = bank_skills() if skills is None else skills
    rating = state.rating.rating
    by_skill: dict[str, dict[tuple[float, float, float], int]] = {}
    for exercise_id, checks in state.checks.items():
        difficulty = state.first[exercise_id][2]
        if difficulty >= 0:
            for skill in skills.get(exercise_id, ()):
                tally = by_skill.setdefault(skill, {})
                for score, weight in checks:
                    key = (score, weight, difficulty)
                    tally[key] = tally.get(key, 0) + 1
    order = {skill: n for n, skill in enumerate(SKILLS)}
    tried = sorted(by_skill, key=lambda s: order.get(s, len(order)))
    fitted = {skill: _offset(rating, by_skill[skill]) for skill in tried}
    offsets = {skill: fitted[skill][0] for skill in tried}
    typical = typical_difficulties()
    mastery = {skill: 1 / (1 + math.exp(-(rating + offsets[skill] - typical.get(skill, 800.0))
                                         * LOGIT)) for skill in tried}
    tries = {skill: sum(by_skill[skill].values()) for skill in tried}
    weak = sorted((s for s in tried if tries[s] >= WEAK_MIN_TRIES and offsets[s] < 0),
                  key=lambda s: offsets[s])[:WEAK_SHOWN]
    due = tuple(e for e, (_, at) in sorted(state.reviews.items(), key=lambda kv: kv[1][1])
                if at <= now)
    trend = tuple((datetime.fromtimestamp(day * DAY, UTC).date().isoformat(), round(value))
                  for day, value in state.trend)
    return LearnerModel(round(rating), round(state.rating.rd), mastery, tuple(weak), due,
                        trend, tries, offsets,
                        {skill: fitted[skill][1] for skill in tried},
                        frozenset(state.solved), len(state.first), state.answers, state.reach)
