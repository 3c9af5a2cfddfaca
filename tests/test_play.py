"""Play to learn (issue 15): star routes, capture-all, protect, check in two, preparing to
castle, mini-games against the built-in opponent, and the attacker of the basic mates."""

from __future__ import annotations

import random

import chess
import pytest

from chesskit.errors import BankError
from chesskit.exercises import Exercise, catalog, opponent
from chesskit.rules import search

PLAY_KINDS = ("route", "capture_all", "protect", "check_in", "prepare", "minigame")


def item(id_: str) -> Exercise:
    return catalog.exercise(id_)


# -- route --------------------------------------------------------------------------------
@pytest.mark.parametrize(("id_", "answer"), [
    ("02.40", "Ra5 Re5 Re8"),
    ("02.40", "a1a5 a5e5 e5e8"),
    ("02.41", ["Rh1", "Rh6", "Rxc6"]),
    ("02.43", "Ba3 Bd6 Be7 Bxf6 Bh8"),
    ("03.42", "Nh3 Nf4 Nh5 Ng7"),
    ("03.43", "Kd2 Kc2 Kxc3 Kb4 Kc3 Kd3 Ke4"),
    ("04.40", "e4 e5 e6 e7 e8=Q Qa4"),
])
def test_a_route_of_par_length_is_right(id_: str, answer: object) -> None:
    feedback = item(id_).check(answer, lang="en")
    assert feedback.correct, feedback.message
    assert "the fewest possible" in feedback.message


def test_every_shortest_route_is_accepted_and_has_par_moves() -> None:
    for ex in catalog.bank(kind="route"):
        for solution in ex.solutions():
            assert len(solution.split()) == ex.data["par"]
            assert ex.check(solution).correct, (ex.id, solution)


def test_a_route_with_passes_from_the_board_is_read() -> None:
    assert item("02.40").check("Ra5 -- Re5 -- Re8", lang="en").correct


def test_a_longer_route_is_counted_against_par() -> None:
    feedback = item("02.40").check("Ra8 Re8 Re5 Ra5", lang="en")
    assert (feedback.correct, feedback.code) == (False, "wrong")
    assert feedback.message == "You used 4 moves; it can be done in 3. Try again with fewer moves."


def test_moves_after_the_last_star_are_refused() -> None:
    feedback = item("02.40").check("Ra5 Re5 Re8 Ra8", lang="en")
    assert feedback.message == "You were already done after 3 moves: stop there."


def test_an_unfinished_route_names_the_stars_left() -> None:
    feedback = item("02.40").check("Ra5", lang="en")
    assert feedback.code == "incomplete"
    assert feedback.message == "2 stars are still waiting: e5 and e8."
    assert item("02.40").check("Ra5 Re5", lang="en").message == \
        "One star is still waiting, on e8."


def test_an_illegal_route_move_is_explained_in_words() -> None:
    feedback = item("02.40").check("Ra5 Rh8", lang="en")
    assert feedback.code == "illegal"
    assert feedback.message == ("Move 2: The rook on a5 cannot go to h8: a rook moves only "
                                "straight along a rank or a file.")
    blocked = item("02.41").check("Rb8", lang="en")
    assert blocked.code == "illegal" and "b2" in blocked.message
    other = item("02.41").check("b4", lang="en")
    assert other.message == ("Move 1: Move only the rook on b1: the other pieces stay where "
                             "they are.")


def test_a_route_in_chinese() -> None:
    feedback = item("02.40").check("Ra8 Re8 Re5 Ra5", lang="zh-Hans")
    assert feedback.message == "你用了4步；其实3步就能做到。再试一次，用更少的步数。"


def test_a_safe_route_refuses_a_square_an_enemy_attacks() -> None:
    ex = Exercise(id="x", lesson=3, kind="route", fen="8/8/8/8/3b4/8/8/R7 w - - 0 1",
                  data={"square": "a1", "stars": "a7 h7", "par": 5, "safe": True})
    feedback = ex.check("Ra7", lang="en")
    assert feedback.message == "Move 1: After Ra7, the bishop on d4 could take the rook on a7."
    assert ex.spec.verify(ex) == []
    assert all(not m.startswith("Ra7") for m in ex.solutions())


