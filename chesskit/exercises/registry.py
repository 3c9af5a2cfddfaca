"""The registry of kinds, in the manner of python-chess's ``VARIANTS``: one list, ``KindName``.

A kind is the module ``chesskit/exercises/<name>.py`` holding its
:class:`~chesskit.exercises.protocol.Kind` object ``KIND``; its name in ``KindName``
(:mod:`chesskit.exercises.protocol`) is what registers it here, in that order. Its texts go in
``locale/*/exercises.toml``.

>>> list(KINDS)[:3]
['square', 'squares', 'move']
"""

from __future__ import annotations

import importlib
from typing import get_args

from chesskit.exercises.protocol import Kind, KindName


def load_kind(name: str) -> Kind:
    """The ``KIND`` object of the module ``chesskit.exercises.<name>``.

    >>> load_kind("square")
    <chesskit kind square>
    """
    kind = getattr(importlib.import_module(f"chesskit.exercises.{name}"), "KIND", None)
    if not isinstance(kind, Kind) or kind.name != name:
        raise TypeError(f"chesskit.exercises.{name}.KIND is not the Kind named {name!r}")
    return kind


KINDS: dict[str, Kind] = {name: load_kind(name) for name in get_args(KindName)}
"""Every kind by name (tests add a throwaway one with ``monkeypatch.setitem``)."""
