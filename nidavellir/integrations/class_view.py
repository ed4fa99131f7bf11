"""The teacher page: the class's answers, live, behind the teacher's own password.

``python -m nidavellir.serve --class-dir DIR`` with a teacher password (the
``NIDAVELLIR_TEACHER_PASSWORD`` variable or ``--teacher-password-file``; ``make run
CLASS_DIR=...``) serves, beside the dashboards, ``/teacher``:

- ``GET /teacher``: the teacher password form, or (with the teacher's cookie) the page:
  per question, how many students answered, the distribution of their latest answers
  against the exact value, the class mean, who has not answered yet; it asks
  ``/teacher/api/answers`` for fresh data every second;
- ``POST /teacher/login``: the password; a wrong one gets the form again (401) and no
  data; failures slow down and lock out per client address (:mod:`.guard`): while an
  address waits its tries are refused (429) without being checked;
- ``POST /teacher/logout``: the session ends (its cookie is worth nothing after);
- ``GET /teacher/api/answers`` (JSON: the run in progress, the class's state, the runs),
  ``GET /teacher/api/lessons`` (the lessons and their steps), ``GET
  /teacher/answers.csv`` (every run's answers), ``GET /teacher/runs/<run>.csv`` (one
  run's);
- ``POST /teacher/api/record`` (with the session's token): a game record read for *Ask
  the class about a position*: its players and decisions (``44: Cai bids``), or 400 and
  one sentence;
- ``POST /teacher/control`` (with the session's token): the teacher leads the lesson:
  ``action`` is ``lock`` (``lesson``, ``step``), ``release``, ``pause``, ``resume``,
  ``reveal-mode`` (``question``, ``mode``: ``after`` or ``teacher``), ``reveal`` /
  ``hide`` (``question``), ``new-run`` (``name``), ``reopen`` / ``delete-run``
  (``run``), ``rename-run`` (``run``, ``name``), ``ask`` (``record``, ``decision``,
  ``seat``, ``question``: ask the class about a position of a game record), ``ask-again``
  (``position``), ``end-ask``; the answer is the class's new state. A
  request that is not one of these gets 400 and one sentence saying what was wrong (an
  unknown run 404); the students' kernels read the state from the database
  (:class:`~nidavellir.classroom.store.ClassState`).

Without the teacher's cookie every data address answers 403 and nothing else. The
password is kept only as a salted scrypt hash (:class:`TeacherAuth`), checked in a thread
of its own so that no check holds up the server. The cookie names a session: signed (an
HMAC with a secret drawn when the server starts), ``HttpOnly``, ``SameSite=Strict``, valid
for ``session_hours`` (8) and until *Log out* or the server stops. The pages are sent
with ``Content-Security-Policy: frame-ancestors 'none'`` (no other site may frame them) and
``X-Content-Type-Options: nosniff``. The data come from the class's SQLite database
(:mod:`nidavellir.classroom.store`): a missing, locked or damaged database is reported on
the page in one sentence; nothing is ever written to a damaged one.

Voila has no option for extra pages, so the handlers come in through the identity
provider (:class:`ClassViewIdentityProvider`, the class password's provider with the
teacher's handlers added); tornado and Voila stay in this layer.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import hmac
import json
import logging
import math
import os
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import tornado.web
from traitlets import Float, Unicode

from .. import i18n
from ..classroom import CLASS_DIR_ENV
from ..classroom.store import (
    PRESENT_S,
    RECORD_MAX,
    ClassState,
    ClassStore,
    NoSuchRun,
    StoreError,
    bins,
    present,
    pseudonyms,
    summarize,
)
from ..events import by
from ..i18n import _, count
from .guard import Throttle, tarpit
from .voila_class import ClassIdentityProvider, page_language

HERE = Path(__file__).resolve().parent.parent / "classroom"
LOG = logging.getLogger("nidavellir.teacher")
COOKIE = "nidavellir_teacher"
#: How often the page asks for fresh data (ms): an answer shows within about a second.
POLL_MS = 1000
#: How long a teacher's session lasts without a Log out.
SESSION_HOURS = 8.0
#: scrypt's cost: about 50 ms and 16 MB a check (one thread checks all passwords).
SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}
#: Password checks run here, one at a time: a storm of them takes one core at most and
#: never the server's loop.
CHECKS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nidavellir-password")
#: The teacher pages' headers: never framed by another site, never sniffed, never cached.
PAGE_HEADERS = {
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class TeacherAuth:
    """The teacher password, kept as a salted hash, and the sessions that prove it was
    typed (module docstring)."""

    def __init__(self, password: str, session_hours: float = SESSION_HOURS,
                 clock: Any = time.time) -> None:
        if len(password) < 4:
            raise ValueError("the teacher password needs at least 4 characters")
        self._salt = secrets.token_bytes(16)
        self._hash = self._derive(password)
        self.secret = secrets.token_bytes(32)
        self.lifetime = session_hours * 3600
        self.clock = clock
        self._sessions: dict[str, float] = {}  # session id -> when it ends

    def _derive(self, password: str) -> bytes:
        return hashlib.scrypt(password.encode(), salt=self._salt, **SCRYPT)

    def check(self, typed: str) -> bool:
        """Whether ``typed`` is the password (slow on purpose: call it off the loop)."""
        return hmac.compare_digest(self._derive(typed), self._hash)

    def _sign(self, text: str) -> str:
        return hmac.new(self.secret, text.encode(), hashlib.sha256).hexdigest()

    def open_session(self) -> str:
        """A new session; returns its cookie's value (``id.end.signature``)."""
        now = self.clock()
        for sid, end in list(self._sessions.items()):
            if end <= now:
                del self._sessions[sid]
        sid = secrets.token_hex(16)
        end = int(now + self.lifetime)
        self._sessions[sid] = end
        text = f"{sid}.{end}"
        return f"{text}.{self._sign(text)}"

    def session(self, cookie: str | None) -> str | None:
        """The session a cookie names, while it is open; None otherwise."""
        if not cookie or cookie.count(".") != 2:
            return None
        sid, end, signature = cookie.split(".")
        if not hmac.compare_digest(signature, self._sign(f"{sid}.{end}")):
            return None
        if self._sessions.get(sid) != (int(end) if end.isdigit() else None):
            return None
        if int(end) <= self.clock():
            self._sessions.pop(sid, None)
            return None
        return sid

    def close_session(self, cookie: str | None) -> None:
        sid = self.session(cookie)
        if sid is not None:
            del self._sessions[sid]

    def token(self, purpose: str, sid: str) -> str:
        """A token for one of the session's forms (Clear)."""
        return self._sign(f"{purpose}\0{sid}")


