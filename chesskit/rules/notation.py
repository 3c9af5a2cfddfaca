"""Reading moves the way learners write them: SAN, long algebraic, UCI, figurines, Chinese.

>>> read_move("start", "马f3").uci()
'g1f3'
>>> normalize_move_text("♘ｆ３+!")
'Nf3'
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

import chess

from chesskit.errors import MoveError
from chesskit.rules.position import Position, to_board

MAX_TEXT = 64
"""Longer texts are never a move; they are refused before any other work."""

_WORDS = (  # longest first: castling words contain piece names
    ("短王车易位", "O-O"), ("长王车易位", "O-O-O"), ("短王車易位", "O-O"), ("長王車易位", "O-O-O"),
    ("短易位", "O-O"), ("长易位", "O-O-O"), ("長易位", "O-O-O"),
    ("皇后", "Q"), ("国王", "K"), ("國王", "K"), ("城堡", "R"), ("主教", "B"),
    ("骑士", "N"), ("騎士", "N"), ("吃", "x"),
)
_CHARS = str.maketrans({
    "王": "K", "后": "Q", "後": "Q", "车": "R", "車": "R", "象": "B", "马": "N", "馬": "N",
    "兵": "P",
    "♔": "K", "♕": "Q", "♖": "R", "♗": "B", "♘": "N", "♙": "P",
    "♚": "K", "♛": "Q", "♜": "R", "♝": "B", "♞": "N", "♟": "P",
    "×": "x", "X": "x", "。": None, "–": "-", "—": "-", "‐": "-", "‑": "-", "−": "-",
    "\ufe0f": None, "\u200b": None,
})
_MOVE_NUMBER = re.compile(r"^\d+\.+")
_TRAILER = re.compile(r"(?:\(?e\.?p\.?\)?|[+#!?†‡.])*$", re.IGNORECASE)
_CASTLE = re.compile(r"^[O0o]-?[O0o](-?[O0o])?$")
_UPPER_FILE = re.compile(r"[A-H](?=[1-8])")
_BISHOP_RANK = re.compile(r"^B[1-8][x:-]?[a-h][1-8]")  # B4f3: a bishop from the 4th rank
_PROMOTION = re.compile(r"([a-h][1-8])=?\(?([QRBNKPqrbnkp])\)?$")
_LEAD_PIECE = re.compile(r"^[nrqkp](?=[a-h1-8x:-])")
_SAN = re.compile(
    r"^(?P<piece>[KQRBNP])?(?P<file>[a-h])?(?P<rank>[1-8])?(?P<sep>[x:-])?"
    r"(?P<to>[a-h][1-8])(?:=(?P<promotion>[KQRBNP]))?$"
)


@dataclass(frozen=True)
class MoveIntent:
    """What a text asks for, before the rules are applied: piece, from-hints, target, promotion.

    ``piece`` is None when the text names a full from-square without a letter (UCI);
    ``castle`` is ``"short"`` or ``"long"`` for O-O / O-O-O (then ``to_square`` is None).

    >>> intents("Nbd2")[0].from_file
    1
    """

    to_square: chess.Square | None
    piece: chess.PieceType | None = None
    from_file: int | None = None
    from_rank: int | None = None
    promotion: chess.PieceType | None = None
    castle: str | None = None
    text: str = ""
    """The plain spelling this intent was read from (``normalize_move_text``)."""

    @property
    def from_square(self) -> chess.Square | None:
        """The from-square when the text names it fully (``g1f3``, ``Ng1-f3``)."""
        if self.from_file is None or self.from_rank is None:
            return None
        return chess.square(self.from_file, self.from_rank)

    def matches(self, board: chess.Board, move: chess.Move) -> bool:
        """Whether the (legal) ``move`` is what this intent asks for."""
        if self.castle is not None:
            return board.is_castling(move) and (
                board.is_kingside_castling(move) == (self.castle == "short"))
        if move.promotion != self.promotion:
            return False
        if self.from_file is not None and chess.square_file(move.from_square) != self.from_file:
            return False
        if self.from_rank is not None and chess.square_rank(move.from_square) != self.from_rank:
            return False
        if self.piece is not None and board.piece_type_at(move.from_square) != self.piece:
            return False
        return move.to_square == self.to_square or self._is_king_takes_rook(board, move)

    def _is_king_takes_rook(self, board: chess.Board, move: chess.Move) -> bool:
        """``e1h1``: castling written as the king capturing its own rook."""
        return (self.to_square is not None and board.is_castling(move)
                and self.from_square == move.from_square
                and board.piece_type_at(self.to_square) == chess.ROOK
                and board.color_at(self.to_square) == board.turn
                and (chess.square_file(self.to_square) > chess.square_file(move.from_square))
                == board.is_kingside_castling(move))


def normalize_move_text(text: str) -> str:
    """The plain ASCII spelling of a move text: piece letters, O-O, ``=Q``, no marks or spaces.

    Full-width characters, figurines and Chinese piece names become letters; check, mate,
    ``!``/``?`` and ``e.p.`` marks and move numbers are dropped.  A lowercase ``b`` stays, as
    it may be a file; capital files become small (``E2E4``) except the bishop of ``B4f3``.
    Texts longer than ``MAX_TEXT`` characters come back unchanged.

    >>> normalize_move_text("0-0-0+"), normalize_move_text("e8q"), normalize_move_text("後xf7#")
    ('O-O-O', 'e8=Q', 'Qxf7')
    """
    if len(text) > MAX_TEXT:
        return text
    out = unicodedata.normalize("NFKC", text)
    for word, letter in _WORDS:
        out = out.replace(word, letter)
    out = _MOVE_NUMBER.sub("", "".join(out.translate(_CHARS).split()))
    out = _TRAILER.sub("", out)
    if _CASTLE.match(out):
        return "O-O-O" if len(out.replace("-", "")) == 3 else "O-O"
    lead = "B" if _BISHOP_RANK.match(out) else ""
    out = lead + _UPPER_FILE.sub(lambda m: m.group().lower(), out[len(lead):])
    out = _PROMOTION.sub(lambda m: f"{m.group(1)}={m.group(2).upper()}", out)
    return _LEAD_PIECE.sub(lambda m: m.group().upper(), out)


def _intent(match: re.Match[str]) -> MoveIntent:
    letter, file, rank = match["piece"], match["file"], match["rank"]
    full_from = file is not None and rank is not None
    piece = (chess.PIECE_SYMBOLS.index(letter.lower()) if letter
             else None if full_from else chess.PAWN)
    promotion, to_square = match["promotion"], chess.parse_square(match["to"])
    if file is None and piece == chess.PAWN and match["sep"] not in ("x", ":"):
        file = match["to"][0]  # a pawn that does not capture stays on its file
    return MoveIntent(
        to_square=to_square,
        piece=piece,
        from_file=None if file is None else ord(file) - ord("a"),
        from_rank=None if rank is None else int(rank) - 1,
        promotion=chess.PIECE_SYMBOLS.index(promotion.lower()) if promotion else None,
        text=match.string,
    )


def intents(text: object) -> tuple[MoveIntent, ...]:
    """Every reading of a move text, the likeliest first; raises ``MoveError("unparseable")``.

    A leading lowercase ``b`` is read as the b-file first, then as a bishop; ``B4f3`` as a
    bishop from the 4th rank first, then as the square b4.

    >>> [i.piece for i in intents("bxc3")]
    [1, 3]
    >>> [(i.piece, i.from_file, i.from_rank) for i in intents("B4f3")]
    [(3, None, 3), (None, 1, 3)]
    """
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise MoveError("unparseable", "This text is not a move.")
    plain = normalize_move_text(text)
    if plain in ("O-O", "O-O-O"):
        return (MoveIntent(None, piece=chess.KING, castle="short" if plain == "O-O" else "long"),)
    bishop = plain.startswith("b") and not plain[1:2].isdigit()  # b1c3 is a from-square
    spellings = ([plain, "B" + plain[1:]] if bishop
                 else [plain, "b" + plain[1:]] if _BISHOP_RANK.match(plain) else [plain])
    found = tuple(_intent(m) for m in map(_SAN.match, spellings) if m is not None)
    if not found:
        raise MoveError("unparseable", f"{text!r} is not a move.")
    return found


def legal_matches(board: chess.Board, readings: tuple[MoveIntent, ...]) -> list[chess.Move]:
    """The legal moves of the first reading that has any (sorted by UCI), else ``[]``.

    A small ``b`` that is not how SAN writes the pawn move (``bb3``, not ``b3`` or ``bxc3``)
    means the pawn or the bishop: when both can go, the moves of both come back (ambiguous).

    >>> board = chess.Board("4k3/8/8/8/8/8/1P6/3BK3 w - - 0 1")
    >>> [m.uci() for m in legal_matches(board, intents("bb3"))]
    ['b2b3', 'd1b3']
    """
    legal = list(board.legal_moves)
    found = [sorted((m for m in legal if r.matches(board, m)), key=chess.Move.uci)
             for r in readings]
    first = next((moves for moves in found if moves), [])
    if (len(readings) == 2 and readings[1].piece == chess.BISHOP and all(found)
            and readings[0].text not in {board.san(m).rstrip("+#") for m in found[0]}):
        return sorted(found[0] + found[1], key=chess.Move.uci)
    return first



def read_move(position: Position, text: str) -> chess.Move:
    """The legal move a learner's text means in ``position``; raises ``MoveError(code)``.

    The code and message are those of ``explain_move`` (``unparseable``, ``ambiguous``,
    ``pinned``, ...).

    >>> read_move("start", "ｅ２－ｅ４").uci()
    'e2e4'
    """
    board = to_board(position)
    moves = legal_matches(board, intents(text))
    if len(moves) == 1:
        return moves[0]
    from chesskit.rules.explain import explain_move  # noqa: PLC0415 (a cycle: explain imports this)

    verdict = explain_move(board, text)
    raise MoveError(verdict.code, verdict.message)
