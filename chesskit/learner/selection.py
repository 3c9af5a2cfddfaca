"""The next exercise for this learner: about 3 in 4 solved, reviews, weak skills, new items.

Only lessons already reached (the highest lesson answered in) are used, unless ``upto`` asks
for more; ``skill`` practises one skill (from any lesson when none reached has it). The choice
is a pure function of the learner model, so the same store gives the same exercise.

>>> from chesskit.learner.model import State
>>> choose(State(), now=0.0).lesson
0
"""

from __future__ import annotations

import heapq
import math
import random
import time
from collections.abc import Mapping, Sequence

from chesskit.exercises import Exercise, catalog
from chesskit.i18n import join_words, t
from chesskit.learner import store
from chesskit.learner.estimates import LOGIT, UNTRIED_SPREAD, LearnerModel, estimate
from chesskit.learner.model import State
from chesskit.learner.skills import SKILLS, bank_skills, find_skill, skill_name

TARGET = 0.75
"""The chance of success practice aims at (Math Garden's 0.75)."""
REVIEW_SHARE = 0.2
PROBE_SHARE = 0.4
DOUBT = 2.0
"""Probing picks the skill whose offset could be lowest: mean minus DOUBT standard errors."""
JITTER = 0.05
NEAR = 0.2
"""A skill's best new exercise is near the target when its chance is within this of it."""
PROBE_FLOOR = 0.3
"""A skill without an exercise near the target is still probed (with its exercise nearest the
target) when the learner, were they not weak there, would solve that one with at least this
chance: a beginner below the bank's easiest exercises gets every skill tried, not only the
board."""
PROBE_CAP = 6
"""A skill tried this often is probed no more (while another can be): a weak skill is named
by then, and more probes of it would only cost successes the others need to be measured."""
RECENT = 10
GAIN = 1.0
AIM_MAX = 0.9
"""When the last RECENT first tries were solved less often than TARGET, the exercises that are
not probes aim GAIN times the shortfall higher (at most AIM_MAX): probes of a doubtful skill
fail more, so the rest is a little easier and practice stays about 3 in 4 solved."""


def expected_success(model: LearnerModel, exercise: Exercise,
                     skills: Sequence[str] = ()) -> float:
    """The model's chance that the learner solves ``exercise`` (its skills' mean offset).

    >>> from chesskit.learner.model import State
    >>> round(expected_success(estimate(State(), now=0, skills={}),
    ...                        Exercise(id="x", lesson=1, kind="square", difficulty=800,
    ...                                 data={"mode": "name", "square": "e4"})), 2)
    0.5
    """
    offset = sum(model.offsets.get(s, 0.0) for s in skills) / len(skills) if skills else 0.0
    return 1 / (1 + math.exp(-(model.rating + offset - exercise.difficulty) * LOGIT))


def _scope(model: LearnerModel, skills: Mapping[str, tuple[str, ...]], *, upto: int | None,
           skill: str | None) -> list[Exercise]:
    limit = model.reach if upto is None else upto
    practised = [ex for ex in catalog.bank() if skills.get(ex.id)]
    if skill is not None:
        practised = [ex for ex in practised if skill in skills[ex.id]]
        reached = [ex for ex in practised if ex.lesson <= limit]
        return reached or practised  # a skill asked for by name, even from a later lesson
    return [ex for ex in practised if ex.lesson <= limit]


def _fit(model: LearnerModel, ex: Exercise, skills: Sequence[str], rng: random.Random,
         target: float = TARGET) -> float:
    """How far the exercise is from the target chance (a little jitter so ties vary)."""
    return abs(expected_success(model, ex, skills) - target) + JITTER * rng.random()


def _aim(state: State) -> float:
    """The chance the next exercise that is not a probe aims at: TARGET, or higher when the
    last RECENT first tries were solved less often (see AIM_MAX)."""
    recent = heapq.nlargest(RECENT, state.first.values(), key=lambda v: v[3])
    if len(recent) < RECENT:
        return TARGET
    rate = sum(v[0] for v in recent) / len(recent)
    return min(AIM_MAX, TARGET + GAIN * max(0.0, TARGET - rate))


def _bound(model: LearnerModel, skill: str, doubt: float = DOUBT) -> float:
    """The level the skill could have: its offset minus ``doubt`` standard errors."""
    return model.offsets.get(skill, 0.0) - doubt * model.spread.get(skill, UNTRIED_SPREAD)


def _chance(model: LearnerModel, ex: Exercise, offset: float) -> float:
    return 1 / (1 + math.exp(-(model.rating + offset - ex.difficulty) * LOGIT))


