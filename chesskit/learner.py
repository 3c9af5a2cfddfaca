"""A student's own record: every ``ck.answer`` is saved, and ``ck.progress()`` sums it up.

Attempts live in SQLite (WAL mode, so several kernels can write at once) in the user's data
folder, or in ``$CHESSKIT_DATA_DIR``.  Missed exercises come back for review after 1, 3 and 7
days; the practice rating follows the Elo rule ΔR = K(W − We), each exercise's difficulty
being the opponent.

>>> practice_rating([Attempt("01.01", 1, 800, True, "correct", "Ra8#", 0.0)])
812
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import getpass
import json
import math
import os
import re
import sqlite3
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from chesskit.errors import BankError
from chesskit.i18n import join_words, localize, t
from chesskit.rules.ratings import expected_score, k_factor

START_RATING = 800
REVIEW_DAYS = (1, 3, 7)
_DAY = 86400.0
_SCHEMA = """CREATE TABLE IF NOT EXISTS attempts (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, exercise_id TEXT NOT NULL, lesson INTEGER,
    difficulty INTEGER, correct INTEGER NOT NULL, code TEXT NOT NULL, answer TEXT NOT NULL,
    at REAL NOT NULL)"""


@dataclass(frozen=True)
class Attempt:
    """One recorded answer; ``at`` is seconds since the epoch."""

    exercise_id: str
    lesson: int | None
    difficulty: int | None
    correct: bool
    code: str
    answer: str
    at: float


BROWSER_DRIVE = Path("/drive")  # where JupyterLite mounts the files the browser keeps


def data_dir() -> Path:
    """Where progress is kept: ``$CHESSKIT_DATA_DIR``, else the user's data folder; in the
    browser (JupyterLite) a folder on its drive, which the browser keeps across reloads."""
    if os.environ.get("CHESSKIT_DATA_DIR"):
        return Path(os.environ["CHESSKIT_DATA_DIR"])
    if sys.platform == "emscripten":
        return BROWSER_DRIVE / ".chesskit" if BROWSER_DRIVE.is_dir() else Path.home() / ".chesskit"
    home = Path.home()
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming") / "chesskit"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "chesskit"
    return Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share") / "chesskit"


def recording() -> bool:
    """False when ``$CHESSKIT_RECORD`` is "0": the course build and its tests keep no progress."""
    return os.environ.get("CHESSKIT_RECORD", "1") != "0"


# ---------------------------------------------------------------- the store

BUSY_SECONDS = 2.0  # how long to wait for another kernel that holds the store
STORE = "progress.sqlite"
SIDE_FILE = "progress-pending.jsonl"
_notes: list[str] = []  # what happened to the store in this session, each said once
_waiting: list[Attempt] = []  # attempts that could not be written anywhere yet


def notes() -> tuple[str, ...]:
    """What happened to the progress store in this session, one sentence each."""
    return tuple(_notes)


def _say(text: str) -> None:
    """Note once what happened to the store: ``answer`` prints it, ``progress`` shows it."""
    if text not in _notes:
        _notes.append(text)


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-test-"):
            return True
    except OSError:
        return False


@functools.lru_cache(maxsize=4)
def _folder_for(wanted: Path) -> Path | None:
    """``wanted`` when it can be written, else a folder in the temp dir (said once); None
    when nothing can be written (attempts then stay in memory)."""
    if _writable(wanted):
        return wanted
    fallback = Path(tempfile.gettempdir()) / f"chesskit-{_user()}"
    if _writable(fallback):
        _say(t("learner.store_fallback", wanted=wanted, path=fallback))
        return fallback
    _say(t("learner.store_memory", wanted=wanted))
    return None


def _user() -> str:
    with contextlib.suppress(Exception):
        return "".join(c for c in getpass.getuser() if c.isalnum()) or "user"
    return "user"


def _moved_aside(path: Path) -> Path:
    """Put a damaged store aside (never deleted) under the first free name."""
    n = 1
    while (aside := path.with_name(f"progress-damaged-{n}.sqlite")).exists():
        n += 1
    path.replace(aside)
    for tail in ("-wal", "-shm"):
        with contextlib.suppress(OSError):
            Path(f"{path}{tail}").replace(f"{aside}{tail}")
    return aside


def _open(folder: Path) -> sqlite3.Connection:
    db = sqlite3.connect(folder / STORE, timeout=BUSY_SECONDS, isolation_level=None)
    try:
        db.execute(f"PRAGMA busy_timeout={int(BUSY_SECONDS * 1000)}")
        if sys.platform != "emscripten":  # the browser's file system has no shared memory
            db.execute("PRAGMA journal_mode=WAL")
        db.execute(_SCHEMA)
        check = db.execute("PRAGMA quick_check").fetchone()
        if not check or check[0] != "ok":
            raise sqlite3.DatabaseError(f"quick_check: {check}")
    except BaseException:
        db.close()
        raise
    return db


def _busy(error: sqlite3.Error) -> bool:
    return "locked" in str(error) or "busy" in str(error)


@contextlib.contextmanager
def _store() -> Iterator[sqlite3.Connection | None]:
    """The open store, or None when it cannot be used now (locked, unwritable); a damaged
    store is put aside and a new one started, once, with a sentence."""
    folder = _folder_for(data_dir())
    db = None
    if folder is not None:
        for _ in range(2):  # one wait of BUSY_SECONDS, then one retry
            try:
                db = _open(folder)
                break
            except sqlite3.OperationalError as error:
                if not _busy(error):
                    break
            except sqlite3.DatabaseError:
                try:
                    aside = _moved_aside(folder / STORE)
                except OSError:
                    break  # cannot be moved: attempts are kept aside instead
                _say(t("learner.store_damaged", name=aside.name))
    try:
        yield db
    finally:
        if db is not None:
            db.close()


_INSERT = ("INSERT INTO attempts (exercise_id, lesson, difficulty, correct, code, answer, at)"
           " VALUES (?, ?, ?, ?, ?, ?, ?)")


def _row(attempt: Attempt) -> tuple[object, ...]:
    a = attempt
    return (a.exercise_id, a.lesson, a.difficulty, int(a.correct), a.code, a.answer, a.at)


def _side_file() -> Path | None:
    folder = _folder_for(data_dir())
    return None if folder is None else folder / SIDE_FILE


def _keep_aside(attempt: Attempt) -> None:
    """Keep an attempt the store could not take: in the side file, else in memory."""
    side = _side_file()
    try:
        if side is None:
            raise OSError("nowhere to write")
        with side.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps(asdict(attempt), ensure_ascii=False) + "\n")
        _say(t("learner.store_busy", path=side))
    except OSError:
        _waiting.append(attempt)
        _say(t("learner.store_busy_memory"))


def _kept_aside(*, claim: bool) -> list[Attempt]:
    """The attempts waiting outside the store; with ``claim`` they are taken (the side file is
    renamed first, so two kernels never take the same ones)."""
    found = list(_waiting)
    side = _side_file()
    if side is None or not side.exists():
        return found
    source = side
    if claim:
        source = side.with_name(f"{SIDE_FILE}.{os.getpid()}")
        try:
            side.replace(source)
        except OSError:
            return found
    with contextlib.suppress(OSError):
        for line in source.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(ValueError, TypeError):
                found.append(Attempt(**json.loads(line)))
    return found


def _flush(db: sqlite3.Connection) -> None:
    """Move every attempt kept aside into the store, in one transaction."""
    waiting = _kept_aside(claim=True)
    if not waiting:
        return
    db.execute("BEGIN IMMEDIATE")
    db.executemany(_INSERT, [_row(a) for a in waiting])
    db.execute("COMMIT")
    _waiting.clear()
    side = _side_file()
    if side is not None:
        with contextlib.suppress(OSError):
            side.with_name(f"{SIDE_FILE}.{os.getpid()}").unlink()


def _lesson_of(exercise_id: str) -> int | None:
    head = exercise_id.partition(".")[0]
    return int(head) if head.isdigit() else None


def record_attempt(exercise_id: str, *, correct: bool, code: str = "", answer: str = "",
                   lesson: int | None = None, difficulty: int | None = None,
                   at: float | None = None) -> None:
    """Save one attempt (one short transaction; safe with several kernels).  It is never lost
    silently: a store that is locked or unwritable keeps it aside and says so.

    >>> record_attempt("01.01", correct=True, code="correct", answer="Ra8#")  # doctest: +SKIP
    """
    if not recording():
        return
    attempt = Attempt(exercise_id, lesson if lesson is not None else _lesson_of(exercise_id),
                      difficulty, correct, code, answer, time.time() if at is None else at)
    with _store() as db:
        try:
            if db is None:
                raise sqlite3.OperationalError("store unavailable")
            _flush(db)
            db.execute(_INSERT, _row(attempt))
        except sqlite3.Error:
            _keep_aside(attempt)


def attempts() -> list[Attempt]:
    """Every recorded attempt, oldest first (with those kept aside)."""
    if not recording():
        return []
    rows: list[Attempt] | None = None
    with _store() as db, contextlib.suppress(sqlite3.Error):
        if db is not None:
            found = db.execute("SELECT exercise_id, lesson, difficulty, correct, code,"
                               " answer, at FROM attempts ORDER BY at, seq").fetchall()
            rows = [Attempt(r[0], r[1], r[2], bool(r[3]), r[4], r[5], r[6]) for r in found]
    if rows is None and _folder_for(data_dir()) is not None:
        _say(t("learner.store_busy_reading"))
    return sorted((rows or []) + _kept_aside(claim=False), key=lambda a: a.at)


# ---------------------------------------------------------------- answering

def answer(exercise_id: str, answer: object) -> Any:
    """Check an answer and record the attempt; the Feedback shows itself; never raises.

    >>> answer("99.99", "e4").code  # doctest: +SKIP
    'unknown_exercise'
    """
    from chesskit.exercises import Feedback, catalog

    text = answer if isinstance(answer, str) else str(answer)
    try:
        exercise = catalog.exercise(str(exercise_id))
    except (BankError, TypeError, ValueError):
        feedback = Feedback(correct=False, code="unknown_exercise",
                            message=t("learner.unknown_exercise", id=str(exercise_id)),
                            squares=(), answer=text, exercise_id=str(exercise_id))
        return feedback
    feedback = exercise.check(answer)
    if feedback.code != "empty":
        said = len(_notes)
        with contextlib.suppress(sqlite3.Error, OSError):  # record_attempt keeps it aside
            record_attempt(exercise.id, correct=feedback.correct, code=feedback.code,
                           answer=feedback.answer or text, lesson=exercise.lesson,
                           difficulty=exercise.difficulty)
        for note in _notes[said:]:
            print(note)
    return feedback


def _quotes_hint(shell: Any, etype: type[BaseException], value: BaseException, tb: Any,
                 tb_offset: int | None = None) -> None:
    """IPython's handler for NameError: a bare move in ``answer(...)`` is explained in one
    sentence; any other NameError shows its usual traceback."""
    import traceback

    frames = traceback.extract_tb(tb) if tb is not None else []
    line = (frames[-1].line or "") if frames else ""
    name = getattr(value, "name", None)
    bare = re.compile(rf"(?<=[(,])(\s*){re.escape(name)}(\s*)(?=[,)])") if name else None
    if bare is not None and re.search(r"\banswer\s*\(", line) and bare.search(line):
        example = bare.sub(lambda m: f'{m[1]}"{name}"{m[2]}', line.strip(), count=1)
        print(t("learner.quotes", example=example))
        return
    shell.showtraceback((etype, value, tb), tb_offset=tb_offset)


def install_answer_hint(shell: Any = None) -> bool:
    """In IPython, explain ``ck.answer("12.01", Qb8)`` (quotes forgotten) in a sentence
    instead of a NameError traceback; True when installed.

    >>> install_answer_hint()  # outside IPython: nothing to do
    False
    """
    if shell is None:
        ipython = sys.modules.get("IPython")
        shell = ipython.get_ipython() if ipython is not None else None
    if shell is None or not hasattr(shell, "set_custom_exc"):
        return False
    shell.set_custom_exc((NameError,), _quotes_hint)
    return True


# ---------------------------------------------------------------- summing up

def practice_rating(history: Iterable[Attempt], *, start: int = START_RATING) -> int:
    """The Elo rating after each exercise's first rated attempt (K 25 for 30, then 15)."""
    rating, games, seen = float(start), 0, set()
    for attempt in history:
        if attempt.exercise_id in seen or attempt.difficulty is None:
            continue
        seen.add(attempt.exercise_id)
        rating += k_factor(games_played=games) * (
            float(attempt.correct) - expected_score(rating, attempt.difficulty))
        games += 1
    return round(rating)


