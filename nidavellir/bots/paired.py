"""The judged games: every option of a decision played out on the same games (common random
numbers), and the figures they give with their standard errors: an option's estimate and
the paired difference between two options (:mod:`.judge`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from .. import cards as C
from ..actions import Action
from ..cards import Card, Kind
from ..determinize import determinize_state, heuristic_bid_model
from ..engine import Engine
from ..game import Game
from ..observer import known_places
from ..scoring import CATEGORIES
from ..state import GameState
from .playout import heuristic_policy
from .tree import RootStats, outcome, reward

#: Standard errors within which a paired difference is noise ("about as good").
NOISE = 2.0


@dataclass
class Estimate:
    """What an option leads to for the deciding player: means over the judged games."""

    n: int
    """Games judged (1 for an exact option)."""
    win: float
    """Chance to win (a tie for first counts as a share): the figure options are ranked by."""
    win_se: float
    score: float
    """Expected final score."""
    score_se: float
    margin: float
    """Expected final lead over the best opponent (negative: behind)."""
    value: float
    """The search's own objective (0.7 win + 0.3 scaled margin), for analysts."""
    categories: dict[str, float]
    """Expected final points per score-sheet category (they add up to ``score``)."""
    distinctions: dict[str, float] = field(default_factory=dict)
    """Share of the judged games in which the player holds each distinction at the end."""
    heroes: dict[str, float] = field(default_factory=dict)
    """Share of the judged games in which the player has recruited each hero by the end."""
    coins: float = 0.0
    """Expected sum of the final coins."""


@dataclass
class Difference:
    """A paired difference (the best move less another) and its standard error."""

    value: float
    se: float

    @property
    def clear(self) -> bool:
        """Beyond the noise: more than :data:`NOISE` standard errors (exact: not zero)."""
        if self.se <= 0:
            return abs(self.value) > 1e-9
        return abs(self.value) > NOISE * self.se


CATEGORY_INDEX = {k: i for i, k in enumerate(CATEGORIES)}


@dataclass(slots=True)
class Sample:
    """One judged game, seen by the deciding player (and every player's total and win)."""

    score: int
    win: float
    margin: float
    breakdown: tuple[int, ...]
    """Points by category, in the order of :data:`~nidavellir.scoring.CATEGORIES`."""
    distinctions: frozenset[str]
    heroes: frozenset[str]
    coins: int
    totals: tuple[int, ...]
    wins: tuple[float, ...]


def sample(state: GameState, me: int) -> Sample:
    """A finished judged game, seen by ``me``."""
    totals, wins, margins, breakdowns = outcome(state)
    p = state.players[me]
    owned = p.cards()
    return Sample(score=totals[me], win=wins[me], margin=margins[me], breakdown=tuple(breakdowns[me][k] for k in CATEGORIES),
                   distinctions=frozenset(c.name for c in owned if c.kind is Kind.DISTINCTION),
                   heroes=frozenset(hero_name(c) for c in owned if c.kind is Kind.HERO),
                   coins=sum(v >> 2 for v in p.coins()), totals=tuple(totals),
                   wins=tuple(wins))


def hero_name(card: Card) -> str:
    """A recruited hero as the coach names it."""
    # The five brothers are one hero to the coach: any of them is worth the same.
    return "a Dwerg brother" if card in C.DWERG_BROTHERS else card.name


def mean_se(values: Sequence[float]) -> tuple[float, float]:
    """(mean, standard error of the mean)."""
    n = len(values)
    m = math.fsum(values) / n
    if n < 2:
        return m, 0.0
    var = math.fsum((x - m) ** 2 for x in values) / (n - 1)
    return m, math.sqrt(var / n)


def estimate(samples: Sequence[Sample], stats: Stats | None, exact: bool = False,
              value: float | None = None) -> Estimate:
    """An option's figures over every game after it: the search's (``stats``) and the
    paired ones (``samples``); the distinctions and heroes from the paired games."""
    n_v = len(samples)
    n_s = 0 if stats is None else stats.n
    n = n_v + n_s
    win, win_se = pooled(part(stats, samples, "win"))
    score, score_se = pooled(part(stats, samples, "score"))
    margin = math.fsum(s.margin for s in samples) + (stats.margin if n_s and stats else 0.0)
    own = math.fsum(reward(s.win, s.margin) for s in samples)
    categories = {k: (math.fsum(s.breakdown[CATEGORY_INDEX[k]] for s in samples)
                      + (stats.categories[k] if n_s and stats else 0.0)) / n
                  for k in CATEGORIES}
    distinctions: dict[str, float] = {}
    heroes: dict[str, float] = {}
    for s in samples:
        for d in s.distinctions:
            distinctions[d] = distinctions.get(d, 0.0) + 1 / n_v
        for h in s.heroes:
            heroes[h] = heroes.get(h, 0.0) + 1 / n_v
    if exact:
        win_se = score_se = 0.0
    return Estimate(n=n, win=win, win_se=win_se, score=score, score_se=score_se,
                    margin=margin / n,
                    value=(own + (value or 0.0) * n_s) / n, categories=categories,
                    distinctions=distinctions, heroes=heroes,
                    coins=math.fsum(s.coins for s in samples) / n_v)


