"""A class on school Wi-Fi, measured at the protocol level: what reaches a student's laptop,
and what the server does for N students (``make bench-class``).

    python benchmarks/bench_class_protocol.py --students 30 --over 30 [--json]
    python benchmarks/bench_class_protocol.py --students 60 --over 0      # all at once

1. The server is started as ``make run CLASS=N`` starts it (``python -m nidavellir.serve
   notebooks --class-size N``, N = students plus the browser's pages) and the benchmark
   waits for "The class can come in".
2. **One page alone** in headless chromium, on the idle server: time from opening the
   dashboard to the walkthrough's Next button on screen, with an empty browser cache
   (first visit) and with the cache of that visit (repeat visit), unthrottled and with the
   CPU throttled 6x (a cheap laptop); each the median of ``--page-runs`` runs.
3. **What one real page does**, recorded in chromium through a byte-counting proxy: every
   request in order (with its status, headers and the bytes on the wire) and the
   messages its kernel websocket sends (``kernel_info_request``, the
   ``jupyter.widget.control`` comm, ``request_states``) and gets; bytes on the wire of a
   first visit and of a repeat visit (a reload: the page, the kernel's model, the
   websocket, the heartbeat, and whatever the cache does not hold).
4. **N students** played at the HTTP/websocket level from this process (no browser on
   the server's cores), arriving evenly over ``--over`` seconds (0: all at once). Each
   opens up to six keep-alive connections like a browser, gets the page (gzip; only the
   page's HTML is inflated, as nobody reads the files' bodies), the recorded static files, the kernel's model and a heartbeat, opens the kernel websocket
   (v1 protocol, permessage-deflate) and replays the recorded messages until the whole
   widget state (``update_states``) has arrived. Reported: time from arrival to the full
   widget state (p50 / p95 / max), failures, bytes per student (first visit; then a repeat
   visit that keeps what the cache headers allow), the server's CPU seconds (server and
   kernels) and the benchmark's own, memory (RSS / USS) warm, with the students connected
   and after they left.
5. **Kernels that leave with their page**: half the students leave as a closed tab does
   (the shutdown request), the other half vanish (their sockets close, no goodbye); the
   time until each half's kernels have ended is reported.

``--no-browser`` skips 2 and 3 and needs ``--recording FILE``: what a real page did, as a
browser run saved it with ``--save-recording FILE`` (from the same server kind: the lab's
Voila and ``--voila-as-is`` serve different files). The students then replay that page.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import gzip
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

from nidavellir.tools.browser import CHROMIUM, launch_options

ROOT = Path(__file__).resolve().parents[1]
DASHBOARD = "/voila/render/dashboard.ipynb"
USABLE = ".nid-wt-next"
WS_PROTOCOL = "v1.kernel.websocket.jupyter.org"
#: The connections a browser opens to one host.
CONNECTIONS = 6


# ---------------------------------------------------------------------- the server

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


def cpu_seconds(procs: Sequence[psutil.Process]) -> float:
    total = 0.0
    for p in procs:
        with contextlib.suppress(psutil.Error):
            t = p.cpu_times()
            total += t.user + t.system
    return total


def wait_quiet(pid: int, limit: float = 120.0) -> float:
    """Wait until the server and its kernels are idle (under 5% of a core for 2 s: the
    pool's refill after the browser's pages has run); seconds waited."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        before = cpu_seconds(tree(pid))
        time.sleep(2.0)
        if cpu_seconds(tree(pid)) - before < 0.1:
            break
    return round(time.monotonic() - start, 1)


def memory(pid: int) -> dict[str, float]:
    rss = uss = 0.0
    kernels = []
    for p in tree(pid):
        with contextlib.suppress(psutil.Error):
            info = p.memory_full_info()
            rss += info.rss / 2**20
            uss += info.uss / 2**20
            if "ipykernel_launcher" in " ".join(p.cmdline()):
                kernels.append(info.uss / 2**20)
    return {"rss_mb": round(rss), "uss_mb": round(uss), "kernels": len(kernels),
            "kernel_uss_mb": round(statistics.mean(kernels), 1) if kernels else 0.0}


class Server:
    """``make run CLASS=N`` on a free port; ``as_is``: Voila itself with the same options
    (no compression, caching or deferred extensions: the figures before issue 29)."""

    def __init__(self, class_size: int, log: Path, page_timeout: float,
                 as_is: bool = False) -> None:
        self.port = free_port()
        self.log_path = log
        self.handle = log.open("wb")
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        args = [sys.executable, "-m", "nidavellir.serve", "notebooks", "--port", str(self.port),
                "--class-size", str(class_size), "--page-timeout", str(page_timeout)]
        if as_is:
            from nidavellir.classroom import command

            args = [sys.executable, "-m", "voila", *command.voila_args(
                "notebooks", port=self.port, class_size=class_size, page_timeout=0,
                extra=["--VoilaConfiguration.extension_denylist=['@nidavellir/voila-page']"])]
            env["JUPYTER_PATH"] = str(command.JUPYTER_DATA)
        self.process = subprocess.Popen(args, cwd=ROOT, stdout=self.handle,
                                        stderr=subprocess.STDOUT, start_new_session=True,
                                        env=env)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_ready(self, timeout: float) -> float:
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            if self.process.poll() is not None:
                raise RuntimeError("the server exited:\n" + self.log()[-3000:])
            if "*** The class can come in" in self.log():
                return time.monotonic() - start
            time.sleep(0.2)
        raise RuntimeError(f"the class was not ready within {timeout:.0f} s")

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


