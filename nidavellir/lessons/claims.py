"""What a walkthrough step says about its position, checked against the engine.

A step's text makes claims a learner checks on the board: "you have 4 warriors", "the
explorer 10 is the best explorer in the discard", "the W side scores 9". Each such claim is
written once more beside the text, in a small language the engine can evaluate, under the
step's ``checks`` (docs/lessons.md)::

    checks:
      - ranks You W = 4
      - best discard E = E10
      - now "enlist W9/E11 W" = +9

Every claim is evaluated at the position the step shows (after its ``actions``, before its
``move``); ``after:`` claims (``checks_after``) at the position after the move. A claim
whose value differs from the engine's is an error naming its line, so ``nidavellir lesson
check`` refuses a step whose stated figure is not the game's, and the shipped lessons are
checked by the tests.

A claim is ``WHAT ARGS = VALUE``; the WHATs (:data:`CLAIMS`):

=========================== ===========================================================
``ranks PLAYER CLASS``      ranks in a column (``W``, ``H``, ``M``, ``B``, ``E``)
``points PLAYER [LINE]``    the live score sheet: the total, or one line (``warriors``,
                            ``hunters``, ``miners``, ``blacksmiths``, ``explorers``,
                            ``heroes``, ``artifacts``, ``coins``, ``gem``)
``coins PLAYER [PLACE]``    a player's coins, lowest first (``hand``, ``purse``, ``all``)
``gem PLAYER``              a player's gem
``mercenaries PLAYER``      mercenaries waiting in the command zone (not yet placed)
``lines PLAYER``            complete lines
``heroes PLAYER``           heroes recruited (their names, in the order recruited)
``discard [CLASS]``         the discard's cards (of one class), in the order discarded
``best discard CLASS``      the strongest card of a class in the discard (most bravery)
``distinction NAME``        who holds a distinction (``nobody`` when no one won it)
``now "MOVE"``              the change of the learner's score-sheet total that MOVE makes
                            at once (applied on a copy: what the board shows after it)
``decision``                who decides what now (``You hero``)
=========================== ===========================================================

A player is named as in the lesson (``You``, ``Bo``); values are numbers (``+9`` and ``9``
are the same), card tokens, coin labels separated by spaces, names, or ``none``.

>>> from nidavellir import Game
>>> game = Game.new(players=2, seed=1, names=["Ada", "Bo"])
>>> evaluate(game, "ranks Ada W", learner=0), evaluate(game, "coins Bo", learner=0)
('0', '0 2 3 4 5')
>>> check(game, "points Ada = 14", learner=0) is None
True
>>> check(game, "gem Ada = 9", learner=0)
'the game has 4'
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from typing import Any

from .. import coins as K
from ..cards import Card, Kind, Suit
from ..errors import IllegalAction, InvalidNotation
from ..game import Game
from ..i18n import _
from ..scoring import CATEGORIES
from ..tokens import parse_token


class ClaimError(ValueError):
    """A claim that cannot be evaluated (an unknown word, a player not at the table)."""


def _player(game: Game, name: str) -> int:
    names = [n.lower() for n in game.names]
    if name.lower() not in names:
        # Translators: an error of a walkthrough's check ("ranks Bo W = 2"): what it names
        # is quoted as written; the checks' words (ranks, points, ...) are notation.
        raise ClaimError(_("no player {name} at the table ({names})").format(
            name=repr(name), names=", ".join(game.names)))
    return names.index(name.lower())


def _suit(letter: str) -> Suit:
    try:
        return Suit.parse(letter)
    except (KeyError, ValueError):
        raise ClaimError(_("{letter} is not a class ({letters})").format(
            letter=repr(letter), letters="W, H, M, B, E")) from None


def _args(args: Sequence[str], low: int, high: int, usage: str) -> None:
    if not low <= len(args) <= high:
        # Translators: {usage} is a check's form ("ranks PLAYER CLASS").
        raise ClaimError(_("expected {usage}").format(usage=usage))


def _ranks(game: Game, args: Sequence[str], learner: int) -> str:
    _args(args, 2, 2, "ranks PLAYER CLASS")
    seat = _player(game, args[0])
    return str(game.observation(seat)["players"][seat]["ranks"][_suit(args[1]).letter])


def _points(game: Game, args: Sequence[str], learner: int) -> str:
    _args(args, 1, 2, "points PLAYER [LINE]")
    score = game.scores()[_player(game, args[0])]
    if len(args) == 1:
        return str(score.total)
    line = args[1].lower()
    if line not in CATEGORIES:
        raise ClaimError(_("{line} is not a score-sheet line ({lines})").format(
            line=repr(args[1]), lines=", ".join(CATEGORIES)))
    return str(score.breakdown.get(line, 0))


def _coins(game: Game, args: Sequence[str], learner: int) -> str:
    _args(args, 1, 2, "coins PLAYER [hand|purse|all]")
    seat = _player(game, args[0])
    place = args[1].lower() if len(args) == 2 else "all"
    if place not in ("hand", "purse", "all"):
        raise ClaimError(_("{place} is not a place of coins ({places})").format(
            place=repr(args[1]), places="hand, purse, all"))
    me = game.observation(seat)["players"][seat]
    coins = me["coins"] if place == "all" else me[place]
    return " ".join(sorted(coins, key=K.label_key)) or "none"


def _gem(game: Game, args: Sequence[str], learner: int) -> str:
    _args(args, 1, 1, "gem PLAYER")
    seat = _player(game, args[0])
    return str(game.observation(seat)["players"][seat]["gem"])


def _zone(game: Game, seat: int) -> list[Card]:
    return [parse_token(t) for t in game.observation(seat)["players"][seat]["command_zone"]]


def _mercenaries(game: Game, args: Sequence[str], learner: int) -> str:
    _args(args, 1, 1, "mercenaries PLAYER")
    seat = _player(game, args[0])
    return str(sum(1 for c in _zone(game, seat) if c.kind is Kind.MERCENARY))


def _lines(game: Game, args: Sequence[str], learner: int) -> str:
    _args(args, 1, 1, "lines PLAYER")
    seat = _player(game, args[0])
    return str(game.observation(seat)["players"][seat]["lines"])


def _heroes(game: Game, args: Sequence[str], learner: int) -> str:
    _args(args, 1, 1, "heroes PLAYER")
    seat = _player(game, args[0])
    me = game.observation(seat)["players"][seat]
    tokens = [t for column in me["army"].values() for t in column] + me["command_zone"]
    heroes = [c.name for c in map(parse_token, tokens) if c.kind is Kind.HERO]
    return " ".join(sorted(heroes)) or "none"


def _discard_cards(game: Game, letter: str | None) -> list[Card]:
    cards = [parse_token(t) for t in game.observation(0)["discard"]]
    if letter is None:
        return cards
    suit = _suit(letter)
    return [c for c in cards if c.suit is suit]


def _discard(game: Game, args: Sequence[str], learner: int) -> str:
    _args(args, 0, 1, "discard [CLASS]")
    cards = _discard_cards(game, args[0] if args else None)
    return " ".join(c.token for c in cards) or "none"


def _best(game: Game, args: Sequence[str], learner: int) -> str:
    _args(args, 2, 2, "best discard CLASS")
    if args[0].lower() != "discard":
        raise ClaimError(_("expected {usage}").format(usage="best discard CLASS"))
    cards = _discard_cards(game, args[1])
    if not cards:
        return "none"
    return max(cards, key=lambda c: (c.bravery_points or 0)).token


def _distinction(game: Game, args: Sequence[str], learner: int) -> str:
    if not args:
        raise ClaimError(_("expected {usage}").format(usage="distinction NAME"))
    wanted = " ".join(args).lower()
    holders = game.observation(learner)["distinctions"]
    for name, holder in holders.items():
        if name.lower() == wanted:
            return "nobody" if holder is None else game.names[holder]
    raise ClaimError(_("no distinction {name} ({names})").format(
        name=repr(" ".join(args)), names=", ".join(holders)))


def _now(game: Game, args: Sequence[str], learner: int) -> str:
    _args(args, 1, 1, 'now "MOVE"')
    branch = game.clone()
    before = branch.scores()[learner].total
    try:
        branch.apply(args[0])
    except (IllegalAction, InvalidNotation) as exc:
        raise ClaimError(_("{move} is not a move here: {problem}").format(
            move=repr(args[0]), problem=exc)) from None
    return _signed(branch.scores()[learner].total - before)


def _decision(game: Game, args: Sequence[str], learner: int) -> str:
    _args(args, 0, 0, "decision")
    d = game.decision
    return "none" if d is None else f"{game.names[d.player]} {d.kind}"


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


#: The claims a step can make, by their first word.
CLAIMS: dict[str, Callable[[Game, Sequence[str], int], str]] = {
    "ranks": _ranks, "points": _points, "coins": _coins, "gem": _gem,
    "mercenaries": _mercenaries, "lines": _lines, "heroes": _heroes, "discard": _discard,
    "best": _best, "distinction": _distinction, "now": _now, "decision": _decision,
}


def _words(text: str) -> list[str]:
    """Words split at spaces; a move in double quotes is one word (apostrophes are letters:
    ``distinction King's Hand``)."""
    lex = shlex.shlex(text, posix=True)
    lex.quotes = '"'
    lex.whitespace_split = True
    lex.commenters = ""
    return list(lex)


def split(claim: str) -> tuple[str, list[str], str]:
    """(what, arguments, stated value) of ``WHAT ARGS = VALUE``."""
    left, eq, value = claim.rpartition("=")
    if not eq or not left.strip() or not value.strip():
        raise ClaimError(_("a claim reads {form}, not {claim}").format(
            form="WHAT ARGS = VALUE", claim=repr(claim)))
    try:
        words = _words(left)
    except ValueError as exc:
        # Translators: {problem} is the reader's own words (English).
        raise ClaimError(_("cannot read {text}: {problem}").format(
            text=repr(left.strip()), problem=exc)) from None
    what = words[0].lower()
    if what not in CLAIMS:
        raise ClaimError(_("unknown claim {claim}; known: {claims}").format(
            claim=repr(words[0]), claims=", ".join(CLAIMS)))
    return what, words[1:], value.strip()


def evaluate(game: Game, claim: str, learner: int) -> str:
    """The engine's value of a claim's left side (``ranks You W``)."""
    words = _words(claim)
    if not words or words[0].lower() not in CLAIMS:
        raise ClaimError(_("unknown claim {claim}; known: {claims}").format(
            claim=repr(claim), claims=", ".join(CLAIMS)))
    return CLAIMS[words[0].lower()](game, words[1:], learner)


def _same(stated: str, actual: str) -> bool:
    def norm(text: str) -> Any:
        words = text.split()
        try:
            return [int(w) for w in words]
        except ValueError:
            pass
        out = []
        for w in words:
            try:
                out.append(parse_token(w).token)
            except (InvalidNotation, KeyError, ValueError):
                out.append(w.lower())
        return out

    return norm(stated) == norm(actual) or stated.strip().lower() == actual.strip().lower()


def check(game: Game, claim: str, learner: int) -> str | None:
    """None when the claim holds; else what the game has (``the game has 3``)."""
    what, args, stated = split(claim)
    actual = CLAIMS[what](game, args, learner)
    # Translators: what a walkthrough's check found instead ("... claims 'ranks Bo W = 2',
    # but the game has 3"); {actual} is a value in notation.
    return None if _same(stated, actual) else _("the game has {actual}").format(actual=actual)


__all__ = ["CLAIMS", "ClaimError", "check", "evaluate", "split"]

