"""Glicko-2 (Glickman, "Example of the Glicko-2 system") for learners and puzzles, and the
trainer's rules: one attempt, one rated game; a hint or a wrong first answer is a loss; a
further try is not rated (docs/puzzles.md, "Ratings")."""

from __future__ import annotations

import json
import math

import pytest

from nidavellir.analysis.puzzles.glicko import (
    MIN_RD,
    START_RD,
    Rating,
    attempt,
    expected,
    rate,
)


def test_the_worked_example_of_glickmans_paper() -> None:
    # "Example of the Glicko-2 system", section "Example calculation": a player rated
    # 1500 / RD 200 / σ 0.06 plays three games (τ = 0.5): a win against 1400 / 30, losses
    # against 1550 / 100 and 1700 / 300; the paper finds r' = 1464.06, RD' = 151.52,
    # σ' = 0.05999 (from intermediate figures rounded to four places).
    new = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
                                         (Rating(1700, 300), 0.0)], tau=0.5)
    assert new.r == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.005)
    assert new.sigma == pytest.approx(0.05999, abs=1e-5)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    # The paper's step 6 alone: φ* = sqrt(φ² + σ²).
    old = Rating(1500, 200, 0.06)
    new = rate(old, [])
    assert new.r == old.r and new.sigma == old.sigma
    assert new.rd == pytest.approx(math.hypot(200 / 173.7178, 0.06) * 173.7178)


def test_an_attempt_is_one_game_between_the_learner_and_the_puzzle() -> None:
    learner, puzzle = Rating(), Rating()
    won, lost_puzzle = attempt(learner, puzzle, solved=True)
    assert won.r > 1500 > lost_puzzle.r
    assert won.r - 1500 == pytest.approx(1500 - lost_puzzle.r)
    lost, won_puzzle = attempt(learner, puzzle, solved=False)
    assert lost.r < 1500 < won_puzzle.r
    # Deviations shrink with every game, never below the floor, never above the start.
    assert MIN_RD <= won.rd < START_RD
    # Solving a harder puzzle gains more.
    harder, _ = attempt(learner, Rating(1900, 100), solved=True)
    assert harder.r - 1500 > won.r - 1500
    assert expected(Rating(1900, 60), Rating(1500, 60)) > 0.85


@pytest.mark.parametrize("data,problem", [
    ({"r": 1500, "rd": 200}, "sigma"),
    ({"r": "1500", "rd": 200, "sigma": 0.06}, "r"),
    ({"r": 1500, "rd": 0, "sigma": 0.06}, "positive"),
    ([1500, 200, 0.06], "object"),
])
def test_a_malformed_rating_says_what_is_wrong(data: object, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        Rating.from_dict(data)


def test_ratings_round_trip_through_json() -> None:
    r = Rating(1523.4567, 87.123, 0.0899)
    back = Rating.from_dict(json.loads(json.dumps(r.to_dict())))
    assert back.r == pytest.approx(r.r, abs=0.01) and back.rd == pytest.approx(r.rd, abs=0.01)
