"""The coach's figures of the class's position questions, for one server.

A position question ("What would you play here?") shows the teacher the class's moves
beside the coach's figures of every option (:func:`nidavellir.lessons.position.
coach_figures`). A judgement takes seconds, so it never runs in a request: the first ask
of a position starts it on a thread of its own and gets ``{"pending": True}``; every later
ask, from any teacher page or projector, gets the figures once they are ready.

- **One per server**: the teacher page's handlers share the server's
  :class:`PositionCoach` (:func:`~nidavellir.classroom.teacher.handlers.teacher_handlers`);
  nothing of it is kept at module level.
- **Each position judged once**: a position (its record, decision and level) is claimed
  by its first ask; asks while it is judged start nothing. Its figures are worded for each
  reader's language from the one judgement (the numbers are the same in every language).
- **Positions judged side by side**: the claim is taken under a short lock that is never
  held while judging, and the judgements run on ``workers`` threads: a long judgement of
  one position never holds up another position's.
- **Bounded**: the judgements of the last ``size`` positions asked are kept (the one asked
  longest ago goes first); a position asked again after it went is judged again.

Standard library only.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ... import i18n

LOG = logging.getLogger("nidavellir.teacher")
#: Positions whose judgements a server keeps.
SIZE = 64
#: Positions judged at the same time.
WORKERS = 2
#: A position: the digest of its record, its decision and its level.
Key = tuple[str, int, str]


def judge_step(step: Any) -> Any:
    """The coach's judgement of a position step
    (:meth:`~nidavellir.lessons.position.PositionStep.judge`)."""
    return step.judge()


def word_step(judgement: Any, step: Any) -> dict[str, Any]:
    """A judgement's figures in the current language
    (:meth:`~nidavellir.lessons.position.PositionStep.coach`)."""
    return step.coach(judgement)  # type: ignore[no-any-return]


@dataclass
class _Position:
    """One position's judgement (or why there is none) and its figures in each language
    asked for."""

    judgement: Any = None
    error: str = ""
    worded: dict[str, dict[str, Any]] = field(default_factory=dict)


class PositionCoach:
    """The coach's figures of each position question asked on one server (module
    docstring). ``judge`` makes a step's judgement and ``word`` its figures in the current
    language (:func:`judge_step`, :func:`word_step`; the tests give their own)."""

    def __init__(self, size: int = SIZE, workers: int = WORKERS,
                 judge: Callable[[Any], Any] = judge_step,
                 word: Callable[[Any, Any], dict[str, Any]] = word_step) -> None:
        self.size = size
        self._judge, self._word = judge, word
        self._done: OrderedDict[Key, _Position] = OrderedDict()
        self._running: dict[Key, Future[None]] = {}
        self._lock = threading.Lock()  # the two tables only: never held while judging
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="nid-coach")

    @staticmethod
    def key(step: Any) -> Key:
        """The position of a step: its record (by digest), decision and level."""
        record = json.dumps(step.record, sort_keys=True, ensure_ascii=False)
        return (hashlib.sha256(record.encode()).hexdigest(), int(step.decision),
                str(step.level))

    def figures(self, step: Any) -> dict[str, Any]:
        """The step's figures in the current language when its position is judged, else
        ``{"pending": True}`` (the first ask starts the judgement). A judgement that failed
        says why (``error``)."""
        key = self.key(step)
        with self._lock:
            done = self._done.get(key)
            if done is None:
                self._start(key, step)
                return {"pending": True}
            self._done.move_to_end(key)
        return self._worded(done, step)

    def wait(self, step: Any, timeout: float | None = None) -> dict[str, Any]:
        """The step's figures, waiting for its judgement (started if need be); TimeoutError
        after ``timeout`` seconds. For whoever may wait (a script, a test), never a page."""
        key = self.key(step)
        with self._lock:
            done = self._done.get(key)
            running = self._start(key, step) if done is None else None
        if running is not None:
            running.result(timeout)
            with self._lock:
                done = self._done.get(key)
        if done is None:  # judged, then pushed out by newer positions at once
            return self.wait(step, timeout)
        return self._worded(done, step)

    def _start(self, key: Key, step: Any) -> Future[None]:
        """The judgement of ``key`` running, started unless it is (under the lock)."""
        running = self._running.get(key)
        if running is None:
            running = self._running[key] = self._pool.submit(self._run, key, step)
        return running

    def _run(self, key: Key, step: Any) -> None:
        done = _Position()
        try:
            done.judgement = self._judge(step)
        except Exception as exc:  # said on the teacher page, and logged
            LOG.exception("the coach could not judge the position of %s",
                          getattr(step, "title", "a step"))
            done.error = f"{type(exc).__name__}: {exc}"
        with self._lock:
            self._done[key] = done
            while len(self._done) > self.size:
                self._done.popitem(last=False)
            self._running.pop(key, None)

    def _worded(self, done: _Position, step: Any) -> dict[str, Any]:
        """The position's figures in the current language (worded once per language)."""
        if done.error:
            return {"error": done.error}
        language = i18n.language()
        found = done.worded.get(language)
        if found is None:
            found = done.worded[language] = self._word(done.judgement, step)
        return found

    def __len__(self) -> int:
        """How many positions' judgements are kept."""
        with self._lock:
            return len(self._done)


__all__ = ["PositionCoach", "SIZE", "WORKERS", "judge_step", "word_step"]
