"""The coach agrees with itself (issue 41): the consistency harness, fast.

``benchmarks/bench_coach_consistency.py`` plays whole games through the Play tab's model,
the learner following the Hint, and counts every disagreement between the buttons, the
Hint, the win bar, What-if, ``nidavellir hint`` on the saved record and the review, every
"now" that the board's score sheet contradicts, every reason its figures or the board
contradict, equivalent moves valued apart, an "about as good" group that is not the first
options of the order or holds a move clearly better than the recommended one, and a note
about a distinction or bonus that can no longer change hands. Here it runs on each of its three tables (3
players against two ``hard``, against two ``expert``, 2 players with Thingvellir), at small
budgets, and every count must be 0; benchmarks/README.md has the figures of 20 games at the
coach's own level.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench_coach_consistency as harness  # noqa: E402


@pytest.mark.slow(reason="two whole games through the Play tab's model, every decision "
                        "judged, hinted, compared with What-if, the command line and the "
                        "review: about 25 s of CPU")
def test_every_surface_agrees_over_whole_games() -> None:
    """The harness's small version (issue 55): a 3-player base game and a 2-player
    Thingvellir game, ``nidavellir hint`` afresh at every third decision; the benchmark
    plays 20 games on the three tables and judges every decision afresh."""
    result = harness.run(2, level="search@6", opponents={"hard": 10, "expert": 10},
                         tables=(harness.TABLES[0], harness.TABLES[2]), cli_every=3)
    assert result["games"] == 2 and result["decisions"] > 40
    assert [result[k] for k in "abcdefg"] == [0] * 7, result["problems"]


def test_the_harness_sees_a_disagreement(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The harness is not blind: a button that shows another figure is counted."""
    from widgets import controls

    real = controls.judged_text

    def off_by_one(o, judgement):  # type: ignore[no-untyped-def]
        text = real(o, judgement)
        return text.replace("%", "1%", 1) if o is not judgement.options[0] else text

    monkeypatch.setattr(controls, "judged_text", off_by_one)
    result = harness.run(1, level="search@10", opponents={"hard": 5, "expert": 5},
                         decisions_at_most=3)
    assert result["d"] > 0


@pytest.mark.slow(reason="about 40 judgements of positions of five seeded games, the last "
                        "ones exact: about 5 s of CPU")
def test_no_reason_reads_zero_points() -> None:
    """A reason is a difference beyond the noise that shows in the one decimal written: no
    comparison of any option with the best says "+0.0 points" or "-0.0 points" (the harness
    found "your coins +0.0 points"). Checked at the last decisions of seeded games of both
    tables, where the judge is exact and every difference, however small, is beyond the
    noise, and at earlier positions."""
    import random as _random

    from nidavellir import Game
    from nidavellir.bots.judge import judge

    compared = 0
    for seed, players, expansions in ((3, 3, ()), (4, 2, ("thingvellir",)), (5, 4, ()),
                                      (6, 2, ()), (7, 3, ("thingvellir",))):
        game = Game.new(players=players, seed=seed, expansions=expansions)
        rng = _random.Random(seed)
        actions = []
        while game.decision is not None:
            actions.append(rng.choice(game.legal_actions()))
            game.apply(actions[-1])
        game = Game.new(players=players, seed=seed, expansions=expansions)
        for index, action in enumerate(actions):
            late = index >= len(actions) - 6
            if (late or index % 30 == 7) and len(game.legal_actions()) > 1:
                j = judge(game, level="search@10")
                for option in j.options[1:]:
                    c = j.compare(option.action)
                    compared += 1
                    for line in c.why + c.but:
                        assert "+0.0 points" not in line and "-0.0 points" not in line, line
            game.apply(action)
    assert compared > 40
