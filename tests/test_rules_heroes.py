"""Scripted rule tests: hero recruitment and the heroes' powers (base game).

FR "Recruter un·e Héros·ïne", "Plusieurs lignes complétées par la pose d'une carte
Héro·ïne ou de la carte Distinction Forgeronne", "Capacités des cartes Héros·ïne"
(THRUD, ULINE, GRID, DAGDA, BONFUR, "Bonfur et Dagda", HOURYA); rulings R10, R12, R13.

Every scenario: 3 players, gems 3/4/5; the first player bids highest everywhere
(bid 5 4 3 against 4 3 2 and 3 2 0) and so picks first in each tavern.
"""

from __future__ import annotations

import pytest
from scripted import army, coin_labels, deal_game, decision, legal, play, set_army, task

from nidavellir import cards as C
from nidavellir import coins as K
from nidavellir import events as ev
from nidavellir.errors import IllegalAction
from nidavellir.rules.decisions.coins import Transform

BIDS = ("bid 5 4 3", "bid 4 3 2", "bid 3 2 0")
ONE_LINE_BUT_E = {"W": ["W3"], "H": ["H"], "M": ["M0"], "B": ["B"]}


def start(army_spec, age1=("E5", "W4", "W5"), command_zone=()):
    g = deal_game(3, age1=list(age1), gems=[3, 4, 5])
    set_army(g, 0, army_spec, command_zone=command_zone)
    play(g, *BIDS)
    assert g.state.order == [0, 1, 2]
    return g


def heroes_offered(g):
    return [a.split(" ", 1)[1] for a in legal(g)]


def test_completing_a_line_recruits_a_hero() -> None:
    """FR "Recruter un·e Héros·ïne": a line of one rank of each class obliges the
    player to choose a hero at once; a neutral hero goes to the command zone."""
    g = start(ONE_LINE_BUT_E)
    play(g, "take E5")
    assert g.decision.kind == "hero" and g.decision.player == 0
    assert len(legal(g)) == 20 and "Hourya" not in heroes_offered(g)
    play(g, "hero Skaa")
    p = g.state.players[0]
    assert p.heroes == 1 and p.command_zone == [C.SKAA] and C.SKAA not in g.state.hall
    assert g.decision.kind == "pick" and g.decision.player == 1


def test_no_recruit_without_a_new_line() -> None:
    """FR "Recruter un·e Héros·ïne", ATTENTION: a new hero only when complete lines =
    heroes recruited + 1."""
    g = start({"W": ["W3"], "H": ["H"], "M": ["M0"], "B": ["B"], "E": ["E6"]},
              command_zone=["Skaa"])
    play(g, "take E5")
    assert g.decision.kind == "pick" and g.decision.player == 1


def test_aegur_completes_two_lines_two_more_recruits_r12() -> None:
    """FR "Plusieurs lignes complétées...": Serge places a blacksmith, completes a line
    and recruits Aëgur, whose 2 ranks complete two more lines: 2 more heroes, one
    after the other (R12)."""
    g = start({"W": ["W3", "W4", "W5"], "H": ["H", "H", "H"], "M": ["M0", "M1", "M2"],
               "E": ["E5", "E6", "E7"]}, age1=("B", "W6", "W7"))
    play(g, "take B", "hero Aëgur")
    p = g.state.players[0]
    assert p.ranks[C.B] == 3 and p.lines == 3
    assert g.decision.kind == "hero" and g.decision.player == 0
    play(g, "hero Skaa")
    assert g.decision.kind == "hero" and g.decision.player == 0
    play(g, "hero Astrid")
    assert g.decision.kind == "pick" and g.decision.player == 1
    assert p.heroes == 3


@pytest.mark.parametrize("hero, suit, ranks", [
    ("Kraal", "W", 2), ("Tarah", "W", 1), ("Aral", "H", 2), ("Aëgur", "B", 2),
    ("Zoral", "M", 3), ("Lokdur", "M", 1), ("Idunn", "E", 1)])
def test_class_heroes_ranks(hero: str, suit: str, ranks: int) -> None:
    """FR "Capacités des cartes Héros·ïne": a class hero goes on top of its column with
    its ranks (Kraal 2, Tarah 1, Aral 2, Aëgur 2, Zoral 3, Lokdur 1, Idunn 1)."""
    g = start(ONE_LINE_BUT_E)
    play(g, "take E5", f"hero {hero}")
    p = g.state.players[0]
    assert army(g, 0)[suit][-1] == C.card(hero).token
    assert p.ranks[C.Suit.parse(suit)] == 1 + ranks


