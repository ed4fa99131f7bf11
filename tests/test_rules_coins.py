"""Scripted rule tests: taking cards, exchange-coin trades, transforms, Royal Offerings.

FR "TOUR DE L'ELVALAND ACTIF·VE", "Échanger des pièces", "Défausser des pièces",
"Transformer une pièce"; rulings R2, R6, R7.
"""

from __future__ import annotations

import pytest
from scripted import bid, coin_labels, deal_game, decision, legal, play, set_coins, task

from nidavellir import cards as C
from nidavellir import coins as K
from nidavellir.errors import IllegalAction
from nidavellir.rules.decisions.coins import Transform

W_CARDS = ["W3", "W4", "W5", "W6", "W6", "W7", "W8", "W9", "H"]


def kinds(game, seat):
    """(value, 'g'/'b'/'*') of every coin of a player, sorted."""
    out = []
    for c in game.state.players[seat].coins():
        k = {K.GOLD: "g", K.BRONZE: "b", K.SPECIAL: "*"}[K.kind(c)]
        out.append((K.value(c), k))
    return sorted(out)


def test_take_a_dwarf_goes_to_its_column() -> None:
    """FR "Placer une carte Nain·e dans son armée": the card goes into the column of
    its class at once."""
    g = deal_game(3, age1=["W7", "H", "E5"], gems=[3, 4, 5])
    play(g, "bid 5 4 3", "bid 4 3 2", "bid 3 2 4")
    play(g, "take H", "take E5", "take W7")
    ps = g.state.players
    assert [c.token for c in ps[0].army[C.H]] == ["H"]
    assert [c.token for c in ps[1].army[C.E]] == ["E5"]
    assert [c.token for c in ps[2].army[C.W]] == ["W7"]


def test_exchange_coin_trade_bronze_leaves_the_game() -> None:
    """FR "Échanger des pièces" / "Défausser des pièces": playing the 0, the purse
    coins are summed (4 + 5 = 9), the higher (bronze 5) leaves the game and the 9 comes
    from the treasury into the purse. The trade follows the card (FR "TOUR DE
    L'ELVALAND ACTIF·VE")."""
    g = deal_game(3, age1=W_CARDS, gems=[3, 4, 5])
    before = len(g.state.treasury)
    play(g, "bid 0 2 3", "bid 5 4 3", "bid 5 4 3")
    assert g.state.order == [2, 1, 0]
    play(g, "take W3", "take W4")
    assert coin_labels(g, 0) == ["0", "2", "3", "4", "5"]
    play(g, "take W5")
    assert coin_labels(g, 0) == ["0", "2", "3", "4", "9"]
    assert sorted(K.label(c) for c in g.state.players[0].purse) == ["4", "9"]
    assert g.state.treasury.counts[9] == 0
    assert len(g.state.treasury) == before - 1  # the bronze 5 did not go back


def test_exchange_coin_trade_gold_goes_back() -> None:
    """FR "Défausser des pièces": a gold coin given up goes back to the treasury
    (purse 6 + 8 -> 14, the 8 returns)."""
    g = deal_game(3, age1=W_CARDS, gems=[3, 4, 5])
    set_coins(g, 0, [0, 2, 3, 6, 8])
    g.state.treasury.counts[6] -= 1
    g.state.treasury.counts[8] -= 1
    play(g, "bid 0 2 3", "bid 5 4 3", "bid 5 4 3", "take W3", "take W4", "take W5")
    assert kinds(g, 0) == [(0, "b"), (2, "b"), (3, "b"), (6, "g"), (14, "g")]
    assert g.state.treasury.counts[8] == 2
    assert g.state.treasury.counts[14] == 1


