"""Every message a page's kernel sends reaches the page, however long the server waits
(widgets/iopub.py, nidavellir/classroom/server/kernels.py ``PageKernelManager``,
nidavellir/classroom/server/app.py ``CountedConnection``).

ZeroMQ dropped what a kernel sent past 1,000 unread messages on each side while the server
did not read, and jupyter_server dropped IOPub messages past 1,000 a second: on a loaded
machine a page lost the end of a What-if branch (about 1,600 messages), and the branch
never showed. Here the server is stopped (SIGSTOP) while the kernel sends 3,200 widget
updates, then let go: the page must get every one, in order.

The page is played at the protocol level (its HTTP request, the kernel websocket, the
widget manager's first request), as tests/class_students.py does; the kernel is driven
over its own ZMQ channels (its connection file), never through the stopped server.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import re
import signal
import uuid
from typing import Any

import pytest
from class_students import DASHBOARD, unpack
from jupyter_client import BlockingKernelClient
from servers import PATIENCE_S, VoilaServer
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

#: Widget updates sent while the server is stopped: past both of ZeroMQ's limits (2,000
#: in all) and past jupyter_server's rate (3,000 in its 3-second window).
BURST = 3200


def _run(client: BlockingKernelClient, code: str) -> str:
    """``code`` run in the page's kernel over its own channels; what it printed."""
    printed: list[str] = []
    reply = client.execute_interactive(
        code, timeout=PATIENCE_S,
        output_hook=lambda m: printed.append(m["content"].get("text", ""))
        if m["msg_type"] == "stream" else None)
    assert reply["content"]["status"] == "ok", reply["content"]
    return "".join(printed)


async def _the_page_gets_the_burst(server: VoilaServer) -> list[int]:
    http = AsyncHTTPClient(force_instance=True)
    page = await http.fetch(server.url + DASHBOARD, request_timeout=PATIENCE_S)
    kernel = re.search(r'"kernelId": "([0-9a-f-]{36})"', page.body.decode())
    assert kernel, "no kernel in the page"
    kernel_id = kernel.group(1)
    await http.fetch(f"{server.url}/nidavellir/api/page/{kernel_id}")  # the page's sign
    session = uuid.uuid4().hex
    ws = await websocket_connect(HTTPRequest(
        server.url.replace("http://", "ws://")
        + f"/api/kernels/{kernel_id}/channels?session_id={session}",
        request_timeout=PATIENCE_S))
    values: dict[str, list[int]] = {}
    opened: set[str] = set()
    answered = asyncio.Event()
    changed = asyncio.Event()
    control = uuid.uuid4().hex

    async def read() -> None:
        while (frame := await ws.read_message()) is not None:
            msg = unpack(frame) if isinstance(frame, bytes) else json.loads(frame)
            kind, content = msg["header"]["msg_type"], msg.get("content", {})
            data = content.get("data", {})
            if kind == "comm_open":
                opened.add(content["comm_id"])
            elif kind == "comm_msg" and content.get("comm_id") == control:
                answered.set()  # the widget manager's first request answered
            elif kind == "comm_msg" and "value" in data.get("state", {}):
                values.setdefault(content["comm_id"], []).append(data["state"]["value"])
            changed.set()

    async def until(ready: Any, what: str) -> None:
        async def wait() -> None:
            while not ready():
                changed.clear()
                await changed.wait()
        try:
            await asyncio.wait_for(wait(), PATIENCE_S)
        except TimeoutError:
            raise AssertionError(f"{what}: not so after {PATIENCE_S:.0f} s") from None

    async def send(msg_type: str, content: dict[str, Any], metadata: Any = None) -> None:
        await ws.write_message(json.dumps({
            "header": {"msg_id": uuid.uuid4().hex, "username": "page", "session": session,
                       "msg_type": msg_type, "version": "5.3", "date": ""},
            "parent_header": {}, "metadata": metadata or {}, "content": content,
            "channel": "shell", "buffers": []}))

    reader = asyncio.ensure_future(read())
    client = BlockingKernelClient(connection_file=str(server.kernel_connection_files()[kernel_id]))
    client.load_connection_file()
    client.start_channels()
    try:
        # What a page's widget manager does first when it connects.
        await send("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                                 "data": {}}, {"version": "1.0.0"})
        await send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
        await until(answered.is_set, "the widgets' states sent to the page")
        model = (await asyncio.to_thread(_run, client, (
            "import ipywidgets as _W\n_burst = _W.IntText(value=-1)\n"
            "print(_burst.model_id, end='')"))).strip()
        # This test's own subscriber (``client``, which reads what each ``_run`` printed
        # and when it ended) connected to the kernel's IOPub around the page's first
        # request, which lifted the limit for the subscribers connected then: one whose
        # connection completed after it keeps ZeroMQ's 1,000. Reading the burst more
        # slowly than the kernel sends it (a busy machine), it then lost the end of it,
        # the "idle" that ends the burst's ``_run`` among it, and the run waited its whole
        # patience (an idle clean run, 29 Nov). Its connection is complete now (it got
        # what the cell above printed): lift the limit for it too, as a page does.
        lifted = await asyncio.to_thread(_run, client, (
            "from widgets import iopub as _iopub\nprint(_iopub.unlimit(), end='')"))
        assert lifted == "True", lifted
        await until(lambda: model in opened, "the new widget opened on the page")
        os.kill(server.process.pid, signal.SIGSTOP)
        try:  # the server reads nothing while the kernel sends it all
            await asyncio.to_thread(_run, client, (
                f"for _i in range({BURST}):\n    _burst.value = _i\n"))
        finally:
            os.kill(server.process.pid, signal.SIGCONT)
        # A last update, sent once the server reads again: when it has come, everything
        # sent before it has (one socket, in order), or never will.
        await asyncio.to_thread(_run, client, "_burst.value = -2")
        await until(lambda: values.get(model, [None])[-1] == -2,
                    "the update sent after the burst reached the page")
        return values[model]
    finally:
        client.stop_channels()
        ws.close()
        await asyncio.gather(reader, return_exceptions=True)
        http.close()


@pytest.mark.slow(reason="3,200 widget updates through a kernel, the server and a "
                         "websocket: about 5 s of CPU")
def test_every_update_reaches_the_page_while_the_server_does_not_read(
        voila_server: VoilaServer) -> None:
    # On a thread of its own: Playwright's synchronous API keeps an event loop in this one
    # while the browser tests before it in the worker run (asyncio.run fails there).
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        got = pool.submit(asyncio.run, _the_page_gets_the_burst(voila_server)).result()
    burst = [v for v in got if v >= 0]
    assert got[-1] == -2
    assert burst == list(range(BURST)), (
        f"the page got {len(burst)} of the {BURST} updates sent while the server did not "
        f"read; the first missing: {next((i for i, v in enumerate(burst) if v != i), len(burst))}")
