"""Probability lessons: exact answers from the deck composition next to Monte Carlo.

Every question has an **exact** answer (a :class:`fractions.Fraction`, with a float
view) computed by counting, and a **seeded simulation** of the same question that
returns an :class:`Estimate` (estimate, standard error, 95% confidence interval, number
of simulations). A lesson shows both side by side, and :func:`running_estimates` /
:func:`convergence_figure` show the law of large numbers at work.

>>> p = p_tavern_shows("H", n=3, players=3, age=1)
>>> p.value == 1 - Fraction(comb(30, 3), comb(36, 3))
True
>>> est = simulate_tavern_shows("H", n=3, players=3, age=1, trials=4000, seed=1)
>>> abs(est.estimate - float(p)) < 4 * est.se
True

**What a player knows in a live game.** The order of the age deck is hidden, so the
questions about a live game (``game=``) use the *unseen pool*: the age deck's box
composition minus every card of that deck a player has seen: the cards dealt into the
taverns this age (``RoundStarted`` events), and in age 2 the card Pioneer of the
Kingdom kept or the top card discarded when nobody won it. The Pioneer's own private
view (the 2 cards they saw and shuffled back) is not used. Because the deck is a
uniformly shuffled part of the unseen pool, the next deal is distributed like a draw
from that pool, even when a card went to the box unseen (R3 option).

Targets: a class (``"H"``, ``"hunter"``, :class:`~nidavellir.cards.Suit`), a card token
(``"W10"``, ``"+3"``), or ``"RO"`` for any Royal Offering.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Any

from .. import cards as C
from .. import coins as K
from .. import events as ev
from ..cards import Card, Kind, Suit
from ..stats import Z95, mean_se, normal_interval, proportion_se, se_from_sums, wilson

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

    from ..game import Game

__all__ = [
    "Z95", "Exact", "Estimate", "Distribution", "DistributionEstimate", "Target", "target",
    "box_pool", "unseen_pool", "pool_for", "deck_composition",
    "p_tavern_shows", "simulate_tavern_shows",
    "round_distribution", "simulate_round_distribution",
    "p_appears", "simulate_appears", "expected_seen", "simulate_expected_seen",
    "seen_by_round",
    "simulate_line", "line_curve", "LINE_ASSUMPTION",
    "p_bid_tie", "simulate_bid_tie",
    "trade_distribution", "simulate_trade",
    "compare_strategies", "strategy_summary",
    "estimate_from", "side_by_side", "running_estimates", "convergence_figure", "distribution_figure",
    "Question", "question", "QUESTIONS",
]

#: The 97.5% quantile of the standard normal distribution (95% two-sided intervals).
PIONEER_POLICIES = ("random", "takes_it")


# ====================================================================== results

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
    import html

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
        return Exact(f"{self.question}: E[X]", self.mean, "sum of k·P(X = k)", self.params)

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
    return "no coin" if k is None else str(k)


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


# ====================================================================== targets and pools

@dataclass(frozen=True)
class Target:
    """What a question counts: a class, one card type, or the Royal Offerings."""

    label: str
    test: Callable[[Card], bool] = field(compare=False)

    def count(self, pool: Mapping[Card, int]) -> int:
        return sum(n for c, n in pool.items() if self.test(c))


def target(spec: Target | Suit | Card | str) -> Target:
    """A :class:`Target` from a class (``"H"``, ``"hunters"``, a Suit), a card token
    (``"W10"``, ``"+5"``) or ``"RO"`` (any Royal Offering)."""
    if isinstance(spec, Target):
        return spec
    if isinstance(spec, Suit):
        return Target(f"{spec.column_name}s ({spec.letter})",
                      lambda c, s=spec: c.kind is Kind.DWARF and c.suit is s)
    if isinstance(spec, Card):
        return Target(spec.token, lambda c, card=spec: c is card)
    text = str(spec).strip()
    if text.lower() in ("ro", "royal", "royal offering", "royal offerings"):
        return Target("Royal Offerings", lambda c: c.kind is Kind.ROYAL_OFFERING)
    try:
        return target(Suit.parse(text))
    except ValueError:
        pass
    try:
        return target(C.card(text))
    except KeyError:
        raise ValueError(f"unknown target {spec!r}: expected a class (W, H, M, B, E), a card "
                         "token such as W10 or +3, or RO") from None


def box_pool(players: int, age: int) -> Counter[Card]:
    """The composition of an age deck for a player count, straight from the box."""
    return Counter(C.age_deck(age, players))


def unseen_pool(game: Game, age: int | None = None) -> Counter[Card]:
    """The cards of an age deck no player has seen yet (public information only; see the
    module docstring). ``age`` defaults to the game's current age."""
    age = game.state.age if age is None else age
    pool = box_pool(game.config.players, age)
    seen: Counter[Card] = Counter()
    for e in game.events:
        if isinstance(e, ev.RoundStarted) and e.age == age:
            for tavern in e.taverns:
                seen.update(tavern)
        elif age == 2 and isinstance(e, ev.CardTaken) and e.source.startswith("Pioneer"):
            seen[e.card] += 1
        elif age == 2 and isinstance(e, ev.CardDiscarded) and e.reason.startswith("Pioneer"):
            seen[e.card] += 1
    return pool - seen


