"""Issue 58, a class that survives the whole lesson: the parts that need no server.

- **No secret in a log line**: the redactor on the server's log handlers
  (nidavellir/classroom/server/redact.py) hides a ``?token=`` link, a form's password, a
  cookie, an ``Authorization`` header and the class password itself, in a message and in
  a traceback;
- **sessions that survive a restart**: the class folder's ``sessions.json``
  (nidavellir/classroom/sessions.py) keeps the login cookies' secret and the teacher's
  sessions, private to the server's user; a teacher's cookie signed before a restart
  opens the teacher page after it;
- **wrong passwords counted per browser**: a student who guesses locks out their own
  browser, not the class behind the same school address; an address has a ceiling;
- **every word in the page's language**: the page guard's words in every language, the
  page of a computer with too many dashboards, the class page; the teacher page's run
  names and question titles in the reader's language whatever the answering page's was;
- **a restored position page** shows its move in its control as in its words.

The server's side is elsewhere: a restart mid-lesson in tests/test_class_chaos.py (the
pages come back by themselves, no password typed again, every answer stored once), a
malformed websocket message in tests/test_serving.py, the log of every server a test
starts in tests/servers.py (``stop_voila`` fails on a secret in it); in the browser, a page
whose kernel dies in tests/browser/test_class_view.py and a page through a restart in
tests/browser/test_class_restart.py.
"""

from __future__ import annotations

import logging
import stat
import time
from pathlib import Path

import pytest

from nidavellir import i18n
from nidavellir.classroom import ClassStore
from nidavellir.classroom.guard import Throttle
from nidavellir.classroom.server import redact
from nidavellir.classroom.sessions import FILE_NAME, SessionFile
from nidavellir.classroom.store import Answer

# ====================================================================== the log


@pytest.mark.parametrize("line, secret", [
    ("429 GET /voila/render/dashboard.ipynb?token=dwarves (127.0.0.1) 3.10ms", "dwarves"),
    ("Uncaught exception GET /voila/render/dashboard.ipynb?lang=de&token=dwarves "
     "(127.0.0.1)", "dwarves"),
    ("HTTPServerRequest(protocol='http', host='127.0.0.1:8866', method='POST', "
     "uri='/login?next=%2F&password=owl-42', version='HTTP/1.1')", "owl-42"),
    ('{"Host": "x", "Authorization": "token dwarves-link"}', "dwarves-link"),
    ("Cookie: nidavellir_teacher=abc123.1700000000.deadbeef; _xsrf=2|ab|cd",
     "abc123.1700000000.deadbeef"),
    ("Set-Cookie: username-127-0-0-1-8866=2|1:0|10:17|secretvalue", "secretvalue"),
])
def test_a_log_line_keeps_its_sense_and_loses_its_secret(line: str, secret: str) -> None:
    scrubbed = redact.scrub(line)
    assert secret not in scrubbed and redact.HIDDEN in scrubbed
    assert scrubbed.split()[0] == line.split()[0]  # the line still says what happened


def test_a_very_long_address_is_scrubbed_in_one_pass() -> None:
    """A 60,000-character address (the malformed requests of tests/test_serving.py) froze
    the server for minutes: the parameter pattern was tried from every letter of it, in
    quadratic time. Now a name is matched whole, once; the speed guard's 2 s of CPU is
    this test's bound (the old pattern took over 10 s on a sixth of this line)."""
    line = "404 GET /voila/render/" + "b" * 60_000 + " (127.0.0.1) 1.0ms"
    assert redact.scrub(line) == line
    long_name = "x" * 30_000 + "_token=dwarves&" + "y" * 30_000 + "=z"
    assert redact.scrub(long_name) == "x" * 30_000 + "_token=[secret]&" + "y" * 30_000 + "=z"


