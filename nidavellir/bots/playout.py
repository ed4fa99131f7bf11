"""Fast playout policies for the search bots (standard library only).

A playout plays a determinized game to its end many hundreds of times per decision, so its
policy must be much cheaper than ``greedy`` (which clones and scores every option). The
``heuristic`` policy reads only the state it is given (a determinization: every hidden part
already sampled from the searching seat's knowledge):

- **bid**: the bid model of :mod:`nidavellir.determinize` with 10% random bids (the highest
  coin on the tavern whose best card is worth most to the player, the exchange coin on the
  least valuable one so that the purse is traded up);
- **pick**: the card worth most to the player by :func:`~nidavellir.determinize.card_worth`
  (bravery points, progress towards the next line, a Royal Offering's bonus; in the camp a
  mercenary by its better side, an artifact as its entry values it for the player), with a
  small share of random picks so playouts do not all follow one line;
- **hero**: the hero worth most to the player by :func:`hero_value` (a class hero by the
  score pad's formulas for its column, a Dwerg brother by what one more brother adds, Astrid
  by the highest coin, other heroes by their fixed points);
- **a card from a pile** (Andumia, Holda, the Pioneer, Brisingamens, which never skips while
  it can take a card): the card worth most by :func:`~nidavellir.determinize.card_worth`;
- **a column** (a mercenary's enlistment, Thrud, Ylud, Olwyn's doubles): the column where
  the card adds most by :func:`~nidavellir.determinize.rank_gain`, the score pad's formulas;
- **a discard from the army** (Dagda, Bonfur, Höfud, Brisingamens): the card whose column
  loses least by the same measure;
- anything else (transforms included: measured, a random coin did better than the highest)
  : a uniformly random legal action.

The ``random`` policy plays uniformly at random (the ``montecarlo`` baseline's playouts).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, cast

from .. import cards as C
from .. import coins as K
from ..actions import Action, interned
from ..cards import Card, Kind, Suit
from ..determinize import (
    ENTRY,
    FIXED,
    PROFILES,
    Profile,
    best_worth,
    column_options,
    gain,
    heuristic_bid_model,
    rank_gain,
    worthiest,
    worthiest_card,
)
from ..draws import below
from ..engine import Engine
from ..game import Game
from ..rules.base import DecisionKind
from ..rules.catalogue import RULES
from ..rules.decisions import CAMP, ENLIST_ACTIONS, TAKE
from ..rules.heroes import HERO_ACTIONS, eligible
from ..rules.thingvellir import may_visit_camp
from ..state import PlayerState

#: Share of picks and bids made at random in heuristic playouts.
PICK_NOISE: Final = 0.1
BID_NOISE: Final = 0.1

Policy = Callable[[Engine, random.Random], Action]


#: The bid action of each three coins (at most 104 ** 3 keys: coins are codes below 104).
_BIDS: Final[dict[tuple[int, ...], Action]] = {}


def bid_action(labels: tuple[str, ...]) -> Action:
    """The engine's shared Action object for a bid."""
    return interned("bid", labels)


def hero_worth(hero: Card) -> float:
    """A static estimate of a hero's worth: fixed points, or bravery and ranks for class
    heroes (a rank also moves the next line closer)."""
    worth = _HERO_WORTH.get(hero)
    if worth is None:
        worth = 0.0 if hero.kind is not Kind.HERO else (
            float(hero.points) + float(sum(hero.bravery)) + 2.0 * len(hero.bravery))
        _HERO_WORTH[hero] = worth
    return worth


_HERO_WORTH: Final[dict[Card, float]] = {}
#: Heroes whose worth to a player their catalogue entry knows (what they score depends on
#: what the player owns).
_VALUED_BY_ENTRY: Final = frozenset((*C.DWERG_BROTHERS, C.ASTRID))


def hero_value(p: PlayerState, hero: Card) -> float:
    """What ``hero`` is worth to ``p`` now: a class hero by the score pad's formulas for
    its column (:func:`~nidavellir.determinize.rank_gain`: ranks count more in a long hunter
    or miner column, a line's hero when it completes one) plus its points; a Dwerg brother
    by what one more brother adds (13, 27, 41, ...) and Astrid by the player's highest coin
    (their entries' :meth:`~nidavellir.rules.cardrules.CardRules.worth`); Ylud in her best
    column; any other hero by :func:`hero_worth`."""
    if hero.suit is not None:
        return hero.points + rank_gain(p, hero.suit, len(hero.bravery), sum(hero.bravery))
    if hero in _VALUED_BY_ENTRY:
        return RULES[hero].worth(p)
    if hero is C.YLUD:
        return max(rank_gain(p, suit, ranks, bravery) for suit, ranks, bravery in _YLUD_COLUMNS)
    return hero_worth(hero)


