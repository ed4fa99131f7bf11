"""A student's link to the class: a name box, and every answer on its way to the class's store.

In class mode (the server was given a class folder, ``NIDAVELLIR_CLASS_DIR``) the
probability lessons show a *Your name* box (optional: no accounts) and each prediction and
quiz answer goes to the class's SQLite database, where the teacher page reads it. Outside
class mode nothing is shown and nothing is stored.

**An answer lives in the page until the database has it.** The browser survives a kernel
that dies; the kernel does not. So the page holds every answer the database has not
confirmed: :class:`ClassOutbox` is a widget without a view whose front end (the lab's page
extension, ``@nidavellir/voila-page``) keeps them in the browser's storage, keyed by class
and student, with the student's name, tab, lesson and step. Over the widget's messages:

1. the page says **hello**: its student id (made in the page and kept in the browser: a
   reload is the same student), its place (name, tab, lesson, step), a few answer ids made
   in the page, the answers it holds unconfirmed and the latest ones confirmed;
2. an answer the student gives takes one of the page's ids and the kernel's signature
   (an HMAC with the class's secret, :meth:`~nidavellir.classroom.store.ClassStore.
   secret`: what a page sends back is an answer a lesson of this class made, unchanged)
   and goes to the page (**hold**); the page stores it and says so (**held**);
3. only then the kernel writes it to the database, on a thread of its own (the lesson
   never waits for the database); once the database has it the page hears **stored**
   and the lesson shows ✔. An answer the database refused (locked, damaged) stays held
   and is written again every few seconds, and by any kernel the page says hello to: when
   a kernel dies the page says so, reloads onto a new one and sends what it holds;
4. an id is stored once (:meth:`~nidavellir.classroom.store.ClassStore.record`), so a
   resend never counts twice; an answer made in a lesson run the teacher deleted since
   is not stored (**dropped**), nor one made where the teacher's pace or pause did not
   allow it (dropped, and the page says why).

A page also says **beat** every 30 s (the teacher page counts the students whose page is
open). Without a page (a notebook outside Voila, the tests) the kernel writes at once,
with ids of its own.

>>> import tempfile
>>> from nidavellir.classroom import ClassStore
>>> link = ClassLink(ClassStore(tempfile.mkdtemp()), student="s1")
>>> link.name.value = "Ada"
>>> link.send("counting/hunter", "A hunter", 0.4, "probability", 22 / 51, "22/51")
True
>>> [(a.name, a.answer) for a in link.store.answers()], link.state_of("counting/hunter")
([('Ada', 0.4)], 'stored')
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import html
import json
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import ipywidgets as W
from traitlets import Dict, Unicode

from nidavellir.classroom import Answer, ClassStore, StoreError, class_store
from nidavellir.classroom.store import (
    ASKED,
    ID,
    NAME_MAX,
    AskedPosition,
    ClassState,
    Recorded,
    check_answer,
    check_value,
    clean_name,
    move_answer,
)
from nidavellir.i18n import _, count

#: The lab's page extension gives :class:`ClassOutbox` its front end (its package.json
#: version).
PAGE_MODULE = "@nidavellir/voila-page"
PAGE_MODULE_VERSION = "0.1.0"
#: Seconds between two tries of answers the database refused.
RETRY_S = 3.0
#: Seconds between two looks at the teacher's controls (the class's state in the
#: database): a control reaches every student's page within this and a widget message.
STATE_POLL_S = 0.5
#: An answer's state: sent to the page (not held yet), on its way to the database, kept
#: on the page after the database refused it, stored.
PAGE, SENDING, KEPT, STORED = "page", "sending", "kept", "stored"
#: The fields of an answer a page holds, in the order they are signed (``step`` is signed
#: only when there is one: an answer a page held from before steps were sent signs as it did).
FIELDS = ("uid", "student", "name", "question", "title", "kind", "answer", "exact",
          "exact_text", "at", "generation", "step")


class ClassOutbox(W.Widget):  # type: ignore[misc]
    """The page's side of the class link (a widget without a view): its front end holds
    the answers in the browser until the database has them (module docstring)."""

    _model_name = Unicode("ClassOutboxModel").tag(sync=True)
    _model_module = Unicode(PAGE_MODULE).tag(sync=True)
    _model_module_version = Unicode(PAGE_MODULE_VERSION).tag(sync=True)
    class_key = Unicode("").tag(sync=True)
    """Which class: the page keeps each class's answers apart."""
    place = Dict().tag(sync=True)
    """Where the student is (name, tab, lesson, step): the page keeps it for a reload."""


