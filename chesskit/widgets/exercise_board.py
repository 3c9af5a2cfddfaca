"""An exercise on the board: :class:`ExerciseBoard`, the :class:`~chesskit.widgets.board.Board`
that grades every answer given on it like a typed one.

>>> from chesskit.exercises.catalog import exercise
>>> b = ExerciseBoard(exercise=exercise("02.42"), lang="en")
>>> b.drill, b.marks
(True, {'yellow': ['e3', 'f8', 'h6']})
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Mapping, Sequence

import chess
import traitlets
from IPython.display import display, update_display

from chesskit.errors import ChessKitError
from chesskit.exercises import Exercise, Feedback, opponent
from chesskit.exercises.hints import ladder as hint_ladder
from chesskit.exercises.move import solution_named
from chesskit.exercises.protocol import BoardInput
from chesskit.i18n import color_name, join_words, sentences, t
from chesskit.learner import record_attempt
from chesskit.rules.explain import Verdict, explain_move
from chesskit.widgets.board import Board, arrow_spec, game_frames, line_text, played_sans
from chesskit.widgets.boardstate import ANSWER_MIME

# board input -> (board mode, what the text box reads, take back allowed)
_INPUT_MODES: dict[BoardInput, tuple[str, str, bool]] = {
    "move": ("play", "move", False), "line": ("play", "move", False),
    "game": ("play", "move", False), "moves": ("play", "move", True),
    "square": ("mark", "answer", False), "squares": ("mark", "answer", False),
    "placement": ("place", "answer", False), "options": ("view", "answer", False),
    "number": ("view", "answer", False), "text": ("view", "answer", False)}
_PLAYED = ("move", "line", "game", "moves")  # inputs answered by playing moves
_DEFENDED = ("line", "game")  # inputs where the board plays the defender's replies


class ExerciseBoard(Board):
    """An exercise on the board: prompt, board, feedback, hint and solution buttons.

    Every answer given on the board is graded by ``Exercise.check`` like a typed one, recorded
    with :func:`chesskit.learner.record_attempt`, and written into the cell's output (see
    :data:`ANSWER_MIME` and ``widgets.boardstate``), which every frontend saves with the
    notebook. The synced ``exercise_id`` + ``answer`` traits are the older, widget-state copy.
    "Show solution" on a whole game (a playout, a mini-game) plays it out on the board: the
    arrow buttons step through it, with a sentence for each move (``demo``) and, for the basic
    mates, the lone king's box tinted (``demo_box``).
    """

    exercise_id = traitlets.Unicode("").tag(sync=True)
    answer = traitlets.Unicode("").tag(sync=True)
    attempts = traitlets.Int(0).tag(sync=True)
    prompt = traitlets.Unicode("").tag(sync=True)
    feedback = traitlets.Unicode("").tag(sync=True)
    correct = traitlets.Bool(False).tag(sync=True)
    solved = traitlets.Bool(False).tag(sync=True)
    board_input = traitlets.Unicode("move").tag(sync=True)
    choices = traitlets.List(traitlets.List(traitlets.Unicode())).tag(sync=True)
    solution_shown = traitlets.Bool(False).tag(sync=True)
    after_solution = traitlets.Bool(False).tag(sync=True)
    solution_choice = traitlets.Unicode("").tag(sync=True)
    drill = traitlets.Bool(False).tag(sync=True)
    """One side moves alone and each move is checked at once (no Submit button)."""
    demo = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """"Show solution" of a whole game: one sentence per position of the game played out."""
    demo_box = traitlets.List(traitlets.List(traitlets.Unicode())).tag(sync=True)
    """The squares of the lone king's box in each position of a basic mate played out."""
    retry = traitlets.Bool(False).tag(sync=True)
    """The try ended without the answer (a drill over par, a game drawn): "Try again" shows."""
    _announce_end = False

    def __init__(self, position: object = None, *, exercise: Exercise, size: int = 400,
                 lang: str | None = None, **_ignored: object) -> None:
        self.exercise = exercise
        self._input = exercise.board_input()
        self._hint_level = 0
        self._displays: list[str] = []
        self._start = exercise.board()
        self._lead_in = exercise.last_move
        mode, text_input, takeback = _INPUT_MODES[self._input]
        super().__init__(self._start, size=size, mode=mode, takeback=takeback, lang=lang,
                         exercise_id=exercise.id, board_input=self._input,
                         text_input=text_input,
                         orientation="white" if self._start.turn else "black")
        self.prompt = exercise.prompt_text(lang=self.lang)
        self.drill = self._input == "moves" and exercise.defender_reply(self._start) is not None
        if self._input == "options":
            self.choices = [[chr(65 + i), f"{chr(65 + i)}. {option}"]
                            for i, option in enumerate(exercise.options(lang=self.lang))]
        start = exercise.board_marks()
        if start.marks:
            self.highlight(**{c: list(s) for c, s in start.marks.items()})
        if start.arrows:  # the task's own arrow ("write the move of the arrow") stays
            self.draw(*start.arrows)
            self.buttons = {**self.buttons, "clear": False}

    def __repr__(self) -> str:
        return f"<chesskit.ExerciseBoard id={self.exercise_id!r} fen={self.fen!r}>"

    def _status(self, board: chess.Board) -> str:
        """Under an exercise board: what to do with it, for the inputs that are not moves."""
        if self._input in _PLAYED:
            return super()._status(board)
        return t(f"widget.how_{self._input}", lang=self.lang)

    # -- the answer saved with the notebook ---------------------------------------------------

    def answer_bundle(self) -> dict[str, object]:
        """The cell output that records the board answer (the same bytes until one is given).

        >>> from chesskit.exercises import Exercise
        >>> ex = Exercise(id="01.60", lesson=1, kind="square",
        ...               data={"mode": "find", "square": "e4"})
        >>> ExerciseBoard(exercise=ex, lang="en").answer_bundle()["text/plain"]
        '01.60: your answer on the board is saved here.'
        """
        record = {"exercise_id": self.exercise_id, "answer": self.answer,
                  "after_solution": self.after_solution}
        key = "answer_saved" if self.answer else "answer_none"
        text = t(f"widget.{key}", lang=self.lang, id=self.exercise_id, answer=self.answer)
        late = t("widget.answer_after_solution", lang=self.lang) if self.after_solution else ""
        return {ANSWER_MIME: record, "text/plain": sentences(text, late, lang=self.lang)}

    def _ipython_display_(self) -> None:
        """The board, then a small output that the board updates with each answer."""
        super()._ipython_display_()
        handle = display(self.answer_bundle(), raw=True, display_id=True)
        if handle is not None:
            self._displays.append(handle.display_id)

    def _save_answer(self) -> None:
        for display_id in self._displays:
            update_display(self.answer_bundle(), display_id=display_id, raw=True)

    # -- requests ------------------------------------------------------------------------------

    def handle(self, content: Mapping[str, object]) -> None:
        """Requests of the board, plus "hint" and "solution"."""
        kind = content.get("type")
        if kind == "hint":
            self.show_hint()
        elif kind == "retry":
            self.try_again()
        elif kind == "solution":
            self.show_solution()
        else:
            super().handle(content)

    def grade(self, answer: str) -> Feedback:
        """Check ``answer`` exactly as a typed one, record it and show the feedback."""
        feedback = self.exercise.check(answer, lang=self.lang)
        self._record(answer, feedback)
        return feedback

    def _record(self, answer: str, feedback: Feedback, *, announce: bool = True,
                first: str = "") -> None:
        """Record and save an answer; ``announce`` its feedback under the board (after the
        sentence ``first``, e.g. the other side's move)."""
        again = self.solved and feedback.correct  # a line played on after its key move
        if feedback.code not in ("empty", "incomplete") and not again:
            _store_attempt(self.exercise, feedback, answer, hints=self._hint_level,
                           shown=self.solution_shown)
        with self.hold_sync():
            self.answer = feedback.answer or answer
            self.after_solution = self.solution_shown
            self._save_answer()  # before the feedback shows: a save right after it keeps this
            self.attempts += 1
            self.feedback = feedback.message
            self.correct = feedback.correct
            self.solved = self.solved or feedback.correct
        if announce:
            self.say(sentences(first, feedback.message, lang=self.lang), squares=feedback.squares,
                     kind="ok" if feedback.correct else
                     "info" if feedback.code == "incomplete" else "error")

    def move(self, move: str | chess.Move) -> Verdict:
        """A move of the learner; the other side's moves (a reply, a pass) are the board's."""
        board = self._frames[self.index]
        if self.mode == "view" and (self.retry or self.solved):
            self.pick("")
        if (self._input in _DEFENDED or self.drill) and board.turn != self._start.turn:
            self.say(t("widget.other_side_moves", lang=self.lang,
                       side=color_name(board.turn, lang=self.lang)), kind="error")
            return explain_move(board, move, lang=self.lang)
        return super().move(move)

    def type_text(self, text: str) -> Verdict | None:
        """Typed answers: a move on boards that play moves, the answer itself on the others."""
        if self._input in _PLAYED:
            return super().type_text(text)
        self.grade(text)
        return None

    def toggle(self, square: str) -> Board:
        """Mark a square; on a one-square item the click is the answer."""
        if self._input == "square" and square in chess.SQUARE_NAMES:
            self.marked = [square]
            self.grade(square)
            return self
        return super().toggle(square)

    def submit(self) -> None:
        """Submit: the marked squares, the placed pieces, or the moves played."""
        if self._input == "squares":
            if not self.marked:
                super().submit()
                return
            self.grade(" ".join(self.marked))
        elif self._input == "placement":
            self.grade(self._frames[self.index].board_fen())
        elif self._input == "moves":
            self.grade(line_text(self._frames[self.index]))

    def _game_end(self, board: chess.Board) -> tuple[str, str, str]:
        """A drill or a mini-game with a rule of its own ends when its kind says so."""
        if not self.exercise.spec.chess_endings:
            return "*", "", ""
        return super()._game_end(board)

    def _legal_now(self, board: chess.Board) -> dict[str, list[str]]:
        if (self._input in _DEFENDED or self.drill) and board.turn != self._start.turn:
            return {}  # the other side's move is the board's (a reply, a pass)
        return super()._legal_now(board)

    def after_move(self, board: chess.Board) -> None:
        """Check the solver's move; a wrong one is recorded, explained and taken back."""
        if self._input == "moves":
            self._drill_step(board)
            return
        if self._input not in ("move", *_DEFENDED) or board.turn == self._start.turn:
            return
        played = board.move_stack[len(self._start.move_stack):]
        first = len(played) == 1
        answer = played_sans(board)[-1] if first and self._input != "game" \
            else self._start.variation_san(played)
        feedback = self.exercise.check(answer, lang=self.lang)
        if feedback.correct or feedback.code == "incomplete":
            self._record(answer, feedback, announce=feedback.correct)
            over = bool(self._game_end(board)[1]) or (feedback.correct and (
                self._input == "game" or self.exercise.defender_reply(board) is None))
            if self._input in _DEFENDED and not over:
                self.waiting = True
            else:
                self._finish(correct=feedback.correct)
            return
        self._frames = self._frames[: self.index]
        self._show(self.index - 1)
        if first:
            self._record(answer, feedback)
        else:
            self.say(feedback.message, squares=feedback.squares, kind="error")

    def _drill_step(self, board: chess.Board) -> None:
        """A drill where one side moves alone (stars, capture everything, get ready to castle):
        the kind answers each move with a pass or its scripted reply, the learner's moves so far
        are checked, and the marks keep only the targets left; the notation items that also
        take moves (both sides play, then Submit) get no reply."""
        if board.turn == self._start.turn:
            return
        reply = self.exercise.defender_reply(board)
        if reply is None:
            return
        replied = board.copy()
        words = t("widget.played", lang=self.lang, side=color_name(board.turn, lang=self.lang),
                  san=board.san(reply)) if reply else ""
        replied.push(reply)
        self._frames = self._frames[: self.index + 1] + [replied]
        self._show(self.index + 1)
        answer = self._drill_answer(replied)
        feedback = self.exercise.check(answer, lang=self.lang)
        self._record(answer, feedback, first=words)
        self._drill_marks(feedback)
        if feedback.code != "incomplete":
            self._finish(correct=feedback.correct)

    def _finish(self, *, correct: bool) -> None:
        """The try is over: the board only shows; "Try again" comes when it missed."""
        with self.hold_sync():
            self.mode = "view"
            self.retry = not correct
            self._show(self.index)

    def try_again(self) -> None:
        """"Try again": the exercise's start position, its marks and arrows, moves allowed.

        >>> from chesskit.exercises.catalog import exercise
        >>> b = ExerciseBoard(exercise=exercise("02.42"), lang="en")
        >>> for san in ("Bd2", "Be3", "Bh6", "Bf8"): _ = b.move(san)
        >>> b.retry, b.mode
        (True, 'view')
        >>> b.try_again(); b.retry, b.mode, b.fen
        (False, 'play', '8/8/8/8/8/8/8/2B5 w - - 0 1')
        """
        start = self.exercise.board_marks()
        with self.hold_sync():
            self.retry = self.waiting = self.show_moves = False
            self.demo, self.demo_box = [], []
            self.mode = _INPUT_MODES[self._input][0]
            self._frames = [self._start.copy()]
            self._show(0)
            self.marks = {c: list(s) for c, s in start.marks.items()}
            self.arrows = [arrow_spec(a) for a in start.arrows]
            self.say(t("widget.again_start", lang=self.lang), kind="info")

    def pick(self, square: str) -> None:
        """A click on a board whose try is over says what to do next."""
        if self.mode == "view" and (self.retry or self.solved):
            self.say(t("widget.press_again" if self.retry else "widget.already_solved",
                       lang=self.lang), kind="info")
            return
        super().pick(square)

    def goto(self, index: int) -> Board:
        """A drill is not stepped through (Take back and Try again undo its moves)."""
        if self.drill and not self.demo:
            return self
        return super().goto(index)

    def _drill_answer(self, board: chess.Board) -> str:
        """The learner's moves of a drill so far (the other side's passes and replies left out)."""
        return " ".join(played_sans(board)[len(self._start.move_stack)::2])

    def _drill_marks(self, feedback: Feedback | None) -> None:
        """A drill's marks keep only the targets left (``feedback`` says which; all of them
        before the first move)."""
        start = self.exercise.board_marks().marks
        if feedback is None:
            self.marks = {colour: list(squares) for colour, squares in start.items()}
        elif feedback.code in ("incomplete", "correct"):
            left = [] if feedback.correct else sorted(chess.square_name(s)
                                                      for s in feedback.squares)
            self.marks = {colour: left for colour in start}

    def take_back(self) -> None:
        """Take back the last move; in a drill the other side's reply goes with the learner's
        move, and the targets of the position before come back."""
        super().take_back()
        board = self._frames[self.index]
        if self._input != "moves" or board.turn == self._start.turn or \
                self.exercise.defender_reply(board) is None:
            return
        super().take_back()
        answer = self._drill_answer(self._frames[self.index])
        self._drill_marks(self.exercise.check(answer, lang=self.lang) if answer else None)

    def reply(self) -> None:
        """The defender's answer in ``line`` and ``playout`` exercises (none once the board
        only shows, e.g. a game played out by "Show solution" while a reply was due)."""
        super().reply()
        board = self._frames[self.index]
        if self.mode != "play" or self._game_end(board)[1] or board.turn == self._start.turn:
            return
        move = self.exercise.defender_reply(board)
        if move is not None:
            self.play_move(move, kind="info")

    def show_hint(self) -> None:
        """The next hint: a nudge, then the piece, then the move; then "no more hints"."""
        steps = hint_ladder(self.exercise, lang=self.lang)
        level = self._hint_level
        self._hint_level += 1
        text = steps[level] if level < len(steps) else t("widget.no_hint", lang=self.lang)
        self.say(text, kind="info")

    # -- the solution, drawn on the board ------------------------------------------------------

    def show_solution(self) -> None:
        """Draw the first correct answer on the board (the kind's ``solution_marks``: an arrow,
        marked squares, the pieces placed, the right button) and say it where that is short."""
        solutions = self.exercise.solutions()
        if not solutions:
            self.say(t("widget.no_solution", lang=self.lang))
            return
        self.solution_shown = True
        if self._input == "game":
            self._play_out(solutions[0])
            return
        drawn = self.exercise.solution_marks()
        if drawn.placement:
            board = chess.Board(None)
            board.set_board_fen(drawn.placement)
            self.mode = "view"
            self._frames = [board]
            self._show(0)
        self.arrows = [[a[:2], a[2:4], "blue"] for a in drawn.arrows]
        if drawn.marks:
            self.marks = {**self.marks, **{c: list(s) for c, s in drawn.marks.items()}}
        self.say(self._solution_words(solutions, drawn.marks), kind="info")

    def _play_out(self, game: str) -> None:
        """Put the solution's game on the board to step through with the arrow buttons (and
        keys), a sentence for each move: the move, why it is played (the technique of the
        basic mates), how the game ended."""
        frames = game_frames(game, start=self._start)
        attacker, taught = self._start.turn, bool(opponent.ending(self._start))
        words = [t("widget.demo_start", lang=self.lang)]
        total = len(frames) - 1
        for number, (before, after) in enumerate(zip(frames, frames[1:], strict=False), 1):
            move = after.peek()
            why = opponent.step_reason(before, move, attacker=attacker, lang=self.lang) \
                if taught else ""
            step = t("widget.demo_step", lang=self.lang, number=number, total=total,
                     side=color_name(before.turn, lang=self.lang), san=before.san(move))
            end = self._game_end(after)[2] or (t("widget.demo_won", lang=self.lang, side=color_name(
                attacker, lang=self.lang)) if number == total else "")
            words.append(sentences(step, why, end, lang=self.lang))
        boxes = [[chess.square_name(s) for s in opponent.box_squares(frame, attacker, guards=True)]
                 for frame in frames] if taught else []
        with self.hold_sync():
            self.waiting = False
            self.mode = "view"
            self.arrows = []
            self.show_moves = True
            self.demo, self.demo_box = words, boxes
            self._frames = frames
            self.goto(0)

    def _stepped(self) -> None:
        """In a game played out by "Show solution": the step's sentence, the king's box."""
        if not self.demo:
            super()._stepped()
            return
        with self.hold_sync():
            if self.demo_box:
                self.marks = {"blue": self.demo_box[self.index]}
            self.say(self.demo[self.index], kind="info")

    def _solution_words(self, solutions: list[str], marks: Mapping[str, Sequence[str]]) -> str:
        if self._input == "placement":
            return t("widget.solution_on_board", lang=self.lang)
        if self._input in ("square", "squares"):
            squares = [square for group in marks.values() for square in group]
            return t("widget.show_squares", lang=self.lang,
                     squares=join_words(squares, lang=self.lang))
        if self._input == "options":
            self.solution_choice = solutions[0]
            label = next((text for value, text in self.choices if value == solutions[0]),
                         solutions[0])
            return t("widget.show_solution", lang=self.lang, solution=label)
        return solution_named(self.exercise, self.lang) or t(
            "widget.show_solution", lang=self.lang, solution=join_words(solutions[:3],
                                                                        lang=self.lang))


def _store_attempt(exercise: Exercise, feedback: Feedback, answer: str, *, hints: int,
                   shown: bool) -> None:
    """Record a board answer in the learner's progress, as ``ck.answer`` does, with the hints
    seen and whether "Show solution" was pressed (a success then counts less); never raises."""
    with contextlib.suppress(sqlite3.Error, OSError, ChessKitError):
        record_attempt(exercise.id, correct=feedback.correct, code=feedback.code,
                       answer=feedback.answer or answer, lesson=exercise.lesson,
                       difficulty=exercise.difficulty, hints=hints, shown=shown)
