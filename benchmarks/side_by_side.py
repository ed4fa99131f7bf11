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


def compare(script: str, argv: Sequence[str],
            ratio: Callable[[Any, Any], Any]) -> dict[str, Any]:
    """Both builds' results and ``ratio(pure, compiled)`` of them, with the load."""
    before = os.getloadavg()
    results = {build: run_in(build, script, argv) for build in BUILDS}
    return {**results, "ratio": ratio(results["pure"], results["compiled"]),
            "load_before": [round(x, 2) for x in before],
            "load_after": [round(x, 2) for x in os.getloadavg()]}


def without(argv: Sequence[str], *flags: str) -> list[str]:
    """``argv`` without the given flags (the side-by-side ones)."""
    return [a for a in argv if a not in flags]
