"""Determinization: a full game state consistent with what one seat knows, and nothing more.

What a seat may know is decided by :mod:`nidavellir.observer` (the observation contract);
:func:`determinize_state` rebuilds each part hidden from it from public data only: the
unseen cards of each pile (age decks, the R3 box, the camp decks, a Pioneer draw another
player is choosing from) are put in a canonical order and then shuffled with the given
generator, and each other player's face-down coins (a multiset known from its public coin
set) are dealt to its hidden taverns by a bid model; the random generator is reseeded. So
two states that differ only in what ``viewer`` cannot see give identical determinizations
for the same generator.

The quick card and tavern worths here (:func:`card_worth`) are public estimates used by the
bid model and the search's playouts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Mapping, Sequence

from . import cards as C
from . import coins as K
from .actions import Action
from .cards import Card, Kind, Suit
from .observer import Observer
from .rules.army import HUNTER_POINTS, LINE_WORTH, PROGRESS_WORTH, SMITH_POINTS, rank_gain
from .rules.catalogue import RULES
from .state import GameState, PlayerState

#: ``bid_model(state, seat, taverns, coins, rng) -> coins for those taverns``: deals some of
#: ``coins`` (the seat's face-down coins, sorted) onto ``taverns`` (tavern indices, in order);
#: the coins left over are the purse.
BidModel = Callable[[GameState, int, Sequence[int], Sequence[int], random.Random], list[int]]

#: Share of uniformly random bids in the default model: players are not always sensible, and
#: a model that never expects a surprise overrates its own reads.
UNIFORM_SHARE = 0.25
#: How sharply the default model prefers high coins on valuable taverns (points per unit of
#: the tavern's worth, in the softmax over which tavern gets the next-highest coin).
TAVERN_SHARPNESS = 0.35


#: How :func:`card_worth` reads each card: (what it is, its class, ranks, bravery points).
_ROYAL, _SUITED, _MERCENARY, _ENTRY, _OTHER = range(5)
_PROFILES: dict[Card, tuple[int, Suit | None, int, int]] = {}
for _card in C.ALL_CARDS:
    if _card.kind is Kind.ROYAL_OFFERING:
        _PROFILES[_card] = (_ROYAL, None, 0, _card.value)
    elif _card.kind is Kind.MERCENARY:
        _PROFILES[_card] = (_MERCENARY, None, 0, 0)
    elif _card.suit is not None:
        _PROFILES[_card] = (_SUITED, _card.suit, *_card.column_value(_card.suit))
    elif _card in RULES:
        _PROFILES[_card] = (_ENTRY, None, 0, 0)
    else:
        _PROFILES[_card] = (_OTHER, None, 0, 0)


def card_worth(p: PlayerState, card: Card) -> float:
    """A quick, public estimate of what ``card`` is worth to ``p`` (bid models and playouts):
    the score the card adds to its column, a line's hero when it completes one, a Royal
    Offering's coin bonus, a mercenary's better side; an artifact or a hero as its entry
    values it for ``p`` (:meth:`~nidavellir.rules.cardrules.CardRules.worth`)."""
    what, suit, ranks, bravery = _PROFILES[card]
    if what is _SUITED:
        return rank_gain(p, suit, ranks, bravery)  # type: ignore[arg-type]
    if what is _ROYAL:
        return bravery
    if what is _MERCENARY:
        best = -math.inf
        for side, points in card.sides:
            g = rank_gain(p, side, 1, points)
            if g > best:
                best = g
        if C.HRAFNSMERKI in p.command_zone:
            best += C.HRAFNSMERKI_POINTS_PER_MERCENARY
        return best
    if what is _ENTRY:
        return RULES[card].worth(p)
    return 4.0


def worthiest(p: PlayerState, actions: Sequence[Action]) -> Action:
    """The action (a pick: ``args[0]`` is the card) whose card is worth most to ``p`` by
    :func:`card_worth`, the first on ties."""
    cards: list[Card] = [a.args[0] for a in actions]  # type: ignore[misc]
    return actions[cards.index(worthiest_card(p, cards))]


def worthiest_card(p: PlayerState, cards: Sequence[Card]) -> Card:
    """The card worth most to ``p`` by :func:`card_worth`, the first on ties (the heuristic
    playouts' pick)."""
    best = _best_card(p, cards)[0]
    assert best is not None, "worthiest of no cards"
    return best


def tavern_worth(state: GameState, p: PlayerState) -> list[float]:
    """The best card of each tavern for ``p`` (visible cards only; 0 for an empty one)."""
    return [_best_card(p, tavern)[1] for tavern in state.taverns]


def _best_card(p: PlayerState, cards: Sequence[Card]) -> tuple[Card | None, float]:
    """The first card worth most to ``p`` by :func:`card_worth` and its worth (None and 0
    for no card), with :func:`~nidavellir.rules.army.rank_gain` inlined for the dwarf cards
    and what it reads of the player (the lowest rank, the miners' bravery) read once: the
    playouts' picks and bids (tests/test_fast_paths.py holds it to ``card_worth``)."""
    profiles = _PROFILES
    pr = p.ranks
    low = min(pr)
    line = LINE_WORTH if pr.count(low) == 1 else PROGRESS_WORTH
    miners = -1  # the miners' bravery, read when a miner card is valued
    best: Card | None = None
    best_value = 0.0
    for c in cards:
        what, suit, ranks, bravery = profiles[c]
        w: float
        if what is _SUITED:
            n = pr[suit]  # type: ignore[index]
            if suit is _HUNTER:
                w = HUNTER_POINTS[n + ranks] - HUNTER_POINTS[n]
            elif suit is _SMITH:
                w = SMITH_POINTS[n + ranks] - SMITH_POINTS[n]
            elif suit is _MINER:
                if miners < 0:
                    miners = 0
                    for m in p.army[_MINER]:
                        miners += m.column_value(_MINER)[1]
                w = (miners + bravery) * (n + ranks) - miners * n
            else:
                w = bravery
            if ranks and n == low:
                w += line
        elif what is _MERCENARY:
            # card_worth: its better side (one rank there), by the formula above.
            w = -math.inf
            for suit, bravery in c.sides:
                n = pr[suit]
                g: float
                if suit is _HUNTER:
                    g = HUNTER_POINTS[n + 1] - HUNTER_POINTS[n]
                elif suit is _SMITH:
                    g = SMITH_POINTS[n + 1] - SMITH_POINTS[n]
                elif suit is _MINER:
                    if miners < 0:
                        miners = 0
                        for m in p.army[_MINER]:
                            miners += m.column_value(_MINER)[1]
                    g = (miners + bravery) * (n + 1) - miners * n
                else:
                    g = bravery
                if n == low:
                    g += line
                if g > w:
                    w = g
            if C.HRAFNSMERKI in p.command_zone:
                w += C.HRAFNSMERKI_POINTS_PER_MERCENARY
        else:
            w = card_worth(p, c)
        if best is None or w > best_value:
            best, best_value = c, w
    return best, best_value


_HUNTER, _MINER, _SMITH = Suit.HUNTER, Suit.MINER, Suit.BLACKSMITH


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
        rng.shuffle(coins)
        return coins[:len(taverns)]
    worth = tavern_worth(state, state.players[seat])
    log = math.log
    # A softmax draw: Gumbel noise on each tavern's worth, drawn in the taverns' order; the
    # best first (ties, which need equal floats, by tavern: the taverns come in order).
    keyed = [(_GUMBEL_SCALE * log(-log(random_() or 1e-12)) - worth[t], t) for t in taverns]
    keyed.sort()
    exchange: list[int] = []
    others: list[int] = []
    for c in coins:
        if c in _EXCHANGE:
            exchange.append(c)
        else:
            others.append(c)
    others.sort(reverse=True)
    out: dict[int, int] = {}
    if others:
        out[keyed[0][1]] = others.pop(0)
    if exchange and len(keyed) > 1 and random_() < 0.8:
        out[keyed[-1][1]] = exchange.pop()
    rest = others + exchange  # highest first, the exchange coin last
    for _, t in keyed:
        if t not in out:
            out[t] = rest.pop(0) if random_() < 0.5 else rest.pop()
    return [out[t] for t in taverns]


_GUMBEL_SCALE = 1.0 / TAVERN_SHARPNESS


_EXCHANGE = K.EXCHANGE_COINS

#: A canonical order of the cards (what the hidden order is forgotten into).
_CANONICAL: dict[Card, int] = {c: i for i, c in enumerate(sorted(C.ALL_CARDS, key=lambda c: c.token))}


def _reshuffle(cards: list[Card], rng: random.Random) -> list[Card]:
    ordered = sorted(cards, key=_CANONICAL.__getitem__)
    rng.shuffle(ordered)
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
    s.rng = random.Random(rng.getrandbits(63))
    return s
