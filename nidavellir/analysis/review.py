"""Game review: every decision of a game judged by the coach, as a DataFrame.

Each decision is judged by the coach's one judgement (:func:`nidavellir.bots.judge.judge`)
from what the deciding seat could know, never more, at the review's level: the same
judgement the Hint, the decision buttons, What-if and ``nidavellir hint`` show for that
position and level (a decision already judged in this process costs nothing more). The
move played is compared with the recommended move on the judgement's common games: the
paired difference in chance to win (``loss_win``) and in expected final points
(``loss_points``), each counted only when it is beyond the noise (:data:`~nidavellir.bots.
judge.NOISE` standard errors), so that a review never calls noise a mistake; ``reason``
says why in words, from the same figures.

Decisions are numbered from 1 (``number``: decision N is ``game.history[N - 1]``) in every
list, the Replay slider and ``nidavellir hint --at N``; ``step`` is the 0-based index.

Labels, by the chance to win given up (the coach's currency; Lichess grades by win
percentage the same way):

==================  ==============================================================
label               the move played
==================  ==============================================================
``best``            the recommended move (or a move that leads to the same position)
``about``           about as good: the difference is within the noise
``good``            a little worse: beyond the noise, under 5 % of chance to win (or
                    the same chance and fewer points)
``inaccuracy`` ?!   5 % or more of chance to win given up
``mistake`` ?       10 % or more
``blunder`` ??      15 % or more
``forced``          the only legal move
==================  ==============================================================

>>> from nidavellir.bots import play_game
>>> game = play_game(2, "random", seed=1)
>>> frame = review(game, level="search@4")
>>> list(frame.columns[:9])
['step', 'number', 'age', 'round', 'player', 'name', 'kind', 'played', 'best']
"""

from __future__ import annotations

import argparse
import html
import json
import math
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..actions import parse_action
from ..bots.judge import (
    DEFAULT_LEVEL,
    Judgement,
    cached,
    judge,
    level_words,
    parse_level,
    remember,
)
from ..bots.judgement import comparison_from_data
from ..errors import NidavellirError, RecordError
from ..game import Game
from ..i18n import N_, _, count, join, number, percent
from ..rules.base import CHOICES
from .runner import Backend, chunked, run_chunks

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

#: (label, chance to win given up): the first whose threshold is met.
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("blunder", 0.15),
    ("mistake", 0.10),
    ("inaccuracy", 0.05),
)
LABELS = ("best", "about", "good", "inaccuracy", "mistake", "blunder", "forced")
#: How each label reads in a sentence.
#: A reviewed move's label in words (the catalogue's messages: translated where shown).
LABEL_TEXT = {"best": N_("best"), "about": N_("about as good"), "good": N_("a little worse"),
              "inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder"),
              "forced": N_("forced")}
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
#: The labels of moves that gave something up beyond the noise.
COSTLY = ("good", "inaccuracy", "mistake", "blunder")
#: Decision kinds grouped for the summary (each decision class says its group).
KIND_GROUPS: dict[str, str] = {str(kind): cls.group for kind, cls in CHOICES.items()}
#: The mistakes' decision groups of :func:`summary` (its ``mistakes_GROUP`` columns).
MISTAKE_GROUPS = ("bids", "picks", "heroes", "coins", "Thingvellir")
#: The columns of :func:`summary` as a person reads them (the HTML report's table), in
#: their order; the data keeps its keys (JSON, CSV, the frame's columns).
SUMMARY_HEADERS: dict[str, str] = {
    # Translators: the columns of the review report's summary table, one row per player.
    "name": N_("player"), "decisions": N_("decisions"), "judged": N_("judged"),
    "best_share": N_("best or about as good"), "win_lost": N_("chance to win given up"),
    "avg_loss_win": N_("chance to win given up per judged decision"),
    "points_lost": N_("points given up"),
    "avg_loss_points": N_("points given up per judged decision"),
    **LABEL_TEXT,
    "mistakes_bids": N_("mistakes in bids"), "mistakes_picks": N_("mistakes in picks"),
    "mistakes_heroes": N_("mistakes with heroes"), "mistakes_coins": N_("mistakes with coins"),
    "mistakes_Thingvellir": N_("mistakes in Thingvellir's decisions")}
#: The version of a record's ``review`` part (docs/notation.md).
REVIEW_VERSION = 3

#: (record, decision index, level, seed)
Task = tuple[dict[str, Any], int, str, int | None]