def pool_for(players: int = 3, age: int = 1, game: Game | None = None
             ) -> tuple[Counter[Card], int, int, str]:
    """(pool, players, age, source): the box deck, or a live game's unseen pool (the
    next age's box deck once the current one is used up)."""
    if game is None:
        C.check_players(players)
        if age not in (1, 2):
            raise ValueError(f"age must be 1 or 2, not {age!r}")
        return box_pool(players, age), players, age, f"the age {age} deck for {players} players"
    players = game.config.players
    age = game.state.age
    pool = unseen_pool(game, age)
    if sum(pool.values()) == 0 and age == 1:
        age = 2
        pool = unseen_pool(game, age)
    return pool, players, age, (f"the {sum(pool.values())} unseen cards of the age {age} deck "
                                f"(game seed {game.seed}, round {game.state.round})")


def deck_composition(age: int = 1) -> pd.DataFrame:
    """Cards of each class in one age deck, with 2–4 players and with 5 (cards.md §1(a))."""
    import pandas as pd

    rows = []
    for label, spec in [("warriors (W)", "W"), ("hunters (H)", "H"), ("miners (M)", "M"),
                        ("blacksmiths (B)", "B"), ("explorers (E)", "E"),
                        ("Royal Offerings", "RO")]:
        t = target(spec)
        rows.append({"cards": label, "2-4 players": t.count(box_pool(3, age)),
                     "5 players": t.count(box_pool(5, age))})
    rows.append({"cards": "total", "2-4 players": len(C.age_deck(age, 3)),
                 "5 players": len(C.age_deck(age, 5))})
    return pd.DataFrame(rows).set_index("cards")


def _pool_list(pool: Mapping[Card, int]) -> list[Card]:
    return [c for c, n in pool.items() for _ in range(n)]


def _rng(seed: int | None) -> random.Random:
    return random.Random(seed)


def _check_trials(trials: int) -> None:
    if not isinstance(trials, int) or isinstance(trials, bool) or trials < 1:
        raise ValueError(f"the number of simulations must be at least 1, not {trials!r}")


# ====================================================================== 1. a tavern shows a class

def p_tavern_shows(what: Target | Suit | Card | str, n: int | None = None, players: int = 3,
                   age: int = 1, game: Game | None = None) -> Exact:
    """P(a tavern of ``n`` cards shows at least one ``what``) = 1 − C(N−K, n) / C(N, n),
    with N cards in the pool (box deck, or a live game's unseen cards) and K of them
    matching. ``n`` defaults to the cards per tavern for the player count."""
    t = target(what)
    pool, players, age, source = pool_for(players, age, game)
    n = C.CARDS_PER_TAVERN[players] if n is None else n
    big_n, k = sum(pool.values()), t.count(pool)
    _check_draw(n, big_n)
    value = 1 - Fraction(comb(big_n - k, n), comb(big_n, n))
    return Exact(f"P(a tavern of {n} shows at least one of {t.label})", value,
                 f"1 − C({big_n}−{k}, {n}) / C({big_n}, {n})",
                 {"N": big_n, "K": k, "n": n, "players": players, "age": age, "pool": source})


def _check_draw(n: int, big_n: int) -> None:
    if not isinstance(n, int) or n < 0:
        raise ValueError(f"the number of cards must be a whole number, not {n!r}")
    if n > big_n:
        raise ValueError(f"cannot draw {n} cards: only {big_n} left in the pool")


