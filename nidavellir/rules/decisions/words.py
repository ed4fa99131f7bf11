"""The decisions' words for a learner: a card, a coin, a column or a coin's place in a
sentence, and the buttons' words several decisions share. Whole sentences in the reader's
language (:mod:`nidavellir.i18n`), with the rulebooks' names (:mod:`nidavellir.names`);
notation (``W``, ``5``, ``W6/E8``) stays as it is inside them.
"""

from __future__ import annotations

from ... import cards as C
from ... import events as ev
from ...actions import (
    Action,
    format_arg,
)
from ...cards import Card, Kind, Suit
from ...i18n import _, pgettext
from ...names import Phrase, card_name, class_in_sentence, tavern_name

# ====================================================================== words for a learner

# The words of the decisions are whole sentences in the reader's language
# (nidavellir.i18n), with the rulebooks' names (nidavellir.names); notation (``W``, ``5``,
# ``W6/E8``) stays as it is inside them.

def card_words(card: Card) -> Phrase:
    """A card in a sentence: "the explorer 9", "the Royal Offering +3", "Dagda"; a message
    asks for its article and case (``{card:acc}``: «den Entdecker 9», «la carte
    Explorateur·rice 9») as for :func:`~nidavellir.names.card_name`."""
    return Phrase(_card_words(card), card_name(card).forms)


def _card_words(card: Card) -> str:
    if card.kind is Kind.DWARF:
        assert card.suit is not None
        bravery = card.name.rpartition(" ")[2]
        # Translators: a dwarf card inside a sentence, "Take the explorer 9" ({card_class}
        # is the class, {bravery} its points); the article may go where the language has none.
        if bravery.isdigit():
            return pgettext("card in a sentence", "the {card_class} {bravery}").format(
                card_class=class_in_sentence(card.suit), bravery=bravery)
        # Translators: a dwarf card without points inside a sentence, "Take the hunter".
        return pgettext("card in a sentence", "the {card_class}").format(
            card_class=class_in_sentence(card.suit))
    if card.kind is Kind.MERCENARY:
        # Translators: a mercenary card inside a sentence; {token} is notation ("W6/E8").
        return pgettext("card in a sentence", "the mercenary {token}").format(token=card.token)
    if card.kind is Kind.ROYAL_OFFERING:
        # Translators: a Royal Offering inside a sentence, "Take the Royal Offering +3".
        return pgettext("card in a sentence", "the {card}").format(card=card_name(card))
    return card_name(card)


def coin_words(coin: object) -> str:
    """A coin in a sentence: its value, and the Hunting Master's coin (``3*`` in the
    notation) named as such."""
    text = str(coin)
    if text.endswith("*"):
        # Translators: the special coin 3 of the Hunting Master distinction, "3 (the
        # Hunting Master's coin)".
        return _("{value} ({distinction:gen} coin)").format(
            value=text[:-1], distinction=card_name(C.HUNTING_MASTER))
    return text


def column_words(suit: Suit) -> Phrase:
    """The reader's column of a class in a sentence, a whole phrase in each case a message
    asks for (``{column:dat}``): "your warrior column", «deine Krieger-Spalte», «aus deiner
    Krieger-Spalte», «votre colonne Guerrier·ère»."""
    card_class = class_in_sentence(suit)
    # Translators: a column of the reader's army on its own or as a sentence's subject
    # (German: the nominative, «deine Krieger-Spalte»).
    nom = _("your {card_class} column").format(card_class=card_class)
    return Phrase(nom, {
        "nom": nom,
        # Translators: a column of the reader's army as an object, "Put Thrud in your
        # warrior column" (German: the accusative, «in deine Krieger-Spalte»).
        "acc": pgettext("column, accusative", "your {card_class} column").format(
            card_class=card_class),
        # Translators: a column of the reader's army after "from", "Discard the warrior 7
        # from your warrior column" (German: the dative, «aus deiner Krieger-Spalte»).
        "dat": pgettext("column, dative", "your {card_class} column").format(
            card_class=card_class),
        # Translators: a column of the reader's army after "of", "the top card of your
        # warrior column" (German: the genitive, «deiner Krieger-Spalte»; French with its
        # «de»: «de votre colonne Guerrier·ère»).
        "gen": pgettext("column, genitive", "your {card_class} column").format(
            card_class=card_class)})


def place_words(where: str) -> str:
    """A coin's place in a sentence: "in your purse", "on the Dancing Dragon"."""
    if where == "hand":
        # Translators: where a coin lies, "Transform your 5 in your hand".
        return _("in your hand")
    if where == "purse":
        # Translators: where a coin lies, "Transform your 5 in your purse".
        return _("in your purse")
    # Translators: where a coin lies: bid on a tavern, "Transform your 5 on the Dancing Dragon".
    return _("on the {tavern}").format(tavern=tavern_name(int(where[1]) - 1))


def origin(text: str) -> str:
    """What brought a decision (its ``reason``: a card's name) in the reader's language."""
    return ev.origin(text)


def card_arg(action: Action, i: int = 0) -> Card:
    arg = action.args[i]
    assert isinstance(arg, Card)
    return arg


def suit_arg(action: Action, i: int = 0) -> Suit:
    arg = action.args[i]
    assert isinstance(arg, Suit)
    return arg




def coin_label(action: Action) -> str:
    # Translators: a coin's button, "coin 5" (notation: keep the value).
    return _("coin {coin}").format(coin=action.args[0])




def hero_to_column(hero: Card, action: Action) -> str:
    # Translators: a button, "Thrud to W" ({letter} is notation: a class letter).
    return _("{hero} to {letter}").format(hero=card_name(hero),
                                          letter=format_arg(action.args[0]))


def put_hero(hero: Card, action: Action) -> str:
    # Translators: "Put Thrud in your warrior column".
    return _("Put {hero} in {column:acc}").format(hero=card_name(hero),
                                              column=column_words(suit_arg(action)))
