"""Grade a class's exercise notebooks without running a line of their code.

Answers are read with :mod:`ast` from the notebook source (the literal argument of
``ck.answer("12.07", "...")``) and from the board, then judged by the exercise bank.  A notebook
that calls ``os.system`` or loops forever grades like any other: nothing is executed.

>>> notebook_answers({"cells": [{"cell_type": "code", "source": 'ck.answer("01.01", "Ra8#")'}]})
([Found(exercise_id='01.01', answer='Ra8#', origin='code')], None)
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import contextlib
import datetime as dt
import functools
import hashlib
import json
import multiprocessing
import os
import re
import stat
import sys
import threading
import time
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import chess

from chesskit import i18n
from chesskit.assignment import Assignment, course_default, parse_assignment, read_assignment
from chesskit.errors import GradingError
from chesskit.gradebook import Check, Gradebook, Handed, Mark, StudentResult, cached_check
from chesskit.i18n import t

MAX_BYTES = 20 * 1024 * 1024
Answer = str | list[str]


@dataclass(frozen=True)
class Found:
    """An answer found in a notebook; ``answer`` is None when it is not a literal."""

    exercise_id: str
    answer: Answer | None
    origin: str = "code"
    after_solution: bool = field(default=False, repr=False)


@dataclass(frozen=True)
class StoredFile:
    """A submitted file (or a zip member), read only when it is graded: a class's files never
    sit in memory all at once."""

    path: Path
    member: str | None = None
    mtime: float | None = None

    def read(self) -> bytes | None:
        """The content, or None when it is over MAX_BYTES; OSError or BadZipFile if broken."""
        if self.member is None:
            with self.path.open("rb") as stream:
                return _read_bounded(stream)
        with zipfile.ZipFile(self.path) as archive, archive.open(self.member) as stream:
            return _read_bounded(stream)


@dataclass(frozen=True)
class Submission:
    """One student's files ``(name, file)`` and what went wrong collecting them."""

    student: str
    files: tuple[tuple[str, StoredFile], ...] = ()
    problems: tuple[str, ...] = ()
    name: str = ""


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


# ---------------------------------------------------------------- reading notebook source

def _python_source(source: str) -> str:
    """The cell with IPython magics and shell lines turned into ``pass`` (a cell magic: empty)."""
    lines = source.splitlines()
    if lines and lines[0].lstrip().startswith("%%"):
        return ""
    out = []
    for line in lines:
        body = line.lstrip()
        out.append(line[: len(line) - len(body)] + "pass" if body[:1] in ("%", "!") else line)
    return "\n".join(out)


def _parse(source: str) -> list[ast.AST]:
    """The cell's syntax trees: the whole cell, or line by line when the cell does not parse."""
    with contextlib.suppress(SyntaxError, ValueError, RecursionError, MemoryError):
        return [ast.parse(source)]
    trees: list[ast.AST] = []
    for line in source.splitlines():
        with contextlib.suppress(SyntaxError, ValueError, RecursionError, MemoryError):
            trees.append(ast.parse(line.strip()))
    return trees


def _cell_sources(notebook: Mapping[str, Any]) -> Iterator[str]:
    cells = notebook.get("cells")
    for cell in cells if isinstance(cells, list) else []:
        if isinstance(cell, Mapping) and cell.get("cell_type") == "code":
            source = cell.get("source", "")
            if isinstance(source, list):
                source = "".join(s for s in source if isinstance(s, str))
            if isinstance(source, str):
                yield _python_source(source)


def _aliases(trees: Iterable[ast.AST]) -> tuple[set[str], set[str]]:
    """Names bound to the chesskit module, and to its ``answer`` function."""
    modules, functions = {"ck", "chesskit"}, set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules |= {a.asname or a.name for a in node.names if a.name == "chesskit"}
            elif isinstance(node, ast.ImportFrom) and node.module == "chesskit":
                functions |= {a.asname or a.name for a in node.names if a.name == "answer"}
    return modules, functions


def _calls(trees: Iterable[ast.AST], name: str, modules: set[str],
           functions: set[str]) -> Iterator[ast.Call]:
    """Calls of ``chesskit.<name>`` in source order."""
    for tree in trees:
        found = []
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if ((isinstance(func, ast.Attribute) and func.attr == name
                 and isinstance(func.value, ast.Name) and func.value.id in modules)
                    or (isinstance(func, ast.Name) and func.id in functions)):
                found.append(node)
        yield from sorted(found, key=lambda n: (n.lineno, n.col_offset))


def _literal(node: ast.expr | None) -> Answer | None:
    """The answer written in ``node`` as text or a list of texts; None if it is not a literal."""
    if node is None:
        return ""
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, list | tuple) and all(isinstance(v, str | int) for v in value):
        return [str(v) for v in value]
    return None


