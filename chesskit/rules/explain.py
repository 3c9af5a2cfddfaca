"""Why a move is legal or not, in one sentence for a beginner naming pieces and squares.

The text is read into what the learner meant (piece, from-square, target) even when the move is
illegal; python-chess then says what stands in the way (attacks, pins, checks, rights).

>>> explain_move("start", "Bh6", lang="en").message
'The bishop on c1 cannot get past the pawn on d2.'
"""

from __future__ import annotations

from dataclasses import dataclass, field

import chess

from chesskit.errors import MoveError, PositionError
from chesskit.i18n import get_language, join_words, piece_name, piece_on, t
from chesskit.rules.notation import MoveIntent, intents, legal_matches
from chesskit.rules.position import Position, is_drill, to_board

CODES = (
    "ok", "unparseable", "ambiguous", "game_over", "no_piece", "wrong_side", "own_piece",
    "bad_geometry", "blocked", "king_into_check", "pinned", "in_check", "castle_rights_lost",
    "castle_blocked", "castle_in_check", "castle_through_check", "castle_into_check",
    "en_passant_expired", "promotion_required", "bad_promotion", "bad_position",
)
_STAGE = {  # how far a candidate piece got: the furthest one is the one to talk about
    "no_piece": 0, "wrong_side": 0, "own_piece": 1, "bad_geometry": 1, "blocked": 2,
    "en_passant_expired": 2, "king_into_check": 3, "pinned": 3, "in_check": 3,
    "promotion_required": 4, "bad_promotion": 4,
}
_SHOWN_TEXT = 20


@dataclass(frozen=True)
class Verdict:
    """What ``explain_move`` says: legal or not, the reason code, one sentence, the squares.

    ``move`` and ``san`` are set exactly when the move is legal.

    >>> explain_move("start", "e4").san
    'e4'
    """

    legal: bool
    code: str
    message: str
    move: chess.Move | None = None
    san: str | None = None
    squares: tuple[chess.Square, ...] = ()

    def __str__(self) -> str:
        return self.message

    def _repr_markdown_(self) -> str:
        return f"{'✓' if self.legal else '✗'} {self.message}"


@dataclass(frozen=True)
class _Reason:
    code: str
    key: str
    squares: tuple[chess.Square, ...]
    fields: dict[str, str] = field(default_factory=dict)


class _Namer:
    """Names pieces and squares of one board in one language."""

    def __init__(self, board: chess.Board, lang: str) -> None:
        self.board, self.lang = board, lang

    def on(self, square: chess.Square) -> str:
        """``"the bishop on c1"`` for the piece standing on ``square``."""
        return piece_on(self.board.piece_type_at(square) or chess.PAWN, square, lang=self.lang)

    def all_on(self, mask: chess.Bitboard) -> str:
        return join_words([self.on(s) for s in chess.SquareSet(mask)], lang=self.lang)

    def piece(self, piece_type: chess.PieceType) -> str:
        return piece_name(piece_type, lang=self.lang)

    def side(self, color: chess.Color) -> str:
        return t("explain.white" if color else "explain.black", lang=self.lang)

    def rule(self, key: str) -> str:
        return t(f"explain.rule_{key}", lang=self.lang)


def _language(lang: str | None) -> str:
    try:
        return get_language(lang)
    except ValueError:
        return get_language(None)


def _readings(text_or_move: object) -> tuple[MoveIntent, ...]:
    if isinstance(text_or_move, chess.Move):
        move = text_or_move
        if not move or move.drop:
            raise MoveError("unparseable")
        return (MoveIntent(move.to_square, from_file=chess.square_file(move.from_square),
                           from_rank=chess.square_rank(move.from_square),
                           promotion=move.promotion),)
    return intents(text_or_move)


def _unparseable(text: object) -> _Reason:
    if isinstance(text, str) and not text.strip():
        return _Reason("unparseable", "unparseable_empty", ())
    if isinstance(text, str) and len(text) <= _SHOWN_TEXT and text.isprintable():
        return _Reason("unparseable", "unparseable", (), {"text": text.strip()})
    return _Reason("unparseable", "unparseable_any", ())


def _game_over(board: chess.Board, names: _Namer) -> _Reason | None:
    """Mate, stalemate, or an automatic draw (fivefold repetition, 75 moves). A position with
    too little material to mate is still explained move by move: lessons use such positions
    to teach how a piece moves."""
    outcome = None if is_drill(board) else board.outcome()
    if outcome is None or outcome.termination == chess.Termination.INSUFFICIENT_MATERIAL:
        return None
    if outcome.termination == chess.Termination.CHECKMATE:
        king = board.king(board.turn)
        return _Reason("game_over", "game_over_mate", () if king is None else (king,),
                       {"side": names.side(board.turn)})
    key = {chess.Termination.STALEMATE: "game_over_stalemate"}
    return _Reason("game_over", key.get(outcome.termination, "game_over_draw"), ())


