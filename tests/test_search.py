"""The search bots (issue 13): no peeking, determinism, every decision kind, analyse.

No peeking is proved with twin games: the same public history for the deciding seat and a
different hidden state (unseen deck and camp order, another player's face-down bid and
purse, the random generator). ``make_bot("search", seed=s, iterations=n)`` must then make
the same choice, with the very same analysis.
"""

from __future__ import annotations

import pytest
from conformance import collect
from test_determinize import differing_twins, find, picking_with_hidden_bids

from nidavellir.bots import (
    BOTS,
    EXPERT_SECONDS,
    HARD_SECONDS,
    LEVELS,
    GreedyBot,
    MonteCarloBot,
    RandomBot,
    SearchBot,
    make_bot,
    parse_bot_spec,
    play_game,
)
from nidavellir.game import Game
from nidavellir.rules.base import CHOICES

TV = ("thingvellir",)


def _without_time(analysis: dict) -> dict:
    return {k: v for k, v in analysis.items() if k != "seconds"}


def bidding_after_others(g: Game) -> bool:
    """A bid decision of a seat after another seat has bid face down."""
    d = g.decision
    return d is not None and d.kind == "bid" and d.player > 0


@pytest.mark.parametrize("players,seed,expansions,want", [
    (3, 1, (), picking_with_hidden_bids), (3, 2, (), bidding_after_others),
    (4, 3, TV, picking_with_hidden_bids), (2, 4, TV, bidding_after_others),
])
@pytest.mark.slow(reason='two searches and two analyses of twin positions: up to 3 s of CPU')
def test_no_peeking_twins_get_the_same_choice_and_analysis(
        players: int, seed: int, expansions: tuple[str, ...], want: object) -> None:
    game = find(players, seed, expansions, want)
    viewer = game.decision.player
    for other in differing_twins(game, viewer):
        for bot_name in ("search", "montecarlo"):
            a = make_bot(bot_name, seed=7, iterations=40)
            b = make_bot(bot_name, seed=7, iterations=40)
            assert a.choose(game) == b.choose(other)
            assert _without_time(a.analyse(game, seed=3).to_dict()) == \
                _without_time(b.analyse(other, seed=3).to_dict())


def test_the_same_position_and_seed_give_the_same_choice() -> None:
    full = play_game(3, "random", seed=5)
    for index in (0, 4, 30, 61):
        game = full.clone()
        game.undo_to(index)
        choices = {str(make_bot("search", seed=11, iterations=30).choose(game)) for _ in range(3)}
        assert len(choices) == 1


def _positions_of_every_kind() -> dict[str, Game]:
    """One position per decision kind, from seeded random games and every hero's scripted
    game (tests/conformance.py)."""
    return {kind: games[0] for kind, games in collect().items()}


POSITIONS = _positions_of_every_kind()


@pytest.mark.slow(reason='the search decides at a position of every decision kind: about 4 s of '
                        'CPU')
def test_every_decision_kind_is_reached_and_handled() -> None:
    kinds = set(CHOICES)
    assert set(POSITIONS) == kinds, f"missing {kinds - set(POSITIONS)}"
    for kind, game in POSITIONS.items():
        for bot in (SearchBot(1, iterations=8), MonteCarloBot(1, iterations=8)):
            choice = bot.choose(game)
            assert choice in game.legal_actions(), (kind, choice)
            analysis = bot.analyse(game, seed=2)
            # An exact judgement enumerates instead of searching; a forced move needs no
            # search.
            searched = not analysis.exact and len(analysis.options) > 1
            assert analysis.kind == kind and analysis.iterations == (8 if searched else 0)


@pytest.mark.parametrize("players,expansions", [(2, ()), (3, TV), (4, ()), (5, TV)])
def test_full_games_with_tiny_budgets(players: int, expansions: tuple[str, ...]) -> None:
    bots = [make_bot("search", seed=i, iterations=3) for i in range(players - 1)]
    bots.append(make_bot("montecarlo", seed=9, iterations=3))
    game = play_game(players, bots, seed=players, expansions=expansions)
    assert game.is_over
    replay = Game.from_record(game.to_record())
    assert replay.scores().totals == game.scores().totals


