"""Board diagrams: compact, deterministic SVG with marks, arrows, a caption and a text alternative.

>>> svg = board("8/8/8/8/3R4/8/8/8", marks={"yellow": "d1 d8 a4 h4"}, lang="en")
>>> svg.alt
'White: rook d4. Black: no pieces. Marked: d1, a4, h4, d8.'
"""

from __future__ import annotations

import functools
import html
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import chess
import chess.svg

from chesskit.drawing.text import FONT_FAMILY, font_family, wrap
from chesskit.errors import PositionError
from chesskit.i18n import color_name, get_language, localize, piece_name, sentences, t
from chesskit.rules.position import Position, is_drill, to_board

SQUARE = 45
SQUARE_COLORS = {"light": "#ffce9e", "dark": "#d18b47"}
LASTMOVE_COLORS = {"light": "#cdd16a", "dark": "#aaa23b"}
# Okabe-Ito colours: told apart by readers with any common colour-vision deficiency.
FILL_COLORS = {"yellow": "#F0E442", "green": "#009E73", "blue": "#56B4E9", "red": "#D55E00"}
# A darker edge of the same hue, so a mark stands out on light and dark (brown) squares alike.
OUTLINE_COLORS = {"yellow": "#6E6400", "green": "#004D38", "blue": "#0072B2", "red": "#7A2E00"}
ARROW_COLORS = {"green": "#009E73", "blue": "#0072B2", "red": "#D55E00", "yellow": "#E69F00"}
SYMBOL_KINDS = ("dot", "cross", "circle")
MARK_KINDS = (*FILL_COLORS, *SYMBOL_KINDS, "label")
_SYMBOLS = {
    "dot": '<circle cx="22.5" cy="22.5" r="7" fill="#0072B2" opacity=".75"/>',
    "cross": '<path d="M12 12l21 21M33 12L12 33" stroke="#D55E00" stroke-width="5"'
             ' stroke-linecap="round" opacity=".9"/>',
    "circle": '<circle cx="22.5" cy="22.5" r="19" fill="none" stroke="#009E73"'
              ' stroke-width="3.5"/>',
}
_FONT = f"font-family=\"'{FONT_FAMILY}',sans-serif\""
_CAPTION_SIZE = 15
_CAPTION_LINE = 19

ArrowLike = str | Sequence[object] | chess.svg.Arrow
MoveLike = chess.Move | str | Sequence[str | int]


class BoardSvg(str):
    """An SVG board that shows itself in Jupyter; ``.alt`` is its text alternative.

    It is shown as HTML holding the SVG itself (``role="img"`` and ``aria-label``, so screen
    readers read the alt; JupyterLab would draw ``image/svg+xml`` as an ``<img>`` without one),
    and as the alt where HTML is not shown.  No data URI, no second copy.

    >>> BoardSvg("<svg/>", alt="An empty board.")._repr_mimebundle_()
    {'text/html': '<svg/>', 'text/plain': 'An empty board.'}
    """

    alt: str

    def __new__(cls, svg: str, *, alt: str) -> BoardSvg:
        value = super().__new__(cls, svg)
        value.alt = alt
        return value

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, str]:
        return {"text/html": str(self), "text/plain": self.alt}

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """Where the picture is not shown (a terminal) the text stands in."""
        printer.text(self.alt)


def _minify_piece(svg: str) -> str:
    svg = re.sub(r' class="[^"]*"', "", svg)
    svg = re.sub(r'style="fill:(#\w+); stroke:(#\w+|none);"', r'fill="\1" stroke="\2"', svg)
    svg = re.sub(r"#([0-9a-f])\1([0-9a-f])\2([0-9a-f])\3\b", r"#\1\2\3", svg)

    def path(match: re.Match[str]) -> str:
        d = re.sub(r"\s*,\s*", ",", match.group(1))
        d = re.sub(r"\s*([A-Za-z])\s*", r"\1", d)
        d = re.sub(r"(?<![\d.])0\.(\d)", r".\1", d)
        d = re.sub(r"[\s,]+(?=-)", "", re.sub(r"\s+", " ", d))
        return 'd="' + d.strip() + '"'

    return re.sub(r'd="([^"]*)"', path, svg)


