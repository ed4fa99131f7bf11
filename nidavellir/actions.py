"""Actions and their text notation (ARCHITECTURE.md, text-notation contract).

An action is a small hashable value; ``str(action)`` is its canonical text and
``parse_action(str(a)) == a``. Keywords are case-insensitive; card tokens follow
:mod:`nidavellir.tokens`; coins are values (``3*`` is the Hunting Master's coin);
columns are class letters; coin places are ``hand``, ``purse``, ``T1``..``T3``.

==================  ============================  ===========================================
decision kind       notation                      meaning
==================  ============================  ===========================================
bid                 ``bid 5 3 0``                 coins on taverns 1, 2, 3; the rest to the purse
uline_bid           ``place 4``                   Uline puts a coin of her hand on the tavern
pick                ``take W7`` / ``take +3``     take a tavern card
pick                ``camp Draupnir``             take a camp card instead (Thingvellir)
hero                ``hero Dwerg Ymir``           recruit a hero
thrud               ``thrud W``                   (re-)place Thrud in a column
ylud                ``ylud E``                    place Ylud (her own column keeps her there, R8)
transform           ``transform 5@purse``         transform that coin (Royal Offering, Grid, ...)
discard             ``discard W``                 Dagda / Bonfur: discard the top card of a column
pioneer             ``keep W7``                   Pioneer of the Kingdom: keep this drawn card
uline_trade         ``trade 5 9``                 Uline trades these two coins of her hand
tavern_discard      ``drop W7``                   2 players, camp visit: discard a tavern card
mercenary_order     ``enlist first`` / ``last``   the player with most mercenaries chooses
mercenary           ``enlist W6/E8 W``            place a mercenary in one of its classes
olwyn               ``double W``                  place one of Olwyn's doubles
andumia / holda /   ``choose W7`` / ``skip``      take a card from the discard or the camp
brisingamens
army_discard        ``remove W7@W``               discard a card from a column (Höfud, ...)
vidofnir            ``vidofnir 5+2 9+3``          Vidofnir's transforms, in the order they happen
==================  ============================  ===========================================
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card, Suit
from .coins import label_key, parse_label
from .errors import InvalidNotation
from .tokens import parse_suit, parse_token

PLACES = ("hand", "purse", "T1", "T2", "T3")


@dataclass(frozen=True, slots=True)
class Action:
    """``verb`` plus arguments: coin labels (str), cards (Card), columns (Suit), places."""

    verb: str
    args: tuple[object, ...] = ()
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Searches hash actions millions of times (tree children, legality sets).
        object.__setattr__(self, "_hash", hash((self.verb, self.args)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Action], tuple[str, tuple[object, ...]]]:
        # Rebuilt (not restored) in another process: string hashes differ between processes.
        return (Action, (self.verb, self.args))

    def __str__(self) -> str:
        return format_action(self)

    def __repr__(self) -> str:
        return f"Action({format_action(self)!r})"


_INTERNED: dict[tuple[str, tuple[object, ...]], Action] = {}


def interned(verb: str, args: tuple[object, ...] = ()) -> Action:
    """The one shared Action object for ``(verb, args)``: the engine rebuilds legal-action
    lists at every decision and most of their actions were seen before, so sharing them
    saves building and hashing them again (the search's hot path).

    >>> interned("take", ()) is interned("take", ())
    True
    """
    key = (verb, args)
    found = _INTERNED.get(key)
    if found is None:
        found = _INTERNED[key] = Action(verb, args)
    return found


def _fmt(arg: object) -> str:
    if isinstance(arg, Card):
        return arg.token
    if isinstance(arg, Suit):
        return arg.letter
    return str(arg)


def format_action(action: Action) -> str:
    verb, args = action.verb, action.args
    if verb in ("transform",):
        coin, place = args
        return f"transform {coin}@{place}"
    if verb == "remove":
        c, suit = args
        return f"remove {_fmt(c)}@{_fmt(suit)}"
    return " ".join([verb, *(_fmt(a) for a in args)])


# Verbs whose single argument is a card token (which may contain spaces).
_CARD_VERBS = ("take", "camp", "hero", "keep", "drop", "choose")
_SUIT_VERBS = ("thrud", "ylud", "discard", "double")


def _place(text: str) -> str:
    key = text.strip().lower()
    for p in PLACES:
        if key == p.lower():
            return p
    raise InvalidNotation(f"unknown coin place {text!r}: expected hand, purse, T1, T2 or T3")


def parse_action(text: str) -> Action:
    """Parse the text notation; raises InvalidNotation saying what is wrong."""
    if not isinstance(text, str):
        raise InvalidNotation(f"an action must be text, not {text!r}")
    stripped = text.strip()
    if not stripped:
        raise InvalidNotation("empty action")
    verb, _, rest = stripped.partition(" ")
    verb = verb.lower()
    rest = rest.strip()
    if verb == "bid":
        parts = rest.split()
        if len(parts) != 3:
            raise InvalidNotation(f"{text!r}: a bid names 3 coins, one per tavern (e.g. bid 5 3 0)")
        return Action("bid", tuple(parse_label(p) for p in parts))
    if verb in ("place",):
        return Action(verb, (parse_label(rest),))
    if verb == "trade":
        parts = rest.split()
        if len(parts) != 2:
            raise InvalidNotation(f"{text!r}: a trade names 2 coins (e.g. trade 5 9)")
        a, b = sorted((parse_label(p) for p in parts), key=label_key)
        return Action("trade", (a, b))
    if verb == "transform":
        coin, at, place = rest.partition("@")
        if not at:
            raise InvalidNotation(f"{text!r}: name the coin and its place, e.g. transform 5@purse")
        return Action("transform", (parse_label(coin), _place(place)))
    if verb in _CARD_VERBS:
        if not rest:
            raise InvalidNotation(f"{text!r}: {verb} needs a card")
        return Action(verb, (parse_token(rest),))
    if verb in _SUIT_VERBS:
        if verb == "ylud" and rest.lower() == "stay":
            raise InvalidNotation(f"{text!r}: name Ylud's current column to keep her there "
                                  "(e.g. ylud W), R8")
        return Action(verb, (parse_suit(rest),))
    if verb == "enlist":
        parts = rest.split()
        if len(parts) == 1 and parts[0].lower() in ("first", "last"):
            return Action("enlist", (parts[0].lower(),))
        if len(parts) == 2:
            return Action("enlist", (parse_token(parts[0]), parse_suit(parts[1])))
        raise InvalidNotation(f"{text!r}: expected enlist first, enlist last or enlist W6/E8 W")
    if verb == "remove":
        token, at, column = rest.rpartition("@")
        if not at:
            raise InvalidNotation(f"{text!r}: name the card and its column, e.g. remove W7@W")
        return Action("remove", (parse_token(token), parse_suit(column)))
    if verb == "vidofnir":
        parts = rest.split()
        if len(parts) not in (1, 2):
            raise InvalidNotation(f"{text!r}: expected vidofnir 5+2 9+3 (or vidofnir 5+5)")
        return Action("vidofnir", tuple(_coin_bonus(p) for p in parts))
    if verb == "skip":
        if rest:
            raise InvalidNotation(f"{text!r}: skip takes no argument")
        return Action("skip")
    raise InvalidNotation(f"unknown action {verb!r} in {text!r}")


def _coin_bonus(text: str) -> str:
    coin, plus, bonus = text.partition("+")
    if not plus or not (bonus.isascii() and bonus.isdigit()):
        raise InvalidNotation(f"{text!r}: expected a coin and its bonus, e.g. 5+2")
    return f"{parse_label(coin)}+{int(bonus)}"


def bid(*coins: str) -> Action:
    return Action("bid", tuple(coins))


def trade(a: str, b: str) -> Action:
    x, y = sorted((a, b), key=label_key)
    return Action("trade", (x, y))
