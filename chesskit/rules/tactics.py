"""Naming what a move does: check, mate, fork, pin, skewer, discovered attack, decoy and more.

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
  valuable piece it would win if the pinned piece stepped aside (not a pawn to a piece, and
  not with check); the pinned piece has a move off the line (a pawn: it is lost, or cannot
  take a piece it attacks), and the pinner cannot be taken with gain. Or the move *uses* a pin
  made by another piece: it attacks the pinned piece and wins it, or stands where the pinned
  piece could take it with gain. Or (Lichess's rule, on the position after the move) an enemy
  piece pinned to its king is held back by the pin: it attacks, off its line, a piece worth
  more than it or unguarded, or a cheaper piece attacks it along the line, or it is unguarded,
  attacked along the line and has a move off it. A mate counts only in the last two ways.
- **skewer**: the moved slider attacks the king or a piece worth more than the enemy piece
  behind it on the same line, wins that piece once the front one steps aside, and the threat
  cannot be answered.
- **discovered attack**: the move uncovers an attack by another own slider on the king
  (a discovered check always counts) or on a piece, pawns included, that slider wins; and the
  threat of both pieces cannot be answered. Or (Lichess's sense, one move on) after the
  enemy's best reply another own slider takes with gain, or mates, along a line through the
  square the move emptied (not the moved piece, nor on the square the move or the reply went
  to).

The second part's tactics (each looked for with a short search: one enemy reply, then the
mover's strongest capture or check, :func:`_follow_up`, which must mate or win a piece):

- **decoy** (attraction, 引诱): the enemy takes the moved piece (its best answer), and the
  follow-up hits the piece on the square it was lured to: a check to a lured king, an attack
  that wins a lured queen or rook there, a mate in which the lured piece blocks its own king,
  or (after a check) taking a lured queen there with a cheaper piece for more than was given.
  Not a decoy: a follow-up that takes another piece and only also attacks the lured one (the
  attack itself must win it), nor, after a capture that removes a defender and is taken back,
  a follow-up that takes without check (a trade).
- **deflection** (诱离): the move gives check or gives a piece away (not an even trade); the
  enemy's answer (the best one, or any when every answer to a check loses) moves a piece away
  from a square it guarded, and the follow-up takes or promotes there. A decoy is named a
  decoy.
- **removing the defender** (capturing the defender, 消除保护): the move takes a piece that
  guarded another enemy piece, in a capture that does not win a piece by itself; after the
  best reply or the recapture another own piece wins the piece that lost its guard (not a
  piece worth more than the taker: that needs no removed defender), or wins through the line
  the recapturing piece stopped blocking. A capture with check counts only when the enemy
  takes back and the mover ends a piece ahead.
- **interference** (截断): a piece comes to stand on a line along which an enemy bishop,
  rook or queen guarded another enemy piece (not the king). The moved piece: the piece cut
  off can be won at once and the move wins material against the best answer, or after the
  best answer (searched one or two moves deep) the piece cut off has no guard left and can
  be taken. Or the enemy piece that answers steps into such a line of its own side, and the
  piece cut off can then be taken, unguarded: the best answer, or, after a check whose every
  answer loses material (a pawn at least), any answer.
- **clearance** (腾空): a move (not a promotion; a capture only when the piece that took is
  left where it can be taken) empties a square; after the best reply, which is not a check,
  another own bishop, rook or queen goes to that square or through it to an empty square and
  gives check, mates, or attacks a piece and wins a piece (searched two or three moves
  deep). After the king answered, a check counts only when it mates (else it is a chase),
  and not at all after the king took the moved piece (a decoy).
- **in-between move** (intermezzo, 中间着/过渡): an enemy piece can be taken back now (a capture
  that loses nothing; that wins a piece when the move is not a check), but the move first
  plays something the enemy must answer: a check, a capture the enemy takes back, or a threat
  to mate or win a piece. Against the best answer the move wins at least 2, the take-back is
  still there and wins something, and it is the mover's strongest capture or check (winning
  at least 2); or the check was a fork, the checking piece takes first, and the take-back is
  still there after the next answer. Not an in-between move: one after which the mover could
  mate by checks in three (an attack, not a pause before taking back, unless the take-back
  itself checks), a decoy, a deflection.
  When the enemy's last move is known (``last_move=``, or a ``chess.Board`` with its moves
  pushed), the rule is Lichess's: the last move took a piece, and its piece can be taken back
  now without loss, or once the move has taken its guard; the move does not take it back but
  gives check, captures or threatens; it wins at least as much as taking back at once
  (searched two plies, then the captures); after the best answer the take-back is still there
  and wins something, or (the move took a piece) the piece that took has moved on instead;
  and the mover cannot mate by checks in three (unless the take-back checks and the move is
  no decoy or deflection). Then a decoy or deflection can be an in-between move too. After a
  last move that took nothing, no move is an in-between move.
- **zugzwang** (转让走子权): after the move the enemy, not in check and with at most
  ``ZUGZWANG_REPLIES`` moves, must move and every move loses, though passing would lose
  nothing: a quiet move after which every enemy move loses at once (the mover then mates or
  wins material), or, in an ending (``ZUGZWANG_PIECES``) where the enemy has more than its
  king, searched ``ZUGZWANG_PLIES`` deep (material, then the captures), the mover wins a pawn
  more than if the enemy could pass, or keeps the material where passing would cost some
  (Lichess's test compares an engine's score to move and passing); or, with only kings and
  pawns on the board, :mod:`chesskit.rules.pawn_endings` scores the enemy worse off moving
  than passing (``PAWN_ENDING_PLIES``, ``ZUGZWANG_CHANCE``, ``PAWN_ENDING_CHECK``,
  ``ZUGZWANG_STANDING``). On the held-out half of ``lichess-puzzles-zugzwang.csv``: 68.4%
  recall / 3.8% false tags (48.7% / 1.5% without the pawn ending search, 11.4% / 0.0% with
  the first test alone), short of issue 24's 70%: the missed zugzwangs win a pawn only after
  more king moves than the search sees (``benchmarks/bench_zugzwang_depth.py``).

Measured against the themes of the packaged Lichess sample (``benchmarks/bench_tactics.py``,
``tests/_lichess.py``: definitions tuned on one part, tested on the held-out part).

>>> sorted(motifs("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", "Nc7+"))
['check', 'fork']
>>> describe_motifs("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", "Nc7+", lang="en")
'Nc7+ forks the king on e8 and the rook on a8.'
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TypeVar

import chess

from chesskit.errors import MoveError
from chesskit.i18n import color_name, join_words, piece_name, piece_on, t
from chesskit.rules import pawn_endings, search
from chesskit.rules.notation import read_move
from chesskit.rules.position import PositionKey, position_key, to_board
from chesskit.rules.values import VALUES, balance, worth

MOTIFS = (
    "check", "mate", "stalemate", "capture", "promotion", "en_passant", "castling", "fork",
    "pin", "skewer", "discovered_attack", "discovered_check", "double_check", "hanging",
    "back_rank_mate", "smothered_mate", "decoy", "deflection", "removing_the_defender",
    "interference", "clearance", "in_between_move", "zugzwang",
)
_ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_LINES = {chess.ROOK: _ORTHOGONAL, chess.BISHOP: _DIAGONAL, chess.QUEEN: _ORTHOGONAL + _DIAGONAL}
_SLIDERS = (chess.BISHOP, chess.ROOK, chess.QUEEN)

Position = str | chess.BaseBoard
_Key = TypeVar("_Key")
_Value = TypeVar("_Value")
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


def pinned_by(board_after: chess.Board, square: chess.Square, *,
              forcing: bool = False) -> list[tuple[chess.Square, chess.Square]]:
    """(pinned, behind) pairs: the slider on ``square`` pins an enemy piece to its king, or to a
    more valuable piece it would win if the pinned piece stepped aside; and the pinned piece
    has a move off the line. With ``forcing`` (the move took or gave check: that is its point),
    a pin to a piece other than the king counts only without check, and a pinned pawn only
    when the pin pays (the pawn is lost, or cannot take a piece it attacks).

    >>> board = chess.Board("4k3/8/2n5/1B6/8/8/8/4K3 b - - 1 1")
    >>> [(chess.square_name(a), chess.square_name(b)) for a, b in pinned_by(board, chess.B5)]
    [('c6', 'e8')]
    """
    return [(front, behind) for front, behind in _enemy_lines(board_after, square)
            if _real_pin(board_after, square, front, behind)
            and _restricted(board_after, square, front) and not _lost(board_after, square)
            and not (forcing and _incidental(board_after, square, front, behind))]


def _incidental(board: chess.Board, pinner: chess.Square, front: chess.Square,
                behind: chess.Square) -> bool:
    """A pin beside the point of a capture or check: to a piece other than the king while
    giving check, or of a pawn that is neither lost nor kept from taking."""
    if _type(board, behind) != chess.KING and board.is_check():
        return True
    return _type(board, front) == chess.PAWN and not _pin_pays(board, pinner, front)


def pins_used(board_after: chess.Board,
              square: chess.Square) -> list[tuple[chess.Square, chess.Square]]:
    """(pinned, behind) pairs where the piece on ``square`` uses a pin made by another piece:
    it attacks the pinned piece, which cannot step away, or stands where the pinned piece
    cannot take it. (A check the pinned piece cannot block is left to :func:`pins_held`:
    counted alone it named pins Lichess does not, 14 of the tuning half's false tags.)

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
    return used


def _guarded(board: chess.Board, color: chess.Color, square: chess.Square) -> bool:
    """Whether a piece of ``color`` guards ``square``, also from behind an enemy slider that
    attacks it (the guard takes back once the slider has taken)."""
    if board.attackers_mask(color, square):
        return True
    for attacker in chess.scan_forward(board.attackers_mask(not color, square)):
        if _type(board, attacker) in _LINES:
            behind = board.copy(stack=False)
            behind.remove_piece_at(attacker)
            if behind.attackers_mask(color, square):
                return True
    return False


def pins_held(board_after: chess.Board) -> list[tuple[chess.Square, chess.Square]]:
    """(pinned, king) pairs: a piece of the side to move is pinned to its king and the pin
    holds it back (Lichess's rule): it attacks, off its line, a piece worth more than it or
    unguarded that it cannot take; or a cheaper piece attacks it along the line; or it is
    unguarded, attacked along the line, and has a move off the line it cannot make.

    >>> board = chess.Board("4k3/4n3/8/3B4/8/8/8/4RK2 b - - 0 1")  # Ne7 cannot take Bd5
    >>> [(chess.square_name(a), chess.square_name(b)) for a, b in pins_held(board)]
    [('e7', 'e8')]
    """
    color = board_after.turn
    king = board_after.king(color)
    if king is None:
        return []
    held = []
    for front in chess.scan_forward(board_after.occupied_co[color] & ~board_after.kings):
        line = board_after.pin_mask(color, front)
        if line == chess.BB_ALL:
            continue
        kind = worth(_type(board_after, front))
        if any(worth(_type(board_after, s)) > kind or not _guarded(board_after, not color, s)
               for s in chess.scan_forward(board_after.attacks_mask(front) & ~line
                                           & board_after.occupied_co[not color])):
            held.append((front, king))
            continue
        for attacker in chess.scan_forward(board_after.attackers_mask(not color, front) & line):
            if kind > worth(_type(board_after, attacker)) or (
                    not _guarded(board_after, color, front)
                    and not board_after.attacks_mask(front) & chess.BB_SQUARES[attacker]
                    and _restricted(board_after, attacker, front)):
                held.append((front, king))
                break
    return held


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


def _discovered_next(p: _Played) -> tuple[chess.Square, chess.Square, chess.Move] | None:
    """Lichess's sense, one move on: the move empties a square on the line from another own
    slider to an enemy piece, and after the enemy's best reply a slider of the mover's
    mates or wins by taking along a line through that square (not with the moved piece, not
    on the square the move or the reply went to): (attacker, target, reply), else None."""
    if p.before.is_castling(p.move) or not _lined_up(p):
        return None
    reply = search.best_defence(p.before, p.move, depth=1)[1]
    if reply is None:
        return None
    board = p.after.copy(stack=False)
    board.push(reply)
    vacated = _vacated(p.before, p.move)
    skip = chess.BB_SQUARES[p.move.to_square] | chess.BB_SQUARES[reply.to_square]
    for start in chess.scan_forward(board.occupied_co[board.turn] & ~skip):
        if _type(board, start) not in _LINES:
            continue
        for target in chess.scan_forward(board.attacks_mask(start) & ~skip
                                         & board.occupied_co[not board.turn]):
            take = _capture_move(board, start, target)
            if (chess.between(start, target) & vacated and _type(board, target) != chess.KING
                    and board.is_legal(take) and (exchange(board, start, target) > 0
                                                  or search.forces_mate(board, take, 1))):
                return start, target, reply
    return None


def _lined_up(p: _Played) -> bool:
    """Another own slider now sees an enemy piece through a square the move emptied."""
    color = p.before.turn
    vacated = _vacated(p.before, p.move)
    sliders = 0
    for kind in _SLIDERS:
        sliders |= p.after.pieces_mask(kind, color)
    for attacker in chess.scan_forward(sliders & ~_moved_squares(p.before, p.move)):
        for target in chess.scan_forward(p.after.attacks_mask(attacker)
                                         & p.after.occupied_co[not color]):
            if chess.between(attacker, target) & vacated:
                return True
    return False


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
    last: chess.Move | None = None
    """The enemy's move that led to ``before``, when known (:func:`_last`)."""
    took: bool = True
    """Whether ``last`` was a capture (known from a move stack; a given last move is one)."""

    @property
    def mover(self) -> chess.PieceType:
        return _type(self.after, self.move.to_square)

    def gained(self) -> int:
        return _taken(self.before, self.move)


# ---- the second part's tactics: decoy, deflection, removing the defender, interference,
# clearance, in-between move, zugzwang. Each needs the next moves, so each is looked for with
# a short search (one reply, then one move), and only when a cheap test says it may be there.

FOLLOW_UP_GAIN = 3
"""A follow-up counts when it mates or wins at least this much (a piece)."""


_FOLLOW_UPS: dict[tuple[PositionKey, int], tuple[chess.Move, int] | None] = {}
_TAGS: dict[tuple[PositionKey, chess.Move, chess.Move | None, bool], frozenset[str]] = {}
CACHE_LIMIT = 20_000
"""The caches of :func:`_follow_up` and :func:`motifs` are emptied when they hold this many
positions (the same position is often asked again: the sentence after the tags, a hint)."""


def _cached(cache: dict[_Key, _Value], key: _Key, make: Callable[[], _Value]) -> _Value:
    """``cache[key]``, made by ``make()`` the first time (the cache is emptied when full)."""
    if key in cache:
        return cache[key]
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    value = cache[key] = make()
    return value


def _follow_up(board: chess.Board, *, least: int = FOLLOW_UP_GAIN
               ) -> tuple[chess.Move, int] | None:
    """The side to move's strongest next move and what it wins: a mate in one first (counted
    as ``search.MATE_SCORE``), else the capture or check that wins most (searched one reply
    and the captures); None when nothing wins ``least`` (default :data:`FOLLOW_UP_GAIN`)."""
    return _cached(_FOLLOW_UPS, (position_key(board), least),
                   lambda: _strongest(board, least))


def _strongest(board: chess.Board, least: int) -> tuple[chess.Move, int] | None:
    for move in search.mate_in(board, 1):
        return move, search.MATE_SCORE
    best: tuple[chess.Move, int] | None = None
    for move in board.legal_moves:
        if not (board.is_capture(move) or board.gives_check(move)):
            continue
        wanted = least if best is None else best[1] + 1  # a quick yes/no search first
        if search.wins_at_least(board, move, wanted, depth=1):
            gain = search.material_gain(board, move, depth=1)
            if gain >= wanted:
                best = move, gain
    return best


def _offered(p: _Played) -> list[chess.Move]:
    """The enemy's captures of the moved piece when the move gives it away (it is worth more
    than what it took, and the enemy can take it)."""
    if worth(p.mover) <= p.gained() or p.mover == chess.KING:
        return []
    return _captures_of(p.after, p.move.to_square)


_LURED = (chess.KING, chess.QUEEN, chess.ROOK)
"""The pieces a decoy lures (Lichess's "attraction"): the others are rarely worth it."""


def _decoy_reply(p: _Played, *, trade: bool = False) -> chess.Move | None:
    """The enemy's best answer when it is a decoy: it takes the moved piece, and the mover's
    strongest follow-up (:func:`_follow_up`, or a check that mates in two when the king was
    lured) hits the piece on the square it was lured to (see the module's definition)."""
    if p.mover == chess.KING:
        return None
    _, reply = search.best_defence(p.before, p.move, depth=1)
    if reply is None or reply not in _captures_of(p.after, p.move.to_square):
        return None
    lured, square = _type(p.after, reply.from_square), reply.to_square
    board = p.after.copy(stack=False)
    board.push(reply)
    found = _follow_up(board, least=1)
    if found is None and lured == chess.KING:
        found = next(((m, search.MATE_SCORE) for m in board.legal_moves
                      if board.gives_check(m) and search.forces_mate(board, m, 2)), None)
    if found is None:
        return None
    move, gain = found
    if move.to_square == square:  # taking the lured piece back
        given = worth(p.mover) - p.gained()
        cheaper = worth(_type(board, move.from_square)) < worth(chess.QUEEN)
        return reply if (lured == chess.QUEEN and p.after.is_check() and cheaper
                         and 0 < given < exchange(board, move.from_square, square)) else None
    took = board.is_capture(move)
    board.push(move)
    if not board.attacks_mask(move.to_square) & chess.BB_SQUARES[square]:
        return None
    if trade and took and p.gained() and not board.is_check():
        return None  # a defender taken, taken back, and another piece taken: no decoy
    king = board.king(board.turn)
    if board.is_checkmate() and king is not None and chess.square_distance(king, square) == 1:
        return reply  # the lured piece blocks its own king
    if lured == chess.KING:
        return reply if board.is_check() else None
    wins = lured in _LURED and ((gain >= FOLLOW_UP_GAIN and not took)
                                or exchange(board, move.to_square, square) > 0)
    return reply if wins else None


def _deflects(p: _Played) -> bool:
    """The move gives check, or gives the moved piece away (not an even trade); the enemy's
    answer moves a piece away from a square it guarded, and the mover's strongest follow-up
    (:func:`_follow_up`) takes or promotes there (not taking a piece worth more than the taker:
    that needs no deflection). The answer is the best one, or, for a check with at most
    :data:`DEFLECTION_REPLIES` answers that all lose (a follow-up wins a piece or mates after
    each), any of them."""
    if not (p.after.is_check() or _offered(p)) or 0 < worth(p.mover) <= p.gained():
        return False
    best = search.best_defence(p.before, p.move, depth=1)[1]
    if best is None or not (p.after.is_check() or best.to_square == p.move.to_square):
        return False
    if _deflected(p, best):
        return True
    replies = list(p.after.legal_moves) if p.after.is_check() else []
    if not 1 < len(replies) <= DEFLECTION_REPLIES or not all(_loses(p, r) for r in replies):
        return False
    return any(_deflected(p, reply) for reply in replies if reply != best)


def _loses(p: _Played, reply: chess.Move, *, least: int = FOLLOW_UP_GAIN) -> bool:
    """After ``reply`` the mover's follow-up mates or wins ``least`` (default a piece)."""
    p.after.push(reply)
    try:
        return _follow_up(p.after, least=least) is not None
    finally:
        p.after.pop()


DEFLECTION_REPLIES = 8
"""Answers to a check that :func:`_deflects` looks at."""


def _deflected(p: _Played, reply: chess.Move) -> bool:
    """After ``reply``, the mover's follow-up takes or promotes on a square the replying piece
    guarded and guards no more (see :func:`_deflects`)."""
    guarded = p.after.attacks_mask(reply.from_square)
    p.after.push(reply)
    try:
        freed = (guarded & ~p.after.attacks_mask(reply.to_square)
                 & ~chess.BB_SQUARES[reply.to_square] & ~chess.BB_SQUARES[p.move.to_square])
        found = _follow_up(p.after, least=1)
        if found is None or not freed & chess.BB_SQUARES[found[0].to_square]:
            return False
        move, gain = found
        taken = p.after.piece_type_at(move.to_square)
        if taken is None:
            return move.promotion is not None
        taker = _type(p.after, move.from_square)
        return (taker == chess.KING or worth(taken) <= worth(taker)
                or gain >= search.MATE_SCORE)
    finally:
        p.after.pop()


def _removes_defender(p: _Played) -> bool:
    """The move takes a piece that guarded another enemy piece, in a capture that does not win
    a piece by itself; after the enemy's best reply, or after it takes back (one of
    :data:`RECAPTURES` ways), another own piece wins that piece, now unguarded
    (:func:`_wins_unguarded`). The piece that takes back is a defender removed too: what
    it guarded, or the line it blocked, counts. A capture with check counts only when the
    enemy takes back and the mover ends a piece ahead (else it is an in-between move)."""
    if (not p.before.is_capture(p.move) or p.before.is_en_passant(p.move)
            or p.before.is_check()
            or exchange(p.before, p.move.from_square, p.move.to_square) >= FOLLOW_UP_GAIN):
        return False
    gain, best = search.best_defence(p.before, p.move, depth=1)
    if best is None:
        return False
    recaptures = [r for r in _captures_of(p.after, p.move.to_square) if r != best]
    check = p.after.is_check()
    if check:
        ahead = balance(p.before) * (1 if p.before.turn else -1) + gain
        if best.to_square != p.move.to_square or ahead < FOLLOW_UP_GAIN:
            return False
        recaptures = []
    guarded = p.before.attacks_mask(p.move.to_square)
    for reply in [best, *recaptures[:RECAPTURES]]:
        taker = reply.from_square if reply.to_square == p.move.to_square else None
        p.after.push(reply)
        try:
            if _wins_unguarded(p.after, guarded, p.move.to_square, reply.to_square, taker,
                               least=FOLLOW_UP_GAIN if check else 1):
                return True
        finally:
            p.after.pop()
    return False


RECAPTURES = 3
"""Ways of taking back that :func:`_removes_defender` looks at besides the best reply."""


def _wins_unguarded(board: chess.Board, guarded: chess.Bitboard, moved: chess.Square,
                    replied: chess.Square, taker: chess.Square | None, *, least: int) -> bool:
    """A piece of the side to move, not the one on ``moved``, wins at least ``least``
    (:func:`exchange`) by taking a piece worth no more than itself on a square of
    ``guarded``, or a piece of any worth through ``taker`` (the square that the piece which
    took back left open). The piece that just moved to ``replied`` does not count: taking
    it back needs no removed defender."""
    squares = guarded & ~chess.BB_SQUARES[replied]
    opened = 0 if taker is None else chess.BB_SQUARES[taker]
    targets = ~chess.BB_SQUARES[replied] if opened else squares
    for move in board.generate_legal_captures(from_mask=~chess.BB_SQUARES[moved],
                                              to_mask=targets):
        if board.is_en_passant(move):
            continue
        if chess.between(move.from_square, move.to_square) & opened:
            cheap = True  # the line was shut: taking a bigger piece was not possible before
        elif squares & chess.BB_SQUARES[move.to_square]:
            cheap = worth(_type(board, move.to_square)) <= worth(_type(board, move.from_square))
        else:
            continue
        if cheap and exchange(board, move.from_square, move.to_square) >= least:
            return True
    return False


def _interferes(p: _Played) -> bool:
    """A piece now stands between an enemy bishop, rook or queen and an enemy piece it
    guarded, and that piece can be won (see :func:`_in_the_way`)."""
    return _in_the_way(p) is not None


INTERFERENCE_REPLIES = 8
"""Answers to a check that :func:`_in_the_way` looks at when every answer loses material."""


def _in_the_way(p: _Played) -> tuple[chess.Board, chess.Square] | None:
    """Where a piece stands in the way (see the module's definition), and the board it stands
    on: the moved piece, when it stands in a guarding line and the piece cut off can be won at
    once (the move winning material against the best answer), or after the best answer
    (searched one or two moves deep) cannot be guarded; or the enemy piece that steps into a
    line of its own side (the best answer, or any answer to a check when every answer loses
    a pawn or more, :func:`_loses`). None when there is none (:func:`_cut_off`).

    >>> played = _play("3r2k1/5ppp/8/4P3/4N3/R2p4/3B1PPP/6K1 w - - 0 1", "Nd6")
    >>> board, square = _in_the_way(played)
    >>> chess.square_name(square)  # the knight cuts the rook on d8 off from the pawn on d3
    'd6'
    """
    side = not p.before.turn
    cut = (_guarded_through(p.before, p.move.to_square, side)
           & ~chess.BB_SQUARES[p.move.to_square])
    if cut and _wins_cut_off(p, cut):
        return p.after, p.move.to_square
    depths = (1, 2) if cut else (1,)
    replies = [r for r in dict.fromkeys(search.best_defence(p.before, p.move, depth=d)[1]
                                        for d in depths) if r is not None]
    for reply in itertools.chain(replies, _losing_answers(p, replies)):
        found = _cut_off(p, reply, cut if reply in replies else 0)
        if found is not None:
            board = p.after.copy(stack=False)
            board.push(reply)
            return board, found
    return None


def _losing_answers(p: _Played, skip: list[chess.Move]) -> Iterator[chess.Move]:
    """The answers to a check, but those of ``skip``, when it has at most
    :data:`INTERFERENCE_REPLIES` and every one loses a pawn or more (:func:`_loses`)."""
    answers = list(p.after.legal_moves) if p.after.is_check() else []
    if 1 < len(answers) <= INTERFERENCE_REPLIES and all(_loses(p, r, least=1) for r in answers):
        yield from (r for r in answers if r not in skip)


def _wins_cut_off(p: _Played, cut: chess.Bitboard) -> bool:
    """A piece of ``cut`` (no longer guarded along the line the moved piece blocks) can be
    won at once (:func:`exchange`), and the move wins material against the best answer."""
    winnable = any(exchange(p.after, attacker, target) >= FOLLOW_UP_GAIN
                   for target in chess.scan_forward(cut & p.after.occupied_co[p.after.turn])
                   for attacker in chess.scan_forward(
                       p.after.attackers_mask(p.before.turn, target)))
    return winnable and search.best_defence(p.before, p.move, depth=2)[0] > 0


def _guarded_through(board: chess.Board, square: chess.Square, side: chess.Color
                     ) -> chess.Bitboard:
    """The pieces of ``side`` (not the king) that a bishop, rook or queen of ``side`` guards
    along a line through ``square``.

    >>> board = chess.Board("3r2k1/5ppp/8/4P3/4N3/R2p4/3B1PPP/6K1 w - - 0 1")
    >>> _guarded_through(board, chess.D6, chess.BLACK) == chess.BB_SQUARES[chess.D3]
    True
    """
    guarded = 0
    for slider in chess.scan_forward(board.occupied_co[side]
                                     & (board.bishops | board.rooks | board.queens)):
        for piece in chess.scan_forward(board.attacks_mask(slider) & board.occupied_co[side]
                                        & ~board.kings):
            if chess.between(slider, piece) & chess.BB_SQUARES[square]:
                guarded |= chess.BB_SQUARES[piece]
    return guarded


def _cut_off(p: _Played, reply: chess.Move, cut: chess.Bitboard) -> chess.Square | None:
    """After ``reply``, the square of the piece in the way when the mover can take an enemy
    piece (not the king, nor the one that replied) that has no guard left (:func:`_guarded`)
    and was guarded along a line the moved piece blocks (``cut``: the moved piece's square)
    or along a line through the square the replying piece went to (that square)."""
    side = not p.before.turn
    stepped = _guarded_through(p.after, reply.to_square, side)
    p.after.push(reply)
    try:
        for pieces, square in ((cut, p.move.to_square), (stepped, reply.to_square)):
            targets = pieces & p.after.occupied_co[side] & ~chess.BB_SQUARES[reply.to_square]
            for target in chess.scan_forward(targets):
                if (not _guarded(p.after, side, target)
                        and any(p.after.generate_legal_captures(
                            to_mask=chess.BB_SQUARES[target]))):
                    return square
        return None
    finally:
        p.after.pop()


def _clears(p: _Played) -> bool:
    """The move empties a square; after the enemy's best reply (not a check), another own
    bishop, rook or queen goes to that square or through it, to an empty square, and gives
    check, mates or wins a piece (:func:`_uses_cleared`). The move is not a promotion, nor a
    capture unless the piece that took is left where it can be taken (:func:`_exposed`).
    After the king answered, a check counts only when it mates (else it is a chase), and not
    at all after the king took the moved piece (a decoy).

    >>> board = chess.Board("6k1/6pp/8/8/8/8/4N3/4R1K1 w - - 0 1")
    >>> _clears(_play(board, "Nc3")), _clears(_play(board, "Kh1"))  # Nc3 lets Re8+ come
    (True, False)
    """
    vacated = p.move.from_square
    mover = p.before.turn
    sliders = (p.after.occupied_co[mover] & (p.after.bishops | p.after.rooks | p.after.queens)
               & ~chess.BB_SQUARES[p.move.to_square])
    if (p.move.promotion or not p.after.attackers_mask(mover, vacated) & sliders
            or (p.before.is_capture(p.move) and not _exposed(p.after, p.move.to_square))):
        return False
    _, reply = search.best_defence(p.before, p.move, depth=1)
    if reply is None:
        return False
    king = p.after.piece_type_at(reply.from_square) == chess.KING
    took = reply.to_square == p.move.to_square
    p.after.push(reply)
    try:
        if p.after.is_check():
            return False
        for move in p.after.generate_legal_moves(from_mask=sliders, to_mask=~p.after.occupied):
            path = chess.between(move.from_square, move.to_square) | chess.BB_SQUARES[
                move.to_square]
            if not path & chess.BB_SQUARES[vacated]:
                continue
            if king and p.after.gives_check(move):
                if not took and search.forces_mate(p.after, move, 1):
                    return True
            elif _uses_cleared(p.after, move):
                return True
        return False
    finally:
        p.after.pop()


def _exposed(board: chess.Board, square: chess.Square) -> bool:
    """The piece on ``square`` is attacked and either has no guard or is attacked by a cheaper
    piece (Lichess's "bad spot").

    >>> _exposed(chess.Board("4k3/8/8/3r4/4P3/8/8/4K3 b - - 0 1"), chess.D5)
    True
    """
    color = board.color_at(square)
    assert color is not None
    attackers = board.attackers_mask(not color, square)
    if not attackers:
        return False
    value = worth(_type(board, square))
    return (not _guarded(board, color, square)
            or any(worth(_type(board, a)) < value for a in chess.scan_forward(attackers)))


def _uses_cleared(board: chess.Board, move: chess.Move) -> bool:
    """The follow-up through the emptied square gives check (or mates), or attacks a piece
    (not a pawn) and wins a piece against the best defence searched two or three moves deep.

    >>> board = chess.Board("6k1/6pp/8/8/8/8/8/4R1K1 w - - 0 1")
    >>> [_uses_cleared(board, board.parse_san(san)) for san in ("Re8+", "Re4")]
    [True, False]
    """
    if board.gives_check(move):
        return True
    board.push(move)
    try:
        hits = board.attacks_mask(move.to_square) & board.occupied_co[board.turn] & ~board.pawns
    finally:
        board.pop()
    return bool(hits) and any(
        search.wins_at_least(board, move, FOLLOW_UP_GAIN, depth=depth) for depth in (2, 3))


IN_BETWEEN_GAIN = 2
"""An in-between move counts when, with the take-back, it wins at least this much, and the
take-back, when it comes, wins at least this much too (more than a pawn)."""

IN_BETWEEN_MATE = 3
"""A check after which the mover mates by checks in this many moves is an attack, not an
in-between move (unless the take-back itself gives check)."""


def _take_backs(board: chess.Board, move: chess.Move, *, least: int) -> list[chess.Move]:
    """The captures the side to move has now, besides ``move`` and by another piece, that win
    at least ``least`` once both sides have taken back (:func:`exchange`)."""
    return [back for back in board.generate_legal_captures()
            if back.to_square != move.to_square and back.from_square != move.from_square
            and not board.is_en_passant(back)
            and exchange(board, back.from_square, back.to_square) >= least]


def _still_there(board: chess.Board, backs: list[chess.Move], *,
                 gone: chess.Bitboard) -> list[chess.Move]:
    """The take-backs of ``backs`` still legal on ``board`` that still win something (not on the
    squares of ``gone``)."""
    return [back for back in backs if not chess.BB_SQUARES[back.to_square] & gone
            and board.is_legal(back) and board.is_capture(back)
            and exchange(board, back.from_square, back.to_square) > 0]


def _threatens(p: _Played, backs: list[chess.Move]) -> bool:
    """A quiet move that threatens something else than the take-backs: if the enemy could
    pass, the mover's strongest follow-up would mate or win a piece."""
    p.after.push(chess.Move.null())
    try:
        found = _follow_up(p.after)
        return found is not None and found[0] not in backs
    finally:
        p.after.pop()


def _back_on(board: chess.Board, square: chess.Square, *, move: chess.Move) -> list[chess.Move]:
    """The side to move's captures on ``square`` that lose nothing (:func:`exchange`), or all
    of them when ``move`` first takes a piece that guards ``square``.

    >>> board = chess.Board("rnbqk2r/pp3pp1/5b1p/2pB4/8/2NP2P1/PPP2P1P/R2QK1NR b KQkq - 0 9")
    >>> [[board.san(back) for back in _back_on(board, chess.D5, move=board.parse_san(san))]
    ...  for san in ("Bxc3+", "Be6")]
    [['Qxd5'], []]
    """
    guard = board.attackers_mask(not board.turn, square) & chess.BB_SQUARES[move.to_square]
    return [back for back in board.generate_legal_captures(to_mask=chess.BB_SQUARES[square])
            if not board.is_en_passant(back)
            and (guard or exchange(board, back.from_square, back.to_square) >= 0)]


IN_BETWEEN_DEPTH = 2
"""With the last move known, the in-between move and the take-back at once are compared by
what each wins, searched this many plies (then the captures)."""


def _in_between_after(p: _Played, *, lured: bool) -> bool:
    """With the enemy's last move known and a capture: the piece it brought can be taken back
    now, or once the move has taken its guard (:func:`_back_on`), but the move, which does not
    take it, gives check, captures or threatens; the move wins at least as much as taking back
    at once, and after the enemy's best reply a take-back is still there, or (the move took a
    piece) the piece that took moves on instead of taking back. No mate by checks in
    :data:`IN_BETWEEN_MATE` then, unless the take-back checks and the move is no decoy or
    deflection (``lured``)."""
    if p.last is None or not p.took:
        return False
    backs = _back_on(p.before, p.last.to_square, move=p.move)
    check, capture = p.after.is_check(), p.before.is_capture(p.move)
    if (not backs or p.move.to_square == p.last.to_square
            or not (check or capture or _threatens(p, backs))):
        return False
    gain, reply = search.best_defence(p.before, p.move, depth=IN_BETWEEN_DEPTH)
    if reply is None or gain < max(search.material_gain(p.before, back, depth=IN_BETWEEN_DEPTH)
                                   for back in backs):
        return False
    p.after.push(reply)
    try:
        still = _still_there(p.after, backs, gone=chess.BB_SQUARES[reply.to_square])
        moved_on = capture and reply.from_square == p.last.to_square
        return bool(still or moved_on) and (
            (not lured and any(p.after.gives_check(back) for back in still))
            or not search.mates_by_checks(p.after, IN_BETWEEN_MATE))
    finally:
        p.after.pop()


def _in_between(p: _Played, *, fork: bool, lured: bool) -> bool:
    """Instead of taking back a piece now (one of :func:`_take_backs`), the move first gives
    check, takes a piece the enemy takes back, or threatens to mate or win a piece; after the
    enemy's best reply the take-back is still there and is the strongest follow-up, or comes
    after the forking piece has taken (``fork``: the move is a fork). A decoy or deflection
    (``lured``) is not one, unless the last move is known (:func:`_in_between_after`). See the
    module's definition; Lichess's puzzles name it when the take-back is played two moves
    later."""
    if p.last is not None:
        return _in_between_after(p, lured=lured)
    if lured:
        return False
    check, capture = p.after.is_check(), p.before.is_capture(p.move)
    backs = _take_backs(p.before, p.move, least=0 if check else FOLLOW_UP_GAIN)
    if not backs or not (check or capture or _threatens(p, backs)):
        return False
    gain, reply = search.best_defence(p.before, p.move, depth=1)
    if (reply is None or gain < IN_BETWEEN_GAIN
            or (capture and not check and reply.to_square != p.move.to_square)):
        return False
    p.after.push(reply)
    try:
        still = _still_there(p.after, backs, gone=chess.BB_SQUARES[reply.to_square])
        found = _follow_up(p.after, least=IN_BETWEEN_GAIN)
        if not still or found is None:
            return False
        if found[0] in still:  # a check that starts a mating attack is not a pause
            return p.after.gives_check(found[0]) or not search.mates_by_checks(
                p.after, IN_BETWEEN_MATE)
        return check and fork and found[0].from_square == p.move.to_square and _back_after(
            p.after, found[0], still)
    finally:
        p.after.pop()


def _back_after(board: chess.Board, move: chess.Move, backs: list[chess.Move]) -> bool:
    """After ``move`` (the forking piece taking) and the enemy's best reply, one of ``backs``
    can still be played and wins something."""
    if not board.is_capture(move):
        return False
    _, reply = search.best_defence(board, move, depth=1)
    if reply is None:
        return False
    board.push(move)
    board.push(reply)
    try:
        gone = chess.BB_SQUARES[move.to_square] | chess.BB_SQUARES[reply.to_square]
        return bool(_still_there(board, backs, gone=gone))
    finally:
        board.pop()
        board.pop()


ZUGZWANG_REPLIES = 15
"""Zugzwang is looked for only when the enemy has at most this many moves (quick to test)."""

ZUGZWANG_PIECES = 2
"""The deeper test (:func:`_worse_to_move`) runs only in endings: at most this many pieces
besides the kings and pawns on the board (the same zugzwangs found, a tenth less grading time)."""

ZUGZWANG_PLIES = 5
"""How deep :func:`_worse_to_move` looks (then through the captures): the enemy's move, the
mover's, the enemy's, the mover's and the enemy's."""


def _zugzwang(p: _Played) -> bool:
    """Zugzwang: the enemy, not in check and with few moves, has to move and every move loses,
    though passing would lose nothing: at once (:func:`_loses_at_once`) or within a few moves
    (:func:`_worse_to_move`, searched only in an ending, :data:`ZUGZWANG_PIECES`, where the
    enemy has more than its king to lose: a lone king's moves in the basic mates cost 8 times
    as long to name without it), or, with only kings and pawns, worse off moving than passing
    (:func:`_worse_than_passing`)."""
    after = p.after
    if after.is_check() or after.is_game_over() or after.legal_moves.count() > ZUGZWANG_REPLIES:
        return False
    lone = not after.occupied_co[after.turn] & ~after.kings  # nothing of its own to lose
    ending = chess.popcount(after.occupied & ~after.pawns & ~after.kings) <= ZUGZWANG_PIECES
    return _loses_at_once(p) or (ending and not lone and _worse_to_move(p)) \
        or (pawn_endings.is_pawn_ending(after) and _worse_than_passing(after))


PAWN_ENDING_PLIES = (4, 5)
"""How deep :func:`_worse_than_passing` searches a king and pawn ending (then the captures):
the cost of moving is averaged over an even and an odd depth, as what one depth sees just
before its horizon the next often refutes."""

ZUGZWANG_CHANCE = 0.01
"""How much of Lichess's chance of winning (-1 to 1) having to move must cost on average over
:data:`PAWN_ENDING_PLIES` (about 5 centipawns: smaller differences are the search's noise, as
in ``test_zugzwang_that_wins_a_few_moves_later``'s Black move Ke6)."""

PAWN_ENDING_CHECK = (6, -0.2)
"""One ply deeper, moving must not look clearly better than passing: at this depth it may gain
at most this chance of winning (a fifth is about a pawn)."""

ZUGZWANG_STANDING = 50
"""The side to move is in no zugzwang when, moving, it stands better than this (centipawns, at
both of :data:`PAWN_ENDING_PLIES`): a move that leaves the enemy better off is no zugzwang
however little passing would gain it."""


def _worse_than_passing(after: chess.Board) -> bool:
    """In a king and pawn ending, the side to move is worse off moving than it would be passing
    (:mod:`chesskit.rules.pawn_endings`): on average over :data:`PAWN_ENDING_PLIES`, not clearly
    better off one ply deeper (:data:`PAWN_ENDING_CHECK`), and not better off moving than
    :data:`ZUGZWANG_STANDING`. Tuned on the tuning half of ``lichess-puzzles-zugzwang.csv``.

    >>> _worse_than_passing(chess.Board("8/8/6pK/5kP1/8/8/8/8 w - - 0 1"))
    True
    >>> _worse_than_passing(chess.Board("8/8/6pK/4k1P1/8/8/8/8 w - - 0 1"))
    False
    """
    scores = [_moving_and_passing(after, depth) for depth in PAWN_ENDING_PLIES]
    cost = sum(_cost(moving, passing) for moving, passing in scores) / len(scores)
    if cost < ZUGZWANG_CHANCE or min(moving for moving, _ in scores) > ZUGZWANG_STANDING:
        return False
    deeper, least = PAWN_ENDING_CHECK
    return _cost(*_moving_and_passing(after, deeper)) >= least


def _moving_and_passing(after: chess.Board, depth: int) -> tuple[int, int]:
    """The side to move's score (centipawns) moving and passing, searched ``depth`` plies."""
    moving = pawn_endings.score(after, depth=depth)
    after.push(chess.Move.null())
    try:
        return moving, -pawn_endings.score(after, depth=depth)
    finally:
        after.pop()


def _cost(moving: int, passing: int) -> float:
    """What having to move costs in Lichess's chance of winning (negative: it gains)."""
    return pawn_endings.win_chance(passing) - pawn_endings.win_chance(moving)


def _loses_at_once(p: _Played) -> bool:
    """A quiet move after which every enemy move loses at once (the mover then mates or wins
    material) though nothing is threatened: if the enemy could pass, the mover would win
    nothing."""
    after = p.after
    if p.gained():
        return False
    after.push(chess.Move.null())
    threat = _follow_up(after, least=1)
    after.pop()
    if threat is not None:
        return False
    for reply in list(after.legal_moves):
        after.push(reply)
        found = None if after.is_game_over() else _follow_up(after, least=1)
        after.pop()
        if found is None:
            return False
    return True


def _worse_to_move(p: _Played) -> bool:
    """Having to move costs the enemy a pawn or more than passing would, searched
    :data:`ZUGZWANG_PLIES` deep (:func:`search.wins_at_least`): the mover then wins a pawn and
    would win nothing if the enemy could pass, or keeps the material and would lose some (a
    mutual zugzwang). Lichess's zugzwang: an engine finds the enemy worse off to move than
    passing; here the king and pawn endings where a king must give way.

    >>> board = chess.Board("8/8/5k2/5p1p/7P/5KP1/8/8 w - - 3 47")
    >>> move = board.parse_san("Kf4")
    >>> after = board.copy()
    >>> after.push(move)
    >>> _worse_to_move(_Played(board, move, after))
    True
    """
    before, move, after = p.before, p.move, p.after
    made = (balance(after) - balance(before)) * (1 if before.turn else -1)
    for more in (1, 0):
        if search.wins_at_least(before, move, made + more, depth=ZUGZWANG_PLIES) \
                and not _wins_again(after, more):
            return True
    return False


def _wins_again(after: chess.Board, gain: int) -> bool:
    """Whether the side that just moved, moving again, wins at least ``gain`` (a negative gain:
    loses at most that much) within :data:`ZUGZWANG_PLIES` plies."""
    after.push(chess.Move.null())
    try:
        return any(search.wins_at_least(after, again, gain, depth=ZUGZWANG_PLIES - 1)
                   for again in list(after.legal_moves))
    finally:
        after.pop()


def _pin_tag(after: chess.Board, square: chess.Square, *, mate: bool, forcing: bool) -> bool:
    """The moved piece makes or uses a pin, or a pin holds an enemy piece back
    (:func:`pins_held`); a mate counts only when a pinned piece could otherwise take the mating
    piece, or a pin holds."""
    if any(forcing or _touches(after, square, front) for front, _ in pins_held(after)):
        return True
    if mate:
        return any(after.attacks_mask(front) & chess.BB_SQUARES[square]
                   for front, _ in pins_used(after, square))
    return bool(pinned_by(after, square, forcing=forcing) or pins_used(after, square))


def _touches(after: chess.Board, square: chess.Square, front: chess.Square) -> bool:
    """The piece on ``square`` stands on the pin line of the piece on ``front``, or attacks it,
    or is attacked by it."""
    near = after.pin_mask(after.turn, front) | after.attacks_mask(front)
    return bool(near & chess.BB_SQUARES[square]
                or after.attacks_mask(square) & chess.BB_SQUARES[front])


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
        "pin": _pin_tag(after, move.to_square, mate=mate,
                        forcing=bool(checkers) or before.is_capture(move)),
        "skewer": not mate and bool(skewer_targets(after, move.to_square,
                                                   banked=played.gained())),
        "discovered_attack": not mate and (bool(_discovered(before, move, after))
                                           or _discovered_next(played) is not None),
        "discovered_check": bool(checkers & ~_moved_squares(before, move)),
        "double_check": chess.popcount(checkers) >= 2,
        "hanging": not mate and _hanging(after, move.to_square, played.gained()),
        "back_rank_mate": mate and _back_rank_mate(after),
        "smothered_mate": mate and _smothered_mate(after),
    }
    if not mate:
        found["removing_the_defender"] = _removes_defender(played)
        found["decoy"] = _decoy_reply(played, trade=found["removing_the_defender"]) is not None
        found["deflection"] = not found["decoy"] and _deflects(played)
        found["interference"] = _interferes(played)
        found["clearance"] = _clears(played)
        found["in_between_move"] = _in_between(
            played, fork=found["fork"], lured=found["decoy"] or found["deflection"])
        found["zugzwang"] = _zugzwang(played)
    return frozenset(tag for tag, present in found.items() if present)