def label_for(loss_win: float, loss_points: float = 0.0) -> str:
    """The label of a move beyond the noise: by the chance to win given up; a move with
    the same chance and fewer points is ``good``."""
    for label, win in THRESHOLDS:
        if loss_win >= win:
            return label
    return "good"


def _position(record: Mapping[str, Any], index: int) -> tuple[Game, int, str]:
    game = Game.from_record(record)
    player, action = game.history[index]
    game.undo_to(index)
    return game, player, str(action)


def review_decision(task: Task) -> tuple[dict[str, Any], Judgement]:
    """Judge decision ``index`` of a record (module level: runs in worker processes)."""
    record, index, level, seed = task
    game, _before, played = _position(record, index)
    judgement = judge(game, level=level, seed=seed)
    row = judge_move(game, played, level, seed, judgement=judgement)
    return row, judgement


def judge_move(game: Game, played: str, level: str = DEFAULT_LEVEL, seed: int | None = None,
               judgement: Judgement | None = None) -> dict[str, Any]:
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
                           "played": played, "options": len(legal), "reason": "",
                           "reason_data": "", "exact": False}
    if judgement is None:
        judgement = judge(game, level=level, seed=seed)
    row["best"] = str(judgement.best)
    row["exact"] = judgement.exact
    option = judgement.option(played_action)
    if len(legal) == 1:
        row.update(loss_points=0.0, loss_win=0.0, label="forced")
    elif option is judgement.options[0]:
        row.update(loss_points=0.0, loss_win=0.0, label="best")
    else:
        cmp = judgement.compare(played_action)
        # Only what is beyond the noise is a loss (no figure within the noise is shown).
        loss_win = cmp.win.value if cmp.win.clear else 0.0
        loss_points = cmp.points.value if cmp.points.clear else 0.0
        if option.about_best:
            label = "about"
            loss_win = loss_points = 0.0
        else:
            label = label_for(loss_win, loss_points)
        row.update(loss_points=loss_points, loss_win=loss_win, label=label,
                   reason=cmp.text(), reason_data=json.dumps(cmp.to_data()))
    for i in range(game.config.players):
        row[f"win_{i}"] = judgement.win[i]
        row[f"expected_{i}"] = judgement.expected[i]
    return row


def reason_data(value: object) -> dict[str, Any] | None:
    """A row's ``reason_data`` as an object (the frame keeps it as JSON text, so that a CSV
    or Parquet file holds it as one column); None when there is none."""
    if isinstance(value, str) and value:
        try:
            value = json.loads(value)
        except ValueError:
            return None
    return dict(value) if isinstance(value, Mapping) else None


def reason_text(row: Any, played_words: str = "", best_words: str = "") -> str:
    """A reviewed move's reason in the current language: said again from its data
    (``reason_data``, :meth:`~nidavellir.bots.judgement.Comparison.to_data`) with the moves
    in words (:func:`move_words`), whatever the language the review was made in; a row
    saved before reasons were kept as data gives its text as it was written."""
    get = row.get if isinstance(row, Mapping) else (lambda k, d=None: getattr(row, k, d))
    data = reason_data(get("reason_data", None))
    if data is not None:
        try:
            cmp = comparison_from_data(data, parse_action(str(get("best"))),
                                       parse_action(str(get("played"))),
                                       best_words, played_words)
        except (ValueError, NidavellirError):
            pass  # checked when the review was read; a frame made otherwise says its text
        else:
            return cmp.text()
    text = get("reason", "")
    return text if isinstance(text, str) else ""


def move_words(game: Game, moves: Mapping[int, Sequence[str]]) -> dict[int, list[str]]:
    """Moves of ``game`` in words: for each decision (0-based step) of ``moves``, each move
    given in notation (the move played, the coach's) as that decision says it to the
    player (``Choice.say``: the move played as it was chosen, an equivalent move too), in
    the current language; a move the decision has no words for keeps its notation. One
    replay of the game."""
    if not moves:
        return {}
    replay = Game.from_record(game.to_record())
    replay.undo_to(0)
    last = max(moves)
    out: dict[int, list[str]] = {}
    for i, (_seat, action) in enumerate(game.history):
        if i > last:
            break
        if i in moves:
            decision = replay.decision
            assert decision is not None
            said = []
            for text in moves[i]:
                try:
                    said.append(decision.task.say(replay.engine, replay.parse(text)))
                except (NotImplementedError, ValueError):
                    said.append(text)
            out[i] = said
        replay.apply_fast(action)
    return out


