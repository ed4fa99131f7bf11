"""Bids: the secret bid of every round and Uline's coin after each reveal (FR "Enchères",
"ULINE").
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Final

from ... import cards as C
from ... import coins as K
from ... import events as ev
from ...actions import (
    COIN,
    COIN_LABELS,
    Action,
    Syntax,
    interned,
)
from ...errors import InvalidNotation
from ...i18n import N_, _, join, ngettext
from ...names import card_name, tavern_name
from ..base import Choice, DecisionKind, Table
from ..controls import (
    BidDropdowns,
    CoinButtons,
    Control,
)
from .words import coin_label, coin_words


def _parse_bid(verb: str, rest: str, text: str) -> tuple[object, ...]:
    parts = rest.split()
    if len(parts) != 3:
        # Translators: a bid typed wrong ({example}: a bid in the notation).
        raise InvalidNotation(_("{text!r}: a bid names 3 coins, one per tavern (e.g. {example})")
                              .format(text=text, example="bid 5 3 0"))
    return tuple(K.parse_label(p) for p in parts)


#: ``bid 5 3 0``: the coins on taverns 1, 2 and 3.
BID = Syntax("bid 5 3 0", _parse_bid, lambda: (
    f"{a} {b} {c}" for a, b, c in itertools.product(COIN_LABELS, repeat=3)))

_BID_CACHE: Final[dict[tuple[int, ...], list[Action]]] = {}


@dataclass(frozen=True, slots=True)
class Bid(Choice):
    """FR "Enchères": a coin face down on each tavern, the other two in the purse."""

    kind: ClassVar[DecisionKind] = DecisionKind.BID
    verbs: ClassVar[Mapping[str, Syntax]] = {"bid": BID}
    # Every player bidding holds at least 4 coins (5, or 4 after Járnglófi).
    always_has_options: ClassVar[bool] = True
    group: ClassVar[str] = "bids"
    control: ClassVar[Control] = BidDropdowns()
    # Translators: another seat's bid in the game's history, before the reveal.
    face_down: ClassVar[str | None] = N_("bid (face down)")

    def legal(self, table: Table) -> list[Action]:
        """Every way to put 3 of the hand's coins on the taverns (at most 60), cached by
        hand: hands repeat a lot."""
        p = table.state.players[self.player]
        key = tuple(sorted(p.hand))
        cached = _BID_CACHE.get(key)
        if cached is None:
            labels = [K.label(c) for c in key]
            seen = dict.fromkeys(itertools.permutations(labels, 3))
            cached = _BID_CACHE[key] = [interned("bid", combo) for combo in seen]
        return cached

    def apply(self, table: Table, action: Action) -> None:
        p = table.state.players[self.player]
        hand = sorted(p.hand)
        for i, lab in enumerate(action.args):
            # The gold coin first where values repeat (ValueError when the hand holds no
            # such coin: a bid is checked before it is applied).
            coin = K.find(hand, lab)  # type: ignore[arg-type]
            hand.remove(coin)  # type: ignore[arg-type]
            p.bids[i] = coin
        p.purse = hand
        p.hand = []
        if not table.quiet:
            table.emit(ev.BidPlaced, player=p.seat)

    def prompt(self, table: Table) -> str:
        return _("Bid: put one coin on each tavern, the other two go to your purse")

    def why_illegal(self, table: Table, action: Action) -> str:
        p = table.state.players[self.player]
        hand = sorted(K.label(c) for c in p.hand)
        wanted = [str(a) for a in action.args]
        for lab in wanted:
            if wanted.count(lab) > hand.count(lab):
                return _("you do not have coin {coin} to bid (your coins: {coins})").format(
                    coin=lab, coins=" ".join(hand))
        return Choice.why_illegal(self, table, action)

    @classmethod
    def label(cls, action: Action) -> str:
        # Translators: a bid's button, "coins 5, 3, 0 on the taverns" (notation: keep the
        # values and their order, one per tavern).
        return _("coins {coins} on the taverns").format(
            coins=", ".join(str(a) for a in action.args))

    def say(self, table: Table, action: Action) -> str:
        args = action.args
        # Translators: one coin of a bid, "5 on the Laughing Goblin".
        placed = join([_("{coin} on the {tavern}").format(coin=coin_words(coin),
                                                          tavern=tavern_name(i))
                       for i, coin in enumerate(args)])
        # The bidder's own hand: what goes to the purse.
        left = [K.label(c) for c in table.state.players[self.player].hand]
        for coin in args:
            if coin in left:
                left.remove(str(coin))
        if not left:
            # Translators: a bid in words, {placed} "5 on the Laughing Goblin, 3 on ...".
            return _("Bid {placed}").format(placed=placed)
        # Translators: a bid in words and the coins left, which go to the purse.
        return ngettext("Bid {placed}; your {coins} goes to your purse",
                        "Bid {placed}; your {coins} go to your purse", len(left)).format(
            placed=placed, coins=join([coin_words(c) for c in left]))


@dataclass(frozen=True, slots=True)
class UlineBid(Choice):
    """FR "ULINE": after the reveal she puts a coin of her hand face up on the tavern."""

    tavern: int
    kind: ClassVar[DecisionKind] = DecisionKind.ULINE_BID
    verbs: ClassVar[Mapping[str, Syntax]] = {"place": COIN}
    group: ClassVar[str] = "bids"
    control: ClassVar[Control] = CoinButtons(N_("Coin to put face up on this tavern"))

    def legal(self, table: Table) -> list[Action]:
        p = table.state.players[self.player]
        return [interned("place", (lab,)) for lab in dict.fromkeys(K.label(c)
                                                                  for c in sorted(p.hand))]

    def apply(self, table: Table, action: Action) -> None:
        p = table.state.players[self.player]
        coin = K.find(p.hand, str(action.args[0]))
        if coin is None:
            raise AssertionError(f"no coin {action.args[0]} in Uline's hand")
        p.hand.remove(coin)
        p.bids[self.tavern] = coin

    def prompt(self, table: Table) -> str:
        return _("{hero}: put a coin of your hand face up on the {tavern:acc}").format(
            hero=card_name(C.ULINE), tavern=tavern_name(self.tavern))

    @classmethod
    def label(cls, action: Action) -> str:
        return coin_label(action)

    def say(self, table: Table, action: Action) -> str:
        now = table.state.tavern
        if now is None:
            return _("Put your {coin}").format(coin=coin_words(action.args[0]))
        return _("Put your {coin} on the {tavern:acc}").format(
            coin=coin_words(action.args[0]), tavern=tavern_name(now))
