"""Issue 45 item 7: "What would you play here?" steps in lesson files.

A position step (a record and a decision number, or an inline game; the seat; the
question) is checked when read: a bad record, a decision out of range, a seat that does not
decide there is one sentence at its line from ``nidavellir lesson check``. The shipped
example checks; its view is the deciding seat's only (twin positions that differ only in
what the seat cannot know show the same); a move that is not legal there is refused with
why; the coach's figures are judged once per position."""

from __future__ import annotations

import copy
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from nidavellir.lessons import LessonError, load
from nidavellir.lessons.position import PositionStep, coach_figures, position_game

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "lessons" / "what_would_you_play.yaml"
RECORD = ROOT / "examples" / "lessons" / "records" / "greedy_seed7.json"

LESSON = """\
kind: probability
key: positions
title: Positions
summary: A position question.
steps:
  - key: bid
    title: The bid
    situation: Round 4 of age 1.
    position:
{position}
    question: What do you bid?
"""


def _write(tmp_path: Path, position: str, record: dict | None = None) -> Path:
    if record is not None:
        (tmp_path / "game.json").write_text(json.dumps(record), encoding="utf-8")
    path = tmp_path / "positions.yaml"
    indented = "\n".join("      " + line for line in position.strip().splitlines())
    path.write_text(LESSON.format(position=indented), encoding="utf-8")
    return path


def _record() -> dict:
    return json.loads(RECORD.read_text(encoding="utf-8"))


def _check(*files: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "nidavellir", "lesson", "check",
                           *map(str, files)], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


