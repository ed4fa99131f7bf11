"""How good is the coach's judgement? Agreement with ``expert`` and cost per position.

For ``--positions`` decisions taken from seeded games (card picks, heroes, coin transforms
and the other small decisions: bids, with 60 options, are left out to keep the run short),
every judge picks the option it rates best and the script counts how often that is the move
``expert`` chooses (the search at its 3 s per decision, as iterations:
:data:`nidavellir.bots.judge.ITERATIONS_PER_SECOND`, so that the reference is the same on a
busy machine), and how often ``expert``'s move is among the options the judge calls about as
good as its best (``about``):

- ``now``: the change of the score sheet right after the move;
- ``quick``, ``coach``: the coach's judgement (:func:`nidavellir.bots.judge.judge`) at
  those levels; ``coach`` is the Hint's, the buttons', What-if's and the review's;
- ``hard``: the ``hard`` bot's own move (its 0.75 s of search, as iterations);
- ``coach*F`` (with ``--judges``): the ``coach`` level with F times its iterations and
  playouts, to size the coach's budget (its agreement against its CPU time).

    python benchmarks/bench_judges.py [--positions 40] [--judges now,quick,coach,hard] [--json]

Every 10 positions a line on stderr gives the counts so far (agreeing / about as good).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Sequence

from nidavellir.analysis.whatif import what_if
from nidavellir.bots import make_bot, play_game
from nidavellir.bots.judge import ITERATIONS_PER_SECOND, LEVELS, JudgeLevel, judge, no_cache
from nidavellir.bots.tree import EXPERT_SECONDS, HARD_SECONDS
from nidavellir.game import Game

JUDGES = ("now", "quick", "coach", "hard")


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


def level_of(name: str) -> str | JudgeLevel:
    """A judge's level: a level's name, or ``coach*F``, the coach's budget times F."""
    base, star, factor = name.partition("*")
    if not star:
        return name
    lvl = LEVELS[base]
    f = float(factor)
    return dataclasses.replace(lvl, name=name, iterations=round(lvl.iterations * f),
                               playouts=round(lvl.playouts * f))


def choice(name: str, game: Game, seed: int) -> tuple[str, set[str]]:
    """(the judge's move, the moves it calls about as good)."""
    if name == "hard":
        move = str(make_bot("hard", seed, iterations=round(HARD_SECONDS * ITERATIONS_PER_SECOND))
                   .choose(game))
        return move, {move}
    if name == "now":
        frame = what_if(game)
        move = str(frame.sort_values("delta_total", ascending=False, kind="stable")
                   .iloc[0]["action"])
        return move, {move}
    with no_cache():
        j = judge(game, level=level_of(name))
    return str(j.best), {str(a) for o in j.about_best for a in o.actions}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--judges", default=",".join(JUDGES),
                        help="comma-separated: now, hard, a level's name, or LEVEL*F "
                             "(the level's budget times F)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.positions < 1:
        parser.error("--positions must be at least 1")
    judges = tuple(j.strip() for j in args.judges.split(",") if j.strip())
    for j in judges:
        base, star, factor = j.partition("*")
        try:
            ok = (j in ("now", "hard") or base in LEVELS) and (not star or float(factor) > 0)
        except ValueError:
            ok = False
        if not ok:
            parser.error(f"--judges: unknown judge {j!r} (now, {', '.join(LEVELS)}, "
                         "or LEVEL*F with F > 0)")
    games = positions(args.positions)
    agree = dict.fromkeys(judges, 0)
    about = dict.fromkeys(judges, 0)
    spent = dict.fromkeys(judges, 0.0)
    worst = dict.fromkeys(judges, 0.0)
    expert = round(EXPERT_SECONDS * ITERATIONS_PER_SECOND)
    for k, game in enumerate(games):
        reference = str(make_bot("expert", 1000 + k, iterations=expert).choose(game))
        for name in judges:
            start = time.process_time()
            picked, same = choice(name, game, k)
            took = time.process_time() - start
            spent[name] += took
            worst[name] = max(worst[name], took)
            agree[name] += picked == reference
            about[name] += reference in same
        if (k + 1) % 10 == 0:  # a long run says how far it is (stderr), and what it found
            print(f"{k + 1} positions: " + ", ".join(
                f"{j} {agree[j]}/{about[j]}" for j in judges), file=sys.stderr, flush=True)
    n = len(games)
    result = {j: {"agreement": round(agree[j] / n, 3), "about": round(about[j] / n, 3),
                  "cpu_seconds_per_position": round(spent[j] / n, 3),
                  "max_cpu_seconds": round(worst[j], 3)} for j in judges}
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{n} positions (no bids); agreement with expert ({expert} iterations)")
    for j in judges:
        print(f"  {j:<8} {agree[j] / n:6.0%} (expert's move about as good: {about[j] / n:4.0%})"
              f"  {spent[j] / n:6.2f} s of CPU per position (max {worst[j]:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
