"""Values whose changes are told to whoever listens: the little a view needs of a model.

A class declares its watched values with :class:`Observed`; a view registers a handler
with ``model.observe(handler, "name")`` (or a list of names) and receives a :class:`Change`
(``change["new"]``, ``change.old``...) after each assignment that changed the value, in the
thread that made it. The call has traitlets' shape so that ipywidgets views use it as they
use their own widgets' ``observe``.

>>> class Counter(Observable):
...     value = Observed(0)
>>> c = Counter(); seen = []
>>> c.observe(lambda change: seen.append((change["old"], change.new)), "value")
>>> c.value = 1; c.value = 1; c.value = 2
>>> seen
[(0, 1), (1, 2)]
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar, overload

V = TypeVar("V")
Handler = Callable[["Change"], Any]


class Change(dict[str, Any]):
    """What changed: ``name``, ``old``, ``new``, ``owner`` (also as attributes)."""

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None


class Observed(Generic[V]):
    """A watched value of an :class:`Observable`, with its default."""

    def __init__(self, default: V) -> None:
        self.default = default
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, objtype: type | None = None) -> Observed[V]: ...
    @overload
    def __get__(self, obj: Observable, objtype: type | None = None) -> V: ...

    def __get__(self, obj: Observable | None, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        return obj.__dict__.get(self.name, self.default)

    def __set__(self, obj: Observable, value: V) -> None:
        old = obj.__dict__.get(self.name, self.default)
        obj.__dict__[self.name] = value
        if old != value:
            obj._tell(Change(name=self.name, old=old, new=value, owner=obj, type="change"))


class Observable:
    """A model whose :class:`Observed` values tell their handlers when they change."""

    def _handlers(self) -> dict[str, list[Handler]]:
        found: dict[str, list[Handler]] | None = self.__dict__.get("_observers")
        if found is None:
            found = self.__dict__["_observers"] = {}
            self.__dict__["_observers_lock"] = threading.Lock()
        return found

    def observe(self, handler: Handler, names: str | Iterable[str]) -> None:
        """Call ``handler(change)`` after every change of the value(s) ``names``."""
        handlers = self._handlers()
        for name in [names] if isinstance(names, str) else list(names):
            if not isinstance(getattr(type(self), name, None), Observed):
                raise AttributeError(f"{type(self).__name__} has no observed value {name!r}")
            with self.__dict__["_observers_lock"]:
                handlers.setdefault(name, []).append(handler)

    def unobserve(self, handler: Handler, names: str | Iterable[str]) -> None:
        """Stop calling ``handler`` for ``names`` (a handler not registered: nothing)."""
        handlers = self._handlers()
        for name in [names] if isinstance(names, str) else list(names):
            with self.__dict__["_observers_lock"]:
                if handler in handlers.get(name, []):
                    handlers[name].remove(handler)

    def _tell(self, change: Change) -> None:
        handlers = self._handlers()
        with self.__dict__["_observers_lock"]:
            listening = list(handlers.get(change["name"], ()))
        for handler in listening:
            handler(change)