def _as_game(game_or_record: Game | Mapping[str, Any]) -> Game:
    if isinstance(game_or_record, Game):
        return game_or_record
    return Game.from_record(game_or_record)


#: ``progress(done, total)``: decisions reviewed so far.
ReviewProgress = Callable[[int, int], None]


def review(game_or_record: Game | Mapping[str, Any], level: str = DEFAULT_LEVEL,
           workers: int = 1, scheduler: str | None = None, dask: int | None = None,
           seed: int | None = None, progress: bool | ReviewProgress = False,
           backend: Backend | None = None, seats: Sequence[int] | None = None
           ) -> pd.DataFrame:
    """One row per decision of the game (see the module docs): ``step, number, age, round,
    player, name, kind, played, best, options, loss_points, loss_win, label, reason,
    reason_data`` (the reason as JSON data: :func:`reason_text` says it in any language),
    ``exact``, then each player's chance to win ``win_i`` and expected final score
    ``expected_i`` after the recommended move. ``seats``: review only the decisions of
    these seats (the page reviews the learner's). Decisions already judged in this process
    (the Hint's) are taken as they are; the others are judged in parallel on ``workers``
    processes or a Dask cluster. ``progress``: True for a progress bar, or a function
    that hears ``(done, total)``. The same level gives the same review every time."""
    import pandas as pd

    parse_level(level)
    game = _as_game(game_or_record)
    record = game.to_record()
    n = game.config.players
    if seats is not None:
        bad = [x for x in seats if not isinstance(x, int) or not 0 <= x < n]
        if bad:
            raise ValueError(f"no seat {bad[0]!r} in a {n}-player game")
    picked = [i for i, (player, _) in enumerate(game.history)
              if seats is None or player in seats]
    rows: dict[int, dict[str, Any]] = {}
    todo: list[Task] = []
    replay = Game.from_record(record)
    replay.undo_to(0)
    wanted = set(picked)
    for i, (_seat, action) in enumerate(game.history):
        task_seed = None if seed is None else seed * 100_003 + i
        if i in wanted:
            kept = cached(replay, level, task_seed)
            if kept is not None:  # judged already (the Hint's): nothing more to compute
                rows[i] = judge_move(replay, str(action), level, task_seed, judgement=kept)
            else:
                todo.append((record, i, level, task_seed))
        replay.apply_fast(action)
    total = len(picked)
    tell = progress if callable(progress) else None
    if tell is not None:
        tell(len(rows), total)
    backend = backend or Backend(workers=workers, scheduler=scheduler, dask=dask)
    # Translators: the review's progress bar: what it counts (plural), then its unit.
    desc, unit = N_("decisions"), N_("decision")
    for _chunk, out in run_chunks(review_decision, chunked(todo, 1), backend,
                                  progress=progress is True, desc=desc, unit=unit):
        for row, judgement in out:
            remember(judgement)
            rows[row["step"]] = row
        if tell is not None:
            tell(len(rows), total)
    columns = ["step", "number", "age", "round", "player", "name", "kind", "played", "best",
               "options", "loss_points", "loss_win", "label", "reason", "reason_data",
               "exact", *(f"win_{i}" for i in range(n)), *(f"expected_{i}" for i in range(n))]
    frame = pd.DataFrame([rows[i] for i in picked], columns=columns)
    frame.attrs["level"] = level
    frame.attrs["names"] = list(game.names)
    return frame


def summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per player: decisions, judged (not forced), the share of best moves (best or about as
    good), the chance to win and points given up in all (the sum of the listed moves'
    costs) and per judged decision, counts per label, mistakes (inaccuracies, mistakes and
    blunders) per decision group (bids, picks, heroes, coins, Thingvellir)."""
    import pandas as pd

    out = []
    for (player, name), rows in frame.groupby(["player", "name"], sort=True):
        judged = rows[rows["label"] != "forced"]
        bad = judged[judged["label"].isin(list(SYMBOLS))]
        costly = judged[judged["label"].isin(list(COSTLY))]
        entry: dict[str, Any] = {
            "player": int(player), "name": name, "decisions": len(rows),
            "judged": len(judged),
            "best_share": (float(judged["label"].isin(["best", "about"]).mean())
                           if len(judged) else math.nan),
            "win_lost": float(costly["loss_win"].sum()),
            "points_lost": float(costly["loss_points"].sum()),
            "avg_loss_points": float(costly["loss_points"].sum() / len(judged))
            if len(judged) else 0.0,
            "avg_loss_win": float(costly["loss_win"].sum() / len(judged))
            if len(judged) else 0.0,
        }
        for label in LABELS:
            entry[label] = int((rows["label"] == label).sum())
        groups = bad["kind"].map(lambda k: KIND_GROUPS.get(k, "other"))
        for group in MISTAKE_GROUPS:
            entry[f"mistakes_{group}"] = int((groups == group).sum())
        out.append(entry)
    return pd.DataFrame(out)


def headline(r: Any) -> str:
    """A player's summary line (a row of :func:`summary`): the same on the page and in the
    shell."""
    # Points add up over a game; chances to win do not (twelve moves that each gave up 16%
    # do not give up 196% of anything): the chance is said per judged decision.
    # Each count with its own plural form (the catalogue's: "1 blunder", "2 blunders").
    # Translators: the counts of a player's line of the game's review, of moves.
    labels = [count(int(r.good), "{n} a little worse", "{n} a little worse"),
              count(int(r.inaccuracy), "{n} inaccuracy", "{n} inaccuracies"),
              count(int(r.mistake), "{n} mistake", "{n} mistakes"),
              count(int(r.blunder), "{n} blunder", "{n} blunders")]
    # Translators: a player's line of the game's review; {win} is the chance to win given
    # up on average per judged decision; {labels} the counts of moves by label ("0 a little
    # worse, 1 inaccuracy, 2 mistakes, 1 blunder").
    return _("{name}: {best} best moves or about as good ({judged} judged), {points} points "
             "given up in all, on average {win} chance to win given up a decision; "
             "{labels}").format(
        name=r.name, best=percent(r.best_share), judged=r.judged,
        win=percent(r.avg_loss_win, 1), points=number(r.points_lost, 1),
        labels=", ".join(labels))


def cost_text(r: Any) -> str:
    """What a reviewed move gave up, in words (a row of the frame)."""
    if r.label in ("best", "forced"):
        return _(LABEL_TEXT[r.label])
    if r.label == "about":
        return _("about as good: the difference is within the noise")
    win, points = percent(r.loss_win), number(r.loss_points, 1)
    if r.loss_win and r.loss_points > 0:
        # Translators: what a reviewed move gave up, "15% chance to win and 9.0 points given up".
        given = _("{win} chance to win and {points} points given up").format(win=win,
                                                                             points=points)
    elif r.loss_win:
        given = _("{win} chance to win given up").format(win=win)
    elif r.loss_points > 0:
        given = _("{points} points given up (the same chance to win)").format(points=points)
    else:
        given = _("a little worse (the same chance to win)")
    if r.loss_points < 0:
        # Translators: after what a reviewed move gave up: it scored more, yet won less.
        given = _("{given} (it scores {points} points more)").format(
            given=given, points=number(-r.loss_points, 1))
    return given


# ---------------------------------------------------------------------- text and JSON

def annotated_lines(frame: pd.DataFrame, game: Game | None = None) -> list[str]:
    """The game in notation, ``?!`` ``?`` ``??`` after the moves that gave something up,
    and every move that is not the best with its cost, the better move and the reason: in
    the current language where ``game`` is given (a saved review's reasons said again from
    their data, the moves in words: :func:`reason_text`), else as the frame has them."""
    words = {} if game is None else move_words(game, {
        int(r.step): (str(r.played), str(r.best)) for r in frame.itertuples()
        if r.label in COSTLY or r.label == "about"})
    lines = []
    for r in frame.itertuples():
        mark = SYMBOLS.get(r.label, "")
        text = f"{r.number}. {r.name}: {r.played}{mark}"
        if r.label in COSTLY or r.label == "about":
            # Translators: after a reviewed move that is not the best, in `nidavellir
            # review` ({label}: "mistake"; {cost}: what it gave up; {best}: the coach's
            # move, in notation).
            if r.label == "about":  # its cost says "about as good" already
                # Translators: after a reviewed move about as good as the coach's ({cost}:
                # "about as good: the difference is within the noise").
                text += "   " + _("({cost}; the coach: {best})").format(cost=cost_text(r),
                                                                      best=r.best)
            else:
                text += "   " + _("({label}: {cost}; the coach: {best})").format(
                    label=_(LABEL_TEXT[r.label]), cost=cost_text(r), best=r.best)
            said, better = words.get(int(r.step), ("", ""))
            reason = reason_text(r, said, better) if said else getattr(r, "reason", "")
            if reason:
                text += f"\n      {reason}"
        elif r.label == "forced":
            # Translators: after a reviewed move that was the only legal one.
            text += "   " + _("(forced)")
        elif getattr(r, "exact", False):
            # Translators: after a reviewed move the coach found best by playing every
            # option to the end.
            text += "   " + _("(best, exact)")
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
            "reason_data": reason_data(r.get("reason_data")),
            "loss_points": round(float(r["loss_points"]), 3),
            "loss_win": round(float(r["loss_win"]), 4), "label": r["label"],
            "exact": bool(r.get("exact", False)),
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
                 [_("Player {n}").format(n=i + 1)
                  for i in range(sum(c.startswith("win_") for c in frame))])
    fig = go.Figure()
    for i, name in enumerate(names):
        colour = player_colour(i)
        # Translators: the review chart's hover on a player's line: {name}, then the chance
        # to win ({chance}, a plotly placeholder) at a decision ({decision}, one too).
        hover = _("{name}: {chance} at decision {decision}").format(
            name=html.escape(name), chance="%{y:.0f}%", decision="%{x}")
        fig.add_trace(go.Scatter(x=frame["step"] + 1, y=frame[f"win_{i}"] * 100, mode="lines",
                                 name=name, line={"color": colour},
                                 hovertemplate=hover + "<extra></extra>"))
        bad = frame[(frame["player"] == i) & frame["label"].isin(list(SYMBOLS))]
        if len(bad):
            words = [_(LABEL_TEXT[label]) for label in bad["label"]]
            # Translators: the review chart's hover on a mistake: {label} (mistake,
            # blunder...), the move {played} and the {better} one in notation, and the
            # chance to win given up ({chance}); each is a plotly placeholder.
            hover = _("{label}: played {played}, better {better} ({chance} chance to win)"
                      ).format(label="%{customdata[4]}", played="%{customdata[0]}",
                               better="%{customdata[1]}", chance="%{customdata[3]:.0%}")
            fig.add_trace(go.Scatter(
                x=bad["step"] + 1, y=bad[f"win_{i}"] * 100, mode="markers",
                # Translators: the legend of a player's mistakes in the review chart.
                name=_("{name}: mistakes").format(name=name),
                marker={"color": colour, "size": 10, "symbol": "x"},
                customdata=bad[["played", "best", "label", "loss_win"]].assign(words=words),
                hovertemplate=hover + "<extra></extra>"))
    # A short title and its subtitle on a line of their own: nothing is cut in the Play
    # tab's column at 1280 px, in any language (plotly does not wrap a title).
    # Translators: the review chart's title, then its subtitle (its own line).
    title = _("Chances to win over the game")
    subtitle = _("after the coach's move at each reviewed decision")
    fig.update_layout(
        title={"text": f"{html.escape(title)}<br><sup>{html.escape(subtitle)}</sup>",
               "x": 0.0, "xanchor": "left"},
        margin={"t": 80},
        # Translators: the axes of the review chart.
        xaxis_title=_("decision"), yaxis_title=_("win probability (%)"),
        yaxis_range=[0, 100], separators=_separators())
    return fig


def _separators() -> str:
    """Plotly's decimal and thousands marks in the reader's language (``.,`` in English)."""
    return number(0.5, 1)[1] + number(1000)[1]


def accuracy_figure(summ: pd.DataFrame) -> go.Figure:
    """Per player, the decisions by label (stacked), with the share of best moves."""
    import plotly.graph_objects as go

    colours = {"best": "#2e7d32", "about": "#66bb6a", "good": "#c5e1a5",
               "inaccuracy": "#fbc02d", "mistake": "#ef6c00", "blunder": "#c62828",
               "forced": "#bdbdbd"}
    fig = go.Figure()
    for label in LABELS:
        fig.add_trace(go.Bar(x=summ["name"], y=summ[label], name=_(LABEL_TEXT[label]),
                             marker_color=colours[label]))
    fig.update_layout(barmode="stack", title=_("Accuracy: decisions by label"),
                      yaxis_title=_("decisions"), separators=_separators())
    for r in summ.itertuples():
        share = r.best_share
        if share == share:  # not NaN
            # Translators: above a player's bar of the review's accuracy chart, "64% best
            # or about as good".
            text = _("{share} best or about as good").format(share=percent(share))
            fig.add_annotation(x=r.name, y=r.decisions, showarrow=False, yshift=10, text=text)
    return fig


def html_report(frame: pd.DataFrame, title: str | None = None, game: Game | None = None
                ) -> str:
    """A standalone HTML page (plotly.js inline: nothing is loaded from outside), in the
    reader's language (a saved review's reasons too, where ``game`` is given:
    :func:`annotated_lines`)."""
    if title is None:
        title = _("Game review")
    summ = summary(frame)
    figs = [win_chance_figure(frame), accuracy_figure(summ)]
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
             "</title></head><body style='font-family:sans-serif;max-width:1100px;margin:auto'>",
             f"<h1>{html.escape(title)}</h1>",
             "<p>" + html.escape(_labels_text(str(frame.attrs.get("level")))) + "</p>",
             "<p>" + "<br>".join(html.escape(headline(r)) for r in summ.itertuples()) + "</p>",
             summary_table(summ)]
    for i, fig in enumerate(figs):
        parts.append(fig.to_html(full_html=False, include_plotlyjs="inline" if i == 0 else False))
    parts.append("<h2>" + html.escape(_("The game")) + "</h2><pre>"
                 + html.escape("\n".join(annotated_lines(frame, game)))
                 + "</pre></body></html>")
    return "".join(parts)


def summary_table(summ: pd.DataFrame) -> str:
    """The summary (:func:`summary`) as an HTML table for a person: its columns' headers
    and its numbers in the reader's language (shares as percentages)."""
    shares = ("best_share", "win_lost", "avg_loss_win")
    points = ("points_lost", "avg_loss_points")
    table = summ[list(SUMMARY_HEADERS)].copy().astype(object)
    for column in table.columns:
        if column in shares:
            table[column] = [percent(x, 1) if x == x else "" for x in table[column]]
        elif column in points:
            table[column] = [number(x, 1) for x in table[column]]
        elif column != "name":
            table[column] = [number(x) for x in table[column]]
    table.columns = [_(SUMMARY_HEADERS[c]) for c in table.columns]
    return str(table.to_html(index=False))


