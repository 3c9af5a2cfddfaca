"""The hint ladder of every exercise: 0 a nudge, 1 something new, 2 one right answer.

Stored hints (``hints = [...]`` in the bank) fill levels 0 and 1; the kind gives the rest.

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=12, kind="move", goal="mate",
...               fen="6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
>>> [hint(ex, level, lang="en") for level in (1, 2)]
['Use the rook on a1.', 'One right answer: Ra8#.']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chesskit.exercises.protocol import Lang
from chesskit.i18n import localize

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise

LAST = 2
"""The level of the last hint (one right answer)."""


def hint(ex: Exercise, level: int, *, lang: Lang = None) -> str:
    """Hint ``level`` of ``ex``: a stored one, else the kind's nudge, step or answer."""
    level = max(0, min(int(level), LAST))
    if level < len(ex.hints) and level < LAST:
        return localize(ex.hints[level], lang=lang)
    if level == 0:
        return ex.spec.first_hint(ex, lang)
    if level == 1:
        return ex.spec.step_hint(ex, lang)
    return ex.spec.answer_hint(ex, lang)
