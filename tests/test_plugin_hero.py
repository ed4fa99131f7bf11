"""A made-up hero with a new kind of decision (tests/plugin_hero.py), added to a copy of the
lab, passes the conformance check: the number of files it touches outside the tests is
measured here, and docs/engine.md's checklist gives that number (issue 43, items 3 and 4).

The copy holds the package, the widgets and the tests; the conformance test runs there in
a fresh interpreter (the copy comes first on its path), for the new kind and the hero
decision, with the new hero's scripted game; then the notation, record and PettingZoo
tests, which such a hero used to break.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from plugin_hero import EDITS

ROOT = Path(__file__).resolve().parent.parent
#: The checklist's line in docs/engine.md.
CLAIM = re.compile(r"A hero with a new kind of decision\*\*: \*\*(\d+) files\*\*")


def apply_edits(root: Path, edits: dict[str, list[tuple[str, str]]]) -> list[str]:
    """Apply the edits under ``root``; the files touched."""
    for name, changes in edits.items():
        path = root / name
        text = path.read_text(encoding="utf-8")
        for old, new in changes:
            assert text.count(old) == 1, f"{name}: the edit's text occurs {text.count(old)} times"
            text = text.replace(old, new)
        path.write_text(text, encoding="utf-8")
    return sorted(edits)


def test_the_checklist_gives_the_measured_number_of_files() -> None:
    touched = [f for f in EDITS if not f.startswith("tests/")]
    claim = CLAIM.search((ROOT / "docs" / "engine.md").read_text(encoding="utf-8"))
    assert claim, "docs/engine.md's checklist does not give the number of files"
    assert int(claim.group(1)) == len(touched) <= 3
    for name in touched:
        assert f"`{name}`" in (ROOT / "docs" / "engine.md").read_text(encoding="utf-8"), name


def test_the_made_up_hero_passes_the_conformance_check(tmp_path: Path) -> None:
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "browser", "golden")
    for part in ("nidavellir", "widgets", "tests"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    apply_edits(tmp_path, EDITS)
    env = dict(os.environ, NIDAVELLIR_KINDS="swap,hero", PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "tests/test_conformance.py", "-k", "conforms or Gulli"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    # The copy was tested, with the new kind: its hero's recruit and its decision.
    assert "3 passed" in done.stdout, done.stdout[-2000:]
    # And what broke before the decisions owned their text: typing the move, records,
    # the RL adapters (their own tests, on the copy with the new hero in every hall).
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "tests/test_notation.py", "tests/test_records.py", "tests/test_pettingzoo.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
