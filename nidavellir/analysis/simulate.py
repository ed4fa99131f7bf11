"""Many seeded games with bots, in parallel, as one tidy DataFrame.

>>> df = simulate(games=2, players=3, bots=["greedy", "random"], seed=1, progress=False)
Traceback (most recent call last):
...
ValueError: 3 players need 1 or 3 bots, got 2
>>> df = simulate(games=2, players=3, bots="random", seed=1, progress=False)
>>> len(df), df["game"].tolist()
(6, [0, 0, 0, 1, 1, 1])

One row per player per game. Game ``i`` is played with its own seed, derived from the
master seed and ``i`` only, so the rows are the same whatever ``workers`` is and a
single game can be replayed alone with ``play_game(players, bots, seed=row.seed)``.

The score category columns are named exactly as :data:`nidavellir.scoring.CATEGORIES`
(``heroes`` is the neutral heroes' points), so ``heroes_recruited`` holds the hero
tokens, semicolon-joined in the order of recruitment.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import cards as C
from .. import coins as K
from .. import events as ev
from ..bots import BOTS, SEARCH_BOTS, derive_seed, parse_bot_spec, play_game
from ..cards import SUITS
from ..game import Game
from ..i18n import _, count, number
from ..scoring import CATEGORIES
from .runner import CONNECT_TIMEOUT, Backend, chunk_size, chunked, run_chunks, run_tasks

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["COLUMNS", "game_seed", "main", "play_rows", "read", "run", "seat_bots", "simulate",
           "write"]

#: The columns of :func:`simulate`'s DataFrame, in order.
COLUMNS: tuple[str, ...] = (
    "game", "seed", "seat", "bot", "name", "total", *CATEGORIES, "rank", "heroes_recruited",
    "final_coins", "coin_sum", "winner", "highest_coin", "distinctions", "exchange_bids",
    "bids", *(f"age1_{s.letter}" for s in SUITS),
)
FORMATS = (".csv", ".parquet")
EXIT_BAD_INPUT = 2


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a simulation with master seed ``seed``."""
    return derive_seed(seed, "game", index)


def seat_bots(players: int, bots: str | Sequence[str]) -> tuple[str, ...]:
    """Validate the player count and bot names: one name for every seat, or one per seat."""
    if not isinstance(players, int) or isinstance(players, bool) or players not in C.PLAYER_COUNTS:
        # Translators: an error of simulate and ladder; {players} is what was given.
        raise ValueError(_("Nidavellir is played by 2 to 5 players, not {players}").format(
            players=repr(players)))
    names = [bots] if isinstance(bots, str) else list(bots)
    names = [str(b).strip().lower() for b in names]
    for b in names:
        parse_bot_spec(b)  # a name, or a search bot with its budget (search@400)
    if len(names) not in (1, players):
        raise ValueError(_("{players} players need 1 or {players} bots, got {n}").format(
            players=players, n=len(names)))
    return tuple(names * players if len(names) == 1 else names)


def check_output(path: str | Path) -> Path:
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise ValueError(_("cannot write {path}: the output must end in .csv or .parquet"
                           ).format(path=repr(str(path))))
    return path


def writable_output(path: str | Path) -> Path:
    """A .csv / .parquet path whose folder exists."""
    out = check_output(path)
    if not out.parent.is_dir():
        # Translators: {path} and {folder} are paths as typed.
        raise ValueError(_("cannot write {path}: no directory {folder}").format(
            path=repr(str(out)), folder=repr(str(out.parent))))
    return out


def check_games_players(args: argparse.Namespace) -> Backend:
    """--games, --players and the backend's arguments (simulate and ladder)."""
    if args.games < 1:
        # Translators: {option} is an option as typed (--games, --chunk).
        raise ValueError(_("{option} must be at least 1, not {value}").format(
            option="--games", value=args.games))
    backend = backend_from(args)
    if args.players not in C.PLAYER_COUNTS:
        raise ValueError(_("{option} must be 2 to 5, not {value}").format(
            option="--players", value=args.players))
    return backend


