"""Final scoring (FR "Déterminer la Valeur de Bravoure de chaque classe", "Fin de l'Age 2 et
fin de la partie"; FR "Capacités des cartes Héros·ïne", FR Thingvellir "Matériel"; rulings
R9 and R24).

Each test builds a small table with card tokens and checks the rule it cites.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from nidavellir import cards as C
from nidavellir.cards import Suit
from nidavellir.options import RuleOptions
from nidavellir.rules.classes import blacksmith_points, hunter_points
from nidavellir.scoring import CATEGORIES, PlayerTable, placings, score_table
from nidavellir.tokens import parse_token


def table(name: str = "Serge", *, w: Sequence[str] = (), h: Sequence[str] = (),
          m: Sequence[str] = (), b: Sequence[str] = (), e: Sequence[str] = (),
          cz: Sequence[str] = (), coins: Sequence[int] = (), gem: int = 3) -> PlayerTable:
    """A player's end-of-game table from card tokens (columns bottom to top)."""
    return column_table({"w": w, "h": h, "m": m, "b": b, "e": e, "cz": cz}, name, coins, gem)


#: The columns of ``table``'s keywords.
COLUMNS = {"w": Suit.WARRIOR, "h": Suit.HUNTER, "m": Suit.MINER, "b": Suit.BLACKSMITH,
           "e": Suit.EXPLORER}


def column_table(columns: Mapping[str, Sequence[str]], name: str = "Serge",
                 coins: Sequence[int] = (), gem: int = 3) -> PlayerTable:
    """``table`` with its columns named by key: w, h, m, b, e (bottom to top) or cz."""
    unknown = set(columns) - set(COLUMNS) - {"cz"}
    assert not unknown, f"no such column: {unknown}"
    return PlayerTable(
        name=name,
        army={s: [parse_token(t) for t in columns.get(k, ())] for k, s in COLUMNS.items()},
        command_zone=[parse_token(t) for t in columns.get("cz", ())],
        coins=list(coins), gem=gem)


def score(player: PlayerTable, options: RuleOptions | None = None) -> dict[str, int]:
    """The breakdown of a player alone at the table."""
    sheet = score_table([player], options)
    breakdown = dict(sheet[0].breakdown)
    assert sum(breakdown.values()) == sheet[0].total
    return breakdown


# --------------------------------------------------------------------------- worked example

def rulebook_example() -> PlayerTable:
    """FR "Fin de l'Age 2 et fin de la partie" (Serge) = the DE worked example."""
    return table(
        w=["W3", "W7", "W8", "W10"], h=["H"] * 4, m=["M0", "M0", "M1", "M1", "M2"],
        b=["B"] * 3, e=["E5", "E8", "E10", "E11"], cz=["Skaa"], coins=[0, 5, 11, 13, 24])


def test_rulebook_example_totals_204() -> None:
    sheet = score_table([rulebook_example()])
    assert sheet[0].breakdown == {
        "warriors": 28 + 24, "hunters": 16, "miners": 20, "blacksmiths": 12, "explorers": 34,
        "heroes": 17, "artifacts": 0, "coins": 53, "gem": 0,
    }
    assert sheet[0].total == 204
    assert sheet.winners == ["Serge"]


def test_breakdown_has_every_category_in_score_pad_order() -> None:
    sheet = score_table([rulebook_example()])
    assert tuple(sheet[0].breakdown) == CATEGORIES
    assert CATEGORIES[:5] == ("warriors", "hunters", "miners", "blacksmiths", "explorers")


# --------------------------------------------------------------------------- printed tables

HUNTER_TABLE = [1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225, 256, 289, 324,
                361, 400, 441, 484, 529, 576, 625]
BLACKSMITH_TABLE = [3, 7, 12, 18, 25, 33, 42, 52, 63, 75, 88, 102, 117, 133, 150, 168, 187,
                    207, 228, 250, 273, 297, 322, 348, 375]


@pytest.mark.parametrize("ranks", range(1, 26))
def test_printed_hunter_table(ranks: int) -> None:
    """FR "LES CHASSEUR-EUSE-S": ranks squared (player board table)."""
    assert hunter_points(ranks) == HUNTER_TABLE[ranks - 1]
    assert score(table(h=["H"] * ranks))["hunters"] == HUNTER_TABLE[ranks - 1]


