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
from nidavellir.i18n import N_, _, join, number, percent, with_sign
from nidavellir.names import tavern_name

from .charts import show_figure
from .style import button, css_widget

#: The parameters in words, as the page names them (translated where shown).
PARAM_WORDS: dict[str, str] = {
    # Translators: what the free lab takes from a live game, in "From the game in the
    # Play tab: the number of players, the age and the cards nobody has seen yet".
    "players": N_("the number of players"), "age": N_("the age"),
    "hand_a": N_("player A's coins"), "hand_b": N_("player B's coins"),
    "hand": N_("your coins"), "treasury": N_("the Royal Treasury"),
}

#: The classes and cards a question can count: their keys (a class's letter, a card's
#: token, RO); :func:`target_options` words them in the page's language.
TARGETS: tuple[str, ...] = ("W", "H", "M", "B", "E", "RO", "W10", "E12", "W9", "E11", "M2",
                            "+3", "+5")

#: The most simulations the free lab runs (a kind may allow fewer, ``max_trials``).
MAX_TRIALS = 20_000
#: The strategies a lesson compares: (label, bot name). The search levels (hard, expert)
#: take about a second a move: too slow for the hundreds of games a lesson plays.
STRATEGY_BOTS: tuple[tuple[str, str], ...] = (
    (N_("medium (greedy)"), "greedy"), (N_("easy (random)"), "random"),
    (N_("heuristic (the search's playout policy)"), "heuristic"))
#: What a grade of a guess says, and its class (the stylesheet colours it).
VERDICTS = {"spot on": (N_("Excellent: spot on."), "nid-verdict-good"),
            "close": (N_("Close."), "nid-verdict-close"),
            "off": (N_("Not quite: the explanation below counts it."), "nid-verdict-off")}
#: Each labelled control's tooltip (ipywidgets 8 shows "null" over a label without one).
TOOLTIPS: dict[str, str] = {
    "question": N_("The kind of question to count and simulate"),
    "what": N_("The class or card the question counts"),
    "players": N_("The number of players (it sets the decks and the taverns' size)"),
    "age": N_("The age whose deck is dealt"),
    "n": N_("How many cards a tavern shows"),
    "by_round": N_("Count the cards dealt up to the end of this round (0: none yet)"),
    "pioneer": N_("What happens to the extra card of age 2"),
    "k": N_("How many cards the player picks"),
    "position": N_("When the player picks in each tavern: 1 is first"),
    "hand_a": N_("Player A's coins, separated by spaces"),
    "hand_b": N_("Player B's coins, separated by spaces"),
    "tavern": N_("The tavern where the two bids are compared"),
    "distinct": N_("Each bid that differs in values equally likely"),
    "hand": N_("Your coins, separated by spaces, the exchange coin (0) included"),
    "treasury": N_("The coins in the Royal Treasury; empty: the full treasury"),
    "bot_a": N_("The strategy of the player in seat 1"),
    "bot_b": N_("The strategy of every other player"),
    "use_game": N_("Take the parameters from the game in the Play tab"),
    "trials": N_("How many times the situation is simulated"),
    "seed": N_("The random seed: the same seed gives the same simulation"),
    "quiz": N_("Hide the answer until you have guessed"),
    "guess": N_("Your guess of the answer"),
}


def question_options() -> list[tuple[str, str]]:
    """The menu of kinds: (label, key), in the registry's order, in the page's language."""
    return [(_(k.label), k.key) for k in P.QUESTION_KINDS.values()]


def target_options() -> list[tuple[str, str]]:
    """The classes and cards a question can count (:data:`TARGETS`): a class by its
    name and letter, a card by its token (notation), with its limit in words."""
    options = []
    for key in TARGETS:
        if key in ("W10", "E12"):
            # Translators: a card of the free lab's menu; its token is notation ("W10").
            label = _("{card} (5 players only)").format(card=key)
        elif key.startswith("+"):
            # Translators: a Royal Offering of the free lab's menu, "+3 (age 1)".
            label = _("{card} (age {age})").format(card=key, age=1 if key == "+3" else 2)
        elif key in ("W", "H", "M", "B", "E", "RO"):
            label = P.target(key).label
        else:
            label = key
        options.append((label, key))
    return options


