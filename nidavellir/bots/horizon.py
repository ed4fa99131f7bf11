"""The search's horizon: truncated playouts that stop when age 2 begins (standard library).

A playout from a position of age 1 spends about half of its moves in age 2. With the horizon
on (``hard+cut``, ``SearchBot(horizon=True)``), a playout stops at the first decision of age
2, after the age-1 distinctions, and the position is valued by an estimate of each player's
final score instead:

    estimate = score now + age-2 points predicted from the position (a linear fit)

and each player's chance to win is a softmax of the estimates (:func:`estimate`). The fit
(:mod:`.horizon_fit`) comes from games of the playout policy itself: a linear approximation
of what playing age 2 out would give on average, without the playout's noise and at a
fraction of its cost, but blind to whatever its features miss (a particular hero within
reach, an artifact's later effect). ``benchmarks/fit_horizon.py`` makes it and reports how
good it is (R² 0.31–0.42 of the age-2 points since the playout policy's hero and column
choices of 26 Nov, 0.16–0.33 before: most of them depend on cards not yet drawn);
benchmarks/README.md says how it plays at the same time per decision: clearly weaker (22%
of 60 Thingvellir games against two ``hard``, margin −31), so no level uses it; it stays an
option for study.

The features read only what the state shows; in a search the state is a determinization,
so they hold nothing the searching seat could not know.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .. import coins as K
from ..scoring import score_table, tables_of
from ..state import GameState
from .horizon_fit import COEFFICIENTS

#: The features of one player when age 2 begins (the order of the fitted coefficients).
FEATURES = ("one", "coin1", "coin2", "coin3", "coin4", "coin5", "coin1 - others' best coin1",
            "coins - others' mean", "warrior ranks", "hunter ranks", "miner ranks",
            "blacksmith ranks", "explorer ranks", "lines", "classes at the lowest rank",
            "heroes - lines", "gem", "command zone cards", "score now - others' best")


def features(state: GameState, now: Sequence[float]) -> list[list[float]]:
    """Every player's :data:`FEATURES`, given the points each would score now (``now``)."""
    players = state.players
    coins = []
    for p in players:
        values = sorted((K.value(c) for c in p.coins()), reverse=True)[:5]
        coins.append(values + [0] * (5 - len(values)))
    sums = [sum(c) for c in coins]
    n = len(players)
    out = []
    for i, p in enumerate(players):
        c = coins[i]
        others = [j for j in range(n) if j != i]
        ranks = p.ranks
        lines = min(ranks)
        out.append([
            1.0, *c, c[0] - max(coins[j][0] for j in others),
            sums[i] - sum(sums[j] for j in others) / len(others),
            *ranks, lines, ranks.count(lines), p.heroes - lines, p.gem, len(p.command_zone),
            now[i] - max(now[j] for j in others),
        ])
    return out


def estimate(state: GameState
             ) -> tuple[list[float], list[float], list[float], list[dict[str, int]]]:
    """(estimated final totals, win chances, margins over the best opponent, the score
    sheet's categories now) of every player, from a position in which age 2 has begun."""
    sheet = score_table(tables_of(state, copy=False), state.config.options, details=False)
    now = [float(p.total) for p in sheet.players]
    beta, tau = COEFFICIENTS[(state.config.players, state.config.thingvellir)]
    totals = [score + sum(b * x for b, x in zip(beta, row, strict=True))
              for score, row in zip(now, features(state, now), strict=True)]
    best = max(totals)
    weights = [math.exp((t - best) / tau) for t in totals]
    norm = sum(weights)
    wins = [w / norm for w in weights]
    margins = [t - max(u for j, u in enumerate(totals) if j != i) for i, t in enumerate(totals)]
    return totals, wins, margins, [p.breakdown for p in sheet.players]
