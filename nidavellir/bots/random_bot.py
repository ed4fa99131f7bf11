"""The random bot: uniform over the legal actions, seeded."""

from __future__ import annotations

import random

from ..actions import Action
from ..draws import below
from ..game import Game
from .base import legal_actions


class RandomBot:
    """Chooses uniformly among the legal actions; the same seed plays the same moves.

    Works for every decision kind, including ones added later (Thingvellir).
    """

    name = "random"

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        actions = legal_actions(game)
        if not actions:
            raise ValueError("there is no decision to take: the game is over")
        return actions[below(self.rng, len(actions))] if len(actions) > 1 else actions[0]

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r})"
