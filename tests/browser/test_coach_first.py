"""The coach's move is the first control a learner's eye meets, and nothing is cut, in
English, German and French at 1280x800 with the coach's figures shown (issue 57).

In the Play tab the recommended move has its own row above each decision's drawing (which
keeps the table's order): at each of the learner's first decisions the first control of the
decision panel in reading order (top to bottom, then left to right) is the recommended
move's button, on the first screen, with the coach's figures, and the learner plays it
(German and French here; English at 1280x800 is ``test_layout.py``'s).
Then Replay opens a reviewed game (a record with its review) and shows the review whole:
the headline, the graph (its title inside its frame) and the listed moves with their
buttons. :mod:`layout` names every cut text and broken word in each language.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ARTIFACTS, VoilaServer, watch_page
from .test_dashboard import LOAD_TIMEOUT, UPDATE_TIMEOUT, mark_old
from .test_layout import no_problems

pytestmark = pytest.mark.browser

APP = ".nid-play-app"
DECISION = f"{APP} .nid-decision"
REVIEWED = "examples/records/three_players_reviewed.json"

#: The controls of ``root`` a reader meets, in reading order: visible buttons, menus and
#: text boxes sorted by their top (rows of 8 px), then their left.
FIRST_CONTROLS = """
(root) => {
  const scope = document.querySelector(root);
  if (!scope) return [];
  const out = [];
  for (const el of scope.querySelectorAll('button, select, input, textarea')) {
    const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    if (r.width === 0 || r.height === 0 || s.visibility === 'hidden'
        || el.offsetParent === null) continue;
    out.push({top: Math.round(r.top / 8), left: r.left, bottom: r.bottom,
              classes: el.className || '', text: (el.innerText || '').trim()});
  }
  out.sort((a, b) => a.top - b.top || a.left - b.left);
  return out.slice(0, 3);
}
"""

#: The plotly title of the review's graph and the frame it is drawn in.
TITLE_INSIDE = """
(root) => {
  const plot = document.querySelector(root + ' .js-plotly-plot');
  const title = plot && plot.querySelector('.gtitle');
  if (!title) return null;
  const t = title.getBoundingClientRect(); const p = plot.getBoundingClientRect();
  return {inside: t.left >= p.left - 1 && t.right <= p.right + 1, text: title.textContent};
}
"""


# English at 1280x800 is test_layout.py's (the coach beside the options, nothing cut) and the
# coach's row first is the widgets' tests'; German and French have the longest words.
@pytest.mark.slow(reason="a page in the language, the learner's first decisions with the "
                         "coach's figures, then a reviewed game in Replay: about 26 s of CPU")
@pytest.mark.parametrize("lang", ["de", "fr"])
def test_the_coachs_move_comes_first_and_nothing_is_cut(voila_server: VoilaServer,
                                                        chromium: Any, lang: str) -> None:
    context = chromium.new_context(viewport={"width": 1280, "height": 800},
                                   locale={"en": "en-GB", "de": "de-DE", "fr": "fr-FR"}[lang])
    pg = context.new_page()
    watched = watch_page(pg)
    try:
        pg.goto(voila_server.render_url("dashboard.ipynb") + f"?lang={lang}")
        pg.locator(f"nav.nid-languages[lang='{lang}']").wait_for(timeout=LOAD_TIMEOUT)
        tabs = pg.locator(".nid-tabs .lm-TabBar-tab")
        tabs.nth(1).click()  # Play
        for decision in range(2):
            best = pg.locator(f"{DECISION} button.nid-coach-best:not([data-old])")
            best.filter(has_text="%").wait_for(timeout=LOAD_TIMEOUT)
            first = pg.evaluate(FIRST_CONTROLS, DECISION)
            assert first and "nid-coach-best" in first[0]["classes"], (lang, decision, first)
            assert first[0]["bottom"] <= 800, (lang, decision, first[0])  # the first screen
            assert first[0]["text"].startswith("★") and "%" in first[0]["text"]
            no_problems(pg, f"Play, decision {decision + 1} ({lang})", APP)
            # Mark what is shown (the next decision's buttons are the new ones), then the
            # learner plays the coach's move: the button just marked.
            mark_old(pg, f"{DECISION} button")
            pg.locator(f"{DECISION} button.nid-coach-best[data-old]").click(
                timeout=UPDATE_TIMEOUT)
        tabs.nth(2).click()  # Replay: a reviewed game, reopened whole
        pg.locator(".nid-replay-path input").fill(REVIEWED)
        pg.locator(".nid-replay-load").click()
        view = ".nid-replay .nid-replay-review-view"
        pg.locator(f"{view} .nid-review-status").filter(has_text="%").wait_for(
            timeout=UPDATE_TIMEOUT)
        pg.locator(f"{view} button.nid-mistake").first.wait_for(timeout=UPDATE_TIMEOUT)
        pg.locator(f"{view} .js-plotly-plot .gtitle").wait_for(timeout=UPDATE_TIMEOUT)
        title = pg.evaluate(TITLE_INSIDE, view)
        assert title is not None and title["inside"], (lang, title)
        no_problems(pg, f"Replay of a reviewed game ({lang})", ".nid-replay")
        ARTIFACTS.mkdir(exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / f"coach-first-{lang}-1280x800.png"), full_page=True)
        watched.assert_clean()
    finally:
        context.close()
