"""The coach of the Play tab: a Hint, a win-chance bar, and a review after the game.

Everything slow runs in a background thread, so a click on the board is answered at once
while the coach thinks ("thinking…" shows meanwhile). An answer is shown only if the game
is still at the position it was asked for: a hint for an older position is dropped.

Honest information: the hint analyses the decision of the human to move from that seat's
knowledge (``bot.analyse``); the win-chance bar estimates every player's chances from the
*viewer's* knowledge only (:func:`nidavellir.bots.search.estimate_position`), never from a
bot's hidden bids.

>>> from widgets.app import play_app
>>> app = play_app(players=2, seats=["human", "random"], seed=1, bot_delay=0)
>>> coach = Coach(app.session, hint_iterations=30)
>>> coach.hint_button.click(); coach.wait()
>>> coach.hint_text.value.startswith("<b>Hint")
True
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from nidavellir import Game
from nidavellir.scoring import CATEGORY_LABELS

from .session import Session

esc = html.escape

#: The hint's budget: about 1.5 s of search on one core.
HINT_SECONDS = 1.5
#: Playouts behind the win-chance bar (about a second).
BAR_PLAYOUTS = 200
#: The review's level from the Play tab (lighter than ``hard``: it runs in the kernel).
REVIEW_LEVEL = "search@150"
REVIEW_PLAYOUTS = 24
#: The review depths offered: (label, level).
REVIEW_DEPTHS: tuple[tuple[str, str], ...] = (
    ("quick review", "search@40"), ("normal review", REVIEW_LEVEL), ("deep review", "hard"))


def hint_reason(analysis: Any) -> str:
    """One line from the per-category expectations: what the best move gains over the
    runner-up, e.g. "+6.1 expected points over take H — warriors +4.0, heroes +2.1"."""
    best = analysis.actions[0]
    if len(analysis.actions) == 1:
        return "the only legal move"
    runner = max(analysis.actions[1:], key=lambda s: (s.visits, s.score))
    gain = best.score - runner.score
    deltas = sorted(((best.categories[k] - runner.categories[k], k) for k in best.categories),
                    reverse=True)
    parts = [f"{CATEGORY_LABELS.get(k, k).lower()} {d:+.1f}" for d, k in deltas[:2] if d > 0.05]
    text = f"{gain:+.1f} expected points over {runner.action}"
    if parts:
        text += " — " + ", ".join(parts)
    text += f"; win chance {best.win:.0%}"
    return text


class Coach(W.VBox):
    """Hint button, optional win-chance bar, *Review this game* after the game."""

    def __init__(self, session: Session, hint_seconds: float = HINT_SECONDS,
                 hint_iterations: int | None = None, bar_playouts: int = BAR_PLAYOUTS,
                 review_level: str = REVIEW_LEVEL, review_playouts: int = REVIEW_PLAYOUTS,
                 on_open_replay: Callable[[Game, Any, int], Any] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-coach")
        self.session = session
        self.hint_seconds = hint_seconds
        self.hint_iterations = hint_iterations
        self.bar_playouts = bar_playouts
        self.review_level = review_level
        self.review_playouts = review_playouts
        self.on_open_replay = on_open_replay
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self.hint_button = W.Button(description="Hint", icon="lightbulb-o",
                                    tooltip="the search's best move for you, and why")
        self.hint_button.add_class("nid-hint")
        self.hint_button.on_click(lambda _b: self.ask_hint())
        self.hint_text = W.HTML()
        self.hint_text.add_class("nid-hint-text")
        self.show_bar = W.Checkbox(value=False, description="Win chances",
                                   layout=W.Layout(width="auto"), indent=False)
        self.show_bar.add_class("nid-bar-toggle")
        self.show_bar.observe(lambda _c: self.refresh_bar(), "value")
        self.bar = W.HTML()
        self.bar.add_class("nid-win-bar")
        depths = list(REVIEW_DEPTHS)
        if review_level not in [v for _, v in depths]:
            depths.append((f"review at {review_level}", review_level))
        self.review_depth = W.Dropdown(options=depths, value=review_level,
                                       layout=W.Layout(width="150px"),
                                       tooltip="how hard the review thinks about each move")
        self.review_depth.add_class("nid-review-depth")
        self.review_depth.observe(lambda c: setattr(self, "review_level", c["new"]), "value")
        self.review_button = W.Button(description="Review this game", icon="search",
                                      disabled=True, layout=W.Layout(width="auto"))
        self.review_button.add_class("nid-review-button")
        self.review_button.on_click(lambda _b: self.start_review())
        self.review_status = W.HTML()
        self.review_status.add_class("nid-review-status")
        self.review_box = W.VBox()
        self.review_box.add_class("nid-review-box")
        self.review_frame: Any = None
        self.reviewed_game: Game | None = None
        self.children = [W.HBox([self.hint_button, self.show_bar, self.review_button,
                                 self.review_depth], layout=W.Layout(align_items="center")),
                         self.hint_text, self.bar, self.review_status, self.review_box]
        session.observe(lambda _c: self._changed(), "version")
        self._changed()

    # ------------------------------------------------------------------ plumbing

    def _run(self, work: Callable[[], None]) -> None:
        thread = threading.Thread(target=self._guarded, args=(work,), daemon=True)
        with self._lock:
            self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()

    def _guarded(self, work: Callable[[], None]) -> None:
        try:
            work()
        except Exception as exc:  # shown, never lost in a thread
            self.session.console.error(f"coach: {exc}")

    def wait(self, timeout: float = 120.0) -> None:
        """Wait for the coach's background work (tests, notebooks)."""
        with self._lock:
            threads = list(self._threads)
        for t in threads:
            t.join(timeout)

    def _changed(self) -> None:
        game = self.session.game
        if self.hint_text.value and not self.hint_text.value.startswith("<i>thinking"):
            self.hint_text.value = ""
        self.review_button.disabled = not game.is_over
        if self.show_bar.value:
            self.refresh_bar()

    # ------------------------------------------------------------------ hint

    def ask_hint(self) -> None:
        session = self.session
        game = session.game
        d = game.decision
        if d is None:
            self.hint_text.value = "<i>The game is over: no move to hint.</i>"
            return
        if not session.is_human(d.player):
            self.hint_text.value = "<i>It is not your move.</i>"
            return
        version = session.version
        position = game.clone()
        self.hint_text.value = "<i>thinking…</i>"

        def work() -> None:
            from nidavellir.bots import SearchBot

            budget: dict[str, Any] = ({"iterations": self.hint_iterations}
                                      if self.hint_iterations else {"seconds": self.hint_seconds})
            bot = SearchBot(seed=version, **budget)
            analysis = bot.analyse(position, seed=version)
            if session.version != version:
                return  # the game moved on: never show a hint for an older position
            self.last_hint = analysis
            self.hint_text.value = (f"<b>Hint: {esc(str(analysis.best))}</b> "
                                    f"<span style='color:#555'>({esc(hint_reason(analysis))})</span>")

        self._run(work)

    # ------------------------------------------------------------------ win-chance bar

    def refresh_bar(self) -> None:
        if not self.show_bar.value:
            self.bar.value = ""
            return
        session = self.session
        game = session.game
        if game.is_over:
            totals = game.scores().totals
            best = max(totals)
            wins = [1.0 / totals.count(best) if t == best else 0.0 for t in totals]
            self.bar.value = self._bar_html(wins, [float(t) for t in totals], final=True)
            return
        version = session.version
        viewer = session.viewer
        position = game.clone()
        self.bar.value = self.bar.value or "<i>thinking…</i>"
        self.bar.add_class("nid-thinking")

        def work() -> None:
            from nidavellir.bots.search import estimate_position

            wins, expected = estimate_position(position, viewer, self.bar_playouts, seed=version)
            if session.version != version:
                return
            self.bar.value = self._bar_html(wins, expected)
            self.bar.remove_class("nid-thinking")

        self._run(work)

    def _bar_html(self, wins: list[float], expected: list[float], final: bool = False) -> str:
        from nidavellir.analysis.figures import player_colour

        names = self.session.game.names
        parts = []
        for i, (w, e) in enumerate(zip(wins, expected, strict=True)):
            if w <= 0:
                continue
            parts.append(f"<div title='{esc(names[i])}: {w:.0%}, about {e:.0f} points' "
                         f"style='width:{w * 100:.1f}%;background:{player_colour(i)};color:white;"
                         f"font:11px sans-serif;padding:2px 0;text-align:center;overflow:hidden;"
                         f"white-space:nowrap'>{esc(names[i])} {w:.0%}</div>")
        label = "final" if final else "win chances (from your view)"
        return (f"<div style='font:11px sans-serif;color:#555'>{label}</div>"
                "<div style='display:flex;width:100%;border:1px solid #ccc'>"
                + "".join(parts) + "</div>")

    # ------------------------------------------------------------------ review

    def start_review(self) -> None:
        game = self.session.game
        if not game.is_over:
            self.review_status.value = "<i>Finish the game first.</i>"
            return
        finished = game.clone()
        self.review_button.disabled = True
        total = len(finished.history)
        self.review_status.value = f"<i>reviewing {total} decisions…</i>"

        def work() -> None:
            from nidavellir.analysis.review import review

            frame = review(finished, level=self.review_level, playouts=self.review_playouts)
            self.show_review(finished, frame)

        self._run(work)

    def show_review(self, game: Game, frame: Any) -> None:
        """The win-chance graph and the list of the human players' mistakes; a click on a
        mistake opens Replay at that decision."""
        from nidavellir.analysis.review import SYMBOLS, summary, win_chance_figure

        self.review_frame = frame
        self.reviewed_game = game
        humans = set(self.session.humans)
        summ = summary(frame)
        lines = []
        for r in summ.itertuples():
            if r.player in humans or not humans:
                lines.append(f"{esc(r.name)}: {r.best_share:.0%} best moves, "
                             f"{r.avg_loss_points:.1f} points lost per decision, "
                             f"{r.inaccuracy} inaccuracies, {r.mistake} mistakes, "
                             f"{r.blunder} blunders")
        self.review_status.value = "<b>Review</b><br>" + "<br>".join(lines)
        from .charts import show_figure

        graph = W.Output()
        show_figure(graph, win_chance_figure(frame))
        buttons = []
        bad = frame[frame["label"].isin(list(SYMBOLS))]
        if humans:
            bad = bad[bad["player"].isin(list(humans))]
        for r in bad.itertuples():
            text = (f"[{r.step}] {r.played}{SYMBOLS[r.label]}  better: {r.best} "
                    f"(−{r.loss_points:.1f} points)")
            b = W.Button(description=text, layout=W.Layout(width="auto"),
                         tooltip="open Replay at this decision")
            b.add_class("nid-mistake")
            b.on_click(lambda _b, step=int(r.step): self.open_replay(step))
            buttons.append(b)
        if not buttons:
            buttons = [W.HTML("<i>No inaccuracy, mistake or blunder: well played.</i>")]
        self.review_box.children = [graph, W.VBox(buttons)]
        self.review_button.disabled = False

    def open_replay(self, step: int) -> None:
        if self.reviewed_game is None or self.on_open_replay is None:
            return
        self.on_open_replay(self.reviewed_game, self.review_frame, step)
