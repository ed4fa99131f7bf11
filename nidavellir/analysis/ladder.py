"""A strength ladder: seat-rotated games between bots, with common deals per pairing.

For every ordered pair of bots (X, Y), X plays against ``players - 1`` copies of Y. The
deals are common: deal ``j`` has the same seed in every pairing, and each deal is played
``players`` times with X in every seat in turn (seat rotation), so luck of the deal and of
the seat cancels out. ``games`` is the number of games per ordered pairing (rounded up to
a multiple of ``players``).

Per bot the summary gives its win share as the lone bot at the table (parity is
``1 / players``) with a 95% Wilson interval, its mean margin over the best opponent, an
Elo-style rating (Bradley–Terry over every pairwise result between different bots at one
table, 400-point logistic scale, the first bot listed anchored at 0) with a 95% bootstrap
interval, and the seconds it spent per decision. Each row is one seat of one game, like
:func:`nidavellir.analysis.simulate.simulate`; a game replays alone with
``play_ladder_game`` from its row (exactly, for bots with an iteration budget).

>>> result = ladder(["random", "greedy"], players=2, games=2, seed=1, progress=False)
>>> sorted(result.summary["bot"])
['greedy', 'random']
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import cards as C
from ..bots import derive_seed, make_bot, parse_bot_spec
from ..game import Game
from ..i18n import _, count, number, percent, with_sign
from ..stats import wilson
from .runner import Backend, check_workers, run_tasks
from .simulate import (
    add_backend_arguments,
    check_games_players,
    seconds_per_game,
    writable_output,
    write,
)

if TYPE_CHECKING:
    import pandas as pd

COLUMNS: tuple[str, ...] = (
    "game", "pairing", "lone", "field", "deal", "seed", "seat", "bot", "total", "margin",
    "rank", "winner", "win_share", "decisions", "seconds",
)
SUMMARY_COLUMNS: tuple[str, ...] = (
    "bot", "games", "win_share", "win_low", "win_high", "parity", "mean_margin", "elo",
    "elo_low", "elo_high", "seconds_per_decision",
)
EXIT_BAD_INPUT = 2
BOOTSTRAP = 200

Task = tuple[int, int, str, str, int, int, tuple[str, ...], tuple[str, ...]]


@dataclass
class LadderResult:
    rows: pd.DataFrame
    """One row per seat per game (:data:`COLUMNS`)."""
    summary: pd.DataFrame
    """One row per bot (:data:`SUMMARY_COLUMNS`), strongest first."""

    def to_text(self) -> str:
        """The summary as a table in the reader's language: each bot's games, win share and
        Elo with their 95% intervals, parity, margin and thinking time."""
        # Translators: the columns of `nidavellir ladder`'s table (CI: confidence interval).
        head = [_("bot"), _("games"), _("win share (95% CI)"), _("parity"), _("margin"),
                _("Elo (95% CI)"), _("s/decision")]
        rows = [head]
        for r in self.summary.itertuples():
            # Translators: a figure with its 95% confidence interval in `nidavellir
            # ladder`'s table: "43.2% (40.1% to 46.0%)".
            interval = _("{value} ({low} to {high})")
            rows.append([
                str(r.bot), number(r.games),
                interval.format(value=percent(r.win_share, 1), low=percent(r.win_low, 1),
                                high=percent(r.win_high, 1)),
                percent(r.parity, 1), with_sign(r.mean_margin, 1),
                interval.format(value=number(r.elo), low=number(r.elo_low),
                                high=number(r.elo_high)),
                number(r.seconds_per_decision, 4)])
        widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
        # The bots' names left, the figures right, whatever the language's words' lengths.
        return "\n".join("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                                   for i, (cell, w) in enumerate(zip(row, widths, strict=True)))
                         .rstrip() for row in rows)


def play_ladder_game(task: Task) -> list[dict[str, Any]]:
    """Play one ladder game; a row per seat (also the way to replay a row's game)."""
    index, pairing, lone, field, deal, seed, seats, expansions = task
    players = len(seats)
    bots = [make_bot(spec, derive_seed(seed, "seat", i)) for i, spec in enumerate(seats)]
    game = Game.new(players=players, seed=seed, expansions=expansions)
    spent = [0.0] * players
    decisions = [0] * players
    while True:
        seat = game.to_play
        if seat is None:
            break
        start = time.perf_counter()
        action = bots[seat].choose(game)
        spent[seat] += time.perf_counter() - start
        decisions[seat] += 1
        game.apply_fast(action)
    sheet = game.scores()
    totals = sheet.totals
    best = max(totals)
    tied = totals.count(best)
    rows = []
    for s, p in enumerate(sheet.players):
        other = max(t for i, t in enumerate(totals) if i != s)
        rows.append({
            "game": index, "pairing": pairing, "lone": lone, "field": field, "deal": deal,
            "seed": seed, "seat": s, "bot": seats[s], "total": p.total,
            "margin": p.total - other, "rank": p.rank, "winner": p.rank == 1,
            "win_share": 1.0 / tied if p.total == best else 0.0,
            "decisions": decisions[s], "seconds": spent[s],
        })
    return rows


def ladder_tasks(bots: Sequence[str], players: int, games: int, seed: int,
                 expansions: Sequence[str] = ()) -> list[Task]:
    deals = math.ceil(games / players)
    tasks: list[Task] = []
    pairing = 0
    index = 0
    for lone in bots:
        for field in bots:
            if lone == field:
                continue
            for deal in range(deals):
                deal_seed = derive_seed(seed, "deal", deal)
                for seat in range(players):
                    seats = tuple(lone if s == seat else field for s in range(players))
                    tasks.append((index, pairing, lone, field, deal, deal_seed, seats,
                                  tuple(expansions)))
                    index += 1
            pairing += 1
    return tasks


def check_bots(bots: Sequence[str] | str) -> list[str]:
    names = [b.strip().lower() for b in (bots.split(",") if isinstance(bots, str) else bots)
             if b and b.strip()]
    for b in names:
        parse_bot_spec(b)
    if len(names) < 2:
        raise ValueError(_("a ladder needs at least 2 different bots, got {names}").format(
            names=names))
    if len(set(names)) != len(names):
        raise ValueError(_("each bot is named once, got {names}").format(names=names))
    return names


def ladder(bots: Sequence[str] | str, players: int = 3, games: int = 30, seed: int = 0,
           workers: int = 1, expansions: Sequence[str] = (), progress: bool = True,
           scheduler: str | None = None, dask: int | None = None,
           backend: Backend | None = None) -> LadderResult:
    """Play the ladder (see the module docs) and summarise it, on ``workers`` local
    processes, an existing Dask cluster (``scheduler``) or a local one (``dask=N``)."""
    import pandas as pd

    names = check_bots(bots)
    if not isinstance(players, int) or isinstance(players, bool) or players not in C.PLAYER_COUNTS:
        raise ValueError(_("Nidavellir is played by 2 to 5 players, not {players}").format(
            players=repr(players)))
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise ValueError(_("the number of games per pairing must be at least 1, not "
                           "{value}").format(value=repr(games)))
    check_workers(workers)
    expansions = tuple(e.strip().lower() for e in expansions if e.strip())
    Game.new(players=players, seed=seed, expansions=expansions)  # the engine's own checks
    tasks = ladder_tasks(names, players, games, seed, expansions)
    backend = backend or Backend(workers=workers, scheduler=scheduler, dask=dask)
    cost = max(seconds_per_game([b], players) for b in names)
    rows: list[dict[str, Any]] = []
    for game_rows in run_tasks(play_ladder_game, tasks, backend=backend, progress=progress,
                               seconds_per_task=cost):
        rows.extend(game_rows)
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    return LadderResult(rows=frame, summary=summarise(frame, names, players, seed))


# ---------------------------------------------------------------------- statistics

def pairwise(frame: pd.DataFrame) -> list[tuple[int, str, str, float]]:
    """(game, bot a, bot b, a's result) for every pair of seats with different bots."""
    out = []
    for game, seats in frame.groupby("game", sort=True):
        bots = seats["bot"].tolist()
        totals = seats["total"].tolist()
        for i in range(len(bots)):
            for j in range(i + 1, len(bots)):
                if bots[i] != bots[j]:
                    result = 1.0 if totals[i] > totals[j] else 0.5 if totals[i] == totals[j] else 0.0
                    out.append((int(game), bots[i], bots[j], result))  # type: ignore[call-overload]
    return out


def bradley_terry(results: Sequence[tuple[int, str, str, float]], names: Sequence[str],
                  iterations: int = 200) -> dict[str, float]:
    """Elo-scale ratings (first name anchored at 0) from pairwise results (MM algorithm,
    with one virtual draw per pair so that unbeaten bots stay finite)."""
    wins = {(a, b): 0.5 for a in names for b in names if a != b}
    for _game, a, b, r in results:
        wins[(a, b)] += r
        wins[(b, a)] += 1.0 - r
    strength = dict.fromkeys(names, 1.0)
    for _round in range(iterations):
        new = {}
        for a in names:
            won = sum(wins[(a, b)] for b in names if b != a)
            denom = sum((wins[(a, b)] + wins[(b, a)]) / (strength[a] + strength[b])
                        for b in names if b != a)
            new[a] = won / denom if denom else strength[a]
        # Normalise to keep the numbers in range.
        g = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        strength = {k: v / g for k, v in new.items()}
    anchor = strength[names[0]]
    return {k: 400.0 * math.log10(v / anchor) for k, v in strength.items()}


def summarise(frame: pd.DataFrame, names: Sequence[str], players: int, seed: int = 0
              ) -> pd.DataFrame:
    import random

    import pandas as pd

    results = pairwise(frame)
    elo = bradley_terry(results, names)
    games = sorted({r[0] for r in results})
    by_game: dict[int, list[tuple[int, str, str, float]]] = {}
    for r in results:
        by_game.setdefault(r[0], []).append(r)
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {n: [] for n in names}
    for _sample in range(BOOTSTRAP if games else 0):
        pick = [by_game[rng.choice(games)] for _ in games]
        sample = bradley_terry([r for g in pick for r in g], names, iterations=60)
        for n in names:
            samples[n].append(sample[n])
    rows = []
    for n in names:
        lone = frame[(frame["lone"] == n) & (frame["bot"] == n)]
        mine = frame[frame["bot"] == n]
        wins = float(lone["win_share"].sum())
        low, high = wilson(wins, len(lone))
        boot = sorted(samples[n])
        elo_low = boot[int(0.025 * len(boot))] if boot else elo[n]
        elo_high = boot[min(len(boot) - 1, int(0.975 * len(boot)))] if boot else elo[n]
        decisions = int(mine["decisions"].sum())
        rows.append({
            "bot": n, "games": len(lone),
            "win_share": wins / len(lone) if len(lone) else 0.0,
            "win_low": low, "win_high": high, "parity": 1.0 / players,
            "mean_margin": float(lone["margin"].mean()) if len(lone) else 0.0,
            "elo": elo[n], "elo_low": elo_low, "elo_high": elo_high,
            "seconds_per_decision": float(mine["seconds"].sum()) / decisions if decisions else 0.0,
        })
    out = pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS))
    return out.sort_values("elo", ascending=False, kind="stable").reset_index(drop=True)


