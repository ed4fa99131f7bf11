"""Voila's static files for a class on school Wi-Fi: compressed once, cached for good.

A first visit of the dashboard fetches ~100 static files (Voila's JavaScript, the widget
manager, the lab's theme); left to Voila they travel uncompressed and a reload fetches them
again. The handlers here replace Voila's three static handlers
(``nidavellir/classroom/server/app.py`` puts them in):

- **gzip, computed once**: a text response (JavaScript, CSS, JSON, SVG, HTML) to a client
  that accepts gzip is sent compressed (level 9) from an in-memory cache keyed by the file's
  path, size and modification time; the compression runs in a thread, once per file, and the
  server warms the cache at start (:func:`warm`). Other clients get the file as it is.
- **one stat a request**: where a URL's file is (tornado resolves symbolic links and walks
  the roots, a dozen system calls for each of a page's ~100 files) is remembered once it has
  been found and checked; a later request only checks that it is still a file.
- **caching**: a file whose URL names its content is ``Cache-Control: public,
  max-age=31536000, immutable`` (a repeat visit does not even ask for it); anything else is
  ``no-cache`` (the browser asks again and gets ``304 Not Modified``). A URL names its
  content when the file name carries a content hash (JupyterLab extensions:
  ``remoteEntry.1dda3c8f6e5cd2a3.js``), when Voila's own files are asked for under
  ``/voila/static/_v/<digest>/`` with the digest of the files now installed
  (:func:`static_digest`; the page config points Voila's loader there), or when a template
  file is asked for with ``?v=`` equal to its content hash (Voila's ``static_url``).

Server-side only (tornado, jupyter_server, Voila); nothing in the engine or the widgets
imports it.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import hashlib
import json
import mimetypes
import os
import re
import stat
import sys
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tornado.web
from jupyter_server.auth.decorator import allow_unauthenticated
from jupyter_server.base.handlers import FileFindHandler
from voila.static_file_handler import MultiStaticFileHandler, TemplateStaticFileHandler

#: Types worth compressing (beside text/*).
COMPRESSIBLE = {"application/javascript", "application/x-javascript", "application/json",
                "application/xml", "image/svg+xml", "application/manifest+json"}
#: Smaller files gain nothing from gzip (tornado's own threshold).
MIN_SIZE = 1024
LEVEL = 9
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
#: A file name that carries its content hash: ``84.09c61a35dce1705f.js``,
#: ``remoteEntry.698dcaf7.js`` (webpack/rspack ``[contenthash]``, at least 8 hex digits).
HASHED_NAME = re.compile(r"(?:^|[.-])[0-9a-f]{8,}\.[A-Za-z0-9]+$")
#: Where Voila's own static files are served with the digest of the installed files.
VERSIONED_PREFIX = "voila/static/_v/"

PAGE_EXTENSION = (Path(__file__).resolve().parents[2] / "share" / "jupyter" / "voila"
                  / "labextensions" / "@nidavellir" / "voila-page")


def is_compressible(content_type: str) -> bool:
    base = content_type.split(";")[0].strip().lower()
    return base.startswith("text/") or base in COMPRESSIBLE


def accepts_gzip(header: str) -> bool:
    """Whether an ``Accept-Encoding`` header admits gzip (``gzip;q=0`` refuses it)."""
    for part in header.split(","):
        token, _, params = part.strip().partition(";")
        if token.strip().lower() in ("gzip", "*"):
            q = params.strip()
            if q.startswith("q="):
                try:
                    return float(q[2:]) > 0
                except ValueError:
                    return False
            return True
    return False


@dataclass(frozen=True)
class Compressed:
    body: bytes
    etag: str
    key: tuple[int, int]
    size: int


class GzipCache:
    """gzip bodies of static files, computed once per file version (size, mtime)."""

    def __init__(self, level: int = LEVEL) -> None:
        self.level = level
        self._entries: dict[str, Compressed] = {}
        self._pending: dict[str, asyncio.Future[Compressed]] = {}
        self._lock = threading.Lock()

    @staticmethod
    def _key(path: str) -> tuple[int, int]:
        st = os.stat(path)
        return st.st_mtime_ns, st.st_size

    def compress(self, path: str) -> Compressed:
        """The compressed file, from the cache or computed now (any thread)."""
        key = self._key(path)
        with self._lock:
            entry = self._entries.get(path)
        if entry is not None and entry.key == key:
            return entry
        data = Path(path).read_bytes()
        body = gzip.compress(data, compresslevel=self.level, mtime=0)
        digest = hashlib.sha1(data).hexdigest()[:20]
        entry = Compressed(body=body, etag=f'"{digest}-gz"', key=key, size=len(data))
        with self._lock:
            self._entries[path] = entry
        return entry

    async def get(self, path: str) -> Compressed:
        """The compressed file; the first request compresses it in a thread, the requests
        that come meanwhile wait for the same result."""
        key = self._key(path)
        with self._lock:
            entry = self._entries.get(path)
        if entry is not None and entry.key == key:
            return entry
        pending = self._pending.get(path)
        if pending is None:
            loop = asyncio.get_running_loop()
            pending = asyncio.ensure_future(loop.run_in_executor(None, self.compress, path))
            self._pending[path] = pending
            pending.add_done_callback(lambda _f: self._pending.pop(path, None))
        return await pending

    def __len__(self) -> int:
        return len(self._entries)


GZIP = GzipCache()


def compressible_files(roots: Iterable[str]) -> list[str]:
    """Files under ``roots`` worth compressing (by type and size)."""
    found = []
    for root in roots:
        for dirpath, _dirs, files in os.walk(root):
            for name in files:
                path = os.path.join(dirpath, name)
                ctype = mimetypes.guess_type(name)[0] or ""
                if name.endswith(".js"):
                    ctype = "application/javascript"
                try:
                    if is_compressible(ctype) and os.path.getsize(path) >= MIN_SIZE:
                        found.append(path)
                except OSError:
                    continue
    return found


def warm(roots: Sequence[str], cache: GzipCache = GZIP) -> threading.Thread:
    """Compress every static file under ``roots`` in a background thread (zlib releases
    the GIL: the server keeps answering meanwhile), at the lowest CPU priority: it takes
    1.5 s of a core, which a restarted class server needs for the class's kernels (a
    page's browser has the files already; a file asked for before it is warm is
    compressed for its request at once)."""

    def run() -> None:
        if sys.platform == "linux":  # there a thread's id names the thread alone
            with contextlib.suppress(AttributeError, OSError):
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        for path in compressible_files(roots):
            try:
                cache.compress(path)
            except OSError:
                continue

    thread = threading.Thread(target=run, name="nidavellir-gzip-warm", daemon=True)
    thread.start()
    return thread


def static_digest(roots: Sequence[str], version: str) -> str:
    """A digest of the static files installed under ``roots`` (names, sizes, modification
    times) and Voila's version: it changes whenever one of the files does."""
    h = hashlib.sha1(version.encode())
    for root in roots:
        h.update(root.encode())
        if not os.path.isdir(root):
            continue
        for dirpath, dirs, files in os.walk(root):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(dirpath, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                h.update(f"{os.path.relpath(path, root)}\0{st.st_size}\0{st.st_mtime_ns}\n"
                         .encode())
    return h.hexdigest()[:16]


#: (handler class, roots, URL path) -> the file it resolved to and validated.
_RESOLVED: dict[tuple[Any, ...], str] = {}


class CompressedStaticMixin:
    """gzip from :data:`GZIP` and the cache policy, for tornado static file handlers."""

    # What tornado.web.StaticFileHandler provides (for the type checker).
    request: Any
    root: Any
    path: str
    absolute_path: str
    modified: Any
    settings: dict[str, Any]

    def url_names_content(self) -> bool:
        """Whether this request's URL changes whenever the file does (so it may be cached
        for good)."""
        return bool(HASHED_NAME.search(os.path.basename(self.path or "")))

    def set_headers(self) -> None:
        super().set_headers()  # type: ignore[misc]
        self.set_header("Cache-Control",  # type: ignore[attr-defined]
                        IMMUTABLE if self.url_names_content() else REVALIDATE)

    def get_cache_time(self, path: str, modified: Any, mime_type: str) -> int:
        return 0  # Cache-Control comes from set_headers; no Expires header

    async def get(self, path: str, include_body: bool = True) -> None:
        parent: Any = super()
        if "Range" in self.request.headers or not accepts_gzip(
                self.request.headers.get("Accept-Encoding", "")):
            await parent.get(path, include_body)
            return
        self.path = self.parse_url_path(path)  # type: ignore[attr-defined]
        key = (type(self), repr(self.root), self.path)
        resolved: Any = _RESOLVED.get(key)
        try:
            st = os.stat(resolved) if resolved is not None else None
        except OSError:
            st = None
        if st is None or not stat.S_ISREG(st.st_mode):
            _RESOLVED.pop(key, None)
            absolute = self.get_absolute_path(self.root, self.path)  # type: ignore[attr-defined]
            resolved = self.validate_absolute_path(  # type: ignore[attr-defined]
                self.root, absolute)
            if resolved is None:
                return
            st = os.stat(resolved)
            _RESOLVED[key] = resolved
        self.absolute_path = resolved
        if (not is_compressible(self.get_content_type())  # type: ignore[attr-defined]
                or st.st_size < MIN_SIZE):
            await parent.get(path, include_body)
            return
        entry = await GZIP.get(self.absolute_path)
        self.modified = self.get_modified_time()  # type: ignore[attr-defined]
        self.set_headers()
        self.set_header("Etag", entry.etag)  # type: ignore[attr-defined]
        self.set_header("Content-Encoding", "gzip")  # type: ignore[attr-defined]
        if self.should_return_304():  # type: ignore[attr-defined]
            self.set_status(304)  # type: ignore[attr-defined]
            return
        self.set_header("Content-Length", len(entry.body))  # type: ignore[attr-defined]
        if include_body:
            self.write(entry.body)  # type: ignore[attr-defined]


class VoilaStaticHandler(CompressedStaticMixin, MultiStaticFileHandler):  # type: ignore[misc]
    """``/voila/static/…`` and ``/voila/static/_v/<digest>/…`` (Voila's JavaScript)."""

    def url_names_content(self) -> bool:
        digest = self.settings.get("nidavellir_static_digest")
        return bool(digest) and f"/{VERSIONED_PREFIX}{digest}/" in self.request.path


#: What a template's static address is: ``<template>/static/<file>``.
TEMPLATE_PATH = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_.-]*)/static/([^\x00]+)")


