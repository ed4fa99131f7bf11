"""The game's own names in the reader's language: the rulebooks' names, from one table.

The German and French names of the taverns, classes, distinctions, heroes and their titles,
artifacts, coins and score-sheet lines are the rulebooks' (``nidavellir/locale/names.csv``,
each name with the rulebook and section it comes from, or marked ``chosen`` where the
rulebooks of the language are silent). ``make i18n`` writes the table into the catalogues,
each name under its kind as the message context (a class "Warrior" and a score line
"Warriors" stay apart); the functions here look the names up there, like every message.
Notation (card tokens, actions) is never translated: only the names shown around it.

A name is a :class:`Phrase`: the name as written on its own (on the card, in a heading,
after a frame noun: «die Taverne Lachender Drache») and, from the table's grammar columns,
the name with its article in each case a sentence asks for through the placeholder's
format spec: ``_("{name} wins {distinction:acc}")`` gives «Bo erhält den Unerschütterlichen
Hammer», «Bo remporte la distinction « Grand·e Armurier·ère du Roi »», "Bo wins King's
Great Armorer"; ``{card:Nom}`` starts a sentence («Der Krieger 7 liegt nicht im Lager»).

>>> from nidavellir import cards as C
>>> from nidavellir.i18n import using
>>> with using("de"):
...     card_name(C.KINGS_GREAT_ARMORER), tavern_name(1), hero_with_title(C.KRAAL)
('Unerschütterlicher Hammer', 'Lachender Drache', 'Kraal, der Käufliche')
>>> with using("fr"):
...     card_name(C.HUNTING_MASTER), card_name(C.card("E9")), class_name(C.Suit.MINER)
('Maître·esse de Chasse', 'Explorateur·rice 9', 'Mineur·euse')
>>> with using("de"):
...     "Bo erhält {d:acc}; {c:Nom} liegt im Lager".format(d=card_name(C.KINGS_GREAT_ARMORER),
...                                                       c=card_name(C.card("W7")))
'Bo erhält den Unerschütterlichen Hammer; Der Krieger 7 liegt im Lager'
>>> with using("fr"):
...     print("Prenez {c:acc}, la pièce {d:gen}".format(c=card_name(C.ROYAL_OFFERING_3),
...                                                   d=card_name(C.card("E9"))))
Prenez l’Offrande Royale +3, la pièce de la carte Explorateur·rice 9

Standard library only: the engine's texts, the bots and the widgets all name cards.
"""

from __future__ import annotations

import csv
import functools
from collections.abc import Mapping
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


#: The cases a message asks a name in, as its placeholder's format spec (``{card:acc}``);
#: a capital first letter (``{card:Nom}``) starts a sentence with it.
CASES = ("nom", "acc", "dat", "gen")
#: The table's grammar columns (``names.csv``'s header comment).
GRAMMAR = ("de_gender", "de_nom", "de_acc", "de_dat", "de_gen", "fr_gender", "fr_elision",
           "fr_the")


class Phrase(str):
    """A name as a sentence places it: the string is the name on its own («Unerschütterlicher
    Hammer», «Krieger 7»), and a placeholder's format spec asks for it with its article in a
    case (``{card:acc}``: «den Krieger 7», «la carte Guerrier·ère 7»; ``{card:Nom}`` at the
    start of a sentence). A proper name (a hero, an artifact) is the same in every case.

    >>> p = Phrase("Hand des Königs", {"nom": "die Hand des Königs",
    ...                                "dat": "der Hand des Königs"})
    >>> "{p} | {p:dat} | {p:Nom} | {p:>16}".format(p=p)
    'Hand des Königs | der Hand des Königs | Die Hand des Königs |  Hand des Königs'
    """

    forms: dict[str, str]

    def __new__(cls, text: str, forms: Mapping[str, str] | None = None) -> Phrase:
        self = super().__new__(cls, text)
        self.forms = {k: v for k, v in (forms or {}).items() if v}
        return self

    def __getnewargs__(self) -> tuple[str, dict[str, str]]:  # type: ignore[override]
        return (str(self), self.forms)

    def form(self, case: str) -> str:
        """The name in a case (``nom``, ``acc``, ``dat``, ``gen``): with its article where
        the language gives it one, the name itself otherwise."""
        return self.forms.get(case, str(self))

    def __format__(self, spec: str) -> str:
        if spec.lower() in CASES:
            text = self.form(spec.lower())
            return text[:1].upper() + text[1:] if spec[0].isupper() else text
        return format(str(self), spec)

    def then(self, tail: str) -> Phrase:
        """The phrase with words after it in every form ("Krieger" + " 7")."""
        return Phrase(str(self) + tail, {k: v + tail for k, v in self.forms.items()})


