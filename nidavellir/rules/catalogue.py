"""Every card entry in one mapping: heroes (:mod:`.heroes`) and artifacts (:mod:`.artifacts`).

>>> from nidavellir import cards as C
>>> rules_of(C.GRID).source
'FR p.14 "Capacités des cartes Héros·ïne", GRID; p.11'
>>> rules_of(C.card("W7")) is None
True
>>> len(RULES) == len(C.HEROES) + len(C.ARTIFACTS)
True
"""

from __future__ import annotations

from ..cards import Card
from . import artifacts, heroes  # noqa: F401  (their entries join RULES as they load)
from .cardrules import MARKS, RULES, CardRules


def rules_of(card: Card) -> CardRules | None:
    """The card's entry, or None for a card that behaves by its kind (a dwarf, a Royal
    Offering, a mercenary, a distinction)."""
    return RULES.get(card)


__all__ = ["MARKS", "RULES", "rules_of"]
