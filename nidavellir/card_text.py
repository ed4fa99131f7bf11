"""What every card does, in plain English: :func:`ability` and :func:`source`.

Written for this project from the rulebooks (not translated word for word). A hero's or an
artifact's text is part of its entry (:mod:`nidavellir.rules.heroes`,
:mod:`nidavellir.rules.artifacts`); the cards that behave by their kind share a text here:
one per dwarf class, one for the mercenaries, the distinctions, the Royal Offerings, the
special blacksmith and Olwyn's doubles. Each source cites the French rulebook (the ``FR``
seed, with its page where the rulebook's table of contents gives one: base game p.4 set-up,
p.7 bravery values, p.8 the turn, p.9 recruiting heroes, p.11 transforming coins, p.12 the
end of the ages, p.14 hero abilities; Thingvellir p.4-5 the camp, p.24 the order at the end
of each age) and the ruling (``R<n>``, docs/rulings.md) where one decides.

Stdlib only: the core engine, the bots and the widgets all read it.
"""

from __future__ import annotations

from . import cards as C
from .cards import Card, Kind, Suit
from .i18n import N_, _
from .names import class_in_sentence
from .rules.cardrules import card_facts
from .rules.catalogue import rules_of
from .rules.classes import blacksmith_points, hunter_points

_TV_HEROES = "FR Thingvellir \"Capacités des cartes Héros-ïne\""
_DISTINCTIONS = "FR p.12 \"Fin de l'Age 1: l'Évaluation des troupes\""

#: token -> (ability in plain English, where the rulebook says so). The numbers are
#: placeholders: the card's own (:func:`~nidavellir.rules.cardrules.card_facts`: points,
#: ranks, bravery; a Royal Offering's value) and those of :data:`FACTS`.
ABILITIES: dict[str, tuple[str, str]] = {
    "Olwyn Double": (N_("Olwyn's double: {ranks} rank and {bravery} points in the column where "
                     "it is placed; it counts as a dwarf of that class (and may be discarded "
                     "like one)."), f"{_TV_HEROES}, OLWYN; R16"),
    # ------------------------------------------------------------------ distinctions
    "King's Hand": (N_("Distinction for the strict majority of warrior ranks at the end of age "
                    "1: transform one of your coins by +{bonus} at once."),
                    f"{_DISTINCTIONS}, La Main du Roi; p.11; R23"),
    "Hunting Master": (N_("Distinction for the strict majority of hunter ranks at the end of age "
                       "1: your {exchange} coin becomes the special {hunter}, which still trades "
                       "like the {exchange} and can never be transformed."),
                       f"{_DISTINCTIONS}, Maître-esse de Chasse; R23"),
    "Crown Jeweler": (N_("Distinction for the strict majority of miner ranks at the end of age "
                      "1: the gem 6 replaces your gem. It wins every tavern tie, is never "
                      "exchanged, and adds {points} points at the end."),
                      f"{_DISTINCTIONS}, Joaillier-ère de la Couronne; R23"),
    "King's Great Armorer": (N_("Distinction for the strict majority of blacksmith ranks at the "
                             "end of age 1: the special blacksmith card ({ranks} ranks) joins "
                             "your blacksmith column, which may complete a line."),
                             f"{_DISTINCTIONS}, Grand-e Armurier-ère du Roi; R23"),
    "Pioneer of the Kingdom": (N_("Distinction for the strict majority of explorer ranks at the "
                               "end of age 1: draw {draw} cards of the age 2 deck and keep "
                               "one (a dwarf joins your army, an offering transforms a "
                               "coin); the others go back."),
                               f"{_DISTINCTIONS}, Pionnier-ère du Royaume; R3, R23"),
    "B*": (N_("The King's Great Armorer's special blacksmith: {ranks} ranks in your blacksmith "
           "column."), f"{_DISTINCTIONS}, Grand-e Armurier-ère du Roi"),
    # ------------------------------------------------------------------ royal offerings
    "+3": (N_("Royal Offering (age 1): not kept. Transform one of your coins by +{value} at once: "
           "it goes back to the treasury and you take the coin of the new value."),
           "FR p.11 \"Transformer une pièce\"; R2, R6"),
    "+5": (N_("Royal Offering (age 2): not kept. Transform one of your coins by +{value} at once: "
           "it goes back to the treasury and you take the coin of the new value."),
           "FR p.11 \"Transformer une pièce\"; R2, R6"),
}
#: The numbers of those texts that are the rules' constants, not the card's own.
FACTS: dict[str, dict[str, object]] = {
    "King's Hand": {"bonus": C.KINGS_HAND_BONUS},
    "Hunting Master": {"exchange": C.EXCHANGE_COIN_VALUE, "hunter": C.HUNTER_COIN_VALUE},
    "Crown Jeweler": {"points": C.GEM_6_POINTS},
    "King's Great Armorer": {"ranks": C.SPECIAL_BLACKSMITH.ranks},
    "Pioneer of the Kingdom": {"draw": C.PIONEER_DRAW},
}


