"""The flow of a game: the automatic steps between decisions.

A round (FR "Préparation du tour", "Enchères", "RÉVÉLATION DE LA MISE", "ÉCHANGE DE
GEMMES", "Tour suivant"), the end of each age in the order of R14 (mercenaries, Ylud, the
distinctions of FR "Fin de l'Age 1" with R3 and R23, Thrud, Brisingamens), and the end of
the game. Each step is a frozen value; those that come back every round are shared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .. import cards as C
from .. import coins as K
from .. import events as ev
from ..scoring import score_table, tables_of
from .army import army_discard_options
from .base import Step, Table
from .decisions import (
    ENLIST_MORE,
    ArmyDiscard,
    Bid,
    EnlistOrder,
    Pick,
    PioneerKeep,
    Transform,
    UlineBid,
    UlineTrade,
    YludColumn,
)
from .taverns import exchange_gems, turn_order
from .thingvellir import enlistment_order, refill_camp

W, H, M, B, E = C.SUITS

# ====================================================================== a round


@dataclass(frozen=True, slots=True)
class RoundStart(Step):
    """FR "Préparation du tour": the camp is refilled, the dwarves enter the taverns, then
    the secret bids (Uline bids later, face up)."""

    def run(self, table: Table) -> None:
        s = table.state
        s.round += 1
        s.tavern = None
        if s.config.thingvellir:
            refill_camp(table)
        n = s.config.cards_per_tavern
        deck = s.decks[s.age]
        if len(deck) < 3 * n:
            raise AssertionError(f"age {s.age}: {len(deck)} cards left for 3 taverns of {n}")
        for t in C.TAVERN_INDICES:
            drawn = deck[-n:]  # the top n cards, drawn one at a time from the top
            drawn.reverse()
            del deck[-n:]
            s.taverns[t] = drawn
        if not table.quiet:
            table.emit(ev.RoundStarted, taverns=tuple(tuple(t) for t in s.taverns))
        table.push(*[BID[p.seat] for p in s.players if C.ULINE not in p.command_zone],
                   *REVEAL, ROUND_END)


@dataclass(frozen=True, slots=True)
class Reveal(Step):
    """FR "RÉVÉLATION DE LA MISE"; Uline bids face up after the reveal (FR "ULINE")."""

    tavern: int

    def run(self, table: Table) -> None:
        s = table.state
        t = self.tavern
        s.tavern = t
        for p in s.players:
            if p.bids[t] is None and p.hand and C.ULINE in p.command_zone:
                table.push(UlineBid(p.seat, t), ORDER[t])
                return
        table.push(ORDER[t])


@dataclass(frozen=True, slots=True)
class Order(Step):
    """The tavern's turn order: by bid, then gem (FR "RÉVÉLATION DE LA MISE")."""

    tavern: int

    def run(self, table: Table) -> None:
        s = table.state
        t = self.tavern
        order, ties = turn_order(s.players, t)
        s.order = order
        s.ties = ties
        s.camp_visited = False
        if not table.quiet:
            table.emit(ev.BidsRevealed,
                       bids=tuple((i, K.label(s.players[i].bids[t] or 0)) for i in order),
                       order=tuple(order), ties=tuple(tuple(g) for g in ties))
        # Stacked so that they run pick, (trade), pick, (trade), ..., tavern_end. Only an
        # exchange coin bid here can lead to a trade: transforms never make one (FR p.11).
        tasks = s.tasks
        tasks.append(TAVERN_END[t])
        players = s.players
        for i in reversed(order):
            if players[i].bids[t] in K.EXCHANGE_COINS:
                tasks.append(TRADE[i][t])
            tasks.append(PICK[i][t])


@dataclass(frozen=True, slots=True)
class Trade(Step):
    """After the card and heroes: trade if the bid here is the exchange coin (FR "Échanger
    des pièces"). Uline trades two coins of her hand (FR "ULINE")."""

    seat: int
    tavern: int

    def run(self, table: Table) -> None:
        p = table.state.players[self.seat]
        if p.bids[self.tavern] not in K.EXCHANGE_COINS:
            return
        if C.ULINE in p.command_zone:
            if len(p.hand) > 2:
                table.push(UlineTrade(p.seat))
            elif len(p.hand) == 2:
                table.trade(p, p.hand, p.hand[0], p.hand[1])
            return
        if len(p.purse) == 2:
            table.trade(p, p.purse, p.purse[0], p.purse[1])


