"""The component catalogue of Nidavellir and Thingvellir, as data.

Every card type exists once here as an immutable singleton; decks and armies hold
references to these singletons (copies of a card type are the same object).
Sources are cited on each entry: ``FR`` is the French rulebook with Thingvellir, ``DE`` the
German rulebook, each by section heading, and ``R<n>`` a ruling (docs/rulings.md). Counts
follow the rulebooks' lists of components (FR "Matériel", "Partie à 5 Elvalands").

Formulas (hunter n², blacksmith n(n+5)/2) live in :mod:`nidavellir.scoring`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from .i18n import _
from .plugins import registers


class Suit(enum.IntEnum):
    """A dwarf class, and the army column of that class (FR "Anatomie du plateau").

    The order is the order of troop evaluation (FR "Fin de l'Age 1").
    """

    WARRIOR = 0
    HUNTER = 1
    MINER = 2
    BLACKSMITH = 3
    EXPLORER = 4

    @property
    def letter(self) -> str:
        return "WHMBE"[self]

    @property
    def column_name(self) -> str:
        """The lowercase name used as a key in scenario files (``warrior``, ...)."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Accept ``W``, ``warrior``, ``warriors`` (case-insensitive)."""
        key = text.strip().lower()
        for suit in cls:
            if key in (suit.letter.lower(), suit.column_name, suit.column_name + "s"):
                return suit
        # Translators: a column typed wrong in the notation; {letters} are notation.
        raise ValueError(_("unknown class {text!r}: expected one of {letters}").format(
            text=text, letters=", ".join(s.letter for s in cls)))


SUITS: Final[tuple[Suit, ...]] = tuple(Suit)


class Kind(enum.Enum):
    DWARF = "dwarf"
    ROYAL_OFFERING = "royal offering"
    HERO = "hero"
    DISTINCTION = "distinction"
    SPECIAL_BLACKSMITH = "special blacksmith"
    MERCENARY = "mercenary"
    ARTIFACT = "artifact"
    OLWYN_DOUBLE = "olwyn double"


BASE = "base"
THINGVELLIR: Final = "thingvellir"
#: The expansions a game may name (``Game.new(expansions=...)``): Thingvellir, then any a
#: plugin's cards bring (:func:`add_card`).
EXPANSIONS: list[str] = [THINGVELLIR]


