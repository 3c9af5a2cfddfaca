"""Naming what a move does: check, mate, fork, pin, skewer, discovered attack and more.

Every tag is computed from the position with python-chess; nothing is guessed. Material is
counted 1 3 3 5 9; "wins" a piece means taking it comes out ahead once both sides have taken
back on that square (:func:`exchange`). A threat "cannot be answered" when after every reply
the attacker still has a capture that wins something and comes out ahead, counting what its
move took and what the reply took (a check by a piece that was not attacked only delays it).
The four tactics (none is named on a move that mates):

- **fork**: the moved piece attacks two or more targets, a target being the king or a piece
  (not a pawn) it wins by taking it (worth more than it, or not protected enough), and the
  threat cannot be answered.
- **pin**: the moved bishop, rook or queen pins an enemy piece to its king, or to a more
  valuable piece it would win if the pinned piece stepped aside (not a pawn to a piece); the
  pinned piece has a move off the line, and the pinner cannot be taken with gain. Or the move
  *uses* a pin made by another piece: it attacks the pinned piece and wins it, or stands where
  the pinned piece could take it with gain, or gives a check the pinned piece cannot block. A
  mate counts only in that last way (a pinned piece could otherwise take the mating piece).
- **skewer**: the moved slider attacks the king or a piece worth more than the enemy piece
  behind it on the same line, wins that piece once the front one steps aside, and the threat
  cannot be answered.
- **discovered attack**: the move uncovers an attack by another own slider on the king
  (a discovered check always counts) or on a piece, pawns included, that slider wins; and the
  threat of both pieces cannot be answered.

Measured against the themes of the packaged Lichess sample (``benchmarks/bench_tactics.py``;
definitions tuned on one part, tested on the held-out part, see :func:`puzzle_part`).

>>> sorted(motifs("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", "Nc7+"))
['check', 'fork']
>>> describe_motifs("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", "Nc7+", lang="en")
'Nc7+ forks the king on e8 and the rook on a8.'
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources

import chess

from chesskit.i18n import color_name, join_words, piece_name, piece_on, t
from chesskit.rules import search
from chesskit.rules.notation import read_move
from chesskit.rules.position import to_board
from chesskit.rules.values import VALUES, worth

MOTIFS = (
    "check", "mate", "stalemate", "capture", "promotion", "en_passant", "castling", "fork",
    "pin", "skewer", "discovered_attack", "discovered_check", "double_check", "hanging",
    "back_rank_mate", "smothered_mate",
)
_ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_LINES = {chess.ROOK: _ORTHOGONAL, chess.BISHOP: _DIAGONAL, chess.QUEEN: _ORTHOGONAL + _DIAGONAL}
_SLIDERS = (chess.BISHOP, chess.ROOK, chess.QUEEN)

Position = str | chess.BaseBoard
MoveLike = chess.Move | str


def _walk(square: chess.Square, step: tuple[int, int]) -> Iterator[chess.Square]:
    file, rank = chess.square_file(square) + step[0], chess.square_rank(square) + step[1]
    while 0 <= file < 8 and 0 <= rank < 8:
        yield chess.square(file, rank)
        file, rank = file + step[0], rank + step[1]


def _enemy_lines(board: chess.Board, square: chess.Square) -> list[tuple[chess.Square,
                                                                         chess.Square]]:
    """For the slider on ``square``: (first, second) pieces on a line, both of the enemy."""
    piece = board.piece_at(square)
    if piece is None or piece.piece_type not in _LINES:
        return []
    enemy = board.occupied_co[not piece.color]
    pairs = []
    for step in _LINES[piece.piece_type]:
        hits = [s for s in _walk(square, step) if board.occupied & chess.BB_SQUARES[s]][:2]
        if len(hits) == 2 and all(enemy & chess.BB_SQUARES[s] for s in hits):
            pairs.append((hits[0], hits[1]))
    return pairs


def _type(board: chess.Board, square: chess.Square) -> chess.PieceType:
    piece_type = board.piece_type_at(square)
    assert piece_type is not None
    return piece_type


def exchange(board: chess.Board, attacker: chess.Square, target: chess.Square) -> int:
    """What taking the piece on ``target`` with the piece on ``attacker`` wins once both sides
    have taken back on that square as long as it pays (cheapest piece first; a king never
    takes a protected piece).

    >>> exchange(chess.Board("4k3/8/2p5/3n4/8/4N3/8/4K3 w - - 0 1"), chess.E3, chess.D5)
    0
    >>> exchange(chess.Board("4k3/8/8/3r4/8/4N3/8/4K3 w - - 0 1"), chess.E3, chess.D5)
    5
    """
    occupied = board.occupied & ~chess.BB_SQUARES[attacker]
    gains = [worth(_type(board, target))]
    standing = worth(_type(board, attacker))
    side = board.color_at(target)
    assert side is not None
    while True:
        takers = board.attackers_mask(side, target, occupied) & occupied
        if not takers:
            break
        cheapest = min(chess.scan_forward(takers), key=lambda s: worth(_type(board, s)))
        if (_type(board, cheapest) == chess.KING
                and board.attackers_mask(not side, target, occupied) & occupied
                & ~chess.BB_SQUARES[cheapest]):
            break
        gains.append(standing - gains[-1])
        standing = worth(_type(board, cheapest))
        occupied &= ~chess.BB_SQUARES[cheapest]
        side = not side
    while len(gains) > 1:
        last = gains.pop()
        gains[-1] = min(gains[-1], -last)
    return gains[0]


def _is_target(board: chess.Board, square: chess.Square, attacker: chess.Square) -> bool:
    """A piece worth attacking: the king, or a piece (not a pawn) the attacker wins by taking
    it (worth more than the attacker, or not defended enough)."""
    kind = _type(board, square)
    return kind == chess.KING or (kind != chess.PAWN and exchange(board, attacker, square) > 0)


def _capture_move(board: chess.Board, start: chess.Square, target: chess.Square) -> chess.Move:
    last_rank = (board.piece_type_at(start) == chess.PAWN
                 and chess.square_rank(target) in (0, 7))
    return chess.Move(start, target, chess.QUEEN if last_rank else None)


def _best_gain(board: chess.Board, attackers: chess.Bitboard) -> int:
    """The most the side to move wins with one capture by a piece of ``attackers``."""
    best = 0
    enemy = board.occupied_co[not board.turn] & ~board.kings
    for start in chess.scan_forward(attackers & board.occupied_co[board.turn]):
        for target in chess.scan_forward(board.attacks_mask(start) & enemy):
            gain = exchange(board, start, target)
            if gain > best and board.is_legal(_capture_move(board, start, target)):
                best = gain
    return best


def _recapture_gain(board: chess.Board, square: chess.Square) -> int:
    """What the side to move wins by taking back on ``square`` with its cheapest piece."""
    takers = [m.from_square for m in board.generate_legal_moves(to_mask=chess.BB_SQUARES[square])]
    if not takers:
        return 0
    cheapest = min(takers, key=lambda s: worth(_type(board, s)))
    return max(exchange(board, cheapest, square), 0)


def _answers(after: chess.Board, attackers: chess.Bitboard, banked: int
             ) -> Iterator[chess.Move]:
    """The replies that answer the threat of the pieces on ``attackers`` in ``after``.

    A reply answers it unless afterwards a piece of ``attackers`` (or a piece taking back)
    still wins something and the attacking side comes out ahead: ``banked`` (what its move
    took) minus what the reply took plus that capture is more than nothing. A check by a piece
    that was not attacked (and takes nothing) only delays the threat.
    """
    attacked = 0
    for attacker in chess.scan_forward(attackers & after.occupied_co[not after.turn]):
        attacked |= after.attacks_mask(attacker)
    replies = sorted(after.legal_moves, key=lambda m: (  # likely answers first
        not after.is_capture(m), not attacked & chess.BB_SQUARES[m.from_square]))
    for reply in replies:
        taken = (worth(_type(after, reply.to_square)) if after.is_capture(reply)
                 and not after.is_en_passant(reply) else 0)
        if (not taken and after.gives_check(reply)
                and not attacked & chess.BB_SQUARES[reply.from_square]):
            continue
        after.push(reply)
        gain = max(_best_gain(after, attackers), _recapture_gain(after, reply.to_square)
                   if taken else 0)
        after.pop()
        if gain <= 0 or banked - taken + gain <= 0:
            yield reply


def _refutation(after: chess.Board, attackers: chess.Bitboard, banked: int
                ) -> chess.Move | None:
    """A reply that answers the threat (see :func:`_answers`), or None."""
    return next(_answers(after, attackers, banked), None)


def _shown_answer(after: chess.Board, attackers: chess.Bitboard, banked: int) -> chess.Move:
    """The answer to name: the first that walks into no short mate
    (``search.allows_mate``), else the first."""
    answers = _answers(after, attackers, banked)
    first = next(answers)
    if not search.allows_mate(after, first):
        return first
    return next((a for a in answers if not search.allows_mate(after, a)), first)


def _threat_holds(after: chess.Board, attackers: chess.Bitboard, banked: int) -> bool:
    """Whether no reply answers the threat (see :func:`_refutation`); never on a finished
    game."""
    return any(after.legal_moves) and _refutation(after, attackers, banked) is None


def fork_targets(board_after: chess.Board, square: chess.Square) -> list[chess.Square]:
    """Enemy pieces the piece on ``square`` attacks that are worth attacking (the king, or a
    piece worth more than it or undefended; pawns never), most valuable first.

    A fork is two or more of them that the opponent cannot both save (:func:`is_fork`).

    >>> board = chess.Board("r3k3/2N5/8/8/8/8/8/4K3 b - - 1 1")
    >>> [chess.square_name(s) for s in fork_targets(board, chess.C7)]
    ['e8', 'a8']
    """
    piece = board_after.piece_at(square)
    if piece is None:
        return []
    attacked = board_after.attacks_mask(square) & board_after.occupied_co[not piece.color]
    targets = [s for s in chess.scan_forward(attacked) if _is_target(board_after, s, square)]
    return sorted(targets, key=lambda s: (-worth(_type(board_after, s)), s))


def is_fork(board_after: chess.Board, square: chess.Square, *, banked: int = 0) -> bool:
    """Whether the piece on ``square`` forks: two or more :func:`fork_targets`, and every reply
    still leaves it a capture that wins material.

    >>> is_fork(chess.Board("r3k3/2N5/8/8/8/8/8/4K3 b - - 1 1"), chess.C7)
    True
    >>> is_fork(chess.Board("r2qk3/2N5/8/8/8/8/8/4K3 b - - 1 1"), chess.C7)  # Qxc7
    False
    """
    if len(fork_targets(board_after, square)) < 2:
        return False
    return _threat_holds(board_after, chess.BB_SQUARES[square], banked)


def _beyond(board: chess.Board, start: chess.Square, through: chess.Square
            ) -> chess.Square | None:
    """The first piece behind ``through`` on the line from ``start``."""
    step = (_sign(chess.square_file(through) - chess.square_file(start)),
            _sign(chess.square_rank(through) - chess.square_rank(start)))
    return next((s for s in _walk(through, step) if board.occupied & chess.BB_SQUARES[s]), None)


def _sign(number: int) -> int:
    return (number > 0) - (number < 0)


def _real_pin(board: chess.Board, pinner: chess.Square, front: chess.Square,
              behind: chess.Square) -> bool:
    """A pin that holds: behind is the king, or worth more than the pinned piece and won when
    the pinned piece steps aside; and the pinned piece cannot simply take the pinner."""
    kind, back = _type(board, front), _type(board, behind)
    if kind == chess.KING:
        return False
    if back != chess.KING:
        if kind == chess.PAWN or worth(back) <= worth(kind):
            return False
        stepped_aside = board.copy(stack=False)
        stepped_aside.remove_piece_at(front)
        if exchange(stepped_aside, pinner, behind) <= 0:
            return False
    if board.attacks_mask(front) & chess.BB_SQUARES[pinner]:
        return exchange(board, front, pinner) <= 0
    return True


def _restricted(board: chess.Board, pinner: chess.Square, front: chess.Square) -> bool:
    """Whether the pinned piece has a move off the line it is pinned on."""
    line = chess.ray(pinner, front)
    return any(not line & chess.BB_SQUARES[m.to_square] for m in
               board.generate_pseudo_legal_moves(from_mask=chess.BB_SQUARES[front]))


def _lost(board: chess.Board, square: chess.Square) -> bool:
    """Whether the side to move can take the piece on ``square`` and win material."""
    color = board.color_at(square)
    return any(exchange(board, a, square) > 0
               for a in chess.scan_forward(board.attackers_mask(not color, square)))


def _pin_pays(board: chess.Board, pinner: chess.Square, front: chess.Square) -> bool:
    """A pin made by another piece that the moved piece can use: the pinned piece could
    otherwise move off the line, and it is lost (it cannot step away), or it cannot take a
    piece it attacks off the line."""
    if not _restricted(board, pinner, front):
        return False
    line = chess.ray(pinner, front)
    color = board.color_at(front)
    targets = board.attacks_mask(front) & board.occupied_co[not color] & ~board.kings & ~line
    return _lost(board, front) or any(exchange(board, front, s) > 0
                                      for s in chess.scan_forward(targets))


def _pins_of(board: chess.Board, front: chess.Square
             ) -> list[tuple[chess.Square, chess.Square]]:
    """(pinner, behind) for each slider that pins the piece on ``front`` and the pin pays."""
    found = []
    color = board.color_at(front)
    for pinner in chess.scan_forward(board.attackers_mask(not color, front)):
        if _type(board, pinner) not in _LINES:
            continue
        behind = _beyond(board, pinner, front)
        if (behind is not None and board.color_at(behind) == color
                and _real_pin(board, pinner, front, behind) and _pin_pays(board, pinner, front)):
            found.append((pinner, behind))
    return found


def pinned_by(board_after: chess.Board,
              square: chess.Square) -> list[tuple[chess.Square, chess.Square]]:
    """(pinned, behind) pairs: the slider on ``square`` pins an enemy piece to its king, or to a
    more valuable piece it would win if the pinned piece stepped aside; and the pin pays (the
    pinned piece is lost, or cannot take a piece it attacks).

    >>> board = chess.Board("4k3/8/2n5/1B6/8/8/8/4K3 b - - 1 1")
    >>> [(chess.square_name(a), chess.square_name(b)) for a, b in pinned_by(board, chess.B5)]
    [('c6', 'e8')]
    """
    return [(front, behind) for front, behind in _enemy_lines(board_after, square)
            if _real_pin(board_after, square, front, behind)
            and _restricted(board_after, square, front) and not _lost(board_after, square)]


def pins_used(board_after: chess.Board,
              square: chess.Square) -> list[tuple[chess.Square, chess.Square]]:
    """(pinned, behind) pairs where the piece on ``square`` uses a pin made by another piece:
    it attacks the pinned piece, which cannot step away, or stands where the pinned piece
    cannot take it, or gives a check the pinned piece cannot block.

    >>> board = chess.Board("4k3/4n3/3P4/8/8/8/8/4RK2 b - - 0 1")
    >>> [(chess.square_name(a), chess.square_name(b)) for a, b in pins_used(board, chess.D6)]
    [('e7', 'e8')]
    """
    piece = board_after.piece_at(square)
    if piece is None:
        return []
    enemy = board_after.occupied_co[not piece.color] & ~board_after.kings
    near = (board_after.attacks_mask(square) | board_after.attackers_mask(not piece.color,
                                                                          square)) & enemy
    used = []
    for front in chess.scan_forward(near):
        used += [(front, behind) for pinner, behind in _pins_of(board_after, front)
                 if pinner != square]
    king = board_after.king(not piece.color)
    if king is not None and board_after.checkers_mask() & chess.BB_SQUARES[square]:
        answers = chess.between(square, king) | chess.BB_SQUARES[square]
        for front in chess.scan_forward(enemy & ~near):
            line = board_after.pin_mask(not piece.color, front)
            if line != chess.BB_ALL and any(
                    answers & ~line & chess.BB_SQUARES[m.to_square]
                    for m in board_after.generate_pseudo_legal_moves(
                        from_mask=chess.BB_SQUARES[front])):
                used.append((front, king))  # the pinned piece cannot block or take the checker
    return used


def skewer_targets(board_after: chess.Board, square: chess.Square, *,
                   banked: int = 0) -> list[tuple[chess.Square, chess.Square]]:
    """(front, behind) pairs: the slider on ``square`` attacks the king or a valuable piece, and
    a less valuable enemy piece behind it is won once the front piece steps aside; the front
    piece cannot answer by taking the slider, and no reply saves both.

    >>> board = chess.Board("7r/8/8/8/3k4/8/8/B3K3 b - - 1 1")
    >>> [(chess.square_name(a), chess.square_name(b)) for a, b in skewer_targets(board, chess.A1)]
    [('d4', 'h8')]
    """
    pairs = _skewer_lines(board_after, square)
    if pairs and not _threat_holds(board_after, chess.BB_SQUARES[square], banked):
        return []
    return pairs


def _skewer_lines(board: chess.Board, square: chess.Square
                  ) -> list[tuple[chess.Square, chess.Square]]:
    """(front, behind) on the lines of the slider on ``square``: the front piece is worth more
    than the one behind, which the slider wins once the front piece steps aside."""
    pairs = []
    for front, behind in _enemy_lines(board, square):
        if worth(_type(board, front)) <= worth(_type(board, behind)):
            continue
        stepped_aside = board.copy(stack=False)
        stepped_aside.remove_piece_at(front)
        if exchange(stepped_aside, square, behind) > 0:
            pairs.append((front, behind))
    return pairs


def _taken(board_before: chess.Board, move: chess.Move) -> int:
    """The worth of the piece ``move`` captures (0 for none)."""
    if board_before.is_en_passant(move):
        return VALUES[chess.PAWN]
    taken = board_before.piece_type_at(move.to_square)
    return VALUES[taken] if taken and not board_before.is_castling(move) else 0


def _moved_squares(board_before: chess.Board, move: chess.Move) -> chess.Bitboard:
    """Where the moving piece (and the castling rook) stand after the move."""
    squares = chess.BB_SQUARES[move.to_square]
    if board_before.is_castling(move):
        rook_file = 5 if board_before.is_kingside_castling(move) else 3
        squares |= chess.BB_SQUARES[chess.square(rook_file, chess.square_rank(move.to_square))]
    return squares


def _vacated(board_before: chess.Board, move: chess.Move) -> chess.Bitboard:
    """The squares a move empties: its start square, and the pawn taken en passant."""
    squares = chess.BB_SQUARES[move.from_square]
    if board_before.is_en_passant(move):
        squares |= chess.BB_SQUARES[move.to_square + (-8 if board_before.turn else 8)]
    return squares


def discovered_targets(board_before: chess.Board,
                       move: chess.Move) -> list[tuple[chess.Square, chess.Square]]:
    """(attacker, target) pairs: the move uncovers an attack by another own piece on the king
    or on a piece it wins (worth more than the attacker, or undefended; not a pawn), and the
    opponent cannot meet both that attack and the moved piece.

    >>> board = chess.Board("3q3k/1r6/8/8/8/3N4/4QPPP/3R2K1 w - - 0 1")
    >>> [(chess.square_name(a), chess.square_name(b))
    ...  for a, b in discovered_targets(board, chess.Move.from_uci("d3c5"))]
    [('d1', 'd8')]
    """
    after = board_before.copy(stack=False)
    after.push(move)
    return _discovered(board_before, move, after)


def _uncovered(board_before: chess.Board, move: chess.Move,
               after: chess.Board) -> list[tuple[chess.Square, chess.Square]]:
    """(attacker, target): attacks of other own sliders through the squares the move empties,
    on the king or on pieces (pawns too) they would win."""
    color = board_before.turn
    vacated = _vacated(board_before, move)
    sliders = 0
    for kind in _SLIDERS:
        sliders |= after.pieces_mask(kind, color)
    sliders &= ~_moved_squares(board_before, move)
    pairs = []
    for attacker in chess.scan_forward(sliders):
        for target in chess.scan_forward(after.attacks_mask(attacker) & after.occupied_co[
                not color]):
            if (chess.between(attacker, target) & vacated
                    and (_type(after, target) == chess.KING
                         or exchange(after, attacker, target) > 0)):
                pairs.append((attacker, target))
    return sorted(pairs, key=lambda pair: (-worth(_type(after, pair[1])), pair))


def _discovered(board_before: chess.Board, move: chess.Move,
                after: chess.Board) -> list[tuple[chess.Square, chess.Square]]:
    pairs = _uncovered(board_before, move, after)
    if not pairs or after.is_check():
        return pairs
    attackers = chess.BB_SQUARES[move.to_square]
    for attacker, _ in pairs:
        attackers |= chess.BB_SQUARES[attacker]
    return pairs if _threat_holds(after, attackers, _taken(board_before, move)) else []


def pins_made(board_before: chess.Board,
              move: chess.Move) -> list[tuple[chess.Square, chess.Square]]:
    """:func:`pinned_by` for the piece that ``move`` moves, given the board before the move.

    >>> board = chess.Board("4k3/8/2n5/8/8/8/8/4KB2 w - - 0 1")
    >>> [(chess.square_name(a), chess.square_name(b))
    ...  for a, b in pins_made(board, chess.Move.from_uci("f1b5"))]
    [('c6', 'e8')]
    """
    after = board_before.copy(stack=False)
    after.push(move)
    return pinned_by(after, move.to_square)


def _captures_of(board: chess.Board, square: chess.Square) -> list[chess.Move]:
    """The legal moves that take the piece on ``square`` (en passant included)."""
    moves = list(board.generate_legal_moves(to_mask=chess.BB_SQUARES[square]))
    if board.ep_square is not None and abs(board.ep_square - square) == 8:
        moves += board.generate_legal_ep()
    return moves


def _hanging(after: chess.Board, square: chess.Square, gained: int) -> bool:
    """The piece on ``square`` can be taken for less than the move won: undefended, or attacked
    by a cheaper piece."""
    captures = _captures_of(after, square)
    if not captures:
        return False
    mover = worth(_type(after, square))
    color = after.color_at(square)
    assert color is not None
    if not after.attackers_mask(color, square):
        return mover > gained
    cheapest = min(worth(_type(after, m.from_square)) for m in captures)
    return mover - cheapest > gained


def _back_rank_mate(after: chess.Board) -> bool:
    """Mate on the back rank: the king is boxed in by its own pieces in front, a checker on
    that rank (the Lichess definition)."""
    loser = after.turn
    king = after.king(loser)
    back_rank = 0 if loser == chess.WHITE else 7
    if king is None or chess.square_rank(king) != back_rank:
        return False
    front = chess.BB_KING_ATTACKS[king] & ~chess.BB_RANKS[back_rank]
    boxed = all(after.color_at(s) == loser and not after.attackers_mask(not loser, s)
                for s in chess.scan_forward(front))
    return boxed and any(chess.square_rank(c) == back_rank for c in after.checkers())


def _smothered_mate(after: chess.Board) -> bool:
    """Mate by a knight with every square around the king taken by the king's own pieces."""
    loser = after.turn
    king = after.king(loser)
    if king is None or not after.checkers_mask() & after.knights:
        return False
    return not chess.BB_KING_ATTACKS[king] & ~after.occupied_co[loser]


