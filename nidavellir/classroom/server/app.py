"""Voila for a class on school Wi-Fi: ``python -m nidavellir.classroom.server``.

``python -m nidavellir.serve`` (``make run``) starts this instead of ``python -m voila``; it
is Voila with these changes (docs/serving.md):

- **Compressed responses**: every text response is gzip-compressed for a browser that asks
  (static files once, from memory: ``static.py``; the page and API answers on the
  fly), and the kernel websocket uses permessage-deflate (the dashboard's widget state is
  158 kB of JSON).
- **Caching**: files whose URL names their content are cached for good (``immutable``);
  Voila's own JavaScript is served under ``/voila/static/_v/<digest>/`` for that. The page
  itself is never cached (Voila sends ``no-store``).
- **Heavy extensions load on demand**: the page config takes the deferred extensions
  (plotly's renderer, anywidget) out of what every page loads and hands them to
  ``@nidavellir/voila-page``, the lab's page extension, which loads one when a page first
  shows an output of its type (``deferred_extensions``); it also mends a race of
  ipywidgets' widget manager that slow laptops hit (docs/serving.md).
- **The page's kernel leaves with it**: the page gets the ``_xsrf`` cookie, so the shutdown
  request Voila's page sends when it is closed or reloaded is accepted (without the cookie
  Voila answers 403, voila issue #1458); kernels of pages that went away without it are
  culled by :class:`~nidavellir.classroom.server.kernels.ClassKernelManager`.
- **Connection counts that stay true, and no message dropped for coming fast**:
  :class:`CountedConnection` (below).
- **The first screen's chunks in one file**: the ~80 JavaScript chunks a dashboard loads
  before its first screen is usable come as one file, ``first-paint.<hash>.js``
  (``first_paint.py``; ``first_paint``).
- **Templates compiled once**: Voila builds a new Jinja environment for every page it
  renders (each pool kernel, each page served without a pool kernel) and so compiled its
  templates again each time, ~0.2 CPU-s a page; :class:`TemplateCode` keeps the compiled
  code for the server's life (:class:`CachedExporter`).

Server-side only (tornado, jupyter_server, Voila); nothing in the engine or the widgets
imports it.
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import datetime
import faulthandler
import functools
import html
import inspect
import logging
import os
import signal
import sys
import threading
import urllib.parse
from typing import Any

import jinja2
import tornado.web
from jupyter_server.base.handlers import FileFindHandler, JupyterHandler
from jupyter_server.services.kernels.connection.base import BaseKernelWebsocketConnection
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server.utils import url_path_join
from traitlets import Bool, Dict, Float, Int, Type
from voila import notebook_renderer, voila_kernel_manager
from voila._version import __version__ as voila_version
from voila.app import Voila
from voila.exporter import VoilaExporter
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.static_file_handler import MultiStaticFileHandler, TemplateStaticFileHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.treehandler import TornadoVoilaTreeHandler

from ... import i18n
from .. import CLASS_DIR_ENV, PASSWORD_ENV, TEACHER_PASSWORD_ENV
from ..sessions import SessionFile
from ..teacher.auth import TeacherAuth
from . import first_paint as FP
from . import redact as R
from . import static as S
from . import words as W
from .forks import discard_early
from .kernels import PAGE_REQUEST, PageRequest

#: The extensions a page loads only when it first shows what they render: the name of the
#: JupyterLab extension, and the mime types it renders or the widget modules it registers
#: (their version is the extension's package version).
DEFERRED_EXTENSIONS: dict[str, dict[str, Any]] = {
    "jupyterlab-plotly": {"mimeTypes": ["application/vnd.plotly.v1+json"], "rank": 2},
    "anywidget": {"widgets": ["anywidget"]},
}
#: The lab's page extension (deferred extensions, the widget-manager mend).
PAGE_EXTENSION = "@nidavellir/voila-page"
UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


class TemplateCode(jinja2.BytecodeCache):
    """Compiled templates in memory, by template and source checksum: a template whose
    file changes is compiled again."""

    def __init__(self) -> None:
        self._code: dict[str, tuple[str, Any]] = {}
        self._lock = threading.Lock()

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with self._lock:
            hit = self._code.get(bucket.key)
        if hit is not None and hit[0] == bucket.checksum:
            bucket.code = hit[1]

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with self._lock:
            self._code[bucket.key] = (bucket.checksum, bucket.code)

    def clear(self) -> None:
        with self._lock:
            self._code.clear()


#: The server's compiled templates (every page's exporter shares them).
TEMPLATE_CODE = TemplateCode()


class CachedExporter(VoilaExporter):  # type: ignore[misc]
    """Voila's exporter whose Jinja environment shares :data:`TEMPLATE_CODE` (every
    exporter Voila makes has the same settings: async, the ``do`` extension)."""

    def _create_environment(self) -> jinja2.Environment:
        env: jinja2.Environment = super()._create_environment()
        env.bytecode_cache = TEMPLATE_CODE
        return env


class CountedConnection(ZMQChannelsWebsocketConnection):  # type: ignore[misc]
    """The kernel websocket connection, counted once and uncounted once.

    jupyter_server counts a kernel's connections up in ``connect()`` (when the websocket
    opens) and down in ``disconnect()``, which tornado calls when the request's connection
    closes: also when a page goes away (closed, reloaded, its Wi-Fi dropped) while the
    server is still preparing the websocket (waiting for the kernel's ``kernel_info_reply``,
    seconds on a busy server), before ``connect()`` ever ran, and twice when opening the
    streams fails. The count then goes to -1; the culler treats a kernel with a nonzero
    count as connected, so that kernel is never culled: it outlives its page for good.
    Here a connection uncounts only what it counted.
    """

    #: jupyter_server stops passing IOPub messages to the page, all of them, once more
    #: than 1,000 a second came over 3 s, and sends the page a line of text instead. A
    #: page that misses one widget message shows a stale or broken widget for good, and
    #: the lab's page says much at once (a What-if branch: about 1,600 messages; after the
    #: server was busy, all of them in a moment), so here only the byte rate of printed
    #: output is limited (``iopub_data_rate_limit``), never the count of messages.
    iopub_msg_rate_limit = Float(0.0, config=True, help="messages a second on IOPub before "
                                 "they are dropped (0: no limit; jupyter_server's is 1000)")

    _counted = False

    async def prepare(self) -> Any:
        # Said in the log: a test waits for this state (not for a time) to close a socket
        # while the server waits for the kernel.
        self.log.info("Websocket to kernel %s: waiting for the kernel's info", self.kernel_id)
        return await super().prepare()

    def connect(self) -> Any:
        self._counted = True
        return super().connect()

    def handle_incoming_message(self, incoming_msg: Any) -> None:
        """A message from the page to the kernel; a malformed one (not the protocol's
        framing, not JSON, no header) is dropped with one line in the log, not an
        uncaught exception's traceback in the teacher's terminal."""
        try:
            super().handle_incoming_message(incoming_msg)
        except Exception as exc:
            self.malformed += 1
            self.log.warning("Kernel %s: a malformed websocket message from %s was dropped "
                             "(%s)", self.kernel_id,
                             getattr(self.websocket_handler.request, "remote_ip", "?"),
                             _why(exc))

    malformed = 0

    def disconnect(self) -> Any:
        if not self._counted:
            # Closed before it was counted: nothing to uncount, nothing to buffer.
            self.log.info("Websocket to kernel %s closed before it connected", self.kernel_id)
            return None
        self._counted = False
        return super().disconnect()


def _why(exc: BaseException) -> str:
    """An exception in a few words for a log line (its type and the start of its text)."""
    text = " ".join(str(exc).split())
    return type(exc).__name__ + (f": {text[:100]}" if text else "")


def _page_config_once(make: Any) -> Any:
    """Voila's ``get_page_config``, read from the disk once per server: each pool kernel's
    renderer asked for it again, reading every lab extension's ``package.json`` (4% of the
    server's time while a class's 30 kernels start after a restart). Each caller gets its
    own copy. An extension installed while the server runs is seen after a restart."""
    if getattr(make, "_nidavellir_once", False):
        return make
    made: dict[tuple[Any, ...], dict[str, Any]] = {}

    def page_config(base_url: str, settings: Any, log: Any, voila_configuration: Any,
                    **kwargs: Any) -> dict[str, Any]:
        key = (base_url, id(settings), id(voila_configuration), tuple(sorted(kwargs)))
        if key not in made:
            made[key] = make(base_url=base_url, settings=settings, log=log,
                             voila_configuration=voila_configuration, **kwargs)
        return copy.deepcopy(made[key])

    page_config._nidavellir_once = True  # type: ignore[attr-defined]
    return page_config


def no_unwritten_records(log: Any) -> None:
    """No log record made that no handler writes. traitlets sets its application's logger to
    DEBUG and lets its handlers filter: every ``log.debug`` call made a record then dropped
    it. The notebook runs of a class's kernels log each of their hundreds of messages so (5%
    of the server's time while a class's pages start). The logger's level becomes its
    handlers' lowest (nothing changes where a handler writes everything)."""
    logger = getattr(log, "logger", log)  # a LoggerAdapter's logger
    handlers = list(getattr(logger, "handlers", []))
    if handlers and isinstance(logger, logging.Logger):
        lowest = min(h.level for h in handlers)
        if logger.level < lowest:
            logger.setLevel(lowest)


