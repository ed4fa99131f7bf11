"""The game state: plain data, cheap to copy (Game.clone, what-if branches).

Rules live in :mod:`nidavellir.rules` and the engine that runs them in
:mod:`nidavellir.engine`; this module only holds data and the small invariants that keep
it consistent (rank counts). ``GameState.tasks`` is the stack of steps still to run
(:class:`~nidavellir.rules.base.Step` and :class:`~nidavellir.rules.base.Choice` values).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Final

from . import cards as C
from . import coins as K
from .cards import Card, Suit
from .options import RuleOptions

#: A step on the stack: a :class:`~nidavellir.rules.base.Step` or a
#: :class:`~nidavellir.rules.base.Choice` (typed there: the state does not know the rules).
Task = Any


@dataclass(frozen=True)
class GameConfig:
    players: int
    names: tuple[str, ...]
    expansions: tuple[str, ...] = ()
    options: RuleOptions = field(default_factory=RuleOptions)

    @property
    def thingvellir(self) -> bool:
        return C.THINGVELLIR in self.expansions

    @property
    def cards_per_tavern(self) -> int:
        return C.CARDS_PER_TAVERN[self.players]

    @property
    def rounds_per_age(self) -> int:
        return C.ROUNDS_PER_AGE[self.players]

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "names": list(self.names),
                "expansions": list(self.expansions), "options": self.options.to_dict()}

    def __reduce__(self) -> tuple[type[GameConfig], tuple[Any, ...]]:
        # Copied and pickled through the constructor: the compiled build's frozen classes
        # cannot be restored field by field (docs/development.md, "The compiled build").
        return (GameConfig, (self.players, self.names, self.expansions, self.options))


def lowest_rank(ranks: list[int]) -> tuple[int, int]:
    """The lowest of a player's ranks (its complete lines) and how many classes have it:
    the recruitment's check after every card placed and the playouts' valuation of every
    card read it. One loop, not min() and count(): the compiled build calls those through
    Python's generic call, and returns the pair without making a tuple."""
    low = ranks[0]
    lows = 1
    for i in range(1, len(ranks)):
        r = ranks[i]
        if r < low:
            low = r
            lows = 1
        elif r == low:
            lows += 1
    return low, lows


#: A player's fields (its slots; its pickle).
_PLAYER_FIELDS: Final = ("seat", "hand", "bids", "purse", "gem", "army", "ranks", "command_zone",
                         "heroes", "lost_recruits", "held", "marks", "end_of_age_placement")


class PlayerState:
    """One player's coins, gem, army and command zone."""

    __slots__ = _PLAYER_FIELDS

    def __init__(self, seat: int, gem: int) -> None:
        self.seat = seat
        self.hand: list[int] = list(K.STARTING_HAND)
        self.bids: list[int | None] = [None] * len(C.TAVERNS)
        self.purse: list[int] = []
        self.gem = gem
        self.army: list[list[Card]] = [[] for _suit in C.SUITS]
        self.ranks: list[int] = [0] * len(C.SUITS)
        self.command_zone: list[Card] = []
        self.heroes = 0
        """Hero cards owned (army and command zone)."""
        self.lost_recruits = 0
        """Recruits skipped because no hero was eligible (R12): they never come back."""
        self.held: list[Card] = []
        """Cards in the player's hand for a pending decision (Thrud to re-place, Olwyn's
        doubles to place)."""
        self.marks: dict[Card, bool | int | str] = {}
        """What the player's cards remember, by card: a choice made when the card came or
        a mark it set (Zolkur on the purse). Each card declares what it may remember and
        who sees it (:class:`~nidavellir.rules.cardrules.Mark`, on its entry)."""
        self.end_of_age_placement = False
        """Placing Ylud or enlisting mercenaries at the end of an age, with the recruitments
        it starts: a mercenary Holda takes now is placed at once (R22)."""

    def copy(self) -> PlayerState:
        # (A new player, then every field replaced: the compiled build's classes cannot be
        # made with __new__ alone, docs/development.md.)
        p = PlayerState(self.seat, self.gem)
        p.hand = self.hand[:]
        p.bids = self.bids[:]
        p.purse = self.purse[:]
        p.army = [col[:] for col in self.army]
        p.ranks = self.ranks[:]
        p.command_zone = self.command_zone[:]
        p.heroes = self.heroes
        p.lost_recruits = self.lost_recruits
        p.held = self.held[:]
        p.marks = self.marks.copy()
        p.end_of_age_placement = self.end_of_age_placement
        return p

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Copied and pickled through the constructor, then every field: the compiled build's
        # classes cannot be made with __new__ alone (docs/development.md).
        return (_restored, (PlayerState, (self.seat, self.gem),
                            {name: getattr(self, name) for name in _PLAYER_FIELDS}))

    @property
    def lines(self) -> int:
        """Complete lines: one rank in each of the 5 classes (FR "Recruter un·e Héros·ïne")."""
        return lowest_rank(self.ranks)[0]

    def coins(self) -> list[int]:
        """Every coin the player owns, wherever it is."""
        return self.hand + [c for c in self.bids if c is not None] + self.purse

    def owns(self, card: Card) -> bool:
        return card in self.command_zone or any(card in col for col in self.army)

    def cards(self) -> list[Card]:
        return [c for col in self.army for c in col] + self.command_zone + self.held

    def column_of(self, card: Card) -> Suit | None:
        for suit in C.SUITS:
            if card in self.army[suit]:
                return suit
        return None

    def add_to_column(self, card: Card, suit: Suit) -> None:
        ranks = card.column_value(suit)[0]
        self.army[suit].append(card)
        self.ranks[suit] += ranks

    def remove_from_column(self, card: Card, suit: Suit) -> None:
        col = self.army[suit]
        # Remove the topmost copy: discards take the top card.
        for i in range(len(col) - 1, -1, -1):
            if col[i] is card:
                del col[i]
                break
        else:
            raise ValueError(f"{card.token} is not in the {suit.column_name} column")
        self.ranks[suit] -= card.column_value(suit)[0]


