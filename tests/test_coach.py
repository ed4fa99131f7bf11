"""The coach in the Play tab (issues 14 and 25), through the widgets without a browser: one
judgement of the position behind the buttons, the Hint, the win chances and the What-if
table; a review whose numbering is the Replay slider's, kept when the game is saved."""

from __future__ import annotations

import json
import re
import threading
import time

from nidavellir.bots import play_game
from nidavellir.bots.judge import estimate_position, judge
from widgets import play_app
from widgets.coach import Coach, hint_html
from widgets.dashboard import Dashboard
from widgets.replay import ReplayPanel

QUICK = "search@10"
HINT = "search@40"


def app_with_coach(seed: int = 1, players: int = 2, quick: str | None = QUICK):  # type: ignore[no-untyped-def]
    app = play_app(players=players, seats=["human"] + ["random"] * (players - 1), seed=seed,
                   bot_delay=0)
    # The app's own coach stays quiet: two coaches feeding the same buttons would race.
    app.coach.listeners.remove(app.decision.show_estimates)
    app.coach.quick_level = None
    app.coach.wait()
    coach = Coach(app.session, level=HINT, quick_level=quick)
    coach.listeners.append(app.decision.show_estimates)
    coach.selected = app.decision.selected_action
    app.decision.judgement_for = lambda: coach.judgement
    coach._changed()  # judge the position on the table now that the buttons listen
    return app, coach


def to_a_pick(app) -> None:  # type: ignore[no-untyped-def]
    session = app.session
    while session.game.decision.kind != "pick" or not session.is_human(
            session.game.decision.player):
        session.submit(session.game.legal_actions()[0])


def test_the_buttons_show_the_coachs_two_numbers_and_the_hint_refines_them() -> None:
    app, coach = app_with_coach()
    to_a_pick(app)
    coach.wait()
    quick = coach.judgement
    assert quick is not None and quick.level == QUICK
    buttons = app.decision.control.buttons
    for notation, button in buttons.items():
        o = quick.option(notation)
        assert f"≈{o.score:.0f} at the end" in button.description
        assert re.search(r"[+-]\d+ now", button.description)
    coach.hint_button.click()
    coach.wait()
    refined = coach.judgement
    assert refined is not quick and refined.level == HINT
    # One voice: the buttons now show the judgement the Hint speaks from.
    for notation, button in buttons.items():
        assert f"≈{refined.option(notation).score:.0f} at the end" in button.description
    assert coach.hint_text.value == hint_html(refined)
    assert f"Hint: {refined.best}" in coach.hint_text.value


def test_the_hint_compares_with_the_bid_you_selected() -> None:
    app, coach = app_with_coach(quick=None)
    control = app.decision.control
    control.dropdowns[0].value, control.dropdowns[1].value, control.dropdowns[2].value = 4, 0, 1
    selected = control.selected()
    assert str(selected) == "bid 5 0 2"
    coach.hint_button.click()
    coach.wait()
    j = coach.last_hint
    assert j.selected == selected
    if j.best != selected:
        assert "compared with your choice, bid 5 0 2" in coach.hint_text.value
    # The bid's own line: its estimate at the end, nothing changes now.
    assert "This bid: about" in control.estimate.value
    assert f"{j.option(selected).score:.0f} points at the end" in control.estimate.value


def test_a_hint_for_an_older_position_is_never_shown() -> None:
    app, coach = app_with_coach(quick=None)
    coach.level = "search@400"
    coach.hint_button.click()
    assert coach.hint_text.value == "<i>thinking…</i>"
    start = time.perf_counter()
    assert app.session.submit(app.session.game.legal_actions()[0])
    assert time.perf_counter() - start < 1.0  # the click is answered at once
    coach.wait()
    assert "Hint" not in coach.hint_text.value
    assert coach.judgement is None or coach.judgement.player == app.session.game.decision.player


def test_hint_when_it_is_not_your_move_or_the_game_is_over() -> None:
    app, coach = app_with_coach(quick=None)
    session = app.session
    while not session.game.is_over:
        session.submit(session.game.legal_actions()[0])
    coach.ask_hint()
    assert "over" in coach.hint_text.value
    assert coach.hint_button.disabled


def test_the_win_chance_bar_speaks_from_the_judgement_or_the_viewers_knowledge() -> None:
    app, coach = app_with_coach(seed=2, players=3, quick=None)
    coach.bar_playouts = 20
    coach.show_bar.value = True
    coach.wait()
    assert "chances to win, from what you can see" in coach.bar.value
    wins, _ = estimate_position(app.session.game, app.session.viewer, 20)
    assert all(f"{w:.0%}" in coach.bar.value for w in wins if w > 0)
    coach.hint_button.click()
    coach.wait()
    assert all(f"{w:.0%}" in coach.bar.value for w in coach.judgement.win if w > 0)


