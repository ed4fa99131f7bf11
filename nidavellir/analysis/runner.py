"""One runner for many seeded jobs: simulations, ladders and reviews.

Work goes in **chunks** (a chunk is a list of tasks, each task a seeded job such as one
game), run by one of three backends:

- ``workers=1``: in this process;
- ``workers=N``: a local ``concurrent.futures`` process pool (the default for one machine);
- Dask distributed: ``scheduler="tcp://host:port"`` (an existing cluster) or ``dask=N``
  (a ``LocalCluster`` of N worker processes, one thread each).

Every task carries its own seed, so the results never depend on the backend, the chunk size
or the number of workers: :func:`run_tasks` yields them in task order; :func:`run_chunks`
yields whole chunks as they finish (in any order), for writers that store one file per chunk.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..i18n import N_, _

T = TypeVar("T")
R = TypeVar("R")

#: Seconds to wait for a Dask scheduler before giving up.
CONNECT_TIMEOUT = 10.0
#: A chunk should run for about this many seconds (never one task per game for fast games).
CHUNK_SECONDS = 3.0


def check_workers(workers: object) -> int:
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be a whole number >= 1, not {workers!r}")
    return workers


@dataclass(frozen=True)
class Backend:
    """Where the chunks run: see the module docs. At most one of ``scheduler`` and ``dask``."""

    workers: int = 1
    scheduler: str | None = None
    dask: int | None = None
    timeout: float = CONNECT_TIMEOUT
    start: str | None = None
    """How local worker processes start (``multiprocessing`` start methods): None for the
    platform's default; ``forkserver`` from a process with threads (a notebook kernel:
    forking while another thread holds a lock could leave the child waiting forever)."""

    def __post_init__(self) -> None:
        check_workers(self.workers)
        if self.start is not None and self.start not in ("fork", "forkserver", "spawn"):
            raise ValueError(f"start must be fork, forkserver or spawn, not {self.start!r}")
        if self.scheduler is not None and self.dask is not None:
            raise ValueError("give either a scheduler address or a number of Dask workers, "
                             "not both")
        if self.dask is not None and (not isinstance(self.dask, int)
                                      or isinstance(self.dask, bool) or self.dask < 1):
            raise ValueError(f"--dask needs a number of workers >= 1, not {self.dask!r}")
        if self.scheduler is not None:
            if not isinstance(self.scheduler, str) or not self.scheduler.strip():
                raise ValueError(_("a scheduler address looks like {example}, not {value}"
                                   ).format(example="tcp://host:8786",
                                            value=repr(self.scheduler)))

    @property
    def uses_dask(self) -> bool:
        return self.scheduler is not None or self.dask is not None

    @property
    def parallelism(self) -> int:
        """Workers the chunks are spread over (for sizing chunks)."""
        if self.dask is not None:
            return self.dask
        if self.scheduler is not None:
            return 16
        return self.workers

    def describe(self) -> str:
        if self.scheduler is not None:
            return f"the Dask cluster at {self.scheduler}"
        if self.dask is not None:
            return f"a local Dask cluster of {self.dask} worker(s)"
        return "this process" if self.workers == 1 else f"{self.workers} local processes"


def chunk_size(tasks: int, seconds_per_task: float, backend: Backend) -> int:
    """Tasks per chunk: about :data:`CHUNK_SECONDS` of work, and enough chunks to keep every
    worker busy."""
    by_time = max(1, int(CHUNK_SECONDS / max(seconds_per_task, 1e-6)))
    spread = max(1, math.ceil(tasks / (4 * backend.parallelism)))
    return max(1, min(by_time, spread))


def chunked(tasks: Sequence[T], size: int) -> list[list[T]]:
    return [list(tasks[i:i + size]) for i in range(0, len(tasks), size)]


def run_chunk(fn: Callable[[T], R], chunk: Sequence[T]) -> list[R]:
    """Run one chunk (module level: it travels to worker processes by reference)."""
    return [fn(task) for task in chunk]


#: A progress bar's words by default (``games: 40%|████  | 40/100 [00:02<00:03, 19.9
#: game/s]``).
# Translators: a progress bar of the commands: what is counted (plural), then its unit.
PROGRESS_DESC, PROGRESS_UNIT = N_("games"), N_("game")


class _Progress(Generic[R]):
    """A progress bar on the terminal, its words in the reader's language: ``desc`` and
    ``unit`` are messages marked for the catalogue (``N_``) where they are given."""

    def __init__(self, show: bool, total: int, desc: str, unit: str) -> None:
        from tqdm.auto import tqdm

        self.bar = tqdm(total=total, desc=_(desc), unit=_(unit), disable=not show)

    def update(self, n: int) -> None:
        self.bar.update(n)

    def close(self) -> None:
        self.bar.close()


def _dask_client(backend: Backend) -> tuple[Any, Any]:
    """(client, cluster or None); a clear ValueError when the scheduler cannot be reached."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - dask is a dependency
        raise ValueError("Dask is not installed: pip install 'dask[distributed]'") from exc
    if backend.dask is not None:
        cluster = LocalCluster(n_workers=backend.dask, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=logging.CRITICAL)
        return Client(cluster), cluster
    address = str(backend.scheduler).strip()
    if "://" not in address:
        address = "tcp://" + address
    try:
        client = Client(address, timeout=backend.timeout)
    except (OSError, TimeoutError) as exc:
        # Translators: {seconds} is a number of seconds, {problem} the exception's name.
        raise ValueError(_("cannot reach the Dask scheduler at {address} within {seconds} s "
                           "({problem})").format(address=address,
                                                 seconds=f"{backend.timeout:g}",
                                                 problem=type(exc).__name__)) from None
    return client, None


