"""The protocol every kind of exercise implements, and the closed sets of names.

A kind is one object (``KIND = SquareKind()`` in its own module) registered in
:mod:`chesskit.exercises.registry`.  The model (:class:`~chesskit.exercises.model.Exercise`)
never branches on a kind's name: it asks the kind.  Only ``check``, ``solutions`` and ``prompt``
must be written; everything else has a default that fits a kind without board marks, answered
by typing.

What a kind reads and builds (the whole API a kind needs besides the rules layer):

- ``ex.position``: the item's position, shared (read it; play on ``ex.board()``, a copy);
- ``ex.data``: the item's own fields; :func:`field_square` reads one that names a square;
- :func:`feedback` builds any verdict, :func:`praise` the verdict on a right answer.

>>> from chesskit.exercises import KINDS
>>> KINDS["move"].board_input(None), KINDS["setup"].name
('move', 'setup')
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Literal, NamedTuple

import chess

from chesskit.exercises.feedback import Feedback
from chesskit.i18n import localize, t

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise

Lang = str | None
KindName = Literal["square", "squares", "move", "line", "choice", "count", "notation", "setup",
                   "playout", "route", "capture_all", "protect", "check_in", "prepare",
                   "minigame"]
"""The kinds of the course, in the order of ``KINDS``: adding a name here registers the module
``chesskit/exercises/<name>.py`` (a test may register one more kind in ``KINDS``)."""
Goal = Literal["", "mate", "check", "capture", "escape_check", "stalemate", "castle",
               "en_passant", "promote", "win_material", "fork", "pin", "skewer",
               "discovered_attack", "double_check", "perpetual", "develop", "best"]
"""The goal of a ``move`` item ("" for the other kinds)."""
SquareMode = Literal["name", "find"]
SquaresMode = Literal["moves", "attacks", "king_safe", "controlled"]
NotationMode = Literal["write", "game", "read"]
Mode = SquareMode | SquaresMode | NotationMode
Question = Literal["status", "draw_rule", "legal", "evaluation", "fact"]
CountName = Literal["legal_moves", "piece_moves", "material", "attackers", "elo_change",
                    "expected_score", "club_points"]
BoardInput = Literal["move", "line", "game", "moves", "square", "squares", "placement",
                     "options", "number", "text"]
"""How the board takes an answer:

- ``move``: one move played on the board;
- ``line``: the solver's moves, the board playing the defender's replies (``defender_reply``);
  the first move alone is an answer (the key), later ones are sent as the whole line;
