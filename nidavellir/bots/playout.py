"""Fast playout policies for the search bots (standard library only).

A playout plays a determinized game to its end many hundreds of times per decision, so its
policy must be much cheaper than ``greedy`` (which clones and scores every option). The
``heuristic`` policy reads only the state it is given (a determinization: every hidden part
already sampled from the searching seat's knowledge):

- **bid**: the bid model of :mod:`nidavellir.determinize` with 10% random bids (the highest
  coin on the tavern whose best card is worth most to the player, the exchange coin on the
  least valuable one so that the purse is traded up);
- **pick**: the card worth most to the player by :func:`~nidavellir.determinize.card_worth`
  (bravery points, progress towards the next line, a Royal Offering's bonus; camp cards by
  kind), with a small share of random picks so playouts do not all follow one line;
- **hero**: the hero worth most by :func:`hero_worth` (fixed points, or bravery and ranks for
  class heroes);
- anything else (transforms included: measured, a random coin did better than the highest)
  : a uniformly random legal action.

The ``random`` policy plays uniformly at random (the ``montecarlo`` baseline's playouts).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .. import coins as K
from ..actions import Action, interned
from ..cards import Card, Kind
from ..determinize import heuristic_bid_model, worthiest
from ..engine import Engine
from ..game import Game
from ..rules.base import DecisionKind

#: Share of picks and bids made at random in heuristic playouts.
PICK_NOISE = 0.1
BID_NOISE = 0.1

Policy = Callable[[Engine, random.Random], Action]


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


_HERO_WORTH: dict[Card, float] = {}


def random_policy(eng: Engine, rng: random.Random) -> Action:
    actions = eng.legal_actions()
    return actions[rng.randrange(len(actions))] if len(actions) > 1 else actions[0]


def heuristic_policy(eng: Engine, rng: random.Random) -> Action:
    s = eng.state
    task = s.tasks[-1]
    kind = task.kind  # type: ignore[union-attr]
    if kind is _BID:
        # A bid needs no list of the 60 legal bids: three of the player's own coins.
        p = s.players[task.player]  # type: ignore[union-attr]
        coins = heuristic_bid_model(s, p.seat, (0, 1, 2), sorted(p.hand), rng,
                                    uniform_share=BID_NOISE)
        return bid_action(tuple(K.label(c) for c in coins))
    actions = eng.legal_actions()
    if len(actions) == 1:
        return actions[0]
    if kind is _PICK:
        if rng.random() < PICK_NOISE:
            return actions[rng.randrange(len(actions))]
        return worthiest(s.players[task.player], actions)  # type: ignore[union-attr]
    if kind is _HERO:
        return _best(actions, lambda a: hero_worth(a.args[0]))  # type: ignore[arg-type]
    return actions[rng.randrange(len(actions))]


_BID, _PICK, _HERO = DecisionKind.BID, DecisionKind.PICK, DecisionKind.HERO


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
