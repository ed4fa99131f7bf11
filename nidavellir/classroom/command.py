"""The command line of ``python -m nidavellir.serve`` (``make run``): serve the notebooks to
a class as a Voila dashboard.

Standard library only: it checks the options, builds Voila's command line and replaces
itself with the lab's Voila (``python -m nidavellir.classroom.server``: Voila with
compressed and cached responses, plotly and anywidget loaded when first needed, and
kernels that leave with their page; docs/serving.md), before anything heavy is imported. The options encode
what was measured on the lab's machines (docs/serving.md, "What is known of Voila here"):

- ``--Voila.port_retries=0``: Voila would otherwise move silently to another port;
- kernels leave with their page (the shutdown request of a closed page, a heartbeat and a
  ``--page-timeout`` for pages that vanish); idle-kernel culling stays as a backstop;
- ``--KernelManager.transport=ipc``: many kernels starting at once collide on TCP ports;
- every option at most once: a repeated option gives HTTP 500 on the first page;
- passwords never on a command line (``/proc/<pid>/cmdline`` is readable by every user of
  the machine): they come from the environment (``NIDAVELLIR_PASSWORD``,
  ``NIDAVELLIR_TEACHER_PASSWORD``) or a file (``--password-file``,
  ``--teacher-password-file``) and reach the lab's Voila in its environment, which it
  empties before any kernel starts; nothing prints them;
- ``--KernelRestarter.restart_limit=0``: a page's kernel that dies is not restarted blank
  under the same id (a blank kernel has no dashboard): it is removed, its page says so
  and reloads onto a new one (docs/serving.md).

Nothing is loaded from a CDN: the ``nidavellir`` template (``nidavellir/share/jupyter``,
put on ``JUPYTER_PATH``) is Voila's ``lab`` template without its Font Awesome links
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

from ..i18n import LANGUAGE_ENV, LANGUAGES, SOURCE
from . import CLASS_DIR_ENV, CLASS_LANGUAGE_ENV, PASSWORD_ENV, TEACHER_PASSWORD_ENV

#: The folder served by default (relative to the project): the lessons and, later, the
#: dashboard notebook.
DEFAULT_TARGET = "notebooks"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8866
#: The Voila template without CDN links, shipped with the package.
TEMPLATE = "nidavellir"
JUPYTER_DATA = Path(__file__).resolve().parent.parent / "share" / "jupyter"
#: The notebook whose kernels are preheated, and how many wait ready.
DASHBOARD = "dashboard.ipynb"
DEFAULT_POOL_SIZE = 1
#: Seconds before an idle kernel whose page is gone is shut down (a backstop: the kernel of
#: a closed page ends at once, or --page-timeout after its page's last sign).
DEFAULT_CULL_IDLE = 600
DEFAULT_CULL_INTERVAL = 60
#: Seconds a page's kernel lives on without a sign of its page (websocket, heartbeat).
DEFAULT_PAGE_TIMEOUT = 45.0
#: The lab's Voila (nidavellir/classroom/server/: ``python -m nidavellir.classroom.server``).
VOILA_APP = "nidavellir.classroom.server"

#: The kernel manager with the class policy (nidavellir/classroom/server/kernels.py).
CLASS_MANAGER = "nidavellir.classroom.server.kernels.ClassKernelManager"
#: The class password page (the lab's login.html; nidavellir/classroom/login.py).
CLASS_IDENTITY = "nidavellir.classroom.login.ClassIdentityProvider"
DEFAULT_SPARES = 2
DEFAULT_REFILL_QUIET = 20.0
#: Page kernels one client address may hold without a class; with one, the class size plus
#: this many (a class behind one school NAT shares one address).
DEFAULT_KERNELS_PER_CLIENT = 10
KERNELS_PER_CLIENT_MARGIN = 5
#: The class password's provider with the teacher page added (a teacher password).
CLASS_VIEW_IDENTITY = "nidavellir.classroom.teacher.handlers.ClassViewIdentityProvider"
#: Where the class's answers go when a teacher password is given without --class-dir.
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
    password: bool = False,
    spares: int = DEFAULT_SPARES,
    refill_quiet: float = DEFAULT_REFILL_QUIET,
    page_timeout: float = DEFAULT_PAGE_TIMEOUT,
    teacher: bool = False,
    class_dir: str = "",
    kernels_per_client: int = 0,
) -> list[str]:
    """Voila's arguments (without the program name), each option exactly once.

    ``password`` and ``teacher`` say whether there is a class password and a teacher page
    (with the teacher password, answers in ``class_dir``): the
    passwords themselves never go on the command line (:func:`main` hands them over in
    the environment). ``kernels_per_client`` 0 is :func:`kernels_per_client`'s default.
    ``extra`` options (``--Class.trait=value``) replace the defaults of the same name
    instead of repeating them.

    >>> args = voila_args("notebooks", port=9000, extra=["--Voila.port=9001"])
    >>> [a for a in args if a.startswith("--Voila.port=")]
    ['--Voila.port=9001']
    """
    options = [*_server_options(host, port, cull_idle_timeout, cull_interval),
               *_kernel_options(page_timeout,
                                kernels_per_client or default_kernels_per_client(class_size))]
    if class_size > 0:
        pool_size = class_size
    if pool_size > 0:
        options += _pool_options(pool_size)
    if class_size > 0:
        options += _class_options(class_size, spares, refill_quiet,
                                  _ready_message(class_size, host, port, password))
    if password:
        # Voila's token (set by the lab's Voila from the environment): /?token=… in the
        # link the teacher hands out, or typed on the login page (the class password);
        # anything else gets the login page and no kernel.
        options += [f"--Voila.identity_provider_class={CLASS_IDENTITY}"]
    if teacher:
        # The teacher page (nidavellir/classroom/teacher/) comes in through the identity
        # provider: the class password's, with the teacher's handlers added.
        options += [f"--Voila.identity_provider_class={CLASS_VIEW_IDENTITY}",
                    f"--ClassViewIdentityProvider.class_dir={class_dir}"]
    return [str(target), *_once(options, extra)]


def _server_options(host: str, port: int, cull_idle_timeout: int,
                    cull_interval: int) -> list[str]:
    """Where the server listens, the page's template, and how idle kernels are culled."""
    return [
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
        # The browser's languages reach the page's kernel (HTTP_ACCEPT_LANGUAGE), a
        # preheated one's with the page's request: the page's language (widgets/language.py).
        '--VoilaConfiguration.http_header_envs=["Accept-Language"]',
    ]


