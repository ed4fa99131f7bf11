"""Issue 29, a class on school Wi-Fi: compressed and cached responses, heavy extensions
loaded on first use, kernels that leave with their page, connection counts that stay true.

The server tests start the lab's Voila from the project's files (``python -m
nidavellir.serve``, tests/servers.py) and talk HTTP to it; the browser side (a closed page's
kernel ends, an open page's survives, the first screen loads no plotly) is in
tests/browser/test_dashboard.py, the figures in benchmarks/bench_class_protocol.py.
"""

from __future__ import annotations

import asyncio
import base64
import datetime
import functools
import gzip
import http.client
import json
import os
import re
import signal
import socket
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import psutil
import pytest
from servers import VoilaServer, free_port, start_voila, stop_voila, wait_until

from nidavellir.classroom import command
from nidavellir.classroom.server import first_paint as FP
from nidavellir.classroom.server import static as S
from nidavellir.classroom.server.kernels import notebooks_run

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------------- no server

def test_the_page_extension_is_named_by_its_content() -> None:
    path, name = S.page_extension_entry()
    assert path.name == name, (f"{path.name} changed: run `python -m "
                               "nidavellir.classroom.server.static --rehash`")
    package = json.loads((S.PAGE_EXTENSION / "package.json").read_text())
    assert package["jupyterlab"]["_build"]["load"] == f"static/{name}"
    assert S.HASHED_NAME.search(name)


@pytest.mark.parametrize("header, accepted", [
    ("gzip, deflate, br", True), ("br;q=1.0, gzip;q=0.5", True), ("gzip;q=0", False),
    ("identity", False), ("", False), ("*", True), ("deflate", False),
])
def test_accept_encoding(header: str, accepted: bool) -> None:
    assert S.accepts_gzip(header) is accepted


def test_the_gzip_cache_compresses_once_and_again_after_a_change(tmp_path: Path) -> None:
    f = tmp_path / "app.js"
    f.write_text("var x = 1;\n" * 500)
    cache = S.GzipCache()
    first = asyncio.run(cache.get(str(f)))
    assert gzip.decompress(first.body) == f.read_bytes()
    assert asyncio.run(cache.get(str(f))) is first  # from memory
    f.write_text("var y = 2;\n" * 600)
    os.utime(f, ns=(time.time_ns(), time.time_ns() + 10**9))
    second = asyncio.run(cache.get(str(f)))
    assert second is not first and second.etag != first.etag
    assert gzip.decompress(second.body) == f.read_bytes()


def test_a_static_files_place_is_remembered_until_the_file_goes(tmp_path: Path) -> None:
    """One stat a request once a URL's file was found and checked; a file that goes is a
    404 again, and a path outside the root never gets in (the checks still run for it)."""
    import tornado.httpclient
    import tornado.httpserver
    import tornado.testing
    import tornado.web

    root = tmp_path / "static"
    root.mkdir()
    (root / "app.js").write_text("var x = 1;\n" * 500)
    (tmp_path / "secret.js").write_text("var secret = 1;\n" * 500)
    checked: list[str] = []

    class Handler(S.CompressedStaticMixin, tornado.web.StaticFileHandler):  # type: ignore[misc]
        def validate_absolute_path(self, root: str, absolute_path: str) -> str | None:
            checked.append(absolute_path)
            return super().validate_absolute_path(root, absolute_path)

    async def fetch(client: Any, port: int, path: str) -> Any:
        return await client.fetch(f"http://127.0.0.1:{port}/s/{path}", raise_error=False,
                                  headers={"Accept-Encoding": "gzip"},
                                  decompress_response=False)

    async def main() -> list[Any]:
        sock, port = tornado.testing.bind_unused_port()
        server = tornado.httpserver.HTTPServer(
            tornado.web.Application([(r"/s/(.*)", Handler, {"path": str(root)})]))
        server.add_sockets([sock])
        client = tornado.httpclient.AsyncHTTPClient()
        try:
            out = [await fetch(client, port, "app.js"), await fetch(client, port, "app.js")]
            (root / "app.js").unlink()
            out.append(await fetch(client, port, "app.js"))
            out.append(await fetch(client, port, "..%2Fsecret.js"))
            return out
        finally:
            server.stop()
            client.close()

    first, second, gone, outside = asyncio.run(main())
    assert first.code == second.code == 200
    assert first.headers["Content-Encoding"] == "gzip" and first.body == second.body
    assert gzip.decompress(first.body) == b"var x = 1;\n" * 500
    assert len([p for p in checked if p.endswith("app.js")]) == 2  # first and after it went
    assert gone.code == 404
    assert outside.code in (403, 404) and b"secret" not in outside.body


def test_templates_are_compiled_once_for_every_exporter(tmp_path: Path) -> None:
    """Voila makes a Jinja environment per page it renders; the compiled code is shared,
    and a template whose source changes is compiled again."""
    import jinja2

    from nidavellir.classroom.server.app import TemplateCode

    (tmp_path / "page.j2").write_text("{% for i in range(n) %}{{ i }}{% endfor %}")
    cache = TemplateCode()
    compiled: list[str] = []

    class Counting(jinja2.Environment):
        def _compile(self, source: str, filename: str) -> Any:
            compiled.append(filename)
            return super()._compile(source, filename)

    def render(n: int) -> str:
        env = Counting(loader=jinja2.FileSystemLoader(str(tmp_path)), bytecode_cache=cache)
        return env.get_template("page.j2").render(n=n)

    assert render(3) == "012" and render(4) == "0123"
    assert len(compiled) == 1
    (tmp_path / "page.j2").write_text("{{ n }}")
    assert render(5) == "5" and len(compiled) == 2


class _IOPubStream:
    """A kernel's IOPub stream as the activity watcher uses it: it is given a callback."""

    def on_recv(self, callback: Any) -> None:
        self.callback = callback


class _WatchedKernel:
    """A kernel as the activity watcher sees it: a session, a state, an IOPub stream."""

    last_activity: datetime.datetime  # set by the activity watcher

    def __init__(self, state: str) -> None:
        from jupyter_client.session import Session

        self.session = Session(key=b"class-secret")
        self.execution_state = state
        self.stream = _IOPubStream()

    def connect_iopub(self) -> _IOPubStream:
        return self.stream


