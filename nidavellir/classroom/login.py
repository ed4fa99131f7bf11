"""The class password: Voila's token, typed on the lab's login page.

``python -m nidavellir.serve`` with a class password (``NIDAVELLIR_PASSWORD`` or
``--password-file``; docs/serving.md, *Passwords*) makes :class:`ClassIdentityProvider`
Voila's identity provider: the password is Voila's token, typed on the lab's
``login.html`` (the ``nidavellir`` template, in the page's language) or handed out as
``?token=…``; every try goes through a per-address :class:`~nidavellir.classroom.guard.
Throttle`. The teacher page's provider (:class:`~nidavellir.classroom.teacher.handlers.
ClassViewIdentityProvider`) is this one with the teacher's handlers added.

Server-side only (jupyter_server, Voila).
"""

from __future__ import annotations

import hmac
import urllib.parse
from collections.abc import Awaitable
from typing import Any

from jupyter_server.auth.decorator import allow_unauthenticated
from tornado.escape import url_escape
from traitlets import Float, Int
from voila.voila_identity_provider import VoilaIdentityProvider, VoilaLoginHandler

from .. import i18n
from ..i18n import _
from . import page_language
from .guard import Throttle, client_of, give_client_cookie, tarpit


class ClassLoginHandler(VoilaLoginHandler):  # type: ignore[misc]
    """The class password page: ``login.html`` of the lab's template (served from this
    machine, no CDN), not jupyter_server's page (which Voila cannot style). Wrong
    passwords slow down and lock out per client (a browser at an address,
    :mod:`.guard`): a try from a client that must wait is refused (429) without being
    checked."""

    def get_template(self, name: str) -> Any:
        env = self.settings.get("voila_jinja2_env")
        if env is not None and name == "login.html":
            return env.get_template(name)
        return super().get_template(name)

    def _language(self) -> str:
        """The page's language, as the teacher pages pick theirs (the class's, else
        ``?lang=`` of this address or of the page it leads to, the browser's, the
        server's)."""
        asked = self.get_argument("lang", default="")
        if not asked:
            after = urllib.parse.urlsplit(self.get_argument("next", default="")).query
            asked = next(iter(urllib.parse.parse_qs(after).get("lang", [])), "")
        return page_language(asked, self.request.headers.get("Accept-Language", ""))

    def _render(self, message: dict[str, str] | None = None) -> None:
        """jupyter_server's form, with the lab's words in the page's language (its own
        "Invalid credentials" is never shown: the template says ``words.wrong``)."""
        self.write(self.render_template(
            "login.html", next=url_escape(self.get_argument("next", default=self.base_url)),
            message=message, words=login_words(), page_lang=i18n.language()))

    @allow_unauthenticated
    def get(self) -> None:
        with i18n.using(self._language()):
            throttle: Throttle | None = getattr(self.identity_provider, "throttle", None)
            give_client_cookie(self)  # this browser's tries are its own (guard.py)
            address = client_of(self)
            if not self.current_user and throttle is not None and throttle.wait(address) > 0:
                self._render(message={"locked": throttle.message(address)})
                return
            super().get()

    @allow_unauthenticated
    async def post(self) -> None:
        with i18n.using(self._language()):
            throttle: Throttle | None = getattr(self.identity_provider, "throttle", None)
            address = client_of(self)
            if throttle is not None and throttle.wait(address) > 0:
                throttle.refused += 1
                await tarpit(throttle, address)
                self.set_status(429)
                self._render(message={"locked": throttle.message(address)})
                return
            super().post()


def login_words() -> dict[str, str]:
    """The class password page's words, in the current language."""
    return {
        # Translators: the class password page's title (the browser's tab).
        "title": _("Nidavellir lab — class password"),
        "heading": _("Nidavellir lab"),
        "lead": _("This class is protected by a password. Type the password your teacher "
                  "gave you (or open the link with ?token=… they handed out)."),
        "wrong": _("Wrong password: try again, or ask your teacher."),
        "password": _("Class password"),
        # Translators: the button of the class password page.
        "enter": _("Enter"),
        "noscript": _("This page needs JavaScript."),
    }


class ClassIdentityProvider(VoilaIdentityProvider):  # type: ignore[misc]
    """Voila's token, used as the class password, with the lab's login page; every try
    of the password (the login form, ``?token=`` in a link, an ``Authorization`` header)
    goes through a per-client :class:`~nidavellir.classroom.guard.Throttle`."""

    failures = Int(10, config=True,
                   help="wrong passwords in a row from one client (a browser at an address) "
                        "before it is locked out (each of the class and teacher passwords)")
    address_failures = Int(100, config=True,
                           help="wrong passwords from all the browsers of one address within "
                                "lockout_minutes before that address waits (a class behind "
                                "one school NAT shares its address)")
    lockout_minutes = Float(5.0, config=True,
                            help="minutes a client is locked out after `failures`")
    first_wait = Float(0.5, config=True,
                       help="seconds a client waits after a wrong password "
                            "(doubling with each one, at most 8)")

    def new_throttle(self, teacher: bool = False) -> Throttle:
        return Throttle(failures=self.failures, lockout=60 * self.lockout_minutes,
                        first_wait=self.first_wait, longest_wait=max(8.0, self.first_wait),
                        address_failures=max(self.failures, self.address_failures),
                        teacher=teacher)

    @property
    def throttle(self) -> Throttle:
        if getattr(self, "_throttle", None) is None:
            self._throttle = self.new_throttle()
        return self._throttle

    def _try(self, handler: Any, typed: str) -> bool:
        """One try of the class password from the handler's client (a browser at an
        address: :func:`~nidavellir.classroom.guard.client_of`)."""
        address = client_of(handler)
        if not self.throttle.begin(address):
            handler._nidavellir_refused = True
            return False
        ok = False
        try:
            ok = bool(self.token) and hmac.compare_digest(typed.encode(), self.token.encode())
        finally:
            self.throttle.end(address, ok)
        if not ok:
            self.log.warning("Wrong class password from %s", handler.request.remote_ip)
        return ok

    def process_login_form(self, handler: Any) -> Any:
        """The typed class password is the token (jupyter_server's own form handling calls
        a ``user_for_token`` its token provider does not have)."""
        if self._try(handler, handler.get_argument("password", default="")):
            return self.generate_anonymous_user(handler)
        return None

    async def get_user_token(self, handler: Any) -> Any:
        """jupyter_server's token check (``?token=``, ``Authorization``), throttled."""
        if not self.token:
            return None
        typed = self.get_token(handler)
        if not typed:
            return None
        address = client_of(handler)
        if self.throttle.wait(address) > 0:
            self.throttle.refused += 1
            await tarpit(self.throttle, address)
            return None
        if not self._try(handler, typed):
            return None
        user = self.get_user_cookie(handler)
        if isinstance(user, Awaitable):
            user = await user
        return user if user is not None else self.generate_anonymous_user(handler)

    def get_handlers(self) -> list[tuple[str, object]]:
        return [(pattern, ClassLoginHandler if handler is self.login_handler_class else handler)
                for pattern, handler in super().get_handlers()]


__all__ = ["ClassIdentityProvider", "ClassLoginHandler", "login_words"]