def tavern_trial(what: Target | Suit | Card | str, n: int | None = None, players: int = 3,
                 age: int = 1, game: Game | None = None) -> Callable[[random.Random], float]:
    """One simulated deal: 1.0 when a tavern of ``n`` cards from the pool shows ``what``."""
    t = target(what)
    pool, players, age, _ = pool_for(players, age, game)
    n = C.CARDS_PER_TAVERN[players] if n is None else n
    cards = _pool_list(pool)
    _check_draw(n, len(cards))
    hits = [t.test(c) for c in cards]
    idx = range(len(cards))

    def trial(rng: random.Random) -> float:
        return 1.0 if any(hits[i] for i in rng.sample(idx, n)) else 0.0
    return trial


def _run(trial: Callable[[random.Random], Any], trials: int, seed: int | None) -> list[Any]:
    _check_trials(trials)
    rng = _rng(seed)
    return [trial(rng) for _ in range(trials)]


def simulate_tavern_shows(what: Target | Suit | Card | str, n: int | None = None,
                          players: int = 3, age: int = 1, game: Game | None = None,
                          trials: int = 10_000, seed: int | None = 0) -> Estimate:
    """Deal ``trials`` random taverns from the same pool as :func:`p_tavern_shows`."""
    t = target(what)
    outcomes = _run(tavern_trial(t, n, players, age, game), trials, seed)
    n = C.CARDS_PER_TAVERN[game.config.players if game else players] if n is None else n
    return estimate_from(outcomes, f"P(a tavern of {n} shows at least one of {t.label})", seed,
                         binary=True)


# ====================================================================== 2. a round's three taverns

def round_distribution(what: Target | Suit | Card | str, players: int = 3, age: int = 1,
                       game: Game | None = None, taverns: int = 3, n: int | None = None
                       ) -> Distribution:
    """The number X of ``what`` among a round's ``taverns`` × ``n`` cards: hypergeometric,
    P(X = k) = C(K, k) C(N−K, m−k) / C(N, m) with m = taverns × n."""
    t = target(what)
    pool, players, age, source = pool_for(players, age, game)
    n = C.CARDS_PER_TAVERN[players] if n is None else n
    m = taverns * n
    big_n, k_all = sum(pool.values()), t.count(pool)
    _check_draw(m, big_n)
    total = comb(big_n, m)
    pmf = {k: Fraction(comb(k_all, k) * comb(big_n - k_all, m - k), total)
           for k in range(0, min(k_all, m) + 1)}
    pmf = {k: p for k, p in pmf.items() if p}
    return Distribution(f"number of {t.label} among a round's {m} cards", pmf,
                        f"C({k_all}, k) C({big_n}−{k_all}, {m}−k) / C({big_n}, {m})",
                        {"N": big_n, "K": k_all, "m": m, "players": players, "age": age,
                         "pool": source})


def round_trial(what: Target | Suit | Card | str, players: int = 3, age: int = 1,
                game: Game | None = None, taverns: int = 3, n: int | None = None
                ) -> Callable[[random.Random], int]:
    t = target(what)
    pool, players, age, _ = pool_for(players, age, game)
    n = C.CARDS_PER_TAVERN[players] if n is None else n
    cards = _pool_list(pool)
    m = taverns * n
    _check_draw(m, len(cards))
    hits = [t.test(c) for c in cards]
    idx = range(len(cards))

    def trial(rng: random.Random) -> int:
        return sum(hits[i] for i in rng.sample(idx, m))
    return trial


def _distribution_estimate(question: str, outcomes: Iterable[Any], seed: int | None
                           ) -> DistributionEstimate:
    values = list(outcomes)
    return DistributionEstimate(question, dict(Counter(values)), len(values), seed)


def simulate_round_distribution(what: Target | Suit | Card | str, players: int = 3,
                                age: int = 1, game: Game | None = None, taverns: int = 3,
                                n: int | None = None, trials: int = 10_000,
                                seed: int | None = 0) -> DistributionEstimate:
    t = target(what)
    outcomes = _run(round_trial(t, players, age, game, taverns, n), trials, seed)
    m = taverns * (C.CARDS_PER_TAVERN[game.config.players if game else players] if n is None else n)
    return _distribution_estimate(f"number of {t.label} among a round's {m} cards", outcomes,
                                  seed)


# ====================================================================== 3. a card appears in an age

def _age_shape(players: int, age: int) -> tuple[int, int, int]:
    """(deck size D, cards dealt per round, cards removed before dealing)."""
    C.check_players(players)
    if age not in (1, 2):
        raise ValueError(f"age must be 1 or 2, not {age!r}")
    deck = len(C.age_deck(age, players))
    per_round = 3 * C.CARDS_PER_TAVERN[players]
    removed = deck - per_round * C.ROUNDS_PER_AGE[players]
    return deck, per_round, removed


