"""The decisions of the game, one class each (the heroes' own decision is in :mod:`.heroes`).

Each class holds everything about its kind of decision (see :mod:`.base`): who decides and
the facts the decision needs as named fields, its legal actions, what applying one does,
how its actions are written (its verbs' :class:`~nidavellir.actions.Syntax`; the shapes
only one decision uses are defined beside it), how it is asked, its words for a learner
and why a move is refused. The rulebook section or ruling that decides each is cited on
the class.

>>> Transform(2, bonus=5, reason="King's Hand")
Transform(player=2, bonus=5, reason="King's Hand", lowest=False)
>>> Pick(0, tavern=1).kind
'pick'
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Final

from .. import cards as C
from .. import coins as K
from .. import events as ev
from ..actions import (
    CARD,
    CARD_TOKENS,
    COIN,
    COIN_LABELS,
    COLUMN,
    COLUMNS,
    NO_ARGS,
    PLACES,
    Action,
    Syntax,
    format_arg,
    interned,
    place,
)
from ..cards import Card, Kind, Suit
from ..draws import shuffle
from ..errors import InvalidNotation
from ..i18n import N_, _, join, ngettext, pgettext
from ..names import card_name, class_in_sentence, class_name, tavern_name
from ..state import PlayerState
from ..tokens import parse_suit, parse_token
from .army import army_discard_options, discardable_columns, unplaced_mercenaries
from .base import Choice, DecisionKind, Step, Table
from .thingvellir import lowest_coins, may_visit_camp, vidofnir_options, vidofnir_pool

_COLUMN_ACTIONS: Final[dict[str, list[Action]]] = {}


def _column_actions(verb: str) -> list[Action]:
    """``verb W`` … ``verb E``: one shared list per verb."""
    found = _COLUMN_ACTIONS.get(verb)
    if found is None:
        found = _COLUMN_ACTIONS[verb] = [interned(verb, (suit,)) for suit in C.SUITS]
    return found


def coin_places(p: PlayerState) -> list[tuple[str, int]]:
    """(place, coin) for every coin a player owns: hand, the taverns' bids, purse."""
    out = [("hand", c) for c in p.hand]
    out += [(_BID_PLACES[i], c) for i, c in enumerate(p.bids) if c is not None]
    out += [("purse", c) for c in p.purse]
    return out


_BID_PLACES: Final = ("T1", "T2", "T3")


def _by_coin(where: tuple[str, int]) -> int:
    return where[1]


#: ``transform LABEL@PLACE`` for each (coin, place): the transforms' legal actions.
_TRANSFORMS: Final[dict[tuple[int, str], Action]] = {}


def _transform_action(coin: int, place: str) -> Action:
    found = _TRANSFORMS.get((coin, place))
    if found is None:
        found = _TRANSFORMS[(coin, place)] = interned("transform", (K.label(coin), place))
    return found


# ====================================================================== words for a learner

# The words of the decisions are whole sentences in the reader's language
# (nidavellir.i18n), with the rulebooks' names (nidavellir.names); notation (``W``, ``5``,
# ``W6/E8``) stays as it is inside them.

def card_words(card: Card) -> str:
    """A card in a sentence: "the explorer 9", "the Royal Offering +3", "Dagda"."""
    if card.kind is Kind.DWARF:
        assert card.suit is not None
        bravery = card.name.rpartition(" ")[2]
        # Translators: a dwarf card inside a sentence, "Take the explorer 9" ({card_class}
        # is the class, {bravery} its points); the article may go where the language has none.
        if bravery.isdigit():
            return pgettext("card in a sentence", "the {card_class} {bravery}").format(
                card_class=class_in_sentence(card.suit), bravery=bravery)
        # Translators: a dwarf card without points inside a sentence, "Take the hunter".
        return pgettext("card in a sentence", "the {card_class}").format(
            card_class=class_in_sentence(card.suit))
    if card.kind is Kind.MERCENARY:
        # Translators: a mercenary card inside a sentence; {token} is notation ("W6/E8").
        return pgettext("card in a sentence", "the mercenary {token}").format(token=card.token)
    if card.kind is Kind.ROYAL_OFFERING:
        # Translators: a Royal Offering inside a sentence, "Take the Royal Offering +3".
        return pgettext("card in a sentence", "the {card}").format(card=card_name(card))
    return card_name(card)