def _ambiguous(board: chess.Board, moves: list[chess.Move], names: _Namer) -> _Reason:
    froms = sorted({m.from_square for m in moves})
    to_square = moves[0].to_square
    pawns = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN]
    bishops = [m for m in moves if board.piece_type_at(m.from_square) == chess.BISHOP]
    if pawns and bishops and len(pawns) + len(bishops) == len(moves):  # "bb3"
        return _Reason("ambiguous", "ambiguous_b", (*froms, to_square), {
            "pawn": board.san(pawns[0]), "pawn_square": chess.square_name(pawns[0].from_square),
            "bishop": board.san(bishops[0]),
            "bishop_square": chess.square_name(bishops[0].from_square)})
    return _Reason("ambiguous", "ambiguous", (*froms, to_square), {
        "square": chess.square_name(to_square),
        "pieces": join_words([names.on(s) for s in froms], lang=names.lang),
        "example": board.san(moves[0])})


def _candidates(board: chess.Board, reading: MoveIntent, color: chess.Color) -> list[int]:
    """Squares of ``color``'s pieces that fit the piece letter and from-hints of the text."""
    mask = (board.occupied_co[color] if reading.piece is None
            else board.pieces_mask(reading.piece, color))
    if reading.from_file is not None:
        mask &= chess.BB_FILES[reading.from_file]
    if reading.from_rank is not None:
        mask &= chess.BB_RANKS[reading.from_rank]
    return list(chess.SquareSet(mask))


def _reach(piece: chess.Piece, square: chess.Square) -> chess.Bitboard:
    """Where the piece could go on an empty board (pawn: its captures and pushes)."""
    kind = piece.piece_type
    if kind == chess.PAWN:
        step = 8 if piece.color else -8
        pushes = chess.BB_SQUARES[square + step] if 0 <= square + step < 64 else 0
        return chess.BB_PAWN_ATTACKS[piece.color][square] | pushes
    if kind == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    if kind == chess.KING:
        return chess.BB_KING_ATTACKS[square]
    lines = chess.BB_RANK_ATTACKS[square][0] | chess.BB_FILE_ATTACKS[square][0]
    diagonals = chess.BB_DIAG_ATTACKS[square][0]
    return {chess.BISHOP: diagonals, chess.ROOK: lines}.get(kind, lines | diagonals)


def _wrong_side(board: chess.Board, square: chess.Square, names: _Namer, *,
                key: str = "wrong_side", reading: MoveIntent | None = None) -> _Reason:
    fields = {"piece": names.on(square), "owner": names.side(not board.turn),
              "mover": names.side(board.turn)}
    if reading is not None and reading.to_square is not None:
        fields.update(square=chess.square_name(reading.to_square),
                      kind=names.piece(reading.piece or chess.PAWN))
    return _Reason("wrong_side", key, (square,), fields)


def _their_movers(board: chess.Board, reading: MoveIntent) -> list[chess.Square]:
    """The opponent's pieces that could make the move the text asks for if it were their turn."""
    theirs = board.copy(stack=False)
    theirs.turn = not board.turn
    theirs.ep_square = None
    return sorted({m.from_square for m in legal_matches(theirs, (reading,))})


def _missing(board: chess.Board, reading: MoveIntent, names: _Namer) -> _Reason:
    """The side to move has no piece that fits the text."""
    assert reading.to_square is not None
    target = chess.square_name(reading.to_square)
    start = reading.from_square
    if start is not None:
        piece = board.piece_at(start)
        if piece is None:
            return _Reason("no_piece", "no_piece_on", (start,),
                           {"square": chess.square_name(start)})
        if reading.piece not in (None, piece.piece_type):
            return _Reason("no_piece", "no_piece_type_on", (start,), {
                "square": chess.square_name(start), "piece": names.piece(reading.piece)})
    if start is not None and board.color_at(start) == (not board.turn):
        return _wrong_side(board, start, names)
    theirs = _their_movers(board, reading)
    if theirs:
        return _wrong_side(board, theirs[0], names)
    return _Reason("no_piece", "no_piece_none", (reading.to_square,),
                   {"square": target, "piece": names.piece(reading.piece or chess.PAWN)})


