"""ck.board: marks, arrows, caption, text alternative, determinism and size."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import chess
import chess.svg
import pytest

from chesskit.drawing.diagram import FILL_COLORS, OUTLINE_COLORS, BoardSvg, alt_text, board
from chesskit.drawing.text import FONT_FAMILY
from chesskit.errors import PositionError

NS = "{http://www.w3.org/2000/svg}"
ROOK_K = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"


def _tree(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_returns_displayable_svg_with_alt() -> None:
    svg = board(ROOK_K, lang="en")
    assert isinstance(svg, BoardSvg)
    assert svg._repr_mimebundle_() == {"text/html": str(svg), "text/plain": svg.alt}
    assert "data:" not in str(svg)
    assert svg.alt == "White: king e1, rook h1. Black: king e8. White to move."
    root = _tree(svg)
    assert root.get("aria-label") == svg.alt
    assert root.find(f"{NS}title").text == svg.alt  # type: ignore[union-attr]
    assert root.get("width") == "360"


def test_alt_in_chinese_and_traditional() -> None:
    assert board(ROOK_K, lang="zh-Hans").alt == "白方：王e1，车h1。黑方：王e8。白方走。"
    assert "車h1" in board(ROOK_K, lang="zh-Hant").alt


def test_kingless_drill_draws() -> None:
    svg = board("8/8/8/8/3R4/8/8/8", lang="en")
    assert svg.count("<use ") == 1
    assert svg.alt == "White: rook d4. Black: no pieces."
    assert board("8/8/8/8/8/8/8/8", lang="en").alt == "White: no pieces. Black: no pieces."


def test_identical_input_identical_bytes() -> None:
    kwargs = {"marks": {"yellow": ["e4", "d4"], "dot": "a3", "label": {"h3": "1"}},
              "arrows": ["g1f3", ("b1", "c3", "red")], "caption": {"en": "Hi", "zh": "你好"}}
    assert board("start", **kwargs) == board("start", **kwargs)  # type: ignore[arg-type]


def test_start_position_is_compact() -> None:
    assert len(board("start").encode("utf-8")) < 12_000


def test_fill_marks_use_okabe_ito_colours() -> None:
    svg = board("8/8/8/8/3Q4/8/8/8", marks={"yellow": chess.SquareSet(chess.BB_RANK_4),
                                             "green": [chess.A1], "blue": "h8", "red": "a8"})
    for color in FILL_COLORS.values():
        assert f'fill="{color}"' in svg
    yellow = re.search(r'<g fill="#F0E442"[^>]*>(.*?)</g>', svg)
    assert yellow is not None and yellow.group(1).count("<rect") == 8


def test_fill_marks_have_a_darker_outline_inside_the_square() -> None:
    svg = board("8/8/8/8/8/8/8/8", marks={"red": "a8"}, coordinates=False)
    assert (f'<g fill="{FILL_COLORS["red"]}" fill-opacity=".9" stroke="{OUTLINE_COLORS["red"]}" '
            'stroke-width="3"><rect x="2.5" y="2.5" width="42" height="42"/></g>') in svg


def test_symbols_labels_and_alt_mentions_them() -> None:
    svg = board("8/8/8/8/3R4/8/8/8", marks={"dot": "d5 d6", "cross": ["d8"], "circle": "d4",
                                             "label": {"a1": "A", "b2": "<2>"}}, lang="en")
    assert svg.count('r="7"') == 2
    assert 'href="#ck-x"' in svg and 'id="ck-x"' in svg
    assert 'r="19"' in svg
    assert ">A</text>" in svg and "&lt;2&gt;" in svg
    assert svg.alt.endswith("Marked: a1, b2, d4, d5, d6, d8.")
    _tree(svg)


def test_arrows_in_colours_and_ring() -> None:
    svg = board("start", arrows=["e2e4", ("g1", "f3", "blue"), ("d1", "d1", "red"),
                                 chess.svg.Arrow(chess.B1, chess.C3, color="yellow")], lang="en")
    for color in ("#009E73", "#0072B2", "#D55E00", "#E69F00"):
        assert color in svg
    assert svg.count("<polygon") == 3
    assert "Arrows: e2 to e4, g1 to f3, d1 to d1, b1 to c3." in svg.alt


def test_orientation_flips_squares() -> None:
    white = board("8/8/8/8/8/8/8/R7", coordinates=False)
    black = board("8/8/8/8/8/8/8/R7", coordinates=False, orientation=chess.BLACK)
    assert 'x="1" y="316"' in white
    assert 'x="316" y="1"' in black


def test_lastmove_and_check() -> None:
    b = chess.Board()
    for san in ("f3", "e5", "g4", "Qh4"):
        b.push_san(san)
    svg = board(b, lastmove=b.peek(), check=True)
    assert "lastmove d8" in svg and "lastmove h4" in svg
    assert "check_gradient" in svg
    assert board(b, lastmove="d8h4", check="e1") == svg


def test_caption_under_board_with_cjk_font_first() -> None:
    plain = _tree(board("start"))
    svg = board("start", caption={"en": "Start", "zh": "开始局面"}, lang="zh-Hans")
    root = _tree(svg)
    assert int(root.get("height", "0")) > int(plain.get("height", "0"))
    assert "开始局面" in svg and svg.alt.startswith("开始局面")
    families = re.findall(r'font-family="([^"]*)"', svg)
    assert families and all(f.startswith(f"'{FONT_FAMILY}'") for f in families)


def test_long_caption_wraps() -> None:
    svg = board("start", caption="word " * 40)
    assert svg.count("<text") - 16 >= 3


def test_no_coordinates_no_text() -> None:
    assert "<text" not in board("start", coordinates=False)


@pytest.mark.parametrize("kwargs", [
    {"marks": {"purple": ["e4"]}},
    {"marks": {"yellow": ["z9"]}},
    {"marks": {"label": ["e4"]}},
    {"arrows": ["e2"]},
    {"arrows": [("e2", "e4", "pink")]},
    {"lastmove": "nonsense"},
])
def test_bad_options_raise_position_error(kwargs: dict[str, object]) -> None:
    with pytest.raises(PositionError):
        board("start", **kwargs)  # type: ignore[arg-type]


def test_alt_text_helper_for_plain_base_board() -> None:
    assert alt_text(chess.BaseBoard("8/8/8/8/8/8/8/N7"), lang="en") == (
        "White: knight a1. Black: no pieces.")
