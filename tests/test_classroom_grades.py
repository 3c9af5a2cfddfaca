"""Live rounds afterwards: the class report's "Live rounds" and ``chesskit classroom grade``
(through the ``chesskit`` entry point)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import _teacher_fakes
import pytest

from chesskit.classroom.rounds import from_position, judge
from chesskit.classroom.store import Store
from chesskit.cli import main
from chesskit.teacher.gradebook import Gradebook

MATE = "7k/8/6K1/8/8/8/8/R7 w - - 0 1"  # Ra8# is the only mate


@pytest.fixture(autouse=True)
def fake_bank(monkeypatch: pytest.MonkeyPatch) -> None:
    _teacher_fakes.install(monkeypatch)


def play(db: Path, answers: dict[str, list[str]], *, close: bool = True) -> int:
    """A round of the mate in one in the store ``db``; each student's answers in order."""
    store = Store(db)
    task = from_position(MATE, {"en": "Mate in one.", "zh-Hans": "一步杀。"})
    rid = store.open_round("class", task.to_json())
    for student, moves in answers.items():
        store.add_member("class", student, lang="zh-Hans" if student == "Cy" else "en")
        for move in moves:
            judged = judge(task, move)
            store.answer(rid, student, san=judged.san, uci=judged.uci, correct=judged.correct)
    if close:
        store.close_round(rid)
    store.close()
    return rid


def notebook(answers: dict[str, str]) -> str:
    sources = ["import chesskit as ck", *(f"ck.answer({k!r}, {v!r})" for k, v in answers.items())]
    cells: list[dict[str, object]] = [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": source} for source in sources]
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells})


def grades(out: Path) -> dict[str, dict[str, str]]:
    text = (out / "grades.csv").read_bytes().decode("utf-8-sig")
    return {r["student"]: r for r in csv.DictReader(io.StringIO(text))
            if r["student"] != "(class note)"}


def test_rounds_become_graded_items_once_and_appear_in_the_report(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, out, subs = tmp_path / "classroom.sqlite", tmp_path / "out", tmp_path / "subs"
    (subs / "ana").mkdir(parents=True)
    (subs / "ana" / "01-mate.ipynb").write_text(notebook({"01.01": "Ra8#"}), encoding="utf-8")
    (subs / "bo").mkdir()
    (subs / "bo" / "01-mate.ipynb").write_text(notebook({"01.01": "Ra7"}), encoding="utf-8")
    assert main(["grade", str(subs), "--out", str(out)]) == 0
    # the last answer counts: Ana changes a wrong move into the mate, Bo the other way round
    first = play(db, {"ANA": ["Ra7", "Ra8#"], "Bo": ["Ra8#", "Rb1"], "Cy": ["Ra8#"]})
    second = play(db, {"ANA": ["Kf7"]})
    capsys.readouterr()

    assert main(["classroom", "grade", "--store", str(db), "--gradebook", str(out)]) == 0
    listed = capsys.readouterr().out
    assert "--round" in listed and "67%" in listed  # without --round: the rounds are listed

    assert main(["classroom", "grade", "--store", str(db), "--gradebook", str(out),
                 "--round", str(first)]) == 0
    said = capsys.readouterr().out
    assert f"Round {first} is in the gradebook now" in said and "2 of 3 answers right" in said
    assert main(["classroom", "grade", "--store", str(db), "--gradebook", str(out),
                 "--round", str(first), "--lang", "zh-Hans"]) == 0
    assert "什么也没有改" in capsys.readouterr().out  # never twice for the same round
    with Gradebook(out / "gradebook.sqlite") as book:
        assert book.students() == ["Cy", "ana", "bo"]  # ANA is ana, Bo is bo; Cy is new
        items = json.loads(book.setting("live_rounds") or "{}")
    assert len(items) == 1
    item = next(iter(items))
    assert items[item]["marks"] == {"ana": ["Ra8#", True], "bo": ["Rb1", False],
                                    "Cy": ["Ra8#", True]}

    # grading the homework again keeps the round, and the report and the CSV show it
    assert main(["grade", str(subs), "--out", str(out)]) == 0
    got = grades(out)
    assert (got["ana"][item], got["ana"]["live"], got["ana"]["points"]) == ("1", "1", "2")
    assert (got["bo"][item], got["bo"]["points"], got["Cy"][item]) == ("0", "0", "1")
    index = (out / "report" / "index.html").read_text(encoding="utf-8")
    live = index[index.index("Live rounds"):]
    assert "Ra8# ×2, Rb1 ×1" in live and "ANA: Ra8# ✓" in live and "Bo: Rb1 ✗" in live
    assert "3/3" in live and "67%" in live and item in live and "Kf7 ×1" in live
    page = (out / "report" / "students" / "Cy.html").read_text(encoding="utf-8")
    assert 'lang="zh-Hans"' in page and "Ra8#" in page

    assert main(["classroom", "grade", "--store", str(db), "--gradebook", str(out),
                 "--all"]) == 0
    said = capsys.readouterr().out
    assert f"Round {second} is in the gradebook now" in said and "nothing changed" in said


def test_the_live_rounds_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, page = tmp_path / "classroom.sqlite", tmp_path / "live.html"
    play(db, {"Ana": ["Ra8#"], "Bo": ["Ra7"]})
    assert main(["classroom", "report", "--store", str(db), "--out", str(page),
                 "--lang", "zh-Hans"]) == 0
    assert str(page) in capsys.readouterr().out
    text = page.read_text(encoding="utf-8")
    assert "课堂练习轮次" in text and "一步杀。" in text and "Ra7 ×1, Ra8# ×1" in text
    assert "50%" in text and "2/2" in text and "Bo: Ra7 ✗" in text


def test_refusals_are_one_sentence_and_change_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, book = tmp_path / "classroom.sqlite", tmp_path / "gradebook.sqlite"
    open_round = play(db, {"Ana": ["Ra8#"]}, close=False)
    cases = [
        (["--store", str(tmp_path / "none.sqlite")], "There is no classroom store at"),
        (["--store", str(db), "--round", "99"], "There is no round 99 in"),
        (["--store", str(db), "--round", str(open_round)], f"Round {open_round} is still open"),
    ]
    for args, sentence in cases:
        capsys.readouterr()
        assert main(["classroom", "grade", "--gradebook", str(book), *args]) == 1
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"Error: {sentence}") and "\n" not in err
    assert not book.exists() or Gradebook(book).setting("live_rounds") is None
    (tmp_path / "foreign").write_text("not a gradebook", encoding="utf-8")
    store_closed = play(db, {"Ana": ["Ra8#"]})
    assert main(["classroom", "grade", "--store", str(db), "--gradebook",
                 str(tmp_path / "foreign"), "--round", str(store_closed)]) == 1
    assert capsys.readouterr().err.startswith("Error: ")
