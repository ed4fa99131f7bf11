"""Nidavellir as a PettingZoo AEC environment.

>>> from nidavellir.integrations.pettingzoo import env
>>> e = env(players=3)
>>> e.reset(seed=1)
>>> e.agent_selection
'player_0'
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs)
['action_mask', 'observation']

- Agents ``player_0`` … ``player_{n-1}``; the agent to act is whoever decides next in the
  game (a bid is asked one player at a time and stays hidden from the others, as in the
  engine), so turns are not round-robin.
- One fixed ``Discrete(len(ACTIONS))`` action space for every decision kind: index ``i`` is
  the notation ``nidavellir.integrations.encoding.ACTIONS[i]`` (bids included); the legal
  ones are 1 in ``observation["action_mask"]``.
- ``observation["observation"]`` is a ``Box`` vector encoded from ``game.observation(seat)``
  only (never hidden information; layout in :mod:`nidavellir.integrations.encoding`).
- Rewards come at the end of the game: ``reward="margin"`` (default) gives each player its
  final score minus the best other score; ``reward="win"`` gives 1 to the winner(s) shared
  (1/k for a k-way tie), 0 to the others.
- ``reset(seed=s)`` deals the same game for the same seed (``Game.new(seed=s)``).
- An action whose mask is 0 (or an index out of range) raises ``ValueError`` naming the
  action and the decision; the game is left unchanged.
- ``render()`` returns (``render_mode="ansi"``) or prints (``"human"``) the decision and the
  last lines of the log.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .. import cards as C
from ..game import Game
from .encoding import ACTIONS, action_at, action_index, encode, observation_size

REWARDS = ("margin", "win")
RENDER_MODES = ("human", "ansi")


class NidavellirEnv(AECEnv):  # type: ignore[misc]
    metadata = {"render_modes": list(RENDER_MODES), "name": "nidavellir_v0",
                "is_parallelizable": False}

    def __init__(self, players: int = 3, expansions: tuple[str, ...] | list[str] = (),
                 render_mode: str | None = None, reward: str = "margin") -> None:
        super().__init__()
        if not isinstance(players, int) or players not in C.PLAYER_COUNTS:
            raise ValueError(f"Nidavellir is played by 2 to 5 players, not {players!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES}, not {render_mode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        self.players = players
        self.expansions = tuple(expansions)
        Game.new(players=players, seed=0, expansions=self.expansions)  # the engine's checks
        self.render_mode = render_mode
        self.reward_mode = reward
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        size = observation_size()
        self._observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=-2.0, high=200.0, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(len(ACTIONS),), dtype=np.int8),
            }) for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(len(ACTIONS)) for a in self.possible_agents}
        self.game: Game | None = None

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    # ------------------------------------------------------------------ API

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        self.game = Game.new(players=self.players, seed=int(seed), expansions=self.expansions)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._to_play()

    def _to_play(self) -> str:
        assert self.game is not None
        seat = self.game.to_play
        return self.possible_agents[0 if seat is None else seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.game is not None
        seat = self.agent_name_mapping[agent]
        vector = np.asarray(encode(self.game.observation(seat)), dtype=np.float32)
        mask = np.zeros(len(ACTIONS), dtype=np.int8)
        d = self.game.decision
        if d is not None and d.player == seat:
            for a in self.game.legal_actions():
                mask[action_index(a)] = 1
        return {"observation": vector, "action_mask": mask}

    def step(self, action: int | None) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None
        agent = self.agent_selection
        d = game.decision
        assert d is not None
        try:
            notation = action_at(int(action))  # type: ignore[arg-type]
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{agent}: action {action!r} for the decision {str(d.kind)!r} "
                             f"({d.prompt}): {exc}") from None
        legal = {str(a) for a in game.legal_actions()}
        if notation not in legal:
            raise ValueError(f"{agent}: action {action} ({notation!r}) is not legal for the "
                             f"decision {str(d.kind)!r} ({d.prompt}); use the action mask")
        self._cumulative_rewards[agent] = 0.0
        game.apply(notation)
        if game.is_over:
            totals = game.scores().totals
            best = max(totals)
            ties = totals.count(best)
            for i, a in enumerate(self.agents):
                if self.reward_mode == "win":
                    self.rewards[a] = 1.0 / ties if totals[i] == best else 0.0
                else:
                    self.rewards[a] = float(totals[i] - max(t for j, t in enumerate(totals)
                                                            if j != i))
                self.terminations[a] = True
                self.infos[a] = {"scores": list(totals)}
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
        self._accumulate_rewards()
        self.agent_selection = self._to_play() if not game.is_over else agent
        if game.is_over:
            # Every agent is done: they are stepped out in turn with None actions.
            self.agent_selection = self.agents[0]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        game = self.game
        if game is None:
            return None
        d = game.decision
        head = ("game over: " + ", ".join(f"{n} {t}" for n, t in zip(game.names,
                                                                        game.scores().totals,
                                                                        strict=True))
                if d is None else f"{game.names[d.player]} to {d.kind}: {d.prompt}")
        text = "\n".join([*game.log()[-6:], head])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.game = None


def env(players: int = 3, expansions: tuple[str, ...] | list[str] = (),
        render_mode: str | None = None, reward: str = "margin") -> NidavellirEnv:
    """The AEC environment (see the module docs)."""
    return NidavellirEnv(players=players, expansions=expansions, render_mode=render_mode,
                         reward=reward)
