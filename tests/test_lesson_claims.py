"""Every ```check block of every lesson source proves the chess claims of its lesson, and the
lessons speak to the learner, not about the course's sources."""

from pathlib import Path

import chess
import pytest

import chesskit as ck
from chesskit.course.lessons import lesson_sources, read_lesson

ROOT = Path(__file__).resolve().parents[1]

CHECKS = [
    pytest.param(path, line, code, id=f"{path.stem}:{line}")
    for path in lesson_sources(ROOT)
    for line, code in read_lesson(path).checks
]


@pytest.mark.parametrize(("path", "line", "code"), CHECKS)
def test_lesson_claim(path: Path, line: int, code: str) -> None:
    namespace = {"chess": chess, "ck": ck}
    exec(compile(code, f"{path}:{line}", "exec"), namespace)  # our own lesson sources


def test_every_lesson_checks_its_claims() -> None:
    missing = [path.name for path in lesson_sources(ROOT) if not read_lesson(path).checks]
    assert not missing, f"lessons without any check block: {missing}"


# Words about the course's source documents or outdated terms, not for the learner's text.
NOT_FOR_THE_LEARNER = ("source rule book", "our sources", "The sources say", "SYLLABUS",
                       "our rule book", "semi-pin", "规则书", "资料上说", "资料里")


@pytest.mark.parametrize("word", NOT_FOR_THE_LEARNER)
def test_lessons_speak_to_the_learner(word: str) -> None:
    found = [f"{path.name}:{number}" for path in lesson_sources(ROOT)
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if word in line]
    assert not found, f"say the fact itself, not where it comes from: {found}"