@dataclass(frozen=True, eq=False, repr=False)
class Card:
    """One card type. Compared by identity: the catalogue holds one object per type."""

    token: str
    """The canonical token (docs/notation.md, "Card tokens")."""
    name: str
    kind: Kind
    suit: Suit | None = None
    """The class of a dwarf, class hero or the special blacksmith; None otherwise."""
    bravery: tuple[int, ...] = ()
    """Bravery points per rank when the card lies in its own column (0 for H/B ranks)."""
    points: int = 0
    """Fixed end-of-game points (neutral heroes, Megingjord, ...)."""
    value: int = 0
    """The transform bonus of a Royal Offering (+3 / +5)."""
    sides: tuple[tuple[Suit, int], ...] = ()
    """A mercenary's two sides: (class, bravery points)."""
    age: int | None = None
    """1 or 2 for Royal Offerings and camp cards."""
    title: str = ""
    expansion: str = BASE
    advanced: bool = False
    """Left out in the first-game variant (R25)."""
    ref: str = ""
    """Where the rulebook (or a ruling) defines the card."""
    aliases: tuple[str, ...] = field(default=())
    values: tuple[tuple[int, int] | None, ...] = field(default=(), init=False, repr=False)
    """(ranks, bravery points) in each column, by :class:`Suit` (None where the card cannot
    lie: a mercenary's other columns): :meth:`column_value`'s table, computed once, which
    the scorer and the playouts' worth read directly."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", tuple(self._column_value(s) for s in Suit))

    @property
    def ranks(self) -> int:
        """Ranks when the card lies in its own column (0 for command-zone cards)."""
        return len(self.bravery)

    @property
    def bravery_points(self) -> int:
        return sum(self.bravery)

    @property
    def is_hero(self) -> bool:
        return self.kind is Kind.HERO

    @property
    def is_class_hero(self) -> bool:
        return self.kind is Kind.HERO and self.suit is not None

    @property
    def flexible(self) -> bool:
        """Cards whose class is the column they lie in (Thrud, Ylud, mercenaries, doubles)."""
        return self.kind in (Kind.MERCENARY, Kind.OLWYN_DOUBLE) or self in (THRUD, YLUD)

    def column_value(self, suit: Suit) -> tuple[int, int]:
        """(ranks, bravery points) this card gives when it lies in column ``suit``.

        Ylud by column (W 7, M 1, E 11, H/B rank only, FR "Ylud"); mercenaries by
        the side they lie on (FR p.24); Olwyn's doubles 1 rank, 0 BP; Thrud 1 rank
        while in the army, never scored there (FR "Thrud").
        """
        value = self.values[suit]
        if value is None:
            raise ValueError(f"mercenary {self.token} has no {suit.column_name} side")
        return value

    def _column_value(self, suit: Suit) -> tuple[int, int] | None:
        if self.kind is Kind.MERCENARY:
            for side_suit, bp in self.sides:
                if side_suit is suit:
                    return 1, bp
            return None
        if self.kind is Kind.HERO and self.suit is None and self.advanced:
            # Ylud and Thrud (Uline never lies in a column).
            if self.token == "Ylud":
                return 1, YLUD_BRAVERY[suit]
            return 1, 0
        if self.kind is Kind.OLWYN_DOUBLE:
            return 1, 0
        return len(self.bravery), sum(self.bravery)

    def fits(self, suit: Suit) -> bool:
        """Whether the card may lie in column ``suit``."""
        if self.kind is Kind.MERCENARY:
            return any(s is suit for s, _ in self.sides)
        if self.flexible:
            return True
        return self.suit is suit

    def __repr__(self) -> str:
        return f"<Card {self.token}>"

    def __str__(self) -> str:
        return self.token

    # Singletons survive pickling (process pools) and copying (Game.clone).
    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (card, (self.token,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self


# --------------------------------------------------------------------------- dwarves

def _dwarf(suit: Suit, bp: int | None) -> Card:
    bravery = (bp if bp is not None else 0,)
    token = suit.letter + ("" if bp is None else str(bp))
    label = suit.column_name.capitalize() + ("" if bp is None else f" {bp}")
    return Card(token=token, name=label, kind=Kind.DWARF, suit=suit, bravery=bravery,
                ref="FR \"Matériel\"")


W = Suit.WARRIOR
H = Suit.HUNTER
M = Suit.MINER
B = Suit.BLACKSMITH
E = Suit.EXPLORER

#: (card, copies per age with 2–4 players, extra copies per age with 5 players);
#: FR "Matériel", "Partie à 5 Elvalands".
DWARF_COUNTS: tuple[tuple[Card, int, int], ...] = (
    (_dwarf(W, 3), 1, 0), (_dwarf(W, 4), 1, 0), (_dwarf(W, 5), 1, 0), (_dwarf(W, 6), 2, 0),
    (_dwarf(W, 7), 1, 0), (_dwarf(W, 8), 1, 0), (_dwarf(W, 9), 1, 0), (_dwarf(W, 10), 0, 1),
    (_dwarf(H, None), 6, 2),
    (_dwarf(M, 0), 2, 1), (_dwarf(M, 1), 2, 1), (_dwarf(M, 2), 2, 0),
    (_dwarf(B, None), 8, 2),
    (_dwarf(E, 5), 1, 0), (_dwarf(E, 6), 1, 0), (_dwarf(E, 7), 1, 0), (_dwarf(E, 8), 1, 0),
    (_dwarf(E, 9), 1, 0), (_dwarf(E, 10), 1, 0), (_dwarf(E, 11), 1, 0), (_dwarf(E, 12), 0, 1),
)
DWARVES: tuple[Card, ...] = tuple(c for c, _, _ in DWARF_COUNTS)

# --------------------------------------------------------------------------- royal offerings

ROYAL_OFFERING_3 = Card(token="+3", name="Royal Offering +3", kind=Kind.ROYAL_OFFERING, value=3,
                        age=1, ref="FR \"Carte Offrande Royale\"")
ROYAL_OFFERING_5 = Card(token="+5", name="Royal Offering +5", kind=Kind.ROYAL_OFFERING, value=5,
                        age=2, ref="FR \"Carte Offrande Royale\"")
#: (card, copies with 2–4 players, extra copies with 5 players), FR "Matériel".
ROYAL_OFFERING_COUNTS: dict[int, tuple[Card, int, int]] = {
    1: (ROYAL_OFFERING_3, 1, 1),
    2: (ROYAL_OFFERING_5, 2, 1),
}

# --------------------------------------------------------------------------- heroes

#: Ylud's bravery points by the column she lies in (FR "YLUD L'IMPRÉVISIBLE").
YLUD_BRAVERY: Final[dict[Suit, int]] = {W: 7, H: 0, M: 1, B: 0, E: 11}

_HERO_REF = "FR \"Capacités des cartes Héros·ïne\""


def _hero(name: str, title: str, suit: Suit | None = None, bravery: tuple[int, ...] = (),
          points: int = 0, *, advanced: bool = False, expansion: str = BASE, ref: str = "",
          aliases: tuple[str, ...] = ()) -> Card:
    return Card(token=name, name=name, title=title, kind=Kind.HERO, suit=suit, bravery=bravery,
                points=points, advanced=advanced, expansion=expansion,
                ref=ref or f"{_HERO_REF}, {name.upper()}", aliases=aliases)


KRAAL = _hero("Kraal", "the Venal", W, (7, 0))
TARAH = _hero("Tarah", "Lethal Strike", W, (14,))
ARAL = _hero("Aral", "Eagle Claws", H, (0, 0))
DAGDA = _hero("Dagda", "the Explosive", H, (0, 0, 0), ref=f"{_HERO_REF}, DAGDA; R10")
AEGUR = _hero("Aëgur", "Fist of Steel", B, (0, 0))
BONFUR = _hero("Bonfur", "the Tyrannical", B, (0, 0, 0), ref=f"{_HERO_REF}, BONFUR; R10")
ZORAL = _hero("Zoral", "the Foreman", M, (1, 0, 0))
LOKDUR = _hero("Lokdur", "Greedy Heart", M, (3,))
HOURYA = _hero("Hourya", "the Elusive", E, (20,))
IDUNN = _hero("Idunn", "the Furtive", E, (7,))
DWERG_YMIR = _hero("Dwerg Ymir", "one of the 5 Brothers")
DWERG_AESIR = _hero("Dwerg Aesir", "one of the 5 Brothers")
DWERG_SIGMIR = _hero("Dwerg Sigmir", "one of the 5 Brothers")
DWERG_JUNGIR = _hero("Dwerg Jungir", "one of the 5 Brothers")
DWERG_BERGELMIR = _hero("Dwerg Bergelmir", "one of the 5 Brothers")
SKAA = _hero("Skaa", "the Unfathomable", points=17)
ASTRID = _hero("Astrid", "the Fortunate")
GRID = _hero("Grid", "the Mercantile", points=7)
ULINE: Final = _hero("Uline", "the Seer", points=9, advanced=True)
YLUD: Final = _hero("Ylud", "the Unpredictable", advanced=True, ref=f"{_HERO_REF}, YLUD; R8")
THRUD: Final = _hero("Thrud", "the Headhunter", points=13, advanced=True,
              ref=f"{_HERO_REF}, THRUD; R13")

_TV_HERO_REF = "FR Thingvellir, \"Nouveaux Héros\""
ANDUMIA = _hero("Andumia", "the Necromancer", points=12, expansion=THINGVELLIR,
                ref=f"{_TV_HERO_REF}, ANDUMIA; R17")
HOLDA = _hero("Holda", "the Minstrel", points=12, expansion=THINGVELLIR,
              ref=f"{_TV_HERO_REF}, HOLDA; R17, R18")
KHRAD = _hero("Khrad", "the Beggar", points=4, expansion=THINGVELLIR,
              ref=f"{_TV_HERO_REF}, KHRAD; R4")
JARIKA: Final = _hero("Jarika", "the Rogue", points=8, expansion=THINGVELLIR,
               ref=f"{_TV_HERO_REF}, JARIKA; R6")
OLWYN: Final = _hero("Olwyn", "the Illusionist", points=9, expansion=THINGVELLIR,
              ref=f"{_TV_HERO_REF}, OLWYN")
ZOLKUR = _hero("Zolkur", "the Greedy", points=10, expansion=THINGVELLIR,
               ref=f"{_TV_HERO_REF}, ZOLKUR; R7, R21")

OLWYN_DOUBLE: Final = Card(token="Olwyn Double", name="Olwyn's Double", kind=Kind.OLWYN_DOUBLE,
                    bravery=(0,), expansion=THINGVELLIR, ref=f"{_TV_HERO_REF}, OLWYN",
                    aliases=("Olwyn's Double", "Double"))
OLWYN_DOUBLE_COUNT: Final = 2

BASE_HEROES: tuple[Card, ...] = (
    KRAAL, TARAH, ARAL, DAGDA, AEGUR, BONFUR, ZORAL, LOKDUR, HOURYA, IDUNN,
    DWERG_YMIR, DWERG_AESIR, DWERG_SIGMIR, DWERG_JUNGIR, DWERG_BERGELMIR,
    SKAA, ASTRID, GRID, ULINE, YLUD, THRUD,
)
THINGVELLIR_HEROES: tuple[Card, ...] = (ANDUMIA, HOLDA, KHRAD, JARIKA, OLWYN, ZOLKUR)
#: Every hero: the base game's, Thingvellir's, then any a plugin adds (:func:`add_card`).
HEROES: tuple[Card, ...] = BASE_HEROES + THINGVELLIR_HEROES
DWERG_BROTHERS: Final[tuple[Card, ...]] = (
    DWERG_YMIR, DWERG_AESIR, DWERG_SIGMIR, DWERG_JUNGIR, DWERG_BERGELMIR,
)
#: Points for owning 1..5 Dwerg brothers (FR "DWERG LES 5 FRÈRES").
DWERG_POINTS: Final[tuple[int, ...]] = (0, 13, 40, 81, 108, 135)
#: Thrud scores 13 once in the command zone at the end of age 2 (FR "THRUD").
THRUD_POINTS: Final = 13
#: Hourya needs this many explorer ranks before she can be recruited (FR "HOURYA").
HOURYA_REQUIRED_EXPLORER_RANKS = 5
#: Grid's immediate transform bonus (FR "GRID LA MERCANTILE").
GRID_BONUS: Final = 7
#: Idunn: +2 per explorer rank (FR "IDUNN LA FURTIVE").
IDUNN_BONUS_PER_RANK: Final = 2
#: Khrad's transform of the lowest coin (FR Thingvellir "KHRAD", R4; a scan of the French
#: rulebook reads +1, the card itself +10).
KHRAD_BONUS: Final = 10
#: Jarika's bonus on every transform and trade (FR Thingvellir "JARIKA"; R6).
JARIKA_BONUS: Final = 2

# --------------------------------------------------------------------------- distinctions

_DIST_REF = "FR \"Fin de l'Age 1: l'Évaluation des troupes\""


def _distinction(name: str, suit: Suit, heading: str) -> Card:
    return Card(token=name, name=name, kind=Kind.DISTINCTION, suit=suit,
                ref=f"{_DIST_REF}, \"{heading}\"; R23")


KINGS_HAND: Final = _distinction("King's Hand", W, "La Main du Roi")
HUNTING_MASTER: Final = _distinction("Hunting Master", H, "Maître-esse de Chasse")
CROWN_JEWELER: Final = _distinction("Crown Jeweler", M, "Joaillier-ère de la Couronne")
KINGS_GREAT_ARMORER: Final = _distinction("King's Great Armorer", B, "Grand-e Armurier-ère du Roi")
PIONEER_OF_THE_KINGDOM: Final = _distinction("Pioneer of the Kingdom", E, "Pionnier-ère du Royaume")
#: In troop-evaluation order (W, H, M, B, E).
DISTINCTIONS: tuple[Card, ...] = (
    KINGS_HAND, HUNTING_MASTER, CROWN_JEWELER, KINGS_GREAT_ARMORER, PIONEER_OF_THE_KINGDOM,
)
KINGS_HAND_BONUS: Final = 5
#: Pioneer of the Kingdom: draw 3 cards of the age-2 deck, keep 1 (FR "Pionnier-ère").
PIONEER_DRAW = 3

SPECIAL_BLACKSMITH: Final = Card(
    token="B*", name="Special blacksmith", kind=Kind.SPECIAL_BLACKSMITH, suit=B, bravery=(0, 0),
    ref=f"{_DIST_REF}, \"Grand-e Armurier-ère du Roi\"",
    aliases=("Special Blacksmith", "BB"))

# --------------------------------------------------------------------------- Thingvellir camp

_CAMP_REF = "FR Thingvellir, \"Les Mercenaires\" (p.24); R5"


def _mercenary(age: int, a: tuple[Suit, int], b: tuple[Suit, int]) -> Card:
    def side(s: tuple[Suit, int]) -> str:
        suit, bp = s
        return suit.letter + (str(bp) if suit in (W, M, E) else "")

    token = f"{side(a)}/{side(b)}"
    return Card(token=token, name=f"Mercenary {token}", kind=Kind.MERCENARY, sides=(a, b),
                bravery=(0,), age=age, expansion=THINGVELLIR, ref=_CAMP_REF)


#: The 12 mercenaries in catalogue order (FR Thingvellir "Les Mercenaires"); W9/E11 exists
#: once per age.
MERCENARIES: tuple[Card, ...] = (
    _mercenary(1, (W, 6), (E, 8)),
    _mercenary(1, (W, 6), (B, 0)),
    _mercenary(1, (H, 0), (E, 8)),
    _mercenary(1, (H, 0), (M, 1)),
    _mercenary(1, (B, 0), (M, 1)),
    _mercenary(1, (W, 9), (E, 11)),
    _mercenary(2, (H, 0), (B, 0)),
    _mercenary(2, (W, 6), (M, 1)),
    _mercenary(2, (B, 0), (E, 8)),
    _mercenary(2, (W, 6), (H, 0)),
    _mercenary(2, (E, 8), (M, 1)),
    _mercenary(2, (W, 9), (E, 11)),
)
# The two W9/E11 are the same card type: one singleton.
MERCENARIES = tuple(
    next(m for m in MERCENARIES[:i + 1] if m.token == merc.token) for i, merc in enumerate(MERCENARIES)
)

_ART_REF = "FR Thingvellir, \"Les Artefacts\""


def _artifact(name: str, age: int, points: int = 0, *, suit: Suit | None = None,
              bravery: tuple[int, ...] = (), ref: str = "",
              aliases: tuple[str, ...] = ()) -> Card:
    return Card(token=name, name=name, kind=Kind.ARTIFACT, age=age, points=points, suit=suit,
                bravery=bravery, expansion=THINGVELLIR,
                ref=ref or f"{_ART_REF}, {name.upper()}", aliases=aliases)


FAFNIR_BALEYGR = _artifact("Fafnir Båleygr", 1, ref=f"{_ART_REF}, FAFNIR BÅLEYGR; R18, R19",
                           aliases=("Fafnir Baleygr", "Fafnir"))
DRAUPNIR = _artifact("Draupnir", 1)
VEGVISIR = _artifact("Vegvisir", 1, suit=E, bravery=(13,))
SVALINN = _artifact("Svalinn", 1)
MEGINGJORD: Final = _artifact("Megingjord", 1, points=28, aliases=("Megingjörd",))
VIDOFNIR_VEDRFOLNIR: Final = _artifact("Vidofnir & Vedrfölnir", 1,
                                ref=f"{_ART_REF}, VIDOFNIR & VEDRFÖLNIR; R21",
                                aliases=("Vidofnir", "Vidofnir and Vedrfolnir",
                                         "Vidofnir Vedrfolnir"))
BRISINGAMENS = _artifact("Brisingamens", 2, ref=f"{_ART_REF}, BRISINGAMENS; R16, R17")
MJOLLNIR = _artifact("Mjöllnir", 2, aliases=("Mjollnir",))
HOFUD = _artifact("Höfud", 2, ref=f"{_ART_REF}, HÖFUD; R16", aliases=("Hofud",))
HRAFNSMERKI: Final = _artifact("Hrafnsmerki", 2)
JARNGLOFI = _artifact("Járnglófi", 2, points=24, ref=f"{_ART_REF}, JÁRNGLÓFI; R20",
                      aliases=("Jarnglofi",))
GJALLARHORN = _artifact("Gjallarhorn", 2, ref=f"{_ART_REF}, GJALLARHORN; R10",
                        aliases=("Jallarhorn",))
ARTIFACTS: tuple[Card, ...] = (
    FAFNIR_BALEYGR, DRAUPNIR, VEGVISIR, SVALINN, MEGINGJORD, VIDOFNIR_VEDRFOLNIR,
    BRISINGAMENS, MJOLLNIR, HOFUD, HRAFNSMERKI, JARNGLOFI, GJALLARHORN,
)
#: Draupnir: 6 points per coin of value >= 15; Svalinn: 5 per hero; Hrafnsmerki: 5 per
#: mercenary; Mjöllnir: 2 per rank of the best column (FR Thingvellir artifacts).
DRAUPNIR_POINTS: Final = 6
DRAUPNIR_MIN_COIN: Final = 15
SVALINN_POINTS_PER_HERO: Final = 5
HRAFNSMERKI_POINTS_PER_MERCENARY: Final = 5
MJOLLNIR_POINTS_PER_RANK: Final = 2
VIDOFNIR_BONUSES = (2, 3)
VIDOFNIR_SINGLE_BONUS = 5
CAMP_SIZE: Final = 5


def camp_deck(age: int) -> list[Card]:
    """The 12 camp cards of an age (6 mercenaries + 6 artifacts), unshuffled."""
    if age not in (1, 2):
        raise ValueError(f"age must be 1 or 2, not {age!r}")
    mercenaries = MERCENARIES[:6] if age == 1 else MERCENARIES[6:]
    return list(mercenaries) + [a for a in ARTIFACTS if a.age == age]


# --------------------------------------------------------------------------- coins and gems

#: Every player's starting bronze coins (FR "Mise en place").
STARTING_COINS: tuple[int, ...] = (0, 2, 3, 4, 5)
EXCHANGE_COIN_VALUE = 0
#: The special green 3 of the Hunting Master (FR "Maître-esse de Chasse").
HUNTER_COIN_VALUE: Final = 3
#: The royal treasury with 4–5 players: value -> copies (FR "Trésor Royal"; 34 coins).
TREASURY_4_5: dict[int, int] = {
    5: 2, 6: 2, 7: 3, 8: 2, 9: 3, 10: 2, 11: 3, 12: 2, 13: 2, 14: 2,
    15: 1, 16: 1, 17: 1, 18: 1, 19: 1, 20: 1, 21: 1, 22: 1, 23: 1, 24: 1, 25: 1,
}
#: With 2–3 players, 2 each of 7, 9 and 11 go back to the box (FR "Partie à 2/3 Elvalands").
TREASURY_REMOVED_2_3: dict[int, int] = {7: 2, 9: 2, 11: 2}
MAX_COIN_VALUE: Final = 25
#: Gems 1–5 and the special gem 6 of the Crown Jeweler (+3 points, never exchanged).
GEMS: tuple[int, ...] = (1, 2, 3, 4, 5)
GEM_6: Final = 6
GEM_6_POINTS: Final = 3


def treasury(players: int) -> dict[int, int]:
    """The royal treasury for a player count: value -> copies."""
    check_players(players)
    coins = dict(TREASURY_4_5)
    if players <= 3:
        for value, n in TREASURY_REMOVED_2_3.items():
            coins[value] -= n
    return coins


def gems_for(players: int) -> tuple[int, ...]:
    """The top N gems (R1): 5p 1–5, 4p 2–5, 3p 3–5, 2p 4–5."""
    check_players(players)
    return GEMS[len(GEMS) - players:]


# --------------------------------------------------------------------------- setup tables

#: Cards per tavern, rounds per age (FR "Mise en place", "Partie à 2/3/5 Elvalands").
CARDS_PER_TAVERN: Final[dict[int, int]] = {2: 3, 3: 3, 4: 4, 5: 5}
ROUNDS_PER_AGE: Final[dict[int, int]] = {2: 4, 3: 4, 4: 3, 5: 3}
TAVERNS: tuple[str, ...] = ("Laughing Goblin", "Dancing Dragon", "Shining Horse")
#: The taverns by index (their names: :data:`TAVERNS`): a bid puts a coin on each.
TAVERN_INDICES: range = range(len(TAVERNS))
#: The fewest and the most players (FR "Matériel": 2 to 5 Elvalands).
MIN_PLAYERS, MAX_PLAYERS = 2, 5
#: Every player count a game may have, and every seat a game may have.
PLAYER_COUNTS: range = range(MIN_PLAYERS, MAX_PLAYERS + 1)
SEATS: range = range(MAX_PLAYERS)


def check_players(players: object) -> None:
    """Raises ValueError unless ``players`` is a player count (any value: checked here, in
    the compiled build too)."""
    if not isinstance(players, int) or isinstance(players, bool) or players not in PLAYER_COUNTS:
        raise ValueError(f"Nidavellir is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"not {players!r}")


def dwarf_counts(players: int) -> dict[Card, int]:
    """Dwarf copies in one age deck for a player count (5-player cards only with 5)."""
    check_players(players)
    return {c: n + (extra if players == 5 else 0) for c, n, extra in DWARF_COUNTS
            if n + (extra if players == 5 else 0)}


def age_deck(age: int, players: int) -> list[Card]:
    """One age deck, unshuffled: the dwarves plus that age's Royal Offerings."""
    if age not in (1, 2):
        raise ValueError(f"age must be 1 or 2, not {age!r}")
    deck = [c for c, n in dwarf_counts(players).items() for _ in range(n)]
    offering, n, extra = ROYAL_OFFERING_COUNTS[age]
    deck += [offering] * (n + (extra if players == 5 else 0))
    return deck