def paired(a: Sequence[float], b: Sequence[float]) -> Difference:
    """The mean difference of two figures game by game (the same games), with its error."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    m, se = mean_se(d)
    return Difference(m, se)


class Games:
    """The judgement's paired games: the same determinizations and random numbers for every
    option, each option applied and the game played to its end with the search's playout
    policy (common random numbers)."""

    def __init__(self, game: Game, me: int, seeds: Sequence[int]) -> None:
        self.state = game.state
        self.me = me
        self.seeds = list(seeds)
        self.shown, self.purse = known_places(game.events, me)

    def run(self, action: Action) -> list[Sample]:
        out = []
        me = self.me
        for seed in self.seeds:
            rng = random.Random(seed)
            state = determinize_state(self.state, me, rng, self.shown, self.purse,
                                      heuristic_bid_model)
            eng = Engine(state, quiet=True)
            eng.apply(action, check=False)
            eng.play_out(heuristic_policy, rng)
            out.append(sample(state, me))
        return out


#: The search's statistics of one root move, with the sums of squares the judgement's
#: standard errors need (:class:`~.tree.RootStats` keeps them).
Stats = RootStats


#: A figure of one option: (the search's games: count, sum, sum of squares; the value in
#: each paired game).
Part = tuple[int, float, float, list[float]]


def part(stats: Stats | None, samples: Sequence[Sample], figure: str) -> Part:
    """One figure of an option over the search's games and the paired ones."""
    values = [figure_of(s, figure) for s in samples]
    if stats is None or not stats.n:
        return (0, 0.0, 0.0, values)
    if figure == "win":
        return (stats.n, stats.win, stats.win2, values)
    if figure == "score":
        return (stats.n, stats.score, stats.score2, values)
    return (stats.n, stats.categories[figure], stats.categories2[figure], values)


def figure_of(s: Sample, figure: str) -> float:
    """One figure of a judged game: ``win``, ``score`` or a score-sheet category's points."""
    if figure == "win":
        return s.win
    if figure == "score":
        return float(s.score)
    return float(s.breakdown[CATEGORY_INDEX[figure]])


def pooled(p: Part) -> tuple[float, float]:
    """(mean, standard error) of a figure over every game after the move."""
    n_s, total, squares, values = p
    n = n_s + len(values)
    total += math.fsum(values)
    squares += math.fsum(v * v for v in values)
    mean = total / n
    if n < 2:
        return mean, 0.0
    var = max(squares / n - mean * mean, 0.0) * n / (n - 1)
    return mean, math.sqrt(var / n)


def difference(a: Part, b: Part) -> Difference:
    """The pooled figure of option a less option b, with its standard error: the search's
    games of each option are independent samples; the paired games are compared pair by
    pair (common random numbers), which takes the deal's own luck out of the difference."""
    (na_s, ta, qa, va), (nb_s, tb, qb, vb) = a, b
    na, nb = na_s + len(va), nb_s + len(vb)
    value = (ta + math.fsum(va)) / na - (tb + math.fsum(vb)) / nb
    var = 0.0
    for n_s, t, q, n in ((na_s, ta, qa, na), (nb_s, tb, qb, nb)):
        if n_s > 1:
            m = t / n_s
            var += n_s * (max(q / n_s - m * m, 0.0) * n_s / (n_s - 1)) / (n * n)
    d = [x / na - y / nb for x, y in zip(va, vb, strict=True)]
    if len(d) > 1:
        var += len(d) * mean_se(d)[1] ** 2 * len(d)
    return Difference(value, math.sqrt(var))


__all__ = ["NOISE", "Difference", "Estimate", "Games", "Part", "Sample", "Stats", "difference",
           "estimate", "figure_of", "hero_name", "mean_se", "paired", "part", "pooled", "sample"]
