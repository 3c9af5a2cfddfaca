"""Rule helpers several kinds share: explaining a move, naming pieces, the task's square.

>>> from chesskit.rules.explain import explain_move
>>> b = chess.Board("8/8/8/4k3/8/3Q4/8/4K3 b - - 0 1")
>>> named_king(b, explain_move(b, "Kd4", lang="en"), "en")
'The black king cannot go to d4, because the queen on d3 attacks that square.'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import chess

from chesskit.exercises.answers import move_tokens, san_line
from chesskit.exercises.protocol import BoardMarks, Lang, feedback, field_square
from chesskit.i18n import color_name, join_words, piece_name, piece_on, t
from chesskit.rules.explain import Verdict, explain_move
from chesskit.rules.tactics import describe_motifs, motifs

if TYPE_CHECKING:
    from chesskit.exercises.feedback import Feedback
    from chesskit.exercises.model import Exercise

Judge = Callable[[chess.Board, chess.Move, int], "str | None"]
"""Refuses a solver's move with a sentence (None: the move is fine)."""

def read_line(ex: Exercise, text: str, lang: Lang, *, judge: Judge,
              limit: int | None = None) -> Feedback | list[chess.Move]:
    """The moves of a written line from the exercise's position (at most ``limit``), or the
    Feedback of its first fault: a move that cannot be played (where it is, for either side),
    or a solver's move that ``judge(board, move, k)`` (k: the solver's move, from 0) refuses
    with a sentence. The kinds that take a key move or a whole line use it (``line``,
    ``check_in``).
    """
    board = ex.board()
    tokens = move_tokens(text)
    if not tokens:
        return feedback(ex, "unparseable", t("exercises.unreadable", lang=lang), text)
    played: list[chess.Move] = []
    for index, token in enumerate(tokens[:limit]):
        verdict = explain_move(board, token, lang=lang)
        if verdict.move is None or not verdict.legal:
            said = named_king(board, verdict, lang) if index % 2 else verdict.message
            return feedback(ex, fail_code(verdict), game_at(board, said, lang),
                            san_line(ex.position, played), verdict.squares)
        move = verdict.move
        refused = judge(board, move, index // 2) if index % 2 == 0 else None
        if refused is not None:
            return feedback(ex, "wrong", refused, san_line(ex.position, [*played, move]),
                            (move.from_square, move.to_square))
        board.push(move)
        played.append(move)
    return played


def game_at(board: chess.Board, message: str, lang: Lang) -> str:
    """``message`` placed in the game: "Move 2, White: ..." (the side to move on ``board``)."""
    return t("exercises.game_at", lang=lang, message=message, number=board.fullmove_number,
             side=color_name(board.turn, lang=lang))


def after(board: chess.Board, move: chess.Move) -> chess.Board:
    """A copy of ``board`` with ``move`` played."""
    board = board.copy(stack=False)
    board.push(move)
    return board


def on(board: chess.Board, square: chess.Square, lang: Lang) -> str:
    """The piece on ``square`` in words ("the queen on d3"); a pawn when the square is empty."""
    return piece_on(board.piece_type_at(square) or chess.PAWN, square, lang=lang)


def fail_code(verdict: Verdict) -> str:
    """The Feedback code of a move explain_move refuses: unparseable or illegal."""
    return "unparseable" if verdict.code == "unparseable" else "illegal"


def named_king(board: chess.Board, verdict: Verdict, lang: Lang) -> str:
    """explain_move's sentence with "your king" replaced by the king's colour, for a move of a
    side that is not the learner's ("The black king cannot go to d4: ...")."""
    king = board.king(board.turn)
    if king is None or verdict.code not in ("king_into_check", "pinned", "in_check"):
        return verdict.message
    fields = {"king": piece_name(chess.KING, color=board.turn, lang=lang),
              "square": chess.square_name(king)}
    first, second = (tuple(verdict.squares) + (king, king))[:2]
    if verdict.code == "king_into_check":
        fields.update(square=chess.square_name(first), attacker=on(board, second, lang))
    elif verdict.code == "pinned":
        fields.update(mover=on(board, first, lang), pinner=on(board, second, lang))
    else:
        fields["checker"] = join_words([on(board, s, lang) for s in board.checkers()],
                                       lang=lang)
    return t(f"exercises.named_{verdict.code}", lang=lang, **fields)


def describe(board: chess.Board, move: chess.Move, lang: Lang) -> str:
    """What a right move does ("Nc7+ forks ..."), or "" for a quiet move."""
    if not motifs(board, move):
        return ""  # a quiet move: the praise alone says enough
    return describe_motifs(board, move, lang=lang, hanging=False)


def squares_board(ex: Exercise) -> chess.Board:
    """The exercise's board with the piece on its ``square`` to move (whatever the FEN says)."""
    board = ex.position.copy(stack=False)
    if "square" in ex.data:
        color = board.color_at(field_square(ex))
        if color is not None:
            board.turn = color
    return board


def prompt_fields(ex: Exercise, lang: Lang) -> dict[str, object]:
    """The fields every default prompt may use: side, square and the piece on it."""
    fields: dict[str, object] = {"side": color_name(ex.position.turn, lang=lang)}
    if "square" in ex.data:
        fields["square"] = str(ex.data["square"]).lower()
        piece = ex.position.piece_at(field_square(ex))
        if piece is not None:
            fields["piece"] = piece_on(piece.piece_type, field_square(ex), lang=lang)
    return fields


def solution_arrow(ex: Exercise) -> BoardMarks:
    """An arrow for the first move of the first solution (no marks when there is none).

    >>> from chesskit.exercises import Exercise
    >>> solution_arrow(Exercise(id="x", lesson=12, kind="move", goal="mate",
    ...                         fen="6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")).arrows
    ('a1a8',)
    """
    solutions = ex.solutions()
    if not solutions:
        return BoardMarks()
    move = ex.position.parse_san(move_tokens(solutions[0])[0])
    return BoardMarks(arrows=(move.uci()[:4],))


def piece_hint(ex: Exercise, lang: Lang) -> str:
    """ "Use the knight on d5." for the piece of the first solution ("" when there is none)."""
    solutions = ex.solutions()
    if not solutions:
        return ""
    move = ex.position.parse_san(solutions[0])
    return t("exercises.hint_piece", lang=lang, piece=piece_on(
        ex.position.piece_type_at(move.from_square) or chess.PAWN, move.from_square, lang=lang))



def defender_turn(ex: Exercise, board: chess.Board, token: str, reply: chess.Move | None, *,
                  start: chess.Board, lang: Lang) -> Feedback | bool:
    """The defender's ``reply`` where a written game has ``token``: True when ``token`` is that
    reply (played), False when ``token`` is no move of the defender (the reply is played and
    ``token`` is the learner's next move), or the feedback when another defence was written."""
    written = explain_move(board, token, lang=lang).move
    if reply is not None and written == reply:
        board.push(reply)
        return True
    if reply is None or (written is not None and board.is_legal(written)):
        message = t("exercises.defender_differs", lang=lang, san=token,
                    reply=board.san(reply) if reply else "", side=color_name(board.turn, lang=lang))
        return feedback(ex, "wrong", message, san_line(start, board.move_stack))
    board.push(reply)
    return False
