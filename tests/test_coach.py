"""The coach in the Play tab (issues 14, 25 and 41), through the widgets without a browser:
one judgement of the position behind the buttons, the Hint, the win chances and the What-if
table, started when the decision appears and refined for every surface at once; a review
built from the same judgements, whose numbering is the Replay slider's, whose buttons open
the position before the move, kept when the game is saved."""

from __future__ import annotations

import html
import json
import re
import threading

import pytest

from nidavellir.analysis.review import move_words
from nidavellir.bots import play_game
from nidavellir.bots.judge import estimate_position, finest
from nidavellir.cli import main
from widgets.app import play_app
from widgets.coach import hint_html
from widgets.dashboard import Dashboard
from widgets.replay import ReplayPanel

HINT = "search@10"
DEEP = "search@30"


def app_with_coach(seed: int = 1, players: int = 2, level: str = HINT):  # type: ignore[no-untyped-def]
    app = play_app(players=players, seats=["human"] + ["random"] * (players - 1), seed=seed,
                   bot_delay=0, coach={"level": level, "deep_level": DEEP})
    app.coach.wait()
    return app, app.coach


def to_a_pick(app, coach) -> None:  # type: ignore[no-untyped-def]
    session = app.session
    while session.game.decision.kind != "pick" or not session.is_human(
            session.game.decision.player):
        session.submit(session.game.legal_actions()[0])
        coach.wait()


def test_the_judgement_starts_with_the_decision_and_every_surface_shows_it() -> None:
    app, coach = app_with_coach()
    to_a_pick(app, coach)
    coach.wait()
    j = coach.judgement
    assert j is not None and j.level == HINT  # judged before anyone asked
    assert coach.timings["ready"] >= coach.timings["decision"]
    buttons = app.decision.control.buttons
    for notation, button in buttons.items():
        o = j.option(notation)
        assert f"{o.win:.0%} · ≈{o.score:.0f}" in button.description
        assert re.search(r"[+-]\d+ now", button.description)
        assert button.description.startswith("★") == (o.about_best and len(j.options) > 1)
    # The Hint is shown at once: the judgement is ready.
    coach.hint_button.click()
    assert coach.hint_text.value == hint_html(j)  # at once: in the click's own handler
    assert f"Hint: {j.say(j.best)}" in coach.hint_text.value
    assert "<code>" not in coach.hint_text.value  # no notation for a learner (issue 57)
    # The coach's move is drawn first: the first button of the controls plays it.
    control = app.decision.control
    assert list(control.coach_buttons)[:1] == [str(j.best)]
    assert [j.option(n) for n in control.coach_buttons] == j.about_best[:3]
    assert "nid-recommended" in buttons[str(j.best)]._dom_classes
    # The win bar is the recommended move's chance to win, from the same judgement.
    coach.show_bar.value = True
    coach.wait()
    assert f"{j.win[j.player]:.0%}" in coach.bar.value
    assert html.escape(j.say(j.best)) in coach.bar.value
    # Think longer: a finer judgement replaces it on every surface at once.
    coach.deeper_button.click()
    coach.wait()
    deep = coach.judgement
    assert deep is not j and deep.level == DEEP
    for notation, button in buttons.items():
        o = deep.option(notation)
        assert f"{o.win:.0%} · ≈{o.score:.0f}" in button.description
    assert coach.hint_text.value == hint_html(deep)
    assert f"{deep.win[deep.player]:.0%}" in coach.bar.value


def test_the_hint_compares_with_the_bid_you_selected() -> None:
    app, coach = app_with_coach()
    control = app.decision.control
    control.dropdowns[0].value, control.dropdowns[1].value, control.dropdowns[2].value = 4, 0, 1
    selected = control.selected()
    assert str(selected) == "bid 5 0 2"
    coach.hint_button.click()
    coach.wait()
    j = coach.last_hint
    if j.option(selected) is not j.options[0]:
        assert "compared with your choice (bid 5 on the laughing goblin, 0 on the dancing " \
            "dragon and 2 on the shining horse" in coach.hint_text.value.lower()
    # Moves in words only: no notation for a learner (issue 57; the notation is the files'
    # and the command line's).
    assert "<code>" not in coach.hint_text.value and "bid 5 0 2" not in coach.hint_text.value
    # The bid's own line: its place in the coach's order, nothing changes now.
    assert "This bid: the coach" in control.estimate.value
    assert f"{j.option(selected).win:.0%} chance to win" in control.estimate.value


