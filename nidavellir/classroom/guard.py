"""Limits per client for the class server: failed logins slow down and lock out.

Both passwords (the class password, on the login page or as ``?token=`` in a link, and the
teacher password) are guarded by a :class:`Throttle` each. Every failure from a client
makes that client wait before its next try (``first_wait``, doubling, at most
``longest_wait``); after ``failures`` failures in a row it is locked out for ``lockout``
seconds. While a client waits, its tries are **refused without being checked**, so the
number of guesses a client gets is bounded whatever it sends in parallel. The refusal
itself is slow (:func:`tarpit`: up to a second) and costs the server next to nothing, so a
storm of wrong passwords from one client does not slow the class. A success forgets the
client; so does ``forget_after`` seconds without a failure.

**A client** is a browser at an address (:func:`client_of`): the connection's address
(tornado's ``remote_ip``) and the browser's own id, a random cookie
(:data:`CLIENT_COOKIE`) the login pages give every browser (:func:`give_client_cookie`).
A whole class behind one school NAT shares one address but not one browser: a student who
guesses passwords locks out their own browser, not the class. A request without the
cookie (the first visit of a handed-out ``?token=`` link, a script) is counted under the
address alone. Since a client could send a new cookie with each guess, an address also has
a ceiling: ``address_failures`` failures (of all its browsers) within ``lockout`` seconds,
beyond which every browser at that address waits until the oldest of them is that old
(default: ten times ``failures``, 100: one wrong password in three seconds from a class,
sustained over five minutes). docs/serving.md, *Limits per client*.

Stdlib only (its messages through :mod:`nidavellir.i18n`, in the request's language); the
tornado handlers using it are the class password's (:mod:`nidavellir.classroom.login`) and
the teacher's (:mod:`nidavellir.classroom.teacher.handlers`).
"""

from __future__ import annotations

import asyncio
import math
import re
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..i18n import _, count

#: The longest a refused try is kept waiting before its answer.
TARPIT_S = 1.0
#: The cookie that names a browser to the throttles (random; it proves nothing and opens
#: nothing: it only keeps one browser's failures apart from its classmates').
CLIENT_COOKIE = "nidavellir_client"
_CLIENT_ID = re.compile(r"[0-9a-f]{32}")


def client_of(handler: Any) -> str:
    """The client a tornado request comes from: ``"<address> <browser id>"``, or the
    address alone for a request without the browser's cookie (module docstring)."""
    address = str(handler.request.remote_ip or "")
    browser = handler.get_cookie(CLIENT_COOKIE, default="") or ""
    return f"{address} {browser}" if _CLIENT_ID.fullmatch(browser) else address


def give_client_cookie(handler: Any) -> None:
    """Give the browser its id (:data:`CLIENT_COOKIE`) unless it has one: set by every
    login form, so that its tries count as this browser's."""
    if not _CLIENT_ID.fullmatch(handler.get_cookie(CLIENT_COOKIE, default="") or ""):
        handler.set_cookie(CLIENT_COOKIE, secrets.token_hex(16), httponly=True,
                           samesite="Lax", expires_days=365)


def address_of(client: str) -> str:
    """The address of a client (:func:`client_of`)."""
    return client.split(" ", 1)[0]


@dataclass
class _Client:
    failures: int = 0
    until: float = 0.0
    last: float = 0.0
    busy: bool = False


class Throttle:
    """Failed tries per client (module docstring). ``teacher``: it guards the teacher
    password (its messages do not send anyone to their teacher)."""

    def __init__(self, failures: int = 10, lockout: float = 300.0, first_wait: float = 0.5,
                 longest_wait: float = 8.0, forget_after: float = 900.0,
                 clock: Callable[[], float] = time.monotonic, most: int = 10_000,
                 address_failures: int | None = None, teacher: bool = False) -> None:
        if failures < 1:
            raise ValueError(f"failures before a lockout must be 1 or more, not {failures}")
        self.failures = failures
        self.address_failures = (10 * failures if address_failures is None
                                 else address_failures)
        if self.address_failures < failures:
            raise ValueError(f"an address's failures ({self.address_failures}) must be at "
                             f"least a client's ({failures})")
        self.teacher = teacher
        #: Each address's failures within the last ``lockout`` seconds (their times).
        self._addresses: OrderedDict[str, deque[float]] = OrderedDict()
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

    def _address_wait(self, client: str) -> float:
        """Seconds before the client's address is under its ceiling again (0: now)."""
        times = self._addresses.get(address_of(client))
        if not times:
            return 0.0
        now = self.clock()
        while times and now - times[0] >= self.lockout:
            times.popleft()
        if len(times) < self.address_failures:
            return 0.0
        return max(0.0, times[-self.address_failures] + self.lockout - now)

    def wait(self, address: str) -> float:
        """Seconds before the client ``address`` (:func:`client_of`) may try again (0:
        now)."""
        shared = self._address_wait(address)
        client = self._get(address)
        if client is None:
            return shared
        if client.busy:
            return max(self.first_wait, client.until - self.clock(), shared)
        return max(0.0, client.until - self.clock(), shared)

    def locked(self, address: str) -> bool:
        """Whether the client is locked out (its own failures, or its address's)."""
        if self._address_wait(address) > 0:
            return True
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
        times = self._addresses.setdefault(address_of(address), deque())
        times.append(now)
        while len(times) > self.address_failures:
            times.popleft()
        self._addresses.move_to_end(address_of(address))
        while len(self._addresses) > self.most:
            self._addresses.popitem(last=False)

    def message(self, address: str) -> str:
        """What the login page says to a client that must wait, in the request's
        language (:func:`nidavellir.i18n.using`)."""
        seconds = math.ceil(self.wait(address))
        if self._address_wait(address) > 0 and not self._own_lockout(address):
            # Translators: the login page, after many wrong passwords from several
            # computers of one network (a school's); {duration} is e.g. "5 minutes".
            return _("Too many wrong passwords from this network: its computers may try again "
                     "in {duration}.").format(duration=_duration(seconds))
        if self.locked(address):
            if self.teacher:
                # Translators: the teacher's login page, after too many wrong teacher
                # passwords from one computer; {duration} is e.g. "5 minutes".
                return _("Too many wrong passwords from this computer: it may try again in "
                         "{duration}. A restart of the server with the teacher password "
                         "lets you in at once.").format(duration=_duration(seconds))
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

    def _own_lockout(self, address: str) -> bool:
        client = self._get(address)
        return client is not None and (client.failures >= self.failures or client.busy or
                                       client.until > self.clock())


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


__all__ = ["CLIENT_COOKIE", "TARPIT_S", "Throttle", "address_of", "client_of",
           "give_client_cookie", "tarpit"]
