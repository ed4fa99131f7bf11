"""The puzzles' figures (issue 54; benchmarks/README.md, "Puzzles from real games").

    python benchmarks/bench_puzzles.py [--file FILE.jsonl] [--salt S] [--shows N] [--json]

For every puzzle of the file (the shipped set by default):

- ``check``: ``nidavellir puzzles check`` in full (the current engine and judge keep it,
  with the same answers), and the CPU seconds of each verification;
- ``stability``: the only-move test on another set of deals (``--salt``, not the
  generator's 0 nor its second set 1) keeps it with the same answers: the test is stable,
  not noise (the goal: at least 90 %);
- ``next``: the wall seconds from *Next puzzle* to the puzzle on screen in the Puzzles
  tab (``--shows`` times; the goal: at most 1 s).

It also counts the set's puzzles by table (players, edition) and by theme. A line per
puzzle on stderr says how far it is.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from nidavellir.analysis.puzzles import read_puzzles
from nidavellir.analysis.puzzles.fileformat import SHIPPED
from nidavellir.analysis.puzzles.generate import check
from nidavellir.bots.puzzle import verify


def measure(path: Path, salt: int, shows: int) -> dict[str, Any]:
    puzzles = read_puzzles(path)
    failed: list[dict[str, Any]] = []
    unstable: list[str] = []
    seconds: list[float] = []
    for i, p in enumerate(puzzles, 1):
        t = time.process_time()
        problems = check(p)
        seconds.append(time.process_time() - t)
        if problems:
            failed.append({"id": p.id, "problems": problems})
        again = verify(p.game(), deals=max(int(p.extra.get("deals") or 1), 200), salt=salt)
        if not again.passed or set(again.answers) != set(p.answers):
            unstable.append(p.id)
        print(f"{i}/{len(puzzles)} {p.id}: {'fails' if problems else 'passes'}, "
              f"{'unstable' if p.id in unstable else 'stable'}", file=sys.stderr)
    tables = Counter(f"{p.players}p {'Thingvellir' if p.thingvellir else 'base'}"
                     for p in puzzles)
    themes = Counter(t for p in puzzles for t in p.themes)
    out: dict[str, Any] = {
        "file": str(path), "puzzles": len(puzzles), "failed": failed,
        "check_seconds_mean": round(statistics.fmean(seconds), 3) if seconds else None,
        "check_seconds_max": round(max(seconds), 3) if seconds else None,
        "stable_share": round(1 - len(unstable) / len(puzzles), 3) if puzzles else None,
        "unstable": unstable, "salt": salt,
        "exact": sum(p.exact for p in puzzles),
        "tables": dict(sorted(tables.items())), "themes": dict(sorted(themes.items())),
    }
    if shows:
        with tempfile.TemporaryDirectory() as home:
            os.environ["NIDAVELLIR_DATA_DIR"] = home
            from widgets.puzzles import PuzzlesTab

            tab = PuzzlesTab(puzzles=puzzles, chart=False)
            waits = []
            for _ in range(shows):
                t0 = time.perf_counter()
                tab.next()
                waits.append(time.perf_counter() - t0)
            out["next_seconds_mean"] = round(statistics.fmean(waits), 3)
            out["next_seconds_max"] = round(max(waits), 3)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", type=Path, default=SHIPPED)
    parser.add_argument("--salt", type=int, default=2)
    parser.add_argument("--shows", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    out = measure(args.file, args.salt, args.shows)
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        for key, value in out.items():
            print(f"{key}: {value}")
    return 1 if out["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
