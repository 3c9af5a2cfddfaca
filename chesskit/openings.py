"""The openings the course names, with their Chinese names and the idea in a sentence.

>>> opening("1. e4 e5 2. Nf3 Nc6 3. Bc4").key
'italian'
>>> opening("西西里防御").moves
('e4', 'c5')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import chess

from chesskit.diagram import BoardSvg
from chesskit.errors import OpeningError
from chesskit.i18n import localize, t


@dataclass(frozen=True)
class Opening:
    """An opening: its key, names and idea in ``{"en", "zh"}``, and its moves in SAN."""

    key: str
    name: Mapping[str, str]
    moves: tuple[str, ...]
    idea: Mapping[str, str]

    def title(self, *, lang: str | None = None) -> str:
        """The name in one language: ``"Italian Game"`` / ``"意大利开局"``."""
        return localize(self.name, lang=lang)

    def idea_text(self, *, lang: str | None = None) -> str:
        """The idea in one language."""
        return localize(self.idea, lang=lang)

    def numbered(self) -> str:
        """The moves as a move list: ``"1. e4 e5 2. Nf3 Nc6 3. Bc4"``."""
        return chess.Board().variation_san([m for m in _play(self.moves).move_stack])

    def final_board(self) -> chess.Board:
        """The position after the opening's moves (with the moves on its move stack)."""
        return _play(self.moves)

    def board(self, *, lang: str | None = None, **board_kwargs: object) -> BoardSvg:
        """The final position with the last move marked and the name and moves as caption."""
        from chesskit.diagram import board

        final = self.final_board()
        caption = t("openings.caption", lang=lang, name=self.title(lang=lang),
                    moves=self.numbered())
        options: dict[str, object] = {"lastmove": final.peek(), "caption": caption}
        options.update(board_kwargs)
        return board(final, lang=lang, **options)  # type: ignore[arg-type]

    def _repr_mimebundle_(self, **kwargs: object) -> dict[str, str]:
        return self.board()._repr_mimebundle_()


def _play(moves: Iterable[str]) -> chess.Board:
    board = chess.Board()
    for san in moves:
        board.push_san(san)
    return board


def _opening(key: str, en: str, zh: str, line: str, idea_en: str, idea_zh: str) -> Opening:
    return Opening(key, {"en": en, "zh": zh}, tuple(line.split()), {"en": idea_en, "zh": idea_zh})


OPENINGS: tuple[Opening, ...] = (
    _opening("italian", "Italian Game", "意大利开局", "e4 e5 Nf3 Nc6 Bc4",
             "White's bishop aims at f7, the weakest square near the black king.",
             "白方的象瞄准f7，那是黑王身边最弱的格子。"),
    _opening("spanish", "Spanish Game (Ruy Lopez)", "西班牙开局", "e4 e5 Nf3 Nc6 Bb5",
             "The bishop attacks the knight that guards e5. White keeps up the pressure.",
             "象攻击保护e5兵的马，白方一直给黑方施加压力。"),
    _opening("scotch", "Scotch Game", "苏格兰开局", "e4 e5 Nf3 Nc6 d4",
             "White pushes the d-pawn at once to take the centre.",
             "白方马上挺进d兵，抢占中心。"),
    _opening("petrov", "Russian Defence (Petrov)", "俄罗斯防御（彼得罗夫防御）", "e4 e5 Nf3 Nf6",
             "Black does not defend e5 but attacks White's e-pawn back.",
             "黑方不保护e5兵，而是反过来攻击白方的e兵。"),
    _opening("scandinavian", "Scandinavian Defence", "斯堪的纳维亚防御", "e4 d5",
             "Black hits the e4 pawn at once. The black queen often comes out early.",
             "黑方马上攻击e4兵，黑后常常很早出动。"),
    _opening("sicilian", "Sicilian Defence", "西西里防御", "e4 c5",
             "Black fights for d4 with a side pawn and gets the c-file for a counter-attack.",
             "黑方用旁边的兵争夺d4格，以后可以利用c线反击。"),
    _opening("french", "French Defence", "法兰西防御", "e4 e6",
             "Black prepares d5 to fight for the centre. Black's light-squared bishop gets stuck.",
             "黑方准备走d5争夺中心，但黑方的白格象不容易出动。"),
    _opening("hungarian", "Hungarian Defence", "匈牙利防御", "e4 e5 Nf3 Nc6 Bc4 Be7",
             "Black answers the Italian quietly: the bishop on e7 guards the king's side.",
             "黑方平稳地应对意大利开局：e7的象保护王翼。"),
    _opening("dutch", "Dutch Defence", "荷兰防御", "d4 f5",
             "Black controls e4 and plans an attack on White's king's side.",
             "黑方控制e4格，准备进攻白方的王翼。"),
    _opening("english", "English Opening", "英国式开局", "c4",
             "White controls d5 from the side and keeps many plans open.",
             "白方从侧面控制d5格，保留很多种下法。"),
    _opening("queens_gambit", "Queen's Gambit (Queen's Pawn Opening)", "后翼弃兵（后兵开局）",
             "d4 d5 c4",
             "White offers the c-pawn to pull Black's pawn away from the centre.",
             "白方送出c兵，想把黑方的兵从中心引开。"),
)

