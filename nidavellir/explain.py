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

from . import cards as C
from . import coins as K
from .cards import Card, Kind, Suit

if TYPE_CHECKING:
    from .game import Game
    from .state import PlayerState


def _plural(n: int, word: str, plural: str = "") -> str:
    if n == 1:
        return f"1 {word}"
    return f"{n} " + (plural or word + ("es" if word.endswith("o") else "s"))


def _article(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def outlook(game: Game, seat: int, card: Card) -> str:
    """How ``card`` scores later for ``seat`` (empty when it only counts where it lies)."""
    p = game.state.players[seat]
    return _outlook(p, card)


def _mercenaries(p: PlayerState) -> int:
    return sum(1 for c in p.cards() if c.kind is Kind.MERCENARY)


def _outlook(p: PlayerState, card: Card) -> str:
    if card.kind is Kind.MERCENARY:
        sides = " or ".join(f"as {_article(s.column_name)} ({bp} points)" if s in (Suit.WARRIOR,
                                                                           Suit.MINER,
                                                                           Suit.EXPLORER)
                            else f"as {_article(s.column_name)} (a rank)" for s, bp in card.sides)
        return f"placed in your army at the end of the age: {sides}"
    if card is C.SVALINN:
        n = p.heroes
        return (f"{C.SVALINN_POINTS_PER_HERO} points per hero at the end: "
                f"+{C.SVALINN_POINTS_PER_HERO * n} with your {_plural(n, 'hero')} today")
    if card is C.DRAUPNIR:
        n = sum(1 for c in p.coins() if K.value(c) >= C.DRAUPNIR_MIN_COIN)
        return (f"{C.DRAUPNIR_POINTS} points per coin of {C.DRAUPNIR_MIN_COIN} or more at the "
                f"end: +{C.DRAUPNIR_POINTS * n} with your {_plural(n, 'such coin')} today")
    if card is C.HRAFNSMERKI:
        n = _mercenaries(p)
        return (f"{C.HRAFNSMERKI_POINTS_PER_MERCENARY} points per mercenary at the end: "
                f"+{C.HRAFNSMERKI_POINTS_PER_MERCENARY * n} with your "
                f"{_plural(n, 'mercenary', 'mercenaries')} today")
    if card is C.MJOLLNIR:
        best = max(p.ranks)
        return (f"{C.MJOLLNIR_POINTS_PER_RANK} points per rank of your best class at the end: "
                f"+{C.MJOLLNIR_POINTS_PER_RANK * best} with {_plural(best, 'rank')} today")
    if card is C.MEGINGJORD:
        return (f"+{card.points} at the end; from now on completed lines recruit no hero")
    if card is C.JARNGLOFI:
        return f"+{card.points} at the end; your exchange coin is discarded now"
    if card is C.ASTRID:
        high = max((K.value(c) for c in p.coins()), default=0)
        return f"scores your highest coin at the end: +{high} with your coin {high} today"
    if card in C.DWERG_BROTHERS:
        owned = sum(1 for c in p.command_zone if c in C.DWERG_BROTHERS)
        gain = C.DWERG_POINTS[min(owned + 1, 5)] - C.DWERG_POINTS[owned]
        return (f"with your {_plural(owned, 'brother')} already recruited, this one adds "
                f"+{gain} at the end")
    if card is C.THRUD:
        return (f"placed in a column now (her rank counts); +{C.THRUD_POINTS} at the end, "
                "when she goes to your command zone")
    if card is C.YLUD:
        top = max(Suit, key=lambda s: C.YLUD_BRAVERY[s])
        return (f"placed in a column at the end of each age: up to +{C.YLUD_BRAVERY[top]} "
                f"points (as {_article(top.column_name)}), and her rank may complete a line")
    if card is C.IDUNN:
        ranks = p.ranks[Suit.EXPLORER] + 1
        return (f"7 + 2 per explorer rank at the end: +{7 + C.IDUNN_BONUS_PER_RANK * ranks} "
                f"with {_plural(ranks, 'explorer rank')} once she is in")
    if card.kind is Kind.HERO and card.suit is None and card.points:
        return f"+{card.points} at the end of the game"
    if card is C.VEGVISIR:
        return "an explorer rank worth 13 points, now"
    return ""


__all__ = ["outlook"]
