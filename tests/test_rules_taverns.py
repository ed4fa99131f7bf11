"""Scripted rule tests: setup by player count, the reveal, turn order and the gem exchange.

Each test cites the French rulebook (by section heading) or a
ruling of docs/rulings.md (R<n>).
"""

from __future__ import annotations

import pytest
from scripted import bid, deal_game, decision, legal, play

from nidavellir import Game
from nidavellir import cards as C
from nidavellir import events as ev

ROUNDS = {2: 4, 3: 4, 4: 3, 5: 3}
PER_TAVERN = {2: 3, 3: 3, 4: 4, 5: 5}


def gems(game: Game) -> list[int]:
    return [p.gem for p in game.state.players]


# ---------------------------------------------------------------------- setup


@pytest.mark.parametrize("players, expected", [(2, [4, 5]), (3, [3, 4, 5]),
                                               (4, [2, 3, 4, 5]), (5, [1, 2, 3, 4, 5])])
def test_gems_are_the_top_n(players: int, expected: list[int]) -> None:
    """R1 / FR "Mise en place" step 2: 5p gems 1-5, 4p 2-5, 3p 3-5, 2p 4-5, at random."""
    seen = set()
    for seed in range(12):
        g = Game.new(players=players, seed=seed)
        assert sorted(gems(g)) == expected
        seen.add(tuple(gems(g)))
    assert len(seen) > 1, "gems are dealt at random"


@pytest.mark.parametrize("players, coins, total", [(2, 28, 383), (3, 28, 383),
                                                   (4, 34, 437), (5, 34, 437)])
def test_treasury_by_player_count(players: int, coins: int, total: int) -> None:
    """FR "Partie à 2/3 Elvalands": 2 coins each of 7, 9 and 11 go back to the box."""
    t = Game.new(players=players).state.treasury
    assert len(t) == coins
    assert sum(v * n for v, n in t.as_dict().items()) == total
    expected_7_9_11 = 1 if players <= 3 else 3
    assert [t.counts[v] for v in (7, 9, 11)] == [expected_7_9_11] * 3


@pytest.mark.parametrize("players, age1, age2", [(2, 36, 37), (3, 36, 37), (4, 36, 37),
                                                 (5, 45, 46)])
def test_age_decks_and_five_player_cards(players: int, age1: int, age2: int) -> None:
    """FR "Mise en place" step 7 / "Partie à 5 Elvalands": cards marked 5 only with 5
    players (FR "Matériel": 36/37 cards, 45/46 with 5 players)."""
    g = Game.new(players=players)
    s = g.state
    dealt = sum(len(t) for t in s.taverns)
    assert len(s.decks[1]) + dealt == age1
    assert len(s.decks[2]) == age2
    all_cards = s.decks[1] + s.decks[2] + [c for t in s.taverns for c in t]
    five_only = {C.card("W10"), C.card("E12")}
    assert bool(five_only & set(all_cards)) is (players == 5)
    assert all_cards.count(C.card("+3")) == (2 if players == 5 else 1)
    assert all_cards.count(C.card("+5")) == (3 if players == 5 else 2)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_cards_per_tavern_and_rounds_per_age(players: int) -> None:
    """FR "ENTRÉE DES NAIN·E·S": N cards per tavern (2 players: 3, "Partie à 2
    Elvalands"); FR "Tour de jeu": 4 rounds per age with 2-3 players, 3 with 4-5."""
    g = Game.new(players=players, seed=players)
    assert [len(t) for t in g.state.taverns] == [PER_TAVERN[players]] * 3
    rounds = {1: 0, 2: 0}
    while not g.is_over:
        g.apply_fast(g.legal_actions()[0])
    for e in g.events:
        if isinstance(e, ev.RoundStarted):
            rounds[e.age] += 1
            assert all(len(t) == PER_TAVERN[players] for t in e.taverns)
    assert rounds == {1: ROUNDS[players], 2: ROUNDS[players]}


