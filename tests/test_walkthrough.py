"""The rules walkthroughs: their scripted records, every step, every taught move, wrong
moves refused with an explanation and the game unchanged, the final score sheet.

The base walkthrough's own checks come first; the walk through every step runs for every
lesson (base, heroes, Thingvellir). The two newer lessons' own checks are in
``tests/test_walkthrough_lessons.py``."""

from __future__ import annotations

import doctest
import json
import re

import pytest

import nidavellir.lessons.walkthrough as walkthrough_model
import widgets.walkthrough as walkthrough_module
from nidavellir import Game
from nidavellir import cards as C
from nidavellir.lessons import builtin
from nidavellir.lessons.markup import inline
from nidavellir.tokens import parse_token
from widgets.walkthrough import Walkthrough, WalkthroughApp

#: The lab's walkthroughs, in the order the tab offers them.
LESSONS = ["base", "heroes", "thingvellir"]
BASE = builtin("base")

#: What the walkthrough promises to teach (the issue's list), by step key.
TOPICS = ["setup", "bid", "reveal", "take", "gems", "exchange-coin", "line", "hero",
          "offering", "transform", "age1", "distinctions", "score"]
#: Rulebook headings the steps must cite.
HEADINGS = ["Mise en place", "LES MISES", "RÉVÉLATION DE LA MISE", "ÉCHANGE DE GEMMES",
            "Échanger des pièces", "Transformer une pièce", "Recruter un·e Héros·ïne",
            "Fin de l'Age 1: l'Évaluation des troupes", "Fin de l'Age 2 et fin de la partie"]


@pytest.mark.parametrize("module", [walkthrough_module, walkthrough_model])
def test_doctests(module) -> None:  # type: ignore[no-untyped-def]
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


def test_the_record_is_an_explicit_deal_that_replays_to_the_end() -> None:
    rec = BASE.record()
    json.dumps(rec)  # a plain JSON record
    deal = rec["deal"]
    assert sorted(parse_token(t).token for t in deal["ages"]["1"]) == \
        sorted(c.token for c in C.age_deck(1, 3))
    assert sorted(deal["gems"]) == [3, 4, 5]
    game = Game.from_record(rec)
    assert game.is_over
    assert game.to_record()["actions"] == rec["actions"]
    # The first round is the one the texts describe.
    start = Game.from_record(dict(rec, actions=[]))
    assert start.observation(0)["taverns"] == [["E9", "H", "M1"], ["W7", "B", "W3"],
                                               ["E6", "M0", "H"]]
    assert [p["gem"] for p in start.observation(0)["players"]] == [3, 5, 4]


def test_steps_cover_the_topics_and_cite_the_rulebook() -> None:
    keys = [s.key for s in BASE.steps]
    assert len(set(keys)) == len(keys)
    for topic in TOPICS:
        assert topic in keys
    assert keys[-1] == "score"
    cited = " ".join(s.rule + s.text for s in BASE.steps)
    for heading in HEADINGS:
        assert heading in cited, heading
    for s in BASE.steps:
        assert s.title and s.text and s.rule
        if s.move:
            assert s.why and s.after


@pytest.mark.parametrize("key", list(LESSONS))
def test_taught_moves_are_the_learners_decisions(key: str) -> None:
    wt = Walkthrough.of(key)
    moves = 0
    while True:
        if wt.step.move:
            d = wt.game.decision
            assert d is not None and d.player == wt.learner, wt.step.key
            assert wt.game.parse(wt.step.move) in wt.game.legal_actions()
            moves += 1
            assert wt.try_move(wt.step.move)[0]
        if not wt.next():
            break
    assert moves >= 8
    assert wt.game.is_over


def _wrong_moves(wt: Walkthrough) -> list[str]:
    """A legal move other than the taught one (when there is one), an illegal one and
    bad notation."""
    taught = wt.game.parse(wt.step.move)
    legal = [str(a) for a in wt.game.legal_actions() if a != taught and not same(wt, a)]
    return list(wt.step.wrong) + legal[:2] + ["take W10", "hero Nobody", "fly away", ""]


