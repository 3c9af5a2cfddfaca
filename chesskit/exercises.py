"""Exercises: one model for every kind, answers checked from the rules, never from one line.

>>> ex = Exercise(id="12.01", lesson=12, kind="move", goal="mate",
...               fen="6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
>>> ex.check("Ra8#").correct, ex.check("ra8").correct
(True, True)
>>> ex.check("Ra7").code
'wrong'
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple

import chess

from chesskit import search
from chesskit.errors import BankError, ChessKitError
from chesskit.i18n import (
    color_name,
    join_words,
    localize,
    piece_name,
    piece_on,
    t,
    to_traditional,
)
from chesskit.notation import normalize_move_text

if TYPE_CHECKING:
    from chesskit.diagram import BoardSvg

KINDS = ("square", "squares", "move", "line", "choice", "count", "notation", "setup", "playout")
MOVE_GOALS = ("mate", "check", "capture", "escape_check", "stalemate", "castle", "en_passant",
              "promote", "win_material", "fork", "pin", "skewer", "discovered_attack",
              "double_check", "perpetual", "develop", "best")
MODES = {"square": ("name", "find"), "squares": ("moves", "attacks", "king_safe", "controlled"),
         "notation": ("write", "game", "read")}
QUESTIONS = ("status", "draw_rule", "legal", "evaluation", "fact")
COUNTS = ("legal_moves", "piece_moves", "material", "attackers", "elo_change", "expected_score",
          "club_points")
RATING_COUNTS = {"elo_change": 0.05, "expected_score": 0.01, "club_points": 0.05}
"""The counts about ratings (no board) and how far off an answer may be."""
CODES = ("correct", "wrong", "illegal", "unparseable", "empty", "incomplete", "not_gradable")
MOTIF_GOALS = ("fork", "pin", "skewer", "discovered_attack", "double_check")
OPTIONS = {"status": ("checkmate", "stalemate", "check", "none"),
           "draw_rule": ("stalemate", "insufficient", "threefold", "fifty", "no_draw"),
           "legal": ("yes", "no"), "evaluation": ("white_better", "black_better", "equal")}
MAX_ANSWER = 2000
EMPTY_FEN = "8/8/8/8/8/8/8/8 w - - 0 1"
display_widget = False
REVIEW_GOALS = ("mate", "win_material", "fork", "pin", "skewer", "discovered_attack",
                "double_check", "perpetual", "best")
"""Goals whose task, in mixed review, is only "find the best move" (the idea is not named)."""
"""Set to True (the widget module does it in a live kernel) to show exercises on the board."""

Lang = str | None


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer: ``correct``, a ``code`` of :data:`CODES` and a sentence.

    >>> Feedback(False, "empty", "Write your answer.").code
    'empty'
    """

    correct: bool
    code: str
    message: str
    squares: tuple[chess.Square, ...] = ()
    answer: str = ""
    exercise_id: str = ""

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"<chesskit.Feedback {self.exercise_id} {self.code}>"

    def _repr_markdown_(self) -> str:
        mark = "✓" if self.correct else ("✎" if self.code == "empty" else "✗")
        return f"{mark} {self.message}"


class _Verdict(NamedTuple):
    legal: bool
    code: str
    message: str
    move: chess.Move | None
    squares: tuple[chess.Square, ...]


def _explain(board: chess.Board, text: str, lang: Lang) -> _Verdict:
    from chesskit.explain import explain_move

    v = explain_move(board, text, lang=lang)
    return _Verdict(v.legal, v.code, v.message, v.move, tuple(v.squares))


def _named_king(board: chess.Board, verdict: _Verdict, lang: Lang) -> str:
    """explain_move's sentence with "your king" replaced by the king's colour, for a move of a
    side that is not the learner's ("The black king cannot go to d4: ...").

    >>> b = chess.Board("8/8/8/4k3/8/3Q4/8/4K3 b - - 0 1")
    >>> _named_king(b, _explain(b, "Kd4", "en"), "en")
    'The black king cannot go to d4, because the queen on d3 attacks that square.'
    """
    king = board.king(board.turn)
    if king is None or verdict.code not in ("king_into_check", "pinned", "in_check"):
        return verdict.message
    fields = {"king": piece_name(chess.KING, color=board.turn, lang=lang),
              "square": chess.square_name(king)}
    first, second = (verdict.squares + (king, king))[:2]
    if verdict.code == "king_into_check":
        fields.update(square=chess.square_name(first), attacker=_on(board, second, lang))
    elif verdict.code == "pinned":
        fields.update(mover=_on(board, first, lang), pinner=_on(board, second, lang))
    else:
        fields["checker"] = join_words([_on(board, s, lang) for s in board.checkers()],
                                       lang=lang)
    return t(f"exercises.named_{verdict.code}", lang=lang, **fields)


def _on(board: chess.Board, square: chess.Square, lang: Lang) -> str:
    return piece_on(board.piece_type_at(square) or chess.PAWN, square, lang=lang)


def _describe(board: chess.Board, move: chess.Move, lang: Lang) -> str:
    from chesskit.tactics import describe_motifs

    if not _motifs(board, move):
        return ""  # a quiet move: the praise alone says enough
    return describe_motifs(board, move, lang=lang, hanging=False)


def _motifs(board: chess.Board, move: chess.Move) -> frozenset[str]:
    from chesskit.tactics import motifs

    return motifs(board, move)


def _to_board(fen: str) -> chess.Board:
    from chesskit.position import to_board

    return to_board(fen or EMPTY_FEN)


def _clean(answer: object) -> str | None:
    """The answer as one normalised line of text, or None when it is not text at all."""
    if isinstance(answer, bool) or answer is None:
        return "" if answer is None else None
    if isinstance(answer, int):
        return str(answer)
    if isinstance(answer, chess.Move):
        return answer.uci()
    if isinstance(answer, (list, tuple)):
        if not all(isinstance(a, (str, int)) and not isinstance(a, bool) for a in answer):
            return None
        answer = " ".join(str(a) for a in answer)
    if not isinstance(answer, str) or len(answer) > MAX_ANSWER:
        return None
    text = unicodedata.normalize("NFKC", answer)
    text = "".join(ch if ch.isprintable() else " " for ch in text)
    return " ".join(text.split())


_MOVE_NUMBER = re.compile(r"^\d+\s*\.+(?:\.\.)?")
_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "½-½", "*"})


