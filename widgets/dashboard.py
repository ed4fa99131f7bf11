"""The dashboard: the lab's front door, one page with a tab per activity.

Tabs: **Walkthrough** (the guided rules lessons: the lab's three, then a teacher's own
from ``--lessons``), **Play** (a game against bots, with live charts), **Replay** (a
record stepped through with a slider), **What-if** (score every option of a decision, play
on from a branch and compare), **Probability lessons** (the lesson sequence, then the free
lab on the Play tab's game once it exists: :mod:`widgets.probability_lessons`),
**Puzzles** (find the best move in positions from real games, rated:
:mod:`widgets.puzzles`).

Tabs other than the first are built the first time they are opened, so the page appears
quickly. Every error — a panel that fails to build, a failing button, a bad record —
shows in the console at the bottom of the page.

>>> dash = Dashboard(build_all=True)
>>> [dash.tabs.get_title(i) for i in range(len(TABS))]
['Walkthrough', 'Play', 'Replay', 'What-if', 'Probability lessons', 'Puzzles']
>>> dash.play.session.decision.kind
'bid'
"""

from __future__ import annotations

import html
import os
import threading
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as W

from nidavellir import Game
from nidavellir.classroom import class_store
from nidavellir.i18n import (
    N_,
    _,
    labelled,
    number,
    percent,
    percent_with_sign,
    pgettext,
    with_sign,
)
from nidavellir.play.runner import Workers

from .app import PlayApp, play_app
from .classroom import ClassLink
from .console import guard, report_callback_errors
from .session import HUMAN, Console, Session
from .style import css_widget
from .walkthrough import WalkthroughTab

if TYPE_CHECKING:  # pandas and plotly load when a tab that draws charts opens
    from .charts import LiveCharts
    from .puzzles import PuzzlesTab
    from .replay import ReplayPanel

esc = html.escape

#: (key, title) of the tabs, in order.
TABS: tuple[tuple[str, str], ...] = (
    ("walkthrough", N_("Walkthrough")), ("play", N_("Play")), ("replay", N_("Replay")),
    ("whatif", N_("What-if")), ("lessons", N_("Probability lessons")),
    ("puzzles", N_("Puzzles")),
)


#: The What-if levels: (label, the coach's level). The default is the Hint's level: the
#: same position gives the same judgement in both.
WHATIF_LEVELS: tuple[tuple[str, str], ...] = (
    (N_("the coach (a second or two)"), "coach"),
    (N_("a quick look (under 1 s)"), "quick"),
    (N_("think longer (a few seconds)"), "deep"),
)
DEFAULT_WHATIF_LEVEL = "coach"


