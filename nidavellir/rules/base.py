"""What the rules modules share: the decision kinds, the two sorts of step, and the table.

The engine (:mod:`nidavellir.engine`) keeps a stack of steps and runs it until a player must
decide. A step is a small frozen value with named fields:

- an automatic :class:`Step` runs by itself (a round's deal, a reveal, a distinction);
- a :class:`Choice` waits for its player. Everything about one kind of decision lives in
  its class (as python-chess keeps a move's parts together and OpenSpiel a state's
  ``_legal_actions`` / ``_apply_action`` / ``_action_to_string``): who decides
  (``player``), its :class:`DecisionKind`, its verbs and how their actions are written
  (``verbs``: :class:`~nidavellir.actions.Syntax` objects, which also give its block of the
  RL action table), :meth:`Choice.legal`, :meth:`Choice.apply`, why a move is refused
  (:meth:`Choice.why_illegal`), its words for a learner (:meth:`Choice.prompt`,
  :meth:`Choice.label` for a button, :meth:`Choice.say` for a walkthrough) and the Play
  tab's control that shows it (``control``).

Defining a decision class registers it: by its kind in :data:`CHOICES`, its verbs in
:data:`nidavellir.actions.VERBS`. Everything that reads or shows decisions dispatches
through these registries (docs/engine.md has the checklist for a new kind).

Rules act on the game through :class:`Table`, which the engine implements: the rules
modules never import the engine (no circle), and a new rule needs no edit of the engine.

>>> DecisionKind.BID == "bid", DecisionKind.BID
(True, 'bid')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..actions import Action, Syntax, format_arg, register_verb
from ..extensible import Extensible
from ..i18n import _
from .controls import Buttons, Control
from .kinds import DecisionKind as DecisionKind

if TYPE_CHECKING:
    from ..cards import Card, Suit
    from ..events import Event
    from ..state import GameState, PlayerState


class Table(Protocol):
    """What the rules may do to a game: the engine's side of the rules modules."""

    state: GameState
    events: list[Event]
    quiet: bool
    """No events at all (search playouts never read them)."""

    def emit(self, cls: Callable[..., Event], **kw: Any) -> None:
        """Record an event of type ``cls`` (age, round and tavern are filled in)."""

    def push(self, *steps: Step | Choice) -> None:
        """Put steps on the stack; the first one given runs first."""

    def place(self, p: PlayerState, card: Card, suit: Suit,
              then: Step | Choice | None = None) -> None:
        """A card on top of a column, then Thrud's re-placement and the recruitment loop."""

    def take_card(self, p: PlayerState, card: Card, source: str) -> None:
        """A card taken (tavern, camp, discard): into the army, or its effect."""

    def discard_card(self, card: Card, player: int | None, reason: str) -> None:
        """A card to the face-up dwarf discard (R2, R15)."""

    def transform(self, p: PlayerState, label: str, place: str, bonus: int,
                  reason: str) -> None:
        """Transform a coin where it lies (R6)."""

    def trade(self, p: PlayerState, pool: list[int], a: int, b: int) -> None:
        """Trade two coins of ``pool`` for one of their sum (R7)."""

    def jarika(self, p: PlayerState) -> int:
        """Jarika's bonus on transforms and trades (0 without her)."""

    def legal_actions(self) -> list[Action]:
        """The legal actions of the decision on top of the stack."""


class Step(metaclass=Extensible):
    """An automatic step: it runs when it reaches the top of the stack."""

    __slots__ = ()
    is_choice: ClassVar[bool] = False

    def run(self, table: Table) -> None:
        raise NotImplementedError


#: Every decision class by its kind (filled as the rules modules define them; a kind is a
#: str, so ``CHOICES.get("pick")`` finds it).
CHOICES: dict[str, type[Choice]] = {}


