"""How long the coach takes on one core: the judgement behind the Hint, the buttons, the
win bar and What-if, per decision kind (the slowest cases included: the first bid of a game,
a hero choice with the whole Thingvellir hall).

    python benchmarks/bench_coach.py [--per-kind 3] [--level coach] [--json] [--compare]

Each figure is one judgement at the ``coach`` level (or ``--level``), judged afresh (nothing
kept), in wall seconds and in seconds of CPU (a busy machine stretches the first, much less
the second), with the buttons' previews (``immediates``: "now" for every option) measured
separately, and how sure the judgement is: the standard error of the gap between the best
option and the runner-up, in chance to win and in points (``gap_se``, medians; the ``all``
line sums the CPU and takes the medians over every position).
Goal (issue 41): the judgement ready within 2 s of the decision appearing, on one core.

``--compare`` judges the same positions at the same level in the pure-Python and the
compiled build (docs/development.md, "The compiled build"): the ratio is pure CPU time over
compiled (the goal: >= 2.5 over all positions), and the figures must be the same.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import statistics
import sys
import time
from collections.abc import Sequence

from nidavellir.bots import play_game
from nidavellir.bots.immediate import immediates
from nidavellir.bots.judge import JudgeLevel, Judgement, judge, no_cache, parse_level
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


def judged(game: Game, level: str | JudgeLevel = "coach") -> Judgement:
    with no_cache():
        return judge(game, level=level)


def gap_se(j: Judgement) -> tuple[float, float]:
    """The standard errors of the gap between the best option and the runner-up (chance to
    win, points); 0 for an exact judgement or a single option."""
    if len(j.options) < 2:
        return 0.0, 0.0
    second = j.options[1]
    return second.win_gap.se, second.points_gap.se


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kind", type=int, default=3)
    parser.add_argument("--level", default="coach",
                        help="the coach's level (coach, deep, search@N, ...)")
    parser.add_argument("--budget", metavar="ITERATIONS/PLAYOUTS[/MOST]",
                        help="the level with another budget: search iterations, paired "
                             "playouts and at most per option (the coach's was 560/350 "
                             "before the compiled build)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--compare", action="store_true",
                        help="the pure-Python and the compiled build side by side")
    args = parser.parse_args(argv)
    if args.per_kind < 1:
        parser.error("--per-kind must be at least 1")
    try:
        level: str | JudgeLevel = parse_level(args.level)
    except ValueError as e:
        parser.error(f"--level: {e}")
    if args.budget:
        parts = args.budget.split("/")
        if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts):
            parser.error("--budget: expected ITERATIONS/PLAYOUTS or ITERATIONS/PLAYOUTS/MOST "
                         f"(560/2600/2200), not {args.budget!r}")
        budget = {"iterations": int(parts[0]), "playouts": int(parts[1])}
        if len(parts) == 3:
            budget["most"] = int(parts[2])
        level = dataclasses.replace(level, name=f"{level.name}@{args.budget}", **budget)
    if args.compare:
        return _compare(sys.argv[1:] if argv is None else list(argv), args.json)
    result: dict[str, dict[str, float]] = {}
    every: dict[str, list[float]] = {"cpu": [], "gap_se_win": [], "gap_se_points": []}
    figures: list[str] = []
    openings = [Game.new(players=3, seed=s, expansions=e)
                for s, e in ((1, ()), (2, ("thingvellir",)))]
    found = positions(args.per_kind)
    found["bid (first of the game)"] = openings
    for kind, games in sorted(found.items()):
        walls, cpus, now, options, gaps = [], [], [], [], []
        for g in games:
            options.append(len(g.legal_actions()))
            made: list[Judgement] = []
            wall, cpu = timed(lambda g=g, made=made: made.append(judged(g, level)))
            walls.append(wall)
            cpus.append(cpu)
            gaps.append(gap_se(made[0]))
            j = made[0].to_dict()
            del j["seconds"]
            figures.append(json.dumps(j, sort_keys=True))
            now.append(timed(lambda g=g: immediates(g, g.legal_actions()))[0])
        every["cpu"] += cpus
        every["gap_se_win"] += [w for w, _ in gaps]
        every["gap_se_points"] += [p for _, p in gaps]
        result[kind] = {"positions": len(games), "options_max": max(options),
                        "wall_median": statistics.median(walls), "wall_max": max(walls),
                        "cpu_median": statistics.median(cpus), "cpu_max": max(cpus),
                        "previews_max": max(now),
                        "gap_se_win": statistics.median(w for w, _ in gaps),
                        "gap_se_points": statistics.median(p for _, p in gaps)}
    result["all"] = {"positions": len(every["cpu"]), "cpu_total": sum(every["cpu"]),
                     "cpu_median": statistics.median(every["cpu"]),
                     "cpu_max": max(every["cpu"]),
                     "gap_se_win": statistics.median(every["gap_se_win"]),
                     "gap_se_points": statistics.median(every["gap_se_points"])}
    if args.json:
        out: dict[str, object] = {k: {m: round(v, 4) for m, v in r.items()}
                                  for k, r in result.items()}
        # The judgements themselves, as one digest (the side-by-side run compares them).
        out["figures"] = hashlib.sha256("\n".join(figures).encode()).hexdigest()[:16]
        print(json.dumps(out))
        return 0
    print(f"{'kind':<26} {'n':>2} {'options':>7} {'wall median/max':>16} {'CPU median/max':>16} "
          f"{'previews max':>13}")
    for kind, r in result.items():
        if kind == "all":
            continue
        print(f"{kind:<26} {r['positions']:>2.0f} {r['options_max']:>7.0f} "
              f"{r['wall_median']:>7.2f} / {r['wall_max']:<6.2f} "
              f"{r['cpu_median']:>7.2f} / {r['cpu_max']:<6.2f} {r['previews_max']:>13.3f}")
    a = result["all"]
    print(f"all {a['positions']:.0f} positions: CPU {a['cpu_total']:.1f} s, median "
          f"{a['cpu_median']:.2f} s, max {a['cpu_max']:.2f} s; the best-vs-runner-up gap's "
          f"standard error (median): {100 * a['gap_se_win']:.1f} points of chance to win, "
          f"{a['gap_se_points']:.2f} points")
    return 0


def _compare(argv: list[str], as_json: bool) -> int:
    from side_by_side import compare, options_without

    def ratio(pure: dict, fast: dict) -> dict:
        return {k: round(pure[k]["cpu_median"] / max(fast[k]["cpu_median"], 1e-9), 2)
                for k in pure if k not in ("all", "figures")} | {
            "all": round(pure["all"]["cpu_total"] / max(fast["all"]["cpu_total"], 1e-9), 2),
            "same_figures": pure["figures"] == fast["figures"]}

    result = compare(__file__, options_without(argv, ("--compare", "--json")), ratio)
    if as_json:
        print(json.dumps(result))
        return 0
    print(f"the coach's judgements, CPU seconds on one core (load "
          f"{result['load_before'][0]:.1f} before, {result['load_after'][0]:.1f} after; a "
          "shared machine)")
    print(f"{'kind':<26} {'pure':>7} {'compiled':>9} {'ratio':>6}")
    for kind, r in result["ratio"].items():
        if kind in ("all", "same_figures"):
            continue
        print(f"{kind:<26} {result['pure'][kind]['cpu_median']:>7.2f} "
              f"{result['compiled'][kind]['cpu_median']:>9.2f} {r:>5.2f}x")
    print(f"{'all (CPU in all)':<26} {result['pure']['all']['cpu_total']:>7.2f} "
          f"{result['compiled']['all']['cpu_total']:>9.2f} {result['ratio']['all']:>5.2f}x")
    print("the same judgements in both builds" if result["ratio"]["same_figures"]
          else "THE JUDGEMENTS DIFFER between the builds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
