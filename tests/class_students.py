"""Students of a class played at the protocol level: what a dashboard page and the lab's page
extension do in a browser, done over HTTP and the kernel websocket by this process, for the
chaos test (tests/test_class_chaos.py) and its benchmark (benchmarks/bench_class_chaos.py).

A :class:`Page` gets the dashboard page (a kernel), opens the kernel websocket (Jupyter's
JSON protocol), loads every widget model (``request_states`` on the
``jupyter.widget.control`` comm, then each ``comm_open`` and update that follows) and
plays the page extension's ``ClassOutboxModel`` (``@nidavellir/voila-page``): it keeps in
its storage (the browser's localStorage) the student's id, place and every answer the
kernel hands it until the kernel says the database has it, says hello with all of that to
every kernel it meets, and, when its kernel dies (status ``dead``, or the socket closes),
reloads onto a new one. A :class:`Student` answers the steps of a lesson with the page's
widgets (the slider's value, a click on *Submit my prediction*, *Next*), and answers a
step again only when the page holds no answer to it (the kernel died before the page
held it: the restored step shows no prediction, and the student submits again).

Nothing here waits for a fixed time: every wait is for a state, with a patience as the
safety net.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import signal
import sqlite3
import struct
import time
import urllib.parse
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import WebSocketClientConnection, websocket_connect

#: The dashboard page's address.
DASHBOARD = "/voila/render/dashboard.ipynb"
#: The lesson the students answer: its steps' questions.
QUESTIONS = ("counting/hunter-in-a-tavern", "counting/a-rare-card", "counting/no-blacksmith")
#: The dashboard's tab of the probability lessons.
LESSONS_TAB = 4


class KernelLost(Exception):
    """The page's kernel died (or its socket closed): the page reloads."""


@dataclass
class Storage:
    """One student's browser storage for the class (the page extension's localStorage)."""

    student: str = field(default_factory=lambda: uuid.uuid4().hex)
    place: dict[str, Any] = field(default_factory=dict)
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)  # uid -> {item, state}

    def held(self) -> list[dict[str, Any]]:
        return [e["item"] for e in self.answers.values() if e["state"] != "stored"]

    def known(self) -> list[dict[str, Any]]:
        return [e["item"] for e in self.answers.values() if e["state"] == "stored"]

    def has(self, question: str) -> bool:
        """Whether the page holds (or knows stored) an answer to ``question``."""
        return any(e["item"]["answer"]["question"] == question for e in self.answers.values())


@dataclass
class Record:
    """What a test checks at the end: every answer a page held, every one it heard was
    stored (and any the database did not have at that moment), the kernels it used, and,
    per lost kernel, when the page noticed it and when it was usable again."""

    held: set[str] = field(default_factory=set)
    said_stored: set[str] = field(default_factory=set)
    stored_but_missing: list[str] = field(default_factory=list)
    kernels: list[str] = field(default_factory=list)
    #: Per kernel lost: its id, when the page noticed, when the page was usable again.
    losses: list[tuple[str, float, float]] = field(default_factory=list)


#: The kernel websocket protocol a browser's page asks for (Voila's page, @jupyterlab/services):
#: binary frames, passed on by the server without reading the messages' contents.
V1 = "v1.kernel.websocket.jupyter.org"


def from_v1(data: bytes) -> dict[str, Any]:
    """A frame of the v1 protocol: its message (header, parent header, metadata, content)."""
    from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1

    channel, parts = deserialize_msg_from_ws_v1(data)
    header, parent, metadata, content = (json.loads(bytes(p)) for p in parts[:4])
    return {"channel": channel, "header": header, "parent_header": parent,
            "metadata": metadata, "content": content, "buffers": parts[4:]}


def to_v1(msg: dict[str, Any]) -> bytes:
    """``msg`` as a frame of the v1 protocol."""
    from jupyter_server.services.kernels.connection.base import serialize_msg_to_ws_v1

    parts = [json.dumps(msg[k]).encode() for k in ("header", "parent_header", "metadata",
                                                    "content")]
    frame: bytes = serialize_msg_to_ws_v1(parts, msg["channel"])
    return frame


def unpack(data: bytes) -> dict[str, Any]:
    """A binary frame of Jupyter's JSON websocket protocol: offsets, then the message."""
    count = struct.unpack("!I", data[:4])[0]
    offsets = list(struct.unpack(f"!{count}I", data[4:4 + 4 * count]))
    end = offsets[1] if count > 1 else len(data)
    return dict(json.loads(data[offsets[0]:end]))