def test_analyse_is_consistent() -> None:
    game = play_game(3, "random", seed=8)
    game.undo_to(25)
    bot = make_bot("search", seed=4, iterations=120)
    a = bot.analyse(game, seed=1)
    assert a.iterations == 120
    assert sum(s.visits for s in a.actions) == 120
    assert sum(a.win) == pytest.approx(1.0)
    # Every legal move belongs to one option (equivalent moves share one).
    assert sorted(str(x) for s in a.actions for x in s.actions) == \
        sorted(str(x) for x in game.legal_actions())
    # One currency: the best move is the first and no option has a higher chance to win.
    assert a.best == a.actions[0].action
    assert a.actions[0].win == max(s.win for s in a.actions)
    for s in a.actions:
        assert 0.0 <= s.win <= 1.0 and s.score_se >= 0.0
        assert sum(s.categories.values()) == pytest.approx(s.score)
    assert a.continuation and a.continuation[0] == (game.decision.player, a.best)
    d = a.to_dict()
    assert d["best"] == str(a.best) and len(d["options"]) == len(a.actions)


def test_analyse_of_a_forced_move_equals_its_playouts_mean() -> None:
    game = next(g for g in POSITIONS.values() if len(g.legal_actions()) == 1) \
        if any(len(g.legal_actions()) == 1 for g in POSITIONS.values()) else None
    if game is None:
        full = play_game(3, "random", seed=2)
        replay = Game.new(players=3, seed=2)
        for _, action in full.history:
            if len(replay.legal_actions()) == 1:
                game = replay.clone()
                break
            replay.apply_fast(action)
    assert game is not None
    a = make_bot("search", seed=1, iterations=50).analyse(game, seed=5)
    (only,) = a.actions
    assert only.action == game.legal_actions()[0] and a.iterations == 0
    assert a.to_dict()["reason"] == "the only legal move"
    assert sum(a.win) == pytest.approx(1.0)


def test_levels_and_budgets() -> None:
    assert isinstance(make_bot("easy", 1), RandomBot)
    assert isinstance(make_bot("medium", 1), GreedyBot)
    hard, expert = make_bot("hard", 1), make_bot("expert", 1)
    assert isinstance(hard, SearchBot) and hard.budget.seconds == HARD_SECONDS <= 1.0
    assert isinstance(expert, SearchBot) and expert.budget.seconds == EXPERT_SECONDS > HARD_SECONDS
    assert make_bot("search", 1).budget.seconds == HARD_SECONDS
    assert isinstance(make_bot("montecarlo", 1), MonteCarloBot)
    assert make_bot("montecarlo", 1).budget.seconds == HARD_SECONDS
    assert set(LEVELS) == {"easy", "medium", "hard", "expert"} and set(LEVELS) <= set(BOTS)
    assert parse_bot_spec("Search@0.5s") == ("search", {"seconds": 0.5})
    assert parse_bot_spec("montecarlo@400") == ("montecarlo", {"iterations": 400})
    assert make_bot("hard@200", 2).budget.iterations == 200
    for bad in ("greedy@2s", "search@0s", "search@-3", "search@abc", "minimax", "search@1e9s"):
        with pytest.raises(ValueError):
            parse_bot_spec(bad)
    with pytest.raises(ValueError, match="iterations"):
        make_bot("search", 1, iterations=0)
    with pytest.raises(ValueError, match="seconds"):
        make_bot("search", 1, seconds=float("nan"))
    with pytest.raises(ValueError, match="takes no options"):
        make_bot("greedy", 1, iterations=3)
    with pytest.raises(ValueError, match="playout"):
        make_bot("search", 1, playout="clever")


def test_a_time_budget_is_kept() -> None:
    import time

    game = play_game(3, "random", seed=6)
    game.undo_to(3)
    bot = make_bot("search", seed=1, seconds=0.2)
    start = time.perf_counter()
    bot.choose(game)
    assert time.perf_counter() - start < 0.2 + 0.5  # one iteration may run past the deadline


@pytest.mark.slow(reason='whole games of the search against random play: about 2 s of CPU')
def test_the_search_beats_random_play() -> None:
    """A sanity check of strength (the real figures are in benchmarks/README.md)."""
    wins = 0
    for seed in range(3):
        game = play_game(3, [make_bot("search", seed=seed, iterations=25), "random", "random"],
                         seed=seed)
        totals = game.scores().totals
        wins += totals[0] == max(totals)
    assert wins >= 2