@pytest.mark.parametrize("ranks", range(1, 26))
def test_printed_blacksmith_table(ranks: int) -> None:
    """FR "LES FORGERON-NE-S": +3, +4, +5, ... (player board table)."""
    assert blacksmith_points(ranks) == BLACKSMITH_TABLE[ranks - 1]
    assert score(table(b=["B"] * ranks))["blacksmiths"] == BLACKSMITH_TABLE[ranks - 1]


def test_no_ranks_score_nothing() -> None:
    assert hunter_points(0) == 0 and blacksmith_points(0) == 0
    assert sum(score(table()).values()) == 0


def test_miners_are_ranks_times_bravery_points() -> None:
    """FR "LES MINEUR-EUSE-S": sum of BP x number of ranks; M0 cards still add ranks."""
    assert score(table(m=["M0", "M0", "M2"]))["miners"] == 3 * 2


# --------------------------------------------------------------------------- class heroes

@pytest.mark.parametrize("column, tokens, category, points", [
    # Kraal: 2 ranks, 7 and 0 BP (FR "KRAAL LE VÉNAL").
    ("w", ["W3", "Kraal"], "warriors", 10),
    # Tarah: 14 BP.
    ("w", ["Tarah"], "warriors", 14),
    # Aral: 2 hunter ranks, with one hunter dwarf: 3 ranks -> 9.
    ("h", ["H", "Aral"], "hunters", 9),
    # Dagda: 3 hunter ranks -> 9; with one hunter: 16.
    ("h", ["H", "Dagda"], "hunters", 16),
    # Aëgur: 2 blacksmith ranks -> 7.
    ("b", ["Aëgur"], "blacksmiths", 7),
    # Bonfur: 3 blacksmith ranks; with one blacksmith 4 ranks -> 18.
    ("b", ["B", "Bonfur"], "blacksmiths", 18),
    # Zoral: +3 ranks, +1 BP: M2 + Zoral = 4 ranks x 3 BP.
    ("m", ["M2", "Zoral"], "miners", 12),
    # Lokdur: +1 rank, +3 BP: M2 + Lokdur = 2 ranks x 5 BP.
    ("m", ["M2", "Lokdur"], "miners", 10),
    # Hourya: 20 BP (she needs 5 explorer ranks to be recruited, not to score).
    ("e", ["E5", "E6", "E7", "E8", "E9", "Hourya"], "explorers", 35 + 20),
])
def test_class_heroes(column: str, tokens: list[str], category: str, points: int) -> None:
    """FR "Capacités des cartes Héros·ïne"."""
    assert score(column_table({column: tokens}))[category] == points


@pytest.mark.parametrize("explorers, expected", [
    ([], 7 + 2 * 1),
    (["E5"], 5 + 7 + 2 * 2),
    (["E5", "E11", "Vegvisir"], 5 + 11 + 13 + 7 + 2 * 4),
])
def test_idunn_adds_two_per_explorer_rank_including_herself(
        explorers: list[str], expected: int) -> None:
    """FR "IDUNN LA FURTIVE": +2 per explorer rank, her own included (FR "Capacités des cartes Héros·ïne")."""
    assert score(table(e=[*explorers, "Idunn"]))["explorers"] == expected


# --------------------------------------------------------------------------- neutral heroes

@pytest.mark.parametrize("brothers, points", [(1, 13), (2, 40), (3, 81), (4, 108), (5, 135)])
def test_dwerg_brothers_table(brothers: int, points: int) -> None:
    """FR "DWERG LES 5 FRÈRES": 13 / 40 / 81 / 108 / 135 for the set owned."""
    names = ["Dwerg Ymir", "Dwerg Aesir", "Dwerg Sigmir", "Dwerg Jungir", "Dwerg Bergelmir"]
    assert score(table(cz=names[:brothers]))["heroes"] == points


@pytest.mark.parametrize("hero, points", [
    ("Skaa", 17), ("Grid", 7), ("Uline", 9), ("Thrud", 13),
    # Thingvellir heroes (FR Thingvellir "Nouveaux Héros").
    ("Andumia", 12), ("Holda", 12), ("Khrad", 4), ("Jarika", 8), ("Olwyn", 9), ("Zolkur", 10),
])
def test_neutral_hero_points(hero: str, points: int) -> None:
    assert score(table(cz=[hero]))["heroes"] == points


