"""How good is each what-if judge? Agreement with ``expert`` and cost per position.

For ``--positions`` decisions taken from seeded games (card picks, heroes, coin transforms
and the other small decisions: bids, with 60 options, are left out to keep the run short),
every judge picks the option it rates best and the script counts how often that is the move
``expert`` (the search with 3 s per decision) chooses:

- ``now``: the immediate change of the score sheet (what-if without playouts);
- ``random`` / ``greedy`` / ``heuristic``: what-if with ``--playouts`` playouts per option,
  every seat played by that bot (the search's own playout policy is ``heuristic``);
- ``hard``: the search itself (0.75 s per decision).

    python benchmarks/bench_judges.py [--positions 40] [--playouts 20] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from nidavellir.analysis.whatif import what_if
from nidavellir.bots import make_bot, play_game
from nidavellir.game import Game

JUDGES = ("now", "random", "heuristic", "greedy", "hard")


def positions(n: int, seed: int = 0) -> list[Game]:
    out: list[Game] = []
    s = seed
    while len(out) < n:
        full = play_game(3, "heuristic", seed=s)
        replay = Game.new(players=3, seed=s)
        for i, (_, action) in enumerate(full.history):
            d = replay.decision
            if (d is not None and d.kind != "bid" and 2 <= len(replay.legal_actions()) <= 8
                    and i % 7 == s % 7):
                out.append(replay.clone())
                if len(out) == n:
                    break
            replay.apply_fast(action)
        s += 1
    return out


def choice(judge: str, game: Game, playouts: int, seed: int) -> str:
    if judge == "hard":
        return str(make_bot("hard", seed).choose(game))
    frame = what_if(game, playouts=0 if judge == "now" else playouts,
                    bot="random" if judge == "now" else judge, seed=seed)
    column = "delta_total" if judge == "now" else "final_mean"
    return str(frame.sort_values(column, ascending=False, kind="stable").iloc[0]["action"])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--playouts", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.positions < 1 or args.playouts < 1:
        parser.error("--positions and --playouts must be at least 1")
    games = positions(args.positions)
    agree = dict.fromkeys(JUDGES, 0)
    spent = dict.fromkeys(JUDGES, 0.0)
    for k, game in enumerate(games):
        reference = str(make_bot("expert", 1000 + k).choose(game))
        for judge in JUDGES:
            start = time.perf_counter()
            picked = choice(judge, game, args.playouts, k)
            spent[judge] += time.perf_counter() - start
            agree[judge] += picked == reference
    n = len(games)
    result = {j: {"agreement": round(agree[j] / n, 3), "seconds_per_position":
                  round(spent[j] / n, 3)} for j in JUDGES}
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{n} positions (no bids), {args.playouts} playouts per option; agreement with "
          "expert (3 s of search)")
    for j in JUDGES:
        print(f"  {j:<10} {agree[j] / n:6.0%}  {spent[j] / n:7.2f} s per position")
    return 0


if __name__ == "__main__":
    sys.exit(main())
