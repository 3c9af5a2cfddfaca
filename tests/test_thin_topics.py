"""The thin sub-topics of issue 24 keep at least six exercises each, and every chess claim of
their items holds (python-chess is the judge): the named-opening answers continue the lesson's
line of the opening the prompt names, the mutual attacks, trapped pieces, relative pins, chases,
mutual protections, breakthroughs and seventh-rank mates are what the prompts say."""

from __future__ import annotations

import re

import chess
import pytest

import chesskit as ck
from chesskit.exercises import Exercise

MINIMUM = 6

TOPICS = ("mutual_attack", "trapped_piece", "repeated_attack", "relative_pin",
          "mutual_protection", "making_passed_pawn", "draw_agreement", "touch_move",
          "seventh_rank_mate", "titles")
"""The sub-topics counted by their topic tag."""

OPENINGS = {
    "Italian Game": r"Italian", "Queen's Pawn openings": r"Queen's (Pawn|Gambit)",
    "Scotch Game": r"Scotch", "Spanish Game": r"Spanish", "Petrov": r"Petrov",
    "Sicilian Defence": r"Sicilian", "Hungarian Defence": r"Hungarian",
    "Dutch Defence": r"Dutch", "English Opening": r"English", "Scandinavian": r"Scandinavian",
    "French Defence": r"French",
}
"""The openings the sources name -> how an English prompt names it."""

LINES = {
    "Italian Game": ["e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d4"],
    "Queen's Pawn openings": ["d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7", "d4 d5 c4 dxc4 e3",
                              "d4 d5 c4 dxc4 e4"],
    "Scotch Game": ["e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Nf6 Nxc6", "e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Bc5"],
    "Spanish Game": ["e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O"],
    "Petrov": ["e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4", "e4 e5 Nf3 Nf6 d4"],
    "Sicilian Defence": ["e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3", "e4 c5 Nf3 Nc6", "e4 c5 Nf3 e6",
                         "e4 c5 Nc3"],
    "Hungarian Defence": ["e4 e5 Nf3 Nc6 Bc4 Be7 d4 d6 d5 Nb8", "e4 e5 Nf3 Nc6 Bc4 Be7 O-O Nf6"],
    "Dutch Defence": ["d4 f5 g3 Nf6 Bg2 e6 Nf3", "d4 f5 g3 Nf6 Bg2 g6", "d4 f5 c4 Nf6 Nc3"],
    "English Opening": ["c4 e5 Nc3 Nf6 g3", "c4 e5 Nc3 Nc6 g3 g6 Bg2", "c4 c5 Nc3 Nc6"],
    "Scandinavian": ["e4 d5 exd5 Qxd5 Nc3 Qa5", "e4 d5 exd5 Nf6"],
    "French Defence": ["e4 e6 d4 d5 e5 c5 c3 Nc6 Nf3 Qb6", "e4 e6 d4 d5 e5 c5 c3 Qb6"],
}
"""The lines the lessons teach (16-18; 34 the French chain), in SAN from the start."""


def named_opening_items() -> list[Exercise]:
    return [ex for ex in ck.bank()
            if (16 <= ex.lesson <= 18 or ex.lesson == 34) and ex.data.get("named_opening")]


def opening_of(ex: Exercise) -> str:
    prompt = ex.prompt["en"] if isinstance(ex.prompt, dict) else str(ex.prompt)
    found = {name: match.start() for name, pattern in OPENINGS.items()
             if (match := re.search(pattern, prompt))}
    assert found, ex.id
    return min(found, key=found.__getitem__)  # the opening named first


def counts() -> dict[str, int]:
    """Exercises per sub-topic: topic tags, and the named-opening items per opening."""
    found = {topic: len(list(ck.bank(topic=topic))) for topic in TOPICS}
    for name in OPENINGS:
        found[name] = sum(opening_of(ex) == name for ex in named_opening_items())
    return found


def test_every_thin_sub_topic_has_six_exercises() -> None:
    assert {k: n for k, n in counts().items() if n < MINIMUM} == {}


def _line_positions(line: str) -> set[str]:
    board, seen = chess.Board(), {chess.Board().epd()}
    for san in line.split():
        board.push_san(san)
        seen.add(board.epd())
    return seen


@pytest.mark.parametrize("ex", named_opening_items(), ids=lambda ex: ex.id)
def test_a_named_opening_answer_continues_a_line_of_that_opening(ex: Exercise) -> None:
    positions = set().union(*map(_line_positions, LINES[opening_of(ex)]))
    board = ex.board()
    assert board.epd() in positions
    for san in ex.data["answers"]:
        after = board.copy()
        after.push_san(san)
        assert after.epd() in positions, (ex.id, san)


def _solutions(ex: Exercise) -> list[chess.Move]:
    board = ex.board()
    return [m for m in board.legal_moves if ex.check(board.san(m)).correct]


def test_mutual_attacks_take_a_piece_that_attacks_the_taker() -> None:
    for ex in ck.bank(topic="mutual_attack"):
        if ex.kind != "move":
            continue
        board = ex.board()
        mutual = [m for m in board.legal_moves if board.is_capture(m)
                  and m.from_square in board.attacks(m.to_square)]
        assert any(ex.check(board.san(m)).correct for m in mutual), ex.id


