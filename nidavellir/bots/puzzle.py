"""Is this decision a puzzle? The only-move test, from the deciding seat's knowledge only.

A decision becomes a puzzle when one answer is clearly the best whatever the seat cannot
see (docs/puzzles.md). It is judged with the coach's own machinery
(:func:`nidavellir.bots.judge.judge`): equivalent moves merged into one option, every
option played out on the **same deals** (common random numbers: the same determinization
of what the seat cannot see and the same random numbers for every option), at least
:data:`DEALS` of them per option, or to the end by enumeration when nothing hidden or random
is left (``exact``). :func:`verify` keeps the decision only when **all** of these hold:

1. it is not a bid (bids are simultaneous: the best bid is a mixed strategy against the
   others' secret bids, so no single bid is "the" answer; they are left out) and it has at
   least two options;
2. the best option beats the runner-up by at least :data:`WIN_GAP` in chance to win
   (Lichess's "only move", 0.42 on its −1…+1 scale, is 0.21 on our 0…1 scale); or, where
   the win chance is **settled** (both options at most :data:`SETTLED` or at least
   ``1 - SETTLED``: the seat wins, or loses, whatever it does), by at least
   :data:`POINTS_GAP` expected final points, the runner-up then being the option with the
   most points after it;
3. the best option is the best (or tied for it) in at least :data:`AGREEMENT` of the deals
   against every other option: the answer does not depend on what the seat cannot see;
4. the 95 % interval of the paired gap (:data:`Z95` standard errors) excludes 0.

Everything is seeded from what the seat knows (:func:`~nidavellir.bots.judge.position_seed`,
mixed with ``salt``), so twin positions that differ only in hidden cards or bids give the
same verdict, answers and reason, and the same position gives the same verdict on every
machine. Another ``salt`` deals other determinizations: the stability measure of
benchmarks/README.md.

:func:`prefilter` is the cheap first look of the generator (:data:`QUICK_DEALS` deals per
option): a decision it does not flag is not verified.

>>> from nidavellir.bots import play_game
>>> game = play_game(2, "greedy", seed=11)
>>> game.undo_to(len(game.history) - 3)
>>> verdict = verify(game)
>>> verdict.exact, verdict.deals
(True, 1)
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..game import Game
from ..i18n import N_, _
from ..rules.base import DecisionKind
from .judge import JudgeLevel, Judgement, OptionJudgement, judge, move_words, position_seed
from .paired import Sample

#: Determinizations (deals) per option for a verified puzzle, at least.
DEALS = 200
#: Deals per option of the generator's first look (:func:`prefilter`).
QUICK_DEALS = 24
#: The least chance to win the best option must add over the runner-up (Lichess's only
#: move: 0.42 on a −1…+1 scale).
WIN_GAP = 0.21
#: The least expected final points the best option must add over the runner-up where the
#: win chance is settled (about the points of one good card: a blacksmith's fourth is 9).
POINTS_GAP = 8.0
#: A chance to win at most this (or at least 1 − this) for both options is settled.
SETTLED = 0.05
#: The least share of the deals in which the best option is the best.
AGREEMENT = 0.90
#: The two-sided 95% quantile of the standard normal distribution.
Z95 = 1.959963984540054
#: The first look's thresholds: a decision is verified when its best option beats the
#: runner-up by at least this chance to win (or points, settled), beyond this many
#: standard errors. Looser than the test itself: a puzzle the first look misses is lost,
#: a false alarm costs one verification.
QUICK_WIN_GAP = 0.14
QUICK_POINTS_GAP = 6.0
QUICK_Z = 1.5
#: Decisions that are never puzzles: simultaneous secret bids (module docs).
LEFT_OUT = frozenset({str(DecisionKind.BID)})

#: Why a decision is not a puzzle, by key (:attr:`Verdict.failures`), in words.
FAILURES: dict[str, str] = {
    "bid": N_("a bid is simultaneous: no single bid is the answer"),
    "forced": N_("there is only one option"),
    "gap": N_("the best move does not beat the runner-up by enough"),
    "noise": N_("the gap's interval (95%) includes 0"),
    "agreement": N_("the best move depends on what the player cannot see"),
    "points_order": N_("the win chance is settled and the best move does not score the most"),
}


def level(deals: int) -> JudgeLevel:
    """The judgement of a puzzle: no search, every option played out on ``deals`` paired
    deals (the coach's paired games alone: each option's figures are the means over the
    same deals, so the gap is a paired difference)."""
    return JudgeLevel(f"puzzle@{deals}", iterations=0, playouts=0, least=deals, most=deals)


def puzzle_seed(game: Game, salt: int = 0) -> int:
    """The seed of a puzzle's deals: the position as the deciding seat knows it
    (:func:`position_seed`), with ``salt`` for another set of deals."""
    decision = game.decision
    if decision is None:
        raise ValueError("there is no decision: the game is over")
    seed = position_seed(game, decision.player)
    return seed if not salt else zlib.crc32(f"{seed}/{salt}".encode())


@dataclass
class Gap:
    """A paired gap (the best option less the runner-up) over the deals."""

    value: float
    se: float

    @property
    def low(self) -> float:
        """The 95% interval's lower end."""
        return self.value - Z95 * self.se

    @property
    def high(self) -> float:
        return self.value + Z95 * self.se

    def to_dict(self) -> dict[str, float]:
        return {"value": round(self.value, 4), "se": round(self.se, 4),
                "low": round(self.low, 4), "high": round(self.high, 4)}


