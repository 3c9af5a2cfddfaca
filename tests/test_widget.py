"""The board widget on the Python side: traits, requests, explanations, saved answers."""

from __future__ import annotations

import tomllib
from importlib import resources

import chess
import pytest

from chesskit import exercises, learner
from chesskit.exercises.catalog import bank, exercise
from chesskit.rules.explain import explain_move
from chesskit.widgets.board import (
    BOARD_INPUTS,
    Board,
    legal_targets,
    result_sentence,
    square_labels,
)
from chesskit.widgets.boardstate import ANSWER_MIME, BoardAnswer, board_answers
from chesskit.widgets.exercise_board import ExerciseBoard
from chesskit.widgets.games import builtin_move, game_pgn, play

START = chess.STARTING_FEN
BACK_RANK = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"


def test_legal_targets_come_from_python_chess() -> None:
    board = Board()
    assert board.legal == legal_targets(chess.Board())
    assert board.legal["g1"] == ["f3", "h3"] and "e1" not in board.legal


def test_labels_in_both_languages() -> None:
    assert square_labels(chess.Board(), lang="en")["g1"] == "white knight on g1"
    assert square_labels(chess.Board(), lang="zh-Hans")["g1"] == "白马 g1"
    assert square_labels(chess.Board(), lang="zh-Hant")["d8"] == "黑后 d8"
    assert Board(lang="zh-Hans").labels["e4"] == "e4 空格"


def test_click_move_updates_every_trait() -> None:
    board = Board()
    board.handle({"type": "move", "from": "e2", "to": "e4"})
    assert board.fen == chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
                                    ).fen()
    assert board.lastmove == "e2e4" and board.history == ["e4"] and board.movetext == "1. e4"
    assert board.message == "White played e4." and board.message_kind == "ok"
    assert "e7" in board.legal and "e2" not in board.legal


def test_illegal_try_is_explained_and_flashes_its_squares() -> None:
    board = Board()
    flashes = board.flash
    board.handle({"type": "move", "from": "c1", "to": "e3"})
    assert board.fen == START
    assert "c1" in board.message and board.message_kind == "error"
    assert "c1" in board.message_squares and board.flash == flashes + 1


def test_wrong_side_and_stuck_piece() -> None:
    board = Board()
    board.handle({"type": "pick", "square": "e7"})
    assert board.message == "White to move: the black pawn on e7 must wait."
    board.handle({"type": "pick", "square": "a1"})
    assert board.message == "The white rook on a1 has no legal move now."


def test_bad_requests_never_raise() -> None:
    board = Board()
    for content in ({"type": "move", "from": "z9", "to": 3}, {"type": "nonsense"}, {},
                    {"type": "step", "delta": "x"}, {"type": "text", "text": "Qxz9!!"},
                    {"type": "promote", "piece": "k"}, {"type": "mark", "square": "e4"}):
        board.handle(content)
    assert board.fen == START


def test_promotion_asks_for_the_piece() -> None:
    board = Board("8/4P3/8/8/8/8/8/k6K w - - 0 1")
    board.handle({"type": "move", "from": "e7", "to": "e8"})
    assert board.promotion == "e7e8" and board.fen.startswith("8/4P3")
    board.handle({"type": "promote", "piece": "n"})
    assert board.fen.startswith("4N3") and board.promotion == ""


def test_typed_move_and_take_back() -> None:
    board = Board()
    board.handle({"type": "text", "text": "ｎｆ３"})
    assert board.lastmove == "g1f3"
    board.handle({"type": "takeback"})
    assert board.fen == START and board.message == "The move Nf3 was taken back."
    board.handle({"type": "text", "text": "Nf6"})
    assert board.fen == START and board.message_kind == "error"


def test_stepping_through_a_game() -> None:
    board = Board(positions="1. e4 e5 2. Nf3 Nc6")
    assert (board.index, board.count, board.fen) == (0, 5, START)
    board.handle({"type": "step", "delta": 2})
    assert board.lastmove == "e7e5" and board.index == 2
    board.handle({"type": "goto", "index": 99})
    assert board.index == 4 and board.movetext == "1. e4 e5 2. Nf3 Nc6"
    board.step(-10).flip()
    assert board.index == 0 and board.orientation == "black"