@dataclass(frozen=True)
class Name:
    """One row of the table: an English name, the rulebooks' German and French, and what a
    sentence needs to place it (:data:`GRAMMAR`)."""

    context: str
    en: str
    de: str
    de_source: str
    fr: str
    fr_source: str
    line: int
    de_gender: str = ""
    de_nom: str = ""
    de_acc: str = ""
    de_dat: str = ""
    de_gen: str = ""
    fr_gender: str = ""
    fr_elision: str = ""
    fr_the: str = ""

    def of(self, language: str) -> str:
        return {"en": self.en, "de": self.de, "fr": self.fr}[language]

    def chosen(self, language: str) -> bool:
        """Whether the name is the lab's choice (no rulebook of the language has it)."""
        source = {"de": self.de_source, "fr": self.fr_source}[language]
        return source.startswith("chosen")

    def takes_article(self, language: str) -> bool:
        """Whether a sentence gives the name an article (or a frame noun) in ``language``:
        a common noun does, a proper name (a hero, an artifact) does not."""
        if language == "de":
            return bool(self.de_nom) and self.de_nom != self.de
        if language == "fr":
            return bool(self.fr_the) and self.fr_the != self.fr
        return False

    def forms(self, language: str) -> dict[str, str]:
        """The name in each case (:data:`CASES`) in ``language``; empty: it has none (English,
        a proper name)."""
        if language == "de":
            return {"nom": self.de_nom, "acc": self.de_acc, "dat": self.de_dat,
                    "gen": self.de_gen or (f"von {self.de}" if self.de_gender else "")}
        if language == "fr":
            the = self.fr_the or (self.fr if self.fr_gender else "")
            return {"nom": the, "acc": the, "dat": the, "gen": french_of(the, self.fr_elision)}
        if language == SOURCE and self.context == DISTINCTION:
            # English keeps the name as it is, but for a possessive: "the Hunting Master's".
            return {"gen": f"the {self.en}'s"}
        return {}


def french_of(the: str, elision: str = "") -> str:
    """«de» before a French name in a sentence, contracted as French does: «du Camp», «de la
    bourse», «de l'armée», «des Points de Bravoure», «d'Ylud», «de Kraal».

    >>> french_of("le Camp"), french_of("l’Age"), french_of("Ylud", "yes"), french_of("Kraal")
    ('du Camp', 'de l’Age', 'd’Ylud', 'de Kraal')
    """
    if not the:
        return ""
    for article, contracted in (("le ", "du "), ("les ", "des ")):
        if the.startswith(article):
            return contracted + the[len(article):]
    if the.startswith(("la ", "l'", "l’")):
        return "de " + the
    return ("d’" if elision else "de ") + the


@functools.cache
def table() -> tuple[Name, ...]:
    """The rows of ``names.csv`` (``#`` lines are its comments)."""
    with TABLE.open(encoding="utf-8", newline="") as f:
        numbered = [(i, line) for i, line in enumerate(f, 1) if not line.startswith("#")]
    rows = csv.DictReader(line for _i, line in numbered)
    out = []
    for (i, _line), row in zip(numbered[1:], rows, strict=True):
        out.append(Name(line=i, **{k: row[k] or "" for k in
                                   ("context", "en", "de", "de_source", "fr", "fr_source",
                                    *GRAMMAR)}))
    return tuple(out)


@functools.cache
def _rows() -> dict[tuple[str, str], Name]:
    return {(row.context, row.en): row for row in table()}