def test_equal_purse_coins_gold_goes_back_r7() -> None:
    """R7: trading a bronze 5 and a gold 5, the gold one goes back to the treasury and
    the bronze one stays."""
    g = deal_game(3, age1=W_CARDS, gems=[3, 4, 5])
    set_coins(g, 0, [0, 2, 3, "b5", 5])
    g.state.treasury.counts[5] -= 1
    play(g, "bid 0 2 3", "bid 5 4 3", "bid 5 4 3", "take W3", "take W4", "take W5")
    assert kinds(g, 0) == [(0, "b"), (2, "b"), (3, "b"), (5, "b"), (10, "g")]
    assert g.state.treasury.counts[5] == 2


def test_trade_pair_r7_unit() -> None:
    """R7 (coins.trade_pair): the higher coin is given up; of equal values the gold one."""
    assert K.trade_pair(K.bronze(5), K.gold(9)) == (K.gold(9), K.bronze(5))
    assert K.trade_pair(K.bronze(5), K.gold(5)) == (K.gold(5), K.bronze(5))
    assert K.trade_pair(K.gold(5), K.bronze(5)) == (K.gold(5), K.bronze(5))


def test_treasury_lookup_r6() -> None:
    """R6 / FR "Transformer une pièce": lowest coin >= target; else the highest below;
    never the value given up; None when nothing qualifies."""
    t = K.Treasury({5: 1, 8: 1, 13: 1, 20: 1})
    assert t.lookup(7, given_up=4) == 8        # not available: next higher
    assert t.lookup(8, given_up=4) == 8
    assert t.lookup(21, given_up=13) == 20     # nothing >= 21: highest below
    assert t.lookup(28, given_up=20) == 13     # ... but never the value given up
    assert t.lookup(14, given_up=8) == 20
    assert K.Treasury({8: 1}).lookup(10, given_up=8) is None
    assert K.Treasury({}).lookup(5, given_up=2) is None


def test_trade_falls_back_below_target_r6() -> None:
    """R6: trading 20 + 8 with nothing >= 28 left gives the
    highest coin below 28 (here 25 is gone: the 24), never a 20."""
    g = deal_game(3, age1=W_CARDS, gems=[3, 4, 5])
    set_coins(g, 0, [0, 2, 3, 8, 20])
    g.state.treasury.counts[8] -= 1
    g.state.treasury.counts[20] -= 1
    g.state.treasury.counts[25] = 0
    play(g, "bid 0 2 3", "bid 5 4 3", "bid 5 4 3", "take W3", "take W4", "take W5")
    assert coin_labels(g, 0) == ["0", "2", "3", "8", "24"]
    assert g.state.treasury.counts[20] == 1


def test_trade_keeps_the_coin_when_nothing_qualifies_r6() -> None:
    """R6: if no coin qualifies at all, the player keeps the coin they would have given
    up: nothing changes."""
    g = deal_game(3, age1=W_CARDS, gems=[3, 4, 5])
    set_coins(g, 0, [0, 2, 3, 4, "b5"])
    g.state.treasury.counts = [0] * (C.MAX_COIN_VALUE + 1)
    g.state.treasury.counts[5] = 1  # only the value given up is left
    play(g, "bid 0 2 3", "bid 5 4 3", "bid 5 4 3", "take W3", "take W4", "take W5")
    assert kinds(g, 0) == [(0, "b"), (2, "b"), (3, "b"), (4, "b"), (5, "b")]
    assert len(g.state.treasury) == 1


def test_royal_offering_transforms_and_goes_to_the_discard_r2() -> None:
    """FR "TOUR DE L'ELVALAND ACTIF·VE": a Royal Offering transforms a coin (+3 in
    age 1) at once; the card goes face up to the dwarf discard (R2)."""
    g = deal_game(3, age1=["+3", "W3", "W4"], gems=[3, 4, 5])
    play(g, "bid 5 4 3", "bid 4 3 2", "bid 3 2 4", "take +3")
    assert decision(g).kind == "transform" and task(g, Transform).bonus == 3
    assert C.card("+3") in g.state.discard
    assert C.card("+3") not in [c for col in g.state.players[0].army for c in col]
    play(g, "transform 4@T2")
    assert K.label(bid(g, 0, 1)) == "7"


