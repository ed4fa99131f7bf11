"""Pages opened at once, then their kernels leaving with them (issue 18's class policy):
the scenario of tests/browser/test_dashboard.py (4 pages, the server's timeouts made short)
and of benchmarks/bench_pages_at_once.py (10 pages and more, the server's own timeouts).

A class server (``--class-size N --spares 0``: the N kernels warm before the pages come,
no replacement starting while they connect) gets N pages opened at once in Chromium; each
becomes usable (the walkthrough's Next answers). Then each page leaves its own way:

- **closed** as a student closes a tab: its kernel ends at once (the page's shutdown
  request, named in the server's log);
- **reloaded**: its old kernel ends at once, the page comes back with a new one;
- **gone without a goodbye** (a browser that drops the shutdown request, a crash, a laptop
  shut): its kernel ends once the page gave no sign (websocket, heartbeat) for the page
  timeout, never before, and not by a goodbye;
- **left open**, idle for longer than the idle cull: its kernel is still there, its page
  still answers.

Kernels are counted from the server's API (``/api/kernels``). The timeouts are the server's
settings (:func:`server_options`), never the test's: every wait is for a state.
"""

from __future__ import annotations

import contextlib
import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from servers import PATIENCE_S, VoilaServer, start_voila, stop_voila, wait_until

from .conftest import PageWatch, watch_page
from .playing import kernel_id
from .test_dashboard import DASHBOARD, LOAD_TIMEOUT, wait_text


def server_options(pages: int, page_timeout: float, cull_idle: float,
                   check_every: float) -> list[str]:
    """The class server for ``pages`` pages: a kernel without a sign of its page for
    ``page_timeout`` s ends (checked every ``check_every`` s); an idle kernel whose page is
    gone is culled after ``cull_idle`` s (checked as often)."""
    return [
        f"--ClassKernelManager.page_timeout={page_timeout:g}",
        f"--ClassKernelManager.page_check_interval={check_every:g}",
        f"--MappingKernelManager.cull_idle_timeout={cull_idle:g}",
        f"--MappingKernelManager.cull_interval={max(1, round(check_every))}",
        "--MappingKernelManager.cull_connected=False",
        # Under a burst the dashboard's output reaches Voila after nbclient's default 4 s
        # IOPub wait: it is dropped ("Timeout waiting for IOPub output") and the page
        # stays blank. Wait longer.
        "--VoilaExecutor.iopub_timeout=60",
        "--class-size", str(pages), "--spares", "0",
    ]