class Page:
    """One student's dashboard page (module docstring)."""

    def __init__(self, url: str, storage: Storage, record: Record, database: Path,
                 patience: float, password: str | None = None) -> None:
        self.url = url
        #: The class password (the handed-out link's ``?token=``): used once, when the page
        #: has no login cookie yet; :attr:`logins` counts each time it had to be given.
        self.password = password
        self.logins = 0
        self.location = ""
        self.storage = storage
        self.record = record
        self.database = database
        self.patience = patience
        self.http = AsyncHTTPClient(force_instance=True)
        self.cookies: dict[str, str] = {}
        self.kernel = ""
        self.session = uuid.uuid4().hex
        self.ws: WebSocketClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.models: dict[str, dict[str, Any]] = {}
        self.outbox = ""
        self.control = ""
        self.changed = asyncio.Event()
        self.lost = False
        self.lost_at = 0.0
        self.closed = False
        self.beating: set[str] = set()
        self.beats: list[asyncio.Task[None]] = []

    # ------------------------------------------------------------------ HTTP

    async def _get(self, path: str, streaming: Callable[[bytes], None] | None = None,
                   follow: bool = True) -> tuple[int, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        chunks: list[bytes] = []

        def chunk(data: bytes) -> None:
            chunks.append(data)
            if streaming is not None:
                streaming(b"".join(chunks))

        try:
            response = await self.http.fetch(HTTPRequest(
                self.url + path, headers=headers, request_timeout=self.patience,
                follow_redirects=follow,
                streaming_callback=chunk if streaming is not None else None),
                raise_error=False)
        except (OSError, HTTPClientError):  # the server went or is not there (restarting)
            self.location = ""
            return 599, ""
        self.location = response.headers.get("Location", "")
        for header in response.headers.get_list("Set-Cookie"):
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";")[0]
        body = b"".join(chunks) if streaming is not None else (response.body or b"")
        return response.code, body.decode(errors="replace")

    async def _beat(self, kernel: str) -> None:
        """The template's heartbeat: from the moment the page's HTML names its kernel
        (before the page has run its cells), then every 15 s while the page lives."""
        while self.kernel in ("", kernel) and not self.closed:
            await self._get(f"/nidavellir/api/page/{kernel}")
            await asyncio.sleep(15)

    def _streamed(self, html: bytes) -> None:
        found = re.search(rb'"kernelId": "([0-9a-f-]{36})"', html)
        if found and found.group(1).decode() not in self.beating:
            kernel = found.group(1).decode()
            self.beating.add(kernel)
            self.beats.append(asyncio.ensure_future(self._beat(kernel)))

    # ------------------------------------------------------------------ the page

    async def open(self) -> None:
        """Load the page: a kernel, its widgets, and hello to the outbox."""
        deadline = time.monotonic() + self.patience
        while True:
            self.kernel = ""
            code, body = await self._get(DASHBOARD, self._streamed, follow=False)
            if code == 200:
                break
            assert time.monotonic() < deadline, f"the dashboard answered {code}"
            if code == 302 and "/login" in self.location and self.password:
                # No login cookie (or one the server no longer takes): the student opens
                # the handed-out link with the class password.
                self.logins += 1
                await self._get("/?" + urllib.parse.urlencode({"token": self.password}))
                continue
            # 429: this address holds its limit of kernels (a dead one is still counted
            # until the server removes it); 599 or 5xx: the server is restarting. The page
            # tries again, as the page's guard does.
            assert code in (429, 502, 503, 599), f"the dashboard answered {code}"
            await asyncio.sleep(0.5)
        found = re.search(r'"kernelId": "([0-9a-f-]{36})"', body)
        assert found, "no kernel in the page"
        self.kernel = found.group(1)
        self.record.kernels.append(self.kernel)
        self.models.clear()
        self.outbox = ""
        self.lost = False
        ws_url = self.url.replace("http://", "ws://") + (
            f"/api/kernels/{self.kernel}/channels?session_id={self.session}")
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            # The protocol a browser's page asks for (V1): without it the server would
            # read and rewrite every message, work a browser never costs it.
            self.ws = await websocket_connect(HTTPRequest(ws_url, headers={"Cookie": cookie},
                                                          request_timeout=self.patience),
                                              subprotocols=[V1])
        except (OSError, HTTPClientError) as exc:
            # The kernel ended, or the server went, meanwhile: refused (a 404), or the
            # connection closed during the handshake (HTTPStreamClosedError, an
            # HTTPClientError: the server stopped for its restart between the page's 200
            # and its websocket, a busy clean run of 29 Nov).
            self._lose()
            raise KernelLost("the kernel's websocket did not open") from exc
        assert self.ws.selected_subprotocol == V1, (
            f"the server chose {self.ws.selected_subprotocol!r}, not a browser's protocol")
        self.reader = asyncio.ensure_future(self._read())
        self.control = uuid.uuid4().hex
        await self._send("comm_open", {"comm_id": self.control,
                                       "target_name": "jupyter.widget.control", "data": {}},
                         {"version": "1.0.0"})  # ipywidgets' control protocol
        await self._comm(self.control, {"method": "request_states"})
        await self.until(lambda: bool(self.outbox), "the class outbox loaded")
        await self._comm(self.outbox, {"method": "custom", "content": {
            "kind": "hello", "student": self.storage.student, "place": self.storage.place,
            "ids": [uuid.uuid4().hex for _ in range(4)], "held": self.storage.held(),
            "known": self.storage.known()}})

    async def _stop_reading(self) -> None:
        if self.ws is not None:
            self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)
        self.ws = self.reader = None

    async def reload(self) -> None:
        """What the page extension does when its kernel is lost: a new page."""
        await self._stop_reading()
        await self.open()

    async def close(self) -> None:
        self.closed = True
        for beat in self.beats:
            beat.cancel()
        await asyncio.gather(*self.beats, return_exceptions=True)
        await self._stop_reading()
        self.http.close()

    # ------------------------------------------------------------------ messages

    async def _send(self, msg_type: str, content: dict[str, Any],
                    metadata: dict[str, Any] | None = None) -> None:
        if self.ws is None:
            self._lose()
            return
        msg = {"header": {"msg_id": uuid.uuid4().hex, "username": "student",
                          "session": self.session, "msg_type": msg_type, "version": "5.3",
                          "date": ""},
               "parent_header": {}, "metadata": metadata or {}, "content": content,
               "channel": "shell", "buffers": []}
        try:
            if self.ws.selected_subprotocol == V1:
                await self.ws.write_message(to_v1(msg), binary=True)
            else:
                await self.ws.write_message(json.dumps(msg))
        except Exception:  # closed: the kernel is lost
            self._lose()

    async def _comm(self, comm_id: str, data: dict[str, Any]) -> None:
        await self._send("comm_msg", {"comm_id": comm_id, "data": data})

    def _lose(self) -> None:
        if not self.lost:
            self.lost = True
            self.lost_at = time.monotonic()
        self.changed.set()

    async def _read(self) -> None:
        ws = self.ws
        assert ws is not None
        while True:
            frame = await ws.read_message()
            if frame is None:
                if ws is self.ws:
                    self._lose()
                return
            if isinstance(frame, bytes):
                msg = from_v1(frame) if ws.selected_subprotocol == V1 else unpack(frame)
            else:
                msg = json.loads(frame)
            self._handle(msg)
            self.changed.set()

    def _handle(self, msg: dict[str, Any]) -> None:
        kind = msg["header"]["msg_type"]
        content = msg.get("content", {})
        if kind == "status" and content.get("execution_state") == "dead":
            self._lose()
        elif kind == "comm_open" and content.get("target_name") == "jupyter.widget":
            self._model(content["comm_id"], content["data"]["state"])
        elif kind == "comm_msg":
            data, comm = content.get("data", {}), content.get("comm_id")
            if comm == self.control and data.get("method") == "update_states":
                for model_id, model in data["states"].items():
                    self._model(model_id, model["state"])
            elif data.get("method") in ("update", "echo_update") and comm in self.models:
                self.models[comm].update(data.get("state", {}))
                if comm == self.outbox and data.get("state", {}).get("place"):
                    self.storage.place = dict(data["state"]["place"])
            elif data.get("method") == "custom" and comm == self.outbox:
                asyncio.ensure_future(self._outbox(data["content"]))

    def _model(self, model_id: str, state: dict[str, Any]) -> None:
        self.models[model_id] = dict(state)
        if state.get("_model_name") == "ClassOutboxModel":
            self.outbox = model_id

    async def _outbox(self, content: dict[str, Any]) -> None:
        """The page extension's ClassOutboxModel."""
        if content.get("kind") == "hold":
            item = content["item"]
            uid = item["answer"]["uid"]
            self.storage.answers[uid] = {"item": item, "state": "held"}
            self.record.held.add(uid)
            await self._comm(self.outbox, {"method": "custom", "content": {
                "kind": "held", "uid": uid, "ids": [uuid.uuid4().hex]}})
        elif content.get("kind") == "stored":
            uids = list(content["uids"])
            with sqlite3.connect(self.database) as db:  # does the database have it now?
                have = {r[0] for r in db.execute(
                    f"SELECT uid FROM answers WHERE uid IN ({','.join('?' * len(uids))})",
                    uids)}
            db.close()
            for uid in uids:
                self.record.said_stored.add(uid)
                if uid not in have:
                    self.record.stored_but_missing.append(uid)
                if uid in self.storage.answers:
                    self.storage.answers[uid]["state"] = "stored"
        elif content.get("kind") == "dropped":
            for uid in content["uids"]:
                self.storage.answers.pop(uid, None)
        self.changed.set()

    # ------------------------------------------------------------------ the widgets

    async def until(self, ready: Callable[[], bool], what: str) -> None:
        """Wait for a state of the page; KernelLost when its kernel is lost meanwhile."""
        deadline = time.monotonic() + self.patience
        while True:
            if self.lost:
                raise KernelLost(what)
            if ready():
                return
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"{what}: not so after {self.patience:.0f} s"
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), min(remaining, 1.0))
            except TimeoutError:
                pass

    def find(self, css: str, within: str | None = None) -> list[str]:
        """The models with a CSS class (under a model, when given)."""
        pool = self.descendants(within) if within else list(self.models)
        return [m for m in pool if css in self.models.get(m, {}).get("_dom_classes", [])]

    def descendants(self, model_id: str) -> list[str]:
        out, todo = [], [model_id]
        while todo:
            current = todo.pop()
            out.append(current)
            for child in self.models.get(current, {}).get("children", []) or []:
                if isinstance(child, str) and child.startswith("IPY_MODEL_"):
                    todo.append(child[len("IPY_MODEL_"):])
        return out

    async def set(self, model_id: str, **state: Any) -> None:
        self.models[model_id].update(state)
        await self._comm(model_id, {"method": "update", "state": state, "buffer_paths": []})

    async def click(self, model_id: str) -> None:
        await self._comm(model_id, {"method": "custom", "content": {"event": "click"}})


