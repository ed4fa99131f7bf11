"""The heroes walkthrough as data: a scripted 2-player game with the full hero hall.

You play against Bo with every base hero, Thrud, Ylud and Uline included (no first-game
variant). The deal (``AGE1``, ``AGE2``: the taverns of each round, in draw order) is
built so that the game shows, in this order: Dagda's discards (Bo), Thrud placed and
lifted (you), Hourya's requirement, Uline bidding after the reveal and trading from her
hand (you), Ylud placed at the end of age 1 (Bo), Grid's +7 and Bonfur's discard (Bo), a
Dwerg brother (Bo), Aëgur completing two lines at once and the chain of recruits it
starts (you: Aëgur, Hourya, Astrid), the end of age 2 (Ylud moves, Thrud goes to the
command zone) and the complete score pad.

The steps have the same shape as :mod:`widgets.walkthrough_data` (see there). Rule
citations name the French rulebook's sections (shared seed ``003_…``) and the project's
rulings (R-numbers, docs in the README).
"""

from __future__ import annotations

from typing import Any

from .walkthrough_data import build_record, deck

KEY = "heroes"
TITLE = "Heroes and the end of the game"
SUMMARY = ("Every hero power you will meet: Thrud, Ylud, Uline, Grid, Dagda, Bonfur, Hourya, "
           "Aëgur's chain of recruits, the Dwerg brothers and Astrid; the end of age 2 and "
           "the score pad line by line (2 players, full rules).")

NAMES = ["You", "Bo"]
LEARNER = 0

#: Age 1, round by round: (Laughing Goblin, Dancing Dragon, Shining Horse). With 2 players
#: each tavern gets 3 cards and the one nobody takes is discarded.
AGE1 = deck(
    [["W7", "E10", "W3"], ["H", "B", "W4"], ["M1", "M0", "H"]],
    [["B", "W8", "H"], ["E8", "H", "B"], ["+3", "M1", "E6"]],
    [["W9", "B", "B"], ["M2", "W5", "H"], ["B", "M0", "W6"]],
    [["E9", "B", "M2"], ["W6", "E7", "B"], ["E11", "H", "E5"]],
)
#: Age 2: the first card (a hunter) is discarded because nobody wins the Pioneer (R3).
AGE2 = deck(
    [["H", "W7", "B"], ["M0", "M1", "B"], ["W9", "B", "W3"]],
    [["E10", "W6", "H"], ["H", "M0", "E5"], ["M1", "E8", "B"]],
    [["W8", "B", "W4"], ["H", "W6", "E6"], ["M2", "M2", "B"]],
    [["E9", "H", "W5"], ["+5", "E11", "B"], ["B", "+5", "E7"]],
    first=("H",),
)

_BASE_RECORD: dict[str, Any] = {
    "format": "nidavellir-record",
    "version": 1,
    "config": {"players": 2, "names": NAMES, "expansions": [], "options": {}},
    "seed": 2025,
    "deal": {"ages": {"1": AGE1, "2": AGE2}, "gems": [4, 5]},
}

_HEROES = "« Capacités des cartes Héros·ïne » (p. 14)"

