"""Small answers a child writes: "mate" for checkmate, a space after the piece letter, a full
stop, capitals, "and" between squares, a noun after a number, words around a letter, words
or arrows between the moves of a line, a square in a few words."""

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


def test_a_full_stop_a_small_letter_and_capitals_are_still_the_move() -> None:
    ex = exercise("02.14")
    for text in ("r xb6", "Rxb6.", "RXB6", "Rxb6。", "车xb6。"):
        assert ex.check(text, lang="en").correct, text


def test_squares_joined_by_and_and_a_count_with_its_noun() -> None:
    squares, count = exercise("02.09"), exercise("02.10")
    assert squares.check("a6, b5, c4, d3 and e2.", lang="en").correct
    assert squares.check("a6和b5和c4和d3和e2。", lang="zh-Hans").correct
    for text in ("14 squares.", "14.", "十四个格子", "一共14个", "There are 14."):
        assert count.check(text, lang="en").correct, text
    assert not count.check("14 apples", lang="en").correct


def test_a_letter_with_words_around_it_is_the_letter() -> None:
    ex = exercise("04.19")
    for text in ("(B)", "选B", "答案：B", "The answer is B.", "B: only right after the jump"):
        assert ex.check(text, lang="en").correct, text
    assert not ex.check("A piece", lang="en").correct


def test_a_line_with_words_or_arrows_between_its_moves() -> None:
    ex = exercise("10.15")
    for text in ("Rb7+ then Kd8 then Rh8#", "Rb7+ → Kd8 → Rh8#", "Rb7+，然后Kd8，然后Rh8#"):
        assert ex.check(text, lang="en").correct, text


def test_one_square_in_a_few_words() -> None:
    ex = exercise("00.01")
    for text in ("the square e4", "on e4", "(e4)", "e4格", "是e4"):
        assert ex.check(text, lang="en").correct, text
    assert not ex.check("the", lang="en").correct and not ex.check("e4 e5", lang="en").correct
