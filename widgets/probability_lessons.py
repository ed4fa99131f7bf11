"""The probability lessons on screen: situation, prediction, simulation, explanation.

The lessons are files (``nidavellir/lessons/files/probability/*.yaml`` and a teacher's
own, ``--lessons DIR``), read and checked by :mod:`nidavellir.lessons`.
:class:`ProbabilityLessonApp` plays one lesson step by step: the situation in words, the
question to predict (a probability, a mean or a number of simulations), *Submit my
prediction* (sent to the teacher in class mode, :class:`widgets.classroom.ClassLink`),
then *Run the simulation* (its result said in words, with its convergence chart: the
prediction is locked from then on), then *Show the exact answer* (the answer explained with
every number named, next to the prediction). Each is revealed by the learner's action, in
that order; each step's prediction starts from a neutral value
(:meth:`~nidavellir.lessons.probability.ProbabilityStep.neutral`), notation is said in
words where the lesson first shows it, and the last step, its answer shown, says the
lesson is complete and offers the next one.
:class:`ProbabilityLessonsTab` is the dashboard's tab: the sequence of lessons, the
teacher's after the lab's (a bad file is listed with its error), and the free lab
(:class:`widgets.lessons.LessonApp`) as its last page.

Everything works without a browser: set ``.value`` and call ``.click()``.

>>> from nidavellir.lessons import builtin
>>> app = ProbabilityLessonApp(builtin("counting"))
>>> app.prediction.value = 0.4
>>> app.submit_button.click()
>>> app.simulate_button.click()
>>> app.explanation.value
''
>>> app.reveal_button.click()
>>> "C(36, 3) = <b>7140</b>" in app.explanation.value
True
"""

from __future__ import annotations

import html
import math
import time
from typing import Any

import ipywidgets as W

from nidavellir.i18n import N_, _, count, number, percent
from nidavellir.lessons import Entry, Library
from nidavellir.lessons import short_error as _short
from nidavellir.lessons.markup import inline, to_html
from nidavellir.lessons.position import PositionStep
from nidavellir.lessons.probability import ProbabilityLesson, ProbabilityStep

from .classroom import ClassLink
from .session import Console
from .style import button, css_widget

esc = html.escape
#: The tab's last page.
LAB = "lab"
#: Seconds after Submit during which a new value of the prediction still belongs to it: a
#: browser sends a button's click at once but may hold a slider's last value until the
#: kernel has answered the one before, so the click can arrive first.
LATE_VALUE_S = 2.0
LAB_TITLE = N_("Free lab")


def _out_of_range(kind: str, low: float, high: float) -> str:
    if kind == "probability":
        return _("A chance is between 0 and 1.")
    if kind == "count":
        return _("A number of simulations here is from {low} to {high}.").format(
            low=number(low), high=number(high))
    return _("The average here is between {low} and {high}: predict a number in that "
             "range.").format(low=f"{low:g}", high=f"{high:g}")


def _number(value: float, kind: str) -> str:
    """A prediction as the page shows it: a count whole, a chance or a mean to 2 places."""
    return number(value) if kind == "count" else number(value, 2)


