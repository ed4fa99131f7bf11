"""The coach's one judgement of a decision: what every option is worth, and why.

Everything the lab tells a learner about a move's worth comes from :func:`judge`: the Hint,
the values on the decision buttons, the What-if table, the game review, the win-chance bar
and ``SearchBot.analyse``. It reads only what the deciding seat may know (every estimate
starts from a determinization for that seat, :mod:`nidavellir.observer`).

How an option is judged, in two stages:

1. **The search** (:class:`~nidavellir.bots.search.Searcher`, information-set MCTS with the
   heuristic playouts) spends the level's budget on the decision, most of it on the most
   promising options;
2. **verification**: the most visited options (all of them when there are few), the move the
   player selected and any other option whose search estimate would beat the recommendation
   are played out again from the same determinizations (common random numbers), so that the
   differences between them are not noise from different deals.

A verified option's figures pool **every game the judgement played after that move**: the
search's (whose later moves the tree chose) and the verification's. The search's games
are most of them for the moves it liked, so a verified option is judged mostly by the tree,
where the search played on well after the move, and the verification settles the options
the search hardly tried. (Measured on bench_judges: ranking by the verification alone agreed
with ``expert`` less often than the search's own choice did; pooled, at least as often.)

**One currency.** Options are ranked by the search's own objective, a player's *value*:
0.7 × its chance to win + 0.3 × its scaled margin over the best opponent
(:func:`~nidavellir.bots.tree.reward`), estimated on those games. The
recommended move is the first; by construction no verified option has a higher value. The
expected final score and the chance to win are shown beside the value, and where the best move
trades one for the other the comparison says so ("safer: +6% chance to win for 2.7 fewer
expected points"). Options the search found unpromising and never verified carry rougher
figures from the search alone (``verified=False``).

**The reason why** (:meth:`Judgement.compare`) comes from the same figures: the score-sheet
categories that differ most between the two moves (pooled, as the table shows them), the
distinctions and heroes whose chances change most (from the paired verification games), the coins, what the move does at once (a line completed, a class majority won or
tied) and, for bids, where the highest coin goes. A reason never cites something that moved
against the recommendation as a reason for it; such things are listed as "but".

Levels (:data:`LEVELS`): ``quick`` (the buttons' estimate, under a second), ``coach`` (the
Hint and the What-if default, under two seconds on one core), ``deep``; the bot levels
``hard`` and ``expert`` and ``search@BUDGET`` work too. The same position, level and seed
give the same judgement; :func:`position_seed` derives a seed from what the seat has seen,
so the Hint, the What-if table and the review agree without being told a seed.

>>> from nidavellir import Game
>>> game = Game.new(players=2, seed=3)
>>> j = judge(game, level="search@40", verify=8)
>>> j.best == j.options[0].action and j.options[0].verified
True
>>> all(o.value <= j.options[0].value for o in j.options if o.verified)
True
"""

from __future__ import annotations

import math
import random
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import cards as C
from .. import events as ev
from ..actions import Action
from ..cards import Card, Kind, Suit
from ..determinize import determinize_state, heuristic_bid_model, tavern_worth
from ..engine import Engine
from ..game import Game
from ..observer import known_places
from ..rules.base import DecisionKind
from ..scoring import CATEGORIES, CATEGORY_LABELS, PlayerTable, score_table
from ..state import GameState
from ..stats import mean_se, se_from_sums
from .playout import heuristic_policy
from .tree import EXPERT_SECONDS, HARD_SECONDS, Budget, RootStats, Searcher, outcome, reward

#: Progress callback: ``progress(done, total, what)`` with ``done <= total``.
Progress = Callable[[float, float, str], None]


@dataclass(frozen=True)
class JudgeLevel:
    """How hard a judgement thinks: the search's budget, then the verification."""

    name: str
    seconds: float | None = None
    iterations: int | None = None
    verify: int = 32
    """Paired playouts per verified option."""
    top: int = 6
    """Options verified at most (the most visited; every option when there are fewer)."""
    total: int | None = None
    """Paired playouts of the verification in all, at most: with many options each gets
    fewer (never under 6), so a bid's 60 options cost about what a pick's 3 do."""
    budget: float | None = None
    """Seconds for the whole judgement: the search (at most ``seconds``) stops early enough
    to leave the verification its time, estimated from the search's own time per
    iteration (a verification game costs about what an iteration does)."""


