"""The Play tab as a learner sees it (issue 26), in chromium at 1280×800 and 1920×1080:
who plays whom at the top, the decision visible without scrolling, nothing cut off or
overflowing, and the page answering while a bot thinks in the background.

Screenshots: ``test-artifacts/play-1280x800.png``, ``play-thinking-1280x800.png``,
``play-1920x1080.png``."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from .conftest import ARTIFACTS, PageWatch, VoilaServer, watch_page
from .test_dashboard import (
    LOAD_TIMEOUT,
    UPDATE_TIMEOUT,
    console_errors,
    new_two_player_game,
    open_dashboard,
    record,
    tab,
    wait_text,
)

pytestmark = pytest.mark.browser

APP = ".nid-play-app"

#: Elements of the Play tab whose content is wider than their box (cut off or scrolled
#: sideways), and elements reaching past the right edge of the window.
OVERFLOW = """
(sel) => {
  const out = [];
  const width = document.documentElement.clientWidth;
  for (const e of document.querySelectorAll(sel)) {
    if (e.offsetParent === null) continue;  // not shown
    const r = e.getBoundingClientRect();
    const name = (e.className || e.tagName).toString().slice(0, 60) + ': '
                 + (e.innerText || '').slice(0, 40);
    if (e.scrollWidth > e.clientWidth + 1) out.push('wider than its box: ' + name);
    if (r.right > width + 1) out.push('past the right edge: ' + name);
  }
  return out;
}
"""

CHECKED = (f"{APP} .nid-decision, {APP} .nid-decision button, {APP} .nid-decision "
           f".widget-label, {APP} .nid-board, {APP} .nid-table, {APP} .nid-setup, "
           f"{APP} .nid-status, {APP} .nid-coach button, {APP} .nid-hint-text")


@pytest.fixture
def small_page(chromium: Any, request: pytest.FixtureRequest) -> Any:
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    watched = watch_page(pg)
    try:
        yield watched
    finally:
        context.close()


def shot(pg: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def test_play_tab_at_1280_reads_like_the_table(voila_server: VoilaServer,
                                               small_page: PageWatch) -> None:
    pg = small_page.page
    open_dashboard(voila_server, pg, label="dashboard at 1280x800")
    tab(pg, "Play").click()
    bid = pg.locator(f"{APP} .nid-decision button", has_text=re.compile(r"^Bid$"))
    bid.wait_for(timeout=LOAD_TIMEOUT)
    # Who plays whom, and what their levels mean, first.
    summary = pg.locator(f"{APP} .nid-setup-summary").inner_text()
    assert "You are Player 1. You play against Player 2 (medium) and Player 3 (easy)" \
        in summary
    levels = pg.locator(f"{APP} .nid-setup-levels").inner_text()
    assert "medium: greedy" in levels and "easy: plays any legal move" in levels
    # The decision is on the first screen, with the taverns beside it.
    box = bid.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 800, box
    taverns = pg.locator(f"{APP} .nid-table").first.bounding_box()
    assert taverns is not None and taverns["y"] < 800 and taverns["x"] > box["x"]
    assert pg.evaluate(OVERFLOW, CHECKED) == []
    shot(pg, "play-1280x800")
    # The form of a new game opens from the top and explains every level.
    pg.locator(f"{APP} button.nid-setup-toggle").click()
    legend = pg.locator(f"{APP} .nid-level-legend")
    legend.wait_for(timeout=UPDATE_TIMEOUT)
    assert "montecarlo: baseline" in legend.inner_text()
    assert pg.evaluate(OVERFLOW, CHECKED) == []
    shot(pg, "play-new-game-1280x800")
    assert not console_errors(pg)
    small_page.assert_clean()


def test_the_page_answers_while_a_bot_thinks(voila_server: VoilaServer,
                                            small_page: PageWatch) -> None:
    """Against an expert (3 s a move) the bot thinks in the background: the status line
    says who thinks and how far, and a click that needs the kernel is answered meanwhile."""
    pg = small_page.page
    open_dashboard(voila_server, pg, label="dashboard at 1280x800")
    tab(pg, "Play").click()
    pg.locator(f"{APP} .nid-decision button", has_text=re.compile(r"^Bid$")).wait_for(
        timeout=LOAD_TIMEOUT)
    new_two_player_game(pg, "human", "expert (search, 3 s a move)")
    wait_text(pg, f"{APP} .nid-setup-summary", r"Player 2 \(expert\)")
    # The summary can show the new game while the old game's Bid button is still in the
    # page (its panel is replaced a moment later); a click on it would be lost. Click the
    # new game's button only.
    pg.locator(f"{APP} .nid-decision button.nid-coach-best:not([data-old])").click(
        timeout=UPDATE_TIMEOUT)  # the coach's bid: the menus start on nothing
    thinking = pg.locator(f"{APP} .nid-thinking-text")
    thinking.filter(has_text="is thinking").first.wait_for(timeout=UPDATE_TIMEOUT)
    wait_text(pg, f"{APP} .nid-waiting", r"Player 2 \(expert\) is thinking")
    shot(pg, "play-thinking-1280x800")
    # A kernel round trip while the bot thinks: the new-game form opens.
    start = time.monotonic()
    pg.locator(f"{APP} button.nid-setup-toggle").click()
    pg.locator(f"{APP} .nid-level-legend").wait_for(timeout=UPDATE_TIMEOUT)
    answered = (time.monotonic() - start) * 1000
    still = thinking.inner_text()
    record("click answered while an expert bot thinks", answered)
    assert "is thinking" in still, "the bot had finished: the click was not tested"
    pg.locator(f"{APP} button.nid-setup-toggle").click()  # fold it again
    # The bot's moves land; the learner's turn comes back with nobody thinking.
    pg.wait_for_function("(sel) => { const e = document.querySelector(sel); "
                         "return e && e.innerText.trim() === ''; }",
                         arg=f"{APP} .nid-thinking", timeout=UPDATE_TIMEOUT)
    wait_text(pg, f"{APP} .nid-status-text", r"Player 1 \(you\)")
    assert pg.evaluate(OVERFLOW, CHECKED) == []
    pg.set_viewport_size({"width": 1920, "height": 1080})
    # The widgets lay out again on the resize, in the next frames: wait for two.
    pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert pg.evaluate(OVERFLOW, CHECKED) == []
    shot(pg, "play-1920x1080")
    assert not console_errors(pg)
    small_page.assert_clean()