def _dealt_by(players: int, age: int, by_round: int | None) -> tuple[int, int, int]:
    deck, per_round, removed = _age_shape(players, age)
    rounds = C.ROUNDS_PER_AGE[players]
    by_round = rounds if by_round is None else by_round
    if not 0 <= by_round <= rounds:
        raise ValueError(f"an age has {rounds} rounds with {players} players, not {by_round}")
    return deck, by_round * per_round, removed


def _check_pioneer(pioneer: str) -> None:
    if pioneer not in PIONEER_POLICIES:
        raise ValueError(f"pioneer must be one of {PIONEER_POLICIES}, not {pioneer!r}")


def p_appears(what: Target | Suit | Card | str, players: int = 3, age: int = 1,
              by_round: int | None = None, pioneer: str = "random") -> Exact:
    """P(at least one ``what`` is dealt into the taverns of an age by the end of round
    ``by_round`` (default: the whole age)).

    Every card of an age deck is dealt when the deck is exactly 3 taverns × cards per
    tavern × rounds (age 1: 36 = 3 × 3 × 4 = 3 × 4 × 3 with 2–4 players, 45 = 3 × 5 × 3
    with 5), so the answer for a whole age 1 is 1. Age 2 has one card more (37 / 46):
    Pioneer of the Kingdom's winner keeps 1 of 3 drawn cards, or the top card is
    discarded when nobody wins it, so exactly one card never reaches a tavern.

    ``pioneer="random"``: the card that leaves is a uniformly random one (nobody won the
    distinction, or the winner keeps one of the three at random); the m dealt cards are
    then a uniform m-subset of the D cards: 1 − C(D−K, m)/C(D, m).
    ``pioneer="takes_it"``: the winner keeps a ``what`` whenever one is among the 3
    drawn (probability 1 − C(D−K, 3)/C(D, 3)); the deck of D − 1 then holds K − 1.
    """
    _check_pioneer(pioneer)
    t = target(what)
    deck, m, removed = _dealt_by(players, age, by_round)
    k = t.count(box_pool(players, age))
    params = {"D": deck, "K": k, "m": m, "players": players, "age": age, "pioneer": pioneer}
    name = f"P(at least one {t.label} is dealt {_when(players, age, by_round, m)})"
    if removed == 0 or pioneer == "random":
        value = 1 - Fraction(comb(deck - k, m), comb(deck, m))
        return Exact(name, value, f"1 − C({deck}−{k}, {m}) / C({deck}, {m})", params)
    p0 = Fraction(comb(deck - k, 3), comb(deck, 3))
    rest = deck - 1
    value = (p0 * (1 - Fraction(comb(rest - k, m), comb(rest, m)))
             + (1 - p0) * (1 - Fraction(comb(rest - (k - 1), m), comb(rest, m))))
    return Exact(name, value,
                 f"P0·(1 − C({rest}−{k}, {m})/C({rest}, {m})) + (1−P0)·(1 − C({rest}−{k - 1}, {m})"
                 f"/C({rest}, {m})), P0 = C({deck}−{k}, 3)/C({deck}, 3)", params)


def _when(players: int, age: int, by_round: int | None, m: int) -> str:
    if by_round is None:
        return f"in the taverns of age {age} ({players} players)"
    return f"in age {age} by the end of round {by_round} ({players} players, {m} cards)"


def expected_seen(what: Target | Suit | Card | str, players: int = 3, age: int = 1,
                  by_round: int | None = None, pioneer: str = "random") -> Exact:
    """E[number of ``what`` dealt into the taverns by the end of round ``by_round``].

    By linearity each of the K copies is dealt with probability m/D (random removal),
    so E = K·m/D; with ``pioneer="takes_it"`` one copy is lost whenever one is drawn.
    """
    _check_pioneer(pioneer)
    t = target(what)
    deck, m, removed = _dealt_by(players, age, by_round)
    k = t.count(box_pool(players, age))
    params = {"D": deck, "K": k, "m": m, "players": players, "age": age, "pioneer": pioneer}
    name = f"E[number of {t.label} dealt {_when(players, age, by_round, m)}]"
    if removed == 0 or pioneer == "random":
        return Exact(name, Fraction(k * m, deck), f"{k} × {m} / {deck}", params)
    p0 = Fraction(comb(deck - k, 3), comb(deck, 3))
    value = p0 * Fraction(k * m, deck - 1) + (1 - p0) * Fraction((k - 1) * m, deck - 1)
    return Exact(name, value, f"P0·{k}·{m}/{deck - 1} + (1−P0)·{k - 1}·{m}/{deck - 1}", params)


