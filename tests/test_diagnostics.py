"""The comm trace of a page's kernel (widgets/diagnostics.py): with NIDAVELLIR_TRACE_COMMS
set, each message a widget gets from its page is a line, and another once handled; what a
student typed never reaches the file."""

from __future__ import annotations

from pathlib import Path

import ipywidgets as ipw
import pytest

from widgets import diagnostics


@pytest.fixture
def traced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The trace installed for this test only (the class's handler restored after)."""
    path = tmp_path / "comms.txt"
    monkeypatch.setenv(diagnostics.TRACE_VARIABLE, str(path))
    monkeypatch.setattr(ipw.Widget, "_handle_msg", ipw.Widget._handle_msg)
    monkeypatch.setattr(ipw.Widget, diagnostics._INSTALLED, False, raising=False)
    diagnostics.install()
    return path


def test_each_message_is_a_line_and_its_end_another_without_what_was_typed(
        traced: Path) -> None:
    box = ipw.Text(value="")
    box.add_class("nid-class-name")
    box._handle_msg({"buffers": [], "content": {"data": {"method": "update", "buffer_paths": [],
                                          "state": {"value": "Ada Lovelace"}}}})
    assert box.value == "Ada Lovelace"  # handled as without the trace
    clicked: list[ipw.Button] = []
    button = ipw.Button()
    button.add_class("nid-choice")
    button.add_class("nid-move-take-W3")  # a move's button: the student's answer
    button.on_click(clicked.append)
    button._handle_msg({"buffers": [], "content": {"data": {"method": "custom",
                                             "content": {"event": "click"}}}})
    assert clicked == [button]
    lines = traced.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4, lines
    assert lines[0].endswith(f"got {box.model_id[:8]} Text nid-class-name update value")
    assert lines[1].endswith(f"done {box.model_id[:8]}")
    assert lines[2].endswith(f"got {button.model_id[:8]} Button nid-choice custom event")
    assert lines[3].endswith(f"done {button.model_id[:8]}")
    assert "Ada" not in traced.read_text(encoding="utf-8")
    assert "take" not in traced.read_text(encoding="utf-8")  # nor the move clicked
    box.close()
    button.close()


def test_without_the_variable_nothing_is_traced(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(diagnostics.TRACE_VARIABLE, raising=False)
    handler = ipw.Widget._handle_msg
    monkeypatch.setattr(ipw.Widget, diagnostics._INSTALLED, False, raising=False)
    diagnostics.install()
    assert ipw.Widget._handle_msg is handler


def test_what_came_names_the_method_and_keys_only() -> None:
    said = diagnostics.what_came({"content": {"data": {"method": "update", "state": {
        "value": "my secret answer", "index": 3}}}})
    assert said == "update index,value"
    assert diagnostics.what_came({"content": {"data": {"method": "custom",
                                                       "content": "free text"}}}) == "custom"


def test_a_line_the_trace_cannot_write_is_said_in_the_log(
        traced: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """A line missing from the trace would read as a handler that never ended (a browser
    test's failure, 30 Nov): when the file cannot be written, the kernel's standard error
    (the server's log) says so, with the line."""
    traced.mkdir()  # the trace's path is a folder now: opening it to append fails
    button = ipw.Button()
    button.add_class("nid-choice")
    button._handle_msg({"buffers": [], "content": {"data": {"method": "custom",
                                             "content": {"event": "click"}}}})
    err = capfd.readouterr().err
    assert err.count("the comm trace could not be written") == 2, err
    assert f"got {button.model_id[:8]} Button nid-choice custom event" in err
    assert f"done {button.model_id[:8]}" in err
    button.close()


def test_a_click_that_closes_its_own_button_has_its_end(traced: Path) -> None:
    """A move that brings the next decision at once closes the decision's old buttons, the
    clicked one with them, inside its click (widgets/panels.py, ``DecisionPanel.refresh``).
    The trace read the widget's id after the handler, from a widget that no longer had one:
    the error took the ``done`` line with it, so every such click read as a handler that
    never ended (the end-of-age browser test's hero recruit, 30 Nov)."""
    button = ipw.Button()
    button.add_class("nid-choice")
    model = button.model_id[:8]
    button.on_click(lambda b: b.close())
    button._handle_msg({"buffers": [], "content": {"data": {"method": "custom",
                                             "content": {"event": "click"}}}})
    lines = traced.read_text(encoding="utf-8").splitlines()
    assert [line.split(" ", 3)[3] for line in lines] == [
        f"got {model} Button nid-choice custom event", f"done {model}"], lines
