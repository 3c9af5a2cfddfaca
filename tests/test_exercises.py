"""Every kind and goal of chesskit.exercises: right answers in several spellings, wrong ones."""

from __future__ import annotations

import chess
import pytest

from chesskit.errors import BankError
from chesskit.exercises import Exercise, Feedback, catalog, move_tokens, read_number, read_placement
from chesskit.rules import search


def move_ex(goal: str, fen: str, **data: object) -> Exercise:
    return Exercise(id="99.01", lesson=99, kind="move", goal=goal, fen=fen, data=data)


# goal, fen, data, right answers (spellings), wrong answer, word the wrong sentence names
MOVE_CASES = [
    ("mate", "k7/8/1K6/8/8/8/8/3Q3R w - - 0 1", {}, ["Qd8#", "Qd8", "d1d8", "Rh8#", "rh8"],
     "Qd5", "Kb8"),
    ("check", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", {}, ["Ra8+", "Ra1-a8", "a1a8"], "Ra7", "e8"),
    ("capture", "4k3/8/8/1q1p4/8/2N5/8/4K3 w - - 0 1", {"most_valuable": True},
     ["Nxb5", "Nb5", "c3b5"], "Nxd5", "captures"),
    ("escape_check", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", {}, ["Kxe2", "Kd1", "Kf1"], "Kd2", "e2"),
    ("stalemate", "7k/8/5K2/8/8/8/8/6Q1 w - - 0 1", {}, ["Qg6", "g1g6"], "Qg2", "g2"),
    ("castle", "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1", {}, ["O-O-O", "0-0-0", "e1c1"],
     "Kd1", "Kd1"),
    ("en_passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", {}, ["exd6", "exd6 e.p.", "e5d6"],
     "e6", "e6"),
    ("promote", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", {}, ["a8=Q", "a8Q", "a8=R"], "Kd2", "Kd2"),
    ("win_material", "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", {"gain": 3}, ["Rxd5", "Rxd5+", "d1d5"],
     "Rd2", "Rd2"),
    ("fork", "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", {}, ["Nc7+", "Nc7", "b5c7"], "Nd4", "d4"),
    ("pin", "4k3/8/2n5/8/8/8/8/4KB2 w - - 0 1", {}, ["Bb5", "f1b5"], "Bc4", "Bc4"),
    ("skewer", "8/8/8/q2k4/8/8/8/2K4R w - - 0 1", {}, ["Rh5+", "h1h5"], "Rh4", "h4"),
    ("discovered_attack", "3q3k/1r6/8/8/8/3N4/4QPPP/3R2K1 w - - 0 1", {}, ["Nc5", "d3c5"],
     "Nf4", "Qg8"),
    ("double_check", "4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1", {}, ["Nd6+", "Nf6+", "e4f6"],
     "Nc5", "Nc5"),
    ("perpetual", "6k1/6p1/8/8/8/8/8/K3Q3 w - - 0 1", {}, ["Qe8+", "e1e8"], "Qe2", "Qe2"),
    ("develop", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1", {},
     ["Nf3", "Nc3", "Bc4"], "Nh3", "h3"),
    ("best", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     {"answers": ["e4", "d4"]}, ["e4", "e2e4", "d4"], "a3", "a3"),
]


@pytest.mark.parametrize(("goal", "fen", "data", "rights", "wrong", "word"), MOVE_CASES)
def test_move_goals(goal: str, fen: str, data: dict[str, object], rights: list[str], wrong: str,
                    word: str) -> None:
    ex = move_ex(goal, fen, **data)
    for right in rights:
        fb = ex.check(right, lang="en")
        assert fb.correct, (goal, right, fb.message)
        assert fb.code == "correct" and fb.message.startswith("Right!")
    fb = ex.check(wrong, lang="en")
    expected = "illegal" if goal == "escape_check" else "wrong"  # every legal move escapes
    assert (fb.code, fb.correct) == (expected, False), fb.message
    assert word in fb.message
    solutions = ex.solutions()
    assert solutions and len(set(solutions)) == len(solutions)
    assert all(ex.check(san).correct for san in solutions), solutions


def test_every_mate_is_accepted() -> None:
    assert move_ex(*MOVE_CASES[0][:2]).solutions() == ["Qd8#", "Rh8#"]


def test_illegal_move_is_explained() -> None:
    fb = move_ex("mate", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").check("Rb2", lang="en")
    assert fb.code == "illegal" and "a1" in fb.message


def test_chinese_feedback() -> None:
    ex = move_ex("mate", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    assert ex.prompt_text(lang="zh-Hans") == "白方走：一步杀（一步将死对方）。"
    assert ex.prompt_text(lang="en") == "White to move: checkmate in one."
    assert "Ra8#" in ex.check("Ra8", lang="zh-Hans").message
    assert ex.check("车a8", lang="zh-Hant").correct


@pytest.mark.parametrize("answer", [None, "", "   ", 3, 2.5, ["Ra8"], object(), "x" * 1_000_000,
                                    {"a": 1}, b"Ra8", True, "\x00\x07", "🙂"])
def test_bad_input_never_raises(answer: object) -> None:
    for ex in [move_ex("mate", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"), SQUARES, CHOICE, COUNT,
               LINE, SETUP, GAME]:
        fb = ex.check(answer, lang="en")
        assert isinstance(fb, Feedback) and fb.message
        if answer in (None, "", "   "):
            assert fb.code == "empty"
        assert fb.exercise_id == ex.id


LINE = Exercise(id="12.50", lesson=12, kind="line", fen="6k1/5ppp/8/8/8/8/1Q3PPP/1R4K1 w - - 0 1",
                data={"mate_in": 2})
LINE2 = Exercise(id="12.51", lesson=12, kind="line", data={"mate_in": 2},
                 fen="r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1")


def test_line_key_alone_or_whole_line() -> None:
    assert LINE.solutions() == ["Qb8#"] or LINE.solutions()
    assert LINE2.solutions() == ["Nf6+"]
    assert LINE2.check("Nf6+").correct
    assert LINE2.check("1. Nf6+ gxf6 2. Bxf7#").correct
    assert LINE2.check("1.Nf6+ gxf6 2.Bxf7#", lang="zh-Hans").correct
    fb = LINE2.check("1. Nf6+ gxf6 2. Bh6", lang="en")
    assert fb.code == "wrong" and "Move 2, White" in fb.message
    fb = LINE2.check("Nc7+", lang="en")
    assert fb.code == "wrong" and "Nc7+" in fb.message and "defend" in fb.message
    assert LINE2.check("1. Nf6+ Kd7", lang="en").code == "illegal"


def test_defender_reply_is_stubborn() -> None:
    board = LINE2.board()
    board.push_san("Nf6+")
    assert board.san(LINE2.defender_reply(board)) == "gxf6"


def test_hint_ladder() -> None:
    assert LINE2.hint(0, lang="en")
    assert LINE2.hint(1, lang="en") == "Use the knight on d5."
    assert "Nf6+" in LINE2.hint(2, lang="en")
    assert LINE2.hint(3, lang="en") == LINE2.hint(9, lang="en") == "No more hints."
    assert LINE2.hint(3, lang="zh-Hans") == "没有更多提示了。"


SQUARES = Exercise(id="02.50", lesson=2, kind="squares", fen="8/8/8/8/3R4/8/8/8 w - - 0 1",
                   data={"mode": "moves", "square": "d4"})


def test_squares_any_order() -> None:
    answer = "a4 b4 c4 e4 f4 g4 h4 d1 d2 d3 d5 d6 d7 d8"
    assert SQUARES.check(answer).correct
    assert SQUARES.check(", ".join(reversed(answer.upper().split()))).correct
    assert SQUARES.check(answer.split()).correct
    fb = SQUARES.check("d5 d6", lang="en")
    assert fb.code == "incomplete" and "12" in fb.message
    fb = SQUARES.check("e5", lang="en")
    assert fb.code == "wrong" and "d4" in fb.message and "e5" in fb.message
    assert SQUARES.check("d5 zz").code == "unparseable"


@pytest.mark.parametrize(("mode", "square", "fen", "answer"), [
    ("attacks", "e4", "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", "d5 f5"),
    ("king_safe", "e1", "4k3/8/8/8/8/8/8/4K2r w - - 0 1", "d2 e2 f2"),
])
def test_squares_modes(mode: str, square: str, fen: str, answer: str) -> None:
    ex = Exercise(id="x", lesson=2, kind="squares", fen=fen, data={"mode": mode, "square": square})
    assert ex.check(answer).correct, ex.solutions()


def test_squares_controlled() -> None:
    ex = Exercise(id="x", lesson=2, kind="squares", fen="8/8/8/8/8/8/8/N7 w - - 0 1",
                  data={"mode": "controlled", "color": "white"})
    assert ex.check("b3 c2").correct


def test_square_name_and_find() -> None:
    name = Exercise(id="01.01", lesson=1, kind="square", data={"mode": "name", "square": "e4"})
    assert name.check("e4").correct and name.check("E4").correct and name.check("ｅ４").correct
    fb = name.check("e5", lang="en")
    assert fb.code == "wrong" and "e5" in fb.message and "letter" in fb.message
    find = Exercise(id="01.02", lesson=1, kind="square", data={"mode": "find", "square": "c6"})
    assert find.prompt_text(lang="en") == "Find the square c6."
    assert find.check("c6").correct and find.check("a1").code == "wrong"
    assert find.board_svg().startswith("<svg")


CHOICE = Exercise(id="08.50", lesson=8, kind="choice", fen="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
                  data={"question": "status"})


def test_choice_status_any_spelling() -> None:
    for answer in ["B", "b", "2", "Stalemate", "逼和", "B."]:
        assert CHOICE.check(answer).correct, answer
    fb = CHOICE.check("A", lang="en")
    assert fb.code == "wrong" and "h8" in fb.message
    assert CHOICE.check("Z").code == "unparseable"
    assert CHOICE.solutions() == ["B"]
    assert "A. Checkmate" in CHOICE.prompt_text(lang="en")


@pytest.mark.parametrize(("data", "fen", "key"), [
    ({"question": "legal", "move": "e1g1"}, "4k3/8/8/8/2b5/8/8/4K2R w K - 0 1", "B"),
    ({"question": "legal", "move": "e1g1"}, "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "A"),
    ({"question": "evaluation"}, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "A"),
    ({"question": "draw_rule", "moves": "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"},
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "C"),
    ({"question": "draw_rule"}, "4k3/8/8/8/8/8/8/3BK3 w - - 0 1", "B"),
    ({"question": "fact", "options": [{"en": "Yes", "zh": "是"}, {"en": "No", "zh": "否"}],
      "answer": 1}, "", "B"),
])
def test_choice_questions(data: dict[str, object], fen: str, key: str) -> None:
    ex = Exercise(id="x", lesson=8, kind="choice", fen=fen, data=data,
                  prompt={"en": "Q?", "zh": "问？"} if data["question"] == "fact" else None)
    assert ex.solutions() == [key]
    assert ex.check(key.lower()).correct
    wrong = "A" if key != "A" else "B"
    assert ex.check(wrong).code == "wrong"


COUNT = Exercise(id="05.50", lesson=5, kind="count", fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
                 data={"count": "material"})


def test_count() -> None:
    for answer in ["5", 5, "五", " 5 "]:
        assert COUNT.check(answer).correct
    assert COUNT.check("6", lang="en").message.startswith("6 is too many. Add up each side")
    assert COUNT.check("lots").code == "unparseable"
    legal = Exercise(id="x", lesson=5, kind="count", fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
                     data={"count": "legal_moves"})
    assert legal.solutions() == [str(chess.Board(legal.fen).legal_moves.count())]
    piece = Exercise(id="x", lesson=5, kind="count", fen="8/8/8/8/3N4/8/8/8 w - - 0 1",
                     data={"count": "piece_moves", "square": "d4"})
    assert piece.check("八").correct
    attackers = Exercise(id="x", lesson=5, kind="count", data={"count": "attackers",
                         "square": "d5"}, fen="4k3/8/8/3p4/4P3/2N5/8/4K3 w - - 0 1")
    assert attackers.check("2").correct


def test_count_ratings() -> None:
    elo = Exercise(id="28.50", lesson=28, kind="count", data={
        "count": "elo_change", "rating": 1400, "opponent": 1600, "score": 1, "games_played": 40})
    assert elo.check("11.4").correct and not elo.check("11").correct


GAME = Exercise(id="09.50", lesson=9, kind="notation", data={"mode": "game",
                                                               "moves": "e2e4 e7e5 g1f3"})


def test_notation_game() -> None:
    for answer in ["1. e4 e5 2. Nf3", "e4 e5 Nf3", "1.e4 e5 2.Ng1-f3", "1. e4 e5 2. 马f3"]:
        assert GAME.check(answer).correct, answer
    fb = GAME.check("1. e4 e5 2. Nf6", lang="en")
    assert fb.code == "illegal" and fb.message.startswith("Move 2, White")
    assert GAME.check("1. e4 e5", lang="en").code == "incomplete"
    fb = GAME.check("1. e4 e5 2. Nc3", lang="en")
    assert fb.code == "wrong" and "g1" in fb.message
    assert GAME.check("e2e4", lang="en").code == "wrong"
    assert "knight g1-f3" in GAME.prompt_text(lang="en")


def test_notation_write_and_read() -> None:
    write = Exercise(id="x", lesson=9, kind="notation", fen="r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/"
                     "PPPP1PPP/RNBQKB1R w KQkq - 2 3", data={"mode": "write", "move": "f1b5"})
    assert write.check("Bb5").correct and write.check("Bf1-b5").correct
    assert write.check("f1b5").code == "wrong"
    assert write.solutions() == ["Bb5", "Bf1-b5"]
    assert all(write.check(s).correct for s in write.solutions())
    read = Exercise(id="x", lesson=9, kind="notation", data={"mode": "read",
                                                              "pgn": "1. e4 e5 2. Nf3 Nc6"})
    assert read.check("Nc6").correct and read.check("1. e4 e5 2. Nf3 Nc6").correct
    assert read.solutions() == ["Nc6"]


SETUP = Exercise(id="02.51", lesson=2, kind="setup", data={"target": "start"})


def test_setup() -> None:
    assert SETUP.check(chess.STARTING_FEN).correct
    assert SETUP.check(chess.STARTING_BOARD_FEN).correct
    fb = SETUP.check("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", lang="en")
    assert fb.code == "wrong" and "d8" in fb.message and "queen" in fb.message
    pieces = Exercise(id="x", lesson=2, kind="setup", data={"pieces": "Qd1 ke8 Ke1"})
    assert pieces.check("Ke1, Qd1, ke8").correct and pieces.check("ke8 Qd1 Ke1").correct
    fb = pieces.check("Ke1 ke8", lang="en")
    assert fb.code == "incomplete" and "d1" in fb.message
    assert "king e1" in pieces.prompt_text(lang="en")


def test_read_helpers() -> None:
    assert move_tokens("1... Kg8 2. Qh7#") == ["Kg8", "Qh7#"]
    assert read_number("十") == 10 and read_number("十二") == 12
    assert read_placement("??") is None


def test_playout_against_builtin_defender(monkeypatch: pytest.MonkeyPatch) -> None:
    ex = Exercise(id="11.50", lesson=11, kind="playout", fen="7k/8/5K2/8/8/8/8/6Q1 w - - 0 1",
                  data={"max_moves": 5})
    real = search.defender

    def builtin(**_: object):  # type: ignore[no-untyped-def]
        return real(engine=False)
    monkeypatch.setattr(search, "defender", builtin)
    fb = ex.check("Qg6", lang="en")
    assert fb.code == "wrong" and "Stalemate" in fb.message
    fb = ex.check("Qg7#")
    assert fb.correct
    fb = ex.check("Qg2", lang="en")
    assert fb.code == "incomplete"


def test_bank_field_errors() -> None:
    with pytest.raises(BankError, match="field goal"):
        move_ex("win_everything", "8/8/8/8/8/8/8/8 w - - 0 1")
    with pytest.raises(BankError, match="field kind"):
        Exercise(id="x", lesson=1, kind="puzzle")


def test_display() -> None:
    ex = move_ex("fork", "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1")
    html = ex._repr_mimebundle_()["text/html"]
    assert html == ex._repr_mimebundle_()["text/html"] and html.startswith("<svg")
    assert ex._repr_markdown_().startswith("**99.01** White to move")
    assert repr(ex) == "<chesskit.Exercise 99.01 move/fork>"


def test_notation_wants_the_move_written_properly() -> None:
    write = Exercise(id="x", lesson=9, kind="notation", fen="4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
                     data={"mode": "write", "move": "e4d5"})
    for right in ("exd5", "e4xd5", "exd5!", "exd5+"):
        assert write.check(right).correct, right
    for sloppy in ("xd5", "Pxd5", "ed5"):
        feedback = write.check(sloppy, lang="en")
        assert feedback.code == "wrong" and "exd5" in feedback.message, sloppy


BLACK_KING = Exercise(id="11.90", lesson=11, kind="squares", fen="8/8/8/4k3/8/3Q4/8/4K3 b - - 0 1",
                      data={"mode": "king_safe", "square": "e5"})


def test_squares_name_the_king_by_colour() -> None:
    fb = BLACK_KING.check("d4", lang="en")
    assert fb.message == ("The black king cannot go to d4, because the queen on d3 attacks "
                          "that square.")
    assert BLACK_KING.check("d4", lang="zh-Hans").message.startswith("黑王不能走到d4")
    pinned = Exercise(id="02.90", lesson=2, kind="squares", fen="4k3/4r3/8/8/8/8/8/4R2K b - - 0 1",
                      data={"mode": "moves", "square": "e7"})
    assert "the black king on e8" in pinned.check("d7", lang="en").message


def test_line_names_the_defending_king_by_colour() -> None:
    ex = Exercise(id="11.91", lesson=11, kind="line", fen="3k4/8/1K6/4Q3/8/8/8/8 w - - 0 1",
                  data={"mate_in": 2})
    fb = ex.check("1. Kc6 Ke8", lang="en")
    assert fb.code == "illegal" and "Move 1, Black: The black king cannot go to e8" in fb.message
    assert "黑王不能走到e8" in ex.check("1. Kc6 Ke8", lang="zh-Hans").message
    assert "Your" not in ex.check("Kc6 Kd7", lang="en").message  # d7 is attacked too


@pytest.mark.parametrize(("fen", "square", "word"), [
    ("8/8/8/8/3N4/8/8/8 w - - 0 1", "d4", "jumps"),
    ("8/8/8/8/3K4/8/8/8 w - - 0 1", "d4", "never into check"),
    ("8/8/8/8/8/8/3P4/8 w - - 0 1", "d2", "diagonally"),
    ("8/8/8/8/3B4/8/8/8 w - - 0 1", "d4", "until a piece stops you"),
])
def test_squares_nudge_fits_the_piece(fen: str, square: str, word: str) -> None:
    ex = Exercise(id="02.91", lesson=2, kind="squares", fen=fen,
                  data={"mode": "moves", "square": square})
    assert word in ex.hint(0, lang="en") and ex.hint(0, lang="zh-Hans")


def test_hint_ladder_adds_something_new() -> None:
    assert SQUARES.hint(1, lang="en") == "There are 14 squares to find."
    assert BLACK_KING.hint(1, lang="zh-Hans") == "一共有3个格子。"
    assert "both sides" in COUNT.hint(1, lang="en")
    status = Exercise(id="08.90", lesson=8, kind="choice", fen="4k3/8/8/8/8/8/8/4R1K1 b - - 0 1",
                      data={"question": "status"})
    assert status.hint(1, lang="en") == "The king on e8 is in check."
    options = [{"en": "a", "zh": "a"}, {"en": "b", "zh": "b"}]
    think = {"en": "Think.", "zh": "想一想。"}
    fact = Exercise(id="08.91", lesson=8, kind="choice", hints=(think,),
                    data={"question": "fact", "answer": 0, "options": options})
    assert fact.hint(1, lang="en") == "It is not B."
    for ex in (SQUARES, BLACK_KING, COUNT, status, fact):
        ladder = [ex.hint(level, lang="en") for level in range(3)]
        assert len(set(ladder)) == 3, ladder
        assert ladder[2].startswith("One right answer")


@pytest.mark.parametrize(("fen", "word"), [
    ("8/8/8/4k3/8/8/8/3QK3 w - - 0 1", "knight's move"),
    ("8/8/8/3k4/8/8/8/RR4K1 w - - 0 1", "ladder"),
    ("8/8/8/3k4/8/8/8/4K2R w - - 0 1", "opposition"),
])
def test_playout_last_hint_is_the_technique(fen: str, word: str) -> None:
    ex = Exercise(id="10.90", lesson=10, kind="playout", fen=fen, data={"max_moves": 30},
                  hints=({"en": "Go.", "zh": "走。"},))
    ladder = [ex.hint(level, lang="en") for level in range(3)]
    assert len(set(ladder)) == 3 and word in ladder[2], ladder
    assert ex.hint(2, lang="zh-Hans")


def test_read_answered_with_one_move_is_compared_with_the_last_move() -> None:
    ex = Exercise(id="16.90", lesson=16, kind="notation",
                  data={"mode": "read", "pgn": "1. e4 e5 2. Nf3 Nc6 3. Bc4"})
    fb = ex.check("e4", lang="en")
    assert fb.code == "wrong" and fb.message.startswith("e4 is not the last move of the game.")
    assert "Bc4" not in fb.message  # the feedback does not give the answer away
    assert ex.check("e4", lang="zh-Hans").message.startswith("e4不是这盘棋的最后一步。")
    assert ex.check("Bc4").correct and ex.check("f1c4").correct
    assert ex.check("1. e4 e5 2. Nf3 Nc6 3. Bc4").correct
    assert ex.check("zz").code == "unparseable"


def test_material_count_below_zero_reads_well() -> None:
    ex = Exercise(id="05.90", lesson=5, kind="count", fen="4k3/p7/8/8/8/8/8/3K4 b - - 0 1",
                  data={"count": "material"})
    fb = ex.check("0", lang="en")
    assert fb.message.startswith("0 is too high.") and "minus number" in fb.message
    assert ex.check("0", lang="zh-Hans").message.startswith("0太大了。这里黑方的分数多")
    assert "minus number" in ex.check("-2", lang="en").message
    assert COUNT.check("6", lang="en").message.startswith("6 is too many.")
    assert ex.check("-1").correct and ex.check("负一").correct


def test_solutions_are_best_first() -> None:
    promote = move_ex("promote", "2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    assert promote.solutions()[:2] == ["bxc8=Q+", "bxc8=R+"]
    assert promote.solutions() == ["bxc8=Q+", "bxc8=R+"]  # a weak promotion is refused
    check = move_ex("check", "r5k1/5ppp/8/8/8/8/6Q1/R3R1K1 w - - 0 1")
    board = check.board()
    moves = [board.parse_san(san) for san in check.solutions()]
    mates = [board.is_checkmate() for board in (_after(board, m) for m in moves)]
    gains = [search.material_gain(board, m, depth=1) for m in moves]
    assert all(board.gives_check(m) for m in moves) and len(moves) > 3
    assert mates == sorted(mates, reverse=True) and any(mates) and not all(mates)
    assert gains[mates.count(True):] == sorted(gains[mates.count(True):], reverse=True)


def _after(board: chess.Board, move: chess.Move) -> chess.Board:
    board = board.copy()
    board.push(move)
    return board


def test_item_04_08_teaches_the_queen() -> None:
    ex = catalog.exercise("04.08")
    assert ex.solutions()[0] == "bxc8=Q+" and ex.check("bxc8=Q+").correct
    ladder = [ex.hint(level, lang="en") for level in range(4)]
    assert "queen" in ladder[1] and ladder[2] == "One right answer: bxc8=Q+."
    assert ladder[3] == "No more hints." and len(set(ladder)) == 4


def test_the_hint_ladder_never_repeats_and_ends() -> None:
    for ex in (SQUARES, COUNT, CHOICE, SETUP, GAME, LINE2,
               Exercise(id="x", lesson=1, kind="square", hints=({"en": "Look.", "zh": "看。"},),
                        data={"mode": "find", "square": "c6"})):
        ladder = [ex.hint(level, lang="en") for level in range(6)]
        steps = ladder[:ladder.index("No more hints.")]
        assert 2 <= len(steps) <= 3 and len(set(steps)) == len(steps), ladder
        assert set(ladder[len(steps):]) == {"No more hints."}


@pytest.mark.parametrize("answer", ["3个", "3 个", "三个", "3個", "三步", "3步", "3 步",
                                    "3次", "三次", "3"])
def test_chinese_measure_words(answer: str) -> None:
    ex = Exercise(id="05.91", lesson=5, kind="count", fen="4k3/8/8/8/8/8/8/N3K3 w - - 0 1",
                  data={"count": "piece_moves", "square": "a1"})
    assert ex.solutions() == ["2"] and ex.check(answer).code == "wrong"
    right = answer.replace("3", "2").replace("三", "两")
    assert ex.check(right).correct, right
    zero = Exercise(id="05.92", lesson=5, kind="count", fen="4k3/8/8/8/8/8/8/4K3 w - - 0 1",
                    data={"count": "material"})
    assert zero.check("0步").correct and zero.check("0分").correct


WIN = "4k3/8/8/8/1n1q4/8/8/1R1RK3 w - - 0 1"


@pytest.mark.parametrize(("gain", "wrong", "words"), [
    (3, "Kf1", "you do not win a piece."),
    (2, "Kf1", "you do not win anything."),
    (3, "Rxb4", "you lose material."),
])
def test_win_material_in_words_a_child_reads(gain: int, wrong: str, words: str) -> None:
    ex = move_ex("win_material", WIN, gain=gain)
    message = ex.check(wrong, lang="en").message
    assert message.endswith(words) and "enough material" not in message, message
    assert "(at least" not in ex.check(wrong, lang="zh-Hans").message


def test_win_material_names_the_points_won() -> None:
    ex = move_ex("win_material", "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", gain=3)
    fb = ex.check("Rxd5", lang="en")
    assert fb.code == "wrong" and "you win only 1 point. You can win 3." in fb.message
    assert "你只赢1分" in ex.check("Rxd5", lang="zh-Hans").message


def test_setup_says_what_to_type_and_draws_the_solution() -> None:
    pieces = Exercise(id="x", lesson=2, kind="setup", data={"pieces": "Ke1 Qd1 ke8"})
    prompt = pieces.prompt_text(lang="en")
    assert '"Ke1 Qd1 ke8"' in prompt and "FEN" in prompt and "Submit" in prompt
    assert "提交" in pieces.prompt_text(lang="zh-Hans")
    assert pieces.solutions() == ["Ke1 Qd1 ke8", "4k3/8/8/8/8/8/8/3QK3"]
    assert all(pieces.check(s).correct for s in pieces.solutions())
    assert pieces.solution_marks().placement == "4k3/8/8/8/8/8/8/3QK3"
    assert pieces.board_input() == "placement"
    assert SETUP.solutions()[0] == chess.STARTING_BOARD_FEN and SETUP.check(SETUP.solutions()[1])


@pytest.mark.slow
def test_learners_never_see_a_puzzle_id() -> None:
    puzzles = [ex for ex in catalog.bank() if ex.source.startswith("lichess:")]
    assert puzzles
    for ex in puzzles:
        for lang in ("en", "zh-Hans"):
            assert "lichess" not in ex.prompt_text(lang=lang).lower()
            assert "lichess" not in ex.hint(0, lang=lang).lower()


def test_refutation_shown_walks_into_no_mate() -> None:
    """Issue 12, item 24.24: Qxa7 holds Black to the least material after Qb4 but allows a
    mate in four by checks (Qe1+ ...), so the feedback names Qc8+ instead, and what Black
    wins against it."""
    ex = move_ex("win_material", "6k1/p2Q4/3p2p1/8/3qPn2/5P2/PP3RPP/6K1 b - - 3 37", gain=4)
    feedback = ex.check("Qb4")
    assert feedback.message == "After Qb4, White answers Qc8+, and you do not win a piece."
    board = ex.board()
    board.push_san("Qb4")
    assert search.allows_mate(board, board.parse_san("Qxa7"))
    assert not search.allows_mate(board, board.parse_san("Qc8+"))
    assert ex.check("Ne2+").correct
    fork = move_ex("fork", "1r1k1bnr/1bpp2qp/p4p2/1p4BQ/3p4/1B6/PPPN1PPP/R3R1K1 w - - 6 16")
    assert fork.check("Bxf6+").message == (  # not Qxf6, which allows a mate in one
        "After Bxf6+, the bishop on f6 attacks the king on d8 and the queen on g7, but Black "
        "can answer with Nxf6.")
