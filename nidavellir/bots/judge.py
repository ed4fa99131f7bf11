"""The coach's one judgement of a decision: what every option is worth, and why.

Everything the lab tells a learner about a move's worth comes from :func:`judge`: the Hint,
the figures on the decision buttons, the win-chance bar, the What-if table, the game review,
``nidavellir hint`` and ``nidavellir review``. It reads only what the deciding seat may know
(every estimate starts from a determinization for that seat, :mod:`nidavellir.observer`).

**One judgement per position and level.** A judgement is a function of the position as the
deciding seat knows it and of the level, nothing else: it is seeded from that knowledge
(:func:`position_seed`) and budgeted in search iterations and playouts, never in seconds, so
the page, the command line and the review give the same figures for the same record,
decision and level on any machine under any load. Judgements are kept
(:func:`cached`): a position the Hint judged costs the review nothing more.

How the options are judged:

1. **Equivalent moves are judged once.** Moves that lead to the same position (the five
   Dwerg brothers, two Vidofnir orders that make the same coins, two bids that put the same
   coins on the same taverns) form one option, shown with one value (``equivalent``).
2. **Exact where it can be.** When nothing hidden or random can change the rest of the game
   and it is small enough, every option is played to the end by enumeration
   (:mod:`.exact`) and the judgement says so (``exact``).
3. Otherwise **the search** (:class:`~nidavellir.bots.tree.Searcher`, information-set MCTS)
   spends the level's iterations, then **every option is played out on the same games**:
   the same determinizations and the same random numbers for each option (common random
   numbers, as backgammon rollouts use the same dice for every move compared), each game
   continuing with the moves the search's tree prefers after that option and then the
   search's playout policy. The figures of an option are the means over these games, and
   the difference between two options is a paired difference, with its standard error.

**One currency, one order.** Options are ranked by the chance to win (a tie for first
counts as a share), an exactly equal chance by the expected final score; the expected
final score is shown beside it. The recommended move is the first of that order, the win
bar is its chance to win, and every surface shows the options in this order.

**Noise is never shown as signal.** An option whose paired difference from the best is
within :data:`NOISE` standard errors is *about as good* (``about_best``): the Hint names
every such option instead of crowning one, and the review never calls it a mistake. The
reason why (:meth:`Judgement.compare`) lists only what differs beyond the noise: the
score-sheet categories (with the rest, so that the figures add up to the headline), the
distinctions and heroes held at the end of the judged games (read from the engine's own
outcome of those games, never from a rule written here).

Levels (:data:`LEVELS`): ``quick``, ``coach`` (the Hint, the buttons, What-if and the
review: ready within two seconds on one core, benchmarks/README.md), ``deep`` (Think
longer); the bot levels ``hard`` and ``expert`` and ``search@BUDGET`` work too (a budget in
seconds is converted to iterations at :data:`ITERATIONS_PER_SECOND`).

>>> from nidavellir import Game
>>> game = Game.new(players=2, seed=3)
>>> j = judge(game, level="search@40")
>>> j.best == j.options[0].action and j.options[0].about_best
True
>>> all(o.win <= j.options[0].win for o in j.options)
True
"""

from __future__ import annotations

import hashlib
import math
import random
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .. import cards as C
from ..actions import Action
from ..cards import Card, Kind
from ..determinize import determinize_state, heuristic_bid_model
from ..engine import Engine
from ..events import origin
from ..game import Game
from ..i18n import N_, _, count, number, percent_with_sign, with_sign
from ..i18n import percent as percent_of
from ..names import score_line_in_sentence
from ..observer import known_places
from ..scoring import CATEGORIES, CATEGORY_LABELS
from ..state import GameState
from .exact import solve
from .immediate import Immediate, immediate, immediates, sheet_if_ended
from .playout import heuristic_policy
from .tree import EXPERT_SECONDS, HARD_SECONDS, RootStats, Searcher, outcome, reward

#: Progress callback: ``progress(done, total, what)`` with ``done <= total``.
Progress = Callable[[float, float, str], None]

#: Search iterations per second on one core of the reference machine (the 2-core machine
#: of benchmarks/README.md, a 3-player game): a budget in seconds (``search@0.5s``, the bot
#: levels) is judged at this many iterations, so that it gives the same figures everywhere.
ITERATIONS_PER_SECOND = 1200
#: Standard errors within which a paired difference is noise ("about as good").
NOISE = 2.0


@dataclass(frozen=True)
class JudgeLevel:
    """How hard a judgement thinks, in work that does not depend on the machine: the
    search's iterations, then paired playouts shared out over the options."""

    name: str
    iterations: int
    """Search iterations (a decision with one legal move: none)."""
    playouts: int
    """Paired playouts in all, shared out equally over the options: every option is
    played out on the same games."""
    least: int = 8
    """Paired playouts per option at least (a bid has 60 options)."""
    most: int = 300
    """Paired playouts per option at most."""
    scaled: bool = False
    """``iterations`` and ``playouts`` are the budget of a 3-player opening; a position
    with fewer games' worth of rounds left gets more of them (:meth:`scale`), a longer one
    fewer, so that a judgement takes about the same time anywhere in a game (a playout's
    cost grows with the rounds left). ``search@N`` levels are not scaled."""

    def scale(self, game: Game) -> float:
        """How many times the reference budget a position gets: the player-rounds of a
        3-player opening over the position's player-rounds left, within
        :data:`SCALE_RANGE` (1 for an unscaled level). A function of the position only."""
        if not self.scaled:
            return 1.0
        s = game.state
        per_age = game.config.rounds_per_age
        left = per_age - max(s.round, 1) + 1 + (per_age if s.age == 1 else 0)
        low, high = SCALE_RANGE
        cost = left * game.config.players * (THINGVELLIR_COST if game.config.thingvellir
                                             else 1.0)
        return max(low, min(high, REFERENCE_ROUNDS / cost))

    def budget(self, game: Game, options: int) -> tuple[int, int]:
        """(search iterations, paired playouts per option) for ``options`` options at the
        position of ``game`` (one option, a forced move: no search, and an eighth of the
        playouts, only the position's outlook is wanted)."""
        k = self.scale(game)
        playouts = round(self.playouts * k)
        share = playouts // 8 if options <= 1 else playouts // options
        per_option = max(self.least, min(round(self.most * k), share))
        return (0 if options <= 1 else round(self.iterations * k)), per_option


