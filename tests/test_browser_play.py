"""Play to learn in a real browser (issue 15): a child finishes a star drill and a pawn war by
clicking on the board, answers a capture-all, a protect, a check-in-two and a find-a-way-to-
castle item, and steps through the attacker's game of "Show solution".

The JupyterLab server, Chromium and the helpers are those of ``tests/test_browser.py`` (one
server for this module, stopped and its temp folder removed however the tests end; every wait
event-driven with a generous limit).  Screenshots of each finished board go to
``$CHESSKIT_SHOTS`` when that is set, to be looked at as a child would.
"""

from __future__ import annotations

import os
from pathlib import Path

import chess
import pytest
import test_browser
from test_browser import Lab, Page, click, open_and_run, saved_answers

from chesskit.exercises.catalog import exercise
from chesskit.widgets.boardstate import BoardAnswer

pytestmark = pytest.mark.browser
browser, lab, page = test_browser.browser, test_browser.lab, test_browser.page
"""The fixtures of tests/test_browser.py: pytest finds them under these names."""


def said(page: Page, text: str, *, board: int = 0) -> str:
    """Wait until the message under board number ``board`` contains ``text``; return it."""
    page.wait_for_function(
        "([i, t]) => { const m = document.querySelectorAll('.ck')[i]?.querySelector('.ck-msg');"
        " return !!m && !m.hidden && m.textContent.includes(t); }", arg=[board, text])
    return str(page.locator(".ck").nth(board).locator(".ck-msg").inner_text()).strip()


def play(page: Page, uci: str, *, board: int = 0) -> None:
    """Click the move's two squares (and the new piece of a promotion)."""
    page.locator(".ck-board").nth(board).scroll_into_view_if_needed()
    click(page, uci[:2], board=board)
    click(page, uci[2:4], board=board)
    if len(uci) == 5:
        page.locator(".ck").nth(board).locator(f'.ck-promo [data-piece="{uci[4]}"]').click()


def shoot(page: Page, name: str, *, board: int = 0) -> None:
    folder = os.environ.get("CHESSKIT_SHOTS")
    if folder:
        page.locator(".ck").nth(board).screenshot(path=str(Path(folder) / f"{name}.png"))


def marked(page: Page, square: str, colour: str, *, board: int = 0) -> bool:
    cell = page.locator(".ck-board").nth(board).locator(f'[data-sq="{square}"]')
    return f"ck-hl-{colour}" in (cell.get_attribute("class") or "")


def test_a_star_drill_finished_by_clicking(lab: Lab, page: Page) -> None:
    open_and_run(lab, page, "stars.ipynb", "ck.exercise('02.40')")
    assert marked(page, "a5", "yellow") and marked(page, "e8", "yellow")
    shoot(page, "stars-0")
    play(page, "a1a5")
    assert said(page, "stars are still waiting") == "2 stars are still waiting: e5 and e8."
    assert not marked(page, "a5", "yellow") and marked(page, "e5", "yellow")
    play(page, "a5e5")
    assert said(page, "One star") == "One star is still waiting, on e8."
    shoot(page, "stars-2")
    play(page, "e5e8")
    assert said(page, "Right") == "Right! Done in 3 moves: the fewest possible!"
    page.wait_for_selector(".ck.ck-solved")
    shoot(page, "stars-done")
    page.keyboard.press("Control+s")
    assert saved_answers(lab.root / "stars.ipynb", "02.40") == [
        BoardAnswer("02.40", "Ra5 Re5 Re8", False)]


def _learner_moves(id_: str) -> list[str]:
    """The learner's moves of the item's first solution, in UCI (with the promotion piece)."""
    ex = exercise(id_)
    board = ex.board()
    moves = []
    for token in ex.solutions()[0].split():
        if token[0].isdigit():
            continue
        move = board.push_san(token)
        if board.turn != ex.board().turn:
            moves.append(move.uci())
    return moves


def test_a_pawn_war_won_by_clicking(lab: Lab, page: Page) -> None:
    open_and_run(lab, page, "pawnwar.ipynb", "ck.exercise('04.41')")
    ex, board = exercise("04.41"), exercise("04.41").board()
    moves = _learner_moves("04.41")
    for number, uci in enumerate(moves, start=1):
        play(page, uci)
        board.push_uci(uci)
        if number == len(moves):
            break
        reply = ex.defender_reply(board)
        assert reply is not None
        text = said(page, f"Black played {board.san(reply)}.")
        assert text == f"Black played {board.san(reply)}."
        board.push(reply)
        if number == 1:
            shoot(page, "pawnwar-1")
    assert said(page, "You win") == "Right! You win! White made a new queen on a8."
    page.wait_for_selector(".ck.ck-solved")
    shoot(page, "pawnwar-done")
    page.keyboard.press("Control+s")
    (answer,) = saved_answers(lab.root / "pawnwar.ipynb", "04.41")
    assert answer.answer == "1. a4 f5 2. a5 f4 3. a6 f3 4. a7 f2 5. a8=Q"
    assert ex.check(answer.answer).correct