class TeacherHandler(tornado.web.RequestHandler):
    """The teacher pages' handlers: headers, the session, errors as JSON."""

    auth: TeacherAuth
    store: ClassStore
    throttle: Throttle

    def initialize(self, auth: TeacherAuth, store: ClassStore, throttle: Throttle) -> None:
        self.auth = auth
        self.store = store
        self.throttle = throttle

    def set_default_headers(self) -> None:
        for name, value in PAGE_HEADERS.items():
            self.set_header(name, value)

    def prepare(self) -> None:
        """Every request in its page's language (:func:`page_language`): its words, its
        errors, the data it sends."""
        self.language = page_language(self.get_query_argument("lang", default=""),
                                      self.request.headers.get("Accept-Language", ""))
        self._in_language = i18n.using(self.language)
        self._in_language.__enter__()

    def on_finish(self) -> None:
        block = getattr(self, "_in_language", None)
        if block is not None:
            with contextlib.suppress(ValueError):  # finished from another context
                block.__exit__(None, None, None)

    def here(self, path: str) -> str:
        """A relative address of the teacher pages, in this page's language."""
        return f"{path}?lang={self.language}"

    @property
    def session(self) -> str | None:
        """The teacher's session, when the request carries its cookie."""
        return self.auth.session(self.get_cookie(COOKIE))

    def controls(self) -> bool:
        """Whether the request is the teacher's: the session's cookie and its control
        token (a 403 is sent when it is not)."""
        sid = self.session
        if sid is None or not hmac.compare_digest(
                self.get_body_argument("token", default=""), self.auth.token("control", sid)):
            self.refuse()
            return False
        return True

    def refuse(self) -> None:
        self.set_status(403)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": _("The teacher password is needed for this page.")}))

    def check_xsrf_cookie(self) -> None:
        """The forms carry their own proof (the password, or the session's token); the
        cookie is SameSite=Strict: another site's form never carries it."""

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        """Errors in one sentence, without a traceback (a malformed request is a 4xx)."""
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": self._reason}))

    def json(self, status: int, data: dict[str, Any]) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(data))

    def cookie_path(self) -> str:
        return self.request.path.rsplit("/", 1)[0] + "/"


def _page(name: str, texts: dict[str, str] | None = None, **values: str) -> str:
    """A page of the teacher's: ``{{key}}`` filled with ``values`` as they are, and
    ``{{w:key}}`` with ``texts`` escaped for HTML (its words in the page's language)."""
    from html import escape

    text = (HERE / name).read_text(encoding="utf-8")
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    for key, value in (texts or {}).items():
        text = text.replace("{{w:" + key + "}}", escape(value))
    return text


