"""Scenario files: a table of players written by hand, scored without playing a game.

The format (docs/scenarios.md):

.. code-block:: yaml

    player_count: 5            # optional: the game's player count (default: players listed)
    expansions: [thingvellir]  # optional: inferred from the cards when left out
    options: {warrior_bonus_without_warriors: false}   # optional RuleOptions fields
    players:
      - name: Serge
        army:                  # columns bottom to top; keys warrior.. or W/H/M/B/E
          warrior: [W3, W7, W8, W10]
          hunter: [H, H, H, H]
        command_zone: [Skaa]   # optional
        coins: [0, 5, 11, 13, 24]
        gem: 3
        marks: {Zolkur: true}  # optional: what a card remembers (its entry's Mark)

:func:`parse_scenario` turns such a mapping into :class:`Scenario` (a list of
:class:`~nidavellir.scoring.PlayerTable` plus options) and checks it against the box;
every problem raises :class:`~nidavellir.errors.ScenarioError` naming the player, the
field and the problem. ``hypothetical=True`` skips the checks of what is physically
impossible (box counts, coin availability, duplicates across the table) but still
rejects unknown cards, cards in a column they cannot lie in and malformed structure.

Core module: stdlib only; PyYAML is imported lazily to read or write YAML.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import cards as C
from .cards import Card, Kind, Suit
from .errors import InvalidNotation, ScenarioError
from .options import RuleOptions
from .rules.catalogue import MARKS
from .scoring import PlayerTable, ScoreSheet, score_table
from .tokens import format_token, parse_token

TOP_LEVEL_KEYS = ("title", "description", "player_count", "expansions", "options", "players")
PLAYER_KEYS = ("name", "army", "command_zone", "coins", "gem", "marks")
#: The expansions a scenario may name (Thingvellir, and any a plugin brings).
KNOWN_EXPANSIONS = C.EXPANSIONS
#: Values of the bronze coins every player starts with (FR "Mise en place").
BRONZE = frozenset(C.STARTING_COINS)


@dataclass(frozen=True)
class Scenario:
    """A parsed, validated scenario: what the scorer needs, plus how it was checked."""

    tables: tuple[PlayerTable, ...]
    player_count: int
    expansions: tuple[str, ...] = ()
    options: RuleOptions = field(default_factory=RuleOptions)
    hypothetical: bool = False
    title: str | None = None
    description: str | None = None

    def score(self) -> ScoreSheet:
        return score_table(self.tables, self.options)

    def to_dict(self) -> dict[str, Any]:
        return scenario_to_dict(self.tables, player_count=self.player_count,
                                expansions=self.expansions, options=self.options,
                                title=self.title, description=self.description)


# --------------------------------------------------------------------------- placement rules

def placement_problem(card: Card, suit: Suit | None) -> str | None:
    """Why ``card`` cannot lie in column ``suit`` (None = the command zone), or None.

    Army: dwarves and class heroes in their own column (FR "Héros·ïne Guerrier·ère" etc.),
    the special blacksmith card in the blacksmith column, Vegvisir in the explorer
    column, mercenaries on one of their two sides, Ylud, Thrud and Olwyn's doubles in
    any column. Command zone: neutral heroes, distinctions, artifacts and unplaced
    mercenaries. Royal Offerings never stay with a player (FR "Carte Offrande Royale").
    """
    if card.kind is Kind.ROYAL_OFFERING:
        return (f"{card.token} is a Royal Offering: it transforms a coin when taken and "
                "never stays in an army or command zone")
    if suit is None:
        if card.kind in (Kind.DWARF, Kind.SPECIAL_BLACKSMITH):
            return f"{card.token} is a dwarf card: it lies in the {_column(card.suit)} column"
        if card.is_class_hero:
            return f"{card.token} is a {_column(card.suit)} hero: it lies in that column"
        if card is C.VEGVISIR:
            return "Vegvisir lies in the explorer column"
        if card.kind is Kind.OLWYN_DOUBLE:
            return "Olwyn's doubles lie in army columns (2 different ones)"
        return None
    if card.kind is Kind.MERCENARY:
        if card.fits(suit):
            return None
        sides = " or ".join(s.column_name for s, _ in card.sides)
        return f"mercenary {card.token} has no {suit.column_name} side (only {sides})"
    if card.fits(suit) and card.kind is not Kind.DISTINCTION:
        return None
    if card.kind is Kind.DISTINCTION:
        return f"{card.token} is a distinction: it lies in the command zone"
    if card.kind is Kind.HERO and card.suit is None:
        return f"{card.token} is a neutral hero: it lies in the command zone"
    if card.kind is Kind.ARTIFACT:
        if card is C.VEGVISIR:
            return "Vegvisir lies in the explorer column"
        return f"{card.token} is an artifact: it lies in the command zone"
    what = "hero" if card.is_hero else "card"
    return (f"{card.token} is a {_column(card.suit)} {what}: it cannot lie in the "
            f"{suit.column_name} column")


def _column(suit: Suit | None) -> str:
    return suit.column_name if suit is not None else "command zone"


# --------------------------------------------------------------------------- parsing

def _type_name(value: object) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    return f"{value!r} ({type(value).__name__})"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_cards(value: object, player: str, field_name: str) -> list[Card]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ScenarioError(f"expected a list of card tokens, got {_type_name(value)}",
                            player, field_name)
    result = []
    for position, item in enumerate(value, start=1):
        if not isinstance(item, str):
            hint = " (quote tokens such as '+3' in YAML)" if _is_int(item) else ""
            raise ScenarioError(
                f"card {position} must be a card token (text), got {_type_name(item)}{hint}",
                player, field_name)
        try:
            result.append(parse_token(item))
        except InvalidNotation as exc:
            raise ScenarioError(f"card {position}: {exc}", player, field_name) from None
    return result


def _parse_army(value: object, player: str) -> dict[Suit, list[Card]]:
    if not isinstance(value, Mapping):
        raise ScenarioError("expected a mapping of columns (warrior, hunter, miner, "
                            f"blacksmith, explorer) to card lists, got {_type_name(value)}",
                            player, "army")
    army: dict[Suit, list[Card]] = {s: [] for s in Suit}
    seen: dict[Suit, str] = {}
    for key, column in value.items():
        if not isinstance(key, str):
            raise ScenarioError(f"column name {key!r} must be text", player, "army")
        try:
            suit = Suit.parse(key)
        except ValueError:
            raise ScenarioError(
                f"unknown column {key!r}: expected warrior, hunter, miner, blacksmith, "
                "explorer (or W, H, M, B, E)", player, "army") from None
        if suit in seen:
            raise ScenarioError(f"the {suit.column_name} column is given twice "
                                f"({seen[suit]!r} and {key!r})", player, "army")
        seen[suit] = key
        field_name = f"army.{suit.column_name}"
        cards = _parse_cards(column, player, field_name)
        for position, card in enumerate(cards, start=1):
            problem = placement_problem(card, suit)
            if problem:
                raise ScenarioError(f"card {position}: {problem}", player, field_name)
        army[suit] = cards
    return army


def _parse_player(index: int, value: object, names: set[str]) -> PlayerTable:
    label = f"#{index + 1}"
    if not isinstance(value, Mapping):
        raise ScenarioError(f"each player must be a mapping, got {_type_name(value)}",
                            label, None)
    name = value.get("name")
    if "name" not in value:
        raise ScenarioError("missing field", label, "name")
    if not isinstance(name, str) or not name.strip():
        raise ScenarioError(f"expected a non-empty text, got {_type_name(name)}", label, "name")
    if name in names:
        raise ScenarioError("two players have this name", name, "name")
    names.add(name)
    unknown = [k for k in value if k not in PLAYER_KEYS]
    if unknown:
        raise ScenarioError(f"unknown field(s) {', '.join(map(str, unknown))}; known: "
                            f"{', '.join(PLAYER_KEYS)}", name, str(unknown[0]))
    for required in ("army", "coins", "gem"):
        if required not in value:
            raise ScenarioError("missing field", name, required)
    army = _parse_army(value["army"], name)
    command_zone = _parse_cards(value.get("command_zone"), name, "command_zone")
    for position, card in enumerate(command_zone, start=1):
        problem = placement_problem(card, None)
        if problem:
            raise ScenarioError(f"card {position}: {problem}", name, "command_zone")
    coins = value["coins"]
    if not isinstance(coins, list) or not all(_is_int(c) for c in coins):
        raise ScenarioError(f"expected a list of coin values (whole numbers), got "
                            f"{_type_name(coins)}", name, "coins")
    if any(c < 0 for c in coins):
        raise ScenarioError("coin values cannot be negative", name, "coins")
    gem = value["gem"]
    if not _is_int(gem):
        raise ScenarioError(f"expected a gem number 1 to 6, got {_type_name(gem)}", name, "gem")
    if not 1 <= gem <= C.GEM_6:
        raise ScenarioError(f"there is no gem {gem}: gems are 1 to 5 and the special 6",
                            name, "gem")
    table = PlayerTable(name=name, army=army, command_zone=command_zone, coins=list(coins),
                        gem=gem)
    if value.get("marks") is not None:
        table = table.but(marks=_parse_marks(value["marks"], name, table))
    # A player owns each hero at most once, even in a hypothetical table.
    for hero, n in Counter(c for c in table.cards() if c.is_hero).items():
        if n > 1:
            raise ScenarioError(f"hero {hero.token} is listed {n} times; a player owns each "
                                "hero at most once", name, _where(table, hero))
    return table


def _parse_marks(value: object, name: str, table: PlayerTable) -> dict[Card, Any]:
    """``marks``: what the player's cards remember, card token -> value (each card's
    :class:`~nidavellir.rules.cardrules.Mark` says which values it may hold)."""
    if not isinstance(value, Mapping):
        raise ScenarioError(f"expected a mapping of card tokens to what each remembers, got "
                            f"{_type_name(value)}", name, "marks")
    out: dict[Card, Any] = {}
    owned = table.cards()
    for token, remembered in value.items():
        where = f"marks.{token}"
        try:
            card = parse_token(str(token))
        except InvalidNotation as exc:
            raise ScenarioError(str(exc), name, where) from None
        mark = MARKS.get(card)
        if mark is None:
            marked = ", ".join(c.token for c in MARKS) or "none"
            raise ScenarioError(f"{card.token} remembers nothing (the cards that do: "
                                f"{marked})", name, where)
        if card not in owned:
            raise ScenarioError(f"the player does not own {card.token}", name, where)
        # JSON and YAML give True for true: a bool is no int here.
        if not any(type(remembered) is type(v) and remembered == v for v in mark.values):
            shown = ", ".join(json.dumps(v) for v in mark.values)
            raise ScenarioError(f"{card.token} remembers one of {shown}, not "
                                f"{remembered!r}", name, where)
        out[card] = remembered
    return out


def _where(table: PlayerTable, card: Card) -> str:
    """The field of the last place ``card`` appears in a player's table."""
    where = "command_zone" if card in table.command_zone else "army"
    for suit, column in table.army.items():
        if card in column:
            where = f"army.{suit.column_name}"
    return where


