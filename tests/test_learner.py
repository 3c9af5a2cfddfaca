"""A student's own record: the store, ck.answer, the review schedule, the progress view."""

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
from chesskit.exercises import Exercise
from chesskit.learner import Attempt, store
from chesskit.learner.model import HOUR, REVIEW_STEPS, State, fold
from chesskit.widgets.exercise_board import ExerciseBoard

DAY = 86400.0


@pytest.fixture(autouse=True)
def setup(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _teacher_fakes.install(monkeypatch)
    monkeypatch.setenv("CHESSKIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("CHESSKIT_RECORD", raising=False)
    monkeypatch.setattr(store, "_notes", [])
    monkeypatch.setattr(store, "_waiting", [])
    monkeypatch.setattr(store, "BUSY_SECONDS", 0.3)
    monkeypatch.setattr(store, "_checked", set())
    store.forget_folder()


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
    monkeypatch.setattr(store, "BROWSER_DRIVE", tmp_path / "drive")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert learner.data_dir() == tmp_path / "home" / ".chesskit"  # no drive mounted
    (tmp_path / "drive").mkdir()
    assert learner.data_dir() == tmp_path / "drive" / ".chesskit"


def _a(exercise_id: str, correct: bool, day: float, difficulty: int = 800) -> Attempt:
    return Attempt(exercise_id, 1, difficulty, correct, "correct" if correct else "wrong", "",
                   day * DAY)


def _reviews(history: list[Attempt]) -> dict[str, tuple[int, float]]:
    return fold(State(), history).reviews


def test_review_steps_grow_and_a_miss_starts_again() -> None:
    assert tuple(h * HOUR for h in (4, 24, 72, 168, 336, 720, 2160, 4320)) == REVIEW_STEPS
    history = [_a("01.01", False, 0)]
    assert _reviews(history) == {"01.01": (0, 4 * HOUR)}
    history.append(_a("01.01", True, 0.01))  # solved again at once: not a review yet
    assert _reviews(history) == {"01.01": (0, 4 * HOUR)}
    history.append(_a("01.01", True, 1))
    assert _reviews(history) == {"01.01": (1, 2 * DAY)}
    history.append(_a("01.01", False, 2))
    assert _reviews(history) == {"01.01": (0, 2 * DAY + 4 * HOUR)}
    for _ in REVIEW_STEPS:
        history.append(_a("01.01", True, _reviews(history)["01.01"][1] / DAY))
    assert _reviews(history) == {}
    assert _reviews([_a("01.02", True, 0)]) == {"01.02": (0, 4 * HOUR)}


def test_only_a_first_try_moves_the_rating() -> None:
    one = fold(State(), [_a("01.01", True, 0)]).rating
    assert round(one.rating) == 975 and one.rd < 350
    tried = [_a("01.01", False, 0)] + [_a("01.01", n % 2 == 0, n / 100) for n in range(1, 30)]
    assert fold(State(), tried).rating == fold(State(), tried[:1]).rating
    typo = Attempt("01.02", 1, 800, False, "unparseable", "Ra", 0.0)
    assert fold(State(), [typo]).rating == State().rating  # a typo is not a try


def test_hints_and_the_solution_lower_what_a_success_counts() -> None:
    plain, hint, shown = (fold(State(), [Attempt("01.01", 1, 800, True, "correct", "Ra8#", 0.0,
                                                 hints=h, shown=s)]).rating.rating
                          for h, s in ((0, False), (1, False), (0, True)))
    assert plain > hint > shown > 800


def test_a_board_answer_is_counted_in_the_answer_cell() -> None:
    assert learner.answer("01.02", "").code == "empty"
    learner.record_attempt("01.02", correct=True, code="correct", answer="Qh8#", lesson=1,
                           difficulty=800)
    said = learner.answer("01.02", "")
    assert said.code == "counted" and said.correct and "Qh8#" in said.message
    assert "Write your answer" not in said.message
    learner.record_attempt("01.03", correct=False, code="wrong", answer="Kb1")
    said = learner.answer("01.03", "")
    assert said.code == "counted" and not said.correct and "Kb1" in said.message
    assert len(learner.attempts()) == 2  # looking it up records nothing


def test_progress_display(monkeypatch: pytest.MonkeyPatch) -> None:
    history = [_a("01.01", True, 0), _a("02.01", False, 1)]
    shown = learner.summarize(history, now=0.5 * DAY, lang="en")
    assert [(p.title, p.solved, p.total) for p in shown.lessons] == [
        ("Lesson 1: Mate in one", 1, 3), ("Lesson 2: Forks", 0, 2)]
    assert shown.review == (("01.01", 0), ("02.01", 0))
    assert "Exercises to try again:\n- Today: 01.01 and 02.01" in str(shown)
    page = shown._repr_html_()
    assert '<progress value="1" max="3"' in page and "<li>Today: 01.01 and 02.01</li>" in page
    assert "#b42318" not in page and "red" not in page
    assert 'aria-label="Mate in 1: ★★★☆☆"' in page  # a skill meter
    assert "- Mate in 1: ★★★☆☆\n- Forks: ★★☆☆☆\n" in str(shown)
    assert "Your rating on your last days of practice: 975 → 792." in str(shown)
    zh = learner.summarize(history, now=2 * DAY, lang="zh-Hans")
    assert "要再试一次的练习：\n- 今天：01.01和02.01" in str(zh) and "第1课：一步杀" in str(zh)
    assert "一步杀：★★★☆☆" in str(zh)
    assert learner.progress(lang="en").attempts == 0
    assert "You have not answered an exercise yet." in str(learner.progress(lang="en"))


def test_rating_explained_and_plurals_right() -> None:
    one = str(learner.summarize([_a("01.01", True, 0)], now=0, lang="en"))
    assert "Your practice rating is 975 after 1 exercise.\nIt starts at 800. Only your first" in one
    two = str(learner.summarize([_a("01.01", True, 0), _a("01.02", True, 0)], now=0, lang="en"))
    assert "after 2 exercises." in two


def test_review_dates_are_a_short_list_by_day() -> None:
    missed = [_a(f"01.{n:02d}", False, 0) for n in range(1, 10)] + [_a("02.01", False, 4)]
    shown = learner.summarize(missed, now=1.5 * DAY, lang="en")
    review = str(shown).split("Exercises to try again:\n")[1].splitlines()
    assert review == ["- Today: 01.01, 01.02, 01.03, 01.04, 01.05, 01.06 and 3 more",
                      "- In 2 days: 02.01"]


def test_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    learner.answer("01.01", "Ra8#")
    assert learner.progress_main(["--export", str(tmp_path / "me.json")]) == 0
    data = json.loads((tmp_path / "me.json").read_text(encoding="utf-8"))
    rating = data["rating"]
    assert rating > 800 and data["attempts"][0]["exercise_id"] == "01.01"
    assert set(data["mastery"]) == {"mate_in_1"}
    assert learner.progress_main([]) == 0
    assert f"practice rating is {rating}" in capsys.readouterr().out


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
    monkeypatch.setattr(store, "_writable", lambda folder: False)
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

    monkeypatch.setattr(store, "_open", locked)
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


def test_a_board_success_after_hints_or_the_solution_counts_less() -> None:
    fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
    boards = [ExerciseBoard(exercise=Exercise(id=f"12.9{n}", lesson=12, kind="move",
                                              goal="mate", fen=fen, difficulty=900))
              for n in range(3)]
    boards[1].handle({"type": "hint"})
    boards[2].handle({"type": "solution"})
    for board in boards:
        board.handle({"type": "move", "from": "a1", "to": "a8"})
    history = learner.attempts()
    assert [(a.correct, a.hints, a.shown) for a in history] == [
        (True, 0, False), (True, 1, False), (True, 0, True)]
