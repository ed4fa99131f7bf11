"""Issue 18, a classroom on one server: class mode, lean kernels, the class page, the class
password. The server tests start Voila from the project's files (``python -m
nidavellir.serve``) on a free port and stop it (and its kernels) by process id; the
browser test of the class page is in tests/browser/test_classroom_browser.py, the
figures in benchmarks/bench_classroom.py."""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import html
import http.client
import http.cookiejar
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from servers import PATIENCE_S, VoilaServer, catches, start_voila, stop_voila, wait_until

from nidavellir.classroom import command
from nidavellir.i18n import escaped

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "nidavellir" / "share" / "jupyter" / "voila" / "templates" / "nidavellir"


# ---------------------------------------------------------------------- the command

def test_class_mode_preheats_the_class_with_the_class_kernel_manager() -> None:
    args = command.voila_args("notebooks", class_size=30, spares=3, refill_quiet=15)
    joined = " ".join(args)
    assert '"dashboard.ipynb": {"pool_size": 30}' in joined
    assert f"--VoilaConfiguration.multi_kernel_manager_class={command.CLASS_MANAGER}" in args
    assert "--ClassKernelManager.class_size=30" in args
    assert "--ClassKernelManager.spare_kernels=3" in args
    assert "--ClassKernelManager.refill_quiet=15" in args
    assert any(a.startswith("--ClassKernelManager.ready_message=The class can come in: 30")
               for a in args)
    # Without a class: the pool of one, pool kernels still never culled.
    plain = command.voila_args("notebooks")
    assert '"dashboard.ipynb": {"pool_size": 1}' in " ".join(plain)
    assert not any("class_size" in a for a in plain)
    assert not any(a.startswith("--Voila.token") for a in plain)


def test_a_password_brings_the_labs_login_page_and_stays_off_the_command_line() -> None:
    args = command.voila_args("notebooks", password=True)
    assert not [a for a in args if "token" in a.lower()]
    assert f"--Voila.identity_provider_class={command.CLASS_IDENTITY}" in args
    assert len({a.split("=", 1)[0] for a in args}) == len(args)  # every option once


@pytest.mark.parametrize("argv, message", [
    (["--class-size", "-3"], "--class-size must be 0 or more"),
    (["--spares", "-1"], "--spares must be 0 or more"),
    (["--refill-quiet", "-2"], "--refill-quiet must be 0 or more"),
    (["--page-timeout", "5"], "--page-timeout must be 0 (off) or at least 20 seconds"),
    (["--password", "dwarves"], "visible to every user of this machine"),
    (["--teacher-password=owl-42"], "visible to every user of this machine"),
    (["--Voila.token=dwarves"], "visible to every user of this machine"),
    (["--password-file", "no/such/file"], "--password-file no/such/file: No such file"),
    (["--class-size", "many"], "invalid int value"),
    (["no/such/folder"], "no such notebook or folder"),
])
def test_bad_arguments_get_one_clear_line(argv: list[str], message: str) -> None:
    out = subprocess.run([sys.executable, "-m", "nidavellir.serve", *argv], cwd=ROOT,
                         capture_output=True, text=True, timeout=PATIENCE_S)
    assert out.returncode == 2
    assert message in out.stderr and "Traceback" not in out.stderr
    for secret in ("dwarves", "owl-42"):
        assert secret not in out.stderr and secret not in out.stdout


@pytest.mark.parametrize("env, message", [
    ({"NIDAVELLIR_PASSWORD": "ab"}, "the class password needs at least 4 characters"),
    ({"NIDAVELLIR_PASSWORD": "a b c d"}, "no spaces"),
])
def test_bad_passwords_get_one_clear_line_without_the_password(env: dict[str, str],
                                                              message: str) -> None:
    out = subprocess.run([sys.executable, "-m", "nidavellir.serve"], cwd=ROOT,
                         capture_output=True, text=True, timeout=PATIENCE_S,
                         env={**os.environ, **env})
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr
    assert env["NIDAVELLIR_PASSWORD"] not in out.stderr.replace(message, "")


