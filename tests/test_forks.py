"""Kernels forked from the lab server's fork server (nidavellir/classroom/server/forks.py):
the same kernel as one started by ``python -m ipykernel_launcher`` (its arguments,
environment, folder, process group, a fresh random generator), driven by jupyter_client
(interrupt, restart, shutdown, a kill seen as a death), and the usual start wherever
forking cannot be used."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import psutil
import pytest
from traitlets.config import Configurable

from nidavellir.classroom.server import forks
from nidavellir.classroom.server.forks import ForkedProcess, KernelForker, split_command

pytestmark = pytest.mark.skipif(not forks.forking_possible(), reason="forking needs Linux")

PRELOAD = ("ipykernel.kernelapp", "ipykernel.ipkernel")


def _kernel_cmd() -> list[str]:
    return [sys.executable, "-Xfrozen_modules=off", "-m", "ipykernel_launcher", "-f",
            "{connection_file}"]


class Delegate(Configurable):  # type: ignore[misc]
    """Stands for the class kernel manager, asking a real one for its fork server."""

    def __init__(self, manager: Any) -> None:
        super().__init__()
        self.manager = manager

    def kernel_forker(self, cmd: list[str]) -> KernelForker | None:
        forker: KernelForker | None = self.manager.kernel_forker(cmd)
        return forker


class Parent(Configurable):  # type: ignore[misc]
    """Stands for the class kernel manager: the fork server's owner."""

    def __init__(self, forker: KernelForker | None) -> None:
        super().__init__()
        self.forker = forker

    def kernel_forker(self, cmd: list[str]) -> KernelForker | None:
        if self.forker is None or self.forker.kernel_args(cmd) is None:
            return None
        return self.forker


def _manager(parent: Configurable, tmp_path: Path) -> Any:
    from jupyter_client.kernelspec import KernelSpec

    from nidavellir.classroom.server.kernels import PageKernelManager

    manager = PageKernelManager(transport="ipc", connection_file=str(tmp_path / "kernel.json"),
                                parent=parent)
    manager._kernel_spec = KernelSpec(argv=_kernel_cmd(), display_name="test",
                                      language="python")
    return manager


async def _run(manager: Any, code: str) -> dict[str, Any]:
    """Run ``code`` in the kernel; its ``user_expressions`` result of ``out``."""
    client = manager.client()
    client.start_channels()
    try:
        await client.wait_for_ready(timeout=60)
        reply = await client.execute(code, user_expressions={"out": "out"}, reply=True,
                                     timeout=60)
        assert reply["content"]["status"] == "ok", reply["content"]
        data = reply["content"]["user_expressions"]["out"]["data"]["text/plain"]
        result: dict[str, Any] = json.loads(eval(data))  # a repr of a JSON string
        return result
    finally:
        client.stop_channels()


READ_KERNEL = """
import json, os, random, sys
from ipykernel.kernelapp import IPKernelApp
out = json.dumps({"pid": os.getpid(), "pgid": os.getpgid(0), "cwd": os.getcwd(),
                  "env": os.environ.get("LAB_FORK_TEST"), "argv": sys.argv,
                  "parent": os.environ.get("JPY_PARENT_PID"), "ppid": os.getppid(),
                  "random": random.random(), "path": sys.path,
                  "poller": IPKernelApp.instance().poller is not None})
"""


def _command(process: psutil.Process) -> list[str]:
    """A process's command line; none for one that ended as it was read."""
    try:
        return list(process.cmdline())
    except psutil.Error:
        return []


