"""What a move does at once: the score sheet's change, the majorities, the next decision.

"Now" means the board's own score sheet (:meth:`nidavellir.game.Game.scores`): the move is
applied to a copy of the position and the player's row after it is compared with the row
before, for every decision kind (a mercenary that waits in the command zone adds nothing
now; enlisting it adds its column's points). What the sheet would say *if the game ended
now* (the waiting mercenaries and Ylud placed where they score most, R14) is another figure
under that name, never called "now".

A majority that a move takes, ties, loses or hands over is read from the engine's own
rules (:func:`nidavellir.rules.flow.distinction_winner` for the distinctions of age 1,
:func:`nidavellir.scoring.warrior_majority` for the final warrior bonus), never restated
by hand: a tie for a distinction gives it to nobody, a tie for the warrior bonus gives it
to every tied player, because that is what the engine does. Only what can still change is
said: a distinction whose troop evaluation has run (the end of age 1 under way: a King's
Hand transform, the Pioneer's draw) is never promised again (:func:`at_stake`).

Everything is computed on a determinization for the deciding seat, so a preview never
depends on what that seat cannot see (the seat's own row of the score sheet and the
armies are the same in every determinization).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .. import cards as C
from .. import events as ev
from ..actions import Action
from ..cards import Kind
from ..game import Game
from ..i18n import _, join
from ..names import card_name, class_in_sentence
from ..rules.base import DecisionKind
from ..rules.flow import Distinction, StartAge, distinction_winner
from ..scoring import CATEGORIES, CATEGORY_LABELS, score_table, warrior_majority
from ..state import GameState

_IMMEDIATE_EVENTS = (ev.CardTaken, ev.CardPlaced, ev.CardDiscarded, ev.CoinTransformed,
                     ev.CoinTraded, ev.HeroRecruited, ev.CoinSwapped, ev.GemReplaced,
                     ev.CoinDiscarded)


@dataclass
class Immediate:
    """What a move changes on the board's score sheet at once (exact)."""

    total: int
    """The player's total on the score sheet right after the move, less before."""
    parts: dict[str, int]
    """Score-sheet categories that change, and by how much (they add up to ``total``)."""
    lines: list[str]
    """What happens to the player, in words (a card placed, a coin traded, …)."""
    majority: list[str]
    """Class majorities taken, tied, lost or handed over, with what the engine gives for
    them ("ties the hunters: nobody gets Hunting Master")."""
    if_ended: int = 0
    """The change of the total *if the game ended now*: waiting mercenaries and Ylud placed
    where they score most (R14). Not the "now" figure."""
    follow_up: str = ""
    """The player's next decision when the move leads straight to one (a hero to recruit, a
    coin to transform): the engine's own prompt. Its effect is not counted yet."""
    lines_completed: int = 0
    """Complete lines the move adds."""
    new_coins: list[str] = field(default_factory=list)
    """The coins a transform or a trade gives the player, in order."""

    def text(self) -> str:
        """``+7 now (warriors +5, coins +2)``."""
        parts = ", ".join(f"{CATEGORY_LABELS.get(k, k).lower()} {v:+d}"
                          for k, v in self.parts.items())
        return f"{self.total:+d} now" + (f" ({parts})" if parts and len(self.parts) > 1 else "")


def immediate(game: Game, action: Action | str, seed: int = 0) -> Immediate:
    """What ``action`` changes at once for the player deciding (module docs), on a
    determinization for that player."""
    decision = game.decision
    if decision is None:
        raise ValueError("there is no decision: the game is over")
    base = game.determinize(decision.player, seed)
    return _immediate(base, decision.player, base.parse(str(action)) if isinstance(
        action, str) else action)


def immediates(game: Game, actions: Sequence[Action], seed: int = 0) -> dict[str, Immediate]:
    """:func:`immediate` of several actions of the decision on the table (one
    determinization for all)."""
    decision = game.decision
    if decision is None:
        return {}
    base = game.determinize(decision.player, seed)
    return {str(a): _immediate(base, decision.player, a) for a in actions}


