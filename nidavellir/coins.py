"""Coins, the royal treasury, and the one lookup rule for transforms and trades.

A coin is a small int code ``value * 4 + kind`` (kind 0 gold, 1 bronze, 2 the
Hunting Master's special green 3), so coins sort by value and a gold coin comes
before a bronze one of the same value. The text form of a coin is its value, with
``*`` for the special green 3 (``"3*"``).

Rules: FR "Transformer une pièce", "Échanger des pièces", "Défausser des pièces"
(p.11), R6 (lookup) and R7 (equal purse coins).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .cards import (
    EXCHANGE_COIN_VALUE,
    HUNTER_COIN_VALUE,
    HUNTING_MASTER,
    MAX_COIN_VALUE,
    STARTING_COINS,
)
from .errors import InvalidNotation
from .i18n import _
from .names import card_name

GOLD: Final = 0
BRONZE: Final = 1
SPECIAL: Final = 2


def gold(value: int) -> int:
    return value * 4 + GOLD


def bronze(value: int) -> int:
    return value * 4 + BRONZE


#: The Hunting Master's green 3: an exchange coin that is never transformed.
HUNTER_COIN: Final = HUNTER_COIN_VALUE * 4 + SPECIAL
#: The bronze 0 every player starts with: the exchange coin.
EXCHANGE_COIN: Final = bronze(EXCHANGE_COIN_VALUE)
STARTING_HAND: Final[tuple[int, ...]] = tuple(bronze(v) for v in STARTING_COINS)


def value(coin: int) -> int:
    return coin >> 2


def kind(coin: int) -> int:
    return coin & 3


def is_gold(coin: int) -> bool:
    return coin & 3 == GOLD


def is_exchange(coin: int) -> bool:
    """The bronze 0 and the green 3 trigger trades and are never transformed."""
    return coin == EXCHANGE_COIN or coin == HUNTER_COIN


#: The two exchange coins, as a set (:func:`is_exchange` in the hot paths: ``coin in``).
EXCHANGE_COINS: Final = frozenset((EXCHANGE_COIN, HUNTER_COIN))


def _label(coin: int) -> str:
    return f"{coin >> 2}*" if coin & 3 == SPECIAL else str(coin >> 2)


_LABELS: Final[tuple[str, ...]] = tuple(_label(c) for c in range((MAX_COIN_VALUE + 1) * 4))


def label(coin: int) -> str:
    """Text form: the value, ``3*`` for the green 3."""
    return _LABELS[coin]


#: The codes of gold, bronze and special coins each text form names, lowest first (a gold
#: coin before a bronze one of the same value): :func:`find`'s table.
_LABEL_CODES: Final[dict[str, tuple[int, ...]]] = {}
for _coin, _text in enumerate(_LABELS):
    if _coin & 3 != 3:  # kind 3 is no coin
        _LABEL_CODES[_text] = (*_LABEL_CODES.get(_text, ()), _coin)


def labels(coins: Iterable[int]) -> str:
    return " ".join(label(c) for c in coins)


#: The text forms of the two exchange coins: the bronze 0 and the Hunting Master's green 3.
EXCHANGE_LABELS: Final[tuple[str, ...]] = (label(EXCHANGE_COIN), label(HUNTER_COIN))


def label_value(text: str) -> int:
    """The value a coin's text form names (``"3*"`` -> 3).

    >>> label_value("3*"), label_value("12")
    (3, 12)
    """
    return int(text[:-1]) if text.endswith("*") else int(text)


def label_key(text: str) -> tuple[int, str]:
    """Sort key of coin labels: by value, the green ``3*`` after the gold or bronze 3.

    >>> sorted(["5", "3*", "0", "3"], key=label_key)
    ['0', '3', '3*', '5']
    """
    return (label_value(text), text)


def is_exchange_label(text: str) -> bool:
    """Whether a coin's text form names an exchange coin (never transformed, FR p.11)."""
    return text in EXCHANGE_LABELS


