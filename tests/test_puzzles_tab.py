"""The Puzzles tab without a browser (widgets.puzzles): solve, fail, hint, next, the
game it came from, German words, and bad input said in one sentence with nothing
changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from nidavellir import Game, i18n, parse_action
from nidavellir.analysis.puzzles import parse_puzzle, shipped
from nidavellir.analysis.puzzles.trainer import DATA_ENV, LEARNER_FILE, Learner
from widgets.puzzles import PuzzlesTab


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(DATA_ENV, str(tmp_path))
    return tmp_path


def wrong_move(tab: PuzzlesTab) -> Any:
    assert tab.view is not None and tab.puzzle is not None
    return next(a for a in tab.view.step.game().legal_actions()
                if str(a) not in tab.puzzle.answers)


def test_solve_then_fail_then_next(home: Path) -> None:
    opened: list[tuple[Game, int]] = []
    tab = PuzzlesTab(chart=False, open_game=lambda g, step: opened.append((g, step)))
    first = tab.puzzle
    assert tab.view is not None
    assert first is not None and "Find the best move." in tab.view.question.value
    tab.view.control.choose(parse_action(first.answers[0]))
    assert "✔ Solved" in tab.feedback.value and first.reason_text() in tab.feedback.value
    assert "Your rating: " in tab.feedback.value
    learner = Learner.open(home / LEARNER_FILE)
    assert [a.puzzle for a in learner.history] == [first.id] and learner.rating.r > 1500
    assert tab.show_game() and opened[0][1] == first.decision - 1
    assert opened[0][0].history[first.decision - 1][1] is not None
    assert tab.next() and tab.puzzle is not None and tab.puzzle.id != first.id
    assert tab.feedback.value == "" and tab.puzzle.id in tab.heading.value
    tab.view.control.choose(wrong_move(tab))
    assert "✘ Not the best move" in tab.feedback.value
    assert Learner.open(home / LEARNER_FILE).rating.r < learner.rating.r
    assert "2 puzzles tried, 1 solved" in tab.rating.value


def test_a_hint_costs_the_attempt(home: Path) -> None:
    tab = PuzzlesTab(chart=False)
    p = tab.puzzle
    assert p is not None and tab.view is not None
    tab.hint()
    assert "Hint: " in tab.hint_text.value and tab.hint_button.disabled
    tab.view.control.choose(parse_action(p.answers[0]))
    assert "with a hint" in tab.feedback.value
    assert Learner.open().history[0].score == 0


def test_an_illegal_answer_is_one_sentence_and_changes_nothing(home: Path) -> None:
    tab = PuzzlesTab(chart=False)
    assert tab.view is not None
    assert not tab.view.choose_move("take W99")
    said = tab.view.said.value
    assert "is not" in said and tab.feedback.value == ""
    assert not (home / LEARNER_FILE).exists()


def test_a_puzzle_whose_record_does_not_replay_is_one_sentence(home: Path) -> None:
    tab = PuzzlesTab(chart=False)
    before = tab.puzzle
    data = shipped()[0].to_dict()
    data["record"]["actions"][0] = "take W99"
    assert not tab.show(parse_puzzle(data))
    assert "This puzzle cannot be shown:" in tab.status.value
    assert "does not replay" in tab.status.value and tab.puzzle is before
    assert not (home / LEARNER_FILE).exists()


def test_the_tab_speaks_german(home: Path) -> None:
    with i18n.using("de"):
        tab = PuzzlesTab(chart=False)
        assert tab.next_button.description == "Nächstes Rätsel"
        assert tab.hint_button.description == "Tipp"
        assert tab.view is not None
        assert "Finde den besten Zug." in tab.view.question.value
        assert "Deine Rätselwertung" in tab.rating.value
        p = tab.puzzle
        assert p is not None
        tab.view.control.choose(parse_action(p.answers[0]))
        assert "✔ Gelöst" in tab.feedback.value
        assert p.reason_text("de") in tab.feedback.value


def test_practise_your_mistakes_without_a_review_says_what_to_do(home: Path) -> None:
    tab = PuzzlesTab(chart=False, reviewed=lambda: None)
    assert tab.practise_mistakes() == 0
    assert "Review a game in the Play tab first" in tab.status.value


def test_practise_your_mistakes_makes_puzzles_of_a_reviewed_games_mistakes(home: Path) -> None:
    """A reviewed game's mistake with one clearly best move becomes the learner's puzzle:
    said, offered as "your own mistakes", shown from there, kept once; a theme no puzzle of
    that source has is said in one sentence."""
    import pandas as pd

    from nidavellir.bots import play_game

    game = play_game(2, "random", seed=4)
    # The review's frame, as nidavellir.analysis.review gives it, cut to what the tab reads:
    # decision 53, a mistake of seat 0's whose position has one clearly best move (found by
    # trying the game's positions), and a good move (not tried).
    frame = pd.DataFrame({"label": ["mistake", "good"], "loss_win": [0.3, 0.0],
                          "step": [52, 10]})
    tab = PuzzlesTab(chart=False, reviewed=lambda: (game, frame))
    assert tab.source.layout.display == "none"  # no puzzle of the learner's own yet
    assert tab.practise_mistakes() == 1
    assert "1 of your mistakes is a puzzle now (1 new)" in tab.status.value
    assert [v for _label, v in tab.source.options] == ["lab", "personal"]
    assert tab.source.layout.display == ""
    tab.source.value = "personal"  # the tab shows one of them at once
    assert tab.puzzle is not None and tab.puzzle.personal
    assert tab.puzzle.source == {"record": "review", "decision": 53}
    assert tab.practise_mistakes() == 0  # the same game again: kept once
    assert len(tab.learner.personal) == 1
    other = next(key for _name, key in tab.theme.options if key and key not in tab.puzzle.themes)
    tab.theme.value = other
    assert "No puzzle has this theme in this edition: choose another." in tab.status.value


def test_the_rating_chart_follows_the_answers(home: Path) -> None:
    tab = PuzzlesTab(chart=True)
    assert tab.view is not None and tab.puzzle is not None
    tab.view.control.choose(parse_action(tab.puzzle.answers[0]))
    fig = tab.chart_figure()
    assert len(fig.data[1].y) == 2
    assert tab.chart.outputs and "application/vnd.plotly.v1+json" in tab.chart.outputs[0]["data"]