def move_tokens(text: str) -> list[str]:
    """The moves of a written line, without move numbers and results ("e.p." stays on its move).

    >>> move_tokens("1. Qh5 Kg8 2.Qh7# 1-0 exd6 e.p.")
    ['Qh5', 'Kg8', 'Qh7#', 'exd6 e.p.']
    """
    tokens: list[str] = []
    for raw in text.replace(",", " ").replace(";", " ").replace("…", "...").split():
        token = _MOVE_NUMBER.sub("", raw)
        if token.lower().strip(".") in ("e.p", "ep") and tokens:
            tokens[-1] += " " + token
        elif token and token not in _RESULTS and not token.strip(".").isdigit():
            tokens.append(token)
    return tokens


_SQUARE = re.compile(r"[a-h][1-8]")
_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5,
              "六": 6, "七": 7, "八": 8, "九": 9}


_EN_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
               "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
               "seventeen", "eighteen", "nineteen", "twenty")


def read_number(text: str) -> float | None:
    """A number from digits ("12.5") or Chinese numerals ("三", "十二", "负三"), else None.

    >>> read_number("二十三"), read_number("-3"), read_number("0.76"), read_number("x")
    (23, -3, 0.76, None)
    """
    text = text.strip().replace("−", "-").replace("负", "-").replace("負", "-")
    if text.lower() in _EN_NUMBERS:
        return _EN_NUMBERS.index(text.lower())
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("-+").strip()
    if text.isdigit():
        return sign * int(text)
    if re.fullmatch(r"\d*\.\d+", text):
        return sign * float(text)
    if not text or any(ch not in _CN_DIGITS and ch != "十" for ch in text):
        return None
    if "十" not in text:
        return sign * int("".join(str(_CN_DIGITS[ch]) for ch in text))
    tens, _, ones = text.partition("十")
    if len(tens) > 1 or len(ones) > 1:
        return None
    return sign * ((_CN_DIGITS[tens] if tens else 1) * 10 + (_CN_DIGITS[ones] if ones else 0))


def read_squares(text: str) -> list[chess.Square] | None:
    """Square names in any order and separated anyhow; None if anything else is written.

    >>> [chess.square_name(s) for s in read_squares("d5, E4 f3")]
    ['d5', 'e4', 'f3']
    """
    words = [w for w in re.split(r"[\s,;、，/]+", text.lower()) if w]
    if not words or not all(_SQUARE.fullmatch(w) for w in words):
        return None
    return [chess.parse_square(w) for w in words]


_PIECE_ITEM = re.compile(r"([KQRBNPkqrbnp]?)([a-h][1-8])")


def read_placement(text: str) -> chess.BaseBoard | None:
    """A FEN placement ("rnbqkbnr/...") or a piece list "Ke1, Qd1, ke8, pe7" (lowercase = Black,
    no letter = white pawn); None when it cannot be read.

    >>> read_placement("Ke1 qd8").piece_at(chess.D8)
    Piece.from_symbol('q')
    """
    text = text.strip()
    if "/" in text:
        try:
            return chess.BaseBoard(text.split()[0])
        except ValueError:
            return None
    board = chess.BaseBoard.empty()
    for word in (w for w in re.split(r"[\s,;、，]+", text) if w):
        match = _PIECE_ITEM.fullmatch(word)
        if match is None:
            return None
        board.set_piece_at(chess.parse_square(match[2]), chess.Piece.from_symbol(match[1] or "P"))
    return board


def _san_line(board: chess.Board, moves: Sequence[chess.Move]) -> str:
    return board.variation_san(list(moves))


def _uci_moves(text: str) -> list[chess.Move]:
    return [chess.Move.from_uci(u) for u in text.split()]


def _material_words(board: chess.BaseBoard, lang: Lang) -> str:
    """ "White: king e1, queen d1. Black: king e8." from a placement."""
    parts = []
    for color in (chess.WHITE, chess.BLACK):
        items = [t("exercises.piece_at", lang=lang, piece=piece_name(p.piece_type, lang=lang),
                   square=chess.square_name(sq))
                 for p_type in (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT,
                                chess.PAWN)
                 for sq in board.pieces(p_type, color)
                 for p in [chess.Piece(p_type, color)]]
        if items:
            parts.append(t("exercises.side_pieces", lang=lang, side=color_name(color, lang=lang),
                           pieces=join_words(items, lang=lang)))
    return " ".join(parts)


