"""The tree search itself: information-set MCTS over determinizations (standard library).

:class:`Searcher` runs single-observer information-set MCTS (Cowling, Powley & Whitehouse
2012) from one position for the seat to play (see :mod:`.search` for the algorithm's
description); :func:`outcome` and :func:`reward` are how a finished playout is valued. The
bots (:mod:`.search`) and the coach's judgement (:mod:`.judge`) both run it.
"""


from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from .. import coins as K
from ..actions import Action
from ..determinize import BidModel, determinize_state
from ..draws import below
from ..engine import Engine
from ..game import Game
from ..observer import known_places
from ..rules.base import DecisionKind
from ..scoring import CATEGORIES, breakdowns, tables_of
from ..state import GameState
from ..stats import se_from_sums
from .horizon import estimate
from .playout import Policy, bid_action

#: Seconds per decision of the levels (one core of the 2-core reference machine; see
#: benchmarks/README.md for how strength grows with the budget).
HARD_SECONDS = 0.75
EXPERT_SECONDS = 3.0
#: UCB exploration constant for rewards in [0, 1].
EXPLORATION = 0.7
#: Weight of the win share in the reward; the rest is the score margin, scaled.
WIN_WEIGHT: Final = 0.7
#: Margin (points over the best opponent) that maps to the top of the margin reward.
MARGIN_SCALE: Final = 60.0


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
RM_EXPLORATION: Final = 0.2


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


class RootStats:
    """Per root action: sums of the deciding player's outcomes and of their squares (the
    coach's standard errors, :mod:`.judge`)."""

    __slots__ = ("n", "score", "score2", "margin", "win", "win2", "categories", "categories2")

    def __init__(self) -> None:
        self.n = 0
        self.score = 0.0
        self.score2 = 0.0
        self.margin = 0.0
        self.win = 0.0
        self.win2 = 0.0
        self.categories = dict.fromkeys(CATEGORIES, 0.0)
        self.categories2 = dict.fromkeys(CATEGORIES, 0.0)

    def add(self, score: float, margin: float, win: float, breakdown: dict[str, int]) -> None:
        self.n += 1
        self.score += score
        self.score2 += score * score
        self.margin += margin
        self.win += win
        self.win2 += win * win
        cats = self.categories
        squares = self.categories2
        for k, v in breakdown.items():
            cats[k] += v
            squares[k] += v * v

    def means(self) -> tuple[float, float, float, float, dict[str, float]]:
        """(score, its standard error, margin, win, categories), averaged."""
        n = max(self.n, 1)
        return (self.score / n, se_from_sums(self.n, self.score, self.score2),
                self.margin / n, self.win / n,
                {k: v / n for k, v in self.categories.items()})


def outcome(state: GameState) -> tuple[list[int], list[float], list[float], list[dict[str, int]]]:
    """(totals, win shares, margins, breakdowns) of a finished state."""
    points = breakdowns(tables_of(state, copy=False), state.config.options)
    totals = [sum(b.values()) for b in points]
    best, second = sorted(totals, reverse=True)[:2]
    winners = totals.count(best)
    wins = [1.0 / winners if t == best else 0.0 for t in totals]
    # Each player's margin over the best of the others.
    margins = [float(t - (second if t == best else best)) for t in totals]
    return totals, wins, margins, points


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


class Searcher:
    """One search from one position, for the seat to play: ``iterate()`` runs one
    iteration; the statistics at the root (``visits``, ``mean_reward``, ``root_stats``,
    ``continuation_from``) are what :mod:`.judge` and :class:`SearchBot` read."""

    def __init__(self, game: Game, rng: random.Random, policy: Policy, bid_model: BidModel,
                 exploration: float = EXPLORATION, tree: bool = True, opponents: str = "tree",
                 debug: Callable[[GameState], None] | None = None,
                 bid_selection: str = "ucb", horizon: bool = False,
                 root_actions: Sequence[Action] | None = None) -> None:
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
        # The horizon (:mod:`.horizon`): from a position of age 1, playouts stop when age 2
        # begins and the estimate values them.
        self.cut = horizon and game.state.age == 1
        self._rm_updates: list[tuple[_Node, Action, float, Sequence[Action]]] = []
        self.debug = debug
        # Debug mode (the soak test): every action of the descent and the playouts is
        # checked against the engine's legal actions, every determinization by ``debug``.
        self.check = debug is not None
        self.opponents_in_tree = opponents == "tree"
        self.root_state = game.state
        self.shown, self.purse = known_places(game.events, self.me)
        self.root = _Node(self.me)
        # The coach searches one move of each set of equivalent moves (the five Dwerg
        # brothers lead to the same position): ``root_actions``, a subset of the legal ones.
        self.actions: list[Action] = list(game.legal_actions() if root_actions is None
                                          else root_actions)
        self._root_only = None if root_actions is None else frozenset(self.actions)
        self.root_stats = {a: RootStats() for a in self.actions}
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
        eng.play_out(policy, rng, check, 1 if self.cut else None)
        totals, wins, margins, breakdowns = (outcome(state) if state.over
                                             else estimate(state))
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
            seat = task.player
            if task.kind is DecisionKind.BID and seat != me:
                # Others' secret bids: from the bid model, never keyed in the tree.
                eng.apply(_bid_action(state, seat, self.bid_model, rng), check=check)
                continue
            if seat != me and not self.opponents_in_tree:
                eng.apply(self.policy(eng, rng), check=check)
                continue
            actions = eng.legal_actions()
            if node is self.root and self._root_only is not None:
                actions = [a for a in actions if a in self._root_only]
            if len(actions) == 1 and node is not self.root:
                eng.apply(actions[0], check=check)
                continue
            if self.rm_bids and seat == me and task.kind is DecisionKind.BID:
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
                action = untried[below(rng, len(untried))]
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
        sqrt, log = math.sqrt, math.log  # a bid node has 60 children
        for a in actions:
            child = children[a]
            value = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
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

    def continuation_from(self, action: Action, min_visits: int = 2
                          ) -> list[tuple[int, Action]]:
        """The most visited line after the root action ``action``: (player, action)."""
        line: list[tuple[int, Action]] = []
        node = self.root.children.get(action) if self.tree else None
        while node is not None and node.children:
            nxt, child = max(node.children.items(), key=lambda kv: (kv[1].visits, kv[1].total))
            if child.visits < min_visits:
                break
            line.append((child.player, nxt))
            node = child
        return line

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