def coin_words(coin: object) -> str:
    """A coin in a sentence: its value, and the Hunting Master's coin (``3*`` in the
    notation) named as such."""
    text = str(coin)
    if text.endswith("*"):
        # Translators: the special coin 3 of the Hunting Master distinction, "3 (the
        # Hunting Master's coin)".
        return _("{value} (the {distinction}'s coin)").format(
            value=text[:-1], distinction=card_name(C.HUNTING_MASTER))
    return text


def column_words(suit: Suit) -> str:
    # Translators: a column of the reader's army, "Put Thrud in your warrior column".
    return _("your {card_class} column").format(card_class=class_in_sentence(suit))


def place_words(where: str) -> str:
    """A coin's place in a sentence: "in your purse", "on the Dancing Dragon"."""
    if where == "hand":
        # Translators: where a coin lies, "Transform your 5 in your hand".
        return _("in your hand")
    if where == "purse":
        # Translators: where a coin lies, "Transform your 5 in your purse".
        return _("in your purse")
    # Translators: where a coin lies: bid on a tavern, "Transform your 5 on the Dancing Dragon".
    return _("on the {tavern}").format(tavern=tavern_name(int(where[1]) - 1))


def origin(text: str) -> str:
    """What brought a decision (its ``reason``: a card's name) in the reader's language."""
    return ev.origin(text)


def _card_arg(action: Action, i: int = 0) -> Card:
    arg = action.args[i]
    assert isinstance(arg, Card)
    return arg


def _suit_arg(action: Action, i: int = 0) -> Suit:
    arg = action.args[i]
    assert isinstance(arg, Suit)
    return arg


# ====================================================================== bids

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
    control: ClassVar[str] = "bid"
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
        find = K.find
        for i, lab in enumerate(action.args):
            # The gold coin first where values repeat (ValueError when the hand holds no
            # such coin: a bid is checked before it is applied).
            coin = find(hand, lab)  # type: ignore[arg-type]
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
    control: ClassVar[str] = "coins"

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
        return _("{hero}: put a coin of your hand face up on the {tavern}").format(
            hero=card_name(C.ULINE), tavern=tavern_name(self.tavern))

    @classmethod
    def label(cls, action: Action) -> str:
        return coin_label(action)

    def say(self, table: Table, action: Action) -> str:
        now = table.state.tavern
        if now is None:
            return _("Put your {coin}").format(coin=coin_words(action.args[0]))
        return _("Put your {coin} on the {tavern}").format(coin=coin_words(action.args[0]),
                                                           tavern=tavern_name(now))


def coin_label(action: Action) -> str:
    # Translators: a coin's button, "coin 5" (notation: keep the value).
    return _("coin {coin}").format(coin=action.args[0])


# ====================================================================== taverns and the camp

#: Each card's tavern pick and camp pick (``take C``, ``camp C``: Pick's actions).
TAKE: Final[dict[Card, Action]] = {c: interned("take", (c,)) for c in C.ALL_CARDS}
CAMP: Final[dict[Card, Action]] = {c: interned("camp", (c,)) for c in C.ALL_CARDS}


@dataclass(frozen=True, slots=True)
class Pick(Choice):
    """FR "TOUR DE L'ELVALAND ACTIF-VE": a card of the tavern, or (Thingvellir, the
    winner or Fafnir's owner) a camp card instead (FR "Le Campement"; R18, R19)."""

    tavern: int
    kind: ClassVar[DecisionKind] = DecisionKind.PICK
    verbs: ClassVar[Mapping[str, Syntax]] = {"take": CARD, "camp": CARD}
    group: ClassVar[str] = "picks"
    control: ClassVar[str] = "cards"
    tells_options: ClassVar[bool] = True

    def has_options(self, table: Table) -> bool:
        return bool(table.state.taverns[self.tavern])

    def legal(self, table: Table) -> list[Action]:
        s = table.state
        actions = [TAKE[c] for c in dict.fromkeys(s.taverns[self.tavern])]
        if s.camp and may_visit_camp(s, s.players[self.player]):
            actions += [CAMP[c] for c in dict.fromkeys(s.camp)]
        return actions

    def apply(self, table: Table, action: Action) -> None:
        s = table.state
        p = s.players[self.player]
        card = action.args[0]
        assert isinstance(card, Card)
        if action.verb == "camp":
            s.camp.remove(card)
            s.camp_visited = True
            # 2 players: the winner who goes to the camp also discards a tavern card (R19:
            # not the second player with Fafnir).
            if s.config.players == 2 and s.order and s.order[0] == p.seat:
                table.push(TavernDiscard(p.seat, self.tavern))
            table.take_card(p, card, ev.FROM_CAMP)
            return
        s.taverns[self.tavern].remove(card)
        table.take_card(p, card, ev.FROM_TAVERN)

    def prompt(self, table: Table) -> str:
        return _("Take a card from the {tavern}").format(tavern=tavern_name(self.tavern))

    def why_illegal(self, table: Table, action: Action) -> str:
        s = table.state
        card = action.args[0]
        if action.verb == "camp":
            if card not in s.camp:
                return _("{card} is not in the camp").format(card=card)
            return _("only the tavern's winner (or the owner of {artifact} when the winner "
                     "did not) may take a camp card, once per tavern (FR Thingvellir)").format(
                artifact=card_name(C.FAFNIR_BALEYGR))
        shown = " ".join(c.token for c in s.taverns[self.tavern])
        # Translators: {card} and {cards} are notation (card tokens).
        return _("{card} is not in the {tavern} (it holds {cards})").format(
            card=card, tavern=tavern_name(self.tavern), cards=shown)

    @classmethod
    def label(cls, action: Action) -> str:
        if action.verb == "camp":
            # Translators: a button: take this card from the camp.
            return pgettext("button", "camp")
        # Translators: a button: take this card.
        return pgettext("button", "take")

    def say(self, table: Table, action: Action) -> str:
        card = card_words(_card_arg(action))
        if action.verb == "camp":
            return _("Take {card} from the camp").format(card=card)
        return _("Take {card}").format(card=card)


