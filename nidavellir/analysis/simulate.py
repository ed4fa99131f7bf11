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
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import coins as K
from .. import events as ev
from ..bots import BOTS, derive_seed, parse_bot_spec, play_game
from ..scoring import CATEGORIES
from .runner import run_tasks

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["COLUMNS", "game_seed", "main", "play_rows", "read", "run", "seat_bots", "simulate",
           "write"]

#: The columns of :func:`simulate`'s DataFrame, in order.
COLUMNS: tuple[str, ...] = (
    "game", "seed", "seat", "bot", "name", "total", *CATEGORIES, "rank", "heroes_recruited",
    "final_coins", "coin_sum", "winner",
)
FORMATS = (".csv", ".parquet")
EXIT_BAD_INPUT = 2


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a simulation with master seed ``seed``."""
    return derive_seed(seed, "game", index)


def seat_bots(players: int, bots: str | Sequence[str]) -> tuple[str, ...]:
    """Validate the player count and bot names: one name for every seat, or one per seat."""
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 5:
        raise ValueError(f"Nidavellir is played by 2 to 5 players, not {players!r}")
    names = [bots] if isinstance(bots, str) else list(bots)
    names = [str(b).strip().lower() for b in names]
    for b in names:
        parse_bot_spec(b)  # a name, or a search bot with its budget (search@400)
    if len(names) not in (1, players):
        raise ValueError(f"{players} players need 1 or {players} bots, got {len(names)}")
    return tuple(names * players if len(names) == 1 else names)


def check_output(path: str | Path) -> Path:
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise ValueError(f"cannot write {str(path)!r}: the output must end in .csv or .parquet")
    return path


def play_rows(index: int, seed: int, players: int, bots: tuple[str, ...],
              expansions: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Play game ``index`` (its own seed ``seed``) and return its rows."""
    game = play_game(players, list(bots), seed=seed, expansions=expansions)
    sheet = game.scores()
    heroes: list[list[str]] = [[] for _ in range(players)]
    for e in game.events:
        if isinstance(e, ev.HeroRecruited):
            heroes[e.player].append(e.hero.token)
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
        })
        rows.append(row)
    return rows


def _play_task(task: tuple[int, int, int, tuple[str, ...], tuple[str, ...]]) -> list[dict[str, Any]]:
    return play_rows(*task)


def simulate(games: int, players: int, bots: str | Sequence[str], seed: int = 0,
             workers: int = 1, expansions: Sequence[str] = (),
             progress: bool = True) -> pd.DataFrame:
    """Play ``games`` seeded games with ``bots`` (one name for all seats, or one per
    seat) and return one row per player per game (columns: :data:`COLUMNS`).

    ``workers`` > 1 plays in a local process pool; the rows do not depend on it. A
    tqdm progress bar shows on a terminal unless ``progress`` is False.
    """
    import pandas as pd

    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise ValueError(f"the number of games must be at least 1, not {games!r}")
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers!r}")
    seats = seat_bots(players, bots)
    expansions = tuple(e.lower() for e in expansions)
    if expansions:
        # Fail now with the engine's own message rather than in every worker.
        from ..game import Game
        Game.new(players=players, seed=seed, expansions=expansions)
    tasks = [(i, game_seed(seed, i), players, seats, expansions) for i in range(games)]
    rows: list[dict[str, Any]] = []
    for game_rows in run_tasks(_play_task, tasks, workers=workers, progress=progress):
        rows.extend(game_rows)
    return pd.DataFrame(rows, columns=list(COLUMNS))


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
                           dtype={"heroes_recruited": str, "final_coins": str, "name": str, "bot": str})
    return pd.read_parquet(path)


# --------------------------------------------------------------------------- command line

def configure_parser(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``nidavellir simulate`` (checked by :func:`run`, which gives one
    ``error: ...`` line and exit code 2 on bad input)."""
    parser.add_argument("--games", type=int, default=100, metavar="N",
                        help="number of games (default 100)")
    parser.add_argument("--players", type=int, default=3, metavar="P",
                        help="players per game, 2-5 (default 3)")
    parser.add_argument("--bots", default="random", metavar="BOT[,BOT...]",
                        help=f"one bot for every seat or one per seat, from: {', '.join(BOTS)} "
                             "(default random)")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument("--workers", type=int, default=1, metavar="W",
                        help="processes (default 1; the rows do not depend on it)")
    parser.add_argument("--out", required=True, metavar="FILE",
                        help="where to write the rows: FILE.csv or FILE.parquet")
    parser.add_argument("--expansions", default="", metavar="NAME[,NAME...]",
                        help="expansions to play with (thingvellir: not in the engine yet)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """``nidavellir simulate --games N --players P --bots B[,B...] --seed S --workers W
    --out FILE.csv|.parquet [--expansions thingvellir]``."""
    try:
        if args.games < 1:
            raise ValueError(f"--games must be at least 1, not {args.games}")
        if args.workers < 1:
            raise ValueError(f"--workers must be at least 1, not {args.workers}")
        if not 2 <= args.players <= 5:
            raise ValueError(f"--players must be 2 to 5, not {args.players}")
        bots = [b for b in args.bots.split(",") if b.strip()]
        try:
            seat_bots(args.players, bots)
        except ValueError as exc:
            raise ValueError(f"--bots: {exc}") from None
        out = check_output(args.out)
        if not out.parent.is_dir():
            raise ValueError(f"cannot write {str(out)!r}: no directory {str(out.parent)!r}")
        expansions = [e.strip() for e in args.expansions.split(",") if e.strip()]
        df = simulate(args.games, args.players, bots, seed=args.seed, workers=args.workers,
                      expansions=expansions, progress=not args.no_progress)
        write(df, out)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    winners = df[df["winner"]].groupby("bot").size()
    means = df.groupby("bot")["total"].mean().round(1)
    summary = ", ".join(f"{b}: mean {means[b]}, {int(winners.get(b, 0))} wins"
                        for b in means.index)
    print(f"{args.games} games, {len(df)} rows written to {out} ({summary})")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m nidavellir.analysis.simulate ...``: the same as ``nidavellir simulate``."""
    parser = argparse.ArgumentParser(prog="nidavellir simulate",
                                     description="play many seeded games with bots")
    configure_parser(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

