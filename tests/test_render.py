"""save_board, svg_to_png, svgs_to_pdf: files by suffix, Chinese captions with a CJK font."""

from __future__ import annotations

import pathlib
import shutil
import struct
import subprocess

import pytest

from chesskit.drawing.diagram import board
from chesskit.drawing.render import save_board, svg_to_png, svgs_to_pdf

CAPTION = {"en": "The queen attacks f7.", "zh": "后攻击f7兵，白方走。"}


def test_save_svg_png_pdf(tmp_path: pathlib.Path) -> None:
    svg_path = save_board("start", tmp_path / "a.svg", marks={"yellow": "e4"})
    assert svg_path.read_text(encoding="utf-8") == board("start", marks={"yellow": "e4"})
    png = save_board("start", tmp_path / "a.PNG")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pdf = save_board("start", tmp_path / "a.pdf", caption=CAPTION, lang="zh-Hans")
    assert pdf.read_bytes()[:5] == b"%PDF-"


def test_other_suffix_is_refused(tmp_path: pathlib.Path) -> None:
    with pytest.raises(ValueError, match=r"\.svg, \.png, \.pdf"):
        save_board("start", tmp_path / "a.jpg")


def test_png_size_and_scale() -> None:

    png = svg_to_png(board("start", size=200), scale=2)
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (400, 400)


def test_outputs_are_deterministic() -> None:
    svg = board("start", caption=CAPTION, lang="zh-Hans")
    assert svg_to_png(svg) == svg_to_png(svg)
    assert svgs_to_pdf([svg]) == svgs_to_pdf([svg])


def test_multi_page_pdf(tmp_path: pathlib.Path) -> None:
    if shutil.which("pdfinfo") is None:
        pytest.skip("poppler-utils (pdfinfo) is not installed")
    path = tmp_path / "pages.pdf"
    path.write_bytes(svgs_to_pdf([board("start"), board("8/8/8/8/3R4/8/8/8", size=200)]))
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    assert "Pages:           2" in info.stdout


def test_chinese_caption_embeds_noto_cjk(tmp_path: pathlib.Path) -> None:
    if shutil.which("pdffonts") is None:
        pytest.skip("poppler-utils (pdffonts) is not installed")
    path = save_board("start", tmp_path / "zh.pdf", caption=CAPTION, lang="zh-Hans")
    fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True)
    assert "NotoSansCJK" in fonts.stdout, fonts.stdout
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                              check=True).stdout
        assert "后攻击f7兵" in text