def _labels_text(level: str) -> str:
    """The report's key: the coach's level and the labels with their thresholds."""
    thresholds = dict(THRESHOLDS)
    # Translators: the key of a review's HTML report ({level}: how hard the coach thought,
    # "its usual depth"; the thresholds are chances to win given up, "5%").
    return _("Level: {level}. Labels, by the chance to win given up beyond the noise: best, "
             "about as good (within the noise), a little worse, inaccuracy (?!, ≥ "
             "{inaccuracy}), mistake (?, ≥ {mistake}), blunder (??, ≥ {blunder}), "
             "forced.").format(level=level_words(level),
                               inaccuracy=percent(thresholds["inaccuracy"]),
                               mistake=percent(thresholds["mistake"]),
                               blunder=percent(thresholds["blunder"]))


# ---------------------------------------------------------------------- save and open

def review_data(game: Game, frame: pd.DataFrame) -> dict[str, Any]:
    """A reviewed game as JSON data: its record, with the review as its ``review`` part
    (docs/notation.md; :func:`review_from_dict` reads it back, and every command that reads
    a record reads it)."""
    record = game.to_record()
    decisions = json.loads(frame.to_json(orient="records"))
    for row in decisions:  # the reason's data as an object of the record, not as text
        data = reason_data(row.pop("reason_data", None))
        if data is not None:
            row["reason_data"] = data
    record["review"] = {"version": REVIEW_VERSION, "level": frame.attrs.get("level"),
                        "decisions": decisions}
    return record


