"""The probability lesson widget, driven without a browser (set .value, .click())."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest

from nidavellir import Game
from nidavellir.analysis import probability as P
from widgets.charts import PLOTLY_MIME
from widgets.lessons import LessonApp, figure_box, lessons_app, question_keys, reveal
from widgets.session import Session


def _plotted(out) -> dict:
    assert len(out.outputs) == 1
    return out.outputs[0]["data"][PLOTLY_MIME]


@pytest.mark.parametrize("key", question_keys())
def test_every_question_computes_and_plots(key: str) -> None:
    app = lessons_app(question=key)
    if key == "strategy":
        app.controls["bot_a"].value = "random"
        app.trials.value = 10
    else:
        app.trials.value = 500
    app.run_button.click()
    assert app.error.value == ""
    assert app.answer_shown
    est = app.last["estimate"]
    assert est.n == app.trials.value
    spec = _plotted(app.chart)
    names = [t.get("name") for t in spec["data"]]
    assert "running estimate" in names and "95% interval" in names
    q = P.question(key, **app.params())
    if q.exact is not None:
        assert app.last["exact"] == q.exact
        assert f"{q.exact.value}" in app.exact_html.value
        assert any(str(n).startswith("exact") for n in names)
        assert abs(est.z(q.exact)) < 4
    else:
        assert "no closed form" in app.exact_html.value
    if q.distribution is not None:
        bars = _plotted(app.dist_chart)
        assert [t["name"] for t in bars["data"]] == ["exact", "simulated"]
    else:
        assert app.dist_chart.outputs == ()
    if key == "line":
        assert "policy" in app.note.value


def test_parameters_change_the_answer() -> None:
    app = lessons_app()
    app.controls["what"].value = "B"
    app.controls["players"].value = 4
    assert app.controls["n"].value == 4  # the tavern size follows the player count
    app.trials.value = 200
    app.run_button.click()
    assert app.last["exact"] == P.p_tavern_shows("B", n=4, players=4)
    app.controls["n"].value = 2  # a change hides the old answer
    assert not app.answer_shown and app.last == {}
    app.run_button.click()
    assert app.last["exact"].params["n"] == 2


def test_bad_input_shows_an_error() -> None:
    app = lessons_app(question="bid_tie")
    app.controls["hand_a"].value = "0 2 x"
    app.run_button.click()
    assert "Cannot answer" in app.error.value and app.last == {}
    app.controls["hand_a"].value = "0 2 3 4 5"
    app.run_button.click()
    assert app.error.value == "" and app.last["exact"].value == Fraction(1, 5)
    app.question.value = "trade"
    app.controls["treasury"].value = "5 7x2 oops"
    app.run_button.click()
    assert "treasury" in app.error.value


def test_trade_with_a_small_treasury() -> None:
    app = lessons_app(question="trade", trials=300)
    app.controls["treasury"].value = "5 7 9"
    app.run_button.click()
    q = app.last["question"]
    assert q.distribution.pmf == {5: Fraction(1, 6), 7: Fraction(1, 2), 9: Fraction(1, 3)}
    assert app.last["exact"].value == Fraction(1, 2)  # P(the most likely coin, 7)


def test_quiz_asks_for_a_guess_first() -> None:
    app = lessons_app(quiz=True, trials=300)
    assert app.quiz_box.layout.display == ""
    app.run_button.click()
    assert not app.answer_shown  # hidden until the guess
    app.guess.value = 0.43
    app.check_button.click()
    assert app.answer_shown
    assert "Excellent" in app.feedback.value and "22/51" in app.feedback.value
    # A new question hides the answer again; a poor guess gets told so.
    app.question.value = "bid_tie"
    assert not app.answer_shown and app.feedback.value == ""
    app.guess.value = 0.9
    app.check_button.click()  # runs the simulation itself
    assert "Not quite" in app.feedback.value and app.answer_shown
    app.quiz.value = False
    assert app.quiz_box.layout.display == "none" and app.answer_shown


def test_quiz_on_an_expectation_and_a_simulation_only_question() -> None:
    app = lessons_app(question="round", quiz=True, trials=300)
    assert app.guess.max > 1
    app.guess.value = 1.5
    app.check_button.click()
    assert "Excellent" in app.feedback.value
    app.question.value = "line"
    app.guess.value = 0.5
    app.check_button.click()
    assert "simulated" in app.feedback.value


def test_parameters_from_a_game() -> None:
    game = Game.new(players=4, seed=3)
    app = lessons_app(game, trials=300)
    assert app.use_game.value and not app.use_game.disabled
    said = app.param_box.children[0].value
    assert "From the game in the Play tab: the number of players, the age" in said
    assert "hand_a" not in said and "players, age" not in said
    assert app.controls["players"] not in app.param_box.children
    app.run_button.click()
    assert app.last["exact"] == P.p_tavern_shows("H", n=app.controls["n"].value, game=game)
    assert app.last["exact"].params["N"] == 36 - 12  # one round of 3 taverns x 4 dealt
    app.use_game.value = False
    assert app.controls["players"] in app.param_box.children


def test_parameters_from_a_session() -> None:
    session = Session(Game.new(players=2, seed=4), ["human", "random"])
    app = LessonApp(session, question="trade", trials=200)
    app.run_button.click()
    q = app.last["question"]
    assert q.distribution == P.trade_distribution(game=session.game, seat=session.viewer)
    app.question.value = "bid_tie"
    app.run_button.click()
    assert app.last["exact"].value == Fraction(1, 5)  # both start with 0 2 3 4 5


def test_a_game_can_be_attached_later() -> None:
    app = lessons_app()
    assert app.use_game.disabled and not app.using_game
    game = Game.new(players=5, seed=1)
    app.set_game(game)
    assert app.using_game
    app.question.value = "appears"
    app.trials.value = 200
    app.run_button.click()
    assert app.last["exact"].params["players"] == 5
    app.set_game(None)
    assert not app.using_game


def test_reveal_hides_the_answer_until_asked() -> None:
    box = reveal(P.p_tavern_shows("W10", players=5), "5 places of 45")
    button, body = box.children
    assert body.layout.display == "none" and "1/9" in body.value and "5 places" in body.value
    button.click()
    assert body.layout.display == "" and button.description == "Hide the answer"
    button.click()
    assert body.layout.display == "none"
    table = reveal(P.trade_distribution([0, 2, 3, 4, 5], treasury={5: 1, 7: 1, 9: 1}))
    assert "<table>" in table.children[1].value and "1/2" in table.children[1].value


def test_figure_box_shows_a_plotly_figure() -> None:
    frame = P.running_estimates([0.0, 1.0, 1.0, 0.0], batches=2, exact=0.5)
    out = figure_box(P.convergence_figure(frame, "coin flips"))
    spec = _plotted(out)
    assert spec["layout"]["title"]["text"] == "coin flips"


def test_use_the_current_game_is_not_ticked_when_that_game_is_over() -> None:
    import random as _random

    session = Session(Game.new(players=2, seed=5), ["human", "random"])
    app = LessonApp(session, question="tavern", trials=100)
    assert app.use_game.value and not app.use_game.disabled
    rng = _random.Random(5)
    while session.game.decision is not None:
        session.submit(rng.choice(session.game.legal_actions()))
    # The Play game ended: the lesson stops drawing from it (no cards left) and says why.
    assert not app.use_game.value and app.use_game.disabled
    assert "over" in app.use_game.description
    app.run_button.click()
    assert app.last is not None and "Cannot answer" not in app.error.value
    # A new game in the same session: the option comes back.
    session.new_game({"players": 2, "seats": ["human", "random"], "seed": 6})
    assert app.use_game.value and not app.use_game.disabled
    # Attached to a game that is already over: not ticked from the start.
    over = session.game.clone()
    while over.decision is not None:
        over.apply(rng.choice(over.legal_actions()))
    later = LessonApp(over, question="tavern", trials=100)
    assert not later.use_game.value and later.use_game.disabled


# ---------------------------------------------------------------------- kinds of question

def _q_highest_gem(players: int = 3) -> P.Question:
    """A made-up kind: the chance that seat 1 is dealt the highest gem."""
    import random as _random

    from nidavellir.analysis.probability.pools import run_trials

    exact = P.Exact("seat 1 is dealt the highest gem", Fraction(1, players), "1 / players",
                    {"players": players})

    def trial(rng: _random.Random) -> bool:
        return rng.randrange(players) == 0

    return P.Question("highest_gem", "Seat 1 holds the highest gem", {"players": players},
                      exact, lambda trials, seed: run_trials(trial, trials, seed),
                      track=lambda x: 1.0 if x else 0.0,
                      facts={"players": players, "answer": exact.value})


HIGHEST_GEM = P.QuestionKind(
    "highest_gem", "Seat 1 holds the highest gem", _q_highest_gem, ("players",),
    lambda values: {"players": values["players"]},
    "The {players} gems are dealt at random: seat 1 gets the highest with chance "
    "**{answer}**, one in {players}.", from_game=("players",))


@pytest.fixture
def kinds() -> Iterator[dict[str, P.QuestionKind]]:
    """The registry, restored after the test."""
    registry = dict(P.QUESTION_KINDS)
    yield P.QUESTION_KINDS
    P.QUESTION_KINDS.clear()
    P.QUESTION_KINDS.update(registry)


def test_a_new_kind_of_question_is_its_descriptor_alone(kinds) -> None:
    """Registering one descriptor is the whole change: the lab offers it, sets it up,
    computes it, words it and grades a guess (docs/engine.md's checklist)."""
    P.register(HIGHEST_GEM)
    assert "highest_gem" in question_keys()
    app = lessons_app(question="highest_gem", quiz=True)
    assert [w for w in app.param_box.children] == [app.controls["players"]]
    app.controls["players"].value = 4
    app.trials.value = 400
    app.guess.value = 0.25
    app.check_button.click()
    assert app.error.value == "" and app.last["exact"].value == Fraction(1, 4)
    assert "Excellent: spot on." in app.feedback.value
    assert "seat 1 gets the highest with chance <b>1/4</b>" in app.exact_html.value


def test_an_unknown_or_broken_kind_says_so_on_the_page(kinds) -> None:
    app = lessons_app(question="dragons")
    assert "There is no question 'dragons'" in app.error.value
    P.register(P.QuestionKind("broken", "A broken kind", _q_highest_gem, ("players", "colour"),
                              lambda values: {"players": values["players"], "colour": 1},
                              "{nothing}"))
    app = lessons_app(question="broken")
    assert "asks for colour, which this page does not draw" in app.error.value
    app.run_button.click()
    assert "The question 'broken' is broken (TypeError" in app.error.value
    P.QUESTION_KINDS["broken"] = P.QuestionKind(
        "broken", "A broken kind", _q_highest_gem, ("players",),
        lambda values: {"players": values["players"]}, "{nothing}")
    app = lessons_app(question="broken")
    app.run_button.click()
    assert "The words of the question 'broken' are broken" in app.exact_html.value


def test_the_checklist_gives_one_file_for_a_kind_of_question() -> None:
    """What the test above measures (a descriptor is the whole change) is what
    docs/engine.md's checklist says."""
    import re
    from pathlib import Path

    engine = (Path(__file__).resolve().parent.parent / "docs" / "engine.md").read_text(
        encoding="utf-8")
    claim = re.search(r"A kind of probability question\*\*: \*\*(\d+) file", engine)
    assert claim and claim.group(1) == "1"
    assert "`nidavellir/analysis/probability/questions.py`" in engine
