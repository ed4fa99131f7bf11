"""The dashboard's first screen in one file: Voila's JavaScript chunks as one request.

A first visit of the dashboard asks for about 70 of Voila's webpack chunks
(``5764.voila.js``, …) and a dozen of the widget manager's, one after another as each
chunk's code asks for the next. Every request costs the one server process that serves
the whole class (routing, headers, a system call or two: about 0.5 ms, 40 ms a student),
and every script costs the student's laptop its own fetch, script element and compile
step. Webpack's runtime takes chunks that are already on the page before it starts: a
chunk file only pushes its modules onto a global array (``self.webpackChunk…``), and the
runtime installs whatever that array holds when it starts, without asking for those
chunks again. So the server concatenates the chunks a dashboard loads at first paint into
one file, ``first-paint.<content hash>.js``, which the page loads just before Voila's
``voila.js``; compressed once and cached for good like Voila's other files. Its first line
asks Chromium to compile all of it while it downloads, on a background thread
(:data:`COMPILE_HINT`).

Which chunks: the list in ``first_paint.json`` beside this module, recorded from a real
page by ``python -m nidavellir.classroom.server.first_paint --record`` (a browser opens the
dashboard on a server without the bundle and notes which chunk files it asked for). It
names the Voila version it was recorded with; with another Voila installed the server
serves no bundle (the page then loads its chunks one by one, as Voila does) and says so in
its log. A listed file that is not installed is left out; a chunk the list lacks is loaded
by the page as usual: the bundle only saves requests, it never decides what runs.

Server-side only; nothing in the engine or the widgets imports it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The recorded list (``--record`` writes it).
LIST_FILE = Path(__file__).with_name("first_paint.json")
#: Entries: ``static/<name>`` (Voila's static files) or ``labextensions/<path>``.
STATIC, LABEXTENSIONS = "static/", "labextensions/"
#: The bundle's first line: Chromium's explicit compile hint (V8, Chrome 136 and later)
#: that every function of the file runs at load, so V8 compiles them with the script, on
#: a background thread while it streams in, instead of one by one on the page's main
#: thread when each is first called (measured: the main thread's largest cost at first
#: paint). Other browsers read it as a comment.
COMPILE_HINT = b"//# allFunctionsCalledOnLoad\n"
#: A source-map comment points next to its own file: wrong once the chunk is concatenated.
SOURCE_MAP = re.compile(rb"^//# sourceMappingURL=\S*[ \t]*$", re.M)
#: URLs of the page's chunk requests -> list entries (a remoteEntry is a container the
#: page loads itself, so it stays out).
_VOILA_CHUNK = re.compile(r"/voila/static/(?:_v/[0-9a-f]+/)?(\d+\.voila\.js)$")
_LAB_CHUNK = re.compile(r"/voila/labextensions/(.+/static/(?!remoteEntry\.)[^/]+\.js)$")


class FirstPaintError(ValueError):
    """The list file is malformed (names the file and what is wrong)."""


@dataclass
class Bundle:
    """The concatenated chunks: its file name, its body, what went in and what was left
    out (listed but not installed)."""

    name: str
    body: bytes
    included: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def load_list(path: Path = LIST_FILE) -> tuple[str, list[str]]:
    """The recorded Voila version and the list's entries."""
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise FirstPaintError(f"{path}: cannot read the first-paint list: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("voila"), str) or not (
            isinstance(data.get("files"), list)
            and all(isinstance(f, str) for f in data["files"])):
        raise FirstPaintError(f"{path}: expected {{'voila': '<version>', 'files': "
                              f"['static/….voila.js', 'labextensions/…', …]}}")
    bad = [f for f in data["files"] if not f.startswith((STATIC, LABEXTENSIONS))
           or ".." in f.split("/") or not f.endswith(".js")]
    if bad:
        raise FirstPaintError(f"{path}: entries must be static/<file>.js or "
                              f"labextensions/<path>.js, not {bad[:3]}")
    return data["voila"], list(data["files"])


def _find(entry: str, static_roots: Sequence[str], lab_roots: Sequence[str]) -> str | None:
    if entry.startswith(STATIC):
        rel, roots = entry[len(STATIC):], static_roots
    else:
        rel, roots = entry[len(LABEXTENSIONS):], lab_roots
    for root in roots:
        path = os.path.join(root, *rel.split("/"))
        if os.path.isfile(path):
            return path
    return None


def build(files: Sequence[str], static_roots: Sequence[str],
          lab_roots: Sequence[str]) -> Bundle | None:
    """The bundle of the listed files found under the roots (in the list's order, each
    ended by a line break and ``;`` so no file's last expression runs into the next;
    :data:`COMPILE_HINT` first), or None when none was found.

    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (root / "1.voila.js").write_text("(self.w=self.w||[]).push([[1],{}])")
    >>> b = build(["static/1.voila.js", "static/2.voila.js"], [str(root)], [])
    >>> b.included, b.missing, b.body.endswith(b"\\n;\\n"), b.name.startswith("first-paint.")
    (['static/1.voila.js'], ['static/2.voila.js'], True, True)
    """
    parts: list[bytes] = []
    included, missing = [], []
    for entry in files:
        path = _find(entry, static_roots, lab_roots)
        if path is None:
            missing.append(entry)
            continue
        with open(path, "rb") as handle:
            parts.append(SOURCE_MAP.sub(b"", handle.read()).rstrip() + b"\n;\n")
        included.append(entry)
    if not parts:
        return None
    body = COMPILE_HINT + b"".join(parts)
    digest = hashlib.sha256(body).hexdigest()[:16]
    return Bundle(f"first-paint.{digest}.js", body, included, missing)


