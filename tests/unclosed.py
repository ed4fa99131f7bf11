"""A zmq context that a test drops without closing it: named, never waited for.

pyzmq finalizes an unclosed context by destroying it: it closes the sockets it still knows
and waits (``term()``) for every socket of the context to close. When the context's
sockets are garbage in the same cycle, a socket whose weak reference the collector has
already cleared is one it no longer knows, and the wait never ends: the collection that
finalizes the cycle hangs its worker, and ``make test`` with it (a kernel manager dropped
without ``cleanup_resources()``, tests/test_forks.py, hung a whole run). In the suite a
context finalized unclosed is not destroyed: it is noted, with the test that was running
when it was made and the line of the suite that made it, and the speed guard's collection
before the next test (tests/speed_guard.py) fails that test with the note, naming the
culprit, instead of waiting for ever (after the last test a process runs, that test's
teardown fails with it). Its sockets are closed by their own finalizers; the context's
threads end with the worker.
"""

from __future__ import annotations

import os
import traceback
from typing import Any

import zmq

#: The test running now (its node id), read when a context is made.
running = ""
_left: list[str] = []
_TESTS = os.path.dirname(os.path.abspath(__file__))


def _made_at() -> str:
    """The innermost line of a test file or of the suite's helpers in the stack that makes
    a context."""
    for frame in reversed(traceback.extract_stack(limit=40)[:-2]):
        name = os.path.basename(frame.filename)
        if name != "unclosed.py" and (frame.filename.startswith(_TESTS)
                                      or name.startswith("test_")):
            return f"{name}:{frame.lineno}"
    return "outside the suite's files"


_init = zmq.Context.__init__
_del = zmq.Context.__del__


def __init__(self: zmq.Context[Any], *args: Any, **kwargs: Any) -> None:
    _init(self, *args, **kwargs)
    object.__setattr__(self, "_nidavellir_made", (running, _made_at()))


def __del__(self: zmq.Context[Any]) -> None:
    made = getattr(self, "_nidavellir_made", None)
    if made is None or self._shadow or self.closed:
        _del(self)
        return
    test, line = made
    _left.append(f"a zmq context made by {test or 'no test (the collection, the session)'} "
                 f"({line}) was dropped without "
                 "being closed (its kernel manager's cleanup_resources(), or the "
                 "context's destroy()): a test closes what it opens")


def install() -> None:
    """Note unclosed contexts instead of waiting on them (once per process)."""
    if zmq.Context.__init__ is not __init__:
        zmq.Context.__init__ = __init__  # type: ignore[method-assign]
        zmq.Context.__del__ = __del__  # type: ignore[method-assign]


def left() -> list[str]:
    """The notes of the contexts finalized unclosed since the last call."""
    found = _left[:]
    del _left[:]
    return found