def test_clicks_stay_fast_while_the_coach_thinks() -> None:
    app, coach = app_with_coach(quick=None)
    coach.level = "search@2000"
    coach.hint_button.click()
    assert any(t.is_alive() for t in threading.enumerate() if t.daemon)
    start = time.perf_counter()
    app.session.submit(app.session.game.legal_actions()[0])
    assert time.perf_counter() - start < 1.0
    coach.wait()


def finished_dashboard():  # type: ignore[no-untyped-def]
    dash = Dashboard(players=2, seats=("human", "random"), build_all=False)
    dash.open_tab("play")
    app = dash.play
    session = app.session
    session.game = play_game(2, "random", seed=4)
    session.version += 1
    return dash, app


def test_review_lists_the_mistakes_with_reasons_numbered_as_replay() -> None:
    dash, app = finished_dashboard()
    coach = app.coach
    coach.review_level, coach.review_playouts = "search@20", 6
    assert not coach.review_button.disabled
    coach.review_button.click()
    coach.wait()
    assert "best moves" in coach.review_status.value
    frame = coach.review_frame
    assert len(frame) == len(app.session.game.history)
    rows = coach.review_box.children[1].children
    mistakes = [r for r in rows if len(getattr(r, "children", ())) == 2]
    assert mistakes, "no mistake in this random game"
    text, button = mistakes[0].children
    number = button.number
    row = frame[frame["number"] == number].iloc[0]
    assert f"Decision {number}: {row['played']}" in text.value
    assert row["reason"] and json.dumps(row["reason"])[1:20] in json.dumps(text.value)
    button.click()
    assert dash.tabs.selected_index == 2
    replay = dash.replay
    assert isinstance(replay, ReplayPanel) and replay.slider.value == number
    assert f"Decision {number}:" in replay.info.value and "better" in replay.info.value

    # Saved from the Play tab, the game keeps its review; Replay opens it annotated.
    data = app.files.data()
    assert data["format"] == "nidavellir-review" and "reviewed" in app.files.filename()
    fresh = ReplayPanel()
    assert fresh.load_text(json.dumps(data), "saved.json")
    fresh.slider.value = number
    assert "better" in fresh.info.value


def test_a_new_game_clears_what_belonged_to_the_old_one() -> None:
    dash, app = finished_dashboard()
    coach = app.coach
    coach.review_level, coach.review_playouts = "search@4", 2
    coach.review_button.click()
    coach.wait()
    assert coach.review_box.children
    app.files.save_to("/nonexistent-folder/x.json")
    assert app.files.message.value
    dash.open_tab("whatif")
    dash.whatif.study()
    assert dash.whatif.status.value  # "Nothing to score" on a finished game
    assert app.session.play_again()
    assert coach.review_box.children == () and coach.review_status.value == ""
    assert app.files.message.value == ""
    assert dash.whatif.status.value == "" and dash.whatif.table.value == ""
    assert "reviewed" not in app.files.filename()


def test_whatif_shows_the_coachs_judgement_in_words() -> None:
    dash = Dashboard(players=2, seats=("human", "random"), build_all=False)
    dash.open_tab("play")
    dash.open_tab("whatif")
    panel = dash.whatif
    panel.level.options = [("test", HINT)]
    panel.level.value = HINT
    assert panel.study()
    panel.wait()
    html = panel.table.value
    for words in ("expected final score", "chance to win", "± how sure",
                  "if the game ended now", "Best first"):
        assert words in html
    assert "ci_low" not in html and "benchmarks" not in html and "margin" not in html
    j = judge(dash.play.session.game, level=HINT)
    assert f"★ {j.best}" in html
    panel.advanced.value = True
    assert "margin over the best opponent" in panel.table.value


def test_whatif_marks_a_study_of_a_past_decision_until_studied_again() -> None:
    """Issue 44: the Play game moves on after a study: the study says in words which
    decision it scored and which one the game is at; studying again takes the mark off,
    and an undo back to the studied decision takes it off too."""
    dash = Dashboard(players=2, seats=("human", "human"), build_all=False)
    dash.open_tab("play")
    dash.open_tab("whatif")
    panel = dash.whatif
    panel.level.options = [("test", HINT)]
    panel.level.value = HINT
    session = dash.play.session
    assert panel.study()
    panel.wait()
    assert panel.table.value and "nid-whatif-past" not in panel._dom_classes
    session.submit(str(session.game.legal_actions()[0]))
    assert "nid-whatif-past" in panel._dom_classes
    assert "This study is of decision 0; the Play game is now at decision 1" in \
        panel.status.value
    assert session.undo()
    assert "nid-whatif-past" not in panel._dom_classes and panel.status.value == ""
    session.submit(str(session.game.legal_actions()[0]))
    assert panel.study()
    panel.wait()
    assert "nid-whatif-past" not in panel._dom_classes and "This study" not in \
        panel.status.value
