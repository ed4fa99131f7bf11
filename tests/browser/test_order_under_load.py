"""Issue 44 (Tests, 3rd bullet): the order of the story, in a real browser, on a busy
machine. Two CPU-bound processes run beside the server (started and stopped by the
fixture, each by its pid) while a whole 2-player game against a random bot is played at
1280×800, the Hint asked at every decision. A recorder in the page (a MutationObserver)
notes each state the page shows: the status line, the end-of-age summary, the decision's
fresh options, the player's own board, the Hint. From that record:

- **the summary first**: when the status line first says age 2 (and "Game over"), the
  summary of the age that ended is already on screen;
- **everything before the decision**: when a decision's options appear (chained decisions
  included: a hero after a line, Thrud's placement), the status line and the player's own
  board already show what they show while the decision waits;
- **the Hint never stale**: no Hint written for one decision is on screen while another
  decision is.

The test waits for states only (the page's own), never for seconds."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import ARTIFACTS, VoilaServer, start_voila, stop_voila, watch_page
from .test_dashboard import DASHBOARD, LOAD_TIMEOUT, UPDATE_TIMEOUT, mark_old, tab

pytestmark = pytest.mark.browser

APP = ".nid-play-app"
DECISION = f"{APP} .nid-decision"
FRESH = f"{DECISION} .nid-decision-options button.nid-choice:not([data-old])"
#: A quick coach (the Hint at every decision of a whole game, on a busy machine).
COACH_LEVEL = "search@20"

RECORDER = """
(sel) => {
  const q = s => document.querySelector(s);
  const text = s => { const e = q(s); return e ? e.textContent.trim() : ''; };
  window.__nidLog = [];
  let last = '';
  const snap = () => {
    const d = q(sel.decision);
    const m = d && d.className.match(/nid-moves-(\\d+)/);
    const summary = q(sel.decision + ' .nid-summary');
    const s = {
      moves: m ? Number(m[1]) : -1,
      fresh: document.querySelectorAll(sel.fresh).length,
      summary: summary && summary.offsetParent !== null ? summary.textContent.trim().slice(0, 80) : '',
      status: text(sel.app + ' .nid-status .nid-status-text'),
      board: text(sel.app + ' .nid-own-board'),
      hint: text(sel.app + ' .nid-hint-text'),
    };
    const key = JSON.stringify(s);
    if (key !== last) { last = key; window.__nidLog.push(s); }
  };
  window.__nidSnap = snap;
  new MutationObserver(snap).observe(document.body, {subtree: true, childList: true,
    characterData: true, attributes: true});
  snap();
}
"""


@pytest.fixture
def cpu_load() -> Iterator[list[int]]:
    """Two CPU-bound processes beside the server, stopped (each by its pid) afterwards."""
    procs = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(2)]
    try:
        yield [p.pid for p in procs]
    finally:
        for p in procs:
            p.kill()
            p.wait()


@pytest.fixture(scope="module")
def coached_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    server = start_voila("notebooks", tmp_path_factory.mktemp("order"),
                         env={"NIDAVELLIR_COACH_LEVEL": COACH_LEVEL})
    try:
        yield server
    finally:
        stop_voila(server)


def _mark(pg: Any, what: str) -> None:
    pg.evaluate("(what) => { window.__nidSnap(); window.__nidLog.push({mark: what}); }", what)


def _wait_after_move(pg: Any) -> None:
    """The page's next state after a move: fresh options, the summary or the game's end."""
    pg.wait_for_function(
        "(sel) => { const s = document.querySelector(sel.decision + ' .nid-summary-continue');"
        " if (s && s.offsetParent !== null) return true;"
        " const again = document.querySelector(sel.app + ' button.nid-play-again');"
        " if (again && again.offsetParent !== null) return true;"
        " return document.querySelectorAll(sel.fresh + ':not([disabled])').length > 0; }",
        arg={"decision": DECISION, "fresh": FRESH, "app": APP}, timeout=UPDATE_TIMEOUT)


def check_story(log: list[dict[str, Any]]) -> list[str]:
    """What the record shows out of order (empty: the story's order held)."""
    problems: list[str] = []
    states = [s for s in log if "mark" not in s]
    # The summary first: the status line never runs ahead of the age's summary.
    for ended, after in ((1, "Age 2"), (2, "Game over")):
        first = next((i for i, s in enumerate(states) if s["status"].startswith(after)), None)
        shown = next((i for i, s in enumerate(states)
                      if f"End of age {ended}" in s["summary"]), None)
        if first is None:
            problems.append(f"the status line never said {after!r}")
        elif shown is None or shown > first:
            problems.append(f"the status line said {states[first]['status']!r} before the "
                            f"summary of age {ended} was on screen")
    # Everything before the decision: the state when a decision's options appear is the
    # state the decision waits in (the last one recorded before the move was made).
    appeared: dict[str, Any] | None = None
    for i, s in enumerate(log):
        if "mark" in s:
            if s["mark"] == "move" and appeared is not None:
                waited = next(x for x in reversed(log[:i]) if "mark" not in x)
                for part in ("status", "board"):
                    if appeared[part] != waited[part]:
                        problems.append(f"decision {appeared['moves'] + 1}: its options "
                                        f"appeared with the {part} {appeared[part][:120]!r}, "
                                        f"then it showed {waited[part][:120]!r}")
            appeared = None
            continue
        if appeared is None and s["fresh"] > 0 and not s["summary"]:
            appeared = s
    # The Hint never stale: a Hint is on screen only at the decision it was written for.
    written: dict[str, int] = {}
    for s in states:
        if "Hint:" not in s["hint"]:
            continue
        at = written.setdefault(s["hint"], s["moves"])
        if at != s["moves"]:
            problems.append(f"the Hint of decision {at + 1} was still on screen at decision "
                            f"{s['moves'] + 1}: {s['hint'][:100]!r}")
    return problems


def test_the_story_keeps_its_order_on_a_busy_machine(coached_server: VoilaServer,
                                                    chromium: Any, cpu_load: list[int]) -> None:
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    watched = watch_page(pg)
    try:
        pg.goto(coached_server.render_url(DASHBOARD))
        pg.locator(".nid-wt-title").wait_for(timeout=LOAD_TIMEOUT)
        tab(pg, "Play").click()
        pg.locator(f"{DECISION} button.nid-choice").first.wait_for(timeout=LOAD_TIMEOUT)
        # A 2-player game against a random bot, no pause between the bot's moves.
        pg.locator(f"{APP} button.nid-setup-toggle").click()
        pg.locator(f"{APP} .nid-new-players select").select_option(label="2")
        pg.locator(f"{APP} .nid-seat-kind-0 select").select_option(label="human")
        pg.locator(f"{APP} .nid-seat-kind-1 select").select_option(label="easy (random)")
        pg.locator(f"{APP} .nid-new-bot-delay input").fill("0")
        pg.locator(f"{APP} .nid-new-bot-delay input").press("Enter")
        mark_old(pg, f"{DECISION} button")
        pg.evaluate(RECORDER, {"decision": DECISION, "fresh": FRESH, "app": APP})
        pg.locator(f"{APP} button.nid-new-start").click()
        _wait_after_move(pg)
        moves = summaries = 0
        again = pg.locator(f"{APP} button.nid-play-again")
        while True:
            go_on = pg.locator(f"{DECISION} .nid-summary-continue")
            if go_on.is_visible():
                summaries += 1
                _mark(pg, "summary read")
                mark_old(pg, f"{DECISION} button")
                go_on.click(timeout=UPDATE_TIMEOUT)
                pg.wait_for_function(
                    "(sel) => { const s = document.querySelector(sel); "
                    "return !s || s.offsetParent === null; }",
                    arg=f"{DECISION} .nid-summary-continue", timeout=UPDATE_TIMEOUT)
                if not again.is_visible():
                    _wait_after_move(pg)
                continue
            if again.is_visible():
                break
            # The Hint of this decision, then the move (the first option offered).
            pg.locator(f"{APP} button.nid-hint").click(timeout=UPDATE_TIMEOUT)
            pg.wait_for_function(
                "(sel) => { const h = document.querySelector(sel); "
                "return h && h.textContent.includes('Hint:'); }",
                arg=f"{APP} .nid-hint-text", timeout=UPDATE_TIMEOUT)
            _mark(pg, "move")
            mark_old(pg, f"{DECISION} button")  # the next decision's options are fresh
            pg.locator(f"{DECISION} .nid-decision-options button.nid-choice:not([disabled])"
                       ).first.click(timeout=UPDATE_TIMEOUT)
            moves += 1
            _wait_after_move(pg)
        _mark(pg, "game over")
        log = pg.evaluate("() => window.__nidLog")
        ARTIFACTS.mkdir(exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / "order_under_load_end.png"))
    finally:
        context.close()
    assert moves > 20 and summaries >= 2, (moves, summaries)
    problems = check_story(log)
    assert not problems, "\n".join(problems[:12])
    watched.assert_clean()


