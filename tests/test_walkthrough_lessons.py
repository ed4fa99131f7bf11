"""The walkthroughs as a set (base, heroes, Thingvellir) and the two newer lessons' own
checks: their explicit deals, their rule citations (FR sections that exist in the seed,
ruling numbers that exist), what each step really shows in the game, the score step's
figures, and the Walkthrough tab (choice of lesson, progress kept, restart)."""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from pathlib import Path

import pytest
from rulebooks import french_rulebook

from nidavellir import Game
from nidavellir import cards as C
from nidavellir.lessons import builtin
from nidavellir.scoring import CATEGORY_LABELS
from nidavellir.tokens import parse_token
from widgets.walkthrough import Walkthrough, WalkthroughTab, board_html, lesson

#: The lab's walkthroughs, in the order the tab offers them.
LESSONS = ["base", "heroes", "thingvellir"]

#: The rulings, in the repository (tests/test_docs.py holds them to the binding table).
RULINGS = Path(__file__).resolve().parents[1] / "docs" / "rulings.md"

#: What each lesson promises to teach (issue 17), by step key.
TOPICS = {
    "heroes": ["setup", "dagda", "thrud", "thrud-place", "thrud-lift", "thrud-again", "uline",
               "uline-bid", "uline-trade", "age1-end", "grid", "bonfur", "dwerg", "aegur",
               "hourya", "astrid", "age2-end", "score"],
    "thingvellir": ["setup", "visit", "two-players", "fafnir", "vidofnir", "vidofnir-coins",
                    "enlist-order", "enlist", "enlist-line", "jarika", "brisingamens",
                    "brisingamens-1", "brisingamens-2", "holda", "hrafnsmerki", "hofud",
                    "gjallarhorn", "enlist-age2", "brisingamens-end", "score"],
}
#: Rulings a step must cite because they decide what it shows.
RULINGS_CITED = {
    ("heroes", "dagda"): ["R10"], ("heroes", "thrud-again"): ["R13"],
    ("heroes", "age1-end"): ["R14", "R23"], ("heroes", "distinctions"): ["R3"],
    ("heroes", "grid"): ["R6"], ("heroes", "bonfur"): ["R10"], ("heroes", "aegur"): ["R12"],
    ("heroes", "age2-end"): ["R8", "R14"],
    ("thingvellir", "fafnir"): ["R18", "R19"], ("thingvellir", "enlist-order"): ["R14"],
    ("thingvellir", "brisingamens"): ["R2"], ("thingvellir", "holda"): ["R18"],
    ("thingvellir", "hofud"): ["R16"], ("thingvellir", "brisingamens-end"): ["R14", "R16"],
    ("thingvellir", "khrad"): ["R4"], ("thingvellir", "jarika"): ["R6"],
}


def _walk_to(wt: Walkthrough, key: str, *, made: bool = False) -> Walkthrough:
    wt.goto([s.key for s in wt.steps].index(key))
    if made:
        assert wt.show_me()[0]
    return wt


def _finished(key: str) -> Walkthrough:
    wt = Walkthrough.of(key)
    wt.goto(len(wt.steps) - 1)
    assert wt.game.is_over
    return wt


#: Where the seed's heading is misspelt, the spelling it has.
SEED_SPELLINGS = {"biendebuteranidavellir": "biendebiteranidavellir",
                  "joailliereredelacouronne": "joaillereredelacouronne"}


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return re.sub(r"[^a-z]", "", text.lower().replace("æ", "ae").replace("ø", "o"))


# ====================================================================== every lesson


def test_the_lessons_are_offered_base_first() -> None:
    tab = WalkthroughTab()
    assert [value for _label, value in tab.chooser.options] == LESSONS
    for key in LESSONS:
        found = lesson(key)
        assert found.key == key and found.title and len(found.summary) > 60
        assert found.file.endswith(f"nidavellir/lessons/files/walkthrough/{key}.yaml")
    with pytest.raises(ValueError, match="base, heroes, thingvellir"):
        lesson("dragons")


