"""The law of large numbers on screen: running estimates after each batch of simulations,
and the figures (convergence with its 95% band, exact vs simulated distributions)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from ...i18n import N_, _, number, percent
from ...stats import normal_interval, proportion_se, se_from_sums, wilson
from .results import Distribution, DistributionEstimate, Exact

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go


# ====================================================================== convergence

def running_estimates(outcomes: Sequence[float], batches: int = 20,
                      exact: float | Fraction | Exact | None = None,
                      binary: bool | None = None) -> pd.DataFrame:
    """The running estimate after each batch of simulations (law of large numbers).

    Columns: batch, n (simulations so far), estimate, se, ci_low, ci_high, exact
    (NaN when there is no exact answer).
    """
    import pandas as pd

    total = len(outcomes)
    if total == 0:
        raise ValueError("no simulated outcomes")
    batches = max(1, min(batches, total))
    if binary is None:
        binary = all(x in (0, 1) for x in outcomes)
    cuts = sorted({max(1, round(total * (i + 1) / batches)) for i in range(batches)})
    exact_f = float(exact) if exact is not None else math.nan
    rows = []
    s = s2 = 0.0
    done = 0
    for i, cut in enumerate(cuts, start=1):
        for x in outcomes[done:cut]:
            s += x
            s2 += x * x
        done = cut
        mean = s / done
        if binary:
            se = proportion_se(mean, done)
            low, high = wilson(s, done)
        else:
            se = se_from_sums(done, s, s2)
            low, high = normal_interval(mean, se)
        rows.append({"batch": i, "n": done, "estimate": mean, "se": se, "ci_low": low,
                     "ci_high": high, "exact": exact_f})
    return pd.DataFrame(rows)


def convergence_figure(frame: pd.DataFrame, title: str | None = None,
                       exact: float | Fraction | Exact | None = None,
                       y_title: str = N_("estimate")) -> go.Figure:
    """Running estimate (line) with its 95% band, and the exact value as a dashed line
    (``y_title``: a message marked with ``N_``, translated here)."""
    import plotly.graph_objects as go

    from ...palette import CLASS_COLOURS

    colour = CLASS_COLOURS["E"]
    n = list(frame["n"])
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=n + n[::-1], y=list(frame["ci_high"]) + list(frame["ci_low"])[::-1],
                             fill="toself", fillcolor="rgba(36,113,163,0.18)",
                             line={"width": 0}, hoverinfo="skip",
                             # Translators: the band around the estimate, "95% interval".
                             name=_("{level} interval").format(level=percent(0.95))))
    fig.add_trace(go.Scatter(x=n, y=list(frame["estimate"]), mode="lines+markers",
                             line={"color": colour}, name=_("running estimate")))
    if exact is None and "exact" in frame and frame["exact"].notna().any():
        exact = float(frame["exact"].iloc[0])
    if exact is not None:
        value = float(exact)
        fig.add_trace(go.Scatter(x=[n[0], n[-1]], y=[value, value], mode="lines",
                                 line={"color": CLASS_COLOURS["W"], "dash": "dash"},
                                 name=_("exact {value}").format(value=number(value, 4))))
    fig.update_layout(title=title or _("Convergence of the estimate"),
                      xaxis_title=_("simulations"), yaxis_title=_(y_title),
                      template="plotly_white", height=360, margin={"l": 50, "r": 20, "t": 50, "b": 40},
                      legend={"orientation": "h", "y": -0.2})
    return fig


def distribution_figure(exact: Distribution | None, estimate: DistributionEstimate | None,
                        title: str | None = None) -> go.Figure:
    """Bars: exact probabilities next to simulated frequencies (with 95% error bars)."""
    import plotly.graph_objects as go

    from ...palette import CLASS_COLOURS

    fig = go.Figure()
    if exact is not None:
        df = exact.frame()
        fig.add_trace(go.Bar(x=df["outcome"], y=df["probability"], name=_("exact"),
                             marker_color=CLASS_COLOURS["W"]))
    if estimate is not None:
        df = estimate.frame(exact)
        fig.add_trace(go.Bar(x=df["outcome"], y=df["estimate"], name=_("simulated"),
                             marker_color=CLASS_COLOURS["E"],
                             error_y={"type": "data", "symmetric": False,
                                      "array": list(df["ci_high"] - df["estimate"]),
                                      "arrayminus": list(df["estimate"] - df["ci_low"])}))
    fig.update_layout(title=title or _("Distribution"), barmode="group",
                      xaxis_title=_("outcome"), yaxis_title=_("probability"), template="plotly_white", height=340,
                      xaxis={"type": "category"}, margin={"l": 50, "r": 20, "t": 50, "b": 40})
    return fig