def _by_skill(model: LearnerModel, pool: list[Exercise], skills: Mapping[str, tuple[str, ...]],
              rng: random.Random, *, doubt: float = 0.0,
              target: float = TARGET) -> dict[str, tuple[float, Exercise]]:
    """Each skill's exercise nearest the target chance, for the skills that have one near;
    with ``doubt``, the chance if the skill were ``doubt`` standard errors weaker."""
    best: dict[str, tuple[float, Exercise]] = {}
    for ex in pool:
        jitter = JITTER * rng.random()
        for skill in skills[ex.id]:
            fit = abs(_chance(model, ex, _bound(model, skill, doubt)) - target) + jitter
            if fit < NEAR and (skill not in best or fit < best[skill][0]):
                best[skill] = (fit, ex)
    return best


def _boundary(model: LearnerModel, pool: list[Exercise],
              skills: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[float, Exercise]]:
    """Each skill's new exercise nearest the target at the level the skill could have (its
    offset minus DOUBT standard errors), however far, among the exercises the learner would
    solve with at least PROBE_FLOOR were they not weak there (for the skills ``_by_skill``
    finds none near)."""
    best: dict[str, tuple[float, Exercise]] = {}
    for ex in pool:
        plain = _chance(model, ex, 0.0)
        if plain < PROBE_FLOOR:
            continue
        for skill in skills[ex.id]:
            fit = abs(_chance(model, ex, _bound(model, skill)) - TARGET)
            if skill not in best or fit < best[skill][0]:
                best[skill] = (fit, ex)
    return best


def _probe(model: LearnerModel, best: dict[str, tuple[float, Exercise]]) -> Exercise:
    """An exercise of the skill that could be weakest: the lowest offset minus DOUBT standard
    errors (a skill little tried is doubted most, so every skill gets measured and a weak one
    keeps coming back, up to PROBE_CAP tries), at the level the skill would have if it were
    that weak."""
    doubtful = [s for s in best if model.tries.get(s, 0) < PROBE_CAP] or list(best)
    return best[min(doubtful, key=lambda skill: _bound(model, skill))][1]


def _interleave(model: LearnerModel, best: dict[str, tuple[float, Exercise]]) -> Exercise:
    """An exercise of the skill tried least (so the skills take turns)."""
    return best[min(best, key=lambda s: (model.tries.get(s, 0), best[s][0]))][1]


def choose(state: State, *, now: float, upto: int | None = None,
           skill: str | None = None) -> Exercise:
    """The next exercise for the model ``state`` at time ``now`` (see the module)."""
    skills = bank_skills()
    model = estimate(state, now=now, skills=skills)
    scope = _scope(model, skills, upto=upto, skill=skill)
    due = set(model.due)
    new = [ex for ex in scope if ex.id not in state.first]
    review = [ex for ex in scope if ex.id in due]
    rng = random.Random(f"{state.seq}:{state.answers}:{upto}:{skill}")
    draw = rng.random()
    aim = _aim(state)
    if review and draw < REVIEW_SHARE:
        return min(review, key=lambda ex: _fit(model, ex, skills[ex.id], rng, aim))
    best = _by_skill(model, new, skills, rng, target=aim) if skill is None else {}
    if skill is None and draw < REVIEW_SHARE + PROBE_SHARE:
        probes = {**_boundary(model, new, skills), **best,
                  **_by_skill(model, new, skills, rng, doubt=DOUBT)}
        if probes:
            return _probe(model, probes)
    if best:
        return _interleave(model, best)
    pool = new or review
    if not pool:  # every exercise in reach is tried and none is due: the soonest due
        waiting = [ex for ex in scope if ex.id in state.reviews]
        if waiting:
            return min(waiting, key=lambda ex: state.reviews[ex.id][1])
        pool = scope or list(_scope(model, skills, upto=None, skill=None))
    return min(pool, key=lambda ex: _fit(model, ex, skills[ex.id], rng, aim))


def practice(*, upto: int | None = None, skill: str | None = None,
             lang: str | None = None) -> Exercise:
    """The next exercise for you, at your level (about 3 in 4 solved): reviews that are due,
    your weakest skills, and new exercises from the lessons you have reached. It shows itself
    in a notebook; answer it with ``ck.answer`` or on its board. ``upto=12``: lessons 0-12;
    ``skill="fork"``: one skill (a name the child reads works too). Never raises.

    >>> practice().id  # doctest: +SKIP
    '01.07'
    """
    wanted = None
    if skill is not None:
        wanted = find_skill(str(skill))
        if wanted is None:
            names = [f"{s} ({skill_name(s, lang=lang)})" for s in SKILLS]
            print(t("learner.unknown_skill", lang=lang, skill=skill,
                    skills=join_words(names, lang=lang)))
    limit = upto if isinstance(upto, int) and not isinstance(upto, bool) else None
    return choose(store.model_state(), now=time.time(), upto=limit, skill=wanted)


def learner_model() -> LearnerModel:
    """Your learner model as data: rating and RD, each skill's mastery (0 to 1), weak skills,
    the exercises due for review, the rating's trend.

    >>> learner_model().rating  # doctest: +SKIP
    812
    """
    return estimate(store.model_state())
