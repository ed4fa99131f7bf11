"""Issue 27, the class view: the class's answers in one SQLite database written by every
student's kernel, and the teacher page that reads them.

- 30 processes answering at once lose no answer (counted);
- a locked, damaged or unwritable database gives a clear message, loses no answer already
  stored (a damaged file is left byte for byte as it was), and the lesson goes on;
- the teacher page's counts equal the database's; its CSV reads back to the same answers;
  a wrong teacher password gets no data; clearing needs the page's token;
- the serve command's options for it.

The teacher page's handlers run here on a plain tornado server (no Voila, no kernel); the
browser test with Voila and three students is tests/browser/test_class_view.py.
"""

from __future__ import annotations

import asyncio
import html
import http.cookiejar
import json
import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from servers import PATIENCE_S

from nidavellir.classroom import ClassStore, command
from nidavellir.classroom.store import Answer, answers_csv, answers_from_csv, bins
from nidavellir.lessons import builtin
from widgets.classroom import ClassLink
from widgets.probability_lessons import ProbabilityLessonApp

ROOT = Path(__file__).resolve().parent.parent
#: Students writing at once, each in a process of its own: make test's small class (issue
#: 55); benchmarks/bench_class_view.py writes for 30 (benchmarks/README.md).
WRITERS = 8
ANSWERS_EACH = 10

WRITER = r"""
import os, sys, time
from nidavellir.classroom.store import Answer, ClassStore

folder, i, gate = sys.argv[1], int(sys.argv[2]), sys.argv[3]
store = ClassStore(folder)
open(os.path.join(gate, f"ready-{i}"), "w").close()
while not os.path.exists(os.path.join(gate, "go")):  # every writer starts at once
    time.sleep(0.001)
store.join(f"s{i}", f"student {i}")
for k in range(int(sys.argv[4])):
    store.record(Answer(student=f"s{i}", name=f"student {i}", question=f"lesson/q{k % 4}",
                        answer=(i + k) % 10 / 10, exact=0.4, kind="probability"))
"""


