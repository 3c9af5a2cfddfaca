"""``minigame``: a small game with a one-sentence rule (``rule``, see
:mod:`chesskit.exercises.opponent`) played against the built-in opponent within ``max_moves`` moves;
the whole game written as the learner's moves (the opponent's replies may be written too), replayed
against the same deterministic opponent.

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=4, kind="minigame", fen="8/p7/8/8/8/8/7P/8 w - - 0 1",
...               data={"rule": "pawn_war", "max_moves": 6})
>>> ex.check("h4 h5 h6 h7 h8=Q").correct
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess

from chesskit.exercises import opponent
from chesskit.exercises.answers import move_tokens, san_line
from chesskit.exercises.common import defender_turn, fail_code
from chesskit.exercises.feedback import Feedback
from chesskit.exercises.protocol import BoardInput, Kind, Lang, Problem, feedback, praise
from chesskit.i18n import color_name, t
from chesskit.rules.explain import explain_move

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise


def game_of(ex: Exercise) -> opponent.Game:
    """The mini-game of an item: its rule, the learner's side, start and move limit."""
    board = ex.board()
    return opponent.Game(ex.data["rule"], board.turn, board, int(ex.data["max_moves"]))


def _reason(game: opponent.Game, board: chess.Board, won: bool, lang: Lang) -> str:
    """Why ``won`` has won on ``board`` (a promotion, a king home, no pawns, no moves, points)."""
    side = color_name(won, lang=lang)
    last = board.move_stack[-1] if board.move_stack else None
    if last is not None and last.promotion and game.rule in ("pawn_war", "piece_v_pawns"):
        return t("exercises.reason_promoted", lang=lang, side=side,
                 square=chess.square_name(last.to_square))
    if game.rule == "king_race" and last is not None and board.piece_type_at(
            last.to_square) == chess.KING:
        return t("exercises.reason_home", lang=lang, side=side,
                 square=chess.square_name(last.to_square))
    if game.rule == "piece_v_pawns" and not board.pieces(chess.PAWN, not game.learner):
        return t("exercises.reason_cleared", lang=lang)
    if not any(board.legal_moves):
        return t("exercises.reason_stuck", lang=lang, side=color_name(board.turn, lang=lang))
    return t("exercises.reason_points", lang=lang, side=side,
             mine=game.captured(board, won), other=color_name(not won, lang=lang),
             theirs=game.captured(board, not won))


def _replay(ex: Exercise, game: opponent.Game, tokens: list[str],
            lang: Lang) -> tuple[chess.Board, int] | Feedback:
    """The board after the written game (the opponent answering), and the learner's moves."""
    board = game.start.copy()
    moves = 0
    for token in tokens:
        if opponent.winner(game, board, moves=moves) is not None:
            break
        if board.turn != game.learner:
            turn = defender_turn(ex, board, token, ex.defender_reply(board), start=game.start,
                                 lang=lang)
            if turn is True:
                continue
            if not isinstance(turn, bool):
                return turn
            if opponent.winner(game, board, moves=moves) is not None:
                break
        verdict = explain_move(board, token, lang=lang)
        if not verdict.legal or verdict.move is None:
            return feedback(ex, fail_code(verdict), t("exercises.at_move", lang=lang,
                                                      number=moves + 1, message=verdict.message),
                            san_line(game.start, board.move_stack), verdict.squares)
        board.push(verdict.move)
        moves += 1
    if board.turn != game.learner and opponent.winner(game, board, moves=moves) is None:
        answer = ex.defender_reply(board)
        if answer is not None:
            board.push(answer)
    return board, moves


class MinigameKind(Kind):
    """A mini-game against the built-in opponent, won by its rule."""

    name = "minigame"
    chess_endings = False
    required = ("rule", "max_moves")
    closed = {"rule": opponent.RULES}

    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        tokens = move_tokens(text)
        if not tokens:
            return feedback(ex, "unparseable", t("exercises.unreadable", lang=lang), text)
        game = game_of(ex)
        played = _replay(ex, game, tokens, lang)
        if isinstance(played, Feedback):
            return played
        board, moves = played
        line = san_line(game.start, board.move_stack)
        result = opponent.winner(game, board, moves=moves)
        if result is None:
            last = board.move_stack[-1]
            board.pop()
            reply = board.san(last)
            board.push(last)
            return feedback(ex, "incomplete", t("exercises.minigame_more", lang=lang, reply=reply,
                                                side=color_name(not board.turn, lang=lang)),
                            line)
        if result == opponent.DRAW:
            return feedback(ex, "wrong", t("exercises.minigame_draw", lang=lang, n=game.max_moves),
                            line)
        reason = _reason(game, board, bool(result), lang)
        if result == game.learner:
            return praise(ex, line, lang, t("exercises.minigame_won", lang=lang, reason=reason))
        return feedback(ex, "wrong", t("exercises.minigame_lost", lang=lang, reason=reason), line)

    def solutions(self, ex: Exercise) -> list[str]:
        """One won game: the learner's moves with the opponent's replies."""
        game = game_of(ex)
        moves = opponent.winning_line(game)
        if moves is None:
            return []
        board = opponent.play_game(game, moves)
        return [san_line(game.start, board.move_stack)]

    def defender_reply(self, ex: Exercise, board: chess.Board) -> chess.Move | None:
        """The opponent's move (``board`` carries the game's moves from the start)."""
        return opponent.reply(board, rule=ex.data["rule"], max_moves=int(ex.data["max_moves"]))

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        return t("exercises.prompt_minigame", lang=lang,
                 rule=t(f"exercises.rule_{ex.data['rule']}", lang=lang),
                 side=color_name(ex.position.turn, lang=lang), n=ex.data["max_moves"])

    def answer_how(self, ex: Exercise, lang: Lang) -> str:
        return t("exercises.minigame_how", lang=lang)

    def first_hint(self, ex: Exercise, lang: Lang) -> str:
        return t(f"exercises.nudge_minigame_{ex.data['rule']}", lang=lang)

    def board_input(self, ex: Exercise) -> BoardInput:
        return "game"

    def field_problems(self, ex: Exercise) -> list[Problem]:
        if ex.data.get("rule") not in opponent.RULES or not ex.fen:
            return []
        board = ex.position
        kinds = {p.piece_type for p in board.piece_map().values()}
        rule = ex.data["rule"]
        if rule == "pawn_war" and kinds - {chess.PAWN}:
            return [("fen", "a pawn war has only pawns")]
        if rule == "king_race" and (board.king(chess.WHITE) is None
                                    or board.king(chess.BLACK) is None):
            return [("fen", "a king race needs both kings")]
        if rule in ("most_captures", "piece_v_pawns") and chess.KING in kinds:
            return [("fen", f"a {rule} game has no kings (a piece could be taken like any)")]
        if rule == "piece_v_pawns" and ({p.piece_type for p in board.piece_map().values()
                                         if p.color != board.turn} - {chess.PAWN}):
            return [("fen", "in piece_v_pawns the other side has only pawns")]
        return []

    def verify(self, ex: Exercise) -> list[Problem]:
        if not ex.solutions():
            return [("fen", "the learner cannot win this game against the built-in opponent")]
        return []


KIND = MinigameKind()
