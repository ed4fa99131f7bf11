"""A page's request for every widget's state, answered while threads make widgets.

When a page connects to its kernel (first load, or again after its connection dropped),
ipywidgets' widget manager asks the kernel for the state of every widget at once
(``request_states`` on the ``jupyter.widget.control`` comm). ipywidgets 8.1 answers by
iterating the live dict of all widgets, twice (once for a state it throws away). The lab
makes widgets on threads (the coach's figures, the bots' moves, the What-if's studies, a
preheated page's language): a widget made during that walk ends it with "dictionary changed
size during iteration" (50 of 50 tries in a probe), the page gets no answer, waits 4 s and
falls back to asking widget by widget, and may miss widgets made meanwhile.

:func:`install` answers from a copy of the dict taken at once (a single C-level copy under
the GIL), and drops the state computed for nothing. A widget that holds a closed one (whose
state cannot be written: ipywidgets' own answer fails on it, for every widget) is left out;
the page gets all the others. A widget made after the copy reaches the page by its own
``comm_open``, sent before the widget is registered, so the page has it either way.

Every widget has a layout, its own widget with 40-odd properties (``width``, ``margin``,
…), nearly all of them unset: a dashboard's 54 layouts were 55 of its 151 kB of state, in
the message that makes each one (``comm_open``) and again in the answer to the page's
request. The page makes a layout's model with every property unset unless the state gives
it, so a layout's whole state leaves its unset properties out (12 kB instead of 55); a
change sends the property changed, unset too, as before.

The request is also the kernel's sign that a page connected: the kernel's IOPub socket is
told to keep every message for it however long its server waits
(:func:`widgets.iopub.unlimit`). Installed on import by the modules that make the lab's
pages (:mod:`widgets.session`, :mod:`widgets.language`, :mod:`widgets.scenario_editor`),
with :mod:`widgets.iopub` and :mod:`widgets.diagnostics`.
"""

from __future__ import annotations

from typing import Any

from ipywidgets.widgets import widget as _widget
from ipywidgets.widgets.widget_layout import Layout

from . import diagnostics, iopub  # noqa: F401  (diagnostics: installed on import)

_INSTALLED = "_nidavellir_states_from_a_copy"


def _handle_control_comm_msg(cls: Any, msg: dict[str, Any]) -> None:
    if cls._control_comm is None:
        raise RuntimeError("Control comm has not been properly opened")
    data = msg["content"]["data"]
    method = data["method"]
    if method != "request_states":
        raise RuntimeError("Unknown front-end to back-end widget control msg with method "
                           f"{method!r}")
    iopub.unlimit()  # a page connected: its subscriber keeps every message (iopub.py)
    full_state = {}
    for w in list(_widget._instances.values()):  # a copy: threads may add widgets meanwhile
        try:
            state = w.get_state(drop_defaults=False)
        except AttributeError:  # it holds a closed widget (no comm): nothing to draw it by
            continue
        full_state[w.model_id] = {
            "model_name": w._model_name,
            "model_module": w._model_module,
            "model_module_version": w._model_module_version,
            "state": state,
        }
    full_state, buffer_paths, buffers = _widget._remove_buffers(full_state)
    cls._control_comm.send(dict(method="update_states", states=full_state,
                                buffer_paths=buffer_paths), buffers=buffers)


def _layout_state(self: Any, key: Any = None, drop_defaults: bool = False) -> dict[str, Any]:
    """A layout's state, its unset properties left out when the whole state is asked for
    (the page makes a new model from it, whose properties are unset unless given)."""
    state: dict[str, Any] = _widget.Widget.get_state(self, key, drop_defaults)
    if key is None:
        state = {k: v for k, v in state.items() if v is not None}
    return state


def install() -> None:
    """Answer ``request_states`` from a copy of the widgets, and send a layout's set
    properties only when the page makes its model (once per process)."""
    cls = _widget.Widget
    if getattr(cls, _INSTALLED, False):
        return
    cls._handle_control_comm_msg = classmethod(_handle_control_comm_msg)
    Layout.get_state = _layout_state
    setattr(cls, _INSTALLED, True)


install()

__all__ = ["install"]