@dataclass
class Verdict:
    """The only-move test of one decision (module docs)."""

    passed: bool
    failures: list[str]
    """Why not (keys of :data:`FAILURES`); empty when it passed."""
    kind: str
    seat: int
    exact: bool = False
    grading: str = "win"
    """``win`` (the gap in chance to win) or ``points`` (the win chance is settled)."""
    deals: int = 0
    """Deals per option (1: exact)."""
    answers: list[str] = field(default_factory=list)
    """Every legal move of the best option, in notation (equivalent moves are one answer)."""
    runner_up: str = ""
    win: Gap = field(default_factory=lambda: Gap(0.0, 0.0))
    points: Gap = field(default_factory=lambda: Gap(0.0, 0.0))
    agreement: float = 0.0
    """The share of the deals in which the best option is the best (ties count)."""
    judgement: Judgement | None = field(default=None, repr=False)
    runner: OptionJudgement | None = field(default=None, repr=False)

    @property
    def best(self) -> str:
        return self.answers[0] if self.answers else ""

    def why_not(self) -> str:
        """The failures in words (the current language)."""
        return "; ".join(_(FAILURES[f]) for f in self.failures)

    def reason(self, game: Game | None = None) -> str:
        """The coach's words in the current language: the best move against the runner-up,
        and why; with the position (``game``), the moves in this language's words too."""
        if self.judgement is None or self.runner is None:
            return ""
        comparison = self.judgement.compare(self.runner.action)
        if game is not None:
            words = move_words(game, game.legal_actions())
            comparison.best_words = words.get(str(comparison.best), str(comparison.best))
            comparison.other_words = words.get(str(comparison.other), str(comparison.other))
        return comparison.text()

    def gap_dict(self) -> dict[str, Any]:
        return {"win": self.win.to_dict(), "points": {
            k: round(v, 2) for k, v in self.points.to_dict().items()}}


def eligible(game: Game) -> bool:
    """Whether the decision on the table may be a puzzle at all: not a bid, two legal
    moves or more."""
    decision = game.decision
    return (decision is not None and str(decision.kind) not in LEFT_OUT
            and len(game.legal_actions()) > 1)


def verify(game: Game, deals: int = DEALS, salt: int = 0) -> Verdict:
    """The only-move test of the decision on the table of ``game`` (module docs), judged
    from the deciding seat's knowledge on ``deals`` paired deals per option."""
    decision = game.decision
    if decision is None:
        raise ValueError("there is no decision: the game is over")
    kind, seat = str(decision.kind), decision.player
    if kind in LEFT_OUT:
        return Verdict(False, ["bid"], kind, seat)
    if len(game.legal_actions()) < 2:
        return Verdict(False, ["forced"], kind, seat)
    j = judge(game, level=level(deals), seed=puzzle_seed(game, salt))
    return verdict_of(j, kind, seat, WIN_GAP, POINTS_GAP, 0.0 if j.exact else Z95,
                      AGREEMENT)