@functools.cache
def _piece_def(symbol: str) -> str:
    """The piece drawing from python-chess, made smaller, with the id ``ck-<symbol>``."""
    svg = _minify_piece(chess.svg.PIECES[symbol])
    return re.sub(r'^<g id="[^"]*"', f'<g id="ck-{symbol}"', svg)


def _square(value: object) -> chess.Square:
    if isinstance(value, int) and value in chess.SQUARES:
        return value
    if isinstance(value, str) and value.strip().lower() in chess.SQUARE_NAMES:
        return chess.parse_square(value.strip().lower())
    raise PositionError(t("diagram.bad_square", value=repr(value)[:40]))


def _squares(value: object) -> list[chess.Square]:
    """Squares from ``"e4"``, ``"e4 d5"``, ``28``, a list or a ``chess.SquareSet``, sorted."""
    if isinstance(value, str):
        items: Iterable[object] = value.replace(",", " ").split()
    elif isinstance(value, int):
        items = [value]
    elif isinstance(value, Iterable):
        items = value
    else:
        raise PositionError(t("diagram.bad_square", value=repr(value)[:40]))
    return sorted({_square(item) for item in items})


def _marks(marks: Mapping[str, object] | None) -> dict[str, object]:
    for kind in marks or {}:
        if kind not in MARK_KINDS:
            raise PositionError(t("diagram.bad_mark", kind=repr(kind)[:40],
                                  kinds=", ".join(MARK_KINDS)))
    return dict(marks or {})


def _labels(value: object) -> dict[chess.Square, str]:
    if not isinstance(value, Mapping):
        raise PositionError(t("diagram.bad_label"))
    return {_square(square): str(text) for square, text in value.items()}


def _arrow(value: ArrowLike) -> tuple[chess.Square, chess.Square, str]:
    if isinstance(value, chess.svg.Arrow):
        return value.tail, value.head, value.color
    if isinstance(value, str) and len(value.strip()) == 4:
        return _square(value.strip()[:2]), _square(value.strip()[2:]), "green"
    if isinstance(value, Sequence) and not isinstance(value, str) and len(value) in (2, 3):
        tail, head, *rest = value
        color = str(rest[0]) if rest else "green"
        if isinstance(tail, str | int) and isinstance(head, str | int) and color in ARROW_COLORS:
            return _square(tail), _square(head), color
    raise PositionError(t("diagram.bad_arrow", value=repr(value)[:40],
                          colors=", ".join(ARROW_COLORS)))


def _lastmove(value: MoveLike | None) -> tuple[chess.Square, ...]:
    if value is None:
        return ()
    if isinstance(value, chess.Move):
        return value.from_square, value.to_square
    if isinstance(value, str):
        try:
            move = chess.Move.from_uci(value.strip())
        except ValueError:
            raise PositionError(t("diagram.bad_move", value=repr(value)[:40])) from None
        return move.from_square, move.to_square
    return tuple(_square(square) for square in value)


class _Frame:
    """Where things go: the board's top-left corner and the orientation."""

    def __init__(self, *, orientation: chess.Color, coordinates: bool) -> None:
        self.orientation = orientation
        self.left = 16 if coordinates else 1
        self.top = 1
        self.width = self.left + 8 * SQUARE + 1
        self.board_bottom = self.top + 8 * SQUARE

    def corner(self, square: chess.Square) -> tuple[int, int]:
        file, rank = chess.square_file(square), chess.square_rank(square)
        column, row = (file, 7 - rank) if self.orientation else (7 - file, rank)
        return self.left + column * SQUARE, self.top + row * SQUARE

    def centre(self, square: chess.Square) -> tuple[float, float]:
        x, y = self.corner(square)
        return x + SQUARE / 2, y + SQUARE / 2


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _shade(square: chess.Square) -> str:
    return "light" if chess.BB_SQUARES[square] & chess.BB_LIGHT_SQUARES else "dark"