def play_rows(index: int, seed: int, players: int, bots: tuple[str, ...],
              expansions: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Play game ``index`` (its own seed ``seed``) and return its rows."""
    age1: list[list[int]] = []

    def snapshot(g: Game) -> None:
        # The ranks per class once age 1 is over (distinctions included).
        if not age1 and g.state.age == 2:
            age1.extend(list(p.ranks) for p in g.state.players)

    game = play_game(players, list(bots), seed=seed, expansions=expansions, observe=snapshot)
    sheet = game.scores()
    heroes: list[list[str]] = [[] for _ in range(players)]
    distinctions: list[list[str]] = [[] for _ in range(players)]
    exchange = [0] * players
    bids = [0] * players
    for e in game.events:
        if isinstance(e, ev.HeroRecruited):
            heroes[e.player].append(e.hero.token)
        elif isinstance(e, ev.DistinctionAwarded) and e.player is not None:
            distinctions[e.player].append(e.distinction.token)
        elif isinstance(e, ev.BidsRevealed):
            for who, label in e.bids:
                bids[who] += 1
                exchange[who] += K.is_exchange_label(label)
    rows = []
    for seat, (p, score) in enumerate(zip(game.state.players, sheet.players, strict=True)):
        coins = sorted(p.coins())
        row: dict[str, Any] = {
            "game": index, "seed": seed, "seat": seat, "bot": bots[seat], "name": score.name,
            "total": score.total,
        }
        row.update({cat: score.breakdown[cat] for cat in CATEGORIES})
        row.update({
            "rank": score.rank, "heroes_recruited": ";".join(heroes[seat]),
            "final_coins": K.labels(coins), "coin_sum": sum(K.value(c) for c in coins),
            "winner": score.rank == 1,
            "highest_coin": max((K.value(c) for c in coins), default=0),
            "distinctions": ";".join(distinctions[seat]),
            "exchange_bids": exchange[seat], "bids": bids[seat],
        })
        ranks = age1[seat] if age1 else [0] * len(SUITS)
        row.update({f"age1_{s.letter}": ranks[i] for i, s in enumerate(SUITS)})
        rows.append(row)
    return rows


Task = tuple[int, int, int, tuple[str, ...], tuple[str, ...]]


def _play_task(task: Task) -> list[dict[str, Any]]:
    return play_rows(*task)


def seconds_per_game(bots: Sequence[str], players: int) -> float:
    """A rough cost of one game, to size the chunks (about :data:`runner.CHUNK_SECONDS` of
    work each)."""
    cost = 0.003 * players
    for b in bots:
        name, options = parse_bot_spec(b)
        if name in ("greedy", "medium"):
            cost += 0.05
        elif name in SEARCH_BOTS:
            seconds = options.get("seconds")
            if seconds is None:
                seconds = 0.01 * options["iterations"] if "iterations" in options else 1.0
            cost += 40 * float(seconds)
    return cost


def _tasks(games: int, players: int, bots: str | Sequence[str], seed: int, workers: int,
           expansions: Sequence[str]) -> tuple[list[Task], tuple[str, ...], tuple[str, ...]]:
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise ValueError(_("the number of games must be at least 1, not {value}").format(
            value=repr(games)))
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(_("workers must be at least 1, not {value}").format(
            value=repr(workers)))
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(_("the seed must be a whole number, not {value}").format(
            value=repr(seed)))
    seats = seat_bots(players, bots)
    exp = tuple(e.lower() for e in expansions)
    if exp:
        # Fail now with the engine's own message rather than in every worker.
        from ..game import Game
        Game.new(players=players, seed=seed, expansions=exp)
    return [(i, game_seed(seed, i), players, seats, exp) for i in range(games)], seats, exp


def simulate(games: int, players: int, bots: str | Sequence[str], seed: int = 0,
             workers: int = 1, expansions: Sequence[str] = (),
             progress: bool = True, scheduler: str | None = None, dask: int | None = None,
             chunk: int | None = None, backend: Backend | None = None) -> pd.DataFrame:
    """Play ``games`` seeded games with ``bots`` (one name for all seats, or one per
    seat) and return one row per player per game (columns: :data:`COLUMNS`).

    ``workers`` > 1 plays in a local process pool; ``scheduler="tcp://host:port"`` on an
    existing Dask cluster, ``dask=N`` on a local Dask cluster of N workers. ``chunk`` games
    go in one task (default: a few seconds of work). The rows depend on none of these. A
    tqdm progress bar shows on a terminal unless ``progress`` is False.
    """
    import pandas as pd

    tasks, seats, _size = _tasks(games, players, bots, seed, workers, expansions)
    backend = backend or Backend(workers=workers, scheduler=scheduler, dask=dask)
    rows: list[dict[str, Any]] = []
    for game_rows in run_tasks(_play_task, tasks, backend=backend, progress=progress,
                               size=chunk, seconds_per_task=seconds_per_game(seats, players)):
        rows.extend(game_rows)
    return pd.DataFrame(rows, columns=list(COLUMNS))


# --------------------------------------------------------------------------- partitioned output

MANIFEST = "_nidavellir_simulation.json"


def _manifest(games: int, players: int, seats: Sequence[str], seed: int,
              expansions: Sequence[str], size: int) -> dict[str, Any]:
    return {"format": "nidavellir-simulation", "version": 1, "games": games,
            "players": players, "bots": list(seats), "seed": seed,
            "expansions": list(expansions), "chunk": size}


def partition_dir(out: Path, players: int, seats: Sequence[str]) -> Path:
    """Hive-style partitions: ``players=3/bots=greedy-random-random/``."""
    return out / f"players={players}" / f"bots={'-'.join(seats)}"


def check_out_dir(out: Path, manifest: dict[str, Any], resume: bool) -> None:
    """The folder must be new or empty, or (with ``resume``) hold this very run."""
    if out.exists() and not out.is_dir():
        raise ValueError(_("{path} is a file, not a folder").format(path=repr(str(out))))
    if not out.exists():
        if not out.parent.is_dir():
            raise ValueError(_("cannot write {path}: no directory {folder}").format(
                path=repr(str(out)), folder=repr(str(out.parent))))
        return
    entries = [e for e in out.iterdir()]
    if not entries:
        return
    mpath = out / MANIFEST
    if not mpath.is_file():
        # Translators: {manifest} is a file's name (manifest.json).
        raise ValueError(_("{path} holds other data (no {manifest}): choose an empty or new "
                           "folder").format(path=repr(str(out)), manifest=MANIFEST))
    try:
        found = json.loads(mpath.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise ValueError(_("{path} is unreadable: choose an empty or new folder").format(
            path=repr(str(mpath)))) from None
    mine = {k: v for k, v in manifest.items() if k != "chunk"}
    theirs = {k: v for k, v in found.items() if k != "chunk"} if isinstance(found, dict) else {}
    if mine != theirs:
        # Translators: {theirs} is the other simulation's settings (data).
        raise ValueError(_("{path} holds another simulation ({theirs}): choose an empty or "
                           "new folder").format(path=repr(str(out)), theirs=theirs))
    if not resume:
        raise ValueError(_("{path} already holds this simulation: add {option} to write only "
                           "the chunks that are missing, or choose a new folder").format(
            path=repr(str(out)), option="--resume"))
    chunk = found.get("chunk")
    if not isinstance(chunk, int) or isinstance(chunk, bool) or chunk < 1:
        raise ValueError(_("{path} is damaged (chunk {chunk}): choose a new folder").format(
            path=repr(str(mpath)), chunk=repr(chunk)))
    manifest["chunk"] = chunk


def simulate_to_dir(out: str | Path, games: int, players: int, bots: str | Sequence[str],
                    seed: int = 0, workers: int = 1, expansions: Sequence[str] = (),
                    progress: bool = True, scheduler: str | None = None,
                    dask: int | None = None, chunk: int | None = None,
                    resume: bool = False, backend: Backend | None = None) -> dict[str, Any]:
    """Play the games and write one Parquet file per chunk under ``out/players=P/bots=B/``
    (written atomically: an interrupted run leaves only complete files). ``resume`` skips
    the chunks already written by the same run. The rows never sit in memory all at once;
    ``pandas.read_parquet(out)`` or ``dask.dataframe.read_parquet(out)`` reads them back.
    Returns a summary: games, chunks written and skipped, wins and mean total per bot."""
    import pandas as pd

    out = Path(out)
    tasks, seats, exp = _tasks(games, players, bots, seed, workers, expansions)
    backend = backend or Backend(workers=workers, scheduler=scheduler, dask=dask)
    size = chunk or chunk_size(len(tasks), seconds_per_game(seats, players), backend)
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        raise ValueError(_("the chunk size must be a whole number >= 1, not {value}").format(
            value=repr(size)))
    manifest = _manifest(games, players, seats, seed, exp, size)
    check_out_dir(out, manifest, resume)
    size = manifest["chunk"]
    chunks = chunked(tasks, size)
    part = partition_dir(out, players, seats)

    def path(i: int) -> Path:
        return part / f"part-{i:06d}.parquet"

    def prepare() -> None:
        # Only once the backend is up: an unreachable cluster writes nothing.
        part.mkdir(parents=True, exist_ok=True)
        (out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        for stale in part.glob(".part-*.tmp"):
            stale.unlink()

    skipped = [i for i in range(len(chunks)) if path(i).is_file()]
    written = 0
    wins: dict[str, int] = {}
    totals: dict[str, list[float]] = {}
    for i, results in run_chunks(_play_task, chunks, backend, progress=progress,
                                 skip=lambda i: path(i).is_file(), ready=prepare):
        rows = [r for game_rows in results for r in game_rows]
        frame = pd.DataFrame(rows, columns=list(COLUMNS))
        tmp = part / f".part-{i:06d}.tmp"
        try:
            frame.to_parquet(tmp, index=False)
            os.replace(tmp, path(i))
        finally:
            if tmp.exists():
                tmp.unlink()
        written += 1
        for r in rows:
            wins[r["bot"]] = wins.get(r["bot"], 0) + int(r["winner"])
            acc = totals.setdefault(r["bot"], [0.0, 0.0])
            acc[0] += r["total"]
            acc[1] += 1
    return {"out": str(out), "games": games, "chunks": len(chunks), "written": written,
            "skipped": len(skipped), "chunk": size,
            "wins": wins, "mean_total": {b: t / n for b, (t, n) in totals.items() if n}}


def read_dir(out: str | Path) -> pd.DataFrame:
    """Every row of a simulation folder, sorted by game and seat (partition columns
    ``players`` and ``bots`` included)."""
    import pandas as pd

    frame = pd.read_parquet(Path(out))
    return frame.sort_values(["game", "seat"], kind="stable").reset_index(drop=True)


def write(df: pd.DataFrame, path: str | Path) -> Path:
    """Write the rows as CSV or Parquet, by the file's extension."""
    path = check_output(path)
    if path.suffix.lower() == ".csv":
        df.to_csv(path, index=False)
    else:
        df.to_parquet(path, index=False)
    return path


def read(path: str | Path) -> pd.DataFrame:
    """Read rows written by :func:`write` back with the same columns and types."""
    import pandas as pd

    path = check_output(path)
    if path.suffix.lower() == ".csv":
        # Empty hero lists must stay "" (not NaN); coin labels stay text.
        return pd.read_csv(path, keep_default_na=False,
                           dtype={"heroes_recruited": str, "final_coins": str, "name": str,
                                  "bot": str, "distinctions": str})
    return pd.read_parquet(path)


# --------------------------------------------------------------------------- command line

def add_backend_arguments(parser: argparse.ArgumentParser, workers: int = 1,
                          workers_help: str = "1") -> None:
    """--workers, --scheduler and --dask: the same for simulate, ladder and review
    (``workers_help``: the default in words, already in the reader's language)."""
    parser.add_argument("--workers", type=int, default=workers, metavar="W",
                        help=_("local processes (default {workers}; the rows do not depend "
                               "on it)").format(workers=workers_help))
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help=_("run on an existing Dask cluster, e.g. tcp://10.0.0.5:8786"))
    parser.add_argument("--dask", type=int, metavar="N",
                        help=_("run on a local Dask cluster of N worker processes"))
    parser.add_argument("--connect-timeout", type=float, default=CONNECT_TIMEOUT,
                        metavar="SECONDS",
                        help=_("how long to try to reach --scheduler (default {seconds})")
                        .format(seconds=f"{CONNECT_TIMEOUT:g}"))


