"""Answers, language and metadata read from one notebook, with :mod:`ast` only.

Nothing in a notebook is ever executed: the answer is the literal argument of
``ck.answer("12.07", "...")`` in the source, or what the board recorded.

>>> notebook_answers({"cells": [{"cell_type": "code", "source": 'ck.answer("01.01", "Ra8#")'}]})
([Found(exercise_id='01.01', answer='Ra8#', origin='code', after_solution=False)], None)
"""

from __future__ import annotations

import ast
import contextlib
import json
import re
import tokenize
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from chesskit import i18n
from chesskit.i18n import t
from chesskit.widgets.boardstate import board_answers

Answer = str | list[str]

MAX_TEXT = 10_000  # characters in one answer literal (string, number)
MAX_ITEMS = 1_000  # items in one bracket: list, tuple, dict, set, call
MAX_DEPTH = 16  # brackets inside brackets
BIG_CELL = 100_000  # characters: a longer cell is shrunk token by token before it is parsed
TOO_BIG = "__chesskit_too_big__"
_CALLED = ("answer", "set_language")  # the chesskit functions whose calls are read
_WORDS = ("import", *_CALLED)  # an ASCII cell without these words holds nothing to read


@dataclass(frozen=True)
class Found:
    """An answer found in a notebook; ``answer`` is None when it is not a literal (or is too
    big to grade); ``after_solution`` when the board showed the solution before it."""

    exercise_id: str
    answer: Answer | None
    origin: str = "code"
    after_solution: bool = False


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


def _offsets(source: str) -> list[int]:
    """Where each line starts in ``source`` (index 0 for line 1)."""
    starts, at = [0], 0
    for line in source.splitlines(keepends=True):
        at += len(line)
        starts.append(at)
    return starts


def _oversized(source: str) -> Iterator[tuple[int, int]]:
    """The spans of over-long literals and over-large or over-deep brackets, found token by
    token (raises tokenize.TokenError or SyntaxError when the cell does not tokenize)."""
    starts = _offsets(source)
    stack: list[list[int]] = []  # per open bracket: [start offset, items]
    skipping = -1  # stack depth of the bracket being dropped, or -1
    lines = iter(source.splitlines(keepends=True))
    for token in tokenize.generate_tokens(lambda: next(lines, "")):
        start = starts[token.start[0] - 1] + token.start[1]
        end = starts[token.end[0] - 1] + token.end[1]
        if token.type == tokenize.OP and token.string in "([{":
            stack.append([start, 1])
            if skipping < 0 and len(stack) > MAX_DEPTH:
                skipping = len(stack)
        elif token.type == tokenize.OP and token.string in ")]}" and stack:
            opened = stack.pop()[0]
            if skipping > len(stack):
                skipping = -1
                yield opened, end
        elif token.type == tokenize.OP and token.string == "," and stack:
            stack[-1][1] += 1
            if skipping < 0 and stack[-1][1] > MAX_ITEMS:
                skipping = len(stack)
        elif (skipping < 0 and token.type in (tokenize.STRING, tokenize.NUMBER)
              and end - start > MAX_TEXT):
            yield start, end


def _shrunk(source: str) -> tuple[str, bool]:
    """A long cell with its oversized parts replaced by a name, so that no big tree is ever
    built; False when the cell did not tokenize (then only its short lines are kept).

    >>> _shrunk("x = " + repr("a" * 20_000) + "\\nck.answer('01.01', 'Ra8#')")[0]
    "x = (__chesskit_too_big__)\\nck.answer('01.01', 'Ra8#')"
    """
    pieces, at = [], 0
    try:
        for start, end in _oversized(source):
            pieces += [source[at:start], f"({TOO_BIG})"]
            at = end
    except (tokenize.TokenError, SyntaxError):
        lines = source.splitlines()
        return "\n".join(line if len(line) <= MAX_TEXT else "pass" for line in lines), False
    return "".join([*pieces, source[at:]]), True


def _parse(source: str) -> list[ast.AST]:
    """The cell's syntax trees: the whole cell, or line by line when the cell does not parse.
    A long cell is shrunk first, so memory stays bounded whatever the cell holds."""
    whole = True
    if len(source) > BIG_CELL:
        source, whole = _shrunk(source)
    if whole:
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


