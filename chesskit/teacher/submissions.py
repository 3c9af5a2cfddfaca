"""Finding a class's students and their files: folders, notebooks and LMS zip exports.

Files are only listed here; their bytes are read one at a time when they are graded, and a zip
is opened once per process (a worker never shares a parent's file position).  Nothing here
ever opens a link, a pipe or a device, and every bad input becomes a sentence for its student
while the rest of the class is still found.

Exports are read as the learning platforms write them:

- Moodle: a folder per student ``Ana Lee_1000_assignsubmission_file_/07-castling.ipynb``, or
  flat files ``Ana Lee_1000_assignsubmission_file_07-castling.ipynb``;
- Canvas: flat files ``leeana_12345_67890_07-castling.ipynb`` (``_late_`` after the name when
  handed in late, ``-1`` before ``.ipynb`` for a file handed in again);
- Google Classroom (a Drive download): ``Homework 7/Ana Lee - 07-castling.ipynb``;
- plain folders (a folder per student, or ``ana.ipynb`` per student) and zips of them.

A lesson's exercise notebook is ``07-castling-exercises.ipynb``; classes hand in the older name
``07-castling.ipynb`` too, and both are the same part (``Assignment.part_of``).

>>> student_of(("Ana Lee_1000_assignsubmission_file_", "07-castling.ipynb"))
Owner(student='Ana Lee', file='07-castling.ipynb', late=None, key='1000', keyed=False)
>>> student_of(("leeana_late_12345_67890_07-castling-1.ipynb",))
Owner(student='leeana', file='07-castling.ipynb', late=True, key='12345', keyed=True)
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import re
import stat
import struct
import time
import unicodedata
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, NamedTuple

from chesskit.i18n import t

MAX_BYTES = 20 * 1024 * 1024
MAX_ID_BYTES = 60  # a student identity in UTF-8: short enough for any file system
MAX_NAME = 100  # characters of a display name
MAX_DEPTH = 12  # folder levels read below a root


@dataclass(frozen=True)
class StoredFile:
    """A submitted file (or a zip member), read only when it is graded: a class's files never
    sit in memory all at once.  ``mtime`` is the file's time (a zip entry's date); ``late`` is
    what the LMS export says (Canvas marks late work), None when it says nothing."""

    path: Path
    member: str | None = None
    mtime: float | None = None
    index: int | None = None  # the entry's place in the zip (a name may be there twice)
    late: bool | None = None
    inner: str | None = None  # an entry of the zip ``member`` (a zip inside the LMS zip)

    @property
    def label(self) -> str:
        """The file's own name as the export has it (``Ana - 07-castling (1).ipynb``)."""
        name = self.inner or self.member or self.path.name
        return name.replace("\\", "/").rsplit("/", 1)[-1]

    def read(self) -> bytes | None:
        """The content, or None when it is over MAX_BYTES; OSError or BadZipFile if broken.
        A file on disk is opened only if it is a regular file (never a pipe or device)."""
        if self.member is None:
            return _read_regular(self.path)
        if self.inner is not None:
            nested = _nested(self.path, self.member, self.index)
            if nested is None:
                return None
            with nested.zip.open(self.inner) as stream:
                return _read_bounded(stream)
        archive = _archive(self.path)
        with archive.zip.open(archive.info(self.member, self.index)) as stream:
            return _read_bounded(stream)


@dataclass(frozen=True)
class Submission:
    """One student's files ``(name, file)`` and what went wrong collecting them.
    ``student`` is the stable identity (the same on every run), ``name`` the display name."""

    student: str
    files: tuple[tuple[str, StoredFile], ...] = ()
    problems: tuple[str, ...] = ()
    name: str = ""


# ---------------------------------------------------------------- names

_DRIVE = re.compile(r"^[A-Za-z]:")
_FORBIDDEN = re.compile(r'[\x00-\x1f\x7f<>:"/\\|?*]')
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
             *(f"lpt{i}" for i in range(10))}