def _kernel_options(page_timeout: float, kernels_per_client: int) -> list[str]:
    """Kernels leave with their page; a client address holds a limited number of them."""
    return [
        # Kernels leave with their page; pool kernels are never culled.
        f"--VoilaConfiguration.multi_kernel_manager_class={CLASS_MANAGER}",
        f"--ClassKernelManager.page_timeout={page_timeout}",
        f"--ClassKernelManager.kernels_per_client={kernels_per_client}",
        # A page's kernel that dies is removed, not restarted blank: its page reloads. The
        # restarter looks every second (3 by default): the page hears it at once.
        "--KernelRestarter.restart_limit=0",
        "--KernelRestarter.time_to_dead=1.0",
    ]


def _pool_options(pool_size: int) -> list[str]:
    """``pool_size`` preheated kernels for the dashboard, and only for it (every other
    notebook would otherwise hold a pool too)."""
    pools = {"default": {"pool_size": 0}, DASHBOARD: {"pool_size": pool_size}}
    return ["--VoilaConfiguration.preheat_kernel=True",
            f"--VoilaKernelManager.kernel_pools_config={json.dumps(pools)}"]


def _class_options(class_size: int, spares: int, refill_quiet: float, ready: str) -> list[str]:
    """The class's pool policy (:class:`~nidavellir.classroom.server.kernels.
    ClassKernelManager`): warm before the class, no refill while it comes in."""
    return [f"--ClassKernelManager.class_size={class_size}",
            f"--ClassKernelManager.spare_kernels={spares}",
            f"--ClassKernelManager.refill_quiet={refill_quiet}",
            f"--ClassKernelManager.ready_message={ready}"]


def _ready_message(class_size: int, host: str, port: int, password: bool) -> str:
    """What the server prints once the class's dashboards are ready."""
    where = "http://<this machine>" if host in ("0.0.0.0", "::") else f"http://{host}"
    return (f"The class can come in: {class_size} dashboards are ready at {where}:{port}/"
            + (" (with the class password)" if password else ""))


def _key(option: str) -> str:
    return option.split("=", 1)[0]


def _once(options: Sequence[str], extra: Sequence[str]) -> list[str]:
    """Every option once: an ``extra`` option replaces the default of the same name (the
    last of an option given several times wins)."""
    merged = {_key(o): o for o in options}
    for option in extra:
        merged[_key(option)] = option
    return list(merged.values())


