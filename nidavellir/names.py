"""The game's own names in the reader's language: the rulebooks' names, from one table.

The German and French names of the taverns, classes, distinctions, heroes and their titles,
artifacts, coins and score-sheet lines are the rulebooks' (``nidavellir/locale/names.csv``,
each name with the rulebook and section it comes from, or marked ``chosen`` where the
rulebooks of the language are silent). ``make i18n`` writes the table into the catalogues,
each name under its kind as the message context (a class "Warrior" and a score line
"Warriors" stay apart); the functions here look the names up there, like every message.
Notation (card tokens, actions) is never translated: only the names shown around it.

>>> from nidavellir import cards as C
>>> from nidavellir.i18n import using
>>> with using("de"):
...     card_name(C.KINGS_GREAT_ARMORER), tavern_name(1), hero_with_title(C.KRAAL)
('Unerschütterlicher Hammer', 'Lachender Drache', 'Kraal, der Käufliche')
>>> with using("fr"):
...     card_name(C.HUNTING_MASTER), card_name(C.card("E9")), class_name(C.Suit.MINER)
('Maître·esse de Chasse', 'Explorateur·rice 9', 'Mineur·euse')

Standard library only: the engine's texts, the bots and the widgets all name cards.
"""

from __future__ import annotations

import csv
import functools
from dataclasses import dataclass
from pathlib import Path

from . import cards as C
from .cards import Card, Kind, Suit
from .i18n import SOURCE, _, language, pgettext

TABLE = Path(__file__).with_name("locale") / "names.csv"

#: The kinds of names (the catalogue's message contexts).
TAVERN, CLASS, SCORE_LINE, DISTINCTION, CARD, HERO, TITLE, ARTIFACT, COIN, COMPONENT = (
    "tavern", "class", "score line", "distinction", "card", "hero", "hero title",
    "artifact", "coin", "component")
CONTEXTS = (TAVERN, CLASS, SCORE_LINE, DISTINCTION, CARD, HERO, TITLE, ARTIFACT, COIN,
            COMPONENT)


@dataclass(frozen=True)
class Name:
    """One row of the table: an English name and the rulebooks' German and French."""

    context: str
    en: str
    de: str
    de_source: str
    fr: str
    fr_source: str
    line: int

    def of(self, language: str) -> str:
        return {"en": self.en, "de": self.de, "fr": self.fr}[language]

    def chosen(self, language: str) -> bool:
        """Whether the name is the lab's choice (no rulebook of the language has it)."""
        source = {"de": self.de_source, "fr": self.fr_source}[language]
        return source.startswith("chosen")


@functools.cache
def table() -> tuple[Name, ...]:
    """The rows of ``names.csv`` (``#`` lines are its comments)."""
    with TABLE.open(encoding="utf-8", newline="") as f:
        numbered = [(i, line) for i, line in enumerate(f, 1) if not line.startswith("#")]
    rows = csv.DictReader(line for _i, line in numbered)
    out = []
    for (i, _line), row in zip(numbered[1:], rows, strict=True):
        out.append(Name(line=i, **{k: row[k] for k in
                                   ("context", "en", "de", "de_source", "fr", "fr_source")}))
    return tuple(out)


def name(context: str, english: str) -> str:
    """A name of the table in the current language."""
    return pgettext(context, english)


def class_name(suit: Suit) -> str:
    """"Warrior", "Krieger", "Guerrier·ère"."""
    return name(CLASS, suit.column_name.capitalize())


def class_in_sentence(suit: Suit) -> str:
    """A class inside a sentence: English writes it in lower case ("the warrior column"),
    the rulebooks' languages as the table names it ("Krieger", "Guerrier·ère")."""
    return suit.column_name if language() == SOURCE else class_name(suit)


def class_with_article(suit: Suit) -> str:
    """A card of a class inside a sentence: "a warrior", "an explorer" ("as a warrior")."""
    # Translators: a card of a class inside a sentence, "(as a warrior)".
    return {Suit.WARRIOR: pgettext("class with an article", "a warrior"),
            Suit.HUNTER: pgettext("class with an article", "a hunter"),
            Suit.MINER: pgettext("class with an article", "a miner"),
            Suit.BLACKSMITH: pgettext("class with an article", "a blacksmith"),
            Suit.EXPLORER: pgettext("class with an article", "an explorer")}[suit]


def score_line_in_sentence(label: str) -> str:
    """A line of the score sheet inside a sentence: "your warriors" in English, the
    language's line as the table names it elsewhere ("deine Krieger")."""
    return label.lower() if language() == SOURCE else score_line(label)


def tavern_name(index: int) -> str:
    """The tavern ``index`` (0, 1, 2) in the current language."""
    return name(TAVERN, C.TAVERNS[index])


def score_line(label: str) -> str:
    """A line of the score sheet ("Warriors", "Total", ...)."""
    return name(SCORE_LINE, label)


def card_name(card: Card) -> str:
    """A card's name as the rulebook of the language writes it ("Hand des Königs",
    "Krieger 7", "Subvention +3"); hero names are proper names (their titles translate)."""
    if card.kind is Kind.DWARF:
        assert card.suit is not None
        bravery = card.name.rpartition(" ")[2]
        if not bravery.isdigit():
            return class_name(card.suit)
        # Translators: a dwarf card, e.g. "Warrior 7" (its class and bravery points).
        return _("{card_class} {bravery}").format(card_class=class_name(card.suit),
                                                  bravery=bravery)
    if card.kind is Kind.ROYAL_OFFERING:
        # Translators: a Royal Offering card, "Royal Offering +3".
        return _("{offering} +{value}").format(offering=name(CARD, "Royal Offering"),
                                               value=card.value)
    if card.kind is Kind.MERCENARY:
        # Translators: a mercenary card named by its two sides in notation, "Mercenary W6/E8".
        return _("{mercenary} {token}").format(mercenary=name(CARD, "Mercenary"),
                                               token=card.token)
    context = {Kind.HERO: HERO, Kind.DISTINCTION: DISTINCTION, Kind.ARTIFACT: ARTIFACT,
               Kind.SPECIAL_BLACKSMITH: CARD, Kind.OLWYN_DOUBLE: CARD}[card.kind]
    return name(context, card.name)


def hero_title(card: Card) -> str:
    """A hero's title ("the Venal", "der Käufliche", "le Vénal")."""
    return name(TITLE, card.title)


def hero_with_title(card: Card) -> str:
    # Translators: a hero and their title, "Kraal, the Venal".
    return _("{hero}, {title}").format(hero=card_name(card), title=hero_title(card))


__all__ = ["CONTEXTS", "Name", "card_name", "class_in_sentence", "class_name",
           "class_with_article", "score_line_in_sentence", "hero_title", "hero_with_title",
           "name", "score_line", "table", "tavern_name"]
