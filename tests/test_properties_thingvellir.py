"""Invariants over hundreds of seeded random games with Thingvellir, 2 to 5 players.

Every game ends within a bound of decisions; the components are conserved, camp cards
included (camp decks + camp + camp discard + armies + command zones + held cards + the
dwarf discard + ... = the box); gold coins are conserved and every player owns 5 coins
(4 after Járnglófi); the engine's final scores equal nidavellir.scoring.score_table on
a table built from the final state; replaying the record gives the identical state.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from nidavellir import cards as C
from nidavellir import coins as K
from nidavellir import events as ev
from nidavellir.cards import Card, Kind
from nidavellir.game import Game
from nidavellir.rules.setup import heroes_for
from nidavellir.scoring import PlayerTable, score_table

TV = (C.THINGVELLIR,)
PLAYERS = (2, 3, 4, 5)


def new_game(players: int, seed: int) -> Game:
    return Game.new(players=players, seed=seed, expansions=TV)


def decision_bound(players: int) -> int:
    """Per round one bid and three picks per player, each pick followed by a handful of
    follow-ups (heroes, transforms, camp effects, Höfud's discards by every player);
    plus the end-of-age steps (enlistment of up to 12 mercenaries, Ylud, ...)."""
    rounds = 2 * C.ROUNDS_PER_AGE[players]
    return rounds * players * (1 + 3 * 6) + 40 * players


class Ledger:
    """What the table must hold, checked during and at the end of a game."""

    def __init__(self, game: Game) -> None:
        n = game.config.players
        self.game = game
        self.expected = Counter(C.age_deck(1, n) + C.age_deck(2, n) + heroes_for(game.config)
                                + C.camp_deck(1) + C.camp_deck(2))
        self.treasury = C.treasury(n)

    def cards(self) -> Counter[Card]:
        s = self.game.state
        cards: list[Card] = s.decks[1] + s.decks[2] + s.discard + s.box + s.drawn + s.hall
        for t in s.taverns:
            cards += t
        cards += s.camp + s.camp_decks[1] + s.camp_decks[2] + s.camp_discard
        for p in s.players:
            cards += p.cards()
        return Counter(cards)

    def check(self) -> None:
        s = self.game.state
        table = self.cards()
        # Distinctions and the special blacksmith card come and go with the awards.
        for d in C.DISTINCTIONS:
            assert table[d] <= 1
            del table[d]
        armorer = any(C.KINGS_GREAT_ARMORER in p.command_zone for p in s.players)
        assert table[C.SPECIAL_BLACKSMITH] == (1 if armorer else 0)
        del table[C.SPECIAL_BLACKSMITH]
        # Olwyn's two doubles enter the game with him.
        doubles = 0 if C.OLWYN in s.hall else C.OLWYN_DOUBLE_COUNT
        assert table[C.OLWYN_DOUBLE] == doubles, (table[C.OLWYN_DOUBLE], doubles)
        del table[C.OLWYN_DOUBLE]
        assert +table == self.expected, _diff(self.expected, table)

        # The camp: at most 5 cards, of the current age; its discard only holds age-1
        # cards and is never mixed with the dwarf discard (R15).
        assert len(s.camp) <= C.CAMP_SIZE
        # (W9/E11 is in both ages' decks: one card type, compared by membership.)
        assert set(s.camp) <= set(C.camp_deck(s.age))
        assert set(s.camp_discard) <= set(C.camp_deck(1))
        # Cards discarded from an army go to the dwarf discard, mercenaries and Vegvisir
        # included (R15); no other artifact is ever discarded.
        assert all(c.kind is not Kind.ARTIFACT or c is C.VEGVISIR for c in s.discard)
        assert all(c.kind in (Kind.MERCENARY, Kind.ARTIFACT) for c in s.camp + s.camp_discard)

        # Coins: gold in the treasury or owned; 5 coins each, 4 after Járnglófi.
        owned = Counter(K.value(c) for p in s.players for c in p.coins() if K.is_gold(c))
        for v in range(C.MAX_COIN_VALUE + 1):
            assert s.treasury.counts[v] >= 0
            assert s.treasury.counts[v] + owned[v] == self.treasury.get(v, 0), v
        for p in s.players:
            coins = p.coins()
            jarnglofi = C.JARNGLOFI in p.command_zone
            assert len(coins) == (4 if jarnglofi else 5), (p.seat, K.labels(coins))
            exchange = [c for c in coins if K.is_exchange(c)]
            assert len(exchange) == (0 if jarnglofi else 1)

        # Ranks and hero counts follow the columns.
        for p in s.players:
            for suit in C.SUITS:
                assert p.ranks[suit] == sum(c.column_value(suit)[0] for c in p.army[suit])
                for c in p.army[suit]:
                    assert c.fits(suit), (c.token, suit)
            assert p.heroes == sum(1 for c in p.cards() if c.kind is Kind.HERO)


def _diff(expected: Counter[Card], got: Counter[Card]) -> str:
    missing = {c.token: k for c, k in (expected - got).items()}
    extra = {c.token: k for c, k in (got - expected).items()}
    return f"missing {missing}, extra {extra}"


def play(game: Game, rng: random.Random, ledger: Ledger, every_decision: bool) -> int:
    bound = decision_bound(game.config.players)
    steps = 0
    while not game.is_over:
        actions = game.legal_actions()
        assert actions, f"decision {game.decision} has no legal action"
        game.apply_fast(rng.choice(actions))
        steps += 1
        assert steps <= bound, f"no end after {bound} decisions"
        if every_decision:
            ledger.check()
    ledger.check()
    return steps


def check_end(game: Game) -> None:
    s = game.state
    assert game.is_over and game.decision is None and game.legal_actions() == []
    assert not s.decks[1] and not s.decks[2] and not s.drawn
    assert all(not t for t in s.taverns)
    for p in s.players:
        assert not p.held and p.bids == [None, None, None] and not p.purse
        # Every mercenary was enlisted (R14, R22); Thrud left the army.
        assert not any(c.kind is Kind.MERCENARY for c in p.command_zone)
        assert p.column_of(C.THRUD) is None
        if C.YLUD in p.cards():
            assert p.column_of(C.YLUD) is not None
    tables = [PlayerTable(name=game.names[p.seat],
                          army={suit: list(p.army[suit]) for suit in C.SUITS},
                          command_zone=list(p.command_zone),
                          coins=[K.value(c) for c in p.coins()], gem=p.gem)
              for p in s.players]
    sheet = score_table(tables, game.config.options)
    assert sheet.to_dict() == game.scores().to_dict()
    last = game.events[-1]
    assert isinstance(last, ev.GameEnded) and list(last.totals) == sheet.totals


@pytest.mark.parametrize("players", PLAYERS)
def test_conservation_at_every_decision(players: int) -> None:
    for seed in range(40):
        game = new_game(players, seed)
        ledger = Ledger(game)
        ledger.check()
        play(game, random.Random(seed), ledger, every_decision=True)
        check_end(game)


@pytest.mark.parametrize("players", PLAYERS)
def test_hundreds_of_games_end_conserve_and_score_consistently(players: int) -> None:
    seen: Counter[str] = Counter()
    for seed in range(1000, 1100):
        game = new_game(players, seed)
        play(game, random.Random(seed), Ledger(game), every_decision=False)
        check_end(game)
        seen.update(type(e).__name__ for e in game.events)
        seen.update(a.verb for _, a in game.history)
    # The expansion is exercised: camp visits, enlistment, camp refills.
    assert seen["camp"] and seen["enlist"] and seen["CampRefilled"]


@pytest.mark.parametrize("players", PLAYERS)
def test_replaying_the_record_gives_the_identical_state(players: int) -> None:
    for seed in range(12):
        game = new_game(players, 5000 + seed)
        rng = random.Random(seed)
        stop = rng.randrange(decision_bound(players) // 3) if seed % 3 == 0 else None
        while not game.is_over and (stop is None or len(game.history) < stop):
            game.apply_fast(rng.choice(game.legal_actions()))
        replayed = Game.from_record(game.to_record())
        assert replayed.state.fingerprint() == game.state.fingerprint()
        assert replayed.events == game.events
        assert replayed.log() == game.log()
