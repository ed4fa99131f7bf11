"""Picks: a card of the tavern or the camp, the 2-player discard after a camp visit, and the
Pioneer of the Kingdom's card (FR "TOUR DE L'ELVALAND ACTIF-VE", "Le Campement",
"Pionnier-ère du Royaume").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Final

from ... import cards as C
from ... import events as ev
from ...actions import (
    CARD,
    Action,
    Syntax,
    interned,
)
from ...cards import Card
from ...draws import shuffle
from ...i18n import N_, _, pgettext
from ...names import card_name, tavern_name
from ..base import Choice, DecisionKind, Table
from ..controls import (
    CardTiles,
    Control,
)
from ..thingvellir import may_visit_camp
from .words import card_arg, card_words

#: Each card's tavern pick and camp pick (``take C``, ``camp C``: Pick's actions).
TAKE: Final[dict[Card, Action]] = {}
CAMP: Final[dict[Card, Action]] = {}


def _picks(card: Card) -> None:
    TAKE[card] = interned("take", (card,))
    CAMP[card] = interned("camp", (card,))


C.each_card(_picks)


@dataclass(frozen=True, slots=True)
class Pick(Choice):
    """FR "TOUR DE L'ELVALAND ACTIF-VE": a card of the tavern, or (Thingvellir, the
    winner or Fafnir's owner) a camp card instead (FR "Le Campement"; R18, R19)."""

    tavern: int
    kind: ClassVar[DecisionKind] = DecisionKind.PICK
    verbs: ClassVar[Mapping[str, Syntax]] = {"take": CARD, "camp": CARD}
    group: ClassVar[str] = "picks"
    control: ClassVar[Control] = CardTiles({"take": N_("Tavern"), "camp": N_("Camp")})
    tells_options: ClassVar[bool] = True

    def has_options(self, table: Table) -> bool:
        return bool(table.state.taverns[self.tavern])

    def legal(self, table: Table) -> list[Action]:
        s = table.state
        actions = [TAKE[c] for c in dict.fromkeys(s.taverns[self.tavern])]
        if s.camp and may_visit_camp(s, s.players[self.player]):
            actions += [CAMP[c] for c in dict.fromkeys(s.camp)]
        return actions

    def apply(self, table: Table, action: Action) -> None:
        s = table.state
        p = s.players[self.player]
        card = action.args[0]
        assert isinstance(card, Card)
        if action.verb == "camp":
            s.camp.remove(card)
            s.camp_visited = True
            # 2 players: the winner who goes to the camp also discards a tavern card (R19:
            # not the second player with Fafnir).
            if s.config.players == 2 and s.order and s.order[0] == p.seat:
                table.push(TavernDiscard(p.seat, self.tavern))
            table.take_card(p, card, ev.FROM_CAMP)
            return
        s.taverns[self.tavern].remove(card)
        table.take_card(p, card, ev.FROM_TAVERN)

    def prompt(self, table: Table) -> str:
        return _("Take a card from the {tavern:dat}").format(tavern=tavern_name(self.tavern))

    def why_illegal(self, table: Table, action: Action) -> str:
        s = table.state
        card = action.args[0]
        if action.verb == "camp":
            if card not in s.camp:
                # Translators: {token} is notation (a card token).
                return _("{token} is not in the camp").format(token=card)
            return _("only the tavern's winner (or the owner of {artifact} when the winner "
                     "did not) may take a camp card, once per tavern (FR Thingvellir)").format(
                artifact=card_name(C.FAFNIR_BALEYGR))
        shown = " ".join(c.token for c in s.taverns[self.tavern])
        # Translators: {token} and {tokens} are notation (card tokens).
        return _("{token} is not in the {tavern} (it holds {tokens})").format(
            token=card, tavern=tavern_name(self.tavern), tokens=shown)

    @classmethod
    def label(cls, action: Action) -> str:
        if action.verb == "camp":
            # Translators: a button: take this card from the camp.
            return pgettext("button", "camp")
        # Translators: a button: take this card.
        return pgettext("button", "take")

    def say(self, table: Table, action: Action) -> str:
        card = card_words(card_arg(action))
        if action.verb == "camp":
            return _("Take {card:acc} from the camp").format(card=card)
        # Translators: {card:acc} is the card with its article in the accusative («den
        # Krieger 7», «la carte Guerrier·ère 7»): keep the ":acc" (docs/translating.md).
        return _("Take {card:acc}").format(card=card)


@dataclass(frozen=True, slots=True)
class TavernDiscard(Choice):
    """2 players: the winner who visited the camp discards a card of the tavern (R19)."""

    tavern: int
    kind: ClassVar[DecisionKind] = DecisionKind.TAVERN_DISCARD
    verbs: ClassVar[Mapping[str, Syntax]] = {"drop": CARD}
    group: ClassVar[str] = "picks"
    control: ClassVar[Control] = CardTiles({"drop": N_("Discard from the tavern")})

    def legal(self, table: Table) -> list[Action]:
        return [interned("drop", (c,)) for c in dict.fromkeys(table.state.taverns[self.tavern])]

    def apply(self, table: Table, action: Action) -> None:
        card = action.args[0]
        assert isinstance(card, Card)
        table.state.taverns[self.tavern].remove(card)
        table.discard_card(card, self.player, ev.CAMP_VISITED)

    def prompt(self, table: Table) -> str:
        return _("You visited the camp: discard one of the cards of the {tavern:gen}").format(
            tavern=tavern_name(self.tavern))

    @classmethod
    def label(cls, action: Action) -> str:
        # Translators: a button: discard this card of the tavern.
        return pgettext("button", "drop")

    def say(self, table: Table, action: Action) -> str:
        return _("Discard {card:acc} from the tavern").format(card=card_words(card_arg(action)))





@dataclass(frozen=True, slots=True)
class PioneerKeep(Choice):
    """FR "Pionnier-ère du Royaume": keep one of the 3 cards drawn; the other two go back
    and the age-2 deck is shuffled."""

    kind: ClassVar[DecisionKind] = DecisionKind.PIONEER
    verbs: ClassVar[Mapping[str, Syntax]] = {"keep": CARD}
    group: ClassVar[str] = "picks"
    control: ClassVar[Control] = CardTiles({"keep": N_("Drawn cards")})

    def legal(self, table: Table) -> list[Action]:
        return [interned("keep", (c,)) for c in dict.fromkeys(table.state.drawn)]

    def apply(self, table: Table, action: Action) -> None:
        s = table.state
        p = s.players[self.player]
        card = action.args[0]
        assert isinstance(card, Card)
        s.drawn.remove(card)
        s.decks[2].extend(s.drawn)
        s.drawn = []
        shuffle(s.rng, s.decks[2])
        table.take_card(p, card, C.PIONEER_OF_THE_KINGDOM.name)

    def prompt(self, table: Table) -> str:
        return _("{distinction}: keep one of the three cards drawn").format(
            distinction=card_name(C.PIONEER_OF_THE_KINGDOM))

    @classmethod
    def label(cls, action: Action) -> str:
        # Translators: a button: keep this card.
        return pgettext("button", "keep")

    def say(self, table: Table, action: Action) -> str:
        return _("Keep {card:acc}").format(card=card_words(card_arg(action)))