def test_the_lean_activity_watcher_reads_what_jupyter_servers_reads() -> None:
    """The class's kernel manager records a kernel's activity and execution state from the
    header frames alone; fed the same IOPub messages, it ends where jupyter_server's
    watcher ends, and a message with a bad signature changes nothing."""
    from jupyter_client.session import Session
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    from nidavellir.classroom.server.kernels import ClassKernelManager

    Kernel = functools.partial(_WatchedKernel, "starting")

    manager = ClassKernelManager(class_size=0, page_timeout=0)
    kernels = {"ours": Kernel(), "theirs": Kernel()}
    manager._kernels.update(kernels)
    manager.start_watching_activity("ours")
    AsyncMappingKernelManager.start_watching_activity(manager, "theirs")
    sender = Session(key=b"class-secret")
    execute = sender.msg("execute_request")
    info = sender.msg("kernel_info_request")
    messages: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
        ("status", {"execution_state": "idle"}, {}),  # starting -> idle
        ("status", {"execution_state": "busy"}, execute["header"]),
        ("comm_msg", {"data": {"method": "update", "state": {"x": "y" * 1000}}},
         execute["header"]),
        ("status", {"execution_state": "idle"}, execute["header"]),
        ("status", {"execution_state": "busy"}, info["header"]),  # untracked parent
    ]
    states: dict[str, list[tuple[str, bool]]] = {name: [] for name in kernels}
    long_ago = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
    for msg_type, content, parent in messages:
        msg = sender.msg(msg_type, content=content, parent=parent)
        for name, kernel in kernels.items():
            kernel.last_activity = long_ago
            kernel.stream.callback(sender.serialize(msg, ident=[b"kernel.iopub"]))
            states[name].append((kernel.execution_state, kernel.last_activity != long_ago))
    assert states["ours"] == states["theirs"]
    assert [s for s, _ in states["ours"]] == ["idle", "busy", "busy", "idle", "idle"]
    forged = Session(key=b"another-key").serialize(
        sender.msg("status", content={"execution_state": "busy"}, parent=execute["header"]))
    kernels["ours"].stream.callback(forged)
    assert kernels["ours"].execution_state == "idle"


def test_the_notebooks_run_is_not_sent_the_widgets_messages() -> None:
    """The server's run of a page's notebook (nbclient, with the kernel manager's client)
    subscribes to every IOPub topic but the widgets': run in a real kernel, a notebook that
    prints, shows widgets and changes one, updates a display, ends a cell on a value and
    raises gives the run its printed text, displays, result and error, and no widget
    message; a page's socket (the manager's own ``connect_iopub``) gets them all; a run
    with jupyter_client's usual client got them too."""
    import nbformat
    from nbclient import NotebookClient

    from nidavellir.classroom.server.kernels import NotebookRunClient, PageKernelManager

    source = ("import ipywidgets as w\nprint('dealt')\nbox = w.VBox([w.Button(description='a'), "
              "w.IntSlider()])\ndisplay(box)\nbox.children[1].value = 3")

    class Counting(NotebookClient):  # type: ignore[misc]
        seen: list[str]

        def process_message(self, msg: dict[str, Any], cell: Any, cell_index: int) -> Any:
            self.seen.append(msg["msg_type"])
            return super().process_message(msg, cell, cell_index)

    async def run(client_class: str) -> tuple[list[str], list[Any], list[bytes]]:
        manager = PageKernelManager(kernel_name="python3", client_class=client_class)
        await manager.start_kernel(cwd=str(ROOT))
        page = manager.connect_iopub()
        topics: list[bytes] = []
        ran = asyncio.Event()
        idle: list[str] = []

        def received(frames: list[bytes]) -> None:
            topics.append(frames[0])
            _, parts = manager.session.feed_identities(frames)
            msg = manager.session.deserialize(parts)
            if (msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle"
                    and msg["parent_header"].get("msg_type") == "execute_request"):
                idle.append(msg["parent_header"]["msg_id"])
                if len(idle) == 3:
                    ran.set()  # the last message of the third cell: the page has had all

        page.on_recv(received)
        try:
            notebook = nbformat.v4.new_notebook(cells=[
                nbformat.v4.new_code_cell(source),
                nbformat.v4.new_code_cell("shown = display('first', display_id=True)\n"
                                          "shown.update('second')\n6 * 7"),
                nbformat.v4.new_code_cell("raise ValueError('no such card')")])
            notebook.metadata.kernelspec = {"name": "python3", "language": "python",
                                            "display_name": "Python 3"}
            runner = Counting(notebook, km=manager, allow_errors=True,
                              resources={"metadata": {"path": str(ROOT)}})
            runner.seen = []
            await runner.async_execute()
            await asyncio.wait_for(ran.wait(), 60)
            return runner.seen, [o for cell in notebook.cells for o in cell.outputs], topics
        finally:
            page.close()
            await manager.shutdown_kernel(now=True)

    assert PageKernelManager(kernel_name="python3").client_factory is NotebookRunClient
    seen, outputs, page_topics = asyncio.run(run(f"{NotebookRunClient.__module__}."
                                                 "NotebookRunClient"))
    kinds = ["stream", "display_data", "display_data", "execute_result", "error"]
    assert [o["output_type"] for o in outputs] == kinds
    assert outputs[0]["text"] == "dealt\n"
    assert "application/vnd.jupyter.widget-view+json" in outputs[1]["data"]
    assert outputs[2]["data"]["text/plain"] == "'second'"  # the update reached the run
    assert outputs[3]["data"]["text/plain"] == "42" and outputs[4]["ename"] == "ValueError"
    assert not [t for t in seen if t.startswith("comm")], seen
    widget_messages = [t for t in page_topics if t.startswith(b"comm-")]
    assert len(widget_messages) >= 6, page_topics  # four widgets opened (two layouts), a change
    usual, usual_outputs, _ = asyncio.run(run("jupyter_client.asynchronous.AsyncKernelClient"))
    assert [o["output_type"] for o in usual_outputs] == kinds
    assert usual.count("comm_open") >= 4 and "comm_msg" in usual, usual


