"""What a card will be worth later, for a player, from what that player knows.

The score sheet of a game in progress already counts end-of-game cards at their value
today (Svalinn with the heroes owned now, Astrid with the highest coin now). A learner
choosing a card also needs to know how that value is made and when it comes:
:func:`outlook` says it in one line ("scores 5 per hero at the end: +10 with your 2 heroes
today"). It reads only the player's own state (their coins, army and command zone), so
it never tells anything another seat's view does not already show them.

>>> from nidavellir import Game, cards as C
>>> g = Game.new(players=2, seed=1)
>>> outlook(g, 0, C.SVALINN)
'5 points per hero at the end: +0 with your 0 heroes today'
>>> outlook(g, 0, C.card("W7"))
''
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import Card, Kind, Suit
from .i18n import _, count
from .names import class_with_article
from .rules.catalogue import rules_of

if TYPE_CHECKING:
    from .game import Game
    from .state import PlayerState


def outlook(game: Game, seat: int, card: Card) -> str:
    """How ``card`` scores later for ``seat`` (empty when it only counts where it lies)."""
    return outlook_for(game.state.players[seat], card)


def outlook_for(p: PlayerState, card: Card) -> str:
    """:func:`outlook` from the player's own state: a mercenary by its kind, a hero or an
    artifact by its entry (:mod:`nidavellir.rules.catalogue`)."""
    if card.kind is Kind.MERCENARY:
        # Translators: a side of a mercenary, "as a warrior (6 points)" / "as a miner (1
        # point)"; its other kind of side is "as a hunter (a rank)".
        sides = [count(bp, "as {a_class} ({n} point)", "as {a_class} ({n} points)",
                       a_class=class_with_article(s))
                 if s in (Suit.WARRIOR, Suit.MINER, Suit.EXPLORER)
                 else _("as {a_class} (a rank)").format(a_class=class_with_article(s))
                 for s, bp in card.sides]
        # Translators: a mercenary's outlook; {first} and {second} are its two sides.
        return _("placed in your army at the end of the age: {first} or {second}").format(
            first=sides[0], second=sides[1])
    entry = rules_of(card)
    return entry.outlook(p) if entry is not None else ""


__all__ = ["outlook", "outlook_for"]
