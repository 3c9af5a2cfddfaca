"""Reading moves the way learners write them (chesskit.rules.notation)."""

from __future__ import annotations

import re
import time

import chess
import pytest
from _positions import random_board
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chesskit.errors import MoveError
from chesskit.rules.notation import MAX_TEXT, intents, normalize_move_text, read_move

START = chess.STARTING_FEN
CASTLE = "r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R3K2R w KQkq - 0 1"
PROMOTE = "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1"
ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
MATE_IN_ONE = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
EN_PASSANT = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
BISHOP_OR_PAWN = "4k3/8/8/8/8/2p5/1P6/4B2K w - - 0 1"
FIGURINES = {chess.WHITE: dict(zip("KQRBN", "♔♕♖♗♘", strict=True)),
             chess.BLACK: dict(zip("KQRBN", "♚♛♜♝♞", strict=True))}
CHINESE = tuple(dict(zip("KQRBN", names, strict=True)) for names in ("王后车象马", "王後車象馬"))


@pytest.mark.parametrize(("fen", "text", "uci"), [
    (START, "Nf3", "g1f3"), (START, "Ng1-f3", "g1f3"), (START, "g1f3", "g1f3"),
    (START, "nf3", "g1f3"), (START, "♘f3", "g1f3"), (START, "马f3", "g1f3"),
    (START, "馬f3", "g1f3"), (START, "Ｎｆ３", "g1f3"), (START, "ｅ４", "e2e4"),
    (START, "e2-e4", "e2e4"), (START, "1. e4", "e2e4"), (START, "e4!", "e2e4"),
    (START, "e4?!", "e2e4"), (START, "NF3", "g1f3"), (START, "兵e4", "e2e4"),
    (START, " e4\n", "e2e4"), (START, "N f3", "g1f3"), (START, "ｅ４\u3000", "e2e4"),
    (MATE_IN_ONE, "Qxf7#", "h5f7"), (MATE_IN_ONE, "Qh5xf7#", "h5f7"),
    (MATE_IN_ONE, "qxf7", "h5f7"), (MATE_IN_ONE, "后xf7#", "h5f7"), (MATE_IN_ONE, "後xf7", "h5f7"),
    (MATE_IN_ONE, "皇后xf7", "h5f7"), (MATE_IN_ONE, "Qf7", "h5f7"), (MATE_IN_ONE, "后吃f7", "h5f7"),
    (CASTLE, "O-O", "e1g1"), (CASTLE, "0-0", "e1g1"), (CASTLE, "o-o", "e1g1"),
    (CASTLE, "O-O-O", "e1c1"), (CASTLE, "0-0-0", "e1c1"), (CASTLE, "短易位", "e1g1"),
    (CASTLE, "长易位", "e1c1"), (CASTLE, "長易位", "e1c1"), (CASTLE, "e1g1", "e1g1"),
    (CASTLE, "e1h1", "e1g1"), (CASTLE, "Ｏ－Ｏ", "e1g1"), (CASTLE, "O-O+", "e1g1"),
    (PROMOTE, "a8=Q", "a7a8q"), (PROMOTE, "a8Q", "a7a8q"), (PROMOTE, "a8=q", "a7a8q"),
    (PROMOTE, "a8(Q)", "a7a8q"), (PROMOTE, "a7a8n", "a7a8n"), (PROMOTE, "axb8=N+", "a7b8n"),
    (PROMOTE, "a8=后", "a7a8q"),
    (EN_PASSANT, "exd6", "e5d6"), (EN_PASSANT, "exd6 e.p.", "e5d6"),
    (EN_PASSANT, "exd6ep", "e5d6"), (EN_PASSANT, "ed6", "e5d6"),
    (EN_PASSANT, "exd6 (e.p.)", "e5d6"),
    (ITALIAN, "n f6", "g8f6"), (ITALIAN, "Nf6.", "g8f6"), (ITALIAN, "NF6", "g8f6"),
    (ITALIAN, "Nf6。", "g8f6"),
    (ITALIAN, "Nf6", "g8f6"), (ITALIAN, "♞f6", "g8f6"), (ITALIAN, "Bc5", "f8c5"),
    (BISHOP_OR_PAWN, "bxc3", "b2c3"), (BISHOP_OR_PAWN, "Bxc3", "e1c3"),
])
def test_reads_every_spelling(fen: str, text: str, uci: str) -> None:
    assert read_move(fen, text) == chess.Move.from_uci(uci)