#: Player-rounds left at a 3-player opening (two ages of four rounds): the reference of
#: the scaled levels' budgets.
REFERENCE_ROUNDS = 24
#: A round with Thingvellir (the camp, mercenaries, more heroes) costs a playout about
#: this much more than a base-game round (benchmarks/README.md, "The search's hot path").
THINGVELLIR_COST = 1.2
#: A position's budget is between these multiples of the reference.
SCALE_RANGE = (0.6, 2.5)


#: The coach's levels. ``coach`` answers the Hint, fills the buttons and the What-if table
#: and judges the review (ready within two seconds on one core of the reference machine with
#: the compiled build, benchmarks/README.md); ``deep`` thinks longer on request; ``hard``
#: and ``expert`` are the bots' budgets (0.75 s and 3 s of search) as iterations.
LEVELS: dict[str, JudgeLevel] = {
    "quick": JudgeLevel("quick", iterations=300, playouts=300, scaled=True),
    # The search of 0.7 of the first budget (800 iterations: the same agreement with expert
    # within one position of 80, 30% less CPU), and four times its paired playouts (350):
    # what the compiled build's speed buys in the same time, the paired gaps' standard
    # errors 40-45% smaller (benchmarks/README.md, "The coach's budget", "The compiled
    # build"). The pure-Python build takes about twice as long as before.
    "coach": JudgeLevel("coach", iterations=560, playouts=1400, most=1200, scaled=True),
    "deep": JudgeLevel("deep", iterations=2400, playouts=1600, most=800, scaled=True),
    "hard": JudgeLevel("hard", iterations=round(HARD_SECONDS * ITERATIONS_PER_SECOND),
                       playouts=900),
    "expert": JudgeLevel("expert", iterations=round(EXPERT_SECONDS * ITERATIONS_PER_SECOND),
                         playouts=2400, most=800),
}
DEFAULT_LEVEL = "coach"


def parse_level(level: str | JudgeLevel) -> JudgeLevel:
    """A level by name (:data:`LEVELS`) or a search budget ``search@400`` / ``search@0.5s``
    (seconds are converted to iterations at :data:`ITERATIONS_PER_SECOND`)."""
    if isinstance(level, JudgeLevel):
        return level
    if not isinstance(level, str):
        raise ValueError(f"a level is named by text, not {level!r}")
    key = level.strip().lower()
    if key in LEVELS:
        return LEVELS[key]
    name, at, _rest = key.partition("@")
    if name in ("search", "hard", "expert") and at:
        from . import parse_bot_spec

        _name, options = parse_bot_spec(key)
        iterations = options.get("iterations")
        if iterations is None:
            iterations = max(1, round(options["seconds"] * ITERATIONS_PER_SECOND))
        return JudgeLevel(key, iterations=iterations, playouts=iterations)
    # Translators: an error of a coach's level as typed (`nidavellir hint --level`, a lesson
    # file); the levels' names and the examples are notation.
    raise ValueError(_("unknown level {level}; known: {levels}, or {form} (e.g. {examples})"
                       ).format(level=repr(level), levels=", ".join(LEVELS),
                                form="search@BUDGET", examples="search@400, search@0.5s"))


#: The coach's levels in words, for the reader (an option's tooltip: "the coach (a quick
#: look): 41% chance to win").
LEVEL_WORDS: dict[str, str] = {
    # Translators: how hard the coach thought, in an option's tooltip "the coach ({level})".
    "quick": N_("a quick look"), "coach": N_("its usual depth"), "deep": N_("thinking longer"),
    "hard": N_("as hard as the hard bot"), "expert": N_("as hard as the expert bot")}


def level_words(level: str) -> str:
    """A judgement's level for the reader: a level of :data:`LEVELS` in words, a search
    budget (``search@400``) as its iterations.

    >>> level_words("coach"), level_words("search@40")
    ('its usual depth', 'a search of 40 iterations')
    """
    if level in LEVEL_WORDS:
        return _(LEVEL_WORDS[level])
    try:
        lvl = parse_level(level)
    except ValueError:
        return level  # a level this version does not know (a saved judgement): as written
    # Translators: how hard the coach thought: a search budget, in an option's tooltip.
    return count(lvl.iterations, "a search of {n} iteration", "a search of {n} iterations")


def fineness(level: str) -> int:
    """How fine a level is: its work at the reference position (search iterations and
    paired playouts); a finer judgement replaces a rougher one on every surface."""
    try:
        lvl = parse_level(level)
    except ValueError:
        return 0
    return lvl.iterations + lvl.playouts


# ====================================================================== results

@dataclass
class Estimate:
    """What an option leads to for the deciding player: means over the judged games."""

    n: int
    """Games judged (1 for an exact option)."""
    win: float
    """Chance to win (a tie for first counts as a share): the figure options are ranked by."""
    win_se: float
    score: float
    """Expected final score."""
    score_se: float
    margin: float
    """Expected final lead over the best opponent (negative: behind)."""
    value: float
    """The search's own objective (0.7 win + 0.3 scaled margin), for analysts."""
    categories: dict[str, float]
    """Expected final points per score-sheet category (they add up to ``score``)."""
    distinctions: dict[str, float] = field(default_factory=dict)
    """Share of the judged games in which the player holds each distinction at the end."""
    heroes: dict[str, float] = field(default_factory=dict)
    """Share of the judged games in which the player has recruited each hero by the end."""
    coins: float = 0.0
    """Expected sum of the final coins."""