def test_astrid_scores_the_highest_coin() -> None:
    """FR "ASTRID LA FORTUNÉE": the value of your highest coin at the end."""
    result = score(table(cz=["Astrid"], coins=[0, 2, 3, 17, 5]))
    assert result["heroes"] == 17
    assert result["coins"] == 27


def test_ylud_in_the_command_zone_scores_nothing() -> None:
    assert score(table(cz=["Ylud"])) == dict.fromkeys(CATEGORIES, 0)


@pytest.mark.parametrize("column, category, points", [
    ("w", "warriors", 7), ("m", "miners", 1 * 1), ("e", "explorers", 11),
    ("h", "hunters", 1), ("b", "blacksmiths", 3),
])
def test_ylud_scores_as_a_dwarf_of_her_column(column: str, category: str, points: int) -> None:
    """FR "YLUD L'IMPRÉVISIBLE": W 7, M 1, E 11, H/B by rank."""
    assert score(column_table({column: ["Ylud"]}))[category] == points


def test_ylud_counts_for_the_warrior_majority() -> None:
    """FR "YLUD": her rank counts in the warrior majority when she lies there."""
    ylud = table("Ylud owner", w=["W3", "Ylud"], coins=[0, 2, 3, 4, 10])
    other = table("Other", w=["W9"], coins=[0, 2, 3, 4, 20])
    sheet = score_table([ylud, other])
    assert sheet[0].breakdown["warriors"] == 3 + 7 + 10
    assert sheet[1].breakdown["warriors"] == 9


def test_thrud_is_not_counted_in_the_warrior_majority() -> None:
    """FR "THRUD": she leaves the army for the command zone before final scoring, so her
    rank never counts in the final warrior majority; she scores 13 wherever she is listed."""
    with_thrud = table("Thrud owner", w=["W3", "Thrud"], coins=[0, 2, 3, 4, 10])
    other = table("Other", w=["W4", "W5"], coins=[0, 2, 3, 4, 20])
    sheet = score_table([with_thrud, other])
    assert sheet[0].breakdown["warriors"] == 3  # no bonus: 1 rank against 2
    assert sheet[0].breakdown["heroes"] == 13
    assert sheet[1].breakdown["warriors"] == 9 + 20


def test_thrud_left_in_a_column_gives_no_rank_or_bravery() -> None:
    result = score(table(h=["H", "Thrud"]))
    assert result["hunters"] == 1 and result["heroes"] == 13


# --------------------------------------------------------------------------- Thingvellir cards

@pytest.mark.parametrize("column, token, category, points", [
    ("w", "W6/E8", "warriors", 6), ("e", "W6/E8", "explorers", 8),
    ("w", "W9/E11", "warriors", 9), ("e", "E11/W9", "explorers", 11),
    ("h", "H/M1", "hunters", 1), ("m", "H/M1", "miners", 1),
    ("b", "W6/B", "blacksmiths", 3), ("e", "H/E8", "explorers", 8),
])
def test_mercenaries_score_by_the_side_they_lie_on(
        column: str, token: str, category: str, points: int) -> None:
    """FR Thingvellir "Les Mercenaires": a dwarf of that class with the BP shown."""
    assert score(column_table({column: [token]}))[category] == points


def test_mercenary_ranks_add_to_the_column() -> None:
    assert score(table(m=["M2", "B/M1"]))["miners"] == 2 * 3
    assert score(table(h=["H", "W6/H"]))["hunters"] == 4


@pytest.mark.parametrize("column, category, points", [
    ("h", "hunters", 4),          # H + double: 2 ranks
    ("b", "blacksmiths", 7),      # B + double: 2 ranks
    ("m", "miners", 2 * 2),       # M2 + double: 2 ranks x 2 BP
    ("e", "explorers", 5),        # E5 + double: 0 BP
    ("w", "warriors", 3),         # W3 + double: 0 BP
])
def test_olwyn_doubles_are_one_rank_and_zero_bravery(
        column: str, category: str, points: int) -> None:
    """FR Thingvellir "OLWYN": each double counts as a dwarf of its column, 1 rank, 0 BP."""
    first = {"h": "H", "b": "B", "m": "M2", "e": "E5", "w": "W3"}[column]
    assert score(column_table({column: [first, "Olwyn Double"]}))[category] == points


def test_special_blacksmith_card_is_two_ranks() -> None:
    """FR "Grand-e Armurier-ère du Roi": the special card has 2 ranks: B + B* = 3 ranks."""
    assert score(table(b=["B", "B*"]))["blacksmiths"] == 12
    assert score(table(b=["B*"]))["blacksmiths"] == 7