def _gone(pid: int) -> bool:
    """The process ended (a zombie is an ended process its new parent has not reaped yet:
    a kernel outliving its fork server belongs to the system's first process then)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def test_split_command_finds_the_launcher() -> None:
    assert split_command(_kernel_cmd()) == (_kernel_cmd()[:2], ["-f", "{connection_file}"])
    assert split_command([sys.executable, "-m", "other_kernel", "-f", "x"]) is None
    assert split_command(["-m", "ipykernel_launcher"]) is None  # no interpreter


def test_a_forked_kernel_is_the_kernel_its_command_describes(tmp_path: Path) -> None:
    """Two kernels forked from one fork server: each runs in the folder, with the
    environment and arguments it was launched with, in its own process group, with its
    own random numbers; the kernel started the usual way reads the same things."""
    forker = KernelForker(_kernel_cmd()[:2], preload=PRELOAD)
    folder = tmp_path / "notebooks"
    folder.mkdir()

    async def scenario() -> list[dict[str, Any]]:
        seen = []
        for parent, value in ((Parent(forker), "a"), (Parent(forker), "b"), (Parent(None), "c")):
            manager = _manager(parent, tmp_path / value)
            (tmp_path / value).mkdir()
            env = dict(os.environ, LAB_FORK_TEST=value)
            await manager.start_kernel(env=env, cwd=str(folder))
            try:
                info = await _run(manager, READ_KERNEL)
                info["forked"] = isinstance(manager.provisioner.process, ForkedProcess)
                info["provisioner_pid"] = manager.provisioner.pid
                info["cmdline"] = psutil.Process(info["pid"]).cmdline()
                seen.append(info)
            finally:
                await manager.shutdown_kernel(now=False)
        return seen

    try:
        a, b, c = asyncio.run(scenario())
    finally:
        forker.close()
    assert [a["forked"], b["forked"], c["forked"]] == [True, True, False]
    for info, value in ((a, "a"), (b, "b"), (c, "c")):
        assert info["env"] == value
        assert Path(info["cwd"]) == folder
        assert info["argv"][1:3] == ["-f", info["argv"][2]]
        assert info["argv"][2].endswith("kernel.json") and f"/{value}/" in info["argv"][2]
        assert info["pgid"] == info["pid"] == info["provisioner_pid"]
        assert int(info["parent"]) == info["ppid"]
        shown = [part for part in info["cmdline"] if part]  # ps's view of the process
        assert shown == [*_kernel_cmd()[:-1], info["argv"][2]], shown
        assert info["path"] == c["path"]  # the kernel's folder ("") where ipykernel puts it
        assert info["poller"]  # it stops when its parent is gone
    assert a["ppid"] == b["ppid"] == forker.pid
    assert a["random"] != b["random"]


def test_a_forked_kernel_is_interrupted_restarted_and_its_death_seen(tmp_path: Path) -> None:
    """jupyter_client drives a forked kernel as a started one: an interrupt stops a cell
    (KeyboardInterrupt), a restart gives a new forked kernel, a kill from outside is seen
    as the kernel's death, and a shutdown leaves no process."""
    forker = KernelForker(_kernel_cmd()[:2], preload=PRELOAD)

    async def scenario() -> None:
        manager = _manager(Parent(forker), tmp_path)
        await manager.start_kernel(env=dict(os.environ), cwd=str(tmp_path))
        try:
            first = manager.provisioner.pid
            client = manager.client()
            client.start_channels()
            await client.wait_for_ready(timeout=60)
            msg_id = client.execute(
                "print('running', flush=True)\nwhile True: pass")  # runs until interrupted
            # the cell runs (and takes an interrupt: ipykernel ignores one between cells)
            # once it has printed
            while True:
                msg = await client.get_iopub_msg(timeout=60)
                if (msg["parent_header"].get("msg_id") == msg_id
                        and msg["msg_type"] == "stream"):
                    break
            await manager.interrupt_kernel()
            reply = await client.get_shell_msg(timeout=60)
            assert reply["content"]["status"] == "error"
            assert reply["content"]["ename"] == "KeyboardInterrupt"
            client.stop_channels()

            await manager.restart_kernel(now=False)
            second = manager.provisioner.pid
            assert second != first and isinstance(manager.provisioner.process, ForkedProcess)
            assert (await _run(manager, READ_KERNEL))["pid"] == second
            assert _gone(first)

            os.kill(second, signal.SIGKILL)
            deadline = time.monotonic() + 30
            while await manager.is_alive():
                assert time.monotonic() < deadline, "the killed kernel still counts as alive"
                await asyncio.sleep(0.05)
        finally:
            await manager.shutdown_kernel(now=True)
        assert _gone(second)

    try:
        asyncio.run(scenario())
    finally:
        forker.close()


