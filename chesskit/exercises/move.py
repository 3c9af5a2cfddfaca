"""``move``: one move that reaches a ``goal`` (mate, fork, win material ...), computed from the
rules for every legal move, never from one stored line.

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=12, kind="move", goal="mate",
...               fen="6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
>>> ex.check("Ra8#").correct, ex.check("ra8").correct, ex.check("Ra7").code
(True, True, 'wrong')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, get_args

import chess

from chesskit.exercises.answers import move_tokens
from chesskit.exercises.common import after as _after
from chesskit.exercises.common import (
    describe,
    fail_code,
    piece_hint,
    prompt_fields,
    solution_arrow,
)
from chesskit.exercises.feedback import Feedback
from chesskit.exercises.protocol import (
    BoardInput,
    BoardMarks,
    Goal,
    Kind,
    Lang,
    Problem,
    feedback,
    praise,
)
from chesskit.i18n import color_name, piece_on, sentences, t
from chesskit.rules import search, values
from chesskit.rules.explain import explain_move
from chesskit.rules.notation import read_move
from chesskit.rules.tactics import WHY_NOT, name_right_move, why_not
from chesskit.rules.tactics import motifs as _motifs

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise

MOVE_GOALS: tuple[Goal, ...] = get_args(Goal)[1:]
MOTIF_GOALS = ("fork", "pin", "skewer", "discovered_attack", "double_check")
WARNED_GOALS = ("check", "castle")
"""Drill goals any such move meets: the praise adds what the move allows when it loses."""
TACTIC_TOPICS = ("decoy", "deflection", "removing_the_defender", "interference", "clearance",
                 "in_between_move", "zugzwang")
"""Topics whose item's best answer check-bank asks ``motifs`` to name (lessons 30-32)."""
REVIEW_GOALS = ("mate", "win_material", "fork", "pin", "skewer", "discovered_attack",
                "double_check", "perpetual", "best")
"""Goals whose task, in mixed review, is only "find the best move" (the idea is not named)."""


def _refutation(board: chess.Board, move: chess.Move, *, depth: int, below: int,
                ) -> tuple[int, chess.Move | None]:
    """The reply to name after a wrong ``move`` and what the mover wins against it: the best
    reply that walks into no short mate, while it keeps the gain below ``below``; else the best
    reply.

    >>> b = chess.Board("6k1/p2Q4/3p2p1/8/3qPn2/5P2/PP3RPP/6K1 b - - 3 37")
    >>> won, reply = _refutation(b, b.parse_san("Qb4"), depth=2, below=4)
    >>> won, _after(b, b.parse_san("Qb4")).san(reply)  # not Qxa7, which allows a mate in 4
    (0, 'Qc8+')
    """
    won, reply = search.best_defence(board, move, depth=depth, safe=search.SAFE_REPLY)
    if won >= below:
        won, reply = search.best_defence(board, move, depth=depth)
    return won, reply


def _victim_value(board: chess.Board, move: chess.Move) -> int:
    return values.VALUES[board.piece_type_at(move.to_square) or chess.PAWN]


def _develop_problem(board: chess.Board, move: chess.Move) -> str | None:
    """Why ``move`` is not good development (a locale key suffix), or None when it is."""
    piece = board.piece_type_at(move.from_square)
    back = 0 if board.turn == chess.WHITE else 7
    if piece == chess.QUEEN:
        return "early_queen"
    if piece not in (chess.KNIGHT, chess.BISHOP):
        return "not_minor"
    if chess.square_rank(move.from_square) != back:
        return "not_from_back"
    if piece == chess.KNIGHT and chess.square_file(move.to_square) in (0, 7):
        return "rim"
    ahead = -8 if board.turn == chess.WHITE else 8
    blocked = move.to_square + ahead
    if (chess.square_file(move.to_square) in (3, 4) and 0 <= blocked < 64
            and chess.square_rank(blocked) == (1 if board.turn == chess.WHITE else 6)
            and board.piece_at(blocked) == chess.Piece(chess.PAWN, board.turn)):
        return "blocks_pawn"
    if search.centre_distance(move.to_square) >= search.centre_distance(move.from_square):
        return "not_centre"
    if not search.wins_at_least(board, move, 0, depth=1):
        return "blunder"
    return None


def _read_stored(board: chess.Board, text: str) -> chess.Move:
    return read_move(board, text)


def _mate_reply(board: chess.Board, move: chess.Move) -> chess.Move | None:
    """The opponent's mate in one after ``move``, or None."""
    return next(iter(search.mate_in(_after(board, move), 1)), None)


