"""The whole dashboard in the pseudo-language (issue 46): every tab, the three walkthroughs
step by step, the five probability lessons through prediction, simulation and exact
answer, a replayed game, What-if: no word outside the catalogues' ⟦…⟧ markers.

The page's model is driven as a learner drives it (the walkthrough's *Show me* and *Next*,
a lesson's *Submit*, *Simulate* and *Show the exact answer*, Replay's positions), and every
text of the widgets is read as a browser shows it (tests/test_play_tab_language.py's
reader, plus the Plotly figures' titles, axes, legends and notes). Allowed outside the
markers: the seats' names (data), notation (card tokens, the actions' verbs) and the card
panels' rulebook citations (quotations in the rulebook's own language). The Play tab's own
game is tests/test_play_tab_language.py's."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_play_tab_language import _shown, pseudo  # noqa: F401  (the fixture)

from nidavellir import cards as C
from nidavellir.actions import PLACES
from nidavellir.i18n import escaped
from nidavellir.lessons import Library
from nidavellir.rules.base import CHOICES
from widgets.charts import PLOTLY_MIME


def _figures(widget: Any) -> list[str]:
    """The words of the Plotly figures in a widget tree: a FigureWidget's, and those an
    Output shows (the live charts): titles, axis titles, notes, legend names."""
    import ipywidgets as W
    import plotly.graph_objects as go

    specs: list[dict[str, Any]] = []
    if isinstance(widget, go.FigureWidget):
        specs.append(widget.to_plotly_json())
    if isinstance(widget, W.Output):
        specs += [o["data"][PLOTLY_MIME] for o in widget.outputs
                  if PLOTLY_MIME in o.get("data", {})]
    out: list[str] = []
    for spec in specs:
        layout = spec.get("layout", {})
        out.append((layout.get("title") or {}).get("text") or "")
        for key, axis in layout.items():
            if key.startswith(("xaxis", "yaxis")) and isinstance(axis, dict):
                out.append((axis.get("title") or {}).get("text") or "")
        out += [a.get("text") or "" for a in layout.get("annotations", ())]
        out += [t.get("name") or "" for t in spec.get("data", ()) if t.get("showlegend", True)]
    for child in getattr(widget, "children", ()):
        out += _figures(child)
    return [re.sub(r"<[^>]+>", " ", t) for t in out if t]


@pytest.mark.slow(reason='every tab of the dashboard, its walkthroughs and lessons built and '
                        'read in the pseudo-language: about 7 s of CPU')
def test_every_tab_walkthrough_and_lesson_shows_no_word_outside_the_catalogues(
        pseudo: None) -> None:  # noqa: F811
    from widgets.dashboard import TABS, Dashboard

    dash = Dashboard(build_all=True)
    allowed = {w for c in C.ALL_CARDS for w in re.split(r"[/\s]", c.token)}
    allowed |= {verb for cls in CHOICES.values() for verb in cls.verbs}
    allowed |= set(PLACES)  # a coin's place in the notation: `transform 2@hand`
    escapes: dict[tuple[str, str], str] = {}

    def read(where: str, widget: Any, names: tuple[str, ...] = ()) -> None:
        words = allowed | {w for n in names for w in n.split()}
        for text in [*_shown(widget), *_figures(widget)]:
            for word in escaped(text, words):
                escapes.setdefault((where, word), text[:160])

    seats = tuple(dash.play.session.game.names) if dash.play is not None else ()
    # The puzzle on screen: its buttons' tooltips are moves in notation (the same in every
    # language, docs/notation.md), e.g. ``enlist first``.
    assert dash.puzzles is not None and dash.puzzles.puzzle is not None
    notation = {w for a in dash.puzzles.puzzle.game().legal_actions()
                for w in re.split(r"[\s/@]", str(a)) if w}
    # The walkthrough tab shows a lesson's table, whose seats its file names (You, Bo, Cy).
    lesson_names = tuple(n for lesson in Library().lessons("walkthrough") for n in lesson.names)
    for key, _title in TABS:
        shown_names = {"puzzles": seats + tuple(notation),
                       "walkthrough": seats + lesson_names}.get(key, seats)
        read(f"tab {key}", dash.boxes[key], shown_names)
    walkthroughs = dash.walkthrough
    assert walkthroughs is not None
    steps = 0
    for lesson in Library().lessons("walkthrough"):
        app = walkthroughs.choose(lesson.key)
        seen = set()
        while True:
            while True:  # the step read, its move shown (it may follow on to the next)
                read(f"walkthrough {lesson.key}", walkthroughs, lesson.names)
                seen.add(app.wt.index)
                if not app.wt.needs_move:
                    break
                assert app._show_me()
            if not app.wt.can_next:
                break
            assert app.next()
        assert seen == set(range(len(lesson.steps))), lesson.key
        steps += len(seen)
    assert steps >= 60
    lessons = dash.lessons
    assert lessons is not None
    answered = 0
    for plesson in Library().lessons("probability"):
        papp = lessons.choose(plesson.key)
        for _ in plesson.steps:
            if papp.submit():
                assert papp.simulate() is not None and papp.reveal()
                answered += 1
            read(f"lesson {plesson.key}", lessons)
            papp.next()
    assert answered >= 15
    replay = dash.replay
    assert replay is not None and replay.load_walkthrough()
    names = tuple(replay.game_at(0).names)
    for index in (1, replay.slider.max // 2, replay.slider.max):
        replay.slider.value = index  # as the page's slider does
        read("replay", replay, names)
    assert any("⟦" in t for t in _figures(replay)), "the replay's charts were not read"
    play = dash.play_charts
    assert play is not None
    read("play charts", play, seats)
    assert not escapes, "\n".join(f"{where}: {word!r} in {text!r}"
                                  for (where, word), text in sorted(escapes.items()))


@pytest.mark.slow(reason='a whole game played and reviewed in the pseudo-language: about 5 s of '
                        'CPU')
def test_the_games_review_shows_no_word_outside_the_catalogues(
        pseudo: None) -> None:  # noqa: F811
    """The coach's review of a finished game in the pseudo-language: its headline, every
    reviewed move, its chart (title, axes, legend) and its depth menu (a level set by the
    installation in words, not ``search@4``)."""
    from nidavellir.bots import play_game
    from widgets.dashboard import Dashboard

    dash = Dashboard(players=2, seats=("human", "random"), build_all=False,
                     coach={"level": "search@4", "review_level": "search@4"})
    dash.open_tab("play")
    app = dash.play
    assert app is not None
    app.session.game = play_game(2, "random", seed=4)
    app.session.version += 1
    coach = app.coach
    coach.review_workers = 1
    coach.review_button.click()
    coach.wait()
    assert coach.review_box.children
    names = tuple(app.session.game.names)
    allowed = {w for c in C.ALL_CARDS for w in re.split(r"[/\s]", c.token)}
    allowed |= {verb for cls in CHOICES.values() for verb in cls.verbs} | set(PLACES)
    allowed |= {w for n in names for w in n.split()}
    texts = [*_shown(coach.review_status), *_shown(coach.review_box),
             *_shown(coach.review_depth), *_figures(coach.review_box)]
    assert any("⟦" in t for t in _figures(coach.review_box)), "the review's chart was not read"
    escapes = {word: text[:160] for text in texts for word in escaped(text, allowed)}
    assert not escapes, escapes


@pytest.mark.slow(reason="What-if's judged options, two finished games compared, a "
                         "walkthrough's answers and Replay of the Play game, in the "
                         "pseudo-language: about 3 s of CPU")
def test_whatif_the_walkthroughs_answers_and_your_game_show_no_word_outside_the_catalogues(
        pseudo: None) -> None:  # noqa: F811
    """The texts a learner meets after a click that the tab walk above does not make: What-if's
    table of judged options (its sentence, column heads, "the same as"), the comparison of a
    branch with the original game, a walkthrough's answer to an empty, a misspelt, an
    illegal and another legal move, and Replay's name for the game of the Play tab."""
    import ipywidgets as W

    from nidavellir.analysis.whatif import compare, what_if
    from nidavellir.bots import play_game
    from nidavellir.bots.judge import judge
    from nidavellir.lessons.walkthrough import Walkthrough
    from widgets.dashboard import Dashboard, comparison_html, whatif_html

    allowed = {w for c in C.ALL_CARDS for w in re.split(r"[/\s]", c.token)}
    allowed |= {verb for cls in CHOICES.values() for verb in cls.verbs} | set(PLACES)
    texts: list[tuple[str, str]] = []

    def read(where: str, markup: str, names: tuple[str, ...] = ()) -> None:
        texts.extend((where, t) for t in _shown(W.HTML(markup)))
        allowed.update(w for n in names for w in n.split())

    game = play_game(3, "random", seed=8)
    game.undo_to(12)
    judgement = judge(game, level="search@8")
    assert len(judgement.options) > 1 and not judgement.exact
    frame = what_if(game, judgement=judgement)
    read("What-if", whatif_html(game, frame, judgement, advanced=True), game.names)
    assert "⟦" in texts[-1][1]
    ended = play_game(3, "random", seed=8)
    read("What-if's comparison",
         comparison_html(compare(ended, play_game(3, "random", seed=9),
                                 labels=("original", "branch"))), ended.names)
    lesson = Library().lessons("walkthrough")[0]
    wt = Walkthrough(lesson)
    while not wt.step.move:
        assert wt.next()
    taught = wt.game.parse(wt.step.move)
    legal = [str(a) for a in wt.game.legal_actions() if a != taught]
    answers = ["", "take", "take Z9", "take W9", "bid 1 1 1", *legal[:3]]
    for answer in answers:
        ok, said = wt.check_move(answer)
        assert not ok or said, answer
        read(f"walkthrough answer to {answer!r}", said, lesson.names)
    dash = Dashboard(players=2, seats=("human", "random"), build_all=False)
    dash.open_game(ended)
    assert dash.replay is not None
    read("Replay of your game", dash.replay.status.value, ended.names)
    escapes = {(where, word): text[:160] for where, text in texts
               for word in escaped(text, allowed)}
    assert not escapes, "\n".join(f"{where}: {word!r} in {text!r}"
                                  for (where, word), text in sorted(escapes.items()))
