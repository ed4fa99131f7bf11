"""Pure functions from the tidy frames of :mod:`nidavellir.analysis.frames` to plotly figures.

Each builder takes DataFrames and returns a new ``plotly.graph_objects.Figure``; none
reads a game, so every figure is reproducible from saved frames and testable without a
kernel. Classes use the lab's one palette (``nidavellir.palette.CLASS_COLOURS``); players use
:data:`PLAYER_COLOURS`.

>>> from nidavellir import Game
>>> from nidavellir.analysis import frames
>>> fig = score_breakdown(frames.score_frame(Game.new(players=2, seed=1)))
>>> [t.name for t in fig.data]
['Coins']
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..cards import Suit
from ..i18n import N_, _
from ..names import COMPONENT, class_name, score_line
from ..names import name as table_name
from ..palette import CLASS_COLOURS, CLASS_NAMES, PLAYER_COLOURS, player_colour
from ..scoring import CATEGORIES, CATEGORY_LABELS
from ..tokens import parse_token
from .frames import CLASSES

#: Class names by letter, for titles and legends (the lab's one table of them).
CLASS_LABELS: dict[str, str] = CLASS_NAMES
#: Player colours (Okabe-Ito, colour-blind safe), by seat.
#: Colour of each score category: the classes' colours, then the other rows of the sheet.
CATEGORY_COLOURS: dict[str, str] = {
    "warriors": CLASS_COLOURS["W"], "hunters": CLASS_COLOURS["H"],
    "miners": CLASS_COLOURS["M"], "blacksmiths": CLASS_COLOURS["B"],
    "explorers": CLASS_COLOURS["E"], "heroes": CLASS_COLOURS["neutral"],
    "artifacts": CLASS_COLOURS.get("artifact", "#117a65"), "coins": "#b7950b",
    "gem": "#7f8c8d",
}
#: Legend names and marker symbols of the coin events marked on the coin-economy chart.
#: (Legend names are marked here and translated where a figure is drawn.)
COIN_EVENT_MARKS: dict[str, tuple[str, str]] = {
    "royal offering": (N_("Royal Offering"), "star"),
    "transform": (N_("Transform"), "diamond"),
    "trade": (N_("Trade"), "circle-open"),
    "swap": (N_("Hunting Master swap"), "square"),
    "discard": (N_("Coin discarded"), "x"),
}
STEP_AXIS = N_("Decisions taken (step)")
_FONT = {"family": "sans-serif", "size": 13}


def _class(c: str) -> str:
    """A class's column as the score sheet names it, in the reader's language."""
    return score_line(CLASS_LABELS[c])


def _names(frame: pd.DataFrame) -> list[tuple[int, str]]:
    pairs = frame[["player", "name"]].drop_duplicates().sort_values("player")
    return [(int(p), str(n)) for p, n in pairs.itertuples(index=False)]


def _age_starts(frame: pd.DataFrame) -> list[tuple[int, int]]:
    """(age, first step of that age) for every age after the first."""
    firsts = frame.groupby("age")["step"].min()
    return [(int(a), int(s)) for a, s in firsts.items() if a != firsts.index.min()]


def _mark_ages(fig: go.Figure, frame: pd.DataFrame, rows: Sequence[int] | None = None) -> None:
    for age, step in _age_starts(frame):
        if rows is None:
            fig.add_vline(x=step - 0.5, line={"dash": "dot", "color": "#888"},
                          annotation_text=_("Age {age}").format(age=age),
                          annotation_position="top left")
        else:
            for r in rows:
                label = {"annotation_text": _("Age {age}").format(age=age),
                         "annotation_position": "top left"}
                fig.add_vline(x=step - 0.5, line={"dash": "dot", "color": "#888"}, row=r, col=1,
                              **(label if r == rows[0] else {}))


def _layout(fig: go.Figure, title: str, height: int) -> None:
    fig.update_layout(title={"text": title, "x": 0.01}, height=height, font=_FONT,
                      template="plotly_white", hovermode="closest",
                      margin={"l": 60, "r": 20, "t": 80, "b": 50},
                      legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0})


# ---------------------------------------------------------------------- coin economy

def coin_economy(coins: pd.DataFrame, events: pd.DataFrame, treasury: pd.DataFrame,
                 title: str | None = None) -> go.Figure:
    """Each player's coin sum and coins through the game, and the royal treasury.

    Rows: (1) coin sum per player (one line each, named after the player) with the
    events that changed coins marked (one trace per kind present, in the order of
    :data:`COIN_EVENT_MARKS`, hover text = the log line); (2) each player's five coins,
    lowest to highest (one trace per player, ``"<name> coins"``); (3) the treasury:
    ``"Coins left"`` and ``"Highest coin left"``. Inputs: ``coins_frame``,
    ``events_frame`` and ``treasury_frame``.
    """
    fig = make_subplots(rows=3, cols=1, shared_xaxes=True, vertical_spacing=0.07,
                        row_heights=[0.4, 0.35, 0.25],
                        subplot_titles=(_("Coin sum per player"),
                                        _("Each coin (lowest to highest)"),
                                        table_name(COMPONENT, "Royal Treasury")))
    players = _names(coins)
    sums = coins.groupby(["step", "player"], sort=True)["value"].sum().unstack("player")
    for seat, name in players:
        fig.add_trace(go.Scatter(
            x=sums.index.tolist(), y=sums[seat].tolist(), name=name, mode="lines",
            legendgroup=name, line={"color": player_colour(seat), "width": 2, "shape": "hv"},
            hovertemplate=_("{name}<br>step %{{x}}<br>coin sum %{{y}}").format(name=name)
            + "<extra></extra>"),
            row=1, col=1)
    marked = events[events["coin_event"].notna()]
    for kind, (label, symbol) in COIN_EVENT_MARKS.items():
        rows = marked[marked["coin_event"] == kind]
        if rows.empty:
            continue
        steps = rows["step"].astype(int).tolist()
        seats = rows["player"].astype(int).tolist()
        fig.add_trace(go.Scatter(
            x=steps, y=[int(sums.at[s, p]) for s, p in zip(steps, seats, strict=True)], name=_(label),
            mode="markers", hovertext=rows["description"].tolist(), hoverinfo="text",
            marker={"symbol": symbol, "size": 11, "color": [player_colour(p) for p in seats],
                    "line": {"width": 1.5, "color": "#444"}}), row=1, col=1)
    for seat, name in players:
        mine = coins[coins["player"] == seat]
        xs: list[int | None] = []
        ys: list[int | None] = []
        texts: list[str | None] = []
        for slot, rows in mine.groupby("slot", sort=True):
            xs += rows["step"].tolist() + [None]
            ys += rows["value"].tolist() + [None]
            texts += [_("{name}, coin {slot}: {coin} ({place})").format(
                name=name, slot=slot, coin=c, place=place) for c, place
                      in zip(rows["coin"], rows["place"], strict=True)] + [None]
        fig.add_trace(go.Scatter(
            x=xs, y=ys, name=_("{name} coins").format(name=name), mode="lines", legendgroup=name, showlegend=False,
            line={"color": player_colour(seat), "width": 1, "shape": "hv"}, opacity=0.7,
            hovertext=texts, hoverinfo="text"), row=2, col=1)
    left = treasury.groupby("step", sort=True)["available"].sum()
    highest = treasury[treasury["available"] > 0].groupby("step", sort=True)["value"].max()
    highest = highest.reindex(left.index).fillna(0).astype(int)
    fig.add_trace(go.Scatter(x=left.index.tolist(), y=left.tolist(), name=_("Coins left"),
                             mode="lines", line={"color": "#b7950b", "shape": "hv"},
                             fill="tozeroy"), row=3, col=1)
    fig.add_trace(go.Scatter(x=highest.index.tolist(), y=highest.tolist(),
                             name=_("Highest coin left"), mode="lines",
                             line={"color": "#7f8c8d", "dash": "dash", "shape": "hv"}),
                  row=3, col=1)
    _mark_ages(fig, coins, rows=(1, 2, 3))
    fig.update_yaxes(title_text=_("Sum"), rangemode="tozero", row=1, col=1)
    fig.update_yaxes(title_text=_("Value"), rangemode="tozero", row=2, col=1)
    fig.update_yaxes(title_text=score_line("Coins"), rangemode="tozero", row=3, col=1)
    fig.update_xaxes(title_text=_(STEP_AXIS), row=3, col=1)
    _layout(fig, title or _("Coin economy"), 760)
    return fig


# ---------------------------------------------------------------------- class ranks

def class_ranks(players: pd.DataFrame, step: int | None = None,
                title: str | None = None) -> go.Figure:
    """Ranks per class per player now and over the game; majorities, lines and heroes.

    Top left: ranks at ``step`` (default: the last) as grouped bars, one trace per class
    (named ``"Warriors"``...; a ``★`` on the bar of each majority holder, ties shared).
    Top right: ``"Complete lines"`` and ``"Heroes"`` per player. Bottom: one panel per
    class with each player's ranks over the game (one trace per class and player, named
    after the player). Input: ``players_frame``.
    """
    if step is None:
        step = int(players["step"].max())
    now = players[players["step"] == step].sort_values("player")
    names = now["name"].tolist()
    fig = make_subplots(
        rows=2, cols=5, vertical_spacing=0.18, horizontal_spacing=0.04,
        specs=[[{"colspan": 3}, None, None, {"colspan": 2}, None], [{}, {}, {}, {}, {}]],
        subplot_titles=(_("Ranks now (step {step}; ★ majority)").format(step=step),
                        _("Complete lines and heroes"), *(_class(c) for c in CLASSES)))
    for c in CLASSES:
        ranks = now[f"ranks_{c}"].astype(int).tolist()
        stars = now[f"majority_{c}"].tolist()
        fig.add_trace(go.Bar(
            x=names, y=ranks, name=_class(c), legendgroup=c,
            marker_color=CLASS_COLOURS[c],
            text=[f"{r}★" if s else str(r) for r, s in zip(ranks, stars, strict=True)],
            textposition="outside",
            hovertemplate=_("%{{x}}<br>{card_class}: %{{y}} ranks").format(card_class=_class(c))
            + "<extra></extra>"), row=1, col=1)
    for label, column, colour in ((_("Complete lines"), "lines", "#34495e"),
                                  (_("Heroes"), "heroes", CLASS_COLOURS["neutral"])):
        hover = (now["hero_names"].fillna("").tolist() if column == "heroes"
                 else [None] * len(names))
        fig.add_trace(go.Bar(x=names, y=now[column].astype(int).tolist(), name=label,
                             marker_color=colour, hovertext=hover,
                             text=now[column].astype(int).tolist(), textposition="outside"),
                      row=1, col=4)
    for k, c in enumerate(CLASSES):
        for seat, name in _names(players):
            mine = players[players["player"] == seat].sort_values("step")
            fig.add_trace(go.Scatter(
                x=mine["step"].tolist(), y=mine[f"ranks_{c}"].tolist(), name=name,
                legendgroup=f"player {seat}", showlegend=k == 0, mode="lines",
                line={"color": player_colour(seat), "shape": "hv"},
                hovertemplate=_("{name}<br>step %{{x}}<br>{card_class}: %{{y}} ranks").format(
                    name=name, card_class=_class(c)) + "<extra></extra>"), row=2, col=k + 1)
        fig.update_xaxes(title_text=_("step"), row=2, col=k + 1)
    for k, c in enumerate(CLASSES):
        fig.layout.annotations[2 + k].font = {"color": CLASS_COLOURS[c], "size": 14}
    fig.update_yaxes(title_text=_("Ranks"), rangemode="tozero", row=1, col=1)
    fig.update_yaxes(rangemode="tozero", row=1, col=4)
    fig.update_yaxes(title_text=_("Ranks"), rangemode="tozero", row=2, col=1)
    fig.update_layout(barmode="group")
    _layout(fig, title or _("Class ranks"), 680)
    fig.update_layout(legend={"orientation": "h", "yanchor": "top", "y": -0.14, "x": 0},
                      margin={"b": 110})
    return fig


# ---------------------------------------------------------------------- scores

def score_breakdown(scores: pd.DataFrame, title: str | None = None) -> go.Figure:
    """Points per category stacked per player (input: ``frames.score_frame``).

    One bar trace per category that scores for somebody, in score-pad order, named as on
    the score sheet (``"Warriors"``, ..., ``"Coins"``); the totals are annotated.
    """
    order = [c for c in CATEGORIES if scores.loc[scores["category"] == c, "points"].any()]
    players = _names(scores)
    names = [n for _, n in players]
    fig = go.Figure()
    for cat in order:
        rows = scores[scores["category"] == cat].set_index("player")
        fig.add_trace(go.Bar(
            x=names, y=[int(rows.at[s, "points"]) for s, _ in players],
            name=score_line(CATEGORY_LABELS[cat]), marker_color=CATEGORY_COLOURS[cat],
            hovertemplate=f"%{{x}}<br>{score_line(CATEGORY_LABELS[cat])}: %{{y}}"
                          "<extra></extra>"))
    totals = scores.drop_duplicates("player").set_index("player")
    for seat, name in players:
        fig.add_annotation(x=name, y=int(totals.at[seat, "total"]),
                           text=f"<b>{int(totals.at[seat, 'total'])}</b>",
                           showarrow=False, yshift=12)
    fig.update_layout(barmode="stack", xaxis_title=_("Player"), yaxis_title=_("Points"))
    _layout(fig, title or _("Score breakdown"), 460)
    fig.update_layout(legend_traceorder="normal")
    return fig


def running_score(players: pd.DataFrame, title: str | None = None) -> go.Figure:
    """Each player's score of the table as it is, after every decision (one trace each)."""
    fig = go.Figure()
    for seat, name in _names(players):
        mine = players[players["player"] == seat].sort_values("step")
        fig.add_trace(go.Scatter(x=mine["step"].tolist(), y=mine["score_total"].tolist(),
                                 name=name, mode="lines",
                                 line={"color": player_colour(seat), "shape": "hv"}))
    _mark_ages(fig, players)
    fig.update_layout(xaxis_title=_(STEP_AXIS), yaxis_title=_("Points"))
    _layout(fig, title or _("Score through the game"), 420)
    return fig