def _canonical(fields: dict[str, Any]) -> bytes:
    """An answer's fields as signed: each of its type, so the same answer read back from
    a page (JSON through JavaScript: 2500.0 comes back as 2500) signs the same."""
    exact, generation = fields.get("exact"), fields.get("generation")
    values = [str(fields["uid"]), str(fields["student"]), str(fields["name"]),
              str(fields["question"]), str(fields["title"]), str(fields["kind"]),
              float(fields["answer"]), None if exact is None else float(exact),
              str(fields["exact_text"]), float(fields["at"]),
              None if generation is None else int(generation)]
    if fields.get("step") is not None:
        values.append(int(fields["step"]))
    if fields.get("move") is not None:  # a position question's answer (signed with it)
        values.append(["move", str(fields["move"])])
    return json.dumps(values, separators=(",", ":")).encode()


def _answer(fields: dict[str, Any]) -> Answer:
    exact, generation = fields.get("exact"), fields.get("generation")
    return Answer(uid=str(fields["uid"]), student=str(fields["student"]),
                  name=str(fields["name"]), question=str(fields["question"]),
                  title=str(fields["title"]), kind=str(fields["kind"]),
                  answer=float(fields["answer"]), exact=None if exact is None else float(exact),
                  exact_text=str(fields["exact_text"]), at=float(fields["at"]),
                  generation=None if generation is None else int(generation),
                  step=None if fields.get("step") is None else int(fields["step"]),
                  move=None if fields.get("move") is None else str(fields["move"]))