def _places(table: PlayerTable) -> Iterable[tuple[Card, str]]:
    for suit, column in table.army.items():
        for card in column:
            yield card, f"army.{suit.column_name}"
    for card in table.command_zone:
        yield card, "command_zone"


def parse_scenario(data: object, *, hypothetical: bool = False) -> Scenario:
    """Parse and validate a scenario mapping (the content of a YAML or JSON file)."""
    if not isinstance(data, Mapping):
        raise ScenarioError(f"a scenario must be a mapping with a 'players' list, got "
                            f"{_type_name(data)}")
    unknown = [k for k in data if k not in TOP_LEVEL_KEYS]
    if unknown:
        raise ScenarioError(f"unknown top-level field(s) {', '.join(map(str, unknown))}; "
                            f"known: {', '.join(TOP_LEVEL_KEYS)}", None, str(unknown[0]))
    for text_key in ("title", "description"):
        if data.get(text_key) is not None and not isinstance(data[text_key], str):
            raise ScenarioError(f"expected text, got {_type_name(data[text_key])}",
                                None, text_key)
    if "players" not in data:
        raise ScenarioError("missing field", None, "players")
    players = data["players"]
    if not isinstance(players, list) or not players:
        raise ScenarioError(f"expected a non-empty list of players, got {_type_name(players)}",
                            None, "players")
    names: set[str] = set()
    tables = tuple(_parse_player(i, p, names) for i, p in enumerate(players))

    try:
        options = RuleOptions.from_dict(data.get("options"))
    except (ValueError, TypeError) as exc:
        raise ScenarioError(str(exc), None, "options") from None

    player_count = data.get("player_count")
    if player_count is not None:
        if not _is_int(player_count) or player_count not in C.PLAYER_COUNTS:
            raise ScenarioError(f"expected a player count from 2 to 5, got "
                                f"{_type_name(player_count)}", None, "player_count")
    elif hypothetical:
        player_count = min(max(len(tables), 2), 5)
    else:
        if len(tables) not in C.PLAYER_COUNTS:
            raise ScenarioError(
                f"the file lists {len(tables)} player(s); Nidavellir is played by 2 to 5, "
                "so give player_count (the game's player count)", None, "player_count")
        player_count = len(tables)

    owned = {c for t in tables for c in t.cards()}
    if "expansions" in data and data["expansions"] is not None:
        raw = data["expansions"]
        if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
            raise ScenarioError(f"expected a list of expansion names, got {_type_name(raw)}",
                                None, "expansions")
        expansions = tuple(x.strip().lower() for x in raw)
        bad = [x for x in expansions if x not in KNOWN_EXPANSIONS]
        if bad:
            raise ScenarioError(f"unknown expansion {bad[0]!r}; known: "
                                f"{', '.join(KNOWN_EXPANSIONS)}", None, "expansions")
    else:
        # Inferred from the cards: every expansion one of them comes from.
        expansions = tuple(e for e in C.EXPANSIONS if any(c.expansion == e for c in owned))

    scenario = Scenario(tables=tables, player_count=player_count, expansions=expansions,
                        options=options, hypothetical=hypothetical,
                        title=data.get("title"), description=data.get("description"))
    if not hypothetical:
        check_physical(scenario)
    return scenario


