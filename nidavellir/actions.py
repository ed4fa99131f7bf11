"""Actions and their text notation (docs/notation.md, "Action notation").

An action is a small hashable value; ``str(action)`` is its canonical text and
``parse_action(str(a)) == a``. Keywords are case-insensitive; card tokens follow
:mod:`nidavellir.tokens`; coins are values (``3*`` is the Hunting Master's coin);
columns are class letters; coin places are ``hand``, ``purse``, ``T1``..``T3``.

This module knows no verb itself. Each decision class declares its verbs and how each
verb's arguments are written (a :class:`Syntax`: parse, format, every possible text) as
``Choice.verbs`` (:mod:`nidavellir.rules.base`); defining the class registers them here
(:data:`VERBS`), and :func:`parse_action` / :func:`format_action` dispatch through that
registry. The shapes several decisions share are below (:data:`NO_ARGS`, :data:`CARD`,
:data:`COLUMN`, :data:`COIN`); a decision with its own shape defines it beside its class.

>>> parse_action("take w7"), str(parse_action("transform 05@Purse"))
(Action('take W7'), 'transform 5@purse')
>>> VERBS["take"].example
'take W7'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from .cards import HUNTER_COIN_VALUE, MAX_COIN_VALUE, SUITS, TAVERN_INDICES, Card, Suit
from .coins import label_key, parse_label
from .errors import InvalidNotation
from .i18n import _
from .tokens import TOKENS, parse_suit, parse_token

#: Where a coin lies: the hand, the purse, a bid on tavern 1 to 3.
PLACES = ("hand", "purse", *(f"T{t + 1}" for t in TAVERN_INDICES))
#: Every coin label, in the order of the RL action table (``0`` … ``25``, then ``3*``).
COIN_LABELS: tuple[str, ...] = (tuple(str(v) for v in range(MAX_COIN_VALUE + 1))
                                + (f"{HUNTER_COIN_VALUE}*",))
#: Every card token (a plugin's cards last: :func:`nidavellir.cards.add_card`) and column
#: letter, in catalogue order (the RL action table's order).
CARD_TOKENS: Sequence[str] = TOKENS
COLUMNS: tuple[str, ...] = tuple(s.letter for s in SUITS)


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


def format_arg(arg: object) -> str:
    """One argument's text: a card's token, a column's letter, anything else as it is."""
    if isinstance(arg, Card):
        return arg.token
    if isinstance(arg, Suit):
        return arg.letter
    return str(arg)


def _spaced(verb: str, args: tuple[object, ...]) -> str:
    return " ".join([verb, *(format_arg(a) for a in args)])


# ====================================================================== syntaxes

#: ``parse(verb, rest, text)``: the arguments of ``verb rest`` (``text`` is the whole
#: action as typed, for the error message); raises InvalidNotation saying what is wrong.
Parser = Callable[[str, str, str], tuple[object, ...]]


@dataclass(frozen=True, slots=True)
class Syntax:
    """How one verb's arguments are written, in one place: reading them (``parse``),
    writing an action (``format``, default: the verb and its arguments separated by
    spaces) and every argument text that can ever occur (``texts``, in a fixed order: the
    verb's block of the RL action table, :mod:`nidavellir.integrations.encoding`).
    ``example`` is an action of the verb, for error messages and the docs."""

    example: str
    parse: Parser
    texts: Callable[[], Iterable[str]]
    format: Callable[[str, tuple[object, ...]], str] = _spaced

    def notations(self, verb: str) -> list[str]:
        """Every action text of ``verb`` (``verb`` alone when it takes no argument)."""
        return [f"{verb} {t}" if t else verb for t in self.texts()]


#: Every verb of the notation and how it is written: filled by the decision classes as
#: they are defined (:class:`nidavellir.rules.base.Choice`); two decisions may share a verb
#: only with the same :class:`Syntax` (``choose`` of Andumia, Holda and Brisingamens).
VERBS: dict[str, Syntax] = {}


