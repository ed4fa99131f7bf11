"""Issue 45 item 7, the teacher page's action: ask the class about any position.

The teacher uploads or pastes a game record (the JSON the lab saves), picks a decision
and the seat whose view the class sees, writes the question, and asks: the position is
kept in the run in progress (schema 5), every student's page shows it in place of the
lesson, an answer to it is taken whatever the pace (not while paused, not once the teacher
ended the question), and the teacher page sets the class's moves beside the coach's. Bad
input gets one sentence and a 4xx, never a traceback, and changes nothing."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from pathlib import Path

import pytest
from test_class_view import _open, _teacher_session
from test_class_view import teacher_server as teacher_server  # the fixture

from nidavellir.classroom.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    Answer,
    ClassStore,
    asked_question,
    move_answer,
)
from nidavellir.classroom.teacher.ask import ask_position, read_record
from nidavellir.classroom.teacher.coach import PositionCoach
from nidavellir.classroom.teacher.data import class_data
from nidavellir.lessons.position import PositionStep, asked_position_step, asked_step

ROOT = Path(__file__).resolve().parent.parent
RECORD_TEXT = (ROOT / "examples" / "lessons" / "records" / "greedy_seed7.json").read_text(
    encoding="utf-8")
RECORD = json.loads(RECORD_TEXT)


def _form(**values: str):  # type: ignore[no-untyped-def]
    return lambda name: values.get(name, "")


def _ask(store: ClassStore, decision: int = 44, **more: str) -> int:
    state = ask_position(store, _form(record=RECORD_TEXT, decision=str(decision), **more))
    assert state.asked is not None
    return state.asked


def _step(store: ClassStore, position: int) -> PositionStep:
    found = store.position(position)
    assert found is not None
    return asked_position_step(found)


def _move(step: PositionStep, move: str, student: str = "s1", uid: str = "u1",
          at: float | None = None) -> Answer:
    return move_answer(step, "asked", 1, student, move, name=student.upper(), uid=uid,
                       at=time.time() if at is None else at)


# ====================================================================== reading a record

def test_a_record_is_read_into_its_decisions_with_who_decides_what() -> None:
    found = read_record(RECORD_TEXT)
    assert found["names"] == ["Ada", "Bo", "Cai"]
    d = found["decisions"][43]
    assert (d["decision"], d["seat"], d["label"], d["question"]) == (
        44, 2, "44: Cai bids", "What do you bid?")
    assert found["decisions"][44]["label"] == "45: Cai takes a card"
    assert found["decisions"][44]["question"] == "Which card do you take?"
    assert len(found["decisions"]) == len(RECORD["actions"])  # the game is over


@pytest.mark.parametrize(("text", "says"), [
    ("", "Upload a game record"),
    ("{not json", "it is not JSON"),
    ("[1, 2]", "a game record is a JSON object"),
    ('{"format": "chess"}', "not a nidavellir-record file"),
    ("[" * 100_000, "nested too deeply"),
    (json.dumps({**RECORD, "actions": ["bid 4 5 0", "bid 99 5 0"]}),
     "action 2 ('bid 99 5 0') cannot be played"),
    (json.dumps({**RECORD, "actions": "bid 4 5 0"}), "'actions' must be a list"),
])
def test_a_malformed_record_gets_one_sentence(text: str, says: str) -> None:
    with pytest.raises(ValueError, match=re.escape(says)) as caught:
        read_record(text)
    assert "\n" not in str(caught.value) and "Traceback" not in str(caught.value)


def test_the_decision_and_the_seat_are_checked_as_a_lessons_are() -> None:
    def ask(decision: object, seat: object = None) -> PositionStep:
        return asked_step(RECORD, decision, seat, key="k", title="t", situation="",
                          question="What do you bid?")

    assert ask(44).seat == 2 and ask(44, "Cai").seat == 2 and ask(44, 2).seat == 2
    with pytest.raises(ValueError, match=r"1 to 112, not 113"):
        ask(113)
    with pytest.raises(ValueError, match=r"1 to 112, not 0"):
        ask(0)
    with pytest.raises(ValueError, match=r"Ada \(seat 0\) does not decide at decision 44: "
                                         r"Cai \(seat 2\) does"):
        ask(44, 0)
    with pytest.raises(ValueError, match=r"a seat from 0 to 2 or a player's name"):
        ask(44, "Zed")


# ====================================================================== the store's rules

def test_an_asked_position_is_kept_asked_and_answered_whatever_the_pace(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    store.lock("counting", 2)  # the class is on a lesson: the asked position goes first
    n = _ask(store, question="Your bid, Cai?")
    state = store.state()
    assert state.asked == n and state.projected == asked_question(n) == f"asked/p{n}"
    assert (state.lesson, state.lock) == ("counting", 2)  # the lesson's pace is kept
    (p,) = store.positions(state.run)
    assert (p.decision, p.seat, p.question, p.title) == (44, 2, "Your bid, Cai?", "44: Cai bids")
    assert p.record == RECORD and "**Cai**" in p.situation and "age 1, round 4" in p.situation
    step = _step(store, n)
    assert step.view() == asked_step(RECORD, 44, None, key="x", title="", situation="",
                                     question="q").view()  # Cai's view only
    assert store.record(_move(step, "bid 14 2 0")).stored == ["u1"]
    # Paused: refused like any answer.
    store.pause()
    assert "paused" in store.record(_move(step, "bid 7 5 2", "s2", "u2")).refused["u2"]
    store.resume()
    # Another position asked: an answer to the first is refused, to the second taken.
    m = _ask(store, 45)
    second = _step(store, m)
    assert "no longer asks" in store.record(_move(step, "bid 7 5 2", "s2", "u3")).refused["u3"]
    assert store.record(_move(second, second.legal_moves()[0], "s2", "u4")).stored == ["u4"]
    # Asked again: the first one's answers so far stay, new ones are taken.
    store.ask_again(n)
    assert store.record(_move(step, "bid 7 5 2", "s2", "u5")).stored == ["u5"]
    # Ended: the class goes back to its lesson; the position and its answers stay.
    state = store.end_ask()
    assert state.asked is None and state.projected is None and state.lock == 2
    assert "no longer asks" in store.record(_move(step, "bid 2 5 0", "s3", "u6")).refused["u6"]
    assert [a.question for a in store.answers()] == [f"asked/p{n}", f"asked/p{m}",
                                                      f"asked/p{n}"]


def test_an_answer_made_while_asked_is_stored_when_sent_later(tmp_path: Path) -> None:
    """Judged by the state when it was made, as any answer (a page that kept it while
    its kernel was replaced)."""
    store = ClassStore(tmp_path)
    n = _ask(store)
    made = _move(_step(store, n), "bid 14 2 0", at=time.time())
    time.sleep(0.01)
    store.end_ask()
    assert store.record(made).stored == ["u1"]


def test_a_reopened_run_still_has_its_positions_and_a_deleted_one_loses_them(
        tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    n = _ask(store)
    store.record(_move(_step(store, n), "bid 14 2 0"))
    state = store.new_run("3b, Tuesday")
    assert state.asked is None and store.positions(state.run) == []
    with pytest.raises(ValueError, match="no position 1 asked in the run in progress"):
        store.ask_again(n)
    store.reopen(1)
    assert [p.id for p in store.positions(1)] == [n]
    data = class_data(store, coach=PositionCoach())
    assert [p["question_id"] for p in data["positions"]] == [f"asked/p{n}"]
    (q,) = data["questions"]
    assert q["kind"] == "move" and q["answered"] == 1 and q["title"] == "44: Cai bids"
    assert "error" not in q["coach"]  # the server knows the position (pending or judged)
    assert store.ask_again(n).asked == n
    store.new_run("3b, Wednesday")
    store.delete_run(1)
    assert store.positions() == [] and store.position(n) is None


def test_what_is_stored_is_checked(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    for record, decision, seat, question, says in (
            ([1], 1, 0, "q", "a game record is a JSON object"),
            ({"x": float("nan")}, 1, 0, "q", "plain JSON"),
            ({"x": "y" * 1_000_001}, 1, 0, "q", "at most 1000000 characters"),
            (RECORD, True, 0, "q", "a decision is a whole number"),
            (RECORD, 44, -1, "q", "a seat is a whole number"),
            (RECORD, 44, 2, "  ", "must not be empty"),
            (RECORD, 44, 2, "q" * 201, "at most 200 characters")):
        with pytest.raises(ValueError, match=says):
            store.ask(record, decision, seat, question, "t")  # type: ignore[arg-type]
    assert store.positions() == [] and store.state().asked is None


def test_a_database_of_schema_4_gains_the_asked_positions_and_keeps_its_answers(
        tmp_path: Path) -> None:
    from test_class_store import SCHEMA_1

    path = tmp_path / "answers.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA_1)
        for step in MIGRATIONS[:3]:
            db.executescript(step)
        db.execute("UPDATE meta SET value = '4' WHERE key = 'schema'")
        db.execute("INSERT INTO answers (at, student, name, question, title, kind, answer, "
                   "uid, run, step, move) VALUES (5.0, 's1', 'Ada', 'lesson/pos', 'P', "
                   "'move', 0, 'u1', 1, 1, 'bid 14 2 0')")
        db.execute("INSERT INTO controls (at, state) VALUES (6.0, '{\"run\": 1, "
                   "\"paused\": true}')")
    db.close()
    assert SCHEMA_VERSION >= 5  # schema 4 migrates through 5 (asked positions) and on
    store = ClassStore(tmp_path)
    (old,) = store.answers()
    assert (old.uid, old.move) == ("u1", "bid 14 2 0")
    state = store.state()
    assert state.paused and state.asked is None  # a state written before: nothing asked
    assert store.positions() == []
    store.resume()
    n = _ask(store)
    assert store.record(_move(_step(store, n), "bid 7 5 2", "s2", "u2")).stored == ["u2"]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (str(SCHEMA_VERSION),)
    db.close()


# ====================================================================== the handlers

def test_the_teacher_asks_from_the_page_and_bad_input_gets_one_sentence(
        teacher_server: dict) -> None:
    url, store = teacher_server["url"], teacher_server["store"]
    opener, token = _teacher_session(url)

    def post(path: str, **form: str) -> tuple[int, dict]:
        status, body = _open(opener, url + path, {"token": token, **form})
        return status, json.loads(body)

    status, found = post("api/record", record=RECORD_TEXT)
    assert status == 200 and found["decisions"][43]["label"] == "44: Cai bids"
    assert found["names"] == ["Ada", "Bo", "Cai"]
    for form, says in (
            ({"record": "{oops"}, "This is not a game record: it is not JSON"),
            ({"record": "[]"}, "A game record is a JSON object"),
            ({"record": json.dumps({**RECORD, "version": 9})}, "The record cannot be "
                                                               "replayed: field 'version'")):
        status, body = post("api/record", **form)
        assert (status, list(body)) == (400, ["error"]) and says in body["error"], form
        assert body["error"].endswith(".") and "Traceback" not in body["error"]
    # Without the session's token: nothing is read.
    assert _open(opener, url + "api/record", {"token": "x", "record": RECORD_TEXT})[0] == 403
    version = store.state().version
    for form, says in (
            ({"record": "{oops", "decision": "44"}, "it is not JSON"),
            ({"record": RECORD_TEXT, "decision": "200"}, "The record has decisions 1 to 112, "
                                                         "not 200"),
            ({"record": RECORD_TEXT, "decision": "forty"}, "A decision is a whole number"),
            ({"record": RECORD_TEXT, "decision": "44", "seat": "1"},
             "Bo (seat 1) does not decide at decision 44: Cai (seat 2) does"),
            ({"record": RECORD_TEXT, "decision": "44", "seat": "7"},
             "The seat must be a seat from 0 to 2"),
            ({"record": json.dumps({**RECORD, "actions": ["take E8"]}), "decision": "1"},
             "The record cannot be replayed: action 1 ('take E8') cannot be played")):
        status, body = post("control", action="ask", **form)
        assert (status, list(body)) == (400, ["error"]) and says in body["error"], form
    assert store.state().version == version and store.positions() == []
    status, done = post("control", action="ask", record=RECORD_TEXT, decision="44", seat="",
                        question="")
    assert status == 200 and done["state"]["asked"] == 1
    (p,) = store.positions()
    assert (p.decision, p.seat, p.question) == (44, 2, "What do you bid?")
    data = json.loads(_open(opener, url + "api/answers")[1])
    assert data["positions"][0]["title"] == "44: Cai bids" and data["state"]["asked"] == 1
    projector = json.loads(_open(opener, url + "api/projector")[1])["question"]
    assert (projector["question"], projector["kind"], projector["title"]) == (
        "asked/p1", "move", "44: Cai bids")
    assert post("control", action="ask-again", position="9")[0] == 400
    assert post("control", action="end-ask")[1]["state"]["asked"] is None


# ====================================================================== the student's page

def test_the_students_page_shows_the_asked_position_in_place_of_the_lesson(
        tmp_path: Path) -> None:
    from widgets.classroom import ClassLink
    from widgets.position_question import PositionQuestionApp
    from widgets.probability_lessons import ProbabilityLessonsTab

    store = ClassStore(tmp_path)
    link = ClassLink(store, student="s1")
    link.name.value = "Ada"
    tab = ProbabilityLessonsTab(link=link)
    n = _ask(store)
    order: list[str] = []
    for name, part in (("chooser", tab.chooser), ("asked", link.asked_box)):
        part.layout.observe(lambda c, name=name: order.append(f"{name} {c['new'] or 'shown'}"),
                            "display")
    link.check_state()
    # In this order (the page applies them so): the lesson's chooser goes, then the asked
    # position comes; never both on the page at once.
    assert order == ["chooser none", "asked shown"]
    view = link.asked_view
    assert isinstance(view, PositionQuestionApp) and view.question_id == f"asked/p{n}"
    assert link.asked_box.layout.display == "" and view in link.asked_box.children
    assert all(part.layout.display == "none" for part in (tab.chooser, tab.body))
    assert "asks the class about a position" in link.teacher.value
    assert "44: Cai bids" in link.asked_box.children[0].value
    assert view.choose_move("bid 14 2 0") and "It went to your teacher" in view.said.value
    assert [(a.question, a.move, a.step) for a in store.answers()] == [
        (f"asked/p{n}", "bid 14 2 0", 1)]
    # Paused: the decision's controls are disabled, then given back.
    store.pause()
    link.check_state()
    buttons = [w for w in _widgets(view.control.widget) if hasattr(w, "disabled")]
    assert buttons and all(w.disabled for w in buttons)
    store.resume()
    link.check_state()
    assert any(not w.disabled for w in buttons)
    # Ended: the lesson comes back.
    order.clear()
    store.end_ask()
    link.check_state()
    assert order == ["asked none", "chooser shown"]
    assert link.asked_view is None and link.asked_box.layout.display == "none"
    assert all(part.layout.display == "" for part in (tab.chooser, tab.body))
    assert "asks the class" not in link.teacher.value
    # Asked again: the same position, the student's move still on it (from the link).
    store.ask_again(n)
    link.check_state()
    assert link.asked_view is not None and link.asked_view.chosen == "bid 14 2 0"


def _widgets(widget):  # type: ignore[no-untyped-def]
    out = [widget]
    for child in getattr(widget, "children", ()):
        out.extend(_widgets(child))
    return out


# ====================================================================== the class's language

def test_a_class_server_fixes_its_teacher_pages_language(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``--class-language``: the teacher pages in it whatever their address or browser
    asks; the students' pages' default too. Without it, each page's own language."""
    import os
    from unittest import mock

    from nidavellir import i18n
    from nidavellir.classroom import CLASS_LANGUAGE_ENV, command, page_language

    monkeypatch.delenv(CLASS_LANGUAGE_ENV, raising=False)
    monkeypatch.setenv(i18n.LANGUAGE_ENV, "en")
    assert page_language("", "fr-CH, de;q=0.5") == "fr"
    assert page_language("de", "fr") == "de" and page_language("klingon", "") == "en"
    with mock.patch.dict(os.environ), mock.patch.object(os, "execv") as execv:
        os.environ.pop(i18n.LANGUAGE_ENV, None)
        command.main(["notebooks", "--class-language", "de"])
        assert os.environ[CLASS_LANGUAGE_ENV] == "de" and os.environ[i18n.LANGUAGE_ENV] == "de"
        assert page_language("fr", "fr") == "de"
    execv.assert_called_once()
    with mock.patch.dict(os.environ), mock.patch.object(os, "execv") as execv, \
            pytest.raises(SystemExit):
        command.main(["notebooks", "--class-language", "klingon"])
    assert "--class-language klingon: the lab speaks en, de, fr" in capsys.readouterr().err
    execv.assert_not_called()


