"""What every card does, in plain English: the catalogue's explanations as data.

Written for this project from the rulebooks (not translated word for word). Each entry
is ``token -> (ability, source)``; the source cites the French rulebook (the ``FR`` seed,
with its page where the rulebook's table of contents gives one: base game p.4 set-up,
p.7 bravery values, p.8 the turn, p.9 recruiting heroes, p.11 transforming coins, p.12
the end of the ages, p.14 hero abilities; Thingvellir p.4-5 the camp, p.24 the order at
the end of each age) and the ruling (``R<n>`` of RULINGS.md) where one decides.

Dwarves and mercenaries share one text per class / per kind (:func:`ability_of`).
Stdlib only: the core engine, the bots and the widgets all read it.
"""

from __future__ import annotations

_HEROES = "FR p.14 \"Capacités des cartes Héros·ïne\""
_TV_HEROES = "FR Thingvellir \"Capacités des cartes Héros-ïne\""
_ARTIFACTS = "FR Thingvellir \"Les cartes Artefact\""
_DISTINCTIONS = "FR p.12 \"Fin de l'Age 1: l'Évaluation des troupes\""
_DWERG = ("One of the five Dwerg brothers, kept in your command zone. Together they score 13, "
          "40, 81, 108 or 135 points for 1 to 5 brothers.", f"{_HEROES}, DWERG")