def _safe_escape(board: chess.Board, move: chess.Move) -> bool:
    """True unless ``move`` allows a mate in one while another move does not.

    >>> b = chess.Board("6k1/8/8/8/8/8/4BPPP/r5K1 w - - 0 1")
    >>> _safe_escape(b, b.parse_san("Bd1")), _safe_escape(b, b.parse_san("Bf1"))
    (False, True)
    """
    return _mate_reply(board, move) is None or all(
        _mate_reply(board, m) is not None for m in board.legal_moves)


def _best_promotion(board: chess.Board, move: chess.Move) -> bool:
    """True unless another promotion wins 5 or more material more (searched two plies and the
    captures): the queen or a rook, a knight when its check wins more, not the queen when it
    stalemates.

    >>> b = chess.Board("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    >>> [_best_promotion(b, b.parse_san(san)) for san in ("a8=Q+", "a8=R+", "a8=B", "a8=N")]
    [True, True, False, False]
    """
    gains = {m: search.material_gain(board, m) for m in board.legal_moves if m.promotion}
    return gains[move] > max(gains.values()) - 5


def _goal_met(ex: Exercise, board: chess.Board, move: chess.Move) -> bool:
    goal, d = ex.goal, ex.data
    tests: dict[str, Callable[[], bool]] = {
        "mate": lambda: _after(board, move).is_checkmate(),
        "check": lambda: board.gives_check(move),
        "capture": lambda: board.is_capture(move) and (
            not d.get("most_valuable") or _victim_value(board, move) >= max(
                _victim_value(board, m) for m in board.legal_moves if board.is_capture(m))),
        "escape_check": lambda: board.is_check() and _safe_escape(board, move),
        "stalemate": lambda: _after(board, move).is_stalemate(),
        "castle": lambda: board.is_castling(move),
        "en_passant": lambda: board.is_en_passant(move),
        "promote": lambda: move.promotion is not None and _best_promotion(board, move),
        "win_material": lambda: search.wins_at_least(board, move, int(d.get("gain", 3)),
                                                     depth=int(d.get("depth", 2))),
        "perpetual": lambda: search.is_perpetual(board, move),
        "develop": lambda: _develop_problem(board, move) is None,
        "best": lambda: move in {_read_stored(board, a) for a in d["answers"]},
    }
    if goal == "discovered_attack" and "gain" in d:  # the line opens and the gain stays won
        return goal in _motifs(board, move) and tests["win_material"]()
    if goal in MOTIF_GOALS:
        return goal in _motifs(board, move)
    return tests[goal]()


def _best_reason(board: chess.Board, move: chess.Move, reply: chess.Move | None
                 ) -> tuple[str, chess.Move | None]:
    """Why a move is not the best one: it allows mate, or it loses material, or (when neither)
    only that a better move exists."""
    after = _after(board, move)
    mate = next(iter(search.mate_in(after, 1)), None)
    if mate is not None:
        return "best_mated", mate
    ending = _drawn_ending(after)
    if ending is not None:
        return ending, None
    won, refutation = _refutation(board, move, depth=2, below=0)
    if won < 0:
        return "best_loses", refutation
    return "best", reply


def _drawn_ending(after: chess.Board) -> str | None:
    """The locale key suffix when the move ends the game in a draw at once, else None.

    >>> _drawn_ending(chess.Board("4k3/8/8/4B3/8/8/8/4K3 b - - 0 1"))
    'best_insufficient'
    """
    if after.is_stalemate():
        return "stalemate_draw"
    if after.is_insufficient_material():
        return "best_insufficient"
    return None


def _named_opening_reason(ex: Exercise, key: str) -> str:
    """``best_not_opening`` for a sound move that is not the opening an item asks for (items
    with ``named_opening = true``); other keys unchanged."""
    return "best_not_opening" if key == "best" and ex.data.get("named_opening") else key