@dataclass(frozen=True)
class _Played:
    before: chess.Board
    move: chess.Move
    after: chess.Board

    @property
    def mover(self) -> chess.PieceType:
        return _type(self.after, self.move.to_square)

    def gained(self) -> int:
        return _taken(self.before, self.move)


def _pin_tag(after: chess.Board, square: chess.Square, *, mate: bool) -> bool:
    """The moved piece makes or uses a pin; a mate counts only when a pinned piece could
    otherwise take the mating piece."""
    if mate:
        return any(after.attacks_mask(front) & chess.BB_SQUARES[square]
                   for front, _ in pins_used(after, square))
    return bool(pinned_by(after, square) or pins_used(after, square))


def _tags(played: _Played) -> frozenset[str]:
    before, move, after = played.before, played.move, played.after
    checkers = after.checkers_mask()
    mate = after.is_checkmate()
    found = {
        "check": bool(checkers),
        "mate": mate,
        "stalemate": after.king(after.turn) is not None and after.is_stalemate(),
        "capture": before.is_capture(move),
        "promotion": move.promotion is not None,
        "en_passant": before.is_en_passant(move),
        "castling": before.is_castling(move),
        "fork": not mate and is_fork(after, move.to_square, banked=played.gained()),
        "pin": _pin_tag(after, move.to_square, mate=mate),
        "skewer": not mate and bool(skewer_targets(after, move.to_square,
                                                   banked=played.gained())),
        "discovered_attack": not mate and bool(_discovered(before, move, after)),
        "discovered_check": bool(checkers & ~_moved_squares(before, move)),
        "double_check": chess.popcount(checkers) >= 2,
        "hanging": not mate and _hanging(after, move.to_square, played.gained()),
        "back_rank_mate": mate and _back_rank_mate(after),
        "smothered_mate": mate and _smothered_mate(after),
    }
    return frozenset(tag for tag, present in found.items() if present)


