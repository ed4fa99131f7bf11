"""The dashboard: the lab's front door, one page with a tab per activity.

Tabs: **Walkthrough** (the guided rules lessons: the lab's three, then a teacher's own
from ``--lessons``), **Play** (a game against bots, with live charts), **Replay** (a
record stepped through with a slider), **What-if** (score every option of a decision, play
on from a branch and compare), **Probability lessons** (the lesson sequence, then the free
lab on the Play tab's game once it exists: :mod:`widgets.probability_lessons`).

Tabs other than the first are built the first time they are opened, so the page appears
quickly. Every error — a panel that fails to build, a failing button, a bad record —
shows in the console at the bottom of the page.

>>> dash = Dashboard(build_all=True)
>>> [dash.tabs.get_title(i) for i in range(len(TABS))]
['Walkthrough', 'Play', 'Replay', 'What-if', 'Probability lessons']
>>> dash.play.session.decision.kind
'bid'
"""

from __future__ import annotations

import html
import threading
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as W

from nidavellir import Game

from .app import PlayApp, play_app
from .console import guard, report_callback_errors
from .session import HUMAN, Console, Session
from .walkthrough import WalkthroughTab

if TYPE_CHECKING:  # pandas and plotly load when a tab that draws charts opens
    from .charts import LiveCharts
    from .replay import ReplayPanel

esc = html.escape

#: (key, title) of the tabs, in order.
TABS: tuple[tuple[str, str], ...] = (
    ("walkthrough", "Walkthrough"), ("play", "Play"), ("replay", "Replay"),
    ("whatif", "What-if"), ("lessons", "Probability lessons"),
)


#: The what-if judges: (label, judge). benchmarks/README.md measures how often each one
#: picks the move that ``expert`` picks, and at what cost.
JUDGES: tuple[tuple[str, str], ...] = (
    ("heuristic playouts (the search's playout policy)", "heuristic"),
    ("the search (hard), about 1 s", "hard"),
    ("random playouts", "random"),
    ("greedy playouts (slow)", "greedy"),
    ("the score change now only", "now"),
)
DEFAULT_JUDGE = "heuristic"
JUDGE_NOTES: dict[str, str] = {
    "heuristic": "Of the playout judges, the best per second (benchmarks/README.md).",
    "random": "Random play is a weak model of the rest of the game: it agrees with the "
              "expert less often (benchmarks/README.md).",
    "greedy": "Greedy playouts are slow (a greedy game costs ~100 random ones).",
}
READABLE = {"action": "option", "delta_total": "score change now",
            "score_total": "score after"}


def readable(column: str) -> str:
    """A what-if column as the table header shows it (``delta_warriors`` -> ``Warriors
    change now``)."""
    if column in READABLE:
        return READABLE[column]
    from nidavellir.scoring import CATEGORY_LABELS

    if column.startswith("delta_") and column[6:] in CATEGORY_LABELS:
        return f"{CATEGORY_LABELS[column[6:]]} change now"
    return column.replace("_", " ")


def _frame_html(frame: Any, float_format: str = "{:+.1f}") -> str:
    return frame.to_html(index=False, border=0, classes="nid-table-frame",
                         float_format=float_format.format)


