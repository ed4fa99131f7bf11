"""Golden playthroughs with Thingvellir: a seeded game per player count, every step
dumped as text and diffed against the committed tests/golden/thingvellir_*.txt.

A failure shows the unified diff. If the change of the rules is intended, run
``python tests/golden/regenerate_thingvellir.py`` and commit the regenerated files.
"""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

GOLDEN = Path(__file__).resolve().parent / "golden"


def _regenerate() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "golden_regenerate_thingvellir", GOLDEN / "regenerate_thingvellir.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regenerate = _regenerate()


@pytest.mark.parametrize("players", regenerate.PLAYER_COUNTS)
def test_golden_thingvellir_playthrough(players: int) -> None:
    path = regenerate.path_for(players)
    assert path.exists(), f"{path} is missing: run tests/golden/regenerate_thingvellir.py"
    expected = path.read_text(encoding="utf-8")
    actual = regenerate.render(players)
    if actual != expected:
        diff = "".join(difflib.unified_diff(
            expected.splitlines(keepends=True), actual.splitlines(keepends=True),
            fromfile=f"{path.name} (committed)", tofile=f"{path.name} (engine now)", n=2))
        shown = diff if len(diff) < 20_000 else diff[:20_000] + "\n... (diff truncated)\n"
        pytest.fail(f"the {players}-player Thingvellir golden playthrough changed:\n{shown}\n"
                    "If this rules change is intended, run "
                    "`python tests/golden/regenerate_thingvellir.py` and commit "
                    f"tests/golden/{path.name}.", pytrace=False)


def test_the_thingvellir_golden_games_are_complete_and_use_the_camp() -> None:
    for players in regenerate.PLAYER_COUNTS:
        text = regenerate.path_for(players).read_text(encoding="utf-8")
        assert "== Score sheet ==" in text
        assert f"{players} players" in text.splitlines()[0]
        assert "Thingvellir" in text.splitlines()[0]
        # The camp is visited and mercenaries are enlisted in every golden game.
        assert "  > camp " in text
        assert "  > enlist " in text
    two = regenerate.path_for(2).read_text(encoding="utf-8")
    assert "  > drop " in two  # the 2-player camp discard