def test_the_shipped_position_lesson_checks_and_shows_cai_holding_2_5_7() -> None:
    done = _check(EXAMPLE)
    assert done.returncode == 0, done.stderr
    assert "ok (probability “what-would-you-play”, 1 step; en, de, fr)" in done.stdout
    step = load(EXAMPLE).steps[0]
    assert isinstance(step, PositionStep)
    view = step.view()
    me = view["players"][step.seat]
    assert me["name"] == "Cai" and view["age"] == 1 and view["round"] == 4
    assert {"2", "5", "7"} <= set(me["hand"])
    assert view["decision"]["kind"] == "bid" and view["decision"]["player"] == step.seat
    assert len(view["legal_actions"]) == 60
    shown = subprocess.run([sys.executable, "-m", "nidavellir", "lesson", "show",
                            str(EXAMPLE)], capture_output=True, text=True, cwd=ROOT,
                           timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert "Decision 44: Cai (seat 2)" in shown.stdout and "60 legal moves" in shown.stdout
    # In the reader's language: the position's lines, the taverns' names, the count.
    shown = subprocess.run([sys.executable, "-m", "nidavellir", "--language", "de", "lesson",
                            "show", str(EXAMPLE)], capture_output=True, text=True, cwd=ROOT,
                           timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert "Entscheidung 44: Cai (Platz 2), Zeitalter 1, Runde 4: " in shown.stdout
    assert "(60 erlaubte Züge: bid 0 2 5," in shown.stdout
    assert "legal moves" not in shown.stdout and "Laughing Goblin" not in shown.stdout


@pytest.mark.parametrize(("position", "record", "line", "says"), [
    ("record: game.json\ndecision: 200\nseat: 2", _record(), 11,
     "steps[0].position.decision must be a decision of the record, 1 to 112, not 200"),
    ("record: game.json\ndecision: 0", _record(), 11,
     "must be a decision of the record, 1 to 112, not 0"),
    ("record: game.json\ndecision: 44\nseat: Ada", _record(), 12,
     "steps[0].position.seat: Ada (seat 0) does not decide at decision 44: Cai (seat 2) "
     "does"),
    ("record: game.json\ndecision: 44\nseat: 7", _record(), 12,
     "must be a seat from 0 to 2 or a player's name (Ada, Bo, Cai), not 7"),
    ("record: missing.json\ndecision: 1", None, 10,
     "no record file 'missing.json' beside the lesson"),
    ("record: game.json\ndecision: 3", {**_record(), "actions": ["bid 5 4 3", "take XX"]},
     10, "steps[0].position.record cannot be replayed: action 1: 'take XX': unknown card "
     "token 'XX'"),
    ("record: game.json\ndecision: 3", {**_record(), "version": 9}, 10,
     "cannot be replayed: field 'version': unsupported version 9; this engine reads "
     "version 1"),
    ("record: game.json", _record(), 10, "has a record but no 'decision'"),
    ("game: {players: 3, seed: 7}\nrecord: game.json\ndecision: 1", _record(), 10,
     "needs either a record (with a decision number) or a game"),
    ("game: {players: 3, seed: 7, actions: [bid 5 4 3, bid 9 9 9]}", None, 10,
     "steps[0].position.game.actions[1]: 'bid 9 9 9' cannot be played here: Player 2 "
     "cannot bid 9 9 9: you do not have coin 9 to bid"),
    ("game: {players: 3, seed: 7}\ndecision: 1", None, 11,
     "a decision number goes with a record"),
    ("game: {players: 3, seed: 7}\nlevel: brilliant", None, 11,
     "steps[0].position.level"),
])
def test_lesson_check_names_a_bad_position_in_one_sentence(
        tmp_path: Path, position: str, record: dict | None, line: int, says: str) -> None:
    path = _write(tmp_path, position, record)
    with pytest.raises(LessonError) as err:
        load(path)
    assert err.value.line == line, err.value
    assert says in err.value.message, err.value.message
    done = _check(path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [f"error: {path}:{line}: {err.value.message}"]
    assert "Traceback" not in done.stderr


def test_an_inline_game_is_the_position_after_its_actions(tmp_path: Path) -> None:
    step = load(_write(tmp_path, "game: {players: 3, seed: 7, actions: [bid 5 4 3]}")).steps[0]
    assert isinstance(step, PositionStep)
    assert step.decision == 2 and step.seat == 1
    assert step.view()["taverns"][0] == ["E8", "B", "H"]


def test_a_seat_is_the_deciding_seat_unless_named(tmp_path: Path) -> None:
    step = load(_write(tmp_path, "record: game.json\ndecision: 44", _record())).steps[0]
    assert isinstance(step, PositionStep) and step.seat == 2


def test_twin_positions_differing_in_hidden_state_show_the_same_view(tmp_path: Path) -> None:
    """Ada's face-down bid (decision 42) and the rest of the game after decision 44 are
    what Cai cannot know: changing them changes nothing Cai's view shows."""
    record = _record()
    assert record["actions"][41] == "bid 12 8 0"  # Ada's bid, face down for Cai
    twin = copy.deepcopy(record)
    twin["actions"][41] = "bid 8 12 5"
    twin["actions"] = twin["actions"][:43]  # the future is not part of the position
    one = load(_write(tmp_path, "record: game.json\ndecision: 44", record)).steps[0]
    other_dir = tmp_path / "twin"
    other_dir.mkdir()
    two = load(_write(other_dir, "record: game.json\ndecision: 44", twin)).steps[0]
    assert isinstance(one, PositionStep) and isinstance(two, PositionStep)
    assert position_game(one.record, 44).state != position_game(two.record, 44).state
    assert one.view() == two.view()
    # What the seat may see does show: Ada's own view differs (her bid is hers).
    assert (position_game(one.record, 44).observation(0)
            != position_game(two.record, 44).observation(0))


def test_a_move_that_is_not_legal_there_is_refused_with_why() -> None:
    step = load(EXAMPLE).steps[0]
    assert isinstance(step, PositionStep)
    assert step.check_move("  bid 2 5 7 ") == "bid 2 5 7"
    with pytest.raises(ValueError, match=r"'bid 2 5 9' is not a legal move of this position"):
        step.check_move("bid 2 5 9")
    with pytest.raises(ValueError, match=r"'take H' is not a legal move of this position"):
        step.check_move("take H")
    with pytest.raises(ValueError, match=r"'hello' is not a move in notation"):
        step.check_move("hello")
    with pytest.raises(ValueError, match=r"is a move in notation"):
        step.check_move(None)


def _counting_searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The judge's searches (not its answers from the judgements it keeps), counted."""
    J = importlib.import_module("nidavellir.bots.judge")
    J.clear_cache()
    calls: list[str] = []
    real = J._judge

    def counting(game, lvl, *args, **kw):  # type: ignore[no-untyped-def]
        calls.append(lvl.name)
        return real(game, lvl, *args, **kw)

    monkeypatch.setattr(J, "_judge", counting)
    return calls


def test_the_coach_judges_each_position_once_with_every_option(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Asked again, the position is not searched again (the judge keeps its last
    judgements): the same figures at once."""
    calls = _counting_searches(monkeypatch)
    record = {"format": "nidavellir-record", "version": 1,
              "config": {"players": 2}, "seed": 3, "actions": []}
    first = coach_figures(record, 1, "search@40")
    again = coach_figures(record, 1, "search@40")
    assert first == again and calls == ["search@40"]
    moves = [m for o in first["options"] for m in o["moves"]]
    assert sorted(moves) == sorted(str(a) for a in position_game(record, 1).legal_actions())
    for o in first["options"]:
        assert 0 <= o["win"] <= 1 and o["win_se"] >= 0 and o["score_se"] >= 0
    assert first["options"][0]["about_best"] and first["seconds"] > 0


def test_the_coachs_figures_are_worded_in_each_pages_language(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A German page after an English one reads German words, from the same judgement
    (judged once: the numbers are the same in every language)."""
    from nidavellir import i18n
    from nidavellir.lessons.position import judge_position

    calls = _counting_searches(monkeypatch)
    record = {"format": "nidavellir-record", "version": 1,
              "config": {"players": 2}, "seed": 3, "actions": []}
    with i18n.using("en"):
        judgement = judge_position(record, 1, "search@40")
        english = coach_figures(record, 1, "search@40", judgement)
    with i18n.using("de"):
        german = coach_figures(record, 1, "search@40", judgement)
        game = position_game(record, 1)
        decision = game.decision
        assert decision is not None
        said = {str(a): decision.task.say(game.engine, a) for a in game.legal_actions()}
    assert calls == ["search@40"]
    assert [o["win"] for o in german["options"]] == [o["win"] for o in english["options"]]
    for en, de in zip(english["options"], german["options"], strict=True):
        assert de["words"] == said[de["move"]] != en["words"]
    assert all(o["words"].startswith("Biete ") for o in german["options"])
