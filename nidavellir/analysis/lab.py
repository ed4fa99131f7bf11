"""Strategy questions over many simulated games (the strategy lab, issue 15).

Every function takes the rows of :func:`nidavellir.analysis.simulate.simulate` (or of a
partitioned folder read with :func:`~nidavellir.analysis.simulate.read_dir`) and returns a
tidy DataFrame; each ``*_figure`` turns that frame into a Plotly figure. The notebook
``notebooks/05_strategy_lab.ipynb`` only calls them.

>>> from nidavellir.analysis.simulate import simulate
>>> rows = simulate(20, 3, "random", seed=1, progress=False)
>>> list(heroes_table(rows).columns)
['hero', 'games', 'win_rate', 'mean_total', 'win_rate_without', 'lift']
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .. import cards as C
from ..cards import SUITS
from ..stats import wilson

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

CLASS_NAMES = {s.letter: s.column_name.capitalize() + "s" for s in SUITS}


def _check(rows: pd.DataFrame, *columns: str) -> None:
    missing = [c for c in columns if c not in rows.columns]
    if missing:
        raise ValueError(f"the rows lack column(s) {', '.join(missing)}: simulate them again "
                         "with this version (nidavellir simulate)")
    if rows.empty:
        raise ValueError("no rows: simulate some games first")


def _tokens(column: pd.Series) -> pd.Series:
    return column.fillna("").astype(str).str.split(";").map(lambda xs: [x for x in xs if x])


def heroes_table(rows: pd.DataFrame, min_games: int = 1) -> pd.DataFrame:
    """Win rate and mean final score of the players who recruited each hero, against the
    win rate of those who did not (``lift`` = the difference)."""
    import pandas as pd

    _check(rows, "heroes_recruited", "winner", "total")
    owned = rows.assign(hero=_tokens(rows["heroes_recruited"])).explode("hero")
    owned = owned[owned["hero"].notna() & (owned["hero"] != "")]
    n = len(rows)
    wins = float(rows["winner"].sum())
    out = []
    for hero, group in owned.groupby("hero"):
        games = len(group)
        if games < min_games:
            continue
        rate = float(group["winner"].mean())
        without = (wins - float(group["winner"].sum())) / max(n - games, 1)
        out.append({"hero": hero, "games": games, "win_rate": rate,
                    "mean_total": float(group["total"].mean()), "win_rate_without": without,
                    "lift": rate - without})
    frame = pd.DataFrame(out, columns=["hero", "games", "win_rate", "mean_total",
                                       "win_rate_without", "lift"])
    return frame.sort_values("lift", ascending=False, kind="stable").reset_index(drop=True)


def distinctions_table(rows: pd.DataFrame) -> pd.DataFrame:
    """For each distinction: how often it was won, and the win rate and mean score of its
    holders against everybody else (the value of the card in final points)."""
    import pandas as pd

    _check(rows, "distinctions", "winner", "total")
    held = _tokens(rows["distinctions"])
    out = []
    for card in C.DISTINCTIONS:
        mask = held.map(lambda xs, t=card.token: t in xs)
        holders, others = rows[mask], rows[~mask]
        games = rows["game"].nunique() if "game" in rows else len(rows)
        out.append({
            "distinction": card.token, "awarded_share": len(holders) / max(games, 1),
            "win_rate": float(holders["winner"].mean()) if len(holders) else math.nan,
            "win_rate_without": float(others["winner"].mean()) if len(others) else math.nan,
            "mean_total": float(holders["total"].mean()) if len(holders) else math.nan,
            "points_over_others": (float(holders["total"].mean() - others["total"].mean())
                                   if len(holders) and len(others) else math.nan),
        })
    return pd.DataFrame(out)


def coins_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Final coin sum and highest coin against the final score, with the correlations."""
    _check(rows, "coin_sum", "highest_coin", "total", "winner")
    frame = rows[["coin_sum", "highest_coin", "total", "winner", "bot"]].copy()
    frame.attrs["corr_coin_sum"] = float(frame["coin_sum"].corr(frame["total"]))
    frame.attrs["corr_highest_coin"] = float(frame["highest_coin"].corr(frame["total"]))
    return frame


def bid_styles(rows: pd.DataFrame) -> pd.DataFrame:
    """Where the exchange coin went: players grouped by the share of taverns on which they
    bid it (0 or 3*; otherwise it stayed in the purse and traded nothing), with win rate
    and mean score per group."""
    import pandas as pd

    _check(rows, "exchange_bids", "bids", "winner", "total")
    share = rows["exchange_bids"] / rows["bids"].where(rows["bids"] > 0)
    bins = [-0.001, 0.25, 0.5, 0.75, 1.0]
    labels = ["rarely (<=25%)", "sometimes (25-50%)", "often (50-75%)", "nearly always (>75%)"]
    style = pd.cut(share, bins=bins, labels=labels)
    grouped = rows.assign(style=style).groupby("style", observed=False)
    out = grouped.agg(players=("winner", "size"), win_rate=("winner", "mean"),
                      mean_total=("total", "mean"), mean_coin_sum=("coin_sum", "mean"))
    return out.reset_index()


