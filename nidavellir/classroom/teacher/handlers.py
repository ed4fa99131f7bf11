"""The teacher page's handlers (tornado) and the identity provider that brings them into
Voila (the routes: the package's docstring).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hmac
import json
import logging
import os
import time
from typing import Any

import tornado.web
from traitlets import Float, Unicode

from ... import i18n
from ...i18n import _
from .. import CLASS_DIR_ENV, page_language
from ..guard import Throttle, client_of, give_client_cookie, tarpit
from ..login import ClassIdentityProvider
from ..store import PRESENT_S, ClassStore, NoSuchRun, StoreError
from .ask import ask_position, read_record, sentence, whole
from .auth import CHECKS, COOKIE, SESSION_HOURS, TeacherAuth
from .coach import PositionCoach
from .data import class_data, lessons_plan, projector_data
from .pages import HERE, POLL_MS, login_page, page, projector_words, script_json, teacher_words
from .puzzles import assign as assign_puzzles
from .puzzles import puzzles_data, puzzles_words

LOG = logging.getLogger("nidavellir.teacher")
#: The teacher pages' headers: never framed by another site, never sniffed, never cached.
PAGE_HEADERS = {
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class TeacherHandler(tornado.web.RequestHandler):
    """The teacher pages' handlers: headers, the session, errors as JSON."""

    auth: TeacherAuth
    store: ClassStore
    throttle: Throttle
    coach: PositionCoach

    def initialize(self, auth: TeacherAuth, store: ClassStore, throttle: Throttle,
                   coach: PositionCoach) -> None:
        self.auth = auth
        self.store = store
        self.throttle = throttle
        self.coach = coach

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


class TeacherPageHandler(TeacherHandler):
    def get(self) -> None:
        if not self.request.path.endswith("/"):
            self.redirect(self.request.path + "/")
            return
        sid = self.session
        if sid is None:
            give_client_cookie(self)  # this browser's tries are its own (guard.py)
            address = client_of(self)
            note = self.throttle.message(address) if self.throttle.wait(address) > 0 else ""
            self.finish(login_page(self.throttle, address, note))
            return
        self.finish(page("teacher.html", {
            "title": _("Class view · Nidavellir lab"), "heading": _("Class view"),
            "connecting": _("connecting…"), "csv": _("Download the answers (CSV)"),
            "logout": _("Log out"), "waiting": _("Waiting for the first answer…"),
            "puzzles": _("Puzzles for the class")},
            control_token=self.auth.token("control", sid), poll_ms=str(POLL_MS),
            words=script_json(teacher_words()), lang=self.language))


class TeacherLoginHandler(TeacherHandler):
    async def post(self) -> None:
        typed = self.get_body_argument("password", default="")
        address = client_of(self)
        if not self.throttle.begin(address):
            # Refused unchecked, slowly: the address must wait (or is locked out).
            await tarpit(self.throttle, address)
            self.set_status(429)
            self.set_header("Retry-After", str(max(1, round(self.throttle.wait(address)))))
            self.finish(login_page(self.throttle, address, self.throttle.message(address)))
            return
        ok = False
        try:
            ok = await asyncio.get_running_loop().run_in_executor(CHECKS, self.auth.check, typed)
        finally:
            self.throttle.end(address, ok)
        if not ok:
            LOG.warning("Wrong teacher password from %s", self.request.remote_ip)
            self.set_status(401)
            wrong = (_("Wrong teacher password.") if not self.throttle.locked(address)
                     else self.throttle.message(address))
            self.finish(login_page(self.throttle, address, wrong))
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
        data = await _off_loop(class_data, self.store, None, PRESENT_S, self.coach)
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