def test_accepts_a_board_and_leaves_it_alone() -> None:
    board = chess.Board()
    assert read_move(board, "e4").uci() == "e2e4"
    assert board.fen() == START


def test_lowercase_b_is_a_bishop_when_no_pawn_fits() -> None:
    assert read_move("4k3/8/8/8/8/2p5/8/4B2K w - - 0 1", "bxc3").uci() == "e1c3"


@pytest.mark.parametrize(("text", "plain"), [
    ("♘ｆ３+!", "Nf3"), ("0-0-0+", "O-O-O"), ("o-o", "O-O"), ("e8q", "e8=Q"), ("e8(q)", "e8=Q"),
    ("後xf7#", "Qxf7"), ("exd6 e.p.", "exd6"), ("12...Nf6", "Nf6"), ("E2E4", "e2e4"),
    ("马吃f7", "Nxf7"), ("短易位", "O-O"), ("Qh5×f7", "Qh5xf7"), ("bxc3", "bxc3"),
    ("NXC5", "Nxc5"), ("Nf3.", "Nf3"), ("马f3。", "Nf3"), ("dxe6 (e.p.)", "dxe6"),
])
def test_normalize(text: str, plain: str) -> None:
    assert normalize_move_text(text) == plain


@pytest.mark.parametrize(("fen", "text", "code"), [
    (START, "hello", "unparseable"), (START, "", "unparseable"), (START, "Nf6", "wrong_side"),
    (START, "Bh6", "blocked"), (PROMOTE, "a8", "promotion_required"),
    ("4k3/8/8/8/8/8/8/1N3N1K w - - 0 1", "Nd2", "ambiguous"),
])
def test_failures_raise_move_error_with_the_explain_code(fen: str, text: str, code: str) -> None:
    with pytest.raises(MoveError) as caught:
        read_move(fen, text)
    assert caught.value.code == code
    assert isinstance(caught.value, ValueError)
    assert str(caught.value)


def test_a_megabyte_is_refused_at_once() -> None:
    text = "e4" * 500_000
    begin = time.perf_counter()
    with pytest.raises(MoveError):
        read_move(START, text)
    assert normalize_move_text(text) == text
    assert time.perf_counter() - begin < 0.05
    assert len(text) > MAX_TEXT




def _fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def _pawn_reading_exists(board: chess.Board, move: chess.Move) -> bool:
    """Whether ``b...`` could also be a b-pawn going to the same square (then it is one)."""
    return any(board.piece_type_at(m.from_square) == chess.PAWN
               and chess.square_file(m.from_square) == 1 and m.to_square == move.to_square
               for m in board.legal_moves)


def spellings(board: chess.Board, move: chess.Move) -> set[str]:
    """About ten ways a learner writes ``move``."""
    san = board.san(move)
    out = {san, re.sub(r"[x+#]", "", san), board.lan(move), move.uci(), san + "!?",
           _fullwidth(san), "1. " + san}
    letter = san[0]
    if letter in "KQRBN":
        out.add(FIGURINES[board.turn][letter] + san[1:])
        out |= {names[letter] + san[1:] for names in CHINESE}
        if letter != "B" or not _pawn_reading_exists(board, move):
            out.add(letter.lower() + san[1:])
    if board.is_castling(move):
        out |= {san.replace("O", "0"), san.lower(), "短易位" if san == "O-O" else "长易位"}
    if move.promotion:
        out |= {san.replace("=", ""), re.sub("=(.)", lambda m: "=" + m[1].lower(), san),
                re.sub("=(.)", r"(\1)", san)}
    if board.is_en_passant(move):
        out |= {san + " e.p.", san + "ep"}
    return out


