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
from typing import Any, ClassVar, Final

from . import cards as C
from .cards import Card, Suit
from .extensible import Extensible
from .i18n import N_, _, clauses, pgettext
from .names import card_name, class_in_sentence, hero_title, tavern_name


@dataclass(frozen=True, slots=True)
class Reveal:
    """A face-down coin shown to every seat: ``seat``'s coin ``coin`` lies at ``place`` (a
    tavern's bid ``T1``-``T3``, or the purse, where it replaced ``replaces``); with
    ``coin=None`` everything at ``place`` is shown (a trade shows the purse)."""

    seat: int
    place: str
    coin: str | None = None
    replaces: str | None = None


class EventSettings(metaclass=Extensible):
    """An event class's settings: class-level values, never fields of its dataclass
    (:mod:`nidavellir.extensible`)."""

    __slots__ = ()
    resets_reveals: ClassVar[bool] = False
    """True for an event after which every coin is face down again and nothing revealed
    before it still holds (a new round)."""


@dataclass(slots=True)
class Event(EventSettings):
    age: int
    round: int
    tavern: int | None

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


def you_name() -> str:
    """The name of the learner's own seat in the reader's language: "You", «Du», «Vous»
    (the walkthroughs' seat, a seat the learner names so)."""
    # Translators: the name of the learner's own seat ("You" in the walkthroughs); a line
    # about a seat of this name takes the second person ("You take", not "You takes"), so
    # it must be the word the messages beginning with "You" start with.
    return pgettext("seat", "You")


def is_you(name: str) -> bool:
    """Whether a seat is the learner's own, named You (in English, the lab's data, or in
    the reader's language: «Du», «Vous»): its lines say "You place", not "You places",
    and each language words them as it addresses the reader."""
    return name.strip().lower() in ("you", you_name().strip().lower())


def by(name: str, you: str, other: str, **values: object) -> str:
    """A line about a seat: the message ``you`` for a seat named You, else ``other`` with
    the seat's name as ``{name}`` (``by(n, _("You place a secret bid"), _("{name} places a
    secret bid"))``): two whole sentences, since the verb's form differs in every language."""
    return (you if is_you(name) else other).format(name=name, **values)


def _tavern(t: int | None) -> str:
    return tavern_name(t) if t is not None else "-"


# What brought a card taken or discarded, a coin transformed, a choice (an event's
# ``source`` or ``reason``): a card's English name, or one of these phrases; the engine keeps
# the English (events are data: saved games, frames) and :func:`origin` words it for the
# reader. Notation ("+3") stays as it is.
# Translators: where a card was taken from, in brackets after it: "Bo takes Warrior 7 (tavern)".
FROM_TAVERN: Final = N_("tavern")
# Translators: where a card was taken from: "Bo takes Hunter 0 (camp)".
FROM_CAMP: Final = N_("camp")
# Translators: why a card was discarded: "The table: Miner 2 is discarded (left in the tavern)".
LEFT_IN_TAVERN: Final = N_("left in the tavern")
# Translators: why a card was discarded (a 2-player game: a seat that takes from the camp
# discards a card of the tavern).
CAMP_VISITED: Final = N_("2 players: the camp was visited")
# Translators: why a card was discarded: a Royal Offering card leaves once its coin is transformed.
OFFERING_USED: Final = N_("Royal Offering used")
# Translators: why a card was discarded: the Pioneer of the Kingdom goes to nobody on a tie
# (R3 is a rule of the lab's reference, keep it).
PIONEER_UNWON: Final = N_("Pioneer of the Kingdom: nobody won it (R3)")
# Translators: why a seat recruits a hero, before "recruit a hero".
LINE_COMPLETED = N_("You completed a line")
_PHRASES = frozenset({FROM_TAVERN, FROM_CAMP, LEFT_IN_TAVERN, CAMP_VISITED, OFFERING_USED,
                      PIONEER_UNWON, LINE_COMPLETED})
_BY_NAME: dict[str, Card] = {}
C.each_card(lambda card: _BY_NAME.setdefault(card.name, card))


def origin(text: str) -> str:
    """An event's ``source`` or ``reason`` in the current language: a card by its name, a
    phrase of this module, notation as it is."""
    if text in _BY_NAME:
        return card_name(_BY_NAME[text])
    if text in _PHRASES:
        return _(text)
    return text


def place_name(place: str) -> str:
    """Where a coin lies: "hand", "purse" in the current language; a bid ``T1`` as it is."""
    if place == "hand":
        # Translators: where a transformed coin lies: "(King's Hand, hand)".
        return pgettext("coin place", "hand")
    if place == "purse":
        # Translators: where a transformed coin lies: "(Royal Offering +5, purse)".
        return pgettext("coin place", "purse")
    return place