def default_kernels_per_client(class_size: int) -> int:
    """Page kernels a client address may hold: the class and a margin (reloads, pages
    closed without a goodbye) when a class may sit behind one NAT, else 10.

    >>> default_kernels_per_client(0), default_kernels_per_client(30)
    (10, 35)
    """
    if class_size <= 0:
        return DEFAULT_KERNELS_PER_CLIENT
    return max(DEFAULT_KERNELS_PER_CLIENT, class_size + KERNELS_PER_CLIENT_MARGIN)


class _OnTheCommandLine(argparse.Action):
    """``--password P``: refused, a password on a command line is anybody's to read."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        env = PASSWORD_ENV if option_string == "--password" else TEACHER_PASSWORD_ENV
        parser.error(f"{option_string}: a password on the command line is visible to every "
                     f"user of this machine (ps); give it in the {env} variable or in a "
                     f"file ({option_string}-file FILE)")


def _password(parser: argparse.ArgumentParser, env: str, file: str | None, option: str) -> str:
    """A password from its file (the first line) or its environment variable."""
    if file is not None:
        try:
            with open(file, encoding="utf-8") as f:
                text = f.readline().strip()
        except OSError as exc:
            parser.error(f"{option} {file}: {exc.strerror or exc}")
        if not text:
            parser.error(f"{option} {file}: the file is empty")
        return text
    return os.environ.get(env, "")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m nidavellir.serve``: check the options, set the kernels' environment
    (languages, lessons, the class folder, the passwords) and replace this process with the
    lab's Voila (:data:`VOILA_APP`)."""
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    _read_passwords(parser, args, extra)
    _check_numbers(parser, args)
    _set_languages(parser, args)
    if args.lessons is not None:
        if not Path(args.lessons).is_dir():
            parser.error(f"--lessons {args.lessons}: no such folder")
        # The kernels read it (nidavellir.lessons.Library): the dashboards list its files.
        os.environ["NIDAVELLIR_LESSONS"] = str(Path(args.lessons).resolve())
    _set_play(parser, args)
    class_dir = _class_folder(parser, args)
    if args.host not in ("127.0.0.1", "localhost", "::1") and not args.password:
        print("warning: serving on the network with no class password: anyone who can reach "
              f"{args.host}:{args.port} can open a kernel (see docs/serving.md, Passwords)",
              file=sys.stderr, flush=True)
    command = [sys.executable, "-m", VOILA_APP, *voila_args(
        args.target, args.host, args.port, args.cull_idle_timeout, args.cull_interval, extra,
        args.preheat, args.class_size, bool(args.password), args.spares, args.refill_quiet,
        args.page_timeout, bool(args.teacher_password), class_dir, args.kernels_per_client)]
    _announce(args, command, class_dir)
    _hand_over(args)
    # Replace this process so signals (Ctrl-C, kill of the process group) reach Voila.
    os.execv(sys.executable, command)
    return 0  # pragma: no cover - execv does not return


def _parser() -> argparse.ArgumentParser:
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
    parser.add_argument("--kernels-per-client", type=int, default=0, metavar="N",
                        help="dashboards (kernels) one client address may hold at once "
                        f"(default: {DEFAULT_KERNELS_PER_CLIENT}, with a class its size plus "
                        f"{KERNELS_PER_CLIENT_MARGIN}: a class behind one school NAT shares "
                        "one address)")
    parser.add_argument("--lessons", metavar="DIR",
                        help="a folder of your own lesson files (*.yaml), shown in the "
                        "dashboard beside the lab's (see docs/lessons.md)")
    parser.add_argument("--language", default=None, metavar="CODE",
                        help="the pages' language when neither the address (?lang=de) nor "
                        f"the browser asks for one of the lab's: {', '.join(LANGUAGES)} "
                        f"(default: {SOURCE}; the {LANGUAGE_ENV} variable)")
    _class_arguments(parser)
    return parser


