"""Glicko-2 ratings: every learner and every puzzle, each attempt one rated game.

Mark E. Glickman, "Example of the Glicko-2 system" (Boston University, 2012; the paper
every implementation checks itself against: its worked example is the first doctest
below). A rating is ``r`` (the strength on the usual scale, 1500 at the start), ``rd``
(its rating deviation: how unsure it is) and ``sigma`` (its volatility). Lichess rates its
puzzles the same way: a new learner and a new puzzle start at 1500 / RD 500 /
volatility 0.09, with τ = 0.75, and each attempt is a rating period with one game
between the learner and the puzzle (the learner scores 1 when solved, 0 otherwise; the
puzzle the opposite).

Standard library only.

The worked example (a 1500 / 200 / 0.06 player beats a 1400 / 30, loses to a 1550 / 100
and to a 1700 / 300, τ = 0.5):

>>> new = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
...                                      (Rating(1700, 300), 0.0)], tau=0.5)
>>> abs(new.r - 1464.06) < 0.01, round(new.rd, 2), abs(new.sigma - 0.05999) < 1e-5
(True, 151.52, True)

(the paper gives r' = 1464.06, RD' = 151.52, σ' = 0.05999 from its intermediate figures
rounded to four places; unrounded, r' = 1464.0507 and σ' = 0.0599960).

>>> learner, puzzle = attempt(Rating(), Rating(), solved=True)
>>> learner.r > 1500 > puzzle.r
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: The scale factor between the Glicko and the Glicko-2 scales (the paper's step 2).
SCALE = 173.7178
#: A new learner's and a new puzzle's rating, deviation and volatility (Lichess's).
START_R, START_RD, START_SIGMA = 1500.0, 500.0, 0.09
#: The system constant: how much the volatility may change (Lichess's puzzles: 0.75).
TAU = 0.75
#: The convergence tolerance of the volatility's iteration (the paper's ε).
EPSILON = 1e-6
#: A rating deviation never goes below this (a puzzle solved by thousands still moves).
MIN_RD = 45.0
#: ... nor above the start.
MAX_RD = START_RD


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the usual scale."""

    r: float = START_R
    rd: float = START_RD
    sigma: float = START_SIGMA

    def to_dict(self, exact: bool = False) -> dict[str, float]:
        """Plain data, rounded for a file a person reads (``exact``: every digit, for a
        rating that goes on changing: a learner's)."""
        if exact:
            return {"r": self.r, "rd": self.rd, "sigma": self.sigma}
        return {"r": round(self.r, 2), "rd": round(self.rd, 2), "sigma": round(self.sigma, 6)}

    @classmethod
    def from_dict(cls, data: Any) -> Rating:
        """A rating from ``{"r", "rd", "sigma"}`` (ValueError naming what is wrong)."""
        if not isinstance(data, dict):
            raise ValueError("a rating is an object with r, rd and sigma")
        values = []
        for key in ("r", "rd", "sigma"):
            v = data.get(key)
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                raise ValueError(f"a rating's {key} must be a number, not {v!r}")
            values.append(float(v))
        r, rd, sigma = values
        if rd <= 0 or sigma <= 0:
            raise ValueError(f"a rating's rd and sigma must be positive, not {rd!r}, {sigma!r}")
        return cls(r, rd, sigma)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rate(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU,
         clamp: bool = False) -> Rating:
    """The player's rating after one rating period with ``games`` ((opponent, score):
    1 a win, 0 a loss, ½ a draw), by the paper's steps 1–8. No game: only the deviation
    grows (step 6). ``clamp``: keep the deviation within :data:`MIN_RD` … :data:`MAX_RD`
    (the worked example is unclamped)."""
    mu = (player.r - 1500.0) / SCALE
    phi = player.rd / SCALE
    sigma = player.sigma
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return _clamped(Rating(player.r, phi_star * SCALE, sigma), clamp)
    # Steps 3 and 4: the estimated variance and the improvement.
    v_inv = 0.0
    delta_sum = 0.0
    for opponent, score in games:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a game's score is from 0 to 1, not {score!r}")
        mu_j = (opponent.r - 1500.0) / SCALE
        phi_j = opponent.rd / SCALE
        g, e = _g(phi_j), _e(mu, mu_j, phi_j)
        v_inv += g * g * e * (1.0 - e)
        delta_sum += g * (score - e)
    v = 1.0 / v_inv
    delta = v * delta_sum
    # Step 5: the new volatility (the Illinois algorithm).
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)
    # Steps 6 to 8: the new deviation and rating.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * delta_sum
    return _clamped(Rating(new_mu * SCALE + 1500.0, new_phi * SCALE, new_sigma), clamp)


def _clamped(rating: Rating, clamp: bool) -> Rating:
    if not clamp:
        return rating
    return Rating(rating.r, min(MAX_RD, max(MIN_RD, rating.rd)), rating.sigma)


def attempt(learner: Rating, puzzle: Rating, solved: bool | float) -> tuple[Rating, Rating]:
    """One attempt at a puzzle as one rated game between the learner and the puzzle: both
    new ratings (the learner scores 1 when solved, else 0; the puzzle the opposite)."""
    score = float(solved)
    return (rate(learner, [(puzzle, score)], clamp=True),
            rate(puzzle, [(learner, 1.0 - score)], clamp=True))


def expected(learner: Rating, puzzle: Rating) -> float:
    """The chance that the learner solves the puzzle, as the ratings see it."""
    mu = (learner.r - 1500.0) / SCALE
    mu_j = (puzzle.r - 1500.0) / SCALE
    phi = math.hypot(learner.rd, puzzle.rd) / SCALE
    return _e(mu, mu_j, phi)


__all__ = ["EPSILON", "MAX_RD", "MIN_RD", "Rating", "SCALE", "START_R", "START_RD",
           "START_SIGMA", "TAU", "attempt", "expected", "rate"]