def test_the_board_takes_a_route_as_moves_and_passes_for_the_other_side() -> None:
    ex = item("03.41")
    assert ex.board_input() == "moves"
    board = ex.board()
    board.push_san("Nb3")
    reply = ex.defender_reply(board)
    assert reply == chess.Move.null()
    board.push(reply)
    assert board.turn == chess.WHITE and board.is_legal(chess.Move.from_uci("b3d4"))
    assert ex.board_marks().marks == {"yellow": ["b3", "c6", "d4"]}
    assert ex.solution_marks().arrows == ("a1b3", "b3d4", "d4c6")


def test_check_bank_proves_the_par() -> None:
    wrong = Exercise(id="x", lesson=2, kind="route", fen="8/8/8/8/8/8/8/R7 w - - 0 1",
                     data={"square": "a1", "stars": "h8", "par": 1})
    assert wrong.spec.verify(wrong) == [("par", "the fewest moves are 2, not 1")]


def test_the_prompt_and_hints_of_a_route() -> None:
    ex = item("02.40")
    assert ex.prompt_text(lang="en").startswith(
        "Collect the 3 stars (a5 e5 e8) with the rook on a1, in 3 moves.")
    assert ex.hint(0, lang="en") == "Look for a square from where the piece can reach two stars."
    assert ex.hint(1, lang="en") == "It can be done in 3 moves."
    assert ex.hint(2, lang="en") == "One right answer: Ra5 Re5 Re8."


# -- capture_all, prepare -----------------------------------------------------------------
def test_capture_all_in_the_fewest_moves() -> None:
    ex = Exercise(id="x", lesson=5, kind="capture_all", fen="8/8/1r3n2/8/3p4/8/8/3R1B2 w - - 0 1",
                  data={"par": 4})
    assert ex.check("Rxd4 Rd6 Rxb6 Rxf6", lang="en").correct
    assert ex.check("Rxd4 Rxd... ", lang="en").code in ("unparseable", "illegal")
    assert ex.check("Rxd4", lang="en").message == "2 pieces are still left to capture."


def test_capture_without_losing_a_piece() -> None:
    ex = item("05.41")
    assert ex.check("Rxb7 Rb5 Rxd5", lang="en").correct
    feedback = ex.check("Rb5 Rxd5", lang="en")
    assert feedback.code == "wrong"
    assert feedback.message == "Move 2: After Rxd5, the bishop on b7 could take the rook on d5."


def test_find_a_way_to_castle() -> None:
    ex = item("07.40")
    assert ex.solutions() == ["Ne2 O-O"]
    assert ex.check("Ne2 O-O", lang="en").correct and ex.check("g1e2 e1g1").correct
    feedback = ex.check("Nf3 O-O", lang="en")
    assert feedback.code == "illegal" and "f1" in feedback.message
    assert ex.check("Ne2", lang="en").message == "You have not castled yet. Keep going."
    assert item("07.41").check("Nc3 Qd2 O-O-O", lang="en").correct


# -- protect ------------------------------------------------------------------------------
def test_every_move_that_saves_the_piece_is_accepted() -> None:
    ex = item("05.43")
    board = ex.board()
    assert ex.solutions() == ["Nb1", "Nb3", "Nc4", "Ne4", "Nf1", "Nf3"]
    for san in ex.solutions():
        assert ex.check(san).correct
        after = board.copy()
        after.push_san(san)
        assert not any(after.is_capture(m) and search.material_gain(after, m, depth=1) > 0
                       for m in after.legal_moves)
    feedback = ex.check("Kg2", lang="en")
    assert feedback.message == "After Kg2, Black can play Rxd2+ and win the knight on d2."


