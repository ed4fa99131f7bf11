"""Strategy-lab questions (issue 15): each table checked against a hand count on the rows."""

from __future__ import annotations

import pandas as pd
import pytest

from nidavellir.analysis import lab
from nidavellir.analysis.simulate import simulate


@pytest.fixture(scope="module")
def rows() -> pd.DataFrame:
    return simulate(60, 3, ["greedy", "random", "random"], seed=9, progress=False)


def test_new_columns_are_filled(rows: pd.DataFrame) -> None:
    assert (rows["bids"] == 2 * 4 * 3).all()  # 3 players: 4 rounds per age, 3 taverns each
    assert ((rows["exchange_bids"] >= 0) & (rows["exchange_bids"] <= rows["bids"])).all()
    assert (rows["highest_coin"] == rows["final_coins"].map(
        lambda s: max(int(c.rstrip("*")) for c in s.split()))).all()
    age1 = rows[[f"age1_{c}" for c in "WHMBE"]].sum(axis=1)
    # 4 rounds x 3 picks, less Royal Offerings and discards, plus heroes
    assert (age1 > 0).all() and (age1 <= 30).all()
    assert rows["distinctions"].str.len().sum() > 0


def test_heroes_table(rows: pd.DataFrame) -> None:
    table = lab.heroes_table(rows)
    some = table.iloc[0]
    mask = rows["heroes_recruited"].str.split(";").map(lambda xs: some["hero"] in xs)
    assert some["games"] == mask.sum()
    assert some["win_rate"] == pytest.approx(rows[mask]["winner"].mean())
    assert some["win_rate_without"] == pytest.approx(rows[~mask]["winner"].mean())
    assert some["lift"] == pytest.approx(some["win_rate"] - some["win_rate_without"])
    assert list(lab.heroes_figure(table).data[0].x) == list(table["hero"])


def test_distinctions_table(rows: pd.DataFrame) -> None:
    table = lab.distinctions_table(rows)
    assert len(table) == 5
    for r in table.itertuples():
        mask = rows["distinctions"].str.split(";").map(lambda xs, t=r.distinction: t in xs)
        assert r.awarded_share == pytest.approx(mask.sum() / 60)
        if mask.any() and (~mask).any():
            assert r.points_over_others == pytest.approx(
                rows[mask]["total"].mean() - rows[~mask]["total"].mean())
    assert len(lab.distinctions_figure(table).data[0].x) == 5


def test_coins_bids_first_age_and_bots(rows: pd.DataFrame) -> None:
    coins = lab.coins_table(rows)
    assert coins.attrs["corr_coin_sum"] == pytest.approx(rows["coin_sum"].corr(rows["total"]))
    assert len(lab.coins_figure(coins).data) == 2
    styles = lab.bid_styles(rows)
    assert styles["players"].sum() == len(rows)
    mix = lab.first_age_mix(rows)
    winners = mix[(mix["group"] == "winners") & (mix["class"] == "Warriors")]["mean_ranks"]
    assert winners.iloc[0] == pytest.approx(rows[rows["winner"]]["age1_W"].mean())
    bots = lab.bots_table(rows)
    greedy = bots.set_index("bot").loc["greedy"]
    assert greedy["seats"] == 60
    assert greedy["win_low"] <= greedy["win_rate"] <= greedy["win_high"]
    assert bots.iloc[0]["bot"] == "greedy"  # greedy beats random
    for fig in (lab.bid_styles_figure(styles), lab.first_age_figure(mix), lab.bots_figure(bots)):
        assert fig.layout.title.text


def test_old_rows_and_empty_rows_are_explained() -> None:
    with pytest.raises(ValueError, match="lack column"):
        lab.bid_styles(pd.DataFrame({"winner": [True]}))
    empty = simulate(1, 2, "random", progress=False).iloc[0:0]
    with pytest.raises(ValueError, match="no rows"):
        lab.heroes_table(empty)
