"""The openings the course names, with their names and the idea in a sentence.

>>> opening("1. e4 e5 2. Nf3 Nc6 3. Bc4").key
'italian'
>>> opening("西西里防御").moves
('e4', 'c5')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess

from chesskit.errors import OpeningError
from chesskit.i18n import language, languages, localize, t

if TYPE_CHECKING:  # an opening draws itself with the drawing layer, imported when it does
    from chesskit.drawing.diagram import BoardSvg


@dataclass(frozen=True)
class Opening:
    """An opening: its key, names and idea by block key (``{"en", "zh"}``), its moves in SAN."""

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
        from chesskit.drawing.diagram import board  # noqa: PLC0415 (a display method: drawing is above)

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


def _texts(key: str) -> Mapping[str, str]:
    """``key``'s text in every written language, by block key (``{"en": ..., "zh": ...}``)."""
    return {language(code).block: t(f"openings.{key}", lang=code)
            for code in languages(written=True)}


def _opening(key: str, line: str) -> Opening:
    return Opening(key, _texts(f"name_{key}"), tuple(line.split()), _texts(f"idea_{key}"))


# The names and ideas are the locale keys openings.name_<key> and openings.idea_<key>.
OPENINGS: tuple[Opening, ...] = (
    _opening("italian", "e4 e5 Nf3 Nc6 Bc4"),
    _opening("spanish", "e4 e5 Nf3 Nc6 Bb5"),
    _opening("scotch", "e4 e5 Nf3 Nc6 d4"),
    _opening("petrov", "e4 e5 Nf3 Nf6"),
    _opening("scandinavian", "e4 d5"),
    _opening("sicilian", "e4 c5"),
    _opening("french", "e4 e6"),
    _opening("hungarian", "e4 e5 Nf3 Nc6 Bc4 Be7"),
    _opening("dutch", "d4 f5"),
    _opening("english", "c4"),
    _opening("queens_gambit", "d4 d5 c4"),
)

_BY_KEY = {o.key: o for o in OPENINGS}
_NUMBER = re.compile(r"^\d+\.+$|^\d+\.+(?=\S)")


def _name_key(text: str) -> str:
    return re.sub(r"[\s'’()（）\-_]+", "", text.lower()).replace("defense", "defence")


def _names() -> dict[str, Opening]:
    names: dict[str, Opening] = {}
    for item in OPENINGS:
        parts = [item.key, *item.name.values(),
                 *(part for name in item.name.values() for part in re.split(r"[()（）]", name))]
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