# --------------------------------------------------------------------------- lookup

ALL_CARDS: tuple[Card, ...] = (
    DWARVES + (ROYAL_OFFERING_3, ROYAL_OFFERING_5) + HEROES + DISTINCTIONS
    + (SPECIAL_BLACKSMITH,) + tuple(dict.fromkeys(MERCENARIES)) + ARTIFACTS + (OLWYN_DOUBLE,)
)
_BY_TOKEN: dict[str, Card] = {c.token: c for c in ALL_CARDS}


def card(token: str) -> Card:
    """The catalogue card with exactly this canonical token (see tokens.parse for input)."""
    return _BY_TOKEN[token]


def box_counts(players: int = 5, expansions: tuple[str, ...] = (THINGVELLIR,)) -> dict[Card, int]:
    """How many copies of each army-able card exist in the box for a player count.

    Used to validate scenario tables: dwarves of both ages, the Royal Offerings,
    heroes, the special blacksmith, and (with Thingvellir) camp cards and doubles.
    """
    counts: dict[Card, int] = {}
    for c, n in dwarf_counts(players).items():
        counts[c] = 2 * n
    for c, n, extra in ROYAL_OFFERING_COUNTS.values():
        counts[c] = n + (extra if players == 5 else 0)
    for h in heroes_of(expansions):
        counts[h] = 1
    for d in DISTINCTIONS:
        counts[d] = 1
    counts[SPECIAL_BLACKSMITH] = 1
    if THINGVELLIR in expansions:
        for m in MERCENARIES:
            counts[m] = counts.get(m, 0) + 1
        for a in ARTIFACTS:
            counts[a] = 1
        counts[OLWYN_DOUBLE] = OLWYN_DOUBLE_COUNT
    return counts


