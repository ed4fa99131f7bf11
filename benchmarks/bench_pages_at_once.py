"""Pages opened at once, then their kernels leaving with them, at the size of a class.

    python benchmarks/bench_pages_at_once.py --pages 10

The full version of ``tests/browser/test_dashboard.py::
test_pages_at_once_then_their_kernels_leave_with_them`` (which opens 4 pages with the
server's timeouts made short), the same scenario (``tests/browser/pages_at_once.py``): a
class server (``--class-size N --spares 0``) with the server's own timeouts (a page's
kernel ends 45 s after the last sign of its page; an idle kernel whose page is gone is
culled after 20 s, checked every 2 s), N pages opened at once in headless Chromium, each
usable (the walkthrough's Next answers); then a fifth of them left open, three in ten
closed (their kernels end at once, by the page's shutdown request), one reloaded (its old
kernel ends at once, the page comes back on a new one), the rest gone without a goodbye
(their kernels end after the page timeout, never before); the pages left open keep their
kernels through the idle cull and still answer.

Printed: when each page became usable (from the moment all were opened), how long the
kernels of the closed, reloaded and gone pages took to end, how long the open pages were
idle, and the CPU seconds of the server with its kernels and of the browser. Exit status 1
when an expectation fails (its message says which).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from browser.pages_at_once import pages_at_once, start_server  # noqa: E402
from servers import stop_voila  # noqa: E402
from speed_guard import tree_cpu  # noqa: E402


def tree_cpu_of(pid: int) -> float:
    """CPU seconds of a process and everything under it."""
    import psutil

    try:
        processes = [psutil.Process(pid), *psutil.Process(pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0.0
    total = 0.0
    for p in processes:
        try:
            t = p.cpu_times()
            total += t.user + t.system + t.children_user + t.children_system
        except psutil.Error:
            pass
    return total


def run(args: argparse.Namespace) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    from nidavellir.tools.browser import launch_options

    os.environ.setdefault("NIDAVELLIR_COACH_LEVEL", "search@20")  # as the test suite
    tmp = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    started = time.monotonic()
    server = start_server(tmp, args.pages, args.page_timeout, args.cull_idle, args.check_every)
    ready = time.monotonic() - started
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(**launch_options(headless=True))
        server_cpu, all_cpu = tree_cpu_of(server.process.pid), tree_cpu()
        figures = pages_at_once(server, browser, args.pages, args.page_timeout, args.cull_idle)
        server_cpu = tree_cpu_of(server.process.pid) - server_cpu
        browser_cpu = tree_cpu() - all_cpu - server_cpu
        browser.close()
    finally:
        playwright.stop()
        stop_voila(server)
    return {"pages": args.pages, "page_timeout_s": args.page_timeout,
            "cull_idle_s": args.cull_idle, "class_ready_s": round(ready, 1),
            "usable_s": [round(u, 1) for u in figures.usable],
            "usable_median_s": round(statistics.median(figures.usable), 1),
            "closed_kernels_ended_s": round(figures.closed_ended, 1),
            "reloaded_kernel_ended_s": round(figures.reloaded_ended, 1),
            "gone_kernels_ended_s": round(figures.gone_ended, 1),
            "open_pages_idle_s": round(figures.open_idle, 1),
            "cpu_server_and_kernels_s": round(server_cpu, 1),
            "cpu_browser_and_driver_s": round(browser_cpu, 1),
            "load_1min": round(os.getloadavg()[0], 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=10, help="pages opened at once (4 or more)")
    parser.add_argument("--page-timeout", type=float, default=45.0,
                        help="seconds a kernel lives on without a sign of its page")
    parser.add_argument("--cull-idle", type=float, default=20.0,
                        help="seconds before an idle kernel whose page is gone is culled")
    parser.add_argument("--check-every", type=float, default=2.0,
                        help="seconds between two checks of the pages and the idle kernels")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args()
    if args.pages < 4 or args.page_timeout <= 0 or args.cull_idle <= 0 or args.check_every <= 0:
        parser.error("--pages must be 4 or more; the seconds must be above 0")
    try:
        out = run(args)
    except AssertionError as exc:
        print(f"bench_pages_at_once: FAILED: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{out['pages']} pages at once (class ready after {out['class_ready_s']} s; load "
          f"{out['load_1min']}): usable after {out['usable_median_s']} s (median), the last "
          f"after {out['usable_s'][-1]} s")
    print(f"kernels: closed tabs' ended after {out['closed_kernels_ended_s']} s, the reloaded "
          f"tab's old one after {out['reloaded_kernel_ended_s']} s, the pages gone without a "
          f"goodbye's after {out['gone_kernels_ended_s']} s (page timeout "
          f"{out['page_timeout_s']:g} s); the open pages' survived "
          f"{out['open_pages_idle_s']} s idle (idle cull {out['cull_idle_s']:g} s)")
    print(f"CPU: server and kernels {out['cpu_server_and_kernels_s']} s, browser and its "
          f"driver {out['cpu_browser_and_driver_s']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
