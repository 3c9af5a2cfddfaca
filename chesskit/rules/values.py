"""What the pieces are worth: the values 1 3 3 5 9 the course teaches, and material counts.

One home for these numbers: the search, the tactics, the opponents and the exercises use them.

>>> material(chess.Board(), chess.WHITE), balance(chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"))
(39, 5)
"""

from __future__ import annotations

import chess

VALUES: dict[chess.PieceType, int] = {
    chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0,
}
"""The value of each piece in pawns; the king is never counted as material."""
KING_WORTH = 100
"""The king's worth when targets are compared: more than everything else together."""


def worth(piece_type: chess.PieceType) -> int:
    """The value of a piece for comparing targets; the king is worth more than everything.

    >>> worth(chess.ROOK), worth(chess.KING) > worth(chess.QUEEN)
    (5, True)
    """
    return KING_WORTH if piece_type == chess.KING else VALUES[piece_type]


def material(board: chess.BaseBoard, color: chess.Color) -> int:
    """The material of one side.

    >>> material(chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), chess.BLACK)
    0
    """
    return sum(value * chess.popcount(board.pieces_mask(piece, color))
               for piece, value in VALUES.items() if value)


def balance(board: chess.BaseBoard) -> int:
    """White's material minus Black's.

    >>> balance(chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"))
    5
    """
    white, black = board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK]
    masks = (board.pawns, board.knights, board.bishops, board.rooks, board.queens)
    return sum(VALUES[piece] * ((mask & white).bit_count() - (mask & black).bit_count())
               for piece, mask in zip(chess.PIECE_TYPES, masks, strict=False))