def test_capture_protect_check_in_two_and_castle_answered_on_the_board(lab: Lab,
                                                                        page: Page) -> None:
    open_and_run(lab, page, "play.ipynb", "ck.exercise('05.40')", "ck.exercise('05.43')",
                 "ck.exercise('06.41')", "ck.exercise('07.40')", boards=4)
    play(page, "d1b1", board=0)
    assert said(page, "Black played", board=0) == \
        "Black played d3. 3 pieces are still left to capture."
    assert marked(page, "d3", "cross", board=0) and not marked(page, "d4", "cross", board=0)
    shoot(page, "capture-1", board=0)
    play(page, "b1b6", board=0)
    assert said(page, "Ne4", board=0) == "Black played Ne4. 2 pieces are still left to capture."
    play(page, "f1d3", board=0)
    assert said(page, "One piece", board=0) == "One piece is still left to capture."
    play(page, "d3e4", board=0)
    said(page, "Right! Done in 4 moves", board=0)
    play(page, "d2f3", board=1)
    assert said(page, "Right", board=1).startswith("Right!")
    shoot(page, "protect-done", board=1)
    play(page, "d3e5", board=2)
    page.wait_for_selector("text=your answer on the board: 1. Ne5")  # the key move is right
    assert page.locator(".ck").nth(2).evaluate("(e) => e.classList.contains('ck-solved')")
    check_in = exercise("06.41")
    position = check_in.board()
    position.push_uci("d3e5")
    reply = check_in.defender_reply(position)
    assert reply is not None
    said(page, f"Black played {position.san(reply)}.", board=2)
    line = f"1. Ne5 {position.san(reply)} 2. "
    position.push(reply)
    check = next(m for m in sorted(position.legal_moves, key=chess.Move.uci)
                 if position.gives_check(m))
    line += position.san(check)
    play(page, check.uci(), board=2)
    page.wait_for_selector(f"text=your answer on the board: {line}")
    shoot(page, "checkin-done", board=2)
    play(page, "g1e2", board=3)
    assert said(page, "castled", board=3) == "You have not castled yet. Keep going."
    play(page, "e1g1", board=3)
    assert said(page, "Right", board=3) == "Right! Done in 2 moves: the fewest possible!"
    page.keyboard.press("Control+s")
    path = lab.root / "play.ipynb"
    for id_ in ("05.40", "05.43", "06.41", "07.40"):
        answers = [a for a in saved_answers(path, id_) if a.exercise_id == id_]
        assert answers and exercise(id_).check(answers[0].answer).correct, (id_, answers)
    answers = {a.exercise_id: a.answer for a in saved_answers(path, "06.41")}
    assert answers == {"05.40": "Rb1 Rxb6 Bxd3 Bxe4", "05.43": "Nf3", "06.41": line,
                       "07.40": "Ne2 O-O"}


def test_show_solution_plays_the_mate_out_move_by_move(lab: Lab, page: Page) -> None:
    open_and_run(lab, page, "showme.ipynb", "ck.exercise('10.20')")
    page.locator(".ck-solution").click()
    said(page, "Watch the whole game")
    forward, back = page.locator(".ck-forward"), page.locator(".ck-back")
    assert forward.is_visible() and back.is_disabled()
    forward.click()
    assert said(page, "Step 1 of 23") == ("Step 1 of 23: White plays Re1. The box gets smaller: "
                                          "the black king has 21 squares left.")
    page.wait_for_selector('.ck-board [data-sq="e1"] .ck-w')
    shoot(page, "showme-1")
    forward.click()
    said(page, "Step 2 of 23: Black plays Kd4.")
    back.click()
    said(page, "Step 1 of 23")
    page.locator(".ck-btn.ck-last").click()
    assert said(page, "Step 23") == "Step 23 of 23: White plays Rd6#. Checkmate! White wins."
    assert forward.is_disabled()
    assert "12. Rd6#" in page.locator(".ck-moves").inner_text()
    shoot(page, "showme-mate")
