"""Printable worksheets: A4 PDF, numbered diagrams, answer key, Chinese fonts, PNGs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import _teacher_fakes
import pytest

from chesskit.errors import BankError
from chesskit.teacher import worksheet as ws


@pytest.fixture(autouse=True)
def fake_bank(monkeypatch: pytest.MonkeyPatch) -> None:
    _teacher_fakes.install(monkeypatch)


def pdf_pages(pdf: bytes) -> int:
    return pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") + pdf.count(b"/Type/Page\n")


def test_wrap() -> None:
    assert ws.wrap("白方走：一步杀。", width=4) == ["白方走：", "一步杀。"]
    assert ws.wrap("a\nb", width=10) == ["a", "b"]


def test_pages_and_answer_key(tmp_path: Path) -> None:
    items = (_teacher_fakes.bank() * 3)[:12]
    six = ws.worksheet(items, per_page=6, lang="en")
    twelve = ws.worksheet(items, per_page=12, lang="en", answers=True)
    assert six.startswith(b"%PDF-") and six == ws.worksheet(items, per_page=6, lang="en")
    if shutil.which("pdfinfo") and shutil.which("pdftotext"):
        path = tmp_path / "s.pdf"
        for pdf, pages in ((six, 2), (twelve, 2)):
            path.write_bytes(pdf)
            info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True).stdout
            assert f"Pages:           {pages}" in info and "595.276 x 841.89" in info
        text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True,
                              text=True).stdout
        assert "Name:" in text and "Black to move" in text and "Answer key" in text
        assert "5. (02.02) Re2+ / Rd8+" in " ".join(text.split())
    with pytest.raises(ValueError):
        ws.worksheet(items, per_page=7)


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="poppler-utils is not installed")
def test_chinese_uses_the_cjk_font(tmp_path: Path) -> None:
    path = tmp_path / "zh.pdf"
    path.write_bytes(ws.worksheet(_teacher_fakes.bank(), lang="zh-Hans", answers=True))
    fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True).stdout
    assert "NotoSansCJK" in fonts
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True).stdout
    assert "答案" in text and "姓名" in text


def test_cli_pdf_and_pngs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sheet.pdf"
    assert ws.main(["--lesson", "1", "--count", "2", "--answers", "-o", str(out),
                    "--png", str(tmp_path / "png")]) == 0
    assert out.read_bytes().startswith(b"%PDF-")
    assert sorted(p.name for p in (tmp_path / "png").iterdir()) == ["01-01.01.png",
                                                                   "02-01.02.png"]
    assert "Wrote" in capsys.readouterr().out

    with pytest.raises(BankError):
        ws.main(["--topic", "nothing", "-o", str(out)])
    with pytest.raises(SystemExit):
        ws.main(["--lesson", "1"])
