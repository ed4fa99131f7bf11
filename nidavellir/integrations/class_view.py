"""The teacher page: the class's answers, live, behind the teacher's own password.

``python -m nidavellir.serve --class-dir DIR --teacher-password SECRET`` (``make run
CLASS_DIR=... TEACHER_PASSWORD=...``) serves, beside the dashboards, ``/teacher``:

- ``GET /teacher``: the teacher password form, or (with the teacher's cookie) the page:
  per question, how many students answered, the distribution of their latest answers
  against the exact value, the class mean, who has not answered yet; it asks
  ``/teacher/api/answers`` for fresh data every second;
- ``POST /teacher/login``: the password; a wrong one gets the form again (401) and no
  data;
- ``GET /teacher/api/answers`` (JSON), ``GET /teacher/answers.csv`` (every answer);
- ``POST /teacher/clear``: forget the class's answers (with the page's token).

Without the teacher's cookie every data address answers 403 and nothing else. The
cookie is an HMAC of a secret drawn when the server starts, so it dies with the server.
The data come from the class's SQLite database (:mod:`nidavellir.classroom.store`): a
missing, locked or damaged database is reported on the page in one sentence; nothing is
ever written to a damaged one.

Voila has no option for extra pages, so the handlers come in through the identity
provider (:class:`ClassViewIdentityProvider`, the class password's provider with the
teacher's handlers added); tornado and Voila stay in this layer.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import secrets
import time
from pathlib import Path
from typing import Any

import tornado.web
from traitlets import Float, Unicode

from ..classroom import CLASS_DIR_ENV
from ..classroom.store import ClassStore, StoreError, answers_csv, summarize
from .voila_class import ClassIdentityProvider

HERE = Path(__file__).resolve().parent.parent / "classroom"
COOKIE = "nidavellir_teacher"
#: How often the page asks for fresh data (ms): an answer shows within about a second.
POLL_MS = 1000


class TeacherAuth:
    """The teacher password and the cookie that proves it was typed."""

    def __init__(self, password: str, secret: bytes | None = None) -> None:
        if len(password) < 4:
            raise ValueError("the teacher password needs at least 4 characters")
        self.password = password
        self.secret = secret if secret is not None else secrets.token_bytes(32)

    def check(self, typed: str) -> bool:
        return hmac.compare_digest(typed.encode(), self.password.encode())

    def token(self, purpose: str = "teacher") -> str:
        return hmac.new(self.secret, (purpose + "\0" + self.password).encode(),
                        hashlib.sha256).hexdigest()

    def allowed(self, cookie: str | None) -> bool:
        return bool(cookie) and hmac.compare_digest(str(cookie), self.token())


class _Base(tornado.web.RequestHandler):
    auth: TeacherAuth
    store: ClassStore

    def initialize(self, auth: TeacherAuth, store: ClassStore) -> None:
        self.auth = auth
        self.store = store

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")

    @property
    def teacher(self) -> bool:
        return self.auth.allowed(self.get_cookie(COOKIE))

    def refuse(self) -> None:
        self.set_status(403)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": "The teacher password is needed for this page."}))

    def check_xsrf_cookie(self) -> None:
        """The forms carry their own proof (the password, or the clear token)."""


def _page(name: str, **values: str) -> str:
    text = (HERE / name).read_text(encoding="utf-8")
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    return text


class TeacherPageHandler(_Base):
    def get(self) -> None:
        if not self.request.path.endswith("/"):
            self.redirect(self.request.path + "/")
            return
        if not self.teacher:
            self.finish(_page("teacher_login.html", wrong=""))
            return
        self.finish(_page("teacher.html", clear_token=self.auth.token("clear"),
                          poll_ms=str(POLL_MS)))


class TeacherLoginHandler(_Base):
    async def post(self) -> None:
        typed = self.get_body_argument("password", default="")
        if not self.auth.check(typed):
            await asyncio.sleep(0.5)  # a wrong guess costs time (and blocks nobody else)
            self.set_status(401)
            self.finish(_page("teacher_login.html",
                              wrong="<div class='wrong'>Wrong teacher password.</div>"))
            return
        self.set_cookie(COOKIE, self.auth.token(), httponly=True, samesite="Strict",
                        path=self.request.path.rsplit("/", 1)[0] + "/")
        self.redirect("./")


async def _off_loop(fn: Any, *args: Any) -> Any:
    """Run a database call in a thread: the server's loop serves every student's page."""
    return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


class AnswersHandler(_Base):
    async def get(self) -> None:
        if not self.teacher:
            self.refuse()
            return
        data = await _off_loop(class_data, self.store)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(data))


class CsvHandler(_Base):
    async def get(self) -> None:
        if not self.teacher:
            self.refuse()
            return
        try:
            text = (await _off_loop(self.store.export_csv) if self.store.path.exists()
                    else answers_csv([]))
        except StoreError as exc:
            self.set_status(503)
            self.set_header("Content-Type", "application/json")
            self.finish(json.dumps({"error": f"{exc}."}))
            return
        stamp = time.strftime("%Y-%m-%d-%H%M")
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="answers-{stamp}.csv"')
        self.finish(text)


class ClearHandler(_Base):
    async def post(self) -> None:
        if not self.teacher or not hmac.compare_digest(
                self.get_body_argument("confirm", default=""), self.auth.token("clear")):
            self.refuse()
            return
        self.set_header("Content-Type", "application/json")
        try:
            self.finish(json.dumps({"cleared": await _off_loop(self.store.clear)}))
        except StoreError as exc:
            self.set_status(503)
            self.finish(json.dumps({"error": f"{exc}."}))


def class_data(store: ClassStore) -> dict[str, Any]:
    """What the page shows: per question (:meth:`ClassStore.summary`) and the totals; or
    ``{"error": ...}`` saying why there is nothing to show."""
    if not store.path.exists():
        return {"questions": [], "students": 0, "answers": 0,
                "note": f"No answer yet: the class database {store.path} is created with "
                        "the first one."}
    try:
        answers = store.answers()
        students = store.students()
    except StoreError as exc:
        return {"error": f"The answers cannot be read: {exc}. The students' pages keep "
                         "their answers and send them again."}
    return {"questions": summarize(answers, students), "students": len(students),
            "answers": len(answers)}


def teacher_handlers(base_url: str, store: ClassStore, auth: TeacherAuth
                     ) -> list[tuple[str, type[tornado.web.RequestHandler], dict[str, Any]]]:
    """The teacher page's handlers under ``base_url`` (``/`` for Voila's default)."""
    base = "/" + base_url.strip("/") + "/" if base_url.strip("/") else "/"
    kwargs = {"auth": auth, "store": store}
    return [
        (base + r"teacher/?", TeacherPageHandler, kwargs),
        (base + r"teacher/login", TeacherLoginHandler, kwargs),
        (base + r"teacher/api/answers", AnswersHandler, kwargs),
        (base + r"teacher/answers\.csv", CsvHandler, kwargs),
        (base + r"teacher/clear", ClearHandler, kwargs),
    ]


class ClassViewIdentityProvider(ClassIdentityProvider):  # type: ignore[misc]
    """The class password's provider (:class:`ClassIdentityProvider`) with the teacher
    page's handlers added: the way extra pages reach a Voila server."""

    teacher_password = Unicode("", config=True,
                               help="the teacher page's password (empty: no teacher page)")
    class_dir = Unicode("", config=True, help="the class folder (its answers.sqlite)")
    store_timeout = Float(10.0, config=True, help="seconds a read waits for a writer")

    def get_handlers(self) -> list[tuple[str, object]]:
        handlers: list[Any] = list(super().get_handlers())
        password = self.teacher_password
        folder = self.class_dir or os.environ.get(CLASS_DIR_ENV, "")
        if password and folder:
            base = getattr(self.parent, "base_url", "/") or "/"
            handlers = teacher_handlers(base, ClassStore(folder, self.store_timeout),
                                        TeacherAuth(password)) + handlers
            self.log.info("The class view is at %steacher/ (teacher password set)", base)
        return handlers


__all__ = ["ClassViewIdentityProvider", "TeacherAuth", "class_data", "teacher_handlers"]
