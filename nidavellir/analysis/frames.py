"""Tidy pandas DataFrames from a game's history (docs/analysis.md).

A game is a pure function of (config, seed, deal, actions): :class:`Timeline` replays the
record decision by decision and snapshots the table after each one. The frame builders
turn those snapshots into tidy tables for charts and lessons.

Steps
    ``step`` is the index in ``game.history`` of the decision *after which* a row's state
    holds (or an event happened). ``step == -1`` is the table before the first decision
    (after setup and the first round's dealing and before any bid).

>>> from nidavellir import Game
>>> game = Game.new(players=3, seed=7)
>>> game.apply("bid 5 4 3")
>>> players_frame(game)[["step", "name", "coin_sum"]].tail(3).to_dict("records")[0]
{'step': 0, 'name': 'Player 1', 'coin_sum': 14}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from .. import cards as C
from .. import coins as K
from ..cards import Kind
from ..events import Event
from ..game import Game
from ..scoring import CATEGORIES, ScoreSheet

#: The class letters in the order of the army columns (W H M B E).
CLASSES: tuple[str, ...] = tuple(s.letter for s in C.SUITS)
#: Coin places, in the order a round moves coins: hand, the three taverns, purse.
PLACES: tuple[str, ...] = ("hand", "T1", "T2", "T3", "purse")
#: Marks of the coin-economy chart: which events changed a player's coins.
COIN_EVENTS: tuple[str, ...] = ("royal offering", "transform", "trade", "swap", "discard")


@dataclass(frozen=True)
class Snapshot:
    """The table after one decision (plain data; frames are built from these)."""

    step: int
    age: int
    round: int
    tavern: int | None
    actor: int | None
    action: str | None
    over: bool
    next_player: int | None
    next_kind: str | None
    players: tuple[dict[str, Any], ...]
    treasury: tuple[tuple[int, int], ...]
    events: tuple[int, int]
    """[start, end) indices into the timeline's events for the events of this step."""


def _player_snapshot(game: Game, seat: int, sheet: ScoreSheet) -> dict[str, Any]:
    s = game.state
    p = s.players[seat]
    coins: list[tuple[str, int]] = [("hand", c) for c in p.hand]
    coins += [(f"T{i + 1}", c) for i, c in enumerate(p.bids) if c is not None]
    coins += [("purse", c) for c in p.purse]
    bravery = []
    for suit in C.SUITS:
        # Thrud counts a rank while in the army but never scores there (FR "THRUD").
        bravery.append(sum(c.column_value(suit)[1] for c in p.army[suit] if c is not C.THRUD))
    owned = [c for col in p.army for c in col] + list(p.command_zone) + list(p.held)
    score = sheet[seat]
    return {
        "coins": tuple(coins),
        "gem": p.gem,
        "ranks": tuple(p.ranks),
        "bravery": tuple(bravery),
        "lines": p.lines,
        "heroes": p.heroes,
        "hero_names": tuple(c.name for c in owned if c.kind is Kind.HERO),
        "command_zone": tuple(c.token for c in p.command_zone),
        "army": tuple(tuple(c.token for c in col) for col in p.army),
        "breakdown": dict(score.breakdown),
        "total": score.total,
        "placing": score.rank,
    }


