"""Answers given on the board, read from a saved notebook (no code is run).

Two records exist. Every :class:`chesskit.widgets.board.ExerciseBoard` writes its answer into a cell
output of its own (mime type ``application/vnd.chesskit.answer+json``), which every notebook
frontend saves. Older notebooks have it only in the widget state that JupyterLab saves with
``saveState`` on (``exercise_id`` and ``answer`` among the board's synced traits). The output
record wins where both exist.

>>> nb = {"cells": [{"cell_type": "code", "outputs": [{"output_type": "display_data", "data": {
...     "application/vnd.chesskit.answer+json": {"exercise_id": "07.01", "answer": "O-O",
...                                              "after_solution": False}}}]}]}
>>> board_answers(nb)
[BoardAnswer(exercise_id='07.01', answer='O-O', after_solution=False)]
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

ANSWER_MIME = "application/vnd.chesskit.answer+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


@dataclass(frozen=True)
class BoardAnswer:
    """One exercise's answer on the board; ``after_solution``: "Show solution" came first."""

    exercise_id: str
    answer: str
    after_solution: bool


MAX_RECORD = 100_000  # characters of a board record saved as JSON text


def _mapping(value: object) -> Mapping[str, object]:
    """``value`` as a mapping; a JSON text (as some frontends store JSON data) is read, and
    one too long or too deep to read is nothing."""
    if isinstance(value, str) and len(value) <= MAX_RECORD:
        with contextlib.suppress(ValueError, RecursionError):
            value = json.loads(value)
    return value if isinstance(value, Mapping) else {}


def shown_solution(record: Mapping[str, object]) -> bool:
    """Whether a board record says "Show solution" came first: anything but a real
    ``false`` (or no flag at all) counts as shown, so ``"true"`` or ``1`` are never hidden.

    >>> [shown_solution({"after_solution": v}) for v in (False, True, "true", 1, 0)]
    [False, True, True, True, True]
    """
    return any(key in record and record[key] is not False
               for key in ("after_solution", "solution_shown"))


def _read(raw: object) -> BoardAnswer | None:
    record = _mapping(raw)
    exercise_id, answer = record.get("exercise_id"), record.get("answer")
    if not (isinstance(exercise_id, str) and exercise_id and isinstance(answer, str)):
        return None
    return BoardAnswer(exercise_id, answer, shown_solution(record))


def _records(notebook: Mapping[str, object]) -> Iterator[tuple[int, BoardAnswer]]:
    """Every board record with its rank: the cell outputs' records in notebook order (ranks
    above 1 << 62, rising), then the boards' saved widget state (rank: attempts)."""
    cells = notebook.get("cells")
    place = 1 << 62
    for cell in cells if isinstance(cells, list) else []:
        outputs = _mapping(cell).get("outputs")
        for output in outputs if isinstance(outputs, list) else []:
            found = _read(_mapping(_mapping(output).get("data")).get(ANSWER_MIME))
            if found is not None:
                place += 1
                yield place, found
    widgets = _mapping(_mapping(notebook.get("metadata")).get("widgets"))
    state = _mapping(_mapping(widgets.get(WIDGET_STATE)).get("state"))
    for model in state.values():
        saved = _mapping(_mapping(model).get("state"))
        found = _read(saved)
        attempts = saved.get("attempts", 0)
        if found is not None:
            yield (attempts if isinstance(attempts, int) and 0 <= attempts < 1 << 62
                   else 0), found


def board_answers(notebook: Mapping[str, object]) -> list[BoardAnswer]:
    """The answer given on the board for each exercise, sorted by exercise id.

    The last answer that is not blank in the cell outputs wins (an older notebook's widget
    state only where the outputs have none: the board with most attempts, ties the larger
    answer text, so the order of the saved models never matters); "Show solution" counts when
    any record of the exercise says so, so a later forged ``false`` never hides a ``true``
    (such an exercise with no answer is listed with ``answer=""``). Anything malformed is
    skipped, never the others: a notebook never makes this raise.
    """
    best: dict[str, tuple[int, str]] = {}
    shown: set[str] = set()
    for rank, record in _records(notebook):
        if record.after_solution:
            shown.add(record.exercise_id)
        if record.answer.strip() and (record.exercise_id not in best
                                      or (rank, record.answer) >= best[record.exercise_id]):
            best[record.exercise_id] = (rank, record.answer)
    return [BoardAnswer(key, best[key][1] if key in best else "", key in shown)
            for key in sorted(best.keys() | shown)]