def _play(position: Position, move: MoveLike) -> _Played:
    before = to_board(position)
    if isinstance(move, chess.Move) and before.is_legal(move):
        legal = move
    else:
        legal = read_move(before, move.uci() if isinstance(move, chess.Move) else move)
    after = before.copy(stack=False)
    after.push(legal)
    return _Played(before, legal, after)


def motifs(position: Position, move: MoveLike) -> frozenset[str]:
    """The tags of :data:`MOTIFS` that name what ``move`` does in ``position`` (before the move).

    Raises ``PositionError`` or ``MoveError`` for a position or move that cannot be read.

    >>> sorted(motifs("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8#"))
    ['back_rank_mate', 'check', 'mate']
    """
    return _tags(_play(position, move))


def _names(board: chess.Board, squares: list[chess.Square], lang: str | None) -> str:
    return join_words([piece_on(_type(board, s), s, lang=lang) for s in squares], lang=lang)


_Fields = Callable[[_Played, str | None], dict[str, str]]


def _fork(p: _Played, lang: str | None) -> dict[str, str]:
    return {"targets": _names(p.after, fork_targets(p.after, p.move.to_square), lang)}


def _pin(p: _Played, lang: str | None) -> dict[str, str]:
    pinned, behind = (pinned_by(p.after, p.move.to_square)
                      or pins_used(p.after, p.move.to_square))[0]
    return {"pinned": _names(p.after, [pinned], lang), "behind": _names(p.after, [behind], lang)}


