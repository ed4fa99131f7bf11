"""A benchmark run in the pure-Python and the compiled build, side by side (``--compare``).

The benchmark script runs again in two fresh interpreters, ``NIDAVELLIR_COMPILED=pure`` and
``=compiled`` (the second fails, saying why, when no current compiled build exists: ``make
compiled``), each printing its JSON; the result holds both and, for every figure, the
compiled one over the pure one. The machine is shared: the load average before and after
is part of the result.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

BUILDS = ("pure", "compiled")


def run_in(build: str, script: str, argv: Sequence[str]) -> dict[str, Any]:
    """``script argv --json`` in a fresh interpreter running ``build``."""
    env = dict(os.environ, NIDAVELLIR_COMPILED=build)
    done = subprocess.run([sys.executable, script, *argv, "--json"], env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{Path(script).name} in the {build} build failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def compare(script: str, argv: Sequence[str], ratio: Callable[[Any, Any], Any],
            rounds: int = 1, best: Callable[[Sequence[float]], float] | None = None
            ) -> dict[str, Any]:
    """Both builds' results and ``ratio(pure, compiled)`` of them, with the load. With
    ``rounds`` > 1 the builds run alternately that many times each and every (top-level,
    numeric) figure is the ``best`` of its rounds (``max`` for rates, ``min`` for times)."""
    if rounds < 1:
        raise SystemExit(f"--rounds must be at least 1, not {rounds}")
    before = os.getloadavg()
    runs: dict[str, list[dict[str, Any]]] = {build: [] for build in BUILDS}
    for _ in range(rounds):
        for build in BUILDS:
            runs[build].append(run_in(build, script, argv))
    results = {build: (found[0] if best is None else
                       {k: best([r[k] for r in found]) for k in found[0]})
               for build, found in runs.items()}
    return {**results, "ratio": ratio(results["pure"], results["compiled"]),
            "rounds": rounds, "load_before": [round(x, 2) for x in before],
            "load_after": [round(x, 2) for x in os.getloadavg()]}


def options_without(argv: Sequence[str], flags: Sequence[str],
                    valued: Sequence[str] = ()) -> list[str]:
    """``argv`` without the side-by-side flags (``valued`` ones take a value, given as
    ``--x V`` or ``--x=V``)."""
    out: list[str] = []
    skip = False
    for a in argv:
        if skip:
            skip = False
        elif a in flags or any(a.startswith(f"{v}=") for v in valued):
            continue
        elif a in valued:
            skip = True
        else:
            out.append(a)
    return out


def print_table(result: dict[str, Any], title: str, label: str, width: int, digits: int,
                ratio: str = "ratio") -> None:
    """The figures of both builds and their ratios, a line each, under ``title`` and the
    load."""
    print(f"{title} (load {result['load_before'][0]:.1f} before, "
          f"{result['load_after'][0]:.1f} after; a shared machine)")
    print(f"  {label:<{width}} {'pure':>10} {'compiled':>10} {ratio:>9}")
    for key, r in result["ratio"].items():
        print(f"  {key:<{width}} {result['pure'][key]:>10.{digits}f} "
              f"{result['compiled'][key]:>10.{digits}f} {r:>8.2f}x")
