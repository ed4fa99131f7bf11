"""Action notation (docs/notation.md, "Action notation"; issue 3 item 4).

Every legal action has a canonical text that parses back to the same action; bad
text raises InvalidNotation saying what is wrong; a well-formed but illegal action
raises IllegalAction saying why; either way the state is unchanged.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from scripted import task

from nidavellir import cards as C
from nidavellir.actions import Action, parse_action
from nidavellir.cards import Suit
from nidavellir.errors import IllegalAction, InvalidNotation, NidavellirError
from nidavellir.game import Game
from nidavellir.rules.decisions.picks import Pick


def random_game(players: int, seed: int, steps: int | None = None) -> Game:
    game = Game.new(players=players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over and (steps is None or len(game.history) < steps):
        game.apply_fast(rng.choice(game.legal_actions()))
    return game


def find_decision(players: int, wanted: Callable[[Game], bool], seeds: range = range(400)) -> Game:
    """The first decision of seeded random games where ``wanted(game)`` holds."""
    for seed in seeds:
        game = Game.new(players=players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            if wanted(game):
                return game
            game.apply_fast(rng.choice(game.legal_actions()))
    raise AssertionError("no such decision in the seeded games")


# ---------------------------------------------------------------------- round trip

def test_every_legal_action_round_trips_through_its_notation() -> None:
    kinds: set[str] = set()
    checked = 0
    seen: set[Action] = set()
    for seed in range(60):
        players = 2 + seed % 4
        game = Game.new(players=players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            assert game.decision is not None
            kinds.add(game.decision.kind)
            actions = game.legal_actions()
            assert len(set(actions)) == len(actions), "legal actions repeat"
            for action in actions:
                if action in seen:
                    continue
                seen.add(action)
                text = str(action)
                assert parse_action(text) == action, text
                # Keywords and card tokens are case-insensitive.
                assert parse_action(text.upper()) == action, text
                assert parse_action(f"  {text.lower()}  ") == action, text
                checked += 1
            game.apply_fast(rng.choice(actions))
    assert checked > 1000
    assert {"bid", "pick", "hero", "transform"} <= kinds


def test_every_thingvellir_action_round_trips_through_its_notation() -> None:
    verbs: set[str] = set()
    for seed in range(24):
        game = Game.new(players=2 + seed % 4, seed=seed, expansions=("thingvellir",))
        rng = random.Random(seed)
        while not game.is_over:
            actions = game.legal_actions()
            for action in actions:
                assert parse_action(str(action)) == action, str(action)
                assert parse_action(str(action).lower()) == action, str(action)
            action = rng.choice(actions)
            verbs.add(action.verb)
            game.apply_fast(action)
    assert {"camp", "enlist", "choose", "remove"} <= verbs


def test_applying_the_notation_equals_applying_the_action() -> None:
    by_action = Game.new(players=4, seed=21)
    by_text = Game.new(players=4, seed=21)
    rng = random.Random(21)
    while not by_action.is_over:
        action = rng.choice(by_action.legal_actions())
        by_action.apply(action)
        by_text.apply(str(action))
    assert by_text.state.fingerprint() == by_action.state.fingerprint()
    assert by_text.events == by_action.events


@pytest.mark.parametrize("text, canonical", [
    ("bid 05 3 0", "bid 5 3 0"),
    ("BID 5 3 0", "bid 5 3 0"),
    ("take w7", "take W7"),
    ("take +3", "take +3"),
    ("hero dwerg ymir", "hero Dwerg Ymir"),
    ("hero Aegur", "hero Aëgur"),
    ("trade 9 5", "trade 5 9"),
    ("transform 5@PURSE", "transform 5@purse"),
    ("transform 7@t2", "transform 7@T2"),
    ("thrud e", "thrud E"),
    ("place 3*", "place 3*"),
    ("keep e12", "keep E12"),
    ("discard m", "discard M"),
])
def test_canonical_forms(text: str, canonical: str) -> None:
    assert str(parse_action(text)) == canonical
    assert parse_action(canonical) == parse_action(text)


# ---------------------------------------------------------------------- parse errors

#: Bad text and what its error says (in English, the messages as written).
PARSE_ERRORS: list[tuple[str, str]] = [
    ("fly away", "unknown action 'fly'"),
    ("ylud stay", "name Ylud's current column"),
    ("garbage", "unknown action 'garbage'"),
    ("", "empty action"),
    ("   ", "empty action"),
    ("bid 5 3", "a bid names 3 coins"),
    ("bid 5 3 0 2", "a bid names 3 coins"),
    ("bid 26 3 0", "'26' is not a coin: values run from 0 to 25"),
    ("bid 4* 3 0", "'4*' is not a coin: only the Hunting Master's 3* is special"),
    ("bid five 3 0", "'five' is not a coin"),
    ("bid -1 3 0", "'-1' is not a coin"),
    ("take W11", "unknown card token 'W11'"),
    ("take Zzyzx", "unknown card token 'Zzyzx'"),
    ("take", "take needs a card"),
    ("hero", "hero needs a card"),
    ("trade 5", "a trade names 2 coins"),
    ("transform 5", "name the coin and its place"),
    ("transform 5@pocket", "unknown coin place 'pocket'"),
    ("thrud Q", "unknown class 'Q'"),
    ("skip now", "skip takes no argument"),
    ("enlist W6/E8", "expected enlist first"),
    ("remove W7", "name the card and its column"),
]


@pytest.mark.parametrize(("text", "message"), PARSE_ERRORS)
def test_parse_errors_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InvalidNotation) as info:
        parse_action(text)
    assert message in str(info.value)
    # InvalidNotation is a ValueError and a NidavellirError (errors contract).
    assert isinstance(info.value, ValueError) and isinstance(info.value, NidavellirError)


@pytest.mark.parametrize("text", [text for text, _message in PARSE_ERRORS if text.strip()])
def test_parse_errors_are_whole_sentences_of_the_catalogue(text: str) -> None:
    """A learner typing a move reads why it is wrong in the page's language (issue 46): in
    the pseudo-language every word of the message is inside the catalogue's markers but
    the notation (what was typed, the verbs, card tokens, coin places, class letters and
    the examples), which is the same in every language."""
    from nidavellir.actions import PLACES, VERBS
    from nidavellir.i18n import escaped, using

    with using("qps"), pytest.raises(InvalidNotation) as info:
        parse_action(text)
    message = str(info.value)
    assert message.startswith("⟦") and message.endswith("⟧"), message
    notation = set(re.findall(r"[^\W\d_]+", text)) | set(VERBS) | set(PLACES)
    notation |= {w for c in C.ALL_CARDS for w in re.split(r"[/\s]", c.token)}
    notation |= {"first", "last"}  # enlist first / enlist last
    assert not escaped(message, notation), message


def test_parse_errors_in_german_keep_the_notation() -> None:
    from nidavellir.i18n import using

    with using("de"):
        with pytest.raises(InvalidNotation) as bid:
            parse_action("bid 5 3")
        with pytest.raises(InvalidNotation) as coin:
            parse_action("bid 4* 3 0")
        with pytest.raises(InvalidNotation) as token:
            parse_action("take W11")
    assert str(bid.value) == ("'bid 5 3': ein Gebot nennt 3 Münzen, eine pro Taverne "
                              "(z. B. bid 5 3 0)")
    assert str(coin.value) == "'4*' ist keine Münze: nur die 3* der Jagdtrophäe ist besonders"
    assert str(token.value).startswith("unbekanntes Kartenkürzel 'W11'; meintest du W")


def test_unknown_card_suggests_near_tokens() -> None:
    with pytest.raises(InvalidNotation, match="did you mean"):
        parse_action("take W11")


@pytest.mark.parametrize("value", [None, 5, ("bid", "5", "3", "0")])
def test_non_text_is_invalid_notation(value: object) -> None:
    with pytest.raises(InvalidNotation):
        parse_action(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["garbage", "bid 26 3 0", "bid 5 3", "take W11", "", 42])
def test_apply_garbage_raises_and_leaves_the_state_unchanged(text: object) -> None:
    game = random_game(3, seed=2, steps=5)
    before = game.state.fingerprint()
    events = list(game.events)
    history = list(game.history)
    with pytest.raises(InvalidNotation):
        game.apply(text)  # type: ignore[arg-type]
    assert game.state.fingerprint() == before
    assert game.events == events and game.history == history
    # The game goes on normally afterwards.
    game.apply(game.legal_actions()[0])


# ---------------------------------------------------------------------- illegal actions

def assert_illegal(game: Game, action: str | Action, *fragments: str) -> str:
    before = game.state.fingerprint()
    events = list(game.events)
    history = list(game.history)
    legal = game.legal_actions()
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
    assert game.state.fingerprint() == before
    assert game.events == events and game.history == history
    assert game.legal_actions() == legal
    return message


def test_bid_a_coin_you_do_not_own() -> None:
    game = Game.new(players=3, seed=0)
    assert game.decision is not None and game.decision.kind == "bid"
    assert_illegal(game, "bid 25 3 0", "Player 1 cannot bid 25 3 0",
                   "you do not have coin 25", "0 2 3 4 5")


def test_bid_the_same_coin_twice() -> None:
    game = Game.new(players=3, seed=0)
    assert_illegal(game, "bid 5 5 0", "you do not have coin 5")


def test_take_a_card_that_is_not_in_the_tavern() -> None:
    game = find_decision(3, lambda g: g.decision is not None and g.decision.kind == "pick")
    pick = task(game, Pick)
    tavern = game.state.taverns[pick.tavern]
    missing = next(c for c in C.DWARVES if c not in tavern)
    assert_illegal(game, f"take {missing.token}", f"{missing.token} is not in the",
                   C.TAVERNS[pick.tavern], "it holds")


def test_take_a_mercenary_without_the_expansion() -> None:
    game = find_decision(2, lambda g: g.decision is not None and g.decision.kind == "pick")
    assert_illegal(game, "take W6/E8", "is not in the")


def test_an_action_of_the_wrong_kind_names_the_decision() -> None:
    game = Game.new(players=4, seed=1)
    assert_illegal(game, "take W7", "the decision is 'bid'", "expected bid", "not 'take'")


def test_hourya_without_5_explorer_ranks() -> None:
    def wanted(g: Game) -> bool:
        d = g.decision
        return (d is not None and d.kind == "hero" and C.HOURYA in g.state.hall
                and g.state.players[d.player].ranks[Suit.EXPLORER] < 5)

    game = find_decision(3, wanted)
    assert game.decision is not None
    ranks = game.state.players[game.decision.player].ranks[Suit.EXPLORER]
    assert Action("hero", (C.HOURYA,)) not in game.legal_actions()
    assert_illegal(game, "hero Hourya", "Hourya cannot be recruited",
                   f"Hourya needs 5 explorer ranks (you have {ranks})")


def test_a_hero_already_recruited() -> None:
    def wanted(g: Game) -> bool:
        d = g.decision
        return d is not None and d.kind == "hero" and len(g.state.hall) < len(C.BASE_HEROES)

    game = find_decision(4, wanted)
    gone = next(h for h in C.BASE_HEROES if h not in game.state.hall)
    assert_illegal(game, f"hero {gone.token}", f"{gone.name} is not in the hero hall")


def test_transform_an_exchange_coin() -> None:
    game = find_decision(3, lambda g: g.decision is not None and g.decision.kind == "transform"
                         and any(c == 1 for c in g.state.players[g.decision.player].coins()))
    assert_illegal(game, "transform 0@purse", "exchange coin", "never be transformed")


def test_transform_a_coin_that_is_not_there() -> None:
    game = find_decision(3, lambda g: g.decision is not None and g.decision.kind == "transform")
    assert_illegal(game, "transform 25@hand", "you have no coin 25 in your hand")


def test_apply_after_the_game_is_over() -> None:
    game = random_game(2, seed=4)
    assert game.is_over
    assert_illegal(game, "bid 5 4 3", "the game is over")
