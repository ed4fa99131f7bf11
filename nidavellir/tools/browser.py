"""Debian's chromium and the flags of every headless run in the lab: the browser tests,
the class benchmarks, the docs' screenshots and the first-paint recorder
(:mod:`nidavellir.classroom.server.first_paint`). No request may leave the machine, so
everything that phones home is off.

Launch it with :func:`launch_options` (``playwright.chromium.launch(**launch_options())``):
Chromium keeps one ``--disable-features`` list, the last one given, so the features the
lab turns off (:data:`DISABLED_FEATURES`) go into a copy of Playwright's own list, which
then replaces Playwright's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]

#: Features turned off besides Playwright's: the address bar's popup, a page of Chromium's
#: own (chrome://omnibox-popup.top-chrome/) that headless Chromium (156 here) loads in a
#: renderer of its own for every page it opens, though a headless page never shows it:
#: 0.7 s of CPU each time on this project's machines, a third of a dashboard's load
#: (Puppeteer turns the same two off by default).
DISABLED_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")


def playwright_disabled_features() -> list[str] | None:
    """The features Playwright's launch turns off (its ``--disable-features`` list, read
    from the installed driver's source), or None where it cannot be read: then the lab
    adds no list of its own and Playwright's stays as it is."""
    try:
        import playwright
    except ImportError:
        return None
    lib = Path(playwright.__file__).parent / "driver" / "package" / "lib"
    for path in (lib / "coreBundle.js", lib / "server" / "chromium" / "chromiumSwitches.js"):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        found = re.search(r"\bdisabledFeatures\s*=\s*\[(.*?)\]", text, re.S)
        if found:
            body = re.sub(r"//[^\n]*", "", found.group(1))
            names = re.findall(r"[\"']([A-Za-z0-9_]+)[\"']", body)
            if names:
                return names
    return None


def launch_options(**overrides: Any) -> dict[str, Any]:
    """Playwright's ``chromium.launch`` arguments: Debian's chromium, :data:`CHROMIUM_ARGS`,
    and :data:`DISABLED_FEATURES` merged into Playwright's own list of disabled features
    (its list is left out and the merged one given instead)."""
    options: dict[str, Any] = {"executable_path": CHROMIUM, "args": list(CHROMIUM_ARGS)}
    theirs = playwright_disabled_features()
    if theirs:
        options["ignore_default_args"] = ["--disable-features=" + ",".join(theirs)]
        merged = [*theirs, *(f for f in DISABLED_FEATURES if f not in theirs)]
        options["args"].append("--disable-features=" + ",".join(merged))
    options.update(overrides)
    return options


__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "DISABLED_FEATURES", "launch_options",
           "playwright_disabled_features"]
