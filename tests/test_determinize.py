"""Determinization and what a seat may know (issue 13, "What a player may know").

Twin games share the public history of a viewer and differ only in what the viewer cannot
see (unseen deck and camp order, another player's face-down bid and purse, the random
generator): their observations and their determinizations for one seed are identical.
A determinization never changes what the viewer has seen and keeps every invariant of the
property tests (tests/test_properties.py's Ledger).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest
from scripted import bid, deal_game, decision, play
from test_properties import Ledger

from nidavellir import coins as K
from nidavellir.bots import RandomBot, play_game
from nidavellir.determinize import heuristic_bid_model
from nidavellir.game import Game
from nidavellir.observer import Observer
from nidavellir.rules.decisions import PioneerKeep
from nidavellir.rules.flow import StartAge

TV = ("thingvellir",)


def at_decision(players: int, seed: int, index: int, expansions: tuple[str, ...] = ()) -> Game:
    game = play_game(players, "random", seed=seed, expansions=expansions)
    game.undo_to(index)
    return game


def find(players: int, seed: int, expansions: tuple[str, ...],
         want: Callable[[Game], bool]) -> Game:
    """The first decision of a seeded random game where ``want(game)`` holds."""
    full = play_game(players, "random", seed=seed, expansions=expansions)
    game = Game.new(players=players, seed=seed, expansions=expansions)
    for _, action in full.history:
        if want(game):
            return game
        game.apply_fast(action)
    raise AssertionError("no such decision")


def twin(game: Game, viewer: int, seed: int) -> Game:
    """A copy that differs from ``game`` only in what ``viewer`` cannot see."""
    other = game.clone()
    s = other.state
    rng = random.Random(seed)
    for decks in (s.decks, s.camp_decks):
        for age in decks:
            rng.shuffle(decks[age])
    for seat, taverns in Observer(viewer).hidden_bids(s).items():
        p = s.players[seat]
        pool = list(p.purse)
        for t in taverns:
            hidden = p.bids[t]
            assert hidden is not None
            pool.append(hidden)
        rng.shuffle(pool)
        for t in taverns:
            p.bids[t] = pool.pop()
        p.purse = pool
    s.rng.seed(rng.random())
    other._engine._legal = None
    other._engine._legal_set = None
    return other


def twin_pair(players: int, seed: int, expansions: tuple[str, ...] = ()
              ) -> tuple[Game, Game, int]:
    """(game, its twin, viewer): a pick with hidden bids, and a copy that differs only in
    what the picker cannot see."""
    game = find(players, seed, expansions, picking_with_hidden_bids)
    viewer = decision(game).player
    return game, differing_twins(game, viewer, count=1)[0], viewer


def differing_twins(game: Game, viewer: int, count: int = 2, tries: int = 6) -> list[Game]:
    """Up to ``count`` twins of ``game`` for ``viewer`` (twin seeds 0 to ``tries`` - 1) whose
    hidden state really differs; fails when none does."""
    found = []
    for k in range(tries):
        other = twin(game, viewer, seed=k)
        if hidden_differs(game, other):
            found.append(other)
            if len(found) == count:
                break
    assert found, "no twin differed in hidden state"
    return found


def hidden_differs(a: Game, b: Game) -> bool:
    sa, sb = a.state, b.state
    return (sa.decks != sb.decks or sa.camp_decks != sb.camp_decks
            or any(p.bids != q.bids for p, q in zip(sa.players, sb.players, strict=True)))


def has_hidden(game: Game, viewer: int) -> bool:
    """Whether anything is hidden from ``viewer``: cards in a deck or the camp's deck, or
    others' bids face down (in the last turns of age 2 nothing is, and no twin differs)."""
    s = game.state
    return (any(s.decks.values()) or any(s.camp_decks.values())
            or bool(Observer(viewer).hidden_bids(s)))


def picking_with_hidden_bids(g: Game) -> bool:
    d = g.decision
    return (d is not None and d.kind == "pick" and g.state.tavern == 0
            and bool(Observer(d.player).hidden_bids(g.state)))


@pytest.mark.parametrize("players,seed,expansions", [(3, 1, ()), (2, 2, TV), (4, 3, TV),
                                                     (5, 4, ())])
def test_twins_give_the_same_observation_and_determinization(
        players: int, seed: int, expansions: tuple[str, ...]) -> None:
    game = find(players, seed, expansions, picking_with_hidden_bids)
    viewer = decision(game).player
    other = differing_twins(game, viewer, count=1, tries=5)[0]
    assert other.observation(viewer) == game.observation(viewer)
    for s in (0, 1, 99):
        a = game.determinize(viewer, s).state.fingerprint()
        b = other.determinize(viewer, s).state.fingerprint()
        assert a == b


def test_a_determinization_never_changes_what_the_viewer_has_seen() -> None:
    for players, seed, exp in ((3, 5, ()), (4, 6, TV), (2, 7, TV)):
        full = play_game(players, "random", seed=seed, expansions=exp)
        for index in range(0, len(full.history), 9):
            game = full.clone()
            game.undo_to(index)
            for viewer in range(players):
                det = game.determinize(viewer, seed=index)
                assert det.observation(viewer) == game.observation(viewer)
                assert det.decision == game.decision
                assert [str(a) for a in det.legal_actions()] == \
                    [str(a) for a in game.legal_actions()] or decision(det).player != viewer


