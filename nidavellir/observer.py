"""What a seat may see: decided once, here (OpenSpiel's ``Observer``).

What a seat may know (the observation contract): the public history (every card dealt and
taken, every coin transformed, traded or discarded, every revealed bid, gems, distinctions,
the camp) and its own hidden information. Every player's *set* of coins is public (each
change is announced); where face-down coins lie is not. Hidden from a seat:

- the order of every unseen card: the age decks still to come, the cards the R3 option put
  in the box, the camp decks; and a Pioneer of the Kingdom draw while another player
  chooses;
- the other players' coins lying face down: bids on taverns not yet revealed, and the purse
  (a trade shows a purse; a coin transformed where it lies shows its place: they are known
  though they lie face down again, FR "Remettez face cachée");
- until the game is over, which coins another seat put where in its bids (the log's
  ``bid (face down)``);
- what another seat's cards remember in private (a card declares whether its mark is
  public: :class:`~nidavellir.rules.cardrules.Mark`).

What the events showed is read from their declarations only
(:meth:`nidavellir.events.Event.reveals`: a transform where a coin lies, a trade, a tavern's
reveal; a new round turns every coin face down again), in :func:`known_places`.

Everything that shows a seat a game asks this module: :meth:`Game.observation`, the log and
the undo menu (:meth:`Observer.action_text`), determinizations for searches and estimates
(:func:`nidavellir.determinize.determinize_state`), the coin chart and the coach's
explanations. ``Observer(None)`` sees everything (records, a finished game, a teacher);
``Observer(SPECTATOR)`` is a viewer with no seat.

>>> from nidavellir import Game
>>> g = Game.new(players=2, seed=1)
>>> g.apply("bid 5 4 3")
>>> Observer(1).action_text(g, 0), Observer(0).action_text(g, 0)
('bid (face down)', 'bid 5 4 3')
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from . import cards as C
from . import coins as K
from . import events as ev
from .actions import Action
from .i18n import _
from .rules.base import CHOICES
from .rules.catalogue import MARKS
from .rules.decisions import PioneerKeep

if TYPE_CHECKING:
    from .state import GameConfig, GameState, PlayerState


class Viewed(Protocol):
    """What the observer reads of a game (:class:`nidavellir.game.Game` is one)."""

    @property
    def state(self) -> GameState: ...
    @property
    def events(self) -> list[ev.Event]: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def config(self) -> GameConfig: ...
    @property
    def decision(self) -> Any: ...
    @property
    def is_over(self) -> bool: ...
    history: list[tuple[int, Action]]

    def legal_actions(self) -> list[Action]: ...

#: A viewer who holds no seat (a replay of an unfinished game): every bid stays face down.
SPECTATOR = -1


def revealed_up_to(state: GameState) -> int:
    """Index of the last revealed tavern this round (-1 before the first reveal)."""
    return -1 if state.tavern is None else state.tavern


def known_places(events: Sequence[ev.Event], viewer: int | None
                 ) -> tuple[frozenset[tuple[int, int]], dict[int, list[str]]]:
    """What the round's events showed ``viewer`` of others' face-down coins: the
    (seat, tavern) bids shown where they lie, and per seat the labels of purse coins
    known to be there (``["*"]``: a trade showed the whole purse). Read only from what
    the events declare (:meth:`nidavellir.events.Event.reveals`)."""
    start = 0
    for i in range(len(events) - 1, -1, -1):
        if events[i].resets_reveals:
            start = i
            break
    shown: set[tuple[int, int]] = set()
    purse: dict[int, list[str]] = {}
    whole: set[int] = set()
    for e in events[start:]:
        for r in e.reveals():
            if r.seat == viewer:
                continue
            if r.place != "purse":
                shown.add((r.seat, int(r.place[1]) - 1))
            elif r.coin is None:
                whole.add(r.seat)
            elif r.seat not in whole:
                labels = purse.setdefault(r.seat, [])
                if r.replaces in labels:
                    labels.remove(r.replaces)
                labels.append(r.coin)
    # After a trade the whole purse is known: its current content is public.
    return frozenset(shown), {**purse, **{seat: ["*"] for seat in whole}}


class Observer:
    """The view of one seat (``viewer``), of a spectator (:data:`SPECTATOR`), or of
    everything (``None``)."""

    __slots__ = ("viewer",)

    def __init__(self, viewer: int | None) -> None:
        self.viewer = viewer

    def __repr__(self) -> str:
        return f"Observer({self.viewer!r})"

    def is_me(self, seat: int) -> bool:
        return self.viewer is None or seat == self.viewer

    # ------------------------------------------------------------------ coins

    def bid_face_up(self, state: GameState, seat: int, tavern: int) -> bool:
        """Whether ``seat``'s bid on ``tavern`` shows its value to this viewer."""
        return self.is_me(seat) or tavern <= revealed_up_to(state)

    def hidden_bids(self, state: GameState, shown: Collection[tuple[int, int]] = ()
                    ) -> dict[int, list[int]]:
        """For each other player, the taverns whose bid this viewer cannot know (face down
        and not shown by an announced transform)."""
        revealed = revealed_up_to(state)
        out: dict[int, list[int]] = {}
        for p in state.players:
            if self.is_me(p.seat):
                continue
            hidden = [t for t in range(revealed + 1, 3)
                      if p.bids[t] is not None and (p.seat, t) not in shown]
            if hidden:
                out[p.seat] = hidden
        return out

    def known_places(self, events: Sequence[ev.Event]
                     ) -> tuple[frozenset[tuple[int, int]], dict[int, list[str]]]:
        return known_places(events, self.viewer)

    def coin_place_visible(self, state: GameState, seat: int, place: str,
                           purse_known: bool = False) -> bool:
        """Whether this viewer sees which of ``seat``'s coins lie at ``place`` now (``hand``,
        ``purse``, ``T1``-``T3``): always their own; another seat's bid once its tavern is
        revealed, its purse once a trade showed it, its hand always (coins in hand are
        between rounds, when every coin is back in hand)."""
        if self.is_me(seat) or place == "hand":
            return True
        if place == "purse":
            return purse_known
        return int(place[1]) - 1 <= revealed_up_to(state)

    # ------------------------------------------------------------------ cards

    def sees_mark(self, seat: int, card: C.Card) -> bool:
        """Whether this viewer sees what ``card`` remembers for ``seat``: a public mark
        (:class:`~nidavellir.rules.cardrules.Mark`) or the viewer's own."""
        mark = MARKS.get(card)
        if mark is None:
            raise KeyError(f"{card.token} keeps a mark its entry does not declare "
                           "(CardRules.mark)")
        return self.is_me(seat) or mark.public

    def marks(self, p: PlayerState) -> dict[str, Any]:
        """What ``p``'s cards remember that this viewer may see, by card token."""
        return {c.token: v for c, v in p.marks.items() if self.sees_mark(p.seat, c)}

    def sees_drawn(self, state: GameState) -> bool:
        """The Pioneer of the Kingdom's three cards: only the player choosing sees them."""
        if not state.drawn or self.viewer is None:
            return True
        top = state.tasks[-1] if state.tasks else None
        return isinstance(top, PioneerKeep) and top.player == self.viewer

    # ------------------------------------------------------------------ the log

    def action_text(self, game: Viewed, index: int) -> str:
        """Decision ``index`` in notation as this viewer may read it: while the game is on,
        another seat's face-down action (a bid: its coins and, by elimination, its purse)
        shows only what its decision says (``Choice.face_down``)."""
        player, action = game.history[index]
        if not self.is_me(player) and not game.is_over:
            for cls in CHOICES.values():
                if cls.face_down is not None and action.verb in cls.verbs:
                    return _(cls.face_down)  # marked N_ on its class
        return str(action)

    # ------------------------------------------------------------------ the observation

    def observe(self, game: Viewed) -> dict[str, Any]:
        """Plain data of everything this viewer may see (``Game.observation``)."""
        s = game.state
        viewer = self.viewer
        _, purse_known = self.known_places(game.events)
        d = game.decision
        players = []
        for p in s.players:
            mine = self.is_me(p.seat)
            bids: list[str | None] = []
            for t, coin in enumerate(p.bids):
                if coin is None:
                    bids.append(None)
                elif self.bid_face_up(s, p.seat, t):
                    bids.append(K.label(coin))
                else:
                    bids.append("?")
            known = purse_known.get(p.seat, [])
            players.append({
                "seat": p.seat, "name": game.names[p.seat], "gem": p.gem,
                "army": {suit.letter: [c.token for c in p.army[suit]] for suit in C.SUITS},
                "ranks": {suit.letter: p.ranks[suit] for suit in C.SUITS},
                "lines": p.lines, "heroes": p.heroes,
                "command_zone": [c.token for c in p.command_zone],
                "bids": bids,
                "hand": [K.label(c) for c in p.hand] if mine else len(p.hand),
                "purse": [K.label(c) for c in p.purse] if mine else len(p.purse),
                # Public: every change of a coin is announced; where face-down coins lie is
                # not shown (bids "?", the purse a count; purse_known: what a trade told).
                "coins": [K.label(c) for c in sorted(p.coins())],
                "purse_known": ([K.label(c) for c in sorted(p.purse)] if mine or known == ["*"]
                                else sorted(known, key=K.label_key)),
                "marks": self.marks(p),
            })
        obs: dict[str, Any] = {
            "player": viewer, "names": list(game.names), "age": s.age, "round": s.round,
            "tavern": s.tavern, "over": s.over,
            "taverns": [[c.token for c in t] for t in s.taverns],
            "deck_sizes": {str(a): len(s.decks[a]) for a in (1, 2)},
            "discard": [c.token for c in s.discard],
            "treasury": {str(v): n for v, n in s.treasury.as_dict().items()},
            "hall": [c.token for c in s.hall],
            "expansions": list(game.config.expansions),
            "camp": [c.token for c in s.camp],
            "camp_deck_sizes": {str(a): len(s.camp_decks[a]) for a in (1, 2)},
            "distinctions": {c.token: next((p.seat for p in s.players if c in p.command_zone),
                                           None) for c in C.DISTINCTIONS},
            "order": list(s.order),
            "players": players,
            "decision": None,
        }
        if d is not None:
            obs["decision"] = {"player": d.player, "kind": str(d.kind), "prompt": d.prompt}
            if d.player == viewer:
                obs["legal_actions"] = [str(a) for a in game.legal_actions()]
                if s.drawn and self.sees_drawn(s):
                    obs["drawn"] = [c.token for c in s.drawn]
        return obs


__all__ = ["SPECTATOR", "Observer", "known_places", "revealed_up_to"]
