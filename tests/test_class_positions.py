"""Issue 45 item 7: a position question's answers in the class store.

A student's answer to a "What would you play here?" step is a move: checked against the
position's legal moves before it is sent (an illegal one is refused with why), stored once
whatever is sent again, under the pace and pause like any answer, summarised as the class's
distribution of moves, exported and read back; a database of the schema before (3) keeps its
answers when it gains the moves' column."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from nidavellir.classroom.store import (
    CSV_COLUMNS,
    CSV_COLUMNS_V3,
    MIGRATIONS,
    SCHEMA_VERSION,
    Answer,
    ClassStore,
    answers_from_csv,
    move_answer,
)
from nidavellir.lessons import load
from nidavellir.lessons.position import PositionStep

ROOT = Path(__file__).resolve().parent.parent
LESSON = load(ROOT / "examples" / "lessons" / "what_would_you_play.yaml")
STEP = LESSON.steps[0]
assert isinstance(STEP, PositionStep)
QUESTION = f"{LESSON.key}/{STEP.key}"


def _move(move: str, student: str = "s1", uid: str | None = None, name: str = "",
          number: int = 1, at: float | None = None) -> Answer:
    return move_answer(STEP, LESSON.key, number, student, move, name=name, uid=uid,
                       at=time.time() if at is None else at)


def test_three_students_three_moves_make_the_distribution(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    done = store.record(_move("bid 14 2 0", "s1", "u1", "Ada"),
                        _move("bid 2 14 0", "s2", "u2", "Bo"),
                        _move("bid 14 2 0", "s3", "u3", "Cy"),
                        _move("bid 14 2 0", "s3", "u3", "Cy"))  # sent again: once
    assert done.stored == ["u1", "u2", "u3"] and done.already == ["u3"]
    (q,) = store.summary()
    assert q["question"] == QUESTION and q["kind"] == "move" and q["answered"] == 3
    assert q["moves"] == [{"move": "bid 14 2 0", "count": 2}, {"move": "bid 2 14 0",
                                                                "count": 1}]
    assert q["bins"] == [] and q["mean"] is None
    assert sorted(a["move"] for a in q["answers"]) == ["bid 14 2 0", "bid 14 2 0",
                                                        "bid 2 14 0"]
    # A student who changes their mind: their latest move counts.
    store.record(_move("bid 7 5 2", "s2", "u4", "Bo"))
    (q,) = store.summary()
    assert {m["move"]: m["count"] for m in q["moves"]} == {"bid 14 2 0": 2, "bid 7 5 2": 1}
    cells = [c for c in store.progress() if c["student"] == "Bo"]
    assert [(c["step"], c["kind"], c["move"]) for c in cells] == [(1, "move", "bid 7 5 2")]


def test_an_illegal_move_is_refused_with_why_and_never_reaches_the_store() -> None:
    with pytest.raises(ValueError, match=r"'bid 2 5 9' is not a legal move of this position"):
        _move("bid 2 5 9")
    with pytest.raises(ValueError, match=r"'take E9' is not a legal move of this position"):
        _move("take E9")
    # The notation a student types is the engine's once checked.
    assert _move("  bid 14  2 0").move == "bid 14 2 0"


@pytest.mark.parametrize(("answer", "says"), [
    (Answer(student="s1", question=QUESTION, answer=0.0, kind="move", step=1),
     "is a move in notation"),
    (Answer(student="s1", question=QUESTION, answer=0.0, kind="move", step=1, move="x" * 81),
     "a move is at most 80 characters"),
    (Answer(student="s1", question=QUESTION, answer=0.0, kind="move", move="bid 14 2 0"),
     "must say its step's number"),
    (Answer(student="s1", question=QUESTION, answer=3.0, kind="move", step=1,
            move="bid 14 2 0"), "holds 0 as its number"),
    (Answer(student="s1", question="counting/a", answer=0.5, move="bid 14 2 0"),
     "only an answer to a position question is a move"),
])
def test_the_store_refuses_a_malformed_move_answer(tmp_path: Path, answer: Answer,
                                                   says: str) -> None:
    store = ClassStore(tmp_path)
    with pytest.raises(ValueError, match=says):
        store.record(answer)
    assert not store.path.exists() or store.answers() == []


def test_pause_and_lock_refuse_a_move_as_any_answer(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    store.pause()
    done = store.record(_move("bid 14 2 0", uid="p1"))
    assert "paused" in done.refused["p1"] and store.answers() == []
    store.resume()
    store.lock(LESSON.key, 1)
    # Step 2 of the lesson is beyond the lock (the step's number is what the pace reads).
    done = store.record(_move("bid 14 2 0", uid="p2", number=2))
    assert "locked at step 1" in done.refused["p2"]
    store.lock("counting", 1)
    done = store.record(_move("bid 14 2 0", uid="p3"))
    assert "waits for the teacher" in done.refused["p3"]
    store.release()
    assert store.record(_move("bid 14 2 0", uid="p4")).stored == ["p4"]


def test_a_move_answer_goes_to_csv_and_back(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    store.record(_move("bid 14 2 0", "s1", "u1", "Ada"),
                 Answer(student="s2", question="counting/a", answer=0.25, uid="u2",
                        step=1, at=time.time()))
    text = store.export_csv()
    assert text.splitlines()[0] == ",".join(CSV_COLUMNS)
    assert answers_from_csv(text) == store.answers()
    assert [a.move for a in answers_from_csv(text)] == ["bid 14 2 0", None]
    # A file written before position questions reads as it is.
    old = "\n".join(",".join(line.split(",")[:15]) for line in text.splitlines()) + "\n"
    assert old.splitlines()[0] == ",".join(CSV_COLUMNS_V3)
    assert [a.answer for a in answers_from_csv(old)] == [0.0, 0.25]


def test_a_database_of_schema_3_gains_moves_and_keeps_its_answers(tmp_path: Path) -> None:
    from tests.test_class_store import SCHEMA_1

    path = tmp_path / "answers.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA_1)
        for step in MIGRATIONS[:2]:
            db.executescript(step)
        db.execute("UPDATE meta SET value = '3' WHERE key = 'schema'")
        db.execute("INSERT INTO answers (at, student, name, question, title, kind, answer, "
                   "uid, run, step) VALUES (5.0, 's1', 'Ada', 'counting/b', 'B', "
                   "'probability', 0.4, 'u1', 1, 2)")
    db.close()
    assert SCHEMA_VERSION >= 4
    store = ClassStore(tmp_path)
    (old,) = store.answers()
    assert (old.uid, old.answer, old.step, old.move) == ("u1", 0.4, 2, None)
    store.record(_move("bid 14 2 0", uid="u2"))
    assert [a.move for a in store.answers()] == [None, "bid 14 2 0"]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (str(SCHEMA_VERSION),)
    db.close()


# ====================================================================== the teacher page

def _quick_step(tmp_path: Path) -> PositionStep:
    """A position judged in a moment (a search of 40 games), for the server's tests."""
    path = tmp_path / "quick.yaml"
    path.write_text("""\
kind: probability
key: quick
title: Quick
summary: A quick position.
steps:
  - key: open
    title: The opening bid
    situation: The game starts.
    position: {game: {players: 2, seed: 3}, level: search@40}
    question: What do you bid?
""", encoding="utf-8")
    step = load(path).steps[0]
    assert isinstance(step, PositionStep)
    return step