def _rights_lost(king_from: chess.Square, rook_from: chess.Square, short: bool,
                 names: _Namer) -> _Reason:
    return _Reason("castle_rights_lost", "castle_rights_lost", (king_from, rook_from), {
        "side": t("explain.castle_short" if short else "explain.castle_long", lang=names.lang),
        "rook": piece_on(chess.ROOK, rook_from, lang=names.lang)})


def _castle(board: chess.Board, short: bool, names: _Namer,
            to_square: chess.Square | None = None) -> _Reason:
    """Why castling on one side is not allowed now (pieces, rights, path, check), or, for a
    king move to ``to_square`` that stands for a legal castling, how to write it."""
    color = board.turn
    rank = 0 if color else 7
    king_from = chess.square(4, rank)
    rook_from = chess.square(7 if short else 0, rank)
    through = chess.square(5 if short else 3, rank)
    king_to = chess.square(6 if short else 2, rank)
    rights = (board.has_kingside_castling_rights(color) if short
              else board.has_queenside_castling_rights(color))
    side = t("explain.castle_short" if short else "explain.castle_long", lang=names.lang)
    if board.piece_at(rook_from) != chess.Piece(chess.ROOK, color):
        return _Reason("castle_rights_lost", "castle_no_rook", (rook_from,),
                       {"side": side, "square": chess.square_name(rook_from)})
    if board.king(color) != king_from:
        return _Reason("castle_rights_lost", "castle_king_moved", (king_from,),
                       {"square": chess.square_name(king_from)})
    if not rights:
        return _rights_lost(king_from, rook_from, short, names)
    blockers = chess.between(king_from, rook_from) & board.occupied
    if blockers:
        return _Reason("castle_blocked", "castle_blocked", tuple(chess.SquareSet(blockers)),
                       {"blockers": names.all_on(blockers)})
    checkers = board.checkers()
    if checkers:
        return _Reason("castle_in_check", "castle_in_check", (king_from, *checkers),
                       {"checker": names.all_on(checkers.mask)})
    for code, square in (("castle_through_check", through), ("castle_into_check", king_to)):
        attackers = board.attackers(not color, square)
        if attackers:
            return _Reason(code, code, (square, *attackers), {
                "square": chess.square_name(square), "attacker": names.all_on(attackers.mask)})
    castling = next((m for m in board.generate_castling_moves()
                     if board.is_kingside_castling(m) == short), None)
    if castling is not None and to_square is not None:
        return _Reason("bad_geometry", "castle_written_as_king_move", (king_from, to_square), {
            "mover": names.on(king_from), "square": chess.square_name(to_square),
            "rule": names.rule("king"), "side": side, "san": board.san(castling)})
    return _rights_lost(king_from, rook_from, short, names)  # rules python-chess adds


def _is_castle_attempt(board: chess.Board, start: chess.Square, to_square: chess.Square) -> bool:
    """A king on e1/e8 going two squares sideways, or onto its own rook on that rank."""
    rank = 0 if board.turn else 7
    if start != chess.square(4, rank) or chess.square_rank(to_square) != rank:
        return False
    own_rook = (board.piece_type_at(to_square) == chess.ROOK
                and board.color_at(to_square) == board.turn)
    return chess.square_file(to_square) in (2, 6) or own_rook


def _nearest(start: chess.Square, mask: chess.Bitboard, to_square: chess.Square) -> int:
    """The square of ``mask`` closest to ``start`` on the way to ``to_square``."""
    return chess.lsb(mask) if to_square > start else chess.msb(mask)


def _pawn_geometry(board: chess.Board, start: chess.Square, to_square: chess.Square,
                   names: _Namer) -> _Reason | None:
    white = board.turn == chess.WHITE
    files = chess.square_file(to_square) - chess.square_file(start)
    ranks = (chess.square_rank(to_square) - chess.square_rank(start)) * (1 if white else -1)
    mover = names.on(start)
    squares = (start, to_square)
    if ranks <= 0:
        return _Reason("bad_geometry", "bad_geometry", squares, {
            "mover": mover, "square": chess.square_name(to_square),
            "rule": names.rule("pawn_back" if ranks < 0 else "pawn_side")})
    if files == 0 and ranks <= 2:
        if ranks == 2 and chess.square_rank(start) != (1 if white else 6):
            return _Reason("bad_geometry", "bad_geometry", squares, {
                "mover": mover, "square": chess.square_name(to_square),
                "rule": names.rule("pawn_double")})
        path = (chess.between(start, to_square) | chess.BB_SQUARES[to_square]) & board.occupied
        if not path:
            return None
        blocker = _nearest(start, path, to_square)
        return _Reason("blocked", "blocked_pawn", (start, blocker),
                       {"mover": mover, "blocker": names.on(blocker)})
    if abs(files) == 1 and ranks == 1:
        if board.piece_at(to_square) is not None or to_square == board.ep_square:
            return None
        behind = to_square - (8 if white else -8)
        if (board.piece_at(behind) == chess.Piece(chess.PAWN, not board.turn)
                and chess.square_rank(start) == (4 if white else 3)):
            return _Reason("en_passant_expired", "en_passant_expired",
                           (start, behind, to_square), {"pawn": chess.square_name(behind)})
        rule = "pawn_diagonal"
    else:
        rule = "pawn"
    return _Reason("bad_geometry", "bad_geometry", squares, {
        "mover": mover, "square": chess.square_name(to_square), "rule": names.rule(rule)})