# ---------------------------------------------------------------------- a counting proxy

class CountingProxy:
    """A TCP proxy in front of the server that counts the bytes each way (what a browser
    sends and gets on the wire: headers, bodies as sent, websocket frames)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.down = 0
        self.up = 0
        self.port = 0
        self._server: asyncio.AbstractServer | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    down: bool) -> None:
        try:
            while data := await reader.read(65536):
                if down:
                    self.down += len(data)
                else:
                    self.up += len(data)
                writer.write(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pipe(reader, up_writer, False),
                             self._pipe(up_reader, writer, True))

    def reset(self) -> tuple[int, int]:
        counted = (self.down, self.up)
        self.down = self.up = 0
        return counted

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()


# ---------------------------------------------------------------------- the v1 protocol

def v1_serialize(channel: str, msg: dict[str, Any]) -> bytes:
    parts = [json.dumps(msg[k]).encode() for k in ("header", "parent_header", "metadata",
                                                   "content")]
    chan = channel.encode()
    offsets = [8 * (1 + 1 + len(parts) + 1)]
    offsets.append(len(chan) + offsets[-1])
    for part in parts:
        offsets.append(len(part) + offsets[-1])
    return (len(offsets).to_bytes(8, "little") + b"".join(o.to_bytes(8, "little")
                                                          for o in offsets) + chan + b"".join(parts))


def v1_deserialize(data: bytes) -> tuple[str, dict[str, Any]]:
    n = int.from_bytes(data[:8], "little")
    offsets = [int.from_bytes(data[8 * (i + 1):8 * (i + 2)], "little") for i in range(n)]
    channel = data[offsets[0]:offsets[1]].decode()
    parts = [data[offsets[i]:offsets[i + 1]] for i in range(1, n - 1)]
    keys = ("header", "parent_header", "metadata", "content")
    msg = {k: json.loads(parts[i]) if i < len(parts) and parts[i] else {}
           for i, k in enumerate(keys)}
    return channel, msg


def message_kind(msg: dict[str, Any]) -> str:
    """``msg_type``, with the widget protocol's method for comm messages."""
    kind = str(msg.get("header", {}).get("msg_type", "?"))
    if kind == "comm_msg":
        method = msg.get("content", {}).get("data", {}).get("method")
        if method:
            kind += ":" + str(method)
    return kind


# ---------------------------------------------------------------------- recording a page

@dataclass
class Recording:
    """What one real page did."""

    requests: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)
    #: For each sent message, the kinds of the replies (messages whose parent it is) the
    #: page had received before it sent the next one.
    awaited: list[list[str]] = field(default_factory=list)
    received: list[str] = field(default_factory=list)
    first_down: int = 0
    first_up: int = 0
    repeat_down: int = 0
    repeat_up: int = 0
    repeat_requests: int = 0
    first_usable_s: float = 0.0
    repeat_usable_s: float = 0.0
    #: The first chart (the Play tab): seconds from the click to the chart drawn, bytes.
    chart_s: float = 0.0
    chart_down: int = 0