def _skewer(p: _Played, lang: str | None) -> dict[str, str]:
    front, behind = skewer_targets(p.after, p.move.to_square, banked=p.gained())[0]
    return {"front": _names(p.after, [front], lang), "behind": _names(p.after, [behind], lang)}


def _discovered_attack(p: _Played, lang: str | None) -> dict[str, str]:
    attacker, target = _discovered(p.before, p.move, p.after)[0]
    return {"attacker": _names(p.after, [attacker], lang),
            "target": _names(p.after, [target], lang)}


def _discovered_check(p: _Played, lang: str | None) -> dict[str, str]:
    checkers = p.after.checkers_mask() & ~_moved_squares(p.before, p.move)
    return {"attacker": _names(p.after, list(chess.scan_forward(checkers)), lang)}


def _promotion(p: _Played, lang: str | None) -> dict[str, str]:
    assert p.move.promotion is not None
    return {"piece": piece_name(p.move.promotion, lang=lang)}


def _en_passant(p: _Played, lang: str | None) -> dict[str, str]:
    taken = chess.scan_forward(_vacated(p.before, p.move) & ~chess.BB_SQUARES[p.move.from_square])
    return {"pawn": _names(p.before, list(taken), lang)}


def _check(p: _Played, lang: str | None) -> dict[str, str]:
    king = p.after.king(p.after.turn)
    return {"king": _names(p.after, [] if king is None else [king], lang)}