def praise_warning(board: chess.Board, move: chess.Move, lang: Lang) -> str:
    """One sentence after the praise of a drill move (any check, any castling) that loses the
    game: the opponent's mate in one, or the reply that wins 3 points or more; else "".

    >>> b = chess.Board("k4r2/8/2p3P1/8/6P1/5p2/2P2Q1b/K7 w - - 0 1")
    >>> praise_warning(b, b.parse_san("Qa7+"), "en")
    'But be careful: after Qa7+, Black answers Kxa7 and takes the queen on a7.'
    """
    after = _after(board, move)
    fields = {"san": board.san(move), "side": color_name(after.turn, lang=lang)}
    mate = _mate_reply(board, move)
    if mate is not None:
        return t("exercises.praise_but_mated", lang=lang, reply=after.san(mate), **fields)
    won, reply = search.best_defence(board, move, depth=2, safe=search.SAFE_REPLY)
    if reply is None or won > -3:
        return ""
    victim = after.piece_type_at(reply.to_square)
    if victim is None:
        return t("exercises.praise_but_loses", lang=lang, reply=after.san(reply), **fields)
    return t("exercises.praise_but_takes", lang=lang, reply=after.san(reply),
             piece=piece_on(victim, reply.to_square, lang=lang), **fields)


def tactic_named(ex: Exercise, lang: Lang) -> str:
    """For a wrong answer in a lesson on one of :data:`TACTIC_TOPICS`: which tactic the right
    move uses ("The right move is a decoy: ..."); "" elsewhere, and in a test (its items carry
    no hints: the idea is what it asks to find)."""
    if ex.topic not in TACTIC_TOPICS or not ex.hints:
        return ""
    return t(f"exercises.uses_{ex.topic}", lang=lang)


def solution_named(ex: Exercise, lang: Lang) -> str:
    """"Show solution" of an item on one of :data:`TACTIC_TOPICS`: its first solution with the
    tactic named ("The right move was Rxg7+: a decoy, ..."); "" for any other item."""
    solutions = ex.solutions() if ex.topic in TACTIC_TOPICS else []
    if not solutions:
        return ""
    try:
        return name_right_move(ex.board(), solutions[0].split()[0], motif=ex.topic, lang=lang,
                               last_move=ex.last_move)
    except ValueError:  # a solution python-chess cannot read in the position: say it plainly
        return ""


def _move_reason(ex: Exercise, board: chess.Board, move: chess.Move, lang: Lang) -> str:
    """Why a legal move misses the goal: one sentence naming the piece and the square."""
    kept_gain = ex.goal == "discovered_attack" and "gain" in ex.data and (
        ex.goal in _motifs(board, move))  # the line opens, but the gain is not kept
    if ex.goal in WHY_NOT and not kept_gain:
        return why_not(board, move, ex.goal, lang=lang)
    mover = move.promotion or board.piece_type_at(move.from_square) or chess.PAWN
    after = _after(board, move)
    king_sq = after.king(after.turn)
    fields: dict[str, object] = {
        "san": board.san(move), "piece": piece_on(mover, move.to_square, lang=lang),
        "side": color_name(after.turn, lang=lang), "gain": ex.data.get("gain", 3),
        "king": piece_on(chess.KING, king_sq, lang=lang) if king_sq is not None else "",
    }
    key: str = ex.goal
    if ex.goal in ("mate", "perpetual", "stalemate") and board.gives_check(move):
        key = f"{ex.goal}_check"
    if ex.goal == "stalemate" and after.is_checkmate():
        key = "stalemate_mate"
    if ex.goal != "stalemate" and after.is_stalemate():
        key = "stalemate_draw"
    if ex.goal == "capture" and board.is_capture(move):
        key = "capture_small"
    if ex.goal == "promote" and move.promotion is not None:
        key = "promote_weak"
    if ex.goal == "develop":
        key = f"develop_{_develop_problem(board, move)}"
    if kept_gain:
        key = "win_material"
    reply = next(iter(search.ordered_moves(after)), None)
    if key == "win_material":
        gain = int(ex.data.get("gain", 3))
        won, reply = _refutation(board, move, depth=int(ex.data.get("depth", 2)), below=gain)
        key, fields["won"] = _too_little(won, gain), won
    elif key == "develop_blunder":
        reply = _refutation(board, move, depth=2, below=0)[1]
    if ex.goal == "best":
        key, reply = _best_reason(board, move, reply)
        key = _named_opening_reason(ex, key)
    mate = _mate_reply(board, move) if ex.goal == "escape_check" else None
    if mate is not None:
        key, reply = "best_mated", mate
    fields["reply"] = after.san(reply) if reply else ""
    return t(f"exercises.wrong_{key}", lang=lang, **fields)


def best_first(board: chess.Board, moves: list[chess.Move]) -> list[str]:
    """The moves in SAN, best first: mates, then the most material won against every reply
    (``search.material_gain``), then alphabetically.

    >>> b = chess.Board("2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    >>> best_first(b, [m for m in b.legal_moves if m.promotion])[:3]
    ['bxc8=Q+', 'bxc8=R+', 'bxc8=B']
    """
    def key(move: chess.Move) -> tuple[int, int, str]:
        mate = _after(board, move).is_checkmate()
        return (0 if mate else 1, -search.material_gain(board, move, depth=1), board.san(move))
    ordered = sorted(moves, key=key) if len(moves) > 1 else moves
    return [board.san(m) for m in ordered]