class WhatIfPanel(W.VBox):
    """What-if studies: every option of the Play game's decision scored, and branches
    (from the Replay tab or the Play game) played on hot-seat and compared with the
    original game."""

    def __init__(self, console: Console, play_game: Callable[[], Game | None],
                 coach: dict[str, Any] | None = None, charts: bool = True,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-whatif")
        self.console = console
        self.play_game = play_game
        self.coach_config = dict(coach or {})
        """The branch's coach (its levels, as the Play tab's: widgets.coach.Coach)."""
        self.charts = charts
        """The branch's live chart of the scores (False: none, as the dashboard's)."""
        intro = W.HTML(
            "<div class='nid-text'><b>" + esc(_("What if…?")) + "</b> "
            + esc(_("Score every option of the decision on the table in the Play tab (the "
                    "immediate change of the score sheet), or branch a game — here from the "
                    "Play tab, or from any decision in the Replay tab — and play it on "
                    "differently, every seat by hand, then compare.")) + "</div>")
        self.study_button = W.Button(description=_("Score the Play game's options"),
                                     layout=W.Layout(width="auto"))
        self.study_button.add_class("nid-whatif-study")
        self.study_button.on_click(guard(console, lambda _b: self.study(), "what-if"))
        self.branch_play = W.Button(description=_("Branch the Play game here"),
                                    layout=W.Layout(width="auto"))
        self.branch_play.add_class("nid-whatif-branch-play")
        self.branch_play.on_click(guard(console, lambda _b: self.branch_from_play(), "what-if"))
        self.level = W.Dropdown(options=[(_(label), v) for label, v in WHATIF_LEVELS],
                                value=DEFAULT_WHATIF_LEVEL, description=_("Judged by"),
                                layout=W.Layout(width="340px"))
        self.level.add_class("nid-whatif-level")
        self.level.add_class("nid-label-fit")
        self.advanced = W.Checkbox(value=False, description=_("more columns (for analysts)"),
                                   indent=False, layout=W.Layout(width="auto"))
        self.advanced.add_class("nid-whatif-advanced")
        self.advanced.observe(lambda _c: self._redraw(), "value")
        self.progress = W.FloatProgress(value=0.0, min=0.0, max=1.0,
                                        layout=W.Layout(width="160px", display="none"))
        self.progress.add_class("nid-whatif-progress")
        self._last: tuple[Game, Any] | None = None
        self.status = W.HTML()
        self.status.add_class("nid-whatif-status")
        self._workers = Workers("nidavellir-whatif", on_error=self._failed)
        self._request = 0
        """The latest study asked for: a result for an older one is dropped."""
        self._lock = threading.Lock()
        """Held while the request changes or a result is shown (the workers' side)."""
        self.table = W.HTML()
        self.table.add_class("nid-whatif-table")
        self.branch_title = W.HTML()
        self.compare_button = W.Button(description=_("Compare with the original"),
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
        self.children = [intro, W.HBox([self.level, self.advanced, self.progress],
                                       layout=W.Layout(flex_flow="row wrap",
                                                       align_items="center")),
                         W.HBox([self.study_button, self.branch_play]), self.status, self.table,
                         self.branch_title, self.compare_button, self.comparison,
                         self.branch_box]

    def study(self, game: Game | None = None) -> bool:
        """Judge every option of the decision with the coach (in the background, its
        progress shown); a result for an older request is dropped."""
        game = game if game is not None else self.play_game()
        if game is None or game.decision is None:
            why = (_("open the Play tab and start a game first") if game is None else
                   _("the Play game is over: there is no decision left to study. Start a new "
                     "game in the Play tab, or branch a decision from the Replay tab"))
            self._say(_("Nothing to score: {why}.").format(why=why))
            return False
        level = self.level.value
        position = game.clone()
        with self._lock:
            self._request += 1
            request = self._request
            self.status.value = "<i>" + esc(_("thinking…")) + "</i>"
            self.table.value = ""
            self.progress.value = 0.0
            self.progress.layout.display = ""
        self._workers.run(lambda: self._show(request, position, level))
        return True

    def clear(self) -> None:
        """Forget the last study (a new game in the Play tab: nothing of the old one stays)."""
        with self._lock:
            self._request += 1
            self._last = None
            self.status.value = ""
            self.table.value = ""
            self.progress.layout.display = "none"
            self.remove_class("nid-whatif-past")

    def follow(self, game: Game) -> None:
        """The Play game moved (a move, an undo): a study of another decision is marked as
        such, in words above its table, until the learner studies again."""
        if self._last is None:
            return
        studied = self._last[0]
        if studied.history == game.history:
            self.remove_class("nid-whatif-past")
            self.status.value = ""
            return
        self.add_class("nid-whatif-past")
        self.status.value = (
            "<div class='nid-whatif-past-note'>"
            + esc(_("This study is of decision {studied}; the Play game is now at decision "
                    "{now}. Score the Play game's options again for the current one.").format(
                        studied=len(studied.history) + 1, now=len(game.history) + 1))
            + "</div>")

    def _say(self, message: str) -> None:
        self.status.value = (f"<div class='nid-error'>⚠ {esc(message)}</div>")

    def wait(self, timeout: float = 300.0) -> None:
        """Wait for the studies under way (tests, notebooks)."""
        self._workers.wait(timeout)

    def _failed(self, exc: BaseException) -> None:
        with self._lock:
            self.status.value = ""
            self.progress.layout.display = "none"
        self.console.error(f"what-if: {exc}")

    def _show(self, request: int, game: Game, level: str) -> None:
        from nidavellir.analysis.whatif import what_if

        def progress(done: float, total: float, what: str) -> None:
            with self._lock:
                if request == self._request:
                    self.progress.value = done / total if total else 1.0
                    # Translators: the What-if's progress; {what} says what is being judged.
                    self.status.value = "<i>" + esc(_("thinking… {what}").format(
                        what=what)) + "</i>"

        from nidavellir.bots.judge import fineness, finest, judge

        judgement = judge(game, level=level, progress=progress)
        # One judgement per position: a finer one made for the Hint (Think longer) is shown.
        finer = finest(game)
        if finer is not None and fineness(finer.level) > fineness(judgement.level):
            judgement = finer
        frame = what_if(game, judgement=judgement)
        with self._lock:
            if request != self._request:
                return  # a newer study was asked for
            self._last = (game, (frame, judgement))
            self.progress.layout.display = "none"
            self.status.value = ""
            self.remove_class("nid-whatif-past")
            self._redraw()

    def refined(self, judgement: Any) -> None:
        """The Play tab's coach judged the position this table studies more finely: the
        table shows that judgement (every surface shows the same one)."""
        from nidavellir.analysis.whatif import what_if
        from nidavellir.bots.judge import fineness, knowledge_key

        with self._lock:
            last = self._last
        if last is None:
            return
        game, (_, shown) = last
        if game.decision is None or fineness(judgement.level) <= fineness(shown.level):
            return
        if knowledge_key(game, judgement.level) != judgement.key:
            return  # another position
        frame = what_if(game, judgement=judgement)
        with self._lock:
            if self._last is not last:
                return  # another study came meanwhile
            self._last = (game, (frame, judgement))
            self._redraw()

    def _redraw(self) -> None:
        if self._last is None:
            return
        game, (frame, judgement) = self._last
        self.table.value = whatif_html(game, frame, judgement, advanced=self.advanced.value)

    def branch_from_play(self) -> bool:
        game = self.play_game()
        if game is None or game.is_over:
            why = (_("open the Play tab first") if game is None else
                   _("the Play game is over: branch an earlier decision from the Replay tab"))
            # Translators: the What-if's branch button found no game; {why} says what to do.
            said = _("No game to branch: {why}.").format(why=why)
            self._say(said)
            self.console.error(f"what-if: {said}")
            return False
        self.open_branch(game.clone(), game.clone(), len(game.history))
        return True

    def open_branch(self, game: Game, original: Game, index: int) -> PlayApp:
        """Play ``game`` on, every seat human; ``original`` is what it is compared with."""
        self.original = original
        session = Session(game, [HUMAN] * game.config.players)
        app = PlayApp(session, coach=self.coach_config)
        if self.charts:
            from .charts import LiveCharts

            app.charts_box.children = [LiveCharts(session, ("score",), hide_bids=False)]
        old = self.branch_app
        self.branch_app = app
        self.branch_box.children = [app]
        if old is not None:
            old.close()
        # Translators: above a What-if branch: every seat is played from this page.
        # The decision about to be taken, numbered as the review and Replay number it.
        said = _("Branch at decision {index}: every seat is yours (hot seat)").format(
            index=index + 1)
        self.branch_title.value = f"<div class='nid-branch-title'>{html.escape(said)}</div>"
        self.compare_button.layout.display = ""
        self.comparison.value = ""
        return app

    def compare(self) -> bool:
        from nidavellir.analysis.whatif import compare

        if self.original is None or self.branch_app is None:
            self.console.error("what-if: " + _("branch a game first"))
            return False
        branch = self.branch_app.session.game
        if not branch.is_over or not self.original.is_over:
            game = branch if not branch.is_over else self.original
            # Translators: What-if's comparison of a branch with the original game, before
            # both are over ({age}, {round}: where the unfinished one is).
            said = (_("The branch is not finished (age {age}, round {round})")
                    if not branch.is_over else
                    _("The original game is not finished (age {age}, round {round})")).format(
                age=game.state.age, round=game.state.round)
            said += ": " + _("final scores can only be compared once both games are over. "
                             "Play the branch to the end, then compare again.")
            self.comparison.value = f"<div class='nid-error'>⚠ {esc(said)}</div>"
            return False
        frame = compare(self.original, branch, labels=("original", "branch"))
        self.comparison.value = comparison_html(frame)
        return True


def comparison_html(frame: Any) -> str:
    """What-if's two score sheets side by side (:func:`nidavellir.analysis.whatif.compare`)
    in the page's language: the score sheet's lines, each player's original, branch and
    change."""
    import pandas as pd

    from nidavellir.names import score_line

    # Translators: the column heads of What-if's comparison of two finished games: each
    # player's score in the original game, in the branch, and the change.
    games = {"original": pgettext("What-if's comparison", "original"),
             "branch": pgettext("What-if's comparison", "branch"),
             "change": pgettext("What-if's comparison", "change")}
    shown = frame.copy()
    shown.index = [str(score_line(label)) for label in frame.index]
    shown.columns = pd.MultiIndex.from_tuples(
        [(player, games[game]) for player, game in frame.columns],
        names=[pgettext("What-if's comparison", "player"),
               pgettext("What-if's comparison", "game")])
    return str(shown.to_html(border=0, classes="nid-table-frame"))


def whatif_html(game: Game, frame: Any, judgement: Any, advanced: bool = False) -> str:
    """The What-if table in words: every option in the coach's order (the recommended first,
    the chance to win first), with the change now, the expected final score and how sure,
    the options about as good as the best starred; one sentence says what the numbers are."""
    d = game.decision
    assert d is not None
    name = game.names[d.player]
    head = f"<div class='nid-whatif-head'>{labelled(f'<b>{esc(name)}</b>', esc(d.prompt))}</div>"
    if judgement.exact:
        sentence = esc(_("Exact: nothing hidden or random is left, so the coach played every "
                         "option to the end with every player choosing what is best for "
                         "itself. Best first: by the chance to win, then the final score."))
    else:
        # Translators: above the What-if table; {name} is the deciding seat, {iterations}
        # and {playouts} numbers; ★ marks the rows about as good as the best.
        sentence = esc(_(
            "The coach judged every option from what {name} can know: a search of "
            "{iterations} games, then every option played to the end on the same {playouts} "
            "deals (the unseen cards and the others' face-down bids dealt anew for each "
            "deal, the same for every option). Best first: by the chance to win, then the "
            "expected final score; ± says how far a figure may be off (one standard "
            "error); ★ marks the options whose difference from the best is within the "
            "noise.").format(name=name, iterations=number(judgement.iterations),
                             playouts=number(judgement.playouts)))
    # Translators: the What-if table's column heads.
    cols = [pgettext("the What-if table", "option"), pgettext("the What-if table", "now"),
            pgettext("the What-if table", "chance to win"),
            pgettext("the What-if table", "expected final score")]
    if advanced:
        cols += [pgettext("the What-if table", "if the game ended now"),
                 pgettext("the What-if table", "ranked by: chance to win less the best's"),
                 pgettext("the What-if table", "margin over the best opponent"),
                 pgettext("the What-if table", "search's value"),
                 pgettext("the What-if table", "games")]
    rows = []
    many = len(judgement.options) > 1
    for o in judgement.options:
        r = frame[frame["action"] == str(o.action)].iloc[0]
        star = "★ " if o.about_best and many else ""
        # Translators: after a What-if option, the moves with the same result.
        same = (" <span class='nid-whatif-same'>"
                + esc(_("(the same as {moves})").format(moves=r["equivalent"])) + "</span>"
                if r["equivalent"] else "")
        if judgement.exact:
            win, score = percent(o.win), number(o.score)
        else:
            win = f"{percent(o.win)} ± {percent(o.win_se)}"
            score = f"{number(o.score, 1)} ± {number(o.score_se, 1)}"
        cells = [f"{star}{esc(str(o.action))}{same}", with_sign(int(r["delta_total"])), win,
                 score]
        if advanced:
            gap = ("—" if o is judgement.options[0] else
                   f"{percent_with_sign(-o.win_gap.value, 1)} ± {percent(o.win_gap.se, 1)}")
            cells += [with_sign(int(r["if_ended"])), gap, with_sign(o.margin, 1),
                      number(o.value, 3), number(o.estimate.n)]
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    table = ("<table class='nid-table-frame nid-whatif-judged'><thead><tr>"
             + "".join(f"<th>{esc(c)}</th>" for c in cols) + "</tr></thead><tbody>"
             + "".join(rows) + "</tbody></table>")
    why = ""
    if many:
        why = f"<div class='nid-whatif-why'>{esc(judgement.compare().text())}</div>"
    return head + f"<div class='nid-whatif-note'>{sentence}</div>" + table + why


def lessons_panel(session: Any = None, console: Console | None = None,
                  link: ClassLink | None = None) -> W.Widget:
    """The probability lessons (files: the lab's and a teacher's, ``--lessons``), then the
    free lab; with the Play tab's session the lab's questions can use the game being
    played ("Use the current game"). In class mode the answers go to the class view."""
    from .probability_lessons import ProbabilityLessonsTab

    return ProbabilityLessonsTab(session, console=console, link=link)


#: The environment variable that leaves the Play tab's live charts out of every dashboard
#: of a server (``0``; ``python -m nidavellir.serve --live-charts off``: docs/serving.md).
CHARTS_VARIABLE = "NIDAVELLIR_LIVE_CHARTS"


def live_charts() -> bool:
    """Whether the dashboards draw the Play tab's live charts (:data:`CHARTS_VARIABLE`:
    ``0``, ``no``, ``off`` or ``false`` for none; anything else, or nothing, yes)."""
    return os.environ.get(CHARTS_VARIABLE, "").strip().lower() not in ("0", "no", "off",
                                                                       "false")


class Dashboard(W.VBox):
    """The dashboard: tabs built on first opening, and the page console."""

    def __init__(self, players: int = 3, seats: tuple[str, ...] = (HUMAN, "greedy", "random"),
                 seed: int = 7, bot_delay: float = 0.3, build_all: bool = False,
                 background: bool = False, coach: dict[str, Any] | None = None,
                 charts: bool | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-dashboard")
        self.charts = live_charts() if charts is None else charts
        """The live charts of the Play and Replay tabs and of What-if's branch (the coin
        economy, the class ranks, the scores: redrawn after every move, about half a second
        of the server's CPU each time); False leaves them out. By default as the server
        says (:data:`CHARTS_VARIABLE`: a class server may leave them out,
        ``--live-charts off``)."""
        self.console = Console(limit=12)
        self.console.add_class("nid-dashboard-console")
        self.restore_errors = report_callback_errors(self.console)
        self.play_config: dict[str, Any] = {
            "players": players, "seats": list(seats), "seed": seed, "bot_delay": bot_delay,
            "background": background, "coach": dict(coach or {})}
        self.walkthrough: WalkthroughTab | None = None
        self.play: PlayApp | None = None
        self.play_charts: LiveCharts | None = None
        self.replay: ReplayPanel | None = None
        self.whatif: WhatIfPanel | None = None
        self.lessons: W.Widget | None = None
        self.puzzles: PuzzlesTab | None = None
        #: In class mode, the student's link to the class (made with the page, so that a
        #: page that comes back after its kernel died finds its tab, lesson and step).
        self.link: ClassLink | None = (ClassLink(banner=False) if class_store() is not None
                                       else None)
        self.boxes: dict[str, W.VBox] = {}
        for key, _title in TABS:
            box = W.VBox([W.HTML("<i>" + esc(_("loading…")) + "</i>")])
            box.add_class(f"nid-tab-{key}")
            self.boxes[key] = box
        self.tabs = W.Tab(children=list(self.boxes.values()))
        self.tabs.add_class("nid-tabs")
        for i, (_key, title) in enumerate(TABS):
            self.tabs.set_title(i, _(title))
        self.tabs.observe(lambda c: self.open_tab(TABS[c["new"]][0])
                          if c["new"] is not None else None, "selected_index")
        header = W.HTML("<div class='nid-lab-title'>" + esc(_("Nidavellir lab")) + "</div>"
                        "<div class='nid-lab-subtitle'>"
                        + esc(_("Learn the rules step by step, play against the computer, "
                                "replay and question recorded games.")) + "</div>")
        self.children = [css_widget(), header,
                         *([self.link.teacher] if self.link is not None else []), self.tabs,
                         W.HTML("<b class='nid-console-title'>" + esc(_("Console")) + "</b>"),
                         self.console]
        self.tabs.selected_index = 0
        self.open_tab("walkthrough")
        if self.link is not None:
            link = self.link
            self.tabs.observe(lambda c: link.set_place(tab=TABS[c["new"]][0])
                              if c["new"] is not None else None, "selected_index")
            link.on_place(self._restore_tab)
        if build_all:
            for key, _title in TABS:
                self.open_tab(key)

    # ------------------------------------------------------------------ tabs

    def _restore_tab(self, place: dict[str, Any]) -> None:
        """The tab the student was on before their page came back."""
        if place.get("tab") in self.boxes:
            self.select(place["tab"])
            self.open_tab(place["tab"])

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
            failed = _("This tab failed to open: {error} (see the console below).").format(
                error=exc)
            box.children = [W.HTML(f"<div class='nid-bad'>{esc(failed)}</div>")]
            return
        box.children = [panel]

    def _build_walkthrough(self) -> W.Widget:
        self.walkthrough = WalkthroughTab(console=self.console)
        return self.walkthrough

    def _build_play(self) -> W.Widget:
        app = play_app(**self.play_config)
        app.console.add_class("nid-play-console")
        if self.charts:
            from .charts import LiveCharts

            self.play_charts = LiveCharts(app.session, ("coins", "ranks"))
            app.charts_box.children = [self.play_charts]
        app.coach.on_open_replay = self.open_review
        app.coach.on_branch = self._branched
        app.coach.listeners.append(self._refined)
        app.files.review_of = lambda game: (app.coach.review_frame
                                            if app.coach.reviewed_game is not None
                                            and app.coach.reviewed_game.to_record()
                                            == game.to_record() else None)
        app.files.on_open_replay = lambda game: self.open_game(game, app.files.review_of(game))
        self.play = app
        played = [app.session.game]

        def new_game_clears(_change: Any) -> None:
            # A new game in the Play tab: nothing that belonged to the old one stays.
            if app.session.game is not played[0]:
                played[0] = app.session.game
                if self.whatif is not None:
                    self.whatif.clear()
            elif self.whatif is not None:
                self.whatif.follow(app.session.game)

        app.session.observe(new_game_clears, "version")
        return app

    def open_game(self, game: Game, review: Any = None) -> None:
        """The Replay tab with a game of the Play tab (Open in Replay), with its review."""
        self.select("replay")
        self.open_tab("replay")
        assert self.replay is not None
        # Translators: the Replay tab's name for the game just played in the Play tab
        # ("your game: 3 players (…), 40 decisions, game over").
        self.replay.load_game(game, _("your game (reviewed)") if review is not None
                              else _("your game"), review)

    def open_review(self, game: Game, review: Any, step: int) -> None:
        """The Replay tab just before decision ``step`` (0-based) of a reviewed game: the
        position where the better move can be tried, with the review's note on it."""
        self.select("replay")
        self.open_tab("replay")
        assert self.replay is not None
        self.replay.load_game(game, _("your game (reviewed)"), review, step=step)

    def _refined(self, judgement: Any) -> None:
        if self.whatif is not None:
            self.whatif.refined(judgement)

    def _build_replay(self) -> W.Widget:
        from .replay import ReplayPanel

        self.replay = ReplayPanel(console=self.console, on_branch=self._branched,
                                  **({} if self.charts else {"charts": ()}))
        return self.replay

    def _build_whatif(self) -> W.Widget:
        self.whatif = WhatIfPanel(self.console, lambda: self.play.session.game
                                  if self.play is not None else None,
                                  coach=self.play_config["coach"], charts=self.charts)
        return self.whatif

    def _build_lessons(self) -> W.Widget:
        self.lessons = lessons_panel(self.play.session if self.play is not None else None,
                                     self.console, self.link)
        return self.lessons

    def _build_puzzles(self) -> W.Widget:
        from .puzzles import PuzzlesTab

        self.puzzles = PuzzlesTab(console=self.console, link=self.link,
                                  open_game=self.open_puzzle_game, reviewed=self._reviewed,
                                  chart=self.charts)
        return self.puzzles

    def _reviewed(self) -> tuple[Game, Any] | None:
        """The Play tab's reviewed game and its review (Practise your mistakes)."""
        coach = self.play.coach if self.play is not None else None
        if coach is None or coach.reviewed_game is None or coach.review_frame is None:
            return None
        return coach.reviewed_game, coach.review_frame

    def open_puzzle_game(self, game: Game, step: int) -> None:
        """The Replay tab with the game a puzzle came from, at the puzzle's decision."""
        self.select("replay")
        self.open_tab("replay")
        assert self.replay is not None
        self.replay.load_game(game, _("the puzzle's game"), step=step)

    def _branched(self, game: Game, original: Game, index: int) -> None:
        self.open_tab("whatif")
        assert self.whatif is not None
        self.whatif.open_branch(game, original, index)
        self.select("whatif")


def dashboard(**kwargs: Any) -> Dashboard:
    """The lab's dashboard (``make run`` serves notebooks/dashboard.ipynb, which shows it):
    the Play tab's bots think in the background, so the page answers while they do."""
    kwargs.setdefault("background", True)
    return Dashboard(**kwargs)


__all__ = ["Dashboard", "TABS", "WhatIfPanel", "dashboard", "lessons_panel"]