def test_kernels_stop_with_their_fork_server(tmp_path: Path) -> None:
    """A fork server whose server is gone (its socket closed) ends, and its kernels see
    their parent gone and stop: nothing is left behind by a server killed outright."""
    forker = KernelForker(_kernel_cmd()[:2], preload=PRELOAD)

    async def start() -> tuple[Any, int]:
        manager = _manager(Parent(forker), tmp_path)
        await manager.start_kernel(env=dict(os.environ), cwd=str(tmp_path))
        await _run(manager, "out = '{}'")
        return manager, manager.provisioner.pid

    manager, pid = asyncio.run(start())
    process = manager.provisioner.process
    try:
        forker.close()
        assert process.wait(timeout=30) is not None
        assert _gone(pid)
    finally:
        # The kernel went with its fork server; its manager's control socket and zmq
        # context go now. Left to the garbage collector, the context's finalizer waits for
        # ever for the socket that is garbage with it (pyzmq's Context.__del__ calls
        # term(); clean run 94 hung there, in the next test).
        asyncio.run(manager.cleanup_resources())


def test_a_broken_fork_server_lets_kernels_start_the_usual_way(tmp_path: Path) -> None:
    """A fork server that died: the next kernel starts the usual way (a subprocess), and
    the forker says it is broken and why."""
    from nidavellir.classroom.server.forks import ForkError

    forker = KernelForker(_kernel_cmd()[:2], preload=())
    os.kill(forker.pid, signal.SIGKILL)
    forker._process.wait()
    with pytest.raises(ForkError, match="fork server"):
        forker.fork(["-f", str(tmp_path / "k.json")], dict(os.environ), str(tmp_path))
    assert forker.broken and forker.kernel_args(_kernel_cmd()) is None

    async def scenario() -> bool:
        manager = _manager(Parent(forker), tmp_path)
        await manager.start_kernel(env=dict(os.environ), cwd=str(tmp_path))
        try:
            await _run(manager, "out = '{}'")
            return isinstance(manager.provisioner.process, ForkedProcess)
        finally:
            await manager.shutdown_kernel(now=True)

    try:
        assert asyncio.run(scenario()) is False
    finally:
        forker.close()