def test_the_teacher_page_sets_the_class_moves_beside_every_option_of_the_coach(
        tmp_path: Path) -> None:
    from nidavellir.classroom.teacher.coach import PositionCoach
    from nidavellir.classroom.teacher.data import class_data

    step = _quick_step(tmp_path)
    store = ClassStore(tmp_path / "class")
    moves = step.legal_moves()
    now = time.time()
    store.record(*(move_answer(step, "quick", 1, f"s{i}", move, name=name, uid=f"u{i}", at=now)
                   for i, (move, name) in enumerate([(moves[0], "Ada"), (moves[1], "Bo"),
                                                     (moves[0], "Cy")])))
    coach = PositionCoach()
    steps = {"quick/open": step}
    first = class_data(store, coach=coach, steps=steps)
    (q,) = first["questions"]
    assert q["coach"] == {"pending": True}  # judged on its own thread: the page never waits
    assert {(o["move"], o["count"]) for o in q["options"]} == {(moves[0], 2), (moves[1], 1)}
    coach.wait(step, 120)  # the judgement done (a state, not a time)
    (q,) = class_data(store, coach=coach, steps=steps)["questions"]
    assert q["coach"]["level"] == "search@40" and q["coach"]["seconds"] > 0
    # Every option of the coach, chosen or not, in the coach's order, with its figures.
    figures = step.coach()
    assert [o["move"] for o in q["options"]] == [o["move"] for o in figures["options"]]
    covered = sorted(m for o in q["options"] for m in o["moves"])
    assert covered == sorted(moves)
    counts = {m: o["count"] for o in q["options"] for m in o["moves"]}
    assert sum(o["count"] for o in q["options"]) == 3
    assert counts[moves[0]] == 2 and counts[moves[1]] == 1
    unchosen = [o for o in q["options"] if o["count"] == 0]
    assert unchosen and all(o["win"] is not None and o["win_se"] >= 0 for o in unchosen)
    # Judged once: the coach keeps the figures for every later page view.
    assert class_data(store, coach=coach, steps=steps)["questions"][0]["options"] == \
        q["options"]


