"""Computer players (standard library only), and ``play_game``.

Five bots, by registry name (:data:`BOTS`), weakest first:

- ``random`` (level ``easy``): any legal move, seeded (:mod:`.random_bot`);
- ``greedy`` (level ``medium``): the best immediate score gain, with a short lookahead over
  the follow-up decisions (:mod:`.greedy`);
- ``heuristic``: the search's fast playout policy as a bot (:mod:`.playout`);
- ``montecarlo``: flat Monte Carlo over determinizations, the honest baseline
  (:mod:`.search`);
- ``search`` (levels ``hard`` and ``expert``, by time per decision): information-set Monte
  Carlo tree search that never peeks (:mod:`.search`), with ``analyse(game)``.

Bots read only what their seat may know (:mod:`nidavellir.observer`); the search bots play
determinized states through the engine's fast path (``Game.engine``).

>>> from nidavellir.bots import make_bot, play_game
>>> game = play_game(3, ["greedy", "random", "random"], seed=4)
>>> game.is_over
True
>>> make_bot("random", seed=1)
RandomBot(seed=1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .base import Bot, derive_seed, legal_actions, play_game
from .greedy import GreedyBot
from .judge import Judgement, judge
from .playout import HeuristicBot
from .random_bot import RandomBot
from .search import EXPERT_SECONDS, HARD_SECONDS, MonteCarloBot, SearchBot


def _budget(seconds: float, options: dict[str, Any]) -> dict[str, Any]:
    """The level's time unless the caller gives a budget: ``iterations=n`` alone is a
    deterministic search."""
    if "iterations" in options or "seconds" in options:
        return options
    return {"seconds": seconds} | options


def _hard(seed: int, **options: Any) -> Bot:
    return SearchBot(seed, **_budget(HARD_SECONDS, options))


def _expert(seed: int, **options: Any) -> Bot:
    return SearchBot(seed, **_budget(EXPERT_SECONDS, options))


def _montecarlo(seed: int, **options: Any) -> Bot:
    return MonteCarloBot(seed, **_budget(HARD_SECONDS, options))


#: Bot factories by name: ``BOTS[name](seed, **options)``. The levels ``easy``,
#: ``medium``, ``hard`` and ``expert`` are the names to show players; ``random``,
#: ``greedy``, ``search`` and ``montecarlo`` name the methods.
BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "search": _hard,
    "montecarlo": _montecarlo,
    "easy": RandomBot,
    "medium": GreedyBot,
    "hard": _hard,
    "expert": _expert,
}

#: The levels, weakest first, and what each one is.
LEVELS: dict[str, str] = {
    "easy": "random: any legal move",
    "medium": "greedy: the best immediate score gain",
    "hard": f"search: information-set MCTS, {HARD_SECONDS:g} s per decision",
    "expert": f"search: information-set MCTS, {EXPERT_SECONDS:g} s per decision",
}

#: Bots that take a search budget (``iterations=``, ``seconds=``).
SEARCH_BOTS = frozenset({"search", "montecarlo", "hard", "expert"})


#: Variants of the tree search, written ``+FLAG`` after the name (``search+rm@400``).
SEARCH_FLAGS: dict[str, tuple[str, str | bool]] = {
    "rm": ("bid_selection", "rm"),    # regret matching at its own secret bids
    "ucb": ("bid_selection", "ucb"),  # UCB at its own bids, like every other decision
    "cut": ("horizon", True),         # truncated playouts: age 2 estimated (.bots.horizon)
}


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``NAME``, ``NAME@BUDGET`` or ``NAME+FLAG@BUDGET``: a search bot's budget as ``0.5s``
    (seconds per decision) or ``400`` (iterations), e.g. ``montecarlo@0.25s``,
    ``search@400``; a tree search's variant by a flag of :data:`SEARCH_FLAGS`
    (``hard+rm``: regret matching at its own bids).

    >>> parse_bot_spec("search@0.5s")
    ('search', {'seconds': 0.5})
    >>> parse_bot_spec("hard+rm@300")
    ('hard', {'bid_selection': 'rm', 'iterations': 300})
    """
    if not isinstance(spec, str):
        raise ValueError(f"a bot is named by text, not {spec!r}")
    name, at, budget = spec.strip().lower().partition("@")
    name, *flags = (part.strip() for part in name.split("+"))
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOTS)}")
    options: dict[str, Any] = {}
    for flag in flags:
        if name not in ("search", "hard", "expert"):
            raise ValueError(f"{spec!r}: only the tree search (search, hard, expert) takes "
                             f"+flags, not {name!r}")
        if flag not in SEARCH_FLAGS:
            raise ValueError(f"{spec!r}: unknown flag +{flag}; known: "
                             + ", ".join(f"+{f}" for f in SEARCH_FLAGS))
        key, value = SEARCH_FLAGS[flag]
        options[key] = value
    if not at:
        return name, options
    if name not in SEARCH_BOTS:
        raise ValueError(f"{spec!r}: only the search bots ({', '.join(sorted(SEARCH_BOTS))}) "
                         "take a budget")
    budget = budget.strip()
    try:
        if budget.endswith("s"):
            seconds = float(budget[:-1])
            if not (seconds > 0 and seconds < 1e6):
                raise ValueError
            return name, options | {"seconds": seconds}
        iterations = int(budget)
        if iterations < 1:
            raise ValueError
        return name, options | {"iterations": iterations}
    except ValueError:
        raise ValueError(f"{spec!r}: a budget is seconds per decision such as @0.5s, or a "
                         "number of iterations such as @400") from None


def make_bot(name: str | Bot, seed: int = 0, **options: Any) -> Bot:
    """A bot by registry name or level (case-insensitive), seeded; a Bot object is returned
    as is. Search bots take ``iterations=`` and/or ``seconds=`` (their budget), also
    written ``"search@400"`` / ``"hard@2s"`` (:func:`parse_bot_spec`).

    >>> make_bot("search", seed=3, iterations=200)
    SearchBot(seed=3, iterations=200)
    """
    if not isinstance(name, str):
        return name
    key, budget = parse_bot_spec(name)
    options = budget | options
    if key not in BOTS:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOTS)}")
    if options and key not in SEARCH_BOTS:
        raise ValueError(f"bot {key!r} takes no options (got {', '.join(sorted(options))})")
    unknown = set(options) - {"iterations", "seconds", "exploration", "playout", "bid_model",
                              "opponents", "debug", "bid_selection", "horizon"}
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(sorted(unknown))} for bot {key!r}")
    return BOTS[key](seed, **options)


__all__ = ["BOTS", "LEVELS", "SEARCH_BOTS", "Bot", "Judgement", "judge", "GreedyBot", "HeuristicBot",
           "MonteCarloBot",
           "RandomBot", "SearchBot", "derive_seed", "legal_actions", "make_bot", "parse_bot_spec",
           "play_game"]
