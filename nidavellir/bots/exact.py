"""The end of a game worked out exactly, when nothing hidden or random is left.

In the last round of age 2, once every bid is revealed, nothing a seat cannot see can
change the rest of the game: no card will be dealt, the camp is not refilled, and the
Pioneer of the Kingdom's shuffle belongs to age 1. The rest of the game is then a small
tree of decisions, and the coach enumerates it instead of sampling (:func:`solve`): every
option is played to the end with every player choosing, at each later decision, what is
best for itself (its chance to win, then its final score; the engine's order breaks a
tie), the max^n rule of the search's tree.

Whether nothing hidden is left is decided from the deciding seat's knowledge only: the
position is determinized several times (:func:`nidavellir.determinize.determinize_state`)
and must come out the same each time, apart from the piles that the rest of the game never
reads (the age decks, the box and the camp decks in the last round of age 2).

>>> from nidavellir.bots import play_game
>>> game = play_game(2, "random", seed=2)
>>> game.undo_to(len(game.history) - 2)
>>> outcome = solve(game, game.legal_actions())
>>> outcome is None or all(s.over for s in outcome.values())
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action
from ..determinize import determinize_state, heuristic_bid_model
from ..engine import Engine
from ..game import Game
from ..observer import known_places
from ..state import GameState
from .tree import outcome

#: Positions the enumeration may visit for one position, at most (a few hundredths of a
#: second on one core); beyond it the position is sampled like any other.
EXACT_NODES = 2000
#: Determinizations compared to decide that nothing hidden is left.
EXACT_CHECKS = 3


class _TooBig(Exception):
    pass


def solve(game: Game, actions: Sequence[Action], seed: int = 0,
          nodes: int = EXACT_NODES) -> dict[Action, GameState] | None:
    """The final state each of ``actions`` (options of the decision on the table) leads to
    with best play by everybody, or None when the rest of the game is not known to the
    deciding seat or too large to enumerate (module docs)."""
    decision = game.decision
    if decision is None:
        raise ValueError("there is no decision: the game is over")
    me = decision.player
    state = _known_state(game, me, seed)
    if state is None:
        return None
    budget = [nodes]
    seen: dict[object, GameState] = {}
    out: dict[Action, GameState] = {}
    try:
        for a in actions:
            s = state.copy()
            Engine(s, quiet=True).apply(a, check=False)
            out[a] = _best_play(s, budget, seen)
    except _TooBig:
        return None
    return out


def _known_state(game: Game, me: int, seed: int) -> GameState | None:
    """The position as ``me`` knows it, if every determinization gives the same one (the
    piles never read again left aside), else None."""
    live = game.state
    last_round = live.age == 2 and live.round >= game.config.rounds_per_age
    shown, purse = known_places(game.events, me)
    rng = random.Random(seed)
    first: GameState | None = None
    seen = None
    for _ in range(EXACT_CHECKS):
        s = determinize_state(live, me, random.Random(rng.getrandbits(63)), shown, purse,
                              heuristic_bid_model)
        key = _fingerprint(s, last_round)
        if seen is None:
            first, seen = s, key
        elif key != seen:
            return None
    return first


def _fingerprint(state: GameState, last_round: bool) -> tuple[object, ...]:
    s = state.copy()
    if last_round:
        # Nothing is dealt or revealed from these piles again: what lies there is moot.
        s.decks = {1: [], 2: []}
        s.box = []
        s.camp_decks = {1: [], 2: []}
    return s.fingerprint()[:-1]  # the random generator: reseeded by every determinization


def _best_play(state: GameState, budget: list[int], seen: dict[object, GameState]
               ) -> GameState:
    """The final state from ``state`` when every player chooses what is best for itself
    (max^n; the first of the engine's legal actions on a tie). ``seen``: positions already
    worked out (two orders of the same moves often meet: the mercenaries' enlistment)."""
    eng = Engine(state, quiet=True)
    while not state.over:
        actions = eng.legal_actions()
        if len(actions) == 1:
            eng.apply(actions[0], check=False)
            continue
        key = state.fingerprint()[:-1]
        known = seen.get(key)
        if known is not None:
            return known
        seat = eng.to_play
        assert seat is not None
        best: GameState | None = None
        best_key: tuple[float, int] | None = None
        for a in actions:
            budget[0] -= 1
            if budget[0] < 0:
                raise _TooBig
            s = state.copy()
            Engine(s, quiet=True).apply(a, check=False)
            final = _best_play(s, budget, seen)
            totals, wins, _, _ = outcome(final)
            score = (wins[seat], totals[seat])
            if best_key is None or score > best_key:
                best, best_key = final, score
        assert best is not None
        seen[key] = best
        return best
    return state


__all__ = ["EXACT_CHECKS", "EXACT_NODES", "solve"]
