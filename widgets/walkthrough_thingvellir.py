"""The Thingvellir walkthrough as data: a scripted 2-player game with the expansion.

You play against Bo with Thingvellir (the camp, mercenaries, artifacts and the six new
heroes; the first-game variant keeps Thrud, Ylud and Uline out, R25). The deal fixes the
age decks (``AGE1``, ``AGE2``: the taverns of each round, in draw order) and the two camp
decks (``CAMP1``, ``CAMP2``: in the order they are revealed), so that the game shows: who
may visit the camp and the 2-player discard, Fafnir Båleygr, Vidofnir & Vedrfölnir,
Draupnir, mercenaries enlisted at the end of each age (first or last), Jarika, Brisingamens
(both halves), Khrad, Holda, Höfud, Gjallarhorn, Mjöllnir, Hrafnsmerki and the final
scoring of artifacts.

The steps have the same shape as :mod:`widgets.walkthrough_data` (see there). Rule
citations name the sections of the Thingvellir part of the French rulebook (shared seed
``003_…``) and the project's rulings (R-numbers).
"""

from __future__ import annotations

from typing import Any

from .walkthrough_data import build_record, deck

KEY = "thingvellir"
TITLE = "Thingvellir"
SUMMARY = ("The expansion: the camp and who may visit it, the 2-player discard, mercenaries "
           "and their enlistment, artifacts (Fafnir Båleygr, Vidofnir, Brisingamens, Höfud, "
           "Gjallarhorn and more), Jarika and Holda, and how artifacts score (2 players).")

NAMES = ["You", "Bo"]
LEARNER = 0

AGE1 = deck(
    [["E10", "B", "H"], ["H", "M1", "E5"], ["M2", "E6", "W3"]],
    [["B", "E9", "M0"], ["W6", "H", "E7"], ["W9", "M1", "+3"]],
    [["W8", "H", "W5"], ["B", "M0", "E11"], ["H", "B", "W4"]],
    [["B", "B", "W7"], ["M2", "H", "E8"], ["B", "B", "W6"]],
)
#: The first card (explorer 5) is discarded: nobody wins the Pioneer (R3).
AGE2 = deck(
    [["W9", "B", "H"], ["W8", "M1", "E6"], ["M0", "H", "B"]],
    [["W7", "H", "E7"], ["B", "M2", "W4"], ["E8", "M1", "B"]],
    [["E11", "+5", "H"], ["B", "M2", "W6"], ["E10", "W5", "H"]],
    [["B", "M0", "E9"], ["W6", "+5", "B"], ["H", "W3", "B"]],
    first=("E5",),
)
#: The camp decks in the order the cards are revealed (5 at the start of each age, then
#: refilled to 5 at the start of every round).
CAMP1 = ["Fafnir Båleygr", "W6/E8", "Vidofnir & Vedrfölnir", "H/M1", "Draupnir", "W9/E11",
         "B/M1", "Svalinn", "W6/B", "H/E8", "Vegvisir", "Megingjord"]
CAMP2 = ["Höfud", "Brisingamens", "W6/H", "Mjöllnir", "Gjallarhorn", "H/B", "Hrafnsmerki",
         "W6/M1", "B/E8", "E8/M1", "W9/E11", "Járnglófi"]

_BASE_RECORD: dict[str, Any] = {
    "format": "nidavellir-record",
    "version": 1,
    "config": {"players": 2, "names": NAMES, "expansions": ["thingvellir"],
               "options": {"first_game": True}},
    "seed": 2026,
    "deal": {"ages": {"1": AGE1, "2": AGE2}, "camp": {"1": CAMP1, "2": CAMP2},
             "gems": [5, 4]},
}

_TV = "Thingvellir"
_ART = f"{_TV} « Les cartes Artefact »"
_HEROES = f"{_TV} « Capacités des cartes Héros-ïne »"
_MERC = f"{_TV} « Les cartes Mercenaire » and « Déroulement de la fin de chaque Age » (p. 24)"

