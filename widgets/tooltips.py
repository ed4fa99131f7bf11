"""No "null" over a label: ipywidgets 8 writes a described widget's ``tooltip`` into its
label's ``title`` attribute, an unset one (None) as the word "null", so a learner
hovering over "Seed" or "Decision" read "null" (found by
tests/browser/test_language_walk.py). Importing this module gives every widget built
afterwards that has none an empty tooltip (no tooltip shown); a widget's own tooltip is
kept. ipywidgets offers one construction callback: one installed before this is still
called.

The modules every page is built from import it (widgets/session.py and the pages that do
not use a session).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W
from ipywidgets.widgets.widget_description import DescriptionWidget


def _no_null_tooltip(widget: Any, previous: Any = None) -> None:
    if isinstance(widget, DescriptionWidget) and widget.tooltip is None:
        widget.tooltip = ""  # before the widget is opened: part of its first state
    if previous is not None:
        previous(widget)


def install() -> None:
    """Install the construction callback (once: installing again changes nothing)."""
    current = W.Widget._widget_construction_callback
    if getattr(current, "_nidavellir_tooltips", False):
        return
    previous = current if callable(current) else None

    def callback(widget: Any) -> None:
        _no_null_tooltip(widget, previous)

    callback._nidavellir_tooltips = True  # type: ignore[attr-defined]
    W.Widget.on_widget_constructed(callback)


install()
