"""The coach of the Play tab: one judgement of your decision, the Hint, the win chances, and
a review after the game.

Every number the coach shows comes from one judgement of the position
(:func:`nidavellir.bots.judge.judge`), from what your seat may know: the figures on the
decision buttons, the Hint, the win-chance bar and the What-if table read the same
:class:`~nidavellir.bots.judge.Judgement`. It starts in the background the moment a decision
of yours appears, at the coach's level, so that a click on Hint finds it ready; *Think
longer* asks for the ``deep`` level, and the finer judgement then replaces the other one on
every surface at once, so two numbers on screen never disagree. The judgement is a function
of the position and the level (seeded from the position, budgeted in iterations): the
command line's ``nidavellir hint`` and the review give the same figures.

Everything slow runs in a background thread with its progress shown, so a click on the board
is answered at once; an answer is shown only if the game is still at the position it was
asked for. The judgement itself is the model's (:class:`nidavellir.play.Judging`, no widget
in it); this panel shows it and the review.

>>> from widgets.app import play_app
>>> app = play_app(players=2, seats=["human", "random"], seed=1, bot_delay=0)
>>> coach = Coach(app.session, level="search@30")
>>> coach.hint_button.click(); coach.wait()
>>> coach.hint_text.value.startswith("<b>Hint: ")
True
"""

from __future__ import annotations

import html
import os
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from nidavellir import Action, Game
from nidavellir.bots.judge import DEFAULT_LEVEL, Judgement, finest, level_words, win_text
from nidavellir.bots.judgement import join_reasons
from nidavellir.i18n import N_, _, count, labelled, percent
from nidavellir.play import Change, Judging, position_key
from nidavellir.play.coaching import DEEP_LEVEL, ESTIMATE_PLAYOUTS
from nidavellir.play.runner import Workers

from .session import Session

esc = html.escape

#: Playouts behind the win-chance bar while no decision of yours is judged (a bot thinks).
BAR_PLAYOUTS = ESTIMATE_PLAYOUTS
#: The review's depths offered: (label, level). The default is the Hint's level: the review
#: of a decision is the Hint's judgement of it (already made when you asked for the Hint).
REVIEW_DEPTHS: tuple[tuple[str, str], ...] = (
    (N_("quick review"), "quick"), (N_("normal review (as the Hint)"), DEFAULT_LEVEL),
    (N_("deep review"), "deep"))
#: Processes the review runs on (the page's goal: a 3-player game within a minute on two
#: cores, benchmarks/README.md).
REVIEW_WORKERS = min(2, os.cpu_count() or 1)

#: The environment variable that sets the coach's level for a whole installation (a class on
#: slow machines may want ``quick``; the test suite sets a small ``search@N``).
LEVEL_VARIABLE = "NIDAVELLIR_COACH_LEVEL"


#: The environment variable that makes an installation's coach judge a decision only when
#: the Hint asks (``0``; docs/serving.md): a class whose learners' coaches would saturate
#: the server's cores.
AHEAD_VARIABLE = "NIDAVELLIR_COACH_AHEAD"


def coach_ahead() -> bool:
    """Whether the coach judges each of your decisions as it appears (:data:`AHEAD_VARIABLE`:
    ``0``, ``no``, ``off`` or ``false`` for only when asked; anything else, or nothing, yes)."""
    return os.environ.get(AHEAD_VARIABLE, "").strip().lower() not in ("0", "no", "off",
                                                                      "false")


def coach_level() -> str:
    """The coach's level: :data:`LEVEL_VARIABLE` when it names a valid level, else the
    default (``coach``)."""
    from nidavellir.bots.judge import parse_level

    value = os.environ.get(LEVEL_VARIABLE, "").strip()
    if not value:
        return DEFAULT_LEVEL
    try:
        parse_level(value)
    except ValueError:
        return DEFAULT_LEVEL
    return value


#: How many of the moves about as good as the best the Hint names (in words, one a line).
HINT_SAME_SHOWN = 3
#: How many lines of what happened since your last decision the win bar shows.
SINCE_SHOWN = 8