async def record_page(server: Server) -> Recording:
    """A first and a repeat visit of one page in chromium, through a counting proxy."""
    from playwright.async_api import async_playwright

    proxy = CountingProxy(server.port)
    await proxy.start()
    rec = Recording()
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(**launch_options())
        context = await browser.new_context(viewport={"width": 1300, "height": 900})
        page = await context.new_page()
        cdp = await context.new_cdp_session(page)
        await cdp.send("Network.enable")
        responses: dict[str, dict[str, Any]] = {}
        order: list[str] = []
        frames: list[tuple[str, dict[str, Any]]] = []

        def on_request(p: dict[str, Any]) -> None:
            rid = p["requestId"]
            if rid not in responses:
                order.append(rid)
            responses.setdefault(rid, {}).update(url=p["request"]["url"],
                                                 method=p["request"]["method"])

        def on_response(p: dict[str, Any]) -> None:
            entry = responses.setdefault(p["requestId"], {})
            entry.update(status=p["response"]["status"],
                         headers={k.lower(): v for k, v in p["response"]["headers"].items()})
            if p["response"].get("fromDiskCache") or p["response"].get("fromPrefetchCache"):
                entry["cached"] = True

        def frame(kind: str) -> Any:
            def handler(p: dict[str, Any]) -> None:
                payload = p["response"]["payloadData"]
                if p["response"]["opcode"] == 2:
                    with contextlib.suppress(Exception):
                        channel, msg = v1_deserialize(base64.b64decode(payload))
                        frames.append((kind, {**msg, "channel": channel}))
            return handler

        def on_cache(p: dict[str, Any]) -> None:
            responses.setdefault(p["requestId"], {})["cached"] = True

        cdp.on("Network.requestWillBeSent", on_request)
        cdp.on("Network.responseReceived", on_response)
        cdp.on("Network.requestServedFromCache", on_cache)
        cdp.on("Network.webSocketFrameSent", frame("sent"))
        cdp.on("Network.webSocketFrameReceived", frame("received"))
        url = f"http://127.0.0.1:{proxy.port}{DASHBOARD}"
        for visit in ("first", "repeat"):
            order.clear()
            responses.clear()
            frames.clear()
            proxy.reset()
            start = time.monotonic()
            if visit == "first":
                await page.goto(url)
            else:
                await page.reload()
            await page.locator(USABLE).wait_for(timeout=180_000)
            usable = time.monotonic() - start
            await asyncio.sleep(2.0)  # the last replies and the first heartbeat
            down, up = proxy.reset()
            if visit == "first":
                rec.first_down, rec.first_up, rec.first_usable_s = down, up, usable
                sent_frames = list(frames)
                rec.requests = [responses[r] for r in order if "url" in responses[r]]
                sent_ids: list[str] = []
                for kind, msg in sent_frames:
                    if kind == "sent":
                        rec.sent.append(msg)
                        rec.awaited.append([])
                        sent_ids.append(msg["header"]["msg_id"])
                    else:
                        rec.received.append(message_kind(msg))
                        parent = msg.get("parent_header", {}).get("msg_id")
                        if parent in sent_ids:
                            rec.awaited[sent_ids.index(parent)].append(message_kind(msg))
                # The first chart: the Play tab (plotly's extension comes now).
                start = time.monotonic()
                await page.get_by_role("tab", name="Play", exact=True).click()
                await page.locator(".nid-play-app .nid-live-charts .js-plotly-plot").first \
                    .wait_for(timeout=180_000)
                rec.chart_s = time.monotonic() - start
                await asyncio.sleep(1.0)
                rec.chart_down = proxy.reset()[0]
            else:
                rec.repeat_down, rec.repeat_up, rec.repeat_usable_s = down, up, usable
                rec.repeat_requests = sum(1 for r in order if not responses[r].get("cached")
                                          and str(responses[r].get("url", "")).startswith("http"))
        await page.close(run_before_unload=True)
        await browser.close()
    await proxy.stop()
    return rec


async def single_page(server: Server, runs: int, throttle: float) -> dict[str, Any]:
    """Time to a usable dashboard, one page alone: first visits (empty cache) and repeat
    visits (the cache of the first), each closed as a tab is (its kernel ends)."""
    from playwright.async_api import async_playwright

    first: list[float] = []
    repeat: list[float] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(**launch_options())
        for _ in range(runs):
            context = await browser.new_context(viewport={"width": 1300, "height": 900})
            page = await context.new_page()
            if throttle > 1:
                cdp = await context.new_cdp_session(page)
                await cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
            for times in (first, repeat):
                start = time.monotonic()
                await page.goto(server.url + DASHBOARD)
                await page.locator(USABLE).wait_for(timeout=180_000)
                times.append(time.monotonic() - start)
                await asyncio.sleep(1.0)
            await page.close(run_before_unload=True)
            await context.close()
            await asyncio.sleep(1.0)
        await browser.close()
    return {"throttle": throttle, "runs": runs,
            "first_s": round(statistics.median(first), 2), "first_all": [round(t, 2) for t in first],
            "repeat_s": round(statistics.median(repeat), 2),
            "repeat_all": [round(t, 2) for t in repeat]}


# ---------------------------------------------------------------------- a student

class Connection:
    """One keep-alive HTTP/1.1 connection, counting the bytes on the wire."""

    def __init__(self, student: Student) -> None:
        self.student = student
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1",
                                                                 self.student.port)

    async def _read(self, n: int) -> bytes:
        assert self.reader is not None
        data = await self.reader.readexactly(n)
        self.student.down += len(data)
        return data

    async def _line(self) -> bytes:
        assert self.reader is not None
        line = await self.reader.readuntil(b"\r\n")
        self.student.down += len(line)
        return line

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
        for attempt in (0, 1):
            if self.writer is None or self.writer.is_closing():
                await self.open()
            try:
                return await self._exchange(method, path, headers or {}, body)
            except (asyncio.IncompleteReadError, ConnectionError):
                self.writer = None  # the server closed a kept-alive connection: once more
                if attempt:
                    raise
        raise AssertionError("unreachable")

    async def _exchange(self, method: str, path: str, headers: dict[str, str],
                        body: bytes) -> tuple[int, dict[str, str], bytes]:
        assert self.writer is not None
        head = {"Host": f"127.0.0.1:{self.student.port}", "Accept-Encoding": "gzip, deflate",
                "Connection": "keep-alive", **self.student.cookie_header(), **headers}
        if body:
            head["Content-Length"] = str(len(body))
        raw = (f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in head.items())
               + "\r\n").encode() + body
        self.student.up += len(raw)
        self.writer.write(raw)
        await self.writer.drain()
        status = int((await self._line()).split()[1])
        headers_in: dict[str, str] = {}
        while (line := await self._line()) != b"\r\n":
            key, _, value = line.decode("latin-1").partition(":")
            key = key.strip().lower()
            if key == "set-cookie":
                self.student.set_cookie(value.strip())
            headers_in[key] = value.strip()
        payload = b""
        if status in (204, 304) or method == "HEAD":
            pass
        elif headers_in.get("transfer-encoding", "").lower() == "chunked":
            while True:
                size = int((await self._line()).split(b";")[0], 16)
                if size == 0:
                    await self._line()
                    break
                payload += await self._read(size)
                await self._line()
        elif "content-length" in headers_in:
            payload = await self._read(int(headers_in["content-length"]))
        if headers_in.get("connection", "").lower() == "close":
            self.writer.close()
            self.writer = None
        # The body stays as sent: a browser inflates it on the student's laptop, not on
        # the server's cores; whoever reads a body calls decoded().
        return status, headers_in, payload