def review_schedule(history: Iterable[Attempt]) -> dict[str, float]:
    """When each missed exercise is due again: 1 day after a miss, then 3, then 7; then done.

    >>> review_schedule([Attempt("01.01", 1, 800, False, "wrong", "e4", 0.0)])
    {'01.01': 86400.0}
    """
    stage: dict[str, int] = {}
    due: dict[str, float] = {}
    for attempt in history:
        key = attempt.exercise_id
        if not attempt.correct:
            stage[key] = 0
        elif key in stage:
            stage[key] += 1
        else:
            continue
        if stage[key] >= len(REVIEW_DAYS):
            del stage[key]
            due.pop(key, None)
        else:
            due[key] = attempt.at + REVIEW_DAYS[stage[key]] * _DAY
    return dict(sorted(due.items()))


@dataclass(frozen=True)
class LessonProgress:
    lesson: int
    title: str
    solved: int
    total: int


REVIEW_SHOWN = 6  # exercise ids on one review line; the rest are counted


@dataclass(frozen=True)
class Progress:
    """What ``ck.progress()`` shows; displays itself as HTML with calm progress bars."""

    lessons: tuple[LessonProgress, ...]
    review: tuple[tuple[str, int], ...]  # (exercise id, days until due; 0 = today)
    rating: int
    attempts: int
    lang: str
    notes: tuple[str, ...] = ()  # what happened to the store, one sentence each

    def _rating_lines(self) -> list[str]:
        if self.attempts == 0:
            return [t("learner.rating_none", lang=self.lang, start=START_RATING)]
        key = "learner.rating_one" if self.attempts == 1 else "learner.rating"
        return [t(key, lang=self.lang, rating=self.rating, attempts=self.attempts),
                t("learner.rating_explained", lang=self.lang, start=START_RATING)]

    def _review_lines(self) -> list[str]:
        """One short line per day: today, tomorrow, in N days."""
        days: dict[int, list[str]] = {}
        for exercise_id, due in self.review:
            days.setdefault(due, []).append(exercise_id)
        lines = []
        for due, ids in sorted(days.items()):
            shown = ids[:REVIEW_SHOWN]
            if len(ids) > REVIEW_SHOWN:
                shown.append(t("learner.review_more", lang=self.lang,
                               n=len(ids) - REVIEW_SHOWN))
            key = {0: "review_today", 1: "review_tomorrow"}.get(due, "review_days")
            lines.append(t(f"learner.{key}", lang=self.lang, days=due,
                           ids=join_words(shown, lang=self.lang)))
        return lines

    def __str__(self) -> str:
        lines = [*self.notes, *self._rating_lines()]
        lines += [t("learner.lesson_line", lang=self.lang, title=p.title, solved=p.solved,
                    total=p.total) for p in self.lessons]
        review = self._review_lines()
        if review:
            lines += [t("learner.review_title", lang=self.lang), *(f"- {r}" for r in review)]
        else:
            lines.append(t("learner.nothing_to_review", lang=self.lang))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        import html

        notes = "".join(f"<p>{html.escape(n)}</p>" for n in self.notes)
        rating = "".join(f"<p>{html.escape(line)}</p>" for line in self._rating_lines())
        rows = "".join(
            f"<tr><td>{html.escape(p.title)}</td><td><progress value=\"{p.solved}\" "
            f"max=\"{max(p.total, 1)}\" aria-label=\"{html.escape(p.title)}\"></progress></td>"
            f"<td>{html.escape(t('learner.solved', lang=self.lang, **counts))}</td></tr>"
            for p in self.lessons for counts in [{"solved": p.solved, "total": p.total}])
        review = self._review_lines()
        listed = ("<p>" + html.escape(t("learner.review_title", lang=self.lang)) + "</p><ul>"
                  + "".join(f"<li>{html.escape(r)}</li>" for r in review) + "</ul>"
                  if review else
                  f"<p>{html.escape(t('learner.nothing_to_review', lang=self.lang))}</p>")
        title = html.escape(t("learner.chart_title", lang=self.lang))
        return (f'<div lang="{self.lang}">{notes}{rating}<table><caption>{title}</caption>'
                f"{rows}</table>{listed}</div>")


