"""How long a learner waits for the bots in the Play tab: from the learner's move to the
learner's next decision, over whole games.

    python benchmarks/bench_play_waits.py [--level expert] [--players 3] [--games 1]
                                          [--seed 7] [--json]

The learner's seat plays a random legal move at once (a real learner takes longer, which the
wait does not include); every other seat is a bot of ``--level``. The Play tab shows who is
thinking and how far meanwhile (the bots think in the background), so this is the time a
learner watches the progress line, not a frozen page. Issue 26 measured the waits against
two ``expert`` bots before the bots thought in the background: median 7.5 s, p90 16.6 s,
max 17.2 s.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence

from widgets.session import HUMAN, Session


def waits(level: str, players: int, games: int, seed: int) -> list[float]:
    """Seconds from each learner move to the learner's next decision."""
    out: list[float] = []
    for g in range(games):
        session = Session.from_config({"players": players, "seed": seed + g,
                                       "seats": [HUMAN] + [level] * (players - 1),
                                       "bot_delay": 0}, auto_forced=True)
        rng = random.Random(seed + g)
        game = session.game
        while not game.is_over:
            d = game.decision
            assert d is not None and session.is_human(d.player)
            action = rng.choice(game.legal_actions())
            start = time.perf_counter()
            session.submit(action)
            if session.summary_age:
                session.read_summary()
            if game.decision is not None and game.history and \
                    not session.is_human(game.history[-1][0]):
                out.append(time.perf_counter() - start)
            game = session.game
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 1 or not 2 <= args.players <= 5:
        parser.error("--games must be at least 1 and --players 2 to 5")
    w = sorted(waits(args.level, args.players, args.games, args.seed))
    if not w:
        print("no waits measured", file=sys.stderr)
        return 1
    figures = {"level": args.level, "players": args.players, "games": args.games,
               "waits": len(w), "median_s": statistics.median(w),
               "p90_s": w[min(len(w) - 1, int(0.9 * len(w)))], "max_s": w[-1],
               "mean_s": statistics.fmean(w)}
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{args.players} players, you against {args.players - 1} x {args.level}, "
              f"{args.games} game(s), {len(w)} waits: median {figures['median_s']:.1f} s, "
              f"p90 {figures['p90_s']:.1f} s, max {figures['max_s']:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
