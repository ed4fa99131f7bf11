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
    keyed = []
    value = K.value
    for p in players:
        coin = p.bids[tavern]
        if coin is not None:
            keyed.append((value(coin), p.gem, p.seat))
    keyed.sort(reverse=True)
    order = [k[2] for k in keyed]
    ties: list[list[int]] = []
    for i in range(1, len(keyed)):
        if keyed[i][0] == keyed[i - 1][0]:
            if i > 1 and keyed[i - 2][0] == keyed[i][0]:
                ties[-1].append(keyed[i][2])
            else:
                ties.append([keyed[i - 1][2], keyed[i][2]])
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