class WhatIfPanel(W.VBox):
    """What-if studies: every option of the Play game's decision scored, and branches
    (from the Replay tab or the Play game) played on hot-seat and compared with the
    original game."""

    def __init__(self, console: Console, play_game: Callable[[], Game | None],
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-whatif")
        self.console = console
        self.play_game = play_game
        intro = W.HTML(
            "<div style='font:14px sans-serif'><b>What if…?</b> Score every option of the "
            "decision on the table in the Play tab (the immediate change of the score sheet), "
            "or branch a game — here from the Play tab, or from any decision in the Replay "
            "tab — and play it on differently, every seat by hand, then compare.</div>")
        self.study_button = W.Button(description="Score the Play game's options",
                                     layout=W.Layout(width="auto"))
        self.study_button.add_class("nid-whatif-study")
        self.study_button.on_click(guard(console, lambda _b: self.study(), "what-if"))
        self.branch_play = W.Button(description="Branch the Play game here",
                                    layout=W.Layout(width="auto"))
        self.branch_play.add_class("nid-whatif-branch-play")
        self.branch_play.on_click(guard(console, lambda _b: self.branch_from_play(), "what-if"))
        self.judge = W.Dropdown(options=list(JUDGES), value=DEFAULT_JUDGE,
                                description="Estimate by", style={"description_width": "initial"},
                                layout=W.Layout(width="420px"))
        self.judge.add_class("nid-whatif-judge")
        self.playouts = W.BoundedIntText(value=20, min=1, max=500, description="playouts",
                                         layout=W.Layout(width="160px"))
        self.status = W.HTML()
        self.status.add_class("nid-whatif-status")
        self._thread: threading.Thread | None = None
        self._request = 0
        self.table = W.HTML()
        self.table.add_class("nid-whatif-table")
        self.branch_title = W.HTML()
        self.compare_button = W.Button(description="Compare with the original",
                                       layout=W.Layout(width="auto"))
        self.compare_button.add_class("nid-whatif-compare")
        self.compare_button.on_click(guard(console, lambda _b: self.compare(), "what-if"))
        self.compare_button.layout.display = "none"
        self.comparison = W.HTML()
        self.comparison.add_class("nid-whatif-comparison")
        self.branch_box = W.VBox()
        self.branch_box.add_class("nid-whatif-branch")
        self.original: Game | None = None
        self.branch_app: PlayApp | None = None
        self.children = [intro, W.HBox([self.judge, self.playouts],
                                       layout=W.Layout(flex_flow="row wrap")),
                         W.HBox([self.study_button, self.branch_play]), self.status, self.table,
                         self.branch_title, self.compare_button, self.comparison,
                         self.branch_box]

    def study(self, game: Game | None = None) -> bool:
        """Score every option of the decision with the chosen judge. The immediate change
        is instant; playouts and the search run in the background ("thinking…"), and a
        result for an older request is dropped."""
        game = game if game is not None else self.play_game()
        if game is None or game.decision is None:
            why = ("open the Play tab and start a game first" if game is None else
                   "the Play game is over: there is no decision left to study. Start a new "
                   "game in the Play tab, or branch a decision from the Replay tab")
            self._say(f"Nothing to score: {why}.")
            self.console.error(f"what-if: nothing to score: {why}")
            return False
        judge = self.judge.value
        playouts = int(self.playouts.value)
        position = game.clone()
        self._request += 1
        request = self._request
        if judge == "now":
            self._show(request, position, judge, playouts)
            return True
        self.status.value = "<i>thinking…</i>"
        self._thread = threading.Thread(
            target=self._show_guarded, args=(request, position, judge, playouts), daemon=True)
        self._thread.start()
        return True

    def _say(self, message: str) -> None:
        self.status.value = (f"<div class='nid-error' style='color:#c0392b;font:13px "
                             f"sans-serif'>⚠ {esc(message)}</div>")

    def wait(self, timeout: float = 300.0) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def _show_guarded(self, *args: Any) -> None:
        try:
            self._show(*args)
        except Exception as exc:
            self.status.value = ""
            self.console.error(f"what-if: {exc}")

    def _show(self, request: int, game: Game, judge: str, playouts: int) -> None:
        from nidavellir.analysis.whatif import what_if

        d = game.decision
        assert d is not None
        head = (f"<div style='font:13px sans-serif'><b>{esc(game.names[d.player])}</b>: "
                f"{esc(d.prompt)}</div>")
        if judge == "hard":
            from nidavellir.bots import make_bot

            analysis = make_bot("hard", seed=request).analyse(game, seed=request)
            rows = [{"option": str(a.action), "expected final score": a.score,
                     "± (se)": a.score_se, "win chance": a.win, "margin": a.margin,
                     "visits": a.visits} for a in analysis.actions]
            import pandas as pd

            frame = pd.DataFrame(rows)
            note = (f"The search ({analysis.iterations} iterations from what this player can "
                    "know) plays the rest of the game for every seat; the expected final score "
                    "and win chance of each option, most visited (best) first.")
        elif judge == "now":
            frame = what_if(game)
            cols = ["action", "delta_total", "score_total"] + [
                c for c in frame.columns if c.startswith("delta_") and c != "delta_total"
                and frame[c].any()]
            frame = frame[cols].sort_values("delta_total", ascending=False)
            frame.columns = [readable(c) for c in frame.columns]
            note = ("The change of the score sheet right now; what only pays later (lines, "
                    "majorities, coins to come) is not counted.")
        else:
            frame = what_if(game, playouts=playouts, bot=judge, seed=request)
            frame = frame[["action", "final_mean", "final_se", "win_rate", "margin_mean",
                           "delta_total"]].sort_values("final_mean", ascending=False)
            frame.columns = ["option", "expected final score", "± (se)", "win chance",
                             "margin", "score change now"]
            note = (f"Each option played to the end {playouts} times by {judge} bots, from what "
                    "this player can know (the unseen cards and others' face-down bids dealt "
                    "anew each time); ± is the standard error of the mean. "
                    f"{JUDGE_NOTES.get(judge, '')}")
        if request != self._request:
            return  # a newer study was asked for
        self.status.value = ""
        self.table.value = (head + f"<div style='font:12px sans-serif;color:#555'>{esc(note)}"
                            "</div>" + _frame_html(frame, "{:+.1f}"))

    def branch_from_play(self) -> bool:
        game = self.play_game()
        if game is None or game.is_over:
            why = ("open the Play tab first" if game is None else
                   "the Play game is over: branch an earlier decision from the Replay tab")
            self._say(f"No game to branch: {why}.")
            self.console.error(f"what-if: no game to branch: {why}")
            return False
        self.open_branch(game.clone(), game.clone(), len(game.history))
        return True

    def open_branch(self, game: Game, original: Game, index: int) -> PlayApp:
        """Play ``game`` on, every seat human; ``original`` is what it is compared with."""
        self.original = original
        session = Session(game, [HUMAN] * game.config.players, console=Console())
        app = PlayApp(session)
        from .charts import LiveCharts

        app.charts_box.children = [LiveCharts(session, ("score",), hide_bids=False)]
        old = self.branch_app
        self.branch_app = app
        self.branch_box.children = [app]
        if old is not None:
            old.close()
        self.branch_title.value = (f"<div style='font:bold 14px sans-serif;margin-top:8px'>"
                                   f"Branch at decision {index}: every seat is yours "
                                   f"(hot seat)</div>")
        self.compare_button.layout.display = ""
        self.comparison.value = ""
        return app

    def compare(self) -> bool:
        from nidavellir.analysis.whatif import compare

        if self.original is None or self.branch_app is None:
            self.console.error("what-if: branch a game first")
            return False
        branch = self.branch_app.session.game
        if not branch.is_over or not self.original.is_over:
            unfinished = "The branch" if not branch.is_over else "The original game"
            game = branch if not branch.is_over else self.original
            self.comparison.value = (
                f"<div class='nid-error' style='color:#c0392b;font:13px sans-serif'>⚠ "
                f"{unfinished} is not finished (age {game.state.age}, round {game.state.round})"
                f": final scores can only be compared once both games are over. Play the "
                f"branch to the end, then compare again.</div>")
            return False
        frame = compare(self.original, branch, labels=("original", "branch"))
        self.comparison.value = frame.to_html(border=0, classes="nid-table-frame")
        return True


def lessons_panel(session: Any = None, console: Console | None = None) -> W.Widget:
    """The probability lessons (files: the lab's and a teacher's, ``--lessons``), then the
    free lab; with the Play tab's session the lab's questions can use the game being
    played ("Use the current game"). In class mode the answers go to the class view."""
    from .probability_lessons import ProbabilityLessonsTab

    return ProbabilityLessonsTab(session, console=console)


class Dashboard(W.VBox):
    """The dashboard: tabs built on first opening, and the page console."""

    def __init__(self, players: int = 3, seats: tuple[str, ...] = (HUMAN, "greedy", "random"),
                 seed: int = 7, bot_delay: float = 0.3, build_all: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-dashboard")
        self.console = Console(limit=12)
        self.console.add_class("nid-dashboard-console")
        self.restore_errors = report_callback_errors(self.console)
        self.play_config = {"players": players, "seats": list(seats), "seed": seed,
                            "bot_delay": bot_delay}
        self.walkthrough: WalkthroughTab | None = None
        self.play: PlayApp | None = None
        self.play_charts: LiveCharts | None = None
        self.replay: ReplayPanel | None = None
        self.whatif: WhatIfPanel | None = None
        self.lessons: W.Widget | None = None
        self.boxes: dict[str, W.VBox] = {}
        for key, _title in TABS:
            box = W.VBox([W.HTML("<i>loading…</i>")])
            box.add_class(f"nid-tab-{key}")
            self.boxes[key] = box
        self.tabs = W.Tab(children=list(self.boxes.values()))
        self.tabs.add_class("nid-tabs")
        for i, (_key, title) in enumerate(TABS):
            self.tabs.set_title(i, title)
        self.tabs.observe(lambda c: self.open_tab(TABS[c["new"]][0])
                          if c["new"] is not None else None, "selected_index")
        header = W.HTML("<div style='font:bold 20px sans-serif;margin:4px 0'>Nidavellir lab</div>"
                        "<div style='font:13px sans-serif;color:#555'>Learn the rules step by "
                        "step, play against the computer, replay and question recorded "
                        "games.</div>")
        self.children = [header, self.tabs, W.HTML("<b style='font:12px sans-serif'>Console"
                                                   "</b>"), self.console]
        self.tabs.selected_index = 0
        self.open_tab("walkthrough")
        if build_all:
            for key, _title in TABS:
                self.open_tab(key)

    # ------------------------------------------------------------------ tabs

    def select(self, key: str) -> None:
        self.tabs.selected_index = [k for k, _ in TABS].index(key)

    def open_tab(self, key: str) -> None:
        """Build the tab's panel if it is not built yet; a failure shows in the console."""
        box = self.boxes[key]
        if getattr(box, "_built", False):
            return
        box._built = True  # type: ignore[attr-defined]
        try:
            panel = getattr(self, f"_build_{key}")()
        except Exception as exc:
            box._built = False  # type: ignore[attr-defined]
            self.console.error(f"the {key} tab failed to open: {type(exc).__name__}: {exc}\n"
                               + traceback.format_exc(limit=4))
            box.children = [W.HTML(f"<div style='color:#c0392b'>This tab failed to open: "
                                   f"{esc(str(exc))} (see the console below).</div>")]
            return
        box.children = [panel]

    def _build_walkthrough(self) -> W.Widget:
        self.walkthrough = WalkthroughTab(console=self.console)
        return self.walkthrough

    def _build_play(self) -> W.Widget:
        app = play_app(**self.play_config)
        app.console.add_class("nid-play-console")
        from .charts import LiveCharts

        self.play_charts = LiveCharts(app.session, ("coins", "ranks"))
        app.charts_box.children = [self.play_charts]
        app.coach.on_open_replay = self.open_review
        app.files.on_open_replay = self.open_game
        self.play = app
        return app

    def open_game(self, game: Game) -> None:
        """The Replay tab with a game of the Play tab (Open in Replay)."""
        self.select("replay")
        self.open_tab("replay")
        assert self.replay is not None
        self.replay.load_game(game, "your game")

    def open_review(self, game: Game, review: Any, step: int) -> None:
        """The Replay tab at decision ``step`` of a reviewed game (the coach's mistakes);
        the slider shows the position after that decision with its annotation."""
        self.select("replay")
        self.open_tab("replay")
        assert self.replay is not None
        self.replay.load_game(game, "your game (reviewed)", review, step=step + 1)

    def _build_replay(self) -> W.Widget:
        from .replay import ReplayPanel

        self.replay = ReplayPanel(console=self.console, on_branch=self._branched)
        return self.replay

    def _build_whatif(self) -> W.Widget:
        self.whatif = WhatIfPanel(self.console, lambda: self.play.session.game
                                  if self.play is not None else None)
        return self.whatif

    def _build_lessons(self) -> W.Widget:
        self.lessons = lessons_panel(self.play.session if self.play is not None else None,
                                     self.console)
        return self.lessons

    def _branched(self, game: Game, original: Game, index: int) -> None:
        self.open_tab("whatif")
        assert self.whatif is not None
        self.whatif.open_branch(game, original, index)
        self.select("whatif")


def dashboard(**kwargs: Any) -> Dashboard:
    """The lab's dashboard (``make run`` serves notebooks/dashboard.ipynb, which shows it)."""
    return Dashboard(**kwargs)


__all__ = ["Dashboard", "TABS", "WhatIfPanel", "dashboard", "lessons_panel"]
