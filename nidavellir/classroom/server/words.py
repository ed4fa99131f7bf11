"""The words of the class server's own pages, in the page's language: the page's guard (a
dashboard whose kernel stopped, a server that does not answer, a dashboard slow to come),
the page of a computer that holds too many dashboards, and the class page at ``/`` (the
handed-out link's landing page).

A dashboard page may come from a kernel prepared before any student asked (the class's
pool): its HTML is made before the server knows the page's language. So the guard's words
go into every page in every language (:func:`guard_words_everywhere`, a few kB) and the
page picks its own as the kernel does (``?lang=``, else the browser's languages, else the
server's default). The other pages are made for their request, in its language
(:func:`request_language`).

Standard library only (the words through :mod:`nidavellir.i18n`).
"""

from __future__ import annotations

import functools
import html
import os
import urllib.parse
from collections.abc import Callable
from typing import Any

from ... import i18n
from ...i18n import _, ngettext

#: Seconds between two tries of a page refused for too many dashboards.
REFUSED_RETRY_S = 15


def request_language(query: str, accept_language: str) -> str:
    """A page's language from its request, as its kernel chooses it (the address's
    ``?lang=``, the browser's, the server's default: widgets/language.py)."""
    return i18n.choose(query, accept_language,
                       os.environ.get(i18n.LANGUAGE_ENV, i18n.SOURCE))


def _forms(message: Callable[[int], str]) -> list[str]:
    """Both forms of a counted message (``message(n)``: its ``ngettext``) in the current
    language: the page picks one."""
    return [message(1), message(2)]


def guard_words() -> dict[str, Any]:
    """The page guard's words in the current language (``{n}``-style places the page
    fills in; a list is a message's singular and plural)."""
    return {
        # Translators: the top of a student's page when its dashboard's kernel (the
        # Python session on the server) was stopped (killed, out of memory).
        "lost_stopped": _("This page lost its dashboard: its kernel stopped."),
        # Translators: the top of a student's page whose kernel the server ended (the
        # page was gone too long, or the server restarted).
        "lost_ended": _("This page lost its dashboard: its kernel has ended."),
        "lost_unknown": _("This page lost its dashboard: the server does not know it any "
                          "more."),
        "kept": _forms(lambda n: ngettext(
            "{n} answer not with your teacher yet is kept on this page and sent when it is "
            "back.",
            "{n} answers not with your teacher yet are kept on this page and sent when it is "
            "back.", n)),
        "nothing_lost": _("Nothing you answered is lost."),
        # Translators: after a sentence saying the page lost its dashboard.
        "reloading": _("Reloading it…"),
        "no_server": _("The server does not answer (it may be restarting): this page tries "
                       "again until it answers…"),
        "no_server_yet": _("The server does not answer (it may be restarting): this page "
                           "waits for it and comes back by itself."),
        "again_and_again": _("It stopped again and again: this page tries again in "
                             "{seconds} s."),
        # Translators: a button beside the page's warnings.
        "reload_now": _("Reload now"),
        # Translators: the top of a student's page that came back after its kernel stopped.
        "back": _("This page is back on a new dashboard (it was lost {seconds} s ago)."),
        "back_place": _("Your name, lesson and step are back."),
        "back_kept": _forms(lambda n: ngettext(
            "{n} answer this page kept goes to your teacher now.",
            "{n} answers this page kept go to your teacher now.", n)),
        # Translators: {what} is the button's label, e.g. "Submit my prediction".
        "click_lost": _("Your last click ({what}) did not reach the dashboard before it "
                        "stopped: it did not count. Do it again."),
        "a_control": _("a control"),
        "slow": _("The dashboard is on its way: the server is busy. This page waits for "
                  "it…"),
        # Translators: the tooltip of the green "back" message at the top of a page.
        "close": _("click to close"),
        # Whether the singular covers 0 too (French: "0 réponse"); the page picks the form.
        "one_includes_zero": i18n.language() == "fr",
    }


