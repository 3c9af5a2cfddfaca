"""to_board: FENs, placements, boards, drill diagrams and every Board.status() problem in words."""

from __future__ import annotations

import tomllib
from importlib import resources

import chess
import pytest

from chesskit.errors import PositionError
from chesskit.rules.position import is_drill, read_position, to_board

START = chess.STARTING_FEN


def _error(position: str, lang: str = "en") -> str:
    with pytest.raises(PositionError) as info:
        to_board(position, lang=lang)
    return str(info.value)


def test_full_fen_placement_and_start_word() -> None:
    assert to_board(START).fen() == START
    placement = chess.STARTING_BOARD_FEN
    assert to_board(placement).board_fen() == placement
    assert to_board("8/8/8/8/8/8/8/4K2k").turn == chess.WHITE
    assert to_board("start").fen() == START


def test_board_is_copied_with_its_moves() -> None:
    original = chess.Board()
    original.push_san("e4")
    copy = to_board(original)
    copy.push_san("e5")
    assert len(original.move_stack) == 1
    assert copy.move_stack[0] == chess.Move.from_uci("e2e4")


def test_drill_positions_are_allowed() -> None:
    for placement in ("8/8/8/8/3R4/8/8/8", "8/8/8/8/8/8/8/8", "8/8/8/8/3K4/8/8/8"):
        board = to_board(placement)
        assert is_drill(board)
    assert not is_drill(to_board(START))


def test_drill_refused_when_asked() -> None:
    with pytest.raises(PositionError, match="Black has no king."):
        to_board("8/8/8/8/3K4/8/8/8", allow_drill=False)


@pytest.mark.parametrize(("fen", "message"), [
    ("4k3/8/8/8/8/8/8/2k1K3 w - - 0 1", "Black has two kings."),
    ("4k3/8/8/8/8/8/8/K3K3 w - - 0 1", "White has two kings."),
    ("4k3/8/8/8/8/8/8/4K2P w - - 0 1", "The pawn on h1 stands on the first or last rank"),
    ("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "Black has nine pawns"),
    ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "En passant on e3"),
    ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "The side not to move is in check."),
    ("4k3/8/8/8/8/2n1n3/8/1r1K4 w - - 0 1", "in a way no legal move can make"),
    ("not a fen", "This is not a FEN"),
    ("", "is not a position"),
])
def test_problems_in_words(fen: str, message: str) -> None:
    assert message in _error(fen)


@pytest.mark.parametrize(("fen", "kept", "note"), [
    ("4k3/8/8/8/8/8/8/4K2R w KQ - 0 1", "K", "The castling right Q was dropped"),
    ("r3k3/8/8/8/8/8/8/4K1R1 w KQkq - 0 1", "q", "The castling rights KQk were dropped"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "KQkq", None),
])
def test_castling_rights_that_do_not_fit_are_dropped_with_a_note(
        fen: str, kept: str, note: str | None) -> None:
    read = read_position(fen, lang="en")
    assert read.board.castling_xfen() == kept
    assert read.board.status() == chess.STATUS_VALID
    assert read.notes == (() if note is None else (read.notes[0],))
    assert note is None or read.notes[0].startswith(note)
    assert to_board(fen).fen() == read.board.fen()
    if note is not None:
        assert "王车易位" in read_position(fen, lang="zh-Hans").notes[0]


def test_dropped_rights_keep_the_legal_castling() -> None:
    board = to_board("4k3/8/8/8/8/8/8/4K2R w KQ - 0 1")
    assert board.is_legal(chess.Move.from_uci("e1g1"))


def test_too_many_pieces() -> None:
    board = chess.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    for square in range(8, 24):
        board.set_piece_at(square, chess.Piece(chess.KNIGHT, chess.WHITE))
    assert "White has 17 pieces" in _error(board.fen())


def test_messages_in_chinese() -> None:
    assert _error("4k3/8/8/8/8/8/8/2k1K3 w - - 0 1", "zh-Hans") == "黑方有两个王。"
    assert _error("4k3/8/8/8/8/8/8/2k1K3 w - - 0 1", "zh-Hant") == "黑方有兩個王。"
    assert "将军" in _error("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "zh-Hans")


def test_not_a_string() -> None:
    with pytest.raises(PositionError):
        to_board(42)  # type: ignore[arg-type]


def test_locale_pair_has_same_keys() -> None:
    for module in ("position", "diagram", "render", "openings"):
        files = [tomllib.loads((resources.files("chesskit") / "locale" / lang / f"{module}.toml")
                               .read_text(encoding="utf-8")) for lang in ("en", "zh-Hans")]
        assert files[0].keys() == files[1].keys(), module
