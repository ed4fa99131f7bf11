"""Every decision kind passes the one conformance check (tests/conformance.py), and every
hero is reached by its scripted game.

The kinds and heroes are read from their registries (:data:`nidavellir.rules.base.CHOICES`,
:data:`nidavellir.rules.heroes.HEROES`): a new kind or hero is checked without editing this
file. ``NIDAVELLIR_KINDS=bid,hero`` limits the kinds checked (to look at one while fixing it).
"""

from __future__ import annotations

import os
from functools import cache

import pytest
from conformance import check_position, collect
from scripted import recruit_game

from nidavellir.rules.base import CHOICES
from nidavellir.rules.heroes import HEROES


def _kinds() -> list[str]:
    chosen = os.environ.get("NIDAVELLIR_KINDS")
    if chosen:
        return [k.strip() for k in chosen.split(",") if k.strip()]
    return sorted(CHOICES)


@cache
def _positions() -> dict[str, list]:
    return collect(_kinds())


@pytest.mark.parametrize("kind", _kinds())
def test_every_decision_kind_conforms(kind: str) -> None:
    assert kind in CHOICES, f"no decision class declares the kind {kind!r}"
    positions = _positions().get(kind, [])
    assert positions, (f"no seeded or scripted game reaches a {kind!r} decision: give its "
                       "hero a scripted game (tests/scripted.py)")
    for game in positions:
        check_position(game)


@pytest.mark.parametrize("hero", [h.token for h in HEROES])
def test_every_hero_is_recruited_by_its_scripted_game(hero: str) -> None:
    from nidavellir.tokens import parse_token

    card = parse_token(hero)
    game = recruit_game(card)
    game.apply(f"hero {hero}")
    assert card in game.state.players[0].cards()


def test_a_control_that_cannot_draw_a_decision_says_so() -> None:
    """A decision's control is checked when its class is defined (``Control.check``): card
    tiles need a heading for every verb that names a card."""
    from nidavellir.actions import CARD, NO_ARGS
    from nidavellir.rules.controls import CardTiles

    CardTiles({"take": "Tavern"}).check("Pick", {"take": CARD, "skip": NO_ARGS})
    with pytest.raises(TypeError, match="heading for each verb"):
        CardTiles({"take": "Tavern"}).check("Pick", {"take": CARD, "camp": CARD})