- ``game``: like ``line``, but the answer is always the whole game (a playout);
- ``moves``: moves of both sides played freely, then Submit (the moves played are the answer);
- ``square``: one square clicked; ``squares``: squares marked, then Submit;
- ``placement``: pieces placed on an empty board, then Submit (a FEN placement);
- ``options``: one button per option (``options``); ``number``: a number typed or chosen;
- ``text``: typed only (writing notation is the skill).
"""
Problem = tuple[str, str]
"""(field, what is wrong), as check-bank prints it."""


class BoardMarks(NamedTuple):
    """What the board draws for a task or its solution: coloured squares, arrows, a placement.

    >>> BoardMarks(marks={"yellow": ["e4"]}).arrows
    ()
    """

    marks: Mapping[str, Sequence[str]] = {}
    arrows: tuple[str, ...] = ()
    placement: str = ""
    """A FEN placement to put on the board (the solution of a set-up item)."""


class Kind(ABC):
    """One kind of exercise: its fields, how it is checked, hinted, shown and verified.

    Subclasses set ``name`` (and ``required`` / ``closed`` for their fields) and write
    ``check``, ``solutions`` and ``prompt``; the other methods have defaults.
    """

    name: str = ""
    required: tuple[str, ...] = ()
    """Fields the item must have (besides the common ones)."""
    closed: Mapping[str, tuple[str, ...]] = {}
    """Fields whose value is one of a closed set (``goal`` is read from the item itself)."""
    chess_endings: bool = True
    """Whether the board ends the task by the rules of chess (mate, draws); a drill or a
    mini-game with a rule of its own (the kind's ``check`` says when it is over) sets False."""

    def __repr__(self) -> str:
        return f"<chesskit kind {self.name}>"

    # -- fields -------------------------------------------------------------------------
    def needs_fen(self, ex: Exercise) -> bool:
        """Whether the item must have a position."""
        return True

    def field_problems(self, ex: Exercise) -> list[Problem]:
        """Problems of the fields beyond ``required`` and ``closed`` (none by default)."""
        return []

    # -- answers ------------------------------------------------------------------------
    @abstractmethod
    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        """The verdict on a cleaned, non-empty answer (may raise; the model catches it)."""

    @abstractmethod
    def solutions(self, ex: Exercise) -> list[str]:
        """Every correct answer, best first."""

    def defender_reply(self, ex: Exercise, board: chess.Board) -> chess.Move | None:
        """The defender's move on ``board`` for kinds answered against a defender."""
        return None

    # -- the task -----------------------------------------------------------------------
    @abstractmethod
    def prompt(self, ex: Exercise, lang: Lang) -> str:
        """The default task, when the item stores no prompt."""

    def names_idea(self, ex: Exercise) -> bool:
        """True when the task names the idea to find, so mixed review replaces it by "Find the
        best move"."""
        return False

    def options(self, ex: Exercise, lang: Lang) -> list[str]:
        """The options to choose from, in order A, B, C ... (none by default)."""
        return []

    def answer_how(self, ex: Exercise, lang: Lang) -> str:
        """How to write the answer and give it on the board, after the task ("" by default)."""
        return ""

    # -- hints --------------------------------------------------------------------------
    def first_hint(self, ex: Exercise, lang: Lang) -> str:
        """Hint 0 when none is stored: a nudge (the locale key ``exercises.nudge_<name>``)."""
        return t(f"exercises.nudge_{self.name}", lang=lang)

    def step_hint(self, ex: Exercise, lang: Lang) -> str:
        """Hint 1 when no second hint is stored: a fact the nudge did not give."""
        return localize(ex.hints[-1], lang=lang) if ex.hints else self.first_hint(ex, lang)

    def answer_hint(self, ex: Exercise, lang: Lang) -> str:
        """The last hint: one right answer (the nudge again when there is none)."""
        solutions = ex.solutions()
        if not solutions:
            return self.first_hint(ex, lang)
        return t("exercises.hint_answer", lang=lang, answer=solutions[0])

    # -- the board ----------------------------------------------------------------------
    def board_input(self, ex: Exercise) -> BoardInput:
        """How the board takes the answer (see :data:`BoardInput`)."""
        return "text"

    def board_marks(self, ex: Exercise) -> BoardMarks:
        """The marks and arrows of the task's board."""
        return BoardMarks()

    def solution_marks(self, ex: Exercise) -> BoardMarks:
        """What the board draws for "Show solution" (nothing by default)."""
        return BoardMarks()

    # -- check-bank ---------------------------------------------------------------------
    def verify(self, ex: Exercise) -> list[Problem]:
        """Problems check-bank finds with the rules: by default, that no answer is correct."""
        return [] if ex.solutions() else [("kind", "no answer is correct")]


def square_mark(square: str) -> BoardMarks:
    """The task's square in yellow.

    >>> square_mark("E4").marks
    {'yellow': ['e4']}
    """
    return BoardMarks(marks={"yellow": [square.lower()]})


def feedback(ex: Exercise, code: str, message: str, answer: str,
             squares: Sequence[chess.Square] = ()) -> Feedback:
    """The verdict on ``answer`` (as the learner wrote it, cleaned): a code of ``CODES``, the
    sentence that says why, and the squares the board marks; correct only for ``"correct"``.

    >>> from chesskit.exercises import Exercise
    >>> ex = Exercise(id="01.60", lesson=1, kind="square", data={"mode": "name", "square": "e4"})
    >>> feedback(ex, "wrong", "Count the files again.", "d4", [chess.D4])
    <chesskit.Feedback 01.60 wrong>
    """
    return Feedback(code == "correct", code, message, tuple(squares), answer, ex.id)


def praise(ex: Exercise, answer: str, lang: Lang, detail: str = "",
           squares: Sequence[chess.Square] = ()) -> Feedback:
    """The verdict on a right answer: "Right!", or "Right! <detail>" when there is a reason.

    >>> from chesskit.exercises import Exercise
    >>> ex = Exercise(id="01.60", lesson=1, kind="square", data={"mode": "name", "square": "e4"})
    >>> praise(ex, "e4", "en").message
    'Right!'
    """
    message = t("exercises.correct_because", lang=lang, detail=detail) if detail \
        else t("exercises.correct", lang=lang)
    return feedback(ex, "correct", message, answer, squares)


def field_square(ex: Exercise, name: str = "square") -> chess.Square:
    """The square the item's field ``name`` holds ("E4" and "e4" alike); raises KeyError when
    the item has no such field and ValueError when it names no square.

    >>> from chesskit.exercises import Exercise
    >>> ex = Exercise(id="01.60", lesson=1, kind="square", data={"mode": "name", "square": "E4"})
    >>> field_square(ex) == chess.E4
    True
    """
    return chess.parse_square(str(ex.data[name]).lower())
