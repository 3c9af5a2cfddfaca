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
import contextlib
import csv
import functools
import hashlib
import json
import re
import stat
import sys
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import IO, Any

from chesskit import i18n
from chesskit.errors import BankError
from chesskit.gradebook import Gradebook, Mark, StudentResult
from chesskit.i18n import t

MAX_BYTES = 20 * 1024 * 1024
Answer = str | list[str]


@dataclass(frozen=True)
class Found:
    """An answer found in a notebook; ``answer`` is None when it is not a literal."""

    exercise_id: str
    answer: Answer | None
    origin: str = "code"


@dataclass(frozen=True)
class StoredFile:
    """A submitted file (or a zip member), read only when it is graded: a class's files never
    sit in memory all at once."""

    path: Path
    member: str | None = None

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
        items = found.items() if isinstance(found, Mapping) else [
            (a.exercise_id, a.answer) for a in found]
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
