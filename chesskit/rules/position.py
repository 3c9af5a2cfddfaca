"""Reading positions: a FEN, a placement, a ``chess.Board`` or a kingless drill diagram.

>>> to_board("8/8/8/8/3R4/8/8/8").piece_at(chess.D4)
Piece.from_symbol('R')
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from chesskit.errors import PositionError
from chesskit.i18n import color_name, get_language, piece_on, t

Position = str | chess.BaseBoard

_START_WORDS = frozenset({"start", "startpos", "initial"})
_KING_BITS = chess.STATUS_NO_WHITE_KING | chess.STATUS_NO_BLACK_KING | chess.STATUS_EMPTY


def _count_word(count: int, lang: str | None) -> str:
    """``2`` -> ``"two"`` / ``"两"`` for small counts, digits above ten."""
    words = t("position.numbers", lang=lang).split()
    return words[count] if 0 <= count < len(words) else str(count)


def _too_many(color: chess.Color, key: str, mask: chess.Bitboard,
              lang: str | None) -> str:
    return t(f"position.{key}", lang=lang, side=color_name(color, lang=lang),
             count=_count_word(chess.popcount(mask), lang))


def _problems(board: chess.Board, status: chess.Status, lang: str | None) -> list[str]:
    """One sentence for each problem flagged in ``status``, in the order of the bits."""
    problems: list[str] = []
    for color, flag in ((chess.WHITE, chess.STATUS_NO_WHITE_KING),
                        (chess.BLACK, chess.STATUS_NO_BLACK_KING)):
        if status & flag:
            problems.append(t("position.no_king", lang=lang, side=color_name(color, lang=lang)))
    if status & chess.STATUS_TOO_MANY_KINGS:
        kings = {c: board.pieces_mask(chess.KING, c) for c in chess.COLORS}
        problems += [_too_many(c, "too_many_kings", kings[c], lang)
                     for c in (chess.WHITE, chess.BLACK) if chess.popcount(kings[c]) > 1]
    for color, flag in ((chess.WHITE, chess.STATUS_TOO_MANY_WHITE_PAWNS),
                        (chess.BLACK, chess.STATUS_TOO_MANY_BLACK_PAWNS)):
        if status & flag:
            problems.append(_too_many(color, "too_many_pawns",
                                      board.pieces_mask(chess.PAWN, color), lang))
    if status & chess.STATUS_PAWNS_ON_BACKRANK:
        square = chess.lsb(board.pawns & chess.BB_BACKRANKS)
        problems.append(t("position.pawn_on_backrank", lang=lang,
                          piece=piece_on(chess.PAWN, square, lang=lang)))
    for color, flag in ((chess.WHITE, chess.STATUS_TOO_MANY_WHITE_PIECES),
                        (chess.BLACK, chess.STATUS_TOO_MANY_BLACK_PIECES)):
        if status & flag:
            problems.append(_too_many(color, "too_many_pieces", board.occupied_co[color],
                                      lang))
    if status & chess.STATUS_INVALID_EP_SQUARE and board.ep_square is not None:
        problems.append(t("position.bad_ep", lang=lang,
                          square=chess.square_name(board.ep_square)))
    if status & chess.STATUS_OPPOSITE_CHECK:
        problems.append(t("position.opposite_check_" + ("white" if board.turn else "black"),
                          lang=lang))
    if status & (chess.STATUS_TOO_MANY_CHECKERS | chess.STATUS_IMPOSSIBLE_CHECK):
        problems.append(t("position.impossible_check", lang=lang,
                          side=color_name(board.turn, lang=lang)))
    return problems


def _parse(position: object, lang: str | None) -> chess.Board:
    if isinstance(position, chess.Board):
        return position.copy()
    if isinstance(position, chess.BaseBoard):
        return chess.Board(position.board_fen())
    if not isinstance(position, str) or not position.strip():
        raise PositionError(t("position.not_a_position", lang=lang, value=repr(position)[:60]))
    text = position.strip()
    if text.lower() in _START_WORDS:
        return chess.Board()
    try:
        return chess.Board(text)
    except ValueError:
        raise PositionError(t("position.bad_fen", lang=lang, fen=text[:80])) from None


@dataclass(frozen=True)
class ReadPosition:
    """A position as read by :func:`read_position`: the board and what was changed to make it
    playable (one sentence each; empty when nothing was)."""

    board: chess.Board
    notes: tuple[str, ...] = ()


def _right_letter(rook: chess.Square) -> str:
    """The FEN letter of a castling right given by its rook square (g1 or h1: ``K``)."""
    letter = "K" if chess.square_file(rook) > 4 else "Q"
    return letter if chess.square_rank(rook) == 0 else letter.lower()


def _drop_impossible_rights(board: chess.Board, lang: str | None) -> tuple[str, ...]:
    """Remove castling rights whose king or rook is not on its starting square (as Lichess
    does); one note naming the rights dropped, e.g. ``"KQ"``."""
    kept = board.clean_castling_rights()
    if kept == board.castling_rights:
        return ()
    lost = chess.SquareSet(board.castling_rights & ~kept)
    dropped = "".join(sorted((_right_letter(s) for s in lost), key="KQkq".find))
    board.castling_rights = kept
    key = "castling_dropped_one" if len(dropped) == 1 else "castling_dropped_many"
    return (t(f"position.{key}", lang=lang, rights=dropped),)


def read_position(position: Position, *, allow_drill: bool = True, lang: str | None = None
                  ) -> ReadPosition:
    """The board for a FEN (full or placement only), ``"start"`` or a board (copied), with
    notes on what was repaired: castling rights that do not fit the pieces are dropped.

    A drill diagram where a side has no king ("8/8/8/8/3R4/8/8/8") is allowed unless
    ``allow_drill=False``; every other problem raises ``PositionError`` with a sentence.

    >>> read = read_position("4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1", lang="en")
    >>> read.board.fen()
    '4k3/8/8/8/8/8/8/4K2R w K - 0 1'
    >>> read.notes[0]
    'The castling rights Qk were dropped: their king or rook is not on its starting square.'
    """
    board = _parse(position, lang)
    notes = _drop_impossible_rights(board, get_language(lang))
    status = board.status()
    if allow_drill:
        status &= ~_KING_BITS
    problems = _problems(board, status, get_language(lang))
    if problems:
        raise PositionError(" ".join(problems))
    return ReadPosition(board, notes)


def to_board(position: Position, *, allow_drill: bool = True, lang: str | None = None
             ) -> chess.Board:
    """:func:`read_position` without the notes: a new ``chess.Board``; castling rights that do
    not fit the pieces are dropped silently.

    >>> to_board("4k3/8/8/8/8/8/8/4K2R").fen()
    '4k3/8/8/8/8/8/8/4K2R w - - 0 1'
    >>> to_board("4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1").fen()
    '4k3/8/8/8/8/8/8/4K2R w K - 0 1'
    """
    return read_position(position, allow_drill=allow_drill, lang=lang).board


def is_drill(board: chess.BaseBoard) -> bool:
    """True for a drill diagram: a side has no king, so it is not a game position.

    >>> is_drill(chess.Board("8/8/8/8/3R4/8/8/8"))
    True
    """
    return board.king(chess.WHITE) is None or board.king(chess.BLACK) is None


PositionKey = tuple[int, int, int, int, int, int, int, int, bool, int, int | None]
"""What makes two positions the same for repetition: pieces, side to move, rights, en passant."""


def position_key(board: chess.Board) -> PositionKey:
    """A hashable key equal for two boards exactly when they are the same position in the sense
    of the repetition rule (the pieces, the side to move, the castling rights, and an en passant
    capture only when one is legal). Built from python-chess's public fields, it is what its
    private ``Board._transposition_key`` returns, at the same speed.

    >>> a = chess.Board()
    >>> for san in ("Nf3", "Nf6", "Ng1", "Ng8"):
    ...     _ = a.push_san(san)
    >>> position_key(a) == position_key(chess.Board()), position_key(a) == position_key(
    ...     chess.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"))
    (True, False)
    """
    return (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
            board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK], board.turn,
            board.clean_castling_rights(),
            board.ep_square if board.has_legal_en_passant() else None)
