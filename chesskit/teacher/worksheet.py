"""Printable worksheets: numbered diagrams on A4 pages, and an answer key on pages of its own.

Pages are SVG drawn in millimetres, turned into one PDF by ``render.svgs_to_pdf``.

>>> len(select(lesson=12, count=6))
6
"""

from __future__ import annotations

import argparse
import html
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import chess

from chesskit.drawing.render import svg_to_png, svgs_to_pdf
from chesskit.drawing.text import font_family, wrap
from chesskit.errors import WorksheetError
from chesskit.exercises import catalog
from chesskit.i18n import color_name, t

PAGE_W, PAGE_H, MARGIN = 210.0, 297.0, 15.0
GRIDS = {6: (2, 3), 12: (3, 4)}
_KEY_LINES = 48


def _text(x: float, y: float, text: str, *, size: float, anchor: str = "start",
          weight: str = "normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}">{html.escape(text, quote=False)}</text>')


def _page(body: Iterable[str], *, number: int, pages: int, lang: str | None) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{PAGE_W}mm" height="{PAGE_H}mm" '
            f'viewBox="0 0 {PAGE_W} {PAGE_H}" font-family="{font_family(lang)}">'
            f'<rect width="{PAGE_W}" height="{PAGE_H}" fill="#fff"/>' + "".join(body)
            + _text(PAGE_W / 2, PAGE_H - 8, t("worksheet.page", lang=lang, n=number, of=pages),
                    size=3, anchor="middle") + "</svg>")


def _header(title: str, *, lang: str | None) -> list[str]:
    return [_text(MARGIN, MARGIN + 6, title, size=7, weight="bold"),
            _text(PAGE_W - MARGIN, MARGIN + 6, t("worksheet.name_date", lang=lang), size=4,
                  anchor="end"),
            f'<line x1="{MARGIN}" y1="{MARGIN + 10}" x2="{PAGE_W - MARGIN}" y2="{MARGIN + 10}" '
            'stroke="#000" stroke-width="0.3"/>']


def _placed(svg: str, *, x: float, y: float, size: float) -> str:
    """A board SVG placed at ``(x, y)`` with side ``size`` mm on the page."""
    root = re.sub(r'\s(width|height)="[^"]*"', "", svg[: svg.index(">")], count=2)
    return f'{root} x="{x:.1f}" y="{y:.1f}" width="{size:.1f}" height="{size:.1f}"' + svg[
        svg.index(">"):]


def _caption(number: int, exercise: Any, *, lang: str | None) -> list[str]:
    task = str(exercise.prompt_text(lang=lang))
    board = chess.Board(exercise.fen) if exercise.fen else None
    first = f"{number}."
    if board is not None and None not in (board.king(chess.WHITE), board.king(chess.BLACK)):
        side = color_name(board.turn, lang=lang)
        if side.lower() not in task.lower():
            first += " " + t("core.side_to_move", lang=lang, side=side)
    return [first, task]