def test_determinizations_keep_every_invariant_and_play_to_the_end() -> None:
    for players, seed, exp in ((3, 8, ()), (5, 9, ()), (3, 10, TV), (4, 11, TV)):
        full = play_game(players, "random", seed=seed, expansions=exp)
        for index in range(3, len(full.history), 23):
            game = full.clone()
            game.undo_to(index)
            det = game.determinize(index % players, seed=index)
            ledger = Ledger(Game.new(players=players, seed=seed, expansions=exp))
            ledger.game = det
            ledger.check()
            bot = RandomBot(index)
            while not det.is_over:
                det.apply_fast(bot.choose(det))
                ledger.check()


def test_the_same_seed_gives_the_same_determinization_and_others_differ() -> None:
    game = at_decision(3, 12, 40, TV)
    a = game.determinize(1, 5).state.fingerprint()
    assert game.determinize(1, 5).state.fingerprint() == a
    assert len({game.determinize(1, s).state.fingerprint() for s in range(6)}) > 1


def test_hidden_bids_are_resampled_from_the_public_coin_set() -> None:
    game = find(3, 13, (), picking_with_hidden_bids)
    viewer = decision(game).player
    hidden = Observer(viewer).hidden_bids(game.state)
    seen = set()
    for s in range(40):
        det = game.determinize(viewer, s)
        for seat, taverns in hidden.items():
            real, fake = game.state.players[seat], det.state.players[seat]
            assert Counter(real.coins()) == Counter(fake.coins())
            for t in range(3):
                if t not in taverns:
                    assert real.bids[t] == fake.bids[t]
            seen.add((seat, tuple(fake.bids)))
    assert len(seen) > len(hidden)  # the bids really vary


def test_a_pioneer_draw_is_seen_only_by_its_winner() -> None:
    """Issue 13 contract: 'A Pioneer of the Kingdom draw is seen only by its winner'."""
    game = deal_game(3, gems=[3, 4, 5])
    s = game.state
    # Jump to the Pioneer decision of seat 0: three cards drawn from the age-2 deck.
    s.decks[1] = []
    s.drawn = [s.decks[2].pop() for _ in range(3)]
    s.tasks = [StartAge(2), PioneerKeep(0)]
    game._engine._legal = None
    drawn = list(s.drawn)
    assert game.determinize(0, 1).state.drawn == drawn
    others = {tuple(c.token for c in game.determinize(1, k).state.drawn) for k in range(10)}
    assert len(others) > 1
    assert "drawn" not in game.observation(1) and game.observation(0)["drawn"]


def test_a_coin_transformed_on_a_later_tavern_stays_where_the_history_put_it() -> None:
    """A Royal Offering transforms a face-down bid where it lies: the new coin lies face
    down (tests/test_rules_audit.py, DE example), but the public history announced the
    transform and its place, so every determinization keeps it there."""
    game = deal_game(3, age1=["+3", "W3", "W4", "H", "H", "H", "B", "B", "B"], gems=[3, 4, 5])
    play(game, "bid 4 5 3", "bid 3 4 2", "bid 2 3 4")
    play(game, "take +3", "transform 3@T3")
    obs = game.observation(1)
    assert obs["players"][0]["bids"] == ["4", "?", "?"]
    for k in range(10):
        assert K.label(bid(game.determinize(1, k), 0, 2)) == "6"


def test_after_a_trade_the_purse_is_known() -> None:
    game = deal_game(3, age1=["W3", "W4", "W5", "H", "H", "H", "B", "B", "B"], gems=[3, 4, 5])
    play(game, "bid 0 5 4", "bid 4 3 5", "bid 3 4 5")
    # Seat 0 bid the 0 on tavern 1: it is the lowest, picks last, then trades 2 + 3.
    while game.state.tavern == 0:
        game.apply(game.legal_actions()[0])
    purse = game.observation(1)["players"][0]["purse_known"]
    assert sorted(purse) == sorted(K.label(c) for c in game.state.players[0].purse)
    for k in range(10):
        det = game.determinize(1, k)
        assert sorted(det.state.players[0].purse) == sorted(game.state.players[0].purse)


def test_the_default_bid_model_reaches_every_legal_bid() -> None:
    game = find(3, 14, (), lambda g: g.decision is not None and g.decision.kind == "bid"
                and g.decision.player == 2 and g.state.round == 2)
    # Seats 0 and 1 have bid: deal seat 0's five coins again and again.
    p = game.state.players[0]
    pool = sorted([c for c in p.bids if c is not None] + p.purse)
    rng = random.Random(0)
    bids = Counter(tuple(heuristic_bid_model(game.state, 0, [0, 1, 2], pool, rng))
                   for _ in range(6000))
    distinct = len({tuple(c) for c in __import__("itertools").permutations(pool, 3)})
    assert len(bids) == distinct
    assert all(set(b) <= set(pool) for b in bids)


def test_observation_shows_every_coin_set_but_not_where_face_down_coins_lie() -> None:
    game = find(3, 15, (), picking_with_hidden_bids)
    viewer = decision(game).player
    obs = game.observation(viewer)
    for p, seen in zip(game.state.players, obs["players"], strict=True):
        assert seen["coins"] == [K.label(c) for c in sorted(p.coins())]
        if p.seat != viewer:
            assert "?" in seen["bids"] or p.seat not in Observer(viewer).hidden_bids(game.state)
            assert isinstance(seen["purse"], int)


def test_a_determinized_game_has_no_record_and_bad_viewers_are_refused() -> None:
    game = at_decision(3, 16, 10)
    det = game.determinize(0, 1)
    with pytest.raises(ValueError, match="determinized"):
        det.to_record()
    with pytest.raises(ValueError, match="no player"):
        game.determinize(3, 1)
    assert det.history == [] and not det.is_over
