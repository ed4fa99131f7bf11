"""The OpenSpiel adapter (issue 19): OpenSpiel's random_sim_test, hidden information in
strings and tensors (twins), resampling for IS-MCTS, and IS-MCTS against the project's bots."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from test_determinize import twin_pair  # noqa: E402

from nidavellir.bots import make_bot  # noqa: E402
from nidavellir.integrations.encoding import action_index  # noqa: E402
from nidavellir.integrations.openspiel import NidavellirState, resample  # noqa: E402


@pytest.mark.slow(reason="OpenSpiel's own random simulation test, whole games through the "
                        'adapter with its checks at every step: 2 to 5 s of CPU')
@pytest.mark.parametrize("params", [{"players": 2}, {"players": 3, "expansions": "thingvellir"},
                                    {"players": 5}])
def test_openspiels_random_sim_test(params: dict) -> None:
    game = pyspiel.load_game("python_nidavellir", params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_the_game_description() -> None:
    game = pyspiel.load_game("python_nidavellir", {"players": 4})
    assert game.num_players() == 4
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply_action(3)
    assert state.current_player() == 0
    assert state.legal_actions() == sorted(state.legal_actions())
    with pytest.raises(Exception, match="2 to 5"):
        pyspiel.load_game("python_nidavellir", {"players": 6})


def _states(game_params: dict) -> tuple:  # type: ignore[type-arg]
    nid, other, viewer = twin_pair(3, 41, ("thingvellir",))
    game = pyspiel.load_game("python_nidavellir", game_params)
    moves = [(seat, str(a)) for seat, a in nid.history]
    return game, viewer, NidavellirState(game, nid, moves), NidavellirState(game, other, moves)


def test_strings_and_tensors_hide_what_a_player_cannot_see() -> None:
    game, viewer, a, b = _states({"players": 3, "expansions": "thingvellir"})
    assert a.information_state_string(viewer) == b.information_state_string(viewer)
    assert a.observation_string(viewer) == b.observation_string(viewer)
    assert a.information_state_tensor(viewer) == b.information_state_tensor(viewer)
    assert a.observation_tensor(viewer) == b.observation_tensor(viewer)
    # Others' bids are masked in the move history; one's own are not.
    text = a.information_state_string(viewer)
    own = [m for s, m in a.moves if s == viewer and m.startswith("bid ")]
    assert own and all(m in text for m in own) and "bid ? ? ?" in text


def test_resampling_keeps_the_information_state() -> None:
    game, viewer, a, _ = _states({"players": 3, "expansions": "thingvellir"})
    for seed in range(3):
        r = resample(a, viewer, seed=seed)
        assert r.information_state_string(viewer) == a.information_state_string(viewer)
        assert r.legal_actions() == a.legal_actions()


@pytest.mark.slow(reason="OpenSpiel's ISMCTS plays a whole game against the lab's bots: about 2 "
                        's of CPU')
def test_ismcts_plays_against_the_projects_bots() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_nidavellir", {"players": 2})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rng)
    bot.set_resampler(lambda s, p: resample(s, p, seed=int(rng.randint(2**31))))
    greedy = make_bot("greedy", seed=1)
    state = game.new_initial_state()
    state.apply_action(11)
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
        else:
            action = action_index(greedy.choose(state.nid))
        state.apply_action(action)
    assert state.is_terminal() and all(r > 0 for r in state.returns())