def test_first_game_variant_leaves_out_thrud_ylud_uline() -> None:
    """R25 / FR "Bien débuter à Nidavellir": Thrud, Ylud and Uline are left out."""
    normal = Game.new(players=3).state.hall
    first = Game.new(players=3, first_game=True).state.hall
    assert len(normal) == 21 and len(first) == 18
    for hero in (C.THRUD, C.YLUD, C.ULINE):
        assert hero in normal and hero not in first


# ---------------------------------------------------------------------- reveal and order


def test_order_by_coin_then_gem() -> None:
    """FR "RÉVÉLATION DE LA MISE": the highest coin plays first; equal coins are
    decided by the higher gem. Example: Serge (gem 3) bids 5, Cécile (gem 5) and
    Valériane (gem 1) bid 2: Serge, then Cécile, then Valériane."""
    g = deal_game(5, gems=[3, 5, 1, 2, 4])
    # seats: Serge, Cécile, Valériane, then two players who bid lower (0).
    play(g, "bid 5 3 4", "bid 2 3 4", "bid 2 3 4", "bid 0 2 3", "bid 0 2 3")
    assert g.state.order == [0, 1, 2, 4, 3]
    assert decision(g).player == 0 and decision(g).kind == "pick"


def _resolve_tavern(g: Game) -> None:
    """Every player in order takes the first card of the current tavern."""
    t = g.state.tavern
    while g.decision is not None and g.decision.kind == "pick" and g.state.tavern == t:
        play(g, legal(g)[0])


def test_gem_exchange_two_way_tie() -> None:
    """FR "ÉCHANGE DE GEMMES", "Égalité entre 2 Elvalands": the two gems are swapped
    at the end of the tavern."""
    g = deal_game(3, gems=[3, 4, 5])
    play(g, "bid 4 3 2", "bid 5 3 2", "bid 5 4 3")
    assert g.state.ties == [[2, 1]]
    assert g.state.order == [2, 1, 0]
    _resolve_tavern(g)
    assert gems(g) == [3, 5, 4]


def test_gem_exchange_three_way_tie_middle_stays() -> None:
    """FR "Égalité entre 3 Elvalands": only the lowest and the highest gems are
    swapped; the middle gem stays (R11)."""
    g = deal_game(3, gems=[4, 3, 5])
    play(g, "bid 2 3 4", "bid 2 4 3", "bid 2 5 4")
    assert g.state.order == [2, 0, 1]
    _resolve_tavern(g)
    assert gems(g) == [4, 5, 3]


def test_gem_exchange_four_way_tie() -> None:
    """FR "Égalité entre 4 Elvalands": highest with lowest, the other two swap too."""
    g = deal_game(4, gems=[2, 5, 3, 4])
    play(g, *["bid 3 2 4"] * 4)
    assert g.state.order == [1, 3, 2, 0]
    _resolve_tavern(g)
    assert gems(g) == [5, 2, 4, 3]


def test_gem_exchange_five_way_tie() -> None:
    """FR "Égalité entre 5 Elvalands": as with 4 players, and the middle gem stays."""
    g = deal_game(5, gems=[1, 2, 3, 4, 5])
    play(g, *["bid 0 2 3"] * 5)
    assert g.state.order == [4, 3, 2, 1, 0]
    _resolve_tavern(g)
    assert gems(g) == [5, 4, 3, 2, 1]


def test_gem_6_never_exchanged() -> None:
    """FR "ÉCHANGE DE GEMMES": Serge (gem 3), Céline (gem 5) and Valériane (gem 6) bid
    4; Valériane wins the tie but is left out of the exchange, Serge and Céline swap
    as a 2-way tie (R11)."""
    g = deal_game(3, gems=[3, 4, 5])
    g.state.players[2].gem = 6  # Valériane won the Crown Jeweler
    g.state.players[1].gem = 5
    play(g, "bid 4 2 3", "bid 4 2 3", "bid 4 2 3")
    assert g.state.order == [2, 1, 0]
    _resolve_tavern(g)
    assert gems(g) == [5, 3, 6]


def test_gem_6_with_a_single_other_player_no_swap() -> None:
    """R11: with the gem 6 holder removed, a single remaining player swaps nothing."""
    g = deal_game(2, gems=[4, 5])
    g.state.players[0].gem = 6
    play(g, "bid 4 2 3", "bid 4 2 3")
    assert g.state.order == [0, 1]
    _resolve_tavern(g)
    assert gems(g) == [6, 5]


