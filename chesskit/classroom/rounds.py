"""What a classroom round asks and how its answers are judged: pure functions, no I/O.

A round is a position with a task in every language (a :class:`Task`), opened from a bank
exercise (:func:`from_exercise`) or from a FEN and a prompt (:func:`from_position`).  An answer
is a move text read by :func:`chesskit.rules.notation.read_move`, nothing else; :func:`judge`
says which move it is and whether it is right.

>>> task = from_position("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
>>> task.right, judge(task, "Ra8").san, judge(task, "ra8").correct, judge(task, "h3").correct
(('a1a8',), 'Ra8#', True, False)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import chess

from chesskit.errors import BankError, ChessKitError, ClassroomError, MoveError
from chesskit.exercises.catalog import bank, exercise
from chesskit.exercises.model import Exercise
from chesskit.i18n import color_name, join_words, languages, localize, t
from chesskit.rules.explain import explain_move
from chesskit.rules.notation import read_move
from chesskit.rules.position import to_board
from chesskit.rules.tactics import describe_motifs

BOARD_INPUTS = ("move", "line")
"""Exercises answered by one move on the board (for a ``line``, the key move)."""
GOALS = ("mate", "check", "capture", "escape_check", "stalemate", "castle", "en_passant",
         "promote", "fork", "pin", "skewer", "discovered_attack", "double_check", "develop")
"""Goals a free position may name: those of a bank ``move`` item that need no other field."""
ANSWER_CHARS = 40
"""The longest answer read; a move is never longer."""


@dataclass(frozen=True)
class Task:
    """What a round asks: the position, the task per language, and how answers are judged.

    Judged by the exercise's own check when ``exercise`` is set; else by ``goal`` (as a bank
    ``move`` item with that goal); else right exactly when the move is in ``right`` (UCI);
    with none of these (``judged`` false) every legal move is taken and ``correct`` is None.
    """

    fen: str
    prompts: Mapping[str, str]
    exercise: str | None = None
    goal: str = ""
    right: tuple[str, ...] = ()

    @property
    def judged(self) -> bool:
        """Are answers right or wrong (else any legal move is taken)?"""
        return bool(self.exercise or self.goal or self.right)

    def to_json(self) -> dict[str, Any]:
        """The task as stored (JSON): ``from_json`` reads it back."""
        return {"fen": self.fen, "prompts": dict(self.prompts), "exercise": self.exercise,
                "goal": self.goal, "right": list(self.right)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Task:
        """The task ``to_json`` wrote."""
        return cls(fen=str(data["fen"]), prompts=dict(data["prompts"]),
                   exercise=data.get("exercise"), goal=str(data.get("goal", "")),
                   right=tuple(data.get("right", ())))


@dataclass(frozen=True)
class Judged:
    """One answer read: the move (SAN and UCI) and whether it is right (None: not judged)."""

    san: str
    uci: str
    correct: bool | None


def _refuse(code: str, lang: str | None, **fields: object) -> ClassroomError:
    return ClassroomError(code, t(f"classroom.service_{code}", lang=lang, **fields))


def _bank_exercise(exercise_id: str, lang: str | None) -> Exercise:
    try:
        ex = exercise(exercise_id)
    except BankError:
        raise _refuse("unknown_exercise", lang, id=exercise_id) from None
    if ex.board_input() not in BOARD_INPUTS or not ex.fen:
        raise _refuse("not_a_move_exercise", lang, id=exercise_id)
    return ex


@functools.cache
def exercise_ids() -> list[str]:
    """The bank exercises a round can be opened from (answered by one move), in bank order.

    >>> "06.12" in exercise_ids(), "00.07" in exercise_ids()
    (True, False)
    """
    return [ex.id for ex in bank() if ex.fen and ex.board_input() in BOARD_INPUTS]


def from_exercise(exercise_id: str, *, lang: str | None = None) -> Task:
    """The task of a bank exercise answered by one move; ClassroomError for any other.

    >>> from_exercise("06.12").prompts["en"]
    'White is in check on the back rank. Get out of check.'
    """
    ex = _bank_exercise(exercise_id, lang)
    return Task(fen=ex.board().fen(), exercise=ex.id,
                prompts={code: ex.prompt_text(lang=code) for code in languages()})


def _goal_exercise(fen: str, goal: str) -> Exercise:
    return Exercise(id="classroom", lesson=0, kind="move", goal=goal, fen=fen)  # type: ignore[arg-type]


def from_position(fen: str, prompt: str | Mapping[str, str] | None = None, *,
                  answers: list[str] | None = None, goal: str = "",
                  lang: str | None = None) -> Task:
    """The task of a free position (see :class:`Task` for how it is judged).

    Without ``answers`` and ``goal``, a position with a mate in one is judged: right exactly
    when the move mates.  ``prompt``: one text for every language, ``{"en": ..., "zh": ...}``,
    or None ("White to move.").  ClassroomError for a bad position, answer or goal.

    >>> task = from_position("start", {"en": "Open the game.", "zh": "开局。"})
    >>> task.judged, task.prompts["zh-Hant"]
    (False, '開局。')
    """
    try:
        board = to_board(fen)
    except ChessKitError as error:
        raise _refuse("bad_position", lang, reason=str(error)) from None
    if board.is_game_over() or not any(board.legal_moves):
        raise _refuse("no_legal_move", lang)
    fen = board.fen()
    if prompt is None:
        prompts = {code: t("core.side_to_move", lang=code, side=color_name(board.turn, lang=code))
                   for code in languages()}
    else:
        prompts = {code: localize(prompt, lang=code) for code in languages()}
    if answers:
        right = []
        for text in answers:
            try:
                right.append(read_move(board, str(text)[:ANSWER_CHARS]).uci())
            except ChessKitError:
                raise _refuse("bad_teacher_answer", lang, answer=str(text)[:ANSWER_CHARS]) \
                    from None
        return Task(fen=fen, prompts=prompts, right=tuple(dict.fromkeys(right)))
    if goal:
        if goal not in GOALS:
            raise _refuse("bad_goal", lang, goal=goal[:ANSWER_CHARS], goals=", ".join(GOALS))
        if not _goal_exercise(fen, goal).solutions():
            raise _refuse("goal_unreachable", lang, goal=goal)
        return Task(fen=fen, prompts=prompts, goal=goal)
    mates = []
    for move in board.legal_moves:
        board.push(move)
        if board.is_checkmate():
            mates.append(move.uci())
        board.pop()
    return Task(fen=fen, prompts=prompts, right=tuple(sorted(mates)))


def judge(task: Task, answer: str, *, lang: str | None = None) -> Judged:
    """Read an answer in the task's position and judge it; ClassroomError for an unreadable
    or illegal move (the sentence says why, naming the piece and the square).

    >>> judge(from_exercise("06.12"), "rd1")
    Judged(san='Rd1', uci='d2d1', correct=True)
    """
    board = chess.Board(task.fen)
    text = answer.strip()
    if not text:
        raise _refuse("empty_answer", lang)
    if len(text) > ANSWER_CHARS:
        raise _refuse("long_answer", lang, limit=ANSWER_CHARS)
    try:
        move = read_move(board, text)
    except MoveError as error:
        message = explain_move(board, text, lang=lang).message or str(error)
        raise ClassroomError("illegal", message) from None
    san = board.san(move)
    correct: bool | None = None
    if task.exercise:
        correct = _bank_exercise(task.exercise, lang).check(san, lang=lang).correct
    elif task.goal:
        correct = _goal_exercise(task.fen, task.goal).check(san, lang=lang).correct
    elif task.right:
        correct = move.uci() in task.right
    return Judged(san=san, uci=move.uci(), correct=correct)


def _right_moves(task: Task) -> list[chess.Move]:
    board = chess.Board(task.fen)
    if task.right:
        return [chess.Move.from_uci(uci) for uci in task.right]
    if not (task.exercise or task.goal):
        return []
    ex = _bank_exercise(task.exercise, None) if task.exercise else _goal_exercise(task.fen,
                                                                                  task.goal)
    moves: list[chess.Move] = []
    for solution in ex.solutions():
        words = [w for w in str(solution).split() if not w.rstrip(".").isdigit()]
        try:
            move = read_move(board, words[0].lstrip("0123456789.")) if words else None
        except ChessKitError:
            continue
        if move is not None and move not in moves:
            moves.append(move)
    return moves


def _why(task: Task, board: chess.Board, move: chess.Move, lang: str) -> str:
    """Why the best move is right: the exercise's own reason when it gives one (without its
    "Right!"), else what the move does."""
    if task.exercise or task.goal:
        ex = _bank_exercise(task.exercise, lang) if task.exercise else _goal_exercise(
            task.fen, task.goal)
        message = ex.check(board.san(move), lang=lang).message
        prefix = t("exercises.correct_because", lang=lang, detail="")
        if message.startswith(prefix) and message != prefix:
            return message[len(prefix):].strip()
    return describe_motifs(board, move, lang=lang, hanging=False)


def solution(task: Task) -> dict[str, Any]:
    """What closing the round shows: the right moves (SAN, best first), the same as arrows
    (UCI), and one sentence per language.

    >>> answer = solution(from_position("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"))
    >>> answer["moves"], answer["text"]["en"]
    (['Ra8#'], "Ra8# is a back-rank mate: the king's own pieces stop it leaving the back rank.")
    """
    board = chess.Board(task.fen)
    moves = _right_moves(task)
    sans = [board.san(move) for move in moves]
    text = {}
    for code in languages():
        if not task.judged:
            text[code] = t("classroom.service_any_move", lang=code)
        elif not moves:
            text[code] = t("classroom.service_no_solution", lang=code)
        else:
            sentence = _why(task, board, moves[0], code)
            if len(sans) > 1:
                sentence += " " + t("classroom.service_also_right", lang=code,
                                    moves=join_words(sans[1:], lang=code))
            text[code] = sentence
    return {"moves": sans, "arrows": [move.uci() for move in moves], "text": text}
