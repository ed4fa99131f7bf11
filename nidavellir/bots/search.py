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

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import coins as K
from ..actions import Action
from ..determinize import BidModel, determinize_state, heuristic_bid_model
from ..engine import Engine
from ..game import Game
from ..observer import known_places
from ..rules.base import DecisionKind
from ..scoring import CATEGORIES, score_table, tables_of
from ..state import GameState
from ..stats import mean_se, se_from_sums
from .playout import POLICIES, Policy, bid_action

#: Seconds per decision of the levels (one core of the 2-core reference machine; see
#: benchmarks/README.md for how strength grows with the budget).
HARD_SECONDS = 0.75
EXPERT_SECONDS = 3.0
#: UCB exploration constant for rewards in [0, 1].
EXPLORATION = 0.7
#: Weight of the win share in the reward; the rest is the score margin, scaled.
WIN_WEIGHT = 0.7
#: Margin (points over the best opponent) that maps to the top of the margin reward.
MARGIN_SCALE = 60.0


@dataclass
class Budget:
    """How long a search runs: a number of iterations, a time in seconds, or both (the
    first reached ends it)."""

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            self.seconds = HARD_SECONDS
        if self.iterations is not None and (not isinstance(self.iterations, int)
                                            or isinstance(self.iterations, bool)
                                            or self.iterations < 1):
            raise ValueError(f"iterations must be a whole number >= 1, not {self.iterations!r}")
        if self.seconds is not None and not (isinstance(self.seconds, int | float)
                                             and not isinstance(self.seconds, bool)
                                             and self.seconds > 0 and math.isfinite(self.seconds)):
            raise ValueError(f"seconds must be a positive number, not {self.seconds!r}")


@dataclass
class ActionStats:
    """What the search found for one legal action (from the deciding player's side)."""

    action: Action
    visits: int
    score: float
    """Expected final score of the deciding player."""
    score_se: float
    """Standard error of that mean."""
    margin: float
    """Expected final margin over the best opponent."""
    win: float
    """Win probability (a tie for first counts as a share)."""
    categories: dict[str, float]
    """Expected final points per scoring category (scoring.CATEGORIES)."""

    def to_dict(self) -> dict[str, Any]:
        return {"action": str(self.action), "visits": self.visits,
                "score": round(self.score, 2), "score_se": round(self.score_se, 2),
                "margin": round(self.margin, 2), "win": round(self.win, 4),
                "categories": {k: round(v, 2) for k, v in self.categories.items()}}


@dataclass
class Analysis:
    """The search's view of the decision on the table (see the module docs)."""

    player: int
    kind: str
    iterations: int
    seconds: float
    actions: list[ActionStats]
    """Every legal action, most visited first (the engine's order on ties)."""
    win: list[float]
    """Each player's win probability at the position (they sum to 1)."""
    expected: list[float]
    """Each player's expected final score at the position."""
    continuation: list[tuple[int, Action]] = field(default_factory=list)
    """The principal continuation: (player, action) along the most visited line."""

    @property
    def best(self) -> Action:
        return self.actions[0].action

    def stats(self, action: Action | str) -> ActionStats:
        key = str(action)
        for a in self.actions:
            if str(a.action) == key:
                return a
        raise KeyError(f"{key!r} is not a legal action here")

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "kind": self.kind, "iterations": self.iterations,
                "seconds": round(self.seconds, 3), "best": str(self.best),
                "actions": [a.to_dict() for a in self.actions],
                "win": [round(w, 4) for w in self.win],
                "expected": [round(e, 2) for e in self.expected],
                "continuation": [[p, str(a)] for p, a in self.continuation]}


class _Node:
    __slots__ = ("children", "visits", "avail", "total", "player", "regret", "strategy")

    def __init__(self, player: int) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.player = player
        self.regret: dict[Action, float] | None = None
        """Regret matching at the searcher's own bid (``bid_selection="rm"``)."""
        self.strategy: dict[Action, float] | None = None
        """The summed strategies of regret matching: its recommendation."""


#: Exploration of regret matching: the share of uniformly random bids.
RM_EXPLORATION = 0.2


def _rm_strategy(node: _Node, actions: Sequence[Action]) -> list[float]:
    """Regret matching over ``actions`` with :data:`RM_EXPLORATION` (Lisý et al. 2013)."""
    regret = node.regret
    assert regret is not None
    positive = [max(regret.get(a, 0.0), 0.0) for a in actions]
    total = sum(positive)
    n = len(actions)
    if total <= 0:
        return [1.0 / n] * n
    g = RM_EXPLORATION
    return [(1 - g) * x / total + g / n for x in positive]


