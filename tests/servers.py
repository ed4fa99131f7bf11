"""A Voila server started from the project's files on a free local port, and stopped (with
its kernels) by process id: for the browser tests and the classroom server tests.

Facts from docs/serving.md ("What is known of Voila here"): bind 127.0.0.1:0 for a free port and pass
``--Voila.port_retries=0``; the server is ready when ``/voila/static/voila.js`` answers;
stop it with SIGTERM then SIGKILL and end leftover kernels.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: The longest a test waits for a state (a server ready, a page shown, a kernel ended)
#: before it fails: a safety net for a state that never comes, never a speed goal. The
#: tests wait for states, never for a fixed time, so a busy machine (other processes on
#: its cores) makes them slower, not red. NIDAVELLIR_TEST_PATIENCE=S changes it.
PATIENCE_S = float(os.environ.get("NIDAVELLIR_TEST_PATIENCE", "240"))


def wait_until(ready: Any, what: str, patience: float = PATIENCE_S, every: float = 0.1) -> None:
    """Wait for the state ``ready()`` (true); AssertionError naming ``what`` after
    ``patience`` seconds."""
    deadline = time.monotonic() + patience
    while not ready():
        assert time.monotonic() < deadline, f"{what}: not so after {patience:.0f} s"
        time.sleep(every)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class VoilaServer:
    port: int
    process: subprocess.Popen[bytes]
    log_path: Path
    #: What a fixture observed (e.g. the pool kernels' state when the class was let in).
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def render_url(self, notebook: str) -> str:
        return f"{self.url}/voila/render/{notebook}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kernel_count(self) -> int:
        """Kernels alive under the server (children running ipykernel)."""
        return len(self.kernel_connection_files())

    def kernel_connection_files(self) -> dict[str, Path]:
        """Kernel id -> connection file of each kernel process alive under the server."""
        import psutil

        try:
            parent = psutil.Process(self.process.pid)
            children = parent.children(recursive=True)
        except psutil.NoSuchProcess:
            return {}
        found: dict[str, Path] = {}
        for child in children:
            with contextlib.suppress(psutil.Error):
                cmd = child.cmdline()
                if "ipykernel_launcher" in cmd and "-f" in cmd:
                    path = Path(cmd[cmd.index("-f") + 1])
                    found[path.stem.removeprefix("kernel-")] = path
        return found

    def widget_comms(self, kernel_id: str, timeout: float = 30) -> int:
        """How many widgets the kernel holds (its open ``jupyter.widget`` comms), asked
        over its own ZMQ channels (not through the server)."""
        from jupyter_client import BlockingKernelClient

        client = BlockingKernelClient(connection_file=str(self.kernel_connection_files()[kernel_id]))
        client.load_connection_file()
        client.start_channels()
        try:
            msg_id = client.comm_info(target_name="jupyter.widget")
            while True:
                reply = client.get_shell_msg(timeout=timeout)
                if reply["parent_header"].get("msg_id") == msg_id:
                    return len(reply["content"]["comms"])
        finally:
            client.stop_channels()


#: The environment variables that carry the server's secrets (the log scan looks for them).
SECRET_VARIABLES = ("NIDAVELLIR_PASSWORD", "NIDAVELLIR_TEACHER_PASSWORD")
#: A ``token=`` in a log line that is not hidden (``[secret]``) nor Voila's ``...``.
_TOKEN_IN_LOG = re.compile(r"token=(?!\[secret\]|\.\.\.)[^&\s'\"\\]+")


def secrets_in(text: str, secrets: list[str]) -> list[str]:
    """The lines of ``text`` that show a secret: one of ``secrets``, or a ``token=``
    value that is not hidden (each line shown with the secret starred out)."""
    found = []
    for line in text.splitlines():
        if any(s and s in line for s in secrets) or _TOKEN_IN_LOG.search(line):
            shown = line
            for s in secrets:
                shown = shown.replace(s, "*" * len(s)) if s else shown
            found.append(_TOKEN_IN_LOG.sub("token=***", shown)[:300])
    return found


def catches(pid: int, signum: int) -> bool:
    """Whether process ``pid`` has a handler for ``signum`` (Linux: /proc/PID/status)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("SigCgt:"):
                return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    return False


def without_secrets(text: str, secrets: list[str]) -> str:
    """``text`` with each of ``secrets`` starred out and every ``token=`` value hidden
    (what a failed test keeps in its artefacts: a page's requests, a server's log)."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "*" * len(secret))
    return _TOKEN_IN_LOG.sub("token=***", text)


def _measured() -> bool:
    """Whether this run measures coverage (``make coverage``)."""
    coverage = sys.modules.get("coverage")
    return coverage is not None and coverage.Coverage.current() is not None


def start_voila(target: str, tmp: Path, extra: list[str] | None = None,
                env: dict[str, str] | None = None, port: int | None = None) -> VoilaServer:
    """The server (``python -m nidavellir.serve TARGET --port P EXTRA``); ``env`` adds to
    its environment (the passwords: ``NIDAVELLIR_PASSWORD``, ``NIDAVELLIR_TEACHER_PASSWORD``).
    ``port``: a port of the caller's (a server restarted where its pages expect it), else
    a free one. Its secrets are noted: :func:`stop_voila` fails if its log shows one."""
    port = free_port() if port is None else port
    log_path = tmp / f"voila-{port}-{time.monotonic_ns()}.log"
    log = log_path.open("wb")
    # Each kernel's comm trace (widgets/diagnostics.py): read by a failed test's artefacts.
    comms = tmp / f"comms-{port}-{time.monotonic_ns()}.log"
    env = dict(os.environ, PYTHONUNBUFFERED="1", JUPYTER_PLATFORM_DIRS="1",
               NIDAVELLIR_TRACE_COMMS=str(comms), **(env or {}))
    cmd = [sys.executable, "-m", "nidavellir.serve", target, "--port", str(port), *(extra or [])]
    if _measured():
        # `make coverage`: kernels asked to end, not killed, so that they write their data.
        cmd.append("--ClassKernelManager.end_kernels_at_once=False")
    process = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                               start_new_session=True, env=env)
    server = VoilaServer(port=port, process=process, log_path=log_path)
    server.notes["secrets"] = [env[v] for v in SECRET_VARIABLES if env.get(v)]
    server.notes["comms"] = comms
    deadline = time.monotonic() + PATIENCE_S
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
    raise RuntimeError(f"Voila did not answer within {PATIENCE_S:.0f} s:\n{server.log()}")


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
    # No test's server may show a password or a token in its output (issue 58).
    shown = secrets_in(server.log(), server.notes.get("secrets", []))
    assert not shown, "the server's output shows a secret:\n" + "\n".join(shown[:10])
