"""``notation``: write a move in algebraic notation (``mode = "write"``), write a whole game
(``"game"``), or play a written game and give its last move (``"read"``).

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=9, kind="notation", data={"mode": "game",
...                                                         "moves": "e2e4 e7e5 g1f3"})
>>> ex.check("1. e4 e5 2. Nf3").correct, ex.check("1. e4 e5", lang="en").code
(True, 'incomplete')
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, get_args

import chess

from chesskit.exercises.answers import move_tokens, san_line, uci_moves
from chesskit.exercises.common import fail_code, prompt_fields
from chesskit.exercises.feedback import Feedback
from chesskit.exercises.protocol import (
    BoardInput,
    BoardMarks,
    Kind,
    Lang,
    NotationMode,
    feedback,
    praise,
)
from chesskit.i18n import color_name, piece_name, piece_on, t
from chesskit.rules.explain import explain_move
from chesskit.rules.notation import normalize_move_text

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise

_COORDINATES = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?", re.IGNORECASE)


def _written_forms(board: chess.Board, move: chess.Move) -> tuple[str, str]:
    """The two ways algebraic notation writes a move: short (exd5) and long (e4xd5).

    >>> _written_forms(chess.Board(), chess.Move.from_uci("g1f3"))
    ('Nf3', 'Ng1-f3')
    """
    short = board.san(move).rstrip("+#")
    if board.is_castling(move):
        return short, short
    piece = board.piece_type_at(move.from_square) or chess.PAWN
    letter = "" if piece == chess.PAWN else chess.piece_symbol(piece).upper()
    promotion = f"={chess.piece_symbol(move.promotion).upper()}" if move.promotion else ""
    return short, (f"{letter}{chess.square_name(move.from_square)}"
                   f"{'x' if board.is_capture(move) else '-'}"
                   f"{chess.square_name(move.to_square)}{promotion}")


def _coordinates_message(board: chess.Board, token: str, lang: Lang) -> str:
    """Why "g1f3" is not notation; for a pawn ("e2e4") the example is its target square,
    for castling O-O or O-O-O."""
    move = chess.Move.from_uci(token.lower()[:4])
    if board.piece_type_at(move.from_square) == chess.PAWN:
        return t("exercises.coordinates_pawn", lang=lang, move=token, square=token[-2:].lower())
    example = "Nf3"
    if board.is_castling(move):
        example = "O-O" if chess.square_file(move.to_square) > 4 else "O-O-O"
    return t("exercises.coordinates", lang=lang, move=token, example=example)


def _start(ex: Exercise) -> chess.Board:
    return ex.board() if ex.fen else chess.Board()


def _moves(ex: Exercise) -> list[chess.Move]:
    d = ex.data
    if d["mode"] == "write":
        return [chess.Move.from_uci(str(d["move"]))]
    if d["mode"] == "game":
        return uci_moves(str(d["moves"]))
    board = _start(ex)
    return [board.push_san(san) for san in move_tokens(str(d["pgn"]))]


def _move_words(board: chess.Board, move: chess.Move, lang: Lang) -> str:
    piece = board.piece_type_at(move.from_square) or chess.PAWN
    return t("exercises.move_words", lang=lang, piece=piece_on(piece, move.from_square, lang=lang),
             square=chess.square_name(move.to_square))


def _game_words(ex: Exercise, lang: Lang) -> str:
    """ "1. pawn e2-e4, pawn e7-e5 2. knight g1-f3" for the moves of a notation game."""
    board = _start(ex)
    parts = []
    for move in uci_moves(str(ex.data["moves"])):
        piece = piece_name(board.piece_type_at(move.from_square) or chess.PAWN, lang=lang)
        step = f"{piece} {chess.square_name(move.from_square)}-{chess.square_name(move.to_square)}"
        if board.turn == chess.WHITE:
            parts.append(f"{board.fullmove_number}. {step}")
        else:
            parts.append(step if parts else f"{board.fullmove_number}... {step}")
        board.push(move)
    return " ".join(parts)


def _check_last_move(ex: Exercise, moves: list[chess.Move], token: str, lang: Lang) -> Feedback:
    """A one-move answer to a "read" item: it is compared with the last move of the game."""
    board = _start(ex)
    for move in moves[:-1]:
        board.push(move)
    last = moves[-1]
    verdict = explain_move(board, token, lang=lang)
    if verdict.move == last:
        return praise(ex, board.san(last), lang, squares=(last.from_square, last.to_square))
    if verdict.code == "unparseable":
        return feedback(ex, "unparseable", verdict.message, token)
    return feedback(ex, "wrong", t("exercises.not_last_move", lang=lang, text=token, n=len(moves)),
                    token)


class NotationKind(Kind):
    """Moves written in algebraic notation, checked move by move."""

    name = "notation"
    required = ("mode",)
    closed = {"mode": get_args(NotationMode)}

    def needs_fen(self, ex: Exercise) -> bool:
        return False  # the start position by default

    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        expected = _moves(ex)
        board = _start(ex)
        tokens = move_tokens(text)
        if not tokens:
            return feedback(ex, "unparseable", t("exercises.unreadable", lang=lang), text)
        if ex.data["mode"] == "read" and len(tokens) == 1:
            return _check_last_move(ex, expected, tokens[0], lang)
        start = board.copy(stack=False)
        played: list[chess.Move] = []
        for index, token in enumerate(tokens):
            where = {"number": board.fullmove_number, "side": color_name(board.turn, lang=lang)}
            if index >= len(expected):
                return feedback(ex, "wrong",
                                t("exercises.game_too_long", lang=lang, n=len(expected)), text)
            if _COORDINATES.fullmatch(token) and ex.data["mode"] != "read":
                message = _coordinates_message(board, token, lang)
                return feedback(ex, "wrong", t("exercises.game_at", lang=lang, message=message,
                                               **where), text)
            verdict = explain_move(board, token, lang=lang)
            if verdict.move is None or not verdict.legal:
                return feedback(ex, fail_code(verdict), t("exercises.game_at", lang=lang,
                                                          message=verdict.message, **where),
                                text, verdict.squares)
            squares = (verdict.move.from_square, verdict.move.to_square)
            if verdict.move != expected[index]:
                message = t("exercises.not_the_move", lang=lang, san=board.san(verdict.move),
                            piece=_move_words(board, expected[index], lang))
                return feedback(ex, "wrong", t("exercises.game_at", lang=lang, message=message,
                                               **where), text, squares)
            forms = _written_forms(board, verdict.move)
            if ex.data["mode"] != "read" and normalize_move_text(token) not in forms:
                message = t("exercises.written_as", lang=lang, text=token, san=forms[0])
                return feedback(ex, "wrong", t("exercises.game_at", lang=lang, message=message,
                                               **where), text, squares)
            played.append(verdict.move)
            board.push(verdict.move)
        line = san_line(start, played)
        left = len(expected) - len(played)
        if left:
            key = "exercises.game_short_one" if left == 1 else "exercises.game_short"
            return feedback(ex, "incomplete", t(key, lang=lang, n=left), line)
        return praise(ex, line, lang)

    def solutions(self, ex: Exercise) -> list[str]:
        """The SAN (a written move also in its long form: "Nf3", "Ng1-f3"; a game as a line)."""
        moves = _moves(ex)
        board = _start(ex)
        if ex.data["mode"] == "write":
            return list(dict.fromkeys([board.san(moves[0]), _written_forms(board, moves[0])[1]]))
        if ex.data["mode"] == "read":
            for move in moves[:-1]:
                board.push(move)
            return [board.san(moves[-1])]
        return [san_line(board, moves)]

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        fields = prompt_fields(ex, lang)
        mode = ex.data["mode"]
        fields["game"] = _game_words(ex, lang) if mode == "game" else ex.data.get("pgn", "")
        return t(f"exercises.prompt_notation_{mode}", lang=lang, **fields)

    def board_input(self, ex: Exercise) -> BoardInput:
        return "moves" if ex.data["mode"] == "read" else "text"

    def board_marks(self, ex: Exercise) -> BoardMarks:
        if ex.data["mode"] == "write":
            return BoardMarks(arrows=(str(ex.data["move"])[:4],))
        return BoardMarks()


KIND = NotationKind()
