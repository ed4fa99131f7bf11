"""Question family 7: one strategy against another, over whole simulated games (a bot
tournament through :func:`nidavellir.analysis.simulate.simulate`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...i18n import pgettext
from .results import estimate_from

if TYPE_CHECKING:
    import pandas as pd


def strategy_name(bot: str) -> str:
    """A bot's strategy in the reader's words ("greedy", "gierig"); a bot this table does
    not name keeps its own name (it is notation: the name ``simulate`` takes)."""
    # Translators: a bot's way of playing, in "Win rate of greedy (seat 1) against random".
    names = {"greedy": pgettext("strategy", "greedy"), "random": pgettext("strategy", "random"),
             "heuristic": pgettext("strategy", "heuristic")}
    return names.get(bot, bot)


# ====================================================================== 7. strategies

def strategy_summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per bot: rows (player-games), mean score, sd, se of the mean, win rate (shared
    wins count) with Wilson's 95% interval, from :func:`~.simulate.simulate` rows."""
    import pandas as pd

    rows = []
    for bot, g in df.groupby("bot", sort=False):
        totals = [float(x) for x in g["total"]]
        wins = [1.0 if w else 0.0 for w in g["winner"]]
        score = estimate_from(totals, binary=False)
        win = estimate_from(wins, binary=True)
        sd = float(pd.Series(totals).std()) if len(totals) > 1 else 0.0
        rows.append({"bot": bot, "rows": len(g), "games": g["game"].nunique(),
                     "mean": score.estimate, "sd": sd, "se": score.se,
                     "mean_ci_low": score.ci[0], "mean_ci_high": score.ci[1],
                     "win_rate": win.estimate, "win_ci_low": win.ci[0], "win_ci_high": win.ci[1]})
    return pd.DataFrame(rows)


def strategy_seats(a: str, b: str, players: int) -> list[str]:
    """Seat 1 plays ``a``, every other seat ``b``."""
    return [a] + [b] * (players - 1)


def compare_strategies(a: str = "greedy", b: str = "random", players: int = 3,
                       games: int = 30, seed: int = 0, workers: int = 1
                       ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(summary, rows): ``a`` in seat 1 against ``b`` in every other seat, via
    :func:`~.simulate.simulate`. With ``a == b`` the fair win rate is 1/players."""
    from ..simulate import simulate

    df = simulate(games, players, strategy_seats(a, b, players), seed=seed, workers=workers,
                  progress=False)
    df = df.assign(bot=[f"{bot} (seat 1)" if seat == 0 else bot
                        for bot, seat in zip(df["bot"], df["seat"], strict=True)])
    return strategy_summary(df), df
