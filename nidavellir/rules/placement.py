"""Cards coming to a player: taking a card, placing it on a column, discarding one.

FR "TOUR DE L'ELVALAND ACTIF-VE" (a Royal Offering transforms a coin, then goes face up to
the discard: R2), "Placer une carte Nain·e dans son armée", FR "THRUD" (R13: Thrud is never
covered), R12 (the recruitment loop after every card), R15 (the discard), FR Thingvellir p.24
(a mercenary waits in the command zone until its enlistment); an artifact does what its
entry in :mod:`.artifacts` says.

The engine uses these functions as its own methods (see :class:`~.base.Table`).
"""

from __future__ import annotations

from typing import Final

from .. import cards as C
from .. import events as ev
from ..cards import Card, Kind, Suit
from ..state import PlayerState
from .army import recruit_due
from .artifacts import ARTIFACTS
from .base import Choice, Step, Table
from .decisions import OlwynDouble, ThrudColumn, Transform
from .heroes import RECRUIT

_THRUD_COLUMN: Final[tuple[ThrudColumn, ...]] = tuple(ThrudColumn(seat) for seat in C.SEATS)


def place(table: Table, p: PlayerState, card: Card, suit: Suit,
          then: Step | Choice | None = None) -> None:
    """Put a card on top of a column (FR "Placer une carte Nain·e dans son armée").

    Thrud is never covered: she is lifted, the card goes in, and she is placed again before
    the recruitment loop runs (R13). ``then`` (Dagda's / Bonfur's discards, R10) runs first:
    the hero's effect comes before Thrud's re-placement (DE "Führe zuerst diesen Effekt
    aus"), so Thrud cannot block a required discard.
    """
    col = p.army[suit]
    thrud_lifted = bool(col) and col[-1] is C.THRUD and card is not C.THRUD
    if thrud_lifted:
        p.remove_from_column(C.THRUD, suit)
        p.held.append(C.THRUD)
    p.add_to_column(card, suit)
    s = table.state
    if not table.quiet:
        table.events.append(ev.CardPlaced(s.age, s.round, s.tavern, p.seat, card, suit))
    # Runs in this order: ``then``, Thrud's re-placement, the recruitment loop. When nothing
    # comes first and no recruit is due, the loop has nothing to do (R12).
    if then is None and not thrud_lifted and not recruit_due(p):
        return
    tasks = s.tasks
    tasks.append(RECRUIT[p.seat])
    if thrud_lifted:
        tasks.append(_THRUD_COLUMN[p.seat])
    if then is not None:
        tasks.append(then)


def take_card(table: Table, p: PlayerState, card: Card, source: str) -> None:
    """A card taken from a tavern, the camp or a discard: a dwarf goes into the army, a
    Royal Offering transforms a coin then goes to the discard (R2), a mercenary waits in the
    command zone, an artifact does what its entry says, an Olwyn double is placed."""
    s = table.state
    if not table.quiet:
        table.events.append(ev.CardTaken(s.age, s.round, s.tavern, p.seat, card, source))
    kind = card.kind
    if kind is Kind.DWARF:  # the commonest case first
        table.place(p, card, card.suit)  # type: ignore[arg-type]
    elif kind is Kind.ROYAL_OFFERING:
        table.discard_card(card, p.seat, ev.OFFERING_USED)
        table.push(Transform(p.seat, card.value + table.jarika(p), card.name))
    elif kind is Kind.MERCENARY:
        p.command_zone.append(card)
    elif kind is Kind.ARTIFACT:
        ARTIFACTS[card].on_gain(table, p)
    elif kind is Kind.OLWYN_DOUBLE:
        # One double taken on its own (Andumia, Brisingamens): any column.
        p.held.append(card)
        table.push(OlwynDouble(p.seat, (), 1))
    else:
        assert card.suit is not None
        table.place(p, card, card.suit)


def discard_card(table: Table, card: Card, player: int | None, reason: str) -> None:
    """A card face up on the dwarf discard (R2, R15)."""
    table.state.discard.append(card)
    if not table.quiet:
        table.emit(ev.CardDiscarded, player=player, card=card, reason=reason)


__all__ = ["discard_card", "place", "take_card"]
