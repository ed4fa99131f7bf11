"""A made-up hero whose decision is a new kind, written as a contributor following
docs/engine.md would write it: Gulli the Moneychanger, 6 points, who on his recruitment
swaps one of your coins for the treasury's nearest higher coin (``swap 5``).

:data:`EDITS` is the whole change, file by file (each edit replaces a text that occurs
exactly once). tests/test_plugin_hero.py applies it to a copy of the lab and runs the
conformance check (tests/conformance.py) there: the number of files it touches outside the
tests is the number docs/engine.md's checklist gives.
"""

from __future__ import annotations

#: file -> [(text in the lab, its replacement)].
EDITS: dict[str, list[tuple[str, str]]] = {
    "nidavellir/cards.py": [
        ('SKAA = _hero("Skaa", "the Unfathomable", points=17)\n',
         'SKAA = _hero("Skaa", "the Unfathomable", points=17)\n'
         'GULLI = _hero("Gulli", "the Moneychanger", points=6)\n'),
        ("    SKAA, ASTRID, GRID, ULINE, YLUD, THRUD,\n",
         "    SKAA, ASTRID, GRID, ULINE, YLUD, THRUD, GULLI,\n"),
    ],
    "nidavellir/rules/base.py": [
        ('    VIDOFNIR = "vidofnir"\n',
         '    VIDOFNIR = "vidofnir"\n    SWAP = "swap"\n'),
    ],
    "nidavellir/rules/heroes.py": [
        ("from ..actions import CARD, Action, Syntax, interned\n",
         "from ..actions import CARD, COIN, Action, Syntax, interned\n"),
        ("    card_words,\n)\n",
         "    card_words,\n    coin_places,\n)\n"),
        ("class Zolkur(HeroRules):",
         '''@dataclass(frozen=True, slots=True)
class Swap(Choice):
    """Gulli: one of your coins for the treasury's nearest higher coin (an exchange coin
    cannot be swapped)."""

    kind: ClassVar[DecisionKind] = DecisionKind.SWAP
    verbs: ClassVar[Mapping[str, Syntax]] = {"swap": COIN}
    group: ClassVar[str] = "coins"

    def legal(self, table: Table) -> list[Action]:
        p = table.state.players[self.player]
        labels = (K.label(c) for c in sorted(p.coins()) if not K.is_exchange(c))
        return [interned("swap", (lab,)) for lab in dict.fromkeys(labels)]

    def apply(self, table: Table, action: Action) -> None:
        p = table.state.players[self.player]
        label = str(action.args[0])
        where = next(w for w, c in coin_places(p) if K.label(c) == label)
        table.transform(p, label, where, 1, "Gulli")

    def prompt(self, table: Table) -> str:
        return "Gulli: swap one of your coins for the nearest higher treasury coin"

    @classmethod
    def label(cls, action: Action) -> str:
        return f"coin {action.args[0]}"

    def say(self, table: Table, action: Action) -> str:
        return f"Swap your {action.args[0]} for the nearest higher treasury coin"


class Gulli(HeroRules):
    def effect(self, table: Table, p: PlayerState) -> None:
        table.push(Swap(p.seat))


class Zolkur(HeroRules):'''),
        ('''    Astrid(C.ASTRID, N_("Neutral hero: at the end she scores the value of your highest coin."),
           f"{_HEROES}, ASTRID"),
''', '''    Astrid(C.ASTRID, N_("Neutral hero: at the end she scores the value of your highest coin."),
           f"{_HEROES}, ASTRID"),
    Gulli(C.GULLI, "Neutral hero: 6 points at the end. When you recruit him, swap one of your "
          "coins for the nearest higher coin of the treasury.", "a made-up hero of the tests"),
'''),
    ],
}
