"""The guided rules walkthroughs on screen: scripted games explained step by step.

The lessons are files (``nidavellir/lessons/files/walkthrough/*.yaml``, and a teacher's
own in the folder given to ``--lessons``), read and checked by :mod:`nidavellir.lessons`;
:class:`nidavellir.lessons.walkthrough.Walkthrough` plays one (no widgets).
:class:`WalkthroughApp` is the view: the step's text and rulebook reference, what changed
(events listed, changed tiles marked), the table and boards, the move to make (its prompt
derived from the taught move) with the play controls, and Back / Next.
:class:`WalkthroughTab` offers the choice of lesson (the lab's, then the teacher's; a file
that fails its checks is listed with its error), keeps each one's progress for the
session and restarts one on demand.

>>> app = walkthrough_app("base")
>>> app.next()
True
>>> "Bid 4 on the Laughing Goblin" in app.ask.value
True
>>> app.submit("bid 4 3 0")
True
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as W

from nidavellir import ScoreSheet
from nidavellir.i18n import _, count, pgettext
from nidavellir.lessons import Entry, Library
from nidavellir.lessons import short_error as _short
from nidavellir.lessons.markup import inline, to_html
from nidavellir.lessons.walkthrough import Walkthrough, WalkthroughLesson

from . import render
from .controls import Context, Control, build_control
from .session import Console
from .style import button, css_widget

esc = html.escape
#: The walkthrough the tab shows first.
FIRST = "base"


def lesson(key: str, library: Library | None = None) -> WalkthroughLesson:
    """The walkthrough called ``key`` (a clear error naming the known ones)."""
    return (library or Library()).get(key, "walkthrough")  # type: ignore[no-any-return]


# ====================================================================== rendering

#: The walkthrough's table: the camp above the taverns, then the treasury, the hall and
#: the distinctions (the decks are the lesson's, not the learner's concern).
WALK_SECTIONS = ("camp", "taverns", "treasury", "hall", "distinctions")


def board_html(obs: Mapping[str, Any], before: Mapping[str, Any] | None = None,
               learner: int = 0, *, sheet: ScoreSheet) -> str:
    """The table and every player's board, with what changed since ``before`` marked
    (with Thingvellir, the camp above the taverns): :func:`render.table_html` and
    :func:`render.board_html`, the Play tab's renderer, told what the position was; the
    column figures from the position's ``sheet``, as on every surface."""
    was = before if before is not None else obs
    # Translators: under a distinction's tile in the walkthroughs: nobody holds it yet.
    table = render.table_html(obs, WALK_SECTIONS, before=was, unheld=_("not won yet"))
    boards = "".join(render.board_html(p, viewer=p["seat"] == learner,
                                       before=was["players"][p["seat"]],
                                       points=render.sheet_points(sheet[p["seat"]].breakdown))
                     for p in obs["players"])
    return f"<div class='nid-wt-board'>{table}{boards}</div>"