def quick_message_dates() -> None:
    """Message dates read by the standard library. jupyter_client reads the dates of
    every message a notebook run receives (its header's and its parent's) with dateutil's
    general parser, 6 µs each, where ``datetime.fromisoformat`` takes 0.1 µs: a twentieth
    of the server's time while a class's pages came back after a restart (a sampling
    profile, 30 Nov). The same dates come out (jupyter_client gives a date without a zone
    the local one, as before); a date ``fromisoformat`` cannot read goes to dateutil's
    parser, as before. Installed once per process."""
    from jupyter_client import jsonutil

    general = getattr(jsonutil, "_dateutil_parse", None)
    if general is None or getattr(general, "_nidavellir_quick", False):
        return

    def parse(text: str) -> datetime.datetime:
        try:
            return datetime.datetime.fromisoformat(text)
        except ValueError:
            return general(text)  # type: ignore[no-any-return]

    parse._nidavellir_quick = True  # type: ignore[attr-defined]
    jsonutil._dateutil_parse = parse


class PageHandler(TornadoVoilaHandler):  # type: ignore[misc]
    """The notebook page, with the ``_xsrf`` cookie its shutdown request needs. A client
    address holds at most ``ClassKernelManager.kernels_per_client`` page kernels: past it,
    a page request is answered 429 and starts none."""

    #: Page requests under way (a request counts for its client until its kernel does).
    coming: list[PageRequest] = []

    def set_default_headers(self) -> None:
        super().set_default_headers()
        self.set_header("Content-Security-Policy", "frame-ancestors 'self'")

    @tornado.web.authenticated
    async def get(self, path: str | None = None) -> None:
        _ = self.xsrf_token  # sets the cookie if the browser has none
        client = self.request.remote_ip or ""
        cap = int(getattr(self.kernel_manager, "kernels_per_client", 0) or 0)
        count = getattr(self.kernel_manager, "kernels_of", None)
        held = (count(client) if count is not None else 0) + sum(
            1 for r in self.coming if r.client == client and not r.handed)
        if cap > 0 and held >= cap:
            self.log.warning("Page refused: %s holds %d dashboards already", client, held)
            self.set_status(429)
            self.set_header("Cache-Control", "no-store")
            self.set_header("Retry-After", str(W.REFUSED_RETRY_S))
            language = W.request_language(self.request.query,
                                          self.request.headers.get("Accept-Language", ""))
            with i18n.using(language):
                self.finish(W.too_many_pages(cap))
            return
        request = PageRequest(client)
        self.coming.append(request)
        self.log.info("A page for %s: %d dashboards held or coming", client, held + 1)
        token = PAGE_REQUEST.set(request)
        try:
            warming = getattr(self.kernel_manager, "pool_warming", None)
            if warming is not None:
                await warming(self.notebook_path or path or "")
            await super().get(path=path)
        finally:
            PAGE_REQUEST.reset(token)
            self.coming.remove(request)