@pytest.mark.parametrize("key", list(LESSONS))
def test_each_record_is_an_explicit_deal_that_replays_to_the_end(key: str) -> None:
    rec = builtin(key).record()
    json.dumps(rec)
    config = rec["config"]
    n = config["players"]
    for age in (1, 2):
        dealt = Counter(parse_token(t) for t in rec["deal"]["ages"][str(age)])
        assert dealt == Counter(C.age_deck(age, n)), (key, age)
    if "thingvellir" in config["expansions"]:
        for age in (1, 2):
            assert Counter(parse_token(t) for t in rec["deal"]["camp"][str(age)]) == \
                Counter(C.camp_deck(age))
    assert sorted(rec["deal"]["gems"]) == list(C.gems_for(n))
    game = Game.from_record(rec)
    assert game.is_over
    again = Game.from_record(game.to_record())  # the notation the record stores
    assert len(again.history) == len(rec["actions"])
    assert again.state.fingerprint() == game.state.fingerprint()


@pytest.mark.parametrize("key", list(LESSONS))
def test_each_step_cites_rulings_that_exist(key: str) -> None:
    rulings = RULINGS.read_text(encoding="utf-8")
    for step in builtin(key).steps:
        assert re.findall(r"«\s*([^»]+?)\s*»", step.rule), (key, step.key, step.rule)
        for number in re.findall(r"\bR\d+\b", step.rule + step.text):
            assert f"| {number} |" in rulings, (key, step.key, number)


@pytest.mark.parametrize("key", list(LESSONS))
def test_each_step_cites_sections_that_exist_in_the_french_rulebook(key: str) -> None:
    """Against the rulebook's text, from the NIDAVELLIR_RULEBOOKS setting (tests/rulebooks.py:
    the test skips and says so without it)."""
    seed = _norm(french_rulebook())
    for step in builtin(key).steps:
        for section in re.findall(r"«\s*([^»]+?)\s*»", step.rule):
            wanted = _norm(section)
            assert SEED_SPELLINGS.get(wanted, wanted) in seed, (key, step.key, section)


@pytest.mark.parametrize("key", ["heroes", "thingvellir"])
def test_each_newer_lesson_covers_its_topics_and_its_rulings(key: str) -> None:
    steps = {s.key: s for s in builtin(key).steps}
    assert len(steps) == len(builtin(key).steps)
    for topic in TOPICS[key]:
        assert topic in steps, topic
    assert list(steps)[-1] == "score"
    for (lesson_key, step_key), numbers in RULINGS_CITED.items():
        if lesson_key == key:
            for number in numbers:
                assert re.search(rf"\b{number}\b", steps[step_key].rule), (step_key, number)


@pytest.mark.parametrize("key", ["heroes", "thingvellir"])
def test_the_score_step_tells_the_engines_totals(key: str) -> None:
    wt = _finished(key)
    sheet = wt.game.scores()
    text = wt.step.text
    for total in sheet.totals:
        assert f"**{total}**" in text, total
    # The learner's score-pad lines the text names ("**Warriors 39**") are the engine's.
    learner = sheet.players[wt.learner]
    named = dict(re.findall(r"\*\*([A-Z][a-z]+(?: [a-z]+)?) (\d+)\*\*", text))
    labels = {CATEGORY_LABELS[cat]: points for cat, points in learner.breakdown.items()}
    for label, points in named.items():
        assert labels[label] == int(points), label
    assert len(named) == {"heroes": 7, "thingvellir": 0}[key]


# ====================================================================== heroes


def test_heroes_ends_with_every_hero_where_the_lesson_says() -> None:
    wt = _finished("heroes")
    you, bo = wt.game.state.players
    assert {c.name for c in you.command_zone} >= {"Thrud", "Uline", "Astrid"}
    assert [c.name for c in you.army[C.Suit.BLACKSMITH]][-1] == "Aëgur"
    assert "Hourya" in [c.name for c in you.army[C.Suit.EXPLORER]]
    assert "Ylud" in [c.name for c in bo.army[C.Suit.WARRIOR]]
    assert {c.name for c in bo.command_zone} >= {"Grid", "Dwerg Ymir"}
    assert "Dagda" in [c.name for c in bo.army[C.Suit.HUNTER]]
    assert "Bonfur" in [c.name for c in bo.army[C.Suit.BLACKSMITH]]
    assert you.column_of(C.THRUD) is None  # she left for the command zone (FR « THRUD »)
    text = str(wt.game.scores())
    assert "Astrid (highest coin 25)" in text and "Dwerg brothers x1" in text
    assert text.endswith("You win with 272 points.")  # not "You wins"
    assert "<b>Bo</b> (247 points)" in wt.game.scores().details_html()