# ---------------------------------------------------------------------- heroes

def hero_class(token: str) -> str:
    """The class letter of a hero token, ``neutral`` for neutral heroes."""
    suit = parse_token(token).suit
    return suit.letter if suit is not None else "neutral"


def hero_timeline(events: pd.DataFrame, names: Sequence[str] | None = None,
                  title: str | None = None) -> go.Figure:
    """When each player recruited which hero (input: ``events_frame``).

    One marker trace per hero class present (``"Warrior heroes"``, ..., ``"Neutral
    heroes"``, class colours), x = step, y = player, the hero's name as text. ``names``
    fixes the players shown on the y axis (default: those who recruited).
    """
    heroes = events[events["kind"] == "HeroRecruited"].copy()
    heroes["group"] = [hero_class(t) for t in heroes["card"]]
    fig = go.Figure()
    for group in (*CLASSES, "neutral"):
        rows = heroes[heroes["group"] == group]
        if rows.empty:
            continue
        label = (_("Neutral heroes") if group == "neutral" else
                 # Translators: a legend of the heroes chart, "Warrior heroes".
                 _("{card_class} heroes").format(card_class=class_name(Suit.parse(group))))
        fig.add_trace(go.Scatter(
            x=rows["step"].astype(int).tolist(), y=rows["name"].tolist(), name=label,
            mode="markers+text", text=[parse_token(t).name for t in rows["card"]],
            textposition="top center", hovertext=rows["description"].tolist(),
            hoverinfo="text", marker={"color": CLASS_COLOURS[group], "size": 14,
                                      "symbol": "diamond"}))
    for _i, row in events[events["kind"] == "AgeEnded"].iterrows():
        if int(row["age"]) == 1:
            fig.add_vline(x=int(row["step"]) + 0.5, line={"dash": "dot", "color": "#888"},
                          annotation_text=_("End of age 1"), annotation_position="bottom left")
    shown = list(names) if names is not None else sorted(set(heroes["name"]))
    steps = events["step"]
    fig.update_xaxes(title_text=_(STEP_AXIS), range=[-1, max(int(steps.max()) + 1, 1)]
                     if len(steps) else None)
    fig.update_yaxes(title_text=_("Player"), categoryorder="array", categoryarray=shown,
                     type="category", range=[-0.5, len(shown) - 0.5] if shown else None)
    _layout(fig, title or _("Heroes recruited"), 140 + 70 * max(len(shown), 2))
    return fig