def _fmt_fraction(value: Any) -> str:
    """A fraction (notation) and its decimal value in the page's language."""
    return f"{value} ≈ {number(float(value), 4)}"


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
        self.error = W.HTML()
        unknown = question not in P.QUESTION_KINDS
        self.question = W.Dropdown(description=_("Question"), options=question_options(),
                                   value=next(iter(P.QUESTION_KINDS)) if unknown else question,
                                   layout=W.Layout(width="520px"))
        self.controls: dict[str, W.Widget] = self.parameter_controls()
        self._build_run_and_quiz(trials, seed, quiz)
        named = {"question": self.question, "use_game": self.use_game, "trials": self.trials,
                 "seed": self.seed, "quiz": self.quiz, "guess": self.guess, **self.controls}
        for name, control in named.items():
            control.tooltip = _(TOOLTIPS[name]) if name in TOOLTIPS else ""
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

        self.quiz_box = W.VBox([W.HBox([self.guess, self.guess_readout, self.check_button]),
                                 self.feedback])
        self.answer_box = W.VBox([self.exact_html, self.estimate_html, self.note, self.chart,
                                  self.dist_chart])
        self.children = [
            css_widget(),
            W.HTML("<h3 class='nid-heading'>" + html.escape(_(
                "Probability lab: count it, then simulate it")) + "</h3>"),
            self.question, self.use_game, self.param_box,
            W.HBox([self.trials, self.seed]), W.HBox([self.run_button, self.quiz]),
            self.quiz_box, self.error, self.answer_box,
        ]
        self._question_changed({"new": self.question.value})
        self._sync_quiz()
        self._watched: Any = None
        self.set_game(game)
        if unknown:
            self._say_error(_("There is no question {question} in the lab (known: "
                              "{known}).").format(question=repr(question),
                                                  known=", ".join(P.QUESTION_KINDS)))

    @staticmethod
    def parameter_controls() -> dict[str, W.Widget]:
        """The questions' parameter controls, by the name a kind of question uses
        (``QuestionKind``): a kind that needs another adds its control here."""
        # Every labelled control of the page: its label 150px wide (.nid-lessons in CSS).
        wide = W.Layout(width="420px")
        strategies = [(_(label), bot) for label, bot in STRATEGY_BOTS]
        return {
            "what": W.Dropdown(description=_("Class or card"), options=target_options(),
                               value="H", layout=wide),
            "players": W.IntSlider(description=_("Players"), min=C.MIN_PLAYERS,
                                   max=C.MAX_PLAYERS, value=3),
            "age": W.Dropdown(description=_("Age"), options=[1, 2], value=1),
            "n": W.IntSlider(description=_("Cards in the tavern"), min=1, max=9, value=3),
            "by_round": W.IntSlider(description=_("By the end of round"), min=0, max=4,
                                    value=4),
            "pioneer": W.Dropdown(description=_("The extra age-2 card"),
                                  options=[(_("leaves at random"), "random"),
                                           (_("Pioneer keeps it if drawn"), "takes_it")],
                                  value="random", layout=wide),
            "k": W.IntSlider(description=_("Picks (k)"), min=1, max=24, value=8),
            "position": W.IntSlider(description=_("Your pick position"), min=1, max=5,
                                    value=1),
            "hand_a": W.Text(description=_("Hand of player A"), value="0 2 3 4 5",
                             layout=wide),
            "hand_b": W.Text(description=_("Hand of player B"), value="0 2 3 4 5",
                             layout=wide),
            "tavern": W.Dropdown(description=_("Tie on"),
                                 options=[(tavern_name(i), i) for i in range(len(C.TAVERNS))]
                                 + [(_("any of the three"), None)], value=0,
                                 layout=wide),
            "distinct": W.Checkbox(description=_("uniform over distinct bids (random bot)"),
                                   value=False, indent=False),
            "hand": W.Text(description=_("Hand (with the 0)"), value="0 2 3 4 5",
                           layout=wide),
            "treasury": W.Text(description=_("Treasury (empty: full)"), value="",
                               # Translators: the coins are notation: "7x2" is two 7s.
                               placeholder=_("e.g. {example} (empty: the box)").format(
                                   example="5 7x2 9"),
                               layout=wide),
            "bot_a": W.Dropdown(description=_("Strategy A (seat 1)"), options=strategies,
                                value="greedy"),
            "bot_b": W.Dropdown(description=_("Strategy B (others)"), options=strategies,
                                value="random"),
        }

    def _build_run_and_quiz(self, trials: int | None, seed: int, quiz: bool) -> None:
        """The game's switch, the simulations and their seed, Simulate, and the quiz."""
        self.use_game = W.Checkbox(description=_("Use the current game"), value=False,
                                   disabled=True, indent=False,
                                   layout=W.Layout(width="auto"))
        self.trials = W.IntSlider(description=_("Simulations"), min=10, max=MAX_TRIALS,
                                  step=10, value=trials or self.kind.trials,
                                  layout=W.Layout(width="520px"))
        self.seed = W.IntText(description=_("Seed"), value=seed,
                              layout=W.Layout(width="260px"))
        self.run_button = button(_("Simulate"), "primary", icon="play")
        self.run_button.add_class("nid-lab-run")
        self.quiz = W.Checkbox(description=_("Quiz mode: guess first"), value=quiz,
                               indent=False)
        # The guess's value in the page's language ("0,50" in German): the slider's own
        # readout formats numbers the English way in the browser.
        self.guess = W.FloatSlider(description=_("Your guess"), min=0.0, max=1.0, step=0.01,
                                   value=0.5, layout=W.Layout(width="460px"), readout=False)
        self.guess_readout = W.Label(number(self.guess.value, 2),
                                     layout=W.Layout(width="60px"))
        self.guess.observe(lambda c: setattr(self.guess_readout, "value", number(c["new"], 2)),
                           "value")
        self.check_button = button(_("Check my guess"), "warning")

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
        self.use_game.description = (_("Use the current game (it is over)") if over
                                     else _("Use the current game"))
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
            self._say_error(_("The question {question} is broken: it asks for {controls}, "
                              "which this page does not draw.").format(
                                  question=repr(kind.key), controls=", ".join(missing)))
        for name, value in kind.presets.items():
            if name in self.controls:
                self.controls[name].value = value
        self.guess.max = 10.0 if kind.expectation else 1.0
        self.guess.step = 0.05 if kind.expectation else 0.01
        self.guess.description = (_("Your guess (mean)") if kind.expectation
                                  else _("Your guess (prob.)"))
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
            words = [_(PARAM_WORDS[name]) if name in PARAM_WORDS else name
                     for name in kind.from_game]
            if kind.game_words:
                words.append(_(kind.game_words))
            shown.insert(0, W.HTML("<i>" + html.escape(_(
                "From the game in the Play tab: {parameters}.").format(
                    parameters=join(words))) + "</i>"))
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
            self._say_error(_("Cannot answer: {reason}").format(reason=exc))
            self.last = {}
            return None
        except Exception as exc:  # a broken descriptor or factory: said on the page
            # Translators: a developer's detail follows: the exception, as Python names it.
            self._say_error(_("The question {question} is broken ({error}).").format(
                question=repr(self.kind.key), error=f"{type(exc).__name__}: {exc}"))
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
                # Translators: the exact answer, "Exact: P(...) = 22/51 ≈ 0.4314" (HTML).
                _("<b>Exact:</b> {question} = <b>{value}</b>").format(
                    question=html.escape(q.exact.question),
                    value=html.escape(_fmt_fraction(q.exact.value)))
                + f"<div class='nid-lab-words'>{words}</div><span class='nid-muted'>"
                + html.escape(_("Formula: {formula}").format(formula=q.exact.formula))
                + "</span>")
        else:
            self.exact_html.value = _("<b>Exact:</b> no closed form here: only the simulation "
                                      "answers this question.")
        lines = [_("<b>Simulated:</b> {estimate} ± {se} (standard error), {level} interval {low} "
                   "– {high}, n = {n}").format(
                       level=percent(0.95), estimate=number(est.estimate, 4), se=number(est.se, 4),
                       low=number(est.ci[0], 4), high=number(est.ci[1], 4), n=number(est.n))]
        if q.exact is not None:
            z = with_sign(est.z(q.exact), 2)
            lines.append(_("The exact value lies inside the interval ({z} standard errors "
                           "from the estimate).").format(z=z) if est.contains(q.exact) else
                         _("The exact value lies outside the interval ({z} standard errors "
                           "from the estimate).").format(z=z))
        self.estimate_html.value = "<br>".join(lines)
        self.note.value = ("<div class='nid-assumption'>" + html.escape(_(
            "Assumption: {assumption}").format(assumption=q.assumption)) + "</div>"
            if q.assumption else "")
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
        guess = float(self.guess.value)
        off = abs(guess - truth)
        verdict, verdict_class = VERDICTS[self.kind.grade(guess, truth, q.binary)]
        if q.exact is not None:
            said = _("You guessed {guess}; the exact answer {answer} (off by {off}).").format(
                guess=number(guess, 2), answer=_fmt_fraction(q.exact.value),
                off=number(off, 3))
        else:
            said = _("You guessed {guess}; the simulated {answer} (off by {off}).").format(
                guess=number(guess, 2), answer=number(truth, 4), off=number(off, 3))
        self.feedback.value = (f"<div class='{verdict_class}'><b>{html.escape(_(verdict))}"
                               f"</b> {html.escape(said)}</div>")
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
        return "<i>" + _("No words yet for the question {question}.").format(question=name) \
            + "</i>"
    try:
        # The explanation in the page's language: its placeholders are the same in every
        # language (tests/test_catalogues.py), so the facts fill each.
        return to_html(fill(_(kind.explanation), q.facts))
    except (KeyError, ValueError) as exc:
        return "<i>" + _("The words of the question {question} are broken: {error}").format(
            question=name, error=html.escape(str(exc))) + "</i>"


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
        # Translators: a simulated answer: "P(...): 0.4310 ± 0.0111 (95% interval 0.4093 –
        # 0.4527, 2000 simulations)".
        return "<b>" + html.escape(_(
            "{question}: {estimate} ± {se} ({level} interval {low} – {high}, {n} simulations)"
        ).format(question=answer.question, level=percent(0.95), estimate=number(answer.estimate, 4),
                 se=number(answer.se, 4), low=number(answer.ci[0], 4),
                 high=number(answer.ci[1], 4), n=number(answer.n))) + "</b>"
    if isinstance(answer, P.Distribution):
        cells = "".join(f"<tr><td>{html.escape(P.format_outcome(k))}</td><td>{v}</td>"
                        f"<td>{number(float(v), 4)}</td></tr>"
                        for k, v in sorted(answer.pmf.items(), key=lambda kv: P.outcome_key(kv[0])))
        return (f"<b>{html.escape(answer.question)}</b><table><tr>"
                f"<th>{html.escape(_('outcome'))}</th><th>{html.escape(_('exact'))}</th>"
                f"<th>≈</th></tr>{cells}</table>")
    return html.escape(str(answer))


def reveal(answer: Any, explanation: str = "", label: str = "") -> W.VBox:
    """An exercise's answer, hidden behind a button until a learner asks for it.

    ``answer`` may be an Exact, an Estimate, a Distribution or text; ``explanation`` is
    HTML shown under it; ``label`` the button's words (default: "Show the answer", in the
    page's language).
    """
    label = label or _("Show the answer")
    body = W.HTML(_answer_html(answer) + (f"<div class='nid-answer-more'>{explanation}</div>"
                                          if explanation else ""),
                  layout=W.Layout(display="none", border="1px solid #ddd", padding="4px 8px"))
    button = W.Button(description=label, icon="eye")

    def toggle(_b: Any) -> None:
        hidden = body.layout.display == "none"
        body.layout.display = "" if hidden else "none"
        button.description = _("Hide the answer") if hidden else label

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