_BY_KEY = {o.key: o for o in OPENINGS}
_NUMBER = re.compile(r"^\d+\.+$|^\d+\.+(?=\S)")


def _name_key(text: str) -> str:
    return re.sub(r"[\s'’()（）\-_]+", "", text.lower()).replace("defense", "defence")


def _names() -> dict[str, Opening]:
    names: dict[str, Opening] = {}
    for item in OPENINGS:
        parts = [item.key, *item.name.values(), *re.split(r"[()（）]", item.name["en"]),
                 *re.split(r"[()（）]", item.name["zh"])]
        names.update({_name_key(p): item for p in parts if p.strip()})
    return names


_BY_NAME = _names()


def _moves_from_text(text: str) -> list[str] | None:
    """The SAN moves of a line such as ``"1. e4 e5 2.Nf3"``, or None if it is not a legal line."""
    board = chess.Board()
    sans = []
    for token in text.replace("…", " ").split():
        word = _NUMBER.sub("", token)
        if not word:
            continue
        try:
            move = board.parse_san(word)
        except ValueError:
            return None
        sans.append(board.san(move))
        board.push(move)
    return sans or None


def name_opening(position: chess.Board | Iterable[str] | str) -> Opening | None:
    """The opening whose line is the longest start of the game played, or None.

    >>> name_opening("e4 e5 Nf3 Nc6 Bc4 Be7 O-O").key
    'hungarian'
    >>> name_opening(chess.Board("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -")).key
    'sicilian'
    """
    if isinstance(position, chess.Board) and not position.move_stack:
        key = position.epd()
        return next((o for o in OPENINGS[::-1] if o.final_board().epd() == key), None)
    if isinstance(position, chess.Board):
        replay = position.root()
        if replay.fen() != chess.STARTING_FEN:
            return None
        sans = []
        for move in position.move_stack:
            sans.append(replay.san(move))
            replay.push(move)
    else:
        sans = _moves_from_text(position if isinstance(position, str) else " ".join(position)) or []
    found = [o for o in OPENINGS if tuple(sans[:len(o.moves)]) == o.moves]
    return max(found, key=lambda o: len(o.moves), default=None)


def opening(moves_or_name: str | Iterable[str], *, lang: str | None = None) -> Opening:
    """The opening for a key, a name in any language, or a line of moves.

    Raises ``OpeningError`` with a sentence when no opening of the course matches.

    >>> opening("Ruy Lopez").name["zh"]
    '西班牙开局'
    """
    if isinstance(moves_or_name, str):
        text = moves_or_name.strip()
        found = _BY_KEY.get(text) or _BY_NAME.get(_name_key(text))
        if found is None:
            found = name_opening(text)
    else:
        found = name_opening(list(moves_or_name))
    if found is None:
        raise OpeningError(t("openings.unknown", lang=lang, value=str(moves_or_name)[:60],
                         names=", ".join(o.title(lang=lang) for o in OPENINGS)))
    return found
