"""What learning platforms and children really hand in (issue 19): zips read by many workers,
many copies of one notebook, names that look alike, times that lie, nested zips and browser
downloads.  Every fixture is built here."""

from __future__ import annotations

import csv
import json
import zipfile
from pathlib import Path

import _teacher_fakes
import pytest

from chesskit.teacher import grading, submissions

RIGHT = {"01.01": "Ra8#", "01.03": "Rd1#"}


@pytest.fixture(autouse=True)
def fake_bank(monkeypatch: pytest.MonkeyPatch) -> None:
    _teacher_fakes.install(monkeypatch)
    submissions._opened.cache_clear()


def notebook(pairs: dict[str, str], *, meta: dict[str, object] | None = None,
             outputs: list[object] | None = None) -> str:
    cells: list[dict[str, object]] = [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": "import chesskit as ck\nck.set_language('en')"}]
    cells += [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
               "source": f"ck.answer({k!r}, {v!r})"} for k, v in pairs.items()]
    if outputs:
        cells.append({"cell_type": "code", "metadata": {}, "execution_count": None,
                      "source": "board", "outputs": outputs})
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": meta or {},
                       "cells": cells})


def zip_of(path: Path, entries: dict[str, str | bytes], *,
           times: dict[str, tuple[int, ...]] | None = None) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in entries.items():
            info = zipfile.ZipInfo(name, (times or {}).get(name, (2026, 3, 1, 12, 0, 0)))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, text)
    return path


def table(out: Path, name: str = "grades.csv") -> list[dict[str, str]]:
    with (out / name).open(encoding="utf-8-sig", newline="") as stream:
        return list(csv.DictReader(stream))


def by_student(out: Path) -> dict[str, dict[str, str]]:
    return {row["student"]: row for row in table(out) if row["student"] != "(class note)"}


def test_a_zip_graded_by_two_workers_ten_times_equals_one_worker(tmp_path: Path) -> None:
    entries: dict[str, str | bytes] = {}
    for n in range(20):
        pairs = RIGHT if n % 3 else {"01.01": "Ra7", "01.03": "Rd1#"}
        # long, incompressible-ish padding so that reads cross buffer boundaries
        pad = {f"pad{i}": str(hash((n, i))) * 50 for i in range(40)}
        entries[f"student{n:02d}/01-mate.ipynb"] = notebook(pairs, meta=pad)
    archive = zip_of(tmp_path / "class20.zip", entries)
    grading.grade([archive], out=tmp_path / "one", jobs=1)
    expected = (tmp_path / "one" / "grades.csv").read_text(encoding="utf-8-sig")
    assert "damaged" not in expected and len(by_student(tmp_path / "one")) == 20
    for run in range(10):
        submissions._opened.cache_clear()
        archive_reader = submissions._archive(archive)  # opened before the workers start
        assert archive_reader.infos
        grading.grade([archive], out=tmp_path / f"two{run}", jobs=2)
        got = (tmp_path / f"two{run}" / "grades.csv").read_text(encoding="utf-8-sig")
        assert got == expected, f"run {run}"