def test_separate_tie_groups_swap_independently() -> None:
    """FR "ÉCHANGE DE GEMMES" example: Serge (3) and Anne (1) bid 3; Valériane (5),
    Céline (4) and Jean-Marie (2) bid 0. Order Serge, Anne, Valériane, Céline,
    Jean-Marie; then Serge and Anne swap, Valériane and Jean-Marie swap, Céline keeps 4."""
    g = deal_game(5, gems=[3, 1, 5, 4, 2])
    play(g, "bid 3 2 4", "bid 3 2 4", "bid 0 2 3", "bid 0 2 3", "bid 0 2 3")
    assert g.state.order == [0, 1, 2, 3, 4]
    assert sorted(map(sorted, g.state.ties)) == [[0, 1], [2, 3, 4]]
    _resolve_tavern(g)
    assert gems(g) == [1, 3, 2, 4, 5]
    swapped = [e for e in g.events if isinstance(e, ev.GemsExchanged)]
    assert len(swapped) == 1


def test_new_gems_apply_at_the_next_tavern() -> None:
    """FR "ÉCHANGE DE GEMMES": the exchange happens at the end of each tavern "afin de
    garantir l'ordre de jeu": the next tavern of the same round uses the new gems."""
    g = deal_game(3, gems=[3, 4, 5])
    play(g, "bid 2 3 4", "bid 2 3 4", "bid 5 4 3")
    assert g.state.order == [2, 1, 0]
    _resolve_tavern(g)  # 0 and 1 tied on 2 -> swap: seat 0 has 4, seat 1 has 3
    assert gems(g) == [4, 3, 5]
    assert g.state.tavern == 1
    # Tavern 2: seats 0 and 1 tie on 3 again, seat 0 now wins it with gem 4.
    assert g.state.order == [2, 0, 1]


def test_tie_fixed_at_reveal_even_if_the_bid_coin_is_transformed() -> None:
    """FR "Égalité et transformation d'une pièce sur une taverne en cours de
    résolution": the tie is fixed at the reveal; transforming the bid coin does not
    change it and the gems are still swapped at the end of the tavern (R11)."""
    g = deal_game(3, age1=["+3", "W3", "W4"], gems=[3, 4, 5])
    play(g, "bid 2 3 4", "bid 2 3 4", "bid 2 3 4")
    assert g.state.order == [2, 1, 0]
    play(g, "take +3", "transform 2@T1")  # the winner's bid 2 becomes a 5
    assert bid(g, 2, 0) >> 2 == 5
    assert g.state.order == [2, 1, 0]
    assert decision(g).player == 1
    _resolve_tavern(g)
    assert gems(g) == [5, 4, 3]


def test_two_players_leftover_discarded_face_up() -> None:
    """FR "Partie à 2 Elvalands": 3 cards per tavern; the card nobody took is
    discarded (face up, R15) after the tavern."""
    g = deal_game(2, age1=["W3", "W4", "W5", "H", "B", "M0", "E5", "E6", "E7"], gems=[4, 5])
    play(g, "bid 5 3 4", "bid 4 3 5", "take W5", "take W3")
    assert g.state.taverns[0] == []
    assert g.state.discard == [C.card("W4")]
    assert g.state.tavern == 1
    # The same after every tavern.
    play(g, "take H", "take B")
    assert g.state.discard == [C.card("W4"), C.card("M0")]


def test_gem_6_in_a_four_way_tie_three_others_middle_stays() -> None:
    """R11: the gem 6 holder is removed from the tie group; of the 3 others the highest
    and the lowest swap and the middle gem stays (FR "Égalité entre 3 Elvalands")."""
    g = deal_game(4, gems=[2, 3, 4, 5])
    g.state.players[3].gem = 6
    play(g, *["bid 3 2 4"] * 4)
    assert g.state.order == [3, 2, 1, 0]
    _resolve_tavern(g)
    assert gems(g) == [4, 3, 2, 6]