def seen_by_round(what: Target | Suit | Card | str, players: int = 3, age: int = 1,
                  pioneer: str = "random") -> pd.DataFrame:
    """Round by round: cards dealt so far, P(at least one ``what`` seen), E[number seen]."""
    import pandas as pd

    rows = []
    for r in range(C.ROUNDS_PER_AGE[players] + 1):
        p = p_appears(what, players, age, r, pioneer)
        e = expected_seen(what, players, age, r, pioneer)
        rows.append({"round": r, "cards_dealt": p.params["m"], "p_at_least_one": float(p),
                     "p_exact": str(p.value), "expected": float(e), "expected_exact": str(e.value)})
    return pd.DataFrame(rows)


def appears_trial(what: Target | Suit | Card | str, players: int = 3, age: int = 1,
                  by_round: int | None = None, pioneer: str = "random"
                  ) -> Callable[[random.Random], int]:
    """One shuffled age: how many ``what`` reach the taverns by round ``by_round``."""
    _check_pioneer(pioneer)
    t = target(what)
    deck_size, m, removed = _dealt_by(players, age, by_round)
    deck = C.age_deck(age, players)

    def trial(rng: random.Random) -> int:
        cards = deck[:]
        rng.shuffle(cards)  # top card last, as in the engine
        for _ in range(removed):
            if pioneer == "takes_it":
                drawn = [cards.pop() for _ in range(C.PIONEER_DRAW)]
                keep = next((i for i, c in enumerate(drawn) if t.test(c)), 0)
                drawn.pop(keep)
                cards.extend(drawn)
                rng.shuffle(cards)
            else:
                cards.pop()
        return sum(1 for c in cards[len(cards) - m:] if t.test(c)) if m else 0
    return trial


def simulate_appears(what: Target | Suit | Card | str, players: int = 3, age: int = 1,
                     by_round: int | None = None, pioneer: str = "random",
                     trials: int = 10_000, seed: int | None = 0) -> Estimate:
    trial = appears_trial(what, players, age, by_round, pioneer)
    outcomes = [1.0 if x else 0.0 for x in _run(trial, trials, seed)]
    return estimate_from(outcomes, p_appears(what, players, age, by_round, pioneer).question,
                         seed, binary=True)


def simulate_expected_seen(what: Target | Suit | Card | str, players: int = 3, age: int = 1,
                           by_round: int | None = None, pioneer: str = "random",
                           trials: int = 10_000, seed: int | None = 0) -> Estimate:
    trial = appears_trial(what, players, age, by_round, pioneer)
    outcomes = [float(x) for x in _run(trial, trials, seed)]
    return estimate_from(outcomes, expected_seen(what, players, age, by_round, pioneer).question,
                         seed, binary=False)


# ====================================================================== 4. completing a line

LINE_ASSUMPTION = (
    "Picking policy (a model, not the engine's bots): the player picks once per tavern, "
    "taverns in order, rounds dealt from freshly shuffled age decks (age 2 without one "
    "random card, then continuing into age 2 after age 1). Before each pick, position − 1 "
    "opponents each take a uniformly random card of that tavern. The player takes the "
    "first card of a class missing from their army if there is one, else a uniformly "
    "random card (a Royal Offering adds no class). Heroes, distinctions and camp cards "
    "are ignored. A line is one card of each of the 5 classes."
)


def _line_picks(players: int, position: int) -> Callable[[random.Random], float]:
    """One simulated game: the pick at which the first line is complete (inf if never)."""
    C.check_players(players)
    if not 1 <= position <= players:
        raise ValueError(f"position must be 1 to {players}, not {position!r}")
    n = C.CARDS_PER_TAVERN[players]
    rounds = C.ROUNDS_PER_AGE[players]
    decks = {age: C.age_deck(age, players) for age in (1, 2)}
    removed = {age: _age_shape(players, age)[2] for age in (1, 2)}

    def trial(rng: random.Random) -> float:
        have: set[Suit] = set()
        picks = 0
        for age in (1, 2):
            deck = decks[age][:]
            rng.shuffle(deck)
            del deck[len(deck) - removed[age]:]
            for _ in range(rounds):
                taverns = [[deck.pop() for _ in range(n)] for _ in range(3)]
                for tavern in taverns:
                    for _ in range(position - 1):
                        tavern.pop(rng.randrange(len(tavern)))
                    choice = next((c for c in tavern
                                   if c.kind is Kind.DWARF and c.suit not in have), None)
                    if choice is None:
                        choice = tavern[rng.randrange(len(tavern))]
                    picks += 1
                    if choice.kind is Kind.DWARF:
                        assert choice.suit is not None
                        have.add(choice.suit)
                        if len(have) == 5:
                            return float(picks)
        return math.inf
    return trial


