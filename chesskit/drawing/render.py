"""Boards as files: SVG, PNG and PDF (cairosvg), with a CJK font so Chinese captions render.

>>> svg_to_png(board_svg := '<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>')[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import io
import pathlib
from typing import Any

from chesskit.drawing.diagram import board
from chesskit.errors import RenderError
from chesskit.i18n import t

SUFFIXES = (".svg", ".png", ".pdf")


def svg_to_png(svg: str, *, scale: float = 1.0) -> bytes:
    """A PNG of an SVG text, ``scale`` times its own size.

    >>> svg_to_png('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>')[:4]
    b'\\x89PNG'
    """
    import cairosvg  # noqa: PLC0415 (cairo's C library loads only to write PNG; none in a browser)

    return bytes(cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale))


def svgs_to_pdf(pages: list[str]) -> bytes:
    """One PDF with each SVG on a page of its own size (vector, fonts embedded).

    >>> svgs_to_pdf(['<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>'] * 2)[:5]
    b'%PDF-'
    """
    # cairo's C library loads only to write a PDF (the browser course has none)
    import cairocffi  # noqa: PLC0415
    from cairosvg.parser import Tree  # noqa: PLC0415
    from cairosvg.surface import PDFSurface  # noqa: PLC0415

    output = io.BytesIO()
    document = cairocffi.PDFSurface(output, 1, 1)
    document.set_metadata(cairocffi.PDF_METADATA_CREATOR, "chesskit")
    document.set_metadata(cairocffi.PDF_METADATA_CREATE_DATE, "2000-01-01T00:00:00Z")

    class _Page(PDFSurface):  # type: ignore[misc]  # cairosvg is untyped
        def _create_surface(self, width: float, height: float) -> tuple[Any, float, float]:
            document.set_size(width, height)
            return document, width, height

    for svg in pages:
        page = _Page(Tree(bytestring=svg.encode("utf-8")), None, 96)
        page.context.show_page()
    document.finish()
    return output.getvalue()


def save_board(position: object, path: str | pathlib.Path, **board_kwargs: Any) -> pathlib.Path:
    """Write ``ck.board(position, **board_kwargs)`` to ``path`` as .svg, .png or .pdf.

    >>> save_board("start", "/tmp/start.svg").name
    'start.svg'
    """
    target = pathlib.Path(path)
    suffix = target.suffix.lower()
    if suffix not in SUFFIXES:
        raise RenderError(t("render.bad_suffix", path=str(target), suffixes=", ".join(SUFFIXES)))
    svg = board(position, **board_kwargs)  # type: ignore[arg-type]
    if suffix == ".svg":
        target.write_text(svg, encoding="utf-8")
    else:
        target.write_bytes(svg_to_png(svg) if suffix == ".png" else svgs_to_pdf([svg]))
    return target
