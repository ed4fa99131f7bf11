"""The scenario editor: round trip of a file, edits rescored, refusals with the reason."""

from __future__ import annotations

from pathlib import Path

import yaml
from test_frames import scripted_game

from nidavellir.scenario import load_scenario
from widgets.charts import PLOTLY_MIME
from widgets.scenario_editor import COMMAND_ZONE, ScenarioEditor, cards_for

ROOT = Path(__file__).resolve().parent.parent
RULEBOOK = ROOT / "examples" / "rulebook_example.yaml"


def chart_traces(editor: ScenarioEditor) -> dict[str, list[int]]:
    spec = editor.chart.outputs[0]["data"][PLOTLY_MIME]
    return {t["name"]: t["y"] for t in spec["data"]}


def test_round_trip_of_a_file(tmp_path: Path) -> None:
    editor = ScenarioEditor.from_file(RULEBOOK)
    out = tmp_path / "copy.yaml"
    editor.path.value = str(out)
    editor.save.click()
    assert "saved" in editor.message.value
    assert load_scenario(out, hypothetical=True).to_dict() == \
        load_scenario(RULEBOOK, hypothetical=True).to_dict()
    again = ScenarioEditor.from_file(out)
    assert again.to_dict() == editor.to_dict() and again.sheet.totals == [204]


def test_json_round_trip_of_every_example(tmp_path: Path) -> None:
    for path in sorted((ROOT / "examples").glob("*.*")):
        if path.suffix not in (".yaml", ".json"):
            continue
        editor = ScenarioEditor.from_file(path)
        out = tmp_path / (path.stem + ".json")
        assert editor.save_file(out), editor.message.value
        assert load_scenario(out, hypothetical=True).score().totals == \
            load_scenario(path, hypothetical=True).score().totals


def test_adding_a_card_rescores_the_sheet_and_the_chart() -> None:
    # Serge's 204 (FR "Fin de l'Age 2"): a fifth hunter makes 5² = 25 instead of 16.
    editor = ScenarioEditor.from_file(RULEBOOK)
    assert chart_traces(editor)["Hunters"] == [16]
    editor.column.value = "H"
    assert {"H", "Aral", "Dagda"} <= set(editor.card.options)
    editor.card.value = "H"
    editor.add.click()
    assert editor.sheet.totals == [213]
    assert editor.sheet[0].breakdown["hunters"] == 25
    assert chart_traces(editor)["Hunters"] == [25]
    assert "213" in editor.sheet_view.value


def test_remove_and_move(tmp_path: Path) -> None:
    editor = ScenarioEditor.from_file(RULEBOOK)
    editor.column.value = "E"
    assert [label for label, _ in editor.in_column.options] == ["1. E5", "2. E8", "3. E10",
                                                                "4. E11"]
    editor.in_column.value = 3  # E11
    editor.remove.click()
    assert editor.sheet.totals == [204 - 11]
    # Skaa (17 points) can move nowhere but the command zone.
    editor.column.value = COMMAND_ZONE
    editor.in_column.value = 0
    editor.target.value = "W"
    editor.move.click()
    assert "neutral hero" in editor.message.value
    assert editor.to_dict()["players"][0]["command_zone"] == ["Skaa"]
    # Thrud may lie in any column.
    editor.add_card("Thrud", COMMAND_ZONE)
    editor.in_column.value = 1
    editor.target.value = "M"
    editor.move.click()
    saved = tmp_path / "moved.yaml"
    editor.save_file(saved)
    data = yaml.safe_load(saved.read_text(encoding="utf-8"))
    assert data["players"][0]["army"]["miner"][-1] == "Thrud"
    assert data["players"][0]["army"]["explorer"] == ["E5", "E8", "E10"]


def test_refusals_name_the_problem() -> None:
    editor = ScenarioEditor.from_file(RULEBOOK)
    assert not editor.add_card("Kraal", "H")
    assert "warrior hero" in editor.message.value
    assert not editor.add_card("+3", "W")
    assert "Royal Offering" in editor.message.value
    editor.coins.value = "0 5 x"
    assert "whole numbers" in editor.message.value
    assert editor.sheet.totals == [204]
    assert "Kraal" in cards_for("W") and "Kraal" not in cards_for("H")
    assert "Skaa" in cards_for(COMMAND_ZONE) and "W3" not in cards_for(COMMAND_ZONE)


def test_coins_and_gem() -> None:
    editor = ScenarioEditor.from_file(RULEBOOK)
    editor.coins.value = "0 5 11 13 25"
    assert editor.sheet.totals == [204 + 1 + 1]  # one more coin point and a bigger bonus
    editor.gem.value = 6
    assert editor.sheet[0].breakdown["gem"] == 3


def test_the_table_of_a_game(tmp_path: Path) -> None:
    game = scripted_game()
    editor = ScenarioEditor.from_game(game)
    assert editor.sheet.totals == game.scores().totals
    assert [label for label, _ in editor.player.options] == ["Ann", "Bo", "Cy"]
    editor.player.value = 1
    assert editor.coins.value == "0 2 4 5 5"
    editor.column.value = "W"
    editor.in_column.value = 0  # W9
    editor.remove.click()
    assert editor.sheet[1].breakdown["warriors"] == 8 + 5
    assert game.scores().totals == [30, 41, 28]  # the game is untouched
    editor.save_file(tmp_path / "table.yaml")
    other = ScenarioEditor.from_file(tmp_path / "table.yaml")
    assert other.sheet.totals == editor.sheet.totals


def test_load_button_reports_bad_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("players: 3\n", encoding="utf-8")
    editor = ScenarioEditor.from_file(RULEBOOK)
    editor.path.value = str(bad)
    editor.load.click()
    assert "players" in editor.message.value and editor.sheet.totals == [204]
    editor.path.value = str(RULEBOOK)
    editor.load.click()
    assert "loaded" in editor.message.value