#: Ylud's (class, ranks, bravery) in each column (FR "Ylud").
_YLUD_COLUMNS: Final = tuple((suit, *C.YLUD.column_value(suit)) for suit in C.SUITS)


def random_policy(eng: Engine, rng: random.Random) -> Action:
    actions = eng.legal_actions()
    return actions[below(rng, len(actions))] if len(actions) > 1 else actions[0]


def heuristic_policy(eng: Engine, rng: random.Random) -> Action:
    s = eng.state
    task = s.tasks[-1]
    kind = task.kind
    # The deciding seat as an int once (a task is a Python object to the compiled build:
    # indexing the players with its attribute would go through Python's generic lookup).
    seat: int = task.player
    if kind is _BID:
        # A bid needs no list of the 60 legal bids: three of the player's own coins.
        p = s.players[seat]
        coins = tuple(heuristic_bid_model(s, seat, (0, 1, 2), sorted(p.hand), rng, BID_NOISE))
        action = _BIDS.get(coins)
        if action is None:
            action = _BIDS[coins] = bid_action(tuple(K.label(c) for c in coins))
        return action
    if kind is _PICK:
        # The legal actions are the tavern's distinct cards in order, then the camp's when
        # the camp is open to the player: read them instead of building the list (a
        # playout picks 70 times); the list is built for a random pick only.
        p = s.players[seat]
        tavern: int = task.tavern
        cards = s.taverns[tavern]
        if not (s.camp and may_visit_camp(s, p)):
            first = cards[0]
            for c in cards:
                if c is not first:
                    break
            else:
                return TAKE[first]  # one legal action
            if rng.random() < PICK_NOISE:
                actions = eng.legal_actions()
                return actions[below(rng, len(actions))]
            return TAKE[worthiest_card(p, cards)]
        camp = s.camp
        if not cards and len(camp) == 1:
            return CAMP[camp[0]]  # one legal action (camp cards are single cards)
        if rng.random() < PICK_NOISE:
            actions = eng.legal_actions()
            return actions[below(rng, len(actions))]
        best, value = best_worth(p, camp, PROFILES)
        if cards:
            # The tavern's cards come first: its best wins a tie.
            tavern_best, tavern_value = best_worth(p, cards, PROFILES)
            if tavern_value >= value:
                return TAKE[tavern_best]  # type: ignore[index]
        return CAMP[best]  # type: ignore[index]
    if kind is _HERO:
        # The hall's heroes in order, eligible ones only: the legal actions, unbuilt.
        return HERO_ACTIONS[_choose_hero(s.players[seat], s.hall)]
    actions = eng.legal_actions()
    if len(actions) == 1:
        return actions[0]
    choose = _CHOICES.get(kind)
    if choose is not None:
        return choose(s.players[seat], actions)
    return actions[below(rng, len(actions))]


_BID: Final = DecisionKind.BID
_PICK: Final = DecisionKind.PICK
_HERO: Final = DecisionKind.HERO


def _choose_hero(p: PlayerState, hall: list[Card]) -> Card:
    """The hero of ``hall`` that ``p`` may recruit and that is worth most to ``p`` by
    :func:`hero_value`, the first on ties (the first of the legal actions, which list the
    hall's eligible heroes in order): :func:`~nidavellir.determinize.best_worth`, which asks
    a hero's eligibility only when it would be the best so far (tests/test_fast_paths.py
    holds it to ``hero_value`` over the legal actions)."""
    best = best_worth(p, hall, _HERO_PROFILES, eligible)[0]
    assert isinstance(best, Card), "no hero to choose"
    return best


def _hero_profiles(h: Card) -> dict[object, Profile]:
    """:func:`hero_value` as worth profiles (:data:`~nidavellir.determinize.GAIN`, ...)."""
    if h.suit is not None:
        return {h: gain(h.suit, len(h.bravery), sum(h.bravery), h.points)}
    if h in C.DWERG_BROTHERS:
        # One more brother: any is worth the same, asked once (the profiles' shared key).
        return {h: Profile(ENTRY, shared=C.DWERG_BROTHERS)}
    if h in _VALUED_BY_ENTRY:
        return {h: Profile(ENTRY)}
    if h is C.YLUD:
        return column_options(h, _YLUD_COLUMNS)
    return {h: Profile(FIXED, hero_worth(h))}