def hint_html(judgement: Judgement, selected: Action | None = None) -> str:
    """The Hint in words, never in notation (the notation is the files' and the commands'
    format): the recommended move as its decision says it, with its chance to win and
    expected score; the moves about as good as it (never one crowned among moves the noise
    cannot tell apart); the comparison with the move the player has selected
    (``selected``: only one the player chose, named as chosen) or the next best move (the
    first after the moves about as good), and why."""
    best = judgement.options[0]
    say = judgement.say
    # Translators: the Hint's first words, then the recommended move in words.
    head = "<b>" + _("Hint: {move}").format(move=esc(say(best.action))) + "</b>"
    if len(judgement.options) == 1:
        return head + " <span class='nid-hint-why'>" + _("(the only legal move)") + "</span>"
    # Translators: after the Hint's move, "— 41% to win (± 3%), ≈286 points (± 2) at the end."
    parts = [_("— {estimate} at the end.").format(
        estimate=esc(win_text(best, judgement.exact)))]
    if judgement.exact:
        parts.append("<br>" + _("Exact: nothing hidden or random is left, every option was "
                                "played to the end."))
    same = judgement.about_best
    if len(same) > 1:
        shown = same[:HINT_SAME_SHOWN]
        items = "".join(f"<li>{esc(say(o.action))}</li>" for o in shown)
        more = ("<li>" + count(len(same) - len(shown),
                               "and {n} more (the What-if tab lists them)",
                               "and {n} more (the What-if tab lists them)") + "</li>"
                if len(same) > len(shown) else "")
        # Translators: the moves about as good as the best (HTML: keep <b> and </b>).
        parts.append("<br>" + count(len(same), "<b>These {n} are about equally good</b> (the "
                                    "differences are within the noise):",
                                    "<b>These {n} are about equally good</b> (the "
                                    "differences are within the noise):")
                     + f"<ul class='nid-hint-same'>{items}{more}</ul>")
    other = None
    if selected is not None:
        try:
            other = judgement.option(selected)
        except KeyError:
            other = None
    if other is best:
        other = None
    mine = other is not None
    # Your choice named as you chose it (an equivalent move too); else the next best move:
    # the first after the moves about as good.
    cmp = judgement.compare(selected if mine else None)
    values = {"move": esc(say(cmp.other)), "summary": esc(cmp.summary())}
    # Translators: the Hint's comparison with the move the player selected, or the next best.
    parts.append("<br>" + (_("Compared with your choice ({move}): {summary}.") if mine
                           else _("Compared with the next best move ({move}): {summary}."))
                 .format(**values))
    if cmp.why:
        # Translators: the Hint's reasons (HTML: keep <b> and </b>).
        parts.append("<br>" + _("<b>Why:</b> {reasons}.").format(
            reasons=esc(join_reasons(cmp.why))))
    if cmp.but:
        parts.append("<br>" + _("<b>But:</b> {reasons}.").format(
            reasons=esc(join_reasons(cmp.but))))
    return head + " <span class='nid-hint-why'>" + " ".join(parts) + "</span>"


