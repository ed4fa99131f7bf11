"""Browser tests: a Voila server on a free local port, driven by Debian's chromium.

Facts from shared/docs/VOILA.md: bind 127.0.0.1:0 for a free port and pass
``--Voila.port_retries=0``; the server is ready when ``/voila/static/voila.js``
answers; stop it with SIGTERM then SIGKILL and end leftover kernels; block every
request that leaves 127.0.0.1 and fail on page errors.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
LOCAL_PREFIXES = ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:", "about:")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class VoilaServer:
    port: int
    process: subprocess.Popen[bytes]
    log_path: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def render_url(self, notebook: str) -> str:
        return f"{self.url}/voila/render/{notebook}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kernel_count(self) -> int:
        """Kernels alive under the server (children running ipykernel)."""
        import psutil

        try:
            parent = psutil.Process(self.process.pid)
            children = parent.children(recursive=True)
        except psutil.NoSuchProcess:
            return 0
        count = 0
        for child in children:
            with contextlib.suppress(psutil.Error):
                if "ipykernel" in " ".join(child.cmdline()):
                    count += 1
        return count


def start_voila(target: str, tmp: Path, extra: list[str] | None = None) -> VoilaServer:
    port = free_port()
    log_path = tmp / f"voila-{port}.log"
    log = log_path.open("wb")
    env = dict(os.environ, PYTHONUNBUFFERED="1", JUPYTER_PLATFORM_DIRS="1")
    cmd = [sys.executable, "-m", "nidavellir.serve", target, "--port", str(port), *(extra or [])]
    process = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                               start_new_session=True, env=env)
    server = VoilaServer(port=port, process=process, log_path=log_path)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Voila exited with {process.returncode}:\n{server.log()}")
        try:
            with urllib.request.urlopen(f"{server.url}/voila/static/voila.js", timeout=2) as r:
                if r.status == 200:
                    return server
        except OSError:
            time.sleep(0.3)
    stop_voila(server)
    raise RuntimeError(f"Voila did not answer within 90 s:\n{server.log()}")


def stop_voila(server: VoilaServer) -> None:
    import psutil

    try:
        kids = psutil.Process(server.process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        kids = []
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.process.pid, signal.SIGTERM)
    try:
        server.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.process.pid, signal.SIGKILL)
        server.process.wait(timeout=5)
    # Kernels run in process groups of their own.
    for kid in kids:
        with contextlib.suppress(psutil.Error):
            kid.kill()


@pytest.fixture(scope="session")
def voila_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    server = start_voila("notebooks", tmp_path_factory.mktemp("voila"))
    try:
        yield server
    finally:
        stop_voila(server)


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class PageWatch:
    """What a page did that it should not: errors and requests leaving 127.0.0.1."""

    page: Any
    errors: list[str] = field(default_factory=list)
    external: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        assert not self.external, f"requests left 127.0.0.1: {self.external}"
        assert not self.errors, f"page errors: {self.errors}"


def watch_page(page: Any) -> PageWatch:
    w = PageWatch(page)
    page.on("pageerror", lambda exc: w.errors.append(str(exc)))
    page.on("console", lambda msg: w.console_errors.append(msg.text)
            if msg.type == "error" else None)

    def route(r: Any) -> None:
        url = r.request.url
        if url.startswith(LOCAL_PREFIXES):
            r.continue_()
        else:
            w.external.append(url)
            r.abort()

    page.route("**/*", route)
    return w


@pytest.fixture
def page(chromium: Any, request: pytest.FixtureRequest) -> Iterator[PageWatch]:
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    watched = watch_page(pg)
    try:
        yield watched
    finally:
        ARTIFACTS.mkdir(exist_ok=True)
        with contextlib.suppress(Exception):
            pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
        context.close()