@pytest.mark.parametrize("helper", ["Thrud", "Ylud"])
def test_hourya_needs_five_explorer_ranks_thrud_ylud_count(helper: str) -> None:
    """FR "HOURYA": 5 explorer ranks needed to recruit her; Thrud's and Ylud's rank
    count when they lie in the explorer column."""
    g = start({"W": ["W3", "W4"], "H": ["H", "H"], "M": ["M0", "M1"], "B": ["B"],
               "E": ["E6", "E7", "E8", "E9", helper]}, age1=("B", "W5", "W6"))
    play(g, "take B")
    assert g.decision.kind == "hero"
    assert "Hourya" in heroes_offered(g)
    play(g, "hero Hourya")
    if helper == "Thrud":
        # Hourya would cover Thrud: Thrud is lifted and placed again (R13).
        assert g.decision.kind == "thrud"
        play(g, "thrud E")
    assert army(g, 0)["E"][-1] == ("Thrud" if helper == "Thrud" else "Hourya")


def test_hourya_refused_with_four_explorer_ranks() -> None:
    """FR "HOURYA": with only 4 explorer ranks she cannot be recruited."""
    g = start({"W": ["W3"], "H": ["H"], "M": ["M0"], "E": ["E6", "E7", "E8", "E9"]},
              age1=("B", "W5", "W6"))
    play(g, "take B")
    assert "Hourya" not in heroes_offered(g)
    with pytest.raises(IllegalAction, match="explorer ranks"):
        g.apply("hero Hourya")


def test_dagda_discards_two_different_columns_lines_lost_keep_heroes_r10() -> None:
    """FR "DAGDA": discard the top dwarf of two different other columns. FR "Bonfur et
    Dagda" / R10: the lines lost never cost a hero; no recruit until lines exceed the
    heroes again."""
    g = start(ONE_LINE_BUT_E)
    play(g, "take E5", "hero Dagda")
    p = g.state.players[0]
    assert p.ranks[C.H] == 4
    assert g.decision.kind == "discard"
    assert sorted(legal(g)) == ["discard B", "discard E", "discard M", "discard W"]
    play(g, "discard W")
    assert sorted(legal(g)) == ["discard B", "discard E", "discard M"]
    play(g, "discard E")
    assert g.state.discard[-2:] == [C.card("W3"), C.card("E5")]
    assert p.lines == 0 and p.heroes == 1 and C.DAGDA in p.army[C.H]
    assert g.decision.kind == "pick" and g.decision.player == 1


def test_dagda_refused_bonfur_allowed_r10() -> None:
    """FR "Bonfur et Dagda", ATTENTION / R10: only non-hero top cards may be discarded;
    Dagda needs 2 such other columns (here only B), Bonfur 1 (here H)."""
    g = start({"W": ["W3", "W4", "W5", "Tarah"], "H": ["H", "H", "H", "H"],
               "M": ["M0", "M0", "M1", "Lokdur"], "B": ["B", "B", "B"],
               "E": ["E5", "E6", "E7", "Idunn"]}, age1=("B", "W6", "W7"))
    play(g, "take B")
    assert g.decision.kind == "hero"
    offered = heroes_offered(g)
    assert "Dagda" not in offered and "Bonfur" in offered
    with pytest.raises(IllegalAction, match="R10"):
        g.apply("hero Dagda")
    play(g, "hero Bonfur")
    assert legal(g) == ["discard H"]  # never a hero, never its own column (R10)
    with pytest.raises(IllegalAction, match="never discarded"):
        g.apply("discard W")
    play(g, "discard H")
    p = g.state.players[0]
    assert p.ranks[C.B] == 4 + 3  # Bonfur: 3 ranks
    assert p.heroes == 4 and p.lines == 3  # the line lost costs no hero
    assert [c.token for c in p.army[C.W]][-1] == "Tarah"
    assert g.decision.kind == "pick" and g.decision.player == 1


def test_dagda_and_bonfur_refused_when_every_other_top_is_a_hero_r10() -> None:
    """R10: with every other column topped by a hero neither is offered."""
    g = start({"W": ["W3", "W4", "W5", "W6", "Tarah"], "H": ["H", "H", "H", "H", "Aral"],
               "M": ["M0", "M0", "M1", "M1", "Lokdur"], "B": ["B", "B", "B", "B"],
               "E": ["E5", "E6", "E7", "E8", "Idunn"]}, age1=("B", "W7", "W8"))
    play(g, "take B")
    offered = heroes_offered(g)
    assert g.decision.kind == "hero"
    assert "Dagda" not in offered and "Bonfur" not in offered


