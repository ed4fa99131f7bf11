"""What a probability question answers: an exact value (:class:`Exact`, a
:class:`Distribution`) or a simulated one (:class:`Estimate`, :class:`DistributionEstimate`).

Intervals and standard errors come from :mod:`nidavellir.stats`, written once.
"""

from __future__ import annotations

import html
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ...i18n import _
from ...stats import mean_se, normal_interval, proportion_se, wilson

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True, repr=False)
class Exact:
    """An exact answer: a probability or an expectation, as a Fraction."""

    question: str
    value: Fraction
    formula: str = ""
    params: dict[str, Any] = field(default_factory=dict)

    def __float__(self) -> float:
        return float(self.value)

    @property
    def as_float(self) -> float:
        return float(self.value)

    def __str__(self) -> str:
        return f"{self.question}: {self.value} ≈ {float(self.value):.4f}"

    def __repr__(self) -> str:
        return f"<Exact {self}>"

    def _repr_html_(self) -> str:
        return (f"<b>{_esc(self.question)}</b> = <b>{self.value}</b> ≈ {float(self.value):.4f}"
                f"<br><span style='color:#555'>{_esc(self.formula)}</span>")


@dataclass(frozen=True, repr=False)
class Estimate:
    """A Monte Carlo estimate of a mean (a probability when the outcomes are 0/1).

    ``ci`` is a 95% interval: Wilson's score interval for 0/1 outcomes, the normal
    interval ``estimate ± 1.96 se`` otherwise. ``se`` is the standard error of the mean.
    """

    question: str
    estimate: float
    se: float
    ci: tuple[float, float]
    n: int
    seed: int | None = None
    binary: bool = True
    assumption: str = ""

    @property
    def ci_low(self) -> float:
        return self.ci[0]

    @property
    def ci_high(self) -> float:
        return self.ci[1]

    def contains(self, value: float | Fraction | Exact) -> bool:
        v = float(value)
        return self.ci[0] <= v <= self.ci[1]

    def z(self, value: float | Fraction | Exact) -> float:
        """How many standard errors the estimate lies from ``value``."""
        diff = self.estimate - float(value)
        if self.se == 0:
            return 0.0 if diff == 0 else math.inf
        return diff / self.se

    def __str__(self) -> str:
        return (f"{self.question}: {self.estimate:.4f} ± {self.se:.4f} "
                f"(95% CI {self.ci[0]:.4f}–{self.ci[1]:.4f}, n = {self.n})")

    def __repr__(self) -> str:
        return f"<Estimate {self}>"

    def _repr_html_(self) -> str:
        return (f"<b>{_esc(self.question)}</b> ≈ <b>{self.estimate:.4f}</b> ± {self.se:.4f} "
                f"(95% interval {self.ci[0]:.4f} – {self.ci[1]:.4f}, {self.n} simulations)")


def _esc(text: str) -> str:
    return html.escape(text)


def side_by_side(exact: Exact, estimate: Estimate) -> pd.DataFrame:
    """One row: the exact answer next to its simulated estimate, interval and z-score."""
    import pandas as pd

    return pd.DataFrame([{
        "question": exact.question, "exact": str(exact.value), "exact ≈": float(exact),
        "estimate": estimate.estimate, "se": estimate.se, "ci_low": estimate.ci[0],
        "ci_high": estimate.ci[1], "n": estimate.n, "z": estimate.z(exact),
        "inside the interval": estimate.contains(exact),
    }]).set_index("question")


@dataclass(frozen=True)
class Distribution:
    """An exact probability distribution: outcome -> Fraction (summing to 1)."""

    question: str
    pmf: dict[Any, Fraction]
    formula: str = ""
    params: dict[str, Any] = field(default_factory=dict)

    def p(self, outcome: Any) -> Fraction:
        return self.pmf.get(outcome, Fraction(0))

    @property
    def mode(self) -> Any:
        return max(self.pmf, key=lambda k: (self.pmf[k], -outcome_key(k)[1]))

    @property
    def mean(self) -> Fraction:
        """The expectation (numeric outcomes; ``None`` outcomes are left out)."""
        return sum((Fraction(k) * p for k, p in self.pmf.items() if k is not None), Fraction(0))

    def exact_p(self, outcome: Any) -> Exact:
        return Exact(f"{self.question}: P(X = {format_outcome(outcome)})", self.p(outcome),
                     self.formula, self.params)

    def exact_mean(self) -> Exact:
        return Exact(f"{self.question}: E[X]", self.mean, _("sum of k·P(X = k)"), self.params)

    def frame(self) -> pd.DataFrame:
        import pandas as pd

        keys = sorted(self.pmf, key=outcome_key)
        return pd.DataFrame({
            "outcome": [format_outcome(k) for k in keys],
            "exact": [str(self.pmf[k]) for k in keys],
            "probability": [float(self.pmf[k]) for k in keys],
        })


@dataclass(frozen=True)
class DistributionEstimate:
    """Simulated frequencies of each outcome, with standard errors and 95% CIs."""

    question: str
    counts: dict[Any, int]
    n: int
    seed: int | None = None

    def estimate(self, outcome: Any) -> Estimate:
        return estimate_from([1.0 if x else 0.0 for x in self._indicator(outcome)],
                             f"{self.question}: P(X = {format_outcome(outcome)})", self.seed, binary=True)

    def _indicator(self, outcome: Any) -> list[bool]:
        k = self.counts.get(outcome, 0)
        return [True] * k + [False] * (self.n - k)

    def frame(self, exact: Distribution | None = None) -> pd.DataFrame:
        import pandas as pd

        keys = set(self.counts) | (set(exact.pmf) if exact else set())
        rows = []
        for k in sorted(keys, key=outcome_key):
            e = self.estimate(k)
            row = {"outcome": format_outcome(k), "estimate": e.estimate, "se": e.se,
                   "ci_low": e.ci[0], "ci_high": e.ci[1]}
            if exact is not None:
                row["exact"] = float(exact.p(k))
            rows.append(row)
        return pd.DataFrame(rows)


def outcome_key(k: Any) -> tuple[int, float]:
    return (0, -1.0) if k is None else (1, float(k))


def format_outcome(k: Any) -> str:
    return _("no coin") if k is None else str(k)


def estimate_from(outcomes: Sequence[float], question: str = "", seed: int | None = None,
                  binary: bool | None = None, assumption: str = "") -> Estimate:
    """The mean of simulated outcomes with its standard error and a 95% interval.

    ``binary`` (guessed from the data when None) chooses Wilson's interval for 0/1
    outcomes and the normal interval for other numbers.
    """
    n = len(outcomes)
    if n == 0:
        raise ValueError("no simulated outcomes: run at least one simulation")
    if binary is None:
        binary = all(x in (0, 1) for x in outcomes)
    mean = math.fsum(outcomes) / n
    if binary:
        se = proportion_se(mean, n)
        ci = wilson(mean * n, n)
    else:
        se = mean_se(outcomes)
        ci = normal_interval(mean, se)
    return Estimate(question, mean, se, ci, n, seed, binary, assumption)


def distribution_estimate(question: str, outcomes: Iterable[Any], seed: int | None
                           ) -> DistributionEstimate:
    values = list(outcomes)
    return DistributionEstimate(question, dict(Counter(values)), len(values), seed)
