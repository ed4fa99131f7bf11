"""One bot against copies of another, seat-rotated on common deals: its win share with a 95%
Wilson interval, its mean margin, and the seconds per decision of both.

    python benchmarks/bench_strength.py hard montecarlo --players 3 --games 60 \\
        --expansions thingvellir --workers 2 [--seed 7000] [--json]

The same games as one ordered pairing of ``nidavellir ladder`` (deal ``j`` played
``players`` times, the lone bot in every seat in turn), without the reverse pairing: a
match such as "hard vs two montecarlo" costs half as much. Bots are named as everywhere
(``hard``, ``search@400``, ``hard+rm``, ``montecarlo@0.25s``). Figures: benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence

from nidavellir.analysis.ladder import play_ladder_game
from nidavellir.analysis.runner import Backend, check_workers, run_tasks
from nidavellir.analysis.simulate import seconds_per_game
from nidavellir.bots import derive_seed, parse_bot_spec
from nidavellir.stats import mean_se, wilson


def match_tasks(lone: str, field: str, players: int, games: int, seed: int,
                expansions: Sequence[str]) -> list[tuple]:
    deals = math.ceil(games / players)
    tasks = []
    for deal in range(deals):
        deal_seed = derive_seed(seed, "deal", deal)
        for seat in range(players):
            seats = tuple(lone if s == seat else field for s in range(players))
            tasks.append((len(tasks), 0, lone, field, deal, deal_seed, seats, tuple(expansions)))
    return tasks


def match(lone: str, field: str, players: int = 3, games: int = 30, seed: int = 0,
          expansions: Sequence[str] = (), workers: int = 1) -> dict[str, object]:
    for b in (lone, field):
        parse_bot_spec(b)
    if lone == field:
        raise ValueError(f"the two bots must differ, got {lone!r} twice")
    check_workers(workers)
    tasks = match_tasks(lone, field, players, games, seed, expansions)
    start = time.perf_counter()
    rows = [r for game in run_tasks(play_ladder_game, tasks, backend=Backend(workers=workers),
                                    seconds_per_task=seconds_per_game([lone, field], players))
            for r in game]
    lone_rows = [r for r in rows if r["bot"] == lone]
    field_rows = [r for r in rows if r["bot"] == field]
    wins = sum(r["win_share"] for r in lone_rows)
    n = len(lone_rows)
    low, high = wilson(wins, n)
    margins = [float(r["margin"]) for r in lone_rows]

    def per_decision(rs: list[dict]) -> float:
        return sum(r["seconds"] for r in rs) / max(1, sum(r["decisions"] for r in rs))
    return {"lone": lone, "field": field, "players": players, "games": n,
            "expansions": list(expansions), "seed": seed,
            "win_share": wins / n, "win_low": low, "win_high": high, "parity": 1 / players,
            "mean_margin": sum(margins) / n, "margin_se": mean_se(margins),
            "lone_seconds_per_decision": per_decision(lone_rows),
            "field_seconds_per_decision": per_decision(field_rows),
            "wall_seconds": time.perf_counter() - start}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lone", help="the bot alone at the table, e.g. hard")
    parser.add_argument("field", help="the bot in every other seat, e.g. montecarlo")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=30, help="games (rounded up to a "
                        "multiple of --players)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--expansions", default="", help="e.g. thingvellir")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    expansions = [e for e in args.expansions.split(",") if e]
    try:
        if not 2 <= args.players <= 5:
            raise ValueError(f"--players must be 2 to 5, not {args.players}")
        if args.games < 1:
            raise ValueError(f"--games must be at least 1, not {args.games}")
        for e in expansions:
            if e != "thingvellir":
                raise ValueError(f"unknown expansion {e!r} (known: thingvellir)")
        result = match(args.lone, args.field, args.players, args.games, args.seed,
                       expansions, args.workers)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result))
        return 0
    r = result
    print(f"{r['lone']} vs {r['players'] - 1} x {r['field']}, {r['players']} players"
          f"{', ' + ','.join(expansions) if expansions else ''}: {r['games']} games")
    print(f"  win share {r['win_share']:.0%} (95% {r['win_low']:.0%}-{r['win_high']:.0%}; "
          f"parity {r['parity']:.0%}), mean margin {r['mean_margin']:+.1f} "
          f"(± {r['margin_se']:.1f})")
    print(f"  seconds per decision: {r['lone']} {r['lone_seconds_per_decision']:.3f}, "
          f"{r['field']} {r['field_seconds_per_decision']:.3f}; wall {r['wall_seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
