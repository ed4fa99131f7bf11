"""Random draws of the engine's hot path, exactly as :class:`random.Random` draws them.

``random.Random.randrange`` and ``shuffle`` are written in Python in the standard library:
in the compiled build (:mod:`nidavellir.compiled`) every draw would leave the compiled code
to run them. These are the same algorithms (CPython's ``_randbelow_with_getrandbits``: the
fewest bits that cover the range, drawn again while too large), so a seed gives the same
numbers, the same shuffles and the same games as the standard library's methods, in both
builds (tests/test_compiled.py holds them to it).

>>> import random
>>> a, b = random.Random(5), random.Random(5)
>>> [below(a, 10) for _ in range(5)] == [b.randrange(10) for _ in range(5)]
True
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n >= 1``: a whole number from 0 to ``n - 1``."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: random.Random, items: list[T]) -> None:
    """``rng.shuffle(items)``: the list shuffled in place (Fisher and Yates)."""
    for i in range(len(items) - 1, 0, -1):
        j = below(rng, i + 1)
        items[i], items[j] = items[j], items[i]


__all__ = ["below", "shuffle"]
