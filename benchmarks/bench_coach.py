"""How long the coach takes on one core: the judgement behind the Hint, the buttons, the
win bar and What-if, per decision kind (the slowest cases included: the first bid of a game,
a hero choice with the whole Thingvellir hall).

    python benchmarks/bench_coach.py [--per-kind 3] [--json]

Each figure is one judgement at the ``coach`` level, judged afresh (nothing kept), in wall
seconds and in seconds of CPU (a busy machine stretches the first, much less the second),
with the buttons' previews (``immediates``: "now" for every option) measured separately.
Goal (issue 41): the judgement ready within 2 s of the decision appearing, on one core.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence

from nidavellir.bots import play_game
from nidavellir.bots.immediate import immediates
from nidavellir.bots.judge import judge, no_cache
from nidavellir.game import Game


def positions(per_kind: int) -> dict[str, list[Game]]:
    """Decisions by kind from seeded games (3 players, base and Thingvellir)."""
    found: dict[str, list[Game]] = {}
    for seed in range(200):
        exp = ("thingvellir",) if seed % 2 else ()
        full = play_game(3, "heuristic", seed=seed, expansions=exp)
        g = Game.new(players=3, seed=seed, expansions=exp)
        for _, action in full.history:
            d = g.decision
            kind = str(d.kind)
            if len(g.legal_actions()) > 1 and len(found.setdefault(kind, [])) < per_kind:
                found[kind].append(g.clone())
            g.apply_fast(action)
        if all(len(v) >= per_kind for v in found.values()) and len(found) >= 8 and seed > 20:
            break
    return found


def timed(fn) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """(wall seconds, CPU seconds) of ``fn()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def judged(game: Game) -> None:
    with no_cache():
        judge(game, level="coach")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kind", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.per_kind < 1:
        parser.error("--per-kind must be at least 1")
    result: dict[str, dict[str, float]] = {}
    openings = [Game.new(players=3, seed=s, expansions=e)
                for s, e in ((1, ()), (2, ("thingvellir",)))]
    found = positions(args.per_kind)
    found["bid (first of the game)"] = openings
    for kind, games in sorted(found.items()):
        walls, cpus, now, options = [], [], [], []
        for g in games:
            options.append(len(g.legal_actions()))
            wall, cpu = timed(lambda g=g: judged(g))
            walls.append(wall)
            cpus.append(cpu)
            now.append(timed(lambda g=g: immediates(g, g.legal_actions()))[0])
        result[kind] = {"positions": len(games), "options_max": max(options),
                        "wall_median": statistics.median(walls), "wall_max": max(walls),
                        "cpu_median": statistics.median(cpus), "cpu_max": max(cpus),
                        "previews_max": max(now)}
    if args.json:
        print(json.dumps({k: {m: round(v, 3) for m, v in r.items()} for k, r in result.items()}))
        return 0
    print(f"{'kind':<26} {'n':>2} {'options':>7} {'wall median/max':>16} {'CPU median/max':>16} "
          f"{'previews max':>13}")
    for kind, r in result.items():
        print(f"{kind:<26} {r['positions']:>2.0f} {r['options_max']:>7.0f} "
              f"{r['wall_median']:>7.2f} / {r['wall_max']:<6.2f} "
              f"{r['cpu_median']:>7.2f} / {r['cpu_max']:<6.2f} {r['previews_max']:>13.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
