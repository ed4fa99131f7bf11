"""Issue 17 in a real browser: the Walkthrough tab offers three lessons (the base game
first); the heroes and the Thingvellir lessons each open and take their first taught move
through the card buttons; each lesson keeps its place when another is shown; Restart takes
one back to its first step."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import PageWatch, VoilaServer
from .test_dashboard import UPDATE_TIMEOUT, mark_old, open_dashboard, wait_text

pytestmark = pytest.mark.browser

TITLE = ".nid-walkthrough .nid-wt-title"
CHOOSER = ".nid-wt-chooser"


def _choose(pg: Any, label: str) -> None:
    pg.locator(f"{CHOOSER} button", has_text=re.compile(f"^{re.escape(label)}$")).click()


def _next_to(pg: Any, step: int) -> None:
    """Press Next until the title says ``Step {step} of``."""
    for _ in range(step):
        if re.search(rf"Step {step} of", pg.locator(TITLE).inner_text()):
            return
        current = pg.locator(TITLE).inner_text()
        pg.locator("button.nid-wt-next").click()
        pg.wait_for_function("([sel, old]) => document.querySelector(sel).innerText !== old",
                             arg=[TITLE, current], timeout=UPDATE_TIMEOUT)
    wait_text(pg, TITLE, rf"Step {step} of")


def _first_taught_move(pg: Any, card: str) -> None:
    """Next is off until the move; the move through the card's button is accepted."""
    pg.locator("button.nid-wt-next[disabled]").wait_for(timeout=UPDATE_TIMEOUT)
    pg.locator(f".nid-wt-controls button.nid-choice[title^='{card}:']").click()
    wait_text(pg, ".nid-wt-feedback", r"Well done")


def test_each_walkthrough_opens_and_takes_its_first_taught_move(
        voila_server: VoilaServer, page: PageWatch) -> None:
    pg = page.page
    open_dashboard(voila_server, pg)
    labels = [b.inner_text().strip() for b in pg.locator(f"{CHOOSER} button").all()]
    assert labels == ["The base game", "Heroes and the end of the game", "Thingvellir"]
    assert "Step 1 of 15" in pg.locator(TITLE).inner_text()  # the base game first
    pg.locator("button.nid-wt-next").click()
    wait_text(pg, TITLE, r"Step 2 of 15")

    _choose(pg, "Heroes and the end of the game")
    wait_text(pg, TITLE, r"Step 1 of 21: Two players, every hero")
    _next_to(pg, 3)
    # The step's text is its own widget: it may reach the page just after the title.
    wait_text(pg, ".nid-wt-text", r"Dagda")
    mark_old(pg, ".nid-wt-controls button.nid-choice")
    _first_taught_move(pg, "Explorer 8")
    # "Choose a hero" follows at once: the next step with its controls (new ones: step
    # 3's are still on the page a moment after the title).
    wait_text(pg, TITLE, r"Step 4 of 21: Recruiting Thrud")
    pg.locator(".nid-wt-controls button.nid-choice:not([data-old])").first.wait_for(
        timeout=UPDATE_TIMEOUT)

    _choose(pg, "Thingvellir")
    wait_text(pg, TITLE, r"Step 1 of 27: The camp")
    wait_text(pg, ".nid-wt-camp", r"Fafnir")  # its own widget, as the text above
    _next_to(pg, 2)
    _first_taught_move(pg, "Fafnir Båleygr")
    wait_text(pg, TITLE, r"Step 3 of 27: Two players")

    # Each lesson is where it was left; Restart takes only the one shown back.
    _choose(pg, "Heroes and the end of the game")
    wait_text(pg, TITLE, r"Step 4 of 21")
    pg.locator("button.nid-wt-restart").click()
    wait_text(pg, TITLE, r"Step 1 of 21")
    _choose(pg, "The base game")
    wait_text(pg, TITLE, r"Step 2 of 15")
    page.assert_clean()


#: For every army column: does each card tile stay inside its column (no overlap with the
#: next column), and are the tiles stacked (each below the one before)?
COLUMN_LAYOUT = """
() => Array.from(document.querySelectorAll('.nid-column')).map(col => {
  const box = col.getBoundingClientRect();
  const tiles = Array.from(col.children).slice(2).map(t => t.getBoundingClientRect());
  const inside = tiles.every(t => t.left >= box.left - 1 && t.right <= box.right + 1);
  const stacked = tiles.every((t, i) => i === 0 || t.top >= tiles[i - 1].bottom - 1);
  return {inside: inside, stacked: stacked, n: tiles.length};
})
"""


def test_army_columns_stack_their_cards(page: PageWatch) -> None:
    """A column of several cards stacks them inside its own width, in the walkthrough's
    board and in the Play board (render.column_html): they used to run into the next
    column."""
    from nidavellir import Game
    from widgets import render
    from widgets.style import css_widget
    from widgets.walkthrough import Walkthrough, board_html

    wt = Walkthrough.of("heroes")
    wt.goto(len(wt.steps) - 1)
    obs = wt.game.observation(wt.learner)
    played = Game.from_record(wt.record)
    play = played.observation(0)["players"][0]
    html = (css_widget().value + "<div style='width:600px'>"
            + board_html(obs, sheet=wt.game.scores())
            + render.board_html(play, viewer=True,
                                points=render.sheet_points(played.scores()[0].breakdown))
            + "</div>")
    pg = page.page
    pg.set_content(f"<html><body>{html}</body></html>")
    columns = pg.evaluate(COLUMN_LAYOUT)
    assert len(columns) == 15  # 2 players' walkthrough boards, 1 Play board
    assert max(c["n"] for c in columns) >= 5
    assert all(c["inside"] and c["stacked"] for c in columns), columns
    page.assert_clean()