def test_a_position_question_no_lesson_knows_says_so(tmp_path: Path) -> None:
    from nidavellir.classroom.teacher.coach import PositionCoach
    from nidavellir.classroom.teacher.data import class_data

    store = ClassStore(tmp_path)
    store.record(_move("bid 14 2 0", uid="u1"))
    (q,) = class_data(store, coach=PositionCoach(), steps={})["questions"]
    assert "in no lesson of the server" in q["coach"]["error"]
    assert q["options"] == [{"move": "bid 14 2 0", "moves": ["bid 14 2 0"], "words": "",
                             "count": 1, "win": None, "win_se": None, "score": None,
                             "score_se": None, "about_best": None}]


def test_the_projector_shows_the_moves_and_after_the_reveal_the_coachs_figures(
        tmp_path: Path) -> None:
    from nidavellir.classroom.teacher.coach import PositionCoach
    from nidavellir.classroom.teacher.data import PROJECTOR_BEST, projector_data

    step = _quick_step(tmp_path)
    store = ClassStore(tmp_path / "class")
    moves = step.legal_moves()
    store.record(*(move_answer(step, "quick", 1, f"s{i}", moves[-1 - i % 2], name=f"N{i}",
                               uid=f"u{i}", at=time.time()) for i in range(3)))
    coach, steps = PositionCoach(), {"quick/open": step}
    store.project("quick/open")
    q = projector_data(store, None, None, coach, steps)["question"]
    assert q["kind"] == "move" and not q["revealed"] and q["answers"] == []  # no names
    assert [(o["move"], o["count"], o["win"]) for o in q["options"]] == [
        (moves[-1], 2, None), (moves[-2], 1, None)]  # no coach before the reveal
    store.reveal("quick/open")
    store.show_names(True)
    q = projector_data(store, None, None, coach, steps)["question"]
    assert q["coach"] == {"pending": True}  # judged on its own thread after the reveal
    coach.wait(step, 120)
    q = projector_data(store, None, None, coach, steps)["question"]
    figures = step.coach()["options"]
    shown = [o["move"] for o in q["options"]]
    best = [o["move"] for o in figures[:PROJECTOR_BEST]]
    chosen = [o["move"] for o in figures if {moves[-1], moves[-2]} & set(o["moves"])]
    assert shown == [o["move"] for o in figures if o["move"] in best + chosen]
    assert all(o["win"] is not None for o in q["options"])
    assert sorted(a["move"] for a in q["answers"]) == sorted([moves[-1], moves[-1], moves[-2]])
    from nidavellir.classroom.store import DWARVES

    assert all(a["pseudonym"].split()[0] in DWARVES and "N0" not in a["pseudonym"]
               for a in q["answers"])


# ====================================================================== the student's link

def test_a_move_goes_through_the_page_once_and_survives_a_new_kernel(tmp_path: Path) -> None:
    """The outbox carries a move as any answer: the page holds it (signed with its move),
    a new kernel stores what the page holds once, and a move changed on the page is not
    stored."""
    from tests.test_class_link import Page
    from widgets.classroom import ClassLink

    store = ClassStore(tmp_path)
    page = Page()
    first = ClassLink(store)
    page.connect(first, reply=False)
    with pytest.raises(ValueError, match="not a legal move of this position"):
        first.send_move(LESSON.key, 1, STEP, "bid 2 5 9")
    assert not page.held
    first.send_move(LESSON.key, 1, STEP, "bid 14  2 0")
    (uid,) = page.held
    assert page.held[uid]["answer"]["move"] == "bid 14 2 0" and store.count() == 0
    assert first.move_to(QUESTION) == "bid 14 2 0"
    # The kernel dies before the page said it holds it: the next kernel stores it, once.
    page.connect(ClassLink(store))
    page.connect(ClassLink(store))
    (stored,) = store.answers()
    assert (stored.uid, stored.kind, stored.move, stored.step) == (uid, "move", "bid 14 2 0", 1)
    # A move changed on the page does not verify: never stored.
    page.connect(ClassLink(store), reply=False)
    assert page.link is not None
    page.link.send_move(LESSON.key, 1, STEP, "bid 2 14 0")
    (other,) = [u for u in page.held]
    page.held[other]["answer"]["move"] = "bid 7 5 2"
    page.connect(ClassLink(store))
    assert [a.move for a in store.answers()] == ["bid 14 2 0"]