#: The state's fields (its slots; its pickle).
_STATE_FIELDS: Final = ("config", "rng", "age", "round", "tavern", "decks", "taverns", "discard",
                        "box", "treasury", "hall", "players", "order", "ties", "tasks", "over",
                        "drawn", "camp", "camp_decks", "camp_discard", "camp_visited")


class GameState:
    """Everything on the table, plus the stack of steps still to run."""

    __slots__ = _STATE_FIELDS

    def __init__(self, config: GameConfig, rng: random.Random | None = None) -> None:
        self.config = config
        self.rng = rng if rng is not None else random.Random()
        self.age = 1
        self.round = 0
        self.tavern: int | None = None
        self.decks: dict[int, list[Card]] = {1: [], 2: []}
        """Age decks; the top card is the last item."""
        self.taverns: list[list[Card]] = [[] for _tavern in C.TAVERNS]
        self.discard: list[Card] = []
        """The face-up dwarf discard (R2, R15)."""
        self.box: list[Card] = []
        """Cards removed from the game unseen (R3 option)."""
        self.treasury = K.Treasury(C.treasury(config.players))
        self.hall: list[Card] = []
        self.players: list[PlayerState] = []
        self.order: list[int] = []
        self.ties: list[list[int]] = []
        self.tasks: list[Task] = []
        self.over = False
        self.drawn: list[Card] = []
        """Pioneer of the Kingdom's 3 drawn cards while the winner chooses."""
        self.camp: list[Card] = []
        self.camp_decks: dict[int, list[Card]] = {1: [], 2: []}
        self.camp_discard: list[Card] = []
        """Camp cards that never left the camp: nobody searches them (R15)."""
        self.camp_visited = False
        """Somebody took a camp card instead of a card of the current tavern."""

    def copy(self, rng: random.Random | None = None) -> GameState:
        """A copy of the whole state; its random generator is a copy of this one's, or
        ``rng`` when given (a determinization, which reseeds the copy anyway: copying a
        generator's state costs more than the rest of the copy)."""
        if rng is None:
            # Random() would first seed itself from the OS: skip that, the state is copied.
            rng = random.Random.__new__(random.Random)
            rng.setstate(self.rng.getstate())
        # (A new state, then every field replaced: the compiled build's classes cannot be
        # made with __new__ alone, docs/development.md.)
        s = GameState(self.config, rng)
        s.age = self.age
        s.round = self.round
        s.tavern = self.tavern
        s.decks = {k: v[:] for k, v in self.decks.items()}
        s.taverns = [t[:] for t in self.taverns]
        s.discard = self.discard[:]
        s.box = self.box[:]
        s.treasury = self.treasury.copy()
        s.hall = self.hall[:]
        s.players = [p.copy() for p in self.players]
        s.order = self.order[:]
        s.ties = [g[:] for g in self.ties]
        s.tasks = self.tasks[:]
        s.over = self.over
        s.drawn = self.drawn[:]
        s.camp = self.camp[:]
        s.camp_decks = {k: v[:] for k, v in self.camp_decks.items()}
        s.camp_discard = self.camp_discard[:]
        s.camp_visited = self.camp_visited
        return s

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # As PlayerState's: a new state, then every field.
        return (_restored, (GameState, (self.config,),
                            {name: getattr(self, name) for name in _STATE_FIELDS}))

    def fingerprint(self) -> tuple[Any, ...]:
        """A comparable summary of the whole state (replay and undo tests)."""
        def cards(xs: list[Card]) -> tuple[str, ...]:
            return tuple(c.token for c in xs)

        players = tuple(
            (tuple(p.hand), tuple(p.bids), tuple(p.purse), p.gem,
             tuple(cards(col) for col in p.army), tuple(p.ranks), cards(p.command_zone),
             p.heroes, p.lost_recruits, cards(p.held),
             tuple(sorted((c.token, v) for c, v in p.marks.items())), p.end_of_age_placement)
            for p in self.players)
        return (self.age, self.round, self.tavern, cards(self.decks[1]), cards(self.decks[2]),
                tuple(cards(t) for t in self.taverns), cards(self.discard), cards(self.box),
                tuple(self.treasury.counts), cards(self.hall), players, tuple(self.order),
                tuple(tuple(g) for g in self.ties), tuple(self.tasks), self.over,
                cards(self.drawn), cards(self.camp), cards(self.camp_decks[1]),
                cards(self.camp_decks[2]), cards(self.camp_discard), self.camp_visited,
                self.rng.getstate())


def _restored(cls: type[PlayerState] | type[GameState], args: tuple[Any, ...],
              fields: dict[str, Any]) -> Any:
    """A new ``cls(*args)`` given ``fields`` (a copy or an unpickled object:
    :meth:`GameState.__reduce__`)."""
    made = cls(*args)
    for name, value in fields.items():
        setattr(made, name, value)
    return made