def run_chunks(fn: Callable[[T], R], chunks: Sequence[Sequence[T]], backend: Backend,
               progress: bool = False, desc: str = PROGRESS_DESC, unit: str = PROGRESS_UNIT,
               skip: Callable[[int], bool] | None = None,
               ready: Callable[[], None] | None = None) -> Iterator[tuple[int, list[R]]]:
    """(index, results) for every chunk not skipped, as chunks finish. ``ready()`` runs once
    the backend is up (a writer creates its folder then: an unreachable cluster leaves
    nothing behind). Stopping early (an exception, Ctrl-C, closing the generator) cancels
    the chunks still to run."""
    todo = [i for i in range(len(chunks)) if skip is None or not skip(i)]
    start = ready or (lambda: None)
    show = progress and sys.stderr.isatty()
    bar: _Progress[R] = _Progress(show, sum(len(chunks[i]) for i in todo), desc, unit)
    try:
        if backend.uses_dask:
            yield from _run_dask(fn, chunks, todo, backend, bar, start)
        elif backend.workers == 1 or len(todo) <= 1:
            start()
            for i in todo:
                out = run_chunk(fn, chunks[i])
                bar.update(len(out))
                yield i, out
        else:
            start()
            yield from _run_pool(fn, chunks, todo, backend, bar)
    finally:
        bar.close()


def _run_pool(fn: Callable[[T], R], chunks: Sequence[Sequence[T]], todo: list[int],
              backend: Backend, bar: _Progress[R]) -> Iterator[tuple[int, list[R]]]:
    context = None if backend.start is None else multiprocessing.get_context(backend.start)
    pool = ProcessPoolExecutor(max_workers=min(backend.workers, len(todo)), mp_context=context)
    try:
        pending: dict[Future[list[R]], int] = {
            pool.submit(run_chunk, fn, chunks[i]): i for i in todo}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                i = pending.pop(fut)
                out = fut.result()
                bar.update(len(out))
                yield i, out
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _run_dask(fn: Callable[[T], R], chunks: Sequence[Sequence[T]], todo: list[int],
              backend: Backend, bar: _Progress[R], start: Callable[[], None]
              ) -> Iterator[tuple[int, list[R]]]:
    from distributed import as_completed

    client, cluster = _dask_client(backend)
    try:
        start()
        futures = {client.submit(run_chunk, fn, chunks[i], pure=False): i for i in todo}
        try:
            for fut in as_completed(futures):
                i = futures[fut]
                out = fut.result()
                bar.update(len(out))
                yield i, out
        finally:
            client.cancel(list(futures))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_tasks(fn: Callable[[T], R], tasks: Sequence[T], workers: int = 1,
              progress: bool = False, desc: str = PROGRESS_DESC, unit: str = PROGRESS_UNIT,
              backend: Backend | None = None, size: int | None = None,
              seconds_per_task: float = 0.01) -> Iterator[R]:
    """``fn(task)`` for each task, **in task order**, on ``backend`` (default: ``workers``
    local processes). ``fn`` must be a module-level function when it runs elsewhere."""
    backend = backend or Backend(workers=workers)
    if size is None:
        size = chunk_size(len(tasks), seconds_per_task, backend)
    chunks = chunked(tasks, size)
    done: dict[int, list[R]] = {}
    nxt = 0
    for i, out in run_chunks(fn, chunks, backend, progress=progress, desc=desc, unit=unit):
        done[i] = out
        while nxt in done:
            yield from done.pop(nxt)
            nxt += 1
