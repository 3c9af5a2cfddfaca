"""Explaining why a move is wrong (chesskit.rules.explain)."""

from __future__ import annotations

import dataclasses
import re
import time
import tomllib
from importlib import resources

import chess
import pytest
from _positions import random_board
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chesskit.rules.explain import CODES, Verdict, explain_move

START = "start"
CASTLE = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
PROMOTE = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
KNIGHTS = "4k3/8/8/8/8/8/8/1N3N1K w - - 0 1"
ROOK_CHECK = "4r1k1/8/8/8/8/8/3B4/4K3 w - - 0 1"
PIN = "rnbqk2r/pppp1ppp/5n2/4p3/1b1P4/2N5/PPP1PPPP/R1BQKBNR w KQkq - 2 4"
RELATIVE_PIN = "rn1qkbnr/ppp1pppp/8/3p4/6b1/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 3"
MATED = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"
PASSANT = "4k3/8/8/3pP3/8/8/8/4K3 w - {ep} 0 1"

# code: (a case where it is the answer, a near case where it is not)
CASES: dict[str, tuple[tuple[str, object], tuple[str, object]]] = {
    "ok": ((START, "Nf3"), (START, "Nf6")),
    "unparseable": ((START, "hello"), (START, "e4")),
    "ambiguous": ((KNIGHTS, "Nd2"), (KNIGHTS, "Nbd2")),
    "game_over": ((MATED, "Kh7"), ("7k/8/8/8/8/8/6Q1/6K1 b - - 0 1", "Kh7")),
    "no_piece": ((START, "e3e4"), (START, "e2e4")),
    "wrong_side": ((START, "e7e5"),
                   ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "e7e5")),
    "own_piece": ((START, "Nd2"),
                  ("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 1", "Nd2")),
    "bad_geometry": ((START, "Nd4"), (START, "Nc3")),
    "blocked": ((START, "Bh6"),
                ("rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2", "Bh6")),
    "king_into_check": (("3r2k1/8/8/8/8/8/8/4K3 w - - 0 1", "Kd2"),
                        ("3r2k1/8/8/8/8/8/8/4K3 w - - 0 1", "Kf2")),
    "pinned": ((PIN, "Nd5"), (RELATIVE_PIN, "Ne5")),
    "in_check": ((ROOK_CHECK, "Bc3"), (ROOK_CHECK, "Be3")),
    "castle_rights_lost": (("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", "O-O-O"),
                           ("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", "O-O")),
    "castle_blocked": ((START, "O-O"), (CASTLE, "O-O")),
    "castle_in_check": (("r3k2r/8/8/8/8/4r3/8/R3K2R w KQkq - 0 1", "O-O"),
                        ("r3k2r/8/8/8/8/3r4/8/R3K2R w KQkq - 0 1", "O-O")),
    "castle_through_check": (("r3k2r/8/8/8/8/5r2/8/R3K2R w KQkq - 0 1", "O-O"),
                             ("r3k2r/8/8/8/8/5r2/8/R3K2R w KQkq - 0 1", "O-O-O")),
    "castle_into_check": (("r3k2r/8/8/8/8/6r1/8/R3K2R w KQkq - 0 1", "O-O"),
                          # b1 may be attacked in long castling
                          ("r3k2r/8/8/8/8/1r6/8/R3K2R w KQkq - 0 1", "O-O-O")),
    "en_passant_expired": ((PASSANT.format(ep="-"), "exd6"), (PASSANT.format(ep="d6"), "exd6")),
    "promotion_required": ((PROMOTE, "a8"), (PROMOTE, "a8=Q")),
    "bad_promotion": ((PROMOTE, "a8=K"), (PROMOTE, "a8=N")),
    "bad_position": (("8/8/8/8/8/8/8/KK5k w - - 0 1", "e4"), (START, "e4")),
}


def test_codes_are_exactly_the_contract() -> None:
    assert tuple(CASES) == CODES