def _capture(p: _Played, lang: str | None) -> dict[str, str]:
    return {"piece": _names(p.before, [p.move.to_square], lang)}


def _nothing(p: _Played, lang: str | None) -> dict[str, str]:
    return {}


# The first tag present names the move (most telling first); "quiet" when none is.
_SENTENCES: tuple[tuple[str, _Fields], ...] = (
    ("smothered_mate", _nothing), ("back_rank_mate", _nothing), ("mate", _nothing),
    ("stalemate", _nothing), ("double_check", _nothing), ("fork", _fork),
    ("discovered_check", _discovered_check), ("pin", _pin), ("skewer", _skewer),
    ("discovered_attack", _discovered_attack), ("promotion", _promotion),
    ("en_passant", _en_passant), ("castling", _nothing), ("check", _check),
    ("capture", _capture),
)


def _clause(p: _Played, tags: frozenset[str], lang: str | None) -> str:
    for tag, fields in _SENTENCES:
        if tag in tags:
            if tag == "castling":
                side = "kingside" if p.before.is_kingside_castling(p.move) else "queenside"
                return t(f"tactics.castling_{side}", lang=lang, san="{san}")
            if tag == "pin" and not pinned_by(p.after, p.move.to_square):
                tag = "pin_used"
            return t(f"tactics.{tag}", lang=lang, san="{san}", **fields(p, lang))
    return t("tactics.quiet", lang=lang, san="{san}")