def simulate_line(k: int, players: int = 3, position: int = 1, trials: int = 5_000,
                  seed: int | None = 0) -> Estimate:
    """P(a first line within ``k`` picks) under :data:`LINE_ASSUMPTION` (simulation only:
    no closed form is offered; the assumption is stored in the result)."""
    trial = _line_picks(players, position)
    outcomes = [1.0 if x <= k else 0.0 for x in _run(trial, trials, seed)]
    return estimate_from(outcomes, f"P(a line within {k} picks, {players} players, "
                         f"picking {_ordinal(position)})", seed, binary=True,
                         assumption=LINE_ASSUMPTION)


def line_curve(players: int = 3, position: int = 1, trials: int = 5_000,
               seed: int | None = 0) -> pd.DataFrame:
    """P(a line within k picks) for every k of a game, from one set of simulations."""
    import pandas as pd

    needed = _run(_line_picks(players, position), trials, seed)
    max_k = 3 * 2 * C.ROUNDS_PER_AGE[players]
    rows = []
    for k in range(1, max_k + 1):
        e = estimate_from([1.0 if x <= k else 0.0 for x in needed], binary=True)
        rows.append({"k": k, "estimate": e.estimate, "se": e.se, "ci_low": e.ci[0],
                     "ci_high": e.ci[1], "n": e.n})
    return pd.DataFrame(rows)