def for_server(voila_version: str, static_roots: Sequence[str], lab_roots: Sequence[str],
               list_path: Path = LIST_FILE) -> tuple[Bundle | None, str]:
    """The bundle for this installation, or None, and a line for the server's log."""
    recorded, files = load_list(list_path)
    if recorded != voila_version:
        return None, (f"first-paint bundle off: {list_path.name} was recorded with Voila "
                      f"{recorded}, this is Voila {voila_version} (the page loads its "
                      f"chunks one by one); record it again with python -m "
                      f"nidavellir.classroom.server.first_paint --record")
    bundle = build(files, static_roots, lab_roots)
    if bundle is None:
        return None, f"first-paint bundle off: none of the {len(files)} listed files found"
    note = (f"first-paint bundle {bundle.name}: {len(bundle.included)} chunks, "
            f"{len(bundle.body) / 1e6:.2f} MB")
    if bundle.missing:
        note += (f"; {len(bundle.missing)} listed files not installed (left out, the page "
                 f"loads whatever it lacks): {', '.join(bundle.missing[:3])}")
    return bundle, note


def write(bundle: Bundle) -> str:
    """The bundle written to a new directory of its own (served as a static root; removed
    by :func:`remove` when the server stops)."""
    folder = tempfile.mkdtemp(prefix="nidavellir-first-paint-")
    with open(os.path.join(folder, bundle.name), "wb") as handle:
        handle.write(bundle.body)
    return folder


def remove(folder: str) -> None:
    shutil.rmtree(folder, ignore_errors=True)


def entries_from_urls(urls: Sequence[str]) -> list[str]:
    """The list entries for a page's request URLs (chunks only, first request first).

    >>> entries_from_urls(["http://h/voila/static/_v/0a1b/5764.voila.js",
    ...                    "http://h/voila/labextensions/x/static/remoteEntry.12345678.js",
    ...                    "http://h/voila/labextensions/x/static/7.2a0ce575.js?v=2a0ce575",
    ...                    "http://h/voila/static/_v/0a1b/5764.voila.js"])
    ['static/5764.voila.js', 'labextensions/x/static/7.2a0ce575.js']
    """
    out: list[str] = []
    for url in urls:
        path = url.split("?", 1)[0]
        path = path[path.index("/", path.index("//") + 2):] if "//" in path else path
        voila = _VOILA_CHUNK.search(path)
        lab = _LAB_CHUNK.search(path)
        entry = (STATIC + voila.group(1) if voila
                 else LABEXTENSIONS + lab.group(1) if lab else None)
        if entry is not None and entry not in out:
            out.append(entry)
    return out


def record(out: Path, timeout: float = 180.0, browser: Any = None) -> list[str]:
    """Open the dashboard in headless chromium on a server without the bundle and write
    the chunks it loads until its first screen is usable and the network is idle to
    ``out``. ``browser``: a Playwright (sync) browser already launched in this thread,
    used instead of starting one (Playwright allows one sync instance a thread)."""
    import socket
    import subprocess
    import time
    import urllib.error
    import urllib.request

    import voila

    from ...tools.browser import CHROMIUM, launch_options
    from .. import command

    if browser is None and not os.path.exists(CHROMIUM):
        raise FirstPaintError(f"{CHROMIUM} is missing: `make chromium` installs it")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        raise FirstPaintError("recording needs playwright: pip install -e '.[dev]'") from exc

    def visit(chromium: Any) -> None:
        context = chromium.new_context(viewport={"width": 1280, "height": 800})
        try:
            page = context.new_page()
            page.on("request", lambda r: urls.append(r.url))
            page.goto(f"http://127.0.0.1:{port}/voila/render/{command.DASHBOARD}")
            page.locator(".nid-wt-next").wait_for(timeout=timeout * 1000)
            page.wait_for_load_state("networkidle", timeout=timeout * 1000)
        finally:
            context.close()

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    root = Path(__file__).resolve().parents[3]
    args = command.voila_args(root / "notebooks", port=port, pool_size=1,
                              extra=["--ClassVoila.first_paint=False"])
    env = dict(os.environ, JUPYTER_PATH=str(command.JUPYTER_DATA))
    proc = subprocess.Popen([sys.executable, "-m", command.VOILA_APP, *args], cwd=root,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    urls: list[str] = []
    try:
        start = time.monotonic()
        while True:  # until the server answers anything at all
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).close()
                break
            except urllib.error.HTTPError:
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() - start > timeout:
                    raise FirstPaintError("the lab's Voila did not start") from None
                time.sleep(0.5)
        if browser is not None:
            visit(browser)
        else:
            with sync_playwright() as pw:
                own = pw.chromium.launch(**launch_options())
                try:
                    visit(own)
                finally:
                    own.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    files = entries_from_urls(urls)
    out.write_text(json.dumps({"voila": voila.__version__, "files": files}, indent=1) + "\n")
    return files


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m nidavellir.classroom.server.first_paint",
        description="The first-paint bundle's list: show it, or record it again from a "
                    "real page (after a Voila or ipywidgets upgrade).")
    parser.add_argument("--record", action="store_true",
                        help="record the list from the dashboard in headless chromium")
    parser.add_argument("--out", type=Path, default=LIST_FILE, help="where to write it")
    args = parser.parse_args(argv)
    try:
        if args.record:
            files = record(args.out)
            print(f"{args.out}: {len(files)} chunk files")
            return 0
        version, files = load_list(args.out)
    except FirstPaintError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{args.out}: recorded with Voila {version}, {len(files)} chunk files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
