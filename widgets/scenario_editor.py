"""Scenario editor: change a table card by card and watch the score sheet follow.

Load a scenario file (YAML/JSON, the contract of :mod:`nidavellir.scenario`) or take the
table of a running game; add, remove and move cards with dropdowns; edit coins and the
gem; the score sheet and the breakdown chart update after every change; save back to
YAML (or JSON by the file's suffix).

Edits are checked one card at a time with :func:`nidavellir.scenario.placement_problem`
(a hero in the wrong column is refused with the reason); tables are treated as
*hypothetical* (no box counts), like ``nidavellir score`` on a lesson's what-if file.

>>> editor = ScenarioEditor.from_file("examples/rulebook_example.yaml")
>>> editor.sheet.totals[:1]
[204]
>>> editor.player.value = 0; editor.column.value = "W"; editor.card.value = "W10"
>>> editor.add.click()
>>> editor.sheet.totals[:1]
[214]
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import ipywidgets as W

from nidavellir import Game, PlayerTable, ScoreSheet, score_table
from nidavellir import cards as C
from nidavellir.analysis.figures import score_breakdown
from nidavellir.analysis.frames import score_frame
from nidavellir.cards import Card, Suit
from nidavellir.errors import NidavellirError
from nidavellir.options import RuleOptions
from nidavellir.scenario import (
    Scenario,
    load_scenario,
    parse_scenario,
    placement_problem,
    save_scenario,
    scenario_to_dict,
)
from nidavellir.tokens import format_token

from . import (
    tooltips,  # noqa: F401  (no "null" over a label)
    widget_states,  # noqa: F401  (a page gets every state and message: widget_states.py)
)
from .charts import show_figure
from .style import css_widget

#: Where a card can lie: the five columns by class letter, and the command zone.
COMMAND_ZONE = "command zone"
PLACES: tuple[str, ...] = (*(s.letter for s in C.SUITS), COMMAND_ZONE)
PLACE_LABELS: dict[str, str] = {**{s.letter: s.column_name.capitalize() for s in C.SUITS},
                                COMMAND_ZONE: "Command zone"}


def _suit(place: str) -> Suit | None:
    return None if place == COMMAND_ZONE else Suit.parse(place)


def cards_for(place: str, expansions: Sequence[str] = (C.THINGVELLIR,)) -> list[str]:
    """Tokens of the catalogue cards that may lie in ``place`` (a class letter or the
    command zone), in catalogue order."""
    suit = _suit(place)
    box = C.box_counts(5, tuple(expansions))
    return [format_token(c) for c in dict.fromkeys(C.ALL_CARDS)
            if c in box and placement_problem(c, suit) is None]


class _Player:
    """One player's editable table."""

    def __init__(self, table: PlayerTable) -> None:
        self.name = table.name
        self.army: dict[Suit, list[Card]] = {s: list(table.army.get(s, ())) for s in C.SUITS}
        self.command_zone: list[Card] = list(table.command_zone)
        self.coins: list[int] = list(table.coins)
        self.gem = table.gem
        self.marks = dict(table.marks)

    def cards(self, place: str) -> list[Card]:
        suit = _suit(place)
        return self.command_zone if suit is None else self.army[suit]

    def table(self) -> PlayerTable:
        owned = set(self.command_zone).union(*self.army.values())
        return PlayerTable(name=self.name, army={s: list(c) for s, c in self.army.items()},
                           command_zone=list(self.command_zone), coins=list(self.coins),
                           gem=self.gem,
                           # What a card remembers goes with it (a card taken out: nothing).
                           marks={c: v for c, v in self.marks.items() if c in owned})