def _may_count(source: str) -> bool:
    """False when a cell can hold no import and no call of ``answer`` or ``set_language``
    (an ASCII cell without those words), so it need not be parsed; an alias of ``answer``
    (``from chesskit import answer as a``) makes every cell count.

    >>> _may_count('ck.exercise("07.01")'), _may_count('ck.answer("07.01", "O-O")')
    (False, True)
    """
    return not source.isascii() or any(word in source for word in _WORDS)


def _scan(sources: Iterable[str]) -> tuple[set[str], set[str], list[ast.Call]]:
    """One walk over the cells' trees: the names bound to the chesskit module and to its
    ``answer`` function, and every call that may be ``chesskit.answer`` or ``set_language``
    (a method of that name on a bare name, or any bare name), cell by cell in source order."""
    modules, functions, calls = {"ck", "chesskit"}, set(), []
    for tree in (tree for source in sources for tree in _parse(source)):
        found = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Name) or (
                        isinstance(func, ast.Attribute) and func.attr in _CALLED
                        and isinstance(func.value, ast.Name)):
                    found.append(node)
            elif isinstance(node, ast.Import):
                modules |= {a.asname or a.name for a in node.names if a.name == "chesskit"}
            elif isinstance(node, ast.ImportFrom) and node.module == "chesskit":
                functions |= {a.asname or a.name for a in node.names if a.name == "answer"}
        calls += sorted(found, key=lambda n: (n.lineno, n.col_offset))
    return modules, functions, calls