def teacher_words() -> dict[str, str]:
    """The words of the teacher's controls, in the teacher's language (the page's script
    fills ``{name}``-style placeholders)."""
    return {
        "run": _("Lesson run"), "run_now": _("{name} ({n} answers) in progress"),
        "run_name_hint": _("name, e.g. 3b, Tuesday"), "new_run": _("New run"),
        "rename_run": _("Rename this run"), "run_csv": _("Download this run (CSV)"),
        "run_option": _("{name} · {date} · {n} answers"), "in_progress": _("(in progress)"),
        "reopen": _("Reopen"), "delete_run": _("Delete this run"),
        "delete_confirm": _("Delete the run \"{name}\" and its {n} answers? This cannot be "
                            "undone: download it first to keep it."),
        "name_first": _("Type the run's name first."),
        "class_label": _("The class"), "pause": _("Pause: eyes on the teacher"),
        "resume": _("Resume"), "paused": _("Paused: every page says Eyes on the teacher"),
        "free": _("Free pace: every student goes at their own pace"),
        "locked_at": _("Locked at step {step} of {lesson}"), "release": _("Release"),
        "lesson": _("Lesson"), "step": _("Step {n}"), "lock_here": _("Lock here"),
        "locked_here": _("Locked here"), "teacher_reveals": _("I reveal the answer"),
        "reveal": _("Reveal"), "hide": _("Hide again"),
        "reveal_led": _("The students' pages and the projector show the answer"),
        "reveal_projector": _("The projector shows the exact value (the students see it "
                              "after answering anyway)"),
        "no_server": _("The server does not answer ({error})."),
        "progress_title": _("Progress: {lesson}"),
        "progress_empty": _("No student has reached a step of this lesson in this run yet."),
        "reached": _("reached, not answered yet"), "off_by": _("off by {off}"),
        "projector": _("Projector"), "open_projector": _("Open the projector view"),
        "show_names": _("Show pseudonyms (dwarf names) on it"),
        "unproject": _("Back to the current question"), "project": _("Project this question"),
        "pin": _("Pin"), "pinned": _("Pinned"),
        "move_option": _("Move"), "move_class": _("The class"),
        "move_win": _("Coach: chance to win"), "move_score": _("Coach: final score"),
        "move_about_best": _("★ about as good as the best (within the noise)"),
        "coach_pending": _("The coach is judging this position (a few seconds, once)…"),
        "coach_done": _("The coach's judgement ({level} level, {seconds} s, once for this "
                        "position): every option played out on the same games; ± is one "
                        "standard error."),
        "coach_exact": _("The coach's judgement: exact (nothing hidden or random is left)."),
        "coach_error": _("The coach could not judge this position: {error}"),
        "no_answer": _("No answer yet: the students' predictions appear here as they submit "
                       "them."),
        "not_answered": _("Not answered yet ({n}):"),
        "everybody": _("Everybody has answered."),
        "mean": _("class mean {value}"), "median": _("median {value}"),
        "exact": _("exact {text} ≈ {value}"),
        "not_updated": _("not updated since {time}"),
        **chart_words(),
        "ask_title": _("Ask the class about a position"),
        "ask_upload": _("A game record (the .json file the lab saves):"),
        "ask_paste": _("…or paste a game record (JSON) here"),
        "ask_read": _("Read the record"),
        "ask_read_done": _("The record replays: {n} decisions. Choose one, the seat and the "
                           "question."),
        "ask_unreadable": _("The file {name} cannot be read."),
        "ask_decision": _("Decision"), "ask_seat": _("The class sees the position as"),
        "ask_seat_deciding": _("the seat that decides"), "ask_question": _("Question"),
        "ask_go": _("Ask the class"),
        "ask_done": _("Asked: every student's page shows the position."),
        "asked_title": _("Positions asked in this run"), "asked_now": _("asked now"),
        "ask_reveal": _("Reveal the coach's figures"), "end_ask": _("End the question"),
        "ask_again": _("Ask again"),
        "legend": _("• reached · green: within 0.05 of the exact value (5 percent of it for a mean "
                    "or a count) · yellow: within 0.15 · red: further · the time is when"),
    }


