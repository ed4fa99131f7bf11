"""A stable index for every action notation, and a fixed-size vector per observation.

**Action index** (:data:`ACTIONS`, :func:`action_index`, :func:`action_at`): every action the
base game and Thingvellir can offer, so index ``i`` always names the same notation for a
given catalogue and set of decision kinds (a test round-trips every legal action of many
random games; tests/test_conformance.py holds the table to the published one). Each decision class declares its
verbs and every text their actions can have (:class:`nidavellir.actions.Syntax`): the
table is the verbs' blocks, the published verbs (:data:`PUBLISHED_VERBS`) in their order,
then any verb a later decision kind declares, in the order the classes are defined, so a
new kind adds indices after the old ones and moves none. The published blocks: bids
``bid a b c`` over every coin label (``0``…``25``, ``3*``) on each tavern (27³); Uline's
``place a``; ``take X`` / ``camp X`` / ``hero X`` / ``keep X`` / ``drop X`` / ``choose X``
for every card token; ``thrud`` / ``ylud`` / ``discard`` / ``double`` with every column;
``transform a@place``; ``trade a b`` (a ≤ b); ``enlist first``, ``enlist last``,
``enlist M col`` for every mercenary and column; ``remove X@col``; ``vidofnir a+5`` and
``vidofnir a+2 b+3`` / ``vidofnir b+3 a+2``; ``skip``.

**Observation vector** (:func:`encode`, length :func:`observation_size`), built from
``game.observation(seat)`` only — never hidden information. Blocks, in order:

1. the seat (one-hot, 5), the player count (one-hot 2–5, 4), age, round, the tavern being
   resolved (+1, 0 before the reveal), Thingvellir on/off;
2. the decision: kind (one-hot over :data:`KINDS`, every decision kind), whose (one-hot,
   5), is it mine;
3. the three taverns, the camp, the hero hall and the dwarf discard: a count per card type
   (80 each);
4. deck sizes (age 1, 2), camp deck sizes (age 1, 2), the treasury's count per value (26),
   the distinctions' holders (5 × one-hot over 6: nobody or a seat);
5. per seat (5 blocks, zeros for absent seats): gem, ranks per class (5), lines, heroes,
   Uline, the coin set (sorted values, 5 slots, −1 when absent), the bids (3: the value, −2
   face down, −1 none), hand and purse counts, the command zone (a count per card type),
   and per column the count of each card type (5 × 80).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import coins as K
from ..actions import CARD_TOKENS, COLUMNS, VERBS, Action, parse_action
from ..rules.base import CHOICES, DecisionKind

#: Every decision kind, in the order of the observation's one-hot block.
KINDS: tuple[str, ...] = tuple(str(k) for k in DecisionKind)
MAX_PLAYERS = 5
#: The verbs of the first published table, in its order: their indices never move.
PUBLISHED_VERBS = ("bid", "place", "take", "camp", "hero", "keep", "drop", "choose", "thrud",
                   "ylud", "discard", "double", "transform", "trade", "enlist", "remove",
                   "vidofnir", "skip")


def _table() -> tuple[str, ...]:
    declared = [verb for cls in CHOICES.values() for verb in cls.verbs]
    verbs = [v for v in PUBLISHED_VERBS if v in VERBS]
    verbs += [v for v in dict.fromkeys(declared) if v not in PUBLISHED_VERBS]
    return tuple(dict.fromkeys(text for verb in verbs for text in VERBS[verb].notations(verb)))


#: Every action notation, at its index.
ACTIONS: tuple[str, ...] = _table()
_INDEX: dict[str, int] = {a: i for i, a in enumerate(ACTIONS)}


def action_index(action: Action | str) -> int:
    """The index of an action (an Action or its notation, canonicalised first)."""
    text = str(parse_action(action) if isinstance(action, str) else action)
    try:
        return _INDEX[text]
    except KeyError:
        raise ValueError(f"{text!r} has no index in the action table") from None


def action_at(index: int) -> str:
    """The notation of action ``index``."""
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(ACTIONS):
        raise ValueError(f"action index {index!r} is out of range 0..{len(ACTIONS) - 1}")
    return ACTIONS[index]


def legal_mask(game: Any) -> list[int]:
    """1 at the index of every legal action of the decision on the table."""
    mask = [0] * len(ACTIONS)
    for a in game.legal_actions():
        mask[action_index(a)] = 1
    return mask


# ---------------------------------------------------------------------- observations

_CARD = {t: i for i, t in enumerate(CARD_TOKENS)}
N_CARDS = len(CARD_TOKENS)
PLAYER_SIZE = 1 + 5 + 1 + 1 + 1 + 5 + 3 + 2 + N_CARDS + 5 * N_CARDS
HEAD_SIZE = 5 + 4 + 4 + (len(KINDS) + 5 + 1) + 6 * N_CARDS + 4 + 26 + 5 * 6


def observation_size() -> int:
    return HEAD_SIZE + MAX_PLAYERS * PLAYER_SIZE


def _counts(tokens: Sequence[str]) -> list[float]:
    v = [0.0] * N_CARDS
    for t in tokens:
        v[_CARD[t]] += 1
    return v


def _one_hot(i: int | None, n: int) -> list[float]:
    v = [0.0] * n
    if i is not None and 0 <= i < n:
        v[i] = 1.0
    return v


def _coin(label: str) -> float:
    return float(K.label_value(label))


def encode(obs: dict[str, Any]) -> list[float]:
    """The observation dict of ``game.observation(seat)`` as a vector (see the module)."""
    out: list[float] = []
    n = len(obs["players"])
    out += _one_hot(obs["player"], 5) + _one_hot(n - 2, 4)
    out += [float(obs["age"]), float(obs["round"]),
            float(-1 if obs["tavern"] is None else obs["tavern"]) + 1.0,
            1.0 if "thingvellir" in obs["expansions"] else 0.0]
    d = obs["decision"]
    out += _one_hot(KINDS.index(d["kind"]) if d else None, len(KINDS))
    out += _one_hot(d["player"] if d else None, 5)
    out += [1.0 if d and d["player"] == obs["player"] else 0.0]
    for tavern in obs["taverns"]:
        out += _counts(tavern)
    out += _counts(obs["camp"]) + _counts(obs["hall"]) + _counts(obs["discard"])
    out += [float(obs["deck_sizes"]["1"]), float(obs["deck_sizes"]["2"]),
            float(obs["camp_deck_sizes"]["1"]), float(obs["camp_deck_sizes"]["2"])]
    treasury = obs["treasury"]
    out += [float(treasury.get(str(v), 0)) for v in range(26)]
    for holder in obs["distinctions"].values():
        out += _one_hot(0 if holder is None else holder + 1, 6)
    for seat in range(MAX_PLAYERS):
        if seat >= n:
            out += [0.0] * PLAYER_SIZE
            continue
        p = obs["players"][seat]
        out += [float(p["gem"])] + [float(p["ranks"][c]) for c in COLUMNS]
        out += [float(p["lines"]), float(p["heroes"]), 1.0 if p["uline"] else 0.0]
        coins = sorted(_coin(c) for c in p["coins"])
        out += coins + [-1.0] * (5 - len(coins))
        for b in p["bids"]:
            out.append(-1.0 if b is None else -2.0 if b == "?" else _coin(b))
        hand = p["hand"] if isinstance(p["hand"], int) else len(p["hand"])
        purse = p["purse"] if isinstance(p["purse"], int) else len(p["purse"])
        out += [float(hand), float(purse)]
        out += _counts(p["command_zone"])
        for c in COLUMNS:
            out += _counts(p["army"][c])
    return out
