"""What a page's kernel can tell about itself when a page seems stuck.

Two aids for the rare page that waits for an answer that never comes (a click that shows
nothing, with no error anywhere), installed on import with the lab's page modules
(:mod:`widgets.widget_states`):

- ``kill -USR1 <kernel pid>`` writes every thread's stack to the kernel's standard error,
  which is the server's log (:mod:`faulthandler`): where a kernel waits, if it waits.
- With ``NIDAVELLIR_TRACE_COMMS=FILE`` in the server's environment (the kernels inherit it),
  each message a kernel's widgets get from their page is a line in ``FILE`` (the widget
  and its classes but a move's, the method and the names of what it changes, never their
  values: :func:`what_came`), and a second line when it has been handled: whether a click
  reached the kernel, and when its handling ended (a line the file cannot take is said in
  the server's log). The browser tests set it (each server its own file) and keep its end
  with what a failed page showed (``tests/browser/conftest.py``). Off by default: a line
  per click or slider step is a test's and a maintainer's tool, not a class's.

This is how a lost What-if branch was found to be a message dropped on its way to the page,
not a kernel that hung (docs/serving.md, "Every message reaches the page").
"""

from __future__ import annotations

import contextlib
import faulthandler
import os
import signal
import sys
import time
from typing import Any

from ipywidgets.widgets import widget as _widget

#: The environment variable naming the file of the kernels' comm trace.
TRACE_VARIABLE = "NIDAVELLIR_TRACE_COMMS"
_INSTALLED = "_nidavellir_traced"


def _line(path: str, text: str) -> None:
    line = f"{time.time():.3f} pid {os.getpid()} {text}\n"
    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line)
    except OSError as exc:
        # Said where the kernel's other words go (the server's log): a line missing from
        # the trace is then not read as a handler that never ended.
        with contextlib.suppress(Exception):
            print(f"nidavellir: the comm trace could not be written ({exc}): {line}",
                  end="", file=sys.__stderr__, flush=True)


def what_came(msg: dict[str, Any]) -> str:
    """A page's message to a widget as the trace writes it: its method and the names of
    what it changes or says (``update value``, ``custom event``), never their values (a
    student's name or answer stays out of the file)."""
    data = msg.get("content", {}).get("data", {})
    method = data.get("method")
    body = data.get("content") if method == "custom" else data.get("state")
    keys = sorted(str(k) for k in body) if isinstance(body, dict) else []
    return f"{method} {','.join(keys)}".rstrip()


def install() -> None:
    """The stack dump on SIGUSR1 (where the system has it, in a kernel whose standard
    error is a file) and, when :data:`TRACE_VARIABLE` is set, the comm trace (once)."""
    if hasattr(signal, "SIGUSR1") and sys.__stderr__ is not None:
        with contextlib.suppress(ValueError, OSError, RuntimeError, AttributeError):
            faulthandler.register(signal.SIGUSR1, file=sys.__stderr__, all_threads=True)
    path = os.environ.get(TRACE_VARIABLE)
    cls = _widget.Widget
    if not path or getattr(cls, _INSTALLED, False):
        return
    handle = cls._handle_msg

    def traced(self: Any, msg: dict[str, Any]) -> Any:
        # A move's button names its move in a class (``nid-move-take-W3``): the answer a
        # student clicked, left out like the values.
        shown = [c for c in getattr(self, "_dom_classes", ()) if not c.startswith("nid-move-")]
        name = f"{type(self).__name__} {' '.join(shown)}"
        # The id read now: a handler may close its own widget (a move's button, when the
        # move brings the next decision at once), and a closed widget has no id. Read after
        # the handler, it raised in this ``finally``, and no click that closed its button
        # ever had its ``done``: read as a handler that never ended.
        model = str(getattr(self, "model_id", "?"))[:8]
        _line(path, f"got {model} {name} {what_came(msg)}")
        try:
            return handle(self, msg)
        finally:
            _line(path, f"done {model}")

    cls._handle_msg = traced
    setattr(cls, _INSTALLED, True)


install()

__all__ = ["TRACE_VARIABLE", "install", "what_came"]