def test_heroes_hourya_is_refused_until_five_explorer_ranks() -> None:
    wt = _walk_to(Walkthrough.of("heroes"), "thrud")
    before = wt.game.state.fingerprint()
    ok, message = wt.try_move("hero Hourya")
    assert not ok and "5 explorer ranks" in message
    assert wt.game.state.fingerprint() == before
    assert "hero Hourya" not in [str(a) for a in wt.game.legal_actions()]
    _walk_to(wt, "hourya")
    assert wt.game.parse("hero Hourya") in wt.game.legal_actions()


@pytest.mark.parametrize(("step", "kind"), [
    ("thrud-place", "thrud"), ("thrud-again", "thrud"), ("uline-bid", "uline_bid"),
    ("uline-trade", "uline_trade"), ("distinctions", "uline_bid"), ("hourya", "hero"),
    ("astrid", "hero")])
def test_heroes_steps_ask_for_the_decision_they_teach(step: str, kind: str) -> None:
    wt = _walk_to(Walkthrough.of("heroes"), step)
    d = wt.game.decision
    assert d is not None and d.kind == kind and d.player == wt.learner


@pytest.mark.parametrize(("step", "made", "expected"), [
    ("dagda", False, "Bo: Miner 0 is discarded (Dagda)"),
    ("thrud-again", True, "You place Thrud in the hunter column"),
    ("age1-end", False, "Bo places Ylud in the explorer column"),
    ("distinctions", False, "Pioneer of the Kingdom: tie"),
    ("grid", False, "Bo transforms coin 10 into 18 (Grid"),
    ("bonfur", False, "Bo: Hunter is discarded (Bonfur)"),
    ("dwerg", False, "Bo recruits Dwerg Ymir"),
    ("aegur", True, "You place Aëgur in the blacksmith column"),
    ("age2-end", False, "Bo places Ylud in the warrior column"),
])
def test_heroes_steps_show_what_they_explain(step: str, made: bool, expected: str) -> None:
    wt = _walk_to(Walkthrough.of("heroes"), step, made=made)
    assert any(expected in line for line in wt.events_since(wt.changed_since())), expected


def test_heroes_aegur_starts_a_chain_of_two_recruits() -> None:
    wt = _walk_to(Walkthrough.of("heroes"), "aegur", made=True)
    you = wt.game.state.players[wt.learner]
    assert you.lines == 5 and you.heroes == 3  # Thrud, Uline, Aëgur: two more due
    assert wt.follow_on() and wt.step.key == "hourya"


# ====================================================================== Thingvellir


def test_thingvellir_only_the_winner_or_fafnirs_owner_visits_the_camp() -> None:
    wt = _walk_to(Walkthrough.of("thingvellir"), "visit")
    assert any(str(a).startswith("camp ") for a in wt.game.legal_actions())
    _walk_to(wt, "fafnir")
    g = wt.game
    assert g.state.order[0] != wt.learner  # Bo won the Dancing Dragon
    assert any(str(a).startswith("camp ") for a in g.legal_actions())
    # Twin table without Fafnir Båleygr: the second player may not visit (FR « Nouvelles
    # règles »: only the winner).
    twin = g.clone()
    twin.state.players[wt.learner].command_zone.remove(C.FAFNIR_BALEYGR)
    assert not any(str(a).startswith("camp ") for a in twin.legal_actions())


@pytest.mark.parametrize(("step", "kind"), [
    ("two-players", "tavern_discard"), ("vidofnir-coins", "vidofnir"),
    ("enlist-order", "mercenary_order"), ("enlist", "mercenary"), ("jarika", "hero"),
    ("kings-hand", "transform"), ("brisingamens-1", "brisingamens"), ("holda", "hero"),
    ("hrafnsmerki", "holda"), ("gjallarhorn-hero", "hero"),
    ("brisingamens-end", "army_discard")])
