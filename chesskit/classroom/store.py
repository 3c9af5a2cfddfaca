"""The classroom's state in SQLite: classes, who joined, rounds, answers.

One row per student per round in ``answers`` (a later answer replaces the earlier one, so
nothing is counted twice).  WAL mode and ``BEGIN IMMEDIATE`` transactions: every change is
whole or absent, also with several processes on one file.  A file that cannot be written
raises ``ClassroomError("store", reason)``; :func:`open_store` then keeps the
data in a file that can be written and says where.

>>> store = Store(":memory:")
>>> rid = store.open_round("class", {"fen": "start"})
>>> store.answer(rid, "ana", san="e4", uci="e2e4", correct=None)
>>> store.answer(rid, "ana", san="d4", uci="d2d4", correct=None)
>>> [(a.student, a.san) for a in store.answers(rid)]
[('ana', 'd4')]
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chesskit.errors import ClassroomError
from chesskit.i18n import t

SCHEMA = """
CREATE TABLE IF NOT EXISTS classes (
    name TEXT PRIMARY KEY,
    code TEXT,
    teacher_token TEXT
);
CREATE TABLE IF NOT EXISTS members (
    class TEXT NOT NULL,
    user TEXT NOT NULL,
    key TEXT NOT NULL,
    token_hash TEXT,
    lang TEXT,
    joined REAL NOT NULL,
    PRIMARY KEY (class, user),
    UNIQUE (class, key)
);
CREATE UNIQUE INDEX IF NOT EXISTS members_token ON members (token_hash);
CREATE TABLE IF NOT EXISTS rounds (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    class TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('open', 'closed')),
    task TEXT NOT NULL,
    opened REAL NOT NULL,
    closed REAL
);
CREATE INDEX IF NOT EXISTS rounds_class ON rounds (class, id);
CREATE TABLE IF NOT EXISTS answers (
    round INTEGER NOT NULL REFERENCES rounds (id),
    student TEXT NOT NULL,
    san TEXT NOT NULL,
    uci TEXT NOT NULL,
    correct INTEGER,
    changes INTEGER NOT NULL DEFAULT 0,
    at REAL NOT NULL,
    PRIMARY KEY (round, student)
);
"""


@dataclass(frozen=True)
class Round:
    """One round as stored; ``task_json`` is the JSON of
    :class:`chesskit.classroom.rounds.Task`."""

    id: int
    klass: str
    state: str
    task_json: str
    opened: float
    closed: float | None

    @property
    def task(self) -> dict[str, Any]:
        """The task, read from its JSON."""
        return dict(json.loads(self.task_json))


@dataclass(frozen=True)
class Answer:
    """A student's answer to a round (the last one they sent)."""

    student: str
    san: str
    uci: str
    correct: bool | None


@dataclass(frozen=True)
class Member:
    """A student who joined a class."""

    klass: str
    user: str
    lang: str | None


def token_hash(token: str) -> str:
    """What the store keeps of a session token (never the token itself)."""
    return hashlib.sha256(token.encode()).hexdigest()