def row(context: str, english: str) -> Name | None:
    """The table's row of a name (None: a name the table does not hold, a plugin's)."""
    return _rows().get((context, english))


def name(context: str, english: str) -> Phrase:
    """A name of the table in the current language, with its forms in a sentence."""
    return _name(language(), context, english)


@functools.cache
def _name(code: str, context: str, english: str) -> Phrase:
    """:func:`name` in the language ``code`` (the current one): the catalogues and the
    table do not change while the lab runs, so each name is built once per language."""
    found = row(context, english)
    forms = found.forms(code) if found is not None else {}
    return Phrase(pgettext(context, english), forms)


def class_name(suit: Suit) -> Phrase:
    """"Warrior", "Krieger", "Guerrier·ère"; in a sentence, a dwarf card of the class
    («den Krieger», «la carte Guerrier·ère»)."""
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


def tavern_name(index: int) -> Phrase:
    """The tavern ``index`` (0, 1, 2) in the current language."""
    return name(TAVERN, C.TAVERNS[index])


def score_line(label: str) -> Phrase:
    """A line of the score sheet ("Warriors", "Total", ...)."""
    return name(SCORE_LINE, label)


def _composed(message: str, head: Phrase, tail: str, **values: object) -> Phrase:
    """A name made of a table name and notation ("Krieger 7", "Subvention +3"): the
    catalogue's message on its own, the head's forms with the tail in a sentence."""
    text = message.format(**values)
    return Phrase(text, head.then(tail).forms)


def card_name(card: Card) -> Phrase:
    """A card's name as the rulebook of the language writes it ("Hand des Königs",
    "Krieger 7", "Subvention +3"); hero names are proper names (their titles translate).
    In a sentence (``{card:acc}``) it takes its article: «den Krieger 7», «die Subvention
    +3», «la carte Guerrier·ère 7», «l'Offrande Royale +3»."""
    return _card_name(language(), card)


@functools.cache
def _card_name(code: str, card: Card) -> Phrase:
    """:func:`card_name` in the language ``code`` (the current one), built once per card
    and language (a card is one object per type, compared by identity)."""
    if card.kind is Kind.DWARF:
        assert card.suit is not None
        bravery = card.name.rpartition(" ")[2]
        if not bravery.isdigit():
            return class_name(card.suit)
        # Translators: a dwarf card, e.g. "Warrior 7" (its class and bravery points).
        return _composed(_("{card_class} {bravery}"), class_name(card.suit), f" {bravery}",
                         card_class=class_name(card.suit), bravery=bravery)
    if card.kind is Kind.ROYAL_OFFERING:
        offering = name(CARD, "Royal Offering")
        # Translators: a Royal Offering card, "Royal Offering +3".
        return _composed(_("{offering} +{value}"), offering, f" +{card.value}",
                         offering=offering, value=card.value)
    if card.kind is Kind.MERCENARY:
        mercenary = name(CARD, "Mercenary")
        # Translators: a mercenary card named by its two sides in notation, "Mercenary W6/E8".
        return _composed(_("{mercenary} {token}"), mercenary, f" {card.token}",
                         mercenary=mercenary, token=card.token)
    context = {Kind.HERO: HERO, Kind.DISTINCTION: DISTINCTION, Kind.ARTIFACT: ARTIFACT,
               Kind.SPECIAL_BLACKSMITH: CARD, Kind.OLWYN_DOUBLE: CARD}[card.kind]
    return name(context, card.name)


def hero_title(card: Card) -> str:
    """A hero's title ("the Venal", "der Käufliche", "le Vénal")."""
    return name(TITLE, card.title)


def hero_with_title(card: Card) -> str:
    # Translators: a hero and their title, "Kraal, the Venal".
    return _("{hero}, {title}").format(hero=card_name(card), title=hero_title(card))


__all__ = ["CASES", "CONTEXTS", "Name", "Phrase", "card_name", "class_in_sentence", "class_name",
           "class_with_article", "french_of", "hero_title", "hero_with_title", "name", "row",
           "score_line", "score_line_in_sentence", "table", "tavern_name"]