#: token -> (ability in plain English, where the rulebook says so).
ABILITIES: dict[str, tuple[str, str]] = {
    # ------------------------------------------------------------------ class heroes
    "Kraal": ("Warrior hero: goes in your warrior column with 2 ranks, worth 7 and 0 bravery "
              "points.", f"{_HEROES}, KRAAL"),
    "Tarah": ("Warrior hero: goes in your warrior column with 1 rank worth 14 bravery points.",
              f"{_HEROES}, TARAH"),
    "Aral": ("Hunter hero: goes in your hunter column with 2 ranks (hunters score ranks "
             "squared).", f"{_HEROES}, ARAL"),
    "Dagda": ("Hunter hero with 3 ranks. When you recruit her, discard the top card of two "
              "other columns (two different columns, never a hero). She cannot be recruited "
              "if you cannot discard two such cards.", f"{_HEROES}, DAGDA; R10, R16"),
    "Aëgur": ("Blacksmith hero: goes in your blacksmith column with 2 ranks.",
              f"{_HEROES}, AËGUR"),
    "Bonfur": ("Blacksmith hero with 3 ranks. When you recruit him, discard the top card of "
               "one other column (never a hero). He cannot be recruited if no such card "
               "exists.", f"{_HEROES}, BONFUR; R10, R16"),
    "Zoral": ("Miner hero: 3 ranks in your miner column worth 1, 0 and 0 points (miners "
              "score their points times their ranks).", f"{_HEROES}, ZORAL"),
    "Lokdur": ("Miner hero: 1 rank in your miner column worth 3 points.", f"{_HEROES}, LOKDUR"),
    "Hourya": ("Explorer hero: 1 rank worth 20 points in your explorer column. You may only "
               "recruit her with 5 explorer ranks already in your army (Thrud and Ylud count "
               "there).", f"{_HEROES}, HOURYA"),
    "Idunn": ("Explorer hero: 1 rank in your explorer column worth 7 points plus 2 per "
              "explorer rank at the end (hers included).", f"{_HEROES}, IDUNN"),
    # ------------------------------------------------------------------ neutral heroes
    "Skaa": ("Neutral hero: 17 points at the end of the game.", f"{_HEROES}, SKAA"),
    "Astrid": ("Neutral hero: at the end she scores the value of your highest coin.",
               f"{_HEROES}, ASTRID"),
    "Grid": ("Neutral hero: 7 points at the end, and when you recruit her you transform one "
             "of your coins by +7 at once.", f"{_HEROES}, GRID; p.11"),
    "Uline": ("Neutral hero: 9 points at the end. From now on you keep your coins in hand "
              "and put one face up on each tavern only after the others' bids are revealed; "
              "your trades take coins from your hand.", f"{_HEROES}, ULINE; R21"),
    "Ylud": ("Neutral hero who joins your army: right after the last tavern of each age "
             "(before the distinctions of age 1 and before the final count) you place her in "
             "any column, where she counts as a dwarf of that class: 7 points as a warrior, "
             "11 as an explorer, 1 as a miner, a rank as a hunter or blacksmith. At the end "
             "of age 2 she may move.", f"{_HEROES}, YLUD; R8, R14"),
    "Thrud": ("Neutral hero placed in a column of your choice, where her rank counts. She "
              "is never covered: when a card goes on her column she is lifted and placed "
              "again (same or another column). At the end of age 2 she goes to your command "
              "zone and scores 13 points.", f"{_HEROES}, THRUD; R13, R14"),
    # ------------------------------------------------------------------ Thingvellir heroes
    "Andumia": ("Thingvellir hero: 12 points at the end. When you recruit her, look through "
                "the discard and keep one card: a dwarf goes in your army, a Royal Offering "
                "transforms a coin.", f"{_TV_HEROES}, ANDUMIA; R17"),
    "Holda": ("Thingvellir hero: 12 points at the end. When you recruit her, take a "
              "mercenary or an artifact from the camp (this is not a camp visit for Fafnir "
              "Båleygr).", f"{_TV_HEROES}, HOLDA; R17, R18, R22"),
    "Khrad": ("Thingvellir hero: 4 points at the end. When you recruit him, your lowest coin "
              "(not the exchange coin) is transformed by +10.", f"{_TV_HEROES}, KHRAD; R4"),
    "Jarika": ("Thingvellir hero: 8 points at the end. Every later transform and trade of "
               "yours gets +2 (a +3 offering becomes +5).", f"{_TV_HEROES}, JARIKA; R6"),
    "Olwyn": ("Thingvellir hero: 9 points at the end. He brings two doubles (0 points, 1 "
              "rank each) that you place at once in two different columns; they count as "
              "dwarves of those classes.", f"{_TV_HEROES}, OLWYN"),
    "Zolkur": ("Thingvellir hero: 10 points at the end. He sits on your purse: your next "
               "trade gives up the lower purse coin instead of the higher one.",
               f"{_TV_HEROES}, ZOLKUR; R7, R21"),
    "Olwyn Double": ("Olwyn's double: 1 rank and 0 points in the column where it is placed; "
                     "it counts as a dwarf of that class (and may be discarded like one).",
                     f"{_TV_HEROES}, OLWYN; R16"),
    # ------------------------------------------------------------------ distinctions
    "King's Hand": ("Distinction for the strict majority of warrior ranks at the end of age "
                    "1: transform one of your coins by +5 at once.",
                    f"{_DISTINCTIONS}, La Main du Roi; p.11; R23"),
    "Hunting Master": ("Distinction for the strict majority of hunter ranks at the end of age "
                       "1: your 0 coin becomes the special 3, which still trades like the 0 "
                       "and can never be transformed.",
                       f"{_DISTINCTIONS}, Maître-esse de Chasse; R23"),
    "Crown Jeweler": ("Distinction for the strict majority of miner ranks at the end of age "
                      "1: the gem 6 replaces your gem. It wins every tavern tie, is never "
                      "exchanged, and adds 3 points at the end.",
                      f"{_DISTINCTIONS}, Joaillier-ère de la Couronne; R23"),
    "King's Great Armorer": ("Distinction for the strict majority of blacksmith ranks at the "
                             "end of age 1: the special blacksmith card (2 ranks) joins your "
                             "blacksmith column, which may complete a line.",
                             f"{_DISTINCTIONS}, Grand-e Armurier-ère du Roi; R23"),
    "Pioneer of the Kingdom": ("Distinction for the strict majority of explorer ranks at the "
                               "end of age 1: draw three cards of the age 2 deck and keep "
                               "one (a dwarf joins your army, an offering transforms a "
                               "coin); the other two go back.",
                               f"{_DISTINCTIONS}, Pionnier-ère du Royaume; R3, R23"),
    "B*": ("The King's Great Armorer's special blacksmith: 2 ranks in your blacksmith column.",
           f"{_DISTINCTIONS}, Grand-e Armurier-ère du Roi"),
    # ------------------------------------------------------------------ royal offerings
    "+3": ("Royal Offering (age 1): not kept. Transform one of your coins by +3 at once: it "
           "goes back to the treasury and you take the coin of the new value.",
           "FR p.11 \"Transformer une pièce\"; R2, R6"),
    "+5": ("Royal Offering (age 2): not kept. Transform one of your coins by +5 at once: it "
           "goes back to the treasury and you take the coin of the new value.",
           "FR p.11 \"Transformer une pièce\"; R2, R6"),
    # ------------------------------------------------------------------ artifacts
    "Fafnir Båleygr": ("Artifact: when the highest bidder of a tavern did not go to the camp, "
                       "you may take a camp card on your turn instead of a tavern card.",
                       f"{_ARTIFACTS}, FAFNIR BÅLEYGR; R18, R19"),
    "Draupnir": ("Artifact: 6 points at the end for each of your coins worth 15 or more.",
                 f"{_ARTIFACTS}, DRAUPNIR"),
    "Vegvisir": ("Artifact that goes in your explorer column: 1 rank worth 13 points (it may "
                 "complete a line).", f"{_ARTIFACTS}, VEGVISIR"),
    "Svalinn": ("Artifact: 5 points at the end for each hero you own.",
                f"{_ARTIFACTS}, SVALINN"),
    "Megingjord": ("Artifact: 28 points at the end, but you can no longer recruit heroes by "
                   "completing lines (Gjallarhorn still can).", f"{_ARTIFACTS}, MEGINGJÖRD"),
    "Vidofnir & Vedrfölnir": ("Artifact: at once, transform the two coins of your purse, one "
                              "by +2 and the other by +3 (by +5 if the other one is your "
                              "exchange coin), in the order you choose.",
                              f"{_ARTIFACTS}, VIDOFNIR & VEDRFÖLNIR; p.11; R21"),
    "Brisingamens": ("Artifact: at once, take two cards of the discard (dwarves go in your "
                     "army, offerings transform coins); at the end of age 2 you must discard "
                     "one card of your army that is not a hero.",
                     f"{_ARTIFACTS}, BRISINGAMENS; R14, R16, R17"),
    "Mjöllnir": ("Artifact: 2 points at the end per rank of the class you choose (your best "
                 "column).", f"{_ARTIFACTS}, MJÖLLNIR"),
    "Höfud": ("Artifact: at once, every other player discards a warrior of their army (not a "
              "hero).", f"{_ARTIFACTS}, HÖFUD; R16"),
    "Hrafnsmerki": ("Artifact: 5 points at the end for each mercenary you own.",
                    f"{_ARTIFACTS}, HRAFNSMERKI"),
    "Járnglófi": ("Artifact: 24 points at the end, but your exchange coin (0 or special 3) is "
                  "discarded at once; if it lay on a tavern not yet resolved you take no "
                  "card there.", f"{_ARTIFACTS}, JÁRNGLÓFI; R20"),
    "Gjallarhorn": ("Artifact: recruit a hero at once, whatever your lines (even with "
                    "Megingjord); the next hero needs more lines than heroes as usual.",
                    f"{_ARTIFACTS}, GJALLARHORN; R10"),
}

