"""The registry of kinds, in the manner of python-chess's ``VARIANTS``: one line per kind.

A new kind is one module with a :class:`~chesskit.exercises.protocol.Kind` subclass and its
``KIND`` object, one line below, and its locale keys in ``locale/*/exercises.toml``.

>>> list(KINDS)[:3]
['square', 'squares', 'move']
"""

from __future__ import annotations

from chesskit.exercises import (
    capture_all,
    check_in,
    choice,
    count,
    line,
    minigame,
    move,
    notation,
    playout,
    prepare,
    protect,
    route,
    setup,
    square,
    squares,
)
from chesskit.exercises.protocol import Kind

KINDS: dict[str, Kind] = {kind.name: kind for kind in (
    square.KIND,
    squares.KIND,
    move.KIND,
    line.KIND,
    choice.KIND,
    count.KIND,
    notation.KIND,
    setup.KIND,
    playout.KIND,
    route.KIND,
    capture_all.KIND,
    protect.KIND,
    check_in.KIND,
    prepare.KIND,
    minigame.KIND,
)}
"""Every kind by name (tests add a throwaway one with ``monkeypatch.setitem``)."""
