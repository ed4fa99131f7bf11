"""The decisions of the game, one class each (the heroes' own decision is in :mod:`.heroes`).

Each class holds everything about its kind of decision (see :mod:`.base`): who decides and
the facts the decision needs as named fields, its legal actions, what applying one does,
how its actions are written (its verbs' :class:`~nidavellir.actions.Syntax`; the shapes
only one decision uses are defined beside it), how it is asked, its words for a learner
and why a move is refused. The rulebook section or ruling that decides each is cited on
the class.

>>> Transform(2, bonus=5, reason="King's Hand")
Transform(player=2, bonus=5, reason="King's Hand", lowest=False)
>>> Pick(0, tavern=1).kind
'pick'
"""

from __future__ import annotations

from .bids import BID, Bid, UlineBid
from .coins import COIN_AT_PLACE, TRADE, VIDOFNIR, Transform, UlineTrade, Vidofnir, coin_places
from .columns import (
    CARD_AT_COLUMN,
    YLUD,
    ArmyDiscard,
    ColumnDiscard,
    OlwynDouble,
    ThrudColumn,
    YludColumn,
    column_actions,
)
from .mercenaries import (
    ENLIST,
    ENLIST_ACTIONS,
    ENLIST_MORE,
    ENLIST_SYNTAX,
    EndOfAgePlacementDone,
    Enlist,
    EnlistMore,
    EnlistOrder,
)
from .picks import CAMP, TAKE, Pick, PioneerKeep, TavernDiscard
from .piles import AndumiaChoice, BrisingamensChoice, HoldaChoice, ResolveCard
from .words import (
    card_arg,
    card_words,
    coin_label,
    coin_words,
    column_words,
    hero_to_column,
    origin,
    place_words,
    put_hero,
    suit_arg,
)

__all__ = ["BID", "CAMP", "CARD_AT_COLUMN", "COIN_AT_PLACE", "ENLIST", "ENLIST_ACTIONS",
           "ENLIST_MORE", "ENLIST_SYNTAX", "TAKE", "TRADE", "VIDOFNIR", "YLUD", "AndumiaChoice",
           "ArmyDiscard", "Bid", "BrisingamensChoice", "ColumnDiscard", "EndOfAgePlacementDone",
           "Enlist", "EnlistMore", "EnlistOrder", "HoldaChoice", "OlwynDouble", "Pick",
           "PioneerKeep", "ResolveCard", "TavernDiscard", "ThrudColumn", "Transform", "UlineBid",
           "UlineTrade", "Vidofnir", "YludColumn", "card_arg", "card_words", "coin_label",
           "coin_places", "coin_words", "column_actions", "column_words", "hero_to_column",
           "origin", "place_words", "put_hero", "suit_arg"]