def test_vegvisir_scores_13_as_an_explorer() -> None:
    result = score(table(e=["E5", "Vegvisir"]))
    assert result["explorers"] == 18
    assert result["artifacts"] == 0


def test_draupnir_six_per_coin_of_15_or_more() -> None:
    assert score(table(cz=["Draupnir"], coins=[0, 2, 15, 16, 14]))["artifacts"] == 12
    assert score(table(cz=["Draupnir"], coins=[0, 2, 3, 4, 14]))["artifacts"] == 0


def test_svalinn_five_per_hero_doubles_are_not_heroes() -> None:
    """Svalinn: heroes in the army and the command zone; Olwyn's doubles are not heroes."""
    player = table(w=["Kraal"], h=["H", "Olwyn Double"], e=["E5", "Olwyn Double"],
                   cz=["Svalinn", "Olwyn", "Skaa"])
    assert score(player)["artifacts"] == 5 * 3


def test_megingjord_28() -> None:
    assert score(table(cz=["Megingjord"]))["artifacts"] == 28


def test_mjollnir_twice_the_best_column() -> None:
    """Mjöllnir: 2 x the ranks of one class of your choice (the largest column)."""
    player = table(h=["H", "H", "Dagda"], b=["B*", "B", "B", "B"], e=["E5"], cz=["Mjöllnir"])
    assert score(player)["artifacts"] == 2 * 5


def test_hrafnsmerki_five_per_mercenary() -> None:
    player = table(w=["W6/E8"], e=["E11/W9"], m=["H/M1"], cz=["Hrafnsmerki"])
    assert score(player)["artifacts"] == 15


def test_jarnglofi_24_with_four_coins() -> None:
    """Járnglófi: the exchange coin is discarded, 24 points; 4 coins count."""
    result = score(table(cz=["Járnglófi"], coins=[2, 3, 4, 5]))
    assert result["artifacts"] == 24
    assert result["coins"] == 14


@pytest.mark.parametrize("artifact", [
    "Fafnir Båleygr", "Vidofnir & Vedrfölnir", "Brisingamens", "Höfud", "Gjallarhorn"])
def test_artifacts_without_end_points(artifact: str) -> None:
    assert score(table(cz=[artifact])) == dict.fromkeys(CATEGORIES, 0)


def test_distinctions_score_nothing() -> None:
    """FR "Fin de l'Age 1": the distinction card itself scores nothing."""
    assert score(table(cz=[d.token for d in C.DISTINCTIONS])) == dict.fromkeys(CATEGORIES, 0)


# --------------------------------------------------------------------------- warrior majority

def test_warrior_majority_ties_each_add_their_own_highest_coin() -> None:
    """FR "LES GUERRIER-ÈRE-S": on a tie every tied player adds their own highest coin."""
    a = table("A", w=["W3", "W4"], coins=[0, 2, 3, 4, 12])
    b = table("B", w=["W9", "Tarah"], coins=[0, 2, 3, 4, 21])
    c = table("C", w=["W5"], coins=[0, 2, 3, 4, 25])
    sheet = score_table([a, b, c])
    assert [p.breakdown["warriors"] for p in sheet.players] == [7 + 12, 23 + 21, 5]


def test_warrior_majority_counts_multi_rank_heroes() -> None:
    """Kraal has 2 ranks: W9 + Kraal (3 ranks) beats W3 + W4 (2 ranks)."""
    a = table("A", w=["W3", "W4"], coins=[0, 2, 3, 4, 12])
    b = table("B", w=["W9", "Kraal"], coins=[0, 2, 3, 4, 21])
    sheet = score_table([a, b])
    assert [p.breakdown["warriors"] for p in sheet.players] == [7, 16 + 21]


def test_warrior_majority_is_by_ranks_not_bravery() -> None:
    a = table("A", w=["W3", "W4"], coins=[0, 2, 3, 4, 12])
    b = table("B", w=["Tarah"], coins=[0, 2, 3, 4, 21])
    d = table("D", w=["W5", "W6"], coins=[0, 2, 3, 4, 20])
    sheet = score_table([a, b, d])
    assert [p.breakdown["warriors"] for p in sheet.players] == [7 + 12, 14, 11 + 20]


