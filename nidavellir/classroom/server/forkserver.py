"""The lab server's kernel fork server: a process that has imported what every page's kernel
imports, and becomes a new kernel by forking itself.

A page's kernel started the usual way (``python -m ipykernel_launcher -f …``) spends most of
its start importing: the interpreter, ipykernel and IPython (the debugger's debugpy too),
jupyter_client, ZeroMQ, ipywidgets, the lab's page, the engine and the bots: most of the
0.59 s of a core its start and the dashboard's run took (median; forked, 0.21 s). A class
of 30 pages coming back after a restart asks two cores for 30 of those at once. This
process imports them once (``--preload``), then waits for requests on a socket (``--fd``,
one end of a socket pair whose other end the server holds: :mod:`.forks`); each request
(one JSON line: the kernel's arguments after ``-m ipykernel_launcher``, its environment
and its folder) is answered with the process id of a child that goes on as that kernel,
exactly as ``ipykernel_launcher`` would have, without importing again; what the preloaded
modules do on import inside a kernel is done once the kernel has started
(``--after-start``), and what every page does at its start and keeps (the lessons read and
checked) is done here once (``--warm``). The children share the imported modules' memory
with this process until they change it.

A preloaded source file edited since (a developer's ``make run``) makes it refuse to fork
(``{"stale": path}``): the server starts a fresh fork server, so that a page opened after
an edit runs the edited code, as a kernel started the usual way would.

It leaves when the server's end of the socket closes (the server stopped, or died); its
kernels then see their parent gone and stop too (ipykernel's parent poller: their
``JPY_PARENT_PID`` is this process). It is run by :class:`.forks.KernelForker`
(``python -m nidavellir.classroom.server.forkserver``), never imported by the server. Its
own imports are the standard library's and the ``nidavellir`` package's (which its
module's path imports first): neither starts a thread or opens a file.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import importlib
import json
import os
import signal
import socket
import sys
import traceback
from pathlib import Path
from typing import Any, NoReturn

#: What a child runs: ipykernel's own entry point (``ipykernel_launcher``'s).
KERNEL_MODULE = "ipykernel.kernelapp"
#: The interpreter's part of the kernels' command (``--interpreter``): their title.
_INTERPRETER: list[str] = []
#: What preloaded modules do on import in a kernel, to do once the kernel has started.
_AFTER_START: list[str] = []


def _preload(names: list[str]) -> None:
    """Import every module named; one that fails is reported and left to the kernels (they
    will import it themselves, or fail there as they would have anyway)."""
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 - the kernel reports it the usual way
            print(f"kernel fork server: could not preload {name}: {exc}", file=sys.stderr,
                  flush=True)


def _call(hooks: list[str], where: str) -> None:
    """Call each ``module:function`` of ``hooks`` whose module was preloaded (one that was
    not is the kernel's to import, and it acts as it is imported then); one that fails is
    reported, and the process goes on as it would have without it."""
    for hook in hooks:
        name, _, function = hook.partition(":")
        module = sys.modules.get(name)
        if module is None:
            continue
        try:
            getattr(module, function)()
        except Exception:  # noqa: BLE001 - reported; what it would have saved is done later
            print(f"kernel fork server: {hook} failed {where}:", file=sys.stderr)
            traceback.print_exc()
            sys.stderr.flush()


def _after_start() -> None:
    """Run, in the kernel now started, what the preloaded modules do on import inside a
    kernel (``--after-start``: ``module:function``, for the modules preloaded only)."""
    _call(_AFTER_START, "in the kernel")


def _own_title(argv: list[str]) -> bool:
    """Show ``argv`` as this process's command line (``ps``, ``/proc/<pid>/cmdline``): a
    forked kernel shows its kernel's command (``… -m ipykernel_launcher -f …``), not the
    fork server's. Written over the process's own argument area, which the fork server's
    ``--room`` made long enough (what does not fit is cut); False where that area cannot
    be found (not Linux)."""
    try:
        with open("/proc/self/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        # Fields 48 and 49 of proc(5) (arg_start, arg_end); the split starts at field 3.
        start, end = int(fields[45]), int(fields[46])
    except (OSError, IndexError, ValueError):
        return False
    if start <= 0 or end <= start:
        return False
    import ctypes

    title = b"\0".join(a.encode(errors="replace") for a in argv)[:end - start - 1]
    ctypes.memmove(start, title.ljust(end - start, b"\0"), end - start)
    return True


def _become_kernel(request: dict[str, Any], conn: socket.socket, reader: Any) -> NoReturn:
    """In the forked child: become the kernel ``request`` describes, then leave."""
    code = 1
    try:
        reader.close()
        conn.close()
        os.setsid()  # its own process group, as jupyter_client starts a kernel
        # What this process changed, back as a started interpreter has it (the others,
        # such as a coverage run's SIGTERM handler, are the interpreter's own).
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        # ipykernel's parent poller: the kernel stops when this process is gone.
        os.environ["JPY_PARENT_PID"] = str(os.getppid())
        args = [str(a) for a in request["args"]]
        sys.argv = ["ipykernel_launcher", *args]
        _own_title([*_INTERPRETER, "-m", "ipykernel_launcher", *args])
        kernelapp: Any = importlib.import_module(KERNEL_MODULE)
        # Two defaults ipykernel read from the environment when it was imported (here,
        # before the fork), given for this kernel.
        app = kernelapp.IPKernelApp.instance(
            parent_handle=os.getppid(),
            interrupt=int(os.environ.get("JPY_INTERRUPT_EVENT") or 0))
        app.initialize(args)
        _after_start()
        app.start()
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException:  # noqa: BLE001 - reported; the server sees the kernel die
        traceback.print_exc()
    finally:
        try:
            atexit._run_exitfuncs()  # the kernel's own (IPython's history, logging)
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


#: The source files of what was preloaded, outside the interpreter's own folders (the lab's
#: modules, an editable install), with their times of change when they were imported.
_WATCHED: dict[str, tuple[int, int, int]] = {}


def _watch() -> None:
    """Note the preloaded modules' files that may be edited while the server runs."""
    installed = {os.path.realpath(p) + os.sep
                 for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if not isinstance(path, str):
            continue
        real = os.path.realpath(path)
        if real.startswith(tuple(installed)):
            continue
        try:
            _WATCHED[real] = _stamp(real)
        except OSError:
            continue


def _changed() -> str | None:
    """A preloaded source file edited (or removed) since it was imported, or None."""
    for path, stamp in _WATCHED.items():
        try:
            if _stamp(path) != stamp:
                return path
        except OSError:
            return path
    return None


def _stamp(path: str) -> tuple[int, int, int]:
    """A file's time of change, size and inode (an edit within one tick of the clock
    changes the size, an editor's save-by-rename the inode)."""
    st = os.stat(path)
    return st.st_mtime_ns, st.st_size, st.st_ino


#: Variables read as modules are imported or the interpreter starts (the lab's plugins and
#: build, Python's own, the widgets' echo, the debugger's): a kernel whose environment
#: gives them other values than this process had is not forked (it would not see them).
IMPORT_TIME_PREFIXES = ("NIDAVELLIR_", "PYTHON", "JUPYTER_WIDGETS_", "PYDEVD")
_STARTED_WITH: dict[str, str] = {}


def _differs(env: dict[str, str]) -> str | None:
    """The first import-time variable whose value ``env`` gives differently, or None."""
    for key in sorted(set(env) | set(_STARTED_WITH)):
        if key.startswith(IMPORT_TIME_PREFIXES) and env.get(key) != _STARTED_WITH.get(key):
            return key
    return None


def _answer(conn: socket.socket, reply: dict[str, Any]) -> None:
    conn.sendall(json.dumps(reply).encode() + b"\n")


def _check(request: Any) -> dict[str, Any]:
    """The request, or ValueError naming what is wrong with it."""
    if not isinstance(request, dict):
        raise ValueError("a request is a JSON object")
    args, env, cwd = request.get("args"), request.get("env"), request.get("cwd")
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise ValueError("'args' must be a list of strings")
    if not isinstance(env, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                            for k, v in env.items()):
        raise ValueError("'env' must map strings to strings")
    if not isinstance(cwd, str) or not os.path.isdir(cwd):
        raise ValueError(f"'cwd' must be a folder: {cwd!r}")
    return request


def serve(conn: socket.socket) -> None:
    """Answer fork requests until the server's end closes."""
    reader = conn.makefile("rb")
    _answer(conn, {"ready": os.getpid()})
    for line in reader:
        try:
            request = _check(json.loads(line))
        except ValueError as exc:  # json's errors are ValueErrors too
            _answer(conn, {"error": f"malformed request: {exc}"})
            continue
        changed = _changed()
        if changed is not None:
            # A kernel forked now would run the code from before the edit: the server
            # starts a fresh fork server. This one forks no more, and stays while its
            # kernels live (they stop when it goes).
            _answer(conn, {"stale": changed})
            continue
        differs = _differs(request["env"])
        if differs is not None:
            _answer(conn, {"error": f"{differs} differs from the fork server's (read as "
                                    "modules are imported): this kernel starts the usual way"})
            continue
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            pid = os.fork()
        except OSError as exc:
            _answer(conn, {"error": f"fork failed: {exc}"})
            continue
        if pid == 0:
            _become_kernel(request, conn, reader)
        _answer(conn, {"pid": pid})


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m nidavellir.classroom.server.forkserver",
                                     description="Start the lab's kernels by forking.")
    parser.add_argument("--fd", type=int, required=True,
                        help="the file descriptor of this end of the server's socket pair")
    parser.add_argument("--preload", default="",
                        help="modules to import before forking, separated by commas")
    parser.add_argument("--interpreter", default="[]",
                        help="the kernels' command before '-m ipykernel_launcher' (JSON)")
    parser.add_argument("--after-start", default="",
                        help="module:function to call in each kernel once it has started, "
                             "for the preloaded modules that act on a kernel as they are "
                             "imported (separated by commas)")
    parser.add_argument("--warm", default="",
                        help="module:function to call once after the preload, before any "
                             "fork, for work every kernel would otherwise do itself at its "
                             "start (separated by commas; only for preloaded modules)")
    parser.add_argument("--room", default="",
                        help="blank room for the kernels' command lines (see _own_title)")
    options = parser.parse_args(argv)
    _INTERPRETER[:] = [str(a) for a in json.loads(options.interpreter)]
    _AFTER_START[:] = [h.strip() for h in options.after_start.split(",") if h.strip()]
    shown = list(sys.orig_argv)
    if "--room" in shown:  # its blanks are room, not something to show
        del shown[shown.index("--room"):shown.index("--room") + 2]
    _own_title(shown)
    # As ipykernel_launcher does: the folder it was started in is not on the path (the
    # kernel's IPython puts the kernel's own folder back).
    if sys.path and (sys.path[0] == "" or Path(sys.path[0]) == Path.cwd()):
        del sys.path[0]
    # Ctrl+C in the teacher's terminal is the server's to handle; ended children are reaped
    # by the system (their end is seen through their process ids: forks.ForkedProcess).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    conn = socket.socket(fileno=options.fd)
    _STARTED_WITH.update(os.environ)
    _preload([n for n in options.preload.split(",") if n.strip()])
    # Work every kernel's page does at its start and keeps (the lessons read and checked),
    # done once here: each child starts with it done.
    _call([h.strip() for h in options.warm.split(",") if h.strip()], "in the warm-up")
    # What was imported stays out of the children's garbage collections, so that they
    # share its memory instead of copying the pages a collection would touch.
    _watch()
    gc.collect()
    gc.freeze()
    try:
        serve(conn)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server is gone


if __name__ == "__main__":
    main()
