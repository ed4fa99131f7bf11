"""The search's playout policy reads the score pad for every decision it plays on purpose.

``heuristic_policy`` (nidavellir/bots/playout.py) picks cards by their worth to the player;
these tests pin the other decisions it plays by the score pad's formulas instead of at random:
a hero by what it is worth to this player now (FR p.14 "Capacités des cartes Héros·ïne"),
a mercenary's side and column (FR Thingvellir p.24), Thrud's column (FR "THRUD"), a card from
a pile (FR Thingvellir "BRISINGAMENS", "HOLDA"), and a discard from the army (R10, R16).
Each position is built so that the right choice differs from what a static estimate, or
chance, would give.
"""

from __future__ import annotations

import random

from scripted import deal_game, set_army, set_coins

from nidavellir import cards as C
from nidavellir.actions import Action
from nidavellir.bots import play_game
from nidavellir.bots.playout import hero_value, hero_worth, heuristic_policy
from nidavellir.determinize import rank_gain
from nidavellir.engine import Engine
from nidavellir.game import Game
from nidavellir.rules.army import LINE_WORTH, PROGRESS_WORTH
from nidavellir.rules.base import Choice
from nidavellir.rules.decisions import (
    ArmyDiscard,
    BrisingamensChoice,
    ColumnDiscard,
    Enlist,
    HoldaChoice,
    ThrudColumn,
)
from nidavellir.rules.heroes import HeroChoice
from nidavellir.scoring import score_player, tables_of


def policy_choice(game: Game, decision: Choice, seeds: int = 20) -> Action:
    """What the policy plays at ``decision`` (pushed on the game's stack), the same for
    every random generator: these choices are never left to chance."""
    chosen = set()
    for seed in range(seeds):
        state = game.state.copy()
        state.tasks.append(decision)
        eng = Engine(state, quiet=True)
        action = heuristic_policy(eng, random.Random(seed))
        assert action in eng.legal_actions()
        chosen.add(action)
    assert len(chosen) == 1, f"the policy chose {sorted(map(str, chosen))}"
    return chosen.pop()


def hero_decision(game: Game, hall: list[str]) -> HeroChoice:
    game.state.hall = [C.card(h) for h in hall]
    return HeroChoice(0)


def test_a_class_hero_is_worth_what_its_ranks_add_to_this_players_column() -> None:
    # Five hunters: Aral's two hunter ranks take the column from 25 to 49 points (hunters
    # score n²), more than Skaa's 17 or Kraal's 7 warrior points; a static worth ranks
    # Aral last of the three.
    game = deal_game(3, seed=1)
    set_army(game, 0, {"H": ["H"] * 5})
    hall = ["Kraal", "Skaa", "Aral"]
    assert max(hall, key=lambda h: hero_worth(C.card(h))) == "Skaa"
    assert hero_value(game.state.players[0], C.card("Aral")) == 24
    assert str(policy_choice(game, hero_decision(game, hall))) == "hero Aral"
    # Without the hunters Aral is worth little: Skaa's 17 points come first.
    set_army(game, 0, {"W": ["W3"]})
    assert str(policy_choice(game, hero_decision(game, hall))) == "hero Skaa"


def test_a_dwerg_brother_is_worth_what_one_more_brother_adds() -> None:
    # Two brothers score 40, three 81: the third is worth 41 to their owner, and only 13
    # (one brother) to a player who has none.
    game = deal_game(3, seed=1)
    set_army(game, 0, command_zone=["Dwerg Ymir", "Dwerg Aesir"])
    hall = ["Skaa", "Dwerg Sigmir"]
    assert hero_value(game.state.players[0], C.card("Dwerg Sigmir")) == 41
    assert hero_value(game.state.players[1], C.card("Dwerg Sigmir")) == 13
    assert str(policy_choice(game, hero_decision(game, hall))) == "hero Dwerg Sigmir"


def test_astrid_is_worth_the_players_highest_coin() -> None:
    game = deal_game(3, seed=1)
    set_coins(game, 0, [0, 2, 3, 4, 25])
    hall = ["Skaa", "Astrid"]
    assert hero_value(game.state.players[0], C.card("Astrid")) == 25
    assert str(policy_choice(game, hero_decision(game, hall))) == "hero Astrid"
    set_coins(game, 0, [0, 2, 3, 4, 5])
    assert str(policy_choice(game, hero_decision(game, hall))) == "hero Skaa"


