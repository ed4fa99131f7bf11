"""Scripted rule scenarios for the six Thingvellir heroes and Olwyn's doubles (issue 4).

Each test cites the FR rulebook's Thingvellir part, "Capacités des cartes Héros-ïne"
(the hero's heading), or a ruling (docs/rulings.md). Helpers: test_rules_thingvellir.py.
"""

from __future__ import annotations

from scripted import army, coin_labels, legal, play, set_army, set_coins
from test_rules_thingvellir import (
    MERCS1,
    age2_game,
    camp_moves,
    cz,
    end_age_now,
    kind,
    tokens,
    tv_game,
    who,
)

from nidavellir import cards as C
from nidavellir import coins as K
from nidavellir.game import Game
from nidavellir.rules.decisions import Bid

BIDS = ("bid 5 4 3", "bid 4 5 2", "bid 3 2 5")
LINE_BUT_E = {"W": ["W3"], "H": ["H"], "M": ["M0"], "B": ["B"]}


def line_game() -> Game:
    """Seat 0 completes a line by taking E5 from the Laughing Goblin (she wins it)."""
    game = tv_game(age1=["E5", "W4", "W5"], camp1=MERCS1 + ["Vegvisir", "Draupnir"])
    set_army(game, 0, LINE_BUT_E)
    return game


# ---------------------------------------------------------------------- Andumia

def test_andumia_keeps_a_dwarf_of_the_discard_into_the_army() -> None:
    """FR "ANDUMIA LA NÉCROMANCIENNE": look through the discard, keep one card; a dwarf
    goes into the army (and may recruit)."""
    game = line_game()
    game.state.discard.extend([C.card("E11"), C.card("+3")])
    play(game, *BIDS, "take E5", "hero Andumia")
    assert kind(game) == "andumia" and sorted(legal(game)) == ["choose +3", "choose E11"]
    play(game, "choose E11")
    assert army(game, 0)["E"] == ["E5", "E11"]
    assert tokens(game.state.discard) == ["+3"]
    assert cz(game, 0) == ["Andumia"]


def test_andumia_royal_offering_is_applied_then_goes_back_to_the_discard() -> None:
    """FR "ANDUMIA": a Royal Offering's effect is applied at once, then it goes back to the
    discard."""
    game = line_game()
    game.state.discard.append(C.card("+3"))
    play(game, *BIDS, "take E5", "hero Andumia", "choose +3")
    assert kind(game) == "transform" and "+3" in game.decision.prompt
    play(game, "transform 2@purse")
    assert coin_labels(game, 0) == ["0", "3", "4", "5", "5"]
    assert tokens(game.state.discard) == ["+3"]


def test_andumia_never_searches_the_camp_discard() -> None:
    """R15: camp cards that never left the camp go to a camp discard nobody searches."""
    game = age2_game(age2=["W3", "E5", "W4", "W5"])
    set_army(game, 0, LINE_BUT_E)
    assert len(game.state.camp_discard) == 12
    play(game, *BIDS, "take E5", "hero Andumia")
    assert legal(game) == ["choose W3"]


def test_r17_andumia_with_an_empty_discard_is_recruitable_and_her_pick_skipped() -> None:
    """R17: Andumia can be recruited with nothing to take; her pick is skipped."""
    game = line_game()
    assert game.state.discard == []
    play(game, *BIDS, "take E5")
    assert "hero Andumia" in legal(game)
    play(game, "hero Andumia")
    assert kind(game) == "pick" and who(game) == 1
    assert cz(game, 0) == ["Andumia"]


def test_andumias_dwarf_can_complete_another_line() -> None:
    game = line_game()
    set_army(game, 0, {"W": ["W3", "W4"], "H": ["H", "H"], "M": ["M0", "M1"], "B": ["B", "B"]})
    game.state.discard.append(C.card("E11"))
    play(game, *BIDS, "take E5", "hero Andumia", "choose E11")
    assert kind(game) == "hero" and who(game) == 0


# ---------------------------------------------------------------------- Holda

def test_holda_takes_a_camp_card_with_its_effects() -> None:
    """FR "HOLDA LA MÉNESTRELLE": choose a mercenary or an artifact of the camp; its
    effects apply (Vegvisir goes to the explorer column)."""
    game = tv_game(age1=["E5", "W4", "W5"], camp1=["Vegvisir"] + MERCS1)
    set_army(game, 0, LINE_BUT_E)
    play(game, *BIDS, "take E5")
    assert kind(game) == "hero"
    play(game, "hero Holda")
    assert kind(game) == "holda" and len(legal(game)) == 5
    play(game, "choose Vegvisir")
    assert army(game, 0)["E"] == ["E5", "Vegvisir"]
    assert "Vegvisir" not in tokens(game.state.camp)
    # Vegvisir makes a second explorer rank: still one line, no recruit.
    assert kind(game) == "pick" and who(game) == 1