_MOODLE_FOLDER = re.compile(r"(?P<name>.+?)_(?P<id>\d+)_assign(?:submission|feedback)_[a-z]+_?")
_MOODLE_FILE = re.compile(r"(?P<name>.+?)_(?P<id>\d+)_assignsubmission_[a-z]+_(?P<file>.+)")
_CANVAS_FILE = re.compile(
    r"(?P<name>[^\W_]+)(?P<late>_late)?_(?P<id>\d+)_(?P<attachment>\d+)_(?P<file>.+)",
    re.IGNORECASE)
_CLASSROOM_FILE = re.compile(r"(?P<name>.+) - (?P<file>(?:(?! - ).)+\.ipynb)", re.IGNORECASE)
_COURSE_NOTEBOOK = re.compile(r"(?:[\w.-]*_)?\d\d-[\w-]+\.ipynb", re.IGNORECASE)


def decode_name(raw: bytes) -> str:
    """A file name's bytes as text: UTF-8, else GBK when the CP437 reading would be mojibake
    (box drawing and Greek letters never make a name), else CP437.

    >>> decode_name("王小明".encode("gbk")), decode_name("José".encode("cp437"))
    ('王小明', 'José')
    """
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if any(byte >= 0xB0 for byte in raw):
        try:
            return raw.decode("gbk")
        except UnicodeDecodeError:
            pass
    return raw.decode("cp437")


def display_name(raw: str) -> str:
    """A name as a teacher reads it: no control characters, spaces collapsed, bounded.

    >>> display_name("  Ana\\tLee\\x00 ")
    'Ana Lee'
    """
    text = unicodedata.normalize("NFC", raw)
    text = "".join(c if c.isprintable() else " " for c in text)
    text = " ".join(text.split())
    return text if len(text) <= MAX_NAME else text[: MAX_NAME - 1] + "…"


def student_id(raw: str, *, hashed: bool = False) -> str:
    """A safe, stable, bounded identity for a student name: the same name gives the same
    identity on every run; a long or odd name (or any name when ``hashed``: a look-alike of
    another) is cut and a short hash of its exact spelling added.

    >>> student_id("Ana Lee"), len(student_id("a" * 255).encode()) <= MAX_ID_BYTES
    ('Ana Lee', True)
    >>> student_id("(class note)")[:14]
    '_(class note)-'
    """
    shown = display_name(raw)
    name = _cleaned(shown)
    if name == shown and 0 < len(name.encode()) <= MAX_ID_BYTES and not hashed:
        return name
    digest = hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    head = name.encode()[: MAX_ID_BYTES - 9].decode("utf-8", "ignore").rstrip(" .")
    return f"{head or 'student'}-{digest}"


class Owner(NamedTuple):
    """Who handed a file in: ``student`` (the name as the export spells it), the ``file``'s
    own name, ``late`` as the export says (None: it says nothing), and the export's ``key``
    for the student (Moodle's participant number, Canvas's user id).  A ``keyed`` student's
    identity always carries the key (Canvas ids never change); otherwise only when two
    students share a name."""

    student: str
    file: str = ""
    late: bool | None = None
    key: str = ""
    keyed: bool = False


def folder_owner(folder: str, file: str = "") -> Owner:
    """The student a folder names (Moodle's ``_1000_assignsubmission_file_`` tail removed).

    >>> folder_owner("Ana Lee_1000_assignsubmission_file_").student
    'Ana Lee'
    """
    moodle = _MOODLE_FOLDER.fullmatch(folder)
    return Owner(moodle["name"], file, None, moodle["id"]) if moodle else Owner(folder, file)


def _cleaned(name: str) -> str:
    """Without characters a file name cannot hold; a reserved-looking name (``CON``, or a
    bracketed one like the CSV's ``(class note)`` rows) escaped with ``_``."""
    name = _FORBIDDEN.sub("_", name).strip(" .")
    reserved = name.lower().partition(".")[0] in _RESERVED or name.startswith(("(", "["))
    return "_" + name if reserved else name


