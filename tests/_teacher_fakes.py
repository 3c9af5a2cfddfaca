"""A tiny exercise bank for the teacher-tool tests (grading, learner, worksheet, homework).

``install(monkeypatch)`` points the real catalog at ``tests/data/teacher/`` (five items in
lessons 1 and 2), so those tests do not change when the course's bank does.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from chesskit.exercises import Exercise, catalog

FOLDER = Path(__file__).parent / "data" / "teacher"


def install(monkeypatch: pytest.MonkeyPatch) -> None:
    """Use the test bank for the rest of the test (with a cache of its own)."""
    monkeypatch.setattr(catalog, "bank_dir", lambda: FOLDER)
    monkeypatch.setattr(catalog, "_index", functools.lru_cache(maxsize=1)(
        catalog._index.__wrapped__))


def bank() -> list[Exercise]:
    """The test bank's exercises, in id order (call after ``install``)."""
    return list(catalog.bank())
