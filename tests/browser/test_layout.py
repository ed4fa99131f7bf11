"""Nothing cut off, no word broken inside a tile, the coach beside the options: the
dashboard at 1280x800 and 1920x1080 (issue 44).

The page is walked once as a learner walks it, and each state is read at both sizes: the
three walkthroughs' first steps, the Play tab with its new-game form open, and a decision
of every kind of control a recorded Thingvellir game (four players) and a base game (three
players) reach (``NIDAVELLIR_LAYOUT=every-kind``: of every kind of decision), the
Thingvellir hall's 26 heroes included, each shown in the Replay tab and opened
from it as a What-if branch (the Play tab's own panels). Each state is read at 1280x800 as
it is drawn, then with the window widened to 1920x1080 (the layout follows the window;
read while it shrinks, a chart still as wide as before would look cut). :mod:`layout`
names every cut text and broken word; the coach's Hint and win bar must show on the first
screen with the decision (at most one screen below the decision's top). A screenshot of
each size goes to ``test-artifacts/``.
"""

from __future__ import annotations

import html
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nidavellir import Game

from .conftest import ARTIFACTS, VoilaServer, keep_what_the_page_showed, watch_page
from .layout import problems
from .test_dashboard import LOAD_TIMEOUT, UPDATE_TIMEOUT, mark_old, open_dashboard, tab, wait_text

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SIZES = [(1280, 800), (1920, 1080)]
RECORDS = ["examples/records/thingvellir_four_players.json", "examples/records/three_players.json"]


#: ``NIDAVELLIR_LAYOUT=every-kind``: a decision of every kind (14 positions), the long
#: version; by default a decision of every kind of control (the widgets a decision is drawn
#: with: bids, card tiles, coin buttons, the hero hall, columns) and the one with the most
#: options (6 positions).
EVERY_KIND = os.environ.get("NIDAVELLIR_LAYOUT") == "every-kind"


def decisions_to_read(path: str, seen: set[str]) -> list[int]:
    """The first decision of each kind of control (of each kind of decision, with
    :data:`EVERY_KIND`) in a record not in ``seen`` (which it updates: one drawn from an
    earlier record is not drawn again), and the one with the most options."""
    record = json.loads((ROOT / path).read_text(encoding="utf-8"))
    game = Game.from_record(dict(record, actions=[]))
    first: dict[str, int] = {}
    most = (0, 0)
    for i, action in enumerate(record["actions"]):
        d = game.decision
        assert d is not None
        key = d.kind if EVERY_KIND else type(d.task.control).__name__
        if key not in seen:
            first.setdefault(key, i)
        most = max(most, (len(game.legal_actions()), i))
        game.apply(action)
    seen.update(first)
    return sorted({*first.values(), most[1]})


def no_problems(pw_page: Any, where: str, root: str = "body") -> None:
    found = problems(pw_page, root)
    assert not found, f"{where}: {found}"


def coach_beside_the_options(pw_page: Any, app: str, where: str) -> None:
    """The Hint and the win bar within one screen of the decision's top."""
    decision = pw_page.locator(f"{app} .nid-decision").first
    decision.scroll_into_view_if_needed()
    top = decision.bounding_box()
    height = pw_page.viewport_size["height"]
    for part in (".nid-hint", ".nid-win-bar"):
        box = pw_page.locator(f"{app} {part}").first.bounding_box()
        if box is None:
            continue  # not shown for this decision (the win bar waits for a judgement)
        assert box["y"] + box["height"] <= top["y"] + height, (
            f"{where}: {part} is {box['y'] - top['y']:.0f} px below the decision's top, "
            f"more than a screen ({height} px)")


def set_slider(pw_page: Any, value: int) -> None:
    """The Replay slider to ``value`` through its editable readout."""
    readout = pw_page.locator(".nid-replay-slider .widget-readout")
    readout.click()
    readout.press("Control+A")
    readout.type(str(value))
    readout.press("Enter")
    wait_text(pw_page, ".nid-replay-info",
              "Before the first decision" if value == 0 else rf"Decision {value}:")


def both_sizes(pw_page: Any) -> Iterator[str]:
    """The page at 1280x800 (its size when the state was drawn), then with the window
    widened to 1920x1080, each size's name for the caller to read the page at; the window
    is 1280x800 again afterwards, for the next state to be drawn at it."""
    for width, height in SIZES:
        if pw_page.viewport_size["width"] != width:
            resize(pw_page, width, height)
        yield f"{width}x{height}"
    resize(pw_page, *SIZES[0])