def _too_little(won: int, gain: int) -> str:
    """The locale key for a move that wins ``won`` points, less than ``gain``.

    >>> _too_little(-2, 3), _too_little(0, 3), _too_little(1, 3), _too_little(2, 5)
    ('win_material_lose', 'win_material_no_piece', 'win_material_one', 'win_material_some')
    """
    if won < 0:
        return "win_material_lose"
    if won == 0:
        return "win_material_no_piece" if gain >= 3 else "win_material_nothing"
    return "win_material_one" if won == 1 else "win_material_some"


def read_one_move(ex: Exercise, board: chess.Board, text: str, lang: Lang
                  ) -> chess.Move | Feedback:
    """The one legal move written, or the Feedback saying why it is not one."""
    if len(move_tokens(text)) != 1:
        return feedback(ex, "unparseable", t("exercises.one_move", lang=lang), text)
    verdict = explain_move(board, move_tokens(text)[0], lang=lang)
    if verdict.move is None or not verdict.legal:
        return feedback(ex, fail_code(verdict), verdict.message, text, verdict.squares)
    return verdict.move


def _motif_problems(ex: Exercise, solutions: list[str]) -> list[Problem]:
    board = ex.board()
    if not any(ex.goal in _motifs(board, board.parse_san(san)) for san in solutions):
        return [("goal", f"no answer has the motif {ex.goal}")]
    return []


def topic_problems(ex: Exercise, solutions: list[str]) -> list[Problem]:
    """The best answer of an item whose topic is one of :data:`TACTIC_TOPICS` uses that tactic."""
    if ex.topic not in TACTIC_TOPICS or not solutions:
        return []
    board, best = ex.board(), solutions[0].split()[0]
    if ex.topic in _motifs(board, board.parse_san(best), last_move=ex.last_move):
        return []
    return [("topic", f"the best answer {best} is not a {ex.topic}")]


class MoveKind(Kind):
    """One move that reaches the goal."""

    name = "move"
    closed = {"goal": MOVE_GOALS}

    def field_problems(self, ex: Exercise) -> list[Problem]:
        if ex.goal == "best" and not ex.data.get("answers"):
            return [("answers", "a best-move item needs answers")]
        return []

    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        board = ex.position
        move = read_one_move(ex, board, text, lang)
        if isinstance(move, Feedback):
            return move
        squares = (move.from_square, move.to_square)
        if _goal_met(ex, board, move):
            detail = describe(board, move, lang)
            if ex.goal in WARNED_GOALS:
                detail = sentences(detail, praise_warning(board, move, lang), lang=lang)
            return praise(ex, board.san(move), lang, detail, squares)
        reason = sentences(_move_reason(ex, board, move, lang), tactic_named(ex, lang), lang=lang)
        return feedback(ex, "wrong", reason, board.san(move), squares)

    def solutions(self, ex: Exercise) -> list[str]:
        """Every move that reaches the goal, best first (see :func:`best_first`)."""
        board = ex.position
        return best_first(board, [m for m in board.legal_moves if _goal_met(ex, board, m)])

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        return t(f"exercises.prompt_move_{ex.goal}", lang=lang, gain=ex.data.get("gain", 3),
                 **prompt_fields(ex, lang))

    def names_idea(self, ex: Exercise) -> bool:
        return ex.goal in REVIEW_GOALS

    def step_hint(self, ex: Exercise, lang: Lang) -> str:
        return piece_hint(ex, lang) or super().step_hint(ex, lang)

    def board_input(self, ex: Exercise) -> BoardInput:
        return "move"

    def solution_marks(self, ex: Exercise) -> BoardMarks:
        return solution_arrow(ex)

    def verify(self, ex: Exercise) -> list[Problem]:
        solutions = ex.solutions()
        problems: list[Problem] = [] if solutions else [("goal", "no answer is correct")]
        if ex.goal in (*MOTIF_GOALS, "mate") and solutions:
            problems += _motif_problems(ex, solutions)
        problems += topic_problems(ex, solutions)
        if ex.goal == "escape_check" and not ex.board().is_check():
            problems.append(("fen", "the side to move is not in check"))
        return problems


KIND = MoveKind()
