"""A child's path through the solo drills: each drill's example shows its own piece, and a
castling drill has both kings (issue 22)."""

from __future__ import annotations

import chess
import pytest

from chesskit.exercises import catalog
from chesskit.exercises.route import HOW_EXAMPLES


@pytest.mark.parametrize("piece", sorted(HOW_EXAMPLES))
def test_each_example_is_two_moves_of_its_piece(piece: chess.PieceType) -> None:
    san, uci = HOW_EXAMPLES[piece]
    moves = [chess.Move.from_uci(u) for u in uci.split()]
    board = chess.Board(None)
    board.set_piece_at(moves[0].from_square, chess.Piece(piece, chess.WHITE))
    written = []
    for move in moves:
        assert board.piece_type_at(move.from_square) == piece
        written.append(board.san(move))
        board.push(move)
        board.push(chess.Move.null())
    assert " ".join(written) == san


@pytest.mark.parametrize(("item", "piece"), [("02.40", chess.ROOK), ("02.42", chess.BISHOP),
                                             ("03.41", chess.KNIGHT), ("03.40", chess.QUEEN)])
@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
def test_a_star_drill_shows_its_own_piece(item: str, piece: chess.PieceType, lang: str) -> None:
    prompt = catalog.exercise(item).prompt_text(lang=lang)
    san, uci = HOW_EXAMPLES[piece]
    assert san in prompt and uci in prompt
    others = [s for p, (s, _) in HOW_EXAMPLES.items() if p != piece]
    assert not any(s in prompt for s in others)


def test_the_castling_drill_has_a_black_king_and_refuses_a_check() -> None:
    ex = catalog.exercise("07.40")
    assert ex.position.king(chess.BLACK) is not None and ex.position.is_valid()
    assert ex.spec.verify(ex) == [] and ex.check("Ne2 O-O").correct
    refused = ex.check("Rh8")
    assert not refused.correct and "check" in refused.message
