"""Browser tests: a Voila server on a free local port, driven by Debian's chromium.

Facts from docs/serving.md ("What is known of Voila here"): bind 127.0.0.1:0 for a free port and pass
``--Voila.port_retries=0``; the server is ready when ``/voila/static/voila.js``
answers; stop it with SIGTERM then SIGKILL and end leftover kernels; block every
request that leaves 127.0.0.1 and fail on page errors.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from servers import PATIENCE_S, VoilaServer, free_port, start_voila, stop_voila, wait_until

from nidavellir.tools.browser import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"

__all__ = ["PATIENCE_S", "VoilaServer", "free_port", "start_voila", "stop_voila", "wait_until"]

LOCAL_PREFIXES = ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:", "about:")


class _Shared:
    """One Voila server (the lab's notebooks) and one Chromium for every browser test of a
    run, started by the first test that asks and stopped when the run leaves the browser
    tests (:func:`pytest_runtest_teardown`), each process by its id. Leaving matters: a
    worker of pytest-xdist that ran the browser tests runs others after them, and
    Playwright's synchronous API keeps an event loop in its thread while it runs
    (``asyncio.run`` then fails there)."""

    def __init__(self) -> None:
        self.server: VoilaServer | None = None
        self.playwright: Any = None
        self.browser: Any = None

    def voila(self, tmp_path_factory: pytest.TempPathFactory) -> VoilaServer:
        if self.server is None:
            self.server = start_voila("notebooks", tmp_path_factory.mktemp("voila"))
        return self.server

    def chromium(self) -> Any:
        if self.browser is None:
            if not os.path.exists(CHROMIUM):
                pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
            from playwright.sync_api import sync_playwright

            self.playwright = sync_playwright().start()
            self.browser = self.playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        return self.browser

    def close(self) -> None:
        browser, playwright, server = self.browser, self.playwright, self.server
        self.browser = self.playwright = self.server = None
        try:
            if browser is not None:
                with contextlib.suppress(Exception):
                    browser.close()
            if playwright is not None:
                playwright.stop()
        finally:
            if server is not None:
                stop_voila(server)


SHARED = _Shared()


@pytest.fixture
def voila_server(tmp_path_factory: pytest.TempPathFactory) -> VoilaServer:
    return SHARED.voila(tmp_path_factory)


@pytest.fixture
def chromium() -> Any:
    return SHARED.chromium()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After the last browser test in a row (the next test is elsewhere, or none), the
    shared server and browser stop; a later browser test starts them again."""
    if nextitem is None or BROWSER_TESTS not in Path(str(nextitem.path)).parents:
        SHARED.close()


BROWSER_TESTS = Path(__file__).resolve().parent


@dataclass
class PageWatch:
    """What a page did that it should not: errors and requests leaving 127.0.0.1."""

    page: Any
    errors: list[str] = field(default_factory=list)
    external: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    #: Every warning and error the page wrote to the browser console, in order.
    console: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        assert not self.external, f"requests left 127.0.0.1: {self.external}"
        assert not self.errors, f"page errors: {self.errors}"

    def assert_console_clean(self) -> None:
        """No console warning or error but Voila's own known ones (known_console.py)."""
        from .known_console import unknown

        assert not unknown(self.console), f"console warnings or errors: {unknown(self.console)}"


def watch_page(page: Any) -> PageWatch:
    w = PageWatch(page)
    page.on("pageerror", lambda exc: w.errors.append(str(exc)))

    def console(msg: Any) -> None:
        if msg.type == "error":
            w.console_errors.append(msg.text)
        if msg.type in ("error", "warning"):
            w.console.append(msg.text)

    page.on("console", console)

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