def test_recruit_skipped_when_no_hero_is_eligible_r12() -> None:
    """R12: if no hero is eligible the recruit is skipped, and comes back only when
    the lines increase again."""
    g = deal_game(3, age1=["E5", "W4", "W5", "H", "W6", "W7", "E6", "W8", "W9"],
                  gems=[3, 4, 5])
    set_army(g, 0, ONE_LINE_BUT_E)
    g.state.hall = [C.HOURYA]
    play(g, *BIDS, "take E5")
    assert decision(g).kind == "pick" and decision(g).player == 1
    assert any(isinstance(e, ev.RecruitSkipped) and e.player == 0 for e in g.events)
    g.state.hall = [C.HOURYA, C.SKAA]
    play(g, "take W4", "take W5", "take H")  # same lines: Skaa is not offered
    assert decision(g).kind == "pick" and decision(g).player == 1
    play(g, "take W6", "take W7")
    set_army(g, 0, {"W": ["W3", "W4"], "H": ["H", "H"], "M": ["M0", "M1"], "B": ["B", "B"],
                    "E": ["E5"]})
    play(g, "take E6")  # the 2nd line
    assert decision(g).kind == "hero" and legal(g) == ["hero Skaa"]


def test_thrud_placed_in_any_column() -> None:
    """FR "THRUD": placed at once in the column of the player's choice; 1 rank there."""
    g = start(ONE_LINE_BUT_E)
    play(g, "take E5", "hero Thrud")
    assert g.decision.kind == "thrud"
    assert sorted(legal(g)) == ["thrud B", "thrud E", "thrud H", "thrud M", "thrud W"]
    play(g, "thrud M")
    p = g.state.players[0]
    assert army(g, 0)["M"] == ["M0", "Thrud"] and p.ranks[C.M] == 2


@pytest.mark.parametrize("column, recruits", [("E", True), ("W", False)])
def test_thrud_replaced_before_the_recruitment_loop_r13(column: str, recruits: bool) -> None:
    """R13 / FR "THRUD": a card that would cover Thrud: lift her, place the card, place
    her again (same column or another), then check the lines: placed in the explorer
    column she completes the 2nd line."""
    g = start({"W": ["W3", "W4", "Thrud"], "H": ["H", "H"], "M": ["M0", "M1"],
               "B": ["B", "B"], "E": ["E5"]}, age1=("W5", "W6", "W7"))
    play(g, "take W5")
    assert g.decision.kind == "thrud" and g.decision.player == 0
    assert army(g, 0)["W"] == ["W3", "W4", "W5"]
    play(g, f"thrud {column}")
    assert army(g, 0)[column][-1] == "Thrud"
    if recruits:
        assert g.decision.kind == "hero" and g.decision.player == 0
    else:
        assert g.decision.kind == "pick" and g.decision.player == 1


def test_thrud_lifted_by_a_hero() -> None:
    """FR "THRUD": a hero card that would cover Thrud lifts her too (Tarah, warrior)."""
    g = start({"W": ["W3", "Thrud"], "H": ["H", "H"], "M": ["M0", "M1"], "B": ["B", "B"],
               "E": ["E5"]}, age1=("E6", "W6", "W7"))
    play(g, "take E6", "hero Tarah")
    assert g.decision.kind == "thrud"
    play(g, "thrud W")
    assert army(g, 0)["W"] == ["W3", "Tarah", "Thrud"]


def test_grid_transforms_a_coin_by_7() -> None:
    """FR "GRID LA MERCANTILE": on recruit, +7 to one coin anywhere on the board (FR
    "Transformer une pièce"), never the exchange coin."""
    g = start(ONE_LINE_BUT_E)
    play(g, "take E5", "hero Grid")
    assert g.decision.kind == "transform" and task(g, Transform).bonus == 7
    assert legal(g) == ["transform 2@purse", "transform 3@T3", "transform 4@T2",
                        "transform 5@T1"]
    play(g, "transform 4@T2")
    assert K.label(g.state.players[0].bids[1]) == "11"  # on an unresolved tavern: the bid


