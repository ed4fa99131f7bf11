"""Game review: every decision of a game judged by the coach, as a DataFrame.

Each decision is judged by the coach's one judgement (:func:`nidavellir.bots.judge.judge`)
from what the deciding seat could know, never more, with the move played as the selected
move: at the same level the review's better move is the Hint's move at that position (both
seed the judgement from the position as the seat saw it). When the move played is not the
best, the two were played out from the same determinizations, and the difference, less one
standard error of it (what the noise of the playouts could explain is not counted), is what
the move gave up: ``loss_points`` in expected final points, ``loss_win`` in chance to win
(both ≥ 0); ``reason`` says why in words.

Decisions are numbered from 1 (``number``: decision N is ``game.history[N - 1]``) in every
list, the Replay slider and ``nidavellir hint --at N``; ``step`` is the 0-based index.

Labels (Lichess-style, the worse of the two measures decides):

==============  ======================  ==========================
label           points given up         win probability given up
==============  ======================  ==========================
``best``        none: the search's      none
                best move
``good``        < 3                     < 5 %
``inaccuracy``  ≥ 3                     ≥ 5 %
``mistake``     ≥ 6                     ≥ 10 %
``blunder``     ≥ 12                    ≥ 20 %
``forced``      none: one legal         none
                action
==============  ======================  ==========================

>>> from nidavellir.bots import play_game
>>> game = play_game(2, "random", seed=1)
>>> frame = review(game, level="search@4", playouts=4)
>>> list(frame.columns[:9])
['step', 'number', 'age', 'round', 'player', 'name', 'kind', 'played', 'best']
"""

from __future__ import annotations

import argparse
import html
import json
import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..bots.judge import DEFAULT_LEVEL, judge, parse_level
from ..errors import RecordError
from ..game import Game
from ..rules.base import CHOICES
from .runner import Backend, run_tasks

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

#: (label, points given up, win probability given up): the first whose thresholds are met.
THRESHOLDS: tuple[tuple[str, float, float], ...] = (
    ("blunder", 12.0, 0.20),
    ("mistake", 6.0, 0.10),
    ("inaccuracy", 3.0, 0.05),
)
LABELS = ("best", "good", "inaccuracy", "mistake", "blunder", "forced")
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
#: Decision kinds grouped for the summary (each decision class says its group).
KIND_GROUPS: dict[str, str] = {str(kind): cls.group for kind, cls in CHOICES.items()}
#: Paired playouts per verified move (the played move is always verified).
PLAYOUTS = 32
REVIEW_FORMAT = "nidavellir-review"
REVIEW_VERSION = 1

Task = tuple[dict[str, Any], int, str, int, int | None]


def label_for(loss_points: float, loss_win: float) -> str:
    for label, points, win in THRESHOLDS:
        if loss_points >= points or loss_win >= win:
            return label
    return "good"


def _position(record: Mapping[str, Any], index: int) -> tuple[Game, int, str]:
    game = Game.from_record(record)
    player, action = game.history[index]
    game.undo_to(index)
    return game, player, str(action)


def review_decision(task: Task) -> dict[str, Any]:
    """Judge decision ``index`` of a record (module level: runs in worker processes)."""
    record, index, level, playouts, seed = task
    game, _, played = _position(record, index)
    row = judge_move(game, played, level, playouts, seed)
    row["step"] = index
    row["number"] = index + 1
    return row


