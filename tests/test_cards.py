"""The catalogue against every total of the rulebooks' lists of components.

FR "Matériel" lists 87 dwarf cards (86 + the special blacksmith), 5 Royal Offerings,
21 heroes, 6 gems and 60 coins; FR "Partie à 2/3/5 Elvalands" adjust the treasury and
the 5-player dwarves. Thingvellir: 24 camp cards, 6 heroes + 2 doubles.
"""

from __future__ import annotations

from collections import Counter

import pytest

from nidavellir import cards as C
from nidavellir.cards import Kind, Suit

W, H, M, B, E = Suit


def _age_dwarves(players: int) -> list[C.Card]:
    return [c for c, n in C.dwarf_counts(players).items() for _ in range(n)]


# --------------------------------------------------------------------------- dwarves (FR "Matériel")

@pytest.mark.parametrize("players, expected", [(2, 35), (3, 35), (4, 35), (5, 43)])
def test_dwarves_per_age(players: int, expected: int) -> None:
    """FR "Matériel": 35 dwarves per age with 2-4 players, 43 with 5 (FR "Partie à 5")."""
    assert len(_age_dwarves(players)) == expected


def test_five_player_cards_add_eight_per_age() -> None:
    """FR "Matériel": W10, 2 H, M0, M1, 2 B and E12 carry the "5" symbol."""
    added = Counter(_age_dwarves(5)) - Counter(_age_dwarves(4))
    assert sum(added.values()) == 8
    assert added == Counter({
        C.card("W10"): 1, C.card("H"): 2, C.card("M0"): 1, C.card("M1"): 1,
        C.card("B"): 2, C.card("E12"): 1,
    })


@pytest.mark.parametrize("players, counts", [
    (4, {W: 8, H: 6, M: 6, B: 8, E: 7}),
    (5, {W: 9, H: 8, M: 8, B: 10, E: 8}),
])
def test_cards_per_class_per_age(players: int, counts: dict[Suit, int]) -> None:
    """FR "Matériel": the cards of each age."""
    per_class = Counter(c.suit for c in _age_dwarves(players))
    assert dict(per_class) == counts


@pytest.mark.parametrize("players, sums", [
    (2, {W: 48, M: 6, E: 56}),
    (4, {W: 48, M: 6, E: 56}),
    (5, {W: 58, M: 7, E: 68}),
])
def test_bravery_sums_per_age(players: int, sums: dict[Suit, int]) -> None:
    """FR "Matériel": the bravery points of each age: W 48/58, M 6/7, E 56/68."""
    for suit, total in sums.items():
        assert sum(c.bravery_points for c in _age_dwarves(players) if c.suit is suit) == total


def test_hunters_and_blacksmiths_have_no_bravery_points() -> None:
    """FR "Matériel": H and B dwarves print no number; 0 BP, 1 rank."""
    assert C.card("H").bravery == (0,)
    assert C.card("B").bravery == (0,)


def test_every_dwarf_has_exactly_one_rank() -> None:
    """FR "Matériel": every dwarf card has exactly 1 rank."""
    assert all(c.ranks == 1 and c.kind is Kind.DWARF for c in C.DWARVES)


def test_physical_dwarves_over_both_ages() -> None:
    """FR "Matériel": 18 W, 16 H, 16 M, 20 B, 16 E = 86 (+1 special)."""
    box = C.box_counts(5)
    per_class = Counter[Suit]()
    for c, n in box.items():
        if c.kind is Kind.DWARF:
            assert c.suit is not None
            per_class[c.suit] += n
    assert dict(per_class) == {W: 18, H: 16, M: 16, B: 20, E: 16}
    assert sum(per_class.values()) == 86
    # FR counts 87 "cartes Nain·e" including the special blacksmith card.
    assert sum(per_class.values()) + box[C.SPECIAL_BLACKSMITH] == 87


def test_physical_dwarves_with_four_players() -> None:
    """FR "Matériel": 70 dwarves without the 5-player cards."""
    box = C.box_counts(4)
    assert sum(n for c, n in box.items() if c.kind is Kind.DWARF) == 70
    assert C.card("W10") not in box and C.card("E12") not in box


@pytest.mark.parametrize("age, players, size", [
    (1, 2, 36), (1, 3, 36), (1, 4, 36), (1, 5, 45),
    (2, 2, 37), (2, 3, 37), (2, 4, 37), (2, 5, 46),
])
def test_age_deck_sizes(age: int, players: int, size: int) -> None:
    """FR "Matériel": dwarves + Royal Offerings: 36/37 and 45/46."""
    assert len(C.age_deck(age, players)) == size


@pytest.mark.parametrize("age", [0, 3])
def test_age_deck_rejects_unknown_age(age: int) -> None:
    with pytest.raises(ValueError):
        C.age_deck(age, 3)


