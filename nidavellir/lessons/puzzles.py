"""A puzzle shown as a position step: "Find the best move".

The Puzzles tab, a class's assigned puzzles and the teacher page show a puzzle the way a
lesson's position step is shown (:class:`~nidavellir.lessons.position.PositionStep`): the
position from the deciding seat's view only, the Play tab's control for the decision, a
move checked against the legal moves. :class:`PuzzleStep` is such a step whose coach's
figures are the puzzle file's own (the judge's figures of every option, made when the
puzzle was verified): showing them judges nothing again.

>>> from nidavellir.analysis.puzzles import shipped
>>> puzzle = shipped()[0]
>>> step = puzzle_step(puzzle)
>>> step.view()["decision"]["player"] == puzzle.seat
True
>>> step.coach()["best"] in puzzle.answers
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..analysis.puzzles.fileformat import Puzzle
from ..i18n import _
from .position import PositionStep, position_game


@dataclass(frozen=True)
class PuzzleStep(PositionStep):
    """A puzzle as a position step (module docs)."""

    puzzle: Puzzle | None = None

    def judge(self) -> Any:
        """The puzzle itself: its figures are made already (:meth:`coach` words them)."""
        return self.puzzle

    def coach(self, judgement: Any = None) -> dict[str, Any]:
        """The judge's figures of every option, from the puzzle file, the moves in the
        current language's words (the same shape as a position step's)."""
        from ..bots.judge import move_words

        puzzle = self.puzzle
        assert puzzle is not None
        game = position_game(self.record, self.decision)
        said = move_words(game, game.legal_actions())
        options = [{"move": o["move"], "moves": list(o.get("moves") or [o["move"]]),
                    "words": said.get(o["move"], o["move"]), "win": o.get("win"),
                    "win_se": o.get("win_se"), "score": o.get("score"),
                    "score_se": o.get("score_se"), "about_best": bool(o.get("about_best")),
                    "answer": o["move"] in puzzle.answers}
                   for o in puzzle.options]
        return {"level": str(puzzle.extra.get("level", "puzzle")), "puzzle": True,
                "exact": puzzle.exact,
                "seconds": 0.0, "playouts": int(puzzle.extra.get("deals") or 0),
                "iterations": 0, "best": puzzle.answers[0], "options": options,
                "reason": puzzle.reason_text()}


def puzzle_step(puzzle: Puzzle, key: str | None = None) -> PuzzleStep:
    """The step that shows ``puzzle`` (``key``: its id in a class's set; the puzzle's id
    by default)."""
    record = dict(puzzle.record)
    config = dict(record.get("config") or {})
    names = list(config.get("names") or ())
    if names == [f"Player {i + 1}" for i in range(len(names))]:
        # A generated game's seats have the engine's default names: in the reader's
        # language here (a learner's own record keeps its names).
        config["names"] = [_("Player {n}").format(n=i + 1) for i in range(len(names))]
        record["config"] = config
    # Translators: the question of a puzzle (the Puzzles tab, a class's puzzles).
    question = _("Find the best move.")
    return PuzzleStep(key=key or puzzle.id, title=_("Puzzle {id}").format(id=puzzle.id),
                      situation="",
                      question=question, seat=puzzle.seat, record=record,
                      decision=puzzle.decision, level="coach", puzzle=puzzle)


__all__ = ["PuzzleStep", "puzzle_step"]
