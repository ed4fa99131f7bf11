"""Invariants over hundreds of seeded random games with Thingvellir, 2 to 5 players.

The ledger of tests/test_properties.py (cards, coins, gems, ranks conserved at every
decision; scores equal to the one scorer on the final table; the game ends) plus what
the camp adds: camp cards are conserved with the camp decks, the camp and the camp
discard (R15); the camp never shows more than 5 cards, all of the current age; only
Vegvisir among the artifacts can reach the dwarf discard. (Replay, undo and clone are
checked with and without Thingvellir in tests/test_properties.py.)
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from test_properties import Ledger, check_end, new_random_game, play

from nidavellir import cards as C
from nidavellir.cards import Kind

PLAYERS = (2, 3, 4, 5)


class CampLedger(Ledger):
    def check(self) -> None:
        super().check()
        s = self.game.state
        assert len(s.camp) <= C.CAMP_SIZE
        # (W9/E11 is in both ages' decks: one card type, compared by membership.)
        assert set(s.camp) <= set(C.camp_deck(s.age))
        assert set(s.camp_discard) <= set(C.camp_deck(1))
        # Cards discarded from an army go to the dwarf discard, mercenaries and Vegvisir
        # included (R15); no other artifact is ever discarded.
        assert all(c.kind is not Kind.ARTIFACT or c is C.VEGVISIR for c in s.discard)
        assert all(c.kind in (Kind.MERCENARY, Kind.ARTIFACT) for c in s.camp + s.camp_discard)


@pytest.mark.parametrize("players", PLAYERS)
def test_conservation_at_every_decision(players: int) -> None:
    for seed in range(40):
        game = new_random_game(players, seed, thingvellir=True)
        ledger = CampLedger(game)
        ledger.check()
        play(game, random.Random(seed), ledger)
        check_end(game)


@pytest.mark.parametrize("players", PLAYERS)
def test_hundreds_of_games_end_conserve_and_score_consistently(players: int) -> None:
    seen: Counter[str] = Counter()
    for seed in range(1000, 1100):
        game = new_random_game(players, seed, thingvellir=True)
        play(game, random.Random(seed), CampLedger(game), every_decision=False)
        check_end(game)
        seen.update(type(e).__name__ for e in game.events)
        seen.update(a.verb for _, a in game.history)
    # The expansion is exercised: camp visits, enlistment, camp refills.
    assert seen["camp"] and seen["enlist"] and seen["CampRefilled"]
