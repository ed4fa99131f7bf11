"""Golden playthroughs (OpenSpiel's playthrough files): a seeded game per player count, base game
and Thingvellir, every step dumped as text and diffed against the committed files in
tests/golden/.

A failure shows the unified diff. If the change of the rules is intended, run
``make golden`` and commit the regenerated files with the change.
"""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

GOLDEN = Path(__file__).resolve().parent / "golden"


def _regenerate() -> ModuleType:
    spec = importlib.util.spec_from_file_location("golden_regenerate", GOLDEN / "regenerate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regenerate = _regenerate()
GAMES = [(players, expansions) for expansions in regenerate.EXPANSION_SETS
         for players in regenerate.PLAYER_COUNTS]


@pytest.mark.parametrize("players, expansions", GAMES,
                         ids=[f"{p}p-{'+'.join(e) or 'base'}" for p, e in GAMES])
def test_golden_playthrough(players: int, expansions: tuple[str, ...]) -> None:
    path = regenerate.path_for(players, expansions)
    assert path.exists(), f"{path} is missing: run `make golden` and commit it"
    expected = path.read_text(encoding="utf-8")
    actual = regenerate.render(players, expansions)
    if actual != expected:
        diff = "".join(difflib.unified_diff(
            expected.splitlines(keepends=True), actual.splitlines(keepends=True),
            fromfile=f"{path.name} (committed)", tofile=f"{path.name} (engine now)", n=2))
        shown = diff if len(diff) < 20_000 else diff[:20_000] + "\n... (diff truncated)\n"
        pytest.fail(f"the golden playthrough {path.name} changed:\n{shown}\n"
                    "If this rules change is intended, run `make golden` and commit "
                    f"tests/golden/{path.name}.", pytrace=False)


@pytest.mark.parametrize("players, expansions", GAMES,
                         ids=[f"{p}p-{'+'.join(e) or 'base'}" for p, e in GAMES])
def test_the_golden_games_are_complete(players: int, expansions: tuple[str, ...]) -> None:
    text = regenerate.path_for(players, expansions).read_text(encoding="utf-8")
    assert "== Score sheet ==" in text
    assert f"{players} players" in text.splitlines()[0]
    if expansions:
        # The camp is visited and mercenaries are enlisted in every Thingvellir golden game;
        # with 2 players the winner who visits the camp drops a tavern card (R19).
        assert "Thingvellir" in text.splitlines()[0]
        assert "  > camp " in text
        assert "  > enlist " in text
        if players == 2:
            assert "  > drop " in text


def test_regenerating_says_what_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``make golden`` writes the files and prints the diff of each one that changed."""
    monkeypatch.setattr(regenerate, "HERE", tmp_path)
    regenerate.main([])
    first = capsys.readouterr().out
    assert "wrote playthrough_2p.txt" in first
    changed = regenerate.path_for(3)
    lines = changed.read_text(encoding="utf-8").splitlines()
    changed.write_text("\n".join(lines[:5] + ["a line the engine never wrote"] + lines[5:])
                       + "\n", encoding="utf-8")
    regenerate.main([])
    out = capsys.readouterr().out
    assert "-a line the engine never wrote" in out
    assert "playthrough_3p.txt: 1 lines removed, 0 added" in out
    assert "unchanged playthrough_2p.txt" in out and "1 golden file(s) changed" in out
