"""A student's own record: attempts, review schedule, Elo practice rating."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import _teacher_fakes
import pytest

from chesskit import learner
from chesskit.learner import Attempt

DAY = 86400.0


@pytest.fixture(autouse=True)
def setup(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _teacher_fakes.install(monkeypatch)
    monkeypatch.setenv("CHESSKIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("CHESSKIT_RECORD", raising=False)


def test_recording_can_be_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHESSKIT_RECORD", "0")
    learner.record_attempt("01.01", correct=True)
    assert learner.attempts() == []
    monkeypatch.setenv("CHESSKIT_RECORD", "1")
    assert learner.attempts() == []


def test_answer_checks_records_and_skips_empty() -> None:
    assert learner.answer("01.01", "Ra8#").correct
    assert learner.answer("01.01", "Ra7").code == "wrong"
    assert learner.answer("01.02", "").code == "empty"
    assert [(a.exercise_id, a.correct, a.difficulty) for a in learner.attempts()] == [
        ("01.01", True, 700), ("01.01", False, 700)]


def test_unknown_exercise_gets_a_sentence() -> None:
    feedback = learner.answer("99.99", "e4")
    assert feedback.code == "unknown_exercise" and "99.99" in feedback.message
    zh = learner.answer(None, "e4")  # type: ignore[arg-type]
    assert not zh.correct
    assert learner.attempts() == []


def test_data_dir_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CHESSKIT_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert learner.data_dir() == tmp_path / "xdg" / "chesskit"


def _a(exercise_id: str, correct: bool, day: float, difficulty: int = 800) -> Attempt:
    return Attempt(exercise_id, 1, difficulty, correct, "", "", day * DAY)


def test_review_comes_back_after_1_3_7_days() -> None:
    history = [_a("01.01", False, 0)]
    assert learner.review_schedule(history) == {"01.01": 1 * DAY}
    history.append(_a("01.01", True, 1))
    assert learner.review_schedule(history) == {"01.01": 4 * DAY}
    history.append(_a("01.01", True, 4))
    assert learner.review_schedule(history) == {"01.01": 11 * DAY}
    history.append(_a("01.01", True, 11))
    assert learner.review_schedule(history) == {}
    assert learner.review_schedule([_a("01.02", True, 0)]) == {}


def test_elo_rule() -> None:
    # equal opponent: We = 0.5, K = 25 -> +12.5
    assert learner.practice_rating([_a("01.01", True, 0)]) == 812
    assert learner.practice_rating([_a("01.01", False, 0)]) == 788
    # a repeated exercise is rated once
    assert learner.practice_rating([_a("01.01", True, 0), _a("01.01", True, 1)]) == 812
    # after 30 exercises K drops to 15
    thirty = [_a(f"{i:02d}.01", True, i, difficulty=10_000) for i in range(30)]
    assert learner.practice_rating(thirty) == 800 + 30 * 25
    assert learner.practice_rating([*thirty, _a("99.01", True, 31, difficulty=10_000)]) == 1565


def test_progress_display(monkeypatch: pytest.MonkeyPatch) -> None:
    history = [_a("01.01", True, 0), _a("02.01", False, 0)]
    shown = learner.summarize(history, now=0.5 * DAY, lang="en")
    assert [(p.title, p.solved, p.total) for p in shown.lessons] == [
        ("Lesson 1: Mate in one", 1, 3), ("Lesson 2: Forks", 0, 2)]
    assert shown.review == (("02.01", 1),)
    assert "Exercise 02.01 comes back tomorrow." in str(shown)
    assert "<svg" in shown._repr_html_()
    zh = learner.summarize(history, now=2 * DAY, lang="zh-Hans")
    assert "今天再试试这些题：02.01。" in str(zh) and "第1课：一步杀" in str(zh)
    assert learner.progress(lang="en").attempts == 0


def test_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    learner.answer("01.01", "Ra8#")
    assert learner.progress_main(["--export", str(tmp_path / "me.json")]) == 0
    data = json.loads((tmp_path / "me.json").read_text(encoding="utf-8"))
    assert data["rating"] == 809 and data["attempts"][0]["exercise_id"] == "01.01"
    assert learner.progress_main([]) == 0
    assert "practice rating is 809" in capsys.readouterr().out


WRITER = """
import sys
from chesskit import learner
for i in range(40):
    learner.record_attempt(f"01.{i:02d}", correct=i % 2 == 0, code="x", answer=sys.argv[1])
"""


def test_three_kernels_write_at_once(tmp_path: Path) -> None:
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(n)]) for n in range(3)]
    assert [p.wait(timeout=60) for p in procs] == [0, 0, 0]
    history = learner.attempts()
    assert len(history) == 120
    assert sorted({a.answer for a in history}) == ["0", "1", "2"]
