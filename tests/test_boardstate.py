"""Board answers read from saved notebooks: the cell-output record and the old widget state."""

from __future__ import annotations

import json

import nbformat

from chesskit.widgets.boardstate import ANSWER_MIME, WIDGET_STATE, BoardAnswer, board_answers

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def _output(exercise_id: str, answer: str, *, after_solution: bool = False) -> dict[str, object]:
    record = {"exercise_id": exercise_id, "answer": answer, "after_solution": after_solution}
    return {"output_type": "display_data", "metadata": {},
            "data": {ANSWER_MIME: record, "text/plain": f"{exercise_id}: {answer}"}}


def _notebook(*outputs: dict[str, object], state: object = None) -> dict[str, object]:
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("ck.exercise('12.01')")
    cell.outputs = [nbformat.from_dict(o) for o in outputs]
    nb.cells = [nbformat.v4.new_markdown_cell("# 12"), cell]
    if state is not None:
        nb.metadata["widgets"] = {WIDGET_STATE: {"state": state, "version_major": 2,
                                                 "version_minor": 0}}
    nbformat.validate(nb)
    return json.loads(nbformat.writes(nb))  # exactly what a saved file holds


def test_output_record_is_read_and_placeholders_are_skipped() -> None:
    nb = _notebook(_output("12.01", ""), _output("12.02", "Qh7#", after_solution=True))
    assert board_answers(nb) == [BoardAnswer("12.02", "Qh7#", True)]


def test_last_output_of_an_exercise_wins_and_result_is_sorted() -> None:
    nb = _notebook(_output("12.03", "Ra7"), _output("04.03", "c6 c5"), _output("12.03", "Ra8#"))
    assert board_answers(nb) == [BoardAnswer("04.03", "c6 c5", False),
                                 BoardAnswer("12.03", "Ra8#", False)]


def test_json_stored_as_text_is_read_too() -> None:
    output = _output("07.01", "O-O")
    output["data"] = {ANSWER_MIME: json.dumps(output["data"][ANSWER_MIME])}  # type: ignore[index]
    assert board_answers(_notebook(output)) == [BoardAnswer("07.01", "O-O", False)]


def test_old_widget_state_form_is_still_read() -> None:
    state = {
        "a": {"model_name": "AnyModel", "state": {"exercise_id": "12.01", "answer": "Ra7",
                                                  "attempts": 1}},
        "b": {"model_name": "AnyModel", "state": {"exercise_id": "12.01", "answer": "Ra8#",
                                                  "attempts": 2, "after_solution": True}},
        "c": {"state": {"exercise_id": "02.01", "answer": ""}},
        "d": {"state": {"fen": START}},
        "e": "garbage",
    }
    assert board_answers(_notebook(state=state)) == [BoardAnswer("12.01", "Ra8#", True)]


def test_output_record_wins_over_widget_state() -> None:
    state = {"m": {"state": {"exercise_id": "12.01", "answer": "Ra7", "attempts": 9}},
             "n": {"state": {"exercise_id": "05.01", "answer": "Nxe5", "attempts": 1}}}
    nb = _notebook(_output("12.01", "Ra8#"), state=state)
    assert board_answers(nb) == [BoardAnswer("05.01", "Nxe5", False),
                                 BoardAnswer("12.01", "Ra8#", False)]


def test_malformed_notebooks_never_raise() -> None:
    for nb in ({}, {"cells": 3}, {"cells": [None, {"outputs": "x"}, {"outputs": [None, 5]}]},
               {"cells": [{"outputs": [{"data": {ANSWER_MIME: "{not json"}}]}]},
               {"cells": [{"outputs": [{"data": {ANSWER_MIME: {"exercise_id": 3,
                                                               "answer": "e4"}}}]}]},
               {"metadata": {"widgets": 3}}, {"metadata": {"widgets": {WIDGET_STATE: []}}}):
        assert board_answers(nb) == []