class WalkthroughApp(W.VBox):
    """The walkthrough on screen: step text, rule, what changed, the move, Back / Next."""

    def __init__(self, walkthrough: Walkthrough | None = None, console: Console | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-walkthrough")
        self.wt = walkthrough or Walkthrough(lesson(FIRST))
        self.console = console if console is not None else Console()
        self.title = W.HTML()
        self.title.add_class("nid-wt-title")
        self.rule = W.HTML()
        self.rule.add_class("nid-wt-rule")
        self.text = W.HTML()
        self.text.add_class("nid-wt-text")
        self.changes = W.HTML()
        self.changes.add_class("nid-wt-changes")
        self.board = W.HTML()
        self.board.add_class("nid-wt-board-view")
        self.ask = W.HTML()
        self.ask.add_class("nid-wt-ask")
        self.made_note = W.HTML()
        self.made_note.add_class("nid-wt-made")
        self.control: Control | None = None
        self.control_box = W.VBox()
        self.control_box.add_class("nid-wt-controls")
        # Translators: "take E9" is notation (the same in every language).
        self.notation = W.Text(placeholder=_("or type the move, e.g. take E9"),
                               layout=W.Layout(width="260px"))
        self.notation.add_class("nid-wt-notation")
        # Translators: the button that plays the move typed in the notation box (the tab
        # "Play" is another message).
        self.play = W.Button(description=pgettext("the typed move", "Play"),
                             tooltip=_("play the move typed on the left"))
        self.play.add_class("nid-wt-play")
        self.play.on_click(lambda _b: self._guard(self.submit_text))
        self.show_me = W.Button(description=_("Show me"),
                                tooltip=_("make the taught move for me"))
        self.show_me.add_class("nid-wt-show-me")
        self.show_me.on_click(lambda _b: self._guard(self._show_me))
        self.move_box = W.VBox([self.ask, self.control_box,
                                W.HBox([self.notation, self.play, self.show_me])])
        self.move_box.add_class("nid-wt-move")
        self.feedback = W.HTML()
        self.feedback.add_class("nid-wt-feedback")
        self.back_button = W.Button(description=_("◀ Back"), layout=W.Layout(width="110px"))
        self.back_button.add_class("nid-wt-back")
        self.back_button.on_click(lambda _b: self._guard(self.back))
        self.next_button = button(_("Next ▶"), "primary", layout=W.Layout(width="110px"))
        self.next_button.add_class("nid-wt-next")
        self.next_button.add_class("nid-next")
        self.next_button.on_click(lambda _b: self._guard(self.next))
        self.progress = W.HTML()
        self.progress.add_class("nid-wt-progress")
        self.sheet = W.HTML()
        self.sheet.add_class("nid-wt-sheet")
        # The end of the lesson: said in words, with the way on (set by the tab).
        self.next_lesson: tuple[str, Callable[[], Any]] | None = None
        self.complete = W.HTML()
        self.complete.add_class("nid-wt-complete")
        self.next_lesson_button = button(_("Next lesson ▶"), "success")
        self.next_lesson_button.add_class("nid-wt-next-lesson")
        self.next_lesson_button.on_click(lambda _b: self._guard(self._go_on))
        self.complete_box = W.VBox([self.complete, self.next_lesson_button])
        nav = W.HBox([self.back_button, self.next_button, self.progress],
                     layout=W.Layout(align_items="center"))
        left = W.VBox([self.title, self.rule, self.text, self.move_box, self.made_note,
                       self.feedback, self.complete_box, self.changes, nav],
                      layout=W.Layout(flex="1 1 440px", min_width="360px"))
        right = W.VBox([self.board, self.sheet], layout=W.Layout(flex="1 1 560px"))
        self.children = [css_widget(), W.HBox([left, right],
                                              layout=W.Layout(flex_flow="row wrap"))]
        self.refresh()

    # ------------------------------------------------------------------ actions

    def _guard(self, fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except Exception as exc:  # shown on the page, never swallowed
            self.console.error(f"walkthrough: {type(exc).__name__}: {exc}")
            return None

    def next(self) -> bool:
        if self.wt.needs_move:
            self._say(render.html_message(_("Make this step's move first (or press {button})."),
                                          button=f"<b>{esc(_('Show me'))}</b>"), error=True)
            return False
        ok = self.wt.next()
        self.feedback.value = ""
        self.refresh()
        return ok

    def back(self) -> bool:
        ok = self.wt.back()
        self.feedback.value = ""
        self.refresh()
        return ok

    def submit(self, text: str) -> bool:
        ok, message = self.wt.try_move(text)
        if ok:
            self._say("✔ " + esc(_("Well done.")) + " " + inline(message))
            self.wt.follow_on()
            self.refresh()
        else:
            self._say("✘ " + inline(message), error=True)
        return ok

    def submit_text(self) -> bool:
        ok = self.submit(self.notation.value)
        if ok:
            self.notation.value = ""
        return ok

    def _show_me(self) -> bool:
        move = self.wt.step.move
        ok, message = self.wt.show_me()
        if ok:
            self._say(render.html_message(_("This step's move is {move}."),
                                          move=f"<code>{esc(move or '')}</code>")
                      + " " + inline(message))
            self.wt.follow_on()
            self.refresh()
        else:
            self._say(inline(message), error=True)
        return ok

    def _say(self, message: str, error: bool = False) -> None:
        cls = "nid-wt-error" if error else "nid-wt-ok"
        self.feedback.value = f"<div class='{cls}'>{message}</div>"

    # ------------------------------------------------------------------ view

    def refresh(self) -> None:
        wt = self.wt
        step = wt.step
        n = len(wt.steps)
        # Translators: a walkthrough step's heading ({title} is the lesson file's).
        heading = _("Step {n} of {steps}: {title}").format(n=wt.index + 1, steps=n,
                                                          title=step.title)
        self.title.value = f"<h3 class='nid-heading'>{esc(heading)}</h3>"
        rule = _("Rulebook: {sections}").format(sections=step.rule)
        self.rule.value = f"<div class='nid-rule'>{esc(rule)}</div>"
        self.text.value = f"<div class='nid-text'>{to_html(step.text)}</div>"
        since = wt.changed_since()
        lines = wt.events_since(since)
        if lines:
            items = "".join(f"<li>{esc(line)}</li>" for line in lines[-40:])
            more = ("<li>" + esc(count(len(lines) - 40, "… and {n} earlier event",
                                       "… and {n} earlier events")) + "</li>"
                    if len(lines) > 40 else "")
            self.changes.value = ("<details open><summary class='nid-changes-title'>"
                                  + count(len(lines), "What changed ({n} event; marked in yellow "
                                          "on the board)", "What changed ({n} events; marked in "
                                          "yellow on the board)") + "</summary>"
                                  f"<ul class='nid-changes'>{more}{items}</ul>"
                                  f"</details>")
        else:
            self.changes.value = ""
        before = wt.observation_at(since) if since < wt.position else None
        self.board.value = board_html(wt.game.observation(wt.learner), before, wt.learner,
                                      sheet=wt.game.scores())
        if wt.game.is_over:
            sheet = wt.game.scores()
            self.sheet.value = ("<div class='nid-wt-final'><b>" + esc(_("Final score sheet"))
                                + "</b>" + sheet._repr_html_()
                                + "<details open class='nid-wt-pad'><summary>"
                                + esc(_("The score pad line by line")) + "</summary>"
                                + sheet.details_html() + "</details></div>")
        else:
            self.sheet.value = ""
        self._refresh_move()
        self.back_button.disabled = not wt.can_back
        # Next is visibly off until the step's move is made (the move box says what to do).
        self.next_button.disabled = wt.index >= n - 1 or wt.needs_move
        self.next_button.tooltip = (_("make this step's move first (or press Show me)")
                                    if wt.needs_move else _("the next step"))
        state = _("your move") if wt.needs_move else (_("done") if wt.done else "")
        self.progress.value = (f"<span class='nid-note-spaced'>"
                               f"{wt.index + 1} / {n}{' · ' + state if state else ''}</span>")
        self._refresh_complete()

    def _refresh_complete(self) -> None:
        """On the last step, its move made: the lesson is complete, and the next one is
        offered (or, after the last walkthrough, a game in the Play tab)."""
        wt = self.wt
        finished = wt.index >= len(wt.steps) - 1 and not wt.needs_move
        self.complete_box.layout.display = "" if finished else "none"
        if not finished:
            return
        title = esc(wt.lesson.title)
        if self.next_lesson is not None:
            on = render.html_message(_("Next: {lesson}."),
                                     lesson=f"<b>{esc(self.next_lesson[0])}</b>")
            self.next_lesson_button.layout.display = ""
        else:
            on = esc(_("That was the last walkthrough: try what you learnt in the Play tab."))
            self.next_lesson_button.layout.display = "none"
        done = render.html_message(_("Lesson complete: {lesson}."), lesson=f"<b>{title}</b>")
        self.complete.value = f"<div class='nid-done'>✔ {done} {on}</div>"

    def _go_on(self) -> bool:
        if self.next_lesson is None:
            return False
        self.next_lesson[1]()
        return True

    def _refresh_move(self) -> None:
        wt = self.wt
        old = self.control
        self.control = None
        if wt.needs_move:
            d = wt.game.decision
            assert d is not None
            reason = wt.step.why[:1].upper() + wt.step.why[1:]
            why = ("<div class='nid-why'>" + render.html_message(_("Why: {reason}."),
                                                                 reason=inline(reason))
                   + "</div>" if reason else "")
            ask = render.html_message(_("Your move: {move}"), move=inline(wt.prompt()))
            self.ask.value = f"<div class='nid-ask'>{ask}{why}</div>"
            ctx = Context(kind=d.kind, player=d.player, actions=wt.game.legal_actions(),
                          obs=wt.game.observation(d.player), submit=self.submit,
                          report=lambda m: self._say("✘ " + esc(m), error=True),
                          game=wt.game, prompt=d.prompt)
            self.control = build_control(ctx)
            self.control_box.children = [self.control.widget]
            self.move_box.layout.display = ""
        else:
            self.control_box.children = []
            self.move_box.layout.display = "none"
        if wt.step.move and wt.done:
            # Back to a step whose move was made (or just after it): say which, and that
            # it is made; Back never undoes the learner's moves.
            made = render.html_message(
                _("You made this step's move: {move} Press {button} to go on."),
                move=inline(wt.prompt()), button=f"<b>{esc(_('Next ▶'))}</b>")
            self.made_note.value = f"<div class='nid-made'>✔ {made}</div>"
        else:
            self.made_note.value = ""
        if old is not None:
            old.close()


class WalkthroughTab(W.VBox):
    """The Walkthrough tab: a choice of lesson (the lab's, the base game first, then the
    teacher's from ``--lessons``), the chosen lesson's :class:`WalkthroughApp`, and
    Restart. Each lesson keeps its progress for the session: switching away and back
    returns to the same step. Lesson files that fail their checks are listed with their
    errors under the chooser; the others still work."""

    def __init__(self, console: Console | None = None, start: str = FIRST,
                 library: Library | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-walkthrough-tab")
        self.console = console if console is not None else Console()
        self.library = library if library is not None else Library()
        self.entries: dict[str, Entry] = {e.key: e for e in
                                          self.library.entries("walkthrough") if e.lesson}
        self.apps: dict[str, WalkthroughApp] = {}
        if start not in self.entries:
            raise ValueError(f"no walkthrough {start!r}; choose one of "
                             f"{', '.join(self.entries)}")
        self.chooser = W.ToggleButtons(
            options=[(e.title, key) for key, e in self.entries.items()], value=start,
            tooltips=[e.lesson.summary for e in self.entries.values()],
        )
        self.chooser.add_class("nid-wt-chooser")
        self.chooser.add_class("nid-fit-buttons")
        self.summary = W.HTML()
        self.summary.add_class("nid-wt-summary")
        self.problems = W.HTML(self._problems_html())
        self.problems.add_class("nid-wt-problems")
        self.restart_button = W.Button(description=_("↺ Restart"),
                                       tooltip=_("start this walkthrough again from its "
                                                 "first step"),
                                       layout=W.Layout(width="auto", min_width="110px"))
        self.restart_button.add_class("nid-wt-restart")
        self.restart_button.on_click(lambda _b: self.restart())
        self.body = W.VBox()
        head = W.HBox([self.chooser, self.restart_button],
                      layout=W.Layout(align_items="center", flex_flow="row wrap"))
        self.children = [head, self.problems, self.summary, self.body]
        self.chooser.observe(lambda change: self._show(change["new"]), names="value")
        self._show(self.chooser.value)

    def _problems_html(self) -> str:
        bad = self.library.errors("walkthrough")
        lines = [f"<li><code>{esc(_short(e))}</code></li>" for e in bad]
        if self.library.folder_error:
            lines.insert(0, f"<li>{esc(self.library.folder_error)}</li>")
        if not lines:
            return ""
        return ("<div class='nid-lesson-errors'>⚠ "
                + esc(_("These lesson files could not be used (the others work):")) + "<ul>"
                + "".join(lines) + "</ul></div>")

    @property
    def app(self) -> WalkthroughApp:
        return self.apps[self.chooser.value]

    def choose(self, key: str) -> WalkthroughApp:
        """Show lesson ``key`` (as the chooser's button does)."""
        if key not in self.entries:
            raise ValueError(f"no walkthrough {key!r}; choose one of {', '.join(self.entries)}")
        self.chooser.value = key  # observed: _show
        return self.app

    def _show(self, key: str) -> None:
        """Lesson ``key`` under the chooser: built the first time, then as it was left."""
        lesson_ = self.entries[key].lesson
        if key not in self.apps:
            app = WalkthroughApp(Walkthrough(lesson_), console=self.console)
            keys = list(self.entries)
            following = keys[keys.index(key) + 1:]
            if following:
                nxt = following[0]
                app.next_lesson = (self.entries[nxt].title, lambda: self.choose(nxt))
            app.refresh()
            self.apps[key] = app
        self.summary.value = (f"<div class='nid-tab-summary'>"
                              f"{inline(lesson_.summary)}</div>")
        self.body.children = [self.apps[key]]

    def restart(self) -> None:
        """Back to the first step of the current lesson, no move made."""
        app = self.app
        app.wt.restart()
        app.feedback.value = ""
        app.refresh()


def walkthrough_app(key: str = FIRST, library: Library | None = None,
                    **kwargs: Any) -> WalkthroughApp:
    """One walkthrough on its scripted deal: ``"base"`` (the default), ``"heroes"``,
    ``"thingvellir"`` or a teacher's lesson of ``library``."""
    return WalkthroughApp(Walkthrough(lesson(key, library)), **kwargs)


__all__ = ["FIRST", "Walkthrough", "WalkthroughApp", "WalkthroughTab", "board_html", "lesson",
           "walkthrough_app"]