class _RootStats:
    """Per root action: sums of the deciding player's outcomes (for analyse)."""

    __slots__ = ("n", "score", "score2", "margin", "win", "categories")

    def __init__(self) -> None:
        self.n = 0
        self.score = 0.0
        self.score2 = 0.0
        self.margin = 0.0
        self.win = 0.0
        self.categories = dict.fromkeys(CATEGORIES, 0.0)

    def add(self, score: float, margin: float, win: float, breakdown: dict[str, int]) -> None:
        self.n += 1
        self.score += score
        self.score2 += score * score
        self.margin += margin
        self.win += win
        cats = self.categories
        for k, v in breakdown.items():
            cats[k] += v

    def summary(self, action: Action, visits: int) -> ActionStats:
        n = max(self.n, 1)
        mean = self.score / n
        se = se_from_sums(self.n, self.score, self.score2)
        return ActionStats(action=action, visits=visits, score=mean, score_se=se,
                           margin=self.margin / n, win=self.win / n,
                           categories={k: v / n for k, v in self.categories.items()})


def outcome(state: GameState) -> tuple[list[int], list[float], list[float], list[dict[str, int]]]:
    """(totals, win shares, margins, breakdowns) of a finished state."""
    sheet = score_table(tables_of(state), state.config.options, details=False)
    totals = [p.total for p in sheet.players]
    best = max(totals)
    winners = totals.count(best)
    wins = [1.0 / winners if t == best else 0.0 for t in totals]
    margins = []
    for i, t in enumerate(totals):
        other = max(x for j, x in enumerate(totals) if j != i)
        margins.append(float(t - other))
    return totals, wins, margins, [p.breakdown for p in sheet.players]


def reward(win: float, margin: float) -> float:
    """A player's reward in [0, 1]: its win share and its scaled margin."""
    scaled = 0.5 + max(-0.5, min(0.5, margin / (2 * MARGIN_SCALE)))
    return WIN_WEIGHT * win + (1 - WIN_WEIGHT) * scaled


def rewards(wins: Sequence[float], margins: Sequence[float]) -> list[float]:
    """Each player's reward (:func:`reward`)."""
    return [reward(w, m) for w, m in zip(wins, margins, strict=True)]


def _bid_action(state: GameState, seat: int, model: BidModel, rng: random.Random) -> Action:
    p = state.players[seat]
    coins = model(state, seat, (0, 1, 2), sorted(p.hand), rng)
    return bid_action(tuple(K.label(c) for c in coins))