def test_transform_on_an_unresolved_tavern_becomes_the_bid_there() -> None:
    """FR "Transformer une pièce" (coin on an unresolved tavern):
    the new coin stays on the tavern and is the bid there at its reveal."""
    g = deal_game(3, age1=["+3", "W3", "W4"], gems=[3, 4, 5])
    play(g, "bid 5 2 3", "bid 4 3 2", "bid 3 4 5", "take +3", "transform 2@T2")
    assert K.label(bid(g, 0, 1)) == "5"
    play(g, "take W3", "take W4")
    assert g.state.tavern == 1
    assert g.state.order == [0, 2, 1]  # 5 beats the 4 and the 3


def test_transform_in_the_purse_then_traded() -> None:
    """FR "Transformer une pièce" (coin in the purse) and "Échanger des pièces": the
    trade comes after the card, so the transformed purse coin is traded (4 -> 7, then
    5 + 7 = 12; the gold 7 goes back)."""
    g = deal_game(3, age1=["+3", "W3", "W4"], gems=[3, 4, 5])
    play(g, "bid 0 2 3", "bid 5 4 3", "bid 5 4 3", "take W3", "take W4", "take +3")
    assert [K.label(c) for c in g.state.players[0].purse] == ["4", "5"]
    play(g, "transform 4@purse")
    assert coin_labels(g, 0) == ["0", "2", "3", "5", "12"]
    assert g.state.treasury.counts[7] == 1


def test_exchange_coin_is_never_transformed() -> None:
    """FR "Transformer une pièce": the 0 can never be transformed (also the green 3,
    FR "Maître·esse de Chasse")."""
    g = deal_game(3, age1=["+3", "W3", "W4"], gems=[3, 4, 5])
    set_coins(g, 0, ["3*", 0, 2, 4, 5])
    play(g, "bid 3* 0 2", "bid 2 3 4", "bid 0 2 3", "take +3")
    options = legal(g)
    assert options == ["transform 2@T3", "transform 4@purse", "transform 5@purse"]
    for bad in ("transform 0@T2", "transform 3*@T1"):
        with pytest.raises(IllegalAction, match="exchange coin"):
            g.apply(bad)


def test_royal_offering_plus_5_in_age_2() -> None:
    """FR "Carte Offrande Royale": the age-2 Royal Offering transforms by +5 (FR "Offrande Royale")."""
    from test_rules_end_of_age import end_age1

    g = end_age1(3, {}, age2=["E5", "+5", "W3", "W4"])  # nobody wins Pioneer: E5 discarded
    assert g.state.age == 2
    assert C.card("E5") in g.state.discard
    assert C.card("+5") in g.state.taverns[0]
    play(g, "bid 5 4 3", "bid 4 3 2", "bid 3 0 4", "take +5")
    assert task(g, Transform).bonus == 5
    play(g, "transform 3@T3")
    assert K.label(bid(g, 0, 2)) == "8"
    assert C.card("+5") in g.state.discard


def test_transform_on_a_resolved_tavern() -> None:
    """FR "Transformer une pièce": the coin may lie on a tavern already resolved; the
    new coin takes its place (no effect on that tavern) and returns to the hand at the
    end of the round (FR "Tour suivant")."""
    g = deal_game(3, age1=["W3", "W4", "W5", "+3", "H", "H"], gems=[3, 4, 5])
    play(g, "bid 5 4 3", "bid 4 3 2", "bid 3 2 0", "take W3", "take W4", "take W5")
    play(g, "take +3", "transform 5@T1")
    assert K.label(bid(g, 0, 0)) == "8"
    assert g.state.tavern == 1 and decision(g).player == 1
    while g.state.round == 1:
        play(g, legal(g)[0])
    assert coin_labels(g, 0) == ["0", "2", "3", "4", "8"]
