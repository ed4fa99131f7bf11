"""The language of a page: the address's ``?lang=``, else the browser's, else the server's.

A notebook shows its interface through :func:`page` (``page(dashboard)``): the page's
language is chosen by :func:`nidavellir.i18n.choose` from what Voila hands the kernel (the
query string, and the ``Accept-Language`` header, which ``nidavellir.serve`` asks Voila to
forward) and the server's default (``--language``, ``make run LANG=fr``), set for the whole
kernel, and the interface is built in it, with a switch to the other languages above it.

A *preheated* kernel (the class pool, docs/serving.md) runs the notebook before any page
asks for it: it builds the interface in the server's default language and finishes the
notebook (the pool counts a kernel ready only then); a thread waits for the page's request
(:func:`wait_for_request`, which Voila answers when a page takes the kernel) and, if the
page asks for another language, builds the interface again in that one: the page shows the
server's language for a moment, then its own. A class taught in the server's language loses
nothing of the preheating.

The switch is a set of links to the same address with another ``lang``: a new page and a
new kernel in that language (the game on the page starts again).
"""

from __future__ import annotations

import html
import json
import os
import sys
import threading
import urllib.parse
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from typing import Any

import ipywidgets as W
from IPython.display import display

from nidavellir import i18n
from nidavellir.i18n import _
from nidavellir.play.runner import Workers


def request_language(environ: Mapping[str, str] = os.environ) -> str:
    """The language a page asks for, from the environment Voila gives its kernel."""
    return i18n.choose(environ.get("QUERY_STRING", ""),
                       environ.get("HTTP_ACCEPT_LANGUAGE", ""),
                       environ.get(i18n.LANGUAGE_ENV, i18n.SOURCE))


def server_language(environ: Mapping[str, str] = os.environ) -> str:
    """The server's default language (before any page asked)."""
    return i18n.choose(default=environ.get(i18n.LANGUAGE_ENV, i18n.SOURCE))


def switch_html(current: str, query: str = "", built: Sequence[str] = ()) -> str:
    """Links to this page in each language (each language named in itself), the current
    one marked; the address's other parameters (a token, a lesson) are kept. ``built``: the
    languages the interface was built in, in order (``data-built``: a preheated page that
    was built again for its request says so)."""
    params = [(k, v) for k, v in urllib.parse.parse_qsl(query, keep_blank_values=True)
              if k != "lang"]
    links = []
    for code, name in i18n.LANGUAGES.items():
        if code == current:
            links.append(f"<b lang='{code}'>{html.escape(name)}</b>")
            continue
        href = "?" + urllib.parse.urlencode([*params, ("lang", code)])
        links.append(f"<a href='{html.escape(href)}' target='_self' lang='{code}' "
                     f"hreflang='{code}'>{html.escape(name)}</a>")
    # Translators: above every page, the links to the page in the other languages.
    label = html.escape(_("Language:"))
    return (f"<nav class='nid-languages' aria-label='{label}' lang='{current}' "
            f"data-built='{' '.join(built)}'>{label} " + " · ".join(links) + "</nav>")


class LanguagePage(W.VBox):  # type: ignore[misc]
    """The switch and the interface ``build()`` makes, in one language."""

    def __init__(self, build: Callable[[], Any], language: str, query: str = "",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-language-page")
        self._build = build
        self.language = ""
        self.query = query
        self.switch = W.HTML()
        self.content: Any = None
        #: The languages the interface was built in, in order.
        self.built: list[str] = []
        #: Set once the page's request was read (a preheated page; at once for the others).
        self.requested = threading.Event()
        self.show(language)

    def show(self, language: str, query: str | None = None) -> None:
        """Build the interface in ``language`` (nothing to do if it is in it already)."""
        if query is not None:
            self.query = query
        if language == self.language:
            self.switch.value = switch_html(language, self.query, self.built)
            return
        i18n.set_language(language)
        self.language = language
        self.built.append(language)
        old, self.content = self.content, self._build()
        self.switch.value = switch_html(language, self.query, self.built)
        self.children = [self.switch, self.content]
        close = getattr(old, "close", None)
        if close is not None:
            close()


#: Where a preheated page waits for its request (the page's language comes with it).
_LANGUAGE = Workers("nidavellir-page-language")


def page(build: Callable[[], Any], environ: Mapping[str, str] | None = None,
         wait: Callable[[], None] | None = None) -> LanguagePage:
    """Show ``build()``'s interface in the page's language (module docstring). The page
    is displayed here and returned: a notebook assigns it (``app = page(dashboard)``)."""
    env = os.environ if environ is None else environ
    if env.get("VOILA_PREHEAT", "False") != "True":
        shown = LanguagePage(build, request_language(env), env.get("QUERY_STRING", ""))
        shown.requested.set()
        display(shown)
        return shown
    shown = LanguagePage(build, server_language(env))
    display(shown)
    if wait is None:
        wait = wait_for_request
    _LANGUAGE.run(lambda: _when_requested(shown, env, wait))
    return shown


def request_address(environ: Mapping[str, str] = os.environ) -> str:
    """Where a preheated kernel hears of its page's request: Voila's query socket for the
    kernel (``voila.utils.wait_for_request`` builds the same address from the same
    variables, which Voila sets in its kernels' environment).

    >>> request_address({"VOILA_APP_PORT": "8901", "VOILA_SERVER_URL": "/lab/",
    ...                  "VOILA_KERNEL_ID": "k1"})
    'ws://127.0.0.1:8901/lab/voila/query/k1'
    """
    protocol = environ.get("VOILA_WS_PROTOCOL", "ws")
    ip = environ.get("VOILA_APP_IP", "127.0.0.1")
    port = environ.get("VOILA_APP_PORT", "8866")
    base = environ.get("VOILA_WS_BASE_URL", environ.get("VOILA_SERVER_URL", "/"))
    return f"{protocol}://{ip}:{port}{base}voila/query/{environ.get('VOILA_KERNEL_ID', '')}"


def wait_for_request(environ: MutableMapping[str, str] = os.environ) -> None:
    """Wait until a page takes this preheated kernel, then put its request (query string,
    headers Voila forwards) into ``environ``: Voila's ``voila.utils.wait_for_request``,
    without importing the ``voila`` package, which brings the Jupyter server with it
    (about 3.5 s of CPU in every kernel of the pool, most of a kernel's start)."""
    import asyncio

    import websockets

    async def receive() -> str | bytes:
        async with websockets.connect(request_address(environ), open_timeout=5) as socket:
            return await socket.recv()

    for key, value in json.loads(asyncio.run(receive())).items():
        environ[key] = value


def _when_requested(shown: LanguagePage, env: Mapping[str, str],
                    wait: Callable[[], None]) -> None:
    try:
        wait()  # the page's request: its query string and headers land in os.environ
        shown.show(request_language(env), env.get("QUERY_STRING", ""))
    except Exception as exc:  # the page keeps the server's language, and says why
        shown.switch.value += html.escape(" " + _("(the page's language could not be set: "
                                                  "{error})").format(error=exc))
        print(f"nidavellir: the page's language could not be set: {exc!r}",
              file=sys.__stderr__, flush=True)
    finally:
        shown.requested.set()


__all__ = ["LanguagePage", "page", "request_language", "server_language", "switch_html"]
