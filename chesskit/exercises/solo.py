"""One side plays alone while the other stands still: the engine of the ``route``,
``capture_all`` and ``prepare`` drills.

After every move of the learner the other side *passes* with python-chess's null move
(``board.push(chess.Move.null())``), so the same side moves again and the move stack stays
honest (``board.pop()`` works, en passant rights expire).  A drill may instead give the other
side a script (``Goal.replies``): its next written move when that move is legal, else a pass.
A breadth-first search over those moves finds the shortest way to reach the goal: the par of a
drill, proved.

>>> board = chess.Board("8/8/8/8/8/8/8/R7 w - - 0 1")
>>> goal = Goal(targets=frozenset({chess.H8}), mover=chess.A1)
>>> [len(r) for r in shortest_routes(board, goal, limit=4)]
[2, 2]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import chess

MAX_STATES = 200_000
"""The search gives up (no route) beyond this many positions."""


@dataclass(frozen=True)
class Goal:
    """What the lone side must do.

    ``targets``: squares to land on (stars; enemy pieces to take), all of them;
    ``mover``: the square of the one piece that may move (None: any piece of the side);
    ``safe``: no piece of the side may stand where an enemy piece attacks it;
    ``castle``: the goal is castling (``"king"``, ``"queen"`` or ``"any"``; "" for none);
    ``replies``: the other side's scripted moves, one after each move of the side.
    """

    targets: frozenset[chess.Square] = frozenset()
    mover: chess.Square | None = None
    safe: bool = False
    castle: str = ""
    replies: tuple[chess.Move, ...] = ()


@dataclass(frozen=True)
class State:
    """Where the search is: the board, the tracked piece's square, the targets still to visit,
    the scripted replies still to come."""

    board: chess.Board
    mover: chess.Square | None
    left: frozenset[chess.Square]
    castled: bool = False
    script: tuple[chess.Move, ...] = ()

    def key(self) -> tuple[object, ...]:
        return (self.board.board_fen(), self.board.castling_rights, self.mover, self.left,
                self.castled, len(self.script))


def start(board: chess.Board, goal: Goal) -> State:
    """The state before the first move."""
    return State(board.copy(stack=False), goal.mover, goal.targets, script=goal.replies)


def next_reply(board: chess.Board, script: tuple[chess.Move, ...]) -> chess.Move:
    """The other side's move: the script's next move when it is legal on ``board``, else a pass.

    >>> b = chess.Board("8/p7/8/8/8/8/8/R7 b - - 0 1")
    >>> next_reply(b, (chess.Move.from_uci("a7a5"),)).uci(), next_reply(b, ()).uci()
    ('a7a5', '0000')
    """
    if script and board.is_legal(script[0]):
        return script[0]
    return chess.Move.null()


def scripted_reply(board: chess.Board, replies: tuple[chess.Move, ...]) -> chess.Move:
    """The other side's move on a board that holds the drill's moves from its start (the
    learner's moves and the other side's replies, one after the other)."""
    return next_reply(board, replies[len(board.move_stack) // 2:])


def done(state: State, goal: Goal) -> bool:
    """True when every target is visited (and the side has castled, if that is the goal)."""
    return not state.left and (state.castled or not goal.castle)


def candidate_moves(state: State) -> Iterator[chess.Move]:
    """The legal moves of the side (of the tracked piece only, when there is one)."""
    for move in state.board.legal_moves:
        if state.mover is None or move.from_square == state.mover:
            yield move


def attacked_pieces(board: chess.Board, color: chess.Color) -> list[chess.Square]:
    """Squares of ``color``'s pieces that an enemy piece attacks (could take next)."""
    return [sq for sq in chess.SquareSet(board.occupied_co[color])
            if board.is_attacked_by(not color, sq)]


