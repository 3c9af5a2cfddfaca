"""A tiny stand-in exercise bank for the teacher-tool tests (grading, learner, worksheet, homework).

The fake follows the DESIGN.md contract of ``chesskit.catalog`` and ``chesskit.exercises``;
install it with ``install(monkeypatch)``.  Moves are judged by python-chess.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from dataclasses import dataclass, field

import chess
import pytest

from chesskit.errors import BankError


@dataclass(frozen=True)
class Feedback:
    correct: bool
    code: str
    message: str
    squares: tuple[int, ...] = ()
    answer: str = ""
    exercise_id: str = ""


@dataclass(frozen=True)
class LessonInfo:
    lesson: int
    slug: str
    title: dict[str, str]


@dataclass(frozen=True)
class Exercise:
    id: str
    lesson: int
    fen: str
    goal: str = "mate"
    kind: str = "move"
    topic: str = "mate"
    difficulty: int = 800
    prompt: dict[str, str] | None = None
    hints: tuple[dict[str, str], ...] = ()
    source: str = ""
    data: dict[str, object] = field(default_factory=dict)

    def solutions(self) -> list[str]:
        board = chess.Board(self.fen)
        found = []
        for move in board.legal_moves:
            board.push(move)
            good = board.is_checkmate() if self.goal == "mate" else board.is_check()
            board.pop()
            if good:
                found.append(board.san(move))
        return sorted(found)

    def prompt_text(self, *, lang: str | None = None) -> str:
        from chesskit.i18n import localize

        return localize(self.prompt or {"en": "Find the mate in one.", "zh": "找出一步杀。"},
                        lang=lang)

    def board_svg(self, *, lang: str | None = None) -> str:
        from chesskit.diagram import board

        return board(self.fen, lang=lang)

    def check(self, answer: object) -> Feedback:
        text = answer if isinstance(answer, str) else " ".join(map(str, answer))  # type: ignore[call-overload]
        text = text.strip()
        if not text:
            return Feedback(False, "empty", "Write your move between the quotes.", (), "", self.id)
        board = chess.Board(self.fen)
        try:
            move = board.parse_san(text)
        except ValueError:
            return Feedback(False, "unparseable", f"I cannot read {text!r}.", (), text, self.id)
        san = board.san(move)
        if san in self.solutions():
            return Feedback(True, "correct", f"Yes! {san} is mate.", (), san, self.id)
        return Feedback(False, "wrong", f"{san} is not mate.", (), san, self.id)


BANK = [
    Exercise("01.01", 1, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", difficulty=700,
             prompt={"en": "White to move: mate in one.", "zh": "白方走：一步杀。"}),
    Exercise("01.02", 1, "k7/8/1K6/8/8/8/7Q/8 w - - 0 1", difficulty=750),
    Exercise("01.03", 1, "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", difficulty=800),
    Exercise("02.01", 2, "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 0 1",
             topic="fork", difficulty=900),
    Exercise("02.02", 2, "4k3/8/8/8/8/8/3R4/4K3 w - - 0 1", goal="check", topic="fork",
             difficulty=600),
]


def exercise(exercise_id: str) -> Exercise:
    for item in BANK:
        if item.id == exercise_id:
            return item
    raise BankError(f"There is no exercise {exercise_id!r} in the bank.")


def bank(*, lesson: int | None = None, topic: str | None = None,
         kind: str | None = None) -> Iterator[Exercise]:
    for item in BANK:
        if ((lesson is None or item.lesson == lesson) and (topic is None or item.topic == topic)
                and (kind is None or item.kind == kind)):
            yield item


def lessons() -> list[LessonInfo]:
    return [LessonInfo(1, "mate", {"en": "Mate in one", "zh": "一步杀"}),
            LessonInfo(2, "fork", {"en": "Forks", "zh": "捉双"})]


def install(monkeypatch: pytest.MonkeyPatch) -> None:
    """Put the fake bank in place of ``chesskit.catalog`` and ``chesskit.exercises``."""
    catalog = types.ModuleType("chesskit.catalog")
    catalog.exercise = exercise  # type: ignore[attr-defined]
    catalog.bank = bank  # type: ignore[attr-defined]
    catalog.lessons = lessons  # type: ignore[attr-defined]
    exercises = types.ModuleType("chesskit.exercises")
    exercises.Feedback = Feedback  # type: ignore[attr-defined]
    exercises.Exercise = Exercise  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "chesskit.catalog", catalog)
    monkeypatch.setitem(sys.modules, "chesskit.exercises", exercises)
    import chesskit

    monkeypatch.setattr(chesskit, "catalog", catalog, raising=False)
    monkeypatch.setattr(chesskit, "exercises", exercises, raising=False)
