"""The Puzzles tab in a real browser at 1280×800 (issue 54).

A shipped puzzle is shown from its seat's view with the Play tab's control; a click on one
of its moves brings the verdict (solved or not), the judge's figures of every option and
the new ratings, and the learner's rating line counts the attempt; *Next puzzle* shows
another puzzle. The learner's history goes to the run's temporary data folder
(tests/conftest.py). Which move is right is the model's business (tests/test_puzzles_tab.py
solves one and fails one); a German page answered wrong on purpose, its verdict and its
rating going down, is tests/browser/test_layout_german.py's. Screenshot in test-artifacts/.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import ARTIFACTS, PageWatch, VoilaServer
from .test_dashboard import UPDATE_TIMEOUT, open_dashboard, tab, wait_text

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1280, "height": 800}


def heading(pg: Any) -> str:
    return str(pg.locator(".nid-pz-heading").inner_text())


def test_an_answer_moves_the_rating_then_the_next_puzzle(voila_server: VoilaServer,
                                                         page: PageWatch) -> None:
    pg = page.page
    pg.set_viewport_size(VIEWPORT)
    open_dashboard(voila_server, pg, label="puzzles")
    tab(pg, "Puzzles").click()
    wait_text(pg, ".nid-pz-heading", r"Puzzle p[0-9a-f]+")
    wait_text(pg, ".nid-pz-rating", r"\d+ puzzles? tried")
    # The learner's history is the run's (other tests of the page answer puzzles too).
    tried = re.search(r"(\d+) puzzles? tried", pg.locator(".nid-pz-rating").inner_text())
    assert tried, pg.locator(".nid-pz-rating").inner_text()
    first = heading(pg)
    pg.locator(".nid-pz-board .nid-choice").first.click()
    wait_text(pg, ".nid-pz-verdict", r"Solved|Not the best move")
    wait_text(pg, ".nid-pz-rating", rf"\b{int(tried.group(1)) + 1} puzzles? tried")
    ratings = pg.locator(".nid-pz-ratings").inner_text()
    assert re.search(r"Your rating: [\d,]+ \(± [\d,]+\) \([+-]\d+\)", ratings), ratings
    # The judge's figures: a header and a row per option (two at least).
    assert pg.locator(".nid-pz-options tr").count() >= 3
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / "puzzles_answered.png"))
    pg.locator(".nid-pz-next").click()
    pg.wait_for_function("(old) => { const h = document.querySelector('.nid-pz-heading');"
                         " return h && /Puzzle p[0-9a-f]+/.test(h.innerText)"
                         " && h.innerText !== old; }", arg=first, timeout=UPDATE_TIMEOUT)
    assert pg.locator(".nid-pz-verdict").count() == 0
    page.assert_clean()
