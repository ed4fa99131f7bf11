"""Computer players: a seeded random bot and a greedy bot, and ``play_game``.

>>> from nidavellir.bots import make_bot, play_game
>>> game = play_game(3, ["greedy", "random", "random"], seed=4)
>>> game.is_over
True
>>> make_bot("random", seed=1)
RandomBot(seed=1)
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, derive_seed, legal_actions, play_game
from .greedy import GreedyBot
from .random_bot import RandomBot

#: Bot factories by name: ``BOTS[name](seed)``.
BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def make_bot(name: str | Bot, seed: int = 0) -> Bot:
    """A bot by registry name (case-insensitive), seeded; a Bot object is returned as is."""
    if not isinstance(name, str):
        return name
    key = name.strip().lower()
    if key not in BOTS:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOTS)}")
    return BOTS[key](seed)


__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "derive_seed", "legal_actions",
           "make_bot", "play_game"]