def describe_motifs(position: Position, move: MoveLike, *, lang: str | None = None,
                    hanging: bool = True) -> str:
    """One sentence for a beginner naming what the move does, with pieces and squares.

    ``hanging=False`` leaves out "but ... can be taken for free" (for a move already known to
    be right, such as a winning sacrifice).

    Raises like :func:`motifs` for a position or move that cannot be read.

    >>> describe_motifs("4k3/8/2n5/8/8/8/8/4KB2 w - - 0 1", "Bb5", lang="en")
    'Bb5 pins the knight on c6 to the king on e8.'
    >>> describe_motifs("4k3/8/2n5/8/8/8/8/4KB2 w - - 0 1", "Bb5", lang="zh-Hans")
    'Bb5牵制了c6的马：它一走开，e8的王就会被攻击。'
    """
    played = _play(position, move)
    tags = _tags(played)
    clause = _clause(played, tags, lang)
    if hanging and "hanging" in tags:
        piece = piece_on(played.mover, played.move.to_square, lang=lang)
        sentence = t("tactics.sentence_hanging", lang=lang, clause=clause, piece=piece)
    else:
        sentence = t("tactics.sentence", lang=lang, clause=clause)
    # SAN is filled in last: a sentence starting with a pawn move ("exd6") keeps its small letter.
    return sentence.replace("{san}", played.before.san(played.move))


