"""The rules walkthrough as data: a scripted 3-player game and the steps that explain it.

The game is an explicit deal in a record (``RECORD``): the age-1 deck in draw order
(tavern 1 gets the first three cards, then tavern 2, then tavern 3, round after round),
the age-2 deck, and the gems by seat. Its actions are the steps' actions and taught moves,
in order, so the record and the lesson cannot drift apart (``record()`` builds it and a
test replays it to the final score sheet).

Each step is a dict:

- ``key``, ``title``;
- ``rule``: where the rule is in the French rulebook (section headings, page when the
  rulebook gives one);
- ``text``: the rule in plain words (HTML);
- ``actions``: what the other players (or "we, for you") do before the step is shown;
- ``move`` (optional): the one move the learner must make, in notation, with ``ask``
  (what to do), ``why`` (why this move: shown when another move is tried), ``wrong``
  (explanations for particular other moves) and ``after`` (shown once it is made).

Seat 0 is the learner ("You"); Bo and Cy are scripted. The first-game variant (R25, the
rulebook's "Bien débuter": no Thrud, Ylud or Uline) is on.
"""

from __future__ import annotations

import copy
from typing import Any

NAMES = ["You", "Bo", "Cy"]
LEARNER = 0

AGE1 = [
    # round 1: Laughing Goblin, Dancing Dragon, Shining Horse
    "E9", "H", "M1", "W7", "B", "W3", "E6", "M0", "H",
    # round 2
    "H", "W5", "M2", "B", "E5", "W4", "+3", "M2", "H",
    # round 3
    "W8", "H", "B", "E7", "B", "B", "W6", "H", "M0",
    # round 4
    "W9", "E10", "B", "W6", "E11", "M1", "E8", "B", "B",
]
AGE2 = [
    "W3", "W4", "W5", "W6", "W6", "W7", "W8", "W9", "H", "H", "H", "H", "H", "H",
    "M0", "M0", "M1", "M1", "M2", "M2", "B", "B", "B", "B", "B", "B", "B", "B",
    "E5", "E6", "E7", "E8", "E9", "E10", "E11", "+5", "+5",
]

#: Age 2, played by greedy bots for every seat (frozen here so that the lesson never
#: changes when the bots do).
AGE2_ACTIONS = [
    "bid 15 4 0", "bid 5 3* 5", "bid 4 0 5", "take W7", "take H", "take B", "take B",
    "take B", "take W5", "take H", "hero Zoral", "take M1", "hero Lokdur", "hero Dagda",
    "discard W", "discard B", "take B", "bid 0 15 6", "bid 6 3* 5", "bid 0 5 5", "take H",
    "take M0", "take B", "take E9", "take E8", "take M0", "take E7", "take M2", "take H",
    "bid 15 0 8", "bid 6 8 3*", "bid 5 7 0", "take E11", "take E10", "take W4", "take M2",
    "take +5", "transform 2@purse", "take E6", "take B", "take W6", "take B",
    "bid 10 15 0", "bid 3* 10 8", "bid 14 0 7", "take M1", "take +5", "transform 15@T2",
    "take W8", "take B", "take W9", "take E5", "take H", "take H", "hero Bonfur",
    "discard E", "take W6",
]

_BASE_RECORD: dict[str, Any] = {
    "format": "nidavellir-record",
    "version": 1,
    "config": {"players": 3, "names": NAMES, "expansions": [],
               "options": {"first_game": True}},
    "seed": 2024,
    "deal": {"ages": {"1": AGE1, "2": AGE2}, "gems": [3, 5, 4]},
}