class _Searcher:
    """One search from one position, for the seat to play."""

    def __init__(self, game: Game, rng: random.Random, policy: Policy, bid_model: BidModel,
                 exploration: float, tree: bool, opponents: str = "tree",
                 debug: Callable[[GameState], None] | None = None,
                 bid_selection: str = "ucb") -> None:
        decision = game.decision
        if decision is None:
            raise ValueError("there is no decision to take: the game is over")
        self.game = game
        self.me = decision.player
        self.kind = decision.kind
        self.rng = rng
        self.policy = policy
        self.bid_model = bid_model
        self.c = exploration
        self.tree = tree
        self.rm_bids = bid_selection == "rm"
        self._rm_updates: list[tuple[_Node, Action, float, Sequence[Action]]] = []
        self.debug = debug
        # Debug mode (the soak test): every action of the descent and the playouts is
        # checked against the engine's legal actions, every determinization by ``debug``.
        self.check = debug is not None
        self.opponents_in_tree = opponents == "tree"
        self.root_state = game.state
        self.shown, self.purse = known_places(game.events, self.me)
        self.root = _Node(self.me)
        self.actions: list[Action] = list(game.legal_actions())
        self.root_stats = {a: _RootStats() for a in self.actions}
        n = game.config.players
        self.win_sum = [0.0] * n
        self.score_sum = [0.0] * n
        self.iterations = 0
        self._next_flat = 0

    # ------------------------------------------------------------------ one iteration

    def iterate(self) -> None:
        rng = self.rng
        state = determinize_state(self.root_state, self.me, rng, self.shown, self.purse,
                                  self.bid_model)
        if self.debug is not None:
            self.debug(state)
        check = self.check
        eng = Engine(state, quiet=True)
        root_action: Action
        path: list[_Node] = []
        if not self.tree:
            # Flat Monte Carlo: the root actions in turn, then random playouts.
            root_action = self.actions[self._next_flat % len(self.actions)]
            self._next_flat += 1
            eng.apply(root_action, check=check)
        else:
            root_action = self._descend(eng, path)
        policy = self.policy
        while not state.over:
            eng.apply(policy(eng, rng), check=check)
        totals, wins, margins, breakdowns = outcome(state)
        reward = rewards(wins, margins)
        for node in path:
            node.visits += 1
            node.total += reward[node.player]
        if self._rm_updates:
            # Outcome-sampling regrets: the sampled bid's reward over its probability, less
            # the reward of the mixed strategy (Lanctot, Lisý & Winands 2014).
            r = reward[self.me]
            for node, chosen, p_chosen, actions in self._rm_updates:
                regret = node.regret
                assert regret is not None
                for a in actions:
                    regret[a] = regret.get(a, 0.0) - r
                regret[chosen] += r / p_chosen
            self._rm_updates.clear()
        self.root.visits += 1
        me = self.me
        self.root_stats[root_action].add(totals[me], margins[me], wins[me], breakdowns[me])
        for i in range(len(totals)):
            self.win_sum[i] += wins[i]
            self.score_sum[i] += totals[i]
        self.iterations += 1

    def _descend(self, eng: Engine, path: list[_Node]) -> Action:
        """Tree policy: select with UCB over available children, expand one node. Returns
        the action taken at the root."""
        state = eng.state
        node = self.root
        me = self.me
        rng = self.rng
        check = self.check
        root_action: Action | None = None
        while not state.over:
            task = state.tasks[-1]
            seat = task.player  # type: ignore[union-attr]
            if task.kind is DecisionKind.BID and seat != me:  # type: ignore[union-attr]
                # Others' secret bids: from the bid model, never keyed in the tree.
                eng.apply(_bid_action(state, seat, self.bid_model, rng), check=check)
                continue
            if seat != me and not self.opponents_in_tree:
                eng.apply(self.policy(eng, rng), check=check)
                continue
            actions = eng.legal_actions()
            if len(actions) == 1 and node is not self.root:
                eng.apply(actions[0], check=check)
                continue
            if self.rm_bids and seat == me and task.kind is DecisionKind.BID:  # type: ignore[union-attr]
                node = self._rm_step(node, actions, path, eng)
                if root_action is None:
                    root_action = self._rm_updates[-1][1]
                if not node.visits:  # a new node: the playout starts here
                    return root_action
                continue
            children = node.children
            untried = []
            for a in actions:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = children[action] = _Node(seat)
                child.avail += 1
                path.append(child)
                eng.apply(action, check=check)
                return action if root_action is None else root_action
            action = self._select(node, actions)
            if root_action is None:
                root_action = action
            node = children[action]
            path.append(node)
            eng.apply(action, check=check)
        assert root_action is not None
        return root_action

    def _rm_step(self, node: _Node, actions: Sequence[Action], path: list[_Node],
                 eng: Engine) -> _Node:
        """The searcher's own secret bid by regret matching: sample a bid from the node's
        strategy, remember it for the regret update, go on to (or create) its child."""
        if node.regret is None:
            node.regret = {}
            node.strategy = {}
        sigma = _rm_strategy(node, actions)
        strategy = node.strategy
        assert strategy is not None
        for a, p in zip(actions, sigma, strict=True):
            strategy[a] = strategy.get(a, 0.0) + p
        x = self.rng.random()
        index = len(actions) - 1
        for i, p in enumerate(sigma):
            x -= p
            if x < 0:
                index = i
                break
        action = actions[index]
        self._rm_updates.append((node, action, sigma[index], actions))
        child = node.children.get(action)
        if child is None:
            child = node.children[action] = _Node(self.me)
        child.avail += 1
        path.append(child)
        eng.apply(action, check=self.check)
        return child

    def _select(self, node: _Node, actions: Sequence[Action]) -> Action:
        c = self.c
        best, best_value = actions[0], -1.0
        children = node.children
        for a in actions:
            child = children[a]
            value = child.total / child.visits + c * math.sqrt(math.log(child.avail)
                                                               / child.visits)
            if value > best_value:
                best, best_value = a, value
        return best

    # ------------------------------------------------------------------ results

    def visits(self, action: Action) -> int:
        if not self.tree:
            return self.root_stats[action].n
        child = self.root.children.get(action)
        return 0 if child is None else child.visits

    def mean_reward(self, action: Action) -> float:
        if not self.tree:
            st = self.root_stats[action]
            return -1.0 if not st.n else reward(st.win / st.n, st.margin / st.n)
        child = self.root.children.get(action)
        return -1.0 if child is None or not child.visits else child.total / child.visits

    def best(self) -> Action:
        """The most visited action (the best mean reward for the flat baseline); the
        engine's order breaks ties."""
        if not self.tree:
            return max(self.actions, key=self.mean_reward)
        strategy = self.root.strategy
        if strategy:
            # Regret matching recommends its average strategy (Lisý et al. 2013).
            return max(self.actions, key=lambda a: (strategy.get(a, 0.0), self.visits(a)))
        return max(self.actions, key=lambda a: (self.visits(a), self.mean_reward(a)))

    def analysis(self, seconds: float) -> Analysis:
        best = self.best()
        order = sorted(self.actions, key=lambda a: (a != best, -self.visits(a),
                                                    -self.mean_reward(a)))
        stats = [self.root_stats[a].summary(a, self.visits(a)) for a in order]
        n = max(self.iterations, 1)
        return Analysis(player=self.me, kind=self.kind, iterations=self.iterations,
                        seconds=seconds, actions=stats,
                        win=[w / n for w in self.win_sum],
                        expected=[s / n for s in self.score_sum],
                        continuation=self.continuation())

    def continuation(self, min_visits: int = 2) -> list[tuple[int, Action]]:
        line: list[tuple[int, Action]] = []
        node = self.root
        if not self.tree:
            return [(self.me, self.best())]
        while node.children:
            if node is self.root:
                action = self.best()
                found = node.children.get(action)
                if found is None:
                    break
                child = found
            else:
                action, child = max(node.children.items(),
                                    key=lambda kv: (kv[1].visits, kv[1].total))
            if child.visits < min_visits:
                break
            line.append((child.player, action))
            node = child
        return line


