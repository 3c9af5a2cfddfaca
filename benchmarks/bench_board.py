"""Boards: ck.board() against chess.svg.board on the same positions, PNG export against cairosvg.

Run: ``.venv/bin/python benchmarks/bench_board.py``. Prints medians in ms and the ratio.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial

import cairosvg
import chess
import chess.svg

from chesskit.drawing.diagram import board
from chesskit.drawing.render import svg_to_png

POSITIONS = {
    "start": chess.STARTING_FEN,
    "middlegame": "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "drill rook": "8/8/8/8/3R4/8/8/8 w - - 0 1",
}


def median_ms(work: Callable[[], object], *, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    rows = []
    for name, fen in POSITIONS.items():
        b = chess.Board(fen)
        marks = {"yellow": chess.SquareSet(b.attacks(chess.D4)) or ["e4"], "dot": ["e3"]}
        ours = median_ms(partial(board, fen, marks=marks, arrows=["e2e4"]), repeat=300)
        plain = median_ms(partial(chess.svg.board, b,
                                  fill=dict.fromkeys(b.attacks(chess.D4), "#F0E442b3"),
                                  arrows=[chess.svg.Arrow(chess.E2, chess.E4)], size=360),
                          repeat=300)
        rows.append((f"board() {name}", ours, plain))
        ours_svg, plain_svg = board(fen), chess.svg.board(b, size=360)
        rows.append((f"bytes {name} (KB)", len(ours_svg) / 1000, len(plain_svg) / 1000))
        png = median_ms(partial(svg_to_png, ours_svg), repeat=30)
        raw = median_ms(partial(cairosvg.svg2png, bytestring=plain_svg.encode()), repeat=30)
        rows.append((f"PNG {name}", png, raw))
    print(f"{'measure':28} {'chesskit':>10} {'python-chess':>13} {'ratio':>7}")
    for label, ours, plain in rows:
        print(f"{label:28} {ours:10.3f} {plain:13.3f} {ours / plain:7.2f}")
    print("times are medians in ms; PNG compares svg_to_png(ck.board) with cairosvg on "
          "chess.svg.board")


if __name__ == "__main__":
    main()
