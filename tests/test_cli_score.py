"""``nidavellir score FILE [--json] [--hypothetical]`` (docs/scenarios.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from nidavellir.cli import COMMANDS, main
from nidavellir.scoring import CATEGORIES

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RULEBOOK = EXAMPLES / "rulebook_example.yaml"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, data: Any, name: str = "table.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data) if name.endswith(".json") else data)
    return str(path)


def player(name: str, gem: object, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"name": name, "army": {"warrior": ["W3"]},
                            "coins": [0, 2, 3, 4, 5], "gem": gem}
    data.update(changes)
    return data


def test_rulebook_example_prints_the_204_point_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "score", str(RULEBOOK))
    assert code == 0 and err == ""
    assert "Serge wins with 204 points." in out
    for label in ("Warriors", "Hunters", "Miners", "Blacksmiths", "Explorers",
                  "Neutral heroes", "Coins", "Total"):
        assert label in out
    assert "majority bonus: the highest coin, 24" in out


def test_json_output_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", str(RULEBOOK), "--json")
    assert code == 0
    data = json.loads(out)
    (serge,) = data["players"]
    assert serge["name"] == "Serge" and serge["total"] == 204 and serge["rank"] == 1
    assert list(serge["breakdown"]) == list(CATEGORIES)
    assert serge["breakdown"]["warriors"] == 52 and serge["breakdown"]["coins"] == 53
    assert data["winners"] == ["Serge"]
    assert data["player_count"] == 5 and data["hypothetical"] is False


def test_json_ties_share_the_placing(capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    """R24: tied players share the placing."""
    path = write(tmp_path, {"players": [player("Ada", 4), player("Bo", 5)]})
    data = json.loads(run(capsys, "score", path, "--json")[1])
    assert [p["rank"] for p in data["players"]] == [1, 1]
    assert data["winners"] == ["Ada", "Bo"]
    text = run(capsys, "score", path)[1]
    assert "Ada and Bo share the win" in text


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.*")))
def test_every_example_scores(capsys: pytest.CaptureFixture[str], example: str) -> None:
    args = ["score", str(EXAMPLES / example), "--json"]
    if "hypothetical" in example:
        args.append("--hypothetical")
    code, out, err = run(capsys, *args)
    assert code == 0, err
    assert json.loads(out)["players"]


def test_hypothetical_flag(capsys: pytest.CaptureFixture[str]) -> None:
    lesson = str(EXAMPLES / "hypothetical_lesson.yaml")
    code, out, err = run(capsys, "score", lesson)
    assert code == 2 and out == ""
    assert err.startswith("error: player 'a 5th hunter', field 'command_zone': hero Skaa")
    code, out, err = run(capsys, "score", "--hypothetical", lesson)
    assert code == 0 and err == ""
    assert "hypothetical table" in out
    assert "Tarah instead wins with 208 points." in out
    data = json.loads(run(capsys, "score", "--hypothetical", "--json", lesson)[1])
    assert data["hypothetical"] is True
    assert [p["total"] for p in data["players"]] == [204, 179, 176, 208]


# --------------------------------------------------------------------------- errors: exit 2

def assert_error(capsys: pytest.CaptureFixture[str], path: str, *parts: str) -> str:
    code, out, err = run(capsys, "score", path)
    assert code == 2
    assert out == ""
    assert err.startswith("error: ") and err.endswith("\n") and err.count("\n") == 1, err
    for part in parts:
        assert part in err, err
    return err


def test_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert_error(capsys, str(tmp_path / "nope.yaml"), "no such scenario file")


def test_bad_yaml(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, "players:\n  - name: [unclosed\n", "bad.yaml")
    assert_error(capsys, path, "not valid YAML")


def test_bad_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{players: 1}")
    assert_error(capsys, str(path), "not valid JSON")


@pytest.mark.parametrize("data, parts", [
    # An unknown card (and the near tokens).
    ({"players": [player("Ada", 4, army={"warrior": ["W11"]}), player("Bo", 5)]},
     ["player 'Ada'", "field 'army.warrior'", "unknown card token 'W11'", "W10"]),
    # A 5-player card with 2 players.
    ({"players": [player("Ada", 4, army={"explorer": ["E12"]}), player("Bo", 5)]},
     ["player 'Ada'", "field 'army.explorer'", "5-player card"]),
    # Three W9.
    ({"players": [player("Ada", 4, army={"warrior": ["W9", "W9"]}),
                  player("Bo", 5, army={"warrior": ["W9"]})]},
     ["player 'Bo'", "field 'army.warrior'", "3 copies of W9"]),
    # A hero twice.
    ({"players": [player("Ada", 4, command_zone=["Skaa"]),
                  player("Bo", 5, command_zone=["Skaa"])]},
     ["player 'Bo'", "field 'command_zone'", "hero Skaa exists once"]),
    # A card in a column it cannot lie in.
    ({"players": [player("Ada", 4, army={"hunter": ["W3"]}), player("Bo", 5)]},
     ["player 'Ada'", "field 'army.hunter'", "W3 is a warrior card"]),
    ({"players": [player("Ada", 4, army={"hunter": ["Kraal"]}), player("Bo", 5)]},
     ["player 'Ada'", "field 'army.hunter'", "Kraal is a warrior hero"]),
    ({"players": [player("Ada", 4, command_zone=["Vegvisir"]), player("Bo", 5)]},
     ["player 'Ada'", "field 'command_zone'", "Vegvisir lies in the explorer column"]),
    ({"players": [player("Ada", 4, army={"miner": ["W6/E8"]}), player("Bo", 5)]},
     ["player 'Ada'", "field 'army.miner'", "no miner side"]),
    # Impossible coins.
    ({"players": [player("Ada", 4, coins=[0, 2, 3, 4]), player("Bo", 5)]},
     ["player 'Ada'", "field 'coins'", "holds 5 coins"]),
    ({"players": [player("Ada", 4, coins=[0, 2, 3, 4, 25]),
                  player("Bo", 5, coins=[0, 2, 3, 4, 25])]},
     ["player 'Bo'", "field 'coins'", "2 gold 25s"]),
    ({"players": [player("Ada", 4, coins=[0, 3, 3, 4, 5]), player("Bo", 5)]},
     ["player 'Ada'", "field 'coins'", "only one bronze 3"]),
    # Gems.
    ({"players": [player("Ada", 4), player("Bo", 4)]},
     ["player 'Bo'", "field 'gem'", "gem 4 is already held"]),
    ({"players": [player("Ada", 9), player("Bo", 5)]},
     ["player 'Ada'", "field 'gem'", "there is no gem 9"]),
    # Missing or wrongly typed fields.
    ({"players": [{"name": "Ada", "army": {}, "gem": 4}, player("Bo", 5)]},
     ["player 'Ada'", "field 'coins'", "missing field"]),
    ({"players": [player("Ada", "4"), player("Bo", 5)]},
     ["player 'Ada'", "field 'gem'", "expected a gem number"]),
    ({"players": [player("Ada", 4, army=["W3"]), player("Bo", 5)]},
     ["player 'Ada'", "field 'army'", "mapping of columns"]),
    ({"players": "Ada"}, ["field 'players'", "non-empty list"]),
])
def test_validation_errors_exit_2_naming_player_field_problem(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, data: Any,
        parts: list[str]) -> None:
    assert_error(capsys, write(tmp_path, data), *parts)


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["score"])
    assert info.value.code == 2
    assert main([]) == 2
    assert "score" in capsys.readouterr().err


def test_commands_are_registered_in_one_table() -> None:
    assert "score" in COMMANDS
    assert callable(COMMANDS["score"].run)


# --------------------------------------------------------------------------- real processes

def test_python_dash_m_nidavellir() -> None:
    result = subprocess.run([sys.executable, "-m", "nidavellir", "score", str(RULEBOOK)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "Serge wins with 204 points." in result.stdout


def test_console_script_errors_on_stderr_with_exit_2(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("nidavellir")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "nidavellir"]
    result = subprocess.run([*command, "score", str(tmp_path / "missing.yaml")],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: no such scenario file")
