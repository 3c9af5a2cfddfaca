"""Grade a class's exercise notebooks without running a line of their code.

Answers are read with :mod:`ast` from the notebook source (the literal argument of
``ck.answer("12.07", "...")``) and from the board, then judged by the exercise bank.  A notebook
that calls ``os.system`` or loops forever grades like any other: nothing is executed.
Finding the files is :mod:`chesskit.submissions`; reading one notebook is
:mod:`chesskit.answer_reader`.

>>> notebook_answers({"cells": [{"cell_type": "code", "source": 'ck.answer("01.01", "Ra8#")'}]})
([Found(exercise_id='01.01', answer='Ra8#', origin='code', after_solution=False)], None)
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import functools
import hashlib
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import IO

from chesskit import i18n
from chesskit.answer_reader import (
    Answer,
    Found,
    _board_answers,
    _language,
    _read_notebook,
    notebook_answers,
)
from chesskit.errors import BankError
from chesskit.gradebook import Gradebook, Mark, StudentResult
from chesskit.i18n import t
from chesskit.submissions import MAX_BYTES, StoredFile, Submission, _load, collect

__all__ = ["MAX_BYTES", "Answer", "Found", "Report", "StoredFile", "Submission", "collect",
           "grade", "grade_submission", "main", "notebook_answers", "write_csv"]


@dataclass(frozen=True)
class Report:
    """What ``grade`` wrote: the output files, students, exercises and problems found."""

    gradebook: Path
    csv: Path
    html: Path
    students: tuple[str, ...]
    exercises: tuple[str, ...]
    problems: tuple[tuple[str, str], ...] = ()
    unchanged: tuple[str, ...] = field(default=())


# ---------------------------------------------------------------- grading

@contextlib.contextmanager
def _speaking(lang: str) -> Iterator[None]:
    """Let the bank's feedback speak ``lang`` for a moment."""
    before = i18n._current
    i18n.set_language(lang)
    try:
        yield
    finally:
        i18n._current = before


def _judge(found: Found, *, lang: str) -> Mark | None:
    """The mark for one answer, in the student's language; None for an unknown exercise."""
    from chesskit import catalog

    shown = found.answer if isinstance(found.answer, str) else ", ".join(found.answer or [])
    if found.answer is None:
        return Mark(found.exercise_id, "", False, "not_gradable",
                    t("grading.not_literal", lang=lang), found.origin)
    try:
        catalog.exercise(found.exercise_id)
    except BankError:
        return None
    answer = found.answer if isinstance(found.answer, str) else tuple(found.answer)
    correct, code, message, normalised = _checked(found.exercise_id, answer, lang)
    return Mark(found.exercise_id, normalised or shown, correct, code, message, found.origin)


@functools.lru_cache(maxsize=65536)
def _checked(exercise_id: str, answer: str | tuple[str, ...], lang: str
             ) -> tuple[bool, str, str, str]:
    """One check, remembered: a class gives the same answers again and again."""
    from chesskit import catalog

    exercise = catalog.exercise(exercise_id)
    with _speaking(lang):
        try:
            feedback = exercise.check(answer if isinstance(answer, str) else list(answer))
        except Exception as error:  # check never raises; a bug there must not stop the class
            return False, "not_gradable", str(error), ""
    return bool(feedback.correct), feedback.code, feedback.message, feedback.answer


