"""Reading answers: one clean line of text, move tokens, numbers, squares and placements.

>>> clean(["e4", "d5"]), read_number("三"), move_tokens("1. e4 e5")
('e4 d5', 3, ['e4', 'e5'])
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

import chess

MAX_ANSWER = 2000
"""Longer answers are not read at all."""


def clean(answer: object) -> str | None:
    """The answer as one normalised line of text, or None when it is not text at all.

    >>> clean("  ｅ４ "), clean(None), clean(object())
    ('e4', '', None)
    """
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


_LONE_PIECES = ("K", "Q", "R", "B", "N", "k", "q", "r", "n", "王", "后", "車", "车", "象", "马",
                "馬")


_CONNECTORS = re.compile(r"->|→|=>|⇒|，|、|然后|然後|接着|接著|\bthen\b|\band\b", re.IGNORECASE)
"""Words and arrows a learner writes between the moves of a line ("Rb7+ then Kd8 → Rh8#")."""


def move_tokens(text: str) -> list[str]:
    """The moves of a written line, without move numbers and results ("e.p." stays on its move).

    >>> move_tokens("1. Qh5 Kg8 2.Qh7# 1-0 exd6 e.p. R e1 dxe6 (e.p.) n f3")
    ['Qh5', 'Kg8', 'Qh7#', 'exd6 e.p.', 'Re1', 'dxe6 (e.p.)', 'nf3']
    >>> move_tokens("Rb7+ then Kd8 → Rh8#"), move_tokens("Rb7+，然后Kd8，然后Rh8#")
    (['Rb7+', 'Kd8', 'Rh8#'], ['Rb7+', 'Kd8', 'Rh8#'])
    """
    tokens: list[str] = []
    text = _CONNECTORS.sub(" ", text)
    for raw in text.replace(",", " ").replace(";", " ").replace("…", "...").split():
        token = _MOVE_NUMBER.sub("", raw)
        if token.lower().strip(".()") in ("e.p", "ep") and tokens:
            tokens[-1] += " " + token
        elif tokens and tokens[-1] in _LONE_PIECES:  # "R e1" is Re1
            tokens[-1] += token
        elif token and token not in _RESULTS and not token.strip(".").isdigit():
            tokens.append(token)
    return tokens


_SQUARE = re.compile(r"[a-h][1-8]")
_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5,
              "六": 6, "七": 7, "八": 8, "九": 9}
_MEASURE = re.compile(
    r"\s*(?:[个個]?格子|[个個]?棋子|步棋|[个個步次格分点點种種只隻枚着著手回盘盤局位名条條张張块塊处處])$")
"""A Chinese measure word after a number ("3个", "0步", "两次"): it does not change the number."""
_TOTAL = re.compile(r"^(?:一共|总共|總共|共|there\s+are|there\s+is|it\s+is|it's)\s*", re.IGNORECASE)
"""Words before a count ("一共14个", "There are 14.")."""
_EN_MEASURE = re.compile(r"\s+(?:squares?|moves?|times?|pieces?|points?|pawns?|ways?)$",
                         re.IGNORECASE)
"""An English word after a number ("14 squares", "3 moves"): it does not change the number."""
_EN_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
               "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
               "seventeen", "eighteen", "nineteen", "twenty")


def read_number(text: str) -> float | None:
    """A number from digits ("12.5") or Chinese numerals ("三", "十二", "负三"), with or without
    a measure word ("3个", "5 步", "两次"), else None.

    >>> read_number("二十三"), read_number("-3"), read_number("0.76"), read_number("x")
    (23, -3, 0.76, None)
    >>> read_number("3个"), read_number("0步"), read_number("三个"), read_number("两次")
    (3, 0, 3, 2)
    >>> read_number("14 squares."), read_number("3 moves"), read_number("5。")
    (14, 3, 5)
    >>> read_number("十四个格子"), read_number("一共14个"), read_number("There are 14.")
    (14, 14, 14)
    """
    text = text.strip().rstrip(".。").replace("−", "-").replace("负", "-").replace("負", "-")
    text = _EN_MEASURE.sub("", _MEASURE.sub("", _TOTAL.sub("", text)))
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


_SQUARE_GAPS = re.compile(
    r"(?:[\s,;、，/&.。()（）]|\b(?:and|the|squares?|on|at|is|are)\b|和|与|與|及|跟|格子|格|在|是)+")
"""What may stand between square names: separators, "and", and the words of a sentence."""


def read_squares(text: str) -> list[chess.Square] | None:
    """Square names in any order and separated anyhow; None if anything else is written.

    >>> [chess.square_name(s) for s in read_squares("d5, E4 f3")]
    ['d5', 'e4', 'f3']
    >>> [chess.square_name(s) for s in read_squares("d5, e4 and f3.")]
    ['d5', 'e4', 'f3']
    >>> [chess.square_name(s) for s in read_squares("the square e4")], read_squares("e4格")
    (['e4'], [28])
    """
    words = [w for w in _SQUARE_GAPS.split(text.lower()) if w]
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


def uci_moves(text: str) -> list[chess.Move]:
    """The moves of a stored line of UCI moves.

    >>> [m.uci() for m in uci_moves("e2e4 e7e5")]
    ['e2e4', 'e7e5']
    """
    return [chess.Move.from_uci(u) for u in text.split()]


def san_line(board: chess.Board, moves: Sequence[chess.Move]) -> str:
    """The moves from ``board`` as a numbered line ("1. e4 e5")."""
    return board.variation_san(list(moves))


def number_text(value: float) -> str:
    """A number as the learner writes it: "3", "-1", "11.4".

    >>> number_text(3.0), number_text(11.4)
    ('3', '11.4')
    """
    return str(int(value)) if float(value).is_integer() else str(value)