def _script_json(value: Any) -> str:
    """A value written into a page's script: JSON that cannot close the script element."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace(
        "&", "\\u0026")


def _wrong(message: str) -> str:
    from html import escape

    return f"<div class='wrong'>{escape(message)}</div>"


def _login_page(throttle: Throttle, address: str, note: str) -> str:
    """The teacher's login form; while the address must wait, its button waits too (a try
    sent before then would be refused unchecked)."""
    wait_ms = math.ceil(throttle.wait(address) * 1000)
    words = {
        "title": _("Class view · teacher password"), "heading": _("Class view"),
        "about": _("The teacher's page of the Nidavellir lab: the class's answers, live. It "
                   "has its own teacher password (not the class password)."),
        "password": _("Teacher password"), "open": _("Open the class view"),
    }
    return _page("teacher_login.html", words, wrong=_wrong(note) if note else "",
                 wait_ms=str(wait_ms + 50 if wait_ms else 0), lang=i18n.language(),
                 wait_title=_script_json(_("wait for the next try")))


class TeacherPageHandler(TeacherHandler):
    def get(self) -> None:
        if not self.request.path.endswith("/"):
            self.redirect(self.request.path + "/")
            return
        sid = self.session
        if sid is None:
            address = self.request.remote_ip or ""
            note = self.throttle.message(address) if self.throttle.wait(address) > 0 else ""
            self.finish(_login_page(self.throttle, address, note))
            return
        self.finish(_page("teacher.html", {
            "title": _("Class view · Nidavellir lab"), "heading": _("Class view"),
            "connecting": _("connecting…"), "csv": _("Download the answers (CSV)"),
            "logout": _("Log out"), "waiting": _("Waiting for the first answer…")},
            control_token=self.auth.token("control", sid), poll_ms=str(POLL_MS),
            words=_script_json(teacher_words()), lang=self.language))


class TeacherLoginHandler(TeacherHandler):
    async def post(self) -> None:
        typed = self.get_body_argument("password", default="")
        address = self.request.remote_ip or ""
        if not self.throttle.begin(address):
            # Refused unchecked, slowly: the address must wait (or is locked out).
            await tarpit(self.throttle, address)
            self.set_status(429)
            self.set_header("Retry-After", str(max(1, round(self.throttle.wait(address)))))
            self.finish(_login_page(self.throttle, address, self.throttle.message(address)))
            return
        ok = False
        try:
            ok = await asyncio.get_running_loop().run_in_executor(CHECKS, self.auth.check, typed)
        finally:
            self.throttle.end(address, ok)
        if not ok:
            LOG.warning("Wrong teacher password from %s", address)
            self.set_status(401)
            wrong = (_("Wrong teacher password.") if not self.throttle.locked(address)
                     else self.throttle.message(address))
            self.finish(_login_page(self.throttle, address, wrong))
            return
        self.set_cookie(COOKIE, self.auth.open_session(), httponly=True, samesite="Strict",
                        path=self.cookie_path(), max_age=int(self.auth.lifetime))
        self.redirect(self.here("./"))


class TeacherLogoutHandler(TeacherHandler):
    def post(self) -> None:
        self.auth.close_session(self.get_cookie(COOKIE))
        self.clear_cookie(COOKIE, path=self.cookie_path())
        self.redirect(self.here("./"))


async def _off_loop(fn: Any, *args: Any) -> Any:
    """Run a database call in a thread: the server's loop serves every student's page.
    The call runs in the request's context (its language)."""
    context = contextvars.copy_context()
    return await asyncio.get_running_loop().run_in_executor(None, context.run, fn, *args)


class AnswersHandler(TeacherHandler):
    async def get(self) -> None:
        if self.session is None:
            self.refuse()
            return
        data = await _off_loop(class_data, self.store, None, PRESENT_S, COACH)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(data))


class CsvHandler(TeacherHandler):
    async def get(self, run: str | None = None) -> None:
        if self.session is None:
            self.refuse()
            return
        number = int(run) if run is not None else None
        try:
            text = await _off_loop(self.store.export_csv, number)
        except NoSuchRun as exc:
            self.json(404, {"error": f"{exc}."})
            return
        except StoreError as exc:
            self.json(503, {"error": f"{exc}."})
            return
        stamp = time.strftime("%Y-%m-%d-%H%M")
        what = f"run-{number}" if number is not None else "answers"
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="{what}-{stamp}.csv"')
        self.finish(text)


def _whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(_("{what} is a whole number, not {text!r}").format(
            what=what, text=text[:40])) from None


#: What the teacher's controls do: the action's name -> the store's call, given the form.
CONTROLS: dict[str, Any] = {
    "lock": lambda store, form: store.lock(form("lesson"), _whole(form("step"), _("a step"))),
    "release": lambda store, form: store.release(),
    "pause": lambda store, form: store.pause(),
    "resume": lambda store, form: store.resume(),
    "reveal-mode": lambda store, form: store.set_reveal(form("question"), form("mode")),
    "reveal": lambda store, form: store.reveal(form("question")),
    "hide": lambda store, form: store.reveal(form("question"), shown=False),
    "new-run": lambda store, form: store.new_run(form("name")),
    "reopen": lambda store, form: store.reopen(_whole(form("run"), _("a run"))),
    "rename-run": lambda store, form: store.rename_run(_whole(form("run"), _("a run")),
                                                       form("name")),
    "delete-run": lambda store, form: store.delete_run(_whole(form("run"), _("a run"))),
    "project": lambda store, form: store.project(form("question") or None),
    "names": lambda store, form: store.show_names(form("shown") == "1"),
    "pin": lambda store, form: store.pin(_whole(form("answer"), _("an answer"))),
    "unpin": lambda store, form: store.unpin(_whole(form("answer"), _("an answer"))),
    "move-pin": lambda store, form: store.move_pin(_whole(form("answer"), _("an answer")),
                                                   _whole(form("by"), _("a move"))),
    "ask": lambda store, form: ask_position(store, form),
    "ask-again": lambda store, form: store.ask_again(_whole(form("position"),
                                                            _("a position"))),
    "end-ask": lambda store, form: store.end_ask(),
}


class ControlHandler(TeacherHandler):
    """``POST /teacher/control``: one of :data:`CONTROLS`, with the session's token."""

    async def post(self) -> None:
        if not self.controls():
            return
        action = self.get_body_argument("action", default="")
        control = CONTROLS.get(action)
        if control is None:
            self.json(400, {"error": _("There is no control {action!r}: use one of "
                                       "{known}.").format(action=action[:40],
                                                          known=", ".join(CONTROLS))})
            return

        def form(name: str) -> str:
            return self.get_body_argument(name, default="")

        try:
            result = await _off_loop(control, self.store, form)
            state = await _off_loop(self.store.state)
        except NoSuchRun as exc:
            self.json(404, {"error": f"{exc}."})
            return
        except ValueError as exc:
            self.json(400, {"error": sentence(exc) if action == "ask" else f"{exc}."})
            return
        except StoreError as exc:
            self.json(503, {"error": f"{exc}."})
            return
        done: dict[str, Any] = {"state": state.as_dict()}
        if action == "delete-run":
            done["deleted"] = result
        self.json(200, done)