@pytest.mark.parametrize("code", CODES)
def test_each_code_is_the_answer_here_and_not_there(code: str) -> None:
    (fen, text), (near_fen, near_text) = CASES[code]
    verdict = explain_move(fen, text, lang="en")
    assert verdict.code == code, verdict.message
    assert verdict.legal == (code == "ok")
    assert explain_move(near_fen, near_text, lang="en").code != code


@pytest.mark.parametrize("code", CODES)
def test_every_code_has_a_sentence_in_both_languages(code: str) -> None:
    fen, text = CASES[code][0]
    english = explain_move(fen, text, lang="en").message
    chinese = explain_move(fen, text, lang="zh-Hans").message
    assert english[0].isupper() and english.endswith(".")
    assert "{" not in english + chinese and "explain." not in english + chinese
    assert re.search(r"[\u4e00-\u9fff]", chinese)


@pytest.mark.parametrize(("fen", "text", "message", "squares"), [
    (START, "Bh6", "The bishop on c1 cannot get past the pawn on d2.", ("c1", "d2")),
    (ROOK_CHECK, "Bc3", "Your king on e1 is in check from the rook on e8: move the king, "
     "block the check or take the rook.", ("e1", "e8")),
    (PIN, "Nd5", "The knight on c3 is pinned: it may not leave the line between the bishop on "
     "b4 and your king on e1.", ("c3", "b4", "e1")),
    (KNIGHTS, "Nd2", "More than one piece can go to d2: the knight on b1 and the knight on f1. "
     "Write which one, for example Nbd2.", ("b1", "f1", "d2")),
    (PASSANT.format(ep="-"), "exd6", "En passant is only possible right after the pawn on d5 "
     "has made its two-square step.", ("e5", "d5", "d6")),
    (START, "Nf3", "Yes: Nf3 is a legal move.", ("g1", "f3")),
    (START, "e7e5", "The pawn on e7 belongs to Black, but it is White's turn.", ("e7",)),
    ("r3k2r/8/8/8/8/5r2/8/R3K2R w KQkq - 0 1", "O-O", "Your king cannot castle through f1, "
     "because the rook on f3 attacks that square.", ("f1", "f3")),
])
def test_messages_name_pieces_and_squares(fen: str, text: str, message: str,
                                          squares: tuple[str, ...]) -> None:
    verdict = explain_move(fen, text, lang="en")
    assert verdict.message == message
    assert verdict.squares == tuple(chess.parse_square(s) for s in squares)


