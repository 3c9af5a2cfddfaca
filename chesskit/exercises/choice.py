"""``choice``: a question with options, the right one computed from the rules (``question``):
the status of the position, why a game is drawn, whether a move is legal, who is better; or a
rule-book ``fact`` with stored options and answer.

>>> from chesskit.exercises import Exercise
>>> ex = Exercise(id="x", lesson=8, kind="choice", fen="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
...               data={"question": "status"})
>>> ex.solutions(), ex.check("stalemate").correct, ex.check("逼和").correct
(['B'], True, True)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, get_args

import chess

from chesskit.exercises.answers import read_number, san_line, uci_moves
from chesskit.exercises.common import prompt_fields
from chesskit.exercises.feedback import Feedback
from chesskit.exercises.protocol import (
    BoardInput,
    BoardMarks,
    Kind,
    Lang,
    Problem,
    Question,
    feedback,
    praise,
)
from chesskit.i18n import color_name, languages, localize, piece_on, t, to_traditional
from chesskit.rules import search, values
from chesskit.rules.explain import explain_move

if TYPE_CHECKING:
    from chesskit.exercises.model import Exercise

QUESTIONS: tuple[Question, ...] = get_args(Question)
OPTIONS = {"status": ("checkmate", "stalemate", "check", "none"),
           "draw_rule": ("stalemate", "insufficient", "threefold", "fifty", "no_draw"),
           "legal": ("yes", "no"), "evaluation": ("white_better", "black_better", "equal")}
"""The computed options of each question (locale keys ``exercises.option_<name>``)."""
_SYNONYMS = {
    "yes": ("是", "对", "能", "行", "合法", "y", "true"),
    "no": ("否", "不", "不是", "不对", "不能", "不行", "不合法", "n", "false"),
    "checkmate": ("mate", "#"),
    "white_better": ("+-",), "black_better": ("-+",), "equal": ("=",),
}


def _choice_board(ex: Exercise) -> chess.Board:
    board = ex.board()
    for move in uci_moves(str(ex.data.get("moves", ""))):
        board.push(move)
    return board


def _legal_question_move(ex: Exercise) -> str:
    move = chess.Move.from_uci(str(ex.data["move"]))
    board = ex.position
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
    diff = values.balance(board)
    return 0 if diff > 0 else 1 if diff < 0 else 2


def _traditional_synonym(word: str, key: str) -> bool:
    """True when ``word`` is a Traditional spelling of one of ``key``'s Chinese synonyms."""
    return any(to_traditional(s) == word for s in _SYNONYMS.get(key, ()) if not s.isascii())


_ANSWER_IS = re.compile(r"^(?:the answer is|answer|my answer is|选|選|答案是|答案|答)\s*[:：]?\s*",
                        re.IGNORECASE)
"""Words before the answer itself ("the answer is B", "选B", "答案：B")."""
_LETTER_THEN_TEXT = re.compile(r"^([A-Za-z])\s*[.):：]\s*\S")
"""A letter with the option's text after it ("B: only right after"): the letter answers."""


def _read_option(ex: Exercise, text: str) -> int | None:
    options = [option for code in languages() for option in ex.options(lang=code)]
    count = len(ex.options(lang="en"))
    word = _ANSWER_IS.sub("", text.strip().lstrip("(（").rstrip(".)）。！!").strip())
    lettered = _LETTER_THEN_TEXT.match(word)
    if lettered:
        word = lettered.group(1)
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