def test_a_mercenary_is_enlisted_on_the_side_where_it_adds_most() -> None:
    # H/M1: four hunters make its hunter side worth 25 - 16 = 9 points; three M2 miners
    # make its miner side worth (6 + 1) x 4 - 6 x 3 = 10.
    game = deal_game(3, expansions=["thingvellir"], seed=1)
    set_army(game, 0, {"H": ["H"] * 4, "W": ["W3"], "M": ["M0"]}, command_zone=["H/M1"])
    assert str(policy_choice(game, Enlist(0))) == "enlist H/M1 H"
    set_army(game, 0, {"H": ["H"], "M": ["M2"] * 3, "W": ["W3"]}, command_zone=["H/M1"])
    assert str(policy_choice(game, Enlist(0))) == "enlist H/M1 M"


def test_thrud_goes_where_she_completes_a_line() -> None:
    game = deal_game(3, seed=1)
    set_army(game, 0, {"W": ["W3"], "H": ["H"] * 3, "M": ["M0"], "B": ["B"]})
    game.state.players[0].held.append(C.THRUD)
    assert str(policy_choice(game, ThrudColumn(0))) == "thrud E"


def test_brisingamens_takes_the_best_card_of_the_discard_and_never_skips_while_it_can() -> None:
    game = deal_game(3, expansions=["thingvellir"], seed=1)
    set_army(game, 0, {"H": ["H"] * 3})
    game.state.discard = [C.card("W3"), C.card("H"), C.card("M0")]
    assert str(policy_choice(game, BrisingamensChoice(0))) == "choose H"


def test_holda_takes_the_camp_card_worth_most_to_the_player() -> None:
    # Hrafnsmerki is worth 5 points per mercenary: with three mercenaries owned it beats
    # the W9/E11 mercenary's 11 explorer points.
    game = deal_game(3, expansions=["thingvellir"], seed=1)
    game.state.camp = [C.card("W9/E11"), C.card("Hrafnsmerki")]
    set_army(game, 0, command_zone=["H/M1", "B/M1", "W6/B"])
    assert str(policy_choice(game, HoldaChoice(0))) == "choose Hrafnsmerki"
    set_army(game, 0, command_zone=[])
    assert str(policy_choice(game, HoldaChoice(0))) == "choose W9/E11"


def test_a_discard_from_the_army_costs_the_least_it_can() -> None:
    # W10 is worth 10 points, the fourth hunter 16 - 9 = 7, the lone M0 nothing: Dagda's
    # discard (the top of a column, R10) and Brisingamens' (any card but a hero, R16)
    # both give up the M0.
    game = deal_game(3, expansions=["thingvellir"], seed=1)
    set_army(game, 0, {"W": ["W10"], "H": ["H"] * 4, "M": ["M0"]})
    assert str(policy_choice(game, ColumnDiscard(0, 1, "Dagda", ()))) == "discard M"
    assert str(policy_choice(game, ArmyDiscard(0, "Brisingamens"))) == "remove M0@M"


def test_rank_gain_is_what_the_scorer_adds_to_the_column_plus_the_line_worth() -> None:
    """The playouts' one rank formula (determinize.rank_gain, written in best_worth) against
    the scorer itself (FR "Déterminer la Valeur de Bravoure de chaque classe"): a dwarf or
    a class hero placed in its column adds exactly the column's points the scorer counts, plus
    LINE_WORTH when its class was the one lowest (it completes a line) or PROGRESS_WORTH
    when it was one of the lowest. Positions from seeded random games, every class."""
    # Every card of a class (Idunn aside: her entry adds to the explorers on top).
    cards = [c for c in C.ALL_CARDS if c.suit is not None and c is not C.IDUNN]
    category = dict(zip(C.SUITS, ("warriors", "hunters", "miners", "blacksmiths",
                                  "explorers"), strict=True))
    checked = 0
    for seed in range(6):
        game = play_game(3, "random", seed=seed)
        for index in range(0, len(game.history), 9):
            position = game.clone()
            position.undo_to(index)
            state = position.state
            for seat, p in enumerate(state.players):
                for card in cards:
                    suit = card.suit
                    assert suit is not None
                    if C.THRUD in p.army[suit] or (suit is C.Suit.EXPLORER
                                                   and C.IDUNN in p.army[suit]):
                        continue  # ranks the scorer does not count, bonuses it adds
                    ranks, bravery = card.column_value(suit)
                    after = state.copy()
                    after.players[seat].add_to_column(card, suit)
                    points = [score_player(tables_of(s)[seat], False, details=False)[0]
                              for s in (state, after)]
                    low = min(p.ranks)
                    line = 0.0
                    if ranks and p.ranks[suit] == low:
                        line = LINE_WORTH if p.ranks.count(low) == 1 else PROGRESS_WORTH
                    want = points[1][category[suit]] - points[0][category[suit]] + line
                    assert rank_gain(p, suit, ranks, bravery) == want
                    checked += 1
    assert checked >= 5000