@dataclass(frozen=True, slots=True)
class TavernEnd(Step):
    """Leftover cards are discarded face up; tied bidders exchange gems (FR "ÉCHANGE DE
    GEMMES"; R11)."""

    tavern: int

    def run(self, table: Table) -> None:
        s = table.state
        t = self.tavern
        for card in s.taverns[t]:
            table.discard_card(card, None, ev.LEFT_IN_TAVERN)
        s.taverns[t] = []
        if s.ties:
            swaps = exchange_gems(s.players, s.ties)
            if swaps:
                table.emit(ev.GemsExchanged, swaps=tuple(swaps))
        s.order = []
        s.ties = []


@dataclass(frozen=True, slots=True)
class RoundEnd(Step):
    """FR "Tour suivant": every coin goes back to its owner's hand."""

    def run(self, table: Table) -> None:
        s = table.state
        for p in s.players:
            p.hand = sorted(p.hand + [c for c in p.bids if c is not None] + p.purse)
            p.bids = [None] * len(C.TAVERNS)
            p.purse = []
        s.tavern = None
        if s.round < s.config.rounds_per_age:
            table.push(ROUND_START)
        else:
            if s.decks[s.age]:
                raise AssertionError(f"age {s.age} ends with {len(s.decks[s.age])} cards "
                                     "in its deck")
            table.push(AgeEnd())


# ====================================================================== the end of an age

@dataclass(frozen=True, slots=True)
class AgeEnd(Step):
    """End-of-age order (R14): age 1 mercenaries, Ylud, the distinctions, the camp cleared;
    age 2 mercenaries, Ylud, mercenaries gained since (R22), Thrud to the command zone,
    Brisingamens' discard, final scoring."""

    def run(self, table: Table) -> None:
        s = table.state
        table.emit(ev.AgeEnded)
        if s.age == 1:
            table.push(Enlistment(), YludStep(), *[Distinction(i) for i in range(len(C.DISTINCTIONS))],
                       ClearCamp(), StartAge(2))
        else:
            table.push(Enlistment(), YludStep(), Enlistment(), ThrudLeaves(),
                       BrisingamensEnd(), GameEnd())


@dataclass(frozen=True, slots=True)
class Enlistment(Step):
    """Mercenary enlistment (FR Thingvellir p.24; R14): most mercenaries first (ties by gem,
    no exchange); that player chooses to go first or last; each places all of theirs."""

    def run(self, table: Table) -> None:
        order = enlistment_order(table.state.players)
        if len(order) > 1:
            table.push(EnlistOrder(order[0], tuple(order)))
        elif order:
            table.push(ENLIST_MORE[order[0]])


@dataclass(frozen=True, slots=True)
class YludStep(Step):
    """FR "YLUD L'IMPRÉVISIBLE": placed at the end of each age; may move at the end of
    age 2 (R8)."""

    def run(self, table: Table) -> None:
        for p in table.state.players:
            if C.YLUD in p.command_zone or p.column_of(C.YLUD) is not None:
                table.push(YludColumn(p.seat))


def distinction_winner(ranks: list[int]) -> int | None:
    """The seat that wins a class's distinction from every player's ranks in that class: a
    strict majority; a tie for the most ranks gives it to nobody (FR "Fin de l'Age 1", R23).
    The troop evaluation and the coach's words both ask this."""
    best = max(ranks)
    winners = [seat for seat, r in enumerate(ranks) if r == best]
    return winners[0] if len(winners) == 1 else None


