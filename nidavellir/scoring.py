"""Final scoring: a whole table in, a score sheet out (pure, stdlib only).

The one scorer of the project: the engine calls it at the end of age 2 and the
what-if tools call it on hypothetical tables (docs/engine.md).
Rules: FR "Déterminer la Valeur de Bravoure de chaque classe" and "Fin de l'Age 2 et
fin de la partie"; heroes and artifacts by their entries (FR "Capacités des cartes
Héros·ïne", FR Thingvellir "Les Artefacts"); R9 (warrior bonus needs a warrior rank), R24 (ties share the placing).
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final

from . import cards as C
from . import coins as K
from .cards import Card, Suit
from .events import by, is_you
from .i18n import _, count, join
from .names import score_line
from .options import RuleOptions
from .rules.cardrules import Remembered, ScoreLine, ScoreView
from .rules.catalogue import RULES
from .rules.classes import blacksmith_points, column_totals, hunter_points

if TYPE_CHECKING:
    from .state import GameState

#: The rows of the score sheet, in the order of the printed score pad, then the rest.
CATEGORIES: Final[tuple[str, ...]] = (
    "warriors", "hunters", "miners", "blacksmiths", "explorers",
    "heroes", "artifacts", "coins", "gem",
)
SUIT_CATEGORY: dict[Suit, str] = {
    Suit.WARRIOR: "warriors", Suit.HUNTER: "hunters", Suit.MINER: "miners",
    Suit.BLACKSMITH: "blacksmiths", Suit.EXPLORER: "explorers",
}
_CATEGORY_INDEX: Final[dict[str, int]] = {c: i for i, c in enumerate(CATEGORIES)}
#: Rows shown only where a player scores in them (:attr:`ScoreSheet.rows`).
OPTIONAL_ROWS = frozenset({"artifacts", "gem"})
CATEGORY_LABELS: dict[str, str] = {
    "warriors": "Warriors", "hunters": "Hunters", "miners": "Miners",
    "blacksmiths": "Blacksmiths", "explorers": "Explorers", "heroes": "Neutral heroes",
    "artifacts": "Artifacts", "coins": "Coins", "gem": "Gem 6",
}


@dataclass
class PlayerTable:
    """What one player owns at the end: the input of the scorer.

    ``army`` lists each column bottom to top; flexible cards (Ylud, mercenaries,
    Olwyn's doubles, Vegvisir) lie in the column where they score. Thrud scores 13
    wherever she is listed (at the end of age 2 she has left the army).
    """

    name: str
    army: Mapping[Suit, Sequence[Card]]
    command_zone: Sequence[Card] = ()
    coins: Sequence[int] = ()
    gem: int = 0
    marks: Mapping[Card, Remembered] = field(default_factory=dict)
    """What the player's cards remember (a choice scored at the end), by card."""

    def but(self, **changes: Any) -> PlayerTable:
        """This table with some fields changed (``table.but(army=...)``): a variant keeps
        every other field, those a later card adds included."""
        return replace(self, **changes)

    def cards(self) -> list[Card]:
        """Every card: the columns bottom to top, then the command zone."""
        out = [c for column in self.army.values() for c in column]
        out += self.command_zone
        return out

    def column_ranks(self, suit: Suit) -> int:
        return column_totals(self.army.get(suit, ()), suit)[0]


@dataclass(frozen=True)
class PlayerScore:
    name: str
    breakdown: dict[str, int]
    """Points per category of CATEGORIES."""
    details: tuple[tuple[str, str, int], ...]
    """(category, label, points) lines explaining the breakdown."""
    total: int
    rank: int
    """1 for the winner(s); tied players share a placing (R24)."""

    def __reduce__(self) -> tuple[type[PlayerScore], tuple[Any, ...]]:
        # Copied and pickled through the constructor: the compiled build's frozen classes
        # cannot be restored field by field (docs/development.md, "The compiled build").
        return (PlayerScore, (self.name, self.breakdown, self.details, self.total, self.rank))

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "total": self.total, "rank": self.rank,
            "breakdown": dict(self.breakdown),
            "details": [{"category": c, "label": label, "points": p}
                        for c, label, p in self.details],
        }


