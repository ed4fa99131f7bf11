"""Serve the notebooks as a Voila dashboard: ``python -m nidavellir.serve`` (``make run``).

Stdlib only: it builds Voila's command line and replaces itself with the lab's Voila
(``python -m nidavellir.integrations.voila_app``: Voila with compressed and cached
responses, plotly and anywidget loaded when first needed, and kernels that leave with their
page; docs/serving.md), so it stays importable from the core package. The options encode
what was measured on the lab's machines (docs/serving.md, "What is known of Voila here"):

- ``--Voila.port_retries=0``: Voila would otherwise move silently to another port;
- kernels leave with their page (the shutdown request of a closed page, a heartbeat and a
  ``--page-timeout`` for pages that vanish); idle-kernel culling stays as a backstop;
- ``--KernelManager.transport=ipc``: many kernels starting at once collide on TCP ports;
- every option at most once: a repeated option gives HTTP 500 on the first page.

Nothing is loaded from a CDN: the ``nidavellir`` template (``share/jupyter`` beside this
module, put on ``JUPYTER_PATH``) is Voila's ``lab`` template without its Font Awesome links
to cdn.jsdelivr.net. The dashboard notebook gets a preheated kernel (``--preheat``): its
first page appears without waiting for a kernel to start; the other notebooks start theirs
on demand.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

#: The folder served by default (relative to the project): the lessons and, later, the
#: dashboard notebook.
DEFAULT_TARGET = "notebooks"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8866
#: The Voila template without CDN links, shipped with the package.
TEMPLATE = "nidavellir"
JUPYTER_DATA = Path(__file__).resolve().parent / "share" / "jupyter"
#: The notebook whose kernels are preheated, and how many wait ready.
DASHBOARD = "dashboard.ipynb"
DEFAULT_POOL_SIZE = 1
#: Seconds before an idle kernel whose page is gone is shut down (a backstop: the kernel of
#: a closed page ends at once, or --page-timeout after its page's last sign).
DEFAULT_CULL_IDLE = 600
DEFAULT_CULL_INTERVAL = 60
#: Seconds a page's kernel lives on without a sign of its page (websocket, heartbeat).
DEFAULT_PAGE_TIMEOUT = 45.0
#: The lab's Voila (nidavellir/integrations/voila_app.py).
VOILA_APP = "nidavellir.integrations.voila_app"


def _key(option: str) -> str:
    return option.split("=", 1)[0]


#: The kernel manager with the class policy (nidavellir/integrations/voila_class.py).
CLASS_MANAGER = "nidavellir.integrations.voila_class.ClassKernelManager"
#: The class password page (the lab's login.html).
CLASS_IDENTITY = "nidavellir.integrations.voila_class.ClassIdentityProvider"
DEFAULT_SPARES = 2
DEFAULT_REFILL_QUIET = 20.0
#: The class password's provider with the teacher page added (--teacher-password).
CLASS_VIEW_IDENTITY = "nidavellir.integrations.class_view.ClassViewIdentityProvider"
#: Where the class's answers go when --teacher-password is given without --class-dir.
DEFAULT_CLASS_DIR = "class"


def voila_args(
    target: str | os.PathLike[str] = DEFAULT_TARGET,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    cull_idle_timeout: int = DEFAULT_CULL_IDLE,
    cull_interval: int = DEFAULT_CULL_INTERVAL,
    extra: Sequence[str] = (),
    pool_size: int = DEFAULT_POOL_SIZE,
    class_size: int = 0,
    password: str = "",
    spares: int = DEFAULT_SPARES,
    refill_quiet: float = DEFAULT_REFILL_QUIET,
    page_timeout: float = DEFAULT_PAGE_TIMEOUT,
    teacher_password: str = "",
    class_dir: str = "",
) -> list[str]:
    """Voila's arguments (without the program name), each option exactly once.

    ``extra`` options (``--Class.trait=value``) replace the defaults of the same name
    instead of repeating them.

    >>> args = voila_args("notebooks", port=9000, extra=["--Voila.port=9001"])
    >>> [a for a in args if a.startswith("--Voila.port=")]
    ['--Voila.port=9001']
    """
    options = [
        f"--Voila.ip={host}",
        f"--Voila.port={port}",
        "--Voila.port_retries=0",
        "--Voila.open_browser=False",
        "--VoilaConfiguration.strip_sources=True",
        "--VoilaConfiguration.show_tracebacks=True",
        f"--MappingKernelManager.cull_idle_timeout={cull_idle_timeout}",
        f"--MappingKernelManager.cull_interval={cull_interval}",
        "--KernelManager.transport=ipc",
        f"--VoilaConfiguration.template={TEMPLATE}",
        # Under a burst of pages a kernel's first output can take longer than nbclient's
        # default 4 s to come back: the page would then stay blank (measured: 3 of 10).
        "--VoilaExecutor.iopub_timeout=60",
        # Kernels leave with their page; pool kernels are never culled.
        f"--VoilaConfiguration.multi_kernel_manager_class={CLASS_MANAGER}",
        f"--ClassKernelManager.page_timeout={page_timeout}",
    ]
    if class_size > 0:
        pool_size = class_size
    if pool_size > 0:
        # Preheat only the dashboard: every other notebook would otherwise hold a pool too.
        pools = {"default": {"pool_size": 0}, DASHBOARD: {"pool_size": pool_size}}
        options += [
            "--VoilaConfiguration.preheat_kernel=True",
            f"--VoilaKernelManager.kernel_pools_config={json.dumps(pools)}",
        ]
        if class_size > 0:
            where = "http://<this machine>" if host in ("0.0.0.0", "::") else f"http://{host}"
            ready = (f"The class can come in: {class_size} dashboards are ready at "
                     f"{where}:{port}/" + (" (with the class password)" if password else ""))
            options += [
                f"--ClassKernelManager.class_size={class_size}",
                f"--ClassKernelManager.spare_kernels={spares}",
                f"--ClassKernelManager.refill_quiet={refill_quiet}",
                f"--ClassKernelManager.ready_message={ready}",
            ]
    if password:
        # Voila's token: /?token=… in the link the teacher hands out, or typed on the login
        # page (the class password); anything else gets the login page and no kernel.
        options += [f"--Voila.token={password}",
                    f"--Voila.identity_provider_class={CLASS_IDENTITY}"]
    if teacher_password:
        # The teacher page (nidavellir/integrations/class_view.py) comes in through the
        # identity provider: the class password's, with the teacher's handlers added.
        options += [f"--Voila.identity_provider_class={CLASS_VIEW_IDENTITY}",
                    f"--ClassViewIdentityProvider.teacher_password={teacher_password}",
                    f"--ClassViewIdentityProvider.class_dir={class_dir}"]
    merged = {_key(o): o for o in options}
    for option in extra:  # the last of an option given several times wins
        merged[_key(option)] = option
    return [str(target), *merged.values()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m nidavellir.serve",
        description="Serve the Nidavellir notebooks with Voila (extra --Class.trait=value "
        "options are passed on to Voila).",
    )
    parser.add_argument("target", nargs="?", default=DEFAULT_TARGET,
                        help="a notebook or a folder of notebooks (default: notebooks/)")
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help="address to listen on (0.0.0.0 serves the whole network)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--cull-idle-timeout", type=int, default=DEFAULT_CULL_IDLE,
                        help="seconds before an idle kernel is shut down")
    parser.add_argument("--cull-interval", type=int, default=DEFAULT_CULL_INTERVAL)
    parser.add_argument("--page-timeout", type=float, default=DEFAULT_PAGE_TIMEOUT,
                        metavar="SECONDS", help="end a page's kernel this long after the last "
                        "sign of its page (closed without a goodbye, or off the network); "
                        "0: only the idle cull")
    parser.add_argument("--preheat", type=int, default=DEFAULT_POOL_SIZE, metavar="N",
                        help=f"kernels kept ready for {DASHBOARD} (0: none)")
    parser.add_argument("--class-size", type=int, default=0, metavar="N",
                        help=f"prepare for a class of N: N {DASHBOARD} kernels warm before "
                        "they come in, no refill while they connect")
    parser.add_argument("--spares", type=int, default=DEFAULT_SPARES, metavar="N",
                        help="with --class-size: kernels kept warm after the class came in")
    parser.add_argument("--refill-quiet", type=float, default=DEFAULT_REFILL_QUIET,
                        metavar="SECONDS", help="with --class-size: refill the pool after "
                        "this long without a new page")
    parser.add_argument("--password", default=os.environ.get("NIDAVELLIR_PASSWORD", ""),
                        help="a class password (also NIDAVELLIR_PASSWORD): pages need it, "
                        "typed on the login page or as ?token=PASSWORD in the link")
    parser.add_argument("--lessons", metavar="DIR",
                        help="a folder of your own lesson files (*.yaml), shown in the "
                        "dashboard beside the lab's (see docs/lessons.md)")
    parser.add_argument("--class-dir", metavar="DIR", default="",
                        help="the class folder: every student's predictions and quiz answers "
                        "go to DIR/answers.sqlite, which the teacher page shows (class mode: "
                        "students may type a name)")
    parser.add_argument("--teacher-password",
                        default=os.environ.pop("NIDAVELLIR_TEACHER_PASSWORD", ""),
                        help="the teacher page's password (also NIDAVELLIR_TEACHER_PASSWORD), "
                        "separate from the class password: the class view at /teacher/ "
                        f"(answers in --class-dir, default {DEFAULT_CLASS_DIR}/)")
    args, extra = parser.parse_known_args(argv)
    if not Path(args.target).exists():
        parser.error(f"{args.target}: no such notebook or folder")
    for name in ("preheat", "class_size", "spares"):
        if getattr(args, name) < 0:
            parser.error(f"--{name.replace('_', '-')} must be 0 or more, not "
                         f"{getattr(args, name)}")
    if args.refill_quiet < 0:
        parser.error(f"--refill-quiet must be 0 or more, not {args.refill_quiet}")
    if args.page_timeout != 0 and args.page_timeout < 20:
        parser.error(f"--page-timeout must be 0 (off) or at least 20 seconds (pages send a "
                     f"heartbeat every 15 s), not {args.page_timeout}")
    if args.password and (len(args.password) < 4 or any(c.isspace() for c in args.password)):
        parser.error("--password needs at least 4 characters and no spaces")
    if args.teacher_password and (len(args.teacher_password) < 4
                                  or any(c.isspace() for c in args.teacher_password)):
        parser.error("--teacher-password needs at least 4 characters and no spaces")
    if args.teacher_password and args.teacher_password == args.password:
        parser.error("--teacher-password must differ from the class password: students know "
                     "that one")
    if args.lessons is not None:
        if not Path(args.lessons).is_dir():
            parser.error(f"--lessons {args.lessons}: no such folder")
        # The kernels read it (nidavellir.lessons.Library): the dashboards list its files.
        os.environ["NIDAVELLIR_LESSONS"] = str(Path(args.lessons).resolve())
    class_dir = args.class_dir or (DEFAULT_CLASS_DIR if args.teacher_password else "")
    if class_dir:
        try:
            Path(class_dir).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            parser.error(f"--class-dir {class_dir}: {exc.strerror or exc}")
        class_dir = str(Path(class_dir).resolve())
        # Every student's kernel writes its answers there (nidavellir.classroom).
        os.environ["NIDAVELLIR_CLASS_DIR"] = class_dir
        if not args.teacher_password:
            print("warning: --class-dir without --teacher-password: answers are stored in "
                  f"{class_dir}, but there is no teacher page", file=sys.stderr, flush=True)
    if args.host not in ("127.0.0.1", "localhost", "::1") and not args.password:
        print("warning: serving on the network with no class password: anyone who can reach "
              f"{args.host}:{args.port} can open a kernel (see README, Serving a class)",
              file=sys.stderr, flush=True)
    command = [sys.executable, "-m", VOILA_APP, *voila_args(
        args.target, args.host, args.port, args.cull_idle_timeout, args.cull_interval, extra,
        args.preheat, args.class_size, args.password, args.spares, args.refill_quiet,
        args.page_timeout, args.teacher_password, class_dir)]
    secret = ("--Voila.token=", "--ClassViewIdentityProvider.teacher_password=")
    shown = [a if not a.startswith(secret) else a.split("=", 1)[0] + "=***"
             for a in command[2:]]
    print("serving:", " ".join(shown), flush=True)
    if args.class_size:
        print(f"preparing {args.class_size} dashboards for the class: wait for \"The class can "
              "come in\"", flush=True)
    if args.teacher_password:
        print(f"the class view: http://{args.host}:{args.port}/teacher/ (teacher password); "
              f"answers in {class_dir}", flush=True)
    paths = [str(JUPYTER_DATA), *filter(None, os.environ.get("JUPYTER_PATH", "").split(os.pathsep))]
    os.environ["JUPYTER_PATH"] = os.pathsep.join(dict.fromkeys(paths))
    # Replace this process so signals (Ctrl-C, kill of the process group) reach Voila.
    os.execv(sys.executable, command)
    return 0  # pragma: no cover - execv does not return


if __name__ == "__main__":
    sys.exit(main())
