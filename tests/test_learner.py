"""A student's own record: attempts, review schedule, Elo practice rating."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import tempfile
import time
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
    monkeypatch.setattr(learner, "_notes", [])
    monkeypatch.setattr(learner, "_waiting", [])
    monkeypatch.setattr(learner, "BUSY_SECONDS", 0.3)
    learner._folder_for.cache_clear()


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
    assert learner.data_dir() == tmp_path / "data"
    monkeypatch.delenv("CHESSKIT_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert learner.data_dir() == tmp_path / "xdg" / "chesskit"


def test_data_dir_in_the_browser(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert learner.data_dir() == tmp_path / "data"  # CHESSKIT_DATA_DIR first
    monkeypatch.delenv("CHESSKIT_DATA_DIR")
    monkeypatch.setattr(learner, "BROWSER_DRIVE", tmp_path / "drive")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert learner.data_dir() == tmp_path / "home" / ".chesskit"  # no drive mounted
    (tmp_path / "drive").mkdir()
    assert learner.data_dir() == tmp_path / "drive" / ".chesskit"


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
    assert "Exercises to try again:\n- Tomorrow: 02.01" in str(shown)
    page = shown._repr_html_()
    assert '<progress value="1" max="3"' in page and "<li>Tomorrow: 02.01</li>" in page
    assert "#b42318" not in page and "red" not in page
    zh = learner.summarize(history, now=2 * DAY, lang="zh-Hans")
    assert "要再试一次的练习：\n- 今天：02.01" in str(zh) and "第1课：一步杀" in str(zh)
    assert learner.progress(lang="en").attempts == 0
    assert "You have not answered an exercise yet." in str(learner.progress(lang="en"))


def test_rating_explained_and_plurals_right() -> None:
    one = str(learner.summarize([_a("01.01", True, 0)], now=0, lang="en"))
    assert "Your practice rating is 812 after 1 answer.\nIt starts at 800, goes up" in one
    two = str(learner.summarize([_a("01.01", True, 0), _a("01.02", True, 0)], now=0, lang="en"))
    assert "after 2 answers." in two


def test_review_dates_are_a_short_list_by_day() -> None:
    missed = [_a(f"01.{n:02d}", False, 0) for n in range(1, 10)] + [_a("02.01", False, 2)]
    shown = learner.summarize(missed, now=1.5 * DAY, lang="en")
    review = str(shown).split("Exercises to try again:\n")[1].splitlines()
    assert review == ["- Today: 01.01, 01.02, 01.03, 01.04, 01.05, 01.06 and 3 more",
                      "- In 2 days: 02.01"]


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


def test_a_damaged_store_is_put_aside_and_a_new_one_started(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "progress.sqlite").write_bytes(b"this is not a database" * 100)
    assert learner.answer("01.01", "Ra8#").correct
    assert learner.answer("01.02", "Qh8#").correct
    said = capsys.readouterr().out
    assert said.count("Your progress file was damaged") == 1
    assert "kept as progress-damaged-1.sqlite" in said
    kept = (tmp_path / "data" / "progress-damaged-1.sqlite").read_bytes()
    assert kept.startswith(b"this is not a database")
    assert [a.exercise_id for a in learner.attempts()] == ["01.01", "01.02"]
    shown = str(learner.progress(lang="en"))
    assert shown.startswith("Your progress file was damaged") and "Traceback" not in shown
    assert learner.progress_main([]) == 0
    assert "Your progress file was damaged" in capsys.readouterr().out


def test_a_read_only_home_falls_back_and_says_where(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("a file where a folder should be", encoding="utf-8")
    monkeypatch.setenv("CHESSKIT_DATA_DIR", str(tmp_path / "file" / "data"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    assert learner.answer("01.01", "Ra8#").correct
    said = capsys.readouterr().out
    assert "cannot be saved in" in said and str(tmp_path / "tmp") in said
    assert [a.exercise_id for a in learner.attempts()] == ["01.01"]
    assert list((tmp_path / "tmp").glob("chesskit-*/progress.sqlite"))


def test_nowhere_to_write_keeps_answers_in_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(learner, "_writable", lambda folder: False)
    learner.answer("01.01", "Ra8#")
    assert [a.exercise_id for a in learner.attempts()] == ["01.01"]
    assert "kept only until you close this notebook" in learner.progress(lang="en").notes[0]


LOCKER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()
db.execute("COMMIT")
"""


def test_a_locked_store_waits_briefly_then_keeps_the_attempt_aside(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    learner.record_attempt("01.01", correct=True, code="correct", answer="Ra8#")
    store = tmp_path / "data" / "progress.sqlite"
    locker = subprocess.Popen([sys.executable, "-c", LOCKER, str(store)], text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert locker.stdout is not None and locker.stdout.readline().strip() == "locked"
        started = time.monotonic()
        feedback = learner.answer("01.02", "Qh8#")
        assert feedback.correct and time.monotonic() - started < 30
        assert "Another notebook is using your progress file" in capsys.readouterr().out
        side = tmp_path / "data" / "progress-pending.jsonl"
        assert json.loads(side.read_text(encoding="utf-8"))["exercise_id"] == "01.02"
        assert [a.exercise_id for a in learner.attempts()] == ["01.01", "01.02"]
    finally:
        locker.communicate("go\n", timeout=60)
    learner.record_attempt("01.03", correct=False, code="wrong", answer="e4")
    assert not (tmp_path / "data" / "progress-pending.jsonl").exists()
    assert [a.exercise_id for a in learner.attempts()] == ["01.01", "01.02", "01.03"]


def test_a_store_locked_while_reading_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    learner.record_attempt("01.01", correct=True, code="correct", answer="Ra8#")

    def locked(folder: Path) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(learner, "_open", locked)
    shown = learner.progress(lang="en")
    assert shown.attempts == 0 and "only part of your answers" in shown.notes[0]


def test_forgotten_quotes_are_explained_in_ipython(capsys: pytest.CaptureFixture[str]) -> None:
    shell_module = pytest.importorskip("IPython.core.interactiveshell")
    shell = shell_module.InteractiveShell.instance()
    try:
        assert learner.install_answer_hint(shell)
        shell.user_ns["ck"] = learner
        shell.run_cell('ck.answer("01.01", Ra8)')
        out = capsys.readouterr().out
        assert out.strip() == 'Put your answer in quotes: ck.answer("01.01", "Ra8").'
        shell.run_cell("ck.answer('01.01', 'Ra8#')\nundefined_name + 1")
        assert "NameError" in capsys.readouterr().out
        shell.run_cell("ckk.answer('01.01', 'Ra8#')")
        assert "NameError" in capsys.readouterr().out
    finally:
        shell.set_custom_exc((), None)
        shell_module.InteractiveShell.clear_instance()
