"""Issue 42, the class's store: answers stored once whatever is sent again, a schema that
moves forward (an earlier class's file still opens), a file only its owner reads, exports
a spreadsheet cannot run, answers within their bounds, one way of counting students, and
errors that show students no server path."""

from __future__ import annotations

import csv
import io
import sqlite3
import stat
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from nidavellir.classroom.store import (
    CSV_COLUMNS_V1,
    FORMULA_START,
    MIGRATIONS,
    NAME_MAX,
    PRESENT_S,
    REVEAL_AFTER,
    REVEAL_TEACHER,
    SCHEMA_VERSION,
    Answer,
    ClassState,
    ClassStore,
    StoreError,
    Student,
    answers_csv,
    answers_from_csv,
    bins,
    clean_name,
    present,
    summarize,
)

#: The schema the lab's first class view wrote (issue 27), word for word.
SCHEMA_1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta (key, value) VALUES ('schema', '1');
CREATE TABLE students (
    student TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', joined REAL NOT NULL,
    seen REAL NOT NULL);
CREATE TABLE answers (
    id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, student TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '', question TEXT NOT NULL, title TEXT NOT NULL DEFAULT '',
    kind TEXT NOT NULL, answer REAL NOT NULL, exact REAL, exact_text TEXT NOT NULL DEFAULT '');