def _last(before: chess.Board, last_move: MoveLike | None) -> tuple[chess.Move | None, bool]:
    """The enemy's move that led to ``before`` and whether it took a piece: ``last_move`` when
    given (a ``chess.Move`` or UCI text, read as a capture: the caller says what was just
    taken; "" or None: not given), else the last move of the board's move stack, else None.
    Raises ``MoveError`` when the given move's to-square holds no piece of the side that
    played it.

    >>> board = chess.Board()
    >>> board.push_san("e4")
    Move.from_uci('e2e4')
    >>> _last(board, None), _last(chess.Board(board.fen()), "e2e4")
    ((Move.from_uci('e2e4'), False), (Move.from_uci('e2e4'), True))
    >>> board.push(chess.Move.null())
    >>> _last(board, None)
    (None, True)
    """
    if not last_move:
        if not before.move_stack:
            return None, True
        earlier = before.copy(stack=1)
        move = earlier.pop()
        if not move:  # a drill's pass: nothing was played
            return None, True
        return move, earlier.is_capture(move)
    try:
        move = last_move if isinstance(last_move, chess.Move) else chess.Move.from_uci(
            last_move.strip())
    except ValueError:
        move = chess.Move.null()
    piece = before.piece_at(move.to_square) if move else None
    if piece is None or piece.color == before.turn:
        raise MoveError("no_piece", t("tactics.not_last_move", move=str(last_move),
                                      side=color_name(not before.turn)))
    return move, True


