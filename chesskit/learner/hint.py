"""In IPython, a move written without quotes in ``ck.answer(...)`` gets a sentence.

>>> install_answer_hint()  # outside IPython: nothing to do
False
"""

from __future__ import annotations

import re
import sys
import traceback
from typing import Any

from chesskit.i18n import t


def _quotes_hint(shell: Any, etype: type[BaseException], value: BaseException, tb: Any,
                 tb_offset: int | None = None) -> None:
    """IPython's handler for NameError: a bare move in ``answer(...)`` is explained in one
    sentence; any other NameError shows its usual traceback."""
    frames = traceback.extract_tb(tb) if tb is not None else []
    line = (frames[-1].line or "") if frames else ""
    name = getattr(value, "name", None)
    bare = re.compile(rf"(?<=[(,])(\s*){re.escape(name)}(\s*)(?=[,)])") if name else None
    if bare is not None and re.search(r"\banswer\s*\(", line) and bare.search(line):
        example = bare.sub(lambda m: f'{m[1]}"{name}"{m[2]}', line.strip(), count=1)
        print(t("learner.quotes", example=example))
        return
    shell.showtraceback((etype, value, tb), tb_offset=tb_offset)


def install_answer_hint(shell: Any = None) -> bool:
    """In IPython, explain ``ck.answer("12.01", Qb8)`` (quotes forgotten) in a sentence
    instead of a NameError traceback; True when installed.

    >>> install_answer_hint()  # outside IPython: nothing to do
    False
    """
    if shell is None:
        ipython = sys.modules.get("IPython")
        shell = ipython.get_ipython() if ipython is not None else None
    if shell is None or not hasattr(shell, "set_custom_exc"):
        return False
    shell.set_custom_exc((NameError,), _quotes_hint)
    return True
