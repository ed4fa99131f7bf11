"""The kinds of decision (``Decision.kind``): the game's, and a plugin's (docs/engine.md).

Its own module, never compiled (nidavellir.compiled): mypyc compiles no subclass of
``type`` and crashes on a Python class whose body names the class itself in an annotation
(``BID: ClassVar[DecisionKind]``). :mod:`.base` re-exports :class:`DecisionKind`.

>>> DecisionKind.BID == "bid", DecisionKind.BID
(True, 'bid')
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from ..plugins import registers


class _Kinds(type):
    """Iterating :class:`DecisionKind` gives every kind, in the order they were added."""

    _known: dict[str, DecisionKind]

    def __iter__(cls) -> Iterator[DecisionKind]:
        return iter(list(cls._known.values()))

    def __len__(cls) -> int:
        return len(cls._known)

    def __contains__(cls, value: object) -> bool:
        return value in cls._known


class DecisionKind(str, metaclass=_Kinds):
    """A kind of decision a player makes (``Decision.kind``): a str, so ``kind == "bid"``
    reads as it should, and the value is what records, logs and golden files show. The
    game's kinds are below; a plugin adds its own with :meth:`add` (docs/engine.md)."""

    __slots__ = ()
    _known: ClassVar[dict[str, DecisionKind]] = {}

    BID: ClassVar[DecisionKind]
    ULINE_BID: ClassVar[DecisionKind]
    PICK: ClassVar[DecisionKind]
    HERO: ClassVar[DecisionKind]
    THRUD: ClassVar[DecisionKind]
    YLUD: ClassVar[DecisionKind]
    TRANSFORM: ClassVar[DecisionKind]
    DISCARD: ClassVar[DecisionKind]
    PIONEER: ClassVar[DecisionKind]
    ULINE_TRADE: ClassVar[DecisionKind]
    TAVERN_DISCARD: ClassVar[DecisionKind]
    MERCENARY_ORDER: ClassVar[DecisionKind]
    MERCENARY: ClassVar[DecisionKind]
    OLWYN: ClassVar[DecisionKind]
    ANDUMIA: ClassVar[DecisionKind]
    HOLDA: ClassVar[DecisionKind]
    BRISINGAMENS: ClassVar[DecisionKind]
    ARMY_DISCARD: ClassVar[DecisionKind]
    VIDOFNIR: ClassVar[DecisionKind]

    @classmethod
    @registers
    def add(cls, value: str) -> DecisionKind:
        """A new kind of decision (one lowercase word, ``"swap"``), also reachable as
        ``DecisionKind.SWAP``; its decision class declares it (``kind = ...``)."""
        if not isinstance(value, str) or value != value.lower() or not value.isidentifier():
            raise ValueError(f"a decision kind is one lowercase word, not {value!r}")
        if value in cls._known:
            raise ValueError(f"the decision kind {value!r} exists already")
        kind = cls._known[value] = str.__new__(cls, value)
        setattr(cls, value.upper(), kind)
        return kind

    def __repr__(self) -> str:
        # Shown as the plain string it equals (notebooks, logs, test output).
        return str.__repr__(str(self))

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # The same kind in another process (a record's decision, a process pool's result).
        return (_kind, (str(self),))


def _kind(value: str) -> DecisionKind:
    return DecisionKind._known[value]


for _value in ("bid", "uline_bid", "pick", "hero", "thrud", "ylud", "transform", "discard",
               "pioneer", "uline_trade", "tavern_discard", "mercenary_order", "mercenary",
               "olwyn", "andumia", "holda", "brisingamens", "army_discard", "vidofnir"):
    DecisionKind.add(_value)


__all__ = ["DecisionKind"]