def _squares_svg(frame: _Frame, lastmove: tuple[chess.Square, ...]) -> str:
    """A light board with the dark squares as one path; last-move squares tinted on top."""
    dark = "".join("M{} {}h45v45h-45z".format(*frame.corner(s))
                   for s in chess.SquareSet(chess.BB_DARK_SQUARES))
    tints = "".join(
        '<rect x="{}" y="{}" width="45" height="45" fill="{}" class="lastmove {}"/>'.format(
            *frame.corner(s), LASTMOVE_COLORS[_shade(s)], chess.square_name(s))
        for s in sorted(set(lastmove)))
    return (f'<rect x="{frame.left}" y="{frame.top}" width="360" height="360" '
            f'fill="{SQUARE_COLORS["light"]}"/><path d="{dark}" fill="{SQUARE_COLORS["dark"]}"/>'
            + tints)


def _fills_svg(frame: _Frame, fills: Mapping[str, list[chess.Square]]) -> str:
    """Filled squares, nearly opaque, with a 3-unit darker edge drawn just inside the square."""
    parts = []
    for color, squares in fills.items():
        rects = "".join('<rect x="{}" y="{}" width="42" height="42"/>'.format(
            *(v + 1.5 for v in frame.corner(s))) for s in squares)
        parts.append(f'<g fill="{FILL_COLORS[color]}" fill-opacity=".9" '
                     f'stroke="{OUTLINE_COLORS[color]}" stroke-width="3">{rects}</g>')
    return "".join(parts)


def _coordinates_svg(frame: _Frame) -> str:
    texts = []
    for index in range(8):
        file = index if frame.orientation else 7 - index
        rank = 7 - index if frame.orientation else index
        x = frame.left + index * SQUARE + SQUARE // 2
        texts.append(f'<text x="{x}" y="{frame.board_bottom + 12}">'
                     f"{chess.FILE_NAMES[file]}</text>")
        y = frame.top + index * SQUARE + SQUARE // 2 + 4
        texts.append(f'<text x="8" y="{y}">{chess.RANK_NAMES[rank]}</text>')
    return f'<g {_FONT} font-size="11" fill="#444" text-anchor="middle">{"".join(texts)}</g>'


def _uses_svg(frame: _Frame, items: Iterable[tuple[str, chess.Square]]) -> str:
    return "".join('<use href="#ck-{}" x="{}" y="{}"/>'.format(ref, *frame.corner(square))
                   for ref, square in items)


def _labels_svg(frame: _Frame, labels: Mapping[chess.Square, str]) -> str:
    if not labels:
        return ""
    parts = []
    for square, text in sorted(labels.items()):
        x, y = frame.centre(square)
        parts.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="12" fill="#fff" opacity=".85"/>'
                     f'<text x="{_num(x)}" y="{_num(y + 6)}">{html.escape(text)}</text>')
    return (f'<g {_FONT} font-size="17" font-weight="bold" fill="#000" text-anchor="middle">'
            f'{"".join(parts)}</g>')


def _arrow_svg(frame: _Frame, tail: chess.Square, head: chess.Square, color: str) -> str:
    """An arrow as python-chess draws it (shaft and head); a square to itself is a ring."""
    stroke = ARROW_COLORS[color]
    (xt, yt), (xh, yh) = frame.centre(tail), frame.centre(head)
    if tail == head:
        return (f'<circle cx="{_num(xh)}" cy="{_num(yh)}" r="20" fill="none" stroke="{stroke}" '
                f'stroke-width="4.5" opacity=".8"/>')
    marker, gap = 0.75 * SQUARE, 0.1 * SQUARE
    dx, dy = xh - xt, yh - yt
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    sx, sy = xh - ux * (marker + gap), yh - uy * (marker + gap)
    points = [(xh - ux * gap, yh - uy * gap), (sx + uy * marker / 2, sy - ux * marker / 2),
              (sx - uy * marker / 2, sy + ux * marker / 2)]
    return (f'<g fill="{stroke}" stroke="{stroke}" opacity=".8">'
            f'<line x1="{_num(xt)}" y1="{_num(yt)}" x2="{_num(sx)}" y2="{_num(sy)}" '
            f'stroke-width="9"/><polygon stroke="none" points="'
            + " ".join(f"{_num(x)},{_num(y)}" for x, y in points) + '"/></g>')