class ChoiceSettings(metaclass=Extensible):
    """A decision class's settings: class-level values each decision class may set, never
    fields of its dataclass (:mod:`nidavellir.extensible`)."""

    __slots__ = ()
    is_choice: ClassVar[bool] = True
    kind: ClassVar[DecisionKind]
    verbs: ClassVar[Mapping[str, Syntax]]
    """The verbs of this decision's actions and how each is written (``{"take": CARD,
    "camp": CARD}``): parsing, formatting and the RL action table read them."""
    group: ClassVar[str] = "other"
    """Where a game review counts the decision: bids, picks, heroes, coins, Thingvellir."""
    control: ClassVar[Control] = Buttons()
    """How the Play tab draws this decision: a kind of control and the data it needs
    (:mod:`.controls`; a button per action by default)."""
    face_down: ClassVar[str | None] = None
    """The text another seat reads in the log instead of the action while the game is on
    (a bid: ``bid (face down)``), or None when everyone sees the action."""
    always_has_options: ClassVar[bool] = False
    """True for a decision that always has a legal action (the engine then does not build
    the list to find out: a search's playouts bid without it)."""
    tells_options: ClassVar[bool] = False
    """True for a decision whose :meth:`has_options` can often tell, without building the
    list, that it has a legal action (a tavern pick while the tavern holds cards)."""


@dataclass(frozen=True, slots=True)
class Choice(ChoiceSettings):
    """A decision waiting for ``player`` (see the module docs)."""

    player: int

    def __init_subclass__(cls) -> None:
        # (No super() call: slots=True rebuilds the class, which breaks the zero-argument
        # form; object.__init_subclass__ does nothing.) A dataclass with slots is created
        # twice under one name: the second replaces the first. (vars(cls), not
        # cls.__dict__: the compiled build's classes, docs/development.md.)
        kind = vars(cls).get("kind")
        if isinstance(kind, DecisionKind):
            if kind in CHOICES and CHOICES[kind].__qualname__ != cls.__qualname__:
                raise TypeError(f"two decision classes for {kind!r}: "
                                f"{CHOICES[kind].__qualname__} and {cls.__qualname__}")
            if not isinstance(cls.control, Control):
                raise TypeError(f"{cls.__qualname__}.control is {cls.control!r}: expected a "
                                "control of nidavellir.rules.controls")
            cls.control.check(cls.__qualname__, cls.verbs)
            for verb, syntax in cls.verbs.items():
                register_verb(verb, syntax, cls.__qualname__)
            CHOICES[kind] = cls

    def has_options(self, table: Table) -> bool:
        """True when there surely is a legal action (only asked where
        :attr:`tells_options`); False: build the list to find out."""
        return False

    def legal(self, table: Table) -> list[Action]:
        raise NotImplementedError

    def apply(self, table: Table, action: Action) -> None:
        """Run a legal action (the step is already off the stack)."""
        raise NotImplementedError

    def prompt(self, table: Table) -> str:
        raise NotImplementedError

    def why_illegal(self, table: Table, action: Action) -> str:
        """Why ``action`` is refused here, in words (the verb is already right)."""
        shown = ", ".join(str(a) for a in table.legal_actions()[:8])
        # Translators: {action} and {legal} are notation (actions).
        return _("{action} is not possible now; legal: {legal}").format(action=action,
                                                                         legal=shown)

    # ------------------------------------------------------------------ words for a learner

    @classmethod
    def label(cls, action: Action) -> str:
        """A button's words for ``action`` (``take``, ``Thrud to W``, ``coin 5``): the
        Play tab's controls add the coach's numbers to them. Default: the action's
        arguments, without the verb."""
        return " ".join(format_arg(a) for a in action.args) or action.verb

    def say(self, table: Table, action: Action) -> str:
        """``action`` as a sentence for a learner, without the final stop ("Take the
        explorer 9"): a walkthrough's "Your move". It reads only what the deciding player
        may know (the table is the real game: the deciding player's own coins, and what
        everyone sees)."""
        raise NotImplementedError(f"{type(self).__qualname__} has no words for a learner "
                                  "(Choice.say)")
