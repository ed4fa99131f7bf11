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
page asks for another language, the interface is built again in that one: the page shows
the server's language for a moment, then its own. A class taught in the server's language
loses nothing of the preheating.

The second interface is built only once the page has restored its widgets: the lab's page
extension (``@nidavellir/voila-page``) sends every language page :data:`RESTORED` when its
widget manager has restored, and the kernel builds then, on its main thread. Built from the
request's thread while the page restored, it raced the restoration (ipywidgets walks the
kernel's widgets to answer the page's request for their states while the thread added
new ones): on a busy machine parts of the page came without the widgets they hold. A page
that never says so (one served without the extension) is built again after
:data:`RESTORE_WAIT_S` seconds; ``data-rebuilt`` on the switch says which it was.

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

from . import widget_states  # noqa: F401  (a page's request for all states: widget_states.py)


def request_language(environ: Mapping[str, str] = os.environ) -> str:
    """The language a page asks for, from the environment Voila gives its kernel."""
    return i18n.choose(environ.get("QUERY_STRING", ""),
                       environ.get("HTTP_ACCEPT_LANGUAGE", ""),
                       environ.get(i18n.LANGUAGE_ENV, i18n.SOURCE))


def server_language(environ: Mapping[str, str] = os.environ) -> str:
    """The server's default language (before any page asked)."""
    return i18n.choose(default=environ.get(i18n.LANGUAGE_ENV, i18n.SOURCE))


#: The page extension's message to a language page once the page's widgets are restored.
RESTORED = "nidavellir:restored"

#: How long a preheated page waits for :data:`RESTORED` before it builds its language anyway.
RESTORE_WAIT_S = 60.0


def switch_html(current: str, query: str = "", built: Sequence[str] = (),
                rebuilt: str = "") -> str:
    """Links to this page in each language (each language named in itself), the current
    one marked; the address's other parameters (a token, a lesson) are kept. ``built``: the
    languages the interface was built in, in order (``data-built``: a preheated page that
    was built again for its request says so); ``rebuilt``: when it was built again
    (``restored``: once the page said its widgets were restored; ``waited``: after
    :data:`RESTORE_WAIT_S` without word from the page)."""
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
    rebuilt_attr = f" data-rebuilt='{html.escape(rebuilt)}'" if rebuilt else ""
    return (f"<nav class='nid-languages' aria-label='{label}' lang='{current}' "
            f"data-built='{' '.join(built)}'{rebuilt_attr}>{label} "
            + " · ".join(links) + "</nav>")


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
        #: Set once the page is in its request's language (a preheated page; at once for
        #: the others), or its request could not be read.
        self.requested = threading.Event()
        #: Set when the page said its widgets are restored (:data:`RESTORED`).
        self.restored = threading.Event()
        #: When the page was built again for its request ("restored", "waited"), if it was.
        self.rebuilt = ""
        self._lock = threading.Lock()
        self._wanted: tuple[str, str] | None = None
        self.on_msg(self._from_page)
        self.show(language)

    def show(self, language: str, query: str | None = None) -> None:
        """Build the interface in ``language`` (nothing to do if it is in it already)."""
        if query is not None:
            self.query = query
        if language == self.language:
            self.switch.value = switch_html(language, self.query, self.built, self.rebuilt)
            return
        i18n.set_language(language)
        self.language = language
        self.built.append(language)
        old, self.content = self.content, self._build()
        self.children = [self.switch, self.content]
        # The switch last: once it names the language, the page holds the new interface.
        self.switch.value = switch_html(language, self.query, self.built, self.rebuilt)
        close = getattr(old, "close", None)
        if close is not None:
            close()

    def want(self, language: str, query: str) -> None:
        """The page's request asks for ``language``: build it once the page's widgets are
        restored (at once if they are)."""
        with self._lock:
            self._wanted = (language, query)
        if self.restored.is_set():
            self.build_wanted("restored")

    def build_wanted(self, when: str) -> None:
        """Build the language the request asked for, if it is still to be built (once:
        the page's message and the wait's end may both come)."""
        with self._lock:
            wanted, self._wanted = self._wanted, None
        if wanted is None:
            return
        try:
            if wanted[0] != self.language:
                self.rebuilt = when
            self.show(*wanted)
        except Exception as exc:  # the page keeps the language it has, and says why
            self.cannot_set(exc)
        finally:
            self.requested.set()

    def cannot_set(self, exc: BaseException) -> None:
        """Say on the page (and in the server's log) why its language could not be set."""
        self.switch.value += html.escape(" " + _("(the page's language could not be set: "
                                                 "{error})").format(error=exc))
        print(f"nidavellir: the page's language could not be set: {exc!r}",
              file=sys.__stderr__, flush=True)

    def _from_page(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("event") == RESTORED:
            self.restored.set()
            self.build_wanted("restored")


#: Where a preheated page waits for its request (the page's language comes with it).
_LANGUAGE = Workers("nidavellir-page-language")


def page(build: Callable[[], Any], environ: Mapping[str, str] | None = None,
         wait: Callable[[], None] | None = None,
         restore_wait_s: float | None = None) -> LanguagePage:
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
    _LANGUAGE.run(lambda: _when_requested(shown, env, wait, restore_wait_s))
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
                    wait: Callable[[], None], restore_wait_s: float | None = None) -> None:
    try:
        wait()  # the page's request: its query string and headers land in os.environ
        shown.want(request_language(env), env.get("QUERY_STRING", ""))
    except Exception as exc:  # the page keeps the server's language, and says why
        shown.cannot_set(exc)
        shown.requested.set()
        return
    if not shown.restored.wait(RESTORE_WAIT_S if restore_wait_s is None else restore_wait_s):
        shown.build_wanted("waited")  # no word from the page (served without the extension)


__all__ = ["RESTORED", "RESTORE_WAIT_S", "LanguagePage", "page", "request_language", "server_language", "switch_html"]