def test_the_static_digest_follows_the_files(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text("a")
    before = S.static_digest([str(tmp_path)], "0.5.13")
    assert before == S.static_digest([str(tmp_path)], "0.5.13")
    assert before != S.static_digest([str(tmp_path)], "0.5.14")
    (tmp_path / "a.js").write_text("ab")
    assert before != S.static_digest([str(tmp_path)], "0.5.13")


def test_the_first_paint_list_is_this_installations() -> None:
    """The list was recorded with this Voila (pinned in pyproject.toml: an upgrade fails
    here until the list is recorded again; the server would otherwise serve no bundle and
    say so only in its log) and every Voila chunk it names is installed. A widget-manager
    chunk's name carries its content hash: a new ipywidgets release renames them, and the
    server then leaves the missing ones out (the page loads the new ones by itself), so
    those may be missing here, named in the message."""
    from voila._version import __version__ as voila_version
    from voila.paths import collect_static_paths
    from voila.utils import get_voila_labextensions_path

    from nidavellir.classroom.server.app import ClassVoila

    version, files = FP.load_list()
    assert version == voila_version, (
        f"first_paint.json was recorded with Voila {version}, this is {voila_version}: run "
        "`python -m nidavellir.classroom.server.first_paint --record`")
    static = collect_static_paths(["voila", "nbconvert"], command.TEMPLATE)
    labs = get_voila_labextensions_path()
    bundle = FP.build(files, static, labs)
    assert bundle is not None
    assert not [f for f in bundle.missing if f.startswith(FP.STATIC)], bundle.missing
    assert len(bundle.included) >= 70, (
        f"{len(bundle.missing)} listed chunks are not installed ({bundle.missing[:4]}): run "
        "`python -m nidavellir.classroom.server.first_paint --record`")
    assert len(files) >= 50 and all(f.endswith(".js") for f in files)
    assert not [f for f in files if "remoteEntry." in f]  # containers load themselves
    assert ClassVoila.first_paint.default_value is True


def test_the_first_paint_bundle_joins_the_listed_chunks_safely(tmp_path: Path) -> None:
    static, lab = tmp_path / "static", tmp_path / "labs"
    (lab / "w" / "static").mkdir(parents=True)
    static.mkdir()
    (static / "1.voila.js").write_text('(self.c=self.c||[]).push([[1],{1:()=>{}}])\n'
                                       "//# sourceMappingURL=1.voila.js.map\n")
    (static / "2.voila.js").write_text("(self.c=self.c||[]).push([[2],{2:()=>{}}]);")
    (lab / "w" / "static" / "7.abcdef12.js").write_text("(self.d=self.d||[]).push([[7],{}])")
    files = ["static/2.voila.js", "labextensions/w/static/7.abcdef12.js",
             "static/9.voila.js", "static/1.voila.js"]
    bundle = FP.build(files, [str(static)], [str(lab)])
    assert bundle is not None
    assert bundle.included == ["static/2.voila.js", "labextensions/w/static/7.abcdef12.js",
                               "static/1.voila.js"]
    assert bundle.missing == ["static/9.voila.js"]
    body = bundle.body.decode()
    # In the list's order; no source map pointing beside a file that is not there; no
    # file's last expression runs into the next one's opening parenthesis.
    assert body.index("[[2]") < body.index("[[7]") < body.index("[[1]")
    assert "sourceMappingURL" not in body
    assert body.count("\n;\n") == 3
    assert bundle.body.startswith(FP.COMPILE_HINT)  # Chromium compiles it as it streams
    assert re.fullmatch(r"first-paint\.[0-9a-f]{16}\.js", bundle.name)
    assert S.HASHED_NAME.search(bundle.name)  # cached for good wherever it is served
    same = FP.build(files, [str(static)], [str(lab)])
    assert same is not None and same.name == bundle.name
    # The list, and what the server does with it.
    listing = tmp_path / "first_paint.json"
    listing.write_text(json.dumps({"voila": "0.5.13", "files": files}))
    got, note = FP.for_server("0.5.13", [str(static)], [str(lab)], listing)
    assert got is not None and got.name == bundle.name and "static/9.voila.js" in note
    got, note = FP.for_server("0.6.0", [str(static)], [str(lab)], listing)
    assert got is None and "recorded with Voila 0.5.13" in note and "--record" in note
    assert FP.for_server("0.5.13", [], [], listing)[0] is None


@pytest.mark.parametrize("text, complaint", [
    ("{", "cannot read"),
    ('{"files": []}', "expected"),
    ('{"voila": "0.5.13", "files": ["../../etc/passwd.js"]}', "entries must be"),
    ('{"voila": "0.5.13", "files": ["static/a.css"]}', "entries must be"),
])
def test_a_malformed_first_paint_list_is_named(tmp_path: Path, text: str,
                                               complaint: str) -> None:
    listing = tmp_path / "first_paint.json"
    listing.write_text(text)
    with pytest.raises(FP.FirstPaintError, match=complaint) as info:
        FP.load_list(listing)
    assert str(listing) in str(info.value)


def test_the_first_paint_command_shows_the_list_or_names_what_is_wrong(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert FP.main([]) == 0
    assert f"recorded with Voila {FP.load_list()[0]}" in capsys.readouterr().out
    broken = tmp_path / "first_paint.json"
    broken.write_text('{"voila": 5}')
    assert FP.main(["--out", str(broken)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and str(broken) in err and "Traceback" not in err


def test_the_ready_message_waits_for_the_notebooks_not_the_kernel_starts() -> None:
    """Voila's pool task resolves once its kernel started; its "task" then runs the
    notebook. The class is ready only when every notebook ran."""

    async def scenario() -> tuple[float, float, int, list[str]]:
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        runs = [asyncio.ensure_future(asyncio.sleep(0.3 + 0.1 * i)) for i in range(3)]

        async def start(i: int) -> dict[str, Any]:
            await asyncio.sleep(0.05)
            return {"kernel_id": f"k{i}", "task": runs[i]}

        async def broken() -> dict[str, Any]:
            raise RuntimeError("no such kernel spec")

        tasks = [asyncio.ensure_future(start(i)) for i in range(3)]
        tasks.append(asyncio.ensure_future(broken()))
        ready, failures = await notebooks_run(tasks)
        return loop.time() - t0, max(r.get_loop().time() for r in runs) - t0, ready, failures

    elapsed, _, ready, failures = asyncio.run(scenario())
    assert elapsed >= 0.5  # the slowest notebook (0.5 s), not the kernel starts (0.05 s)
    assert ready == 3
    assert len(failures) == 1 and "did not start" in failures[0] and "kernel spec" in failures[0]


def test_pool_kernels_start_a_few_at_a_time_in_the_order_pages_take_them() -> None:
    """Issue 58: after a restart, 30 pool kernels started together on two cores were all
    ready 30 s later, together. ClassKernelManager starts ``starting_at_once`` at a time
    (a kernel's turn ends when it has run the notebook, or failed to start), in the order
    Voila asked; a kernel restarted in place does not wait its turn."""
    from nidavellir.classroom.server.kernels import ClassKernelManager

    class Pool(ClassKernelManager):  # type: ignore[misc]
        """Voila's pool class derives from the class manager; its _initialize starts a
        kernel and returns the task that runs the notebook in it."""

        def __init__(self, **kwargs: Any) -> None:
            self.log_of: list[tuple[str, str]] = []
            self.running = self.most = 0
            self.stopped_now: bool | None = None
            super().__init__(**kwargs)

        async def shutdown_all(self, now: bool = False) -> None:  # type: ignore[override]
            self.stopped_now = now
            await super().shutdown_all(now=now)

        async def _initialize(self, notebook_path: str, kernel_id: str | None = None,
                              **kwargs: Any) -> dict[str, Any]:
            name = kernel_id or kwargs["name"]
            self.log_of.append(("start", name))
            self.running += 1
            self.most = max(self.most, self.running)
            await asyncio.sleep(0.02)  # the kernel starts
            if name == "broken":
                self.running -= 1
                raise RuntimeError("no such kernel spec")
            if name == "hangs":  # its notebook run never ends
                return {"kernel_id": name, "task": asyncio.get_running_loop().create_future()}

            async def run() -> None:  # it runs the notebook
                await asyncio.sleep(0.05)
                self.running -= 1
                self.log_of.append(("ran", name))

            return {"kernel_id": name, "task": asyncio.ensure_future(run())}

    async def scenario() -> Pool:
        km = Pool(starting_at_once=2, page_timeout=0)
        names = ["k0", "broken", "k2", "k3", "k4", "k5"]
        tasks = [asyncio.ensure_future(km._initialize("dashboard.ipynb", None, name=n))
                 for n in names]
        await asyncio.sleep(0.01)
        again = await km._initialize("dashboard.ipynb", "restarted")  # in place: no turn
        results = await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(again["task"], *(r["task"] for r in results
                                              if isinstance(r, dict)))
        assert isinstance(results[1], RuntimeError)
        return km

    km = asyncio.run(scenario())
    starts = [name for what, name in km.log_of if what == "start"]
    assert [n for n in starts if n != "restarted"] == ["k0", "broken", "k2", "k3", "k4", "k5"]
    assert starts.index("restarted") < starts.index("k2")  # it did not wait for a turn
    assert km.most == 3  # two in turn, and the restarted one beside them
    assert ClassKernelManager(page_timeout=0).at_once() >= 2  # the cores, and one more

    async def stuck_and_stopping() -> tuple[Pool, list[Any]]:
        # A notebook run that hangs holds its turn only turn_limit seconds; a server that
        # stops starts none of the kernels still waiting (Voila awaits each pool task as
        # it shuts down: each would start a kernel only to stop it).
        km = Pool(starting_at_once=1, turn_limit=0.2, page_timeout=0)
        first = await asyncio.wait_for(
            km._initialize("dashboard.ipynb", None, name="hangs"), 1)
        second = asyncio.ensure_future(km._initialize("dashboard.ipynb", None, name="k1"))
        third = asyncio.ensure_future(km._initialize("dashboard.ipynb", None, name="k2"))
        done = await asyncio.wait_for(second, 2)  # after the first's turn_limit
        await km.shutdown_all()  # k2 still waits for k1's turn (k1 runs on)
        outcome = await asyncio.gather(third, return_exceptions=True)
        first["task"].cancel()
        await asyncio.gather(done["task"])
        return km, [first, done, *outcome]

    km, outcome = asyncio.run(stuck_and_stopping())
    assert [name for what, name in km.log_of if what == "start"] == ["hangs", "k1"]
    assert isinstance(outcome[2], RuntimeError) and "stopping" in str(outcome[2])
    # A stopping server ends its kernels at once: nothing in a page's kernel needs a
    # graceful end (the page holds an answer until the database has it), and 30 graceful
    # ends took 1-3 s of a restart.
    assert km.stopped_now is True

    async def gracefully() -> bool | None:
        km = Pool(page_timeout=0, end_kernels_at_once=False)  # a coverage run's servers
        await km.shutdown_all()
        return km.stopped_now

    assert asyncio.run(gracefully()) is False


def test_a_page_that_comes_before_the_first_pool_kernel_waits_for_the_pool() -> None:
    """Issue 58: Voila gives a page a pool kernel only once the pool's first kernel has
    started (before, it starts the page a kernel of its own). After a restart, 30 pages
    coming back at once each started their own beside the pool's 30, and all came back
    together. ``pool_warming`` holds such a page until the first pool kernel has started;
    it does not hold a page when the pool has started, or has no kernel coming."""
    from nidavellir.classroom.server.kernels import ClassKernelManager

    async def scenario() -> list[tuple[str, float]]:
        km = ClassKernelManager(page_timeout=0)
        loop = asyncio.get_running_loop()
        first = loop.create_future()
        data: dict[str, Any] = {}  # Voila's pool class's notebook_data
        setattr(km, "_pools", {"dashboard.ipynb": [first, loop.create_future()]})  # noqa: B010
        setattr(km, "notebook_data", data)  # noqa: B010
        seen: list[tuple[str, float]] = []
        began = loop.time()

        async def page(name: str, notebook: str) -> None:
            await km.pool_warming(notebook)
            seen.append((name, round(loop.time() - began, 2)))

        pages = [asyncio.ensure_future(page("early", "dashboard.ipynb")),
                 asyncio.ensure_future(page("no pool", "other.ipynb"))]
        await asyncio.sleep(0.2)

        def started() -> None:
            data["dashboard.ipynb"] = {"template": "nidavellir"}
            first.set_result({"kernel_id": "k1"})

        loop.call_soon(started)
        await asyncio.gather(*pages)
        await page("after", "dashboard.ipynb")
        return seen

    seen = asyncio.run(scenario())
    assert [name for name, _ in seen] == ["no pool", "early", "after"]
    assert dict(seen)["early"] >= 0.2  # held until the first pool kernel had started


def test_the_cores_counted_are_the_affinitys_within_a_containers_quota(
        tmp_path: Path) -> None:
    """How many pool kernels start at once follows the cores the server may use: its CPU
    affinity, and a cgroup v2 quota below it (``docker --cpus``)."""
    from nidavellir.classroom.server.kernels import usable_cores

    affinity = len(os.sched_getaffinity(0))
    cpu_max = tmp_path / "cpu.max"
    for text, cores in (("max 100000\n", affinity), ("150000 100000\n", min(affinity, 2)),
                        ("50000 100000\n", 1), ("nonsense\n", affinity)):
        cpu_max.write_text(text)
        assert usable_cores(str(cpu_max)) == cores, text
    assert usable_cores(str(tmp_path / "absent")) == affinity


def test_a_kernel_lives_as_long_as_its_page() -> None:
    """ClassKernelManager's page policy, without a server: signs (websocket, heartbeat)
    keep a page's kernel; none for page_timeout, or none at all for connect_grace, and it
    is the page's no more; a pool kernel is nobody's page."""
    from nidavellir.classroom.server.kernels import ClassKernelManager

    async def scenario() -> list[str | None]:
        km = ClassKernelManager(page_timeout=45.0, connect_grace=60.0)
        try:
            for k in ("pooled", "quiet", "open", "gone", "cold"):
                km._kernels[k] = object()
                km._kernel_connections[k] = 0
            km.page_sign("pooled")  # e.g. a websocket to it while it waited in the pool
            t = time.monotonic()
            for k in ("quiet", "open", "gone", "cold"):
                km.handed_to_page(k)
            km._rendered["cold"] = t + 50  # started for its page: its last cell ended at 50 s
            km._kernel_connections["open"] = 1
            km.page_sign("gone")
            seen = [km.page_gone("pooled", t + 999),       # not a page's kernel
                    km.page_gone("quiet", t + 30),         # its page may still be coming
                    km.page_gone("quiet", t + 61),         # it never came
                    km.page_gone("open", t + 10_000),      # a websocket is open
                    km.page_gone("gone", t + 40),          # last sign 40 s ago
                    km.page_gone("gone", t + 46)]          # 46 s ago
            seen += [km.page_gone("cold", t + 61),         # 11 s after its HTML
                     km.page_gone("cold", t + 111)]        # 61 s after its HTML
            km.handed_to_page("pooled")  # a sign from before it was handed out is not counted
            seen.append(km.page_gone("pooled", time.monotonic() + 50))
            return seen
        finally:
            for k in list(km._kernels):
                km._kernels.pop(k)

    seen = asyncio.run(scenario())
    assert seen[0] is None and seen[1] is None and seen[3] is None and seen[4] is None
    assert seen[2] is not None and "never came" in seen[2]
    assert seen[5] is not None and "no sign of its page" in seen[5]
    assert seen[6] is None  # a cold kernel's grace counts from its HTML, not its start
    assert seen[7] is not None and "never came" in seen[7]
    assert seen[8] is None


def test_serve_starts_the_labs_voila_with_pages_that_end_their_kernels() -> None:
    args = command.voila_args("notebooks", pool_size=0)
    assert f"--VoilaConfiguration.multi_kernel_manager_class={command.CLASS_MANAGER}" in args
    assert f"--ClassKernelManager.page_timeout={command.DEFAULT_PAGE_TIMEOUT}" in args
    assert command.VOILA_APP == "nidavellir.classroom.server"
    custom = command.voila_args("notebooks", page_timeout=90,
                              extra=["--ClassKernelManager.page_timeout=30"])
    assert [a for a in custom if "page_timeout" in a] == ["--ClassKernelManager.page_timeout=30"]


# ---------------------------------------------------------------------- a real server

@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """The dashboard with a pool of one, as ``make run NOTEBOOK=notebooks/dashboard.ipynb``
    serves it."""
    srv = start_voila("notebooks/dashboard.ipynb", tmp_path_factory.mktemp("serving"))
    try:
        wait_until(lambda: "Kernel pool of dashboard.ipynb is filled" in srv.log(),
                   "the pool of one filled")
        yield srv
    finally:
        stop_voila(srv)


def request(server: VoilaServer, path: str, headers: dict[str, str] | None = None,
            method: str = "GET", body: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        data = r.read()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, data
    finally:
        conn.close()


@pytest.fixture(scope="module")
def page(server: VoilaServer) -> dict[str, Any]:
    """The dashboard page as a browser that accepts gzip gets it: HTML, page config."""
    status, headers, body = request(server, "/", {"Accept-Encoding": "gzip"})
    assert status == 200
    html = gzip.decompress(body).decode()
    data = re.search(r'<script id="jupyter-config-data" type="application/json">'
                     r"(.*?)</script>", html, re.S)
    assert data is not None, "no page config in the page"
    config = json.loads(data.group(1))
    beat(server, config["kernelId"])
    return {"headers": headers, "html": html, "config": config, "wire": len(body)}


def beat(server: VoilaServer, kernel_id: str) -> None:
    """What an open page does every 15 s (its kernel then lives on: docs/serving.md)."""
    status, _, _ = request(server, f"/nidavellir/api/page/{kernel_id}")
    assert status == 204, f"the page's kernel {kernel_id} has ended"


def test_the_page_is_compressed_and_never_cached(page: dict[str, Any]) -> None:
    assert page["headers"]["content-encoding"] == "gzip"
    assert "no-store" in page["headers"]["cache-control"]
    assert page["wire"] < len(page["html"].encode()) / 2
    assert "_xsrf=" in page["headers"].get("set-cookie", "")  # for the shutdown beacon
    # Only the lab's own pages may frame a dashboard.
    assert page["headers"]["content-security-policy"] == "frame-ancestors 'self'"


def test_the_page_never_shows_a_widgets_text_and_carries_its_guards_words(
        page: dict[str, Any]) -> None:
    """Issue 58: a page whose kernel ended before it connected showed the cells' text
    fallback ("LanguagePage(children=...)"); the page's guard says what happened instead,
    in the page's language (its words in every language, in the page config)."""
    assert "LanguagePage(" not in page["html"] and "VBox(children=" not in page["html"]
    assert "window.nidavellirGuard" in page["html"]
    words = page["config"]["nidavellirWords"]
    assert {"en", "de", "fr", "qps"} <= set(words)
    assert words["de"]["lost_stopped"].startswith("Diese Seite")


def test_the_page_loads_no_plotly_or_anywidget_until_it_needs_them(page: dict[str, Any]) -> None:
    config = page["config"]
    loaded = {e["name"] for e in config["federated_extensions"]}
    assert "@nidavellir/voila-page" in loaded
    assert not loaded & {"jupyterlab-plotly", "anywidget"}
    deferred = {e["name"]: e for e in config["nidavellirDeferredExtensions"]}
    assert deferred["jupyterlab-plotly"]["mimeTypes"] == ["application/vnd.plotly.v1+json"]
    assert deferred["anywidget"]["widgets"][0]["name"] == "anywidget"
    assert re.fullmatch(r"/voila/static/_v/[0-9a-f]{16}", config["fullStaticUrl"])


def _assets(page: dict[str, Any]) -> dict[str, str]:
    config = page["config"]
    lazy = next(e for e in config["federated_extensions"]
                if e["name"] == "@nidavellir/voila-page")
    link = re.search(r'href="(/voila/templates/nidavellir/static/index\.css\?v=[0-9a-f]+)"',
                     page["html"])
    assert link is not None, "no stylesheet link in the page"
    css = link.group(1)
    plotly = next(e for e in config["nidavellirDeferredExtensions"]
                  if e["name"] == "jupyterlab-plotly")
    return {
        "voila": config["fullStaticUrl"] + "/voila.js",
        "first-paint": config["fullStaticUrl"] + "/" + config["nidavellirFirstPaint"],
        "lazy": f"/voila/labextensions/@nidavellir/voila-page/{lazy['load']}",
        "plotly": f"/voila/labextensions/jupyterlab-plotly/{plotly['load']}",
        "css": css,
    }


@pytest.mark.parametrize("asset", ["voila", "first-paint", "lazy", "plotly", "css"])
def test_an_asset_is_compressed_when_asked_and_cached_for_good(
        server: VoilaServer, page: dict[str, Any], asset: str) -> None:
    path = _assets(page)[asset]
    status, plain_headers, plain = request(server, path)
    assert status == 200, path
    assert "content-encoding" not in plain_headers
    status, headers, body = request(server, path, {"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert "Accept-Encoding" in headers["vary"]
    assert gzip.decompress(body) == plain
    assert len(body) < len(plain) * 0.6
    for h in (headers, plain_headers):
        assert h["cache-control"] == "public, max-age=31536000, immutable", (asset, h)
    # A conditional request gets 304 and no body.
    status, _, again = request(server, path, {"Accept-Encoding": "gzip",
                                              "If-None-Match": headers["etag"]})
    assert status == 304 and again == b""


def test_the_page_loads_its_first_screens_chunks_as_one_file(server: VoilaServer,
                                                            page: dict[str, Any]) -> None:
    config, html = page["config"], page["html"]
    name = config["nidavellirFirstPaint"]
    bundle = f'<script src="{config["fullStaticUrl"]}/{name}"></script>'
    main = f'<script src="{config["fullStaticUrl"]}/voila.js"></script>'
    # Before voila.js: webpack's runtime then finds the chunks already there.
    assert html.index(bundle) < html.index(main)
    status, headers, body = request(server, _assets(page)["first-paint"],
                                    {"Accept-Encoding": "gzip"})
    assert status == 200
    text = gzip.decompress(body).decode()
    _, files = FP.load_list()
    assert text.count("self.webpackChunk") >= len(files)
    assert "first-paint bundle " + name in server.log()


def test_a_file_not_named_by_its_content_is_revalidated(server: VoilaServer) -> None:
    # Voila's entry point at its own, unversioned address.
    status, headers, body = request(server, "/voila/static/voila.js",
                                    {"Accept-Encoding": "gzip"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert headers["cache-control"] == "no-cache"
    status, _, again = request(server, "/voila/static/voila.js",
                               {"Accept-Encoding": "gzip", "If-None-Match": headers["etag"]})
    assert status == 304 and again == b""
    # A versioned address with a digest that is not the files' now: served, not for good.
    status, headers, _ = request(server, "/voila/static/_v/0000000000000000/voila.js")
    assert status == 200 and headers["cache-control"] == "no-cache"


def test_fonts_are_not_recompressed(server: VoilaServer, page: dict[str, Any]) -> None:
    import voila.paths

    woff = next(name for root in voila.paths.collect_static_paths(["voila", "nbconvert"], "lab")
                if os.path.isdir(root) for name in sorted(os.listdir(root))
                if name.endswith(".woff2"))
    status, headers, _ = request(server, f"{page['config']['fullStaticUrl']}/{woff}",
                                 {"Accept-Encoding": "gzip"})
    assert status == 200 and "content-encoding" not in headers
    assert headers["cache-control"] == "public, max-age=31536000, immutable"


def _websocket_upgrade(port: int, path: str, extensions: str = "") -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
               f"Origin: http://127.0.0.1:{port}\r\n"
               + (f"Sec-WebSocket-Extensions: {extensions}\r\n" if extensions else "")
               + "\r\n").encode())
    return s


def _kernel(server: VoilaServer, kernel_id: str) -> dict[str, Any] | None:
    status, _, body = request(server, f"/api/kernels/{kernel_id}")
    return json.loads(body) if status == 200 else None


def _kernel_process(kernel_id: str) -> psutil.Process:
    for p in psutil.process_iter(["cmdline"]):
        if any(kernel_id in c for c in (p.info["cmdline"] or [])):
            return p
    raise AssertionError(f"no process for kernel {kernel_id}")


def test_a_websocket_closed_before_it_connected_leaves_the_count_at_zero(
        server: VoilaServer, page: dict[str, Any]) -> None:
    """The root of the kernel that outlived its page (issue 29): a page that goes away
    while the server still waits for its kernel's kernel_info reply used to leave the
    kernel's connection count at -1, and the culler never culls a kernel whose count is not
    0. The kernel is stopped (SIGSTOP) so that the server waits while the socket closes."""
    kernel_id = page["config"]["kernelId"]
    beat(server, kernel_id)
    kernel = _kernel(server, kernel_id)
    assert kernel is not None and kernel["connections"] == 0
    process = _kernel_process(kernel_id)
    process.send_signal(signal.SIGSTOP)
    before = len(server.log())
    try:
        sock = _websocket_upgrade(server.port, f"/api/kernels/{kernel_id}/channels?session_id=x")
        # The state, not a time: the server is preparing the websocket (waiting for the
        # stopped kernel's kernel_info) when the page goes away.
        wait_until(lambda: f"Websocket to kernel {kernel_id}: waiting" in server.log()[before:],
                   "the server waits for the kernel")
        sock.close()
        wait_until(lambda: "closed before it connected" in server.log()[before:],
                   "the server saw the websocket close before it connected")
    finally:
        process.send_signal(signal.SIGCONT)
    model = _kernel(server, kernel_id)
    assert model is not None and model["connections"] == 0, model


def test_the_kernel_websocket_is_compressed(server: VoilaServer, page: dict[str, Any]) -> None:
    kernel_id = page["config"]["kernelId"]
    beat(server, kernel_id)
    sock = _websocket_upgrade(server.port, f"/api/kernels/{kernel_id}/channels?session_id=y",
                              "permessage-deflate; client_max_window_bits")
    try:
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            assert chunk, head
            head += chunk
    finally:
        sock.close()
    assert head.startswith(b"HTTP/1.1 101")
    assert b"permessage-deflate" in head.lower()


def test_a_malformed_websocket_message_is_one_line_in_the_log_not_a_traceback(
        server: VoilaServer, page: dict[str, Any]) -> None:
    """Issue 58: each malformed message on a kernel websocket (not the protocol's framing,
    not JSON, JSON without a header) left an uncaught exception's traceback, about 17
    lines, in the teacher's terminal. Now each is dropped with one line, the socket stays
    open and the kernel answers the next good message."""
    import asyncio

    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    kernel_id = page["config"]["kernelId"]
    beat(server, kernel_id)
    before = len(server.log())
    frames: list[str | bytes] = [b"\x00\x00\x00\x07garbage", "not json at all",
                                 '{"channel": "shell", "content": {}}', b"\xff" * 3]

    async def send() -> dict[str, Any]:
        ws = await websocket_connect(HTTPRequest(
            f"ws://127.0.0.1:{server.port}/api/kernels/{kernel_id}/channels?session_id=z",
            headers={"Origin": f"http://127.0.0.1:{server.port}"}))
        try:
            for frame in frames:
                await ws.write_message(frame, binary=isinstance(frame, bytes))
            msg_id = "after-the-garbage"
            await ws.write_message(json.dumps({
                "header": {"msg_id": msg_id, "msg_type": "kernel_info_request",
                           "session": "z", "username": "", "version": "5.3", "date": ""},
                "parent_header": {}, "metadata": {}, "content": {}, "channel": "shell"}))
            while True:
                reply = await asyncio.wait_for(ws.read_message(), 60)
                assert reply is not None, "the socket closed"
                msg = json.loads(reply) if isinstance(reply, str) else {}
                if msg.get("parent_header", {}).get("msg_id") == msg_id and \
                        msg["header"]["msg_type"] == "kernel_info_reply":
                    return msg
        finally:
            ws.close()

    assert asyncio.run(send())["content"]["status"] == "ok"
    log = server.log()[before:]
    assert "Traceback" not in log and "Uncaught exception" not in log, log[-3000:]
    assert log.count("a malformed websocket message") == len(frames), log[-3000:]


@pytest.mark.slow(reason='a dashboard rendered by the server (its kernel runs the notebook) and '
                        'shut down: about 2.5 s of CPU')
def test_the_shutdown_request_of_a_closed_page_ends_its_kernel(server: VoilaServer) -> None:
    """What a page sends when it is closed or reloaded (Voila's beforeunload beacon: a POST
    with the _xsrf cookie's value). Without the cookie (Voila alone) it was refused (403)."""
    status, headers, body = request(server, "/", {"Accept-Encoding": "gzip"})
    html = gzip.decompress(body).decode()
    kernel = re.search(r'"kernelId": "([0-9a-f-]{36})"', html)
    assert kernel is not None, "no kernel id in the page"
    kernel_id = kernel.group(1)
    cookie = headers["set-cookie"].split(";")[0]
    xsrf = cookie.split("=", 1)[1]
    assert _kernel(server, kernel_id) is not None
    # No xsrf value: refused, the kernel stays.
    status, _, _ = request(server, f"/voila/api/shutdown/{kernel_id}", method="POST")
    assert status == 403 and _kernel(server, kernel_id) is not None
    boundary = "nidboundary"
    form = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"_xsrf\"\r\n\r\n{xsrf}\r\n"
            f"--{boundary}--\r\n").encode()
    status, _, _ = request(server, f"/voila/api/shutdown/{kernel_id}", method="POST", body=form,
                           headers={"Cookie": cookie,
                                    "Content-Type": f"multipart/form-data; boundary={boundary}"})
    assert status == 204
    assert _kernel(server, kernel_id) is None
    # A second request (pagehide after beforeunload) is answered, not an error.
    status, _, _ = request(server, f"/voila/api/shutdown/{kernel_id}", method="POST", body=form,
                           headers={"Cookie": cookie,
                                    "Content-Type": f"multipart/form-data; boundary={boundary}"})
    assert status == 204
    assert "Page closed: shutting down its kernel" in server.log()


def test_a_heartbeat_keeps_the_page_alive_and_says_when_the_kernel_is_gone(
        server: VoilaServer, page: dict[str, Any]) -> None:
    kernel_id = page["config"]["kernelId"]
    status, headers, _ = request(server, f"/nidavellir/api/page/{kernel_id}")
    assert status == 204 and headers["cache-control"] == "no-store"
    assert _kernel(server, kernel_id) is not None
    status, _, _ = request(server, "/nidavellir/api/page/00000000-0000-0000-0000-000000000000")
    assert status == 404


#: Malformed requests (issue 42): traversal, encoded traversal, very long, NUL bytes, bad
#: encodings, at every handler the server has. Each must be a 4xx, never a 500.
MALFORMED = [
    "/voila/templates/..%2F..%2F..%2Fpyproject.toml", "/voila/templates/../../../pyproject.toml",
    "/voila/templates/nidavellir/static/..%2F..%2F..%2F..%2Fpyproject.toml",
    "/voila/templates/%2e%2e/%2e%2e/etc/passwd", "/voila/templates/nidavellir/static/%00",
    "/voila/templates/%00", "/voila/templates/nosuch/static/x.css",
    "/voila/templates/" + "a/" * 900, "/voila/templates/%ff%fe",
    "/voila/static/..%2F..%2Fapp.py", "/voila/static/%2e%2e%2f%2e%2e%2fapp.py",
    "/voila/static/_v/abc/..%2F..%2Fx", "/voila/static/%00", "/voila/static/a%00b.js",
    "/voila/labextensions/..%2F..%2Fx", "/voila/labextensions/%00",
    "/voila/labextensions/@nidavellir/voila-page/..%2F..%2F..%2Fserve.py",
    "/voila/render/..%2F..%2Fpyproject.toml", "/voila/render/%00",
    "/voila/render/dashboard.ipynb%00", "/voila/render/../../etc/passwd",
    "/voila/render/x\\..\\y", "/voila/render/%ff.ipynb",
    "/voila/files/..%2F..%2Fpyproject.toml", "/voila/files/%00", "/voila/tree/..%2F..",
    "/voila/api/shutdown/%00", "/voila/api/themes/..%2F..%2Fx", "/voila/api/contents/..%2F..",
    "/api/kernels/%00", "/api/kernels/..%2F..", "/nidavellir/api/page/%00",
    "/nidavellir/api/page/..%2F", "/%00", "/..%2F..%2Fetc%2Fpasswd", "/voila/query/%00",
    "/" + "a" * 3000, "/voila/static/" + "a" * 10_000, "/voila/render/" + "b" * 60_000,
]


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_every_malformed_request_is_a_4xx_without_a_traceback(server: VoilaServer,
                                                              method: str) -> None:
    before = len(server.log())
    answers = {}
    for path in MALFORMED:
        status, headers, body = request(server, path, method=method, body=b"" if method ==
                                        "POST" else None)
        answers[path[:80]] = status
        assert b"Traceback" not in body and b"site-packages" not in body, path[:80]
    assert all(400 <= s < 500 for s in answers.values()), {
        p: s for p, s in answers.items() if not 400 <= s < 500}
    log = server.log()[before:]
    assert "Traceback" not in log and "Uncaught exception" not in log, log[-3000:]


def test_an_error_page_says_what_in_a_sentence(server: VoilaServer) -> None:
    status, headers, body = request(server, "/voila/templates/nidavellir/static/no-such.css")
    assert status == 404 and headers["content-type"].startswith("text/html")
    assert b"404: Not Found" in body and b"There is nothing at this address." in body
    status, _, body = request(server, "/voila/render/" + "b" * 3000)
    assert status == 414 and b"This address is too long." in body


def test_the_pool_refills_once_pages_stop_coming_and_only_to_the_spares(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """ClassKernelManager's refill policy on a clock of the test's own (the server test
    could only race a real refill_quiet): before the class, the pool is filled to the
    class size at once; after, each page that takes a kernel starts no replacement but
    puts the refill off by refill_quiet, and the refill fills to the spares."""
    from nidavellir.classroom.server.kernels import ClassKernelManager

    class Timer:
        def __init__(self, delay: float, callback: Any) -> None:
            self.delay, self.callback, self.cancelled = delay, callback, False

        def cancel(self) -> None:
            self.cancelled = True

    class Loop:
        def __init__(self) -> None:
            self.timers: list[Timer] = []

        def call_later(self, delay: float, callback: Any) -> Timer:
            self.timers.append(Timer(delay, callback))
            return self.timers[-1]

    class Pool:  # what the policy asks of Voila's pool, recorded
        pool_notebook, class_size, spare_kernels, refill_quiet = "dash.ipynb", 30, 2, 20.0
        # The policy under test, on this stand-in for the manager (duck-typed).
        _class_fill = cast(Callable[..., None], ClassKernelManager._class_fill)
        _refill = None
        _initial_done = False

        def __init__(self) -> None:
            self.sizes: list[int] = []
            self.fills: list[float | None] = []

        def _set_pool_size(self, _notebook: str, size: int) -> None:
            self.sizes.append(size)

        def fill_if_needed(self, delay: float | None, _notebook: str, **_kw: Any) -> None:
            self.fills.append(delay)

        def _announce_when_ready(self, _notebook: str) -> None:
            pass

    loop = Loop()
    monkeypatch.setattr(asyncio, "get_event_loop", lambda: loop)
    pool = Pool()
    pool._class_fill(None, "dash.ipynb")  # the server starts: the whole class, now
    assert pool.sizes == [30] and pool.fills == [0] and not loop.timers
    for _ in range(3):  # three pages take kernels: no replacement yet
        pool._class_fill(None, "dash.ipynb")
    assert pool.fills == [0] and pool.sizes == [30, 2, 2, 2]
    assert [t.delay for t in loop.timers] == [20.0] * 3
    assert [t.cancelled for t in loop.timers] == [True, True, False]
    loop.timers[-1].callback()  # refill_quiet without a new page
    assert pool.fills == [0, 0] and pool.sizes[-1] == 2
    pool._class_fill(None, "other.ipynb")  # another notebook: Voila's own policy
    assert pool.fills == [0, 0, None]


def test_the_servers_iopub_sockets_have_no_limit_of_unread_messages() -> None:
    """The class's kernel manager makes kernel managers whose IOPub socket (the page's
    websocket, the activity watcher) keeps every message the server has not read yet
    (PageKernelManager: ZeroMQ's receive limit 0, for none); the other channels and the
    context's defaults keep ZeroMQ's 1,000. A kernel that keeps its own limit (one whose
    page has not connected yet, widgets/iopub.py) then drops nothing while the server's
    reading thread runs. The whole path, kernel and server, is
    tests/browser/test_every_message.py."""
    import zmq
    import zmq.asyncio

    from nidavellir.classroom.server.kernels import ClassKernelManager, PageKernelManager

    assert ClassKernelManager(class_size=0, page_timeout=0).kernel_manager_class == (
        "nidavellir.classroom.server.kernels.PageKernelManager")
    context = zmq.asyncio.Context()
    manager = PageKernelManager(context=context, ip="127.0.0.1", iopub_port=free_port(),
                                shell_port=free_port())
    iopub, shell = manager.connect_iopub(), manager.connect_shell()
    try:
        assert iopub.socket.getsockopt(zmq.RCVHWM) == 0
        assert shell.socket.getsockopt(zmq.RCVHWM) == 1000
        assert zmq.RCVHWM not in context.sockopts
        assert context.socket(zmq.SUB).getsockopt(zmq.RCVHWM) == 1000
    finally:
        iopub.close(linger=0)
        shell.close(linger=0)
        context.destroy(linger=0)


def test_no_log_record_is_made_that_no_handler_writes() -> None:
    """traitlets leaves its application's logger at DEBUG and filters in its handlers: each
    debug line of a class's notebook runs made a record for nothing. The server's logger
    takes its handlers' lowest level (a handler that writes everything keeps DEBUG)."""
    import logging

    from nidavellir.classroom.server.app import no_unwritten_records

    made: list[logging.LogRecord] = []

    class Count(logging.Filter):
        def filter(self, record: logging.LogRecord) -> bool:
            made.append(record)
            return True

    log = logging.getLogger("nidavellir-test-quiet")
    log.propagate = False
    handler = logging.NullHandler()
    handler.setLevel(logging.INFO)
    log.addHandler(handler)
    log.addFilter(Count())
    log.setLevel(logging.DEBUG)
    log.debug("before: made, then dropped by the handler")
    assert len(made) == 1
    no_unwritten_records(log)
    log.debug("not made")
    log.info("made and written")
    assert [r.getMessage() for r in made][1:] == ["made and written"]
    handler.setLevel(logging.DEBUG)
    log.setLevel(logging.DEBUG)
    no_unwritten_records(logging.LoggerAdapter(log, {}))
    assert log.level == logging.DEBUG  # a handler writes debug lines: they are made


def test_activity_is_not_read_again_within_its_grain() -> None:
    """The activity watcher reads a message only if it may change what it records: a
    status message always (the execution state), any other only when the kernel's last
    activity is older than ``ACTIVITY_GRAIN`` (a page's start is hundreds of widget
    messages; the cull's times are minutes)."""
    from jupyter_client.session import Session
    from jupyter_server._tz import utcnow

    from nidavellir.classroom.server.kernels import ClassKernelManager

    manager = ClassKernelManager(class_size=0, page_timeout=0)
    kernel = _WatchedKernel("idle")
    manager._kernels["k"] = kernel
    manager.start_watching_activity("k")
    sender = Session(key=b"class-secret")
    execute = sender.msg("execute_request")
    widget = sender.serialize(sender.msg("comm_msg", content={"data": {}},
                                         parent=execute["header"]))
    # Activity just recorded (dated ahead, so that no pause of this process on a busy
    # machine can make it older than the grain before the next message comes).
    kernel.last_activity = recorded = utcnow() + datetime.timedelta(hours=1)
    kernel.stream.callback(widget)  # within the grain: not read
    assert kernel.last_activity == recorded
    kernel.last_activity = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
    kernel.stream.callback(widget)  # long after: read, and recorded
    assert kernel.last_activity.year > 2000
    busy = sender.serialize(sender.msg("status", content={"execution_state": "busy"},
                                       parent=execute["header"]))
    kernel.stream.callback(busy)  # a status message, within the grain: read
    assert kernel.execution_state == "busy"
    # A busy kernel's messages too (the notebook's run is hundreds of widget messages):
    # within the grain, not read.
    kernel.last_activity = recorded
    kernel.stream.callback(widget)
    assert kernel.last_activity == recorded


def test_the_page_configuration_is_read_once_and_each_caller_gets_its_own() -> None:
    """Voila's page configuration (every lab extension's package.json read from the disk)
    was made again for each pool kernel; the server makes it once and hands out copies."""
    from nidavellir.classroom.server.app import _page_config_once

    calls: list[str] = []

    def make(base_url: str, settings: Any, log: Any, voila_configuration: Any) -> dict[str, Any]:
        calls.append(base_url)
        return {"baseUrl": base_url, "federated_extensions": [{"name": "a"}]}

    once = _page_config_once(make)
    assert _page_config_once(once) is once  # installed once
    settings: dict[str, Any] = {}
    configuration = object()
    first = once("/", settings, None, configuration)
    first["federated_extensions"].append({"name": "changed by its caller"})
    second = once(base_url="/", settings=settings, log=None,
                  voila_configuration=configuration)
    assert second == {"baseUrl": "/", "federated_extensions": [{"name": "a"}]}
    assert calls == ["/"]
    once("/class/", settings, None, configuration)
    assert calls == ["/", "/class/"]


def test_message_dates_are_read_quickly_and_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server reads a message's dates with ``datetime.fromisoformat`` instead of
    dateutil's general parser (60 times faster): every form jupyter_client reads as a date
    gives the same moment and zone; what the standard library cannot read goes to dateutil
    as before (an impossible day fails the same way)."""
    from jupyter_client import jsonutil

    from nidavellir.classroom.server.app import quick_message_dates

    general = jsonutil._dateutil_parse
    monkeypatch.setattr(jsonutil, "_dateutil_parse", general)  # put back after the test
    quick_message_dates()
    quick = jsonutil._dateutil_parse
    assert quick is not general
    quick_message_dates()  # once
    assert jsonutil._dateutil_parse is quick
    for text in ("2026-11-30T00:18:27.123456Z", "2026-11-30T00:18:27Z",
                 "2026-11-30T00:18:27.1+01:00", "2026-11-30T00:18:27.12-0530",
                 "2026-11-30T00:18:27", "2026-11-30T00:18:27.123Z"):
        assert jsonutil.ISO8601_PAT.match(text)
        with warnings.catch_warnings():  # jupyter_client's own about a date without a zone
            warnings.simplefilter("ignore", DeprecationWarning)
            date, before = jsonutil.parse_date(text), jsonutil._ensure_tzinfo(general(text))
        assert isinstance(date, datetime.datetime)
        assert date == before and date.utcoffset() == before.utcoffset(), text
    with pytest.raises(ValueError):
        jsonutil.parse_date("2026-02-30T00:00:00Z")
    with pytest.raises(ValueError):
        general("2026-02-30T00:00:00Z")
    assert jsonutil.parse_date("not a date") == "not a date"