def _argument(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    if len(call.args) > index:
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def notebook_answers(notebook: Mapping[str, Any]) -> tuple[list[Found], str | None]:
    """Every ``ck.answer`` call in the notebook, in order, and the language it sets (or None).

    >>> notebook_answers({"cells": [{"cell_type": "code",
    ...                   "source": "ck.set_language('zh-Hans')\\nck.answer('01.01', x)"}]})
    ([Found(exercise_id='01.01', answer=None, origin='code')], 'zh-Hans')
    """
    trees = [tree for source in _cell_sources(notebook) for tree in _parse(source)]
    modules, functions = _aliases(trees)
    found = []
    for call in _calls(trees, "answer", modules, functions):
        exercise_id = _literal(_argument(call, 0, "exercise_id"))
        if isinstance(exercise_id, str) and exercise_id:
            found.append(Found(exercise_id, _literal(_argument(call, 1, "answer"))))
    language = None
    for call in _calls(trees, "set_language", modules, {"set_language"}):
        value = _literal(_argument(call, 0, "lang"))
        language = value if isinstance(value, str) else language
    return found, language


def _board_answers(notebook: Mapping[str, Any]) -> list[Found]:
    """Answers given on the board, as ``chesskit.boardstate`` records them in the notebook."""
    try:
        from chesskit.boardstate import board_answers
    except ImportError:
        return []
    try:
        found = board_answers(notebook)
        items = found.items() if isinstance(found, Mapping) else found
        return [Found(str(k), v if isinstance(v, str | list) else str(v), "board")
                for k, v in items]
    except Exception:  # a damaged board record must not stop the batch
        return []


def _language(notebook: Mapping[str, Any], declared: str | None) -> str:
    meta = notebook.get("metadata")
    meta = meta if isinstance(meta, Mapping) else {}
    own = meta.get("chesskit")
    own = own if isinstance(own, Mapping) else {}
    candidates = [declared, own.get("language"), own.get("lang"), meta.get("language")]
    for value in candidates:
        if isinstance(value, str):
            with contextlib.suppress(ValueError):
                return i18n.normalize_language(value)
    return "en"


# ---------------------------------------------------------------- collecting submissions

_DRIVE = re.compile(r"^[A-Za-z]:")


def _unsafe_name(name: str) -> bool:
    """True for names that climb out (``..``), are absolute, or hide control characters."""
    parts = name.replace("\\", "/").split("/")
    return (name.startswith(("/", "\\")) or bool(_DRIVE.match(name)) or ".." in parts
            or any(ord(c) < 32 for c in name))


def _ignored(parts: Iterable[str]) -> bool:
    """Hidden files, checkpoints and macOS archive debris, skipped without a word."""
    return any(p.startswith(".") and p != ".." or p == "__MACOSX" for p in parts)


def _read_bounded(stream: IO[bytes]) -> bytes | None:
    data = stream.read(MAX_BYTES + 1)
    return None if len(data) > MAX_BYTES else data


Piece = tuple[str, str, StoredFile | None, str | None]  # student, file name, file, problem


def _from_zip(path: Path, *, lang: str | None) -> Iterator[Piece]:
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError):
        yield "", path.name, None, t("grading.bad_zip", lang=lang, name=path.name)
        return
    with archive:
        for info in sorted(archive.infolist(), key=lambda i: i.filename):
            name = info.filename
            parts = [p for p in name.replace("\\", "/").split("/") if p]
            if info.is_dir() or not parts:
                continue
            student = parts[0] if len(parts) > 1 else Path(parts[0]).stem
            if _unsafe_name(name) or stat.S_ISLNK(info.external_attr >> 16):
                owner = "" if name.startswith(("/", "\\")) or _DRIVE.match(name) else student
                yield owner, name, None, t("grading.unsafe_member", lang=lang, name=name)
            elif _ignored(parts):
                continue
            elif info.file_size > MAX_BYTES:
                yield student, name, None, t("grading.too_big", lang=lang, name=name,
                                             limit=MAX_BYTES // 2**20)
            else:
                yield student, parts[-1], StoredFile(path, name), None


def _from_file(path: Path, student: str, *, lang: str | None) -> Piece:
    if path.is_symlink():
        return student, path.name, None, t("grading.link", lang=lang, name=path.name)
    if path.stat().st_size > MAX_BYTES:
        return student, path.name, None, t("grading.too_big", lang=lang, name=path.name,
                                           limit=MAX_BYTES // 2**20)
    return student, path.name, StoredFile(path), None


def _from_folder(folder: Path, *, lang: str | None) -> Iterator[Piece]:
    """A student's folder: every file below it (hidden ones and checkpoints skipped)."""
    if folder.is_symlink():
        yield folder.name, folder.name, None, t("grading.link", lang=lang, name=folder.name)
        return
    for path in sorted(folder.rglob("*")):
        if not path.is_dir() and not _ignored(path.relative_to(folder).parts):
            yield _from_file(path, folder.name, lang=lang)


def _pieces(path: Path, *, lang: str | None) -> Iterator[Piece]:
    if not path.exists() and not path.is_symlink():
        yield "", str(path), None, t("grading.not_found", lang=lang, path=path)
    elif path.is_dir() and not path.is_symlink():
        for entry in sorted(path.iterdir()):
            if _ignored([entry.name]):
                continue
            if entry.is_dir():
                yield from _from_folder(entry, lang=lang)
            elif entry.suffix.lower() in (".ipynb", ".zip"):
                yield from _pieces(entry, lang=lang)
            else:
                yield "", entry.name, None, t("grading.not_notebook", lang=lang, name=entry.name)
    elif path.suffix.lower() == ".zip":
        yield from _from_zip(path, lang=lang)
    elif path.suffix.lower() == ".ipynb":
        yield _from_file(path, path.stem, lang=lang)
    else:
        yield "", path.name, None, t("grading.not_notebook", lang=lang, name=path.name)


def collect(paths: Iterable[str | Path], *, lang: str | None = None,
            ) -> tuple[list[Submission], list[tuple[str, str]]]:
    """The submissions under ``paths`` by student, and the problems no student owns.

    Folders hold a folder per student or notebooks named by student (``ana.ipynb``); a zip's
    first folder names the student.  Unsafe names and files over 20 MB are refused.
    """
    files: dict[str, list[tuple[str, StoredFile]]] = {}
    problems: dict[str, list[str]] = {}
    loose: list[tuple[str, str]] = []
    for path in paths:
        for student, name, data, problem in _pieces(Path(path), lang=lang):
            if not student or _unsafe_name(student) or student.startswith("."):
                loose.append((name, problem or t("grading.unsafe_student", lang=lang,
                                                  name=student)))
                continue
            files.setdefault(student, [])
            if problem:
                problems.setdefault(student, []).append(problem)
            if data is not None:
                files[student].append((name, data))
    found = [Submission(s, tuple(files[s]), tuple(problems.get(s, ()))) for s in sorted(files)]
    return found, loose


# ---------------------------------------------------------------- grading

MAX_SHOWN = 200  # characters of an answer or a message kept in the gradebook and pages
DIGEST_VERSION = b"grade-2"


@contextlib.contextmanager
def _speaking(lang: str) -> Iterator[None]:
    """Let the bank's feedback speak ``lang`` for a moment."""
    before = i18n._current
    i18n.set_language(lang)
    try:
        yield
    finally:
        i18n._current = before


def _load(stored: StoredFile) -> bytes | str:
    """The file's bytes, or the locale key of what is wrong with it."""
    try:
        data = stored.read()
    except (RuntimeError, zipfile.BadZipFile, OSError, ValueError):
        return "bad_zip" if stored.member is not None else "unreadable"
    return "too_big" if data is None else data


def _read_notebook(name: str, data: bytes, *, lang: str | None,
                   ) -> tuple[Mapping[str, Any] | None, str | None]:
    if not name.lower().endswith(".ipynb"):
        return None, t("grading.not_notebook", lang=lang, name=name)
    try:
        notebook = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        return None, t("grading.bad_json", lang=lang, name=name, error=str(error)[:80])
    if not isinstance(notebook, Mapping) or not isinstance(notebook.get("cells"), list):
        return None, t("grading.not_notebook", lang=lang, name=name)
    return notebook, None


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
    from chesskit import catalog

    key = _check_key(exercise_id, answer, lang)
    known = cached_check(book, key) if book else None
    if known is not None:
        return known
    exercise = catalog.exercise(exercise_id)
    with _speaking(lang):
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
    from chesskit import catalog
    from chesskit.notation import read_move

    exercise = catalog.exercise(exercise_id)
    if exercise.kind != "move":
        return answer
    board = exercise._board
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
    from chesskit import catalog

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
    from chesskit import __version__, catalog

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
    """Results student by student, from a pool of ``workers`` processes when that pays.

    The first student is graded here before the pool starts: the workers are forked with the
    checks that student needed (the class's right answers, mostly) already remembered.
    """
    if workers <= 1 or len(jobs) < 4:
        yield from map(_grade_job, jobs)
        return
    yield _grade_job(jobs[0])
    jobs = jobs[1:]
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
    from chesskit.report import write_outputs

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
    from chesskit.report import write_outputs

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
