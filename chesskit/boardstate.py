"""Answers given on the board, read from a saved notebook's widget state (no code is run).

JupyterLab with ``saveState`` (``chesskit/jupyter/overrides.json``) stores every widget model
in the notebook metadata; an :class:`chesskit.widget.ExerciseBoard` keeps ``exercise_id`` and
``answer`` among its synced traits, so the grader finds them there.

>>> nb = {"metadata": {"widgets": {"application/vnd.jupyter.widget-state+json": {"state": {
...     "m1": {"state": {"exercise_id": "07.01", "answer": "O-O", "attempts": 1}}}}}}}
>>> board_answers(nb)
{'07.01': 'O-O'}
"""

from __future__ import annotations

from collections.abc import Mapping

WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def _models(notebook: Mapping[str, object]) -> list[Mapping[str, object]]:
    metadata = notebook.get("metadata")
    widgets = metadata.get("widgets") if isinstance(metadata, Mapping) else None
    saved = widgets.get(WIDGET_STATE) if isinstance(widgets, Mapping) else None
    state = saved.get("state") if isinstance(saved, Mapping) else None
    if not isinstance(state, Mapping):
        return []
    models = [model.get("state") for model in state.values() if isinstance(model, Mapping)]
    return [model for model in models if isinstance(model, Mapping)]


def board_answers(notebook: Mapping[str, object]) -> dict[str, str]:
    """Exercise id -> the answer recorded on its board, for every board that has an answer.

    When several boards answer the same exercise, the one with the most attempts wins (ties:
    the larger answer text), so the result never depends on the order of the saved models.
    Anything malformed is skipped: a notebook never makes this raise.
    """
    best: dict[str, tuple[int, str]] = {}
    for model in _models(notebook):
        exercise_id, answer = model.get("exercise_id"), model.get("answer")
        attempts = model.get("attempts", 0)
        if not (isinstance(exercise_id, str) and exercise_id and isinstance(answer, str)
                and answer.strip()):
            continue
        rank = (attempts if isinstance(attempts, int) else 0, answer)
        if exercise_id not in best or rank > best[exercise_id]:
            best[exercise_id] = rank
    return {key: best[key][1] for key in sorted(best)}
