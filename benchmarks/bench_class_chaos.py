"""A class that loses no answer and cannot be abused (issue 42), measured.

    python benchmarks/bench_class_chaos.py --students 30              # the chaos
    python benchmarks/bench_class_chaos.py --storm --seconds 20       # wrong passwords

**The chaos** (default): the server as ``make run CLASS=N CLASS_DIR=...`` starts it, N
students played at the protocol level (tests/class_students.py: the dashboard page and
the page extension's outbox over HTTP and the kernel websocket), the class database
locked 3 s and then 12 s (longer than a kernel's 10 s wait: writes fail and are kept), and
kernels killed with SIGKILL (3 during the first lock, 4 during the second, preferably of
pages holding an answer the database lacks, 3 after), and the server restarted once during
the long lock, after its kills (issue 58; ``--restart unlocked``: right after the long
lock, the database free again; ``--restart off``: none): the class has a password, which
each page gives once, when it first comes. Reported: answers stored, answers
lost (held by a page and not stored), answers stored twice, "stored" heard for an answer
the database lacked, and per killed kernel the time from the kill to its page noticing it
and to the page being usable again (back on the student's lesson and step); for the
restart, the pages that had a kernel then, how many came back by themselves, the time from
the stop to each being usable again, and how often a page gave the password; the load
average sampled every 5 s during the chaos.

**The storm** (``--storm``): a server with both passwords; for ``--seconds`` one client
address (127.0.0.2) sends wrong passwords as fast as ``--threads`` connections can (half
the teacher's form, half ``?token=`` links), while another (127.0.0.1) does what a class
does (a page's heartbeat, a static file) and, half-way, the teacher logs in. Reported:
the tries the server checked (before and after the lockout, per second), the tries
refused unchecked, and the class's response times before, during and after the storm.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import re
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from class_students import QUESTIONS, chaos  # noqa: E402
from servers import PATIENCE_S, start_voila, stop_voila, wait_until  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


PASSWORD = "bench-class"


def tree_cpu(server: Any) -> float:
    """CPU seconds of the server's processes alive now (the server, the kernel fork server,
    the kernels; a kernel killed or shut down earlier no longer counts)."""
    import psutil

    total = 0.0
    try:
        root = psutil.Process(server.process.pid)
        processes = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def run_chaos(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="bench-chaos-"))
    folder = tmp / "class"
    extra = ["--class-dir", str(folder), "--class-size", str(args.students), "--spares", "3",
             "--refill-quiet", "2", *args.server_option]
    env = {"NIDAVELLIR_TEACHER_PASSWORD": "bench-teacher", "NIDAVELLIR_PASSWORD": PASSWORD}
    servers = [start_voila("notebooks", tmp, extra=extra, env=env)]
    restart_s: list[float] = []
    logs: list[str] = []

    cpu: list[float] = []

    def restart() -> None:
        """The server stops (every kernel with it) and starts again at the same address,
        as a teacher restarts `make run`; the pages must come back by themselves."""
        logs.append(servers[-1].log())
        cpu.append(tree_cpu(servers[-1]))
        began = time.monotonic()
        stop_voila(servers[-1])
        stopped = time.monotonic()
        servers.append(start_voila("notebooks", tmp, extra=extra, env=env,
                                   port=servers[0].port))
        wait_until(lambda: "*** The class can come in" in servers[-1].log(),
                   "the restarted class is ready")
        restart_s.extend([time.monotonic() - began, stopped - began])

    loads: list[float] = []
    sampling = threading.Event()

    def sample_load() -> None:
        while not sampling.wait(5.0):
            loads.append(os.getloadavg()[0])

    sampler = threading.Thread(target=sample_load, daemon=True)
    try:
        start = time.monotonic()
        wait_until(lambda: "*** The class can come in" in servers[0].log(), "the class is ready")
        ready = time.monotonic() - start
        start = time.monotonic()
        sampler.start()
        done = asyncio.run(chaos(servers[0].url, folder / "answers.sqlite", args.students,
                                 tuple(args.kills), 3.0, 12.0, PATIENCE_S, args.seed,
                                 password=PASSWORD,
                                 restart=None if args.restart == "off" else restart,
                                 restart_locked=args.restart == "locked"))
        took = time.monotonic() - start
        logs.append(servers[-1].log())
        cpu.append(tree_cpu(servers[-1]))
    finally:
        sampling.set()
        stop_voila(servers[-1])
    with sqlite3.connect(folder / "answers.sqlite") as db:
        uids = [r[0] for r in db.execute("SELECT uid FROM answers")]
    db.close()
    held = set().union(*(s.record.held for s in done.students))
    losses = {k: (n, u) for s in done.students for k, n, u in s.record.losses}
    noticed = [losses[k][0] - t for k, t in done.killed.items() if k in losses]
    usable = [losses[k][1] - t for k, t in done.killed.items() if k in losses]
    back = done.back_after_restart()
    restarted: dict[str, Any] = {}
    if args.restart != "off":
        restarted = {
            "restart: stop, then start to class ready s": [
                round(restart_s[1], 1), round(restart_s[0] - restart_s[1], 1)]
            if restart_s else None,
            "restart: pages with a kernel, holding an unstored answer": [
                len(done.restart_kernels), done.restart_holding],
            "restart: pages back on a new kernel": len(back),
            "restart: usable again s (median, p95, max)": [
                round(statistics.median(back), 2), round(percentile(back, 0.95), 2),
                round(max(back), 2)] if back else None,
            "class password given per page (max)": max(s.page.logins for s in done.students),
        }
    return {
        "students": args.students, "class ready s": round(ready, 1), "chaos s": round(took, 1),
        "answers expected": args.students * len(QUESTIONS), "answers stored": len(uids),
        "answers lost": len(held - set(uids)), "stored twice": len(uids) - len(set(uids)),
        "stored but not held": len(set(uids) - held),
        "said stored, database lacked": sum(len(s.record.stored_but_missing)
                                            for s in done.students),
        "kernels killed": len(done.killed), "killed holding an unstored answer": done.holding,
        "kills not noticed": len(set(done.killed) - set(losses)),
        "noticed s (median, p95, max)": [round(statistics.median(noticed), 2),
                                         round(percentile(noticed, 0.95), 2),
                                         round(max(noticed), 2)] if noticed else None,
        "usable again s (median, p95, max)": [round(statistics.median(usable), 2),
                                              round(percentile(usable, 0.95), 2),
                                              round(max(usable), 2)] if usable else None,
        **restarted,
        "tracebacks in the server logs": sum(log.count("Traceback") for log in logs),
        "CPU s: the students' pages (this process), the servers (alive at the end)": [
            round(sum(os.times()[:2]), 1), round(sum(cpu), 1)],
        "load average during the chaos (min, median, max)": [
            round(min(loads), 1), round(statistics.median(loads), 1), round(max(loads), 1)]
        if loads else None,
    }


def request(port: int, source: str, method: str, path: str, body: str = "",
            headers: dict[str, str] | None = None) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    try:
        conn.request(method, path, body=body or None, headers=headers or {})
        r = conn.getresponse()
        return r.status, r.read().decode(errors="replace")
    finally:
        conn.close()


def run_storm(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="bench-storm-"))
    server = start_voila("notebooks", tmp, extra=["--class-dir", str(tmp / "class")],
                         env={"NIDAVELLIR_PASSWORD": "bench-class",
                              "NIDAVELLIR_TEACHER_PASSWORD": "bench-teacher"})
    try:
        wait_until(lambda: "Kernel pool of dashboard.ipynb is filled" in server.log(),
                   "the pool filled")
        port = server.port
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/voila/render/dashboard.ipynb?token=bench-class")
        page = conn.getresponse()
        cookie = "; ".join(v.split(";")[0] for k, v in page.getheaders()
                           if k.lower() == "set-cookie")
        found = re.search(r'"kernelId": "([0-9a-f-]{36})"', page.read().decode())
        assert found
        kernel = found.group(1)
        conn.close()

        def class_once() -> float:
            start = time.perf_counter()
            for path in (f"/nidavellir/api/page/{kernel}", "/voila/static/voila.js"):
                status, _ = request(port, "127.0.0.1", "GET", path, headers={"Cookie": cookie})
                assert status in (200, 204), (path, status)
            return time.perf_counter() - start

        quiet = [class_once() for _ in range(args.samples)]
        stop = threading.Event()
        locked_at: list[float] = []
        counts = {"teacher": 0, "class": 0, "429": 0}
        lock = threading.Lock()

        def storm(kind: str) -> None:
            while not stop.is_set():
                if kind == "teacher":
                    status, body = request(port, "127.0.0.2", "POST", "/teacher/login",
                                           urllib.parse.urlencode({"password": "guess"}),
                                           {"Content-Type": "application/x-www-form-urlencoded"})
                else:
                    status, body = request(port, "127.0.0.2", "GET", "/?token=guess")
                with lock:
                    counts[kind] += 1
                    counts["429"] += status == 429
                    if "Too many wrong passwords" in body and not locked_at:
                        locked_at.append(time.monotonic())
                        locked_at.append(float(checked()))

        def checked() -> int:
            log = server.log()
            return log.count("Wrong teacher password from") + log.count("Wrong class password from")

        threads = [threading.Thread(target=storm, args=("teacher" if i % 2 else "class",),
                                    daemon=True) for i in range(args.threads)]
        started = time.monotonic()
        for t in threads:
            t.start()
        loud: list[float] = []
        teacher_in = None
        while time.monotonic() - started < args.seconds:
            loud.append(class_once())
            if teacher_in is None and time.monotonic() - started > args.seconds / 2:
                status, _ = request(port, "127.0.0.1", "POST", "/teacher/login",
                                    urllib.parse.urlencode({"password": "bench-teacher"}),
                                    {"Content-Type": "application/x-www-form-urlencoded"})
                teacher_in = status == 302
        stop.set()
        for t in threads:
            t.join(60)
        ended = time.monotonic()
        total_checked = checked()
        quiet_after = [class_once() for _ in range(args.samples)]
    finally:
        stop_voila(server)
    after = (total_checked - int(locked_at[1])) if locked_at else None
    seconds_after = ended - locked_at[0] if locked_at else None
    return {
        "storm s": args.seconds, "storm connections": args.threads,
        "tries sent": counts["teacher"] + counts["class"], "tries checked": total_checked,
        "tries refused unchecked": counts["teacher"] + counts["class"] - total_checked,
        "locked out after s": round(locked_at[0] - started, 1) if locked_at else None,
        "tries checked after the lockout": after,
        "checked per s after the lockout": round(after / seconds_after, 2) if after is not None
        and seconds_after else None,
        "teacher (another address) logged in during the storm": teacher_in,
        "class request ms, quiet before (p50, p95)": [
            round(1000 * statistics.median(quiet), 1), round(1000 * percentile(quiet, 0.95), 1)],
        "class request ms, quiet after (p50, p95)": [
            round(1000 * statistics.median(quiet_after), 1),
            round(1000 * percentile(quiet_after, 0.95), 1)],
        "class request ms, storm (p50, p95)": [round(1000 * statistics.median(loud), 1),
                                               round(1000 * percentile(loud, 0.95), 1)],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--kills", type=int, nargs=3, default=[3, 4, 3], metavar="N",
                        help="kills during the short lock, the long lock, after them")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--restart", choices=("locked", "unlocked", "off"), default="locked",
                        help="restart the server once during the long lock (locked, the "
                             "default), right after it (unlocked), or never (off)")
    parser.add_argument("--storm", action="store_true", help="measure the wrong-password storm")
    parser.add_argument("--seconds", type=float, default=90.0,
                        help="the storm (the lockout comes after 10 failures: about 50 s)")
    parser.add_argument("--threads", type=int, default=20)
    parser.add_argument("--samples", type=int, default=50)
    parser.add_argument("--server-option", action="append", default=[], metavar="OPTION",
                        help="a server option (--Class.trait=value), as many times as needed: "
                             "--server-option=--ClassKernelManager.fork_kernels=False starts "
                             "each kernel the usual way")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run_storm(args) if args.storm else run_chaos(args)
    result["load average at the end"] = [round(x, 1) for x in os.getloadavg()]
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>45}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
