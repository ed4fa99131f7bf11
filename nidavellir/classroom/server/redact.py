"""No secret in any log line of the class server.

The class password is Voila's token: a handed-out link carries it as ``?token=…``, and
tornado's own request log, its "Uncaught exception" lines and the ``repr`` of a request
in a traceback print the request's address whole (``429 GET
/voila/render/dashboard.ipynb?token=<password>`` was seen in a teacher's terminal when the
kernel cap refused a page). :class:`Redactor`, a :class:`logging.Filter` put on every
handler of the server's loggers (:func:`install`), rewrites each record before it is
written:

- a query parameter whose name holds ``token``, ``password``, ``auth``, ``secret`` or
  ``xsrf`` keeps its name and loses its value (``?token=[secret]``), in a URL, a
  request's ``repr`` or a form body;
- a ``Cookie``, ``Set-Cookie`` or ``Authorization`` header's value, and the lab's
  cookies (the teacher's session, jupyter_server's login cookie, ``_xsrf``) named in the
  text, are replaced;
- the secrets themselves (the class password, and any the server adds), wherever they
  appear, are replaced;
- a traceback attached to the record is formatted and rewritten the same way.

The access log itself is :func:`log_request`: tornado's line with the address scrubbed
(jupyter_server's ``_scrub_uri`` does the same for its own server).

Standard library only.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any

#: What replaces a secret.
HIDDEN = "[secret]"
#: Query or form parameters whose value is never written (a name that *holds* one of these).
SECRET_PARAMETERS = ("token", "password", "auth", "xsrf", "secret")
#: A parameter: a whole name (never begun inside a longer one: a match tried at every
#: letter of a long address took quadratic time, and a 60,000-character address froze the
#: server for minutes), its ``=`` and its value; :func:`scrub` hides the value when the
#: name holds one of :data:`SECRET_PARAMETERS`.
_PARAMETER = re.compile(
    r"(?P<name>[?&;\s'\"]?(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]+)(?P<sep>=|%3D)"
    r"(?P<value>[^&\s'\"<>;,)]+)", re.IGNORECASE)
_SECRET_NAME = re.compile("|".join(SECRET_PARAMETERS), re.IGNORECASE)
_HEADER = re.compile(r"(?P<name>\b(?:Cookie|Set-Cookie|Authorization)['\"]?\s*[:=,]\s*['\"]?)"
                     r"(?P<value>[^'\"\n]+)", re.IGNORECASE)
#: Cookies whose value is a login: the teacher's session, jupyter_server's user cookie
#: (``username-<host>-<port>``), the form token.
_COOKIE = re.compile(r"(?P<name>\b(?:nidavellir_teacher|nidavellir_client|username-[\w-]+|"
                     r"_xsrf)=)(?P<value>[^;\s'\"&]+)")


def _hide_parameter(m: re.Match[str]) -> str:
    if _SECRET_NAME.search(m.group("name")) is None:
        return m.group(0)
    return m.group("name") + m.group("sep") + HIDDEN


def scrub(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` without secrets (module docstring).

    >>> scrub("429 GET /voila/render/dashboard.ipynb?token=dwarves (127.0.0.1) 3.1ms")
    '429 GET /voila/render/dashboard.ipynb?token=[secret] (127.0.0.1) 3.1ms'
    >>> scrub("uri='/login?next=%2F&password=owl-42'", ["owl-42"])
    "uri='/login?next=%2F&password=[secret]'"
    >>> scrub("the class password dwarves was typed", ["dwarves"])
    'the class password [secret] was typed'
    """
    if not text:
        return text
    text = _PARAMETER.sub(_hide_parameter, text)
    text = _HEADER.sub(lambda m: m.group("name") + HIDDEN, text)
    text = _COOKIE.sub(lambda m: m.group("name") + HIDDEN, text)
    for secret in secrets:
        if secret:
            text = text.replace(secret, HIDDEN)
    return text


class Redactor(logging.Filter):
    """A filter that rewrites every record without its secrets (module docstring); the
    secrets named are hidden wherever they appear."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets: list[str] = [s for s in secrets if s]

    def add(self, secret: str) -> None:
        if secret and secret not in self.secrets:
            self.secrets.append(secret)

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "_nidavellir_scrubbed", False):
            return True
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not fit its format: as it is
            message = str(record.msg)
        record.msg = scrub(message, self.secrets)
        record.args = ()
        if record.exc_info and record.exc_info[0] is not None:
            formatter = logging.Formatter()
            record.exc_text = scrub(formatter.formatException(record.exc_info), self.secrets)
            record.exc_info = None
        elif record.exc_text:
            record.exc_text = scrub(record.exc_text, self.secrets)
        if record.stack_info:
            record.stack_info = scrub(record.stack_info, self.secrets)
        record._nidavellir_scrubbed = True
        return True


#: The server's one redactor (its secrets are added as the server learns them).
REDACTOR = Redactor()


def _handlers() -> list[logging.Handler]:
    found: list[logging.Handler] = list(logging.getLogger().handlers)
    for logger in list(logging.Logger.manager.loggerDict.values()):
        if isinstance(logger, logging.Logger):
            found += logger.handlers
    if logging.lastResort is not None:
        found.append(logging.lastResort)
    return found


def install(*secrets: str, redactor: Redactor = REDACTOR) -> Redactor:
    """Put ``redactor`` (with ``secrets`` added) on every handler of every logger there
    is now; call it again when handlers may have been added (it adds itself once)."""
    for secret in secrets:
        redactor.add(secret)
    for handler in _handlers():
        if redactor not in handler.filters:
            handler.addFilter(redactor)
    return redactor


def log_request(handler: Any) -> None:
    """The access log's line of a finished request, as tornado writes it but with the
    address scrubbed: ``<status> <method> <uri> (<ip>) <ms>ms`` (successes at debug
    level, client errors as warnings, server errors as errors)."""
    from tornado.log import access_log

    status = handler.get_status()
    if status < 400:
        method = access_log.info
    elif status < 500:
        method = access_log.warning
    else:
        method = access_log.error
    request = handler.request
    method("%d %s %s (%s) %.2fms", status, request.method,
           scrub(request.uri or "", REDACTOR.secrets), request.remote_ip,
           1000.0 * request.request_time())


__all__ = ["HIDDEN", "REDACTOR", "Redactor", "install", "log_request", "scrub"]