@dataclass
class Evaluation:
    """Paired playouts of some actions from one position (:func:`evaluate_actions`)."""

    player: int
    playouts: int
    score: dict[Action, float]
    """The deciding player's mean final score after each action."""
    win: dict[Action, float]
    """Its win probability after each action."""
    totals: dict[Action, list[float]]
    """Every player's mean final score after each action."""
    wins: dict[Action, list[float]]
    """Every player's win probability after each action."""
    diff_se: dict[Action, float]
    """Standard error of (score of the first action − score of this one)."""
    win_diff_se: dict[Action, float]
    """Standard error of (win of the first action − win of this one)."""


def evaluate_actions(game: Game, actions: Sequence[Action], playouts: int, seed: int,
                     policy: str = "heuristic", bid_model: BidModel | None = None
                     ) -> Evaluation:
    """Every action in ``actions`` played out ``playouts`` times from the same
    determinizations for the deciding seat (common random numbers: playout ``i`` of every
    action starts from the same hidden state and generator), so differences between the
    actions are not noise from different deals. Uses only what that seat may know."""
    decision = game.decision
    if decision is None:
        raise ValueError("there is no decision to evaluate: the game is over")
    if playouts < 1:
        raise ValueError(f"playouts must be at least 1, not {playouts!r}")
    legal = set(game.legal_actions())
    for a in actions:
        if a not in legal:
            raise ValueError(f"{a} is not a legal action here")
    me = decision.player
    model = bid_model or heuristic_bid_model
    play = POLICIES[policy]
    shown, purse = known_places(game.events, me)
    master = random.Random(seed)
    n = game.config.players
    sums = {a: [0.0] * n for a in actions}
    wins = {a: [0.0] * n for a in actions}
    first = actions[0]
    diffs: dict[Action, list[float]] = {a: [] for a in actions}
    win_diffs: dict[Action, list[float]] = {a: [] for a in actions}
    for _ in range(playouts):
        det_seed = master.getrandbits(63)
        mine: dict[Action, float] = {}
        mine_win: dict[Action, float] = {}
        for a in actions:
            rng = random.Random(det_seed)
            state = determinize_state(game.state, me, rng, shown, purse, model)
            eng = Engine(state, quiet=True)
            eng.apply(a, check=False)
            while not state.over:
                eng.apply(play(eng, rng), check=False)
            totals, w, _, _ = outcome(state)
            for i in range(n):
                sums[a][i] += totals[i]
                wins[a][i] += w[i]
            mine[a] = totals[me]
            mine_win[a] = w[me]
        for a in actions:
            diffs[a].append(mine[first] - mine[a])
            win_diffs[a].append(mine_win[first] - mine_win[a])

    stderr = mean_se
    return Evaluation(
        player=me, playouts=playouts,
        score={a: sums[a][me] / playouts for a in actions},
        win={a: wins[a][me] / playouts for a in actions},
        totals={a: [x / playouts for x in sums[a]] for a in actions},
        wins={a: [x / playouts for x in wins[a]] for a in actions},
        diff_se={a: stderr(d) for a, d in diffs.items()},
        win_diff_se={a: stderr(d) for a, d in win_diffs.items()})


