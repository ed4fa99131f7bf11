"""Live charts for the play app: coin economy and class ranks, redrawn after every decision.

Each chart is a plain ``plotly.graph_objects.Figure`` shown in an ``ipywidgets.Output``
whose ``outputs`` are replaced on every change: the robust choice (docs/serving.md, "What
is known of Voila here": a ``FigureWidget`` can stop updating for good on slow clients).
The figure travels as the ``application/vnd.plotly.v1+json`` mime bundle, drawn by the
locally installed plotly extension (no CDN). Setting ``outputs`` directly, rather than
``with out: display(...)``, also works from callbacks outside a kernel cell and in tests.

Updates are never lost: a change that arrives while a redraw runs marks the charts
dirty and the redraw loops until it has drawn the latest state. Charts follow the game
through a :class:`~nidavellir.analysis.frames.Timeline`, so only new decisions are
replayed (an undo or a new game is followed too).

>>> from widgets.session import Session
>>> from nidavellir import Game
>>> session = Session(Game.new(players=2, seed=1), ["human", "random"])
>>> charts = LiveCharts(session)
>>> charts.drawn_at
0
>>> session.submit("bid 0 2 3")
True
>>> charts.drawn_at == len(session.game.history)
True
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as W
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from nidavellir import Game
from nidavellir.analysis import figures as G
from nidavellir.analysis.frames import Timeline
from nidavellir.i18n import N_, SOURCE, _, count, language, number_marks
from nidavellir.observer import Observer

PLOTLY_MIME = "application/vnd.plotly.v1+json"
#: Plotly's config for every chart of the lab: no logo, fit the page width, and no
#: toolbar buttons a learner has no use for (selecting points; sharing to Plotly's cloud,
#: which the lab never reaches).
PLOTLY_CONFIG: dict[str, Any] = {
    "displaylogo": False, "responsive": True,
    "modeBarButtonsToRemove": ["select2d", "lasso2d", "sendChartToCloud"]}
#: The words Plotly itself shows on the lab's charts (the toolbar's tooltips, the messages
#: of its buttons and of a zoom), in Plotly's own English: Plotly looks each up in the
#: config's locale (:func:`plotly_config`), so they are the page's language too.
# Translators: Plotly's own words on a chart (its toolbar's tooltips and messages).
PLOTLY_WORDS: tuple[str, ...] = (
    N_("Download plot as a PNG"), N_("Zoom"), N_("Pan"), N_("Zoom in"), N_("Zoom out"),
    N_("Autoscale"), N_("Reset axes"), N_("Double-click to zoom back out"),
    N_("Taking snapshot - this may take a few seconds"), N_("Snapshot succeeded"),
    N_("Sorry, there was a problem downloading your snapshot!"))


def plotly_config() -> dict[str, Any]:
    """:data:`PLOTLY_CONFIG` in the current language: Plotly's own words
    (:data:`PLOTLY_WORDS`) and its axes' decimal mark and thousands separator."""
    config = dict(PLOTLY_CONFIG)
    code = language()
    if code != SOURCE:
        decimal, thousands, _pattern = number_marks()
        config["locale"] = code
        config["locales"] = {code: {
            "dictionary": {
                word: _(word) for word in PLOTLY_WORDS},
            "format": {"decimal": decimal, "thousands": thousands}}}
    return config
HIDDEN_BID = "face down"


def figure_output(fig: go.Figure) -> dict[str, Any]:
    """A display_data output of ``fig`` as plotly's mime bundle (for ``Output.outputs``)."""
    spec = json.loads(pio.to_json(fig, validate=False, remove_uids=False))
    spec["config"] = plotly_config()
    title = fig.layout.title.text or "Figure"
    return {"output_type": "display_data",
            "data": {PLOTLY_MIME: spec, "text/plain": f"<plotly figure: {title}>"},
            "metadata": {}}


def show_figure(out: W.Output, fig: go.Figure) -> None:
    """Replace what ``out`` shows by ``fig``."""
    out.outputs = (figure_output(fig),)


def mask_hidden_bids(coins: pd.DataFrame, game: Game, viewer: int | None) -> pd.DataFrame:
    """Hide where another player's face-down coins lie (FR "Mise secrète"), as the
    observer decides (:mod:`nidavellir.observer`).

    In the current round, other players' coins on taverns not yet revealed, and in a purse
    no trade has shown, show as :data:`HIDDEN_BID`: their values stay (a player's coins are
    public), their places do not. ``viewer=None`` hides nobody's (a teacher's view).
    """
    if viewer is None:
        return coins
    s = game.state
    observer = Observer(viewer)
    _, purse_known = observer.known_places(game.events)
    now = (coins["age"] == s.age) & (coins["round"] == s.round) & (coins["player"] != viewer)
    if not now.any():
        return coins
    hidden = [not observer.coin_place_visible(s, int(player), str(place),
                                              purse_known.get(int(player)) == ["*"])
              if is_now else False
              for player, place, is_now in zip(coins["player"], coins["place"], now,
                                               strict=True)]
    if not any(hidden):
        return coins
    out = coins.copy()
    out.loc[hidden, "place"] = HIDDEN_BID
    return out


ChartBuilder = Callable[[Timeline, pd.DataFrame], go.Figure]