def test_holda_taking_hofud_makes_the_others_discard_a_warrior() -> None:
    game = age2_game(age2=["W3", "E5", "W4", "W5"], camp2=["Höfud"])
    set_army(game, 0, LINE_BUT_E)
    set_army(game, 1, {"W": ["W9"]})
    play(game, *BIDS, "take E5", "hero Holda", "choose Höfud")
    assert kind(game) == "army_discard" and who(game) == 1
    assert legal(game) == ["remove W9@W"]


def test_r17_holda_with_an_empty_camp_is_recruitable_and_her_pick_skipped() -> None:
    """R17: Holda can be recruited when the camp is empty; her pick is skipped."""
    game = line_game()
    play(game, *BIDS)
    game.state.camp.clear()
    play(game, "take E5")
    assert "hero Holda" in legal(game)
    play(game, "hero Holda")
    assert kind(game) == "pick" and who(game) == 1


# ---------------------------------------------------------------------- Khrad

def test_khrad_transforms_the_lowest_non_exchange_coin_by_10() -> None:
    """FR "KHRAD LE MENDIANT" (+10: R4), R4: the lowest coin, never the exchange
    coin."""
    game = line_game()
    play(game, *BIDS, "take E5", "hero Khrad")
    assert kind(game) == "transform"
    assert legal(game) == ["transform 2@purse"]
    play(game, "transform 2@purse")
    assert coin_labels(game, 0) == ["0", "3", "4", "5", "12"]


def test_khrad_lets_the_player_choose_among_tied_lowest_coins() -> None:
    """R4: if several coins tie for lowest, the player chooses."""
    game = line_game()
    set_coins(game, 0, [0, 6, 6, 9, 10])
    play(game, "bid 10 9 6", "bid 4 5 2", "bid 3 2 5", "take E5", "hero Khrad")
    assert sorted(legal(game)) == ["transform 6@T3", "transform 6@purse"]
    play(game, "transform 6@T3")
    p = game.state.players[0]
    assert K.label(p.bids[2]) == "16" and sorted(K.label(c) for c in p.purse) == ["0", "6"]


def test_khrad_with_jarika_adds_12() -> None:
    game = line_game()
    set_army(game, 0, {"W": ["W3", "W4"], "H": ["H", "H"], "M": ["M0", "M1"], "B": ["B", "B"],
                       "E": ["E6"]}, command_zone=["Jarika"])
    play(game, *BIDS, "take E5", "hero Khrad", "transform 2@purse")
    assert coin_labels(game, 0) == ["0", "3", "4", "5", "14"]


# ---------------------------------------------------------------------- Jarika

def test_jarika_adds_2_to_a_royal_offering() -> None:
    """FR "JARIKA LA ROUBLARDE" (Cécile: +3 on her 2 gives a 7, not a 5)."""
    game = tv_game(age1=["+3", "W4", "W5"])
    set_army(game, 0, command_zone=["Jarika"])
    play(game, *BIDS, "take +3", "transform 2@purse")
    assert coin_labels(game, 0) == ["0", "3", "4", "5", "7"]


def test_jarika_adds_2_to_a_trade() -> None:
    """FR "JARIKA" (Cécile plays her 0, trades 3 + 4 and takes a 9, not a 7)."""
    game = tv_game()
    set_army(game, 0, command_zone=["Jarika"])
    play(game, "bid 0 5 2", "bid 4 5 2", "bid 3 2 5")
    # Laughing Goblin: seat 1 (4), seat 2 (3), then seat 0 (0) trades after her card.
    play(game, "take W5", "take W4", "take W3")
    p = game.state.players[0]
    assert sorted(K.label(c) for c in p.purse) == ["3", "9"]


def test_jarika_adds_2_to_the_kings_hand() -> None:
    """FR "JARIKA": every transform, the King's Hand included (+5 + 2)."""
    game = tv_game()
    set_army(game, 0, {"W": ["W3"]}, command_zone=["Jarika"])
    end_age_now(game)
    assert kind(game) == "transform" and "+7" in game.decision.prompt


# ---------------------------------------------------------------------- Olwyn

def test_olwyn_places_two_doubles_in_two_different_columns() -> None:
    """FR "OLWYN L'ILLUSIONNISTE": two doubles (0 bravery) in two different columns; they
    count as dwarves of their column and may recruit."""
    game = line_game()
    play(game, *BIDS, "take E5", "hero Olwyn")
    assert kind(game) == "olwyn" and len(legal(game)) == 5
    play(game, "double W")
    assert kind(game) == "olwyn" and "double W" not in legal(game) and len(legal(game)) == 4
    play(game, "double M")
    assert army(game, 0)["W"] == ["W3", "Olwyn Double"]
    assert army(game, 0)["M"] == ["M0", "Olwyn Double"]
    assert game.state.players[0].ranks == [2, 1, 2, 1, 1]
    assert cz(game, 0) == ["Olwyn"] and game.state.players[0].held == []
    sheet = game.scores()
    assert sheet[0].breakdown["warriors"] == 3 + 5  # W3, a double's 0 BP, majority bonus
    assert sheet[0].breakdown["miners"] == 2 * 0