def _geometry(board: chess.Board, start: chess.Square, to_square: chess.Square,
              names: _Namer) -> _Reason | None:
    """Whether the piece moves that way and nothing stands in its path (None: it does)."""
    piece = board.piece_at(start)
    assert piece is not None
    if piece.piece_type == chess.PAWN:
        return _pawn_geometry(board, start, to_square, names)
    if not _reach(piece, start) & chess.BB_SQUARES[to_square]:
        return _Reason("bad_geometry", "bad_geometry", (start, to_square), {
            "mover": names.on(start), "square": chess.square_name(to_square),
            "rule": names.rule(chess.piece_name(piece.piece_type))})
    between = chess.between(start, to_square) & board.occupied
    if not between:
        return None
    blocker = _nearest(start, between, to_square)
    return _Reason("blocked", "blocked", (start, blocker),
                   {"mover": names.on(start), "blocker": names.on(blocker)})


def _safety(board: chess.Board, reading: MoveIntent, start: chess.Square,
            to_square: chess.Square, names: _Namer) -> _Reason:
    """A move the piece can make: what about the king (or the promotion) forbids it."""
    kind = board.piece_type_at(start)
    last_rank = kind == chess.PAWN and chess.square_rank(to_square) in (0, 7)
    move = chess.Move(start, to_square, chess.QUEEN if last_rank else None)
    squares = (start, to_square)
    if board.is_legal(move):
        if reading.promotion is None:
            return _Reason("promotion_required", "promotion_required", squares,
                           {"mover": names.on(start), "example": board.san(move)})
        wrong_piece = last_rank and reading.promotion in (chess.KING, chess.PAWN)
        return _Reason("bad_promotion", "bad_promotion" if wrong_piece else "bad_promotion_rank",
                       squares, {"piece": names.piece(reading.promotion)})
    after = board.copy(stack=False)
    after.push(move)
    king = after.king(board.turn)
    attackers = chess.SquareSet() if king is None else after.attackers(not board.turn, king)
    if king is None or not attackers or not board.is_pseudo_legal(move):
        return _Reason("bad_geometry", "bad_geometry", squares, {
            "mover": names.on(start), "square": chess.square_name(to_square),
            "rule": names.rule(chess.piece_name(kind or chess.PAWN))})
    first = next(iter(attackers))
    if kind == chess.KING:
        return _Reason("king_into_check", "king_into_check", (to_square, first), {
            "square": chess.square_name(to_square), "attacker": names.on(first)})
    checkers = board.checkers()
    if checkers & attackers:
        return _in_check(board, checkers, names)
    if board.is_en_passant(move) and not board.is_pinned(board.turn, start):
        captured = chess.square(chess.square_file(to_square), chess.square_rank(start))
        return _Reason("pinned", "en_passant_exposes", (start, captured, first, king), {
            "mover": names.on(start), "captured": chess.square_name(captured),
            "attacker": names.on(first), "king": chess.square_name(king)})
    return _Reason("pinned", "pinned", (start, first, king), {
        "mover": names.on(start), "pinner": names.on(first), "king": chess.square_name(king)})


def _in_check(board: chess.Board, checkers: chess.SquareSet, names: _Namer) -> _Reason:
    king = board.king(board.turn)
    assert king is not None
    first = next(iter(checkers))
    fields = {"king": chess.square_name(king), "checker": names.all_on(checkers.mask),
              "checkers": names.all_on(checkers.mask),
              "checker_piece": names.piece(board.piece_type_at(first) or chess.PAWN)}
    key = "in_check_double" if len(checkers) > 1 else "in_check"
    return _Reason("in_check", key, (king, *checkers), fields)