#: The coach's levels. ``quick`` fills the decision buttons, ``coach`` answers the Hint and
#: the What-if tab (two seconds at most on one core of the reference machine, see
#: benchmarks/README.md), ``deep`` thinks longer on request.
LEVELS: dict[str, JudgeLevel] = {
    "quick": JudgeLevel("quick", seconds=0.3, verify=12, top=24, total=150),
    "coach": JudgeLevel("coach", seconds=1.6, verify=24, top=5, budget=1.75),
    "deep": JudgeLevel("deep", seconds=3.0, verify=64, top=8),
    "hard": JudgeLevel("hard", seconds=HARD_SECONDS, verify=32, top=6),
    "expert": JudgeLevel("expert", seconds=EXPERT_SECONDS, verify=48, top=8),
}
DEFAULT_LEVEL = "coach"
#: A verification game against a search iteration, in time (with room for the rest).
BUDGET_MARGIN = 1.2


def parse_level(level: str | JudgeLevel) -> JudgeLevel:
    """A level by name (:data:`LEVELS`) or a search budget ``search@400`` / ``search@0.5s``."""
    if isinstance(level, JudgeLevel):
        return level
    if not isinstance(level, str):
        raise ValueError(f"a level is named by text, not {level!r}")
    key = level.strip().lower()
    if key in LEVELS:
        return LEVELS[key]
    name, at, budget = key.partition("@")
    if name in ("search", "hard", "expert") and at:
        from . import parse_bot_spec

        _, options = parse_bot_spec(key)
        return JudgeLevel(key, seconds=options.get("seconds"),
                          iterations=options.get("iterations"))
    raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}, or search@BUDGET "
                     "(e.g. search@400, search@0.5s)")


# ====================================================================== results

@dataclass
class Estimate:
    """What an option leads to for the deciding player, on average over playouts."""

    n: int
    value: float
    """The objective the options are ranked by (0.7 win + 0.3 scaled margin)."""
    score: float
    """Expected final score."""
    score_se: float
    win: float
    """Chance to win (a tie for first counts as a share)."""
    margin: float
    """Expected final lead over the best opponent (negative: behind)."""
    categories: dict[str, float]
    """Expected final points per score-sheet category."""
    distinctions: dict[str, float] = field(default_factory=dict)
    """Chance of holding each distinction at the end (by name)."""
    heroes: dict[str, float] = field(default_factory=dict)
    """Chance of having recruited each hero by the end (by name)."""
    coins: float = 0.0
    """Expected sum of the final coins."""


@dataclass
class Immediate:
    """What a move changes on the score sheet if the game ended right after it (exact)."""

    total: int
    parts: dict[str, int]
    """Score-sheet categories that change, and by how much."""
    lines: list[str]
    """What happens to the player, in words (a card placed, a coin traded, …)."""
    majority: list[str]
    """Class majorities won, tied or lost ("ties the warriors: King's Hand at risk")."""
    follow_up: str = ""
    """The player's next decision when the move leads straight to one (a hero to recruit, a
    coin to transform): its effect is not counted yet."""
    lines_completed: int = 0
    """Complete lines the move adds (each recruits a hero, R12)."""
    new_coins: list[str] = field(default_factory=list)
    """The coins a transform or a trade gives the player, in order."""

    def text(self) -> str:
        """``+7 now (warriors +5, coins +2)``."""
        parts = ", ".join(f"{CATEGORY_LABELS.get(k, k).lower()} {v:+d}"
                          for k, v in self.parts.items())
        return f"{self.total:+d} now" + (f" ({parts})" if parts and len(self.parts) > 1 else "")


