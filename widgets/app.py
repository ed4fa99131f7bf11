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
from nidavellir.i18n import _
from nidavellir.play.session import seat_label

from .coach import Coach
from .panels import (
    DecisionPanel,
    GameFilePanel,
    LogPanel,
    PlayerBoards,
    ResultPanel,
    SetupCard,
    StatusBar,
    TableView,
)
from .session import HUMAN, Console, MessageLog, Session
from .style import css_widget


class PlayApp(W.VBox):
    """A game as it reads at the table, top to bottom: who plays whom (and a new game), where
    the game stands and who is thinking; then the decision with the coach beside your own
    board, and the taverns with the other players' boards; the charts; the log and undo.

    ``charts_box`` is an empty container for live charts (the analysis layer fills
    it); ``session.observers`` or ``session.observe(..., "version")`` tell it when
    to redraw.
    """

    def __init__(self, session: Session, coach: dict[str, Any] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-play-app")
        self.session = session
        self.console = Console(session.console)
        """The session's messages, shown under the decision."""
        # The panels redraw on each move in the order they are made here, and the page
        # receives their changes in that order: first what happened (the status, the
        # table, the boards, the log, the result), then the coach drops what belonged to
        # the previous decision, and only then the next decision (with an end-of-age
        # summary before its options). The order is the code's, whatever the machine's
        # load (tests/test_learner.py records it).
        self.setup = SetupCard(session)
        self.status = StatusBar(session)
        self.table = TableView(session, show_status=False, split=True)
        self.boards = PlayerBoards(session, split=True)
        self.log_panel = LogPanel(session)
        self.new_game = self.setup.form
        self.result = ResultPanel(session)
        self.files = GameFilePanel(session)
        self.coach = Coach(session, **(coach or {}))
        self.decision = DecisionPanel(session, layout=W.Layout(
            border="2px solid #f1c40f", padding="6px", margin="0 0 6px 0"))
        # One judgement: the coach's numbers go on the decision's buttons, and the Hint
        # compares its best move with what the player has selected.
        self.coach.listeners.append(self.decision.show_estimates)
        self.coach.selected = self.decision.selected_action
        self.decision.judgement_for = lambda: self.coach.judgement
        self.decision.judgement_coming = lambda: self.coach.judging.ahead
        self.decision.rebuild()  # its first control drawn again, with the coach's place
        if self.coach.judgement is not None:
            # Judged before the listener was added (a position judged before, kept): the
            # buttons show it too.
            self.decision.show_estimates(self.coach.judgement)
        # A reviewed game is saved with its review (the download link is rebuilt).
        self.coach.on_reviewed.append(lambda _game, _frame: self.files.refresh())
        self.charts_box = W.VBox(layout=W.Layout(min_height="0px"))
        self.charts_box.add_class("nid-charts")
        self.viewer = W.Dropdown(description=_("View as"), options=self._viewer_options(),
                                 value=session.viewer)
        self.viewer.observe(self._viewer_picked, "value")
        session.observe(lambda _c: self._sync_viewer(), "version")
        self.viewer.add_class("nid-viewer")
        self.extras = W.Accordion(children=[self.log_panel])
        self.extras.set_title(0, _("Log and undo"))
        self.extras.selected_index = 0
        # The decision to take (and any error about it) first, where the eye lands, with
        # your own board under it; the taverns (what you choose from) beside it, then the
        # others' boards. At 1280 px the two columns sit side by side; narrower, they stack.
        left = W.VBox([self.decision, self.console, self.result, self.coach,
                       self.boards.own, self.files],
                      layout=W.Layout(flex="1 1 560px", min_width="0"))
        left.add_class("nid-play-left")
        right = W.VBox([self.table, self.boards.others, self.table.rest, self.viewer],
                       layout=W.Layout(flex="1 1 520px", min_width="0"))
        right.add_class("nid-play-right")
        columns = W.HBox([left, right], layout=W.Layout(flex_flow="row wrap",
                                                        grid_gap="12px"))
        self.children = [css_widget(), self.setup, self.status, columns, self.charts_box,
                         self.extras]

    def _viewer_options(self) -> list[tuple[str, int]]:
        s = self.session
        return [(seat_label(n, k), i)
                for i, (n, k) in enumerate(zip(s.game.names, s.seats, strict=True))]

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
    ``background=True``: the bots think in a thread, the page stays free meanwhile (the
    dashboard); ``app.session.wait()`` waits for them. ``coach={"level": ...}`` sets the
    coach's levels (:class:`widgets.coach.Coach`).

    A game that cannot start (e.g. an expansion the engine does not play yet) is
    reported in the console, and a base game with the same seats starts instead.
    """
    cfg: dict[str, Any] = {
        "players": players, "seats": list(seats) if seats else [HUMAN] + ["random"] * (players - 1),
        "seed": seed, "names": list(names) if names else None, "expansions": list(expansions),
        "first_game": first_game, "bot_delay": bot_delay, **config,
    }
    console = MessageLog()
    # A learner's game: forced moves played (and said), a summary at the end of each age.
    flow = {"auto_forced": bool(config.pop("auto_forced", True)),
            "age_summaries": bool(config.pop("age_summaries", True)),
            "background": bool(config.pop("background", False))}
    # The coach's levels (widgets.coach.Coach: level, deep_level, review_level).
    coach = dict(config.pop("coach", None) or {})
    cfg = {k: v for k, v in cfg.items() if k not in flow and k != "coach"}
    try:
        session = Session.from_config(cfg, console=console, **flow)
    except (ValueError, TypeError) as exc:
        fallback = dict(cfg, expansions=[])
        session = Session.from_config(fallback, console=console, **flow)
        # Translators: the console, when the game a page's address asks for cannot start.
        console.error(_("cannot start the game asked for ({reason}); started a base game "
                        "instead").format(reason=exc))
    return PlayApp(session, coach=coach)