def test_defending_a_rook_from_a_knight_is_not_enough() -> None:
    ex = item("05.44")
    assert "Kd1" not in ex.solutions() and "Kd2" not in ex.solutions()
    assert ex.check("Kf2", lang="en").code == "wrong"
    assert ex.check("Rb3", lang="en").message == "Right! The rook on b3 is safe now."
    assert ex.board_input() == "move"


# -- check in two -------------------------------------------------------------------------
def test_check_in_two() -> None:
    ex = item("06.41")
    assert ex.solutions() == ["Ne5", "Nf4"]
    assert ex.check("Ne5", lang="en").correct
    assert ex.check("1. Ne5 Rf8 2. Nf7+", lang="en").correct
    assert ex.check("Nb4", lang="en").message == \
        "After Nb4 the other side can stop every check at move 2."
    early = item("06.40").check("Ra8+", lang="en")
    assert early.message == "Ra8+ is check already: give the check at move 2, not sooner."


def test_the_defender_of_check_in_two_is_stubborn_and_always_the_same() -> None:
    ex = item("06.41")
    board = ex.board()
    board.push_san("Ne5")
    replies = {ex.defender_reply(board) for _ in range(3)}
    assert len(replies) == 1
    reply = replies.pop()
    assert reply is not None and board.is_legal(reply)
    board.push(reply)
    board.push(next(m for m in board.legal_moves if board.gives_check(m)))
    assert ex.defender_reply(board) is None  # the check is given at move 2: the line is over


# -- mini-games ---------------------------------------------------------------------------
def test_every_mini_game_is_won_by_its_solution() -> None:
    for ex in catalog.bank(kind="minigame"):
        (solution,) = ex.solutions()
        feedback = ex.check(solution, lang="en")
        assert feedback.correct and feedback.message.startswith("Right! You win!"), ex.id


def test_a_pawn_war_won_with_the_learners_moves_alone() -> None:
    ex = item("04.41")
    feedback = ex.check("a4 a5 a6 a7 a8=Q", lang="en")
    assert feedback.correct
    assert feedback.message == "Right! You win! White made a new queen on a8."


def test_a_pawn_war_lost_or_unfinished() -> None:
    ex = item("04.41")
    lost = ex.check("h... ", lang="en")
    assert lost.code == "unparseable" or lost.code == "illegal"
    slow = ex.check("a3 a4 a5 a6 a7", lang="en")
    assert slow.code == "wrong" and slow.message.endswith("The computer wins this time: try again.")
    assert slow.message.startswith("Black made a new queen on f1.")
    more = ex.check("a4", lang="en")
    assert more.code == "incomplete" and more.message.startswith("Not finished yet: Black played")
    illegal = ex.check("a4 a6", lang="en")
    assert illegal.code == "illegal" and illegal.message.startswith("Move 2:")


def test_the_opponent_is_deterministic_and_plausible() -> None:
    board = chess.Board("8/5ppp/8/8/8/8/PPP5/8 w - - 0 1")
    board.push_san("a4")
    first = [opponent.reply(board, rule="pawn_war") for _ in range(3)]
    assert len(set(first)) == 1
    promote = chess.Board("8/8/8/8/8/8/p7/7P b - - 0 1")
    assert opponent.reply(promote, rule="pawn_war") == chess.Move.from_uci("a2a1q")
    take = chess.Board("8/8/8/8/8/1p6/P7/8 b - - 0 1")
    assert opponent.reply(take, rule="most_captures") == chess.Move.from_uci("b3a2")
    game = opponent.Game("pawn_war", chess.WHITE, chess.Board(
        "8/ppp5/8/8/8/8/PPP5/8 w - - 0 1"), 12)
    assert opponent.winning_line(game) == opponent.winning_line(game)