ABILITIES.update({f"Dwerg {name}": _DWERG
                  for name in ("Ymir", "Aesir", "Sigmir", "Jungir", "Bergelmir")})

#: One text per dwarf class (FR p.7 "Déterminer la Valeur de Bravoure de chaque classe").
CLASS_ABILITIES: dict[str, str] = {
    "W": "Warrior: its points are added up; the player with the most warrior ranks also adds "
         "their highest coin to their warriors at the end.",
    "H": "Hunter: 1 rank; hunters score their number of ranks squared (1, 4, 9, 16, ...).",
    "M": "Miner: miners score the sum of their points times their number of ranks.",
    "B": "Blacksmith: 1 rank; blacksmiths score 3, 7, 12, 18, 25 ... for 1, 2, 3, 4, 5 ranks "
         "(each rank adds one more than the last).",
    "E": "Explorer: explorers score the sum of their points.",
}
CLASS_SOURCE = "FR p.7 \"Déterminer la Valeur de Bravoure de chaque classe\""

MERCENARY_ABILITY = (
    "Mercenary from the camp: kept in your command zone until the end of the age, then "
    "placed in your army on one of its two sides ({sides}). The player with the most "
    "mercenaries chooses to place them first or last.")
MERCENARY_SOURCE = "FR Thingvellir \"Les cartes Mercenaire\", p.24; R5, R14, R22"
