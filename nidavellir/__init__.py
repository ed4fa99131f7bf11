"""The Nidavellir lab: rules engine, score sheets and analysis for Nidavellir + Thingvellir."""

from __future__ import annotations

# First: the compiled build of the hot path when it is current, else pure Python, chosen
# before any of its modules is imported (nidavellir.compiled).
from . import compiled as _compiled  # noqa: F401

# isort: split
from . import plugins
from .actions import Action, parse_action
from .cards import Card, Kind, Suit
from .errors import IllegalAction, InvalidNotation, NidavellirError, RecordError, ScenarioError
from .game import Game
from .options import RuleOptions
from .scoring import PlayerTable, ScoreSheet, score_table
from .tokens import format_token, parse_token

# The plugins NIDAVELLIR_PLUGINS names, once the engine is loaded (docs/engine.md).
plugins.load()

__all__ = [
    "Action", "parse_action", "Game", "Card", "Kind", "Suit", "IllegalAction", "InvalidNotation", "NidavellirError",
    "RecordError", "ScenarioError", "RuleOptions", "PlayerTable", "ScoreSheet", "score_table",
    "format_token", "parse_token",
]
__version__ = "0.1.0"
