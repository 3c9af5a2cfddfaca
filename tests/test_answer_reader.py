"""Reading one notebook: answers as literals only, memory bounded whatever the notebook holds."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from chesskit.teacher import answer_reader
from chesskit.teacher.answer_reader import Found, board_found, notebook_answers


def cells(*sources: str) -> dict[str, object]:
    return {"cells": [{"cell_type": "code", "source": s} for s in sources]}


@dataclass(frozen=True)
class BoardAnswer:
    exercise_id: str
    answer: str
    after_solution: bool


def test_board_answers_as_records_or_as_the_old_mapping() -> None:
    records = [BoardAnswer("04.03", "e8=Q", False), BoardAnswer("12.15", "Qb8#", True)]
    assert board_found(records) == [Found("04.03", "e8=Q", "board", False),
                                    Found("12.15", "Qb8#", "board", True)]
    assert board_found({"07.01": "O-O"}) == [Found("07.01", "O-O", "board", False)]
    assert board_found(None) == [] and board_found([object(), BoardAnswer("", "x", True)]) == []
    assert board_found([BoardAnswer("01.01", "x" * 20_000, False)])[0].answer is None


def test_answers_over_the_caps_are_not_built() -> None:
    found, _ = notebook_answers(cells(
        f'ck.answer("01.01", {"a" * 20_000!r})',
        f'ck.answer("01.02", {[f"e{n % 8 + 1}" for n in range(2_000)]!r})',
        'ck.answer("01.03", [["e4"]])',
        'ck.answer("02.01", ["e4", "d4"])'))
    assert [(f.exercise_id, f.answer) for f in found] == [
        ("01.01", None), ("01.02", None), ("01.03", None), ("02.01", ["e4", "d4"])]


def test_a_long_cell_is_shrunk_and_its_answers_still_read() -> None:
    huge = "x = [" + ", ".join(map(str, range(60_000))) + "]"
    deep = "y = " + "[" * 40 + "]" * 40
    text = "z = " + repr("q" * 200_000)
    found, language = notebook_answers(cells(
        "\n".join([huge, deep, text, 'ck.answer("01.01", "Ra8#")', "ck.set_language('zh-Hans')"]),
        huge + "\nck.answer('01.02',", 'ck.answer("01.03", "Rd1#")'))
    assert [(f.exercise_id, f.answer) for f in found] == [("01.01", "Ra8#"), ("01.03", "Rd1#")]
    assert language == "zh-Hans"
    shrunk, whole = answer_reader._shrunk(huge + "\n" + deep)
    assert whole and len(shrunk) < 100 and answer_reader.TOO_BIG in shrunk


def test_cells_left_unparsed_hide_no_answer() -> None:
    found, language = notebook_answers(cells(
        'a("01.01", "Ra8#")', "import chesskit as c", 'c.answer("01.02", "Qh8#")',
        "from chesskit import answer as a", "ｃｋ.ａｎｓｗｅｒ('01.03', 'Rd1#')",
        "ck.exercise('01.04')", 'ｃｋ.set_language("zh-Hans")'))
    assert [(f.exercise_id, f.answer) for f in found] == [
        ("01.01", "Ra8#"), ("01.02", "Qh8#"), ("01.03", "Rd1#")]
    assert language == "zh-Hans"


def test_nul_bytes_in_a_cell_cost_only_that_line() -> None:
    found, _ = notebook_answers(cells('print("\x00")\nck.answer("01.01", "Ra8#")'))
    assert [(f.exercise_id, f.answer) for f in found] == [("01.01", "Ra8#")]
    notebook, problem = answer_reader._read_notebook("hw.ipynb", b'{"cells": [\x00]}', lang="en")
    assert notebook is None and problem is not None and "broken" in problem
    notebook, problem = answer_reader._read_notebook("hw.ipynb", b"\xff\xfe{}", lang="en")
    assert notebook is None and problem is not None


PEAK = """
import json, resource, sys
from chesskit.teacher.answer_reader import notebook_answers
data = open(sys.argv[1], "rb").read()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
found, _ = notebook_answers(json.loads(data))
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"grown_mb": (after - before) / 1024, "found": [f.answer for f in found]}))
"""


def test_peak_memory_of_a_notebook_with_a_huge_list(tmp_path: Path) -> None:
    """A 2 MB cell holding a 300,000-element list: the whole syntax tree took 323 MB;
    read token by token it takes about 7 MB (measured with the process's peak RSS)."""
    source = "x = [" + ", ".join(map(str, range(300_000))) + "]\nck.answer('01.01', 'Ra8#')"
    path = tmp_path / "huge.ipynb"
    path.write_text(json.dumps(cells("import chesskit as ck", source)), encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", PEAK, str(path)], capture_output=True,
                         text=True, timeout=300, check=True)
    result = json.loads(run.stdout)
    assert result["found"] == ["Ra8#"]
    assert result["grown_mb"] < 60, result