def _play(position: Position, move: MoveLike, last_move: MoveLike | None = None) -> _Played:
    before = to_board(position)
    if isinstance(move, chess.Move) and before.is_legal(move):
        legal = move
    else:
        legal = read_move(before, move.uci() if isinstance(move, chess.Move) else move)
    after = before.copy(stack=False)
    after.push(legal)
    return _Played(before, legal, after, *_last(before, last_move))


def motifs(position: Position, move: MoveLike, *, last_move: MoveLike | None = None
           ) -> frozenset[str]:
    """The tags of :data:`MOTIFS` that name what ``move`` does in ``position`` (before the move).

    The enemy's move that led to the position (``last_move``, or the last move of a
    ``chess.Board``'s move stack) tells the in-between move what was just taken; without it
    the in-between move is guessed from the position alone.

    Raises ``PositionError`` or ``MoveError`` for a position or move that cannot be read.

    >>> sorted(motifs("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8#"))
    ['back_rank_mate', 'check', 'mate']
    """
    return _known_tags(_play(position, move, last_move))


def _known_tags(played: _Played) -> frozenset[str]:
    """:func:`_tags`, remembered per position, move and last move."""
    return _cached(_TAGS, (position_key(played.before), played.move, played.last, played.took),
                   lambda: _tags(played))


