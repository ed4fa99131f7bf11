"""Voila's kernel pool, run for a class (``python -m nidavellir.serve --class-size 30``).

Voila keeps *preheated* kernels: each has already run the dashboard notebook, so a page
that takes one is usable as soon as its widgets reach the browser. Left to itself, Voila's
pool (``voila.voila_kernel_manager``) starts a replacement kernel one second after every
page: a class of 30 opening the dashboard at once then runs 30 kernels starting beside the
30 being used (measured: 60 kernels, pages usable after 89 s median). Its idle pool
kernels are also culled like forgotten tabs, so a pool warmed up before the lesson is gone
after ``cull_idle_timeout``.

:class:`ClassKernelManager` is the base class Voila builds its pool manager on (Voila's
``VoilaConfiguration.multi_kernel_manager_class``):

- ``class_size`` kernels are preheated for the dashboard before the class comes in, and
  the server prints ``ready_message`` once every one of them has **run the notebook**
  (:func:`notebooks_run`), not merely started;
- pool kernels start and run the notebook a few at a time (``starting_at_once``, one more
  than the cores by default), in the order pages take them: the first pages are served
  while the others start, rather than all of them when every one is ready
  (:meth:`~ClassKernelManager._initialize_in_turn`);
- once pages start taking them, no replacement starts during the burst: the pool is
  refilled only after ``refill_quiet`` seconds without a new page, and only up to
  ``spare_kernels`` (latecomers, reloads), not back to the class size;
- a kernel lives as long as its page: kernels waiting in the pool are never culled; a
  kernel handed to a page ends when the page has given no sign (an open websocket, a
  heartbeat from the lab's template) for ``page_timeout`` seconds, or, if the page never
  came, ``connect_grace`` seconds after it was handed out or, for a kernel started for the
  page, after it ran the page's last cell (the HTML goes out then) (:meth:`~ClassKernelManager.
  page_gone`); the page's own shutdown request (Voila's beacon) ends it at once
  (:class:`nidavellir.classroom.server.app.ShutdownHandler`); the idle cull stays as a backstop for kernels whose
  page is gone (docs/serving.md);
- the kernels' activity (what the cull and ``/api/kernels`` read) is recorded from the
  header frames of each IOPub message alone (:meth:`~ClassKernelManager.
  start_watching_activity`): jupyter_server deserializes every message in full, dates and
  all, a third of the server's work while a class opens its pages (the widget state alone
  is 158 kB a page).
- every message a kernel sends reaches its page (:class:`PageKernelManager`): ZeroMQ keeps
  at most 1,000 unread messages for the server and drops the rest of a burst while the
  server is busy; the server's IOPub sockets here keep them all;
- kernels start as forks of a process that has imported ipykernel, the page and the
  engine once (``fork_kernels``; :mod:`.forks`): about two thirds of a kernel's start and
  dashboard run, paid once per server instead of once per page;
- the server's run of the notebook is not sent the widgets' messages
  (:class:`NotebookRunClient`): a page asks its kernel for the widgets' whole state when it
  connects, so the 200-odd messages of the dashboard's widgets went to the run for nothing.

Server-side only (jupyter_server); nothing in the engine or the widgets imports it.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import hmac
import json
import os
import sys
import time
from typing import Any

import zmq
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.provisioning import LocalProvisioner
from jupyter_client.session import Session
from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import (
    AsyncMappingKernelManager,
    ServerKernelManager,
)
from tornado.ioloop import PeriodicCallback
from traitlets import Bool, DottedObjectName, Float, Int, Type, Unicode, default

from .forks import (
    ForkError,
    ForkStale,
    KernelForker,
    fork_kernel,
    forking_possible,
    split_command,
    take_early,
)

#: Seconds within which a kernel's activity is not recorded again (for the cull, whose times
#: are minutes): the messages between two records are not read.
ACTIVITY_GRAIN = 1.0


@dataclasses.dataclass(eq=False)
class PageRequest:
    """A page request being served (:class:`nidavellir.classroom.server.app.PageHandler`): its client address, and
    whether the kernel it takes was handed out yet (from then on the kernel counts for the
    client, :meth:`ClassKernelManager.kernels_of`, and the request no more)."""

    client: str
    handed: bool = False


#: The page request being served: the kernel handed out meanwhile is its client's.
PAGE_REQUEST: contextvars.ContextVar[PageRequest | None] = contextvars.ContextVar(
    "nidavellir_page_request", default=None)

#: The IOPub topics the server's run of the notebook subscribes to: ipykernel sends each
#: IOPub message under a topic (its first frame) and the publisher sends a subscriber only
#: the topics it asked for. These are every topic ipykernel uses but a widget's
#: (``comm-<id>``): the kernel's status, the code's echo, results and errors
#: (``kernel.<id>.status``, ``….execute_input``, ``….execute_result``, ``….error``), printed
#: text (``stream.stdout``), displays, their updates and clearing (``display_data``), and
#: the topics of a display hook without the kernel's prefix (``execute_result``,
#: ``error``). Not ``<IDS|MSG>`` (a message without a topic; ipykernel sends none on IOPub):
#: its welcome message would come with that frame twice, which no client can read. The
#: kernel answers each subscription with a welcome message (``iopub_welcome``, five here
#: instead of one): without a parent, the run passes them over.
NOTEBOOK_RUN_TOPICS = (b"kernel.", b"stream.", b"display_data", b"execute_result", b"error")


class NotebookRunClient(AsyncKernelClient):  # type: ignore[misc]
    """The kernel client that runs the dashboard's notebook in a new kernel (Voila runs it
    with nbclient, which makes its client with the kernel manager's ``client()``): its
    IOPub socket subscribes to :data:`NOTEBOOK_RUN_TOPICS`, every message but the widgets'.

    The dashboard's run sent about 200 widget messages a kernel (about 140 ``comm_open``,
    one per widget made, and 65 changes), each received, read and stored by the run in
    the server's one process: 0.047 s of the server's CPU a kernel, 0.015 s without them
    (measured on this 2-core machine), about a second of the server's time when a class of
    30 starts or comes back after a restart. The run has no use for them: Voila's page asks
    its kernel for every widget's state when it connects (ipywidgets' ``request_states``),
    and the state nbclient would store in the notebook's metadata is not in the page's
    HTML. What nbclient would do with them is capture an ``Output`` widget's outputs made
    during the run inside ``with output:``; the dashboard's notebook makes none (its one
    output is the app's display), and such outputs would show under the app instead. A
    page's websocket and the activity watcher subscribe to every topic (the manager's
    ``connect_iopub``, not this client's).
    """

    def connect_iopub(self, identity: bytes | None = None) -> zmq.Socket[Any]:
        socket = self._create_connected_socket("iopub", identity=identity)
        for topic in NOTEBOOK_RUN_TOPICS:
            socket.setsockopt(zmq.SUBSCRIBE, topic)
        return socket


class PageKernelManager(ServerKernelManager):  # type: ignore[misc]
    """One kernel's manager, whose IOPub sockets keep every message the kernel sends, and
    whose kernel is forked where its class manager can (:meth:`ClassKernelManager.
    kernel_forker`).

    The server reads a kernel's IOPub messages (all a page is told: each widget, each
    change) from a ZeroMQ subscriber socket, which keeps at most 1,000 unread messages
    (``RCVHWM``) and drops the rest of a burst, silently, while the server is busy: a
    What-if branch is about 1,600 messages, and on a loaded machine the page lost the end
    of it (the branch and its "Branched" line never came). Here the IOPub sockets (the
    page's websocket and the activity watcher) have no such limit; the kernel's side of
    it is lifted by :mod:`widgets.iopub`. The notebook's run in the server is not sent the
    widgets' messages (:class:`NotebookRunClient`).
    """

    client_class = DottedObjectName(f"{__name__}.NotebookRunClient", config=True)
    client_factory = Type(klass=AsyncKernelClient, default_value=NotebookRunClient, config=True)

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw: Any) -> None:
        """jupyter_client's launch (its local provisioner's ``Popen``), by forking where the
        class manager has a fork server for this command; the usual way otherwise, or if
        the fork server fails (said once in the log)."""
        forker_of = getattr(self.parent, "kernel_forker", None)
        forker = forker_of(kernel_cmd) if callable(forker_of) else None
        info = None
        if forker is not None and isinstance(self.provisioner, LocalProvisioner):
            try:
                info = await asyncio.to_thread(fork_kernel, self.provisioner, forker,
                                               kernel_cmd, **kw)
            except ForkStale:
                # An edited source: a fresh fork server (the class manager starts one).
                forker = forker_of(kernel_cmd) if callable(forker_of) else None
                if forker is not None:
                    try:
                        info = await asyncio.to_thread(fork_kernel, self.provisioner,
                                                       forker, kernel_cmd, **kw)
                    except ForkError as exc:
                        self._not_forked(forker, exc)
            except ForkError as exc:
                self._not_forked(forker, exc)
            if info is not None:
                self._reconcile_connection_info(info)
                return
        await super()._async_launch_kernel(kernel_cmd, **kw)

    def _not_forked(self, forker: KernelForker, exc: Exception) -> None:
        if forker.broken is not None:
            self.log.warning("Kernels start the usual way from now on: the kernel fork "
                             "server failed (%s)", exc)
        else:
            self.log.warning("This kernel starts the usual way: %s", exc)

    def _create_connected_socket(self, channel: str, identity: bytes | None = None) -> Any:
        if channel != "iopub":
            return super()._create_connected_socket(channel, identity=identity)
        # jupyter_client sets up and connects the socket in one call; the limit must be
        # set before the connection, so it is set as the context's default for this one.
        options = self.context.sockopts
        had, before = zmq.RCVHWM in options, options.get(zmq.RCVHWM)
        options[zmq.RCVHWM] = 0
        try:
            return super()._create_connected_socket(channel, identity=identity)
        finally:
            if had:
                options[zmq.RCVHWM] = before
            else:
                del options[zmq.RCVHWM]


class ClassKernelManager(AsyncMappingKernelManager):  # type: ignore[misc]
    """The kernel manager under Voila's pool, with the class policy (module docstring)."""

    @default("kernel_manager_class")
    def _page_kernel_manager(self) -> str:
        return f"{__name__}.PageKernelManager"

    class_size = Int(0, config=True, help="kernels preheated for the pool notebook (0: "
                                          "Voila's own refill policy)")
    spare_kernels = Int(2, config=True, help="kernels kept warm after the class came in")
    refill_quiet = Float(20.0, config=True,
                         help="seconds without a new page before the pool is refilled")
    pool_notebook = Unicode("dashboard.ipynb", config=True,
                            help="the notebook whose kernels are preheated")
    ready_message = Unicode("", config=True,
                            help="printed once the class_size kernels have run the notebook")
    page_timeout = Float(45.0, config=True,
                         help="seconds a page's kernel lives on without a sign of its page "
                              "(an open websocket or a heartbeat): a page closed without its "
                              "shutdown request, or gone off the network (0: never)")
    connect_grace = Float(20.0, config=True,
                          help="seconds a kernel handed to a page may wait for the page's "
                               "first sign (its first heartbeat comes as its HTML arrives: a "
                               "request that is not a browser's page gives its kernel back)")
    kernels_per_client = Int(10, config=True,
                             help="page kernels one client address may hold at once (0: no "
                                  "limit); a class behind one school NAT shares an address")
    page_check_interval = Float(5.0, config=True,
                                help="seconds between two checks for kernels of pages gone")
    starting_at_once = Int(0, config=True,
                           help="pool kernels that start and run the notebook at the same "
                                "time (0: one more than the server's cores); the others wait "
                                "their turn, in order, so the first pages are served first")
    turn_limit = Float(120.0, config=True,
                       help="seconds at most a pool kernel's start and notebook run holds "
                            "its turn (a run that hangs lets the next kernel start)")

    end_kernels_at_once = Bool(True, config=True,
                               help="a stopping server ends its kernels at once (False: asks "
                                    "each to end and waits, as Jupyter does: a coverage run "
                                    "needs it, for the kernels' data)")
    fork_kernels = Bool(True, config=True,
                        help="start kernels as forks of a process that has imported ipykernel, "
                             "the page and the engine once (Linux; off: each kernel imports "
                             "them)")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._forker: KernelForker | None = None
        self._retired: list[KernelForker] = []
        self._refill: asyncio.TimerHandle | None = None
        self._initial_done = False
        self._page_kernels: dict[str, float] = {}
        self._signed: set[str] = set()
        self._last_sign: dict[str, float] = {}
        self._rendered: dict[str, float] = {}
        self._owners: dict[str, str] = {}
        self._page_checker: PeriodicCallback | None = None
        self.class_ready = False
        if self.class_size > 0 and hasattr(type(self), "fill_if_needed"):
            # Voila's pool class derives from this one: its fill_if_needed is wrapped on
            # the instance, so its own __init__ (which fills the pools) goes through it.
            setattr(self, "fill_if_needed", self._class_fill)  # noqa: B010
        if hasattr(type(self), "get_rendered_notebook"):
            setattr(self, "get_rendered_notebook", self._hand_out)  # noqa: B010
        self._starting: asyncio.Semaphore | None = None
        self._closing = False
        if hasattr(type(self), "_initialize"):
            setattr(self, "_initialize", self._initialize_in_turn)  # noqa: B010
            setattr(self, "shutdown_all", self._shutdown_all_closing)  # noqa: B010
        self._start_forker_early()
        if self.page_timeout > 0:
            self._page_checker = PeriodicCallback(self.check_pages,
                                                  1000 * self.page_check_interval)
            self._page_checker.start()

    # ------------------------------------------------------------------ the pool

    def start_watching_activity(self, kernel_id: str) -> None:
        """jupyter_server's activity watcher, same results, less work: each IOPub message's
        signature is checked and only its header, parent header (and a status message's
        content) are read; jupyter_server parses every part with its dates."""
        kernel = self._kernels[kernel_id]
        kernel.reason = ""
        kernel.last_activity = utcnow()
        kernel._activity_stream = kernel.connect_iopub()
        session = Session(config=kernel.session.config, key=kernel.session.key)

        def record_activity(msg_list: list[Any]) -> None:
            _, frames = session.feed_identities(msg_list)
            header = frames[1] if len(frames) > 1 else b""  # after the signature
            header = bytes(header.bytes if hasattr(header, "bytes") else header)
            if (b'"status"' not in header
                    and (utcnow() - kernel.last_activity).total_seconds() < ACTIVITY_GRAIN):
                # Activity recorded within the last second already, and this message changes
                # no state: not read (a page's start is hundreds of widget messages, all of
                # them while its kernel is busy running the notebook: a tenth of the
                # server's work while a class's kernels start, when these were read).
                return
            parts = [bytes(f.bytes if hasattr(f, "bytes") else f) for f in frames[:5]]
            if len(parts) < 5 or (session.auth is not None and not hmac.compare_digest(
                    parts[0], session.sign(parts[1:5]))):
                self.log.warning("Kernel %s: an IOPub message with a bad signature",
                                 kernel_id)
                return
            msg_type = json.loads(parts[1]).get("msg_type")
            parent_type = json.loads(parts[2]).get("msg_type")
            if (self.track_message_type(msg_type) or self.track_message_type(parent_type)
                    or kernel.execution_state == "busy"):
                self.last_kernel_activity = kernel.last_activity = utcnow()
            if msg_type == "status":
                state = json.loads(parts[4]).get("execution_state")
                if parent_type == "execute_request":
                    # A cell run: a page's kernel started cold renders its page so, and
                    # the page's HTML leaves when the last cell ends (page_gone's grace).
                    self._rendered[kernel_id] = time.monotonic()
                if self.track_message_type(parent_type):
                    kernel.execution_state = state
                elif kernel.execution_state == "starting" and state != "starting":
                    kernel.execution_state = "idle"

        kernel._activity_stream.on_recv(record_activity)

    def _pools_of(self, notebook: str) -> list[Any]:
        pools: dict[str, list[Any]] = getattr(self, "_pools", {})
        return pools.get(notebook, [])

    def pooled_kernel_ids(self) -> set[str]:
        """Kernels started for the pool and not handed to a page yet."""
        ids: set[str] = set()
        for pool in getattr(self, "_pools", {}).values():
            for task in pool:
                if task.done() and not task.cancelled() and task.exception() is None:
                    result = task.result()
                    if isinstance(result, dict) and "kernel_id" in result:
                        ids.add(result["kernel_id"])
        return ids

    def _set_pool_size(self, notebook: str, size: int) -> None:
        config = dict(getattr(self, "kernel_pools_config", {}))
        entry = dict(config.get(notebook, {}))
        entry["pool_size"] = size
        config[notebook] = entry
        setattr(self, "kernel_pools_config", config)  # noqa: B010

    def _class_fill(self, delay: float | None = None, notebook_name: str | None = None,
                    **kwargs: Any) -> None:
        voila_fill: Any = getattr(type(self), "fill_if_needed")  # noqa: B009 (Voila's pool)
        if notebook_name != self.pool_notebook:
            voila_fill(self, delay, notebook_name, **kwargs)
            return
        if not self._initial_done:
            # Before the class: fill to the class size at once and say when it is ready.
            self._initial_done = True
            self._set_pool_size(notebook_name, self.class_size)
            voila_fill(self, 0, notebook_name, **kwargs)
            self._announce_when_ready(notebook_name)
            return
        # A page took a kernel: no replacement during the burst. Refill once the pages
        # stop coming, up to the spares only.
        self._set_pool_size(notebook_name, max(self.spare_kernels, 0))
        try:
            loop = asyncio.get_event_loop()
        except RuntimeError:  # pragma: no cover - Voila always runs in a loop
            voila_fill(self, delay, notebook_name, **kwargs)
            return
        if self._refill is not None:
            self._refill.cancel()

        def refill() -> None:
            self._refill = None
            voila_fill(self, 0, notebook_name, **kwargs)

        self._refill = loop.call_later(self.refill_quiet, refill)

    def at_once(self) -> int:
        """How many pool kernels start and run the notebook at the same time: the
        ``starting_at_once`` trait, or the cores this server may use (its CPU affinity,
        and a container's CPU quota, cgroup v2 ``cpu.max``) and one more."""
        if self.starting_at_once > 0:
            return int(self.starting_at_once)
        return usable_cores() + 1

    async def _initialize_in_turn(self, notebook_path: str, kernel_id: str | None = None,
                                  **kwargs: Any) -> Any:
        """Voila's start of a pool kernel (start it, then run the notebook in it), a few at
        a time: 30 kernels started together on two cores shared the cores 30 ways and every
        one was ready only when all were (after a restart, 30 pages waited 34-38 s and came
        back within 0.25 s of each other). In turn, in the order Voila made them (the
        order pages take them), the first is ready in about a second and the others
        follow. A kernel restarted in place (``kernel_id`` given) does not wait. A turn
        ends when the notebook has run (or the start failed), or after ``turn_limit``
        seconds (a notebook run that hangs holds its turn no longer); a server stopping
        starts no kernel that was still waiting for its turn."""
        voila_initialize: Any = getattr(type(self), "_initialize")  # noqa: B009
        if kernel_id is not None:
            return await voila_initialize(self, notebook_path, kernel_id, **kwargs)
        if self._starting is None:
            self._starting = asyncio.Semaphore(self.at_once())
        starting = self._starting
        await starting.acquire()
        released = False

        def release(*_args: Any) -> None:
            nonlocal released
            if not released:
                released = True
                starting.release()

        if self._closing:
            release()
            raise RuntimeError("the server is stopping: no new kernel")
        try:
            content = await voila_initialize(self, notebook_path, None, **kwargs)
        except BaseException:
            release()
            raise
        run = content.get("task") if isinstance(content, dict) else None
        if isinstance(run, asyncio.Future) and not run.done():
            run.add_done_callback(release)
            asyncio.get_running_loop().call_later(self.turn_limit, release)
        else:
            release()
        return content

    async def _shutdown_all_closing(self, *args: Any, **kwargs: Any) -> None:
        """Voila's shutdown of every kernel, the pool's too; pool kernels still waiting
        for their turn start no more (Voila awaits each pool task while it shuts down:
        each would otherwise start a kernel, in turn, only to shut it down); then the
        kernel fork server ends."""
        self._closing = True
        voila_shutdown_all: Any = getattr(type(self), "shutdown_all")  # noqa: B009
        # At once: a page's kernel keeps nothing a graceful end would save (an answer
        # is the page's until the database has it, and the page sends it again), and a
        # graceful end of 30 kernels took 1-3 s of a restart (each asked, then waited for).
        if self.end_kernels_at_once:
            kwargs["now"] = True
            args = ()
        try:
            await voila_shutdown_all(self, *args, **kwargs)
        finally:
            self.close_forker()

    # ------------------------------------------------------------------ forking

    def kernel_forker(self, kernel_cmd: list[str]) -> KernelForker | None:
        """The fork server that starts ``kernel_cmd``'s kernel (started with the first
        kernel), or None: ``fork_kernels`` off, not Linux, not an ipykernel command, the
        server stopping, or the fork server failed (kernels then start the usual way)."""
        if not self.fork_kernels or self._closing or not forking_possible():
            return None
        split = split_command(kernel_cmd)
        if split is None:
            return None
        self._close_retired()
        if self._forker is not None and self._forker.stale is not None:
            # Its preloaded code was edited: a fresh one; the old one stays while the
            # kernels it forked live (they stop when it goes): it ends once they are gone
            # (_close_retired) or with the server.
            self.log.info("Kernels start from a fresh fork server: %s was edited",
                          self._forker.stale)
            self._retired.append(self._forker)
            self._forker = None
        if self._forker is None:
            try:
                self._forker = KernelForker(split[0])
            except OSError as exc:
                self.log.warning("Kernels start the usual way: no kernel fork server (%s)", exc)
                self.fork_kernels = False
                return None
            self.log.info("Kernels start as forks of process %s", self._forker.pid)
        if self._forker.broken is not None or self._forker.kernel_args(kernel_cmd) is None:
            return None
        return self._forker

    def _start_forker_early(self) -> None:
        """A class's server starts the fork server with itself, for the default kernel's
        command: its imports (half a second of a core) then run while the server starts,
        not before the class's first kernel. Nothing is started if that command cannot be
        forked; without a class the fork server starts with the first kernel. The one
        started before the server's imports (:func:`.forks.start_early`) is taken if it is
        the one this would start, and closed otherwise (one not taken here is closed by
        the server once this manager exists: ``ClassVoila.init_settings``)."""
        if self.class_size <= 0 or not self.fork_kernels or not forking_possible():
            return
        specs: Any = self.kernel_spec_manager
        try:
            spec = specs.get_kernel_spec(self.default_kernel_name)
        except Exception as exc:  # noqa: BLE001 - the first kernel says what is wrong
            self.log.debug("No early kernel fork server: %s", exc)
            return
        split = split_command(list(spec.argv))
        if split is None:
            return
        # The one `python -m nidavellir.classroom.server` started before its imports, if
        # it is the one this would start now.
        self._forker = self._forker or take_early(split[0])
        if self._forker is not None:
            self.log.info("Kernels start as forks of process %s (started with the server)",
                          self._forker.pid)
        self.kernel_forker(list(spec.argv))

    def _close_retired(self) -> None:
        """End the stale fork servers none of whose kernels runs any more (each is a whole
        interpreter: a day of edits under ``make run`` would otherwise keep dozens)."""
        keep = []
        for forker in self._retired:
            if forker.serving():
                keep.append(forker)
            else:
                forker.close()
        self._retired = keep

    def close_forker(self) -> None:
        """End the kernel fork server (its kernels stop with it: shut them down first)."""
        forkers = [f for f in (self._forker, *self._retired) if f is not None]
        self._forker, self._retired = None, []
        for forker in forkers:
            forker.close()

    def _announce_when_ready(self, notebook: str) -> None:
        tasks = list(self._pools_of(notebook))
        if not tasks:
            return

        async def announce() -> None:
            ready, failures = await notebooks_run(tasks, self.log)
            for failure in failures:
                self.log.error("A class kernel is not ready: %s", failure)
            self.class_ready = True
            message = self.ready_message or f"The class can come in: {ready} dashboards are ready."
            if failures:
                message += f" ({len(failures)} of {len(tasks)} failed: see the errors above)"
            print(f"\n*** {message} ***\n", file=sys.stdout, flush=True)
            self.log.info(message)

        asyncio.ensure_future(announce())

    # ------------------------------------------------------------------ pages

    async def pool_warming(self, notebook: str, patience: float = 120.0) -> None:
        """Wait, if ``notebook``'s pool has kernels starting but none has started yet.

        Voila hands a page a pool kernel only once the pool's first kernel has started (it
        then knows the notebook's template); a page that comes before starts a kernel of
        its own, beside the pool's. After a restart, a class's pages come back within a
        second of the server: each started its own kernel, 30 beside the pool's 30 on two
        cores, and every page came back when all were ready (measured: 30 pages answered
        at the same instant, 9.5 s after the start, the pool ready only at 17 s). Here such
        a page waits for the first pool kernel (about a second) and takes a pool kernel,
        in turn (:meth:`_initialize_in_turn`)."""
        data: dict[str, Any] = getattr(self, "notebook_data", {})
        pool = self._pools_of(notebook)
        if not pool or notebook in data:
            return
        await asyncio.wait([pool[0]], timeout=patience)  # never cancels it

    async def _hand_out(self, *args: Any, **kwargs: Any) -> Any:
        voila_get: Any = getattr(type(self), "get_rendered_notebook")  # noqa: B009
        render_task, rendered, kernel_id = await voila_get(self, *args, **kwargs)
        self.handed_to_page(kernel_id)
        return render_task, rendered, kernel_id

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
        kernel_id: str = await super().start_kernel(*args, **kwargs)
        # Voila starts pool kernels with VOILA_PREHEAT=True; any other is a page's at once.
        if (kwargs.get("env") or {}).get("VOILA_PREHEAT") != "True":
            self.handed_to_page(kernel_id)
        return kernel_id

    def handed_to_page(self, kernel_id: str) -> None:
        """From now on the kernel lives as long as its page (:meth:`page_gone`); signs
        from before (a connection to a pool kernel) do not count for the page."""
        if kernel_id not in self._page_kernels:
            self._page_kernels[kernel_id] = time.monotonic()
            self._signed.discard(kernel_id)
            self._last_sign.pop(kernel_id, None)
            request = PAGE_REQUEST.get()
            if request is not None and not request.handed:
                request.handed = True
                self._owners[kernel_id] = request.client

    def kernels_of(self, client: str) -> int:
        """The page kernels a client address holds now."""
        return sum(1 for owner in self._owners.values() if owner == client)

    def _connections(self, kernel_id: str) -> int:
        connections: dict[str, int] = getattr(self, "_kernel_connections", {})
        return connections.get(kernel_id, 0)

    def page_sign(self, kernel_id: str) -> None:
        """A sign of the kernel's page: a heartbeat, a websocket opening or closing."""
        if kernel_id in getattr(self, "_kernels", {}):
            self._signed.add(kernel_id)
            self._last_sign[kernel_id] = time.monotonic()

    def notify_connect(self, kernel_id: str) -> None:
        super().notify_connect(kernel_id)
        self.page_sign(kernel_id)

    def notify_disconnect(self, kernel_id: str) -> None:
        super().notify_disconnect(kernel_id)
        self.page_sign(kernel_id)  # the page's time without a sign starts now

    def page_gone(self, kernel_id: str, now: float) -> str | None:
        """Why the page the kernel was handed to is gone; None while the kernel is not a
        page's (in the pool, or starting for it), while its page has a websocket open, or
        while its page gave a sign (a heartbeat) within ``page_timeout``."""
        handed = self._page_kernels.get(kernel_id)
        if handed is None:
            return None
        if self._connections(kernel_id) > 0:
            self.page_sign(kernel_id)
            return None
        if kernel_id in self._signed:
            quiet = now - self._last_sign.get(kernel_id, now)
            if quiet >= self.page_timeout:
                return f"no sign of its page for {quiet:.0f} s (closed, or off the network)"
            return None
        # A kernel started for its page runs the notebook first (a minute on a busy
        # machine): the page can only come once its HTML went out, after the last cell.
        since = max(handed, self._rendered.get(kernel_id, handed))
        if now - since >= self.connect_grace:
            return f"its page never came ({now - since:.0f} s after its HTML)"
        return None

    async def check_pages(self) -> None:
        """Shut down the kernels whose pages are gone (see :meth:`page_gone`), and the
        stale fork servers whose kernels are all gone."""
        self._close_retired()
        now = time.monotonic()
        for kernel_id in list(self._page_kernels):
            why = self.page_gone(kernel_id, now)
            if why is None:
                continue
            self.log.info("Shutting down kernel %s: %s", kernel_id, why)
            try:
                await self.shutdown_kernel(kernel_id)
            except Exception as exc:  # a kernel that died meanwhile: the culler reports it
                self._forget(kernel_id)
                self.log.warning("Could not shut down kernel %s: %s", kernel_id, exc)

    # ------------------------------------------------------------------ culling

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """Cull idle kernels of closed pages; never the ones waiting in the pool, nor one
        whose page is still there (a websocket open or a recent heartbeat: a page loading
        on a slow laptop), nor one handed to a page that has not come yet."""
        if kernel_id in self.pooled_kernel_ids():
            return
        if (self.page_timeout > 0 and kernel_id in self._page_kernels
                and self.page_gone(kernel_id, time.monotonic()) is None):
            return
        await super().cull_kernel_if_idle(kernel_id)

    def _forget(self, kernel_id: str) -> None:
        self._page_kernels.pop(kernel_id, None)
        self._signed.discard(kernel_id)
        self._last_sign.pop(kernel_id, None)
        self._rendered.pop(kernel_id, None)
        self._owners.pop(kernel_id, None)

    def _handle_kernel_died(self, kernel_id: str) -> None:
        """A kernel died (removed, not restarted: ``KernelRestarter.restart_limit=0``). If
        it was a page's, that page reloads at once: the spares are topped up now, not after
        ``refill_quiet`` (a death is not a class arriving)."""
        was_page = kernel_id in self._page_kernels
        super()._handle_kernel_died(kernel_id)
        voila_fill: Any = getattr(type(self), "fill_if_needed", None)
        if was_page and self.class_size > 0 and self._initial_done and voila_fill is not None:
            self._set_pool_size(self.pool_notebook, max(self.spare_kernels, 0))
            voila_fill(self, 0, self.pool_notebook)

    def remove_kernel(self, kernel_id: str) -> Any:
        """Also for a kernel that died (jupyter_server removes it from the map without a
        shutdown when it will not be restarted: ``KernelRestarter.restart_limit=0``)."""
        self._forget(kernel_id)
        return super().remove_kernel(kernel_id)

    async def shutdown_kernel(  # type: ignore[override]
            self, kernel_id: str, *args: Any, **kwargs: Any) -> Any:
        self._forget(kernel_id)
        return await super().shutdown_kernel(kernel_id, *args, **kwargs)


