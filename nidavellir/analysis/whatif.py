"""What-if studies: score every option of a decision, branch a game, compare two games.

- :func:`what_if` — one row per legal action of the current decision: the immediate
  change of the score sheet (clone, apply, ``scores()`` difference) and, with
  ``playouts > 0``, the final-score change estimated from seeded playouts of the rest
  of the game by bots.
- :func:`branch` — a copy of a game that took other actions from some decision on.
- :func:`compare` — two score sheets side by side, with the difference.

Playouts are *determinized* for the deciding seat (``Game.determinize``): the order of the
cards nobody has seen yet is reshuffled and the other players' face-down bids are dealt
again for every playout, so an estimate never exploits what the deciding player cannot
know. Playout ``i`` uses the same deck order and bot seeds for
every action (common random numbers), so differences between actions are not noise from
different deals. The same ``seed`` gives the same numbers.

>>> from nidavellir import Game
>>> game = Game.new(players=2, seed=3)
>>> table = what_if(game)
>>> len(table) == len(game.legal_actions()), int(table["delta_total"].abs().sum())
(True, 0)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence

import pandas as pd

from ..actions import Action
from ..game import Game
from ..scoring import CATEGORIES, CATEGORY_LABELS, ScoreSheet
from ..stats import mean_se, sample_variance
from .frames import score_frame

DELTA_COLUMNS: tuple[str, ...] = tuple(f"delta_{c}" for c in CATEGORIES) + ("delta_total",)
PLAYOUT_COLUMNS: tuple[str, ...] = ("playouts", "final_mean", "final_std", "final_se",
                                    "final_change_mean", "final_change_se", "margin_mean",
                                    "win_rate")


def _seat_points(sheet: ScoreSheet, seat: int) -> dict[str, int]:
    p = sheet[seat]
    out = {c: p.breakdown[c] for c in CATEGORIES}
    out["total"] = p.total
    return out


def _seed(*parts: object) -> int:
    return random.Random("/".join(str(p) for p in parts)).getrandbits(63)


def _make_bots(bot: str, seed: int, playout: int, players: int) -> list:  # type: ignore[type-arg]
    from ..bots import make_bot

    return [make_bot(bot, _seed(seed, "playout", playout, "seat", s)) for s in range(players)]


def playout(game: Game, bots: Sequence, max_decisions: int = 10_000) -> Game:  # type: ignore[type-arg]
    """Play ``game`` (changed in place) to its end with one bot per seat; returns it."""
    for _ in range(max_decisions):
        seat = game.to_play
        if seat is None:
            return game
        game.apply_fast(bots[seat].choose(game))
    raise RuntimeError(f"the playout did not end after {max_decisions} decisions")


def play_until(game: Game, until: Callable[[Game], bool], bot: str = "greedy",
               seed: int = 0) -> Game:
    """Let ``bot`` play every seat of ``game`` (changed in place) until ``until(game)``
    holds or the game ends; returns the game. Handy to reach a position for a study.

    >>> from nidavellir import Game
    >>> game = play_until(Game.new(players=2, seed=1), lambda g: g.state.age == 2, "random")
    >>> game.state.age, game.decision.kind
    (2, 'bid')
    """
    bots = _make_bots(bot, seed, -1, game.config.players)
    while game.decision is not None and not until(game):
        game.apply_fast(bots[game.decision.player].choose(game))
    return game


def what_if(game: Game, player: int | None = None, playouts: int = 0, bot: str = "random",
            seed: int = 0, *, actions: Iterable[Action | str] | None = None,
            determinize: bool = True) -> pd.DataFrame:
    """Score every legal action of the current decision for ``player``.

    ``player`` defaults to the seat that decides now. Columns, one row per action in
    ``game.legal_actions()`` order (or ``actions``, when given):

    - ``action`` (notation), ``player`` (seat), ``name``;
    - ``delta_<category>`` for every category of the score sheet and ``delta_total``:
      the immediate change of the player's score when the action is applied (with the
      automatic steps it triggers: a trade, a hero's effect, troop evaluation ...);
    - ``score_total``: the player's score of the table right after the action;
    - with ``playouts > 0``: ``playouts``, ``final_mean``, ``final_std`` (sample
      standard deviation), ``final_se`` (its standard error) of the player's final
      total; ``final_change_mean`` / ``final_change_se``: the final total minus the
      score now; ``margin_mean``: final total minus the best other player's;
      ``win_rate``: share of playouts the player placed first (ties count).

    Every seat of a playout is played by a ``bot`` from :mod:`nidavellir.bots`; the unseen
    card order is reshuffled per playout unless ``determinize=False``.
    """
    d = game.decision
    if d is None:
        raise ValueError("the game is over: there is no decision to study")
    seat = d.player if player is None else int(player)
    if not 0 <= seat < game.config.players:
        raise ValueError(f"no player {player!r} in a {game.config.players}-player game")
    options = (game.legal_actions() if actions is None
               else [game.parse(a) if isinstance(a, str) else a for a in actions])
    before = _seat_points(game.scores(), seat)
    rows = []
    for action in options:
        g = game.clone()
        g.apply(action)
        after = _seat_points(g.scores(), seat)
        row: dict[str, object] = {"action": str(action), "player": seat,
                                  "name": game.names[seat]}
        for c in (*CATEGORIES, "total"):
            row[f"delta_{c}"] = after[c] - before[c]
        row["score_total"] = after["total"]
        if playouts > 0:
            row.update(_playouts(g, seat, playouts, bot, seed, determinize, before["total"]))
        rows.append(row)
    columns = ["action", "player", "name", *DELTA_COLUMNS, "score_total"]
    if playouts > 0:
        columns += list(PLAYOUT_COLUMNS)
    return pd.DataFrame(rows, columns=columns)


def _playouts(after: Game, seat: int, n: int, bot: str, seed: int, determinize: bool,
              now: int) -> dict[str, float]:
    finals: list[int] = []
    margins: list[int] = []
    wins = 0
    for i in range(n):
        # A determinization for the deciding seat: the unseen cards reshuffled and the
        # other players' face-down bids dealt again, so the estimate never uses them.
        g = after.determinize(seat, _seed(seed, "deal", i)) if determinize else after.clone()
        playout(g, _make_bots(bot, seed, i, g.config.players))
        sheet = g.scores()
        finals.append(sheet[seat].total)
        others = [p.total for k, p in enumerate(sheet.players) if k != seat]
        margins.append(sheet[seat].total - max(others, default=0))
        wins += sheet[seat].rank == 1
    mean = sum(finals) / n
    std = math.sqrt(sample_variance(finals))
    se = mean_se(finals)
    return {"playouts": n, "final_mean": mean, "final_std": std, "final_se": se,
            "final_change_mean": mean - now, "final_change_se": se,
            "margin_mean": sum(margins) / n, "win_rate": wins / n}


def branch(game: Game, at_index: int, actions: Iterable[Action | str]) -> Game:
    """A new game: ``game`` up to decision ``at_index`` (exclusive), then ``actions``.

    ``game`` itself is not changed. Raises IllegalAction (naming the action) when an
    action is not legal where it is applied.
    """
    if not 0 <= at_index <= len(game.history):
        raise ValueError(f"at_index must be in 0..{len(game.history)}, not {at_index!r}")
    g = game.clone()
    g.undo_to(at_index)
    for a in actions:
        g.apply(a)
    return g


def _sheet(x: Game | ScoreSheet) -> ScoreSheet:
    return x.scores() if isinstance(x, Game) else x


def compare(game_a: Game | ScoreSheet, game_b: Game | ScoreSheet,
            labels: tuple[str, str] = ("A", "B")) -> pd.DataFrame:
    """Two score sheets side by side.

    Rows: the score-sheet categories (labelled as on the printed pad), ``Total`` and
    ``Placing``. Columns: a two-level index (player name, ``labels[0]`` / ``labels[1]``
    / ``change``), where ``change`` is B minus A. Both sheets must seat the same players.
    """
    a, b = _sheet(game_a), _sheet(game_b)
    if [p.name for p in a.players] != [p.name for p in b.players]:
        raise ValueError("compare needs the same players in both games")
    fa, fb = score_frame(a), score_frame(b)
    index = [CATEGORY_LABELS[c] for c in CATEGORIES] + ["Total", "Placing"]
    data: dict[tuple[str, str], list[int]] = {}
    for seat, p in enumerate(a.players):
        col_a = fa[fa["player"] == seat]["points"].tolist() + [p.total, p.rank]
        q = b[seat]
        col_b = fb[fb["player"] == seat]["points"].tolist() + [q.total, q.rank]
        data[(p.name, labels[0])] = col_a
        data[(p.name, labels[1])] = col_b
        data[(p.name, "change")] = [y - x for x, y in zip(col_a, col_b, strict=True)]
    frame = pd.DataFrame(data, index=index)
    frame.columns = pd.MultiIndex.from_tuples(frame.columns, names=["player", "game"])
    return frame


__all__ = ["DELTA_COLUMNS", "PLAYOUT_COLUMNS", "branch", "compare", "play_until", "playout",
           "what_if"]
