"""Take the README's tour pictures from the real dashboard: ``python docs/tour.py``.

Starts Voila from the project's files on a free local port, opens the dashboard in Debian's
Chromium at 1280×800 and saves one screenshot per tab to ``docs/images/`` (walkthrough, play,
what-if, lessons). ``python docs/tour.py --language de`` (or ``fr``) opens the page in that
language (``?lang=de``) and saves ``walkthrough-de.png``, ``play-de.png`` and
``lessons-de.png`` for docs/translating.md and the teachers' pages. Run it after a change of
what those tabs show, look at the pictures, and commit them.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from servers import start_voila, stop_voila  # noqa: E402

from nidavellir.tools.browser import launch_options  # noqa: E402

OUT = ROOT / "docs" / "images"
TIMEOUT = 120_000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--language", choices=("de", "fr"),
                        help="the page's language (pictures named NAME-LANG.png)")
    args = parser.parse_args(argv)
    if args.language:
        return translated(args.language)
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = start_voila("notebooks", Path(tmp))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(**launch_options())
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.goto(server.render_url("dashboard.ipynb"))
                page.locator(".nid-wt-title").wait_for(timeout=TIMEOUT)
                for _ in range(3):  # a few steps in, while Next is open
                    if not page.locator("button.nid-wt-next").is_enabled():
                        break
                    page.locator("button.nid-wt-next").click()
                    page.wait_for_timeout(400)
                page.screenshot(path=str(OUT / "walkthrough.png"))

                def tab(title: str) -> None:
                    page.get_by_role("tab", name=title, exact=True).click()

                tab("Play")
                page.locator(".nid-play-app").first.wait_for(timeout=TIMEOUT)
                page.wait_for_timeout(1500)
                page.screenshot(path=str(OUT / "play.png"))
                tab("What-if")
                page.locator(".nid-whatif-study").wait_for(timeout=TIMEOUT)
                # The coach judges the Play game's bid: the table the README describes.
                page.get_by_role("button", name="Score the Play game's options").click()
                page.locator(".nid-whatif-judged").wait_for(timeout=TIMEOUT)
                page.wait_for_timeout(500)
                page.screenshot(path=str(OUT / "whatif.png"))
                tab("Probability lessons")
                page.locator(".nid-tab-lessons").wait_for(timeout=TIMEOUT)
                page.wait_for_function("() => !document.querySelector('.nid-tab-lessons')"
                                       ".innerText.includes('loading')", timeout=TIMEOUT)
                page.wait_for_timeout(1000)
                page.screenshot(path=str(OUT / "lessons.png"))
                browser.close()
        finally:
            stop_voila(server)
    for name in ("walkthrough", "play", "whatif", "lessons"):
        print(OUT / f"{name}.png")
    return 0


def translated(language: str) -> int:
    """The walkthrough (a few steps in), the Play tab and a probability lesson's first
    step answered, in ``language``; the tabs are found by their place (their names are
    the language's)."""
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    names = [f"walkthrough-{language}", f"play-{language}", f"lessons-{language}"]
    with tempfile.TemporaryDirectory() as tmp:
        server = start_voila("notebooks", Path(tmp))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(**launch_options())
                page = browser.new_page(viewport={"width": 1280, "height": 800},
                                        locale=language)
                page.goto(server.render_url("dashboard.ipynb") + f"?lang={language}")
                page.locator(".nid-wt-title").wait_for(timeout=TIMEOUT)
                # one step in: the first bid (its move waits for the learner)
                page.locator("button.nid-wt-next").click()
                page.locator(".nid-wt-title:has-text('2')").wait_for(timeout=TIMEOUT)
                page.locator(".nid-tab-walkthrough .widget-dropdown select").first.wait_for(
                    timeout=TIMEOUT)  # the bid's controls, drawn after the step's text
                page.wait_for_timeout(500)
                page.screenshot(path=str(OUT / f"{names[0]}.png"))
                tabs = page.locator(".nid-tabs .lm-TabBar-tab")
                tabs.nth(1).click()
                page.locator(".nid-play-app").first.wait_for(timeout=TIMEOUT)
                page.wait_for_timeout(1500)
                page.screenshot(path=str(OUT / f"{names[1]}.png"))
                tabs.nth(4).click()
                page.wait_for_function("() => !document.querySelector('.nid-tab-lessons')"
                                       ".innerText.includes('…')", timeout=TIMEOUT)
                page.wait_for_timeout(1000)
                page.screenshot(path=str(OUT / f"{names[2]}.png"))
                browser.close()
        finally:
            stop_voila(server)
    for name in names:
        print(OUT / f"{name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