@dataclass(frozen=True, slots=True)
class TavernDiscard(Choice):
    """2 players: the winner who visited the camp discards a card of the tavern (R19)."""

    tavern: int
    kind: ClassVar[DecisionKind] = DecisionKind.TAVERN_DISCARD
    verbs: ClassVar[Mapping[str, Syntax]] = {"drop": CARD}
    group: ClassVar[str] = "picks"
    control: ClassVar[str] = "cards"

    def legal(self, table: Table) -> list[Action]:
        return [interned("drop", (c,)) for c in dict.fromkeys(table.state.taverns[self.tavern])]

    def apply(self, table: Table, action: Action) -> None:
        card = action.args[0]
        assert isinstance(card, Card)
        table.state.taverns[self.tavern].remove(card)
        table.discard_card(card, self.player, ev.CAMP_VISITED)

    def prompt(self, table: Table) -> str:
        return _("You visited the camp: discard one of the cards of the {tavern}").format(
            tavern=tavern_name(self.tavern))

    @classmethod
    def label(cls, action: Action) -> str:
        # Translators: a button: discard this card of the tavern.
        return pgettext("button", "drop")

    def say(self, table: Table, action: Action) -> str:
        return _("Discard {card} from the tavern").format(card=card_words(_card_arg(action)))


# ====================================================================== coins

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
    control: ClassVar[str] = "coins"

    def legal(self, table: Table) -> list[Action]:
        p = table.state.players[self.player]
        places = sorted(coin_places(p), key=_by_coin)
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
        # Translators: {place} is notation: hand, purse, T1-T3.
        return _("you have no coin {coin} in {place}").format(coin=label, place=where)

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
    control: ClassVar[str] = "coins"

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
    control: ClassVar[str] = "coins"

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


# ====================================================================== the army

@dataclass(frozen=True, slots=True)
class ThrudColumn(Choice):
    """FR "THRUD"; R13: placed in any column (again, after a card went under her)."""

    kind: ClassVar[DecisionKind] = DecisionKind.THRUD
    verbs: ClassVar[Mapping[str, Syntax]] = {"thrud": COLUMN}
    group: ClassVar[str] = "heroes"
    control: ClassVar[str] = "columns"

    def legal(self, table: Table) -> list[Action]:
        return _column_actions("thrud")

    def apply(self, table: Table, action: Action) -> None:
        p = table.state.players[self.player]
        suit = action.args[0]
        assert isinstance(suit, Suit)
        p.held.remove(C.THRUD)
        # Thrud herself never lifts Thrud; the recruitment loop is already on the stack.
        p.add_to_column(C.THRUD, suit)
        table.emit(ev.CardPlaced, player=p.seat, card=C.THRUD, column=suit)

    def prompt(self, table: Table) -> str:
        return _("Place {hero} in a column of your choice").format(hero=card_name(C.THRUD))

    @classmethod
    def label(cls, action: Action) -> str:
        return hero_to_column(C.THRUD, action)

    def say(self, table: Table, action: Action) -> str:
        return put_hero(C.THRUD, action)