class TemplateStaticHandler(CompressedStaticMixin, TemplateStaticFileHandler):  # type: ignore[misc]
    """``/voila/templates/<template>/static/…`` (the theme's CSS, ``voila-style.js``), linked
    with ``?v=<content hash>``. Any other address is a 404 (Voila's handler answered 500 to
    one that is not ``<template>/static/<file>``, or that climbs out with ``..``)."""

    def parse_url_path(self, url_path: str) -> str:
        found = TEMPLATE_PATH.fullmatch(url_path)
        if found is None or ".." in found.group(2).split("/"):
            raise tornado.web.HTTPError(404)
        try:
            return str(super().parse_url_path(url_path))
        except Exception:  # an unknown template: Voila looks for its folders and fails
            raise tornado.web.HTTPError(404) from None

    def url_names_content(self) -> bool:
        asked = self.request.arguments.get("v")
        if not asked or not self.absolute_path:
            return False
        return bool(asked[0].decode() == self._get_cached_version(self.absolute_path))


class LabextensionsHandler(CompressedStaticMixin, FileFindHandler):  # type: ignore[misc]
    """``/voila/labextensions/…``: the JupyterLab extensions, their files named by content."""

    @allow_unauthenticated
    async def get(self, path: str, include_body: bool = True) -> None:
        await CompressedStaticMixin.get(self, path, include_body)

    @allow_unauthenticated
    async def head(self, path: str) -> None:
        await CompressedStaticMixin.get(self, path, include_body=False)


def page_extension_entry() -> tuple[Path, str]:
    """The voila-page container's file and the name it must have (its content hash)."""
    files = sorted((PAGE_EXTENSION / "static").glob("remoteEntry.*.js"))
    if len(files) != 1:
        raise RuntimeError(f"{PAGE_EXTENSION / 'static'}: expected one remoteEntry.*.js, "
                           f"found {[f.name for f in files]}")
    digest = hashlib.sha256(files[0].read_bytes()).hexdigest()[:16]
    return files[0], f"remoteEntry.{digest}.js"


def rehash_page_extension() -> str:
    """Rename the container after an edit to the name of its content, in package.json too."""
    path, name = page_extension_entry()
    if path.name != name:
        path.rename(path.with_name(name))
    package = PAGE_EXTENSION / "package.json"
    data = json.loads(package.read_text())
    data["jupyterlab"]["_build"]["load"] = f"static/{name}"
    package.write_text(json.dumps(data, indent=2) + "\n")
    return name


if __name__ == "__main__":  # python -m nidavellir.classroom.server.static --rehash
    if sys.argv[1:] != ["--rehash"]:
        sys.exit("usage: python -m nidavellir.classroom.server.static --rehash")
    print(rehash_page_extension())
