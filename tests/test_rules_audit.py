"""Independent rules audit: rulebook paragraphs not covered elsewhere, and the
discrepancies found between the engine and the rulebooks / the rulings.

Sources: FR = the French rulebook (base rules + Thingvellir, cited by heading), DE = the
German rulebook (base rules), R<n> = docs/rulings.md.
Each test covers a rule no other test file checks, or one the audit found the engine
breaking (since fixed: Bonfur / Dagda could dodge their discard through Thrud).
"""

from __future__ import annotations

from scripted import army, coin_labels, deal_game, legal, play, set_army, set_coins
from test_rules_end_of_age import awarded, end_age1
from test_rules_thingvellir import MERCS1, cz, tv_game

from nidavellir import cards as C
from nidavellir import coins as K
from nidavellir import events as ev
from nidavellir.game import Game

ONE_LINE_BUT_E = {"W": ["W3"], "H": ["H"], "M": ["M0"], "B": ["B"]}
# Seat 0 outbids the others everywhere (5 > 4 > 3, 4 > 3 > 2, 3 > 2 > 0).
BIDS = ("bid 5 4 3", "bid 4 3 2", "bid 3 2 0")


def traded(g: Game, seat: int) -> list[tuple[tuple[str, ...], str, str]]:
    return [(e.coins, e.given_up, e.new) for e in g.events
            if isinstance(e, ev.CoinTraded) and e.player == seat]


# ====================================================================== bids and turns


def test_bids_stay_face_down_until_their_reveal_even_after_a_transform() -> None:
    """FR "LES MISES": coins are bid face down; FR "RÉVÉLATION DE LA MISE": only the
    current tavern's coin is revealed. FR "Transformer une pièce": the new coin takes
    the old one's place (DE example: a face-down 7 on the Dragon becomes a face-down
    10). The purse stays hidden too (FR "Échanger des pièces": "Remettez face cachée")."""
    g = deal_game(3, age1=["+3", "W3", "W4"], gems=[3, 4, 5])
    play(g, "bid 5 2 3", "bid 4 3 2", "bid 3 4 5", "take +3", "transform 2@T2")
    seen_by_1 = g.observation(1)["players"][0]
    assert seen_by_1["bids"] == ["5", "?", "?"]
    assert seen_by_1["purse"] == 2 and seen_by_1["hand"] == 0
    assert g.observation(0)["players"][0]["bids"] == ["5", "5", "3"]
    play(g, "take W3", "take W4")
    assert g.observation(1)["players"][0]["bids"] == ["5", "5", "?"]


def test_the_hero_comes_before_the_trade_grid_upgrades_a_purse_coin() -> None:
    """FR "TOUR DE L'ELVALAND ACTIF·VE" (DE "3b. Züge der Elvaland"): take a card, then
    recruit heroes, then trade if the bid is the 0. Grid's +7 on a purse coin (3 ->
    10) is therefore part of the trade: 2 + 10 = 12, the higher coin (10) goes back."""
    g = deal_game(3, age1=["W4", "W5", "E5"], gems=[3, 4, 5])
    set_army(g, 0, ONE_LINE_BUT_E)
    play(g, "bid 0 5 4", "bid 4 3 2", "bid 3 2 0")
    assert g.state.order == [1, 2, 0]
    play(g, "take W4", "take W5", "take E5", "hero Grid")
    assert "transform 3@purse" in legal(g)
    play(g, "transform 3@purse")
    assert traded(g, 0) == [(("2", "10"), "10", "12")]
    assert coin_labels(g, 0) == ["0", "2", "4", "5", "12"]
    assert g.state.treasury.counts[10] == 2  # the gold 10 went back


def test_hunting_master_coin_bids_as_a_3_ties_swap_gems_and_trades() -> None:
    """FR "Maître·esse de Chasse": the special 3 keeps the exchange property; it bids
    as a 3, so it ties with a bronze 3 (FR "RÉVÉLATION DE LA MISE": the higher gem
    goes first; "ÉCHANGE DE GEMMES": the two swap gems), and its owner trades."""
    g = deal_game(3, age1=["W3", "W4", "W5"], gems=[3, 4, 5])
    set_coins(g, 0, ["3*", 2, 3, 4, 5])
    play(g, "bid 3* 5 4", "bid 3 4 5", "bid 2 3 4")
    assert g.state.order == [1, 0, 2] and g.state.ties == [[1, 0]]
    play(g, "take W3", "take W4")
    assert traded(g, 0) == [(("2", "3"), "3", "5")]
    play(g, "take W5")
    assert [p.gem for p in g.state.players] == [4, 3, 5]
    assert coin_labels(g, 0) == ["2", "3*", "4", "5", "5"]


