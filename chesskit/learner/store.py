"""The learner's store: every attempt, and the learner model kept as a checkpoint.

Attempts live in SQLite (WAL mode, so several kernels can write at once) in the user's data
folder, or in ``$CHESSKIT_DATA_DIR``. Each write adds the attempt and folds it into the
model's checkpoint (:mod:`chesskit.learner.model`) in one transaction, so reading the model
never replays the whole history. Nothing is lost: a store that is locked, unwritable or damaged
keeps the attempt aside (a side file, else memory) and says so once.

>>> record_attempt("01.01", correct=True, code="correct", answer="Ra8#")  # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import functools
import getpass
import json
import os
import sqlite3
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from chesskit.i18n import t
from chesskit.learner.model import Attempt, State, fold

_SCHEMA = ("""CREATE TABLE IF NOT EXISTS attempts (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, exercise_id TEXT NOT NULL, lesson INTEGER,
    difficulty INTEGER, correct INTEGER NOT NULL, code TEXT NOT NULL, answer TEXT NOT NULL,
    at REAL NOT NULL, hints INTEGER NOT NULL DEFAULT 0, shown INTEGER NOT NULL DEFAULT 0)""",
           "CREATE INDEX IF NOT EXISTS attempts_exercise ON attempts (exercise_id, seq)",
           """CREATE TABLE IF NOT EXISTS model (
    id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL)""")
_COLUMNS = "exercise_id, lesson, difficulty, correct, code, answer, at, hints, shown"


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


def forget_folder() -> None:
    """Look for the store's folder again (after ``$CHESSKIT_DATA_DIR`` changed)."""
    _folder_for.cache_clear()


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
            db.execute("PRAGMA synchronous=NORMAL")  # WAL: safe from a crash of the kernel
        if str(folder) not in _checked:
            for statement in _SCHEMA:
                db.execute(statement)
            _add_columns(db)
            check = db.execute("PRAGMA quick_check").fetchone()
            if not check or check[0] != "ok":
                raise sqlite3.DatabaseError(f"quick_check: {check}")
            _checked.add(str(folder))
    except BaseException:
        db.close()
        raise
    return db


_checked: set[str] = set()  # stores already set up and checked by this process


def _add_columns(db: sqlite3.Connection) -> None:
    """A store written by an older chesskit gets the columns it lacks."""
    have = {row[1] for row in db.execute("PRAGMA table_info(attempts)")}
    for name in ("hints", "shown"):
        if name not in have:
            db.execute(f"ALTER TABLE attempts ADD COLUMN {name} INTEGER NOT NULL DEFAULT 0")


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
                _checked.discard(str(folder))
                try:
                    aside = _moved_aside(folder / STORE)
                except OSError:
                    break  # cannot be moved: attempts are kept aside instead
                _cached.clear()
                _say(t("learner.store_damaged", name=aside.name))
    try:
        yield db
    finally:
        if db is not None:
            db.close()


_INSERT = f"INSERT INTO attempts ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"


def _row(attempt: Attempt) -> tuple[object, ...]:
    a = attempt
    return (a.exercise_id, a.lesson, a.difficulty, int(a.correct), a.code, a.answer, a.at,
            a.hints, int(a.shown))


def _attempt(row: tuple[Any, ...]) -> Attempt:
    e, lesson, difficulty, correct, code, answer, at, hints, shown = row
    return Attempt(str(e), lesson, difficulty, bool(correct), str(code), str(answer),
                   float(at), int(hints or 0), bool(shown))


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
    db.executemany(_INSERT, [_row(a) for a in waiting])
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
                   at: float | None = None, hints: int = 0, shown: bool = False) -> None:
    """Save one attempt and fold it into the model (one short transaction; safe with several
    kernels). ``hints``: hints seen before it; ``shown``: "Show solution" was pressed. It is
    never lost silently: a store that is locked or unwritable keeps it aside and says so.

    >>> record_attempt("01.01", correct=True, code="correct", answer="Ra8#")  # doctest: +SKIP
    """
    if not recording():
        return
    attempt = Attempt(exercise_id, lesson if lesson is not None else _lesson_of(exercise_id),
                      difficulty, correct, code, answer, time.time() if at is None else at,
                      max(0, int(hints)), bool(shown))
    with _store() as db:
        try:
            if db is None:
                raise sqlite3.OperationalError("store unavailable")
            db.execute("BEGIN IMMEDIATE")
            try:
                _flush(db)
                db.execute(_INSERT, _row(attempt))
                state, _ = _state(db)
                if state.seq % CHECKPOINT_EVERY == 0:
                    _save_state(db, state)
                db.execute("COMMIT")
            except BaseException:
                _cached.clear()
                db.execute("ROLLBACK")
                raise
        except sqlite3.Error:
            _keep_aside(attempt)


