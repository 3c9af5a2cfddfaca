"""The hint ladder of every exercise: a nudge, something new, one right answer, then the end.

Stored hints (``hints = [...]`` in the bank) fill the first two steps; the kind gives the rest.
A step that would repeat an earlier one is left out, and past the last step ``hint`` says so
("No more hints.") instead of repeating.

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=12, kind="move", goal="mate",
...               fen="6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
>>> [hint(ex, level, lang="en") for level in (1, 2, 3)]
['Use the rook on a1.', 'One right answer: Ra8#.', 'No more hints.']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chesskit.exercises.protocol import Lang
from chesskit.i18n import localize, t

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise

def ladder(ex: Exercise, *, lang: Lang = None) -> list[str]:
    """Every hint of ``ex`` in order, none repeated (two or three of them)."""
    steps = [localize(ex.hints[0], lang=lang) if ex.hints else ex.spec.first_hint(ex, lang),
             localize(ex.hints[1], lang=lang) if len(ex.hints) > 1
             else ex.spec.step_hint(ex, lang),
             ex.spec.answer_hint(ex, lang)]
    return list(dict.fromkeys(step for step in steps if step))


def hint(ex: Exercise, level: int, *, lang: Lang = None) -> str:
    """Hint ``level`` (0, 1, 2 ...) of ``ex``; after the last one, "No more hints."."""
    steps = ladder(ex, lang=lang)
    level = max(0, int(level))
    return steps[level] if level < len(steps) else t("exercises.no_more_hints", lang=lang)