def test_mark_mode_toggles_squares() -> None:
    board = Board("8/8/8/8/3R4/8/8/8", mode="mark")
    assert board.legal == {}
    for square in ("e4", "d5", "e4", "a1"):
        board.handle({"type": "mark", "square": square})
    assert board.marked == ["a1", "d5"]
    board.handle({"type": "submit"})
    assert board.message == "Marked: a1 and d5."


def test_repr_and_mimebundle_are_deterministic() -> None:
    first, second = Board(), Board()
    assert repr(first) == f"<chesskit.Board fen='{START}'>"
    data, _ = first._repr_mimebundle_()
    assert data["text/plain"] == first.svg().alt == second._repr_mimebundle_()[0]["text/plain"]
    assert data["text/html"] == second._repr_mimebundle_()[0]["text/html"] == str(first.svg())
    assert "application/vnd.jupyter.widget-view+json" in data
    assert "image/svg+xml" not in data and "data:" not in data["text/html"]
    assert f'aria-label="{first.svg().alt}"' in data["text/html"]


def test_teacher_marks_and_arrows_reach_the_svg() -> None:
    board = Board(size=720).highlight(yellow=["e4"]).draw("e2e4", ("g1", "f3", "blue"))
    assert board.arrows == [["e2", "e4", "green"], ["g1", "f3", "blue"]]
    assert board.marks == {"yellow": ["e4"]}
    assert "<svg" in board.svg()


def test_exercise_board_records_wrong_then_right_answer() -> None:
    ex = exercises.Exercise(id="12.01", lesson=12, kind="move", goal="mate", fen=BACK_RANK)
    board = Board(ex.fen, exercise=ex)
    assert isinstance(board, ExerciseBoard) and board.exercise_id == "12.01"
    board.handle({"type": "move", "from": "a1", "to": "a7"})
    assert board.fen == chess.Board(BACK_RANK).fen() and board.answer == "Ra7"
    assert not board.correct and board.attempts == 1
    board.handle({"type": "move", "from": "a1", "to": "a8"})
    assert board.answer == "Ra8#" and board.correct and board.mode == "view"
    board.handle({"type": "hint"})
    assert board.message


def test_exercise_board_marks_the_move_that_was_just_played() -> None:
    """An item with ``last_move`` ("White has just taken on d8") shows that move on the board
    until the learner moves, and again when the board starts over."""
    ex = exercise("32.01")
    board = Board(ex.fen, exercise=ex)
    assert ex.last_move and board.lastmove == ex.last_move
    start = ex.board()
    wrong = next(m for m in start.legal_moves if start.san(m) not in ex.solutions())
    board.handle({"type": "move", "from": chess.square_name(wrong.from_square),
                  "to": chess.square_name(wrong.to_square)})
    assert board.fen == start.fen() and board.lastmove == ex.last_move  # back at the start
    assert Board(ex.fen).lastmove == ""


def test_line_exercise_defender_answers_after_the_pause() -> None:
    ex = exercises.Exercise(id="11.17", lesson=11, kind="line",
                            fen="3k4/8/1K6/4Q3/8/8/8/8 w - - 0 1", data={"mate_in": 2})
    board = ExerciseBoard(exercise=ex)
    key = ex.solutions()[0]
    board.handle({"type": "text", "text": key})
    assert board.waiting and board.legal == {}
    board.handle({"type": "reply"})
    assert not board.waiting and board.history[0] == key and len(board.history) == 2
    position = board.board
    mate = next(position.san(m) for m in position.legal_moves if _mates(position, m))
    board.handle({"type": "text", "text": mate})
    assert board.correct and board.answer.endswith("#") and board.mode == "view"


def _mates(board: chess.Board, move: chess.Move) -> bool:
    board = board.copy()
    board.push(move)
    return board.is_checkmate()


def test_squares_exercise_on_the_board() -> None:
    ex = exercises.Exercise(id="02.01", lesson=2, kind="squares", fen="8/8/8/8/8/8/8/R7",
                            data={"mode": "moves", "square": "a1"})
    board = Board(exercise=ex)
    assert board.mode == "mark"
    for square in ex.solutions()[0].split():
        board.handle({"type": "mark", "square": square})
    board.handle({"type": "submit"})
    assert board.correct and sorted(board.answer.split()) == sorted(board.marked)


