"""The page console: errors of any panel shown on the page, not lost in the kernel log.

In Voila an exception raised in a widget callback (a button's ``on_click``, an observer)
is printed to no visible output. :func:`report_callback_errors` routes them to a
:class:`~widgets.session.Console` on the page; :func:`guard` wraps a callback of our own
so that its error is reported there too.

>>> from widgets.session import Console
>>> console = Console()
>>> def broken():
...     raise ValueError("no such record")
>>> guard(console, broken, "replay")() is None
True
>>> console.last
'Error: replay: ValueError: no such record'
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from .session import Console


def guard(console: Console, fn: Callable[..., Any], where: str = "") -> Callable[..., Any]:
    """``fn`` with any exception reported in ``console`` (and None returned)."""

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            prefix = f"{where}: " if where else ""
            console.error(f"{prefix}{type(exc).__name__}: {exc}")
            return None

    wrapped.__name__ = getattr(fn, "__name__", "callback")
    wrapped.__doc__ = getattr(fn, "__doc__", None)
    return wrapped


def report_callback_errors(console: Console) -> Callable[[], None]:
    """Show exceptions of widget callbacks in ``console`` (inside a kernel only).

    ipywidgets hands a failing callback's exception to ``InteractiveShell.showtraceback``;
    this wraps that method of the running shell so the error also reaches the page. Returns
    a function that undoes it. Outside a kernel it does nothing.
    """
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return lambda: None
    shell = get_ipython()
    if shell is None:
        return lambda: None
    original = shell.showtraceback

    def showtraceback(*args: Any, **kwargs: Any) -> Any:
        value = sys.exc_info()[1]
        if value is not None:
            try:
                console.error(f"{type(value).__name__}: {value}")
            except Exception:  # the console itself must never hide the original report
                pass
        return original(*args, **kwargs)

    shell.showtraceback = showtraceback

    def restore() -> None:
        shell.showtraceback = original

    return restore


__all__ = ["Console", "guard", "report_callback_errors"]
