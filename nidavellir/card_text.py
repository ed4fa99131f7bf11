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

from .cards import Card, Kind, Suit
from .i18n import N_, _
from .names import class_in_sentence
from .rules.catalogue import rules_of

_TV_HEROES = "FR Thingvellir \"Capacités des cartes Héros-ïne\""
_DISTINCTIONS = "FR p.12 \"Fin de l'Age 1: l'Évaluation des troupes\""

#: token -> (ability in plain English, where the rulebook says so).
ABILITIES: dict[str, tuple[str, str]] = {
    "Olwyn Double": (N_("Olwyn's double: 1 rank and 0 points in the column where it is placed; "
                     "it counts as a dwarf of that class (and may be discarded like one)."),
                     f"{_TV_HEROES}, OLWYN; R16"),
    # ------------------------------------------------------------------ distinctions
    "King's Hand": (N_("Distinction for the strict majority of warrior ranks at the end of age "
                    "1: transform one of your coins by +5 at once."),
                    f"{_DISTINCTIONS}, La Main du Roi; p.11; R23"),
    "Hunting Master": (N_("Distinction for the strict majority of hunter ranks at the end of age "
                       "1: your 0 coin becomes the special 3, which still trades like the 0 "
                       "and can never be transformed."),
                       f"{_DISTINCTIONS}, Maître-esse de Chasse; R23"),
    "Crown Jeweler": (N_("Distinction for the strict majority of miner ranks at the end of age "
                      "1: the gem 6 replaces your gem. It wins every tavern tie, is never "
                      "exchanged, and adds 3 points at the end."),
                      f"{_DISTINCTIONS}, Joaillier-ère de la Couronne; R23"),
    "King's Great Armorer": (N_("Distinction for the strict majority of blacksmith ranks at the "
                             "end of age 1: the special blacksmith card (2 ranks) joins your "
                             "blacksmith column, which may complete a line."),
                             f"{_DISTINCTIONS}, Grand-e Armurier-ère du Roi; R23"),
    "Pioneer of the Kingdom": (N_("Distinction for the strict majority of explorer ranks at the "
                               "end of age 1: draw three cards of the age 2 deck and keep "
                               "one (a dwarf joins your army, an offering transforms a "
                               "coin); the other two go back."),
                               f"{_DISTINCTIONS}, Pionnier-ère du Royaume; R3, R23"),
    "B*": (N_("The King's Great Armorer's special blacksmith: 2 ranks in your blacksmith column."),
           f"{_DISTINCTIONS}, Grand-e Armurier-ère du Roi"),
    # ------------------------------------------------------------------ royal offerings
    "+3": (N_("Royal Offering (age 1): not kept. Transform one of your coins by +3 at once: it "
           "goes back to the treasury and you take the coin of the new value."),
           "FR p.11 \"Transformer une pièce\"; R2, R6"),
    "+5": (N_("Royal Offering (age 2): not kept. Transform one of your coins by +5 at once: it "
           "goes back to the treasury and you take the coin of the new value."),
           "FR p.11 \"Transformer une pièce\"; R2, R6"),
}


#: One text per dwarf class (FR p.7 "Déterminer la Valeur de Bravoure de chaque classe").
CLASS_ABILITIES: dict[str, str] = {
    "W": N_("Warrior: its points are added up; the player with the most warrior ranks also adds "
         "their highest coin to their warriors at the end."),
    "H": N_("Hunter: 1 rank; hunters score their number of ranks squared (1, 4, 9, 16, ...)."),
    "M": N_("Miner: miners score the sum of their points times their number of ranks."),
    "B": N_("Blacksmith: 1 rank; blacksmiths score 3, 7, 12, 18, 25 ... for 1, 2, 3, 4, 5 ranks "
         "(each rank adds one more than the last)."),
    "E": N_("Explorer: explorers score the sum of their points."),
}
CLASS_SOURCE = "FR p.7 \"Déterminer la Valeur de Bravoure de chaque classe\""

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
        return _(entry.ability), entry.source
    if card.kind is Kind.DWARF and card.suit is not None:
        return _(CLASS_ABILITIES[card.suit.letter]), CLASS_SOURCE
    if card.kind is Kind.MERCENARY:
        sides = [_("{card_class} {bravery}").format(card_class=class_in_sentence(s), bravery=bp)
                 if s in (Suit.WARRIOR, Suit.MINER, Suit.EXPLORER) else class_in_sentence(s)
                 for s, bp in card.sides]
        # Translators: a mercenary's two sides, "warrior 6 or explorer 8".
        both = _("{first} or {second}").format(first=sides[0], second=sides[1])
        return _(MERCENARY_ABILITY).format(sides=both), MERCENARY_SOURCE
    if card.token in ABILITIES:
        text, where = ABILITIES[card.token]
        return _(text), where
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