def decoded(headers: dict[str, str], payload: bytes) -> bytes:
    """A response body as its reader sees it (gzip inflated)."""
    if headers.get("content-encoding") == "gzip" and payload:
        return gzip.decompress(payload)
    return payload


class Student:
    """A student's laptop at the protocol level: cookies, a cache that follows the cache
    headers, byte counts."""

    def __init__(self, index: int, port: int, recording: Recording) -> None:
        self.index = index
        self.port = port
        self.recording = recording
        self.cookies: dict[str, str] = {}
        self.cache: dict[str, dict[str, Any]] = {}
        self.down = 0
        self.up = 0
        self.kernel_id = ""
        self.ws: WebSocket | None = None
        self.error = ""

    def cookie_header(self) -> dict[str, str]:
        if not self.cookies:
            return {}
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}

    def set_cookie(self, value: str) -> None:
        name, _, rest = value.partition("=")
        self.cookies[name.strip()] = rest.split(";")[0]

    def reset_counts(self) -> tuple[int, int]:
        counted = (self.down, self.up)
        self.down = self.up = 0
        return counted

    async def get(self, conn: Connection, path: str,
                  decode: bool = False) -> tuple[int, bytes]:
        """A GET as a browser does it: from the cache when the cache headers allow, else
        conditional when it holds a validator. The body as sent on the wire, or inflated
        (``decode``): only the page's own HTML is read, so the simulated students do not
        spend the server's CPU inflating files nobody reads."""
        cached = self.cache.get(path)
        headers = {}
        if cached is not None:
            if "immutable" in cached["cache-control"] or re.search(
                    r"max-age=(\d+)", cached["cache-control"]) and "no-cache" not in cached[
                    "cache-control"]:
                return 200, decoded(cached, cached["body"]) if decode else cached["body"]
            if cached.get("etag"):
                headers["If-None-Match"] = cached["etag"]
            if cached.get("last-modified"):
                headers["If-Modified-Since"] = cached["last-modified"]
        status, response_headers, body = await conn.request("GET", path, headers)
        if status == 304 and cached is not None:
            return 200, decoded(cached, cached["body"]) if decode else cached["body"]
        control = response_headers.get("cache-control", "")
        if status == 200 and "no-store" not in control:
            self.cache[path] = {"cache-control": control, "body": body,
                                "content-encoding": response_headers.get("content-encoding"),
                                "etag": response_headers.get("etag"),
                                "last-modified": response_headers.get("last-modified")}
        return status, decoded(response_headers, body) if decode else body

    async def visit(self, assets: list[str], timeout: float) -> float:
        """The page, its files, its kernel's model, a heartbeat, then the kernel websocket
        until the whole widget state arrived. Seconds from arrival to the widget state."""
        start = time.monotonic()
        conns = [Connection(self) for _ in range(CONNECTIONS)]
        status, html = await self.get(conns[0], DASHBOARD, decode=True)
        if status != 200:
            raise RuntimeError(f"the page answered {status}")
        found = re.search(rb'"kernelId": "([0-9a-f-]{36})"', html)
        if not found:
            raise RuntimeError("no kernel id in the page")
        self.kernel_id = found.group(1).decode()
        queue = list(assets)

        async def worker(conn: Connection) -> None:
            while queue:
                path = queue.pop(0)
                status, _ = await self.get(conn, path)
                if status >= 400:
                    raise RuntimeError(f"{path} answered {status}")

        await asyncio.wait_for(asyncio.gather(*(worker(c) for c in conns)), timeout)
        status, _, _ = await conns[0].request("GET", f"/api/kernels/{self.kernel_id}")
        if status != 200:
            raise RuntimeError(f"the kernel's model answered {status}")
        await conns[1].request("GET", f"/nidavellir/api/page/{self.kernel_id}")
        for conn in conns:
            if conn.writer is not None:
                conn.writer.close()
        self.ws = WebSocket(self)
        await asyncio.wait_for(self.ws.open(f"/api/kernels/{self.kernel_id}/channels"
                                            f"?session_id={uuid.uuid4()}"), timeout)
        await asyncio.wait_for(self.ws.replay(self.recording), timeout)
        return time.monotonic() - start

    async def leave(self, goodbye: bool) -> None:
        """Close the page: with its shutdown request (a closed tab), or without (gone)."""
        if goodbye:
            conn = Connection(self)
            boundary = "nidbench"
            form = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"_xsrf\"\r\n\r\n"
                    f"{self.cookies.get('_xsrf', '')}\r\n--{boundary}--\r\n").encode()
            with contextlib.suppress(Exception):
                await conn.request("POST", f"/voila/api/shutdown/{self.kernel_id}", {
                    "Content-Type": f"multipart/form-data; boundary={boundary}"}, form)
                if conn.writer is not None:
                    conn.writer.close()
        if self.ws is not None:
            self.ws.close()


