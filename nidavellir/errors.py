"""One exception hierarchy for the whole engine (docs/engine.md, "Errors")."""

from __future__ import annotations


class NidavellirError(Exception):
    """Base class of every error the engine raises on purpose."""


class InvalidNotation(NidavellirError, ValueError):
    """A card token or an action's text notation could not be parsed."""


class IllegalAction(NidavellirError, ValueError):
    """An action is not legal now; the message says why. The state is unchanged."""


class ScenarioError(NidavellirError, ValueError):
    """A scenario file is malformed or describes an impossible table.

    ``player`` and ``field`` name where the problem is, ``problem`` what it is.
    """

    def __init__(self, problem: str, player: str | None = None, field: str | None = None) -> None:
        self.player = player
        self.field = field
        self.problem = problem
        where = []
        if player is not None:
            where.append(f"player {player!r}")
        if field is not None:
            where.append(f"field {field!r}")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {problem}" if prefix else problem)


class RecordError(NidavellirError, ValueError):
    """A game record is malformed or replays an illegal action.

    ``index`` is the position of the offending action (None for a header problem),
    ``field`` the offending field of the record when that is what is wrong.
    """

    def __init__(self, problem: str, index: int | None = None, field: str | None = None) -> None:
        self.index = index
        self.field = field
        self.problem = problem
        if index is not None:
            message = f"action {index}: {problem}"
        elif field is not None:
            message = f"field {field!r}: {problem}"
        else:
            message = problem
        super().__init__(message)
