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
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import chess

from chesskit import i18n
from chesskit.errors import GradingError
from chesskit.i18n import t
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
from chesskit.teacher.submissions import MAX_BYTES, StoredFile, Submission, _load, collect

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
DIGEST_VERSION = b"grade-2"


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
    from chesskit.exercises import catalog

    key = _check_key(exercise_id, answer, lang)
    known = cached_check(book, key) if book else None
    if known is not None:
        return known
    exercise = catalog.exercise(exercise_id)
    with i18n.speaking(lang):
        try:
            feedback = exercise.check(answer if isinstance(answer, str) else list(answer))
        except Exception as error:  # check never raises; a bug there must not stop the class
            return False, "not_gradable", str(error), ""
    result = (bool(feedback.correct), feedback.code, shown(feedback.message),
              shown(feedback.answer))
    _NEW_CHECKS.append((key, result))
    return result


@functools.lru_cache(maxsize=65536)
def _canonical(exercise_id: str, answer: str) -> str:
    """A move answer as its SAN, so "nf3", "Ng1-f3" and "g1f3" are checked once."""
    from chesskit.exercises import catalog
    from chesskit.rules.notation import read_move

    exercise = catalog.exercise(exercise_id)
    if exercise.kind != "move":
        return answer
    board = exercise.position
    try:
        return str(board.san(read_move(board, answer)))
    except Exception:  # anything unreadable is checked as written
        return answer


def _credit(exercise: Any, answer: str, code: str, normalised: str) -> float | None:
    """Partial credit (half the points) where the kind allows it, else None.

    A line whose key move is right (the check went past it: the moves it kept name the key and,
    for a wrong move, the move that failed after it); a squares answer naming more than half of
    the squares with at most one wrong square.
    """
    from chesskit.exercises import move_tokens, read_squares

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
    from chesskit.exercises import catalog

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


def _saved_at(notebook: Mapping[str, Any], stored: StoredFile) -> float | None:
    """When the notebook was saved: ``metadata.chesskit.saved`` (ISO time or UNIX time) when
    the notebook has it, else the file's time."""
    meta = notebook.get("metadata")
    own = meta.get("chesskit") if isinstance(meta, Mapping) else None
    value = own.get("saved") if isinstance(own, Mapping) else None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            return dt.datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    mtime = getattr(stored, "mtime", None)
    if mtime is None and stored.member is None:
        with contextlib.suppress(OSError):
            return stored.path.stat().st_mtime
    return mtime


def _ids_list(ids: Iterable[str], *, limit: int = 8) -> str:
    ids = sorted(ids)
    return ", ".join(ids[:limit]) + (f" … (+{len(ids) - limit})" if len(ids) > limit else "")


