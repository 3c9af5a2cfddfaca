"""``chesskit author SOURCE -o NAME`` and ``ck.author(...)``: a teacher's source made into an
exercise set in the course's own form, in one folder ``NAME/``:

- ``NAME.toml``: the bank file (``set = "name"``, items ``name.01`` ...), checked by
  ``chesskit check-bank --file NAME/NAME.toml``;
- ``NAME.<lang>.ipynb``: the exercise notebook in every course language (the set-up cell loads
  the bank file that sits beside it);
- ``assignment.toml``: for ``chesskit grade --assignment NAME/assignment.toml``;
- ``worksheet.<lang>.pdf``: the diagrams and the answer key;
- ``rounds.json``: each exercise as a live classroom round (``{"exercise", "fen", "prompt"}``);
- ``report.md``: what was built and what was refused, and why.

The folder is written whole or not at all: everything goes to a hidden folder beside it first,
which then takes its place.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import tempfile
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat

from chesskit.course.notebooks import course_notebook, exercise_cells
from chesskit.exercises import catalog
from chesskit.i18n import get_language, languages, set_language, t
from chesskit.teacher.assignment import assignment_toml
from chesskit.teacher.author import AuthorError, Made, make_items
from chesskit.teacher.author_sources import Source, read_source
from chesskit.teacher.worksheet import worksheet

_FIELD_ORDER = ("id", "kind", "goal", "mate_in", "gain", "answers", "fen", "topic", "difficulty",
                "source", "hints", "title", "note", "marks", "arrows", "orientation")


def set_name(output: str | Path) -> str:
    """The set's name from the output folder's name: lowercase letters, digits and dashes,
    starting with a letter (so that no set's ids look like the course's "07.01").

    >>> set_name("out/Club Game 3"), set_name("作业"), set_name("07")
    ('club-game-3', 'set', 'set-07')
    """
    name = re.sub(r"[^a-z0-9]+", "-", Path(output).name.lower()).strip("-")
    return name if name[:1].isalpha() else "-".join(filter(None, ("set", name)))


# ---- the bank file ------------------------------------------------------------------------

def _value(value: object) -> str:
    """A TOML value (strings, numbers, lists of strings, tables of lists)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML for {value!r}")


def item_fields(made: Made, item_id: str) -> dict[str, Any]:
    """The bank item of a built entry, with the teacher's words and drawings as they were."""
    src = made.source or Source(made.label)
    item = {"id": item_id, **(made.item or {})}
    extra = {"source": src.source, "hints": list(src.hints), "title": src.title,
             "note": src.note, "marks": src.marks, "arrows": list(src.arrows),
             "orientation": src.orientation}
    item.update({k: v for k, v in extra.items() if v})
    return {k: item[k] for k in _FIELD_ORDER if k in item}


def bank_toml(name: str, title: str, items: Sequence[dict[str, Any]], *, source: str) -> str:
    """The text of a set's bank file."""
    lines = [f"# A teacher's own exercises, made by `chesskit author` from {source}.",
             f"# Check them: chesskit check-bank --file {name}.toml",
             f"set = {_value(name)}", f"title = {_value({'en': title, 'zh': title})}", ""]
    for item in items:
        lines += ["[[item]]"] + [f"{key} = {_value(value)}" for key, value in item.items()] + [""]
    return "\n".join(lines)


# ---- notebooks, worksheets, rounds ----------------------------------------------------------

def _teacher_cells(item: dict[str, Any], number: int, lang: str) -> list[Any]:
    """The heading of one exercise and the teacher's own words and board, marked as theirs."""
    heading = f"## {number}. {html.escape(item.get('title', ''), quote=False)}".rstrip(" .")
    text = [heading]
    if item.get("note"):
        note = html.escape(item["note"], quote=False)
        text.append(t("author.teacher_note", lang=lang, note=note))
    cells = [nbformat.v4.new_markdown_cell("\n\n".join(text))]
    if item.get("marks") or item.get("arrows"):
        options = [f"marks={item.get('marks', {})!r}"] if item.get("marks") else []
        options += [f"arrows={item.get('arrows', [])!r}"] if item.get("arrows") else []
        options += ["orientation=False"] if item.get("orientation") == "black" else []
        cells.append(nbformat.v4.new_code_cell(
            f"ck.board({item['fen']!r}, {', '.join(options)})"))
    return cells


