"""The class gradebook: one SQLite file, one transaction per student.

Grading a student again replaces that student's rows in a single transaction, so re-grading is
idempotent and a run killed at any moment leaves every student either fully old or fully new.
The teacher owns it: students can be removed or renamed, and an older gradebook file is
migrated in place when it is opened.

>>> book = Gradebook(":memory:")
>>> book.record(StudentResult("ana", "en", "d1", (Mark("01.01", "Ra8#", True, "correct", ""),)))
>>> [r.student for r in book.results()]
['ana']
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from chesskit.errors import GradingError
from chesskit.i18n import t

SCHEMA_VERSION = 2
_SCHEMA = """
CREATE TABLE IF NOT EXISTS students (
    student TEXT PRIMARY KEY, lang TEXT NOT NULL, digest TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS marks (
    student TEXT NOT NULL REFERENCES students(student), exercise_id TEXT NOT NULL,
    answer TEXT NOT NULL, correct INTEGER NOT NULL, code TEXT NOT NULL, message TEXT NOT NULL,
    origin TEXT NOT NULL, credit REAL, after_solution INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (student, exercise_id));
CREATE TABLE IF NOT EXISTS problems (
    student TEXT NOT NULL REFERENCES students(student), seq INTEGER NOT NULL,
    message TEXT NOT NULL, PRIMARY KEY (student, seq));
CREATE TABLE IF NOT EXISTS handed (
    student TEXT NOT NULL REFERENCES students(student), part TEXT NOT NULL,
    file TEXT NOT NULL, submitted REAL, PRIMARY KEY (student, part, file));
CREATE TABLE IF NOT EXISTS checks (
    key TEXT PRIMARY KEY, correct INTEGER NOT NULL, code TEXT NOT NULL, message TEXT NOT NULL,
    answer TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS aliases (old TEXT PRIMARY KEY, student TEXT NOT NULL);
"""
_ADDED = {"students": [("name", "TEXT NOT NULL DEFAULT ''")],
          "marks": [("credit", "REAL"), ("after_solution", "INTEGER NOT NULL DEFAULT 0")]}
_PER_STUDENT = ("marks", "problems", "handed", "students")

Check = tuple[bool, str, str, str]  # correct, code, message, normalised answer


@dataclass(frozen=True)
class Mark:
    """One graded answer; ``origin`` is ``"code"`` (``ck.answer``) or ``"board"``; ``credit``
    the share of the item's points (None: 1 if correct else 0)."""

    exercise_id: str
    answer: str
    correct: bool
    code: str
    message: str
    origin: str = "code"
    credit: float | None = None
    after_solution: bool = False

    @property
    def share(self) -> float:
        """The share of the item's points earned, 0 to 1."""
        return float(self.correct) if self.credit is None else self.credit


@dataclass(frozen=True)
class Handed:
    """A file a student handed in, the part (notebook) it is, and when it was saved."""

    file: str
    part: str
    submitted: float | None = None


@dataclass(frozen=True)
class StudentResult:
    """Everything the grader found for one student; ``digest`` fingerprints the submission."""

    student: str
    lang: str
    digest: str
    marks: tuple[Mark, ...] = ()
    problems: tuple[str, ...] = ()
    name: str = ""
    handed: tuple[Handed, ...] = ()


def _refuse_foreign(path: str | Path) -> None:
    """GradingError unless ``path`` is new, or an ordinary file that starts like SQLite."""
    if str(path) == ":memory:":
        return
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as error:
        raise GradingError(t("grading.gradebook_foreign", path=path)) from error
    if not stat.S_ISREG(info.st_mode):
        raise GradingError(t("grading.gradebook_foreign", path=path))
    with open(path, "rb") as stream:
        head = stream.read(16)
    if head and head != b"SQLite format 3\x00":
        raise GradingError(t("grading.gradebook_foreign", path=path))


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


class Gradebook:
    """The gradebook file ``path`` (created or migrated when needed); a context manager.

    >>> with Gradebook(":memory:") as book:
    ...     book.digest("nobody") is None
    True
    """

    def __init__(self, path: str | Path) -> None:
        _refuse_foreign(path)
        self._db = sqlite3.connect(str(path), isolation_level=None, timeout=60)
        try:
            tables = {r[0] for r in self._db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables and not tables & {"settings", "students"}:
                raise GradingError(t("grading.gradebook_foreign", path=path))
            version = self.setting("schema") if "settings" in tables else None
            if version is not None and (not version.isdigit() or int(version) > SCHEMA_VERSION):
                raise GradingError(t("grading.gradebook_newer", path=path, version=version[:20]))
            self._db.execute("PRAGMA journal_mode=DELETE")
            self._db.execute("PRAGMA synchronous=FULL")
            self._migrate()
        except sqlite3.DatabaseError:
            self._db.close()
            raise GradingError(t("grading.gradebook_foreign", path=path)) from None
        except BaseException:
            self._db.close()
            raise

    def _migrate(self) -> None:
        """Create the tables, and add the columns an older gradebook lacks (one transaction)."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            for table, added in _ADDED.items():
                have = _columns(db, table)
                for name, kind in added if have else ():
                    if name not in have:
                        db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute("INSERT OR REPLACE INTO settings VALUES ('schema', ?)",
                       (str(SCHEMA_VERSION),))
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def __enter__(self) -> Gradebook:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    # -- settings and the check cache -------------------------------------------------------
    def setting(self, key: str) -> str | None:
        """A stored setting (``assignment``, ``bank``), or None."""
        row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str | None) -> None:
        """Store (or with None, forget) a setting."""
        if value is None:
            self._db.execute("DELETE FROM settings WHERE key = ?", (key,))
        else:
            self._db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, value))

    def forget_checks(self) -> None:
        """Drop every remembered check (the bank changed)."""
        self._db.execute("DELETE FROM checks")

    # -- students ------------------------------------------------------------------------
    def digest(self, student: str) -> str | None:
        """The stored fingerprint of ``student``'s graded submission, or None."""
        row = self._db.execute("SELECT digest FROM students WHERE student = ?",
                               (student,)).fetchone()
        return None if row is None else str(row[0])

    def students(self) -> list[str]:
        """Every student, sorted."""
        return [r[0] for r in self._db.execute("SELECT student FROM students ORDER BY student")]

    def record(self, result: StudentResult, *,
               checks: Iterable[tuple[str, Check]] = ()) -> None:
        """Replace everything stored for ``result.student`` (and remember ``checks``) in one
        transaction."""
        db, who = self._db, result.student
        db.execute("BEGIN IMMEDIATE")
        try:
            for table in _PER_STUDENT:
                db.execute(f"DELETE FROM {table} WHERE student = ?", (who,))
            db.execute("INSERT INTO students (student, lang, digest, name) VALUES (?, ?, ?, ?)",
                       (who, result.lang, result.digest, result.name))
            db.executemany("INSERT INTO marks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [
                (who, m.exercise_id, m.answer, int(m.correct), m.code, m.message, m.origin,
                 m.credit, int(m.after_solution)) for m in result.marks])
            db.executemany("INSERT INTO problems VALUES (?, ?, ?)",
                           [(who, i, p) for i, p in enumerate(result.problems)])
            db.executemany("INSERT OR REPLACE INTO handed VALUES (?, ?, ?, ?)",
                           [(who, h.part, h.file, h.submitted) for h in result.handed])
            db.executemany("INSERT OR REPLACE INTO checks VALUES (?, ?, ?, ?, ?)",
                           [(key, int(c[0]), c[1], c[2], c[3]) for key, c in checks])
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def _change(self, statements: Sequence[tuple[str, Sequence[str]]]) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            for sql, args in statements:
                db.execute(sql, args)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def remove(self, student: str) -> bool:
        """Remove a student and everything graded for them (and the names that led to them);
        False when there was no such student (removing twice changes nothing)."""
        known = self.digest(student) is not None
        self._change([(f"DELETE FROM {table} WHERE student = ?", (student,))
                      for table in (*_PER_STUDENT, "aliases")])
        return known

    def rename(self, old: str, new: str) -> None:
        """Give student ``old`` the identity ``new`` (the display name follows); later runs
        grade the files of ``old`` into ``new``'s row."""
        if self.digest(old) is None:
            raise GradingError(t("grading.no_such_student", student=old))
        if not new.strip() or self.digest(new) is not None:
            raise GradingError(t("grading.student_exists", student=new))
        self._change([(f"UPDATE {table} SET student = ? WHERE student = ?", (new, old))
                      for table in (*_PER_STUDENT, "aliases")]
                     + [("UPDATE students SET name = ? WHERE student = ?", (new, new)),
                        ("DELETE FROM aliases WHERE old = ?", (new,)),
                        ("INSERT OR REPLACE INTO aliases VALUES (?, ?)", (old, new))])

    def alias(self, student: str) -> str:
        """The identity a student found in the files has in the gradebook (after a rename).

        >>> with Gradebook(":memory:") as book:
        ...     book.record(StudentResult("Ana", "en", "d"))
        ...     book.rename("Ana", "Ana Lee")
        ...     book.alias("Ana")
        'Ana Lee'
        """
        row = self._db.execute("SELECT student FROM aliases WHERE old = ?",
                               (student,)).fetchone()
        return student if row is None else str(row[0])

    def handed_counts(self) -> dict[str, int]:
        """Part name -> how many students handed it in."""
        return dict(self._db.execute(
            "SELECT part, count(DISTINCT student) FROM handed WHERE part != '' GROUP BY part"))

    def each_result(self) -> Iterator[StudentResult]:
        """Every student's stored result, one at a time, sorted by student."""
        db = self._db
        for student, lang, digest, name in db.execute(
                "SELECT student, lang, digest, name FROM students ORDER BY student").fetchall():
            marks = tuple(Mark(r[0], r[1], bool(r[2]), r[3], r[4], r[5], r[6], bool(r[7]))
                          for r in db.execute(
                              "SELECT exercise_id, answer, correct, code, message, origin, "
                              "credit, after_solution FROM marks WHERE student = ? "
                              "ORDER BY exercise_id", (student,)))
            problems = tuple(r[0] for r in db.execute(
                "SELECT message FROM problems WHERE student = ? ORDER BY seq", (student,)))
            handed = tuple(Handed(r[0], r[1], r[2]) for r in db.execute(
                "SELECT file, part, submitted FROM handed WHERE student = ? ORDER BY part, file",
                (student,)))
            yield StudentResult(student, lang, digest, marks, problems, name, handed)

    def results(self) -> list[StudentResult]:
        """Every student's stored result, sorted by student (small classes and tests)."""
        return list(self.each_result())


def cached_check(path: str | Path, key: str) -> Check | None:
    """A check remembered in the gradebook at ``path``, read without locking it for long."""
    try:
        db = _reader(str(path))
        row = db.execute("SELECT correct, code, message, answer FROM checks WHERE key = ?",
                         (key,)).fetchone()
    except sqlite3.Error:
        return None
    return None if row is None else (bool(row[0]), str(row[1]), str(row[2]), str(row[3]))


_READERS: dict[tuple[int, str], sqlite3.Connection] = {}


def _reader(path: str) -> sqlite3.Connection:
    """One read-only connection per process and file (a forked worker opens its own)."""
    key = (os.getpid(), path)
    if key not in _READERS:
        _READERS[key] = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=60,
                                        check_same_thread=False)
    return _READERS[key]