STEPS: list[dict[str, Any]] = [
    {
        "key": "setup",
        "title": "Two players, every hero",
        "rule": "« Partie à 2 Elvalands » (p. 4), « Recruter un·e Héros·ïne » (p. 9) and "
                + _HEROES,
        "text": (
            "<p>This lesson is about the <b>heroes</b>. You play Bo with the full rules: the "
            "hall holds all 21 base heroes, <b>Thrud</b>, <b>Ylud</b> and <b>Uline</b> "
            "included (the first-game variant left them out, R25).</p>"
            "<p>With <b>2 players</b> each tavern gets <b>3 cards</b>: you each take one in bid "
            "order and the last one is discarded. You hold gem 4, Bo gem 5 (R1).</p>"
            "<p>Remember: a <b>line</b> is one rank of each of the five classes. Each time "
            "you complete a line you recruit a hero at once, any hero of the hall whose "
            "condition you meet.</p>"),
        "actions": [],
    },
    {
        "key": "round1",
        "title": "Round 1",
        "rule": "« Tour de jeu » (p. 8)",
        "text": (
            "<p>We played round 1 for both of you: you took the warrior 7, a hunter and the "
            "miner 1; Bo the explorer 10, a blacksmith and the miner 0. Each of you has four "
            "classes: the race for the first line is on.</p>"),
        "actions": ["bid 4 3 2", "bid 5 2 3",
                    "take E10", "take W7", "take H", "take B", "take M0", "take M1"],
    },
    {
        "key": "dagda",
        "title": "Bo recruits Dagda",
        "rule": _HEROES + " → « DAGDA L'EXPLOSIVE », « Bonfur et Dagda »; R10",
        "text": (
            "<p>Round 2. Bo bid 4 on the Dancing Dragon, you bid 0: Bo chose first, took the "
            "hunter and completed his first line. He recruited <b>Dagda</b>: she goes into "
            "his hunter column with <b>3 hunter ranks</b>, and he must at once discard the "
            "<b>top card of two other columns</b> (two different ones). He gave up the miner "
            "0 and the blacksmith.</p>"
            "<p>A hero is never discarded this way, and if you cannot discard two non-hero "
            "cards, you cannot recruit Dagda (R10). Bo lost his line, but never his hero: "
            "lines lost never cost heroes.</p>"),
        "actions": ["bid 4 0 3", "bid 2 4 0", "take B", "take W8", "take H",
                    "hero Dagda", "discard M", "discard B"],
        "move": "take E8",
        "ask": "Take the explorer 8 (<code>take E8</code>): it completes your first line.",
        "why": "the explorer 8 is the class you are missing: it completes your first line",
        "wrong": {"take B": "The blacksmith is legal, but you have one already: the explorer "
                            "completes your line."},
        "after": "Warrior, hunter, miner, blacksmith, explorer: a line. Choose a hero.",
    },
    {
        "key": "thrud",
        "title": "Recruiting Thrud",
        "rule": _HEROES + " → « THRUD LA CHASSEUSE DE TÊTES », « HOURYA L'INSAISSABLE »",
        "text": (
            "<p><b>Thrud</b> is a neutral hero worth 13 points, but she does not wait in "
            "your command zone: you put her in <b>any column</b> of your army, where she "
            "counts as <b>one rank</b> of that class (for lines and distinctions).</p>"
            "<p>Some heroes have a condition. <b>Hourya</b> (20 points) needs <b>5 explorer "
            "ranks</b> in your army: you have 1, so she is not offered yet.</p>"),
        "actions": [],
        "move": "hero Thrud",
        "ask": "Recruit Thrud (<code>hero Thrud</code>).",
        "why": "Thrud's rank goes wherever you need it, which helps the next lines",
        "wrong": {"hero Hourya": "Hourya needs 5 explorer ranks in your army and you have 1: "
                                 "the rules do not offer her yet. Recruit Thrud."},
        "after": "Now place her.",
    },
    {
        "key": "thrud-place",
        "title": "Placing Thrud",
        "rule": _HEROES + " → « THRUD »",
        "text": (
            "<p>Put Thrud in any column. Thrud is <b>never covered</b>: when a card should go "
            "on top of her, she is lifted, the card goes in, and you place her again.</p>"),
        "actions": [],
        "move": "thrud W",
        "ask": "Put Thrud in your warrior column (<code>thrud W</code>).",
        "why": "your warrior column will grow soon: this lesson shows Thrud being lifted",
        "wrong": {},
        "after": "Thrud stands on your warrior 7: 2 warrior ranks.",
    },
    {
        "key": "thrud-lift",
        "title": "A card lands on Thrud",
        "rule": _HEROES + " → « THRUD »; R13",
        "text": (
            "<p>We played on for you: you took the Royal Offering +3 (your 7 became a 10). In "
            "round 3 the warrior 9 is yours at the "
            "Laughing Goblin. It goes into your warrior column, where Thrud stands.</p>"),
        "actions": ["take +3", "transform 7@purse", "take M1", "bid 3 4 0", "bid 4 2 3",
                    "take B"],
        "move": "take W9",
        "ask": "Take the warrior 9 (<code>take W9</code>).",
        "why": "the warrior 9 goes into Thrud's column: she is lifted",
        "wrong": {},
        "after": "Thrud is lifted and the warrior 9 goes in. Where does she go now?",
    },
    {
        "key": "thrud-again",
        "title": "Placing Thrud again",
        "rule": _HEROES + " → « THRUD »; R13",
        "text": (
            "<p>Thrud goes back into <b>any column</b>: the same one or another (R13). Then "
            "lines are counted again, so moving her can complete a line and recruit a "
            "hero.</p>"),
        "actions": [],
        "move": "thrud H",
        "ask": "Put Thrud in your hunter column (<code>thrud H</code>).",
        "why": "you have one hunter: Thrud makes it two ranks, towards your second line",
        "wrong": {"thrud W": "Legal (she may go back where she was), but you already have two "
                             "warriors: the step puts her with your hunter."},
        "after": "Thrud is a hunter rank now.",
    },
    {
        "key": "line2",
        "title": "The second line",
        "rule": "« Recruter un·e Héros·ïne » (p. 9)",
        "text": (
            "<p>You took the miner 2 and a blacksmith; Bo rebuilt with a warrior, a miner and "
            "a blacksmith. In round 4 you have two of every class but explorers. The "
            "explorer 9 waits at the Laughing Goblin, where your 12 chooses first.</p>"
            "<p>A second line needs a <b>second rank of every class</b>.</p>"),
        "actions": ["take M2", "take W5", "take M0", "take B", "bid 12 2 3", "bid 3 4 0"],
        "move": "take E9",
        "ask": "Take the explorer 9 (<code>take E9</code>).",
        "why": "the explorer 9 is your second explorer: it completes your second line",
        "wrong": {},
        "after": "Second line: recruit a second hero.",
    },
    {
        "key": "uline",
        "title": "Recruiting Uline",
        "rule": _HEROES + " → « ULINE LA VOYANTE »",
        "text": (
            "<p><b>Uline</b> (9 points) changes how you bid. From now on you keep your coins "
            "<b>in your hand</b>: when a tavern is revealed, you see the others' coins first "
            "and then put one of yours on it, face up.</p>"
            "<p>Her power starts at once: the coins you bid on the taverns not yet resolved "
            "this round, and your purse, come back to your hand.</p>"),
        "actions": [],
        "move": "hero Uline",
        "ask": "Recruit Uline (<code>hero Uline</code>).",
        "why": "Uline lets you bid after seeing Bo's coins, for the rest of the game",
        "wrong": {"hero Hourya": "Hourya needs 5 explorer ranks and you have 2: not yet. "
                                 "Recruit Uline."},
        "after": "Your bids on the Dancing Dragon and the Shining Horse are back in your hand.",
    },
    {
        "key": "uline-bid",
        "title": "Bidding with Uline",
        "rule": _HEROES + " → « ULINE »",
        "text": (
            "<p>Bo took the blacksmith at the Laughing Goblin. The Dancing Dragon is revealed: "
            "Bo has <b>4</b> on it. You choose your coin now, knowing his.</p>"
            "<p>Bo wants the explorer 7 for his second line; you want the warrior 6. Going "
            "second costs you nothing here, so play your <b>0</b>: the exchange coin.</p>"),
        "actions": ["take B"],
        "move": "place 0",
        "ask": "Put your 0 on the Dancing Dragon (<code>place 0</code>).",
        "why": "the 0 loses nothing here and its exchange makes a coin grow",
        "wrong": {},
        "after": "Bo's 4 beats your 0: Bo chooses first.",
    },
    {
        "key": "uline-trade",
        "title": "Ylud, and Uline's exchange",
        "rule": _HEROES + " → « YLUD L'IMPRÉVISIBLE », « ULINE »",
        "text": (
            "<p>Bo took the explorer 7, completed his second line and recruited <b>Ylud</b>. "
            "Ylud waits in his command zone; right after the last tavern of the age, before "
            "the distinctions, he puts her in a column of his army (R14). You took the "
            "warrior 6.</p>"
            "<p>You played the 0, so you exchange. With Uline there is no purse: you choose "
            "<b>any two coins of your hand</b>, add them, give up the higher one and take "
            "the new coin into your hand.</p>"),
        "actions": ["take E7", "hero Ylud", "take W6"],
        "move": "trade 3 4",
        "ask": "Trade your 3 and 4 (<code>trade 3 4</code>): you give up the 4 and take a 7.",
        "why": "3 + 4 = 7 keeps your 2 for a tavern where you want to go last",
        "wrong": {"trade 2 4": "Legal (2 + 4 = 6), but the step trades 3 and 4 for a 7."},
        "after": "Your hand: 2, 3 and 7.",
    },
    {
        "key": "age1-end",
        "title": "The end of age 1: Ylud, then the distinctions",
        "rule": "« Fin de l'Age 1: l'Évaluation des troupes » (p. 12), « YLUD »; R14, R23",
        "text": (
            "<p>At the Shining Horse Bo had bid 0: your 2 chose first and took the explorer "
            "11. The age is over.</p>"
            "<p>First Bo <b>places Ylud</b>: he puts her among his explorers. Her rank counts "
            "for the distinctions: 3 explorer ranks, like you, so <b>nobody</b> wins the "
            "Pioneer of the Kingdom (a tie gives nobody the card, R23).</p>"
            "<p>With 3 warrior ranks against 2 you win the <b>King's Hand</b>: transform a "
            "coin by +5.</p>"),
        "actions": ["place 2", "take E11", "take H", "ylud E"],
        "move": "transform 12@hand",
        "ask": "Transform your 12 into a 17 (<code>transform 12@hand</code>).",
        "why": "your highest coin grows: it counts for Astrid and the warrior bonus",
        "wrong": {},
        "after": "Your 12 became a 17.",
    },
    {
        "key": "distinctions",
        "title": "The other distinctions, and age 2",
        "rule": "« Fin de l'Age 1 » (p. 12), « Pionnier·ère du Royaume »; R3, R23",
        "text": (
            "<p>Bo's Dagda gives him 5 hunter ranks: he wins the <b>Hunting Master</b> (his "
            "0 becomes the 3*). Miners and blacksmiths are tied 2–2: nobody wins them. "
            "Nobody wins the Pioneer either, so the top card of the age-2 deck is "
            "discarded (R3).</p>"
            "<p>Age 2 begins. Bo bids face down as usual; you, with Uline, bid nothing "
            "yet. At the Laughing Goblin Bo's coin is a 4.</p>"),
        "actions": ["bid 4 10 3*"],
        "move": "place 7",
        "ask": "Put your 7 on the Laughing Goblin (<code>place 7</code>): you choose first.",
        "why": "you see Bo's 4, so a 7 is enough to choose first",
        "wrong": {"place 17": "Legal, but a 7 already beats Bo's 4: keep the 17 for later.",
                  "place 0": "Legal, but then Bo chooses first: this step wants you first."},
        "after": "You choose first.",
    },
    {
        "key": "grid",
        "title": "Bo recruits Grid",
        "rule": _HEROES + " → « GRID LA MERCANTILE », « Transformer une pièce » (p. 11); R6",
        "text": (
            "<p>We played the round for you: your hunter went on Thrud (she was lifted and "
            "put back among your hunters), you took the miner 0 and the warrior 9, and "
            "traded 2 + 3 for a 5.</p>"
            "<p>Bo's blacksmith at the Shining Horse completed his third line: he recruited "
            "<b>Grid</b> (7 points), who transforms one of his coins by <b>+7</b> at once. "
            "10 + 7 = 17, but you hold the only 17: he took the next higher coin, an 18 "
            "(R6).</p>"),
        "actions": ["take H", "thrud H", "take W7", "place 0", "take M1", "take M0",
                    "trade 2 3", "place 2", "take B", "hero Grid", "transform 10@T2",
                    "take W9"],
    },
    {
        "key": "bonfur",
        "title": "Bo recruits Bonfur",
        "rule": _HEROES + " → « BONFUR LE TYRANNIQUE », « Bonfur et Dagda »; R10",
        "text": (
            "<p>Round 2 went quietly (you took the explorer 10, a hunter and the miner 1). "
            "In round 3 Bo's blacksmith completed his fourth line and he recruited "
            "<b>Bonfur</b>: 3 blacksmith ranks, and the <b>top card of one other column</b> "
            "discarded. He gave up a hunter: Dagda, a hero, stays (R10).</p>"),
        "actions": ["bid 4 18 3*", "place 5", "take E10", "take W6", "place 0", "take M0",
                    "take H", "thrud H", "trade 2 7", "place 2", "take E8", "take M1",
                    "bid 18 3* 4", "place 2", "take B", "hero Bonfur", "discard H",
                    "take W8"],
    },
    {
        "key": "dwerg",
        "title": "A Dwerg brother, and your last blacksmith",
        "rule": _HEROES + " → « DWERG LES 5 FRÈRES », « Recruter un·e Héros·ïne » (p. 9)",
        "text": (
            "<p>Bo's explorer 11 completed his fifth line: he recruited <b>Dwerg Ymir</b>, one "
            "of the five Dwerg brothers. The brothers are worth more together: 13 points "
            "for one, 40 for two, 81, 108, and 135 for all five.</p>"
            "<p>Your army: 5 warriors, 5 hunters (Thrud among them), 5 miners, 5 explorers, "
            "but only <b>2 blacksmiths</b>. The last tavern of the game holds a "
            "blacksmith.</p>"),
        "actions": ["place 5", "take H", "thrud H", "take W6", "place 0", "take M2",
                    "take M2", "bid 4 18 10", "place 5", "take E9", "take H", "place 0",
                    "take E11", "hero Dwerg Ymir", "take +5", "transform 9@hand",
                    "trade 2 14", "place 2", "take +5", "transform 18@T2"],
        "move": "take B",
        "ask": "Take the blacksmith (<code>take B</code>): your third line.",
        "why": "the blacksmith completes your third line",
        "wrong": {"take E7": "Legal, but you have 5 explorers already: the blacksmith "
                             "completes a line."},
        "after": "Third line: recruit a hero.",
    },
    {
        "key": "aegur",
        "title": "Aëgur completes two lines at once",
        "rule": "« Plusieurs lignes complétées par la pose d'une carte Héro·ïne ou de la "
                "carte Distinction Forgeronne » (p. 9), « AËGUR POING D'ACIER »; R12",
        "text": (
            "<p><b>Aëgur</b> is a blacksmith hero with <b>2 blacksmith ranks</b>. With him "
            "your blacksmiths go from 3 to 5, and every other class already has 5: lines 4 "
            "and 5 are complete at once. You recruit a hero for each, one after the other "
            "(R12): a chain.</p>"),
        "actions": [],
        "move": "hero Aegur",
        "ask": "Recruit Aëgur (<code>hero Aegur</code>).",
        "why": "Aëgur's two ranks complete two more lines: two more heroes",
        "wrong": {"hero Hourya": "Legal now (you have 5 explorer ranks), but Aëgur first: his "
                                 "two ranks bring two more heroes, and Hourya is one of them."},
        "after": "Lines 4 and 5 are complete: recruit again.",
    },
    {
        "key": "hourya",
        "title": "Hourya's condition is met",
        "rule": _HEROES + " → « HOURYA L'INSAISSABLE »",
        "text": (
            "<p>You have <b>5 explorer ranks</b> now, so <b>Hourya</b> is offered. She goes "
            "into your explorer column: one more rank and <b>20</b> points.</p>"),
        "actions": [],
        "move": "hero Hourya",
        "ask": "Recruit Hourya (<code>hero Hourya</code>).",
        "why": "Hourya is 20 points, and only a player with 5 explorer ranks can have her",
        "wrong": {},
        "after": "One more recruit.",
    },
    {
        "key": "astrid",
        "title": "Astrid",
        "rule": _HEROES + " → « ASTRID LA FORTUNÉE »",
        "text": (
            "<p><b>Astrid</b> is worth the value of your <b>highest coin</b>. Your 9 + 17 "
            "exchange took the 25, the highest coin in the game: Astrid is worth 25.</p>"
            "<p>The same highest coin is the <b>warrior bonus</b>: the player(s) with the "
            "most warrior ranks add it to their warriors at the end.</p>"),
        "actions": [],
        "move": "hero Astrid",
        "ask": "Recruit Astrid (<code>hero Astrid</code>).",
        "why": "Astrid is worth 25 with your 25 coin",
        "wrong": {"hero Dwerg Aesir": "Legal: a first brother is 13 points. Astrid gives you "
                                      "25: recruit Astrid."},
        "after": "That was the last card of the game.",
    },
    {
        "key": "age2-end",
        "title": "The end of age 2",
        "rule": "Thingvellir « Déroulement de la fin de chaque Age » → « Fin de l'Age 2 », "
                "« Timing Ylud et Thrud »; R8, R14",
        "text": (
            "<p>The end of age 2 goes in a fixed order (R14):</p><ol>"
            "<li><b>Ylud</b> may move to another column (R8). Bo moves her to his warriors: "
            "6 warrior ranks against your 5, so <b>he alone</b> gets the warrior bonus. In "
            "the warrior column Ylud is worth 7.</li>"
            "<li><b>Thrud</b> leaves your army for your <b>command zone</b>, where she is "
            "worth 13: your hunter column drops to 4 ranks.</li>"
            "<li>Then the final count.</li></ol>"),
        "actions": ["ylud W"],
    },
    {
        "key": "score",
        "title": "The score pad, line by line",
        "rule": "« Fin de l'Age 2 et fin de la partie » (p. 12) and « Déterminer la Valeur "
                "de Bravoure de chaque classe » (p. 7)",
        "text": (
            "<p>Your <b>272</b> points, line by line (Bo: <b>247</b>):</p><ul>"
            "<li><b>Warriors 39</b>: 7 + 9 + 6 + 9 + 8. No bonus: Bo has more ranks.</li>"
            "<li><b>Hunters 16</b>: 4 ranks squared (Thrud left).</li>"
            "<li><b>Miners 30</b>: 5 ranks × 6 points (1 + 2 + 0 + 1 + 2).</li>"
            "<li><b>Blacksmiths 25</b>: 5 ranks (3, 7, 12, 18, 25), Aëgur's two included.</li>"
            "<li><b>Explorers 67</b>: 8 + 9 + 11 + 10 + 9 + Hourya's 20.</li>"
            "<li><b>Neutral heroes 47</b>: Uline 9, Astrid 25, Thrud 13.</li>"
            "<li><b>Coins 48</b>: 0 + 2 + 5 + 16 + 25.</li></ul>"
            "<p>Bo's heroes scored too: Dagda's 3 ranks in his 25 hunter points, Bonfur's "
            "in his 42 blacksmith points, Ylud's 7 and his 23 bonus among his warriors, "
            "Dwerg Ymir 13 and Grid 7.</p>"),
        "actions": [],
    },
]


def record() -> dict[str, Any]:
    """The walkthrough's game as a record (every step's actions and taught moves)."""
    return build_record(_BASE_RECORD, STEPS)


__all__ = ["AGE1", "AGE2", "KEY", "LEARNER", "NAMES", "STEPS", "SUMMARY", "TITLE", "record"]