def set_notebook(name: str, title: str, items: Sequence[dict[str, Any]], *, lang: str
                 ) -> nbformat.NotebookNode:
    """The exercise notebook of a set in one language (stable cell ids ``author-000`` ...)."""

    load = nbformat.v4.new_code_cell(f'ck.load_bank_file("{name}.toml");')
    load.metadata["tags"] = ["setup"]
    load.metadata["jupyter"] = {"source_hidden": True}
    cells = [load, nbformat.v4.new_markdown_cell(
        f"# {html.escape(title)}\n\n{t('author.notebook_intro', lang=lang)}")]
    for number, item in enumerate(items, 1):
        cells += _teacher_cells(item, number, lang) + exercise_cells([item["id"]])
    return course_notebook(cells, lang=lang, prefix="author",
                           metadata={"homework": [item["id"] for item in items], "set": name})


def rounds(exercises: Sequence[Any]) -> list[dict[str, Any]]:
    """Each exercise as a live classroom round: its id, position and task in every language."""
    return [{"exercise": ex.id, "fen": ex.fen,
             "prompt": {code: ex.prompt_text(lang=code) for code in languages()}}
            for ex in exercises]


# ---- the report -------------------------------------------------------------------------------

def describe(item: dict[str, Any], *, lang: str | None = None) -> str:
    """What an item asks, for the table: "mate in 2", "win material (3)", "best move: Nf3".

    >>> describe({"kind": "line", "mate_in": 2}, lang="en")
    'mate in 2'
    """
    if item["kind"] == "line":
        return t("author.what_mate", lang=lang, n=item["mate_in"])
    if item.get("goal") == "mate":
        return t("author.what_mate", lang=lang, n=1)
    if item.get("goal") == "win_material":
        return t("author.what_material", lang=lang, gain=item["gain"])
    return t("author.what_best", lang=lang, answers=", ".join(item.get("answers", [])))


def _columns(text: str) -> int:
    """How many terminal columns ``text`` takes (a Chinese character takes two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _columns(text))


@dataclass(frozen=True)
class AuthorResult:
    """What ``author`` made: the folder (None when nothing was built) and each entry's fate."""

    folder: Path | None
    made: tuple[Made, ...]
    ids: tuple[str, ...]

    @property
    def built(self) -> list[Made]:
        return [m for m in self.made if m.item is not None]

    @property
    def refused(self) -> list[Made]:
        return [m for m in self.made if m.item is None]

    def rows(self, *, lang: str | None = None) -> list[tuple[str, str, str]]:
        """(entry, result, why) for the table."""
        ids = iter(self.ids)
        out = []
        for m in self.made:
            if m.item is not None:
                out.append((m.label, t("author.built", lang=lang, id=next(ids)),
                            describe(m.item, lang=lang) + (f" ({m.note})" if m.note else "")))
            else:
                out.append((m.label, t("author.refused", lang=lang), m.refused))
        return out

    def table(self, *, lang: str | None = None) -> str:
        """The plain-text table the command prints."""
        rows = self.rows(lang=lang)
        head = (t("author.col_entry", lang=lang), t("author.col_result", lang=lang),
                t("author.col_why", lang=lang))
        width = [max(_columns(r[i]) for r in [head, *rows]) for i in range(2)]
        lines = [f"{_pad(r[0], width[0])}  {_pad(r[1], width[1])}  {r[2]}"
                 for r in [head, *rows]]
        summary = t("author.summary", lang=lang, built=len(self.built), refused=len(self.refused),
                    folder=self.folder or "-")
        return "\n".join(lines + ["", summary])

    def __str__(self) -> str:
        return self.table()

    def _repr_html_(self) -> str:
        cells = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                        for row in self.rows())
        return f"<table>{cells}</table><p>{html.escape(self.table().splitlines()[-1])}</p>"


def _report_md(result: AuthorResult, *, source: str) -> str:
    rows = "\n".join(f"| {a} | {b} | {c.replace('|', '/')} |" for a, b, c in result.rows())
    head = [t("author.col_entry"), t("author.col_result"), t("author.col_why")]
    return (f"# {source}\n\n| {' | '.join(head)} |\n|---|---|---|\n{rows}\n")


# ---- writing the folder -----------------------------------------------------------------------

