"""Fuzzing every parser a user feeds (issue 12): records, scenario files, action notation,
card tokens and coin labels, and the command line's arguments.

Inputs are structure-aware mutations of valid inputs (tests/fuzzing.py: drop, retype,
duplicate, insert fields and list items; huge numbers, NaN, wrong types at every depth)
plus random text. The only exceptions that may escape are the project's typed errors
(RecordError, ScenarioError, InvalidNotation, IllegalAction), each naming the field or the
action index; a live game is unchanged after a refused input.

The examples are derandomized (the same inputs on every run, so CI never flakes); set
``NIDAVELLIR_FUZZ=N`` to run N fresh random examples per test instead.
"""

from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from fuzzing import HOSTILE, LOOKALIKES, mutations, text_mutations
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nidavellir import cli
from nidavellir import coins as K
from nidavellir.actions import Action, parse_action
from nidavellir.bots import play_game
from nidavellir.cards import Card
from nidavellir.errors import IllegalAction, InvalidNotation, RecordError, ScenarioError
from nidavellir.game import Game
from nidavellir.rules.setup import new_state
from nidavellir.scenario import loads_scenario, parse_scenario
from nidavellir.tokens import parse_suit, parse_token

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

_RANDOM = os.environ.get("NIDAVELLIR_FUZZ")
if _RANDOM:
    FUZZ = settings(max_examples=int(_RANDOM), deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))
else:
    FUZZ = settings(derandomize=True, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))


def examples(n: int) -> settings:
    """``n`` derandomized examples (CI), or the count NIDAVELLIR_FUZZ asks for."""
    return FUZZ if _RANDOM else settings(FUZZ, max_examples=n)


# ---------------------------------------------------------------------- valid inputs

def _partial(players: int, seed: int, decisions: int, expansions: tuple[str, ...] = (),
             deal: bool = False) -> dict[str, Any]:
    """A record of the first ``decisions`` decisions of a random game (with its deal)."""
    full = play_game(players, "random", seed=seed, expansions=expansions)
    actions = [str(a) for _, a in full.history[:decisions]]
    rec = Game.new(players=players, seed=seed, expansions=expansions).to_record()
    rec["actions"] = actions
    if deal:
        s = new_state(full.config, seed)  # before the first deal
        rec["deal"] = {"ages": {str(a): [c.token for c in reversed(s.decks[a])] for a in (1, 2)},
                       "gems": [p.gem for p in s.players]}
        if expansions:
            rec["deal"]["camp"] = {str(a): [c.token for c in reversed(s.camp_decks[a])]
                                   for a in (1, 2)}
    return json.loads(json.dumps(rec))


RECORDS = [
    _partial(3, 1, 30),
    _partial(2, 2, 25, ("thingvellir",)),
    _partial(4, 3, 20, deal=True),
    _partial(3, 4, 15, ("thingvellir",), deal=True),
    _partial(5, 5, 12),
]

SCENARIOS = [yaml.safe_load(p.read_text(encoding="utf-8"))
             for p in sorted(EXAMPLES.iterdir()) if p.suffix in (".yaml", ".yml", ".json")
             and "players" in (yaml.safe_load(p.read_text(encoding="utf-8")) or {})]


def _notations() -> list[str]:
    seen: dict[str, None] = {}
    for seed, players, exp in ((1, 3, ()), (2, 2, ("thingvellir",)), (3, 4, ("thingvellir",))):
        game = play_game(players, "random", seed=seed, expansions=exp)
        replay = Game.new(players=players, seed=seed, expansions=exp)
        for _, action in game.history:
            for legal in replay.legal_actions():
                seen[str(legal)] = None
            replay.apply_fast(action)
    return list(seen)


NOTATIONS = _notations()


def _live_games() -> list[Game]:
    """Positions of every decision kind a user may type into."""
    out = []
    for seed, players, exp, at in ((1, 3, (), 0), (1, 3, (), 7), (2, 2, ("thingvellir",), 40),
                                   (3, 4, ("thingvellir",), 90), (5, 5, (), 60)):
        game = play_game(players, "random", seed=seed, expansions=exp)
        game.undo_to(min(at, len(game.history) - 1))
        out.append(game)
    return out


LIVE = _live_games()


# ---------------------------------------------------------------------- records

def _check_record_error(exc: RecordError, record: Any) -> None:
    assert str(exc)
    if isinstance(record, dict):
        assert exc.field is not None or exc.index is not None, f"unnamed: {exc}"


def test_the_valid_bases_replay() -> None:
    for rec in RECORDS:
        assert len(Game.from_record(rec).history) == len(rec["actions"])


def test_a_number_among_the_expansions_is_a_record_error() -> None:
    """The defect issue 12 names: ``config.expansions == [0]`` raised AttributeError."""
    rec = copy.deepcopy(RECORDS[0])
    rec["config"]["expansions"] = [0]
    with pytest.raises(RecordError) as info:
        Game.from_record(rec)
    assert info.value.field is not None and "expansion" in str(info.value)