def test_the_fork_server_started_early_is_taken_only_as_one_started_now_would_be(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A class's server starts its fork server before its own imports (``python -m
    nidavellir.classroom.server``: :func:`forks.start_early`): only for a class with kernels
    forked, never with the passwords in its environment; the kernel manager takes it only
    for the interpreter it would start one for and the environment the server has then,
    and ends it otherwise."""
    from jupyter_client.kernelspec import KernelSpecManager

    split = split_command(KernelSpecManager().get_kernel_spec("python3").argv)
    assert split is not None
    interpreter = split[0]
    size = forks.CLASS_SIZE_OPTION
    assert forks.start_early(["notebooks"]) is None  # no class
    assert forks.start_early([f"{size}0"]) is None
    assert forks.start_early([f"{size}2", "--ClassKernelManager.fork_kernels=False"]) is None
    assert forks.take_early(interpreter) is None

    monkeypatch.setenv("NIDAVELLIR_PASSWORD", "dwarves-early")
    monkeypatch.setenv("NIDAVELLIR_TEACHER_PASSWORD", "runes-early")
    ended: list[KernelForker] = []
    try:
        first = forks.start_early([f"{size}2"])
        assert first is not None
        environ = Path(f"/proc/{first.pid}/environ").read_bytes()
        assert b"dwarves" not in environ and b"runes" not in environ
        assert b"NIDAVELLIR_PASSWORD" not in environ
        ended.append(first)
        assert forks.take_early([sys.executable, "-X", "dev"]) is None  # another interpreter
        assert first.broken == "closed" and first._process.poll() is not None

        second = forks.start_early([f"{size}2"])
        assert second is not None
        ended.append(second)
        # The server has not taken the passwords out of its environment: not the same.
        assert forks.take_early(interpreter) is None and second._process.poll() is not None

        third = forks.start_early([f"{size}2"])
        assert third is not None
        ended.append(third)
        monkeypatch.delenv("NIDAVELLIR_PASSWORD")
        monkeypatch.delenv("NIDAVELLIR_TEACHER_PASSWORD")  # as the server does as it starts
        assert forks.take_early(interpreter) is third and third.broken is None
        assert forks.take_early(interpreter) is None  # once
        # One that no kernel manager takes ends when the server starts, at once.
        fourth = forks.start_early([f"{size}2"])
        assert fourth is not None
        ended.append(fourth)
        forks.discard_early()
        assert fourth._process.poll() is not None and forks.take_early(interpreter) is None
    finally:
        forks.discard_early()
        for forker in ended:
            forker.close()


def test_a_malformed_request_is_refused_and_the_next_one_served(tmp_path: Path) -> None:
    """The fork server answers a request it cannot read with an error naming what is
    wrong, and goes on serving."""
    from nidavellir.classroom.server.forks import ForkError

    forker = KernelForker(_kernel_cmd()[:2], preload=())
    try:
        with pytest.raises(ForkError, match="'cwd' must be a folder"):
            forker.fork(["-f", "x.json"], {}, str(tmp_path / "nowhere"))
        assert forker.broken is None
        # A variable read as modules are imported, given otherwise than the fork server
        # had it: not forked (the kernel would not see it), named; the next one is.
        with pytest.raises(ForkError, match="NIDAVELLIR_PLUGINS differs"):
            forker.fork(["--version"], dict(os.environ, NIDAVELLIR_PLUGINS="other.module"),
                        str(tmp_path))
        assert forker.broken is None
        pid = forker.fork(["--version"], dict(os.environ), str(tmp_path))
        assert ForkedProcess(pid).wait(timeout=30) is not None  # printed, and ended
    finally:
        forker.close()


READ_WIDGETS = """
import json
from widgets.dashboard import dashboard
from widgets.language import page
import comm, widgets.iopub
kernel = get_ipython().kernel
app = page(dashboard)
out = json.dumps({"targets": sorted(comm.get_comm_manager().targets),
                  "comm": type(app.comm).__name__,
                  "hwm": kernel.iopub_thread.socket.getsockopt(__import__("zmq").SNDHWM)})
