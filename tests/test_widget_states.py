"""A page's request for every widget's state, answered while a thread makes widgets
(widgets/widget_states.py): ipywidgets' own answer walks the live dict of widgets and fails
when a thread adds one meanwhile; the lab's answers from a copy."""

from __future__ import annotations

import threading
from typing import Any

import ipywidgets as W
import pytest
from ipywidgets.widgets import widget as ipw

from widgets import widget_states


class _Comm:
    """The control comm: keeps what the kernel sends the page."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, data: dict[str, Any], buffers: Any = None) -> None:
        self.sent.append(data)


def _ask(cls: Any) -> None:
    cls._handle_control_comm_msg({"content": {"data": {"method": "request_states"}}})


@pytest.fixture(autouse=True)
def own_widgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel's widgets are this test's only: a worker of the suite holds the widgets
    of every test it ran before, and writing all their states at each request cost 3.5 s of
    CPU there (0.3 s alone)."""
    monkeypatch.setattr(ipw, "_instances", {})


def test_the_page_gets_every_state_while_a_thread_makes_widgets() -> None:
    widget_states.install()
    kept = [W.HBox([W.Label(str(i))]) for i in range(30)]
    gone = W.Button(description="closed")
    holder = W.HBox([gone])
    gone.close()  # a box holding a closed widget: its state cannot be written
    comm = _Comm()
    before = ipw.Widget._control_comm
    made: list[Any] = []
    started = threading.Event()

    def make() -> None:
        for _ in range(150):
            made.append(W.VBox([W.HTML("x"), W.Button(description="b")]))
            started.set()

    thread = threading.Thread(target=make, daemon=True)
    ipw.Widget._control_comm = comm
    asked = 0
    try:
        thread.start()
        started.wait(30)
        while thread.is_alive() or asked == 0:
            _ask(ipw.Widget)  # ipywidgets' own answer raised here (RuntimeError)
            asked += 1
    finally:
        thread.join()
        ipw.Widget._control_comm = before
    assert len(comm.sent) == asked and all(s["method"] == "update_states" for s in comm.sent)
    last = comm.sent[-1]["states"]
    assert all(w.model_id in last for w in kept)
    assert last[kept[0].model_id]["model_name"] == "HBoxModel"
    assert holder.model_id not in last
    for w in [holder, *kept, *made]:
        w.close()


def test_installing_twice_keeps_one_answer() -> None:
    widget_states.install()
    first = ipw.Widget.__dict__["_handle_control_comm_msg"]
    widget_states.install()
    assert ipw.Widget.__dict__["_handle_control_comm_msg"] is first


def test_a_page_asking_for_the_states_lifts_the_kernels_limit_of_unsent_messages() -> None:
    """The page's first request is the kernel's sign that a page connected: the kernel's
    IOPub socket is told, on its own thread, to keep every message for the subscribers
    connected then (widgets/iopub.py); outside a kernel nothing is done."""
    import zmq

    from widgets import iopub

    context = zmq.Context()
    socket = context.socket(zmq.XPUB)
    scheduled: list[Any] = []

    class Thread:  # the kernel's IOPub thread: runs what it is given, in order
        def __init__(self) -> None:
            self.socket = socket

        def schedule(self, f: Any) -> None:
            scheduled.append(f)

    class Kernel:
        iopub_thread = Thread()

    try:
        assert socket.getsockopt(zmq.SNDHWM) == 1000
        assert iopub.unlimit(Kernel())
        assert socket.getsockopt(zmq.SNDHWM) == 1000  # not from this thread
        scheduled.pop()()
        assert socket.getsockopt(zmq.SNDHWM) == 0
    finally:
        socket.close(linger=0)
        context.term()
    assert not iopub.unlimit()  # no kernel here

    asked: list[bool] = []
    before, ipw.Widget._control_comm = ipw.Widget._control_comm, _Comm()
    original = iopub.unlimit

    def unlimit(kernel: Any = None) -> bool:
        asked.append(True)
        return True

    iopub.unlimit = unlimit
    try:
        _ask(ipw.Widget)
    finally:
        iopub.unlimit = original
        ipw.Widget._control_comm = before
    assert asked == [True]


def test_a_layouts_state_leaves_its_unset_properties_out() -> None:
    """A new layout's model on the page has every property unset unless its state gives
    it: the whole state (a widget's ``comm_open``, the answer to the page's request)
    leaves the unset ones out; a change still sends the property, unset too."""
    widget_states.install()
    layout = W.Layout(width="120px", margin="0 0 4px 0")
    state = layout.get_state()
    assert {k: v for k, v in state.items() if not k.startswith("_")} == {
        "width": "120px", "margin": "0 0 4px 0"}
    assert state["_model_name"] == "LayoutModel"  # what the page makes the model by
    assert layout.get_state("height") == {"height": None}
    sent: list[Any] = []
    layout.comm.send = lambda data, buffers=None: sent.append(data)  # type: ignore[method-assign]
    layout.width = None  # the change is sent, unset
    assert sent[-1]["state"] == {"width": None}
    box = W.HBox([W.Label("x")], layout=W.Layout(display="none"))
    comm = _Comm()
    before, ipw.Widget._control_comm = ipw.Widget._control_comm, comm
    try:
        _ask(ipw.Widget)
    finally:
        ipw.Widget._control_comm = before
    states = comm.sent[-1]["states"]
    assert states[box.layout.model_id]["state"] == box.layout.get_state()
    assert states[box.layout.model_id]["state"]["display"] == "none"
    assert "width" not in states[box.layout.model_id]["state"]
    assert "width" not in states[box.children[0].layout.model_id]["state"]
    for w in [layout, box, *box.children]:
        w.close()