@dataclass
class Roles:
    """Which pages leave how (indices into the pages opened)."""

    open: list[int]
    closed: list[int]
    reloaded: int
    gone: list[int]

    @classmethod
    def of(cls, pages: int) -> Roles:
        """At least one page of each kind (4 pages); of ten, 2 open, 3 closed, 1 reloaded,
        4 gone without a goodbye."""
        if pages < 4:
            raise ValueError(f"pages at once: 4 or more (one of each way to leave), not {pages}")
        n_open = max(1, pages // 5)
        n_closed = max(1, 3 * pages // 10)
        opened = [0, *range(pages - n_open + 1, pages)]
        closed = list(range(1, 1 + n_closed))
        reloaded = 1 + n_closed
        gone = list(range(reloaded + 1, pages - n_open + 1))
        return cls(open=opened, closed=closed, reloaded=reloaded, gone=gone)


@dataclass
class Figures:
    """What a run measured, in seconds."""

    usable: list[float] = field(default_factory=list)
    """Each page's opening to its Next answering, from the moment all were opened."""
    closed_ended: float = 0.0
    reloaded_ended: float = 0.0
    gone_ended: float = 0.0
    """From the pages going to their kernels' end."""
    open_idle: float = 0.0
    """How long the pages left open had been idle when they were checked."""


def kernel_model(server: VoilaServer, kernel: str) -> dict[str, Any] | None:
    """The kernel as the server's API reports it (None once it has ended)."""
    try:
        with urllib.request.urlopen(f"{server.url}/api/kernels/{kernel}", timeout=30) as r:
            return dict(json.load(r))
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            return None
        raise


def wait_ended(server: VoilaServer, kernels: list[str], since: float) -> float:
    """Seconds from ``since`` until every kernel has ended (however busy the machine: how
    each ended is asserted from the server's log, not from the time it took)."""
    wait_until(lambda: all(kernel_model(server, k) is None for k in kernels),
               f"kernels {kernels} outlived their pages", every=0.25)
    return time.monotonic() - since


def ended_by_their_pages(server: VoilaServer, kernels: list[str]) -> list[str]:
    """The kernels the server shut down because their page said it was closing."""
    log = server.log()
    return [k for k in kernels if f"Page closed: shutting down its kernel {k}" in log]


def start_server(tmp: Path, pages: int, page_timeout: float, cull_idle: float,
                 check_every: float) -> VoilaServer:
    """The class server, once its ``pages`` kernels have run the notebook."""
    server = start_voila(f"notebooks/{DASHBOARD}", tmp, extra=server_options(
        pages, page_timeout, cull_idle, check_every))
    try:
        wait_until(lambda: "*** The class can come in" in server.log(),
                   f"the {pages} kernels were ready")
    except BaseException:
        stop_voila(server)
        raise
    return server


def pages_at_once(server: VoilaServer, chromium: Any, pages: int, page_timeout: float,
                  cull_idle: float) -> Figures:
    """The scenario (module docstring) on a server from :func:`start_server` with the same
    timeouts; an AssertionError names what went wrong."""
    roles = Roles.of(pages)
    figures = Figures()
    contexts: list[Any] = []
    watches: list[PageWatch] = []
    try:
        start = time.monotonic()
        for _ in range(pages):
            ctx = chromium.new_context(viewport={"width": 1200, "height": 900})
            pg = ctx.new_page()
            watches.append(watch_page(pg))
            contexts.append(ctx)
            pg.goto(server.url + "/", wait_until="commit")
        for w in watches:
            pg = w.page
            pg.locator("button.nid-wt-next").wait_for(timeout=LOAD_TIMEOUT)
            pg.locator("button.nid-wt-next").click()
            wait_text(pg, ".nid-wt-title", r"Step 2 of")
            figures.usable.append(time.monotonic() - start)
            w.assert_clean()
        kernels = [kernel_id(w.page) for w in watches]
        assert len(set(kernels)) == pages, kernels
        for k in kernels:
            model = kernel_model(server, k)
            assert model is not None and model["connections"] == 1, model
        for w in watches:  # the shutdown requests must reach the server, unrouted
            w.page.unroute("**/*")
        idle_since = time.monotonic()

        # Closed as a student closes a tab: their kernels end at once.
        closed = [kernels[i] for i in roles.closed]
        since = time.monotonic()
        for i in roles.closed:
            watches[i].page.close(run_before_unload=True)
        figures.closed_ended = wait_ended(server, closed, since)
        assert ended_by_their_pages(server, closed) == closed, server.log()[-3000:]

        # Reloaded: its old kernel ends, the page comes back with a new one.
        reloaded = watches[roles.reloaded].page
        since = time.monotonic()
        reloaded.reload(wait_until="commit")
        old = kernels[roles.reloaded]
        figures.reloaded_ended = wait_ended(server, [old], since)
        assert ended_by_their_pages(server, [old]) == [old], server.log()[-3000:]
        reloaded.locator("button.nid-wt-next").wait_for(timeout=LOAD_TIMEOUT)
        fresh = kernel_id(reloaded)
        assert fresh != old and kernel_model(server, fresh) is not None

        # Gone without a goodbye: their kernels end once their pages gave no sign for the
        # page timeout, never sooner.
        gone = [kernels[i] for i in roles.gone]
        since = time.monotonic()
        for i in roles.gone:
            watches[i].page.evaluate("() => { navigator.sendBeacon = () => true; }")
            watches[i].page.close(run_before_unload=True)
        figures.gone_ended = wait_ended(server, gone, since)
        assert figures.gone_ended >= page_timeout, (
            f"their kernels ended {figures.gone_ended:.1f} s after the pages went, before "
            f"the page timeout ({page_timeout:g} s): was a goodbye sent?")
        assert ended_by_their_pages(server, gone) == [], "a goodbye was sent"

        # The pages left open, idle all along for longer than the idle cull (the pages gone
        # without a goodbye took longer still): still there, still answering.
        figures.open_idle = time.monotonic() - idle_since
        assert figures.open_idle > cull_idle, (figures.open_idle, cull_idle)
        for i in roles.open:
            model = kernel_model(server, kernels[i])
            assert model is not None and model["connections"] == 1, model
            pg = watches[i].page
            pg.locator("button.nid-wt-back").click()
            wait_text(pg, ".nid-wt-title", r"Step 1 of")
        return figures
    finally:
        for ctx in contexts:
            with contextlib.suppress(Exception):
                ctx.close()


__all__ = ["Figures", "PATIENCE_S", "Roles", "pages_at_once", "server_options", "start_server"]