def _class_arguments(parser: argparse.ArgumentParser) -> None:
    """The class's options: its size, its passwords, its folder and its language."""
    parser.add_argument("--class-size", type=int, default=0, metavar="N",
                        help=f"prepare for a class of N: N {DASHBOARD} kernels warm before "
                        "they come in, no refill while they connect")
    parser.add_argument("--spares", type=int, default=DEFAULT_SPARES, metavar="N",
                        help="with --class-size: kernels kept warm after the class came in")
    parser.add_argument("--refill-quiet", type=float, default=DEFAULT_REFILL_QUIET,
                        metavar="SECONDS", help="with --class-size: refill the pool after "
                        "this long without a new page")
    parser.add_argument("--password-file", metavar="FILE",
                        help=f"the class password, the first line of FILE (or the {PASSWORD_ENV} "
                        "variable): pages need it, typed on the login page or as "
                        "?token=PASSWORD in the link")
    parser.add_argument("--password", "--teacher-password", nargs="?",
                        action=_OnTheCommandLine, help=argparse.SUPPRESS)
    parser.add_argument("--class-dir", metavar="DIR", default="",
                        help="the class folder: every student's predictions and quiz answers "
                        "go to DIR/answers.sqlite, which the teacher page shows (class mode: "
                        "students may type a name)")
    parser.add_argument("--teacher-password-file", metavar="FILE",
                        help="the teacher page's password, the first line of FILE (or the "
                        f"{TEACHER_PASSWORD_ENV} variable), separate from the class "
                        f"password: the class view at /teacher/ (answers in --class-dir, "
                        f"default {DEFAULT_CLASS_DIR}/)")
    parser.add_argument("--coach-level", default=None, metavar="LEVEL",
                        help="the Play tab's coach on every page: quick, coach (the default) "
                        "or deep, or search@N (the NIDAVELLIR_COACH_LEVEL variable); a class "
                        "on a small server: quick")
    parser.add_argument("--coach-ahead", choices=("on", "off"), default=None,
                        help="whether the coach judges each of a learner's decisions as it "
                        "appears (on, the default) or only when the Hint asks (off: a class "
                        "on a small server; the NIDAVELLIR_COACH_AHEAD variable)")
    parser.add_argument("--live-charts", choices=("on", "off"), default=None,
                        help="the Play tab's live charts, redrawn after every move (on, the "
                        "default; off: about half a second of the server's CPU a move saved "
                        "per learner; the NIDAVELLIR_LIVE_CHARTS variable)")
    parser.add_argument("--class-language", default=None, metavar="CODE",
                        help="the class's language: the teacher page and the projector in it "
                        "whatever the address or the browser asks, and the students' pages "
                        "when neither asks (default: each page's own; the "
                        f"{CLASS_LANGUAGE_ENV} variable)")


def _read_passwords(parser: argparse.ArgumentParser, args: argparse.Namespace,
                    extra: Sequence[str]) -> None:
    """The two passwords, from their files or the environment (never the command line:
    a token among Voila's own options is refused too), checked."""
    for option in extra:
        if _key(option).lower() in ("--voila.token", "--identityprovider.token",
                                    "--servertoken", "--token"):
            parser.error(f"{_key(option)}: a password on the command line is visible to every "
                         f"user of this machine (ps); give it in the {PASSWORD_ENV} variable "
                         "or in a file (--password-file FILE)")
    args.password = _password(parser, PASSWORD_ENV, args.password_file, "--password-file")
    args.teacher_password = _password(parser, TEACHER_PASSWORD_ENV, args.teacher_password_file,
                                      "--teacher-password-file")
    for which, value in (("class", args.password), ("teacher", args.teacher_password)):
        if value and (len(value) < 4 or any(c.isspace() for c in value)):
            parser.error(f"the {which} password needs at least 4 characters and no spaces")
    if args.teacher_password and args.teacher_password == args.password:
        parser.error("the teacher password must differ from the class password: students "
                     "know that one")