class WebSocket:
    """The kernel websocket: v1 protocol, permessage-deflate from the server."""

    def __init__(self, student: Student) -> None:
        self.student = student
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.inflate: Any = None
        self.takeover = True
        self.session = uuid.uuid4().hex
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._reader_task: asyncio.Task[None] | None = None
        #: The widget state the replay got (``update_states``: every model, by id).
        self.states: dict[str, Any] = {}

    async def open(self, path: str) -> None:
        st = self.student
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", st.port)
        key = base64.b64encode(os.urandom(16)).decode()
        head = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{st.port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13"
                f"\r\nSec-WebSocket-Protocol: {WS_PROTOCOL}\r\nOrigin: http://127.0.0.1:{st.port}"
                "\r\nSec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
                + "".join(f"{k}: {v}\r\n" for k, v in st.cookie_header().items()) + "\r\n")
        st.up += len(head)
        self.writer.write(head.encode())
        response = await self.reader.readuntil(b"\r\n\r\n")
        st.down += len(response)
        if not response.startswith(b"HTTP/1.1 101"):
            raise RuntimeError(f"websocket refused: {response[:80]!r}")
        ext = re.search(rb"(?i)sec-websocket-extensions: *([^\r]*)", response)
        if ext and b"permessage-deflate" in ext.group(1):
            bits = re.search(rb"server_max_window_bits=(\d+)", ext.group(1))
            self.wbits = int(bits.group(1)) if bits else 15
            self.takeover = b"server_no_context_takeover" not in ext.group(1)
            self.inflate = zlib.decompressobj(-self.wbits)
        self._reader_task = asyncio.ensure_future(self._read_loop())

    async def _read_exactly(self, n: int) -> bytes:
        assert self.reader is not None
        data = await self.reader.readexactly(n)
        self.student.down += len(data)
        return data

    async def _read_loop(self) -> None:
        message = b""
        compressed = False
        try:
            while True:
                b0, b1 = await self._read_exactly(2)
                opcode, fin, rsv1 = b0 & 0x0F, b0 & 0x80, b0 & 0x40
                n = b1 & 0x7F
                if n == 126:
                    n = int.from_bytes(await self._read_exactly(2), "big")
                elif n == 127:
                    n = int.from_bytes(await self._read_exactly(8), "big")
                payload = await self._read_exactly(n)
                if opcode == 8:
                    break
                if opcode == 9:
                    self._send(10, payload)
                    continue
                if opcode in (1, 2):
                    message, compressed = payload, bool(rsv1)
                elif opcode == 0:
                    message += payload
                else:
                    continue
                if not fin:
                    continue
                if compressed:
                    if not self.takeover:
                        self.inflate = zlib.decompressobj(-self.wbits)
                    message = self.inflate.decompress(message + b"\x00\x00\xff\xff")
                _, msg = v1_deserialize(message)
                await self.inbox.put(msg)
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass

    def _send(self, opcode: int, payload: bytes) -> None:
        assert self.writer is not None
        mask = os.urandom(4)
        n = len(payload)
        head = bytes([0x80 | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + n.to_bytes(2, "big")
        else:
            head += bytes([0x80 | 127]) + n.to_bytes(8, "big")
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        frame = head + mask + masked
        self.student.up += len(frame)
        self.writer.write(frame)

    async def replay(self, rec: Recording) -> None:
        """Send what the recorded page sent, with fresh ids, each after the replies the page
        had waited for; done once the widget state (update_states) has arrived."""
        comm_ids: dict[str, str] = {}
        got: list[str] = []
        for sent, awaited in zip(rec.sent, rec.awaited, strict=True):
            msg = json.loads(json.dumps(sent))
            msg_id = uuid.uuid4().hex
            msg["header"].update(msg_id=msg_id, session=self.session)
            content = msg.get("content", {})
            if "comm_id" in content:
                content["comm_id"] = comm_ids.setdefault(content["comm_id"], uuid.uuid4().hex)
            channel = msg.pop("channel", None) or sent.get("channel") or "shell"
            self._send(2, v1_serialize(channel, msg))
            wanted = list(awaited)
            while wanted:
                reply = await self.inbox.get()
                if reply.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                kind = message_kind(reply)
                got.append(kind)
                if kind == "comm_msg:update_states":
                    self.states = reply["content"]["data"].get("states", {})
                if kind in wanted:
                    wanted.remove(kind)
        if "comm_msg:update_states" not in got and "comm_msg:update_states" in rec.received:
            while True:
                reply = await self.inbox.get()
                if message_kind(reply) == "comm_msg:update_states":
                    self.states = reply["content"]["data"].get("states", {})
                    break

    def close(self) -> None:
        if self._reader_task is not None:
            self._reader_task.cancel()
        if self.writer is not None:
            self.writer.close()


# ---------------------------------------------------------------------- the class

def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def kernel_alive(port: int, kernel_id: str) -> bool:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/kernels/{kernel_id}",
                                    timeout=10):
            return True
    except urllib.error.HTTPError as exc:
        return exc.code != 404


async def wait_ended(port: int, kernel_ids: list[str], limit: float) -> float | None:
    start = time.monotonic()
    loop = asyncio.get_running_loop()
    while time.monotonic() - start < limit:
        alive = await loop.run_in_executor(
            None, lambda: [k for k in kernel_ids if kernel_alive(port, k)])
        if not alive:
            return round(time.monotonic() - start, 1)
        await asyncio.sleep(1.0)
    return None


async def play_class(server: Server, rec: Recording, assets: list[str], students: int,
                     over: float, timeout: float, page_timeout: float) -> dict[str, Any]:
    class_ = [Student(i, server.port, rec) for i in range(students)]
    times: list[float] = []
    errors: list[str] = []

    async def arrive(st: Student) -> None:
        await asyncio.sleep(over * st.index / max(students - 1, 1) if students > 1 else 0)
        try:
            times.append(await st.visit(assets, timeout))
        except Exception as exc:
            st.error = f"{type(exc).__name__}: {exc}"
            errors.append(f"student {st.index}: {st.error}")

    procs = tree(server.process.pid)
    me = psutil.Process()
    cpu0 = (cpu_seconds(procs[:1]), cpu_seconds(procs[1:]), cpu_seconds([me]))
    t0 = time.monotonic()
    await asyncio.gather(*(arrive(st) for st in class_))
    burst = time.monotonic() - t0
    procs = tree(server.process.pid)
    cpu1 = (cpu_seconds(procs[:1]), cpu_seconds(procs[1:]), cpu_seconds([me]))
    first = [st.reset_counts() for st in class_ if not st.error]
    with_pages = memory(server.process.pid)
    # A few students reload the page (their old kernels must end; the cache keeps what the
    # headers allow): bytes of a repeat visit. Their new kernels come from the pool's
    # spares or start on demand, so the time is not the first visit's.
    reloading = [st for st in class_ if not st.error][:args_repeat(students)]
    kernels_first = [st.kernel_id for st in reloading]
    repeat_times: list[float] = []
    repeat_errors: list[str] = []

    async def reload(st: Student) -> None:
        await st.leave(goodbye=True)
        try:
            repeat_times.append(await st.visit(assets, timeout))
        except Exception as exc:
            st.error = f"{type(exc).__name__}: {exc}"
            repeat_errors.append(f"student {st.index}: {st.error}")

    await asyncio.gather(*(reload(st) for st in reloading))
    repeat = [st.reset_counts() for st in reloading if not st.error]
    reclaimed_first = await wait_ended(server.port, kernels_first, 60)
    # They leave: half as closed tabs (the shutdown request), half vanish.
    closers = [st for st in class_ if st.kernel_id and st.index % 2 == 0]
    vanishers = [st for st in class_ if st.kernel_id and st.index % 2 == 1]
    for st in closers:
        await st.leave(goodbye=True)
    for st in vanishers:
        await st.leave(goodbye=False)
    closed_s, vanished_s = await asyncio.gather(
        wait_ended(server.port, [st.kernel_id for st in closers], 120),
        wait_ended(server.port, [st.kernel_id for st in vanishers], page_timeout + 120))
    await asyncio.sleep(2)
    return {
        "students": students, "over_s": over, "ok": len(times), "errors": errors[:5],
        "error_count": len(errors),
        "p50_s": round(percentile(times, 0.5), 2), "p95_s": round(percentile(times, 0.95), 2),
        "max_s": round(max(times), 2) if times else float("nan"),
        "burst_s": round(burst, 1),
        "cpu_server_s": round(cpu1[0] - cpu0[0], 2), "cpu_kernels_s": round(cpu1[1] - cpu0[1], 2),
        "cpu_client_s": round(cpu1[2] - cpu0[2], 1),
        "first_down_kb": round(statistics.mean(d for d, _ in first) / 1000, 1) if first else 0,
        "first_up_kb": round(statistics.mean(u for _, u in first) / 1000, 1) if first else 0,
        "repeat_down_kb": round(statistics.mean(d for d, _ in repeat) / 1000, 1) if repeat else 0,
        "repeat_up_kb": round(statistics.mean(u for _, u in repeat) / 1000, 1) if repeat else 0,
        "repeat_p50_s": round(percentile(repeat_times, 0.5), 2),
        "repeat_p95_s": round(percentile(repeat_times, 0.95), 2),
        "repeat_errors": repeat_errors[:5], "reloads": len(reloading),
        "memory_with_pages": with_pages, "memory_after": memory(server.process.pid),
        "reclaim_reload_s": reclaimed_first, "reclaim_closed_s": closed_s,
        "reclaim_vanished_s": vanished_s,
    }


def args_repeat(students: int) -> int:
    """How many students reload their page (for the repeat-visit figures)."""
    return min(5, students)


def static_assets(rec: Recording, server: Server) -> list[str]:
    """The recorded page's static GETs (the page, the kernel's model, the heartbeat and
    the websocket aside), as paths."""
    paths = []
    for r in rec.requests:
        url = urllib.parse.urlsplit(r["url"])
        path = url.path + (f"?{url.query}" if url.query else "")
        if (r.get("method") != "GET" or not url.scheme.startswith("http")
                or path.startswith(DASHBOARD) or "/api/" in path or path in paths):
            continue
        paths.append(path)
    return paths


@contextlib.contextmanager
def profiled(pid: int, path: Path | None) -> Any:
    """``py-spy record`` of the server process (not its kernels) while the students come,
    written to ``path`` as folded stacks (``--profile-server``); nothing when ``path`` is
    None."""
    if path is None:
        yield
        return
    spy = subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record", "-p",
                            str(pid), "-r", "200", "-f", "raw", "-o", str(path)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)  # py-spy attaches
    try:
        yield
    finally:
        spy.send_signal(signal.SIGINT)
        spy.wait(30)