def parse_label(text: str) -> str:
    """Validate and canonicalise a coin's text form (``"05"`` -> ``"5"``)."""
    raw = text.strip()
    special = raw.endswith("*")
    digits = raw[:-1] if special else raw
    if not (digits.isascii() and digits.isdigit()):  # "²".isdigit() is True, int("²") fails
        # Translators: a coin typed wrong ({value}, {special}: coins in the notation, "5"
        # and "3*").
        raise InvalidNotation(_("{text!r} is not a coin: expected a value such as {value}, or "
                                "{special}").format(text=text, value="5",
                                                    special=f"{HUNTER_COIN_VALUE}*"))
    v = int(digits)
    if special and v != HUNTER_COIN_VALUE:
        # Translators: a coin typed wrong ({distinction}: the rulebook's name; {coin}: "3*").
        raise InvalidNotation(_("{text!r} is not a coin: only {distinction:gen} {coin} is "
                                "special").format(text=text, distinction=card_name(
                                    HUNTING_MASTER), coin=f"{HUNTER_COIN_VALUE}*"))
    if not 0 <= v <= MAX_COIN_VALUE:
        raise InvalidNotation(_("{text!r} is not a coin: values run from 0 to {most}").format(
            text=text, most=MAX_COIN_VALUE))
    return f"{v}*" if special else str(v)


def find(coins: list[int], text: str) -> int | None:
    """The coin a label names among ``coins`` (the gold one first when values repeat);
    None when there is none."""
    for c in _LABEL_CODES.get(text, ()):
        if c in coins:
            return c
    return None


class Treasury:
    """The royal treasury: copies of each gold value still available."""

    __slots__ = ("counts",)

    def __init__(self, counts: dict[int, int] | list[int]) -> None:
        if isinstance(counts, dict):
            self.counts = [0] * (MAX_COIN_VALUE + 1)
            for v, n in counts.items():
                self.counts[v] = n
        else:
            self.counts = list(counts)

    def copy(self) -> Treasury:
        return Treasury(self.counts)

    def __reduce__(self) -> tuple[type[Treasury], tuple[list[int]]]:
        # Copied and pickled through the constructor (the compiled build's classes cannot
        # be made with __new__ alone).
        return (Treasury, (self.counts,))

    def as_dict(self) -> dict[int, int]:
        return {v: n for v, n in enumerate(self.counts) if n}

    def __len__(self) -> int:
        return sum(self.counts)

    def lookup(self, target: int, given_up: int) -> int | None:
        """R6: the value to take for ``target`` when giving up a coin of value ``given_up``.

        Lowest available value >= target, else the highest below; never the value
        given up; None when no coin qualifies (the player keeps their coin).
        """
        counts = self.counts
        for v in range(max(target, 0), MAX_COIN_VALUE + 1):
            if counts[v] and v != given_up:
                return v
        for v in range(min(target - 1, MAX_COIN_VALUE), -1, -1):
            if counts[v] and v != given_up:
                return v
        return None

    def exchange(self, give_up: int, target: int) -> int | None:
        """Take the coin for ``target`` and return ``give_up`` (gold goes back, bronze
        leaves the game). Returns the new gold coin, or None when nothing changes."""
        new_value = self.lookup(target, value(give_up))
        if new_value is None:
            return None
        self.counts[new_value] -= 1
        if is_gold(give_up):
            self.counts[value(give_up)] += 1
        return gold(new_value)


def trade_pair(a: int, b: int, discard_lower: bool = False) -> tuple[int, int]:
    """(coin given up, coin kept) in a trade of two purse coins.

    The higher coin is given up (the lower with Zolkur); of two equal values the gold
    coin goes back to the treasury and the bronze one stays (R7).
    """
    va, vb = a >> 2, b >> 2  # value()
    if va == vb:
        # The gold one of the pair is given up (a, unless only b is gold).
        return (b, a) if (b & 3 == GOLD and a & 3 != GOLD) else (a, b)
    hi, lo = (a, b) if va > vb else (b, a)
    return (lo, hi) if discard_lower else (hi, lo)
