"""One runner for many seeded jobs: simulations, ladders and reviews.

``run_tasks(fn, tasks, workers=1)`` yields ``fn(task)`` for every task **in the order of
the tasks**, whatever the number of workers: one process (``workers=1``) or a local
``concurrent.futures`` process pool. Every job carries its own seed, so the results never
depend on how the work was spread.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def check_workers(workers: object) -> int:
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be a whole number >= 1, not {workers!r}")
    return workers


def run_tasks(fn: Callable[[T], R], tasks: Sequence[T], workers: int = 1,
              progress: bool = False, desc: str = "games", unit: str = "game",
              weight: Callable[[R], int] | None = None) -> Iterator[R]:
    """``fn(task)`` for each task, in order; ``workers`` > 1 uses a local process pool
    (``fn`` must then be a module-level function). A tqdm bar shows on a terminal when
    ``progress`` is true; ``weight(result)`` counts the units a result stands for."""
    from tqdm.auto import tqdm

    check_workers(workers)
    show = progress and sys.stderr.isatty()
    total: Any = len(tasks) if weight is None else None
    with tqdm(total=total, desc=desc, unit=unit, disable=not show) as bar:
        if workers == 1 or len(tasks) <= 1:
            for task in tasks:
                result = fn(task)
                bar.update(1 if weight is None else weight(result))
                yield result
            return
        chunk = max(1, min(32, len(tasks) // (workers * 8)))
        with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
            # map() yields in submission order.
            for result in pool.map(fn, tasks, chunksize=chunk):
                bar.update(1 if weight is None else weight(result))
                yield result
