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
from ..bots.immediate import Immediate, immediates
from ..bots.judge import Judgement, judge
from ..game import Game
from ..scoring import CATEGORIES, CATEGORY_LABELS, ScoreSheet
from .frames import score_frame

DELTA_COLUMNS: tuple[str, ...] = tuple(f"delta_{c}" for c in CATEGORIES) + ("delta_total",)
JUDGED_COLUMNS: tuple[str, ...] = ("rank", "win_chance", "win_se", "expected_score",
                                   "score_se", "about_best", "margin", "value", "exact",
                                   "playouts")


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
            seed: int | None = None, *, actions: Iterable[Action | str] | None = None,
            judgement: Judgement | None = None) -> pd.DataFrame:
    """Every option of the current decision, scored for the deciding seat:

    - ``action`` (notation), ``equivalent`` (other legal moves that lead to the same
      position, judged with it), ``player`` (seat), ``name``;
    - ``delta_<category>`` for every category of the score sheet and ``delta_total``: the
      change of the board's score sheet right after the action ("now", with what it
      triggers at once: a trade, a hero's effect, troop evaluation ...), on a table
      consistent with what the deciding seat may know; ``score_total``: the score then;
      ``if_ended``: the change if the game ended now (what waits in the command zone
      placed where it scores most);
    - with ``level`` (``quick``, ``coach``, ``deep``, ``hard``, ``search@400`` …) or a
      ``judgement`` of the position: the coach's judgement
      (:func:`nidavellir.bots.judge.judge`), one row per option **in its order** (the
      recommended first): ``rank``, ``win_chance`` and ``win_se`` (the figure the order
      ranks by), ``expected_score`` and ``score_se``, ``about_best`` (as good as the best
      within the noise), ``margin`` (expected lead over the best opponent), ``value`` (the
      search's objective), ``exact`` and ``playouts``.

    Without a judgement: one row per legal action in ``game.legal_actions()`` order (or
    ``actions``). The same position, level and seed give the same table (``seed`` None:
    seeded from the position as the deciding seat sees it, like the Hint).
    """
    d = game.decision
    if d is None:
        raise ValueError("the game is over: there is no decision to study")
    seat = d.player if player is None else player
    if not isinstance(seat, int) or isinstance(seat, bool) or \
            not 0 <= seat < game.config.players:
        raise ValueError(f"no player {player!r} in a {game.config.players}-player game")
    if judgement is None and level is not None:
        judgement = judge(game, level=level, seed=seed)
    if judgement is not None:
        options = [o.action for o in judgement.options]
    else:
        options = (game.legal_actions() if actions is None
                   else [game.parse(a) if isinstance(a, str) else a for a in actions])
    nows = immediates(game, options) if seat == d.player else _others(game, seat, options)
    total = game.scores()[seat].total
    rows = []
    for action in options:
        now = nows[str(action)]
        row: dict[str, object] = {"action": str(action), "equivalent": "", "player": seat,
                                  "name": game.names[seat]}
        for c in CATEGORIES:
            row[f"delta_{c}"] = now.parts.get(c, 0)
        row["delta_total"] = now.total
        row["score_total"] = total + now.total
        row["if_ended"] = now.if_ended
        if judgement is not None:
            o = judgement.option(action)
            row.update(equivalent=", ".join(map(str, o.equivalent)),
                       rank=judgement.rank(action), win_chance=o.win, win_se=o.win_se,
                       expected_score=o.score, score_se=o.score_se, about_best=o.about_best,
                       margin=o.margin, value=o.value, exact=judgement.exact,
                       playouts=o.estimate.n)
        rows.append(row)
    columns = ["action", "equivalent", "player", "name", *DELTA_COLUMNS, "score_total",
               "if_ended"]
    if judgement is not None:
        columns += list(JUDGED_COLUMNS)
    frame = pd.DataFrame(rows, columns=columns)
    if judgement is not None:
        frame.attrs["judgement"] = judgement
    return frame


def _others(game: Game, seat: int, options: Sequence[Action]) -> dict[str, Immediate]:
    """The change of another seat's row of the score sheet (on a determinization for the
    seat that decides: what it may know)."""
    d = game.decision
    assert d is not None
    base = game.determinize(d.player, 0)
    before = base.scores()[seat].breakdown
    out = {}
    for action in options:
        g = base.clone()
        g.apply(action)
        after = g.scores()[seat].breakdown
        parts = {k: after[k] - before[k] for k in CATEGORIES if after[k] != before[k]}
        total = sum(parts.values())
        out[str(action)] = Immediate(total=total, parts=parts, lines=[], majority=[],
                                     if_ended=total)
    return out


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
