"""What the made-up hero of tests/plugin_hero.py does once installed as a plugin (only run
by tests/test_plugin_hero.py, in an interpreter with ``NIDAVELLIR_PLUGINS=plugin_hero``):
the files it registers in are the ones docs/engine.md's checklist names, and his remembered
choice goes everywhere a remembered choice must go with no line of its own: the state's
copy, fingerprint and undo, the record, the observation (public), the RL vector, the score
sheet at the end, a bot's own table, a scenario file.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from plugin_hero import EXPANSION, GULLI, POINTS, SWAP
from scripted import recruit_game

from nidavellir import Game, plugins
from nidavellir import coins as K
from nidavellir.integrations.encoding import (
    ACTIONS,
    HEAD_SIZE,
    PLAYER,
    PLAYER_SIZE,
    action_index,
    encode,
    read_published,
)
from nidavellir.rules.catalogue import MARKS
from nidavellir.scenario import loads_scenario
from nidavellir.scoring import own_table, score_table

ROOT = Path(__file__).resolve().parent.parent
#: The checklist's line in docs/engine.md.
CLAIM = re.compile(r"A hero with a remembered choice and a new kind of decision\*\*: "
                   r"\*\*(\d+) files\*\*")

pytestmark = pytest.mark.skipif("plugin_hero" not in plugins.LOADED,
                                reason="run by tests/test_plugin_hero.py with the plugin")


def test_the_plugin_registers_in_the_files_the_checklist_names() -> None:
    modules = {r.module for r in plugins.registered_by("plugin_hero")}
    files = sorted(m.replace(".", "/") + ".py" for m in modules)
    docs = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    claim = CLAIM.search(docs)
    assert claim, "docs/engine.md's checklist does not give the number of files"
    assert int(claim.group(1)) == len(files) == 3, files
    for name in files:
        assert f"`{name}`" in docs, f"docs/engine.md does not name {name}"


def _swapped() -> tuple[Game, str]:
    """A game where seat 0 has just recruited Gulli and swapped a coin; the coin given."""
    game = recruit_game(GULLI)
    game.apply(f"hero {GULLI.token}")
    d = game.decision
    assert d is not None and d.kind == SWAP and d.player == 0
    action = game.legal_actions()[-1]
    game.apply(action)
    return game, str(action.args[0])


def test_the_remembered_choice_is_kept_where_the_state_goes() -> None:
    game, coin = _swapped()
    assert game.config.expansions == (EXPANSION,)
    assert game.state.players[0].marks == {GULLI: coin}
    copy = game.clone()
    assert copy.state.players[0].marks == {GULLI: coin}
    assert copy.state.fingerprint() == game.state.fingerprint()
    copy.state.players[0].marks.clear()
    assert copy.state.fingerprint() != game.state.fingerprint()
    again = Game.from_record(json.loads(json.dumps(game.to_record())))
    assert again.state.fingerprint() == game.state.fingerprint()
    game.undo()
    assert GULLI not in game.state.players[0].marks


def test_everyone_sees_it_and_so_does_the_rl_vector() -> None:
    game, coin = _swapped()
    assert MARKS[GULLI].public
    start = HEAD_SIZE + sum(b.size for b in PLAYER if b.key != "marks")  # seat 0's marks
    offset = sum(len(m.values) for card, m in MARKS.items() if card is not GULLI
                 and list(MARKS).index(card) < list(MARKS).index(GULLI))
    for seat in range(game.config.players):
        obs = game.observation(seat)
        assert obs["players"][0]["marks"] == {GULLI.token: coin}
        vector = encode(obs)
        marks = vector[start:HEAD_SIZE + PLAYER_SIZE]
        assert sum(marks) == 1.0
        assert marks[offset + MARKS[GULLI].values.index(coin)] == 1.0


def test_the_coin_given_up_is_scored_at_the_end() -> None:
    game, coin = _swapped()
    rng = random.Random(3)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    lines = [d for d in game.scores()[0].details if d[1].startswith("Gulli")]
    assert lines == [("heroes", "Gulli", POINTS),
                     ("heroes", f"Gulli: the coin {coin} you gave up", K.label_value(coin))]
    # A bot scores its own table from its observation: the same points.
    mine = own_table(game.observation(0))
    assert mine.marks == {GULLI: coin}
    tables = game.tables()
    tables[0] = mine.but(name=tables[0].name)
    assert score_table(tables, game.config.options)[0].total == game.scores()[0].total


def test_a_scenario_file_says_what_he_remembers() -> None:
    text = """
expansions: [moneychangers]
players:
  - name: Ada
    army: {}
    command_zone: [Gulli]
    coins: [0, 2, 3, 4, 6]
    gem: 5
    marks: {Gulli: "5"}
  - name: Bo
    army: {}
    coins: [0, 2, 3, 4, 5]
    gem: 4
"""
    scenario = loads_scenario(text, "yaml")
    assert scenario.tables[0].marks == {GULLI: "5"}
    assert scenario.score()[0].breakdown["heroes"] == POINTS + 5


def test_his_actions_come_after_the_published_table() -> None:
    published = len(read_published()[1])
    assert len(ACTIONS) > published
    for text in (f"take {GULLI.token}", f"hero {GULLI.token}", "swap 5"):
        assert action_index(text) >= published, text


def test_a_saved_reason_about_recruiting_him_is_said_again() -> None:
    """A review keeps the coach's reasons as data (nidavellir/bots/judgement.py): one that
    the plugin's hero is recruited in more of the games is read back and said, as the
    coach says it."""
    from nidavellir.bots.judgement import held_reason, reason_words
    from nidavellir.events import origin

    item = {"held": "recruits", "card": GULLI.name, "exact": False, "for": True,
            "share": 0.7, "instead": 0.2}
    assert reason_words(item) == held_reason("recruits", origin(GULLI.name), False, True,
                                             0.7, 0.2)
