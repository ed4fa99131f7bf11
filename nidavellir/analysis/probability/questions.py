"""The lab's questions: each bundles an exact answer (when there is one), a simulation of
the same thing, and the named numbers of its exact answer, by key (:data:`QUESTIONS`).

Everything about one **kind** of question is one :class:`QuestionKind` in
:data:`QUESTION_KINDS`: its computation (the factory), its place in the free lab (its menu
entry, the parameter controls it uses and how their values become the factory's
parameters, what a live game supplies, the simulations it allows), its exact answer in
words, and its checker (how close a learner's guess is). The free lab
(:mod:`widgets.lessons`) and the lesson files (:mod:`nidavellir.lessons.probability`) read
only the descriptors; a new kind is one more descriptor (:func:`register`).

A question's **facts** are the parts of its exact answer, named: for ``tavern``, ``N``
cards in the pool, ``K`` of them the target, ``n`` in a tavern, ``ways`` = C(N, n),
``ways_without`` = C(N − K, n), ``answer`` = 1 − ways_without / ways, and words such as
``target`` ("hunters") and ``pool``. Lesson texts quote them through placeholders
(``{N} cards, {K} of them {target}``), so every number a student reads comes from the
computation (docs/lessons.md lists each question's facts).

An **ask** turns a question into a related one (:data:`ASKS`): ``none`` (a tavern shows
none of the target), ``mean``, ``equals``/``at_least``/``at_most`` a number (the
distribution questions), ``trials_for_se`` (how many simulations give a standard error).

>>> q = question("tavern", what="H", players=3)
>>> q.facts["N"], q.facts["K"], q.facts["ways"], q.facts["ways_without"], q.facts["answer"]
(36, 6, 7140, 4060, Fraction(22, 51))
>>> q.ask({"trials_for_se": 0.01}).facts["answer"]
Fraction(6380000, 2601)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Any

from ... import cards as C
from ... import coins as K
from ... import i18n
from ...cards import Kind, Suit
from ...i18n import N_, _, pgettext
from ...names import card_name, class_with_article
from .ages import appears_trial, expected_seen, p_appears
from .bids import all_bids, bid_tie_trial, coin_values, p_bid_tie
from .figures import convergence_figure, running_estimates
from .lines import LINE_ASSUMPTION, line_picks
from .pools import box_pool, run_trials, target
from .results import Distribution, Exact, distribution_estimate, estimate_from, format_outcome
from .strategies import strategy_name, strategy_seats
from .taverns import p_tavern_shows, round_distribution, round_trial, shows_question, tavern_trial
from .trades import trade_distribution, trade_trial

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

    from ...game import Game

#: The facts a simulation adds (available to a lesson's explanation, after it ran):
#: the estimate, its standard error, its 95% interval, the number of simulations, and
#: (with an exact answer) how far the estimate is from it in standard errors.
SIMULATION_FACTS = ("estimate", "se", "low", "high", "trials", "z")
#: What an exact answer is: a probability (0 to 1), a mean, or a count.
ANSWER_KINDS = ("probability", "mean", "count")


@dataclass
class Question:
    """One lesson question: its exact answer and a simulation of the same thing.

    ``sample(trials, seed)`` returns raw outcomes; ``track`` turns one into the number
    whose mean is estimated (0/1 for a probability). ``distribution`` is set for the
    questions whose answer is a whole distribution. ``facts`` names the parts of the
    exact answer (module docstring); ``answer`` says what the exact value is. Its texts
    (``title``, the exact answer's question and formula, ``assumption``) are in the
    language it was built in: a page builds its questions in its own.
    """

    key: str
    title: str
    params: dict[str, Any]
    exact: Exact | None
    sample: Callable[[int, int | None], list[Any]]
    track: Callable[[Any], float] = float
    binary: bool = True
    distribution: Distribution | None = None
    assumption: str = ""
    y_title: str = N_("probability")
    facts: dict[str, Any] = field(default_factory=dict)
    answer: str = "probability"
    trials: int | None = None
    """The number of simulations the question itself calls for (``trials_for_se``)."""
    asked: Any = None

    def run(self, trials: int = 2_000, seed: int | None = 0, batches: int = 20
            ) -> dict[str, Any]:
        """Simulate and return the estimate, the running-estimate frame and the raw
        outcomes (plus the simulated distribution for distribution questions)."""
        raw = self.sample(trials, seed)
        values = [self.track(x) for x in raw]
        label = self.exact.question if self.exact is not None else self.title
        est = estimate_from(values, label, seed, binary=self.binary, assumption=self.assumption)
        exact = self.exact if self.answer != "count" else None
        frame = running_estimates(values, batches, exact, binary=self.binary)
        out: dict[str, Any] = {"estimate": est, "frame": frame, "raw": raw}
        if self.distribution is not None:
            out["distribution"] = distribution_estimate(self.distribution.question, raw, seed)
        return out

    def simulation_facts(self, result: Mapping[str, Any]) -> dict[str, Any]:
        """The facts of a simulation's result (:data:`SIMULATION_FACTS`)."""
        est = result["estimate"]
        out = {"estimate": est.estimate, "se": est.se, "low": est.ci[0], "high": est.ci[1],
               "trials": est.n}
        if self.exact is not None and self.answer != "count":
            out["z"] = abs(est.z(self.exact))
        return out

    def figure(self, frame: pd.DataFrame) -> go.Figure:
        exact = self.exact if self.answer != "count" else None
        return convergence_figure(frame, self.title, exact, self.y_title)

    def limits(self) -> tuple[float, float]:
        """The range a prediction of this question's answer can be in (a prediction
        outside is refused): a chance from 0 to 1; a mean from the least to the most the
        counted thing can be (the distribution's outcomes, or 0 to the ``K`` cards
        counted); a number of simulations from 1 to 25 / SE² (a hundred times what the
        hardest chance, ½, needs: a bound that does not give the answer away)."""
        if self.answer == "probability":
            return 0.0, 1.0
        if self.answer == "count":
            se = self.facts.get("se_target")
            return (1.0, float(math.ceil(25 / float(se) ** 2))) if se else (1.0, 1e9)
        outcomes = [float(x) for x in (self.distribution.pmf if self.distribution else ())
                    if isinstance(x, int | float | Fraction) and not isinstance(x, bool)]
        if outcomes:
            return min(outcomes), max(outcomes)
        if isinstance(self.facts.get("K"), int):
            return 0.0, float(self.facts["K"])
        return -1e9, 1e9

    def ask(self, spec: Any) -> Question:
        """The related question ``spec`` asks (see :data:`ASKS`): ``"none"``, ``"mean"``,
        ``{"at_least": 2}``, ``{"trials_for_se": 0.01}``, ... ValueError says what this
        question can be asked."""
        if spec is None or spec == "answer":
            return self
        if isinstance(spec, str):
            name, value = spec, None
        elif isinstance(spec, Mapping) and len(spec) == 1:
            name, value = next(iter(spec.items()))
        else:
            # Translators: an error of a probability lesson's ask (its values are a lesson
            # file's words: none, mean, at_least, ...).
            raise ValueError(_("an ask is one word ({words}) or one pair such as {pair}, not "
                               "{value}").format(words="none, mean", pair="at_least: 2",
                                                 value=repr(spec)))
        if name not in ASKS:
            raise ValueError(_("unknown ask {name}: expected one of {names}").format(
                name=repr(name), names=", ".join(ASKS)))
        asked: Question = ASKS[name](self, value)
        asked.asked = spec
        return asked


def _sampler(trial: Callable[[random.Random], Any]) -> Callable[[int, int | None], list[Any]]:
    return lambda trials, seed: run_trials(trial, trials, seed)


# ====================================================================== words for the facts

def _target_words(what: Any) -> dict[str, str]:
    """``target`` (several: "hunters") and ``a_target`` (one: "a hunter") in words."""
    # Lesson texts set these words into their own sentences ("{K} {target} and {others}
    # other cards"): each language's lesson is written around its own words.
    if isinstance(what, str) and what.strip().lower() in ("ro", "royal", "royal offering",
                                                           "royal offerings"):
        return {"target": pgettext("lesson words", "Royal Offerings"),
                "a_target": pgettext("lesson words", "a Royal Offering")}
    try:
        suit = what if isinstance(what, Suit) else Suit.parse(str(what))
    except ValueError:
        suit = None
    if suit is not None:
        several = {Suit.WARRIOR: pgettext("lesson words", "warriors"),
                   Suit.HUNTER: pgettext("lesson words", "hunters"),
                   Suit.MINER: pgettext("lesson words", "miners"),
                   Suit.BLACKSMITH: pgettext("lesson words", "blacksmiths"),
                   Suit.EXPLORER: pgettext("lesson words", "explorers")}[suit]
        return {"target": several, "a_target": class_with_article(suit)}
    card = C.card(str(what))
    name: str = card_name(card)
    if card.kind is Kind.DWARF and i18n.language() == i18n.SOURCE:
        name = name[0].lower() + name[1:]
    # Translators: in a lesson's text, "{K} {target}": "1 copies of the warrior 10"
    # reads as the count of that card in the deck.
    return {"target": _("copies of the {card}").format(card=name),
            # Translators: one card in a lesson's text: "the warrior 10".
            "a_target": _("the {card}").format(card=name)}


def _tavern_words(tavern: int | None) -> str:
    """``{tavern}`` in a lesson's text: "the Laughing Goblin" (German: the accusative, "den
    Feiernden Goblin", as the lessons' sentences ask for it)."""
    if tavern is None:
        return pgettext("lesson words", "at least one of the three taverns")
    return (pgettext("lesson words", "the Laughing Goblin"),
            pgettext("lesson words", "the Dancing Dragon"),
            pgettext("lesson words", "the Shining Horse"))[tavern]


def _coins_text(values: Sequence[Any]) -> str:
    return i18n.join([str(v) for v in values])


def _pool_facts(params: Mapping[str, Any], players: int, age: int) -> dict[str, Any]:
    box = sum(box_pool(players, age).values())
    n_pool = params["N"]
    return {"box": box, "seen": box - n_pool, "pool": params["pool"]}


# ====================================================================== the questions

def _q_tavern(what: str = "H", n: int | None = None, players: int = 3, age: int = 1,
              game: Game | None = None) -> Question:
    exact = p_tavern_shows(what, n, players, age, game)
    p = exact.params
    big_n, k, n_ = p["N"], p["K"], p["n"]
    facts = {"N": big_n, "K": k, "others": big_n - k, "n": n_, "players": p["players"],
             "age": p["age"], "ways": comb(big_n, n_), "ways_without": comb(big_n - k, n_),
             "p_none": 1 - exact.value, "answer": exact.value,
             **_target_words(what), **_pool_facts(p, p["players"], p["age"])}
    if game is not None:
        facts["round"] = game.observation(0)["round"]
    return Question("tavern", _("A tavern shows a class"), p | {"what": what}, exact,
                    _sampler(tavern_trial(what, n, p["players"], p["age"], game)), facts=facts)


def _q_round(what: str = "H", players: int = 3, age: int = 1, game: Game | None = None,
             n: int | None = None, taverns: int = 3) -> Question:
    dist = round_distribution(what, players, age, game, taverns=taverns, n=n)
    p = dist.params
    big_n, k, m = p["N"], p["K"], p["m"]
    facts: dict[str, Any] = {
        "N": big_n, "K": k, "others": big_n - k, "m": m, "taverns": taverns,
        "n": m // taverns, "players": p["players"], "age": p["age"], "mean": dist.mean,
        "ways": comb(big_n, m), "ways_without": comb(big_n - k, m), "answer": dist.mean,
        **{f"p{x}": dist.p(x) for x in range(0, min(k, m) + 1)},
        **_target_words(what), **_pool_facts(p, p["players"], p["age"])}
    if game is not None:
        facts["round"] = game.observation(0)["round"]
    return Question("round", _("How many of a class in a round's taverns"),
                    p | {"what": what}, dist.exact_mean(),
                    _sampler(round_trial(what, p["players"], p["age"], game, taverns, n)),
                    binary=False, distribution=dist, y_title=N_("mean count"), facts=facts,
                    answer="mean")


def _age_facts(what: str, exact: Exact, by_round: int | None) -> dict[str, Any]:
    p = exact.params
    players, age = p["players"], p["age"]
    per_tavern = C.CARDS_PER_TAVERN[players]
    rounds = C.ROUNDS_PER_AGE[players]
    deck, k, m = p["D"], p["K"], p["m"]
    return {"D": deck, "K": k, "m": m, "players": players, "age": age, "n": per_tavern,
            "taverns": len(C.TAVERNS), "per_round": 3 * per_tavern,
            "pioneer_draws": C.PIONEER_DRAW, "rounds": rounds if by_round is None else by_round,
            "rounds_in_age": rounds, "removed": deck - 3 * per_tavern * rounds,
            "p_one": Fraction(m, deck),
            "p_miss": Fraction(comb(deck - k, m), comb(deck, m)),
            "p_pioneer_sees": 1 - Fraction(comb(deck - k, 3), comb(deck, 3)),
            # Translators: what Pioneer of the Kingdom's winner does with the extra age-2
            # card, in a lesson's text ("the winner {pioneer}").
            "pioneer": _("keeps it whenever it is among the 3 cards drawn")
            if p["pioneer"] == "takes_it" else _("leaves a random card out"),
            "answer": exact.value, **_target_words(what)}


def _q_appears(what: str = "W10", players: int = 5, age: int = 2, by_round: int | None = None,
               pioneer: str = "random", game: Game | None = None) -> Question:
    if game is not None:
        players, age = game.config.players, game.state.age
    exact = p_appears(what, players, age, by_round, pioneer)
    trial = appears_trial(what, players, age, by_round, pioneer)
    return Question("appears", _("A card appears in an age"), exact.params | {"what": what},
                    exact, _sampler(trial), track=lambda x: 1.0 if x else 0.0,
                    facts=_age_facts(what, exact, by_round))


def _q_expected(what: str = "RO", players: int = 3, age: int = 2, by_round: int | None = 2,
                pioneer: str = "random", game: Game | None = None) -> Question:
    if game is not None:
        players, age = game.config.players, game.state.age
    exact = expected_seen(what, players, age, by_round, pioneer)
    trial = appears_trial(what, players, age, by_round, pioneer)
    return Question("expected", _("Expected number seen by a round"), exact.params | {"what": what},
                    exact, _sampler(trial), binary=False, y_title=N_("mean count"),
                    facts=_age_facts(what, exact, by_round), answer="mean")


def _q_line(k: int = 8, players: int = 3, position: int = 1, game: Game | None = None
            ) -> Question:
    if game is not None:
        players = game.config.players
    trial = line_picks(players, position)
    return Question("line", _("A line within {k} picks (simulation only)").format(k=k),
                    {"k": k, "players": players, "position": position}, None, _sampler(trial),
                    track=lambda x: 1.0 if x <= k else 0.0, assumption=_(LINE_ASSUMPTION),
                    facts={"k": k, "players": players, "position": i18n.ordinal(position),
                           "policy": _(LINE_ASSUMPTION)})


def _q_bid_tie(hand_a: Sequence[int | str] = (0, 2, 3, 4, 5),
               hand_b: Sequence[int | str] = (0, 2, 3, 4, 5), tavern: int | None = 0,
               distinct: bool = False, game: Game | None = None, seat: int = 0) -> Question:
    if game is not None:
        players = game.state.players
        other = (seat + 1) % len(players)
        hand_a = [K.label(c) for c in sorted(players[seat].coins())]
        hand_b = [K.label(c) for c in sorted(players[other].coins())]
    exact = p_bid_tie(hand_a, hand_b, tavern, distinct)
    a, b = coin_values(hand_a), coin_values(hand_b)
    pairs = len(all_bids(a, distinct)) * len(all_bids(b, distinct))
    ties = exact.value * pairs
    facts = {"bids_a": exact.params["bids_a"], "bids_b": exact.params["bids_b"],
             "pairs": pairs, "ties": int(ties), "no_ties": pairs - int(ties),
             "coins": len(a), "hand_a": _coins_text(a), "hand_b": _coins_text(b),
             "tavern": _tavern_words(tavern), "answer": exact.value}
    return Question("bid_tie", _("Two random bids tie"), exact.params | {
        "hand_a": list(hand_a), "hand_b": list(hand_b)}, exact,
        _sampler(bid_tie_trial(hand_a, hand_b, tavern, distinct)), facts=facts)


def _q_trade(hand: Sequence[int | str] | None = (0, 2, 3, 4, 5),
             treasury: Mapping[int, int] | None = None, players: int = 3,
             game: Game | None = None, seat: int = 0) -> Question:
    if game is not None:
        hand = None
    dist = trade_distribution(hand, None, treasury, players, game, seat)
    mode = dist.mode
    coins = [K.label(c) for c in sorted(game.state.players[seat].coins())] if game else hand
    facts: dict[str, Any] = {
        "hand": _coins_text(list(coins or ())), "p_purse": Fraction(1, dist.params["purses"]),
        "purses": dist.params["purses"], "mode": format_outcome(mode), "p_mode": dist.p(mode),
        "coins": _coins_text([format_outcome(v) for v in sorted(
            dist.pmf, key=lambda v: -1 if v is None else v)]),
        "purse_list": dist.params["purse_list"],
        "answer": dist.p(mode), **{f"p_{v}": p for v, p in dist.pmf.items() if v is not None}}
    if None not in dist.pmf:
        facts["mean"] = dist.mean
    def is_mode(x: Any) -> float:
        return 1.0 if x == mode else 0.0

    return Question("trade", _("The coin a trade takes"), dist.params | {"mode": mode},
                    dist.exact_p(mode),
                    _sampler(trade_trial(hand, None, treasury, players, game, seat)),
                    track=is_mode, distribution=dist, facts=facts)


def _q_strategy(a: str = "greedy", b: str = "random", players: int = 3,
                game: Game | None = None) -> Question:
    if game is not None:
        players = game.config.players

    def sample(trials: int, seed: int | None) -> list[Any]:
        from ..simulate import simulate

        df = simulate(trials, players, strategy_seats(a, b, players), seed=seed or 0,
                      progress=False)
        return [bool(w) for w in df[df["seat"] == 0]["winner"]]
    name_a, name_b = strategy_name(a), strategy_name(b)
    return Question("strategy", _("Win rate of {a} (seat 1) against {b}").format(
                        a=name_a, b=name_b),
                    {"a": a, "b": b, "players": players}, None, sample,
                    track=lambda x: 1.0 if x else 0.0,
                    assumption=_("{a} in seat 1, {b} in the other {others} seats; a shared "
                                 "first place counts as a win").format(
                                     a=name_a, b=name_b, others=players - 1),
                    y_title=N_("win rate"), facts={"a": name_a, "b": name_b, "players": players})


class _Factories(Mapping[str, Callable[..., Question]]):
    """Question factories by key, read from :data:`QUESTION_KINDS` (a kind registered later
    is in it too): ``QUESTIONS[key](**params) -> Question``."""

    def __getitem__(self, key: str) -> Callable[..., Question]:
        return QUESTION_KINDS[key].make

    def __iter__(self) -> Iterator[str]:
        return iter(QUESTION_KINDS)

    def __len__(self) -> int:
        return len(QUESTION_KINDS)


QUESTIONS: Mapping[str, Callable[..., Question]] = _Factories()


def question(key: str, **params: Any) -> Question:
    """A lesson question by key (see :data:`QUESTIONS`) with its parameters."""
    if key not in QUESTION_KINDS:
        raise ValueError(_("unknown question {key}; known: {keys}").format(
            key=repr(key), keys=", ".join(QUESTION_KINDS)))
    return QUESTION_KINDS[key].make(**params)


# ====================================================================== asks

def _ask_none(q: Question, value: Any) -> Question:
    if q.key != "tavern" or value is not None:
        raise ValueError(_("ask {ask} is for the tavern question (a tavern shows none of the "
                           "target), with no value").format(ask="'none'"))
    assert q.exact is not None
    p_none = 1 - q.exact.value
    exact = Exact(shows_question(q.facts["n"], target(q.params["what"]).label, none=True), p_none,
                  f"C({q.facts['N']}−{q.facts['K']}, {q.facts['n']}) / C({q.facts['N']}, "
                  f"{q.facts['n']})", q.exact.params)
    return replace(q, exact=exact, track=lambda x: 1.0 - float(x),
                   facts=q.facts | {"answer": p_none}, title=_("A tavern shows none of a class"))


def _distribution_of(q: Question, name: str) -> Distribution:
    if q.distribution is None:
        # In the reader's language, as lesson check's other errors (what it quotes from the
        # lesson file stays as written).
        raise ValueError(_("ask {ask} is for the questions with a whole distribution "
                           "({kinds})").format(ask=repr(name), kinds="round, trade"))
    return q.distribution


def _ask_mean(q: Question, value: Any) -> Question:
    dist = _distribution_of(q, "mean")
    if value is not None:
        raise ValueError(_("ask {ask} takes no value").format(ask="'mean'"))
    if dist.p(None):
        raise ValueError(_("this trade may give no coin at all: it has no mean value; ask for "
                           "the chance of a coin instead ({example})").format(
            example="equals: 7"))
    exact = dist.exact_mean()
    return replace(q, exact=exact, track=lambda x: float(x), binary=False, answer="mean",
                   y_title=N_("mean"), facts=q.facts | {"answer": exact.value})


def _outcome_value(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(_("expected a whole number of 0 or more, not {value}").format(
            value=repr(value)))
    return value


def _ask_count(name: str, test: Callable[[int, int], bool], words: str
               ) -> Callable[[Question, Any], Question]:
    def ask(q: Question, value: Any) -> Question:
        dist = _distribution_of(q, name)
        k = _outcome_value(value)
        p = sum((pr for x, pr in dist.pmf.items() if x is not None and test(x, k)),
                Fraction(0))
        below = sum((pr for x, pr in dist.pmf.items() if x is not None and x < k),
                    Fraction(0))
        exact = Exact(f"{dist.question}: P(X {words} {k})", p, _(
            "sum of P(X = x) for x {relation} {k}").format(relation=words, k=k), dist.params)
        def hit(x: Any) -> float:
            return 1.0 if x is not None and test(x, k) else 0.0

        return replace(q, exact=exact, binary=True, answer="probability", y_title=N_("probability"),
                       track=hit, facts=q.facts | {"answer": p, "k": k, "p_below": below})
    return ask


def _ask_trials_for_se(q: Question, value: Any) -> Question:
    if q.exact is None or not q.binary or q.answer != "probability":
        raise ValueError(_("ask {ask} is for a question whose exact answer is a "
                           "probability").format(ask="'trials_for_se'"))
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 0.5:
        raise ValueError(_("{ask} needs a standard error between 0 and 0.5, such as {example}, "
                           "not {value}").format(ask="trials_for_se", example="0.01",
                                                 value=repr(value)))
    se = Fraction(str(value))
    p = q.exact.value
    n = p * (1 - p) / (se * se)
    exact = Exact(_("simulations for a standard error of {se} ({question})").format(
        se=value, question=q.exact.question), n,
                  f"p(1 − p) / SE² = {p} × {1 - p} / {value}²", q.exact.params)
    return replace(q, exact=exact, answer="count", trials=max(1, math.ceil(n)),
                   facts=q.facts | {"answer": n, "se_target": se, "p": p, "q": 1 - p,
                                    "variance": p * (1 - p), "four_times": 4 * n,
                                    "trials_needed": max(1, math.ceil(n))})


#: What a lesson may ask about a question: name -> (question, value) -> Question.
ASKS: dict[str, Callable[[Question, Any], Question]] = {
    "none": _ask_none,
    "mean": _ask_mean,
    "equals": _ask_count("equals", lambda x, k: x == k, "="),
    "at_least": _ask_count("at_least", lambda x, k: x >= k, "≥"),
    "at_most": _ask_count("at_most", lambda x, k: x <= k, "≤"),
    "trials_for_se": _ask_trials_for_se,
}

# ====================================================================== the kinds

def parse_coins(text: str) -> list[str]:
    """A hand typed in the lab: ``"0 2 3 4 5"`` (commas allowed)."""
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        raise ValueError(_("type coin values separated by spaces, e.g. {example}").format(
            example="0 2 3 4 5"))
    return parts


def parse_treasury(text: str) -> dict[int, int] | None:
    """A treasury typed in the lab: ``"5x2 7 9"`` -> {5: 2, 7: 1, 9: 1}; empty text -> the
    full treasury (None)."""
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        return None
    out: dict[int, int] = {}
    for p in parts:
        value, _times, count = p.partition("x")
        try:
            v, n = int(value), int(count or 1)
        except ValueError:
            raise ValueError(_("treasury: {text} is not a coin value (e.g. {example})").format(
                text=repr(p), example="7, 7x2")) from None
        out[v] = out.get(v, 0) + n
    return out


#: The grades of a guess (:meth:`QuestionKind.grade`), best first.
GRADES = ("spot on", "close", "off")


@dataclass(frozen=True)
class QuestionKind:
    """One kind of question, in one place (module docs).

    ``controls`` names the free lab's parameter controls the kind uses (the lab draws each
    name once, :mod:`widgets.lessons`); ``arguments`` turns their values (by name) into
    the factory's parameters; ``from_game`` names the parameters a live game supplies
    instead (``game_words``: what else it takes from the game, a noun phrase); ``presets`` sets
    controls when the kind is picked. ``explanation`` words the exact answer (Markdown;
    placeholders are the question's facts, docs/lessons.md)."""

    key: str
    label: str
    make: Callable[..., Question]
    controls: tuple[str, ...]
    arguments: Callable[[Mapping[str, Any]], dict[str, Any]]
    explanation: str
    from_game: tuple[str, ...] = ()
    game_words: str = ""
    seat: bool = False
    """Whether the factory takes the seat of a live game (``seat=``)."""
    presets: Mapping[str, Any] = field(default_factory=dict)
    trials: int = 2_000
    """The simulations the lab runs by default."""
    max_trials: int | None = None
    """The most simulations a page may run (None: the lab's and the lesson files' own
    limits); a strategy plays whole games."""
    expectation: bool = False
    """The answer is a mean: a guess may go beyond 1."""

    def question(self, **params: Any) -> Question:
        return self.make(**params)

    def grade(self, guess: float, truth: float, binary: bool) -> str:
        """How close a guess is (:data:`GRADES`): within 2% of the answer's scale (1 for a
        probability, the answer itself beyond 1 for a mean), then within 10%."""
        scale = 1.0 if binary else max(abs(truth), 1.0)
        off = abs(guess - truth)
        return GRADES[0] if off <= 0.02 * scale else GRADES[1] if off <= 0.1 * scale \
            else GRADES[2]


def _same(*names: str) -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    return lambda values: {name: values[name] for name in names}


def _age_arguments(values: Mapping[str, Any]) -> dict[str, Any]:
    players = values["players"]
    return {"what": values["what"], "players": players, "age": values["age"],
            "by_round": min(values["by_round"], C.ROUNDS_PER_AGE[players]),
            "pioneer": values["pioneer"]}


# Translators: what else the free lab takes from a live game, listed after "From the
# game in the Play tab: the number of players, the age and ...".
_UNSEEN = N_("the cards nobody has seen yet")

#: Every kind of question, by key, in the order the free lab offers them. Labels and
#: explanations are marked (``N_``) and translated where they are shown; an explanation's
#: placeholders are the same in every language (tests/test_catalogues.py).
QUESTION_KINDS: dict[str, QuestionKind] = {}


def register(kind: QuestionKind) -> QuestionKind:
    """Add a kind of question (its key must be new)."""
    if kind.key in QUESTION_KINDS:
        raise ValueError(f"two question kinds {kind.key!r}")
    QUESTION_KINDS[kind.key] = kind
    return kind


for _kind in (
    QuestionKind(
        "tavern", N_("A tavern shows at least one of a class"), _q_tavern,
        ("what", "players", "age", "n"), _same("what", "players", "age", "n"),
        N_("""{N} cards are in {pool}, {K} of them {target}. A tavern of {n} cards shows none of
them in C({others}, {n}) = {ways_without} of the C({N}, {n}) = {ways} equally likely
ways, so the chance of at least one is 1 − {ways_without}/{ways} = **{answer}** ≈
{answer:.1%}."""), from_game=("players", "age"), game_words=_UNSEEN),
    QuestionKind(
        "round", N_("How many of a class in a round (hypergeometric)"), _q_round,
        ("what", "players", "age", "n"), _same("what", "players", "age", "n"),
        N_("""A round deals {m} cards from {pool}: {N} cards, {K} of them {target}. The number of
{target} among the {m} follows the hypergeometric distribution (the bars below); on
average it is {m} × {K}/{N} = **{answer}** ≈ {answer:.2f}."""),
        from_game=("players", "age"), game_words=_UNSEEN, expectation=True),
    QuestionKind(
        "appears", N_("Does a given card appear in an age?"), _q_appears,
        ("what", "players", "age", "by_round", "pioneer"), _age_arguments,
        N_("""The age-{age} deck holds {D} cards with {players} players, {K} of them {target}; by
then {m} of them are dealt into the taverns. At least one of the {target} is dealt
with chance **{answer}** ≈ {answer:.1%}."""), from_game=("players", "age"),
        presets={"what": "W10", "players": 5, "age": 2}),
    QuestionKind(
        "expected", N_("Expected number seen by a round"), _q_expected,
        ("what", "players", "age", "by_round", "pioneer"), _age_arguments,
        N_("""The age-{age} deck holds {D} cards with {players} players, {K} of them {target}; by
then {m} of them are dealt. The chances of each copy to be dealt add up (linearity of
expectation): you expect to see **{answer}** ≈ {answer:.2f} of them."""),
        from_game=("players", "age"), presets={"what": "RO", "age": 2, "by_round": 2},
        expectation=True),
    QuestionKind(
        "line", N_("A line within k picks (simulation only)"), _q_line,
        ("k", "players", "position"),
        lambda v: {"k": v["k"], "players": v["players"],
                   "position": min(v["position"], v["players"])},
        N_("""No formula answers this one: the answer is the simulation's, under its picking
policy (below)."""), from_game=("players",)),
    QuestionKind(
        "bid_tie", N_("Two random bids tie"), _q_bid_tie,
        ("hand_a", "hand_b", "tavern", "distinct"),
        lambda v: {"hand_a": parse_coins(v["hand_a"]), "hand_b": parse_coins(v["hand_b"]),
                   "tavern": v["tavern"], "distinct": v["distinct"]},
        N_("""Each player bids at random: {bids_a} × {bids_b} = {pairs} equally likely pairs of
bids. {ties} of them put equal coins on {tavern}: the chance is {ties}/{pairs} =
**{answer}** ≈ {answer:.1%}."""), from_game=("hand_a", "hand_b"), seat=True),
    QuestionKind(
        "trade", N_("The coin a trade takes from the treasury"), _q_trade,
        ("hand", "players", "treasury"),
        lambda v: {"hand": parse_coins(v["hand"]), "players": v["players"],
                   "treasury": parse_treasury(v["treasury"])},
        N_("""The {purses} possible purses ({purse_list}) are equally likely, each with chance
{p_purse}; they give the coins {coins}. The most likely is the {mode}, with chance
**{answer}** ≈ {answer:.1%}."""), from_game=("hand", "players", "treasury"), seat=True),
    QuestionKind(
        "strategy", N_("Win rate of one strategy against another"), _q_strategy,
        ("bot_a", "bot_b", "players"),
        lambda v: {"a": v["bot_a"], "b": v["bot_b"], "players": v["players"]},
        N_("""No formula answers this one: the answer is the simulation's, over whole games played
by {a} in seat 1 against {b} in the other seats ({players} players)."""),
        from_game=("players",), trials=20, max_trials=200),
):
    register(_kind)


__all__ = ["ANSWER_KINDS", "ASKS", "GRADES", "QUESTIONS", "QUESTION_KINDS", "SIMULATION_FACTS",
           "Question", "QuestionKind", "parse_coins", "parse_treasury", "question", "register",
           "target"]