# --------------------------------------------------------------------------- the box

def check_physical(scenario: Scenario) -> None:
    """Everything a real table must satisfy: the box, the coins, the gems."""
    n = scenario.player_count
    if len(scenario.tables) > n:
        raise ScenarioError(f"{len(scenario.tables)} players are listed but player_count is "
                            f"{n}", None, "player_count")
    _check_box(scenario)
    for table in scenario.tables:
        _check_army_layout(table)
    _check_coins(scenario)
    _check_gems(scenario)


def _check_box(scenario: Scenario) -> None:
    n = scenario.player_count
    box = C.box_counts(n, scenario.expansions)
    full_box = C.box_counts(5, (C.THINGVELLIR,))
    used: Counter[Card] = Counter()
    owner: dict[Card, str] = {}
    for table in scenario.tables:
        for card, where in _places(table):
            used[card] += 1
            if card not in box:
                if card.expansion == C.THINGVELLIR:
                    problem = (f"{card.token} is a Thingvellir card but expansions does not "
                               "include thingvellir")
                elif card.expansion != C.BASE:
                    problem = (f"{card.token} is a card of the {card.expansion} expansion but "
                               "expansions does not include it")
                elif card in full_box:
                    problem = (f"{card.token} is a 5-player card (FR \"Partie à 5 "
                               f"Elvalands\"): the box for {n} players has none")
                else:
                    problem = f"{card.token} is not in the box"
                raise ScenarioError(problem, table.name, where)
            if scenario.options.first_game and card.advanced:
                raise ScenarioError(f"{card.token} is left out in the first-game variant "
                                    "(option first_game, R25)", table.name, where)
            if used[card] > box[card]:
                if box[card] == 1:
                    what = "hero" if card.is_hero else "card"
                    problem = (f"{what} {card.token} exists once, and player "
                               f"{owner[card]!r} already owns it")
                else:
                    problem = (f"{used[card]} copies of {card.token} on the table, but the box "
                               f"holds {box[card]} for {n} players")
                raise ScenarioError(problem, table.name, where)
            owner.setdefault(card, table.name)