@dataclass(frozen=True)
class ScoreSheet:
    players: tuple[PlayerScore, ...]
    options: RuleOptions = field(default_factory=RuleOptions)

    @property
    def totals(self) -> list[int]:
        return [p.total for p in self.players]

    @property
    def winners(self) -> list[str]:
        return [p.name for p in self.players if p.rank == 1]

    def __getitem__(self, index: int) -> PlayerScore:
        return self.players[index]

    def __iter__(self) -> Iterator[PlayerScore]:
        return iter(self.players)

    def __reduce__(self) -> tuple[type[ScoreSheet], tuple[Any, ...]]:
        # Copied and pickled through the constructor (as PlayerScore).
        return (ScoreSheet, (self.players, self.options))

    @property
    def rows(self) -> tuple[str, ...]:
        """The categories the sheet shows: the printed score pad's rows, and artifacts and
        the gem 6 only where someone scores there (a base game has no artifacts row)."""
        return tuple(cat for cat in CATEGORIES if cat not in OPTIONAL_ROWS
                     or any(p.breakdown.get(cat, 0) for p in self.players))

    def __len__(self) -> int:
        return len(self.players)

    def to_dict(self) -> dict[str, Any]:
        return {"players": [p.to_dict() for p in self.players], "winners": self.winners}

    def to_text(self) -> str:
        names = [p.name for p in self.players]
        width = max(14, *(len(n) for n in names)) + 1
        # The labels' column fits the longest line of the language ("Helden ohne Klasse").
        label_w = max(16, *(len(score_line(CATEGORY_LABELS[cat])) + 1 for cat in self.rows),
                      len(score_line("Total")) + 1, len(score_line("Placing")) + 1)
        lines = ["".ljust(label_w) + "".join(n.rjust(width) for n in names)]
        for cat in self.rows:
            lines.append(score_line(CATEGORY_LABELS[cat]).ljust(label_w)
                         + "".join(str(p.breakdown[cat]).rjust(width) for p in self.players))
        lines.append("-" * (label_w + width * len(names)))
        lines.append(score_line("Total").ljust(label_w) + "".join(str(p.total).rjust(width)
                                                      for p in self.players))
        lines.append(score_line("Placing").ljust(label_w) + "".join(str(p.rank).rjust(width)
                                                        for p in self.players))
        for p in self.players:
            lines.append("")
            # Translators: a seat's heading on the score sheet, "Bo (87 points):".
            lines.append(count(p.total, "{name} ({n} point):", "{name} ({n} points):",
                               name=p.name))
            for cat, label, points in p.details:
                lines.append(f"  {score_line(CATEGORY_LABELS[cat]):<{label_w - 1}} {label:<40} "
                             f"{points:>4}")
        winners = self.winners
        best = max(self.totals)
        lines.append("")
        if len(winners) > 1:
            others = [w for w in winners if not is_you(w)]
            if len(others) < len(winners):
                # Translators: a tie for the win that includes the learner's own seat
                # (named You): "You and Bo share the win with 80 points."
                lines.append(count(best, "You and {others} share the win with {n} point.",
                                   "You and {others} share the win with {n} points.",
                                   others=join(others)))
            else:
                lines.append(count(best, "{names} share the win with {n} point.",
                                   "{names} share the win with {n} points.",
                                   names=join(winners)))
        else:
            lines.append(by(winners[0], count(best, "You win with {n} point.",
                                              "You win with {n} points."),
                            count(best, "{name} wins with {n} point.",
                                  "{name} wins with {n} points.", name="{name}")))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()

    def details_html(self) -> str:
        """Every player's score pad line by line (what each category is made of)."""
        esc = html.escape
        parts = []
        for p in self.players:
            rows = "".join(f"<tr><td>{esc(score_line(CATEGORY_LABELS[cat]))}</td><td>{esc(label)}</td>"
                           f"<td style='text-align:right'>{points}</td></tr>"
                           for cat, label, points in p.details)
            # Translators: the caption of a seat's score pad, "Bo (87 points)" (HTML: keep <b>).
            caption = count(p.total, "<b>{name}</b> ({n} point)", "<b>{name}</b> ({n} points)",
                            name=esc(p.name))
            parts.append(f"<table class='nidavellir-score-details'><caption style='text-align:"
                         f"left'>{caption}</caption>{rows}</table>")
        return "".join(parts)

    def _repr_html_(self) -> str:
        esc = html.escape
        head = "".join(f"<th>{esc(p.name)}</th>" for p in self.players)
        rows = []
        for cat in self.rows:
            cells = "".join(f"<td style='text-align:right'>{p.breakdown[cat]}</td>"
                            for p in self.players)
            rows.append(f"<tr><th style='text-align:left'>{esc(score_line(CATEGORY_LABELS[cat]))}"
                        f"</th>{cells}</tr>")
        total = "".join(f"<td style='text-align:right'><b>{p.total}</b></td>"
                        for p in self.players)
        rank = "".join(f"<td style='text-align:right'>{p.rank}</td>" for p in self.players)
        return ("<table class='nidavellir-score-sheet'><thead><tr><th></th>" + head
                + "</tr></thead><tbody>" + "".join(rows)
                + f"<tr><th style='text-align:left'>{esc(score_line('Total'))}</th>{total}</tr>"
                + f"<tr><th style='text-align:left'>{esc(score_line('Placing'))}</th>{rank}</tr>"
                + "</tbody></table>")