def test_two_player_game_to_fools_mate() -> None:
    game = play(lang="zh-Hans")
    for source, target in (("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")):
        game.handle({"type": "move", "from": source, "to": target})
    assert (game.result, game.reason) == ("0-1", "checkmate")
    assert game.message == "黑方走了Qh4#。将死！黑方胜。" and game.legal == {}
    assert "1. f3 e5 2. g4 Qh4# 0-1" in game.pgn
    assert game.pgn == game_pgn(game.board, result="0-1")


@pytest.mark.parametrize(("fen", "moves", "reason"), [
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "", "stalemate"),
    ("8/8/8/4k3/8/8/3r4/4K3 w - - 0 1", "e1d2", "insufficient"),
    ("4k3/8/8/8/8/8/8/4K2R w - - 100 80", "", "fifty"),
    ("4k3/8/8/8/8/8/8/4K2R w - - 150 110", "", "seventyfive"),
    (START, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", "threefold"),
    (START, "g1f3 g8f6 f3g1 f6g8 " * 4, "fivefold"),
    ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "a1a8", "checkmate"),
])
def test_every_game_end_is_announced_on_a_lesson_board(fen: str, moves: str, reason: str) -> None:
    board = chess.Board(fen)
    for uci in moves.split():
        board.push_uci(uci)
    assert result_sentence(board, lang="en")[1] == reason
    for lang in ("en", "zh-Hans"):
        sentence = result_sentence(board, lang=lang)[2]
        assert sentence and "{" not in sentence
        lesson = Board(fen, lang=lang)
        for uci in moves.split()[:-1]:
            lesson.move(uci)
        if moves:
            lesson.handle({"type": "move", "from": moves.split()[-1][:2],
                           "to": moves.split()[-1][2:4]})
        assert lesson.message.endswith(sentence) and lesson.legal == {}


def test_builtin_opponent_takes_hanging_piece_and_is_seeded() -> None:
    assert builtin_move(chess.Board("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1")) == chess.Move.from_uci(
        "d1d5")
    assert builtin_move(chess.Board()) == builtin_move(chess.Board())


def test_computer_game_waits_for_the_page_then_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("chesskit.rules.engine.stockfish_path", lambda: None)
    game = play(opponent="computer", color="black")
    assert game.waiting and game.legal == {}
    game.handle({"type": "reply"})
    assert len(game.history) == 1 and game.legal and not game.waiting
    game.handle({"type": "takeback"})
    assert game.history == [] and game.waiting


def test_locale_pair_matches_and_overrides_ship() -> None:
    root = resources.files("chesskit")
    en = tomllib.loads((root / "locale/en/widget.toml").read_text(encoding="utf-8"))
    zh = tomllib.loads((root / "locale/zh-Hans/widget.toml").read_text(encoding="utf-8"))
    assert en.keys() == zh.keys()
    overrides = (root / "jupyter/overrides.json").read_text(encoding="utf-8")
    assert '"saveState": true' in overrides


def test_status_says_whose_turn_while_a_move_can_be_played() -> None:
    board = Board()
    assert board.status == "White to move."
    board.move("e4")
    assert board.status == "Black to move."
    assert Board(lang="zh-Hans").status == "白方走。"
    assert Board(mode="view").status == ""
    assert play(opponent="computer", color="black").status == "Your opponent is thinking..."


LESSON_04 = "8/4P3/8/8/8/k7/8/4K3 w - - 0 1"
LESSON_12 = "1r4k1/p1p2ppp/8/2pRp3/8/1P6/PqP2PPP/3Q2K1 w - - 0 21"
LESSON_24 = "2b1k3/pp6/2n5/1B6/3P4/8/5PPP/6K1 b - - 0 1"


def test_a_board_set_up_to_try_a_knight_is_not_over_before_it_starts() -> None:
    """Lesson 3's "Try the knight and the king": too few pieces to mate from the start is a
    board to move on (a game that comes down to it still ends)."""
    board = Board("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1", lang="en")
    assert board.message == "" and board.status == "White to move."
    board.move("Nf6+")
    board.move("Kf7")
    assert board.message == "Black played Kf7." and board.legal["f6"]