class TreeHandler(TornadoVoilaTreeHandler):  # type: ignore[misc]
    """The class page at ``/`` (the handed-out link's landing page: ``class_page.html``
    for Voila's file list), in the page's language (:mod:`.words`)."""

    def render_template(self, name: str, **ns: Any) -> str:
        language = W.request_language(self.request.query,
                                      self.request.headers.get("Accept-Language", ""))
        with i18n.using(language):
            words = W.class_page_words()
        # A link from a page that asked for its language keeps it.
        asked = urllib.parse.parse_qs(self.request.query).get("lang")
        words["query"] = "?" + urllib.parse.urlencode({"lang": language}) if asked else ""
        ns.setdefault("words", words)
        ns.setdefault("page_lang", language)
        result: str = super().render_template(name, **ns)
        return result


class ShutdownHandler(VoilaShutdownKernelHandler):  # type: ignore[misc]
    """The shutdown request of a closed or reloaded page (a ``sendBeacon`` POST; a page may
    send two: Voila's on ``beforeunload``, the template's on ``pagehide``)."""

    ending: set[str] = set()

    @tornado.web.authenticated
    async def post(self, kernel_id: str) -> None:
        if kernel_id in self.kernel_manager and kernel_id not in self.ending:
            self.ending.add(kernel_id)
            self.log.info("Page closed: shutting down its kernel %s", kernel_id)
            try:
                await self.kernel_manager.shutdown_kernel(kernel_id)
            except KeyError:
                pass  # culled meanwhile
            finally:
                self.ending.discard(kernel_id)
        self.set_status(204)  # done, or already gone
        self.finish()


