"""The search's hot path on one core: µs per clone, determinize, apply, legal_actions,
playout, and search iterations per second (``search``, ``montecarlo`` and ``search+cut``,
the search with its horizon: truncated playouts from age 1, :mod:`nidavellir.bots.horizon`).

    python benchmarks/bench_search.py [--repeat 5] [--json] [--compare]

``--compare`` measures the pure-Python and the compiled build side by side (docs/development.md,
"The compiled build"): each figure's speed-up (µs and ms: pure over compiled; iterations per
second: compiled over pure).

Each figure is the best of ``--repeat`` batches (as ``timeit`` does), so other processes on
the machine drag it down as little as possible.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence

from nidavellir.bots import make_bot, play_game
from nidavellir.bots.playout import heuristic_policy, random_policy
from nidavellir.determinize import determinize_state
from nidavellir.engine import Engine
from nidavellir.game import Game


def best_of(repeat: int, batch: Callable[[], float]) -> float:
    return min(batch() for _ in range(repeat))


def per_call(fn: Callable[[], object], n: int, repeat: int) -> float:
    """µs per call of ``fn``: the best of ``repeat`` batches of ``n`` calls."""
    def batch() -> float:
        start = time.perf_counter()
        for _ in range(n):
            fn()
        return (time.perf_counter() - start) / n * 1e6
    return best_of(repeat, batch)


def measure(repeat: int, expansions: Sequence[str] = ()) -> dict[str, float]:
    game = play_game(3, "random", seed=1, expansions=expansions)
    mid = game.clone()
    mid.undo_to(40)
    out: dict[str, float] = {}
    out["clone_us"] = per_call(mid.clone, 2000, repeat)
    out["state_copy_us"] = per_call(mid.state.copy, 2000, repeat)
    rng = random.Random(0)
    out["determinize_us"] = per_call(lambda: determinize_state(mid.state, 0, rng), 2000, repeat)
    # A fresh Engine has no cached list: this builds the decision's legal actions.
    out["legal_actions_us"] = per_call(lambda: Engine(mid.state).legal_actions(), 2000, repeat)

    # apply: a whole random game's decisions, per decision (quiet engine, as in playouts).
    def random_game_us() -> float:
        start_state = Game.new(players=3, seed=5, expansions=expansions).state
        r = random.Random(1)
        total = 0.0
        count = 0
        for _ in range(20):
            s = start_state.copy()
            eng = Engine(s, quiet=True)
            t = time.perf_counter()
            while not s.over:
                actions = eng.legal_actions()
                eng.apply(actions[r.randrange(len(actions))], check=False)
                count += 1
            total += time.perf_counter() - t
        return total / count * 1e6
    out["apply_us"] = best_of(repeat, random_game_us)

    def playout_ms(policy: Callable[[Engine, random.Random], object]) -> float:
        start_state = Game.new(players=3, seed=5, expansions=expansions).state
        r = random.Random(2)
        t = time.perf_counter()
        for _ in range(20):
            s = start_state.copy()
            Engine(s, quiet=True).play_out(policy, r)  # the search's playout loop
        return (time.perf_counter() - t) / 20 * 1e3
    out["random_playout_ms"] = best_of(repeat, lambda: playout_ms(random_policy))
    out["heuristic_playout_ms"] = best_of(repeat, lambda: playout_ms(heuristic_policy))

    for label, index in (("opening", 3), ("middle", 40)):
        position = game.clone()
        position.undo_to(index)
        while len(position.legal_actions()) < 2:
            # A forced move is no search (choose returns at once): the next real decision.
            index += 1
            position = game.clone()
            position.undo_to(index)
        for bot in ("search", "montecarlo", "search+cut"):

            def batch(bot: str = bot, position: Game = position) -> float:
                # The search alone (choose: 150 iterations, no early stop with an iteration
                # budget); analyse() adds the coach's verification playouts on top.
                b = make_bot(bot, seed=1, iterations=150)
                t = time.perf_counter()
                b.choose(position)
                return 150 / (time.perf_counter() - t)
            key = bot.replace("+", "_")
            out[f"{key}_iterations_per_s_{label}"] = max(batch() for _ in range(repeat))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="batches per figure (default 5)")
    parser.add_argument("--expansions", default="", help="e.g. thingvellir")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument("--compare", action="store_true",
                        help="the pure-Python and the compiled build side by side")
    args = parser.parse_args(argv)
    if args.compare:
        return _compare(sys.argv[1:] if argv is None else list(argv), args.json)
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, not {args.repeat}")
    expansions = [e for e in args.expansions.split(",") if e]
    for e in expansions:
        if e.lower() != "thingvellir":
            parser.error(f"--expansions: unknown expansion {e!r} (known: thingvellir)")
    results = measure(args.repeat, expansions)
    if args.json:
        print(json.dumps({k: round(v, 2) for k, v in results.items()}))
        return 0
    print(f"Python {platform.python_version()} on {platform.machine()}, one core, 3 players"
          f"{', ' + args.expansions if expansions else ''}, best of {args.repeat}")
    for key, value in results.items():
        print(f"  {key:<34} {value:10.2f}")
    return 0


def _compare(argv: list[str], as_json: bool) -> int:
    from side_by_side import compare, options_without, print_table

    def speedup(pure: dict[str, float], fast: dict[str, float]) -> dict[str, float]:
        return {k: round(fast[k] / pure[k] if "per_s" in k else pure[k] / fast[k], 2)
                for k in pure}

    result = compare(__file__, options_without(argv, ("--compare", "--json")), speedup)
    if as_json:
        print(json.dumps(result))
        return 0
    print_table(result, "the search's hot path, one core", "figure", 34, 2, "speed-up")
    return 0


if __name__ == "__main__":
    sys.exit(main())
