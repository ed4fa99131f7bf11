"""The search's horizon (issue 28, Build 5): truncated playouts valued by an estimate.

A playout from age 1 stops when age 2 begins (``hard+cut``); the estimate of the final
scores (:mod:`nidavellir.bots.horizon`) is fitted by ``benchmarks/fit_horizon.py`` on games of
the playout policy. These tests pin what the estimate promises (its table covers every game,
win chances are a distribution ordered like the estimates), that a truncated playout never
plays a move of age 2 and a search from age 2 plays to the end, that the variant never
peeks (twin games), that it finishes games at every table size, and that the fit script
writes a table the bots can read.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest
from test_determinize import differing_twins, find, picking_with_hidden_bids

from nidavellir.bots import make_bot, parse_bot_spec, play_game
from nidavellir.bots.horizon import FEATURES, estimate, features
from nidavellir.bots.horizon_fit import COEFFICIENTS
from nidavellir.bots.playout import heuristic_policy
from nidavellir.bots.tree import Searcher
from nidavellir.determinize import heuristic_bid_model
from nidavellir.engine import Engine
from nidavellir.game import Game
from nidavellir.scoring import score_table, tables_of

TV = ("thingvellir",)
ROOT = Path(__file__).resolve().parent.parent


def load_script(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` as a module (registered, so its pool's workers find it)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def age_two_begins(players: int, seed: int, expansions: tuple[str, ...] = ()) -> Game:
    """A game played by the playout policy up to the first decision of age 2."""
    game = Game.new(players=players, seed=seed, expansions=expansions)
    rng = random.Random(seed)
    while game.state.age == 1:
        game.apply_fast(heuristic_policy(game.engine, rng))
    return game


def test_the_fitted_table_covers_every_game() -> None:
    assert set(COEFFICIENTS) == {(n, t) for n in (2, 3, 4, 5) for t in (False, True)}
    for key, (beta, tau) in COEFFICIENTS.items():
        assert len(beta) == len(FEATURES), key
        assert tau > 0, key


@pytest.mark.parametrize("players,expansions", [(2, ()), (3, TV), (4, ()), (5, TV)])
def test_the_estimate_is_a_score_and_a_distribution_of_wins(
        players: int, expansions: tuple[str, ...]) -> None:
    game = age_two_begins(players, players * 11, expansions)
    s = game.state
    totals, wins, margins, breakdowns = estimate(s)
    now = [p.total for p in score_table(tables_of(s), s.config.options, details=False).players]
    assert len(totals) == len(wins) == len(margins) == len(breakdowns) == players
    assert sum(wins) == pytest.approx(1.0)
    assert all(0 < w < 1 for w in wins)
    # Win chances are ordered like the estimates, and the margins are the estimates' gaps.
    order = sorted(range(players), key=totals.__getitem__)
    assert [wins[i] for i in order] == sorted(wins)
    for i in range(players):
        assert margins[i] == pytest.approx(totals[i] - max(t for j, t in enumerate(totals)
                                                           if j != i))
    # The categories are the score sheet's now; age 2 adds points on average (about 60-80
    # in a game of the playout policy), never a negative total.
    assert [sum(b.values()) for b in breakdowns] == now
    assert all(t > n for t, n in zip(totals, now, strict=True))
    rows = features(s, now)
    assert len(rows) == players and all(len(r) == len(FEATURES) for r in rows)


def test_a_truncated_playout_never_plays_a_move_of_age_two() -> None:
    full = play_game(3, "random", seed=4, expansions=TV)
    game = full.clone()
    game.undo_to(12)
    assert game.state.age == 1

    def policy(eng: Engine, rng: random.Random):  # type: ignore[no-untyped-def]
        assert eng.state.age == 1, "a truncated playout went on into age 2"
        return heuristic_policy(eng, rng)

    searcher = Searcher(game, random.Random(1), policy, heuristic_bid_model, horizon=True)
    for _ in range(40):
        searcher.iterate()
    assert searcher.iterations == 40
    # The estimates replace the final scores: every root option's statistics are filled.
    assert sum(st.n for st in searcher.root_stats.values()) == 40


def test_from_age_two_the_search_plays_to_the_end() -> None:
    game = age_two_begins(3, 5)
    searcher = Searcher(game, random.Random(1), heuristic_policy, heuristic_bid_model,
                        horizon=True)
    assert not searcher.cut
    for _ in range(10):
        searcher.iterate()
    # Final scores are whole points; the estimates would almost never be.
    assert all(float(x).is_integer() for x in searcher.score_sum)


def test_the_flag_and_its_errors() -> None:
    assert parse_bot_spec("hard+cut@300") == ("hard", {"horizon": True, "iterations": 300})
    assert make_bot("hard+cut", seed=1).horizon is True
    assert make_bot("hard", seed=1).horizon is False
    with pytest.raises(ValueError, match="only the tree search"):
        parse_bot_spec("montecarlo+cut")


@pytest.mark.parametrize("players,seed,expansions", [(3, 1, ()), (4, 3, TV)])
def test_no_peeking_twins_get_the_same_choice(players: int, seed: int,
                                              expansions: tuple[str, ...]) -> None:
    game = find(players, seed, expansions, picking_with_hidden_bids)
    assert game.state.age == 1
    viewer = game.decision.player
    for other in differing_twins(game, viewer):
        a = make_bot("search+cut", seed=7, iterations=60)
        b = make_bot("search+cut", seed=7, iterations=60)
        sa = a._search(game, random.Random(3), early_stop=False)
        sb = b._search(other, random.Random(3), early_stop=False)
        assert sa.best() == sb.best()
        assert {str(x): sa.visits(x) for x in sa.actions} == \
            {str(x): sb.visits(x) for x in sb.actions}


@pytest.mark.parametrize("players,expansions", [(2, TV), (3, ()), (4, TV), (5, ())])
def test_full_games_with_the_horizon_and_checked_moves(players: int,
                                                       expansions: tuple[str, ...]) -> None:
    seen = []
    bots = [make_bot("search+cut", seed=i, iterations=4, debug=seen.append)
            for i in range(players)]
    game = play_game(players, bots, seed=40 + players, expansions=expansions)
    assert game.is_over and seen
    replay = Game.from_record(game.to_record())
    assert replay.scores().totals == game.scores().totals


@pytest.mark.slow(reason='the fit script run in its own interpreter on seeded games: about 2.5 '
                        's of CPU')
def test_the_fit_script_writes_a_table_the_bots_can_read(tmp_path: Path) -> None:
    module = load_script("fit_horizon")
    played = module.play((3, True), 200)
    fitted = module.fit((3, True), played)
    assert len(fitted["beta"]) == len(FEATURES) and fitted["tau"] > 0
    assert 0 < fitted["r2"] < 1 and fitted["brier"] < fitted["brier_uniform"]
    out = tmp_path / "fit.py"
    assert module.main(["--games", "100", "--workers", "1", "--out", str(out)]) == 0
    namespace: dict = {}
    exec(out.read_text(), namespace)
    assert set(namespace["COEFFICIENTS"]) == set(COEFFICIENTS)
    with pytest.raises(SystemExit):
        module.main(["--games", "5"])


@pytest.mark.slow(reason='the search benchmark run on real decisions, with and without the '
                        'horizon: about 2 s of CPU')
def test_bench_search_measures_real_decisions_with_and_without_the_horizon() -> None:
    """bench_search once read a forced move as its Thingvellir middle position (a search
    that returns at once: hundreds of millions of "iterations" per second)."""
    module = load_script("bench_search")
    out = module.measure(1, ["thingvellir"])
    rates = {k: v for k, v in out.items() if "iterations_per_s" in k}
    assert set(rates) == {f"{bot}_iterations_per_s_{label}" for label in ("opening", "middle")
                          for bot in ("search", "montecarlo", "search_cut")}
    assert all(50 < v < 50_000 for v in rates.values()), rates