def test_a_camp_visitor_who_bid_the_exchange_coin_still_trades() -> None:
    """FR Thingvellir "Nouvelles règles": the winner may take a camp card *instead of*
    a tavern card; the rest of the turn is unchanged (FR "TOUR DE L'ELVALAND ACTIF·VE":
    trade if the 0 was played). Three 0s tie: gems decide, the 5 and the 3 swap."""
    g = tv_game(3, age1=["W3", "W4", "W5"], gems=[5, 4, 3], camp1=MERCS1)
    play(g, "bid 0 5 4", "bid 0 5 4", "bid 0 5 4")
    assert g.state.order == [0, 1, 2]
    play(g, "camp W6/E8")
    assert cz(g, 0) == ["W6/E8"]
    assert traded(g, 0) == [(("2", "3"), "3", "5")]
    play(g, "take W3", "take W4")
    assert C.card("W5") in g.state.discard  # the extra tavern card
    assert [p.gem for p in g.state.players] == [3, 4, 5]


# ====================================================================== Uline


def uline_game() -> Game:
    """Seat 0 completes a line with E5 and recruits Uline in the Laughing Goblin."""
    g = deal_game(3, age1=["E5", "W4", "W5", "+3", "H", "H", "B", "B", "B"], gems=[3, 4, 5])
    set_army(g, 0, ONE_LINE_BUT_E)
    play(g, *BIDS, "take E5", "hero Uline", "take W4", "take W5")
    return g


def test_uline_transforms_a_hand_coin_back_into_her_hand_and_placed_coins_stay() -> None:
    """FR "ULINE LA VOYANTE": a coin transformed from her hand goes back to her hand;
    coins she put on the board stay there until the end of the round (only hand coins
    can be placed on later taverns)."""
    g = uline_game()
    p = g.state.players[0]
    play(g, "place 4")
    assert g.state.order == [0, 1, 2]
    play(g, "take +3")
    assert "transform 3@hand" in legal(g) and "transform 4@T2" in legal(g)
    play(g, "transform 3@hand")
    assert [K.label(c) for c in p.hand] == ["0", "2", "6"]
    assert [K.label(c) if c is not None else None for c in p.bids] == ["5", "4", None]
    play(g, "take H", "take H")
    assert g.decision.kind == "uline_bid"
    assert legal(g) == ["place 0", "place 2", "place 6"]


def test_uline_can_bid_the_coin_of_her_trade_later_in_the_same_round() -> None:
    """DE "ULINE": "Du darfst die erhaltene Münze ab sofort (also auch bei den folgenden
    Tavernen in der gleichen Runde) nutzen"; FR "ULINE": the new coin goes to her hand."""
    g = uline_game()
    play(g, "place 0")  # the others bid 3 and 2: she plays last
    assert g.state.order == [1, 2, 0]
    play(g, "take +3", "transform 5@purse", "take H", "take H")
    assert g.decision.kind == "uline_trade"
    play(g, "trade 3 4")
    assert [K.label(c) for c in g.state.players[0].hand] == ["2", "3", "7"]
    assert "place 7" in legal(g)
    play(g, "place 7")  # against 2 and 0
    assert g.state.order == [0, 1, 2]


# ====================================================================== end of age 1


TWO_LINES_BUT_B = {"W": ["W3", "W4"], "H": ["H", "H"], "M": ["M0", "M1"], "B": ["B"],
                   "E": ["E5", "E6"]}
RIVAL = {"W": ["W5", "W6"], "H": ["H", "H"], "M": ["M0", "M2"], "E": ["E7", "E8"]}