# ====================================================================== asking about a position

def _decision_words(kind: str, name: str) -> tuple[str, str]:
    """How the teacher page says who decides what (``Cai bids``; ``You bid`` for a seat
    named You, :func:`~nidavellir.events.by`) and the question it suggests for a decision
    of that kind, in the teacher's language."""
    words = {
        "bid": (_("You bid"), _("{name} bids"), _("What do you bid?")),
        "uline_bid": (_("You bid with Uline"), _("{name} bids with Uline"),
                      _("Which coin do you bid with Uline?")),
        "pick": (_("You take a card"), _("{name} takes a card"),
                 _("Which card do you take?")),
        "hero": (_("You recruit a hero"), _("{name} recruits a hero"),
                 _("Which hero do you recruit?")),
        "transform": (_("You transform a coin"), _("{name} transforms a coin"),
                      _("Which coin do you transform?")),
        "discard": (_("You discard a card"), _("{name} discards a card"),
                    _("Which card do you discard?")),
        "pioneer": (_("You take a card"), _("{name} takes a card"),
                    _("Which card do you take?")),
    }
    you, other, question = words.get(kind, (_("You decide"), _("{name} decides"),
                                            _("What do you play here?")))
    return by(name, you, other), question


def read_record(text: str) -> dict[str, Any]:
    """A game record the teacher uploaded or pasted (the JSON the lab saves), read for
    *Ask the class about a position*: its players and every decision (``44: Cai bids``,
    with the question suggested for it). ValueError, in one sentence, for anything that
    is not such a record."""
    from ..lessons.position import record_decisions

    record = _parse_record(text)
    found = record_decisions(record)
    names = sorted({(d["seat"], d["name"]) for d in found})
    decisions = []
    for d in found:
        says, question = _decision_words(d["kind"], d["name"])
        decisions.append({**d, "label": _("{n}: {who}").format(n=d["decision"], who=says),
                          "question": question})
    return {"names": [name for _seat, name in names], "decisions": decisions}


def _parse_record(text: str) -> Any:
    if not text.strip():
        raise ValueError(_("Upload a game record (the .json file the lab saves) or paste "
                           "one first"))
    if len(text) > RECORD_MAX:
        raise ValueError(_("A game record is at most {most} characters; this one has {n}"
                           ).format(most=RECORD_MAX, n=len(text)))
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(_("This is not a game record: it is not JSON ({error})").format(
            error=exc)) from None
    except RecursionError:
        raise ValueError(_("This is not a game record: its JSON is nested too deeply")) \
            from None


def sentence(exc: BaseException) -> str:
    """An error's message as the teacher page says it: one sentence, capitalised, with
    its full stop."""
    text = str(exc).strip().rstrip(".")
    return text[:1].upper() + text[1:] + "."


def ask_position(store: ClassStore, form: Any) -> ClassState:
    """The teacher's *Ask the class*: the record (``record``, JSON text), the decision
    number (``decision``), the seat whose view the class sees (``seat``: empty for the
    seat that decides) and the question (``question``, empty for the one suggested),
    checked (:func:`nidavellir.lessons.position.asked_step`), then kept and asked
    (:meth:`ClassStore.ask`)."""
    from ..lessons.position import asked_step

    record = _parse_record(form("record"))
    decision = _whole(form("decision"), _("a decision"))
    seat_text = form("seat").strip()
    seat = None if seat_text == "" else _whole(seat_text, _("a seat"))
    found = read_record(form("record"))["decisions"]
    if not 1 <= decision <= len(found):
        raise ValueError(_("The record has decisions 1 to {last}, not {decision}").format(
            last=len(found), decision=decision))
    chosen = found[decision - 1]
    question = form("question").strip() or chosen["question"]
    step = asked_step(record, decision, seat, key="new", title=chosen["label"],
                      situation="", question=question)
    view = step.view()
    situation = _("A position of a game with {players} players, age {age}, round {round}: "
                  "you are **{name}**.").format(players=len(view["players"]), age=view["age"],
                                                 round=view["round"],
                                                 name=view["players"][step.seat]["name"])
    return store.ask(dict(record), decision, step.seat, question, chosen["label"], situation)


def asked_steps(store: ClassStore) -> dict[str, Any]:
    """The position steps of every position the teacher asked, by question id."""
    from ..lessons.position import asked_position_step

    try:
        return {p.question_id: asked_position_step(p) for p in store.positions()}
    except StoreError:
        return {}


class RecordHandler(TeacherHandler):
    """``POST /teacher/api/record`` (with the session's token): a game record read for
    *Ask the class about a position* (:func:`read_record`), or 400 and one sentence."""

    async def post(self) -> None:
        if not self.controls():
            return
        try:
            found = await _off_loop(read_record, self.get_body_argument("record", default=""))
        except ValueError as exc:
            self.json(400, {"error": sentence(exc)})
            return
        self.json(200, found)


