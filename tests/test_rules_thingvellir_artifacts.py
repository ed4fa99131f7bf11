"""Scripted rule scenarios for the 12 Thingvellir artifacts (issue 4).

Each test cites the FR rulebook's Thingvellir part, "Les cartes Artefact" (the
artifact's heading), or a ruling (docs/rulings.md). Helpers: test_rules_thingvellir.py.
"""

from __future__ import annotations

import pytest
from scripted import army, coin_labels, decision, legal, play, set_army, set_coins
from test_rules_thingvellir import (
    ARTIFACTS1,
    ARTIFACTS2,
    MERCS1,
    MERCS2,
    age2_game,
    auto,
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
from nidavellir.errors import IllegalAction
from nidavellir.game import Game
from nidavellir.rules.decisions import Bid
from nidavellir.tokens import parse_token

# Bids of the three seats in most scenarios: seat 0 wins the Laughing Goblin with 5.
BIDS = ("bid 5 4 3", "bid 4 5 2", "bid 3 2 5")


def first_camp(*first: str, age: int = 1) -> list[str]:
    pool = MERCS1 + ARTIFACTS1 if age == 1 else MERCS2 + ARTIFACTS2
    chosen = {parse_token(f) for f in first}
    return list(first) + [t for t in pool if parse_token(t) not in chosen]


def artifact_game(*first: str, players: int = 3, age1: list[str] | None = None) -> Game:
    return tv_game(players, age1=age1 or ["W3", "W4", "W5"], camp1=first_camp(*first))


def artifact_game_age2(*first: str, age2: list[str] | None = None) -> Game:
    # The first age-2 card is R3's discard (nobody won Pioneer of the Kingdom).
    return age2_game(age2=age2 or ["W3", "W4", "W5", "W6"], camp2=first_camp(*first, age=2))


# ---------------------------------------------------------------------- age 1

def test_fafnir_taken_from_the_camp_works_from_the_next_tavern() -> None:
    """FR "FAFNIR BÅLEYGR": from the moment you own it (Effet continu)."""
    game = artifact_game("Fafnir Båleygr")
    play(game, *BIDS, "camp Fafnir Båleygr")
    assert cz(game, 0) == ["Fafnir Båleygr"]
    play(game, "take W5", "take W4")
    # Dancing Dragon: seat 1 wins with 5 and takes a dwarf; seat 0 may go to the camp.
    assert who(game) == 1
    game.apply(next(a for a in legal(game) if a.startswith("take ")))
    assert who(game) == 0 and camp_moves(game)


def test_draupnir_goes_to_the_command_zone_and_scores_6_per_coin_of_15_or_more() -> None:
    """FR "DRAUPNIR" (Valérieane: 24, 17, 15, 7, 0 gives 18 points)."""
    game = artifact_game("Draupnir")
    play(game, *BIDS, "camp Draupnir")
    assert cz(game, 0) == ["Draupnir"] and game.state.players[0].ranks == [0] * 5
    set_coins(game, 0, [0, 7, 15, 17, 24])
    assert game.scores()[0].breakdown["artifacts"] == 18


def test_vegvisir_goes_to_the_explorer_column_with_13_and_can_complete_a_line() -> None:
    """FR "VEGVISIR": placed at once in the explorer column; its placement may recruit a
    hero; it is an explorer rank worth 13."""
    game = artifact_game("Vegvisir")
    set_army(game, 0, {"W": ["W3"], "H": ["H"], "M": ["M0"], "B": ["B"]})
    play(game, *BIDS, "camp Vegvisir")
    assert army(game, 0)["E"] == ["Vegvisir"] and "Vegvisir" not in cz(game, 0)
    assert game.state.players[0].ranks[C.Suit.EXPLORER] == 1
    assert kind(game) == "hero" and who(game) == 0
    play(game, "hero Skaa")
    sheet = game.scores()
    assert sheet[0].breakdown["explorers"] == 13
    assert sheet[0].breakdown["artifacts"] == 0


def test_svalinn_scores_5_per_hero_card() -> None:
    """FR "SVALINN" (Camille: 3 heroes, 15 points); Olwyn's doubles are not heroes."""
    game = artifact_game("Svalinn")
    play(game, *BIDS, "camp Svalinn")
    set_army(game, 0, {"W": ["Kraal", "Olwyn Double"], "H": ["Olwyn Double"]},
             command_zone=["Svalinn", "Olwyn", "Skaa"])
    assert game.scores()[0].breakdown["artifacts"] == 15


def test_megingjord_lines_never_recruit() -> None:
    """FR "MEGINGJÖRD": for the rest of the game lines never recruit heroes; 28 points."""
    game = artifact_game("Megingjord", age1=["E5", "W4", "W5"])
    set_army(game, 0, {"W": ["W3"], "H": ["H"], "M": ["M0"], "B": ["B"]},
             command_zone=["Megingjord"])
    play(game, *BIDS, "take E5")
    assert game.state.players[0].lines == 1
    assert kind(game) == "pick" and who(game) == 1
    assert game.scores()[0].breakdown["artifacts"] == 28


def test_megingjord_taken_from_the_camp_stops_recruitment_afterwards() -> None:
    game = artifact_game("Megingjord", age1=["W3", "W4", "W5", "E5", "E6", "E7"])
    set_army(game, 0, {"W": ["W3"], "H": ["H"], "M": ["M0"], "B": ["B"]})
    play(game, *BIDS, "camp Megingjord", "take W5", "take W4")
    # Dancing Dragon: seat 1 (5), seat 0 (4), seat 2 (2).
    play(game, "take E7", "take E6")
    assert game.state.players[0].lines == 1 and kind(game) == "pick" and who(game) == 2


@pytest.mark.parametrize("bids, expected", [
    # Purse 2 and 3: the rulebook's example, 3+3 -> 6 and 2+2 -> 5 (no 4 in the treasury).
    (("bid 5 4 0",), ["vidofnir 3+3 2+2", ["0", "4", "5", "5", "6"]]),
    # Purse 0 and 3: the exchange coin is not transformed, 3+5 -> 8.
    (("bid 5 4 2",), ["vidofnir 3+5", ["0", "2", "4", "5", "8"]]),
])
def test_vidofnir_transforms_the_purse_coins(bids: tuple[str, ...], expected: list) -> None:
    """FR "VIDOFNIR & VEDRFÖLNIR" (Céline's two examples): +2 and +3 on the two purse
    coins, in either order; +5 on the other coin when one is the exchange coin."""
    action, coins = expected
    game = artifact_game("Vidofnir")
    play(game, *bids, "bid 4 5 2", "bid 3 2 5", "camp Vidofnir & Vedrfölnir")
    assert kind(game) == "vidofnir" and who(game) == 0
    assert action in legal(game)
    play(game, action)
    assert coin_labels(game, 0) == coins
    assert cz(game, 0) == ["Vidofnir & Vedrfölnir"]


def test_vidofnir_options_are_both_orders_and_both_assignments() -> None:
    game = artifact_game("Vidofnir")
    play(game, "bid 5 4 0", "bid 4 5 2", "bid 3 2 5", "camp Vidofnir")
    assert sorted(legal(game)) == sorted(["vidofnir 2+2 3+3", "vidofnir 3+3 2+2",
                                          "vidofnir 3+2 2+3", "vidofnir 2+3 3+2"])
    with pytest.raises(IllegalAction):
        game.apply("vidofnir 2+5")


def test_vidofnir_with_jarika_adds_2_to_each_transform() -> None:
    """FR "JARIKA": +2 on every transform; FR Thingvellir "Matériel" lists Vidofnir."""
    game = artifact_game("Vidofnir")
    set_army(game, 0, command_zone=["Jarika"])
    play(game, "bid 5 4 0", "bid 4 5 2", "bid 3 2 5", "camp Vidofnir", "vidofnir 3+3 2+2")
    # 3+3+2 = 8, 2+2+2 = 6.
    assert coin_labels(game, 0) == ["0", "4", "5", "6", "8"]


def test_r21_vidofnir_with_uline_transforms_hand_coins_not_on_the_board() -> None:
    """R21: Uline transforms two coins of her hand that are not on the board."""
    game = artifact_game("Vidofnir")
    set_army(game, 0, command_zone=["Uline"])
    # The round was dealt before Uline arrived: she does not bid face down (FR "ULINE").
    game.state.tasks.remove(Bid(0))
    play(game, "bid 4 5 2", "bid 3 2 5")
    assert kind(game) == "uline_bid" and who(game) == 0
    play(game, "place 5", "camp Vidofnir")
    assert kind(game) == "vidofnir"
    options = legal(game)
    assert options and not any("5+" in a for a in options)
    assert "vidofnir 0+2 3+3" not in options
    play(game, "vidofnir 4+3 3+2")
    p = game.state.players[0]
    assert p.bids[0] is not None and K.label(p.bids[0]) == "5"
    assert sorted(K.label(c) for c in p.hand) == ["0", "2", "5", "7"]


# ---------------------------------------------------------------------- age 2

def test_brisingamens_takes_two_cards_of_the_dwarf_discard() -> None:
    """FR "BRISINGAMENS": look through the discard and choose two (Royal Offerings and/or
    dwarves): ROs transform, dwarves go into the army (may recruit heroes)."""
    game = artifact_game_age2("Brisingamens")
    s = game.state
    s.discard.extend([C.card("+5"), C.card("E11")])
    play(game, *BIDS, "camp Brisingamens")
    assert kind(game) == "brisingamens"
    assert sorted(legal(game)) == sorted(["choose W3", "choose +5", "choose E11", "skip"])
    # The camp discard (age-1 camp cards, R15) is never offered.
    assert len(s.camp_discard) == 12
    play(game, "choose +5")
    assert kind(game) == "brisingamens"
    assert sorted(legal(game)) == sorted(["choose W3", "choose E11", "skip"])
    play(game, "choose E11")
    # Resolved in the order taken: the Royal Offering's transform, then the explorer.
    assert kind(game) == "transform" and "+5" in decision(game).prompt
    game.apply(next(a for a in legal(game) if "purse" in a))
    assert army(game, 0)["E"] == ["E11"]
    assert tokens(s.discard) == ["W3", "+5"]  # R2: the used RO goes back to the discard
    assert cz(game, 0) == ["Brisingamens"]


def test_brisingamens_picks_may_be_declined() -> None:
    """R17: Brisingamens takes up to 2; each pick may be declined."""
    game = artifact_game_age2("Brisingamens")
    game.state.discard.append(C.card("E11"))
    play(game, *BIDS, "camp Brisingamens", "choose E11", "skip")
    assert army(game, 0)["E"] == ["E11"]
    assert tokens(game.state.discard) == ["W3"]
    assert kind(game) == "pick" and who(game) == 1

    game = artifact_game_age2("Brisingamens")
    play(game, *BIDS, "camp Brisingamens", "skip")
    assert all(not col for col in game.state.players[0].army)
    assert kind(game) == "pick" and who(game) == 1


def test_brisingamens_with_an_empty_discard_takes_nothing() -> None:
    """R17: fewer (here no) cards in the discard: nothing to take."""
    game = artifact_game_age2("Brisingamens")
    game.state.discard.clear()
    play(game, *BIDS, "camp Brisingamens")
    assert kind(game) == "pick" and who(game) == 1


def test_brisingamens_dwarf_can_complete_a_line() -> None:
    game = artifact_game_age2("Brisingamens")
    game.state.discard.append(C.card("E11"))
    set_army(game, 0, {"W": ["W3"], "H": ["H"], "M": ["M0"], "B": ["B"]})
    play(game, *BIDS, "camp Brisingamens", "choose E11", "skip")
    assert kind(game) == "hero" and who(game) == 0


def test_brisingamens_two_olwyn_doubles_each_placed_on_its_own() -> None:
    """R16, R17: Brisingamens may take Olwyn's doubles from the discard; each is a card of
    its own, placed in any column when it is resolved (FR "OLWYN": the "two different
    columns" rule binds the two doubles of Olwyn's effect, not cards taken later). Issue 28:
    the second double was placed as if it were the other half of Olwyn's effect (a column
    refused) and the pick waiting behind it then crashed the engine
    (``list.remove(x): x not in list`` in the step that resolves Brisingamens' picks)."""
    game = artifact_game_age2("Brisingamens")
    game.state.discard.extend([C.OLWYN_DOUBLE, C.OLWYN_DOUBLE])
    play(game, *BIDS, "camp Brisingamens", "choose Olwyn Double", "choose Olwyn Double")
    assert kind(game) == "olwyn" and len(legal(game)) == 5
    play(game, "double W")
    # The second double is resolved on its own: every column, W included.
    assert kind(game) == "olwyn" and len(legal(game)) == 5
    play(game, "double W")
    assert army(game, 0)["W"] == ["Olwyn Double", "Olwyn Double"]
    assert game.state.players[0].held == []
    assert kind(game) == "pick" and who(game) == 1


def test_brisingamens_double_waits_while_olwyn_places_his_own() -> None:
    """R12, R17: the first pick completes a line and recruits Olwyn; his two doubles go to
    two different columns, then Brisingamens' double (taken second) is placed on its own."""
    game = artifact_game_age2("Brisingamens")
    game.state.discard.extend([C.card("E11"), C.OLWYN_DOUBLE])
    set_army(game, 0, {"W": ["W3"], "H": ["H"], "M": ["M0"], "B": ["B"]})
    play(game, *BIDS, "camp Brisingamens", "choose E11", "choose Olwyn Double",
         "hero Olwyn", "double W")
    assert kind(game) == "olwyn" and "double W" not in legal(game) and len(legal(game)) == 4
    play(game, "double H")
    assert kind(game) == "olwyn" and len(legal(game)) == 5  # Brisingamens' double
    play(game, "double H")
    p = game.state.players[0]
    assert army(game, 0)["W"] == ["W3", "Olwyn Double"]
    assert army(game, 0)["H"] == ["H", "Olwyn Double", "Olwyn Double"]
    assert p.held == [] and cz(game, 0) == ["Brisingamens", "Olwyn"]


def test_brisingamens_end_of_age_2_discards_one_army_card_never_a_hero() -> None:
    """FR "BRISINGAMENS" and "Déroulement de la fin de chaque Age" (Fin de l'Age 2:
    4. Brisingamens' discard, after Thrud leaves); R16: any non-hero card, any column."""
    game = artifact_game_age2("Brisingamens")
    set_army(game, 0, {"W": ["W3", "Kraal", "W6/E8"], "H": ["Olwyn Double"], "E": ["Vegvisir"],
                       "B": ["B*"]},
             command_zone=["Brisingamens", "Thrud"])
    game.state.players[0].command_zone.remove(C.THRUD)
    game.state.players[0].add_to_column(C.THRUD, C.Suit.MINER)
    game.state.players[0].heroes += 1
    end_age_now(game)
    assert kind(game) == "army_discard" and who(game) == 0
    assert sorted(legal(game)) == sorted(["remove W3@W", "remove W6/E8@W",
                                          "remove Olwyn Double@H", "remove Vegvisir@E",
                                          "remove B*@B"])
    assert "Thrud" in cz(game, 0)  # she left before the discard (R14)
    play(game, "remove W3@W")
    assert game.is_over
    assert army(game, 0)["W"] == ["Kraal", "W6/E8"]
    assert tokens(game.state.discard)[-1] == "W3"


def test_mjollnir_scores_2_per_rank_of_the_best_class() -> None:
    """FR "MJÖLLNIR" (Serge: 10 hunter ranks, 20 points)."""
    game = artifact_game_age2("Mjöllnir")
    play(game, *BIDS, "camp Mjöllnir")
    assert cz(game, 0) == ["Mjöllnir"]
    set_army(game, 0, {"H": ["H"] * 10, "W": ["W3", "W4"]}, command_zone=["Mjöllnir"])
    assert game.scores()[0].breakdown["artifacts"] == 20


def test_hofud_every_other_player_discards_a_warrior_card_any_position_not_a_hero() -> None:
    """FR "HÖFUD": every other player chooses and discards a warrior card, any card of the
    warrior column but a hero; R16 (doubles and mercenaries may go)."""
    game = artifact_game_age2("Höfud")
    set_army(game, 0, {"W": ["W9"]})
    set_army(game, 1, {"W": ["W3", "Kraal", "Olwyn Double", "W6/H"], "H": ["H"]})
    set_army(game, 2, {"H": ["H"], "M": ["Ylud"]})  # no warrior card: skipped
    play(game, *BIDS, "camp Höfud")
    assert kind(game) == "army_discard" and who(game) == 1
    assert sorted(legal(game)) == ["remove Olwyn Double@W", "remove W3@W", "remove W6/H@W"]
    play(game, "remove W3@W")
    assert army(game, 1)["W"] == ["Kraal", "Olwyn Double", "W6/H"]
    assert army(game, 0)["W"] == ["W9"]  # the owner keeps hers
    assert kind(game) == "pick" and who(game) == 1
    assert tokens(game.state.discard)[-1] == "W3"


def test_hofud_with_olwyn_double_discarded() -> None:
    """R16: Höfud may discard an Olwyn double lying in the warrior column."""
    game = artifact_game_age2("Höfud")
    set_army(game, 2, {"W": ["Olwyn Double"]})
    play(game, *BIDS, "camp Höfud")
    assert who(game) == 2 and legal(game) == ["remove Olwyn Double@W"]
    play(game, "remove Olwyn Double@W")
    assert army(game, 2)["W"] == [] and game.state.players[2].ranks[C.Suit.WARRIOR] == 0


def test_hrafnsmerki_scores_5_per_mercenary() -> None:
    """FR "HRAFNSMERKI" (Céline: 2 mercenaries, 10 points)."""
    game = artifact_game_age2("Hrafnsmerki")
    play(game, *BIDS, "camp Hrafnsmerki")
    set_army(game, 0, {"W": ["W6/E8"]}, command_zone=["Hrafnsmerki", "H/B"])
    assert game.scores()[0].breakdown["artifacts"] == 10


def test_jarnglofi_discards_the_exchange_coin_at_once_and_scores_24() -> None:
    """FR "JÁRNLÓFI": discard your exchange coin (0 or the hunter's 3) at once; 24
    points; 4 coins afterwards."""
    game = artifact_game_age2("Járnglófi")
    play(game, "bid 5 4 3", "bid 4 5 2", "bid 3 2 5", "camp Járnglófi")
    p = game.state.players[0]
    assert coin_labels(game, 0) == ["2", "3", "4", "5"]
    assert [K.label(c) for c in p.purse] == ["2"]
    assert game.scores()[0].breakdown["artifacts"] == 24
    auto(game, until=lambda g: g.state.round == 2)
    assert kind(game) == "bid"
    while who(game) != 0:
        game.apply(legal(game)[0])
    assert len(legal(game)) == 24  # 3 of 4 distinct coins on the taverns, in order
    play(game, "bid 5 4 3")
    assert [K.label(c) for c in game.state.players[0].purse] == ["2"]


def test_jarnglofi_discards_the_hunting_masters_coin() -> None:
    game = artifact_game_age2("Járnglófi")
    set_coins(game, 0, ["3*", 2, 3, 4, 5])
    play(game, *BIDS, "camp Járnglófi")
    assert coin_labels(game, 0) == ["2", "3", "4", "5"]


def test_jarnglofi_on_an_unresolved_tavern_no_bid_there_and_no_card() -> None:
    """FR "JÁRNLÓFI" (Attention!): the coin was on a tavern not yet resolved: no bid
    there, no card taken; R20."""
    game = artifact_game_age2("Járnglófi", age2=["W3", "W4", "W5", "W6", "E5", "E6", "E7"])
    play(game, "bid 5 0 3", "bid 4 5 2", "bid 3 2 5", "camp Járnglófi")
    assert game.state.players[0].bids[1] is None
    play(game, "take W6", "take W5")
    # Dancing Dragon: only seats 1 and 2 bid there.
    assert game.state.tavern == 1 and game.state.order == [1, 2]
    play(game, "take E7", "take E6")
    assert game.state.tavern == 2
    assert army(game, 0) == {"W": [], "H": [], "M": [], "B": [], "E": []}
    assert tokens(game.state.discard)[-1] == "E5"  # the card nobody took


def test_r20_jarnglofi_with_the_exchange_coin_on_the_current_tavern_no_trade() -> None:
    """R20: the exchange coin was the bid on the current tavern (Fafnir's owner bid 0):
    it is gone, so no trade happens."""
    game = artifact_game_age2("Járnglófi")
    set_army(game, 2, command_zone=["Fafnir Båleygr"])
    play(game, "bid 5 4 3", "bid 4 5 2", "bid 0 2 5", "take W6", "take W5",
         "camp Járnglófi")
    assert game.state.tavern == 1
    assert coin_labels(game, 2) == ["2", "3", "4", "5"]
    p = game.state.players[2]
    assert sorted(K.label(c) for c in p.purse) == ["3", "4"]  # not traded


def test_gjallarhorn_recruits_a_hero_at_once_whatever_the_lines() -> None:
    """FR "GJALLARHORN" (Even takes it and recruits Ylud with no line; he needs 2 lines for
    the next hero)."""
    game = artifact_game_age2("Gjallarhorn")
    play(game, *BIDS, "camp Gjallarhorn")
    assert kind(game) == "hero" and who(game) == 0
    heroes = legal(game)
    # R10: Dagda and Bonfur cannot discard anything; Hourya needs 5 explorer ranks.
    assert "hero Dagda" not in heroes and "hero Bonfur" not in heroes
    assert "hero Hourya" not in heroes and "hero Ylud" in heroes
    play(game, "hero Ylud")
    assert cz(game, 0) == ["Gjallarhorn", "Ylud"]
    # One line is not enough for a second hero.
    set_army(game, 0, {"W": ["W3"], "H": ["H"], "M": ["M0"], "B": ["B"], "E": ["E5"]},
             command_zone=["Gjallarhorn", "Ylud"])
    auto(game, until=lambda g: kind(g) == "pick" and who(g) == 0 and g.state.tavern == 1)
    game.apply(next(a for a in legal(game) if a.startswith("take ")))
    assert not (kind(game) == "hero" and who(game) == 0)


def test_gjallarhorn_works_with_megingjord() -> None:
    """FR "GJALLARHORN", Remarque 1: it recruits even with Megingjord."""
    game = artifact_game_age2("Gjallarhorn")
    set_army(game, 0, command_zone=["Megingjord"])
    play(game, *BIDS, "camp Gjallarhorn")
    assert kind(game) == "hero" and who(game) == 0


def test_gjallarhorn_offers_dagda_and_bonfur_only_when_their_discards_are_possible() -> None:
    """FR "GJALLARHORN", Remarque 2; R10."""
    game = artifact_game_age2("Gjallarhorn")
    set_army(game, 0, {"W": ["W3"], "M": ["M0"]})
    play(game, *BIDS, "camp Gjallarhorn")
    assert "hero Dagda" in legal(game) and "hero Bonfur" in legal(game)
    play(game, "hero Dagda")
    assert kind(game) == "discard"
    play(game, "discard W")
    play(game, "discard M")
    assert army(game, 0) == {"W": [], "H": ["Dagda"], "M": [], "B": [], "E": []}

    game = artifact_game_age2("Gjallarhorn")
    set_army(game, 0, {"W": ["Kraal"], "M": ["M0"]})
    play(game, *BIDS, "camp Gjallarhorn")
    # Only one column has a non-hero top card: Bonfur yes, Dagda no.
    assert "hero Dagda" not in legal(game) and "hero Bonfur" in legal(game)


def test_r21_vidofnir_with_uline_and_one_eligible_hand_coin_gives_5() -> None:
    """R21: +5 when only one of Uline's hand coins is eligible (the other is the exchange
    coin). Uline's last two coins at the Shining Horse: 0 and 2."""
    game = artifact_game("W6/E8", "W6/B", "H/E8", "H/M1", "Vidofnir")
    set_army(game, 0, command_zone=["Uline", "Fafnir Båleygr"])
    game.state.tasks.remove(Bid(0))

    def take() -> None:
        game.apply(next(a for a in legal(game) if a.startswith("take ")))

    play(game, "bid 4 5 2", "bid 3 2 5", "place 5", "take W3", "take W4", "take W5")
    play(game, "place 4")
    while kind(game) != "uline_bid":
        take()
    play(game, "place 3")
    while who(game) != 0:
        take()
    assert sorted(K.label(c) for c in game.state.players[0].hand) == ["0", "2"]
    play(game, "camp Vidofnir & Vedrfölnir")
    assert legal(game) == ["vidofnir 2+5"]
    play(game, "vidofnir 2+5")
    assert sorted(K.label(c) for c in game.state.players[0].hand) == ["0", "7"]