def test_olwyns_doubles_can_complete_a_line() -> None:
    game = line_game()
    set_army(game, 0, {"W": ["W3", "W4"], "H": ["H", "H"], "M": ["M0", "M1"], "B": ["B"]})
    play(game, *BIDS, "take E5", "hero Olwyn", "double B", "double E")
    assert kind(game) == "hero" and who(game) == 0


def test_r16_dagda_can_discard_an_olwyn_double() -> None:
    """R16, FR "OLWYN": Dagda, Bonfur, Brisingamens and Höfud may discard a double."""
    game = line_game()
    set_army(game, 0, {"W": ["W3", "Olwyn Double"], "H": ["H", "H"],
                       "M": ["M0", "Olwyn Double"], "B": ["B", "B"], "E": ["E6"]})
    game.state.hall.remove(C.OLWYN)
    game.state.players[0].command_zone.append(C.OLWYN)
    game.state.players[0].heroes = 1
    play(game, *BIDS, "take E5", "hero Dagda")
    assert "discard W" in legal(game) and "discard M" in legal(game)
    play(game, "discard W", "discard M")
    assert army(game, 0)["W"] == ["W3"] and army(game, 0)["M"] == ["M0"]
    assert tokens(game.state.discard)[-2:] == ["Olwyn Double", "Olwyn Double"]


# ---------------------------------------------------------------------- Zolkur

def test_zolkur_next_trade_gives_up_the_lower_coin_then_he_returns() -> None:
    """FR "ZOLKUR L'AVARE" (Léo trades 10 + 2: gives up the 2, takes a 12)."""
    game = line_game()
    set_coins(game, 0, [0, 2, 5, 10, 9])
    play(game, "bid 5 9 0", "bid 4 5 2", "bid 3 2 5", "take E5", "hero Zolkur")
    p = game.state.players[0]
    assert p.marks == {C.ZOLKUR: True} and cz(game, 0) == ["Zolkur"]
    # Shining Horse: seat 2 (5), then seat 0 with the 0 trades 2 + 10.
    while not (game.state.tavern == 2 and who(game) == 0):
        game.apply(next(a for a in legal(game) if not a.startswith("camp ")))
    game.apply(next(a for a in legal(game) if a.startswith("take ")))
    assert coin_labels(game, 0) == ["0", "5", "9", "10", "12"]
    assert C.ZOLKUR not in p.marks


def test_r7_zolkur_with_two_coins_of_equal_value_gives_up_the_gold_one() -> None:
    """R7: trading two purse coins of equal value, the gold one goes back to the treasury
    and the bronze one stays; with Zolkur the same applies."""
    game = line_game()
    set_coins(game, 0, [0, "b5", 5, 3, 4])
    play(game, "bid 0 3 4", "bid 4 5 2", "bid 3 2 5")
    # Laughing Goblin: seat 1 (4), seat 2 (3), seat 0 (0) completes a line.
    play(game, "take W4", "take W5", "take E5", "hero Zolkur")
    p = game.state.players[0]
    assert sorted((K.value(c), K.kind(c)) for c in p.purse) == sorted(
        [(5, K.BRONZE), (10, K.GOLD)])
    assert C.ZOLKUR not in p.marks


def test_r21_uline_with_zolkur_trades_away_the_lower_of_her_two_coins() -> None:
    """R21: Uline's next trade with Zolkur discards the lower of the two coins she
    chooses."""
    game = line_game()
    # Uline is a hero already: E5 must make a second line.
    set_army(game, 0, {"W": ["W3", "W4"], "H": ["H", "H"], "M": ["M0", "M1"], "B": ["B", "B"],
                       "E": ["E6"]}, command_zone=["Uline"])
    set_coins(game, 0, [0, 2, 10, 4, 5])
    game.state.tasks.remove(Bid(0))
    play(game, "bid 4 5 2", "bid 3 2 5", "place 0", "take W4", "take W5", "take E5",
         "hero Zolkur")
    assert kind(game) == "uline_trade"
    play(game, "trade 2 10")
    p = game.state.players[0]
    assert sorted(K.label(c) for c in p.hand) == ["10", "12", "4", "5"]
    assert C.ZOLKUR not in p.marks


def test_camp_moves_unaffected_by_heroes() -> None:
    """Holda and Andumia aside, the heroes never open the camp to a non-winner."""
    game = line_game()
    play(game, *BIDS, "take E5", "hero Zolkur")
    assert who(game) == 1 and camp_moves(game) == []
