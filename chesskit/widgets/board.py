"""The interactive board: an anywidget whose rules are all judged in Python by python-chess.

The browser side (``static/board.js``) only draws what the traitlets say and sends requests
("move e2 to e4", "toggle d4", "step back"); :class:`Board` answers every request here, so an
illegal try is explained with :func:`chesskit.rules.explain.explain_move` and the JavaScript never
knows a rule.

>>> b = Board("start")
>>> b.legal["g1"]
['f3', 'h3']
>>> b.move("e4").legal
True
>>> b
<chesskit.Board fen='rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'>
"""

from __future__ import annotations

import html
import io
import threading
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, get_args

import anywidget
import chess
import chess.pgn
import traitlets
from IPython.display import display

from chesskit.drawing.diagram import BoardSvg
from chesskit.drawing.diagram import board as diagram
from chesskit.errors import MoveError
from chesskit.exercises.protocol import BoardInput
from chesskit.i18n import (
    color_name,
    get_language,
    join_words,
    piece_name,
    piece_on,
    sentences,
    t,
)
from chesskit.rules.explain import Verdict, explain_move
from chesskit.rules.notation import read_move
from chesskit.rules.position import Position, to_board

if TYPE_CHECKING:
    from chesskit.exercises import Exercise

_STATIC = resources.files("chesskit") / "static"
_UI_KEYS = ("flip", "first", "back", "forward", "last", "takeback", "clear", "move_box",
            "answer_box", "play", "submit", "hint", "solution", "promote", "cancel", "can_go",
            "targets", "palette", "delete", "minus", "ok", "again", "dead", "ask", "keys")
_PROMOTIONS = {"q": chess.QUEEN, "r": chess.ROOK, "b": chess.BISHOP, "n": chess.KNIGHT}
_REASONS = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient",
    chess.Termination.THREEFOLD_REPETITION: "threefold",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold",
    chess.Termination.FIFTY_MOVES: "fifty",
    chess.Termination.SEVENTYFIVE_MOVES: "seventyfive",
}
_ASKING_WHO = threading.Lock()
"""Held while a board asks the classroom who this kernel's user is (the answer is kept)."""
BOARD_INPUTS: tuple[BoardInput, ...] = get_args(BoardInput)
"""How an exercise is answered on the board (see :func:`board_input`)."""


def square_labels(board: chess.Board, *, lang: str | None = None) -> dict[str, str]:
    """The spoken name of every square: "white knight on g1" / "白马 g1", "e4, empty".

    >>> square_labels(chess.Board(), lang="zh-Hans")["g1"]
    '白马 g1'
    """
    labels = {}
    for square, name in enumerate(chess.SQUARE_NAMES):
        piece = board.piece_at(square)
        if piece is None:
            labels[name] = t("widget.label_empty", lang=lang, square=name)
        else:
            labels[name] = t("widget.label_piece", lang=lang, square=name,
                             piece=piece_name(piece.piece_type, color=piece.color, lang=lang))
    return labels


def legal_targets(board: chess.Board) -> dict[str, list[str]]:
    """From-square -> sorted target squares of every legal move (promotions counted once).

    >>> legal_targets(chess.Board())["b1"]
    ['a3', 'c3']
    """
    targets: dict[str, set[str]] = {}
    for move in board.legal_moves:
        targets.setdefault(chess.square_name(move.from_square), set()).add(
            chess.square_name(move.to_square))
    return {source: sorted(found) for source, found in sorted(targets.items())}


def line_text(board: chess.Board) -> str:
    """The moves played on ``board`` since its root, numbered: "1. e4 e5 2. Nf3".

    >>> b = chess.Board(); b.push_san("e4"); line_text(b)
    Move.from_uci('e2e4')
    '1. e4'
    """
    root = board.root()
    number, turn, parts = root.fullmove_number, root.turn, []
    for index, san in enumerate(played_sans(board)):  # a pass of a drill reads "--"
        if turn == chess.WHITE:
            parts.append(f"{number}. {san}")
        else:
            parts.append(f"{number}...{san}" if index == 0 else san)
            number += 1
        turn = not turn
    return " ".join(parts)


