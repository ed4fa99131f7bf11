"""How the Play tab draws a decision: each decision class declares its control
(``Choice.control``), one of the kinds below with the data that kind needs; the widgets
(``widgets/controls.py``) have one drawer per kind, which draws any decision that declares
it from its legal actions and that data, never from the decision's kind or verbs.

This module is the one list of the kinds of control (:data:`CONTROLS`). Every heading is
marked for translation here and shown in the reader's language; its placeholders are
filled by the drawer: ``{where}`` (the place of the coins a row groups) and the names of
:attr:`CoinButtons.names` (a card's name).

>>> CardTiles({"take": "Tavern"}).headings["take"]
'Tavern'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from ..actions import NO_ARGS, Syntax

if TYPE_CHECKING:
    from ..cards import Card


@dataclass(frozen=True)
class Control:
    """A kind of control and its data (the base: nothing to check)."""

    name: ClassVar[str]

    def check(self, owner: str, verbs: Mapping[str, Syntax]) -> None:
        """Raise TypeError when this control cannot draw the decisions of the class
        ``owner``, whose actions have these verbs."""


@dataclass(frozen=True)
class Buttons(Control):
    """A button per legal action, worded by the decision's ``label`` (a menu of the
    actions' words when there are many), under an optional heading."""

    heading: str = ""
    name: ClassVar[str] = "buttons"


@dataclass(frozen=True)
class BidDropdowns(Control):
    """A dropdown of the hand's coins per tavern, the rest shown as the purse: every action
    is three coins, one per tavern."""

    name: ClassVar[str] = "bid"


@dataclass(frozen=True)
class CardTiles(Control):
    """A card's tile with a button for each action naming a card (its first argument; a
    second argument that is a class puts the card's column under it), in a section per verb
    under ``headings[verb]``; an action that names no card (a skip) is a button under them."""

    headings: Mapping[str, str] = field(default_factory=dict)
    name: ClassVar[str] = "cards"

    def check(self, owner: str, verbs: Mapping[str, Syntax]) -> None:
        with_cards = {verb for verb, syntax in verbs.items() if syntax is not NO_ARGS}
        if set(self.headings) != with_cards:
            raise TypeError(f"{owner}: CardTiles needs a heading for each verb that "
                            f"names a card ({', '.join(sorted(with_cards))}), not for "
                            f"{', '.join(sorted(self.headings)) or 'none'}")


@dataclass(frozen=True)
class HeroHall(Control):
    """The hero hall: each hero a tile, a button for those that may be recruited, the
    reason under the others."""

    name: ClassVar[str] = "hero"


@dataclass(frozen=True)
class ColumnButtons(Control):
    """A button per column for the actions naming one column, over the column as it
    stands; ``shows_top``: a button's tip names the column's top card (a discard)."""

    shows_top: bool = False
    name: ClassVar[str] = "columns"


@dataclass(frozen=True)
class CoinButtons(Control):
    """A button per action under ``heading``, with the coin (or coins) the move would give
    after an arrow; ``by_place``: a row per place of the coin (the action's second argument,
    ``{where}`` in the heading). ``names``: placeholders of the heading filled with a card's
    name."""

    heading: str
    by_place: bool = False
    names: Mapping[str, Card] = field(default_factory=dict)
    name: ClassVar[str] = "coins"


@dataclass(frozen=True)
class CardColumns(Control):
    """A tile per card with a button for each column it may go to (actions naming a card
    and a class), under ``heading``."""

    heading: str
    name: ClassVar[str] = "card columns"


#: Every kind of control, the one list (widgets/controls.py draws each).
CONTROLS: tuple[type[Control], ...] = (Buttons, BidDropdowns, CardTiles, HeroHall,
                                       ColumnButtons, CoinButtons, CardColumns)

__all__ = ["CONTROLS", "BidDropdowns", "Buttons", "CardColumns", "CardTiles", "CoinButtons",
           "ColumnButtons", "Control", "HeroHall"]
