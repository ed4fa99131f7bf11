"""The suite's speed guard (issue 55): a test that costs more than its kind's limit fails,
unless it is marked with the reason it may.

A test's cost is the CPU time of its processes: the test's own (every thread) and every
process under it (the servers, kernels and browsers it drives, and those that ended during
the test), measured around the test's call (what earlier tests left to the garbage
collector is settled before it: :func:`_settle`). CPU time, not the clock: on a busy
machine a test takes longer but costs the same, so the machine's load never decides
whether a test is too slow (``make test`` stays green beside other work). A test that
mostly waits is caught by the time it spent neither computing nor waiting for a core: its
wall time less the CPU time and the run-queue delays (Linux's schedstat) of its processes'
threads; more than :data:`WAIT_FACTOR` times the limit fails too (times the load per core
on a crowded machine: a thread that ended during the test took its run-queue delay with
it).

Limits: :data:`LIMITS` (2 s for a test, 20 s for a browser test). The same work costs more
CPU time on a crowded machine (shared caches and clocks: the search tests' CPU seconds grew
by 14-20% at a load of 16 on two cores), so a test fails only past :data:`TOLERANCE` times
its limit; one between the limit and that is listed at the end as over its budget, to be
made cheaper, without turning the suite red on a busy machine. ``--speed-limit=S`` sets
the first, ``--speed-limit-browser=S`` the second, ``--speed-limit=0`` switches the guard
off (``make test PYTEST_ARGS=--speed-limit=0`` while profiling). A test that must cost more
says why::

    @pytest.mark.slow(reason="plays three whole games through the Play tab's model")

and is reported, never failed. At the end the 20 costliest tests are listed with their CPU
and wall seconds.
"""

from __future__ import annotations

import contextlib
import gc
import os
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import Any, cast

import pluggy
import psutil
import pytest
import unclosed

#: The most CPU seconds a test's call may cost: (non-browser, browser).
LIMITS = (2.0, 20.0)
#: A test fails past this many times its limit (CPU time grows on a crowded machine).
TOLERANCE = 1.5
#: A test waits too long when its wall time passes this many times its limit.
WAIT_FACTOR = 5.0
SHOWN = 20
_KEY = "speed_guard"
#: A test call's measure, (CPU, wall, waited) seconds, from its call to its report.
_MEASURED = pytest.StashKey[tuple[float, float, float]]()
#: What each test cost, gathered where the reports arrive (the controller under xdist).
_COSTS: list[Cost] = []


@dataclass
class Cost:
    nodeid: str
    cpu: float
    wall: float
    limit: float
    reason: str | None
    #: The xdist worker that ran it ("" without xdist) and when it ended (time.time()):
    #: the run's timeline, for NIDAVELLIR_COSTS.
    worker: str = ""
    ended: float = 0.0
    #: Of its wall time, the seconds neither computing nor queued for a core, and the
    #: crowding the waiting limit was multiplied by (:func:`_crowding`).
    waited: float = 0.0
    crowding: float = 1.0


def _crowding() -> float:
    """How many times over the machine's cores are asked for (the 1-minute load average per
    core, at least 1). A thread that ended during the test took its run-queue delay with it,
    so on a crowded machine what is left of a test's wall time is not all waiting: the
    waiting limit grows with the crowd."""
    if os.environ.get("NIDAVELLIR_TEST_CROWDING"):  # the guard's own test: a fixed crowd
        return float(os.environ["NIDAVELLIR_TEST_CROWDING"])
    try:
        return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
    except OSError:
        return 1.0


def tree_delay() -> float:
    """Seconds the threads of this process and of every process under it have waited for a
    core (run-queue delay, /proc/PID/task/TID/schedstat): on a busy machine a test waits
    for the CPU, and that is not a wait of its own."""
    if not _PROC_CHILDREN:
        return 0.0
    total = 0
    for pid in _tree(os.getpid()):
        with contextlib.suppress(OSError):
            for tid in os.listdir(f"/proc/{pid}/task"):
                with contextlib.suppress(OSError, ValueError, IndexError), \
                        open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                    total += int(f.read().split()[1])
    return total / 1e9