def likeness(name: str) -> str:
    """What a name looks like to a person: Unicode-normalised (NFKC), invisible characters
    (zero-width spaces, controls) dropped, spaces collapsed, case folded.  Two spellings with
    one likeness are never merged or split silently.

    >>> likeness("Ana\u200b") == likeness("ANA\u00a0") == likeness("Ana")
    True
    """
    text = unicodedata.normalize("NFKC", name)
    text = "".join(" " if c.isspace() else c for c in text
                   if unicodedata.category(c) not in ("Cf", "Cc", "Zl", "Zp") or c.isspace())
    return " ".join(text.split()).casefold()


def _resubmitted(name: str) -> str:
    """Canvas's name for a file handed in again (``07-castling-1.ipynb``) without the count."""
    return re.sub(r"-\d+(?=\.ipynb$)", "", name, flags=re.IGNORECASE)


def _drive_copy(name: str) -> str:
    """Google Drive's name for a second copy (``07-castling (1).ipynb``) without the count."""
    return re.sub(r" \(\d+\)(?=\.ipynb$)", "", name, flags=re.IGNORECASE)


def student_of(parts: tuple[str, ...], *, single: str | None = None) -> Owner:
    """Who handed in the file at ``parts`` below a root; ``single`` names the student when
    the root is one student's folder.  ``student`` is "" when no student can be told (a
    stray file at the root)."""
    name = parts[-1]
    if len(parts) > 1:
        return folder_owner(parts[0], name)
    if moodle := _MOODLE_FILE.fullmatch(name):
        return Owner(moodle["name"], moodle["file"], None, moodle["id"])
    if canvas := _CANVAS_FILE.fullmatch(name):
        return Owner(canvas["name"], _resubmitted(canvas["file"]), canvas["late"] is not None,
                     canvas["id"], keyed=True)
    if classroom := _CLASSROOM_FILE.fullmatch(name):
        return Owner(classroom["name"].strip(), _drive_copy(classroom["file"]))
    if single is not None:
        return Owner(single, name)
    if name.lower().endswith(".ipynb"):
        return Owner(name[: -len(".ipynb")], name)
    return Owner("", name)


def _unsafe_name(name: str) -> bool:
    """True for names that climb out (``..``), are absolute, or hide a NUL byte."""
    parts = name.replace("\\", "/").split("/")
    return (name.startswith(("/", "\\")) or bool(_DRIVE.match(name)) or ".." in parts
            or "\x00" in name)


def _ignored(parts: Iterable[str]) -> bool:
    """Hidden files, checkpoints and macOS archive debris, skipped without a word."""
    return any(p.startswith(".") and p != ".." or p == "__MACOSX" for p in parts)


# ---------------------------------------------------------------- reading

def _read_bounded(stream: IO[bytes]) -> bytes | None:
    data = stream.read(MAX_BYTES + 1)
    return None if len(data) > MAX_BYTES else data


def _read_regular(path: Path) -> bytes | None:
    """A regular file's bytes; a pipe, device or link is refused without waiting on it."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(path, flags | getattr(os, "O_BINARY", 0))
    with os.fdopen(descriptor, "rb") as stream:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(f"{path} is not a regular file")
        return _read_bounded(stream)


class _Archive:
    """An open zip and its entries, shared by every file read from it during a run."""

    def __init__(self, path: Path | IO[bytes]) -> None:
        self.zip = zipfile.ZipFile(path)
        self.infos = self.zip.infolist()

    def info(self, member: str, index: int | None) -> zipfile.ZipInfo:
        """The entry at ``index`` (a name may be there twice), else by name."""
        if index is not None and index < len(self.infos):
            return self.infos[index]
        return self.zip.getinfo(member)


@functools.lru_cache(maxsize=8)
def _opened(path: Path, stamp: tuple[int, int, int], pid: int) -> _Archive:
    del pid  # only keys the cache: a forked worker must open its own handle
    return _Archive(path)


def _archive(path: Path) -> _Archive:
    """The zip at ``path``, opened once per process while it is unchanged (a few are kept
    open).  A handle is never shared across a fork: two processes reading one file
    descriptor move each other's file position and read each other's bytes."""
    info = path.stat()
    return _opened(path, (info.st_size, info.st_mtime_ns, info.st_ino), os.getpid())


@functools.lru_cache(maxsize=2)
def _nested_in(path: Path, stamp: tuple[int, int, int], pid: int, member: str,
               index: int | None) -> _Archive | None:
    del stamp, pid  # only key the cache
    outer = _archive(path)
    with outer.zip.open(outer.info(member, index)) as stream:
        data = _read_bounded(stream)
    return None if data is None else _Archive(io.BytesIO(data))


def _nested(path: Path, member: str, index: int | None) -> _Archive | None:
    """The zip stored as ``member`` of the zip at ``path`` (None when over MAX_BYTES), read
    into memory once per process."""
    info = path.stat()
    return _nested_in(path, (info.st_size, info.st_mtime_ns, info.st_ino), os.getpid(),
                      member, index)


def _load(stored: StoredFile) -> bytes | str:
    """The file's bytes, or the ``grading`` locale key of what is wrong with it."""
    try:
        data = stored.read()
    except (RuntimeError, NotImplementedError, EOFError, zipfile.BadZipFile, zlib.error,
            OSError, ValueError):
        return "damaged" if stored.member is not None else "unreadable"
    return "too_big" if data is None else data