TRAPS = {"22.35": "b3", "22.36": "g3", "22.37": "g6"}
"""The composed trapped-piece items: the move that takes the bishop's last square."""


def test_a_trapped_piece_has_no_safe_square_after_the_trapping_move() -> None:
    assert set(TRAPS) <= {ex.id for ex in ck.bank(topic="trapped_piece")}
    for item, san in TRAPS.items():
        ex = ck.exercise(item)
        assert ex.check(san).correct, item
        after = ex.board()
        after.push_san(san)
        trapped = [sq for sq in after.pieces(chess.BISHOP, after.turn)
                   if all(after.is_attacked_by(not after.turn, m.to_square)
                          for m in after.legal_moves if m.from_square == sq)]
        assert trapped, item


VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9,
          chess.KING: 100}


def _first_piece_beyond(board: chess.Board, start: int, through: int) -> int | None:
    """The first occupied square after ``through`` on the line from ``start``, or None."""
    step_file = (chess.square_file(through) > chess.square_file(start)) - (
        chess.square_file(through) < chess.square_file(start))
    step_rank = (chess.square_rank(through) > chess.square_rank(start)) - (
        chess.square_rank(through) < chess.square_rank(start))
    f, r = chess.square_file(through) + step_file, chess.square_rank(through) + step_rank
    while 0 <= f < 8 and 0 <= r < 8:
        if board.piece_at(chess.square(f, r)):
            return chess.square(f, r)
        f, r = f + step_file, r + step_rank
    return None


def test_a_relative_pin_pins_a_piece_to_a_bigger_piece_that_is_not_the_king() -> None:
    for ex in ck.bank(topic="relative_pin"):
        if ex.kind != "move":
            continue
        board = ex.board()
        for move in _solutions(ex):
            after = board.copy()
            after.push(move)
            pins = []
            for sq in after.attacks(move.to_square) & after.occupied_co[after.turn]:
                behind = _first_piece_beyond(after, move.to_square, sq)
                front, back = after.piece_at(sq), behind is not None and after.piece_at(behind)
                if front and back and back.color == after.turn and back.piece_type != chess.KING:
                    pins.append(VALUES[back.piece_type] > VALUES[front.piece_type])
            assert any(pins), (ex.id, board.san(move))


def test_each_chasing_move_attacks_the_chased_piece() -> None:
    for ex in ck.bank(topic="repeated_attack"):
        if "moves" not in ex.data:
            continue
        board = ex.board()
        for uci in str(ex.data["moves"]).split():
            move = chess.Move.from_uci(uci)
            chaser = board.turn
            board.push(move)
            if chaser == chess.WHITE:
                chased = [sq for sq in board.pieces(chess.ROOK, chess.BLACK)
                          | board.pieces(chess.QUEEN, chess.BLACK)]
                assert any(move.to_square in board.attackers(chess.WHITE, sq) for sq in chased)


def test_mutual_protection_counts_are_about_two_pieces_that_protect_each_other() -> None:
    for ex in ck.bank(topic="mutual_protection"):
        if ex.kind != "count" or ex.data.get("count") != "attackers":
            continue
        board = ex.board()
        square = chess.parse_square(str(ex.data["square"]))
        color = board.color_at(square)
        assert color is not None
        assert any(square in board.attacks(friend)
                   for friend in board.attackers(color, square)), ex.id


def _queens(board: chess.Board, plies: int, mover: chess.Color,
            memo: dict[tuple[str, bool, int], bool]) -> bool:
    """``mover`` makes a queen that cannot be taken at once within ``plies``, with pawn moves
    only, against any defence (the check of lesson 27's breakthrough diagram)."""
    key = (board.board_fen(), board.turn, plies)
    if key not in memo:
        if board.turn == mover:
            result = False
            for move in [m for m in board.legal_moves if board.piece_type_at(m.from_square)
                         == chess.PAWN]:
                board.push(move)
                if move.promotion == chess.QUEEN:
                    result = not board.is_attacked_by(not mover, move.to_square)
                elif plies > 1:
                    result = _queens(board, plies - 1, mover, memo)
                board.pop()
                if result:
                    break
        else:
            result = plies > 1 and board.legal_moves.count() > 0
            for move in list(board.legal_moves) if result else []:
                board.push(move)
                result = _queens(board, plies - 1, mover, memo)
                board.pop()
                if not result:
                    break
        memo[key] = result
    return memo[key]


def test_the_breakthrough_makes_a_queen_against_every_defence() -> None:
    for ex in ck.bank(topic="making_passed_pawn"):
        board = ex.board()
        for san in ex.data["answers"]:
            after = board.copy()
            after.push_san(san)
            assert _queens(after, 8, board.turn, {}), (ex.id, san)


def test_a_seventh_rank_mate_has_a_rook_on_the_seventh_rank() -> None:
    for ex in ck.bank(topic="seventh_rank_mate"):
        board = ex.board()
        attacker = board.turn if ex.kind != "choice" else not board.turn
        seventh = 6 if attacker == chess.WHITE else 1
        assert any(chess.square_rank(sq) == seventh
                   for sq in board.pieces(chess.ROOK, attacker)), ex.id
        king = board.king(not attacker)
        assert king is not None and chess.square_rank(king) == (7 if seventh == 6 else 0)
