"""Probability lessons: a situation of the game, a prediction, a simulation, the answer.

A probability lesson file (``kind: probability``, docs/lessons.md) is a list of steps.
Each step puts a **situation** of the game in words, names the **question** it asks
(one of the lab's question kinds with its parameters, :data:`QUESTIONS`; a fixed
situation is a ``game`` to set up), what the student must **predict**, the
**simulation** to run, and the **explanation** of the exact answer. Every number in the
texts comes from the computation through placeholders (``{N} cards are still unseen in
age {age}, {K} of them {target}``): the question's facts
(:mod:`nidavellir.analysis.probability.questions`) and, in the explanation, the
simulation's (``{estimate}``, ``{se}``, ``{low}``, ``{high}``, ``{trials}``, ``{z}``). A
placeholder the question does not provide, a format that does not suit its number, an
unknown question kind or parameter is an error naming its line.

A step is a sequence the learner moves through (:data:`STAGES`): the prediction, then the
simulation's result said in words (the step's **simulated** text, which may not use the
exact answer: it is shown before it), then the exact answer explained. Notation such as
C(36, 3) is explained in words the first time a lesson shows it (:meth:`notation_notes`).

>>> from nidavellir.lessons import builtin
>>> lesson = builtin("counting")
>>> step = lesson.steps[0]
>>> step.question().facts["N"], step.question().facts["K"]
(36, 6)
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..analysis.probability.questions import (
    ANSWER_KINDS,
    ASKS,
    QUESTION_KINDS,
    QUESTIONS,
    SIMULATION_FACTS,
    Question,
    question,
)
from ..cards import TAVERNS
from ..errors import IllegalAction, InvalidNotation, NidavellirError
from ..game import Game
from ..i18n import _
from .markup import fill, placeholders
from .position import PositionStep
from .source import Source, fields, integer, key_of, mapping, text, texts, unique_keys, where
from .translation import declared

LESSON_FIELDS = ("kind", "key", "title", "summary", "steps")
STEP_FIELDS = ("key", "title", "situation", "question", "predict", "explain")
STEP_OPTIONAL = ("ask", "simulate", "simulated")
#: The order in which a step's texts reach the learner: each is shown by the learner's own
#: action (Submit, Run the simulation, Show the exact answer).
STAGES = ("situation", "predict", "simulated", "explain")
#: The facts a step's simulated text may not use: it is read before the exact answer.
HIDDEN_BEFORE_ANSWER = ("answer", "z")
#: The simulated text of a step that has none: the simulation's result in plain words.
DEFAULT_SIMULATED = ("The simulation ran {trials:,} times: its estimate is {estimate:.3f}, "
                     "with a 95% interval from {low:.3f} to {high:.3f}.")
DEFAULT_SIMULATED_COUNT = ("The simulation ran {trials:,} times: its standard error is "
                           "{se:.4f}.")
SIMULATE_FIELDS = ("trials", "seed", "batches")
GAME_FIELDS = ("players", "seed")
GAME_OPTIONAL = ("expansions", "actions")
#: The most simulations a step may run (a page must answer within seconds; a kind may
#: allow fewer, ``QuestionKind.max_trials``).
DEFAULT_MAX_TRIALS = 50_000
DEFAULT_TRIALS = 2_000


@dataclass(frozen=True)
class ProbabilityStep:
    """One step: the situation, the question, the prediction, the simulation, the
    explanation (texts are Markdown with placeholders)."""

    key: str
    title: str
    situation: str
    kind: str
    """The question kind (``tavern``, ``round``, ...)."""
    params: dict[str, Any]
    """The question's parameters as the file gives them (``game`` is a mapping)."""
    ask: Any
    predict: str
    explain: str
    simulated: str
    """The simulation's result in words (placeholders; never the exact answer)."""
    trials: int
    seed: int
    batches: int
    line: int = 0
    built: Question | None = field(default=None, compare=False, repr=False)

    def question(self) -> Question:
        """The question, computed (the exact answer and its facts)."""
        if self.built is not None:
            return self.built
        return build_question(self.kind, self.params, self.ask)

    @property
    def answer_kind(self) -> str:
        return self.question().answer

    def texts(self, simulation: Mapping[str, Any] | None = None) -> dict[str, str]:
        """The step's texts with their placeholders filled (Markdown): ``situation``,
        ``predict`` and, with a simulation's facts, ``simulated`` and ``explain``."""
        facts = self.question().facts
        out = {"situation": fill(self.situation, facts), "predict": fill(self.predict, facts)}
        if simulation is not None:
            out["simulated"] = fill(self.simulated, {**facts, **simulation})
            out["explain"] = fill(self.explain, {**facts, **simulation})
        return out

    def trials_for(self, prediction: float | None) -> int:
        """How many simulations the step runs: its own number, or, where the learner
        predicts a number of simulations, that number (at most the kind's limit, which
        the simulated text then says): the simulation tests the prediction and never
        gives the exact answer away before it is asked for."""
        if self.answer_kind != "count" or prediction is None:
            return self.trials
        return max(1, min(round(prediction), max_trials(self.kind)))

    def neutral(self) -> float:
        """Where the prediction starts: the middle of its range for a chance or a mean
        (moved a quarter of the range away when the exact answer is within a twentieth of
        the range of the middle),
        the least for a number of simulations; never the exact answer."""
        q = self.question()
        low, high = q.limits()
        if self.answer_kind == "count":
            return low
        middle = (low + high) / 2
        exact = float(q.exact.value) if q.exact is not None else None
        if exact is not None and abs(exact - middle) < (high - low) / 20:
            return middle + (high - low) / 4 * (-1 if exact > middle else 1)
        return middle


