"""The class-play benchmark still plays (issue 58): it drives a learner through the Play
tab at the protocol level by what the page shows (the Hint's move is the coach's first
button), so a change to the page can break it unseen; it did once, when the Hint stopped
naming its move's notation, and waited out its patience on every decision.

One learner, easy bots, the coach at a small fixed budget, three decisions: the benchmark's
own code (``benchmarks/bench_class_play.py``, run as its command is) against a real class
server. What it must report: the three decisions played, a Hint wait and a bot wait for
each, the page's echo, the learner's kernel CPU, and no problem. Its figures are not
judged here (they are the benchmark's, benchmarks/README.md).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from servers import PATIENCE_S

ROOT = Path(__file__).resolve().parent.parent
DECISIONS = 3


@pytest.mark.slow(reason="a class server with one kernel, and a learner playing three "
                        "decisions with the Hint at each")
def test_the_class_play_benchmark_plays_a_learners_decisions_with_the_hint() -> None:
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_class_play.py"),
               "--learners", "1", "--bots", "easy", "--coach", "search@6",
               "--coach-ahead", "off", "--live-charts", "off",
               "--decisions", str(DECISIONS), "--patience", "240", "--json"]
    # Its own waits have the tests' patience (the server's start, the class ready, a
    # learner's next state); past them all, it is interrupted as Ctrl-C would, so that it
    # stops its server and says where it kept the server's log.
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        stdout, stderr = process.communicate(timeout=3 * PATIENCE_S + 120)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGINT)
        try:
            stdout, stderr = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            stdout, stderr = process.communicate()
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    assert process.returncode == 0 and lines, (
        f"the benchmark ended with {process.returncode}:\n{stdout[-2000:]}\n"
        f"{stderr[-2000:]}")
    out = json.loads(lines[-1])
    assert out["problems"] == []
    assert out["decisions"] == DECISIONS
    assert out["hint_wait_s"]["n"] == DECISIONS
    assert out["bot_wait_s"]["n"] >= DECISIONS - 1
    assert out["page_echo_s"]["n"] >= 1
    assert out["kernel_cpu_s_per_learner"]["n"] == 1