def test_the_pages_of_the_template_load_nothing_from_outside() -> None:
    for page in TEMPLATE.glob("*.html*"):
        text = page.read_text()
        assert not re.search(r"(src|href)=['\"]?https?://", text), page.name
    # The class page's words come from the catalogues, in the page's language (issue 58).
    assert "{{ words.open }}" in (TEMPLATE / "class_page.html").read_text()
    for tree in ("tree.html", "tree-lab.html"):
        assert "class_page.html" in (TEMPLATE / tree).read_text()


# ---------------------------------------------------------------------- lean kernels

@pytest.mark.slow(reason="the dashboard built in a fresh interpreter, twice: about 5 s of "
                        "CPU")
def test_the_dashboards_first_paint_imports_no_pandas_or_plotly() -> None:
    # The process's own memory now (USS), not ru_maxrss: after fork + exec Linux keeps the
    # parent's high-water mark, i.e. pytest's size.
    code = ("import sys, psutil; from widgets.dashboard import dashboard; d = dashboard(); "
            "heavy = [m for m in ('pandas', 'plotly', 'numpy', 'pyarrow', 'dask') "
            "if m in sys.modules]; print(heavy); "
            "print(psutil.Process().memory_full_info().uss // 2**20)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=PATIENCE_S)
    heavy, mb = out.stdout.strip().splitlines()
    assert heavy == "[]"
    assert int(mb) < 100  # the dashboard object itself; a kernel adds ipykernel's ~20 MB
    # The tabs that draw charts still work: they load what they need when opened.
    code = ("import sys; from widgets.dashboard import Dashboard; d = Dashboard(bot_delay=0); "
            "d.open_tab('play'); print('plotly' in sys.modules, d.play_charts is not None)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=PATIENCE_S)
    assert out.stdout.split() == ["True", "True"]


# ---------------------------------------------------------------------- a real server

@pytest.fixture(scope="module")
def class_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, VoilaServer]]:
    """A class of 2 behind the password ``dwarves``, started as ``make run`` starts it. The
    moment it says the class can come in, the widgets each pool kernel holds are counted
    (``server.notes["widgets at ready"]``)."""
    server = start_voila("notebooks", tmp_path_factory.mktemp("class"), extra=[
        "--class-size", "2", "--refill-quiet", "2", "--kernels-per-client", "2",
        # Small enough for a test to see a lockout and a page that never came end; the
        # page limit's test asks its pages at once, so the grace only has to outlast a
        # kernel's hand-out by the moment its fourth request comes. The rule's timing
        # itself is tested on a clock of its own (tests/test_serving.py).
        "--ClassIdentityProvider.failures=3", "--ClassIdentityProvider.first_wait=0.2",
        "--ClassIdentityProvider.lockout_minutes=10", "--ClassKernelManager.connect_grace=20",
        "--ClassKernelManager.page_check_interval=1"],
        env={"NIDAVELLIR_PASSWORD": "dwarves"})
    try:
        deadline = time.monotonic() + PATIENCE_S
        while "*** The class can come in" not in server.log():
            if server.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the class server did not get ready:\n" + server.log())
            time.sleep(0.1)
        server.notes["widgets at ready"] = {
            kernel_id: server.widget_comms(kernel_id)
            for kernel_id in server.kernel_connection_files()}
        yield server.url, server
    finally:
        stop_voila(server)


def _opener(source: str = "127.0.0.1") -> urllib.request.OpenerDirector:
    """A browser of its own (cookies) at a client address of its own (Linux answers every
    127.x.y.z): the per-address limits of one test do not touch another's."""

    class FromSource(urllib.request.HTTPHandler):
        def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(functools.partial(http.client.HTTPConnection,
                                                  source_address=(source, 0)), req)

    jar = http.cookiejar.CookieJar()
    return urllib.request.build_opener(FromSource(), urllib.request.HTTPCookieProcessor(jar))


def _login(opener: urllib.request.OpenerDirector, url: str, password: str
           ) -> tuple[int, str]:
    """The class password typed on the login page: (status, page)."""
    _status, _, page = _get(opener, url + "/login")
    field = re.search(r'name="_xsrf" value="([^"]+)"', page)
    assert field is not None, "no _xsrf field on the login page"
    xsrf = field.group(1)
    data = urllib.parse.urlencode({"_xsrf": xsrf, "password": password}).encode()
    try:
        with opener.open(url + "/login?next=%2F", data=data, timeout=PATIENCE_S) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def _until_it_may_try(opener: urllib.request.OpenerDirector, url: str) -> None:
    """Wait for the state "this address may try again" (the login page says until then)."""
    wait_until(lambda: "nid-login-message" not in _get(opener, url + "/login")[2],
               "the address may try again")


