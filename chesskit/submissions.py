"""Finding a class's students and their files: folders, notebooks and LMS zip exports.

Files are only listed here; their bytes are read one at a time when they are graded.

>>> collect([])
([], [])
"""

from __future__ import annotations

import re
import stat
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from chesskit.i18n import t

MAX_BYTES = 20 * 1024 * 1024


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



def _load(stored: StoredFile) -> bytes | str:
    """The file's bytes, or the locale key of what is wrong with it."""
    try:
        data = stored.read()
    except (RuntimeError, zipfile.BadZipFile, OSError, ValueError):
        return "bad_zip" if stored.member is not None else "unreadable"
    return "too_big" if data is None else data