def _for_students(state: ClassState) -> tuple[Any, ...]:
    """What of the class's state a student's page follows (a change of anything else
    redraws no lesson)."""
    return (state.run, state.lesson, state.lock, state.paused, state.teacher_led,
            state.revealed, state.asked, state.puzzles)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The kernel's loop when this runs inside it (a widget callback); None in a plain
    program (then the database is written at once, in this thread)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class ClassLink:
    """The page's student and their answers on the way to the class's store."""

    def __init__(self, store: ClassStore | None = None, student: str | None = None,
                 *, from_environment: bool = True, banner: bool = True) -> None:
        """``banner``: the teacher's word (:attr:`teacher`) is shown in :attr:`widget`;
        False when the page shows it elsewhere (the dashboard, above its tabs: a paused
        class reads *Eyes on the teacher* on every tab)."""
        self.store = store if store is not None else (class_store() if from_environment
                                                      else None)
        self.student = student or uuid.uuid4().hex
        #: The class's generation when the page joined (None until then).
        self.generation: int | None = None
        #: Whether a page (the front end of the outbox) said hello.
        self.page = False
        #: Every answer of this page: uid -> {"answer": fields, "sig", "state"}.
        self.items: dict[str, dict[str, Any]] = {}
        #: Each question's latest answer (its uid).
        self.latest: dict[str, str] = {}
        #: What the database said when it last refused (for students: no server paths).
        self.problem = ""
        #: Called after any answer's state changed (the lessons show it).
        self.listeners: list[Callable[[], None]] = []
        self.restored: dict[str, Any] | None = None
        self._place: dict[str, Any] = {}
        self._place_handlers: list[Callable[[dict[str, Any]], None]] = []
        self._reached: set[tuple[str, int]] = set()
        self._ids: list[str] = []
        self._writing = False
        self._join_error = False
        self._retry: asyncio.TimerHandle | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._secret: bytes | None = None
        self._quiet = False
        #: What the teacher decided (pace, pause, reveal), as last read from the database.
        self.state = ClassState()
        self._state_handlers: list[Callable[[ClassState], None]] = []
        self._watching = False
        self._state_pool: ThreadPoolExecutor | None = None
        self._notes: list[str] = []
        self.name = W.Text(description=_("Your name"), placeholder=_("optional: for your teacher"),
                           continuous_update=False, layout=W.Layout(width="320px"))
        self.name.add_class("nid-class-name")
        self.name.add_class("nid-label-fit")  # its label whole in every language
        self.name.observe(self._name_changed, "value")
        self.status = W.HTML()
        self.status.add_class("nid-class-status")
        self.retry = W.Button(description=_("Send again"), layout=W.Layout(width="auto",
                                                                         display="none"))
        self.retry.add_class("nid-class-retry")
        self.retry.on_click(lambda _b: self.flush())
        note = W.HTML("<span class='nid-note'>" + html.escape(
            _("Your predictions go to your teacher's class view.")) + "</span>")
        #: What the teacher's lead means for the page now ("Eyes on the teacher", waiting
        #: at a locked step, an answer the teacher reveals later).
        self.teacher = W.HTML()
        self.teacher.add_class("nid-class-teacher")
        #: The position the teacher asks the class about now (the teacher page's *Ask the
        #: class*): its view, in place of the lesson (:meth:`lead`), until the teacher
        #: ends the question.
        self.asked_box = W.VBox(layout=W.Layout(display="none"))
        self.asked_box.add_class("nid-class-asked")
        self.asked_view: Any = None
        self._asked_steps: dict[int, Any] = {}
        self.widget = W.VBox([W.HBox([self.name, note, self.retry, self.status],
                                     layout=W.Layout(align_items="center",
                                                     flex_flow="row wrap"))]
                             + ([self.teacher] if banner else []) + [self.asked_box],
                             layout=W.Layout(display="" if self.active else "none"))
        self.widget.add_class("nid-class-link")
        self.outbox: ClassOutbox | None = None
        if self.store is not None:
            key = hashlib.sha256(str(self.store.folder.resolve()).encode()).hexdigest()[:16]
            self.outbox = ClassOutbox(class_key=key)
            self.outbox.on_msg(self._from_page)

    @property
    def active(self) -> bool:
        """Whether the page belongs to a class (answers are stored)."""
        return self.store is not None

    @property
    def pending(self) -> list[Answer]:
        """The answers the database does not have yet."""
        return [_answer(i["answer"]) for i in self.items.values() if i["state"] != STORED]

    def state_of(self, question: str) -> str | None:
        """The state of the question's latest answer (``stored``, ``sending``, ``page``,
        ``kept``), or None when this page has not answered it."""
        uid = self.latest.get(question)
        return self.items[uid]["state"] if uid in self.items else None

    def send_move(self, lesson: str, number: int, step: Any, move: Any) -> bool:
        """A student's move in a position step (``step``, a
        :class:`~nidavellir.lessons.position.PositionStep`, number ``number`` of
        ``lesson``): checked against the position's legal moves (ValueError, in one
        sentence, for one that is not legal there), then sent as any answer is: held by
        the page until the database has it, once whatever is sent again."""
        made = move_answer(step, lesson, number, self.student, move)
        return self.send(made.question, made.title, 0.0, "move", step=number, move=made.move)

    def move_to(self, question: str) -> str | None:
        """The page's latest move in a position question (restored after a reload)."""
        uid = self.latest.get(question)
        return self.items[uid]["answer"].get("move") if uid in self.items else None

    def answer_to(self, question: str) -> float | None:
        """The page's latest answer to a question (restored after a reload)."""
        uid = self.latest.get(question)
        return float(self.items[uid]["answer"]["answer"]) if uid in self.items else None

    # ------------------------------------------------------------------ the place

    def on_place(self, handler: Callable[[dict[str, Any]], None]) -> None:
        """Call ``handler`` with the place a page restores (now, if it did already)."""
        self._place_handlers.append(handler)
        if self.restored:
            handler(self.restored)

    def set_place(self, **place: Any) -> None:
        """Where the student is now (the page keeps it for a reload; the teacher's
        progress grid gets each step of a lesson the student reaches)."""
        self._place.update(place)
        if self.outbox is not None and self.outbox.place != self._place:
            self.outbox.place = dict(self._place)
        lesson, step = self._place.get("lesson"), self._place.get("step")
        if (self.store is not None and self.page and isinstance(lesson, str)
                and ID.fullmatch(lesson) and isinstance(step, int) and lesson != "lab"
                and (lesson, step) not in self._reached):
            self._reached.add((lesson, step))
            store, student = self.store, self.student

            def reached(_result: Any, error: BaseException | None) -> None:
                if error is not None:  # a busy database: told again with the next step
                    self._reached.discard((lesson, step))

            self._run(lambda: store.reach(student, lesson, step + 1), reached)

    # ------------------------------------------------------------------ the teacher's lead

    def on_state(self, handler: Callable[[ClassState], None]) -> None:
        """Call ``handler`` with the class's state each time the teacher changes it."""
        self._state_handlers.append(handler)

    def may_reach(self, lesson: str, step: int) -> bool:
        """Whether the student may go to ``step`` (1 for the first) of ``lesson`` now."""
        limit = self.state.limit(lesson)
        return limit is None or step <= limit

    def shows_answer(self, question: str) -> bool:
        """Whether the student sees ``question``'s simulation and exact answer now."""
        return self.state.shows_answer(question)

    def check_state(self) -> ClassState:
        """Read the class's state now (in this thread) and follow it."""
        if self.store is not None:
            with contextlib.suppress(StoreError):
                self._take_state(*self._read_state())
        return self.state

    def _read_state(self) -> tuple[ClassState, AskedPosition | None]:
        """The class's state, with the position the teacher asks about when this page has
        not read it yet (on the link's thread: the database is read off the loop)."""
        assert self.store is not None
        state = self.store.state()
        position = (self.store.position(state.asked) if state.asked is not None
                    and state.asked not in self._asked_steps else None)
        return state, position

    def watch(self) -> None:
        """Look at the class's state every :data:`STATE_POLL_S` seconds, on a thread of
        its own (a write that waits for the database never delays it), for as long as
        the kernel runs. Started when the page says hello: a kernel waiting in the pool
        does not look."""
        loop = _running_loop()
        if self._watching or self.store is None or loop is None:
            return
        self._watching = True
        self._state_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nid-state")
        self._look(loop)

    def _look(self, loop: asyncio.AbstractEventLoop) -> None:
        assert self._state_pool is not None and self.store is not None
        future = self._state_pool.submit(self._read_state)

        def done(f: Future[tuple[ClassState, AskedPosition | None]]) -> None:
            def back() -> None:
                try:
                    if f.exception() is None:
                        self._take_state(*f.result())
                finally:  # whatever a page's redraw did, the page goes on following
                    loop.call_later(STATE_POLL_S, self._look, loop)

            loop.call_soon_threadsafe(back)

        future.add_done_callback(done)

    def _take_state(self, state: ClassState, position: AskedPosition | None = None) -> None:
        before = self.state
        self.state = state
        if position is not None:
            from nidavellir.lessons.position import asked_position_step

            self._asked_steps[position.id] = asked_position_step(position)
        if _for_students(state) == _for_students(before):
            return  # the projector's pins or names, a run renamed: nothing on this page
        self._show_asked()
        try:
            for handler in list(self._state_handlers):
                handler(state)  # the lessons' tab hides its chooser and lesson while asked
        finally:
            # Shown after the tab hid its lesson: never the asked position above the
            # lesson's chooser, even for a moment (a page applies the changes in order).
            if self.asked_box.children:
                self.asked_box.layout.display = ""
        self._teacher_says(self._notes)  # whichever tab the page shows

    def _show_asked(self) -> None:
        """The position the teacher asks about, shown (a new one replaces the one
        before; the same one asked again keeps the student's move), paused with the
        class; or none. A new one is built hidden: :meth:`_take_state` shows its box once
        the tab has made way for it."""
        step = self._asked_steps.get(self.state.asked) if self.state.asked is not None \
            else None
        if step is None or (self.asked_view is not None and self.asked_view.step is not step):
            if self.asked_view is not None:
                with contextlib.suppress(ValueError):
                    self.listeners.remove(self.asked_view._link_changed)
                self.asked_view = None
            self.asked_box.children = ()
            self.asked_box.layout.display = "none"
        if step is None:
            return
        if self.asked_view is None:
            from nidavellir.errors import NidavellirError

            from .position_question import position_app

            heading = W.HTML("<h3 class='nid-heading'>" + html.escape(
                _("Your teacher asks the class: {title}").format(title=step.title)) + "</h3>")
            try:
                self.asked_view = position_app(ASKED, 1, step, self)
            except (NidavellirError, ValueError) as exc:  # checked when asked: never seen
                self.asked_box.children = (heading, W.HTML(
                    "<div class='nid-error'>" + html.escape(
                        _("This position cannot be shown: {error}").format(error=exc)) +
                    "</div>"))
                return
            self.asked_box.children = (heading, self.asked_view)
        self.asked_view.set_paused(self.state.paused)

    def follow(self, app: Any) -> None:
        """A lesson's page as the teacher leads it (after the lesson drew its step):
        paused, every control is disabled; at the locked step, *Next* waits; a question
        whose answer the teacher reveals keeps its simulation and exact value hidden."""
        state, lesson = self.state, app.lesson.key
        question, number = app.question_id(), app.index + 1
        notes = []
        limit = state.limit(lesson)
        if limit is not None and number >= limit:
            app.next_button.disabled = True
            if limit:
                notes.append(_("Your teacher leads: the class goes no further than step "
                               "{step} for now. Wait for your teacher.").format(step=limit))
        if not state.shows_answer(question):
            app.simulate_button.disabled = True
            app.reveal_button.disabled = True
            app.simulation_box.layout.display = "none"
            app.answer_box.layout.display = "none"
            notes.append(_("Your teacher shows the simulation and the exact answer after "
                           "the discussion."))
        if state.paused:
            # Only ever disabled here: the lesson's own state (a locked prediction) was set
            # by its redraw just before, and a resume redraws it.
            for control in (app.slider, app.number, app.submit_button):
                control.disabled = True
            for control in (app.simulate_button, app.reveal_button, app.back_button,
                            app.next_button):
                control.disabled = True
            position = getattr(app, "position_view", None)
            if position is not None:
                position.set_paused(True)
        if getattr(app, "visible", True):
            self._notes = notes
            self._teacher_says(notes)

    def reachable(self, lesson: str, index: int) -> int:
        """The step (0 for the first) a student asking for ``index`` of ``lesson`` goes
        to: no further than the locked step."""
        limit = self.state.limit(lesson)
        return index if limit is None else max(0, min(index, limit - 1))

    def lead(self, tab: Any) -> None:
        """The probability lessons' tab as the teacher leads it: locked to a lesson, the
        tab shows that lesson (no other may be chosen) at the locked step or before it;
        paused, nothing may be chosen; then the lesson follows (:meth:`follow`)."""
        state = self.state
        asking = self.asked_view is not None
        for part in (tab.chooser, tab.summary, tab.body):  # the asked position instead
            part.layout.display = "none" if asking else ""
        if asking:
            self.name.disabled = state.paused
            self._teacher_says([])
            return
        locked = state.lock is not None and state.lesson in tab.entries
        if locked and tab.chooser.value != state.lesson:
            tab.chooser.value = state.lesson  # the tab shows it and comes back here
            return
        tab.chooser.disabled = locked or state.paused
        self.name.disabled = state.paused
        app = tab.apps.get(tab.chooser.value)
        if app is not None and hasattr(app, "lesson"):
            index = self.reachable(app.lesson.key, app.index)
            if index != app.index:
                app.goto(index)
            else:
                app.refresh()
        else:
            self._notes = []
            self._teacher_says([])

    def _teacher_says(self, notes: list[str]) -> None:
        if self.asked_view is not None:  # the lesson's own notes wait for its return
            notes = [_("Your teacher asks the class about a position: answer it on the "
                       "Probability lessons tab.")]
        if self.state.paused:
            self.teacher.value = ("<div class='nid-eyes'>" + html.escape(
                _("Eyes on the teacher")) + "</div>")
        elif notes:
            self.teacher.value = "".join(f"<div class='nid-teacher-note'>{html.escape(n)}"
                                         "</div>" for n in notes)
        else:
            self.teacher.value = ""

    # ------------------------------------------------------------------ joining

    def _name_changed(self, _change: Any) -> None:
        name = clean_name(self.name.value)
        if len(name) > NAME_MAX:
            self.name.value = name[:NAME_MAX]  # observed again, with the shorter name
            self._say(_("A name is at most {most} characters: yours was cut.").format(
                most=NAME_MAX), error=True)
            return
        self.set_place(name=name)
        if not self._quiet:
            self.join()

    def typed_name(self) -> str:
        return clean_name(self.name.value)[:NAME_MAX]

    def join(self) -> bool:
        """Tell the class this student is here (with their name, when typed)."""
        if self.store is None:
            return False
        store, student, name = self.store, self.student, self.typed_name()
        return self._run(lambda: store.join(student, name), self._joined)

    def _joined(self, generation: Any, error: BaseException | None) -> None:
        if isinstance(error, StoreError | ValueError):
            why = error.public if isinstance(error, StoreError) else str(error)
            self._say(_("⚠ Your teacher cannot see you yet: {why}.").format(why=why), error=True)
            self._join_error = True
            return
        if error is not None:
            raise error
        self.generation = int(generation)
        if self._join_error:
            self._join_error = False
            self._changed()

    # ------------------------------------------------------------------ answers

    def _key(self) -> bytes | None:
        if self._secret is None and self.store is not None:
            with contextlib.suppress(StoreError):
                self._secret = self.store.secret()
        return self._secret

    def _sign(self, fields: dict[str, Any]) -> str:
        key = self._key()
        return hmac.new(key, _canonical(fields), hashlib.sha256).hexdigest() if key else ""

    def _verified(self, item: Any) -> dict[str, Any] | None:
        """An answer a page sent back: its fields if a lesson of this class made them
        (the signature holds) and the store would take them; None otherwise."""
        try:
            fields = {k: item["answer"][k] for k in FIELDS if k != "step"}
            fields["step"] = item["answer"].get("step")
            if item["answer"].get("move") is not None:
                fields["move"] = item["answer"]["move"]
            signature = str(item["sig"])
            key = self._key()
            if not key or not hmac.compare_digest(
                    signature, hmac.new(key, _canonical(fields), hashlib.sha256).hexdigest()):
                return None
            check_answer(_answer(fields))
            return fields
        except (KeyError, TypeError, ValueError):
            return None

    def _new_id(self) -> str:
        return self._ids.pop(0) if self._ids else uuid.uuid4().hex

    def send(self, question: str, title: str, answer: float, kind: str,
             exact: float | None = None, exact_text: str = "", step: int | None = None,
             move: str | None = None) -> bool:
        """An answer for the class: to the page first (when there is one), then to the
        database. True when the database has it now (without a page, outside the
        kernel's loop); ValueError for an answer the store would not take. ``step``: the
        step of its lesson it answers (1 for the first; the teacher's pace needs it)."""
        if self.store is None:
            return False
        fields = {"uid": self._new_id(), "student": self.student, "name": self.typed_name(),
                  "question": question, "title": title, "kind": kind,
                  "answer": check_value(answer, kind), "exact": exact,
                  "exact_text": exact_text, "at": time.time(), "generation": self.generation,
                  "step": step, **({"move": move} if move is not None else {})}
        check_answer(_answer(fields))
        item = {"answer": fields, "sig": self._sign(fields), "state": PAGE if self.page
                else SENDING}
        self._keep(item)
        if self.page and self.outbox is not None:
            self.outbox.send({"kind": "hold", "item": {"answer": fields, "sig": item["sig"]}})
            self._changed()
            return False
        return self.flush()

    def _keep(self, item: dict[str, Any]) -> None:
        fields = item["answer"]
        uid, question = str(fields["uid"]), str(fields["question"])
        self.items[uid] = item
        known = self.items.get(self.latest.get(question, ""))
        if known is None or float(known["answer"]["at"]) <= float(fields["at"]):
            self.latest[question] = uid

    def flush(self) -> bool:
        """Write the answers the page holds and the database lacks; says what happened.
        True when none is left (written now, or none to write)."""
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
        batch = [uid for uid, i in self.items.items() if i["state"] in (SENDING, KEPT)]
        if self.store is None or not batch:
            return True
        if self._writing:
            return False  # the write under way flushes again when it is done
        for uid in batch:
            self.items[uid]["state"] = SENDING
        store = self.store
        answers = [_answer(self.items[uid]["answer"]) for uid in batch]
        return self._run(lambda: store.record(*answers),
                         lambda result, error: self._written(batch, result, error),
                         writing=True)

    def _written(self, batch: list[str], result: Recorded | None,
                 error: BaseException | None) -> None:
        if isinstance(error, StoreError):
            for uid in batch:
                self.items[uid]["state"] = KEPT
            self.problem = error.public
            loop = _running_loop()
            if loop is not None:
                self._retry = loop.call_later(RETRY_S, self.flush)
            self._changed()
            return
        if isinstance(error, ValueError):  # checked before: only a new rule of the store
            for uid in batch:
                del self.items[uid]
            self.latest = {q: uid for q, uid in self.latest.items() if uid in self.items}
            self._say(_("⚠ An answer could not be stored: {error}.").format(error=error),
                      error=True)
            if self.page and self.outbox is not None:
                self.outbox.send({"kind": "dropped", "uids": batch, "why": str(error)})
            return
        if error is not None:
            raise error
        assert result is not None
        stored = [uid for uid in (*result.stored, *result.already) if uid in self.items]
        for uid in stored:
            self.items[uid]["state"] = STORED
        dropped = [uid for uid in result.dropped if uid in self.items]
        refused = {uid: why for uid, why in result.refused.items() if uid in self.items}
        for uid in (*dropped, *refused):
            del self.items[uid]
        self.latest = {q: uid for q, uid in self.latest.items() if uid in self.items}
        self.problem = ""
        if self.page and self.outbox is not None:
            if stored:
                self.outbox.send({"kind": "stored", "uids": stored})
            if dropped:
                self.outbox.send({"kind": "dropped", "uids": dropped,
                                  "why": _("its lesson run was deleted since")})
            for uid, why in refused.items():
                self.outbox.send({"kind": "dropped", "uids": [uid], "why": why})
        self._changed(sent=len(stored))
        if refused:
            self._say(_("⚠ Not sent to your teacher: {why}.").format(
                why=next(iter(refused.values()))), error=True)
        if any(i["state"] == SENDING for i in self.items.values()):
            self.flush()

    # ------------------------------------------------------------------ the page

    def _from_page(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        kind = content.get("kind")
        if kind == "hello":
            self._hello(content)
        elif kind == "held":
            self._held(content)
        elif kind == "beat":
            self.join()

    def _take_ids(self, ids: Any) -> None:
        if isinstance(ids, list):
            self._ids += [i for i in ids[:32] if isinstance(i, str) and ID.fullmatch(i)]

    def _hello(self, content: dict[str, Any]) -> None:
        student = content.get("student")
        if isinstance(student, str) and ID.fullmatch(student):
            self.student = student
        self.page = True
        self._take_ids(content.get("ids"))
        refused = []
        for key, state in (("known", STORED), ("held", SENDING)):
            items = content.get(key)
            for item in items[:500] if isinstance(items, list) else ():
                fields = self._verified(item)
                if fields is None:
                    with contextlib.suppress(Exception):
                        refused.append(str(item["answer"]["uid"]))
                    continue
                if fields["uid"] not in self.items:
                    self._keep({"answer": fields, "sig": item["sig"], "state": state})
        if refused and self.outbox is not None:
            self.outbox.send({"kind": "dropped", "uids": refused,
                              "why": _("not made by this class's lessons")})
        place = content.get("place")
        place = {k: v for k, v in place.items() if isinstance(k, str)} if isinstance(
            place, dict) else {}
        name = place.get("name")
        self._quiet = True
        try:
            if isinstance(name, str) and clean_name(name) != self.typed_name():
                self.name.value = clean_name(name)[:NAME_MAX]
        finally:
            self._quiet = False
        self.check_state()  # the teacher's lead first: the place restored follows it
        self.set_place(**place)
        self.restored = place
        for handler in list(self._place_handlers):
            handler(place)
        self.join()
        self.flush()
        self._changed()
        self.watch()

    def _held(self, content: dict[str, Any]) -> None:
        self._take_ids(content.get("ids"))
        uid = content.get("uid")
        if isinstance(uid, str) and self.items.get(uid, {}).get("state") == PAGE:
            self.items[uid]["state"] = SENDING
            self.flush()

    # ------------------------------------------------------------------ running

    def _run(self, work: Callable[[], Any], done: Callable[[Any, BaseException | None], None],
             writing: bool = False) -> bool:
        """``work`` (a database call) on the link's thread when the kernel's loop runs,
        ``done(result, error)`` back on the loop; at once otherwise. True when it is done
        and went well. ``writing``: answers are being written (one batch at a time)."""
        loop = _running_loop()
        if loop is None:
            try:
                result = work()
            except (StoreError, ValueError) as exc:
                done(None, exc)
                return False
            done(result, None)
            return True
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nid-class")
        self._writing = self._writing or writing
        future: Future[Any] = self._pool.submit(work)

        def finished(f: Future[Any]) -> None:
            def back() -> None:
                if writing:
                    self._writing = False
                error = f.exception()
                done(None if error else f.result(), error)

            loop.call_soon_threadsafe(back)

        future.add_done_callback(finished)
        return False

    # ------------------------------------------------------------------ what the page says

    def _changed(self, sent: int = 0) -> None:
        waiting = [i for i in self.items.values() if i["state"] != STORED]
        kept = [i for i in waiting if i["state"] == KEPT]
        if kept:
            n = len(waiting)
            self._say(count(n, "⚠ Not sent to your teacher yet: {problem}. Your answer ({n}) "
                            "is kept on this page and sent again by itself (or press Send "
                            "again); the lesson goes on.",
                            "⚠ Not sent to your teacher yet: {problem}. Your answers ({n}) "
                            "are kept on this page and sent again by themselves (or press "
                            "Send again); the lesson goes on.", problem=self.problem),
                      error=True)
            self.retry.layout.display = ""
        elif waiting:
            self._say(_("Sending to your teacher…"))
            self.retry.layout.display = "none"
        else:
            self.retry.layout.display = "none"
            if sent:
                self._say(_("✔ Sent to your teacher.") if sent == 1 else count(
                    sent, "✔ Sent to your teacher ({n} answer).",
                    "✔ Sent to your teacher ({n} answers)."))
        for listener in list(self.listeners):
            listener()

    def _say(self, message: str, error: bool = False) -> None:
        tone = "nid-bad" if error else "nid-good"
        self.status.value = (f"<span class='nid-text-small {tone}'>"
                             f"{html.escape(message)}</span>" if message else "")


__all__ = ["ClassLink", "ClassOutbox", "PAGE_MODULE", "PAGE_MODULE_VERSION"]