WHY_NOT = ("fork", "pin", "skewer", "discovered_attack")
"""The tags :func:`why_not` explains."""


def _reply_fields(p: _Played, reply: chess.Move, lang: str | None) -> dict[str, str]:
    return {"side": color_name(p.after.turn, lang=lang), "reply": p.after.san(reply)}


def _why_not_fork(p: _Played, lang: str | None) -> tuple[str, dict[str, str]]:
    square = p.move.to_square
    attacked = [s for s in chess.scan_forward(p.after.attacks_mask(square)
                                              & p.after.occupied_co[p.after.turn])]
    attacked.sort(key=lambda s: (-worth(_type(p.after, s)), s))
    targets = fork_targets(p.after, square)
    fields = {"attacked": _names(p.after, attacked, lang), "targets": _names(p.after, targets,
                                                                             lang)}
    if len(targets) >= 2:
        reply = _shown_answer(p.after, chess.BB_SQUARES[square], p.gained())
        return "answered", {**fields, **_reply_fields(p, reply, lang)}
    if len(attacked) < 2:
        return ("one" if attacked else "none"), fields
    return ("one_target" if targets else "no_target"), fields


def _why_not_pin(p: _Played, lang: str | None) -> tuple[str, dict[str, str]]:
    for front, behind in _enemy_lines(p.after, p.move.to_square):
        kind, back = _type(p.after, front), _type(p.after, behind)
        if kind != chess.KING and (back == chess.KING or worth(back) > worth(kind)):
            return "weak", {"pinned": _names(p.after, [front], lang),
                            "behind": _names(p.after, [behind], lang),
                            "side": color_name(p.after.turn, lang=lang)}
    return "none", {}


def _why_not_skewer(p: _Played, lang: str | None) -> tuple[str, dict[str, str]]:
    lines = _skewer_lines(p.after, p.move.to_square)
    if not lines:
        return "none", {}
    reply = _shown_answer(p.after, chess.BB_SQUARES[p.move.to_square], p.gained())
    front, behind = lines[0]
    return "answered", {"front": _names(p.after, [front], lang),
                        "behind": _names(p.after, [behind], lang),
                        **_reply_fields(p, reply, lang)}


def _why_not_discovered(p: _Played, lang: str | None) -> tuple[str, dict[str, str]]:
    pairs = _uncovered(p.before, p.move, p.after)
    if not pairs:
        return "none", {}
    attackers = chess.BB_SQUARES[p.move.to_square]
    for attacker, _ in pairs:
        attackers |= chess.BB_SQUARES[attacker]
    reply = _shown_answer(p.after, attackers, p.gained())
    attacker, target = pairs[0]
    return "answered", {"attacker": _names(p.after, [attacker], lang),
                        "target": _names(p.after, [target], lang),
                        **_reply_fields(p, reply, lang)}