@dataclass
class Difference:
    """A paired difference (the best move less another) and its standard error."""

    value: float
    se: float

    @property
    def clear(self) -> bool:
        """Beyond the noise: more than :data:`NOISE` standard errors (exact: not zero)."""
        if self.se <= 0:
            return abs(self.value) > 1e-9
        return abs(self.value) > NOISE * self.se


@dataclass
class OptionJudgement:
    """One option of the decision (a set of equivalent legal moves), judged."""

    action: Action
    visits: int
    """Iterations the search spent on it."""
    estimate: Estimate
    equivalent: list[Action] = field(default_factory=list)
    """Other legal moves that lead to the same position, judged with this one."""
    now: Immediate | None = None
    continuation: list[tuple[int, Action]] = field(default_factory=list)
    """The search's most visited line after this move: (player, action)."""
    win_gap: Difference = field(default_factory=lambda: Difference(0.0, 0.0))
    """The best option's chance to win less this one's (paired)."""
    points_gap: Difference = field(default_factory=lambda: Difference(0.0, 0.0))
    """The best option's expected final score less this one's (paired)."""

    @property
    def about_best(self) -> bool:
        """As good as the best option within the noise (the best itself included): the
        chance to win no lower beyond the noise, nor the points clearly fewer."""
        return not self.win_gap.clear and not (self.points_gap.clear
                                               and self.points_gap.value > 0)

    @property
    def verified(self) -> bool:
        """Every option is played out on the judgement's common games."""
        return True

    @property
    def actions(self) -> list[Action]:
        """The legal moves this option stands for."""
        return [self.action, *self.equivalent]

    @property
    def value(self) -> float:
        return self.estimate.value

    @property
    def score(self) -> float:
        return self.estimate.score

    @property
    def score_se(self) -> float:
        return self.estimate.score_se

    @property
    def win(self) -> float:
        return self.estimate.win

    @property
    def win_se(self) -> float:
        return self.estimate.win_se

    @property
    def margin(self) -> float:
        return self.estimate.margin

    @property
    def categories(self) -> dict[str, float]:
        return self.estimate.categories

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON)."""
        e = self.estimate
        out: dict[str, Any] = {
            "action": str(self.action), "equivalent": [str(a) for a in self.equivalent],
            "win": _num(e.win, 4), "win_se": _num(e.win_se, 4), "score": _num(e.score, 2),
            "score_se": _num(e.score_se, 2), "margin": _num(e.margin, 2),
            "value": _num(e.value, 4), "about_best": self.about_best,
            "win_gap": _num(self.win_gap.value, 4), "win_gap_se": _num(self.win_gap.se, 4),
            "points_gap": _num(self.points_gap.value, 2),
            "points_gap_se": _num(self.points_gap.se, 2),
            "visits": self.visits, "playouts": e.n,
            "categories": {k: _num(v, 2) for k, v in e.categories.items()},
            "distinctions": {k: _num(v, 3) for k, v in e.distinctions.items()},
            "continuation": [str(a) for _, a in self.continuation]}
        if self.now is not None:
            out["now"] = {"total": self.now.total, "parts": dict(self.now.parts),
                          "if_ended": self.now.if_ended, "majority": list(self.now.majority)}
        return out


def _num(x: float, digits: int) -> float | None:
    return None if x != x else round(x, digits)


def percent(x: float) -> str:
    """A chance as the coach writes it (``41%``, ``41 %`` in German and French)."""
    return percent_of(x)


def win_text(o: OptionJudgement, exact: bool = False) -> str:
    """``41% to win (± 3%), ≈286 points (± 2)`` (exact: no ±)."""
    if exact:
        # Translators: the coach's estimate of a move, "41% to win, 286 points".
        return _("{win} to win, {points} points").format(win=percent(o.win),
                                                        points=number(o.score))
    # Translators: the coach's estimate of a move with its margins, "41% to win (± 3%),
    # ≈286 points (± 2)".
    return _("{win} to win (± {win_se}), ≈{points} points (± {points_se})").format(
        win=percent(o.win), win_se=percent(o.win_se), points=number(o.score),
        points_se=number(o.score_se))


@dataclass
class Comparison:
    """The recommended move against another, from the paired games."""

    best: Action
    other: Action
    win: Difference
    """Chance to win more (paired)."""
    points: Difference
    """Expected final points more (paired)."""
    exact: bool
    why: list[str]
    """What favours the best move beyond the noise, largest first."""
    but: list[str]
    """What favours the other move beyond the noise."""
    best_words: str = ""
    """The best move in words (the decision's own, :meth:`Judgement.say`)."""
    other_words: str = ""

    @property
    def within_noise(self) -> bool:
        return not self.win.clear and not self.points.clear

    @property
    def value(self) -> float:
        """The chance to win more (the currency of the order), never negative."""
        return max(0.0, self.win.value)

    def summary(self) -> str:
        """The difference in words, the currency of the order first, with how sure; a
        difference within the noise is said to be so, without a figure."""
        w, p = self.win, self.points
        if self.exact:
            if not w.clear and not p.clear:
                return _("exactly as good: the same final scores")
            if w.clear:
                # Translators: a move against another, played to the end: "exactly +5%
                # chance to win, +3 points at the end".
                return _("exactly {win} chance to win, {points} points at the end").format(
                    win=percent_with_sign(w.value), points=with_sign(p.value))
            return _("the same chance to win, exactly {points} points at the end").format(
                points=with_sign(p.value))
        if not w.clear and not p.clear:
            return _("about as good: the difference is within the noise")
        # Translators: a move against another: "+5% chance to win (± 2%)".
        win = (_("{win} chance to win (± {se})").format(win=percent_with_sign(w.value),
                                                       se=percent(w.se)) if w.clear
               else _("about as likely to win (within the noise)"))
        # Translators: a move against another: "+2.5 points at the end (± 0.8)".
        points = (_("{points} points at the end (± {se})").format(points=with_sign(p.value, 1),
                                                                  se=number(p.se, 1))
                  if p.clear else _("about the same points (within the noise)"))
        # Translators: the chance to win and the points of a comparison, one after the other.
        return _("{win}, {points}").format(win=win, points=points)

    def text(self) -> str:
        """One paragraph in words (no notation: the moves as the decision says them): which
        is better, by how much, why, and what speaks for the other."""
        best = self.best_words or str(self.best)
        other = self.other_words or str(self.other)
        # Translators: the coach's comparison of two moves, each in words ("Take the
        # warrior 7 rather than take the hunter: +5% chance to win (± 2%), ...").
        out = _("{best} rather than {other}: {summary}.").format(
            best=best, other=other[:1].lower() + other[1:], summary=self.summary())
        if self.why:
            # Translators: the reasons for the coach's move, after its comparison.
            out += _(" Why: {reasons}.").format(reasons="; ".join(self.why))
        if self.but:
            # Translators: what speaks for the other move, after the reasons.
            out += _(" But: {reasons}.").format(reasons="; ".join(self.but))
        return out


@dataclass
class Judgement:
    """Every option of a decision, judged from the deciding seat's knowledge."""

    player: int
    kind: str
    level: str
    seed: int
    iterations: int
    """The search's iterations (0: exact, or a forced move)."""
    playouts: int
    """Paired games per option."""
    seconds: float
    options: list[OptionJudgement]
    """The options in the one order: the recommended first."""
    win: list[float]
    """Each player's chance to win after the recommended move (they sum to 1)."""
    expected: list[float]
    """Each player's expected final score after the recommended move."""
    exact: bool = False
    """Every option was played to the end by enumeration: nothing hidden or random left."""
    key: str = ""
    """The position as the seat knows it, and the level (:func:`knowledge_key`)."""
    words: dict[str, str] = field(default_factory=dict)
    """Each legal move in words, as its decision says it to the deciding seat (notation
    to words: :meth:`say`)."""
    _samples: dict[Action, list[_Sample]] = field(default_factory=dict, repr=False)
    _stats: dict[Action, RootStats] = field(default_factory=dict, repr=False)
    _index: dict[Action, OptionJudgement] = field(default_factory=dict, repr=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> Judgement:
        """A judgement is shared by every surface and never changed once made, so a copy is
        itself: pandas deep-copies a frame's ``attrs`` (What-if's judgement) at every
        operation on it, which took seconds per table with the samples copied."""
        return self

    @property
    def best(self) -> Action:
        return self.options[0].action

    @property
    def about_best(self) -> list[OptionJudgement]:
        """The options as good as the recommended move within the noise (it first)."""
        return [o for o in self.options if o.about_best]

    @property
    def runner_up(self) -> OptionJudgement | None:
        return self.options[1] if len(self.options) > 1 else None

    @property
    def actions(self) -> list[OptionJudgement]:
        """The options (the name the search's analysis used)."""
        return self.options

    @property
    def continuation(self) -> list[tuple[int, Action]]:
        """The best move, then the search's most visited line after it."""
        return [(self.player, self.best), *self.options[0].continuation]

    def option(self, action: Action | str) -> OptionJudgement:
        """The option a legal move belongs to (an equivalent move gives its option)."""
        if isinstance(action, Action) and action in self._index:
            return self._index[action]
        key = str(action)
        for a, o in self._index.items():
            if str(a) == key:
                return o
        raise KeyError(f"{key!r} is not a legal action here")

    stats = option

    def say(self, action: Action | str) -> str:
        """A move in words for a learner ("Bid 0 on the Laughing Goblin, ..."): the
        decision's own sentence (:meth:`nidavellir.rules.base.Choice.say`); its notation
        where none was recorded."""
        return self.words.get(str(action)) or str(action)

    def rank(self, action: Action | str) -> int:
        """The place of a move's option in the order (1: the recommended)."""
        return self.options.index(self.option(action)) + 1

    def compare(self, other: Action | str | None = None) -> Comparison:
        """The best move against ``other`` (default: the runner-up of the order), with the
        reason why."""
        if len(self.options) < 2:
            raise ValueError("there is no other option to compare with")
        o = self.options[1] if other is None else self.option(other)
        if o is self.options[0]:
            raise ValueError(f"{o.action} is the best move: compare it with another")
        return _compare(self, self.options[0], o)

    def headline(self) -> str:
        """The Hint in one line: the recommended move, or the moves about as good."""
        best = self.options[0]
        if self.exact:
            return f"{best.action} (exact: {win_text(best, True)})"
        same = self.about_best
        if len(same) > 1:
            names = ", ".join(str(o.action) for o in same[:6])
            more = f" and {len(same) - 6} more" if len(same) > 6 else ""
            return (f"these {len(same)} are about equally good: {names}{more} "
                    f"(first: {best.action}, {win_text(best)})")
        return f"{best.action} ({win_text(best)})"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "player": self.player, "kind": self.kind, "level": self.level, "seed": self.seed,
            "iterations": self.iterations, "playouts": self.playouts, "exact": self.exact,
            "seconds": round(self.seconds, 3), "best": str(self.best),
            "about_best": [str(o.action) for o in self.about_best],
            "options": [o.to_dict() for o in self.options],
            "win": [round(w, 4) for w in self.win],
            "expected": [round(e, 2) for e in self.expected],
            "continuation": [[p, str(a)] for p, a in self.continuation]}
        if len(self.options) > 1:
            out["reason"] = self.compare().text()
        else:
            out["reason"] = _("the only legal move")
        return out


# ====================================================================== the games

_CATEGORY = {k: i for i, k in enumerate(CATEGORIES)}


@dataclass(slots=True)
class _Sample:
    """One judged game, seen by the deciding player (and every player's total and win)."""

    score: int
    win: float
    margin: float
    breakdown: tuple[int, ...]
    """Points by category, in the order of :data:`~nidavellir.scoring.CATEGORIES`."""
    distinctions: frozenset[str]
    heroes: frozenset[str]
    coins: int
    totals: tuple[int, ...]
    wins: tuple[float, ...]


def _sample(state: GameState, me: int) -> _Sample:
    totals, wins, margins, breakdowns = outcome(state)
    p = state.players[me]
    owned = p.cards()
    return _Sample(score=totals[me], win=wins[me], margin=margins[me], breakdown=tuple(breakdowns[me][k] for k in CATEGORIES),
                   distinctions=frozenset(c.name for c in owned if c.kind is Kind.DISTINCTION),
                   heroes=frozenset(_hero_name(c) for c in owned if c.kind is Kind.HERO),
                   coins=sum(v >> 2 for v in p.coins()), totals=tuple(totals),
                   wins=tuple(wins))


def _hero_name(card: Card) -> str:
    # The five brothers are one hero to the coach: any of them is worth the same.
    return "a Dwerg brother" if card in C.DWERG_BROTHERS else card.name


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    m = math.fsum(values) / n
    if n < 2:
        return m, 0.0
    var = math.fsum((x - m) ** 2 for x in values) / (n - 1)
    return m, math.sqrt(var / n)


def _estimate(samples: Sequence[_Sample], stats: RootStats | None, exact: bool = False,
              value: float | None = None) -> Estimate:
    """An option's figures over every game after it: the search's (``stats``) and the
    paired ones (``samples``); the distinctions and heroes from the paired games."""
    n_v = len(samples)
    n_s = 0 if stats is None else stats.n
    n = n_v + n_s
    win, win_se = _pooled(_part(stats, samples, "win"))
    score, score_se = _pooled(_part(stats, samples, "score"))
    margin = math.fsum(s.margin for s in samples) + (stats.margin if n_s and stats else 0.0)
    own = math.fsum(reward(s.win, s.margin) for s in samples)
    categories = {k: (math.fsum(s.breakdown[_CATEGORY[k]] for s in samples)
                      + (stats.categories[k] if n_s and stats else 0.0)) / n
                  for k in CATEGORIES}
    distinctions: dict[str, float] = {}
    heroes: dict[str, float] = {}
    for s in samples:
        for d in s.distinctions:
            distinctions[d] = distinctions.get(d, 0.0) + 1 / n_v
        for h in s.heroes:
            heroes[h] = heroes.get(h, 0.0) + 1 / n_v
    if exact:
        win_se = score_se = 0.0
    return Estimate(n=n, win=win, win_se=win_se, score=score, score_se=score_se,
                    margin=margin / n,
                    value=(own + (value or 0.0) * n_s) / n, categories=categories,
                    distinctions=distinctions, heroes=heroes,
                    coins=math.fsum(s.coins for s in samples) / n_v)


def _paired(a: Sequence[float], b: Sequence[float]) -> Difference:
    d = [x - y for x, y in zip(a, b, strict=True)]
    m, se = _mean_se(d)
    return Difference(m, se)


class _Games:
    """The judgement's paired games: the same determinizations and random numbers for every
    option, each option applied and the game played to its end with the search's playout
    policy (common random numbers)."""

    def __init__(self, game: Game, me: int, seeds: Sequence[int]) -> None:
        self.state = game.state
        self.me = me
        self.seeds = list(seeds)
        self.shown, self.purse = known_places(game.events, me)

    def run(self, action: Action) -> list[_Sample]:
        out = []
        me = self.me
        for seed in self.seeds:
            rng = random.Random(seed)
            state = determinize_state(self.state, me, rng, self.shown, self.purse,
                                      heuristic_bid_model)
            eng = Engine(state, quiet=True)
            eng.apply(action, check=False)
            eng.play_out(heuristic_policy, rng)
            out.append(_sample(state, me))
        return out


#: A figure of one option: (the search's games: count, sum, sum of squares; the value in
#: each paired game).
_Part = tuple[int, float, float, list[float]]


def _part(stats: RootStats | None, samples: Sequence[_Sample], figure: str) -> _Part:
    values = [_figure(s, figure) for s in samples]
    if stats is None or not stats.n:
        return (0, 0.0, 0.0, values)
    if figure == "win":
        return (stats.n, stats.win, stats.win2, values)
    if figure == "score":
        return (stats.n, stats.score, stats.score2, values)
    return (stats.n, stats.categories[figure], stats.categories2[figure], values)


def _figure(s: _Sample, figure: str) -> float:
    if figure == "win":
        return s.win
    if figure == "score":
        return float(s.score)
    return float(s.breakdown[_CATEGORY[figure]])


def _pooled(p: _Part) -> tuple[float, float]:
    """(mean, standard error) of a figure over every game after the move."""
    n_s, total, squares, values = p
    n = n_s + len(values)
    total += math.fsum(values)
    squares += math.fsum(v * v for v in values)
    mean = total / n
    if n < 2:
        return mean, 0.0
    var = max(squares / n - mean * mean, 0.0) * n / (n - 1)
    return mean, math.sqrt(var / n)


def _difference(a: _Part, b: _Part) -> Difference:
    """The pooled figure of option a less option b, with its standard error: the search's
    games of each option are independent samples; the paired games are compared pair by
    pair (common random numbers), which takes the deal's own luck out of the difference."""
    (na_s, ta, qa, va), (nb_s, tb, qb, vb) = a, b
    na, nb = na_s + len(va), nb_s + len(vb)
    value = (ta + math.fsum(va)) / na - (tb + math.fsum(vb)) / nb
    var = 0.0
    for n_s, t, q, n in ((na_s, ta, qa, na), (nb_s, tb, qb, nb)):
        if n_s > 1:
            m = t / n_s
            var += n_s * (max(q / n_s - m * m, 0.0) * n_s / (n_s - 1)) / (n * n)
    d = [x / na - y / nb for x, y in zip(va, vb, strict=True)]
    if len(d) > 1:
        var += len(d) * _mean_se(d)[1] ** 2 * len(d)
    return Difference(value, math.sqrt(var))


# ====================================================================== equivalent moves

def equivalent_groups(game: Game, actions: Sequence[Action], seed: int = 0
                      ) -> list[list[Action]]:
    """The legal moves grouped by the position they lead to (in the engine's order; the
    first of a group stands for it): each is applied to one determinization for the deciding
    seat and the states compared, the five Dwerg brothers counted as one card."""
    decision = game.decision
    assert decision is not None
    me = decision.player
    if len(actions) < 2:
        return [list(actions)]
    shown, purse = known_places(game.events, me)
    base = determinize_state(game.state, me, random.Random(seed), shown, purse,
                             heuristic_bid_model)
    groups: dict[object, list[Action]] = {}
    for a in actions:
        s = base.copy()
        Engine(s, quiet=True).apply(a, check=False)
        groups.setdefault(_canonical(s.fingerprint()[:-1]), []).append(a)
    return list(groups.values())


_DWERG_TOKENS = frozenset(c.token for c in C.DWERG_BROTHERS)


def _canonical(x: object) -> object:
    if isinstance(x, str):
        return "Dwerg" if x in _DWERG_TOKENS else x
    if isinstance(x, tuple):
        return tuple(_canonical(y) for y in x)
    return x


# ====================================================================== judging

def position_seed(game: Game, seat: int) -> int:
    """A seed for judging the position from what ``seat`` has seen (its log, with the other
    seats' bids face down): the same position gives the same judgement in every surface,
    and twin games that differ only in hidden information give the same seed."""
    text = "\n".join(game.log(seat)) + f"\n{seat}"
    return zlib.crc32(text.encode("utf-8"))


def knowledge_key(game: Game, level: str | JudgeLevel, seed: int | None = None) -> str:
    """The judgement's identity: the position as the deciding seat knows it (its log, the
    game's set-up), the level and the seed. Twin games that differ only in what the seat
    cannot see have the same key."""
    decision = game.decision
    if decision is None:
        raise ValueError("there is no decision to judge: the game is over")
    lvl = parse_level(level)
    budget = hashlib.sha256(f"level {lvl!r}\nseed {seed}".encode()).hexdigest()[:16]
    return f"{position_key(game)}|{budget}"


def position_key(game: Game) -> str:
    """The position as the deciding seat knows it (its log, the game's set-up): the first
    part of :func:`knowledge_key`, shared by every level's judgement of the position."""
    decision = game.decision
    if decision is None:
        raise ValueError("there is no decision to judge: the game is over")
    seat = decision.player
    text = "\n".join([*game.log(seat), repr(game.config), f"seat {seat}"])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class _Cache:
    """Judgements kept by :func:`knowledge_key` (the most recent :data:`CACHE_SIZE`), with
    one computation at a time per key (a second caller waits for the first)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[str, Judgement] = OrderedDict()
        self.running: dict[str, threading.Event] = {}
        self.lock = threading.Lock()
        self.enabled = True

    def get(self, key: str) -> Judgement | None:
        with self.lock:
            j = self.items.get(key)
            if j is not None:
                self.items.move_to_end(key)
            return j

    def put(self, j: Judgement) -> None:
        with self.lock:
            self.items[j.key] = j
            self.items.move_to_end(j.key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


#: Judgements kept in this process.
CACHE_SIZE = 256
_CACHE = _Cache(CACHE_SIZE)


def cached(game: Game, level: str | JudgeLevel = DEFAULT_LEVEL,
           seed: int | None = None) -> Judgement | None:
    """The judgement of the decision on the table at ``level`` if this process has made it,
    else None (nothing is computed)."""
    if game.decision is None or not _CACHE.enabled:
        return None
    return _CACHE.get(knowledge_key(game, level, seed))


def finest(game: Game) -> Judgement | None:
    """The finest judgement of the decision on the table that this process has made, at
    any level (a Think longer refines the Hint for every surface), or None."""
    if game.decision is None or not _CACHE.enabled:
        return None
    prefix = position_key(game) + "|"
    with _CACHE.lock:
        found = [j for k, j in _CACHE.items.items() if k.startswith(prefix)]
    return max(found, key=lambda j: fineness(j.level), default=None)


def remember(judgement: Judgement) -> None:
    """Keep a judgement made elsewhere (a review's worker process) for this process."""
    if judgement.key and _CACHE.enabled:
        _CACHE.put(judgement)


@contextmanager
def no_cache() -> Iterator[None]:
    """Judge afresh inside the block (the consistency benchmark checks that a recomputed
    judgement equals the kept one)."""
    with _CACHE.lock:
        before = _CACHE.enabled
        _CACHE.enabled = False
    try:
        yield
    finally:
        with _CACHE.lock:
            _CACHE.enabled = before


def clear_cache() -> None:
    with _CACHE.lock:
        _CACHE.items.clear()


def judge(game: Game, level: str | JudgeLevel = DEFAULT_LEVEL, seed: int | None = None,
          progress: Progress | None = None) -> Judgement:
    """Judge the decision on the table of ``game`` for the player who must take it (see the
    module docs): the same position (as that seat knows it), level and seed give the same
    judgement, computed once per process. ``seed``: default :func:`position_seed`;
    ``progress`` hears how far the judgement is."""
    decision = game.decision
    if decision is None:
        raise ValueError("there is no decision to judge: the game is over")
    lvl = parse_level(level)
    key = knowledge_key(game, lvl, seed)
    if not _CACHE.enabled:
        return _judge(game, lvl, seed, progress, key)
    while True:
        with _CACHE.lock:
            found = _CACHE.items.get(key)
            if found is not None:
                _CACHE.items.move_to_end(key)
                if progress is not None:
                    progress(1.0, 1.0, N_("done"))
                return found
            waiting = _CACHE.running.get(key)
            if waiting is None:
                done = _CACHE.running[key] = threading.Event()
                break
        waiting.wait()  # the same judgement is being made in another thread
    try:
        j = _judge(game, lvl, seed, progress, key)
        _CACHE.put(j)
        return j
    finally:
        with _CACHE.lock:
            _CACHE.running.pop(key, None)
        done.set()


def _judge(game: Game, lvl: JudgeLevel, seed: int | None, progress: Progress | None,
           key: str) -> Judgement:
    decision = game.decision
    assert decision is not None
    me = decision.player
    if seed is None:
        seed = position_seed(game, me)
    start = time.perf_counter()
    legal = game.legal_actions()
    groups = equivalent_groups(game, legal, seed)
    reps = [g[0] for g in groups]
    same = {g[0]: g[1:] for g in groups}

    budget = lvl.budget(game, len(reps))
    exact = solve(game, reps, seed) if len(reps) > 1 else None
    searcher: Searcher | None = None
    stats: dict[Action, RootStats] = {}
    if exact is not None:
        samples = {a: [_sample(state, me)] for a, state in exact.items()}
        iterations, n = 0, 1
    else:
        if len(reps) > 1:
            searcher = Searcher(game, random.Random(seed), heuristic_policy,
                                heuristic_bid_model, root_actions=reps)
            stats = searcher.root_stats
            total = budget[0]
            for done in range(1, total + 1):
                searcher.iterate()
                if progress is not None and done % 50 == 0:
                    progress(0.6 * done / total, 1.0, N_("searching"))
        iterations = searcher.iterations if searcher is not None else 0
        n = budget[1]
        master = random.Random(seed ^ 0x5DEECE66D)
        games = _Games(game, me, [master.getrandbits(63) for _ in range(n)])
        samples = {}
        for i, a in enumerate(reps):
            samples[a] = games.run(a)
            if progress is not None:
                share = (i + 1) / len(reps)
                progress(0.6 + 0.4 * share if searcher else share, 1.0,
                         N_("playing every option out"))

    is_exact = exact is not None
    options = []
    for a in reps:
        est = _estimate(samples[a], stats.get(a), is_exact,
                        searcher.mean_reward(a) if searcher is not None else None)
        options.append(OptionJudgement(
            a, searcher.visits(a) if searcher is not None else 0, est, equivalent=same[a],
            continuation=searcher.continuation_from(a) if searcher is not None else []))
    # The one order: the chance to win, an exactly equal chance by the expected score,
    # then the engine's order.
    order = {a: i for i, a in enumerate(reps)}
    options.sort(key=lambda o: (-o.win, -o.score, order[o.action]))
    best = options[0]
    best_win = _part(stats.get(best.action), samples[best.action], "win")
    best_score = _part(stats.get(best.action), samples[best.action], "score")
    for o in options:
        o.win_gap = _difference(best_win, _part(stats.get(o.action), samples[o.action], "win"))
        o.points_gap = _difference(best_score,
                                   _part(stats.get(o.action), samples[o.action], "score"))
        if is_exact:
            o.win_gap.se = o.points_gap.se = 0.0
    sb = samples[best.action]
    players = game.config.players
    # Each player's chance to win after the recommended move: its own is the option's
    # figure; the others share the rest as they do in the paired games.
    played_out = [math.fsum(s.wins[i] for s in sb) / len(sb) for i in range(players)]
    rest = 1.0 - played_out[me]
    win = [best.win if i == me else
           (played_out[i] * (1.0 - best.win) / rest if rest > 1e-12
            else (1.0 - best.win) / (players - 1)) for i in range(players)]
    expected = [best.score if i == me else math.fsum(s.totals[i] for s in sb) / len(sb)
                for i in range(players)]
    judgement = Judgement(
        player=me, kind=str(decision.kind), level=lvl.name, seed=seed, iterations=iterations,
        playouts=n, seconds=0.0, options=options, win=win, expected=expected,
        exact=is_exact, key=key, words=move_words(game, legal), _samples=samples, _stats=stats,
        _index={a: o for o in options for a in o.actions})
    nows = immediates(game, legal, seed)
    for o in options:
        o.now = nows[str(o.action)]
    judgement.seconds = time.perf_counter() - start
    if progress is not None:
        progress(1.0, 1.0, N_("done"))
    return judgement


def move_words(game: Game, legal: Sequence[Action]) -> dict[str, str]:
    """Each legal move as the decision says it to the deciding seat (its own coins and what
    everyone sees: the same knowledge as the judgement's), in the current language; a
    decision without words leaves its moves out (their notation stays)."""
    decision = game.decision
    assert decision is not None
    out = {}
    for action in legal:
        try:
            out[str(action)] = decision.task.say(game.engine, action)
        except NotImplementedError:  # a decision without words: its notation stays
            continue
    return out


def estimate_position(game: Game, viewer: int, playouts: int = 200, seed: int | None = None
                      ) -> tuple[list[float], list[float]]:
    """Each player's chance to win and expected final score from ``viewer``'s knowledge
    only: ``playouts`` games played to the end from determinizations for ``viewer`` with the
    judgement's playout policy (the win-chance bar while no decision of ``viewer``'s is
    judged: a bot is thinking)."""
    if game.is_over:
        raise ValueError("the game is over: its scores are final")
    if playouts < 1:
        raise ValueError(f"playouts must be at least 1, not {playouts!r}")
    if not isinstance(viewer, int) or not 0 <= viewer < game.config.players:
        raise ValueError(f"no player {viewer!r} in a {game.config.players}-player game")
    if seed is None:
        seed = position_seed(game, viewer)
    shown, purse = known_places(game.events, viewer)
    rng = random.Random(seed)
    n = game.config.players
    wins = [0.0] * n
    scores = [0.0] * n
    for _round in range(playouts):
        state = determinize_state(game.state, viewer, rng, shown, purse, heuristic_bid_model)
        Engine(state, quiet=True).play_out(heuristic_policy, rng)
        totals, w, _margins, _breakdowns = outcome(state)
        for i in range(n):
            wins[i] += w[i]
            scores[i] += totals[i]
    return [w / playouts for w in wins], [x / playouts for x in scores]


# ====================================================================== the reason why

def _held_reason(verb: str, card: str, exact: bool, for_it: bool, share_a: float,
                 share_b: float) -> str:
    """A reason of the coach about a distinction held or a hero recruited at the end of
    the games played out (``verb``: "holds" or "recruits"), whole sentences per case."""
    share, instead = (share_a, share_b) if for_it else (share_b, share_a)
    values = {"card": card, "share": percent(share), "instead": percent(instead)}
    if verb == "holds":
        if exact:
            text = (_("it holds {card} in the end") if for_it
                    else _("the other move holds {card} in the end"))
        else:
            # Translators: a reason of the coach, "it holds King's Hand in 60% of the games
            # played out, instead of 20%".
            text = (_("it holds {card} in {share} of the games played out, instead of "
                      "{instead}") if for_it
                    else _("the other move holds {card} in {share} of the games played out, "
                           "instead of {instead}"))
    elif exact:
        text = (_("it recruits {card} in the end") if for_it
                else _("the other move recruits {card} in the end"))
    else:
        text = (_("it recruits {card} in {share} of the games played out, instead of "
                  "{instead}") if for_it
                else _("the other move recruits {card} in {share} of the games played out, "
                       "instead of {instead}"))
    return text.format(**values)


#: At most this many reasons for, and against, in a comparison.
MOST_REASONS = 3


def _compare(judgement: Judgement, best: OptionJudgement, other: OptionJudgement
             ) -> Comparison:
    sa = judgement._samples[best.action]
    sb = judgement._samples[other.action]
    st_a, st_b = judgement._stats.get(best.action), judgement._stats.get(other.action)

    def gap(figure: str) -> Difference:
        return _difference(_part(st_a, sa, figure), _part(st_b, sb, figure))

    exact = judgement.exact
    win = gap("win")
    points = gap("score")
    if exact:
        win.se = points.se = 0.0
    if not win.clear and not points.clear:
        # About as good: no reason is given for a difference the noise explains.
        return Comparison(best=best.action, other=other.action, win=win, points=points,
                          exact=exact, why=[], but=[],
                          best_words=judgement.say(best.action),
                          other_words=judgement.say(other.action))
    why: list[str] = []
    but: list[str] = []
    if points.clear:
        # Where the points come from: the categories whose paired difference is beyond
        # the noise, largest first, and the others together, so that the figures add up to
        # the headline's points.
        listed = 0.0
        lines = []
        for cat in CATEGORIES:
            d = gap(cat)
            if exact:
                d.se = 0.0
            # A figure that reads "+0.0 points" says nothing and sides with nobody: only
            # differences beyond the noise that show in the one decimal written.
            if d.clear and round(d.value, 1) != 0:
                lines.append((d.value, score_line_in_sentence(CATEGORY_LABELS.get(cat, cat))))
                listed += d.value
        if lines:
            for value, label in sorted(lines, key=lambda x: -abs(x[0])):
                # Translators: a reason of the coach: "your warriors +2.5 points".
                (why if value > 0 else but).append(_("your {line} {points} points").format(
                    line=label, points=with_sign(value, 1)))
            rest = points.value - listed
            if round(rest, 1) != 0:
                (why if rest > 0 else but).append(
                    _("the other categories together {points} points").format(
                        points=with_sign(rest, 1)))
    # Distinctions and heroes held at the end of the judged games (the engine's outcome of
    # those games: the cards the player owns when they end).
    held_lines: list[tuple[float, str]] = []
    holders: tuple[tuple[str, Callable[[_Sample], frozenset[str]]], ...] = (
        ("holds", lambda s: s.distinctions), ("recruits", lambda s: s.heroes))
    for verb, held in holders:
        for x in sorted({x for s in sa + sb for x in held(s)}):
            d = _paired([float(x in held(s)) for s in sa], [float(x in held(s)) for s in sb])
            if exact:
                d.se = 0.0
            if not d.clear:
                continue
            share_a = sum(x in held(s) for s in sa) / len(sa)
            share_b = share_a - d.value
            # The other move is named as such, never in notation (its words open the
            # sentence: Comparison.text).
            text = _held_reason(verb, origin(x), exact, d.value > 0, share_a, share_b)
            held_lines.append((d.value, text))
    held_lines.sort(key=lambda x: -abs(x[0]))
    why += [t for v, t in held_lines if v > 0][:MOST_REASONS]
    but += [t for v, t in held_lines if v < 0][:MOST_REASONS]
    return Comparison(best=best.action, other=other.action, win=win, points=points,
                      exact=exact, why=why, but=but,
                      best_words=judgement.say(best.action),
                      other_words=judgement.say(other.action))


__all__ = ["DEFAULT_LEVEL", "ITERATIONS_PER_SECOND", "LEVELS", "LEVEL_WORDS", "NOISE", "Comparison",
           "Difference", "Estimate", "Immediate", "JudgeLevel", "Judgement", "OptionJudgement",
           "cached", "clear_cache", "equivalent_groups", "estimate_position", "finest",
           "fineness", "immediate", "immediates", "judge", "knowledge_key", "level_words", "no_cache",
           "parse_level", "percent", "position_key", "position_seed", "remember", "sheet_if_ended",
           "win_text"]
