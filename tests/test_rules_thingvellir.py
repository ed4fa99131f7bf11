"""Scripted rule scenarios for Thingvellir (issue 4): the camp and the mercenaries.

Each test cites the French rulebook's Thingvellir part (its
headings: "LE CAMP" / "Gestion durant la partie", "Nouvelles règles", "Nouvelle règle
à 2 Elvalands", "Les cartes Mercenaire", "Déroulement de la fin de chaque Age") or a
ruling of docs/rulings.md (R14-R22 are the Thingvellir rulings).
Artifacts are in test_rules_thingvellir_artifacts.py, the six heroes in
test_rules_thingvellir_heroes.py; both use the helpers defined here.

Positions are built with tests/scripted.py (deal_game, set_army, set_coins);
``end_age_now`` jumps to the end-of-age sequence of the current age, like a position.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from scripted import army, deal_game, decision, legal, play, set_army

from nidavellir import cards as C
from nidavellir import events as ev
from nidavellir.cards import Kind, Suit
from nidavellir.errors import IllegalAction
from nidavellir.game import Game
from nidavellir.rules.flow import AgeEnd

TV = ("thingvellir",)
MERCS1 = ["W6/E8", "W6/B", "H/E8", "H/M1", "B/M1", "W9/E11"]
ARTIFACTS1 = ["Fafnir Båleygr", "Draupnir", "Vegvisir", "Svalinn", "Megingjord", "Vidofnir"]
MERCS2 = ["H/B", "W6/M1", "B/E8", "W6/H", "E8/M1", "W9/E11"]
ARTIFACTS2 = ["Brisingamens", "Mjöllnir", "Höfud", "Hrafnsmerki", "Járnglófi", "Gjallarhorn"]


# ---------------------------------------------------------------------- helpers

def tv_game(players: int = 3, age1: Sequence[str] = (), age2: Sequence[str] = (),
            gems: Sequence[int] | None = None, camp1: Sequence[str] = (),
            camp2: Sequence[str] = ()) -> Game:
    """A scripted Thingvellir game; gems default to increasing by seat."""
    if gems is None:
        gems = sorted(C.gems_for(players))
    return deal_game(players, age1=age1, age2=age2, gems=gems, expansions=TV,
                     camp1=camp1, camp2=camp2)


def tokens(cards: Sequence[C.Card]) -> list[str]:
    return [c.token for c in cards]


def camp(game: Game) -> list[str]:
    return tokens(game.state.camp)


def cz(game: Game, seat: int) -> list[str]:
    return tokens(game.state.players[seat].command_zone)


def kind(game: Game) -> str | None:
    d = game.decision
    return None if d is None else d.kind


def who(game: Game) -> int | None:
    d = game.decision
    return None if d is None else d.player


def camp_moves(game: Game) -> list[str]:
    return [a for a in legal(game) if a.startswith("camp ")]


def auto(game: Game, until: Callable[[Game], bool] = lambda g: False, visit_camp: bool = False,
         limit: int = 3000) -> None:
    """Play the first legal action (tavern cards unless ``visit_camp``) until ``until``."""
    steps = 0
    while not game.is_over and not until(game):
        actions = legal(game)
        choice = actions[0]
        if kind(game) == "pick":
            camps = [a for a in actions if a.startswith("camp ")]
            takes = [a for a in actions if a.startswith("take ")]
            choice = camps[0] if visit_camp and camps else (takes or actions)[0]
        game.apply(choice)
        steps += 1
        assert steps < limit


def end_age_now(game: Game) -> None:
    """Jump to the end-of-age sequence of the current age (a position, like set_army):
    the taverns and bids of the current round are dropped."""
    s = game.state
    for p in s.players:
        p.hand = sorted(p.coins())
        p.bids = [None, None, None]
        p.purse = []
    s.round = game.config.rounds_per_age
    s.tavern = None
    s.taverns = [[], [], []]
    s.order = []
    s.ties = []
    s.tasks = [AgeEnd()]
    game._engine.advance()


def age2_game(players: int = 3, age2: Sequence[str] = (), camp2: Sequence[str] = (),
              gems: Sequence[int] | None = None) -> Game:
    """A game at the first bid of age 2 (age 1 skipped: nobody won a distinction, R3
    discards the top age-2 card, so ``age2`` starts with a card that goes there)."""
    game = tv_game(players, age2=age2, gems=gems, camp2=camp2)
    end_age_now(game)
    assert game.state.age == 2 and kind(game) == "bid"
    return game


def events_of(game: Game, cls: type, start: int = 0) -> list:
    return [e for e in game.events[start:] if isinstance(e, cls)]


# ---------------------------------------------------------------------- the camp

def test_the_camp_shows_five_cards_of_the_age_1_deck_at_the_first_round() -> None:
    """FR "LE CAMP", "Gestion durant la partie": before Enter the Dwarves, reveal camp
    cards of the current age until 5 show."""
    game = tv_game(camp1=ARTIFACTS1 + MERCS1)
    assert camp(game) == ARTIFACTS1[:5]
    assert len(game.state.camp_decks[1]) == 7
    assert len(game.state.camp_decks[2]) == 12
    refills = events_of(game, ev.CampRefilled)
    assert len(refills) == 1 and tokens(refills[0].cards) == ARTIFACTS1[:5]


def test_without_thingvellir_there_is_no_camp() -> None:
    game = deal_game(3, gems=[3, 4, 5])
    assert game.state.camp == [] and game.state.camp_decks == {1: [], 2: []}
    play(game, "bid 5 4 3", "bid 4 5 2", "bid 3 2 5")
    assert camp_moves(game) == []


def test_the_camp_refills_only_what_was_taken_never_beyond_five() -> None:
    """FR "Gestion durant la partie", note: if no camp card was taken and 5 show, reveal
    none; otherwise refill up to 5."""
    game = tv_game(camp1=MERCS1 + ARTIFACTS1)
    # Round 1: nobody visits the camp.
    auto(game, until=lambda g: g.state.round == 2)
    assert camp(game) == MERCS1[:5] and len(game.state.camp_decks[1]) == 7
    # Round 2: the winner of every tavern visits the camp (3 cards taken).
    auto(game, until=lambda g: g.state.round == 3, visit_camp=True)
    assert len(camp(game)) == 5
    assert len(game.state.camp_decks[1]) == 4
    refills = events_of(game, ev.CampRefilled)
    assert [len(e.cards) for e in refills] == [5, 3]


def test_the_camp_shows_fewer_than_five_when_its_deck_runs_out() -> None:
    """FR "Gestion durant la partie" (FR Thingvellir "Matériel" "Refill"): an empty camp deck leaves
    fewer than 5 cards; nothing comes from the age-2 camp deck during age 1."""
    game = tv_game(camp1=MERCS1 + ARTIFACTS1)
    seen = []
    for r in (2, 3, 4):
        def reached(g: Game, r: int = r) -> bool:
            return g.state.round == r

        auto(game, until=reached, visit_camp=True)
        seen.append((len(camp(game)), len(game.state.camp_decks[1])))
    # 3 visits per round: 12 - 5 = 7 in the deck, then 4, then 1, then 0 with 3 showing.
    assert seen == [(5, 4), (5, 1), (3, 0)]
    assert len(game.state.camp_decks[2]) == 12
    auto(game, until=lambda g: g.state.round == 4 and g.state.tavern == 2
         and kind(g) == "pick", visit_camp=True)
    assert len(camp(game)) == 1
    game.apply(camp_moves(game)[0])
    auto(game, until=lambda g: kind(g) == "pick")
    assert camp(game) == [] and camp_moves(game) == []


def test_age_2_reveals_the_age_2_camp_deck_and_age_1_leftovers_go_to_the_camp_discard() -> None:
    """FR "Nouvelle règle à 2 Elvalands" (*): at the end of age 1, after the distinctions,
    discard every remaining camp card; R14 (after the distinctions), R15 (a separate camp
    discard nobody searches: "Ne mélangez pas la défausse des cartes Camp et celle des
    cartes Nain-e")."""
    game = tv_game(camp1=MERCS1 + ARTIFACTS1, camp2=ARTIFACTS2 + MERCS2)
    dwarf_discard = list(game.state.discard)
    end_age_now(game)
    s = game.state
    assert s.age == 2
    assert sorted(tokens(s.camp_discard)) == sorted(tokens(C.camp_deck(1)))
    assert camp(game) == ARTIFACTS2[:5] and len(s.camp_decks[2]) == 7
    assert not any(c.kind in (Kind.MERCENARY, Kind.ARTIFACT) for c in s.discard)
    assert len(s.discard) == len(dwarf_discard) + 1  # only R3's age-2 card


def test_the_camp_is_cleared_after_the_age_1_distinctions() -> None:
    """R14: age 1 ends mercenaries -> Ylud -> distinctions -> discard the camp. A hero
    recruited through a distinction (here Pioneer's dwarf completes a line) may still
    take a camp card with Holda."""
    game = tv_game(age2=["B", "W3", "W4"], camp1=MERCS1 + ARTIFACTS1)
    set_army(game, 0, {"W": ["W3"], "H": ["H"], "M": ["M0"], "E": ["E5", "E6"]})
    set_army(game, 1, {"W": ["W4"], "H": ["H"], "M": ["M1"]})
    set_army(game, 2, {"W": ["W5"], "H": ["H"], "M": ["M2"]})
    end_age_now(game)
    # Pioneer of the Kingdom (seat 0 has the explorer majority): keep the blacksmith.
    assert kind(game) == "pioneer" and who(game) == 0
    play(game, "keep B")
    assert kind(game) == "hero" and "hero Holda" in legal(game)
    play(game, "hero Holda")
    assert kind(game) == "holda" and set(legal(game)) == {f"choose {t}" for t in MERCS1[:5]}
    play(game, "choose W6/E8")
    assert "W6/E8" in cz(game, 0)
    assert "W6/E8" not in tokens(game.state.camp_discard)
    assert game.state.age == 2 and len(game.state.camp_discard) == 11


# ---------------------------------------------------------------------- who visits the camp

def test_only_the_winning_bidder_may_take_a_camp_card() -> None:
    """FR "Nouvelles règles": only the player with the highest bid may go to the camp,
    instead of taking a tavern card; the others take tavern cards in bid order."""
    game = tv_game(age1=["W3", "W4", "W5"], camp1=MERCS1 + ARTIFACTS1)
    play(game, "bid 5 4 3", "bid 4 5 2", "bid 3 2 5")
    assert who(game) == 0
    assert camp_moves(game) == [f"camp {t}" for t in MERCS1[:5]]
    play(game, "take W5")
    assert who(game) == 1 and camp_moves(game) == []
    with pytest.raises(IllegalAction, match="only the tavern's winner"):
        game.apply("camp W6/E8")
    play(game, "take W4")
    assert who(game) == 2 and camp_moves(game) == []


def test_ties_for_the_highest_bid_are_broken_by_gem_for_the_camp() -> None:
    """FR "Nouvelles règles": ties for the highest bid are broken by gems as usual."""
    game = tv_game(camp1=MERCS1 + ARTIFACTS1)
    play(game, "bid 5 4 3", "bid 5 4 2", "bid 0 2 5")
    assert who(game) == 1  # gem 4 beats gem 3
    assert camp_moves(game)
    play(game, "take W3")
    assert who(game) == 0 and camp_moves(game) == []


def test_a_camp_visit_replaces_the_tavern_card_and_the_extra_card_is_discarded() -> None:
    """FR "Nouvelles règles": if the first player took a camp card, the dwarf card left in
    the tavern is discarded before the next tavern is resolved (R15: to the dwarf
    discard)."""
    game = tv_game(age1=["W3", "W4", "W5"], camp1=MERCS1 + ARTIFACTS1)
    play(game, "bid 5 4 3", "bid 4 5 2", "bid 3 2 5")
    before = tokens(game.state.discard)
    play(game, "camp H/M1")
    p0 = game.state.players[0]
    assert cz(game, 0) == ["H/M1"] and all(not col for col in p0.army)
    assert camp(game) == ["W6/E8", "W6/B", "H/E8", "B/M1"]
    assert tokens(game.state.taverns[0]) == ["W3", "W4", "W5"]
    play(game, "take W5", "take W4")
    assert game.state.tavern == 1
    assert tokens(game.state.discard) == before + ["W3"]
    reasons = [e.reason for e in events_of(game, ev.CardDiscarded) if e.card.token == "W3"]
    assert reasons == ["left in the tavern"]


def test_one_camp_visit_per_tavern_and_the_next_tavern_resets_it() -> None:
    game = tv_game(age1=["W3", "W4", "W5"], camp1=MERCS1 + ARTIFACTS1)
    set_army(game, 2, command_zone=["Fafnir Båleygr"])
    play(game, "bid 5 4 3", "bid 4 5 2", "bid 3 2 5")
    play(game, "camp W6/E8", "take W5")
    assert who(game) == 2 and camp_moves(game) == []  # Fafnir: the winner went already
    play(game, "take W4")
    assert game.state.tavern == 1 and who(game) == 1
    assert camp_moves(game)


def test_fafnir_baleygr_lets_its_owner_visit_when_the_winner_did_not() -> None:
    """FR "FAFNIR BÅLEYGR" (Serge wins with 10 and takes a dwarf; Céline, who bid 3 and
    owns Fafnir, may go to the camp instead of the tavern)."""
    game = tv_game(age1=["W3", "W4", "W5"], camp1=MERCS1 + ARTIFACTS1)
    set_army(game, 2, command_zone=["Fafnir Båleygr"])
    play(game, "bid 5 4 3", "bid 4 5 2", "bid 3 2 5")
    play(game, "take W5")
    assert who(game) == 1 and camp_moves(game) == []
    play(game, "take W4")
    assert who(game) == 2 and camp_moves(game) == [f"camp {t}" for t in MERCS1[:5]]
    play(game, "camp B/M1")
    assert cz(game, 2) == ["Fafnir Båleygr", "B/M1"]
    # The tavern's last card is discarded with the tavern.
    assert "W3" in tokens(game.state.discard) and game.state.tavern == 1


def test_fafnir_owner_who_wins_visits_once_like_any_winner() -> None:
    game = tv_game(age1=["W3", "W4", "W5"], camp1=MERCS1 + ARTIFACTS1)
    set_army(game, 0, command_zone=["Fafnir Båleygr"])
    play(game, "bid 5 4 3", "bid 4 5 2", "bid 3 2 5", "camp W6/B")
    assert who(game) == 1 and camp_moves(game) == []


def test_holdas_camp_pick_is_not_a_camp_visit_for_fafnir() -> None:
    """R18: Holda's pick does not count as "visiting the camp" for Fafnir Båleygr."""
    game = tv_game(age1=["W3", "W4", "W5"], camp1=MERCS1 + ARTIFACTS1)
    set_army(game, 0, {"H": ["H"], "M": ["M0"], "B": ["B"], "E": ["E5"]})
    set_army(game, 2, command_zone=["Fafnir Båleygr"])
    play(game, "bid 5 4 3", "bid 4 5 2", "bid 3 2 5", "take W5")
    assert kind(game) == "hero"
    play(game, "hero Holda")
    assert kind(game) == "holda"
    play(game, "choose H/E8")
    assert cz(game, 0) == ["Holda", "H/E8"]
    play(game, "take W4")
    assert who(game) == 2
    assert camp_moves(game) == ["camp W6/E8", "camp W6/B", "camp H/M1", "camp B/M1"]


# ---------------------------------------------------------------------- 2 players

def test_two_players_the_winner_visiting_the_camp_discards_a_tavern_card() -> None:
    """FR "Nouvelle règle à 2 Elvalands": the winner who takes a camp card also discards
    one of the three tavern cards; the second player chooses among the other two; the
    last card is discarded as usual."""
    game = tv_game(2, age1=["W3", "W4", "W5"], camp1=MERCS1 + ARTIFACTS1)
    play(game, "bid 5 4 3", "bid 4 5 2")
    assert who(game) == 0
    play(game, "camp H/E8")
    assert kind(game) == "tavern_discard" and who(game) == 0
    assert sorted(legal(game)) == ["drop W3", "drop W4", "drop W5"]
    play(game, "drop W5")
    assert tokens(game.state.discard)[-1] == "W5"
    assert kind(game) == "pick" and who(game) == 1
    assert sorted(legal(game)) == ["take W3", "take W4"]
    play(game, "take W4")
    assert tokens(game.state.discard)[-2:] == ["W5", "W3"]
    assert game.state.tavern == 1


def test_two_players_the_winner_taking_a_tavern_card_discards_nothing_extra() -> None:
    game = tv_game(2, age1=["W3", "W4", "W5"], camp1=MERCS1 + ARTIFACTS1)
    play(game, "bid 5 4 3", "bid 4 5 2", "take W5")
    assert kind(game) == "pick" and who(game) == 1
    assert sorted(legal(game)) == ["take W3", "take W4"]


def test_two_players_fafnir_second_player_visiting_discards_nothing_extra() -> None:
    """R19: 2 players + Fafnir, the second player visits the camp: no extra discard; the
    two remaining tavern cards are discarded at the end of the tavern."""
    game = tv_game(2, age1=["W3", "W4", "W5"], camp1=MERCS1 + ARTIFACTS1)
    set_army(game, 1, command_zone=["Fafnir Båleygr"])
    play(game, "bid 5 4 3", "bid 4 5 2", "take W5")
    assert who(game) == 1 and "camp W6/E8" in legal(game)
    mark = len(game.events)
    play(game, "camp W6/E8")
    assert game.state.tavern == 1 and kind(game) == "pick"
    dropped = [e.card.token for e in events_of(game, ev.CardDiscarded, mark)]
    assert sorted(dropped) == ["W3", "W4"]
    assert {e.reason for e in events_of(game, ev.CardDiscarded, mark)} == {"left in the tavern"}


# ---------------------------------------------------------------------- mercenaries

def test_a_mercenary_goes_to_the_command_zone_not_the_army() -> None:
    """FR "Les cartes Mercenaire": place them in your command zone."""
    game = tv_game(camp1=MERCS1 + ARTIFACTS1)
    play(game, "bid 5 4 3", "bid 4 5 2", "bid 3 2 5", "camp W6/E8")
    p = game.state.players[0]
    assert cz(game, 0) == ["W6/E8"] and p.ranks == [0, 0, 0, 0, 0]
    assert p.lines == 0


def test_enlistment_most_mercenaries_chooses_and_last_means_after_the_others() -> None:
    """FR "Les cartes Mercenaire": most to fewest, ties by gem without a gem exchange;
    only the player with the most chooses to place first or to pass and place last
    (the rulebook's Serge/Céline/Valérie example)."""
    game = tv_game()
    set_army(game, 0, command_zone=["H/M1"])
    set_army(game, 1, command_zone=["W6/B"])
    set_army(game, 2, command_zone=["W6/E8", "B/M1"])
    gems = [p.gem for p in game.state.players]
    end_age_now(game)
    assert kind(game) == "mercenary_order" and who(game) == 2
    assert legal(game) == ["enlist first", "enlist last"]
    play(game, "enlist last")
    order = []
    while kind(game) == "mercenary":
        order.append(who(game))
        game.apply(legal(game)[0])
    # Seat 1 (gem 4) before seat 0 (gem 3), then seat 2 places both of hers.
    assert order == [1, 0, 2, 2]
    assert [p.gem for p in game.state.players] == gems
    assert not any(isinstance(e, ev.GemsExchanged) for e in game.events)


def test_enlistment_first_means_the_leader_places_all_before_the_others() -> None:
    game = tv_game()
    set_army(game, 0, command_zone=["H/M1"])
    set_army(game, 1, command_zone=["W6/B"])
    set_army(game, 2, command_zone=["W6/E8", "B/M1"])
    end_age_now(game)
    play(game, "enlist first")
    order = []
    while kind(game) == "mercenary":
        order.append(who(game))
        game.apply(legal(game)[0])
    assert order == [2, 2, 1, 0]


def test_enlistment_ties_in_count_are_broken_by_gem() -> None:
    game = tv_game()
    set_army(game, 0, command_zone=["H/M1", "W6/B"])
    set_army(game, 2, command_zone=["W6/E8", "B/M1"])
    end_age_now(game)
    # Seat 2 holds gem 5: the choice is hers.
    assert kind(game) == "mercenary_order" and who(game) == 2
    play(game, "enlist last")
    assert kind(game) == "mercenary" and who(game) == 0


def test_a_single_holder_places_without_an_order_choice() -> None:
    game = tv_game()
    set_army(game, 1, command_zone=["W6/E8"])
    end_age_now(game)
    assert kind(game) == "mercenary" and who(game) == 1
    assert legal(game) == ["enlist W6/E8 W", "enlist W6/E8 E"]


def test_a_mercenary_is_placed_on_one_of_its_two_sides_and_scores_there() -> None:
    """FR "Les cartes Mercenaire": choose the class among the two printed on the card;
    it scores as a dwarf of that class (FR Thingvellir "Matériel")."""
    game = tv_game()
    set_army(game, 0, command_zone=["W9/E11", "H/M1"])
    end_age_now(game)
    assert sorted(legal(game)) == ["enlist H/M1 H", "enlist H/M1 M", "enlist W9/E11 E",
                                   "enlist W9/E11 W"]
    with pytest.raises(IllegalAction):
        game.apply("enlist W9/E11 H")
    play(game, "enlist W9/E11 E", "enlist H/M1 M")
    assert army(game, 0)["E"] == ["W9/E11"] and army(game, 0)["M"] == ["H/M1"]
    assert game.state.players[0].ranks == [0, 0, 1, 0, 1]
    sheet = game.scores()
    assert sheet[0].breakdown["explorers"] == 11
    assert sheet[0].breakdown["miners"] == 1


def test_enlistment_runs_before_ylud_and_the_distinctions() -> None:
    """R14 (FR "Déroulement de la fin de chaque Age", Fin de l'Age 1): mercenaries, then
    Ylud, then the distinctions. A warrior mercenary wins the King's Hand."""
    game = tv_game()
    set_army(game, 0, {"W": ["W3"]}, command_zone=["Ylud"])
    set_army(game, 1, {"W": ["W4"]}, command_zone=["W6/B"])
    end_age_now(game)
    assert kind(game) == "mercenary" and who(game) == 1
    play(game, "enlist W6/B W")
    assert kind(game) == "ylud" and who(game) == 0
    play(game, "ylud E")
    # Seat 1 has 2 warrior ranks against 1: the King's Hand (transform +5).
    assert kind(game) == "transform" and who(game) == 1
    assert "King" in decision(game).prompt
    awarded = [e.player for e in events_of(game, ev.DistinctionAwarded)]
    assert awarded == [1]


def test_a_placement_that_completes_a_line_recruits_before_the_next_mercenary() -> None:
    """FR "Les cartes Mercenaire" (Leur pose peut déclencher un recrutement...
    interrompez la pose, recrutez puis reprenez) and the end-of-age page."""
    game = tv_game()
    set_army(game, 0, {"W": ["W3"], "H": ["H"], "M": ["M0"], "B": ["B"]},
             command_zone=["W6/E8", "H/M1"])
    end_age_now(game)
    play(game, "enlist W6/E8 E")
    assert kind(game) == "hero" and who(game) == 0
    play(game, "hero Skaa")
    assert kind(game) == "mercenary" and who(game) == 0
    play(game, "enlist H/M1 H")
    assert "Skaa" in cz(game, 0) and "H/M1" not in cz(game, 0)
    assert army(game, 0)["H"] == ["H", "H/M1"]


def test_placed_mercenaries_stay_in_the_army_for_age_2() -> None:
    """FR "Les cartes Mercenaire": once placed they cannot move; the age-2 enlistment
    only concerns unplaced ones."""
    game = tv_game()
    set_army(game, 0, command_zone=["W6/E8"])
    end_age_now(game)
    play(game, "enlist W6/E8 W")
    auto(game, until=lambda g: g.state.age == 2)
    assert army(game, 0)["W"] == ["W6/E8"]
    end_age_now(game)
    assert game.is_over
    assert army(game, 0)["W"] == ["W6/E8"]


def test_age_2_enlistment_before_scoring() -> None:
    """FR "Déroulement de la fin de chaque Age", Fin de l'Age 2: 1. mercenaries ...
    5. final scoring; R14."""
    game = age2_game()
    set_army(game, 2, command_zone=["W6/H", "E8/M1"])
    end_age_now(game)
    assert kind(game) == "mercenary" and who(game) == 2
    play(game, "enlist W6/H W", "enlist E8/M1 E")
    assert game.is_over
    assert game.scores()[2].breakdown["warriors"] >= 6
    assert game.scores()[2].breakdown["explorers"] == 8


def test_r22_a_mercenary_gained_after_the_age_1_enlistment_waits_for_age_2() -> None:
    """R22 (age 1): a mercenary gained after the enlistment step (Holda through a
    distinction) stays in the command zone until the end of age 2."""
    game = tv_game(age2=["B", "W3", "W4"], camp1=MERCS1 + ARTIFACTS1)
    set_army(game, 0, {"W": ["W3"], "H": ["H"], "M": ["M0"], "E": ["E5", "E6"]})
    set_army(game, 1, {"W": ["W4"], "H": ["H"], "M": ["M1"]})
    set_army(game, 2, {"W": ["W5"], "H": ["H"], "M": ["M2"]})
    end_age_now(game)
    play(game, "keep B", "hero Holda", "choose W6/B")
    assert game.state.age == 2 and kind(game) == "bid"
    assert "W6/B" in cz(game, 0) and game.state.players[0].column_of(C.card("W6/B")) is None
    end_age_now(game)
    assert kind(game) == "mercenary" and who(game) == 0
    play(game, "enlist W6/B B")
    assert game.is_over and army(game, 0)["B"] == ["B", "W6/B"]


def test_r22_a_mercenary_gained_after_the_age_2_enlistment_is_enlisted_at_once() -> None:
    """R22 (age 2): Ylud completes a line, Holda takes a mercenary from the camp; it is
    enlisted right away, before scoring."""
    game = age2_game(camp2=MERCS2 + ARTIFACTS2)
    # Ylud is a hero already: her rank must make a second line.
    set_army(game, 0, {"W": ["W3", "W4"], "H": ["H", "H"], "M": ["M0", "M0"], "B": ["B", "B"],
                       "E": ["E5"]}, command_zone=["Ylud"])
    end_age_now(game)
    play(game, "ylud E", "hero Holda")
    assert kind(game) == "holda"
    play(game, "choose W6/M1")
    assert kind(game) == "mercenary" and who(game) == 0
    assert legal(game) == ["enlist W6/M1 W", "enlist W6/M1 M"]
    play(game, "enlist W6/M1 M")
    assert game.is_over
    assert army(game, 0)["M"] == ["M0", "M0", "W6/M1"]
    assert game.scores()[0].breakdown["miners"] == 3 * 1


def _hunting_master(game: Game) -> int | None:
    return next(e.player for e in events_of(game, ev.DistinctionAwarded)
                if e.distinction is C.HUNTING_MASTER)


def test_r22_age_1_ylud_recruits_holda_her_mercenary_is_placed_before_the_distinctions() -> None:
    """R22 (narrowed): placing Ylud at the end of age 1 completes a line, the hero is Holda
    and she takes a mercenary from the camp: it goes into the army at once (FR
    « Déroulement de la fin de chaque Age »: « Si la pose de YLUD ou d'une carte
    Mercenaire engendre le recrutement de HOLDA et que vous choisissez une carte
    Mercenaire au camp, placez cette dernière immédiatement dans votre armée »), so it
    counts for the distinctions."""
    game = tv_game(camp1=MERCS1 + ARTIFACTS1)
    # Ylud is a hero already: her rank must make a second line. Hunters tie 2-2 without
    # the mercenary.
    set_army(game, 0, {"W": ["W3", "W4"], "H": ["H", "H"], "M": ["M0", "M0"], "B": ["B", "B"],
                       "E": ["E5"]}, command_zone=["Ylud"])
    set_army(game, 1, {"H": ["H", "H"]})
    end_age_now(game)
    assert kind(game) == "ylud" and who(game) == 0
    play(game, "ylud E", "hero Holda", "choose H/E8")
    assert kind(game) == "mercenary" and who(game) == 0 and game.state.age == 1
    assert legal(game) == ["enlist H/E8 H", "enlist H/E8 E"]
    assert events_of(game, ev.DistinctionAwarded) == []
    play(game, "enlist H/E8 H")
    auto(game, until=lambda g: g.state.age == 2)
    assert army(game, 0)["H"] == ["H", "H", "H/E8"] and "H/E8" not in cz(game, 0)
    assert _hunting_master(game) == 0


def test_r22_age_1_a_mercenary_placement_recruits_holda_her_mercenary_is_placed_at_once() -> None:
    """R22 (narrowed), by a mercenary: the enlistment of W6/E8 completes a line, Holda
    takes H/E8 from the camp, which is placed before the distinctions."""
    game = tv_game(camp1=MERCS1 + ARTIFACTS1)
    set_army(game, 0, {"W": ["W3"], "H": ["H"], "M": ["M0"], "B": ["B"]},
             command_zone=["W6/E8"])
    set_army(game, 1, {"H": ["H"]})
    end_age_now(game)
    play(game, "enlist W6/E8 E", "hero Holda", "choose H/E8")
    assert kind(game) == "mercenary" and legal(game) == ["enlist H/E8 H", "enlist H/E8 E"]
    play(game, "enlist H/E8 H")
    auto(game, until=lambda g: g.state.age == 2)
    assert army(game, 0)["H"] == ["H", "H/E8"]
    assert _hunting_master(game) == 0


def test_r22_age_2_a_mercenary_placement_recruits_holda_her_mercenary_is_placed_at_once() -> None:
    """R22 (narrowed), age 2 by a mercenary: Holda's mercenary is placed in the same
    turn, before scoring."""
    game = age2_game(camp2=MERCS2 + ARTIFACTS2)
    set_army(game, 0, {"W": ["W3"], "H": ["H"], "M": ["M0"], "B": ["B"]},
             command_zone=["W6/E8"])
    end_age_now(game)
    play(game, "enlist W6/E8 E", "hero Holda", "choose W6/M1")
    assert kind(game) == "mercenary" and legal(game) == ["enlist W6/M1 W", "enlist W6/M1 M"]
    play(game, "enlist W6/M1 M")
    assert game.is_over and army(game, 0)["M"] == ["M0", "W6/M1"]


def test_r22_age_1_ylud_recruits_andumia_a_mercenary_from_the_discard_waits() -> None:
    """R22: only Holda's camp mercenary is placed at once; any other mercenary gained
    after the age-1 enlistment (Andumia takes one from the discard, R15) waits in the
    command zone until the end of age 2."""
    game = tv_game(camp1=MERCS1 + ARTIFACTS1)
    set_army(game, 0, {"W": ["W3", "W4"], "H": ["H", "H"], "M": ["M0", "M0"], "B": ["B", "B"],
                       "E": ["E5"]}, command_zone=["Ylud"])
    game.state.discard.append(C.card("W9/E11"))
    end_age_now(game)
    play(game, "ylud E", "hero Andumia", "choose W9/E11")
    assert kind(game) != "mercenary"
    auto(game, until=lambda g: g.state.age == 2)
    assert "W9/E11" in cz(game, 0)


def test_mercenary_columns_count_for_distinctions_and_lines() -> None:
    """FR "Les jetons de classe": a column of mercenaries only is that class (a class
    token marks it); its ranks count for lines and majorities (R23)."""
    game = tv_game()
    set_army(game, 0, command_zone=["H/E8", "H/M1"])
    set_army(game, 1, {"H": ["H"]})
    end_age_now(game)
    play(game, "enlist H/E8 H", "enlist H/M1 H")
    # Seat 0 has 2 hunter ranks against 1: the Hunting Master swaps her 0 for the 3*.
    awarded = {e.distinction.token: e.player for e in events_of(game, ev.DistinctionAwarded)
               if e.player is not None}
    assert awarded.get(C.HUNTING_MASTER.token) == 0
    assert game.state.players[0].ranks[Suit.HUNTER] == 2
