"""Issue 44 (Tests, 3rd bullet): the order of the story, in a real browser: the summary
first, everything before the decision, the Hint never stale (:mod:`story` says how each is
read from a recorder in the page).

A 2-player game against a random bot at 1280×800, the Hint asked at every decision the
learner makes, around the two places where the story has most to tell at once: the end of
age 1 (the last picks, the distinctions with their chained decisions, the summary, the
first decision of age 2) and the end of the game (the last picks of age 2, the summary, Game
over). The rest of the game is played in the page's kernel (:func:`playing.near_the_end_of`:
two random bots, then the learner's seat back and the game undone to a few decisions
before the end of the age), not through the page: a whole game through the page is
benchmarks/bench_browser_game.py, which also plays it beside two CPU-bound processes.

``NIDAVELLIR_HOGS=N`` runs N CPU-bound processes beside the test (none by default: ``make
test`` keeps the machine busy with the other tests already): ``NIDAVELLIR_HOGS=2
.venv/bin/python -m pytest -p no:xdist tests/browser/test_order_under_load.py``. They are
other work on the machine, not the test's: they run outside its processes (the speed guard
does not count them) and are ended by their ids.

The test waits for states only (the page's own), never for seconds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import psutil
import pytest

from .conftest import ARTIFACTS, VoilaServer, watch_page
from .playing import learners_decisions, near_the_end_of
from .story import (
    APP,
    DECISION,
    NEWEST,
    SELECTORS,
    check_story,
    mark,
    play_decisions,
    record_story,
    recorded,
    status,
)
from .test_dashboard import DASHBOARD, LOAD_TIMEOUT, UPDATE_TIMEOUT, mark_old, tab

pytestmark = pytest.mark.browser

#: How many CPU-bound processes run beside the test (docs/development.md).
HOGS_VARIABLE = "NIDAVELLIR_HOGS"

#: Started by a short-lived launcher, so that they are not the test's children: the
#: launcher prints their ids and exits (the hogs hold none of its pipes).
LAUNCH_HOGS = """
import subprocess, sys
hogs = [subprocess.Popen([sys.executable, "-c", "while 1: pass"], start_new_session=True,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
        for _ in range(int(sys.argv[1]))]
print(" ".join(str(h.pid) for h in hogs))
"""


def start_hogs(n: int) -> list[psutil.Process]:
    """``n`` CPU-bound processes outside the caller's process tree (end them with
    :func:`stop_hogs`)."""
    if n <= 0:
        return []
    out = subprocess.run([sys.executable, "-c", LAUNCH_HOGS, str(n)], check=True,
                         stdout=subprocess.PIPE, text=True, timeout=60).stdout
    return [psutil.Process(int(pid)) for pid in out.split()]


def stop_hogs(hogs: list[psutil.Process]) -> None:
    for hog in hogs:  # psutil checks the process is still the one started (no reused id)
        try:
            hog.kill()
        except psutil.NoSuchProcess:
            pass


@pytest.fixture
def busy_machine() -> Iterator[int]:
    """``NIDAVELLIR_HOGS`` CPU-bound processes beside the test, stopped afterwards."""
    try:
        n = int(os.environ.get(HOGS_VARIABLE, "0"))
    except ValueError:
        pytest.fail(f"{HOGS_VARIABLE} must be a number of processes, not "
                    f"{os.environ[HOGS_VARIABLE]!r}")
    hogs = start_hogs(n)
    try:
        yield n
    finally:
        stop_hogs(hogs)


def shown_at_the_learners_decision(pg: Any, age: int, index: int) -> None:
    """Wait until the page shows the learner's decision in ``age`` that the kernel was set
    to (after a change made in the kernel): the decision's move count (``nid-moves-N``, N
    the game's history index) and its options (``nid-at-N``) name it. A status line and
    options alone are not enough: on a busy machine a late update of the decision the page
    showed before (age 2's first bid) drew its buttons again (busy clean run 19: "decision
    37: its options appeared with the status 'Age 2, round 1' ..., then it showed 'round 4
    ... Place Thrud'")."""
    pg.wait_for_function(
        "([sel, status, age, moves]) => {" + NEWEST +
        " const d = document.querySelector(sel.decision);"
        " if (!d || !d.classList.contains('nid-moves-' + moves)) return false;"
        " const s = document.querySelector(status);"
        " const t = s ? s.textContent.trim() : '';"
        " const o = newest(sel);"
        " return t.startsWith('Age ' + age) && t.includes('(you)')"
        " && o.at === moves && o.enabled > 0; }",
        arg=[SELECTORS, f"{APP} .nid-status .nid-status-text", age, index],
        timeout=UPDATE_TIMEOUT)


#: The game (its seed) and where the page takes over: (age, the learner's decisions before
#: its end). From there the learner (the first option offered) recruits a hero, picks, makes
#: the Pioneer's pick (the distinctions of age 1) and recruits a hero chained to it; in age
#: 2 places Thrud, recruits a hero and places Thrud again, chained to it: the chained
#: decisions of the issue, around both summaries.
SEED = 6
TAKEN_OVER = ((1, 2), (2, 1))
CHAINED = {"hero", "pioneer", "thrud"}


@pytest.mark.slow(reason="plays the learner's decisions of the end of both ages through the page: about 40 s of CPU")
def test_the_story_keeps_its_order_at_the_end_of_each_age(
        voila_server: VoilaServer, chromium: Any, busy_machine: int) -> None:
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    watched = watch_page(pg)
    log: list[dict[str, Any]] = []
    moves = summaries = 0
    kinds: list[str] = []
    try:
        pg.goto(voila_server.render_url(DASHBOARD))
        pg.locator(".nid-wt-title").wait_for(timeout=LOAD_TIMEOUT)
        tab(pg, "Play").click()
        pg.locator(f"{DECISION} button.nid-choice").first.wait_for(timeout=LOAD_TIMEOUT)
        for age, before in TAKEN_OVER:
            mark_old(pg, f"{DECISION} button")
            since = near_the_end_of(voila_server, pg, age, before, SEED)["index"]
            shown_at_the_learners_decision(pg, age, since)
            record_story(pg)
            made, read = play_decisions(
                pg, (lambda: status(pg).startswith("Age 2")) if age == 1 else None)
            moves, summaries = moves + made, summaries + read
            mark(pg, f"end of age {age}")
            log += recorded(pg)
            kinds += learners_decisions(voila_server, pg, since)
        ARTIFACTS.mkdir(exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / "order_end_of_the_game.png"))
    finally:
        context.close()
    print(f"the learner's decisions: {kinds}; {summaries} summaries read; "
          f"{busy_machine} CPU-bound processes beside")
    assert summaries >= 2 and moves == len(kinds), (moves, summaries, kinds)
    assert CHAINED <= set(kinds), f"the chained decisions were not met: {kinds}"
    problems = check_story(log)
    if problems:  # the whole record beside the screenshots, to read what the page showed
        (ARTIFACTS / "order_story_record.json").write_text(
            json.dumps(log, indent=1, ensure_ascii=False), encoding="utf-8")
    assert not problems, "\n".join(problems[:12])
    watched.assert_clean()