def first_age_mix(rows: pd.DataFrame) -> pd.DataFrame:
    """Mean ranks per class at the end of age 1, winners against the others."""
    import pandas as pd

    cols = [f"age1_{s.letter}" for s in SUITS]
    _check(rows, *cols, "winner")
    out = []
    for winner, group in rows.groupby("winner"):
        for col in cols:
            letter = col[-1]
            out.append({"group": "winners" if winner else "others",
                        "class": CLASS_NAMES[letter], "mean_ranks": float(group[col].mean())})
    return pd.DataFrame(out)


def bots_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Per bot: seats played, win rate with its 95% Wilson interval, mean score."""
    import pandas as pd

    _check(rows, "bot", "winner", "total")
    out = []
    for bot, group in rows.groupby("bot"):
        wins = float(group["winner"].sum())
        low, high = wilson(wins, len(group))
        out.append({"bot": bot, "seats": len(group), "win_rate": wins / len(group),
                    "win_low": low, "win_high": high, "mean_total": float(group["total"].mean())})
    return pd.DataFrame(out).sort_values("win_rate", ascending=False).reset_index(drop=True)


# ---------------------------------------------------------------------- figures

def heroes_figure(table: pd.DataFrame) -> go.Figure:
    import plotly.graph_objects as go

    fig = go.Figure(go.Bar(x=table["hero"], y=table["lift"] * 100,
                           customdata=table[["games", "win_rate", "mean_total"]],
                           hovertemplate="%{x}: win rate %{customdata[1]:.0%} over "
                                         "%{customdata[0]} games, mean %{customdata[2]:.0f} "
                                         "points<extra></extra>"))
    fig.update_layout(title="Win-rate lift by hero recruited (points of %)",
                      yaxis_title="win rate with − without (%)", xaxis_title="hero")
    return fig


def distinctions_figure(table: pd.DataFrame) -> go.Figure:
    import plotly.graph_objects as go

    fig = go.Figure(go.Bar(x=table["distinction"], y=table["points_over_others"],
                           hovertemplate="%{x}: holders score %{y:+.1f} points<extra></extra>"))
    fig.update_layout(title="What a distinction is worth: holders' mean score over the others",
                      yaxis_title="points")
    return fig


def coins_figure(frame: pd.DataFrame) -> go.Figure:
    import plotly.graph_objects as go

    fig = go.Figure()
    for winner, group in frame.groupby("winner"):
        fig.add_trace(go.Scattergl(x=group["coin_sum"], y=group["total"], mode="markers",
                                   name="winners" if winner else "others", opacity=0.5))
    r = frame.attrs.get("corr_coin_sum", float("nan"))
    fig.update_layout(title=f"Final coin sum vs final score (r = {r:.2f})",
                      xaxis_title="coin sum", yaxis_title="final score")
    return fig


def bid_styles_figure(table: pd.DataFrame) -> go.Figure:
    import plotly.graph_objects as go

    fig = go.Figure(go.Bar(x=table["style"].astype(str), y=table["win_rate"] * 100,
                           customdata=table[["players", "mean_total"]],
                           hovertemplate="%{x}: %{y:.0f}% wins, %{customdata[0]} players, "
                                         "mean %{customdata[1]:.0f}<extra></extra>"))
    fig.update_layout(title="Bidding the exchange coin: win rate by how often",
                      yaxis_title="win rate (%)")
    return fig


def first_age_figure(table: pd.DataFrame) -> go.Figure:
    import plotly.graph_objects as go

    fig = go.Figure()
    for group, part in table.groupby("group"):
        fig.add_trace(go.Bar(x=part["class"], y=part["mean_ranks"], name=str(group)))
    fig.update_layout(title="Ranks per class at the end of age 1", barmode="group",
                      yaxis_title="mean ranks")
    return fig


def bots_figure(table: pd.DataFrame) -> go.Figure:
    import plotly.graph_objects as go

    fig = go.Figure(go.Bar(
        x=table["bot"], y=table["win_rate"] * 100,
        error_y={"type": "data", "symmetric": False,
                 "array": (table["win_high"] - table["win_rate"]) * 100,
                 "arrayminus": (table["win_rate"] - table["win_low"]) * 100}))
    fig.update_layout(title="Win rate by bot (95% interval)", yaxis_title="win rate (%)")
    return fig
