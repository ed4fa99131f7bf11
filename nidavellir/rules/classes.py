"""How a column scores: the five classes' formulas, written once.

FR "Déterminer la Valeur de Bravoure de chaque classe": warriors, miners and explorers by
their bravery points (miners times their ranks), hunters by their ranks squared, blacksmiths
3 + 4 + ... (n + 2). The scorer (:mod:`nidavellir.scoring`) and the bots' quick estimates
(:func:`nidavellir.determinize.rank_gain`) both use these.

>>> [hunter_points(n) for n in range(1, 6)], [blacksmith_points(n) for n in range(1, 6)]
([1, 4, 9, 16, 25], [3, 7, 12, 18, 25])
"""

from __future__ import annotations

from collections.abc import Iterable

from .. import cards as C
from ..cards import Card, Suit


def hunter_points(ranks: int) -> int:
    """Hunters score the square of their ranks (FR "LES CHASSEUR-EUSE-S")."""
    return ranks * ranks


def blacksmith_points(ranks: int) -> int:
    """3 + 4 + ... + (n + 2) = n(n + 5) / 2 (FR "LES FORGERON-NE-S")."""
    return ranks * (ranks + 5) // 2


def column_totals(column: Iterable[Card], suit: Suit) -> tuple[int, int]:
    """(ranks, bravery points) of a column; Thrud never scores there (FR "Thrud")."""
    ranks = bravery = 0
    thrud = C.THRUD
    for c in column:
        if c is not thrud:
            r, b = c.values[suit]  # type: ignore[misc]  # a card lies where it may
            ranks += r
            bravery += b
    return ranks, bravery
