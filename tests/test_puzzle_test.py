"""The only-move test (docs/puzzles.md, "Which decisions become puzzles"): kept only when
one answer is clearly the best whatever the seat cannot see, judged from the seat's
knowledge alone."""

from __future__ import annotations

import random

import pytest
from puzzle_positions import at

from nidavellir import Game
from nidavellir.bots.judge import no_cache, position_key
from nidavellir.bots.puzzle import AGREEMENT, DEALS, verify
from nidavellir.bots.puzzle_themes import themes_of


def test_an_exact_endgame_with_one_best_move_is_kept() -> None:
    # The last enlistment of a 5-player Thingvellir game: nothing hidden or random is
    # left, so every option is played to the end; one column scores 17 points more.
    game = at(0, 146)
    verdict = verify(game)
    assert verdict.passed and verdict.exact and verdict.deals == 1
    assert verdict.grading == "points"  # the seat cannot win: its points decide
    assert verdict.points.value == 17 and verdict.points.se == 0
    assert verdict.agreement == 1.0
    assert verdict.answers == [str(verdict.judgement.best)] + [
        str(a) for a in verdict.judgement.options[0].equivalent]


def test_a_clear_best_move_is_kept_with_its_figures() -> None:
    game = at(6, 113)
    verdict = verify(game)
    assert verdict.passed and not verdict.exact and verdict.deals == DEALS
    assert verdict.grading == "win" and verdict.win.value >= 0.21 and verdict.win.low > 0
    assert verdict.agreement >= AGREEMENT
    assert verdict.runner_up not in verdict.answers
    assert verdict.reason().startswith("Take ")


def test_two_moves_about_as_good_are_refused() -> None:
    # Two picks that end the game with the same chances and the same points.
    game = at(6, 119)
    verdict = verify(game)
    assert not verdict.passed
    assert "gap" in verdict.failures and "noise" in verdict.failures
    assert abs(verdict.win.value) < 0.01 and abs(verdict.points.value) < 0.01
    assert "does not beat the runner-up by enough" in verdict.why_not()


def test_a_best_move_that_depends_on_a_hidden_card_is_refused() -> None:
    # Uline's coin: by far the best on average (12.8 points), but not in 16% of the deals
    # of what the seat cannot see: which is best depends on them.
    game = at(6, 94)
    verdict = verify(game)
    assert verdict.failures == ["agreement"]
    assert verdict.points.value > 8 and verdict.points.low > 0
    assert verdict.agreement < AGREEMENT
    assert "depends on what the player cannot see" in verdict.why_not()


def test_bids_and_forced_moves_are_never_puzzles() -> None:
    game = Game.new(players=3, seed=4)
    assert game.decision.kind == "bid"
    assert verify(game).failures == ["bid"]


def deck_twin(game: Game, seed: int) -> Game:
    """A copy that differs only in the order of the cards not dealt yet (the age and camp
    decks): nothing any seat may know. (Here a coin trade showed the others' purses, so
    their face-down bids are known by elimination and are not reshuffled.)"""
    other = game.clone()
    rng = random.Random(seed)
    for decks in (other.state.decks, other.state.camp_decks):
        for age in decks:
            rng.shuffle(decks[age])
    other.state.rng.seed(rng.random())
    return other


def test_twin_positions_give_the_same_puzzle_answers_and_reason() -> None:
    # Twins differ only in what the deciding seat cannot see (the decks' order): the test
    # reads only the seat's knowledge, so the verdict, its figures, the reason, the
    # themes and the puzzle's id are the same.
    game = at(6, 113)
    other = deck_twin(game, seed=3)
    assert other.state.camp_decks != game.state.camp_decks or \
        other.state.decks != game.state.decks
    with no_cache():  # each twin judged afresh: nothing is taken from the other's
        a, b = verify(game), verify(other)
    assert (a.passed, a.answers, a.runner_up, a.agreement) == (
        b.passed, b.answers, b.runner_up, b.agreement)
    assert (a.win, a.points) == (b.win, b.points)
    assert a.reason(game) == b.reason(other)
    assert themes_of(game, a) == themes_of(other, b)
    assert position_key(game) == position_key(other)


@pytest.mark.parametrize("salt", [1, 2])
def test_another_set_of_deals_keeps_a_clear_puzzle(salt: int) -> None:
    game = at(6, 113)
    assert verify(game, salt=salt).answers == verify(game).answers