class Student:
    """One student answering the lesson's steps (module docstring)."""

    def __init__(self, index: int, url: str, database: Path, patience: float,
                 think: tuple[float, float] = (0.1, 0.8), seed: int = 0,
                 stay: Callable[[], bool] = lambda: False,
                 password: str | None = None) -> None:
        self.index = index
        self.storage = Storage()
        self.record = Record()
        self.page = Page(url, self.storage, self.record, database, patience, password)
        self.rng = random.Random(seed * 1000 + index)
        self.think = think
        #: While true, a student who has answered everything keeps their page open.
        self.stay = stay
        self.name = f"student {index:02d}"
        self.done = False
        #: Whether its kernel may be killed now (it has one and is working with it).
        self.connected = False
        #: How many times a new page brought the student back to their lesson by itself.
        self.restores = 0

    def value(self, step: int) -> float:
        return round(((self.index * 7 + step * 13) % 90 + 5) / 100, 2)

    def _app(self) -> str:
        """The counting lesson's app on the page (its model)."""
        for app in self.page.find("nid-prob-lesson"):
            title = self.page.find("nid-pl-title", app)
            if title and "1. Counting" in self.page.models[title[0]].get("value", ""):
                return app
        return ""

    def _step_now(self, app: str) -> int:
        (title,) = self.page.find("nid-pl-title", app)
        found = re.search(r"step (\d+) of", self.page.models[title].get("value", ""))
        return int(found.group(1)) - 1 if found else -1

    async def _to_lessons(self) -> str:
        """The lesson on screen: opened by the student; after a reload the page brings it
        back by itself, with the name, when its storage has them (a kernel that died before
        the page kept the place is like a page that never had it)."""
        page = self.page
        (tabs,) = page.find("nid-tabs")
        (name,) = page.find("nid-class-name")
        place = self.storage.place
        if place.get("tab") == "lessons" and place.get("name") == self.name:
            self.restores += 1
            await page.until(lambda: page.models[tabs].get("selected_index") == LESSONS_TAB
                             and page.models[name].get("value") == self.name,
                             "the page is back on the lessons tab, with the name")
        else:
            await page.set(name, value=self.name)
            await page.set(tabs, selected_index=LESSONS_TAB)
        await page.until(lambda: bool(self._app()), "the counting lesson is shown")
        step = place.get("step")
        if place.get("lesson") == "counting" and isinstance(step, int):
            # The restored step: the new kernel moves the lesson there while the page
            # loads; acting on the step shown before would act on a stale screen.
            await page.until(lambda: self._step_now(self._app()) == step,
                             "the page is back on the student's step")
        return self._app()

    async def _answer(self, step: int) -> None:
        page = self.page
        app = self._app()
        while self._step_now(app) != step:
            before = self._step_now(app)
            move = 1 if before < step else -1
            (button,) = page.find("nid-pl-next" if move > 0 else "nid-pl-back", app)
            await page.click(button)
            await page.until(lambda to=before + move: self._step_now(app) == to,  # type: ignore[misc]
                             "the next step is shown")
        if self.storage.has(QUESTIONS[step]):
            return  # the page holds an answer to it (from before a reload)
        await asyncio.sleep(self.rng.uniform(*self.think))  # the student thinks
        (slider,) = page.find("nid-pl-slider", app)
        (submit,) = page.find("nid-pl-submit", app)
        await page.set(slider, value=self.value(step))
        await page.click(submit)
        await page.until(lambda: self.storage.has(QUESTIONS[step]),
                         f"the page holds the answer to {QUESTIONS[step]}")

    async def run(self) -> None:
        """Answer every step once; come back onto a new kernel whenever it is lost; end when
        the database has every answer the page holds."""
        # Every kernel lost since the page was last usable: (kernel, when noticed). A page
        # may lose the new kernel too before it is usable (a kill, then a restart): each
        # loss ends when the page is usable again.
        step, opened = 0, False
        lost: list[tuple[str, float]] = []
        while True:
            try:
                if not opened:
                    await self.page.open()
                    opened = True
                elif self.page.lost:
                    await self.page.reload()
                self.connected = True
                app = await self._to_lessons()
                usable = time.monotonic()  # back where the student was
                self.record.losses += [(kernel, noticed, usable) for kernel, noticed in lost]
                lost = []
                assert app
                while step < len(QUESTIONS):
                    await self._answer(step)
                    step += 1
                await self.page.until(lambda: not self.stay() and not self.storage.held(),
                                      "the database has every answer the page holds")
                self.done = True
                self.connected = False
                return
            except KernelLost:
                self.connected = False
                if self.page.kernel and self.page.kernel not in {k for k, _t in lost}:
                    lost.append((self.page.kernel, self.page.lost_at))

    async def close(self) -> None:
        await self.page.close()


