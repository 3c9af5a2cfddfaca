"""Grade a class's exercise notebooks without running a line of their code.

Answers are read with :mod:`ast` from the notebook source (the literal argument of
``ck.answer("12.07", "...")``) and from the board, then judged by the exercise bank.  A notebook
that calls ``os.system`` or loops forever grades like any other: nothing is executed.
Finding the files is :mod:`chesskit.teacher.submissions`; reading one notebook is
:mod:`chesskit.teacher.answer_reader`; what counts is :mod:`chesskit.teacher.assignment`.

>>> notebook_answers({"cells": [{"cell_type": "code", "source": 'ck.answer("01.01", "Ra8#")'}]})
([Found(exercise_id='01.01', answer='Ra8#', origin='code', after_solution=False)], None)
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import datetime as dt
import functools
import hashlib
import json
import logging
import math
import multiprocessing
import os
import sys
import threading
import time
import traceback
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

import chess

from chesskit import __version__, exercises, i18n, rules
from chesskit.errors import GradingError
from chesskit.exercises import catalog, move_tokens, read_squares
from chesskit.i18n import t
from chesskit.rules.notation import read_move
from chesskit.teacher.answer_reader import (
    Answer,
    Found,
    _board_answers,
    _language,
    _read_notebook,
    notebook_answers,
)
from chesskit.teacher.assignment import (
    Assignment,
    course_default,
    parse_assignment,
    read_assignment,
)
from chesskit.teacher.gradebook import Check, Gradebook, Handed, Mark, StudentResult, cached_check
from chesskit.teacher.report import write_outputs
from chesskit.teacher.submissions import MAX_BYTES, StoredFile, Submission, _load, collect

LOG = logging.getLogger("chesskit.teacher")

__all__ = ["MAX_BYTES", "Answer", "Found", "Report", "StoredFile", "Submission", "collect",
           "grade", "grade_submission", "main", "notebook_answers"]



@dataclass(frozen=True)
class Report:
    """What ``grade`` wrote: the output files, students, the assignment's exercises, every
    problem ``(student or file, note)``, students left as they were, notes on the assignment."""

    gradebook: Path
    csv: Path
    html: Path
    students: tuple[str, ...]
    exercises: tuple[str, ...]
    problems: tuple[tuple[str, str], ...] = ()
    unchanged: tuple[str, ...] = field(default=())
    lms: Path | None = None
    notes: tuple[str, ...] = ()


# ---------------------------------------------------------------- grading

MAX_SHOWN = 200  # characters of an answer or a message kept in the gradebook and pages
DIGEST_VERSION = b"grade-3"


def shown(text: str, *, limit: int = MAX_SHOWN) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis says it was cut).

    >>> shown("x" * 300)[-3:], len(shown("x" * 300))
    ('xx…', 200)
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Plan:
    """What a run grades against; sent to the worker processes."""

    assignment: Assignment | None  # the teacher's; None: the lesson notebooks
    book: str = ""  # the gradebook, whose remembered checks a worker may read
    lang: str | None = None  # the teacher's language, for problem notes
    bank: str = ""

    def parts(self) -> Assignment:
        """The assignment a handed-in file is matched against."""
        return self.assignment or course_default()


_NEW_CHECKS: list[tuple[str, Check]] = []


def _check_key(exercise_id: str, answer: str | tuple[str, ...], lang: str) -> str:
    return json.dumps([exercise_id, lang, answer], ensure_ascii=False)


@functools.lru_cache(maxsize=65536)
def _checked(exercise_id: str, answer: str | tuple[str, ...], lang: str, book: str = "",
             ) -> Check:
    """One check, remembered for the run and in the gradebook across runs: a class gives the
    same answers again and again."""

    key = _check_key(exercise_id, answer, lang)
    known = cached_check(book, key) if book else None
    if known is not None:
        return known
    exercise = catalog.exercise(exercise_id)
    with i18n.speaking(lang):  # a check never raises; a bug there is logged by the caller
        feedback = exercise.check(answer if isinstance(answer, str) else list(answer))
    result = (bool(feedback.correct), feedback.code, shown(feedback.message),
              shown(feedback.answer))
    _NEW_CHECKS.append((key, result))
    return result


@functools.lru_cache(maxsize=65536)
def _canonical(exercise_id: str, answer: str) -> str:
    """A move answer as its SAN, so "nf3", "Ng1-f3" and "g1f3" are checked once."""

    exercise = catalog.exercise(exercise_id)
    if exercise.kind != "move":
        return answer
    board = exercise.position
    try:
        return str(board.san(read_move(board, answer)))
    except ValueError:  # a move that cannot be read or played is checked as written
        return answer


def _credit(exercise: Any, answer: str, code: str, normalised: str) -> float | None:
    """Partial credit (half the points) where the kind allows it, else None.

    A line whose key move is right (the check went past it: the moves it kept name the key and,
    for a wrong move, the move that failed after it); a squares answer naming more than half of
    the squares with at most one wrong square.
    """

    kept = len(move_tokens(normalised)) if exercise.kind == "line" else 0
    if code in ("wrong", "illegal") and kept >= (2 if code == "wrong" else 1):
        return 0.5
    if exercise.kind == "squares" and code in ("wrong", "incomplete"):
        given = set(read_squares(answer) or ())
        target = {chess.parse_square(s) for s in " ".join(exercise.solutions()).split()}
        if target and 2 * len(given & target) > len(target) and len(given - target) <= 1:
            return 0.5
    return None


def _judge(found: Found, *, lang: str, book: str = "") -> Mark:
    """The mark for one answer of a known exercise, in the student's language."""

    after = bool(getattr(found, "after_solution", False))
    if found.answer is None:
        return Mark(found.exercise_id, "", False, "not_gradable",
                    t("grading.not_literal", lang=lang), found.origin, None, after)
    exercise = catalog.exercise(found.exercise_id)
    if isinstance(found.answer, str):
        answer: str | tuple[str, ...] = _canonical(exercise.id, found.answer)
        text = answer
    else:
        answer = tuple(found.answer)
        text = ", ".join(answer)
    correct, code, message, normalised = _checked(found.exercise_id, answer, lang, book)
    credit = None if correct else _credit(exercise, str(text), code, normalised)
    return Mark(found.exercise_id, shown(normalised or str(text)), correct, code, message,
                found.origin, credit, after)