def prefilter(game: Game, deals: int = QUICK_DEALS) -> Verdict | None:
    """The generator's first look: a rough verdict on ``deals`` deals per option with
    looser thresholds (:data:`QUICK_WIN_GAP`, :data:`QUICK_POINTS_GAP`,
    :data:`QUICK_Z`, no agreement), or None for a decision that cannot be a puzzle."""
    if not eligible(game):
        return None
    decision = game.decision
    assert decision is not None
    j = judge(game, level=level(deals), seed=puzzle_seed(game, salt=0x9E3779B9))
    return verdict_of(j, str(decision.kind), decision.player, QUICK_WIN_GAP,
                      QUICK_POINTS_GAP, 0.0 if j.exact else QUICK_Z, 0.0)


def verdict_of(j: Judgement, kind: str, seat: int, win_gap: float, points_gap: float,
               z: float, agreement: float) -> Verdict:
    """The test's figures from a judgement and its thresholds."""
    options = j.options
    if len(options) < 2:
        return Verdict(False, ["forced"], kind, seat, exact=j.exact)
    best = options[0]
    samples = j._samples
    settled = all(o.win <= SETTLED for o in options[:2]) or all(
        o.win >= 1 - SETTLED for o in options[:2])
    grading = "points" if settled else "win"
    failures = []
    if grading == "points":
        rest = sorted(options[1:], key=lambda o: -o.score)
        runner = rest[0]
        if runner.score > best.score:
            failures.append("points_order")
    else:
        runner = options[1]
    b, r = samples[best.action], samples[runner.action]
    win = _gap([s.win for s in b], [s.win for s in r])
    points = _gap([float(s.score) for s in b], [float(s.score) for s in r])
    if j.exact:
        win.se = points.se = 0.0
    gap, needed = (win, win_gap) if grading == "win" else (points, points_gap)
    if gap.value < needed:
        failures.append("gap")
    if gap.value - z * gap.se <= 0:
        failures.append("noise")
    share = _agreement(samples, best, [o for o in options if o is not best], grading)
    if share < agreement:
        failures.append("agreement")
    return Verdict(passed=not failures, failures=failures, kind=kind, seat=seat,
                   exact=j.exact, grading=grading, deals=len(b),
                   answers=[str(a) for a in best.actions], runner_up=str(runner.action),
                   win=win, points=points, agreement=share, judgement=j, runner=runner)


def _gap(a: Sequence[float], b: Sequence[float]) -> Gap:
    d = [x - y for x, y in zip(a, b, strict=True)]
    n = len(d)
    mean = math.fsum(d) / n
    if n < 2:
        return Gap(mean, 0.0)
    var = math.fsum((x - mean) ** 2 for x in d) / (n - 1)
    return Gap(mean, math.sqrt(var / n))


def _agreement(samples: dict[Any, list[Sample]], best: OptionJudgement,
               others: Sequence[OptionJudgement], grading: str) -> float:
    """The share of the deals in which ``best`` does at least as well as every other
    option (its chance to win, or its points where the win chance is settled)."""
    mine = samples[best.action]
    rivals = [samples[o.action] for o in others]
    if grading == "win":
        def value(s: Sample) -> float:
            return s.win
    else:
        def value(s: Sample) -> float:
            return float(s.score)
    good = sum(1 for i, s in enumerate(mine)
               if all(value(s) >= value(r[i]) for r in rivals))
    return good / len(mine)


__all__ = ["AGREEMENT", "DEALS", "FAILURES", "Gap", "LEFT_OUT", "POINTS_GAP", "QUICK_DEALS",
           "SETTLED", "Verdict", "WIN_GAP", "Z95", "eligible", "level", "prefilter",
           "puzzle_seed", "verdict_of", "verify"]
