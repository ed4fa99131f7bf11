"""The trainer (nidavellir.analysis.puzzles.trainer): a learner's rating and history in the
user's data folder, one attempt one rated game, the next puzzle near the learner's
rating, a class's ratings from its first answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nidavellir.analysis.puzzles import Puzzle, Rating, parse_puzzle, shipped
from nidavellir.analysis.puzzles.trainer import (
    DATA_ENV,
    LEARNER_FILE,
    Learner,
    class_attempts,
    class_ratings,
    data_dir,
    next_puzzle,
    rating_figure,
)


def made(n: int, rating: float, themes: list[str] | None = None,
         thingvellir: bool = False) -> Puzzle:
    """A puzzle like the shipped set's first, with its own id, rating, themes, edition."""
    data = shipped()[0].to_dict()
    data["id"] = f"t{n}"
    data["rating"] = {"r": rating, "rd": 200, "sigma": 0.09}
    if themes is not None:
        data["themes"] = themes
    data["record"]["config"]["expansions"] = ["thingvellir"] if thingvellir else []
    return parse_puzzle(data)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(DATA_ENV, str(tmp_path))
    return tmp_path


def test_the_learner_lives_in_the_data_folder_chosen(home: Path) -> None:
    assert data_dir() == home
    learner = Learner.open()
    assert learner.path == home / LEARNER_FILE and not learner.history
    puzzle = shipped()[0]
    done = learner.answer(puzzle, puzzle.answers[0])
    assert done.rated and done.solved and done.score == 1
    assert learner.rating.r > 1500 and learner.rating_of(puzzle).r < puzzle.rating.r
    again = Learner.open()
    assert again.rating == learner.rating and again.history == learner.history
    assert again.rating_of(puzzle) == learner.rating_of(puzzle)


def test_a_hint_and_a_wrong_first_answer_are_losses_a_further_try_is_not_rated(
        home: Path) -> None:
    puzzle = shipped()[0]
    learner = Learner.open()
    hinted = learner.answer(puzzle, puzzle.answers[0], hinted=True)
    assert hinted.solved and hinted.score == 0 and learner.rating.r < 1500
    before = learner.rating
    wrong = learner.answer(puzzle, puzzle.runner_up)
    assert not wrong.solved and learner.rating.r < before.r
    after_wrong = learner.rating
    further = learner.answer(puzzle, puzzle.answers[0], first=False)
    assert not further.rated and learner.rating == after_wrong


def test_an_unreadable_history_is_left_as_it_is(home: Path) -> None:
    path = home / LEARNER_FILE
    path.write_text("{not json", encoding="utf-8")
    learner = Learner.open()
    assert learner.path is None and "cannot be read" in learner.problem
    assert str(path) in learner.problem and "\n" not in learner.problem
    puzzle = shipped()[0]
    learner.answer(puzzle, puzzle.answers[0])
    assert path.read_text(encoding="utf-8") == "{not json"


def test_the_next_puzzle_is_near_the_rating_passes_the_filters_and_is_new() -> None:
    pool = [made(i, 800 + 100 * i, ["line"] if i % 2 else ["tie"], thingvellir=i >= 10)
            for i in range(20)]
    learner = Learner(None)  # 1500: t7 is rated 1500
    first = next_puzzle(learner, pool)
    assert first is not None and abs(first.rating.r - 1500) <= 400
    assert next_puzzle(Learner(None), pool) == first  # the same history, the same puzzle
    line = next_puzzle(learner, pool, theme="line", edition="base")
    assert line is not None and "line" in line.themes and not line.thingvellir
    tv = next_puzzle(learner, pool, edition="thingvellir")
    assert tv is not None and tv.thingvellir
    assert next_puzzle(learner, pool, theme="camp") is None
    assert next_puzzle(learner, pool, after=first.id) != first
    strong = Learner(None, rating=Rating(2600, 60, 0.06))
    hard = next_puzzle(strong, pool)
    assert hard is not None and hard.rating.r >= 2000


def test_tried_puzzles_come_back_only_when_every_one_was_tried(home: Path) -> None:
    pool = [made(i, 1500) for i in range(2)]
    learner = Learner.open()
    seen = set()
    for _ in range(2):
        p = next_puzzle(learner, pool)
        assert p is not None and p.id not in seen
        seen.add(p.id)
        learner.answer(p, p.answers[0])
    assert next_puzzle(learner, pool) is not None  # all tried: they come back


def test_a_class_rates_each_students_first_answer_in_order() -> None:
    pool = [made(1, 1500), made(2, 1700)]
    question = {p.id: f"puzzles/s1-{p.id}" for p in pool}
    right, wrong = pool[0].answers[0], pool[0].runner_up
    answers = [
        {"person": "name:ada", "question": question["t1"], "move": right, "at": 1.0},
        {"person": "name:bo", "question": question["t1"], "move": wrong, "at": 2.0},
        {"person": "name:bo", "question": question["t1"], "move": right, "at": 3.0},
        {"person": "name:ada", "question": "counting/hunter", "move": None, "at": 4.0},
    ]
    attempts = class_attempts(pool, answers, lambda p: question[p.id])
    assert [(a.person, a.solved) for a in attempts] == [("name:ada", True), ("name:bo", False)]
    people, rated = class_ratings(pool, attempts)
    assert people["name:ada"].r > 1500 > people["name:bo"].r
    assert rated["t2"] == pool[1].rating  # nobody tried it


def test_the_rating_chart_draws_every_rated_attempt(home: Path) -> None:
    learner = Learner.open()
    puzzle = shipped()[0]
    learner.answer(puzzle, puzzle.answers[0])
    learner.answer(puzzle, puzzle.runner_up)
    learner.answer(puzzle, puzzle.answers[0], first=False)
    fig = rating_figure(learner.history)
    line = fig.data[1]
    assert list(line.x) == [0, 1, 2]
    assert line.y[0] == 1500 and line.y[2] == pytest.approx(learner.rating.r)
    assert json.loads(fig.to_json())["layout"]["title"]["text"] == "Your puzzle rating"
