"""Simulations at scale: random games written as partitioned Parquet through a local Dask
cluster of 1 and of N workers, and the scaling efficiency.

    python benchmarks/bench_dask.py [--games 100000] [--players 3] [--workers 1 2] [--json]

Each line starts its own LocalCluster (start-up included in the time, as for a user), writes
into a fresh temporary folder and checks that the folder reads back with every row.
Efficiency from 1 to N workers is ``t1 / (N * tN)``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from nidavellir.analysis.simulate import read_dir, simulate_to_dir


def run(games: int, players: int, workers: int) -> float:
    folder = Path(tempfile.mkdtemp()) / "sim"
    try:
        start = time.perf_counter()
        simulate_to_dir(folder, games, players, "random", seed=1, dask=workers, progress=False)
        elapsed = time.perf_counter() - start
        rows = read_dir(folder)
        assert len(rows) == games * players, "rows missing"
        return elapsed
    finally:
        shutil.rmtree(folder.parent, ignore_errors=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    if not 2 <= args.players <= 5:
        parser.error(f"--players must be 2 to 5, not {args.players}")
    if any(w < 1 for w in args.workers):
        parser.error("--workers takes counts >= 1")
    times = {w: run(args.games, args.players, w) for w in args.workers}
    base = min(args.workers)
    result = {
        f"dask_{w}": {"seconds": round(t, 1), "games_per_s": round(args.games / t, 1),
                      "efficiency_vs_" + str(base): round(times[base] * base / (w * t), 3)}
        for w, t in times.items()}
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{args.games} random {args.players}-player games to partitioned Parquet")
    for w, t in times.items():
        eff = times[base] * base / (w * t)
        print(f"  --dask {w}: {t:7.1f} s  {args.games / t:8.0f} games/s  "
              f"efficiency vs {base} worker(s): {eff:.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