def _caption_svg(frame: _Frame, lines: list[str], *, lang: str | None = None) -> str:
    if not lines:
        return ""
    x = frame.left + 4 * SQUARE
    y = frame.board_bottom + (18 if frame.left > 1 else 4) + _CAPTION_SIZE
    texts = "".join(f'<text x="{x}" y="{y + i * _CAPTION_LINE}">{html.escape(line)}</text>'
                    for i, line in enumerate(lines))
    return (f'<g font-family="\'{font_family(lang)}\',sans-serif" font-size="{_CAPTION_SIZE}" '
            'fill="#222" text-anchor="middle">'
            f"{texts}</g>")


def alt_text(position: chess.BaseBoard, *, marked: Iterable[chess.Square] = (),
             arrows: Iterable[tuple[chess.Square, chess.Square, str]] = (),
             lang: str | None = None) -> str:
    """The board in words, for screen readers.

    >>> alt_text(chess.Board("4k3/8/8/8/8/8/8/4K2R w K - 0 1"), lang="en")
    'White: king e1, rook h1. Black: king e8. White to move.'
    """
    parts: list[str] = []
    for color in (chess.WHITE, chess.BLACK):
        groups = []
        for piece_type in sorted(chess.PIECE_TYPES, reverse=True):
            squares = [chess.square_name(s) for s in position.pieces(piece_type, color)]
            if squares:
                groups.append(t("diagram.alt_group" if len(squares) == 1 else "diagram.alt_many",
                                lang=lang, piece=piece_name(piece_type, lang=lang),
                                squares=t("diagram.square_sep", lang=lang).join(squares)))
        side = color_name(color, lang=lang)
        parts.append(t("diagram.alt_side", lang=lang, side=side,
                       pieces=t("diagram.group_sep", lang=lang).join(groups))
                     if groups else t("diagram.alt_nothing", lang=lang, side=side))
    if isinstance(position, chess.Board) and not is_drill(position):
        parts.append(t("core.side_to_move", lang=lang,
                       side=color_name(position.turn, lang=lang)))
    names = [chess.square_name(s) for s in marked]
    if names:
        parts.append(t("diagram.alt_marked", lang=lang,
                       squares=t("core.list_sep", lang=lang).join(names)))
    paths = [t("diagram.alt_arrow", lang=lang, tail=chess.square_name(a), head=chess.square_name(b))
             for a, b, _ in arrows]
    if paths:
        parts.append(t("diagram.alt_arrows", lang=lang,
                       arrows=t("core.list_sep", lang=lang).join(paths)))
    return sentences(*parts, lang=lang)