def test_the_bonus_coin_also_counts_in_the_coin_sum() -> None:
    """FR "Fin de l'Age 2": the coin counts once in the coins and once in the warriors."""
    result = score(table(w=["W3"], coins=[0, 2, 3, 4, 9]))
    assert result["warriors"] == 12 and result["coins"] == 18


def test_r9_nobody_with_warriors_gets_no_bonus() -> None:
    """R9: a player needs at least one warrior rank to get the majority bonus."""
    sheet = score_table([table("A", coins=[0, 2, 3, 4, 9]), table("B", coins=[0, 2, 3, 4, 7])])
    assert [p.breakdown["warriors"] for p in sheet.players] == [0, 0]


def test_r9_option_gives_the_bonus_to_everyone_tied_at_zero() -> None:
    """R9 option ``warrior_bonus_without_warriors`` (BGA's behaviour)."""
    options = RuleOptions(warrior_bonus_without_warriors=True)
    sheet = score_table([table("A", coins=[0, 2, 3, 4, 9]), table("B", coins=[0, 2, 3, 4, 7])],
                        options)
    assert [p.breakdown["warriors"] for p in sheet.players] == [9, 7]
    assert sheet.options is options


def test_r9_option_changes_nothing_when_someone_has_warriors() -> None:
    options = RuleOptions(warrior_bonus_without_warriors=True)
    sheet = score_table([table("A", w=["W3"], coins=[0, 2, 3, 4, 9]),
                         table("B", coins=[0, 2, 3, 4, 7])], options)
    assert [p.breakdown["warriors"] for p in sheet.players] == [12, 0]


# --------------------------------------------------------------------------- gem, placings

def test_gem_6_scores_3() -> None:
    """FR "Joaillier-ère de la Couronne": the special gem 6 gives +3 points at the end."""
    assert score(table(gem=6))["gem"] == 3
    assert score(table(gem=5))["gem"] == 0


def test_r24_tied_players_share_the_placing() -> None:
    """R24 / FR "Fin de la partie": tied players share the win."""
    sheet = score_table([table("A", cz=["Skaa"]), table("B", cz=["Grid"]),
                         table("C", cz=["Skaa"]), table("D")])
    assert [p.rank for p in sheet.players] == [1, 3, 1, 4]
    assert sheet.winners == ["A", "C"]
    assert placings([10, 20, 20, 5]) == [3, 1, 1, 4]


def test_score_sheet_text_names_the_winners() -> None:
    sheet = score_table([table("A", cz=["Skaa"]), table("C", cz=["Skaa"])])
    text = sheet.to_text()
    assert "A and C share the win with 17 points." in text
    single = score_table([rulebook_example()]).to_text()
    assert "Serge wins with 204 points." in single


def test_score_sheet_to_dict() -> None:
    data = score_table([rulebook_example()]).to_dict()
    assert data["winners"] == ["Serge"]
    (player,) = data["players"]
    assert player["name"] == "Serge" and player["total"] == 204 and player["rank"] == 1
    assert set(player["breakdown"]) == set(CATEGORIES)
    assert sum(d["points"] for d in player["details"]) == 204


def test_score_sheet_html() -> None:
    html = score_table([table("A & B", cz=["Skaa"])])._repr_html_()
    assert "A &amp; B" in html and "<b>17</b>" in html


def test_the_sheet_shows_no_empty_optional_rows() -> None:
    """Issue 44: a base game's sheet has no 'Artifacts 0 0 0' row; artifacts and the gem 6
    appear where someone scores there; the score pad's own rows always do."""
    from nidavellir import Game
    from nidavellir.scoring import CATEGORY_LABELS

    base = Game.new(players=3, seed=4).scores()
    assert "artifacts" not in base.rows and "gem" not in base.rows
    assert base.rows[:5] == ("warriors", "hunters", "miners", "blacksmiths", "explorers")
    text, html_ = base.to_text(), base._repr_html_()
    assert CATEGORY_LABELS["artifacts"] not in text and CATEGORY_LABELS["artifacts"] not in html_
    assert "Neutral heroes" in text and "Coins" in text
    sheet = score_table([PlayerTable("A", {}, command_zone=[C.DRAUPNIR], coins=[0, 2, 15]),
                         PlayerTable("B", {}, coins=[0, 2], gem=C.GEM_6)])
    assert "artifacts" in sheet.rows and "gem" in sheet.rows