def save_review(path: str | Path, game: Game, frame: pd.DataFrame) -> None:
    """A reviewed game: the record with its review, opened again without recomputing."""
    Path(path).write_text(json.dumps(review_data(game, frame), indent=1, ensure_ascii=False)
                          + "\n", encoding="utf-8")


def review_from_dict(data: Any) -> tuple[Game, pd.DataFrame | None]:
    """The game of a record and its review (None when the record has none): a record
    saved with its review (:func:`review_data`), or a reviewed game of the old format
    (``nidavellir-review``, migrated: :func:`nidavellir.game.migrate_record`); RecordError
    names what is wrong (the review must match the record, decision by decision)."""
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object")
    game = Game.from_record(data)
    if game.review is None:
        return game, None
    return game, review_frame(game, game.review)


def review_frame(game: Game, review: Mapping[str, Any]) -> pd.DataFrame:
    """The review of ``game`` from a record's ``review`` part, checked decision by
    decision against the record."""
    import pandas as pd

    if review.get("version", REVIEW_VERSION) not in (1, 2, REVIEW_VERSION):
        raise RecordError(f"unsupported version {review.get('version')!r}",
                          field="review.version")
    rows = review.get("decisions")
    if not isinstance(rows, list) or not rows or len(rows) > len(game.history):
        raise RecordError(f"must list one row per reviewed decision (at most "
                          f"{len(game.history)})", field="review.decisions")
    n = game.config.players
    needed = {"step": int, "player": int, "kind": str, "played": str, "best": str,
              "loss_points": (int, float), "loss_win": (int, float), "label": str}
    last = -1
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise RecordError("each row must be an object", field=f"review.decisions[{i}]")
        for key, kind in needed.items():
            value = row.get(key)
            if not isinstance(value, kind) or isinstance(value, bool):  # type: ignore[arg-type]
                raise RecordError(f"missing or wrong type: {value!r}",
                                  field=f"review.decisions[{i}].{key}")
        step = row["step"]
        if not last < step < len(game.history):
            raise RecordError(f"step {step} is not a later decision of the record (0 to "
                              f"{len(game.history) - 1}, in order)",
                              field=f"review.decisions[{i}].step")
        last = step
        player, action = game.history[step]
        if row["player"] != player or row["played"] != str(action):
            raise RecordError(f"does not match decision {step} of the record ({action})",
                              field=f"review.decisions[{i}]")
        if row["label"] not in LABELS:
            raise RecordError(f"unknown label {row['label']!r}",
                              field=f"review.decisions[{i}].label")
        try:
            best = parse_action(row["best"])
        except NidavellirError as exc:
            raise RecordError(str(exc), field=f"review.decisions[{i}].best") from None
        data = row.get("reason_data")
        if data is not None and data != "":  # none: a review saved before reasons as data
            try:
                if isinstance(data, str):  # the frame's JSON text (an old format's rows)
                    try:
                        data = json.loads(data)
                    except ValueError:
                        raise ValueError("must be an object (or its JSON text)") from None
                comparison_from_data(data, best, action)
            except (ValueError, NidavellirError) as exc:
                raise RecordError(str(exc), field=f"review.decisions[{i}].reason_data") \
                    from None
        for key in (*(f"win_{p}" for p in range(n)), *(f"expected_{p}" for p in range(n))):
            value = row.get(key)
            if not isinstance(value, (int, float)) or isinstance(value, bool) \
                    or not math.isfinite(value):
                raise RecordError(f"missing or not a number: {value!r}",
                                  field=f"review.decisions[{i}].{key}")
    frame = pd.DataFrame(rows)
    # Reviews saved before decisions were numbered from 1 and reasons given.
    frame["number"] = frame["step"] + 1
    if "reason" not in frame.columns:
        frame["reason"] = ""
    frame["reason"] = frame["reason"].fillna("").astype(str)
    frame["reason_data"] = [json.dumps(data) if isinstance(data, Mapping) else data or ""
                            for data in (row.get("reason_data") for row in rows)]
    if "exact" not in frame.columns:
        frame["exact"] = False
    frame.attrs["level"] = review.get("level")
    frame.attrs["names"] = list(game.names)
    return frame