def hero_to_column(hero: Card, action: Action) -> str:
    # Translators: a button, "Thrud to W" ({column} is notation: a class letter).
    return _("{hero} to {column}").format(hero=card_name(hero),
                                          column=format_arg(action.args[0]))


def put_hero(hero: Card, action: Action) -> str:
    # Translators: "Put Thrud in your warrior column".
    return _("Put {hero} in {column}").format(hero=card_name(hero),
                                              column=column_words(_suit_arg(action)))


def _parse_ylud(verb: str, rest: str, text: str) -> tuple[object, ...]:
    if rest.lower() == "stay":
        # Translators: Ylud's move typed wrong ({ylud}: the hero's name; {example}: notation).
        raise InvalidNotation(_("{text!r}: name {ylud}'s current column to keep her there "
                                "(e.g. {example}), R8").format(
            text=text, ylud=card_name(C.YLUD), example="ylud W"))
    return (parse_suit(rest),)


#: ``ylud E``: a column; her own column keeps her where she is (R8).
YLUD = Syntax("ylud E", _parse_ylud, lambda: COLUMNS)


@dataclass(frozen=True, slots=True)
class YludColumn(Choice):
    """FR "YLUD L'IMPRÉVISIBLE": placed at the end of each age; at the end of age 2 she
    may stay in her column or move (R8)."""

    kind: ClassVar[DecisionKind] = DecisionKind.YLUD
    verbs: ClassVar[Mapping[str, Syntax]] = {"ylud": YLUD}
    group: ClassVar[str] = "heroes"
    control: ClassVar[str] = "columns"

    def legal(self, table: Table) -> list[Action]:
        return _column_actions("ylud")

    def apply(self, table: Table, action: Action) -> None:
        p = table.state.players[self.player]
        suit = action.args[0]
        assert isinstance(suit, Suit)
        current = p.column_of(C.YLUD)
        if current is suit:
            # R8: at the end of age 2 she may stay where she is.
            table.emit(ev.CardPlaced, player=p.seat, card=C.YLUD, column=suit)
            return
        if current is not None:
            p.remove_from_column(C.YLUD, current)
        else:
            p.command_zone.remove(C.YLUD)
        # R22: a mercenary Holda takes in the recruitments this placement starts is placed
        # at once; the flag ends with them.
        p.end_of_age_placement = True
        table.push(EndOfAgePlacementDone(p.seat))
        table.place(p, C.YLUD, suit)

    def prompt(self, table: Table) -> str:
        return _("End of age {age}: place {hero} in a column").format(age=table.state.age,
                                                                       hero=card_name(C.YLUD))

    @classmethod
    def label(cls, action: Action) -> str:
        return hero_to_column(C.YLUD, action)

    def say(self, table: Table, action: Action) -> str:
        return put_hero(C.YLUD, action)


#: Each column's discard action (``discard SUIT``).
_DISCARD: Final[dict[Suit, Action]] = {suit: interned("discard", (suit,)) for suit in C.SUITS}


@dataclass(frozen=True, slots=True)
class ColumnDiscard(Choice):
    """Dagda / Bonfur (R10, R16): discard the top card of another column, never a hero;
    ``remaining`` discards in all, each from a different column (``excluded`` so far)."""

    remaining: int
    reason: str
    excluded: tuple[Suit, ...]
    kind: ClassVar[DecisionKind] = DecisionKind.DISCARD
    verbs: ClassVar[Mapping[str, Syntax]] = {"discard": COLUMN}
    group: ClassVar[str] = "heroes"
    control: ClassVar[str] = "columns"

    def legal(self, table: Table) -> list[Action]:
        p = table.state.players[self.player]
        excluded = self.excluded
        return [_DISCARD[suit] for suit in discardable_columns(p) if suit not in excluded]

    def apply(self, table: Table, action: Action) -> None:
        p = table.state.players[self.player]
        suit = action.args[0]
        assert isinstance(suit, Suit)
        card = p.army[suit][-1]
        p.remove_from_column(card, suit)
        table.discard_card(card, p.seat, self.reason)
        if self.remaining > 1:
            table.push(ColumnDiscard(p.seat, self.remaining - 1, self.reason,
                                     self.excluded + (suit,)))

    def prompt(self, table: Table) -> str:
        # Translators: {reason} is the hero who discards (Dagda, Bonfur).
        return _("{reason}: discard the top card of another column").format(
            reason=origin(self.reason))

    def why_illegal(self, table: Table, action: Action) -> str:
        suit = action.args[0]
        assert isinstance(suit, Suit)
        p = table.state.players[self.player]
        if suit in self.excluded:
            return _("{reason} must discard from another column than {card_class}").format(
                reason=origin(self.reason), card_class=class_in_sentence(suit))
        if not p.army[suit]:
            return _("your {card_class} column is empty").format(
                card_class=class_in_sentence(suit))
        return _("the top card of your {card_class} column is a hero, which is never "
                 "discarded (R10)").format(card_class=class_in_sentence(suit))

    @classmethod
    def label(cls, action: Action) -> str:
        # Translators: a button, "discard top of W" ({column} is notation: a class letter).
        return _("discard top of {column}").format(column=format_arg(action.args[0]))

    def say(self, table: Table, action: Action) -> str:
        return _("Discard the top card of {column}").format(column=column_words(_suit_arg(action)))