@pytest.mark.slow
@settings(max_examples=40, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 80))
def test_every_legal_move_reads_back_in_every_spelling(seed: int, plies: int) -> None:
    board = random_board(seed, plies)
    for move in board.legal_moves:
        for text in spellings(board, move):
            assert read_move(board, text) == move, (board.fen(), text)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(text=st.text(max_size=30))
def test_random_text_raises_only_move_error(text: str) -> None:
    try:
        move = read_move(START, text)
    except MoveError as error:
        assert error.code
    else:
        assert move in chess.Board().legal_moves


@settings(max_examples=200, derandomize=True, deadline=None)
@given(text=st.text(alphabet="abcdefghNBRQKOo0x-=+#12345678 ", max_size=12))
def test_move_like_text_never_crashes(text: str) -> None:
    try:
        readings = intents(text)
    except MoveError:
        return
    assert readings


RANK_DISAMBIGUATION = "8/7P/K7/1p6/4B3/R3n2k/4B3/N7 w - - 0 1"  # item 06.61: B4f3, B2d3


@pytest.mark.parametrize(("text", "uci"), [
    ("B4f3", "e4f3"), ("B4d3", "e4d3"), ("B2f3", "e2f3"), ("B2d3", "e2d3"), ("B2-d3", "e2d3"),
    ("B4xf3", "e4f3"), ("Be4f3", "e4f3"), ("e4f3", "e4f3"),
])
def test_rank_disambiguated_san_is_read(text: str, uci: str) -> None:
    assert read_move(RANK_DISAMBIGUATION, text).uci() == uci


def test_capital_coordinates_stay_coordinates() -> None:
    assert normalize_move_text("B1C3") == "b1c3"
    assert read_move(START, "B1C3").uci() == "b1c3"
    assert [i.from_square for i in intents("B1c3")] == [None, chess.B1]
    # A bishop from the 1st rank that cannot go: B1c3 falls back to the knight on b1.
    assert read_move(START, "B1c3").uci() == "b1c3"


@pytest.mark.parametrize("text", ["bb3", "bb3+", "♗b3"])
def test_small_b_where_pawn_and_bishop_can_both_go(text: str) -> None:
    board = "4k3/8/8/8/8/8/1P6/3BK3 w - - 0 1"
    if text.startswith("♗"):
        assert read_move(board, text).uci() == "d1b3"
        return
    with pytest.raises(MoveError) as info:
        read_move(board, text)
    assert info.value.code == "ambiguous"
    assert read_move(board, "b3").uci() == "b2b3"  # SAN for the pawn is never ambiguous
    assert read_move(board, "Bb3").uci() == "d1b3"


def _boards_with_twins() -> list[chess.Board]:
    """Positions where SAN needs a file, a rank or both to say which piece moves."""
    fens = [
        RANK_DISAMBIGUATION,
        "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1",          # R5a3 / R1a3
        "4k3/8/8/1N6/8/1N6/8/4K3 w - - 0 1",        # N5d4 / N3d4
        "4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1",        # Qa3b2 needs file and rank
        "k7/8/8/8/8/8/8/KQ1Q1Q2 w - - 0 1",
        "r3k2r/1q6/8/8/8/8/1Q6/R3K2R w KQkq - 0 1",
        "4k3/8/8/2n1n3/8/2n1n3/8/4K3 b - - 0 1",    # black knights on c and e files
    ]
    boards = [chess.Board(fen) for fen in fens]
    boards += [random_board(seed, plies) for seed in range(60) for plies in (20, 50, 90)]
    return boards


@pytest.mark.slow
def test_round_trip_of_every_legal_move_in_san_long_algebraic_and_uci() -> None:
    count = 0
    for board in _boards_with_twins():
        for move in board.legal_moves:
            for text in (board.san(move), board.lan(move), move.uci()):
                assert read_move(board, text) == move, (board.fen(), text)
                count += 1
    assert count > 5000
