"""Issue 16 in a real browser: a card-info panel opened by a click, an error shown next to
the control that caused it, the end-of-age summary that waits for the player, a game saved
(downloaded) and opened in Replay (uploaded), and Open in Replay for a finished game."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from .conftest import ARTIFACTS, PageWatch, VoilaServer, keep_what_the_page_showed, watch_page
from .playing import near_the_end_of
from .story import OPTIONS, moves_shown, newest_options, wait_after_move, wait_for_options_at
from .test_dashboard import (
    LOAD_TIMEOUT,
    UPDATE_TIMEOUT,
    new_two_player_game,
    open_dashboard,
    select,
    tab,
    wait_text,
)

pytestmark = pytest.mark.browser

APP = ".nid-play-app"
DECISION = f"{APP} .nid-decision"


def _open_play(voila_server: VoilaServer, pg: Any) -> None:
    open_dashboard(voila_server, pg)
    tab(pg, "Play").click()
    pg.locator(f"{DECISION} button.nid-choice").first.wait_for(timeout=LOAD_TIMEOUT)


def _wait_moves_above(pg: Any, n: int) -> None:
    """Wait until the decision panel shows more than ``n`` decisions taken."""
    pg.wait_for_function(
        "([sel, n]) => { const e = document.querySelector(sel); const m = e && "
        "e.className.match(/nid-moves-(\\d+)/); return m && Number(m[1]) > n; }",
        arg=[DECISION, n], timeout=UPDATE_TIMEOUT)


def test_a_click_on_a_card_opens_its_info_panel(voila_server: VoilaServer,
                                                page: PageWatch) -> None:
    pg = page.page
    _open_play(voila_server, pg)
    tile = pg.locator(f"{APP} .nid-table .nid-card-details").first
    info = tile.locator(".nid-card-info")
    assert not info.is_visible()
    tile.locator("summary").click()
    info.wait_for(state="visible", timeout=UPDATE_TIMEOUT)
    text = info.inner_text()
    assert "FR" in text and len(text) > 60  # what it does, and where the rulebook says so
    box = info.bounding_box()
    assert box is not None and box["width"] > 150 and box["height"] > 40  # not clipped
    tile.locator("summary").click()
    info.wait_for(state="hidden", timeout=UPDATE_TIMEOUT)
    page.assert_clean()


def test_an_error_shows_next_to_its_control(voila_server: VoilaServer, page: PageWatch) -> None:
    pg = page.page
    _open_play(voila_server, pg)
    box = pg.locator(f"{DECISION} .nid-notation input")
    box.fill("take Z9")
    box.press("Enter")  # Enter submits
    wait_text(pg, f"{DECISION} .nid-decision-error", r"Z9")
    error = pg.locator(f"{DECISION} .nid-decision-error").bounding_box()
    control = pg.locator(f"{DECISION} button.nid-choice").first.bounding_box()
    assert error is not None and control is not None
    assert abs(error["y"] - control["y"]) < 400  # right under the controls, not far below
    # A good move clears it.
    before = moves_shown(pg)
    # The bid's menus start on nothing: a coin chosen for each tavern, then Bid.
    for tavern, coin in (("1. Laughing Goblin", "5"), ("2. Dancing Dragon", "4"),
                         ("3. Shining Horse", "3")):
        select(pg, DECISION, tavern, coin)
    pg.locator(f"{DECISION} button.nid-choice", has_text=re.compile(r"^Bid$")).click()
    _wait_moves_above(pg, before)
    pg.wait_for_function(f"() => document.querySelector('{DECISION} .nid-decision-error')"
                         ".innerText.trim() === ''", timeout=UPDATE_TIMEOUT)
    page.assert_clean()


def test_end_of_age_summary_then_save_and_open_in_replay(voila_server: VoilaServer,
                                                        page: PageWatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A 2-player game against a random bot, taken over two of the learner's decisions
    before the end of age 1 (the rest played in the page's kernel: tests/browser/
    playing.py): the summary waits after the last pick, then the game is saved and opened
    in Replay. On a failure what the page showed is kept (test-artifacts/
    end-of-age-failure.*): the summary never came once in CI (240 s waited)."""
    try:
        _end_of_age_then_replay(voila_server, page, tmp_path)
    except Exception:
        keep_what_the_page_showed(page.page, "end-of-age-failure", page, voila_server)
        raise