def run(args: argparse.Namespace) -> dict[str, Any]:
    browser = not args.no_browser
    pages = (2 * args.page_runs + 2) if browser else 0
    log = Path(tempfile.mkdtemp()) / "voila.log"
    server = Server(args.students + pages, log, args.page_timeout, args.voila_as_is)
    kind = "voila as is" if args.voila_as_is else "the lab's voila"
    recorded = load_recording(args.recording, kind) if args.recording else None
    out: dict[str, Any] = {"load_before": [round(x, 2) for x in os.getloadavg()],
                           "server": kind}
    try:
        out["ready_s"] = round(server.wait_ready(900), 1)
        time.sleep(2)
        out["memory_warm"] = memory(server.process.pid)
        if browser:
            out["single_page"] = asyncio.run(single_page(server, args.page_runs, 1))
            out["single_page_throttled"] = asyncio.run(single_page(server, args.page_runs,
                                                                   args.throttle))
            rec = asyncio.run(record_page(server))
            if args.save_recording:
                save_recording(rec, args.save_recording, kind)
            out["page"] = {
                "requests": len(rec.requests), "first_down_kb": round(rec.first_down / 1000, 1),
                "first_up_kb": round(rec.first_up / 1000, 1),
                "repeat_down_kb": round(rec.repeat_down / 1000, 1),
                "repeat_up_kb": round(rec.repeat_up / 1000, 1),
                "repeat_requests": rec.repeat_requests,
                "first_usable_s": round(rec.first_usable_s, 2),
                "repeat_usable_s": round(rec.repeat_usable_s, 2),
                "first_chart_s": round(rec.chart_s, 2),
                "first_chart_down_kb": round(rec.chart_down / 1000, 1),
                "websocket_sent": [message_kind(m) for m in rec.sent],
                "websocket_received": sorted(set(rec.received)),
                "plotly_or_anywidget": [r["url"] for r in rec.requests
                                        if "jupyterlab-plotly" in r["url"]
                                        or "/anywidget/" in r["url"]],
            }
        else:
            assert recorded is not None
            rec = recorded
        assets = static_assets(rec, server)
        out["assets"] = len(assets)
        if browser:
            # The pool refills its spares 20 s after the browser's last page (--refill-quiet):
            # let that happen before the class comes, as it would before a lesson.
            time.sleep(22)
        out["quiet_wait_s"] = wait_quiet(server.process.pid)
        with profiled(server.process.pid, args.profile_server):
            out["class"] = asyncio.run(play_class(server, rec, assets, args.students,
                                                  args.over, args.timeout, args.page_timeout))
        out["load_after"] = [round(x, 2) for x in os.getloadavg()]
        return out
    finally:
        server.stop()