def _check_army_layout(table: PlayerTable) -> None:
    """Olwyn's doubles come with Olwyn, in 2 different columns; Thrud is never covered."""
    doubles = [s for s, column in table.army.items() for c in column if c is C.OLWYN_DOUBLE]
    if doubles and C.OLWYN not in list(table.cards()):
        raise ScenarioError("Olwyn's doubles come only with Olwyn (FR Thingvellir \"OLWYN\"), "
                            "who is not in this table", table.name,
                            f"army.{doubles[0].column_name}")
    if len(doubles) != len(set(doubles)):
        raise ScenarioError("Olwyn's 2 doubles lie in 2 different columns (FR Thingvellir "
                            "\"OLWYN\")", table.name, f"army.{doubles[-1].column_name}")
    for suit, column in table.army.items():
        if C.THRUD in column and column[-1] is not C.THRUD:
            raise ScenarioError("Thrud is never covered: she must be the top card of her "
                                "column (FR \"THRUD\", R13)", table.name,
                                f"army.{suit.column_name}")


def _check_coins(scenario: Scenario) -> None:
    """Each coin set must come from the player's own bronze coins (0, 2, 3, 4, 5), the
    shared treasury (FR "Trésor Royal", counts per player count) and the single green 3 of
    the Hunting Master; every player holds exactly one exchange coin (bronze 0 or green 3),
    except after Járnglófi, which discards it (4 coins)."""
    treasury = C.treasury(scenario.player_count)
    gold_used: Counter[int] = Counter()
    green_holder: str | None = None
    for table in scenario.tables:
        name = table.name
        coins = Counter(table.coins)
        jarnglofi = C.JARNGLOFI in list(table.cards())
        expected = 4 if jarnglofi else 5
        if len(table.coins) != expected:
            why = " (Járnglófi discarded the exchange coin)" if jarnglofi else ""
            raise ScenarioError(f"a player holds {expected} coins{why}, not "
                                f"{len(table.coins)}", name, "coins")
        for value in coins:
            if value not in BRONZE and value not in C.TREASURY_4_5:
                raise ScenarioError(f"there is no coin of value {value} (bronze 0, 2, 3, 4, 5; "
                                    f"gold 5 to {C.MAX_COIN_VALUE})", name, "coins")
        # The exchange coin: bronze 0, or the green 3 that replaced it.
        green = 0
        if jarnglofi:
            if coins[0]:
                raise ScenarioError("Járnglófi discarded the exchange coin, so the 0 cannot "
                                    "be held", name, "coins")
        elif not coins[0]:
            if not coins[3]:
                raise ScenarioError("no exchange coin: a player holds the bronze 0, or the "
                                    "Hunting Master's green 3 that replaced it (unless "
                                    "Járnglófi)", name, "coins")
            green = 1
        for value in (0, 2, 3, 4):
            limit = 1 + (green if value == 3 else 0)
            if coins[value] > limit:
                extra = " (the second 3 would be the green 3, which replaces the 0)" \
                    if value == 3 and coins[0] else ""
                raise ScenarioError(f"{coins[value]} coins of value {value}, but a player has "
                                    f"only one bronze {value}{extra}", name, "coins")
        if green:
            if green_holder is not None:
                raise ScenarioError(f"only one green 3 exists and player {green_holder!r} "
                                    "already holds it (both lack the bronze 0)", name, "coins")
            green_holder = name
        # Gold: every value above 5, and any 5 beyond the player's bronze 5.
        for value, count in coins.items():
            gold = count - 1 if value == 5 else count if value > 5 else 0
            if gold <= 0:
                continue
            gold_used[value] += gold
            if gold_used[value] > treasury.get(value, 0):
                held = f"{gold_used[value]} gold {value}s are held at the table"
                raise ScenarioError(f"{held}, but the treasury has {treasury.get(value, 0)} "
                                    f"with {scenario.player_count} players", name, "coins")