@pytest.mark.parametrize(("fen", "text", "term"), [
    (ROOK_CHECK, "Bc3", "将军"), (START, "O-O", "王车易位"), (PIN, "Nd5", "牵制"),
    (PASSANT.format(ep="-"), "exd6", "吃过路兵"), (PROMOTE, "a8", "升变"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", "O-O-O", "长易位"),
])
def test_chinese_uses_the_syllabus_terms(fen: str, text: str, term: str) -> None:
    assert term in explain_move(fen, text, lang="zh-Hans").message


def test_traditional_is_derived() -> None:
    message = explain_move(ROOK_CHECK, "Bc3", lang="zh-Hant").message
    assert "將軍" in message and "車" in message


@pytest.mark.parametrize(("fen", "text", "rule"), [
    ("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", "e4e3", "backwards"),
    ("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", "e4d4", "sideways"),
    ("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", "exd5", "only to capture"),
    ("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", "e6", "starting square"),
    (START, "Nd4", "No knight of yours"),
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Rb2", "rank or a file"),
])
def test_bad_geometry_says_how_the_piece_moves(fen: str, text: str, rule: str) -> None:
    verdict = explain_move(fen, text, lang="en")
    assert verdict.code == "bad_geometry" and rule in verdict.message


@pytest.mark.parametrize(("fen", "text", "blocker"), [
    ("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", "e4", "e3"),
    ("4k3/8/8/8/4p3/8/4P3/4K3 w - - 0 1", "e4", "e4"),
    ("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e3", "e3"),
    ("4k3/8/8/8/8/8/8/R1N1K3 w - - 0 1", "Rd1", "c1"),
])
def test_blocked_names_the_nearest_piece(fen: str, text: str, blocker: str) -> None:
    verdict = explain_move(fen, text, lang="en")
    assert verdict.code == "blocked"
    assert verdict.squares[-1] == chess.parse_square(blocker)


@pytest.mark.parametrize(("fen", "words"), [
    (MATED, "Black is checkmated"), ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemate"),
])
def test_game_over_says_why(fen: str, words: str) -> None:
    verdict = explain_move(fen, "Kg8", lang="en")
    assert verdict.code == "game_over" and words in verdict.message


def test_too_little_material_is_still_explained() -> None:
    """Lessons teach with bare kings: a wrong king move gets its real reason."""
    verdict = explain_move("7k/8/6K1/8/8/8/8/8 b - - 0 1", "Kg7", lang="en")
    assert verdict.code == "king_into_check"
    assert explain_move("7k/8/6K1/8/8/8/8/8 b - - 0 1", "Kh7", lang="en").code == "king_into_check"


def test_double_check_needs_a_king_move() -> None:
    verdict = explain_move("4r1k1/8/8/8/8/3n4/8/4K2B w - - 0 1", "Bd5", lang="en")
    assert verdict.code == "in_check" and "double check" in verdict.message
    assert verdict.squares == (chess.E1, chess.D3, chess.E8)


def test_a_pinned_piece_taking_the_checker_is_still_pinned() -> None:
    verdict = explain_move("4r1k1/8/8/8/8/5n2/4B3/4K3 w - - 0 1", "Bxf3", lang="en")
    assert verdict.code == "pinned" and "rook on e8" in verdict.message


def test_en_passant_that_opens_the_rank_says_the_taken_pawn_leaves_too() -> None:
    """The pawn on e5 is not pinned (e6 is legal): taking en passant removes d5 as well."""
    verdict = explain_move("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", "exd6", lang="en")
    assert verdict.code == "pinned" and verdict.message == (
        "When the pawn on e5 takes en passant, the pawn on d5 leaves the board too, and then "
        "the rook on h5 would attack your king on a5. A move may never leave your own king in "
        "check.")
    assert "d5" in explain_move("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", "exd6", lang="zh-Hans").message
    pinned = explain_move("k6b/8/8/3pP3/8/8/1K6/8 w - d6 0 1", "exd6", lang="en")
    assert pinned.message.startswith("The pawn on e5 is pinned")  # a pin on the diagonal


def test_king_moves_written_as_castling_are_castling() -> None:
    assert explain_move(CASTLE, "Kg1").code == "ok"
    assert explain_move(START, "Kg1").code == "castle_blocked"
    assert explain_move(CASTLE, chess.Move.from_uci("e1h1")).san == "O-O"


def test_drills_without_kings_explain_moves() -> None:
    assert explain_move("8/8/8/8/3B4/8/8/8", "Bh8").code == "ok"
    assert explain_move("8/8/8/8/3R4/8/8/8", "Re5").code == "bad_geometry"


def test_verdict_is_frozen_and_legal_moves_carry_move_and_san() -> None:
    verdict = explain_move(START, "e4")
    assert verdict == Verdict(True, "ok", verdict.message, chess.Move.from_uci("e2e4"), "e4",
                              (chess.E2, chess.E4))
    with pytest.raises(dataclasses.FrozenInstanceError):
        verdict.code = "x"  # type: ignore[misc]
    illegal = explain_move(START, "e5")
    assert illegal.move is None and illegal.san is None


@pytest.mark.parametrize("thing", [None, 42, b"e4", ["e4"], chess.Move.null(), "e4" * 500_000,
                                   "\x00\x1b[31m", "🐴f3", "коньf3", "{san}{0}", "x" * 65])
def test_anything_is_a_verdict_quickly(thing: object) -> None:
    begin = time.perf_counter()
    verdict = explain_move(START, thing)
    assert verdict.code == "unparseable" and verdict.message
    assert time.perf_counter() - begin < 0.05


def test_an_unknown_language_falls_back() -> None:
    assert explain_move(START, "e4", lang="klingon").code == "ok"


def test_locale_files_match() -> None:
    root = resources.files("chesskit") / "locale"
    en, zh = (tomllib.loads((root / lang / "explain.toml").read_text("utf-8"))
              for lang in ("en", "zh-Hans"))
    assert en.keys() == zh.keys()
    for key, text in en.items():
        assert set(re.findall(r"{(\w+)}", text)) == set(re.findall(r"{(\w+)}", zh[key])), key


SAFETY = {"king_into_check", "pinned", "in_check", "castle_in_check", "castle_through_check",
          "castle_into_check"}




@pytest.mark.slow
@settings(max_examples=15, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 80))
def test_illegal_moves_are_never_ok_and_legal_ones_always(seed: int, plies: int) -> None:
    board = chess.Board(random_board(seed, plies).fen())  # no move stack: faster copies
    for start in chess.SquareSet(board.occupied_co[board.turn]):
        promotions = [None, chess.QUEEN] if board.piece_type_at(start) == chess.PAWN else [None]
        for target in chess.SQUARES:
            for promotion in promotions:
                move = chess.Move(start, target, promotion)
                verdict = explain_move(board, move)
                assert verdict.code in CODES
                assert verdict.legal == board.is_legal(move), (board.fen(), move.uci())
                if board.is_pseudo_legal(move) and not board.is_legal(move):
                    assert verdict.code in SAFETY, (board.fen(), move.uci(), verdict.code)
                    assert explain_move(board, move.uci()).code == verdict.code