#: True once every chart shown fills its box (a chart follows its box's new size a moment
#: after the window's, plotly's resize being debounced: until then the page moves).
CHARTS_SETTLED = """
() => Array.from(document.querySelectorAll('.jp-RenderedPlotly')).every((r) => {
  if (!r.offsetParent) return true;
  const svg = r.querySelector('.main-svg');
  return !svg || Math.abs(Number(svg.getAttribute('width')) - r.offsetWidth) <= 2;
})
"""


def resize(pw_page: Any, width: int, height: int) -> None:
    """The window at ``width`` x ``height``, once the page has laid out again: two frames
    for the widgets, then every chart at its box's new width. A click sent while a chart
    still resized could land where its button had been (the branch button, twice in the
    whole suite: the What-if branch never came)."""
    pw_page.set_viewport_size({"width": width, "height": height})
    pw_page.evaluate("() => new Promise(r => requestAnimationFrame("
                     "() => requestAnimationFrame(r)))")
    pw_page.wait_for_function(CHARTS_SETTLED, timeout=UPDATE_TIMEOUT)
    pw_page.evaluate("() => new Promise(r => requestAnimationFrame("
                     "() => requestAnimationFrame(r)))")


@pytest.mark.slow(reason="a decision of every kind of control from two recorded games "
                         "(7 positions), each replayed and branched in the page and read at "
                         "both sizes: about 8 s of CPU a position")
def test_nothing_cut_no_word_broken_and_the_coach_beside_the_options(
        voila_server: VoilaServer, chromium: Any) -> None:
    width, height = SIZES[0]
    context = chromium.new_context(viewport={"width": width, "height": height})
    pg = context.new_page()
    watched = watch_page(pg)
    try:
        open_dashboard(voila_server, pg, label=f"layout {width}")
        for i, lesson in enumerate(["The base game", "Heroes and the end of the game",
                                    "Thingvellir"]):
            if i:
                # The lesson before also showed "Step 1 of …": wait for the new lesson's own
                # title (a new widget), not that one.
                mark_old(pg, ".nid-wt-title")
                pg.get_by_role("button", name=lesson, exact=True).click()
                pg.locator(".nid-wt-title:not([data-old])").filter(
                    has_text="Step 1 of").wait_for(timeout=UPDATE_TIMEOUT)
            for size in both_sizes(pg):
                no_problems(pg, f"walkthrough {lesson!r}, {size}")
        tab(pg, "Play").click()
        pg.locator(".nid-play-app .nid-decision .nid-prompt").first.wait_for(
            timeout=LOAD_TIMEOUT)
        pg.locator(".nid-play-app button.nid-setup-toggle").click()
        pg.locator(".nid-play-app button.nid-new-start").wait_for(timeout=UPDATE_TIMEOUT)
        for size in both_sizes(pg):
            no_problems(pg, f"the Play tab with its new-game form, {size}", ".nid-play-app")
            coach_beside_the_options(pg, ".nid-play-app", f"Play, {size}")
        seen: set[str] = set()
        for path in RECORDS:
            tab(pg, "Replay").click()
            pg.locator(".nid-replay-path input").fill(path)
            pg.locator(".nid-replay-load").click()
            # This record's line (the record before also said "decisions").
            wait_text(pg, ".nid-replay-status", rf"{re.escape(Path(path).name)}.*decisions")
            no_problems(pg, f"Replay of {path}", ".nid-replay")
            for index in decisions_to_read(path, seen):
                tab(pg, "Replay").click()
                set_slider(pg, index)
                for size in both_sizes(pg):
                    no_problems(pg, f"Replay of {path} at decision {index}, {size}",
                                ".nid-replay")
                mark_old(pg, ".nid-whatif-branch .nid-decision")
                pg.locator(".nid-replay-branch").click()
                # The kernel branched (a lost click would be named here, not by a wait below).
                wait_text(pg, ".nid-dashboard-console",
                          rf"{re.escape(Path(path).name)} at decision {index + 1}\b")
                tab(pg, "What-if").click()
                app = ".nid-whatif-branch .nid-play-app"
                pg.locator(f"{app} .nid-decision:not([data-old]) .nid-prompt").wait_for(
                    timeout=UPDATE_TIMEOUT)
                for size in both_sizes(pg):
                    where = f"{path}, decision {index}, {size}"
                    no_problems(pg, where, ".nid-whatif-branch")
                    coach_beside_the_options(pg, app, where)
        ARTIFACTS.mkdir(exist_ok=True)
        for size in both_sizes(pg):
            pg.screenshot(path=str(ARTIFACTS / f"layout-{size}.png"))
        watched.assert_clean()
    except Exception:
        keep_what_the_page_showed(pg, "layout-failure", watched, voila_server)
        raise
    finally:
        context.close()