CREATE INDEX answers_by_question ON answers (question, id);
"""


def _answer(student: str = "s1", question: str = "counting/hunter", value: float = 0.5,
            name: str = "", uid: str | None = None, kind: str = "probability",
            at: float = 1000.0, exact: float = 22 / 51, **more: Any) -> Answer:
    return Answer(student=student, name=name, question=question, answer=value, kind=kind,
                  title="1. Counting: A hunter", exact=exact, exact_text="22/51", uid=uid,
                  at=at, **more)


# ====================================================================== stored once

def test_an_answer_sent_again_is_stored_once(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    first = store.record(_answer(uid="page-1"), _answer(uid="page-2", value=0.3))
    assert first.stored == ["page-1", "page-2"] and not first.already
    again = store.record(_answer(uid="page-2", value=0.3), _answer(uid="page-3", value=0.9))
    assert again.stored == ["page-3"] and again.already == ["page-2"]
    assert [a.uid for a in store.answers()] == ["page-1", "page-2", "page-3"]
    # Answers without a page id (a kernel alone, no page) are each stored.
    store.record(_answer(), _answer())
    assert store.count() == 5


def test_an_answer_kept_from_before_an_earlier_labs_clear_is_not_stored(
        tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    generation = store.join("s1", "Ada")
    assert generation == 0
    store.record(_answer(uid="a", generation=generation))
    with sqlite3.connect(store.path) as db:  # a Clear of the lab before lesson runs
        db.execute("UPDATE meta SET value = '1' WHERE key = 'generation'")
    db.close()
    assert store.generation() == 1
    done = store.record(_answer(uid="b", generation=generation),  # kept on a page: old
                        _answer(uid="c", generation=1), _answer(uid="d"))
    assert done.dropped == ["b"] and done.stored == ["c", "d"]
    assert [a.uid for a in store.answers()] == ["a", "c", "d"]


# ====================================================================== the teacher leads

def _now_answer(question: str = "counting/b", step: int | None = 2, uid: str | None = None,
                **more: Any) -> Answer:
    return _answer(question=question, step=step, uid=uid or uuid.uuid4().hex,
                   at=time.time(), **more)


def test_a_lock_refuses_every_answer_beyond_its_step_and_release_frees_them(
        tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    state = store.lock("counting", 2)
    assert (state.lesson, state.lock, state.limit("counting"), state.limit("other")) == (
        "counting", 2, 2, 0)
    tries = {"back": _now_answer("counting/a", 1), "here": _now_answer("counting/b", 2),
             "beyond": _now_answer("counting/c", 3),
             "other lesson": _now_answer("dice/a", 1),
             "free lab": _now_answer("lab/tavern", None),
             "no step": _now_answer("counting/b", None)}
    done = store.record(*tries.values())
    assert done.stored == [tries["back"].uid, tries["here"].uid]
    why = {name: done.refused.get(a.uid, "") for name, a in tries.items()}
    assert "locked at step 2" in why["beyond"] and "step 3 waits" in why["beyond"]
    assert "is on step 2 of the lesson 'counting'" in why["other lesson"]
    assert "waits for the teacher" in why["free lab"]
    assert "must say the step's number" in why["no step"]
    assert [a.question for a in store.answers()] == ["counting/a", "counting/b"]
    store.release()
    assert store.record(_now_answer("counting/c", 3)).refused == {}
    assert store.state().lock is None and store.state().limit("counting") is None


def test_a_pause_refuses_every_answer_until_the_class_resumes(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    assert store.pause().paused
    done = store.record(_now_answer("counting/a", 1), _now_answer("lab/tavern", None))
    assert not done.stored and len(done.refused) == 2
    assert all("paused" in why for why in done.refused.values())
    assert not store.resume().paused
    assert len(store.record(_now_answer("counting/a", 1)).stored) == 1


def test_the_rules_are_those_in_force_when_the_answer_was_made(tmp_path: Path) -> None:
    """An answer a page kept (its kernel died) and sends later is judged by the state of
    the moment it was made: one made while free is stored after a lock, one made while
    paused is not stored after the resume."""
    store = ClassStore(tmp_path)
    before = _now_answer("counting/c", 3)
    time.sleep(0.01)
    store.lock("counting", 1)
    assert store.record(before).stored == [before.uid]
    store.pause()
    time.sleep(0.01)
    during = _now_answer("counting/a", 1)
    time.sleep(0.01)
    store.resume()
    assert during.uid in store.record(during).refused


def test_the_state_changes_have_increasing_versions_and_bad_controls_are_refused(
        tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    assert store.state() == ClassState()  # no database yet: free, running, run 1
    versions = [store.lock("counting", 3).version, store.pause().version,
                store.set_reveal("counting/c", REVEAL_TEACHER).version,
                store.reveal("counting/c").version, store.resume().version]
    assert versions == sorted(set(versions)) and store.state().version == versions[-1]
    for bad, message in (((lambda: store.lock("counting", 0)), "from 1 to"),
                         ((lambda: store.lock("counting", True)), "whole number"),  # type: ignore[arg-type]
                         ((lambda: store.lock("no/slash", 1)), "lesson's key"),
                         ((lambda: store.set_reveal("counting/c", "later")), "reveal mode"),
                         ((lambda: store.reveal("")), "question"),
                         ((lambda: store.new_run("  ")), "needs a name"),
                         ((lambda: store.new_run("x" * 61)), "at most 60"),
                         ((lambda: store.reopen(99)), "no lesson run 99"),
                         ((lambda: store.export_csv(run=99)), "no lesson run 99")):
        with pytest.raises(ValueError, match=message):
            bad()
    assert store.state().version == versions[-1]  # nothing refused was written


def test_reveal_is_per_question_and_teacher_led_questions_wait_for_it(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    state = store.set_reveal("counting/c", REVEAL_TEACHER)
    assert not state.shows_answer("counting/c") and state.shows_answer("counting/b")
    assert state.reveal_mode("counting/c") == REVEAL_TEACHER
    assert store.reveal("counting/c").shows_answer("counting/c")
    assert not store.reveal("counting/c", shown=False).shows_answer("counting/c")
    assert store.set_reveal("counting/c", REVEAL_AFTER).shows_answer("counting/c")


def test_lesson_runs_keep_their_answers_apart_and_a_runs_export_holds_exactly_them(
        tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    store.record(_now_answer(uid="one-1"), _now_answer(uid="one-2"))
    store.set_reveal("counting/b", REVEAL_TEACHER)
    store.reveal("counting/b")
    second = store.new_run("3b, Tuesday")
    assert second.run == 2 and second.revealed == () and second.teacher_led == ("counting/b",)
    store.record(_now_answer(uid="two-1"))
    assert [(r.id, r.name, r.answers) for r in store.runs()] == [
        (1, "Run 1", 2), (2, "3b, Tuesday", 1)]
    assert [q["answered"] for q in store.summary()] == [1]  # the run in progress
    for run, uids in ((1, ["one-1", "one-2"]), (2, ["two-1"])):
        exported = answers_from_csv(store.export_csv(run=run))
        assert [a.uid for a in exported] == uids and exported == store.answers(run=run)
        assert {row["run_name"] for row in csv.DictReader(io.StringIO(
            store.export_csv(run=run)))} == {"Run 1" if run == 1 else "3b, Tuesday"}
    assert answers_from_csv(store.export_csv()) == store.answers()
    # Reopened: the answers from now on go to it, with what it had revealed.
    reopened = store.reopen(1)
    assert reopened.run == 1 and reopened.revealed == ("counting/b",)
    store.record(_now_answer(uid="one-3"))
    assert [a.uid for a in store.answers(run=1)] == ["one-1", "one-2", "one-3"]
    assert store.rename_run(2, "3b, Tuesday 14 May").name == "3b, Tuesday 14 May"
    # Deleted only explicitly, never the run in progress, and exactly its answers.
    with pytest.raises(ValueError, match="in progress"):
        store.delete_run(1)
    assert store.delete_run(2) == 1
    assert [a.uid for a in store.answers()] == ["one-1", "one-2", "one-3"]
    assert [r.id for r in store.runs()] == [1]


def test_a_database_of_schema_2_keeps_its_answers_as_the_first_run(tmp_path: Path) -> None:
    path = tmp_path / "answers.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA_1)
        db.executescript(MIGRATIONS[0])
        db.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")
        db.execute("INSERT INTO answers (at, student, name, question, title, kind, answer, "
                   "uid) VALUES (5.0, 's1', 'Ada', 'counting/b', 'B', 'probability', 0.4, "
                   "'u1')")
    db.close()
    store = ClassStore(tmp_path)
    (old,) = store.answers()
    assert (old.uid, old.run, old.step) == ("u1", 1, None)
    assert [(r.id, r.name, r.started, r.answers) for r in store.runs()] == [
        (1, "Run 1", 5.0, 1)]
    assert store.state().run == 1 and store.state().lock is None


# ====================================================================== the schema

def test_a_database_of_the_first_schema_opens_and_moves_forward(tmp_path: Path) -> None:
    path = tmp_path / "answers.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA_1)
        db.execute("INSERT INTO students VALUES ('s1', 'Ada', 1.0, 2.0)")
        db.execute("INSERT INTO answers (at, student, name, question, title, kind, answer, "
                   "exact, exact_text) VALUES (5.0, 's1', 'Ada', 'counting/hunter', 'A hunter',"
                   " 'probability', 0.4, 0.43, '22/51')")
    db.close()
    store = ClassStore(tmp_path)
    (old,) = store.answers()  # a read brings the file up to date
    assert (old.name, old.answer, old.uid, old.id) == ("Ada", 0.4, None, 1)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (
            str(SCHEMA_VERSION),)
    db.close()
    store.record(_answer(uid="new"), _answer(uid="new"))
    assert [a.uid for a in store.answers()] == [None, "new"]
    assert [s.name for s in store.students()] == ["Ada"]


def test_a_database_of_a_newer_lab_is_left_as_it_is(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    store.record(_answer())
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    db.close()
    before = store.path.read_bytes()
    with pytest.raises(StoreError, match="newer version of the lab") as info:
        store.record(_answer())
    assert str(store.path) not in info.value.public
    assert store.path.read_bytes() == before


def test_the_database_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    store = ClassStore(folder)
    store.record(_answer())
    reader = sqlite3.connect(store.path)  # the -wal and -shm files live while it is open
    try:
        reader.execute("SELECT COUNT(*) FROM answers").fetchone()
        store.record(_answer())
        for path in (store.path, store.path.with_name("answers.sqlite-wal"),
                     store.path.with_name("answers.sqlite-shm")):
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    finally:
        reader.close()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    # A file an earlier lab made readable by everyone is made private when next written.
    store.path.chmod(0o644)
    store.record(_answer())
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600


def test_errors_name_the_path_for_the_server_and_not_for_students(tmp_path: Path) -> None:
    (tmp_path / "answers.sqlite").write_bytes(b"SQLite format 3\x00" + b"\xde\xad" * 600)
    store = ClassStore(tmp_path, timeout=0.2)
    with pytest.raises(StoreError) as info:
        store.record(_answer())
    assert str(tmp_path) in str(info.value) and "damaged" in str(info.value)
    assert str(tmp_path) not in info.value.public and "damaged" in info.value.public
    holder = ClassStore(tmp_path / "ok", timeout=0.2)
    holder.record(_answer())
    lock = sqlite3.connect(holder.path, isolation_level=None)
    lock.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError) as info:
            holder.record(_answer())
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    assert "locked" in info.value.public and str(tmp_path) not in info.value.public


# ====================================================================== what is stored

@pytest.mark.parametrize("change, complaint", [
    ({"value": 1.5}, "a chance is from 0 to 1"),
    ({"value": -0.01}, "a chance is from 0 to 1"),
    ({"value": float("nan")}, "must be a number"),
    ({"value": float("inf"), "kind": "mean"}, "must be a number"),
    ({"value": 1e308, "kind": "mean"}, "at most 1,000,000,000"),
    ({"value": -3.0, "kind": "count"}, "a count is 0 or more"),
    ({"kind": "guess"}, "kind is one of"),
    ({"name": "x" * (NAME_MAX + 1)}, f"a name is at most {NAME_MAX} characters"),
    ({"question": "q" * 161}, "a question is at most 160"),
    ({"student": "s 1"}, "student id"),
    ({"student": "s" * 65}, "student id"),
    ({"uid": "../../x"}, "an answer.s uid is 1 to 64"),
    ({"question": "lesson/\x00step"}, "printable"),
])
def test_an_answer_out_of_bounds_is_refused_and_not_stored(
        tmp_path: Path, change: dict, complaint: str) -> None:
    store = ClassStore(tmp_path)
    with pytest.raises(ValueError, match=complaint):
        store.record(_answer(**change))
    assert not store.path.exists() or store.count() == 0


def test_a_typed_name_is_cleaned() -> None:
    assert clean_name("  Ada \t Lovelace\n") == "Ada Lovelace"
    assert clean_name("Bo\x00b\u200b\x1b[31m") == "Bob[31m"


# ====================================================================== CSV

TEXT_COLUMNS = ("student", "name", "question", "title", "kind", "exact_text", "uid")


@pytest.mark.parametrize("start", [*FORMULA_START, "'"])
def test_csv_cells_a_spreadsheet_could_run_are_neutralised_and_read_back(
        tmp_path: Path, start: str) -> None:
    text = f'{start}HYPERLINK("http://evil","x")'
    answers = [Answer(id=7, student=text, name=text, question=text, title=text, kind=text,
                      answer=-2.5, exact=-2.0, exact_text=text, uid=text, at=5.0)]
    exported = answers_csv(answers)
    header, row = list(csv.reader(io.StringIO(exported)))
    for column in TEXT_COLUMNS:
        assert row[header.index(column)] == "'" + text, column
    assert row[header.index("answer")] == "-2.5"  # a number stays a number
    assert answers_from_csv(exported) == answers
    assert answers_csv(answers_from_csv(exported)) == exported


def test_a_class_exports_a_formula_typed_as_a_name_as_text(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    name = '=HYPERLINK("http://evil","x")'
    store.join("s1", name)
    store.record(_answer(name=name, uid="u1"), _answer(name="-2+3", uid="u2"),
                 _answer(name="@SUM(A1)", uid="u3"), _answer(name="+1", uid="u4"))
    exported = store.export_csv()
    names = [row["name"] for row in csv.DictReader(io.StringIO(exported))]
    assert names == ["'" + name, "'-2+3", "'@SUM(A1)", "'+1"]
    assert answers_from_csv(exported) == store.answers()


def test_a_csv_written_before_answers_had_ids_still_reads() -> None:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS_V1)
    writer.writerow(["1", "2024-01-01T00:00:00.000000+00:00", "1704067200.0", "s1", "'Ada",
                     "counting/hunter", "A hunter", "probability", "0.4", "", ""])
    (answer,) = answers_from_csv(out.getvalue())
    assert answer.name == "'Ada" and answer.uid is None and answer.answer == 0.4


# ====================================================================== counting students

def test_a_student_is_a_name_or_a_page_and_in_the_class_while_their_page_is(tmp_path: Path
                                                                            ) -> None:
    now = 10_000.0
    students = [Student("p1", "Ada", 1.0, now - 5), Student("p2", " ada ", 2.0, now - 10),
                Student("p3", "", 3.0, now - 20), Student("p4", "Bo", 4.0, now - PRESENT_S - 1)]
    assert present(students, now) == 2  # Ada (two pages), anonymous p3; Bo's page is gone
    answers = [_answer("p1", name="Ada", value=0.2, at=now - 50),
               _answer("p4", name="Bo", value=0.9, at=now - 400)]
    (q,) = summarize(answers, students, now)
    # Bo answered and left: counted as answered, not as missing.
    assert (q["answered"], q["students"]) == (2, 3)
    assert q["missing"] == ["anonymous (p3)"]


def test_a_renamed_student_keeps_earlier_answers_under_the_name_given(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    store.join("p1", "Ada")
    store.record(_answer("p1", "counting/one", 0.2, name="Ada", at=1.0))
    store.join("p1", "Ada L.")
    store.record(_answer("p1", "counting/two", 0.3, name="Ada L.", at=2.0))
    store.join("p2", "Bo")
    two, one = store.summary()
    assert [a["student"] for a in one["answers"]] == ["Ada"]
    assert [a["student"] for a in two["answers"]] == ["Ada L."]
    # Ada L. answered question one (as Ada): she is not missing there; Bo is.
    assert one["missing"] == ["Bo"] and two["missing"] == ["Bo"]
    assert one["answered"] == 1 and one["students"] == 2
    assert [s.name for s in store.students()] == ["Ada L.", "Bo"]


def test_the_latest_answer_of_each_student_counts_whenever_it_arrives(tmp_path: Path) -> None:
    """An answer kept on a page arrives late; the one given later still counts."""
    store = ClassStore(tmp_path)
    store.record(_answer("p1", value=0.8, at=20.0, uid="later"))
    store.record(_answer("p1", value=0.1, at=10.0, uid="kept"))  # given first, stored last
    (q,) = store.summary(now=30.0)
    assert [a["answer"] for a in q["answers"]] == [0.8]


def test_the_class_mean_and_histogram_hold_against_a_far_off_answer() -> None:
    values = [2400.0, 2500.0, 2450.0, 2600.0, 2300.0, 900_000_000.0]
    answers = [_answer(f"p{i}", value=v, kind="count", at=float(i), exact=2452.9)
               for i, v in enumerate(values)]
    (q,) = summarize(answers, [], now=100.0)
    assert q["far_off"] == 1 and q["mean"] == pytest.approx(2450.0)
    assert q["median"] == pytest.approx(2475.0)
    chart = q["bins"]
    assert chart[0]["low"] >= 2300 - 1 and chart[-1]["high"] <= 2600 + 1
    assert sum(b["count"] for b in chart) == 6
    assert chart[-1]["beyond"] == 1  # the far-off answer, in the last bin, said so
    assert sum(1 for b in chart if b["count"]) >= 3  # the others spread over the range
    assert [b["count"] for b in bins([0.05, 0.3, 0.3, 1.0], "probability", 0.4)] == [
        1, 0, 0, 2, 0, 0, 0, 0, 0, 1]


def test_the_progress_grid_has_each_students_steps_reached_and_answered(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    store.join("p1", "Ada")
    store.join("p2", "")
    store.reach("p1", "counting", 1)
    store.reach("p1", "counting", 2)
    store.reach("p1", "counting", 1)  # back again: the first time is kept
    store.reach("p2", "counting", 1)
    store.record(_now_answer("counting/b", 2, student="p1", name="Ada", value=0.5))
    store.record(_now_answer("counting/b", 2, student="p1", name="Ada", value=0.45))
    store.record(_now_answer("lab/tavern", None, student="p1", name="Ada"))  # no step
    grid = {(c["student"], c["step"]): c for c in store.progress()}
    assert sorted(grid) == [("Ada", 1), ("Ada", 2), ("anonymous (p2)", 1)]
    assert grid[("Ada", 1)]["answer"] is None and grid[("Ada", 1)]["reached"] is not None
    ada = grid[("Ada", 2)]
    assert (ada["answer"], ada["exact"], ada["lesson"]) == (0.45, 22 / 51, "counting")
    assert ada["reached"] <= ada["answered"]
    # A new run starts an empty grid; the old run keeps its own.
    store.new_run("3b, Tuesday")
    assert store.progress() == [] and len(store.progress(run=1)) == 3
    with pytest.raises(ValueError, match="from 1 to"):
        store.reach("p1", "counting", 0)


def test_pins_keep_their_order_and_only_answers_of_the_run_in_progress(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    store.record(*[_now_answer(uid=f"u{i}") for i in range(3)])
    a, b, c = (x.id for x in store.answers())
    assert a is not None and b is not None and c is not None
    store.pin(a)
    store.pin(b)
    store.pin(c)
    assert store.pin(a).pins == (b, c, a)  # pinned again: moves to the end
    assert store.move_pin(a, -2).pins == (a, b, c)
    assert store.move_pin(a, -1).pins == (a, b, c)  # already first
    assert store.unpin(b).pins == (a, c)
    with pytest.raises(ValueError, match="not pinned"):
        store.move_pin(b, 1)
    assert store.show_names(True).names and store.project("counting/b").projected
    new = store.new_run("next")
    assert new.pins == () and new.projected is None and new.names  # names: the teacher's
    with pytest.raises(ValueError, match="no answer"):
        store.pin(a)  # of another run


def test_pseudonyms_are_stable_distinct_dwarf_names_that_do_not_give_the_name_away() -> None:
    from nidavellir.classroom.store import DWARVES, pseudonym, pseudonyms

    key = b"k" * 32
    class_ = [Student(f"s{i}", f"student {i}", float(i), float(i)) for i in range(60)]
    names = pseudonyms(class_, [], key)
    assert len(set(names.values())) == 60  # distinct, even where two hashes meet
    assert all(n.split()[0] in DWARVES and "student" not in n for n in names.values())
    # A newcomer changes nobody's, whoever they are; another class's key gives others.
    more = pseudonyms([*class_, Student("new", "Zed", 99.0, 99.0)], [], key)
    assert {k: more[k] for k in names} == names
    assert pseudonyms(class_, [], b"other" * 8) != names
    first = pseudonym("name:ada", key)
    assert pseudonym("name:ada", key, {first}) not in (first, "")  # taken: the next one