class ProbabilityLessonApp(W.VBox):
    """One probability lesson, step by step (module docstring)."""

    def __init__(self, lesson: ProbabilityLesson, link: ClassLink | None = None,
                 console: Console | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-prob-lesson")
        self.lesson = lesson
        self.link = link
        self.console = console if console is not None else Console()
        self.index = 0
        #: Whether this lesson is the one on screen (its step is the student's place).
        self.visible = True
        self.predictions: dict[int, float] = {}
        self.submitted_at: dict[int, float] = {}
        self.results: dict[int, dict[str, Any]] = {}
        #: The steps whose exact answer the learner asked for.
        self.revealed: set[int] = set()
        #: The step whose prediction input was last set (a new step starts it afresh).
        self._input_for: int | None = None
        #: What the last step offers once done: the next lesson's title and how to open it.
        self.next_lesson: tuple[str, Any] | None = None
        self.title = W.HTML()
        self.title.add_class("nid-pl-title")
        self.situation = W.HTML()
        self.situation.add_class("nid-pl-situation")
        self.ask = W.HTML()
        self.ask.add_class("nid-pl-ask")
        self._build_prediction()
        self._build_answer()
        self._build_navigation()
        self.prediction_box = W.HBox([self.slider, self.number, self.submit_button],
                                     layout=W.Layout(align_items="center",
                                                     flex_flow="row wrap"))
        # The simulation's result first, then (on the learner's demand) the exact answer.
        self.simulation_box = W.VBox([self.simulated, self.chart,
                                      W.HBox([self.reveal_button])])
        self.answer_box = W.VBox([self.result, self.explanation, self.notes,
                                  self.dist_chart])
        self.complete_box = W.HBox([self.complete, self.next_lesson_button],
                                   layout=W.Layout(align_items="center",
                                                   flex_flow="row wrap"))
        nav = W.HBox([self.back_button, self.next_button, self.progress],
                      layout=W.Layout(align_items="center"))
        #: A position step ("What would you play here?") shows its own view here instead
        #: of the prediction, the simulation and the answer (one per step, kept: the
        #: student's move stays on it).
        self.position_box = W.VBox()
        self.position_box.add_class("nid-pl-position")
        self.position_views: dict[int, Any] = {}
        self._question_parts = [self.situation, self.ask, self.prediction_box, self.said,
                                W.HBox([self.simulate_button]), self.simulation_box,
                                self.answer_box]
        self.children = [css_widget(), self.title, self.position_box, *self._question_parts,
                         self.complete_box, nav]
        if self.link is not None:
            self.link.listeners.append(self._link_changed)
        self.refresh()

    def _build_prediction(self) -> None:
        """The learner's prediction: a slider, a number and Submit."""
        # continuous_update=False: the value reaches the kernel when the slider is let go,
        # before a click on Submit (a throttled update could arrive after it).
        self.slider = W.FloatSlider(min=0.0, max=1.0, step=0.01, value=0.5,
                                    continuous_update=False,
                                    description=_("Your prediction"), readout_format=".2f",
                                    layout=W.Layout(width="460px"))
        self.slider.add_class("nid-pl-slider")
        self.slider.add_class("nid-label-110")
        self.number = W.FloatText(description=_("Your prediction"), value=0.0,
                                  continuous_update=False,
                                  layout=W.Layout(width="260px"))
        self.number.add_class("nid-pl-number")
        self.number.add_class("nid-label-110")
        self.slider.observe(self._late_value, "value")
        self.number.observe(self._late_value, "value")
        self.submit_button = button(_("Submit my prediction"), "warning",
                                    layout=W.Layout(width="auto"))
        self.submit_button.add_class("nid-pl-submit")
        self.submit_button.on_click(lambda _b: self._guard(self.submit))

    def _build_answer(self) -> None:
        """The simulation, the exact answer on demand, and the lesson's end."""
        self.simulate_button = button(_("Run the simulation"), "primary", icon="play",
                                      layout=W.Layout(width="auto"))
        self.simulate_button.add_class("nid-pl-simulate")
        self.simulate_button.on_click(lambda _b: self._guard(self.simulate))
        self.said = W.HTML()
        self.said.add_class("nid-pl-said")
        self.simulated = W.HTML()
        self.simulated.add_class("nid-pl-simulated")
        self.reveal_button = button(_("Show the exact answer"), "info", icon="eye",
                                    layout=W.Layout(width="auto"))
        self.reveal_button.add_class("nid-pl-reveal")
        self.reveal_button.on_click(lambda _b: self._guard(self.reveal))
        self.notes = W.HTML()
        self.notes.add_class("nid-pl-notes")
        self.complete = W.HTML()
        self.complete.add_class("nid-pl-complete")
        self.next_lesson_button = button(_("Next lesson ▶"), "success",
                                         layout=W.Layout(width="auto"))
        self.next_lesson_button.add_class("nid-pl-next-lesson")
        self.next_lesson_button.on_click(lambda _b: self._guard(self.open_next_lesson))
        self.result = W.HTML()
        self.result.add_class("nid-pl-result")
        self.chart = W.Output(layout=W.Layout(min_height="0px"))
        self.chart.add_class("nid-pl-chart")
        self.dist_chart = W.Output()
        self.explanation = W.HTML()
        self.explanation.add_class("nid-pl-explanation")

    def _build_navigation(self) -> None:
        """Back, Next and where the learner is."""
        self.back_button = W.Button(description=_("◀ Back"), layout=W.Layout(width="110px"))
        self.back_button.add_class("nid-pl-back")
        self.back_button.on_click(lambda _b: self._guard(self.back))
        self.next_button = button(_("Next ▶"), "primary", layout=W.Layout(width="110px"))
        self.next_button.add_class("nid-pl-next")
        self.next_button.on_click(lambda _b: self._guard(self.next))
        self.progress = W.HTML()
        self.progress.add_class("nid-pl-progress")

    # ------------------------------------------------------------------ state

    @property
    def step(self) -> ProbabilityStep:
        return self.lesson.steps[self.index]

    @property
    def position_view(self) -> Any:
        """The view of the step on screen when it is a position step, else None."""
        if not isinstance(self.step, PositionStep):
            return None
        view = self.position_views.get(self.index)
        if view is None:
            from .position_question import position_app

            view = self.position_views[self.index] = position_app(
                self.lesson.key, self.index + 1, self.step, self.link)
            view.listeners.append(self._show_complete)
        return view

    @property
    def kind(self) -> str:
        return self.step.answer_kind

    @property
    def prediction(self) -> Any:
        """The input the current step uses (a slider for a probability, else a box)."""
        return self.slider if self.kind == "probability" else self.number

    def question_id(self, index: int | None = None) -> str:
        step = self.lesson.steps[self.index if index is None else index]
        return f"{self.lesson.key}/{step.key}"

    def _guard(self, fn: Any) -> Any:
        try:
            return fn()
        except Exception as exc:  # shown on the page, never swallowed
            self.console.error(f"probability lesson: {type(exc).__name__}: {exc}")
            return None

    # ------------------------------------------------------------------ actions

    def submit(self) -> bool:
        """Record the prediction (and send it to the class); the simulation may run. A
        prediction outside the question's own range (:meth:`Question.limits`) is refused
        with a message and never sent."""
        if isinstance(self.step, PositionStep):
            return False  # a position step is answered by a move (its own view)
        value = float(self.prediction.value)
        q = self.step.question()
        low, high = q.limits()
        if not (math.isfinite(value) and low <= value <= high):
            self._said(_out_of_range(self.kind, low, high), error=True)
            return False
        if (self.index in self.results and self.kind == "count"
                and self.predictions.get(self.index) != value):
            # The simulation ran the number predicted: a late value makes it run again.
            self.results.pop(self.index)
            self.revealed.discard(self.index)
        self.predictions[self.index] = value
        self.submitted_at[self.index] = time.monotonic()
        exact = q.exact
        if self.link is not None:
            self.link.send(self.question_id(), f"{self.lesson.title}: {self.step.title}",
                           value, self.kind,
                           float(exact.value) if exact is not None else None,
                           str(exact.value) if exact is not None else "", step=self.index + 1)
        self.refresh()
        return True

    def _late_value(self, change: dict[str, Any]) -> None:
        """The prediction's value, arriving just after Submit: it is the one submitted."""
        if change["owner"] is not self.prediction or self.index not in self.predictions:
            return
        late = time.monotonic() - self.submitted_at.get(self.index, -LATE_VALUE_S)
        if late < LATE_VALUE_S and float(change["new"]) != self.predictions[self.index]:
            self._guard(self.submit)

    def simulate(self) -> dict[str, Any] | None:
        """Run the step's simulation and say its result in words (not the exact answer
        yet: :meth:`reveal`). From then on the prediction is locked. In class, a step the
        teacher reveals waits for the reveal (the class link says so on the page)."""
        if self.link is not None and not self.link.shows_answer(self.question_id()):
            return None
        if isinstance(self.step, PositionStep):
            return None
        if self.index not in self.predictions:
            self._said(_("Submit your prediction first: then the simulation shows how it did."),
                       error=True)
            return None
        step = self.step
        q = step.question()
        result = q.run(step.trials_for(self.predictions[self.index]), step.seed, step.batches)
        self.results[self.index] = {"result": result, "facts": q.simulation_facts(result)}
        self.refresh()
        return result

    def reveal(self) -> bool:
        """Show the exact answer explained, next to the prediction (after the simulation)."""
        if self.index not in self.results:
            self._said(_("Run the simulation first: then the exact answer explains it."),
                       error=True)
            return False
        self.revealed.add(self.index)
        self.refresh()
        return True

    @property
    def finished(self) -> bool:
        """The last step's answer is shown (a position step: the student chose a move):
        the lesson is complete."""
        if self.index != len(self.lesson.steps) - 1:
            return False
        position = self.position_view
        return (position.chosen is not None) if position is not None else (
            self.index in self.revealed)

    def open_next_lesson(self) -> bool:
        if self.next_lesson is None or not self.finished:
            return False
        self.next_lesson[1]()
        return True

    def next(self) -> bool:
        if self.index >= len(self.lesson.steps) - 1 or (
                self.link is not None and not self.link.may_reach(self.lesson.key,
                                                                  self.index + 2)):
            return False
        self.index += 1
        self.refresh()
        return True

    def back(self) -> bool:
        if self.index == 0:
            return False
        self.index -= 1
        self.refresh()
        return True

    def goto(self, index: int) -> None:
        if not 0 <= index < len(self.lesson.steps):
            raise ValueError(f"no step {index}: the lesson has {len(self.lesson.steps)}")
        self.index = index if self.link is None else self.link.reachable(self.lesson.key,
                                                                           index)
        self.refresh()

    # ------------------------------------------------------------------ view

    def _restore_predictions(self) -> None:
        """The predictions this page made before its kernel was replaced (the class link
        got them back from the page)."""
        if self.link is None:
            return
        for i, step in enumerate(self.lesson.steps):
            if isinstance(step, PositionStep):
                continue  # its view restores its move
            if i not in self.predictions:
                value = self.link.answer_to(self.question_id(i))
                if value is not None:
                    self.predictions[i] = value

    def _show_said(self) -> None:
        """The prediction of this step and whether the teacher has it."""
        predicted = self.predictions.get(self.index)
        if predicted is None:
            self.said.value = ""
            return
        sent = ""
        if self.link is not None and self.link.active:
            state = self.link.state_of(self.question_id())
            sent = {"stored": " " + _("✔ It went to your teacher."),
                    "kept": " " + _("⚠ It is kept on this page until your teacher's view can "
                                    "take it (sent again by itself)."),
                    None: ""}.get(state, " " + _("It is on its way to your teacher…"))
        held = (self.link is not None and self.link.active
                and not self.link.shows_answer(self.question_id()))
        then = " " + (_("It is locked now that the simulation has run: compare it with the "
                        "result below.") if self.index in self.results
                      # The teacher holds the simulation back (its button is disabled).
                      else _("Wait for your teacher to show the simulation.") if held
                      else _("Now run the simulation."))
        # Translators: the learner's prediction (HTML: keep <b> and </b>).
        self._said(_("Your prediction: <b>{value}</b>.").format(
            value=_number(predicted, self.kind)) + sent + then)

    def _link_changed(self) -> None:
        self._restore_predictions()
        self._show_said()
        self.submit_button.description = (_("Prediction locked") if self.index in self.results
                                          else _("Change my prediction")
                                          if self.index in self.predictions
                                          else _("Submit my prediction"))
        self.simulate_button.disabled = self.index not in self.predictions
        if self.link is not None:
            self.link.follow(self)  # the teacher's pace, pause and reveal still hold

    def _said(self, message: str, error: bool = False) -> None:
        tone = "nid-bad" if error else "nid-good"
        self.said.value = f"<div class='nid-said {tone}'>{message}</div>"

    def _show_heading(self) -> None:
        # Translators: a probability lesson's heading, "Two dice · step 2 of 5: Doubles".
        self.title.value = ("<h3 class='nid-heading'>" + _(
            "{lesson} · step {number} of {steps}: {step}").format(
                lesson=esc(self.lesson.title), number=self.index + 1,
                steps=len(self.lesson.steps), step=esc(self.step.title)) + "</h3>")

    def _show_navigation(self) -> None:
        """The lesson's end, Back/Next and the place; then the teacher's pace, pause and
        reveal (the class link), after the step drew itself."""
        n = len(self.lesson.steps)
        self._show_complete()
        self.back_button.disabled = self.index == 0
        self.next_button.disabled = self.index >= n - 1
        self.progress.value = (f"<span class='nid-note-spaced'>"
                               f"{self.index + 1} / {n}</span>")
        if self.link is not None and self.link.active and self.visible:
            self.link.set_place(lesson=self.lesson.key, step=self.index)
        if self.link is not None:
            self.link.follow(self)

    def _refresh_position(self, view: Any) -> None:
        """A position step on screen: its view, the lesson's heading (after the view, as
        for a question step) and navigation."""
        for part in self._question_parts:
            part.layout.display = "none"
        self.position_box.children = [view]
        self.position_box.layout.display = ""
        self._show_heading()
        view.set_paused(False)  # the class link pauses it again if the teacher still does
        self._show_navigation()

    def refresh(self) -> None:
        position = self.position_view
        if position is not None:
            self._refresh_position(position)
            return
        self.position_box.children = []
        self.position_box.layout.display = "none"
        for part in self._question_parts[:5]:  # the simulation and the answer: below
            part.layout.display = ""
        step = self.step
        texts = step.texts()
        kind = self.kind
        self.situation.value = f"<div class='nid-text'>{to_html(texts['situation'])}</div>"
        hint = {"probability": _("a chance from 0 to 1"),
                "mean": _("a number: the average you expect"),
                "count": _("a whole number of simulations")}[kind]
        # Translators: the step's question, then what kind of answer it wants.
        self.ask.value = ("<div class='nid-ask'>" + _("Predict: {question}").format(
            question=inline(texts["predict"])) + f" <span class='nid-ask-hint'>({hint})</span>"
            "</div>")
        self.slider.layout.display = "" if kind == "probability" else "none"
        self.number.layout.display = "none" if kind == "probability" else ""
        self._restore_predictions()
        predicted = self.predictions.get(self.index)
        done = self.results.get(self.index)
        if self._input_for != self.index:
            # A new step starts from its own prediction, or from a neutral value: never
            # the previous step's answer nor this one's.
            self._input_for = self.index
            self.prediction.value = predicted if predicted is not None else step.neutral()
        self.submit_button.description = (_("Prediction locked") if done is not None
                                          else _("Change my prediction") if predicted is not None
                                          else _("Submit my prediction"))
        self.submit_button.disabled = self.prediction.disabled = done is not None
        self.submit_button.tooltip = (_("your prediction is locked: the simulation has run")
                                      if done is not None else "")
        self._show_said()
        self.simulate_button.disabled = predicted is None or done is not None
        self.simulate_button.tooltip = (_("submit your prediction first") if predicted is None
                                        else _("the simulation has run") if done is not None
                                        else _("run the simulation"))
        if done is None:
            self.simulation_box.layout.display = "none"
            self.simulated.value = ""
            self.chart.outputs = ()
        else:
            self._show_simulation(done)
        shown = done is not None and self.index in self.revealed
        if done is not None and shown:
            self._show_answer(done, predicted)
        else:
            self.answer_box.layout.display = "none"
            self.result.value = self.explanation.value = self.notes.value = ""
            self.dist_chart.outputs = ()
        self.reveal_button.disabled = shown
        self.reveal_button.layout.display = "none" if shown else ""
        # The heading last: a page that shows the step's heading has the step's text,
        # prediction and its line (never the previous step's under the new heading).
        self._show_heading()
        self._show_navigation()

    def _notes_html(self, stage: str, shown: str) -> str:
        notes = self.lesson.notation_notes(self.index, stage, shown)
        return "".join(f"<div class='nid-pl-note nid-note'>{esc(n)}</div>" for n in notes)

    def _show_simulation(self, done: dict[str, Any]) -> None:
        """The simulation's result in words and its running estimate, without the exact
        value (the chart's exact line waits for :meth:`reveal`)."""
        from nidavellir.analysis.probability import convergence_figure

        from .charts import show_figure

        step = self.step
        q = step.question()
        said = step.texts(done["facts"])["simulated"]
        predicted = self.predictions.get(self.index)
        ran = done["result"]["estimate"].n
        capped = ""
        if self.kind == "count" and predicted is not None and round(predicted) > ran:
            capped = ("<div class='nid-note'>" + _(
                "You predicted {value}; a page runs at most {most} simulations, so it ran "
                "{most}.").format(value=_number(predicted, "count"), most=number(ran))
                + "</div>")
        self.simulated.value = (f"<div class='nid-pl-sim-text nid-text'>{to_html(said)}</div>"
                                + capped + self._notes_html("simulated", said))
        exact = q.exact if self.index in self.revealed and q.answer != "count" else None
        frame = done["result"]["frame"]
        if exact is None and "exact" in frame:
            frame = frame.drop(columns=["exact"])
        figure = convergence_figure(frame, q.title, exact, q.y_title)
        # Translators: the title of a simulation's chart, "Doubles: the running estimate".
        figure.update_layout(title=_("{step}: the running estimate").format(step=step.title))
        show_figure(self.chart, figure)
        self.simulation_box.layout.display = ""

    def _show_complete(self) -> None:
        if not self.finished:
            self.complete_box.layout.display = "none"
            self.complete.value = ""
            return
        n = len(self.lesson.steps)
        way = (" " + _("Next: {lesson}.").format(lesson=esc(self.next_lesson[0]))
               if self.next_lesson is not None else "")
        self.complete.value = ("<div class='nid-pl-done nid-good'>" + count(
            n, "✔ Lesson complete: you have worked through its {n} step.",
            "✔ Lesson complete: you have worked through its {n} steps.")
            + f"{way}</div>")
        self.next_lesson_button.description = (
            f"{self.next_lesson[0]} ▶" if self.next_lesson is not None else _("Next lesson ▶"))
        self.next_lesson_button.layout.display = "" if self.next_lesson is not None else "none"
        self.complete_box.layout.display = ""

    def _show_answer(self, done: dict[str, Any], predicted: float | None) -> None:
        from .charts import show_figure

        step = self.step
        q = step.question()
        facts = done["facts"]
        result = done["result"]
        est = result["estimate"]
        kind = self.kind
        if q.exact is not None:
            truth = float(q.exact.value)
            shown = (f"<b>{esc(str(q.exact.value))}</b> ≈ {number(truth, 3)}"
                     if kind != "count" else f"<b>{number(truth)}</b>")
            verdict = ""
            if predicted is not None:
                off = predicted - truth
                scale = 1.0 if kind == "probability" else max(abs(truth), 1.0)
                gap = _number(abs(off), kind)
                if abs(off) <= 0.02 * scale:
                    verdict = " " + _("— spot on.")
                elif abs(off) <= 0.1 * scale:
                    verdict = " " + (_("— close: {gap} too high.") if off > 0
                                     else _("— close: {gap} too low.")).format(gap=gap)
                else:
                    verdict = " " + (_("— you were {gap} too high.") if off > 0
                                     else _("— you were {gap} too low.")).format(gap=gap)
            # Translators: the prediction against the exact answer (HTML: keep the tags).
            self.result.value = (
                "<div class='nid-pl-verdict nid-verdict'>" + _(
                    "You predicted <b>{value}</b>; the exact answer is {exact}").format(
                    value=_number(predicted or 0.0, kind), exact=shown) + f"{verdict}</div>")
        else:
            self.result.value = (
                "<div class='nid-pl-verdict nid-verdict'>" + _(
                    "You predicted <b>{value}</b>; the simulation says <b>{estimate}</b> "
                    "({confidence} interval {low} to {high}).").format(
                    confidence=percent(0.95),
                    value=_number(predicted or 0.0, kind), estimate=number(est.estimate, 3),
                    low=number(est.ci[0], 3), high=number(est.ci[1], 3)) + "</div>")
        explained = step.texts(facts)["explain"]
        self.explanation.value = f"<div class='nid-explanation'>{to_html(explained)}</div>"
        self.notes.value = self._notes_html("explain", explained)
        if q.distribution is not None and "distribution" in result:
            from nidavellir.analysis.probability import distribution_figure

            show_figure(self.dist_chart, distribution_figure(
                q.distribution, result["distribution"], _("Exact and simulated distribution")))
        else:
            self.dist_chart.outputs = ()
        self.answer_box.layout.display = ""


class ProbabilityLessonsTab(W.VBox):
    """The dashboard's probability lessons: the lesson sequence, then the free lab."""

    def __init__(self, game: Any = None, library: Library | None = None,
                 link: ClassLink | None = None, console: Console | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-prob-lessons")
        self.game = game
        self.console = console if console is not None else Console()
        self.library = library if library is not None else Library()
        self.link = link if link is not None else ClassLink()
        self.entries: dict[str, Entry] = {}
        for e in self.library.entries("probability"):
            if e.lesson is not None and e.lesson.key != LAB:
                self.entries.setdefault(e.lesson.key, e)
        self.apps: dict[str, W.Widget] = {}
        options = [(e.title, key) for key, e in self.entries.items()] + [(_(LAB_TITLE), LAB)]
        self.chooser = W.ToggleButtons(options=options, value=options[0][1])
        self.chooser.add_class("nid-pl-chooser")
        self.chooser.add_class("nid-fit-buttons")
        self.summary = W.HTML()
        self.summary.add_class("nid-pl-summary")
        self.problems = W.HTML(self._problems_html())
        self.problems.add_class("nid-pl-problems")
        self.body = W.VBox()
        self.children = [self.link.widget, self.chooser, self.problems, self.summary, self.body]
        self.chooser.observe(lambda change: self._show(change["new"]), names="value")
        self._show(self.chooser.value)
        # A page that comes back (its kernel was replaced) brings the lesson and step.
        self.link.on_place(self._restore_place)
        self.link.on_state(lambda _state: self.link.lead(self))

    def _restore_place(self, place: dict[str, Any]) -> None:
        lesson, step = place.get("lesson"), place.get("step")
        if lesson != LAB and lesson not in self.entries:
            return
        app = self.choose(lesson)
        if (isinstance(app, ProbabilityLessonApp) and isinstance(step, int)
                and 0 <= step < len(app.lesson.steps)):
            app.goto(step)

    def _problems_html(self) -> str:
        bad = self.library.errors("probability")
        lines = [f"<li><code>{esc(_short(e))}</code></li>" for e in bad]
        if self.library.folder_error:
            lines.insert(0, f"<li>{esc(self.library.folder_error)}</li>")
        if not lines:
            return ""
        return ("<div class='nid-lesson-errors'>"
                + _("⚠ These lesson files could not be used (the others work):")
                + "<ul>" + "".join(lines) + "</ul></div>")

    @property
    def app(self) -> W.Widget:
        return self.apps[self.chooser.value]

    def choose(self, key: str) -> W.Widget:
        if key != LAB and key not in self.entries:
            raise ValueError(f"no probability lesson {key!r}; choose one of "
                             f"{', '.join([*self.entries, LAB])}")
        self.chooser.value = key
        return self.app

    def _show(self, key: str) -> None:
        if key not in self.apps:
            if key == LAB:
                from .lessons import lessons_app

                lab = lessons_app(self.game)
                lab.on_guess = self._lab_guess
                self.apps[key] = lab
            else:
                app = ProbabilityLessonApp(self.entries[key].lesson, self.link, self.console)
                order = [*self.entries, LAB]
                after = order[order.index(key) + 1]
                title = _(LAB_TITLE) if after == LAB else self.entries[after].title
                app.next_lesson = (title, lambda after=after: self.choose(after))
                self.apps[key] = app
        for other_key, app in self.apps.items():
            if isinstance(app, ProbabilityLessonApp):
                app.visible = other_key == key
        shown = self.apps[key]
        if isinstance(shown, ProbabilityLessonApp):
            shown.refresh()
        elif self.link.active:
            self.link.set_place(lesson=LAB, step=0)
        summary = (_("Ask your own questions: pick one, set it up, simulate, compare with the "
                     "exact answer.") if key == LAB else self.entries[key].lesson.summary)
        self.summary.value = (f"<div class='nid-tab-summary'>"
                              f"{inline(summary)}</div>")
        self.body.children = [self.apps[key]]
        self.link.lead(self)  # a lesson the teacher's lock does not allow goes back

    def _lab_guess(self, label: str, guess: float, kind: str, exact: Any) -> None:
        """A quiz answer of the free lab, for the class view."""
        if exact is None:
            return
        try:
            self.link.send(f"lab/{label}", _("Free lab: {label}").format(label=label), guess, kind,
                           float(exact.value), str(exact.value))
        except ValueError as exc:  # a guess the class's store would not take
            self.console.error(f"free lab: not sent to your teacher: {exc}")


__all__ = ["LAB", "ProbabilityLessonApp", "ProbabilityLessonsTab"]