def load_review(path: str | Path) -> tuple[Game, pd.DataFrame | None]:
    """A record file and its review (None when it has none): :func:`review_from_dict`."""
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

    parser.add_argument("record", metavar="RECORD", help=_("a game record (JSON, Game.save)"))
    parser.add_argument("--level", default=DEFAULT_LEVEL,
                        help=_("the coach's level: quick, coach (default, as the Hint), deep, "
                               "hard, expert, or search@BUDGET (e.g. search@400)"))
    add_backend_arguments(parser, workers=os.cpu_count() or 1,
                          workers_help=_("one per core of this machine"))
    parser.add_argument("--seats", metavar="S[,S...]", default=None,
                        help=_("review only these seats' decisions, numbered from 1 "
                               "(default: the seats people played, when the record says so, "
                               "as a game saved from the Play tab does; else every seat)"))
    parser.add_argument("--seed", type=int, default=None,
                        help=_("a fixed seed (default: each position seeded as the Hint seeds it)"))
    parser.add_argument("--out", metavar="FILE",
                        help=_("write the review: FILE.csv, FILE.parquet, FILE.html (a report) "
                               "or FILE.json (the game with its review, opened again without "
                               "recomputing)"))
    parser.add_argument("--json", action="store_true", help=_("print one JSON object"))
    parser.add_argument("--no-progress", action="store_true", help=_("no progress bar"))