@dataclass
class Timeline:
    """Snapshots of a game after every decision, kept in step with a live game.

    ``Timeline(game)`` replays ``game`` from its record; :meth:`sync` brings it up to
    date after more decisions (only the new ones are replayed) or an undo.
    """

    game: Game
    snapshots: list[Snapshot] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    _replay: Game | None = None

    def __post_init__(self) -> None:
        self._restart(self.game)
        self.sync(self.game)

    def _restart(self, game: Game) -> None:
        self._replay = Game(game.config, game.seed, game.deal)
        self.snapshots = []
        self.actions = []
        self._snapshot(-1, None, None)

    @property
    def events(self) -> list[Event]:
        assert self._replay is not None
        return self._replay.events

    @property
    def names(self) -> tuple[str, ...]:
        return self.game.names

    def sync(self, game: Game | None = None) -> Timeline:
        """Follow ``game`` (default: the game given at creation): replay only what changed."""
        game = game if game is not None else self.game
        same_game = (game.config == self.game.config and game.seed == self.game.seed
                     and game.deal == self.game.deal)
        self.game = game
        wanted = [str(a) for _, a in game.history]
        n = len(self.actions)
        if not same_game or wanted[:n] != self.actions:
            keep = 0
            if same_game:
                while keep < min(n, len(wanted)) and wanted[keep] == self.actions[keep]:
                    keep += 1
            if keep == 0:
                self._restart(game)
            else:
                assert self._replay is not None
                self._replay.undo_to(keep)
                self.actions = self.actions[:keep]
                self.snapshots = self.snapshots[:keep + 1]
        assert self._replay is not None
        for i in range(len(self.actions), len(wanted)):
            player, action = game.history[i]
            self._replay.apply(action)
            self.actions.append(wanted[i])
            self._snapshot(i, player, wanted[i])
        return self

    def _snapshot(self, step: int, actor: int | None, action: str | None) -> None:
        g = self._replay
        assert g is not None
        s = g.state
        sheet = g.scores()
        d = g.decision
        start = self.snapshots[-1].events[1] if self.snapshots else 0
        self.snapshots.append(Snapshot(
            step=step, age=s.age, round=s.round, tavern=s.tavern, actor=actor, action=action,
            over=s.over, next_player=d.player if d else None, next_kind=d.kind if d else None,
            players=tuple(_player_snapshot(g, i, sheet) for i in range(len(s.players))),
            treasury=tuple(sorted(s.treasury.as_dict().items())),
            events=(start if step >= 0 else 0, len(g.events)),
        ))

    # ------------------------------------------------------------------ frames

    def events_frame(self) -> pd.DataFrame:
        return _events_frame(self)

    def coins_frame(self) -> pd.DataFrame:
        return _coins_frame(self)

    def players_frame(self) -> pd.DataFrame:
        return _players_frame(self)

    def treasury_frame(self) -> pd.DataFrame:
        return _treasury_frame(self)


def timeline(game: Game | Timeline) -> Timeline:
    """A :class:`Timeline` of ``game`` (a timeline is returned as it is)."""
    return game if isinstance(game, Timeline) else Timeline(game)


# ---------------------------------------------------------------------- events

_EVENT_COLUMNS = ("step", "index", "age", "round", "tavern", "tavern_name", "player", "name",
                  "kind", "card", "column", "reason", "coin_event", "coin_before", "coin_after",
                  "coin_before_label", "coin_after_label", "place", "description")


def _event_row(e: Event, names: Sequence[str]) -> dict[str, Any]:
    kind = e.kind
    player = getattr(e, "player", None)
    card = getattr(e, "card", None) or getattr(e, "hero", None) or getattr(e, "distinction", None)
    column = getattr(e, "column", None)
    row: dict[str, Any] = {
        "age": e.age, "round": e.round, "tavern": e.tavern,
        "tavern_name": C.TAVERNS[e.tavern] if e.tavern is not None else None,
        "player": player, "name": names[player] if player is not None else None,
        "kind": kind, "card": card.token if card is not None else None,
        "column": column.letter if column is not None else None,
        "reason": getattr(e, "reason", None) or getattr(e, "source", None),
        "coin_event": None, "coin_before_label": None, "coin_after_label": None, "place": None,
        "description": e.describe(names),
    }
    if kind == "CoinTransformed":
        reason = str(getattr(e, "reason", ""))
        row.update(coin_event="royal offering" if reason.startswith("Royal Offering")
                   else "transform", coin_before_label=e.old, coin_after_label=e.new,  # type: ignore[attr-defined]
                   place=e.place)  # type: ignore[attr-defined]
    elif kind == "CoinTraded":
        row.update(coin_event="trade", coin_before_label=e.given_up,  # type: ignore[attr-defined]
                   coin_after_label=e.new,  # type: ignore[attr-defined]
                   reason="trade " + " + ".join(e.coins))  # type: ignore[attr-defined]
    elif kind == "CoinSwapped":
        row.update(coin_event="swap", coin_before_label=K.label(K.EXCHANGE_COIN),
                   coin_after_label=K.label(K.HUNTER_COIN), place="hand",
                   reason="Hunting Master")
    elif kind == "CoinDiscarded":
        row.update(coin_event="discard", coin_before_label=e.coin)  # type: ignore[attr-defined]
    return row