"""


def test_a_forked_kernel_with_the_page_preloaded_serves_widgets_as_a_started_one(
        tmp_path: Path) -> None:
    """With ipywidgets and the lab's page imported before the fork (the server's
    preload), a forked kernel is set up as a started one is by those imports: the
    widget comm targets registered, widgets on real comms, the IOPub limit lifted."""
    forker = KernelForker(_kernel_cmd()[:2])  # the server's preload and after-start hooks

    async def read(parent: Parent, name: str) -> dict[str, Any]:
        (tmp_path / name).mkdir()
        manager = _manager(parent, tmp_path / name)
        await manager.start_kernel(env=dict(os.environ), cwd=str(tmp_path))
        try:
            info = await _run(manager, READ_WIDGETS)
            info["forked"] = isinstance(manager.provisioner.process, ForkedProcess)
            return info
        finally:
            await manager.shutdown_kernel(now=True)

    try:
        forked = asyncio.run(read(Parent(forker), "forked"))
        started = asyncio.run(read(Parent(None), "started"))
    finally:
        forker.close()
    assert forked.pop("forked") and not started.pop("forked")
    assert forked == started
    assert {"jupyter.widget", "jupyter.widget.control"} <= set(forked["targets"])
    assert forked["comm"] != "DummyComm" and forked["hwm"] == 0  # a real comm; no limit


READ_LESSONS = """
import json
from nidavellir import lessons
out = json.dumps(sorted({key[1] for key in lessons._CACHE}))
"""


@pytest.mark.slow(reason="two fork servers, each importing ipykernel, the page and the engine, "
                        "and three kernels: 1.6 to 2.4 s of CPU")
def test_a_forked_kernel_starts_with_the_lessons_read(tmp_path: Path, capfd: Any,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The fork server reads the lab's lessons once, in the server's language, before it
    forks (``WARM``): a forked kernel finds them read (a kernel started the usual way reads
    them when its page first needs them, a tenth of a second of its start). A warm-up that
    fails is reported, and the fork server warms up the rest and forks all the same."""

    async def read(parent: Parent, name: str) -> tuple[Any, bool]:
        """The languages of the lessons a kernel has read as it starts, and whether it
        was forked."""
        (tmp_path / name).mkdir()
        manager = _manager(parent, tmp_path / name)
        await manager.start_kernel(env=dict(os.environ), cwd=str(tmp_path))
        try:
            return (await _run(manager, READ_LESSONS),
                    isinstance(manager.provisioner.process, ForkedProcess))
        finally:
            await manager.shutdown_kernel(now=True)

    assert forks.WARM == ("nidavellir.lessons:warm",)
    monkeypatch.delenv("NIDAVELLIR_LANGUAGE", raising=False)
    forker = KernelForker(_kernel_cmd()[:2])  # the server's preload and warm-up
    # A warm-up that fails first: the one after it still runs.
    german = KernelForker(_kernel_cmd()[:2], env={**os.environ, "NIDAVELLIR_LANGUAGE": "de"},
                          warm=("nidavellir.lessons:no_such_warm_up", *forks.WARM))
    try:
        assert asyncio.run(read(Parent(forker), "forked")) == (["en"], True)
        assert asyncio.run(read(Parent(None), "started")) == ([], False)
        monkeypatch.setenv("NIDAVELLIR_LANGUAGE", "de")  # the kernel's, as its fork server's
        assert asyncio.run(read(Parent(german), "german")) == (["de"], True)
        assert german.broken is None
    finally:
        forker.close()
        german.close()
    assert "nidavellir.lessons:no_such_warm_up failed in the warm-up" in capfd.readouterr().err


def test_the_modules_that_act_on_a_kernel_as_they_are_imported_are_known() -> None:
    """A module of the lab's page that installs something as it is imported (a module-level
    ``install()``) is either re-run in each forked kernel (``AFTER_START``) or acts on
    classes only (the same before and after a fork): a new one must be sorted here."""
    import ast

    root = Path(__file__).resolve().parent.parent / "widgets"
    installing = set()
    for path in root.glob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                    and isinstance(node.value.func, ast.Name)):
                installing.add(f"widgets.{path.stem}")
    rerun = {h.partition(":")[0] for h in forks.AFTER_START if h.startswith("widgets.")}
    classes_only = {"widgets.tooltips", "widgets.widget_states"}
    assert installing == rerun | classes_only, installing ^ (rerun | classes_only)