@dataclass
class OptionJudgement:
    """One legal action, judged."""

    action: Action
    visits: int
    """Iterations the search spent on it."""
    verified: bool
    """Played out again from the same determinizations as the recommendation."""
    estimate: Estimate
    now: Immediate | None = None
    continuation: list[tuple[int, Action]] = field(default_factory=list)
    """The search's most visited line after this move: (player, action)."""

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
    def margin(self) -> float:
        return self.estimate.margin

    @property
    def categories(self) -> dict[str, float]:
        return self.estimate.categories

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON): a figure the search never estimated is ``None``."""
        e = self.estimate
        out: dict[str, Any] = {
            "action": str(self.action), "visits": self.visits, "verified": self.verified,
            "value": _num(e.value, 4), "score": _num(e.score, 2),
            "score_se": _num(e.score_se, 2), "win": _num(e.win, 4),
            "margin": _num(e.margin, 2), "playouts": e.n,
            "categories": {k: _num(v, 2) for k, v in e.categories.items()},
            "distinctions": {k: _num(v, 3) for k, v in e.distinctions.items()},
            "continuation": [str(a) for _, a in self.continuation]}
        if self.now is not None:
            out["now"] = {"total": self.now.total, "parts": dict(self.now.parts),
                          "majority": list(self.now.majority)}
        return out


def _num(x: float, digits: int) -> float | None:
    return None if x != x else round(x, digits)


@dataclass
class Comparison:
    """The recommended move against another, from paired playouts."""

    best: Action
    other: Action
    value: float
    """How much more of the objective the best move brings (never negative)."""
    points: float
    """Expected final points more (negative: fewer)."""
    points_se: float
    win: float
    """Chance to win more (negative: less)."""
    win_se: float
    margin: float
    why: list[str]
    """What favours the best move, largest first."""
    but: list[str]
    """What favours the other move."""

    def summary(self) -> str:
        """The difference in words, in the currency it is ranked by."""
        pts, win = self.points, self.win
        if abs(pts) < 0.5 and abs(win) < 0.01:
            return "about the same: no difference the playouts can tell apart"
        if pts >= 0.5 and win >= -0.005:
            return (f"about {pts:+.1f} points at the end (± {self.points_se:.1f})"
                    + (f" and {win:+.0%} chance to win" if win >= 0.005 else ""))
        if win > 0 and pts < 0.5:
            return (f"safer: {win:+.0%} chance to win for {abs(pts):.1f} fewer expected points"
                    if pts <= -0.5 else f"{win:+.0%} chance to win for about the same points")
        if pts > 0 and win < 0:
            return (f"more points: {pts:+.1f} expected points for a {abs(win):.0%} lower "
                    "chance to win, and a wider lead over the best opponent")
        return f"a wider lead over the best opponent ({self.margin:+.1f} points)"

    def text(self) -> str:
        """One paragraph: which is better, by how much, why, and what speaks for the other."""
        out = f"{self.best} rather than {self.other}: {self.summary()}."
        if self.why:
            out += " Why: " + "; ".join(self.why) + "."
        if self.but:
            out += " But: " + "; ".join(self.but) + "."
        return out


@dataclass
class Judgement:
    """Every legal option of a decision, judged from the deciding seat's knowledge."""

    player: int
    kind: str
    level: str
    seed: int
    iterations: int
    """The search's iterations."""
    playouts: int
    """Verification playouts per verified option."""
    seconds: float
    options: list[OptionJudgement]
    """Verified options by value (the best first), then the others by the search's visits."""
    win: list[float]
    """Each player's chance to win at the position (they sum to 1)."""
    expected: list[float]
    """Each player's expected final score at the position."""
    selected: Action | None = None
    """The move the player had selected (compared with the best)."""
    _samples: dict[Action, list[_Sample]] = field(default_factory=dict, repr=False)
    _verifier: _Verifier | None = field(default=None, repr=False)
    _search: dict[Action, _SearchPart] = field(default_factory=dict, repr=False)

    @property
    def best(self) -> Action:
        return self.options[0].action

    @property
    def actions(self) -> list[OptionJudgement]:
        """The options (the name the search's analysis used)."""
        return self.options

    @property
    def continuation(self) -> list[tuple[int, Action]]:
        """The best move, then the search's most visited line after it."""
        return [(self.player, self.best), *self.options[0].continuation]

    def option(self, action: Action | str) -> OptionJudgement:
        key = str(action)
        for o in self.options:
            if str(o.action) == key:
                return o
        raise KeyError(f"{key!r} is not a legal action here")

    stats = option

    def verify(self, action: Action | str) -> OptionJudgement:
        """Make sure ``action`` is verified (played out from the same determinizations as
        the best move), and re-rank; returns its judgement."""
        option = self.option(action)
        if option.verified or self._verifier is None:
            return option
        self._samples[option.action] = self._verifier.run(option.action)
        option.estimate = _estimate(self._samples[option.action],
                                    self._search.get(option.action))
        option.verified = True
        self._rank()
        return self.option(action)

    def _rank(self) -> None:
        verified = sorted((o for o in self.options if o.verified),
                          key=lambda o: (-o.value, -o.visits))
        rough = sorted((o for o in self.options if not o.verified),
                       key=lambda o: (-o.visits, -o.value))
        self.options = verified + rough

    def compare(self, other: Action | str | None = None) -> Comparison:
        """The best move against ``other`` (default: the selected move, else the next best
        verified option), with the reason why."""
        if other is None:
            other = self.selected if self.selected is not None and \
                self.selected != self.best else None
        if other is None:
            others = [o for o in self.options[1:] if o.verified]
            if not others:
                raise ValueError("there is no other option to compare with")
            other = others[0].action
        o = self.verify(other)
        best = self.options[0]
        if o.action == best.action:
            raise ValueError(f"{o.action} is the best move: compare it with another")
        return _compare(self, best, o)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "player": self.player, "kind": self.kind, "level": self.level, "seed": self.seed,
            "iterations": self.iterations, "playouts": self.playouts,
            "seconds": round(self.seconds, 3), "best": str(self.best),
            "options": [o.to_dict() for o in self.options],
            "win": [round(w, 4) for w in self.win],
            "expected": [round(e, 2) for e in self.expected],
            "continuation": [[p, str(a)] for p, a in self.continuation]}
        if len([o for o in self.options if o.verified]) > 1 or self.selected is not None:
            try:
                out["reason"] = self.compare().text()
            except ValueError:
                out["reason"] = ""
        else:
            out["reason"] = ("the only legal move" if len(self.options) == 1
                             else f"{self.best} is clearly the best the search found")
        return out


