"""Tavern resolution: turn order, ties and the gem exchange.

FR "RÉVÉLATION DE LA MISE", "ÉCHANGE DE GEMMES" (with the rulebook's 2-, 3-, 4- and
5-way examples), R11.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import cards as C
from .. import coins as K
from ..state import PlayerState


def turn_order(players: Sequence[PlayerState], tavern: int) -> tuple[list[int], list[list[int]]]:
    """Players with a bid here, by coin value then gem (both descending), and the tie
    groups (players who bid the same value), fixed at this moment."""
    # Each bidder as one number ordered as (coin value, gem, seat): a list of ints sorts
    # without Python's generic comparison of tuples (the compiled build's hot path: every
    # tavern of every playout). A gem is below 16 and a seat below 8.
    keyed: list[int] = []
    for p in players:
        coin = p.bids[tavern]
        if coin is not None:
            keyed.append((K.value(coin) << 7) | (p.gem << 3) | p.seat)
    keyed.sort(reverse=True)
    order = [k & 7 for k in keyed]
    ties: list[list[int]] = []
    for i in range(1, len(keyed)):
        v = keyed[i] >> 7
        if v == keyed[i - 1] >> 7:
            if i > 1 and keyed[i - 2] >> 7 == v:
                ties[-1].append(keyed[i] & 7)
            else:
                ties.append([keyed[i - 1] & 7, keyed[i] & 7])
    return order, ties


def exchange_gems(players: Sequence[PlayerState],
                  ties: Sequence[Sequence[int]]) -> list[tuple[int, int, int]]:
    """Swap gems in each tie group: highest with lowest, second highest with second
    lowest; a middle gem stays; the gem 6 holder is left out (R11).

    Returns (player, old gem, new gem) for every player whose gem changed.
    """
    swaps: list[tuple[int, int, int]] = []
    for group in ties:
        members = sorted((i for i in group if players[i].gem != C.GEM_6),
                         key=lambda i: players[i].gem, reverse=True)
        for k in range(len(members) // 2):
            hi, lo = members[k], members[-1 - k]
            a, b = players[hi].gem, players[lo].gem
            players[hi].gem, players[lo].gem = b, a
            swaps.append((hi, a, b))
            swaps.append((lo, b, a))
    return swaps
