"""Every tab of the dashboard in the browser, in the pseudo-language (issue 46): no word a
learner sees outside the catalogues' ⟦…⟧ markers.

tests/test_dashboard_language.py reads the widgets' model; this walk reads what the browser
shows: the page's visible text (``innerText``: what CSS hides is not read), the tooltips,
placeholders and accessible names of the visible elements, and the charts' SVG text, so the
page's own words (the notebook's, the style sheet's, the tab bar's) are read too. The page
is walked as a learner walks it, its states found by the page's classes (their words are
pseudo-words): the walkthrough's first two steps, the Play tab with its coach's figures and
its new-game form, a recorded game in Replay at three positions, a What-if branch from it,
a probability lesson through its prediction, simulation and exact answer, and the free
probability lab with a question simulated. Allowed
outside the markers, as in the model's walk: the seats' names (data), notation (card and
hero tokens, the actions' verbs, a coin's place) and the languages' own names in the
language switch (each is written in itself). A screenshot goes to ``test-artifacts/``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from nidavellir import Game
from nidavellir import cards as C
from nidavellir.actions import PLACES
from nidavellir.i18n import escaped
from nidavellir.lessons import Library
from nidavellir.rules.base import CHOICES

from .conftest import ARTIFACTS, VoilaServer, watch_page
from .test_dashboard import LOAD_TIMEOUT, UPDATE_TIMEOUT, mark_old, wait_text
from .test_layout import ROOT

pytestmark = pytest.mark.browser

RECORD = "examples/records/three_players.json"

#: What a learner reads in a part of the page: its visible text, and the tooltips,
#: placeholders and accessible names of its visible elements (SVG text included).
READ = """(root) => {
  const out = [root.innerText];
  for (const el of root.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    for (const name of ['title', 'placeholder', 'aria-label']) {
      const value = el.getAttribute(name);
      if (value) out.push(value);
    }
    if (el instanceof SVGTextElement) out.push(el.textContent);
  }
  return out;
}"""


def allowed_words() -> set[str]:
    """Words that may stand outside the markers (the module's docs)."""
    words = {w for c in C.ALL_CARDS for w in re.split(r"[/\s]", c.token)}
    words |= {verb for cls in CHOICES.values() for verb in cls.verbs}
    words |= set(PLACES)
    words |= {"English", "Deutsch", "Français"}
    record = json.loads((ROOT / RECORD).read_text(encoding="utf-8"))
    words |= {w for name in Game.from_record(dict(record, actions=[])).names
              for w in name.split()}  # the recorded game's seats
    # the walkthroughs' seats, as their lesson files name them (You, Bo, Cy)
    words |= {w for lesson in Library().lessons("walkthrough") for name in lesson.names
              for w in name.split()}
    return words


def record_length() -> int:
    return len(json.loads((ROOT / RECORD).read_text(encoding="utf-8"))["actions"])


@pytest.mark.slow(reason="opens every tab, walkthrough and lesson of the page in the pseudo-language: about 30 s of CPU")
def test_every_tab_in_the_pseudo_language_shows_no_word_outside_the_catalogues(
        voila_server: VoilaServer, chromium: Any) -> None:
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    watched = watch_page(pg)
    allowed = allowed_words()
    escapes: dict[str, tuple[str, str]] = {}

    def read(where: str, root: str = ".nid-tabs") -> None:
        """Every word of ``root`` outside the markers, with where it was seen."""
        texts = pg.locator(root).first.evaluate(READ)
        assert any("⟦" in t for t in texts), f"{where}: nothing in the pseudo-language"
        for text in texts:
            for word in escaped(text or "", allowed):
                at = max(0, (text or "").find(word) - 60)
                escapes.setdefault(word, (where, (text or "")[at:at + 160]))

    try:
        pg.goto(voila_server.render_url("dashboard.ipynb") + "?lang=qps")
        # The page's own language, not the server's the preheated kernel showed first (it is
        # built again once the page's widgets are restored, widgets/language.py).
        pg.locator("nav.nid-languages[lang='qps']").wait_for(timeout=LOAD_TIMEOUT)
        pg.locator("button.nid-wt-next", has_text="⟦").wait_for(timeout=LOAD_TIMEOUT)
        read("the language switch", "nav.nid-languages")
        read("Walkthrough, step 1")
        pg.locator("button.nid-wt-next").click()
        pg.locator(".nid-tab-walkthrough .widget-dropdown select").first.wait_for(
            timeout=UPDATE_TIMEOUT)
        read("Walkthrough, step 2 (the first bid)")

        tabs = pg.locator(".nid-tabs .lm-TabBar-tab")
        tabs.nth(1).click()  # Play
        pg.locator(".nid-play-app .nid-decision .nid-prompt").first.wait_for(
            timeout=LOAD_TIMEOUT)
        pg.locator(".nid-play-app button.nid-coach-best").filter(has_text="%").first.wait_for(
            timeout=LOAD_TIMEOUT)  # the coach's figures on the options
        read("Play, the first bid with the coach's figures")
        pg.locator(".nid-play-app button.nid-setup-toggle").click()
        pg.locator(".nid-play-app button.nid-new-start").wait_for(timeout=UPDATE_TIMEOUT)
        read("Play, the new-game form")

        tabs.nth(2).click()  # Replay
        pg.locator(".nid-replay-path input").fill(RECORD)
        pg.locator(".nid-replay-load").click()
        wait_text(pg, ".nid-replay-info", rf"\b{record_length()}:")  # opened at its end
        total = record_length()
        for value in sorted({1, total // 2, max(1, total - 1)}):
            readout = pg.locator(".nid-replay-slider .widget-readout")
            readout.click()
            readout.press("Control+A")
            readout.type(str(value))
            readout.press("Enter")
            wait_text(pg, ".nid-replay-info", rf"\b{value}:")
            read(f"Replay at decision {value}")

        mark_old(pg, ".nid-whatif-branch .nid-decision")
        pg.locator(".nid-replay-branch").click()
        tabs.nth(3).click()  # What-if
        app = ".nid-whatif-branch .nid-play-app"
        pg.locator(f"{app} .nid-decision:not([data-old]) .nid-prompt").wait_for(
            timeout=UPDATE_TIMEOUT)
        read("What-if, a branch from Replay")

        tabs.nth(4).click()  # Probability lessons
        lesson = pg.locator(".nid-tab-lessons")
        submit = lesson.locator("button.nid-pl-submit")
        submit.wait_for(timeout=LOAD_TIMEOUT)
        read("Probability lesson, the prediction")
        submit.click()
        run = lesson.locator("button.nid-pl-simulate")
        pg.wait_for_function("(b) => !b.disabled", arg=run.element_handle(),
                             timeout=UPDATE_TIMEOUT)
        run.click()
        reveal = lesson.locator("button.nid-pl-reveal")
        pg.wait_for_function("(b) => !b.disabled", arg=reveal.element_handle(),
                             timeout=UPDATE_TIMEOUT)
        reveal.click()
        lesson.locator(".nid-pl-verdict").wait_for(timeout=UPDATE_TIMEOUT)
        read("Probability lesson, the simulation and the exact answer")
        pg.locator(".nid-pl-chooser button").last.click()  # the free probability lab
        lab = pg.locator(".nid-tab-lessons .nid-lessons")
        lab.locator("button.nid-lab-run").click()
        lab.locator(".nid-lab-words").wait_for(timeout=UPDATE_TIMEOUT)
        read("the probability lab, a question simulated")
        ARTIFACTS.mkdir(exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / "language-qps-1280x800.png"))
        assert not escapes, "\n".join(f"{where}: {word!r} in {text!r}"
                                      for word, (where, text) in sorted(escapes.items()))
        watched.assert_clean()
    finally:
        context.close()