def _parse_card_at(verb: str, rest: str, text: str) -> tuple[object, ...]:
    token, at, column = rest.rpartition("@")
    if not at:
        # Translators: a removal typed wrong ({example}: one in the notation).
        raise InvalidNotation(_("{text!r}: name the card and its column, e.g. {example}").format(
            text=text, example="remove W7@W"))
    return (parse_token(token), parse_suit(column))


#: ``remove W7@W``: a card and the column it lies in.
CARD_AT_COLUMN = Syntax(
    "remove W7@W", _parse_card_at,
    lambda: (f"{t}@{col}" for t in CARD_TOKENS for col in COLUMNS),
    lambda verb, args: f"{verb} {format_arg(args[0])}@{format_arg(args[1])}")


@dataclass(frozen=True, slots=True)
class ArmyDiscard(Choice):
    """Höfud (every other player, a warrior card, any position) and Brisingamens at the end
    of age 2 (any card): never a hero (R16)."""

    reason: str
    only: Suit | None = None
    kind: ClassVar[DecisionKind] = DecisionKind.ARMY_DISCARD
    verbs: ClassVar[Mapping[str, Syntax]] = {"remove": CARD_AT_COLUMN}
    group: ClassVar[str] = "Thingvellir"
    control: ClassVar[str] = "cards"

    def legal(self, table: Table) -> list[Action]:
        p = table.state.players[self.player]
        return [interned("remove", (c, suit)) for c, suit in army_discard_options(p, self.only)]

    def apply(self, table: Table, action: Action) -> None:
        p = table.state.players[self.player]
        card, suit = action.args
        assert isinstance(card, Card) and isinstance(suit, Suit)
        p.remove_from_column(card, suit)
        table.discard_card(card, p.seat, self.reason)

    def prompt(self, table: Table) -> str:
        # Translators: {reason} is the artifact that discards (Höfud, Brisingamens).
        return _("{reason}: discard a card from your army").format(reason=origin(self.reason))

    @classmethod
    def label(cls, action: Action) -> str:
        # Translators: a button: discard this card of your army.
        return pgettext("button", "remove")

    def say(self, table: Table, action: Action) -> str:
        return _("Discard {card} from {column}").format(card=card_words(_card_arg(action)),
                                                        column=column_words(_suit_arg(action, 1)))


@dataclass(frozen=True, slots=True)
class OlwynDouble(Choice):
    """FR Thingvellir "OLWYN": his two doubles go to two different columns (``excluded``);
    a double taken on its own (Andumia, Brisingamens) goes anywhere. ``remaining``: doubles
    of this effect still to place (other doubles held belong to other effects)."""

    excluded: tuple[Suit, ...] = ()
    remaining: int = 1
    kind: ClassVar[DecisionKind] = DecisionKind.OLWYN
    verbs: ClassVar[Mapping[str, Syntax]] = {"double": COLUMN}
    group: ClassVar[str] = "Thingvellir"
    control: ClassVar[str] = "columns"

    def legal(self, table: Table) -> list[Action]:
        return [a for a in _column_actions("double") if a.args[0] not in self.excluded]

    def apply(self, table: Table, action: Action) -> None:
        p = table.state.players[self.player]
        suit = action.args[0]
        assert isinstance(suit, Suit)
        p.held.remove(C.OLWYN_DOUBLE)
        if self.remaining > 1:
            # Olwyn's second double goes to a different column (FR "OLWYN").
            table.push(OlwynDouble(p.seat, self.excluded + (suit,), self.remaining - 1))
        table.place(p, C.OLWYN_DOUBLE, suit)

    def prompt(self, table: Table) -> str:
        return _("{hero}: place one of his doubles (two different columns)").format(
            hero=card_name(C.OLWYN))

    @classmethod
    def label(cls, action: Action) -> str:
        # Translators: a button, "double in W" ({column} is notation: a class letter).
        return _("double in {column}").format(column=format_arg(action.args[0]))

    def say(self, table: Table, action: Action) -> str:
        return _("Put an Olwyn double in {column}").format(column=column_words(_suit_arg(action)))


