"""The Elo rule and the club points scheme of the source documents."""

import pytest

from chesskit.rules.ratings import club_points, expected_score, k_factor, rating_change


def test_expected_scores_add_up_to_one() -> None:
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1700, 1500) + expected_score(1500, 1700) == pytest.approx(1)


def test_k_factor_follows_the_sources() -> None:
    assert k_factor(games_played=0) == 25
    assert k_factor(games_played=29) == 25
    assert k_factor(games_played=30) == 15
    assert k_factor(games_played=5, peak_rating=2400) == 10


def test_rating_change() -> None:
    assert rating_change(1500, 1500, 1) == 12.5
    assert rating_change(1500, 1500, 0.5) == 0
    assert rating_change(1400, 1600, 1, games_played=40) == 11.4
    assert rating_change(2450, 2450, 0, games_played=100) == -5
    with pytest.raises(ValueError, match="scores 1"):
        rating_change(1500, 1500, 2)


@pytest.mark.parametrize(("winner", "loser", "draw", "points"), [
    (1000, 1005, False, 10), (1000, 1050, False, 15), (1000, 1150, False, 75),
    (1050, 1000, False, 6), (1150, 1000, False, 2), (1300, 1000, False, 0),
    (1000, 1005, True, 0), (1000, 1050, True, 7.5), (1000, 1200, True, 50),
])
def test_club_points(winner: float, loser: float, draw: bool, points: float) -> None:
    assert club_points(winner, loser, draw=draw) == points
