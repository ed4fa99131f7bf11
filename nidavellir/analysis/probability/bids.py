"""Question family 5: two random bids tie (by enumerating every pair of bids)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

from ... import cards as C
from ... import coins as K
from ...i18n import _
from ...names import tavern_name
from .pools import run_trials
from .results import Estimate, Exact, estimate_from

# ====================================================================== 5. bid ties

def coin_values(hand: Iterable[int | str]) -> list[int]:
    values = []
    for c in hand:
        if isinstance(c, str):
            values.append(int(K.parse_label(c).rstrip("*")))
        else:
            values.append(int(c))
    if len(values) < 3:
        raise ValueError(_("a hand needs at least 3 coins to bid, not {n}").format(n=len(values)))
    return values


def all_bids(values: Sequence[int], distinct: bool) -> list[tuple[int, ...]]:
    bids: list[tuple[int, ...]] = list(itertools.permutations(values, 3))
    return list(dict.fromkeys(bids)) if distinct else bids


def p_bid_tie(hand_a: Iterable[int | str], hand_b: Iterable[int | str], tavern: int | None = 0,
              distinct: bool = False) -> Exact:
    """P(two players who bid uniformly at random put equal values on ``tavern`` (0, 1, 2;
    None = on at least one of the three)), by enumerating every pair of bids.

    A bid puts 3 of the 5 coins on the 3 taverns in order: 5 × 4 × 3 = 60 bids. With
    ``distinct`` the uniform choice is among bids that differ in values (what a random
    bot choosing among the engine's legal actions does when a hand repeats a value).
    """
    a, b = all_bids(coin_values(hand_a), distinct), all_bids(coin_values(hand_b), distinct)
    where = C.TAVERN_INDICES if tavern is None else (tavern,)
    ties = sum(1 for x in a for y in b if any(x[t] == y[t] for t in where))
    # Translators: a probability: two bids put equal coins on a tavern.
    label = (_("P(tie on any tavern)") if tavern is None
             else _("P(tie on {tavern})").format(tavern=tavern_name(tavern)))
    return Exact(label, Fraction(ties, len(a) * len(b)),
                 _("{ties} tying pairs / ({a} × {b}) bid pairs").format(
                     ties=ties, a=len(a), b=len(b)),
                 {"bids_a": len(a), "bids_b": len(b), "tavern": tavern, "distinct": distinct})


def bid_tie_trial(hand_a: Iterable[int | str], hand_b: Iterable[int | str],
                  tavern: int | None = 0, distinct: bool = False
                  ) -> Callable[[random.Random], float]:
    a, b = all_bids(coin_values(hand_a), distinct), all_bids(coin_values(hand_b), distinct)
    where = C.TAVERN_INDICES if tavern is None else (tavern,)

    def trial(rng: random.Random) -> float:
        x, y = a[rng.randrange(len(a))], b[rng.randrange(len(b))]
        return 1.0 if any(x[t] == y[t] for t in where) else 0.0
    return trial


def simulate_bid_tie(hand_a: Iterable[int | str], hand_b: Iterable[int | str],
                     tavern: int | None = 0, distinct: bool = False, trials: int = 10_000,
                     seed: int | None = 0) -> Estimate:
    hand_a, hand_b = list(hand_a), list(hand_b)
    outcomes = run_trials(bid_tie_trial(hand_a, hand_b, tavern, distinct), trials, seed)
    return estimate_from(outcomes, p_bid_tie(hand_a, hand_b, tavern, distinct).question, seed,
                         binary=True)
