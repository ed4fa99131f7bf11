"""Coins changing: a transform where the coin lies, and a trade of two coins for their sum.

FR p.11 "Transformer une pièce", "Échanger des pièces"; R6 (the treasury lookup, with
Jarika's +2), R7 (two equal purse coins), R21 (Zolkur). The engine uses these functions as
its own methods (see :class:`~.base.Table`).
"""

from __future__ import annotations

from .. import cards as C
from .. import coins as K
from .. import events as ev
from ..state import PlayerState
from .base import Table


def transform(table: Table, p: PlayerState, label: str, place: str, bonus: int,
              reason: str) -> None:
    """Transform a coin where it lies (hand, a tavern's bid ``T1``-``T3``, purse) by
    ``bonus`` (R6: if no coin qualifies the player keeps theirs)."""
    where: list[int | None] | list[int]
    if place == "hand":
        where = p.hand
        coin = K.find(p.hand, label)
    elif place == "purse":
        where = p.purse
        coin = K.find(p.purse, label)
    else:
        where = p.bids
        coin = p.bids[int(place[1]) - 1]
    assert coin is not None and not K.is_exchange(coin)
    new = table.state.treasury.exchange(coin, K.value(coin) + bonus)
    if new is not None:
        where[where.index(coin)] = new
    if not table.quiet:
        table.emit(ev.CoinTransformed, player=p.seat, old=K.label(coin),
                   new=K.label(new if new is not None else coin), place=place, reason=reason)


def trade(table: Table, p: PlayerState, pool: list[int], a: int, b: int) -> None:
    """Trade two coins of ``pool`` for one of their sum (R7; Zolkur gives up the lower
    coin once, then goes back to the command zone, FR Thingvellir "ZOLKUR")."""
    # Zolkur's mark: he lay on the purse; this trade spends it.
    give, _keep = K.trade_pair(a, b, discard_lower=p.marks.pop(C.ZOLKUR, False) is True)
    new = table.state.treasury.exchange(give, K.value(a) + K.value(b) + table.jarika(p))
    if new is not None:
        pool[pool.index(give)] = new
    if not table.quiet:
        table.emit(ev.CoinTraded, player=p.seat, coins=(K.label(a), K.label(b)),
                   given_up=K.label(give), new=K.label(new if new is not None else give))


def jarika(table: Table, p: PlayerState) -> int:
    """Jarika's +2 on every transform and trade of her owner (R6)."""
    return C.JARIKA_BONUS if C.JARIKA in p.command_zone else 0


__all__ = ["jarika", "trade", "transform"]
