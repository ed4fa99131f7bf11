"""Nidavellir as an OpenSpiel Python game, registered as ``python_nidavellir``.

>>> import pyspiel
>>> import nidavellir.integrations.openspiel  # registers the game
>>> game = pyspiel.load_game("python_nidavellir", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True

- Parameters ``players`` (2–5, default 3) and ``expansions`` (``""`` or ``"thingvellir"``).
- Sequential moves with imperfect information: the secret bid is asked one player at a time
  and stays hidden from the others, exactly as in the engine.
- **Chance** is explicit and happens once: the first node deals the game by drawing one of
  :data:`DEALS` equally likely seeds (every later shuffle — the Pioneer's, the camp's — comes
  from that seed's generator, as in the engine). An explicit chance node per card would be
  exact but enormous (the two age decks alone have more than 10^50 orders); a seed-indexed
  deal keeps chance explicit, exactly enumerable and reproducible, with a very large number
  of distinct deals. Nobody observes the seed, only the cards it deals.
- Actions are indices into :data:`nidavellir.integrations.encoding.ACTIONS` (the same
  stable table as the PettingZoo adapter), legal actions sorted ascending.
- Observation string: ``game.observation(player)`` as sorted JSON; information-state string:
  the player's own moves, the other players' moves with their bids masked (``bid ? ? ?``), and
  the current observation (perfect recall). Tensors: the vector of
  :func:`~nidavellir.integrations.encoding.encode` (both; the information-state tensor is the
  current observation, not the whole history). None of them holds hidden information.
- Returns: each player's final score (``0`` before the end), within [0, 1000].
- :func:`resample` gives a state consistent with a player's information state
  (``Game.determinize``), for OpenSpiel's IS-MCTS (``bot.set_resampler(resample)``).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from .. import cards as C
from ..game import Game
from .encoding import ACTIONS, action_at, action_index, encode, observation_size

#: Equally likely deals at the chance node (seeds 0 .. DEALS - 1).
DEALS = 1 << 16
MAX_SCORE = 1000.0
MAX_GAME_LENGTH = 1600

_GAME_TYPE = pyspiel.GameType(
    short_name="python_nidavellir",
    long_name="Python Nidavellir",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 3, "expansions": ""},
)


class NidavellirGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 3))
        if players not in C.PLAYER_COUNTS:
            raise ValueError(f"Nidavellir is played by 2 to 5 players, not {players}")
        expansions = tuple(e for e in str(params.get("expansions", "")).split(",") if e)
        Game.new(players=players, seed=0, expansions=expansions)  # the engine's checks
        self.players = players
        self.expansions = expansions
        info = pyspiel.GameInfo(
            num_distinct_actions=len(ACTIONS), max_chance_outcomes=DEALS, num_players=players,
            min_utility=0.0, max_utility=MAX_SCORE, utility_sum=None,
            max_game_length=MAX_GAME_LENGTH)
        super().__init__(_GAME_TYPE, info, {"players": players,
                                            "expansions": ",".join(expansions)})

    def new_initial_state(self) -> NidavellirState:
        return NidavellirState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(iig_obs_type, params)


class NidavellirState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: NidavellirGame, nid: Game | None = None,
                 moves: list[tuple[int, str]] | None = None) -> None:
        super().__init__(game)
        self._nid_game = game
        self.nid: Game | None = nid
        self.moves: list[tuple[int, str]] = list(moves or [])

    # ------------------------------------------------------------------ the API

    def current_player(self) -> int:
        if self.nid is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.nid.to_play
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self.nid is not None
        return sorted(action_index(a) for a in self.nid.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / DEALS
        return [(i, p) for i in range(DEALS)]

    def _apply_action(self, action: int) -> None:
        if self.nid is None:
            g = self._nid_game
            self.nid = Game.new(players=g.players, seed=int(action), expansions=g.expansions)
            return
        seat = self.nid.to_play
        assert seat is not None
        notation = action_at(int(action))
        self.nid.apply(notation)
        self.moves.append((seat, notation))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return action_at(int(action))

    def is_terminal(self) -> bool:
        return self.nid is not None and self.nid.is_over

    def returns(self) -> list[float]:
        if self.nid is None or not self.nid.is_over:
            return [0.0] * self._nid_game.players
        return [float(t) for t in self.nid.scores().totals]

    def __str__(self) -> str:
        if self.nid is None:
            return "(not dealt)"
        return "\n".join(self.nid.log()[-8:])

    def __deepcopy__(self, memo: dict[int, Any]) -> NidavellirState:
        return NidavellirState(self._nid_game, None if self.nid is None else self.nid.clone(),
                               self.moves)


class Observer:
    """Strings and tensors from one player's point of view (no hidden information)."""

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.perfect_recall = bool(iig_obs_type is None or iig_obs_type.perfect_recall)
        self.tensor = np.zeros(observation_size(), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: NidavellirState, player: int) -> None:
        if state.nid is None:
            self.tensor.fill(0)
            return
        self.tensor[:] = encode(state.nid.observation(player))

    def string_from(self, state: NidavellirState, player: int) -> str:
        if state.nid is None:
            return f"p{player} (not dealt)"
        obs = json.dumps(state.nid.observation(player), sort_keys=True, ensure_ascii=False)
        if not self.perfect_recall:
            return obs
        moves = [m if seat == player or not m.startswith("bid ") else "bid ? ? ?"
                 for seat, m in state.moves]
        return f"p{player} moves: {' | '.join(moves)}\n{obs}"


def resample(state: NidavellirState, player: int, seed: int | None = None) -> NidavellirState:
    """A state consistent with ``player``'s information state: unseen cards and the other
    players' face-down coins dealt again (``Game.determinize``); for IS-MCTS."""
    if state.nid is None:
        return NidavellirState(state._nid_game)
    seed = random.SystemRandom().randrange(2**62) if seed is None else seed
    det = state.nid.determinize(player, seed)
    return NidavellirState(state._nid_game, det, state.moves)


pyspiel.register_game(_GAME_TYPE, NidavellirGame)
