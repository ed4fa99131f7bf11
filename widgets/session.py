"""The Play tab's model, seen from the widgets: :class:`nidavellir.play.Session` (a plain
object, no widget in it) and the :class:`Console`, the widget that shows its messages.

>>> s = Session.from_config({"players": 2, "seats": ["human", "random"], "seed": 3})
>>> console = Console(s.console)
>>> s.submit("bid 9 9 9")
False
>>> "no such" in console.value or "Error" in console.value
True
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W

from nidavellir.bots import make_bot
from nidavellir.i18n import _
from nidavellir.play import (
    BOT_NAMES,
    HUMAN,
    LEVEL_HELP,
    LEVEL_OF,
    LEVELS,
    SEAT_KINDS,
    SEAT_MENU,
    Change,
    MessageLog,
    Session,
)

from . import (
    tooltips,  # noqa: F401  (no "null" over a label)
    widget_states,  # noqa: F401  (a page gets every state and message: widget_states.py)
)


class Console(W.HTML):
    """A view of a :class:`~nidavellir.play.MessageLog` (newest last): errors in red, notes
    in grey. Without a log it makes its own (Replay, the lessons).

    An HTML widget rather than an Output so that messages show (and can be read in
    tests) outside a running kernel.
    """

    def __init__(self, log: MessageLog | None = None, limit: int = 8, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-console")
        self.message_log = log if log is not None else MessageLog(limit=limit)
        self.message_log.observe(self._render, "entries")
        self._render(None)

    # The log's calls, so that a panel holding the console reports to it directly.
    @property
    def messages(self) -> list[str]:
        return self.message_log.messages

    @property
    def last(self) -> str:
        return self.message_log.last

    def error(self, message: str) -> None:
        self.message_log.error(message)

    def info(self, message: str) -> None:
        self.message_log.info(message)

    def clear(self) -> None:
        self.message_log.clear()

    def clear_errors(self) -> None:
        self.message_log.clear_errors()

    def _render(self, _change: Change | None) -> None:
        rows = []
        for msg, level in self.message_log.entries:
            tone = "nid-bad" if level == "error" else "nid-muted"
            rows.append(f"<div class='nid-console-line {tone}'>{html.escape(msg)}</div>")
        body = "".join(rows) or ("<div class='nid-faint'>" + html.escape(
            _("messages appear here")) + "</div>")
        self.value = f"<div class='nid-console-box'>{body}</div>"


__all__ = ["BOT_NAMES", "HUMAN", "LEVELS", "LEVEL_HELP", "LEVEL_OF", "SEAT_KINDS", "SEAT_MENU",
           "Console", "MessageLog", "Session", "make_bot"]