@functools.cache
def guard_words_everywhere() -> dict[str, dict[str, Any]]:
    """:func:`guard_words` in each of the lab's languages and the pseudo-language."""
    out = {}
    for code in (*i18n.LANGUAGES, i18n.PSEUDO):
        with i18n.using(code):
            out[code] = guard_words()
    return out


def too_many_pages(cap: int) -> str:
    """The page of a computer that holds ``cap`` dashboards already (429), in the current
    language: it says so and tries again by itself every :data:`REFUSED_RETRY_S` s."""
    title = _("Too many dashboards")
    text = ngettext(
        "This computer has {cap} dashboard open already, the most one computer may have on "
        "this server. Close one of them (the ones closed without a goodbye end within a "
        "minute): this page tries again by itself every {seconds} seconds.",
        "This computer has {cap} dashboards open already, the most one computer may have on "
        "this server. Close one of them (the ones closed without a goodbye end within a "
        "minute): this page tries again by itself every {seconds} seconds.",
        cap).format(cap=i18n.number(cap), seconds=REFUSED_RETRY_S)
    return (f"<!DOCTYPE html><html lang='{i18n.language()}'><head><meta charset='utf-8'>"
            f"<meta http-equiv='refresh' content='{REFUSED_RETRY_S}'>"
            f"<title>{html.escape(title)}</title></head>"
            "<body style='font:16px sans-serif;margin:40px'>"
            f"<h1>{html.escape(title)}</h1><p id='nid-refused'>{html.escape(text)}</p>"
            "</body></html>")


#: The notebooks the class page describes (others are listed by name alone).
NOTEBOOKS = ("dashboard.ipynb", "00_welcome.ipynb", "01_rules_walkthrough.ipynb",
             "02_play.ipynb", "03_what_if.ipynb", "04_probability_lessons.ipynb",
             "05_strategy_lab.ipynb")


def noscript() -> str:
    """What a page says to a browser without JavaScript."""
    return _("This page needs JavaScript.")


def class_page_words() -> dict[str, Any]:
    """The class page's words (``/``, the handed-out link's landing page) in the current
    language."""
    return {
        "title": _("Nidavellir lab — class page"),
        "heading": _("Nidavellir lab"),
        "lead": _("Learn the board game Nidavellir and its Thingvellir expansion: the rules "
                  "step by step, games against the computer, replays and what-if questions, "
                  "and probability lessons."),
        "open": _("Open the dashboard"),
        "notebooks": _("The notebooks"),
        "foot": _("Each page runs its own Python session on this server; closing the tab "
                  "frees it after a while."),
        "noscript": noscript(),
        "about": {
            "dashboard.ipynb": _("Everything in tabs: the rules walkthrough, a game against "
                                 "the computer, replays, what-if and the probability "
                                 "lessons."),
            "00_welcome.ipynb": _("A first score sheet: the rulebook's 204-point example."),
            "01_rules_walkthrough.ipynb": _("Learn the rules step by step on a scripted "
                                            "game."),
            "02_play.ipynb": _("Play against the computer."),
            "03_what_if.ipynb": _("A worked what-if study: what would another choice have "
                                  "scored?"),
            "04_probability_lessons.ipynb": _("The probability lessons for the class."),
            "05_strategy_lab.ipynb": _("Strategy questions answered from many simulated "
                                       "games."),
        },
        "lang": i18n.language(),
        "query": "",
    }


def with_language(href: str, language: str, query: str) -> str:
    """``href`` with the page's ``lang`` when its address asked for one (a link from the
    class page keeps its language)."""
    asked = urllib.parse.parse_qs(query).get("lang")
    if not asked:
        return href
    return href + ("&" if "?" in href else "?") + urllib.parse.urlencode({"lang": language})


__all__ = ["NOTEBOOKS", "REFUSED_RETRY_S", "class_page_words", "guard_words", "noscript",
           "guard_words_everywhere", "request_language", "too_many_pages", "with_language"]
