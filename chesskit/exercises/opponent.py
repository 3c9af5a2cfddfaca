"""The built-in opponents: the other side of the mini-games, and the attacker of the basic mates.

Both are deterministic (the same position gives the same move, ties broken by UCI order) and
use python-chess for every rule.

Mini-games (:data:`RULES`), each with a rule a child can say in one sentence:

- ``pawn_war``: only pawns; the first to make a queen wins; a side that cannot move loses.
- ``king_race``: the first king to reach the far rank (White the 8th, Black the 1st) wins.
- ``most_captures``: after ``max_moves`` moves each, the side that took more points wins.
- ``piece_v_pawns``: one piece against pawns; the piece wins when every pawn is taken (or
  none can move), the pawns win when one becomes a queen.

A side that cannot move loses every mini-game.  The attacker (:func:`attacker_move`) plays the
technique of lessons 10-11 for K+Q, K+R+R and K+R against a lone king: shrink the box the king
lives in, keep the pieces safe, bring the king, mate, never stalemate.

>>> b = chess.Board("8/pp6/8/8/8/8/PP6/8 b - - 0 1")
>>> reply(b, rule="pawn_war").uci()
'a7a5'
>>> attacker_move(chess.Board("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1")).uci()
'g1g7'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal, get_args

import chess

from chesskit.errors import OpponentError as OpponentError  # also importable from here
from chesskit.i18n import piece_name, t
from chesskit.rules import search, values
from chesskit.rules.position import PositionKey, position_key

Rule = Literal["pawn_war", "king_race", "most_captures", "piece_v_pawns"]
RULES: tuple[Rule, ...] = get_args(Rule)
WIN = 1000
DRAW: Literal["draw"] = "draw"
"""What :func:`winner` says when the game is over and nobody won."""
Outcome = bool | Literal["draw"]
_REPLY_DEPTH = 2
"""Plies the mini-game opponent looks ahead (its move and the learner's answer)."""


# -- mini-games ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Game:
    """A mini-game: its rule, the learner's colour, the start position and the move limit."""

    rule: Rule
    learner: chess.Color
    start: chess.Board
    max_moves: int

    def captured(self, board: chess.Board, color: chess.Color) -> int:
        """The points ``color`` has taken so far (what the other side lost)."""
        return values.material(self.start, not color) - values.material(board, not color)


def _promoted(board: chess.Board) -> chess.Color | None:
    """The side whose last move made a new piece (a promotion), if any."""
    if board.move_stack and board.move_stack[-1].promotion:
        return not board.turn
    return None


def _king_home(board: chess.Board, color: chess.Color) -> bool:
    king = board.king(color)
    return king is not None and chess.square_rank(king) == (7 if color else 0)


def winner(game: Game, board: chess.Board, *, moves: int) -> Outcome | None:
    """Who has won on ``board`` after the learner's ``moves`` moves: a colour, :data:`DRAW`
    when the game is over without a winner, ``None`` while it goes on.

    >>> g = Game("pawn_war", chess.WHITE, chess.Board("8/8/8/8/8/8/P7/8 w - - 0 1"), 5)
    >>> winner(g, g.start, moves=0) is None
    True
    """
    mover = not board.turn
    if game.rule in ("pawn_war", "piece_v_pawns") and _promoted(board) is not None:
        return _promoted(board)
    if game.rule == "king_race" and _king_home(board, mover):
        return mover
    if game.rule == "piece_v_pawns" and not board.pieces(chess.PAWN, not game.learner):
        return game.learner
    if not any(board.legal_moves):
        return not board.turn
    if moves >= game.max_moves and board.turn == game.learner:
        if game.rule == "most_captures":
            mine, theirs = (game.captured(board, c) for c in (game.learner, not game.learner))
            return game.learner if mine > theirs else (not game.learner if theirs > mine
                                                       else DRAW)
        return DRAW
    return None


def _advance(board: chess.Board, color: chess.Color) -> int:
    """How far ``color``'s pawns have come, summed (a pawn on its 7th rank counts 6)."""
    return sum(chess.square_rank(sq) if color else 7 - chess.square_rank(sq)
               for sq in board.pieces(chess.PAWN, color))


def _score(game: Game, board: chess.Board, color: chess.Color) -> int:
    """How good ``board`` is for ``color`` in the mini-game (no winner yet)."""
    other = not color
    if game.rule == "king_race":
        def distance(c: chess.Color) -> int:
            king = board.king(c)
            return 8 if king is None else (7 - chess.square_rank(king) if c
                                           else chess.square_rank(king))
        return 10 * (distance(other) - distance(color))
    if game.rule == "most_captures":
        return 10 * (game.captured(board, color) - game.captured(board, other))
    pawns = 10 * (len(board.pieces(chess.PAWN, color)) - len(board.pieces(chess.PAWN, other)))
    return pawns + 3 * (_advance(board, color) - _advance(board, other)) \
        + values.material(board, color) - values.material(board, other) \
        + _race(board, color)


def _steps_to_queen(board: chess.Board, color: chess.Color) -> int | None:
    """The fewest moves a free pawn of ``color`` needs to become a queen (no enemy pawn in front
    of it or on the files beside it, nothing standing on its file), None without one."""
    best: int | None = None
    enemies = board.pieces(chess.PAWN, not color)
    for square in board.pieces(chess.PAWN, color):
        file, rank = chess.square_file(square), chess.square_rank(square)
        ahead = range(rank + 1, 8) if color else range(rank - 1, -1, -1)
        if any(board.piece_at(chess.square(file, r)) for r in ahead):
            continue
        if any(chess.square_file(e) in (file - 1, file, file + 1)
               and (chess.square_rank(e) > rank if color else chess.square_rank(e) < rank)
               for e in enemies):
            continue
        steps = 7 - rank if color else rank
        steps -= 1 if steps == 6 else 0
        best = steps if best is None else min(best, steps)
    return best


def _race(board: chess.Board, color: chess.Color) -> int:
    """A free pawn that queens first decides a pawn race: +-500 for ``color``."""
    mine, theirs = _steps_to_queen(board, color), _steps_to_queen(board, not color)
    if mine is None and theirs is None:
        return 0
    to_move = board.turn == color
    if theirs is None or (mine is not None and (mine <= theirs if to_move else mine < theirs)):
        return 500
    return -500


def _value(game: Game, board: chess.Board, color: chess.Color, depth: int, moves: int) -> int:
    """Minimax value of ``board`` for ``color`` (``moves``: the learner's moves so far)."""
    result = winner(game, board, moves=moves)
    if result is not None:
        return 0 if result == DRAW else (WIN + depth if result == color else -WIN - depth)
    if depth == 0:
        return _score(game, board, color)
    values = []
    for move in sorted(board.legal_moves, key=chess.Move.uci):
        mover_is_learner = board.turn == game.learner
        board.push(move)
        values.append(_value(game, board, color, depth - 1, moves + mover_is_learner))
        board.pop()
    return max(values) if board.turn == color else min(values)


def reply(board: chess.Board, *, rule: Rule, max_moves: int = 99) -> chess.Move | None:
    """The mini-game opponent's move on ``board`` (the opponent to move; the game started at
    ``board.root()``): it promotes, captures and runs; a two-ply search, ties in UCI order."""
    learner = not board.turn
    game = Game(rule, learner, board.root(), max_moves)
    moves = learner_moves(board, learner)
    best: tuple[int, chess.Move] | None = None
    for move in sorted(board.legal_moves, key=_queen_first):
        board.push(move)
        value = _value(game, board, not learner, _REPLY_DEPTH - 1, moves)
        board.pop()
        if best is None or value > best[0]:
            best = (value, move)
    return best[1] if best else None


def _queen_first(move: chess.Move) -> tuple[bool, str]:
    """UCI order, but a promotion to a queen before the other promotions."""
    return (move.promotion not in (None, chess.QUEEN), move.uci())


def learner_moves(board: chess.Board, learner: chess.Color) -> int:
    """How many moves ``learner`` has played on ``board`` since its root."""
    first = board.root().turn
    return sum(1 for i in range(len(board.move_stack)) if (i % 2 == 0) == (first == learner))


def winning_line(game: Game, *, most_nodes: int = 300_000) -> list[chess.Move] | None:
    """The learner's moves of a game won against :func:`reply` from ``game.start`` (a
    depth-first search over the learner's moves; the opponent's replies are fixed), or None.

    >>> g = Game("pawn_war", chess.WHITE, chess.Board("8/p7/8/8/8/8/7P/8 w - - 0 1"), 6)
    >>> [m.uci() for m in winning_line(g)]
    ['h2h4', 'h4h5', 'h5h6', 'h6h7', 'h7h8q']
    """
    board = game.start.copy(stack=False)
    failed: set[tuple[PositionKey, int]] = set()
    nodes = [0]

    def search_from(moves: int) -> list[chess.Move] | None:
        key = (position_key(board), moves)
        if key in failed or nodes[0] > most_nodes:
            return None
        nodes[0] += 1
        for move in _learner_order(game, board):
            board.push(move)
            found = _after_learner(moves + 1)
            board.pop()
            if found is not None:
                return [move, *found]
        failed.add(key)
        return None

    def _after_learner(moves: int) -> list[chess.Move] | None:
        result = winner(game, board, moves=moves)
        if result is not None:
            return [] if result == game.learner else None
        answer = reply(board, rule=game.rule, max_moves=game.max_moves)
        if answer is None:
            return None
        board.push(answer)
        try:
            result = winner(game, board, moves=moves)
            if result is not None:
                return [] if result == game.learner else None
            return search_from(moves)
        finally:
            board.pop()

    return search_from(0)


def _learner_order(game: Game, board: chess.Board) -> list[chess.Move]:
    """The learner's moves, most promising first (promotions, captures, pawn pushes)."""
    def key(move: chess.Move) -> tuple[int, str]:
        gain = values.VALUES.get(move.promotion or chess.KING, 0) + values.VALUES.get(
            board.piece_type_at(move.to_square) or chess.KING, 0)
        return (-gain, move.uci())
    return sorted(board.legal_moves, key=key)


def play_game(game: Game, learner_moves_: Iterable[chess.Move]) -> chess.Board:
    """The board after the learner's moves and the opponent's replies (stops when decided)."""
    board = game.start.copy(stack=False)
    for moves, move in enumerate(learner_moves_, start=1):
        if winner(game, board, moves=moves - 1) is not None:
            break
        board.push(move)
        if winner(game, board, moves=moves) is not None:
            break
        answer = reply(board, rule=game.rule, max_moves=game.max_moves)
        if answer is not None:
            board.push(answer)
    return board


# -- the attacker of the basic mates ------------------------------------------------------
ENDINGS = ("KQ", "KRR", "KR")
"""The mating material the attacker plays (against a lone king)."""


def _fence(board: chess.Board, color: chess.Color, lines: int) -> chess.SquareSet:
    """Squares the pieces of ``color`` (not its king) attack with the other king taken off (so
    lines go through it): the fence of the box.  ``lines`` keeps only the rooks' rank lines
    (1), their file lines (2) or all (3)."""
    bare = board.copy(stack=False)
    king = bare.king(not color)
    if king is not None:
        bare.remove_piece_at(king)
    found = chess.SquareSet()
    for square in chess.SquareSet(bare.occupied_co[color] & ~bare.kings):
        attacks = bare.attacks(square)
        if bare.piece_type_at(square) == chess.ROOK:
            keep = (chess.BB_RANKS[chess.square_rank(square)] if lines & 1 else 0) | \
                (chess.BB_FILES[chess.square_file(square)] if lines & 2 else 0)
            attacks &= keep
        found |= attacks
    return found


def _walk(board: chess.Board, color: chess.Color, lines: int, guards: bool) -> set[chess.Square]:
    """The squares of the box (see :func:`box_squares`), found by walking from the king."""
    king = board.king(not color)
    if king is None:
        return set()
    blocked = _fence(board, color, lines) | chess.SquareSet(board.occupied_co[color])
    own = board.king(color)
    if guards and own is not None:
        blocked |= chess.SquareSet(chess.BB_KING_ATTACKS[own])
    seen, todo = {king}, [king]
    while todo:
        for step in chess.SquareSet(chess.BB_KING_ATTACKS[todo.pop()]):
            if step not in seen and step not in blocked:
                seen.add(step)
                todo.append(step)
    return seen


def box_squares(board: chess.Board, color: chess.Color, *, lines: int = 3,
                guards: bool = False) -> chess.SquareSet:
    """The box: the squares the lone king of ``not color`` can walk to through squares the
    pieces of ``color`` (queen, rooks; with ``guards`` the king too) do not attack, its own
    square included.

    >>> box_squares(chess.Board("8/8/8/8/8/8/R7/4K2k w - - 0 1"), chess.WHITE)
    SquareSet(0x0000_0000_0000_00e0)
    >>> len(box_squares(chess.Board("8/8/8/8/8/8/R7/4K2k w - - 0 1"), chess.WHITE, guards=True))
    2
    """
    return chess.SquareSet(_walk(board, color, lines, guards))


def box(board: chess.Board, color: chess.Color, *, lines: int = 3) -> int:
    """The size of the box (:func:`box_squares`, the attacker's king left out).

    >>> box(chess.Board("8/8/8/8/8/8/R7/4K2k w - - 0 1"), chess.WHITE)
    3
    """
    return len(_walk(board, color, lines, False))


def ladder_box(board: chess.Board, color: chess.Color) -> int:
    """The box the technique shrinks: for two rooks the ladder's (rank lines only, or file
    lines only, the smaller), else the whole box.

    >>> ladder_box(chess.Board("8/8/8/8/3k4/8/R7/1R4K1 w - - 0 1"), chess.WHITE)
    47
    """
    if len(board.pieces(chess.ROOK, color)) == 2:
        return min(box(board, color, lines=1), box(board, color, lines=2))
    return box(board, color)


def _edge(board: chess.Board, color: chess.Color) -> int:
    """How many steps the lone king stands from the nearest edge of the board."""
    king = board.king(not color)
    if king is None:
        return 0
    file, rank = chess.square_file(king), chess.square_rank(king)
    return min(file, 7 - file, rank, 7 - rank)


def _hangs(board: chess.Board) -> bool:
    """True when the lone king (to move) can take a piece."""
    return any(board.is_capture(m) for m in board.legal_moves)


def _mate_next(board: chess.Board) -> bool:
    """True when the side to move mates at once."""
    return any(True for _ in search.mate_in(board, 1))


def _king_distance(board: chess.Board, color: chess.Color) -> int:
    """How far apart the two kings stand: king steps first, then files plus ranks."""
    ours, theirs = board.king(color), board.king(not color)
    if ours is None or theirs is None:
        return 99
    return 8 * chess.square_distance(ours, theirs) + chess.square_manhattan_distance(ours, theirs)


def _loose(board: chess.Board, color: chess.Color) -> list[chess.Square]:
    """The pieces of ``color`` the lone king attacks that ``color`` does not protect."""
    king = board.king(not color)
    if king is None:
        return []
    return [sq for sq in chess.SquareSet(board.attacks(king) & board.occupied_co[color])
            if not board.is_attacked_by(color, sq)]


def _threatened(board: chess.Board, color: chess.Color) -> int:
    """How many pieces of ``color`` the lone king attacks that ``color`` does not protect."""
    return len(_loose(board, color))


def _attack_key(board: chess.Board, move: chess.Move,
                seen: set[PositionKey]) -> tuple[int, int, int, int, int, int, str] | None:
    """How good ``move`` is for the attacker (smaller is better), None when it stalemates or
    lets the king take a piece.  Looks at every reply: no position of the game again first,
    then mate next move, then no piece left where the king attacks it, then the smallest box
    (pushed to the edge), then the kings close together."""
    color = board.turn
    board.push(move)
    try:
        if board.is_stalemate() or _hangs(board):
            return None
        repeated = 1 if position_key(board) in seen else 0
        near = _king_distance(board, color)
        worst_box, worst_mate, worst_distance, threatened = 0, 0, 0, 0
        for answer in board.legal_moves:
            board.push(answer)
            worst_mate = max(worst_mate, 0 if _mate_next(board) else 1)
            worst_box = max(worst_box, ladder_box(board, color) + 4 * _edge(board, color))
            repeated = max(repeated, 1 if position_key(board) in seen else 0)
            worst_distance = max(worst_distance, _king_distance(board, color))
            threatened = max(threatened, _threatened(board, color))
            board.pop()
        return (repeated, worst_mate, threatened, worst_box, near, worst_distance, move.uci())
    finally:
        board.pop()


def attacker_move(board: chess.Board) -> chess.Move | None:
    """The attacker's move: mate when it can, else the move that keeps the pieces safe, never
    stalemates, avoids repeating, makes the box smallest and nearest the edge and brings the
    king closest (against every reply), ties in UCI order.

    >>> attacker_move(chess.Board("8/8/8/3k4/8/8/8/RR4K1 w - - 0 1")) is not None
    True
    """
    mates = search.mate_in(board, 1)
    if mates:
        return mates[0]
    seen = _positions(board)
    keys = [k for k in (_attack_key(board, m, seen) for m in board.legal_moves) if k]
    if not keys:
        return next(iter(sorted(board.legal_moves, key=chess.Move.uci)), None)
    return chess.Move.from_uci(min(keys)[-1])


def _positions(board: chess.Board) -> set[PositionKey]:
    """Every position of the game so far (to avoid going round in circles)."""
    replay = board.root()
    seen = {position_key(replay)}
    for move in board.move_stack:
        replay.push(move)
        seen.add(position_key(replay))
    return seen


def step_reason(board: chess.Board, move: chess.Move, *, attacker: chess.Color,
                lang: str | None = None) -> str:
    """Why a move of a basic-mate game is played, in one sentence for a child: the attacker
    saves a piece, makes the box smaller (the squares the lone king can walk to, see
    :func:`box_squares` with ``guards``), checks, brings the king, keeps a piece far from the
    king or waits; the lone king runs from the edge.  "" for the mate itself (the board
    announces it).

    >>> b = chess.Board("8/8/8/3k4/8/8/8/RR4K1 w - - 0 1")
    >>> step_reason(b, chess.Move.from_uci("a1a4"), attacker=chess.WHITE, lang="en")
    'The box gets smaller: the black king has 24 squares left.'
    """
    after = board.copy(stack=False)
    after.push(move)
    if after.is_checkmate():
        return ""
    lone = not attacker
    king = chess.KING
    if board.turn == lone:
        return t("exercises.demo_defend", lang=lang, square=chess.square_name(move.to_square),
                 king=piece_name(king, color=lone, lang=lang))
    piece = board.piece_type_at(move.from_square) or king
    fields = {"piece": piece_name(piece, lang=lang), "king": piece_name(king, color=lone,
                                                                        lang=lang)}
    smaller = len(box_squares(after, attacker, guards=True))
    if move.from_square in _loose(board, attacker):
        key = "demo_safe"
    elif piece != king and smaller < len(box_squares(board, attacker, guards=True)):
        key = "demo_box"
    elif after.is_check():
        key = "demo_check"
    elif piece == king:
        key = "demo_king"
        fields["piece"] = piece_name(king, color=attacker, lang=lang)
    elif _farther(board, move, lone):
        key = "demo_far"
    else:
        key = "demo_wait"
    return t(f"exercises.{key}", lang=lang, n=smaller, **fields)


def _farther(board: chess.Board, move: chess.Move, lone: chess.Color) -> bool:
    """True when ``move`` takes its piece farther from the lone king."""
    king = board.king(lone)
    return king is not None and chess.square_distance(move.to_square, king) > \
        chess.square_distance(move.from_square, king)


def ending(board: chess.Board) -> str:
    """The attacker's material ("KQ", "KRR", "KR") when the other side has a lone king, else "".

    >>> ending(chess.Board("8/8/8/3k4/8/8/8/RR4K1 w - - 0 1"))
    'KRR'
    """
    def code(color: chess.Color) -> str:
        return "".join(chess.piece_symbol(p).upper() * len(board.pieces(p, color))
                       for p in chess.PIECE_TYPES[::-1])
    strong = code(board.turn)
    return strong if strong in ENDINGS and code(not board.turn) == "K" else ""


def demonstration(board: chess.Board, *, max_moves: int,
                  defend: Callable[[chess.Board], chess.Move | None] = search.builtin_defence
                  ) -> list[chess.Move]:
    """The game the attacker plays from ``board`` against ``defend`` (the built-in defender),
    both sides' moves, until mate or ``max_moves`` attacker moves.

    >>> b = chess.Board("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1")
    >>> [m.uci() for m in demonstration(b, max_moves=5)]
    ['g1g7']
    """
    if not ending(board):
        raise OpponentError("the attacker plays K+Q, K+R+R or K+R against a lone king")
    game = board.copy()
    for _ in range(max_moves):
        move = attacker_move(game)
        if move is None:
            break
        game.push(move)
        if game.is_game_over(claim_draw=True):
            break
        answer = defend(game)
        if answer is None:
            break
        game.push(answer)
    return game.move_stack[len(board.move_stack):]