def _names(board: chess.Board, squares: list[chess.Square], lang: str | None) -> str:
    return join_words([piece_on(_type(board, s), s, lang=lang) for s in squares], lang=lang)


_Fields = Callable[[_Played, str | None], dict[str, str]]


def _fork(p: _Played, lang: str | None) -> dict[str, str]:
    return {"targets": _names(p.after, fork_targets(p.after, p.move.to_square), lang)}


def _pin(p: _Played, lang: str | None) -> dict[str, str]:
    pinned, behind = (pinned_by(p.after, p.move.to_square)
                      or pins_used(p.after, p.move.to_square)
                      or sorted(pins_held(p.after), key=lambda pair: not _touches(
                          p.after, p.move.to_square, pair[0])))[0]
    return {"pinned": _names(p.after, [pinned], lang), "behind": _names(p.after, [behind], lang)}


def _skewer(p: _Played, lang: str | None) -> dict[str, str]:
    front, behind = skewer_targets(p.after, p.move.to_square, banked=p.gained())[0]
    return {"front": _names(p.after, [front], lang), "behind": _names(p.after, [behind], lang)}


def _discovered_attack(p: _Played, lang: str | None) -> dict[str, str]:
    """The slider and its target; with "reply" when the attack comes only after the enemy's
    reply (Lichess's sense, one move on: the slider does not attack its target yet)."""
    found = _discovered(p.before, p.move, p.after)
    reply = None
    if found:
        attacker, target = found[0]
    else:
        attacker, target, reply = _discovered_next(p) or (p.move.to_square,) * 2 + (None,)
        if p.after.attacks_mask(attacker) & chess.BB_SQUARES[target]:
            reply = None
    fields = {"attacker": _names(p.after, [attacker], lang),
              "target": _names(p.after, [target], lang)}
    if reply is not None:
        fields["reply"] = p.after.san(reply)
    return fields