def test_the_arrow_of_a_notation_task_cannot_be_cleared_away() -> None:
    """09.01 asks for the move of its arrow: no "Clear arrows" button under it (a tap on a
    tablet would take the question away); a free board with arrows keeps the button."""
    task = Board(exercise=exercise("09.01"), lang="en")
    assert task.arrows and task.buttons.get("clear") is False
    assert Board(lang="en").draw("e2e4").buttons.get("clear") is not False


def test_underpromotion_to_a_lone_knight_is_called_a_draw() -> None:
    board = Board(LESSON_04)
    board.handle({"type": "move", "from": "e7", "to": "e8"})
    board.handle({"type": "promote", "piece": "n"})
    assert board.message == ("White played e8=N. Draw: nobody has enough pieces left to give"
                             " checkmate.")
    assert len(list(board.board.legal_moves)) == 5  # python-chess still lists the king's moves
    board.handle({"type": "pick", "square": "a3"})
    assert "no legal move" not in board.message and "Draw" in board.message


def test_mate_is_named_checkmate_in_both_languages() -> None:
    for lang, word in (("en", "Checkmate"), ("zh-Hans", "将死")):
        board = Board(LESSON_12, lang=lang)
        for san in ("Rd8+", "Rxd8", "Qxd8#"):
            board.move(san)
        assert board.board.is_checkmate() and "Qxd8#" in board.message and word in board.message


def test_a_clicked_pinned_piece_is_explained_like_a_typed_move() -> None:
    typed = explain_move(chess.Board(LESSON_24), "Nxd4", lang="en")
    assert typed.code == "pinned"
    board = Board(LESSON_24)
    board.handle({"type": "pick", "square": "c6"})
    assert board.message == typed.message and board.message_kind == "error"
    board.handle({"type": "move", "from": "c6", "to": "d4"})
    assert board.message == typed.message and "must wait" not in board.message
    board.handle({"type": "pick", "square": "d4"})
    assert board.message == "Black to move: the white pawn on d4 must wait."


def test_a_piece_that_cannot_move_is_still_named() -> None:
    board = Board()
    board.handle({"type": "pick", "square": "a1"})
    assert board.message == "The white rook on a1 has no legal move now."


def test_promotion_buttons_and_targets_have_spoken_names() -> None:
    assert Board().ui["piece_q"] == "Queen" and Board(lang="zh-Hans").ui["piece_q"] == "后"
    assert Board(lang="zh-Hant").ui["piece_q"] == "后"
    assert Board().ui["palette_k"] == "Black king" and Board().ui["can_go"]
    assert "{piece}" in Board().ui["targets"] and "{squares}" in Board().ui["targets"]


