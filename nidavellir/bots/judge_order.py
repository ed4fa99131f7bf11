"""The one order of a judgement's options and the moves *about as good* as the recommended
one: one rule, in both currencies (:mod:`.judge`).

A learner is told two figures for every option, its chance to win and its expected final
score, and the two are compared with the same paired noise (:data:`~.paired.NOISE`
standard errors of the paired difference). The rule:

1. **No option is clearly more likely to win than the recommended move.** An option is
   *beaten* when another option's chance to win is higher by more than the noise; the
   options nobody beats have, pairwise, equal chances (the noise cannot tell them apart).
2. **Within equal chances, the points decide**: the recommended move is the option with
   the highest expected final score among those nobody beats (then the higher chance to
   win, then the engine's order).
3. **About as good** (``about_best``) is an option whose chance to win *and* expected
   points both differ from the recommended move's by no more than the noise (in either
   direction): a difference the figures show beyond the noise in either currency is never
   called noise.
4. **The one order**: the recommended move, then the other moves about as good (by the
   chance to win, then the points), then the rest: first those nobody beats, then the
   others, each by the chance to win, then the points. The moves about as good are thus
   always the first options of the order (a prefix), and the Hint's *next best move* is
   the first option after them: when it is one nobody beats, it is as likely to win
   within the noise and has clearly fewer points.

An exact judgement (nothing hidden or random left, every option played to the end) has
no noise: equal means equal, so the recommended move has the highest chance to win and,
among equal chances, the most points, and *about as good* means the same figures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..actions import Action
from .judgement import OptionJudgement
from .paired import Difference

#: ``gap(a, b, figure)``: option a's figure less option b's, paired (``"win"`` or
#: ``"score"``), with its standard error (0 for an exact judgement).
Gap = Callable[[OptionJudgement, OptionJudgement, str], Difference]


def beaten(o: OptionJudgement, options: Sequence[OptionJudgement], gap: Gap) -> bool:
    """Whether another option's chance to win is higher than ``o``'s beyond the noise
    (``options`` sorted by the chance to win, highest first)."""
    for p in options:
        if p.win <= o.win:
            return False
        d = gap(p, o, "win")
        if d.clear and d.value > 0:
            return True
    return False


def order(options: Sequence[OptionJudgement], gap: Gap, index: dict[Action, int]
          ) -> list[OptionJudgement]:
    """The options in the one order (module docs), each with its paired gaps to the
    recommended move (``win_gap``, ``points_gap``: the recommended one's figure less the
    option's). ``index``: each option's place in the engine's order (the last tie-break)."""
    if not options:
        return []
    by_win = sorted(options, key=lambda o: (-o.win, -o.score, index[o.action]))
    memo: dict[int, bool] = {}

    def is_beaten(o: OptionJudgement) -> bool:
        key = id(o)
        if key not in memo:
            memo[key] = beaten(o, by_win, gap)
        return memo[key]

    # The most points among the options nobody beats (the highest chance to win is never
    # beaten, so there is one).
    best = next(o for o in sorted(options, key=lambda o: (-o.score, -o.win, index[o.action]))
                if not is_beaten(o))
    for o in options:
        if o is best:
            o.win_gap = Difference(0.0, 0.0)
            o.points_gap = Difference(0.0, 0.0)
        else:
            o.win_gap = gap(best, o, "win")
            o.points_gap = gap(best, o, "score")
    same = [o for o in by_win if o is not best and o.about_best]
    rest = [o for o in by_win if o is not best and not o.about_best]
    rest.sort(key=is_beaten)  # stable: by the chance to win within each part
    return [best, *same, *rest]


__all__ = ["Gap", "beaten", "order"]
