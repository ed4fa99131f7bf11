"""What-if studies: score every option of a decision, branch a game, compare two games.

- :func:`what_if` — one row per legal action of the current decision: the change of the
  score sheet if the game ended right after it and, with a ``level``, the coach's judgement
  of what it leads to (:func:`nidavellir.bots.judge.judge`: the one estimate of a move's
  worth in the lab, from what the deciding seat may know).
- :func:`branch` — a copy of a game that took other actions from some decision on.
- :func:`compare` — two score sheets side by side, with the difference.

>>> from nidavellir import Game
>>> game = Game.new(players=2, seed=3)
>>> table = what_if(game)
>>> len(table) == len(game.legal_actions()), int(table["delta_total"].abs().sum())
(True, 0)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence

import pandas as pd

from ..actions import Action
from ..bots.judge import judge
from ..game import Game
from ..scoring import CATEGORIES, CATEGORY_LABELS, ScoreSheet
from .frames import score_frame

DELTA_COLUMNS: tuple[str, ...] = tuple(f"delta_{c}" for c in CATEGORIES) + ("delta_total",)
JUDGED_COLUMNS: tuple[str, ...] = ("rank", "expected_score", "score_se", "win_chance",
                                   "margin", "value", "verified", "playouts")


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


def what_if(game: Game, player: int | None = None, level: str | None = None,
            seed: int | None = None, *, actions: Iterable[Action | str] | None = None
            ) -> pd.DataFrame:
    """Every legal action of the current decision, scored for ``player`` (default: the seat
    that decides), one row per action in ``game.legal_actions()`` order (or ``actions``):

    - ``action`` (notation), ``player`` (seat), ``name``;
    - ``delta_<category>`` for every category of the score sheet and ``delta_total``: the
      change of the player's score if the game ended right after the action (with what it
      triggers at once: a trade, a hero's effect, troop evaluation ...), on a table
      consistent with what the deciding seat may know; ``score_total``: the score then;
    - with ``level`` (``quick``, ``coach``, ``deep``, ``hard``, ``search@400`` …): the
      coach's judgement (:func:`nidavellir.bots.judge.judge`): ``rank`` (1 = the
      recommended move), ``expected_score`` and ``score_se`` (the expected final score and
      its standard error), ``win_chance``, ``margin`` (expected lead over the best
      opponent), ``value`` (what the options are ranked by), ``verified`` (played out from
      the same deals as the best move) and ``playouts``.

    The same position, level and seed give the same table (``seed`` None: seeded from the
    position as the deciding seat sees it, like the Hint).
    """
    d = game.decision
    if d is None:
        raise ValueError("the game is over: there is no decision to study")
    seat = d.player if player is None else player
    if not isinstance(seat, int) or isinstance(seat, bool) or \
            not 0 <= seat < game.config.players:
        raise ValueError(f"no player {player!r} in a {game.config.players}-player game")
    options = (game.legal_actions() if actions is None
               else [game.parse(a) if isinstance(a, str) else a for a in actions])
    # What the deciding seat may know: the branch is played on its determinization.
    base = game.determinize(d.player, 0)
    before = _seat_points(base.scores(), seat)
    judgement = judge(game, level=level, seed=seed) if level is not None else None
    ranks = {str(o.action): i + 1 for i, o in enumerate(judgement.options)} if judgement else {}
    rows = []
    for action in options:
        g = base.clone()
        g.apply(action)
        after = _seat_points(g.scores(), seat)
        row: dict[str, object] = {"action": str(action), "player": seat,
                                  "name": game.names[seat]}
        for c in (*CATEGORIES, "total"):
            row[f"delta_{c}"] = after[c] - before[c]
        row["score_total"] = after["total"]
        if judgement is not None:
            o = judgement.option(action)
            row.update(rank=ranks[str(action)], expected_score=o.score, score_se=o.score_se,
                       win_chance=o.win, margin=o.margin, value=o.value,
                       verified=o.verified, playouts=o.estimate.n)
        rows.append(row)
    columns = ["action", "player", "name", *DELTA_COLUMNS, "score_total"]
    if judgement is not None:
        columns += list(JUDGED_COLUMNS)
    frame = pd.DataFrame(rows, columns=columns)
    if judgement is not None:
        frame.attrs["judgement"] = judgement
    return frame


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


__all__ = ["DELTA_COLUMNS", "JUDGED_COLUMNS", "branch", "compare", "play_until", "playout",
           "what_if"]
