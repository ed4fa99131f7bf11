"""The classes the lab is extended by: decisions and steps (:mod:`nidavellir.rules.base`), a
card's rules (:mod:`nidavellir.rules.cardrules`), events (:mod:`nidavellir.events`).

Their metaclass, :class:`Extensible`, keeps them ordinary Python classes in the compiled build
(docs/development.md, "The compiled build": mypyc compiles a class with a metaclass of its
own as a Python class whose methods are compiled), so that a plugin's hero, decision or event,
written in a module nobody compiled, can subclass them; a compiled class cannot be subclassed
by an interpreted one.

It also keeps a class's *settings* out of its dataclass fields. A setting is a class-level
value each subclass may set (``kind``, ``verbs``, ``group`` of a decision, ``resets_reveals``
of an event), declared with ``ClassVar`` in a settings class that is not a dataclass (the
first class of the hierarchy). Python's dataclasses skip ``ClassVar`` annotations; mypyc
writes every name of a class body into the annotations the dataclass decorator reads,
without the ``ClassVar`` (mypyc issue 1122), so each setting would become a field. This
metaclass removes from a new class's annotations every name a settings class of its bases
declares, which changes nothing for Python's own dataclasses.

>>> from dataclasses import dataclass, fields
>>> from typing import ClassVar
>>> class Settings(metaclass=Extensible):
...     colour: ClassVar[str] = "red"
>>> @dataclass
... class Thing(Settings):
...     size: int
...     colour: ClassVar[str] = "blue"
>>> [f.name for f in fields(Thing)], Thing(3).colour
(['size'], 'blue')
"""

from __future__ import annotations

from typing import Any


class Extensible(type):
    """The metaclass of the lab's extension points (see the module docs)."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any],
                **kwargs: Any) -> Extensible:
        annotations = namespace.get("__annotations__")
        if annotations:
            settings = _settings(bases)
            if settings & annotations.keys():
                namespace["__annotations__"] = {k: v for k, v in annotations.items()
                                                if k not in settings}
        return super().__new__(mcs, name, bases, namespace, **kwargs)


def _settings(bases: tuple[type, ...]) -> set[str]:
    """The names the settings classes among ``bases`` (and their bases) declare: the
    annotations of every class of the hierarchy that is not a dataclass."""
    found: set[str] = set()
    for base in bases:
        for cls in base.__mro__:
            if isinstance(cls, Extensible) and "__dataclass_fields__" not in vars(cls):
                found.update(vars(cls).get("__annotations__", {}))
    return found


__all__ = ["Extensible"]