# ====================================================================== the playouts

@dataclass
class _Sample:
    """One verification playout, seen by the deciding player."""

    value: float
    score: int
    win: float
    margin: float
    breakdown: dict[str, int]
    distinctions: frozenset[str]
    heroes: frozenset[str]
    coins: int


def _sample(state: GameState, me: int) -> _Sample:
    totals, wins, margins, breakdowns = outcome(state)
    p = state.players[me]
    owned = p.cards()
    return _Sample(value=reward(wins[me], margins[me]), score=totals[me], win=wins[me],
                   margin=margins[me], breakdown=breakdowns[me],
                   distinctions=frozenset(c.name for c in owned if c.kind is Kind.DISTINCTION),
                   heroes=frozenset(c.name for c in owned if c.kind is Kind.HERO),
                   coins=sum(v >> 2 for v in p.coins()))


@dataclass
class _SearchPart:
    """The search's games after one root move: how many, their summed value, the rest."""

    n: int
    value: float
    stats: RootStats


def _search_part(searcher: Searcher, action: Action) -> _SearchPart:
    stats = searcher.root_stats[action]
    n = stats.n
    return _SearchPart(n, searcher.mean_reward(action) * n if n else 0.0, stats)


def _estimate(samples: Sequence[_Sample], search: _SearchPart | None = None) -> Estimate:
    """The verification games of a move pooled with the search's games after it (value,
    score, win, margin, categories); distinctions, heroes and coins come from the
    verification games alone."""
    n_v = len(samples)
    n = n_v
    value = sum(s.value for s in samples)
    score = sum(float(s.score) for s in samples)
    score2 = sum(float(s.score) ** 2 for s in samples)
    win = sum(s.win for s in samples)
    margin = sum(s.margin for s in samples)
    categories = {k: float(sum(s.breakdown[k] for s in samples)) for k in CATEGORIES}
    if search is not None and search.n:
        st = search.stats
        n += search.n
        value += search.value
        score += st.score
        score2 += st.score2
        win += st.win
        margin += st.margin
        for k in CATEGORIES:
            categories[k] += st.categories[k]
    distinctions: dict[str, float] = {}
    heroes: dict[str, float] = {}
    for s in samples:
        for d in s.distinctions:
            distinctions[d] = distinctions.get(d, 0.0) + 1 / n_v
        for h in s.heroes:
            heroes[h] = heroes.get(h, 0.0) + 1 / n_v
    return Estimate(
        n=n, value=value / n, score=score / n, score_se=se_from_sums(n, score, score2),
        win=win / n, margin=margin / n, categories={k: v / n for k, v in categories.items()},
        distinctions=distinctions, heroes=heroes,
        coins=sum(s.coins for s in samples) / n_v)


class _Verifier:
    """Plays options out from a fixed list of determinizations (common random numbers)."""

    def __init__(self, game: Game, me: int, seeds: Sequence[int]) -> None:
        self.state = game.state.copy()
        self.me = me
        self.seeds = list(seeds)
        self.shown, self.purse = known_places(game.events, me)

    def run(self, action: Action) -> list[_Sample]:
        out = []
        for det_seed in self.seeds:
            rng = random.Random(det_seed)
            state = determinize_state(self.state, self.me, rng, self.shown, self.purse,
                                      heuristic_bid_model)
            eng = Engine(state, quiet=True)
            eng.apply(action, check=False)
            eng.play_out(heuristic_policy, rng)
            out.append(_sample(state, self.me))
        return out


# ====================================================================== judging

def position_seed(game: Game, seat: int) -> int:
    """A seed for judging the position from what ``seat`` has seen (its log, with the other
    seats' bids face down): the same position gives the same judgement in the Hint, the
    What-if table and the review, and twin games that differ only in hidden information
    give the same seed."""
    text = "\n".join(game.log(seat)) + f"\n{seat}"
    return zlib.crc32(text.encode("utf-8"))