def board(position: Position, *, marks: Mapping[str, object] | None = None,
          arrows: Iterable[ArrowLike] | None = None, lastmove: MoveLike | None = None,
          check: chess.Square | str | bool | None = None, orientation: chess.Color = chess.WHITE,
          size: int | None = 360, coordinates: bool = True,
          caption: str | Mapping[str, str] | None = None, lang: str | None = None) -> BoardSvg:
    """A board diagram as SVG that shows itself in Jupyter.

    ``marks`` maps ``"yellow" "green" "blue" "red"`` (filled squares), ``"dot"`` (move
    targets), ``"cross"`` (captures), ``"circle"`` to squares, and ``"label"`` to
    ``{square: text}``. ``arrows``: ``"e2e4"``, ``("e2", "e4")`` or ``("e2", "e4", "red")``.

    >>> svg = board("start", arrows=["e2e4"], caption={"en": "1. e4", "zh": "1. e4"})
    >>> svg.startswith("<svg")
    True
    """
    lang = get_language(lang)
    position_board = to_board(position, lang=lang)
    kinds = _marks(marks)
    fills = {c: _squares(kinds[c]) for c in FILL_COLORS if c in kinds}
    symbols = {k: _squares(kinds[k]) for k in SYMBOL_KINDS if k in kinds}
    labels = _labels(kinds["label"]) if "label" in kinds else {}
    arrow_list = [_arrow(a) for a in arrows or ()]
    checked = _checked(position_board, check)
    frame = _Frame(orientation=orientation, coordinates=coordinates)
    caption_text = localize(caption, lang=lang) if caption else ""
    lines = wrap(caption_text, width=frame.width / _CAPTION_SIZE - 1)
    height = frame.board_bottom + (16 if coordinates else 1)
    if lines:
        height += (4 if coordinates else 8) + _CAPTION_LINE * len(lines)
    marked = sorted({*[s for v in (*fills.values(), *symbols.values()) for s in v], *labels},
                    key=lambda s: (chess.square_rank(s), chess.square_file(s)))
    alt = sentences(caption_text if lines else "",
                    alt_text(position_board, marked=marked, arrows=arrow_list, lang=lang),
                    lang=lang)
    pieces = [(piece.symbol(), s) for s, piece in sorted(position_board.piece_map().items())]
    size_attrs = (f' width="{size}" height="{round(size * height / frame.width)}"'
                  if size else "")
    escaped = html.escape(alt)
    body = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {frame.width} {height}"'
        f'{size_attrs} role="img" aria-label="{escaped}"><title>{escaped}</title>',
        _defs_svg(sorted({symbol for symbol, _ in pieces}), cross="cross" in symbols,
                  check=bool(checked)),
        _squares_svg(frame, _lastmove(lastmove)),
        _fills_svg(frame, fills),
        "".join('<rect x="{}" y="{}" width="45" height="45" fill="url(#check_gradient)"/>'
                .format(*frame.corner(s)) for s in checked),
        _uses_svg(frame, pieces),
        f'<rect x="{frame.left}" y="{frame.top}" width="360" height="360" fill="none" '
        f'stroke="#555"/>',
        _coordinates_svg(frame) if coordinates else "",
        _uses_svg(frame, [("x", s) for s in symbols.get("cross", [])]),
        "".join(_symbol_svg(frame, kind, symbols.get(kind, [])) for kind in ("dot", "circle")),
        _labels_svg(frame, labels),
        "".join(_arrow_svg(frame, *arrow) for arrow in arrow_list),
        _caption_svg(frame, lines, lang=lang),
        "</svg>",
    ]
    return BoardSvg("".join(body), alt=alt)


def _checked(position: chess.Board, check: chess.Square | str | bool | None) -> list[chess.Square]:
    """The square to mark as in check: the given one, or the side to move's king for True."""
    if check is True:
        king = position.king(position.turn)
        return [] if king is None else [king]
    return [] if check is None or check is False else [_square(check)]


def _defs_svg(symbols: list[str], *, cross: bool, check: bool) -> str:
    parts = [_piece_def(symbol) for symbol in symbols]
    if cross:
        parts.append(f'<g id="ck-x">{_SYMBOLS["cross"]}</g>')
    if check:
        parts.append(chess.svg.CHECK_GRADIENT.replace(" />", "/>"))
    return f"<defs>{''.join(parts)}</defs>" if parts else ""


def _symbol_svg(frame: _Frame, kind: str, squares: list[chess.Square]) -> str:
    return "".join('<g transform="translate({},{})">'.format(*frame.corner(s)) + _SYMBOLS[kind]
                   + "</g>" for s in squares)