def test_a_position_judged_before_shows_its_judgement_on_a_new_pages_buttons() -> None:
    """The judgement is kept: a second page at the same position has it at once, before
    the page listens to the coach, and its buttons show it all the same."""
    first, coach = app_with_coach(seed=7)
    j = coach.judgement
    second, again = app_with_coach(seed=7)
    assert again.judgement is j
    control = second.decision.control
    assert control.judgement is j
    control.dropdowns[0].value, control.dropdowns[1].value, control.dropdowns[2].value = 4, 0, 1
    assert f"{j.option(control.selected()).win:.0%} chance to win" in control.estimate.value


class HeldJudge:
    """The coach's judgements at ``level`` held until :meth:`release` (the rest as usual):
    a click answered while one is held did not wait for the coach, whatever the machine's
    speed (a limit in seconds failed on a busy machine: busy clean run 43)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, level: str) -> None:
        import importlib

        # The module (nidavellir.bots names its judge function the same).
        J = importlib.import_module("nidavellir.bots.judge")
        self.level, self.started, self.released = level, threading.Event(), threading.Event()
        self.waited_out = False
        real = J.judge

        def held(game, level=J.DEFAULT_LEVEL, **kwargs):  # type: ignore[no-untyped-def]
            if level == self.level:
                self.started.set()
                # The patience is a safety net: a click that waited for the coach ends it.
                self.waited_out = not self.released.wait(60)
            return real(game, level=level, **kwargs)

        monkeypatch.setattr(J, "judge", held)

    def release(self) -> None:
        self.released.set()


def test_a_hint_for_an_older_position_is_never_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    app, coach = app_with_coach()
    held = HeldJudge(monkeypatch, "search@400")
    coach.judging.deep_level = "search@400"
    coach.deeper_button.click()
    assert coach.hint_text.value == "<i>the coach is thinking…</i>"
    assert held.started.wait(60)
    try:  # the click is answered while the coach still judges the position before it
        assert app.session.submit(app.session.game.legal_actions()[0])
        assert not held.waited_out
    finally:
        held.release()
    coach.wait()
    assert "Hint" not in coach.hint_text.value
    assert coach.judgement is None or coach.judgement.player == app.session.game.decision.player


def test_hint_when_it_is_not_your_move_or_the_game_is_over() -> None:
    app, coach = app_with_coach()
    session = app.session
    while not session.game.is_over:
        session.submit(session.game.legal_actions()[0])
    coach.ask_hint()
    assert "over" in coach.hint_text.value
    assert coach.hint_button.disabled


def test_the_win_chance_bar_speaks_from_the_judgement_or_the_viewers_knowledge() -> None:
    app, coach = app_with_coach(seed=2, players=3)
    coach.bar_playouts = 20
    coach.show_bar.value = True
    coach.wait()
    j = coach.judgement
    assert all(f"{w:.0%}" in coach.bar.value for w in j.win if w > 0)
    # While no decision of yours is judged, from what you can see.
    wins, _ = estimate_position(app.session.game, app.session.viewer, 20)
    coach.judging.judgement = None
    app.session.seats[0] = "random"
    coach.refresh_bar()
    coach.wait()
    assert "chances to win, from what you can see" in coach.bar.value
    assert all(f"{w:.0%}" in coach.bar.value for w in wins if w > 0)


def test_every_player_is_on_the_win_bar_and_a_swing_is_explained() -> None:
    """Issue 57: a player at 0% stays on the bar (its key lists every player), and the bar
    says what happened since your last decision, with your chance to win then and now."""
    app, coach = app_with_coach(seed=2, players=3, level="search@8")
    names = app.session.game.names
    html_bar = coach._bar_html([1.0, 0.0, 0.0], [250.0, 180.0, 170.0])
    for name in names[1:]:
        assert f"{name} 0%" in html_bar
    session = app.session
    coach.show_bar.value = True
    first = coach.judgement
    assert first is not None and "Since your last decision" not in coach.bar.value
    # The learner follows the coach; the bots answer; the next decision of the learner.
    list(app.decision.control.coach_buttons.values())[0].click()
    coach.wait()
    j = coach.judgement
    assert j is not None and session.is_human(session.game.decision.player)
    # Your chance then: after the move you played, by the finest judgement of that
    # position (the one every surface showed).
    before = session.game.clone()
    before.undo_to(0)
    kept = finest(before)
    assert kept is not None
    then = kept.option(session.game.history[0][1]).win
    text = html.unescape(coach.bar.value)
    assert (f"Since your last decision (your chance to win {then:.0%} → "
            f"{j.win[j.player]:.0%}):") in text
    for seat in (1, 2):  # the bots' bids, face down, are said
        assert f"{names[seat]}: bid (face down)" in text


def test_clicks_stay_fast_while_the_coach_thinks(monkeypatch: pytest.MonkeyPatch) -> None:
    app, coach = app_with_coach()
    held = HeldJudge(monkeypatch, "search@2000")
    coach.judging.deep_level = "search@2000"
    coach.deeper_button.click()
    assert held.started.wait(60)
    try:  # a move while the coach thinks is played without waiting for it
        before = len(app.session.game.history)
        assert app.session.submit(app.session.game.legal_actions()[0])
        assert len(app.session.game.history) > before and not held.waited_out
    finally:
        held.release()
    coach.wait()


def finished_dashboard():  # type: ignore[no-untyped-def]
    # No live charts (drawn again at every move of Replay's slider and What-if's branch).
    dash = Dashboard(players=2, seats=("human", "random"), build_all=False, charts=False,
                     coach={"level": HINT, "review_level": "search@20"})
    dash.open_tab("play")
    app = dash.play
    assert app is not None
    session = app.session
    session.game = play_game(2, "random", seed=4)
    session.version += 1
    return dash, app


@pytest.mark.slow(reason="a whole game's review, then Replay and a What-if branch opened "
                        "from it, and the saved file read by every command: about 7 s of "
                        "CPU")
def test_review_lists_every_move_that_was_not_the_best_and_opens_the_position_before_it(
        tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    dash, app = finished_dashboard()
    coach = app.coach
    coach.review_level = "search@4"
    coach.review_workers = 1
    assert not coach.review_button.disabled
    coach.review_button.click()
    coach.wait()
    assert "best moves" in coach.review_status.value
    frame = coach.review_frame
    # The learner's decisions only (the human seat), each judged as the Hint judges it.
    humans = [i for i, (p, _) in enumerate(app.session.game.history) if p == 0]
    assert frame["step"].tolist() == humans
    sections = coach.review_box.children[1].children
    items = [row for section in sections for row in section.children[1:]]
    listed = frame[~frame["label"].isin(["best", "forced"])]
    assert len(items) == len(listed) > 0  # every move that was not the best
    text, buttons = items[0].children
    replay_button, branch_button = buttons.children
    number = replay_button.number
    row = frame[frame["number"] == number].iloc[0]
    # The move played named as it was clicked, in words (never the notation: issue 57).
    played_words = move_words(app.session.game, {int(row["step"]): (row["played"],)})
    assert f"Decision {number}: " in text.value
    assert html.escape(f"played: {played_words[int(row['step'])][0]}") in text.value
    assert f"<code>{row['played']}" not in text.value
    if row["reason"]:
        assert json.dumps(row["reason"])[1:20] in json.dumps(text.value)
    # The headline is the sum of its items.
    costly = frame[frame["label"].isin(["good", "inaccuracy", "mistake", "blunder"])]
    judged = frame[frame["label"] != "forced"]
    assert frame["player"].nunique() == 1  # the learner's seat only
    assert f"{costly['loss_points'].sum():.1f} points given up in all" in coach.review_status.value
    # Chances to win do not add up over a game: said per judged decision.
    assert (f"on average {costly['loss_win'].sum() / len(judged):.1%} chance to win given up "
            "a decision") in coach.review_status.value
    # Replay opens just before the decision: the better move can be tried there.
    replay_button.click()
    assert dash.tabs.selected_index == 2
    replay = dash.replay
    assert isinstance(replay, ReplayPanel) and replay.slider.value == number - 1
    assert len(replay.view.game.history) == number - 1
    assert f"Decision {number}" in replay.info.value and "better" in replay.info.value
    branch_button.click()
    branched = dash.whatif.branch_app.session.game
    assert len(branched.history) == number - 1
    assert row["best"] in {str(a) for a in branched.legal_actions()}

    # Saved from the Play tab, the game keeps its review; Replay opens it annotated.
    assert "reviewed" in app.files.download.value
    data = app.files.data()
    # One file format: the record, its review a part of it (docs/notation.md).
    assert data["format"] == "nidavellir-record" and "reviewed" in app.files.filename()
    assert len(data["review"]["decisions"]) == len(frame)
    fresh = ReplayPanel()
    assert fresh.load_text(json.dumps(data), "saved.json")
    fresh.slider.value = number - 1
    assert "better" in fresh.info.value
    # Reopened, the review shows whole: the headline, the graph and every listed move
    # with its buttons, which move Replay's slider.
    view = fresh.review_view
    assert "best moves" in view.headline.value and view.graph.outputs
    assert [b.number for b in view.replay_buttons] == [
        b.number for section in sections for row_box in section.children[1:]
        for b in row_box.children[1].children[:1]]
    view.replay_buttons[-1].click()
    assert fresh.slider.value == view.replay_buttons[-1].number - 1
    app.files.open_in_replay()
    assert "reviewed" in dash.replay.status.value
    # Saved from the page, the reviewed game is read by every command (issue 57).
    path = tmp_path / app.files.filename()
    assert app.files.save_to(str(path))
    capsys.readouterr()
    assert main(["hint", str(path), "--at", str(number), "--level", "search@4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["decision"] == number
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "The review saved with this game:" in out and f"{number}. " in out
    assert main(["review", str(path), "--level", "search@4", "--seats", "1",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "nothing judged again" in out and "best moves" in out


@pytest.mark.slow(reason="a whole game's review before the new game: about 3 s of CPU")
def test_a_new_game_clears_what_belonged_to_the_old_one() -> None:
    dash, app = finished_dashboard()
    coach = app.coach
    coach.review_level, coach.review_workers = "search@4", 1
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
    dash = Dashboard(players=2, seats=("human", "random"), build_all=False,
                     coach={"level": HINT})
    dash.open_tab("play")
    dash.open_tab("whatif")
    panel = dash.whatif
    assert panel is not None and dash.play is not None
    panel.level.options = [("test", HINT)]
    panel.level.value = HINT
    assert panel.study()
    panel.wait()
    html = panel.table.value
    for words in ("expected final score", "chance to win", "now", "Best first",
                  "within the noise"):
        assert words in html
    assert "ci_low" not in html and "benchmarks" not in html and "margin" not in html
    # One judgement per position: the finest made for it (here the Play tab's coach's).
    j = finest(dash.play.session.game)
    assert j is not None and panel._last is not None and panel._last[1][1] is j
    assert f"★ {j.best}" in html
    # The rows in the coach's order, the same as the Play tab's Hint.
    rows = re.findall(r"<tr><td>(?:★ )?([^<]+?)(?: <span|</td>)", html)
    assert rows == [str(o.action) for o in j.options]
    panel.advanced.value = True
    assert "margin over the best opponent" in panel.table.value


@pytest.mark.slow(reason="What-if's judgement of two positions of a game: about 3 s of CPU")
def test_whatif_marks_a_study_of_a_past_decision_until_studied_again() -> None:
    """Issue 44: the Play game moves on after a study: the study says in words which
    decision it scored and which one the game is at; studying again takes the mark off,
    and an undo back to the studied decision takes it off too."""
    dash = Dashboard(players=2, seats=("human", "human"), build_all=False)
    dash.open_tab("play")
    dash.open_tab("whatif")
    panel = dash.whatif
    assert panel is not None and dash.play is not None
    panel.level.options = [("test", HINT)]
    panel.level.value = HINT
    session = dash.play.session
    assert panel.study()
    panel.wait()
    assert panel.table.value and "nid-whatif-past" not in panel._dom_classes
    session.submit(str(session.game.legal_actions()[0]))
    assert "nid-whatif-past" in panel._dom_classes
    assert "This study is of decision 1; the Play game is now at decision 2" in \
        panel.status.value
    assert session.undo()
    assert "nid-whatif-past" not in panel._dom_classes and panel.status.value == ""
    session.submit(str(session.game.legal_actions()[0]))
    assert panel.study()
    panel.wait()
    assert "nid-whatif-past" not in panel._dom_classes and "This study" not in \
        panel.status.value


def test_the_review_depth_of_the_installation_reads_in_words() -> None:
    """A review level set by the installation (``search@20``) is offered in words, in the
    page's language, not as the level's code."""
    from nidavellir import i18n

    with i18n.using("de"):
        dash = Dashboard(players=2, seats=("human", "random"), build_all=False,
                         coach={"level": HINT, "review_level": "search@20"})
        dash.open_tab("play")
    assert dash.play is not None
    labels = [label for label, _level in dash.play.coach.review_depth.options]
    assert "Auswertung (eine Suche mit 20 Iterationen)" in labels, labels
    assert not any("search@" in label for label in labels), labels


def test_a_hint_judged_at_once_is_never_covered_by_thinking(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The Hint asked with no judgement ready starts one; at a small level on an idle
    core it can be adopted (and the Hint given) before the click's handler writes
    "the coach is thinking…", which then covered the Hint for good (a learner of the
    30-learner class benchmark waited on it; the coach ahead off, quick level). Here the
    judgement runs inside the click, the extreme of that race: the Hint stays."""
    from nidavellir.play.runner import Workers

    app = play_app(players=2, seats=["human", "random"], seed=1, bot_delay=0,
                   coach={"level": "search@6", "deep_level": DEEP, "ahead": False})
    coach = app.coach
    coach.wait()
    assert coach.judgement is None  # it judges only when asked
    monkeypatch.setattr(Workers, "run", lambda self, work: self._guarded(work))
    coach.hint_button.click()
    assert coach.last_hint is not None and not coach.judging.hint_pending
    assert coach.hint_text.value == hint_html(coach.last_hint)
    # The win-chance bar, shown now, speaks from the same judgement (not "thinking").
    coach.show_bar.value = True
    assert "thinking" not in coach.bar.value


