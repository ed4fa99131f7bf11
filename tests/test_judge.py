"""The coach's one judgement (issue 25): one currency, the reason why, honest previews, and
the same answer in the Hint, What-if, the review and ``nidavellir hint``.

Positions come from seeded games and from scripted tables whose right reason is known (a
Dagda discard that ties the warrior majority, a pick that completes a line, a bid that
leaves the highest coin off the best tavern). Hidden information is checked with twin games
that differ only in what the deciding seat cannot see.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from scripted import deal_game, set_army, set_coins
from test_determinize import differing_twins, has_hidden, twin_pair
from test_search import POSITIONS

from nidavellir import cards as C
from nidavellir.analysis.review import judge_move
from nidavellir.analysis.whatif import what_if
from nidavellir.bots import play_game
from nidavellir.bots.judge import (
    Comparison,
    Judgement,
    estimate_position,
    immediates,
    judge,
    parse_level,
    position_seed,
    sheet_if_ended,
)
from nidavellir.cli import main
from nidavellir.game import Game
from nidavellir.rules.decisions import ColumnDiscard

LEVEL = "search@60"
TV = ("thingvellir",)


def positions(n: int = 4) -> list[Game]:
    """Small decisions (2-8 options) from seeded games, base and Thingvellir."""
    out: list[Game] = []
    for seed, exp in ((11, ()), (12, TV), (13, ()), (14, TV)):
        full = play_game(3, "random", seed=seed, expansions=exp)
        g = Game.new(players=3, seed=seed, expansions=exp)
        for i, (_, action) in enumerate(full.history):
            if i > 20 and 2 <= len(g.legal_actions()) <= 8 and i % 11 == seed % 11:
                out.append(g.clone())
                break
            g.apply_fast(action)
    return out[:n]


# ====================================================================== one currency

def check_currency(j: Judgement) -> None:
    """The recommendation first; no checked option worth more in the currency it is ranked
    by; every comparison's difference in that currency is not negative, and its reasons only
    cite what favours the recommendation."""
    best = j.options[0]
    assert best.action == j.best and best.verified
    for o in j.options[1:]:
        if not o.verified:
            assert o.value <= best.value or o.value != o.value
            continue
        assert o.value <= best.value
        cmp = j.compare(o.action)
        assert cmp.value >= 0
        check_reasons(cmp)


def check_reasons(cmp: Comparison) -> None:
    text = cmp.summary()
    if "fewer expected points" in text:
        assert text.startswith("safer")
    assert not text.startswith("-")
    for reason in cmp.why:
        m = re.search(r"your [a-z 6]+ ([+-][\d.]+) points", reason)
        if m:
            assert float(m.group(1)) > 0, reason
        m = re.search(r": (\d+)% instead of (\d+)%", reason)
        if m:
            assert int(m.group(1)) > int(m.group(2)), reason
        assert "lower" not in reason, reason
    for reason in cmp.but:
        m = re.search(r"your [a-z 6]+ ([+-][\d.]+) points", reason)
        if m:
            assert float(m.group(1)) < 0, reason
        m = re.search(r": (\d+)% instead of (\d+)%", reason)
        if m:
            assert int(m.group(1)) < int(m.group(2)), reason


@pytest.mark.parametrize("index", range(4))
def test_one_currency_and_reasons_that_favour_the_recommendation(index: int) -> None:
    game = positions()[index]
    j = judge(game, level=LEVEL, verify=12)
    check_currency(j)
    text = j.to_dict()["reason"]
    assert text.startswith(str(j.best)) and "rather than" in text


# ====================================================================== one judgement

@pytest.mark.parametrize("index", range(3))
def test_hint_whatif_review_and_cli_give_the_same_best_move(index: int, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    game = positions()[index]
    j = judge(game, level=LEVEL)
    table = what_if(game, level=LEVEL)
    assert table[table["rank"] == 1]["action"].item() == str(j.best)
    # The review judges the move played with the same seed (from the position as the seat
    # sees it): its better move is the Hint's move unless the move played was better still.
    for played in game.legal_actions()[:3]:
        row = judge_move(game, str(played), level=LEVEL)
        if row["best"] != str(played):
            assert row["best"] == str(j.best)
    # nidavellir hint on the record, at that decision.
    full = game.clone()
    record = tmp_path / "game.json"
    full.save(record)
    number = len(game.history) + 1
    assert main(["hint", str(record), "--level", LEVEL, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["decision"] == number
    assert data["best"] == str(j.best) and data["options"][0]["action"] == data["best"]
    assert data["reason"] == j.to_dict()["reason"]


def test_the_hint_and_its_judgement_are_seeded_by_the_position() -> None:
    game = positions()[0]
    seat = game.decision.player
    assert position_seed(game, seat) == position_seed(game.clone(), seat)
    a = judge(game, level="search@20", verify=6).to_dict()
    b = judge(game.clone(), level="search@20", verify=6).to_dict()
    a.pop("seconds"), b.pop("seconds")
    assert a == b


# ====================================================================== honest previews

def positions_of_every_kind() -> list[Game]:
    """POSITIONS (one per decision kind) and a pick that offers camp artifacts."""
    out = list(POSITIONS.values())
    for seed in range(40):
        full = play_game(3, "random", seed=seed, expansions=TV)
        g = Game.new(players=3, seed=seed, expansions=TV)
        for _, action in full.history:
            legal = g.legal_actions()
            if any(a.verb == "camp" and a.args[0].kind is C.Kind.ARTIFACT for a in legal):
                return out + [g.clone()]
            g.apply_fast(action)
    raise AssertionError("no pick offering an artifact")


@pytest.mark.parametrize("game", positions_of_every_kind(),
                         ids=lambda g: str(g.decision.kind) + "-" + str(len(g.history)))
def test_button_previews_equal_the_score_sheet_difference(game: Game) -> None:
    """For every option of every decision kind (camp cards and artifacts, heroes, discards,
    coins…): the preview's change now is the difference of the score sheet if the game ended
    (a waiting mercenary enlisted on its better side, R14) on the real game, though the
    preview is computed on what the player may know; a twin game that differs only in hidden
    state gives the same previews."""
    d = game.decision
    actions = game.legal_actions()[:24]
    previews = immediates(game, actions)
    assert set(previews) == {str(a) for a in actions}
    before = sheet_if_ended(game, d.player)
    for a in actions:
        branch = game.clone()
        branch.apply(a)
        after = sheet_if_ended(branch, d.player)
        now = previews[str(a)]
        assert now.total == sum(after.values()) - sum(before.values()), a
        assert now.parts == {k: after[k] - before[k] for k in after if after[k] != before[k]}
    if has_hidden(game, d.player):  # else no twin can differ (the last turns of age 2)
        for other in differing_twins(game, d.player, count=1):
            assert immediates(other, actions) == previews


# ====================================================================== reasons we know

def dagda_discard() -> Game:
    """Age 1, round 1: you lead the warriors by one rank (2 to 1) and must discard the top
    card of another column for Dagda."""
    game = deal_game(2, gems=[4, 5], seed=3)
    set_army(game, 0, {"W": ["W3", "W4"], "M": ["M0"], "B": ["B"], "E": ["E5"], "H": ["Dagda"]},
             command_zone=[])
    set_army(game, 1, {"W": ["W5"], "H": ["H"]})
    game.state.tasks.append(ColumnDiscard(0, 2, "Dagda", (C.Suit.HUNTER,)))
    game._engine._legal = None
    game._engine._legal_set = None
    return game


def test_a_dagda_discard_that_ties_the_warriors_names_the_kings_hand() -> None:
    game = dagda_discard()
    previews = immediates(game, game.legal_actions())
    assert previews["discard W"].majority == ["ties the warriors: King's Hand at risk"]
    for other in ("discard M", "discard B", "discard E"):
        assert not any("warrior" in note for note in previews[other].majority)
    j = judge(game, level="search@150", selected="discard W", verify=24)
    # Whether the tie costs more than the card is the judgement's call (you lead by 50
    # points either way); what the reason says of the tie is not: a reason against
    # "discard W" when another discard is recommended, a "but" when it is itself.
    if j.best != game.parse("discard W"):
        cmp = j.compare("discard W")
        assert any("King's Hand" in reason for reason in cmp.why), cmp.text()
    else:
        cmp = j.compare()
        assert any("King's Hand" in reason for reason in cmp.but), cmp.text()
        assert not any("King's Hand" in reason for reason in cmp.why), cmp.text()
    check_reasons(cmp)


def line_pick() -> Game:
    """Your pick in age 2: E11 completes your first line (a hero at once), W3 does not."""
    game = deal_game(2, age1=["E11", "W3", "W4"], gems=[4, 5], seed=1)
    set_army(game, 0, {"W": ["W5"], "H": ["H"], "M": ["M1"], "B": ["B"]})
    game.apply("bid 5 4 3")
    game.apply("bid 4 3 2")
    return game


def test_a_pick_that_completes_a_line_names_the_line_and_the_hero() -> None:
    game = line_pick()
    assert game.decision.player == 0 and "take E11" in {str(a) for a in game.legal_actions()}
    previews = immediates(game, game.legal_actions())
    assert previews["take E11"].lines_completed == 1
    assert "recruit a hero" in previews["take E11"].follow_up
    j = judge(game, level="search@150", selected="take W3", verify=24)
    assert str(j.best) == "take E11"
    cmp = j.compare("take W3")
    (line,) = [r for r in cmp.why if "completes a line" in r]
    assert line.startswith("it completes a line now: you recruit a hero at once"), cmp.text()
    assert "the search recruits" in line  # the hero it brings
    check_reasons(cmp)


def best_tavern_bid() -> Game:
    """Your first bid: the Dancing Dragon shows E11, which completes your first line."""
    game = deal_game(2, age1=["W3", "W4", "M0", "E11", "H", "B", "B", "M1", "W5"],
                     gems=[4, 5], seed=2)
    set_army(game, 0, {"W": ["W6"], "H": ["H"], "M": ["M1"], "B": ["B"]})
    set_coins(game, 0, [0, 2, 3, 4, 5])
    return game


def test_a_bid_that_leaves_the_highest_coin_off_the_best_tavern_names_it() -> None:
    # Which of the 60 bids a search of 300 iterations recommends here is close to a coin
    # toss (even 3,000 iterations do not single one out), so the judgement's seed is pinned:
    # seed 0 recommends bid 2 5 4, the highest coin on the tavern of E11. What is tested is
    # the reason given when the recommendation does that and the learner's bid does not.
    game = best_tavern_bid()
    assert game.state.taverns[1][0] is C.card("E11")
    j = judge(game, level="search@300", selected="bid 5 0 2", verify=24, seed=0)
    best = j.best
    assert str(best.args[1]) == "5", f"the coach bid {best}"
    cmp = j.compare("bid 5 0 2")
    assert any("your highest coin, 5, on the Dancing Dragon" in r and "E11" in r
               and "bid 5 0 2 leaves it elsewhere" in r for r in cmp.why), cmp.text()


def test_a_recommended_bid_that_keeps_the_highest_coin_never_calls_its_bid_the_highest_coin(
        ) -> None:
    # Seed 5 recommends bid 3 4 0: its highest bid, 4, on the Dancing Dragon, the 5 kept in
    # the purse. "Your highest coin, 4" would be untrue: the reason names the highest bid.
    j = judge(best_tavern_bid(), level="search@300", selected="bid 5 0 2", verify=24, seed=5)
    assert str(j.best) == "bid 3 4 0", f"the coach bid {j.best}"
    why = j.compare("bid 5 0 2").why
    assert any("its highest bid, 4, on the Dancing Dragon" in r and "bid 5 0 2 bids 0 there" in r
               for r in why), why
    assert not any("highest coin" in r for r in why), why


# ====================================================================== hidden information

def test_twins_get_the_same_hint_reason_previews_and_what_if() -> None:
    game, other, viewer = twin_pair(3, 31)
    a = judge(game, level="search@30", verify=8)
    b = judge(other, level="search@30", verify=8)
    da, db = a.to_dict(), b.to_dict()
    da.pop("seconds"), db.pop("seconds")
    assert da == db and da["reason"] == db["reason"]
    actions = game.legal_actions()
    assert immediates(game, actions) == immediates(other, actions)
    assert estimate_position(game, viewer, 20) == estimate_position(other, viewer, 20)


def test_twins_differing_in_the_camp_order_get_the_same_judgement() -> None:
    game = next(g for g in positions_of_every_kind() if g.config.thingvellir
                and g.state.camp_decks[g.state.age])
    viewer = game.decision.player
    other = game.clone()
    other.state.camp_decks[other.state.age].reverse()
    assert other.state.camp_decks != game.state.camp_decks
    a = judge(game, level="search@20", verify=6).to_dict()
    b = judge(other, level="search@20", verify=6).to_dict()
    a.pop("seconds"), b.pop("seconds")
    assert a == b
    assert immediates(game, game.legal_actions()) == immediates(other, other.legal_actions())
    assert viewer == other.decision.player


# ====================================================================== bad input

def test_levels_and_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_level("coach").name == "coach" and parse_level("search@40").iterations == 40
    with pytest.raises(ValueError, match="unknown level"):
        parse_level("grandmaster")
    finished = play_game(2, "random", seed=1)
    with pytest.raises(ValueError, match="game is over"):
        judge(finished)
    game = positions()[0]
    with pytest.raises(ValueError, match="not a legal action"):
        judge(game, level="search@5", selected="take W10")
    record = tmp_path / "game.json"
    finished.save(record)
    for argv, message in (([str(record)], "finished game"),
                          ([str(record), "--at", "0"], "--at must be"),
                          ([str(record), "--at", "3", "--level", "nope"], "unknown level"),
                          ([str(tmp_path / "missing.json")], "cannot read")):
        assert main(["hint", *argv]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error:") and message in err and len(err.strip().splitlines()) == 1
    assert main(["hint", str(record), "--at", "3", "--level", "search@10"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Decision 3:") and "Best:" in out