def _diagnose_from(board: chess.Board, reading: MoveIntent, start: chess.Square,
                   names: _Namer) -> _Reason:
    """Why the side's piece on ``start`` cannot make the move the text asks for."""
    to_square = reading.to_square
    assert to_square is not None
    piece = board.piece_at(start)
    assert piece is not None
    if start == to_square:
        return _Reason("bad_geometry", "same_square", (start,), {"mover": names.on(start)})
    if piece.piece_type == chess.KING and _is_castle_attempt(board, start, to_square):
        return _castle(board, chess.square_file(to_square) > 4, names, to_square)
    target = board.piece_at(to_square)
    straight = (piece.piece_type == chess.PAWN
                and chess.square_file(start) == chess.square_file(to_square))
    if target is not None and target.color == board.turn and start != to_square and not straight:
        return _Reason("own_piece", "own_piece", (start, to_square), {
            "mover": names.on(start), "square": chess.square_name(to_square),
            "piece": names.piece(target.piece_type)})
    return (_geometry(board, start, to_square, names)
            or _safety(board, reading, start, to_square, names))


def _en_passant_push(board: chess.Board, reading: MoveIntent, names: _Namer) -> _Reason | None:
    """``f6`` written for the en passant capture ``exf6``: say how a capture is written."""
    if (reading.piece != chess.PAWN or reading.to_square is None
            or reading.to_square != board.ep_square
            or reading.from_file != chess.square_file(reading.to_square)):
        return None
    capture = next(iter(board.generate_legal_ep()), None)
    if capture is None:
        return None
    taken = reading.to_square + (-8 if board.turn else 8)
    return _Reason("bad_geometry", "en_passant_push", (capture.from_square, taken,
                                                        reading.to_square),
                   {"pawn": names.on(taken), "example": board.san(capture)})


def _diagnose(board: chess.Board, reading: MoveIntent, names: _Namer) -> _Reason:
    if reading.castle is not None:
        return _castle(board, reading.castle == "short", names)
    en_passant = _en_passant_push(board, reading, names)
    if en_passant is not None:
        return en_passant
    starts = _candidates(board, reading, board.turn)
    if not starts:
        return _missing(board, reading, names)
    reasons = [_diagnose_from(board, reading, s, names) for s in starts]
    best = max(reasons, key=lambda r: _STAGE.get(r.code, 5))
    if best.code != "bad_geometry" or reading.piece is None:
        return best
    theirs = _their_movers(board, reading)
    if theirs:  # "Nf6" for White in the start position: the learner is playing Black's move
        return _wrong_side(board, theirs[0], names, key="wrong_side_reach", reading=reading)
    if len(reasons) > 1:
        square = reading.to_square or chess.A1
        return _Reason("bad_geometry", "bad_geometry_none", (*starts, square), {
            "piece": names.piece(reading.piece), "square": chess.square_name(square)})
    return best


def _verdict(reason: _Reason, lang: str) -> Verdict:
    message = t(f"explain.{reason.key}", lang=lang, **reason.fields)
    return Verdict(False, reason.code, message, squares=reason.squares)


def explain_move(position: Position, text_or_move: object, *,
                 lang: str | None = None) -> Verdict:
    """Whether a learner's move is legal and, if not, why, in one sentence. Never raises.

    ``text_or_move`` is any text (every spelling ``read_move`` knows) or a ``chess.Move``.

    >>> explain_move("4k3/8/8/8/8/8/8/R3K2R w K - 0 1", "O-O-O", lang="en").code
    'castle_rights_lost'
    """
    code = _language(lang)
    try:
        board = to_board(position, lang=code)
    except (PositionError, ValueError) as error:
        return _verdict(_Reason("bad_position", "bad_position", (), {"reason": str(error)}), code)
    names = _Namer(board, code)
    try:
        readings = _readings(text_or_move)
    except MoveError:
        return _verdict(_unparseable(text_or_move), code)
    over = _game_over(board, names)
    if over is not None:
        return _verdict(over, code)
    moves = legal_matches(board, readings)
    if len(moves) > 1:
        return _verdict(_ambiguous(board, moves, names), code)
    if moves:
        move = moves[0]
        san = board.san(move)
        return Verdict(True, "ok", t("explain.ok", lang=code, san=san), move, san,
                       (move.from_square, move.to_square))
    reasons = [_diagnose(board, r, names) for r in readings]
    return _verdict(max(reasons, key=lambda r: _STAGE.get(r.code, 5)), code)
