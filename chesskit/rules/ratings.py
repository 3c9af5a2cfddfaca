"""Ratings as the source documents teach them: the Elo rule and a club points scheme.

Elo: after a game, ΔR = K(W − We), W the score (1, ½, 0), We the expected score; K = 25 for a
player's first 30 games, then 15, and 10 for ever once the rating has reached 2400.

>>> rating_change(1500, 1500, 1, games_played=0)
12.5
"""

from __future__ import annotations


def expected_score(rating: float, opponent: float) -> float:
    """The expected score We against an opponent: 1 / (1 + 10^((opponent − rating) / 400)).

    >>> round(expected_score(1600, 1400), 2)
    0.76
    """
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def k_factor(*, games_played: int, peak_rating: float = 0) -> int:
    """25 for the first 30 games, then 15; 10 for ever once the rating has reached 2400.

    >>> k_factor(games_played=31)
    15
    """
    if peak_rating >= 2400:
        return 10
    return 25 if games_played < 30 else 15


def rating_change(rating: float, opponent: float, score: float, *, games_played: int = 0,
                  peak_rating: float | None = None) -> float:
    """ΔR = K(W − We), rounded to one decimal.

    >>> rating_change(1400, 1600, 1, games_played=40)
    11.4
    """
    if score not in (0, 0.5, 1):
        raise ValueError(f"A game scores 1 (win), 0.5 (draw) or 0 (loss), not {score!r}.")
    k = k_factor(games_played=games_played, peak_rating=max(rating, peak_rating or 0))
    return round(k * (score - expected_score(rating, opponent)), 1)


def club_points(winner_points: float, loser_points: float, *, draw: bool = False) -> float:
    """Points the winner gains (the loser loses as much) in the club scheme of seed 002.

    For a draw, ``winner_points`` is the player with fewer points, who gains; the other loses
    as much.  Each level of the scheme (30 down to 1) needs 100 points.

    >>> club_points(1000, 1150)  # the lower player wins: half the difference
    75.0
    """
    diff = abs(winner_points - loser_points)
    if draw:
        if diff < 10:
            return 0.0
        return (10 + diff / 10) / 2 if diff < 100 else diff / 4
    if winner_points <= loser_points:  # the lower side wins
        if diff < 10:
            return 10.0
        return 10 + diff / 10 if diff < 100 else diff / 2
    if diff < 10:
        return 10.0
    if diff < 100:
        return 10 - diff / 12.5
    return 2.0 if diff < 200 else 0.0