def register_verb(verb: str, syntax: Syntax, owner: str) -> None:
    """Declare ``verb`` (``owner`` names the declaring class, for the error)."""
    if verb != verb.lower() or not verb.isidentifier():
        raise TypeError(f"{owner}: verb {verb!r} must be one lowercase word")
    known = VERBS.get(verb)
    if known is not None and known is not syntax:
        raise TypeError(f"{owner} declares verb {verb!r} with another syntax than the "
                        f"decision that declared it first ({known.example!r})")
    VERBS[verb] = syntax


def _no_args(verb: str, rest: str, text: str) -> tuple[object, ...]:
    if rest:
        # Translators: a move typed wrong ({verb}: the action's verb, notation).
        raise InvalidNotation(_("{text!r}: {verb} takes no argument").format(text=text,
                                                                            verb=verb))
    return ()


def _card(verb: str, rest: str, text: str) -> tuple[object, ...]:
    if not rest:
        # Translators: a move typed wrong ({verb}: the action's verb, notation).
        raise InvalidNotation(_("{text!r}: {verb} needs a card").format(text=text, verb=verb))
    return (parse_token(rest),)


def _column(verb: str, rest: str, text: str) -> tuple[object, ...]:
    return (parse_suit(rest),)


def _coin(verb: str, rest: str, text: str) -> tuple[object, ...]:
    return (parse_label(rest),)


#: A verb alone (``skip``).
NO_ARGS = Syntax("skip", _no_args, lambda: ("",))
#: One card token, which may contain spaces (``take W7``, ``hero Dwerg Ymir``).
CARD = Syntax("take W7", _card, lambda: CARD_TOKENS)
#: One column letter (``thrud W``).
COLUMN = Syntax("thrud W", _column, lambda: COLUMNS)
#: One coin (``place 4``).
COIN = Syntax("place 4", _coin, lambda: COIN_LABELS)


def place(text: str) -> str:
    """A coin place (``hand``, ``purse``, ``T1``-``T3``, case-insensitive)."""
    key = text.strip().lower()
    for p in PLACES:
        if key == p.lower():
            return p
    # Translators: a coin's place typed wrong ({places}: the places in the notation).
    raise InvalidNotation(_("unknown coin place {text!r}: expected {places}").format(
        text=text, places=", ".join(PLACES)))


def parse_action(text: object) -> Action:
    """Parse the text notation; raises InvalidNotation saying what is wrong (not text
    included: ``object``, so that the compiled build checks it here too)."""
    if not isinstance(text, str):
        raise InvalidNotation(_("an action must be text, not {value!r}").format(value=text))
    stripped = text.strip()
    if not stripped:
        # Translators: the move box was sent empty.
        raise InvalidNotation(_("empty action"))
    verb, _space, rest = stripped.partition(" ")
    verb = verb.lower()
    syntax = VERBS.get(verb)
    if syntax is None:
        # Translators: a move typed wrong: its first word is no action's verb.
        raise InvalidNotation(_("unknown action {verb!r} in {text!r}").format(verb=verb,
                                                                             text=text))
    return Action(verb, syntax.parse(verb, rest.strip(), text))


def format_action(action: Action) -> str:
    """The canonical text of an action (its verb's :class:`Syntax`)."""
    syntax = VERBS.get(action.verb)
    if syntax is None:  # an action no decision declares: verb and arguments
        return _spaced(action.verb, action.args)
    return syntax.format(action.verb, action.args)


def bid(*coins: str) -> Action:
    return Action("bid", tuple(coins))


def trade(a: str, b: str) -> Action:
    x, y = sorted((a, b), key=label_key)
    return Action("trade", (x, y))


__all__ = ["CARD", "CARD_TOKENS", "COIN", "COIN_LABELS", "COLUMN", "COLUMNS", "NO_ARGS",
           "PLACES", "VERBS", "Action", "Syntax", "bid", "format_action", "format_arg",
           "interned", "parse_action", "place", "register_verb", "trade"]