class HeartbeatHandler(JupyterHandler):  # type: ignore[misc]
    """``GET /nidavellir/api/page/<kernel id>``: the page is still open (the lab's template
    sends it every 15 s from the moment its HTML arrives, before the websocket opens)."""

    @tornado.web.authenticated
    def get(self, kernel_id: str) -> None:
        if kernel_id not in self.kernel_manager:
            raise tornado.web.HTTPError(404, "this page's kernel has ended: reload the page")
        sign = getattr(self.kernel_manager, "page_sign", None)
        if sign is not None:
            sign(kernel_id)
        self.set_header("Cache-Control", "no-store")
        self.set_status(204)
        self.finish()


#: The longest address path the server reads (longer: 414). Tornado itself closes, without
#: an answer, a connection whose request headers pass 64 kB.
MAX_PATH = 2048
ERROR_PAGE = (
    "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{code}: {reason}"
    "</title></head><body style='font:16px sans-serif;margin:40px'><h1>{code}: {reason}</h1>"
    "<p>{hint}</p></body></html>")
HINTS = {400: "This address is malformed.", 403: "This page is not open to you.",
         404: "There is nothing at this address.", 405: "This address does not take that.",
         414: "This address is too long."}


def malformed(path: str) -> tuple[int, str] | None:
    """Why a request's path is refused before any handler reads it (status, reason): too
    long, or, once decoded, a control character (a NUL byte, ...) or a ``..`` step (a
    browser never sends one; Voila's page handler redirected it to the files handler).

    >>> malformed("/voila/render/dashboard.ipynb") is None
    True
    >>> [malformed(p)[0] for p in ("/voila/render/%00", "/voila/static/..%2Fx", "/" + "a" * 3000)]
    [400, 400, 414]
    """
    if len(path) > MAX_PATH:
        return 414, "URI Too Long"
    text = urllib.parse.unquote(path, errors="replace")
    if any(ord(c) < 32 or ord(c) == 127 for c in text) or ".." in text.replace(
            "\\", "/").split("/"):
        return 400, "Bad Request"
    return None


