"""The coach in the Play tab (issue 14), through the widgets without a browser."""

from __future__ import annotations

import threading
import time

import pytest

from nidavellir.bots import play_game
from nidavellir.bots.search import estimate_position
from widgets import play_app
from widgets.coach import Coach, hint_reason
from widgets.dashboard import Dashboard
from widgets.replay import ReplayPanel


def finished_app():  # type: ignore[no-untyped-def]
    app = play_app(players=2, seats=["human", "random"], seed=4, bot_delay=0)
    session = app.session
    while not session.game.is_over:
        session.submit(session.game.legal_actions()[0])
    return app


def test_hint_shows_the_best_move_and_a_reason() -> None:
    app = play_app(players=2, seats=["human", "random"], seed=1, bot_delay=0)
    coach = Coach(app.session, hint_iterations=60)
    coach.hint_button.click()
    coach.wait()
    text = coach.hint_text.value
    best = str(coach.last_hint.best)
    assert text.startswith("<b>Hint: ") and best in text
    assert "expected points over" in text
    assert coach.last_hint.best in app.session.game.legal_actions()


def test_a_hint_for_an_older_position_is_never_shown() -> None:
    app = play_app(players=2, seats=["human", "random"], seed=1, bot_delay=0)
    coach = Coach(app.session, hint_iterations=400)
    coach.hint_button.click()
    assert coach.hint_text.value == "<i>thinking…</i>"
    # The player moves on while the coach thinks: the click is answered at once.
    start = time.perf_counter()
    assert app.session.submit(app.session.game.legal_actions()[0])
    assert time.perf_counter() - start < 1.0
    coach.wait()
    assert "Hint" not in coach.hint_text.value


def test_hint_when_it_is_not_your_move_or_the_game_is_over() -> None:
    app = finished_app()
    coach = app.coach
    coach.hint_button.click()
    assert "over" in coach.hint_text.value


def test_the_win_chance_bar_uses_the_viewers_knowledge() -> None:
    app = play_app(players=3, seats=["human", "random", "random"], seed=2, bot_delay=0)
    coach = Coach(app.session, bar_playouts=30)
    coach.show_bar.value = True
    coach.wait()
    assert "win chances (from your view)" in coach.bar.value
    wins, _ = estimate_position(app.session.game, app.session.viewer, 30,
                                seed=app.session.version)
    shown = [f"{w:.0%}" for w in wins if w > 0]
    assert all(s in coach.bar.value for s in shown)
    # After a move the bar is refreshed for the new position.
    app.session.submit(app.session.game.legal_actions()[0])
    coach.wait()
    assert "win chances" in coach.bar.value


def test_review_lists_the_mistakes_and_a_click_opens_replay() -> None:
    dash = Dashboard(players=2, seats=("human", "random"), build_all=False)
    dash.open_tab("play")
    app = dash.play
    session = app.session
    # A finished game put on the table at once (the live charts would redraw after every
    # one of its decisions otherwise).
    session.game = play_game(2, "random", seed=4)
    session.version += 1
    coach = app.coach
    coach.review_level, coach.review_playouts = "search@20", 6
    assert not coach.review_button.disabled
    coach.review_button.click()
    coach.wait(timeout=300)
    assert "best moves" in coach.review_status.value
    frame = coach.review_frame
    assert len(frame) == len(session.game.history)
    mistakes = [b for b in coach.review_box.children[1].children if hasattr(b, "on_click")]
    if not mistakes:
        pytest.skip("no mistake to click in this game")
    first = mistakes[0]
    step = int(first.description.split("]")[0][1:])
    first.click()
    assert dash.tabs.selected_index == 2
    replay = dash.replay
    assert isinstance(replay, ReplayPanel) and replay.slider.value == step + 1
    assert "better" in replay.info.value


def test_reasons_name_the_categories() -> None:
    from nidavellir.bots import make_bot

    game = play_game(3, "random", seed=3)
    game.undo_to(20)
    analysis = make_bot("search", seed=1, iterations=120).analyse(game, seed=1)
    reason = hint_reason(analysis)
    assert "expected points over" in reason and "win chance" in reason


def test_clicks_stay_fast_while_the_coach_thinks() -> None:
    app = play_app(players=2, seats=["human", "random"], seed=5, bot_delay=0)
    coach = Coach(app.session, hint_seconds=2.0)
    coach.hint_button.click()
    assert any(t.is_alive() for t in threading.enumerate() if t.daemon)
    start = time.perf_counter()
    app.session.submit(app.session.game.legal_actions()[0])
    assert time.perf_counter() - start < 1.0
    coach.wait()
