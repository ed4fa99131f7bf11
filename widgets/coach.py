"""The coach of the Play tab: one judgement of your decision, the Hint, the win chances, and
a review after the game.

Every number the coach shows comes from one judgement of the position
(:func:`nidavellir.bots.judge.judge`), from what your seat may know: the values on the
decision buttons, the Hint, the win-chance bar and the What-if table read the same
:class:`~nidavellir.bots.judge.Judgement`. When a decision of yours comes up, a *quick*
judgement starts in the background and fills the buttons' "at the end" estimates; the Hint
asks for the *coach* level (and *Think longer* for *deep*); a finer judgement replaces the
quicker one everywhere, so two numbers on screen never disagree.

Everything slow runs in a background thread with its progress shown, so a click on the board
is answered at once; an answer is shown only if the game is still at the position it was
asked for.

>>> from widgets.app import play_app
>>> app = play_app(players=2, seats=["human", "random"], seed=1, bot_delay=0)
>>> coach = Coach(app.session, level="search@30", quick_level=None)
>>> coach.hint_button.click(); coach.wait()
>>> coach.hint_text.value.startswith("<b>Hint: ")
True
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from nidavellir import Action, Game
from nidavellir.bots.judge import DEFAULT_LEVEL, Judgement

from .session import Session

esc = html.escape

#: Playouts behind the win-chance bar while no judgement of the position is at hand.
BAR_PLAYOUTS = 200
#: The level of the judgement that fills the buttons, and of "Think longer".
QUICK_LEVEL = "quick"
DEEP_LEVEL = "deep"
#: The review's depths offered: (label, level). The default is the Hint's level, so that the
#: review's better move at a decision is the Hint's move there.
REVIEW_DEPTHS: tuple[tuple[str, str], ...] = (
    ("quick review", "quick"), ("normal review", DEFAULT_LEVEL), ("deep review", "deep"))
REVIEW_PLAYOUTS = 32

Key = tuple[int, int, int]


def position_key(game: Game) -> Key:
    """The position on the table: the game, and the moves that led to it (an undo then
    another move reaches the same length but not the same position)."""
    return (id(game), len(game.history), hash(tuple(game.history)))


def hint_html(judgement: Judgement) -> str:
    """The Hint in words: the best move, how much better than the selected move (or the next
    best), in the currency it is ranked by, and why."""
    best = esc(str(judgement.best))
    if len(judgement.options) == 1:
        return f"<b>Hint: {best}</b> <span class='nid-hint-why'>(the only legal move)</span>"
    try:
        cmp = judgement.compare()
    except ValueError:
        return (f"<b>Hint: {best}</b> <span class='nid-hint-why'>(about "
                f"{judgement.options[0].score:.0f} points at the end, "
                f"{judgement.options[0].win:.0%} chance to win)</span>")
    versus = ("your choice" if judgement.selected is not None and
              judgement.selected == cmp.other else "the next best")
    parts = [f"— {esc(cmp.summary())}, compared with {versus}, {esc(str(cmp.other))}."]
    if cmp.why:
        parts.append("<br><b>Why:</b> " + esc("; ".join(cmp.why)) + ".")
    if cmp.but:
        parts.append("<br><b>But:</b> " + esc("; ".join(cmp.but)) + ".")
    return f"<b>Hint: {best}</b> <span class='nid-hint-why'>" + " ".join(parts) + "</span>"


class Coach(W.VBox):
    """The judgement of the position, Hint, Think longer, win chances, the game's review."""

    def __init__(self, session: Session, level: str = DEFAULT_LEVEL,
                 quick_level: str | None = QUICK_LEVEL, deep_level: str = DEEP_LEVEL,
                 bar_playouts: int = BAR_PLAYOUTS, review_level: str = DEFAULT_LEVEL,
                 review_playouts: int = REVIEW_PLAYOUTS,
                 on_open_replay: Callable[[Game, Any, int], Any] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-coach")
        self.session = session
        self.level = level
        self.quick_level = quick_level
        self.deep_level = deep_level
        self.bar_playouts = bar_playouts
        self.review_level = review_level
        self.review_playouts = review_playouts
        self.on_open_replay = on_open_replay
        self.judgement: Judgement | None = None
        """The finest judgement of the position on the table (None: none yet)."""
        self._judged_at: Key | None = None
        self.listeners: list[Callable[[Judgement], None]] = []
        """Called with every new judgement of the position (the decision's buttons)."""
        self.selected: Callable[[], Action | None] = lambda: None
        """The move the player has selected in the decision's controls, if any."""
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._adopting = threading.RLock()
        self._pending: set[tuple[Key, str]] = set()
        self.hint_button = W.Button(description="Hint", icon="lightbulb-o",
                                    tooltip="the coach's best move for you, and why")
        self.hint_button.add_class("nid-hint")
        self.hint_button.on_click(lambda _b: self.ask_hint())
        self.deeper_button = W.Button(description="Think longer", icon="hourglass-half",
                                      tooltip="judge again with more time (a few seconds)",
                                      layout=W.Layout(width="auto"))
        self.deeper_button.add_class("nid-think-longer")
        self.deeper_button.on_click(lambda _b: self.ask_hint(deeper=True))
        self.hint_text = W.HTML()
        self.hint_text.add_class("nid-hint-text")
        self.progress = W.FloatProgress(value=0.0, min=0.0, max=1.0,
                                        layout=W.Layout(width="160px", display="none"))
        self.progress.add_class("nid-coach-progress")
        self.progress_label = W.HTML()
        self.progress_label.add_class("nid-coach-progress-label")
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
        self.children = [
            W.HBox([self.hint_button, self.deeper_button, self.show_bar, self.progress,
                    self.progress_label], layout=W.Layout(align_items="center",
                                                          flex_flow="row wrap")),
            self.hint_text, self.bar,
            W.HBox([self.review_button, self.review_depth],
                   layout=W.Layout(align_items="center", flex_flow="row wrap")),
            self.review_status, self.review_box]
        self._game: Game | None = None
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
            self._show_progress(None)
            self.session.console.error(f"coach: {exc}")

    def wait(self, timeout: float = 300.0) -> None:
        """Wait for the coach's background work (tests, notebooks)."""
        while True:
            with self._lock:
                threads = [t for t in self._threads if t.is_alive()]
            if not threads:
                return
            for t in threads:
                t.join(timeout)

    def _show_progress(self, fraction: float | None, what: str = "") -> None:
        if fraction is None:
            self.progress.layout.display = "none"
            self.progress_label.value = ""
            return
        self.progress.layout.display = ""
        self.progress.value = max(0.0, min(1.0, fraction))
        self.progress_label.value = (f"<span class='nid-note'>thinking… "
                                     f"{esc(what)} {fraction:.0%}</span>")

    def _changed(self) -> None:
        session = self.session
        game = session.game
        if game is not self._game:
            # A new game: nothing of the old one stays.
            self._game = game
            self.review_frame = None
            self.reviewed_game = None
            self.review_status.value = ""
            self.review_box.children = []
        key = position_key(game)
        if self._judged_at != key:
            self.judgement = None
            self._judged_at = None
            if self.hint_text.value and not self.hint_text.value.startswith("<i>thinking"):
                self.hint_text.value = ""
        self.review_button.disabled = not game.is_over
        d = game.decision
        mine = d is not None and session.is_human(d.player)
        self.hint_button.disabled = not mine
        self.deeper_button.disabled = not mine
        if mine and self.quick_level and self.judgement is None \
                and (key, self.quick_level) not in self._pending:
            self.judge(self.quick_level)
        if self.show_bar.value:
            self.refresh_bar()

    # ------------------------------------------------------------------ the judgement

    def judge(self, level: str, then: Callable[[Judgement], None] | None = None) -> bool:
        """Judge the human decision on the table at ``level`` in the background; the result
        replaces the current judgement if it is finer, and ``then`` hears it."""
        from nidavellir.bots.judge import judge

        session = self.session
        game = session.game
        d = game.decision
        if d is None or not session.is_human(d.player):
            return False
        key = position_key(game)
        position = game.clone()
        selected = self.selected()

        def progress(done: float, total: float, what: str) -> None:
            if position_key(session.game) == key:
                self._show_progress(done / total if total else 1.0, what)

        def work() -> None:
            try:
                judgement = judge(position, level=level, selected=selected,
                                  progress=progress)
            finally:
                with self._lock:
                    self._pending.discard((key, level))
            if position_key(session.game) != key:
                return  # the game moved on: never show a judgement of an older position
            self._show_progress(None)
            self._adopt(judgement, key)
            if then is not None:
                then(judgement)

        with self._lock:
            # One judgement of a position at a level at a time: two would finish in either
            # order and the buttons could show one while the Hint speaks from the other.
            self._pending.add((key, level))
        self._show_progress(0.0, "")
        self._run(work)
        return True

    def _adopt(self, judgement: Judgement, key: Key) -> None:
        # Adopted and told to the listeners at once: what the buttons show is always the
        # judgement the coach holds.
        with self._adopting:
            current = self.judgement
            if current is not None and self._judged_at == key and \
                    _rank(current.level) > _rank(judgement.level):
                return  # a finer judgement is already shown
            self.judgement = judgement
            self._judged_at = key
            for listener in list(self.listeners):
                try:
                    listener(judgement)
                except Exception as exc:
                    self.session.console.error(f"coach: {exc}")
        if self.show_bar.value:
            self.refresh_bar()

    # ------------------------------------------------------------------ hint

    def ask_hint(self, deeper: bool = False) -> None:
        session = self.session
        game = session.game
        d = game.decision
        if d is None:
            self.hint_text.value = "<i>The game is over: no move to hint.</i>"
            return
        if not session.is_human(d.player):
            self.hint_text.value = "<i>It is not your move.</i>"
            return
        level = self.deep_level if deeper else self.level
        self.hint_text.value = "<i>thinking…</i>"

        def show(judgement: Judgement) -> None:
            self.last_hint = judgement
            self.hint_text.value = hint_html(judgement)

        self.judge(level, then=show)

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
        judgement = self.judgement
        if judgement is not None and judgement.player == session.viewer:
            self.bar.value = self._bar_html(judgement.win, judgement.expected)
            return
        key = position_key(game)
        viewer = session.viewer
        position = game.clone()
        self.bar.value = self.bar.value or "<i>thinking…</i>"

        def work() -> None:
            from nidavellir.bots.judge import estimate_position

            wins, expected = estimate_position(position, viewer, self.bar_playouts)
            if position_key(session.game) != key or self.judgement is not None:
                return
            self.bar.value = self._bar_html(wins, expected)

        self._run(work)

    def _bar_html(self, wins: list[float], expected: list[float], final: bool = False) -> str:
        from nidavellir.palette import player_colour

        names = self.session.game.names
        parts = []
        for i, (w, e) in enumerate(zip(wins, expected, strict=True)):
            if w <= 0:
                continue
            parts.append(f"<div class='nid-bar-part' title='{esc(names[i])}: {w:.0%} chance to "
                         f"win, about {e:.0f} points at the end' style='width:{w * 100:.1f}%;"
                         f"background:{player_colour(i)}'>{esc(names[i])} {w:.0%}</div>")
        label = "final" if final else "chances to win, from what you can see"
        return (f"<div class='nid-bar-label'>{label}</div><div class='nid-bar'>"
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
            if self.session.game is not game:
                return  # a new game started meanwhile
            self.show_review(finished, frame)

        self._run(work)

    def show_review(self, game: Game, frame: Any) -> None:
        """The win-chance graph and the human players' mistakes, each with its reason; a
        click on one opens Replay at that decision (decisions numbered from 1 everywhere)."""
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
        rows: list[W.Widget] = []
        bad = frame[frame["label"].isin(list(SYMBOLS))]
        if humans:
            bad = bad[bad["player"].isin(list(humans))]
        for r in bad.itertuples():
            head = (f"Decision {r.number}: {r.played}{SYMBOLS[r.label]} — better {r.best} "
                    f"({r.loss_points:.1f} points, {r.loss_win:.0%} chance to win given up)")
            b = W.Button(description=f"Decision {r.number} in Replay", icon="play",
                         layout=W.Layout(width="auto"), tooltip="open Replay at this decision")
            b.add_class("nid-mistake")
            b.number = int(r.number)  # type: ignore[attr-defined]
            b.on_click(lambda _b, step=int(r.step): self.open_replay(step))
            why = getattr(r, "reason", "") or ""
            text = W.HTML(f"<div class='nid-mistake-text'><b>{esc(head)}</b>"
                          + (f"<br>{esc(why)}" if why else "") + "</div>")
            rows.append(W.VBox([text, b]))
        if not rows:
            rows = [W.HTML("<i>No inaccuracy, mistake or blunder: well played.</i>")]
        self.review_box.children = [graph, W.VBox(rows)]
        self.review_button.disabled = False

    def open_replay(self, step: int) -> None:
        if self.reviewed_game is None or self.on_open_replay is None:
            return
        self.on_open_replay(self.reviewed_game, self.review_frame, step)


_LEVEL_RANK = {"quick": 0, "coach": 1, "hard": 1, "deep": 2, "expert": 2}


def _rank(level: str) -> int:
    return _LEVEL_RANK.get(level, 1)


__all__ = ["BAR_PLAYOUTS", "Coach", "REVIEW_DEPTHS", "hint_html", "position_key"]