def _write_set(folder: Path, name: str, title: str, items: list[dict[str, Any]], *,
               source: str, points: float, pass_mark: float | None, worksheets: bool) -> None:

    bank = folder / f"{name}.toml"
    bank.write_text(bank_toml(name, title, items, source=source), encoding="utf-8")
    exercises = catalog.load_bank_file(bank)
    for code in languages():
        notebook = set_notebook(name, title, items, lang=code)
        (folder / f"{name}.{code}.ipynb").write_text(nbformat.writes(notebook) + "\n",
                                                     encoding="utf-8")
        if worksheets:
            (folder / f"worksheet.{code}.pdf").write_bytes(
                worksheet(exercises, lang=code, answers=True, title=title))
    text = assignment_toml(ids=[ex.id for ex in exercises], notebook=f"{name}.ipynb",
                           title=title, points=points)
    text += f'bank = "{name}.toml"\n'
    text += f"pass = {pass_mark:g}\n" if pass_mark is not None else ""
    (folder / "assignment.toml").write_text(text, encoding="utf-8")
    (folder / "rounds.json").write_text(
        json.dumps(rounds(exercises), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def _replace(tmp: Path, target: Path) -> None:
    """Put the finished ``tmp`` folder at ``target`` (an old set there goes only after)."""
    if target.exists():
        old = target.with_name(f".{target.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(target, old)
        os.replace(tmp, target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(tmp, target)


def author(source: str | Path | Sequence[Source], *, out: str | Path, title: str | None = None,
           engine: bool = True, points: float = 1.0, pass_mark: float | None = None,
           worksheets: bool = True) -> AuthorResult:
    """Make a verified exercise set from a PGN, a study export, a list of positions or a
    puzzle CSV (a path), or from :class:`Source` entries, into the folder ``out``.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp()) / "back-rank"
    >>> src = Source("line 1", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", ("Ra8#",))
    >>> author([src], out=folder, engine=False, worksheets=False).ids
    ('back-rank.01',)
    """
    target = Path(out)
    name = set_name(target)
    label = Path(source).name if isinstance(source, str | Path) else name
    entries = read_source(source) if isinstance(source, str | Path) else list(source)
    if not entries:
        raise AuthorError(t("author.nothing_read", source=label))
    made = tuple(make_items(entries, use_engine=engine))
    built = [m for m in made if m.item is not None]
    ids = tuple(f"{name}.{n:02d}" for n in range(1, len(built) + 1))
    if not built:
        return AuthorResult(None, made, ())
    items = [item_fields(m, item_id) for m, item_id in zip(built, ids, strict=True)]
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        _write_set(tmp, name, title or target.name, items, source=label, points=points,
                   pass_mark=pass_mark, worksheets=worksheets)
        result = AuthorResult(target, made, ids)
        (tmp / "report.md").write_text(_report_md(result, source=label), encoding="utf-8")
        _replace(tmp, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return result


def _fraction(text: str) -> float:
    value = float(text.rstrip("%")) / (100 if text.endswith("%") else 1)
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(t("author.cli_bad_pass", value=text))
    return value


def main(argv: list[str] | None = None) -> int:
    """``chesskit author SOURCE -o NAME [--title T] [--pass 0.8] [--no-engine]``."""
    parser = argparse.ArgumentParser(
        prog="chesskit author", description=t("author.cli_help"),
        epilog=t("author.cli_examples"), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", help=t("author.cli_source"))
    parser.add_argument("-o", "--output", required=True, metavar="NAME",
                        help=t("author.cli_output"))
    parser.add_argument("--title", help=t("author.cli_title"))
    parser.add_argument("--pass", dest="pass_mark", type=_fraction, metavar="FRACTION",
                        help=t("author.cli_pass"))
    parser.add_argument("--points", type=float, default=1.0, help=t("author.cli_points"))
    parser.add_argument("--no-engine", action="store_true", help=t("author.cli_no_engine"))
    parser.add_argument("--no-worksheet", action="store_true", help=t("author.cli_no_sheet"))
    parser.add_argument("--lang", help=t("author.cli_lang"))
    args = parser.parse_args(argv)
    lang = get_language(args.lang)
    if args.lang:
        set_language(lang)  # the reasons in the table are in the teacher's language
    result = author(args.source, out=args.output, title=args.title, engine=not args.no_engine,
                    points=args.points, pass_mark=args.pass_mark,
                    worksheets=not args.no_worksheet)
    print(result.table(lang=lang))
    if not result.built:
        raise AuthorError(t("author.nothing_built", lang=lang, source=Path(args.source).name))
    return 0
