"""Every decision kind passes the one conformance check (tests/conformance.py), and every
hero is reached by its scripted game.

The kinds and heroes are read from their registries (:data:`nidavellir.rules.base.CHOICES`,
:data:`nidavellir.rules.heroes.HEROES`): a new kind or hero is checked without editing this
file. ``NIDAVELLIR_KINDS=swap,hero`` limits the kinds checked (the plugin test uses it).
"""

from __future__ import annotations

import hashlib
import os
from functools import cache

import pytest
from conformance import check_position, collect
from scripted import recruit_game

from nidavellir.actions import VERBS
from nidavellir.integrations.encoding import ACTIONS, PUBLISHED_VERBS
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


def test_the_rl_table_is_the_published_one() -> None:
    """The table the RL adapters have always used, index for index (the same catalogue and
    kinds give the same table); the published verbs' blocks come first, so a new kind's
    verbs come after them (tests/test_plugin_hero.py adds one)."""
    published = [t for t in ACTIONS if t.split()[0] in PUBLISHED_VERBS]
    assert ACTIONS[:len(published)] == tuple(published)
    assert {t.split()[0] for t in ACTIONS} == set(VERBS)
    assert len(ACTIONS) == 22_666
    digest = hashlib.sha256("\n".join(ACTIONS).encode()).hexdigest()
    assert digest == "32bf662aa6cb53c246334bea098a3e2f187725b2193081b80ca80b19da0a51bc"
