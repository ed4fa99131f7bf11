"""Thingvellir: the camp, mercenaries, artifacts and the six new heroes.

FR Thingvellir part (shared/seeds/003_...): "Le Campement", "Les Mercenaires" (p.24),
"Les Artefacts", "Nouveaux Héros"; rulings R14-R22 of RULINGS.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import cards as C
from .. import coins as K
from .. import events as ev
from ..cards import Card, Kind, Suit
from ..state import GameState, PlayerState

if TYPE_CHECKING:
    from ..engine import Engine


def refill_camp(eng: Engine) -> None:
    """At the start of every round, camp cards of the current age are revealed until
    5 show (FR "Le Campement"); an empty camp deck leaves fewer."""
    s = eng.state
    deck = s.camp_decks[s.age]
    added = []
    while len(s.camp) < C.CAMP_SIZE and deck:
        card = deck.pop()
        s.camp.append(card)
        added.append(card)
    if added:
        eng.emit(ev.CampRefilled, cards=tuple(added))


def may_visit_camp(s: GameState, p: PlayerState) -> bool:
    """Only the tavern's winner may take a camp card instead of a tavern card; the
    owner of Fafnir Båleygr may when the winner did not (FR "FAFNIR BÅLEYGR"; R18)."""
    if not s.camp or s.camp_visited:
        return False
    return (bool(s.order) and s.order[0] == p.seat) or C.FAFNIR_BALEYGR in p.command_zone


def unplaced_mercenaries(p: PlayerState) -> list[Card]:
    return [c for c in p.command_zone if c.kind is Kind.MERCENARY]


def enlistment_order(players: list[PlayerState]) -> list[int]:
    """Most unplaced mercenaries first, ties by gem without exchange (FR p.24)."""
    holders = [p for p in players if unplaced_mercenaries(p)]
    holders.sort(key=lambda p: (len(unplaced_mercenaries(p)), p.gem), reverse=True)
    return [p.seat for p in holders]


def army_discard_options(p: PlayerState, only: Suit | None) -> list[tuple[Card, Suit]]:
    """(card, column) pairs a player may discard from anywhere in the army: any card
    but a hero (R16); Höfud only in the warrior column."""
    out: dict[tuple[Card, Suit], None] = {}
    for suit in C.SUITS:
        if only is not None and suit is not only:
            continue
        for card in p.army[suit]:
            if card.kind is not Kind.HERO:
                out[(card, suit)] = None
    return list(out)


def vidofnir_pool(p: PlayerState) -> tuple[str, list[int]]:
    """The coins Vidofnir & Vedrfölnir transforms: the purse (R21: Uline's hand coins not
    on the board). Between rounds, when the purse is empty, the coins in hand."""
    if p.purse:
        return "purse", p.purse
    return "hand", p.hand


def vidofnir_options(p: PlayerState) -> list[tuple[tuple[str, int], ...]]:
    """Each option: ((coin label, bonus), ...) in the order the transforms happen."""
    _, pool = vidofnir_pool(p)
    eligible = sorted(c for c in pool if not K.is_exchange(c))
    labels = list(dict.fromkeys(K.label(c) for c in eligible))
    if len(eligible) == 1:
        return [((labels[0], C.VIDOFNIR_SINGLE_BONUS),)]
    if not eligible:
        return []
    lo, hi = C.VIDOFNIR_BONUSES
    options: dict[tuple[tuple[str, int], ...], None] = {}
    for i, a in enumerate(eligible):
        for j, b in enumerate(eligible):
            if i == j:
                continue
            la, lb = K.label(a), K.label(b)
            options[((la, lo), (lb, hi))] = None
            options[((lb, hi), (la, lo))] = None
    return list(options)


def discard_exchange_coin(eng: Engine, p: PlayerState) -> None:
    """Járnglófi: the exchange coin leaves the game at once; on a tavern not yet
    resolved the player has no bid there (R20)."""
    for t, coin in enumerate(p.bids):
        if coin is not None and K.is_exchange(coin):
            p.bids[t] = None
            eng.emit(ev.CoinDiscarded, player=p.seat, coin=K.label(coin), reason="Járnglófi")
            return
    for pool in (p.purse, p.hand):
        for coin in pool:
            if K.is_exchange(coin):
                pool.remove(coin)
                eng.emit(ev.CoinDiscarded, player=p.seat, coin=K.label(coin), reason="Járnglófi")
                return


def take_artifact(eng: Engine, p: PlayerState, card: Card) -> None:
    """An artifact's immediate effect (FR Thingvellir "Les Artefacts")."""
    s = eng.state
    seat = p.seat
    if card is C.VEGVISIR:
        eng.place(p, card, Suit.EXPLORER)
        return
    p.command_zone.append(card)
    if card is C.VIDOFNIR_VEDRFOLNIR:
        eng.push(("vidofnir", seat))
    elif card is C.BRISINGAMENS:
        eng.push(("brisingamens", seat, 2, ()))
    elif card is C.HOFUD:
        others = [q for q in s.players[seat + 1:] + s.players[:seat]
                  if army_discard_options(q, Suit.WARRIOR)]
        eng.push(*[("army_discard", q.seat, "Höfud", Suit.WARRIOR) for q in others])
    elif card is C.JARNGLOFI:
        discard_exchange_coin(eng, p)
    elif card is C.GJALLARHORN:
        # A hero now, whatever the lines, even with Megingjord (FR "GJALLARHORN").
        eng.push(("hero", seat, "Gjallarhorn"), ("recruit", seat))


def on_recruit(eng: Engine, p: PlayerState, hero: Card) -> None:
    """The Thingvellir heroes' effects (they all go to the command zone first)."""
    seat = p.seat
    if hero is C.ANDUMIA:
        eng.push(("andumia", seat))
    elif hero is C.HOLDA:
        eng.push(("holda", seat))
    elif hero is C.KHRAD:
        eng.push(("transform", seat, C.KHRAD_BONUS + eng.jarika(p), "Khrad", "lowest"))
    elif hero is C.OLWYN:
        p.held.extend([C.OLWYN_DOUBLE] * C.OLWYN_DOUBLE_COUNT)
        eng.push(("olwyn", seat, (), C.OLWYN_DOUBLE_COUNT))
    elif hero is C.ZOLKUR:
        p.zolkur = True


def lowest_coins(p: PlayerState, places: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Khrad: the non-exchange coins of the lowest value (R4: the player picks among ties)."""
    eligible = [(place, c) for place, c in places if not K.is_exchange(c)]
    if not eligible:
        return []
    low = min(K.value(c) for _, c in eligible)
    return [(place, c) for place, c in eligible if K.value(c) == low]
