"""The lab's questions: each bundles an exact answer (when there is one) and a
simulation of the same thing, by key (:data:`QUESTIONS`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ... import coins as K
from .ages import appears_trial, expected_seen, p_appears
from .bids import bid_tie_trial, p_bid_tie
from .figures import convergence_figure, running_estimates
from .lines import LINE_ASSUMPTION, _line_picks
from .pools import _run
from .results import Distribution, Exact, _distribution_estimate, estimate_from
from .strategies import strategy_seats
from .taverns import p_tavern_shows, round_distribution, round_trial, tavern_trial
from .trades import trade_distribution, trade_trial

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

    from ...game import Game


# ====================================================================== questions (lessons)

@dataclass
class Question:
    """One lesson question: its exact answer and a simulation of the same thing.

    ``sample(trials, seed)`` returns raw outcomes; ``track`` turns one into the number
    whose mean is estimated (0/1 for a probability). ``distribution`` is set for the
    questions whose answer is a whole distribution.
    """

    key: str
    title: str
    params: dict[str, Any]
    exact: Exact | None
    sample: Callable[[int, int | None], list[Any]]
    track: Callable[[Any], float] = float
    binary: bool = True
    distribution: Distribution | None = None
    assumption: str = ""
    y_title: str = "probability"

    def run(self, trials: int = 2_000, seed: int | None = 0, batches: int = 20
            ) -> dict[str, Any]:
        """Simulate and return the estimate, the running-estimate frame and the raw
        outcomes (plus the simulated distribution for distribution questions)."""
        raw = self.sample(trials, seed)
        values = [self.track(x) for x in raw]
        label = self.exact.question if self.exact is not None else self.title
        est = estimate_from(values, label, seed, binary=self.binary, assumption=self.assumption)
        frame = running_estimates(values, batches, self.exact, binary=self.binary)
        out: dict[str, Any] = {"estimate": est, "frame": frame, "raw": raw}
        if self.distribution is not None:
            out["distribution"] = _distribution_estimate(self.distribution.question, raw, seed)
        return out

    def figure(self, frame: pd.DataFrame) -> go.Figure:
        return convergence_figure(frame, self.title, self.exact, self.y_title)


def _sampler(trial: Callable[[random.Random], Any]) -> Callable[[int, int | None], list[Any]]:
    return lambda trials, seed: _run(trial, trials, seed)


def _q_tavern(what: str = "H", n: int | None = None, players: int = 3, age: int = 1,
              game: Game | None = None) -> Question:
    exact = p_tavern_shows(what, n, players, age, game)
    return Question("tavern", "A tavern shows a class", exact.params | {"what": what},
                    exact, _sampler(tavern_trial(what, n, players, age, game)))


def _q_round(what: str = "H", players: int = 3, age: int = 1, game: Game | None = None,
             n: int | None = None) -> Question:
    dist = round_distribution(what, players, age, game, n=n)
    return Question("round", "How many of a class in a round's taverns",
                    dist.params | {"what": what}, dist.exact_mean(),
                    _sampler(round_trial(what, players, age, game, n=n)), binary=False,
                    distribution=dist, y_title="mean count")


def _q_appears(what: str = "W10", players: int = 5, age: int = 2, by_round: int | None = None,
               pioneer: str = "random", game: Game | None = None) -> Question:
    if game is not None:
        players, age = game.config.players, game.state.age
    exact = p_appears(what, players, age, by_round, pioneer)
    trial = appears_trial(what, players, age, by_round, pioneer)
    return Question("appears", "A card appears in an age", exact.params | {"what": what},
                    exact, _sampler(trial), track=lambda x: 1.0 if x else 0.0)


def _q_expected(what: str = "RO", players: int = 3, age: int = 2, by_round: int | None = 2,
                pioneer: str = "random", game: Game | None = None) -> Question:
    if game is not None:
        players, age = game.config.players, game.state.age
    exact = expected_seen(what, players, age, by_round, pioneer)
    trial = appears_trial(what, players, age, by_round, pioneer)
    return Question("expected", "Expected number seen by a round", exact.params | {"what": what},
                    exact, _sampler(trial), binary=False, y_title="mean count")


def _q_line(k: int = 8, players: int = 3, position: int = 1, game: Game | None = None
            ) -> Question:
    if game is not None:
        players = game.config.players
    trial = _line_picks(players, position)
    return Question("line", f"A line within {k} picks (simulation only)",
                    {"k": k, "players": players, "position": position}, None, _sampler(trial),
                    track=lambda x: 1.0 if x <= k else 0.0, assumption=LINE_ASSUMPTION)


def _q_bid_tie(hand_a: Sequence[int | str] = (0, 2, 3, 4, 5),
               hand_b: Sequence[int | str] = (0, 2, 3, 4, 5), tavern: int | None = 0,
               distinct: bool = False, game: Game | None = None, seat: int = 0) -> Question:
    if game is not None:
        players = game.state.players
        other = (seat + 1) % len(players)
        hand_a = [K.label(c) for c in sorted(players[seat].coins())]
        hand_b = [K.label(c) for c in sorted(players[other].coins())]
    exact = p_bid_tie(hand_a, hand_b, tavern, distinct)
    return Question("bid_tie", "Two random bids tie", exact.params | {
        "hand_a": list(hand_a), "hand_b": list(hand_b)}, exact,
        _sampler(bid_tie_trial(hand_a, hand_b, tavern, distinct)))


def _q_trade(hand: Sequence[int | str] | None = (0, 2, 3, 4, 5),
             treasury: Mapping[int, int] | None = None, players: int = 3,
             game: Game | None = None, seat: int = 0) -> Question:
    if game is not None:
        hand = None
    dist = trade_distribution(hand, None, treasury, players, game, seat)
    mode = dist.mode
    return Question("trade", "The coin a trade takes", dist.params | {"mode": mode},
                    dist.exact_p(mode),
                    _sampler(trade_trial(hand, None, treasury, players, game, seat)),
                    track=lambda x, m=mode: 1.0 if x == m else 0.0, distribution=dist)


def _q_strategy(a: str = "greedy", b: str = "random", players: int = 3,
                game: Game | None = None) -> Question:
    if game is not None:
        players = game.config.players

    def sample(trials: int, seed: int | None) -> list[Any]:
        from ..simulate import simulate

        df = simulate(trials, players, strategy_seats(a, b, players), seed=seed or 0,
                      progress=False)
        return [bool(w) for w in df[df["seat"] == 0]["winner"]]
    return Question("strategy", f"Win rate of {a} (seat 1) against {b}",
                    {"a": a, "b": b, "players": players}, None, sample,
                    track=lambda x: 1.0 if x else 0.0,
                    assumption=f"{a} in seat 1, {b} in the other {players - 1} seats; a "
                               "shared first place counts as a win",
                    y_title="win rate")


#: Question factories by key: ``QUESTIONS[key](**params) -> Question``.
QUESTIONS: dict[str, Callable[..., Question]] = {
    "tavern": _q_tavern,
    "round": _q_round,
    "appears": _q_appears,
    "expected": _q_expected,
    "line": _q_line,
    "bid_tie": _q_bid_tie,
    "trade": _q_trade,
    "strategy": _q_strategy,
}


def question(key: str, **params: Any) -> Question:
    """A lesson question by key (see :data:`QUESTIONS`) with its parameters."""
    if key not in QUESTIONS:
        raise ValueError(f"unknown question {key!r}; known: {', '.join(QUESTIONS)}")
    return QUESTIONS[key](**params)
