"""The search bots: information-set Monte Carlo tree search that never peeks, and the flat
Monte Carlo baseline (standard library only).

``SearchBot`` (registered as ``search``; the ``hard`` and ``expert`` levels) runs
single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012):

- every iteration starts from a new **determinization** of the position for the deciding
  seat (:meth:`nidavellir.game.Game.determinize`: unseen cards reshuffled, others'
  face-down bids and purses dealt again by a bid model), so the search only ever uses what
  that seat could know;
- one tree, keyed by the actions that seat can see. Nodes store, for the player who chose
  the move into them, visits, *availability* (how often the move was legal when its parent
  was reached) and the summed reward; selection is UCB over the available children
  (max^n: each player picks what is best for itself);
- **the secret bid is simultaneous**: the other players' bids are never part of the tree
  (they are drawn from the bid model, in the determinization for bids already made and
  during the descent for bids still to come), so the searcher's own bid statistics are
  decoupled from theirs and nobody's bid can depend on another's in the same round;
- after one expansion per iteration a fast **heuristic playout** (:mod:`.playout`) plays to
  the end of the game; forced moves are played without a node;
- the reward of a player mixes its win share and its score margin over the best opponent.

``MonteCarloBot`` (``montecarlo``) is the honest naive baseline: every legal action gets the
same number of uniformly random playouts from fresh determinizations; the best mean reward
wins. Both take a budget: ``iterations=n`` (deterministic for a seed) or ``seconds=t``.

``bot.analyse(game)`` returns an :class:`Analysis` of the decision on the table: every legal
action with its visits, the deciding player's expected final score (mean and standard error),
expected margin, win probability and expected points per scoring category, plus each
player's win probability and expected final score at the position and the principal
continuation. The coach, the game review and the what-if panel are built on it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..actions import Action
from ..determinize import BidModel, heuristic_bid_model
from ..game import Game
from ..state import GameState
from .playout import POLICIES
from .tree import EXPERT_SECONDS, EXPLORATION, HARD_SECONDS, Budget, Searcher

if TYPE_CHECKING:
    from .judge import Judgement

__all__ = ["EXPERT_SECONDS", "HARD_SECONDS", "MonteCarloBot", "SearchBot"]


class SearchBot:
    """Information-set MCTS that never peeks (see the module docs).

    ``make_bot("search", seed=s, iterations=n)`` is deterministic for a seed;
    ``seconds=t`` is a time budget; the default is the ``hard`` level.
    """

    name = "search"
    tree = True
    default_policy = "heuristic"

    def __init__(self, seed: int | None = 0, iterations: int | None = None,
                 seconds: float | None = None, *, exploration: float = EXPLORATION,
                 playout: str | None = None, bid_model: BidModel | None = None,
                 opponents: str = "tree",
                 debug: Callable[[GameState], None] | None = None,
                 bid_selection: str = "ucb", horizon: bool = False) -> None:
        self.seed = seed
        self.budget = Budget(iterations, seconds)
        self.exploration = exploration
        playout = playout or self.default_policy
        if playout not in POLICIES:
            raise ValueError(f"unknown playout policy {playout!r}; known: {', '.join(POLICIES)}")
        self.playout = playout
        self.bid_model = bid_model or heuristic_bid_model
        if opponents not in ("tree", "policy"):
            raise ValueError(f"opponents must be 'tree' or 'policy', not {opponents!r}")
        self.opponents = opponents
        if bid_selection not in ("ucb", "rm"):
            raise ValueError(f"bid_selection must be 'ucb' or 'rm', not {bid_selection!r}")
        self.bid_selection = bid_selection
        """How the searcher chooses among its own secret bids in the tree: UCB like every
        other decision, or regret matching (``rm``), the simultaneous-move choice of Lisý
        et al. 2013 (see benchmarks/README.md for which the ladder found stronger)."""
        self.horizon = bool(horizon)
        """Truncated playouts (:mod:`.horizon`): from age 1, a playout stops when age 2
        begins and an estimate of the final scores values it (``hard+cut``)."""
        self.debug = debug
        """Debug mode: called with every determinization, and every action the search
        applies is checked against the legal actions (slow; the soak test uses it)."""
        self.progress: Callable[[float], None] | None = None
        """Called now and then while the bot thinks with the share of its budget spent (0 to
        1): the Play tab shows "Bo is thinking… 40%"."""
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        b = self.budget
        parts = [f"seed={self.seed!r}"]
        if b.iterations is not None:
            parts.append(f"iterations={b.iterations}")
        if b.seconds is not None:
            parts.append(f"seconds={b.seconds:g}")
        return f"{type(self).__name__}({', '.join(parts)})"

    def _search(self, game: Game, rng: random.Random, early_stop: bool) -> Searcher:
        searcher = Searcher(game, rng, POLICIES[self.playout], self.bid_model,
                             self.exploration, self.tree, self.opponents, self.debug,
                             self.bid_selection, self.horizon)
        budget = self.budget
        limit = budget.iterations
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        start = time.perf_counter()
        progress = self.progress
        while True:
            searcher.iterate()
            done = searcher.iterations
            if progress is not None and done % 25 == 0:
                shares = [done / limit] if limit else []
                if deadline is not None:
                    shares.append((time.perf_counter() - start) / max(deadline - start, 1e-9))
                progress(min(max(shares, default=0.0), 1.0))
            if limit is not None and done >= limit:
                break
            if deadline is not None:
                now = time.perf_counter()
                if now >= deadline:
                    break
                if early_stop and self.tree and done >= 50 and done % 25 == 0:
                    # Stop when the most visited move cannot be caught in the time left.
                    rate = done / max(now - start, 1e-9)
                    left = rate * (deadline - now)
                    visits = sorted((searcher.visits(a) for a in searcher.actions),
                                    reverse=True)
                    if len(visits) < 2 or visits[0] - visits[1] > left:
                        break
        return searcher

    def choose(self, game: Game) -> Action:
        actions = game.legal_actions()
        if not actions:
            raise ValueError("there is no decision to take: the game is over")
        if len(actions) == 1:
            return actions[0]
        # Each decision gets its own generator from the bot's: the same seed and the same
        # sequence of positions give the same moves.
        rng = random.Random(self.rng.getrandbits(63))
        return self._search(game, rng, early_stop=True).best()

    def analyse(self, game: Game, seed: int | None = None) -> Judgement:
        """The coach's judgement of the decision on the table (:func:`.judge.judge`) at
        this bot's budget: every legal action with its expected final score, chance to win,
        margin, categories and distinctions, the position's win chances and the principal
        continuation. ``seed`` fixes the result (default: from the position as the seat
        sees it, :func:`.judge.position_seed`)."""
        from .judge import ITERATIONS_PER_SECOND, JudgeLevel, judge

        b = self.budget
        iterations = b.iterations if b.iterations is not None else max(
            1, round((b.seconds or 0.0) * ITERATIONS_PER_SECOND))
        level = JudgeLevel(repr(self), iterations=iterations, playouts=iterations)
        return judge(game, level=level, seed=seed)


class MonteCarloBot(SearchBot):
    """Flat Monte Carlo over determinizations: every legal action gets the same number of
    uniformly random playouts; the best mean reward wins (the ``montecarlo`` baseline)."""

    name = "montecarlo"
    tree = False
    default_policy = "random"