# ====================================================================== end of age 1

@dataclass(frozen=True, slots=True)
class PioneerKeep(Choice):
    """FR "Pionnier-ère du Royaume": keep one of the 3 cards drawn; the other two go back
    and the age-2 deck is shuffled."""

    kind: ClassVar[DecisionKind] = DecisionKind.PIONEER
    verbs: ClassVar[Mapping[str, Syntax]] = {"keep": CARD}
    group: ClassVar[str] = "picks"
    control: ClassVar[str] = "cards"

    def legal(self, table: Table) -> list[Action]:
        return [interned("keep", (c,)) for c in dict.fromkeys(table.state.drawn)]

    def apply(self, table: Table, action: Action) -> None:
        s = table.state
        p = s.players[self.player]
        card = action.args[0]
        assert isinstance(card, Card)
        s.drawn.remove(card)
        s.decks[2].extend(s.drawn)
        s.drawn = []
        shuffle(s.rng, s.decks[2])
        table.take_card(p, card, C.PIONEER_OF_THE_KINGDOM.name)

    def prompt(self, table: Table) -> str:
        return _("{distinction}: keep one of the three cards drawn").format(
            distinction=card_name(C.PIONEER_OF_THE_KINGDOM))

    @classmethod
    def label(cls, action: Action) -> str:
        # Translators: a button: keep this card.
        return pgettext("button", "keep")

    def say(self, table: Table, action: Action) -> str:
        return _("Keep {card}").format(card=card_words(_card_arg(action)))


# ====================================================================== mercenaries

def _parse_enlist(verb: str, rest: str, text: str) -> tuple[object, ...]:
    parts = rest.split()
    if len(parts) == 1 and parts[0].lower() in ("first", "last"):
        return (parts[0].lower(),)
    if len(parts) == 2:
        return (parse_token(parts[0]), parse_suit(parts[1]))
    # Translators: an enlistment typed wrong ({first}, {last}, {card}: the notation's forms).
    raise InvalidNotation(_("{text!r}: expected {first}, {last} or {card}").format(
        text=text, first="enlist first", last="enlist last", card="enlist W6/E8 W"))


#: ``enlist first`` / ``enlist last`` (the order) and ``enlist W6/E8 W`` (a mercenary and
#: its column): the two enlistment decisions share the verb.
ENLIST_SYNTAX = Syntax("enlist W6/E8 W", _parse_enlist, lambda: (
    "first", "last", *(f"{m.token} {col}" for m in C.MERCENARIES for col in COLUMNS)))

@dataclass(frozen=True, slots=True)
class EnlistOrder(Choice):
    """FR Thingvellir p.24: the player with the most mercenaries enlists first or last."""

    order: tuple[int, ...]
    kind: ClassVar[DecisionKind] = DecisionKind.MERCENARY_ORDER
    verbs: ClassVar[Mapping[str, Syntax]] = {"enlist": ENLIST_SYNTAX}
    group: ClassVar[str] = "Thingvellir"
    control: ClassVar[str] = "mercenaries"

    def legal(self, table: Table) -> list[Action]:
        return [interned("enlist", ("first",)), interned("enlist", ("last",))]

    def apply(self, table: Table, action: Action) -> None:
        order = list(self.order)
        if action.args[0] == "last":
            order = order[1:] + order[:1]
        table.push(*[ENLIST_MORE[seat] for seat in order])

    def prompt(self, table: Table) -> str:
        return _("Enlistment: you have the most mercenaries; place them first or last?")

    @classmethod
    def label(cls, action: Action) -> str:
        if action.args[0] == "first":
            # Translators: a button: place your mercenaries before the others.
            return pgettext("button", "enlist first")
        # Translators: a button: place your mercenaries after the others.
        return pgettext("button", "enlist last")

    def say(self, table: Table, action: Action) -> str:
        if action.args[0] == "first":
            return _("Place your mercenaries first")
        return _("Place your mercenaries last")