@settings(max_examples=300, derandomize=True, deadline=None)
@given(text=st.text(max_size=40))
def test_random_text_gets_a_code(text: str) -> None:
    assert explain_move(START, text).code in CODES


def test_a_piece_moved_onto_its_own_square() -> None:
    verdict = explain_move("6k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", "Kg8", lang="en")
    assert verdict.code == "bad_geometry" and verdict.message.startswith("The king on g8 is")


# Explanations that used to be false (issue 12): each message is checked against the rules.
ROOK_ONLY = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"


def test_king_onto_its_rook_when_castling_is_legal_says_how_to_castle() -> None:
    board = chess.Board(ROOK_ONLY)
    assert board.has_kingside_castling_rights(chess.WHITE)
    assert board.is_legal(chess.Move.from_uci("e1g1"))
    verdict = explain_move(ROOK_ONLY, "Kh1", lang="en")
    assert verdict.code == "bad_geometry"
    assert verdict.message == ("The king on e1 cannot go to h1: a king moves only one square at "
                               "a time. To castle on the king's side, write O-O.")
    assert "O-O" in explain_move(ROOK_ONLY, "Kh1", lang="zh-Hans").message


def test_castling_without_a_rook_says_there_is_no_rook() -> None:
    fen = "7k/R7/8/8/8/8/8/1Q4K1 w - - 0 1"  # item 12.01
    assert chess.Board(fen).piece_at(chess.H1) is None
    verdict = explain_move(fen, "0-0", lang="en")
    assert verdict.code == "castle_rights_lost"
    assert verdict.message == ("You cannot castle on the king's side: there is no rook of yours "
                               "on h1 to castle with.")
    assert "moved" not in verdict.message


def test_castling_with_the_king_off_its_square_says_so() -> None:
    fen = "4k3/8/8/8/8/8/8/R5KR w - - 0 1"
    assert chess.Board(fen).king(chess.WHITE) == chess.G1
    assert explain_move(fen, "O-O-O", lang="en").message == (
        "You cannot castle: your king is no longer on e1, and a king that has moved may not "
        "castle.")


