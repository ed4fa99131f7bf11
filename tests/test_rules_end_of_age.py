"""Scripted rule tests: the end of age 1 (Ylud, the troop evaluation) and of age 2
(Ylud, Thrud, final scoring).

FR "Fin de l'Age 1: l'Évaluation des troupes", "Fin de l'Age 2 et fin de la partie",
"YLUD L'IMPRÉVISIBLE", "THRUD LA CHASSEUSE DE TÊTES", "Timing Ylud et Thrud"; rulings
R3, R8, R9, R14, R23, R24.

The helpers drive a real game to the last pick of an age with legal actions, then
build the position (armies, coins, gems) and let the last player take the age's
last card (a Royal Offering, so that no army changes), so the engine runs the end of
the age for real.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from scripted import coin_labels, deal_game, decision, legal, play, set_army, set_coins, task

from nidavellir import Game, InvalidNotation
from nidavellir import cards as C
from nidavellir import coins as K
from nidavellir import events as ev
from nidavellir.rules.decisions.coins import Transform
from nidavellir.rules.setup import heroes_for
from nidavellir.scoring import PlayerTable, score_table
from nidavellir.tokens import parse_token

PER_TAVERN = {2: 3, 3: 3, 4: 4, 5: 5}
ROUNDS = {2: 4, 3: 4, 4: 3, 5: 3}

Spec = Mapping[str, Sequence[str]]


def _age1_deck(players: int) -> list[str]:
    """The catalogue deck with the last tavern of the age holding B ... B, +3 (draw order)."""
    deck = [c.token for c in C.age_deck(1, players)]
    k = PER_TAVERN[players]
    deck.remove("+3")
    for _ in range(k - 1):
        deck.remove("B")
    return deck + ["B"] * (k - 1) + ["+3"]


def _to_last_pick(g: Game, age: int) -> int:
    """Drive the game with legal actions to the last pick of ``age`` (the last seat's)."""
    n = g.config.players
    while not (g.state.age == age and g.state.round == ROUNDS[n] and decision(g).kind == "bid"):
        g.apply_fast(g.legal_actions()[0])
    top = sorted(C.gems_for(n), reverse=True)
    for p in g.state.players:
        set_coins(g, p.seat, [0, 2, 3, 4, 5])
        # Everybody bids 5 4 3: the ties and gem swaps make the last seat pick last.
        p.gem = top[p.seat]
    while decision(g).kind == "bid":
        g.apply("bid 5 4 3")
    while True:
        d = decision(g)
        if d.kind == "pick" and g.state.tavern == 2 and d.player == g.state.order[-1]:
            return d.player
        g.apply_fast(g.legal_actions()[0])


def _position(g: Game, armies: Mapping[int, Spec], command_zones: Mapping[int, Sequence[str]],
              coins: Mapping[int, Sequence[int | str]], gems: Sequence[int] | None) -> None:
    s = g.state
    for p in s.players:
        p.held = []
        p.lost_recruits = 0
        set_army(g, p.seat, armies.get(p.seat, {}), command_zone=command_zones.get(p.seat, ()))
        set_coins(g, p.seat, coins.get(p.seat, [0, 2, 3, 4, 5]))
        if gems is not None:
            p.gem = gems[p.seat]
    owned = {c for p in s.players for c in p.cards()}
    s.hall = [h for h in heroes_for(g.config) if h not in owned]
    # The treasury holds every gold coin nobody owns.
    counts = C.treasury(g.config.players)
    for p in s.players:
        for c in p.coins():
            if K.is_gold(c):
                counts[K.value(c)] -= 1
    s.treasury = K.Treasury(counts)
    s.ties = []  # the scripted last round's ties must not swap the gems set here


def end_age1(players: int, armies: Mapping[int, Spec], *, command_zones=None, coins=None,
             gems: Sequence[int] | None = None, age2: Sequence[str] = (),
             transform: str | None = None, **options: bool) -> Game:
    """A game at the end of age 1 with the given final armies: the last seat takes the
    +3 (``transform``, default its 2 in hand: 0 2 3 4 5 -> 0 3 4 5 5) and the age ends."""
    g = deal_game(players, age1=_age1_deck(players), age2=age2, options=options)
    seat = _to_last_pick(g, 1)
    assert seat == players - 1
    _position(g, armies, command_zones or {}, coins or {}, gems)
    play(g, "take +3")
    play(g, transform or legal(g)[0])
    return g


def end_age2(players: int, armies: Mapping[int, Spec], *, command_zones=None, coins=None,
             gems: Sequence[int] | None = None, transform: str | None = None,
             **options: bool) -> Game:
    """A game at the end of age 2: the last player takes a +5 left in the last tavern."""
    g = deal_game(players, options=options)
    seat = _to_last_pick(g, 2)
    assert seat == players - 1
    _position(g, armies, command_zones or {}, coins or {}, gems)
    g.state.taverns[2] = [C.card("+5")]
    play(g, "take +5")
    play(g, transform or legal(g)[0])
    return g


def awarded(g: Game) -> list[tuple[str, int | None]]:
    return [(e.distinction.token, e.player) for e in g.events
            if isinstance(e, ev.DistinctionAwarded)]


def tokens(cards) -> list[str]:
    return [c.token for c in cards]


# ====================================================================== end of age 1


def test_distinctions_in_order_w_h_m_b_e() -> None:
    """FR "Fin de l'Age 1": strict majorities of ranks, awarded in the order King's
    Hand (W), Hunting Master (H), Crown Jeweler (M), King's Great Armorer (B), Pioneer
    of the Kingdom (E)."""
    g = end_age1(3, {0: {"W": ["W3", "W4"], "B": ["B", "B"]},
                     1: {"H": ["H", "H"], "E": ["E5", "E6"]},
                     2: {"M": ["M0", "M1"], "W": ["W5"]}}, gems=[3, 4, 5])
    assert decision(g).kind == "transform" and decision(g).player == 0  # King's Hand
    assert awarded(g) == [("King's Hand", 0)]
    play(g, "transform 5@hand")
    assert decision(g).kind == "pioneer" and decision(g).player == 1
    play(g, legal(g)[0])
    assert awarded(g) == [("King's Hand", 0), ("Hunting Master", 1), ("Crown Jeweler", 2),
                          ("King's Great Armorer", 0), ("Pioneer of the Kingdom", 1)]
    ps = g.state.players
    assert tokens(ps[0].command_zone) == ["King's Hand", "King's Great Armorer"]
    assert tokens(ps[1].command_zone) == ["Hunting Master", "Pioneer of the Kingdom"]
    assert tokens(ps[2].command_zone) == ["Crown Jeweler"]
    assert g.state.age == 2 and decision(g).kind == "bid"


def test_any_tie_gives_nobody_the_distinction_r23() -> None:
    """R23 / FR "Fin de l'Age 1": any tie, including everybody at 0, gives nobody the
    card; gems never break it."""
    g = end_age1(3, {0: {"W": ["W3"], "B": ["B"]}, 1: {"W": ["W9"], "B": ["B"]},
                     2: {"M": ["M0"]}}, gems=[5, 3, 4])
    # W: 1-1-0 tie; H: all 0; M: seat 2 alone; B: 1-1-0 tie; E: all 0.
    assert awarded(g) == [("King's Hand", None), ("Hunting Master", None),
                          ("Crown Jeweler", 2), ("King's Great Armorer", None),
                          ("Pioneer of the Kingdom", None)]
    assert g.state.age == 2 and decision(g).kind == "bid"
    assert [p.gem for p in g.state.players] == [5, 3, 6]


def test_majority_counts_ranks_not_cards_or_bravery() -> None:
    """FR "Fin de l'Age 1", ATTENTION: majorities count ranks, not bravery points nor
    cards: Kraal (1 card, 2 ranks, 7 points) beats W9 (1 card, 1 rank, 9 points)."""
    g = end_age1(3, {0: {"W": ["Kraal"]}, 1: {"W": ["W9"]}}, gems=[3, 4, 5])
    assert awarded(g)[0] == ("King's Hand", 0)


def test_thrud_counts_for_distinctions_r23() -> None:
    """FR "THRUD": her rank counts for the age-1 distinctions in her column (R23)."""
    g = end_age1(3, {0: {"H": ["H", "Thrud"]}, 1: {"H": ["H"]}}, gems=[3, 4, 5])
    assert ("Hunting Master", 0) in awarded(g)


def test_kings_hand_transforms_by_5() -> None:
    """FR "La Main du Roi": transform one coin by +5 (FR "Transformer une pièce"); the
    exchange coin is not offered."""
    g = end_age1(3, {0: {"W": ["W3"]}}, gems=[3, 4, 5])
    assert decision(g).kind == "transform" and task(g, Transform).bonus == 5
    assert legal(g) == ["transform 2@hand", "transform 3@hand", "transform 4@hand",
                        "transform 5@hand"]
    play(g, "transform 4@hand")
    assert coin_labels(g, 0) == ["0", "2", "3", "5", "9"]


def test_hunting_master_green_3_trades_and_is_never_transformed() -> None:
    """FR "Maître·esse de Chasse": the 0 is replaced by the special green 3, which
    keeps the exchange property and can never be transformed."""
    g = end_age1(3, {0: {"H": ["H"]}}, gems=[5, 3, 4],
                 age2=["E5", "+5", "W3", "W4", "H", "B", "M0", "E6", "E7", "E8"])
    assert coin_labels(g, 0) == ["2", "3", "3*", "4", "5"]
    assert g.state.age == 2
    # Age 2, tavern 1: the green 3 bid triggers a trade (4 + 5 = 9).
    play(g, "bid 3* 2 3", "bid 2 3 4", "bid 0 3 4")
    assert g.state.order == [0, 1, 2]
    play(g, "take +5")
    assert "transform 3*@T1" not in legal(g)
    play(g, "transform 2@T2")
    assert coin_labels(g, 0) == ["3", "3*", "4", "7", "9"]


def test_crown_jeweler_gem_6_never_exchanged() -> None:
    """FR "Joaillier·ère de la Couronne": the gem 6 replaces the winner's gem, wins
    every tie, and is never exchanged (R11)."""
    g = end_age1(3, {1: {"M": ["M0"]}}, gems=[3, 4, 5])
    assert [p.gem for p in g.state.players] == [3, 6, 5]
    play(g, "bid 4 2 3", "bid 4 2 3", "bid 4 3 5")
    assert g.state.order == [1, 2, 0]
    for _ in range(3):
        play(g, legal(g)[0])
    assert [p.gem for p in g.state.players] == [5, 6, 3]


def test_kings_great_armorer_special_card_two_ranks_two_recruits() -> None:
    """FR "Grand·e Armurier·ère du Roi" and "Plusieurs lignes complétées ... carte
    Distinction Forgeronne": the special blacksmith card (2 ranks) can complete two
    lines at once: two heroes are recruited one after the other (R12)."""
    army = {"W": ["W3", "W4"], "H": ["H", "H"], "M": ["M0", "M1"], "B": ["B"],
            "E": ["E5", "E6"]}
    g = end_age1(3, {0: army, 1: {"W": ["W5", "W6"], "H": ["H", "H"], "M": ["M0", "M2"],
                                  "E": ["E7", "E8"]}}, gems=[3, 4, 5])
    assert decision(g).kind == "hero" and decision(g).player == 0
    p = g.state.players[0]
    assert tokens(p.army[C.B]) == ["B", "B*"] and p.ranks[C.B] == 3
    assert p.lines == 2 and p.heroes == 0
    play(g, "hero Skaa")
    assert decision(g).kind == "hero" and decision(g).player == 0
    play(g, "hero Astrid")
    assert decision(g).kind == "bid" and g.state.age == 2
    assert awarded(g)[3] == ("King's Great Armorer", 0)


def test_kings_great_armorer_lifts_thrud_r13() -> None:
    """R13 / FR "THRUD": the special blacksmith card would cover Thrud: she is lifted
    and placed again."""
    g = end_age1(3, {0: {"B": ["B", "Thrud"]}}, gems=[3, 4, 5])
    assert decision(g).kind == "thrud" and decision(g).player == 0
    assert tokens(g.state.players[0].army[C.B]) == ["B", "B*"]
    play(g, "thrud B")
    assert tokens(g.state.players[0].army[C.B]) == ["B", "B*", "Thrud"]


def test_pioneer_draw_three_keep_one() -> None:
    """FR "Pionnier·ère du Royaume": draw 3 cards of the age-2 deck, keep 1 (a dwarf
    goes into the army), the 2 others are shuffled back into the age-2 deck."""
    g = end_age1(3, {2: {"E": ["E5"]}}, gems=[3, 4, 5], age2=["W9", "H", "M2"])
    assert decision(g).kind == "pioneer" and decision(g).player == 2
    assert sorted(legal(g)) == ["keep H", "keep M2", "keep W9"]
    play(g, "keep W9")
    assert tokens(g.state.players[2].army[C.W]) == ["W9"]
    s = g.state
    assert g.state.age == 2
    age2_cards = s.decks[2] + [c for t in s.taverns for c in t]
    assert len(age2_cards) == 36
    assert C.card("H") in age2_cards and C.card("M2") in age2_cards


def test_pioneer_keeps_a_royal_offering() -> None:
    """FR "Pionnier·ère du Royaume": a kept Royal Offering transforms a coin (+5)."""
    g = end_age1(3, {0: {"E": ["E5"]}}, gems=[3, 4, 5], age2=["+5", "H", "M2"])
    play(g, "keep +5")
    assert decision(g).kind == "transform" and task(g, Transform).bonus == 5
    play(g, "transform 5@hand")
    assert coin_labels(g, 0) == ["0", "2", "3", "4", "10"]


def test_pioneer_nobody_top_card_discarded_face_up_r3() -> None:
    """R3 / FR "Pionnier·ère du Royaume": if nobody wins it, the top card of the age-2
    deck is discarded face up without effect."""
    g = end_age1(3, {}, gems=[3, 4, 5], age2=["W9", "H", "M2"])
    assert C.card("W9") in g.state.discard
    assert g.state.box == []
    s = g.state
    assert len(s.decks[2]) + sum(len(t) for t in s.taverns) == 36


def test_pioneer_nobody_to_the_box_option_r3() -> None:
    """R3 option ``pioneer_tie_to_box``: the card goes back to the box unseen (DE)."""
    g = end_age1(3, {}, gems=[3, 4, 5], age2=["W9", "H", "M2"], pioneer_tie_to_box=True)
    assert g.state.box == [C.card("W9")]
    assert C.card("W9") not in g.state.discard


def test_ylud_placed_before_the_distinctions_r14() -> None:
    """FR "YLUD L'IMPRÉVISIBLE" / R14: after the last tavern of age 1 and before the
    troop evaluation, Ylud goes into a column; her rank counts there."""
    g = end_age1(3, {0: {"W": ["W3"]}, 1: {"W": ["W4"]}}, command_zones={0: ["Ylud"]},
                 gems=[3, 4, 5])
    assert decision(g).kind == "ylud" and decision(g).player == 0
    assert awarded(g) == []
    play(g, "ylud W")
    assert tokens(g.state.players[0].army[C.W]) == ["W3", "Ylud"]
    assert awarded(g)[0] == ("King's Hand", 0)


def test_ylud_placement_can_recruit_a_hero() -> None:
    """FR "YLUD": placing Ylud can complete a line and so recruit a hero (R12): Ylud is
    the player's 1st hero, her placement completes the 2nd line."""
    g = end_age1(3, {0: {"W": ["W3", "W4"], "H": ["H", "H"], "M": ["M0", "M1"],
                         "B": ["B", "B"], "E": ["E5"]}},
                 command_zones={0: ["Ylud"]}, gems=[3, 4, 5])
    assert g.state.players[0].heroes == 1
    play(g, "ylud E")
    assert decision(g).kind == "hero" and decision(g).player == 0


# ====================================================================== end of age 2


def expected_sheet(g: Game, armies, command_zones):
    """Score the table as the test built it (independently of the engine's tables)."""
    tables = []
    for p in g.state.players:
        spec = armies.get(p.seat, {})
        army = {suit: [parse_token(t) for t in spec.get(suit.letter, ())] for suit in C.SUITS}
        cz = [parse_token(t) for t in command_zones.get(p.seat, ())]
        tables.append(PlayerTable(name=g.names[p.seat], army=army, command_zone=cz,
                                  coins=[K.value(c) for c in p.coins()], gem=p.gem))
    return score_table(tables, g.config.options)


def test_thrud_leaves_for_the_command_zone_and_scores_13() -> None:
    """FR "THRUD" / R14: at the end of age 2 she goes to the command zone and scores
    13; her rank no longer counts for the warrior majority (FR "LES GUERRIER·ÈRE·S")."""
    armies = {0: {"W": ["W9", "Thrud"]}, 1: {"W": ["W3", "W4"]}, 2: {"E": ["E5"]}}
    g = end_age2(3, armies, coins={0: [0, 2, 3, 4, 5], 1: [0, 2, 3, 4, 12]})
    assert g.is_over
    p0 = g.state.players[0]
    assert C.THRUD in p0.command_zone and tokens(p0.army[C.W]) == ["W9"]
    sheet = g.scores()
    assert sheet[0].breakdown["warriors"] == 9          # no bonus: 1 rank vs 2
    assert sheet[1].breakdown["warriors"] == 7 + 12     # the majority adds its top coin
    assert sheet[0].breakdown["heroes"] == 13
    final = {0: {"W": ["W9"]}, 1: armies[1], 2: armies[2]}
    assert sheet.totals == expected_sheet(g, final, {0: ["Thrud"]}).totals


def test_ylud_may_stay_at_the_end_of_age_2_r8() -> None:
    """R8 / FR "YLUD": at the end of age 2 she may stay in her column or move."""
    g = end_age2(3, {0: {"W": ["W3", "Ylud"]}})
    assert decision(g).kind == "ylud" and decision(g).player == 0
    assert sorted(legal(g)) == ["ylud B", "ylud E", "ylud H", "ylud M", "ylud W"]
    play(g, "ylud W")
    assert g.is_over
    assert tokens(g.state.players[0].army[C.W]) == ["W3", "Ylud"]
    assert g.scores()[0].breakdown["warriors"] == 3 + 7 + 5  # Ylud 7, bonus: coin 5


def test_ylud_may_move_at_the_end_of_age_2_r8() -> None:
    """R8: moved to the explorer column she scores 11 there (FR "YLUD")."""
    g = end_age2(3, {0: {"W": ["W3", "Ylud"], "E": ["E5"]}})
    play(g, "ylud E")
    assert g.is_over
    p0 = g.state.players[0]
    assert tokens(p0.army[C.W]) == ["W3"] and tokens(p0.army[C.E]) == ["E5", "Ylud"]
    assert g.scores()[0].breakdown["explorers"] == 16


def test_ylud_from_the_command_zone_at_the_end_of_age_2() -> None:
    """FR "YLUD": recruited in age 2 she waits in the command zone, and is placed after
    the last tavern of age 2, before Thrud leaves ("Timing Ylud et Thrud")."""
    g = end_age2(3, {0: {"H": ["H", "Thrud"]}}, command_zones={0: ["Ylud"]})
    assert decision(g).kind == "ylud"
    play(g, "ylud H")
    # Ylud would cover Thrud (still in the army): Thrud is lifted and placed again.
    assert decision(g).kind == "thrud"
    play(g, "thrud H")
    assert g.is_over
    p0 = g.state.players[0]
    assert tokens(p0.army[C.H]) == ["H", "Ylud"] and C.THRUD in p0.command_zone
    assert g.scores()[0].breakdown["hunters"] == 4


def test_final_scores_match_the_scorer() -> None:
    """FR "Fin de l'Age 2 et fin de la partie": the engine's final scores are the
    scorer's on the final table (classes, neutral heroes, coins, gem 6 +3)."""
    armies = {0: {"W": ["W3", "W7", "Kraal"], "H": ["H", "H"], "M": ["M1", "M2"],
                  "B": ["B", "B*"], "E": ["E5", "E11"]},
              1: {"W": ["W8"], "H": ["H", "H", "H"], "E": ["E9", "Idunn"]},
              2: {"M": ["M2", "M2", "Zoral"], "B": ["B"]}}
    czs = {0: ["Skaa", "Crown Jeweler"], 1: ["Astrid", "Dwerg Ymir", "Dwerg Aesir"]}
    coins = {0: [0, 2, 13, 7, 5], 1: ["3*", 2, 3, 4, 21], 2: [0, 2, 3, 4, 5]}
    g = end_age2(3, armies, command_zones=czs, coins=coins, gems=[6, 4, 5])
    assert g.is_over
    sheet = g.scores()
    assert sheet.totals == expected_sheet(g, armies, czs).totals
    assert sheet[0].breakdown["gem"] == 3
    ended = [e for e in g.events if isinstance(e, ev.GameEnded)]
    assert list(ended[-1].totals) == sheet.totals


def test_warrior_bonus_needs_a_warrior_rank_r9() -> None:
    """R9: nobody has a warrior: nobody adds their top coin (FR "LES GUERRIER·ÈRE·S")."""
    g = end_age2(3, {0: {"H": ["H"]}})
    assert [s.breakdown["warriors"] for s in g.scores().players] == [0, 0, 0]


def test_warrior_bonus_without_warriors_option_r9() -> None:
    """R9 option ``warrior_bonus_without_warriors``: everybody adds their top coin."""
    g = end_age2(3, {0: {"H": ["H"]}}, coins={1: [0, 2, 3, 4, 9]},
                 warrior_bonus_without_warriors=True)
    assert [s.breakdown["warriors"] for s in g.scores().players] == [
        max(K.value(c) for c in p.coins()) for p in g.state.players]


def test_warrior_majority_tie_everybody_adds_r9() -> None:
    """FR "LES GUERRIER·ÈRE·S": tied players each add their highest coin."""
    g = end_age2(3, {0: {"W": ["W3"]}, 1: {"W": ["W4"]}}, coins={1: [0, 2, 3, 4, 9]})
    bd = [s.breakdown["warriors"] for s in g.scores().players]
    top = [max(K.value(c) for c in p.coins()) for p in g.state.players]
    assert bd == [3 + top[0], 4 + top[1], 0]


def test_final_ties_share_the_placing_r24() -> None:
    """R24 / FR "Fin de l'Age 2": tied players share the victory."""
    same = {"W": ["W3"], "H": ["H"]}
    g = end_age2(3, {0: same, 1: same}, transform="transform 2@hand")
    sheet = g.scores()
    took = [e.player for e in g.events if isinstance(e, ev.CardTaken) and e.card == C.card("+5")]
    assert took[-1] == 2  # the +5 changed only the third player's coins
    assert sheet.totals[0] == sheet.totals[1] > sheet.totals[2]
    assert [s.rank for s in sheet.players] == [1, 1, 3]
    assert sheet.winners == [g.names[0], g.names[1]]


def test_ylud_stay_notation_r8() -> None:
    """R8: Ylud stays by naming her own column; ``ylud stay`` is refused with that hint."""
    g = end_age2(3, {0: {"W": ["W3", "Ylud"]}})
    before = g.state.fingerprint()
    with pytest.raises(InvalidNotation, match="current column"):
        g.apply("ylud stay")
    assert g.state.fingerprint() == before
    play(g, "ylud W")
    assert g.is_over and tokens(g.state.players[0].army[C.W]) == ["W3", "Ylud"]