STEPS: list[dict[str, Any]] = [
    {
        "key": "setup",
        "title": "Setting up the table",
        "rule": "« Mise en place » and « Bien débuter à Nidavellir » (first game without "
                "Thrud, Ylud and Uline)",
        "text": (
            "<p>You play against Bo and Cy. Everyone starts with the same five coins, "
            "<b>0, 2, 3, 4 and 5</b>, and one <b>gem</b> dealt at random: with three "
            "players the gems 3, 4 and 5. You hold gem 3, Bo gem 5, Cy gem 4. Gems only "
            "break ties between equal bids.</p>"
            "<p>The middle of the table holds the <b>Royal Treasury</b> (the gold coins "
            "5 to 25 you can get later), the <b>hero hall</b> and the five "
            "<b>distinctions</b>. The age-1 deck is dealt face up: with three players, "
            "three dwarves enter each of the three taverns (« 1. ENTRÉE DES NAIN·E·S »): "
            "the Laughing Goblin, the Dancing Dragon and the Shining Horse.</p>"
            "<p>The game lasts two ages of four rounds each (with 2-3 players). At the end, "
            "the player with the highest final bravery value wins.</p>"),
        "actions": [],
    },
    {
        "key": "bid",
        "title": "The secret bid",
        "rule": "« Tour de jeu » → « 2. LES MISES »",
        "text": (
            "<p>Everyone bids at the same time and in secret: <b>one coin on each tavern</b>, "
            "face down; the two coins left go to your <b>purse</b>. The coin on a tavern "
            "decides when you choose a card there: the highest coin chooses first.</p>"
            "<p>Look at the taverns. The Laughing Goblin has an explorer 9 (9 points); the "
            "Shining Horse has nothing you need much. A <b>0</b> chooses last, but it is "
            "the <b>exchange coin</b>: it will make your purse coins grow (we see how "
            "soon).</p>"),
        "actions": [],
        "move": "bid 4 3 0",
        "ask": "Bid 4 on the Laughing Goblin, 3 on the Dancing Dragon and 0 on the Shining "
               "Horse (choose the coins in the three dropdowns, then Bid, or type "
               "<code>bid 4 3 0</code>). Your 2 and 5 go to your purse.",
        "why": "this step sets up the next ones: your 4 on the Laughing Goblin shows how "
               "the reveal and a tie work, and your 0 on the Shining Horse makes the "
               "exchange",
        "wrong": {},
        "after": "Your coins lie face down: the others see only that you bid, not what.",
    },
    {
        "key": "reveal",
        "title": "The reveal, and ties broken by gems",
        "rule": "« Résolution des tavernes » → « 1. RÉVÉLATION DE LA MISE » (ties: "
                "« Résoudre les égalités »)",
        "text": (
            "<p>Bo and Cy have bid too. The taverns are resolved one after the other, "
            "starting with the Laughing Goblin. Only the coins on <b>that</b> tavern are "
            "revealed: Bo 4, You 4, Cy 2.</p>"
            "<p>You and Bo <b>tie</b> with 4. A tie is broken by the gems: the higher gem "
            "wins. Bo's gem 5 beats your gem 3, so the order is Bo, then you, then Cy. Bo "
            "has taken the hunter.</p>"),
        "actions": ["bid 4 0 5", "bid 2 5 3", "take H"],
    },
    {
        "key": "take",
        "title": "Taking a card",
        "rule": "« 2. TOUR DE L'ELVALAND ACTIF-VE » and « Placer une carte Nain·e dans son "
                "armée »",
        "text": (
            "<p>On your turn you take <b>one card</b> of the tavern being resolved. A dwarf "
            "goes straight into your <b>army</b>, in the column of its class: warriors, "
            "hunters, miners, blacksmiths or explorers. Each card shows one <b>rank</b> "
            "(and most show bravery points).</p>"
            "<p>Explorers are worth the sum of their bravery points (« LES "
            "EXPLORATEUR·RICE·S », p. 7): the explorer 9 is 9 points at once.</p>"),
        "actions": [],
        "move": "take E9",
        "ask": "Take the explorer 9 (the <b>take</b> button under it, or "
               "<code>take E9</code>).",
        "why": "the explorer 9 is worth 9 points now; this step shows a card going into "
               "your army",
        "wrong": {"take M1": "The miner 1 is legal, but miners multiply bravery points by "
                             "ranks: alone it is worth 1 point. This step takes the explorer "
                             "9."},
        "after": "The explorer 9 starts your explorer column.",
    },
    {
        "key": "gems",
        "title": "The gem exchange",
        "rule": "« 3. ÉCHANGE DE GEMMES » → « Échanger les gemmes »",
        "text": (
            "<p>Cy took the miner 1 and the Laughing Goblin is done. Now the players who "
            "<b>tied</b> there <b>exchange their gems</b>: you give your 3 to Bo and get his "
            "5. Winning a tie costs the best gem, so nobody keeps the advantage.</p>"
            "<p>The Dancing Dragon is revealed next: Cy 5, You 3, Bo 0. Cy chooses first and "
            "takes a blacksmith.</p>"),
        "actions": ["take M1", "take B"],
        "move": "take W7",
        "ask": "Take the warrior 7 (<code>take W7</code>).",
        "why": "warriors are worth their bravery points, and the player with the most "
               "warrior ranks at the end adds their highest coin to them (« LES "
               "GUERRIER·ÈRE·S », p. 7); this lesson builds a warrior army",
        "wrong": {"take W3": "The warrior 3 is legal too, but it has fewer bravery points "
                             "than the warrior 7: the step takes W7."},
        "after": "Bo takes the last card, the warrior 3.",
    },
    {
        "key": "exchange-coin",
        "title": "The exchange coin and the Royal Treasury",
        "rule": "« Échanger des pièces » (p. 11) and « Défausser des pièces »",
        "text": (
            "<p>Bo bid his <b>0</b> on the Dancing Dragon. After his turn there he "
            "<b>exchanges</b>: he reveals the two coins of his purse (2 and 3), adds them "
            "(5), gives up the <b>higher</b> one (3) and takes a <b>5</b> from the Royal "
            "Treasury. A bronze starting coin given up leaves the game; a gold coin goes "
            "back to the treasury.</p>"
            "<p>The Shining Horse is revealed: Bo 5, Cy 3, You 0. With the 0 you choose "
            "last: Bo took the explorer 6 and Cy the hunter; the miner 0 is left for "
            "you.</p>"),
        "actions": ["take W3", "take E6", "take H"],
        "move": "take M0",
        "ask": "Take the miner 0 (<code>take M0</code>), then watch your exchange.",
        "why": "the miner 0 is the only card left: bidding 0 means choosing last",
        "wrong": {},
        "after": ("Your 0 was on this tavern: your purse held 2 and 5, so you give up the 5 "
                  "and take the treasury's only 7 (with 2-3 players there is one 7, one 9 "
                  "and one 11). The round is over: everyone takes their coins back in hand "
                  "(« Tour suivant ») and round 2 is dealt."),
    },
    {
        "key": "hunters",
        "title": "Round 2: first at the Laughing Goblin",
        "rule": "« 2. LES MISES », « LES CHASSEUR·EUSE·S » (p. 7)",
        "text": (
            "<p>Your hand is now 0, 2, 3, 4 and <b>7</b>. We bid for you: 7 on the Laughing "
            "Goblin, 4 on the Dancing Dragon, 3 on the Shining Horse. Bo and Cy bid too; "
            "the reveal shows You 7, Bo 5, Cy 2: you choose first.</p>"
            "<p>Hunters have no bravery points: their value is the <b>number of hunter "
            "ranks squared</b> (1, 4, 9, 16, …). You have a warrior, a miner and an "
            "explorer: a hunter also brings you closer to a full line of five classes.</p>"),
        "actions": ["bid 7 4 3", "bid 5 5 2", "bid 2 3 4"],
        "move": "take H",
        "ask": "Take the hunter (<code>take H</code>).",
        "why": "the hunter is the class you are missing most for a line of five classes",
        "wrong": {"take M2": "The miner 2 is legal, but you already have a miner: the step "
                             "takes the hunter for your first line of five classes.",
                  "take W5": "The warrior 5 is legal, but you already have a warrior: the "
                             "step takes the hunter for your first line of five classes."},
        "after": "You now have a warrior, a hunter, a miner and an explorer.",
    },
    {
        "key": "line",
        "title": "Completing a line",
        "rule": "« Recruter un·e Héros·ïne »",
        "text": (
            "<p>Bo took the warrior 5 and Cy the miner 2. At the Dancing Dragon Bo (5) "
            "chose first and took the explorer 5; you come next.</p>"
            "<p>When your army holds <b>one rank of each of the five classes</b>, that row is "
            "a <b>complete line</b>, and you must at once <b>recruit a hero</b>. A second "
            "line needs a second rank in every class, and so on.</p>"),
        "actions": ["take W5", "take M2", "take E5"],
        "move": "take B",
        "ask": "Take the blacksmith (<code>take B</code>): it completes your first line.",
        "why": "the blacksmith is the fifth class you are missing: it completes a line",
        "wrong": {"take W4": "The warrior 4 is legal, but it does not complete a line: you "
                             "are missing a blacksmith."},
        "after": "Five classes, one rank each: a complete line. Now choose a hero.",
    },
    {
        "key": "hero",
        "title": "Recruiting a hero",
        "rule": "« Recruter un·e Héros·ïne » and « Capacités des cartes Héros·ïne » (p. 14)",
        "text": (
            "<p>You choose any hero of the hall whose condition you meet. A <b>class hero</b> "
            "goes into the column of its class (and counts its ranks there); a <b>neutral "
            "hero</b> goes to your command zone.</p>"
            "<p><b>Kraal</b> is a warrior hero with <b>two ranks</b> (7 + 0 bravery points): "
            "it makes your warrior column the longest at the table, which wins a "
            "distinction at the end of age 1.</p>"),
        "actions": [],
        "move": "hero Kraal",
        "ask": "Recruit Kraal (<code>hero Kraal</code>).",
        "why": "Kraal's two warrior ranks win the warrior majority this lesson aims at",
        "wrong": {},
        "after": "Kraal stands in your warrior column: 3 warrior ranks.",
    },
    {
        "key": "offering",
        "title": "A Royal Offering",
        "rule": "« Carte Offrande Royale » and « Transformer une pièce » (p. 11)",
        "text": (
            "<p>Cy took the warrior 4. At the Shining Horse Cy (4) chose first and took a "
            "miner 2; you come next. The <b>+3</b> card is a <b>Royal Offering</b>: it does "
            "not join your army. You use it at once to <b>transform</b> one of your coins, "
            "then discard it.</p>"),
        "actions": ["take W4", "take M2"],
        "move": "take +3",
        "ask": "Take the Royal Offering +3 (<code>take +3</code>).",
        "why": "this step teaches the Royal Offering",
        "wrong": {"take H": "The hunter is legal, but this step teaches the Royal Offering: "
                            "take +3."},
        "after": "Now choose which coin to transform.",
    },
    {
        "key": "transform",
        "title": "Transforming a coin",
        "rule": "« Transformer une pièce » (p. 11)",
        "text": (
            "<p>Add +3 to <b>one</b> of your coins on your board, wherever it lies: on a "
            "tavern already resolved, being resolved or not yet resolved, or in your purse. "
            "That coin goes back (to the treasury if gold) and you take the coin of the new "
            "value from the Royal Treasury. If that value is gone, you take the next higher "
            "one available. The <b>0 can never be transformed</b>.</p>"
            "<p>Coins count in your final score, and the highest coin is the warrior "
            "majority's bonus: grow the biggest one.</p>"),
        "actions": [],
        "move": "transform 7@T1",
        "ask": "Transform your 7 (on the Laughing Goblin) into a 10 "
               "(<code>transform 7@T1</code>).",
        "why": "7 + 3 = 10 makes your highest coin higher; your warrior bonus adds it",
        "wrong": {"transform 2@purse": "Legal, but 2 + 3 = 5 leaves your highest coin at 7: "
                                       "the step transforms the 7.",
                  "transform 3@T3": "Legal, but 3 + 3 = 6 leaves your highest coin at 7: the "
                                    "step transforms the 7.",
                  "transform 4@T2": "Legal, but 4 + 3 = 7 only doubles your 7: the step "
                                    "transforms the 7."},
        "after": "Your 7 went back to the treasury and a 10 took its place.",
    },
    {
        "key": "age1",
        "title": "Rounds 3 and 4, and the end of age 1",
        "rule": "« Fin de l'Age 1: l'Évaluation des troupes » → « La Main du Roi »",
        "text": (
            "<p>Rounds 3 and 4 were played the same way (see what changed below): you added "
            "warriors 8, 9, 6, 6 and blacksmiths; Cy completed a line and recruited "
            "Skaa; Bo collected hunters and explorers.</p>"
            "<p>When the age-1 deck is empty the King <b>evaluates the troops</b>: in each "
            "class the player with the <b>strict majority of ranks</b> (not of points or "
            "cards) wins that class's distinction. Gems do not break these ties: a tie "
            "means nobody wins it.</p>"
            "<p>You have the most warrior ranks: you win <b>the King's Hand</b>, which "
            "transforms one of your coins by <b>+5</b> at once.</p>"),
        "actions": [
            "take H",
            "bid 10 2 4", "bid 5 4 2", "bid 2 5 3",
            "take W8", "take H", "take B", "take E7", "hero Skaa", "take B", "take B",
            "take W6", "take M0", "take H",
            "bid 10 3 4", "bid 5 5 4", "bid 3 4 5",
            "take W9", "take E10", "take B", "take E11", "take M1", "take W6",
            "take E8", "take B", "take B",
        ],
        "move": "transform 10@hand",
        "ask": "Transform your 10 by +5 (<code>transform 10@hand</code>).",
        "why": "10 + 5 = 15 gives you the highest coin, which your warriors' majority bonus "
               "adds again",
        "wrong": {},
        "after": "Your 10 became a 15.",
    },
    {
        "key": "distinctions",
        "title": "The other distinctions",
        "rule": "« Maître·esse de Chasse », « Joaillier·ère de la Couronne », « Grand·e "
                "Armurier·ère du Roi », « Pionnier·ère du Royaume »",
        "text": (
            "<p>The distinctions are awarded in order:</p><ul>"
            "<li><b>Hunting Master</b> (hunters): Bo swaps his 0 for the special "
            "<b>3*</b>, which keeps the exchange power.</li>"
            "<li><b>Crown Jeweler</b> (miners): Cy puts the special <b>gem 6</b> on his gem: "
            "it wins every tie, is never exchanged and is worth 3 points.</li>"
            "<li><b>King's Great Armorer</b> (blacksmiths): you and Cy tie with 3 ranks: "
            "nobody wins it.</li>"
            "<li><b>Pioneer of the Kingdom</b> (explorers): Bo draws three age-2 cards and "
            "keeps one (the warrior 3).</li></ul>"
            "<p>The age-2 deck is shuffled and age 2 begins, with the same rules.</p>"),
        "actions": ["keep W3"],
    },
    {
        "key": "age2",
        "title": "Age 2",
        "rule": "« Fin de l'Age 2 et fin de la partie »",
        "text": (
            "<p>Age 2 is played exactly like age 1, with the age-2 deck (its Royal "
            "Offerings are +5). To keep this lesson short, the computer played all three "
            "seats for you, greedily. At the end of the round in which the age-2 deck runs "
            "out, the game ends and the final bravery values are counted.</p>"),
        "actions": AGE2_ACTIONS,
    },
    {
        "key": "score",
        "title": "The final score sheet",
        "rule": "« Déterminer la Valeur de Bravoure de chaque classe » (p. 7) and « Fin de "
                "l'Age 2 et fin de la partie »",
        "text": (
            "<p>Your <b>final bravery value</b> is the sum of:</p><ul>"
            "<li><b>warriors</b>: their bravery points, plus your highest coin for the "
            "player(s) with the most warrior ranks;</li>"
            "<li><b>hunters</b>: ranks squared;</li>"
            "<li><b>miners</b>: bravery points × ranks;</li>"
            "<li><b>blacksmiths</b>: 3, 7, 12, 18, … (+3, +4, +5, … per rank);</li>"
            "<li><b>explorers</b>: their bravery points;</li>"
            "<li>the points of the <b>neutral heroes</b> in your command zone;</li>"
            "<li>the value of your <b>coins</b>, and 3 for the gem 6.</li></ul>"
            "<p>Cy wins with his huge miner column. Try the Play tab to beat him!</p>"),
        "actions": [],
    },
]


