"""Probability lessons: pick a question, set it up, compare the exact answer with a simulation.

The widget is a thin view over :mod:`nidavellir.analysis.probability`: every kind of
question there (``QUESTION_KINDS``, one descriptor each) can be asked here, with its
parameters set by hand or taken from a live game (pass a ``Game`` or a play-app
``Session``). The page draws each parameter control once (:meth:`LessonApp.__init__`); a
kind says which it uses. The exact answer, the simulated estimate with its 95% interval and
the convergence plot (a ``go.Figure`` redrawn into an ``Output``, docs/serving.md, "What is
known of Voila here") appear
after *Simulate*. An unknown kind, or one whose descriptor asks for a control the page
does not draw or does not compute, says so on the page.

Quiz mode hides the answer until the learner has made a guess, then gives feedback.

Everything works without a browser: set ``.value`` and call ``.click()``.

>>> app = lessons_app()
>>> app.question.value = "tavern"
>>> app.run_button.click()
>>> app.last["exact"].value
Fraction(22, 51)
>>> app.quiz.value = True
>>> app.guess.value = 0.4
>>> app.check_button.click()
>>> "22/51" in app.feedback.value
True
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as W

from nidavellir import Game
from nidavellir import cards as C
from nidavellir.analysis import probability as P

from .charts import show_figure
from .style import button, css_widget

#: The parameters in words, as the page names them.
PARAM_WORDS: dict[str, str] = {
    "players": "the number of players", "age": "the age", "hand_a": "player A's coins",
    "hand_b": "player B's coins", "hand": "your coins", "treasury": "the Royal Treasury",
}

TARGET_OPTIONS: tuple[tuple[str, str], ...] = (
    ("Warriors (W)", "W"), ("Hunters (H)", "H"), ("Miners (M)", "M"),
    ("Blacksmiths (B)", "B"), ("Explorers (E)", "E"), ("Royal Offerings", "RO"),
    ("W10 (5 players only)", "W10"), ("E12 (5 players only)", "E12"), ("W9", "W9"),
    ("E11", "E11"), ("M2", "M2"), ("+3 (age 1)", "+3"), ("+5 (age 2)", "+5"),
)

#: The most simulations the free lab runs (a kind may allow fewer, ``max_trials``).
MAX_TRIALS = 20_000
#: The strategies a lesson compares: (label, bot name). The search levels (hard, expert)
#: take about a second a move: too slow for the hundreds of games a lesson plays.
STRATEGY_BOTS: tuple[tuple[str, str], ...] = (
    ("medium (greedy)", "greedy"), ("easy (random)", "random"),
    ("heuristic (the search's playout policy)", "heuristic"))
#: What a grade of a guess says, and its class (the stylesheet colours it).
VERDICTS = {"spot on": ("Excellent: spot on.", "nid-verdict-good"),
            "close": ("Close.", "nid-verdict-close"),
            "off": ("Not quite: the explanation below counts it.", "nid-verdict-off")}


def question_options() -> list[tuple[str, str]]:
    """The menu of kinds: (label, key), in the registry's order."""
    return [(k.label, k.key) for k in P.QUESTION_KINDS.values()]


def _fmt_fraction(value: Any) -> str:
    return f"{value} ≈ {float(value):.4f}"