@dataclass(frozen=True)
class ProbabilityLesson:
    key: str
    title: str
    summary: str
    steps: tuple[Any, ...]
    """The steps: :class:`ProbabilityStep`, or :class:`~.position.PositionStep` for a step
    with a position (it asks for a move). Typed loosely on purpose: the views that take
    only probability steps read ``ProbabilityStep`` from it, and a position step has its
    own view (:mod:`.position`)."""
    file: str = ""
    key_line: int = 1
    kind: str = "probability"
    language: str = "en"
    """The language of its texts (a translation's, once translated)."""
    languages: tuple[str, ...] = ("en",)
    """The languages the lesson comes in, the file's own first."""

    def notation_notes(self, index: int, stage: str, shown: str) -> list[str]:
        """Notation said in words where the lesson shows it first: for each sign of
        :data:`NOTATIONS` in ``shown`` (the step's ``stage`` text, filled) that no earlier
        text of the lesson (earlier steps, earlier stages of this step) uses, a sentence
        built on its first use here."""
        earlier = [getattr(step, name) for step in self.steps[:index] for name in STAGES]
        step = self.steps[index]
        earlier += [getattr(step, name) for name in STAGES[:STAGES.index(stage)]]
        notes = []
        for pattern, words in NOTATIONS:
            match = pattern.search(shown)
            if match and not any(pattern.search(_unfilled(t)) for t in earlier):
                notes.append(words(match))
        return notes


def _unfilled(text_: str) -> str:
    """A template with its placeholders as a number would stand there (so C({N}, {n})
    is seen as C(36, 3) is)."""
    return re.sub(r"\{[^{}]*\}", "1", text_)


def _choose(m: re.Match[str]) -> str:
    # Translators: said the first time a lesson writes C(n, k), e.g. C(36, 3).
    return _("C({n}, {k}), read “{n} choose {k}”, is the number of different ways to choose "
             "{k} cards among {n} when their order does not matter.").format(
        n=m.group(1), k=m.group(2))


def _probability(m: re.Match[str]) -> str:
    # Translators: said the first time a lesson writes P(...), e.g. P(X = 2).
    return _("P({event}) is the chance that {event}: P(…) reads “the probability of”.").format(
        event=m.group(1))


def _root(_m: re.Match[str]) -> str:
    # Translators: said the first time a lesson writes the square root sign.
    return _("√ is the square root: √x is the number whose square is x.")


#: Signs a lesson may use, and how each is said in words the first time it appears.
NOTATIONS: tuple[tuple[re.Pattern[str], Any], ...] = (
    (re.compile(r"\bC\((\d+|\w+), ([^()]+)\)"), _choose),
    (re.compile(r"\bP\(([^()]+)\)"), _probability),
    (re.compile(r"√"), _root),
)


# ====================================================================== questions

def _game(spec: Mapping[str, Any]) -> Game:
    game = Game.new(players=spec["players"], seed=spec["seed"],
                    expansions=tuple(spec.get("expansions") or ()))
    for action in spec.get("actions") or ():
        game.apply(action)
    return game


_TAVERN_NAMES = {name.lower(): i for i, name in enumerate(TAVERNS)}


def _tavern(value: Any) -> int | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("any", "")):
        return None
    if isinstance(value, str) and value.strip().lower().removeprefix("the ") in _TAVERN_NAMES:
        return _TAVERN_NAMES[value.strip().lower().removeprefix("the ")]
    # Translators: an error of a probability lesson's question: tavern is a key of the
    # file, {taverns} and any the values it may write.
    raise ValueError(_("tavern must be {taverns} or any, not {value}").format(
        taverns=", ".join(TAVERNS), value=repr(value)))


def _coins(value: Any) -> list[str]:
    if isinstance(value, str):
        return value.replace(",", " ").split()
    if isinstance(value, list):
        return [str(v) for v in value]
    raise ValueError(_("a hand is a list of coins such as {example}, not {value}").format(
        example="[0, 2, 3, 4, 5]", value=repr(value)))


