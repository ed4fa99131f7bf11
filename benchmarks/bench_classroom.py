"""A class opening the dashboard: N pages in headless chromium against one server.

    python benchmarks/bench_classroom.py --pages 30 --over 30 [--class-size 30] [--json]

The server is started the way ``make run CLASS=N`` starts it (``python -m nidavellir.serve
notebooks --class-size N``; ``--class-size 0`` is plain ``make run``: a pool of one), with
short culling settings so that the kernels of closed pages are reclaimed within a minute.
The benchmark waits for "The class can come in", then opens the pages staggered evenly over
``--over`` seconds, each in its own browser context, like students arriving.

Printed per run: time from opening a page to a usable dashboard (the walkthrough's Next
button on screen: the widgets arrived and rendered) as p50 / p95 / max, pages never usable
within ``--timeout``, page errors, requests that left 127.0.0.1, where the time went (the
HTML answer from the server; widgets until usable; CPU seconds of the server and kernels
vs the browser during the burst), and the server's memory (server and kernels, RSS and
USS): warm before the class, with the N pages open, and after they closed and culling ran;
memory per idle dashboard kernel (USS, the memory the kernel does not share).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import psutil

from nidavellir.tools.browser import CHROMIUM, launch_options

ROOT = Path(__file__).resolve().parents[1]
LOCAL = ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:", "about:")
USABLE = ".nid-wt-next"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def tree(pid: int) -> list[psutil.Process]:
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def kernels(pid: int) -> list[psutil.Process]:
    out = []
    for p in tree(pid)[1:]:
        with contextlib.suppress(psutil.Error):
            if "ipykernel_launcher" in " ".join(p.cmdline()):
                out.append(p)
    return out


def memory(pid: int) -> dict[str, float]:
    """Server and kernels: RSS and USS in MB, and the USS of each kernel."""
    rss = uss = 0.0
    per_kernel = []
    for p in tree(pid):
        with contextlib.suppress(psutil.Error):
            info = p.memory_full_info()
            rss += info.rss / 2**20
            uss += info.uss / 2**20
            if "ipykernel_launcher" in " ".join(p.cmdline()):
                per_kernel.append(info.uss / 2**20)
    return {"rss_mb": round(rss), "uss_mb": round(uss), "kernels": len(per_kernel),
            "kernel_uss_mb": round(statistics.mean(per_kernel), 1) if per_kernel else 0.0,
            "kernel_uss_max_mb": round(max(per_kernel), 1) if per_kernel else 0.0}


def browser_processes() -> list[psutil.Process]:
    """Every chromium process of this machine (the benchmark's browser and its renderers)."""
    out = []
    for p in psutil.process_iter(["name"]):
        with contextlib.suppress(psutil.Error):
            if "chrom" in (p.info["name"] or "").lower():
                out.append(p)
    return out


def cpu_seconds(procs: Sequence[psutil.Process]) -> float:
    total = 0.0
    for p in procs:
        with contextlib.suppress(psutil.Error):
            t = p.cpu_times()
            total += t.user + t.system
    return total


class Server:
    def __init__(self, class_size: int, password: str, cull: int, log: Path) -> None:
        self.port = free_port()
        self.log_path = log
        args = [sys.executable, "-m", "nidavellir.serve", "notebooks", "--port", str(self.port),
                "--cull-idle-timeout", str(cull), "--cull-interval", "5"]
        if class_size:
            args += ["--class-size", str(class_size)]
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        if password:  # in the environment, never on the command line
            env["NIDAVELLIR_PASSWORD"] = password
        self.handle = log.open("wb")
        self.process = subprocess.Popen(args, cwd=ROOT, stdout=self.handle,
                                        stderr=subprocess.STDOUT, start_new_session=True,
                                        env=env)
        self.class_size = class_size

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_ready(self, timeout: float) -> float:
        """Seconds until the pool is warm ("The class can come in", or the pool of one)."""
        start = time.monotonic()
        marker = "*** The class can come in" if self.class_size else "Kernel pool of dashboard"
        while time.monotonic() - start < timeout:
            if self.process.poll() is not None:
                raise RuntimeError("the server exited:\n" + self.log()[-3000:])
            if marker in self.log():
                return time.monotonic() - start
            time.sleep(0.5)
        raise RuntimeError(f"the server was not ready within {timeout:.0f} s")

    def stop(self) -> None:
        procs = tree(self.process.pid)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
        for p in procs:
            with contextlib.suppress(psutil.Error):
                p.kill()
        self.handle.close()


async def open_pages(server: Server, pages: int, over: float, timeout: float,
                     password: str) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    results: list[dict[str, Any]] = []
    external: list[str] = []
    errors: list[str] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(**launch_options())
        contexts: list[Any] = []

        async def route(r: Any) -> None:
            if r.request.url.startswith(LOCAL):
                await r.continue_()
            else:
                external.append(r.request.url)
                await r.abort()

        async def student(i: int) -> None:
            await asyncio.sleep(over * i / max(pages - 1, 1) if pages > 1 else 0)
            context = await browser.new_context(viewport={"width": 1300, "height": 900})
            contexts.append(context)
            page = await context.new_page()
            page.on("pageerror", lambda exc: errors.append(f"page {i}: {exc}"))
            await page.route("**/*", route)
            url = f"{server.url}/voila/render/dashboard.ipynb"
            if password:
                url += f"?token={password}"
            start = time.monotonic()
            row: dict[str, Any] = {"page": i}
            try:
                await page.goto(url, timeout=timeout * 1000, wait_until="commit")
                row["html_s"] = round(time.monotonic() - start, 2)
                await page.locator(USABLE).wait_for(timeout=timeout * 1000)
                row["usable_s"] = round(time.monotonic() - start, 2)
            except Exception as exc:
                row["error"] = type(exc).__name__
            results.append(row)

        server_procs = tree(server.process.pid)
        browser_procs = browser_processes()
        cpu0 = (cpu_seconds(server_procs), cpu_seconds(browser_procs))
        t0 = time.monotonic()
        await asyncio.gather(*(student(i) for i in range(pages)))
        burst = time.monotonic() - t0
        server_procs = tree(server.process.pid)
        cpu1 = (cpu_seconds(server_procs), cpu_seconds(browser_processes()))
        with_pages = memory(server.process.pid)
        for context in contexts:
            with contextlib.suppress(Exception):
                await context.close()
        await browser.close()
    return {"rows": sorted(results, key=lambda r: r["page"]), "external": external,
            "errors": errors, "burst_s": round(burst, 1),
            "cpu_server_s": round(cpu1[0] - cpu0[0], 1),
            "cpu_browser_s": round(cpu1[1] - cpu0[1], 1), "with_pages": with_pages}


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def run(pages: int, over: float, class_size: int, timeout: float, cull: int,
        password: str) -> dict[str, Any]:
    log = Path(tempfile.mkdtemp()) / "voila.log"
    server = Server(class_size, password, cull, log)
    try:
        ready_s = server.wait_ready(timeout=600)
        time.sleep(2)
        warm = memory(server.process.pid)
        out = asyncio.run(open_pages(server, pages, over, timeout, password))
        rows = out["rows"]
        usable = [r["usable_s"] for r in rows if "usable_s" in r]
        html = [r["html_s"] for r in rows if "html_s" in r]
        # After the pages closed: culling (idle > cull s) reclaims their kernels.
        closed = time.monotonic()
        deadline = closed + cull + 240
        # What may stay: the pool's spares (class mode) or the pool of one.
        expected = 2 if class_size else 1
        reclaimed_s = None
        while time.monotonic() < deadline:
            if len(kernels(server.process.pid)) <= expected:
                reclaimed_s = round(time.monotonic() - closed, 1)
                break
            time.sleep(2)
        time.sleep(3)
        after = memory(server.process.pid)
        started = server.log().count("Kernel started")
        return {
            "pages": pages, "over_s": over, "class_size": class_size, "ready_s": round(ready_s, 1),
            "usable": len(usable), "never_usable": pages - len(usable),
            "p50_s": percentile(usable, 0.5), "p95_s": percentile(usable, 0.95),
            "max_s": max(usable) if usable else float("nan"),
            "html_p50_s": percentile(html, 0.5), "html_p95_s": percentile(html, 0.95),
            "page_errors": out["errors"][:5], "page_error_count": len(out["errors"]),
            "external_requests": sorted(set(out["external"]))[:5],
            "burst_s": out["burst_s"], "cpu_server_s": out["cpu_server_s"],
            "cpu_browser_s": out["cpu_browser_s"], "kernels_started": started,
            "memory_warm": warm, "memory_with_pages": out["with_pages"],
            "memory_after_close": after, "reclaimed_after_s": reclaimed_s,
        }
    finally:
        server.stop()


def show(r: dict[str, Any]) -> str:
    mw, mp, ma = r["memory_warm"], r["memory_with_pages"], r["memory_after_close"]
    return "\n".join([
        f"{r['pages']} pages over {r['over_s']:.0f} s, class size {r['class_size']} "
        f"(pool ready in {r['ready_s']} s)",
        f"  usable: {r['usable']}/{r['pages']}  p50 {r['p50_s']:.1f} s  p95 {r['p95_s']:.1f} s  "
        f"max {r['max_s']:.1f} s  (never usable: {r['never_usable']})",
        f"  where the time goes: HTML answered p50 {r['html_p50_s']:.2f} s / p95 "
        f"{r['html_p95_s']:.2f} s; CPU during the burst ({r['burst_s']} s): server and "
        f"kernels {r['cpu_server_s']} s, browser {r['cpu_browser_s']} s; kernels started "
        f"{r['kernels_started']}",
        f"  page errors: {r['page_error_count']}  requests leaving 127.0.0.1: "
        f"{len(r['external_requests'])}",
        f"  memory warm: {mw['rss_mb']} MB RSS / {mw['uss_mb']} MB USS, {mw['kernels']} kernels "
        f"(idle dashboard kernel USS {mw['kernel_uss_mb']} MB, max {mw['kernel_uss_max_mb']})",
        f"  memory with the pages: {mp['rss_mb']} MB RSS / {mp['uss_mb']} MB USS, "
        f"{mp['kernels']} kernels (USS {mp['kernel_uss_mb']} MB each)",
        f"  after closing and culling: {ma['rss_mb']} MB RSS / {ma['uss_mb']} MB USS, "
        f"{ma['kernels']} kernels (page kernels reclaimed "
        + (f"{r['reclaimed_after_s']} s after closing" if r["reclaimed_after_s"] is not None
           else "NOT all within the wait") + ")",
    ])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=30)
    parser.add_argument("--over", type=float, default=30.0, metavar="SECONDS",
                        help="the pages open evenly over this many seconds")
    parser.add_argument("--class-size", type=int, default=None,
                        help="kernels preheated (default: as many as pages; 0: make run's pool "
                        "of one)")
    parser.add_argument("--timeout", type=float, default=180.0,
                        help="seconds a page may take to become usable")
    parser.add_argument("--cull", type=int, default=60,
                        help="the server's idle-kernel timeout for this benchmark (seconds)")
    parser.add_argument("--password", default="", help="serve with a class password")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.pages < 1:
        parser.error(f"--pages must be 1 or more, not {args.pages}")
    if args.over < 0 or args.timeout <= 0 or args.cull < 5:
        parser.error("--over must be >= 0, --timeout > 0 and --cull >= 5")
    if not Path(CHROMIUM).exists():
        parser.error(f"{CHROMIUM} is missing (make chromium installs it)")
    class_size = args.pages if args.class_size is None else args.class_size
    if class_size < 0:
        parser.error("--class-size must be 0 or more")
    result = run(args.pages, args.over, class_size, args.timeout, args.cull, args.password)
    print(json.dumps(result, indent=1) if args.json else show(result))
    return 0 if result["never_usable"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
