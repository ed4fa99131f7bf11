"""A student's page for a position step: "What would you play here?".

The view of a :class:`~nidavellir.lessons.position.PositionStep`: the situation in words,
the position as the step's seat sees it (the table and every player board from that
seat's observation only: no other seat's face-down coin, no unseen card), the question,
and the Play tab's own control for the decision (:func:`widgets.controls.build_control`:
the bid's coin slots, a tavern's cards, ...). The move chosen is checked against the
position's legal moves and sent to the class like any answer through the page's link
(:class:`MoveLink`: in class mode :meth:`widgets.classroom.ClassLink.send_move`, held by
the page until the database has it). No preview of a move's points is shown: it would be
computed on the full game, which holds what the seat cannot know.

Works without a browser: ``app.control.choose(action)``, then read ``app.said.value``.

The *Probability lessons* tab shows it for a position step of a lesson
(:attr:`widgets.probability_lessons.ProbabilityLessonApp.position_view`), the class link
for the position the teacher asks about; the teacher's pause disables its controls
(:meth:`PositionQuestionApp.set_paused`). It imports nothing of the class: the class link
(:mod:`widgets.classroom`) imports it, never the other way round.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any, Protocol

import ipywidgets as W

from nidavellir import parse_action
from nidavellir.i18n import _
from nidavellir.lessons.markup import to_html
from nidavellir.lessons.position import PositionStep

from . import render
from .controls import Context, build_control


class MoveLink(Protocol):
    """Where a student's move goes: in class mode the page's link to the class
    (:class:`widgets.classroom.ClassLink`, which also shows the position the teacher asks
    about with this view). A position question needs only this of it, so it knows nothing
    of the class: the class link sits above it."""

    listeners: list[Callable[[], None]]
    """Called after the state of any of the page's answers changed."""

    @property
    def active(self) -> bool:
        """Whether the page belongs to a class (its moves are sent)."""

    def send_move(self, lesson: str, number: int, step: Any, move: Any) -> bool:
        """Send the move (checked against the position's legal moves)."""

    def move_to(self, question: str) -> str | None:
        """The page's latest move in a position question (after a new kernel)."""

    def state_of(self, question: str) -> str | None:
        """Where the question's latest answer is (``stored``, ``kept``, ...)."""


class PositionQuestionApp(W.VBox):
    """One position step of ``lesson`` (its key), number ``number`` (1 for the first)."""

    def __init__(self, lesson: str, number: int, step: PositionStep,
                 link: MoveLink | None = None) -> None:
        super().__init__()
        self.lesson, self.number, self.step, self.link = lesson, number, step, link
        game = step.game()
        self.view = step.view(game)
        view = self.view
        # The columns' figures from the position's score sheet, as on every surface that
        # draws a board (the columns are on the table for everyone to see).
        sheet = game.scores()
        boards = "".join(
            render.board_html(p, viewer=p["seat"] == step.seat, to_move=p["seat"] == step.seat,
                              points=render.sheet_points(sheet[p["seat"]].breakdown),
                              compact=p["seat"] != step.seat)
            for p in view["players"])
        self.situation = W.HTML(f"<div class='nid-pq-situation'>{to_html(step.situation)}</div>")
        self.table = W.HTML(render.table_html(view))
        self.boards = W.HTML(f"<div class='nid-pq-boards'>{boards}</div>")
        self.question = W.HTML(f"<h3 class='nid-pq-question'>{html.escape(step.question)}</h3>")
        self.said = W.HTML("")
        self.chosen: str | None = None
        self._was_enabled: list[Any] | None = None
        #: Told when the student chose a move (the lesson's page: its last step is done).
        self.listeners: list[Any] = []
        ctx = Context(kind=view["decision"]["kind"], player=step.seat,
                      actions=[parse_action(a) for a in view["legal_actions"]], obs=view,
                      submit=self.choose_move, report=self._report,
                      prompt=view["decision"]["prompt"])
        self.control = build_control(ctx)
        self.children = [self.situation, self.table, self.boards, self.question,
                         self.control.widget, self.said]
        if link is not None:
            # The page's outbox and the database answer later: say where the move is.
            link.listeners.append(self._link_changed)
            self._link_changed()

    def _link_changed(self) -> None:
        """The class link heard from the page or the database: the move this page made
        before its kernel was replaced, and whether the teacher has it now."""
        if self.link is None or not self.link.active:
            return
        if self.chosen is None:
            self.chosen = self.link.move_to(self.question_id)
            if self.chosen is not None:
                # Back with the move it made: the control shows it too (its words and its
                # dropdowns say the same move).
                try:
                    self.control.show(parse_action(self.chosen))
                except ValueError:
                    pass
        if self.chosen is not None:
            self._say_chosen()

    def set_paused(self, paused: bool) -> None:
        """The teacher's pause: every control of the decision disabled, then given back
        as it was (a bid's *Bid* waits for its coins either way)."""
        if paused and self._was_enabled is None:
            self._was_enabled = [w for w in _descendants(self.control.widget)
                                 if hasattr(w, "disabled") and not w.disabled]
            for w in self._was_enabled:
                w.disabled = True
        elif not paused and self._was_enabled is not None:
            for w in self._was_enabled:
                w.disabled = False
            self._was_enabled = None

    @property
    def question_id(self) -> str:
        return f"{self.lesson}/{self.step.key}"

    def _report(self, message: str) -> None:
        self.said.value = f"<div class='nid-error'>{html.escape(message)}</div>"

    def choose_move(self, notation: str) -> bool:
        """The student's move (from the control): checked, kept, and sent to the class
        when there is one; a move that is not legal here is said, in one sentence."""
        try:
            move = self.step.check_move(notation)
            if self.link is not None and self.link.active:
                self.link.send_move(self.lesson, self.number, self.step, move)
        except ValueError as exc:
            self._report(str(exc))
            return False
        self.chosen = move
        self._say_chosen()
        for listener in list(self.listeners):
            listener()
        return True

    def _say_chosen(self) -> None:
        words = html.escape(self.chosen or "")
        sent = ""
        if self.link is not None and self.link.active:
            state = self.link.state_of(self.question_id)
            sent = " " + {
                "stored": _("✔ It went to your teacher."),
                "kept": _("⚠ It is kept on this page until your teacher's view can take it "
                          "(sent again by itself)."),
            }.get(state or "", _("It is on its way to your teacher…"))
        said = html.escape(_("Your move: {move}.")).replace(
            "{move}", f"<code>{words}</code>")
        self.said.value = f"<div class='nid-pq-said'>{said}{html.escape(sent)}</div>"


def _descendants(widget: Any) -> list[Any]:
    out = [widget]
    for child in getattr(widget, "children", ()):
        out.extend(_descendants(child))
    return out


def position_app(lesson: str, number: int, step: Any, link: MoveLink | None = None
                 ) -> PositionQuestionApp:
    """The student's view of a position step (see the module's docstring)."""
    return PositionQuestionApp(lesson, number, step, link)


__all__ = ["MoveLink", "PositionQuestionApp", "position_app"]