PLAUSIBLE_BEFORE = 86_400.0  # seconds a saved time may be earlier than the file's time
DISAGREE = 3_600.0  # a trusted saved time this far from the file's time is still named


@dataclass(frozen=True)
class Copy:
    """One notebook a student handed in, read: its answers (code and board merged), the
    part it is, the time it counts as handed in, and notes on that time."""

    name: str
    label: str  # the file's own name, as the teacher sees it in the export
    answers: Mapping[str, Found]
    part: str
    submitted: float | None
    order: tuple[float, float, int, int, str]  # how new: time, saved time, answers, entry
    notes: tuple[str, ...] = ()


def _saved_value(notebook: Mapping[str, Any]) -> float | None:
    """``metadata.chesskit.saved`` as a finite UNIX time (ISO text or a number), else None."""
    meta = notebook.get("metadata")
    own = meta.get("chesskit") if isinstance(meta, Mapping) else None
    value = own.get("saved") if isinstance(own, Mapping) else None
    stamp: float | None = None
    if isinstance(value, int | float) and not isinstance(value, bool):
        with contextlib.suppress(OverflowError):
            stamp = float(value)
    elif isinstance(value, str) and len(value) <= 64:
        with contextlib.suppress(ValueError, OverflowError, OSError):
            when = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
            stamp = when.timestamp()
    return stamp if stamp is not None and math.isfinite(stamp) else None


def _file_time(stored: StoredFile) -> float | None:
    mtime = getattr(stored, "mtime", None)
    if mtime is None and stored.member is None:
        with contextlib.suppress(OSError):
            return stored.path.stat().st_mtime
    return mtime if mtime is None or math.isfinite(mtime) else None


