"""The few statistics the lab reports, written once (standard library only).

Every interval and standard error shown to a user (the ladder's win shares, the strategy
lab's rates, a lesson's simulation, the coach's estimates) comes from here, so the same
counts always give the same interval.

>>> low, high = wilson(50, 100)
>>> round(low, 3), round(high, 3)
(0.404, 0.596)
>>> wilson(0, 10)[0], wilson(10, 10)[1]
(0.0, 1.0)
>>> round(mean_se([1.0, 2.0, 3.0, 4.0]), 4)
0.6455
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: The two-sided 95% quantile of the standard normal distribution.
Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a proportion: ``successes`` of ``n`` (shares, such as
    half a win for a tie, count as fractions). With no success the interval starts at 0
    exactly, with only successes it ends at 1; with ``n == 0`` it is (0, 1): nothing is
    known."""
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"a proportion needs 0 <= successes <= n, not {successes!r} of {n!r}")
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


def mean(values: Sequence[float]) -> float:
    if not values:
        raise ValueError("the mean of no values is undefined")
    return math.fsum(values) / len(values)


def sample_variance(values: Sequence[float]) -> float:
    """The unbiased variance (n - 1 in the denominator); 0 for a single value."""
    n = len(values)
    if n < 2:
        return 0.0
    m = mean(values)
    return math.fsum((x - m) ** 2 for x in values) / (n - 1)


def mean_se(values: Sequence[float]) -> float:
    """The standard error of the mean of ``values`` (0 for fewer than two values)."""
    n = len(values)
    return math.sqrt(sample_variance(values) / n) if n > 1 else 0.0


def se_from_sums(n: int, total: float, total_sq: float) -> float:
    """The standard error of a mean kept as running sums (``n``, sum, sum of squares): the
    search's per-move statistics."""
    if n < 2:
        return 0.0
    m = total / n
    var = max(total_sq / n - m * m, 0.0) * n / (n - 1)
    return math.sqrt(var / n)


def proportion_se(p: float, n: int) -> float:
    """The standard error of a proportion ``p`` measured on ``n`` trials."""
    if n <= 0:
        raise ValueError(f"a proportion needs at least one trial, not {n!r}")
    return math.sqrt(max(p * (1 - p), 0.0) / n)


def normal_interval(estimate: float, se: float, z: float = Z95) -> tuple[float, float]:
    """``estimate ± z·se``."""
    return (estimate - z * se, estimate + z * se)


__all__ = ["Z95", "mean", "mean_se", "normal_interval", "proportion_se", "sample_variance",
           "se_from_sums", "wilson"]