def test_distinctions_are_awarded_one_after_the_other() -> None:
    """FR "Fin de l'Age 1": the distinctions are awarded in this order, each majority
    when its turn comes: the King's Great Armorer completes a 2nd line, the hero it
    recruits (Idunn, explorer) breaks the explorer tie, so Pioneer goes to seat 0."""
    g = end_age1(3, {0: TWO_LINES_BUT_B, 1: RIVAL}, command_zones={0: ["Skaa"]},
                 gems=[3, 4, 5])
    assert g.decision.kind == "hero" and g.decision.player == 0
    assert [a for a, _ in awarded(g)] == ["King's Hand", "Hunting Master", "Crown Jeweler",
                                          "King's Great Armorer"]
    play(g, "hero Idunn")
    assert awarded(g)[-1] == ("Pioneer of the Kingdom", 0)
    assert g.decision.kind == "pioneer" and g.decision.player == 0


def test_ylud_recruited_during_the_troop_evaluation_waits_for_the_end_of_age_2() -> None:
    """FR "YLUD L'IMPRÉVISIBLE": she is placed just after the last tavern of age 1,
    *before* the troop evaluation (R14); recruited later (here through the King's
    Great Armorer's line) she stays in the command zone until the end of age 2."""
    g = end_age1(3, {0: TWO_LINES_BUT_B, 1: RIVAL}, command_zones={0: ["Skaa"]},
                 gems=[3, 4, 5])
    play(g, "hero Ylud")
    assert g.state.age == 2 and g.decision.kind == "bid"
    p = g.state.players[0]
    assert C.YLUD in p.command_zone and p.column_of(C.YLUD) is None
    assert awarded(g)[-1] == ("Pioneer of the Kingdom", None)  # Ylud gave no rank


# ====================================================================== Dagda / Bonfur


def test_r16_dagda_discards_vegvisir_the_special_blacksmith_or_a_mercenary() -> None:
    """R16 (FR Thingvellir glossary, OLWYN): Dagda may discard any non-hero card on top
    of a column: a mercenary, the special blacksmith card, Vegvisir; R15: they go to
    the dwarf discard."""
    g = tv_game(3, age1=["H", "W4", "W5"])
    set_army(g, 0, {"W": ["W6/E8"], "M": ["M0"], "B": ["B*"], "E": ["Vegvisir"]})
    play(g, "bid 5 4 3", "bid 4 5 2", "bid 3 2 5", "take H")
    assert g.decision.kind == "hero"
    play(g, "hero Dagda")
    assert sorted(legal(g)) == ["discard B", "discard E", "discard M", "discard W"]
    play(g, "discard E", "discard B")
    assert [c.token for c in g.state.discard] == ["Vegvisir", "B*"]
    assert army(g, 0)["W"] == ["W6/E8"] and army(g, 0)["H"] == ["H", "Dagda"]
    play(g, "take W4")  # seat 1 plays: Dagda's turn is over
    assert g.state.players[0].lines == 0


def test_bonfur_lifting_thrud_cannot_dodge_his_discard() -> None:
    """FR "BONFUR LE TYRANNIQUE": place Bonfur and *immediately* discard the top dwarf
    of another column; FR "Bonfur et Dagda", ATTENTION / R10: if that is not possible
    he cannot be chosen. DE "Abwerfen": "musst du ... ablegen ... Führe zuerst diesen
    Effekt aus". Thrud (on top of the blacksmith column) is lifted by Bonfur (FR
    "THRUD", R13); whatever the order of the two effects, the discard is not optional:
    re-placing Thrud on the only discardable column (W) must not cancel it."""
    g = deal_game(3, age1=["W5", "E5", "W8"], gems=[3, 4, 5])
    set_army(g, 0, {"W": ["W3", "W4", "W6", "W7"], "H": ["H", "H", "H", "Aral"],
                    "M": ["M0", "M0", "M1", "M1", "Lokdur"],
                    "B": ["B", "B", "B", "B", "Thrud"],
                    "E": ["E6", "E7", "E8", "E9", "Idunn"]})
    play(g, *BIDS, "take W5")
    assert g.decision.kind == "hero"
    assert "hero Bonfur" in legal(g) and "hero Dagda" not in legal(g)  # only W can lose a card
    play(g, "hero Bonfur")
    while g.decision.player == 0 and g.decision.kind in ("thrud", "discard"):
        choices = legal(g)
        play(g, "thrud W" if "thrud W" in choices else choices[0])
    assert [c.token for c in g.state.discard] == ["W5"]
    assert g.decision.kind == "pick" and g.decision.player == 1


