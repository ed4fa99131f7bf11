"""Thingvellir's table: the camp, the enlistment order, and the coin rules its cards use.

FR Thingvellir part (the French rulebook): "Le Campement", "Les Mercenaires" (p.24),
"Les Artefacts"; rulings R4, R14-R22 (docs/rulings.md). What each artifact and each new hero
does is its entry in :mod:`.artifacts` and :mod:`.heroes`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import cards as C
from .. import coins as K
from .. import events as ev
from ..state import GameState, PlayerState
from .army import unplaced_mercenaries

if TYPE_CHECKING:
    from .base import Table


def refill_camp(eng: Table) -> None:
    """At the start of every round, camp cards of the current age are revealed until
    5 show (FR "Le Campement"); an empty camp deck leaves fewer."""
    s = eng.state
    deck = s.camp_decks[s.age]
    added = []
    while len(s.camp) < C.CAMP_SIZE and deck:
        card = deck.pop()
        s.camp.append(card)
        added.append(card)
    if added:
        eng.emit(ev.CampRefilled, cards=tuple(added))


def may_visit_camp(s: GameState, p: PlayerState) -> bool:
    """Only the tavern's winner may take a camp card instead of a tavern card; the
    owner of Fafnir Båleygr may when the winner did not (FR "FAFNIR BÅLEYGR"; R18)."""
    if not s.camp or s.camp_visited:
        return False
    return (bool(s.order) and s.order[0] == p.seat) or C.FAFNIR_BALEYGR in p.command_zone


def enlistment_order(players: list[PlayerState]) -> list[int]:
    """Most unplaced mercenaries first, ties by gem without exchange (FR p.24)."""
    holders = []
    for p in players:
        waiting = len(unplaced_mercenaries(p))
        if waiting:
            holders.append((waiting, p.gem, -p.seat))  # the first seat first on a tie
    holders.sort(reverse=True)
    return [-seat for _, _, seat in holders]


def vidofnir_pool(p: PlayerState) -> tuple[str, list[int]]:
    """The coins Vidofnir & Vedrfölnir transforms: the purse (R21: Uline's hand coins not
    on the board). Between rounds, when the purse is empty, the coins in hand."""
    if p.purse:
        return "purse", p.purse
    return "hand", p.hand


def vidofnir_options(p: PlayerState) -> list[tuple[tuple[str, int], ...]]:
    """Each option: ((coin label, bonus), ...) in the order the transforms happen."""
    _, pool = vidofnir_pool(p)
    eligible = sorted(c for c in pool if not K.is_exchange(c))
    labels = list(dict.fromkeys(K.label(c) for c in eligible))
    if len(eligible) == 1:
        return [((labels[0], C.VIDOFNIR_SINGLE_BONUS),)]
    if not eligible:
        return []
    lo, hi = C.VIDOFNIR_BONUSES
    options: dict[tuple[tuple[str, int], ...], None] = {}
    for i, a in enumerate(eligible):
        for j, b in enumerate(eligible):
            if i == j:
                continue
            la, lb = K.label(a), K.label(b)
            options[((la, lo), (lb, hi))] = None
            options[((lb, hi), (la, lo))] = None
    return list(options)


def discard_exchange_coin(eng: Table, p: PlayerState) -> None:
    """Járnglófi: the exchange coin leaves the game at once; on a tavern not yet
    resolved the player has no bid there (R20)."""
    for t, coin in enumerate(p.bids):
        if coin is not None and K.is_exchange(coin):
            p.bids[t] = None
            eng.emit(ev.CoinDiscarded, player=p.seat, coin=K.label(coin), reason="Járnglófi")
            return
    for pool in (p.purse, p.hand):
        for coin in pool:
            if K.is_exchange(coin):
                pool.remove(coin)
                eng.emit(ev.CoinDiscarded, player=p.seat, coin=K.label(coin), reason="Járnglófi")
                return


def lowest_coins(p: PlayerState, places: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Khrad: the non-exchange coins of the lowest value (R4: the player picks among ties)."""
    eligible = [(place, c) for place, c in places if not K.is_exchange(c)]
    if not eligible:
        return []
    low = min(K.value(c) for _, c in eligible)
    return [(place, c) for place, c in eligible if K.value(c) == low]