def test_the_teacher_pages_words_come_in_the_pages_language(teacher_server: dict) -> None:
    url, store = teacher_server["url"], teacher_server["store"]
    opener, token = _teacher_session(url)
    status, page = _open(opener, url + "?lang=fr")
    assert status == 200 and "<h1>Vue de la classe</h1>" in page and 'lang="fr"' in page
    assert '"ask_go": "Interroger la classe"' in page
    status, body = _open(opener, url + "api/record?lang=de", {"token": token, "record": "[]"})
    assert status == 400 and json.loads(body)["error"].startswith(
        "Eine Partieaufzeichnung ist ein JSON-Objekt")
    store.record(Answer(student="s1", question="lab/x", answer=0.5, title="x"))
    data = json.loads(_open(opener, url + "api/answers?lang=fr")[1])
    assert data["questions"][0]["answered_text"] == "1 sur 1 a répondu"
    assert data["status"].startswith("0 élève dans la classe") or "élève" in data["status"]
    assert json.loads(_open(opener, url + "api/answers?lang=de")[1])["status"].endswith(
        "aktualisiert {time}")


def test_a_stored_position_that_no_longer_replays_is_said_on_the_page(tmp_path: Path) -> None:
    """A damaged row (edited by hand): the student's page says so in one sentence."""
    from widgets.classroom import ClassLink

    store = ClassStore(tmp_path)
    link = ClassLink(store, student="s1")
    n = _ask(store)
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE positions SET record = ? WHERE id = ?",
                   (json.dumps({**RECORD, "actions": ["bid 99 9 9"]}), n))
    db.close()
    link.check_state()
    assert link.asked_view is None and link.asked_box.layout.display == ""
    said = link.asked_box.children[1].value
    assert "This position cannot be shown:" in said and "Traceback" not in said


@pytest.mark.parametrize("lang, you, says", [
    ("en", "You", "You bid"), ("de", "Du", "Du gibst Gebote ab"), ("fr", "Vous", "Vous misez")])
def test_a_position_of_the_learner_s_own_seat_is_titled_in_the_second_person(
        lang: str, you: str, says: str) -> None:
    """A record whose seat is named You («Du», «Vous»): "44: You bid", not "You bids"."""
    from nidavellir.classroom.teacher.ask import decision_words
    from nidavellir.i18n import using

    with using(lang):
        assert decision_words("bid", you)[0] == says
        assert decision_words("bid", "Cai")[0].startswith("Cai ")