def judge_move(game: Game, played: str, level: str = DEFAULT_LEVEL, playouts: int = PLAYOUTS,
               seed: int | None = None) -> dict[str, Any]:
    """One review row for the decision on the table of ``game`` and the move ``played``
    (its notation), judged from the deciding seat's knowledge only (``seed`` None: from the
    position as the seat saw it, like the Hint)."""
    decision = game.decision
    if decision is None:
        raise ValueError("there is no decision to judge: the game is over")
    player = decision.player
    s = game.state
    legal = game.legal_actions()
    played_action = game.parse(played)
    if played_action not in legal:
        raise ValueError(f"{played} is not a legal action here")
    played = str(played_action)
    row: dict[str, Any] = {"step": len(game.history), "number": len(game.history) + 1,
                           "age": s.age, "round": s.round, "player": player,
                           "name": game.names[player], "kind": str(decision.kind),
                           "played": played, "options": len(legal), "reason": ""}
    judgement = judge(game, level=level, seed=seed, selected=played_action,
                      verify=playouts if len(legal) > 1 else min(playouts, 4))
    row["best"] = str(judgement.best)
    if len(legal) == 1:
        row.update(loss_points=0.0, loss_win=0.0, label="forced")
    elif judgement.best == played_action:
        row.update(loss_points=0.0, loss_win=0.0, label="best")
    else:
        cmp = judgement.compare(played_action)
        # What the noise of the playouts could explain is not counted as a loss.
        loss_points = max(0.0, cmp.points - cmp.points_se)
        loss_win = max(0.0, cmp.win - cmp.win_se)
        row.update(loss_points=loss_points, loss_win=loss_win,
                   label=label_for(loss_points, loss_win), reason=cmp.text())
    for i in range(game.config.players):
        row[f"win_{i}"] = judgement.win[i]
        row[f"expected_{i}"] = judgement.expected[i]
    return row


def _as_game(game_or_record: Game | Mapping[str, Any]) -> Game:
    if isinstance(game_or_record, Game):
        return game_or_record
    return Game.from_record(game_or_record)


def review(game_or_record: Game | Mapping[str, Any], level: str = DEFAULT_LEVEL,
           workers: int = 1, scheduler: str | None = None, dask: int | None = None,
           playouts: int = PLAYOUTS, seed: int | None = None, progress: bool = False,
           backend: Backend | None = None) -> pd.DataFrame:
    """One row per decision of the game (see the module docs): ``step, number, age, round,
    player, name, kind, played, best, options, loss_points, loss_win, label, reason``, then
    each player's win probability ``win_i`` and expected final score ``expected_i`` before
    the decision. Decisions are judged in parallel on ``workers`` processes or a Dask
    cluster; with ``seed=None`` each position is seeded as the Hint seeds it, and a level
    with an iteration budget gives the same review every time."""
    import pandas as pd

    parse_level(level)
    if not isinstance(playouts, int) or isinstance(playouts, bool) or playouts < 1:
        raise ValueError(f"playouts must be a whole number >= 1, not {playouts!r}")
    game = _as_game(game_or_record)
    record = game.to_record()
    n = game.config.players
    tasks: list[Task] = [(record, i, level, playouts,
                          None if seed is None else seed * 100_003 + i)
                         for i in range(len(game.history))]
    backend = backend or Backend(workers=workers, scheduler=scheduler, dask=dask)
    rows = list(run_tasks(review_decision, tasks, backend=backend, progress=progress,
                          desc="decisions", unit="decision", seconds_per_task=1.0))
    columns = ["step", "number", "age", "round", "player", "name", "kind", "played", "best",
               "options", "loss_points", "loss_win", "label", "reason",
               *(f"win_{i}" for i in range(n)), *(f"expected_{i}" for i in range(n))]
    frame = pd.DataFrame(rows, columns=columns)
    frame.attrs["level"] = level
    frame.attrs["names"] = list(game.names)
    return frame


def summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per player: decisions, share of best moves (forced moves left out), average points
    and win probability lost per decision, counts per label, mistakes (inaccuracies,
    mistakes and blunders) per decision group (bids, picks, heroes, coins, Thingvellir)."""
    import pandas as pd

    out = []
    for (player, name), rows in frame.groupby(["player", "name"], sort=True):
        judged = rows[rows["label"] != "forced"]
        bad = judged[judged["label"].isin(list(SYMBOLS))]
        entry: dict[str, Any] = {
            "player": int(player), "name": name, "decisions": len(rows),
            "judged": len(judged),
            "best_share": float((judged["label"] == "best").mean()) if len(judged) else math.nan,
            "avg_loss_points": float(judged["loss_points"].mean()) if len(judged) else 0.0,
            "avg_loss_win": float(judged["loss_win"].mean()) if len(judged) else 0.0,
        }
        for label in LABELS:
            entry[label] = int((rows["label"] == label).sum())
        groups = bad["kind"].map(lambda k: KIND_GROUPS.get(k, "other"))
        for group in ("bids", "picks", "heroes", "coins", "Thingvellir"):
            entry[f"mistakes_{group}"] = int((groups == group).sum())
        out.append(entry)
    return pd.DataFrame(out)


# ---------------------------------------------------------------------- text and JSON

def annotated_lines(frame: pd.DataFrame) -> list[str]:
    """The game in notation, ``?!`` ``?`` ``??`` after the moves that gave something up,
    with the better move."""
    lines = []
    for r in frame.itertuples():
        mark = SYMBOLS.get(r.label, "")
        text = f"{r.number}. {r.name}: {r.played}{mark}"
        if mark:
            text += (f"   (better: {r.best}; {r.loss_points:.1f} points, "
                     f"{r.loss_win:.0%} win chance given up)")
            if getattr(r, "reason", ""):
                text += f"\n      {r.reason}"
        elif r.label == "forced":
            text += "   (forced)"
        lines.append(text)
    return lines


def to_json(frame: pd.DataFrame) -> dict[str, Any]:
    n = len(frame.attrs.get("names", [])) or sum(1 for c in frame.columns if c.startswith("win_"))
    decisions = []
    for r in frame.to_dict("records"):
        decisions.append({
            "step": int(r["step"]), "number": int(r["step"]) + 1, "player": int(r["player"]),
            "kind": r["kind"], "played": r["played"], "best": r["best"],
            "reason": r.get("reason", "") or "",
            "loss_points": round(float(r["loss_points"]), 3),
            "loss_win": round(float(r["loss_win"]), 4), "label": r["label"],
            "win": [round(float(r[f"win_{i}"]), 4) for i in range(n)],
            "expected": [round(float(r[f"expected_{i}"]), 2) for i in range(n)],
        })
    summ = summary(frame)
    return {"decisions": decisions,
            "summary": {"level": frame.attrs.get("level"),
                        "players": json.loads(summ.to_json(orient="records"))}}


# ---------------------------------------------------------------------- figures

def win_chance_figure(frame: pd.DataFrame, names: Sequence[str] | None = None) -> go.Figure:
    """Each player's win probability over the game; markers at the labelled mistakes (hover:
    the move played and the better one)."""
    import plotly.graph_objects as go

    from ..palette import player_colour

    names = list(names or frame.attrs.get("names") or
                 [f"Player {i + 1}" for i in range(sum(c.startswith("win_") for c in frame))])
    fig = go.Figure()
    for i, name in enumerate(names):
        colour = player_colour(i)
        fig.add_trace(go.Scatter(x=frame["step"] + 1, y=frame[f"win_{i}"] * 100, mode="lines",
                                 name=name, line={"color": colour},
                                 hovertemplate=f"{html.escape(name)}: %{{y:.0f}}% at decision "
                                               "%{x}<extra></extra>"))
        bad = frame[(frame["player"] == i) & frame["label"].isin(list(SYMBOLS))]
        if len(bad):
            fig.add_trace(go.Scatter(
                x=bad["step"] + 1, y=bad[f"win_{i}"] * 100, mode="markers",
                name=f"{name}: mistakes",
                marker={"color": colour, "size": 10, "symbol": "x"},
                customdata=bad[["played", "best", "label", "loss_points"]],
                hovertemplate="%{customdata[2]}: played %{customdata[0]}, better "
                              "%{customdata[1]} (%{customdata[3]:.1f} points)<extra></extra>"))
    fig.update_layout(title="Win chances over the game", xaxis_title="decision",
                      yaxis_title="win probability (%)", yaxis_range=[0, 100])
    return fig


def accuracy_figure(summ: pd.DataFrame) -> go.Figure:
    """Per player, the decisions by label (stacked), with the share of best moves."""
    import plotly.graph_objects as go

    colours = {"best": "#2e7d32", "good": "#9ccc65", "inaccuracy": "#fbc02d",
               "mistake": "#ef6c00", "blunder": "#c62828", "forced": "#bdbdbd"}
    fig = go.Figure()
    for label in LABELS:
        fig.add_trace(go.Bar(x=summ["name"], y=summ[label], name=label,
                             marker_color=colours[label]))
    fig.update_layout(barmode="stack", title="Accuracy: decisions by label",
                      yaxis_title="decisions")
    for r in summ.itertuples():
        share = r.best_share
        if share == share:  # not NaN
            fig.add_annotation(x=r.name, y=r.decisions, text=f"{share:.0%} best",
                               showarrow=False, yshift=10)
    return fig


def html_report(frame: pd.DataFrame, title: str = "Game review") -> str:
    """A standalone HTML page (plotly.js inline: nothing is loaded from outside)."""
    summ = summary(frame)
    figs = [win_chance_figure(frame), accuracy_figure(summ)]
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
             "</title></head><body style='font-family:sans-serif;max-width:1100px;margin:auto'>",
             f"<h1>{html.escape(title)}</h1>",
             f"<p>Level: {html.escape(str(frame.attrs.get('level')))}. Labels: best, good, "
             "inaccuracy (?!, ≥ 3 points or 5% win chance given up), mistake (?, ≥ 6 or 10%), "
             "blunder (??, ≥ 12 or 20%), forced.</p>",
             summ.to_html(index=False, float_format=lambda x: f"{x:.2f}")]
    for i, fig in enumerate(figs):
        parts.append(fig.to_html(full_html=False, include_plotlyjs="inline" if i == 0 else False))
    parts.append("<h2>The game</h2><pre>" + html.escape("\n".join(annotated_lines(frame)))
                 + "</pre></body></html>")
    return "".join(parts)


# ---------------------------------------------------------------------- save and open

def review_data(game: Game, frame: pd.DataFrame) -> dict[str, Any]:
    """A reviewed game as JSON data: the record and the review (:func:`review_from_dict`
    reads it back)."""
    return {"format": REVIEW_FORMAT, "version": REVIEW_VERSION, "record": game.to_record(),
            "level": frame.attrs.get("level"),
            "review": json.loads(frame.to_json(orient="records"))}


def save_review(path: str | Path, game: Game, frame: pd.DataFrame) -> None:
    """A reviewed game: the record and the review, opened again without recomputing."""
    Path(path).write_text(json.dumps(review_data(game, frame), ensure_ascii=False) + "\n",
                          encoding="utf-8")


def review_from_dict(data: Any) -> tuple[Game, pd.DataFrame]:
    """The game and its review from :func:`save_review`'s data; RecordError names what is
    wrong (the review must match the record, decision by decision)."""
    import pandas as pd

    if not isinstance(data, Mapping):
        raise RecordError("a reviewed game must be a JSON object")
    if data.get("format") != REVIEW_FORMAT:
        raise RecordError(f"not a {REVIEW_FORMAT} file", field="format")
    if data.get("version") != REVIEW_VERSION:
        raise RecordError(f"unsupported version {data.get('version')!r}", field="version")
    record = data.get("record")
    if not isinstance(record, Mapping):
        raise RecordError("missing or not an object", field="record")
    game = Game.from_record(record)
    rows = data.get("review")
    if not isinstance(rows, list) or len(rows) != len(game.history):
        raise RecordError(f"must list one row per decision ({len(game.history)})",
                          field="review")
    n = game.config.players
    needed = {"step": int, "player": int, "kind": str, "played": str, "best": str,
              "loss_points": (int, float), "loss_win": (int, float), "label": str}
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise RecordError("each row must be an object", field=f"review[{i}]")
        for key, kind in needed.items():
            value = row.get(key)
            if not isinstance(value, kind) or isinstance(value, bool):  # type: ignore[arg-type]
                raise RecordError(f"missing or wrong type: {value!r}", field=f"review[{i}].{key}")
        player, action = game.history[i]
        if row["step"] != i or row["player"] != player or row["played"] != str(action):
            raise RecordError(f"does not match decision {i} of the record ({action})",
                              field=f"review[{i}]")
        if row["label"] not in LABELS:
            raise RecordError(f"unknown label {row['label']!r}", field=f"review[{i}].label")
        for key in (*(f"win_{p}" for p in range(n)), *(f"expected_{p}" for p in range(n))):
            value = row.get(key)
            if not isinstance(value, (int, float)) or isinstance(value, bool) \
                    or not math.isfinite(value):
                raise RecordError(f"missing or not a number: {value!r}", field=f"review[{i}].{key}")
    frame = pd.DataFrame(rows)
    # Reviews saved before decisions were numbered from 1 and reasons given.
    frame["number"] = frame["step"] + 1
    if "reason" not in frame.columns:
        frame["reason"] = ""
    frame["reason"] = frame["reason"].fillna("").astype(str)
    frame.attrs["level"] = data.get("level")
    frame.attrs["names"] = list(game.names)
    return game, frame


def load_review(path: str | Path) -> tuple[Game, pd.DataFrame]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise RecordError(f"cannot read {path}: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not JSON: {exc}") from None
    return review_from_dict(data)


# ---------------------------------------------------------------------- command line

def configure_parser(parser: argparse.ArgumentParser) -> None:
    from .simulate import add_backend_arguments

    parser.add_argument("record", metavar="RECORD", help="a game record (JSON, Game.save)")
    parser.add_argument("--level", default=DEFAULT_LEVEL,
                        help="the coach's level: quick, coach (default, as the Hint), deep, "
                             "hard, expert, or search@BUDGET (e.g. search@400)")
    add_backend_arguments(parser)
    parser.add_argument("--playouts", type=int, default=PLAYOUTS,
                        help=f"paired playouts per verified move (default {PLAYOUTS})")
    parser.add_argument("--seed", type=int, default=None,
                        help="a fixed seed (default: each position seeded as the Hint seeds it)")
    parser.add_argument("--out", metavar="FILE",
                        help="write the review: FILE.csv, FILE.parquet, FILE.html (a report) "
                             "or FILE.json (the game with its review, opened again without "
                             "recomputing)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """``nidavellir review RECORD.json [--level hard] [--workers N] [--out FILE] [--json]``."""
    from .simulate import backend_from

    try:
        backend = backend_from(args)
        if args.playouts < 1:
            raise ValueError(f"--playouts must be at least 1, not {args.playouts}")
        out = Path(args.out) if args.out else None
        if out is not None:
            if out.suffix.lower() not in (".csv", ".parquet", ".html", ".json"):
                raise ValueError(f"cannot write {str(out)!r}: the output must end in .csv, "
                                 ".parquet, .html or .json")
            if not out.parent.is_dir():
                raise ValueError(f"cannot write {str(out)!r}: no directory {str(out.parent)!r}")
        try:
            parse_level(args.level)
        except ValueError as exc:
            raise ValueError(f"--level: {exc}") from None
        game = Game.load(args.record)
        if not game.history:
            raise ValueError(f"{args.record} holds no decision to review")
        frame = review(game, level=args.level, playouts=args.playouts, seed=args.seed,
                       progress=not args.no_progress and not args.json, backend=backend)
    except (ValueError, RecordError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if out is not None:
        suffix = out.suffix.lower()
        if suffix == ".csv":
            frame.to_csv(out, index=False)
        elif suffix == ".parquet":
            frame.to_parquet(out, index=False)
        elif suffix == ".html":
            out.write_text(html_report(frame, f"Review of {Path(args.record).name}"),
                           encoding="utf-8")
        else:
            save_review(out, game, frame)
    if args.json:
        print(json.dumps(to_json(frame), ensure_ascii=False))
        return 0
    print("\n".join(annotated_lines(frame)))
    print()
    summ = summary(frame)
    for r in summ.itertuples():
        print(f"{r.name}: {r.best_share:.0%} best moves, {r.avg_loss_points:.1f} points lost per "
              f"decision; {r.inaccuracy} inaccuracies, {r.mistake} mistakes, {r.blunder} blunders")
    if out is not None:
        print(f"\nreview written to {out}")
    return 0
