"""Engine throughput: full games per second on one core.

Random games use the fast path the simulations use (``RandomBot`` reading the
engine's legal actions without a copy, ``game.apply_fast``); the greedy line shows
the cost of a bot that clones and scores its options.

    python benchmarks/bench_engine.py [--seconds 2] [--players 2 3 4 5] [--json] [--compare]

The target is >= 500 random 3-player games per second (see benchmarks/README.md).
``--compare`` runs the same lines in the pure-Python and the compiled build
(docs/development.md, "The compiled build") and gives each figure's ratio, compiled over
pure (the goal: >= 3 for random 3-player games).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable, Sequence

from nidavellir.bots import GreedyBot, RandomBot, play_game

TARGET_RANDOM_3P = 500.0


def games_per_second(players: int, bot: str, seconds: float, min_games: int = 5,
                     expansions: Sequence[str] = (), repeat: int = 5,
                     clock: Callable[[], float] = time.perf_counter) -> tuple[float, int]:
    """(games/s, games per batch): the best of ``repeat`` batches of the same seeded games
    (seed 0, 1, ...), each batch about ``seconds / repeat`` long. The best batch is the
    least disturbed by other processes on the machine (as ``timeit`` does). ``clock``:
    wall time, or the process's CPU time (``--cpu``: less stretched on a busy machine)."""
    factory = RandomBot if bot == "random" else GreedyBot

    def batch(n: int) -> float:
        start = clock()
        for seed in range(n):
            play_game(players, [factory(seed * 10 + i) for i in range(players)], seed=seed,
                      expansions=expansions)
        return clock() - start

    # Size the batch from a first short run, then time the same games ``repeat`` times.
    n, elapsed = min_games, batch(min_games)
    while elapsed < 0.1 * seconds / repeat:
        n *= 2
        elapsed = batch(n)
    n = max(min_games, int(n * (seconds / repeat) / max(elapsed, 1e-9)))
    best = min(batch(n) for _ in range(repeat))
    return n / best, n


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="time per measurement (default 2)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5],
                        help="player counts of the random lines (2 to 5)")
    parser.add_argument("--greedy-players", type=int, default=3,
                        help="player count of the greedy line (2 to 5; 0 skips it)")
    parser.add_argument("--expansions", default="", help="e.g. thingvellir")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument("--cpu", action="store_true",
                        help="time in CPU seconds of this process, not wall seconds (a busy "
                             "machine stretches wall time)")
    parser.add_argument("--compare", action="store_true",
                        help="the pure-Python and the compiled build side by side")
    parser.add_argument("--rounds", type=int, default=1,
                        help="--compare: run each build this many times, alternately, and "
                             "keep each figure's best (default 1)")
    args = parser.parse_args(argv)
    expansions = [e for e in args.expansions.split(",") if e]
    # Bad arguments: one line from argparse (exit 2), never a traceback.
    if not args.seconds > 0:
        parser.error(f"--seconds must be a positive number, not {args.seconds:g}")
    for p in args.players:
        if not 2 <= p <= 5:
            parser.error(f"--players: {p} is not a player count (2 to 5)")
    if args.greedy_players != 0 and not 2 <= args.greedy_players <= 5:
        parser.error(f"--greedy-players: {args.greedy_players} is not a player count "
                     "(2 to 5, or 0 to skip the greedy line)")
    for e in expansions:
        if e.lower() != "thingvellir":
            parser.error(f"--expansions: unknown expansion {e!r} (known: thingvellir)")

    if args.compare:
        return _compare(sys.argv[1:] if argv is None else list(argv), args.json, args.rounds)
    clock = time.process_time if args.cpu else time.perf_counter

    # Warm up caches (bid permutations, imports) so the first line is not penalised.
    play_game(3, "random", seed=-1, expansions=expansions)
    results: dict[str, float] = {}
    if not args.json:
        print(f"Python {platform.python_version()} on {platform.machine()}, one core, "
              f"{args.seconds:g} s per line{', ' + args.expansions if expansions else ''}")
    for p in args.players:
        rate, n = games_per_second(p, "random", args.seconds, expansions=expansions,
                                   clock=clock)
        results[f"random_{p}p"] = rate
        if not args.json:
            note = ""
            if p == 3:
                note = f"  (target >= {TARGET_RANDOM_3P:g})"
            print(f"random  {p} players: {rate:8.1f} games/s  (best of 5 x {n} games){note}")
    p = args.greedy_players
    if p:
        rate, n = games_per_second(p, "greedy", args.seconds, min_games=2,
                                   expansions=expansions, clock=clock)
        results[f"greedy_{p}p"] = rate
        if not args.json:
            print(f"greedy  {p} players: {rate:8.1f} games/s  (best of 5 x {n} games)")
    if args.json:
        print(json.dumps({k: round(v, 1) for k, v in results.items()}))
    return 0


def _compare(argv: list[str], as_json: bool, rounds: int) -> int:
    from side_by_side import compare, options_without, print_table

    result = compare(__file__, options_without(argv, ("--compare", "--json"), ("--rounds",)),
                     lambda pure, fast: {k: round(fast[k] / pure[k], 2) for k in pure},
                     rounds=rounds, best=max)
    if as_json:
        print(json.dumps(result))
        return 0
    print_table(result, f"games per second, one core, {'CPU' if '--cpu' in argv else 'wall'} "
                "time", "line", 12, 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
