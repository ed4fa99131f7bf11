"""The army: a column for Thrud, Ylud and Olwyn's doubles, Dagda's and Bonfur's discards, Höfud's
and Brisingamens' removals (R8, R10, R13, R16).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Final

from ... import cards as C
from ... import events as ev
from ...actions import (
    CARD_TOKENS,
    COLUMN,
    COLUMNS,
    Action,
    Syntax,
    format_arg,
    interned,
)
from ...cards import Card, Suit
from ...errors import InvalidNotation
from ...i18n import N_, _, pgettext
from ...names import card_name, class_in_sentence
from ...tokens import parse_suit, parse_token
from ..army import army_discard_options, discardable_columns
from ..base import Choice, DecisionKind, Table
from ..controls import (
    CardTiles,
    ColumnButtons,
    Control,
)
from .mercenaries import EndOfAgePlacementDone
from .words import card_arg, card_words, column_words, hero_to_column, origin, put_hero, suit_arg

_COLUMN_ACTIONS: Final[dict[str, list[Action]]] = {}


def column_actions(verb: str) -> list[Action]:
    """``verb W`` … ``verb E``: one shared list per verb."""
    found = _COLUMN_ACTIONS.get(verb)
    if found is None:
        found = _COLUMN_ACTIONS[verb] = [interned(verb, (suit,)) for suit in C.SUITS]
    return found





@dataclass(frozen=True, slots=True)
class ThrudColumn(Choice):
    """FR "THRUD"; R13: placed in any column (again, after a card went under her)."""

    kind: ClassVar[DecisionKind] = DecisionKind.THRUD
    verbs: ClassVar[Mapping[str, Syntax]] = {"thrud": COLUMN}
    group: ClassVar[str] = "heroes"
    control: ClassVar[Control] = ColumnButtons()

    def legal(self, table: Table) -> list[Action]:
        return column_actions("thrud")

    def apply(self, table: Table, action: Action) -> None:
        p = table.state.players[self.player]
        suit = action.args[0]
        assert isinstance(suit, Suit)
        p.held.remove(C.THRUD)
        # Thrud herself never lifts Thrud; the recruitment loop is already on the stack.
        p.add_to_column(C.THRUD, suit)
        table.emit(ev.CardPlaced, player=p.seat, card=C.THRUD, column=suit)

    def prompt(self, table: Table) -> str:
        return _("Place {hero} in a column of your choice").format(hero=card_name(C.THRUD))

    @classmethod
    def label(cls, action: Action) -> str:
        return hero_to_column(C.THRUD, action)

    def say(self, table: Table, action: Action) -> str:
        return put_hero(C.THRUD, action)




def _parse_ylud(verb: str, rest: str, text: str) -> tuple[object, ...]:
    if rest.lower() == "stay":
        # Translators: Ylud's move typed wrong ({ylud}: the hero's name; {example}: notation).
        raise InvalidNotation(_("{text!r}: name {ylud}'s current column to keep her there "
                                "(e.g. {example}), R8").format(
            text=text, ylud=card_name(C.YLUD), example="ylud W"))
    return (parse_suit(rest),)


#: ``ylud E``: a column; her own column keeps her where she is (R8).
YLUD = Syntax("ylud E", _parse_ylud, lambda: COLUMNS)


@dataclass(frozen=True, slots=True)
class YludColumn(Choice):
    """FR "YLUD L'IMPRÉVISIBLE": placed at the end of each age; at the end of age 2 she
    may stay in her column or move (R8)."""

    kind: ClassVar[DecisionKind] = DecisionKind.YLUD
    verbs: ClassVar[Mapping[str, Syntax]] = {"ylud": YLUD}
    group: ClassVar[str] = "heroes"
    control: ClassVar[Control] = ColumnButtons()

    def legal(self, table: Table) -> list[Action]:
        return column_actions("ylud")

    def apply(self, table: Table, action: Action) -> None:
        p = table.state.players[self.player]
        suit = action.args[0]
        assert isinstance(suit, Suit)
        current = p.column_of(C.YLUD)
        if current is suit:
            # R8: at the end of age 2 she may stay where she is.
            table.emit(ev.CardPlaced, player=p.seat, card=C.YLUD, column=suit)
            return
        if current is not None:
            p.remove_from_column(C.YLUD, current)
        else:
            p.command_zone.remove(C.YLUD)
        # R22: a mercenary Holda takes in the recruitments this placement starts is placed
        # at once; the flag ends with them.
        p.end_of_age_placement = True
        table.push(EndOfAgePlacementDone(p.seat))
        table.place(p, C.YLUD, suit)

    def prompt(self, table: Table) -> str:
        return _("End of age {age}: place {hero} in a column").format(age=table.state.age,
                                                                       hero=card_name(C.YLUD))

    @classmethod
    def label(cls, action: Action) -> str:
        return hero_to_column(C.YLUD, action)

    def say(self, table: Table, action: Action) -> str:
        return put_hero(C.YLUD, action)


#: Each column's discard action (``discard SUIT``).
_DISCARD: Final[dict[Suit, Action]] = {suit: interned("discard", (suit,)) for suit in C.SUITS}


@dataclass(frozen=True, slots=True)
class ColumnDiscard(Choice):
    """Dagda / Bonfur (R10, R16): discard the top card of another column, never a hero;
    ``remaining`` discards in all, each from a different column (``excluded`` so far)."""

    remaining: int
    reason: str
    excluded: tuple[Suit, ...]
    kind: ClassVar[DecisionKind] = DecisionKind.DISCARD
    verbs: ClassVar[Mapping[str, Syntax]] = {"discard": COLUMN}
    group: ClassVar[str] = "heroes"
    control: ClassVar[Control] = ColumnButtons(shows_top=True)

    def legal(self, table: Table) -> list[Action]:
        p = table.state.players[self.player]
        excluded = self.excluded
        return [_DISCARD[suit] for suit in discardable_columns(p) if suit not in excluded]

    def apply(self, table: Table, action: Action) -> None:
        p = table.state.players[self.player]
        suit = action.args[0]
        assert isinstance(suit, Suit)
        card = p.army[suit][-1]
        p.remove_from_column(card, suit)
        table.discard_card(card, p.seat, self.reason)
        if self.remaining > 1:
            table.push(ColumnDiscard(p.seat, self.remaining - 1, self.reason,
                                     self.excluded + (suit,)))

    def prompt(self, table: Table) -> str:
        # Translators: {reason} is the hero who discards (Dagda, Bonfur).
        return _("{reason}: discard the top card of another column").format(
            reason=origin(self.reason))

    def why_illegal(self, table: Table, action: Action) -> str:
        suit = action.args[0]
        assert isinstance(suit, Suit)
        p = table.state.players[self.player]
        if suit in self.excluded:
            return _("{reason} must discard from another column than {card_class}").format(
                reason=origin(self.reason), card_class=class_in_sentence(suit))
        if not p.army[suit]:
            return _("your {card_class} column is empty").format(
                card_class=class_in_sentence(suit))
        return _("the top card of your {card_class} column is a hero, which is never "
                 "discarded (R10)").format(card_class=class_in_sentence(suit))

    @classmethod
    def label(cls, action: Action) -> str:
        # Translators: a button, "discard top of W" ({letter} is notation: a class letter).
        return _("discard top of {letter}").format(letter=format_arg(action.args[0]))

    def say(self, table: Table, action: Action) -> str:
        # Translators: {column:gen}: the column in the genitive («deiner Krieger-Spalte»;
        # French with its «de»: «de votre colonne Guerrier·ère»).
        return _("Discard the top card of {column:gen}").format(
            column=column_words(suit_arg(action)))


def _parse_card_at(verb: str, rest: str, text: str) -> tuple[object, ...]:
    token, at, column = rest.rpartition("@")
    if not at:
        # Translators: a removal typed wrong ({example}: one in the notation).
        raise InvalidNotation(_("{text!r}: name the card and its column, e.g. {example}").format(
            text=text, example="remove W7@W"))
    return (parse_token(token), parse_suit(column))


#: ``remove W7@W``: a card and the column it lies in.
CARD_AT_COLUMN = Syntax(
    "remove W7@W", _parse_card_at,
    lambda: (f"{t}@{col}" for t in CARD_TOKENS for col in COLUMNS),
    lambda verb, args: f"{verb} {format_arg(args[0])}@{format_arg(args[1])}")


@dataclass(frozen=True, slots=True)
class ArmyDiscard(Choice):
    """Höfud (every other player, a warrior card, any position) and Brisingamens at the end
    of age 2 (any card): never a hero (R16)."""

    reason: str
    only: Suit | None = None
    kind: ClassVar[DecisionKind] = DecisionKind.ARMY_DISCARD
    verbs: ClassVar[Mapping[str, Syntax]] = {"remove": CARD_AT_COLUMN}
    group: ClassVar[str] = "Thingvellir"
    control: ClassVar[Control] = CardTiles({"remove": N_("Remove from your army")})

    def legal(self, table: Table) -> list[Action]:
        p = table.state.players[self.player]
        return [interned("remove", (c, suit)) for c, suit in army_discard_options(p, self.only)]

    def apply(self, table: Table, action: Action) -> None:
        p = table.state.players[self.player]
        card, suit = action.args
        assert isinstance(card, Card) and isinstance(suit, Suit)
        p.remove_from_column(card, suit)
        table.discard_card(card, p.seat, self.reason)

    def prompt(self, table: Table) -> str:
        # Translators: {reason} is the artifact that discards (Höfud, Brisingamens).
        return _("{reason}: discard a card from your army").format(reason=origin(self.reason))

    @classmethod
    def label(cls, action: Action) -> str:
        # Translators: a button: discard this card of your army.
        return pgettext("button", "remove")

    def say(self, table: Table, action: Action) -> str:
        return _("Discard {card:acc} from {column:dat}").format(card=card_words(card_arg(action)),
                                                        column=column_words(suit_arg(action, 1)))


@dataclass(frozen=True, slots=True)
class OlwynDouble(Choice):
    """FR Thingvellir "OLWYN": his two doubles go to two different columns (``excluded``);
    a double taken on its own (Andumia, Brisingamens) goes anywhere. ``remaining``: doubles
    of this effect still to place (other doubles held belong to other effects)."""

    excluded: tuple[Suit, ...] = ()
    remaining: int = 1
    kind: ClassVar[DecisionKind] = DecisionKind.OLWYN
    verbs: ClassVar[Mapping[str, Syntax]] = {"double": COLUMN}
    group: ClassVar[str] = "Thingvellir"
    control: ClassVar[Control] = ColumnButtons()

    def legal(self, table: Table) -> list[Action]:
        return [a for a in column_actions("double") if a.args[0] not in self.excluded]

    def apply(self, table: Table, action: Action) -> None:
        p = table.state.players[self.player]
        suit = action.args[0]
        assert isinstance(suit, Suit)
        p.held.remove(C.OLWYN_DOUBLE)
        if self.remaining > 1:
            # Olwyn's second double goes to a different column (FR "OLWYN").
            table.push(OlwynDouble(p.seat, self.excluded + (suit,), self.remaining - 1))
        table.place(p, C.OLWYN_DOUBLE, suit)

    def prompt(self, table: Table) -> str:
        return _("{hero}: place one of his doubles (two different columns)").format(
            hero=card_name(C.OLWYN))

    @classmethod
    def label(cls, action: Action) -> str:
        # Translators: a button, "double in W" ({letter} is notation: a class letter).
        return _("double in {letter}").format(letter=format_arg(action.args[0]))

    def say(self, table: Table, action: Action) -> str:
        return _("Put an Olwyn double in {column:acc}").format(
            column=column_words(suit_arg(action)))