def _choice_reason(ex: Exercise, key: int, lang: Lang) -> str:
    """A sentence about the position that shows which option is right."""
    question = ex.data["question"]
    board = _choice_board(ex)
    if question == "fact":
        return localize(ex.hints[0], lang=lang) if ex.hints else ""
    if question == "legal":
        move = chess.Move.from_uci(str(ex.data["move"]))
        if board.is_legal(move):
            return t("exercises.reason_legal", lang=lang, san=board.san(move))
        return explain_move(board, move.uci(), lang=lang).message
    if question == "evaluation":
        return t("exercises.reason_material", lang=lang,
                 white=values.material(board, chess.WHITE),
                 black=values.material(board, chess.BLACK))
    if question == "draw_rule":
        return t(f"exercises.reason_draw_{OPTIONS['draw_rule'][key]}", lang=lang)
    king = board.king(board.turn)
    fields = {"king": piece_on(chess.KING, king, lang=lang) if king is not None else "",
              "side": color_name(board.turn, lang=lang),
              "san": next((board.san(m) for m in search.ordered_moves(board)), "")}
    status = OPTIONS["status"][key]
    return t(f"exercises.reason_status_{status}", lang=lang, **fields)


def _fact_problems(ex: Exercise) -> list[Problem]:
    options = ex.data.get("options", [])
    answer = ex.data.get("answer")
    if not isinstance(options, list) or len(options) < 2:
        return [("options", "a fact question needs two or more options")]
    if not isinstance(answer, int) or not 0 <= answer < len(options):
        return [("answer", f"answer is the number of an option, 0 to {len(options) - 1}")]
    return []


class ChoiceKind(Kind):
    """A question with options A, B, C ..."""

    name = "choice"
    required = ("question",)
    closed = {"question": QUESTIONS}

    def needs_fen(self, ex: Exercise) -> bool:
        return ex.data.get("question") != "fact"

    def check(self, ex: Exercise, text: str, lang: Lang) -> Feedback:
        index = _read_option(ex, text)
        if index is None:
            return feedback(ex, "unparseable", t("exercises.choice_unreadable", lang=lang,
                                                 last=chr(64 + len(ex.options(lang=lang)))), text)
        letter = chr(65 + index)
        key = choice_key(ex)
        reason = _choice_reason(ex, key, lang)
        if index == key:
            return praise(ex, letter, lang, reason)
        return feedback(ex, "wrong", t("exercises.choice_wrong", lang=lang, letter=letter,
                                       reason=reason).strip(), letter)

    def solutions(self, ex: Exercise) -> list[str]:
        return [chr(65 + choice_key(ex))]

    def prompt(self, ex: Exercise, lang: Lang) -> str:
        fields = prompt_fields(ex, lang)
        moves = uci_moves(str(ex.data.get("moves", "")))
        fields["moves"] = san_line(ex.position, moves) if moves else ""
        if "move" in ex.data:
            fields["move"] = _legal_question_move(ex)
        return t(f"exercises.prompt_choice_{ex.data['question']}", lang=lang, **fields)

    def options(self, ex: Exercise, lang: Lang) -> list[str]:
        question = ex.data.get("question")
        if question == "fact":
            return [localize(o, lang=lang) for o in ex.data["options"]]
        return [t(f"exercises.option_{o}", lang=lang) for o in OPTIONS.get(str(question), ())]

    def first_hint(self, ex: Exercise, lang: Lang) -> str:
        """For a position: look at the king first."""
        if ex.data.get("question") == "fact":
            return super().first_hint(ex, lang)
        return t("exercises.nudge_choice_position", lang=lang)

    def step_hint(self, ex: Exercise, lang: Lang) -> str:
        """For a position: the king of the side to move in words; for a fact: a wrong option."""
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

    def board_input(self, ex: Exercise) -> BoardInput:
        return "options"

    def board_marks(self, ex: Exercise) -> BoardMarks:
        if ex.data["question"] == "legal":
            return BoardMarks(arrows=(str(ex.data["move"])[:4],))
        return BoardMarks()

    def verify(self, ex: Exercise) -> list[Problem]:
        problems = super().verify(ex)
        question = str(ex.data["question"])
        if question == "fact":
            return problems + _fact_problems(ex)
        if "answer" in ex.data:
            stored, key = ex.data["answer"], choice_key(ex)
            names = OPTIONS[question]
            if stored not in (key, names[key], chr(65 + key), chr(97 + key)):
                problems.append(("answer", f"the rules give {names[key]}, not {stored}"))
        return problems


KIND = ChoiceKind()