KEY = "base"
TITLE = "The base game"
SUMMARY = ("Your first game, step by step: bids, ties and gems, the exchange coin, lines and "
           "heroes, Royal Offerings, the distinctions and the final score (3 players, "
           "first-game variant).")


def build_record(base: dict[str, Any], steps: list[dict[str, Any]]) -> dict[str, Any]:
    """A walkthrough's game as a record: ``base`` (config, seed, deal) with every step's
    actions and taught moves, in order."""
    rec = copy.deepcopy(base)
    actions: list[str] = []
    for step in steps:
        actions += step["actions"]
        if step.get("move"):
            actions.append(step["move"])
    rec["actions"] = actions
    return rec


def deck(*rounds: list[list[str]], first: tuple[str, ...] = ()) -> list[str]:
    """An age deck in draw order from the taverns of each round (tavern 1's cards, then
    tavern 2's, then tavern 3's). ``first``: cards drawn before round 1 (e.g. the top
    card of the age-2 deck that goes to the discard when nobody wins the Pioneer, R3)."""
    return [*first, *(token for taverns in rounds for tavern in taverns for token in tavern)]


def record() -> dict[str, Any]:
    """The walkthrough's game as a record (every step's actions and taught moves)."""
    return build_record(_BASE_RECORD, STEPS)


__all__ = ["AGE1", "AGE2", "AGE2_ACTIONS", "KEY", "LEARNER", "NAMES", "STEPS", "SUMMARY",
           "TITLE", "build_record", "deck", "record"]
