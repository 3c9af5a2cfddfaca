"""The class gradebook: one SQLite file, one transaction per student.

Grading a student again replaces that student's rows in a single transaction, so re-grading is
idempotent and a run killed at any moment leaves every student either fully old or fully new.

>>> book = Gradebook(":memory:")
>>> book.record(StudentResult("ana", "en", "d1", (Mark("01.01", "Ra8#", True, "correct", ""),)))
>>> [r.student for r in book.results()]
['ana']
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

_SCHEMA = """
CREATE TABLE IF NOT EXISTS students (
    student TEXT PRIMARY KEY, lang TEXT NOT NULL, digest TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS marks (
    student TEXT NOT NULL REFERENCES students(student), exercise_id TEXT NOT NULL,
    answer TEXT NOT NULL, correct INTEGER NOT NULL, code TEXT NOT NULL, message TEXT NOT NULL,
    origin TEXT NOT NULL, PRIMARY KEY (student, exercise_id));
CREATE TABLE IF NOT EXISTS problems (
    student TEXT NOT NULL REFERENCES students(student), seq INTEGER NOT NULL,
    message TEXT NOT NULL, PRIMARY KEY (student, seq));
"""


@dataclass(frozen=True)
class Mark:
    """One graded answer; ``origin`` is ``"code"`` (``ck.answer``) or ``"board"``."""

    exercise_id: str
    answer: str
    correct: bool
    code: str
    message: str
    origin: str = "code"


@dataclass(frozen=True)
class StudentResult:
    """Everything the grader found for one student; ``digest`` fingerprints the submission."""

    student: str
    lang: str
    digest: str
    marks: tuple[Mark, ...] = ()
    problems: tuple[str, ...] = ()


class Gradebook:
    """The gradebook file ``path`` (created when missing); use as a context manager.

    >>> with Gradebook(":memory:") as book:
    ...     book.digest("nobody") is None
    True
    """

    def __init__(self, path: str | Path) -> None:
        self._db = sqlite3.connect(str(path), isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=DELETE")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)

    def __enter__(self) -> Gradebook:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def digest(self, student: str) -> str | None:
        """The stored fingerprint of ``student``'s graded submission, or None."""
        row = self._db.execute("SELECT digest FROM students WHERE student = ?",
                               (student,)).fetchone()
        return None if row is None else str(row[0])

    def record(self, result: StudentResult) -> None:
        """Replace everything stored for ``result.student`` in one transaction."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("DELETE FROM marks WHERE student = ?", (result.student,))
            db.execute("DELETE FROM problems WHERE student = ?", (result.student,))
            db.execute("INSERT OR REPLACE INTO students VALUES (?, ?, ?)",
                       (result.student, result.lang, result.digest))
            db.executemany("INSERT INTO marks VALUES (?, ?, ?, ?, ?, ?, ?)", [
                (result.student, m.exercise_id, m.answer, int(m.correct), m.code, m.message,
                 m.origin) for m in result.marks])
            db.executemany("INSERT INTO problems VALUES (?, ?, ?)",
                           [(result.student, i, p) for i, p in enumerate(result.problems)])
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def results(self) -> list[StudentResult]:
        """Every student's stored result, sorted by student."""
        marks: dict[str, list[Mark]] = {}
        for row in self._db.execute("SELECT student, exercise_id, answer, correct, code, message,"
                                    " origin FROM marks ORDER BY student, exercise_id"):
            marks.setdefault(row[0], []).append(Mark(row[1], row[2], bool(row[3]), *row[4:]))
        problems: dict[str, list[str]] = {}
        for student, message in self._db.execute(
                "SELECT student, message FROM problems ORDER BY student, seq"):
            problems.setdefault(student, []).append(message)
        return [StudentResult(s, lang, digest, tuple(marks.get(s, ())), tuple(problems.get(s, ())))
                for s, lang, digest in self._db.execute(
                    "SELECT student, lang, digest FROM students ORDER BY student")]