@dataclass(slots=True)
class RoundStarted(Event):
    taverns: tuple[tuple[Card, ...], ...]
    # Every coin is back in its owner's hand (FR "Fin d'une manche").
    resets_reveals: ClassVar[bool] = True

    def describe(self, names: Sequence[str]) -> str:
        # Translators: a tavern and the tokens of its cards, "Laughing Goblin: W6 W4 W7".
        shown = clauses(_("{tavern}: {tokens}").format(
            tavern=tavern_name(i), tokens=" ".join(c.token for c in cards))
            for i, cards in enumerate(self.taverns))
        # Translators: the log's line when a round starts; {taverns} lists each tavern's cards.
        return _("Age {age}, round {round}: the dwarves enter the taverns ({taverns})").format(
            age=self.age, round=self.round, taverns=shown)


@dataclass(slots=True)
class BidPlaced(Event):
    player: int

    def describe(self, names: Sequence[str]) -> str:
        return by(names[self.player], _("You place a secret bid"),
                  _("{name} places a secret bid"))


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
        # Translators: {bids} is "Bo 4, Ann 3" (seats and coins), {order} "Bo > Ann".
        return _("{tavern}: bids revealed ({bids}); order {order}").format(
            tavern=_tavern(self.tavern), bids=shown,
            order=" > ".join(names[p] for p in self.order))


@dataclass(slots=True)
class CardTaken(Event):
    player: int
    card: Card
    source: str
    """"tavern", "camp", "pioneer", "discard" (Andumia / Brisingamens), ..."""

    def describe(self, names: Sequence[str]) -> str:
        # Translators: {source} is where the card came from (tavern, camp, a hero's name).
        # Translators: {card:acc} is the card with its article in the accusative («den
        # Krieger 7», «la carte Guerrier·ère 7»): keep the ":acc" (docs/translating.md).
        return by(names[self.player], _("You take {card:acc} ({source})"),
                  _("{name} takes {card:acc} ({source})"), card=card_name(self.card),
                  source=origin(self.source))


@dataclass(slots=True)
class CardPlaced(Event):
    player: int
    card: Card
    column: Suit

    def describe(self, names: Sequence[str]) -> str:
        # Translators: {card_class} is a class: "Bo places Warrior 7 in the warrior column".
        return by(names[self.player], _("You place {card:acc} in the {card_class} column"),
                  _("{name} places {card:acc} in the {card_class} column"),
                  card=card_name(self.card), card_class=class_in_sentence(self.column))


@dataclass(slots=True)
class CardToCommandZone(Event):
    """A card leaves a column of the army for the command zone (Thrud at the end of age 2,
    FR "THRUD")."""

    player: int
    card: Card
    column: Suit

    def describe(self, names: Sequence[str]) -> str:
        return by(names[self.player],
                  _("You move {card:acc} from the {card_class} column to the command zone"),
                  _("{name} moves {card:acc} from the {card_class} column to the command zone"),
                  card=card_name(self.card), card_class=class_in_sentence(self.column))


@dataclass(slots=True)
class CardDiscarded(Event):
    player: int | None
    card: Card
    reason: str

    def describe(self, names: Sequence[str]) -> str:
        if self.player is None:
            # Translators: a card discarded by nobody in particular; {reason} says why;
            # {card:nom}: the card with its article as the subject («der Krieger 7»).
            return _("The table: {card:nom} is discarded ({reason})").format(
                card=card_name(self.card), reason=origin(self.reason))
        # Translators: {name} is a seat's name (maybe "You"); {reason} says why.
        return _("{name}: {card:nom} is discarded ({reason})").format(
            name=names[self.player], card=card_name(self.card), reason=origin(self.reason))


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
            # Translators: a transform found no coin of the new value in the treasury.
            return by(names[self.player], _("You keep coin {coin}: no coin to take ({reason})"),
                      _("{name} keeps coin {coin}: no coin to take ({reason})"),
                      coin=self.old, reason=origin(self.reason))
        # Translators: {reason} is what transformed it (a card), {place} where the coin lies
        # (hand, purse, or a tavern's bid T1-T3).
        return by(names[self.player], _("You transform coin {old} into {new} ({reason}, {place})"),
                  _("{name} transforms coin {old} into {new} ({reason}, {place})"),
                  old=self.old, new=self.new, reason=origin(self.reason),
                  place=place_name(self.place))


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
            return by(names[self.player],
                      _("You trade {a} + {b}: no coin to take, nothing changes"),
                      _("{name} trades {a} + {b}: no coin to take, nothing changes"),
                      a=self.coins[0], b=self.coins[1])
        # Translators: a trade of two coins ({a}, {b}) for one of their sum.
        return by(names[self.player], _("You trade {a} + {b}: give up {given_up}, take {new}"),
                  _("{name} trades {a} + {b}: gives up {given_up}, takes {new}"),
                  a=self.coins[0], b=self.coins[1], given_up=self.given_up, new=self.new)