def _check_numbers(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The target exists; counts and seconds are in range."""
    if not Path(args.target).exists():
        parser.error(f"{args.target}: no such notebook or folder")
    for name in ("preheat", "class_size", "spares", "kernels_per_client"):
        if getattr(args, name) < 0:
            parser.error(f"--{name.replace('_', '-')} must be 0 or more, not "
                         f"{getattr(args, name)}")
    if args.refill_quiet < 0:
        parser.error(f"--refill-quiet must be 0 or more, not {args.refill_quiet}")
    if args.page_timeout != 0 and args.page_timeout < 20:
        parser.error(f"--page-timeout must be 0 (off) or at least 20 seconds (pages send a "
                     f"heartbeat every 15 s), not {args.page_timeout}")


def _set_languages(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The class's language (the teacher pages read it:
    :func:`nidavellir.classroom.page_language`) and the pages' default language (the
    kernels read it: widgets/language.py), in the environment."""
    fixed = (args.class_language if args.class_language is not None
             else os.environ.get(CLASS_LANGUAGE_ENV))
    if fixed is not None:
        _check_language(parser, "--class-language", fixed)
        os.environ[CLASS_LANGUAGE_ENV] = fixed
    language = args.language if args.language is not None else os.environ.get(LANGUAGE_ENV)
    if language is None and fixed is not None:
        language = fixed  # the students' pages too, unless their address asks otherwise
    if language is not None:
        _check_language(parser, "--language", language)
        # A page's language when neither its address nor its browser asks for one.
        os.environ[LANGUAGE_ENV] = language


#: The environment variables the kernels read the Play tab's settings from
#: (widgets/coach.py, widgets/dashboard.py).
COACH_LEVEL_ENV, COACH_AHEAD_ENV, LIVE_CHARTS_ENV = (
    "NIDAVELLIR_COACH_LEVEL", "NIDAVELLIR_COACH_AHEAD", "NIDAVELLIR_LIVE_CHARTS")


def _set_play(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The Play tab's coach and charts on every page (docs/serving.md, "A class playing
    at once"), in the environment the kernels read them from."""
    if args.coach_level is not None:
        from ..bots.judge_levels import parse_level  # standard library only

        try:
            parse_level(args.coach_level)
        except ValueError as exc:
            parser.error(f"--coach-level {args.coach_level}: {exc}")
        os.environ[COACH_LEVEL_ENV] = args.coach_level
    if args.coach_ahead is not None:
        os.environ[COACH_AHEAD_ENV] = "1" if args.coach_ahead == "on" else "0"
    if args.live_charts is not None:
        os.environ[LIVE_CHARTS_ENV] = "1" if args.live_charts == "on" else "0"


def _check_language(parser: argparse.ArgumentParser, option: str, code: str) -> None:
    if code not in LANGUAGES:
        parser.error(f"{option} {code}: the lab speaks {', '.join(LANGUAGES)} "
                     f"({', '.join(f'{c}: {n}' for c, n in LANGUAGES.items())})")


def _class_folder(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str:
    """The class folder (made, readable by the server's user only), named to every
    student's kernel (``NIDAVELLIR_CLASS_DIR``: they write their answers there); "" for
    none. A teacher password without ``--class-dir`` gets :data:`DEFAULT_CLASS_DIR`."""
    class_dir = args.class_dir or (DEFAULT_CLASS_DIR if args.teacher_password else "")
    if not class_dir:
        return ""
    try:
        # Readable by the server's user only: the answers are the students'.
        Path(class_dir).mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        parser.error(f"--class-dir {class_dir}: {exc.strerror or exc}")
    class_dir = str(Path(class_dir).resolve())
    os.environ[CLASS_DIR_ENV] = class_dir
    if not args.teacher_password:
        print(f"warning: --class-dir without a teacher password ({TEACHER_PASSWORD_ENV} or "
              "--teacher-password-file): answers are stored in "
              f"{class_dir}, but there is no teacher page", file=sys.stderr, flush=True)
    return class_dir


def _announce(args: argparse.Namespace, command: Sequence[str], class_dir: str) -> None:
    """What is served, and where (never a password: none is on the command line)."""
    print("serving:", " ".join(command[2:]), flush=True)
    if args.class_size:
        print(f"preparing {args.class_size} dashboards for the class: wait for \"The class can "
              "come in\"", flush=True)
    if args.teacher_password:
        print(f"the class view: http://{args.host}:{args.port}/teacher/ (teacher password); "
              f"answers in {class_dir}", flush=True)


def _hand_over(args: argparse.Namespace) -> None:
    """The template on ``JUPYTER_PATH``; the passwords in the environment, where the lab's
    Voila takes them out at start (before any kernel starts)."""
    paths = [str(JUPYTER_DATA), *filter(None, os.environ.get("JUPYTER_PATH", "").split(os.pathsep))]
    os.environ["JUPYTER_PATH"] = os.pathsep.join(dict.fromkeys(paths))
    for env, value in ((PASSWORD_ENV, args.password), (TEACHER_PASSWORD_ENV,
                                                       args.teacher_password)):
        if value:
            os.environ[env] = value
        else:
            os.environ.pop(env, None)


__all__ = ["CLASS_IDENTITY", "CLASS_MANAGER", "CLASS_VIEW_IDENTITY", "DASHBOARD",
           "DEFAULT_CLASS_DIR", "JUPYTER_DATA", "TEMPLATE", "VOILA_APP",
           "default_kernels_per_client", "main", "voila_args"]
