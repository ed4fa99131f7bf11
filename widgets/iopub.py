"""Every message the kernel sends its page reaches the server, however long the server waits.

What the kernel says to a page (each new widget, each change of one: a branch opened in the
What-if tab is about 1,600 messages, the end of an age several hundred) leaves on its IOPub
socket, a ZeroMQ publisher; the server (Voila, jupyter_server) subscribes and passes each
message to the page's websocket. ZeroMQ keeps at most 1,000 messages (its *high-water mark*)
for a subscriber that does not read, and drops every later one without a word. A server
that does not read for a moment (a busy machine: a class server with thirty pages, a laptop
compiling, two cores shared by a test run) thus cut the end off a burst: measured, the
server paused for 5 s just after a What-if branch was clicked passed 904 of its 1,620
messages to the page, then nothing; the page never showed the branch nor the console's
"Branched …" line, with no error anywhere (twice in the suite, on two cores under load).

:func:`unlimit` lifts that limit on the kernel's side (``SNDHWM`` 0): the kernel keeps
what a slow server has not read yet, and the server gets all of it once it reads again. ZeroMQ
applies the option to the subscribers connected when it is set; one that connects later
gets the limit the socket was bound with. So it is set when the lab's page module is
imported (for the server's own subscribers) and again each time a page connects: a page's
widget manager first asks for every widget's state (:mod:`widgets.widget_states`), by then
its subscriber is connected. Measured: a subscriber that did not read while the kernel
sent 5,000 widget updates got 2,000 of them, and all of them once :func:`unlimit` had run
after it connected. The price: a subscriber that never reads would have the kernel keep
its messages until it disconnects; a page's kernel has two, both the server's and both
read (the page's websocket and the activity watcher; Voila's own client for running the
notebook is gone by then). The server's side of the same limit is lifted by the lab's server
(:class:`nidavellir.classroom.server.kernels.PageKernelManager`); a page served by a plain
Jupyter server keeps that server's limit (docs/serving.md, "Every message reaches the
page").

Installed on import (with :mod:`widgets.widget_states`, which the modules that make the
lab's pages import); outside a kernel it does nothing.
"""

from __future__ import annotations

from typing import Any

import zmq


def _kernel() -> Any:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return None
    shell = get_ipython()
    return getattr(shell, "kernel", None) if shell is not None else None


def unlimit(kernel: Any = None) -> bool:
    """No limit on the messages the kernel's IOPub socket keeps for each subscriber that
    has not read them yet (``kernel``: the running one), for the subscribers connected
    now: ZeroMQ gives a subscriber that connects later the limit the socket had when it
    was bound, so this is done again each time a page connects (its widget manager's
    first request: :mod:`widgets.widget_states`). The option is set on the IOPub thread,
    the only one that uses the socket. True when it was asked for."""
    kernel = kernel if kernel is not None else _kernel()
    thread = getattr(kernel, "iopub_thread", None)
    if thread is None or getattr(thread, "socket", None) is None:
        return False

    def unlimited() -> None:
        socket = thread.socket
        if socket is not None:  # the kernel is not ending
            socket.setsockopt(zmq.SNDHWM, 0)

    thread.schedule(unlimited)
    return True


def install_at_first_cell() -> bool:
    """:func:`install` when the kernel's first cell runs (a kernel forked with the lab
    already imported: nidavellir/classroom/server/forks.py). Run on import, ``install``
    comes with the notebook's first cell, once the server's subscribers have connected;
    run as the kernel starts, it would come before them. True when it was arranged."""
    shell = getattr(_kernel(), "shell", None)
    events = getattr(shell, "events", None)
    if events is None:
        return False

    def first_cell(*_args: Any) -> None:
        events.unregister("pre_execute", first_cell)
        install()

    events.register("pre_execute", first_cell)
    return True


def install() -> bool:
    """:func:`unlimit` for the subscribers connected now (the server's); each page that
    connects later is :func:`unlimit`-ed when it asks for the widgets' states."""
    return unlimit()


install()

__all__ = ["install", "install_at_first_cell", "unlimit"]
