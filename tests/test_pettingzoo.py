"""The PettingZoo adapter (issue 19): PettingZoo's own api_test and seed_test, full games,
honest observations (twins), the action index table, illegal actions."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402
from test_determinize import twin_pair  # noqa: E402

from nidavellir.bots import play_game  # noqa: E402
from nidavellir.game import Game  # noqa: E402
from nidavellir.integrations.encoding import (  # noqa: E402
    ACTIONS,
    action_at,
    action_index,
    encode,
    observation_size,
)
from nidavellir.integrations.pettingzoo import env  # noqa: E402

TV = ("thingvellir",)


@pytest.mark.parametrize("players,expansions", [(2, ()), (3, ()), (5, ()), (2, TV), (3, TV),
                                                (5, TV)])
def test_pettingzoos_api_test(players: int, expansions: tuple[str, ...]) -> None:
    api_test(env(players=players, expansions=expansions), num_cycles=300)


@pytest.mark.parametrize("players,expansions", [(2, ()), (3, TV)])
def test_pettingzoos_seed_test(players: int, expansions: tuple[str, ...]) -> None:
    seed_test(lambda: env(players=players, expansions=expansions), num_cycles=500)


@pytest.mark.parametrize("reward", ["margin", "win"])
def test_a_whole_game_with_masked_random_actions(reward: str) -> None:
    e = env(players=3, expansions=TV, reward=reward)
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    steps = 0
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, rew, term, trunc, info = e.last()
        if term or trunc:
            final[agent] = rew
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) >= 1
        assert obs["observation"].shape == (observation_size(),)
        e.step(int(rng.choice(legal)))
        steps += 1
    assert e.agents == [] and steps > 100
    game = e.game
    assert game is not None
    totals = game.scores().totals
    assert game.is_over and set(final) == {"player_0", "player_1", "player_2"}
    if reward == "win":
        assert sum(final.values()) == pytest.approx(1.0)
        assert all(final[f"player_{i}"] > 0 for i, t in enumerate(totals) if t == max(totals))
    else:
        assert final["player_0"] == totals[0] - max(totals[1:])


def test_rewards_at_the_end() -> None:
    e = env(players=2, reward="margin")
    e.reset(seed=1)
    seen: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, rew, term, trunc, info = e.last()
        if term:
            seen[agent] = rew
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.game is not None
    totals = e.game.scores().totals
    assert seen == {"player_0": float(totals[0] - totals[1]),
                    "player_1": float(totals[1] - totals[0])}


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    e = env(players=3)
    e.reset(seed=2)
    assert e.game is not None
    before = e.game.state.fingerprint()
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal for the decision 'bid'"):
        e.step(illegal)
    with pytest.raises(ValueError, match="out of range"):
        e.step(len(ACTIONS))
    assert e.game.state.fingerprint() == before
    with pytest.raises(ValueError, match="2 to 5"):
        env(players=6)
    with pytest.raises(ValueError, match="reward"):
        env(reward="points")


def test_observations_hide_what_a_seat_cannot_see() -> None:
    """Twin games (another player's face-down bid, the deck order): the same vector."""
    game, other, viewer = twin_pair(3, 31, TV)
    assert encode(game.observation(viewer)) == encode(other.observation(viewer))


def test_the_action_table_round_trips_every_legal_action() -> None:
    assert len(set(ACTIONS)) == len(ACTIONS)
    seen = 0
    for seed, players, exp in ((1, 2, ()), (2, 3, TV), (3, 4, TV), (4, 5, TV), (5, 5, ())):
        full = play_game(players, "random", seed=seed, expansions=exp)
        replay = Game.new(players=players, seed=seed, expansions=exp)
        for _, action in full.history:
            for a in replay.legal_actions():
                i = action_index(a)
                assert action_at(i) == str(a)
                assert replay.parse(action_at(i)) == a
                seen += 1
            replay.apply_fast(action)
    assert seen > 5000


def test_render() -> None:
    e = env(players=2, render_mode="ansi")
    e.reset(seed=3)
    shown = e.render()
    assert shown is not None and "to bid" in shown