def add_attempts(history: list[Attempt]) -> None:
    """Save many attempts in one transaction (a store filled from elsewhere); the model folds
    them in when it is next read.

    >>> add_attempts([])  # doctest: +SKIP
    """
    with _store() as db:
        if db is None:
            raise sqlite3.OperationalError("store unavailable")
        db.execute("BEGIN IMMEDIATE")
        db.executemany(_INSERT, [_row(a) for a in history])
        db.execute("COMMIT")


def attempts() -> list[Attempt]:
    """Every recorded attempt, oldest first (with those kept aside)."""
    if not recording():
        return []
    rows: list[Attempt] | None = None
    with _store() as db, contextlib.suppress(sqlite3.Error):
        if db is not None:
            found = db.execute(f"SELECT {_COLUMNS} FROM attempts ORDER BY at, seq").fetchall()
            rows = [_attempt(r) for r in found]
    if rows is None and _folder_for(data_dir()) is not None:
        _say(t("learner.store_busy_reading"))
    return sorted((rows or []) + _kept_aside(claim=False), key=lambda a: a.at)


# ---------------------------------------------------------------- the model's checkpoint

_cached: dict[str, State] = {}  # the model of each store as this process last saw it
CHECKPOINT_EVERY = 50
"""The checkpoint is rewritten after this many new attempts (the fold catches up the rest)."""


def _state(db: sqlite3.Connection) -> tuple[State, bool]:
    """The model with every attempt folded in: this process's copy or the stored checkpoint
    (missing or of another version: rebuilt from all the attempts), then the newer attempts;
    True when the checkpoint is due to be written."""
    key = str(_folder_for(data_dir()))
    state = _cached.pop(key, None)
    newest = db.execute("SELECT max(seq) FROM attempts").fetchone()[0] or 0
    missing = False
    if state is None or state.seq > newest:  # not seen yet, or a new store in its place
        row = db.execute("SELECT state FROM model WHERE id = 1").fetchone()
        state = (State.from_json(row[0]) if row else None) or State()
        missing = row is None
    found = db.execute(f"SELECT seq, {_COLUMNS} FROM attempts WHERE seq > ? ORDER BY seq",
                       (state.seq,)).fetchall()
    fold(state, (_attempt(r[1:]) for r in found))
    if found:
        state.seq = int(found[-1][0])
    _cached[key] = state
    return state, len(found) >= CHECKPOINT_EVERY or (missing and bool(found))


def _save_state(db: sqlite3.Connection, state: State) -> None:
    db.execute("INSERT OR REPLACE INTO model (id, state) VALUES (1, ?)", (state.to_json(),))


def model_state() -> State:
    """The learner model of everything recorded (with the attempts kept aside); the model of
    no attempts when recording is off or the store cannot be read (said in a note)."""
    if not recording():
        return State()
    state: State | None = None
    with _store() as db, contextlib.suppress(sqlite3.Error):
        if db is not None:
            state, changed = _state(db)
            if changed:
                with contextlib.suppress(sqlite3.Error):
                    _save_state(db, state)
    if state is None and _folder_for(data_dir()) is not None:
        _say(t("learner.store_busy_reading"))
    aside = _kept_aside(claim=False)
    if not aside:
        return state or State()
    return fold(State.from_json((state or State()).to_json()) or State(), aside)


def last_attempt(exercise_id: str) -> Attempt | None:
    """The latest attempt at an exercise (a board answer too), or None."""
    if not recording():
        return None
    found: Attempt | None = None
    with _store() as db, contextlib.suppress(sqlite3.Error):
        if db is not None:
            row = db.execute(f"SELECT {_COLUMNS} FROM attempts WHERE exercise_id = ?"
                             " ORDER BY seq DESC LIMIT 1", (exercise_id,)).fetchone()
            found = _attempt(row) if row else None
    aside = [a for a in _kept_aside(claim=False) if a.exercise_id == exercise_id]
    return aside[-1] if aside else found