def result_sentence(board: chess.Board, *, lang: str | None = None) -> tuple[str, str, str]:
    """``(result, reason, sentence)`` of a finished game, or ``("*", "", "")``; draws that a
    player may claim (threefold, fifty moves) end the game on the board too.

    >>> result_sentence(chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), lang="en")[:2]
    ('1/2-1/2', 'stalemate')
    >>> result_sentence(chess.Board("4N3/8/8/8/8/k7/8/4K3 b - - 0 1"), lang="en")[2]
    'Draw: nobody has enough pieces left to give checkmate.'
    """
    outcome = board.outcome(claim_draw=True)
    if outcome is None:
        return "*", "", ""
    reason = _REASONS.get(outcome.termination, "unknown")
    winner = color_name(outcome.winner, lang=lang) if outcome.winner is not None else ""
    text = t(f"widget.result_{reason}", lang=lang, winner=winner,
             side=color_name(board.turn, lang=lang))
    return outcome.result(), reason, text


def _color(text: str) -> chess.Color:
    return text != "black"


class Asker(Protocol):
    """What "Ask the class" needs of a classroom (``chesskit.classroom.client`` has one)."""

    def is_teacher(self) -> bool:
        """Whether this kernel's user teaches a running classroom (may ask the service)."""

    def ask(self, board: Board) -> str | None:
        """Open a round with the board's position: None when sent, else why not (a sentence)."""


