"""A made-up hero with a remembered choice and a new kind of decision, installed as a plugin
(tests/plugin_hero.py, ``NIDAVELLIR_PLUGINS``), passes the suite's checks of the engine and
its layers (issue 59, item 4).

One interpreter with the plugin installed runs, unchanged: the conformance check of every
decision kind and hero (the new kind and hero included), the RL table's stability (every
published index keeps its action after the new card and kind), scoring, the golden
playthroughs (installing a plugin changes no existing game), the box, the notation,
records, scenario files, the PettingZoo adapter (its action space the longer table), and
the plugin's own checks (tests/plugin_hero_checks.py: the files it registers in, counted,
are the number docs/engine.md's checklist gives; its remembered choice reaches the state,
the observation, the RL vector, the score sheet, a bot's table and a scenario file). About
20 s of one core.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The suite's files run with the plugin installed.
FILES = ("tests/plugin_hero_checks.py", "tests/test_conformance.py", "tests/test_rl_table.py",
         "tests/test_scoring.py", "tests/test_golden.py", "tests/test_cards.py",
         "tests/test_notation.py", "tests/test_records.py", "tests/test_scenario.py",
         "tests/test_pettingzoo.py")


@pytest.mark.slow(reason="runs the conformance, RL table, scoring, golden and adapter tests "
                         "again in an interpreter with the plugin installed")
def test_the_suite_passes_with_the_made_up_hero_installed() -> None:
    path = os.pathsep.join([str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")])
    env = dict(os.environ, NIDAVELLIR_PLUGINS="plugin_hero", PYTHONPATH=path,
               PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run(
        # The speed guard is this test's (it is marked): not each test's inside it.
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-p", "no:randomly", "--speed-limit=0", *FILES],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    summary = done.stdout.strip().splitlines()[-1]
    # Every file ran, none skipped: the plugin was installed in the interpreter.
    assert "skipped" not in summary and " passed" in summary, summary
