"""Positions of recorded bot games for the puzzle tests (``tests/puzzle_games.json``: games
of :func:`nidavellir.analysis.puzzles.generate.game_spec` with seed 7, kept as records
because their search bots take seconds to play them again)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from nidavellir import Game
from nidavellir.analysis.puzzles.generate import game_spec, position

HERE = Path(__file__).resolve().parent


@cache
def records() -> dict[str, Any]:
    return json.loads((HERE / "puzzle_games.json").read_text(encoding="utf-8"))["games"]


def at(game: int, index: int) -> Game:
    """The position before action ``index`` of recorded game ``game``."""
    record = records()[str(game)]
    own, players, expansions, _bots = game_spec(7, game)
    assert record["seed"] == own and record["config"]["players"] == players
    assert tuple(record["config"]["expansions"]) == expansions
    return position(record, index)[0]