def _columns(table: PlayerTable) -> tuple[dict[Suit, int], dict[Suit, int]]:
    """(ranks, bravery points) of each column of a table."""
    ranks: dict[Suit, int] = {}
    bravery: dict[Suit, int] = {}
    army = table.army
    for s in C.SUITS:
        ranks[s], bravery[s] = column_totals(army.get(s, ()), s)
    return ranks, bravery


def score_player(table: PlayerTable, warrior_bonus: bool, details: bool = True,
                 columns: tuple[dict[Suit, int], dict[Suit, int]] | None = None
                 ) -> tuple[dict[str, int], list[tuple[str, str, int]]]:
    """Breakdown and detail lines of one player; ``warrior_bonus`` says whether they
    hold the warrior majority (decided across the table by :func:`score_table`).

    The five classes are scored here (FR "Déterminer la Valeur de Bravoure de chaque
    classe"); what a hero or an artifact adds is its entry's score (:mod:`.rules.heroes`,
    :mod:`.rules.artifacts`). ``details=False`` skips the detail lines (a search scores
    thousands of finished playouts and reads only the points)."""
    ranks, bravery = columns if columns is not None else _columns(table)
    coins = list(table.coins)
    # The highest coin and the sum in one loop (not max() and sum(): the compiled build
    # calls builtins through Python's generic call; a search scores every playout).
    top_coin = 0
    coin_points = 0
    for v in coins:
        coin_points += v
        if v > top_coin:
            top_coin = v
    W, H, M, B, E = C.SUITS
    bonus = top_coin if warrior_bonus else 0
    breakdown = {
        "warriors": bravery[W] + bonus, "hunters": hunter_points(ranks[H]),
        "miners": ranks[M] * bravery[M], "blacksmiths": blacksmith_points(ranks[B]),
        "explorers": bravery[E], "heroes": 0, "artifacts": 0, "coins": coin_points,
        "gem": C.GEM_6_POINTS if table.gem == C.GEM_6 else 0,
    }

    # Heroes and artifacts: each card's entry says what it adds (Idunn to the explorers,
    # neutral heroes and artifacts their own lines), by category, in the order owned.
    owned = table.cards()
    view: ScoreView | None = None
    lines: list[tuple[int, int, int, ScoreLine]] = []
    for i, c in enumerate(owned):
        entry = RULES.get(c)
        if entry is None:
            continue
        if view is None:
            view = ScoreView(owned, coins, ranks, bravery, table.marks, details)
        for line in entry.score(view):
            breakdown[line[0]] += line[2]
            if details:
                lines.append((_CATEGORY_INDEX[line[0]], entry.score_order, i, line))
    if not details:
        return breakdown, []

    out: list[tuple[str, str, int]] = [
        ("warriors", count(ranks[W], "{n} rank: its bravery points",
                           "{n} ranks: their bravery points"), bravery[W])]
    if warrior_bonus:
        out.append(("warriors", _("majority bonus: the highest coin, {coin}").format(
            coin=top_coin), top_coin))
    out += [("hunters", count(ranks[H], "{n} rank, squared", "{n} ranks, squared"),
             breakdown["hunters"]),
            ("miners", _("ranks × bravery points: {ranks} × {points}").format(
                ranks=ranks[M], points=bravery[M]), breakdown["miners"]),
            ("blacksmiths", count(ranks[B], "{n} rank", "{n} ranks"), breakdown["blacksmiths"]),
            ("explorers", count(ranks[E], "{n} rank: its bravery points",
                                "{n} ranks: their bravery points"), bravery[E])]
    out += [line for *_, line in sorted(lines, key=lambda x: x[:3])]
    # Translators: the score sheet's coins line, "coins 0 + 2 + 5" (the values of the coins).
    out.append(("coins", _("coins {values}").format(
        values=" + ".join(str(v) for v in sorted(coins))), coin_points))
    if table.gem == C.GEM_6:
        # Translators: the score sheet's gem line (the gem of value 6).
        out.append(("gem", _("gem 6"), C.GEM_6_POINTS))
    return breakdown, out


