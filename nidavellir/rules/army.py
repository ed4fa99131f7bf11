"""What a player's army allows: questions about one player's cards, with no side effects;
and the constants and class tables of the bots' quick worth of more ranks
(:func:`nidavellir.determinize.rank_gain`).

FR "Recruter un·e Héros·ïne" (lines), R10 and R16 (what may be discarded), R12 (when a
recruit is due), FR Thingvellir p.24 (mercenaries waiting to be enlisted).
"""

from __future__ import annotations

from typing import Final

from .. import cards as C
from ..cards import Card, Kind, Suit
from ..state import PlayerState
from .classes import blacksmith_points, hunter_points


def discardable_columns(p: PlayerState) -> list[Suit]:
    """Columns whose top card may be discarded: any card but a hero (R10, R16)."""
    return [suit for suit in C.SUITS
            if p.army[suit] and p.army[suit][-1].kind is not Kind.HERO]


def discardable_count(p: PlayerState, but: Suit) -> int:
    """How many of :func:`discardable_columns` are not ``but`` (Dagda's and Bonfur's
    eligibility, asked at every hero choice)."""
    columns = discardable_columns(p)
    return len(columns) - (but in columns)


def army_discard_options(p: PlayerState, only: Suit | None) -> list[tuple[Card, Suit]]:
    """(card, column) pairs a player may discard from anywhere in the army: any card but a
    hero (R16); Höfud only in the warrior column."""
    out: dict[tuple[Card, Suit], None] = {}
    for suit in C.SUITS:
        if only is not None and suit is not only:
            continue
        for card in p.army[suit]:
            if card.kind is not Kind.HERO:
                out[(card, suit)] = None
    return list(out)


_MERCENARY: Final = Kind.MERCENARY


def unplaced_mercenaries(p: PlayerState) -> list[Card]:
    """Mercenaries waiting in the command zone for an enlistment (FR Thingvellir p.24)."""
    return [c for c in p.command_zone if c.kind is _MERCENARY]


def recruit_due(p: PlayerState) -> bool:
    """R12: more complete lines than heroes (lost recruits count as used); never with
    Megingjord (FR Thingvellir "MEGINGJORD")."""
    return p.lines > p.heroes + p.lost_recruits and C.MEGINGJORD not in p.command_zone


#: Worth of completing a line: the hero it recruits (their fixed points run 4 to 17).
LINE_WORTH: Final = 12.0
#: Worth of a rank in a class that lags behind: progress towards the next line.
PROGRESS_WORTH: Final = 1.5


# The class formulas (.classes) as tables: this is the bots' hot path.
HUNTER_POINTS: Final = tuple(hunter_points(n) for n in range(80))
SMITH_POINTS: Final = tuple(blacksmith_points(n) for n in range(80))
