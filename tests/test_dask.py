"""The strategy lab at scale (issue 15): simulate, ladder and partitioned Parquet on a real
Dask cluster, resume after an interrupted run, and bad arguments.

The fixture starts a scheduler and two workers from the project's own virtual environment
as subprocesses on 127.0.0.1 and stops every one of them by its process id.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from nidavellir.analysis.ladder import ladder
from nidavellir.analysis.runner import Backend, chunked, run_chunks, run_tasks
from nidavellir.analysis.simulate import COLUMNS, read_dir, simulate, simulate_to_dir
from nidavellir.cli import main

BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the process group, SIGKILL after a timeout."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=15)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=15)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """tcp://127.0.0.1:PORT of a scheduler with two one-thread workers."""
    from distributed import Client

    log = tmp_path_factory.mktemp("dask")
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs: list[subprocess.Popen[bytes]] = []

    def spawn(name: str, *args: str) -> None:
        out = (log / f"{name}.log").open("wb")
        procs.append(subprocess.Popen([str(BIN / "dask"), *args], stdout=out,
                                      stderr=subprocess.STDOUT, start_new_session=True,
                                      cwd=log))

    try:
        spawn("scheduler", "scheduler", "--host", "127.0.0.1", "--port", str(port),
              "--no-dashboard")
        for i in range(2):
            spawn(f"worker{i}", "worker", address, "--nthreads", "1", "--nworkers", "1",
                  "--host", "127.0.0.1", "--no-dashboard", "--name", f"w{i}")
        client = Client(address, timeout=60)
        try:
            client.wait_for_workers(2, timeout=90)
        finally:
            client.close()
        yield address
    finally:
        for proc in reversed(procs):
            stop(proc)
        assert all(p.poll() is not None for p in procs)


@pytest.mark.slow(reason="the games on a scheduler and two workers, whose own work counts: "
                        "about 3 s of CPU")
def test_simulate_on_the_cluster_equals_the_local_run_row_for_row(cluster: str) -> None:
    local = simulate(16, 3, ["greedy", "random", "random"], seed=3, progress=False)
    remote = simulate(16, 3, ["greedy", "random", "random"], seed=3, progress=False,
                      scheduler=cluster, chunk=3)
    pd.testing.assert_frame_equal(local, remote)


@pytest.mark.slow(reason="the games on a scheduler and two workers, whose own work counts: "
                        "about 2.5 s of CPU")
def test_partitioned_parquet_on_the_cluster(cluster: str, tmp_path: Path) -> None:
    out = tmp_path / "runs"
    summary = simulate_to_dir(out, 120, 3, "random", seed=4, scheduler=cluster, chunk=20,
                              progress=False)
    assert summary["written"] == 6 and summary["skipped"] == 0
    parts = sorted((out / "players=3" / "bots=random-random-random").glob("part-*.parquet"))
    assert len(parts) == 6
    rows = read_dir(out)
    local = simulate(120, 3, "random", seed=4, progress=False)
    pd.testing.assert_frame_equal(rows[list(COLUMNS)], local)
    assert set(rows["players"].astype(str)) == {"3"}
    import dask.dataframe as dd

    assert len(dd.read_parquet(str(out))) == 360


@pytest.mark.slow(reason="the ladder's games on a scheduler and two workers, whose own work "
                        'counts: about 2 s of CPU')
def test_the_ladder_through_dask_has_the_local_numbers(cluster: str) -> None:
    bots = ["random", "greedy"]
    local = ladder(bots, players=2, games=6, seed=5, progress=False)
    remote = ladder(bots, players=2, games=6, seed=5, progress=False, scheduler=cluster)
    cols = [c for c in local.rows.columns if c != "seconds"]
    pd.testing.assert_frame_equal(local.rows[cols], remote.rows[cols])
    keep = ["bot", "games", "win_share", "win_low", "win_high", "mean_margin", "elo"]
    pd.testing.assert_frame_equal(local.summary[keep], remote.summary[keep])


@pytest.mark.slow(reason="starts a local Dask cluster of two worker processes: about 5 s "
                        "of CPU")
def test_a_local_dask_cluster_gives_the_same_rows() -> None:
    local = simulate(30, 2, "random", seed=6, progress=False)
    pd.testing.assert_frame_equal(local, simulate(30, 2, "random", seed=6, progress=False,
                                                  dask=2, chunk=4))


