"""Browser tests: a Voila server on a free local port, driven by Debian's chromium.

Facts from docs/serving.md ("What is known of Voila here"): bind 127.0.0.1:0 for a free port and pass
``--Voila.port_retries=0``; the server is ready when ``/voila/static/voila.js``
answers; stop it with SIGTERM then SIGKILL and end leftover kernels; block every
request that leaves 127.0.0.1 and fail on page errors.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from servers import (
    PATIENCE_S,
    VoilaServer,
    catches,
    free_port,
    start_voila,
    stop_voila,
    wait_until,
    without_secrets,
)

from nidavellir.tools.browser import CHROMIUM, launch_options

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"

__all__ = ["PATIENCE_S", "VoilaServer", "free_port", "start_voila", "stop_voila", "wait_until"]

LOCAL_PREFIXES = ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:", "about:")


#: The teacher password of the shared class server (:func:`class_server`).
TEACHER_PASSWORD = "owl-45"


@dataclass
class ClassServer:
    """The class server the class tests share: a class folder, a teacher password, and a
    teacher's folder of lessons (the example position lesson, a good walkthrough, a bad
    one)."""

    server: VoilaServer
    folder: Path
    """The class folder (its database: ``ClassStore(folder)``)."""
    lessons: Path
    password: str = TEACHER_PASSWORD


def _docs_example(kind: str) -> str:
    """The example lesson of ``kind`` in docs/lessons.md."""
    text = (ROOT / "docs" / "lessons.md").read_text(encoding="utf-8")
    return next(b for b in re.findall(r"```yaml\n(.*?)```", text, re.S)
                if f"kind: {kind}" in b)


def _start_class_server(tmp: Path) -> ClassServer:
    lessons = tmp / "lessons"
    shutil.copytree(ROOT / "examples" / "lessons", lessons)
    walk = _docs_example("walkthrough")
    (lessons / "first_bid.yaml").write_text(walk, encoding="utf-8")
    (lessons / "broken_bid.yaml").write_text(
        walk.replace("key: first-bid", "key: broken-bid").replace("move: take E9",
                                                                   "move: take W10"),
        encoding="utf-8")
    folder = tmp / "class"
    # Three kernels warm for the first students; afterwards two spares, refilled a second
    # after the pages stop coming (a test's students come one after another).
    server = start_voila("notebooks", tmp, extra=[
        "--class-dir", str(folder), "--lessons", str(lessons), "--class-size", "3",
        "--spares", "2", "--refill-quiet", "1"],
        env={"NIDAVELLIR_TEACHER_PASSWORD": TEACHER_PASSWORD})
    return ClassServer(server, folder, lessons)


class _Patient:
    """The shared Chromium, whose every context waits as long as the tests do
    (:data:`PATIENCE_S`) in the calls that name no timeout (a click, a text read, an
    ``evaluate``): Playwright's own default, 30 s, is a clock on a machine whose load nobody
    controls (a throttled page's click missed it at a load of 16)."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, **kwargs: Any) -> Any:
        context = self._browser.new_context(**kwargs)
        context.set_default_timeout(PATIENCE_S * 1000)
        return context

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


class _Shared:
    """One Voila server (the lab's notebooks), one class server (:class:`ClassServer`, for
    the class tests) and one Chromium for every browser test of a run, each started by the
    first test that asks and stopped when the run leaves the browser tests
    (:func:`pytest_runtest_teardown`), each process by its id. Leaving matters: a worker of
    pytest-xdist that ran the browser tests runs others after them, and Playwright's
    synchronous API keeps an event loop in its thread while it runs (``asyncio.run`` then
    fails there)."""

    def __init__(self) -> None:
        self.server: VoilaServer | None = None
        self.class_server: ClassServer | None = None
        self.playwright: Any = None
        self.browser: Any = None

    def voila(self, tmp_path_factory: pytest.TempPathFactory) -> VoilaServer:
        if self.server is None:
            self.server = start_voila("notebooks", tmp_path_factory.mktemp("voila"))
        return self.server

    def classroom(self, tmp_path_factory: pytest.TempPathFactory) -> ClassServer:
        if self.class_server is None:
            self.class_server = _start_class_server(tmp_path_factory.mktemp("class"))
        return self.class_server

    def chromium(self) -> Any:
        if self.browser is None:
            if not os.path.exists(CHROMIUM):
                pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
            from playwright.sync_api import sync_playwright

            self.playwright = sync_playwright().start()
            self.browser = _Patient(self.playwright.chromium.launch(
                **launch_options(headless=True)))
        return self.browser

    def close(self) -> None:
        browser, playwright = self.browser, self.playwright
        servers = [self.server, self.class_server.server if self.class_server else None]
        self.browser = self.playwright = self.server = self.class_server = None
        try:
            if browser is not None:
                with contextlib.suppress(Exception):
                    browser.close()
            if playwright is not None:
                playwright.stop()
        finally:
            for server in servers:
                if server is not None:
                    stop_voila(server)


SHARED = _Shared()


@pytest.fixture
def voila_server(tmp_path_factory: pytest.TempPathFactory) -> VoilaServer:
    return SHARED.voila(tmp_path_factory)


@pytest.fixture
def chromium() -> Any:
    return SHARED.chromium()


@dataclass
class ClassRun:
    """A class test's own lesson run on the shared class server (:func:`class_run`)."""

    server: VoilaServer
    folder: Path
    password: str
    run: int
    others: int
    """Students of earlier tests still counted in the class (their pages gave a sign within
    the last minutes): the teacher page counts them among those who have not answered,
    at most this many (they drop out as their time passes)."""

    def store(self) -> Any:
        from nidavellir.classroom.store import ClassStore

        return ClassStore(self.folder)

    def count_pattern(self, answered: int) -> str:
        """The teacher page's count of a question this test's ``answered`` students
        answered: "3 of N answered", N from 3 to 3 + :attr:`others`."""
        return rf"^{answered} of ({'|'.join(str(answered + i) for i in range(self.others + 1))}) answered$"


@pytest.fixture
def class_run(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> ClassRun:
    """The shared class server in a new lesson run of the test's own (named after it): the
    pace free, nothing paused, revealed, projected, pinned or asked, no question waiting for
    the teacher's reveal, no pseudonyms on the projector. Each class test names its students
    differently: the students of earlier tests are still counted in the class for a few
    minutes (:attr:`ClassRun.others`)."""
    from nidavellir.classroom.store import REVEAL_AFTER, ClassStore
    from nidavellir.classroom.store.summary import present

    shared = SHARED.classroom(tmp_path_factory)
    store = ClassStore(shared.folder)
    state = store.new_run(request.node.name[:60])
    for question in state.teacher_led:
        store.set_reveal(question, REVEAL_AFTER)
    store.show_names(False)
    return ClassRun(shared.server, shared.folder, shared.password, state.run,
                    present(store.students()))


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After the last browser test in a row (the next test is elsewhere, or none), the
    shared server and browser stop; a later browser test starts them again."""
    if nextitem is None or BROWSER_TESTS not in Path(str(nextitem.path)).parents:
        SHARED.close()


BROWSER_TESTS = Path(__file__).resolve().parent


@dataclass
class PageWatch:
    """What a page did that it should not: errors and requests leaving 127.0.0.1."""

    page: Any
    errors: list[str] = field(default_factory=list)
    external: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    #: Every warning and error the page wrote to the browser console, in order.
    console: list[str] = field(default_factory=list)
    #: The page's last requests as they went and came back (the time, ``->`` sent,
    #: ``<-`` answered with its status, ``x`` failed with why): a failed test's artefacts
    #: say whether a request that never got its answer left the page at all.
    requests: deque[str] = field(default_factory=lambda: deque(maxlen=200))

    def assert_clean(self) -> None:
        assert not self.external, f"requests left 127.0.0.1: {self.external}"
        assert not self.errors, f"page errors: {self.errors}"

    def assert_console_clean(self) -> None:
        """No console warning or error but Voila's own known ones (known_console.py)."""
        from .known_console import unknown

        assert not unknown(self.console), f"console warnings or errors: {unknown(self.console)}"


def keep_what_the_page_showed(pg: Any, name: str, watched: Any = None,
                              server: Any = None) -> None:
    """A failed walk's screenshot and what covers or holds the page (the guard's banners
    and state, the walkthrough's chooser, the widgets that could not be drawn and the
    page's console errors) in ``test-artifacts/``: a failure that comes once in a while is
    read from them. (One did, 28 Nov: a page preheated in English and built again in
    German showed two "Click to show javascript error." boxes where the walkthrough's
    columns belong: the page restored its widgets while the kernel built the German ones,
    docs/serving.md.)"""
    ARTIFACTS.mkdir(exist_ok=True)
    with contextlib.suppress(Exception):
        pg.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    with contextlib.suppress(Exception):
        seen = pg.evaluate("""() => ({
            guard: window.nidavellirPage || null,
            banners: Array.from(document.querySelectorAll('[id^="nid-page-"]'))
                .map(e => [e.id, e.textContent]),
            choosers: Array.from(document.querySelectorAll('.nid-wt-chooser')).map(c => ({
                html: c.outerHTML.slice(0, 2000), rect: c.getBoundingClientRect().toJSON(),
                atItsMiddle: (() => { const r = c.getBoundingClientRect();
                    const e = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                    return e ? e.outerHTML.slice(0, 300) : null; })()})),
            languages: Array.from(document.querySelectorAll('nav.nid-languages'))
                .map(n => n.outerHTML),
            undrawn: Array.from(document.querySelectorAll('.jupyter-widgets-error-widget'))
                .map(e => { e.click(); return e.innerText.slice(0, 3000); }),
            consoles: Array.from(document.querySelectorAll(
                '.nid-play-console, .nid-dashboard-console, .nid-whatif-status'))
                .map(e => [e.className, e.innerText.slice(0, 1000)]),
            // The decision panels' move counts and their buttons' decisions: which
            // decision the page drew, and which one its buttons play.
            decisions: Array.from(document.querySelectorAll('.nid-decision')).map(d => ({
                classes: d.className,
                buttons: Array.from(d.querySelectorAll('button.nid-choice')).map(b => [
                    (b.className.match(/nid-at-\\d+/) || [''])[0], b.disabled,
                    b.offsetParent !== null, b.innerText.slice(0, 40)])}))})""")
        secrets = server.notes.get("secrets", []) if server is not None else []
        if watched is not None:
            seen["console"] = list(watched.console)[-40:]
            seen["page_errors"] = list(watched.errors)[-20:]
            # A handed-out link carries the class password (?token=): never kept.
            seen["requests"] = [without_secrets(r, secrets) for r in watched.requests]
        if server is not None:
            _processes_say_where_they_are(server)
            # The whole log's end beside (the kernels' tracebacks and every process's
            # stacks land there, and the access log says which requests were answered).
            (ARTIFACTS / f"{name}-server.log").write_text(
                without_secrets(server.log()[-400_000:], secrets), encoding="utf-8")
            comms = server.notes.get("comms")
            if comms is not None and Path(comms).exists():  # what each kernel's widgets got
                seen["comms"] = Path(comms).read_text(errors="replace").splitlines()[-80:]
        (ARTIFACTS / f"{name}.json").write_text(json.dumps(seen, indent=1), encoding="utf-8")


def _processes_say_where_they_are(server: VoilaServer) -> None:
    """The server and each of its kernels write their threads' stacks to the server's log
    (SIGUSR1: the server's ``say_where_on_request``, widgets/diagnostics.py), for a failed
    test's artefacts: a kernel that waits, or a request the server never answered, says
    where."""
    import psutil

    with contextlib.suppress(psutil.Error):
        server_process = psutil.Process(server.process.pid)
        kernels = [p for p in server_process.children(recursive=True)
                   if "ipykernel_launcher" in " ".join(p.cmdline())]
        # One process at a time, each dump waited for (one "Current thread" line per
        # process's dump: the thread the signal reached): processes signalled together
        # wrote their stacks into the one log interleaved, character by character, and
        # clean run 110's failure could not be read from them.
        for process in [server_process, *kernels]:
            if not catches(process.pid, signal.SIGUSR1):  # else the signal would end it
                continue
            before = server.log().count("Current thread")
            with contextlib.suppress(psutil.Error):
                process.send_signal(signal.SIGUSR1)
            with contextlib.suppress(AssertionError):
                wait_until(lambda before=before: server.log().count("Current thread") > before,
                           f"process {process.pid}'s stacks in the server's log", patience=5)


def watch_page(page: Any) -> PageWatch:
    w = PageWatch(page)
    page.on("pageerror", lambda exc: w.errors.append(str(exc)))

    def console(msg: Any) -> None:
        if msg.type == "error":
            w.console_errors.append(msg.text)
        if msg.type in ("error", "warning"):
            w.console.append(msg.text)

    page.on("console", console)

    def note(sign: str, url: str, more: str = "") -> None:
        w.requests.append(f"{time.time():.3f} {sign} {url[:160]} {more}".rstrip())

    page.on("request", lambda r: note("->", r.url, r.method))
    page.on("response", lambda r: note("<-", r.url, str(r.status)))
    page.on("requestfailed", lambda r: note("x", r.url, str(r.failure)))

    def route(r: Any) -> None:
        url = r.request.url
        if url.startswith(LOCAL_PREFIXES):
            r.continue_()
        else:
            w.external.append(url)
            r.abort()

    page.route("**/*", route)
    return w


#: What a page says while a move is on its way, in the three languages (the catalogues'
#: "thinking…", "the coach is thinking…", "Sending to your teacher…").
IN_PROGRESS = re.compile(r"thinking…|denkt nach…|réfléchit…|Sending to your teacher…|"
                         r"an deine Lehrkraft gesendet…|Envoi à votre enseignant·e…")
SETTLED = "(pattern) => !new RegExp(pattern).test(document.body.innerText)"
#: The longest a test's last capture waits for the page to settle (a bot's move or the
#: coach's judgement on a busy machine); then it is taken as it is.
SETTLE_MS = 20_000


@pytest.fixture
def page(chromium: Any, request: pytest.FixtureRequest) -> Iterator[PageWatch]:
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    watched = watch_page(pg)
    try:
        yield watched
    finally:
        ARTIFACTS.mkdir(exist_ok=True)
        with contextlib.suppress(Exception):
            # The capture shows the page as the test left it once it has settled: a test
            # that ends on a click would otherwise keep "thinking…" or "Sending to your
            # teacher…", a state nobody looks at for long.
            pg.wait_for_function(SETTLED, arg=IN_PROGRESS.pattern, timeout=SETTLE_MS)
        with contextlib.suppress(Exception):
            pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
        context.close()
