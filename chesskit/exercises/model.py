"""The Exercise: one item of the bank; it asks its kind (the registry) for everything.

>>> ex = Exercise(id="01.60", lesson=1, kind="square", data={"mode": "name", "square": "e4"})
>>> ex.check("E4").correct, ex.board_input(), ex.board_marks().marks
(True, 'text', {'yellow': ['e4']})
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import chess

from chesskit.errors import BankError, ChessKitError
from chesskit.exercises import display
from chesskit.exercises.answers import clean
from chesskit.exercises.feedback import Feedback
from chesskit.exercises.hints import hint as ladder_hint
from chesskit.exercises.protocol import (
    BoardInput,
    BoardMarks,
    Goal,
    Kind,
    KindName,
    Lang,
    Problem,
    feedback,
)
from chesskit.exercises.registry import KINDS
from chesskit.i18n import color_name, localize, piece_name, sentences, t
from chesskit.rules.position import to_board

if TYPE_CHECKING:
    from chesskit.drawing.diagram import BoardSvg

EMPTY_FEN = "8/8/8/8/8/8/8/8 w - - 0 1"
logger = logging.getLogger("chesskit.exercises")


def field_problems(ex: Exercise) -> list[Problem]:
    """(field, problem) pairs for an exercise whose fields do not fit its kind.

    >>> Exercise(id="x", lesson=11, kind="line", fen="7k/8/8/8/8/8/8/K7 w - - 0 1")
    Traceback (most recent call last):
    chesskit.errors.BankError: field mate_in: a line item needs the field mate_in
    """
    kind = KINDS.get(ex.kind)
    if kind is None:
        return [("kind", f"unknown kind {ex.kind!r}; use one of {', '.join(KINDS)}")]
    values: dict[str, Any] = {"goal": ex.goal, **ex.data}
    if "goal" in kind.closed and ex.goal not in kind.closed["goal"]:
        return [("goal", f"unknown goal {ex.goal!r}; use one of {', '.join(kind.closed['goal'])}")]
    problems = [(name, f"a {kind.name} item needs the field {name}")
                for name in kind.required if name not in ex.data]
    problems += [(name, f"unknown {name} {values[name]!r}; use one of {', '.join(allowed)}")
                 for name, allowed in kind.closed.items()
                 if name != "goal" and name in ex.data and values[name] not in allowed]
    problems += kind.field_problems(ex)
    if not ex.fen and kind.needs_fen(ex):
        problems.append(("fen", f"a {kind.name} item needs a fen"))
    return problems


@dataclass(frozen=True)
class Exercise:
    """One exercise of the bank (see DESIGN.md, "Exercises"); ``check`` never raises.

    >>> Exercise(id="01.60", lesson=1, kind="square", data={"mode": "name", "square": "e4"}
    ...          ).check("E4").correct
    True
    """

    id: str
    lesson: int
    kind: KindName
    goal: Goal = ""
    fen: str = ""
    topic: str = ""
    difficulty: int = 1000
    prompt: Mapping[str, str] | None = None
    hints: tuple[Mapping[str, str], ...] = ()
    source: str = ""
    last_move: str = ""
    """The opponent's capture (UCI) that led to the position, when the item knows it (lesson
    32's in-between moves): the prompt says it, the board marks it, ``motifs`` reads it."""
    data: Mapping[str, Any] = field(default_factory=dict)
    review: bool = False
    """In mixed review the task does not name the idea: "Find the best move." """

    def __post_init__(self) -> None:
        problems = field_problems(self)
        if problems:
            name, message = problems[0]
            raise BankError(f"field {name}: {message}")

    @property
    def spec(self) -> Kind:
        """The kind of this exercise, from the registry (``KINDS[self.kind]``)."""
        return KINDS[self.kind]

    # -- the position -------------------------------------------------------------------
    def board(self) -> chess.Board:
        """A fresh board of the exercise's position (the empty board when it has none)."""
        return to_board(self.fen or EMPTY_FEN)

    @cached_property
    def position(self) -> chess.Board:
        """The exercise's position, one board shared by every call: read it, never play on it
        (``board()`` gives a copy to play on)."""
        return self.board()

    # -- checking -----------------------------------------------------------------------
    def check(self, answer: object, *, lang: Lang = None) -> Feedback:
        """Check an answer and say why, in the current language; never raises.

        >>> ex = Exercise(id="x", lesson=1, kind="count", fen="8/8/8/8/8/8/8/R3K3 w - - 0 1",
        ...               data={"count": "material"})
        >>> ex.check("五").correct, ex.check(None).code, ex.check(object()).code
        (True, 'empty', 'unparseable')
        """
        text = clean(answer)
        if text is None:
            return feedback(self, "unparseable", t("exercises.unreadable", lang=lang), "")
        if not text:
            return feedback(self, "empty", t("exercises.empty", lang=lang), "")
        try:
            return self.spec.check(self, text, lang)
        except (ChessKitError, ValueError):  # what an answer can cause (python-chess's too)
            return feedback(self, "unparseable", t("exercises.unreadable", lang=lang), text)
        except Exception:  # a bug: logged with its traceback, reported for this answer alone
            logger.exception("checking the answer %r to %s (kind %s) failed", text, self.id,
                             self.kind)
            return feedback(self, "check_error", t("exercises.check_error", lang=lang), text)

    # -- answers ------------------------------------------------------------------------
    @cached_property
    def _solutions(self) -> tuple[str, ...]:
        return tuple(self.spec.solutions(self))

    def solutions(self) -> list[str]:
        """Every correct answer (SAN moves, squares, a number, an option letter)."""
        return list(self._solutions)

    def hint(self, level: int = 0, *, lang: Lang = None) -> str:
        """Hint ``level`` of the ladder (a nudge, something new, one answer), then "No more
        hints." (see :mod:`chesskit.exercises.hints`)."""
        return ladder_hint(self, level, lang=lang)

    def defender_reply(self, board: chess.Board) -> chess.Move | None:
        """The defender's move in ``board`` (defender to move) of a ``line`` or ``playout``."""
        return self.spec.defender_reply(self, board)

    # -- the task -----------------------------------------------------------------------
    def side(self, *, lang: Lang = None) -> str:
        """The side to move, as a word ("white" / "白方")."""
        return color_name(self.position.turn, lang=lang)

    def prompt_text(self, *, lang: Lang = None) -> str:
        """The task in the language: the stored prompt, or the default one for kind and goal.

        >>> Exercise(id="x", lesson=12, kind="move", goal="mate",
        ...          fen="6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").prompt_text(lang="zh-Hans")
        '白方走：一步杀（一步将死对方）。'
        """
        if self.review and self.spec.names_idea(self):
            text = t("exercises.prompt_review", lang=lang, side=self.side(lang=lang))
        elif self.prompt:
            text = localize(self.prompt, lang=lang)
        else:
            text = self.spec.prompt(self, lang)
        text = sentences(self.just_taken(lang=lang), text, lang=lang)
        options = self.options(lang=lang)
        if options:
            text += "\n" + "  ".join(f"{chr(65 + i)}. {o}" for i, o in enumerate(options))
        how = self.spec.answer_how(self, lang)
        return f"{text}\n{how}" if how else text

    def just_taken(self, *, lang: Lang = None) -> str:
        """What the opponent's last move took ("Black has just taken on d4 with the queen."),
        "" when the item has no ``last_move``.

        >>> Exercise(id="x", lesson=32, kind="move", goal="capture", last_move="e3f4",
        ...          fen="4k3/8/8/8/5P2/8/8/4K3 b - - 0 1").just_taken(lang="en")
        'White has just taken on f4 with the pawn.'
        """
        if not self.last_move:
            return ""
        square = chess.parse_square(self.last_move[2:4])
        piece = self.position.piece_type_at(square) or chess.PAWN
        return t("exercises.just_taken", lang=lang, side=color_name(not self.position.turn,
                                                                    lang=lang),
                 square=chess.square_name(square), piece=piece_name(piece, lang=lang))

    def options(self, *, lang: Lang = None) -> list[str]:
        """The options of a ``choice`` item, in order (A, B, C ...); [] for other kinds."""
        return self.spec.options(self, lang)

    # -- the board ----------------------------------------------------------------------
    def board_input(self) -> BoardInput:
        """How the board takes the answer (``chesskit.exercises.protocol.BoardInput``)."""
        return self.spec.board_input(self)

    def board_marks(self) -> BoardMarks:
        """The marks and arrows of the task's board."""
        return self.spec.board_marks(self)

    def solution_marks(self) -> BoardMarks:
        """What the board draws for "Show solution": an arrow, squares or a placement."""
        return self.spec.solution_marks(self)

    # -- display ------------------------------------------------------------------------
    def board_svg(self, *, lang: Lang = None) -> BoardSvg:
        """The board of the exercise as SVG (chesskit.drawing.diagram.board), with its marks."""
        return display.board_svg(self, lang=lang)

    def widget(self) -> Any:
        """The on-board widget for this exercise (see :func:`display.exercise_widget`)."""
        return display.exercise_widget(self)

    def __repr__(self) -> str:
        return f"<chesskit.Exercise {self.id} {self.kind}{'/' + self.goal if self.goal else ''}>"

    def _repr_markdown_(self) -> str:
        return f"**{self.id}** {self.prompt_text()}".replace("\n", "  \n")

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, str]:
        return self.board_svg()._repr_mimebundle_()

    def _ipython_display_(self) -> None:
        display.show(self)