# --------------------------------------------------------------------------- royal offerings (FR "Carte Offrande Royale")

def test_royal_offerings() -> None:
    """FR "Carte Offrande Royale", FR "Matériel": 5 Royal Offerings, +3 x2 (age 1), +5 x3 (age 2)."""
    box5, box4 = C.box_counts(5), C.box_counts(4)
    assert box5[C.ROYAL_OFFERING_3] == 2 and box5[C.ROYAL_OFFERING_5] == 3
    assert box5[C.ROYAL_OFFERING_3] + box5[C.ROYAL_OFFERING_5] == 5
    assert box4[C.ROYAL_OFFERING_3] == 1 and box4[C.ROYAL_OFFERING_5] == 2
    assert (C.ROYAL_OFFERING_3.value, C.ROYAL_OFFERING_3.age) == (3, 1)
    assert (C.ROYAL_OFFERING_5.value, C.ROYAL_OFFERING_5.age) == (5, 2)
    assert C.age_deck(1, 5).count(C.ROYAL_OFFERING_3) == 2
    assert C.age_deck(2, 5).count(C.ROYAL_OFFERING_5) == 3
    assert C.ROYAL_OFFERING_5 not in C.age_deck(1, 5)


# --------------------------------------------------------------------------- heroes (FR "Capacités des cartes Héros·ïne")

def test_base_heroes() -> None:
    """FR "Capacités des cartes Héros·ïne", FR "Matériel": 21 heroes; 10 class heroes (2 per class), 11 neutral."""
    assert len(C.BASE_HEROES) == 21
    assert len(set(C.BASE_HEROES)) == 21
    class_heroes = [h for h in C.BASE_HEROES if h.suit is not None]
    assert len(class_heroes) == 10
    assert Counter(h.suit for h in class_heroes) == Counter({s: 2 for s in Suit})
    neutral = {h.name for h in C.BASE_HEROES if h.suit is None}
    assert neutral == {
        "Dwerg Ymir", "Dwerg Aesir", "Dwerg Sigmir", "Dwerg Jungir", "Dwerg Bergelmir",
        "Skaa", "Astrid", "Grid", "Uline", "Ylud", "Thrud",
    }
    assert all(h.kind is Kind.HERO and h.expansion == C.BASE for h in C.BASE_HEROES)


@pytest.mark.parametrize("name, suit, bravery", [
    ("Kraal", W, (7, 0)),
    ("Tarah", W, (14,)),
    ("Aral", H, (0, 0)),
    ("Dagda", H, (0, 0, 0)),
    ("Aëgur", B, (0, 0)),
    ("Bonfur", B, (0, 0, 0)),
    ("Zoral", M, (1, 0, 0)),
    ("Lokdur", M, (3,)),
    ("Hourya", E, (20,)),
    ("Idunn", E, (7,)),
])
def test_class_hero_ranks_and_bravery(name: str, suit: Suit, bravery: tuple[int, ...]) -> None:
    """FR "Capacités des cartes Héros·ïne"."""
    hero = C.card(name)
    assert hero.suit is suit
    assert hero.bravery == bravery
    assert hero.ranks == len(bravery)


def test_heroes_with_more_than_one_rank() -> None:
    """FR "Capacités des cartes Héros·ïne", DE list: Kraal, Aral, Dagda, Zoral, Aëgur, Bonfur."""
    multi = {h.name for h in C.HEROES if h.ranks > 1}
    assert multi == {"Kraal", "Aral", "Dagda", "Zoral", "Aëgur", "Bonfur"}


@pytest.mark.parametrize("name, points", [
    ("Skaa", 17), ("Grid", 7), ("Uline", 9), ("Thrud", 13),
    ("Andumia", 12), ("Holda", 12), ("Khrad", 4), ("Jarika", 8), ("Olwyn", 9), ("Zolkur", 10),
])
def test_neutral_hero_points(name: str, points: int) -> None:
    """FR "Capacités des cartes Héros·ïne" and FR Thingvellir "Matériel": fixed final points of the neutral heroes."""
    assert C.card(name).points == points
    assert C.card(name).suit is None


def test_dwerg_table_and_constants() -> None:
    """FR "DWERG LES 5 FRÈRES": 13/40/81/108/135; Ylud W7 M1 E11; Hourya needs 5 ranks."""
    assert C.DWERG_POINTS[1:] == (13, 40, 81, 108, 135)
    assert len(C.DWERG_BROTHERS) == 5
    assert C.YLUD_BRAVERY == {W: 7, H: 0, M: 1, B: 0, E: 11}
    assert C.HOURYA_REQUIRED_EXPLORER_RANKS == 5
    assert C.GRID_BONUS == 7 and C.KHRAD_BONUS == 10 and C.JARIKA_BONUS == 2


