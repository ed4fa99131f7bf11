"""Determinization: a full game state consistent with what one seat knows, and nothing more.

What a seat may know is decided by :mod:`nidavellir.observer` (the observation contract);
:func:`determinize_state` rebuilds each part hidden from it from public data only: the
unseen cards of each pile (age decks, the R3 box, the camp decks, a Pioneer draw another
player is choosing from) are put in a canonical order and then shuffled with the given
generator, each other player's face-down coins (a multiset known from its public coin
set) are dealt to its hidden taverns by a bid model, what its cards remember in private is
drawn again from what it may be, and the random generator is reseeded. So
two states that differ only in what ``viewer`` cannot see give identical determinizations
for the same generator.

The quick card and tavern worths here (:func:`card_worth`) are public estimates used by the
bid model and the search's playouts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Final

from . import cards as C
from . import coins as K
from .actions import Action
from .cards import Card, Kind, Suit
from .draws import shuffle
from .observer import Observer
from .rules.army import HUNTER_POINTS, LINE_WORTH, PROGRESS_WORTH, SMITH_POINTS
from .rules.catalogue import MARKS, RULES
from .state import GameState, PlayerState, lowest_rank

#: ``bid_model(state, seat, taverns, coins, rng) -> coins for those taverns``: deals some of
#: ``coins`` (the seat's face-down coins, sorted) onto ``taverns`` (tavern indices, in order);
#: the coins left over are the purse.
BidModel = Callable[[GameState, int, Sequence[int], Sequence[int], random.Random], list[int]]

#: Share of uniformly random bids in the default model: players are not always sensible, and
#: a model that never expects a surprise overrates its own reads.
UNIFORM_SHARE: Final = 0.25
#: How sharply the default model prefers high coins on valuable taverns (points per unit of
#: the tavern's worth, in the softmax over which tavern gets the next-highest coin).
TAVERN_SHARPNESS = 0.35


#: How :func:`best_worth` values a card (its *worth profile*, :class:`Profile`): ``GAIN``,
#: ``base`` plus what ``ranks`` more ranks worth ``bravery`` points add to column ``column``
#: (:func:`rank_gain`); ``BEST_OF``, ``base`` plus the best of ``options``, keys of ``GAIN``
#: profiles in the same table (a mercenary's sides, Ylud's columns); ``MERCENARY``, the same
#: plus Hrafnsmerki's points when the player owns it; ``FIXED``, ``base``; ``ENTRY``, its
#: entry's :meth:`~nidavellir.rules.cardrules.CardRules.worth`, asked once per call for all
#: the cards whose ``shared`` key is the same (not None: cards worth the same, the Dwerg
#: brothers).
GAIN: Final = 0
BEST_OF: Final = 1
MERCENARY: Final = 2
FIXED: Final = 3
ENTRY: Final = 4


class Profile:
    """A card's worth profile (the kinds above). A class with typed fields, not a tuple:
    the compiled build reads them without unboxing (docs/development.md, "The compiled
    build"); :func:`best_worth` values hundreds of cards per playout."""

    __slots__ = ("base", "bravery", "column", "kind", "options", "ranks", "shared")

    def __init__(self, kind: int, base: float = 0.0, column: int = -1, ranks: int = 0,
                 bravery: int = 0, options: list[object] | None = None,
                 shared: object = None) -> None:
        self.kind = kind
        self.base = float(base)
        self.column = column
        """The column (a :class:`~nidavellir.cards.Suit`'s number) of a ``GAIN``."""
        self.ranks = ranks
        self.bravery = bravery
        self.options: list[object] = options if options is not None else []
        """The keys a ``BEST_OF`` or ``MERCENARY`` takes the best of."""
        self.shared = shared
        """An ``ENTRY``'s key shared by cards worth the same (None: its own)."""

    def __repr__(self) -> str:
        return (f"Profile(kind={self.kind}, base={self.base}, column={self.column}, "
                f"ranks={self.ranks}, bravery={self.bravery}, options={self.options!r}, "
                f"shared={self.shared!r})")


def gain(suit: Suit, ranks: int, bravery: int, base: float = 0.0) -> Profile:
    """A ``GAIN`` profile: ``ranks`` more ranks worth ``bravery`` points in ``suit``'s
    column, plus ``base``."""
    return Profile(GAIN, base, int(suit), ranks, bravery)


def column_options(card: Card, options: Sequence[tuple[Suit, int, int]],
                   base: float = 0, kind: int = BEST_OF) -> dict[object, Profile]:
    """The profiles of a card valued by its best of ``options`` (``(class, ranks,
    bravery)``): the card's own, keyed by the card, and one ``GAIN`` profile per option."""
    keys: list[object] = [(card, i) for i in range(len(options))]
    out: dict[object, Profile] = {card: Profile(kind, base, options=keys)}
    out.update({key: gain(*option) for key, option in zip(keys, options, strict=True)})
    return out


def _card_profiles(card: Card) -> dict[object, Profile]:
    """A card's worth profile as :func:`card_worth` values it (with its options')."""
    if card.kind is Kind.ROYAL_OFFERING:
        return {card: Profile(FIXED, card.value)}
    if card.kind is Kind.MERCENARY:
        return column_options(card, [(side, 1, points) for side, points in card.sides],
                              kind=MERCENARY)
    if card.suit is not None:
        return {card: gain(card.suit, *card.column_value(card.suit))}
    if _has_entry(card):
        return {card: Profile(ENTRY)}
    return {card: Profile(FIXED, 4.0)}


def _has_entry(card: Card) -> bool:
    """Whether the card is valued by its entry (:mod:`nidavellir.rules.catalogue`): every
    hero and artifact has one (a plugin's hero gets it right after its card)."""
    return card.kind is Kind.HERO or card.kind is Kind.ARTIFACT


#: Every card's worth profile as :func:`card_worth` values it (the playouts' picks, the
#: taverns' worth).
PROFILES: Final[dict[object, Profile]] = {}
C.each_card(lambda card: PROFILES.update(_card_profiles(card)))


def card_worth(p: PlayerState, card: Card) -> float:
    """A quick, public estimate of what ``card`` is worth to ``p`` (bid models and playouts):
    the score the card adds to its column, a line's hero when it completes one, a Royal
    Offering's coin bonus, a mercenary's better side; an artifact or a hero as its entry
    values it for ``p`` (:meth:`~nidavellir.rules.cardrules.CardRules.worth`). The plain
    form of :func:`best_worth`, which the playouts use."""
    if card.kind is Kind.ROYAL_OFFERING:
        return card.value
    if card.kind is Kind.MERCENARY:
        worth = max(rank_gain(p, side, 1, points) for side, points in card.sides)
        if C.HRAFNSMERKI in p.command_zone:
            worth += C.HRAFNSMERKI_POINTS_PER_MERCENARY
        return worth
    if card.suit is not None:
        return rank_gain(p, card.suit, *card.column_value(card.suit))
    if _has_entry(card):
        return RULES[card].worth(p)
    return 4.0


def worthiest(p: PlayerState, actions: Sequence[Action]) -> Action:
    """The action (a pick: ``args[0]`` is the card) whose card is worth most to ``p`` by
    :func:`card_worth`, the first on ties."""
    cards: list[Card] = [a.args[0] for a in actions]  # type: ignore[misc]
    return actions[cards.index(worthiest_card(p, cards))]


def worthiest_card(p: PlayerState, cards: list[Card]) -> Card:
    """The card worth most to ``p`` by :func:`card_worth`, the first on ties (the heuristic
    playouts' pick)."""
    best = best_worth(p, cards, PROFILES)[0]
    assert isinstance(best, Card), "worthiest of no cards"
    return best


def tavern_worth(state: GameState, p: PlayerState) -> list[float]:
    """The best card of each tavern for ``p`` (visible cards only; 0 for an empty one)."""
    return [best_worth(p, tavern, PROFILES)[1] for tavern in state.taverns]


def rank_gain(p: PlayerState, suit: Suit, ranks: int, bravery: int) -> float:
    """Score-pad points that ``ranks`` more ranks worth ``bravery`` points bring to a column
    (FR "Déterminer la Valeur de Bravoure de chaque classe"), plus a line's hero when they
    complete one (:data:`~nidavellir.rules.army.LINE_WORTH`), or a little for a lagging
    class (``PROGRESS_WORTH``): a ``GAIN`` profile valued by :func:`best_worth`, where the
    formula is written once (tests/test_playout.py holds it to the scorer)."""
    key = (suit, ranks, bravery)
    profile = _GAIN_PROFILES.get(key)
    if profile is None:
        profile = _GAIN_PROFILES[key] = {key: gain(suit, ranks, bravery)}
    return best_worth(p, [key], profile)[1]


_GAIN_PROFILES: Final[dict[tuple[Suit, int, int], dict[object, Profile]]] = {}


def best_worth(p: PlayerState, cards: list[Any], profiles: dict[object, Profile],
               accept: Callable[[PlayerState, Card], bool] | None = None
               ) -> tuple[object | None, float]:
    """The first of ``cards`` worth most to ``p`` by its worth profile, and that worth (None
    and 0 when there is none); ``accept(p, card)``, when given, is asked only of a card
    that would be the best so far. The score pad's rank formula (:func:`rank_gain`) is
    written here, in the loop, and what it reads of the player (the lowest rank, the
    miners' bravery) is read once: the playouts' picks, bids and heroes value hundreds of
    cards each (tests/test_fast_paths.py holds it to :func:`card_worth` and the heroes'
    worth). Typed for the compiled build (a list, a dict, :class:`Profile`'s fields, the
    column a number): the loop then runs without Python's generic operations."""
    pr: list[int] = p.ranks
    low, lows = lowest_rank(pr)
    line = LINE_WORTH if lows == 1 else PROGRESS_WORTH
    miners = -1  # the miners' bravery, read when a miner is valued
    shared: dict[object, float] | None = None  # the worth of each shared ENTRY key
    best: object | None = None
    best_value = 0.0
    for i in range(len(cards)):
        c = cards[i]
        f = profiles[c]
        kind = f.kind
        w = f.base
        if kind == GAIN:
            col = f.column
            ranks = f.ranks
            n = pr[col]
            g: float
            if col == _HUNTER:
                g = float(HUNTER_POINTS[n + ranks] - HUNTER_POINTS[n])
            elif col == _SMITH:
                g = float(SMITH_POINTS[n + ranks] - SMITH_POINTS[n])
            elif col == _MINER:
                if miners < 0:
                    miners = 0
                    for m in p.army[_MINER]:
                        miners += m.values[_MINER][1]  # type: ignore[index]
                g = float((miners + f.bravery) * (n + ranks) - miners * n)
            else:
                g = float(f.bravery)
            if ranks and n == low:
                g += line
            w += g
        elif kind == FIXED:
            pass  # its base
        elif kind == BEST_OF or kind == MERCENARY:
            w += best_worth(p, f.options, profiles)[1]
            if kind == MERCENARY and C.HRAFNSMERKI in p.command_zone:
                w += C.HRAFNSMERKI_POINTS_PER_MERCENARY
        elif kind == ENTRY:
            key = f.shared
            if key is None:
                w = RULES[c].worth(p)
            else:
                if shared is None:
                    shared = {}
                got = shared.get(key)
                if got is None:
                    got = shared[key] = RULES[c].worth(p)
                w = got
        if (best is None or w > best_value) and (accept is None or accept(p, c)):
            best, best_value = c, w
    return best, best_value


_HUNTER: Final = int(Suit.HUNTER)
_MINER: Final = int(Suit.MINER)
_SMITH: Final = int(Suit.BLACKSMITH)


def heuristic_bid_model(state: GameState, seat: int, taverns: Sequence[int],
                        coins: Sequence[int], rng: random.Random,
                        uniform_share: float | None = None) -> list[int]:
    """The default bid model: a documented heuristic distribution over the legal bids.

    With probability ``uniform_share`` (default :data:`UNIFORM_SHARE`) the coins are dealt
    uniformly at random. Otherwise the taverns are ranked by the worth of their best
    visible card for that player (:func:`card_worth`, perturbed by Gumbel noise of scale
    ``1 / TAVERN_SHARPNESS``, so the ranking is a softmax draw) and, as good players bid:
    the highest coin goes on the best tavern; the exchange coin (0 or 3*), when the player
    holds it, on the least valuable one (4 times in 5), so that the two purse coins are
    traded into their sum; the other taverns get the lowest coins or, half of the time, the
    next highest ones. What is left is the purse. Every legal bid has a chance.
    """
    random_ = rng.random
    if random_() < (UNIFORM_SHARE if uniform_share is None else uniform_share):
        coins = list(coins)
        shuffle(rng, coins)
        return coins[:len(taverns)]
    worth = tavern_worth(state, state.players[seat])
    # A softmax draw: Gumbel noise on each tavern's worth, drawn in the taverns' order; the
    # best first (ties, which need equal floats, by tavern: the taverns come in order).
    # ``ranked`` holds the taverns' places, put in order as they come (at most three: no
    # sort of keyed tuples, which the compiled build compares through Python's generic
    # comparison); math.log itself, not a local alias: the compiled build calls it natively.
    keys: list[float] = []
    ranked: list[int] = []
    n = 0  # the number of taverns, each known by its place
    for t in taverns:
        key = _GUMBEL_SCALE * math.log(-math.log(random_() or 1e-12)) - worth[t]
        j = n
        while j > 0 and keys[ranked[j - 1]] > key:
            j -= 1
        ranked.insert(j, n)
        keys.append(key)
        n += 1
    exchange: list[int] = []
    others: list[int] = []
    for c in coins:
        if c in _EXCHANGE:
            exchange.append(c)
        else:
            others.append(c)
    others.sort(reverse=True)
    out: list[int] = [-1] * n  # the coin on each tavern (coin codes are never negative)
    if others:
        out[ranked[0]] = others.pop(0)
    if exchange and n > 1 and random_() < 0.8:
        out[ranked[-1]] = exchange.pop()
    rest = others + exchange  # highest first, the exchange coin last
    for i in ranked:
        if out[i] < 0:
            out[i] = rest.pop(0) if random_() < 0.5 else rest.pop()
    return out


_GUMBEL_SCALE: Final = 1.0 / TAVERN_SHARPNESS


_EXCHANGE: Final = K.EXCHANGE_COINS

#: A canonical order of the cards (what the hidden order is forgotten into).
_CANONICAL: Final[dict[Card, int]] = {c: i for i, c in enumerate(sorted(C.ALL_CARDS, key=lambda c: c.token))}
C.each_card(lambda card: _CANONICAL.setdefault(card, len(_CANONICAL)))  # a plugin's: last


def _reshuffle(cards: list[Card], rng: random.Random) -> list[Card]:
    ordered = sorted(cards, key=_CANONICAL.__getitem__)
    shuffle(rng, ordered)
    return ordered


def determinize_state(state: GameState, viewer: int, rng: random.Random,
                      shown: Collection[tuple[int, int]] = (),
                      purse_known: Mapping[int, Sequence[str]] | None = None,
                      bid_model: BidModel | None = None) -> GameState:
    """A copy of ``state`` with everything ``viewer`` cannot know rebuilt from ``rng``.

    ``shown`` and ``purse_known`` (from :func:`nidavellir.observer.known_places`) are the
    face-down coins whose place was shown before their reveal; ``["*"]`` means the whole
    purse. Uses only what ``viewer`` may know (:class:`~nidavellir.observer.Observer`).
    """
    s = state.copy(rng=rng)  # reseeded at the end
    observer = Observer(viewer)
    # Unseen cards, one pile per age: the deck, the R3 box (age-2 cards) and, while another
    # player chooses, the Pioneer draw.
    pioneer_hidden = not observer.sees_drawn(s)
    for age in (1, 2):
        deck = s.decks[age]
        extra: list[Card] = []
        if age == 2:
            extra = s.box + (s.drawn if pioneer_hidden else [])
        if not deck and not extra:
            continue
        pool = _reshuffle(deck + extra, rng)
        s.decks[age] = pool[:len(deck)]
        rest = pool[len(deck):]
        if age == 2:
            s.box = rest[:len(s.box)]
            if pioneer_hidden:
                s.drawn = rest[len(s.box):]
    for age in (1, 2):
        if s.camp_decks[age]:
            s.camp_decks[age] = _reshuffle(s.camp_decks[age], rng)
    # Face-down coins: the seat's coin set is public, where they lie is not.
    model = bid_model or heuristic_bid_model
    purse_known = purse_known or {}
    for seat, taverns in observer.hidden_bids(s, shown).items():
        p = s.players[seat]
        known = list(purse_known.get(seat, ()))
        fixed: list[int] = []
        loose: list[int] = []
        if known == ["*"]:
            fixed = list(p.purse)
        else:
            for coin in sorted(p.purse):
                lab = K.label(coin)
                if lab in known:
                    known.remove(lab)
                    fixed.append(coin)
                else:
                    loose.append(coin)
        pool_coins = sorted([c for t in taverns if (c := p.bids[t]) is not None] + loose)
        placed = model(s, seat, taverns, pool_coins, rng)
        if len(placed) != len(taverns):
            raise ValueError(f"the bid model dealt {len(placed)} coins to {len(taverns)} taverns")
        left = list(pool_coins)
        for t, coin in zip(taverns, placed, strict=True):
            left.remove(coin)  # raises ValueError if the model invents a coin
            p.bids[t] = coin
        p.purse = sorted(fixed + left)
    # What another seat's cards remember in private: drawn again from what it may be.
    for p in s.players:
        for card in sorted(p.marks, key=_CANONICAL.__getitem__):
            if not observer.sees_mark(p.seat, card):
                p.marks[card] = rng.choice(MARKS[card].values)
    s.rng = random.Random(rng.getrandbits(63))
    return s