@dataclass(slots=True)
class GemsExchanged(Event):
    swaps: tuple[tuple[int, int, int], ...]
    """(player, old gem, new gem)."""

    def describe(self, names: Sequence[str]) -> str:
        shown = ", ".join(f"{names[p]} {a}->{b}" for p, a, b in self.swaps)
        # Translators: {swaps} is "Bo 4->3, Ann 3->4" (seats and their gems).
        return _("{tavern}: tied bidders exchange gems ({swaps})").format(
            tavern=_tavern(self.tavern), swaps=shown)


@dataclass(slots=True)
class HeroRecruited(Event):
    player: int
    hero: Card

    def describe(self, names: Sequence[str]) -> str:
        # Translators: "Bo recruits Kraal, the Venal" (a hero and their title).
        return by(names[self.player], _("You recruit {hero}, {title}"),
                  _("{name} recruits {hero}, {title}"), hero=card_name(self.hero),
                  title=hero_title(self.hero))


@dataclass(slots=True)
class RecruitSkipped(Event):
    player: int

    def describe(self, names: Sequence[str]) -> str:
        # Translators: R12 is a rule of the lab's reference; keep it.
        return by(names[self.player],
                  _("You completed a line but no hero can be recruited (R12)"),
                  _("{name} completed a line but no hero can be recruited (R12)"))


@dataclass(slots=True)
class DistinctionAwarded(Event):
    distinction: Card
    player: int | None
    ranks: tuple[int, ...] = ()
    """Every player's ranks of the distinction's class when it was evaluated (R23)."""

    def describe(self, names: Sequence[str]) -> str:
        if self.player is None:
            # Translators: R23 is a rule of the lab's reference; keep it.
            return _("{distinction}: tie, nobody wins it (R23)").format(
                distinction=card_name(self.distinction))
        return by(names[self.player], _("You win {distinction:acc}"),
                  _("{name} wins {distinction:acc}"),
                  distinction=card_name(self.distinction))


@dataclass(slots=True)
class CoinSwapped(Event):
    """Hunting Master: the bronze 0 leaves the game for the green 3."""

    player: int

    def describe(self, names: Sequence[str]) -> str:
        # Translators: the bronze coin 0 for the green coin 3* (notation: keep "0" and "3*");
        # {card:gen} is the Hunting Master in the genitive ("the Hunting Master's", «der
        # Jagdtrophäe», «de la distinction « Maître·esse de Chasse »»).
        return by(names[self.player], _("You swap the 0 for {card:gen} 3*"),
                  _("{name} swaps the 0 for {card:gen} 3*"), card=card_name(C.HUNTING_MASTER))


@dataclass(slots=True)
class GemReplaced(Event):
    player: int
    old: int

    def describe(self, names: Sequence[str]) -> str:
        return by(names[self.player], _("You replace gem {old} by gem 6"),
                  _("{name} replaces gem {old} by gem 6"), old=self.old)


@dataclass(slots=True)
class CampRefilled(Event):
    cards: tuple[Card, ...]

    def describe(self, names: Sequence[str]) -> str:
        # Translators: {cards} is a list of cards' names ("Mercenary W6/E8, Draupnir").
        return _("The camp shows {cards}").format(cards=", ".join(card_name(c) for c in self.cards))


@dataclass(slots=True)
class CoinDiscarded(Event):
    player: int
    coin: str
    reason: str

    def describe(self, names: Sequence[str]) -> str:
        return by(names[self.player], _("You discard coin {coin} ({reason})"),
                  _("{name} discards coin {coin} ({reason})"), coin=self.coin,
                  reason=origin(self.reason))


@dataclass(slots=True)
class AgeEnded(Event):
    def describe(self, names: Sequence[str]) -> str:
        return _("End of age {age}").format(age=self.age)


@dataclass(slots=True)
class GameEnded(Event):
    totals: tuple[int, ...]

    def describe(self, names: Sequence[str]) -> str:
        # Translators: {totals} is "Bo 87, Ann 80" (seats and their points).
        return _("Game over: {totals}").format(totals=", ".join(
            f"{n} {t}" for n, t in zip(names, self.totals, strict=True)))

