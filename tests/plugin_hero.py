"""A made-up hero written as a plugin, from docs/engine.md alone ("A plugin"): Gulli the
Moneychanger, of a made-up expansion, 6 points. When you recruit him you swap one of your
coins for the treasury's nearest higher coin (``swap 5``, a new kind of decision), and he
remembers the coin you gave up: at the end he scores its value as well (a remembered choice,
:class:`~nidavellir.rules.cardrules.Mark`).

``NIDAVELLIR_PLUGINS=plugin_hero`` (with tests/ on the path) installs it: ``import
nidavellir`` loads it after the engine. tests/test_plugin_hero.py runs the conformance, RL
table, scoring, golden, notation, record, scenario and RL adapter tests with it installed,
and counts the files it registers in (:data:`nidavellir.plugins.REGISTERED`): the number
docs/engine.md's checklist gives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from nidavellir import cards as C
from nidavellir import coins as K
from nidavellir.actions import COIN, COIN_LABELS, Action, Syntax, interned
from nidavellir.rules.base import Choice, DecisionKind, Table
from nidavellir.rules.cardrules import Mark, ScoreLine, ScoreView
from nidavellir.rules.controls import CoinButtons, Control
from nidavellir.rules.decisions import coin_places
from nidavellir.rules.heroes import HeroRules, add_hero
from nidavellir.state import PlayerState

#: The made-up expansion: a game has Gulli only when it names it.
EXPANSION = "moneychangers"
#: Gulli's own points at the end.
POINTS = 6
#: The card (nidavellir/cards.py).
GULLI = C.add_card(C.Card(token="Gulli", name="Gulli", title="the Moneychanger",
                          kind=C.Kind.HERO, points=POINTS, expansion=EXPANSION,
                          ref="a made-up hero of the tests"))
#: The kind of decision (nidavellir/rules/base.py).
SWAP = DecisionKind.add("swap")


@dataclass(frozen=True, slots=True)
class Swap(Choice):
    """Gulli: one of your coins for the treasury's nearest higher coin (an exchange coin
    cannot be swapped); he remembers the coin given up."""

    kind: ClassVar[DecisionKind] = SWAP
    verbs: ClassVar[Mapping[str, Syntax]] = {"swap": COIN}
    group: ClassVar[str] = "coins"
    control: ClassVar[Control] = CoinButtons("Gulli: a coin to swap")

    def legal(self, table: Table) -> list[Action]:
        p = table.state.players[self.player]
        labels = (K.label(c) for c in sorted(p.coins()) if not K.is_exchange(c))
        return [interned("swap", (lab,)) for lab in dict.fromkeys(labels)]

    def apply(self, table: Table, action: Action) -> None:
        p = table.state.players[self.player]
        label = str(action.args[0])
        where = next(w for w, c in coin_places(p) if K.label(c) == label)
        p.marks[GULLI] = label
        table.transform(p, label, where, 1, GULLI.name)

    def prompt(self, table: Table) -> str:
        return "Gulli: swap one of your coins for the nearest higher treasury coin"

    @classmethod
    def label(cls, action: Action) -> str:
        return f"coin {action.args[0]}"

    def say(self, table: Table, action: Action) -> str:
        return f"Swap your {action.args[0]} for the nearest higher treasury coin"


class Gulli(HeroRules):
    mark = Mark(values=COIN_LABELS)

    def effect(self, table: Table, p: PlayerState) -> None:
        table.push(Swap(p.seat))

    def score(self, view: ScoreView) -> Sequence[ScoreLine]:
        lines: list[ScoreLine] = [("heroes", "Gulli", POINTS)]
        given = view.marks.get(GULLI)
        if isinstance(given, str):
            lines.append(("heroes", f"Gulli: the coin {given} you gave up",
                          K.label_value(given)))
        return lines

    def outlook(self, p: PlayerState) -> str:
        return f"+{POINTS} at the end, and the value of the coin you swap now"


#: The entry (nidavellir/rules/heroes.py).
ENTRY = add_hero(Gulli(GULLI, "Neutral hero: 6 points at the end. When you recruit him, swap "
                              "one of your coins for the nearest higher coin of the treasury; "
                              "at the end he also scores the value of the coin you gave up.",
                       "a made-up hero of the tests"))