def _diagram_pages(exercises: Sequence[Any], *, per_page: int, title: str,
                   lang: str | None) -> list[list[str]]:
    columns, rows = GRIDS[per_page]
    cell_w = (PAGE_W - 2 * MARGIN) / columns
    cell_h = (PAGE_H - 2 * MARGIN - 20) / rows
    font = 3.6 if per_page == 6 else 3.0
    board = min(cell_w - 8, cell_h - 5 * font * 1.3)
    pages = []
    for start in range(0, len(exercises), per_page):
        body = _header(title, lang=lang)
        for i, exercise in enumerate(exercises[start:start + per_page]):
            x = MARGIN + (i % columns) * cell_w
            y = MARGIN + 16 + (i // columns) * cell_h
            body.append(_placed(exercise.board_svg(lang=lang), x=x + (cell_w - board) / 2, y=y,
                                size=board))
            lines = [line for part in _caption(start + i + 1, exercise, lang=lang)
                     for line in wrap(part, width=(cell_w - 4) / font)]
            body += [_text(x + 2, y + board + font * 1.3 * (n + 1), line, size=font,
                           weight="bold" if n == 0 else "normal")
                     for n, line in enumerate(lines[:5])]
        pages.append(body)
    return pages


def _key_pages(exercises: Sequence[Any], *, lang: str | None) -> list[list[str]]:
    lines = [line for n, exercise in enumerate(exercises, 1)
             for line in wrap(t("worksheet.key_line", lang=lang, n=n, id=exercise.id,
                                answers=" / ".join(exercise.solutions()) or "—"), width=80)]
    pages = []
    for start in range(0, max(len(lines), 1), _KEY_LINES):
        body = _header(t("worksheet.key_title", lang=lang), lang=lang)
        body += [_text(MARGIN, MARGIN + 20 + 5 * n, line, size=4)
                 for n, line in enumerate(lines[start:start + _KEY_LINES])]
        pages.append(body)
    return pages


def worksheet(exercises: Iterable[Any], *, per_page: int = 6, lang: str | None = None,
              answers: bool = False, title: str | None = None) -> bytes:
    """An A4 PDF: ``per_page`` (6 or 12) numbered diagrams a page, the answer key if asked.

    >>> from chesskit.exercises import Exercise
    >>> ex = Exercise(id="12.01", lesson=12, kind="move", goal="mate",
    ...               fen="6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    >>> worksheet([ex], answers=True)[:5]
    b'%PDF-'
    """
    if per_page not in GRIDS:
        raise WorksheetError(t("worksheet.bad_per_page", lang=lang, n=per_page))
    items = list(exercises)
    bodies = _diagram_pages(items, per_page=per_page, lang=lang,
                            title=title or t("worksheet.title", lang=lang))
    bodies += _key_pages(items, lang=lang) if answers else []
    return svgs_to_pdf([_page(body, number=n, pages=len(bodies), lang=lang)
                        for n, body in enumerate(bodies, 1)])


def write_pngs(exercises: Iterable[Any], folder: Path, *, lang: str | None = None) -> list[Path]:
    """Each diagram as ``NN-<id>.png`` (twice its screen size) for slides."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n, exercise in enumerate(exercises, 1):
        path = folder / f"{n:02d}-{exercise.id}.png"
        path.write_bytes(svg_to_png(exercise.board_svg(lang=lang), scale=2))
        paths.append(path)
    return paths


def select(*, lesson: int | None = None, topic: str | None = None, count: int = 12,
           lang: str | None = None) -> list[Any]:
    """The first ``count`` exercises of the bank for a lesson and/or topic, by id."""

    return catalog.matching(lesson=lesson, topic=topic, lang=lang)[:count]


MAX_COUNT = 500  # exercises on one worksheet or homework


def checked_count(count: int, *, lang: str | None = None) -> int:
    """``count`` if it is 1 to MAX_COUNT; WorksheetError otherwise.

    >>> checked_count(12)
    12
    """
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        raise WorksheetError(t("worksheet.bad_count", lang=lang, n=count, most=MAX_COUNT))
    return count


def sheet_name(*, lesson: int | None, topic: str | None, lang: str | None = None) -> str:
    """The name of a set of exercises: "Lesson 12 · fork" (the worksheet's title otherwise).

    >>> sheet_name(lesson=12, topic="fork", lang="en")
    'Lesson 12 · fork'
    """
    parts = [t("worksheet.lesson", lang=lang, n=lesson)] if lesson is not None else []
    return " · ".join(parts + ([topic] if topic else [])) or t("worksheet.title", lang=lang)


def main(argv: list[str] | None = None) -> int:
    """``chesskit worksheet --lesson 12 [--topic fork] [--count 12] [--answers] -o sheet.pdf``."""
    parser = argparse.ArgumentParser(prog="chesskit worksheet", description=t("worksheet.cli_help"))
    parser.add_argument("--lesson", type=int, help=t("worksheet.cli_lesson"))
    parser.add_argument("--topic", help=t("worksheet.cli_topic"))
    parser.add_argument("--count", type=int, default=12, help=t("worksheet.cli_count", n=12))
    parser.add_argument("--lang", help=t("worksheet.cli_lang"))
    parser.add_argument("--answers", action="store_true", help=t("worksheet.cli_answers"))
    parser.add_argument("--per-page", type=int, choices=sorted(GRIDS), default=6,
                        help=t("worksheet.cli_per_page"))
    parser.add_argument("-o", "--output", help=t("worksheet.cli_output"))
    parser.add_argument("--png", metavar="DIR", help=t("worksheet.cli_png"))
    args = parser.parse_args(argv)
    if not (args.output or args.png):
        parser.error(t("worksheet.cli_nothing"))
    checked_count(args.count, lang=args.lang)
    items = select(lesson=args.lesson, topic=args.topic, count=args.count, lang=args.lang)
    if not items:
        raise WorksheetError(t("worksheet.no_items", lang=args.lang))
    if args.output:
        Path(args.output).write_bytes(worksheet(
            items, per_page=args.per_page, lang=args.lang, answers=args.answers,
            title=sheet_name(lesson=args.lesson, topic=args.topic, lang=args.lang)))
        print(t("worksheet.written", lang=args.lang, path=args.output, n=len(items)))
    if args.png:
        paths = write_pngs(items, Path(args.png), lang=args.lang)
        print(t("worksheet.pngs_written", lang=args.lang, path=args.png, n=len(paths)))
    return 0
