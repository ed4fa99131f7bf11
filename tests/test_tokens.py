"""Card tokens (docs/notation.md, "Card tokens")."""

from __future__ import annotations

import pytest

from nidavellir import cards as C
from nidavellir.errors import InvalidNotation, NidavellirError
from nidavellir.tokens import TOKENS, format_token, normalize, parse_suit, parse_token, suggestions


@pytest.mark.parametrize("card", list(C.iter_catalogue()), ids=lambda c: c.token)
def test_every_canonical_token_round_trips(card: C.Card) -> None:
    assert parse_token(format_token(card)) is card


@pytest.mark.parametrize("card", list(C.iter_catalogue()), ids=lambda c: c.token)
def test_tokens_are_case_insensitive(card: C.Card) -> None:
    assert parse_token(card.token.lower()) is card
    assert parse_token(card.token.upper()) is card


def test_token_list_covers_the_catalogue() -> None:
    assert set(TOKENS) == {c.token for c in C.ALL_CARDS}
    assert len(TOKENS) == len(C.ALL_CARDS)


@pytest.mark.parametrize("token, expected", [
    ("W3", "W3"), ("w10", "W10"), ("W 3", "W3"), ("H", "H"), ("m0", "M0"), ("B", "B"),
    ("E12", "E12"), ("+3", "+3"), ("+5", "+5"),
])
def test_dwarves_and_royal_offerings(token: str, expected: str) -> None:
    """Class letter plus bravery points; Royal Offerings by their bonus."""
    assert parse_token(token) is C.card(expected)


@pytest.mark.parametrize("token, card", [
    ("Aegur", C.AEGUR), ("Aëgur", C.AEGUR), ("AEGUR", C.AEGUR),
    ("Mjollnir", C.MJOLLNIR), ("Mjöllnir", C.MJOLLNIR),
    ("Hofud", C.HOFUD), ("Höfud", C.HOFUD),
    ("Jarnglofi", C.JARNGLOFI), ("Járnglófi", C.JARNGLOFI),
    ("Fafnir Baleygr", C.FAFNIR_BALEYGR), ("Fafnir Båleygr", C.FAFNIR_BALEYGR),
    ("fafnir", C.FAFNIR_BALEYGR),
    ("Megingjörd", C.MEGINGJORD), ("Megingjord", C.MEGINGJORD),
    ("Vidofnir", C.VIDOFNIR_VEDRFOLNIR), ("Vidofnir & Vedrfolnir", C.VIDOFNIR_VEDRFOLNIR),
    ("Dwerg Ymir", C.DWERG_YMIR), ("dwerg-ymir", C.DWERG_YMIR), ("DwergYmir", C.DWERG_YMIR),
    ("king's hand", C.KINGS_HAND), ("Kings Hand", C.KINGS_HAND),
])
def test_names_ignore_case_accents_and_separators(token: str, card: C.Card) -> None:
    assert parse_token(token) is card


@pytest.mark.parametrize("token, canonical", [
    ("W6/E8", "W6/E8"), ("E8/W6", "W6/E8"), ("e8 / w6", "W6/E8"),
    ("B/W6", "W6/B"), ("M1/H", "H/M1"), ("E11/W9", "W9/E11"), ("M1/E8", "E8/M1"),
])
def test_mercenaries_by_their_sides_in_either_order(token: str, canonical: str) -> None:
    assert parse_token(token) is C.card(canonical)


@pytest.mark.parametrize("token", ["B*", "b*", "BB", "bb", "Special Blacksmith"])
def test_special_blacksmith(token: str) -> None:
    """FR "Grand-e Armurier-ère du Roi": the 2-rank special blacksmith card."""
    assert parse_token(token) is C.SPECIAL_BLACKSMITH


@pytest.mark.parametrize("token", ["Olwyn Double", "olwyn's double", "Olwyn’s Double", "Double"])
def test_olwyn_double_aliases(token: str) -> None:
    assert parse_token(token) is C.OLWYN_DOUBLE


def test_olwyn_is_not_his_double() -> None:
    assert parse_token("Olwyn") is C.OLWYN


@pytest.mark.parametrize("token, near", [
    ("W11", "W10"), ("Kral", "Kraal"), ("Aegir", "Aëgur"), ("E13", "E12"),
    ("W6/H7", "W6/H"),
])
def test_unknown_token_names_it_and_suggests_near_tokens(token: str, near: str) -> None:
    with pytest.raises(InvalidNotation) as info:
        parse_token(token)
    message = str(info.value)
    assert repr(token) in message
    assert "did you mean" in message and near in message
    assert near in suggestions(token)


@pytest.mark.parametrize("bad", ["", "W", "Warrior 3", "E8/W6/H", "W6/E9"])
def test_other_invalid_tokens(bad: str) -> None:
    """``W`` alone is not a card: warriors always carry their bravery points."""
    with pytest.raises(InvalidNotation):
        parse_token(bad)


@pytest.mark.parametrize("bad", [3, None, ["W3"]])
def test_non_text_is_rejected(bad: object) -> None:
    with pytest.raises(InvalidNotation, match="must be text"):
        parse_token(bad)  # type: ignore[arg-type]


def test_invalid_notation_is_a_value_error_of_the_hierarchy() -> None:
    with pytest.raises(ValueError):
        parse_token("W11")
    assert issubclass(InvalidNotation, NidavellirError)


def test_normalize() -> None:
    assert normalize("Dwerg Ymir") == "dwergymir"
    assert normalize("Járnglófi") == "jarnglofi"
    assert normalize("Vidofnir & Vedrfölnir") == "vidofnirvedrfolnir"


@pytest.mark.parametrize("text, suit", [
    ("W", C.Suit.WARRIOR), ("hunter", C.Suit.HUNTER), ("Miners", C.Suit.MINER),
    ("b", C.Suit.BLACKSMITH), ("EXPLORER", C.Suit.EXPLORER),
])
def test_parse_suit(text: str, suit: C.Suit) -> None:
    assert parse_suit(text) is suit


def test_parse_suit_rejects_unknown_class() -> None:
    with pytest.raises(InvalidNotation, match="unknown class"):
        parse_suit("wizard")
