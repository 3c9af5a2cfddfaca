"""The Elo rule and the club points scheme of the source documents."""

import pytest

from chesskit.errors import RatingError
from chesskit.rules.ratings import (
    TAU,
    Game,
    Glicko,
    club_points,
    expected_score,
    glicko2,
    k_factor,
    rating_change,
)


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
    with pytest.raises(RatingError, match="scores 1"):
        rating_change(1500, 1500, 2)


@pytest.mark.parametrize(("winner", "loser", "draw", "points"), [
    (1000, 1005, False, 10), (1000, 1050, False, 15), (1000, 1150, False, 75),
    (1050, 1000, False, 6), (1150, 1000, False, 2), (1300, 1000, False, 0),
    (1000, 1005, True, 0), (1000, 1050, True, 7.5), (1000, 1200, True, 50),
])
def test_club_points(winner: float, loser: float, draw: bool, points: float) -> None:
    assert club_points(winner, loser, draw=draw) == points


GLICKMAN = [Game(1400, 30, 1), Game(1550, 100, 0), Game(1700, 300, 0)]


def test_glicko2_reproduces_glickmans_example() -> None:
    after = glicko2(Glicko(1500, 200, 0.06), GLICKMAN, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.02)  # the paper rounds its steps
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_glicko2_with_lichess_tau_weights_and_no_games() -> None:
    assert TAU == 0.75
    lichess = glicko2(Glicko(1500, 200, 0.06), GLICKMAN)
    assert lichess.rating == pytest.approx(1464.06, abs=0.5)
    idle = glicko2(Glicko(1500, 200, 0.06), [])
    assert idle.rating == 1500 and idle.rd == pytest.approx((200 ** 2 + (0.06 * 173.7178) ** 2)
                                                            ** 0.5, abs=0.01)
    whole = glicko2(Glicko(800, 350), [Game(800, 75, 1)])
    tenth = glicko2(Glicko(800, 350), [Game(800, 75, 1, weight=0.1)])
    assert 800 < tenth.rating < whole.rating and tenth.rd > whole.rd
    assert glicko2(Glicko(800, 350), [Game(800, 75, 0, weight=0)]).rating == 800
    with pytest.raises(RatingError, match="between 0 and 1"):
        glicko2(Glicko(), [Game(1500, 50, 2)])