class ScenarioEditor(W.VBox):
    """Edit a scenario's table with dropdowns; the score sheet and chart follow."""

    def __init__(self, scenario: Scenario, path: str | Path | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("nid-scenario-editor")
        self.options: RuleOptions = scenario.options
        self.expansions: tuple[str, ...] = tuple(scenario.expansions)
        self.player_count = scenario.player_count
        self.title = scenario.title
        self.description = scenario.description
        self.players = [_Player(t) for t in scenario.tables]
        self.sheet: ScoreSheet = score_table([p.table() for p in self.players], self.options)

        self.player = W.Dropdown(description="Player")
        self.column = W.Dropdown(description="Column",
                                 options=[(PLACE_LABELS[p], p) for p in PLACES], value="W")
        self.card = W.Dropdown(description="Card")
        self.add = W.Button(description="Add on top", icon="plus")
        self.in_column = W.Dropdown(description="Card here")
        self.remove = W.Button(description="Remove", icon="trash")
        self.target = W.Dropdown(description="Move to",
                                 options=[(PLACE_LABELS[p], p) for p in PLACES], value="W")
        self.move = W.Button(description="Move", icon="arrow-right")
        self.coins = W.Text(description="Coins", placeholder="0 2 3 4 5")
        self.gem = W.Dropdown(description="Gem", options=list(range(0, 7)))
        self.path = W.Text(description="File", value=str(path or "scenario.yaml"))
        self.save = W.Button(description="Save", icon="save")
        self.load = W.Button(description="Load", icon="folder-open")
        self.message = W.HTML()
        self.sheet_view = W.HTML()
        self.chart = W.Output()

        self._syncing = False
        self.player.observe(lambda _c: self._player_changed(), "value")
        self.column.observe(lambda _c: self._column_changed(), "value")
        self.coins.observe(lambda _c: self._coins_edited(), "value")
        self.gem.observe(lambda _c: self._gem_edited(), "value")
        self.add.on_click(lambda _b: self.add_card())
        self.remove.on_click(lambda _b: self.remove_card())
        self.move.on_click(lambda _b: self.move_card())
        self.save.on_click(lambda _b: self.save_file())
        self.load.on_click(lambda _b: self.load_file())

        self.children = [
            css_widget(),
            W.HBox([self.player, self.column]),
            W.HBox([self.card, self.add]),
            W.HBox([self.in_column, self.remove, self.target, self.move]),
            W.HBox([self.coins, self.gem]),
            W.HBox([self.path, self.load, self.save]),
            self.message, self.sheet_view, self.chart,
        ]
        self._reset_players()

    # ------------------------------------------------------------------ creation

    @classmethod
    def from_file(cls, path: str | Path, **kwargs: Any) -> ScenarioEditor:
        return cls(load_scenario(path, hypothetical=True), path=path, **kwargs)

    @classmethod
    def from_game(cls, game: Game, path: str | Path | None = None,
                  **kwargs: Any) -> ScenarioEditor:
        """The current table of ``game`` (the game itself is never changed)."""
        scenario = Scenario(tables=tuple(game.tables()), player_count=game.config.players,
                            expansions=tuple(game.config.expansions),
                            options=game.config.options, hypothetical=True)
        return cls(scenario, path=path, **kwargs)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], **kwargs: Any) -> ScenarioEditor:
        return cls(parse_scenario(data, hypothetical=True), **kwargs)

    # ------------------------------------------------------------------ the model

    def tables(self) -> list[PlayerTable]:
        return [p.table() for p in self.players]

    def to_dict(self) -> dict[str, Any]:
        """The scenario mapping of the table as edited (the file's content)."""
        tables = self.tables()
        expansions = self.expansions
        if C.THINGVELLIR not in expansions and any(
                c.expansion == C.THINGVELLIR for t in tables for c in t.cards()):
            expansions = (*expansions, C.THINGVELLIR)  # a camp card was added
        return scenario_to_dict(tables, player_count=self.player_count,
                                expansions=expansions, options=self.options,
                                title=self.title, description=self.description)

    def scenario(self) -> Scenario:
        return parse_scenario(self.to_dict(), hypothetical=True)

    @property
    def current(self) -> _Player:
        return self.players[self.player.value or 0]

    # ------------------------------------------------------------------ actions

    def add_card(self, token: str | None = None, place: str | None = None) -> bool:
        """Put a card on top of a column (or into the command zone) of the chosen player."""
        token = token if token is not None else self.card.value
        place = place if place is not None else self.column.value
        if not token:
            return self._fail("choose a card to add")
        card = _card(token)
        problem = placement_problem(card, _suit(place))
        if problem:
            return self._fail(problem)
        self.current.cards(place).append(card)
        return self._changed(f"{self.current.name}: {card.name} added to "
                             f"{PLACE_LABELS[place].lower()}")

    def remove_card(self, index: int | None = None, place: str | None = None) -> bool:
        """Remove a card (default: the one chosen under "Card here")."""
        place = place if place is not None else self.column.value
        index = index if index is not None else self.in_column.value
        cards = self.current.cards(place)
        if index is None or not 0 <= index < len(cards):
            return self._fail("choose a card to remove")
        card = cards.pop(index)
        return self._changed(f"{self.current.name}: {card.name} removed")

    def move_card(self, index: int | None = None, place: str | None = None,
                  target: str | None = None) -> bool:
        """Move a card to the top of another column (or the command zone)."""
        place = place if place is not None else self.column.value
        target = target if target is not None else self.target.value
        index = index if index is not None else self.in_column.value
        cards = self.current.cards(place)
        if index is None or not 0 <= index < len(cards):
            return self._fail("choose a card to move")
        card = cards[index]
        problem = placement_problem(card, _suit(target))
        if problem:
            return self._fail(problem)
        cards.pop(index)
        self.current.cards(target).append(card)
        return self._changed(f"{self.current.name}: {card.name} moved to "
                             f"{PLACE_LABELS[target].lower()}")

    def save_file(self, path: str | Path | None = None) -> bool:
        path = Path(path if path is not None else self.path.value)
        try:
            save_scenario(self.scenario(), path)
        except (OSError, NidavellirError, ValueError) as exc:
            return self._fail(f"cannot save {path}: {exc}")
        self.path.value = str(path)
        self._note(f"saved {path}")
        return True

    def load_file(self, path: str | Path | None = None) -> bool:
        path = Path(path if path is not None else self.path.value)
        try:
            scenario = load_scenario(path, hypothetical=True)
        except (NidavellirError, ValueError) as exc:
            return self._fail(str(exc))
        self.options = scenario.options
        self.expansions = tuple(scenario.expansions)
        self.player_count = scenario.player_count
        self.title, self.description = scenario.title, scenario.description
        self.players = [_Player(t) for t in scenario.tables]
        self.path.value = str(path)
        self._reset_players()
        self._note(f"loaded {path}")
        return True

    # ------------------------------------------------------------------ views

    def _reset_players(self) -> None:
        self._syncing = True
        try:
            self.player.options = [(p.name, i) for i, p in enumerate(self.players)]
            self.player.value = 0
        finally:
            self._syncing = False
        self._player_changed()

    def _player_changed(self) -> None:
        if self._syncing:
            return
        p = self.current
        self._syncing = True
        try:
            self.coins.value = " ".join(str(c) for c in p.coins)
            self.gem.value = p.gem if p.gem in self.gem.options else 0
        finally:
            self._syncing = False
        self._column_changed()
        self._rescore()

    def _column_changed(self) -> None:
        place = self.column.value
        tokens = cards_for(place)
        if list(self.card.options) != tokens:
            keep = self.card.value if self.card.value in tokens else None
            self.card.options = tokens
            self.card.value = keep if keep is not None else (tokens[0] if tokens else None)
        self._refresh_in_column()

    def _refresh_in_column(self) -> None:
        cards = self.current.cards(self.column.value)
        self.in_column.options = [(f"{i + 1}. {format_token(c)}", i)
                                  for i, c in enumerate(cards)]
        self.in_column.value = len(cards) - 1 if cards else None

    def _coins_edited(self) -> None:
        if self._syncing:
            return
        try:
            coins = [int(x) for x in self.coins.value.replace(",", " ").split()]
        except ValueError:
            self._fail(f"coins are whole numbers separated by spaces, not {self.coins.value!r}")
            return
        if any(not 0 <= c <= C.MAX_COIN_VALUE for c in coins):
            self._fail(f"coin values run from 0 to {C.MAX_COIN_VALUE}")
            return
        self.current.coins = coins
        self._changed(f"{self.current.name}: coins {' '.join(map(str, coins))}")

    def _gem_edited(self) -> None:
        if self._syncing:
            return
        self.current.gem = int(self.gem.value)
        self._changed(f"{self.current.name}: gem {self.gem.value}")

    def _changed(self, note: str) -> bool:
        self._refresh_in_column()
        self._rescore()
        self._note(note)
        return True

    def _rescore(self) -> None:
        self.sheet = score_table(self.tables(), self.options)
        self.sheet_view.value = self.sheet._repr_html_()
        show_figure(self.chart, score_breakdown(score_frame(self.sheet)))

    def _note(self, text: str) -> None:
        self.message.value = f"<span class='nid-muted'>{html.escape(text)}</span>"

    def _fail(self, text: str) -> bool:
        self.message.value = f"<span class='nid-bad'>{html.escape(text)}</span>"
        return False


def _card(token: str) -> Card:
    from nidavellir.tokens import parse_token

    return parse_token(token)


__all__ = ["COMMAND_ZONE", "PLACES", "ScenarioEditor", "cards_for"]