def estimate_position(game: Game, viewer: int, playouts: int, seed: int,
                      policy: str = "heuristic", bid_model: BidModel | None = None
                      ) -> tuple[list[float], list[float]]:
    """Each player's win probability and expected final score, from ``viewer``'s knowledge
    only: ``playouts`` games played to the end from determinizations for ``viewer``
    (the win-chance bar of the coach)."""
    if game.is_over:
        raise ValueError("the game is over: its scores are final")
    if playouts < 1:
        raise ValueError(f"playouts must be at least 1, not {playouts!r}")
    shown, purse = known_places(game.events, viewer)
    rng = random.Random(seed)
    model = bid_model or heuristic_bid_model
    play = POLICIES[policy]
    n = game.config.players
    wins = [0.0] * n
    scores = [0.0] * n
    for _ in range(playouts):
        state = determinize_state(game.state, viewer, rng, shown, purse, model)
        eng = Engine(state, quiet=True)
        while not state.over:
            eng.apply(play(eng, rng), check=False)
        totals, w, _, _ = outcome(state)
        for i in range(n):
            wins[i] += w[i]
            scores[i] += totals[i]
    return [w / playouts for w in wins], [x / playouts for x in scores]


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
                 bid_selection: str = "ucb") -> None:
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
        self.debug = debug
        """Debug mode: called with every determinization, and every action the search
        applies is checked against the legal actions (slow; the soak test uses it)."""
        self.rng = random.Random(seed)
        self.last: Analysis | None = None

    def __repr__(self) -> str:
        b = self.budget
        parts = [f"seed={self.seed!r}"]
        if b.iterations is not None:
            parts.append(f"iterations={b.iterations}")
        if b.seconds is not None:
            parts.append(f"seconds={b.seconds:g}")
        return f"{type(self).__name__}({', '.join(parts)})"

    def _search(self, game: Game, rng: random.Random, early_stop: bool) -> Analysis:
        searcher = _Searcher(game, rng, POLICIES[self.playout], self.bid_model,
                             self.exploration, self.tree, self.opponents, self.debug,
                             self.bid_selection)
        budget = self.budget
        limit = budget.iterations
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        start = time.perf_counter()
        while True:
            searcher.iterate()
            done = searcher.iterations
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
        return searcher.analysis(time.perf_counter() - start)

    def choose(self, game: Game) -> Action:
        actions = game.legal_actions()
        if not actions:
            raise ValueError("there is no decision to take: the game is over")
        if len(actions) == 1:
            return actions[0]
        # Each decision gets its own generator from the bot's: the same seed and the same
        # sequence of positions give the same moves.
        rng = random.Random(self.rng.getrandbits(63))
        self.last = self._search(game, rng, early_stop=True)
        return self.last.best

    def analyse(self, game: Game, seed: int | None = None) -> Analysis:
        """The search's view of the decision on the table; every iteration of the budget
        is spent (no early stop), also on a forced move. ``seed`` fixes the result for
        the position (default: the bot's own generator)."""
        rng = random.Random(self.rng.getrandbits(63) if seed is None else seed)
        return self._search(game, rng, early_stop=False)


class MonteCarloBot(SearchBot):
    """Flat Monte Carlo over determinizations: every legal action gets the same number of
    uniformly random playouts; the best mean reward wins (the ``montecarlo`` baseline)."""

    name = "montecarlo"
    tree = False
    default_policy = "random"