def test_a_hint_on_its_way_says_where_the_coachs_search_leans() -> None:
    """A busy server: the Hint asked and not ready says the move the coach's search
    prefers so far, as such; then the Hint itself replaces it."""
    app = play_app(players=2, seats=["human", "random"], seed=1, bot_delay=0,
                   coach={"level": "search@150", "deep_level": DEEP, "ahead": False})
    coach = app.coach
    coach.wait()
    assert coach.judgement is None  # it judges only when asked
    shown: list[str] = []
    coach.hint_text.observe(lambda change: shown.append(change["new"]), "value")
    coach.hint_button.click()
    coach.wait()
    leaning = [text for text in shown if "leans to" in text]
    assert leaning, shown
    assert all(text.startswith("<i>") and "the figures come when it is done" in text
               for text in leaning)
    assert coach.last_hint is not None
    assert coach.hint_text.value == hint_html(coach.last_hint)
    assert coach.judging.leaning is None and not coach.judging.hint_pending


def test_a_judgement_of_the_decision_just_played_is_never_drawn_on_the_next() -> None:
    """The coach's thread checks that its position is still on the table, then draws its
    figures; a click in between, when the same player decides again (here the last bid,
    then the first card to take; a hero recruited, then a card, in the browser test),
    drew the judgement of the decision just played on the next decision's buttons: a
    coach's row offering bids under "take a card", buttons that did nothing.
    Drawn on the buttons is only a judgement of the position on the table."""
    app = play_app(players=2, seats=["human", "human"], seed=6, bot_delay=0,
                   coach={"level": HINT, "deep_level": DEEP})
    session, coach = app.session, app.coach
    coach.wait()
    for _ in range(200):  # to a move after which the same player decides again
        game = session.game
        d = game.decision
        assert d is not None
        move = game.legal_actions()[0]
        after = game.clone()
        after.apply(move)
        if (len(game.legal_actions()) > 1 and after.decision is not None
                and after.decision.player == d.player and len(after.legal_actions()) > 1):
            break
        session.submit(move)
        coach.wait()
    else:
        pytest.fail("no two decisions of one player in a row")
    coach.wait()
    played = coach.judgement
    assert played is not None and len(played.options) > 1
    session.submit(move)
    coach.wait()
    legal = {str(a) for a in session.game.legal_actions()}
    control = app.decision.control
    assert control is not None
    drawn = dict(control.coach_buttons)
    assert drawn and set(drawn) <= legal
    # The judgement of the decision just played, arriving now (from the coach's thread,
    # whose check passed before the click): the next decision's buttons keep their own.
    app.decision.show_estimates(played)
    assert app.decision.control is control and control.coach_buttons == drawn
    assert control.judgement is coach.judgement
