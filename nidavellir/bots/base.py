"""What every bot shares: the Bot protocol, cheap access to legal actions, play_game.

A bot is any object with ``choose(game) -> Action`` for the decision now on the
table. Bots see ``game.observation(seat)`` plus what cloning the game and scoring
their *own* options reveals (never other players' hidden bids or the deck order).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..actions import Action
from ..game import Game


@runtime_checkable
class Bot(Protocol):
    """A computer player: chooses one legal action for the current decision."""

    name: str

    def choose(self, game: Game) -> Action: ...


def legal_actions(game: Game) -> Sequence[Action]:
    """The legal actions of the current decision, without the copy ``game.legal_actions()``
    makes (bots and benchmarks call this for every decision). Read it, never change it."""
    return game.engine.legal_actions()


def derive_seed(seed: int, *parts: object) -> int:
    """A deterministic 63-bit seed derived from ``seed`` and labels (seat, game index)."""
    text = "/".join(str(p) for p in (seed, *parts))
    return random.Random(text).getrandbits(63)


def play_game(players: int, bots: Sequence[Bot | str] | Bot | str, seed: int = 0, *,
              names: Sequence[str] | None = None, expansions: Sequence[str] = (),
              options: Mapping[str, bool] | Any = None, max_decisions: int = 100_000,
              observe: Callable[[Game], None] | None = None) -> Game:
    """Play a whole game with one bot per seat and return the finished game.

    ``bots`` holds Bot objects or registry names (see :data:`nidavellir.bots.BOTS`);
    a single bot or name sits at every seat. Names get a seat seed derived from
    ``seed``, so the same call plays the same game. ``observe(game)`` is called before
    every decision (data collection).

    >>> game = play_game(3, "random", seed=1)
    >>> game.is_over
    True
    """
    from . import make_bot

    if isinstance(bots, str) or not isinstance(bots, Sequence):
        seats: list[Bot | str] = [bots] * players
    else:
        seats = list(bots)
        if len(seats) == 1:
            seats = seats * players
    if len(seats) != players:
        raise ValueError(f"{players} players need 1 or {players} bots, got {len(seats)}")
    table: list[Bot] = [make_bot(b, derive_seed(seed, "seat", i)) if isinstance(b, str) else b
                        for i, b in enumerate(seats)]
    game = Game.new(players=players, seed=seed, names=names, expansions=expansions,
                    options=options)
    apply_fast = game.apply_fast
    for _ in range(max_decisions):
        seat = game.to_play
        if seat is None:
            return game
        if observe is not None:
            observe(game)
        apply_fast(table[seat].choose(game))
    raise RuntimeError(f"the game did not end after {max_decisions} decisions")
