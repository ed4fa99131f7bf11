"""The order of the story on the Play tab (issue 44): a recorder in the page, the learner's
decisions played through it, and the checks of what it recorded.

A recorder in the page (a MutationObserver, :data:`RECORDER`) notes each state the page
shows: the status line, the end-of-age summary, the decision's fresh options, the player's
own board, the Hint. :func:`play_decisions` plays the learner's decisions (the Hint asked
at each, then the first option offered; the summaries read) and marks each move in the
record; :func:`check_story` reads the record:

- **the summary first**: when the status line first says age 2 (and "Game over"), the
  summary of the age that ended is already on screen;
- **everything before the decision**: when a decision's options appear (chained decisions
  included: a hero after a line, Thrud's placement), the status line and the player's own
  board already show what they show while the decision waits;
- **the Hint never stale**: no Hint written for one decision is on screen while another
  decision is.

Used by tests/browser/test_order_under_load.py (the decisions around the end of each age)
and benchmarks/bench_browser_game.py (a whole game on a busy machine). Every wait is for a
state of the page, never for a time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .test_dashboard import UPDATE_TIMEOUT

APP = ".nid-play-app"
DECISION = f"{APP} .nid-decision"
OPTIONS = f"{DECISION} .nid-decision-options button.nid-choice"
SELECTORS = {"decision": DECISION, "options": OPTIONS, "app": APP}

#: The options of the newest decision drawn in the panel: the choice buttons with the largest
#: ``nid-at-N`` (N: the decisions taken before theirs). A button of the decision just played
#: can still appear after the click (the page draws widgets asynchronously: the coach's move,
#: judged shortly before): its N is the old decision's, so it is never taken for the next
#: decision's options (busy clean run 36 and a 2-hog rerun took it for them).
NEWEST = """
const newest = (sel) => {
  let at = -1, fresh = 0, enabled = 0;
  for (const b of document.querySelectorAll(sel.options)) {
    const m = b.className.match(/nid-at-(\\d+)/);
    const n = m ? Number(m[1]) : -1;
    if (n > at) { at = n; fresh = 0; enabled = 0; }
    if (n === at) { fresh += 1; if (!b.disabled) enabled += 1; }
  }
  return {at, fresh, enabled};
};
"""

RECORDER = """
(sel) => {
""" + NEWEST + """
  const q = s => document.querySelector(s);
  const text = s => { const e = q(s); return e ? e.textContent.trim() : ''; };
  window.__nidLog = [];
  let last = '';
  const snap = () => {
    const d = q(sel.decision);
    const m = d && d.className.match(/nid-moves-(\\d+)/);
    const summary = q(sel.decision + ' .nid-summary');
    const options = newest(sel);
    const s = {
      moves: m ? Number(m[1]) : -1,
      at: options.at,
      fresh: options.fresh,
      summary: summary && summary.offsetParent !== null ? summary.textContent.trim().slice(0, 80) : '',
      status: text(sel.app + ' .nid-status .nid-status-text'),
      board: text(sel.app + ' .nid-own-board'),
      hint: text(sel.app + ' .nid-hint-text'),
    };
    const key = JSON.stringify(s);
    if (key !== last) { last = key; window.__nidLog.push(s); }
  };
  window.__nidSnap = snap;
  if (window.__nidObserver) window.__nidObserver.disconnect();  // one recorder at a time
  window.__nidObserver = new MutationObserver(snap);
  window.__nidObserver.observe(document.body, {subtree: true, childList: true,
    characterData: true, attributes: true});
  snap();
}
"""


def record_story(pg: Any) -> None:
    """Start the recorder (a new record, from the state shown now)."""
    pg.evaluate(RECORDER, SELECTORS)


def recorded(pg: Any) -> list[dict[str, Any]]:
    return list(pg.evaluate("() => window.__nidLog"))


def mark(pg: Any, what: str) -> None:
    """A mark in the record ("move": the learner is about to move)."""
    pg.evaluate("(what) => { window.__nidSnap(); window.__nidLog.push({mark: what}); }", what)


def status(pg: Any) -> str:
    return str(pg.locator(f"{APP} .nid-status .nid-status-text").inner_text())


def moves_shown(pg: Any) -> int:
    """The game's move count the decision on screen was drawn at (its ``nid-moves-N``)."""
    return int(pg.evaluate(
        "(sel) => { const d = document.querySelector(sel);"
        " const m = d && d.className.match(/nid-moves-(\\d+)/); return m ? Number(m[1]) : -1; }",
        DECISION))


def newest_options(pg: Any) -> dict[str, int]:
    """The newest decision's options in the panel (:data:`NEWEST`): its number ``at``, how
    many buttons, how many of them enabled."""
    return dict(pg.evaluate("(sel) => {" + NEWEST + " return newest(sel); }", SELECTORS))


def _wait(pg: Any, condition: str, arg: Any, what: str) -> None:
    """Wait until ``condition`` (a JavaScript function of ``[SELECTORS, arg]`` that may use
    :data:`NEWEST`) holds; on a timeout the error says ``what`` was waited for and what
    the page shows (:func:`page_state`)."""
    try:
        pg.wait_for_function("([sel, arg]) => {" + NEWEST + condition + "}",
                             arg=[SELECTORS, arg], timeout=UPDATE_TIMEOUT)
    except PlaywrightTimeout:
        raise AssertionError(f"{what}: the page shows {page_state(pg)}") from None