def test_results_do_not_depend_on_the_chunks_or_the_workers() -> None:
    tasks = list(range(23))
    expected = [t * t for t in tasks]
    for workers, size in ((1, 1), (1, 5), (2, 3), (2, 23)):
        assert list(run_tasks(_square, tasks, workers=workers, size=size)) == expected
    chunks = chunked(tasks, 4)
    got = dict(run_chunks(_square, chunks, Backend(workers=2), skip=lambda i: i % 2 == 1))
    assert sorted(got) == [0, 2, 4] and got[2] == [t * t for t in chunks[2]]


def _square(x: int) -> int:
    return x * x


@pytest.mark.slow(reason="the command line started, interrupted and resumed, and the run "
                        "made again in the test's process: about 2.5 s of CPU")
def test_resume_after_an_interrupted_run_writes_only_the_missing_chunks(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT) half-way: only complete files are left; --resume finishes the run.

    The interrupt is sent once three chunks are on disk. On a busy machine the run may end
    before the signal lands (the test's process waited too long for a core): that try says
    nothing about interrupting, so the run is made again, twice as long, in a fresh folder.
    A run that ignored Ctrl-C would end every try and fail the test."""
    for games in (240, 480, 960, 1920):
        out = tmp_path / f"sim{games}"
        args = ["simulate", "--games", str(games), "--players", "3", "--seed", "8",
                "--chunk", "20", "--out", f"{out}/", "--no-progress"]
        chunks = games // 20
        # A shell starts its background jobs with Ctrl-C ignored, and a child inherits that
        # (so does Python, which then never raises KeyboardInterrupt): `make test &` or a
        # CI runner's background step would make the run deaf to Ctrl-C. The child is
        # given the default, as a terminal's foreground job has.
        proc = subprocess.Popen([str(BIN / "nidavellir"), *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        part = out / "players=3" / "bots=random-random-random"
        while proc.poll() is None and len(list(part.glob("part-*.parquet"))) < 3:
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=600)
        if proc.returncode != 0:
            break
        assert len(list(part.glob("part-*.parquet"))) == chunks  # it ran to its end
    else:
        pytest.fail("every run ended before Ctrl-C reached it, or Ctrl-C was ignored")
    first = {p.name: p.stat().st_mtime_ns for p in part.glob("part-*.parquet")}
    assert 3 <= len(first) < chunks
    for p in part.glob("part-*.parquet"):
        pd.read_parquet(p)  # every file left is complete
    assert not list(part.glob(".part-*"))
    # The same arguments without --resume refuse to mix two runs.
    assert main(args) == 2
    assert main([*args, "--resume"]) == 0
    files = {p.name: p.stat().st_mtime_ns for p in part.glob("part-*.parquet")}
    assert len(files) == chunks
    assert all(files[name] == mtime for name, mtime in first.items())  # not rewritten
    rows = read_dir(out)
    pd.testing.assert_frame_equal(rows[list(COLUMNS)],
                                  simulate(games, 3, "random", seed=8, progress=False))


@pytest.mark.parametrize("extra,message", [
    (["--scheduler", "tcp://127.0.0.1:{port}", "--connect-timeout", "2"], "cannot reach"),
    (["--dask", "0"], "--dask"),
    (["--dask", "2", "--scheduler", "tcp://127.0.0.1:1"], "not both"),
    (["--workers", "0"], "--workers"),
])
def test_bad_backend_arguments_write_nothing(extra: list[str], message: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    extra = [e.replace("{port}", str(free_port())) for e in extra]
    out = tmp_path / "sim"
    code = main(["simulate", "--games", "5", "--out", f"{out}/", "--no-progress", *extra])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error:") and message in err
    assert len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_an_out_folder_holding_other_data_is_refused(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me", encoding="utf-8")
    code = main(["simulate", "--games", "5", "--out", f"{out}/", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "other data" in err
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    # Another simulation's folder is refused too, even with --resume.
    other = tmp_path / "other"
    assert main(["simulate", "--games", "5", "--seed", "1", "--out", f"{other}/",
                 "--no-progress"]) == 0
    manifest = json.loads((other / "_nidavellir_simulation.json").read_text())
    assert manifest["seed"] == 1
    code = main(["simulate", "--games", "5", "--seed", "2", "--out", f"{other}/", "--resume",
                 "--no-progress"])
    assert code == 2 and "another simulation" in capsys.readouterr().err
