"""Words a person reads, in the reader's language: one place for every translation.

Every string the lab shows a person goes through this module: a whole sentence with named
placeholders (``_("{name} takes {card}").format(name=..., card=...)``), never English
fragments glued together, so that a translator sees each message whole. Counts go through
:func:`ngettext` (the catalogue's plural forms: French counts 0 as singular), numbers and
percentages through :func:`number` and :func:`percent` ("43.2%" in English, "43,2 %" in
German and French).

A Voila kernel serves one page and sets the process's language once (:func:`set_language`,
from :func:`choose`: the address's ``?lang=``, the browser's languages, the server's
default); the class server's handlers run each request in its own (:func:`using`, a context
variable); the command line sets it from ``--language``.
English is the source language (the messages as written); other languages come from
gettext catalogues under ``nidavellir/locale/``. The pseudo-language ``qps`` wraps every
message in ⟦…⟧ with accented letters, so that a page in it shows at a glance any English
that escaped the catalogue.

Standard library only (gettext): the core engine and the bots use it too.

>>> with using("en"):
...     ngettext("{n} rank", "{n} ranks", 1).format(n=1)
'1 rank'
>>> with using("qps"):
...     _("{n} ranks").format(n=3)
'⟦3 ŕàñķš⟧'
>>> with using("en"):
...     percent(0.4321, 1), number(1234.5, 1)
('43.2%', '1,234.5')
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gettext
import re
import urllib.parse
from collections.abc import Iterable, Iterator
from pathlib import Path

DOMAIN = "nidavellir"
LOCALE_DIR = Path(__file__).with_name("locale")
#: Languages a person can choose: code -> the language's own name.
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "fr": "Français"}
#: The pseudo-language for finding English that escaped the catalogue (never offered).
PSEUDO = "qps"
SOURCE = "en"

#: The language of a block run with :func:`using` (a request of the class server, a test).
_language: contextvars.ContextVar[str] = contextvars.ContextVar("nidavellir_language")
#: The process's language (:func:`set_language`: a kernel's page, a command): what every
#: context without a :func:`using` block reads, the background threads and the widget
#: callbacks' tasks included (each starts with a context of its own, without the page's).
_process: list[str] = [SOURCE]
#: The environment variable that gives a server's kernels its default language
#: (``python -m nidavellir.serve --language fr``, ``make run LANG=fr``).
LANGUAGE_ENV = "NIDAVELLIR_LANGUAGE"

#: Number formats: (decimal mark, group separator, percent pattern) per language, as the
#: Unicode CLDR gives them (Babel's number formatting): kept here because the core engine,
#: which formats counts too, is stdlib-only; tests/test_catalogues.py checks the table
#: against Babel's, so a new language cannot get it wrong silently.
_NUMBERS: dict[str, tuple[str, str, str]] = {
    "en": (".", ",", "{}%"),
    "de": (",", ".", "{}\u00a0%"),
    "fr": (",", "\u202f", "{}\u00a0%"),
    PSEUDO: (".", ",", "{}%"),
}

#: Letters the pseudo-language accents (placeholders in braces stay as they are).
_ACCENTS = str.maketrans("aceinorsuyzACEINORSUYZk", "àçéîñöŕšûýžÀÇÉÎÑÖŔŠÛÝŽķ")
_PLACEHOLDER = re.compile(r"(\{[^{}]*\}|%\([a-z_]+\)[sd]|<[^<>]*>|&[a-z]+;)")


class PseudoTranslations(gettext.NullTranslations):
    """Every message wrapped in ⟦…⟧ with accented letters; placeholders, HTML tags and
    entities kept, so a formatted message still works."""

    @staticmethod
    def wrap(message: str) -> str:
        parts = _PLACEHOLDER.split(message)
        return "⟦" + "".join(p if i % 2 else p.translate(_ACCENTS)
                             for i, p in enumerate(parts)) + "⟧"

    def gettext(self, message: str) -> str:
        return self.wrap(message) if message else message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.wrap(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self.ngettext(msgid1, msgid2, n)


class UnknownLanguage(ValueError):
    """A language the lab has no catalogue for."""


def known(code: str) -> bool:
    return code in LANGUAGES or code == PSEUDO


@functools.cache
def translations(code: str) -> gettext.NullTranslations:
    """The catalogue of a language (English: the messages as written)."""
    if code == SOURCE:
        return gettext.NullTranslations()
    if code == PSEUDO:
        return PseudoTranslations()
    if code not in LANGUAGES:
        raise UnknownLanguage(f"unknown language {code!r}; known: {', '.join(LANGUAGES)}")
    return gettext.translation(DOMAIN, str(LOCALE_DIR), [code])


def language() -> str:
    """The language of the current context: its :func:`using` block's, else the process's."""
    return _language.get(_process[0])


def set_language(code: str) -> None:
    """Set the language of the process (a kernel's page, a command): every thread and task
    reads it, outside a :func:`using` block."""
    if not known(code):
        raise UnknownLanguage(f"unknown language {code!r}; known: {', '.join(LANGUAGES)}")
    _process[0] = code


def _primary(tag: str) -> str:
    """``de-AT`` -> ``de``; the pseudo-language is a code of its own."""
    return tag.strip().lower().replace("_", "-").split("-")[0]


def accepted(header: str) -> list[str]:
    """The languages of an ``Accept-Language`` header the lab has, most wanted first.

    >>> accepted("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")
    ['fr', 'en', 'de']
    >>> accepted("es, de;q=0, it;q=oops")
    []
    """
    wanted: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, _semicolon, params = part.partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0  # a malformed weight: that language is not wanted
        code = _primary(tag)
        if q > 0 and code in LANGUAGES:
            wanted.append((-q, i, code))
    return list(dict.fromkeys(code for *_order, code in sorted(wanted)))


def choose(query: str = "", accept_language: str = "", default: str = SOURCE) -> str:
    """A page's language: ``?lang=`` of its address, else the browser's languages
    (``Accept-Language``), else the server's default. An unknown ``lang`` is passed over.

    >>> choose("lang=de", "fr", "en"), choose("x=1", "fr;q=0.5, de", "en"), choose("", "", "fr")
    ('de', 'de', 'fr')
    >>> choose("lang=klingon", "es", "fr"), choose("lang=FR-be")
    ('fr', 'fr')
    """
    for value in urllib.parse.parse_qs(query).get("lang", []):
        code = value.strip().lower() if value.strip().lower() == PSEUDO else _primary(value)
        if known(code):
            return code
    for code in accepted(accept_language):
        return code
    return default if known(default) else SOURCE


@contextlib.contextmanager
def using(code: str) -> Iterator[None]:
    """Run a block in a language (a request of the class server, a test)."""
    if not known(code):
        raise UnknownLanguage(f"unknown language {code!r}; known: {', '.join(LANGUAGES)}")
    token = _language.set(code)
    try:
        yield
    finally:
        _language.reset(token)


def _(message: str) -> str:
    """A message in the current language."""
    return translations(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n`` in the current language."""
    return translations(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """A message with a context that tells two uses of the same English apart."""
    return translations(language()).pgettext(context, message)


def labelled(label: str, text: str) -> str:
    """``"Bo: Take the warrior 7"``: a name (a player, a card, a move) and what it says,
    does or means, joined as the language joins them (French puts a no-break space before
    the colon)."""
    # Translators: {label} is a name (a player, a card, a move in notation), {text} what
    # it says, does or means: "Bo: Take the warrior 7", "Skaa, the Unfathomable: …".
    return pgettext("a name and its text", "{label}: {text}").format(label=label, text=text)


def clauses(items: Iterable[str]) -> str:
    """``"W6 W4; M1 H3"``: clauses or groups one after another, separated as the language
    separates them (French puts a narrow no-break space before the semicolon)."""
    parts = list(items)
    if not parts:
        return ""
    # Translators: two clauses or groups of a list one after the other ("Laughing Goblin:
    # W6 W4; Dancing Dragon: M1 H3"); French puts a narrow no-break space (U+202F)
    # before «;».
    frame = pgettext("two clauses of a list", "{a}; {b}")
    out = parts[0]
    for part in parts[1:]:
        out = frame.format(a=out, b=part)
    return out


def N_(message: str) -> str:
    """Mark a message for the catalogue where it is defined; translate it with ``_`` where
    it is shown (tables of labels built at import time)."""
    return message


def count(n: int, singular: str, plural: str, **values: object) -> str:
    """``count(3, "{n} rank", "{n} ranks")`` -> ``"3 ranks"``, plural forms per language;
    other placeholders are filled from ``values``."""
    return ngettext(singular, plural, n).format(n=number(n), **values)


def _group(digits: str, separator: str) -> str:
    head = len(digits) % 3 or 3
    return separator.join([digits[:head]] + [digits[i:i + 3] for i in range(head, len(digits), 3)])


def number(x: float, digits: int = 0) -> str:
    """A number in the current language: ``1,234.5`` in English, ``1.234,5`` in German."""
    decimal, group, _pattern = _NUMBERS.get(language(), _NUMBERS[SOURCE])
    text = f"{abs(x):.{digits}f}"
    whole, _dot, fraction = text.partition(".")
    out = _group(whole, group) + (decimal + fraction if fraction else "")
    return ("-" if x < 0 and text.strip("0.") else "") + out


def signed(x: float, digits: int = 0) -> str:
    """A change: ``+5``, ``−2`` (a true minus sign), ``0``."""
    text = number(x, digits)
    if text.strip("0.,") == "":
        return text.lstrip("-")
    return ("+" + text) if x > 0 else "\u2212" + text.lstrip("-")


def with_sign(x: float, digits: int = 0) -> str:
    """A difference with its sign as the coach writes it, ``+2.5``, ``-0.4``, ``+0.0``
    (``f"{x:+.1f}"`` in English; the language's decimal mark elsewhere)."""
    return f"{x:+.{digits}f}"[0] + number(abs(x), digits)


def percent_with_sign(p: float, digits: int = 0) -> str:
    """A difference of chances, ``+5%``, ``-3%`` (``f"{p:+.0%}"`` in English)."""
    _decimal, _group_sep, pattern = _NUMBERS.get(language(), _NUMBERS[SOURCE])
    return f"{p:+.{digits}%}"[0] + pattern.format(number(100 * abs(p), digits))


def number_marks() -> tuple[str, str, str]:
    """The current language's decimal mark, thousands separator and percent pattern
    (``"{}%"``): what a chart's own number formatting is given."""
    return _NUMBERS.get(language(), _NUMBERS[SOURCE])


def percent(p: float, digits: int = 0) -> str:
    """A chance in the current language: ``43.2%`` in English, ``43,2 %`` in German."""
    _decimal, _group_sep, pattern = _NUMBERS.get(language(), _NUMBERS[SOURCE])
    return pattern.format(number(100 * p, digits))


def formatted(english: str) -> str:
    """A number Python formatted the English way (``format(x, ",.1f")``: ``1,234.5``,
    ``43.2%``) in the current language: ``1.234,5``, ``43,2 %`` in German. For a lesson's
    placeholders, whose format specs the lesson's author writes."""
    decimal, group, pattern = _NUMBERS.get(language(), _NUMBERS[SOURCE])
    if language() in (SOURCE, PSEUDO):
        return english
    body, percent_ = (english[:-1], True) if english.endswith("%") else (english, False)
    body = body.replace(",", "\0").replace(".", decimal).replace("\0", group)
    return pattern.format(body) if percent_ else body


def ordinal(n: int) -> str:
    """A place in an order: ``2nd`` in English, ``2.`` in German, ``2e`` (``1er``) in French.

    >>> with using("de"):
    ...     ordinal(2)
    '2.'
    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '22nd']
    """
    code = language()
    if code == "de":
        return f"{n}."
    if code == "fr":
        return f"{n}er" if n == 1 else f"{n}e"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


_WORD = re.compile(r"[^\W\d_]{2,}")


def escaped(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The words of a text in the pseudo-language outside its ⟦…⟧ markers (nested ones
    too): English that escaped the catalogue. ``allowed`` are words that may stand outside
    (seat names, notation such as card tokens and hero tokens).

    >>> escaped("⟦Ŵàŕ ⟦Ķŕàà⟧⟧ Bo W7 takes", allowed=["Bo"])
    ['takes']
    """
    outside, depth = [], 0
    for ch in text:
        if ch == "⟦":
            depth += 1
            outside.append(" ")
        elif ch == "⟧":
            depth = max(0, depth - 1)
            outside.append(" ")
        elif depth == 0:
            outside.append(ch)
    words = set(allowed)
    return [w for w in _WORD.findall("".join(outside)) if w not in words]


def join(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` in the current language."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


__all__ = ["formatted", "LANGUAGES", "LANGUAGE_ENV", "PSEUDO", "SOURCE", "UnknownLanguage", "_", "N_",
           "accepted", "choose", "clauses", "count", "escaped", "join", "labelled", "language", "ngettext",
           "number",
           "ordinal", "percent", "percent_with_sign", "pgettext", "set_language", "signed", "translations", "using",
           "with_sign"]