@dataclass(frozen=True, slots=True)
class Enlist(Choice):
    """FR Thingvellir p.24: place a mercenary on one of its two sides. ``only``: one card
    that must be placed at once (Holda's pick at the end of an age, R22); otherwise an
    enlistment turn, which goes on until every mercenary is placed."""

    only: Card | None = None
    kind: ClassVar[DecisionKind] = DecisionKind.MERCENARY
    verbs: ClassVar[Mapping[str, Syntax]] = {"enlist": ENLIST_SYNTAX}
    group: ClassVar[str] = "Thingvellir"
    control: ClassVar[str] = "mercenaries"

    def legal(self, table: Table) -> list[Action]:
        p = table.state.players[self.player]
        mercs = [self.only] if self.only is not None else dict.fromkeys(unplaced_mercenaries(p))
        return [a for m in mercs for a in ENLIST_ACTIONS[m]]

    def apply(self, table: Table, action: Action) -> None:
        p = table.state.players[self.player]
        merc, suit = action.args
        assert isinstance(merc, Card) and isinstance(suit, Suit)
        p.command_zone.remove(merc)
        if self.only is None:
            # R22: the recruitments this placement starts may place Holda's mercenary at
            # once; the flag ends when the turn does (EnlistMore).
            p.end_of_age_placement = True
            table.push(ENLIST_MORE[p.seat])
        table.place(p, merc, suit)

    def prompt(self, table: Table) -> str:
        return _("Enlistment: place a mercenary in one of its two classes")

    @classmethod
    def label(cls, action: Action) -> str:
        # Translators: a button: a mercenary placed as a card of this class, "as Warrior".
        return _("as {card_class}").format(card_class=class_name(_suit_arg(action, 1)))

    def say(self, table: Table, action: Action) -> str:
        return _("Put {card} in {column}").format(card=card_words(_card_arg(action)),
                                                  column=column_words(_suit_arg(action, 1)))


@dataclass(frozen=True, slots=True)
class EnlistMore(Step):
    """An enlistment turn goes on while the player has mercenaries to place."""

    seat: int

    def run(self, table: Table) -> None:
        p = table.state.players[self.seat]
        if unplaced_mercenaries(p):
            table.push(ENLIST[p.seat])
        else:
            p.end_of_age_placement = False


#: Each mercenary's two enlistment actions (``enlist M SUIT``, its sides in order).
ENLIST_ACTIONS: Final[dict[Card, tuple[Action, ...]]] = {
    m: tuple(interned("enlist", (m, suit)) for suit, _ in m.sides)
    for m in C.ALL_CARDS if m.kind is Kind.MERCENARY}
#: One shared enlistment turn and its step per seat (decisions are immutable values).
ENLIST: Final[tuple[Enlist, ...]] = tuple(Enlist(seat) for seat in range(5))
ENLIST_MORE: Final[tuple[EnlistMore, ...]] = tuple(EnlistMore(seat) for seat in range(5))


@dataclass(frozen=True, slots=True)
class EndOfAgePlacementDone(Step):
    """Ylud's end-of-age placement and the recruitments it started are over (R22)."""

    seat: int

    def run(self, table: Table) -> None:
        table.state.players[self.seat].end_of_age_placement = False


# ====================================================================== taking from piles

@dataclass(frozen=True, slots=True)
class AndumiaChoice(Choice):
    """FR Thingvellir "ANDUMIA": keep a card of the discard (R17: skipped when empty)."""

    kind: ClassVar[DecisionKind] = DecisionKind.ANDUMIA
    verbs: ClassVar[Mapping[str, Syntax]] = {"choose": CARD}
    group: ClassVar[str] = "Thingvellir"
    control: ClassVar[str] = "cards"

    def legal(self, table: Table) -> list[Action]:
        return [interned("choose", (c,)) for c in dict.fromkeys(table.state.discard)]

    def apply(self, table: Table, action: Action) -> None:
        card = action.args[0]
        assert isinstance(card, Card)
        table.state.discard.remove(card)
        table.take_card(table.state.players[self.player], card, "Andumia")

    def prompt(self, table: Table) -> str:
        return _("{hero}: keep one card of the discard").format(hero=card_name(C.ANDUMIA))

    @classmethod
    def label(cls, action: Action) -> str:
        return pgettext("button", "take")

    def say(self, table: Table, action: Action) -> str:
        return _("Choose {card}").format(card=card_words(_card_arg(action)))