def _lesson_titles(lang: str | None) -> dict[int, str]:
    from chesskit.exercises import catalog

    titles: dict[int, str] = {}
    with contextlib.suppress(AttributeError, BankError):
        for info in catalog.lessons():
            number = getattr(info, "lesson", getattr(info, "number", None))
            title = getattr(info, "title", None)
            if isinstance(number, int) and isinstance(title, str | Mapping):
                titles[number] = t("learner.lesson_title", lang=lang, n=number,
                                   title=localize(title, lang=lang))
    return titles


def summarize(history: list[Attempt], *, now: float, lang: str | None = None) -> Progress:
    """The progress shown for ``history`` at time ``now`` (a pure function of both)."""
    from chesskit.exercises import catalog
    from chesskit.i18n import get_language

    solved = {a.exercise_id for a in history if a.correct}
    totals: dict[int, list[int]] = {}
    for item in catalog.bank():
        counts = totals.setdefault(item.lesson, [0, 0])
        counts[0] += item.id in solved
        counts[1] += 1
    titles = _lesson_titles(lang)
    lessons = tuple(LessonProgress(n, titles.get(n, t("learner.lesson", lang=lang, n=n)), s, k)
                    for n, (s, k) in sorted(totals.items()))
    review = tuple((e, max(0, math.ceil((due - now) / _DAY)))
                   for e, due in review_schedule(history).items())
    return Progress(lessons, review, practice_rating(history), len(history), get_language(lang),
                    notes())


