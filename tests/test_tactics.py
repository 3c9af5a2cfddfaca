"""Tests for chesskit.rules.tactics: every tag present in one position and absent in another, the
sentences in both languages, and recall against the packaged Lichess puzzle sample."""

from __future__ import annotations

import csv
import re
import tomllib
from collections import Counter
from importlib import resources

import chess
import pytest
from _lichess import (
    NEW_THEMES,
    TACTICS,
    THEMES,
    ZUGZWANG,
    bank_puzzles,
    puzzle_part,
    sample,
    theme_rates,
)

from chesskit.errors import MoveError, PositionError
from chesskit.rules import tactics
from chesskit.rules.tactics import (
    MOTIFS,
    NAMED,
    WHY_NOT,
    describe_motifs,
    discovered_targets,
    fork_targets,
    motifs,
    name_right_move,
    pinned_by,
    pins_made,
    pins_used,
    skewer_targets,
    why_not,
)
from chesskit.rules.values import VALUES, balance

# (tag, fen, move where the tag is present, move where it is absent)
CASES = [
    ("check", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra8+", "Ra2"),
    ("mate", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8#", "Ra7"),
    ("stalemate", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "Qf7", "Qf2"),
    ("capture", "4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1", "Nxe5", "Nd4"),
    ("promotion", "8/P7/8/8/8/8/8/k1K5 w - - 0 1", "a8=Q", "Kd2"),
    ("en_passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6", "e6"),
    ("castling", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "O-O", "Kf1"),
    ("fork", "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", "Nc7+", "Nd6+"),
    ("fork", "7k/6pp/8/1r3q2/8/8/4NPPP/5RK1 w - - 0 1", "Nd4", "Nc3"),
    ("pin", "4k3/8/2n5/8/8/8/8/4KB2 w - - 0 1", "Bb5", "Bd3"),
    ("pin", "4k3/1q6/8/3n4/8/8/8/K2B4 w - - 0 1", "Bf3", "Be2"),
    ("skewer", "8/8/8/r2k4/8/8/8/2K4R w - - 0 1", "Rh5+", "Rh4"),
    ("discovered_attack", "3q3k/1r6/8/8/8/3N4/4QPPP/3R2K1 w - - 0 1", "Nc5", "Nf4"),
    ("discovered_check", "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "Nc5+", "Kf2"),
    ("double_check", "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "Nd6+", "Nc5+"),
    ("hanging", "4k3/8/8/3p4/8/3Q4/8/4K3 w - - 0 1", "Qc4", "Qxd5"),
    ("back_rank_mate", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8#", "Ra7"),
    ("smothered_mate", "6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", "Nf7#", "Ne6"),
    # the second part's tactics (Lichess puzzles of the tuning part, and one composed position)
    ("decoy", "1r4r1/2q2ppk/2pb1n2/1p2pN1p/4P3/4Q1RP/PP3PP1/R5K1 w - - 0 26", "Rxg7+", "Rb1"),
    ("deflection", "7r/8/3b4/3p1P2/6R1/2kN4/4KP2/8 b - - 0 67", "Re8+", "Kb3"),
    ("removing_the_defender", "r2qr1k1/p1p1bpBp/2pp1n2/8/4P1bP/6Q1/PPP2PP1/RN2K2R w KQ - 2 13",
     "Bxf6", "a3"),
    ("interference", "3r2k1/B4ppp/8/8/8/1P2PP2/P1Rn2PP/R5K1 w - - 0 1", "Bd4", "Bb6"),
    ("clearance", "r1b2r2/pp1n2k1/2p3pp/4Np2/2BP4/8/PP4PP/2KRR3 w - - 1 19", "Nxd7", "a3"),
    ("in_between_move", "3r2k1/pp2pp1p/6p1/8/8/2rRP3/qP3PPP/4KB1R w K - 0 19", "Rxd8+", "b3"),
    ("zugzwang", "8/8/1k6/2p5/PpP5/1K6/8/8 b - - 8 63", "Ka5", "Ka6"),
]


def test_zugzwang_that_wins_a_few_moves_later() -> None:
    """Kf4: Black's king must step away from f5's pawn (or the h-pawn falls later), though if
    Black could pass White would win nothing. No enemy move loses at once, so only the deeper
    test sees it; White's other moves, and Black's in the same position, are no zugzwang
    (Lichess puzzle Ictq7, tuning part)."""
    fen = "8/8/5k2/5p1p/7P/5KP1/8/8 w - - 3 47"
    board = chess.Board(fen)
    named = {board.san(move) for move in board.legal_moves if "zugzwang" in motifs(board, move)}
    assert named == {"Kf4"}
    move = board.parse_san("Kf4")
    after = board.copy()
    after.push(move)
    played = tactics._Played(board, move, after)
    assert tactics._worse_to_move(played) and not tactics._loses_at_once(played)
    black = chess.Board(fen.replace(" w ", " b "))
    assert not any("zugzwang" in motifs(black, move) for move in black.legal_moves)


def test_zugzwang_in_a_king_and_pawn_ending() -> None:
    """...Kf5 (found by the king and pawn ending search): White's king on h6 must give way
    and the g5 pawn falls, though if White could pass Black would gain nothing; Stockfish
    agrees (30,000 nodes: +7.04 passing, -11.44 moving, for White). A move further away no
    Black move is a zugzwang."""
    board = chess.Board("8/8/6pK/4k1P1/8/8/8/8 b - - 0 1")
    assert {board.san(move) for move in board.legal_moves
            if "zugzwang" in motifs(board, move)} == {"Kf5"}
    board = chess.Board("8/8/6pK/3k2P1/8/8/8/8 b - - 0 1")
    assert not any("zugzwang" in motifs(board, move) for move in board.legal_moves)


def test_no_zugzwang_when_passing_would_lose_as_much() -> None:
    """The same ending with White's king already on f4 and Black to move: whatever White
    plays next, Black's king on f6 keeps f5 and the ending stays level, so White's waiting
    move Kf3 puts nobody in zugzwang; Black's Kg6 (the king still guards f5) neither."""
    fen = "8/8/5k2/5p1p/5K1P/6P1/8/8 w - - 0 1"
    assert "zugzwang" not in motifs(fen, "Kf3")
    assert "zugzwang" not in motifs("8/8/5k2/5p1p/5K1P/6P1/8/8 b - - 0 1", "Kg6")


def test_an_in_between_move_takes_back_later() -> None:
    """Black's queen has just taken on d4 and White could take it back at once, but Bxc6+ first
    takes the knight that guards d4, with check: after bxc6 the queen falls for nothing
    (Lichess puzzle x0Gg8, tuning part)."""
    fen = "r3kb1r/ppp1pp1p/2n3p1/4P3/3q4/5B1P/PP3PP1/R1BQK2R w KQkq - 0 12"
    assert "in_between_move" in motifs(fen, "Bxc6+")
    assert "in_between_move" not in motifs(fen, "Qxd4")


def test_an_in_between_move_without_check_is_described_as_such() -> None:
    """Black's knight has just taken on d3: White first trades rooks on e8 (Black must take
    back), then takes the knight (Lichess puzzle 0Dh6K, tuning part)."""
    fen = "4rr1k/pBp3p1/7p/2p2p2/2Pp3P/3n2P1/PP3P2/3RR1K1 w - - 0 24"
    assert "in_between_move" in motifs(fen, "Rxe8")
    assert describe_motifs(fen, "Rxe8", lang="en") == (
        "Rxe8 is an in-between move: first a move the opponent must answer, the capture can wait.")
    assert "must answer" in name_right_move(fen, "Rxe8", motif="in_between_move", lang="en")


def test_an_in_between_move_named_with_the_move_just_played() -> None:
    """White's pawn has just taken on f4 (Lichess puzzle 04jmi, tuning part). Knowing it, Rc1+
    is an in-between move: after Kg2 the knight still takes back on f4, with check. Without the
    last move the position alone does not say what was just taken (the rule of today), and the
    take-back itself is no in-between move. A board with the move pushed says the same."""
    fen = "2r5/4k3/7p/p2R1p1n/P4P2/N7/5P1P/6K1 b - - 0 32"
    assert "in_between_move" in motifs(fen, "Rc1+", last_move="e3f4")
    assert "in_between_move" not in motifs(fen, "Rc1+")
    assert "in_between_move" not in motifs(fen, "Nxf4", last_move="e3f4")
    board = chess.Board("2r5/4k3/7p/p2R1p1n/P4p2/N3P3/5P1P/6K1 w - - 0 32")
    board.push_uci("e3f4")
    assert motifs(board, "Rc1+") == motifs(fen, "Rc1+", last_move=chess.Move.from_uci("e3f4"))
    assert "in-between" in name_right_move(board, "Rc1+", lang="en")
    assert board.move_stack == [chess.Move.from_uci("e3f4")]  # left alone


def test_no_in_between_move_after_a_last_move_that_took_nothing() -> None:
    """The same check after a quiet last move (Kg1-g2 instead of exf4): nothing to take back."""
    board = chess.Board("2r5/4k3/7p/p2R1p1n/P4p2/N3P3/5P1P/6K1 w - - 0 32")
    board.push_uci("g1g2")
    assert "in_between_move" not in motifs(board, "Rc2")


def test_an_in_between_move_may_take_the_guard_first() -> None:
    """White's bishop has just taken on d5, guarded by the knight on c3: Qxd5 now loses the
    queen, but Bxc3+ takes the guard with check, and after bxc3 the queen takes back (Lichess
    puzzle 091Wn, tuning part). Without the last move it is not named."""
    board = chess.Board("rnbqk2r/pp3pp1/5b1p/2pp4/8/2NP2P1/PPP2PBP/R2QK1NR w KQkq - 0 9")
    board.push_san("Bxd5")
    assert "in_between_move" in motifs(board, "Bxc3+")
    assert "in_between_move" not in motifs(board.fen(), "Bxc3+")
    assert "in_between_move" not in motifs(board, "Be6")


def test_an_in_between_capture_still_counts_when_the_piece_that_took_runs_away() -> None:
    """White's rook has just taken on a5: Rxc3 first takes the bishop. If Rxc3, then Rxa5; if
    the rook on a5 goes on and takes the rook on a8, then Rxc2: Black wins the bishop either
    way, more than by Rxa5 at once, Bxa5 (Lichess puzzle 0BjuX, tuning part)."""
    board = chess.Board("r4bk1/5p2/3p2p1/p1p1p2p/2P4P/1rB2PP1/1PR1P3/R5K1 w - - 2 33")
    board.push_san("Rxa5")
    assert "in_between_move" in motifs(board, "Rxc3")


def test_a_deflecting_check_is_an_in_between_move_when_the_last_move_took() -> None:
    """Black's queen has just taken on d5: Re8+ offers the rook (Rxe8 would give up the rook
    that guards d5), and after Kf7 the queen on d5 is taken back with check (Lichess puzzle
    00DII, tuning part). A deflection, and with the last move known an in-between move too."""
    board = chess.Board("2rr2k1/p5p1/1p5p/2pP1p1P/2q5/P4QR1/5PP1/4R1K1 b - - 3 31")
    board.push_san("Qxd5")
    tags = motifs(board, "Re8+")
    assert {"deflection", "in_between_move"} <= tags
    assert "in_between_move" not in motifs(board.fen(), "Re8+")


def test_a_given_last_move_must_end_on_a_piece_of_the_side_that_played_it() -> None:
    fen = "2r5/4k3/7p/p2R1p1n/P4P2/N7/5P1P/6K1 b - - 0 32"
    for wrong in ("e2e4", "c8c1", "nonsense"):
        with pytest.raises(MoveError):
            motifs(fen, "Rc1+", last_move=wrong)


@pytest.mark.parametrize(("fen", "san"), [
    # a check that wins nothing: the queen on d4 stays guarded by the knight on c6
    ("r3k3/p1p5/2n5/8/3q4/5B2/5PPP/3QK3 w - - 0 1", "Bh5+"),
    # a check that mates in two: an attack, not a pause before fxg3 (Lichess puzzle 07MUp)
    ("1r4k1/5pp1/4R2p/p2p4/2pP4/2P3qP/Pr3PP1/1B2R1K1 w - - 0 29", "Re8+"),
])
def test_a_check_before_taking_back_is_not_always_in_between(fen: str, san: str) -> None:
    assert "check" in motifs(fen, san)
    assert "in_between_move" not in motifs(fen, san)


def test_every_tag_has_a_case() -> None:
    assert {tag for tag, *_ in CASES} == set(MOTIFS)
    assert len(MOTIFS) == len(set(MOTIFS)) == 23


@pytest.mark.parametrize(("tag", "fen", "present", "absent"), CASES)
def test_tag_present_and_absent(tag: str, fen: str, present: str, absent: str) -> None:
    assert tag in motifs(fen, present), (fen, present)
    assert tag not in motifs(fen, absent), (fen, absent)


def test_a_check_with_an_escape_is_not_mate() -> None:
    tags = motifs("6k1/5pp1/8/8/8/8/8/R5K1 w - - 0 1", "Ra8+")
    assert "check" in tags and "mate" not in tags and "back_rank_mate" not in tags


@pytest.mark.parametrize(("fen", "san", "tag"), [
    # Scholar's mate: the king is on its back rank but the queen mates from f7.
    ("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 0 1", "Qxf7#",
     "back_rank_mate"),
    # A mate by a knight with an empty square next to the king is not smothered.
    ("5rk1/5p1p/5PpN/8/8/8/8/6K1 b - - 0 1", "Kh8", "smothered_mate"),
    # A knight attacking two pawns that are both defended is no fork.
    ("4k3/3p1p2/2p1p3/8/3N4/8/8/4K3 w - - 0 1", "Nxc6", "fork"),
    # Two loose pawns are not a fork either: pawns are not forked pieces.
    ("4k3/8/8/2p1p3/8/8/1N6/4K3 w - - 0 1", "Nd3", "fork"),
    # Issue 12: "Qxa1+ forks the king on h1 and the pawn on a2", the pawn defended.
    ("6k1/5ppp/8/8/1N1q4/8/P5P1/R6K b - - 0 1", "Qxa1+", "fork"),
    # Issue 12: "forks the bishop and the bishop", both protected by the king.
    ("3k4/2b1b3/8/8/8/4N3/8/4K3 w - - 0 1", "Nd5", "fork"),
    # The queen takes the forking knight.
    ("r2qk3/8/8/1N6/8/8/8/4K3 w - - 0 1", "Nc7+", "fork"),
    # The rook escapes with check: Re6+ answers the fork of queen and rook.
    ("4k3/8/1q3r2/8/8/2N5/8/4K3 w - - 0 1", "Nd5", "fork"),
    # A mate is named as a mate, not as the fork it also makes.
    ("n5k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1", "Re8#", "fork"),
    # A pawn pinned to a rook (not to the king) is not named a pin.
    ("r3k3/8/8/8/p7/1N6/4K3/7R w - - 0 1", "Ra1", "pin"),
    # The pinned rook simply takes the queen that pins it.
    ("4k3/4r3/8/8/8/8/8/3QK3 w - - 0 1", "Qe2", "pin"),
    # A bishop attacking a queen with a knight behind it: a skewer, not a pin.
    ("4k3/6n1/8/4q3/8/8/8/K5B1 w - - 0 1", "Bd4", "pin"),
    # A check with a defended pawn behind the king is no skewer.
    ("8/8/1p6/p2k4/8/8/8/2K4R w - - 0 1", "Rh5+", "skewer"),
    # Uncovering an attack on a protected pawn is no discovered attack.
    ("4k3/3p4/8/8/3N4/8/8/3RK3 w - - 0 1", "Nb5", "discovered_attack"),
    # Uncovering an attack on the queen that simply steps away (Qc8) is not one either.
    ("3q2k1/8/8/8/3N4/8/8/3RK3 w - - 0 1", "Nb5", "discovered_attack"),
    # A skewer the queen answers by taking the loose bishop is no skewer.
    ("4k3/6n1/8/4q3/8/8/8/K5B1 w - - 0 1", "Bd4", "skewer"),
    # A knight taking a knight that a pawn defends is a trade, not a piece for nothing.
    ("4k3/8/2p5/3n4/8/4N3/8/4K3 w - - 0 1", "Nxd5", "hanging"),
    # Castling with check from the rook is a direct check.
    ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "O-O+", "discovered_check"),
    # A lone rook on a drill board: the other side having no move is no stalemate.
    ("8/8/8/8/3R4/8/8/8 w - - 0 1", "Rd5", "stalemate"),
    # Lichess 02DgT (tuning part): Rxh2+ Kxh2 Rh8# lures the king; the second rook using the
    # h-file after it is a decoy, not a clearance.
    ("3r3r/4kp2/4p1p1/4P3/2Q2P2/4q3/P5PP/2R2R1K b - - 2 27", "Rxh2+", "clearance"),
    # Taking a queen for a rook wins by itself: no defender needs removing.
    ("3qk3/8/8/8/8/8/8/3RK2R w - - 0 1", "Rxd8+", "removing_the_defender"),
])
def test_tag_absent_in_near_misses(fen: str, san: str, tag: str) -> None:
    assert tag not in motifs(fen, san)


@pytest.mark.parametrize(("fen", "san", "tag"), [
    # Lichess H8eED: Nxe6 dxe6 Rxd6, the rook on e6 guarded the pawn on d6 (a pawn is enough).
    ("5n2/pp1r2kp/3PR3/2pP1P2/2P5/6PP/P6K/8 b - - 4 35", "Nxe6", "removing_the_defender"),
    # Lichess 031pC: Bxf6 Qxf6 Rxd7, though gxf6 is the answer a short search prefers.
    ("r2q1rk1/pppb1ppp/1b3n2/4B3/2Q5/2N5/PPP3PP/2KR1B1R w - - 1 13", "Bxf6",
     "removing_the_defender"),
    # Lichess 2op1R: Qg7+ Kd8 (or Ke8) steps between the rooks, and the queen takes on h8.
    ("r6r/p2bk3/1p1qp1Qp/3p1p2/6pP/P1PBP3/3K1PP1/R6R w - - 2 23", "Qg7+", "interference"),
])
def test_second_part_tactics_as_lichess_tags_them(fen: str, san: str, tag: str) -> None:
    """Puzzles of the tuning part that the first definitions missed (issue 24)."""
    assert tag in motifs(fen, san)


def test_an_interference_by_the_answer_to_a_check_names_the_piece_that_steps_in() -> None:
    fen = "r6r/p2bk3/1p1qp1Qp/3p1p2/6pP/P1PBP3/3K1PP1/R6R w - - 2 23"
    assert describe_motifs(fen, "Qg7+", lang="en") == (
        "Qg7+ is an interference: the king on d8 cuts the line of a defending piece.")


INTERFERENCE = "3r2k1/5ppp/8/4P3/4N3/R2p4/3B1PPP/6K1 w - - 0 1"
CLEARANCE = "b1r2k2/5ppp/8/1Rr5/8/7P/3N1PP1/1R4K1 w - - 0 1"


def test_an_interference_leaves_the_piece_behind_without_its_guard() -> None:
    """Nd6 stands between the rook on d8 and the pawn on d3 it guards: Rxd3 comes next. Nc5
    attacks the pawn too, but the rook still guards it."""
    assert "interference" in motifs(INTERFERENCE, "Nd6")
    assert "interference" not in motifs(INTERFERENCE, "Nc5")
    assert describe_motifs(INTERFERENCE, "Nd6", lang="en") == (
        "Nd6 is an interference: the knight on d6 cuts the line of a defending piece.")


def test_a_clearance_empties_a_square_that_another_piece_then_uses() -> None:
    """Rxc5 Rxc5 empties b5: Rb8+ checks the king and attacks the bishop on a8. Rb7 leaves b5
    too, but stands in the other rook's way on b7."""
    assert "clearance" in motifs(CLEARANCE, "Rxc5")
    assert "clearance" not in motifs(CLEARANCE, "Rb7")
    assert describe_motifs(CLEARANCE, "Rxc5", lang="en") == (
        "Rxc5 is a clearance: it empties b5 for another of your pieces.")


def test_after_the_king_steps_away_only_a_mate_through_the_cleared_line_is_a_clearance() -> None:
    """Ne7+ Kh8 Qf8#: the knight cleared the f-file. With the pawn on h6 the king has h7, and
    Qf8+ is only a check."""
    assert "clearance" in motifs("6k1/pp4pp/8/q4N2/8/8/PP4PP/5QK1 w - - 0 1", "Ne7+")
    assert "clearance" not in motifs("6k1/pp4p1/7p/q4N2/8/8/PP4PP/5QK1 w - - 0 1", "Ne7+")


def test_skewer_of_queen_to_rook() -> None:
    fen = "4k3/6r1/8/4q3/8/2P5/6PP/5RBK w - - 0 1"
    assert "skewer" in motifs(fen, "Bd4")
    assert "pin" not in motifs(fen, "Bd4")


def test_hanging_by_en_passant() -> None:
    assert "hanging" in motifs("4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1", "d4")


def test_hanging_when_attacked_by_a_cheaper_piece_though_defended() -> None:
    assert "hanging" in motifs("4k3/8/2p5/8/8/4N3/8/3RK3 w - - 0 1", "Rd5")


def test_helpers() -> None:
    after = chess.Board("r3k3/2N5/8/8/8/8/8/4K3 b - - 1 1")
    assert fork_targets(after, chess.C7) == [chess.E8, chess.A8]
    pinned = chess.Board("4k3/8/2n5/1B6/8/8/8/4K3 b - - 1 1")
    assert pinned_by(pinned, chess.B5) == [(chess.C6, chess.E8)]
    before = chess.Board("4k3/8/2n5/8/8/8/8/4KB2 w - - 0 1")
    assert pins_made(before, chess.Move.from_uci("f1b5")) == [(chess.C6, chess.E8)]
    skewered = chess.Board("8/8/8/r2k3R/8/8/8/2K5 b - - 1 1")
    assert skewer_targets(skewered, chess.H5) == [(chess.D5, chess.A5)]
    discovered = chess.Board("3q3k/1r6/8/8/8/3N4/4QPPP/3R2K1 w - - 0 1")
    assert discovered_targets(discovered, chess.Move.from_uci("d3c5")) == [(chess.D1, chess.D8)]
    assert discovered_targets(discovered, chess.Move.from_uci("d3f4")) == []
    assert balance(chess.Board()) == 0
    assert balance(chess.Board("4k3/8/8/8/8/8/8/R2QK3 w - - 0 1")) == 14
    assert VALUES == {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5,
                      chess.QUEEN: 9, chess.KING: 0}


def test_accepts_board_move_and_text_and_leaves_the_board_alone() -> None:
    board = chess.Board("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1")
    assert motifs(board, chess.Move.from_uci("b5c7")) == motifs(board.fen(), "Nc7+")
    assert motifs(board, "b5c7") == motifs(board, "Nc7")
    assert board.fen() == "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1"


@pytest.mark.parametrize("move", ["", "Nc9", "hello", "Ke3", "e2e5", chess.Move.from_uci("e2e5")])
def test_bad_moves_raise_move_error(move: str | chess.Move) -> None:
    with pytest.raises(MoveError):
        motifs(chess.STARTING_FEN, move)


def test_bad_position_raises_position_error() -> None:
    with pytest.raises(PositionError):
        motifs("not a fen", "e4")


SENTENCES = [
    ("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", "Nc7+",
     "Nc7+ forks the king on e8 and the rook on a8.", "Nc7+捉双，同时攻击e8的王和a8的车。"),
    ("4k3/8/2n5/8/8/8/8/4KB2 w - - 0 1", "Bb5",
     "Bb5 pins the knight on c6 to the king on e8.",
     "Bb5牵制了c6的马：它一走开，e8的王就会被攻击。"),
    ("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 0 1", "Qxf7#",
     "Qxf7# is checkmate.", "Qxf7#将死了对方。"),
    ("3rk3/8/8/8/8/8/8/3RK3 w - - 0 1", "Rxd8+", "Rxd8+ gives check to the king on e8.",
     "Rxd8+将军，攻击e8的王。"),
    ("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "Nd6+",
     "Nd6+ is a double check: the king must move.", "Nd6+是双将：王必须走开。"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6",
     "exd6 takes the pawn on d5 en passant.", "exd6吃过路兵，吃掉d5的兵。"),
    ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "O-O",
     "O-O castles on the king's side.", "O-O是王车易位（短易位）。"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Kd2",
     "Kd2 is a quiet move: no check and no capture.", "Kd2是一步静着：不将军，也不吃子。"),
    ("4k3/8/8/3p4/8/3Q4/8/4K3 w - - 0 1", "Qc4",
     "Qc4 is a quiet move: no check and no capture, but the queen on c4 can be taken for free.",
     "Qc4是一步静着：不将军，也不吃子，但c4的后会被白白吃掉。"),
    ("6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", "Nf7#",
     "Nf7# is a smothered mate: the king is boxed in by its own pieces.",
     "Nf7#是闷杀：王被自己的棋子围住了。"),
    ("8/8/8/r2k4/8/8/8/2K4R w - - 0 1", "Rh5+",
     "Rh5+ skewers the king on d5: when it moves away, the rook on a5 can be taken.",
     "Rh5+是串击，攻击d5的王：它一走开，a5的车就会被吃掉。"),
    ("3q3k/1r6/8/8/8/3N4/4QPPP/3R2K1 w - - 0 1", "Nc5",
     "Nc5 is a discovered attack: the rook on d1 now attacks the queen on d8.",
     "Nc5是闪击：d1的车现在攻击d8的后。"),
    ("4k3/4n3/8/3P4/8/8/8/4RK2 w - - 0 1", "d6",
     "d6 uses a pin: the knight on e7 is pinned, and if it moves, the king on e8 can be attacked.",
     "d6利用了牵制：e7的马被牵制住了，它一走开，e8的王就会被攻击。"),
    ("7k/6pp/8/1r3q2/8/8/4NPPP/5RK1 w - - 0 1", "Nd4",
     "Nd4 forks the queen on f5 and the rook on b5.", "Nd4捉双，同时攻击f5的后和b5的车。"),
    ("8/P7/8/8/8/8/8/k1K5 w - - 0 1", "a8=N",
     "a8=N promotes the pawn to a knight.", "a8=N把兵升变为马。"),
    ("1r4r1/2q2ppk/2pb1n2/1p2pN1p/4P3/4Q1RP/PP3PP1/R5K1 w - - 0 26", "Rxg7+",
     "Rxg7+ is a decoy: the piece that takes on g7 walks into the next blow.",
     "Rxg7+是引诱：在g7吃这个子的棋子，会挨下一击。"),
    ("3r2k1/B4ppp/8/8/8/1P2PP2/P1Rn2PP/R5K1 w - - 0 1", "Bd4",
     "Bd4 is an interference: the bishop on d4 cuts the line of a defending piece.",
     "Bd4是截断：d4的象挡住了对方防守子的线路。"),
    ("8/8/1k6/2p5/PpP5/1K6/8/8 b - - 8 63", "Ka5",
     "Ka5 puts the opponent in zugzwang: every move they make loses something.",
     "Ka5让对方陷入转让走子权的困境：对方走哪一步都要吃亏。"),
]


@pytest.mark.parametrize(("fen", "san", "en", "zh"), SENTENCES)
def test_describe_motifs(fen: str, san: str, en: str, zh: str) -> None:
    assert describe_motifs(fen, san, lang="en") == en
    assert describe_motifs(fen, san, lang="zh-Hans") == zh


def test_describe_in_traditional_chinese() -> None:
    text = describe_motifs("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", "Nc7+", lang="zh-Hant")
    assert text == "Nc7+捉雙，同時攻擊e8的王和a8的車。"


def test_describe_names_a_discovered_check() -> None:
    text = describe_motifs("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "Nc5+", lang="en")
    assert text == "Nc5+ is a discovered check: the rook on e1 now gives check."


WORDS = {"decoy": ("decoy", "引诱"), "deflection": ("deflection", "诱离"),
         "removing_the_defender": ("removes the defender", "消除保护"),
         "interference": ("interference", "截断"), "clearance": ("clearance", "腾空"),
         "in_between_move": ("in-between move", "中间着"), "zugzwang": ("zugzwang", "转让走子权"),
         "fork": ("fork", "捉双"), "pin": ("pin", "牵制"), "skewer": ("skewer", "串击"),
         "discovered_attack": ("discovered attack", "闪击")}


@pytest.mark.parametrize(("tag", "fen", "san"), [(tag, fen, san) for tag, fen, san, _ in CASES
                                                 if tag in NAMED])
def test_name_right_move_names_the_tactic(tag: str, fen: str, san: str) -> None:
    """A wrong answer in a tactic lesson can say which tactic the right move uses."""
    assert set(WORDS) == set(NAMED)
    en = name_right_move(fen, san, motif=tag, lang="en")
    zh = name_right_move(fen, san, motif=tag, lang="zh-Hans")
    assert en.startswith(f"The right move was {san}: ") and WORDS[tag][0] in en
    assert zh.startswith(f"正确的一步是{san}：") and WORDS[tag][1] in zh


def test_name_right_move_without_a_named_tactic_describes_the_move() -> None:
    fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
    assert name_right_move(fen, "Ra8#", lang="en") == describe_motifs(fen, "Ra8#", lang="en")
    assert "decoy" in name_right_move(CASES[18][1], CASES[18][2], motif="fork", lang="en")


def test_locale_files_have_the_same_keys_and_fields() -> None:
    def fields(lang: str) -> dict[str, set[str]]:
        path = resources.files("chesskit") / "locale" / lang / "tactics.toml"
        table = tomllib.loads(path.read_text(encoding="utf-8"))
        return {key: set(re.findall(r"{(\w+)}", value)) for key, value in table.items()}

    assert fields("en") == fields("zh-Hans")


# Lichess theme -> our tag, and which learner moves of the solution are looked at:
# "first" (Moves[1]), "last" (the final move), "any" (any learner move).
LICHESS = {
    "mateIn1": ("mate", "first", 1.0),
    "mate": ("mate", "last", 1.0),
    "doubleCheck": ("double_check", "any", 1.0),
    "backRankMate": ("back_rank_mate", "last", 0.9),
    "smotheredMate": ("smothered_mate", "last", 0.9),
}


def _sample(part: str | None = None) -> list[dict[str, str]]:
    path = resources.files("chesskit") / "data" / "lichess-puzzles-sample.csv"
    with path.open(encoding="utf-8") as handle:
        return [row for row in csv.DictReader(handle)
                if part is None or puzzle_part(row["PuzzleId"]) == part]


def _puzzle_rates() -> dict[str, float]:
    found, total = Counter[str](), Counter[str]()
    for row in _sample():
        board = chess.Board(row["FEN"])
        moves = [chess.Move.from_uci(uci) for uci in row["Moves"].split()]
        board.push(moves[0])  # the opponent's move; the learner plays moves[1], [3], ...
        learner = []
        for index, move in enumerate(moves[1:]):
            if index % 2 == 0:
                learner.append(motifs(board, move))
            board.push(move)
        seen = {"first": learner[0], "last": learner[-1], "any": frozenset().union(*learner)}
        for theme in set(row["Themes"].split()) & set(LICHESS):
            tag, where, _ = LICHESS[theme]
            total[theme] += 1
            found[theme] += tag in seen[where]
    return {theme: found[theme] / total[theme] for theme in total}


def test_lichess_sample_recall_of_mates_and_double_checks() -> None:
    rates = _puzzle_rates()
    assert set(rates) == set(LICHESS)
    for theme, (_, _, floor) in LICHESS.items():
        assert rates[theme] >= floor, (theme, rates[theme])


def test_split_is_fixed_and_half_and_half() -> None:
    rows = _sample()
    held_out = [row for row in rows if puzzle_part(row["PuzzleId"]) == "held-out"]
    assert 0.4 < len(held_out) / len(rows) < 0.6
    assert puzzle_part("000rZ") == "tuning" and puzzle_part("002X3") == "held-out"
    packaged = rows + sample(name=TACTICS)  # the bank's puzzles come from both files
    assert bank_puzzles() and bank_puzzles() <= {row["PuzzleId"] for row in packaged}


@pytest.mark.slow
def test_tactic_names_on_the_held_out_puzzles() -> None:
    """The goal of issues 12 and 24 on puzzles the definitions were never tuned on: recall of
    at least 90% (the tag on any learner move of a puzzle with the theme) and false tags on
    under 4% of the puzzles without it. The floors are the figures measured when they were
    written, less a small margin (fork 97.0% / 3.5%, pin 95.0% / 1.5%, skewer 100% / 2.4%,
    discovered attack 94.4% / 1.9%; 11 to 66 puzzles a theme, so one puzzle is 1.5 to 9
    points)."""
    rates = theme_rates(_sample("held-out"))
    assert set(rates) == set(THEMES) == {"fork", "pin", "skewer", "discoveredAttack"}
    floors = {"fork": (0.95, 0.04), "pin": (0.9, 0.025), "skewer": (0.9, 0.03),
              "discoveredAttack": (0.9, 0.025)}
    for theme, rate in rates.items():
        recall, false = floors[theme]
        assert rate.with_theme >= 10, theme
        assert rate.recall_any >= recall, (theme, rate)
        assert rate.false_any < false, (theme, rate)


@pytest.mark.slow
def test_second_part_tactics_on_both_parts() -> None:
    """Issue 24's second-part tactics, on the whole sample (too few puzzles per theme to hold
    one part out): the floors are the figures measured when they were written, so a change
    that names them worse fails; false tags stay under 5% for each. In-between move: 6 of 7
    puzzles with the last move known (one of the three held-out ones is missed)."""
    rates = theme_rates(_sample(), NEW_THEMES)
    floors = {"attraction": 0.8, "deflection": 0.75, "capturingDefender": 0.5,
              "interference": 0.8, "clearance": 0.9, "intermezzo": 0.85}
    for theme, rate in rates.items():
        assert rate.false_any < 0.05, (theme, rate)
        assert rate.recall_any >= floors.get(theme, 0.0), (theme, rate)


@pytest.mark.slow
def test_second_part_tactics_on_the_held_out_puzzles_with_those_themes() -> None:
    """The same on the held-out half of ``lichess-puzzles-tactics.csv`` (about 100 to 200
    puzzles a theme, harder ones: Lichess ratings 500 to 2,800). The floors are the figures
    measured when this was written (issue 24's goal, 70% recall and under 5% false tags, is
    met for decoy, 86% / 3.9%, deflection, 78% / 3.8%, removing the defender, 86% / 3.0%,
    interference, 79% / 1.9%, clearance, 71% / 2.7%, and the in-between move, 79.0% / 4.4% with
    the puzzle's moves on the board: 64.8% / 2.4% before it counted the guard taken first, the
    piece that took moving on and the deflecting check, 50.5% / 4.1% before it saw which piece
    had just taken); false tags stay under 5%. No zugzwang theme in that file."""
    themes = {theme: tag for theme, tag in NEW_THEMES.items() if theme != "zugzwang"}
    rates = theme_rates(sample("held-out", name=TACTICS), themes)
    floors = {"attraction": 0.83, "deflection": 0.75, "capturingDefender": 0.8,
              "interference": 0.76, "clearance": 0.7, "intermezzo": 0.77}
    assert set(rates) == set(floors)
    for theme, rate in rates.items():
        assert rate.with_theme >= 90, (theme, rate)
        assert rate.recall_any >= floors[theme], (theme, rate)
        assert rate.false_any < 0.05, (theme, rate)


@pytest.mark.slow
def test_zugzwang_on_the_held_out_puzzles_with_that_theme() -> None:
    """Issue 24's zugzwang, on the held-out half of ``lichess-puzzles-zugzwang.csv`` (158
    zugzwang puzzles, 131 endgame puzzles without it). Measured when this was written: 68.4%
    recall / 3.8% false tags with the king and pawn ending search (48.7% / 1.5% before it,
    11.4% / 0.0% before any search; 73.5% / 2.1% on the tuning half): below issue 24's 70%
    goal. The floor is that figure less a small margin; false tags stay under 5%."""
    rate = theme_rates(sample("held-out", name=ZUGZWANG), {"zugzwang": "zugzwang"})["zugzwang"]
    assert rate.with_theme >= 150 and rate.without_theme >= 120, rate
    assert rate.recall_any >= 0.66, rate
    assert rate.false_any < 0.05, rate


def test_every_legal_move_of_sample_positions_is_named() -> None:
    for fen in [row["FEN"] for row in _sample()[:40]]:
        board = chess.Board(fen)
        for move in board.legal_moves:
            assert motifs(board, move) <= set(MOTIFS)
            assert describe_motifs(board, move, lang="en").endswith(".")
            assert describe_motifs(board, move, lang="zh-Hans").endswith("。")


# why_not: a true reason for a move that is not the tactic asked for (issue 12).
ITEM_23_08 = "r4rk1/2p2pp1/1p1p3p/pB1Pn3/P3P3/2P4P/1B1Q1P2/R5K1 b - - 0 22"
ITEM_23_18 = "4r1k1/1p5p/p3qPpP/3p4/4bR2/2Q5/P4P2/6K1 w - - 0 34"


@pytest.mark.parametrize(("fen", "san", "attacked"), [
    (ITEM_23_08, "Nc4", ["d2", "b2"]),
    (ITEM_23_18, "Qc8", ["e6", "e8", "b7"]),
    (ITEM_23_18, "Qc6", ["e6", "e8", "d5", "a6", "b7"]),
    (ITEM_23_18, "Qe5", ["e6", "e4", "d5"]),
])
def test_refused_forks_say_what_the_piece_really_attacks(fen: str, san: str,
                                                         attacked: list[str]) -> None:
    board = chess.Board(fen)
    move = board.parse_san(san)
    after = board.copy()
    after.push(move)
    enemy = after.occupied_co[after.turn]
    assert {chess.square_name(s) for s in after.attacks(move.to_square) if enemy & (1 << s)} \
        == set(attacked)
    assert "fork" not in motifs(fen, san)
    message = why_not(fen, san, "fork", lang="en")
    assert "does not attack two pieces" not in message
    assert all(square in message for square in attacked), message
    assert "do not count" in message
    assert why_not(fen, san, "fork", lang="zh-Hans").endswith("都不算。")


@pytest.mark.parametrize(("fen", "san", "motif", "message"), [
    ("4k3/8/8/8/8/8/1N6/4K3 w - - 0 1", "Nd3", "fork",
     "After Nd3, the knight on d3 attacks no enemy piece."),
    ("4k3/8/8/8/8/r7/1N6/4K3 w - - 0 1", "Nc4", "fork",
     "After Nc4, the knight on c4 attacks only the rook on a3."),
    ("r2qk3/8/8/1N6/8/8/8/4K3 w - - 0 1", "Nc7+", "fork",
     "After Nc7+, the knight on c7 attacks the king on e8 and the rook on a8, but Black can "
     "answer with Qxc7."),
    ("6k1/5ppp/8/8/8/8/8/1R4K1 w - - 0 1", "Rb8#", "fork",
     "Rb8# is checkmate: the game is over, so no piece needs to be won."),
    ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", "Bc4", "pin",
     "After Bc4, the bishop on c4 does not pin an enemy piece to its king or to a more "
     "valuable piece, and it does not use a pin."),
    ("4k3/4r3/8/8/8/8/8/3QK3 w - - 0 1", "Qe2", "pin",
     "After Qe2, the queen on e2 lines up the rook on e7 with the king on e8, but the pin wins "
     "nothing: Black loses no material because of it."),
    ("4k3/6n1/8/4q3/8/8/8/K5B1 w - - 0 1", "Bd4", "skewer",
     "After Bd4, the bishop on d4 attacks the queen on e5 with the knight on g7 behind it, but "
     "Black can answer with Qxd4+."),
    ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "Rh5", "skewer",
     "After Rh5, the rook on h5 does not attack a piece with a less valuable one behind it "
     "that it could win."),
    ("3q2k1/8/8/8/3N4/8/8/3RK3 w - - 0 1", "Nb5", "discovered_attack",
     "Nb5 opens a line: the rook on d1 now attacks the queen on d8, but Black can answer with "
     "Qf8."),
    ("3q2k1/8/8/8/3N4/8/8/3RK3 w - - 0 1", "Ke2", "discovered_attack",
     "Ke2 does not open a line for another piece to attack a piece it could win."),
])
def test_why_not(fen: str, san: str, motif: str, message: str) -> None:
    assert motif not in motifs(fen, san)
    assert why_not(fen, san, motif, lang="en") == message
    chinese = why_not(fen, san, motif, lang="zh-Hans")
    assert chinese.endswith("。") and "{" not in chinese


def test_why_not_names_a_legal_reply_and_is_empty_for_the_tactic() -> None:
    fen = "r2qk3/8/8/1N6/8/8/8/4K3 w - - 0 1"
    board = chess.Board(fen)
    board.push_san("Nc7+")
    reply = board.parse_san("Qxc7")
    assert board.is_capture(reply) and reply.to_square == chess.C7
    assert why_not("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", "Nc7+", "fork") == ""


def test_why_not_never_fails_on_sample_positions() -> None:
    for fen in [row["FEN"] for row in _sample()[:12]]:
        board = chess.Board(fen)
        for move in board.legal_moves:
            tags = motifs(board, move)
            for motif in WHY_NOT:
                text = why_not(board, move, motif, lang="en")
                assert (text == "") == (motif in tags), (fen, move, motif)
                assert text == "" or text.endswith(".")


def test_pins_used_by_attacking_the_pinned_piece() -> None:
    board = chess.Board("4k3/4n3/3P4/8/8/8/8/4RK2 b - - 0 1")
    assert pins_used(board, chess.D6) == [(chess.E7, chess.E8)]
    assert board.is_pinned(chess.BLACK, chess.E7)


@pytest.mark.parametrize(("fen", "san", "tag"), [
    ("5r2/1b3k2/1q4p1/p3Pp1p/2pn1P1P/4Q1P1/P5BK/R1R5 b - - 3 34", "Nf3+", "decoy"),  # Qxf3 Bxf3
    ("1k5r/ppp3p1/3bQ3/3pB2r/3P4/2P2RP1/P1P1q1B1/5RK1 b - - 1 22", "Rh1+", "decoy"),  # Qh2#
    ("8/4k3/4r3/3K4/8/8/8/7R w - - 21 65", "Rh7+", "deflection"),  # every answer loses
    ("3rr1k1/5ppp/8/R7/3P4/P1PQ1qPP/1P3P2/3R2K1 b - - 2 28", "Re1+", "deflection"),  # Qxd3
])
def test_decoys_and_deflections_of_lesson_30(fen: str, san: str, tag: str) -> None:
    """Lichess-like decoy and deflection, and the lesson's composed cases they keep."""
    assert tag in motifs(fen, san)


@pytest.mark.parametrize(("fen", "san", "tag", "named"), [
    # Bxf6 opens the g-file: Qg3 pins Bg4 to the king, and it hangs (Lichess's pin rule)
    ("r2qr1k1/p1p1bpBp/2pp1n2/8/4P1bP/6Q1/PPP2PP1/RN2K2R w KQ - 2 13", "Bxf6", "pin", True),
    # a pin to a piece other than the king made with check: the check is the point
    ("r5k1/1p3pp1/p2R1np1/2q5/5Q2/8/P2R1PPP/6K1 b - - 4 32", "Qc1+", "pin", False),
    # Qxf5 exf5 Rxe2: the rook on e8 takes along the file the queen left (one move on)
    ("r3r1k1/1ppb1pp1/p3qP1p/2p2R2/2P1P3/8/PBP1Q1PP/3R2K1 b - - 2 19", "Qxf5",
     "discovered_attack", True),
    # Rxf2 Rxf2 Bxe3: a defender taken and taken back, then a trade: no decoy
    ("5r1k/bp1R4/p1p3p1/4p2p/7P/2P1NrP1/PP2RP2/6K1 b - - 2 29", "Rxf2", "decoy", False),
])
def test_issue_24_tuning_puzzles(fen: str, san: str, tag: str, named: bool) -> None:
    """Puzzles of the tuning half that issue 24's second round changed (pin, discovered
    attack, decoy), each tagged as Lichess tags it."""
    assert (tag in motifs(fen, san)) is named
    if named:
        assert describe_motifs(fen, san, lang="en")


def test_a_discovered_attack_that_comes_after_the_reply_says_so() -> None:
    """31.12 Qxf5: the rook on e8 reaches the queen on e2 only after exf5 opens the e-file."""
    board = "r3r1k1/1ppb1pp1/p3qP1p/2p2R2/2P1P3/8/PBP1Q1PP/3R2K1 b - - 2 19"
    assert describe_motifs(board, "Qxf5", lang="en", hanging=False) == (
        "Qxf5 is a discovered attack: after exf5, the rook on e8 can take the queen on e2.")