def judge(game: Game, level: str | JudgeLevel = DEFAULT_LEVEL, seed: int | None = None,
          selected: Action | str | None = None, progress: Progress | None = None,
          verify: int | None = None) -> Judgement:
    """Judge the decision on the table of ``game`` for the player who must take it (see the
    module docs). ``selected``: the move the player selected (always verified, and compared
    by :meth:`Judgement.compare`); ``seed``: default :func:`position_seed`; ``progress``
    hears how far the judgement is; ``verify`` overrides the level's verification playouts."""
    decision = game.decision
    if decision is None:
        raise ValueError("there is no decision to judge: the game is over")
    lvl = parse_level(level)
    me = decision.player
    if seed is None:
        seed = position_seed(game, me)
    legal = game.legal_actions()
    chosen: Action | None = None
    if selected is not None:
        chosen = game.parse(selected) if isinstance(selected, str) else selected
        if chosen not in legal:
            raise ValueError(f"{selected} is not a legal action here")
    start = time.perf_counter()
    n_verify = lvl.verify if verify is None else verify
    if n_verify < 1:
        raise ValueError(f"verification needs at least 1 playout, not {n_verify!r}")
    if len(legal) == 1:
        n_verify = min(n_verify, 8)  # a forced move: only the position's outlook is wanted

    # 1. The search.
    searcher = Searcher(game, random.Random(seed), heuristic_policy, heuristic_bid_model)
    budget = Budget(lvl.iterations, lvl.seconds) if len(legal) > 1 else Budget(iterations=8)
    deadline = None if budget.seconds is None else start + budget.seconds
    limit = budget.iterations
    search_share = 0.7
    # What the verification will cost, in iterations' worth (lvl.budget).
    n_checked = min(lvl.top, len(legal)) + (chosen is not None)
    checks = n_checked * (n_verify if lvl.total is None or verify is not None
                          else min(n_verify, max(6, lvl.total // n_checked)))
    while True:
        searcher.iterate()
        done = searcher.iterations
        if limit is not None and done >= limit:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
        if lvl.budget is not None and len(legal) > 1 and done % 16 == 0:
            spent = time.perf_counter() - start
            if spent + BUDGET_MARGIN * checks * spent / done >= lvl.budget:
                break
        if progress is not None and done % 25 == 0:
            frac = (done / limit if limit else
                    (time.perf_counter() - start) / (budget.seconds or 1.0))
            progress(search_share * min(frac, 1.0), 1.0, "searching")
    iterations = searcher.iterations

    # 2. Verification of the most promising options, and of the selected move.
    by_visits = sorted(legal, key=lambda a: (-searcher.visits(a), legal.index(a)))
    candidates = by_visits[:max(1, min(lvl.top, len(legal)))]
    if chosen is not None and chosen not in candidates:
        candidates.append(chosen)
    if lvl.total is not None and verify is None:
        n_verify = min(n_verify, max(6, lvl.total // len(candidates)))
    master = random.Random(seed ^ 0x5DEECE66D)
    verifier = _Verifier(game, me, [master.getrandbits(63) for _ in range(n_verify)])
    samples: dict[Action, list[_Sample]] = {}
    for i, a in enumerate(candidates):
        samples[a] = verifier.run(a)
        if progress is not None:
            progress(search_share + (1 - search_share) * (i + 1) / len(candidates), 1.0,
                     "checking the best moves")

    search = {a: _search_part(searcher, a) for a in legal}
    options: list[OptionJudgement] = []
    for a in legal:
        if a in samples:
            est = _estimate(samples[a], search[a])
        else:
            est = _rough(searcher, a)
        options.append(OptionJudgement(a, searcher.visits(a), a in samples, est,
                                       continuation=searcher.continuation_from(a)))
    total_its = max(iterations, 1)
    judgement = Judgement(
        player=me, kind=str(decision.kind), level=lvl.name, seed=seed, iterations=iterations,
        playouts=n_verify, seconds=0.0, options=options,
        win=[w / total_its for w in searcher.win_sum],
        expected=[s / total_its for s in searcher.score_sum], selected=chosen,
        _samples=samples, _verifier=verifier, _search=search)
    judgement._rank()
    # One currency: an option the search rated above the recommendation is verified too, so
    # that no option shown beats the recommended move in the value it is ranked by.
    for _ in range(3):
        best_value = judgement.options[0].value
        above = [o for o in judgement.options if not o.verified and o.value > best_value]
        if not above:
            break
        for o in above[:2]:
            judgement.verify(o.action)
    add_immediate(game, judgement)
    judgement.seconds = time.perf_counter() - start
    if progress is not None:
        progress(1.0, 1.0, "done")
    return judgement


def _rough(searcher: Searcher, action: Action) -> Estimate:
    stats = searcher.root_stats[action]
    n = stats.n
    if not n:
        return Estimate(0, -1.0, math.nan, math.nan, math.nan, math.nan,
                        dict.fromkeys(CATEGORIES, math.nan))
    score, score_se, margin, win, categories = stats.means()
    return Estimate(n=n, value=searcher.mean_reward(action), score=score, score_se=score_se,
                    win=win, margin=margin, categories=categories)


def estimate_position(game: Game, viewer: int, playouts: int = 200, seed: int | None = None
                      ) -> tuple[list[float], list[float]]:
    """Each player's chance to win and expected final score from ``viewer``'s knowledge
    only: ``playouts`` games played to the end from determinizations for ``viewer`` with the
    judgement's playout policy (the win-chance bar while nobody is being judged)."""
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
    for _ in range(playouts):
        state = determinize_state(game.state, viewer, rng, shown, purse, heuristic_bid_model)
        Engine(state, quiet=True).play_out(heuristic_policy, rng)
        totals, w, _, _ = outcome(state)
        for i in range(n):
            wins[i] += w[i]
            scores[i] += totals[i]
    return [w / playouts for w in wins], [x / playouts for x in scores]


# ====================================================================== what a move does now

_IMMEDIATE_EVENTS = (ev.CardTaken, ev.CardPlaced, ev.CardDiscarded, ev.CoinTransformed,
                     ev.CoinTraded, ev.HeroRecruited, ev.CoinSwapped, ev.GemReplaced,
                     ev.CoinDiscarded)
_DISTINCTION_OF = {suit: d for suit, d in zip(C.SUITS, C.DISTINCTIONS, strict=True)}


def immediate(game: Game, action: Action | str, seed: int = 0) -> Immediate:
    """What ``action`` changes for the player deciding if the game ended right after it:
    the score sheet by category (a card's points, a coin trade, a majority bonus, an artifact
    valued with what the player owns today), what happens in words, the class majorities it
    wins, ties or loses, and the decision that follows at once. Computed on a determinization
    for that player, so it never depends on what the player cannot see."""
    decision = game.decision
    if decision is None:
        raise ValueError("there is no decision: the game is over")
    base = game.determinize(decision.player, seed)
    return _immediate(base, decision.player, base.parse(str(action)) if isinstance(
        action, str) else action)


def immediates(game: Game, actions: Sequence[Action], seed: int = 0) -> dict[str, Immediate]:
    """:func:`immediate` of several actions of the decision on the table (one
    determinization for all); an action the determinization cannot play is left out."""
    decision = game.decision
    if decision is None:
        return {}
    base = game.determinize(decision.player, seed)
    out = {}
    for a in actions:
        try:
            out[str(a)] = _immediate(base, decision.player, a)
        except Exception:  # e.g. an action of another determinization: no preview
            continue
    return out


def add_immediate(game: Game, judgement: Judgement, seed: int = 0) -> None:
    """Fill ``now`` of every option of a judgement (one determinization for all)."""
    base = game.determinize(judgement.player, seed)
    for o in judgement.options:
        try:
            o.now = _immediate(base, judgement.player, o.action)
        except Exception:  # an option the determinization cannot play: no preview
            o.now = None


def sheet_if_ended(game: Game, seat: int) -> dict[str, int]:
    """``seat``'s score sheet by category if the game ended now: the table as it is, with the
    cards that would still be placed before the final count placed where they score most
    for the player (a mercenary waiting in the command zone on its better side, Ylud in her
    best column: R14, every mercenary is enlisted and Ylud placed before the scoring)."""
    tables = game.tables()
    mine = tables[seat]
    pending = [c for c in mine.command_zone if c.kind is Kind.MERCENARY or c is C.YLUD]
    options = game.config.options
    if not pending:
        return score_table(tables, options, details=False)[seat].breakdown
    army = {suit: list(col) for suit, col in mine.army.items()}
    zone = list(mine.command_zone)
    for card in pending:
        zone.remove(card)
        suits = [s for s, _ in card.sides] if card.kind is Kind.MERCENARY else list(C.SUITS)
        best_total, best_suit = -1, suits[0]
        for suit in suits:
            trial = {k: v + [card] if k is suit else v for k, v in army.items()}
            tables[seat] = PlayerTable(mine.name, trial, zone, mine.coins, mine.gem)
            total = score_table(tables, options, details=False)[seat].total
            if total > best_total:
                best_total, best_suit = total, suit
        army[best_suit] = army[best_suit] + [card]
    tables[seat] = PlayerTable(mine.name, army, zone, mine.coins, mine.gem)
    return score_table(tables, options, details=False)[seat].breakdown


def _immediate(base: Game, me: int, action: Action) -> Immediate:
    before = sheet_if_ended(base, me)
    ranks_before = [list(p.ranks) for p in base.state.players]
    lines_before = base.state.players[me].lines
    branch = base.clone()
    mark = len(branch.events)
    branch.apply(action)
    after = sheet_if_ended(branch, me)
    parts = {k: after[k] - before[k] for k in CATEGORIES if after[k] != before[k]}
    mine = [e for e in branch.events[mark:]
            if isinstance(e, _IMMEDIATE_EVENTS) and getattr(e, "player", None) == me]
    nxt = branch.decision
    follow = (nxt.prompt if nxt is not None and nxt.player == me
              and nxt.kind not in (DecisionKind.BID, DecisionKind.PICK) else "")
    majority = _majority_notes(base, me, ranks_before,
                               [list(p.ranks) for p in branch.state.players])
    return Immediate(total=sum(parts.values()), parts=parts,
                     lines=[e.describe(base.names) for e in mine],
                     majority=majority, follow_up=follow,
                     lines_completed=branch.state.players[me].lines - lines_before,
                     new_coins=[e.new for e in mine
                                if isinstance(e, ev.CoinTransformed | ev.CoinTraded)])


def _majority_notes(game: Game, me: int, before: list[list[int]],
                    after: list[list[int]]) -> list[str]:
    """Majorities that change hands: in age 1 every class (its distinction, FR "Fin de
    l'Age 1", R23: a tie gives nobody the card); in age 2 the warriors (the majority bonus)."""
    age = game.state.age
    notes = []
    for suit in C.SUITS:
        if age != 1 and suit is not Suit.WARRIOR:
            continue
        if age == 1:
            prize = _DISTINCTION_OF[suit].name
        else:
            prize = "the warrior bonus"
        old = _standing(before, me, suit)
        new = _standing(after, me, suit)
        if old == new:
            continue
        name = suit.column_name + "s"
        if new == "lead":
            notes.append(f"takes the {suit.column_name} majority: {prize}")
        elif new == "tie":
            notes.append(f"ties the {name}: {prize} at risk" if old == "lead"
                         else f"ties the {name}: nobody gets {prize} on a tie")
        elif old == "lead":
            notes.append(f"loses the {suit.column_name} majority: {prize}")
    return notes


def _standing(ranks: list[list[int]], me: int, suit: Suit) -> str:
    mine = ranks[me][suit]
    best_other = max((r[suit] for i, r in enumerate(ranks) if i != me), default=0)
    if mine > best_other:
        return "lead"
    if mine == best_other and mine > 0:
        return "tie"
    return "behind"


# ====================================================================== the reason why

#: Differences smaller than this (points) are not worth a word.
POINTS_NOTE = 1.0
#: At most this many reasons for, and against, in a comparison.
MOST_REASONS = 3
#: Chances that change by less than this are not worth a word.
CHANCE_NOTE = 0.10


def _paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    d = [x - y for x, y in zip(a, b, strict=True)]
    return sum(d) / len(d), mean_se(d)


def _compare(judgement: Judgement, best: OptionJudgement, other: OptionJudgement
             ) -> Comparison:
    sa = judgement._samples[best.action]
    sb = judgement._samples[other.action]
    ea, eb = best.estimate, other.estimate
    # The differences the table shows (pooled games); how sure: the larger of the paired
    # verification's standard error and that of two independent means.
    value = ea.value - eb.value
    points = ea.score - eb.score
    win = ea.win - eb.win
    margin = ea.margin - eb.margin
    points_se = max(_paired([s.score for s in sa], [s.score for s in sb])[1],
                    math.hypot(ea.score_se, eb.score_se))
    win_se = max(_paired([s.win for s in sa], [s.win for s in sb])[1],
                 math.hypot(_share_se(ea.win, ea.n), _share_se(eb.win, eb.n)))
    why: list[tuple[float, str]] = []
    but: list[tuple[float, str]] = []

    def note(size: float, favours_best: bool, text: str) -> None:
        (why if favours_best else but).append((size, text))

    # What the moves do at once.
    if best.now is not None and other.now is not None:
        if best.now.lines_completed > other.now.lines_completed:
            hero = _next_hero(best)
            note(12.0, True, "it completes a line now: you recruit a hero at once"
                 + (f" ({hero})" if hero else ""))
        elif other.now.lines_completed > best.now.lines_completed:
            note(12.0, False, f"{other.action} completes a line now")
        for text in best.now.majority:
            if text not in other.now.majority:
                note(8.0, _good_majority(text), text)
        for text in other.now.majority:
            if text not in best.now.majority:
                note(8.0, not _good_majority(text), f"{other.action} {text}")
    # Where the points come from at the end.
    for cat in CATEGORIES:
        _, se = _paired([s.breakdown[cat] for s in sa], [s.breakdown[cat] for s in sb])
        d = ea.categories[cat] - eb.categories[cat]
        if abs(d) >= max(POINTS_NOTE, 1.5 * se):
            label = CATEGORY_LABELS.get(cat, cat).lower()
            note(abs(d), d > 0, f"your {label} {d:+.1f} points")
    # Distinctions and heroes whose chances change.
    for name in sorted({d for s in sa + sb for d in s.distinctions}):
        pa = sum(name in s.distinctions for s in sa) / len(sa)
        pb = sum(name in s.distinctions for s in sb) / len(sb)
        if abs(pa - pb) >= CHANCE_NOTE:
            note(20 * abs(pa - pb), pa > pb, f"the {name}: {pa:.0%} instead of {pb:.0%}")
    hero_changes = []
    for name in sorted({h for s in sa + sb for h in s.heroes}):
        pa = sum(name in s.heroes for s in sa) / len(sa)
        pb = sum(name in s.heroes for s in sb) / len(sb)
        if abs(pa - pb) >= 2 * CHANCE_NOTE:
            hero_changes.append((abs(pa - pb), pa > pb, name, pa, pb))
    for size, good, name, pa, pb in sorted(hero_changes, reverse=True)[:2]:
        note(10 * size, good, f"{name} recruited by the end: {pa:.0%} instead of {pb:.0%}")
    d, se = _paired([s.coins for s in sa], [s.coins for s in sb])
    if abs(d) >= max(2.0, 1.5 * se) and not any("your coins" in t for _, t in why + but):
        note(abs(d) / 2, d > 0, f"your coins end {abs(d):.0f} {'higher' if d > 0 else 'lower'}")
    # Bids: where the highest coin goes.
    if judgement.kind == str(DecisionKind.BID):
        text = _bid_note(judgement, best.action, other.action)
        if text:
            note(9.0, True, text)
    return Comparison(best=best.action, other=other.action, value=max(0.0, value),
                      points=points, points_se=points_se, win=win, win_se=win_se,
                      margin=margin,
                      why=[t for _, t in sorted(why, key=lambda x: -x[0])][:MOST_REASONS],
                      but=[t for _, t in sorted(but, key=lambda x: -x[0])][:MOST_REASONS - 1])


def _share_se(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 0.0) / max(n, 1))


def _good_majority(text: str) -> bool:
    return text.startswith("takes")


def _next_hero(option: OptionJudgement) -> str:
    for _, action in option.continuation[:4]:
        if action.verb == "hero" and action.args and isinstance(action.args[0], Card):
            return f"the search recruits {action.args[0].name}"
    return ""


def _bid_note(judgement: Judgement, best: Action, other: Action) -> str:
    verifier = judgement._verifier
    if verifier is None:
        return ""
    state = verifier.state
    p = state.players[judgement.player]
    worth = tavern_worth(state, p)
    top = max(range(3), key=lambda t: worth[t])
    labels_best = [str(x) for x in best.args]
    labels_other = [str(x) for x in other.args]
    from .. import coins as K

    high = max((K.label_value(lab), lab) for lab in labels_best)[1]
    if labels_best[top] == high and labels_other[top] != high:
        card = max(state.taverns[top], key=lambda c: _worth_of(p, c), default=None)
        what = f" (its {card.token} is the best card for you)" if card is not None else ""
        if K.label_value(high) >= max(K.value(c) for c in p.coins()):
            return (f"it puts your highest coin, {high}, on the {C.TAVERNS[top]}{what}; "
                    f"{other} leaves it elsewhere")
        # The bid keeps a higher coin in the purse: "your highest coin" would be untrue.
        return (f"it puts its highest bid, {high}, on the {C.TAVERNS[top]}{what}; "
                f"{other} bids {labels_other[top]} there")
    return ""


def _worth_of(p: Any, card: Card) -> float:
    from ..determinize import card_worth

    return card_worth(p, card)


__all__ = ["DEFAULT_LEVEL", "LEVELS", "Comparison", "Estimate", "Immediate", "JudgeLevel",
           "Judgement", "OptionJudgement", "add_immediate", "estimate_position", "immediate",
           "immediates", "judge", "parse_level", "position_seed", "sheet_if_ended"]
