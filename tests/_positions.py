"""Positions for property tests: seeded random games, the same on every run."""

from __future__ import annotations

import random

import chess


def random_board(seed: int, plies: int) -> chess.Board:
    """The position after ``plies`` random legal moves from the start, drawn with ``seed``."""
    rng = random.Random(seed)
    board = chess.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board
