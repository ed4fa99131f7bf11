"""Issue 58 in a real browser: the teacher page under a stream of answers.

The teacher page asks for fresh data every second and redraws only what changed (its
``morph``): a button under the pointer stays the same element, a field keeps its focus
and what was typed in it. Before, it rebuilt its answers every second and 3 of 20 clicks
on *Pin* were lost. Here answers keep arriving (a thread records one answer after another
in the class's database, from ever new students, each one moving the pinned answer's
place on the page) while the teacher pins and unpins one answer 20 times, each pin
after a redraw with a new answer: every click lands; and a run name half typed keeps its
focus and its text through the redraws.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nidavellir.classroom import ClassStore
from nidavellir.classroom.store import Answer

from .conftest import VoilaServer, start_voila, stop_voila, watch_page
from .test_dashboard import UPDATE_TIMEOUT, wait_text

pytestmark = pytest.mark.browser

TEACHER_PASSWORD = "owl-58"
QUESTION = "counting/hunter-in-a-tavern"
CLICKS = 20


@pytest.fixture(scope="module")
def teacher_server(tmp_path_factory: pytest.TempPathFactory
                   ) -> Iterator[tuple[VoilaServer, Path]]:
    tmp = tmp_path_factory.mktemp("class-teacher-stream")
    folder = tmp / "class"
    server = start_voila("notebooks", tmp, extra=["--class-dir", str(folder), "--spares", "0"],
                         env={"NIDAVELLIR_TEACHER_PASSWORD": TEACHER_PASSWORD})
    try:
        yield server, folder
    finally:
        stop_voila(server)


def _answer(student: int, name: str) -> Answer:
    return Answer(student=f"s{student}", name=name, question=QUESTION,
                  title="Counting", kind="probability", answer=(student % 10) / 10,
                  exact=0.43, exact_text="22/51", uid=f"u{student}", at=time.time(), step=1)


class Stream(threading.Thread):
    """Answers from ever new students, one every ``every`` seconds, until stopped (the
    load of a class answering: the teacher page has something new at each poll)."""

    def __init__(self, folder: Path, every: float = 0.15) -> None:
        super().__init__(daemon=True)
        self.store = ClassStore(folder)
        self.every = every
        self.stop = threading.Event()
        self.sent = 0

    def run(self) -> None:
        while not self.stop.is_set():
            self.sent += 1
            student = 1000 + self.sent
            self.store.join(f"s{student}", f"Learner {student}")
            self.store.record(_answer(student, f"Learner {student}"))
            self.stop.wait(self.every)


def test_every_click_on_pin_lands_and_a_field_keeps_its_focus_under_a_stream_of_answers(
        teacher_server: tuple[VoilaServer, Path], chromium: Any) -> None:
    server, folder = teacher_server
    store = ClassStore(folder)
    store.join("s1", "Ada")
    store.record(_answer(1, "Ada"))
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    stream = Stream(folder)
    try:
        teacher = context.new_page()
        watch = watch_page(teacher)
        teacher.goto(f"{server.url}/teacher/")
        teacher.locator("input[name=password]").fill(TEACHER_PASSWORD)
        teacher.locator("button[type=submit]").click()
        wait_text(teacher, ".question .count", r"1 of")
        ada = teacher.locator(".answer", has_text="Ada").locator("button.pin")
        ada.wait_for(timeout=UPDATE_TIMEOUT)
        answer_id = ada.get_attribute("data-answer")
        pin = teacher.locator(f"button.pin[data-answer='{answer_id}']")
        stream.start()
        landed = 0
        count = teacher.locator(".question .count")
        seen = count.inner_text()
        for click in range(CLICKS):
            pinned = click % 2 == 0  # what this click makes it
            if pinned:
                # Each pin and unpin come after a redraw with a new answer in it (the
                # hazard: a click lost to a redraw), however fast the clicks land: waited
                # for, not counted.
                count.filter(has_not_text=seen).first.wait_for(timeout=UPDATE_TIMEOUT)
                seen = count.inner_text()
            pin.click()
            teacher.wait_for_function(
                "([sel, on]) => { const b = document.querySelector(sel);"
                " return b !== null && b.classList.contains('on') === on; }",
                arg=[f"button.pin[data-answer='{answer_id}']", pinned], timeout=UPDATE_TIMEOUT)
            landed += 1
        assert landed == CLICKS
        assert stream.sent >= CLICKS // 2, "the answers did not keep arriving"
        # A run name half typed: the redraws (new answers every poll) leave the field, its
        # focus and its text alone.
        field = teacher.locator("#run-name")
        field.click()
        field.type("3b, Tues")
        seen = count.inner_text()
        for _ in range(2):  # two redraws with new answers in them
            count.filter(has_not_text=seen).first.wait_for(timeout=UPDATE_TIMEOUT)
            seen = count.inner_text()
        assert teacher.evaluate("() => document.activeElement && document.activeElement.id") \
            == "run-name"
        assert field.input_value() == "3b, Tues"
        watch.assert_clean()
    finally:
        stream.stop.set()
        if stream.is_alive():
            stream.join(timeout=10)
        context.close()
