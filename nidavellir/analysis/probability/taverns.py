"""Question families 1 and 2: a tavern shows a class (or a card), and how many of a
class a round's taverns show (hypergeometric)."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING

from ... import cards as C
from ...cards import Card, Suit
from ...i18n import _
from .pools import Target, check_draw, pool_for, pool_list, run_trials, target
from .results import (
    Distribution,
    DistributionEstimate,
    Estimate,
    Exact,
    distribution_estimate,
    estimate_from,
)

if TYPE_CHECKING:
    from ...game import Game


# ====================================================================== 1. a tavern shows a class

def shows_question(n: int, target: str, none: bool = False) -> str:
    """The question in words (the notation P(...) kept): "P(a tavern of 3 shows at least
    one of Hunters (H))", or ``none`` of them."""
    if none:
        # Translators: a probability; {target} is a class ("Hunters (H)") or a card.
        return _("P(a tavern of {n} shows none of {target})").format(n=n, target=target)
    # Translators: a probability; {target} is a class ("Hunters (H)") or a card.
    return _("P(a tavern of {n} shows at least one of {target})").format(n=n, target=target)


def round_question(target: str, m: int) -> str:
    """The counted thing of the round question: "number of Hunters (H) among a round's 9
    cards"."""
    return _("number of {target} among a round's {m} cards").format(target=target, m=m)


def p_tavern_shows(what: Target | Suit | Card | str, n: int | None = None, players: int = 3,
                   age: int = 1, game: Game | None = None) -> Exact:
    """P(a tavern of ``n`` cards shows at least one ``what``) = 1 − C(N−K, n) / C(N, n),
    with N cards in the pool (box deck, or a live game's unseen cards) and K of them
    matching. ``n`` defaults to the cards per tavern for the player count."""
    t = target(what)
    pool, players, age, source = pool_for(players, age, game)
    n = C.CARDS_PER_TAVERN[players] if n is None else n
    big_n, k = sum(pool.values()), t.count(pool)
    check_draw(n, big_n)
    value = 1 - Fraction(comb(big_n - k, n), comb(big_n, n))
    return Exact(shows_question(n, t.label), value,
                 f"1 − C({big_n}−{k}, {n}) / C({big_n}, {n})",
                 {"N": big_n, "K": k, "n": n, "players": players, "age": age, "pool": source})


def tavern_trial(what: Target | Suit | Card | str, n: int | None = None, players: int = 3,
                 age: int = 1, game: Game | None = None) -> Callable[[random.Random], float]:
    """One simulated deal: 1.0 when a tavern of ``n`` cards from the pool shows ``what``."""
    t = target(what)
    pool, players, age, _source = pool_for(players, age, game)
    n = C.CARDS_PER_TAVERN[players] if n is None else n
    cards = pool_list(pool)
    check_draw(n, len(cards))
    hits = [t.test(c) for c in cards]
    idx = range(len(cards))

    def trial(rng: random.Random) -> float:
        return 1.0 if any(hits[i] for i in rng.sample(idx, n)) else 0.0
    return trial


def simulate_tavern_shows(what: Target | Suit | Card | str, n: int | None = None,
                          players: int = 3, age: int = 1, game: Game | None = None,
                          trials: int = 10_000, seed: int | None = 0) -> Estimate:
    """Deal ``trials`` random taverns from the same pool as :func:`p_tavern_shows`."""
    t = target(what)
    outcomes = run_trials(tavern_trial(t, n, players, age, game), trials, seed)
    n = C.CARDS_PER_TAVERN[game.config.players if game else players] if n is None else n
    return estimate_from(outcomes, shows_question(n, t.label), seed,
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
    check_draw(m, big_n)
    total = comb(big_n, m)
    pmf = {k: Fraction(comb(k_all, k) * comb(big_n - k_all, m - k), total)
           for k in range(0, min(k_all, m) + 1)}
    pmf = {k: p for k, p in pmf.items() if p}
    return Distribution(round_question(t.label, m), pmf,
                        f"C({k_all}, k) C({big_n}−{k_all}, {m}−k) / C({big_n}, {m})",
                        {"N": big_n, "K": k_all, "m": m, "players": players, "age": age,
                         "pool": source})


def round_trial(what: Target | Suit | Card | str, players: int = 3, age: int = 1,
                game: Game | None = None, taverns: int = 3, n: int | None = None
                ) -> Callable[[random.Random], int]:
    t = target(what)
    pool, players, age, _source = pool_for(players, age, game)
    n = C.CARDS_PER_TAVERN[players] if n is None else n
    cards = pool_list(pool)
    m = taverns * n
    check_draw(m, len(cards))
    hits = [t.test(c) for c in cards]
    idx = range(len(cards))

    def trial(rng: random.Random) -> int:
        return sum(hits[i] for i in rng.sample(idx, m))
    return trial


def simulate_round_distribution(what: Target | Suit | Card | str, players: int = 3,
                                age: int = 1, game: Game | None = None, taverns: int = 3,
                                n: int | None = None, trials: int = 10_000,
                                seed: int | None = 0) -> DistributionEstimate:
    t = target(what)
    outcomes = run_trials(round_trial(t, players, age, game, taverns, n), trials, seed)
    m = taverns * (C.CARDS_PER_TAVERN[game.config.players if game else players] if n is None else n)
    return distribution_estimate(round_question(t.label, m), outcomes,
                                  seed)