def _is_call(call: ast.Call, name: str, modules: set[str], functions: set[str]) -> bool:
    """True when ``call`` calls ``chesskit.<name>``: through a module alias, or a bare name
    in ``functions``."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in functions
    return (isinstance(func, ast.Attribute) and func.attr == name
            and isinstance(func.value, ast.Name) and func.value.id in modules)


def _literal(node: ast.expr | None) -> Answer | None:
    """The answer written in ``node`` as text or a list of texts; None if it is not a literal."""
    if node is None:
        return ""
    if not _small(node):
        return None
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(value, str):
        return _capped(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, list | tuple) and all(isinstance(v, str | int) for v in value):
        texts = [_capped(str(v)) for v in value]
        return None if None in texts else [t for t in texts if t is not None]
    return None


def _small(node: ast.expr) -> bool:
    """True when the literal in ``node`` is small enough to build: a flat list of at most
    MAX_ITEMS items, or a single value."""
    items = node.elts if isinstance(node, ast.List | ast.Tuple) else [node]
    return len(items) <= MAX_ITEMS and all(
        not isinstance(item, ast.List | ast.Tuple | ast.Set | ast.Dict) for item in items)


def _capped(text: str) -> str | None:
    return text if len(text) <= MAX_TEXT else None


def _argument(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    if len(call.args) > index:
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def notebook_answers(notebook: Mapping[str, Any]) -> tuple[list[Found], str | None]:
    """Every ``ck.answer`` call in the notebook, in order, and the language it sets (or None).

    >>> notebook_answers({"cells": [{"cell_type": "code",
    ...                   "source": "ck.set_language('zh-Hans')\\nck.answer('01.01', x)"}]})
    ... # doctest: +NORMALIZE_WHITESPACE
    ([Found(exercise_id='01.01', answer=None, origin='code', after_solution=False)],
     'zh-Hans')
    """
    sources = list(_cell_sources(notebook))
    modules, functions, calls = _scan(s for s in sources if _may_count(s))
    if functions:  # ``answer`` under another name: any cell may call it
        modules, functions, calls = _scan(sources)
    found = []
    for call in (c for c in calls if _is_call(c, "answer", modules, functions)):
        exercise_id = _literal(_argument(call, 0, "exercise_id"))
        if isinstance(exercise_id, str) and exercise_id:
            found.append(Found(exercise_id, _literal(_argument(call, 1, "answer"))))
    language = None
    for call in (c for c in calls if _is_call(c, "set_language", modules, {"set_language"})):
        value = _literal(_argument(call, 0, "lang"))
        language = value if isinstance(value, str) else language
    return found, language


def board_found(records: object) -> list[Found]:
    """Board answers as Found: from a list of records with ``exercise_id``, ``answer`` and
    ``after_solution`` (``widgets.boardstate.BoardAnswer``), or from a mapping id -> answer.

    >>> board_found({"07.01": "O-O"})
    [Found(exercise_id='07.01', answer='O-O', origin='board', after_solution=False)]
    """
    if isinstance(records, Mapping):
        triples = [(key, value, False) for key, value in records.items()]
    elif isinstance(records, Iterable):
        triples = [(getattr(r, "exercise_id", ""), getattr(r, "answer", ""),
                    getattr(r, "after_solution", False)) for r in records]
    else:
        triples = []
    return [Found(key, _capped(value if isinstance(value, str) else str(value)), "board",
                  after is True)
            for key, value, after in triples if isinstance(key, str) and key]


def _board_answers(notebook: Mapping[str, Any]) -> list[Found]:
    """The board answers as :func:`chesskit.widgets.boardstate.board_answers` reads them
    (its rules: the last non-blank answer wins, any "Show solution" counts), each capped."""
    return [Found(record.exercise_id, _capped(record.answer), "board", record.after_solution)
            for record in board_answers(notebook)]


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



MAX_VALUES = 100_000  # JSON values in one notebook (the largest course notebook has 7,160)
MAX_NESTING = 64  # lists and objects inside each other; deeper parts are read as null
_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"', re.DOTALL)  # possessive: no backtracking
_STRUCTURE = re.compile(rb'"(?:[^"\\]++|\\.)*+"|[\[\]{}]', re.DOTALL)


def _marks(data: bytes) -> int:
    return data.count(b",") + data.count(b"[") + data.count(b"{")


def _values(data: bytes) -> int:
    """The JSON values in ``data``, counted from above: every value but the first of a list
    or object follows a comma; brackets and commas inside strings are not counted.

    >>> _values(b'{"a": [1, 2], "b": "[,,]"}')
    4
    """
    return _marks(data) - sum(_marks(match.group()) for match in _STRING.finditer(data))


def _flattened(data: bytes) -> bytes:
    """``data`` with every list or object nested deeper than MAX_NESTING replaced by null,
    so that one deep output cannot hide the rest of the notebook."""
    pieces, at, depth, skip_from = [], 0, 0, -1
    for match in _STRUCTURE.finditer(data):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            if depth > MAX_NESTING and skip_from < 0:
                pieces.append(data[at:match.start()] + b"null")
                skip_from = depth
        elif token in (b"]", b"}"):
            if skip_from == depth:
                at, skip_from = match.end(), -1
            depth -= 1
    pieces.append(data[at:] if skip_from < 0 else b"")
    return b"".join(pieces)


def _read_notebook(name: str, data: bytes, *, lang: str | None,
                   ) -> tuple[Mapping[str, Any] | None, str | None]:
    """The notebook in ``data``, or the note for what is wrong with it.  Memory stays
    bounded: parts nested deeper than MAX_NESTING are dropped (the rest is still read), and a
    notebook of more than MAX_VALUES JSON values is refused before it is built."""
    if not name.lower().endswith(".ipynb"):
        return None, t("grading.not_notebook", lang=lang, name=name)
    if _marks(data) > MAX_VALUES:  # a cheap count first: the exact one only when needed
        data = _flattened(data)
        values = _values(data)
        if values > MAX_VALUES:
            return None, t("grading.too_complex", lang=lang, name=name, n=values,
                           limit=MAX_VALUES)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return None, t("grading.bad_json", lang=lang, name=name, error=str(error)[:80])
    try:
        notebook = json.loads(text)
    except RecursionError:
        try:
            notebook = json.loads(_flattened(text.encode("utf-8")))
        except (ValueError, RecursionError) as error:
            return None, t("grading.bad_json", lang=lang, name=name, error=str(error)[:80])
    except (json.JSONDecodeError, MemoryError) as error:
        return None, t("grading.bad_json", lang=lang, name=name, error=str(error)[:80])
    if not isinstance(notebook, Mapping) or not isinstance(notebook.get("cells"), list):
        return None, t("grading.not_notebook", lang=lang, name=name)
    return notebook, None