def question_params(kind: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """A file's question parameters as the question's factory takes them."""
    out = dict(params)
    if "game" in out:
        out["game"] = _game(out["game"])
    if "tavern" in out:
        out["tavern"] = _tavern(out["tavern"])
    for name in ("hand", "hand_a", "hand_b"):
        if name in out and out[name] is not None:
            out[name] = _coins(out[name])
    if isinstance(out.get("treasury"), Mapping):
        out["treasury"] = {int(v): int(n) for v, n in out["treasury"].items()}
    return out


def build_question(kind: str, params: Mapping[str, Any], ask: Any = None) -> Question:
    return question(kind, **question_params(kind, params)).ask(ask)


# ====================================================================== reading a file

def parse(data: Any, source: Source) -> ProbabilityLesson:
    data = mapping(source, data, (), _("a lesson"))
    fields(source, data, (), LESSON_FIELDS, ("language", "languages"))
    key = key_of(source, data["key"], ("key",))
    language, languages = declared(source, data)
    raw_steps = data["steps"]
    if not isinstance(raw_steps, list) or not raw_steps:
        raise source.error(("steps",), _("steps must be a list of at least one step"))
    from .position import is_position, parse_step

    steps: list[ProbabilityStep | PositionStep] = [
        parse_step(source, raw, ("steps", i)) if is_position(raw) else
        _step(source, raw, ("steps", i)) for i, raw in enumerate(raw_steps)]
    unique_keys(source, [(s.key, ("steps", i, "key")) for i, s in enumerate(steps)])
    return ProbabilityLesson(key=key, title=text(source, data, (), "title"),
                             summary=text(source, data, (), "summary"), steps=tuple(steps),
                             file=source.file,
                             key_line=source.line(("key",)), language=language,
                             languages=languages)


def _step(source: Source, raw: Any, path: tuple[Any, ...]) -> ProbabilityStep:
    step = mapping(source, raw, path, _("a step"))
    fields(source, step, path, STEP_FIELDS, STEP_OPTIONAL)
    qpath = (*path, "question")
    spec = mapping(source, step["question"], qpath, _("a question (kind and its parameters)"))
    if "kind" not in spec:
        # Translators: kind is a key of a lesson file; {kinds} are its values.
        raise source.error(qpath, _("{where} has no 'kind' (expected one of {kinds})").format(
            where=where(qpath), kinds=", ".join(QUESTIONS)))
    kind = spec["kind"]
    if kind not in QUESTIONS:
        raise source.error((*qpath, "kind"), _("unknown question kind {kind}: expected one "
                                               "of {kinds}").format(
            kind=repr(kind), kinds=", ".join(QUESTIONS)))
    params = {k: v for k, v in spec.items() if k != "kind"}
    accepted = [p for p in inspect.signature(QUESTIONS[kind]).parameters if p != "seat"]
    for name in params:
        if name not in accepted:
            # Translators: {kind} is a question's kind as a lesson file writes it.
            raise source.error((*qpath, name), _("unknown parameter {name} of a {kind} "
                                                 "question (expected {names})").format(
                name=repr(name), kind=kind, names=", ".join(accepted)))
    if "game" in params:
        _check_game(source, params["game"], (*qpath, "game"))
    ask = step.get("ask")
    built = _build(source, kind, params, ask, path)
    trials, seed, batches = _simulate(source, step.get("simulate"), (*path, "simulate"), kind,
                                      built)
    out = ProbabilityStep(
        key=key_of(source, step["key"], (*path, "key")), title=text(source, step, path, "title"),
        situation=text(source, step, path, "situation"), kind=kind, params=params, ask=ask,
        predict=text(source, step, path, "predict"), explain=text(source, step, path, "explain"),
        simulated=text(source, step, path, "simulated", _default_simulated(built)),
        trials=trials, seed=seed, batches=batches, line=source.line(path), built=built)
    _check_placeholders(source, out, built, path)
    return out


def _default_simulated(built: Question) -> str:
    return DEFAULT_SIMULATED_COUNT if built.answer == "count" else DEFAULT_SIMULATED


def max_trials(kind: str) -> int:
    """The most simulations a step of this question kind may run."""
    return QUESTION_KINDS[kind].max_trials or DEFAULT_MAX_TRIALS


def _check_game(source: Source, value: Any, path: tuple[Any, ...]) -> None:
    spec = mapping(source, value, path, _("a game (players, seed, and maybe expansions and "
                                          "actions)"))
    fields(source, spec, path, GAME_FIELDS, GAME_OPTIONAL)
    integer(source, spec["players"], (*path, "players"), 2, 5)
    integer(source, spec["seed"], (*path, "seed"), 0, 2**63 - 1)
    expansions = texts(source, spec.get("expansions"), (*path, "expansions"))
    for i, name in enumerate(expansions):
        if name != "thingvellir":
            raise source.error((*path, "expansions", i), _("unknown expansion {name} "
                                                           "(expected {known})").format(
                name=repr(name), known="thingvellir"))
    game = Game.new(players=spec["players"], seed=spec["seed"], expansions=tuple(expansions))
    for i, action in enumerate(texts(source, spec.get("actions"), (*path, "actions"))):
        try:
            game.apply(action)
        except (InvalidNotation, IllegalAction) as exc:
            raise source.error((*path, "actions", i), _("{move} cannot be played here: "
                                                        "{problem}").format(
                move=repr(action), problem=exc)) from None


def _build(source: Source, kind: str, params: Mapping[str, Any], ask: Any,
           path: tuple[Any, ...]) -> Question:
    try:
        q = question(kind, **question_params(kind, params))
    except (ValueError, KeyError, TypeError, NidavellirError) as exc:
        raise source.error((*path, "question"), _("the {kind} question cannot be asked: "
                                                  "{problem}").format(
            kind=kind, problem=_reason(exc))) from None
    try:
        return q.ask(ask)
    except ValueError as exc:
        raise source.error((*path, "ask"), _("{where}: {problem}").format(
            where="ask", problem=exc)) from None


def _reason(exc: BaseException) -> str:
    text_ = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return text_.strip("'\"")


def _simulate(source: Source, value: Any, path: tuple[Any, ...], kind: str,
              built: Question) -> tuple[int, int, int]:
    spec = {} if value is None else mapping(source, value, path, _(
        "the simulation to run (trials, seed, batches)"))
    fields(source, spec, path, (), SIMULATE_FIELDS)
    top = max_trials(kind)
    default = built.trials or min(DEFAULT_TRIALS, top)
    trials = integer(source, spec.get("trials", default), (*path, "trials"), 1, top)
    seed = integer(source, spec.get("seed", 0), (*path, "seed"), 0, 2**31 - 1)
    batches = integer(source, spec.get("batches", 20), (*path, "batches"), 1, 200)
    return trials, seed, batches


#: A stand-in value per simulation fact, to check the formats the explanation asks for.
_SAMPLE_SIMULATION = {"estimate": 0.5, "se": 0.01, "low": 0.48, "high": 0.52, "trials": 2000,
                      "z": 0.5}


def _check_placeholders(source: Source, step: ProbabilityStep, built: Question,
                        path: tuple[Any, ...]) -> None:
    facts = built.facts
    for name in ("situation", "predict", "simulated", "explain"):
        tpath = (*path, name)
        value = getattr(step, name)
        available = dict(facts)
        if name in ("simulated", "explain"):
            available.update({k: v for k, v in _SAMPLE_SIMULATION.items()
                              if k in SIMULATION_FACTS and (k != "z" or built.exact)})
        hidden = [k for k in HIDDEN_BEFORE_ANSWER if name == "simulated" and k in available]
        for k in hidden:
            del available[k]
        try:
            found = placeholders(value)
        except ValueError as exc:
            raise source.error(tpath, _("{where}: {problem}").format(
                where=where(tpath), problem=exc)) from None
        for placeholder, spec in found:
            needle = "{" + placeholder + (":" + spec if spec else "") + "}"
            if placeholder not in available:
                if placeholder in SIMULATION_FACTS and placeholder not in hidden:
                    # Translators: a placeholder a probability lesson's text may not use;
                    # {placeholder} is quoted from the text, {kind} is the question's kind,
                    # {names} the placeholders it provides.
                    message = _("{where}: the placeholder {placeholder} is not provided by "
                                "this {kind} question (a simulation's number: only the "
                                "simulated text and the explanation, shown after the "
                                "simulation, may use it); it provides {names}")
                elif placeholder in hidden:
                    message = _("{where}: the placeholder {placeholder} is not provided by "
                                "this {kind} question (the exact answer: the simulated text "
                                "is read before it is shown); it provides {names}")
                else:
                    message = _("{where}: the placeholder {placeholder} is not provided by "
                                "this {kind} question; it provides {names}")
                raise source.text_error(tpath, value, needle, message.format(
                    where=where(tpath), placeholder="{" + placeholder + "}", kind=step.kind,
                    names=", ".join(sorted(available))))
            try:
                fill(needle, available)
            except ValueError as exc:
                raise source.text_error(tpath, value, needle, _("{where}: {problem}").format(
                    where=where(tpath), problem=exc)) from None


__all__ = ["ANSWER_KINDS", "ASKS", "NOTATIONS", "STAGES", "ProbabilityLesson",
           "ProbabilityStep", "build_question", "max_trials", "parse", "question_params"]