def _events_frame(tl: Timeline) -> pd.DataFrame:
    rows = []
    events = tl.events
    for snap in tl.snapshots:
        lo, hi = snap.events
        for i in range(lo, hi):
            row = _event_row(events[i], tl.names)
            row["step"] = snap.step
            row["index"] = i
            rows.append(row)
    df = pd.DataFrame(rows, columns=list(_EVENT_COLUMNS))
    for col in ("coin_before", "coin_after"):
        labels = df[col + "_label"]
        df[col] = pd.array([K.label_value(x) if isinstance(x, str) else None for x in labels],
                           dtype="Int64")
    for col in ("tavern", "player"):
        df[col] = pd.array(df[col].tolist(), dtype="Int64")
    return df


def events_frame(game: Game | Timeline) -> pd.DataFrame:
    """One row per event of the game, in order.

    Columns:

    - ``step``: index of the decision after which the event happened (-1: setup).
    - ``index``: position in ``game.events``.
    - ``age``, ``round``: when it happened; ``tavern`` (0-based, <NA> outside a tavern)
      and ``tavern_name``.
    - ``player`` (seat, <NA> for table events), ``name``.
    - ``kind``: the event class name (``CardTaken``, ``CoinTransformed``, ...).
    - ``card``: token of the card, hero or distinction involved (None otherwise);
      ``column``: class letter where a card was placed.
    - ``reason``: why (transform reason, discard reason, card source, traded coins).
    - ``coin_event``: one of :data:`COIN_EVENTS` for events that change a player's coins
      (``royal offering`` for a Royal Offering's transform), else None.
    - ``coin_before`` / ``coin_after`` (Int64 values) and ``coin_before_label`` /
      ``coin_after_label`` (``3*`` for the Hunting Master's coin): the coin given up or
      transformed and the coin received (equal when the treasury had nothing to give).
    - ``place``: where a transformed coin lay (hand, T1..T3, purse).
    - ``description``: the plain-language line of the log.
    """
    return _events_frame(timeline(game))


# ---------------------------------------------------------------------- coins

_COIN_COLUMNS = ("step", "age", "round", "player", "name", "slot", "coin", "value", "place",
                 "metal")


def _coins_frame(tl: Timeline) -> pd.DataFrame:
    rows = []
    metal = {K.GOLD: "gold", K.BRONZE: "bronze", K.SPECIAL: "special"}
    for snap in tl.snapshots:
        for seat, p in enumerate(snap.players):
            ordered = sorted(p["coins"], key=lambda pc: (pc[1], PLACES.index(pc[0])))
            for slot, (place, coin) in enumerate(ordered, start=1):
                rows.append((snap.step, snap.age, snap.round, seat, tl.names[seat], slot,
                             K.label(coin), K.value(coin), place, metal[K.kind(coin)]))
    return pd.DataFrame(rows, columns=list(_COIN_COLUMNS))


def coins_frame(game: Game | Timeline) -> pd.DataFrame:
    """Every coin of every player after every decision (one row per coin).

    Columns: ``step``, ``age``, ``round``, ``player`` (seat), ``name``; ``slot`` (1 for
    the player's lowest coin ... 5 for the highest: coins have no identity, so a slot
    follows the k-th lowest coin); ``coin`` (label, ``3*`` for the Hunting Master's coin),
    ``value`` (int), ``place`` (``hand``, ``T1``/``T2``/``T3`` = bid on that tavern,
    ``purse``) and ``metal`` (``bronze`` starting coin, ``gold`` treasury coin, ``special``).
    """
    return _coins_frame(timeline(game))


# ---------------------------------------------------------------------- players

def _players_columns() -> list[str]:
    cols = ["step", "age", "round", "tavern", "actor", "action", "player", "name", "coins",
            "coin_sum", "highest_coin", "gem"]
    cols += [f"ranks_{c}" for c in CLASSES] + [f"bravery_{c}" for c in CLASSES]
    cols += [f"majority_{c}" for c in CLASSES]
    cols += ["lines", "heroes", "hero_names", "command_zone"]
    cols += [f"score_{cat}" for cat in CATEGORIES] + ["score_total", "placing"]
    return cols


