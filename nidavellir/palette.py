"""Colours of the lab's card classes: one palette for the play panels and the charts.

It lives in the core package (plain data, standard library only) because two layers use
it: the analysis figures and the widgets (``widgets.style`` re-exports it); the
analysis layer never imports ``widgets``.

The palette (a project decision, not the printed cards' colours; chosen to be
readable with white text and distinct for the common forms of colour blindness
when paired with the class letter that every tile and chart label also shows):

====  ============  =========  ==========================================
key   class         colour
====  ============  =========  ==========================================
W     warrior       red        ``#c0392b``
H     hunter        green      ``#27ae60``
M     miner         orange     ``#d35400``
B     blacksmith    steel      ``#5d6d7e``
E     explorer      blue       ``#2471a3``
====  ============  =========  ==========================================

``neutral`` (neutral heroes) is purple. Extra keys colour the other card kinds:
``royal`` (Royal Offerings), ``distinction``, ``mercenary``, ``artifact`` and
``empty`` (an empty column or slot).
"""

from __future__ import annotations

#: Background colour per class letter, plus ``neutral`` and the other card kinds.
CLASS_COLOURS: dict[str, str] = {
    "W": "#c0392b",
    "H": "#27ae60",
    "M": "#d35400",
    "B": "#5d6d7e",
    "E": "#2471a3",
    "neutral": "#7d3c98",
    "royal": "#b7950b",
    "distinction": "#1e8449",
    "mercenary": "#6e2c00",
    "artifact": "#117a65",
    "empty": "#d5d8dc",
}

#: Class names by letter, in troop-evaluation order.
CLASS_NAMES: dict[str, str] = {
    "W": "Warriors", "H": "Hunters", "M": "Miners", "B": "Blacksmiths", "E": "Explorers",
}

#: The five class letters in troop-evaluation order.
CLASS_LETTERS: tuple[str, ...] = ("W", "H", "M", "B", "E")

#: Text colour on a tile of any of the colours above.
TEXT_COLOUR = "#ffffff"
#: Greyed-out tiles (ineligible heroes, unavailable options).
DISABLED_OPACITY = 0.35


def class_colour(letter: str | None) -> str:
    """The colour of a class letter (``'W'``...), ``neutral`` for anything else."""
    if letter is None:
        return CLASS_COLOURS["neutral"]
    return CLASS_COLOURS.get(letter, CLASS_COLOURS.get(letter.upper(), CLASS_COLOURS["neutral"]))


#: Seat colours of the charts and the win-chance bar (colour-blind-safe Okabe-Ito).
PLAYER_COLOURS: tuple[str, ...] = ("#000000", "#e69f00", "#56b4e9", "#cc79a7", "#009e73")


def player_colour(seat: int) -> str:
    """A seat's colour in charts and bars."""
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


__all__ = ["CLASS_COLOURS", "CLASS_LETTERS", "CLASS_NAMES", "DISABLED_OPACITY", "PLAYER_COLOURS",
           "TEXT_COLOUR", "class_colour", "player_colour"]
