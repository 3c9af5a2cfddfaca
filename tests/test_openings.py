"""The course's openings: legal lines, names in both languages, lookup and naming a game."""

from __future__ import annotations

import chess
import pytest

from chesskit.drawing.diagram import BoardSvg
from chesskit.rules.openings import OPENINGS, Opening, name_opening, opening

CHINESE = {"italian": "意大利开局", "spanish": "西班牙开局", "scotch": "苏格兰开局",
           "petrov": "俄罗斯防御（彼得罗夫防御）", "scandinavian": "斯堪的纳维亚防御",
           "sicilian": "西西里防御", "french": "法兰西防御", "hungarian": "匈牙利防御",
           "dutch": "荷兰防御", "english": "英国式开局", "queens_gambit": "后翼弃兵（后兵开局）"}


def test_eleven_openings_with_chinese_names() -> None:
    assert {o.key: o.name["zh"] for o in OPENINGS} == CHINESE
    assert not any("(" in o.name["zh"] or ")" in o.name["zh"] for o in OPENINGS)
    assert opening("俄罗斯防御(彼得罗夫防御)").key == "petrov"


@pytest.mark.parametrize("item", OPENINGS, ids=lambda o: o.key)
def test_moves_are_legal_and_texts_present(item: Opening) -> None:
    board = chess.Board()
    for san in item.moves:
        move = board.parse_san(san)
        assert board.san(move) == san
        board.push(move)
    assert item.idea["en"].endswith(".") and item.idea["zh"].endswith("。")
    assert "皇后" not in item.idea["zh"]
    assert name_opening(board) == item
    assert opening(item.key) is item


def test_lines_from_the_sources() -> None:
    assert opening("Italian Game").numbered() == "1. e4 e5 2. Nf3 Nc6 3. Bc4"
    assert opening("Ruy Lopez").moves[-1] == "Bb5"
    assert opening("Petrov").moves == ("e4", "e5", "Nf3", "Nf6")
    assert opening("Hungarian Defense").moves[-1] == "Be7"
    assert opening("dutch").moves == ("d4", "f5")
    assert opening("English").moves == ("c4",)


def test_lookup_by_chinese_name_and_by_moves() -> None:
    assert opening("西西里防御").key == "sicilian"
    assert opening("彼得罗夫防御").key == "petrov"
    assert opening("后兵开局").key == "queens_gambit"
    assert opening("1. e4 e5 2. Nf3 Nc6 3. Bc4").key == "italian"
    assert opening(["e4", "e5", "Nf3", "Nc6", "Bc4", "Be7", "O-O"]).key == "hungarian"


def test_name_opening_longest_match_and_none() -> None:
    assert name_opening("e4 e5 Nf3 Nc6 Bc4 Nf6").key == "italian"  # type: ignore[union-attr]
    assert name_opening("1.e4 e5 2.Nf3 Nc6 3.Bc4 Be7").key == "hungarian"  # type: ignore[union-attr]
    assert name_opening("e4 e5") is None
    assert name_opening("Nf3 d5") is None
    assert name_opening("e4 e5 Ke2 xx") is None
    assert name_opening(chess.Board("8/8/8/8/8/8/8/4K2k w - - 0 1")) is None


def test_unknown_opening_says_which_exist() -> None:
    with pytest.raises(ValueError, match="Italian Game"):
        opening("Bongcloud")


def test_board_marks_last_move_with_caption() -> None:
    svg = opening("sicilian").board(lang="en")
    assert isinstance(svg, BoardSvg)
    assert "lastmove c5" in svg and "lastmove c7" in svg
    assert "Sicilian Defence: 1. e4 c5" in svg
    assert opening("sicilian").board(lang="zh-Hans").alt.startswith("西西里防御：1. e4 c5")
    assert opening("french")._repr_mimebundle_()["text/html"] == str(opening("french").board())
