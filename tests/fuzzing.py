"""Structure-aware mutations for the fuzz tests (issue 12).

A mutation picks a node anywhere in a JSON-like value (the root included) and drops it,
retypes it, duplicates it, inserts a sibling, or replaces it with a hostile value (huge
numbers, NaN, wrong types, nested containers, text that looks like the game's notation).
Text gets character-level mutations. Hypothesis draws every choice, so a failure shrinks
to a small mutation of a valid input.
"""

from __future__ import annotations

import copy
import math
from typing import Any

from hypothesis import strategies as st

Path = tuple[Any, ...]

#: Text that looks like the game's vocabulary: tokens, coins, notation, odd digits.
LOOKALIKES = [
    "W7", "W6/E8", "E8/W6", "Thrud", "Ylud", "Dwerg Ymir", "aegur", "+3", "+5", "H", "B", "M0",
    "3*", "0", "25", "26", "-1", "²", "١", "٣*", "5+2", "T1", "purse", "hand", "@", "/",
    "bid 5 4 3", "take W7", "enlist first", "thingvellir", "Thingvellir", "first_game",
    "warrior", "miner", "version", "players", "actions", "ages", "camp", "gems", "1", "2",
    "", " ", "\x00", "\u200b", "é", "Ω" * 3, "1e400", "NaN",
]

SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.integers(),
    st.sampled_from([0, 1, 2, 3, 5, 6, -1, 2**31, 2**63, 10**100, -(10**100)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 1e308]),
    st.text(max_size=12),
    st.sampled_from(LOOKALIKES),
)

HOSTILE = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.one_of(st.text(max_size=6),
                                                      st.sampled_from(LOOKALIKES)),
                                            inner, max_size=3)),
    max_leaves=8,
)


def nodes(value: Any, path: Path = ()) -> list[Path]:
    """Every path in ``value``, the root first."""
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(nodes(v, path + (k,)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(nodes(v, path + (i,)))
    return out


def get(value: Any, path: Path) -> Any:
    for key in path:
        value = value[key]
    return value


def retype(value: Any) -> Any:
    """The same content in another JSON type."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(value)
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            return [value]
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    if isinstance(value, dict):
        return list(value.values())
    return str(value)


def mutate_text(draw: st.DrawFn, text: str) -> str:
    """One character- or word-level change."""
    op = draw(st.sampled_from(["insert", "delete", "replace", "swap_words", "case", "word"]))
    if op == "case":
        return text.swapcase()
    words = text.split(" ")
    if op == "swap_words" and len(words) > 1:
        i = draw(st.integers(0, len(words) - 2))
        words[i], words[i + 1] = words[i + 1], words[i]
        return " ".join(words)
    if op == "word":
        i = draw(st.integers(0, len(words)))
        words.insert(i, draw(st.sampled_from(LOOKALIKES)))
        return " ".join(words)
    i = draw(st.integers(0, len(text)))
    piece = draw(st.one_of(st.text(min_size=1, max_size=3), st.sampled_from(LOOKALIKES)))
    if op == "insert" or not text:
        return text[:i] + piece + text[i:]
    j = min(len(text), i + draw(st.integers(1, 3)))
    if op == "delete":
        return text[:i] + text[j:]
    return text[:i] + piece + text[j:]


def mutate_once(draw: st.DrawFn, value: Any) -> Any:
    """``value`` with one node changed (a copy; ``value`` is left alone)."""
    value = copy.deepcopy(value)
    path = draw(st.sampled_from(nodes(value)))
    node = get(value, path)
    ops = ["replace", "retype"]
    if path:
        ops.append("drop")
    if isinstance(node, list):
        ops += ["insert_item", "duplicate_item"] if node else ["insert_item"]
    if isinstance(node, dict):
        ops += ["insert_key"]
    if isinstance(node, str):
        ops += ["text", "text"]
    op = draw(st.sampled_from(ops))
    if op == "replace":
        new: Any = draw(HOSTILE)
    elif op == "retype":
        new = retype(node)
    elif op == "text":
        new = mutate_text(draw, node)
    elif op == "insert_item":
        new = list(node)
        new.insert(draw(st.integers(0, len(node))), draw(HOSTILE))
    elif op == "duplicate_item":
        new = list(node)
        i = draw(st.integers(0, len(node) - 1))
        new.insert(i, copy.deepcopy(node[i]))
    elif op == "insert_key":
        new = dict(node)
        new[draw(st.one_of(st.sampled_from(LOOKALIKES), st.text(max_size=6)))] = draw(HOSTILE)
    else:  # drop
        parent = get(value, path[:-1])
        del parent[path[-1]]
        return value
    if not path:
        return new
    get(value, path[:-1])[path[-1]] = new
    return value


@st.composite
def mutations(draw: st.DrawFn, bases: list[Any], max_changes: int = 3) -> Any:
    """A valid input from ``bases`` with 1 to ``max_changes`` structural changes."""
    value = draw(st.sampled_from(bases))
    for _ in range(draw(st.integers(1, max_changes))):
        value = mutate_once(draw, value)
    return value


@st.composite
def text_mutations(draw: st.DrawFn, bases: list[str], max_changes: int = 3) -> str:
    text = draw(st.sampled_from(bases))
    for _ in range(draw(st.integers(1, max_changes))):
        text = mutate_text(draw, text)
    return text
