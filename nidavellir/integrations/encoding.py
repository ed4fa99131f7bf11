"""A stable index for every action notation, and a fixed-size vector per observation.

**Action index** (:data:`ACTIONS`, :func:`action_index`, :func:`action_at`): every action the
lab can offer, index ``i`` always naming the same notation. The table is published,
versioned and append-only: ``rl_actions.txt`` beside this module holds every published
action, one a line, line ``i`` (comments left out) is index ``i``, and a header line per
version with its length and digest (tests/test_rl_table.py holds every version's lines to
it, so a published index never moves). :data:`ACTIONS` is that table, then every action a
decision class declares that it does not hold yet (a plugin's card or kind of decision,
docs/engine.md), in the order of the declarations: a new card or kind adds indices after
the published ones and moves none. ``python -m nidavellir.integrations.encoding --publish``
appends them as a new version.

Each decision class declares its verbs and every text their actions can have
(:class:`nidavellir.actions.Syntax`); version 1 holds the verbs' blocks in this order: bids
``bid a b c`` over every coin label (``0``…``25``, ``3*``) on each tavern (27³); Uline's
``place a``; ``take X`` / ``camp X`` / ``hero X`` / ``keep X`` / ``drop X`` / ``choose X``
for every card token; ``thrud`` / ``ylud`` / ``discard`` / ``double`` with every column;
``transform a@place``; ``trade a b`` (a ≤ b); ``enlist first``, ``enlist last``,
``enlist M col`` for every mercenary and column; ``remove X@col``; ``vidofnir a+5`` and
``vidofnir a+2 b+3`` / ``vidofnir b+3 a+2``; ``skip``.

**Observation vector** (:func:`encode`, length :func:`observation_size`), built from
``game.observation(seat)`` only — never hidden information. Every field of the observation
is either one of the blocks below or named, with the reason, in :data:`NOT_ENCODED`; a field
that is neither makes :func:`encode` fail, so a new public fact cannot be invisible to an
agent by oversight. The blocks, in order (:data:`HEAD`, then :data:`PLAYER` per seat):

1. the seat (one-hot, 5), the player count (one-hot 2–5, 4), age, round, the tavern being
   resolved (+1, 0 before the reveal), a flag per expansion (:data:`nidavellir.cards.
   EXPANSIONS`: Thingvellir, then a plugin's);
2. the decision: kind (one-hot over :data:`KINDS`, every decision kind), whose (one-hot,
   5), is it mine;
3. the three taverns, the camp, the hero hall and the dwarf discard: a count per card type
   (one number per card token each);
4. deck sizes (age 1, 2), camp deck sizes (age 1, 2), the treasury's count per value (26),
   the distinctions' holders (5 × one-hot over 6: nobody or a seat), the tavern's turn
   order (5 × one-hot over 6), whether the game is over, the Pioneer's drawn cards (a count
   per card type, for the seat that chooses);
5. per seat (5 blocks, zeros for absent seats): gem, ranks per class (5), lines, heroes,
   the coin set (sorted values, 5 slots, −1 when absent), the bids (3: the value, −2 face
   down, −1 none), hand and purse counts, the purse coins known (2 slots, −1 unknown), the
   command zone (a count per card type), per column the count of each card type (5 × one
   per card type), and what the seat's cards remember (:data:`nidavellir.rules.catalogue.
   MARKS`: one-hot over each mark's values, zeros when not set or not seen).
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import cards as C
from .. import coins as K
from ..actions import CARD_TOKENS, COLUMNS, VERBS, Action, parse_action
from ..rules.base import CHOICES, DecisionKind
from ..rules.catalogue import MARKS

#: Every decision kind, in the order of the observation's one-hot block.
KINDS: tuple[str, ...] = tuple(str(k) for k in DecisionKind)
MAX_PLAYERS = C.MAX_PLAYERS
#: The published table (docs/integrations.md).
PUBLISHED = Path(__file__).with_name("rl_actions.txt")


# ---------------------------------------------------------------------- the action table

@dataclass(frozen=True)
class Version:
    """One published version of the table: its first ``size`` actions, whose digest is
    ``sha256`` (of the actions joined by newlines)."""

    number: int
    size: int
    sha256: str


_VERSION = re.compile(r"# version (\d+): (\d+) actions, sha256 ([0-9a-f]{64})")


def digest(actions: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(actions).encode()).hexdigest()


def read_published(path: Path = PUBLISHED) -> tuple[tuple[Version, ...], tuple[str, ...]]:
    """The versions and the actions of a published table file: ``# version N: SIZE actions,
    sha256 DIGEST`` lines, other ``#`` lines (comments), then one action a line."""
    versions: list[Version] = []
    actions: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        found = _VERSION.fullmatch(line)
        if found:
            versions.append(Version(int(found[1]), int(found[2]), found[3]))
        elif line and not line.startswith("#"):
            actions.append(line)
    return tuple(versions), tuple(actions)


