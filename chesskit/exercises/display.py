"""Showing an exercise in a notebook: the task as Markdown, then the board.

In a live kernel the board is the on-board widget; this module is the one place that imports
``chesskit.widgets.board``, lazily, when a widget is asked for (the widget imports the exercises, so
a module-level import would be a cycle). Elsewhere (an exported page, nbclient) the SVG diagram is
shown.

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="01.02", lesson=1, kind="square", data={"mode": "find", "square": "c6"})
>>> board_svg(ex).startswith("<svg")
True
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from chesskit.drawing.diagram import BoardSvg, board
from chesskit.exercises.protocol import Lang

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise


def board_svg(ex: Exercise, *, lang: Lang = None) -> BoardSvg:
    """The board of the exercise as SVG (chesskit.drawing.diagram.board), with the task's marks."""
    marks = ex.board_marks()
    return board(ex.position, marks=dict(marks.marks) or None, arrows=list(marks.arrows) or None,
                 lastmove=ex.last_move or None, lang=lang)


def exercise_widget(ex: Exercise) -> Any:
    """The on-board widget for ``ex`` (the one lazy import of ``chesskit.widgets.board``)."""
    from chesskit.widgets.board import Board  # noqa: PLC0415 (a display method: widgets is above)

    return Board(ex.position.fen(), exercise=ex)


def live_kernel() -> bool:
    """True inside a Jupyter kernel, where widgets can be shown."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return getattr(shell, "kernel", None) is not None


def show(ex: Exercise) -> None:
    """Two outputs: the task as Markdown, then the board to answer on in a live kernel (the
    SVG board where there is no kernel, as in an exported page)."""
    from IPython.display import display  # noqa: PLC0415 (IPython: only in a notebook)

    display({"text/markdown": ex._repr_markdown_(),
             "text/plain": f"{ex.id}: {ex.prompt_text()}"}, raw=True)
    if live_kernel():
        widget = ex.widget()
        widget.prompt = ""  # the task is already shown above the board
        display(widget)
    else:
        diagram = ex.board_svg()
        display(diagram._repr_mimebundle_(), raw=True)