@pytest.mark.slow(reason="eight interpreters writing to one class database at once")
def test_students_answering_at_once_lose_no_answer(tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    gate.mkdir()
    folder = tmp_path / "class"
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(folder), str(i), str(gate),
                               str(ANSWERS_EACH)], cwd=ROOT, stderr=subprocess.PIPE)
             for i in range(WRITERS)]
    deadline = time.monotonic() + PATIENCE_S
    while len(list(gate.glob("ready-*"))) < WRITERS:  # every interpreter is up
        assert time.monotonic() < deadline and all(p.poll() is None for p in procs)
        time.sleep(0.01)
    (gate / "go").touch()
    errors = [p.communicate(timeout=PATIENCE_S)[1].decode() for p in procs]
    assert [p.returncode for p in procs] == [0] * WRITERS, [e for e in errors if e][:2]
    store = ClassStore(folder)
    answers = store.answers()
    assert len(answers) == store.count() == WRITERS * ANSWERS_EACH
    per_student = {a.student: 0 for a in answers}
    for a in answers:
        per_student[a.student] += 1
    assert per_student == {f"s{i}": ANSWERS_EACH for i in range(WRITERS)}
    assert len(store.students()) == WRITERS
    mode = sqlite3.connect(store.path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    # The teacher page's counts are the database's: every student answered every question.
    summary = store.summary()
    assert sorted(q["question"] for q in summary) == [f"lesson/q{k}" for k in range(4)]
    for q in summary:
        assert q["answered"] == q["students"] == WRITERS and q["missing"] == []
        assert sum(b["count"] for b in q["bins"]) == WRITERS


def _answer(student: str, question: str = "counting/hunter-in-a-tavern", value: float = 0.5,
            name: str = "") -> Answer:
    return Answer(student=student, name=name, question=question, answer=value,
                  kind="probability", title="1. Counting: A hunter", exact=22 / 51,
                  exact_text="22/51")


def test_the_summary_counts_latest_answers_and_who_is_missing(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    for student, name in (("a", "Ada"), ("b", "Bo"), ("c", "")):
        store.join(student, name)
    store.record(_answer("a", value=0.9, name="Ada"), _answer("b", value=0.35, name="Bo"))
    store.record(_answer("a", value=0.45, name="Ada"))  # Ada changed her mind: her latest
    store.record(Answer(student="c", question="lab/other", answer=2.0, kind="mean"))
    first, second = store.summary()
    assert first["question"] == "lab/other"  # the most recently answered first
    q = second
    assert q["answered"] == 2 and q["students"] == 3
    assert sorted(a["answer"] for a in q["answers"]) == [0.35, 0.45]
    assert q["mean"] == pytest.approx(0.4) and q["exact"] == pytest.approx(22 / 51)
    assert q["missing"] == ["anonymous (c)"]
    assert [b["count"] for b in q["bins"]] == [0, 0, 0, 1, 1, 0, 0, 0, 0, 0]
    # Ada reloads her page (a new page, the same name): still one student, her latest
    # answer counts; a student who typed no name is their page.
    store.join("a2", " ada ")
    store.record(_answer("a2", value=0.05, name=" ada "))
    q = store.summary()[0]
    assert q["answered"] == 2 and q["students"] == 3 and q["missing"] == ["anonymous (c)"]
    assert sorted(a["answer"] for a in q["answers"]) == [0.05, 0.35]
    assert sum(b["count"] for b in bins([1.0, 3.0, 5000.0], "count", 2452.9)) == 3


def test_csv_export_reads_back_to_the_same_answers(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    store.record(_answer("a", value=1 / 3, name='Ada "the, first"'),
                 Answer(student="b", question="lab/x", answer=9812.0, kind="count"))
    text = store.export_csv()
    assert text.splitlines()[0] == "id,time,epoch,student,name,question,title,kind,answer," \
                                   "exact,exact_text,uid,run,run_name,step,move"
    assert answers_from_csv(text) == store.answers()
    assert answers_csv(answers_from_csv(text), {1: "Run 1"}) == text
    with pytest.raises(ValueError, match="line 2"):
        answers_from_csv(text.replace("0.3333333333333333", "a third"))


# ====================================================================== when it goes wrong

def test_a_locked_database_keeps_the_answer_and_sends_it_later(tmp_path: Path) -> None:
    store = ClassStore(tmp_path, timeout=0.2)
    store.record(_answer("old"))
    link = ClassLink(store, student="s1")
    holder = sqlite3.connect(store.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holds the file
    try:
        assert not link.send("counting/x", "x", 0.3, "probability", 0.5, "1/2")
        assert "locked" in link.status.value and "kept on this page" in link.status.value
        assert link.retry.layout.display == "" and len(link.pending) == 1
        assert not link.send("counting/y", "y", 0.7, "probability")
        assert len(link.pending) == 2
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert link.send("counting/z", "z", 0.1, "probability")
    assert link.pending == [] and "Sent" in link.status.value
    assert [a.question for a in store.answers()] == [
        "counting/hunter-in-a-tavern", "counting/x", "counting/y", "counting/z"]


def test_once_send_again_succeeds_nothing_says_kept_any_more(tmp_path: Path) -> None:
    """The link's line and the step's own line both said the answer was kept; both say it
    went to the teacher once it did (issue 42: the old page kept saying "kept")."""
    store = ClassStore(tmp_path, timeout=0.2)
    app = ProbabilityLessonApp(builtin("counting"), ClassLink(store, student="s1"))
    assert app.link is not None
    holder = sqlite3.connect(store.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        app.prediction.value = 0.4
        app.submit_button.click()
        assert "kept on this page" in app.said.value
        assert "kept on this page" in app.link.status.value
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    app.link.retry.click()
    assert store.count() == 1
    for shown in (app.said.value, app.link.status.value):
        assert "kept" not in shown and "Not sent" not in shown, shown
    assert "went to your teacher" in app.said.value
    assert "Sent to your teacher" in app.link.status.value
    assert app.link.retry.layout.display == "none"


def test_a_damaged_database_is_reported_left_as_it_is_and_the_lesson_goes_on(
        tmp_path: Path) -> None:
    from nidavellir.classroom.teacher.data import class_data

    damaged = b"SQLite format 3\x00" + b"\xde\xad" * 600  # not a database any more
    (tmp_path / "answers.sqlite").write_bytes(damaged)
    store = ClassStore(tmp_path, timeout=0.2)
    app = ProbabilityLessonApp(builtin("counting"), ClassLink(store, student="s1"))
    assert app.link is not None
    app.prediction.value = 0.4
    app.submit_button.click()
    assert "damaged" in app.link.status.value and "left as it is" in app.link.status.value
    assert "kept on this page" in app.said.value
    app.simulate_button.click()  # the lesson goes on
    app.reveal_button.click()
    assert "22/51" in app.result.value
    assert (tmp_path / "answers.sqlite").read_bytes() == damaged
    data = class_data(store)
    assert "damaged" in data["error"] and "questions" not in data


def test_an_unwritable_class_folder_is_named(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    link = ClassLink(ClassStore(blocker / "class"), student="s1")
    assert not link.send("q", "q", 0.5, "probability")
    assert "cannot create the class folder" in link.status.value


def test_outside_class_mode_nothing_is_shown_or_stored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NIDAVELLIR_CLASS_DIR", raising=False)
    link = ClassLink()
    assert not link.active and link.widget.layout.display == "none"
    assert not link.send("q", "q", 0.5, "probability")


def test_the_lesson_sends_each_prediction_with_its_exact_value(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    link = ClassLink(store, student="s9")
    link.name.value = "Cy"
    app = ProbabilityLessonApp(builtin("law-of-large-numbers"), link)
    app.prediction.value = 2500
    app.submit_button.click()
    (answer,) = store.answers()
    assert (answer.student, answer.name, answer.kind) == ("s9", "Cy", "count")
    assert answer.question == "law-of-large-numbers/how-many-simulations"
    assert answer.answer == 2500 and answer.exact == pytest.approx(6380000 / 2601)
    assert answer.exact_text == "6380000/2601"
    assert "5. The law of large numbers" in answer.title


# ====================================================================== the teacher page

PASSWORD = "owl-42"


class Clock:
    """A clock the test moves (the throttle's waits pass without waiting)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def teacher_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict]:
    """The teacher page's handlers on a tornado server of their own (a thread), with the
    throttle on a clock the test moves: {url, port, store, auth, throttle, clock}."""
    import tornado.httpserver
    import tornado.netutil
    import tornado.web

    from nidavellir.classroom import guard
    from nidavellir.classroom.teacher.auth import TeacherAuth
    from nidavellir.classroom.teacher.handlers import teacher_handlers

    monkeypatch.setattr(guard, "TARPIT_S", 0.01)
    store = ClassStore(tmp_path)
    clock = Clock()
    throttle = guard.Throttle(failures=3, lockout=300, clock=clock)
    auth = TeacherAuth(PASSWORD)
    ready = threading.Event()
    state: dict = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        app = tornado.web.Application(teacher_handlers("/", store, auth, throttle))
        server = tornado.httpserver.HTTPServer(app)
        sockets = tornado.netutil.bind_sockets(0, "127.0.0.1")
        server.add_sockets(sockets)
        state.update(loop=loop, server=server, port=sockets[0].getsockname()[1])
        ready.set()
        loop.run_forever()
        server.stop()
        loop.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10)
    try:
        yield {"url": f"http://127.0.0.1:{state['port']}/teacher/", "port": state["port"],
               "store": store, "auth": auth, "throttle": throttle, "clock": clock}
    finally:
        state["loop"].call_soon_threadsafe(state["loop"].stop)
        thread.join(10)


@pytest.fixture
def teacher(teacher_server: dict) -> tuple[str, ClassStore]:
    return teacher_server["url"], teacher_server["store"]


def _opener() -> urllib.request.OpenerDirector:
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(
        http.cookiejar.CookieJar()))


def _open(opener: urllib.request.OpenerDirector, url: str, data: dict | None = None
          ) -> tuple[int, str]:
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    try:
        with opener.open(url, data=body, timeout=PATIENCE_S) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_a_wrong_teacher_password_gets_no_data(teacher) -> None:  # type: ignore[no-untyped-def]
    url, store = teacher
    store.record(_answer("a", name="Ada"))
    opener = _opener()
    status, page = _open(opener, url)
    assert status == 200 and "Teacher password" in page and "Ada" not in page
    status, page = _open(opener, url + "login", {"password": "owl-43"})
    assert status == 401 and "Wrong teacher password" in page and "Ada" not in page
    for path in ("api/answers", "answers.csv"):
        status, body = _open(opener, url + path)
        assert status == 403 and "Ada" not in body and "0.5" not in body
        assert json.loads(body) == {"error": "The teacher password is needed for this page."}
    for action in ("pause", "new-run", "delete-run"):
        status, body = _open(opener, url + "control", {"token": "anything", "action": action,
                                                        "run": "1", "name": "x"})
        assert status == 403 and store.count() == 1
    assert not store.state().paused and len(store.runs()) == 1
    assert _open(opener, url + "runs/1.csv")[0] == 403


def test_the_teacher_page_shows_the_databases_counts_and_exports(teacher) -> None:  # type: ignore[no-untyped-def]
    url, store = teacher
    opener = _opener()
    status, _ = _open(opener, url + "login", {"password": PASSWORD})
    assert status == 200
    status, page = _open(opener, url)
    assert status == 200 and "Class view" in page and "Download the answers (CSV)" in page
    assert "https://" not in page and "http://" not in page  # nothing from outside
    status, body = _open(opener, url + "api/answers")
    assert status == 200 and json.loads(body)["answers"] == 0
    for i in range(7):
        store.join(f"s{i}", f"student {i}")
    store.record(*[_answer(f"s{i}", value=i / 10) for i in range(5)])
    store.record(Answer(student="s5", question="lab/other", answer=3.0, kind="mean"))
    data = json.loads(_open(opener, url + "api/answers")[1])
    assert data["answers"] == store.count() == 6 and data["students"] == 7
    counts = {q["question"]: q["answered"] for q in data["questions"]}
    assert counts == {"counting/hunter-in-a-tavern": 5, "lab/other": 1}
    hunter = next(q for q in data["questions"] if q["question"].startswith("counting"))
    assert hunter["missing"] == ["student 5", "student 6"]
    assert sum(b["count"] for b in hunter["bins"]) == 5
    assert hunter["exact_text"] == "22/51"
    status, csv_text = _open(opener, url + "answers.csv")
    assert status == 200 and answers_from_csv(csv_text) == store.answers()


def _teacher_session(url: str) -> tuple[urllib.request.OpenerDirector, str]:
    """A logged-in teacher and the page's token for its controls."""
    opener = _opener()
    assert _open(opener, url + "login", {"password": PASSWORD})[0] == 200
    page = _open(opener, url)[1]
    return opener, page.split('CONTROL_TOKEN = "')[1].split('"')[0]


def test_the_teachers_controls_change_the_class_state_and_refuse_bad_requests(teacher) -> None:  # type: ignore[no-untyped-def]
    url, store = teacher
    opener, token = _teacher_session(url)

    def control(**form: str) -> tuple[int, dict]:
        status, body = _open(opener, url + "control", {"token": token, **form})
        return status, json.loads(body)

    status, done = control(action="lock", lesson="counting", step="2")
    assert status == 200 and (done["state"]["lesson"], done["state"]["lock"]) == ("counting", 2)
    assert store.state().lock == 2
    assert control(action="pause")[1]["state"]["paused"] is True
    # What a student's kernel would send now is refused by the store: paused, then beyond.
    now = time.time()
    assert "paused" in store.record(Answer(student="s1", question="counting/b", answer=0.5,
                                           step=2, at=now, uid="p1")).refused["p1"]
    assert control(action="resume")[1]["state"]["paused"] is False
    assert "step 3 waits" in store.record(Answer(student="s1", question="counting/c",
                                                 answer=0.5, step=3, at=time.time(),
                                                 uid="p2")).refused["p2"]
    assert control(action="release")[1]["state"]["lock"] is None
    status, done = control(action="reveal-mode", question="counting/c", mode="teacher")
    assert done["state"]["teacher_led"] == ["counting/c"]
    assert control(action="reveal", question="counting/c")[1]["state"]["revealed"] == [
        "counting/c"]
    assert control(action="hide", question="counting/c")[1]["state"]["revealed"] == []
    # Bad requests: 4xx with one sentence, and nothing changes.
    version = store.state().version
    for form, code, words in (
            ({"action": "explode"}, 400, "There is no control 'explode'"),
            ({"action": "lock", "lesson": "counting", "step": "two"}, 400,
             "a step is a whole number, not 'two'"),
            ({"action": "lock", "lesson": "counting", "step": "0"}, 400, "from 1 to 999"),
            ({"action": "lock", "lesson": "../etc", "step": "1"}, 400, "lesson's key"),
            ({"action": "reveal-mode", "question": "counting/c", "mode": "soon"}, 400,
             "reveal mode"),
            ({"action": "new-run", "name": ""}, 400, "needs a name"),
            ({"action": "reopen", "run": "7"}, 404, "no lesson run 7"),
            ({"action": "delete-run", "run": "1"}, 400, "in progress")):
        status, body = control(**form)
        assert (status, list(body)) == (code, ["error"]) and words in body["error"], form
    assert store.state().version == version
    assert _open(opener, url + "runs/7.csv")[0] == 404


def test_lesson_runs_from_the_teacher_page_export_exactly_their_answers(teacher) -> None:  # type: ignore[no-untyped-def]
    url, store = teacher
    opener, token = _teacher_session(url)
    store.record(*[_answer(f"s{i}", value=i / 10) for i in range(3)])
    status, body = _open(opener, url + "control", {"token": token, "action": "new-run",
                                                    "name": "3b, Tuesday"})
    assert status == 200 and json.loads(body)["state"]["run"] == 2
    store.record(_answer("s9", value=0.9))
    data = json.loads(_open(opener, url + "api/answers")[1])
    assert data["answers"] == 1 and data["state"]["run"] == 2  # the run in progress
    assert [(r["id"], r["name"], r["answers"]) for r in data["runs"]] == [
        (1, "Run 1", 3), (2, "3b, Tuesday", 1)]
    for run in (1, 2):
        status, text = _open(opener, url + f"runs/{run}.csv")
        assert status == 200 and answers_from_csv(text) == store.answers(run=run)
    assert answers_from_csv(_open(opener, url + "answers.csv")[1]) == store.answers()
    status, body = _open(opener, url + "control", {"token": token, "action": "delete-run",
                                                    "run": "1"})
    assert status == 200 and json.loads(body)["deleted"] == 3
    assert [a.student for a in store.answers()] == ["s9"]
    lessons = json.loads(_open(opener, url + "api/lessons")[1])["lessons"]
    counting = next(lesson for lesson in lessons if lesson["key"] == "counting")
    assert counting["steps"][0]["step"] == 1
    assert counting["steps"][0]["question"].startswith("counting/")


# ====================================================================== the serve command

def test_serve_adds_the_teacher_page_through_the_identity_provider() -> None:
    args = command.voila_args("notebooks", password=True, teacher=True, class_dir="/tmp/class")
    assert f"--Voila.identity_provider_class={command.CLASS_VIEW_IDENTITY}" in args
    assert "--ClassViewIdentityProvider.class_dir=/tmp/class" in args
    assert not [a for a in args if "password" in a.lower() or "token" in a.lower()]
    assert len({a.split("=", 1)[0] for a in args}) == len(args)  # every option once
    plain = command.voila_args("notebooks", password=True)
    assert f"--Voila.identity_provider_class={command.CLASS_IDENTITY}" in plain


@pytest.mark.parametrize("argv, env, message", [
    ([], {"NIDAVELLIR_TEACHER_PASSWORD": "ab"},
     "the teacher password needs at least 4 characters"),
    ([], {"NIDAVELLIR_TEACHER_PASSWORD": "dwarves", "NIDAVELLIR_PASSWORD": "dwarves"},
     "must differ from the class"),
    (["--teacher-password-file", "FILE"], {"NIDAVELLIR_PASSWORD": "dwarves"},
     "must differ from the class"),
    (["--lessons", "no/such/folder"], {}, "--lessons no/such/folder: no such folder"),
])
def test_bad_class_view_arguments_get_one_clear_line(
        tmp_path: Path, argv: list[str], env: dict[str, str], message: str) -> None:
    (tmp_path / "teacher.pw").write_text("dwarves\n")
    argv = [str(tmp_path / "teacher.pw") if a == "FILE" else a for a in argv]
    out = subprocess.run([sys.executable, "-m", "nidavellir.serve", *argv], cwd=ROOT,
                         capture_output=True, text=True, timeout=PATIENCE_S,
                         env={**os.environ, **env})
    assert out.returncode == 2
    assert message in out.stderr and "Traceback" not in out.stderr


def test_a_value_arriving_just_after_submit_is_the_one_submitted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A browser sends a click at once but may hold the slider's last value until the
    kernel answered the previous one: the value that follows Submit belongs to it."""
    import widgets.probability_lessons as PL

    store = ClassStore(tmp_path)
    app = ProbabilityLessonApp(builtin("counting"), ClassLink(store, student="s1"))
    clock = [100.0]
    monkeypatch.setattr(PL.time, "monotonic", lambda: clock[0])
    app.slider.value = 0.69
    app.submit_button.click()
    clock[0] += 0.3
    app.slider.value = 0.70  # the slider's last value, late
    assert app.predictions[0] == 0.70 and "0.70" in app.said.value
    assert [a.answer for a in store.answers()] == [0.69, 0.70]  # the teacher shows the latest
    clock[0] += PL.LATE_VALUE_S + 1
    app.slider.value = 0.20  # moved long after: not a prediction until submitted again
    assert app.predictions[0] == 0.70 and len(store.answers()) == 2


# ====================================================================== the teacher's security

def _post_from(port: int, source: str, path: str, fields: dict[str, str],
               cookie: str = "") -> tuple[int, dict[str, str], str]:
    """A POST from another client address (Linux answers every 127.x.y.z)."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE_S,
                                      source_address=(source, 0))
    try:
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        if cookie:
            headers["Cookie"] = cookie
        conn.request("POST", path, body=urllib.parse.urlencode(fields), headers=headers)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read().decode()
    finally:
        conn.close()


def test_the_teacher_password_is_kept_only_as_a_salted_hash() -> None:
    from nidavellir.classroom.teacher.auth import TeacherAuth

    auth, again = TeacherAuth(PASSWORD), TeacherAuth(PASSWORD)
    held = [v for v in vars(auth).values()]
    assert not [v for v in held if PASSWORD in repr(v) or PASSWORD.encode() in repr(v).encode()]
    assert auth._hash != again._hash  # salted: the same password, another hash
    assert auth.check(PASSWORD) and not auth.check(PASSWORD + "x") and not auth.check("")


def test_the_teachers_cookie_is_signed_httponly_strict_and_lasts(teacher_server: dict) -> None:
    from nidavellir.classroom.teacher.auth import COOKIE

    port, auth = teacher_server["port"], teacher_server["auth"]
    status, headers, _ = _post_from(port, "127.0.0.1", "/teacher/login", {"password": PASSWORD})
    assert status == 302
    cookie = headers["set-cookie"]
    assert cookie.startswith(COOKIE + "=")
    attributes = {a.strip().split("=")[0].lower() for a in cookie.split(";")[1:]}
    assert {"httponly", "samesite", "max-age", "path"} <= attributes
    assert "SameSite=Strict" in cookie and f"Max-Age={8 * 3600}" in cookie
    value = cookie.split(";")[0].split("=", 1)[1]
    sid, end, signature = value.split(".")
    assert auth.session(value) == sid
    forged = f"{sid}.{int(end) + 3600}.{signature}"  # a longer life, without the secret
    assert auth.session(forged) is None
    assert auth.session(f"{'0' * 32}.{end}.{signature}") is None
    # The session ends with its lifetime.
    auth.clock = lambda: int(end) + 1
    assert auth.session(value) is None


def test_log_out_ends_the_session(teacher_server: dict) -> None:
    url = teacher_server["url"]
    cookie = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookie))
    assert _open(opener, url + "login", {"password": PASSWORD})[0] == 200
    status, page = _open(opener, url)
    assert "Log out" in page and 'action="logout?lang=en"' in page
    value = next(c.value for c in cookie if c.name == "nidavellir_teacher")
    status, page = _open(opener, url + "logout", {})
    assert status == 200 and "Teacher password" in page  # the form again
    assert _open(opener, url + "api/answers")[0] == 403
    # The old cookie, kept by whoever copied it, is worth nothing now.
    status, _, body = _get_with_cookie(teacher_server["port"], "/teacher/api/answers",
                                       f"nidavellir_teacher={value}")
    assert status == 403


def _get_with_cookie(port: int, path: str, cookie: str) -> tuple[int, dict[str, str], str]:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE_S)
    try:
        conn.request("GET", path, headers={"Cookie": cookie})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read().decode()
    finally:
        conn.close()


def test_the_teacher_pages_forbid_framing_and_sniffing(teacher_server: dict) -> None:
    port = teacher_server["port"]
    _, headers, _ = _post_from(port, "127.0.0.1", "/teacher/login", {"password": PASSWORD})
    cookie = headers["set-cookie"].split(";")[0]
    for path, with_cookie in (("/teacher/", ""), ("/teacher/", cookie),
                              ("/teacher/api/answers", cookie),
                              ("/teacher/answers.csv", cookie)):
        status, got, _ = _get_with_cookie(port, path, with_cookie)
        assert status == 200, path
        assert got["content-security-policy"] == "frame-ancestors 'none'"
        assert got["x-frame-options"] == "DENY" and got["x-content-type-options"] == "nosniff"


def test_wrong_teacher_passwords_lock_out_their_address_and_no_other(teacher_server: dict
                                                                      ) -> None:
    port, throttle, clock = (teacher_server[k] for k in ("port", "throttle", "clock"))
    attacker, teacher = "127.0.0.2", "127.0.0.1"
    statuses = []
    for i in range(3):  # three wrong tries, each once the address may try again
        statuses.append(_post_from(port, attacker, "/teacher/login", {"password": "x"})[0])
        # Tried again at once: refused, unchecked.
        assert _post_from(port, attacker, "/teacher/login", {"password": PASSWORD})[0] == 429
        if i < 2:
            assert 0 < throttle.wait(attacker) <= 8
            clock.now += throttle.wait(attacker)
    assert statuses == [401, 401, 401]
    assert throttle.locked(attacker)
    checked = throttle.checked
    # Locked out: even the right password is refused without being checked.
    for _ in range(5):
        status, headers, page = _post_from(port, attacker, "/teacher/login",
                                           {"password": PASSWORD})
        assert status == 429 and "Too many wrong passwords" in page
        assert int(headers["retry-after"]) > 200
        assert "set-cookie" not in headers
    assert throttle.checked == checked
    # The teacher, at another address, comes in at once.
    status, headers, _ = _post_from(port, teacher, "/teacher/login", {"password": PASSWORD})
    assert status == 302 and "nidavellir_teacher=" in headers["set-cookie"]
    # After the lockout the address may try again.
    clock.now += 301
    assert _post_from(port, attacker, "/teacher/login", {"password": PASSWORD})[0] == 302


def _button_wait_ms(page: str) -> int:
    found = re.search(r"var ms = (\d+);", page)
    assert found, "the login form's button wait"
    return int(found.group(1))


def test_a_try_refused_while_the_address_waits_is_not_called_wrong_and_the_button_waits(
        teacher_server: dict) -> None:
    """The right password typed during the wait after a wrong one was refused unchecked,
    and the page said "Wrong password": the form now says the try was not checked, and its
    button waits as long as the address must (a browser test's teacher typed too soon)."""
    import http.client

    port, throttle, clock = (teacher_server[k] for k in ("port", "throttle", "clock"))
    address = "127.0.0.4"

    def get() -> str:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE_S,
                                          source_address=(address, 0))
        try:
            conn.request("GET", "/teacher/")
            return conn.getresponse().read().decode()
        finally:
            conn.close()

    assert _button_wait_ms(get()) == 0
    status, _headers, page = _post_from(port, address, "/teacher/login", {"password": "x"})
    assert status == 401 and "Wrong teacher password" in page
    waits = throttle.wait(address)
    assert waits > 0 and _button_wait_ms(page) >= waits * 1000
    status, _headers, page = _post_from(port, address, "/teacher/login",
                                        {"password": PASSWORD})
    assert status == 429 and "Wrong" not in page
    assert "wait 1 second before the next try (a try before then is not checked)" in page
    assert _button_wait_ms(page) >= throttle.wait(address) * 1000 > 0
    assert "not checked" in get() and _button_wait_ms(get()) > 0  # the form, reloaded
    clock.now += throttle.wait(address)
    page = get()
    assert _button_wait_ms(page) == 0 and "not checked" not in page
    assert _post_from(port, address, "/teacher/login", {"password": PASSWORD})[0] == 302


def test_parallel_wrong_passwords_from_one_address_are_checked_one_at_a_time(
        teacher_server: dict) -> None:
    from concurrent.futures import ThreadPoolExecutor

    port, throttle = teacher_server["port"], teacher_server["throttle"]
    with ThreadPoolExecutor(max_workers=25) as pool:
        statuses = list(pool.map(lambda _i: _post_from(
            port, "127.0.0.3", "/teacher/login", {"password": "guess"})[0], range(50)))
    # However many come at once, an address gets one check and then must wait.
    assert statuses.count(401) == 1 and statuses.count(429) == 49, statuses
    assert throttle.checked == 1


def test_the_projector_shows_no_name_pseudonyms_on_demand_and_pins_in_order(teacher) -> None:  # type: ignore[no-untyped-def]
    from nidavellir.classroom.store import DWARVES

    url, store = teacher
    opener, token = _teacher_session(url)
    assert _open(_opener(), url + "api/projector")[0] == 403  # the teacher's session only
    for i, name in enumerate(("Ada", "Bo", "Cy")):
        store.join(f"s{i}", name)
        store.record(_answer(f"s{i}", name=name, value=0.3 + i / 10))
    ids = [a.id for a in store.answers()]

    def control(**form: str) -> dict:
        status, body = _open(opener, url + "control", {"token": token, **form})
        assert status == 200, body
        return json.loads(body)

    def projector() -> tuple[dict, str]:
        status, body = _open(opener, url + "api/projector")
        assert status == 200
        return json.loads(body), body

    data, body = projector()
    question = data["question"]
    assert question["question"] == "counting/hunter-in-a-tavern" and question["answered"] == 3
    assert question["answers"] == [] and question["exact"] is None  # not revealed yet
    assert not {"Ada", "Bo", "Cy"} & set(re.findall(r"\w+", body)) and "22/51" not in body
    control(action="names", shown="1")
    data, body = projector()
    names = [a["pseudonym"] for a in data["question"]["answers"]]
    assert len(set(names)) == 3 and all(n.split()[0] in DWARVES for n in names)
    assert not {"Ada", "Bo", "Cy"} & set(re.findall(r"\w+", body))  # "Bofur" is no "Bo"
    assert projector()[0]["question"]["answers"] == data["question"]["answers"]  # stable
    control(action="reveal", question="counting/hunter-in-a-tavern")
    assert projector()[0]["question"]["exact"] == 22 / 51
    # Pinned answers, in the chosen order.
    for answer in (ids[2], ids[0], ids[1]):
        control(action="pin", answer=str(answer))
    control(action="move-pin", answer=str(ids[1]), by="-1")
    control(action="unpin", answer=str(ids[2]))
    pins = projector()[0]["pins"]
    assert [p["id"] for p in pins] == [ids[1], ids[0]]
    assert [p["answer"] for p in pins] == [0.4, 0.3]
    by_answer = {a["answer"]: a["pseudonym"] for a in data["question"]["answers"]}
    assert [p["pseudonym"] for p in pins] == [by_answer[0.4], by_answer[0.3]]
    control(action="names", shown="0")
    _, body = projector()
    assert not any(n in body for n in names)
    status, body = _open(opener, url + "control", {"token": token, "action": "pin",
                                                    "answer": "999"})
    assert status == 400 and "no answer 999" in body
    status, page = _open(opener, url + "projector")
    assert status == 200 and "chart.js" in page and _open(opener, url + "chart.js")[0] == 200


# ====================================================================== the page's language

@pytest.mark.parametrize("lang, too_long, damaged", [
    ("de", "der Name eines Durchgangs hat höchstens 60 Zeichen (dieser hat 61)",
     "ist beschädigt"),
    ("fr", "le nom d’une séance compte au plus 60 caractères (celui-ci en a 61)",
     "est endommagée"),
    ("en", "a run's name is at most 60 characters (this one has 61)", "is damaged"),
])
def test_the_store_s_refusals_and_errors_come_in_the_page_s_language(
        teacher_server: dict, lang: str, too_long: str, damaged: str) -> None:
    """A too-long run's name and a damaged database, said on the teacher page in its
    language (the store words them in the request's)."""
    url, store = teacher_server["url"], teacher_server["store"]
    opener, token = _teacher_session(url)
    status, body = _open(opener, url + f"control?lang={lang}",
                         {"token": token, "action": "new-run", "name": "x" * 61})
    assert status == 400 and json.loads(body)["error"] == too_long + "."
    assert len(store.runs()) == 1
    store.path.write_bytes(b"SQLite format 3\x00" + b"\xde\xad" * 600)
    status, body = _open(opener, url + f"answers.csv?lang={lang}")
    assert status == 503 and damaged in json.loads(body)["error"]
    assert damaged in json.loads(_open(opener, url + f"api/answers?lang={lang}")[1])["error"]


@pytest.mark.parametrize("lang, wait, locked", [
    ("de", "warte 1 Sekunde bis zum nächsten Versuch (ein Versuch davor wird nicht geprüft)",
     "Zu viele falsche Passwörter von diesem Computer: er darf es in 5 Minuten wieder"),
    ("fr", "attendez 1 seconde avant le prochain essai (un essai avant ce délai n’est pas "
     "vérifié)", "Trop de mauvais mots de passe depuis cet ordinateur\xa0: il pourra "
     "réessayer dans 5 minutes"),
])
def test_the_login_throttle_speaks_the_page_s_language_and_throttles_the_same(
        teacher_server: dict, lang: str, wait: str, locked: str) -> None:
    port, throttle, clock = (teacher_server[k] for k in ("port", "throttle", "clock"))
    address = "127.0.0.8" if lang == "de" else "127.0.0.9"
    login = f"/teacher/login?lang={lang}"
    status, _headers, page = _post_from(port, address, login, {"password": "x"})
    assert status == 401 and 'lang="' + lang + '"' in page
    status, _headers, page = _post_from(port, address, login, {"password": PASSWORD})
    assert status == 429 and wait in html.unescape(page)
    for _ in range(2):
        clock.now += throttle.wait(address)
        assert _post_from(port, address, login, {"password": "x"})[0] == 401
    status, headers, page = _post_from(port, address, login, {"password": PASSWORD})
    assert status == 429 and locked in html.unescape(page)
    assert int(headers["retry-after"]) > 200
    assert PASSWORD not in page and "set-cookie" not in headers