def grade_submission(submission: Submission, *, digest: str = "",
                     lang: str | None = None) -> StudentResult:
    """Grade one student's files; ``lang`` is the teacher's language for problem notes."""
    problems = list(submission.problems)
    answers: dict[str, Found] = {}
    student_lang: str | None = None
    for name, stored in submission.files:
        data = _load(stored)
        if not isinstance(data, bytes):
            problems.append(t(f"grading.{data}", lang=lang, name=name,
                              limit=MAX_BYTES // 2**20))
            continue
        notebook, problem = _read_notebook(name, data, lang=lang)
        if notebook is None:
            problems.append(problem or "")
            continue
        found, declared = notebook_answers(notebook)
        student_lang = student_lang or _language(notebook, declared)
        for item in found:
            answers[item.exercise_id] = item
        for item in _board_answers(notebook):
            current = answers.get(item.exercise_id)
            if current is None or current.answer == "":
                answers[item.exercise_id] = item
    if not submission.files and not problems:
        problems.append(t("grading.no_files", lang=lang))
    marks = []
    language = student_lang or "en"
    for exercise_id in sorted(answers):
        mark = _judge(answers[exercise_id], lang=language)
        if mark is None:
            problems.append(t("grading.unknown_exercise", lang=lang, id=exercise_id))
        else:
            marks.append(mark)
    return StudentResult(submission.student, language, digest, tuple(marks), tuple(problems))


def _bank_fingerprint() -> bytes:
    from chesskit import __version__

    digest = hashlib.sha256(__version__.encode())
    folder = resources.files("chesskit") / "bank"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            digest.update(entry.name.encode() + entry.read_bytes())
    return digest.digest()


def _digest(submission: Submission, bank: bytes) -> str:
    digest = hashlib.sha256(bank)
    for name, stored in submission.files:
        data = _load(stored)
        content = data if isinstance(data, bytes) else data.encode()
        digest.update(hashlib.sha256(name.encode()).digest() + hashlib.sha256(content).digest())
    for problem in submission.problems:
        digest.update(problem.encode())
    return digest.hexdigest()


def _progress(done: int, total: int, stream: IO[str]) -> None:
    """A bar on a terminal, else a line at every tenth of the run."""
    if stream.isatty():
        filled = done * 30 // total
        stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total}")
        stream.write("\n" if done == total else "")
    elif done == total or done % max(1, total // 10) == 0:
        stream.write(t("grading.progress", done=done, total=total) + "\n")
    stream.flush()


def exercise_columns(results: Iterable[StudentResult]) -> list[str]:
    """Every exercise anyone has an answer cell for, sorted by id."""
    return sorted({m.exercise_id for r in results for m in r.marks})


def _cell(text: str) -> str:
    """Keep a spreadsheet from reading a student name as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def write_csv(results: list[StudentResult], path: Path, *, lang: str | None = None) -> Path:
    """``grades.csv``: a row per student, a column per exercise (1, 0 or empty), totals."""
    columns = exercise_columns(results)
    with path.open("w", encoding="utf-8-sig", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow([t(f"grading.csv_{k}", lang=lang) for k in ("student", "language")]
                        + columns + [t(f"grading.csv_{k}", lang=lang)
                                     for k in ("correct", "total", "percent", "problems")])
        for result in results:
            marks = {m.exercise_id: m for m in result.marks}
            right = sum(m.correct for m in result.marks)
            writer.writerow(
                [_cell(result.student), result.lang]
                + [int(marks[c].correct) if c in marks else "" for c in columns]
                + [right, len(columns), round(100 * right / len(columns)) if columns else 0,
                   len(result.problems)])
    return path


def grade(submissions: Iterable[str | Path], *, out: str | Path, lang: str | None = None,
          progress: IO[str] | None = None) -> Report:
    """Grade every submission into ``out``: ``gradebook.sqlite``, ``grades.csv``, ``report/``.

    Each student is one transaction; a student whose files and bank are unchanged since the
    last run is not graded again, so an interrupted run simply resumes.
    """
    from chesskit.report import write_report

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    _checked.cache_clear()  # remembered checks hold for one run, against one bank
    found, loose = collect(submissions, lang=lang)
    bank = _bank_fingerprint()
    unchanged = []
    book_path = folder / "gradebook.sqlite"
    with Gradebook(book_path) as book:
        for done, submission in enumerate(found, 1):
            digest = _digest(submission, bank)
            if book.digest(submission.student) == digest:
                unchanged.append(submission.student)
            else:
                book.record(grade_submission(submission, digest=digest, lang=lang))
            if progress is not None and len(found) > 1:
                _progress(done, len(found), progress)
        results = book.results()
    csv_path = write_csv(results, folder / "grades.csv", lang=lang)
    html = write_report(results, out=folder / "report", lang=lang)
    problems = loose + [(r.student, p) for r in results for p in r.problems]
    return Report(book_path, csv_path, html, tuple(r.student for r in results),
                  tuple(exercise_columns(results)), tuple(problems), tuple(unchanged))


def main(argv: list[str] | None = None) -> int:
    """``chesskit grade SUBMISSIONS... --out DIR [--lang zh-Hans]``."""
    parser = argparse.ArgumentParser(prog="chesskit grade", description=t("grading.cli_help"))
    parser.add_argument("submissions", nargs="+", help=t("grading.cli_submissions"))
    parser.add_argument("--out", required=True, help=t("grading.cli_out"))
    parser.add_argument("--lang", default=None, help=t("grading.cli_lang"))
    args = parser.parse_args(argv)
    report = grade(args.submissions, out=args.out, lang=args.lang, progress=sys.stderr)
    for where, problem in report.problems:
        print(f"{where}: {problem}")
    print(t("grading.summary", lang=args.lang, students=len(report.students),
            exercises=len(report.exercises), csv=report.csv, html=report.html))
    return 0 if report.students else 1
