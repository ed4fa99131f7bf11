"""What a question draws from: targets (a class, a card, the Royal Offerings) and card
pools (an age deck from the box, or the cards of a live game no player has seen yet).

**What a player knows in a live game.** The order of the age deck is hidden, so the
questions about a live game (``game=``) use the *unseen pool*: the age deck's box
composition minus every card of that deck a player has seen: the cards dealt into the
taverns this age (``RoundStarted`` events), and in age 2 the card Pioneer of the
Kingdom kept or the top card discarded when nobody won it. The Pioneer's own private
view (the 2 cards they saw and shuffled back) is not used. Because the deck is a
uniformly shuffled part of the unseen pool, the next deal is distributed like a draw
from that pool, even when a card went to the box unseen (R3 option).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ... import cards as C
from ... import events as ev
from ...cards import Card, Kind, Suit
from ...i18n import _, count, pgettext
from ...names import score_line

if TYPE_CHECKING:
    import pandas as pd

    from ...game import Game


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
        suit = spec

        def of_class(c: Card) -> bool:
            return c.kind is Kind.DWARF and c.suit is suit
        # Translators: a class in a probability question, "Hunters (H)" (its letter).
        return Target(_("{classes} ({letter})").format(
            classes=score_line(f"{spec.column_name.capitalize()}s"), letter=spec.letter), of_class)
    if isinstance(spec, Card):
        card = spec

        def is_card(c: Card) -> bool:
            return c is card
        return Target(spec.token, is_card)
    text = str(spec).strip()
    if text.lower() in ("ro", "royal", "royal offering", "royal offerings"):
        return Target(pgettext("lesson words", "Royal Offerings"),
                      lambda c: c.kind is Kind.ROYAL_OFFERING)
    try:
        return target(Suit.parse(text))
    except ValueError:
        pass
    try:
        return target(C.card(text))
    except KeyError:
        raise ValueError(_("unknown target {target}: expected a class (W, H, M, B, E), a card "
                           "token such as W10 or +3, or RO").format(target=repr(spec))) from None


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
            raise ValueError(_("age must be 1 or 2, not {age}").format(age=repr(age)))
        # Translators: where a probability question's cards come from, "{N} cards are in
        # the age 1 deck for 3 players" (German: the dative, "In dem Stapel …", "aus dem
        # Stapel …", as the lab's explanations use it).
        return box_pool(players, age), players, age, _(
            "the age {age} deck for {players} players").format(age=age, players=players)
    players = game.config.players
    age = game.state.age
    pool = unseen_pool(game, age)
    if sum(pool.values()) == 0 and age == 1:
        age = 2
        pool = unseen_pool(game, age)
    # Translators: as "the age {age} deck for {players} players" (German: the dative).
    return pool, players, age, _(
        "the {unseen} unseen cards of the age {age} deck (game seed {seed}, round {round})"
    ).format(unseen=sum(pool.values()), age=age, seed=game.seed, round=game.state.round)


def deck_composition(age: int = 1) -> pd.DataFrame:
    """Cards of each class in one age deck, with 2–4 players and with 5 (FR "Matériel")."""
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


def pool_list(pool: Mapping[Card, int]) -> list[Card]:
    return [c for c, n in pool.items() for _ in range(n)]


def _rng(seed: int | None) -> random.Random:
    return random.Random(seed)


def _check_trials(trials: int) -> None:
    if not isinstance(trials, int) or isinstance(trials, bool) or trials < 1:
        raise ValueError(_("the number of simulations must be at least 1, not {trials}").format(
            trials=repr(trials)))


def check_draw(n: int, big_n: int) -> None:
    if not isinstance(n, int) or n < 0:
        raise ValueError(_("the number of cards must be a whole number, not {n}").format(n=repr(n)))
    if n > big_n:
        raise ValueError(count(n, "cannot draw {n} card: only {left} left in the pool",
                               "cannot draw {n} cards: only {left} left in the pool",
                               left=big_n))


def run_trials(trial: Callable[[random.Random], Any], trials: int, seed: int | None) -> list[Any]:
    _check_trials(trials)
    rng = _rng(seed)
    return [trial(rng) for _ in range(trials)]