def _check_gems(scenario: Scenario) -> None:
    """R1: the top N gems; each gem once; the special gem 6 once (FR "Joaillier-ère")."""
    allowed = set(C.gems_for(scenario.player_count)) | {C.GEM_6}
    holder: dict[int, str] = {}
    for table in scenario.tables:
        if table.gem not in allowed:
            raise ScenarioError(
                f"gem {table.gem} is not used with {scenario.player_count} players (R1: gems "
                f"{', '.join(map(str, C.gems_for(scenario.player_count)))}, or the special 6)",
                table.name, "gem")
        if table.gem in holder:
            raise ScenarioError(f"gem {table.gem} is already held by player "
                                f"{holder[table.gem]!r}; each gem exists once", table.name,
                                "gem")
        holder[table.gem] = table.name


# --------------------------------------------------------------------------- files

def loads_scenario(text: str, fmt: str = "yaml", *, hypothetical: bool = False) -> Scenario:
    """Parse scenario text in ``fmt`` ``"yaml"`` or ``"json"``."""
    if fmt == "json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ScenarioError(f"not valid JSON: {exc}") from None
    elif fmt == "yaml":
        import yaml  # lazily: the core stays stdlib-only

        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            detail = " ".join(str(exc).split())
            raise ScenarioError(f"not valid YAML: {detail}") from None
    else:
        raise ValueError(f"unknown scenario format {fmt!r}: expected 'yaml' or 'json'")
    return parse_scenario(data, hypothetical=hypothetical)