# ---------------------------------------------------------------- listing

@dataclass(frozen=True)
class _Entry:
    """Something found below a root: ``kind`` is file, dir, link or special."""

    parts: tuple[str, ...]
    kind: str
    size: int = 0
    stored: StoredFile | None = None
    problem: str | None = None  # a sentence, for an entry refused while listing


def _fs_name(name: str) -> str:
    """A name from the file system as text (bytes that are not UTF-8 decoded as GBK/CP437)."""
    return decode_name(os.fsencode(name))


def _walk(folder: Path, parts: tuple[str, ...] = ()) -> Iterator[_Entry]:
    """Everything below ``folder`` without following a link or opening a file."""
    try:
        with os.scandir(folder) as listing:
            found = sorted(listing, key=lambda e: os.fsencode(e.name))
    except OSError:
        return
    for entry in found:
        here = (*parts, _fs_name(entry.name))
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISLNK(info.st_mode):
            yield _Entry(here, "link")
        elif stat.S_ISDIR(info.st_mode):
            yield _Entry(here, "dir")
            if len(here) < MAX_DEPTH:
                yield from _walk(Path(entry.path), here)
        elif stat.S_ISREG(info.st_mode):
            yield _Entry(here, "file", info.st_size,
                         StoredFile(Path(entry.path), mtime=info.st_mtime))
        else:
            yield _Entry(here, "special")


def _extra_fields(extra: bytes) -> dict[int, bytes]:
    fields, at = {}, 0
    while at + 4 <= len(extra):
        kind, size = struct.unpack_from("<HH", extra, at)
        fields[kind] = extra[at + 4: at + 4 + size]
        at += 4 + size
    return fields


def _zip_name(info: zipfile.ZipInfo, fields: dict[int, bytes]) -> str:
    """The entry's name decoded right: the UTF-8 flag, Info-ZIP's Unicode path field, else
    the bytes read as UTF-8, GBK or CP437."""
    if info.flag_bits & 0x800:
        return info.orig_filename
    raw = info.orig_filename.encode("cp437")
    unicode_path = fields.get(0x7075, b"")
    if len(unicode_path) > 5 and struct.unpack_from("<I", unicode_path, 1)[0] == zlib.crc32(raw):
        try:
            return unicode_path[5:].decode("utf-8")
        except UnicodeDecodeError:
            pass
    return decode_name(raw)


def _zip_time(info: zipfile.ZipInfo, fields: dict[int, bytes]) -> float | None:
    """The entry's time: the extended timestamp (UTC) when present, else its DOS date."""
    stamp = fields.get(0x5455, b"")
    if len(stamp) >= 5 and stamp[0] & 1:
        return float(struct.unpack_from("<i", stamp, 1)[0])
    try:
        return time.mktime((*info.date_time, 0, 0, -1))
    except (OverflowError, ValueError):
        return None