def sheet_if_ended(game: Game, seat: int) -> dict[str, int]:
    """``seat``'s score sheet by category if the game ended now: the table as it is, with the
    cards that would still be placed before the final count placed where they score most
    for the player (a mercenary waiting in the command zone on its better side, Ylud in her
    best column: R14, every mercenary is enlisted and Ylud placed before the scoring)."""
    tables = game.tables()
    mine = tables[seat]
    pending = [c for c in mine.command_zone if c.kind is Kind.MERCENARY or c is C.YLUD]
    options = game.config.options
    if not pending:
        return score_table(tables, options, details=False)[seat].breakdown
    army = {suit: list(col) for suit, col in mine.army.items()}
    zone = list(mine.command_zone)
    for card in pending:
        zone.remove(card)
        suits = [s for s, _ in card.sides] if card.kind is Kind.MERCENARY else list(C.SUITS)
        best_total, best_suit = -1, suits[0]
        for suit in suits:
            trial = {k: v + [card] if k is suit else v for k, v in army.items()}
            tables[seat] = mine.but(army=trial, command_zone=zone)
            total = score_table(tables, options, details=False)[seat].total
            if total > best_total:
                best_total, best_suit = total, suit
        army[best_suit] = army[best_suit] + [card]
    tables[seat] = mine.but(army=army, command_zone=zone)
    return score_table(tables, options, details=False)[seat].breakdown


def _immediate(base: Game, me: int, action: Action) -> Immediate:
    before = base.scores()[me].breakdown
    ended_before = sum(sheet_if_ended(base, me).values())
    age = base.state.age
    stake = at_stake(base.state)
    prizes_before = prizes(base.state, age, stake)
    lines_before = base.state.players[me].lines
    branch = base.clone()
    mark = len(branch.events)
    branch.apply(action)
    after = branch.scores()[me].breakdown
    parts = {k: after[k] - before[k] for k in CATEGORIES if after[k] != before[k]}
    mine = [e for e in branch.events[mark:]
            if isinstance(e, _IMMEDIATE_EVENTS) and getattr(e, "player", None) == me]
    nxt = branch.decision
    follow = (nxt.prompt if nxt is not None and nxt.player == me
              and nxt.kind not in (DecisionKind.BID, DecisionKind.PICK) else "")
    notes = majority_notes(prizes_before, awarded(prizes(branch.state, age, stake),
                                                  branch.events[mark:]), me, base.names)
    return Immediate(total=sum(parts.values()), parts=parts,
                     lines=[e.describe(base.names) for e in mine], majority=notes,
                     if_ended=sum(sheet_if_ended(branch, me).values()) - ended_before,
                     follow_up=follow,
                     lines_completed=branch.state.players[me].lines - lines_before,
                     new_coins=[e.new for e in mine
                                if isinstance(e, ev.CoinTransformed | ev.CoinTraded)])


# ====================================================================== majorities

#: (class, what the majority wins in words, the seats that would get it) for each majority
#: at stake.
Prize = tuple[C.Suit, str, frozenset[int]]


def at_stake(state: GameState) -> tuple[int, ...]:
    """The distinctions still to be awarded (indices of :data:`~nidavellir.cards.
    DISTINCTIONS`, one per class): in age 1 every one until the end of the age begins, then
    those whose troop evaluation has not run yet (the engine's steps still to run:
    :class:`~nidavellir.rules.flow.Distinction`); none in age 2 (a distinction awarded is
    never at stake again)."""
    if state.age != 1:
        return ()
    tasks = state.tasks
    if not any(isinstance(t, StartAge) for t in tasks):  # the end of age 1 has not begun
        return tuple(range(len(C.DISTINCTIONS)))
    return tuple(sorted(t.index for t in tasks if isinstance(t, Distinction)))