def _ordinal(i: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(i, f"{i}th")


# ====================================================================== 5. bid ties

def _coin_values(hand: Iterable[int | str]) -> list[int]:
    values = []
    for c in hand:
        if isinstance(c, str):
            values.append(int(K.parse_label(c).rstrip("*")))
        else:
            values.append(int(c))
    if len(values) < 3:
        raise ValueError(f"a hand needs at least 3 coins to bid, not {len(values)}")
    return values


def _bids(values: Sequence[int], distinct: bool) -> list[tuple[int, ...]]:
    bids = list(itertools.permutations(values, 3))
    return list(dict.fromkeys(bids)) if distinct else bids


def p_bid_tie(hand_a: Iterable[int | str], hand_b: Iterable[int | str], tavern: int | None = 0,
              distinct: bool = False) -> Exact:
    """P(two players who bid uniformly at random put equal values on ``tavern`` (0, 1, 2;
    None = on at least one of the three)), by enumerating every pair of bids.

    A bid puts 3 of the 5 coins on the 3 taverns in order: 5 × 4 × 3 = 60 bids. With
    ``distinct`` the uniform choice is among bids that differ in values (what a random
    bot choosing among the engine's legal actions does when a hand repeats a value).
    """
    a, b = _bids(_coin_values(hand_a), distinct), _bids(_coin_values(hand_b), distinct)
    where = range(3) if tavern is None else (tavern,)
    ties = sum(1 for x in a for y in b if any(x[t] == y[t] for t in where))
    label = "any tavern" if tavern is None else C.TAVERNS[tavern]
    return Exact(f"P(tie on {label})", Fraction(ties, len(a) * len(b)),
                 f"{ties} tying pairs / ({len(a)} × {len(b)}) bid pairs",
                 {"bids_a": len(a), "bids_b": len(b), "tavern": tavern, "distinct": distinct})


def bid_tie_trial(hand_a: Iterable[int | str], hand_b: Iterable[int | str],
                  tavern: int | None = 0, distinct: bool = False
                  ) -> Callable[[random.Random], float]:
    a, b = _bids(_coin_values(hand_a), distinct), _bids(_coin_values(hand_b), distinct)
    where = range(3) if tavern is None else (tavern,)

    def trial(rng: random.Random) -> float:
        x, y = a[rng.randrange(len(a))], b[rng.randrange(len(b))]
        return 1.0 if any(x[t] == y[t] for t in where) else 0.0
    return trial


def simulate_bid_tie(hand_a: Iterable[int | str], hand_b: Iterable[int | str],
                     tavern: int | None = 0, distinct: bool = False, trials: int = 10_000,
                     seed: int | None = 0) -> Estimate:
    hand_a, hand_b = list(hand_a), list(hand_b)
    outcomes = _run(bid_tie_trial(hand_a, hand_b, tavern, distinct), trials, seed)
    return estimate_from(outcomes, p_bid_tie(hand_a, hand_b, tavern, distinct).question, seed,
                         binary=True)


# ====================================================================== 6. the coin a trade gives

def _coin(c: int | str) -> int:
    """A coin code from a value or label: 0 is the bronze exchange coin, ``3*`` the
    Hunting Master's coin, any other value a gold coin (bronze vs gold only decides
    which of two equal coins goes back, never the value taken, R7)."""
    if isinstance(c, str):
        text = K.parse_label(c)
        if text.endswith("*"):
            return K.HUNTER_COIN
        c = int(text)
    if c == C.EXCHANGE_COIN_VALUE:
        return K.EXCHANGE_COIN
    return K.gold(int(c))


def _treasury(treasury: K.Treasury | Mapping[int, int] | None, players: int) -> K.Treasury:
    if treasury is None:
        return K.Treasury(C.treasury(players))
    if isinstance(treasury, K.Treasury):
        return treasury.copy()
    return K.Treasury(dict(treasury))


def _trade_result(a: int, b: int, treasury: K.Treasury) -> int | None:
    give, _keep = K.trade_pair(a, b)
    return treasury.lookup(K.value(a) + K.value(b), K.value(give))


def _purse_coins(hand: Sequence[int] | None, purse: Sequence[int] | None) -> list[int]:
    """The coins the purse is drawn from: the purse itself, or the hand without its
    exchange coin (the purse is then 2 of them at random)."""
    if purse is not None:
        if len(purse) != 2:
            raise ValueError(f"a purse holds 2 coins, not {len(purse)}")
        return list(purse)
    if hand is None:
        raise ValueError("give a hand (the purse is then random) or a purse")
    others = list(hand)
    exchange = [c for c in others if K.is_exchange(c)]
    if not exchange:
        raise ValueError("a trade needs the exchange coin (0 or 3*) in the hand")
    others.remove(exchange[0])
    if len(others) < 2:
        raise ValueError("a trade needs 2 more coins than the exchange coin")
    return others


def _trade_inputs(hand: Iterable[int | str] | None, purse: Iterable[int | str] | None,
                  treasury: K.Treasury | Mapping[int, int] | None, players: int,
                  game: Game | None, seat: int) -> tuple[list[int], K.Treasury]:
    if game is not None:
        players = game.config.players
        if treasury is None:
            treasury = game.state.treasury
        if hand is None and purse is None:
            coins = sorted(game.state.players[seat].coins())
            return _purse_coins(coins, None), _treasury(treasury, players)
    hand_c = [_coin(c) for c in hand] if hand is not None else None
    purse_c = [_coin(c) for c in purse] if purse is not None else None
    return _purse_coins(hand_c, purse_c), _treasury(treasury, players)


def trade_distribution(hand: Iterable[int | str] | None = None,
                       purse: Iterable[int | str] | None = None,
                       treasury: K.Treasury | Mapping[int, int] | None = None,
                       players: int = 3, game: Game | None = None, seat: int = 0
                       ) -> Distribution:
    """The value of the coin a trade takes from the treasury (``None``: no coin
    qualifies, the purse stays), by :meth:`nidavellir.coins.Treasury.lookup` (R6) and
    :func:`nidavellir.coins.trade_pair` (R7).

    With a ``purse`` the answer is certain. With a ``hand`` (5 coins including the
    exchange coin) the player bids the exchange coin and 2 other coins at random, so the
    purse is each of the C(4, 2) = 6 pairs of the other coins with probability 1/6.
    ``game`` takes the hand of ``seat`` and the treasury from a live game (coins are
    public knowledge: every transform and trade is announced).
    """
    coins, tre = _trade_inputs(hand, purse, treasury, players, game, seat)
    pairs = list(itertools.combinations(coins, 2))
    counts = Counter(_trade_result(a, b, tre) for a, b in pairs)
    pmf = {v: Fraction(n, len(pairs)) for v, n in counts.items()}
    shown = ", ".join(f"{K.label(a)}+{K.label(b)}" for a, b in pairs)
    return Distribution("coin taken by a trade", pmf,
                        f"each purse equally likely: {shown}; Treasury.lookup(sum, given up)",
                        {"purses": len(pairs), "treasury": tre.as_dict()})


def trade_trial(hand: Iterable[int | str] | None = None, purse: Iterable[int | str] | None = None,
                treasury: K.Treasury | Mapping[int, int] | None = None, players: int = 3,
                game: Game | None = None, seat: int = 0) -> Callable[[random.Random], int | None]:
    coins, tre = _trade_inputs(hand, purse, treasury, players, game, seat)

    def trial(rng: random.Random) -> int | None:
        a, b = rng.sample(coins, 2)  # the two coins left in the purse
        return _trade_result(a, b, tre)
    return trial


def simulate_trade(hand: Iterable[int | str] | None = None,
                   purse: Iterable[int | str] | None = None,
                   treasury: K.Treasury | Mapping[int, int] | None = None, players: int = 3,
                   game: Game | None = None, seat: int = 0, trials: int = 10_000,
                   seed: int | None = 0) -> DistributionEstimate:
    """Random bids (the purse = 2 random coins of the 4 others), then the R6 lookup."""
    trial = trade_trial(hand, purse, treasury, players, game, seat)
    return _distribution_estimate("coin taken by a trade", _run(trial, trials, seed), seed)


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
    from .simulate import simulate

    df = simulate(games, players, strategy_seats(a, b, players), seed=seed, workers=workers,
                  progress=False)
    df = df.assign(bot=[f"{bot} (seat 1)" if seat == 0 else bot
                        for bot, seat in zip(df["bot"], df["seat"], strict=True)])
    return strategy_summary(df), df


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


def convergence_figure(frame: pd.DataFrame, title: str = "Convergence of the estimate",
                       exact: float | Fraction | Exact | None = None,
                       y_title: str = "estimate") -> go.Figure:
    """Running estimate (line) with its 95% band, and the exact value as a dashed line."""
    import plotly.graph_objects as go

    from ..palette import CLASS_COLOURS

    colour = CLASS_COLOURS["E"]
    n = list(frame["n"])
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=n + n[::-1], y=list(frame["ci_high"]) + list(frame["ci_low"])[::-1],
                             fill="toself", fillcolor="rgba(36,113,163,0.18)",
                             line={"width": 0}, hoverinfo="skip", name="95% interval"))
    fig.add_trace(go.Scatter(x=n, y=list(frame["estimate"]), mode="lines+markers",
                             line={"color": colour}, name="running estimate"))
    if exact is None and "exact" in frame and frame["exact"].notna().any():
        exact = float(frame["exact"].iloc[0])
    if exact is not None:
        value = float(exact)
        fig.add_trace(go.Scatter(x=[n[0], n[-1]], y=[value, value], mode="lines",
                                 line={"color": CLASS_COLOURS["W"], "dash": "dash"},
                                 name=f"exact {value:.4f}"))
    fig.update_layout(title=title, xaxis_title="simulations", yaxis_title=y_title,
                      template="plotly_white", height=360, margin={"l": 50, "r": 20, "t": 50, "b": 40},
                      legend={"orientation": "h", "y": -0.2})
    return fig


def distribution_figure(exact: Distribution | None, estimate: DistributionEstimate | None,
                        title: str = "Distribution") -> go.Figure:
    """Bars: exact probabilities next to simulated frequencies (with 95% error bars)."""
    import plotly.graph_objects as go

    from ..palette import CLASS_COLOURS

    fig = go.Figure()
    if exact is not None:
        df = exact.frame()
        fig.add_trace(go.Bar(x=df["outcome"], y=df["probability"], name="exact",
                             marker_color=CLASS_COLOURS["W"]))
    if estimate is not None:
        df = estimate.frame(exact)
        fig.add_trace(go.Bar(x=df["outcome"], y=df["estimate"], name="simulated",
                             marker_color=CLASS_COLOURS["E"],
                             error_y={"type": "data", "symmetric": False,
                                      "array": list(df["ci_high"] - df["estimate"]),
                                      "arrayminus": list(df["estimate"] - df["ci_low"])}))
    fig.update_layout(title=title, barmode="group", xaxis_title="outcome",
                      yaxis_title="probability", template="plotly_white", height=340,
                      xaxis={"type": "category"}, margin={"l": 50, "r": 20, "t": 50, "b": 40})
    return fig


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
        from .simulate import simulate

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

