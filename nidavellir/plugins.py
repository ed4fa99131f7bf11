"""Plugins: modules of your own that add cards, kinds of decision and their rules to the lab
without editing it (docs/engine.md, "A plugin").

``NIDAVELLIR_PLUGINS`` names them, comma-separated module names importable from the
Python path (``NIDAVELLIR_PLUGINS=my_heroes python -m nidavellir play``); ``import
nidavellir`` imports each once its own engine is loaded, so everything imported afterwards
(the bots, the RL table, the widgets) knows the new cards and kinds. A plugin registers each
part where the engine's own parts are registered, through the functions marked
:func:`registers`: its card (:func:`nidavellir.cards.add_card`), its kind of decision
(:meth:`nidavellir.rules.base.DecisionKind.add`; defining the decision's class registers
the class) and its card's entry (:func:`nidavellir.rules.heroes.add_hero`). Those are the
three files a contributor edits for such a hero in the lab itself; :data:`REGISTERED` keeps
which of them each plugin used (tests/test_plugin_hero.py counts them).

Standard library only, and nothing of the package: the lowest modules mark their
registration functions with it.
"""

from __future__ import annotations

import functools
import importlib
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

#: The setting that names the plugins to load.
SETTING = "NIDAVELLIR_PLUGINS"

P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True)
class Registration:
    """One call of a registration function: the module that holds the registry, the
    function, and the module that called it (a plugin, or the lab's own module)."""

    module: str
    function: str
    by: str


#: Every registration since the package was imported, in order.
REGISTERED: list[Registration] = []
#: The plugins loaded, in order.
LOADED: list[str] = []


def registers(fn: Callable[P, R]) -> Callable[P, R]:
    """Mark ``fn`` as a registration function: each call is kept in :data:`REGISTERED`
    with the module that called it."""

    @functools.wraps(fn)
    def registering(*args: P.args, **kwargs: P.kwargs) -> R:
        caller = sys._getframe(1).f_globals.get("__name__", "?")
        REGISTERED.append(Registration(fn.__module__, fn.__qualname__, caller))
        return fn(*args, **kwargs)

    return registering


def names(setting: str | None = None) -> list[str]:
    """The module names ``setting`` (default: the environment's ``NIDAVELLIR_PLUGINS``)
    lists."""
    text = os.environ.get(SETTING, "") if setting is None else setting
    return [n.strip() for n in text.split(",") if n.strip()]


def load(setting: str | None = None) -> list[str]:
    """Import every plugin ``setting`` names (once each); the plugins loaded. A plugin
    that cannot be imported raises ImportError naming it and the setting."""
    for name in names(setting):
        if name in LOADED:
            continue
        try:
            importlib.import_module(name)
        except ImportError as exc:
            raise ImportError(f"{SETTING} names {name!r}, which cannot be imported: "
                              f"{exc}") from exc
        LOADED.append(name)
    return list(LOADED)


def registered_by(module: str) -> list[Registration]:
    """The registrations ``module`` (a plugin) made."""
    return [r for r in REGISTERED if r.by == module]


__all__ = ["LOADED", "REGISTERED", "SETTING", "Registration", "load", "names", "registered_by",
           "registers"]