def prizes(state: GameState, age: int, stake: Sequence[int] | None = None) -> list[Prize]:
    """The majorities still at stake and who would get each, by the engine's own rules: in
    age 1 the distinction of every class whose troop evaluation is still to come
    (``stake``, default :func:`at_stake`) if it ran now (the troop evaluation's
    :func:`~nidavellir.rules.flow.distinction_winner`); in age 2 the final warrior bonus
    if the game ended now (the scorer's :func:`~nidavellir.scoring.warrior_majority`)."""
    players = state.players
    if age == 1:
        out: list[Prize] = []
        for i in (at_stake(state) if stake is None else stake):
            suit, card = C.SUITS[i], C.DISTINCTIONS[i]
            winner = distinction_winner([p.ranks[suit] for p in players])
            out.append((suit, card_name(card), frozenset(() if winner is None else (winner,))))
        return out
    bonus = warrior_majority([p.ranks[C.Suit.WARRIOR] for p in players], state.config.options)
    # Translators: what the warriors' majority wins in age 2, in a majority note ("ties the
    # warrior majority: the warrior bonus for you and Bo").
    return [(C.Suit.WARRIOR, _("the warrior bonus"),
             frozenset(i for i, b in enumerate(bonus) if b))]


def awarded(after: list[Prize], events: Sequence[ev.Event]) -> list[Prize]:
    """``after`` with the holders of the distinctions that ``events`` award (a move that
    ends the age: the troop evaluation ran on the ranks it found, before any card a
    distinction gives was placed)."""
    given = {e.distinction: e.player for e in events if isinstance(e, ev.DistinctionAwarded)}
    if not given:
        return after
    out = []
    for suit, prize, holders in after:
        card = C.DISTINCTIONS[C.SUITS.index(suit)]
        if card in given:
            player = given[card]
            holders = frozenset(() if player is None else (player,))
        out.append((suit, prize, holders))
    return out


def majority_notes(before: Sequence[Prize], after: Sequence[Prize], me: int,
                   names: Sequence[str]) -> list[str]:
    """The majorities whose holders the move changes, in words, from the engine's holders
    before and after (``me``: the player moving).

    Each note is a whole message ({cls}: the class inside a sentence, "warrior",
    "Krieger"; {prize}: the distinction or the bonus; {players}: the other seats)."""
    notes = []
    for (suit, prize, old), (_suit, _prize, new) in zip(before, after, strict=True):
        if old == new:
            continue
        cls = class_in_sentence(suit)
        others = join([names[i] for i in sorted(new - {me})])
        if me in new and not others:
            taken = sorted(old - {me})
            if taken:
                # Translators: a majority note under an option (what the move does to a
                # class majority); {players}: who held it before.
                notes.append(_("takes the {cls} majority: {prize} (from {players})").format(
                    cls=cls, prize=prize, players=join([names[i] for i in taken])))
            else:
                # Translators: a majority note under an option.
                notes.append(_("takes the {cls} majority: {prize}").format(cls=cls, prize=prize))
        elif me in new:
            # Translators: a majority note under an option: a tie that gives the prize to
            # every tied player.
            notes.append(_("ties the {cls} majority: {prize} for you and {players}").format(
                cls=cls, prize=prize, players=others))
        elif not new:
            # Translators: a majority note under an option: a tie that gives the
            # distinction to nobody.
            notes.append(_("ties the {cls} majority: nobody gets {prize}").format(
                cls=cls, prize=prize))
        elif me in old:
            # Translators: a majority note under an option: the player moving loses it.
            notes.append(_("hands the {cls} majority to {players}: {prize}").format(
                cls=cls, prize=prize, players=others))
        else:
            # Translators: a majority note under an option: it passes between others.
            notes.append(_("leaves the {cls} majority to {players}: {prize}").format(
                cls=cls, prize=prize, players=others))
    return notes


__all__ = ["Immediate", "Prize", "at_stake", "awarded", "immediate", "immediates",
           "majority_notes", "prizes", "sheet_if_ended"]
