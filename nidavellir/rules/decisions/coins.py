"""Coins: transforms (a Royal Offering, Grid, the King's Hand, Khrad), Uline's trade and
Vidofnir's pair of transforms (FR p.11 "Transformer une pièce"; R4, R6, R21).
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
    COIN_LABELS,
    PLACES,
    Action,
    Syntax,
    interned,
    place,
)
from ...errors import InvalidNotation
from ...i18n import N_, _
from ...names import card_name
from ...state import PlayerState
from ..base import Choice, DecisionKind, Table
from ..controls import (
    CoinButtons,
    Control,
)
from ..thingvellir import lowest_coins, vidofnir_options, vidofnir_pool
from .words import coin_label, coin_words, origin, place_words


def coin_places(p: PlayerState) -> list[tuple[str, int]]:
    """(place, coin) for every coin a player owns: hand, the taverns' bids, purse."""
    out = [("hand", c) for c in p.hand]
    out += [(_BID_PLACES[i], c) for i, c in enumerate(p.bids) if c is not None]
    out += [("purse", c) for c in p.purse]
    return out


_BID_PLACES: Final = tuple(place for place in PLACES if place.startswith("T"))


def by_coin(places: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """``places`` sorted by coin, in their order where coins are equal: each as one number
    (the coin, then its position), a list of ints sorted without a key function (the
    compiled build would call it through Python's generic call for every coin). The
    position takes five bits, room for 32 places: a player always holds five coins."""
    keyed = [(c << 5) | i for i, (_, c) in enumerate(places)]
    keyed.sort()
    return [places[k & 31] for k in keyed]


#: ``transform LABEL@PLACE`` for each (coin, place): the transforms' legal actions.
_TRANSFORMS: Final[dict[tuple[int, str], Action]] = {}


def _transform_action(coin: int, place: str) -> Action:
    found = _TRANSFORMS.get((coin, place))
    if found is None:
        found = _TRANSFORMS[(coin, place)] = interned("transform", (K.label(coin), place))
    return found





def _parse_coin_at(verb: str, rest: str, text: str) -> tuple[object, ...]:
    coin, at, where = rest.partition("@")
    if not at:
        # Translators: a transform typed wrong ({example}: one in the notation).
        raise InvalidNotation(_("{text!r}: name the coin and its place, e.g. {example}").format(
            text=text, example="transform 5@purse"))
    return (K.parse_label(coin), place(where))


#: ``transform 5@purse``: a coin and the place it lies.
COIN_AT_PLACE = Syntax(
    "transform 5@purse", _parse_coin_at,
    lambda: (f"{a}@{where}" for a in COIN_LABELS for where in PLACES),
    lambda verb, args: f"{verb} {args[0]}@{args[1]}")

@dataclass(frozen=True, slots=True)
class Transform(Choice):
    """FR "Transformer une pièce" (p.11; R6): a Royal Offering, Grid, the King's Hand,
    Khrad (``lowest``: only the lowest coins, R4)."""

    bonus: int
    reason: str
    lowest: bool = False
    kind: ClassVar[DecisionKind] = DecisionKind.TRANSFORM
    verbs: ClassVar[Mapping[str, Syntax]] = {"transform": COIN_AT_PLACE}
    group: ClassVar[str] = "coins"
    control: ClassVar[Control] = CoinButtons(N_("Coins {where}"), by_place=True)

    def legal(self, table: Table) -> list[Action]:
        p = table.state.players[self.player]
        places = by_coin(coin_places(p))
        if self.lowest:
            places = lowest_coins(p, places)
        exchange = K.EXCHANGE_COINS
        out = dict.fromkeys([_transform_action(c, place) for place, c in places
                             if c not in exchange])
        return list(out)

    def apply(self, table: Table, action: Action) -> None:
        label, where = action.args
        table.transform(table.state.players[self.player], str(label), str(where), self.bonus,
                        self.reason)

    def prompt(self, table: Table) -> str:
        # Translators: {reason} is the card that transforms (King's Hand, Grid, ...).
        return _("{reason}: choose a coin to transform by +{bonus}").format(
            reason=origin(self.reason), bonus=self.bonus)

    def why_illegal(self, table: Table, action: Action) -> str:
        label, where = action.args
        if K.is_exchange_label(str(label)):
            return _("coin {coin} is an exchange coin: it can never be transformed "
                     "(FR p.11)").format(coin=label)
        # Translators: {place} is "in your purse", "on the Dancing Dragon".
        return _("you have no coin {coin} {place}").format(coin=label,
                                                           place=place_words(str(where)))

    @classmethod
    def label(cls, action: Action) -> str:
        return coin_label(action)

    def say(self, table: Table, action: Action) -> str:
        coin, where = action.args
        # Translators: {place} is "in your purse", "on the Dancing Dragon".
        return _("Transform your {coin} {place}").format(coin=coin_words(coin),
                                                         place=place_words(str(where)))


def _parse_trade(verb: str, rest: str, text: str) -> tuple[object, ...]:
    parts = rest.split()
    if len(parts) != 2:
        # Translators: a trade typed wrong ({example}: one in the notation).
        raise InvalidNotation(_("{text!r}: a trade names 2 coins (e.g. {example})").format(
            text=text, example="trade 5 9"))
    a, b = sorted((K.parse_label(p) for p in parts), key=K.label_key)
    return (a, b)


def _trade_texts() -> list[str]:
    ordered = sorted(COIN_LABELS, key=K.label_key)
    return [f"{a} {b}" for i, a in enumerate(ordered) for b in ordered[i:]]


#: ``trade 5 9``: two coins, written low to high whatever order they are typed in.
TRADE = Syntax("trade 5 9", _parse_trade, _trade_texts)


@dataclass(frozen=True, slots=True)
class UlineTrade(Choice):
    """FR "ULINE": her trades take two coins of her hand."""

    kind: ClassVar[DecisionKind] = DecisionKind.ULINE_TRADE
    verbs: ClassVar[Mapping[str, Syntax]] = {"trade": TRADE}
    group: ClassVar[str] = "coins"
    control: ClassVar[Control] = CoinButtons(N_("Two coins of your hand to trade"))

    def legal(self, table: Table) -> list[Action]:
        p = table.state.players[self.player]
        labels = sorted((K.label(c) for c in p.hand), key=K.label_key)
        return [interned("trade", pair) for pair in dict.fromkeys(itertools.combinations(labels, 2))]

    def apply(self, table: Table, action: Action) -> None:
        p = table.state.players[self.player]
        a_label, b_label = (str(x) for x in action.args)
        a = K.find(p.hand, a_label)
        assert a is not None
        rest = list(p.hand)
        rest.remove(a)
        b = K.find(rest, b_label)
        assert b is not None
        table.trade(p, p.hand, a, b)

    def prompt(self, table: Table) -> str:
        return _("{hero}: choose two coins of your hand to trade").format(
            hero=card_name(C.ULINE))

    @classmethod
    def label(cls, action: Action) -> str:
        return f"{action.args[0]} + {action.args[1]}"

    def say(self, table: Table, action: Action) -> str:
        return _("Trade your {a} and {b}").format(a=coin_words(action.args[0]),
                                                  b=coin_words(action.args[1]))


def _coin_bonus(text: str) -> str:
    coin, plus, bonus = text.partition("+")
    if not plus or not (bonus.isascii() and bonus.isdigit()):
        # Translators: a coin and its bonus typed wrong ({example}: "5+2", notation).
        raise InvalidNotation(_("{text!r}: expected a coin and its bonus, e.g. {example}").format(
            text=text, example="5+2"))
    return f"{K.parse_label(coin)}+{int(bonus)}"


def _parse_vidofnir(verb: str, rest: str, text: str) -> tuple[object, ...]:
    parts = rest.split()
    if len(parts) not in (1, 2):
        # Translators: Vidofnir's move typed wrong ({example}, {other}: in the notation).
        raise InvalidNotation(_("{text!r}: expected {example} (or {other})").format(
            text=text, example="vidofnir 5+2 9+3", other="vidofnir 5+5"))
    return tuple(_coin_bonus(p) for p in parts)


def _vidofnir_texts() -> list[str]:
    out = [f"{a}+5" for a in COIN_LABELS]
    out += [f"{a}+2 {b}+3" for a in COIN_LABELS for b in COIN_LABELS]
    out += [f"{b}+3 {a}+2" for a in COIN_LABELS for b in COIN_LABELS]
    return out


#: ``vidofnir 5+2 9+3`` (or ``vidofnir 5+5``): its transforms, in the order they happen.
VIDOFNIR = Syntax("vidofnir 5+2 9+3", _parse_vidofnir, _vidofnir_texts)


@dataclass(frozen=True, slots=True)
class Vidofnir(Choice):
    """FR Thingvellir "VIDOFNIR & VEDRFÖLNIR": +2 and +3 on two purse coins (+5 on a
    single one); R21 with Uline."""

    kind: ClassVar[DecisionKind] = DecisionKind.VIDOFNIR
    verbs: ClassVar[Mapping[str, Syntax]] = {"vidofnir": VIDOFNIR}
    group: ClassVar[str] = "coins"
    control: ClassVar[Control] = CoinButtons(N_("{artifact}: coins to transform, in this order"),
                                                names={"artifact": C.VIDOFNIR_VEDRFOLNIR})

    def legal(self, table: Table) -> list[Action]:
        p = table.state.players[self.player]
        return [interned("vidofnir", tuple(f"{lab}+{bonus}" for lab, bonus in option))
                for option in vidofnir_options(p)]

    def apply(self, table: Table, action: Action) -> None:
        p = table.state.players[self.player]
        place, pool = vidofnir_pool(p)
        steps: list[tuple[int, int]] = []
        used: list[int] = []
        for arg in action.args:
            label, _plus, plus = str(arg).partition("+")
            index = next(i for i, c in enumerate(pool) if K.label(c) == label and i not in used
                         and not K.is_exchange(c))
            used.append(index)
            steps.append((index, int(plus)))
        for index, bonus in steps:
            coin = pool[index]
            new = table.state.treasury.exchange(coin, K.value(coin) + bonus + table.jarika(p))
            if new is not None:
                pool[index] = new
            table.emit(ev.CoinTransformed, player=p.seat, old=K.label(coin),
                       new=K.label(new if new is not None else coin), place=place,
                       reason=C.VIDOFNIR_VEDRFOLNIR.name)

    def prompt(self, table: Table) -> str:
        return _("{artifact}: transform your purse coins (+2 and +3)").format(
            artifact=card_name(C.VIDOFNIR_VEDRFOLNIR))

    @classmethod
    def label(cls, action: Action) -> str:
        parts = [f"{coin} +{bonus}" for coin, _plus, bonus in
                 (str(arg).partition("+") for arg in action.args)]
        if len(parts) == 1:
            return parts[0]
        # Translators: Vidofnir's button, two transforms in order: "5 +2, then 9 +3".
        return _("{first}, then {second}").format(first=parts[0], second=parts[1])

    def say(self, table: Table, action: Action) -> str:
        parts = [str(a).split("+") for a in action.args]
        if len(parts) == 1:
            return _("Transform your {coin} by +{bonus}").format(coin=coin_words(parts[0][0]),
                                                                bonus=parts[0][1])
        return _("Transform your {a} by +{a_bonus} and your {b} by +{b_bonus}").format(
            a=coin_words(parts[0][0]), a_bonus=parts[0][1], b=coin_words(parts[1][0]),
            b_bonus=parts[1][1])