def declared() -> list[str]:
    """Every action notation the decision classes declare (each verb's texts), verbs in the
    order the classes declare them."""
    verbs = dict.fromkeys(verb for cls in CHOICES.values() for verb in cls.verbs)
    return list(dict.fromkeys(text for verb in verbs for text in VERBS[verb].notations(verb)))


def _table() -> tuple[str, ...]:
    published = read_published()[1]
    known = set(published)
    return published + tuple(a for a in declared() if a not in known)


#: Every action notation, at its index: the published table, then the new ones.
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


def publish(path: Path = PUBLISHED) -> Version | None:
    """Append the actions the published table does not hold yet as a new version (its
    header line goes after the last one); None when there is nothing new."""
    versions, published = read_published(path)
    new = ACTIONS[len(published):]
    if not new:
        return None
    version = Version(versions[-1].number + 1 if versions else 1, len(ACTIONS), digest(ACTIONS))
    lines = path.read_text(encoding="utf-8").splitlines()
    last = max((i for i, line in enumerate(lines) if _VERSION.fullmatch(line)), default=-1)
    header = f"# version {version.number}: {version.size} actions, sha256 {version.sha256}"
    lines = lines[:last + 1] + [header] + lines[last + 1:] + list(new)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return version


# ---------------------------------------------------------------------- observations

_CARD = {t: i for i, t in enumerate(CARD_TOKENS)}
N_CARDS = len(CARD_TOKENS)
#: The treasury's values (0 … 25): one count each.
TREASURY_VALUES = C.MAX_COIN_VALUE + 1
#: Coins a seat owns (5 from the start; a trade or Járnglófi never adds one).
COIN_SLOTS = len(C.STARTING_COINS)
#: Purse coins known to the others (a purse holds the two coins left out of a bid).
PURSE_SLOTS = 2


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


def _slots(values: Sequence[float], n: int) -> list[float]:
    if len(values) > n:
        raise ValueError(f"{len(values)} values for {n} slots")
    return list(values) + [-1.0] * (n - len(values))


def _decision(d: dict[str, Any] | None, me: int | None) -> list[float]:
    return (_one_hot(KINDS.index(d["kind"]) if d else None, len(KINDS))
            + _one_hot(d["player"] if d else None, MAX_PLAYERS)
            + [1.0 if d and d["player"] == me else 0.0])


def _marks(marks: dict[str, Any]) -> list[float]:
    out: list[float] = []
    for card, mark in MARKS.items():
        value = marks.get(card.token)
        out += _one_hot(next((i for i, v in enumerate(mark.values)
                              if type(v) is type(value) and v == value), None), len(mark.values))
    return out


@dataclass(frozen=True)
class Block:
    """A field of the observation as numbers: its key, its size and its encoder (which reads
    the field's value and the whole observation, or the seat's)."""

    key: str
    size: int
    encode: Callable[[Any, dict[str, Any]], list[float]]
    default: Any = None
    """The value of a field the observation may leave out (the Pioneer's draw, unseen)."""