def test_the_preload_makes_no_widget_and_starts_no_thread() -> None:
    """What the fork server imports, and its warm-up, leave nothing a fork would break: no
    widget (its comm would be a dummy in every kernel), no thread (a fork keeps only the
    forking one)."""
    import subprocess

    probe = (
        "import importlib, json, threading, sys\n"
        f"for name in {list(forks.PRELOAD)!r}: importlib.import_module(name)\n"
        f"for hook in {list(forks.WARM)!r}:\n"
        "    name, _, function = hook.partition(':')\n"
        "    getattr(sys.modules[name], function)()\n"
        "from ipywidgets.widgets import widget\n"
        "print(json.dumps([len(widget._instances), threading.active_count()]))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, cwd="/")
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [0, 1]


@pytest.mark.slow(reason="a class server of 3 forked kernels, 3 dashboards rendered")
def test_pages_that_come_with_the_server_take_its_forked_pool_kernels(tmp_path: Path) -> None:
    """The class comes back with its server (a restart): pages asked for as soon as the
    server answers take the pool's kernels, forked, in turn; none starts a kernel of its
    own beside the pool (issue 58: 30 pages started 30 more kernels, every page came back
    when all 60 were ready)."""
    import concurrent.futures
    import urllib.request

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from servers import start_voila, stop_voila, wait_until

    server = start_voila("notebooks", tmp_path, extra=["--class-size", "3"])
    try:
        def page(_: int) -> str:
            url = server.render_url("dashboard.ipynb")
            with urllib.request.urlopen(url, timeout=300) as response:
                return str(response.read().decode())

        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            pages = list(pool.map(page, range(3)))
        kernels = {p.split('"kernelId": "', 1)[1][:36] for p in pages}
        assert len(kernels) == 3
        wait_until(lambda: "*** The class can come in" in server.log(), "the class is ready")
        log = server.log()
        assert log.count("Using pre-heated kernel") == 3, log[-3000:]
        assert server.kernel_count() == 3  # the pool's, no page's own
        assert "Kernels start as forks of process" in log
        tree = {p.pid: _command(p)
                for p in psutil.Process(server.process.pid).children(recursive=True)}
        forked = [pid for pid, cmd in tree.items() if "forkserver" in " ".join(cmd)]
        assert len(forked) == 1
        kernels = {pid for pid, cmd in tree.items() if "ipykernel_launcher" in cmd}
        assert len(kernels) == 3
        assert kernels <= {c.pid for c in psutil.Process(forked[0]).children()}
    finally:
        stop_voila(server)


def test_an_edited_source_gets_a_fresh_fork_server(tmp_path: Path, monkeypatch: Any) -> None:
    """A kernel forked after an edit of a preloaded module would run the code from before
    the edit. The fork server refuses (stale, naming the file); the class manager starts a
    fresh one, whose kernels import the edited code, and keeps the old one for the kernels
    it forked until the server stops."""
    from nidavellir.classroom.server import kernels
    from nidavellir.classroom.server.forks import ForkStale

    (tmp_path / "nid_fork_probe.py").write_text("VALUE = 'before'\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    made: list[KernelForker] = []

    def forker(interpreter: list[str]) -> KernelForker:
        made.append(KernelForker(interpreter, preload=(*PRELOAD, "nid_fork_probe"), env=env))
        return made[-1]

    monkeypatch.setattr(kernels, "KernelForker", forker)
    manager = kernels.ClassKernelManager(page_timeout=0)

    async def value() -> str:
        folder = tmp_path / f"kernel{len(list(tmp_path.glob('kernel*')))}"
        folder.mkdir()
        page = _manager(Delegate(manager), folder)
        await page.start_kernel(env=env, cwd=str(tmp_path))
        try:
            got = await _run(page, "import json, nid_fork_probe\n"
                                   "out = json.dumps({'v': nid_fork_probe.VALUE})")
            assert isinstance(page.provisioner.process, ForkedProcess)
            return str(got["v"])
        finally:
            await page.shutdown_kernel(now=True)

    try:
        assert asyncio.run(value()) == "before"
        (tmp_path / "nid_fork_probe.py").write_text("VALUE = 'after'\n")
        # The next page's kernel: refused by the first fork server, forked by a fresh one.
        assert asyncio.run(value()) == "after"
        assert len(made) == 2 and made[0]._process.poll() is None  # the old one stays, for now
        assert made[0].stale is not None and made[0].stale.endswith("nid_fork_probe.py")
        with pytest.raises(ForkStale, match="nid_fork_probe.py"):
            made[0].fork(["-f", str(tmp_path / "k.json")], env, str(tmp_path))
        # Its one kernel is shut down: the stale fork server is ended at the next look
        # (each new kernel, and the page check every few seconds); the fresh one stays.
        manager._close_retired()
        assert made[0]._process.wait(timeout=30) is not None
        assert made[1]._process.poll() is None
    finally:
        manager.close_forker()
    assert all(f._process.poll() is not None for f in made)


def test_a_forked_kernel_lifts_the_iopub_limit_when_its_first_cell_runs(
        monkeypatch: Any) -> None:
    """Imported by the notebook's first cell, widgets/iopub.py lifts the IOPub limit for
    the subscribers connected by then (the notebook run's and the server's). A forked
    kernel has it imported already: its start arranges the same moment (the first cell's
    ``pre_execute``), not the kernel's start, when nobody has connected yet."""
    from IPython.core.events import EventManager, available_events

    from widgets import iopub

    class Shell:
        events = EventManager(None, available_events)  # type: ignore[arg-type]

    class Kernel:
        shell = Shell()

    lifted: list[str] = []

    def install() -> bool:
        lifted.append("now")
        return True

    monkeypatch.setattr(iopub, "_kernel", lambda: Kernel())
    monkeypatch.setattr(iopub, "install", install)
    assert iopub.install_at_first_cell()
    assert lifted == []  # the kernel started: nobody to lift it for yet
    Shell.events.trigger("pre_execute")
    Shell.events.trigger("pre_execute")
    assert lifted == ["now"]  # at the first cell, once


def test_a_forked_process_is_followed_as_popen_follows_its_child() -> None:
    """``ForkedProcess`` answers as ``subprocess.Popen`` does for a process that is not its
    child: running (``poll`` None, ``wait`` with a timeout that passes), ended by a signal
    it sent (its return code minus that signal), a signal to an ended process ignored,
    and a process already gone."""
    import subprocess

    # A process that runs until its input ends (its stdin is never written).
    sleeper = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                               stdin=subprocess.PIPE)
    try:
        process = ForkedProcess(sleeper.pid)
        assert process.poll() is None
        with pytest.raises(subprocess.TimeoutExpired):
            process.wait(timeout=0.05)
        process.terminate()
        sleeper.wait(timeout=30)  # reaped by its parent (this test), as the fork server does
        assert process.wait(timeout=30) == -signal.SIGTERM
        process.kill()  # ended: nothing to signal, no error
        process.send_signal(signal.SIGINT)
        assert process.poll() == -signal.SIGTERM
    finally:
        sleeper.kill()
        sleeper.wait()
        assert sleeper.stdin is not None
        sleeper.stdin.close()
    gone = ForkedProcess(sleeper.pid)  # an ended (and reaped) process: ended at once
    assert gone.poll() == 1 and gone.wait() == 1
    assert forks.forking_possible() is forks.forking_possible()  # probed once


def test_the_fork_server_names_what_is_wrong_with_a_request(tmp_path: Path) -> None:
    """Each malformed request is refused with its fault named, and the fork server goes on;
    a module it could not preload is reported and left to the kernels."""
    import json as json_module

    from nidavellir.classroom.server.forks import ForkError

    forker = KernelForker(_kernel_cmd()[:2], preload=("nid_no_such_module",))
    try:
        forker.fork(["--version"], dict(os.environ), str(tmp_path))  # after its preload
        for request, fault in (({"args": "-f x", "env": {}, "cwd": "/"}, "'args' must be"),
                               ({"args": [], "env": {"A": 1}, "cwd": "/"}, "'env' must map"),
                               ([1, 2], "a JSON object"), ("{", "malformed request")):
            line = request if isinstance(request, str) else json_module.dumps(request)
            with forker._lock:
                forker._conn.sendall(line.encode() + b"\n")
                reply = forker._read(30)
            assert fault in reply.get("error", ""), (request, reply)
        assert forker.broken is None
        ForkedProcess(forker.fork(["--version"], dict(os.environ), str(tmp_path))).wait(30)
    finally:
        forker.close()
    with pytest.raises(ForkError, match="closed"):
        forker.fork(["--version"], dict(os.environ), str(tmp_path))
