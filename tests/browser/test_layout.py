"""Nothing cut off, no word broken inside a tile, the coach beside the options: the
dashboard at 1280x800 and 1920x1080 (issue 44).

At each size the page is walked as a learner walks it: the three walkthroughs' first
steps, the Play tab with its new-game form open, and a decision of every kind a recorded
Thingvellir game (four players) and a base game (three players) reach, the Thingvellir
hall's 26 heroes included, each opened from the Replay tab as a What-if branch (the Play
tab's own panels). :mod:`layout` names every cut text and broken word; the coach's Hint
and win bar must show on the first screen with the decision (at most one screen below the
decision's top). A screenshot of each size goes to ``test-artifacts/``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from nidavellir import Game

from .conftest import ARTIFACTS, VoilaServer, watch_page
from .layout import problems
from .test_dashboard import LOAD_TIMEOUT, UPDATE_TIMEOUT, mark_old, open_dashboard, tab, wait_text

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SIZES = [(1280, 800), (1920, 1080)]
RECORDS = ["examples/records/thingvellir_four_players.json", "examples/records/three_players.json"]


def decisions_of_every_kind(path: str, seen: set[str]) -> list[int]:
    """The first decision of each kind in a record not in ``seen`` (which it updates: a
    kind drawn from an earlier record is not drawn again), and the one with the most
    options."""
    record = json.loads((ROOT / path).read_text(encoding="utf-8"))
    game = Game.from_record(dict(record, actions=[]))
    first: dict[str, int] = {}
    most = (0, 0)
    for i, action in enumerate(record["actions"]):
        d = game.decision
        assert d is not None
        if d.kind not in seen:
            first.setdefault(d.kind, i)
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


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_nothing_cut_no_word_broken_and_the_coach_beside_the_options(
        voila_server: VoilaServer, chromium: Any, size: tuple[int, int]) -> None:
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    pg = context.new_page()
    watched = watch_page(pg)
    try:
        open_dashboard(voila_server, pg, label=f"layout {size[0]}")
        for i, lesson in enumerate(["The base game", "Heroes and the end of the game",
                                    "Thingvellir"]):
            if i:
                pg.get_by_role("button", name=lesson, exact=True).click()
                pg.locator(".nid-wt-title").filter(has_text="Step 1 of").wait_for(
                    timeout=UPDATE_TIMEOUT)
            no_problems(pg, f"walkthrough {lesson!r}")
        tab(pg, "Play").click()
        pg.locator(".nid-play-app .nid-decision .nid-prompt").first.wait_for(
            timeout=LOAD_TIMEOUT)
        pg.locator(".nid-play-app button.nid-setup-toggle").click()
        pg.locator(".nid-play-app button.nid-new-start").wait_for(timeout=UPDATE_TIMEOUT)
        no_problems(pg, "the Play tab with its new-game form", ".nid-play-app")
        coach_beside_the_options(pg, ".nid-play-app", "Play")
        seen: set[str] = set()
        # The smaller screen, where text is cut first, draws both records; the larger the
        # Thingvellir one.
        for path in RECORDS if size == SIZES[0] else RECORDS[:1]:
            tab(pg, "Replay").click()
            pg.locator(".nid-replay-path input").fill(path)
            pg.locator(".nid-replay-load").click()
            wait_text(pg, ".nid-replay-status", r"decisions")
            no_problems(pg, f"Replay of {path}", ".nid-replay")
            for index in decisions_of_every_kind(path, seen):
                tab(pg, "Replay").click()
                set_slider(pg, index)
                no_problems(pg, f"Replay of {path} at decision {index}", ".nid-replay")
                mark_old(pg, ".nid-whatif-branch .nid-decision")
                pg.locator(".nid-replay-branch").click()
                tab(pg, "What-if").click()
                app = ".nid-whatif-branch .nid-play-app"
                pg.locator(f"{app} .nid-decision:not([data-old]) .nid-prompt").wait_for(
                    timeout=UPDATE_TIMEOUT)
                where = f"{path}, decision {index}, {size[0]}x{size[1]}"
                no_problems(pg, where, ".nid-whatif-branch")
                coach_beside_the_options(pg, app, where)
        ARTIFACTS.mkdir(exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / f"layout-{size[0]}x{size[1]}.png"))
        watched.assert_clean()
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
