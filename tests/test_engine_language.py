"""The engine's texts a learner reads, in the reader's language (issue 46): the event
lines, the score sheet. English stays as the golden files have it (tests/test_golden.py);
the pseudo-language shows any English that escaped the catalogue."""

from __future__ import annotations

import random

import pytest
from scripted import decision

from nidavellir import Game
from nidavellir import cards as C
from nidavellir import events as ev
from nidavellir.card_text import ability
from nidavellir.explain import outlook_for
from nidavellir.i18n import PSEUDO, escaped, using

SEATS = ("Ada", "Bo", "Cy")


def _played(expansions: tuple[str, ...], seed: int, names: tuple[str, ...] = SEATS) -> Game:
    game = Game.new(players=len(names), seed=seed, expansions=expansions, names=list(names))
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(sorted(game.legal_actions(), key=str)))
    return game


def _notation(game: Game) -> set[str]:
    """Words that are notation, the same in every language: card tokens, coin labels."""
    return {word for c in C.ALL_CARDS for word in c.token.replace("/", " ").split()}


@pytest.mark.parametrize("expansions", [(), (C.THINGVELLIR,)])
def test_no_event_line_or_score_sheet_word_escapes_the_catalogue(
        expansions: tuple[str, ...]) -> None:
    game = _played(expansions, seed=7)
    allowed = set(SEATS) | _notation(game)
    with using(PSEUDO):
        lines = [e.describe(game.names) for e in game.events]
        lines += game.scores().to_text().splitlines()
    escapes = {word: line for line in lines for word in escaped(line, allowed)}
    assert not escapes, escapes


@pytest.mark.parametrize("expansions", [(), (C.THINGVELLIR,)])
def test_no_decision_s_words_escape_the_catalogue(expansions: tuple[str, ...]) -> None:
    """Every decision of seeded games: its prompt, and each legal action's button words and
    sentence (what the Play tab, a walkthrough and the coach show)."""
    escapes: dict[str, str] = {}
    for seed in (7, 11):
        game = Game.new(players=3, seed=seed, expansions=expansions, names=list(SEATS))
        allowed = set(SEATS) | _notation(game)
        rng = random.Random(seed)
        while not game.is_over:
            decision = game.decision
            assert decision is not None
            legal = sorted(game.legal_actions(), key=str)
            with using(PSEUDO):
                texts = [decision.task.prompt(game.engine)]
                for action in legal[:12]:
                    texts.append(type(decision.task).label(action))
                    texts.append(decision.task.say(game.engine, action))
            escapes.update({word: text for text in texts for word in escaped(text, allowed)})
            game.apply(rng.choice(legal))
    assert not escapes, escapes


def test_an_illegal_move_is_refused_in_the_reader_s_language() -> None:
    game = Game.new(players=3, seed=7, names=list(SEATS))
    hand = " ".join(str(c) for c in game.observation(0)["players"][0]["hand"])
    with using("de"):
        why = game.engine.why_illegal(decision(game).task, game.parse("bid 25 25 25"))
    assert why == f"du hast keine Münze 25 zum Bieten (deine Münzen: {hand})"


def test_every_card_s_ability_and_outlook_are_in_the_catalogue() -> None:
    """The card-info panels and the buttons' "later" notes (card_text, explain)."""
    game = _played((C.THINGVELLIR,), seed=7)
    player = game.state.players[0]
    allowed = set(SEATS) | _notation(game)
    escapes: dict[str, str] = {}
    with using(PSEUDO):
        for card in C.ALL_CARDS:
            for text in (ability(card), outlook_for(player, card)):
                escapes.update({word: text for word in escaped(text, allowed)})
    assert not escapes, escapes
    with using("de"):
        assert ability(C.card("H")).startswith("Jäger: 1 Rangabzeichen")
        assert ability(C.MJOLLNIR).startswith("Artefakt: am Ende 2 Punkte")
    with using("en"):
        assert ability(C.card("H")) == ("Hunter: 1 rank; hunters score their number of ranks "
                                        "squared (1, 4, 9, 16, ...).")


def test_the_event_lines_read_the_rulebooks_words() -> None:
    game = _played((), seed=7)
    placed = next(e for e in game.events if isinstance(e, ev.CardPlaced)
                  and e.card.kind is C.Kind.DWARF and e.card.suit is C.Suit.WARRIOR)
    bravery = placed.card.name.rpartition(" ")[2]
    with using("de"):
        german = placed.describe(game.names)
    with using("fr"):
        french = placed.describe(game.names)
    with using("en"):
        english = placed.describe(game.names)
    seat = game.names[placed.player]
    # The card takes its article in a sentence (names.csv's grammar: «den Krieger 7»).
    assert german == f"{seat} legt den Krieger {bravery} in die Krieger-Spalte"
    assert french == f"{seat} place la carte Guerrier·ère {bravery} dans la colonne Guerrier·ère"
    assert english == f"{seat} places Warrior {bravery} in the warrior column"


def test_a_seat_named_you_is_addressed_in_each_language() -> None:
    game = _played((), seed=3, names=("You", "Bo"))
    bid = next(e for e in game.events if isinstance(e, ev.BidPlaced) and e.player == 0)
    with using("en"):
        assert bid.describe(game.names) == "You place a secret bid"
    with using("de"):
        assert bid.describe(game.names) == "Du gibst ein geheimes Gebot ab"
    with using("fr"):
        assert bid.describe(game.names) == "Vous placez une mise secrète"


def test_the_score_sheet_s_labels_fit_the_longest_line_of_the_language() -> None:
    game = _played((C.THINGVELLIR,), seed=7)
    with using("de"):
        text = game.scores().to_text()
    table = text.split("\n\n")[0].splitlines()
    # Every total column ends at the same place, whatever the label's length.
    ends = {len(line) for line in table if not line.startswith("-")}
    assert len(ends) == 1, table
    assert "Helden ohne Klasse" in text or "Artefakte" in text
