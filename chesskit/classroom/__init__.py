"""The live classroom: the teacher opens a round, every student answers on their own board,
the class's moves appear live (issue 20; the protocol is docs/classroom-api.md).

``rounds`` (what a round asks, how answers are judged) · ``store`` (SQLite) · ``service`` (the
tornado application, on a hub or on the teacher's laptop) · ``laptop`` (``chesskit classroom``).

In a kernel this package is ``ck.classroom`` (the clients: ``client``, ``widgets``, and the
laptop pages in ``static/``): ``ask("06.12")``, ``ask(fen=..., prompt=...)``, ``ask(board)``,
``close()``, ``summary()``, ``teacher()`` for the teacher, ``join()`` for a student,
``connect(url, token)`` for another service.  These names are loaded on first use, so the
service never imports the clients and a kernel never imports the service.

>>> import chesskit as ck
>>> ck.classroom.ask is ck.classroom.client.ask
True
"""

from __future__ import annotations

import importlib
from typing import Any

_CLIENT = ("ask", "close", "summary", "join", "teacher", "connect", "session")


def __getattr__(name: str) -> Any:
    if name not in _CLIENT:
        raise AttributeError(f"module 'chesskit.classroom' has no attribute {name!r}")
    value = getattr(importlib.import_module("chesskit.classroom.client"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_CLIENT))
