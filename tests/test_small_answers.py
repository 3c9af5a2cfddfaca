"""Small answers a child writes: "mate" for checkmate, a space after the piece letter."""

from __future__ import annotations

from chesskit.exercises.catalog import exercise


def test_mate_is_accepted_like_checkmate() -> None:
    ex = exercise("06.14")
    assert ex.check("checkmate", lang="en").correct
    assert ex.check("mate", lang="en").correct and ex.check("Mate!", lang="en").correct


def test_a_space_after_the_piece_letter_is_one_move() -> None:
    ex = exercise("02.14")
    assert ex.solutions()[0] == "Rxb6"
    assert ex.check("R xb6", lang="en").correct and ex.check("R b6", lang="en").correct
