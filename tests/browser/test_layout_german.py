"""Nothing cut off in German, the longest of the lab's three languages (issue 46): the
dashboard at 1280x800 with ``?lang=de``, walked as a German learner walks it.

The three walkthroughs' first step and the base walkthrough's first bid (its controls and
the move box), the Play tab with its coach's figures and its new-game form, a probability
lesson's prediction and its answer, the Replay tab with a record loaded, and a puzzle
answered wrong (the verdict, the learner's rating down, the judge's table): :mod:`layout`
names every cut text and broken word. The tabs are found by their place, the states by the
page's own classes (their words are German). A screenshot goes to ``test-artifacts/``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from nidavellir.analysis.puzzles.fileformat import shipped
from widgets.controls import move_class

from .conftest import ARTIFACTS, VoilaServer, keep_what_the_page_showed, watch_page
from .test_dashboard import LOAD_TIMEOUT, UPDATE_TIMEOUT
from .test_layout import no_problems

pytestmark = pytest.mark.browser


def test_the_german_dashboard_cuts_no_text_at_1280x800(voila_server: VoilaServer,
                                                        chromium: Any) -> None:
    context = chromium.new_context(viewport={"width": 1280, "height": 800}, locale="de-DE")
    pg = context.new_page()
    watched = watch_page(pg)
    try:
        pg.goto(voila_server.render_url("dashboard.ipynb") + "?lang=de")
        pg.locator("nav.nid-languages[lang='de']").wait_for(timeout=LOAD_TIMEOUT)
        title = pg.locator(".nid-wt-title")
        title.filter(has_text="Schritt 1 von").wait_for(timeout=LOAD_TIMEOUT)
        # The chooser's own button (a page's other buttons may name the expansion too).
        lessons = pg.locator(".nid-tab-walkthrough .nid-wt-chooser .widget-toggle-button"
                             ).filter(has_text="Thingvellir")
        no_problems(pg, "Einführung, das Grundspiel")
        pg.locator("button.nid-wt-next").click()
        title.filter(has_text="Schritt 2 von").wait_for(timeout=UPDATE_TIMEOUT)
        pg.locator(".nid-tab-walkthrough .widget-dropdown select").first.wait_for(
            timeout=UPDATE_TIMEOUT)
        no_problems(pg, "Einführung, das erste Gebot")
        lessons.first.click()
        title.filter(has_text="Schritt 1 von 27").wait_for(timeout=UPDATE_TIMEOUT)
        no_problems(pg, "Einführung, Thingvellir")
        tabs = pg.locator(".nid-tabs .lm-TabBar-tab")
        tabs.nth(1).click()  # Spielen
        pg.locator(".nid-play-app .nid-decision .nid-prompt").first.wait_for(
            timeout=LOAD_TIMEOUT)
        pg.locator(".nid-play-app button.nid-coach-best").filter(
            has_text="%").first.wait_for(timeout=LOAD_TIMEOUT)
        no_problems(pg, "Spielen", ".nid-play-app")
        pg.locator(".nid-play-app button.nid-setup-toggle").click()
        pg.locator(".nid-play-app button.nid-new-start").wait_for(timeout=UPDATE_TIMEOUT)
        no_problems(pg, "Spielen, neues Spiel", ".nid-play-app")
        tabs.nth(4).click()  # Wahrscheinlichkeit
        lesson = pg.locator(".nid-tab-lessons")
        submit = lesson.locator("button").filter(has_text="Vorhersage abgeben")
        submit.wait_for(timeout=LOAD_TIMEOUT)
        no_problems(pg, "Wahrscheinlichkeit, Vorhersage", ".nid-tab-lessons")
        submit.click()
        run = lesson.locator("button").filter(has_text="Simulation starten")
        pg.wait_for_function("(b) => !b.disabled", arg=run.element_handle(),
                             timeout=UPDATE_TIMEOUT)
        run.click()
        lesson.locator("button").filter(has_text="Exakte Antwort").wait_for(
            timeout=UPDATE_TIMEOUT)
        no_problems(pg, "Wahrscheinlichkeit, Simulation", ".nid-tab-lessons")
        tabs.nth(2).click()  # Nachspielen
        pg.locator(".nid-replay-path input").fill("examples/records/three_players.json")
        pg.locator(".nid-replay-load").click()
        pg.locator(".nid-replay-status").filter(has_text="Entscheidungen").wait_for(
            timeout=UPDATE_TIMEOUT)
        # The board and the charts at the record's end, before the screenshot.
        pg.locator(".nid-replay").filter(
            has_text=re.compile(r"das Ende, nach Entscheidung \d+")).wait_for(
            timeout=UPDATE_TIMEOUT)
        pg.locator(".nid-replay .nid-board-framed").filter(has_text="Punkte jetzt").first.wait_for(
            timeout=UPDATE_TIMEOUT)  # the board, drawn last
        pg.locator(".nid-replay .nid-live-charts").filter(
            has_text=re.compile(r"Diagramme nach \d+ Entscheidungen \(Partie vorbei\)")
        ).wait_for(timeout=UPDATE_TIMEOUT)
        no_problems(pg, "Nachspielen", ".nid-replay")
        ARTIFACTS.mkdir(exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / "layout-de-1280x800.png"))
        tabs.nth(5).click()  # Rätsel: a puzzle answered wrong
        heading = pg.locator(".nid-pz-heading").filter(has_text=re.compile(r"Rätsel p[0-9a-f]+"))
        heading.wait_for(timeout=LOAD_TIMEOUT)
        puzzle_id = re.search(r"Rätsel (p[0-9a-f]+)", heading.inner_text())
        assert puzzle_id, heading.inner_text()
        puzzle = next(p for p in shipped() if p.id == puzzle_id.group(1))
        wrong = [move_class(str(a)) for a in puzzle.game().legal_actions()
                 if not puzzle.solves(str(a))]
        pg.locator(", ".join(f".nid-puzzles .nid-pz-board button.{c}" for c in wrong)
                   ).first.click()
        pg.locator(".nid-pz-verdict").filter(has_text="✘ Nicht der beste Zug").wait_for(
            timeout=UPDATE_TIMEOUT)
        # A wrong first answer is a rated loss: the learner's rating goes down.
        pg.locator(".nid-pz-ratings").filter(
            has_text=re.compile(r"Deine Wertung: .* \(-\d+\) · die des Rätsels")).wait_for(
            timeout=UPDATE_TIMEOUT)
        no_problems(pg, "Rätsel, eine falsche Antwort", ".nid-puzzles")
        pg.screenshot(path=str(ARTIFACTS / "puzzles-de-wrong-1280x800.png"))
        watched.assert_clean()
    except Exception:
        keep_what_the_page_showed(pg, "layout-de-failure", watched)
        raise
    finally:
        context.close()