class LessonApp(W.VBox):
    """The probability lesson widget.

    ``game`` may be a :class:`~nidavellir.Game` or a play-app Session (its ``game`` and
    ``viewer`` are used); *Use the current game* then takes the player count, age,
    unseen cards, hands and treasury from it.
    """

    def __init__(self, game: Any = None, question: str = "tavern", trials: int | None = None,
                 seed: int = 0, quiz: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-lessons")
        self.source = game
        self.last: dict[str, Any] = {}
        self.on_guess: Callable[[str, float, str, Any], None] | None = None
        """Called with (question, guess, kind, exact answer) after a quiz guess (the
        dashboard sends it to the class view)."""
        self._guessed = False
        self._players = 3
        # Every labelled control of the page: its label 150px wide (.nid-lessons in CSS).
        wide = W.Layout(width="420px")
        self.error = W.HTML()
        unknown = question not in P.QUESTION_KINDS
        self.question = W.Dropdown(description="Question", options=question_options(),
                                   value=next(iter(P.QUESTION_KINDS)) if unknown else question,
                                   layout=W.Layout(width="520px"))
        self.controls: dict[str, W.Widget] = {
            "what": W.Dropdown(description="Class or card", options=list(TARGET_OPTIONS),
                               value="H", layout=wide),
            "players": W.IntSlider(description="Players", min=2, max=5, value=3),
            "age": W.Dropdown(description="Age", options=[1, 2], value=1),
            "n": W.IntSlider(description="Cards in the tavern", min=1, max=9, value=3),
            "by_round": W.IntSlider(description="By the end of round", min=0, max=4, value=4),
            "pioneer": W.Dropdown(description="The extra age-2 card",
                                  options=[("leaves at random", "random"),
                                           ("Pioneer keeps it if drawn", "takes_it")],
                                  value="random", layout=wide),
            "k": W.IntSlider(description="Picks (k)", min=1, max=24, value=8),
            "position": W.IntSlider(description="Your pick position", min=1, max=5, value=1),
            "hand_a": W.Text(description="Hand of player A", value="0 2 3 4 5",
                             layout=wide),
            "hand_b": W.Text(description="Hand of player B", value="0 2 3 4 5",
                             layout=wide),
            "tavern": W.Dropdown(description="Tie on",
                                 options=[(t, i) for i, t in enumerate(C.TAVERNS)]
                                 + [("any of the three", None)], value=0,
                                 layout=wide),
            "distinct": W.Checkbox(description="uniform over distinct bids (random bot)",
                                   value=False, indent=False),
            "hand": W.Text(description="Hand (with the 0)", value="0 2 3 4 5",
                           layout=wide),
            "treasury": W.Text(description="Treasury (empty: full)", value="",
                               placeholder="e.g. 5 7x2 9 (empty: the box)",
                               layout=wide),
            "bot_a": W.Dropdown(description="Strategy A (seat 1)", options=list(STRATEGY_BOTS),
                                value="greedy"),
            "bot_b": W.Dropdown(description="Strategy B (others)", options=list(STRATEGY_BOTS),
                                value="random"),
        }
        self.use_game = W.Checkbox(description="Use the current game", value=False,
                                   disabled=True, indent=False,
                                   layout=W.Layout(width="auto"))
        self.trials = W.IntSlider(description="Simulations", min=10, max=MAX_TRIALS, step=10,
                                  value=trials or self.kind.trials,
                                  layout=W.Layout(width="520px"))
        self.seed = W.IntText(description="Seed", value=seed,
                              layout=W.Layout(width="260px"))
        self.run_button = button("Simulate", "primary", icon="play")
        self.quiz = W.Checkbox(description="Quiz mode: guess first", value=quiz, indent=False)
        self.guess = W.FloatSlider(description="Your guess", min=0.0, max=1.0, step=0.01,
                                   value=0.5, layout=W.Layout(width="520px"),
                                   readout_format=".2f")
        self.check_button = button("Check my guess", "warning")
        self.feedback = W.HTML()
        self.exact_html = W.HTML()
        self.estimate_html = W.HTML()
        self.note = W.HTML()
        self.chart = W.Output(layout=W.Layout(min_height="360px"))
        self.dist_chart = W.Output()
        self.param_box = W.VBox()

        self.question.observe(self._question_changed, "value")
        self.use_game.observe(lambda _c: self._sync_params(), "value")
        self.quiz.observe(lambda _c: self._sync_quiz(), "value")
        for control in self.controls.values():
            control.observe(self._params_changed, "value")
        self.run_button.on_click(lambda _b: self.run())
        self.check_button.on_click(lambda _b: self.check_guess())

        self.quiz_box = W.VBox([W.HBox([self.guess, self.check_button]), self.feedback])
        self.answer_box = W.VBox([self.exact_html, self.estimate_html, self.note, self.chart,
                                  self.dist_chart])
        self.children = [
            css_widget(),
            W.HTML("<h3 class='nid-heading'>Probability lab: count it, then simulate it</h3>"),
            self.question, self.use_game, self.param_box,
            W.HBox([self.trials, self.seed]), W.HBox([self.run_button, self.quiz]),
            self.quiz_box, self.error, self.answer_box,
        ]
        self._question_changed({"new": self.question.value})
        self._sync_quiz()
        self._watched: Any = None
        self.set_game(game)
        if unknown:
            self._say_error(f"There is no question {question!r} in the lab (known: "
                            f"{', '.join(P.QUESTION_KINDS)}).")

    @property
    def kind(self) -> P.QuestionKind:
        """The descriptor of the selected kind of question."""
        return P.QUESTION_KINDS[self.question.value]

    def _say_error(self, text: str) -> None:
        self.error.value = f"<div class='nid-error'>{html.escape(text, quote=False)}</div>"

    # ------------------------------------------------------------------ game

    @property
    def game(self) -> Game | None:
        src = self.source
        if src is None:
            return None
        return src if isinstance(src, Game) else getattr(src, "game", None)

    @property
    def seat(self) -> int:
        viewer = getattr(self.source, "viewer", 0)
        return int(viewer) if isinstance(viewer, int) else 0

    def set_game(self, game: Any) -> None:
        """Attach a Game or Session (None detaches). "Use the current game" is ticked when
        that game is still being played: a game that is over has no cards left to draw."""
        if self._watched is not None:
            self._watched.unobserve(self._game_changed, "version")
            self._watched = None
        self.source = game
        if game is not None and hasattr(game, "observe") and hasattr(game, "version"):
            game.observe(self._game_changed, "version")
            self._watched = game
        self._game_changed(None)

    def _game_changed(self, change: Any) -> None:
        game = self.game
        over = game is not None and game.is_over
        state = (id(game), over)
        if change is not None and state == getattr(self, "_game_state", None):
            return  # a move in the same game: nothing to change here
        self._game_state = state
        self.use_game.disabled = game is None or over
        self.use_game.description = ("Use the current game (it is over)" if over
                                     else "Use the current game")
        value = game is not None and not over
        if self.use_game.value != value:
            self.use_game.value = value  # the observer re-syncs the parameters
        else:
            self._sync_params()

    # ------------------------------------------------------------------ parameters

    def _question_changed(self, change: dict[str, Any]) -> None:
        kind = P.QUESTION_KINDS[change["new"]]
        old = P.QUESTION_KINDS.get(change.get("old") or "")
        top = min(MAX_TRIALS, kind.max_trials or MAX_TRIALS)
        self.trials.max = max(top, self.trials.min)
        if self.trials.value > top or kind.max_trials is not None or (
                old is not None and old.max_trials is not None):
            self.trials.value = min(kind.trials, top)
        self.error.value = ""
        missing = [name for name in (*kind.controls, *kind.presets) if name not in self.controls]
        if missing:
            self._say_error(f"The question {kind.key!r} is broken: it asks for "
                            f"{', '.join(missing)}, which this page does not draw.")
        for name, value in kind.presets.items():
            if name in self.controls:
                self.controls[name].value = value
        self.guess.max = 10.0 if kind.expectation else 1.0
        self.guess.step = 0.05 if kind.expectation else 0.01
        self.guess.description = ("Your guess (mean)" if kind.expectation
                                  else "Your guess (prob.)")
        self._sync_params()
        self._hide_answer()

    def _params_changed(self, change: dict[str, Any]) -> None:
        self._sync_limits()
        self._hide_answer()

    def _sync_limits(self) -> None:
        players = self.controls["players"].value
        if self.using_game:
            assert self.game is not None
            players = self.game.config.players
        self.controls["by_round"].max = C.ROUNDS_PER_AGE[players]
        self.controls["position"].max = players
        if players != self._players:
            # A new player count: the tavern size follows it (3, 3, 4, 5 cards).
            self._players = players
            self.controls["n"].value = C.CARDS_PER_TAVERN[players]

    def _sync_params(self) -> None:
        kind = self.kind
        from_game = set(kind.from_game) if self.using_game else set()
        shown: list[W.Widget] = [self.controls[name] for name in kind.controls
                                 if name not in from_game and name in self.controls]
        if self.using_game and from_game:
            words = [PARAM_WORDS.get(name, name) for name in kind.from_game]
            shown.insert(0, W.HTML(f"<i>From the game in the Play tab: {', '.join(words)}"
                                   f"{kind.game_words}.</i>"))
        self.param_box.children = shown
        self._sync_limits()
        self._hide_answer()

    @property
    def using_game(self) -> bool:
        return self.game is not None and self.use_game.value

    def params(self) -> dict[str, Any]:
        """The parameters of the selected question, as its factory takes them."""
        kind = self.kind
        out = kind.arguments({name: c.value for name, c in self.controls.items()})
        game = self.game if self.using_game else None
        if game is not None:
            out["game"] = game
            if kind.seat:
                out["seat"] = self.seat
        return out

    # ------------------------------------------------------------------ running

    def build(self) -> P.Question:
        return self.kind.question(**self.params())

    def run(self) -> dict[str, Any] | None:
        """Compute the exact answer and the simulation; draw the plots. A bad value says
        what is wrong; a kind that fails otherwise says it is broken (never a blank page)."""
        self.error.value = ""
        try:
            q = self.build()
            result = q.run(self.trials.value, self.seed.value)
        except (ValueError, KeyError) as exc:
            self._say_error(f"Cannot answer: {exc}")
            self.last = {}
            return None
        except Exception as exc:  # a broken descriptor or factory: said on the page
            self._say_error(f"The question {self.kind.key!r} is broken "
                            f"({type(exc).__name__}: {exc}).")
            self.last = {}
            return None
        self.last = {"question": q, "exact": q.exact, **result}
        self._render(q, result)
        if self.quiz.value and not self._guessed:
            self._hide_answer(keep_last=True)
        else:
            self._show_answer()
        return self.last

    def _render(self, q: P.Question, result: dict[str, Any]) -> None:
        est: P.Estimate = result["estimate"]
        words = _explanation(q, self.kind)
        if q.exact is not None:
            self.exact_html.value = (
                f"<b>Exact:</b> {html.escape(q.exact.question)} = "
                f"<b>{html.escape(_fmt_fraction(q.exact.value))}</b>"
                f"<div class='nid-lab-words'>{words}</div>"
                f"<span class='nid-muted'>Formula: {html.escape(q.exact.formula)}</span>")
        else:
            self.exact_html.value = ("<b>Exact:</b> no closed form here: only the simulation "
                                     "answers this question.")
        lines = [f"<b>Simulated:</b> {est.estimate:.4f} ± {est.se:.4f} (standard error), "
                 f"95% interval {est.ci[0]:.4f} – {est.ci[1]:.4f}, n = {est.n}"]
        if q.exact is not None:
            z = est.z(q.exact)
            inside = "inside" if est.contains(q.exact) else "outside"
            lines.append(f"The exact value lies {inside} the interval ({z:+.2f} standard "
                         "errors from the estimate).")
        self.estimate_html.value = "<br>".join(lines)
        self.note.value = (f"<div class='nid-assumption'>Assumption: "
                           f"{html.escape(q.assumption)}</div>" if q.assumption else "")
        self.figure = q.figure(result["frame"])
        show_figure(self.chart, self.figure)
        if q.distribution is not None:
            self.dist_figure = P.distribution_figure(q.distribution, result.get("distribution"),
                                                     q.distribution.question)
            show_figure(self.dist_chart, self.dist_figure)
        else:
            self.dist_figure = None
            self.dist_chart.outputs = ()

    # ------------------------------------------------------------------ quiz

    def _sync_quiz(self) -> None:
        on = self.quiz.value
        self.quiz_box.layout.display = "" if on else "none"
        self._guessed = False
        self.feedback.value = ""
        if on:
            self._hide_answer(keep_last=True)
        elif self.last:
            self._show_answer()

    def _hide_answer(self, keep_last: bool = False) -> None:
        self.answer_box.layout.display = "none"
        if not keep_last:
            self.last = {}
            self._guessed = False
            self.feedback.value = ""

    def _show_answer(self) -> None:
        self.answer_box.layout.display = ""

    @property
    def answer_shown(self) -> bool:
        return self.answer_box.layout.display != "none"

    def check_guess(self) -> None:
        """Quiz: compare the guess with the exact answer (or the simulation when there
        is none), then reveal everything."""
        if not self.last:
            if self.run() is None:
                return
        q: P.Question = self.last["question"]
        est: P.Estimate = self.last["estimate"]
        truth = float(q.exact) if q.exact is not None else est.estimate
        what = (f"the exact answer {html.escape(_fmt_fraction(q.exact.value))}"
                if q.exact is not None else f"the simulated {truth:.4f}")
        guess = float(self.guess.value)
        off = abs(guess - truth)
        verdict, verdict_class = VERDICTS[self.kind.grade(guess, truth, q.binary)]
        self.feedback.value = (f"<div class='{verdict_class}'><b>{verdict}</b> You guessed "
                               f"{guess:.2f}; {what} (off by {off:.3f}).</div>")
        self._guessed = True
        self._show_answer()
        if self.on_guess is not None:
            kind = "probability" if q.binary else "mean"
            label = q.exact.question if q.exact is not None else q.title
            self.on_guess(label, guess, kind, q.exact)


def _explanation(q: P.Question, kind: P.QuestionKind) -> str:
    """The question's exact answer in words (its kind's ``explanation``), with its numbers
    filled from the computation; a kind without words, or whose words name a number the
    computation does not give, says so."""
    from nidavellir.lessons.markup import fill, to_html

    name = html.escape(repr(kind.key), quote=False)
    if not kind.explanation:
        return f"<i>No words yet for the question {name}.</i>"
    try:
        return to_html(fill(kind.explanation, q.facts))
    except (KeyError, ValueError) as exc:
        return f"<i>The words of the question {name} are broken: {html.escape(str(exc))}</i>"


def figure_box(fig: Any) -> W.Output:
    """A plotly figure in an Output (the robust way to show a chart under Voila)."""
    out = W.Output()
    show_figure(out, fig)
    return out


def _answer_html(answer: Any) -> str:
    if isinstance(answer, P.Exact):
        return (f"<b>{html.escape(answer.question)} = {html.escape(_fmt_fraction(answer.value))}"
                f"</b><br><span class='nid-muted'>{html.escape(answer.formula)}</span>")
    if isinstance(answer, P.Estimate):
        return f"<b>{html.escape(str(answer))}</b>"
    if isinstance(answer, P.Distribution):
        cells = "".join(f"<tr><td>{html.escape(P.format_outcome(k))}</td><td>{v}</td>"
                        f"<td>{float(v):.4f}</td></tr>"
                        for k, v in sorted(answer.pmf.items(), key=lambda kv: P.outcome_key(kv[0])))
        return (f"<b>{html.escape(answer.question)}</b><table><tr><th>outcome</th>"
                f"<th>exact</th><th>≈</th></tr>{cells}</table>")
    return html.escape(str(answer))


def reveal(answer: Any, explanation: str = "", label: str = "Show the answer") -> W.VBox:
    """An exercise's answer, hidden behind a button until a learner asks for it.

    ``answer`` may be an Exact, an Estimate, a Distribution or text; ``explanation`` is
    HTML shown under it.
    """
    body = W.HTML(_answer_html(answer) + (f"<div class='nid-answer-more'>{explanation}</div>"
                                          if explanation else ""),
                  layout=W.Layout(display="none", border="1px solid #ddd", padding="4px 8px"))
    button = W.Button(description=label, icon="eye")

    def toggle(_b: Any) -> None:
        hidden = body.layout.display == "none"
        body.layout.display = "" if hidden else "none"
        button.description = "Hide the answer" if hidden else label

    button.on_click(toggle)
    box = W.VBox([button, body])
    box.add_class("nid-answer")
    return box


def lessons_app(game: Any = None, question: str = "tavern", trials: int | None = None,
                seed: int = 0, quiz: bool = False) -> LessonApp:
    """The lesson widget (the dashboard embeds this). ``game``: an optional Game or
    Session whose state the questions can use."""
    return LessonApp(game, question=question, trials=trials, seed=seed, quiz=quiz)


def question_keys() -> Sequence[str]:
    return list(P.QUESTION_KINDS)


__all__ = ["LessonApp", "lessons_app", "reveal", "figure_box", "question_options",
           "question_keys"]