def test_the_checks_fail_on_the_defects_of_the_issue() -> None:
    """The record's checks, on records with the issue's defects: the status line ahead of
    the summary, a decision shown before the player's board had the card, a stale Hint."""
    def state(moves: int, status: str, summary: str = "", board: str = "b",
              hint: str = "", fresh: int = 1) -> dict[str, Any]:
        return {"moves": moves, "fresh": fresh, "summary": summary, "status": status,
                "board": board, "hint": hint}

    good = [state(0, "Age 1, round 1 — Ada (you): Bid", hint="Hint: a"), {"mark": "move"},
            state(1, "Age 1, round 1 — Ada (you): Bid", fresh=0),
            state(40, "End of age 1: read the summary", summary="End of age 1", fresh=0),
            {"mark": "summary read"},
            state(40, "Age 2, round 1 — Ada (you): Bid", board="c"), {"mark": "move"},
            state(80, "End of age 2 and of the game: read the summary",
                  summary="End of age 2 and of the game", fresh=0),
            {"mark": "summary read"}, state(80, "Game over. The winner: Ada", fresh=0)]
    assert check_story(good) == []
    late_summary = [*good[:3], state(40, "Age 2, round 1 — Ada (you): Bid", fresh=0),
                    *good[3:]]
    assert "before the summary of age 1" in check_story(late_summary)[0]
    board_late = [*good[:5], state(40, "Age 2, round 1 — Ada (you): Bid", board="b"),
                  *good[5:]]
    assert any("appeared with the board" in p for p in check_story(board_late))
    stale = [*good[:5], state(40, "Age 2, round 1 — Ada (you): Bid", board="c",
                              hint="Hint: a"), *good[6:]]
    assert any("Hint of decision 1 was still on screen" in p for p in check_story(stale))
