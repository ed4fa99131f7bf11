"""The language of a page (widgets/language.py, nidavellir.i18n.choose): the address's
``?lang=``, else the browser's ``Accept-Language``, else the server's default; a preheated
kernel builds in the server's language and again for its page's request if that differs."""

from __future__ import annotations

import os
from typing import Any
from unittest import mock

import pytest

from nidavellir import i18n
from nidavellir.classroom import command
from nidavellir.i18n import choose
from widgets import language as L


@pytest.fixture(autouse=True)
def english_after() -> Any:
    yield
    i18n.set_language("en")


@pytest.mark.parametrize(("query", "browser", "server", "chosen"), [
    ("lang=fr", "de-DE,de;q=0.9", "de", "fr"),        # the address first
    ("lang=de&token=x", "", "fr", "de"),
    ("lang=qps", "", "en", "qps"),                      # the pseudo-language, by address only
    ("lang=xx", "fr-CH, fr;q=0.9, en;q=0.8", "de", "fr"),  # unknown: the browser's
    ("", "es, de;q=0.5, fr;q=0.7", "en", "fr"),        # the browser's by weight
    ("", "es, it", "de", "de"),                          # none of the lab's: the server's
    ("", "", "fr", "fr"),
    ("", "fr;q=0", "de", "de"),                          # q=0: not wanted
    ("", "", "", "en"),
])
def test_the_order_of_choice(query: str, browser: str, server: str, chosen: str) -> None:
    assert choose(query, browser, server) == chosen


def test_the_process_language_reaches_threads_and_new_contexts() -> None:
    import contextvars
    import threading

    i18n.set_language("de")
    seen: list[str] = []
    thread = threading.Thread(target=lambda: seen.append(i18n.language()))
    thread.start()
    thread.join()
    seen.append(contextvars.Context().run(i18n.language))
    with i18n.using("fr"):
        seen.append(i18n.language())
    assert seen == ["de", "de", "fr"]
    assert i18n.language() == "de"


def recorder() -> tuple[list[str], Any]:
    built: list[str] = []

    def build() -> Any:
        import ipywidgets as W

        built.append(i18n.language())
        return W.HTML(i18n.pgettext("tavern", "Dancing Dragon"))

    return built, build


def test_a_page_is_built_in_its_language() -> None:
    built, build = recorder()
    env = {"VOILA_PREHEAT": "False", "QUERY_STRING": "lang=de&token=abc",
           "HTTP_ACCEPT_LANGUAGE": "fr", i18n.LANGUAGE_ENV: "fr"}
    with mock.patch.object(L, "display") as shown:
        page = L.page(build, env)
    shown.assert_called_once_with(page)
    assert built == ["de"] and page.language == "de" and i18n.language() == "de"
    assert page.content.value == "Lachender Drache"
    # The switch: the other languages, the token kept, the current one marked.
    assert "<b lang='de'>Deutsch</b>" in page.switch.value
    assert "href='?token=abc&amp;lang=fr'" in page.switch.value
    assert "href='?token=abc&amp;lang=en'" in page.switch.value
    assert "Sprache:" in page.switch.value


def restored(page: L.LanguagePage) -> None:
    """What the page extension sends once the page's widgets are restored (as ipywidgets
    hands a custom message to the widget)."""
    page._handle_custom_msg({"event": L.RESTORED}, [])


def test_a_preheated_page_is_built_again_for_its_request() -> None:
    built, build = recorder()
    env = {"VOILA_PREHEAT": "True", i18n.LANGUAGE_ENV: "de"}
    order: list[str] = []

    def request_arrives() -> None:
        order.append(f"waited after {built}")
        env.update(QUERY_STRING="x=1", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")

    with mock.patch.object(L, "display") as shown:
        page = L.page(build, env, wait=request_arrives)
    # The notebook ends (the pool counts the kernel ready) without waiting for a page.
    restored(page)  # the page's widgets restored, before or after the request was read
    assert page.requested.wait(30)
    # Built in the server's language before the request, then again in the browser's.
    assert order == ["waited after ['de']"] and built == ["de", "fr"]
    shown.assert_called_once_with(page)
    assert page.content.value == "Dragon Dansant" and page.children[1] is page.content
    assert "data-built='de fr' data-rebuilt='restored'" in page.switch.value


def test_the_page_s_language_waits_for_the_page_s_widgets() -> None:
    """Never built while the page restores its widgets (the race of the German layout test,
    widgets/language.py): the request alone builds nothing; the page's word builds it,
    once, on the thread that hears it; a second word (a reconnected page) builds nothing."""
    built, build = recorder()
    i18n.set_language("de")
    page = L.LanguagePage(build, "de")
    page.want("fr", "x=1")
    assert built == ["de"] and not page.requested.is_set()
    restored(page)
    assert built == ["de", "fr"] and page.requested.is_set() and page.rebuilt == "restored"
    restored(page)
    assert built == ["de", "fr"]
    # The other order: the page restored before its request was read builds at once.
    built2, build2 = recorder()
    other = L.LanguagePage(build2, "de")
    restored(other)
    assert built2 == ["de"]
    other.want("en", "")
    assert built2 == ["de", "en"] and other.language == "en"


def test_a_page_that_never_says_it_restored_is_built_after_a_wait() -> None:
    built, build = recorder()
    env = {"VOILA_PREHEAT": "True", i18n.LANGUAGE_ENV: "de", "QUERY_STRING": "lang=fr"}
    with mock.patch.object(L, "display"):
        page = L.page(build, env, wait=lambda: None, restore_wait_s=0)
    assert page.requested.wait(30)
    assert built == ["de", "fr"] and "data-rebuilt='waited'" in page.switch.value


def test_a_preheated_page_in_the_server_s_language_is_built_once() -> None:
    built, build = recorder()
    env = {"VOILA_PREHEAT": "True", i18n.LANGUAGE_ENV: "fr"}
    with mock.patch.object(L, "display"):
        page = L.page(build, env, wait=lambda: env.update(QUERY_STRING="",
                                                          HTTP_ACCEPT_LANGUAGE="es"))
    restored(page)
    assert page.requested.wait(30)
    assert built == ["fr"] and page.language == "fr"


def test_a_preheated_page_whose_request_cannot_be_read_says_so() -> None:
    built, build = recorder()

    def broken() -> None:
        raise OSError("no route to the server")

    with mock.patch.object(L, "display"):
        page = L.page(build, {"VOILA_PREHEAT": "True", i18n.LANGUAGE_ENV: "de"}, wait=broken)
    assert page.requested.wait(30)
    assert built == ["de"] and "no route to the server" in page.switch.value


def test_the_server_passes_its_language_and_the_browser_s_to_the_kernels() -> None:
    args = command.voila_args("notebooks")
    assert '--VoilaConfiguration.http_header_envs=["Accept-Language"]' in args
    with mock.patch.dict(os.environ), mock.patch.object(os, "execv") as execv:
        os.environ.pop(i18n.LANGUAGE_ENV, None)
        command.main(["notebooks", "--language", "fr"])
        assert os.environ[i18n.LANGUAGE_ENV] == "fr"
    execv.assert_called_once()


def test_the_server_refuses_a_language_it_does_not_have(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    with mock.patch.dict(os.environ), mock.patch.object(os, "execv") as execv, \
            pytest.raises(SystemExit):
        command.main(["notebooks", "--language", "klingon"])
    assert "--language klingon: the lab speaks en, de, fr" in capsys.readouterr().err
    execv.assert_not_called()