def submitted_at(notebook: Mapping[str, Any], stored: StoredFile, *, now: float,
                 opens: float | None = None, lang: str | None = None,
                 ) -> tuple[float | None, float | None, list[str]]:
    """When a copy counts as handed in, the saved time trusted (or None), and the notes.

    The file's (or zip entry's) time, unless the notebook's own ``saved`` time is plausible:
    not in the future, not before the assignment was handed out (``opens``) and not earlier
    than the file's time by more than a day.  A saved time that is not plausible is named.
    """
    file_time, saved = _file_time(stored), _saved_value(notebook)
    meta = notebook.get("metadata")
    own = meta.get("chesskit") if isinstance(meta, Mapping) else None
    claimed = isinstance(own, Mapping) and "saved" in own
    plausible = (saved is not None and saved <= now + 300
                 and (opens is None or saved >= opens)
                 and (file_time is None or saved >= file_time - PLAUSIBLE_BEFORE))
    if plausible and saved is not None:
        differs = file_time is not None and abs(saved - file_time) > DISAGREE
        return saved, saved, [t("grading.saved_differs", lang=lang, name=stored.label,
                                saved=_when(saved), file=_when(file_time))] if differs else []
    notes = []
    if claimed:
        notes.append(t("grading.saved_implausible", lang=lang, name=stored.label,
                       saved=_when(saved), file=_when(file_time)))
    return file_time, None, notes


def _when(stamp: float | None) -> str:
    if stamp is None:
        return "?"
    with contextlib.suppress(OverflowError, OSError, ValueError):
        return dt.datetime.fromtimestamp(stamp).strftime("%Y-%m-%d %H:%M")
    return "?"


def _blankness(found: Found) -> int:
    """2 for a written answer, 1 for one worked out by code (not gradable), 0 for a blank."""
    if found.answer is None:
        return 1
    return 2 if (found.answer.strip() if isinstance(found.answer, str) else found.answer) else 0


def _notebook_answers(notebook: Mapping[str, Any]) -> tuple[dict[str, Found], str | None]:
    """One notebook's answers by exercise: the last ``ck.answer`` call, the board's answer
    where that is blank; "Show solution" counts whenever any record of the item says so."""
    found, declared = notebook_answers(notebook)
    answers: dict[str, Found] = {}
    for item in found:
        answers[item.exercise_id] = item
    for item in _board_answers(notebook):
        current = answers.get(item.exercise_id)
        if current is None or _blankness(current) < _blankness(item):
            answers[item.exercise_id] = item
        elif item.after_solution and not current.after_solution:
            answers[item.exercise_id] = replace(current, after_solution=True)
    return answers, declared


def _part_for(name: str, ids: Iterable[str], parts: Assignment) -> str:
    """The part a copy is: by its file name, else the part sharing most of its exercises."""
    named = parts.part_of(name)
    if named is not None:
        return named.name
    own = set(ids)
    best = max(parts.parts, key=lambda p: len(own & set(p.ids)), default=None)
    return best.name if best is not None and own & set(best.ids) else ""