class Coach(W.VBox):
    """The judgement of the position, Hint, Think longer, win chances, the game's review."""

    def __init__(self, session: Session, level: str | None = None,
                 deep_level: str = DEEP_LEVEL, bar_playouts: int = BAR_PLAYOUTS,
                 review_level: str | None = None, review_workers: int = REVIEW_WORKERS,
                 on_open_replay: Callable[[Game, Any, int], Any] | None = None,
                 on_branch: Callable[[Game, Game, int], Any] | None = None,
                 ahead: bool | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-coach")
        self.session = session
        level = level or coach_level()
        review_level = review_level or level
        self.judging = Judging(session, level=level, deep_level=deep_level,
                               ahead=coach_ahead() if ahead is None else ahead)
        """The judgement of the position on the table (the model this panel shows)."""
        self.bar_playouts = bar_playouts
        self.review_level = review_level
        self.review_workers = review_workers
        self.on_open_replay = on_open_replay
        """Opens Replay at a position of a reviewed game (the dashboard sets it)."""
        self.on_branch = on_branch
        """Opens a branch of a reviewed game at a position in What-if (the dashboard)."""
        self.on_reviewed: list[Callable[[Game, Any], None]] = []
        """Told of every finished review (the save panel: a saved game keeps its review)."""
        self.selected: Callable[[], Action | None] = lambda: None
        """The move the player has selected in the decision's controls, if any."""
        self.review_timings: dict[str, float] = {}
        """Seconds the last review took (``review``; the consistency benchmark reads it)."""
        self._workers = Workers("nidavellir-review", on_error=self._failed)
        self._build_hint()
        self._build_review(review_level)
        self.children = [
            W.HBox([self.hint_button, self.deeper_button, self.show_bar, self.progress,
                    self.progress_label], layout=W.Layout(align_items="center",
                                                          flex_flow="row wrap")),
            self.hint_text, self.bar,
            W.HBox([self.review_button, self.review_depth, self.review_progress],
                   layout=W.Layout(align_items="center", flex_flow="row wrap")),
            self.review_status, self.review_box]
        self._game: Game | None = None
        # The model was told of the move first (it observed the session before this panel):
        # what is shown here is its state for the new position.
        session.observe(lambda _c: self._changed(), "version")
        self.judging.observe(self._judging_changed, ["judgement", "hints", "progress", "leaning"])
        self._changed()
        self._show_progress(self.judging.progress)

    def _build_hint(self) -> None:
        """The Hint, Think longer, the judgement's progress and the win-chance bar."""
        self.hint_button = W.Button(description=_("Hint"), icon="lightbulb-o",
                                    tooltip=_("the coach's best move for you, and why"))
        self.hint_button.add_class("nid-hint")
        self.hint_button.on_click(lambda _b: self.ask_hint())
        self.deeper_button = W.Button(description=_("Think longer"), icon="hourglass-half",
                                      tooltip=_("judge again with more games (a few seconds): "
                                                "every figure on the page is refined"),
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
        self.show_bar = W.Checkbox(value=False, description=_("Win chances"),
                                   layout=W.Layout(width="auto"), indent=False)
        self.show_bar.add_class("nid-bar-toggle")
        self.show_bar.observe(lambda _c: self.refresh_bar(), "value")
        self.bar = W.HTML()
        self.bar.add_class("nid-win-bar")

    def _build_review(self, review_level: str) -> None:
        """The review of the game: its depth, its button, its progress and its table."""
        depths = [(_(label), level) for label, level in REVIEW_DEPTHS]
        if review_level not in [v for _label, v in depths]:  # the variable's level
            # Translators: the review's depth set by the installation, "review (a search
            # of 400 iterations)": {level} is how hard the coach thinks.
            depths.append((_("review ({level})").format(level=level_words(review_level)),
                           review_level))
        # As wide as its longest label (an installation's level in words, German and
        # French are longer): a select is never cut.
        longest = max(len(label) for label, _level in depths)
        self.review_depth = W.Dropdown(options=depths, value=review_level,
                                       layout=W.Layout(width=f"max(210px, calc({longest}ch + "
                                                             "3em))"),
                                       tooltip=_("how hard the review thinks about each move"))
        self.review_depth.add_class("nid-review-depth")
        self.review_depth.observe(lambda c: setattr(self, "review_level", c["new"]), "value")
        self.review_button = W.Button(description=_("Review this game"), icon="search",
                                      disabled=True, layout=W.Layout(width="auto"))
        self.review_button.add_class("nid-review-button")
        self.review_button.on_click(lambda _b: self.start_review())
        self.review_progress = W.FloatProgress(value=0.0, min=0.0, max=1.0,
                                               layout=W.Layout(width="200px", display="none"))
        self.review_progress.add_class("nid-review-progress")
        self.review_status = W.HTML()
        self.review_status.add_class("nid-review-status")
        self.review_box = W.VBox()
        self.review_box.add_class("nid-review-box")
        self.review_frame: Any = None
        self.review_view: Any = None
        """The review shown (:class:`widgets.review_view.ReviewView`), once made."""
        self.reviewed_game: Game | None = None

    # ------------------------------------------------------------------ the model's state

    @property
    def judgement(self) -> Judgement | None:
        """The finest judgement of the position on the table (None: none yet)."""
        return self.judging.current()

    @property
    def listeners(self) -> list[Callable[[Judgement], None]]:
        """Called with every judgement adopted for the position (the decision's buttons,
        the What-if tab): every surface shows the same one."""
        return self.judging.listeners

    @property
    def timings(self) -> dict[str, float]:
        """When the decision appeared, its judgement was ready, the Hint was asked for and
        shown, and how long the review took."""
        return {**self.judging.timings, **self.review_timings}

    @property
    def last_hint(self) -> Judgement | None:
        return self.judging.last_hint

    @property
    def level(self) -> str:
        return self.judging.level

    @property
    def deep_level(self) -> str:
        return self.judging.deep_level

    def judge(self, level: str) -> bool:
        """Judge the decision on the table at ``level`` (:meth:`Judging.judge`)."""
        return self.judging.judge(level)

    def _judging_changed(self, change: Change) -> None:
        if change["name"] == "progress":
            self._show_progress(change["new"])
        elif change["name"] == "leaning":
            self._show_leaning(change["new"])
        elif change["name"] == "hints":
            hint = self.judging.hint
            if hint is not None:
                self.hint_text.value = hint_html(hint, self.selected())
        elif change["new"] is not None and self.show_bar.value:
            self.refresh_bar()

    # ------------------------------------------------------------------ plumbing

    def _failed(self, exc: BaseException) -> None:
        self.review_progress.layout.display = "none"
        self.session.console.error(f"coach: {exc}")

    def wait(self, timeout: float = 300.0) -> None:
        """Wait for the coach's background work (tests, notebooks)."""
        self.judging.wait(timeout)
        self._workers.wait(timeout)

    def _show_leaning(self, leaning: tuple[Any, float, str] | None) -> None:
        """The Hint asked and still on its way (a busy server): the move the coach's search
        prefers so far, said as such (its figures come with the judgement)."""
        if leaning is None:
            return
        _move, share, words = leaning
        with self.judging.settling:  # a Hint given meanwhile (another level) stays
            if not self.judging.hint_pending:
                return
            # Translators: the Hint while the coach still searches; {move} in words,
            # {share} e.g. "40 %".
            self.hint_text.value = "<i>" + esc(_(
                "the coach is thinking… so far its search leans to: {move} (after {share} "
                "of it; the figures come when it is done)").format(
                    move=words, share=percent(share))) + "</i>"

    def _show_progress(self, progress: tuple[float, str] | None) -> None:
        if progress is None:
            self.progress.layout.display = "none"
            self.progress_label.value = ""
            return
        fraction, what = progress
        self.progress.layout.display = ""
        self.progress.value = max(0.0, min(1.0, fraction))
        # Translators: the coach's progress; {what} says what it judges now.
        self.progress_label.value = ("<span class='nid-note'>" + _(
            "the coach is thinking… {what} {done}").format(what=esc(_(what)),
                                                           done=percent(fraction))
            + "</span>")

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
        if self.judging.hint is None and self.hint_text.value:
            self.hint_text.value = ""  # the Hint of the position the game has left
        self.review_button.disabled = not game.is_over
        d = game.decision
        mine = d is not None and session.is_human(d.player)
        self.hint_button.disabled = not mine
        self.deeper_button.disabled = not mine
        if self.show_bar.value:
            self.refresh_bar()

    # ------------------------------------------------------------------ hint

    def ask_hint(self, deeper: bool = False) -> None:
        with self.judging.settling:  # the Hint cannot land between the answer and words
            said = self.judging.ask_hint(deeper)
            if said == "over":
                self.hint_text.value = "<i>" + _("The game is over: no move to hint.") + "</i>"
            elif said == "not yours":
                self.hint_text.value = "<i>" + _("It is not your move.") + "</i>"
            elif said == "thinking" and self.judging.hint_pending:
                # (not pending: the judgement came already, and the Hint with it)
                self.hint_text.value = "<i>" + _("the coach is thinking…") + "</i>"

    # ------------------------------------------------------------------ win-chance bar

    def refresh_bar(self) -> None:
        """The chances to win: at your decision, after the recommended move of the
        judgement the Hint speaks from (by definition); while a bot thinks, from what you
        can see (:func:`~nidavellir.bots.judge.estimate_position`)."""
        with self.judging.settling:  # a judgement landing now is never covered by words
            self._refresh_bar()

    def _refresh_bar(self) -> None:
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
        if judgement is not None:
            self.bar.value = (self._bar_html(judgement.win, judgement.expected,
                                             best=judgement.say(judgement.best))
                              + self._since_html(game, judgement))
            return
        d = game.decision
        if d is not None and session.is_human(d.player):
            self.bar.value = "<i>" + _("the coach is thinking…") + "</i>"
            return  # the judgement under way fills it
        self.bar.value = self.bar.value or "<i>" + _("thinking…") + "</i>"

        def done(wins: list[float], expected: list[float]) -> None:
            self.bar.value = self._bar_html(wins, expected)

        self.judging.estimate(session.viewer, done, self.bar_playouts)

    def _bar_html(self, wins: list[float], expected: list[float], final: bool = False,
                  best: str = "") -> str:
        from nidavellir.palette import player_colour

        names = self.session.game.names
        parts = []
        keys = []
        for i, (w, e) in enumerate(zip(wins, expected, strict=True)):
            # Translators: a seat's part of the win-chance bar, on hover.
            title = esc(_("{name}: {win} chance to win, about {points} points at the "
                          "end").format(name=names[i], win=percent(w), points=round(e)),
                        quote=True)
            # Every player is in the key, one at 0% too (the bar has no room for them).
            keys.append(f"<span class='nid-bar-key' title='{title}'><span class='nid-bar-dot' "
                        f"style='background:{player_colour(i)}'></span>{esc(names[i])} "
                        f"{percent(w)}</span>")
            if w <= 0:
                continue
            parts.append(f"<div class='nid-bar-part' title='{title}' "
                         f"style='width:{w * 100:.1f}%;"
                         f"background:{player_colour(i)}'>{esc(names[i])} {percent(w)}</div>")
        label = (_("final") if final
                 else _("chances to win after the coach's move, {move}").format(move=esc(best))
                 if best else _("chances to win, from what you can see"))
        return (f"<div class='nid-bar-label'>{label}</div><div class='nid-bar'>"
                + "".join(parts) + "</div><div class='nid-bar-keys'>" + "".join(keys)
                + "</div>")

    def _since_html(self, game: Game, judgement: Judgement) -> str:
        """What happened since your last decision, from the game's events (what your seat
        may read: the log's lines), with your chance to win then and now: a swing is never
        left unexplained."""
        me = judgement.player
        last = next((i for i in range(len(game.history) - 1, -1, -1)
                     if game.history[i][0] == me), None)
        if last is None:
            return ""
        before = game.clone()
        before.undo_to(last)
        then = None
        kept = finest(before)
        if kept is not None:
            try:
                then = kept.option(game.history[last][1]).win
            except KeyError:
                then = None
        words = game.history_words(self.session.viewer, start=last + 1)
        names = game.names
        lines = [e.describe(names) for e in game.events_of(last)]  # what your move led to
        for k, i in enumerate(range(last + 1, len(game.history))):
            lines.append(labelled(names[game.history[i][0]], words[k]))
            lines += [e.describe(names) for e in game.events_of(i)]
        if not lines:
            return ""
        shown = lines[:SINCE_SHOWN]
        more = (" " + count(len(lines) - len(shown), "(and {n} more: the log lists them)",
                            "(and {n} more: the log lists them)")
                if len(lines) > len(shown) else "")
        now = judgement.win[me]
        # Translators: under the win bar, what happened since the learner's last decision,
        # with the learner's chance to win after it and now ("72% → 13%").
        head = (_("Since your last decision (your chance to win {then} → {now}):").format(
                    then=percent(then), now=percent(now)) if then is not None
                else _("Since your last decision:"))
        return ("<div class='nid-bar-since nid-note'><b>" + esc(head) + "</b> "
                + esc(join_reasons(shown)) + esc(more) + "</div>")

    # ------------------------------------------------------------------ review

    def start_review(self) -> None:
        """Review the finished game: the human seats' decisions (every seat's when nobody is
        human), judged as the Hint judges them (a decision already hinted costs nothing),
        with its progress shown."""
        game = self.session.game
        if not game.is_over:
            self.review_status.value = "<i>" + _("Finish the game first.") + "</i>"
            return
        finished = game.clone()
        self.review_button.disabled = True
        seats = list(self.session.humans) or None
        total = sum(1 for p, _a in finished.history if seats is None or p in seats)
        self.review_status.value = "<i>" + count(total, "reviewing {n} decision…",
                                                 "reviewing {n} decisions…") + "</i>"
        self.review_progress.value = 0.0
        self.review_progress.layout.display = ""
        started = time.perf_counter()

        def progress(done: int, total: int) -> None:
            if self.session.game is game:
                self.review_progress.value = done / total if total else 1.0
                self.review_status.value = "<i>" + count(
                    total, "reviewing: {done} of {n} decision judged ({seconds} s)…",
                    "reviewing: {done} of {n} decisions judged ({seconds} s)…", done=done,
                    seconds=round(time.perf_counter() - started)) + "</i>"

        def work() -> None:
            from nidavellir.analysis.review import review
            from nidavellir.analysis.runner import Backend

            try:
                frame = review(finished, level=self.review_level, seats=seats,
                               progress=progress,
                               backend=Backend(workers=self.review_workers, start="forkserver"))
            finally:
                self.review_progress.layout.display = "none"
                self.review_button.disabled = not self.session.game.is_over
            if self.session.game is not game:
                return  # a new game started meanwhile
            self.review_timings["review"] = time.perf_counter() - started
            self.show_review(finished, frame)

        self._workers.run(work)

    def show_review(self, game: Game, frame: Any) -> None:
        """The headline (equal to the sum of its items), the win-chance graph, and every
        move that was not the best, grouped by what it gave up, each with its cost and
        reason and two buttons that open the position *before* it: in Replay, and as a
        branch to play the better move (:class:`widgets.review_view.ReviewView`; decisions
        numbered from 1 everywhere)."""
        from .review_view import ReviewView

        self.review_frame = frame
        self.reviewed_game = game
        view = ReviewView(on_replay=self.open_replay, on_branch=self.branch_at)
        view.show(game, frame, self.session.humans)
        self.review_view = view
        self.review_status.value = view.headline.value
        self.review_box.children = [view.graph, view.moves]
        self.review_button.disabled = False
        for listener in list(self.on_reviewed):
            try:
                listener(game, frame)
            except Exception as exc:
                self.session.console.error(f"coach: {exc}")

    def open_replay(self, step: int) -> None:
        """Replay at the position before decision ``step`` (0-based), with the review."""
        if self.reviewed_game is None or self.on_open_replay is None:
            return
        self.on_open_replay(self.reviewed_game, self.review_frame, step)

    def branch_at(self, step: int) -> None:
        """A branch of the reviewed game just before decision ``step``: the better move can
        be played there."""
        if self.reviewed_game is None or self.on_branch is None:
            return
        from nidavellir.analysis.whatif import branch

        self.on_branch(branch(self.reviewed_game, step, []), self.reviewed_game, step)


__all__ = ["AHEAD_VARIABLE", "BAR_PLAYOUTS", "LEVEL_VARIABLE", "Coach", "REVIEW_DEPTHS",
           "coach_ahead", "coach_level", "hint_html", "position_key"]
