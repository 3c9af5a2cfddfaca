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


def _mapping(value: object) -> Mapping[str, object]:
    """``value`` as a mapping; a JSON text (as some frontends store JSON data) is read."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return {}
    return value if isinstance(value, Mapping) else {}


def _read(record: Mapping[str, object]) -> BoardAnswer | None:
    exercise_id, answer = record.get("exercise_id"), record.get("answer")
    if not (isinstance(exercise_id, str) and exercise_id and isinstance(answer, str)
            and answer.strip()):
        return None
    shown = record.get("after_solution", record.get("solution_shown", False))
    return BoardAnswer(exercise_id, answer, shown is True)


def _output_records(notebook: Mapping[str, object]) -> Iterator[BoardAnswer]:
    cells = notebook.get("cells")
    for cell in cells if isinstance(cells, list) else []:
        outputs = _mapping(cell).get("outputs")
        for output in outputs if isinstance(outputs, list) else []:
            found = _read(_mapping(_mapping(_mapping(output).get("data")).get(ANSWER_MIME)))
            if found is not None:
                yield found


def _widget_records(notebook: Mapping[str, object]) -> Iterator[tuple[int, BoardAnswer]]:
    widgets = _mapping(_mapping(notebook.get("metadata")).get("widgets"))
    state = _mapping(_mapping(widgets.get(WIDGET_STATE)).get("state"))
    for model in state.values():
        saved = _mapping(_mapping(model).get("state"))
        found = _read(saved)
        attempts = saved.get("attempts", 0)
        if found is not None:
            yield (attempts if isinstance(attempts, int) else 0), found


def board_answers(notebook: Mapping[str, object]) -> list[BoardAnswer]:
    """The answer given on the board for each exercise, sorted by exercise id.

    From cell outputs the last record of an exercise in notebook order wins; an exercise found
    only in saved widget state takes the board with the most attempts (ties: the larger answer
    text), so the result never depends on the order of the saved models. Anything malformed
    is skipped: a notebook never makes this raise.
    """
    found = {record.exercise_id: record for record in _output_records(notebook)}
    ranked: dict[str, tuple[int, str, BoardAnswer]] = {}
    for attempts, record in _widget_records(notebook):
        rank = (attempts, record.answer, record)
        best = ranked.get(record.exercise_id)
        if best is None or rank[:2] > best[:2]:
            ranked[record.exercise_id] = rank
    for exercise_id, (_, _, record) in ranked.items():
        found.setdefault(exercise_id, record)
    return [found[key] for key in sorted(found)]