def same(wt: Walkthrough, action) -> bool:  # type: ignore[no-untyped-def]
    """Whether a legal ``action`` has the taught move's result for every player."""
    a, b = wt.game.clone(), wt.game.clone()
    a.apply(action)
    b.apply(wt.step.move)
    return all(a.observation(p) == b.observation(p) for p in range(a.config.players))


@pytest.mark.slow(reason='every step of a walkthrough, its moves made and wrong ones refused: '
                        'about 2 s of CPU')
@pytest.mark.parametrize("key", list(LESSONS))
def test_walk_every_step_make_every_move_and_refuse_wrong_ones(key: str) -> None:
    app = WalkthroughApp(Walkthrough.of(key))
    wt = app.wt
    seen = []
    while True:
        seen.append(wt.step.key)
        assert app.title.value and app.rule.value and app.text.value and app.board.value
        assert not app.back_button.disabled or wt.index == 0
        if wt.needs_move:
            assert app.move_box.layout.display != "none"
            assert app.control is not None
            # Next is refused (and visibly off) until the move is made.
            assert not wt.can_next
            assert app.next_button.disabled and "move first" in app.next_button.tooltip
            assert not app.next()
            assert "move first" in app.feedback.value
            for wrong in _wrong_moves(wt):
                before = wt.game.state.fingerprint()
                history = len(wt.game.history)
                assert not app.submit(wrong), wrong
                assert "nid-wt-error" in app.feedback.value
                special = wt.step.wrong.get(wrong)
                if special:  # its own explanation, for a move that is not the taught one
                    assert inline(special) in app.feedback.value, (wrong, app.feedback.value)
                # An explanation: words, not only the markup around them.
                assert len(re.sub(r"<[^>]+>", "", app.feedback.value)) > 20, app.feedback.value
                assert wt.game.state.fingerprint() == before
                assert len(wt.game.history) == history
                assert wt.needs_move
            # The taught move, through the step's control when it draws a button for it.
            move = str(wt.game.parse(wt.step.move))
            control = app.control
            index = wt.index
            if move in control.buttons:
                control.buttons[move].click()
            else:
                app.notation.value = wt.step.move
                app.play.click()
            assert "nid-wt-ok" in app.feedback.value
            assert index in wt.made
            if wt.index != index:
                # "Now choose a hero": the next step's move comes at once, with its controls.
                assert wt.index == index + 1 and not wt.steps[wt.index].actions
                assert wt.needs_move and app.control is not None
                assert app.move_box.layout.display != "none"
                continue
            assert wt.done, app.feedback.value
            assert app.move_box.layout.display == "none"
            assert "You made this step's move" in app.made_note.value
            assert not app.next_button.disabled or wt.index == len(wt.steps) - 1
            # Every move shows on the board, but the choice to enlist first or last.
            assert "nid-changed" in app.board.value or wt.step.key == "enlist-order"
        else:
            assert app.move_box.layout.display == "none"
        if wt.index == len(wt.steps) - 1:
            break
        assert app.next()
        assert app.changes.value or wt.ready[wt.index] == wt.ready[wt.index - 1]
    assert seen == [s.key for s in builtin(key).steps]
    assert wt.game.is_over
    assert "nid-wt-final" in app.sheet.value and "Total" in app.sheet.value
    assert "nidavellir-score-details" in app.sheet.value  # the pad line by line
    assert app.next_button.disabled


def test_a_wrong_legal_move_is_explained_and_the_step_waits() -> None:
    wt = Walkthrough.of("base")
    wt.goto(wt.steps.index(next(s for s in wt.steps if s.key == "hero")))
    before = wt.game.state.fingerprint()
    ok, message = wt.try_move("hero Tarah")
    assert not ok
    assert "legal" in message and "Kraal" in message
    assert wt.game.state.fingerprint() == before
    ok, message = wt.try_move("take W7")
    assert not ok and "do not allow" in message
    assert wt.try_move("hero kraal")[0]  # notation is case-insensitive


def test_bid_control_sends_the_taught_bid() -> None:
    app = WalkthroughApp()
    app.next()
    control = app.control
    hand = control.hand
    for dropdown, label in zip(control.dropdowns, ["4", "3", "0"], strict=True):
        dropdown.value = hand.index(label)
    control.submit.click()
    assert app.wt.done
    assert app.next()
    assert app.wt.step.key == "reveal"
    assert "Bo 4, You 4" in app.changes.value