def test_uline() -> None:
    """FR "ULINE LA VOYANTE": on recruit her purse coins and the bids on unresolved
    taverns return to her hand; she bids no more in the bidding phase but puts a coin
    face up after the others' reveal (it joins ties and gem exchanges); with the
    exchange coin she chooses which two hand coins to trade, the new coin to her hand."""
    g = start(ONE_LINE_BUT_E, age1=("E5", "W4", "W5", "H", "H", "H", "B", "B", "B"))
    play(g, "take E5", "hero Uline")
    p = g.state.players[0]
    assert [K.label(c) for c in p.hand] == ["0", "2", "3", "4"]
    assert [K.label(c) if c is not None else None for c in p.bids] == ["5", None, None]
    assert p.purse == []
    play(g, "take W4", "take W5")
    # Tavern 2: the others bid 3 and 2; Uline places after the reveal.
    assert g.decision.kind == "uline_bid" and g.decision.player == 0
    assert legal(g) == ["place 0", "place 2", "place 3", "place 4"]
    play(g, "place 0")
    assert g.state.order == [1, 2, 0]
    play(g, "take H", "take H", "take H")
    assert g.decision.kind == "uline_trade"
    assert legal(g) == ["trade 2 3", "trade 2 4", "trade 3 4"]
    play(g, "trade 3 4")
    assert [K.label(c) for c in p.hand] == ["2", "3", "7"]
    # Tavern 3: the others bid 2 and 0; Uline's 2 ties with the player on 2.
    assert g.decision.kind == "uline_bid"
    play(g, "place 2")
    assert g.state.order == [1, 0, 2] and g.state.ties == [[1, 0]]
    play(g, "take B", "take B", "take B")
    assert [p.gem for p in g.state.players][:2] == [4, 3]
    # Next round: only the two other players bid.
    assert g.decision.kind == "bid" and g.decision.player == 1
    play(g, "bid 5 4 3")
    assert g.decision.kind == "bid" and g.decision.player == 2
    assert coin_labels(g, 0) == ["0", "2", "3", "5", "7"]


def test_uline_trade_automatic_with_two_coins() -> None:
    """FR "ULINE": with exactly two coins left in hand the trade needs no choice."""
    g = start(ONE_LINE_BUT_E, age1=("E5", "W4", "W5", "H", "H", "H", "B", "B", "B"))
    play(g, "take E5", "hero Uline", "take W4", "take W5", "place 4",
         "take H", "take H", "take H", "place 0")
    assert g.state.order == [1, 2, 0]  # her 0 ties with the other 0: gem 5 beats gem 3
    play(g, "take B", "take B", "take B")
    traded = [e for e in g.events if isinstance(e, ev.CoinTraded) and e.player == 0]
    assert [(e.coins, e.given_up, e.new) for e in traded] == [(("2", "3"), "3", "5")]
    assert coin_labels(g, 0) == ["0", "2", "4", "5", "5"]


def test_uline_recruited_with_her_exchange_coin_on_the_current_tavern() -> None:
    """FR "ULINE" (her power starts as soon as she is taken):
    recruited on the turn her 0 is the current bid, she trades two coins of her
    enlarged hand, chosen by her."""
    g = deal_game(3, age1=["E5", "W4", "W5"], gems=[5, 4, 3])
    set_army(g, 0, ONE_LINE_BUT_E)
    play(g, "bid 0 4 3", "bid 0 3 2", "bid 0 2 4")
    assert g.state.order == [0, 1, 2]
    play(g, "take E5", "hero Uline")
    assert decision(g).kind == "uline_trade" and decision(g).player == 0
    assert legal(g) == ["trade 2 3", "trade 2 4", "trade 2 5", "trade 3 4", "trade 3 5",
                        "trade 4 5"]
    play(g, "trade 4 5")
    assert [K.label(c) for c in g.state.players[0].hand] == ["2", "3", "4", "9"]


def test_thrud_leaves_for_the_command_zone_at_the_end_of_age_2_and_it_is_told() -> None:
    """FR "THRUD" (R14's order): at the end of age 2 Thrud leaves her column for the
    command zone, where she scores 13; the engine records it as an event, so logs and
    summaries tell it (issue 44)."""
    from nidavellir import Game
    from nidavellir.lessons import builtin

    game = Game.from_record(builtin("heroes").record())
    moved = [e for e in game.events if isinstance(e, ev.CardToCommandZone)]
    assert [(e.player, e.card, e.column, e.age) for e in moved] == [(0, C.THRUD, C.H, 2)]
    you = game.state.players[0]
    assert C.THRUD in you.command_zone and you.column_of(C.THRUD) is None
    assert moved[0].describe(game.names) == ("You move Thrud from the hunter column to the "
                                             "command zone")
    ended = next(i for i, e in enumerate(game.events) if isinstance(e, ev.GameEnded))
    assert game.events.index(moved[0]) < ended