def kernel_process(kernel_id: str) -> psutil.Process | None:
    """The process of a kernel (by its id on its command line)."""
    for p in psutil.process_iter(["cmdline"]):
        if any(kernel_id in c for c in (p.info["cmdline"] or [])):
            return p
    return None


@dataclass
class Chaos:
    """What :func:`chaos` did: the students, each killed kernel with the time it was
    killed, and how many victims' pages held an answer the database lacked; with a
    restart, when the server was stopped and the kernels the pages had then."""

    students: list[Student]
    killed: dict[str, float]
    holding: int = 0
    restarted: float = 0.0
    restart_kernels: dict[str, Student] = field(default_factory=dict)
    restart_holding: int = 0

    def back_after_restart(self) -> list[float]:
        """Per page that had a kernel when the server stopped: the seconds from the stop
        to the page being usable again on a new kernel (back on its lesson and step)."""
        out = []
        for kernel, student in self.restart_kernels.items():
            usable = [u for k, _n, u in student.record.losses if k == kernel]
            if usable:
                out.append(usable[0] - self.restarted)
        return out


async def chaos(url: str, database: Path, students: int = 30,
                kills: tuple[int, int, int] = (3, 4, 3), short_lock: float = 3.0,
                long_lock: float = 12.0, patience: float = 600.0, seed: int = 42,
                password: str | None = None,
                restart: Callable[[], Any] | None = None,
                restart_locked: bool = True) -> Chaos:
    """Students answer the lesson while the class database is locked ``short_lock``
    seconds (writes wait), then ``long_lock`` (longer than a kernel's 10 s wait: writes
    fail and are kept), and kernels are killed (SIGKILL): ``kills`` during each lock and
    after them, those during the long lock preferably of pages that hold an answer the
    database lacks. With ``restart`` (a blocking call that stops the server and starts it
    again at the same address), the server is restarted once during the long lock, after
    its kills: every page loses its kernel while it may hold answers the database lacks
    (``restart_locked=False``: right after the long lock, the database free again).
    With ``password``, the class has one: a page uses it only when it has no login
    cookie (:attr:`Page.logins`). The choreography waits for states; returns when every
    student is done (every answer the pages held is stored)."""
    rng = random.Random(seed)
    chaos_over = asyncio.Event()
    done = Chaos([Student(i, url, database, patience, seed=seed, password=password,
                          stay=lambda: not chaos_over.is_set()) for i in range(students)], {})
    runs = [asyncio.ensure_future(s.run()) for s in done.students]
    killed = done.killed

    async def until(ready: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + patience
        while not ready():
            assert time.monotonic() < deadline, f"{what}: not so after {patience:.0f} s"
            await asyncio.sleep(0.1)

    everyone = done.students

    async def kill(prefer_held: bool) -> None:
        while True:  # until a kernel is killed (a victim's may be gone meanwhile)
            await until(lambda: any(s.connected for s in everyone), "a student to kill")
            pool = [s for s in everyone if s.connected]
            held = [s for s in pool if s.storage.held()]
            victim = rng.choice(held if prefer_held and held else pool)
            kernel = victim.page.kernel
            process = kernel_process(kernel) if kernel not in killed else None
            if process is not None:
                done.holding += bool(victim.storage.held())
                killed[kernel] = time.monotonic()
                with contextlib.suppress(psutil.Error):
                    process.send_signal(signal.SIGKILL)
                return
            await asyncio.sleep(0.1)

    async def restart_now() -> None:
        await until(lambda: sum(s.connected for s in everyone) >= len(everyone) / 2,
                    "half the pages back before the restart")
        done.restart_kernels = {s.page.kernel: s for s in everyone if s.connected}
        done.restart_holding = sum(bool(s.storage.held()) for s in everyone)
        done.restarted = time.monotonic()
        assert restart is not None
        await asyncio.get_running_loop().run_in_executor(None, restart)

    try:
        await until(lambda: all(s.connected for s in everyone) and database.exists(),
                    "every student's page loaded")
        for (count, hold, prefer_held) in ((kills[0], short_lock, False),
                                           (kills[1], long_lock, True), (kills[2], 0, False)):
            lock = None
            if hold:
                lock = sqlite3.connect(database, isolation_level=None)
                lock.execute("BEGIN EXCLUSIVE")  # another program holds the class database
            started = time.monotonic()
            try:
                if prefer_held:  # a kill while the page holds what the database lacks
                    await until(lambda: any(s.connected and s.storage.held() for s in everyone),
                                "a page holding an answer while the database is locked")
                for _ in range(count):
                    await kill(prefer_held)
                    await asyncio.sleep(rng.uniform(0.3, 1.0))
                if restart is not None and prefer_held and restart_locked:
                    # The server restarts while pages hold what the database lacks.
                    await restart_now()
                await asyncio.sleep(max(0.0, hold - (time.monotonic() - started)))
            finally:
                if lock is not None:
                    lock.execute("ROLLBACK")
                    lock.close()
            if restart is not None and prefer_held and not restart_locked:
                await restart_now()  # the database free again
        chaos_over.set()
        await asyncio.wait_for(asyncio.gather(*runs), patience)
    finally:
        chaos_over.set()
        for r in runs:
            r.cancel()
        await asyncio.gather(*runs, return_exceptions=True)
        for s in everyone:
            await s.close()
    return done


__all__ = ["Chaos", "DASHBOARD", "KernelLost", "LESSONS_TAB", "Page", "QUESTIONS", "Record",
           "Storage", "Student", "chaos", "kernel_process"]