def load_scenario(path: str | Path, *, hypothetical: bool = False) -> Scenario:
    """Read a ``.yaml``/``.yml`` or ``.json`` scenario file (others: JSON if it parses,
    else YAML). Unreadable files raise ScenarioError too."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError(f"no such scenario file: {path}") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:  # ValueError: a NUL in the path
        raise ScenarioError(f"cannot read scenario file {path}: {exc}") from None
    suffix = path.suffix.lower()
    if suffix == ".json":
        fmt = "json"
    elif suffix in (".yaml", ".yml"):
        fmt = "yaml"
    else:
        try:
            json.loads(text)
            fmt = "json"
        except json.JSONDecodeError:
            fmt = "yaml"
    return loads_scenario(text, fmt, hypothetical=hypothetical)


# --------------------------------------------------------------------------- writing back

def table_to_dict(table: PlayerTable) -> dict[str, Any]:
    """One player as a scenario mapping (all five columns, bottom to top)."""
    return {
        "name": table.name,
        "army": {s.column_name: [format_token(c) for c in table.army.get(s, ())] for s in Suit},
        "command_zone": [format_token(c) for c in table.command_zone],
        "coins": list(table.coins),
        "gem": table.gem,
        **({"marks": {c.token: v for c, v in table.marks.items()}} if table.marks else {}),
    }


def scenario_to_dict(tables: Sequence[PlayerTable], *, player_count: int | None = None,
                     expansions: Sequence[str] | None = None,
                     options: RuleOptions | None = None, title: str | None = None,
                     description: str | None = None) -> dict[str, Any]:
    """A scenario mapping that :func:`parse_scenario` reads back to the same tables."""
    data: dict[str, Any] = {}
    if title is not None:
        data["title"] = title
    if description is not None:
        data["description"] = description
    if player_count is not None:
        data["player_count"] = player_count
    if expansions is not None:
        data["expansions"] = list(expansions)
    changed = {k: v for k, v in (options or RuleOptions()).to_dict().items()
               if v != getattr(RuleOptions(), k)}
    if changed:
        data["options"] = changed
    data["players"] = [table_to_dict(t) for t in tables]
    return data


def dumps_scenario(scenario: Scenario | Sequence[PlayerTable], fmt: str = "yaml") -> str:
    """Scenario text (YAML or JSON) for a scenario or a list of tables."""
    data = scenario.to_dict() if isinstance(scenario, Scenario) else scenario_to_dict(scenario)
    if fmt == "json":
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if fmt == "yaml":
        import yaml

        return str(yaml.safe_dump(data, sort_keys=False, allow_unicode=True,
                                  default_flow_style=None, width=100))
    raise ValueError(f"unknown scenario format {fmt!r}: expected 'yaml' or 'json'")


def save_scenario(scenario: Scenario | Sequence[PlayerTable], path: str | Path) -> None:
    """Write a scenario file; the format follows the suffix (``.json``, else YAML)."""
    path = Path(path)
    fmt = "json" if path.suffix.lower() == ".json" else "yaml"
    path.write_text(dumps_scenario(scenario, fmt), encoding="utf-8")