#: The observation's own fields, in the vector's order.
HEAD: tuple[Block, ...] = (
    Block("player", MAX_PLAYERS, lambda v, o: _one_hot(v, MAX_PLAYERS)),
    Block("players", len(C.PLAYER_COUNTS), lambda v, o: _one_hot(len(v) - C.MIN_PLAYERS,
                                                                  len(C.PLAYER_COUNTS))),
    Block("age", 1, lambda v, o: [float(v)]),
    Block("round", 1, lambda v, o: [float(v)]),
    Block("tavern", 1, lambda v, o: [0.0 if v is None else float(v) + 1.0]),
    Block("expansions", len(C.EXPANSIONS), lambda v, o: [1.0 if e in v else 0.0
                                                          for e in C.EXPANSIONS]),
    Block("decision", len(KINDS) + MAX_PLAYERS + 1, lambda v, o: _decision(v, o["player"])),
    Block("taverns", len(C.TAVERNS) * N_CARDS, lambda v, o: [x for t in v for x in _counts(t)]),
    Block("camp", N_CARDS, lambda v, o: _counts(v)),
    Block("hall", N_CARDS, lambda v, o: _counts(v)),
    Block("discard", N_CARDS, lambda v, o: _counts(v)),
    Block("deck_sizes", 2, lambda v, o: [float(v["1"]), float(v["2"])]),
    Block("camp_deck_sizes", 2, lambda v, o: [float(v["1"]), float(v["2"])]),
    Block("treasury", TREASURY_VALUES, lambda v, o: [float(v.get(str(x), 0))
                                                     for x in range(TREASURY_VALUES)]),
    Block("distinctions", len(C.DISTINCTIONS) * (MAX_PLAYERS + 1), lambda v, o: [
        x for holder in v.values() for x in _one_hot(None if holder is None else holder + 1,
                                                     MAX_PLAYERS + 1)]),
    Block("order", MAX_PLAYERS * (MAX_PLAYERS + 1), lambda v, o: [
        x for i in range(MAX_PLAYERS)
        for x in _one_hot(v[i] + 1 if i < len(v) else 0, MAX_PLAYERS + 1)]),
    Block("over", 1, lambda v, o: [1.0 if v else 0.0]),
    Block("drawn", N_CARDS, lambda v, o: _counts(v), default=()),
)

#: Each seat's fields (``observation["players"][seat]``), in the vector's order.
PLAYER: tuple[Block, ...] = (
    Block("gem", 1, lambda v, p: [float(v)]),
    Block("ranks", len(COLUMNS), lambda v, p: [float(v[c]) for c in COLUMNS]),
    Block("lines", 1, lambda v, p: [float(v)]),
    Block("heroes", 1, lambda v, p: [float(v)]),
    Block("coins", COIN_SLOTS, lambda v, p: _slots(sorted(_coin(c) for c in v), COIN_SLOTS)),
    Block("bids", len(C.TAVERNS), lambda v, p: [-1.0 if b is None else -2.0 if b == "?" else _coin(b)
                                   for b in v]),
    Block("hand", 1, lambda v, p: [float(v if isinstance(v, int) else len(v))]),
    Block("purse", 1, lambda v, p: [float(v if isinstance(v, int) else len(v))]),
    Block("purse_known", PURSE_SLOTS, lambda v, p: _slots([_coin(c) for c in v], PURSE_SLOTS)),
    Block("command_zone", N_CARDS, lambda v, p: _counts(v)),
    Block("army", len(COLUMNS) * N_CARDS, lambda v, p: [x for c in COLUMNS
                                                        for x in _counts(v[c])]),
    Block("marks", sum(len(m.values) for m in MARKS.values()), lambda v, p: _marks(v)),
)

#: The observation's fields the vector leaves out, and why.
NOT_ENCODED: dict[str, str] = {
    "names": "the players' names are no fact of the game",
    "legal_actions": "the action mask carries them",
    "seat": "the block's place says it",
    "name": "the players' names are no fact of the game",
}
PLAYER_SIZE = sum(b.size for b in PLAYER)
HEAD_SIZE = sum(b.size for b in HEAD)


def observation_size() -> int:
    return HEAD_SIZE + MAX_PLAYERS * PLAYER_SIZE


def _encoded(blocks: Sequence[Block], fields: dict[str, Any], where: str) -> list[float]:
    unknown = set(fields) - {b.key for b in blocks} - set(NOT_ENCODED)
    if unknown:
        raise ValueError(f"the observation's {where} field(s) {sorted(unknown)} have no "
                         "block in the RL vector (nidavellir/integrations/encoding.py: add "
                         "one, or say in NOT_ENCODED why it is left out)")
    out: list[float] = []
    for b in blocks:
        part = b.encode(fields.get(b.key, b.default), fields)
        if len(part) != b.size:
            raise ValueError(f"the {where} block {b.key!r} gave {len(part)} numbers for "
                             f"{b.size}")
        out += part
    return out


def encode(obs: dict[str, Any]) -> list[float]:
    """The observation dict of ``game.observation(seat)`` as a vector (see the module)."""
    out = _encoded(HEAD, obs, "top-level")
    players = obs["players"]
    for seat in range(MAX_PLAYERS):
        if seat >= len(players):
            out += [0.0] * PLAYER_SIZE
            continue
        out += _encoded(PLAYER, players[seat], "player")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``--publish``: append the new actions to the published table as a new version."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args != ["--publish"]:
        print("usage: python -m nidavellir.integrations.encoding --publish", file=sys.stderr)
        return 2
    version = publish()
    print("nothing new to publish" if version is None else
          f"published version {version.number}: {version.size} actions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