@pytest.fixture
def store(tmp_path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """A fresh progress store, recording on."""
    monkeypatch.setenv("CHESSKIT_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("CHESSKIT_RECORD", "1")
    return learner


def test_board_answers_reach_the_progress_store(store) -> None:  # type: ignore[no-untyped-def]
    ex = exercises.Exercise(id="12.01", lesson=12, kind="move", goal="mate", fen=BACK_RANK,
                            difficulty=900)
    board = ExerciseBoard(exercise=ex)
    board.handle({"type": "move", "from": "a1", "to": "a7"})
    board.handle({"type": "move", "from": "a1", "to": "a8"})
    history = store.attempts()
    assert [(a.exercise_id, a.correct, a.answer, a.difficulty) for a in history] == [
        ("12.01", False, "Ra7", 900), ("12.01", True, "Ra8#", 900)]
    typed = ex.check("Ra8#")
    assert (history[-1].code, history[-1].correct) == (typed.code, typed.correct)


def test_a_line_solved_on_the_board_is_one_correct_attempt(store) -> None:  # type: ignore[no-untyped-def]
    ex = exercises.Exercise(id="11.17", lesson=11, kind="line",
                            fen="3k4/8/1K6/4Q3/8/8/8/8 w - - 0 1", data={"mate_in": 2})
    board = ExerciseBoard(exercise=ex)
    board.handle({"type": "text", "text": ex.solutions()[0]})
    board.handle({"type": "reply"})
    position = board.board
    board.move(next(m for m in position.legal_moves if _mates(position, m)))
    assert board.correct and [a.correct for a in store.attempts()] == [True]


def _sample(kind: str, mode: str | None = None) -> exercises.Exercise:
    return next(e for e in bank(kind=kind) if mode is None or mode in e.data.values())


def test_every_kind_has_a_board_input() -> None:
    seen = {(e.kind, str(e.data.get("mode"))): e for e in bank()}
    for ex in seen.values():
        board = ExerciseBoard(exercise=ex)
        assert ex.board_input() in BOARD_INPUTS and board.board_input == ex.board_input()
    assert {e.board_input() for e in seen.values()} == set(BOARD_INPUTS)


def test_set_up_on_the_board_with_the_palette(store) -> None:  # type: ignore[no-untyped-def]
    ex = exercises.Exercise(id="02.90", lesson=2, kind="setup",
                            data={"target": "4k3/8/8/8/8/8/8/3QK3"})
    board = ExerciseBoard(exercise=ex)
    assert board.mode == "place" and board.board_input == "placement" and "click" in board.status
    board.handle({"type": "place", "square": "e1"})
    assert board.message_kind == "error" and board.fen.startswith("8/8/8/8/8/8/8/8 ")
    for square, piece in (("e1", "K"), ("d1", "Q"), ("e8", "k"), ("a8", "r"), ("a8", "r")):
        board.handle({"type": "place", "square": square, "piece": piece})
    assert board.fen.split()[0] == "4k3/8/8/8/8/8/8/3QK3" and board.labels["d1"].startswith(
        "white queen")
    board.handle({"type": "submit"})
    assert board.correct and board.answer == "4k3/8/8/8/8/8/8/3QK3"
    assert ex.check(board.answer).correct and store.attempts()[-1].correct


def test_set_up_solution_is_drawn_not_printed() -> None:
    ex = _sample("setup")
    board = ExerciseBoard(exercise=ex)
    board.handle({"type": "solution"})
    assert board.fen.split()[0] == ex.solutions()[0] and "/" not in board.message
    assert board.solution_shown and board.mode == "view"


def test_clicked_square_is_the_answer() -> None:
    ex = exercises.Exercise(id="01.60", lesson=1, kind="square",
                            data={"mode": "find", "square": "e4"})
    board = ExerciseBoard(exercise=ex)
    board.handle({"type": "mark", "square": "d4"})
    assert not board.correct and board.answer == "d4" and board.marked == ["d4"]
    board.handle({"type": "mark", "square": "e4"})
    assert board.correct and board.attempts == 2


def test_squares_solution_is_marked_on_the_board() -> None:
    ex = exercises.Exercise(id="02.02", lesson=2, kind="squares", fen="8/8/8/8/8/8/8/R7",
                            data={"mode": "moves", "square": "a1"})
    board = ExerciseBoard(exercise=ex)
    board.handle({"type": "solution"})
    assert sorted(board.marks["green"]) == sorted(ex.solutions()[0].split())


def test_choice_buttons_and_their_solution() -> None:
    ex = _sample("choice", "status")
    board = ExerciseBoard(exercise=ex)
    assert board.board_input == "options" and board.mode == "view"
    assert [value for value, _ in board.choices] == ["A", "B", "C", "D"]
    key = ex.solutions()[0]
    board.handle({"type": "solution"})
    assert board.solution_choice == key
    board.handle({"type": "text", "text": key})
    assert board.correct and board.after_solution and board.answer_bundle()[ANSWER_MIME] == {
        "exercise_id": ex.id, "answer": board.answer, "after_solution": True}


def test_count_answered_with_the_number_pad() -> None:
    ex = _sample("count", "legal_moves")
    board = ExerciseBoard(exercise=ex)
    assert board.board_input == "number"
    board.handle({"type": "text", "text": ex.solutions()[0]})
    assert board.correct


def test_hints_end_with_no_more_hints() -> None:
    ex = exercises.Exercise(id="12.01", lesson=12, kind="move", goal="mate", fen=BACK_RANK)
    board = ExerciseBoard(exercise=ex)
    said = []
    for _ in range(4):
        board.handle({"type": "hint"})
        said.append(board.message)
    assert said[:3] == [ex.hint(level) for level in range(3)]
    assert said[3] == 'No more hints. Try "Show solution".'


def test_answer_output_is_fixed_until_an_answer_then_updated(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ex = exercises.Exercise(id="12.01", lesson=12, kind="move", goal="mate", fen=BACK_RANK)
    first, second = ExerciseBoard(exercise=ex), ExerciseBoard(exercise=ex)
    assert first.answer_bundle() == second.answer_bundle() == {
        ANSWER_MIME: {"exercise_id": "12.01", "answer": "", "after_solution": False},
        "text/plain": "12.01: your answer on the board is saved here."}
    updates: list[tuple[object, str]] = []
    monkeypatch.setattr("chesskit.widgets.exercise_board.update_display",
                        lambda obj, *, display_id, raw: updates.append((obj, display_id)))

    class Handle:
        display_id = "d1"

    monkeypatch.setattr("chesskit.widgets.board.display", lambda *_a, **_k: None)
    monkeypatch.setattr("chesskit.widgets.exercise_board.display", lambda *_a, **_k: Handle())
    first._ipython_display_()  # shown: its answer output is display "d1"
    first.handle({"type": "move", "from": "a1", "to": "a8"})
    bundle, display_id = updates[-1]
    assert display_id == "d1" and bundle == first.answer_bundle()
    assert first.answer_bundle()["text/plain"] == "12.01: your answer on the board: Ra8#"
    notebook = {"cells": [{"cell_type": "code", "outputs": [
        {"output_type": "display_data", "data": bundle, "metadata": {}}]}]}
    assert board_answers(notebook) == [BoardAnswer("12.01", "Ra8#", False)]


def test_exercise_board_displays_itself_then_its_answer_output(
        monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[dict[str, object]] = []

    class Handle:
        display_id = "answer-1"

    def display(data: dict[str, object], **options: object) -> Handle | None:
        shown.append(data)
        return Handle() if options.get("display_id") else None

    monkeypatch.setattr("chesskit.widgets.board.display", display)
    monkeypatch.setattr("chesskit.widgets.exercise_board.display", display)
    ex = exercises.Exercise(id="12.01", lesson=12, kind="move", goal="mate", fen=BACK_RANK)
    board = ExerciseBoard(exercise=ex)
    board._ipython_display_()
    assert shown[0] == board.saved_picture(), "the picture a page without a kernel shows"
    assert "<svg" in str(shown[0]["text/html"]) and "Run this cell" in str(shown[0]["text/html"])
    assert list(shown[1]) == ["application/vnd.jupyter.widget-view+json"]
    assert shown[2] == board.answer_bundle()


def test_every_request_is_answered_so_that_a_page_can_tell_a_lost_kernel() -> None:
    board = Board("start", lang="en")
    said: list[object] = []
    board.send = said.append  # type: ignore[method-assign]
    answer = board._on_msg  # noqa: SLF001  (the comm's callback: what the page reaches)
    answer(board, {"type": "ping"}, [])
    answer(board, {"type": "move", "from": "e2", "to": "e4"}, [])
    assert said == [{"type": "done"}, {"type": "done"}] and board.history == ["e4"]


def test_odd_placements_never_raise() -> None:
    ex = exercises.Exercise(id="02.90", lesson=2, kind="setup", data={"target": "start"})
    board = ExerciseBoard(exercise=ex)
    for square, piece in (("a1", "P"), ("h8", "p"), ("e1", "K"), ("e2", "K"), ("e3", "K")):
        board.handle({"type": "place", "square": square, "piece": piece})
    board.handle({"type": "place", "square": "z9", "piece": "Q"})
    board.handle({"type": "submit"})
    assert not board.correct and board.feedback and board.attempts == 1


def _play_on(board: ExerciseBoard, sans: list[str]) -> None:
    """Play the learner's moves on an exercise board; the board answers for the other side."""
    for san in sans:
        position = board.board
        if position.turn != board.exercise.board().turn:
            board.reply()
            position = board.board
        move = position.parse_san(san)
        board.handle({"type": "move", "from": chess.square_name(move.from_square),
                      "to": chess.square_name(move.to_square),
                      "promotion": "q" if move.promotion else ""})


def test_a_star_drill_is_done_on_the_board_with_words_for_each_step(store) -> None:  # type: ignore[no-untyped-def]
    ex = exercise("02.40")
    board = ExerciseBoard(exercise=ex, lang="en")
    first, *rest = [san for san in ex.solutions()[0].split() if san != "--"]
    _play_on(board, [first])
    assert board.message and not board.correct and board.mode == "play"  # the stars left
    _play_on(board, rest)
    assert board.correct and "fewest" in board.message
    assert [a.correct for a in store.attempts()] == [True]


def test_a_pawn_war_is_won_on_the_board(store) -> None:  # type: ignore[no-untyped-def]
    ex = exercise("04.41")
    mine = [tok for tok in ex.solutions()[0].split() if not tok[0].isdigit()][::2]
    board = ExerciseBoard(exercise=ex, lang="en")
    _play_on(board, mine)
    assert board.correct and board.mode == "view" and "win" in board.message


def test_check_in_two_ends_with_the_check_on_the_board(store) -> None:  # type: ignore[no-untyped-def]
    board = ExerciseBoard(exercise=exercise("06.41"), lang="en")
    _play_on(board, ["Ne5"])
    assert board.mode == "play" and board.waiting
    board.reply()
    reply = board.board.peek()
    check = next(m for m in board.board.legal_moves if board.board.gives_check(m))
    _play_on(board, [board.board.san(check)])
    assert board.correct and board.mode == "view" and not board.waiting
    assert board.board.move_stack[-2] == reply and board.board.is_check()


def test_a_capture_drill_with_scripted_replies_on_the_board(store) -> None:  # type: ignore[no-untyped-def]
    board = ExerciseBoard(exercise=exercise("05.40"), lang="en")
    assert board.marks == {"cross": ["b6", "d4", "f6"]}
    _play_on(board, ["Rb1"])
    assert board.message == "Black played d3. 3 pieces are still left to capture."
    assert board.marks == {"cross": ["b6", "d3", "f6"]} and board.lastmove == "d4d3"
    _play_on(board, ["Rxb6"])
    assert board.message == "Black played Ne4. 2 pieces are still left to capture."
    _play_on(board, ["Bxd3"])  # the script is over: Black passes, nothing is said for it
    assert board.message == "One piece is still left to capture."
    assert board.lastmove == "f1d3" and board.marks == {"cross": ["e4"]}
    _play_on(board, ["Bxe4"])
    assert board.correct and board.mode == "view" and board.answer == "Rb1 Rxb6 Bxd3 Bxe4"
    assert board.marks == {"cross": []}
    assert [(a.answer, a.correct) for a in store.attempts()] == [("Rb1 Rxb6 Bxd3 Bxe4", True)]


def test_a_star_drill_shows_the_last_real_move_and_the_stars_left() -> None:
    board = ExerciseBoard(exercise=exercise("02.40"), lang="en")
    _play_on(board, ["Ra5"])
    assert board.lastmove == "a1a5" and board.marks == {"yellow": ["e5", "e8"]}
    assert board.answer == "Ra5" and board.message == "2 stars are still waiting: e5 and e8."


def test_show_me_plays_the_mate_out_step_by_step() -> None:
    ex = exercise("10.20")
    board = ExerciseBoard(exercise=ex, lang="en")
    board.handle({"type": "solution"})
    assert board.count == 24  # the start and the 23 moves of the attacker's game
    assert (board.index, board.mode, board.solution_shown) == (0, "view", True)
    assert board.message.startswith("Watch the whole game: press")
    assert len(board.demo) == board.count and board.legal == {}
    board.handle({"type": "step", "delta": 1})
    assert board.message == ("Step 1 of 23: White plays Re1. The box gets smaller: the black "
                             "king has 21 squares left.")
    assert board.lastmove == "b1e1" and board.movetext == "1. Re1"
    assert len(board.marks["blue"]) == 21  # the box the sentence counts, tinted
    board.handle({"type": "step", "delta": 1})
    assert board.message.startswith("Step 2 of 23: Black plays Kd4.")
    board.handle({"type": "step", "delta": -1})
    assert board.message.startswith("Step 1 of 23")
    board.handle({"type": "goto", "index": 9999})
    assert board.message == "Step 23 of 23: White plays Rd6#. Checkmate! White wins."
    assert chess.Board(board.fen).is_checkmate()
    assert board.marks == {"blue": ["d8"]}  # the mated king's box is its own square
    again = ExerciseBoard(exercise=ex, lang="zh-Hans")
    again.show_solution()
    twice = ExerciseBoard(exercise=ex, lang="zh-Hans")
    twice.show_solution()
    assert again.demo == twice.demo  # deterministic
    again.step(1)
    assert again.message.startswith("第1步（共23步）：白方走Re1。盒子变小了：黑王只剩21个格子。")


def test_show_me_plays_a_mini_game_out_to_its_winner() -> None:
    board = ExerciseBoard(exercise=exercise("04.41"), lang="en")
    board.show_solution()
    board.goto(board.count - 1)
    assert board.message.endswith("Game over: White wins.")
    assert board.message.startswith(f"Step {board.count - 1} of {board.count - 1}: White plays")


def test_take_back_in_a_drill_takes_the_reply_too() -> None:
    board = ExerciseBoard(exercise=exercise("05.40"), lang="en")
    _play_on(board, ["Rb1", "Rxb6"])
    board.handle({"type": "takeback"})
    assert board.message == "The move Rxb6 was taken back."
    assert board.board.turn == chess.WHITE and board.marks == {"cross": ["b6", "d3", "f6"]}
    board.handle({"type": "takeback"})
    assert board.index == 0 and board.marks == {"cross": ["b6", "d4", "f6"]}
    assert board.legal and all(chess.Board(board.fen).color_at(chess.parse_square(s))
                               for s in board.legal)


def test_a_reply_due_when_the_solution_is_shown_changes_nothing() -> None:
    board = ExerciseBoard(exercise=exercise("04.41"), lang="en")
    _play_on(board, ["a4"])
    assert board.waiting  # the page would ask for the reply after its pause ...
    board.show_solution()
    board.step(1)
    shown = (board.count, board.fen)
    board.handle({"type": "reply"})  # ... and asks while the game is being played out
    assert (board.count, board.fen) == shown and not board.waiting


def test_only_solo_drills_check_each_move_without_submit() -> None:
    assert ExerciseBoard(exercise=exercise("02.40")).drill
    assert ExerciseBoard(exercise=exercise("07.40")).drill
    read = next(e for e in bank(kind="notation") if e.board_input() == "moves")
    assert not ExerciseBoard(exercise=read).drill
    assert not ExerciseBoard(exercise=exercise("04.41")).drill


def test_a_drill_is_not_stepped_through() -> None:
    """Stepping back in a drill showed positions where no piece could move (the other side's
    turn); Take back and Try again undo a drill's moves instead."""
    board = ExerciseBoard(exercise=exercise("05.40"), lang="en")
    _play_on(board, ["Rb1"])
    shown = (board.index, board.fen)
    board.handle({"type": "step", "delta": -1})
    board.handle({"type": "goto", "index": 0})
    assert (board.index, board.fen) == shown and board.legal


def test_a_drill_over_par_is_tried_again_on_the_board() -> None:
    board = ExerciseBoard(exercise=exercise("02.42"), lang="en")
    _play_on(board, ["Bd2", "Be3", "Bh6", "Bf8"])
    assert board.retry and board.mode == "view" and "fewer moves" in board.message
    board.handle({"type": "pick", "square": "f8"})
    assert board.message == 'This try is over. Press "Try again" under the board to play again.'
    board.handle({"type": "retry"})
    assert not board.retry and board.mode == "play" and board.fen == board.exercise.board().fen()
    assert board.marks == {"yellow": ["e3", "f8", "h6"]} and board.legal["c1"]
    _play_on(board, ["Be3", "Bh6", "Bf8"])
    assert board.solved and not board.retry and board.message.startswith("Right!")
    board.handle({"type": "pick", "square": "f8"})
    assert board.message == "Solved! Go on to the next exercise."


def test_set_position_shows_one_position_with_its_arrows_and_mode() -> None:
    board = Board("start", positions="1. e4 e5 2. Nf3", lang="en")
    board.set_position(BACK_RANK, arrows=["a1a8", ("g2", "g3", "blue")])
    assert (board.fen, board.index, board.count, board.history) == (BACK_RANK, 0, 1, [])
    assert board.arrows == [["a1", "a8", "green"], ["g2", "g3", "blue"]]
    assert board.legal["a1"] and board.status == "White to move."
    board.set_position(board.board, mode="view")
    assert board.legal == {} and board.arrows == [] and board.fen == BACK_RANK
    assert Board().buttons == {}  # a lesson's board shows each button when it applies
