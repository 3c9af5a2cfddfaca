"""The exceptions chesskit raises: tiny classes, each carrying what a caller needs."""

from __future__ import annotations


class ChessKitError(Exception):
    """Base class of every chesskit error."""


class PositionError(ChessKitError, ValueError):
    """A position that cannot be read or is not a legal chess position.

    >>> raise PositionError("Black has two kings.")
    Traceback (most recent call last):
    ...
    chesskit.errors.PositionError: Black has two kings.
    """


class MoveError(ChessKitError, ValueError):
    """A move that cannot be read or played; ``code`` is one of the explain_move codes."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code


class BankError(ChessKitError, ValueError):
    """A broken bank file or an unknown exercise id; the message names file, item, field."""


class LanguageError(ChessKitError, ValueError):
    """A language chesskit does not speak (it speaks ``en``, ``zh-Hans`` and ``zh-Hant``)."""


class RenderError(ChessKitError, ValueError):
    """A board or sheet that cannot be written in the format asked for (e.g. ``.gif``)."""


class OpeningError(ChessKitError, ValueError):
    """A name or line of moves that matches no opening of the course."""


class WorksheetError(ChessKitError, ValueError):
    """A worksheet that cannot be laid out as asked (e.g. 5 diagrams a page)."""


class GradingError(ChessKitError, ValueError):
    """An assignment file or gradebook request the grader cannot follow; the message says why.

    >>> raise GradingError("There is no student Ana in the gradebook.")
    Traceback (most recent call last):
    ...
    chesskit.errors.GradingError: There is no student Ana in the gradebook.
    """


class RatingError(ChessKitError, ValueError):
    """A game result or rating that a rating rule cannot take (e.g. a score of 2).

    >>> raise RatingError("A game scores 1 (win), 0.5 (draw) or 0 (loss), not 2.")
    Traceback (most recent call last):
    ...
    chesskit.errors.RatingError: A game scores 1 (win), 0.5 (draw) or 0 (loss), not 2.
    """


class EngineMissingError(ChessKitError):
    """Stockfish is not installed or does not start; the message says where it was looked for.

    >>> raise EngineMissingError("Stockfish is not installed.")
    Traceback (most recent call last):
    ...
    chesskit.errors.EngineMissingError: Stockfish is not installed.
    """


class ClassroomError(ChessKitError):
    """A classroom request refused; ``code`` says why (``closed``, ``not_current``, ...).

    >>> raise ClassroomError("closed", "This round is closed.")
    Traceback (most recent call last):
    ...
    chesskit.errors.ClassroomError: This round is closed.
    """

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code


class OpponentError(ChessKitError):
    """The position does not fit the mini-game or the ending (e.g. kings in a pawn war)."""


class LessonSourceError(ChessKitError):
    """A lesson source that cannot be read; the message names the file and the line."""


class SiteError(ChessKitError):
    """The browser site cannot be built; the message says what is missing."""
