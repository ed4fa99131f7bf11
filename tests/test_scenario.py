"""Scenario files (docs/scenarios.md): parsing, validation against the box
for the player count, ``hypothetical`` tables, and writing a table back."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from nidavellir import cards as C
from nidavellir.cards import Suit
from nidavellir.errors import ScenarioError
from nidavellir.options import RuleOptions
from nidavellir.scenario import (
    dumps_scenario,
    load_scenario,
    loads_scenario,
    parse_scenario,
    placement_problem,
    save_scenario,
    scenario_to_dict,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def player(name: str, gem: int, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": name,
        "army": {"warrior": ["W3"], "hunter": ["H"], "miner": ["M1"], "blacksmith": ["B"],
                 "explorer": ["E5"]},
        "command_zone": [],
        "coins": [0, 2, 3, 4, 5],
        "gem": gem,
    }
    data.update(changes)
    return data


def two_players(**changes: Any) -> dict[str, Any]:
    """A valid 2-player base table (gems 4 and 5, R1)."""
    data: dict[str, Any] = {"players": [player("Ada", 4), player("Bo", 5)]}
    data.update(changes)
    return data


def fails(data: Any, player: str | None, field: str | None, problem: str,
          *, hypothetical: bool = False) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(data, hypothetical=hypothetical)
    error = info.value
    assert (error.player, error.field) == (player, field), str(error)
    assert problem in error.problem, str(error)
    if player is not None:
        assert repr(player) in str(error)
    if field is not None:
        assert repr(field) in str(error)
    return error


# --------------------------------------------------------------------------- parsing

def test_valid_table_parses_into_player_tables() -> None:
    scenario = parse_scenario(two_players())
    assert scenario.player_count == 2
    assert scenario.expansions == ()
    ada = scenario.tables[0]
    assert ada.name == "Ada"
    assert list(ada.army[Suit.WARRIOR]) == [C.card("W3")]
    assert set(ada.army) == set(Suit)
    assert ada.coins == [0, 2, 3, 4, 5] and ada.gem == 4
    # Tied warrior majority: both add their highest coin 5 (FR "LES GUERRIER-ÈRE-S").
    each = (3 + 5) + 1 + 1 * 1 + 3 + 5 + 14
    assert scenario.score().totals == [each, each] == [32, 32]


def test_columns_accept_letters_and_plurals() -> None:
    data = two_players()
    data["players"][0]["army"] = {"W": ["W3"], "hunters": ["H"], "Miner": ["M1"]}
    ada = parse_scenario(data).tables[0]
    assert ada.army[Suit.HUNTER] == [C.card("H")] and ada.army[Suit.EXPLORER] == []


def test_command_zone_is_optional_and_columns_may_be_empty() -> None:
    data = two_players()
    del data["players"][0]["command_zone"]
    data["players"][0]["army"] = {"warrior": None}
    assert parse_scenario(data).tables[0].command_zone == []


def test_tokens_are_parsed_with_aliases() -> None:
    data = two_players()
    data["players"][0]["army"]["warrior"] = ["w3", "KRAAL"]
    assert parse_scenario(data).tables[0].army[Suit.WARRIOR] == [C.card("W3"), C.KRAAL]


def test_thingvellir_is_inferred_from_its_cards() -> None:
    data = two_players()
    data["players"][0]["command_zone"] = ["Megingjord"]
    assert parse_scenario(data).expansions == (C.THINGVELLIR,)


def test_options_are_read() -> None:
    scenario = parse_scenario(two_players(options={"warrior_bonus_without_warriors": True}))
    assert scenario.options == RuleOptions(warrior_bonus_without_warriors=True)


def test_player_count_lets_a_file_show_fewer_players() -> None:
    data = {"player_count": 5, "players": [player("Solo", 1)]}
    assert parse_scenario(data).player_count == 5


# --------------------------------------------------------------------------- structure errors

@pytest.mark.parametrize("data, field, problem", [
    (None, None, "must be a mapping"),
    (["W3"], None, "must be a mapping"),
    ({}, "players", "missing field"),
    ({"players": []}, "players", "non-empty list"),
    ({"players": "Ada"}, "players", "non-empty list"),
    ({"players": [player("A", 4)], "colour": "red"}, "colour", "unknown top-level field"),
    ({"players": [player("A", 4), player("B", 5)], "player_count": 6}, "player_count",
     "2 to 5"),
    ({"players": [player("A", 4), player("B", 5)], "player_count": "2"}, "player_count",
     "2 to 5"),
    ({"players": [player("A", 4)]}, "player_count", "give player_count"),
    ({"players": [player("A", 4), player("B", 5)], "options": {"turbo": True}}, "options",
     "unknown rule option"),
    ({"players": [player("A", 4), player("B", 5)], "options": {"first_game": "yes"}},
     "options", "true or false"),
    ({"players": [player("A", 4), player("B", 5)], "expansions": ["idavoll"]}, "expansions",
     "unknown expansion"),
    ({"players": [player("A", 4), player("B", 5)], "expansions": "thingvellir"},
     "expansions", "list of expansion names"),
    ({"players": [player("A", 4), player("B", 5)], "title": 3}, "title", "expected text"),
])
def test_top_level_errors(data: Any, field: str | None, problem: str) -> None:
    fails(data, None, field, problem)


@pytest.mark.parametrize("change, player_label, field, problem", [
    ({"name": ""}, "#1", "name", "non-empty text"),
    ({"name": False}, "#1", "name", "non-empty text"),
    ({"army": ["W3"]}, "Ada", "army", "mapping of columns"),
    ({"army": {"wizard": ["W3"]}}, "Ada", "army", "unknown column 'wizard'"),
    ({"army": {"W": ["W3"], "warrior": ["W4"]}}, "Ada", "army", "given twice"),
    ({"army": {"warrior": "W3"}}, "Ada", "army.warrior", "list of card tokens"),
    ({"army": {"warrior": [3]}}, "Ada", "army.warrior", "quote tokens"),
    ({"command_zone": "Skaa"}, "Ada", "command_zone", "list of card tokens"),
    ({"coins": "0 2 3 4 5"}, "Ada", "coins", "list of coin values"),
    ({"coins": [0, 2, 3, 4, 5.5]}, "Ada", "coins", "whole numbers"),
    ({"coins": [0, 2, 3, 4, True]}, "Ada", "coins", "whole numbers"),
    ({"coins": [-1, 2, 3, 4, 5]}, "Ada", "coins", "negative"),
    ({"gem": "3"}, "Ada", "gem", "gem number"),
    ({"gem": 7}, "Ada", "gem", "there is no gem 7"),
    ({"gem": 0}, "Ada", "gem", "there is no gem 0"),
    ({"hand": ["W3"]}, "Ada", "hand", "unknown field"),
])
def test_player_field_errors(change: dict[str, Any], player_label: str, field: str,
                             problem: str) -> None:
    data = two_players()
    data["players"][0].update(change)
    fails(data, player_label, field, problem)
    # Structure errors are not skipped by hypothetical tables.
    fails(data, player_label, field, problem, hypothetical=True)


@pytest.mark.parametrize("missing", ["name", "army", "coins", "gem"])
def test_missing_player_field(missing: str) -> None:
    data = two_players()
    del data["players"][1][missing]
    fails(data, "#2" if missing == "name" else "Bo", missing, "missing field")


def test_player_must_be_a_mapping() -> None:
    fails({"players": [player("A", 4), "Bo"]}, "#2", None, "must be a mapping")


def test_duplicate_names() -> None:
    fails({"players": [player("Ada", 4), player("Ada", 5)]}, "Ada", "name", "two players")


# --------------------------------------------------------------------------- unknown cards

@pytest.mark.parametrize("token, near", [("W11", "W10"), ("Kral", "Kraal")])
def test_unknown_token_names_it_and_suggests(token: str, near: str) -> None:
    data = two_players()
    data["players"][1]["army"]["warrior"] = ["W3", token]
    for hypothetical in (False, True):
        error = fails(data, "Bo", "army.warrior", f"card 2: unknown card token {token!r}",
                      hypothetical=hypothetical)
        assert near in error.problem


# --------------------------------------------------------------------------- placement

@pytest.mark.parametrize("column, token, problem", [
    ("hunter", "W3", "W3 is a warrior card: it cannot lie in the hunter column"),
    ("hunter", "Kraal", "Kraal is a warrior hero"),
    ("warrior", "Vegvisir", "Vegvisir lies in the explorer column"),
    ("hunter", "W6/E8", "mercenary W6/E8 has no hunter side (only warrior or explorer)"),
    ("warrior", "H/M1", "has no warrior side"),
    ("warrior", "Skaa", "neutral hero: it lies in the command zone"),
    ("miner", "Megingjord", "artifact: it lies in the command zone"),
    ("warrior", "King's Hand", "distinction: it lies in the command zone"),
    ("warrior", "+3", "Royal Offering"),
    ("hunter", "B*", "blacksmith card"),
])
def test_card_in_a_column_it_cannot_lie_in(column: str, token: str, problem: str) -> None:
    """Class cards lie in their column (FR "Héros·ïne Guerrier·ère" ...); Vegvisir in the
    explorer column; mercenaries on one of their two sides (FR Thingvellir p.24)."""
    data = two_players()
    data["players"][0]["army"][column] = [token]
    field = f"army.{column}"
    fails(data, "Ada", field, problem)
    fails(data, "Ada", field, problem, hypothetical=True)


@pytest.mark.parametrize("token, problem", [
    ("Kraal", "warrior hero"), ("W3", "dwarf card"), ("B*", "dwarf card"),
    ("Vegvisir", "explorer column"), ("Olwyn Double", "army columns"), ("+5", "Royal Offering"),
])
def test_card_that_cannot_lie_in_the_command_zone(token: str, problem: str) -> None:
    data = two_players()
    data["players"][0]["command_zone"] = [token]
    fails(data, "Ada", "command_zone", problem)


@pytest.mark.parametrize("token, suit", [
    ("Ylud", Suit.HUNTER), ("Thrud", Suit.MINER), ("Olwyn Double", Suit.WARRIOR),
    ("W6/E8", Suit.EXPLORER), ("B*", Suit.BLACKSMITH), ("Vegvisir", Suit.EXPLORER),
    ("Aëgur", Suit.BLACKSMITH),
])
def test_cards_allowed_in_a_column(token: str, suit: Suit) -> None:
    assert placement_problem(C.card(token), suit) is None


@pytest.mark.parametrize("token", ["Skaa", "Ylud", "Thrud", "W6/E8", "Svalinn", "King's Hand"])
def test_cards_allowed_in_the_command_zone(token: str) -> None:
    assert placement_problem(C.card(token), None) is None


def test_same_hero_twice_for_one_player_is_rejected_even_when_hypothetical() -> None:
    data = two_players()
    data["players"][0]["command_zone"] = ["Skaa", "skaa"]
    fails(data, "Ada", "command_zone", "hero Skaa is listed 2 times", hypothetical=True)


# --------------------------------------------------------------------------- the box

@pytest.mark.parametrize("token, column", [("E12", "explorer"), ("W10", "warrior")])
def test_five_player_cards_need_five_players(token: str, column: str) -> None:
    """FR "Partie à 5 Elvalands": the cards with a "5" symbol are used only with 5 players."""
    data = two_players()
    data["players"][1]["army"][column] = [token]
    fails(data, "Bo", f"army.{column}", f"{token} is a 5-player card")
    suit = C.card(token).suit
    assert suit is not None
    assert parse_scenario(data, hypothetical=True).tables[1].army[suit]
    data["player_count"] = 5
    parse_scenario(data)


def test_more_copies_than_the_box_holds() -> None:
    """FR "Matériel": one W9 per age, so 2 in the box."""
    data = two_players()
    data["players"][0]["army"]["warrior"] = ["W9", "W9"]
    data["players"][1]["army"]["warrior"] = ["W9"]
    fails(data, "Bo", "army.warrior", "3 copies of W9 on the table, but the box holds 2")
    parse_scenario(data, hypothetical=True)


def test_a_hero_owned_by_two_players() -> None:
    data = two_players()
    data["players"][0]["army"]["warrior"] = ["W3", "Kraal"]
    data["players"][1]["army"]["warrior"] = ["Kraal"]
    fails(data, "Bo", "army.warrior", "hero Kraal exists once, and player 'Ada' already owns it")
    parse_scenario(data, hypothetical=True)


def test_a_distinction_twice() -> None:
    data = two_players()
    data["players"][0]["command_zone"] = ["King's Hand"]
    data["players"][1]["command_zone"] = ["King's Hand"]
    fails(data, "Bo", "command_zone", "King's Hand exists once")


def test_the_special_blacksmith_card_exists_once() -> None:
    data = two_players()
    data["players"][0]["army"]["blacksmith"] = ["B*"]
    data["players"][1]["army"]["blacksmith"] = ["B*"]
    fails(data, "Bo", "army.blacksmith", "B* exists once")


def test_thingvellir_card_without_the_expansion() -> None:
    data = two_players(expansions=[])
    data["players"][0]["command_zone"] = ["Svalinn"]
    fails(data, "Ada", "command_zone", "Thingvellir card but expansions does not include")
    parse_scenario(data, hypothetical=True)


def test_first_game_leaves_out_the_advanced_heroes() -> None:
    """R25: option first_game leaves out Thrud, Ylud and Uline."""
    data = two_players(options={"first_game": True})
    data["players"][0]["command_zone"] = ["Uline"]
    fails(data, "Ada", "command_zone", "first-game variant")


def test_mercenary_w9_e11_exists_twice() -> None:
    """FR Thingvellir "Matériel": W9/E11 exists once per age."""
    data = two_players()
    data["players"][0]["army"]["warrior"] = ["W9/E11"]
    data["players"][1]["army"]["explorer"] = ["E11/W9"]
    parse_scenario(data)
    data["players"][1]["army"]["warrior"] = ["W9/E11"]
    # Columns are counted warrior first: the third copy is Bo's explorer-side one.
    fails(data, "Bo", "army.explorer", "3 copies of W9/E11")


def test_olwyn_doubles_come_with_olwyn_in_two_columns() -> None:
    """FR Thingvellir "OLWYN": his 2 doubles go into 2 different columns."""
    data = two_players()
    data["players"][0]["army"]["hunter"] = ["H", "Olwyn Double"]
    fails(data, "Ada", "army.hunter", "only with Olwyn")
    data["players"][0]["command_zone"] = ["Olwyn"]
    data["players"][0]["army"]["miner"] = ["M1", "Olwyn Double"]
    parse_scenario(data)
    data["players"][0]["army"]["miner"] = ["M1"]
    data["players"][0]["army"]["hunter"] = ["H", "Olwyn Double", "Olwyn Double"]
    fails(data, "Ada", "army.hunter", "2 different columns")


def test_thrud_is_never_covered() -> None:
    """FR "THRUD", R13: she is re-placed whenever a card would cover her."""
    data = two_players()
    data["players"][0]["army"]["hunter"] = ["Thrud", "H"]
    fails(data, "Ada", "army.hunter", "never covered")
    data["players"][0]["army"]["hunter"] = ["H", "Thrud"]
    parse_scenario(data)


def test_more_players_than_player_count() -> None:
    data = two_players(player_count=2)
    data["players"].append(player("Cy", 3))
    fails(data, None, "player_count", "3 players are listed but player_count is 2")


# --------------------------------------------------------------------------- coins

@pytest.mark.parametrize("coins, problem", [
    ([0, 2, 3, 4], "holds 5 coins"),
    ([0, 2, 3, 4, 5, 6], "holds 5 coins"),
    ([0, 2, 3, 4, 1], "no coin of value 1"),
    ([0, 2, 3, 4, 26], "no coin of value 26"),
    ([0, 0, 3, 4, 5], "only one bronze 0"),
    ([0, 2, 2, 4, 5], "only one bronze 2"),
    ([0, 4, 3, 4, 5], "only one bronze 4"),
    ([0, 3, 3, 4, 5], "the green 3, which replaces the 0"),
    ([2, 4, 5, 6, 8], "no exchange coin"),
])
def test_impossible_coin_sets(coins: list[int], problem: str) -> None:
    """FR "Mise en place": bronze 0, 2, 3, 4, 5 per player; FR "Maître-esse de Chasse":
    the green 3 replaces the 0; FR "Trésor Royal": gold coins 5 to 25."""
    data = two_players()
    data["players"][0]["coins"] = coins
    fails(data, "Ada", "coins", problem)
    parse_scenario(data, hypothetical=True)


def test_green_3_replaces_the_bronze_0() -> None:
    data = two_players()
    data["players"][0]["coins"] = [3, 3, 4, 5, 6]
    parse_scenario(data)


def test_only_one_green_3() -> None:
    data = two_players()
    data["players"][0]["coins"] = [3, 2, 4, 5, 6]
    data["players"][1]["coins"] = [3, 2, 4, 5, 8]
    fails(data, "Bo", "coins", "only one green 3 exists and player 'Ada' already holds it")


def test_jarnglofi_means_four_coins_without_the_exchange_coin() -> None:
    """FR Thingvellir "JÁRNGLÓFI": the exchange coin is discarded."""
    data = two_players()
    data["players"][0]["command_zone"] = ["Járnglófi"]
    data["players"][0]["coins"] = [2, 3, 4, 5]
    parse_scenario(data)
    data["players"][0]["coins"] = [0, 2, 3, 4, 5]
    fails(data, "Ada", "coins", "holds 4 coins (Járnglófi discarded the exchange coin)")
    data["players"][0]["coins"] = [0, 3, 4, 5]
    fails(data, "Ada", "coins", "the 0 cannot be held")
    data["players"][0]["coins"] = [3, 3, 4, 5]
    fails(data, "Ada", "coins", "only one bronze 3")


def test_gold_coins_are_shared_per_player_count() -> None:
    """FR "Partie à 2/3 Elvalands": with 2-3 players only one 7, 9 and 11 remain."""
    data = two_players()
    data["players"][0]["coins"] = [0, 2, 3, 4, 7]
    data["players"][1]["coins"] = [0, 2, 3, 4, 7]
    fails(data, "Bo", "coins", "2 gold 7s are held at the table, but the treasury has 1 with 2")
    data["player_count"] = 4
    parse_scenario(data)


def test_a_second_5_must_be_gold() -> None:
    """Coin 5 is either the bronze 5 or a gold 5 (2 in the treasury)."""
    data = two_players()
    data["players"][0]["coins"] = [0, 2, 5, 5, 5]
    parse_scenario(data)
    data["players"][1]["coins"] = [0, 2, 3, 5, 5]
    fails(data, "Bo", "coins", "3 gold 5s")


def test_the_25_exists_once() -> None:
    data = two_players()
    data["players"][0]["coins"] = [0, 2, 3, 4, 25]
    data["players"][1]["coins"] = [0, 2, 3, 4, 25]
    fails(data, "Bo", "coins", "2 gold 25s")


# --------------------------------------------------------------------------- gems

def test_gems_are_distinct() -> None:
    data = two_players()
    data["players"][1]["gem"] = 4
    fails(data, "Bo", "gem", "gem 4 is already held by player 'Ada'")
    parse_scenario(data, hypothetical=True)


def test_gem_6_only_once() -> None:
    data = two_players()
    data["players"][0]["gem"] = 6
    data["players"][1]["gem"] = 6
    fails(data, "Bo", "gem", "gem 6 is already held")


def test_gems_follow_the_player_count() -> None:
    """R1: with 2 players the gems are 4 and 5 (and the special 6)."""
    data = two_players()
    data["players"][0]["gem"] = 1
    fails(data, "Ada", "gem", "gem 1 is not used with 2 players")
    data["players"][0]["gem"] = 6
    parse_scenario(data)


# --------------------------------------------------------------------------- files, round trip

def test_examples_are_valid_and_the_rulebook_example_scores_204() -> None:
    for path in EXAMPLES.glob("*.*"):
        hypothetical = "hypothetical" in path.name
        scenario = load_scenario(path, hypothetical=hypothetical)
        assert scenario.score().totals
    sheet = load_scenario(EXAMPLES / "rulebook_example.yaml").score()
    assert sheet.totals == [204]


def test_the_hypothetical_example_needs_the_flag() -> None:
    with pytest.raises(ScenarioError, match="already owns it"):
        load_scenario(EXAMPLES / "hypothetical_lesson.yaml")


def test_thingvellir_example_uses_the_expansion() -> None:
    scenario = load_scenario(EXAMPLES / "thingvellir_table.yaml")
    assert scenario.expansions == (C.THINGVELLIR,) and scenario.player_count == 3
    chloe = scenario.score()[2]
    assert chloe.breakdown["coins"] == 2 + 3 + 7 + 13


@pytest.mark.parametrize("example", ["thingvellir_table.yaml", "two_players_table.json",
                                     "rulebook_example.yaml"])
@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_round_trip(example: str, fmt: str) -> None:
    """Writing a table back and reading it gives the same tables (the what-if editor)."""
    scenario = load_scenario(EXAMPLES / example)
    again = loads_scenario(dumps_scenario(scenario, fmt), fmt)
    assert again == scenario
    assert again.score() == scenario.score()


def test_round_trip_through_files(tmp_path: Path) -> None:
    scenario = load_scenario(EXAMPLES / "thingvellir_table.yaml")
    for name in ("table.yaml", "table.json"):
        save_scenario(scenario, tmp_path / name)
        assert load_scenario(tmp_path / name) == scenario
    assert json.loads((tmp_path / "table.json").read_text())["expansions"] == ["thingvellir"]


def test_scenario_to_dict_from_tables() -> None:
    scenario = parse_scenario(two_players(options={"warrior_bonus_without_warriors": True}))
    data = scenario_to_dict(scenario.tables)
    assert "options" not in data and "player_count" not in data
    assert data["players"][0]["army"]["warrior"] == ["W3"]
    assert scenario.to_dict()["options"] == {"warrior_bonus_without_warriors": True}
    assert parse_scenario(copy.deepcopy(scenario.to_dict())) == scenario


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="no such scenario file"):
        load_scenario(tmp_path / "missing.yaml")
    bad_yaml = tmp_path / "bad.yaml"
    bad_yaml.write_text("players: [\n")
    with pytest.raises(ScenarioError, match="not valid YAML"):
        load_scenario(bad_yaml)
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{\"players\": ")
    with pytest.raises(ScenarioError, match="not valid JSON"):
        load_scenario(bad_json)
    # An unknown suffix: JSON if it parses, else YAML.
    other = tmp_path / "table.txt"
    other.write_text(json.dumps(two_players()))
    assert load_scenario(other).player_count == 2
