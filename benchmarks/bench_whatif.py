"""How long what_if takes for a typical decision: the changes now only, and judged.

Run: .venv/bin/python benchmarks/bench_whatif.py
The position: a 3-player game played by random bots (seed 7) up to the first card pick of
age 2, and the first bid of age 2 (the widest decision: up to 60 bids).
"""

from __future__ import annotations

import statistics
import time

from nidavellir import Game
from nidavellir.analysis.whatif import what_if
from nidavellir.bots import make_bot


def position(kind: str, seed: int = 7) -> Game:
    game = Game.new(players=3, seed=seed)
    bots = [make_bot("random", seed * 10 + i) for i in range(3)]
    while not (game.state.age == 2 and game.decision is not None and game.decision.kind == kind):
        game.apply_fast(bots[game.decision.player].choose(game))
    return game


def timed(game: Game, repeat: int = 3, **kwargs: object) -> float:
    """Median seconds of ``what_if(game, **kwargs)`` over ``repeat`` runs."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        what_if(game, **kwargs)  # type: ignore[arg-type]
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main() -> None:
    for kind in ("pick", "bid"):
        game = position(kind)
        n = len(game.legal_actions())
        print(f"{kind} decision, age 2, {n} legal actions:")
        t = timed(game)
        print(f"  immediate deltas only          {t * 1000:8.1f} ms")
        for level in ("quick", "coach"):
            from nidavellir.bots.judge import no_cache

            with no_cache():
                t = timed(game, repeat=1, level=level)
            print(f"  judged at the {level:<6} level     {t * 1000:8.1f} ms")

if __name__ == "__main__":
    main()
