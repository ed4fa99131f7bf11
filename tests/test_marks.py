"""What a card remembers (issue 59, item 1): one per-player place, ``PlayerState.marks``,
declared on the card's entry (``Mark``) and carried by the state's copy and fingerprint, the
score view, the observation (public, or its owner's only) and the determinizations, with no
line of its own there. Zolkur's mark (he lies on the purse until the next trade) is the
lab's own; a private mark is declared here for the test. tests/plugin_hero_checks.py follows
a remembered choice scored at the end through every layer.
"""

from __future__ import annotations

import random

import pytest
from scripted import set_army

from nidavellir import Game
from nidavellir import cards as C
from nidavellir.determinize import determinize_state
from nidavellir.integrations.encoding import encode
from nidavellir.rules.cardrules import Mark
from nidavellir.rules.catalogue import MARKS
from nidavellir.scoring import tables_of


def _zolkur_game() -> Game:
    game = Game.new(players=3, seed=4, expansions=(C.THINGVELLIR,))
    set_army(game, 1, None, command_zone=["Zolkur"])
    game.state.players[1].marks[C.ZOLKUR] = True
    return game


def test_zolkurs_mark_is_declared_public_on_his_entry() -> None:
    assert MARKS[C.ZOLKUR] == Mark(values=(True,), public=True)


def test_the_state_carries_a_mark() -> None:
    game = _zolkur_game()
    copy = game.state.copy()
    assert copy.players[1].marks == {C.ZOLKUR: True}
    assert copy.fingerprint() == game.state.fingerprint()
    copy.players[1].marks.clear()
    assert copy.fingerprint() != game.state.fingerprint()
    assert game.state.players[1].marks == {C.ZOLKUR: True}  # the copy's own dict
    assert tables_of(game.state)[1].marks == {C.ZOLKUR: True}


def test_every_seat_sees_a_public_mark_and_the_rl_vector_shows_it() -> None:
    game = _zolkur_game()
    for seat in range(3):
        assert game.observation(seat)["players"][1]["marks"] == {"Zolkur": True}
    plain = game.clone()
    plain.state.players[1].marks.clear()
    assert plain.observation(0)["players"][1]["marks"] == {}
    assert encode(plain.observation(0)) != encode(game.observation(0))


def test_a_private_mark_is_its_owners_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Twin games that differ only in seat 1's private mark: seat 0's observation and its
    determinizations are the same; seat 1 sees its own."""
    monkeypatch.setitem(MARKS, C.ASTRID, Mark(values=(1, 2, 3, 4, 5, 6, 7, 8), public=False))
    twins = []
    for value in (3, 7):
        game = Game.new(players=3, seed=9)
        set_army(game, 1, None, command_zone=["Astrid"])
        game.state.players[1].marks[C.ASTRID] = value
        twins.append(game)
    a, b = twins
    assert a.observation(0) == b.observation(0)
    assert a.observation(0)["players"][1]["marks"] == {}
    assert a.observation(1)["players"][1]["marks"] == {"Astrid": 3}
    for seed in range(5):
        da = determinize_state(a.state, 0, random.Random(seed))
        db = determinize_state(b.state, 0, random.Random(seed))
        assert da.fingerprint() == db.fingerprint()
        assert da.players[1].marks[C.ASTRID] in MARKS[C.ASTRID].values
    drawn = {determinize_state(a.state, 0, random.Random(s)).players[1].marks[C.ASTRID]
             for s in range(40)}
    assert len(drawn) > 1  # drawn again, not the true 3 each time
    mine = determinize_state(a.state, 1, random.Random(0))
    assert mine.players[1].marks[C.ASTRID] == 3


def test_a_mark_no_card_declares_is_refused_by_the_observer() -> None:
    game = Game.new(players=2, seed=1)
    game.state.players[1].marks[C.SKAA] = True
    with pytest.raises(KeyError):
        game.observation(0)


def test_the_board_shows_what_a_card_remembers() -> None:
    from widgets import render

    game = _zolkur_game()
    player = game.observation(0)["players"][1]
    shown = render.board_html(player, points=render.sheet_points(
        game.scores()[1].breakdown))
    assert "nid-mark" in shown and "Zolkur" in render.marks_html(player["marks"])
    assert render.marks_html({}) == ""
