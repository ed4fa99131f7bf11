"""Puzzles for a class (docs/classroom.md, "Puzzles for the class"): the teacher assigns a
set, every student's Puzzles tab serves it, answers keep the class's guarantees (held by
the page until stored, stored once), the teacher sees who solved what with the class's
ratings, and the class view shows the class's moves beside the judge's figures."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest
from test_class_view import _open, _opener, _teacher_session
from test_class_view import teacher_server as teacher_server  # the fixture

from nidavellir import parse_action
from nidavellir.analysis.puzzles import shipped
from nidavellir.analysis.puzzles.trainer import DATA_ENV
from nidavellir.classroom import ClassStore
from nidavellir.classroom.store import MIGRATIONS, SCHEMA_VERSION, Answer, puzzle_question
from nidavellir.classroom.store.database import _BASE
from nidavellir.classroom.teacher.coach import PositionCoach
from nidavellir.classroom.teacher.data import class_data
from nidavellir.classroom.teacher.puzzles import (
    assign,
    choose,
    form_of,
    puzzle_steps,
    puzzles_data,
)
from widgets.classroom import ClassLink
from widgets.puzzles import PuzzlesTab


@pytest.fixture(autouse=True)
def nobody_s_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))


def lines(n: int) -> list[dict]:
    return [p.to_dict() for p in shipped()[:n]]


def move_answer(set_id: int, puzzle: dict, move: str, uid: str, student: str = "s1",
                at: float | None = None) -> Answer:
    return Answer(student=student, name=student.upper(), question=puzzle_question(
        set_id, puzzle["id"]), answer=0.0, kind="move", move=move, step=1, uid=uid,
        at=time.time() if at is None else at)


def test_a_set_is_kept_in_its_run_and_assigned(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    state = store.assign_puzzles("Week 1", {"ids": ["x"]}, lines(2))
    assert state.puzzles == 1
    (found,) = store.puzzle_sets()
    assert (found.id, found.run, found.name) == (1, 1, "Week 1")
    assert [p["id"] for p in found.puzzles] == [p["id"] for p in lines(2)]
    assert store.end_puzzles().puzzles is None
    assert store.puzzle_set(1) is not None  # ended, kept
    # A new run starts with nothing assigned; deleting a run deletes its sets.
    store.assign_puzzles("Week 2", {}, lines(1))
    store.new_run("3b")
    assert store.state().puzzles is None
    store.delete_run(1)
    assert store.puzzle_sets() == []


def test_answers_to_the_set_are_taken_whatever_the_pace_but_not_paused_or_ended(
        tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    store.assign_puzzles("Week 1", {}, lines(1))
    p = lines(1)[0]
    store.lock("counting", 1)
    assert store.record(move_answer(1, p, p["answers"][0], "a1")).stored == ["a1"]
    assert store.record(move_answer(1, p, p["answers"][0], "a1")).already == ["a1"]
    store.pause()
    assert "paused" in store.record(move_answer(1, p, p["answers"][0], "a2")).refused["a2"]
    store.resume()
    store.end_puzzles()
    refused = store.record(move_answer(1, p, p["answers"][0], "a3")).refused["a3"]
    assert refused == "your teacher no longer assigns these puzzles"
    assert [a.uid for a in store.answers()] == ["a1"]


@pytest.mark.parametrize("name,puzzles,words", [
    ("", lines, "needs a name"),
    ("x" * 61, lines, "at most 60 characters"),
    ("Week", lambda n: [], "at least one puzzle"),
    ("Week", lambda n: lines(1) * 2, "each once"),
])
def test_a_bad_set_is_one_sentence_and_changes_nothing(tmp_path: Path, name: str,
                                                      puzzles: object, words: str) -> None:
    store = ClassStore(tmp_path)
    with pytest.raises(ValueError, match=words):
        store.assign_puzzles(name, {}, puzzles(2))  # type: ignore[operator]
    assert store.puzzle_sets() == [] and store.state().puzzles is None


def test_the_teacher_chooses_by_list_or_by_theme_and_rating(tmp_path: Path) -> None:
    pool = shipped()
    ids = [p.id for p in pool[:2]]
    name, spec, chosen = choose(form_of({"ids": ", ".join(ids)}))
    assert [p.id for p in chosen] == ids and spec == {"ids": ids}
    theme = pool[0].themes[0]
    name, spec, chosen = choose(form_of({"name": "Lines", "theme": theme, "count": "3"}))
    assert name == "Lines" and chosen and all(theme in p.themes for p in chosen)
    assert [p.rating.r for p in chosen] == sorted(p.rating.r for p in chosen)
    for form, words in (({"ids": "nope"}, "no puzzle nope"), ({"theme": "luck"}, "no theme"),
                        ({"low": "3000", "high": "4000"}, "no puzzle has this theme"),
                        ({"low": "9", "high": "1"}, "above the highest"),
                        ({"count": "many"}, "whole number")):
        with pytest.raises(ValueError, match=words):
            choose(form_of(form))
    assert assign(ClassStore(tmp_path), form_of({"ids": ids[0]})).puzzles == 1


def test_three_students_answer_and_the_teacher_sees_who_solved_what(tmp_path: Path) -> None:
    store = ClassStore(tmp_path)
    store.assign_puzzles("Week 1", {}, lines(2))
    tabs = []
    for i, name in enumerate(["Ada", "Bo", "Cy"]):
        link = ClassLink(store, student=f"s{i}")
        link.name.value = name
        link.check_state()
        tab = PuzzlesTab(link=link, chart=False)
        assert tab.class_set is not None and "Your teacher gave the class 2 puzzles: Week 1" \
            in tab.class_note.value
        p = tab.puzzle
        assert p is not None and tab.view is not None
        move = p.answers[0] if name != "Bo" else p.runner_up
        tab.view.control.choose(parse_action(move))
        assert link.state_of(tab.view.question_id) == "stored"
        assert "Your rating in the class" in tab.feedback.value
        tabs.append(tab)
    data = puzzles_data(store)
    (shown,) = data["sets"]
    assert shown["assigned"] and [g["student"] for g in shown["grid"]] == ["Ada", "Bo", "Cy"]
    assert [g["cells"][0]["solved"] for g in shown["grid"]] == [True, False, True]
    assert shown["puzzles"][0]["solved_text"] == "2 of 3 solved it"
    # The class view: the class's moves beside the judge's figures of every option.
    coach = PositionCoach()
    class_data(store, coach=coach)
    coach.wait(next(iter(puzzle_steps(store).values())))
    (q,) = class_data(store, coach=coach)["questions"]
    assert q["kind"] == "move" and q["question"].startswith("puzzles/s1-")
    counts = {o["move"]: o["count"] for o in q["options"]}
    p = tabs[0].puzzle
    assert p is not None
    assert counts[p.answers[0]] == 2 and counts[p.runner_up] == 1
    assert all(o["win"] is not None for o in q["options"])
    # The teacher ends the set: every page goes back to its own practice.
    store.end_puzzles()
    assert tabs[0].link is not None
    tabs[0].link.check_state()
    assert tabs[0].class_set is None and tabs[0].class_note.value == ""


def test_a_database_of_schema_5_gets_the_puzzle_sets(tmp_path: Path) -> None:
    path = tmp_path / "answers.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(_BASE)
        for step in MIGRATIONS[:4]:
            db.executescript(step)
        db.execute("UPDATE meta SET value = '5' WHERE key = 'schema'")
    db.close()
    store = ClassStore(tmp_path)
    assert store.puzzle_sets() == [] and SCHEMA_VERSION >= 6
    assert store.assign_puzzles("Week 1", {}, lines(1)).puzzles == 1


def test_the_teacher_page_assigns_a_set_over_http_and_refuses_a_bad_one(
        teacher_server: dict) -> None:
    """The teacher page's *Puzzles for the class* (``/teacher/puzzles``): the page and its
    data only with the teacher password; a set assigned by a list of ids through
    ``/teacher/control``; a bad list is one sentence (400) and changes nothing; *End the
    puzzles*."""
    url, store = teacher_server["url"], teacher_server["store"]
    anonymous = _opener()
    assert _open(anonymous, url + "api/puzzles")[0] == 403
    opener, token = _teacher_session(url)
    status, page = _open(opener, url + "puzzles")
    assert status == 200 and "Puzzles for the class" in page and token in page
    ids = [p.id for p in shipped()[:2]]

    def control(**form: str) -> tuple[int, dict]:
        status, body = _open(opener, url + "control", {"token": token, **form})
        return status, json.loads(body)

    version = store.state().version
    status, body = control(action="assign-puzzles", name="Week 1", ids="nope " + ids[0])
    assert (status, list(body)) == (400, ["error"]) and "no puzzle nope" in body["error"]
    assert store.state().version == version and store.puzzle_sets() == []
    status, body = control(action="assign-puzzles", name="Week 1", ids=", ".join(ids))
    assert status == 200 and body["state"]["puzzles"] == store.state().puzzles is not None
    data = json.loads(_open(opener, url + "api/puzzles")[1])
    (shown,) = data["sets"]
    assert shown["assigned"] and shown["name"] == "Week 1"
    assert [p["id"] for p in shown["puzzles"]] == ids
    assert control(action="end-puzzles")[1]["state"]["puzzles"] is None
    assert len(store.puzzle_sets()) == 1  # the set and its answers stay in the run


def test_a_puzzles_figures_say_they_are_the_file_s() -> None:
    """The class view's note for a puzzle (teacher.html): its figures are the puzzle file's,
    over the deals it was made with when the file says, never 'the coach's judgement'."""
    from dataclasses import replace

    from nidavellir.lessons.puzzles import puzzle_step

    puzzle = shipped()[0]
    figures = puzzle_step(puzzle).coach()
    assert figures["puzzle"] is True and figures["playouts"] == puzzle.extra["deals"] > 0
    bare = replace(puzzle, extra={k: v for k, v in puzzle.extra.items()
                                  if k not in ("level", "deals")})
    figures = puzzle_step(bare).coach()
    assert figures["puzzle"] is True and figures["playouts"] == 0
    assert figures["level"] == "puzzle"
