""""Now" means the board's score sheet (issue 41, Build 5): a property over the positions of
seeded games, every decision kind, base game and Thingvellir, 2 to 5 players. ``make test``
checks 1,600 positions (the first that reach every kind, 14 games; issue 55); more, as at
issue 41's 10,000: ``NIDAVELLIR_NOW=10000 .venv/bin/python -m pytest tests/test_now.py``.

At every decision of seeded random games, an option is previewed the way the buttons, the
Hint and What-if preview it (:func:`nidavellir.bots.immediate.immediates`, computed on a
determinization for the deciding seat: it never sees what the seat cannot), then applied to
a copy of the real game: the preview's "now" must be the seat's total on the board's own
score sheet after the move less before, category by category. Mercenaries, enlistment,
Thrud and every other kind are included; the figure "if the game ended now" is another
field and is checked against :func:`~nidavellir.bots.immediate.sheet_if_ended`.
"""

from __future__ import annotations

import os
import random

import pytest

from nidavellir.bots import play_game
from nidavellir.bots.immediate import immediates, sheet_if_ended
from nidavellir.game import Game
from nidavellir.rules.base import DecisionKind

TV = ("thingvellir",)
#: (players, expansions) of the games, in turn.
TABLES = ((2, ()), (3, TV), (4, ()), (5, TV), (3, ()), (2, TV), (4, TV), (5, ()))
POSITIONS = int(os.environ.get("NIDAVELLIR_NOW", "1600"))


def _checked(game: Game, rng: random.Random) -> str:
    """Preview one option of the decision on the table (a random one, and the option
    that changes the sheet most when there are few) and compare with the board."""
    d = game.decision
    assert d is not None
    legal = game.legal_actions()
    picks = [legal[rng.randrange(len(legal))]]
    if len(legal) <= 6:
        picks = list(legal)
    previews = immediates(game, picks, seed=rng.randrange(1 << 30))
    before = game.scores()[d.player]
    ended_before = sum(sheet_if_ended(game, d.player).values())
    for action in picks:
        branch = game.clone()
        branch.apply(action)
        after = branch.scores()[d.player]
        now = previews[str(action)]
        where = f"{d.kind} {action} at decision {len(game.history) + 1}"
        assert now.total == after.total - before.total, where
        assert now.parts == {k: after.breakdown[k] - before.breakdown[k]
                             for k in after.breakdown
                             if after.breakdown[k] != before.breakdown[k]}, where
        assert now.if_ended == sum(sheet_if_ended(branch, d.player).values()) - ended_before, \
            where
    return str(d.kind)


@pytest.mark.slow(reason="1,600 positions of 14 seeded games, every option of the small "
                        "decisions previewed and played: about 4 s of CPU")
def test_now_is_the_score_sheet_after_the_move_less_before() -> None:
    rng = random.Random(41)
    seen: dict[str, int] = {}
    positions = 0
    seed = 0
    while positions < POSITIONS:
        players, expansions = TABLES[seed % len(TABLES)]
        full = play_game(players, "random", seed=4100 + seed, expansions=expansions)
        game = Game.new(players=players, seed=4100 + seed, expansions=expansions)
        for _, action in full.history:
            kind = _checked(game, rng)
            seen[kind] = seen.get(kind, 0) + 1
            positions += 1
            game.apply_fast(action)
        seed += 1
    assert positions >= POSITIONS
    assert set(seen) == {str(k) for k in DecisionKind}, \
        f"decision kinds never reached: {sorted({str(k) for k in DecisionKind} - set(seen))}"