def _what_a_reader_reads(page: str) -> str:
    """A page's text as a reader meets it: its words (not its scripts' or styles') and its
    elements' titles, placeholders and accessible names."""
    from html.parser import HTMLParser

    class Reader(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.texts: list[str] = []
            self.hidden = 0

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag in ("script", "style"):
                self.hidden += 1
            self.texts += [v for k, v in attrs if k in ("title", "placeholder", "aria-label")
                           and v]

        def handle_endtag(self, tag: str) -> None:
            if tag in ("script", "style"):
                self.hidden = max(0, self.hidden - 1)

        def handle_data(self, data: str) -> None:
            if not self.hidden:
                self.texts.append(data)

    reader = Reader()
    reader.feed(page)
    return "\n".join(reader.texts)


def _get(opener: urllib.request.OpenerDirector, url: str) -> tuple[int, str, str]:
    try:
        with opener.open(url, timeout=PATIENCE_S) as r:
            return r.status, r.geturl(), r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, url, exc.read().decode()


def test_the_class_is_ready_before_it_comes_in(class_server) -> None:  # type: ignore[no-untyped-def]
    _url, server = class_server
    log = server.log()
    assert log.count("Kernel started") == 2  # the class of 2, warm
    assert "The class can come in: 2 dashboards are ready at http://127.0.0.1:" in log
    assert server.kernel_count() == 2


def test_the_class_comes_in_when_every_pool_kernel_has_run_the_dashboard(class_server) -> None:  # type: ignore[no-untyped-def]
    """Issue 29: "The class can come in" used to be printed when the kernels had started,
    12-17 s before they had run the notebook. Counted the moment it is printed: each pool
    kernel already holds the dashboard's widgets (the walkthrough alone has over 100)."""
    _url, server = class_server
    widgets = server.notes["widgets at ready"]
    assert len(widgets) == 2
    assert all(n >= 100 for n in widgets.values()), widgets
    log = server.log()
    ready_at = log.index("*** The class can come in")
    for kernel_id in widgets:
        assert log.index(f"Pool kernel {kernel_id} has run the notebook") < ready_at


def test_the_server_says_where_its_threads_are_on_sigusr1_and_serves_on(class_server) -> None:  # type: ignore[no-untyped-def]
    """``kill -USR1`` makes the server write every thread's stack to its log (a request
    that never got its answer says where it waits, in a failed test's artefacts:
    tests/browser/conftest.py) and nothing else: it answers the next request as before."""
    url, server = class_server
    # Caught (its handler is set): without it the signal would end the module's server.
    assert catches(server.process.pid, signal.SIGUSR1), "the server has no handler for SIGUSR1"
    before = server.log().count("most recent call first")
    os.kill(server.process.pid, signal.SIGUSR1)
    wait_until(lambda: server.log().count("most recent call first") > before,
               "the server's stacks in its log")
    dumped = server.log().split("most recent call first", before + 1)[-1]
    assert "tornado" in dumped or "asyncio" in dumped  # the event loop's thread
    assert server.process.poll() is None
    status, _where, text = _get(_opener("127.0.0.9"), f"{url}/")
    assert status == 200 and "password" in text  # the class's login page


def test_no_password_or_a_wrong_one_gets_the_login_page_and_no_kernel(class_server) -> None:  # type: ignore[no-untyped-def]
    url, server = class_server
    before = server.log().count("Kernel started")
    opener = _opener("127.0.0.5")
    for path in ("/", "/voila/render/dashboard.ipynb", "/voila/render/dashboard.ipynb?token=x"):
        status, where, body = _get(opener, url + path)
        assert status == 200 and "/login" in where, path
        assert "Class password" in body and "Nidavellir lab" in body
        assert "https://" not in body
    # A wrong password typed on the form (once the wrong ?token= has been waited out):
    # said clearly, still no kernel.
    _until_it_may_try(opener, url)
    status, page = _login(opener, url, "trolls")
    assert status == 401 and "Wrong password" in page
    assert server.log().count("Kernel started") == before


def test_wrong_class_passwords_lock_out_their_address_and_no_other(class_server) -> None:  # type: ignore[no-untyped-def]
    """Three wrong tries (the test server's --ClassIdentityProvider.failures) lock an
    address out: its tries, the right password included, are refused unchecked (429),
    by the form and by ?token= links alike; another address comes in."""
    url, server = class_server
    guesser = _opener("127.0.0.6")
    statuses = []
    for _ in range(3):
        _until_it_may_try(guesser, url)
        statuses.append(_login(guesser, url, "trolls")[0])
        assert _login(guesser, url, "dwarves")[0] == 429  # at once again: refused
    assert statuses == [401, 401, 401]
    status, page = _login(guesser, url, "dwarves")
    assert status == 429 and "Too many wrong passwords from this computer" in page
    status, where, page = _get(guesser, url + "/?token=dwarves")
    assert "/login" in where and "Too many wrong passwords" in page
    # The page in its address's language (or the page it leads to), refused the same.
    status, _, page = _get(guesser, url + "/login?lang=de")
    assert "Zu viele falsche Passwörter von diesem Computer" in page and 'lang="de"' in page
    status, where, page = _get(guesser, url + "/voila/render/dashboard.ipynb?lang=fr")
    assert "/login" in where and "Trop de mauvais mots de passe" in html.unescape(page)
    assert "Mot de passe de la classe" in page
    assert "Open the dashboard" not in page
    status, page = _login(_opener("127.0.0.7"), url, "dwarves")
    assert status == 200 and "Open the dashboard" in page
    log = server.log()
    assert "dwarves" not in log and "trolls" not in log  # no password in the log


def test_the_password_opens_the_class_page_without_a_kernel(class_server) -> None:  # type: ignore[no-untyped-def]
    url, server = class_server
    opener = _opener()
    status, body = _login(opener, url, "dwarves")
    assert status == 200 and "Open the dashboard" in body and "voila/render/dashboard.ipynb" in body
    for name in ("01_rules_walkthrough.ipynb", "04_probability_lessons.ipynb"):
        assert name in body
    assert "Learn the rules step by step" in body
    assert not re.search(r"(src|href)=['\"]?https?://", body)
    # The token link the teacher hands out works too.
    status, _, body = _get(_opener(), url + "/?token=dwarves")
    assert status == 200 and "Open the dashboard" in body
    # Issue 58: the landing page in the pseudo-language: no word outside the catalogue but
    # the notebooks' file names; its links keep the page's language.
    status, _, body = _get(opener, url + "/?lang=qps")
    assert status == 200 and 'lang="qps"' in body
    names = {w for n in (ROOT / "notebooks").glob("*.ipynb")
             for w in re.findall(r"[A-Za-z]+", n.name)}
    shown = _what_a_reader_reads(body)
    assert "⟦" in shown and escaped(shown, names) == [], escaped(shown, names)
    assert "voila/render/dashboard.ipynb?lang=qps" in body
    assert server.log().count("Kernel started") == 2  # the class page starts no kernel


@pytest.mark.slow(reason="three dashboards rendered and the pool refilled (two kernels run "
                        "the notebook): about 5 s of CPU")
def test_pages_take_warm_kernels_and_the_pool_refills_to_the_spares_after_the_burst(
        class_server) -> None:  # type: ignore[no-untyped-def]
    url, server = class_server
    for i in range(3):  # two warm kernels, then one started on demand (three students)
        opener = _opener(f"127.0.0.{20 + i}")
        _get(opener, url + "/?token=dwarves")
        status, _, body = _get(opener, url + "/voila/render/dashboard.ipynb")
        assert status == 200 and "voila" in body
    burst = server.log()
    assert burst.count("Using pre-heated kernel") >= 2
    # --refill-quiet 2: then the pool refills, to the spares (2) only. Whether the refill
    # began before the third page came (a busy machine) or after, five kernels started in
    # all: the class's two, one for the third page, two spares. (That no replacement
    # starts while pages keep coming: test_serving, on a clock of its own.)
    wait_until(lambda: server.log().count("Kernel started") >= 5, "the pool refilled")
    # The class's fill, then the refill's (it may come before the third page's HTML: a
    # cold page renders for a minute on a busy machine).
    wait_until(lambda: server.log().count("Kernel pool of dashboard.ipynb is filled") >= 2,
               "the pool refill ended")
    assert server.log().count("Kernel started") == 5


@pytest.mark.slow(reason="two dashboards rendered (their kernels run the notebook) and "
                        "ended when their pages never come, the pool refilling meanwhile: 15 to 30 s of CPU")
def test_a_client_holds_a_few_kernels_and_a_page_that_never_came_gives_its_back(
        class_server) -> None:  # type: ignore[no-untyped-def]
    """--kernels-per-client 2: a third page request from the same address starts no
    kernel (429); plain GETs (no browser: no heartbeat) give their kernels back after
    connect_grace, and the address may open pages again."""
    url, server = class_server
    opener = _opener("127.0.0.8")
    assert _login(opener, url, "dwarves")[0] == 200
    # Two pages asked at once: the third request comes while the server holds them (or
    # renders them: a kernel started cold runs the notebook first, a minute on a busy
    # machine, and its grace counts from its HTML), not a grace after the first.
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        asked = [pool.submit(_get, opener, url + "/voila/render/dashboard.ipynb")
                 for _ in range(2)]
        wait_until(lambda: "A page for 127.0.0.8: 2 dashboards held or coming" in server.log(),
                   "the two page requests reached the server")
        status, _, body = _get(opener, url + "/voila/render/dashboard.ipynb")
        got = [f.result() for f in asked]
    assert status == 429 and "Too many dashboards" in body and "2 dashboards" in body
    assert "Page refused: 127.0.0.8 holds 2 dashboards already" in server.log()
    assert [s for s, _, _ in got] == [200, 200]
    found = [re.search(r'"kernelId": "([0-9a-f-]{36})"', page) for _, _, page in got]
    kernels = [k.group(1) for k in found if k is not None]
    assert len(kernels) == len(got) and len(set(kernels)) == 2
    assert _login(_opener("127.0.0.9"), url, "dwarves")[0] == 200  # others are not limited
    wait_until(lambda: all(f"Shutting down kernel {k}: its page never came" in server.log()
                           for k in kernels), "the kernels of pages that never came ended")
    status, _, body = _get(opener, url + "/voila/render/dashboard.ipynb")
    assert status == 200 and "kernelId" in body


def test_no_password_on_a_command_line_in_the_output_or_a_kernels_environment(
        class_server) -> None:  # type: ignore[no-untyped-def]
    """/proc/<pid>/cmdline is readable by every user of the machine: neither the server
    nor a kernel carries the class password there. The server got it in its environment
    (/proc/<pid>/environ: its owner's to read, like a password file) and took it out
    before the kernels started: no kernel has it, nor the process they are forked from. It
    printed it nowhere."""
    _url, server = class_server
    # The fork server checked below is the one started before the server's imports.
    assert "(started with the server)" in server.log()
    # The module's earlier pages' kernels end while this runs (their pages never came): a
    # process that ended meanwhile is passed over (an ended one shows nothing).
    shown: dict[int, tuple[bytes, bytes]] = {}
    for p in [psutil.Process(server.process.pid),
              *psutil.Process(server.process.pid).children(recursive=True)]:
        with contextlib.suppress(OSError):
            shown[p.pid] = (Path(f"/proc/{p.pid}/cmdline").read_bytes(),
                            Path(f"/proc/{p.pid}/environ").read_bytes())
    assert server.process.pid in shown
    assert any(b"ipykernel_launcher" in cmdline for cmdline, _ in shown.values())
    for pid, (cmdline, environ) in shown.items():
        assert b"dwarves" not in cmdline, cmdline
        if pid != server.process.pid:  # the kernels, and the fork server they come from
            assert b"dwarves" not in environ and b"NIDAVELLIR_PASSWORD" not in environ, pid
    # A forked kernel's /proc environ is its fork server's: each kernel's own environment,
    # asked. The module's earlier pages' kernels are being shut down meanwhile (their pages
    # never came): one that no longer answers is passed over; the pool's answer.
    from jupyter_client import BlockingKernelClient

    answers = []
    for connection in server.kernel_connection_files().values():
        client = BlockingKernelClient(connection_file=str(connection))
        client.load_connection_file()
        client.start_channels()
        try:
            client.wait_for_ready(timeout=15)
            reply = client.execute("import os", reply=True, timeout=15, user_expressions={
                "seen": "[k for k, v in os.environ.items() if 'dwarves' in v or 'PASSWORD' in k]"})
        except (RuntimeError, TimeoutError):
            continue  # shut down meanwhile
        finally:
            client.stop_channels()
        answers.append(reply["content"]["user_expressions"]["seen"]["data"]["text/plain"])
    assert answers and set(answers) == {"[]"}, answers
    assert "dwarves" not in server.log()


def test_make_run_keeps_passwords_off_command_lines_and_out_of_its_output() -> None:
    """make prints its recipes and ps shows its command line: `make run PASSWORD=…` is
    refused with the way to do it, and the passwords in the environment reach the server
    without appearing in a recipe."""
    env = {**os.environ, "NIDAVELLIR_PASSWORD": "dwarves-9", "PASSWORD": "",
           "NIDAVELLIR_TEACHER_PASSWORD": "owl-42-9"}
    shown = subprocess.run(["make", "-n", "run", "CLASS=3"], cwd=ROOT, capture_output=True,
                           text=True, timeout=PATIENCE_S, env=env)
    assert shown.returncode == 0 and "nidavellir.serve" in shown.stdout
    assert "dwarves-9" not in shown.stdout + shown.stderr
    assert "owl-42-9" not in shown.stdout + shown.stderr
    # A notebook that does not exist: were the refusal gone, the server would stop at once
    # on it (with other words) instead of starting.
    refused = subprocess.run(["make", "run", "PASSWORD=dwarves-9", "NOTEBOOK=no-such.ipynb"],
                             cwd=ROOT, capture_output=True, text=True, timeout=PATIENCE_S,
                             env=env)
    out, err = refused.stdout, refused.stderr
    assert refused.returncode != 0, out + err
    assert "visible to every user of this machine" in err
    assert "NIDAVELLIR_PASSWORD=" in err and "PASSWORD_FILE=" in err
    assert "dwarves-9" not in out + err
    # Refused while make reads the Makefile, before the setup and the compiled build (a
    # fresh machine, an edited source): even a dry run that would only print the recipes.
    dry = subprocess.run(["make", "-n", "run", "TEACHER_PASSWORD=owl-42-9"], cwd=ROOT,
                         capture_output=True, text=True, timeout=PATIENCE_S, env=env)
    assert dry.returncode != 0 and "visible to every user of this machine" in dry.stderr
    assert "owl-42-9" not in dry.stdout + dry.stderr
    # The environment's names on make's command line are as visible: refused too.
    named = subprocess.run(["make", "-n", "run", "NIDAVELLIR_PASSWORD=dwarves-9"], cwd=ROOT,
                           capture_output=True, text=True, timeout=PATIENCE_S, env=env)
    assert named.returncode != 0 and "visible to every user" in named.stderr
    assert "dwarves-9" not in named.stdout + named.stderr


def test_the_play_tabs_coach_and_charts_for_every_page_of_a_class(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--coach-level``, ``--coach-ahead`` and ``--live-charts`` reach the kernels through
    the variables the dashboards read (a class on a small server: docs/serving.md); a
    level the coach does not know is one clear line."""
    from unittest import mock

    from widgets.coach import coach_ahead, coach_level
    from widgets.dashboard import live_charts

    with mock.patch.dict(os.environ), mock.patch.object(os, "execv") as execv:
        for name in (command.COACH_LEVEL_ENV, command.COACH_AHEAD_ENV,
                     command.LIVE_CHARTS_ENV):
            os.environ.pop(name, None)
        assert coach_ahead() and live_charts()
        command.main(["notebooks", "--coach-level", "quick", "--coach-ahead", "off",
                      "--live-charts", "off"])
        assert coach_level() == "quick" and not coach_ahead() and not live_charts()
    execv.assert_called_once()
    with mock.patch.dict(os.environ), mock.patch.object(os, "execv") as execv, \
            pytest.raises(SystemExit):
        command.main(["notebooks", "--coach-level", "grandmaster"])
    err = capsys.readouterr().err
    assert "--coach-level grandmaster: unknown level" in err and "Traceback" not in err
    execv.assert_not_called()
