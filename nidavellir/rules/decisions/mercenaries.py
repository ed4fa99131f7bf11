"""Mercenaries at the end of each age: the order of the enlistment and each mercenary's column
(FR Thingvellir p.24; R14, R22), and the end of an end-of-age placement.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Final

from ... import cards as C
from ...actions import (
    COLUMNS,
    Action,
    Syntax,
    interned,
)
from ...cards import Card, Kind, Suit
from ...errors import InvalidNotation
from ...i18n import N_, _, pgettext
from ...names import class_name
from ...tokens import parse_suit, parse_token
from ..army import unplaced_mercenaries
from ..base import Choice, DecisionKind, Step, Table
from ..controls import (
    Buttons,
    CardColumns,
    Control,
)
from .words import card_arg, card_words, column_words, suit_arg


def _parse_enlist(verb: str, rest: str, text: str) -> tuple[object, ...]:
    parts = rest.split()
    if len(parts) == 1 and parts[0].lower() in ("first", "last"):
        return (parts[0].lower(),)
    if len(parts) == 2:
        return (parse_token(parts[0]), parse_suit(parts[1]))
    # Translators: an enlistment typed wrong ({first}, {last}, {other}: the notation's forms).
    raise InvalidNotation(_("{text!r}: expected {first}, {last} or {other}").format(
        text=text, first="enlist first", last="enlist last", other="enlist W6/E8 W"))


#: ``enlist first`` / ``enlist last`` (the order) and ``enlist W6/E8 W`` (a mercenary and
#: its column): the two enlistment decisions share the verb.
ENLIST_SYNTAX = Syntax("enlist W6/E8 W", _parse_enlist, lambda: (
    "first", "last", *(f"{m.token} {col}" for m in C.MERCENARIES for col in COLUMNS)))

@dataclass(frozen=True, slots=True)
class EnlistOrder(Choice):
    """FR Thingvellir p.24: the player with the most mercenaries enlists first or last."""

    order: tuple[int, ...]
    kind: ClassVar[DecisionKind] = DecisionKind.MERCENARY_ORDER
    verbs: ClassVar[Mapping[str, Syntax]] = {"enlist": ENLIST_SYNTAX}
    group: ClassVar[str] = "Thingvellir"
    control: ClassVar[Control] = Buttons(N_("Enlist your mercenaries"))

    def legal(self, table: Table) -> list[Action]:
        return [interned("enlist", ("first",)), interned("enlist", ("last",))]

    def apply(self, table: Table, action: Action) -> None:
        order = list(self.order)
        if action.args[0] == "last":
            order = order[1:] + order[:1]
        table.push(*[ENLIST_MORE[seat] for seat in order])

    def prompt(self, table: Table) -> str:
        return _("Enlistment: you have the most mercenaries; place them first or last?")

    @classmethod
    def label(cls, action: Action) -> str:
        if action.args[0] == "first":
            # Translators: a button: place your mercenaries before the others.
            return pgettext("button", "enlist first")
        # Translators: a button: place your mercenaries after the others.
        return pgettext("button", "enlist last")

    def say(self, table: Table, action: Action) -> str:
        if action.args[0] == "first":
            return _("Place your mercenaries first")
        return _("Place your mercenaries last")


@dataclass(frozen=True, slots=True)
class Enlist(Choice):
    """FR Thingvellir p.24: place a mercenary on one of its two sides. ``only``: one card
    that must be placed at once (Holda's pick at the end of an age, R22); otherwise an
    enlistment turn, which goes on until every mercenary is placed."""

    only: Card | None = None
    kind: ClassVar[DecisionKind] = DecisionKind.MERCENARY
    verbs: ClassVar[Mapping[str, Syntax]] = {"enlist": ENLIST_SYNTAX}
    group: ClassVar[str] = "Thingvellir"
    control: ClassVar[Control] = CardColumns(N_("Place a mercenary"))

    def legal(self, table: Table) -> list[Action]:
        p = table.state.players[self.player]
        mercs = [self.only] if self.only is not None else dict.fromkeys(unplaced_mercenaries(p))
        return [a for m in mercs for a in ENLIST_ACTIONS[m]]

    def apply(self, table: Table, action: Action) -> None:
        p = table.state.players[self.player]
        merc, suit = action.args
        assert isinstance(merc, Card) and isinstance(suit, Suit)
        p.command_zone.remove(merc)
        if self.only is None:
            # R22: the recruitments this placement starts may place Holda's mercenary at
            # once; the flag ends when the turn does (EnlistMore).
            p.end_of_age_placement = True
            table.push(ENLIST_MORE[p.seat])
        table.place(p, merc, suit)

    def prompt(self, table: Table) -> str:
        return _("Enlistment: place a mercenary in one of its two classes")

    @classmethod
    def label(cls, action: Action) -> str:
        # Translators: a button: a mercenary placed as a card of this class, "as Warrior".
        return _("as {card_class}").format(card_class=class_name(suit_arg(action, 1)))

    def say(self, table: Table, action: Action) -> str:
        return _("Put {card:acc} in {column:acc}").format(card=card_words(card_arg(action)),
                                                  column=column_words(suit_arg(action, 1)))


@dataclass(frozen=True, slots=True)
class EnlistMore(Step):
    """An enlistment turn goes on while the player has mercenaries to place."""

    seat: int

    def run(self, table: Table) -> None:
        p = table.state.players[self.seat]
        if unplaced_mercenaries(p):
            table.push(ENLIST[p.seat])
        else:
            p.end_of_age_placement = False


#: Each mercenary's two enlistment actions (``enlist M SUIT``, its sides in order).
ENLIST_ACTIONS: Final[dict[Card, tuple[Action, ...]]] = {
    m: tuple(interned("enlist", (m, suit)) for suit, _ in m.sides)
    for m in C.ALL_CARDS if m.kind is Kind.MERCENARY}
#: One shared enlistment turn and its step per seat (decisions are immutable values).
ENLIST: Final[tuple[Enlist, ...]] = tuple(Enlist(seat) for seat in C.SEATS)
ENLIST_MORE: Final[tuple[EnlistMore, ...]] = tuple(EnlistMore(seat) for seat in C.SEATS)


@dataclass(frozen=True, slots=True)
class EndOfAgePlacementDone(Step):
    """Ylud's end-of-age placement and the recruitments it started are over (R22)."""

    seat: int

    def run(self, table: Table) -> None:
        table.state.players[self.seat].end_of_age_placement = False
