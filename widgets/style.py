"""The lab's palette for the panels: see :mod:`nidavellir.palette` (one source for the
card tiles and the charts)."""

from nidavellir.palette import (
    CLASS_COLOURS,
    CLASS_LETTERS,
    CLASS_NAMES,
    DISABLED_OPACITY,
    TEXT_COLOUR,
    class_colour,
)

__all__ = ["CLASS_COLOURS", "CLASS_LETTERS", "CLASS_NAMES", "DISABLED_OPACITY", "TEXT_COLOUR",
           "class_colour"]