def run(args: argparse.Namespace) -> int:
    """``nidavellir review RECORD.json [--level hard] [--workers N] [--out FILE] [--json]``."""
    from .simulate import backend_from

    try:
        backend = backend_from(args)
        out = Path(args.out) if args.out else None
        if out is not None:
            if out.suffix.lower() not in (".csv", ".parquet", ".html", ".json"):
                raise ValueError(_("cannot write {path}: the output must end in .csv, "
                                   ".parquet, .html or .json").format(path=repr(str(out))))
            if not out.parent.is_dir():
                raise ValueError(_("cannot write {path}: no directory {folder}").format(
                    path=repr(str(out)), folder=repr(str(out.parent))))
        try:
            parse_level(args.level)
        except ValueError as exc:
            raise ValueError(_("{option}: {problem}").format(option="--level",
                                                             problem=exc)) from None
        game = Game.load(args.record)
        if not game.history:
            raise ValueError(_("{record} holds no decision to review").format(
                record=args.record))
        seats = _seats(args.seats, game.config.players)
        if seats is None and game.learners is not None:
            seats = list(game.learners)  # the seats people played, as the page reviews
            if not args.json:
                # Translators: `nidavellir review` of a record saved from the Play tab.
                print(_("Reviewing the decisions of {names}: the seats people played in this "
                        "record (--seats chooses others).").format(
                    names=join([game.names[i] for i in seats])))
        frame = saved_review(game, args.level, args.seed, seats)
        if frame is not None:
            if not args.json:
                # Translators: `nidavellir review` of a record saved with its review at
                # the level asked for: nothing is judged again.
                print(_("The review saved with {record} (at this level): nothing judged "
                        "again.").format(record=args.record))
        else:
            frame = review(game, level=args.level, seed=args.seed, seats=seats,
                           progress=not args.no_progress and not args.json,
                           backend=backend)
        if frame.empty:
            raise ValueError(_("the seats given took no decision in this record"))
    except (ValueError, RecordError) as exc:
        print(_("error: {problem}").format(problem=exc), file=sys.stderr)
        return 2
    if out is not None:
        suffix = out.suffix.lower()
        if suffix == ".csv":
            frame.to_csv(out, index=False)
        elif suffix == ".parquet":
            frame.to_parquet(out, index=False)
        elif suffix == ".html":
            # Translators: the title of a review's HTML report ({name}: the record's file).
            out.write_text(html_report(frame, _("Review of {name}").format(
                name=Path(args.record).name), game),
                           encoding="utf-8")
        else:
            save_review(out, game, frame)
    if args.json:
        print(json.dumps(to_json(frame), ensure_ascii=False))
        return 0
    print("\n".join(annotated_lines(frame, game)))
    print()
    for r in summary(frame).itertuples():
        print(headline(r))
    if out is not None:
        print()
        # Translators: `nidavellir review --out FILE`.
        print(_("Review written to {out}.").format(out=out))
    return 0


def saved_review(game: Game, level: str, seed: int | None, seats: Sequence[int] | None
                 ) -> pd.DataFrame | None:
    """The review the record was saved with, when it is the one asked for (the same level,
    the position's own seeds, the same seats: a review is a function of these), else
    None."""
    if game.review is None or seed is not None or game.review.get("level") != level:
        return None
    frame = review_frame(game, game.review)
    wanted = set(seats) if seats is not None else {p for p, _ in game.history}
    if set(int(p) for p in frame["player"]) != wanted:
        return None
    steps = [i for i, (p, _) in enumerate(game.history) if p in wanted]
    return frame if [int(s) for s in frame["step"]] == steps else None


def _seats(text: str | None, players: int) -> list[int] | None:
    """``--seats 1,3`` as seat indices; a clear error for anything else."""
    if text is None:
        return None
    seats = []
    for part in text.split(","):
        try:
            seat = int(part)
        except ValueError:
            # Translators: an error of `nidavellir review --seats`; {value} as typed.
            raise ValueError(_("{option}: {value} is not a seat number (1 to {players})"
                               ).format(option="--seats", value=repr(part.strip()),
                                        players=players)) from None
        if not 1 <= seat <= players:
            raise ValueError(_("{option}: no seat {seat} in a {players}-player game (1 to "
                               "{players})").format(option="--seats", seat=seat,
                                                    players=players))
        seats.append(seat - 1)
    return seats