def test_the_rules_of_the_mini_games() -> None:
    race = opponent.Game("king_race", chess.WHITE, chess.Board("8/8/8/8/8/3k4/8/K7 w"), 8)
    board = chess.Board("K7/8/8/8/8/8/8/3k4 b - - 0 1")
    assert opponent.winner(race, board, moves=5) == chess.WHITE
    stuck = opponent.Game("pawn_war", chess.WHITE, chess.Board("8/8/8/8/p7/P7/8/8 w"), 8)
    assert opponent.winner(stuck, stuck.start, moves=0) == chess.BLACK
    with pytest.raises(BankError, match="a pawn war has only pawns"):
        Exercise(id="x", lesson=3, kind="minigame", fen="8/8/8/8/8/8/8/R7 w - - 0 1",
                 data={"rule": "pawn_war", "max_moves": 3})


def test_the_board_plays_the_opponents_replies() -> None:
    ex = item("04.42")
    assert ex.board_input() == "game"
    board = ex.board()
    board.push_san("a3")
    reply = ex.defender_reply(board)
    assert reply is not None and board.is_legal(reply)
    assert ex.prompt_text(lang="zh-Hans").startswith("兵的大战")


# -- check-bank ---------------------------------------------------------------------------
def test_check_bank_passes_on_the_play_items() -> None:
    ids = [ex.id for ex in catalog.bank() if ex.kind in PLAY_KINDS]
    assert len(ids) >= 20
    problems = catalog.check_bank()
    assert [p for p in problems if p.item in ids] == []


# -- the attacker -------------------------------------------------------------------------
def _mates(board: chess.Board, limit: int) -> tuple[bool, int]:
    game = board.copy()
    moves = opponent.demonstration(board, max_moves=limit)
    for move in moves:
        game.push(move)
    assert not game.is_stalemate()
    return game.is_checkmate(), (len(moves) + 1) // 2


def test_the_attacker_mates_every_playout_of_the_bank() -> None:
    for ex in catalog.bank(kind="playout"):
        mated, moves = _mates(ex.board(), int(ex.data["max_moves"]))
        assert mated and moves <= ex.data["max_moves"], ex.id
        assert ex.check(ex.solutions()[0]).correct, ex.id


def _random_ending(rng: random.Random, pieces: list[chess.PieceType]) -> chess.Board:
    while True:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, len(pieces) + 2)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for piece, square in zip(pieces, squares[2:], strict=True):
            board.set_piece_at(square, chess.Piece(piece, chess.WHITE))
        if board.is_valid() and not board.is_game_over() and opponent.ending(board):
            return board


ENDINGS = [("KQ", [chess.QUEEN], 30), ("KRR", [chess.ROOK, chess.ROOK], 30),
           ("KR", [chess.ROOK], 50)]


@pytest.mark.parametrize(("name", "pieces", "limit"), ENDINGS)
def test_the_attacker_mates_random_endings(name: str, pieces: list[chess.PieceType],
                                           limit: int) -> None:
    rng = random.Random(15)
    for _ in range(12):
        board = _random_ending(rng, pieces)
        assert _mates(board, limit)[0], board.fen()


@pytest.mark.slow
@pytest.mark.parametrize(("name", "pieces", "limit"), ENDINGS)
def test_the_attacker_mates_200_random_endings(name: str, pieces: list[chess.PieceType],
                                               limit: int) -> None:
    rng = random.Random(7)
    for _ in range(200):
        board = _random_ending(rng, pieces)
        assert _mates(board, limit)[0], board.fen()


def test_the_attacker_never_stalemates_and_is_deterministic() -> None:
    board = chess.Board("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1")
    move = opponent.attacker_move(board)
    assert move is not None
    board.push(move)
    assert not board.is_stalemate()
    again = chess.Board("8/8/8/3k4/8/8/8/RR4K1 w - - 0 1")
    assert opponent.demonstration(again, max_moves=30) == \
        opponent.demonstration(again, max_moves=30)
    with pytest.raises(opponent.OpponentError):
        opponent.demonstration(chess.Board(), max_moves=3)


