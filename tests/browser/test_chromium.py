"""The shared Chromium as the lab launches it (nidavellir/tools/browser.py): Playwright's own
disabled features kept, and no address-bar popup page started for every page a test opens
(0.7 s of CPU a page, a third of a dashboard's load, issue 55)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from nidavellir.tools.browser import DISABLED_FEATURES, playwright_disabled_features

pytestmark = pytest.mark.browser


def _renderer_features() -> set[str]:
    """The disabled features of the running Chromium's renderers (their command lines)."""
    found: set[str] = set()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                line = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if "chromium" not in line or "--type=renderer" not in line:
            continue
        for part in line.split():
            if part.startswith("--disable-features="):
                found |= set(part.split("=", 1)[1].split(","))
    return found


def test_no_omnibox_popup_and_playwrights_features_stay_off(chromium: Any) -> None:
    theirs = playwright_disabled_features()
    assert theirs and "MediaRouter" in theirs  # read from the installed Playwright
    context = chromium.new_context()
    try:
        pg = context.new_page()
        pg.goto("data:text/html,<p id='here'>a page</p>")
        pg.locator("#here").wait_for()
        targets = context.browser.new_browser_cdp_session().send("Target.getTargets")
        urls = [t["url"] for t in targets["targetInfos"]]
        assert not [u for u in urls if "omnibox" in u], urls
        features = _renderer_features()
        assert set(theirs) | set(DISABLED_FEATURES) <= features, features
    finally:
        context.close()
