"""Game records (docs/notation.md, "Game records"; issue 3 item 5).

A record is JSON: format + version, the config, the seed, an optional explicit
deal (age decks in draw order, gems) and the actions in notation. Replaying a
record gives the identical game; a bad record raises RecordError naming the field
or the index of the offending action, and the reason.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from nidavellir import cards as C
from nidavellir.errors import RecordError
from nidavellir.game import RECORD_FORMAT, RECORD_VERSION, Game


def random_game(players: int, seed: int, steps: int | None = None, **kw: Any) -> Game:
    """A seeded game played with seeded random choices (to the end, or ``steps`` decisions)."""
    game = Game.new(players=players, seed=seed, **kw)
    rng = random.Random(seed)
    while not game.is_over and (steps is None or len(game.history) < steps):
        game.apply_fast(rng.choice(game.legal_actions()))
    return game


def assert_same_game(a: Game, b: Game) -> None:
    assert a.state.fingerprint() == b.state.fingerprint()
    assert a.events == b.events
    assert a.history == b.history
    assert a.log() == b.log()


# ---------------------------------------------------------------------- round trips

@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [0, 1, 2, 17])
def test_a_finished_game_replays_identically(players: int, seed: int) -> None:
    game = random_game(players, seed)
    assert game.is_over
    replayed = Game.from_record(game.to_record())
    assert_same_game(game, replayed)
    assert replayed.is_over
    assert replayed.scores().totals == game.scores().totals


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_game_in_progress_replays_to_the_same_decision(players: int) -> None:
    game = random_game(players, seed=100 + players, steps=25 * players)
    replayed = Game.from_record(game.to_record())
    assert_same_game(game, replayed)
    assert replayed.decision == game.decision
    # Both continue identically (the rng state is part of the fingerprint).
    rng = random.Random(5)
    while not game.is_over:
        action = rng.choice(game.legal_actions())
        game.apply(action)
        replayed.apply(str(action))
    assert_same_game(game, replayed)


def test_the_record_is_plain_json_with_format_version_config_seed_and_actions() -> None:
    game = random_game(3, seed=4, steps=10, names=["Ann", "Bo", "Cy"], first_game=True)
    record = game.to_record()
    assert json.loads(json.dumps(record)) == record
    assert record["format"] == RECORD_FORMAT
    assert record["version"] == RECORD_VERSION
    assert record["seed"] == 4
    assert record["config"]["players"] == 3
    assert record["config"]["names"] == ["Ann", "Bo", "Cy"]
    assert record["config"]["options"]["first_game"] is True
    assert record["actions"] == [str(a) for _, a in game.history]
    assert all(isinstance(a, str) for a in record["actions"])
    replayed = Game.from_record(json.loads(json.dumps(record)))
    assert replayed.names == ("Ann", "Bo", "Cy")
    assert replayed.config.options.first_game
    assert_same_game(game, replayed)


@pytest.mark.parametrize("players", [2, 5])
def test_save_and_load_through_a_file(tmp_path: Any, players: int) -> None:
    game = random_game(players, seed=9)
    path = tmp_path / "game.json"
    game.save(path)
    assert json.loads(path.read_text(encoding="utf-8"))["actions"]
    assert_same_game(game, Game.load(path))


def test_save_and_load_a_game_in_progress_with_unicode_names(tmp_path: Any) -> None:
    game = random_game(4, seed=3, steps=40, names=["Åsa", "Jörg", "Zoë", "Ívar"])
    path = tmp_path / "partial.json"
    game.save(path)
    loaded = Game.load(path)
    assert loaded.names == ("Åsa", "Jörg", "Zoë", "Ívar")
    assert_same_game(game, loaded)


def test_undo_is_not_recorded() -> None:
    game = random_game(3, seed=8, steps=20)
    before = game.to_record()
    game.apply(game.legal_actions()[0])
    game.undo()
    assert game.to_record() == before


# ---------------------------------------------------------------------- explicit deals

def _deck_tokens(age: int, players: int, seed: int) -> list[str]:
    deck = C.age_deck(age, players)
    random.Random(seed).shuffle(deck)
    return [c.token for c in deck]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_an_explicit_deal_is_honoured(players: int) -> None:
    age1 = _deck_tokens(1, players, seed=1)
    age2 = _deck_tokens(2, players, seed=2)
    gems = sorted(C.gems_for(players), reverse=True)
    deal = {"ages": {"1": age1, "2": age2}, "gems": gems}
    game = Game.new(players=players, seed=0, deal=deal)
    n = C.CARDS_PER_TAVERN[players]
    # The first round's taverns show the first cards of the listed age-1 deck, in order.
    shown = [[c.token for c in t] for t in game.state.taverns]
    assert shown == [age1[0:n], age1[n:2 * n], age1[2 * n:3 * n]]
    assert [p.gem for p in game.state.players] == gems
    # The rest of the deck, top first, is the rest of the list.
    assert [c.token for c in reversed(game.state.decks[1])] == age1[3 * n:]
    assert [c.token for c in reversed(game.state.decks[2])] == age2


def test_a_deal_of_gems_only_keeps_the_seeded_decks() -> None:
    plain = Game.new(players=4, seed=12)
    dealt = Game.new(players=4, seed=12, deal={"gems": [5, 4, 3, 2]})
    assert [p.gem for p in dealt.state.players] == [5, 4, 3, 2]
    assert dealt.state.decks == plain.state.decks
    assert dealt.state.taverns == plain.state.taverns


def test_an_explicit_deal_is_recorded_and_replayed(tmp_path: Any) -> None:
    age1 = _deck_tokens(1, 3, seed=5)
    deal = {"ages": {"1": age1}, "gems": [4, 5, 3]}
    game = Game.new(players=3, seed=2, deal=deal)
    rng = random.Random(2)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    record = game.to_record()
    assert record["deal"] == deal
    path = tmp_path / "scripted.json"
    game.save(path)
    loaded = Game.load(path)
    assert_same_game(game, loaded)
    # Without the deal the same actions do not fit the seeded decks.
    with pytest.raises(RecordError) as info:
        Game.from_record({**record, "deal": None})
    assert info.value.index is not None


# ---------------------------------------------------------------------- bad records

@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return random_game(3, seed=1, steps=40).to_record()


def bad(record: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(record)
    for key, value in changes.items():
        if value is ...:
            del out[key]
        else:
            out[key] = value
    return out


def record_error(rec: Any) -> RecordError:
    with pytest.raises(RecordError) as info:
        Game.from_record(rec)
    return info.value


def test_wrong_version(record: dict[str, Any]) -> None:
    err = record_error(bad(record, version=RECORD_VERSION + 1))
    assert err.field == "version" and err.index is None
    assert "version" in str(err) and str(RECORD_VERSION + 1) in str(err)


def test_missing_version(record: dict[str, Any]) -> None:
    assert record_error(bad(record, version=...)).field == "version"


def test_wrong_format(record: dict[str, Any]) -> None:
    err = record_error(bad(record, format="chess-pgn"))
    assert err.field == "format"


def test_not_an_object() -> None:
    assert "object" in str(record_error(["bid 5 4 3"]))


def test_missing_config(record: dict[str, Any]) -> None:
    err = record_error(bad(record, config=...))
    assert err.field == "config" and "missing" in str(err)


def test_unknown_config_key(record: dict[str, Any]) -> None:
    rec = bad(record)
    rec["config"]["colour"] = "red"
    err = record_error(rec)
    assert err.field == "config" and "colour" in str(err)


def test_bad_player_count(record: dict[str, Any]) -> None:
    rec = bad(record)
    rec["config"]["players"] = 6
    rec["config"]["names"] = [f"P{i}" for i in range(6)]
    err = record_error(rec)
    assert err.field == "config" and "2 to 5" in str(err)


def test_unknown_rule_option(record: dict[str, Any]) -> None:
    rec = bad(record)
    rec["config"]["options"]["dragons"] = True
    err = record_error(rec)
    assert err.field == "config" and "dragons" in str(err)


@pytest.mark.parametrize("seed", ["7", 7.0, None, True, [7]])
def test_bad_seed_type(record: dict[str, Any], seed: Any) -> None:
    err = record_error(bad(record, seed=seed))
    assert err.field == "seed" and "integer" in str(err)


def test_actions_not_a_list(record: dict[str, Any]) -> None:
    assert record_error(bad(record, actions="bid 5 4 3")).field == "actions"


def test_an_action_that_is_not_text(record: dict[str, Any]) -> None:
    rec = bad(record)
    rec["actions"][3] = 42
    err = record_error(rec)
    assert err.index == 3 and "action 3" in str(err)


def _first_index(rec: dict[str, Any], verb: str) -> int:
    return next(i for i, a in enumerate(rec["actions"]) if a.startswith(verb))


def test_an_illegal_action_names_its_index_and_the_reason(record: dict[str, Any]) -> None:
    k = _first_index(record, "take")
    rec = bad(record)
    rec["actions"][k] = "take Hourya"
    err = record_error(rec)
    assert err.index == k
    assert f"action {k}" in str(err)
    assert "take Hourya" in str(err) and "not in the" in str(err)


def test_a_bid_with_a_coin_not_owned(record: dict[str, Any]) -> None:
    rec = bad(record)
    rec["actions"][0] = "bid 25 4 3"
    err = record_error(rec)
    assert err.index == 0 and "action 0" in str(err)
    assert "do not have coin 25" in str(err)


def test_an_action_of_the_wrong_kind(record: dict[str, Any]) -> None:
    k = _first_index(record, "take")
    rec = bad(record)
    rec["actions"][k] = "bid 5 4 3"
    err = record_error(rec)
    assert err.index == k and "expected take" in str(err)


def test_an_extra_action_after_the_game_ended() -> None:
    rec = random_game(2, seed=3).to_record()
    n = len(rec["actions"])
    rec["actions"].append("bid 5 4 3")
    err = record_error(rec)
    assert err.index == n and f"action {n}" in str(err) and "over" in str(err)


@pytest.mark.parametrize("text, reason", [
    ("fly away", "unknown action"),
    ("bid 5 4", "3 coins"),
    ("bid 26 4 3", "0 to 25"),
    ("take Zzyzx", "unknown card"),
    ("", "empty"),
])
def test_unparseable_notation(record: dict[str, Any], text: str, reason: str) -> None:
    rec = bad(record)
    rec["actions"][2] = text
    err = record_error(rec)
    assert err.index == 2 and "action 2" in str(err)
    assert reason in str(err)


def test_the_deal_names_a_card_not_in_the_3_player_deck() -> None:
    tokens = [c.token for c in C.age_deck(1, 3)]
    assert "W10" not in tokens  # a 5-player card
    tokens[0] = "W10"
    rec = Game.new(players=3, seed=0).to_record()
    rec["deal"] = {"ages": {"1": tokens}}
    err = record_error(rec)
    assert err.field == "deal.ages.1"
    assert "W10" in str(err) and "does not match the box" in str(err)


def test_the_deal_misses_a_card() -> None:
    tokens = [c.token for c in C.age_deck(2, 4)][:-1]
    rec = Game.new(players=4, seed=0).to_record()
    rec["deal"] = {"ages": {"2": tokens}}
    err = record_error(rec)
    assert err.field == "deal.ages.2" and "missing" in str(err)


@pytest.mark.parametrize("gems", [[1, 2, 3], [3, 4], [3, 3, 5], [3, 4, 5, 2], "345"])
def test_the_deal_has_wrong_gems(gems: Any) -> None:
    rec = Game.new(players=3, seed=0).to_record()
    rec["deal"] = {"gems": gems}
    err = record_error(rec)
    assert err.field == "deal.gems" and "3, 4, 5" in str(err)


def test_the_deal_has_an_unknown_key() -> None:
    rec = Game.new(players=3, seed=0).to_record()
    rec["deal"] = {"ages": {}, "shuffle": []}
    err = record_error(rec)
    assert err.field == "deal" and "shuffle" in str(err)


def test_a_camp_deal_needs_thingvellir() -> None:
    rec = Game.new(players=3, seed=0).to_record()
    rec["deal"] = {"camp": {"1": []}}
    err = record_error(rec)
    assert err.field == "deal.camp" and "thingvellir" in str(err)


def test_the_deal_has_an_unknown_age() -> None:
    rec = Game.new(players=3, seed=0).to_record()
    rec["deal"] = {"ages": {"3": []}}
    assert record_error(rec).field == "deal.ages"


def test_the_deal_has_an_unknown_card_token() -> None:
    tokens = [c.token for c in C.age_deck(1, 3)]
    tokens[4] = "Zzyzx"
    rec = Game.new(players=3, seed=0).to_record()
    rec["deal"] = {"ages": {"1": tokens}}
    err = record_error(rec)
    assert "Zzyzx" in str(err)
    assert err.field == "deal.ages.1"


def test_the_deal_has_gems_that_are_not_numbers() -> None:
    rec = Game.new(players=3, seed=0).to_record()
    rec["deal"] = {"gems": [3, "a", 5]}
    err = record_error(rec)
    assert err.field == "deal.gems"


def test_load_a_file_that_is_not_json(tmp_path: Any) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordError, match="not JSON"):
        Game.load(path)


def test_load_a_missing_file(tmp_path: Any) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        Game.load(tmp_path / "nope.json")


# ---------------------------------------------------------------------- nidavellir replay

def test_replay_prints_the_log_and_the_final_score_sheet(tmp_path: Any, capsys: Any) -> None:
    from nidavellir.cli import main

    game = random_game(3, seed=6)
    path = tmp_path / "game.json"
    game.save(path)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    for line in game.log():
        assert line in out
    assert f"Game over after {len(game.history)} decisions." in out
    assert game.scores().to_text() in out
    assert out.index(game.log()[-1]) < out.index("Placing")


def test_replay_of_a_game_in_progress_says_where_it_stopped(tmp_path: Any, capsys: Any) -> None:
    from nidavellir.cli import main

    game = random_game(4, seed=6, steps=30)
    assert game.decision is not None
    path = tmp_path / "partial.json"
    game.save(path)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    who = game.names[game.decision.player]
    # 30 decisions played: the record stops at the 31st (decisions numbered from 1)
    assert f"stops at decision 31: {who} to {game.decision.kind}" in out
    assert game.scores().to_text() in out
    assert "Game over" not in out


def test_replay_of_a_bad_record_names_the_action_and_exits_2(tmp_path: Any,
                                                             capsys: Any) -> None:
    from nidavellir.cli import main

    record = random_game(3, seed=6, steps=30).to_record()
    k = _first_index(record, "take")
    record["actions"][k] = "take W10"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"error: action {k}: 'take W10'")
    assert "not in the" in captured.err


@pytest.mark.parametrize("content, message", [
    ("{not json", "is not JSON"),
    ('{"format": "nidavellir-record", "version": 99}', "unsupported version 99"),
])
def test_replay_of_a_broken_file_exits_2(tmp_path: Any, capsys: Any, content: str,
                                         message: str) -> None:
    from nidavellir.cli import main

    path = tmp_path / "broken.json"
    path.write_text(content, encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err


def test_replay_of_a_missing_file_exits_2(tmp_path: Any, capsys: Any) -> None:
    from nidavellir.cli import main

    assert main(["replay", str(tmp_path / "nope.json")]) == 2
    assert "error: cannot read" in capsys.readouterr().err


def test_the_replay_command_runs_as_a_program(tmp_path: Any) -> None:
    import subprocess
    import sys

    game = random_game(2, seed=11)
    path = tmp_path / "game.json"
    game.save(path)
    done = subprocess.run([sys.executable, "-m", "nidavellir", "replay", str(path)],
                          capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Game over after" in done.stdout and "Placing" in done.stdout
    path.write_text(json.dumps({**game.to_record(), "seed": "x"}), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "nidavellir", "replay", str(path)],
                          capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip() == "error: field 'seed': must be an integer, not 'x'"


def test_a_record_may_say_which_seats_people_played(record: dict[str, Any]) -> None:
    """``learners`` (the Play tab saves it): kept through a round trip and a clone; a record
    without it says nothing (None); a bad one is a RecordError naming the field."""
    game = Game.from_record(dict(record, learners=[1]))
    assert game.learners == (1,)
    assert game.to_record()["learners"] == [1]
    assert game.clone().learners == (1,)
    assert Game.from_record(game.to_record()).learners == (1,)
    plain = Game.from_record(record)
    assert plain.learners is None and "learners" not in plain.to_record()
    players = record["config"]["players"]
    for wrong in ([players], [-1], [0, 0], "0", [True], {"0": 1}):
        err = record_error(dict(record, learners=wrong))
        assert err.field == "learners" and "seat indices" in str(err), wrong