STEPS: list[dict[str, Any]] = [
    {
        "key": "setup",
        "title": "The camp",
        "rule": f"{_TV} « LE CAMP » → « Mise en place », « Gestion durant la partie » (p. 4)",
        "text": (
            "<p>Thingvellir adds a <b>camp</b> above the taverns. It holds <b>mercenaries</b> "
            "(dwarves with two classes) and <b>artifacts</b> (powers and points), from two "
            "decks, one per age. At the start of every round the camp is filled up to "
            "<b>5 cards</b>. The hall also holds six new heroes.</p>"
            "<p>You play Bo: you hold gem 5, Bo gem 4. The rulebook's advice: gem 5 in the "
            "first round gives you a real edge for going to the camp.</p>"),
        "actions": [],
    },
    {
        "key": "visit",
        "title": "Who may visit the camp",
        "rule": f"{_TV} « Nouvelles règles » (p. 5)",
        "text": (
            "<p>Both of you have bid. At the Laughing Goblin you bid 5, Bo 4: you are the "
            "tavern's <b>winner</b>. Only the winner may take <b>a camp card instead of a "
            "tavern card</b>; everybody else takes a tavern card in bid order.</p>"
            "<p><b>Fafnir Båleygr</b> is an artifact: with it you may go to the camp even when "
            "you did not win a tavern, as long as its winner did not go there.</p>"),
        "actions": ["bid 5 2 3", "bid 4 3 2"],
        "move": "camp Fafnir",
        "ask": "Take Fafnir Båleygr from the camp (<code>camp Fafnir</code>, or its "
               "<b>camp</b> button).",
        "why": "Fafnir Båleygr opens the camp to you for the rest of the game",
        "wrong": {"take E10": "Legal: the winner may also take a tavern card. This step "
                              "visits the camp: take Fafnir Båleygr."},
        "after": "Fafnir Båleygr is in your command zone.",
    },
    {
        "key": "two-players",
        "title": "Two players: the camp visitor discards a tavern card",
        "rule": f"{_TV} « Nouvelle règle à 2 Elvalands » (p. 4)",
        "text": (
            "<p>With 2 players, the winner who goes to the camp must also <b>discard one of "
            "the three tavern cards</b>; the other player chooses from the two left. Use it "
            "to deny Bo the best card.</p>"),
        "actions": [],
        "move": "drop E10",
        "ask": "Discard the explorer 10 (<code>drop E10</code>).",
        "why": "the explorer 10 is the card Bo would want most",
        "wrong": {},
        "after": "The explorer 10 goes face up to the discard. Bo takes from the two left.",
    },
    {
        "key": "fafnir",
        "title": "Fafnir Båleygr: the camp without winning",
        "rule": f"{_ART} → « FAFNIR BÅLEYGR »; R18, R19",
        "text": (
            "<p>Bo took the blacksmith. At the Dancing Dragon Bo's 3 beat your 2 and he took "
            "a hunter from the tavern, not the camp. So <b>Fafnir Båleygr</b> lets you take "
            "a camp card on your turn.</p>"
            "<p>When the second player goes to the camp, nobody discards an extra card: the "
            "tavern's leftover cards are discarded at the end as usual (R19).</p>"
            "<p>Take a <b>mercenary</b>: it waits in your command zone until the end of the "
            "age, then joins your army in one of its two classes.</p>"),
        "actions": ["take B", "take H"],
        "move": "camp W6/E8",
        "ask": "Take the mercenary warrior 6 / explorer 8 (<code>camp W6/E8</code>).",
        "why": "a mercenary can become the explorer your army lacks",
        "wrong": {"take M1": "Legal, but Fafnir Båleygr lets you take a camp card here: "
                             "take the mercenary W6/E8."},
        "after": "The mercenary W6/E8 waits in your command zone.",
    },
    {
        "key": "vidofnir",
        "title": "Vidofnir & Vedrfölnir",
        "rule": f"{_ART} → « VIDOFNIR & VEDRFÖLNIR »; « Transformer une pièce » (p. 11)",
        "text": (
            "<p>You took the miner 2, Bo the explorer 6. Round 2: the camp was filled up "
            "again. You bid 5 on the Laughing Goblin and put 3 and 4 in your purse; Bo bid "
            "2 there.</p>"
            "<p><b>Vidofnir & Vedrfölnir</b> transforms <b>both coins of your purse</b> at "
            "once, one by +2 and the other by +3 (+5 on the other one if your exchange coin "
            "is in the purse).</p>"),
        "actions": ["take M2", "take E6", "bid 5 0 2", "bid 2 4 3"],
        "move": "camp Vidofnir",
        "ask": "Take Vidofnir & Vedrfölnir from the camp (<code>camp Vidofnir</code>).",
        "why": "Vidofnir grows both your purse coins at once",
        "wrong": {},
        "after": "Now choose which coin gets +3.",
    },
    {
        "key": "vidofnir-coins",
        "title": "Which coin gets +3",
        "rule": f"{_ART} → « VIDOFNIR & VEDRFÖLNIR »",
        "text": (
            "<p>Your purse holds 3 and 4. 4 + 3 = 7 and 3 + 2 = 5, or 4 + 2 = 6 and 3 + 3 = "
            "6: you choose. Put the +3 on the 4: it gives the higher coin.</p>"),
        "actions": [],
        "move": "vidofnir 4+3 3+2",
        "ask": "Transform 4 by +3 and 3 by +2 (<code>vidofnir 4+3 3+2</code>).",
        "why": "7 and 5 make your best coin higher than 6 and 6",
        "wrong": {},
        "after": "Your purse: 5 and 7.",
    },
    {
        "key": "draupnir",
        "title": "Bo goes to the camp",
        "rule": f"{_TV} « Nouvelle règle à 2 Elvalands » (p. 4); {_ART} → « DRAUPNIR »",
        "text": (
            "<p>You discarded the explorer 9 (we did it for you) and Bo took the blacksmith. "
            "At the Dancing Dragon Bo won and went to the camp for <b>Draupnir</b>: 6 points "
            "at the end for each of his coins worth 15 or more. As the 2-player rule says, "
            "he discarded a tavern card, the explorer 7. Two cards are left for you.</p>"),
        "actions": ["drop E9", "take B", "camp Draupnir", "drop E7"],
        "move": "take W6",
        "ask": "Take the warrior 6 (<code>take W6</code>).",
        "why": "warriors win the King's Hand at the end of this age",
        "wrong": {},
        "after": "Your 0 was on this tavern: you trade 5 + 7 for a 12.",
    },
    {
        "key": "second-mercenary",
        "title": "A second mercenary",
        "rule": f"{_MERC}",
        "text": (
            "<p>Round 3: you bid 12 on the Shining Horse, Bo 0. Your army has warriors, "
            "miners and a blacksmith, but no hunter and no explorer: two mercenaries can "
            "fill both at the end of the age.</p>"),
        "actions": ["take M1", "take W9", "bid 5 2 12", "bid 3 4 0", "take W8", "take H",
                    "take M0", "take B"],
        "move": "camp H/M1",
        "ask": "Take the mercenary hunter / miner 1 (<code>camp H/M1</code>).",
        "why": "its hunter side and W6/E8's explorer side complete your first line at the "
               "end of the age",
        "wrong": {"take H": "Legal, but a hunter now completes nothing: the mercenary "
                            "H/M1 does the same at the end of the age, and this step teaches "
                            "the enlistment."},
        "after": "Two mercenaries wait in your command zone.",
    },
    {
        "key": "enlist-order",
        "title": "The end of age 1: who enlists first",
        "rule": f"{_MERC}; R14",
        "text": (
            "<p>Round 4 went by (Bo took the mercenary B/M1). At the end of the age, "
            "<b>before the distinctions</b>, every mercenary must join its owner's army "
            "(R14).</p>"
            "<p>The player with the <b>most mercenaries</b> (ties by gem, with no exchange) "
            "chooses: place them <b>first</b>, or pass and place them <b>last</b>, after "
            "seeing the others'. You have 2, Bo 1: you choose.</p>"),
        "actions": ["drop H", "take B", "bid 5 12 0", "bid 7 2 4", "camp B/M1", "drop W7",
                    "take B", "take M2", "take H", "take B", "take B"],
        "move": "enlist last",
        "ask": "Place yours last (<code>enlist last</code>).",
        "why": "going last lets you answer Bo's choice",
        "wrong": {"enlist first": "Legal, but going first gives Bo the last word: this step "
                                  "places yours last."},
        "after": "Bo places his first.",
    },
    {
        "key": "enlist",
        "title": "Placing a mercenary",
        "rule": f"{_MERC}",
        "text": (
            "<p>Bo put B/M1 among his <b>miners</b>: 3 miner ranks against your 2, for the "
            "Crown Jeweler. Now you: each mercenary goes into <b>one of its two classes</b>, "
            "chosen now and never moved again. It counts as a dwarf of that class.</p>"),
        "actions": ["enlist B/M1 M"],
        "move": "enlist W6/E8 E",
        "ask": "Put W6/E8 in your explorers (<code>enlist W6/E8 E</code>): an explorer 8.",
        "why": "you have no explorer: the E side is what your line needs",
        "wrong": {"enlist W6/E8 W": "Legal (a warrior 6), but you have no explorer: the "
                                    "explorer side helps complete a line."},
        "after": "One more to place.",
    },
    {
        "key": "enlist-line",
        "title": "A mercenary completes a line",
        "rule": f"{_MERC}; « Recruter un·e Héros·ïne » (p. 9)",
        "text": (
            "<p>Placing a mercenary can complete a line: then you recruit a hero at once, "
            "and go on placing afterwards.</p>"),
        "actions": [],
        "move": "enlist H/M1 H",
        "ask": "Put H/M1 in your hunters (<code>enlist H/M1 H</code>).",
        "why": "the hunter is the last class missing from your first line",
        "wrong": {"enlist H/M1 M": "Legal (3 miners against Bo's 3 would tie the Crown "
                                   "Jeweler), but the hunter side completes your line."},
        "after": "A line: recruit a hero.",
    },
    {
        "key": "jarika",
        "title": "Jarika",
        "rule": f"{_HEROES} → « JARIKA LA ROUBLARDE »; R6",
        "text": (
            "<p><b>Jarika</b> (8 points) adds <b>+2</b> to every later transform and trade "
            "of yours: a +3 Royal Offering gives +5, an exchange of 3 + 4 takes a 9.</p>"),
        "actions": [],
        "move": "hero Jarika",
        "ask": "Recruit Jarika (<code>hero Jarika</code>).",
        "why": "Jarika makes every coin change of yours bigger, starting right now",
        "wrong": {},
        "after": "Now the distinctions.",
    },
    {
        "key": "kings-hand",
        "title": "The King's Hand, with Jarika",
        "rule": "« Fin de l'Age 1: l'Évaluation des troupes » (p. 12); "
                f"{_HEROES} → « JARIKA »",
        "text": (
            "<p>With 3 warrior ranks against Bo's none, you win the <b>King's Hand</b>: "
            "transform a coin by +5, and with Jarika by <b>+7</b>.</p>"),
        "actions": [],
        "move": "transform 12@hand",
        "ask": "Transform your 12 (<code>transform 12@hand</code>): 12 + 5 + 2 = 19.",
        "why": "your highest coin grows most where it counts: the warrior bonus",
        "wrong": {},
        "after": "Your 12 became a 19.",
    },
    {
        "key": "brisingamens",
        "title": "Age 2: Brisingamens",
        "rule": f"{_ART} → « BRISINGAMENS »; R2, R15, R17",
        "text": (
            "<p>Bo won the Hunting Master, the Crown Jeweler and the King's Great Armorer. "
            "Explorers were tied 1–1, so nobody won the Pioneer and the top age-2 card was "
            "discarded (R3). After the distinctions the age-1 camp cards left are "
            "discarded.</p>"
            "<p>Age 2, a new camp. You won the Laughing Goblin with 8. <b>Brisingamens</b> "
            "lets you look through the <b>discard</b> (dwarves and used Royal Offerings) and "
            "take <b>two cards</b> at once. The price comes at the end of the game.</p>"),
        "actions": ["bid 8 2 5", "bid 4 7 3*"],
        "move": "camp Brisingamens",
        "ask": "Take Brisingamens (<code>camp Brisingamens</code>).",
        "why": "the discard holds the explorer 10 you discarded in round 1",
        "wrong": {},
        "after": "Choose your first card from the discard.",
    },
    {
        "key": "brisingamens-1",
        "title": "Back from the discard",
        "rule": f"{_ART} → « BRISINGAMENS »",
        "text": (
            "<p>A dwarf taken this way goes into your army (and may complete a line).</p>"),
        "actions": [],
        "move": "choose E10",
        "ask": "Take back the explorer 10 (<code>choose E10</code>).",
        "why": "it is the best explorer in the discard",
        "wrong": {},
        "after": "One more card.",
    },
    {
        "key": "brisingamens-2",
        "title": "A Royal Offering from the discard",
        "rule": f"{_ART} → « BRISINGAMENS »; R2",
        "text": (
            "<p>Used Royal Offerings go to the discard (R2), so Brisingamens can take one "
            "again: the +3 left in a tavern in round 2 is there.</p>"),
        "actions": [],
        "move": "choose +3",
        "ask": "Take the Royal Offering +3 (<code>choose +3</code>).",
        "why": "with Jarika a +3 is a +5",
        "wrong": {},
        "after": "Transform a coin.",
    },
    {
        "key": "jarika-offering",
        "title": "A +3 that gives +5",
        "rule": f"{_HEROES} → « JARIKA »; « Transformer une pièce » (p. 11)",
        "text": "<p>19 + 3 + 2 (Jarika) = 24.</p>",
        "actions": [],
        "move": "transform 19@purse",
        "ask": "Transform your 19 (<code>transform 19@purse</code>).",
        "why": "your highest coin counts twice with the warrior majority",
        "wrong": {},
        "after": "Your 19 became a 24. Now discard one of the tavern's cards.",
    },
    {
        "key": "khrad",
        "title": "Khrad, Bo's mercenary, and your second line",
        "rule": f"{_HEROES} → « KHRAD LE MENDIANT »; R4",
        "text": (
            "<p>You discarded a blacksmith; Bo took the warrior 9, completed a line and "
            "recruited <b>Khrad</b>: his lowest coin (not the exchange coin) was transformed "
            "by +10 (R4). At the Dancing Dragon he went to the camp for the mercenary "
            "W6/H.</p>"
            "<p>Round 2: at the Laughing Goblin Bo took the warrior 7. The hunter left "
            "completes your second line.</p>"),
        "actions": ["drop B", "take W9", "hero Khrad", "transform 2@purse", "camp W6/H",
                    "drop M1", "take W8", "take M0", "take H", "bid 2 8 5", "bid 7 4 3",
                    "take W7"],
        "move": "take H",
        "ask": "Take the hunter (<code>take H</code>).",
        "why": "it completes your second line",
        "wrong": {},
        "after": "Second line: recruit a hero.",
    },
    {
        "key": "holda",
        "title": "Holda",
        "rule": f"{_HEROES} → « HOLDA LA MÉNESTRELLE »; R17, R18",
        "text": (
            "<p><b>Holda</b> (12 points) takes <b>a mercenary or an artifact from the "
            "camp</b> when you recruit her, whoever won the tavern. It is not a camp visit: "
            "no card is discarded for it (R18).</p>"),
        "actions": [],
        "move": "hero Holda",
        "ask": "Recruit Holda (<code>hero Holda</code>).",
        "why": "Holda brings a camp card now",
        "wrong": {},
        "after": "Choose a camp card.",
    },
    {
        "key": "hrafnsmerki",
        "title": "Hrafnsmerki",
        "rule": f"{_ART} → « HRAFNSMERKI »",
        "text": (
            "<p><b>Hrafnsmerki</b> scores <b>5 points per mercenary</b> you own at the end: "
            "your two are already in your army, and they count.</p>"),
        "actions": [],
        "move": "choose Hrafnsmerki",
        "ask": "Take Hrafnsmerki (<code>choose Hrafnsmerki</code>).",
        "why": "you own two mercenaries already: 10 points, more with each new one",
        "wrong": {},
        "after": "Back to the Dancing Dragon, which your 8 wins.",
    },
    {
        "key": "hofud",
        "title": "Höfud",
        "rule": f"{_ART} → « HÖFUD »; R16",
        "text": (
            "<p><b>Höfud</b>: at once, <b>every other player discards a warrior</b> from "
            "their army, any one but a hero. Bo has two warriors; you have four and want "
            "the warrior majority.</p>"),
        "actions": [],
        "move": "camp Hofud",
        "ask": "Take Höfud (<code>camp Hofud</code>).",
        "why": "it costs Bo a warrior",
        "wrong": {},
        "after": "Bo must discard a warrior.",
    },
    {
        "key": "gjallarhorn",
        "title": "Gjallarhorn",
        "rule": f"{_ART} → « HÖFUD », « GJALLARHORN »",
        "text": (
            "<p>Bo discarded his warrior 7. You discarded a blacksmith for the camp visit "
            "(we did it for you), and took the explorer 8 at the Shining Horse.</p>"
            "<p>Round 3. <b>Gjallarhorn</b> recruits a hero <b>at once, whatever your "
            "lines</b>. The next hero after that needs more lines than heroes, as "
            "always.</p>"),
        "actions": ["remove W7@W", "drop B", "take M2", "take E8", "take M1", "bid 8 2 5",
                    "bid 4 7 3"],
        "move": "camp Gjallarhorn",
        "ask": "Take Gjallarhorn (<code>camp Gjallarhorn</code>).",
        "why": "a third hero without a third line",
        "wrong": {},
        "after": "Recruit a hero.",
    },
    {
        "key": "gjallarhorn-hero",
        "title": "A hero from the horn",
        "rule": f"{_ART} → « GJALLARHORN »; « Capacités des cartes Héros·ïne » (p. 14) → "
                "« ASTRID »",
        "text": (
            "<p><b>Astrid</b> is worth your highest coin: your 24.</p>"),
        "actions": [],
        "move": "hero Astrid",
        "ask": "Recruit Astrid (<code>hero Astrid</code>).",
        "why": "Astrid is worth 24 with your 24 coin",
        "wrong": {},
        "after": "Astrid joins your command zone.",
    },
    {
        "key": "last-mercenary",
        "title": "Mjöllnir, and one more mercenary",
        "rule": f"{_ART} → « MJÖLLNIR »; {_MERC}",
        "text": (
            "<p>Bo went to the camp for <b>Mjöllnir</b>: 2 points per rank of one class at "
            "the end (he will choose his blacksmiths). In round 4 he took the mercenary "
            "H/B: he owns two.</p>"
            "<p>You won the Dancing Dragon with 8. One more mercenary is one more rank, and "
            "5 more points with Hrafnsmerki.</p>"),
        "actions": ["drop H", "take E11", "camp Mjollnir", "drop W6", "take B", "take E10",
                    "take H", "bid 2 8 5", "bid 7 4 3*", "camp H/B", "drop E9", "take B"],
        "move": "camp W9/E11",
        "ask": "Take the mercenary warrior 9 / explorer 11 (<code>camp W9/E11</code>).",
        "why": "a warrior 9 at the end keeps the warrior majority, and Hrafnsmerki counts it",
        "wrong": {"take W6": "Legal, but Höfud's lesson is that Bo is chasing warriors: a "
                             "mercenary placed at the very end answers him. Take W9/E11."},
        "after": "Three mercenaries in all.",
    },
    {
        "key": "enlist-age2",
        "title": "The end of age 2: Bo enlists first",
        "rule": f"{_MERC}; R14, R22",
        "text": (
            "<p>Bo took the warrior 6 (and recruited Skaa with his second line) and a "
            "blacksmith. The game is over; the end of age 2 begins with the mercenaries.</p>"
            "<p>Bo has 2, you 1: Bo chose to go <b>first</b>. He put W6/H among his warriors "
            "(3 ranks) and H/B among his hunters. You have 4 warriors: the W side "
            "makes 5, and the warrior bonus (your highest coin) is yours alone.</p>"),
        "actions": ["drop +5", "take W6", "hero Skaa", "take H", "take B", "enlist first",
                    "enlist W6/H W", "enlist H/B H"],
        "move": "enlist W9/E11 W",
        "ask": "Put W9/E11 in your warriors (<code>enlist W9/E11 W</code>).",
        "why": "5 warrior ranks against Bo's 3: the 24 bonus is yours",
        "wrong": {"enlist W9/E11 E": "Legal (an explorer 11), but then warriors are 4 "
                                     "against 3 anyway; the W side scores 9 and keeps a "
                                     "margin. The step takes the warrior side."},
        "after": "Then Brisingamens asks for its price.",
    },
    {
        "key": "brisingamens-end",
        "title": "Brisingamens' price",
        "rule": f"{_ART} → « BRISINGAMENS »; R14, R16",
        "text": (
            "<p>At the end of age 2, before the final count (R14), the owner of "
            "<b>Brisingamens</b> must discard <b>one card of their army</b>: any card but a "
            "hero (R16), mercenaries included. Choose the one that costs least.</p>"),
        "actions": [],
        "move": "remove M0@M",
        "ask": "Discard your miner 0 (<code>remove M0@M</code>).",
        "why": "your miners go from 3 × 4 = 12 to 2 × 4 = 8 points: the cheapest loss",
        "wrong": {"remove B@B": "Legal, but blacksmiths would drop from 25 to 18 points: the "
                                "miner 0 costs only 4."},
        "after": "The final count.",
    },
    {
        "key": "score",
        "title": "Artifacts on the score pad",
        "rule": f"{_ART} (Draupnir, Mjöllnir, Hrafnsmerki) and « Fin de l'Age 2 et fin de "
                "la partie » (p. 12)",
        "text": (
            "<p>The score pad has a line for <b>artifacts</b>. Some score nothing at the end "
            "(Fafnir Båleygr, Vidofnir, Brisingamens, Höfud, Gjallarhorn: their power was "
            "their worth); others score:</p><ul>"
            "<li>your <b>Hrafnsmerki</b>: 3 mercenaries × 5 = <b>15</b>;</li>"
            "<li>Bo's <b>Draupnir</b>: one coin of 15 or more (his 18) × 6 = <b>6</b>;</li>"
            "<li>Bo's <b>Mjöllnir</b>: 7 blacksmith ranks × 2 = <b>14</b>.</li></ul>"
            "<p>Mercenaries score in the column where they were placed, like dwarves. You "
            "win <b>240</b> to <b>220</b>: your heroes Jarika 8, Holda 12 and Astrid 24, and "
            "the warrior bonus of 24, made the difference.</p>"),
        "actions": [],
    },
]


def record() -> dict[str, Any]:
    """The walkthrough's game as a record (every step's actions and taught moves)."""
    return build_record(_BASE_RECORD, STEPS)


__all__ = ["AGE1", "AGE2", "CAMP1", "CAMP2", "KEY", "LEARNER", "NAMES", "STEPS", "SUMMARY",
           "TITLE", "record"]