def test_rights_lost_only_when_king_and_rook_are_home() -> None:
    fen = "4k3/8/8/8/8/8/8/R3K2R w K - 0 1"
    assert not chess.Board(fen).has_queenside_castling_rights(chess.WHITE)
    assert explain_move(fen, "O-O-O", lang="en").message == (
        "You cannot castle on the queen's side any more: your king or the rook on a1 has "
        "already moved.")


def test_rank_disambiguated_moves_are_legal() -> None:
    fen = "8/7P/K7/1p6/4B3/R3n2k/4B3/N7 w - - 0 1"  # item 06.61
    for text, uci in (("B4f3", "e4f3"), ("B4d3", "e4d3"), ("B2f3", "e2f3"), ("B2d3", "e2d3")):
        verdict = explain_move(fen, text, lang="en")
        assert verdict.legal and verdict.move == chess.Move.from_uci(uci), verdict.message


def test_opponent_piece_named_only_when_it_could_make_the_move() -> None:
    after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    verdict = explain_move(after_e4, "Qa1", lang="en")
    assert not chess.Board(after_e4).is_legal(chess.Move.from_uci("d1a1"))  # not for White
    assert verdict.code == "bad_geometry"
    assert verdict.message == ("The queen on d8 cannot go to a1: a queen moves only in straight "
                               "lines and diagonals.")
    start = explain_move(START, "Nf6", lang="en")
    assert start.code == "wrong_side"
    assert start.message == ("The knight on g8 can go to f6, but it belongs to Black: it is "
                             "White's turn, and no knight of yours can go there.")
    assert not any(chess.Board().piece_type_at(m.from_square) == chess.KNIGHT
                   and m.to_square == chess.F6 for m in chess.Board().legal_moves)
    assert "黑方" in explain_move(START, "Nf6", lang="zh-Hans").message


def test_no_piece_of_the_kind_and_theirs_cannot_go_either() -> None:
    verdict = explain_move("3qk3/8/8/8/8/8/8/4K3 w - - 0 1", "Qa1", lang="en")
    assert verdict.code == "no_piece"
    assert verdict.message == "You have no queen that can go to a1."


def test_push_written_for_en_passant_says_how_to_write_the_capture() -> None:
    fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
    assert chess.Board(fen).is_legal(chess.Move.from_uci("e5f6"))
    verdict = explain_move(fen, "f6", lang="en")
    assert verdict.code == "bad_geometry"
    assert verdict.message == "To take the pawn on f5 en passant, write it as a capture: exf6."
    assert "吃过路兵" in explain_move(fen, "f6", lang="zh-Hans").message
    assert explain_move(fen, "exf6", lang="en").legal


def test_small_b_for_pawn_or_bishop_is_ambiguous() -> None:
    fen = "4k3/8/8/8/8/8/1P6/3BK3 w - - 0 1"
    board = chess.Board(fen)
    assert board.is_legal(chess.Move.from_uci("b2b3")) and board.is_legal(
        chess.Move.from_uci("d1b3"))
    verdict = explain_move(fen, "bb3", lang="en")
    assert verdict.code == "ambiguous"
    assert verdict.message == ("A small b can mean the pawn or the bishop: write b3 for the pawn "
                               "on b2 or Bb3 for the bishop on d1.")
    assert explain_move(fen, "b3", lang="en").san == "b3"


def test_castling_rights_that_do_not_fit_are_dropped_not_refused() -> None:
    verdict = explain_move("4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1", "O-O", lang="en")
    assert verdict.legal and verdict.san == "O-O"
    long = explain_move("4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1", "O-O-O", lang="en")
    assert long.code == "castle_rights_lost" and "no rook of yours on a1" in long.message
