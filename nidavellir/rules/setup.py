"""Setup by player count (FR "Mise en place", "Partie à 2/3/5 Elvalands"; R1, R25)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .. import cards as C
from ..cards import Card
from ..draws import shuffle
from ..errors import RecordError
from ..state import GameConfig, GameState, PlayerState
from ..tokens import parse_token
from .flow import ROUND_START


def heroes_for(config: GameConfig) -> list[Card]:
    """The hero hall: the heroes of the game's expansions (R25: the first game leaves out
    Thrud, Ylud and Uline)."""
    heroes = C.heroes_of(config.expansions)
    if config.options.first_game:
        heroes = [h for h in heroes if not h.advanced]
    return heroes


def new_state(config: GameConfig, seed: int, deal: Mapping[str, Any] | None = None) -> GameState:
    """A fresh table: shuffled age decks (or an explicit deal), gems at random, the
    treasury for the player count, and the hero hall."""
    s = GameState(config)
    s.rng = random.Random(seed)
    n = config.players
    decks = {age: C.age_deck(age, n) for age in (1, 2)}
    for age in (1, 2):
        shuffle(s.rng, decks[age])
    gems = list(C.gems_for(n))
    shuffle(s.rng, gems)
    camp: dict[int, list[Card]] = {1: [], 2: []}
    if config.thingvellir:
        # FR Thingvellir "Mise en place": the two camp decks are shuffled separately.
        camp = {age: C.camp_deck(age) for age in (1, 2)}
        for age in (1, 2):
            shuffle(s.rng, camp[age])
    if deal:
        decks, gems, camp = _explicit_deal(deal, n, decks, gems, camp, config.thingvellir)
    # Stored with the top card last.
    s.decks = {age: list(reversed(cards)) for age, cards in decks.items()}
    s.camp_decks = {age: list(reversed(cards)) for age, cards in camp.items()}
    s.players = [PlayerState(i, gems[i]) for i in range(n)]
    s.hall = heroes_for(config)
    s.tasks = [ROUND_START]
    return s


Decks = dict[int, list[Card]]


def _explicit_deal(deal: Mapping[str, Any], n: int, decks: Decks, gems: list[int], camp: Decks,
                   thingvellir: bool) -> tuple[Decks, list[int], Decks]:
    """Validate an explicit deal: age decks (and camp decks) in draw order, and the gems."""
    if not isinstance(deal, Mapping):
        raise RecordError("the deal must be a mapping with 'ages', 'camp' and/or 'gems'",
                          field="deal")
    unknown = set(deal) - {"ages", "gems", "camp"}
    if unknown:
        raise RecordError(f"unknown key(s) {sorted(unknown)}; expected ages, camp, gems",
                          field="deal")
    out = _decks(deal.get("ages"), "ages", decks, lambda age: C.age_deck(age, n),
                 f"for {n} players")
    if "camp" in deal and not thingvellir:
        raise RecordError("a camp deal needs the thingvellir expansion", field="deal.camp")
    out_camp = _decks(deal.get("camp"), "camp", camp, C.camp_deck, "of the camp")
    if "gems" in deal:
        given = deal["gems"]
        if (not isinstance(given, Sequence) or isinstance(given, str)
                or not all(isinstance(g, int) and not isinstance(g, bool) for g in given)
                or sorted(given) != sorted(C.gems_for(n))):
            raise RecordError(f"gems must be a permutation of {list(C.gems_for(n))} "
                              f"for {n} players (R1), not {given!r}", field="deal.gems")
        gems = list(given)
    return out, gems, out_camp


def _decks(ages: Any, name: str, decks: Decks, expected_deck: Any, what: str) -> Decks:
    out = dict(decks)
    ages = ages or {}
    if not isinstance(ages, Mapping):
        raise RecordError(f"'{name}' must map an age (1, 2) to its cards", field=f"deal.{name}")
    for key, tokens in ages.items():
        try:
            age = int(key)
        except (TypeError, ValueError):
            raise RecordError(f"unknown age {key!r}", field=f"deal.{name}") from None
        if age not in (1, 2):
            raise RecordError(f"unknown age {key!r}", field=f"deal.{name}")
        where = f"deal.{name}.{age}"
        if not isinstance(tokens, Sequence) or isinstance(tokens, str):
            raise RecordError("must be a list of card tokens in draw order", field=where)
        try:
            cards = [parse_token(str(t)) for t in tokens]
        except ValueError as exc:
            raise RecordError(str(exc), field=where) from None
        expected = Counter(expected_deck(age))
        got = Counter(cards)
        if got != expected:
            missing = expected - got
            extra = got - expected
            parts = []
            if missing:
                parts.append("missing " + ", ".join(f"{c.token} x{k}" for c, k in missing.items()))
            if extra:
                parts.append("not in this deck " + ", ".join(f"{c.token} x{k}"
                                                             for c, k in extra.items()))
            raise RecordError(f"the age {age} deck {what} does not match the box: "
                              + "; ".join(parts), field=where)
        out[age] = cards
    return out
