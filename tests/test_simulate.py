"""Simulations: seeded rows independent of the worker count, consistent scores, files,
and the ``nidavellir simulate`` command line."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from nidavellir.analysis.simulate import COLUMNS, game_seed, main, read, simulate, write
from nidavellir.bots import play_game
from nidavellir.scoring import CATEGORIES


@pytest.fixture(scope="module")
def rows() -> pd.DataFrame:
    return simulate(games=8, players=3, bots=["greedy", "random", "random"], seed=5,
                    progress=False)


def test_columns_and_shape(rows: pd.DataFrame) -> None:
    assert list(rows.columns) == list(COLUMNS)
    assert set(CATEGORIES) <= set(rows.columns)
    assert len(rows) == 8 * 3
    assert rows["game"].tolist() == sorted(rows["game"].tolist())
    assert rows.groupby("game")["seat"].apply(list).tolist() == [[0, 1, 2]] * 8
    assert rows["bot"].tolist()[:3] == ["greedy", "random", "random"]
    assert rows["seed"].tolist()[::3] == [game_seed(5, i) for i in range(8)]
    assert rows["winner"].dtype == bool


def test_totals_are_the_sum_of_the_categories(rows: pd.DataFrame) -> None:
    assert (rows[list(CATEGORIES)].sum(axis=1) == rows["total"]).all()
    assert (rows["coins"] == rows["coin_sum"]).all()
    for coins, total in zip(rows["final_coins"], rows["coin_sum"], strict=True):
        assert sum(int(c.rstrip("*")) for c in coins.split()) == total


def test_ranks_follow_the_totals_and_ties_share(rows: pd.DataFrame) -> None:
    for _, game in rows.groupby("game"):
        totals = game["total"].tolist()
        expected = [1 + sum(o > t for o in totals) for t in totals]
        assert game["rank"].tolist() == expected
        assert game["winner"].tolist() == [r == 1 for r in expected]
        assert game["winner"].any()


def test_rows_replay_from_their_own_seed(rows: pd.DataFrame) -> None:
    """A row's seed replays that game alone."""
    first = rows[rows["game"] == 3]
    seed = int(first["seed"].iloc[0])
    game = play_game(3, ["greedy", "random", "random"], seed=seed)
    assert game.scores().totals == first["total"].tolist()
    heroes = first["heroes_recruited"].tolist()
    assert all(isinstance(h, str) for h in heroes)


def test_same_seed_same_rows_whatever_the_workers(rows: pd.DataFrame) -> None:
    parallel = simulate(games=8, players=3, bots=["greedy", "random", "random"], seed=5,
                        workers=2, progress=False)
    pd.testing.assert_frame_equal(rows, parallel)
    other = simulate(games=2, players=3, bots="random", seed=6, progress=False)
    assert other["seed"].tolist() != rows["seed"].tolist()[:6]


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_files_round_trip(rows: pd.DataFrame, tmp_path: Path, suffix: str) -> None:
    path = write(rows, tmp_path / f"rows{suffix}")
    back = read(path)
    pd.testing.assert_frame_equal(rows, back, check_dtype=False)


def test_bad_arguments_raise() -> None:
    with pytest.raises(ValueError, match="unknown bot 'alphazero'"):
        simulate(1, 3, "alphazero", progress=False)
    with pytest.raises(ValueError, match="3 players need 1 or 3 bots, got 2"):
        simulate(1, 3, ["random", "greedy"], progress=False)
    with pytest.raises(ValueError, match="2 to 5 players"):
        simulate(1, 6, "random", progress=False)
    with pytest.raises(ValueError, match="at least 1"):
        simulate(0, 3, "random", progress=False)
    with pytest.raises(ValueError, match=".csv or .parquet"):
        write(pd.DataFrame(), "rows.xlsx")


def test_thingvellir_games() -> None:
    df = simulate(games=2, players=4, bots="greedy,random".split(",") * 2, seed=1,
                  expansions=("thingvellir",), progress=False)
    assert len(df) == 8
    assert (df[list(CATEGORIES)].sum(axis=1) == df["total"]).all()


# --------------------------------------------------------------------------- command line

def test_cli_writes_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sim.parquet"
    code = main(["--games", "3", "--players", "2", "--bots", "greedy,random",
                     "--seed", "7", "--workers", "1", "--out", str(out)])
    assert code == 0
    df = read(out)
    assert len(df) == 6 and df["bot"].tolist()[:2] == ["greedy", "random"]
    assert "3 games played, 6 rows written" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["--bots", "random,chess"], "error: --bots: unknown bot 'chess'; known: random, greedy"),
    (["--bots", "random,greedy"], "error: --bots: 3 players need 1 or 3 bots, got 2"),
    (["--players", "6"], "error: --players must be 2 to 5, not 6"),
    (["--players", "1"], "error: --players must be 2 to 5, not 1"),
    (["--games", "0"], "error: --games must be at least 1, not 0"),
    (["--out", "{tmp}/rows.xlsx"], "the output must end in .csv or .parquet"),
    (["--expansions", "nidavellir2"], "error: unknown expansion 'nidavellir2'"),
])
def test_cli_bad_arguments_exit_2(argv: list[str], message: str, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    base = {"--games": "1", "--players": "3", "--bots": "random", "--out": "{tmp}/rows.csv"}
    for flag, value in zip(argv[::2], argv[1::2], strict=True):
        base[flag] = value
    args = [str(x).replace("{tmp}", str(tmp_path)) for kv in base.items()
                           for x in kv]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and len(err.splitlines()) == 1
    assert message in err
    assert not any(tmp_path.iterdir())


def test_nidavellir_simulate_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from nidavellir.cli import main as cli_main

    out = tmp_path / "sim.csv"
    assert cli_main(["simulate", "--games", "2", "--players", "3", "--bots", "random",
                     "--out", str(out), "--workers", "2"]) == 0
    assert len(read(out)) == 6
    assert cli_main(["simulate", "--games", "2", "--players", "3", "--bots", "random,random",
                     "--out", str(out)]) == 2
    assert capsys.readouterr().err == "error: --bots: 3 players need 1 or 3 bots, got 2\n"