# -- capture_all with scripted replies -------------------------------------------------------
def test_capture_all_against_scripted_replies() -> None:
    ex = item("05.40")
    assert ex.data["replies"] == "d4d3 f6e4"
    assert ex.solutions() == ["Rb1 Rxb6 Bxd3 Bxe4", "Rb1 Bxd3 Rxb6 Bxe4", "Rb1 Bxd3 Bxe4 Rxb6"]
    assert ex.check("Rb1 Rxb6 Bxd3 Bxe4", lang="en").correct
    assert ex.prompt_text(lang="en").startswith(
        "White to move: capture all 3 Black pieces in 4 moves. After each of your moves, Black "
        "moves once, in this order: d4-d3 and f6-e4.")
    assert ex.prompt_text(lang="zh-Hans").startswith(
        "白方走：用4步吃掉黑方全部3个棋子。你每走一步，黑方也走一步，依次是：d4-d3和f6-e4。")
    stood_still = ex.check("Rxd4 Rd6 Rxb6 Rxf6", lang="en")  # the knight has gone to e4
    assert stood_still.code == "incomplete"
    assert stood_still.message == "One piece is still left to capture."
    board = ex.board()
    board.push_san("Rb1")
    assert ex.defender_reply(board) == chess.Move.from_uci("d4d3")
    board.push(chess.Move.from_uci("d4d3"))
    board.push_san("Rxb6")
    assert ex.defender_reply(board) == chess.Move.from_uci("f6e4")


def test_a_scripted_reply_that_cannot_be_played_is_a_pass() -> None:
    ex = item("05.40")
    board = ex.board()
    board.push_san("Rxd4")  # the pawn that was to run is taken
    assert ex.defender_reply(board) == chess.Move.null()
    board.push(chess.Move.null())
    board.push_san("Rd6")
    assert ex.defender_reply(board) == chess.Move.from_uci("f6e4")
    board.push(chess.Move.from_uci("f6e4"))
    board.push_san("Rxb6")
    assert ex.defender_reply(board) == chess.Move.null()  # the script is over


def test_check_bank_refuses_bad_scripts() -> None:
    fen = "8/p6p/8/8/8/8/8/4R3 w - - 0 1"
    with pytest.raises(BankError, match="'a7-a5' is not a move"):
        Exercise(id="x", lesson=5, kind="capture_all", fen=fen,
                 data={"par": 3, "replies": "a7-a5"})
    nowhere = Exercise(id="x", lesson=5, kind="capture_all", fen=fen,
                       data={"par": 3, "replies": "a7a5 b7b5"})
    assert nowhere.spec.verify(nowhere) == [
        ("replies", "b7b5 starts where no black piece stands or goes")]
    blocked = Exercise(id="x", lesson=5, kind="capture_all",
                       fen="8/p7/8/8/8/8/8/4R3 w - - 0 1", data={"par": 2, "replies": "a7a4"})
    assert blocked.spec.verify(blocked) == [
        ("replies", "a7a4 cannot be played after the shortest solution's move 1")]
    long = Exercise(id="x", lesson=5, kind="capture_all", fen=fen,
                    data={"par": 3, "replies": "a7a6 a6a5 h7h6 h6h5"})
    assert long.spec.verify(long) == [
        ("replies", "only 3 replies can be played, one after each move of the learner")]


# -- show me: the attacker's game, a sentence per move -------------------------------------
def test_every_step_of_a_shown_mate_has_a_reason() -> None:
    ex = item("10.20")
    board = ex.board()
    reasons = []
    for move in opponent.demonstration(board.copy(), max_moves=int(ex.data["max_moves"])):
        reasons.append(opponent.step_reason(board, move, attacker=chess.WHITE, lang="en"))
        board.push(move)
    assert board.is_checkmate() and reasons[-1] == ""
    assert all(reasons[:-1])
    assert reasons[0] == "The box gets smaller: the black king has 21 squares left."
    assert reasons[1] == "The black king goes to d4, as far from the edge as it can."
    assert opponent.step_reason(chess.Board("8/8/8/8/8/2k5/1R6/4K3 w - - 0 1"),
                                chess.Move.from_uci("b2h2"), attacker=chess.WHITE,
                                lang="zh-Hans") == "车离开对方的王，不让王吃掉它。"