def _zip_entries(path: Path, *, lang: str | None, inside: tuple[str, int] | None = None,
                 ) -> Iterator[_Entry]:
    """The entries of the zip at ``path`` (or of its member ``inside``, a zip handed in in
    the LMS zip: its entries are read one level deep, below the zip's own name)."""
    archive = _nested(path, *inside) if inside is not None else _archive(path)
    if archive is None:
        return
    for index, info in enumerate(archive.infos):
        fields = _extra_fields(info.extra)
        name = _zip_name(info, fields)
        parts = tuple(p for p in name.replace("\\", "/").split("/") if p)
        mode = info.external_attr >> 16
        if not parts:
            continue
        if _unsafe_name(name) or stat.S_ISLNK(mode):
            shown = name.replace("\x00", "\\0")
            climbs = name.startswith(("/", "\\")) or _DRIVE.match(name) or parts[0] == ".."
            yield _Entry(("" if climbs else parts[0], shown), "refused",
                         problem=t("grading.unsafe_member", lang=lang, name=shown))
        elif info.is_dir():
            yield _Entry(parts, "dir")
        elif stat.S_IFMT(mode) not in (0, stat.S_IFREG):
            yield _Entry(parts, "special")
        elif inside is not None:
            yield _Entry(parts, "file", info.file_size,
                         StoredFile(path, inside[0], _zip_time(info, fields), inside[1],
                                    inner=info.filename))
        elif parts[-1].lower().endswith(".zip") and len(parts) <= 2:
            yield from _nested_entries(path, info, index, parts, lang=lang)
        else:
            yield _Entry(parts, "file", info.file_size,
                         StoredFile(path, info.filename, _zip_time(info, fields), index))


def _nested_entries(path: Path, info: zipfile.ZipInfo, index: int, parts: tuple[str, ...], *,
                    lang: str | None) -> Iterator[_Entry]:
    """A zip inside the LMS zip (``ana.zip``, ``Ana/work.zip``): its entries, below the
    student it names; one that cannot be read is that student's problem."""
    owner = parts[:-1] or (parts[-1][: -len(".zip")],)
    refused = _Entry((owner[0], parts[-1]), "refused",
                     problem=t("grading.bad_zip", lang=lang, name=parts[-1]))
    if info.file_size > MAX_BYTES:
        yield refused
        return
    try:
        inner = list(_zip_entries(path, lang=lang, inside=(info.filename, index)))
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, RuntimeError,
            NotImplementedError, zlib.error):
        yield refused
        return
    for entry in inner:
        if entry.kind == "refused":
            yield _Entry((owner[0], entry.parts[-1]), "refused", problem=entry.problem)
        elif entry.parts[-1].lower().endswith(".zip"):
            yield _Entry((*owner, *entry.parts), "refused", problem=t(
                "submissions.zip_too_deep", lang=lang, name=entry.parts[-1]))
        else:
            yield replace(entry, parts=(*owner, *entry.parts))


def _unwrapped(entries: list[_Entry]) -> list[_Entry]:
    """Without the one folder that wraps a whole export (a Drive download's assignment
    folder, a zipped class folder), when what is inside it names the students."""
    kept = [e for e in entries if e.kind != "refused" and not _ignored(e.parts)]
    tops = {e.parts[0] for e in kept}
    inner = [e.parts[1:] for e in kept if len(e.parts) > 1]
    if (len(tops) != 1 or not inner or any(len(e.parts) == 1 and e.kind != "dir" for e in kept)
            or _MOODLE_FOLDER.fullmatch(next(iter(tops)))):
        return entries
    folders = {p[0] for p in inner if len(p) > 1}
    named = any(_MOODLE_FILE.fullmatch(p[0]) or _CANVAS_FILE.fullmatch(p[0])
                or _CLASSROOM_FILE.fullmatch(p[0]) for p in inner if len(p) == 1)
    if len(folders) < 2 and not named:
        return entries
    return [e if e.kind == "refused" else _Entry(e.parts[1:], e.kind, e.size, e.stored)
            for e in entries if len(e.parts) > 1]


def _one_student(entries: list[_Entry]) -> bool:
    """True when a root holds one student's notebooks (``07-castling.ipynb`` ...), not a
    notebook per student."""
    files = [e for e in entries if e.kind == "file" and not _ignored(e.parts)]
    return (bool(files) and all(len(e.parts) == 1 for e in entries
                                if e.kind != "refused" and not _ignored(e.parts))
            and all(_COURSE_NOTEBOOK.fullmatch(e.parts[0]) for e in files))


