"""What-if on the scripted round of test_frames: exact immediate deltas, and the coach's
judgement (reproducible, the same as the Hint's, blind to hidden information)."""

from __future__ import annotations

import pandas as pd
import pytest
from test_frames import ROUND_1, scripted_game

from nidavellir import Game
from nidavellir.analysis.whatif import DELTA_COLUMNS, branch, compare, what_if
from nidavellir.errors import IllegalAction


def deltas(table, action: str) -> dict[str, int]:
    r = table[table["action"] == action].iloc[0]
    return {c.removeprefix("delta_"): int(r[c]) for c in DELTA_COLUMNS if r[c]}


def test_one_row_per_legal_action_in_order() -> None:
    game = scripted_game(5)  # Bo picks in the Laughing Goblin: W9 or H
    table = what_if(game)
    assert table["action"].tolist() == [str(a) for a in game.legal_actions()]
    assert set(table["name"]) == {"Bo"}


def test_a_warrior_brings_its_bravery_and_the_majority_bonus() -> None:
    table = what_if(scripted_game(5))
    # W9 is Bo's first warrior: 9 points + his highest coin (5) as majority bonus (FR p.9).
    assert deltas(table, "take W9") == {"warriors": 14, "total": 14}
    assert deltas(table, "take H") == {"hunters": 1, "total": 1}
    assert table.set_index("action").at["take W9", "score_total"] == 14 + 14


def test_the_score_of_another_player_can_be_asked() -> None:
    table = what_if(scripted_game(5), player=0)
    assert (table["delta_total"] == 0).all()
    assert set(table["name"]) == {"Ann"}


def test_blacksmith_or_miner() -> None:
    table = what_if(scripted_game(8))  # Ann picks in the Dancing Dragon: B or M2
    assert deltas(table, "take B") == {"blacksmiths": 3, "total": 3}
    assert deltas(table, "take M2") == {"miners": 2, "total": 2}


def test_a_royal_offering_counts_after_its_transform() -> None:
    table = what_if(scripted_game(4))  # Ann's transform after the +3
    assert deltas(table, "transform 5@T1") == {"coins": 3, "total": 3}
    assert deltas(table, "transform 2@purse") == {"coins": 3, "total": 3}


def test_what_if_leaves_the_game_alone() -> None:
    game = scripted_game(8)
    before = game.state.fingerprint()
    what_if(game, level="search@10")
    assert game.state.fingerprint() == before and len(game.history) == 8


def test_the_judged_table_is_reproducible_and_ranked_in_one_currency() -> None:
    from nidavellir.bots.judge import no_cache

    game = scripted_game(8)
    a = what_if(game, level="search@30", seed=42)
    with no_cache():  # judged afresh: the same figures
        b = what_if(game, level="search@30", seed=42)
    pd.testing.assert_frame_equal(a, b)
    # One row per option in the coach's order, ranked by the chance to win.
    assert a["rank"].tolist() == list(range(1, len(a) + 1))
    assert a["win_chance"].is_monotonic_decreasing
    best = a.iloc[0]
    assert best["about_best"]
    assert ((a["win_chance"] >= 0) & (a["win_chance"] <= 1)).all()
    # The recommended move is the judgement's, which is the Hint's at that level and seed.
    from nidavellir.bots.judge import judge

    j = judge(game, level="search@30", seed=42)
    assert best["action"] == str(j.best)
    # The judgement rides along as the one shared object, through every operation on the
    # frame (pandas deep-copies attrs: a copied judgement would cost seconds per table).
    assert a.attrs["judgement"] is j
    assert a[a["action"] == best["action"]].iloc[:1].attrs["judgement"] is j


def test_branch_replays_other_actions() -> None:
    game = scripted_game()
    other = branch(game, 8, ["take M2", "take B"])
    assert [str(a) for _, a in other.history] == ROUND_1[:8] + ["take M2", "take B"]
    assert len(game.history) == len(ROUND_1)
    with pytest.raises(IllegalAction):
        branch(game, 8, ["take W9"])


def test_compare_puts_two_sheets_side_by_side() -> None:
    game = scripted_game()
    other = branch(game, 8, ["take M2", "take B"])
    table = compare(game, other, labels=("blacksmith", "miner"))
    assert list(table.columns.get_level_values(0).unique()) == ["Ann", "Bo", "Cy"]
    ann = table["Ann"]
    assert list(ann.columns) == ["blacksmith", "miner", "change"]
    assert ann.loc["Blacksmiths"].tolist() == [3, 0, -3]
    assert ann.loc["Miners"].tolist() == [0, 2, 2]
    # The branch stops before the Shining Horse: Ann has not taken E10 (10) there yet.
    assert ann.loc["Explorers"].tolist() == [10, 0, -10]
    assert ann.loc["Total"].tolist() == [30, 19, -11]
    # Cy took the blacksmith Ann left: his sheet changes too.
    assert table["Cy"].loc["Blacksmiths", "change"] == 3


def test_no_decision_no_what_if() -> None:
    from nidavellir.bots import play_game

    with pytest.raises(ValueError, match="over"):
        what_if(play_game(2, "random", seed=1))
    with pytest.raises(ValueError, match="no player"):
        what_if(Game.new(players=2), player=5)


def test_play_until_reaches_a_position_reproducibly() -> None:
    from nidavellir.analysis.whatif import play_until

    def age_2(g: Game) -> bool:
        return g.state.age == 2

    a = play_until(Game.new(players=3, seed=4), age_2, "random", seed=1)
    b = play_until(Game.new(players=3, seed=4), age_2, "random", seed=1)
    assert a.state.age == 2 and a.history == b.history


def test_what_if_never_uses_what_the_deciding_seat_cannot_see() -> None:
    """Issues 13, 14, 25: twin games (other players' face-down bids, deck order) give the
    same what-if table, immediate changes and judgement alike (seeded from the position as
    the seat sees it)."""
    from test_determinize import twin_pair

    game, other, _ = twin_pair(3, 21)
    a = what_if(game, level="search@20")
    b = what_if(other, level="search@20")
    pd.testing.assert_frame_equal(a, b)
