"""Helpers for scripted rule scenarios: explicit deals and hand-built positions.

``deal_game`` starts a real game whose age decks begin with the cards a test names
(the rest of each deck follows in catalogue order), so the first rounds are fully
scripted. ``set_army`` / ``set_coins`` build a position directly (like a chess
FEN) for rules that need many cards on the table; the engine then runs for real.
``recruit_game`` plays a seeded game to a decision where a seat may recruit a given hero
(every hero is reached this way, not by the luck of a seed).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from nidavellir import Action, Game
from nidavellir import cards as C
from nidavellir import coins as K
from nidavellir.cards import Card, Suit
from nidavellir.tokens import parse_token


def full_deck(first: Sequence[str], box: list[Card]) -> list[str]:
    """``first`` (tokens in draw order), then the rest of ``box`` in catalogue order."""
    wanted = [parse_token(t) for t in first]
    rest = Counter(box)
    rest.subtract(Counter(wanted))
    if any(n < 0 for n in rest.values()):
        raise ValueError(f"more copies than the deck holds in {list(first)}")
    tail = []
    for c in box:
        if rest[c] > 0:
            rest[c] -= 1
            tail.append(c)
    return [c.token for c in wanted] + [c.token for c in tail]


def deal_game(players: int = 3, age1: Sequence[str] = (), age2: Sequence[str] = (),
              gems: Sequence[int] | None = None, expansions: Iterable[str] = (),
              camp1: Sequence[str] = (), camp2: Sequence[str] = (), seed: int = 0,
              names: Sequence[str] | None = None, **options: bool) -> Game:
    """A game whose decks start with the given cards (tavern 1 gets the first
    ``cards_per_tavern`` cards, then tavern 2, then tavern 3, round after round)."""
    expansions = tuple(expansions)
    deal: dict[str, object] = {
        "ages": {1: full_deck(age1, C.age_deck(1, players)),
                 2: full_deck(age2, C.age_deck(2, players))},
    }
    if gems is not None:
        deal["gems"] = list(gems)
    if C.THINGVELLIR in expansions:
        deal["camp"] = {1: full_deck(camp1, C.camp_deck(1)), 2: full_deck(camp2, C.camp_deck(2))}
    return Game.new(players=players, seed=seed, expansions=expansions, names=names,
                    deal=deal, **options)


def set_army(game: Game, seat: int, army: Mapping[str, Sequence[str]] | None = None,
             command_zone: Sequence[str] = ()) -> None:
    """Put cards in a player's columns (bottom to top) and command zone, keeping the
    rank counts and the hero count consistent. Cards are not taken from the decks:
    use it for positions, not for conservation tests."""
    p = game.state.players[seat]
    if army is not None:
        p.army = [[], [], [], [], []]
        p.ranks = [0, 0, 0, 0, 0]
        for key, tokens in army.items():
            suit = Suit.parse(key)
            for t in tokens:
                p.add_to_column(parse_token(t), suit)
    p.command_zone = [parse_token(t) for t in command_zone]
    p.heroes = sum(1 for c in p.cards() if c.kind is C.Kind.HERO)
    for c in p.cards():
        if c in game.state.hall:
            game.state.hall.remove(c)
    game._engine._legal = None
    game._engine._legal_set = None


def set_coins(game: Game, seat: int, hand: Sequence[int | str]) -> None:
    """Replace a player's coins (all in hand): ints are gold coins except the starting
    bronze values 0, 2, 3, 4 (bronze), ``'3*'`` is the Hunting Master's coin."""
    p = game.state.players[seat]
    coins = []
    for v in hand:
        if v == "3*":
            coins.append(K.HUNTER_COIN)
        elif isinstance(v, str) and v.startswith("b"):
            coins.append(K.bronze(int(v[1:])))
        elif int(v) in (0, 2, 3, 4):
            coins.append(K.bronze(int(v)))
        else:
            coins.append(K.gold(int(v)))
    p.hand = sorted(coins)
    p.bids = [None, None, None]
    p.purse = []
    game._engine._legal = None
    game._engine._legal_set = None


def play(game: Game, *actions: str) -> None:
    for a in actions:
        game.apply(a)


def kinds(game: Game) -> str | None:
    d = game.decision
    return None if d is None else d.kind


def legal(game: Game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


def army(game: Game, seat: int) -> dict[str, list[str]]:
    p = game.state.players[seat]
    return {s.letter: [c.token for c in p.army[s]] for s in C.SUITS}


def coin_labels(game: Game, seat: int) -> list[str]:
    return sorted((K.label(c) for c in game.state.players[seat].coins()),
                  key=lambda lab: (int(lab.rstrip("*")), lab))


# ---------------------------------------------------------------------- a hero, recruited

#: The class a seat collects to meet a hero's condition (``HeroRules.ineligible``): a hero
#: whose condition a line-collecting seat meets anyway (Dagda's and Bonfur's discards)
#: needs none. tests/test_conformance.py fails for a conditional hero missing here whose
#: scripted game does not reach it.
COLLECT: dict[Card, Suit] = {C.HOURYA: Suit.EXPLORER}


def _pick(game: Game, hero: Card, rng: random.Random) -> Action:
    """The scripted seat's tavern pick: a card of the class the hero asks for, else one of
    a class the army lacks (a line, so a recruit, comes sooner), else any."""
    d = game.decision
    assert d is not None
    p = game.state.players[d.player]
    wanted = COLLECT.get(hero)

    def worth(a: Action) -> tuple[int, float]:
        card = a.args[0] if a.args else None
        suit = card.suit if isinstance(card, Card) and card.kind is C.Kind.DWARF else None
        if suit is None:
            return (0, rng.random())
        return (2 if suit is wanted else 1 if p.ranks[suit] == 0 else 0, rng.random())
    return max(game.legal_actions(), key=worth)


def recruit_game(hero: Card, players: int = 3, seeds: Iterable[int] = range(40),
                 expansions: Iterable[str] = ()) -> Game:
    """A seeded game played up to a decision where seat 0 may recruit ``hero``: seat 0
    collects lines (and the class :data:`COLLECT` names for the hero), every other choice
    is seeded random. Reproducible (``Game.new`` plus actions, so its record replays it);
    ValueError when no seed reaches it."""
    expansions = tuple(expansions)
    if hero.expansion != C.BASE and hero.expansion not in expansions:
        expansions += (hero.expansion,)
    target = Action("hero", (hero,))
    for seed in seeds:
        game = Game.new(players=players, seed=seed, expansions=expansions)
        rng = random.Random(seed)
        while not game.is_over:
            d = game.decision
            assert d is not None
            legal = game.legal_actions()
            if d.player == 0 and target in legal:
                return game
            if d.player == 0 and d.kind == "pick":
                game.apply(_pick(game, hero, rng))
            elif d.player == 0 and d.kind == "hero":
                others = [a for a in legal if a != target]
                game.apply(rng.choice(others or legal))
            else:
                game.apply(rng.choice(legal))
    raise ValueError(f"no scripted game of {players} players reaches a recruit of {hero.name}")