@dataclass(frozen=True, slots=True)
class HoldaChoice(Choice):
    """FR Thingvellir "HOLDA": a mercenary or an artifact of the camp (R17, R18: not a camp
    visit; R22: a mercenary taken during an end-of-age placement is placed at once)."""

    kind: ClassVar[DecisionKind] = DecisionKind.HOLDA
    verbs: ClassVar[Mapping[str, Syntax]] = {"choose": CARD}
    group: ClassVar[str] = "Thingvellir"
    control: ClassVar[str] = "cards"

    def legal(self, table: Table) -> list[Action]:
        return [interned("choose", (c,)) for c in dict.fromkeys(table.state.camp)]

    def apply(self, table: Table, action: Action) -> None:
        card = action.args[0]
        assert isinstance(card, Card)
        p = table.state.players[self.player]
        # Not a camp visit: Fafnir's owner may still go (R18).
        table.state.camp.remove(card)
        table.take_card(p, card, "Holda")
        if card.kind is Kind.MERCENARY and p.end_of_age_placement:
            # R22: when placing Ylud or a mercenary at the end of an age recruits Holda, her
            # mercenary goes into the army at once (FR « Déroulement de la fin de chaque
            # Age »: « placez cette dernière immédiatement dans votre armée »).
            table.push(Enlist(p.seat, card))

    def prompt(self, table: Table) -> str:
        return _("{hero}: take a mercenary or an artifact from the camp").format(
            hero=card_name(C.HOLDA))

    @classmethod
    def label(cls, action: Action) -> str:
        return pgettext("button", "take")

    def say(self, table: Table, action: Action) -> str:
        return _("Choose {card}").format(card=card_words(_card_arg(action)))


@dataclass(frozen=True, slots=True)
class BrisingamensChoice(Choice):
    """FR Thingvellir "BRISINGAMENS": up to 2 cards of the dwarf discard, each pick may be
    declined (R17); they are resolved in the order taken."""

    remaining: int = 2
    taken: tuple[Card, ...] = ()
    kind: ClassVar[DecisionKind] = DecisionKind.BRISINGAMENS
    verbs: ClassVar[Mapping[str, Syntax]] = {"choose": CARD, "skip": NO_ARGS}
    group: ClassVar[str] = "Thingvellir"
    control: ClassVar[str] = "cards"

    def legal(self, table: Table) -> list[Action]:
        s = table.state
        if not s.discard and not self.taken:
            return []
        return [interned("choose", (c,)) for c in dict.fromkeys(s.discard)] + [interned("skip")]

    def apply(self, table: Table, action: Action) -> None:
        s = table.state
        seat, remaining, taken = self.player, self.remaining, self.taken
        if action.verb == "choose":
            card = action.args[0]
            assert isinstance(card, Card)
            s.discard.remove(card)
            # Held (visible in the player's hand) until every pick is made, then resolved.
            s.players[seat].held.append(card)
            taken = taken + (card,)
            remaining -= 1
            if remaining and s.discard:
                table.push(BrisingamensChoice(seat, remaining, taken))
                return
        table.push(*[ResolveCard(seat, card, "Brisingamens") for card in taken])

    def prompt(self, table: Table) -> str:
        return _("{artifact}: take a card from the discard (or skip)").format(
            artifact=card_name(C.BRISINGAMENS))

    @classmethod
    def label(cls, action: Action) -> str:
        if action.verb == "skip":
            # Translators: a button: take no card of the discard.
            return pgettext("button", "skip (take nothing)")
        return pgettext("button", "take")

    def say(self, table: Table, action: Action) -> str:
        if action.verb == "skip":
            return _("Take nothing (skip)")
        return _("Choose {card}").format(card=card_words(_card_arg(action)))


@dataclass(frozen=True, slots=True)
class ResolveCard(Step):
    """A card held since a pick (Brisingamens) is taken now."""

    seat: int
    card: Card
    source: str

    def run(self, table: Table) -> None:
        p = table.state.players[self.seat]
        p.held.remove(self.card)
        table.take_card(p, self.card, self.source)


__all__ = ["BID", "CARD_AT_COLUMN", "COIN_AT_PLACE", "ENLIST_SYNTAX", "TRADE", "VIDOFNIR",
           "YLUD", "AndumiaChoice", "ArmyDiscard", "Bid", "BrisingamensChoice", "ColumnDiscard",
           "EndOfAgePlacementDone", "Enlist", "EnlistMore", "EnlistOrder", "HoldaChoice",
           "OlwynDouble", "Pick", "PioneerKeep", "ResolveCard", "TavernDiscard", "ThrudColumn",
           "Transform", "UlineBid", "UlineTrade", "Vidofnir", "YludColumn", "card_words",
           "coin_places", "coin_words", "column_words", "place_words"]
