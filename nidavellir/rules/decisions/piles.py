"""Taking from piles: Andumia's card of the discard, Holda's card of the camp, Brisingamens' two
cards of the discard (FR Thingvellir; R17, R18, R22).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from ... import cards as C
from ...actions import (
    CARD,
    NO_ARGS,
    Action,
    Syntax,
    interned,
)
from ...cards import Card, Kind
from ...i18n import N_, _, pgettext
from ...names import card_name
from ..base import Choice, DecisionKind, Step, Table
from ..controls import (
    CardTiles,
    Control,
)
from .mercenaries import Enlist
from .words import card_arg, card_words


@dataclass(frozen=True, slots=True)
class AndumiaChoice(Choice):
    """FR Thingvellir "ANDUMIA": keep a card of the discard (R17: skipped when empty)."""

    kind: ClassVar[DecisionKind] = DecisionKind.ANDUMIA
    verbs: ClassVar[Mapping[str, Syntax]] = {"choose": CARD}
    group: ClassVar[str] = "Thingvellir"
    control: ClassVar[Control] = CardTiles({"choose": N_("Take")})

    def legal(self, table: Table) -> list[Action]:
        return [interned("choose", (c,)) for c in dict.fromkeys(table.state.discard)]

    def apply(self, table: Table, action: Action) -> None:
        card = action.args[0]
        assert isinstance(card, Card)
        table.state.discard.remove(card)
        table.take_card(table.state.players[self.player], card, "Andumia")

    def prompt(self, table: Table) -> str:
        return _("{hero}: keep one card of the discard").format(hero=card_name(C.ANDUMIA))

    @classmethod
    def label(cls, action: Action) -> str:
        return pgettext("button", "take")

    def say(self, table: Table, action: Action) -> str:
        return _("Choose {card:acc}").format(card=card_words(card_arg(action)))


@dataclass(frozen=True, slots=True)
class HoldaChoice(Choice):
    """FR Thingvellir "HOLDA": a mercenary or an artifact of the camp (R17, R18: not a camp
    visit; R22: a mercenary taken during an end-of-age placement is placed at once)."""

    kind: ClassVar[DecisionKind] = DecisionKind.HOLDA
    verbs: ClassVar[Mapping[str, Syntax]] = {"choose": CARD}
    group: ClassVar[str] = "Thingvellir"
    control: ClassVar[Control] = CardTiles({"choose": N_("Take")})

    def legal(self, table: Table) -> list[Action]:
        return [interned("choose", (c,)) for c in dict.fromkeys(table.state.camp)]

    def apply(self, table: Table, action: Action) -> None:
        card = action.args[0]
        assert isinstance(card, Card)
        p = table.state.players[self.player]
        # Not a camp visit: Fafnir's owner may still go (R18).
        table.state.camp.remove(card)
        table.take_card(p, card, "Holda")
        if card.kind is Kind.MERCENARY and p.end_of_age_placement:
            # R22: when placing Ylud or a mercenary at the end of an age recruits Holda, her
            # mercenary goes into the army at once (FR « Déroulement de la fin de chaque
            # Age »: « placez cette dernière immédiatement dans votre armée »).
            table.push(Enlist(p.seat, card))

    def prompt(self, table: Table) -> str:
        return _("{hero}: take a mercenary or an artifact from the camp").format(
            hero=card_name(C.HOLDA))

    @classmethod
    def label(cls, action: Action) -> str:
        return pgettext("button", "take")

    def say(self, table: Table, action: Action) -> str:
        return _("Choose {card:acc}").format(card=card_words(card_arg(action)))


@dataclass(frozen=True, slots=True)
class BrisingamensChoice(Choice):
    """FR Thingvellir "BRISINGAMENS": up to 2 cards of the dwarf discard, each pick may be
    declined (R17); they are resolved in the order taken."""

    remaining: int = 2
    taken: tuple[Card, ...] = ()
    kind: ClassVar[DecisionKind] = DecisionKind.BRISINGAMENS
    verbs: ClassVar[Mapping[str, Syntax]] = {"choose": CARD, "skip": NO_ARGS}
    group: ClassVar[str] = "Thingvellir"
    control: ClassVar[Control] = CardTiles({"choose": N_("Take")})

    def legal(self, table: Table) -> list[Action]:
        s = table.state
        if not s.discard and not self.taken:
            return []
        return [interned("choose", (c,)) for c in dict.fromkeys(s.discard)] + [interned("skip")]

    def apply(self, table: Table, action: Action) -> None:
        s = table.state
        seat, remaining, taken = self.player, self.remaining, self.taken
        if action.verb == "choose":
            card = action.args[0]
            assert isinstance(card, Card)
            s.discard.remove(card)
            # Held (visible in the player's hand) until every pick is made, then resolved.
            s.players[seat].held.append(card)
            taken = taken + (card,)
            remaining -= 1
            if remaining and s.discard:
                table.push(BrisingamensChoice(seat, remaining, taken))
                return
        table.push(*[ResolveCard(seat, card, "Brisingamens") for card in taken])

    def prompt(self, table: Table) -> str:
        return _("{artifact}: take a card from the discard (or skip)").format(
            artifact=card_name(C.BRISINGAMENS))

    @classmethod
    def label(cls, action: Action) -> str:
        if action.verb == "skip":
            # Translators: a button: take no card of the discard.
            return pgettext("button", "skip (take nothing)")
        return pgettext("button", "take")

    def say(self, table: Table, action: Action) -> str:
        if action.verb == "skip":
            return _("Take nothing (skip)")
        return _("Choose {card:acc}").format(card=card_words(card_arg(action)))


@dataclass(frozen=True, slots=True)
class ResolveCard(Step):
    """A card held since a pick (Brisingamens) is taken now."""

    seat: int
    card: Card
    source: str

    def run(self, table: Table) -> None:
        p = table.state.players[self.seat]
        p.held.remove(self.card)
        table.take_card(p, self.card, self.source)