def _sentence_key(p: _Played, tag: str, fields: Mapping[str, str]) -> str:
    """The text of ``tag`` for this move: a pin already there is "used", a discovered attack
    that comes after the reply says so, an in-between move that is no check says what it is."""
    if tag == "pin" and not pinned_by(p.after, p.move.to_square):
        return "pin_used"
    if tag == "in_between_move" and not p.after.is_check():
        return "in_between_move_forcing"
    if tag == "discovered_attack" and "reply" in fields:
        return "discovered_attack_next"
    return tag


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


def _to_square(p: _Played, lang: str | None) -> dict[str, str]:
    return {"square": chess.square_name(p.move.to_square)}


def _from_square(p: _Played, lang: str | None) -> dict[str, str]:
    return {"square": chess.square_name(p.move.from_square)}


def _moved(p: _Played, lang: str | None) -> dict[str, str]:
    return {"piece": _names(p.after, [p.move.to_square], lang)}


def _interference(p: _Played, lang: str | None) -> dict[str, str]:
    """The piece in the way: the moved one, or the enemy piece that answers by stepping into a
    line of its own side."""
    found = _in_the_way(p)
    if found is None:
        return _moved(p, lang)
    board, square = found
    return {"piece": _names(board, [square], lang)}


def _nothing(p: _Played, lang: str | None) -> dict[str, str]:
    return {}