def iter_catalogue() -> Iterator[Card]:
    yield from ALL_CARDS


def heroes_of(expansions: tuple[str, ...]) -> list[Card]:
    """The heroes of a game of these expansions (the base game's are always in), in
    catalogue order: the hero hall before the first-game variant (R25) leaves some out."""
    return [h for h in HEROES if h.expansion == BASE or h.expansion in expansions]


_EACH_CARD: list[Callable[[Card], object]] = []


def each_card(index: Callable[[Card], object]) -> None:
    """Call ``index`` for every card of the catalogue now and for every card added later
    (:func:`add_card`): how a module keeps a table of every card (the token index, the
    actions of each card) true when a plugin adds one."""
    for c in ALL_CARDS:
        index(c)
    _EACH_CARD.append(index)


@registers
def add_card(card: Card) -> Card:
    """Put a new card type in the catalogue: a plugin's hero (docs/engine.md, "A plugin").
    Its token must be new. A card of an expansion the catalogue does not know brings that
    expansion (:data:`EXPANSIONS`): a game has the card only when it names the expansion,
    so installing a plugin changes no existing game (its records replay as before).

    Added after the catalogue's own cards, so every table that lists the cards in order
    (tokens, the RL action table) keeps its old entries where they were."""
    global ALL_CARDS, HEROES
    if not isinstance(card, Card):
        raise TypeError(f"add_card takes a Card, not {card!r}")
    if card.token in _BY_TOKEN:
        raise ValueError(f"the catalogue already has a card {card.token!r}")
    ALL_CARDS += (card,)
    _BY_TOKEN[card.token] = card
    if card.kind is Kind.HERO:
        HEROES += (card,)
    if card.expansion != BASE and card.expansion not in EXPANSIONS:
        EXPANSIONS.append(card.expansion)
    for index in _EACH_CARD:
        index(card)
    return card
