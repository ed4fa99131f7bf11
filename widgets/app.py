"""The play app: every panel of a game against bots in one widget.

>>> app = play_app(players=2, seats=["human", "random"], seed=1, bot_delay=0)
>>> app.session.decision.kind
'bid'
>>> app.charts_box.children
()
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as W

from nidavellir import Game

from .coach import Coach
from .panels import (
    DecisionPanel,
    GameFilePanel,
    LogPanel,
    NewGamePanel,
    PlayerBoards,
    ResultPanel,
    TableView,
)
from .session import HUMAN, Console, Session
from .style import css_widget


class PlayApp(W.VBox):
    """Table, decision controls, player boards, log and undo, new game, console.

    ``charts_box`` is an empty container for live charts (the analysis layer fills
    it); ``session.observers`` or ``session.observe(..., "version")`` tell it when
    to redraw.
    """

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-play-app")
        self.session = session
        self.console = session.console
        self.table = TableView(session)
        self.decision = DecisionPanel(session, layout=W.Layout(
            border="2px solid #f1c40f", padding="6px", margin="6px 0"))
        self.boards = PlayerBoards(session)
        self.log_panel = LogPanel(session)
        self.new_game = NewGamePanel(session)
        self.result = ResultPanel(session)
        self.files = GameFilePanel(session)
        self.coach = Coach(session)
        # One judgement: the coach's numbers go on the decision's buttons, and the Hint
        # compares its best move with what the player has selected.
        self.coach.listeners.append(self.decision.show_estimates)
        self.coach.selected = self.decision.selected_action
        self.decision.judgement_for = lambda: self.coach.judgement
        self.charts_box = W.VBox(layout=W.Layout(min_height="0px"))
        self.charts_box.add_class("nid-charts")
        self.viewer = W.Dropdown(description="View as", options=self._viewer_options(),
                                 value=session.viewer)
        self.viewer.observe(self._viewer_picked, "value")
        session.observe(lambda _c: self._sync_viewer(), "version")
        self.extras = W.Accordion(children=[self.log_panel, self.new_game])
        self.extras.set_title(0, "Log and undo")
        self.extras.set_title(1, "New game")
        self.extras.selected_index = 0
        # The decision to take (and any error about it) first, where the eye lands.
        left = W.VBox([self.decision, self.coach, self.console, self.result, self.files,
                       self.table],
                      layout=W.Layout(flex="1 1 520px", min_width="420px"))
        right = W.VBox([self.viewer, self.boards], layout=W.Layout(flex="1 1 460px"))
        self.children = [css_widget(), W.HBox([left, right],
                                              layout=W.Layout(flex_flow="row wrap")),
                         self.charts_box, self.extras]

    def _viewer_options(self) -> list[tuple[str, int]]:
        s = self.session
        return [(f"{n} ({k})", i) for i, (n, k) in enumerate(zip(s.game.names, s.seats,
                                                                   strict=True))]

    def _sync_viewer(self) -> None:
        options = self._viewer_options()
        if list(self.viewer.options) != options:
            self.viewer.options = options
        if self.viewer.value != self.session.viewer:
            self.viewer.value = self.session.viewer

    def _viewer_picked(self, change: dict[str, Any]) -> None:
        if change["new"] is not None and change["new"] != self.session.viewer:
            self.session.viewer = change["new"]

    @property
    def game(self) -> Game:
        return self.session.game


def play_app(players: int = 3, seats: Sequence[str] | None = None, seed: int = 0,
             names: Sequence[str] | None = None, expansions: Sequence[str] = (),
             first_game: bool = False, bot_delay: float = 0.5, **config: Any) -> PlayApp:
    """A PlayApp for a new game: seat 1 human, the others random bots by default.

    A game that cannot start (e.g. an expansion the engine does not play yet) is
    reported in the console, and a base game with the same seats starts instead.
    """
    cfg: dict[str, Any] = {
        "players": players, "seats": list(seats) if seats else [HUMAN] + ["random"] * (players - 1),
        "seed": seed, "names": list(names) if names else None, "expansions": list(expansions),
        "first_game": first_game, "bot_delay": bot_delay, **config,
    }
    console = Console()
    # A learner's game: forced moves played (and said), a summary at the end of each age.
    flow = {"auto_forced": bool(config.pop("auto_forced", True)),
            "age_summaries": bool(config.pop("age_summaries", True))}
    cfg = {k: v for k, v in cfg.items() if k not in flow}
    try:
        session = Session.from_config(cfg, console=console, **flow)
    except (ValueError, TypeError) as exc:
        fallback = dict(cfg, expansions=[])
        session = Session.from_config(fallback, console=console, **flow)
        console.error(f"cannot start the game asked for ({exc}); started a base game instead")
    return PlayApp(session)
