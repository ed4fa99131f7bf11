"""How long an answer takes to reach the teacher page with a class answering.

``python benchmarks/bench_class_view.py --students 30 --seconds 30``

- ``--students`` processes play the students' kernels: each writes its answers to the
  class's SQLite database (``nidavellir.classroom.store``) exactly as a dashboard does
  (one transaction per answer), one every 1–3 s at random, for ``--seconds``;
- the teacher page's handlers (``nidavellir.classroom.teacher.handlers``) serve on a local
  tornado server, and a poller asks ``/teacher/api/answers`` every ``--poll-ms`` (1000, as
  the page does), with the teacher's cookie.

Printed: answers written and seen (none may be missing), the time from an answer's commit
to the first poll that shows it (p50, p95, max: the goal is under 2 s) and the API's
response time (p50, p95, max). The students' kernels are processes here, not Voila
kernels: a browser and 30 kernels do not fit this 2-core machine beside the measurement
(docs/serving.md, "What is known of Voila here"), and the path measured, database to page, is the same.
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

STUDENT = r"""
import random, sys, time
from nidavellir.classroom.store import Answer, ClassStore

folder, i, start, stop = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
store = ClassStore(folder)
rng = random.Random(i)
while time.time() < start:
    time.sleep(0.005)
store.join(f"s{i}", f"student {i}")
k = 0
while time.time() < stop:
    time.sleep(rng.uniform(1.0, 3.0))
    store.record(Answer(student=f"s{i}", name=f"student {i}", question=f"bench/q{k % 5}",
                        answer=rng.random(), exact=0.43, kind="probability"))
    k += 1
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--poll-ms", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    import tornado.httpserver
    import tornado.netutil
    import tornado.web

    from nidavellir.classroom.store import ClassStore
    from nidavellir.classroom.teacher.auth import TeacherAuth
    from nidavellir.classroom.teacher.handlers import teacher_handlers

    folder = Path(tempfile.mkdtemp(prefix="class-view-bench-"))
    store = ClassStore(folder)
    store.join("warm-up")  # the database exists before the class comes in
    state: dict = {}
    ready = threading.Event()

    def serve() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        app = tornado.web.Application(teacher_handlers("/", store, TeacherAuth("bench-pw")))
        server = tornado.httpserver.HTTPServer(app)
        sockets = tornado.netutil.bind_sockets(0, "127.0.0.1")
        server.add_sockets(sockets)
        state.update(loop=loop, port=sockets[0].getsockname()[1])
        ready.set()
        loop.run_forever()

    threading.Thread(target=serve, daemon=True).start()
    ready.wait(10)
    url = f"http://127.0.0.1:{state['port']}/teacher/"
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(
        http.cookiejar.CookieJar()))
    opener.open(url + "login", data=urllib.parse.urlencode({"password": "bench-pw"}).encode())

    start = time.time() + 3
    stop = start + args.seconds
    procs = [subprocess.Popen([sys.executable, "-c", STUDENT, str(folder), str(i), str(start),
                               str(stop)], cwd=ROOT) for i in range(args.students)]
    seen: dict[tuple[str, str, float], float] = {}
    api: list[float] = []
    while time.time() < stop + 4:
        t0 = time.time()
        with opener.open(url + "api/answers") as r:
            data = json.loads(r.read())
        api.append(time.time() - t0)
        for q in data.get("questions", []):
            for a in q["answers"]:
                seen.setdefault((q["question"], a["student"], a["answer"]), time.time())
        time.sleep(max(0.0, args.poll_ms / 1000 - (time.time() - t0)))
    for p in procs:
        p.wait(60)
    answers = [a for a in store.answers() if a.question.startswith("bench/")]
    delays = []
    missing = 0
    latest: dict[tuple[str, str], float] = {}
    for a in answers:  # the page shows each student's latest answer per question
        latest[(a.question, a.student)] = a.at
    for a in answers:
        key = (a.question, f"student {a.student[1:]}", a.answer)
        if key in seen:
            delays.append(seen[key] - a.at)
        elif latest[(a.question, a.student)] == a.at:
            missing += 1  # a latest answer the page never showed
    out = {
        "students": args.students, "seconds": args.seconds, "poll_ms": args.poll_ms,
        "answers_written": len(answers),
        "latest_answers_never_shown": missing, "shown": len(delays),
        "delay_p50_s": statistics.median(delays), "delay_p95_s": percentile(delays, 0.95),
        "delay_max_s": max(delays),
        "api_p50_ms": 1000 * statistics.median(api), "api_p95_ms": 1000 * percentile(api, 0.95),
        "api_max_ms": 1000 * max(api),
    }
    state["loop"].call_soon_threadsafe(state["loop"].stop)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"{args.students} students for {args.seconds:.0f} s, the page polling every "
              f"{args.poll_ms} ms: {out['answers_written']} answers written, "
              f"{out['shown']} seen on the page, {missing} latest answers never shown")
        print(f"answer to page: p50 {out['delay_p50_s']:.2f} s, p95 {out['delay_p95_s']:.2f} s, "
              f"max {out['delay_max_s']:.2f} s (goal: under 2 s)")
        print(f"API response: p50 {out['api_p50_ms']:.1f} ms, p95 {out['api_p95_ms']:.1f} ms, "
              f"max {out['api_max_ms']:.1f} ms")
    return 0 if missing == 0 and out["delay_max_s"] < 2.0 else 1


if __name__ == "__main__":
    sys.exit(main())