#: What the teacher's controls do: the action's name -> the store's call, given the form.
CONTROLS: dict[str, Any] = {
    "lock": lambda store, form: store.lock(form("lesson"), whole(form("step"), _("a step"))),
    "release": lambda store, form: store.release(),
    "pause": lambda store, form: store.pause(),
    "resume": lambda store, form: store.resume(),
    "reveal-mode": lambda store, form: store.set_reveal(form("question"), form("mode")),
    "reveal": lambda store, form: store.reveal(form("question")),
    "hide": lambda store, form: store.reveal(form("question"), shown=False),
    "new-run": lambda store, form: store.new_run(form("name")),
    "reopen": lambda store, form: store.reopen(whole(form("run"), _("a run"))),
    "rename-run": lambda store, form: store.rename_run(whole(form("run"), _("a run")),
                                                       form("name")),
    "delete-run": lambda store, form: store.delete_run(whole(form("run"), _("a run"))),
    "project": lambda store, form: store.project(form("question") or None),
    "names": lambda store, form: store.show_names(form("shown") == "1"),
    "pin": lambda store, form: store.pin(whole(form("answer"), _("an answer"))),
    "unpin": lambda store, form: store.unpin(whole(form("answer"), _("an answer"))),
    "move-pin": lambda store, form: store.move_pin(whole(form("answer"), _("an answer")),
                                                   whole(form("by"), _("a move"))),
    "ask": lambda store, form: ask_position(store, form),
    "ask-again": lambda store, form: store.ask_again(whole(form("position"),
                                                            _("a position"))),
    "end-ask": lambda store, form: store.end_ask(),
    "assign-puzzles": lambda store, form: assign_puzzles(store, form),
    "end-puzzles": lambda store, form: store.end_puzzles(),
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


class ProjectorPageHandler(TeacherHandler):
    """``GET /teacher/projector``: the page for the class's screen."""

    def get(self) -> None:
        if self.session is None:
            self.redirect(self.here("./"))  # the login form
            return
        self.finish(page("projector.html", {"title": _("Projector · Nidavellir lab")},
                          poll_ms=str(POLL_MS), words=script_json(projector_words()),
                          lang=self.language))


class ProjectorDataHandler(TeacherHandler):
    """``GET /teacher/api/projector``: what the projector shows (:func:`projector_data`)."""

    async def get(self) -> None:
        if self.session is None:
            self.refuse()
            return
        plan = await _off_loop(lessons_plan)
        self.json(200, await _off_loop(projector_data, self.store, plan, None, self.coach))


class PuzzlesPageHandler(TeacherHandler):
    """``GET /teacher/puzzles``: assign puzzles to the class, see who solved what."""

    def get(self) -> None:
        sid = self.session
        if sid is None:
            self.redirect(self.here("./"))  # the login form
            return
        self.finish(page("puzzles.html", {"title": _("Puzzles · Nidavellir lab"),
                                          "heading": _("Puzzles for the class"),
                                          "back": _("Back to the class view")},
                         control_token=self.auth.token("control", sid), poll_ms=str(POLL_MS),
                         words=script_json(puzzles_words()), lang=self.language))


class PuzzlesDataHandler(TeacherHandler):
    """``GET /teacher/api/puzzles``: the sets of the run and who solved what
    (:func:`~.puzzles.puzzles_data`)."""

    async def get(self) -> None:
        if self.session is None:
            self.refuse()
            return
        self.json(200, await _off_loop(puzzles_data, self.store))


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


def teacher_handlers(base_url: str, store: ClassStore, auth: TeacherAuth,
                     throttle: Throttle | None = None, coach: PositionCoach | None = None
                     ) -> list[tuple[str, type[tornado.web.RequestHandler], dict[str, Any]]]:
    """The teacher page's handlers under ``base_url`` (``/`` for Voila's default). They
    share one :class:`~.coach.PositionCoach`: the server's (``coach``, else a new one)."""
    base = "/" + base_url.strip("/") + "/" if base_url.strip("/") else "/"
    kwargs = {"auth": auth, "store": store,
              "throttle": throttle if throttle is not None else Throttle(teacher=True),
              "coach": coach if coach is not None else PositionCoach()}
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
        (base + r"teacher/puzzles", PuzzlesPageHandler, kwargs),
        (base + r"teacher/api/puzzles", PuzzlesDataHandler, kwargs),
    ]


class ClassViewIdentityProvider(ClassIdentityProvider):  # type: ignore[misc]
    """The class password's provider (:class:`ClassIdentityProvider`) with the teacher
    page's handlers added: the way extra pages reach a Voila server. The teacher password
    comes from the server (:class:`~nidavellir.classroom.server.app.ClassVoila` takes it
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
            # The server's one coach: every teacher page and projector shares its figures.
            handlers = teacher_handlers(base, ClassStore(folder, self.store_timeout), auth,
                                        self.new_throttle(teacher=True),
                                        PositionCoach()) + handlers
            self.log.info("The class view is at %steacher/ (teacher password set)", base)
        return handlers


__all__ = ["ClassViewIdentityProvider", "LOG", "PAGE_HEADERS", "TeacherHandler",
           "teacher_handlers"]
