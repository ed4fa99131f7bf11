"""Invariants over thousands of seeded random games, 2 to 5 players (as OpenSpiel tests its games).

Every game ends within a bound of decisions; at every decision the components are
conserved (cards, coins, gems); the engine's final scores equal the one scorer run
on a table built independently from the state; records replay to the identical
state; undo then redo is the identity; clones are independent.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nidavellir import cards as C
from nidavellir import coins as K
from nidavellir import events as ev
from nidavellir.cards import Card, Kind
from nidavellir.game import Game
from nidavellir.rules.setup import heroes_for
from nidavellir.scoring import PlayerTable, score_table

W, H, M, B, E = C.SUITS
OPTION_NAMES = ("first_game", "pioneer_tie_to_box", "warrior_bonus_without_warriors")
PROFILE = settings(derandomize=True, deadline=None, database=None,
                   suppress_health_check=[HealthCheck.too_slow])


def new_random_game(players: int, seed: int, thingvellir: bool = False) -> Game:
    """A seeded game; a fifth of the games switch on each rule option."""
    rng = random.Random(seed * 7919 + players)
    options = {name: rng.random() < 0.2 for name in OPTION_NAMES}
    expansions = (C.THINGVELLIR,) if thingvellir else ()
    return Game.new(players=players, seed=seed, options=options, expansions=expansions)


def decision_bound(players: int, thingvellir: bool = False) -> int:
    """An upper bound of decisions in a game: per round one bid and three picks per
    player, each pick followed by at most a few follow-ups (hero, transform, Thrud,
    discards; with Thingvellir also camp effects and Höfud's discards by every player);
    plus the end-of-age steps (with Thingvellir, enlistment of up to 12 mercenaries)."""
    rounds = 2 * C.ROUNDS_PER_AGE[players]
    if thingvellir:
        return rounds * players * (1 + 3 * 6) + 40 * players
    return rounds * players * (1 + 3 * 4) + 10 * players


# ---------------------------------------------------------------------- conservation

class Ledger:
    """What the table must hold, for one game, checked at every decision."""

    def __init__(self, game: Game) -> None:
        n = game.config.players
        self.game = game
        self.expected_cards = Counter(C.age_deck(1, n) + C.age_deck(2, n)
                                      + heroes_for(game.config))
        if game.config.thingvellir:
            self.expected_cards.update(C.camp_deck(1) + C.camp_deck(2))
        self.treasury = C.treasury(n)
        self.gems = sorted(C.gems_for(n))
        self.bronze = [Counter(p.coins()) for p in game.state.players]
        assert all(sorted(p.coins()) == sorted(K.STARTING_HAND) for p in game.state.players)

    def table_cards(self) -> Counter[Card]:
        s = self.game.state
        cards: list[Card] = []
        cards += s.decks[1] + s.decks[2]
        for t in s.taverns:
            cards += t
        cards += s.discard + s.box + s.drawn + s.hall
        cards += s.camp + s.camp_decks[1] + s.camp_decks[2] + s.camp_discard
        for p in s.players:
            cards += p.cards()
        return Counter(cards)

    def check(self) -> None:
        game = self.game
        s = game.state
        events = game.events
        awarded = {e.distinction: e.player for e in events
                   if isinstance(e, ev.DistinctionAwarded) and e.player is not None}

        # Cards: the box contents for this player count, every card exactly once.
        table = self.table_cards()
        for d in C.DISTINCTIONS:
            if d in awarded:
                assert table[d] == 1, f"{d.name} awarded but found {table[d]} times"
                assert d in s.players[awarded[d]].command_zone
            else:
                assert table[d] == 0, f"{d.name} not awarded but on the table"
            del table[d]
        special = 1 if C.KINGS_GREAT_ARMORER in awarded else 0
        assert table[C.SPECIAL_BLACKSMITH] == special
        del table[C.SPECIAL_BLACKSMITH]
        # Olwyn's two doubles come into play when she is recruited.
        olwyn = any(isinstance(e, ev.HeroRecruited) and e.hero is C.OLWYN for e in events)
        assert table[C.OLWYN_DOUBLE] == (C.OLWYN_DOUBLE_COUNT if olwyn else 0)
        del table[C.OLWYN_DOUBLE]
        assert +table == self.expected_cards, _diff(self.expected_cards, table)

        # Coins: every gold coin is in the treasury or owned by exactly one player.
        owned_gold = Counter(K.value(c) for p in s.players for c in p.coins() if K.is_gold(c))
        for v in range(C.MAX_COIN_VALUE + 1):
            assert s.treasury.counts[v] >= 0
            assert s.treasury.counts[v] + owned_gold[v] == self.treasury.get(v, 0), \
                f"gold {v}: treasury {s.treasury.counts[v]} + owned {owned_gold[v]}"
        # Járnglófi (Thingvellir) makes its owner discard the exchange coin.
        discarded = Counter(e.player for e in events if isinstance(e, ev.CoinDiscarded))
        for p, before in zip(s.players, self.bronze, strict=True):
            coins = p.coins()
            assert len(coins) == 5 - discarded[p.seat], f"player {p.seat} owns {len(coins)} coins"
            bronze = Counter(c for c in coins if K.kind(c) == K.BRONZE)
            # Bronze coins only ever leave the game (transforms, trades, the Hunting Master).
            assert not bronze - before, f"player {p.seat} gained bronze {bronze - before}"
            special = sum(1 for c in coins if c == K.HUNTER_COIN)
            if awarded.get(C.HUNTING_MASTER) != p.seat:
                assert special == 0
            elif not discarded[p.seat]:
                assert special == (0 if K.EXCHANGE_COIN in coins else 1)
            assert special <= 1
            self.bronze[p.seat] = bronze

        # Gems: the dealt gems, gem 6 replacing one when the Crown Jeweler is awarded.
        gems = [p.gem for p in s.players]
        assert len(set(gems)) == len(gems)
        if C.CROWN_JEWELER in awarded:
            holder = awarded[C.CROWN_JEWELER]
            assert gems[holder] == C.GEM_6
            (replaced,) = [e.old for e in events if isinstance(e, ev.GemReplaced)]
            rest = gems[:holder] + gems[holder + 1:]
            assert sorted(rest + [replaced]) == self.gems
        else:
            assert sorted(gems) == self.gems

        # Ranks are the sum of the columns (state.py keeps them incrementally).
        for p in s.players:
            for suit in C.SUITS:
                assert p.ranks[suit] == sum(c.column_value(suit)[0] for c in p.army[suit])
            assert p.heroes == sum(1 for c in p.cards() if c.kind is Kind.HERO)


def _diff(expected: Counter[Card], got: Counter[Card]) -> str:
    missing = {c.token: k for c, k in (expected - got).items()}
    extra = {c.token: k for c, k in (got - expected).items()}
    return f"missing {missing}, extra {extra}"


def independent_tables(game: Game) -> list[PlayerTable]:
    """The final table built straight from the state, not through Engine.final_tables."""
    return [PlayerTable(name=game.names[p.seat],
                        army={suit: list(p.army[suit]) for suit in C.SUITS},
                        command_zone=list(p.command_zone),
                        coins=[K.value(c) for c in p.coins()], gem=p.gem)
            for p in game.state.players]


def check_end(game: Game) -> None:
    s = game.state
    assert game.is_over and game.decision is None and game.legal_actions() == []
    assert not s.decks[1] and not s.decks[2] and not s.drawn
    assert all(not t for t in s.taverns)
    for p in s.players:
        assert not p.held and p.bids == [None, None, None] and not p.purse
        assert p.column_of(C.THRUD) is None  # she ends in the command zone (R14)
        # Every mercenary was enlisted (R14, R22).
        assert not any(c.kind is Kind.MERCENARY for c in p.command_zone)
        if C.YLUD in p.cards():
            assert p.column_of(C.YLUD) is not None  # placed at the end of the age
    sheet = score_table(independent_tables(game), game.config.options)
    assert sheet.to_dict() == game.scores().to_dict()
    last = game.events[-1]
    assert isinstance(last, ev.GameEnded)
    assert list(last.totals) == sheet.totals


def play(game: Game, rng: random.Random, ledger: Ledger | None = None,
         every_decision: bool = True) -> int:
    """Play to the end with random choices, checking the ledger at every decision (or
    at the first bid of every round); returns the number of decisions."""
    bound = decision_bound(game.config.players, game.config.thingvellir)
    steps = 0
    rounds = 0
    while not game.is_over:
        actions = game.legal_actions()
        assert actions, f"decision {game.decision} has no legal action"
        game.apply_fast(rng.choice(actions))
        steps += 1
        assert steps <= bound, f"no end after {bound} decisions"
        if ledger is not None:
            if every_decision:
                ledger.check()
            elif game.state.round != rounds:
                rounds = game.state.round
                ledger.check()
    if ledger is not None:
        ledger.check()
    return steps


# ---------------------------------------------------------------------- many games

@pytest.mark.slow(reason='125 seeded games, the ledger checked at every decision: 2 to 4 s of CPU')
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_conservation_at_every_decision(players: int) -> None:
    for seed in range(125):
        game = new_random_game(players, seed)
        ledger = Ledger(game)
        ledger.check()
        play(game, random.Random(seed), ledger)
        check_end(game)


@pytest.mark.slow(reason='375 seeded games scored against an independent table: about 2 s of CPU')
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_thousands_of_games_end_and_score_consistently(players: int) -> None:
    lengths = []
    for seed in range(1000, 1375):
        game = new_random_game(players, seed)
        lengths.append(play(game, random.Random(seed), Ledger(game), every_decision=False))
        check_end(game)
    assert max(lengths) <= decision_bound(players)
    # Every game has at least the bids and picks of every round.
    rounds = 2 * C.ROUNDS_PER_AGE[players]
    assert min(lengths) >= rounds * players * 4


# ---------------------------------------------------------------------- replay, undo, clone

@settings(PROFILE, max_examples=100)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), thingvellir=st.booleans())
def test_replaying_the_record_gives_the_identical_state(seed: int, players: int,
                                                        thingvellir: bool) -> None:
    game = new_random_game(players, seed, thingvellir)
    rng = random.Random(seed)
    stop = rng.randrange(decision_bound(players) // 3) if rng.random() < 0.3 else None
    while not game.is_over and (stop is None or len(game.history) < stop):
        game.apply_fast(rng.choice(game.legal_actions()))
    replayed = Game.from_record(game.to_record())
    assert replayed.state.fingerprint() == game.state.fingerprint()
    assert replayed.events == game.events
    assert replayed.log() == game.log()


@pytest.mark.slow(reason="hypothesis's examples, each a game undone and redone: about 2 s of CPU")
@settings(PROFILE, max_examples=80)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), thingvellir=st.booleans(),
       points=st.lists(st.floats(0, 1, exclude_max=True), min_size=1, max_size=4))
def test_undo_then_redo_is_the_identity(seed: int, players: int, thingvellir: bool,
                                        points: list[float]) -> None:
    game = new_random_game(players, seed, thingvellir)
    rng = random.Random(seed)
    actions: list[Any] = []
    while not game.is_over:
        action = rng.choice(game.legal_actions())
        game.apply_fast(action)
        actions.append(action)
    end = game.state.fingerprint()
    end_events = list(game.events)
    for point in points:
        k = int(point * len(actions))
        steps = min(1 + int(point * 7), len(actions) - k) or 1
        game.undo_to(k)
        at_k = game.state.fingerprint()
        assert len(game.history) == k
        # Redo a few decisions, undo them, and get the same state back.
        for a in actions[k:k + steps]:
            game.apply(a)
        game.undo(steps)
        assert game.state.fingerprint() == at_k
        for a in actions[k:]:
            game.apply(a)
        assert game.state.fingerprint() == end
        assert game.events == end_events


@settings(PROFILE, max_examples=80)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), thingvellir=st.booleans(),
       point=st.floats(0, 1, exclude_max=True))
def test_a_clone_is_independent(seed: int, players: int, thingvellir: bool,
                                point: float) -> None:
    game = new_random_game(players, seed, thingvellir)
    rng = random.Random(seed)
    stop = int(point * decision_bound(players) / 2)
    while not game.is_over and len(game.history) < stop:
        game.apply_fast(rng.choice(game.legal_actions()))
    before = game.state.fingerprint()
    events = list(game.events)
    clone = game.clone()
    assert clone.state.fingerprint() == before
    # Play the clone to the end, with undo on the way: the original does not move.
    other = random.Random(seed + 1)
    while not clone.is_over:
        clone.apply(other.choice(clone.legal_actions()))
    if clone.history:
        clone.undo()
    assert game.state.fingerprint() == before
    assert game.events == events
    # And the other way round.
    snapshot = clone.state.fingerprint()
    while not game.is_over:
        game.apply_fast(rng.choice(game.legal_actions()))
    assert clone.state.fingerprint() == snapshot


def test_apply_and_apply_fast_agree() -> None:
    for seed in range(40):
        players = 2 + seed % 4
        a = new_random_game(players, seed, thingvellir=seed % 2 == 1)
        b = new_random_game(players, seed, thingvellir=seed % 2 == 1)
        rng = random.Random(seed)
        while not a.is_over:
            action = rng.choice(a.legal_actions())
            a.apply(action)
            b.apply_fast(action)
            assert a.state.fingerprint() == b.state.fingerprint()
        assert a.events == b.events