def test_the_checks_fail_on_the_defects_of_the_issue() -> None:
    """The record's checks, on records with the issue's defects: the status line ahead of
    the summary, a decision shown before the player's board had the card, a stale Hint."""
    def state(moves: int, status: str, summary: str = "", board: str = "b",
              hint: str = "", fresh: int = 1, at: int | None = None) -> dict[str, Any]:
        return {"moves": moves, "at": (moves if fresh else -1) if at is None else at,
                "fresh": fresh, "summary": summary, "status": status, "board": board,
                "hint": hint}

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
    # A button of the decision just played, drawn late (after the click), is not the next
    # decision's options: no problem (the record of a 2-hog rerun of busy clean run 36).
    late_button = [*good[:3], state(1, "Age 1, round 1 — Ada (you): Bid", fresh=1, at=0),
                   state(1, "Age 1, round 1 — Bo (easy bot): Bid", fresh=1, at=0),
                   *good[3:]]
    assert check_story(late_button) == []
    # ... but the next decision's options before its status line are.
    early = [*good[:5], state(40, "End of age 1: read the summary", board="c"), *good[5:]]
    assert any("decision 41: its options appeared with the status" in p
               for p in check_story(early)), check_story(early)
    stale = [*good[:5], state(40, "Age 2, round 1 — Ada (you): Bid", board="c",
                              hint="Hint: a"), *good[6:]]
    assert any("Hint of decision 1 was still on screen" in p for p in check_story(stale))
