"""Puzzles from real games (docs/puzzles.md): the puzzle file (:mod:`.fileformat`), its
generator and checker (:mod:`.generate`, ``nidavellir puzzles generate|check``), Glicko-2
ratings (:mod:`.glicko`), the trainer's logic (:mod:`.trainer`: a learner's rating and
history, the next puzzle, a class's ratings) and the learner's own puzzles from a review
(:mod:`.personal`). The only-move test and the themes are the coach's
(:mod:`nidavellir.bots.puzzle`, :mod:`nidavellir.bots.puzzle_themes`).

Standard library only (plotly for the rating chart, pandas for a review's frame).
"""

from .fileformat import (
    SHIPPED,
    Puzzle,
    PuzzleFileError,
    parse_lines,
    parse_puzzle,
    read_puzzles,
    shipped,
    write_puzzles,
)
from .glicko import Rating, attempt, rate

__all__ = ["SHIPPED", "Puzzle", "PuzzleFileError", "Rating", "attempt", "parse_lines",
           "parse_puzzle", "rate", "read_puzzles", "shipped", "write_puzzles"]