def _coins_chart(tl: Timeline, coins: pd.DataFrame) -> go.Figure:
    return G.coin_economy(coins, tl.events_frame(), tl.treasury_frame())


def _ranks_chart(tl: Timeline, coins: pd.DataFrame) -> go.Figure:
    return G.class_ranks(tl.players_frame())


def _score_chart(tl: Timeline, coins: pd.DataFrame) -> go.Figure:
    return G.running_score(tl.players_frame())


def _heroes_chart(tl: Timeline, coins: pd.DataFrame) -> go.Figure:
    return G.hero_timeline(tl.events_frame(), names=tl.names)


#: The charts LiveCharts can show, by name.
CHARTS: dict[str, ChartBuilder] = {
    "coins": _coins_chart, "ranks": _ranks_chart, "score": _score_chart,
    "heroes": _heroes_chart,
}


class LiveCharts(W.VBox):
    """Coin economy and class ranks of a session's game, redrawn after every change.

    ``session`` is Session-like: it has a ``game`` and either a traitlets ``version``
    (observed) or an ``observers`` list of callables (appended to). ``charts`` names
    entries of :data:`CHARTS`. ``viewer`` (default: the session's ``viewer`` when it has
    one) decides whose unrevealed bids are hidden; pass ``hide_bids=False`` for a
    teacher's view.
    """

    def __init__(self, session: Any, charts: Sequence[str] = ("coins", "ranks"), *,
                 hide_bids: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        unknown = [c for c in charts if c not in CHARTS]
        if unknown:
            raise ValueError(f"unknown chart(s) {unknown}; known: {', '.join(CHARTS)}")
        self.add_class("nid-live-charts")
        self.session = session
        self.hide_bids = hide_bids
        self.timeline: Timeline | None = None
        self.outputs: dict[str, W.Output] = {name: W.Output() for name in charts}
        self.status = W.HTML()
        self.renders = 0
        """How many times the charts were drawn."""
        self.drawn_at: int | None = None
        """Decisions taken in the game as last drawn."""
        self.error: str | None = None
        self._busy = False
        self._dirty = False
        self.children = [self.status, *self.outputs.values()]
        if hasattr(session, "observe") and hasattr(session, "version"):
            session.observe(self._on_change, names="version")
        elif isinstance(getattr(session, "observers", None), list):
            session.observers.append(self._on_change)
        else:
            raise TypeError("the session needs a traitlets 'version' or an 'observers' list")
        self.refresh()

    def _on_change(self, *_: Any) -> None:
        if getattr(self.session, "thinking", "") and getattr(self.session, "bot_delay", 1) == 0:
            # The bots play with no pause between their moves, faster than a chart is
            # drawn (plotly, about 0.5 s, in the bots' thread): the charts are drawn once
            # the bots stop (the session's last change after they do), so that a game
            # between bots is not held up by charts nobody could watch.
            return
        if self._busy:
            self._dirty = True
            return
        self._busy = True
        try:
            while True:
                self._dirty = False
                self.refresh()
                if not self._dirty:
                    break
        finally:
            self._busy = False

    def _viewer(self) -> int | None:
        if not self.hide_bids:
            return None
        viewer = getattr(self.session, "viewer", None)
        return viewer if isinstance(viewer, int) else None

    def refresh(self) -> None:
        """Redraw every chart from the session's game as it is now."""
        game: Game = self.session.game
        try:
            if self.timeline is None:
                self.timeline = Timeline(game)
            else:
                self.timeline.sync(game)
            tl = self.timeline
            coins = mask_hidden_bids(tl.coins_frame(), game, self._viewer())
            for name, out in self.outputs.items():
                show_figure(out, CHARTS[name](tl, coins))
        except Exception as exc:  # a chart must never break the game panels
            self.error = f"{type(exc).__name__}: {exc}"
            self.status.value = ("<span class='nid-bad'>Charts failed: "
                                 f"{html.escape(self.error)}</span>")
            self.timeline = None
            return
        self.error = None
        self.renders += 1
        self.drawn_at = len(game.history)
        s = game.state
        # Translators: where the charts stand, inside "Charts after 12 decisions (…)".
        where = (_("game over") if game.is_over
                 else _("age {age}, round {round}").format(age=s.age, round=s.round))
        after = count(self.drawn_at, "Charts after {n} decision ({where})",
                      "Charts after {n} decisions ({where})", where=where)
        self.status.value = f"<span class='nid-muted'>{after}</span>"

    def figure(self, name: str) -> dict[str, Any]:
        """The plotly spec (data, layout, config) a chart shows now (for tests)."""
        outputs = self.outputs[name].outputs
        return outputs[0]["data"][PLOTLY_MIME] if outputs else {}


def add_live_charts(app: Any, charts: Sequence[str] = ("coins", "ranks"),
                    **kwargs: Any) -> LiveCharts:
    """Put LiveCharts of ``app.session`` into the play app's ``charts_box``."""
    live = LiveCharts(app.session, charts, **kwargs)
    app.charts_box.children = (*app.charts_box.children, live)
    return live


__all__ = ["CHARTS", "HIDDEN_BID", "LiveCharts", "add_live_charts", "PLOTLY_MIME", "figure_output",
           "mask_hidden_bids", "show_figure"]
