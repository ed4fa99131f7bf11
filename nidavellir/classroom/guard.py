"""Limits per client address for the class server: failed logins slow down and lock out.

Both passwords (the class password, on the login page or as ``?token=`` in a link, and the
teacher password) are guarded by a :class:`Throttle` each. Every failure from an address
makes that address wait before its next try (``first_wait``, doubling, at most
``longest_wait``); after ``failures`` failures in a row it is locked out for ``lockout``
seconds. While an address waits, its tries are **refused without being checked**, so the
number of guesses an address gets is bounded whatever it sends in parallel. The refusal
itself is slow (:func:`tarpit`: up to a second) and costs the server next to nothing, so a
storm of wrong passwords from one address does not slow the class. A success forgets the
address; so does ``forget_after`` seconds without a failure.

Addresses are the connection's (tornado's ``remote_ip``): a class behind one school NAT
shares one, so the options are there to tune (docs/serving.md, *Limits per client*).
Stdlib only (its messages through :mod:`nidavellir.i18n`, in the request's language); the
tornado handlers using it are the class password's (:mod:`nidavellir.classroom.login`) and
the teacher's (:mod:`nidavellir.classroom.teacher.handlers`).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from ..i18n import _, count

#: The longest a refused try is kept waiting before its answer.
TARPIT_S = 1.0


@dataclass
class _Client:
    failures: int = 0
    until: float = 0.0
    last: float = 0.0
    busy: bool = False


class Throttle:
    """Failed tries per client address (module docstring)."""

    def __init__(self, failures: int = 10, lockout: float = 300.0, first_wait: float = 0.5,
                 longest_wait: float = 8.0, forget_after: float = 900.0,
                 clock: Callable[[], float] = time.monotonic, most: int = 10_000) -> None:
        if failures < 1:
            raise ValueError(f"failures before a lockout must be 1 or more, not {failures}")
        self.failures = failures
        self.lockout = lockout
        self.first_wait = first_wait
        self.longest_wait = longest_wait
        self.forget_after = forget_after
        self.clock = clock
        self.most = most
        self._clients: OrderedDict[str, _Client] = OrderedDict()
        #: Tries checked and tries refused unchecked (for the log and the tests).
        self.checked = 0
        self.refused = 0

    def _get(self, address: str) -> _Client | None:
        client = self._clients.get(address)
        if client is not None and not client.busy and self.clock() - client.last > max(
                self.forget_after, client.until - client.last):
            del self._clients[address]
            return None
        return client

    def wait(self, address: str) -> float:
        """Seconds before ``address`` may try again (0: now)."""
        client = self._get(address)
        if client is None:
            return 0.0
        if client.busy:
            return max(self.first_wait, client.until - self.clock())
        return max(0.0, client.until - self.clock())

    def locked(self, address: str) -> bool:
        client = self._get(address)
        return client is not None and client.failures >= self.failures and self.wait(address) > 0

    def begin(self, address: str) -> bool:
        """Whether ``address`` may try now; if so its try is under way until :meth:`end`
        (call it in a ``finally``), and the address's other tries meanwhile are refused:
        one at a time, whatever it sends in parallel."""
        if self.wait(address) > 0:
            self.refused += 1
            return False
        self.checked += 1
        client = self._get(address)
        if client is None:
            client = self._clients[address] = _Client(last=self.clock())
        client.busy = True
        return True

    def end(self, address: str, ok: bool) -> None:
        """The try's outcome: a success forgets the address; a failure makes it wait."""
        now = self.clock()
        if ok:
            self._clients.pop(address, None)
            return
        client = self._clients.get(address) or _Client()
        client.busy = False
        client.failures += 1
        client.last = now
        if client.failures >= self.failures:
            client.until = now + self.lockout
        else:
            client.until = now + min(self.longest_wait,
                                     self.first_wait * 2 ** (client.failures - 1))
        self._clients[address] = client
        self._clients.move_to_end(address)
        while len(self._clients) > self.most:
            self._clients.popitem(last=False)

    def message(self, address: str) -> str:
        """What the login page says to an address that must wait, in the request's
        language (:func:`nidavellir.i18n.using`)."""
        seconds = math.ceil(self.wait(address))
        if self.locked(address):
            # Translators: the login page of a class, after too many wrong passwords from
            # one computer; {duration} is e.g. "5 minutes" or "30 seconds".
            return _("Too many wrong passwords from this computer: it may try again in "
                     "{duration}. Ask your teacher if you are stuck.").format(
                         duration=_duration(seconds))
        # Not "Wrong password": a try refused while the address waits was never checked
        # (the right password typed too soon gets this too).
        # Translators: the login page of a class, after a wrong password; {duration} is
        # e.g. "2 seconds".
        return _("A wrong password was typed from this computer: wait {duration} before the "
                 "next try (a try before then is not checked).").format(
                     duration=_duration(seconds))


def _duration(seconds: int) -> str:
    """A wait in whole minutes (from 90 s) or seconds, in the current language."""
    if seconds >= 90:
        # Translators: a wait, put into the login page's messages as {duration}.
        return count(math.ceil(seconds / 60), "{n} minute", "{n} minutes")
    # Translators: a wait, put into the login page's messages as {duration}.
    return count(max(seconds, 1), "{n} second", "{n} seconds")


async def tarpit(throttle: Throttle, address: str) -> None:
    """Keep a refused try waiting (up to :data:`TARPIT_S`) before it is answered: a
    client sending tries one after another on a connection gets few answers a second."""
    await asyncio.sleep(min(TARPIT_S, throttle.wait(address)))


__all__ = ["TARPIT_S", "Throttle", "tarpit"]