def _end_of_age_then_replay(voila_server: VoilaServer, page: PageWatch, tmp_path: Any) -> None:
    pg = page.page
    open_dashboard(voila_server, pg)
    tab(pg, "Play").click()
    pg.locator(f"{DECISION} button.nid-choice").first.wait_for(timeout=LOAD_TIMEOUT)
    at = near_the_end_of(voila_server, pg, age=1, before=2, seed=6)["index"]
    summary = pg.locator(f"{DECISION} .nid-summary-continue")
    wait_for_options_at(pg, at)
    for _ in range(2):  # the learner's last decisions of age 1: the first choice offered
        # The decision's options are told by their nid-at-N, never by which buttons are
        # new: the coach's row of a decision can be drawn after its move was clicked, in
        # the control the kernel has just closed. Taken for the next decision's options,
        # one of its buttons was clicked and the click was lost (the page showed the next
        # decision, unplayed, and no error: clean runs 16 and 110, about 1 run in 8 to 40
        # beside a CPU-bound process; found with the kernel's panel read at the failure).
        pg.locator(f"{OPTIONS}.nid-at-{at}:not([disabled])").first.click(
            timeout=UPDATE_TIMEOUT)
        wait_after_move(pg, at)  # the next decision's options, or the summary
        at = newest_options(pg)["at"]
    pg.wait_for_function(
        "(sel) => { const c = document.querySelector(sel + ' .nid-summary-continue'); "
        "return c && c.offsetParent !== null; }", arg=DECISION, timeout=UPDATE_TIMEOUT)
    text = pg.locator(f"{DECISION} .nid-age-summary").inner_text()
    assert "End of age 1" in text and "Distinctions" in text and "ranks" in text
    # It waits: no move to click under the summary (the kernel empties the control just
    # after it shows the summary: waited for, not read at once).
    pg.wait_for_function("(sel) => !document.querySelector(sel + ' button.nid-choice')",
                         arg=DECISION, timeout=UPDATE_TIMEOUT)
    summary.click()
    pg.locator(f"{DECISION} button.nid-choice").first.wait_for(timeout=UPDATE_TIMEOUT)
    # Save the game (a download), then open the file in the Replay tab (an upload).
    with pg.expect_download(timeout=UPDATE_TIMEOUT) as info:
        pg.locator(f"{APP} a.nid-save-download").click()
    path = tmp_path / "saved.json"
    info.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["format"] == "nidavellir-record" and len(record["actions"]) > 10
    tab(pg, "Replay").click()
    with pg.expect_file_chooser(timeout=UPDATE_TIMEOUT) as chooser:
        pg.locator("button.nid-replay-upload").click()
    chooser.value.set_files(str(path))
    wait_text(pg, ".nid-replay-status", rf"{len(record['actions'])} decisions, unfinished")
    page.assert_clean()


def test_open_a_finished_game_in_replay(voila_server: VoilaServer, page: PageWatch) -> None:
    pg = page.page
    open_dashboard(voila_server, pg)
    tab(pg, "Play").click()
    open_button = pg.locator(f"{APP} button.nid-open-replay")
    open_button.wait_for(timeout=LOAD_TIMEOUT)
    assert open_button.is_disabled()  # unfinished: a replay would show the bots' bids
    new_two_player_game(pg, "easy (random)", "easy (random)")
    pg.wait_for_function("(sel) => { const b = document.querySelector(sel); "
                         "return b && !b.disabled; }", arg=f"{APP} button.nid-open-replay",
                         timeout=UPDATE_TIMEOUT)
    pg.locator(f"{APP} button.nid-play-again").wait_for(timeout=UPDATE_TIMEOUT)
    open_button.click()
    wait_text(pg, ".nid-replay-status", r"your game.*game over")
    # The board and the charts at the game's end, before the test's last screenshot.
    wait_text(pg, ".nid-replay", r"the end, after decision \d+")
    wait_text(pg, ".nid-replay .nid-board-framed", r"score now")  # drawn last
    wait_text(pg, ".nid-replay .nid-live-charts", r"Charts after \d+ decisions \(game over\)")
    page.assert_clean()