def _read_copy(name: str, stored: StoredFile, *, plan: Plan, lang: str | None, now: float,
               ) -> tuple[Copy | None, str | None, str | None]:
    """One file read into a Copy, or the note for what is wrong with it; the third value is
    the language the notebook sets."""
    data = _load(stored)
    if not isinstance(data, bytes):
        return None, t(f"grading.{data}", lang=lang, name=name,
                       limit=MAX_BYTES // 2**20), None
    content = hashlib.sha256(data).hexdigest()
    notebook, problem = _read_notebook(name, data, lang=lang)
    del data
    if notebook is None:
        return None, problem or "", None
    answers, declared = _notebook_answers(notebook)
    opens = plan.assignment.opens if plan.assignment is not None else None
    when, saved, notes = submitted_at(notebook, stored, now=now, opens=opens, lang=lang)
    part = _part_for(name, answers, plan.parts())
    written = sum(_blankness(f) == 2 for f in answers.values())
    order = (when if when is not None else -math.inf,
             saved if saved is not None else -math.inf, written, stored.index or 0, content)
    return (Copy(name, stored.label, answers, part, when, order, tuple(notes)), None,
            _language(notebook, declared))


def _chosen(copies: list[Copy]) -> tuple[dict[str, Found], dict[str, Copy]]:
    """Per exercise, the newest answer that is not blank across the copies (a blank never
    replaces an answer), and the copy it came from."""
    answers: dict[str, Found] = {}
    source: dict[str, Copy] = {}
    for copy in sorted(copies, key=lambda c: c.order):
        for exercise_id, found in copy.answers.items():
            current = answers.get(exercise_id)
            if current is None or _blankness(found) >= _blankness(current):
                shown_after = found.after_solution or bool(current and current.after_solution)
                answers[exercise_id] = replace(found, after_solution=shown_after)
                source[exercise_id] = copy
    return answers, source


def _copies_note(copies: list[Copy], *, lang: str | None) -> list[str]:
    """A note for every part handed in more than once, naming each copy."""
    by_part: dict[str, list[Copy]] = {}
    for copy in copies:
        by_part.setdefault(copy.part or copy.name, []).append(copy)
    return [t("grading.copies", lang=lang, part=part, n=len(group),
              files=_ids_list([c.label for c in group]))
            for part, group in sorted(by_part.items()) if len(group) > 1]


def _ids_list(ids: Iterable[str], *, limit: int = 8) -> str:
    ids = sorted(ids)
    return ", ".join(ids[:limit]) + (f" … (+{len(ids) - limit})" if len(ids) > limit else "")


_FAILURES: list[str] = []  # tracebacks of unexpected errors in this process, for the log


def grade_submission(submission: Submission, *, plan: Plan | None = None, digest: str = "",
                     lang: str | None = None, now: float | None = None) -> StudentResult:
    """Grade one student's files against the plan's assignment; ``lang`` is the teacher's
    language for problem notes.  Only the items of the notebooks handed in (by default) or of
    the teacher's assignment are graded; other answers are ignored and said so.  For each
    exercise the newest answer that is not blank across the student's copies counts."""
    plan = plan or Plan(None, lang=lang)
    lang = plan.lang if lang is None else lang
    now = time.time() if now is None else now
    problems = list(submission.problems)
    copies: list[Copy] = []
    student_lang: str | None = None
    for name, stored in submission.files:
        try:
            copy, problem, declared = _read_copy(name, stored, plan=plan, lang=lang, now=now)
        except Exception:  # noqa: BLE001 (a bug in the grader: logged, and said for this student)
            _FAILURES.append(f"{submission.student} / {stored.label}\n"
                             + traceback.format_exc())
            problems.append(t("grading.internal_error", lang=lang, name=stored.label))
            continue
        if copy is None:
            problems.append(problem or "")
            continue
        student_lang = student_lang or declared
        copies.append(copy)
        problems += copy.notes
        if not copy.part:
            problems.append(t("grading.not_in_assignment_file", lang=lang, name=name))
    if not submission.files and not problems:
        problems.append(t("grading.no_files", lang=lang))
    problems += _copies_note(copies, lang=lang)
    answers, source = _chosen(copies)
    counted = set(map(id, source.values()))
    names = [c.name for c in copies]
    handed = tuple(Handed(c.name if names.count(c.name) == 1 else c.label, c.part,
                          c.submitted if id(c) in counted or len(copies) == 1 else None)
                   for c in copies)
    if plan.assignment is not None:
        wanted = set(plan.assignment.ids())
    else:
        handed_parts = {h.part for h in handed}
        wanted = {i for p in plan.parts().parts if p.name in handed_parts for i in p.ids}
    ignored = {i for i, f in answers.items() if i not in wanted and _blankness(f)}
    if ignored:
        problems.append(t("grading.ignored", lang=lang, n=len(ignored), ids=_ids_list(ignored)))
    language = student_lang or "en"
    marks = []
    for exercise_id in sorted(i for i in answers if i in wanted):
        try:
            marks.append(_judge(answers[exercise_id], lang=language, book=plan.book))
        except Exception:  # noqa: BLE001 (a bug in a check: logged, and said for this student)
            _FAILURES.append(f"{submission.student} / {exercise_id}\n" + traceback.format_exc())
            problems.append(t("grading.internal_error", lang=lang, name=exercise_id))
    return StudentResult(submission.student, language, digest, tuple(marks),
                         tuple(shown(p, limit=2 * MAX_SHOWN) for p in problems),
                         submission.name or submission.student, handed)


def _bank_fingerprint() -> str:
    """A version of everything that decides a check: the bank's files and the source of the
    checking code (``chesskit.exercises`` and ``chesskit.rules``), computed once per run, so
    a fix to a check never leaves a stale grade or a stale remembered check."""

    digest = hashlib.sha256(__version__.encode())
    for entry in sorted(Path(catalog.bank_dir()).glob("*.toml")):
        digest.update(entry.name.encode() + entry.read_bytes())
    for package in (exercises, rules):
        root = Path(package.__file__ or "").parent
        for source in sorted(root.rglob("*.py")):
            digest.update(str(source.relative_to(root)).encode() + source.read_bytes())
    return digest.hexdigest()


def _digest(submission: Submission, plan: Plan) -> str:
    digest = hashlib.sha256(DIGEST_VERSION + plan.bank.encode())
    if plan.assignment is not None:
        digest.update(plan.assignment.source.encode())
    digest.update(submission.name.encode() + b"\0")
    for name, stored in submission.files:
        data = _load(stored)
        content = data if isinstance(data, bytes) else data.encode()
        digest.update(hashlib.sha256(name.encode()).digest() + hashlib.sha256(content).digest()
                      + repr(getattr(stored, "mtime", None)).encode())
    for problem in submission.problems:
        digest.update(problem.encode())
    return digest.hexdigest()


Graded = tuple[str, StudentResult | None, list[tuple[str, Check]], list[str]]


def _grade_job(job: tuple[Submission, str | None, Plan]) -> Graded:
    """A worker's task: grade one student unless the stored digest says nothing changed; the
    new checks to remember and the tracebacks to log come back with the result."""
    submission, stored, plan = job
    digest = _digest(submission, plan)
    if digest == stored:
        return submission.student, None, [], []
    _NEW_CHECKS.clear()
    _FAILURES.clear()
    result = grade_submission(submission, plan=plan, digest=digest)
    new, failures = list(_NEW_CHECKS), list(_FAILURES)
    _NEW_CHECKS.clear()
    _FAILURES.clear()
    return submission.student, result, new, failures


def _follow_parent(parent: int) -> None:
    """In a worker: end when the grading run that started it is gone (even by ``kill -9``)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _graded(jobs: list[tuple[Submission, str | None, Plan]], *, workers: int,
            ) -> Iterator[Graded]:
    """Results student by student, from a pool of ``workers`` processes when that pays."""
    if workers <= 1 or len(jobs) < 4:
        yield from map(_grade_job, jobs)
        return
    context = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context,
                                                initializer=_follow_parent,
                                                initargs=(os.getpid(),)) as pool:
        yield from pool.map(_grade_job, jobs, chunksize=1)


def _progress(done: int, total: int, stream: IO[str]) -> None:
    """A bar on a terminal, else a line at every tenth of the run."""
    if stream.isatty():
        filled = done * 30 // total
        stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total}")
        stream.write("\n" if done == total else "")
    elif done == total or done % max(1, total // 10) == 0:
        stream.write(t("grading.progress", done=done, total=total) + "\n")
    stream.flush()


def _notebook_like(student: str, parts: Assignment) -> bool:
    """True when a "student" is really a notebook (``07-castling``, ``homework-fork``)."""
    name = student + ".ipynb"
    return parts.part_of(name) is not None or course_default().part_of(name) is not None


def _within(stored: StoredFile, folder: Path) -> bool:
    with contextlib.suppress(OSError, ValueError):
        return stored.member is None and stored.path.resolve().is_relative_to(folder.resolve())
    return False


def _student_folder(path: Path, parts: Assignment) -> Path | None:
    """The student folder ``path`` is or is in (``class/Ana``, ``class/Ana/07-castling.ipynb``),
    or None for a class folder, a zip or loose notebooks named by student."""
    with contextlib.suppress(OSError):
        if path.is_file() and path.suffix.lower() == ".ipynb":
            return path.parent if _notebook_like(path.stem, parts) else None
        if path.is_dir() and not path.is_symlink():
            books = [c for c in path.iterdir() if c.suffix.lower() == ".ipynb" and c.is_file()]
            if books and all(_notebook_like(c.stem, parts) for c in books):
                return path
    return None


def _submissions(paths: Iterable[str | Path], *, lang: str | None, parts: Assignment,
                 ) -> tuple[list[Submission], list[tuple[str, str]]]:
    """The students under ``paths``.  A path inside one student's folder is that student (all
    of their notebooks), named as a whole-class run names them: re-grading Ana never invents
    students called after her notebooks."""
    whole = [Path(p) for p in paths]
    folders = {p: _student_folder(p, parts) for p in whole}
    found, loose = collect([p for p in whole if folders[p] is None], lang=lang)
    by_name = {s.student: s for s in found}
    for owner in dict.fromkeys(f for f in folders.values() if f is not None):
        classmates, _ = collect([owner.parent], lang=lang)
        for submission in classmates:
            if any(_within(f, owner) for _, f in submission.files):
                by_name[submission.student] = submission
    return [by_name[s] for s in sorted(by_name)], loose


def _class_assignment(book: Gradebook, explicit: Assignment | None,
                      ) -> tuple[Assignment, list[str]]:
    """The assignment the class is scored on, and notes on notebooks left out of it.

    By default a lesson's notebook counts when at least half of the class handed it in, so no
    single student can change what a classmate is scored on."""
    if explicit is not None:
        return explicit, []
    counts, total = book.handed_counts(), len(book.students())
    parts, notes = [], []
    for part in course_default().parts:
        handed = counts.get(part.name, 0)
        if handed and 2 * handed >= total:
            parts.append(part)
        elif handed:
            notes.append(t("grading.part_left_out", part=part.name, n=handed, total=total))
    if total and not parts:
        notes.append(t("grading.no_lesson_notebooks"))
    return Assignment(tuple(parts)), notes


def grade(submissions: Iterable[str | Path], *, out: str | Path, lang: str | None = None,
          progress: IO[str] | None = None, assignment: str | Path | Assignment | None = None,
          jobs: int = 2) -> Report:
    """Grade every submission into ``out``: ``gradebook.sqlite``, ``grades.csv``,
    ``lms-grades.csv``, ``report/``.

    Each student is one transaction; a student whose files, bank and assignment are unchanged
    since the last run is not graded again, so an interrupted run simply resumes.  Students
    already in the gradebook and not among ``submissions`` are kept as they are.
    """
    submissions = [Path(p) for p in submissions]
    for path in submissions:  # every input checked before anything is written
        if not os.path.lexists(path):
            raise GradingError(t("grading.not_found", lang=lang, path=path))
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise GradingError(t("grading.bad_jobs", lang=lang, jobs=jobs, cores=_cores()))
    if isinstance(assignment, str | Path):
        assignment = read_assignment(assignment)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    with _logging_to(folder / "grading.log"):
        return _grade(submissions, folder=folder, lang=lang, progress=progress,
                      assignment=assignment, jobs=jobs)


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else os.cpu_count() or 1


@contextlib.contextmanager
def _logging_to(path: Path) -> Iterator[None]:
    """Log the run's unexpected errors (with their tracebacks) to ``path``."""
    handler = logging.FileHandler(path, encoding="utf-8", delay=True)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    LOG.addHandler(handler)
    try:
        yield
    finally:
        LOG.removeHandler(handler)
        handler.close()


