"""How long the coach takes on one core: the Hint, the buttons' estimates and the What-if
table, per decision kind (the slowest cases included: a first hero choice of a game with the
whole hall, a bid with 60 options).

    python benchmarks/bench_coach.py [--per-kind 3] [--json]

Each figure is the wall time of one judgement at the level the Play tab uses (``coach`` for
the Hint and the What-if table, ``quick`` for the buttons), with the move buttons' immediate
previews (``immediates``) measured separately. Goals (issue 25): the Hint and the What-if
table under 2 s, the buttons' end-of-game estimate under 1 s per decision.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence

from nidavellir.analysis.whatif import what_if
from nidavellir.bots import play_game
from nidavellir.bots.judge import immediates, judge
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


def timed(fn) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kind", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.per_kind < 1:
        parser.error("--per-kind must be at least 1")
    result: dict[str, dict[str, float]] = {}
    for kind, games in sorted(positions(args.per_kind).items()):
        hint, quick, table, now = [], [], [], []
        options = []
        for g in games:
            options.append(len(g.legal_actions()))
            hint.append(timed(lambda g=g: judge(g, level="coach")))
            quick.append(timed(lambda g=g: judge(g, level="quick")))
            table.append(timed(lambda g=g: what_if(g, level="coach")))
            now.append(timed(lambda g=g: immediates(g, g.legal_actions())))
        result[kind] = {"positions": len(games), "options_max": max(options),
                        "hint_median": statistics.median(hint), "hint_max": max(hint),
                        "buttons_max": max(quick), "whatif_max": max(table),
                        "previews_max": max(now)}
    if args.json:
        print(json.dumps({k: {m: round(v, 3) for m, v in r.items()} for k, r in result.items()}))
        return 0
    print(f"{'kind':<16} {'n':>2} {'options':>7} {'Hint median/max':>16} {'buttons max':>12} "
          f"{'What-if max':>12} {'previews max':>13}")
    for kind, r in result.items():
        print(f"{kind:<16} {r['positions']:>2.0f} {r['options_max']:>7.0f} "
              f"{r['hint_median']:>7.2f} / {r['hint_max']:<6.2f} {r['buttons_max']:>12.2f} "
              f"{r['whatif_max']:>12.2f} {r['previews_max']:>13.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
