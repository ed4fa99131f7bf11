"""The welcome notebook in a real browser: it renders the rulebook's score sheet with
no page error and no request leaving 127.0.0.1."""

from __future__ import annotations

import time

import pytest

from .conftest import PageWatch, VoilaServer
from .test_dashboard import LOAD_TIMEOUT

pytestmark = pytest.mark.browser


def test_welcome_notebook_renders_the_204_point_sheet(voila_server: VoilaServer,
                                                      page: PageWatch) -> None:
    start = time.monotonic()
    page.page.goto(voila_server.render_url("00_welcome.ipynb"))
    sheet = page.page.locator("table.nidavellir-score-sheet")
    sheet.wait_for(timeout=LOAD_TIMEOUT)
    print(f"welcome notebook: score sheet shown {time.monotonic() - start:.2f} s after goto")
    assert "204" in sheet.inner_text()
    page.assert_clean()