def _grade(submissions: Iterable[str | Path], *, folder: Path, lang: str | None,
           progress: IO[str] | None, assignment: Assignment | None, jobs: int) -> Report:

    _checked.cache_clear()
    _canonical.cache_clear()
    book_path = folder / "gradebook.sqlite"
    with Gradebook(book_path) as book:
        bank = _bank_fingerprint()
        if book.setting("bank") != bank:
            book.forget_checks()
            book.set_setting("bank", bank)
        if assignment is not None:
            book.set_setting("assignment", assignment.source)
        else:
            stored = book.setting("assignment")
            assignment = parse_assignment(stored) if stored else None
        plan = Plan(assignment, str(book_path), lang, bank)
        found, loose = _submissions(submissions, lang=lang, parts=plan.parts())
        found = [_renamed(s, book) for s in found]
        book.set_setting("loose", json.dumps(loose, ensure_ascii=False))
        work = [(s, book.digest(s.student), plan) for s in found]
        unchanged = []
        for done, (student, result, checks, failures) in enumerate(
                _graded(work, workers=min(jobs, len(work))), 1):
            for failure in failures:
                LOG.error("unexpected error while grading %s", failure)
            if result is None:
                unchanged.append(student)
            else:
                book.record(result, checks=checks)
            if progress is not None and len(work) > 1:
                _progress(done, len(work), progress)
        scored, notes = _class_assignment(book, assignment)
        written = write_outputs(book, scored, out=folder, lang=lang,
                                notes=[f"{w}: {p}" for w, p in loose] + notes)
    return Report(book_path, written.csv, written.html, written.students,
                  tuple(scored.ids()), tuple(loose) + written.problems, tuple(unchanged),
                  written.lms, tuple(notes))