def page_state(pg: Any) -> dict[str, Any]:
    """What the waits of this module read on the page now (a failure says it)."""
    return dict(pg.evaluate(
        "(sel) => {" + NEWEST +
        " const d = document.querySelector(sel.decision);"
        " const shown = q => { const e = document.querySelector(q);"
        "   return e ? e.offsetParent !== null : null; };"
        " return {panel: d ? d.className : null, newest: newest(sel),"
        "  summary: shown(sel.decision + ' .nid-summary-continue'),"
        "  again: shown(sel.app + ' button.nid-play-again')}; }", SELECTORS))


def wait_after_move(pg: Any, before: int) -> None:
    """The page's next state after a move made at move count ``before``, in the panel drawn
    after it (its ``nid-moves-N`` past ``before``): the summary, the game's end, or the
    options of a later decision (their ``nid-at-N`` past ``before``; a button of the
    decision just played that appears late does not count), enabled. The panel's count
    first: a "Play again" or a summary still shown from before (a page the kernel just
    took back from a game's end, :func:`playing.near_the_end_of`) is not the next state."""
    _wait(pg,
          " const d = document.querySelector(sel.decision);"
          " const m = d && d.className.match(/nid-moves-(\\d+)/);"
          " if (!m || Number(m[1]) <= arg) return false;"
          " const s = document.querySelector(sel.decision + ' .nid-summary-continue');"
          " if (s && s.offsetParent !== null) return true;"
          " const again = document.querySelector(sel.app + ' button.nid-play-again');"
          " if (again && again.offsetParent !== null) return true;"
          " const o = newest(sel);"
          " return o.at > arg && o.enabled > 0;",
          before, f"no next state after the move made at {before}")


def wait_for_options_at(pg: Any, at: int) -> None:
    """The decision taken at move count ``at`` on the page: the panel drawn for it (its
    ``nid-moves-N``) and its options (their ``nid-at-N``), enabled. For a position the
    kernel brought the page to (an undo, :func:`playing.near_the_end_of`): what the page
    showed before (the game's end, its "Play again") is not it."""
    _wait(pg,
          " const d = document.querySelector(sel.decision);"
          " const m = d && d.className.match(/nid-moves-(\\d+)/);"
          " const o = newest(sel);"
          " return !!m && Number(m[1]) === arg && o.at === arg && o.enabled > 0;",
          at, f"no decision drawn at move count {at}")


def play_decisions(pg: Any, done: Callable[[], bool] | None = None,
                   hint: bool = True) -> tuple[int, int]:
    """Play the learner's decisions shown from now on (the Hint first when ``hint``, then
    the first option offered), reading each summary, until ``done()`` (checked before each
    decision) or the game's end. Returns (moves made, summaries read)."""
    moves = summaries = 0
    again = pg.locator(f"{APP} button.nid-play-again")
    while True:
        go_on = pg.locator(f"{DECISION} .nid-summary-continue")
        if go_on.is_visible():
            summaries += 1
            mark(pg, "summary read")
            at = moves_shown(pg)
            go_on.click(timeout=UPDATE_TIMEOUT)
            pg.wait_for_function(
                "(sel) => { const s = document.querySelector(sel); "
                "return !s || s.offsetParent === null; }",
                arg=f"{DECISION} .nid-summary-continue", timeout=UPDATE_TIMEOUT)
            if not again.is_visible():
                wait_after_move(pg, at - 1)  # the summary's decision: the same move count
            continue
        if again.is_visible() or (done is not None and done()):
            return moves, summaries
        if hint:
            pg.locator(f"{APP} button.nid-hint").click(timeout=UPDATE_TIMEOUT)
            pg.wait_for_function(
                "(sel) => { const h = document.querySelector(sel); "
                "return h && h.textContent.includes('Hint:'); }",
                arg=f"{APP} .nid-hint-text", timeout=UPDATE_TIMEOUT)
        mark(pg, "move")
        at = newest_options(pg)["at"]
        pg.locator(f"{OPTIONS}.nid-at-{at}:not([disabled])").first.click(
            timeout=UPDATE_TIMEOUT)
        moves += 1
        wait_after_move(pg, at)


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
    # A decision's options are the buttons of a decision later than any seen before the
    # last mark (a late button of the decision just played is not the next one's).
    appeared: dict[str, Any] | None = None
    seen = since = -1
    for i, s in enumerate(log):
        if "mark" in s:
            if s["mark"] == "move" and appeared is not None:
                waited = next(x for x in reversed(log[:i]) if "mark" not in x)
                for part in ("status", "board"):
                    if appeared[part] != waited[part]:
                        problems.append(f"decision {appeared['at'] + 1}: its options "
                                        f"appeared with the {part} {appeared[part][:120]!r}, "
                                        f"then it showed {waited[part][:120]!r}")
            appeared, since = None, seen
            continue
        seen = max(seen, s["at"])
        if appeared is None and s["at"] > since and s["fresh"] > 0 and not s["summary"]:
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