def _check_fields(kind: str, goal: str, fen: str, data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(field, problem) pairs for an exercise whose fields do not fit its kind."""
    need: dict[str, tuple[str, ...]] = {
        "square": ("mode", "square"), "squares": ("mode",), "line": ("mate_in",),
        "choice": ("question",), "count": ("count",), "notation": ("mode",),
        "playout": ("max_moves",),
    }
    if kind not in KINDS:
        return [("kind", f"unknown kind {kind!r}; use one of {', '.join(KINDS)}")]
    if kind == "move" and goal not in MOVE_GOALS:
        return [("goal", f"unknown goal {goal!r}; use one of {', '.join(MOVE_GOALS)}")]
    problems = [(name, f"a {kind} item needs the field {name}")
                for name in need.get(kind, ()) if name not in data]
    choices = {"mode": MODES.get(kind), "question": QUESTIONS if kind == "choice" else None,
               "count": COUNTS if kind == "count" else None}
    for name, allowed in choices.items():
        if allowed and name in data and data[name] not in allowed:
            problems.append((name, f"unknown {name} {data[name]!r}; use one of "
                                   f"{', '.join(allowed)}"))
    if kind == "setup" and "target" not in data and "pieces" not in data:
        problems.append(("target", "a setup item needs target or pieces"))
    if kind == "move" and goal == "best" and not data.get("answers"):
        problems.append(("answers", "a best-move item needs answers"))
    if kind == "squares" and data.get("mode") != "controlled" and "square" not in data:
        problems.append(("square", "this squares item needs the square of its piece"))
    if kind not in ("square", "setup", "notation") and not fen and (
            data.get("count") not in RATING_COUNTS and data.get("question") != "fact"):
        problems.append(("fen", f"a {kind} item needs a fen"))
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
    kind: str
    goal: str = ""
    fen: str = ""
    topic: str = ""
    difficulty: int = 1000
    prompt: Mapping[str, str] | None = None
    hints: tuple[Mapping[str, str], ...] = ()
    source: str = ""
    data: Mapping[str, Any] = field(default_factory=dict)
    review: bool = False
    """In mixed review the task does not name the idea: "Find the best move." """

    def __post_init__(self) -> None:
        problems = _check_fields(self.kind, self.goal, self.fen, self.data)
        if problems:
            name, message = problems[0]
            raise BankError(f"field {name}: {message}")

    # -- the position -------------------------------------------------------------------
    def board(self) -> chess.Board:
        """A fresh board of the exercise's position (the empty board when it has none)."""
        return _to_board(self.fen)

    @cached_property
    def _board(self) -> chess.Board:
        return self.board()

    def _square(self, name: str = "square") -> chess.Square:
        return chess.parse_square(str(self.data[name]).lower())

    # -- checking -----------------------------------------------------------------------
    def check(self, answer: object, *, lang: Lang = None) -> Feedback:
        """Check an answer and say why, in the current language; never raises.

        >>> ex = Exercise(id="x", lesson=1, kind="count", fen="8/8/8/8/8/8/8/R3K3 w - - 0 1",
        ...               data={"count": "material"})
        >>> ex.check("五").correct, ex.check(None).code, ex.check(object()).code
        (True, 'empty', 'unparseable')
        """
        text = _clean(answer)
        if text is None:
            return self._fb("unparseable", t("exercises.unreadable", lang=lang), "")
        if not text:
            return self._fb("empty", t("exercises.empty", lang=lang), "")
        try:
            return _CHECKS[self.kind](self, text, lang)
        except (ChessKitError, ValueError, KeyError, IndexError, TypeError):
            return self._fb("unparseable", t("exercises.unreadable", lang=lang), text)

    def _fb(self, code: str, message: str, text: str,
            squares: Sequence[chess.Square] = ()) -> Feedback:
        return Feedback(code == "correct", code, message, tuple(squares), text, self.id)

    def _right(self, text: str, lang: Lang, detail: str = "",
               squares: Sequence[chess.Square] = ()) -> Feedback:
        message = t("exercises.correct_because", lang=lang, detail=detail) if detail \
            else t("exercises.correct", lang=lang)
        return self._fb("correct", message, text, squares)

    # -- answers ------------------------------------------------------------------------
    @cached_property
    def _solutions(self) -> tuple[str, ...]:
        return tuple(_SOLUTIONS[self.kind](self))

    def solutions(self) -> list[str]:
        """Every correct answer (SAN moves, squares, a number, an option letter), sorted."""
        return list(self._solutions)

    def hint(self, level: int = 0, *, lang: Lang = None) -> str:
        """The hint ladder: 0 a nudge, 1 something new (the piece, how many, the king), 2 the
        move or one answer (the technique of a playout). Stored hints fill levels 0 and 1."""
        level = max(0, min(int(level), 2))
        if level < len(self.hints) and level < 2:
            return localize(self.hints[level], lang=lang)
        if level == 0:
            return t(f"exercises.nudge_{self._nudge()}", lang=lang)
        if level == 1:
            return _step_hint(self, lang)
        if not self._solutions:
            return _technique_hint(self, lang)
        return t("exercises.hint_answer", lang=lang, answer=self._solutions[0])

    def _nudge(self) -> str:
        """The locale key of the first hint: a question about a position looks at the king, a
        piece's squares depend on how the piece moves."""
        if self.kind == "choice" and self.data.get("question") != "fact":
            return "choice_position"
        if self.kind == "squares" and "square" in self.data:
            piece = self._board.piece_type_at(self._square())
            return f"squares_{_MOVER_KIND.get(piece or chess.QUEEN, 'line')}"
        if self.kind == "count" and self.data.get("count") in RATING_COUNTS:
            return "count_rating"
        return self.kind

    # -- display ------------------------------------------------------------------------
    def side(self, *, lang: Lang = None) -> str:
        """The side to move, as a word ("white" / "白方")."""
        return color_name(self._board.turn, lang=lang)

    def prompt_text(self, *, lang: Lang = None) -> str:
        """The task in the language: the stored prompt, or the default one for kind and goal.

        >>> Exercise(id="x", lesson=12, kind="move", goal="mate",
        ...          fen="6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").prompt_text(lang="zh-Hans")
        '白方走：一步杀（一步将死对方）。'
        """
        if self.review and (self.kind == "line" or self.goal in REVIEW_GOALS):
            text = t("exercises.prompt_review", lang=lang, side=self.side(lang=lang))
        elif self.prompt:
            text = localize(self.prompt, lang=lang)
        else:
            text = _default_prompt(self, lang)
        if self.kind == "choice":
            options = "  ".join(f"{chr(65 + i)}. {o}"
                                for i, o in enumerate(self.options(lang=lang)))
            text = f"{text}\n{options}"
        return text

    def options(self, *, lang: Lang = None) -> list[str]:
        """The options of a ``choice`` item, in order (A, B, C ...)."""
        question = self.data.get("question")
        if question == "fact":
            return [localize(o, lang=lang) for o in self.data["options"]]
        return [t(f"exercises.option_{o}", lang=lang) for o in OPTIONS.get(str(question), ())]

    def board_svg(self, *, lang: Lang = None) -> BoardSvg:
        """The board of the exercise as SVG (chesskit.diagram.board), with its marks."""
        from chesskit.diagram import board

        marks, arrows = _board_marks(self)
        return board(self._board, marks=marks, arrows=arrows, lang=lang)

    def widget(self) -> Any:
        """The on-board widget for this exercise (imports chesskit.widget when asked)."""
        from chesskit.widget import Board

        return Board(self._board.fen(), exercise=self)

    def __repr__(self) -> str:
        return f"<chesskit.Exercise {self.id} {self.kind}{'/' + self.goal if self.goal else ''}>"

    def _repr_markdown_(self) -> str:
        return f"**{self.id}** {self.prompt_text()}".replace("\n", "  \n")

    def _repr_svg_(self) -> str:
        return str(self.board_svg())

    def _ipython_display_(self) -> None:
        """Two outputs: the task as Markdown, then the board to answer on in a live kernel (the
        SVG board where there is no kernel, as in an exported page)."""
        from IPython.display import display

        display({"text/markdown": self._repr_markdown_(),
                 "text/plain": f"{self.id}: {self.prompt_text()}"}, raw=True)
        if _live_kernel():
            widget = self.widget()
            widget.prompt = ""  # the task is already shown above the board
            display(widget)
        else:
            board = self.board_svg()
            display({"image/svg+xml": str(board), "text/plain": board.alt}, raw=True)

    # -- the line defender ---------------------------------------------------------------
    def defender_reply(self, board: chess.Board) -> chess.Move | None:
        """The most stubborn defence in ``board`` (defender to move) of a ``line`` item."""
        return search.stubborn_reply(board, limit=int(self.data.get("mate_in", 2)))


_MOVER_KIND = {chess.KNIGHT: "knight", chess.KING: "king", chess.PAWN: "pawn"}
"""Pieces whose moves are not "follow each line" (the locale key suffix of their nudge)."""


def _step_hint(ex: Exercise, lang: Lang) -> str:
    """Hint level 1 when no second hint is stored: a fact the nudge did not give."""
    if ex.kind in ("move", "line") and ex._solutions:
        move = ex._board.parse_san(ex._solutions[0])
        piece = piece_on(ex._board.piece_type_at(move.from_square) or chess.PAWN,
                         move.from_square, lang=lang)
        return t("exercises.hint_piece", lang=lang, piece=piece)
    if ex.kind == "squares":
        n = len(_target_squares(ex))
        return t(f"exercises.hint_squares_{min(n, 2)}", lang=lang, n=n)
    if ex.kind == "count":
        return _count_step(ex, lang)
    if ex.kind == "choice":
        return _choice_step(ex, lang)
    if ex.kind == "playout":
        return t("exercises.nudge_playout", lang=lang) if ex.hints else _technique_hint(ex, lang)
    return localize(ex.hints[-1], lang=lang) if ex.hints else t(
        f"exercises.nudge_{ex._nudge()}", lang=lang)


def _count_step(ex: Exercise, lang: Lang) -> str:
    """What to count: one side or both, one piece or all (or the rule of a rating count)."""
    what = str(ex.data["count"])
    fields: dict[str, object] = {"side": ex.side(lang=lang)}
    if "square" in ex.data:
        fields["square"] = str(ex.data["square"]).lower()
        piece = ex._board.piece_type_at(ex._square())
        fields["piece"] = piece_on(piece or chess.PAWN, ex._square(), lang=lang)
    if what == "attackers":
        fields["side"] = color_name(_attacker_color(ex), lang=lang)
    return t(f"exercises.hint_count_{what}", lang=lang, **fields)


def _choice_step(ex: Exercise, lang: Lang) -> str:
    """For a position: the king of the side to move in words; for a fact: one wrong option."""
    question = ex.data["question"]
    if question == "evaluation":
        return t("exercises.hint_count_material", lang=lang)
    if question == "fact":
        key = choice_key(ex)
        wrong = next(i for i in range(len(ex.options(lang=lang))) if i != key)
        return t("exercises.hint_not_option", lang=lang, letter=chr(65 + wrong))
    board = _choice_board(ex)
    king = board.king(board.turn)
    if king is None:
        return t("exercises.nudge_choice", lang=lang)
    status = "hint_king_checked" if board.is_check() else "hint_king_safe"
    return t(f"exercises.{status}", lang=lang, king=piece_on(chess.KING, king, lang=lang))


def _technique_hint(ex: Exercise, lang: Lang) -> str:
    """The method for the mating material of a playout (K+Q, K+R+R, K+R), else the nudge."""
    board = ex._board
    pieces = "".join(sorted(chess.piece_symbol(p.piece_type) for p in board.piece_map().values()
                            if p.color == board.turn and p.piece_type != chess.KING))
    key = {"q": "technique_q", "rr": "technique_rr", "r": "technique_r"}.get(pieces,
                                                                            "nudge_playout")
    return t(f"exercises.{key}", lang=lang)


def _live_kernel() -> bool:
    """True inside a Jupyter kernel, where widgets can be shown."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return getattr(shell, "kernel", None) is not None


# ---- default prompts and board marks ----------------------------------------------------------

def _default_prompt(ex: Exercise, lang: Lang) -> str:
    d = ex.data
    fields: dict[str, object] = {"side": ex.side(lang=lang)}
    if "square" in d:
        fields["square"] = str(d["square"]).lower()
        piece = ex._board.piece_at(ex._square())
        if piece is not None:
            fields["piece"] = piece_on(piece.piece_type, ex._square(), lang=lang)
    if ex.kind == "move":
        fields["gain"] = d.get("gain", 3)
        return t(f"exercises.prompt_move_{ex.goal}", lang=lang, **fields)
    if ex.kind == "line":
        return t("exercises.prompt_line", lang=lang, n=d["mate_in"], **fields)
    if ex.kind == "squares" and d["mode"] == "controlled":
        fields["side"] = color_name(d.get("color", "white") == "white", lang=lang)
    if ex.kind == "choice":
        fields["moves"] = _choice_moves_san(ex)
        if "move" in d:
            fields["move"] = _legal_question_move(ex)
        return t(f"exercises.prompt_choice_{d['question']}", lang=lang, **fields)
    if ex.kind == "count":
        fields.update({k: d[k] for k in ("rating", "opponent", "score", "winner_points",
                                          "loser_points") if k in d})
        if d["count"] == "attackers":
            fields["side"] = color_name(_attacker_color(ex), lang=lang)
        return t(f"exercises.prompt_count_{d['count']}", lang=lang, **fields)
    if ex.kind == "notation":
        fields["game"] = _game_words(ex, lang) if d["mode"] == "game" else d.get("pgn", "")
    if ex.kind == "setup":
        target = _setup_target(ex)
        if target.board_fen() == chess.STARTING_BOARD_FEN:
            return t("exercises.prompt_setup_start", lang=lang)
        fields["pieces"] = _material_words(target, lang)
        return t("exercises.prompt_setup", lang=lang, **fields)
    if ex.kind == "playout":
        fields["n"] = d["max_moves"]
        return t("exercises.prompt_playout", lang=lang, **fields)
    return t(f"exercises.prompt_{ex.kind}_{d['mode']}", lang=lang, **fields)


def _board_marks(ex: Exercise) -> tuple[dict[str, object] | None, list[str] | None]:
    """The marks and arrows of the exercise's board."""
    d = ex.data
    marked = (ex.kind == "square" and d["mode"] == "name") or (
        ex.kind in ("squares", "count") and "square" in d)
    marks: dict[str, object] | None = {"yellow": [str(d["square"]).lower()]} if marked else None
    arrow = (ex.kind == "notation" and d["mode"] == "write") or (
        ex.kind == "choice" and d["question"] == "legal")
    return marks, [str(d["move"])[:4]] if arrow else None


def _game_words(ex: Exercise, lang: Lang) -> str:
    """ "1. pawn e2-e4, pawn e7-e5 2. knight g1-f3" for the moves of a notation game."""
    board = ex.board() if ex.fen else chess.Board()
    parts = []
    for move in _uci_moves(str(ex.data["moves"])):
        piece = piece_name(board.piece_type_at(move.from_square) or chess.PAWN, lang=lang)
        step = f"{piece} {chess.square_name(move.from_square)}-{chess.square_name(move.to_square)}"
        if board.turn == chess.WHITE:
            parts.append(f"{board.fullmove_number}. {step}")
        else:
            parts.append(step if parts else f"{board.fullmove_number}... {step}")
        board.push(move)
    return " ".join(parts)


# ---- move kind ---------------------------------------------------------------------------------

def _after(board: chess.Board, move: chess.Move) -> chess.Board:
    after = board.copy(stack=False)
    after.push(move)
    return after


def _victim_value(board: chess.Board, move: chess.Move) -> int:
    return search.VALUES[board.piece_type_at(move.to_square) or chess.PAWN]


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
    if search._centre_distance(move.to_square) >= search._centre_distance(move.from_square):
        return "not_centre"
    if not search.wins_at_least(board, move, 0, depth=1):
        return "blunder"
    return None


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
    if search.material_gain(board, move, depth=2) < 0:
        return "best_loses", search.best_reply(board, move)
    return "best", reply


def _read_stored(board: chess.Board, text: str) -> chess.Move:
    from chesskit.notation import read_move

    return read_move(board, text)


def _move_reason(ex: Exercise, board: chess.Board, move: chess.Move, lang: Lang) -> str:
    """Why a legal move misses the goal: one sentence naming the piece and the square."""
    mover = board.piece_type_at(move.from_square) or chess.PAWN
    after = _after(board, move)
    king_sq = after.king(after.turn)
    fields: dict[str, object] = {
        "san": board.san(move), "piece": piece_on(mover, move.to_square, lang=lang),
        "side": color_name(after.turn, lang=lang), "gain": ex.data.get("gain", 3),
        "king": piece_on(chess.KING, king_sq, lang=lang) if king_sq is not None else "",
    }
    key = ex.goal
    if ex.goal in ("mate", "perpetual", "stalemate") and board.gives_check(move):
        key = f"{ex.goal}_check"
    if ex.goal == "stalemate" and after.is_checkmate():
        key = "stalemate_mate"
    if ex.goal != "stalemate" and after.is_stalemate():
        key = "stalemate_draw"
    if ex.goal == "promote" and move.promotion is not None:
        key = "promote_weak"
    if ex.goal == "capture" and board.is_capture(move):
        key = "capture_small"
    if ex.goal == "develop":
        key = f"develop_{_develop_problem(board, move)}"
    if ex.goal == "discovered_attack" and "gain" in ex.data and ex.goal in _motifs(board, move):
        key = "win_material"
    mate = _mate_reply(board, move) if ex.goal == "escape_check" else None
    reply = (search.best_reply(board, move) if key in ("win_material", "develop_blunder")
             else next(iter(search.ordered_moves(after)), None))
    if ex.goal == "best":
        key, reply = _best_reason(board, move, reply)
    if mate is not None:
        key, reply = "best_mated", mate
    fields["reply"] = after.san(reply) if reply else ""
    return t(f"exercises.wrong_{key}", lang=lang, **fields)


def _read_one_move(ex: Exercise, board: chess.Board, text: str, lang: Lang
                   ) -> chess.Move | Feedback:
    if len(move_tokens(text)) != 1:
        return ex._fb("unparseable", t("exercises.one_move", lang=lang), text)
    verdict = _explain(board, move_tokens(text)[0], lang)
    if verdict.move is None or not verdict.legal:
        code = "unparseable" if verdict.code == "unparseable" else "illegal"
        return ex._fb(code, verdict.message, text, verdict.squares)
    return verdict.move


def _check_move(ex: Exercise, text: str, lang: Lang) -> Feedback:
    board = ex._board
    move = _read_one_move(ex, board, text, lang)
    if isinstance(move, Feedback):
        return move
    squares = (move.from_square, move.to_square)
    if _goal_met(ex, board, move):
        return ex._right(board.san(move), lang, _describe(board, move, lang), squares)
    return ex._fb("wrong", _move_reason(ex, board, move, lang), board.san(move), squares)


def _solve_move(ex: Exercise) -> list[str]:
    board = ex._board
    return sorted(board.san(m) for m in board.legal_moves if _goal_met(ex, board, m))


# ---- line kind ---------------------------------------------------------------------------------

def _check_line(ex: Exercise, text: str, lang: Lang) -> Feedback:
    n = int(ex.data["mate_in"])
    board = ex.board()
    tokens = move_tokens(text)
    if not tokens:
        return ex._fb("unparseable", t("exercises.unreadable", lang=lang), text)
    played: list[chess.Move] = []
    for index, token in enumerate(tokens):
        where = {"number": board.fullmove_number, "side": color_name(board.turn, lang=lang)}
        verdict = _explain(board, token, lang)
        if verdict.move is None or not verdict.legal:
            said = _named_king(board, verdict, lang) if index % 2 else verdict.message
            message = t("exercises.game_at", lang=lang, message=said, **where)
            code = "unparseable" if verdict.code == "unparseable" else "illegal"
            return ex._fb(code, message, _san_line(ex._board, played), verdict.squares)
        move = verdict.move
        if index % 2 == 0 and not search.forces_mate(board, move, n - index // 2):
            refutation = search.stubborn_reply(_after(board, move), limit=n - index // 2)
            message = t("exercises.wrong_line", lang=lang, san=board.san(move),
                        side=color_name(not board.turn, lang=lang),
                        reply=_after(board, move).san(refutation) if refutation else "")
            if index:
                message = t("exercises.game_at", lang=lang, message=message, **where)
            return ex._fb("wrong", message, _san_line(ex._board, [*played, move]),
                          (move.from_square, move.to_square))
        board.push(move)
        played.append(move)
    key = played[0]
    return ex._right(_san_line(ex._board, played), lang,
                     t("exercises.line_right", lang=lang, san=ex._board.san(key),
                       n=int(ex.data["mate_in"])), (key.from_square, key.to_square))


def _solve_line(ex: Exercise) -> list[str]:
    board = ex._board
    return sorted(board.san(m) for m in search.mate_in(board, int(ex.data["mate_in"])))


# ---- square and squares ------------------------------------------------------------------------

def _check_square(ex: Exercise, text: str, lang: Lang) -> Feedback:
    squares = read_squares(text)
    if squares is None or len(squares) != 1:
        return ex._fb("unparseable", t("exercises.one_square", lang=lang), text)
    given, target = squares[0], ex._square()
    name = chess.square_name(given)
    if given == target:
        return ex._right(name, lang, squares=(given,))
    if chess.square_file(given) == chess.square_file(target):
        key = "square_file_right"
    elif chess.square_rank(given) == chess.square_rank(target):
        key = "square_rank_right"
    else:
        key = "square_wrong"
    return ex._fb("wrong", t(f"exercises.{key}", lang=lang, square=name), name, (given,))


def _target_squares(ex: Exercise) -> set[chess.Square]:
    board = ex._board.copy(stack=False)
    mode = ex.data["mode"]
    if mode == "controlled":
        color = str(ex.data.get("color", "white")) == "white"
        return {sq for p in board.piece_map() if board.color_at(p) == color
                for sq in board.attacks(p)}
    square = ex._square()
    if mode == "attacks":
        return set(board.attacks(square))
    moving = _squares_board(ex)
    return {m.to_square for m in moving.legal_moves if m.from_square == square}


def _squares_board(ex: Exercise) -> chess.Board:
    board = ex._board.copy(stack=False)
    if "square" in ex.data:
        color = board.color_at(ex._square())
        if color is not None:
            board.turn = color
    return board


def _check_squares(ex: Exercise, text: str, lang: Lang) -> Feedback:
    given = read_squares(text)
    if given is None:
        return ex._fb("unparseable", t("exercises.squares_unreadable", lang=lang), text)
    names = " ".join(sorted({chess.square_name(s) for s in given}))
    target = _target_squares(ex)
    extra = sorted(set(given) - target)
    missing = target - set(given)
    if extra:
        return ex._fb("wrong", _extra_reason(ex, extra[0], lang), names, tuple(extra))
    if missing:
        key = "exercises.squares_missing" if len(missing) > 1 else "exercises.square_missing"
        return ex._fb("incomplete", t(key, lang=lang, n=len(missing)),
                      names)
    return ex._right(names, lang, squares=tuple(sorted(target)))


def _extra_reason(ex: Exercise, square: chess.Square, lang: Lang) -> str:
    name = chess.square_name(square)
    if ex.data["mode"] == "controlled" or "square" not in ex.data:
        return t("exercises.squares_extra_side", lang=lang, square=name)
    board = _squares_board(ex)
    origin = ex._square()
    piece = board.piece_type_at(origin) or chess.PAWN
    if ex.data["mode"] in ("moves", "king_safe"):
        verdict = _explain(board, chess.square_name(origin) + name, lang)
        if verdict.message and verdict.code not in ("ok", "unparseable"):
            return _named_king(board, verdict, lang)
    return t("exercises.squares_extra", lang=lang, piece=piece_on(piece, origin, lang=lang),
             square=name)


def _solve_square(ex: Exercise) -> list[str]:
    return [chess.square_name(ex._square())]


def _solve_squares(ex: Exercise) -> list[str]:
    return [" ".join(sorted(chess.square_name(s) for s in _target_squares(ex)))]


# ---- choice ------------------------------------------------------------------------------------

def _choice_board(ex: Exercise) -> chess.Board:
    board = ex.board()
    for move in _uci_moves(str(ex.data.get("moves", ""))):
        board.push(move)
    return board


def _choice_moves_san(ex: Exercise) -> str:
    moves = _uci_moves(str(ex.data.get("moves", "")))
    return _san_line(ex._board, moves) if moves else ""


def _legal_question_move(ex: Exercise) -> str:
    move = chess.Move.from_uci(str(ex.data["move"]))
    board = ex._board
    return board.san(move) if board.is_legal(move) else str(ex.data["move"])


def choice_key(ex: Exercise) -> int:
    """The index of the right option, computed from the rules (stored only for ``fact``)."""
    question = ex.data["question"]
    if question == "fact":
        return int(ex.data["answer"])
    board = _choice_board(ex)
    if question == "status":
        return 0 if board.is_checkmate() else 1 if board.is_stalemate() else (
            2 if board.is_check() else 3)
    if question == "draw_rule":
        rules = (board.is_stalemate(), board.is_insufficient_material(),
                 board.can_claim_threefold_repetition(), board.can_claim_fifty_moves())
        return next((i for i, hit in enumerate(rules) if hit), 4)
    if question == "legal":
        return 0 if board.is_legal(chess.Move.from_uci(str(ex.data["move"]))) else 1
    diff = search.balance(board)
    return 0 if diff > 0 else 1 if diff < 0 else 2


_SYNONYMS = {
    "yes": ("是", "对", "能", "行", "合法", "y", "true"),
    "no": ("否", "不", "不是", "不对", "不能", "不行", "不合法", "n", "false"),
    "white_better": ("+-",), "black_better": ("-+",), "equal": ("=",),
}


def _read_option(ex: Exercise, text: str) -> int | None:
    options = ex.options(lang="en") + ex.options(lang="zh-Hans") + ex.options(lang="zh-Hant")
    count = len(ex.options(lang="en"))
    word = text.strip().rstrip(".)。！!").strip()
    keys = OPTIONS.get(str(ex.data.get("question")), ())
    for index, key in enumerate(keys):
        if word.casefold() in _SYNONYMS.get(key, ()) or _traditional_synonym(word, key):
            return index
    if len(word) == 1 and word.isalpha() and word.isascii():
        index = ord(word.upper()) - 65
        return index if 0 <= index < count else None
    number = read_number(word)
    if number is not None:
        return int(number) - 1 if number == int(number) and 1 <= number <= count else None
    folded = [o.casefold().rstrip(".") for o in options]
    if word.casefold() in folded:
        return folded.index(word.casefold()) % count
    starts = {i % count for i, o in enumerate(folded) if len(word) >= 2
              and o.startswith(word.casefold())}
    return starts.pop() if len(starts) == 1 else None


def _traditional_synonym(word: str, key: str) -> bool:
    """True when ``word`` is a Traditional spelling of one of ``key``'s Chinese synonyms."""
    return any(to_traditional(s) == word for s in _SYNONYMS.get(key, ()) if not s.isascii())


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


def _check_choice(ex: Exercise, text: str, lang: Lang) -> Feedback:
    index = _read_option(ex, text)
    if index is None:
        return ex._fb("unparseable", t("exercises.choice_unreadable", lang=lang,
                                       last=chr(64 + len(ex.options(lang=lang)))), text)
    letter = chr(65 + index)
    key = choice_key(ex)
    reason = _choice_reason(ex, key, index, lang)
    if index == key:
        return ex._right(letter, lang, reason)
    return ex._fb("wrong", t("exercises.choice_wrong", lang=lang, letter=letter,
                             reason=reason).strip(),
                  letter)


def _choice_reason(ex: Exercise, key: int, chosen: int, lang: Lang) -> str:
    """A sentence about the position that shows which option is right or why ``chosen`` is not."""
    question = ex.data["question"]
    board = _choice_board(ex)
    if question == "fact":
        return localize(ex.hints[0], lang=lang) if ex.hints else ""
    if question == "legal":
        move = chess.Move.from_uci(str(ex.data["move"]))
        if board.is_legal(move):
            return t("exercises.reason_legal", lang=lang, san=board.san(move))
        return _explain(board, move.uci(), lang).message
    if question == "evaluation":
        return t("exercises.reason_material", lang=lang,
                 white=search.material(board, chess.WHITE),
                 black=search.material(board, chess.BLACK))
    if question == "draw_rule":
        return t(f"exercises.reason_draw_{OPTIONS['draw_rule'][key]}", lang=lang)
    king = board.king(board.turn)
    fields = {"king": piece_on(chess.KING, king, lang=lang) if king is not None else "",
              "side": color_name(board.turn, lang=lang),
              "san": next((board.san(m) for m in search.ordered_moves(board)), "")}
    status = OPTIONS["status"][key]
    return t(f"exercises.reason_status_{status}", lang=lang, **fields)


def _solve_choice(ex: Exercise) -> list[str]:
    return [chr(65 + choice_key(ex))]


# ---- count -------------------------------------------------------------------------------------

def _attacker_color(ex: Exercise) -> chess.Color:
    if "color" in ex.data:
        return str(ex.data["color"]) == "white"
    color = ex._board.color_at(ex._square())
    return ex._board.turn if color is None else not color


def count_value(ex: Exercise) -> float:
    """The right number for a ``count`` item, computed from the rules (or the rating rule)."""
    what = ex.data["count"]
    if what in RATING_COUNTS:
        return _rating_value(ex.data)
    board = ex._board
    if what == "legal_moves":
        return board.legal_moves.count()
    if what == "material":
        return search.balance(board)
    if what == "attackers":
        return len(board.attackers(_attacker_color(ex), ex._square()))
    moved = _squares_board(ex)
    return len({m.to_square for m in moved.legal_moves if m.from_square == ex._square()})


def _rating_value(d: Mapping[str, Any]) -> float:
    from chesskit import ratings

    if d["count"] == "elo_change":
        return ratings.rating_change(float(d["rating"]), float(d["opponent"]), float(d["score"]),
                                     games_played=int(d.get("games_played", 0)))
    if d["count"] == "expected_score":
        return round(ratings.expected_score(float(d["rating"]), float(d["opponent"])), 2)
    return ratings.club_points(float(d["winner_points"]), float(d["loser_points"]),
                               draw=bool(d.get("draw", False)))


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _check_count(ex: Exercise, text: str, lang: Lang) -> Feedback:
    number = read_number(text)
    if number is None:
        return ex._fb("unparseable", t("exercises.number_unreadable", lang=lang), text)
    value = count_value(ex)
    shown = _number_text(number)
    if abs(number - value) <= RATING_COUNTS.get(str(ex.data["count"]), 0) + 1e-9:
        return ex._right(shown, lang)
    key = "count_high" if number > value else "count_low"
    if str(ex.data["count"]) in (*RATING_COUNTS, "material"):
        key = f"{key}_{ex.data['count']}"
    if key == "count_high_material" and value < 0:
        key += "_below_zero"  # "0 is too many" reads oddly when the answer is -1
    return ex._fb("wrong", t(f"exercises.{key}", lang=lang, n=shown), shown)


def _solve_count(ex: Exercise) -> list[str]:
    return [_number_text(count_value(ex))]


# ---- notation ----------------------------------------------------------------------------------

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


def _notation_moves(ex: Exercise) -> list[chess.Move]:
    d = ex.data
    if d["mode"] == "write":
        return [chess.Move.from_uci(str(d["move"]))]
    if d["mode"] == "game":
        return _uci_moves(str(d["moves"]))
    board = ex.board() if ex.fen else chess.Board()
    return [board.push_san(san) for san in move_tokens(str(d["pgn"]))]


def _notation_start(ex: Exercise) -> chess.Board:
    return ex.board() if ex.fen else chess.Board()


def _check_notation(ex: Exercise, text: str, lang: Lang) -> Feedback:
    expected = _notation_moves(ex)
    board = _notation_start(ex)
    tokens = move_tokens(text)
    if not tokens:
        return ex._fb("unparseable", t("exercises.unreadable", lang=lang), text)
    if ex.data["mode"] == "read" and len(tokens) == 1:
        return _check_last_move(ex, expected, tokens[0], lang)
    start = board.copy(stack=False)
    played: list[chess.Move] = []
    for index, token in enumerate(tokens):
        where = {"number": board.fullmove_number, "side": color_name(board.turn, lang=lang)}
        if index >= len(expected):
            return ex._fb("wrong", t("exercises.game_too_long", lang=lang, n=len(expected)),
                          text)
        if _COORDINATES.fullmatch(token) and ex.data["mode"] != "read":
            message = _coordinates_message(board, token, lang)
            return ex._fb("wrong", t("exercises.game_at", lang=lang, message=message, **where),
                          text)
        verdict = _explain(board, token, lang)
        if verdict.move is None or not verdict.legal:
            code = "unparseable" if verdict.code == "unparseable" else "illegal"
            return ex._fb(code, t("exercises.game_at", lang=lang, message=verdict.message,
                                  **where), text, verdict.squares)
        if verdict.move != expected[index]:
            message = t("exercises.not_the_move", lang=lang, san=board.san(verdict.move),
                        piece=_move_words(board, expected[index], lang))
            return ex._fb("wrong", t("exercises.game_at", lang=lang, message=message, **where),
                          text, (verdict.move.from_square, verdict.move.to_square))
        forms = _written_forms(board, verdict.move)
        if ex.data["mode"] != "read" and normalize_move_text(token) not in forms:
            message = t("exercises.written_as", lang=lang, text=token, san=forms[0])
            return ex._fb("wrong", t("exercises.game_at", lang=lang, message=message, **where),
                          text, (verdict.move.from_square, verdict.move.to_square))
        played.append(verdict.move)
        board.push(verdict.move)
    line = _san_line(start, played)
    if len(played) < len(expected):
        return ex._fb("incomplete", t("exercises.game_short", lang=lang,
                                      n=len(expected) - len(played)), line)
    return ex._right(line, lang)


def _check_last_move(ex: Exercise, moves: list[chess.Move], token: str, lang: Lang) -> Feedback:
    """A one-move answer to a "read" item: it is compared with the last move of the game."""
    board = _notation_start(ex)
    for move in moves[:-1]:
        board.push(move)
    last = moves[-1]
    verdict = _explain(board, token, lang)
    if verdict.move == last:
        return ex._right(board.san(last), lang, squares=(last.from_square, last.to_square))
    if verdict.code == "unparseable":
        return ex._fb("unparseable", verdict.message, token)
    count = len(_notation_moves(ex))
    return ex._fb("wrong", t("exercises.not_last_move", lang=lang, text=token, n=count), token)


def _move_words(board: chess.Board, move: chess.Move, lang: Lang) -> str:
    piece = board.piece_type_at(move.from_square) or chess.PAWN
    return t("exercises.move_words", lang=lang, piece=piece_on(piece, move.from_square, lang=lang),
             square=chess.square_name(move.to_square))


def _solve_notation(ex: Exercise) -> list[str]:
    moves = _notation_moves(ex)
    board = _notation_start(ex)
    if ex.data["mode"] == "read":
        for move in moves[:-1]:
            board.push(move)
        return [board.san(moves[-1])]
    return [_san_line(board, moves)]


# ---- setup -------------------------------------------------------------------------------------

def _setup_target(ex: Exercise) -> chess.BaseBoard:
    text = str(ex.data.get("target", ex.data.get("pieces", "")))
    if text == "start":
        return chess.BaseBoard()
    board = read_placement(text)
    if board is None:
        raise BankError(f"field target: cannot read {text!r}")
    return board


def _check_setup(ex: Exercise, text: str, lang: Lang) -> Feedback:
    given = read_placement(text)
    if given is None:
        return ex._fb("unparseable", t("exercises.setup_unreadable", lang=lang), text)
    target = _setup_target(ex)
    answer = given.board_fen()
    for square in chess.SQUARES:
        want, have = target.piece_at(square), given.piece_at(square)
        if want == have:
            continue
        name = chess.square_name(square)
        key = "setup_missing" if have is None else "setup_extra" if want is None else "setup_wrong"
        piece = want or have
        assert piece is not None
        code = "incomplete" if key == "setup_missing" and _only_missing(target, given) else "wrong"
        return ex._fb(code, t(f"exercises.{key}", lang=lang, square=name,
                              piece=piece_name(piece.piece_type, color=piece.color, lang=lang),
                              put=_put_name(have, lang)), answer, (square,))
    return ex._right(answer, lang)


def _put_name(piece: chess.Piece | None, lang: Lang) -> str:
    return piece_name(piece.piece_type, color=piece.color, lang=lang) if piece else ""


def _only_missing(target: chess.BaseBoard, given: chess.BaseBoard) -> bool:
    return all(target.piece_at(sq) == p for sq, p in given.piece_map().items())


def _solve_setup(ex: Exercise) -> list[str]:
    return [_setup_target(ex).board_fen()]


# ---- playout -----------------------------------------------------------------------------------

def _check_playout(ex: Exercise, text: str, lang: Lang) -> Feedback:
    board = ex.board()
    start = board.copy()
    tokens = move_tokens(text)
    if not tokens:
        return ex._fb("unparseable", t("exercises.unreadable", lang=lang), text)
    with search.defender() as defend:
        moves = _replay(ex, board, tokens, defend, lang)
    if isinstance(moves, Feedback):
        return moves
    return _playout_result(ex, start, board, moves, lang)


def _replay(ex: Exercise, board: chess.Board, tokens: list[str], defend: search.Defender,
            lang: Lang) -> int | Feedback:
    """Play the written moves against the defender; the number of moves or what went wrong."""
    start, attacker, limit = board.copy(), board.turn, int(ex.data["max_moves"])
    moves = 0
    for token in tokens:
        if board.turn != attacker:
            reply = defend(board)
            written = _explain(board, token, lang).move
            if reply is not None and written == reply:
                board.push(reply)
                continue
            if reply is None or (written is not None and board.is_legal(written)):
                message = t("exercises.defender_differs", lang=lang, san=token,
                            reply=board.san(reply) if reply else "",
                            side=color_name(board.turn, lang=lang))
                return ex._fb("wrong", message, _san_line(start, board.move_stack))
            board.push(reply)
        verdict = _explain(board, token, lang)
        if not verdict.legal or verdict.move is None:
            code = "unparseable" if verdict.code == "unparseable" else "illegal"
            return ex._fb(code, t("exercises.at_move", lang=lang, number=moves + 1,
                                  message=verdict.message), _san_line(start, board.move_stack),
                          verdict.squares)
        board.push(verdict.move)
        moves += 1
        if board.is_game_over(claim_draw=True) or moves >= limit:
            break
    if board.turn != attacker and not board.is_game_over(claim_draw=True) and moves < limit:
        reply = defend(board)
        if reply is not None:
            board.push(reply)
    return moves


def _playout_result(ex: Exercise, start: chess.Board, board: chess.Board, moves: int,
                    lang: Lang) -> Feedback:
    line = _san_line(start, board.move_stack)
    king = board.king(board.turn)
    fields = {"n": ex.data["max_moves"], "side": color_name(not board.turn, lang=lang),
              "king": piece_on(chess.KING, king, lang=lang) if king is not None else ""}
    if board.is_checkmate():
        return ex._right(line, lang, t("exercises.playout_mated", lang=lang, moves=moves))
    if board.is_stalemate():
        return ex._fb("wrong", t("exercises.playout_stalemate", lang=lang, **fields), line)
    if board.is_game_over(claim_draw=True):
        return ex._fb("wrong", t("exercises.playout_draw", lang=lang, **fields), line)
    if moves >= int(ex.data["max_moves"]):
        return ex._fb("wrong", t("exercises.playout_limit", lang=lang, **fields), line)
    last = board.pop()
    reply = board.san(last)
    board.push(last)
    return ex._fb("incomplete", t("exercises.playout_more", lang=lang, reply=reply, **fields),
                  line)


def _solve_playout(ex: Exercise) -> list[str]:
    return []


_CHECKS: dict[str, Callable[[Exercise, str, Lang], Feedback]] = {
    "square": _check_square, "squares": _check_squares, "move": _check_move,
    "line": _check_line, "choice": _check_choice, "count": _check_count,
    "notation": _check_notation, "setup": _check_setup, "playout": _check_playout,
}
_SOLUTIONS: dict[str, Callable[[Exercise], list[str]]] = {
    "square": _solve_square, "squares": _solve_squares, "move": _solve_move,
    "line": _solve_line, "choice": _solve_choice, "count": _solve_count,
    "notation": _solve_notation, "setup": _solve_setup, "playout": _solve_playout,
}