def breakdowns(tables: Sequence[PlayerTable], options: RuleOptions | None = None
               ) -> list[dict[str, int]]:
    """Each player's points by category, as :func:`score_table` counts them, without the
    score sheet (a search scores thousands of finished playouts and reads only these)."""
    return [b for b, _ in _score_players(tables, options or RuleOptions(), False)]


def warrior_majority(warrior_ranks: Sequence[int], options: RuleOptions | None = None
                     ) -> list[bool]:
    """Who gets the final warrior majority bonus, from each player's warrior ranks: every
    player with the most ranks, tied players included (FR "Fin de l'Age 2": « en cas
    d'égalité, chaque joueur ex aequo » adds his highest coin); R9: at least one rank
    unless the option says otherwise. The scorer and the coach's words both ask this."""
    best = max(warrior_ranks, default=0)
    eligible = best >= 1 or (options is not None and options.warrior_bonus_without_warriors)
    return [eligible and r == best for r in warrior_ranks]


def _score_players(tables: Sequence[PlayerTable], options: RuleOptions, details: bool
                   ) -> list[tuple[dict[str, int], list[tuple[str, str, int]]]]:
    columns = [_columns(t) for t in tables]
    bonus = warrior_majority([ranks[Suit.WARRIOR] for ranks, _ in columns], options)
    return [score_player(t, b, details, c) for t, b, c in zip(tables, bonus, columns, strict=True)]


def tables_of(state: GameState, copy: bool = True) -> list[PlayerTable]:
    """Each player's table as the scorer sees it, from a game state: cards held for a
    pending decision count in the command zone. ``copy=False`` shares the state's columns
    instead of copying them: for a table scored at once and dropped (a search scores
    thousands of finished playouts), never for one kept while the game goes on."""
    tables = []
    for p, name in zip(state.players, state.config.names, strict=True):
        army = ({suit: list(p.army[suit]) for suit in C.SUITS} if copy
                else dict(zip(C.SUITS, p.army, strict=True)))
        cz = list(p.command_zone) + list(p.held)
        tables.append(PlayerTable(name=name, army=army, command_zone=cz,
                                  coins=[K.value(c) for c in p.coins()], gem=p.gem,
                                  marks=dict(p.marks)))
    return tables


def own_table(observation: Mapping[str, Any]) -> PlayerTable:
    """The observing seat's own table as the scorer sees it, from its observation
    (``game.observation(seat)``): a bot's one way to score its position from what it may
    see (every field of :class:`PlayerTable`, the marks of its cards included)."""
    seat = observation["player"]
    mine = observation["players"][seat]
    coins = [K.label_value(lab) for lab in (*mine["hand"], *mine["purse"])]
    coins += [K.label_value(b) for b in mine["bids"] if b is not None]
    return PlayerTable(name=observation["names"][seat],
                       army={suit: [C.card(t) for t in mine["army"][suit.letter]]
                             for suit in C.SUITS},
                       command_zone=[C.card(t) for t in mine["command_zone"]],
                       coins=coins, gem=mine["gem"],
                       marks={C.card(t): v for t, v in mine["marks"].items()})


def placings(totals: Sequence[int]) -> list[int]:
    """1 + the number of strictly better totals: tied players share a placing (R24)."""
    return [1 + sum(1 for other in totals if other > t) for t in totals]


def score_table(tables: Sequence[PlayerTable], options: RuleOptions | None = None,
                details: bool = True) -> ScoreSheet:
    """Score a whole table (every player) and place the players (``details=False``: the
    points only, no detail lines)."""
    options = options or RuleOptions()
    scored = _score_players(tables, options, details)
    totals = [sum(b.values()) for b, _ in scored]
    ranks = placings(totals)
    players = tuple(
        PlayerScore(name=t.name, breakdown=b, details=tuple(d), total=total, rank=rank)
        for t, (b, d), total, rank in zip(tables, scored, totals, ranks, strict=True)
    )
    return ScoreSheet(players=players, options=options)
