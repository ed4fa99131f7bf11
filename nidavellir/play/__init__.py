"""The Play tab's model, without any widget: a game with human and bot seats, undo, the
bots' turns on a thread of their own, the end-of-age summaries, the messages a page shows,
and the coach's judgement of the decision on the table.

The widgets (``widgets/``) are views over these objects: they read them and are told of
their changes through :meth:`~nidavellir.play.observable.Observable.observe`, the same
``observe(handler, names)`` call as traitlets', so a view cannot tell the difference. The
command line, the benchmarks and the tests drive the same model without a page.

Standard library only, like the bots below it.
"""

from __future__ import annotations

from .coaching import Judging, position_key
from .messages import MessageLog
from .observable import Change, Observable, Observed
from .runner import Runner
from .session import (
    BOT_NAMES,
    HUMAN,
    LEVEL_HELP,
    LEVEL_OF,
    LEVELS,
    SEAT_KINDS,
    SEAT_MENU,
    Session,
)

__all__ = ["BOT_NAMES", "HUMAN", "LEVELS", "LEVEL_HELP", "LEVEL_OF", "SEAT_KINDS", "SEAT_MENU",
           "Change", "Judging", "MessageLog", "Observable", "Observed", "Runner", "Session",
           "position_key"]