class RefuseMalformed:
    """Every handler of the server: a malformed path is a 4xx before the handler runs
    (Voila's page handler answered 500 to a NUL byte)."""

    request: Any

    async def prepare(self, *args: Any, **kwargs: Any) -> None:
        refused = malformed(self.request.path)
        if refused is not None:
            raise tornado.web.HTTPError(refused[0], reason=refused[1])
        result = super().prepare(*args, **kwargs)  # type: ignore[misc]
        if inspect.isawaitable(result):
            await result


class PlainErrors:
    """An error page in one sentence, never a traceback. jupyter_server's error template
    needs a setting Voila does not have, and Voila's calls a method jupyter_server 2
    refuses: each failed with a traceback in the log and an empty answer."""

    _reason: str

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")  # type: ignore[attr-defined]
        self.set_header("Cache-Control", "no-store")  # type: ignore[attr-defined]
        hint = HINTS.get(status_code, "The server could not answer this request." if
                         status_code >= 500 else "This request cannot be answered.")
        self.finish(ERROR_PAGE.format(  # type: ignore[attr-defined]
            code=status_code, reason=html.escape(self._reason), hint=hint))


@functools.cache
def guarded(handler: type) -> type:
    """The handler with :class:`RefuseMalformed` (all) and :class:`PlainErrors` (all but the
    JSON APIs and the teacher's pages, whose errors are JSON already)."""
    from jupyter_server.base.handlers import APIHandler

    from ..teacher.handlers import TeacherHandler

    plain = () if issubclass(handler, APIHandler | TeacherHandler) else (PlainErrors,)
    return type(handler.__name__, (RefuseMalformed, *plain, handler),
                {"__module__": handler.__module__, "__doc__": handler.__doc__})


class TooLongHandler(PlainErrors, tornado.web.RequestHandler):
    """Any address longer than :data:`MAX_PATH`: 414, whatever it names."""

    def prepare(self) -> None:
        raise tornado.web.HTTPError(414, reason="URI Too Long")