@dataclass(frozen=True, slots=True)
class Distinction(Step):
    """Troop evaluation (FR "Fin de l'Age 1"): the strict majority of a class's ranks wins
    its distinction (R23); nobody wins the Pioneer of the Kingdom: R3."""

    index: int

    def run(self, table: Table) -> None:
        s = table.state
        card = C.DISTINCTIONS[self.index]
        suit = C.SUITS[self.index]
        ranks = [p.ranks[suit] for p in s.players]
        winner = distinction_winner(ranks)
        quiet = table.quiet
        if winner is None:
            if not quiet:
                table.emit(ev.DistinctionAwarded, distinction=card, player=None,
                           ranks=tuple(ranks))
            if card is C.PIONEER_OF_THE_KINGDOM:
                top = s.decks[2].pop()
                if s.config.options.pioneer_tie_to_box:
                    s.box.append(top)
                else:
                    table.discard_card(top, None, ev.PIONEER_UNWON)
            return
        p = s.players[winner]
        p.command_zone.append(card)
        if not quiet:
            table.emit(ev.DistinctionAwarded, distinction=card, player=p.seat,
                       ranks=tuple(ranks))
        if card is C.KINGS_HAND:
            table.push(Transform(p.seat, C.KINGS_HAND_BONUS + table.jarika(p), card.name))
        elif card is C.HUNTING_MASTER:
            if K.EXCHANGE_COIN in p.hand:
                p.hand.remove(K.EXCHANGE_COIN)
                p.hand.append(K.HUNTER_COIN)
                p.hand.sort()
                table.emit(ev.CoinSwapped, player=p.seat)
        elif card is C.CROWN_JEWELER:
            table.emit(ev.GemReplaced, player=p.seat, old=p.gem)
            p.gem = C.GEM_6
        elif card is C.KINGS_GREAT_ARMORER:
            table.place(p, C.SPECIAL_BLACKSMITH, B)
        elif card is C.PIONEER_OF_THE_KINGDOM:
            s.drawn = [s.decks[2].pop() for _ in range(C.PIONEER_DRAW)]
            table.push(PioneerKeep(p.seat))


@dataclass(frozen=True, slots=True)
class ClearCamp(Step):
    """After the age-1 distinctions the camp is cleared into the camp discard (R14, R15)."""

    def run(self, table: Table) -> None:
        s = table.state
        s.camp_discard.extend(s.camp)
        s.camp_discard.extend(reversed(s.camp_decks[1]))
        s.camp = []
        s.camp_decks[1] = []


@dataclass(frozen=True, slots=True)
class StartAge(Step):
    age: int

    def run(self, table: Table) -> None:
        s = table.state
        s.age = self.age
        s.round = 0
        table.push(ROUND_START)


@dataclass(frozen=True, slots=True)
class ThrudLeaves(Step):
    """FR "THRUD": at the end of age 2 she goes to the command zone (13 points)."""

    def run(self, table: Table) -> None:
        for p in table.state.players:
            suit = p.column_of(C.THRUD)
            if suit is not None:
                p.remove_from_column(C.THRUD, suit)
                p.command_zone.append(C.THRUD)
                table.emit(ev.CardToCommandZone, player=p.seat, card=C.THRUD, column=suit)


@dataclass(frozen=True, slots=True)
class BrisingamensEnd(Step):
    """Brisingamens: at the end of age 2 its owner discards a non-hero card (R14, R16)."""

    def run(self, table: Table) -> None:
        for p in table.state.players:
            if C.BRISINGAMENS in p.command_zone and army_discard_options(p, None):
                table.push(ArmyDiscard(p.seat, "Brisingamens", None))


@dataclass(frozen=True, slots=True)
class GameEnd(Step):
    def run(self, table: Table) -> None:
        s = table.state
        s.over = True
        if not table.quiet:
            # The event keeps the totals only: the detail lines (a learner's words) are
            # built when a score sheet is asked for (Game.scores).
            sheet = score_table(tables_of(s, copy=False), s.config.options, details=False)
            table.emit(ev.GameEnded, totals=tuple(sheet.totals))


# The steps that come back every round, shared (steps are immutable values).
ROUND_START: Final = RoundStart()
ROUND_END: Final = RoundEnd()
REVEAL: Final[tuple[Reveal, ...]] = tuple(Reveal(t) for t in C.TAVERN_INDICES)
ORDER: Final[tuple[Order, ...]] = tuple(Order(t) for t in C.TAVERN_INDICES)
TAVERN_END: Final[tuple[TavernEnd, ...]] = tuple(TavernEnd(t) for t in C.TAVERN_INDICES)
BID: Final[tuple[Bid, ...]] = tuple(Bid(seat) for seat in C.SEATS)
PICK: Final[tuple[tuple[Pick, ...], ...]] = tuple(tuple(Pick(seat, t) for t in C.TAVERN_INDICES)
                                                  for seat in C.SEATS)
TRADE: Final[tuple[tuple[Trade, ...], ...]] = tuple(tuple(Trade(seat, t)
                                                          for t in C.TAVERN_INDICES)
                                                    for seat in C.SEATS)

__all__ = ["AgeEnd", "BrisingamensEnd", "ClearCamp", "Distinction", "Enlistment", "GameEnd",
           "Order", "Reveal", "RoundEnd", "RoundStart", "StartAge", "TavernEnd", "ThrudLeaves",
           "Trade", "YludStep", "distinction_winner"]