RECORDING_KEYS = ("requests", "sent", "awaited", "received")


def save_recording(rec: Recording, path: Path, server_kind: str) -> None:
    """What ``--recording`` reads back: the page's requests and websocket messages."""
    data = {"server": server_kind, **{k: getattr(rec, k) for k in RECORDING_KEYS}}
    path.write_text(json.dumps(data, indent=1))


def load_recording(path: Path, server_kind: str) -> Recording:
    """A recording saved by ``--save-recording``; a clear error when it is not one, or
    was made on the other server kind."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise SystemExit(f"--recording {path}: cannot read it ({e})") from None
    missing = [k for k in ("server", *RECORDING_KEYS)
               if not isinstance(data, dict) or k not in data]
    if missing:
        raise SystemExit(f"--recording {path}: not a recording saved by --save-recording "
                         f"(missing {', '.join(missing)})")
    if data["server"] != server_kind:
        raise SystemExit(f"--recording {path} was made with {data['server']!r}, this run "
                         f"serves {server_kind!r}: their static files differ")
    if not data["sent"] or not any(r.get("method") == "GET" for r in data["requests"]):
        raise SystemExit(f"--recording {path}: it holds no websocket messages or no requests")
    rec = Recording()
    for k in RECORDING_KEYS:
        setattr(rec, k, data[k])
    return rec


def show(r: dict[str, Any]) -> str:
    lines = [f"{r['server']}; load average before: {r['load_before']}, after: "
             f"{r.get('load_after')}",
             f"class ready (every pool kernel ran the notebook) in {r['ready_s']} s"]
    if "single_page" in r:
        for key, label in (("single_page", "one page alone"),
                           ("single_page_throttled", "one page alone, CPU throttled")):
            s = r[key]
            lines.append(f"{label} ({s['throttle']:g}x, median of {s['runs']}): usable "
                         f"{s['first_s']} s first visit {s['first_all']}, {s['repeat_s']} s "
                         f"repeat visit {s['repeat_all']}")
        p = r["page"]
        lines += [
            f"a real page: {p['requests']} requests; first visit {p['first_down_kb']} kB down / "
            f"{p['first_up_kb']} kB up on the wire (usable {p['first_usable_s']} s); repeat "
            f"visit {p['repeat_down_kb']} kB down / {p['repeat_up_kb']} kB up, "
            f"{p['repeat_requests']} requests reached the server",
            f"  websocket: sent {p['websocket_sent']}; plotly/anywidget at first paint: "
            f"{len(p['plotly_or_anywidget'])} requests",
            f"  the first chart (Play tab, the kernel builds the tab too): drawn "
            f"{p['first_chart_s']} s after the click, {p['first_chart_down_kb']} kB down",
        ]
    c = r["class"]
    m0, m1, m2 = r["memory_warm"], c["memory_with_pages"], c["memory_after"]
    lines += [
        f"{c['students']} students over {c['over_s']:g} s ({r['assets']} static files each): "
        f"{c['ok']}/{c['students']} got the full widget state; p50 {c['p50_s']} s, p95 "
        f"{c['p95_s']} s, max {c['max_s']} s (errors: {c['error_count']} {c['errors']})",
        f"  bytes per student on the wire: first visit {c['first_down_kb']} kB down / "
        f"{c['first_up_kb']} kB up; repeat visit ({c['reloads']} reloads) "
        f"{c['repeat_down_kb']} kB down / {c['repeat_up_kb']} kB up (usable again p50 "
        f"{c['repeat_p50_s']} s: a spare kernel or one started for it)",
        f"  CPU during the arrivals ({c['burst_s']} s): the Voila process {c['cpu_server_s']} s "
        f"({c['cpu_server_s'] / max(c['ok'], 1):.3f} s a student), the kernels "
        f"{c['cpu_kernels_s']} s ({c['cpu_kernels_s'] / max(c['ok'], 1):.3f} s a student), this "
        f"benchmark's students {c['cpu_client_s']} s",
        f"  memory: warm {m0['rss_mb']} MB RSS / {m0['uss_mb']} MB USS ({m0['kernels']} kernels, "
        f"{m0['kernel_uss_mb']} MB USS each); with the students {m1['rss_mb']} / {m1['uss_mb']} "
        f"MB ({m1['kernels']} kernels); after they left {m2['rss_mb']} / {m2['uss_mb']} MB "
        f"({m2['kernels']} kernels)",
        f"  kernels ended: of reloaded pages {c['reclaim_reload_s']} s, of closed tabs "
        f"{c['reclaim_closed_s']} s, of pages that vanished {c['reclaim_vanished_s']} s "
        "(None: not all within the wait)",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--over", type=float, default=30.0, metavar="SECONDS",
                        help="students arrive evenly over this many seconds (0: at once)")
    parser.add_argument("--page-runs", type=int, default=3,
                        help="browser visits per single-page figure (median)")
    parser.add_argument("--throttle", type=float, default=6.0,
                        help="CPU throttling of the throttled single-page figure")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds a student may wait for the widget state")
    parser.add_argument("--page-timeout", type=float, default=45.0,
                        help="the server's --page-timeout (seconds)")
    parser.add_argument("--no-browser", action="store_true",
                        help="no chromium: skip the single-page figures and the recording "
                        "(needs --recording)")
    parser.add_argument("--recording", type=Path, metavar="FILE",
                        help="with --no-browser: what a real page did, saved by a browser "
                        "run with --save-recording")
    parser.add_argument("--save-recording", type=Path, metavar="FILE",
                        help="save what the real page did, for later --no-browser runs")
    parser.add_argument("--voila-as-is", action="store_true",
                        help="serve with Voila itself (same options, none of issue 29's "
                        "changes): the figures to compare with")
    parser.add_argument("--profile-server", type=Path, metavar="FILE",
                        help="record the server process with py-spy (pip install py-spy) "
                        "while the students come, as folded stacks in FILE")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.profile_server and not (Path(sys.executable).parent / "py-spy").exists():
        parser.error("--profile-server needs py-spy beside this Python (pip install py-spy)")
    if args.students < 1:
        parser.error(f"--students must be 1 or more, not {args.students}")
    if args.over < 0 or args.timeout <= 0 or args.page_runs < 1 or args.throttle < 1:
        parser.error("--over must be >= 0, --timeout > 0, --page-runs >= 1, --throttle >= 1")
    if args.no_browser and not args.recording:
        parser.error("--no-browser needs --recording FILE (saved by a browser run with "
                     "--save-recording FILE): without a real page the static files a "
                     "student fetches are unknown")
    if args.recording and not args.no_browser:
        parser.error("--recording is for --no-browser runs (a browser run records its own)")
    if args.recording:
        load_recording(args.recording, "voila as is" if args.voila_as_is else "the lab's voila")
    if not args.no_browser and not Path(CHROMIUM).exists():
        parser.error(f"{CHROMIUM} is missing (make chromium installs it, or use --no-browser)")
    result = run(args)
    print(json.dumps(result, indent=1) if args.json else show(result))
    return 0 if result["class"]["error_count"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
