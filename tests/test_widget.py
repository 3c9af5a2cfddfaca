"""The board widget on the Python side: traits, requests, explanations, saved answers."""

from __future__ import annotations

import tomllib
from importlib import resources

import chess
import pytest

from chesskit.boardstate import board_answers
from chesskit.games import builtin_move, game_pgn, play, result_sentence
from chesskit.widget import Board, ExerciseBoard, legal_targets, square_labels

exercises = pytest.importorskip("chesskit.exercises")
START = chess.STARTING_FEN
BACK_RANK = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"


def test_legal_targets_come_from_python_chess() -> None:
    board = Board()
    assert board.legal == legal_targets(chess.Board())
    assert board.legal["g1"] == ["f3", "h3"] and "e1" not in board.legal


def test_labels_in_both_languages() -> None:
    assert square_labels(chess.Board(), lang="en")["g1"] == "white knight on g1"
    assert square_labels(chess.Board(), lang="zh-Hans")["g1"] == "白马 g1"
    assert square_labels(chess.Board(), lang="zh-Hant")["d8"] == "黑後 d8"
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
    assert data["image/svg+xml"] == second._repr_mimebundle_()[0]["image/svg+xml"]
    assert "application/vnd.jupyter.widget-view+json" in data


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
    assert board.correct and board.answer == " ".join(board.marked)


def test_board_answers_from_saved_widget_state() -> None:
    state = {
        "a": {"model_name": "AnyModel", "state": {"exercise_id": "12.01", "answer": "Ra7",
                                                  "attempts": 1}},
        "b": {"model_name": "AnyModel", "state": {"exercise_id": "12.01", "answer": "Ra8#",
                                                  "attempts": 2}},
        "c": {"state": {"exercise_id": "02.01", "answer": ""}},
        "d": {"state": {"fen": START}},
        "e": "garbage",
    }
    nb = {"metadata": {"widgets": {"application/vnd.jupyter.widget-state+json": {
        "state": state, "version_major": 2, "version_minor": 0}}}}
    assert board_answers(nb) == {"12.01": "Ra8#"}
    assert board_answers({}) == {} and board_answers({"metadata": {"widgets": 3}}) == {}


def test_two_player_game_to_fools_mate() -> None:
    game = play(lang="zh-Hans")
    for source, target in (("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")):
        game.handle({"type": "move", "from": source, "to": target})
    assert (game.result, game.reason) == ("0-1", "checkmate")
    assert game.message == "将死！黑方胜。" and game.legal == {}
    assert "1. f3 e5 2. g4 Qh4# 0-1" in game.pgn
    assert game.pgn == game_pgn(game.board, result="0-1")


@pytest.mark.parametrize(("fen", "moves", "reason"), [
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "", "stalemate"),
    ("8/8/8/4k3/8/8/8/4K3 w - - 0 1", "", "insufficient"),
    ("4k3/8/8/8/8/8/8/4K2R w - - 100 80", "", "fifty"),
    (START, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", "threefold"),
])
def test_every_draw_reason_is_named(fen: str, moves: str, reason: str) -> None:
    board = chess.Board(fen)
    for uci in moves.split():
        board.push_uci(uci)
    assert result_sentence(board, lang="en")[1] == reason


def test_builtin_opponent_takes_hanging_piece_and_is_seeded() -> None:
    assert builtin_move(chess.Board("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1")) == chess.Move.from_uci(
        "d1d5")
    assert builtin_move(chess.Board()) == builtin_move(chess.Board())


def test_computer_game_waits_for_the_page_then_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("chesskit.engine.stockfish_path", lambda: None)
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
