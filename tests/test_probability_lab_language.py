"""The free probability lab in the pseudo-language, in German and in French (issue 46).

The lab (:class:`widgets.lessons.LessonApp`, the Probability lessons tab's last page) is
built in ``qps`` (every translated message marked ⟦…⟧) and driven as a learner drives it:
every kind of question chosen, simulated, its quiz guessed and checked, with and without
*Use the current game*, a bad value typed (the error it says), an unknown question, and
:func:`widgets.lessons.reveal`'s button. Every text of its widgets is read as a browser
shows it (tests/test_dashboard_language.py's reader: texts, labels, tooltips,
placeholders, options, and the charts' titles, axes and legends). A word outside the
markers is English that escaped the catalogues. Allowed outside: notation (card tokens,
the formulas' C(n, k), P(...), E[...], X, k) and what the learner typed.
Every labelled control has a tooltip: ipywidgets 8 shows "null" over a label without one.

The German and French pages are spot-checked: their words are there, no English sentence
is."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import ipywidgets as W
import pytest
from test_dashboard_language import _figures
from test_play_tab_language import _shown, pseudo  # noqa: F401  (the fixture)

from nidavellir import Game
from nidavellir import cards as C
from nidavellir.analysis.probability import QUESTION_KINDS
from nidavellir.i18n import escaped, using
from widgets.lessons import LessonApp, lessons_app, reveal

#: Notation a formula or a question writes in every language: C(n, k), P(...), E[...],
#: the counted outcome X and its value k; a trade's formula names the code that counts it.
NOTATION = {"C", "P", "E", "X", "k", "x", "Treasury", "lookup"}
#: What the learner types into the page (an unknown question's key, a bad treasury).
TYPED = {"nope", "oops"}


def _texts(app: Any) -> list[str]:
    return [*_shown(app), *_figures(app)]


def _untitled(widget: Any) -> list[str]:
    """The labelled controls without a tooltip: ipywidgets 8 shows "null" over their label."""
    from ipywidgets.widgets.widget_description import DescriptionWidget

    out = []
    if isinstance(widget, DescriptionWidget) and not isinstance(widget, W.Button | W.HTML):
        if widget.description and widget.tooltip is None:
            out.append(widget.description)
    for child in getattr(widget, "children", ()):
        out += _untitled(child)
    return out


def _walk(app: LessonApp) -> Iterator[str]:
    """Every kind of question on the page: chosen, simulated, then guessed in the quiz;
    yields the question's key after each step, with the page showing its result."""
    for key, kind in QUESTION_KINDS.items():
        app.quiz.value = False
        app.question.value = key
        app.trials.value = app.trials.min if kind.max_trials else 200
        assert app.run() is not None, (key, app.error.value)
        assert app.answer_shown and app.exact_html.value and app.estimate_html.value
        yield key
        app.quiz.value = True
        app.guess.value = app.guess.max / 3
        app.check_button.click()
        assert app.feedback.value and app.answer_shown, key
        yield key


def _errors(app: LessonApp) -> Iterator[str]:
    """A bad value typed (said on the page), and a bad hand."""
    app.use_game.value = False
    app.quiz.value = False
    app.question.value = "trade"
    app.controls["treasury"].value = "5 7x2 oops"
    app.run_button.click()
    assert app.error.value and not app.last
    yield "a bad treasury"
    app.controls["treasury"].value = ""
    app.question.value = "bid_tie"
    app.controls["hand_a"].value = "0 2"
    app.run_button.click()
    assert app.error.value and not app.last
    yield "a hand of 2 coins"


@pytest.mark.slow(reason='every kind of question simulated and its quiz checked in the '
                        'pseudo-language: about 2 s of CPU')
def test_the_lab_shows_no_word_outside_the_catalogues(pseudo: None) -> None:  # noqa: F811
    allowed = {w for c in C.ALL_CARDS for w in re.split(r"[/\s]", c.token)}
    allowed |= NOTATION | TYPED
    escapes: dict[tuple[str, str], str] = {}

    def read(where: str, widget: Any) -> None:
        for text in _texts(widget):
            for word in escaped(text, allowed):
                escapes.setdefault((where, word), text[:160])

    app = lessons_app()
    read("the page as it opens", app)
    every = [app.question, app.use_game, app.trials, app.seed, app.quiz, app.guess,
             *app.controls.values()]
    assert not _untitled(W.VBox(every)), _untitled(W.VBox(every))
    for key in _walk(app):
        read(f"{key} (by hand)", app)
    for what in _errors(app):
        read(what, app)
    game = Game.new(players=4, seed=3)
    app.set_game(game)
    assert app.using_game
    for key in _walk(app):
        read(f"{key} (the current game)", app)
    game_over = LessonApp(Game.new(players=2, seed=1))
    game_over._game_changed(None)
    read("a game attached", game_over)
    unknown = lessons_app(question="nope")
    assert unknown.error.value
    read("an unknown question", unknown)
    app.question.value = "tavern"
    app.run()
    for answer in (app.last["exact"], app.last["estimate"],
                   app.last["question"].ask("none").exact):
        box = reveal(answer, "")
        read("reveal (hidden)", box)
        box.children[0].click()
        read("reveal (shown)", box)
    app.question.value = "round"
    app.run()
    box = reveal(app.last["question"].distribution)
    box.children[0].click()
    read("reveal a distribution", box)
    assert not escapes, "\n".join(f"{where}: {word!r} in {text!r}"
                                  for (where, word), text in sorted(escapes.items()))


#: English words no German or French page of the lab may show (a sentence of the lab has
#: several of them; notation and card tokens have none).
ENGLISH = re.compile(r"\b(the|of|and|with|is|Simulate|guess|Simulated|interval|"
                     r"cards|tavern|players)\b")


@pytest.mark.parametrize(("language", "words"), [
    ("de", ["Simulieren", "Exakt:", "Standardfehler", "Taverne", "Tipp prüfen"]),
    ("fr", ["Simuler", "Exact\xa0:", "erreur type", "taverne", "Vérifier mon pronostic"]),
])
def test_the_lab_in_german_and_french(language: str, words: list[str]) -> None:
    with using(language):
        app = lessons_app()
        texts: list[str] = []
        for _key in _walk(app):
            texts += _texts(app)
        for _what in _errors(app):
            texts += _texts(app)
    page = "\n".join(texts)
    assert re.fullmatch(r"\d,\d\d", app.guess_readout.value), app.guess_readout.value
    for word in words:
        assert word in page, (language, word)
    english = sorted({m.group(0) for m in ENGLISH.finditer(page)})
    assert not english, (language, english,
                         [t for t in texts if ENGLISH.search(t)][:5])