# The first tag present names the move (most telling first); "quiet" when none is.
_SENTENCES: tuple[tuple[str, _Fields], ...] = (
    ("smothered_mate", _nothing), ("back_rank_mate", _nothing), ("mate", _nothing),
    ("stalemate", _nothing), ("double_check", _nothing), ("fork", _fork),
    ("discovered_check", _discovered_check), ("pin", _pin), ("skewer", _skewer),
    ("discovered_attack", _discovered_attack), ("decoy", _to_square),
    ("interference", _interference), ("removing_the_defender", _capture),
    ("clearance", _from_square), ("deflection", _nothing),
    ("in_between_move", _nothing), ("zugzwang", _nothing), ("promotion", _promotion),
    ("en_passant", _en_passant), ("castling", _nothing), ("check", _check),
    ("capture", _capture),
)


def _clause(p: _Played, tags: frozenset[str], lang: str | None) -> str:
    for tag, fields in _SENTENCES:
        if tag in tags:
            if tag == "castling":
                side = "kingside" if p.before.is_kingside_castling(p.move) else "queenside"
                return t(f"tactics.castling_{side}", lang=lang, san="{san}")
            values = fields(p, lang)
            return t(f"tactics.{_sentence_key(p, tag, values)}", lang=lang, san="{san}",
                     **values)
    return t("tactics.quiet", lang=lang, san="{san}")


