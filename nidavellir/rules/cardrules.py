"""A card's behaviour in one entry: what it does when gained, when it may not be recruited,
how it scores, and how a learner is told what it will be worth.

Heroes (:mod:`.heroes`) and artifacts (:mod:`.artifacts`) each have one entry, a
:class:`CardRules`; :mod:`.catalogue` collects them. The engine, the scorer, the coach's
explanations and the card-info panels all read the same entry, so a card's behaviour is
written once. Dwarves, Royal Offerings, mercenaries and distinctions are rules of their kind
(:mod:`.placement`, :mod:`.flow`, :mod:`nidavellir.scoring`), not of one card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import Card, Kind, Suit
from ..extensible import Extensible
from ..i18n import _

if TYPE_CHECKING:
    from ..state import PlayerState
    from .base import Table

#: A score-sheet line: (category of scoring.CATEGORIES, label, points).
ScoreLine = tuple[str, str, int]


@dataclass(frozen=True)
class ScoreView:
    """What a card's score reads of its owner's table (built by the scorer)."""

    owned: Sequence[Card]
    """Every card the player owns: army columns bottom to top, then the command zone."""
    coins: Sequence[int]
    """Coin values."""
    ranks: Mapping[Suit, int]
    bravery: Mapping[Suit, int]

    @property
    def top_coin(self) -> int:
        return max(self.coins, default=0)

    @property
    def heroes(self) -> int:
        return sum(1 for c in self.owned if c.kind is Kind.HERO)

    @property
    def mercenaries(self) -> int:
        return sum(1 for c in self.owned if c.kind is Kind.MERCENARY)


class CardRules(metaclass=Extensible):
    """The behaviour of one card. Subclasses override what their card changes (a plugin's
    hero too: :mod:`nidavellir.extensible`)."""

    card: Card
    ability: str
    """What the card does, in plain English (the card-info panels)."""
    source: str
    """Where the rulebook (or a ruling) says so: ``FR`` section, page, ``R<n>``."""
    score_order = 1
    """Lines of a category are listed by this order, then in the order cards are owned."""

    def __init__(self, card: Card, ability: str, source: str) -> None:
        self.card = card
        self.ability = ability
        self.source = source

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.card.token}>"

    def ineligible(self, p: PlayerState) -> str | None:
        """Why the card cannot be recruited by ``p`` now (heroes), or None."""
        return None

    def on_gain(self, table: Table, p: PlayerState) -> None:
        """The card comes to ``p``: recruited (a hero) or taken (an artifact)."""
        p.command_zone.append(self.card)

    def score(self, view: ScoreView) -> Sequence[ScoreLine]:
        """Score-sheet lines for the card's owner (only what columns do not count)."""
        if self.card.points and self.card.suit is None:
            category = "heroes" if self.card.kind is Kind.HERO else "artifacts"
            return ((category, self.card.name, self.card.points),)
        return ()

    def worth(self, p: PlayerState) -> float:
        """A quick estimate of the points the card brings ``p`` by the end of the game, from
        ``p``'s own state only: what the bots' bid model and playouts use to compare it with
        a dwarf (:func:`nidavellir.determinize.card_worth`)."""
        return 8.0 if self.card.kind is Kind.ARTIFACT else 4.0

    def outlook(self, p: PlayerState) -> str:
        """What the card will be worth later to ``p``, from ``p``'s own state only (empty
        when it counts only where it lies)."""
        if self.card.points and self.card.suit is None:
            # Translators: what a card will be worth, beside its button: "+17 at the end of
            # the game".
            return _("+{points} at the end of the game").format(points=self.card.points)
        return ""


