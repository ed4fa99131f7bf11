"""The messages a page shows in its console: refused moves, notes, the bots' failures.

>>> log = MessageLog(limit=2)
>>> log.info("New game"); log.error("'bid 9': no such coin"); log.last
"Error: 'bid 9': no such coin"
>>> log.clear_errors(); log.messages
['New game']
"""

from __future__ import annotations

import threading

from nidavellir.i18n import _

from .observable import Observable, Observed


class MessageLog(Observable):
    """The newest ``limit`` messages, each with its level (``error`` or ``info``).
    ``entries`` is replaced (never changed in place) at each change: a view observes it."""

    entries: Observed[tuple[tuple[str, str], ...]] = Observed(())

    def __init__(self, limit: int = 8) -> None:
        self.limit = limit
        self._lock = threading.Lock()

    @property
    def messages(self) -> list[str]:
        return [message for message, _ in self.entries]

    @property
    def last(self) -> str:
        entries = self.entries
        return entries[-1][0] if entries else ""

    def error(self, message: str) -> None:
        # Translators: a console line that reports an error ({message}: what went wrong).
        self._add(_("Error: {message}").format(message=message), "error")

    def info(self, message: str) -> None:
        self._add(message, "info")

    def clear(self) -> None:
        self.entries = ()

    def clear_errors(self) -> None:
        """Drop the error messages (after a successful move), keep the notes."""
        with self._lock:
            kept = tuple(e for e in self.entries if e[1] != "error")
        self.entries = kept

    def _add(self, message: str, level: str) -> None:
        with self._lock:
            entries = (*self.entries, (message, level))[-self.limit:]
        self.entries = entries