@pytest.mark.slow(reason='a few hundred mutated records replayed: about 4 s of CPU')
@examples(400)
@given(record=mutations(RECORDS))
def test_mutated_records_raise_only_record_errors(record: Any) -> None:
    try:
        game = Game.from_record(record)
    except RecordError as exc:
        _check_record_error(exc, record)
        return
    # Accepted: it replays to a consistent game whose own record replays the same.
    again = Game.from_record(game.to_record())
    assert again.state.fingerprint() == game.state.fingerprint()


@examples(150)
@given(record=HOSTILE)
def test_random_values_as_records_raise_only_record_errors(record: Any) -> None:
    try:
        Game.from_record(record)
    except RecordError as exc:
        _check_record_error(exc, record)


@pytest.mark.slow(reason='a few hundred files of random bytes read as records: about 2.5 s of CPU')
@examples(150)
@given(data=st.one_of(st.binary(max_size=200), st.text(max_size=200),
                      text_mutations([json.dumps(r) for r in RECORDS[:2]], max_changes=4)))
def test_record_files_of_random_bytes_raise_only_record_errors(
        data: bytes | str, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("rec") / "game.json"
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8", errors="surrogatepass")
    else:
        path.write_bytes(data)
    try:
        Game.load(path)
    except RecordError as exc:
        assert str(exc)


# ---------------------------------------------------------------------- scenarios

def _check_scenario_error(exc: ScenarioError, data: Any) -> None:
    assert str(exc)
    if isinstance(data, dict) and isinstance(data.get("players"), list) and data["players"]:
        assert exc.field is not None or exc.player is not None, f"unnamed: {exc}"


@pytest.mark.slow(reason='a few hundred mutated scenario files scored: about 2 s of CPU')
@examples(400)
@given(data=mutations(SCENARIOS), hypothetical=st.booleans())
def test_mutated_scenarios_raise_only_scenario_errors(data: Any, hypothetical: bool) -> None:
    try:
        scenario = parse_scenario(data, hypothetical=hypothetical)
    except ScenarioError as exc:
        _check_scenario_error(exc, data)
        return
    sheet = scenario.score()
    assert sheet.to_text() and len(sheet.totals) == len(scenario.tables)
    # What was accepted writes back to a scenario that reads the same.
    again = parse_scenario(scenario.to_dict(), hypothetical=True)
    assert again.score().totals == sheet.totals


@examples(200)
@given(text=st.one_of(st.text(max_size=300),
                      text_mutations([yaml.safe_dump(s) for s in SCENARIOS], max_changes=5)),
       fmt=st.sampled_from(["yaml", "json"]))
def test_scenario_text_raises_only_scenario_errors(text: str, fmt: str) -> None:
    try:
        loads_scenario(text, fmt)
    except ScenarioError as exc:
        assert str(exc)


# ---------------------------------------------------------------------- notation and tokens

@examples(500)
@given(text=st.one_of(text_mutations(NOTATIONS), st.text(max_size=40),
                      st.sampled_from(LOOKALIKES)))
def test_mutated_notation_parses_or_raises_invalid_notation(text: str) -> None:
    try:
        action = parse_action(text)
    except InvalidNotation as exc:
        assert str(exc)
        return
    assert isinstance(action, Action)
    assert parse_action(str(action)) == action


@examples(400)
@given(text=st.one_of(text_mutations(NOTATIONS), st.sampled_from(NOTATIONS), HOSTILE),
       which=st.integers(0, len(LIVE) - 1))
def test_a_refused_action_leaves_a_live_game_unchanged(text: Any, which: int) -> None:
    game = LIVE[which]
    before = game.state.fingerprint()
    history = list(game.history)
    events = len(game.events)
    try:
        game.apply(text)
    except (IllegalAction, InvalidNotation) as exc:
        assert str(exc)
        assert game.state.fingerprint() == before
        assert game.history == history and len(game.events) == events
        return
    # Accepted: it was a legal action; take it back for the next example.
    game.undo()
    assert game.state.fingerprint() == before


@examples(400)
@given(text=st.one_of(st.text(max_size=20), st.sampled_from(LOOKALIKES),
                      text_mutations(["W7", "W6/E8", "Dwerg Ymir", "Mjöllnir", "+3", "Thrud"])))
def test_card_tokens_suits_and_coins_parse_or_raise_invalid_notation(text: str) -> None:
    for parse in (parse_token, parse_suit, K.parse_label):
        try:
            value = parse(text)
        except InvalidNotation as exc:
            assert str(exc)
            continue
        if parse is parse_token:
            assert isinstance(value, Card) and parse_token(value.token) is value
        elif parse is K.parse_label:
            assert K.parse_label(str(value)) == value


@examples(60)
@given(value=HOSTILE)
def test_non_text_tokens_raise_invalid_notation(value: Any) -> None:
    if isinstance(value, str):
        return
    for parse in (parse_token, parse_action):
        with pytest.raises(InvalidNotation):
            parse(value)


# ---------------------------------------------------------------------- the command line

def _argv_strategy(files: dict[str, str]) -> st.SearchStrategy[list[str]]:
    words = st.one_of(
        st.sampled_from(["score", "replay", "simulate", "--json", "--hypothetical", "--games",
                         "--players", "--bots", "--seed", "--workers", "--out", "--expansions",
                         "--no-progress", "-h", "--", "-"]),
        st.sampled_from(["0", "1", "2", "-1", "x", "1e9", "nan", "random", "greedy", "random,x",
                         "thingvellir", "nope", ""]),
        st.sampled_from(list(files.values())),
        # No digits: a random number of games could run for hours.
        st.text(alphabet=st.characters(blacklist_categories=("Nd", "No", "Cs")), max_size=8),
    )
    return st.lists(words, max_size=8)


@pytest.fixture(scope="module")
def cli_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("cli")
    (d / "bad.json").write_text("{not json", encoding="utf-8")
    (d / "bad.yaml").write_text("players: [1, 2", encoding="utf-8")
    (d / "record.json").write_text(json.dumps(RECORDS[0]), encoding="utf-8")
    return {
        "scenario": str(EXAMPLES / "rulebook_example.yaml"), "record": str(d / "record.json"),
        "bad_json": str(d / "bad.json"), "bad_yaml": str(d / "bad.yaml"), "dir": str(d),
        "missing": str(d / "missing.json"), "csv": str(d / "out.csv"),
        "txt": str(d / "out.txt"), "nodir": str(d / "no" / "out.csv"),
    }


@pytest.mark.slow(reason='the command line run on a few hundred argument lists: about 1.5 s of CPU')
def test_cli_arguments_give_exit_codes_never_tracebacks(
        cli_files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    @examples(250)
    @given(argv=_argv_strategy(cli_files), lead=st.sampled_from(["score", "replay", "simulate"]))
    def check(argv: list[str], lead: str) -> None:
        # Most runs name a real command so that its own checks are reached; the games
        # asked for stay few (numbers above come from a small vocabulary).
        args = [lead, *argv] if random.Random(len(argv)).random() < 0.8 else argv
        try:
            code = cli.main(args)
        except SystemExit as exc:  # argparse: usage error (2) or --help (0)
            code = exc.code if isinstance(exc.code, int) else 2
        assert code in (0, 2), (args, code)
        capsys.readouterr()

    check()


# ---------------------------------------------------------------------- new file formats

def _reviewed() -> list[dict[str, Any]]:
    """A reviewed game as a record with its review (issue 57), and in the old format
    (``nidavellir-review``, still read)."""
    from nidavellir.analysis.review import review, review_data

    game = play_game(2, "random", seed=7)
    game.undo_to(12)
    frame = review(game, level="search@3", seed=1)
    return [json.loads(json.dumps(review_data(game, frame))), json.loads(json.dumps({
        "format": "nidavellir-review", "version": 1, "record": game.to_record(),
        "level": "search@3", "review": json.loads(frame.to_json(orient="records"))}))]


REVIEWED = _reviewed()


@pytest.mark.slow(reason='a few hundred mutated reviewed games read: about 1.5 s of CPU')
@examples(250)
@given(data=mutations(REVIEWED))
def test_mutated_reviewed_games_raise_only_record_errors(data: Any) -> None:
    """Issue 12: every new file format is fuzzed too (a reviewed game, issue 14)."""
    from nidavellir.analysis.review import review_from_dict

    try:
        game, frame = review_from_dict(data)
    except RecordError as exc:
        _check_record_error(exc, data)
        return
    if frame is None:  # the review part was taken out: a plain record
        assert game.review is None
        return
    # A review may cover some seats only (the learner's, issue 41): each of its rows is
    # one decision of the record, none twice.
    steps = frame["step"].tolist()
    assert len(set(steps)) == len(steps)
    assert all(0 <= int(step) < len(game.history) for step in steps)


@examples(120)
@given(data=st.one_of(mutations([{"format": "nidavellir-simulation", "version": 1,
                                  "games": 5, "players": 2, "bots": ["random", "random"],
                                  "seed": 0, "expansions": [], "chunk": 5}]), HOSTILE))
def test_a_mutated_simulation_manifest_is_refused_cleanly(
        data: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A folder whose manifest was damaged: --resume refuses it with a clear message."""
    from nidavellir.analysis.simulate import MANIFEST, simulate_to_dir

    out = tmp_path_factory.mktemp("sim") / "run"
    out.mkdir()
    (out / MANIFEST).write_text(json.dumps(data), encoding="utf-8")
    try:
        summary = simulate_to_dir(out, 5, 2, "random", seed=0, progress=False, resume=True)
    except ValueError as exc:
        assert str(exc)
        return
    assert summary["games"] == 5
