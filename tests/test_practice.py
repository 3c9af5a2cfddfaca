"""ck.practice and ck.learner_model: the level, the lessons reached, skills, retries."""

from __future__ import annotations

import random
import statistics
from pathlib import Path

import pytest

import chesskit as ck
from chesskit.learner import record_attempt, store
from chesskit.learner.estimates import estimate
from chesskit.learner.model import Attempt, State, add
from chesskit.learner.selection import choose
from chesskit.learner.skills import SKILLS, bank_skills, find_skill, skills_of


@pytest.fixture(autouse=True)
def own_store(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CHESSKIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("CHESSKIT_RECORD", raising=False)
    monkeypatch.setattr(store, "_notes", [])
    monkeypatch.setattr(store, "_checked", set())
    store.forget_folder()


def test_every_exercise_but_the_course_ones_has_a_known_skill() -> None:
    skills = bank_skills()
    assert all(set(found) <= set(SKILLS) for found in skills.values())
    assert [ex for ex in skills if not skills[ex]] == [
        ex.id for ex in ck.bank() if ex.topic in ("course", "minigame")]
    assert skills_of(ck.exercise("23.01"))[0] == "fork"
    assert find_skill("Forks") == find_skill("捉双") == "fork"


def test_practice_stays_in_the_lessons_reached_unless_asked() -> None:
    first = ck.practice()
    assert first.lesson == 0 and isinstance(first, ck.Exercise)
    record_attempt("03.01", correct=True, code="correct", answer="x", lesson=3, difficulty=400)
    assert all(ck.practice().lesson <= 3 for _ in range(3))
    assert ck.practice(upto=12).lesson <= 12
    assert "fork" in bank_skills()[ck.practice(skill="fork").id]  # asked for by name


def test_an_unknown_skill_gets_a_sentence_and_an_exercise(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert isinstance(ck.practice(skill="chess"), ck.Exercise)
    assert 'There is no skill called "chess"' in capsys.readouterr().out


def test_the_rating_never_moves_on_a_retry() -> None:
    record_attempt("06.01", correct=False, code="wrong", answer="Ka1", lesson=6, difficulty=399)
    after_first = ck.learner_model()
    for n in range(5):
        record_attempt("06.01", correct=n % 2 == 0, code="correct" if n % 2 == 0 else "wrong",
                       answer="x", lesson=6, difficulty=399)
        model = ck.learner_model()
        assert (model.rating, model.rd) == (after_first.rating, after_first.rd)
    assert model.first_tries == 1 and model.answers == 6 and model.reach == 6
    assert set(model.mastery) <= set(SKILLS) and all(0 <= m <= 1 for m in model.mastery.values())


def test_simulated_learners_are_measured_and_practise_at_their_level() -> None:
    """A small run of the benchmark's learners (the pure functions, no store)."""
    skills = bank_skills()
    rng = random.Random(3)
    abilities, estimates, outcomes = [], [], []
    for _ in range(10):
        ability, state, now = rng.uniform(400, 1200), State(), 0.0
        for n in range(40):
            ex = choose(state, now=now, upto=29)
            p = 1 / (1 + 10 ** ((ex.difficulty - ability) / 400))
            correct = rng.random() < p
            if n >= 20:
                outcomes.append(correct)
            state.seq += 1
            add(state, Attempt(ex.id, ex.lesson, ex.difficulty, correct,
                               "correct" if correct else "wrong", "", now))
            now += 600
        abilities.append(ability)
        estimates.append(state.rating.rating)
        assert all(state.first[e][2] >= 0 for e in state.first) and skills
    assert statistics.correlation(abilities, estimates) > 0.8
    assert 0.6 < sum(outcomes) / len(outcomes) < 0.9


def test_the_practise_button_shows_an_exercise_of_the_lessons_reached_on_each_click(
        capsys: pytest.CaptureFixture[str]) -> None:
    panel = ck.practice_button(upto=3, lang="en")
    button = panel.children[0]
    assert button.description == "Practise"
    for _ in range(2):
        button.click()
    shown = capsys.readouterr().out
    picked = ck.practice(upto=3)
    assert picked.lesson <= 3 and shown.count(picked.id) == 2, shown


def _planted_learner(weak: str, ability: float, seed: int, answers: int) -> State:
    """A simulated learner 400 points weaker at ``weak``, answering what practice chooses."""
    skills = bank_skills()
    rng, state, now = random.Random(seed), State(), 0.0
    for _ in range(answers):
        ex = choose(state, now=now, upto=29)
        level = ability - (400 if weak in skills[ex.id] else 0)
        correct = rng.random() < 1 / (1 + 10 ** ((ex.difficulty - level) / 400))
        state.seq += 1
        add(state, Attempt(ex.id, ex.lesson, ex.difficulty, correct,
                           "correct" if correct else "wrong", "", now))
        now += 600
    return state


@pytest.mark.parametrize(("weak", "ability"), [("fork", 1000), ("mate_in_1", 900)])
def test_a_planted_weak_skill_is_named_after_60_answers(weak: str, ability: float) -> None:
    """A skill with exercises at the learner's level, 400 points weaker: after 60 answers
    it is among the model's two weakest for most of twelve learners (a sample: 19 and 27 of
    30 such learners, before and after the probes of issue 23, so a few of twelve miss)."""
    missed = []
    for seed in range(12):
        model = estimate(_planted_learner(weak, ability, seed, 60), now=60 * 600.0)
        if weak not in model.weak_skills[:2]:
            missed.append((seed, model.weak_skills[:3], model.tries.get(weak)))
    assert len(missed) <= 6, missed


def test_a_beginner_weak_at_bishops_is_told_so_though_the_bank_is_above_them() -> None:
    """A learner at 400 (the bank's pieces start at 400-450, so no bishop exercise is near
    3 in 4): probes still reach the bishop, and after 40 answers it is among the two weakest
    skills for at least 3 of 4 such learners (before issue 23's probes: 0 of 4, tried once)."""
    found = []
    for seed in range(4):
        model = estimate(_planted_learner("bishop", 400, seed, 40), now=40 * 600.0)
        found.append(("bishop" in model.weak_skills[:2], model.weak_skills[:3],
                      model.tries.get("bishop")))
    assert sum(hit for hit, _, _ in found) >= 3, found


def test_a_retry_when_due_counts_for_the_skill_but_never_moves_the_rating() -> None:
    state = State()
    add(state, Attempt("23.01", 23, 900, False, "wrong", "Nc3", 0.0))
    first = (state.rating.rating, state.rating.rd)
    due = state.reviews["23.01"][1]
    for n, hints in enumerate((0, 1, 0)):
        add(state, Attempt("23.01", 23, 900, True, "correct", "Nf7+", due + n, hints=hints))
        assert (state.rating.rating, state.rating.rd) == first
    assert len(state.checks["23.01"]) == 2  # the first try and the review that was due
    assert estimate(state, now=due).tries["fork"] == 2