def _renamed(submission: Submission, book: Gradebook) -> Submission:
    """The submission under the identity the teacher gave the student (``--rename``)."""
    target = book.alias(submission.student)
    return submission if target == submission.student else replace(
        submission, student=target, name=target)


def _manage(args: argparse.Namespace) -> int:
    """``--remove NAME`` / ``--rename OLD NEW``: change the gradebook, then rewrite the
    outputs from it."""

    folder = Path(args.out)
    if not (folder / "gradebook.sqlite").exists():
        raise GradingError(t("grading.no_gradebook", path=folder / "gradebook.sqlite"))
    with Gradebook(folder / "gradebook.sqlite") as book:
        for name in args.remove or ():
            removed = book.remove(name)
            print(t("grading.removed" if removed else "grading.not_there", lang=args.lang,
                    student=name))
        if args.rename:
            book.rename(*args.rename)
            print(t("grading.renamed", lang=args.lang, old=args.rename[0], new=args.rename[1]))
        stored = book.setting("assignment")
        scored, notes = _class_assignment(book, parse_assignment(stored) if stored else None)
        write_outputs(book, scored, out=folder, lang=args.lang, notes=notes)
    return 0


def main(argv: list[str] | None = None) -> int:
    """``chesskit grade SUBMISSIONS... --out DIR [--assignment A.toml] [--lang zh-Hans]``,
    ``chesskit grade --out DIR --remove NAME`` or ``--rename OLD NEW``."""
    parser = argparse.ArgumentParser(prog="chesskit grade", description=t("grading.cli_help"))
    parser.add_argument("submissions", nargs="*", help=t("grading.cli_submissions"))
    parser.add_argument("--out", required=True, help=t("grading.cli_out"))
    parser.add_argument("--assignment", help=t("grading.cli_assignment"))
    parser.add_argument("--lang", default=None, help=t("grading.cli_lang"))
    parser.add_argument("--jobs", type=int, default=min(2, _cores()),
                        help=t("grading.cli_jobs"))
    parser.add_argument("--jobs-force", action="store_true", help=t("grading.cli_jobs_force"))
    parser.add_argument("--remove", action="append", metavar="NAME",
                        help=t("grading.cli_remove"))
    parser.add_argument("--rename", nargs=2, metavar=("OLD", "NEW"),
                        help=t("grading.cli_rename"))
    args = parser.parse_args(argv)
    if args.remove or args.rename:
        return _manage(args)
    if not args.submissions:
        parser.error(t("grading.cli_nothing"))
    if not 1 <= args.jobs <= (10_000 if args.jobs_force else _cores()):
        raise GradingError(t("grading.bad_jobs", lang=args.lang, jobs=args.jobs,
                             cores=_cores()))
    report = grade(args.submissions, out=args.out, lang=args.lang, progress=sys.stderr,
                   assignment=args.assignment, jobs=args.jobs)
    print(t("grading.summary", lang=args.lang, students=len(report.students),
            exercises=len(report.exercises), problems=len(report.problems), csv=report.csv,
            html=report.html))
    return 0 if report.students else 1