def test_first_game_heroes_are_advanced() -> None:
    """R25 / FR "Bien débuter à Nidavellir": Thrud, Ylud and Uline are left out."""
    assert {h.name for h in C.HEROES if h.advanced} == {"Thrud", "Ylud", "Uline"}


def test_thingvellir_heroes_and_doubles() -> None:
    """FR Thingvellir "Matériel": 6 new neutral heroes + Olwyn's 2 doubles (1 rank, 0 BP, not heroes)."""
    assert [h.name for h in C.THINGVELLIR_HEROES] == [
        "Andumia", "Holda", "Khrad", "Jarika", "Olwyn", "Zolkur"]
    assert all(h.suit is None and h.expansion == C.THINGVELLIR for h in C.THINGVELLIR_HEROES)
    assert C.OLWYN_DOUBLE_COUNT == 2
    assert C.box_counts(3)[C.OLWYN_DOUBLE] == 2
    assert C.OLWYN_DOUBLE.kind is Kind.OLWYN_DOUBLE and not C.OLWYN_DOUBLE.is_hero
    assert all(C.OLWYN_DOUBLE.column_value(s) == (1, 0) for s in Suit)
    assert len(C.heroes_of((C.THINGVELLIR,))) == 27


# --------------------------------------------------------------------------- distinctions (FR "Fin de l'Age 1: l'Évaluation des troupes")

def test_distinctions_in_troop_evaluation_order() -> None:
    """FR "Fin de l'Age 1: l'Évaluation des troupes": W, H, M, B, E."""
    assert len(C.DISTINCTIONS) == 5
    assert [d.suit for d in C.DISTINCTIONS] == [W, H, M, B, E]
    assert [d.name for d in C.DISTINCTIONS] == [
        "King's Hand", "Hunting Master", "Crown Jeweler", "King's Great Armorer",
        "Pioneer of the Kingdom"]
    assert C.KINGS_HAND_BONUS == 5 and C.PIONEER_DRAW == 3


def test_special_blacksmith_card() -> None:
    """FR "Grand-e Armurier-ère du Roi": the special blacksmith card has 2 ranks, no BP."""
    sb = C.SPECIAL_BLACKSMITH
    assert sb.suit is B and sb.ranks == 2 and sb.bravery_points == 0
    assert sb.column_value(B) == (2, 0)
    assert C.box_counts(2)[sb] == 1


# --------------------------------------------------------------------------- Thingvellir (FR Thingvellir "Matériel")

def test_mercenaries() -> None:
    """FR Thingvellir "Matériel" table (R5: the hunter/explorer mercenary's explorer side is 8)."""
    expected = [
        (1, {(W, 6), (E, 8)}), (1, {(W, 6), (B, 0)}), (1, {(H, 0), (E, 8)}),
        (1, {(H, 0), (M, 1)}), (1, {(B, 0), (M, 1)}), (1, {(W, 9), (E, 11)}),
        (2, {(H, 0), (B, 0)}), (2, {(W, 6), (M, 1)}), (2, {(B, 0), (E, 8)}),
        (2, {(W, 6), (H, 0)}), (2, {(E, 8), (M, 1)}), (2, {(W, 9), (E, 11)}),
    ]
    assert len(C.MERCENARIES) == 12
    assert [set(m.sides) for m in C.MERCENARIES] == [sides for _, sides in expected]
    for merc in C.MERCENARIES:
        assert merc.kind is Kind.MERCENARY and merc.ranks == 1
    # W9/E11 exists once per age: the same card type twice.
    w9e11 = C.card("W9/E11")
    assert C.MERCENARIES.count(w9e11) == 2
    assert C.box_counts(4)[w9e11] == 2
    assert [m.token for m in C.camp_deck(1)[:6]] == [
        "W6/E8", "W6/B", "H/E8", "H/M1", "B/M1", "W9/E11"]
    assert [m.token for m in C.camp_deck(2)[:6]] == [
        "H/B", "W6/M1", "B/E8", "W6/H", "E8/M1", "W9/E11"]


def test_mercenary_column_values() -> None:
    """FR Thingvellir "Matériel": scores as a dwarf of the side it lies on; no other column."""
    merc = C.card("W6/E8")
    assert merc.column_value(W) == (1, 6)
    assert merc.column_value(E) == (1, 8)
    assert not merc.fits(H)
    with pytest.raises(ValueError):
        merc.column_value(H)


def test_artifacts() -> None:
    """FR Thingvellir "Matériel": 12 artifacts, 6 per age; Vegvisir an explorer rank of 13 BP."""
    assert len(C.ARTIFACTS) == 12
    assert Counter(a.age for a in C.ARTIFACTS) == Counter({1: 6, 2: 6})
    assert {a.name for a in C.ARTIFACTS if a.age == 1} == {
        "Fafnir Båleygr", "Draupnir", "Vegvisir", "Svalinn", "Megingjord",
        "Vidofnir & Vedrfölnir"}
    assert C.VEGVISIR.suit is E and C.VEGVISIR.bravery == (13,)
    assert C.MEGINGJORD.points == 28 and C.JARNGLOFI.points == 24


