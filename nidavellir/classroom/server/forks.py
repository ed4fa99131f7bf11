"""Pages' kernels started by forking a process that has already imported what they import.

The lab's server starts one :mod:`.forkserver` process (:class:`KernelForker`), with the
same interpreter and options as the kernels' command, which imports ipykernel, IPython,
ipywidgets, the lab's page and the engine once. Each kernel then starts as a fork of it
(:func:`fork_kernel`, called by :class:`~.kernels.PageKernelManager`): 0.21 s of a core
instead of 0.59 s per kernel (its start and the dashboard's run, median), which a class
coming back after a restart pays 30 times on a laptop's two cores (docs/serving.md,
"Kernels forked from a process that has imported them"). The kernel is the same program
as one started by ``python -m ipykernel_launcher`` (the same arguments, environment,
folder and process group; ``ps`` shows that command); jupyter_client drives it through
:class:`ForkedProcess`, which answers as a ``subprocess.Popen`` does.

Where forking is not possible (not Linux: no ``os.pidfd_open``; a kernel command that is
not ``… -m ipykernel_launcher …``; the fork server failed to start or died), kernels start
the usual way, with one line in the server's log saying why.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

#: The module a kernel's command runs (``python … -m ipykernel_launcher -f {file}``).
LAUNCHER = ["-m", "ipykernel_launcher"]
#: The fork server's module (run, never imported by the server).
FORKSERVER = "nidavellir.classroom.server.forkserver"
#: What the fork server imports before it forks: ipykernel, IPython, jupyter_client and
#: ZeroMQ (what every kernel imports; the debugger's debugpy is a quarter of a kernel's own
#: start), ipywidgets, and the lab's page with the engine and
#: bots under it (what the dashboard notebook imports). Nothing here may make a widget or
#: start a thread as it is imported (tests/test_forks.py checks).
PRELOAD = (
    "ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell", "ipykernel.debugger",
    "IPython.core.interactiveshell", "IPython.core.debugger", "jupyter_client.session",
    "ipywidgets", "widgets.dashboard", "widgets.language",
)
#: What those modules do on import when they are imported in a kernel, done in each forked
#: kernel once it has started (``module:function``): ipywidgets registers its comm targets;
#: the lab lifts the IOPub limit when the first cell runs, as its import did (the notebook
#: run's and the server's subscribers are connected then: widgets/iopub.py), and installs
#: its stack dump
#: (widgets/diagnostics.py). A module of the lab that acts on the kernel as it is imported
#: must be named here (tests/test_forks.py checks the ``widgets`` package).
AFTER_START = (
    "ipywidgets:_handle_ipython", "widgets.iopub:install_at_first_cell",
    "widgets.diagnostics:install",
)
#: Work the page of every kernel does at its start and keeps, done once by the fork server
#: after its preload (``module:function``, of preloaded modules; it may make no widget and
#: start no thread: tests/test_forks.py checks): the lab's lessons read and checked in the
#: server's language (a tenth of a second of a kernel's start, checking the walkthroughs'
#: claims replays them), which each forked kernel then finds done.
WARM = ("nidavellir.lessons:warm",)
#: Bytes of room the fork server's command line keeps for its kernels' (each kernel shows
#: its own command in ``ps``: ``… -m ipykernel_launcher -f …/kernel-<id>.json``).
TITLE_ROOM = 1024
#: Seconds to wait for the fork server's answer (its first one comes after its imports).
ANSWER_TIMEOUT = 60.0


class ForkError(RuntimeError):
    """The fork server could not start a kernel (it is then not used again)."""


class ForkStale(ForkError):
    """The fork server's preloaded code was edited since it imported it: a fresh fork
    server is needed (this one stays, for the kernels it forked)."""


def forking_possible() -> bool:
    """Whether kernels can be forked here: Linux's ``fork`` and a working ``pidfd_open``
    (a kernel older than 5.3, or a container's system-call filter, refuses it)."""
    global _POSSIBLE
    if _POSSIBLE is None:
        _POSSIBLE = False
        if hasattr(os, "fork") and hasattr(os, "pidfd_open") and sys.platform == "linux":
            try:
                os.close(os.pidfd_open(os.getpid()))
                _POSSIBLE = True
            except OSError:
                pass
    return _POSSIBLE


_POSSIBLE: bool | None = None


def split_command(cmd: Sequence[str]) -> tuple[list[str], list[str]] | None:
    """A kernel command's interpreter part (before ``-m ipykernel_launcher``) and its
    kernel's arguments (after it); None for a command that is not ipykernel's.

    >>> split_command(["/venv/bin/python", "-Xfrozen_modules=off", "-m", "ipykernel_launcher",
    ...                "-f", "kernel.json"])
    (['/venv/bin/python', '-Xfrozen_modules=off'], ['-f', 'kernel.json'])
    >>> split_command(["R", "--slave"]) is None
    True
    """
    parts = list(cmd)
    for at in range(1, len(parts) - 1):
        if parts[at:at + 2] == LAUNCHER:
            return parts[:at], parts[at + 2:]
    return None


class ForkedProcess:
    """A kernel forked by the fork server, driven like the ``subprocess.Popen`` that
    jupyter_client's local provisioner holds (``poll``, ``wait``, ``send_signal``, ``kill``,
    ``terminate``). It is the fork server's child, not the server's: its end is seen through
    a process file descriptor (``pidfd``: never mistaken for a later process given the same
    id), and its exit status is not known (``returncode`` is minus the signal this object
    sent to end it, or 1)."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._ending_signal = 0
        self._fd: int | None = None
        try:
            self._fd = os.pidfd_open(pid)
        except ProcessLookupError:  # it ended already
            self.returncode = 1

    def _ended(self, timeout: float | None) -> bool:
        if self._fd is None:
            return True
        poller = select.poll()  # not select(): a server's descriptors pass 1024
        poller.register(self._fd, select.POLLIN)
        if poller.poll(None if timeout is None else int(timeout * 1000)):
            os.close(self._fd)
            self._fd = None
            self.returncode = -self._ending_signal if self._ending_signal else 1
            return True
        return False

    def poll(self) -> int | None:
        self._ended(0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if not self._ended(timeout):
            raise subprocess.TimeoutExpired(f"kernel {self.pid}", timeout or 0)
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, signum: int) -> None:
        if self._fd is None or self.poll() is not None:
            return  # ended: as Popen, nothing to signal
        if signum in (signal.SIGKILL, signal.SIGTERM):
            self._ending_signal = signum
        signal.pidfd_send_signal(self._fd, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def __del__(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class KernelForker:
    """The fork server (:mod:`.forkserver`) for kernels whose command starts with
    ``interpreter`` (the part before ``-m ipykernel_launcher``), and the requests to it.
    Thread-safe: a request at a time."""

    def __init__(self, interpreter: Sequence[str], preload: Sequence[str] = PRELOAD,
                 env: Mapping[str, str] | None = None,
                 after_start: Sequence[str] = AFTER_START,
                 warm: Sequence[str] = WARM) -> None:
        self.interpreter = list(interpreter)
        ours, theirs = socket.socketpair()
        try:
            self._process = subprocess.Popen(
                [*self.interpreter, "-m", FORKSERVER, "--fd", str(theirs.fileno()),
                 "--preload", ",".join(preload),
                 "--after-start", ",".join(after_start), "--warm", ",".join(warm),
                 "--interpreter", json.dumps(self.interpreter), "--room", " " * TITLE_ROOM],
                pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL,
                start_new_session=True, env=dict(env) if env is not None else None)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self._conn = ours
        self._reader = ours.makefile("rb")
        self._lock = threading.Lock()
        self._ready = False
        self.broken: str | None = None
        #: The edited source file that made this fork server stale, once one did.
        self.stale: str | None = None
        #: The kernels it forked (to know when a stale one has none left).
        self.forked: list[ForkedProcess] = []

    @property
    def pid(self) -> int:
        return int(self._process.pid)

    def kernel_args(self, cmd: Sequence[str]) -> list[str] | None:
        """The kernel's arguments if this fork server can start ``cmd``'s kernel."""
        split = split_command(cmd)
        if (split is None or split[0] != self.interpreter or self.broken is not None
                or self.stale is not None):
            return None
        return split[1]

    def _read(self, timeout: float) -> dict[str, Any]:
        self._conn.settimeout(timeout)
        try:
            line = self._reader.readline()
        except (TimeoutError, OSError, ValueError) as exc:  # ValueError: closed meanwhile
            raise ForkError(f"the fork server did not answer: {exc or 'timed out'}") from exc
        if not line:
            raise ForkError(f"the fork server ended (exit status {self._process.poll()})")
        try:
            reply = json.loads(line)
        except ValueError as exc:
            raise ForkError(f"the fork server's answer is not JSON: {line[:80]!r}") from exc
        if not isinstance(reply, dict):
            raise ForkError(f"the fork server's answer is not an object: {line[:80]!r}")
        return reply

    def fork(self, args: Sequence[str], env: Mapping[str, str], cwd: str,
             timeout: float = ANSWER_TIMEOUT) -> int:
        """Start a kernel with ``args`` (after ``-m ipykernel_launcher``), ``env`` and
        ``cwd``; its process id. Blocks until the fork server answers (its first answer
        waits for its imports). :class:`ForkError` if it cannot: the forker is then broken
        and every later kernel starts the usual way."""
        with self._lock:
            if self.broken is not None:
                raise ForkError(self.broken)
            try:
                if not self._ready:
                    self._read(timeout)
                    self._ready = True
                request = {"args": list(args), "env": dict(env), "cwd": str(cwd)}
                self._conn.settimeout(timeout)
                self._conn.sendall(json.dumps(request).encode() + b"\n")
                reply = self._read(timeout)
            except (ForkError, OSError) as exc:
                self.broken = str(exc)
                # It must not serve the request later, on the ports the usual start of
                # the same kernel is about to take: it goes (and the kernels it forked).
                self._process.kill()
                raise ForkError(self.broken) from exc
            if "stale" in reply:
                self.stale = str(reply["stale"])
                raise ForkStale(f"{self.stale} was edited since the fork server imported it")
            if "pid" not in reply:
                # A refused request (the server's own mistake): the next may work.
                raise ForkError(str(reply.get("error", reply)))
            return int(reply["pid"])

    def serving(self) -> bool:
        """Whether a kernel it forked still runs."""
        self.forked = [p for p in self.forked if p.poll() is None]
        return bool(self.forked)

    def close(self, timeout: float = 5.0) -> None:
        """End the fork server (its kernels see it gone and stop: shut them down first)."""
        self.broken = self.broken or "closed"
        try:
            self._reader.close()
            self._conn.close()
        except OSError:
            pass
        try:
            self._process.wait(timeout)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


#: The fork server :func:`start_early` started as the class's server process began, and the
#: environment it was given, until the class's kernel manager takes it (:func:`take_early`).
_EARLY: tuple[KernelForker, dict[str, str]] | None = None
#: The option that makes a server a class's (and its value, the class size).
CLASS_SIZE_OPTION = "--ClassKernelManager.class_size="


def start_early(argv: Sequence[str], kernel_name: str = "python3") -> KernelForker | None:
    """Start the kernel fork server for a class's server (``argv``: the server's options,
    with a class size above 0 and kernels forked) before the server imports Voila and
    jupyter_server: the two imports (about half a second of a core each) then run side by
    side, and the class's first kernel comes that much sooner. The command is the kernel
    ``kernel_name``'s (the default kernel, the dashboard's). Nothing is started where the
    class's kernel manager would not start one (:meth:`~.kernels.ClassKernelManager.
    _start_forker_early` decides again and closes this one if it would start another);
    a failure here is left for the manager to meet and report."""
    global _EARLY
    sizes = [a[len(CLASS_SIZE_OPTION):] for a in argv if a.startswith(CLASS_SIZE_OPTION)]
    if (_EARLY is not None or not sizes or not sizes[-1].isdigit() or int(sizes[-1]) <= 0
            or any(a.startswith("--ClassKernelManager.fork_kernels=") and
                   a.split("=", 1)[1].lower() in ("false", "0") for a in argv)
            or not forking_possible()):
        return None
    try:
        from jupyter_client.kernelspec import KernelSpecManager

        from .. import PASSWORD_ENV, TEACHER_PASSWORD_ENV

        split = split_command(KernelSpecManager().get_kernel_spec(kernel_name).argv)
        if split is None:
            return None
        # The server takes the passwords out of its environment as it starts, before any
        # kernel: the fork server, and so every kernel, never has them.
        env = {k: v for k, v in os.environ.items()
               if k not in (PASSWORD_ENV, TEACHER_PASSWORD_ENV)}
        _EARLY = (KernelForker(split[0], env=env), env)
    except Exception:  # noqa: BLE001 - the manager starts its own and reports what fails
        return None
    return _EARLY[0]


def take_early(interpreter: Sequence[str]) -> KernelForker | None:
    """The fork server :func:`start_early` started, if it runs ``interpreter`` in the
    server's environment as it is now (what a fork server started now would have); it is
    closed otherwise (the environment it was given is the server's without the passwords,
    which the server takes out of its own as it starts). Once: later calls get None."""
    global _EARLY
    if _EARLY is None or _EARLY[0].interpreter != list(interpreter) \
            or _EARLY[1] != dict(os.environ):
        discard_early()
        return None
    forker, _EARLY = _EARLY[0], None
    return forker


def discard_early() -> None:
    """Close the fork server :func:`start_early` started, if nobody took it."""
    global _EARLY
    early, _EARLY = _EARLY, None
    if early is not None:
        early[0].close(timeout=0)  # it forked nothing: ended at once, not after its imports


def _own_group(process: ForkedProcess, patience: float = 1.0) -> int | None:
    """The kernel's process group once it has made its own (its first step, ``setsid``),
    or None (it ended, or took longer): jupyter_client then signals the kernel alone. Never
    the fork server's group, which holds every other kernel."""
    deadline = time.monotonic() + patience
    while True:
        try:
            if os.getpgid(process.pid) == process.pid:
                return process.pid
        except OSError:
            return None
        if process.poll() is not None or time.monotonic() > deadline:
            return None
        time.sleep(0.002)


def fork_kernel(provisioner: Any, forker: KernelForker, cmd: Sequence[str],
                **kwargs: Any) -> Any:
    """What jupyter_client's local provisioner's ``launch_kernel`` does, by forking: the
    kernel of ``cmd`` started from ``forker``, held by ``provisioner`` as its process.
    Returns the connection information; None where ``forker`` cannot start this command
    (the caller starts it the usual way). Blocking (a thread's work)."""
    args = forker.kernel_args(cmd)
    if args is None:
        return None
    env = kwargs.get("env")
    cwd = kwargs.get("cwd") or os.getcwd()
    pid = forker.fork(args, env if env is not None else os.environ.copy(), str(cwd))
    try:
        process = ForkedProcess(pid)
    except OSError as exc:  # no process descriptor (descriptors used up): not driven
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        raise ForkError(f"the forked kernel {pid} cannot be followed: {exc}") from exc
    forker.forked.append(process)
    provisioner.process = process
    provisioner.pid = pid
    provisioner.pgid = _own_group(process)
    provisioner.cwd = cwd
    return provisioner.connection_info


__all__ = ["CLASS_SIZE_OPTION", "ForkError", "ForkStale", "ForkedProcess", "KernelForker",
           "PRELOAD", "WARM", "discard_early", "fork_kernel", "forking_possible", "split_command",
           "start_early", "take_early"]