def test_back_keeps_the_moves_made_and_next_returns_to_the_same_position() -> None:
    wt = Walkthrough.of("base")
    positions = []
    for _ in range(6):
        if wt.needs_move:
            wt.show_me()
        positions.append((wt.index, len(wt.game.history)))
        wt.next()
    ahead = (wt.index, len(wt.game.history))
    for index, history in reversed(positions):
        assert wt.back()
        assert wt.index == index
        # A step whose move was made shows it made: Back does not undo the learner's moves.
        assert len(wt.game.history) == history
        assert wt.done == bool(wt.steps[index].move)
        assert not wt.needs_move
    assert not wt.back()
    for _ in positions:
        assert wt.next()
    assert (wt.index, len(wt.game.history)) == ahead
    wt.restart()
    assert wt.index == 0 and not wt.made and wt.game.history == []


def test_the_board_shows_the_hero_hall_and_the_distinctions_from_step_one() -> None:
    app = WalkthroughApp()
    assert app.wt.step.key == "setup" and "hero hall" in app.text.value
    assert "nid-wt-hall" in app.board.value and "Kraal" in app.board.value
    assert "nid-wt-distinctions" in app.board.value and "King&#x27;s Hand" in app.board.value


def test_a_wrong_bid_never_tells_another_players_face_down_bid() -> None:
    wt = Walkthrough.of("base")
    wt.next()
    assert wt.step.key == "bid"
    # What Bo and Cy will bid is in the script (the next step's actions): never in a hint.
    later_bids = [a for s in wt.steps[wt.index + 1:wt.index + 2] for a in s.actions
                  if a.startswith("bid")]
    assert later_bids
    for wrong in ["bid 5 3 0", "bid 4 0 3", "bid 2 3 4", "bid 3 4 0"]:
        ok, message = wt.try_move(wrong)
        assert not ok
        assert "Bo's" not in message and "Cy's" not in message
        assert "ties with" not in message


@pytest.mark.parametrize("key", ["gems", "exchange-coin", "age1", "distinctions"])
def test_changes_list_the_events_of_the_step(key: str) -> None:
    wt = Walkthrough.of("base")
    index = [s.key for s in wt.steps].index(key)
    wt.goto(index)
    lines = " ".join(wt.events_since(wt.changed_since()))
    expected = {"gems": "exchange gems", "exchange-coin": "trades 2 + 3",
                "age1": "You win King's Hand", "distinctions": "Hunting Master"}[key]
    assert expected in lines


def test_a_failing_step_is_reported_in_the_console() -> None:
    app = WalkthroughApp()

    def broken() -> bool:
        raise RuntimeError("boom")

    app._guard(broken)
    assert "boom" in app.console.last


# ====================================================================== issue 26


@pytest.mark.parametrize("key", LESSONS)
def test_the_learner_plays_against_the_others_never_as_them(key: str) -> None:
    texts = " ".join(s.text for s in builtin(key).steps)
    assert "You play Bo" not in texts and "You play Cy" not in texts
    assert "You play against Bo" in builtin(key).steps[0].text


def test_a_move_with_the_taught_result_is_accepted_through_the_controls() -> None:
    """Thingvellir's Vidofnir step teaches 4+3 and 3+2: the same two transforms in the
    other order give the same coins, 7 and 5, and are accepted (the game records the
    taught move); 4+2 and 3+3 give 6 and 6 and are refused for that true reason."""
    app = WalkthroughApp(Walkthrough.of("thingvellir"))
    wt = app.wt
    wt.goto([s.key for s in wt.steps].index("vidofnir-coins"))
    app.refresh()
    index, history = wt.index, len(wt.game.history)
    app.notation.value = "vidofnir 4+2 3+3"
    app.play.click()
    assert not wt.done and len(wt.game.history) == history
    assert "nid-wt-error" in app.feedback.value
    assert "7 and 5 make your best coin higher than 6 and 6" in app.feedback.value
    app.notation.value = "vidofnir 3+2 4+3"
    app.play.click()
    assert "nid-wt-ok" in app.feedback.value and "same result" in app.feedback.value
    assert index in wt.made and wt.game.history[-1][1] == wt.game.parse("vidofnir 4+3 3+2")
    purse = wt.game.observation(wt.learner)["players"][wt.learner]["purse"]
    assert sorted(purse, key=int) == ["5", "7"]