# ====================================================================== the student's page

def _page_text(app: object) -> str:
    """Everything a student's page of a position step shows: its HTML and every control's
    words and options."""
    import ipywidgets as W

    out: list[str] = []

    def walk(w: object) -> None:
        for name in ("value", "description", "tooltip", "options", "placeholder"):
            v = getattr(w, name, None)
            if isinstance(v, str | tuple | list):
                out.append(repr(v))
        for child in getattr(w, "children", ()):
            walk(child)

    assert isinstance(app, W.Widget)
    walk(app)
    return "\n".join(out)


def test_the_students_page_shows_the_seats_view_only(tmp_path: Path) -> None:
    """Twin positions (Ada's face-down bid differs, the game goes on differently) give
    the same page; Cai's own coins are on it."""
    import copy
    import json

    from widgets.position_question import position_app

    record = json.loads((ROOT / "examples" / "lessons" / "records" /
                         "greedy_seed7.json").read_text(encoding="utf-8"))
    twin = copy.deepcopy(record)
    twin["actions"][41] = "bid 8 12 5"
    twin["actions"] = twin["actions"][:43]
    one = position_app(LESSON.key, 1, STEP)
    two = position_app(LESSON.key, 1, PositionStep(**{**STEP.__dict__, "record": twin}))
    assert _page_text(one) == _page_text(two)
    assert "What do you bid?" in _page_text(one) and "14" in one.boards.value
    assert one.control.widget in one.children


def test_the_student_chooses_a_bid_with_the_play_tabs_control_and_it_reaches_the_class(
        tmp_path: Path) -> None:
    from tests.test_class_link import Page
    from widgets.classroom import ClassLink
    from widgets.position_question import position_app

    store = ClassStore(tmp_path)
    page = Page()
    link = ClassLink(store)
    page.connect(link)
    app = position_app(LESSON.key, 1, STEP, link)
    from nidavellir import parse_action

    app.control.choose(parse_action("bid 14 2 0"))
    assert app.chosen == "bid 14 2 0"
    assert "Your move: <code>bid 14 2 0</code>" in app.said.value
    (stored,) = store.answers()
    assert (stored.kind, stored.move, stored.question) == ("move", "bid 14 2 0", QUESTION)
    assert not app.choose_move("bid 2 5 9")
    assert "not a legal move of this position" in app.said.value
    assert [a.move for a in store.answers()] == ["bid 14 2 0"]


def test_the_lessons_tab_shows_a_position_step_with_pause_and_the_students_move(
        tmp_path: Path) -> None:
    """The *Probability lessons* tab of a class page, on a teacher's folder holding the
    position lesson: the step's own view (no prediction, no simulation), the teacher's
    pause disables its controls and a resume gives them back as they were, the move
    reaches the class, and the one-step lesson is then complete."""
    from nidavellir import parse_action
    from nidavellir.lessons import Library
    from tests.test_class_link import Page
    from widgets.classroom import ClassLink
    from widgets.probability_lessons import ProbabilityLessonsTab

    store = ClassStore(tmp_path)
    page = Page()
    link = ClassLink(store)
    tab = ProbabilityLessonsTab(library=Library(folder=ROOT / "examples" / "lessons"),
                                link=link)
    page.connect(link)
    tab.choose(LESSON.key)
    app = tab.app
    view = app.position_view
    assert view is not None and app.position_box.children == (view,)
    assert app.prediction_box.layout.display == "none" == app.situation.layout.display
    assert "What do you bid?" in _page_text(app) and not app.submit()
    enabled = [w for w in _widgets(view.control.widget) if getattr(w, "disabled", True) is False]
    assert enabled  # the coin slots
    store.pause()
    link.check_state()
    assert "Eyes on the teacher" in link.teacher.value
    assert all(w.disabled for w in enabled)
    store.resume()
    link.check_state()
    assert not any(w.disabled for w in enabled)
    assert not app.finished
    view.control.choose(parse_action("bid 14 2 0"))
    (stored,) = store.answers()
    assert (stored.kind, stored.move, stored.question) == ("move", "bid 14 2 0", QUESTION)
    assert app.finished and app.complete_box.layout.display == "" and "Lesson complete" in app.complete.value
    # Another lesson's question step shows the prediction again, not the position.
    tab.choose("counting")
    assert tab.app.position_view is None and tab.app.prediction_box.layout.display == ""


def _widgets(widget: object) -> list[object]:
    out = [widget]
    for child in getattr(widget, "children", ()):
        out.extend(_widgets(child))
    return out