def usable_cores(cpu_max: str = "/sys/fs/cgroup/cpu.max") -> int:
    """The cores this process may use: its CPU affinity, and no more than a container's
    CPU quota (cgroup v2 ``cpu.max``, "quota period" or "max"; a quota of 1.5 cores
    counts as 2)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    try:
        with open(cpu_max) as limits:
            quota, period = limits.read().split()[:2]
        if quota != "max" and int(period) > 0:
            cores = min(cores, max(1, -(-int(quota) // int(period))))
    except (OSError, ValueError):
        pass  # no cgroup v2 quota here
    return max(1, cores)


async def notebooks_run(tasks: list[Any], log: Any = None) -> tuple[int, list[str]]:
    """Wait until every pool task has started its kernel **and run the notebook in it**.

    A task of Voila's pool resolves to ``{"kernel_id", "renderer", "task"}`` as soon as its
    kernel has started; its ``task`` then runs the notebook (the pre-rendered page). Returns
    how many kernels ran the notebook, and what went wrong with the others."""
    failures: list[str] = []
    started = await asyncio.gather(*tasks, return_exceptions=True)
    runs: list[Any] = []
    for result in started:
        if isinstance(result, BaseException):
            failures.append(f"the kernel did not start: {type(result).__name__}: {result}")
        else:
            runs.append(result)
    outcomes = await asyncio.gather(*(r["task"] for r in runs), return_exceptions=True)
    ready = 0
    for result, outcome in zip(runs, outcomes, strict=True):
        if isinstance(outcome, BaseException):
            failures.append(f"kernel {result['kernel_id']} did not run the notebook: "
                            f"{type(outcome).__name__}: {outcome}")
        else:
            ready += 1
            if log is not None:
                log.info("Pool kernel %s has run the notebook", result["kernel_id"])
    return ready, failures


__all__ = ["ClassKernelManager", "NOTEBOOK_RUN_TOPICS", "NotebookRunClient", "PAGE_REQUEST",
           "PageKernelManager", "PageRequest", "notebooks_run", "usable_cores"]