def test_back_to_a_step_whose_move_was_made_shows_the_move_as_made() -> None:
    app = WalkthroughApp(Walkthrough.of("base"))
    assert app.next()  # the bid step
    assert "Your move: Bid 4 on the Laughing Goblin" in app.ask.value
    assert app.made_note.value == ""
    assert app.submit("bid 4 3 0")
    assert app.next()
    assert app.back()
    assert app.wt.step.key == "bid" and app.wt.done
    assert app.move_box.layout.display == "none" and app.control is None
    note = app.made_note.value
    assert "You made this step's move" in note
    assert "Bid 4 on the Laughing Goblin, 3 on the Dancing Dragon" in note
    assert "<code>bid 4 3 0</code>" in note
    assert not app.next_button.disabled  # Next goes on; Back did not undo the bid
    assert app.back() and app.made_note.value == ""  # the setup step has no move


def test_every_prompt_is_derived_from_its_move() -> None:
    for key in LESSONS:
        wt = Walkthrough.of(key)
        while True:
            if wt.needs_move:
                words = wt.prompt()
                assert f"`{wt.step.move}`" in words and words[0].isupper(), words
                assert wt.show_me()[0]
            if not wt.next():
                break


def test_the_walkthrough_board_is_the_play_tabs_renderer_told_what_changed() -> None:
    """Issue 24: one board renderer. The walkthrough's board is render.table_html and
    render.board_html with the previous position; a card taken this round stays as a
    greyed 'taken' tile in its tavern, the new army card is marked, and the column headers
    count points as the Play tab's do."""
    from widgets import render
    from widgets.walkthrough import WALK_SECTIONS, board_html

    game = Game.new(players=2, seed=4)
    game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])  # both bids: the picks begin
    before = game.observation(0)
    d = game.decision
    take = next(a for a in game.legal_actions() if a.verb == "take")
    game.apply(take)
    after = game.observation(0)
    sheet = game.scores()
    html = board_html(after, before, learner=0, sheet=sheet)
    assert render.table_html(after, WALK_SECTIONS, before=before, unheld="not won yet") in html
    for p in after["players"]:
        assert render.board_html(p, viewer=p["seat"] == 0,
                                 before=before["players"][p["seat"]],
                                 points=render.sheet_points(sheet[p["seat"]].breakdown)) in html
    card = str(take.args[0])
    name = render.card_of(card).name if render.card_of(card) else card
    assert "taken" in html and "nid-changed" in html
    mover = after["players"][d.player]
    assert any(card in col or name in col for col in map(str, mover["army"].values()))
    assert "ranks · " in html and " points" in html
    # Nothing changed: nothing marked.
    assert "nid-changed" not in board_html(after, after, learner=0, sheet=sheet)


@pytest.mark.slow(reason='a whole walkthrough played step by step through the tab: about 2 s of '
                        'CPU')
def test_the_last_step_says_the_lesson_is_complete_and_offers_the_next() -> None:
    """Issue 44: the last step of every walkthrough, its move made, says the lesson is
    complete and offers the next lesson (after the last one, the Play tab); Next lesson
    opens it at its first step. Before the end nothing says complete."""
    from widgets.walkthrough import WalkthroughTab

    tab = WalkthroughTab()
    keys = list(tab.entries)
    assert len(keys) >= 2
    for i, key in enumerate(keys):
        app = tab.choose(key)
        assert app.complete_box.layout.display == "none"
        wt = app.wt
        while wt.index < len(wt.steps) - 1 or wt.needs_move:
            if wt.needs_move:
                assert app._show_me()
            else:
                assert app.next()
        assert app.complete_box.layout.display == ""
        text = app.complete.value
        assert "Lesson complete" in text and tab.entries[key].title in text
        if i + 1 < len(keys):
            assert tab.entries[keys[i + 1]].title in text
            assert app.next_lesson_button.layout.display == ""
            app.next_lesson_button.click()
            assert tab.chooser.value == keys[i + 1]
            assert tab.app.wt.index == 0
        else:
            assert "Play tab" in text and app.next_lesson_button.layout.display == "none"