# ---------------------------------------------------------------------- what-if

def what_if_chart(table: pd.DataFrame, title: str | None = None) -> go.Figure:
    """The options of one decision side by side (input: ``whatif.what_if``).

    Trace ``"Score now"``: the change of the player's score if the game ended right after
    the action. With the coach's judgement (``what_if(..., level=...)``), trace ``"Expected
    by the end"``: the expected final score minus the score now, for every option (all are
    played out on the same games), with error bars of 1.96 standard errors (about a 95% interval).
    """
    actions = table["action"].tolist()
    name = str(table["name"].iloc[0]) if len(table) else ""
    fig = go.Figure()
    fig.add_trace(go.Bar(x=actions, y=table["delta_total"].tolist(), name=_("Score now"),
                         marker_color="#95a5a6",
                         hovertemplate=_("%{x}: %{y:+} points now") + "<extra></extra>"))
    if "expected_score" in table:
        checked = table
        now = checked["score_total"] - checked["delta_total"]
        fig.add_trace(go.Bar(
            x=checked["action"].tolist(), y=(checked["expected_score"] - now).round(2).tolist(),
            name=_("Expected by the end"), marker_color="#2c3e50",
            error_y={"type": "data", "array": (1.96 * checked["score_se"]).round(2).tolist()},
            hovertemplate=_("%{x}: %{y:+.1f} points by the end") + "<extra></extra>"))
    fig.update_layout(barmode="group", xaxis_title=_("Action"), yaxis_title=_("Points gained"))
    _layout(fig, title or _("What if {name}...").format(name=name), 420)
    return fig


__all__ = ["CATEGORY_COLOURS", "CLASS_LABELS", "COIN_EVENT_MARKS", "PLAYER_COLOURS",
           "class_ranks", "coin_economy", "hero_class", "hero_timeline", "player_colour",
           "running_score", "score_breakdown", "what_if_chart"]