# ====================================================================== Thrud


def test_vegvisir_from_the_camp_lifts_thrud() -> None:
    """FR "THRUD": she is never covered; FR "VEGVISIR": it goes at once into the
    explorer column: Thrud on top there is lifted and placed again (R13)."""
    g = tv_game(3, age1=["W3", "W4", "W5"], camp1=["Vegvisir"] + MERCS1[:4])
    set_army(g, 0, {"E": ["E5", "Thrud"]})
    play(g, "bid 5 4 3", "bid 4 5 2", "bid 3 2 5", "camp Vegvisir")
    assert g.decision.kind == "thrud" and g.decision.player == 0
    assert army(g, 0)["E"] == ["E5", "Vegvisir"]
    play(g, "thrud E")
    assert army(g, 0)["E"] == ["E5", "Vegvisir", "Thrud"]
    assert g.state.players[0].ranks[C.E] == 3


def test_an_olwyn_double_lifts_thrud() -> None:
    """FR "THRUD" and "OLWYN L'ILLUSIONNISTE": a double placed on Thrud's column lifts
    her; she is placed again, then the second double goes to another column."""
    g = tv_game(3, age1=["E5", "W4", "W5"], camp1=MERCS1)
    set_army(g, 0, {"W": ["W3", "Thrud"], "H": ["H", "H"], "M": ["M0", "M1"],
                    "B": ["B", "B"], "E": ["E6"]})
    play(g, "bid 5 4 3", "bid 4 5 2", "bid 3 2 5", "take E5", "hero Olwyn", "double W")
    assert g.decision.kind == "thrud"
    play(g, "thrud M")
    assert army(g, 0)["W"] == ["W3", "Olwyn Double"] and army(g, 0)["M"][-1] == "Thrud"
    assert g.decision.kind == "olwyn" and "double W" not in legal(g)


# ---------------------------------------------------------------------- documented choices

def test_a_mercenary_gained_during_your_own_enlistment_turn_is_placed_at_once() -> None:
    """docs/rules.md choice 13 (FR p.24 "À votre tour, placez toutes vos cartes
    Mercenaire"): a placement completes a line, the hero is Holda, she takes a mercenary
    from the camp; that mercenary is enlisted in the same turn, even at the end of age 1."""
    from test_rules_thingvellir import end_age_now, tv_game

    g = tv_game(3)
    set_army(g, 0, {"W": ["W3"], "H": ["H"], "M": ["M0"], "B": ["B"]},
             command_zone=["H/E8"])
    g.state.hall = [C.HOLDA]
    g.state.camp = [C.card("W6/B")]
    end_age_now(g)
    play(g, "enlist H/E8 E")          # the fifth class: a line, so a hero
    play(g, "hero Holda", "choose W6/B")
    assert g.decision is not None and g.decision.kind == "mercenary"
    assert g.decision.player == 0
    play(g, "enlist W6/B W")
    assert army(g, 0)["W"] == ["W3", "W6/B"]
    assert not [c for c in g.state.players[0].command_zone if c.kind is C.Kind.MERCENARY]


def test_zolkur_is_spent_even_when_the_trade_finds_no_coin() -> None:
    """docs/rules.md choice 14, R6: with nothing in the treasury the trade changes no coin,
    and Zolkur still goes back to the command zone (his next trade has happened)."""
    g = deal_game(3, age1=["W3", "W4", "W5", "E5", "E6", "E7", "H", "H", "H"],
                  gems=[5, 4, 3])
    set_army(g, 0, {}, command_zone=["Zolkur"])
    g.state.players[0].marks[C.ZOLKUR] = True
    g.state.treasury.counts = [0] * len(g.state.treasury.counts)
    play(g, "bid 0 2 3", "bid 5 4 3", "bid 4 3 2", "take W3", "take W4", "take W5")
    p = g.state.players[0]
    assert C.ZOLKUR not in p.marks
    assert coin_labels(g, 0) == ["0", "2", "3", "4", "5"]
    traded = [e for e in g.events if e.kind == "CoinTraded"]
    assert traded and traded[-1].given_up == traded[-1].new == "4"
