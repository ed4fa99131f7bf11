"""Issue 42, a class that never loses an answer: the student's link to the class, with the
page played here (what the lab's page extension does in a browser: hello, held, beat; it
keeps every answer the database has not confirmed and sends it to whatever kernel comes
next). The browser test is tests/browser/test_class_view.py; the chaos test, 30 students
whose kernels are killed, tests/test_class_chaos.py."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from servers import PATIENCE_S

from nidavellir.classroom import Answer, ClassStore
from nidavellir.lessons import builtin
from widgets.classroom import ClassLink
from widgets.probability_lessons import ProbabilityLessonApp


class Page:
    """A student's page as the lab's page extension is: it holds what a kernel hands it
    until the kernel says the database has it, and says hello to every new kernel."""

    def __init__(self, student: str | None = None) -> None:
        self.student = student or uuid.uuid4().hex
        self.held: dict[str, dict[str, Any]] = {}
        self.known: dict[str, dict[str, Any]] = {}
        self.place: dict[str, Any] = {}
        self.said: list[dict[str, Any]] = []
        self.link: ClassLink | None = None

    def ids(self, n: int = 4) -> list[str]:
        return [uuid.uuid4().hex for _ in range(n)]

    def connect(self, link: ClassLink, reply: bool = True) -> None:
        """A new kernel's link: the page hears what it sends, and says hello."""
        self.link = link
        assert link.outbox is not None

        def send(content: dict[str, Any]) -> None:
            self.said.append(content)
            if content["kind"] == "hold":
                item = content["item"]
                self.held[item["answer"]["uid"]] = item
                if reply:
                    self.reply_held(item["answer"]["uid"])
            elif content["kind"] == "stored":
                for uid in content["uids"]:
                    if uid in self.held:
                        self.known[uid] = self.held.pop(uid)
            elif content["kind"] == "dropped":
                for uid in content["uids"]:
                    self.held.pop(uid, None)

        link.outbox.send = send  # type: ignore[method-assign]
        link.outbox.observe(lambda c: self.place.update(c["new"]), "place")
        self.message({"kind": "hello", "student": self.student, "place": dict(self.place),
                      "ids": self.ids(), "held": list(self.held.values()),
                      "known": list(self.known.values())})

    def reply_held(self, uid: str) -> None:
        self.message({"kind": "held", "uid": uid, "ids": self.ids(1)})

    def message(self, content: dict[str, Any]) -> None:
        assert self.link is not None and self.link.outbox is not None
        self.link._from_page(self.link.outbox, content, [])