def progress(*, lang: str | None = None) -> Progress:
    """Your completion per lesson, what to review today, and your practice rating; never
    raises (what went wrong with the store is said in a sentence)."""
    return summarize(attempts(), now=time.time(), lang=lang)


def progress_main(argv: list[str] | None = None) -> int:
    """``chesskit progress [--export FILE] [--lang zh-Hans]``: print, or write a file to hand in."""
    parser = argparse.ArgumentParser(prog="chesskit progress", description=t("learner.cli_help"))
    parser.add_argument("--export", metavar="FILE", help=t("learner.cli_export"))
    parser.add_argument("--lang", default=None, help=t("worksheet.cli_lang"))
    args = parser.parse_args(argv)
    history = attempts()
    summary = summarize(history, now=time.time(), lang=args.lang)
    if args.export:
        record = {"rating": summary.rating, "lessons": [asdict(p) for p in summary.lessons],
                  "review": [list(r) for r in summary.review],
                  "attempts": [asdict(a) for a in history]}
        try:
            Path(args.export).write_text(json.dumps(record, ensure_ascii=False, indent=1,
                                                    sort_keys=True) + "\n", encoding="utf-8")
        except OSError as error:
            print("Error: " + t("learner.export_failed", lang=args.lang, path=args.export,
                                error=error.strerror or error))
            return 1
        for note in summary.notes:
            print(note)
        print(t("learner.exported", lang=args.lang, path=args.export))
    else:
        print(summary)
    return 0