# ---------------------------------------------------------------------- command line

def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bots", required=True, metavar="BOT,BOT[,...]",
                        help=_("the bots to rank: names or levels, a search bot with its budget "
                               "as NAME@0.5s or NAME@400 (iterations)"))
    parser.add_argument("--players", type=int, default=3, metavar="P",
                        help=_("players per game, 2-5 (default 3)"))
    parser.add_argument("--games", type=int, default=30, metavar="N",
                        help=_("games per ordered pairing, rounded up to a multiple of P "
                               "(default 30)"))
    parser.add_argument("--seed", type=int, default=0, help=_("master seed (default 0)"))
    add_backend_arguments(parser)
    parser.add_argument("--expansions", default="", metavar="NAME[,NAME...]",
                        help=_("expansions to play with (thingvellir)"))
    parser.add_argument("--out", metavar="FILE", help=_("also write the rows: FILE.csv or FILE.parquet"))
    parser.add_argument("--no-progress", action="store_true", help=_("no progress bar"))


def run(args: argparse.Namespace) -> int:
    """``nidavellir ladder --bots A,B[,...] [--players P] [--games N] [--seed S]
    [--workers W] [--expansions thingvellir] [--out FILE]``."""
    try:
        backend = check_games_players(args)
        try:
            names = check_bots(args.bots)
        except ValueError as exc:
            raise ValueError(_("{option}: {problem}").format(option="--bots",
                                                             problem=exc)) from None
        out: Path | None = None
        if args.out:
            out = writable_output(args.out)
        expansions = [e.strip() for e in args.expansions.split(",") if e.strip()]
        result = ladder(names, players=args.players, games=args.games, seed=args.seed,
                        expansions=expansions, progress=not args.no_progress, backend=backend)
        if out is not None:
            write(result.rows, out)
    except ValueError as exc:
        print(_("error: {problem}").format(problem=exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    per = len(result.rows) // args.players
    # Translators: `nidavellir ladder`: the games played, before its table.
    print(count(per, "{n} game of {players} players.", "{n} games of {players} players.",
                players=args.players))
    if out is not None:
        # Translators: `nidavellir ladder --out FILE`.
        print(_("Rows written to {out}.").format(out=out))
    print()
    print(result.to_text())
    return 0