class ClassVoila(Voila):  # type: ignore[misc]
    """Voila with compression, caching, deferred extensions and kernels that leave with
    their page (module docstring)."""

    deferred_extensions = Dict(
        copy.deepcopy(DEFERRED_EXTENSIONS), config=True,
        help="Extensions a page loads only when it first shows what they render: name -> "
             "{'mimeTypes': [...], 'rank': n} or {'widgets': [module names]}; {} loads "
             "every extension at once, as Voila does")
    kernel_websocket_connection_class = Type(
        default_value=CountedConnection, klass=BaseKernelWebsocketConnection, config=True,
        help="The kernel websocket connection class (counts that stay true by default)")
    first_paint = Bool(
        True, config=True,
        help="Serve the JavaScript chunks a dashboard loads before its first screen as one "
             "file (first_paint.json lists them); False: one request a chunk, as Voila does")
    websocket_compression_level = Int(
        1, config=True,
        help="zlib level of the kernel websocket (0: off). 1 by default: the dashboard's "
             "widget state (165 kB of JSON) is 16.8 kB at level 1 in 0.7 ms, 13.0 kB at "
             "level 6 in 2.9 ms, on the one process that serves the whole class")

    def initialize(self, argv: Any = None) -> None:
        # Taken out before anything else runs: kernels get the server's environment.
        password = os.environ.pop(PASSWORD_ENV, "")
        teacher = os.environ.pop(TEACHER_PASSWORD_ENV, "")
        super().initialize(argv)
        if password:
            self.token = password  # Voila's token is the class password
        #: The class folder's session file: the login cookies' secret and the teacher's
        #: sessions survive a restart (nidavellir/classroom/sessions.py); None without one.
        folder = os.environ.get(CLASS_DIR_ENV, "").strip()
        self.session_file = SessionFile(folder) if folder else None
        if self.session_file is not None:
            try:
                self.cookie_secret = self.session_file.cookie_secret()
            except OSError as exc:
                self.log.warning("The login cookies' secret cannot be kept in %s (%s): a "
                                 "restart of the server will log everybody out",
                                 self.session_file.path, exc)
                self.session_file = None
            if self.session_file is not None and self.session_file.problem:
                self.log.warning(self.session_file.problem)
        #: The teacher password's salted hash and the teacher's sessions (nidavellir/classroom/teacher/auth.py).
        self.teacher_auth = (TeacherAuth(teacher, kept=self.session_file) if teacher
                             else None)
        # Voila's renderer makes its exporter by this module-level name.
        notebook_renderer.VoilaExporter = CachedExporter
        # And each pool kernel's renderer its page configuration, by this one.
        voila_kernel_manager.get_page_config = _page_config_once(
            voila_kernel_manager.get_page_config)
        self.voila_configuration.extra_labextensions_path = [
            *self.voila_configuration.extra_labextensions_path,
            str(S.PAGE_EXTENSION.parent.parent)]
        previous = self.voila_configuration.page_config_hook

        def hook(page_config: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
            if previous is not None:
                page_config = previous(page_config, **kwargs)
            return self.page_config(page_config, str(kwargs.get("base_url") or self.base_url))

        self.voila_configuration.page_config_hook = hook
        self.first_paint_name = ""
        if self.first_paint:
            self._add_first_paint()
        self.static_digest = S.static_digest(self._static_paths(), voila_version)
        no_unwritten_records(self.log)
        quick_message_dates()

    def _static_paths(self) -> list[str]:
        # Voila's traitlet, set in Voila.setup_template_dirs (typed here for mypy).
        return list(getattr(self, "static_paths"))  # noqa: B009

    def _add_first_paint(self) -> None:
        """Build the first-paint bundle and serve it among Voila's static files."""
        try:
            bundle, note = FP.for_server(voila_version, self._static_paths(),
                                         self.labextensions_path)
        except FP.FirstPaintError as exc:
            self.log.warning("first-paint bundle off: %s", exc)
            return
        self.log.info(note)
        if bundle is None:
            return
        folder = FP.write(bundle)
        atexit.register(FP.remove, folder)
        self.set_trait("static_paths", [folder, *self._static_paths()])
        self.first_paint_name = bundle.name

    # ------------------------------------------------------------------ the page

    def page_config(self, page_config: dict[str, Any], base_url: str) -> dict[str, Any]:
        """Voila's JavaScript under the versioned prefix; the deferred extensions handed to
        the lab's page extension (which must be there to stand in for them)."""
        page_config = dict(page_config)
        # The page guard's words in every language: a pool kernel's page is made before
        # the server knows its language; the page picks its own (words.py).
        page_config["nidavellirWords"] = W.guard_words_everywhere()
        page_config["nidavellirLanguage"] = os.environ.get(i18n.LANGUAGE_ENV, i18n.SOURCE)
        page_config["fullStaticUrl"] = url_path_join(
            base_url, S.VERSIONED_PREFIX + self.static_digest)
        if self.first_paint_name:
            page_config["nidavellirFirstPaint"] = self.first_paint_name
        extensions = list(page_config.get("federated_extensions", []))
        if PAGE_EXTENSION not in {e["name"] for e in extensions} or not self.deferred_extensions:
            return page_config
        packages = _federated_packages(tuple(self.labextensions_path))
        keep, deferred = [], []
        for ext in extensions:
            how = self.deferred_extensions.get(ext["name"])
            if how is None:
                keep.append(ext)
                continue
            entry = {**ext, "mimeTypes": list(how.get("mimeTypes", [])),
                     "rank": how.get("rank", 0)}
            version = packages.get(ext["name"], {}).get("version", "")
            entry["widgets"] = [{"name": w, "version": version} for w in how.get("widgets", [])]
            deferred.append(entry)
        page_config["federated_extensions"] = keep
        page_config["nidavellirDeferredExtensions"] = deferred
        return page_config

    # ------------------------------------------------------------------ the server

    def init_settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = super().init_settings()
        # The kernel manager exists now: a fork server started before the imports that it
        # did not take (a command line without the class's manager) ends rather than idle
        # for the server's life.
        discard_early()
        settings["compress_response"] = True
        if self.websocket_compression_level > 0:
            settings["websocket_compression_options"] = {
                "compression_level": self.websocket_compression_level}
        settings["nidavellir_static_digest"] = self.static_digest
        # The access log without secrets (a ?token= link is the class password).
        settings["log_function"] = R.log_request
        return settings

    def init_handlers(self) -> list[Any]:
        replaced: dict[type, type] = {
            MultiStaticFileHandler: S.VoilaStaticHandler,
            TemplateStaticFileHandler: S.TemplateStaticHandler,
            FileFindHandler: S.LabextensionsHandler,
            TornadoVoilaHandler: PageHandler,
            TornadoVoilaTreeHandler: TreeHandler,
            VoilaShutdownKernelHandler: ShutdownHandler,
        }
        handlers: list[Any] = []
        for rule in super().init_handlers():
            pattern, handler, *rest = rule
            if handler is MultiStaticFileHandler:
                versioned = url_path_join(self.server_url,
                                          r"/voila/static/_v/[0-9a-f]+/(.*)")
                handlers.append((versioned, S.VoilaStaticHandler, *rest))
            handlers.append((pattern, replaced.get(handler, handler), *rest))
        heartbeat = url_path_join(self.server_url, rf"/nidavellir/api/page/({UUID})")
        too_long = url_path_join(self.server_url, rf"/.{{{MAX_PATH},}}")
        return [(too_long, TooLongHandler), (heartbeat, guarded(HeartbeatHandler)),
                *[(pattern, guarded(handler), *rest) for pattern, handler, *rest in handlers]]

    def start(self) -> None:
        # Every log line without secrets: the handlers exist by now.
        R.install(self.token or "")
        say_where_on_request()
        roots = [*self.static_paths, *self.labextensions_path]
        S.warm([r for r in dict.fromkeys(roots) if os.path.isdir(r)])
        super().start()


def say_where_on_request() -> None:
    """``kill -USR1 <server's pid>`` writes the stacks of the server's threads to its
    standard error (its log): where a request that never got its answer waits (the event
    loop, the thread pool's workers). Stacks name files, lines and functions, never a
    value. Where the system has no SIGUSR1, or standard error is gone, nothing."""
    if hasattr(signal, "SIGUSR1") and sys.__stderr__ is not None:
        with contextlib.suppress(ValueError, OSError, RuntimeError, AttributeError):
            faulthandler.register(signal.SIGUSR1, file=sys.__stderr__, all_threads=True)


@functools.lru_cache(maxsize=4)
def _federated_packages(paths: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """The installed extensions' package data, read once (the static digest, also taken at
    start, assumes the same: installing an extension means restarting the server)."""
    from jupyterlab_server.config import get_federated_extensions

    return dict(get_federated_extensions(list(paths)))


def main(argv: list[str] | None = None) -> None:
    """``python -m nidavellir.classroom.server``: the lab's Voila (options as for
    ``voila``; ``python -m nidavellir.serve`` adds the lab's)."""
    ClassVoila.launch_instance(argv=argv)


__all__ = ["CachedExporter", "ClassVoila", "CountedConnection",
           "DEFERRED_EXTENSIONS", "HeartbeatHandler", "PageHandler", "ShutdownHandler",
           "TEMPLATE_CODE", "TemplateCode", "TreeHandler", "main", "say_where_on_request"]
