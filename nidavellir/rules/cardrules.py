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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from ..cards import Card, Kind, Suit
from ..extensible import Extensible
from ..i18n import _

if TYPE_CHECKING:
    from ..state import PlayerState
    from .base import Table

#: A score-sheet line: (category of scoring.CATEGORIES, label, points).
ScoreLine = tuple[str, str, int]
#: What a card may remember: plain data that JSON keeps (records, observations).
Remembered = bool | int | str


@dataclass(frozen=True)
class Mark:
    """What a card remembers for its owner: a choice made when it came (a coin, a class) or
    a mark it sets (Zolkur on the purse). Declared on the card's entry
    (:attr:`CardRules.mark`); the value lies in the owner's :attr:`PlayerState.marks
    <nidavellir.state.PlayerState.marks>` under the card, so the state's copy and
    fingerprint, the score view (:attr:`ScoreView.marks`), the observation and the RL
    observation vector carry it without a line of their own."""

    values: tuple[Remembered, ...] = (True,)
    """Every value the mark may hold (the RL vector gives each a number: one-hot)."""
    public: bool = True
    """Whether every seat sees it (the observation, the RL vector); a private mark is seen
    by its owner only, and a determinization for another seat draws it again from
    :attr:`values`."""


@dataclass(frozen=True)
class ScoreView:
    """What a card's score reads of its owner's table (built by the scorer)."""

    owned: Sequence[Card]
    """Every card the player owns: army columns bottom to top, then the command zone."""
    coins: Sequence[int]
    """Coin values."""
    ranks: Mapping[Suit, int]
    bravery: Mapping[Suit, int]
    marks: Mapping[Card, Remembered] = field(default_factory=dict)
    """What the player's cards remember (:class:`Mark`), by card."""
    words: bool = True
    """Whether the lines' words are read: False where only the points are (a search scores
    thousands of finished playouts), and a card's score then builds no sentence: its
    lines' words are ``""`` (or a name it has at hand), their points the same."""

    @property
    def top_coin(self) -> int:
        return max(self.coins, default=0)

    @property
    def heroes(self) -> int:
        return sum(1 for c in self.owned if c.kind is Kind.HERO)

    @property
    def mercenaries(self) -> int:
        return sum(1 for c in self.owned if c.kind is Kind.MERCENARY)


def card_facts(card: Card) -> dict[str, object]:
    """The placeholders every card's text may use: ``points`` (fixed points), ``ranks`` (in
    its own column), ``bravery`` (their bravery points) and ``bravery1`` … for each rank's."""
    facts: dict[str, object] = {"points": card.points, "ranks": card.ranks,
                                "bravery": card.bravery_points}
    facts.update({f"bravery{i}": b for i, b in enumerate(card.bravery, 1)})
    return facts


class CardRules(metaclass=Extensible):
    """The behaviour of one card. Subclasses override what their card changes (a plugin's
    hero too: :mod:`nidavellir.extensible`)."""

    card: Card
    ability: str
    """What the card does, in plain English (the card-info panels), marked for the
    catalogues: its numbers are placeholders (:attr:`facts`), never typed in."""
    source: str
    """Where the rulebook (or a ruling) says so: ``FR`` section, page, ``R<n>``."""
    score_order = 1
    """Lines of a category are listed by this order, then in the order cards are owned."""
    mark: Mark | None = None
    """What the card remembers for its owner (:class:`Mark`), or None."""

    def __init__(self, card: Card, ability: str, source: str, **facts: object) -> None:
        self.card = card
        self.ability = ability
        self.source = source
        self.facts: dict[str, object] = {**card_facts(card), **facts}
        """The numbers the text names, by placeholder: the card's own
        (:func:`card_facts`) and the constants of its rule given here."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.card.token}>"

    def text(self) -> str:
        """What the card does in the reader's language, its numbers in their places."""
        return _(self.ability).format(**self.facts)

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




#: Every card's entry (heroes and artifacts; other cards behave by their kind), filled as
#: :mod:`.heroes` and :mod:`.artifacts` enter them (:mod:`.catalogue` is where to read it).
RULES: Final[dict[Card, CardRules]] = {}
#: What each card remembers (:class:`Mark`), by card: the marks' one declaration, which the
#: observer and the RL observation vector read.
MARKS: Final[dict[Card, Mark]] = {}


def enter(entry: CardRules) -> None:
    """Put a card's entry in :data:`RULES` (and its mark in :data:`MARKS`)."""
    if entry.card in RULES:
        raise ValueError(f"{entry.card.token} has an entry already: {RULES[entry.card]!r}")
    RULES[entry.card] = entry
    if entry.mark is not None:
        MARKS[entry.card] = entry.mark
