"""Ratings: the Elo rule and a club points scheme as the source documents teach them, and
Glicko-2 (a rating with its uncertainty), which the learner model uses.

Elo: after a game, ΔR = K(W − We), W the score (1, ½, 0), We the expected score; K = 25 for a
player's first 30 games, then 15, and 10 for ever once the rating has reached 2400.

>>> rating_change(1500, 1500, 1, games_played=0)
12.5
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from chesskit.errors import RatingError


def expected_score(rating: float, opponent: float) -> float:
    """The expected score We against an opponent: 1 / (1 + 10^((opponent − rating) / 400)).

    >>> round(expected_score(1600, 1400), 2)
    0.76
    """
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


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
        raise RatingError(f"A game scores 1 (win), 0.5 (draw) or 0 (loss), not {score!r}.")
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


# ---------------------------------------------------------------- Glicko-2

TAU = 0.75
"""Glicko-2's system constant: how fast the volatility may change (Lichess uses 0.75)."""
GLICKO_SCALE = 400 / math.log(10)  # 173.7178: rating points per unit of the Glicko-2 scale
_EPSILON = 1e-6


@dataclass(frozen=True)
class Glicko:
    """A Glicko-2 rating: the rating, its deviation RD (uncertainty) and its volatility.

    >>> Glicko()
    Glicko(rating=1500.0, rd=350.0, volatility=0.06)
    """

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06


class Game(NamedTuple):
    """One game of a rating period: the opponent's rating and RD, the score (0 to 1) and how
    much the game counts (``weight`` 1 is a whole game; Lichess weighs some puzzles less)."""

    rating: float
    rd: float
    score: float
    weight: float = 1.0


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / math.pi ** 2)


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of Glickman's paper: the new volatility (the Illinois algorithm)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > _EPSILON:
        new = low + (low - high) * f_low / (f_high - f_low)
        f_new = f(new)
        if f_new * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = new, f_new
    return math.exp(low / 2)


def glicko2(player: Glicko, games: Sequence[Game], *, tau: float = TAU) -> Glicko:
    """The player's rating after one rating period (Glickman, "Example of the Glicko-2
    system", 2013); a period without games only widens the RD. A game's ``weight`` scales its
    share of the variance and of the improvement. The paper's example (its figures 1464.06
    and 0.05999 come from rounded intermediate steps):

    >>> after = glicko2(Glicko(1500, 200, 0.06), [Game(1400, 30, 1), Game(1550, 100, 0),
    ...                                           Game(1700, 300, 0)], tau=0.5)
    >>> round(after.rating, 1), round(after.rd, 2), round(after.volatility, 6)
    (1464.1, 151.52, 0.059996)
    """
    for game in games:
        if not 0 <= game.score <= 1 or game.weight < 0 or game.rd < 0:
            raise RatingError(f"A game scores between 0 and 1 with a weight of 0 or more, "
                              f"not {game.score!r} with weight {game.weight!r}.")
    mu = (player.rating - 1500) / GLICKO_SCALE
    phi = player.rd / GLICKO_SCALE
    if not games or all(game.weight == 0 for game in games):
        return replace(player, rd=math.sqrt(phi * phi + player.volatility ** 2) * GLICKO_SCALE)
    inverse_v = 0.0
    improvement = 0.0
    for game in games:
        g = _g(game.rd / GLICKO_SCALE)
        expected = 1 / (1 + math.exp(-g * (mu - (game.rating - 1500) / GLICKO_SCALE)))
        inverse_v += game.weight * g * g * expected * (1 - expected)
        improvement += game.weight * g * (game.score - expected)
    v = 1 / inverse_v
    sigma = _volatility(player.volatility, phi, v, v * improvement, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Glicko(1500 + mu_new * GLICKO_SCALE, phi_new * GLICKO_SCALE, sigma)
