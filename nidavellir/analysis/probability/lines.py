"""Question family 4: completing a first line (simulation only, under a stated picking
policy)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from ... import cards as C
from ...cards import Kind, Suit
from ...i18n import N_, _, ordinal
from .ages import age_shape
from .pools import run_trials
from .results import Estimate, estimate_from

if TYPE_CHECKING:
    import pandas as pd


# ====================================================================== 4. completing a line

LINE_ASSUMPTION = N_(
    "Picking policy (a model, not the engine's bots): the player picks once per tavern, "
    "taverns in order, rounds dealt from freshly shuffled age decks (age 2 without one "
    "random card, then continuing into age 2 after age 1). Before each pick, position − 1 "
    "opponents each take a uniformly random card of that tavern. The player takes the "
    "first card of a class missing from their army if there is one, else a uniformly "
    "random card (a Royal Offering adds no class). Heroes, distinctions and camp cards "
    "are ignored. A line is one card of each of the 5 classes."
)


def line_picks(players: int, position: int) -> Callable[[random.Random], float]:
    """One simulated game: the pick at which the first line is complete (inf if never)."""
    C.check_players(players)
    if not 1 <= position <= players:
        raise ValueError(_("position must be 1 to {players}, not {position}").format(
            players=players, position=repr(position)))
    n = C.CARDS_PER_TAVERN[players]
    rounds = C.ROUNDS_PER_AGE[players]
    decks = {age: C.age_deck(age, players) for age in (1, 2)}
    removed = {age: age_shape(players, age)[2] for age in (1, 2)}

    def trial(rng: random.Random) -> float:
        have: set[Suit] = set()
        picks = 0
        for age in (1, 2):
            deck = decks[age][:]
            rng.shuffle(deck)
            del deck[len(deck) - removed[age]:]
            for _round in range(rounds):
                taverns = [[deck.pop() for _card in range(n)] for _tavern in C.TAVERNS]
                for tavern in taverns:
                    for _opponent in range(position - 1):
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
    trial = line_picks(players, position)
    outcomes = [1.0 if x <= k else 0.0 for x in run_trials(trial, trials, seed)]
    # Translators: a probability; {position}: "2nd" (the player's place in each tavern).
    label = _("P(a line within {k} picks, {players} players, picking {position})").format(
        k=k, players=players, position=ordinal(position))
    return estimate_from(outcomes, label, seed, binary=True, assumption=LINE_ASSUMPTION)


def line_curve(players: int = 3, position: int = 1, trials: int = 5_000,
               seed: int | None = 0) -> pd.DataFrame:
    """P(a line within k picks) for every k of a game, from one set of simulations."""
    import pandas as pd

    needed = run_trials(line_picks(players, position), trials, seed)
    max_k = 3 * 2 * C.ROUNDS_PER_AGE[players]
    rows = []
    for k in range(1, max_k + 1):
        e = estimate_from([1.0 if x <= k else 0.0 for x in needed], binary=True)
        rows.append({"k": k, "estimate": e.estimate, "se": e.se, "ci_low": e.ci[0],
                     "ci_high": e.ci[1], "n": e.n})
    return pd.DataFrame(rows)

