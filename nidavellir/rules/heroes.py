"""Heroes: who may be recruited, and what each one does when recruited.

FR "Recruter un·e Héros·ïne", "Capacités des cartes Héros·ïne"; R10 (Dagda / Bonfur),
R12 (the recruitment loop), R13 (Thrud).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import cards as C
from ..cards import Card, Kind, Suit
from ..state import PlayerState

if TYPE_CHECKING:
    from ..engine import Engine


def discardable_columns(p: PlayerState) -> list[Suit]:
    """Columns whose top card may be discarded: any card but a hero (R10, R16)."""
    return [suit for suit in C.SUITS
            if p.army[suit] and p.army[suit][-1].kind is not Kind.HERO]


def ineligible_reason(p: PlayerState, hero: Card) -> str | None:
    """Why a hero cannot be recruited now, or None when it can."""
    if hero is C.HOURYA and p.ranks[Suit.EXPLORER] < C.HOURYA_REQUIRED_EXPLORER_RANKS:
        return (f"Hourya needs {C.HOURYA_REQUIRED_EXPLORER_RANKS} explorer ranks "
                f"(you have {p.ranks[Suit.EXPLORER]})")
    if hero is C.DAGDA:
        n = sum(1 for s in discardable_columns(p) if s is not Suit.HUNTER)
        if n < 2:
            return ("Dagda must discard the top card of 2 other columns, and only "
                    f"{n} of yours can lose a non-hero card (R10)")
    if hero is C.BONFUR:
        n = sum(1 for s in discardable_columns(p) if s is not Suit.BLACKSMITH)
        if n < 1:
            return ("Bonfur must discard the top card of another column, and none of "
                    "yours has a non-hero card on top (R10)")
    return None


def eligible(p: PlayerState, hero: Card) -> bool:
    return ineligible_reason(p, hero) is None


def recruit_due(p: PlayerState) -> bool:
    """R12: more complete lines than heroes (lost recruits count as used)."""
    if C.MEGINGJORD in p.command_zone:
        return False
    return min(p.ranks) > p.heroes + p.lost_recruits


def on_recruit(eng: Engine, p: PlayerState, hero: Card) -> None:
    """Place the hero and start its effect. The recruitment loop is already waiting
    below on the stack and re-checks the lines afterwards."""
    seat = p.seat
    if hero.suit is not None:
        then = None
        if hero is C.DAGDA:
            then = ("discard", seat, 2, "Dagda", (Suit.HUNTER,))
        elif hero is C.BONFUR:
            then = ("discard", seat, 1, "Bonfur", (Suit.BLACKSMITH,))
        eng.place(p, hero, hero.suit, then)
        return
    if hero is C.THRUD:
        # Placed at once in any column (FR "THRUD"); R13.
        p.held.append(C.THRUD)
        eng.push(("thrud", seat))
        return
    p.command_zone.append(hero)
    if hero is C.ULINE:
        # FR "ULINE": purse coins and face-down bids on taverns not yet revealed go
        # back to her hand; from now on she bids after each reveal.
        p.uline = True
        current = eng.state.tavern
        p.hand.extend(p.purse)
        p.purse = []
        for t in range(3):
            coin = p.bids[t]
            if coin is not None and (current is None or t > current):
                p.hand.append(coin)
                p.bids[t] = None
        p.hand.sort()
    elif hero is C.GRID:
        eng.push(("transform", seat, C.GRID_BONUS + eng.jarika(p), "Grid"))
    elif hero.expansion == C.THINGVELLIR:
        from . import thingvellir

        thingvellir.on_recruit(eng, p, hero)