def test_a_probability_lesson_reveals_its_steps_in_order(voila_server: VoilaServer,
                                                        chromium: Any) -> None:
    """Issue 44 (item 7) at 1280×800: predict, then the simulation said in words (the exact
    answer and its explanation not on the page yet), then the exact answer explained, each
    on the learner's click; the next step starts from a neutral slider; the last step says
    the lesson is complete and offers the next lesson. Screenshots of each stage."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    watched = watch_page(pg)
    try:
        open_dashboard(voila_server, pg)
        tab(pg, "Probability lessons").click()
        wait_text(pg, ".nid-pl-title", r"1\. Counting · step 1 of 3")
        lesson = ".nid-prob-lesson"
        assert not pg.locator(f"{lesson} .nid-pl-simulated").is_visible()
        assert pg.locator(f"{lesson} button.nid-pl-simulate").is_disabled()
        _shot(pg, "probability_1_predict")
        handle = pg.locator(f"{lesson} .nid-pl-slider .noUi-handle")
        handle.focus()
        for _ in range(8):
            handle.press("ArrowLeft")  # 0.50 -> 0.42
        pg.locator(f"{lesson} button.nid-pl-submit").click()
        wait_text(pg, f"{lesson} .nid-pl-said", r"Your prediction: 0\.42")
        pg.locator(f"{lesson} button.nid-pl-simulate").click()
        wait_text(pg, f"{lesson} .nid-pl-simulated", r"In 2,000 simulated taverns, .*% had a "
                                                    r"hunter")
        pg.locator(f"{lesson} .nid-pl-chart .js-plotly-plot").wait_for(timeout=UPDATE_TIMEOUT)
        page_text = pg.locator(lesson).inner_text()
        assert "22/51" not in page_text and "exact answer is" not in page_text
        assert not pg.locator(f"{lesson} .nid-pl-explanation").is_visible()
        assert pg.locator(f"{lesson} button.nid-pl-submit").is_disabled()  # locked
        _shot(pg, "probability_2_simulated")
        pg.locator(f"{lesson} button.nid-pl-reveal").click()
        wait_text(pg, f"{lesson} .nid-pl-explanation", r"C\(36, 3\) = 7140")
        wait_text(pg, f"{lesson} .nid-pl-notes", r"read “36 choose 3”")
        assert "You predicted 0.42; the exact answer is 22/51" in pg.locator(
            f"{lesson} .nid-pl-result").inner_text()
        _shot(pg, "probability_3_explained")
        # The next step starts from a neutral slider, not from 0.42.
        pg.locator(f"{lesson} button.nid-pl-next").click()
        wait_text(pg, ".nid-pl-title", r"step 2 of 3")
        wait_text(pg, f"{lesson} .nid-pl-slider .widget-readout", r"^0\.50$")
        for step in (2, 3):
            pg.locator(f"{lesson} button.nid-pl-submit").click()
            wait_text(pg, f"{lesson} .nid-pl-said", r"Your prediction")
            pg.locator(f"{lesson} button.nid-pl-simulate").click()
            pg.locator(f"{lesson} button.nid-pl-reveal").wait_for(timeout=UPDATE_TIMEOUT)
            pg.locator(f"{lesson} button.nid-pl-reveal").click()
            pg.locator(f"{lesson} .nid-pl-explanation").wait_for(timeout=UPDATE_TIMEOUT)
            if step == 2:
                pg.locator(f"{lesson} button.nid-pl-next").click()
                wait_text(pg, ".nid-pl-title", r"step 3 of 3")
        wait_text(pg, f"{lesson} .nid-pl-complete", r"Lesson complete")
        _shot(pg, "probability_4_complete")
        pg.locator(f"{lesson} button.nid-pl-next-lesson").click()
        wait_text(pg, ".nid-pl-title", r"2\. The hypergeometric distribution · step 1 of 3")
        watched.assert_clean()
    finally:
        context.close()


def _shot(pg: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