def describe_motifs(position: Position, move: MoveLike, *, lang: str | None = None,
                    hanging: bool = True, last_move: MoveLike | None = None) -> str:
    """One sentence for a beginner naming what the move does, with pieces and squares.

    ``hanging=False`` leaves out "but ... can be taken for free" (for a move already known to
    be right, such as a winning sacrifice). ``last_move`` as in :func:`motifs`.

    Raises like :func:`motifs` for a position or move that cannot be read.

    >>> describe_motifs("4k3/8/2n5/8/8/8/8/4KB2 w - - 0 1", "Bb5", lang="en")
    'Bb5 pins the knight on c6 to the king on e8.'
    >>> describe_motifs("4k3/8/2n5/8/8/8/8/4KB2 w - - 0 1", "Bb5", lang="zh-Hans")
    'Bb5牵制了c6的马：它一走开，e8的王就会被攻击。'
    """
    played = _play(position, move, last_move)
    tags = _known_tags(played)
    clause = _clause(played, tags, lang)
    if hanging and "hanging" in tags:
        piece = piece_on(played.mover, played.move.to_square, lang=lang)
        sentence = t("tactics.sentence_hanging", lang=lang, clause=clause, piece=piece)
    else:
        sentence = t("tactics.sentence", lang=lang, clause=clause)
    # SAN is filled in last: a sentence starting with a pawn move ("exd6") keeps its small letter.
    return sentence.replace("{san}", played.before.san(played.move))