def _players_frame(tl: Timeline) -> pd.DataFrame:
    rows = []
    for snap in tl.snapshots:
        best = [max(p["ranks"][k] for p in snap.players) for k in range(len(CLASSES))]
        for seat, p in enumerate(snap.players):
            values = sorted(K.value(c) for _, c in p["coins"])
            row: list[Any] = [snap.step, snap.age, snap.round, snap.tavern, snap.actor,
                              snap.action, seat, tl.names[seat],
                              " ".join(K.label(c) for c in sorted(c for _, c in p["coins"])),
                              sum(values), max(values, default=0), p["gem"]]
            row += list(p["ranks"]) + list(p["bravery"])
            row += [best[k] > 0 and p["ranks"][k] == best[k] for k in range(len(CLASSES))]
            row += [p["lines"], p["heroes"], ", ".join(p["hero_names"]),
                    ", ".join(p["command_zone"])]
            row += [p["breakdown"][cat] for cat in CATEGORIES] + [p["total"], p["placing"]]
            rows.append(row)
    df = pd.DataFrame(rows, columns=_players_columns())
    for col in ("tavern", "actor"):
        df[col] = pd.array(df[col].tolist(), dtype="Int64")
    return df


def players_frame(game: Game | Timeline) -> pd.DataFrame:
    """One row per player per decision: coins, army and running score.

    Columns:

    - ``step`` (-1: before the first decision), ``age``, ``round``, ``tavern`` (Int64),
      ``actor`` (seat who took decision ``step``, <NA> at -1) and ``action`` (notation).
    - ``player`` (seat), ``name``.
    - ``coins`` (labels, ascending), ``coin_sum``, ``highest_coin``, ``gem``.
    - ``ranks_W`` ... ``ranks_E``: ranks per class (column); ``bravery_W`` ...
      ``bravery_E``: bravery points per class (Thrud never scores in a column).
    - ``majority_W`` ... ``majority_E``: the player has the most ranks of that class
      (ties shared, at least one rank).
    - ``lines``: complete lines (min of the ranks); ``heroes``: heroes owned;
      ``hero_names``: their names and ``command_zone``: its tokens, comma separated.
    - ``score_<category>`` for every category of :data:`nidavellir.scoring.CATEGORIES`,
      ``score_total`` and ``placing``: the score sheet of the table as it is (the
      engine's one scorer, so the last step of a finished game is the final score).
    """
    return _players_frame(timeline(game))


# ---------------------------------------------------------------------- treasury

def _treasury_frame(tl: Timeline) -> pd.DataFrame:
    values = sorted(C.treasury(tl.game.config.players))
    rows = []
    for snap in tl.snapshots:
        counts = dict(snap.treasury)
        for v in values:
            rows.append((snap.step, snap.age, snap.round, v, counts.get(v, 0)))
    return pd.DataFrame(rows, columns=["step", "age", "round", "value", "available"])


def treasury_frame(game: Game | Timeline) -> pd.DataFrame:
    """Royal treasury availability: one row per decision per coin value.

    Columns: ``step``, ``age``, ``round``, ``value`` (every value of the treasury at
    setup for the player count, 5..25) and ``available`` (copies left, possibly 0).
    """
    return _treasury_frame(timeline(game))


# ---------------------------------------------------------------------- score sheets

def score_frame(scores: Game | ScoreSheet) -> pd.DataFrame:
    """A score sheet as a tidy table: one row per player per category.

    Columns: ``player`` (seat), ``name``, ``category`` (in :data:`CATEGORIES` order),
    ``points``, ``total`` (the player's total) and ``placing``.
    """
    sheet = scores.scores() if isinstance(scores, Game) else scores
    rows = [(i, p.name, cat, p.breakdown[cat], p.total, p.rank)
            for i, p in enumerate(sheet.players) for cat in CATEGORIES]
    return pd.DataFrame(rows, columns=["player", "name", "category", "points", "total",
                                       "placing"])


__all__ = ["CLASSES", "COIN_EVENTS", "PLACES", "Snapshot", "Timeline", "coins_frame",
           "events_frame", "players_frame", "score_frame", "timeline", "treasury_frame"]