class Board(anywidget.AnyWidget):
    """A chess board to play, mark squares or step through positions, in the browser.

    ``Board(position="start", *, exercise=None, orientation="white", size=400, mode="play",
    positions=None, takeback=True, lang=None)``. ``positions``: a list of positions, or a PGN /
    SAN move text, to step through with the arrow buttons and keys. With ``exercise`` it is an
    :class:`chesskit.widgets.exercise_board.ExerciseBoard` (see ``__new__``).

    >>> Board("8/8/8/8/3R4/8/8/8", mode="mark").toggle("d4").marked
    ['d4']
    """

    _esm = (_STATIC / "board.js").read_text(encoding="utf-8")
    _css = (_STATIC / "board.css").read_text(encoding="utf-8")

    fen = traitlets.Unicode().tag(sync=True)
    orientation = traitlets.Unicode("white").tag(sync=True)
    size = traitlets.Int(400).tag(sync=True)
    mode = traitlets.Unicode("play").tag(sync=True)
    legal = traitlets.Dict().tag(sync=True)
    lastmove = traitlets.Unicode("").tag(sync=True)
    check = traitlets.Unicode("").tag(sync=True)
    marks = traitlets.Dict().tag(sync=True)
    marked = traitlets.List(traitlets.Unicode()).tag(sync=True)
    arrows = traitlets.List(traitlets.List(traitlets.Unicode())).tag(sync=True)
    circles = traitlets.List(traitlets.List(traitlets.Unicode())).tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    message_squares = traitlets.List(traitlets.Unicode()).tag(sync=True)
    message_kind = traitlets.Unicode("").tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    flash = traitlets.Int(0).tag(sync=True)
    promotion = traitlets.Unicode("").tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)
    ui = traitlets.Dict().tag(sync=True)
    history = traitlets.List(traitlets.Unicode()).tag(sync=True)
    movetext = traitlets.Unicode("").tag(sync=True)
    show_moves = traitlets.Bool(False).tag(sync=True)
    index = traitlets.Int(0).tag(sync=True)
    count = traitlets.Int(1).tag(sync=True)
    takeback = traitlets.Bool(True).tag(sync=True)
    text_input = traitlets.Unicode("move").tag(sync=True)
    waiting = traitlets.Bool(False).tag(sync=True)
    pause = traitlets.Int(600).tag(sync=True)
    lang = traitlets.Unicode("en").tag(sync=True)
    buttons = traitlets.Dict(value_trait=traitlets.Bool()).tag(sync=True)
    """Buttons shown or not, whatever the board's state: ``{"clear": False}`` never shows
    "Clear arrows"; ``{"ask": True}`` shows "Ask the class" (off unless True). Empty: each
    button shows when it applies."""

    def __new__(cls, *args: Any, exercise: Exercise | None = None, **kwargs: Any) -> Board:
        """``Board(..., exercise=ex)`` makes an :class:`ExerciseBoard` (the public
        ``ck.Board(exercise=...)`` of the README; inside chesskit ``ExerciseBoard`` is named)."""
        made: Board
        if exercise is None or cls is not Board:
            made = super().__new__(cls, *args, exercise=exercise, **kwargs)
            return made
        # a cycle: exercise_board imports this module for its base class
        from chesskit.widgets.exercise_board import ExerciseBoard  # noqa: PLC0415

        made = super().__new__(ExerciseBoard, *args, exercise=exercise, **kwargs)
        return made

    def __init__(self, position: Position = "start", *, orientation: str = "white",
                 size: int = 400, mode: str = "play",
                 positions: Iterable[Position] | str | None = None,
                 takeback: bool = True, lang: str | None = None, exercise: Exercise | None = None,
                 **kwargs: Any) -> None:
        super().__init__(orientation=orientation, size=size, mode=mode, takeback=takeback,
                         lang=get_language(lang), **kwargs)
        self.ui = {**{key: t(f"widget.{key}", lang=self.lang) for key in _UI_KEYS},
                   **{f"piece_{k}": piece_name(p, lang=self.lang).capitalize()
                      for k, p in _PROMOTIONS.items()},
                   **{f"palette_{symbol}": piece_name(
                       chess.Piece.from_symbol(symbol).piece_type, lang=self.lang,
                       color=symbol.isupper()).capitalize() for symbol in "KQRBNPkqrbnp"}}
        self._frames = self._read_frames(position, positions)
        self.on_msg(self._on_msg)
        self._show(len(self._frames) - 1 if positions is None else 0)
        if self._announce_end:
            self.say(self._ending[2])
        if self._offers_ask:
            self.offer_ask_in_background()

    _announce_end = True
    """Say at once how the shown game ended (exercise boards do not: it may be the answer)."""
    _offers_ask = True
    """Show "Ask the class" when this kernel is a classroom's teacher (a student's board not)."""
    _lead_in = ""
    """The move (UCI) that led to the first position, marked while the board shows no move of
    its own: an exercise's ``last_move`` ("White has just taken on d8")."""
    asker: ClassVar[Asker | None] = None
    """The classroom behind "Ask the class", installed by :mod:`chesskit.classroom.client`
    (this layer never imports the classroom); None: no classroom in this kernel."""

    @staticmethod
    def _read_frames(position: Position, positions: Iterable[Position] | str | None
                     ) -> list[chess.Board]:
        if positions is None:
            return [to_board(position)]
        if isinstance(positions, str):
            return game_frames(positions, start=to_board(position))
        return [to_board(p) for p in positions]

    # -- what the board shows ---------------------------------------------------------------

    @property
    def board(self) -> chess.Board:
        """A copy of the position shown (with its move stack)."""
        return self._frames[self.index].copy()

    def set_position(self, position: Position, *, arrows: Iterable[str | Sequence[str]] = (),
                     mode: str | None = None) -> Board:
        """Show ``position`` alone (no moves to step through), with ``arrows`` (see
        :meth:`draw`) and, when given, a new ``mode`` ("play", "view"...).

        >>> Board().set_position("8/8/8/8/8/8/8/R3K2k w - - 0 1", arrows=["a1a8"], mode="view")
        <chesskit.Board fen='8/8/8/8/8/8/8/R3K2k w - - 0 1'>
        """
        with self.hold_sync():
            if mode is not None:
                self.mode = mode
            self._frames = [to_board(position)]
            self._show(0)
            self.draw(*arrows)
        return self

    def _show(self, index: int) -> None:
        board = self._frames[index]
        self._ending = self._game_end(board)
        with self.hold_sync():
            self.index = index
            self.count = len(self._frames)
            self.fen = board.fen()
            moved = [move for move in board.move_stack if move]  # a drill's passes are null
            self.lastmove = moved[-1].uci() if moved else self._lead_in
            king = board.king(board.turn) if board.is_check() else None
            self.check = chess.square_name(king) if king is not None else ""
            self.legal = self._legal_now(board)
            self.status = self._status(board)
            self.labels = {**square_labels(board, lang=self.lang),
                           "board": t("widget.board_label", lang=self.lang, side=t(
                               "core.side_to_move", lang=self.lang,
                               side=color_name(board.turn, lang=self.lang)))}
            self.history = played_sans(board)
            self.movetext = line_text(board)
            self.promotion = ""

    def _game_end(self, board: chess.Board) -> tuple[str, str, str]:
        """How the shown game ended (see :func:`result_sentence`). A board set up with too few
        pieces to mate (a king and a knight to try out) never ends for that: it is there to
        move on.

        >>> Board("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1").legal["e4"]
        ['c3', 'c5', 'd2', 'd6', 'f2', 'f6', 'g3', 'g5']
        """
        ending = result_sentence(board, lang=self.lang)
        if ending[1] == "insufficient" and self._frames[0].is_insufficient_material():
            return "*", "", ""
        return ending

    def _legal_now(self, board: chess.Board) -> dict[str, list[str]]:
        if self.mode != "play" or self._ending[1]:
            return {}
        return legal_targets(board)

    def _status(self, board: chess.Board) -> str:
        """The line under the board: whose turn it is, while a move can be played."""
        if not self.legal:
            return ""
        return t("core.side_to_move", lang=self.lang, side=color_name(board.turn, lang=self.lang))

    def say(self, message: str, *, squares: Iterable[chess.Square | str] = (),
            kind: str = "info") -> None:
        """Show a sentence under the board and flash its squares."""
        with self.hold_sync():
            self.message = message
            self.message_kind = kind
            self.message_squares = [_name(s) for s in squares]
            self.flash += 1

    def highlight(self, **marks: Iterable[chess.Square | str]) -> Board:
        """Colour squares for the class: ``highlight(yellow=["e4", "d5"], blue=["f3"])``."""
        self.marks = {colour: [_name(s) for s in squares] for colour, squares in marks.items()}
        return self

    def draw(self, *arrows: str | Sequence[str]) -> Board:
        """Draw arrows ``"e2e4"`` or ``("g1", "f3", "blue")`` (colours green red blue yellow)."""
        self.arrows = [arrow_spec(a) for a in arrows]
        return self

    # -- requests from the page (and from Python) ---------------------------------------------

    def _on_msg(self, _widget: object, content: object, _buffers: object) -> None:
        """Answer a request, then say "done": a page that hears nothing knows that the board
        lost its kernel and says so on the board."""
        if isinstance(content, Mapping):
            self.handle(content)
        self.send({"type": "done"})

    def handle(self, content: Mapping[str, object]) -> None:
        """Answer one request of the page: ``{"type": "move", "from": "e2", "to": "e4"}``."""
        kind = content.get("type")
        text = {k: str(v) for k, v in content.items() if isinstance(v, (str, int))}
        actions = {
            "move": lambda: self.request(text.get("from", ""), text.get("to", ""),
                                         promotion=text.get("promotion", "")),
            "promote": lambda: self.promote(text.get("piece", "")),
            "pick": lambda: self.pick(text.get("square", "")),
            "text": lambda: self.type_text(text.get("text", "")),
            "mark": lambda: self.toggle(text.get("square", "")),
            "place": lambda: self.place(text.get("square", ""), text.get("piece", "")),
            "submit": self.submit,
            "step": lambda: self.step(_int(text.get("delta", "0"))),
            "goto": lambda: self.goto(_int(text.get("index", "0"))),
            "takeback": self.take_back,
            "reply": self.reply,
            "ask": self.ask_class,
        }
        action = actions.get(str(kind))
        if action is not None:
            action()

    def request(self, source: str, target: str, *, promotion: str = "") -> Verdict | None:
        """A move tried with the mouse: play it, ask for the promotion piece, or explain it."""
        if source not in chess.SQUARE_NAMES or target not in chess.SQUARE_NAMES:
            return None
        move = chess.Move(chess.parse_square(source), chess.parse_square(target),
                          _PROMOTIONS.get(promotion.lower()))
        board = self._frames[self.index]
        if move.promotion is None and board.is_legal(
                chess.Move(move.from_square, move.to_square, chess.QUEEN)):
            self.promotion = source + target
            self.say(t("widget.choose_promotion", lang=self.lang, square=source), kind="info")
            return None
        return self.move(move)

    def promote(self, piece: str) -> Verdict | None:
        """Finish the move waiting in the promotion chooser ("" cancels it)."""
        pending, self.promotion = self.promotion, ""
        if not pending or piece.lower() not in _PROMOTIONS:
            self.say("")
            return None
        return self.request(pending[:2], pending[2:], promotion=piece)

    def pick(self, square: str) -> None:
        """A click on a piece with no legal move: say why, as a typed try would be explained
        (the game is over, it is the other side's turn, the piece is pinned...).

        >>> b = Board("2b1k3/pp6/2n5/1B6/3P4/8/5PPP/6K1 b - - 0 1"); b.pick("c6"); b.message[:30]
        'The knight on c6 is pinned: it'
        """
        if square not in chess.SQUARE_NAMES or self.mode != "play":
            return
        board = self._frames[self.index]
        if self._ending[1]:
            self.say(self._ending[2])
            return
        origin = chess.parse_square(square)
        piece = board.piece_at(origin)
        if piece is None or not self.legal or square in self.legal:
            return
        if piece.color != board.turn:
            where = piece_on(piece.piece_type, origin, color=piece.color, lang=self.lang)
            self.say(t("widget.wrong_turn", lang=self.lang, piece=where,
                       side=color_name(board.turn, lang=self.lang)), squares=[square], kind="error")
            return
        tries = sorted(board.generate_pseudo_legal_moves(chess.BB_SQUARES[origin]),
                       key=lambda m: m.uci())
        if tries:
            verdict = explain_move(board, tries[0], lang=self.lang)
            self.say(verdict.message, squares=verdict.squares or [origin], kind="error")
            return
        where = piece_on(piece.piece_type, origin, color=piece.color, lang=self.lang)
        self.say(t("widget.cannot_move", lang=self.lang, piece=where), squares=[square],
                 kind="error")

    def type_text(self, text: str) -> Verdict | None:
        """A move typed in the text box, read with :func:`chesskit.rules.notation.read_move`."""
        try:
            move = read_move(self._frames[self.index], text)
        except MoveError:
            return self.move(text)
        return self.move(move)

    def move(self, move: str | chess.Move) -> Verdict:
        """Play ``move`` (SAN, UCI or a chess.Move) if it is legal, else explain why not."""
        board = self._frames[self.index]
        verdict = explain_move(board, move, lang=self.lang)
        if self.mode != "play" or not verdict.legal or verdict.move is None:
            if self.mode == "play":
                self.say(verdict.message, squares=verdict.squares, kind="error")
            return verdict
        self.play_move(verdict.move)
        return verdict

    def play_move(self, move: chess.Move, *, kind: str = "ok") -> None:
        """Push a legal move onto the shown position (later frames are dropped); say it as
        ``kind`` ("info" for the other side's move in an exercise)."""
        board = self._frames[self.index].copy()
        san = board.san(move)
        mover = color_name(board.turn, lang=self.lang)
        board.push(move)
        self._frames = self._frames[: self.index + 1] + [board]
        self._show(self.index + 1)
        end = self._ending[2]
        check = t("widget.check", lang=self.lang) if board.is_check() and not end else ""
        self.say(sentences(t("widget.played", lang=self.lang, side=mover, san=san), end, check,
                           lang=self.lang), kind=kind)
        self.after_move(board)

    def ask_class(self) -> None:
        """The "Ask the class" button: the shown position becomes the classroom's round
        (``ck.classroom.ask(board)``); the board says it was sent, or why not."""
        if Board.asker is None:
            return
        refusal = Board.asker.ask(self)
        if refusal:
            self.say(refusal, kind="error")
        else:
            self.say(t("widget.asked", lang=self.lang), kind="ok")

    def offer_ask(self) -> bool:
        """Show "Ask the class" if this kernel's user is a teacher of a running classroom
        (the classroom's ``Board.asker`` asks the service once per kernel; none: no button).

        >>> Board().offer_ask()  # no classroom here
        False
        """
        if Board.asker is None:
            return False
        with _ASKING_WHO:  # the boards of a notebook run at once: one question per kernel
            teacher = Board.asker.is_teacher()
        if teacher:
            self.buttons = {**self.buttons, "ask": True}
        return teacher

    def offer_ask_in_background(self) -> None:
        """:meth:`offer_ask` in a thread when a classroom is installed (a slow or lost
        service never holds up the cell that shows the board)."""
        if Board.asker is not None:
            threading.Thread(target=self.offer_ask, name="chesskit-ask-offer",
                             daemon=True).start()

    def after_move(self, board: chess.Board) -> None:
        """Called after every move played; games and exercises answer here."""

    def reply(self) -> None:
        """The page's pause is over: the opponent moves (games and exercises)."""
        self.waiting = False

    def take_back(self) -> None:
        """Undo the last move shown (when ``takeback`` is allowed)."""
        board = self._frames[self.index]
        if not self.takeback or not board.move_stack or self.index == 0:
            self.say(t("widget.nothing_to_take_back", lang=self.lang), kind="error")
            return
        san = played_sans(board)[-1]
        self._frames = self._frames[: self.index]
        self._show(self.index - 1)
        self.say(t("widget.taken_back", lang=self.lang, san=san), kind="info")

    def step(self, delta: int) -> Board:
        """Go ``delta`` positions forward (negative: back) in the list of positions."""
        return self.goto(self.index + delta)

    def goto(self, index: int) -> Board:
        """Show position number ``index`` (clamped to the list)."""
        self._show(max(0, min(index, len(self._frames) - 1)))
        self._stepped()
        return self

    def _stepped(self) -> None:
        """After a step to another position: say how the game ended, if it did."""
        self.say(self._ending[2] if self._announce_end else "")

    def flip(self) -> Board:
        """Turn the board round."""
        self.orientation = "black" if self.orientation == "white" else "white"
        return self

    def toggle(self, square: str) -> Board:
        """In mark mode, mark or unmark a square."""
        if square in chess.SQUARE_NAMES and self.mode == "mark":
            chosen = set(self.marked) ^ {square}
            self.marked = sorted(chosen, key=chess.parse_square)
        return self

    def place(self, square: str, piece: str) -> Board:
        """In place mode, put ``piece`` ("Q", "k"...) on an empty square, or clear a square.

        >>> Board("8/8/8/8/8/8/8/8", mode="place").place("e1", "K").place("d1", "Q").fen
        '8/8/8/8/8/8/8/3QK3 w - - 0 1'
        """
        if square not in chess.SQUARE_NAMES or self.mode != "place":
            return self
        board = self._frames[self.index].copy(stack=False)
        origin = chess.parse_square(square)
        if board.piece_at(origin) is not None:
            board.remove_piece_at(origin)
        elif len(piece) == 1 and piece in "KQRBNPkqrbnp":
            board.set_piece_at(origin, chess.Piece.from_symbol(piece))
        else:
            self.say(t("widget.choose_piece", lang=self.lang), kind="error")
            return self
        self._frames = [board]
        self._show(0)
        return self

    def submit(self) -> None:
        """The Submit button: say which squares are marked (exercises check them)."""
        if not self.marked:
            self.say(t("widget.no_marks", lang=self.lang), kind="error")
            return
        self.say(t("widget.marked", lang=self.lang, squares=join_words(self.marked,
                                                                         lang=self.lang)))

    # -- output without a live front end ------------------------------------------------------

    def svg(self) -> BoardSvg:
        """The position as the course's SVG diagram (what exported notebooks show)."""
        marks = {colour: list(squares) for colour, squares in sorted(self.marks.items())}
        if self.marked:
            marks["blue"] = [*marks.get("blue", []), *self.marked]
        return diagram(self.fen, marks=marks or None, arrows=[tuple(a) for a in self.arrows]
                       or None, lastmove=self.lastmove or None,
                       orientation=_color(self.orientation), size=min(self.size, 480),
                       lang=self.lang)

    def __repr__(self) -> str:
        return f"<chesskit.{type(self).__name__} fen={self.fen!r}>"

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        bundle = super()._repr_mimebundle_(**kwargs)
        data, metadata = bundle if bundle is not None else ({}, {})
        data.update(self.svg()._repr_mimebundle_())
        return data, metadata

    def saved_picture(self) -> dict[str, str]:
        """The output shown before the board: its SVG and "Run this cell to use the board".
        The live board hides it; a notebook opened without a kernel (or before the browser
        course's kernel is ready) shows it instead of a board that cannot answer.

        >>> Board("start", lang="en").saved_picture()["text/html"][-42:]
        '>Run this cell to use the board.</p></div>'
        """
        picture = self.svg()
        sentence = html.escape(t("widget.run_cell", lang=self.lang))
        return {"text/html": f'<div class="ck-static">{picture}<p class="ck-run" '
                             f'style="color:#555;font-style:italic">{sentence}</p></div>',
                "text/plain": picture.alt}

    def _ipython_display_(self) -> None:
        """Two outputs: the saved picture (:meth:`saved_picture`), then the live board."""
        display(self.saved_picture(), raw=True)
        bundle = super()._repr_mimebundle_()
        data, metadata = bundle if bundle is not None else ({}, {})
        data.pop("text/plain", None)  # the picture's text stands for the board
        display(data, metadata=metadata, raw=True)


def played_sans(board: chess.Board) -> list[str]:
    replay = board.root()
    sans = []
    for move in board.move_stack:
        sans.append(replay.san(move))
        replay.push(move)
    return sans


def game_frames(text: str, *, start: chess.Board) -> list[chess.Board]:
    """Every position of a game given as PGN or as SAN moves, from ``start``."""
    if "[FEN " not in text:  # the moves are read from ``start``
        text = f'[FEN "{start.fen()}"]\n[SetUp "1"]\n\n{text}'
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None:
        return [start]
    board = game.board()
    frames = [board.copy()]
    for move in game.mainline_moves():
        board.push(move)
        frames.append(board.copy())
    return frames


def _name(square: chess.Square | str) -> str:
    return square if isinstance(square, str) else chess.square_name(square)


def arrow_spec(arrow: str | Sequence[str]) -> list[str]:
    if isinstance(arrow, str):
        return [arrow[:2], arrow[2:4], "green"]
    parts = [_name(part) for part in arrow]
    return [parts[0], parts[1], parts[2] if len(parts) > 2 else "green"]


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0
