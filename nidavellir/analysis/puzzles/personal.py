"""Practise your mistakes: a reviewed game's mistakes and blunders that pass the only-move
test become the learner's own puzzles.

After a review (:func:`nidavellir.analysis.review.review`), each decision labelled
``mistake`` or ``blunder`` is put to the same test as a generated puzzle
(:func:`nidavellir.bots.puzzle.verify`, on two sets of deals, :mod:`.generate`): where one
move was clearly the best, the position becomes a puzzle whose source is the reviewed game
(``{"record": "review", "decision": N}``) and which is marked ``personal``. Where the
learner's move was bad but another was about as good as the best, the position teaches no
single answer and is left out, as any generated candidate would be.

>>> from nidavellir.bots import play_game
>>> from nidavellir.analysis.review import review
>>> game = play_game(2, "random", seed=5)
>>> frame = review(game, level="search@4", seats=[0])
>>> made = personal_puzzles(game, frame, limit=1)
>>> all(p.personal for p in made)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...bots.puzzle import DEALS, verify
from ...game import Game
from .fileformat import Puzzle, parse_puzzle
from .generate import STABLE_SALT, make_puzzle, position

#: The review's labels whose positions are tried as puzzles.
LABELS = ("mistake", "blunder")


def personal_puzzles(game: Game, frame: Any, deals: int = DEALS, limit: int | None = None,
                     progress: Callable[[int, int], None] | None = None) -> list[Puzzle]:
    """The learner's own puzzles from a reviewed game (module docs); ``frame`` is its
    review, ``limit`` the most positions tried (the costliest mistakes first), ``progress``
    hears ``(done, total)``."""
    rows = frame[frame["label"].isin(LABELS)]
    rows = rows.sort_values("loss_win", ascending=False, kind="stable")
    steps = [int(s) for s in rows["step"]]
    if limit is not None:
        steps = steps[:limit]
    record = game.to_record()
    actions = list(record.get("actions", ()))
    out: list[Puzzle] = []
    for done, step in enumerate(steps):
        if progress is not None:
            progress(done, len(steps))
        position_game, prefix = position(record, step)
        verdict = verify(position_game, deals=deals)
        if not verdict.passed:
            continue
        again = verify(position_game, deals=deals, salt=STABLE_SALT)
        if not again.passed or set(again.answers) != set(verdict.answers):
            continue
        data = make_puzzle(position_game, prefix, verdict,
                           {"record": "review", "decision": step + 1}, actions[step:])
        data["personal"] = True
        out.append(parse_puzzle(data))
    if progress is not None:
        progress(len(steps), len(steps))
    return out


__all__ = ["LABELS", "personal_puzzles"]