#: One text per dwarf class (FR p.7 "Déterminer la Valeur de Bravoure de chaque classe").
CLASS_ABILITIES: dict[str, str] = {
    "W": N_("Warrior: its points are added up; the player with the most warrior ranks also adds "
         "their highest coin to their warriors at the end."),
    "H": N_("Hunter: 1 rank; hunters score their number of ranks squared ({scores}, ...)."),
    "M": N_("Miner: miners score the sum of their points times their number of ranks."),
    "B": N_("Blacksmith: 1 rank; blacksmiths score {scores} ... for {ranks} ranks (each rank "
         "adds one more than the last)."),
    "E": N_("Explorer: explorers score the sum of their points."),
}
CLASS_SOURCE = "FR p.7 \"Déterminer la Valeur de Bravoure de chaque classe\""
#: The first scores of the hunters' and blacksmiths' formulas, for their texts.
CLASS_FACTS: dict[str, dict[str, object]] = {
    "H": {"scores": ", ".join(str(hunter_points(n)) for n in range(1, 5))},
    "B": {"scores": ", ".join(str(blacksmith_points(n)) for n in range(1, 6)),
          "ranks": ", ".join(str(n) for n in range(1, 6))},
}

MERCENARY_ABILITY = N_(
    "Mercenary from the camp: kept in your command zone until the end of the age, then "
    "placed in your army on one of its two sides ({sides}). The player with the most "
    "mercenaries chooses to place them first or last.")
MERCENARY_SOURCE = "FR Thingvellir \"Les cartes Mercenaire\", p.24; R5, R14, R22"


def _explain(card: Card) -> tuple[str, str]:
    entry = rules_of(card)
    # The texts are the catalogue's messages (marked N_ where they are written): each is
    # translated here, where it is read.
    if entry is not None:
        return entry.text(), entry.source
    if card.kind is Kind.DWARF and card.suit is not None:
        letter = card.suit.letter
        return _(CLASS_ABILITIES[letter]).format(**CLASS_FACTS.get(letter, {})), CLASS_SOURCE
    if card.kind is Kind.MERCENARY:
        sides = [_("{card_class} {bravery}").format(card_class=class_in_sentence(s), bravery=bp)
                 if s in (Suit.WARRIOR, Suit.MINER, Suit.EXPLORER) else class_in_sentence(s)
                 for s, bp in card.sides]
        # Translators: a mercenary's two sides, "warrior 6 or explorer 8".
        both = _("{first} or {second}").format(first=sides[0], second=sides[1])
        return _(MERCENARY_ABILITY).format(sides=both), MERCENARY_SOURCE
    if card.token in ABILITIES:
        text, where = ABILITIES[card.token]
        facts = {**card_facts(card), "value": card.value, **FACTS.get(card.token, {})}
        return _(text).format(**facts), where
    return card.kind.value, card.ref


def ability(card: Card) -> str:
    """What ``card`` does, in plain English (a hero's or an artifact's from its entry).

    >>> from nidavellir import cards as C
    >>> ability(C.card("H"))
    'Hunter: 1 rank; hunters score their number of ranks squared (1, 4, 9, 16, ...).'
    """
    return _explain(card)[0]


def source(card: Card) -> str:
    """Where the rulebook (or a ruling) says what :func:`ability` says."""
    return _explain(card)[1]


__all__ = ["ability", "source"]