class Store:
    """The classroom's SQLite file (``":memory:"`` for a throwaway one)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = str(path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=10,
                                       check_same_thread=False)
            self._db.execute("PRAGMA busy_timeout = 10000")
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.execute("PRAGMA foreign_keys = ON")
            with self._write() as db:
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
        except sqlite3.Error as error:
            raise ClassroomError("store", f"{self.path}: {error}") from None

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction that writes: whole or not at all; ClassroomError("store") if the
        file cannot be written."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise ClassroomError("store", str(error)) from None
        try:
            yield self._db
            self._db.execute("COMMIT")
        except BaseException as error:
            self._db.execute("ROLLBACK")
            if isinstance(error, sqlite3.Error):
                raise ClassroomError("store", str(error)) from None
            raise

    def prove_writable(self) -> None:
        """ClassroomError("store") unless the file can be written (not only read)."""
        with self._write() as db:
            db.execute("PRAGMA user_version = 1")

    def _rows(self, sql: str, *args: object) -> list[sqlite3.Row]:
        try:
            return list(self._db.execute(sql, args))
        except sqlite3.Error as error:
            raise ClassroomError("store", str(error)) from None

    # -- classes and members -----------------------------------------------------------
    def class_secrets(self, klass: str, code: str, teacher_token: str) -> tuple[str, str]:
        """The join code and teacher token of a laptop class: the stored ones, else these
        (then stored), so a restarted classroom keeps its code and links."""
        with self._write() as db:
            db.execute("INSERT OR IGNORE INTO classes (name, code, teacher_token)"
                       " VALUES (?, ?, ?)", (klass, code, teacher_token))
            row = db.execute("SELECT code, teacher_token FROM classes WHERE name = ?",
                             (klass,)).fetchone()
        return str(row[0]), str(row[1])

    def add_member(self, klass: str, user: str, *, key: str | None = None,
                   token: str | None = None, lang: str | None = None) -> bool:
        """Record that ``user`` joined ``klass``; False if the name (``key``) belongs to
        another session.  With ``token``, the member's session token (its hash) is kept."""
        with self._write() as db:
            row = db.execute("SELECT user, token_hash FROM members WHERE class = ? AND key = ?",
                             (klass, key or user)).fetchone()
            if row is not None:
                if token is not None and row[1] not in (None, token_hash(token)):
                    return False
                if lang:
                    db.execute("UPDATE members SET lang = ? WHERE class = ? AND user = ?",
                               (lang, klass, row[0]))
                return True
            db.execute("INSERT INTO members (class, user, key, token_hash, lang, joined)"
                       " VALUES (?, ?, ?, ?, ?, ?)",
                       (klass, user, key or user, token_hash(token) if token else None, lang,
                        time.time()))
        return True

    def member_by_token(self, token: str) -> Member | None:
        """The student whose session token this is, or None."""
        rows = self._rows("SELECT class, user, lang FROM members WHERE token_hash = ?",
                          token_hash(token))
        return Member(rows[0][0], rows[0][1], rows[0][2]) if rows else None

    def joined(self, klass: str, *, before: float | None = None) -> int:
        """How many students joined the class (with ``before``, until that time)."""
        if before is None:
            return int(self._rows("SELECT count(*) FROM members WHERE class = ?", klass)[0][0])
        return int(self._rows("SELECT count(*) FROM members WHERE class = ? AND joined <= ?",
                              klass, before)[0][0])

    def languages(self, klass: str) -> dict[str, str]:
        """The language each laptop student joined with (hub students have none)."""
        return {str(r[0]): str(r[1]) for r in self._rows(
            "SELECT user, lang FROM members WHERE class = ? AND lang IS NOT NULL", klass)}

    # -- rounds ------------------------------------------------------------------------
    def open_round(self, klass: str, task: dict[str, Any]) -> int:
        """Close the class's open round (if any) and open a new one; its id."""
        now = time.time()
        with self._write() as db:
            db.execute("UPDATE rounds SET state = 'closed', closed = ? WHERE class = ?"
                       " AND state = 'open'", (now, klass))
            cursor = db.execute("INSERT INTO rounds (class, state, task, opened)"
                                " VALUES (?, 'open', ?, ?)",
                                (klass, json.dumps(task, ensure_ascii=False), now))
        return int(cursor.lastrowid or 0)

    def close_round(self, round_id: int) -> bool:
        """Close an open round; False if it was not open."""
        with self._write() as db:
            cursor = db.execute("UPDATE rounds SET state = 'closed', closed = ?"
                                " WHERE id = ? AND state = 'open'", (time.time(), round_id))
        return cursor.rowcount == 1

    def round(self, round_id: int) -> Round | None:
        """The round with this id, or None."""
        rows = self._rows("SELECT id, class, state, task, opened, closed FROM rounds"
                          " WHERE id = ?", round_id)
        return _round(rows[0]) if rows else None

    def latest_round(self, klass: str) -> Round | None:
        """The class's newest round (open or closed), or None."""
        rows = self._rows("SELECT id, class, state, task, opened, closed FROM rounds"
                          " WHERE class = ? ORDER BY id DESC LIMIT 1", klass)
        return _round(rows[0]) if rows else None

    def rounds(self, klass: str | None = None) -> list[Round]:
        """Every round of the class (None: of every class), oldest first."""
        if klass is None:
            return [_round(row) for row in self._rows(
                "SELECT id, class, state, task, opened, closed FROM rounds ORDER BY id")]
        return [_round(row) for row in self._rows(
            "SELECT id, class, state, task, opened, closed FROM rounds WHERE class = ?"
            " ORDER BY id", klass)]

    # -- answers -----------------------------------------------------------------------
    def answer(self, round_id: int, student: str, *, san: str, uci: str,
               correct: bool | None) -> None:
        """Keep a student's answer (replacing their earlier one) if the round is the class's
        open round; else ClassroomError ``closed`` or ``not_current``, nothing stored.  One
        statement (so one transaction) checks and writes: a class answering at once costs one
        SQLite call an answer."""
        try:
            cursor = self._db.execute(
                "INSERT INTO answers (round, student, san, uci, correct, at)"
                " SELECT ?, ?, ?, ?, ?, ? FROM rounds r WHERE r.id = ? AND r.state = 'open'"
                " AND r.id = (SELECT max(id) FROM rounds WHERE class = r.class)"
                " ON CONFLICT (round, student) DO UPDATE SET san = excluded.san,"
                " uci = excluded.uci, correct = excluded.correct, at = excluded.at,"
                " changes = changes + 1",
                (round_id, student, san, uci, None if correct is None else int(correct),
                 time.time(), round_id))
        except sqlite3.Error as error:
            raise ClassroomError("store", str(error)) from None
        if cursor.rowcount == 1:
            return
        rnd = self.round(round_id)
        if rnd is None:
            raise ClassroomError("unknown_round")
        latest = self.latest_round(rnd.klass)
        raise ClassroomError("not_current" if latest is None or latest.id != round_id
                             else "closed")

    def answers(self, round_id: int) -> list[Answer]:
        """Every student's answer to the round, by student name."""
        return [Answer(row[0], row[1], row[2], None if row[3] is None else bool(row[3]))
                for row in self._rows("SELECT student, san, uci, correct FROM answers"
                                      " WHERE round = ? ORDER BY student", round_id)]

    def answer_of(self, round_id: int, student: str) -> Answer | None:
        """One student's answer to the round, or None."""
        rows = self._rows("SELECT student, san, uci, correct FROM answers WHERE round = ?"
                          " AND student = ?", round_id, student)
        return Answer(rows[0][0], rows[0][1], rows[0][2],
                      None if rows[0][3] is None else bool(rows[0][3])) if rows else None


def _round(row: sqlite3.Row | tuple[Any, ...]) -> Round:
    return Round(int(row[0]), str(row[1]), str(row[2]), str(row[3]), float(row[4]),
                 None if row[5] is None else float(row[5]))


def open_store(path: str | os.PathLike[str]) -> tuple[Store, str | None]:
    """The store at ``path``, or, when that cannot be written, one in the temporary folder;
    with a sentence saying so (None when ``path`` was used)."""
    try:
        store = Store(path)
        store.prove_writable()
        return store, None
    except ClassroomError as error:
        fallback = Path(tempfile.gettempdir()) / f"chesskit-classroom-{os.getpid()}.sqlite"
        return Store(fallback), t("classroom.service_store_elsewhere", path=str(path),
                                  reason=str(error), fallback=str(fallback))