def backend_from(args: argparse.Namespace) -> Backend:
    if args.workers < 1:
        raise ValueError(_("{option} must be at least 1, not {value}").format(
            option="--workers", value=args.workers))
    if args.dask is not None and args.dask < 1:
        raise ValueError(_("{option} needs a number of workers >= 1, not {value}").format(
            option="--dask", value=args.dask))
    if args.scheduler is not None and args.dask is not None:
        raise ValueError(_("give {one} or {other}, not both").format(one="--scheduler",
                                                                     other="--dask"))
    if not args.connect_timeout > 0:
        raise ValueError(_("{option} must be positive, not {value}").format(
            option="--connect-timeout", value=args.connect_timeout))
    return Backend(workers=args.workers, scheduler=args.scheduler, dask=args.dask,
                   timeout=args.connect_timeout)


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``nidavellir simulate`` (checked by :func:`run`, which gives one
    ``error: ...`` line and exit code 2 on bad input)."""
    parser.add_argument("--games", type=int, default=100, metavar="N",
                        help=_("number of games (default 100)"))
    parser.add_argument("--players", type=int, default=3, metavar="P",
                        help=_("players per game, 2-5 (default 3)"))
    parser.add_argument("--bots", default="random", metavar="BOT[,BOT...]",
                        help=_("one bot for every seat or one per seat, from: {bots}; a search "
                               "bot may carry its budget, e.g. search@0.5s (default random)")
                        .format(bots=", ".join(BOTS)))
    parser.add_argument("--seed", type=int, default=0, help=_("master seed (default 0)"))
    add_backend_arguments(parser)
    parser.add_argument("--out", required=True, metavar="FILE|DIR/",
                        help=_("where to write the rows: FILE.csv, FILE.parquet, or a folder "
                               "(DIR/) of partitioned Parquet, one file per chunk"))
    parser.add_argument("--resume", action="store_true",
                        help=_("with --out DIR/: write only the chunks a stopped run is missing"))
    parser.add_argument("--chunk", type=int, metavar="G",
                        help=_("games per task (default: a few seconds of work)"))
    parser.add_argument("--expansions", default="", metavar="NAME[,NAME...]",
                        help=_("expansions to play with (thingvellir)"))
    parser.add_argument("--no-progress", action="store_true", help=_("no progress bar"))


def _is_dir_target(out: str) -> bool:
    return out.endswith(("/", os.sep)) or Path(out).is_dir()


def run(args: argparse.Namespace) -> int:
    """``nidavellir simulate --games N --players P --bots B[,B...] --seed S
    [--workers W | --scheduler ADDRESS | --dask N] --out FILE.csv|.parquet|DIR/ [--resume]
    [--chunk G] [--expansions thingvellir]``."""
    try:
        backend = check_games_players(args)
        if args.chunk is not None and args.chunk < 1:
            raise ValueError(_("{option} must be at least 1, not {value}").format(
                option="--chunk", value=args.chunk))
        bots = [b for b in args.bots.split(",") if b.strip()]
        try:
            seat_bots(args.players, bots)
        except ValueError as exc:
            raise ValueError(_("{option}: {problem}").format(option="--bots",
                                                             problem=exc)) from None
        expansions = [e.strip() for e in args.expansions.split(",") if e.strip()]
        if _is_dir_target(args.out):
            summary = simulate_to_dir(args.out, args.games, args.players, bots, seed=args.seed,
                                      expansions=expansions, progress=not args.no_progress,
                                      chunk=args.chunk, resume=args.resume, backend=backend)
            # Translators: `nidavellir simulate --out DIR/`: what the run did (its chunks are
            # files of {chunk} games each; {written}: the chunks written now).
            print(count(args.games, "{n} game in chunks of {chunk} (chunks: {chunks}; "
                        "written now: {written}; already there: {skipped}), in {out}.",
                        "{n} games in chunks of {chunk} (chunks: {chunks}; written now: "
                        "{written}; already there: {skipped}), in {out}.",
                        chunks=number(summary["chunks"]), chunk=number(summary["chunk"]),
                        written=number(summary["written"]),
                        skipped=number(summary["skipped"]), out=args.out))
            means = summary["mean_total"]
            print(_bot_lines({b: (means[b], summary["wins"].get(b, 0)) for b in sorted(means)}))
            return 0
        if args.resume:
            raise ValueError(_("{option} needs a folder: {example}").format(
                option="--resume", example="--out DIR/"))
        out = writable_output(args.out)
        df = simulate(args.games, args.players, bots, seed=args.seed, expansions=expansions,
                      progress=not args.no_progress, chunk=args.chunk, backend=backend)
        write(df, out)
    except ValueError as exc:
        print(_("error: {problem}").format(problem=exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    winners = df[df["winner"]].groupby("bot").size()
    means = df.groupby("bot")["total"].mean()
    # Translators: `nidavellir simulate --out FILE`: what was written.
    print(count(args.games, "{n} game played, {rows} rows written to {out}.",
                "{n} games played, {rows} rows written to {out}.",
                rows=number(len(df)), out=out))
    print(_bot_lines({b: (means[b], int(winners.get(b, 0))) for b in means.index}))
    return 0


def _bot_lines(results: dict[str, tuple[float, int]]) -> str:
    """Each bot's wins and mean total, a line each (the bots' names are notation)."""
    # Translators: `nidavellir simulate`: a bot's results, one line each ({bot}: its name
    # as typed, "greedy", "search@200"; {mean}: its mean total, e.g. "152.3").
    return "\n".join("  " + count(wins, "{bot}: {n} win, a mean total of {mean} points",
                                   "{bot}: {n} wins, a mean total of {mean} points",
                                   bot=bot, mean=number(mean, 1))
                     for bot, (mean, wins) in results.items())


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m nidavellir.analysis.simulate ...``: the same as ``nidavellir simulate``."""
    parser = argparse.ArgumentParser(prog="nidavellir simulate",
                                     description="play many seeded games with bots")
    configure_parser(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

