"""The strength ladder (issue 13): seat rotation on common deals, statistics, the CLI."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from nidavellir.analysis.ladder import (
    COLUMNS,
    SUMMARY_COLUMNS,
    bradley_terry,
    ladder,
    ladder_tasks,
    play_ladder_game,
)
from nidavellir.cli import main
from nidavellir.stats import wilson

BOTS = ["random", "greedy", "search@4"]


@pytest.fixture(scope="module")
def result():  # type: ignore[no-untyped-def]
    return ladder(BOTS, players=3, games=3, seed=2, progress=False)


def test_pairings_rotate_seats_on_common_deals() -> None:
    tasks = ladder_tasks(["a", "b"], players=3, games=4, seed=1)
    # 2 ordered pairings x 2 deals (4 rounded up to 6 games) x 3 seats.
    assert len(tasks) == 2 * 2 * 3
    first = [t for t in tasks if t[2] == "a"]
    assert [t[6] for t in first[:3]] == [("a", "b", "b"), ("b", "a", "b"), ("b", "b", "a")]
    # The same deal seed in every pairing and every rotation.
    seeds = {(t[4], t[5]) for t in tasks}
    assert len(seeds) == 2 and len({s for _, s in seeds}) == 2


def test_rows_and_summary(result) -> None:  # type: ignore[no-untyped-def]
    rows, summary = result.rows, result.summary
    assert list(rows.columns) == list(COLUMNS)
    assert list(summary.columns) == list(SUMMARY_COLUMNS)
    assert len(rows) == 6 * 3 * 3  # 6 pairings x 3 games x 3 seats
    assert set(summary["bot"]) == set(BOTS)
    for r in summary.itertuples():
        assert r.games == 6 and r.parity == pytest.approx(1 / 3)
        assert 0 <= r.win_low <= r.win_share <= r.win_high <= 1
        assert r.elo_low <= r.elo_high
    # Win shares of one game sum to 1.
    assert (rows.groupby("game")["win_share"].sum().round(9) == 1).all()
    assert summary.set_index("bot").loc["random", "elo"] == 0.0
    text = result.to_text()
    assert "win share" in text and "search@4" in text


def test_a_row_replays_alone(result) -> None:  # type: ignore[no-untyped-def]
    rows = result.rows
    game = rows[rows["game"] == 7]
    seats = tuple(game.sort_values("seat")["bot"])
    first = game.iloc[0]
    replay = play_ladder_game((7, int(first["pairing"]), first["lone"], first["field"],
                               int(first["deal"]), int(first["seed"]), seats, ()))
    assert [r["total"] for r in replay] == game.sort_values("seat")["total"].tolist()


@pytest.mark.slow(reason="the ladder's games played twice, on one and on two worker processes: "
                        'about 3.5 s of CPU')
def test_the_same_seed_gives_the_same_rows_whatever_the_workers(result) -> None:  # type: ignore[no-untyped-def]
    again = ladder(BOTS, players=3, games=3, seed=2, workers=2, progress=False)
    cols = [c for c in COLUMNS if c != "seconds"]
    pd.testing.assert_frame_equal(again.rows[cols], result.rows[cols])


def test_statistics() -> None:
    low, high = wilson(50, 100)
    assert low < 0.5 < high and high - low == pytest.approx(0.192, abs=0.01)
    assert wilson(0, 0) == (0.0, 1.0)
    # A bot winning 3 of 4 pairwise results is rated above.
    ratings = bradley_terry([(0, "a", "b", 1.0), (1, "a", "b", 1.0), (2, "a", "b", 1.0),
                             (3, "a", "b", 0.0)], ["b", "a"])
    assert ratings["b"] == 0.0 and ratings["a"] > 100
    # Equal results, equal ratings.
    even = bradley_terry([(0, "a", "b", 1.0), (1, "a", "b", 0.0)], ["a", "b"])
    assert math.isclose(even["b"], 0.0, abs_tol=1e-6)


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ladder.csv"
    code = main(["ladder", "--bots", "random,greedy", "--players", "2", "--games", "2",
                 "--seed", "3", "--out", str(out), "--no-progress"])
    assert code == 0
    text = capsys.readouterr().out
    assert "4 games of 2 players" in text and "greedy" in text
    rows = pd.read_csv(out)
    assert len(rows) == 8 and set(rows["bot"]) == {"random", "greedy"}


@pytest.mark.parametrize("argv,message", [
    (["--bots", "random"], "at least 2"),
    (["--bots", "random,minimax"], "unknown bot 'minimax'"),
    (["--bots", "random,random"], "once"),
    (["--bots", "random,greedy@3"], "budget"),
    (["--bots", "random,search@0s"], "budget"),
    (["--bots", "random,greedy", "--players", "6"], "--players"),
    (["--bots", "random,greedy", "--games", "0"], "--games"),
    (["--bots", "random,greedy", "--workers", "0"], "--workers"),
    (["--bots", "random,greedy", "--out", "x.txt"], ".csv or .parquet"),
    (["--bots", "random,greedy", "--out", "/no/such/dir/x.csv"], "no directory"),
    (["--bots", "random,greedy", "--expansions", "nope"], "expansion"),
])
def test_bad_arguments(argv: list[str], message: str, tmp_path: Path,
                       capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["ladder", *argv, "--no-progress", "--games", argv[argv.index("--games") + 1]
                 if "--games" in argv else "1"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error:") and message in err and len(err.strip().splitlines()) == 1


def test_argparse_errors_exit_2() -> None:
    with pytest.raises(SystemExit) as info:
        main(["ladder", "--players", "x", "--bots", "random,greedy"])
    assert info.value.code == 2