# ---------------------------------------------------------------- collecting

@dataclass(frozen=True)
class _Piece:
    owner: Owner  # student "" when no student owns it
    name: str
    stored: StoredFile | None = None
    problem: str | None = None


def _assigned(entries: list[_Entry], *, root: str, lang: str | None) -> Iterator[_Piece]:
    """Each entry given to its student, with the sentence for what is wrong with it."""
    entries = _unwrapped(entries)
    single = root if _one_student(entries) else None
    for entry in entries:
        if entry.kind == "refused":
            yield _Piece(folder_owner(entry.parts[0]), entry.parts[1], None, entry.problem)
            continue
        if _ignored(entry.parts):
            continue
        if entry.kind == "dir":
            if len(entry.parts) == 1:
                yield _Piece(folder_owner(entry.parts[0]), "")
            continue
        owner = student_of(entry.parts, single=single)
        name, late = owner.file, owner.late
        shown = name if owner.student else entry.parts[-1]
        if entry.kind == "link":
            if not owner.student:
                owner = folder_owner(entry.parts[0])  # a student folder that is a link
            yield _Piece(owner, shown, None, t("grading.link", lang=lang, name=shown))
        elif entry.kind == "special":
            yield _Piece(owner, shown, None, t("submissions.special", lang=lang, name=shown))
        elif not name.lower().endswith(".ipynb"):
            if entry.parts[-1].lower().endswith(".zip") and len(entry.parts) == 1:
                continue  # a zip at the root is a root of its own
            yield _Piece(owner, shown, None, t("grading.not_notebook", lang=lang, name=shown))
        elif entry.size > MAX_BYTES:
            yield _Piece(owner, shown, None, t("grading.too_big", lang=lang, name=shown,
                                                 limit=MAX_BYTES // 2**20))
        elif entry.stored is not None:
            stored = entry.stored if late is None else replace(entry.stored, late=late)
            yield _Piece(owner, name, stored)


def _pieces(path: Path, *, lang: str | None) -> Iterator[_Piece]:
    try:
        info = path.lstat()
    except OSError:
        yield _Piece(Owner(""), str(path), None, t("grading.not_found", lang=lang, path=path))
        return
    shown = _fs_name(path.name)
    if stat.S_ISLNK(info.st_mode):
        yield _Piece(Owner(""), shown, None, t("grading.link", lang=lang, name=shown))
    elif stat.S_ISDIR(info.st_mode):
        entries = list(_walk(path))
        yield from _assigned(entries, root=shown, lang=lang)
        for entry in entries:
            if (entry.stored is not None and len(entry.parts) == 1
                    and entry.parts[0].lower().endswith(".zip")):
                yield from _pieces(entry.stored.path, lang=lang)
    elif not stat.S_ISREG(info.st_mode):
        yield _Piece(Owner(""), shown, None, t("submissions.special", lang=lang, name=shown))
    elif path.suffix.lower() == ".zip":
        try:
            entries = list(_zip_entries(path, lang=lang))
        except (zipfile.BadZipFile, OSError, ValueError, EOFError):
            yield _Piece(Owner(""), shown, None, t("grading.bad_zip", lang=lang, name=shown))
            return
        yield from _assigned(entries, root=_fs_name(path.stem), lang=lang)
    else:
        single = _fs_name(path.parent.name) if _COURSE_NOTEBOOK.fullmatch(shown) else None
        entry = _Entry((shown,), "file", info.st_size, StoredFile(path, mtime=info.st_mtime))
        yield from _assigned([entry], root=single or "", lang=lang)


def _in_order(files: list[tuple[str, StoredFile]]) -> list[tuple[str, StoredFile]]:
    """Every copy handed in, in a fixed order; which answers count is decided when they are
    graded, by the notebooks' content and times (never by their names)."""
    return sorted(files, key=lambda f: (f[0], f[1].label, f[1].member or "", f[1].index or 0))


def _identities(owners: list[Owner], *, lang: str | None,
                ) -> tuple[dict[tuple[str, str], tuple[str, str, str]], dict[str, list[str]]]:
    """Each ``(name, LMS key)`` as a student identity, the name it is shown by and the text
    the identity is made of, and the
    notes on names that look alike.

    Spellings with one :func:`likeness` are the same student when the LMS gives them one key
    (Moodle's participant number, Canvas's user id): joined and said.  Otherwise they are
    different students: kept apart (the spelling that is exactly its shown form keeps the
    plain identity, the others get a short hash of their exact spelling) and both flagged.
    """
    groups: dict[str, dict[tuple[str, str], bool]] = {}
    for owner in owners:
        group = groups.setdefault(likeness(owner.student), {})
        group[owner.student, owner.key] = group.get((owner.student, owner.key), False) \
            or owner.keyed
    people: dict[tuple[str, str], tuple[str, str, str]] = {}
    notes: dict[str, list[str]] = {}
    for group in groups.values():
        keys = {key for _, key in group if key}
        spelled: dict[str, str] = {}
        for key in keys:
            spellings = sorted({raw for raw, k in group if k == key},
                               key=lambda r: (display_name(r) != r, r))
            spelled[key] = spellings[0]
        shared = len(keys) > 1 or any(group.values())
        wanted = {}
        for raw, key in group:
            base = spelled.get(key, raw)
            wanted[raw, key] = (f"{base}_{key}" if shared and key else base, base)
        distinct = sorted({w for w, _ in wanted.values()},
                          key=lambda r: (display_name(r) != r, r))
        ids: dict[str, str] = {}
        for w in distinct:
            plain = student_id(w)
            ids[w] = plain if plain not in ids.values() else student_id(w, hashed=True)
        for (raw, key), (w, base) in wanted.items():
            people[raw, key] = ids[w], base, w
        spellings = sorted({raw for raw, _ in group})
        if len(spellings) > 1:
            shown = ", ".join(repr(r) for r in spellings[:6])
            for student in set(ids.values()):
                note = ("joined" if len(ids) == 1 else "kept_apart")
                notes.setdefault(student, []).append(t(
                    f"submissions.{note}", lang=lang, names=shown, student=student))
    return people, notes


def collect(paths: Iterable[str | Path], *, lang: str | None = None,
            ) -> tuple[list[Submission], list[tuple[str, str]]]:
    """The submissions under ``paths`` by student, and the problems no student owns.

    Folders hold a folder per student or notebooks named by student (``ana.ipynb``); a zip's
    first folder names the student; LMS exports are read by their own naming.  Every student
    folder gives a Submission, even an empty one.  Unsafe names and files over 20 MB are
    refused, each with a sentence.
    """
    files: dict[str, list[tuple[str, StoredFile]]] = {}
    problems: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    loose: list[tuple[str, str]] = []
    renamed: dict[str, str] = {}
    pieces = [piece for path in paths for piece in _pieces(Path(path), lang=lang)]
    people, notes = _identities([p.owner for p in pieces if display_name(p.owner.student)],
                                lang=lang)
    for piece in pieces:
        owner = piece.owner
        if not display_name(owner.student):
            loose.append((piece.name, piece.problem or t(
                "grading.unsafe_student", lang=lang, name=owner.student)))
            continue
        student, raw, made_of = people[owner.student, owner.key]
        if student not in names:
            names[student], files[student] = display_name(raw), []
            problems[student] = list(notes.get(student, ()))
            if student != display_name(made_of) and student not in notes:  # cut, odd characters
                renamed[student] = t("submissions.renamed", lang=lang,
                                     name=display_name(made_of), student=student)
        if piece.problem:
            problems[student].append(piece.problem)
        if piece.stored is not None:
            files[student].append((piece.name, piece.stored))
    found = []
    for student in sorted(files):
        kept = _in_order(files[student])
        said = list(problems[student])
        if not kept and not said:
            said.append(t("submissions.nothing", lang=lang, name=names[student]))
        said = ([renamed[student]] if student in renamed else []) + said
        found.append(Submission(student, tuple(kept), tuple(said), names[student]))
    return found, loose