def lessons_plan() -> list[dict[str, Any]]:
    """The probability lessons the class can be led through: key, title and steps (their
    number, question id and title), for the teacher's controls."""
    from ..lessons import Library

    out = []
    for lesson in Library().lessons("probability"):
        out.append({"key": lesson.key, "title": lesson.title,
                    "steps": [{"step": i + 1, "question": f"{lesson.key}/{step.key}",
                               "title": step.title} for i, step in enumerate(lesson.steps)]})
    return out


#: The coach's first options a revealed position question shows on the projector beside
#: the options the class chose (all 60 bids would not fit the class's screen).
PROJECTOR_BEST = 3


def projector_data(store: ClassStore, plan: list[dict[str, Any]] | None = None,
                   now: float | None = None, coach: PositionCoach | None = None,
                   steps: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the projector view shows: the question (the one the teacher projects, else the
    locked step's, else the one answered last), the class's answers as bins, the exact
    value only once the teacher revealed it, pseudonyms only when the teacher shows them
    (never a name), and the pinned answers in their order. A position question shows the
    class's moves; once revealed, beside the coach's figures (the options the class chose
    and the coach's first :data:`PROJECTOR_BEST`)."""
    if not store.path.exists():
        return {"question": None, "pins": [], "names": False, "state": ClassState().as_dict()}
    try:
        state = store.state()
        answers = store.answers(run=state.run)
        students = store.students()
        summary = summarize(answers, students, now)
        dwarves = pseudonyms(students, answers, store.secret())
        asked = asked_steps(store)
    except StoreError as exc:
        return {"error": _("The answers cannot be read: {error}.").format(error=exc)}
    steps = {**(position_steps() if steps is None else steps), **asked}
    wanted = state.projected
    if wanted is None and state.lock is not None:
        lesson = next((entry for entry in (plan or []) if entry["key"] == state.lesson), None)
        if lesson is not None and state.lock <= len(lesson["steps"]):
            wanted = lesson["steps"][state.lock - 1]["question"]
    found = next((q for q in summary if q["question"] == wanted), None) if wanted else (
        summary[0] if summary else None)
    question: dict[str, Any] | None = None
    if found is not None or wanted is not None:
        revealed = (found or {}).get("question", wanted) in state.revealed
        values = [a["answer"] for a in (found or {}).get("answers", [])]
        kind = (found or {}).get("kind", "move" if wanted in asked else "probability")
        exact = (found or {}).get("exact") if revealed else None
        question = {
            "question": (found or {}).get("question", wanted),
            "title": (found or {}).get("title") or (
                asked[wanted].title if wanted in asked else _title_in(plan, wanted)),
            "kind": kind, "answered": len(values), "revealed": revealed, "exact": exact,
            "answered_text": count(len(values), "{n} answer", "{n} answers"),
            "exact_text": (found or {}).get("exact_text", "") if revealed else "",
            "bins": bins(values, kind, exact),
            "answers": ([{"pseudonym": dwarves[a["person"]], "answer": a["answer"],
                          **({"move": a["move"]} if "move" in a else {})}
                         for a in found["answers"]] if state.names and found else []),
        }
        if kind == "move":
            question["bins"] = []
            question["options"] = []
        if kind == "move" and found is not None:
            if revealed:
                (judged,) = with_coach([dict(found)], coach, steps)
                question["coach"] = judged["coach"]
                question["options"] = [o for i, o in enumerate(judged["options"])
                                       if o["count"] or i < PROJECTOR_BEST]
            else:
                question["options"] = [{"move": m["move"], "moves": [m["move"]], "words": "",
                                        "count": m["count"], "win": None, "win_se": None,
                                        "score": None, "score_se": None, "about_best": None}
                                       for m in found.get("moves", [])]
    by_id = {a.id: a for a in answers}
    person = {a["id"]: a["person"] for q in summary for a in q["answers"]}
    pins = []
    for pin in state.pins:
        a = by_id.get(pin)
        if a is None:
            continue
        who = person.get(pin)
        pins.append({"id": pin, "answer": a.answer, "kind": a.kind, "title": a.title,
                     "question": a.question,
                     "pseudonym": dwarves.get(who or "", "") if state.names else ""})
    return {"question": question, "pins": pins, "names": state.names,
            "state": state.as_dict()}


def _title_in(plan: list[dict[str, Any]] | None, question: str | None) -> str:
    for lesson in plan or []:
        for step in lesson["steps"]:
            if step["question"] == question:
                return f"{lesson['title']}: {step['title']}"
    return question or ""


class ProjectorPageHandler(TeacherHandler):
    """``GET /teacher/projector``: the page for the class's screen."""

    def get(self) -> None:
        if self.session is None:
            self.redirect(self.here("./"))  # the login form
            return
        self.finish(_page("projector.html", {"title": _("Projector · Nidavellir lab")},
                          poll_ms=str(POLL_MS), words=_script_json(projector_words()),
                          lang=self.language))


class ProjectorDataHandler(TeacherHandler):
    """``GET /teacher/api/projector``: what the projector shows (:func:`projector_data`)."""

    async def get(self) -> None:
        if self.session is None:
            self.refuse()
            return
        plan = await _off_loop(lessons_plan)
        self.json(200, await _off_loop(projector_data, self.store, plan, None, COACH))


def chart_words() -> dict[str, str]:
    """The histogram's words (``chart.js``), shared by the teacher page and the projector."""
    return {
        "chart_far_above": _("{n} far above"), "chart_far_below": _("{n} far below"),
        "chart_bin": _("{low} to {high}: {n}"), "chart_exact": _("exact {text} ≈ {value}"),
    }


def projector_words() -> dict[str, str]:
    return {
        **chart_words(),
        "title": _("Projector · Nidavellir lab"), "waiting": _("Waiting for the first answer…"),
        "exact": _("exact {text} ≈ {value}"),
        "not_revealed": _("The exact value comes after the discussion."),
        "pinned": _("Pinned answers"), "paused": _("Eyes on the teacher"),
        "no_names": _("No names are shown."),
        "move_option": _("Move"), "move_class": _("The class"),
        "move_win": _("Coach: chance to win"), "move_score": _("Coach: final score"),
        "coach_pending": _("The coach is judging this position…"),
        "moves_later": _("The coach's figures come after the discussion."),
    }


class ChartScriptHandler(TeacherHandler):
    """The histogram's script, shared by the teacher page and the projector view."""

    def get(self) -> None:
        self.set_header("Content-Type", "text/javascript; charset=utf-8")
        self.finish((HERE / "chart.js").read_text(encoding="utf-8"))


class LessonsHandler(TeacherHandler):
    async def get(self) -> None:
        if self.session is None:
            self.refuse()
            return
        self.json(200, {"lessons": await _off_loop(lessons_plan)})


def position_steps() -> dict[str, Any]:
    """The position steps of the lessons the class can be led through, by question id
    (``lesson/step``)."""
    from ..lessons import Library
    from ..lessons.position import PositionStep

    return {f"{lesson.key}/{step.key}": step for lesson in Library().lessons("probability")
            for step in lesson.steps if isinstance(step, PositionStep)}


class PositionCoach:
    """The coach's figures of each position question, judged once on the server, on a
    thread of its own (a judgement takes seconds: the page never waits for it). The first
    ask starts it and gets ``{"pending": True}``; every later ask, from any page, gets the
    same figures (:func:`nidavellir.lessons.position.coach_figures`)."""

    def __init__(self) -> None:
        self._done: dict[str, dict[str, Any]] = {}
        self._running: set[str] = set()
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nid-coach")

    def figures(self, question: str, step: Any) -> dict[str, Any]:
        # The position itself is part of the key: a question id names another position
        # in another class database (an asked position's number restarts with it).
        # Its words are in the asking page's language: judged in the request's context.
        key = "\0".join((question, json.dumps(step.record, sort_keys=True),
                          str(step.decision), step.level, i18n.language()))
        with self._lock:
            if key in self._done:
                return self._done[key]
            if key not in self._running:
                self._running.add(key)
                self._pool.submit(contextvars.copy_context().run, self._judge, key, step)
        return {"pending": True}

    def _judge(self, question: str, step: Any) -> None:
        try:
            found = step.coach()
        except Exception as exc:  # said on the teacher page, and logged
            LOG.exception("the coach could not judge the position of %s",
                          question.split("\0", 1)[0])
            found = {"error": f"{type(exc).__name__}: {exc}"}
        with self._lock:
            self._done[question] = found
            self._running.discard(question)


#: The server's one judge of position questions.
COACH = PositionCoach()


def with_coach(questions: list[dict[str, Any]], coach: PositionCoach | None,
               steps: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Each position question (kind ``move``) of a summary with its ``options``: the
    class's moves beside the coach's figures of every option
    (:func:`nidavellir.lessons.position.class_and_coach`), and ``coach``: the judgement's
    level, whether it is exact, its seconds, or ``pending`` / ``error``."""
    from ..lessons.position import class_and_coach

    if not any(q["kind"] == "move" for q in questions):
        return questions
    steps = position_steps() if steps is None else steps
    for q in questions:
        if q["kind"] != "move":
            continue
        step = steps.get(q["question"])
        figures = (coach.figures(q["question"], step) if coach is not None and step is not None
                   else {"error": _("this position is in no lesson of the server")})
        q["coach"] = {k: v for k, v in figures.items() if k != "options"}
        q["options"] = class_and_coach(q.get("moves", []), figures)
    return questions


def class_data(store: ClassStore, now: float | None = None,
               present_s: float = PRESENT_S, coach: PositionCoach | None = None,
               steps: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the page shows: per question of the run in progress
    (:meth:`ClassStore.summary`), the totals (``students``: in the class now, counted as
    every question counts them), the class's state and its runs; or ``{"error": ...}``
    saying why there is nothing to show."""
    if not store.path.exists():
        return {"questions": [], "students": 0, "answers": 0, "present_minutes":
                present_s / 60, "state": ClassState().as_dict(),
                "runs": [_run(r) for r in store.runs()], "progress": [], "positions": [],
                "status": _status(0, 0, present_s),
                "note": _("No answer yet: the class database {path} is created with the "
                          "first one.").format(path=store.path)}
    now = time.time() if now is None else now
    try:
        state = store.state()
        answers = store.answers(run=state.run)
        students = store.students()
        runs = store.runs()
        grid = store.progress(state.run)
    except StoreError as exc:
        return {"error": _("The answers cannot be read: {error}. The students' pages keep "
                           "their answers and send them again.").format(error=exc)}
    asked = asked_steps(store)
    steps = {**(position_steps() if steps is None else steps), **asked}
    questions = with_coach(summarize(answers, students, now, present_s), coach, steps)
    positions = [p.as_dict() for p in store.positions(state.run)]
    for q in questions:
        q["answered_text"] = count(q["answered"], "{n} of {total} answered",
                                   "{n} of {total} answered", total=i18n.number(q["students"]))
        q["far_off_text"] = (count(q["far_off"], "without {n} far-off answer",
                                   "without {n} far-off answers") if q.get("far_off") else "")
    in_class = present(students, now, present_s)
    return {"questions": questions, "positions": positions,
            "status": _status(in_class, len(answers), present_s),
            "students": present(students, now, present_s), "answers": len(answers),
            "present_minutes": present_s / 60, "state": state.as_dict(),
            "runs": [_run(r) for r in runs], "progress": grid}


def _status(students: int, answers: int, present_s: float) -> str:
    """The teacher page's status line; the page fills in ``{time}``."""
    return _("{students} · {answers} · updated {time}").format(
        students=count(students, "{n} student in the class (a page open in the last "
                       "{minutes} min)", "{n} students in the class (a page open in the last "
                       "{minutes} min)", minutes=i18n.number(present_s / 60)),
        answers=count(answers, "{n} answer", "{n} answers"), time="{time}")


def _run(run: Any) -> dict[str, Any]:
    return {"id": run.id, "name": run.name, "started": run.started, "answers": run.answers}


def teacher_handlers(base_url: str, store: ClassStore, auth: TeacherAuth,
                     throttle: Throttle | None = None
                     ) -> list[tuple[str, type[tornado.web.RequestHandler], dict[str, Any]]]:
    """The teacher page's handlers under ``base_url`` (``/`` for Voila's default)."""
    base = "/" + base_url.strip("/") + "/" if base_url.strip("/") else "/"
    kwargs = {"auth": auth, "store": store,
              "throttle": throttle if throttle is not None else Throttle()}
    return [
        (base + r"teacher/?", TeacherPageHandler, kwargs),
        (base + r"teacher/login", TeacherLoginHandler, kwargs),
        (base + r"teacher/logout", TeacherLogoutHandler, kwargs),
        (base + r"teacher/api/answers", AnswersHandler, kwargs),
        (base + r"teacher/api/lessons", LessonsHandler, kwargs),
        (base + r"teacher/answers\.csv", CsvHandler, kwargs),
        (base + r"teacher/runs/([0-9]{1,9})\.csv", CsvHandler, kwargs),
        (base + r"teacher/control", ControlHandler, kwargs),
        (base + r"teacher/api/record", RecordHandler, kwargs),
        (base + r"teacher/projector", ProjectorPageHandler, kwargs),
        (base + r"teacher/api/projector", ProjectorDataHandler, kwargs),
        (base + r"teacher/chart\.js", ChartScriptHandler, kwargs),
    ]


class ClassViewIdentityProvider(ClassIdentityProvider):  # type: ignore[misc]
    """The class password's provider (:class:`ClassIdentityProvider`) with the teacher
    page's handlers added: the way extra pages reach a Voila server. The teacher password
    comes from the server (:class:`~nidavellir.integrations.voila_app.ClassVoila` takes it
    from the environment and keeps its hash), never from a command line."""

    class_dir = Unicode("", config=True, help="the class folder (its answers.sqlite)")
    store_timeout = Float(10.0, config=True, help="seconds a read waits for a writer")
    session_hours = Float(SESSION_HOURS, config=True,
                          help="hours a teacher's login lasts (until Log out otherwise)")

    def get_handlers(self) -> list[tuple[str, object]]:
        handlers: list[Any] = list(super().get_handlers())
        auth = getattr(self.parent, "teacher_auth", None)
        folder = self.class_dir or os.environ.get(CLASS_DIR_ENV, "")
        if auth is not None and folder:
            auth.lifetime = self.session_hours * 3600
            base = getattr(self.parent, "base_url", "/") or "/"
            handlers = teacher_handlers(base, ClassStore(folder, self.store_timeout), auth,
                                        self.new_throttle()) + handlers
            self.log.info("The class view is at %steacher/ (teacher password set)", base)
        return handlers


__all__ = ["COOKIE", "ClassViewIdentityProvider", "PAGE_HEADERS", "TeacherAuth", "class_data",
           "teacher_handlers"]
