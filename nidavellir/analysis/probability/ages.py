"""Question family 3: does a card reach the taverns in an age (by a round), and how many
of them on average (linearity of expectation)."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING

from ... import cards as C
from ...cards import Card, Suit
from ...i18n import _
from .pools import Target, box_pool, run_trials, target
from .results import Estimate, Exact, estimate_from

if TYPE_CHECKING:
    import pandas as pd

#: What Pioneer of the Kingdom's winner does with the extra age-2 card.
PIONEER_POLICIES = ("random", "takes_it")


# ====================================================================== 3. a card appears in an age

def age_shape(players: int, age: int) -> tuple[int, int, int]:
    """(deck size D, cards dealt per round, cards removed before dealing)."""
    C.check_players(players)
    if age not in (1, 2):
        # Translators: an error of a probability question's parameters (a lesson file's
        # keys and values, quoted as written).
        raise ValueError(_("age must be 1 or 2, not {value}").format(value=repr(age)))
    deck = len(C.age_deck(age, players))
    per_round = 3 * C.CARDS_PER_TAVERN[players]
    removed = deck - per_round * C.ROUNDS_PER_AGE[players]
    return deck, per_round, removed


def _dealt_by(players: int, age: int, by_round: int | None) -> tuple[int, int, int]:
    deck, per_round, removed = age_shape(players, age)
    rounds = C.ROUNDS_PER_AGE[players]
    by_round = rounds if by_round is None else by_round
    if not 0 <= by_round <= rounds:
        raise ValueError(_("an age has {rounds} rounds with {players} players, not {value}"
                           ).format(rounds=rounds, players=players, value=by_round))
    return deck, by_round * per_round, removed


def _check_pioneer(pioneer: str) -> None:
    if pioneer not in PIONEER_POLICIES:
        raise ValueError(_("pioneer must be one of {values}, not {value}").format(
            values=PIONEER_POLICIES, value=repr(pioneer)))


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
        for _card in range(removed):
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
    outcomes = [1.0 if x else 0.0 for x in run_trials(trial, trials, seed)]
    return estimate_from(outcomes, p_appears(what, players, age, by_round, pioneer).question,
                         seed, binary=True)


def simulate_expected_seen(what: Target | Suit | Card | str, players: int = 3, age: int = 1,
                           by_round: int | None = None, pioneer: str = "random",
                           trials: int = 10_000, seed: int | None = 0) -> Estimate:
    trial = appears_trial(what, players, age, by_round, pioneer)
    outcomes = [float(x) for x in run_trials(trial, trials, seed)]
    return estimate_from(outcomes, expected_seen(what, players, age, by_round, pioneer).question,
                         seed, binary=False)