def test_thingvellir_steps_ask_for_the_decision_they_teach(step: str, kind: str) -> None:
    wt = _walk_to(Walkthrough.of("thingvellir"), step)
    d = wt.game.decision
    assert d is not None and d.kind == kind and d.player == wt.learner


@pytest.mark.parametrize(("step", "made", "expected"), [
    ("two-players", True, "Explorer 10 is discarded (2 players: the camp was visited)"),
    ("vidofnir-coins", True, "You transform coin 4 into 7 (Vidofnir"),
    ("draupnir", False, "Bo takes Draupnir (camp)"),
    ("kings-hand", True, "You transform coin 12 into 19 (King's Hand"),
    ("jarika-offering", True, "You transform coin 19 into 24"),
    ("khrad", False, "Bo transforms coin 2 into 12 (Khrad"),
    ("gjallarhorn", False, "Bo: Warrior 7 is discarded (Höfud)"),
    ("enlist-age2", False, "Bo places Mercenary W6/H in the warrior column"),
])
def test_thingvellir_steps_show_what_they_explain(step: str, made: bool,
                                                  expected: str) -> None:
    wt = _walk_to(Walkthrough.of("thingvellir"), step, made=made)
    assert any(expected in line for line in wt.events_since(wt.changed_since())), expected


def test_thingvellir_board_shows_the_camp_and_artifacts_score() -> None:
    wt = Walkthrough.of("thingvellir")
    board = board_html(wt.game.observation(wt.learner))
    assert "nid-wt-camp" in board and "Fafnir" in board
    assert "nid-wt-camp" not in board_html(Walkthrough.of("heroes").game.observation(0))
    wt = _finished("thingvellir")
    text = str(wt.game.scores())
    assert "Hrafnsmerki (3 mercenaries)" in text
    assert "Draupnir (1 coins >= 15)" in text and "Mjöllnir (7 blacksmith ranks)" in text


def test_the_board_marks_placed_bids_without_telling_face_down_ones() -> None:
    """Twin tables that differ only in Bo's face-down bids on the taverns not yet revealed
    draw the same board for the learner, change marks included."""
    rec = builtin("heroes").record()
    boards = []
    for bo_bid in ("bid 5 2 3", "bid 5 3 2"):
        game = Game.from_record(dict(rec, actions=[]))
        before = game.observation(0)
        game.apply("bid 4 3 2")
        game.apply(bo_bid)
        boards.append(board_html(game.observation(0), before))
    assert boards[0] == boards[1]
    assert boards[0].count("nid-changed") >= 4  # your three bids and Bo's revealed one


# ====================================================================== the tab


def test_the_tab_keeps_each_lessons_progress_and_restarts_one() -> None:
    tab = WalkthroughTab()
    assert tab.chooser.value == "base" and tab.app.wt.key == "base"
    assert [value for _label, value in tab.chooser.options] == LESSONS
    tab.app.next()
    tab.chooser.value = "heroes"
    assert tab.app.wt.key == "heroes" and tab.body.children == (tab.app,)
    assert "Thrud" in tab.summary.value
    for _ in range(2):
        tab.app.next()
    tab.choose("thingvellir")
    assert tab.chooser.value == "thingvellir" and "nid-wt-camp" in tab.app.board.value
    tab.chooser.value = "base"
    assert tab.app.wt.index == 1  # as it was left
    tab.chooser.value = "heroes"
    heroes = tab.app
    assert heroes.wt.index == 2
    heroes.submit("take W9")  # a wrong move leaves an error line...
    tab.restart()
    assert heroes.wt.index == 0 and not heroes.wt.made and heroes.wt.game.history == []
    assert heroes.feedback.value == ""  # ...that the restart clears
    assert tab.apps["base"].wt.index == 1  # the other lessons keep their place
    with pytest.raises(ValueError, match="no walkthrough"):
        tab.choose("dragons")
