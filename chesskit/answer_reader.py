"""Answers, language and metadata read from one notebook, with :mod:`ast` only.

Nothing in a notebook is ever executed: the answer is the literal argument of
``ck.answer("12.07", "...")`` in the source, or what the board recorded.

>>> notebook_answers({"cells": [{"cell_type": "code", "source": 'ck.answer("01.01", "Ra8#")'}]})
([Found(exercise_id='01.01', answer='Ra8#', origin='code')], None)
"""

from __future__ import annotations

import ast
import contextlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from chesskit import i18n
from chesskit.i18n import t

Answer = str | list[str]


@dataclass(frozen=True)
class Found:
    """An answer found in a notebook; ``answer`` is None when it is not a literal."""

    exercise_id: str
    answer: Answer | None
    origin: str = "code"



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