def test_the_redactor_hides_secrets_in_messages_and_tracebacks() -> None:
    """The redactor on a handler: a record's arguments and its traceback come out without
    the class password, wherever it stood."""
    import io

    out = io.StringIO()
    handler = logging.StreamHandler(out)
    logger = logging.getLogger("nidavellir.test.redact")
    logger.addHandler(handler)
    logger.propagate = False
    redactor = redact.Redactor()
    try:
        redact.install("dwarves", redactor=redactor)
        assert redactor in handler.filters
        logger.warning("refused %s", "/voila/render/x.ipynb?token=dwarves")
        try:
            raise ValueError("the link /?token=dwarves was wrong, dwarves")
        except ValueError:
            logger.exception("failed for %r", {"password": "dwarves"})
        logger.warning("nothing secret here: 3 kernels")
    finally:
        logger.removeHandler(handler)
        for h in redact._handlers():
            if redactor in h.filters:
                h.removeFilter(redactor)
    text = out.getvalue()
    assert "dwarves" not in text
    assert "Traceback" in text and "ValueError" in text and "refused" in text
    assert "nothing secret here: 3 kernels" in text


# ====================================================================== sessions


def test_the_session_file_is_private_and_keeps_its_secrets(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    first = SessionFile(folder)
    cookie, teacher = first.cookie_secret(), first.teacher_secret()
    assert len(cookie) == 32 and len(teacher) == 32 and cookie != teacher
    path = folder / FILE_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    again = SessionFile(folder)  # the server restarted
    assert (again.cookie_secret(), again.teacher_secret()) == (cookie, teacher)
    again.keep_teacher_sessions({"a" * 32: 2_000_000_000})
    assert SessionFile(folder).teacher_sessions() == {"a" * 32: 2_000_000_000}


def test_a_damaged_session_file_is_set_aside_and_replaced(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_text("{not json", encoding="utf-8")
    kept = SessionFile(tmp_path)
    secret = kept.cookie_secret()
    assert len(secret) == 32 and "set aside" in kept.problem
    assert (tmp_path / (FILE_NAME + ".damaged")).read_text() == "{not json"
    assert SessionFile(tmp_path).cookie_secret() == secret


def test_a_teachers_session_survives_a_restart_and_ends_with_log_out(tmp_path: Path) -> None:
    from nidavellir.classroom.teacher.auth import TeacherAuth

    now = [1_800_000_000.0]
    before = TeacherAuth("owl-42", clock=lambda: now[0], kept=SessionFile(tmp_path))
    cookie = before.open_session()
    other = before.open_session()
    after = TeacherAuth("owl-42", clock=lambda: now[0], kept=SessionFile(tmp_path))
    assert after.session(cookie) is not None and after.session(other) is not None
    after.close_session(cookie)  # Log out, after the restart
    again = TeacherAuth("owl-42", clock=lambda: now[0], kept=SessionFile(tmp_path))
    assert again.session(cookie) is None and again.session(other) is not None
    now[0] += 9 * 3600  # past its 8 hours
    assert again.session(other) is None
    # A cookie signed with another class's secret opens nothing.
    stranger = TeacherAuth("owl-42", clock=lambda: now[0]).open_session()
    assert again.session(stranger) is None


# ====================================================================== wrong passwords


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _fail(throttle: Throttle, clock: Clock, client: str) -> None:
    assert throttle.begin(client), client
    throttle.end(client, False)
    if not throttle.locked(client):
        clock.now += throttle.wait(client)


def test_a_guessing_student_locks_out_their_browser_not_the_class_behind_the_school_address(
        ) -> None:
    clock = Clock()
    throttle = Throttle(failures=3, lockout=300, clock=clock, address_failures=8)
    school = "10.0.0.1"
    guesser, classmate = f"{school} {'a' * 32}", f"{school} {'b' * 32}"
    for _ in range(3):
        _fail(throttle, clock, guesser)
    assert throttle.locked(guesser) and throttle.wait(guesser) > 200
    assert "Ask your teacher" in throttle.message(guesser)
    # The classmate at the same address, another browser: in at once.
    assert throttle.wait(classmate) == 0 and throttle.begin(classmate)
    throttle.end(classmate, True)
    # A browser sending a new id with each guess: the address's ceiling stops it.
    for i in range(5):
        _fail(throttle, clock, f"{school} {str(i) * 32}")
    late = f"{school} {'c' * 32}"
    assert throttle.locked(late) and not throttle.begin(late)
    assert "this network" in throttle.message(late)
    assert throttle.wait("10.0.0.2") == 0  # another school
    clock.now += 301  # the ceiling counts the last lockout's minutes only
    assert throttle.wait(late) == 0


def test_the_teachers_lockout_does_not_send_the_teacher_to_their_teacher() -> None:
    clock = Clock()
    throttle = Throttle(failures=2, lockout=300, clock=clock, teacher=True)
    for _ in range(2):
        _fail(throttle, clock, "10.0.0.9")
    message = throttle.message("10.0.0.9")
    assert "Too many wrong passwords" in message and "restart of the server" in message
    assert "Ask your teacher" not in message


# ====================================================================== words


def test_the_page_guards_words_are_in_every_language_and_whole() -> None:
    from nidavellir.classroom.server.words import guard_words_everywhere

    everywhere = guard_words_everywhere()
    assert set(everywhere) == {*i18n.LANGUAGES, i18n.PSEUDO}
    keys = set(everywhere["en"])
    for code, words in everywhere.items():
        assert set(words) == keys, code
    for key, english in everywhere["en"].items():
        if isinstance(english, str) and english:
            for code in ("de", "fr"):
                assert everywhere[code][key] != english, (code, key)
    assert everywhere["de"]["lost_stopped"].startswith("Diese Seite")
    assert everywhere["fr"]["one_includes_zero"] is True


def test_a_computer_with_too_many_dashboards_gets_a_page_in_its_language_that_retries(
        ) -> None:
    from nidavellir.classroom.server.words import REFUSED_RETRY_S, too_many_pages

    with i18n.using("de"):
        page = too_many_pages(12)
    assert "lang='de'" in page and "Zu viele Dashboards" in page and "12" in page
    assert f"http-equiv='refresh' content='{REFUSED_RETRY_S}'" in page


def test_the_teacher_page_names_runs_and_questions_in_the_readers_language(
        tmp_path: Path) -> None:
    """A German page answered ("Zählen: ..."), a French teacher reads French titles; the
    run the database named by itself is "Séance 1", with no date before it started."""
    from nidavellir.classroom.teacher.data import class_data, titles

    store = ClassStore(tmp_path)
    with i18n.using("fr"):
        empty = class_data(store)
    assert [r["name"] for r in empty["runs"]] == ["Séance 1"]
    assert empty["runs"][0]["started"] is None
    with i18n.using("de"):
        german = titles()["counting/hunter-in-a-tavern"]
    with i18n.using("fr"):
        french = titles()["counting/hunter-in-a-tavern"]
    assert german != french
    store.join("s1", "Ada")
    store.record(Answer(student="s1", name="Ada", question="counting/hunter-in-a-tavern",
                        title=german, kind="probability", answer=0.4, exact=0.43,
                        exact_text="22/51", uid="u1", at=time.time(), step=1),
                 Answer(student="s1", name="Ada", question="lab/hunter", title="Freies Labor: "
                        "hunter", kind="probability", answer=0.4, exact=0.43,
                        exact_text="22/51", uid="u2", at=time.time()))
    with i18n.using("fr"):
        data = class_data(store)
    shown = {q["question"]: q["title"] for q in data["questions"]}
    assert shown == {"counting/hunter-in-a-tavern": french, "lab/hunter": "Labo libre\u00a0: hunter"}
    assert data["runs"][0]["name"] == "Séance 1" and data["runs"][0]["answers_text"] == \
        "2 réponses"


def test_a_restored_position_page_shows_its_move_in_its_control(tmp_path: Path) -> None:
    """A new kernel restores the move the page kept ("Your move: bid 14 2 0"): the bid's
    coin slots show those coins, not the hand's first ones."""
    from test_class_link import Page

    from nidavellir.lessons import load
    from nidavellir.lessons.position import PositionStep
    from widgets.classroom import ClassLink
    from widgets.controls import BidControl
    from widgets.position_question import position_app

    root = Path(__file__).resolve().parent.parent
    lesson = load(root / "examples" / "lessons" / "what_would_you_play.yaml")
    step = lesson.steps[0]
    assert isinstance(step, PositionStep)
    store = ClassStore(tmp_path)
    page = Page()
    first = ClassLink(store)
    page.connect(first)
    first.send_move(lesson.key, 1, step, "bid 14 2 0")
    link = ClassLink(store)  # a new kernel
    page.connect(link)
    app = position_app(lesson.key, 1, step, link)
    assert "<code>bid 14 2 0</code>" in app.said.value
    control = app.control
    assert isinstance(control, BidControl)
    assert [None if i is None else control.hand[i] for i in control.chosen] == ["14", "2", "0"]
