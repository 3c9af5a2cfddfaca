"""Every ```check block of every lesson source proves the chess claims of its lesson."""

from pathlib import Path

import chess
import pytest

import chesskit as ck
from chesskit.notebooks import lesson_sources, read_lesson

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