def tree_cpu() -> float:
    """CPU seconds of this process (all threads, and its children that ended) and of every
    process under it (with the children they reaped)."""
    if _PROC_CHILDREN:
        return sum(_stat_cpu(pid) for pid in _tree(os.getpid()))
    processes = [psutil.Process()]
    with contextlib.suppress(psutil.Error):
        processes += processes[0].children(recursive=True)
    total = 0.0
    for p in processes:
        with contextlib.suppress(psutil.Error):
            t = p.cpu_times()
            total += t.user + t.system + t.children_user + t.children_system
    return total


#: Linux lists a thread's children in /proc/PID/task/TID/children: walking the tree from
#: there reads a few files, where psutil reads every process of the machine.
_PROC_CHILDREN = os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children")
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _tree(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        with contextlib.suppress(OSError):
            for tid in os.listdir(f"/proc/{p}/task"):
                with contextlib.suppress(OSError), open(f"/proc/{p}/task/{tid}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
    return found


def _stat_cpu(pid: int) -> float:
    """utime + stime + cutime + cstime of /proc/PID/stat, in seconds (0 once it ended)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(b")") + 2:].split()
    return sum(int(x) for x in fields[11:15]) / _TICKS


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("speed guard")
    group.addoption("--speed-limit", type=float, default=LIMITS[0], metavar="S",
                    help="CPU seconds a test may cost unless marked slow (0: no guard)")
    group.addoption("--speed-limit-browser", type=float, default=LIMITS[1], metavar="S",
                    help="CPU seconds a browser test may cost unless marked slow")


def pytest_configure(config: pytest.Config) -> None:
    unclosed.install()
    config.addinivalue_line(
        "markers", "slow(reason): costs more than the speed guard's limit, and says why "
                   "(tests/speed_guard.py)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        marker = item.get_closest_marker("slow")
        if marker is not None and not _reason(marker):
            raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.slow needs a reason "
                                    f"(why this test may cost more than the limit)")


def _reason(marker: pytest.Mark) -> str | None:
    reason = marker.kwargs.get("reason") or (marker.args[0] if marker.args else None)
    return str(reason) if reason else None


def _limit(item: pytest.Item) -> float:
    config = item.config
    if item.get_closest_marker("browser") is not None:
        return float(config.getoption("--speed-limit-browser"))
    return float(config.getoption("--speed-limit"))


def _settle() -> None:
    """Collect what earlier tests left unreachable and freeze what they keep: the cyclic
    garbage collector's full collections then walk only what this test made. A worker
    holds more with each test (caches, modules, widgets: 620,000 objects after 540 tests),
    and a full collection walks it all, at the cost of whichever test's allocations set
    it off (0.4 s of CPU on an idle machine; the same test cost 0.4 s alone and 3.3 s in a
    worker of a busy run). What the test's fixtures made is frozen with the rest: a test
    that needs the collector to free a cycle made before its call unfreezes first
    (``gc.unfreeze()``). What a test leaves to the collector is finalized here, at the next
    test's start: a test closes what it opens; a zmq context dropped unclosed, whose
    finalizer could wait for ever, fails this test with the name of the one that made it
    (tests/unclosed.py)."""
    gc.collect()
    gc.freeze()
    _fail_if_dropped()


def _fail_if_dropped() -> None:
    """Fail the test now running with the zmq contexts dropped unclosed since the last look
    (after a collection: tests/unclosed.py)."""
    dropped = unclosed.left()
    if dropped:
        pytest.fail("\n".join(dropped), pytrace=False)


def pytest_runtest_logstart(nodeid: str, location: tuple[str, int | None, str]) -> None:
    unclosed.running = nodeid  # the test whose setup, call or teardown makes a context


def pytest_runtest_logfinish(nodeid: str, location: tuple[str, int | None, str]) -> None:
    unclosed.running = ""  # after it: the session's own end


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After the last test a process runs (no next test to fail), its own teardown fails
    with a zmq context it or an earlier test dropped unclosed."""
    result = yield
    if nextitem is None:
        gc.collect()
        _fail_if_dropped()
    return result


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    _settle()
    cpu, delay, wall = tree_cpu(), tree_delay(), time.perf_counter()
    yield
    wall = time.perf_counter() - wall
    cpu = max(0.0, tree_cpu() - cpu)
    waited = max(0.0, wall - cpu - max(0.0, tree_delay() - delay))
    item.stash[_MEASURED] = (cpu, wall, waited)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, pluggy.Result[pytest.TestReport], None]:
    outcome = yield
    if call.when != "call":
        return
    report: pytest.TestReport = outcome.get_result()
    measured = item.stash.get(_MEASURED, None)
    if measured is None:
        return
    cpu, wall, waited = measured
    limit = _limit(item)
    marker = item.get_closest_marker("slow")
    reason = _reason(marker) if marker is not None else None
    crowding = _crowding()
    report.user_properties.append((_KEY, (cpu, wall, limit, reason,
                                           os.environ.get("PYTEST_XDIST_WORKER", ""),
                                           time.time(), waited, crowding)))
    if limit <= 0 or reason is not None or not report.passed:
        return
    if cpu > limit * TOLERANCE:
        why = (f"cost {cpu:.1f} s of CPU (its processes'; limit {limit:g} s, failing past "
               f"{limit * TOLERANCE:g} s)")
    elif waited > WAIT_FACTOR * limit * crowding:
        why = (f"took {wall:.1f} s, {waited:.1f} s of it waiting (neither computing nor "
               f"waiting for a core; limit {WAIT_FACTOR * limit * crowding:.0f} s)")
    else:
        return
    report.outcome = "failed"
    report.longrepr = (f"speed guard: {item.nodeid} {why}. Make it cheaper, move its large "
                       f"version to benchmarks/, or mark it "
                       f"@pytest.mark.slow(reason=...) (tests/speed_guard.py)")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    for key, value in report.user_properties:
        if key == _KEY and report.when == "call":
            # user_properties hold any objects: these are the ones appended above.
            cpu, wall, limit, reason, worker, ended, waited, crowding = cast(
                tuple[float, float, float, str | None, str, float, float, float], value)
            _COSTS.append(Cost(report.nodeid, cpu, wall, limit, reason, worker, ended,
                               waited, crowding))


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    if not _COSTS or hasattr(config, "workerinput"):
        return
    write = terminalreporter.write_line
    terminalreporter.section("the costliest tests (speed guard: CPU s of the test's processes)")
    for c in sorted(_COSTS, key=lambda c: -c.cpu)[:SHOWN]:
        mark = f"  [slow: {c.reason}]" if c.reason else ""
        write(f"{c.cpu:7.1f} s CPU {c.wall:7.1f} s wall  {c.nodeid}{mark}")
    over = [c for c in _COSTS if not c.reason and 0 < c.limit < c.cpu]
    for c in sorted(over, key=lambda c: -c.cpu):
        write(f"over its budget ({c.limit:g} s; it fails past {c.limit * TOLERANCE:g} s): "
              f"{c.cpu:.1f} s CPU  {c.nodeid}")
    total_cpu = sum(c.cpu for c in _COSTS)
    marked = [c for c in _COSTS if c.reason]
    write(f"{len(_COSTS)} tests, {total_cpu:.0f} s of CPU in all; {len(marked)} marked "
          f"slow, {sum(c.cpu for c in marked):.0f} s of it")
    if os.environ.get("NIDAVELLIR_COSTS"):
        import json

        with open(os.environ["NIDAVELLIR_COSTS"], "w", encoding="utf-8") as f:
            json.dump([c.__dict__ for c in _COSTS], f, indent=0)
