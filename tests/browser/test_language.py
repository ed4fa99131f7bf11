"""The language of a page in a real browser, from a preheated class pool (issue 46).

A class server in German (``--language de``) with three dashboards preheated: one page asks
for English in its address (its browser says French), one has a French browser, one a
Spanish browser (not a language of the lab). Every page is served by a kernel that built the
interface in German before any page came (``data-built`` starts with ``de``), and each ends
in the language chosen by the order address, browser, server; the switch links to the other
languages. The test waits for states (the switch in the chosen language), never a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import (
    ARTIFACTS,
    PATIENCE_S,
    VoilaServer,
    start_voila,
    stop_voila,
    wait_until,
    watch_page,
)

pytestmark = pytest.mark.browser

LOAD_TIMEOUT = int(PATIENCE_S * 1000)


@pytest.fixture(scope="module")
def german_class(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """The server of a class taught in German, once its three kernels have run the
    dashboard (the pool is warm before any page comes)."""
    server = start_voila("notebooks", tmp_path_factory.mktemp("voila-language"), [
        "--language", "de", "--class-size", "3", "--spares", "0"])
    try:
        wait_until(lambda: "*** The class can come in" in server.log(),
                   "the three kernels were ready")
        yield server
    finally:
        stop_voila(server)


def test_a_preheated_class_pool_gives_each_page_its_language(
        chromium: Any, german_class: VoilaServer) -> None:
    server = german_class
    contexts: list[Any] = []
    try:
        cases = [  # (address, browser locale, the language chosen, languages built)
            ("?lang=en", "fr-FR", "en", "de en"),
            ("", "fr-FR", "fr", "de fr"),
            ("", "es-ES", "de", "de"),
        ]
        pages = []
        for query, locale, _lang, _built in cases:
            ctx = chromium.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
            contexts.append(ctx)
            pg = ctx.new_page()
            watch = watch_page(pg)
            pg.goto(server.render_url("dashboard.ipynb") + query, wait_until="commit")
            pages.append(watch)
        for (_query, locale, lang, built), watch in zip(cases, pages, strict=True):
            nav = watch.page.locator(f"nav.nid-languages[lang='{lang}'][data-built='{built}']")
            nav.wait_for(timeout=LOAD_TIMEOUT)
            # Built again once the page said its widgets were restored, never while it
            # restored them (widgets/language.py), and never after a wait for its word.
            assert nav.get_attribute("data-rebuilt") == ("restored" if " " in built else None)
            current = nav.locator("b").inner_text()
            links = {a.get_attribute("hreflang"): a.get_attribute("href")
                     for a in nav.locator("a").all()}
            assert current == {"en": "English", "de": "Deutsch", "fr": "Français"}[lang]
            assert set(links) == {"en", "de", "fr"} - {lang}
            assert all(href.endswith(f"lang={code}") for code, href in links.items())
            ARTIFACTS.mkdir(exist_ok=True)
            watch.page.screenshot(path=str(ARTIFACTS / f"language-{lang}-{locale}.png"))
            watch.assert_clean()
        # The switch works: following a link opens the page in that language.
        first = pages[0].page
        first.locator("nav.nid-languages a[hreflang='fr']").click()
        first.locator("nav.nid-languages[lang='fr']").wait_for(timeout=LOAD_TIMEOUT)
        assert "lang=fr" in first.url
    finally:
        for ctx in contexts:
            ctx.close()