def castles(board: chess.Board, move: chess.Move, side: str) -> bool:
    """True when ``move`` castles on ``side`` ("king", "queen" or "any")."""
    if not board.is_castling(move):
        return False
    if side == "any":
        return True
    return board.is_kingside_castling(move) == (side == "king")


def play(state: State, move: chess.Move, goal: Goal) -> State:
    """The state after ``move`` and the other side's reply or pass (the move must be legal);
    a target that the reply moves is followed to its new square."""
    board = state.board.copy(stack=False)
    castled = state.castled or (bool(goal.castle) and castles(board, move, goal.castle))
    board.push(move)
    left = state.left - {move.to_square}
    reply = next_reply(board, state.script)
    if reply and reply.from_square in left:
        left = left - {reply.from_square} | {reply.to_square}
    board.push(reply)
    mover = move.to_square if state.mover is not None else None
    return State(board, mover, left, castled, state.script[1:])


def unsafe(state: State) -> list[chess.Square]:
    """The side's pieces an enemy piece attacks in ``state``."""
    return attacked_pieces(state.board, state.board.turn)


def shortest_routes(board: chess.Board, goal: Goal, *, limit: int,
                    most: int = 10) -> list[list[chess.Move]]:
    """Up to ``most`` shortest move lists reaching the goal in at most ``limit`` moves, in UCI
    order; [] when there is none (a breadth-first search, so the first length found is the
    true shortest)."""
    first = start(board, goal)
    if done(first, goal):
        return [[]]
    layer: dict[tuple[object, ...], tuple[State, list[list[chess.Move]]]] = {
        first.key(): (first, [[]])}
    seen = {first.key()}
    for _ in range(limit):
        following: dict[tuple[object, ...], tuple[State, list[list[chess.Move]]]] = {}
        found: list[list[chess.Move]] = []
        for state, routes in layer.values():
            for move in sorted(candidate_moves(state), key=chess.Move.uci):
                after = play(state, move, goal)
                if goal.safe and unsafe(after):
                    continue
                extended = [[*r, move] for r in routes]
                if done(after, goal):
                    found.extend(extended)
                    continue
                key = after.key()
                if key in seen and key not in following:
                    continue
                seen.add(key)
                kept = following.setdefault(key, (after, []))[1]
                kept.extend(extended[: most - len(kept)])
        if found:
            return sorted(found, key=_route_order)[:most]
        if not following or len(seen) > MAX_STATES:
            return []
        layer = following
    return []


def _route_order(route: list[chess.Move]) -> tuple[int, list[str]]:
    """Routes that promote to a queen before the others, then in UCI order."""
    under = sum(1 for m in route if m.promotion not in (None, chess.QUEEN))
    return (under, [m.uci() for m in route])


def par(board: chess.Board, goal: Goal, *, limit: int = 30) -> int | None:
    """The fewest moves that reach the goal (None when it cannot be done in ``limit``).

    >>> par(chess.Board("8/8/8/8/8/8/8/N7 w - - 0 1"), Goal(frozenset({chess.B1}), chess.A1))
    3
    """
    routes = shortest_routes(board, goal, limit=limit, most=1)
    return len(routes[0]) if routes else None


def route_text(board: chess.Board, moves: list[chess.Move],
               replies: tuple[chess.Move, ...] = ()) -> str:
    """The side's moves as SAN, each from the position after the other side's reply or pass
    ("Ra8 Rh8")."""
    board = board.copy(stack=False)
    sans: list[str] = []
    for number, move in enumerate(moves):
        sans.append(board.san(move))
        board.push(move)
        board.push(next_reply(board, replies[number:]))
    return " ".join(sans)


def pass_tokens(tokens: list[str]) -> list[str]:
    """The written moves without the passes a board may record ("--", "0000", "Z0").

    >>> pass_tokens(["Ra8", "--", "Rh8"])
    ['Ra8', 'Rh8']
    """
    return [tok for tok in tokens if tok not in ("--", "0000", "Z0", "null")]
