"""What a walkthrough step says about its position is checked against the engine (issue
44): the ``checks`` of a step (nidavellir/lessons/claims.py), evaluated when a lesson is
read, so ``nidavellir lesson check`` refuses a step whose stated figure is not the game's."""

from __future__ import annotations

from pathlib import Path

import pytest

from nidavellir import Game
from nidavellir.cli import main
from nidavellir.lessons import LessonError, builtin, load
from nidavellir.lessons.claims import ClaimError, check, evaluate, split

FILES = Path(__file__).resolve().parent.parent / "nidavellir" / "lessons" / "files"
WALKTHROUGHS = sorted(p for p in (FILES / "walkthrough").glob("*.yaml")
                      if p.suffixes == [".yaml"])  # not the translations (base.de.yaml)


def _game() -> Game:
    """Two players, a few moves in: Ada took a card; Bo's hand is known to the table."""
    game = Game.new(players=2, seed=5, names=["Ada", "Bo"])
    game.apply("bid 5 3 0")
    game.apply("bid 4 2 0")
    return game


@pytest.mark.parametrize("path", WALKTHROUGHS, ids=lambda p: p.stem)
def test_every_shipped_walkthrough_states_its_figures_as_checked_claims(path: Path) -> None:
    lesson = load(path)
    claims = [c for s in lesson.steps for c in (*s.checks, *s.checks_after)]
    assert len(claims) >= 25, path.name
    # The last step's totals are claimed: the score pad the learner reads is the engine's.
    last = lesson.steps[-1]
    assert sum(c.startswith("points ") for c in last.checks) >= 2


def test_a_figure_the_game_does_not_have_is_refused_at_its_line(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    text = (FILES / "walkthrough" / "thingvellir.yaml").read_text(encoding="utf-8")
    assert "      - points You = 243\n" in text
    bad = tmp_path / "thingvellir.yaml"
    bad.write_text(text.replace("      - points You = 243\n", "      - points You = 240\n"),
                   encoding="utf-8")
    line = bad.read_text(encoding="utf-8").split("\n").index("      - points You = 240") + 1
    with pytest.raises(LessonError) as info:
        load(bad)
    assert info.value.line == line
    assert "claims 'points You = 240', but the game has 243" in str(info.value)
    assert main(["lesson", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:{line}:" in err and "the game has 243" in err


@pytest.mark.parametrize(("claim", "message"), [
    ("ranks Zed W = 1", "no player 'Zed'"),
    ("ranks Ada Q = 1", "'Q' is not a class"),
    ("points Ada bravery = 1", "'bravery' is not a score-sheet line"),
    ("colour Ada = red", "unknown claim 'colour'"),
    ("ranks Ada W", "a claim reads WHAT ARGS = VALUE"),
    ('now "take W99" = 1', "is not a move here"),
    ("best tavern W = W3", "expected best discard CLASS"),
])
def test_a_malformed_claim_is_named(claim: str, message: str) -> None:
    with pytest.raises(ClaimError, match=message):
        check(_game(), claim, learner=0)


def test_a_malformed_claim_in_a_file_names_its_line(tmp_path: Path) -> None:
    text = (FILES / "walkthrough" / "base.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "base.yaml"
    bad.write_text(text.replace("      - gem You = 3\n", "      - gem Yu = 3\n"), encoding="utf-8")
    with pytest.raises(LessonError, match=r"no player 'Yu'"):
        load(bad)


def test_each_claim_reads_the_engine() -> None:
    game = _game()
    seat = game.observation(0)["players"][0]
    assert evaluate(game, "gem Ada", 0) == str(seat["gem"])
    assert evaluate(game, "coins Ada purse", 0) == " ".join(sorted(seat["purse"], key=int))
    assert evaluate(game, "points Ada", 0) == str(game.scores()[0].total)
    assert evaluate(game, "points Ada coins", 0) == str(game.scores()[0].breakdown["coins"])
    assert evaluate(game, "lines Bo", 0) == "0"
    assert evaluate(game, "heroes Bo", 0) == "none"
    assert evaluate(game, "mercenaries Ada", 0) == "0"
    assert evaluate(game, "distinction King's Hand", 0) == "nobody"
    d = game.decision
    assert d is not None
    assert evaluate(game, "decision", 0) == f"{game.names[d.player]} {d.kind}"
    # "now" is what the score sheet shows right after the move, on a copy.
    move = str(game.legal_actions()[0])
    branch = game.clone()
    before = branch.scores()[d.player].total
    branch.apply(move)
    gain = branch.scores()[d.player].total - before
    assert evaluate(game, f'now "{move}"', d.player) == (f"{gain:+d}" if gain else "0")
    assert game.decision == d  # the game itself did not move


def test_values_compare_as_the_game_writes_them() -> None:
    game = _game()
    assert split('now "take E9" = +9') == ("now", ["take E9"], "+9")
    assert check(game, "lines Ada = 0", 0) is None
    assert check(game, "lines Ada = +0", 0) is None
    assert check(game, "lines Ada = 1", 0) == "the game has 0"
    assert check(game, "heroes Ada = none", 0) is None
    assert check(game, "distinction king's hand = Nobody", 0) is None


def test_the_discard_and_its_best_card() -> None:
    wt = builtin("thingvellir")
    game = Game.from_record(dict(wt.base, actions=[]))
    steps = {s.key: s for s in wt.steps}
    for step in wt.steps:
        for action in step.actions:
            game.apply(action)
        if step.key == "brisingamens-1":
            break
        if step.move:
            game.apply(step.move)
    assert evaluate(game, "best discard E", 0) == "E11"
    assert "E10" in evaluate(game, "discard E", 0).split()
    assert steps["brisingamens-1"].move == "choose E11"