@pytest.mark.parametrize("age", [1, 2])
def test_camp_deck(age: int) -> None:
    """FR Thingvellir "Mise en place": 12 camp cards per age, 6 mercenaries + 6 artifacts."""
    deck = C.camp_deck(age)
    assert len(deck) == 12
    assert sum(1 for c in deck if c.kind is Kind.MERCENARY) == 6
    assert sum(1 for c in deck if c.kind is Kind.ARTIFACT) == 6
    assert all(c.age == age for c in deck if c.kind is Kind.ARTIFACT)


def test_twenty_four_camp_cards() -> None:
    """FR Thingvellir "Matériel": 24 camp cards."""
    assert len(C.camp_deck(1) + C.camp_deck(2)) == 24
    with pytest.raises(ValueError):
        C.camp_deck(3)


def test_thingvellir_cards_only_with_the_expansion() -> None:
    base = C.box_counts(5, expansions=())
    assert not any(c.expansion == C.THINGVELLIR for c in base)
    assert C.OLWYN not in base and C.VEGVISIR not in base


# --------------------------------------------------------------------------- coins, gems, setup

@pytest.mark.parametrize("players, coins, value", [
    (5, 34, 437), (4, 34, 437), (3, 28, 383), (2, 28, 383),
])
def test_treasury(players: int, coins: int, value: int) -> None:
    """FR "Matériel", "Partie à 2/3 Elvalands": 34 coins (437), minus 2x7, 2x9, 2x11."""
    treasury = C.treasury(players)
    assert sum(treasury.values()) == coins
    assert sum(v * n for v, n in treasury.items()) == value
    assert min(treasury) == 5 and max(treasury) == 25


def test_treasury_with_few_players_removes_two_each_of_7_9_11() -> None:
    diff = Counter(C.treasury(4)) - Counter(C.treasury(3))
    assert dict(diff) == {7: 2, 9: 2, 11: 2}


@pytest.mark.parametrize("players, gems", [
    (5, (1, 2, 3, 4, 5)), (4, (2, 3, 4, 5)), (3, (3, 4, 5)), (2, (4, 5)),
])
def test_gems_per_player_count(players: int, gems: tuple[int, ...]) -> None:
    """R1: the top N gems."""
    assert C.gems_for(players) == gems


def test_starting_coins() -> None:
    """FR "Mise en place": each player starts with bronze 0, 2, 3, 4, 5 (sum 14)."""
    assert C.STARTING_COINS == (0, 2, 3, 4, 5)
    assert sum(C.STARTING_COINS) == 14
    assert C.HUNTER_COIN_VALUE == 3 and C.GEM_6 == 6 and C.GEM_6_POINTS == 3


@pytest.mark.parametrize("players, per_tavern, rounds, consumed", [
    (2, 3, 4, 36), (3, 3, 4, 36), (4, 4, 3, 36), (5, 5, 3, 45),
])
def test_setup_tables(players: int, per_tavern: int, rounds: int, consumed: int) -> None:
    """FR "Matériel" and FR "Mise en place": 3 taverns x cards per tavern x rounds per age."""
    assert C.CARDS_PER_TAVERN[players] == per_tavern
    assert C.ROUNDS_PER_AGE[players] == rounds
    assert len(C.TAVERNS) * per_tavern * rounds == consumed
    # Age 1 is consumed exactly; age 2 has one extra card for Pioneer (FR "Matériel", "Pionnier-ère du Royaume").
    assert len(C.age_deck(1, players)) == consumed
    assert len(C.age_deck(2, players)) == consumed + 1


@pytest.mark.parametrize("players", [1, 6, True, "3"])
def test_player_count_is_checked(players: object) -> None:
    with pytest.raises(ValueError):
        C.check_players(players)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- catalogue hygiene

def test_every_card_has_a_reference() -> None:
    """Every card cites where the rulebook (or a ruling) defines it."""
    missing = [c.token for c in C.iter_catalogue() if not c.ref.strip()]
    assert missing == []


def test_tokens_are_unique_and_lookup_returns_singletons() -> None:
    tokens = [c.token for c in C.ALL_CARDS]
    assert len(tokens) == len(set(tokens))
    for c in C.ALL_CARDS:
        assert C.card(c.token) is c


def test_cards_survive_copy_and_pickle() -> None:
    import copy
    import pickle

    for c in (C.KRAAL, C.card("W9/E11"), C.OLWYN_DOUBLE, C.SPECIAL_BLACKSMITH):
        assert pickle.loads(pickle.dumps(c)) is c
        assert copy.deepcopy(c) is c