def _decoy(p: _Played, lang: str | None) -> dict[str, str]:
    reply = _decoy_reply(p)
    assert reply is not None
    return {"piece": _names(p.after, [reply.from_square], lang),
            "square": chess.square_name(p.move.to_square)}


NAMED = ("decoy", "deflection", "removing_the_defender", "interference", "clearance",
         "in_between_move", "zugzwang", "fork", "pin", "skewer", "discovered_attack")
"""The tactics :func:`name_right_move` names, the first present first (the second part's
seven before the first part's four: a lesson about them asks for them)."""

_NAMED_FIELDS: dict[str, _Fields] = {**dict(_SENTENCES), "decoy": _decoy}


def name_right_move(position: Position, move: MoveLike, *, motif: str | None = None,
                    lang: str | None = None, last_move: MoveLike | None = None) -> str:
    """For a wrong answer in a tactic lesson: which tactic the right ``move`` uses, in one
    sentence ("The right move was Qxd8+: a decoy, ..."). ``motif`` (a tag of :data:`NAMED`)
    is named when the move has it, else the first tag of :data:`NAMED` it has; a move with
    none of them gets :func:`describe_motifs`'s sentence. ``last_move`` as in :func:`motifs`.

    Raises like :func:`motifs` for a position or move that cannot be read.

    >>> name_right_move("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", "Nc7+", lang="en")
    'The right move was Nc7+: a fork, it attacks the king on e8 and the rook on a8 at once.'
    """
    played = _play(position, move, last_move)
    tags = _known_tags(played)
    named = [motif] if motif in tags and motif in NAMED else [n for n in NAMED if n in tags]
    if not named:
        return describe_motifs(position, move, lang=lang, hanging=False, last_move=last_move)
    tag = named[0]
    fields = _NAMED_FIELDS[tag](played, lang)
    key = _sentence_key(played, tag, fields)
    return t("tactics.right_move", lang=lang, san=played.before.san(played.move),
             named=t(f"tactics.named_{key}", lang=lang, **fields))


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
    tags = _known_tags(played)
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