#: Each hero's worth profiles for :func:`_choose_hero`.
_HERO_PROFILES: Final[dict[object, Profile]] = {}
C.each_card(lambda card: _HERO_PROFILES.update(_hero_profiles(card))
            if card.kind is Kind.HERO else None)


def _column_gain(p: PlayerState, card: Card, suit: Suit) -> float:
    """What ``card`` adds to ``p``'s column ``suit`` (the score pad's formulas, a line's
    hero when it completes one)."""
    ranks, bravery = card.column_value(suit)
    return rank_gain(p, suit, ranks, bravery)


def _arg_card(a: Action) -> Card:
    return cast(Card, a.args[0])


def _arg_suit(a: Action, i: int = 0) -> Suit:
    return cast(Suit, a.args[i])


def _placing(card: Card) -> Callable[[PlayerState, Sequence[Action]], Action]:
    """Place ``card`` (Thrud, Ylud, an Olwyn double: ``verb SUIT``) where it adds most."""
    def choose(p: PlayerState, actions: Sequence[Action]) -> Action:
        return _best(actions, lambda a: _column_gain(p, card, _arg_suit(a)))
    return choose


def _enlist(p: PlayerState, actions: Sequence[Action]) -> Action:
    """A mercenary on the side and in the column where it adds most (``enlist M SUIT``):
    its sides' worth profiles, what :func:`_column_gain` gives, the first on ties."""
    keys: list[object] = [_SIDE[a] for a in actions]
    return actions[keys.index(best_worth(p, keys, PROFILES)[0])]


#: Each enlistment action's key in :data:`~nidavellir.determinize.PROFILES` (the
#: mercenary and the index of its side: :func:`~nidavellir.determinize.column_options`).
_SIDE: Final = {a: (m, i) for m, actions in ENLIST_ACTIONS.items() for i, a in enumerate(actions)}


def _take_from_pile(p: PlayerState, actions: Sequence[Action]) -> Action:
    """The card worth most (``choose C`` / ``keep C``); Brisingamens' ``skip`` only when
    nothing is left to take."""
    cards = [a for a in actions if a.args]
    return worthiest(p, cards) if cards else actions[0]


def _discard_column_top(p: PlayerState, actions: Sequence[Action]) -> Action:
    """Dagda / Bonfur (``discard SUIT``): the column whose top card is worth least there."""
    def keep(a: Action) -> float:
        suit = _arg_suit(a)
        return -_column_gain(p, p.army[suit][-1], suit)
    return _best(actions, keep)


def _discard_from_army(p: PlayerState, actions: Sequence[Action]) -> Action:
    """Höfud / Brisingamens (``remove C SUIT``): the card worth least in its column."""
    return _best(actions, lambda a: -_column_gain(p, _arg_card(a), _arg_suit(a, 1)))


#: The decisions other than bids, picks and heroes that the policy plays by the score pad.
_CHOICES: Final[dict[DecisionKind, Callable[[PlayerState, Sequence[Action]], Action]]] = {
    DecisionKind.MERCENARY: _enlist,
    DecisionKind.THRUD: _placing(C.THRUD),
    DecisionKind.YLUD: _placing(C.YLUD),
    DecisionKind.OLWYN: _placing(C.OLWYN_DOUBLE),
    DecisionKind.ANDUMIA: _take_from_pile,
    DecisionKind.HOLDA: _take_from_pile,
    DecisionKind.PIONEER: _take_from_pile,
    DecisionKind.BRISINGAMENS: _take_from_pile,
    DecisionKind.DISCARD: _discard_column_top,
    DecisionKind.ARMY_DISCARD: _discard_from_army,
}


def _best(actions: Sequence[Action], key: Callable[[Action], float]) -> Action:
    best, best_value = actions[0], key(actions[0])
    for a in actions[1:]:
        v = key(a)
        if v > best_value:
            best, best_value = a, v
    return best


POLICIES: dict[str, Policy] = {"heuristic": heuristic_policy, "random": random_policy}


class HeuristicBot:
    """The search's playout policy as a bot (``heuristic``): fast, and far better than
    random play (see benchmarks/README.md). It reads only its own coins and the visible
    taverns."""

    name = "heuristic"

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        eng = game.engine
        if not eng.legal_actions():
            raise ValueError("there is no decision to take: the game is over")
        return heuristic_policy(eng, self.rng)

    def __repr__(self) -> str:
        return f"HeuristicBot(seed={self.seed!r})"
