"""Exact answers from the deck composition, and simulations that agree with them."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import comb
from typing import Any

import pytest

from nidavellir import Game
from nidavellir import cards as C
from nidavellir import coins as K
from nidavellir.analysis import probability as P
from nidavellir.bots import make_bot

# ---------------------------------------------------------------------- exact, by hand


def test_hunters_in_a_three_card_tavern() -> None:
    # Age 1 with 2-4 players: 36 cards, 6 hunters. P(no hunter) = C(30,3)/C(36,3).
    assert comb(30, 3) == 4060 and comb(36, 3) == 7140
    p = P.p_tavern_shows("H", n=3, players=3, age=1)
    assert p.value == 1 - Fraction(4060, 7140) == Fraction(22, 51)
    assert p.params["N"] == 36 and p.params["K"] == 6
    assert float(p) == pytest.approx(22 / 51) and p.as_float == float(p)


def test_tavern_size_follows_the_player_count() -> None:
    # 4 players: taverns of 4 cards; 8 blacksmiths among 36.
    p = P.p_tavern_shows("blacksmith", players=4)
    assert p.params["n"] == 4
    assert p.value == 1 - Fraction(comb(28, 4), comb(36, 4))
    # 5 players: the W10 is one card of 45; a tavern of 5 holds it with chance 5/45.
    assert P.p_tavern_shows("W10", players=5).value == Fraction(1, 9)
    # Without 5 players there is no W10 at all.
    assert P.p_tavern_shows("W10", players=3).value == 0


def test_royal_offerings_are_a_target() -> None:
    # Age 2, 3 players: 37 cards, 2 Royal Offerings (+5).
    p = P.p_tavern_shows("RO", n=3, players=3, age=2)
    assert p.value == 1 - Fraction(comb(35, 3), comb(37, 3))
    assert P.p_tavern_shows("+5", n=3, players=3, age=2).value == p.value
    assert P.p_tavern_shows("+3", n=3, players=3, age=2).value == 0


def test_round_distribution_is_hypergeometric() -> None:
    d = P.round_distribution("H", players=3, age=1)
    assert d.params["m"] == 9
    assert sum(d.pmf.values()) == 1
    assert d.p(0) == Fraction(comb(30, 9), comb(36, 9))
    assert d.p(2) == Fraction(comb(6, 2) * comb(30, 7), comb(36, 9))
    assert d.mean == Fraction(9 * 6, 36)
    assert set(d.pmf) == set(range(7))
    assert list(d.frame()["probability"]) == pytest.approx([float(d.p(k)) for k in range(7)])


def test_every_card_of_age_1_is_dealt() -> None:
    # 36 = 3 taverns x 3 cards x 4 rounds = 3 x 4 x 3; 45 = 3 x 5 x 3.
    for players in (2, 3, 4, 5):
        for spec in ("W", "H", "M", "B", "E", "RO", "W9", "E11"):
            assert P.p_appears(spec, players, age=1).value == 1
    assert P.p_appears("W10", 5, age=1).value == 1


def test_age_2_loses_exactly_one_card() -> None:
    # 46 cards with 5 players, 45 dealt: the W10 misses the taverns with chance 1/46.
    assert P.p_appears("W10", 5, age=2).value == Fraction(45, 46)
    # If the Pioneer keeps it whenever it is among the 3 drawn: 1 - 3/46.
    assert P.p_appears("W10", 5, age=2, pioneer="takes_it").value == Fraction(43, 46)
    # Two +5 (3 players): one of them is always dealt.
    assert P.p_appears("+5", 3, age=2).value == 1
    assert P.p_appears("+5", 3, age=2, pioneer="takes_it").value == 1
    # By the end of round 1 (9 of 37 positions): 1 - C(35,9)/C(37,9).
    assert P.p_appears("+5", 3, age=2, by_round=1).value == 1 - Fraction(comb(35, 9), comb(37, 9))
    # A single card is among the first m cards dealt with chance m/D.
    assert P.p_appears("W9", 3, age=2, by_round=2).value == Fraction(18, 37)
    assert P.p_appears("W9", 3, age=2, by_round=0).value == 0


def test_expected_royal_offerings_seen() -> None:
    # Linearity: each of the K copies is dealt by round r with chance m/D.
    assert P.expected_seen("RO", 3, age=2, by_round=2).value == Fraction(2 * 18, 37)
    assert P.expected_seen("RO", 3, age=1, by_round=4).value == 1
    assert P.expected_seen("RO", 5, age=2).value == Fraction(3 * 45, 46)
    # Pioneer takes one if drawn (P0 = C(35,3)/C(37,3) that none is drawn).
    p0 = Fraction(comb(35, 3), comb(37, 3))
    want = p0 * Fraction(2 * 36, 36) + (1 - p0) * Fraction(36, 36)
    assert P.expected_seen("RO", 3, age=2, pioneer="takes_it").value == want
    table = P.seen_by_round("RO", 3, age=2)
    assert list(table["round"]) == [0, 1, 2, 3, 4]
    assert list(table["cards_dealt"]) == [0, 9, 18, 27, 36]
    assert table["expected"].is_monotonic_increasing


def test_bid_ties_by_enumeration() -> None:
    start = [0, 2, 3, 4, 5]
    # On one tavern each coin is equally likely: P(tie) = 5 x (1/5)^2.
    assert P.p_bid_tie(start, start, tavern=0).value == Fraction(1, 5)
    assert P.p_bid_tie(start, start, tavern=0).params["bids_a"] == 60
    # Any tavern, inclusion-exclusion over the 60 bids of B given A's bid:
    # 60 - 3 x 12 + 3 x 3 - 1 = 32 bids tie nowhere.
    assert P.p_bid_tie(start, start, tavern=None).value == 1 - Fraction(32, 60)
    # No common value: never a tie.
    assert P.p_bid_tie([0, 2, 3, 4, 5], [6, 7, 8, 9, 10], tavern=None).value == 0
    # One common value (5): it lands on tavern 0 with chance 1/5 for each.
    assert P.p_bid_tie([0, 2, 3, 4, 5], [5, 7, 8, 9, 10], tavern=2).value == Fraction(1, 25)
    # Labels work, and distinct bids change nothing when every value differs.
    assert P.p_bid_tie(["0", "2", "3", "4", "5"], start, distinct=True).value == Fraction(1, 5)


def test_distinct_bids_match_the_engine_legal_actions() -> None:
    hand = [0, 3, 4, 5, 5]
    exact = P.p_bid_tie(hand, hand, distinct=True)
    distinct_triples = set(itertools.permutations(hand, 3))
    assert exact.params["bids_a"] == len(distinct_triples)


def test_trade_distribution_tiny_treasury() -> None:
    # Purses from 2 3 4 5 (each pair 1/6), higher coin given up, lookup R6:
    # 2+3=5 -> 5; 2+4=6 -> 7; 2+5=7 -> 7; 3+4=7 -> 7; 3+5=8 -> 9; 4+5=9 -> 9.
    d = P.trade_distribution([0, 2, 3, 4, 5], treasury={5: 1, 7: 1, 9: 1})
    assert d.pmf == {5: Fraction(1, 6), 7: Fraction(1, 2), 9: Fraction(1, 3)}
    assert d.mode == 7 and d.params["purses"] == 6


def test_trade_uses_the_treasury_lookup_rule() -> None:
    # Target 7, nothing >= 7: highest below, never the given-up 5.
    assert P.trade_distribution(purse=[5, 2], treasury={5: 1, 6: 1}).pmf == {6: 1}
    assert P.trade_distribution(purse=[5, 2], treasury={5: 1}).pmf == {None: 1}
    treasury = K.Treasury({5: 2, 8: 1, 12: 1})
    for a, b in [(2, 3), (3, 5), (4, 5), (5, 5)]:
        want = treasury.lookup(a + b, max(a, b))
        assert P.trade_distribution(purse=[a, b], treasury=treasury).pmf == {want: 1}
    # The full 3-player treasury by default, and the green 3 is an exchange coin.
    full = P.trade_distribution(["3*", 2, 3, 4, 5], players=3)
    assert full.params["treasury"] == C.treasury(3)
    with pytest.raises(ValueError, match="exchange coin"):
        P.trade_distribution([2, 3, 4, 5, 6])


def test_targets() -> None:
    assert P.target("hunters").label == P.target("H").label
    assert P.target("RO").count(P.box_pool(5, 2)) == 3
    assert P.target("W10").count(P.box_pool(5, 1)) == 1
    with pytest.raises(ValueError, match="unknown target"):
        P.target("dragon")
    with pytest.raises(ValueError, match="only 36"):
        P.p_tavern_shows("H", n=37, players=3)


# ---------------------------------------------------------------------- a live game


def _play_until(game: Game, age: int, round_: int) -> Game:
    bots = [make_bot("random", seed=i) for i in range(game.config.players)]
    while game.decision is not None and (game.state.age, game.state.round) < (age, round_):
        game.apply_fast(bots[game.decision.player].choose(game))
    return game


def test_unseen_pool_at_the_start_is_the_deck() -> None:
    game = Game.new(players=3, seed=5)
    pool = P.unseen_pool(game)
    assert sum(pool.values()) == 27
    assert pool == Counter(game.state.decks[1])
    exact = P.p_tavern_shows("H", game=game)
    k = sum(1 for c in game.state.decks[1] if c.suit is C.Suit.HUNTER)
    assert exact.value == 1 - Fraction(comb(27 - k, 3), comb(27, 3))


@pytest.mark.parametrize("to_box", [False, True])
def test_unseen_pool_in_age_2_uses_public_information(to_box: bool) -> None:
    game = _play_until(Game.new(players=3, seed=11, pioneer_tie_to_box=to_box), 2, 1)
    assert game.state.age == 2
    pool = P.unseen_pool(game)
    deck = Counter(game.state.decks[2])
    assert deck <= pool  # the deck holds only unseen cards
    assert sum(pool.values()) - len(game.state.decks[2]) in ((0, 1) if to_box else (0,))


def test_a_live_game_estimate_agrees() -> None:
    game = _play_until(Game.new(players=4, seed=2), 1, 2)
    exact = P.p_tavern_shows("E", game=game)
    est = P.simulate_tavern_shows("E", game=game, trials=4000, seed=3)
    assert abs(est.z(exact)) < 4


# ---------------------------------------------------------------------- simulations


def test_simulations_lie_within_four_standard_errors() -> None:
    cases = [
        (P.p_tavern_shows("H", 3, 3, 1), P.simulate_tavern_shows("H", 3, 3, 1, trials=4000, seed=1)),
        (P.p_tavern_shows("RO", None, 5, 2), P.simulate_tavern_shows("RO", None, 5, 2, trials=4000,
                                                                     seed=2)),
        (P.p_appears("W10", 5, 2), P.simulate_appears("W10", 5, 2, trials=4000, seed=3)),
        (P.p_appears("W10", 5, 2, pioneer="takes_it"),
         P.simulate_appears("W10", 5, 2, pioneer="takes_it", trials=4000, seed=4)),
        (P.p_appears("+5", 3, 2, by_round=1), P.simulate_appears("+5", 3, 2, 1, trials=4000, seed=5)),
        (P.expected_seen("RO", 3, 2, 2), P.simulate_expected_seen("RO", 3, 2, 2, trials=4000, seed=6)),
        (P.expected_seen("RO", 3, 2, pioneer="takes_it"),
         P.simulate_expected_seen("RO", 3, 2, pioneer="takes_it", trials=4000, seed=7)),
        (P.p_bid_tie([0, 2, 3, 4, 5], [0, 2, 3, 4, 5], None),
         P.simulate_bid_tie([0, 2, 3, 4, 5], [0, 2, 3, 4, 5], None, trials=4000, seed=8)),
    ]
    for exact, est in cases:
        assert est.n == 4000 and est.se > 0
        assert abs(est.z(exact)) < 4, (str(exact), str(est))
        assert est.ci[0] <= est.estimate <= est.ci[1]


def test_distribution_simulations_agree() -> None:
    pairs = [
        (P.round_distribution("H", 3, 1), P.simulate_round_distribution("H", 3, 1, trials=4000,
                                                                          seed=1)),
        (P.trade_distribution([0, 2, 3, 4, 5], treasury={5: 1, 7: 1, 9: 1}),
         P.simulate_trade([0, 2, 3, 4, 5], treasury={5: 1, 7: 1, 9: 1}, trials=4000, seed=2)),
    ]
    for exact, est in pairs:
        assert est.n == 4000
        for outcome in set(exact.pmf) | set(est.counts):
            e = est.estimate(outcome)
            if e.se > 0:
                assert abs(e.z(exact.p(outcome))) < 4, (outcome, e)
            else:
                assert e.estimate == float(exact.p(outcome)) or exact.p(outcome) < Fraction(1, 500)
        frame = est.frame(exact)
        assert {"outcome", "estimate", "se", "ci_low", "ci_high", "exact"} <= set(frame.columns)


def test_simulations_are_seeded() -> None:
    a = P.simulate_tavern_shows("M", trials=500, seed=9)
    b = P.simulate_tavern_shows("M", trials=500, seed=9)
    assert a == b
    assert P.simulate_line(6, trials=300, seed=1) == P.simulate_line(6, trials=300, seed=1)


def test_line_completion_is_simulation_only_with_its_assumption() -> None:
    est = P.simulate_line(8, players=3, trials=1000, seed=1)
    assert est.assumption == P.LINE_ASSUMPTION and "policy" in est.assumption
    assert 0 < est.estimate <= 1
    curve = P.line_curve(players=3, trials=1000, seed=1)
    # A line needs 5 cards: never within 4 picks.
    assert (curve[curve["k"] <= 4]["estimate"] == 0).all()
    assert curve["estimate"].is_monotonic_increasing
    assert float(curve[curve["k"] == 8]["estimate"].iloc[0]) == est.estimate
    # Picking later in each tavern cannot make the line likelier on average here.
    later = P.simulate_line(8, players=3, position=3, trials=1000, seed=1)
    assert later.estimate < est.estimate


def test_strategies_summary() -> None:
    summary, rows = P.compare_strategies("random", "random", players=3, games=8, seed=1)
    assert len(rows) == 24
    assert list(summary["bot"]) == ["random (seat 1)", "random"]
    assert set(summary.columns) >= {"mean", "sd", "win_rate", "win_ci_low", "win_ci_high"}
    seat1 = summary.iloc[0]
    assert seat1["rows"] == 8 and 0 <= seat1["win_ci_low"] <= seat1["win_rate"] <= seat1["win_ci_high"]
    assert seat1["mean"] == pytest.approx(rows[rows["seat"] == 0]["total"].mean())


# ---------------------------------------------------------------------- convergence


def test_running_estimates_and_figure() -> None:
    q = P.question("tavern", what="H", players=3)
    assert q.exact is not None
    result = q.run(1000, seed=4, batches=10)
    frame = result["frame"]
    assert list(frame.columns) == ["batch", "n", "estimate", "se", "ci_low", "ci_high", "exact"]
    assert list(frame["n"]) == list(range(100, 1001, 100))
    assert frame["estimate"].iloc[-1] == result["estimate"].estimate
    assert (frame["exact"] == float(q.exact)).all()
    assert (frame["ci_low"] <= frame["estimate"]).all() and (frame["estimate"] <= frame["ci_high"]).all()
    fig = P.convergence_figure(frame, "hunters", q.exact)
    names = [t.name for t in fig.data]
    assert names[0] == "95% interval" and names[1] == "running estimate"
    assert names[2].startswith("exact") and list(fig.data[2].y) == [float(q.exact)] * 2
    assert list(fig.data[1].x) == list(frame["n"])


def test_running_estimates_of_numbers() -> None:
    frame = P.running_estimates([1.0, 3.0, 2.0, 2.0], batches=2)
    assert list(frame["n"]) == [2, 4] and list(frame["estimate"]) == [2.0, 2.0]
    assert frame["exact"].isna().all()
    fig = P.convergence_figure(frame)
    assert len(fig.data) == 2  # no exact line without an exact value


def test_every_question_runs() -> None:
    for key in P.QUESTIONS:
        params: dict[str, Any] = {"players": 3} if key == "strategy" else {}
        if key == "strategy":
            params.update(a="random", b="random")
        q = P.question(key, **params)
        result = q.run(6 if key == "strategy" else 400, seed=1, batches=5)
        assert result["estimate"].n == (6 if key == "strategy" else 400)
        assert len(q.figure(result["frame"]).data) >= 2
    with pytest.raises(ValueError, match="unknown question"):
        P.question("dice")


def test_results_read_well() -> None:
    exact = P.p_tavern_shows("H", n=3, players=3)
    est = P.simulate_tavern_shows("H", n=3, players=3, trials=500, seed=1)
    assert repr(exact).startswith("<Exact P(a tavern of 3") and "22/51" in repr(exact)
    assert "22/51" in exact._repr_html_() and "C(36, 3)" in exact._repr_html_()
    assert "500 simulations" in est._repr_html_()
    row = P.side_by_side(exact, est)
    assert row.iloc[0]["exact"] == "22/51" and row.iloc[0]["n"] == 500
    assert row.iloc[0]["z"] == pytest.approx(est.z(exact))
    table = P.deck_composition(age=2)
    assert table.loc["total", "2-4 players"] == 37 and table.loc["total", "5 players"] == 46
    assert table.loc["Royal Offerings", "5 players"] == 3
