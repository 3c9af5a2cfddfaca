"""The small searches the exercise checks need: forced mates, material won, perpetual check,
and the defender of the ``playout`` endings.

Every function works on a ``chess.Board`` with push/pop and leaves it as it found it.

>>> board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
>>> [board.san(m) for m in mate_in(board, 1)]
['Ra8#']
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

import chess
import chess.engine

from chesskit.errors import EngineMissingError
from chesskit.rules import engine as stockfish
from chesskit.rules.position import PositionKey, position_key
from chesskit.rules.values import VALUES, balance

MATE_SCORE = 1000
SAFE_REPLY = 4
"""A refutation shown to a learner never lets them mate in this many moves by checks when
another reply refutes the move as well (:func:`allows_mate`)."""
_CENTRE = (3.5, 3.5)


def ordered_moves(board: chess.Board) -> list[chess.Move]:
    """Legal moves, checks first, then captures (biggest victim first), then the rest.

    >>> ordered_moves(chess.Board("6k1/8/8/8/8/8/8/R5K1 w - - 0 1"))[0].uci()
    'a1a8'
    """
    def key(move: chess.Move) -> tuple[int, int, str]:
        victim = board.piece_type_at(move.to_square)
        return (0 if _may_check(board, move) and board.gives_check(move) else 1,
                -VALUES.get(victim, 1 if board.is_en_passant(move) else 0) if victim else 0,
                move.uci())
    return sorted(board.legal_moves, key=key)


def _by_victim(board: chess.Board, moves: Iterable[chess.Move]) -> list[chess.Move]:
    """Captures, biggest victim first, then smallest attacker first."""
    def key(move: chess.Move) -> int:
        victim = board.piece_type_at(move.to_square) or chess.PAWN  # en passant
        return VALUES[board.piece_type_at(move.from_square) or chess.PAWN] - 10 * VALUES[victim]
    return sorted(moves, key=key)


def _captures(board: chess.Board) -> list[chess.Move]:
    """Legal captures, biggest victim first (no check test: the quiescence search's hot path)."""
    return _by_victim(board, board.generate_legal_captures())


def _mates_now(board: chess.Board) -> Iterator[chess.Move]:
    for move in board.legal_moves:
        if _may_check(board, move) and board.gives_check(move):
            board.push(move)
            mate = board.is_checkmate()
            board.pop()
            if mate:
                yield move


def can_mate(board: chess.Board, n: int) -> bool:
    """True when the side to move can force mate in at most ``n`` moves against every defence.

    >>> can_mate(chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"), 1)
    True
    """
    return _can_mate(board, n, {})


_Memo = dict[tuple[object, int], bool]


def _can_mate(board: chess.Board, n: int, memo: _Memo, checks: bool = False) -> bool:
    """:func:`can_mate`; with ``checks``, by checking moves only (:func:`mates_by_checks`)."""
    if n <= 0:
        return False
    if n == 1:
        return next(_mates_now(board), None) is not None
    key = (position_key(board), n)
    known = memo.get(key)
    if known is None:
        moves = ([m for m in board.generate_legal_moves()
                  if _may_check(board, m) and board.gives_check(m)] if checks
                 else ordered_moves(board))
        known = remember(memo, key, any(_forces(board, move, n, memo, checks)
                                        for move in moves))
    return known


def _forces(board: chess.Board, move: chess.Move, n: int, memo: _Memo,
            checks: bool = False) -> bool:
    board.push(move)
    try:
        if board.is_checkmate():
            return True
        replies = list(board.legal_moves) if checks else ordered_moves(board)
        if not replies:
            return False
        return all(_after_reply(board, reply, n - 1, memo, checks) for reply in replies)
    finally:
        board.pop()


def _after_reply(board: chess.Board, reply: chess.Move, n: int, memo: _Memo,
                 checks: bool = False) -> bool:
    board.push(reply)
    try:
        return _can_mate(board, n, memo, checks)
    finally:
        board.pop()


def forces_mate(board: chess.Board, move: chess.Move, n: int) -> bool:
    """True when ``move`` mates at once or forces mate within ``n`` moves in all (move included).

    >>> b = chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    >>> forces_mate(b, chess.Move.from_uci("a1a8"), 1)
    True
    """
    return _forces(board, move, n, {})


def refutation(board: chess.Board, move: chess.Move, n: int) -> chess.Move | None:
    """A defence after which ``move`` no longer forces mate within ``n`` moves (the first in
    :func:`ordered_moves` order); None when it does force mate, or leaves no legal reply.

    >>> b = chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    >>> refutation(b, chess.Move.from_uci("a1a7"), 1).uci()
    'f7f5'
    >>> refutation(b, chess.Move.from_uci("a1a8"), 1) is None
    True
    """
    memo: _Memo = {}
    board.push(move)
    try:
        if board.is_checkmate():
            return None
        return next((reply for reply in ordered_moves(board)
                     if not _after_reply(board, reply, n - 1, memo)), None)
    finally:
        board.pop()


def mate_in(board: chess.Board, n: int) -> list[chess.Move]:
    """Every move that forces mate in at most ``n`` moves, in UCI order."""
    memo: _Memo = {}
    if n == 1:
        return sorted(_mates_now(board), key=chess.Move.uci)
    return sorted((m for m in board.legal_moves if _forces(board, m, n, memo)), key=chess.Move.uci)


def shortest_mate(board: chess.Board, *, limit: int = 4) -> int | None:
    """The smallest n for which the side to move forces mate in n (None up to ``limit``).

    >>> shortest_mate(chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"))
    1
    """
    memo: _Memo = {}
    return next((n for n in range(1, limit + 1) if _can_mate(board, n, memo)), None)


_Key = TypeVar("_Key")
_Value = TypeVar("_Value")
TableEntry = tuple[int, int, "chess.Move | None"]
_EXACT, _LOWER, _UPPER = 0, 1, 2
_TABLE: dict[tuple[object, int], TableEntry] = {}
_TABLE_LIMIT = 100_000
"""The transposition table of :func:`_negamax`: (position, depth) -> (score, bound kind, best
move). A score is a bound of the position's true value (exact, at least, at most), so a
remembered one is valid in any later search: results never depend on what was searched before.
The table is emptied when it holds ``_TABLE_LIMIT`` positions, so memory stays bounded."""
_CHECK_MATES: _Memo = {}
"""Positions :func:`mates_by_checks` has decided, by (position, moves)."""
_DEFENCES: dict[tuple[object, chess.Move, int, int], tuple[int, chess.Move | None]] = {}
""":func:`best_defence`'s answers by (position, move, depth, safe): a class answers the same
wrong move again and again, in more than one language."""
_KILLERS: dict[int, chess.Move] = {}
"""The last move that refuted a position at each depth: tried early in the next one."""


def remember(cache: dict[_Key, _Value], key: _Key, value: _Value) -> _Value:
    """Store ``value`` in a cache of searched positions (emptied when it holds
    ``_TABLE_LIMIT`` entries, so memory stays bounded) and return it."""
    if len(cache) >= _TABLE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


def table_score(known: TableEntry | None, alpha: int, beta: int) -> int | None:
    """A remembered score that settles a search between ``alpha`` and ``beta`` (an exact
    score, or a bound outside the window), else None.

    >>> table_score(table_entry(30, 0, 20, None), 0, 20), table_score((5, _LOWER, None), 0, 20)
    (30, None)
    """
    if known is None:
        return None
    score, kind, _ = known
    if kind == _EXACT or (kind == _LOWER and score >= beta) or (kind == _UPPER and score <= alpha):
        return score
    return None


def table_entry(best: int, alpha: int, beta: int, move: chess.Move | None) -> TableEntry:
    """What a fail-soft alpha-beta search that started with the window (``alpha``, ``beta``)
    and found ``best`` remembers: the score, whether it is exact or a bound, and the move."""
    kind = _UPPER if best <= alpha else _LOWER if best >= beta else _EXACT
    return (best, kind, move)


def mates_by_checks(board: chess.Board, n: int) -> bool:
    """True when the side to move mates in at most ``n`` moves giving check at every move,
    whatever the defence: a cheap test for a short forced mate (the defender has only the
    answers to a check).

    >>> b = chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    >>> mates_by_checks(b, 1), mates_by_checks(chess.Board(), 3)
    (True, False)
    """
    return _can_mate(board, n, _CHECK_MATES, checks=True)


def _staged(board: chess.Board, first: tuple[chess.Move | None, ...]) -> Iterator[chess.Move]:
    """Legal moves for the material search, generated as needed: the ``first`` moves that are
    legal, then captures (biggest victim first), then the rest. The order only makes the search
    faster: a refutation found early spares generating the others."""
    tried: list[chess.Move] = []
    for move in first:
        if move is not None and move not in tried and board.is_legal(move):
            tried.append(move)
            yield move
    captures = list(board.generate_legal_captures())
    yield from (m for m in _by_victim(board, captures) if m not in tried)
    quiet = ~board.occupied_co[not board.turn]
    yield from (m for m in board.generate_legal_moves(to_mask=quiet)
                if m not in tried and not board.is_en_passant(m))


def _gain(board: chess.Board, move: chess.Move) -> int:
    """The material ``move`` wins at once: what it takes, and what a promotion adds."""
    taken = VALUES[board.piece_type_at(move.to_square) or chess.PAWN] if (
        board.is_capture(move)) else 0
    return taken + (VALUES[move.promotion] - 1 if move.promotion else 0)


def _may_check(board: chess.Board, move: chess.Move) -> bool:
    """False only when ``move`` cannot give check: it neither leaves nor reaches a line or a
    knight's jump from the enemy king (cheaper than ``gives_check``, which plays the move).

    >>> b = chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    >>> _may_check(b, b.parse_san("Ra8+")), _may_check(b, b.parse_san("Rb1"))
    (True, False)
    """
    king = board.king(not board.turn)
    if king is None or board.is_castling(move) or board.is_en_passant(move):
        return True
    return bool(chess.BB_RAYS[king][move.from_square] | chess.BB_RAYS[king][move.to_square]
                | chess.BB_KNIGHT_ATTACKS[king] & chess.BB_SQUARES[move.to_square])


def _quiesce(board: chess.Board, alpha: int, beta: int, depth: int) -> int:
    """Captures only; scores from the side to move's view.

    A capture that cannot check scores at most the stand-pat score plus what it wins (the
    other side may always stand pat), so one that cannot reach ``alpha`` is not searched."""
    if board.is_checkmate():
        return -MATE_SCORE
    stand = balance(board) * (1 if board.turn else -1)
    if depth == 0 or stand >= beta:
        return stand
    alpha = max(alpha, stand)
    for move in _captures(board):
        if stand + _gain(board, move) <= alpha and not _may_check(board, move):
            continue
        board.push(move)
        score = -_quiesce(board, -beta, -alpha, depth - 1)
        board.pop()
        if score >= beta:
            return score
        alpha = max(alpha, score)
    return alpha


def _negamax(board: chess.Board, depth: int, alpha: int, beta: int) -> int:
    """The side to move's score ``depth`` plies deep, then through the captures (fail-soft
    alpha-beta: exact inside (alpha, beta), a bound outside).

    One ply from the end, a move that cannot check scores at most the stand-pat score plus
    what it wins, or 0 (a stalemate): when that cannot reach ``alpha`` it is not searched and
    that bound counts as its score."""
    if depth == 0:
        if not any(board.generate_legal_moves()):
            return -MATE_SCORE if board.is_check() else 0
        return 0 if board.is_insufficient_material() else _quiesce(board, alpha, beta, 4)
    key = (position_key(board), depth)
    known = _TABLE.get(key)
    settled = table_score(known, alpha, beta)
    if settled is not None:
        return settled
    if board.is_insufficient_material():
        return -MATE_SCORE if board.is_checkmate() else 0
    stand = balance(board) * (1 if board.turn else -1)
    best, start, best_move, moved = -MATE_SCORE - 1, alpha, None, False
    for move in _staged(board, (known[2] if known else None, _KILLERS.get(depth))):
        moved = True
        if depth == 1:
            bound = max(stand + _gain(board, move), 0)
            if bound <= alpha and not _may_check(board, move):
                best = max(best, bound)
                continue
        board.push(move)
        score = -_negamax(board, depth - 1, -beta, -alpha)
        board.pop()
        if score > best:
            best, best_move = score, move
        alpha = max(alpha, score)
        if alpha >= beta:
            _KILLERS[depth] = move
            break
    if not moved:
        return -MATE_SCORE if board.is_check() else 0
    remember(_TABLE, key, table_entry(best, start, beta, best_move))
    return best


def _least(board: chess.Board, replies: list[chess.Move], depth: int,
           skip: frozenset[chess.Move]) -> tuple[int, int]:
    """The score of the reply (not in ``skip``) that leaves the side to move after it least,
    and its index in ``replies`` (the first of equally good ones)."""
    known = _TABLE.get((position_key(board), depth))
    best: tuple[int, int] | None = None  # score, index in replies
    for index in sorted(range(len(replies)), key=lambda i: known is None
                        or replies[i] != known[2]):  # the remembered best reply first
        if replies[index] in skip:
            continue
        board.push(replies[index])
        # only a score below the best so far (or equal, for an earlier reply) matters:
        # search with that as the bound, below which scores are exact
        bound = MATE_SCORE + 1 if best is None else best[0] + (1 if index < best[1] else 0)
        score = _negamax(board, depth - 1, -MATE_SCORE - 1, bound)
        board.pop()
        if best is None or score < bound:
            best = (score, index)
    assert best is not None  # called with a reply not in skip
    return best


def allows_mate(board: chess.Board, reply: chess.Move, n: int = 0) -> bool:
    """True when after ``reply`` the other side mates in ``n`` (default :data:`SAFE_REPLY`)
    moves by checks (:func:`mates_by_checks`).

    >>> b = chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1")
    >>> allows_mate(b, b.parse_san("Kf8")), allows_mate(b, b.parse_san("Kh8"))
    (False, True)
    """
    board.push(reply)
    try:
        return mates_by_checks(board, n or SAFE_REPLY)
    finally:
        board.pop()


def best_defence(board: chess.Board, move: chess.Move, *, depth: int = 2, safe: int = 0,
                 ) -> tuple[int, chess.Move | None]:
    """What the mover is sure to win with ``move`` against every reply (searched ``depth`` >= 1
    plies after the move, then through the captures; a mate counts as 1000), and the reply
    that holds the mover to that (None when the move ends the game).

    With ``safe`` = n, a reply after which the mover mates in n by checks
    (:func:`mates_by_checks`) is left out while another reply is not: the refutation shown to
    a learner never walks into a mate, and the gain is what the mover wins against it.

    >>> b = chess.Board("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1")
    >>> gain, reply = best_defence(b, chess.Move.from_uci("d1d5"))
    >>> gain, reply.uci()
    (9, 'e8e7')
    """
    key = (position_key(board), move, depth, safe)
    known = _DEFENCES.get(key)
    return known if known is not None else remember(
        _DEFENCES, key, _best_defence(board, move, depth, safe))


def _best_defence(board: chess.Board, move: chess.Move, depth: int, safe: int,
                  ) -> tuple[int, chess.Move | None]:
    before = balance(board) * (1 if board.turn else -1)
    board.push(move)
    try:
        if board.is_checkmate():
            return MATE_SCORE, None
        if board.is_stalemate() or board.is_insufficient_material():
            return -before, None
        replies = ordered_moves(board)  # of equally good replies, the first is named
        score, index = first = _least(board, replies, depth, frozenset())
        unsafe: set[chess.Move] = set()
        while safe and allows_mate(board, replies[index], safe):
            unsafe.add(replies[index])
            if len(unsafe) == len(replies):  # every reply allows one: the best is named
                score, index = first
                break
            score, index = _least(board, replies, depth, frozenset(unsafe))
    finally:
        board.pop()
    return (score if abs(score) >= MATE_SCORE else score - before), replies[index]


def material_gain(board: chess.Board, move: chess.Move, *, depth: int = 2) -> int:
    """Material the mover is sure to win with ``move`` (see :func:`best_defence`).

    >>> b = chess.Board("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1")
    >>> material_gain(b, chess.Move.from_uci("d1d5"))
    9
    """
    return best_defence(board, move, depth=depth)[0]


def wins_at_least(board: chess.Board, move: chess.Move, gain: int, *, depth: int = 2) -> bool:
    """True when ``move`` wins at least ``gain`` against every reply (a null-window search)."""
    sign = 1 if board.turn else -1
    target = balance(board) * sign + gain
    board.push(move)
    try:
        score = -_negamax(board, depth, -target, -target + 1)
    finally:
        board.pop()
    return score >= target


def is_perpetual(board: chess.Board, move: chess.Move, *, plies: int = 10) -> bool:
    """True when ``move`` gives check and the mover can keep checking, whatever the defence,
    until a position repeats (or mate), within ``plies`` half-moves.

    >>> b = chess.Board("6k1/5ppp/8/8/8/8/q7/1Q4K1 w - - 0 1")
    >>> is_perpetual(b, chess.Move.from_uci("b1b2"))
    False
    """
    if not board.gives_check(move):
        return False
    board.push(move)
    try:
        return _defender_keeps_checked(board, plies, {position_key(board)}, {})
    finally:
        board.pop()


def _defender_keeps_checked(board: chess.Board, plies: int, seen: set[PositionKey],
                            memo: dict[tuple[object, int], bool]) -> bool:
    if board.is_checkmate():
        return True
    replies = list(board.legal_moves)
    if not replies or plies <= 0:
        return False
    for reply in replies:
        board.push(reply)
        key = position_key(board)
        ok = key in seen or _checker_continues(board, plies - 1, seen | {key}, memo)
        board.pop()
        if not ok:
            return False
    return True


def _checker_continues(board: chess.Board, plies: int, seen: set[PositionKey],
                       memo: dict[tuple[object, int], bool]) -> bool:
    memo_key = (position_key(board), plies)
    if memo_key in memo:
        return memo[memo_key]
    result = False
    for move in board.legal_moves:
        if not board.gives_check(move):
            continue
        board.push(move)
        key = position_key(board)
        result = key in seen or _defender_keeps_checked(board, plies - 1, seen | {key}, memo)
        board.pop()
        if result:
            break
    memo[memo_key] = result
    return result


def stubborn_reply(board: chess.Board, *, limit: int = 3) -> chess.Move | None:
    """The most stubborn defence: the reply after which mate takes longest (no mate within
    ``limit`` counts as longest), then the one leaving the attacker most moves, then UCI order.

    >>> stubborn_reply(chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1")).uci()
    'f7f5'
    """
    def key(reply: chess.Move) -> tuple[int, int, str]:
        board.push(reply)
        try:
            length = shortest_mate(board, limit=limit) or limit + 1
            return (-length, -board.legal_moves.count(), reply.uci())
        finally:
            board.pop()
    return min(board.legal_moves, key=key, default=None)


def centre_distance(square: chess.Square) -> float:
    return max(abs(chess.square_file(square) - _CENTRE[0]),
               abs(chess.square_rank(square) - _CENTRE[1]))


def _defence_key(board: chess.Board, move: chess.Move) -> tuple[int, int, float, int, str]:
    board.push(move)
    try:
        stalemate = 1 if board.is_stalemate() else 0
        mated_next = 1 if next(_mates_now(board), None) is not None else 0
        king = board.king(not board.turn)
        centre = centre_distance(king) if king is not None else 0.0
        return (stalemate, mated_next, centre, -_room(board), move.uci())
    finally:
        board.pop()


def _room(board: chess.Board) -> int:
    """How many moves the side that just moved would have if it could move again."""
    if board.is_check():
        return 0
    board.push(chess.Move.null())
    count = board.legal_moves.count()
    board.pop()
    return count


def builtin_defence(board: chess.Board) -> chess.Move | None:
    """The built-in defender: stays as far from mate as it can (never allows a mate in one when
    it can help it), keeps its king near the centre with room to move, never picks a stalemate;
    ties broken by UCI order, so it is deterministic.

    >>> builtin_defence(chess.Board("8/8/8/4k3/8/8/8/KQ6 b - - 0 1")).uci()
    'e5d5'
    """
    moves = list(board.legal_moves)
    if not moves:
        return None
    return min(moves, key=lambda m: _defence_key(board, m))


Defender = Callable[[chess.Board], "chess.Move | None"]


@contextlib.contextmanager
def defender(*, engine: bool = False, nodes: int = 20000) -> Iterator[Defender]:
    """The defender of a ``playout`` as a function board -> move, for one game.

    :func:`builtin_defence` by default, so a playout is graded the same on every machine (with
    or without Stockfish); Stockfish with a fixed node count (one thread, hash cleared every
    move) when ``engine`` is True and it is installed.

    >>> with defender(engine=False) as defend:
    ...     defend(chess.Board("8/8/8/4k3/8/8/8/KQ6 b - - 0 1")).uci()
    'e5d5'
    """
    with contextlib.ExitStack() as stack:
        sf = None
        if engine and stockfish.available():
            with contextlib.suppress(EngineMissingError):
                sf = stack.enter_context(stockfish.open_engine())

        def defend(board: chess.Board) -> chess.Move | None:
            if sf is None or board.is_game_over():
                return builtin_defence(board)
            return sf.play(board, chess.engine.Limit(nodes=nodes), game=object()).move

        yield defend


def defender_move(board: chess.Board, *, engine: bool = False,
                  nodes: int = 20000) -> chess.Move | None:
    """One move of :func:`defender` (starts and stops Stockfish: use ``defender`` for a game)."""
    with defender(engine=engine, nodes=nodes) as defend:
        return defend(board)