def test_an_answer_is_stored_once_the_page_holds_it_with_the_pages_id(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    page = Page()
    link = ClassLink(store)
    page.connect(link, reply=False)
    assert link.student == page.student  # the page's student, not the kernel's
    link.name.value = "Ada"
    link.send("counting/hunter", "A hunter", 0.4, "probability", 22 / 51, "22/51")
    (uid,) = page.held
    assert link.state_of("counting/hunter") == "page" and store.count() == 0
    page.reply_held(uid)  # the page has it: now the database may
    (answer,) = store.answers()
    assert (answer.uid, answer.student, answer.name) == (uid, page.student, "Ada")
    assert page.known.keys() == {uid} and not page.held
    assert link.state_of("counting/hunter") == "stored"
    assert [s.student for s in store.students()] == [page.student]


def test_a_new_kernel_gets_the_pages_answers_and_stores_each_once(tmp_path: Path) -> None:
    """The kernel dies after the page held the answer (and maybe after the database took
    it): the page sends it to the next kernel, which stores what is missing, once."""
    store = ClassStore(tmp_path)
    page = Page()
    first = ClassLink(store)
    page.connect(first, reply=False)
    first.send("counting/hunter", "A hunter", 0.4, "probability")
    first.send("counting/rare", "A rare card", 0.1, "probability")
    hunter, rare = page.held
    page.reply_held(hunter)  # stored; the kernel dies before "stored" reaches the page
    page.known.clear()
    page.held = {u: i for u, i in ((hunter, first.items[hunter]), (rare, first.items[rare]))}
    page.held = {u: {"answer": i["answer"], "sig": i["sig"]} for u, i in page.held.items()}
    assert store.count() == 1
    page.connect(ClassLink(store))  # a new kernel: hello with what the page holds
    assert sorted((a.uid for a in store.answers()), key=str) == sorted([hunter, rare])
    assert not page.held and page.known.keys() == {hunter, rare}
    page.connect(ClassLink(store))  # and again: nothing counts twice
    assert store.count() == 2


def test_an_answer_changed_on_the_page_is_refused(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    page = Page()
    page.connect(ClassLink(store), reply=False)
    assert page.link is not None
    page.link.send("counting/hunter", "A hunter", 0.4, "probability")
    (uid,) = page.held
    page.held[uid]["answer"] = dict(page.held[uid]["answer"], answer=1.0, name="Teacher")
    forged = {"answer": dict(page.held[uid]["answer"], uid="f" * 32, question="lab/mine",
                             title="<b>made up</b>"), "sig": page.held[uid]["sig"]}
    page.held["f" * 32] = forged
    page.connect(ClassLink(store))
    assert store.count() == 0 and not page.held
    (refusal,) = [m for m in page.said if m["kind"] == "dropped"]
    assert sorted(refusal["uids"]) == sorted([uid, "f" * 32])
    assert refusal["why"] == "not made by this class's lessons"


def test_a_locked_database_keeps_the_answer_on_the_page_and_sends_it_later(
        tmp_path: Path) -> None:
    store = ClassStore(tmp_path, timeout=0.2)
    store.join("someone")
    page = Page()
    link = ClassLink(store)
    page.connect(link)
    holder = sqlite3.connect(store.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        link.send("counting/x", "x", 0.3, "probability")
        assert link.state_of("counting/x") == "kept" and store.count() == 0
        assert "locked" in link.status.value and "kept on this page" in link.status.value
        assert str(tmp_path) not in link.status.value  # no server path on a student's page
        assert len(page.held) == 1 and link.retry.layout.display == ""
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    link.retry.click()  # Send again (in a kernel: by itself every few seconds)
    assert store.count() == 1 and not page.held and link.pending == []
    assert "Sent to your teacher" in link.status.value


def test_an_answer_kept_from_a_run_the_teacher_deleted_is_dropped(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    page = Page()
    page.connect(ClassLink(store), reply=False)
    assert page.link is not None and page.link.generation == 0
    page.link.send("counting/x", "x", 0.3, "probability")
    store.new_run("3b, Tuesday")
    assert store.delete_run(1) == 0
    page.connect(ClassLink(store))
    assert store.count() == 0 and not page.held
    assert any(m["kind"] == "dropped" and "deleted" in m["why"] for m in page.said)


def test_an_answer_made_while_paused_or_beyond_the_lock_is_refused_and_said(
        tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    page = Page()
    page.connect(ClassLink(store))
    link = page.link
    assert link is not None
    store.lock("counting", 2)
    link.send("counting/b", "b", 0.3, "probability", step=2)
    link.send("counting/c", "c", 0.3, "probability", step=3)
    assert [a.question for a in store.answers()] == ["counting/b"]
    assert "step 3 waits for the teacher" in link.status.value and not page.held
    assert any(m["kind"] == "dropped" and "locked at step 2" in m["why"] for m in page.said)
    store.pause()
    link.send("counting/a", "a", 0.3, "probability", step=1)
    assert store.count() == 1 and "paused" in link.status.value
    # A step number a page might change is signed: a page cannot move an answer back.
    store.resume()
    link.send("counting/a", "a", 0.4, "probability", step=1)
    item = next(iter(page.known.values()))
    item["answer"]["step"] = 1 if item["answer"]["step"] != 1 else 2
    assert link._verified(item) is None


def test_the_page_brings_back_the_name_tab_lesson_step_and_predictions(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from widgets.dashboard import Dashboard

    monkeypatch.setenv("NIDAVELLIR_CLASS_DIR", str(tmp_path))
    page = Page()
    dash = Dashboard(bot_delay=0)
    assert dash.link is not None
    page.connect(dash.link)
    dash.link.name.value = "Bo"
    dash.select("lessons")
    lessons = dash.lessons
    assert lessons is not None
    app = lessons.choose("hypergeometric")
    app.next()
    app.prediction.value = 0.45
    app.submit_button.click()
    assert page.place == {"name": "Bo", "tab": "lessons", "lesson": "hypergeometric",
                          "step": 1}
    assert "✔ It went to your teacher" in app.said.value
    # The kernel dies; the page reloads onto a new dashboard and says hello.
    again = Dashboard(bot_delay=0)
    assert again.link is not None
    page.connect(again.link)
    assert again.link.name.value == "Bo"
    assert again.tabs.selected_index == 4 and again.lessons is not None
    restored = again.lessons.app
    assert isinstance(restored, ProbabilityLessonApp)
    assert (restored.lesson.key, restored.index) == ("hypergeometric", 1)
    assert restored.predictions == {1: 0.45}
    assert "Your prediction: <b>0.45</b>. ✔ It went to your teacher" in restored.said.value
    assert ClassStore(tmp_path).count() == 1
    # A dashboard outside class mode has no link at all.
    monkeypatch.delenv("NIDAVELLIR_CLASS_DIR")
    assert Dashboard(bot_delay=0).link is None


def test_a_prediction_outside_the_questions_range_is_refused_and_not_sent(
        tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    app = ProbabilityLessonApp(builtin("expectation"), ClassLink(store))
    app.goto(next(i for i, s in enumerate(app.lesson.steps) if s.answer_kind == "mean"))
    low, high = app.step.question().limits()
    for bad in (1e308, high + 1, low - 1, float("nan")):
        app.prediction.value = bad
        assert app.submit() is False
        assert "between" in app.said.value and app.index not in app.predictions
    assert not store.path.exists() or store.count() == 0
    app.prediction.value = (low + high) / 2
    assert app.submit() and store.count() == 1
    counts = ProbabilityLessonApp(builtin("law-of-large-numbers"), ClassLink(store))
    counts.prediction.value = 10**9
    assert counts.submit() is False and "A number of simulations here is from 1" in counts.said.value


def test_a_new_steps_heading_comes_after_its_line_never_over_the_previous_steps(
        tmp_path: Path) -> None:
    """The page applies the kernel's updates in the order they are made: the step's
    heading is the last of its parts to change, so a page (or a test) that sees "step 3
    of 3" already has step 3's empty prediction line, never step 2's "✔ It went to your
    teacher" (the CI run of 3111523 read that stale line as step 3's)."""
    app = ProbabilityLessonApp(builtin("counting"), ClassLink(ClassStore(tmp_path)))
    app.next()
    assert app.submit() and "✔ It went to your teacher" in app.said.value
    changes: list[tuple[str, str]] = []
    app.title.observe(lambda c: changes.append(("title", c["new"])), "value")
    app.said.observe(lambda c: changes.append(("said", c["new"])), "value")
    app.next()
    assert [part for part, _ in changes] == ["said", "title"]
    assert changes[0][1] == "" and "step 3 of 3" in changes[1][1]


def test_in_a_kernel_the_database_is_written_on_a_thread_of_its_own(tmp_path: Path) -> None:
    """Inside the kernel's loop the lesson never waits for the database: the answer shows
    "on its way", the write runs on the link's thread, and the page hears "stored"."""
    store = ClassStore(tmp_path)
    threads: list[str] = []
    record = store.record

    def watched(*answers: Any) -> Any:
        threads.append(threading.current_thread().name)
        return record(*answers)

    store.record = watched  # type: ignore[method-assign]

    async def scenario() -> tuple[str | None, str | None]:
        page = Page()
        link = ClassLink(store)
        page.connect(link)
        link.send("counting/x", "x", 0.3, "probability")
        at_once = link.state_of("counting/x")
        deadline = time.monotonic() + PATIENCE_S  # the write's thread, however busy
        while link.state_of("counting/x") != "stored" and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        return at_once, link.state_of("counting/x")

    at_once, later = asyncio.run(scenario())
    assert at_once == "sending" and later == "stored"
    assert threads and all(t.startswith("nid-class") for t in threads)
    assert store.count() == 1


# ====================================================================== the teacher leads

def _tab(store: ClassStore) -> Any:
    from widgets.probability_lessons import ProbabilityLessonsTab

    page = Page()
    link = ClassLink(store)
    tab = ProbabilityLessonsTab(link=link)
    page.connect(link)
    return tab, link


def test_a_student_page_follows_the_lock_and_cannot_go_beyond_it(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    tab, link = _tab(store)
    other = next(key for key in tab.entries if key != "counting")
    tab.choose(other)
    store.lock("counting", 2)
    link.check_state()  # in a kernel: every STATE_POLL_S by itself
    app = tab.app
    assert tab.chooser.value == "counting" and tab.chooser.disabled
    assert app.next() and app.index == 1 and app.next_button.disabled
    assert not app.next() and app.index == 1  # a click the page did not disable: refused
    assert "no further than step 2" in link.teacher.value
    tab.chooser.value = other  # a page that changes the lesson anyway goes back
    assert tab.chooser.value == "counting"
    app.goto(len(app.lesson.steps) - 1)  # a restored place beyond the lock: at the lock
    assert app.index == 1
    assert app.back() and not app.next_button.disabled and link.teacher.value == ""
    store.lock("counting", 1)
    link.check_state()
    assert app.index == 0
    store.release()
    link.check_state()
    assert not tab.chooser.disabled and app.next() and app.next()
    # Each step the page showed is in the teacher's progress grid.
    assert {c["step"] for c in store.progress() if c["lesson"] == "counting"} == {1, 2, 3}


def test_a_paused_page_says_eyes_on_the_teacher_and_disables_its_controls(
        tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    tab, link = _tab(store)
    app = tab.app
    store.pause()
    link.check_state()
    assert "Eyes on the teacher" in link.teacher.value
    controls = (app.slider, app.number, app.submit_button, app.simulate_button,
                app.back_button, app.next_button, tab.chooser, link.name)
    assert all(c.disabled for c in controls)
    app.next()  # a page that clicks anyway: still refused by the store
    app.prediction.value = 0.3
    app.submit()
    assert store.count() == 0 and "paused" in link.status.value
    store.resume()
    link.check_state()
    assert "Eyes on the teacher" not in link.teacher.value
    assert not any(c.disabled for c in (app.slider, app.submit_button, tab.chooser, link.name))


def test_a_teacher_led_question_shows_its_answer_only_once_revealed(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    tab, link = _tab(store)
    app = tab.app
    store.set_reveal(app.question_id(), "teacher")
    link.check_state()
    app.prediction.value = 0.3
    assert app.submit() and store.count() == 1
    assert app.simulate_button.disabled and app.simulate() is None
    assert app.answer_box.layout.display == "none"
    assert app.simulation_box.layout.display == "none" and app.reveal_button.disabled
    assert "after the discussion" in link.teacher.value
    # The line under the prediction says what the page lets the student do: wait, while
    # the simulation's button is disabled; run it, once it is not.
    assert "Wait for your teacher to show the simulation" in app.said.value
    assert "Now run the simulation" not in app.said.value
    store.reveal(app.question_id())
    link.check_state()
    assert "Now run the simulation" in app.said.value
    assert not app.simulate_button.disabled and app.simulate() is not None
    # Then the lesson's own sequence (issue 44): the simulation in words, and the exact
    # answer on "Show the exact answer".
    assert app.simulation_box.layout.display != "none"
    assert app.answer_box.layout.display == "none"
    assert app.reveal() and app.answer_box.layout.display == ""


def test_a_kernel_watches_the_class_state_by_itself(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)

    async def main() -> float:
        tab, link = _tab(store)  # the page's hello starts the watch
        store.pause()
        start = time.monotonic()
        while "Eyes on the teacher" not in link.teacher.value:
            assert time.monotonic() - start < PATIENCE_S
            await asyncio.sleep(0.02)
        return time.monotonic() - start

    assert asyncio.run(main()) < PATIENCE_S


def test_the_answer_stored_does_not_open_a_simulation_the_teacher_reveals(
        tmp_path: Path) -> None:
    """The lesson hears that its answer was stored and redraws its buttons: the teacher's
    reveal still holds."""
    store = ClassStore(tmp_path)
    page = Page()
    link = ClassLink(store)
    app = ProbabilityLessonApp(builtin("counting"), link)
    page.connect(link, reply=False)  # the page confirms later, as a browser does
    store.set_reveal(app.question_id(), "teacher")
    link.check_state()
    app.submit()
    page.reply_held(next(iter(page.held)))  # stored now: the lesson hears it
    assert link.state_of(app.question_id()) == "stored"
    assert app.simulate_button.disabled


def test_a_paused_class_reads_eyes_on_the_teacher_on_every_tab_of_the_dashboard(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from widgets.dashboard import Dashboard

    monkeypatch.setenv("NIDAVELLIR_CLASS_DIR", str(tmp_path))
    dash = Dashboard(bot_delay=0)
    assert dash.link is not None and dash.link.teacher in dash.children
    assert dash.link.teacher not in dash.link.widget.children  # shown once
    ClassStore(tmp_path).pause()
    dash.link.check_state()  # the walkthrough's tab: the lessons' tab is not built
    assert "Eyes on the teacher" in dash.link.teacher.value
    ClassStore(tmp_path).resume()
    dash.link.check_state()
    assert dash.link.teacher.value == ""


def test_a_change_for_the_projector_redraws_no_students_page(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    tab, link = _tab(store)
    store.record(Answer(student="s1", question="counting/x", answer=0.5))
    seen: list[Any] = []
    link.on_state(seen.append)
    store.show_names(True)
    store.pin(store.answers()[0].id or 0)
    store.project("counting/x")
    link.check_state()
    assert seen == [] and link.state.names  # known, and nothing redrawn
    store.pause()
    link.check_state()
    assert len(seen) == 1