def test_the_check_lets_a_word_break_at_a_soft_hyphen_and_names_any_other_break(
        chromium: Any) -> None:
    """:mod:`layout` on a page of its own (no server): a name broken at its soft hyphens
    (Chromium draws the hyphen at the end of the line and counts it in the range of the
    characters after it) is not a broken word, nor a chart's rotated title (SVG text never
    breaks a line); the same name broken anywhere else is."""
    context = chromium.new_context()
    try:
        pg = context.new_page()
        style = "width:70px;font:bold 13px sans-serif"
        pg.set_content(f"<div id='soft' style='{style}'>Jagd\u00adtrop\u00adhäe "
                       "Uner\u00adschü\u00adtterlicher</div>"
                       f"<div id='hard' style='{style};width:40px;overflow-wrap:anywhere'>"
                       "Unerschütterlicher</div>"
                       "<svg id='chart' width='300' height='200'><text x='20' y='100' "
                       "transform='rotate(-90,20,100)'>Coins</text></svg>")
        assert problems(pg, "#soft") == []
        assert problems(pg, "#chart") == []  # a rotated axis title is not broken
        assert problems(pg, "#hard") == [{"kind": "broken", "what": "div",
                                          "text": "Unerschütterlicher"}]
    finally:
        context.close()


def test_every_tile_in_every_language_breaks_only_where_marked_within_its_lines(
        chromium: Any) -> None:
    """Every card's tile, small and normal, in English, German and French, drawn with the
    lab's stylesheet: no name or caption cut, and none broken but where the tile marks a
    break (a soft hyphen, a zero-width space: widgets/render.py; where is for
    tests/test_hyphenation.py); each caption, as Chromium lays it out, in at most
    ``CAPTION_LINES`` lines and in no more than the tiles' own count (``line_count``, on the
    safe side: Chromium may need fewer), the German ranks' «2 Rangab-» / «zeichen ·» /
    «7 MW» in three on a small tile."""
    from nidavellir import cards as C
    from nidavellir.i18n import using
    from widgets import render as R
    from widgets.style import CSS

    blocks = []
    expected: dict[str, int] = {}
    names: dict[str, str] = {}
    for code in ("en", "de", "fr"):
        with using(code):
            for small in (True, False):
                tiles = []
                for i, card in enumerate(dict.fromkeys(C.ALL_CARDS)):
                    tile = R.card_tile(card.token, small=small, info=False)
                    key = f"{code}-{'small' if small else 'normal'}-{i}"
                    names[key] = f"{code}, {'small' if small else 'normal'}: {card.token}"
                    caption = re.search(r"<div class='nid-card-caption'(?: style='font-size:"
                                        r"(\d+)px')?>([^<]*)</div>", tile)
                    assert caption is not None
                    width = (R.SMALL_TILE if small else R.TILE)[0] - R.TILE_PADDING
                    expected[key] = R.line_count(html.unescape(caption[2]), width,
                                                 int(caption[1] or R.CAPTION_SIZES[0]))
                    tiles.append(f"<div data-key='{key}'>{tile}</div>")
                blocks.append(f"<div lang='{code}' style='display:flex;flex-wrap:wrap;"
                              f"gap:4px;align-items:flex-start'>{''.join(tiles)}</div>")
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    try:
        pg = context.new_page()
        pg.set_content(f"<html><head><style>{CSS}</style></head><body>{''.join(blocks)}"
                       "</body></html>")
        assert problems(pg) == []
        lines = pg.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
            '[data-key]')].map(el => {
              const cap = el.querySelector('.nid-card-caption');
              const range = document.createRange(); range.selectNodeContents(cap);
              const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
              return [el.dataset.key, tops.size];
            }))""")
        over = {names[k]: (n, expected[k]) for k, n in lines.items()
                if n > R.CAPTION_LINES or n > max(expected[k], 1)}
        assert over == {}, f"captions on more lines than counted (Chromium, counted): {over}"
        kraal = next(k for k, v in names.items() if v == "de, small: Kraal")
        assert lines[kraal] == 3
        pg.screenshot(path=str(ARTIFACTS / "tiles-every-language-1280x800.png"),
                      full_page=True)
    finally:
        context.close()
