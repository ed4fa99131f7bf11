"""Typed events: what happened between two decisions, for logs, charts and lessons.

Every event carries the age, round and tavern (0-based index, None outside a
tavern) at which it happened; ``describe(names)`` gives a plain-language line.

An event that shows every seat a face-down coin says so: :meth:`Event.reveals` lists what
it shows (:class:`Reveal`), and an event that turns every coin face down again (a new
round: the coins go back to the hands) sets ``resets_reveals``. That declaration is the
only place the observer learns from events
(:func:`nidavellir.observer.known_places`); tests/test_reveals.py plays twin games that
differ only in face-down coins and fails on an event that shows a difference without
declaring it.

>>> CoinTransformed(1, 2, 0, player=1, old="5", new="8", place="T2", reason="+3").reveals()
(Reveal(seat=1, place='T2', coin='8', replaces='5'),)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .cards import TAVERNS, Card, Suit


@dataclass(frozen=True, slots=True)
class Reveal:
    """A face-down coin shown to every seat: ``seat``'s coin ``coin`` lies at ``place`` (a
    tavern's bid ``T1``-``T3``, or the purse, where it replaced ``replaces``); with
    ``coin=None`` everything at ``place`` is shown (a trade shows the purse)."""

    seat: int
    place: str
    coin: str | None = None
    replaces: str | None = None


@dataclass(slots=True)
class Event:
    age: int
    round: int
    tavern: int | None
    resets_reveals: ClassVar[bool] = False
    """True for an event after which every coin is face down again and nothing revealed
    before it still holds (a new round)."""

    @property
    def kind(self) -> str:
        return type(self).__name__

    def reveals(self) -> tuple[Reveal, ...]:
        """The face-down coins this event shows every seat (module docs)."""
        return ()

    def describe(self, names: Sequence[str]) -> str:
        return self.kind

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = _plain(v)
        return out


def _plain(v: Any) -> Any:
    if isinstance(v, Card):
        return v.token
    if isinstance(v, Suit):
        return v.letter
    if isinstance(v, tuple | list):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    return v


#: Third-person verbs of the event lines and their form after "You" (seat names may be "You").
_SECOND_PERSON = {
    "places": "place", "takes": "take", "keeps": "keep", "transforms": "transform",
    "trades": "trade", "recruits": "recruit", "wins": "win", "swaps": "swap",
    "replaces": "replace", "discards": "discard", "completed": "completed",
}


def subject(name: str, verb: str) -> str:
    """``"Bo places"``, but ``"You place"`` for a seat named You."""
    if name.strip().lower() == "you":
        return f"{name} {_SECOND_PERSON.get(verb, verb)}"
    return f"{name} {verb}"


def _subject(names: Sequence[str], player: int, verb: str) -> str:
    return subject(names[player], verb)


def _tavern(t: int | None) -> str:
    return TAVERNS[t] if t is not None else "-"


@dataclass(slots=True)
class RoundStarted(Event):
    taverns: tuple[tuple[Card, ...], ...]
    # Every coin is back in its owner's hand (FR "Fin d'une manche").
    resets_reveals: ClassVar[bool] = True

    def describe(self, names: Sequence[str]) -> str:
        shown = "; ".join(f"{TAVERNS[i]}: {' '.join(c.token for c in cards)}"
                          for i, cards in enumerate(self.taverns))
        return f"Age {self.age}, round {self.round}: the dwarves enter the taverns ({shown})"


@dataclass(slots=True)
class BidPlaced(Event):
    player: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{_subject(names, self.player, 'places')} a secret bid"


@dataclass(slots=True)
class BidsRevealed(Event):
    bids: tuple[tuple[int, str], ...]
    """(player, coin label) in turn order."""
    order: tuple[int, ...]
    ties: tuple[tuple[int, ...], ...]

    def reveals(self) -> tuple[Reveal, ...]:
        assert self.tavern is not None
        return tuple(Reveal(p, f"T{self.tavern + 1}", coin) for p, coin in self.bids)

    def describe(self, names: Sequence[str]) -> str:
        shown = ", ".join(f"{names[p]} {c}" for p, c in self.bids)
        return f"{_tavern(self.tavern)}: bids revealed ({shown}); order " + \
            " > ".join(names[p] for p in self.order)


@dataclass(slots=True)
class CardTaken(Event):
    player: int
    card: Card
    source: str
    """"tavern", "camp", "pioneer", "discard" (Andumia / Brisingamens), ..."""

    def describe(self, names: Sequence[str]) -> str:
        return f"{_subject(names, self.player, 'takes')} {self.card.name} ({self.source})"


@dataclass(slots=True)
class CardPlaced(Event):
    player: int
    card: Card
    column: Suit

    def describe(self, names: Sequence[str]) -> str:
        return f"{_subject(names, self.player, 'places')} {self.card.name} in the {self.column.column_name} column"


@dataclass(slots=True)
class CardDiscarded(Event):
    player: int | None
    card: Card
    reason: str

    def describe(self, names: Sequence[str]) -> str:
        who = names[self.player] if self.player is not None else "The table"
        return f"{who}: {self.card.name} is discarded ({self.reason})"


@dataclass(slots=True)
class CoinTransformed(Event):
    player: int
    old: str
    new: str
    place: str
    reason: str

    def reveals(self) -> tuple[Reveal, ...]:
        # A coin transformed where it lies shows its place, though it lies face down again
        # (FR "Remettez face cachée"); coins in hand are always seen.
        if self.place == "hand":
            return ()
        return (Reveal(self.player, self.place, self.new, self.old),)

    def describe(self, names: Sequence[str]) -> str:
        if self.old == self.new:
            return f"{_subject(names, self.player, 'keeps')} coin {self.old}: no coin to take ({self.reason})"
        return (f"{_subject(names, self.player, 'transforms')} coin {self.old} into {self.new} "
                f"({self.reason}, {self.place})")


@dataclass(slots=True)
class CoinTraded(Event):
    player: int
    coins: tuple[str, str]
    given_up: str
    new: str

    def reveals(self) -> tuple[Reveal, ...]:
        # The trade is made in the open: the whole purse is seen.
        return (Reveal(self.player, "purse"),)

    def describe(self, names: Sequence[str]) -> str:
        if self.new == self.given_up:
            return (f"{_subject(names, self.player, 'trades')} {self.coins[0]} + {self.coins[1]}: "
                    "no coin to take, nothing changes")
        return (f"{_subject(names, self.player, 'trades')} {self.coins[0]} + {self.coins[1]}: gives up "
                f"{self.given_up}, takes {self.new}")


@dataclass(slots=True)
class GemsExchanged(Event):
    swaps: tuple[tuple[int, int, int], ...]
    """(player, old gem, new gem)."""

    def describe(self, names: Sequence[str]) -> str:
        shown = ", ".join(f"{names[p]} {a}->{b}" for p, a, b in self.swaps)
        return f"{_tavern(self.tavern)}: tied bidders exchange gems ({shown})"


@dataclass(slots=True)
class HeroRecruited(Event):
    player: int
    hero: Card

    def describe(self, names: Sequence[str]) -> str:
        return f"{_subject(names, self.player, 'recruits')} {self.hero.name}, {self.hero.title}"


@dataclass(slots=True)
class RecruitSkipped(Event):
    player: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{_subject(names, self.player, 'completed')} a line but no hero can be recruited (R12)"


@dataclass(slots=True)
class DistinctionAwarded(Event):
    distinction: Card
    player: int | None
    ranks: tuple[int, ...] = ()
    """Every player's ranks of the distinction's class when it was evaluated (R23)."""

    def describe(self, names: Sequence[str]) -> str:
        if self.player is None:
            return f"{self.distinction.name}: tie, nobody wins it (R23)"
        return f"{_subject(names, self.player, 'wins')} {self.distinction.name}"


@dataclass(slots=True)
class CoinSwapped(Event):
    """Hunting Master: the bronze 0 leaves the game for the green 3."""

    player: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{_subject(names, self.player, 'swaps')} the 0 for the Hunting Master's 3*"


@dataclass(slots=True)
class GemReplaced(Event):
    player: int
    old: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{_subject(names, self.player, 'replaces')} gem {self.old} by gem 6"


@dataclass(slots=True)
class CampRefilled(Event):
    cards: tuple[Card, ...]

    def describe(self, names: Sequence[str]) -> str:
        return "The camp shows " + ", ".join(c.name for c in self.cards)


@dataclass(slots=True)
class CoinDiscarded(Event):
    player: int
    coin: str
    reason: str

    def describe(self, names: Sequence[str]) -> str:
        return f"{_subject(names, self.player, 'discards')} coin {self.coin} ({self.reason})"


@dataclass(slots=True)
class AgeEnded(Event):
    def describe(self, names: Sequence[str]) -> str:
        return f"End of age {self.age}"


@dataclass(slots=True)
class GameEnded(Event):
    totals: tuple[int, ...]

    def describe(self, names: Sequence[str]) -> str:
        return "Game over: " + ", ".join(f"{n} {t}" for n, t in zip(names, self.totals,
                                                                     strict=True))

