"""The next exercise for this learner: about 3 in 4 solved, reviews, weak skills, new items.

Only lessons already reached (the highest lesson answered in) are used, unless ``upto`` asks
for more; ``skill`` practises one skill (from any lesson when none reached has it). The choice
is a pure function of the learner model, so the same store gives the same exercise.

>>> from chesskit.learner.model import State
>>> choose(State(), now=0.0).lesson
0
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence

from chesskit.exercises import Exercise
from chesskit.i18n import join_words, t
from chesskit.learner import store
from chesskit.learner.estimates import LOGIT, LearnerModel, estimate
from chesskit.learner.model import State
from chesskit.learner.skills import SKILLS, bank_skills, find_skill, skill_name

TARGET = 0.75
"""The chance of success practice aims at (Math Garden's 0.75)."""
REVIEW_SHARE = 0.3
WEAK_SHARE = 0.3
WEAK_SKILLS = 2
JITTER = 0.08


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
    from chesskit.exercises import catalog

    limit = model.reach if upto is None else upto
    practised = [ex for ex in catalog.bank() if skills.get(ex.id)]
    if skill is not None:
        practised = [ex for ex in practised if skill in skills[ex.id]]
        reached = [ex for ex in practised if ex.lesson <= limit]
        return reached or practised  # a skill asked for by name, even from a later lesson
    return [ex for ex in practised if ex.lesson <= limit]


def choose(state: State, *, now: float, upto: int | None = None,
           skill: str | None = None) -> Exercise:
    """The next exercise for the model ``state`` at time ``now`` (see the module)."""
    skills = bank_skills()
    model = estimate(state, now=now, skills=skills)
    scope = _scope(model, skills, upto=upto, skill=skill)
    due = set(model.due)
    new = [ex for ex in scope if ex.id not in state.first]
    review = [ex for ex in scope if ex.id in due]
    weak = set(model.weak_skills[:WEAK_SKILLS]) if skill is None else set()
    weak_items = [ex for ex in new + review if weak & set(skills[ex.id])]
    rng = random.Random(f"{state.seq}:{state.answers}:{upto}:{skill}")
    draw = rng.random()
    if review and draw < REVIEW_SHARE:
        pools = [review, weak_items, new]
    elif weak_items and draw < REVIEW_SHARE + WEAK_SHARE:
        pools = [weak_items, new, review]
    else:
        pools = [new, review, weak_items]
    pool = next((p for p in pools if p), None)
    if pool is None:  # every exercise in reach is tried and none is due: the soonest due
        waiting = [ex for ex in scope if ex.id in state.reviews]
        if waiting:
            return min(waiting, key=lambda ex: state.reviews[ex.id][1])
        pool = scope or list(_scope(model, skills, upto=None, skill=None))
    return min(pool, key=lambda ex: abs(expected_success(model, ex, skills[ex.id]) - TARGET)
               + JITTER * rng.random())


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
