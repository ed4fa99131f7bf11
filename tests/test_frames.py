"""Analysis frames on a scripted 3-player game (explicit deal, fixed actions).

The first round, decision by decision (steps are indices into ``game.history``):

- steps 0-2: bids. Ann ``bid 5 4 3``, Bo ``bid 4 5 0``, Cy ``bid 3 2 5``.
- Laughing Goblin (+3, W9, H): Ann (5) takes the Royal Offering (3) and transforms her
  bid 5 into the treasury's 8 (4, FR "Transformer une pièce"); Bo takes W9 (5), Cy H (6).
- Dancing Dragon (B, B, M2): Bo (5) takes B (7), Ann B (8), Cy M2 (9).
- Shining Horse (E11, E10, W8): Cy (5) E11 (10), Ann E10 (11), Bo W8 (12); Bo bid the
  0 there, so he trades his purse 2 + 3: the 3 goes, the treasury's 5 comes (R7).
"""

from __future__ import annotations

from collections import Counter

import pytest

from nidavellir import Game
from nidavellir import cards as C
from nidavellir.analysis import frames as F

NAMES = ("Ann", "Bo", "Cy")
FIRST_NINE = ["+3", "W9", "H", "B", "B", "M2", "E11", "E10", "W8"]
ROUND_1 = ["bid 5 4 3", "bid 4 5 0", "bid 3 2 5",
           "take +3", "transform 5@T1", "take W9", "take H",
           "take B", "take B", "take M2",
           "take E11", "take E10", "take W8"]


def scripted_deal() -> dict:
    rest = Counter({c.token: n for c, n in Counter(C.age_deck(1, 3)).items()})
    rest.subtract(Counter(FIRST_NINE))
    tokens = FIRST_NINE + sorted(rest.elements())
    return {"ages": {1: tokens}, "gems": [5, 4, 3]}


def scripted_game(steps: int = len(ROUND_1)) -> Game:
    game = Game.new(players=3, seed=11, names=NAMES, deal=scripted_deal())
    for action in ROUND_1[:steps]:
        game.apply(action)
    return game


@pytest.fixture(scope="module")
def game() -> Game:
    return scripted_game()


@pytest.fixture(scope="module")
def players(game: Game):
    return F.players_frame(game)


def row(frame, step: int, name: str):
    hit = frame[(frame["step"] == step) & (frame["name"] == name)]
    assert len(hit) == 1
    return hit.iloc[0]


def test_steps_run_from_setup_to_the_last_decision(players) -> None:
    assert players["step"].min() == -1
    assert players["step"].max() == len(ROUND_1) - 1
    assert len(players) == 3 * (len(ROUND_1) + 1)


def test_coin_sums_follow_the_offering_and_the_trade(players) -> None:
    # Everybody starts with 0 2 3 4 5 (FR "Mise en place").
    assert [row(players, -1, n)["coin_sum"] for n in NAMES] == [14, 14, 14]
    # The +3 turns Ann's 5 into 8.
    assert row(players, 3, "Ann")["coin_sum"] == 14
    assert row(players, 4, "Ann")["coins"] == "0 2 3 4 8"
    assert row(players, 4, "Ann")["highest_coin"] == 8
    # Bo's trade: 2 + 3 = 5, the 3 goes back (bronze leaves the game).
    assert row(players, 11, "Bo")["coin_sum"] == 14
    assert row(players, 12, "Bo")["coins"] == "0 2 4 5 5"
    assert row(players, 12, "Bo")["coin_sum"] == 16


def test_ranks_bravery_and_majorities_after_round_one(players) -> None:
    ann, bo, cy = (row(players, 12, n) for n in NAMES)
    assert [ann[f"ranks_{c}"] for c in "WHMBE"] == [0, 0, 0, 1, 1]
    assert [bo[f"ranks_{c}"] for c in "WHMBE"] == [2, 0, 0, 1, 0]
    assert [cy[f"ranks_{c}"] for c in "WHMBE"] == [0, 1, 1, 0, 1]
    assert bo["bravery_W"] == 17 and cy["bravery_M"] == 2 and cy["bravery_E"] == 11
    assert bool(bo["majority_W"]) and not ann["majority_W"]
    # Ties share a majority; nobody holds one without a rank.
    assert bool(ann["majority_E"]) and bool(cy["majority_E"]) and not bo["majority_E"]
    assert bool(ann["majority_B"]) and bool(bo["majority_B"]) and not cy["majority_B"]
    assert [r["lines"] for r in (ann, bo, cy)] == [0, 0, 0]
    assert [r["heroes"] for r in (ann, bo, cy)] == [0, 0, 0]


