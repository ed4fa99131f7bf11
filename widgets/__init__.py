"""The widgets layer: play Nidavellir in a notebook (ipywidgets panels over a Session).

>>> from widgets import play_app
>>> app = play_app(players=3, seed=7)    # seat 1 human, two random bots
>>> app                                   # doctest: +SKIP

``widgets.style`` (the class colours) imports only the standard library; the rest
needs ipywidgets.
"""

from __future__ import annotations

from .style import CLASS_COLOURS, CLASS_LETTERS, CLASS_NAMES

__all__ = [
    "CLASS_COLOURS", "CLASS_LETTERS", "CLASS_NAMES",
    "Session", "Console", "make_bot", "PlayApp", "play_app",
    "NewGamePanel", "TableView", "PlayerBoards", "DecisionPanel", "LogPanel", "ResultPanel",
    "Context", "Control", "build_control", "CONTROLS",
]


def __getattr__(name: str) -> object:
    # Lazy: `from widgets.style import CLASS_COLOURS` must not import ipywidgets.
    if name in ("Session", "Console", "make_bot"):
        from . import session
        return getattr(session, name)
    if name in ("PlayApp", "play_app"):
        from . import app
        return getattr(app, name)
    if name in ("NewGamePanel", "TableView", "PlayerBoards", "DecisionPanel", "LogPanel",
                "ResultPanel"):
        from . import panels
        return getattr(panels, name)
    if name in ("Context", "Control", "build_control", "CONTROLS"):
        from . import controls
        return getattr(controls, name)
    raise AttributeError(f"module 'widgets' has no attribute {name!r}")