def grade_submission(submission: Submission, *, plan: Plan | None = None, digest: str = "",
                     lang: str | None = None) -> StudentResult:
    """Grade one student's files against the plan's assignment; ``lang`` is the teacher's
    language for problem notes.  Only the items of the notebooks handed in (by default) or of
    the teacher's assignment are graded; other answers are ignored and said so."""
    plan = plan or Plan(None, lang=lang)
    lang = plan.lang if lang is None else lang
    parts = plan.parts()
    problems = list(submission.problems)
    answers: dict[str, Found] = {}
    handed: list[Handed] = []
    student_lang: str | None = None
    for name, stored in submission.files:
        data = _load(stored)
        if not isinstance(data, bytes):
            problems.append(t(f"grading.{data}", lang=lang, name=name,
                              limit=MAX_BYTES // 2**20))
            continue
        notebook, problem = _read_notebook(name, data, lang=lang)
        del data
        if notebook is None:
            problems.append(problem or "")
            continue
        found, declared = notebook_answers(notebook)
        student_lang = student_lang or _language(notebook, declared)
        own = {item.exercise_id for item in found}
        for item in found:
            answers[item.exercise_id] = item
        for item in _board_answers(notebook):
            current = answers.get(item.exercise_id)
            if current is None or current.answer == "":
                answers[item.exercise_id] = item
                own.add(item.exercise_id)
        part = parts.part_of(name) or next(
            (p for p in parts.parts if plan.assignment and own & set(p.ids)), None)
        if part is None:
            problems.append(t("grading.not_in_assignment_file", lang=lang, name=name))
        handed.append(Handed(name, part.name if part else "", _saved_at(notebook, stored)))
    if not submission.files and not problems:
        problems.append(t("grading.no_files", lang=lang))
    if plan.assignment is not None:
        wanted = set(plan.assignment.ids())
    else:
        names = {h.part for h in handed}
        wanted = {i for p in parts.parts if p.name in names for i in p.ids}
    ignored = {i for i, f in answers.items() if i not in wanted and f.answer != ""}
    if ignored:
        problems.append(t("grading.ignored", lang=lang, n=len(ignored), ids=_ids_list(ignored)))
    language = student_lang or "en"
    marks = tuple(_judge(answers[i], lang=language, book=plan.book)
                  for i in sorted(answers) if i in wanted)
    return StudentResult(submission.student, language, digest, marks,
                         tuple(shown(p, limit=2 * MAX_SHOWN) for p in problems),
                         submission.name or submission.student, tuple(handed))


def _bank_fingerprint() -> str:
    from chesskit import __version__
    from chesskit.exercises import catalog

    digest = hashlib.sha256(__version__.encode())
    for entry in sorted(Path(catalog.bank_dir()).glob("*.toml")):
        digest.update(entry.name.encode() + entry.read_bytes())
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


def _grade_job(job: tuple[Submission, str | None, Plan],
               ) -> tuple[str, StudentResult | None, list[tuple[str, Check]]]:
    """A worker's task: grade one student unless the stored digest says nothing changed."""
    submission, stored, plan = job
    digest = _digest(submission, plan)
    if digest == stored:
        return submission.student, None, []
    _NEW_CHECKS.clear()
    result = grade_submission(submission, plan=plan, digest=digest)
    new = list(_NEW_CHECKS)
    _NEW_CHECKS.clear()
    return submission.student, result, new


def _follow_parent(parent: int) -> None:
    """In a worker: end when the grading run that started it is gone (even by ``kill -9``)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _graded(jobs: list[tuple[Submission, str | None, Plan]], *, workers: int,
            ) -> Iterator[tuple[str, StudentResult | None, list[tuple[str, Check]]]]:
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
    from chesskit.teacher.report import write_outputs

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    _checked.cache_clear()
    _canonical.cache_clear()
    book_path = folder / "gradebook.sqlite"
    with Gradebook(book_path) as book:
        bank = _bank_fingerprint()
        if book.setting("bank") != bank:
            book.forget_checks()
            book.set_setting("bank", bank)
        if isinstance(assignment, str | Path):
            assignment = read_assignment(assignment)
        if assignment is not None:
            book.set_setting("assignment", assignment.source)
        else:
            stored = book.setting("assignment")
            assignment = parse_assignment(stored) if stored else None
        plan = Plan(assignment, str(book_path), lang, bank)
        found, loose = _submissions(submissions, lang=lang, parts=plan.parts())
        book.set_setting("loose", json.dumps(loose, ensure_ascii=False))
        work = [(s, book.digest(s.student), plan) for s in found]
        unchanged = []
        for done, (student, result, checks) in enumerate(_graded(work, workers=jobs), 1):
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


def _manage(args: argparse.Namespace) -> int:
    """``--remove NAME`` / ``--rename OLD NEW``: change the gradebook, then rewrite the
    outputs from it."""
    from chesskit.teacher.report import write_outputs

    folder = Path(args.out)
    if not (folder / "gradebook.sqlite").exists():
        raise GradingError(t("grading.no_gradebook", path=folder / "gradebook.sqlite"))
    with Gradebook(folder / "gradebook.sqlite") as book:
        for name in args.remove or ():
            book.remove(name)
            print(t("grading.removed", lang=args.lang, student=name))
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
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                        help=t("grading.cli_jobs"))
    parser.add_argument("--remove", action="append", metavar="NAME",
                        help=t("grading.cli_remove"))
    parser.add_argument("--rename", nargs=2, metavar=("OLD", "NEW"),
                        help=t("grading.cli_rename"))
    args = parser.parse_args(argv)
    if args.remove or args.rename:
        return _manage(args)
    if not args.submissions:
        parser.error(t("grading.cli_nothing"))
    report = grade(args.submissions, out=args.out, lang=args.lang, progress=sys.stderr,
                   assignment=args.assignment, jobs=args.jobs)
    print(t("grading.summary", lang=args.lang, students=len(report.students),
            exercises=len(report.exercises), problems=len(report.problems), csv=report.csv,
            html=report.html))
    return 0 if report.students else 1