def test_running_score_is_the_engines_score_sheet(players, game: Game) -> None:
    ann, bo, cy = (row(players, 12, n) for n in NAMES)
    # Ann: blacksmith 1 rank = 3, explorer 10, coins 17.
    assert (ann["score_blacksmiths"], ann["score_explorers"], ann["score_coins"]) == (3, 10, 17)
    assert ann["score_total"] == 30
    # Bo: warriors 9 + 8 plus the majority bonus of his highest coin (5).
    assert bo["score_warriors"] == 22 and bo["score_total"] == 41
    assert cy["score_total"] == 1 + 2 + 11 + 14
    assert [bo["placing"], ann["placing"], cy["placing"]] == [1, 2, 3]
    assert [row(players, 12, n)["score_total"] for n in NAMES] == game.scores().totals


def test_actor_and_action_name_the_decision(players) -> None:
    r = row(players, 4, "Cy")
    assert r["actor"] == 0 and r["action"] == "transform 5@T1"
    assert players[players["step"] == -1]["actor"].isna().all()


def test_coins_frame_places_and_slots(game: Game) -> None:
    coins = F.coins_frame(game)
    ann = coins[(coins["step"] == 2) & (coins["name"] == "Ann")]
    assert ann[["slot", "coin", "place"]].values.tolist() == [
        [1, "0", "purse"], [2, "2", "purse"], [3, "3", "T3"], [4, "4", "T2"], [5, "5", "T1"]]
    ann4 = coins[(coins["step"] == 4) & (coins["name"] == "Ann")]
    assert ann4[ann4["place"] == "T1"][["value", "metal"]].values.tolist() == [[8, "gold"]]
    assert set(coins[coins["step"] == -1]["place"]) == {"hand"}
    assert len(coins) == 3 * 5 * (len(ROUND_1) + 1)


def test_events_frame_marks_the_coin_events(game: Game) -> None:
    events = F.events_frame(game)
    assert len(events) == len(game.events)
    assert events["index"].tolist() == list(range(len(game.events)))
    assert events.iloc[0]["kind"] == "RoundStarted" and events.iloc[0]["step"] == -1
    marked = events[events["coin_event"].notna()]
    assert marked[["step", "name", "coin_event", "coin_before", "coin_after", "place"]
                  ].values.tolist()[0] == [4, "Ann", "royal offering", 5, 8, "T1"]
    trade = marked.iloc[1]
    assert (trade["step"], trade["name"], trade["coin_event"]) == (12, "Bo", "trade")
    assert (trade["coin_before"], trade["coin_after"], trade["reason"]) == (3, 5, "trade 2 + 3")
    taken = events[(events["kind"] == "CardTaken") & (events["step"] == 5)]
    assert taken[["name", "card", "tavern_name"]].values.tolist() == [
        ["Bo", "W9", "Laughing Goblin"]]
    placed = events[(events["kind"] == "CardPlaced") & (events["step"] == 5)]
    assert placed["column"].tolist() == ["W"]
    assert events[events["step"] == 2]["kind"].tolist() == ["BidPlaced", "BidsRevealed"]


def test_treasury_frame_counts_what_is_left(game: Game) -> None:
    treasury = F.treasury_frame(game)
    left = treasury.groupby("step")["available"].sum()
    # 3 players: 34 coins less two each of 7, 9 and 11 (FR "Partie à 2/3 Elvalands").
    assert left[-1] == 28 and left[3] == 28 and left[4] == 27 and left[12] == 26
    at = treasury.set_index(["step", "value"])["available"]
    assert (at[(3, 8)], at[(4, 8)]) == (2, 1)
    assert (at[(11, 5)], at[(12, 5)]) == (2, 1)
    assert sorted(treasury["value"].unique()) == list(range(5, 26))


def test_timeline_follows_new_decisions_and_undo() -> None:
    game = scripted_game(6)
    tl = F.Timeline(game)
    assert len(tl.snapshots) == 7
    for action in ROUND_1[6:]:
        game.apply(action)
    tl.sync(game)
    assert tl.players_frame().equals(F.players_frame(scripted_game()))
    game.undo(5)  # back to Ann's pick in the Dancing Dragon (step 8)
    game.apply("take M2")  # Ann takes the miner instead of the blacksmith
    tl.sync(game)
    assert tl.events_frame().equals(F.events_frame(game))
    assert tl.players_frame().equals(F.players_frame(game))


def test_a_whole_game_replays_to_the_same_final_score() -> None:
    from nidavellir.bots import play_game

    game = play_game(3, "random", seed=5)
    players = F.players_frame(game)
    last = players[players["step"] == players["step"].max()]
    assert last["score_total"].tolist() == game.scores().totals
    assert F.events_frame(game)["kind"].tolist() == [e.kind for e in game.events]


def test_score_frame_is_tidy(game: Game) -> None:
    scores = F.score_frame(game)
    assert len(scores) == 3 * 9
    assert scores.groupby("name")["points"].sum().to_dict() == {"Ann": 30, "Bo": 41, "Cy": 28}
