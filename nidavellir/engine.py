"""The rules engine: a stack of steps that runs until a player must decide.

The state holds ``tasks``, a stack of steps (:mod:`nidavellir.rules.base`). ``advance``
pops and runs automatic steps (dealing, reveal, ordering, trades, gem exchange,
distinctions, scoring) until the top step is a decision (a
:class:`~nidavellir.rules.base.Choice`); ``apply`` checks an action against that decision's
legal actions, lets the decision apply it, and advances again. What each step and each
decision does is in :mod:`nidavellir.rules`; the engine only runs them and gives the rules
their :class:`~nidavellir.rules.base.Table` (events, the stack, placing and taking cards,
coin changes).

:class:`Engine` is also the one fast path for bots and simulations (docs/engine.md, "One
fast path"): a search plays thousands of determinized states to their end with
``Engine(state, quiet=True)``, :meth:`Engine.legal_actions` (a shared list, read only),
``apply(action, check=False)`` for actions taken from that list and :meth:`Engine.play_out`
(a whole playout by a policy). Everything else uses :class:`nidavellir.game.Game`.

>>> from nidavellir import Game
>>> eng = Game.new(players=3, seed=1).engine
>>> eng.decision.kind, eng.to_play
('bid', 0)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import events as ev
from .actions import Action
from .cards import Card, Suit
from .errors import IllegalAction
from .i18n import _
from .rules import coinage, placement
from .rules.base import Choice, DecisionKind, Step, Table
from .scoring import PlayerTable, tables_of
from .state import GameState, PlayerState


@dataclass(frozen=True)
class Decision:
    """Who must decide what now: the player, the kind of decision, the question in words,
    and the decision itself (its named fields: ``task.tavern``, ``task.bonus``, …)."""

    player: int
    kind: DecisionKind
    prompt: str
    task: Choice


class Engine(Table):
    """Runs the rules on a GameState; holds the event list of the game."""

    def __init__(self, state: GameState, events: list[ev.Event] | None = None,
                 quiet: bool = False) -> None:
        self.state = state
        self.events: list[ev.Event] = events if events is not None else []
        self.quiet = quiet
        """No events at all (search playouts, which never read them)."""
        self._legal: list[Action] | None = None
        self._legal_set: frozenset[Action] | None = None

    def __reduce__(self) -> tuple[type[Engine], tuple[GameState, list[ev.Event], bool]]:
        # Copied and pickled through the constructor (the compiled build's classes cannot
        # be made with __new__ alone); the legal actions are found again when asked.
        return (Engine, (self.state, self.events, self.quiet))

    # ------------------------------------------------------------------ the rules' table

    def emit(self, cls: Callable[..., ev.Event], **kw: Any) -> None:
        if self.quiet:
            return
        s = self.state
        self.events.append(cls(s.age, s.round, s.tavern, **kw))

    def push(self, *steps: Step | Choice) -> None:
        """Push steps so that the first one given runs first."""
        tasks = self.state.tasks
        # A loop, not extend(reversed(steps)): the compiled build looks ``reversed`` up
        # as a module attribute at every call (the playouts push at every step).
        i = len(steps)
        while i:
            i -= 1
            tasks.append(steps[i])

    # The rules' functions as the table's methods, each a call of its own (not the function
    # as a class attribute: a compiled function does not bind as a method, docs/development.md).
    def place(self, p: PlayerState, card: Card, suit: Suit,
              then: Step | Choice | None = None) -> None:
        placement.place(self, p, card, suit, then)

    def take_card(self, p: PlayerState, card: Card, source: str) -> None:
        placement.take_card(self, p, card, source)

    def discard_card(self, card: Card, player: int | None, reason: str) -> None:
        placement.discard_card(self, card, player, reason)

    def transform(self, p: PlayerState, label: str, place: str, bonus: int,
                  reason: str) -> None:
        coinage.transform(self, p, label, place, bonus, reason)

    def trade(self, p: PlayerState, pool: list[int], a: int, b: int) -> None:
        coinage.trade(self, p, pool, a, b)

    def jarika(self, p: PlayerState) -> int:
        return coinage.jarika(self, p)

    # ------------------------------------------------------------------ decisions

    @property
    def decision(self) -> Decision | None:
        s = self.state
        if s.over or not s.tasks:
            return None
        task: Choice = s.tasks[-1]  # the top of the stack is a decision between runs
        return Decision(player=task.player, kind=task.kind, prompt=task.prompt(self), task=task)

    @property
    def to_play(self) -> int | None:
        """The seat that must decide now (None when the game is over)."""
        s = self.state
        if s.over or not s.tasks:
            return None
        task: Choice = s.tasks[-1]  # the top of the stack is a decision between runs
        return task.player

    def legal_actions(self) -> list[Action]:
        """The legal actions of the decision on the table: a shared list (read it, never
        change it); empty when the game is over."""
        if self._legal is None:
            s = self.state
            if s.over or not s.tasks:
                self._legal = []
            else:
                self._legal = s.tasks[-1].legal(self)
        return self._legal

    def is_legal(self, action: Action) -> bool:
        if self._legal_set is None:
            self._legal_set = frozenset(self.legal_actions())
        return action in self._legal_set

    def apply(self, action: Action, check: bool = True) -> None:
        """Run a decision; ``check=False`` is for actions taken from legal_actions()."""
        s = self.state
        if s.over:
            raise IllegalAction("the game is over")
        task = s.tasks[-1]
        if check and not self.is_legal(action):
            raise IllegalAction(self.why_illegal(task, action))
        s.tasks.pop()
        task.apply(self, action)
        self.advance()  # which forgets the legal actions first

    def play_out(self, policy: Callable[[Engine, Any], Action], rng: Any,
                 check: bool = False, age: int | None = None) -> None:
        """Apply ``policy(self, rng)``'s actions until the game is over (or, with ``age``,
        until the game leaves that age): a search's playouts and the coach's."""
        s = self.state
        while not s.over and (age is None or s.age == age):
            self.apply(policy(self, rng), check)

    def why_illegal(self, task: Choice, action: Action) -> str:
        """Why ``action`` is refused at decision ``task``, in words."""
        if action.verb not in task.verbs:
            # Translators: a move of another kind than the decision's; {kind}, {verbs} and
            # {verb} are notation ('bid', bid / trade, 'take'), {prompt} the decision's words.
            return _("the decision is {kind} ({prompt}): expected {verbs}, not {verb}").format(
                kind=repr(str(task.kind)), prompt=task.prompt(self),
                verbs=" / ".join(task.verbs), verb=repr(action.verb))
        return task.why_illegal(self, action)

    # ------------------------------------------------------------------ the loop

    def advance(self) -> None:
        s = self.state
        tasks = s.tasks
        self._legal = None
        self._legal_set = None
        while tasks and not s.over:
            task = tasks[-1]
            if task.is_choice:
                # A decision whose every option is moot is skipped (e.g. Dagda with fewer
                # discardable columns than expected after Thrud moved). The list of legal
                # actions is built only where the decision cannot tell sooner.
                if (task.always_has_options or (task.tells_options and task.has_options(self))
                        or self.legal_actions()):
                    return
                tasks.pop()
                self._legal = None
                continue
            tasks.pop()
            task.run(self)
        self._legal = None
        self._legal_set = None

    # ------------------------------------------------------------------ scoring view

    def final_tables(self) -> list[PlayerTable]:
        return tables_of(self.state)


__all__ = ["Decision", "Engine"]
