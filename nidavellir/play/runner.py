"""The bots' thread: one piece of work at a time for a game, dropped when the game moves on.

The session counts its positions in *generations* (a new game or an undo starts the next
one); a run is started for a generation and its work checks that it is still current
before each change of the game. :meth:`Runner.start` does not start a second run for the
generation already running.

>>> import threading
>>> done = threading.Event()
>>> r = Runner("example")
>>> r.start(1, done.set)
True
>>> r.wait(5); done.is_set(), r.busy(1)
(True, False)
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable

LOG = logging.getLogger("nidavellir.play")
#: The environment variable of how much lower the bots' and the coach's threads run than
#: the rest of the machine (``nice``, 0 to 19; default :data:`THINK_NICE`; 0: as the rest).
THINK_NICE_VARIABLE = "NIDAVELLIR_THINK_NICE"
#: On a class server every learner's bots and coach share the cores with the pages: their
#: thinking runs this much lower (Linux: per thread), so that what a page waits for (a
#: click answered, a page loaded, the teacher's controls) goes first however busy the
#: machine is, and the thinking of all the learners shares what is left evenly
#: (docs/serving.md, "A class playing at once").
THINK_NICE = 5


def think_nice() -> int:
    """The niceness of the thinking threads (:data:`THINK_NICE_VARIABLE`)."""
    try:
        return max(0, min(19, int(os.environ.get(THINK_NICE_VARIABLE, THINK_NICE))))
    except ValueError:
        return THINK_NICE


def lower_this_thread(by: int | None = None) -> bool:
    """Lower the calling thread's priority by ``by`` (:func:`think_nice`): True when it
    was (Linux gives each thread its own niceness; elsewhere nothing changes)."""
    by = think_nice() if by is None else by
    if by <= 0 or not hasattr(os, "setpriority") or not hasattr(threading, "get_native_id"):
        return False
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + by))
        return True
    except OSError:
        return False


def _guarded(name: str, on_error: Callable[[BaseException], None] | None,
             work: Callable[[], None]) -> None:
    """Run ``work`` on its thread, at the thinking's priority (:func:`lower_this_thread`):
    a failure is logged and given to ``on_error``, never lost."""
    lower_this_thread()
    try:
        work()
    except Exception as exc:
        LOG.exception("%s failed", name)
        if on_error is not None:
            on_error(exc)


class Runner:
    """Runs work on a daemon thread named ``name``; failures are given to ``on_error``."""

    def __init__(self, name: str,
                 on_error: Callable[[BaseException], None] | None = None) -> None:
        self.name = name
        self.on_error = on_error
        self._thread: threading.Thread | None = None
        self._generation: int | None = None
        self._lock = threading.Lock()

    def busy(self, generation: int | None = None) -> bool:
        """A run is under way (for ``generation``, when given)."""
        with self._lock:
            thread = self._thread
            running = thread is not None and thread.is_alive()
            return running and (generation is None or self._generation == generation)

    def start(self, generation: int, work: Callable[[], None]) -> bool:
        """Run ``work`` on a new thread, unless a run for ``generation`` is under way."""
        with self._lock:
            thread = self._thread
            if thread is not None and thread.is_alive() and self._generation == generation:
                return False
            thread = threading.Thread(target=self._guarded, args=(work,), daemon=True,
                                      name=self.name)
            self._thread, self._generation = thread, generation
        thread.start()
        return True

    def _guarded(self, work: Callable[[], None]) -> None:
        _guarded(self.name, self.on_error, work)

    def wait(self, timeout: float = 300.0) -> None:
        """Wait until the run under way (and any run it was replaced by) has ended."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                thread = self._thread
            if thread is None or not thread.is_alive():
                return
            thread.join(max(0.0, deadline - time.monotonic()))
            if time.monotonic() >= deadline:
                return


class Workers:
    """Pieces of work that may overlap (a judgement at two levels, an estimate), each on a
    daemon thread of its own; :meth:`wait` waits for all of them."""

    def __init__(self, name: str,
                 on_error: Callable[[BaseException], None] | None = None) -> None:
        self.name = name
        self.on_error = on_error
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def run(self, work: Callable[[], None]) -> None:
        thread = threading.Thread(target=self._guarded, args=(work,), daemon=True,
                                  name=self.name)
        with self._lock:
            self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()

    def _guarded(self, work: Callable[[], None]) -> None:
        _guarded(self.name, self.on_error, work)

    def wait(self, timeout: float = 300.0) -> None:
        """Wait for every piece of work under way (and any they start)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                threads = [t for t in self._threads if t.is_alive()]
            if not threads:
                return
            for t in threads:
                t.join(max(0.0, deadline - time.monotonic()))