_WHY_NOT: dict[str, Callable[[_Played, str | None], tuple[str, dict[str, str]]]] = {
    "fork": _why_not_fork, "pin": _why_not_pin, "skewer": _why_not_skewer,
    "discovered_attack": _why_not_discovered,
}


def why_not(position: Position, move: MoveLike, motif: str, *, lang: str | None = None) -> str:
    """One true sentence saying why ``move`` is not a ``motif`` of :data:`WHY_NOT` (empty when
    it is one): what the moved piece attacks, and which reply answers the threat.

    Raises like :func:`motifs` for a position or move that cannot be read.

    >>> why_not("r2qk3/8/8/1N6/8/8/8/4K3 w - - 0 1", "Nc7+", "fork", lang="en")
    'After Nc7+, the knight on c7 attacks the king on e8 and the rook on a8, but Black can \
answer with Qxc7.'
    >>> why_not("4k3/8/8/8/8/8/1N6/4K3 w - - 0 1", "Nd3", "fork", lang="en")
    'After Nd3, the knight on d3 attacks no enemy piece.'
    """
    played = _play(position, move)
    tags = _tags(played)
    if motif in tags:
        return ""
    fields: dict[str, str] = {}
    if "mate" in tags:
        key = "mate"
    else:
        reason, fields = _WHY_NOT[motif](played, lang)
        key = f"{motif}_{reason}"
    piece = piece_on(played.mover, played.move.to_square, lang=lang)
    sentence = t(f"tactics.not_{key}", lang=lang, san="{san}", piece=piece, **fields)
    return sentence.replace("{san}", played.before.san(played.move))


# ---- measuring the names against Lichess's puzzle themes ------------------------------------

THEMES: dict[str, str] = {
    "fork": "fork", "pin": "pin", "skewer": "skewer", "discoveredAttack": "discovered_attack",
}
"""Lichess puzzle theme -> the tag of :data:`MOTIFS` that names it."""


def bank_puzzles() -> frozenset[str]:
    """PuzzleIds the exercise bank uses (``source = "lichess:<id>"``).

    >>> len(bank_puzzles()) > 100
    True
    """
    bank = resources.files("chesskit") / "bank"
    found: set[str] = set()
    for entry in bank.iterdir():
        if entry.name.endswith(".toml"):
            found.update(re.findall(r'"lichess:(\w+)"', entry.read_text(encoding="utf-8")))
    return frozenset(found)


def puzzle_part(puzzle_id: str) -> str:
    """``"held-out"`` or ``"tuning"``: the part of the Lichess sample a puzzle belongs to.

    Held-out when the first byte of SHA-256(PuzzleId) is odd. The definitions of this module
    were tuned on the other part only; the tests measure the held-out part (also without the
    puzzles the bank uses, see :func:`bank_puzzles`).

    >>> puzzle_part("000rZ"), puzzle_part("002X3")
    ('tuning', 'held-out')
    """
    odd = hashlib.sha256(puzzle_id.encode()).digest()[0] % 2 == 1
    return "held-out" if odd else "tuning"


@dataclass(frozen=True)
class ThemeRate:
    """How well one tag names one Lichess theme on a set of puzzles."""

    with_theme: int
    recall_first: float
    recall_any: float
    without_theme: int
    false_any: float
    false_first: float


def theme_rates(rows: Iterable[Mapping[str, str]]) -> dict[str, ThemeRate]:
    """For each theme of :data:`THEMES`: recall and false positives of its tag on puzzle rows
    (the columns of the Lichess CSV), looking at the learner's first move and at any of them.

    >>> row = {"FEN": "r3k3/7p/8/1N6/8/8/8/4K3 b - - 0 1", "Moves": "h7h6 b5c7",
    ...        "Themes": "fork"}
    >>> theme_rates([row])["fork"].recall_first
    1.0
    """
    counts = {theme: [0, 0, 0, 0, 0, 0] for theme in THEMES}
    for row in rows:
        board = chess.Board(row["FEN"])
        moves = [chess.Move.from_uci(uci) for uci in row["Moves"].split()]
        board.push(moves[0])
        learner: list[frozenset[str]] = []
        for index, move in enumerate(moves[1:]):
            if index % 2 == 0:
                learner.append(motifs(board, move))
            board.push(move)
        every = frozenset().union(*learner)
        themes = set(row["Themes"].split())
        for theme, tag in THEMES.items():
            row_counts = counts[theme]
            offset = 0 if theme in themes else 3
            row_counts[offset] += 1
            row_counts[offset + 1] += tag in learner[0]
            row_counts[offset + 2] += tag in every
    return {theme: ThemeRate(c[0], c[1] / max(c[0], 1), c[2] / max(c[0], 1), c[3],
                             c[5] / max(c[3], 1), c[4] / max(c[3], 1))
            for theme, c in counts.items()}
