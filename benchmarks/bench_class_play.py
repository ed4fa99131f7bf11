"""A class playing at once (issue 58): N learners each play a game against bots in the Play
tab, asking for the Hint at every decision, all on one class server.

    python benchmarks/bench_class_play.py --learners 10 [--bots medium] [--coach quick]
        [--coach-ahead off] [--live-charts off] [--decisions 0] [--think-nice 5] [--json]

The server is started as a teacher starts it (``python -m nidavellir.serve --class-size
N --class-dir ...``, with the Play tab's settings: ``--coach-level``, ``--coach-ahead``,
``--live-charts``), and the benchmark waits for "The class can come in". Each learner is
a dashboard page played at the protocol level (tests/class_students.py: the page, the
kernel websocket, every widget model, the page extension's class outbox), with no browser
on the server's cores; the learners start together. Each learner:

1. opens the Play tab and starts a new game: three players, itself against two bots of
   ``--bots`` (the setup card's menu: easy, medium, hard, expert), a seed of its own, no
   pause between the bots' moves;
2. at each of its decisions presses **Hint** and waits for it (the *Hint wait*: from the
   click to the Hint's text on the page), then clicks the Hint's move: the coach's move,
   the first button above the decision's own (the Hint names the move in words only), or
   the decision's one move (an end-of-age summary is closed with *Continue*); the time
   from that click to its next decision on the page is the *bot wait* (the bots' moves,
   the page's redraws, the live charts when on);
3. meanwhile the page's own answer is measured: the time from the page changing a field
   (a space typed into the notation box, then taken out) to the kernel's echo of it
   (*page echo*: how responsive the page stays while the server is saturated).

Reported: the Hint wait and the bot wait (median, p90, max over every decision of every
learner), the page echo (median, p90), the CPU seconds of a learner's kernel per game (or
per decision with ``--decisions K``: only the first K decisions of each game), the server
process's CPU, the machine's load before and after, and the games finished. docs/serving.md
turns the figures into learners per core; benchmarks/README.md has them.

Costs a lot: ten learners playing whole games with the Hint at the coach's usual level is
tens of CPU-minutes. Nothing here waits for a fixed time: every wait is for a state, with
a patience as the safety net (``--patience``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from class_students import KernelLost, Page, Record, Storage, kernel_process  # noqa: E402
from servers import start_voila, stop_voila, wait_until  # noqa: E402

#: The dashboard's Play tab (widgets/dashboard.py, TABS).
PLAY_TAB = 1
#: The setup card's seat menu (nidavellir/play/session.py, SEAT_MENU): a level's index.
SEAT_INDEX = {"human": 0, "easy": 1, "medium": 2, "hard": 3, "expert": 4, "montecarlo": 5}
#: The Play tab's widgets a learner uses (the tab's models come one by one).
PLAY_WIDGETS = ("nid-new-start", "nid-seat-kind-2", "nid-new-bot-delay", "nid-setup-levels",
                "nid-decision", "nid-hint", "nid-hint-text", "nid-notation",
                "nid-summary-continue")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def spread(values: list[float]) -> dict[str, float | int]:
    if not values:
        return {"n": 0}
    return {"n": len(values), "median": round(statistics.median(values), 2),
            "p90": round(percentile(values, 0.9), 2), "max": round(max(values), 2)}


class PlayPage(Page):
    """A dashboard page that also notes when the kernel echoes a field's change."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.echoed: dict[str, float] = {}

    def _handle(self, msg: dict[str, Any]) -> None:
        content = msg.get("content", {})
        if msg["header"]["msg_type"] == "comm_msg" and \
                content.get("data", {}).get("method") == "echo_update":
            self.echoed[content.get("comm_id", "")] = time.monotonic()
        super()._handle(msg)


@dataclass
class Played:
    """What one learner measured."""

    hint_waits: list[float] = field(default_factory=list)
    bot_waits: list[float] = field(default_factory=list)
    echoes: list[float] = field(default_factory=list)
    decisions: int = 0
    finished: bool = False
    cpu_s: float = 0.0
    problem: str = ""


class Learner:
    """One learner playing a game with the Hint at every decision (module docstring)."""

    def __init__(self, index: int, url: str, database: Path, patience: float, bots: str,
                 decisions: int, seed: int) -> None:
        self.index = index
        self.page = PlayPage(url, Storage(), Record(), database, patience)
        self.bots = bots
        self.limit = decisions
        self.seed = seed
        self.played = Played()

    def one(self, css: str, within: str | None = None) -> str:
        found = self.page.find(css, within)
        assert found, f"no widget {css} on the page"
        return found[0]

    def value(self, model: str, name: str = "value") -> Any:
        return self.page.models.get(model, {}).get(name)

    def _prompt(self) -> str:
        decision = self.one("nid-decision")
        children = self.value(decision, "children") or []
        return str(self.value(children[0][len("IPY_MODEL_"):])) if children else ""

    def _state(self) -> str:
        """``mine``, ``summary``, ``over`` or ``wait`` (a bot thinks, or the page is
        not redrawn yet)."""
        prompt = self._prompt()
        if "The game is over" in prompt:
            return "over"
        if "The age is over" in prompt:
            return "summary"
        if "nid-prompt-help" in prompt and self.value(self.one("nid-hint"), "disabled") is False:
            return "mine"
        return "wait"

    def _moves(self) -> int:
        for css in self.page.models.get(self.one("nid-decision"), {}).get("_dom_classes", []):
            if css.startswith("nid-moves-"):
                return int(css[len("nid-moves-"):])
        return -1

    async def _start(self) -> None:
        page = self.page
        await page.open()
        (tabs,) = page.find("nid-tabs")
        await page.set(tabs, selected_index=PLAY_TAB)
        await page.until(lambda: all(page.find(css) for css in PLAY_WIDGETS),
                         "the Play tab is on the page")
        for seat in (1, 2):
            await page.set(self.one(f"nid-seat-kind-{seat}"), index=SEAT_INDEX[self.bots])
        await page.set(self.one("nid-new-bot-delay"), value=0.0)
        seed = next(m for m, s in page.models.items() if s.get("_model_name") == "IntTextModel"
                    and s.get("description") == "Seed")
        await page.set(seed, value=self.seed)
        # The dashboard's first game has a medium and an easy bot: the new one's levels
        # (and their help under the summary) differ.
        levels = self.one("nid-setup-levels")
        before = self.value(levels)
        await page.click(self.one("nid-new-start"))
        await page.until(lambda: self.value(levels) != before, "the new game started")

    async def _hinted(self, moves: int, only: bool) -> str:
        """The button of the Hint's move at the decision after ``moves`` decisions: the
        coach's first pick (``nid-coach-best``), or with ``only`` the decision's one move."""
        at = f"nid-at-{moves}"

        def found() -> list[str]:
            css = "nid-choice" if only else "nid-coach-best"
            return [m for m in self.page.find(css, self.one("nid-decision"))
                    if at in self.page.models[m].get("_dom_classes", [])]

        await self.page.until(lambda: bool(found()), "the Hint's move on the page")
        return found()[0]

    def _cpu(self) -> float:
        process = kernel_process(self.page.kernel)
        if process is None:
            return 0.0
        times = process.cpu_times()
        return float(times.user + times.system)

    async def run(self) -> Played:
        page, played = self.page, self.played
        try:
            await self._start()
            cpu = self._cpu()
            while True:
                await page.until(lambda: self._state() != "wait", "a decision of the learner")
                state = self._state()
                if state == "over":
                    played.finished = True
                    break
                if state == "summary":
                    await page.click(self.one("nid-summary-continue"))
                    await page.until(lambda: self._state() != "summary", "the summary closed")
                    continue
                if self.limit and played.decisions >= self.limit:
                    break
                hint_text = self.one("nid-hint-text")
                before = self._moves()
                asked = time.monotonic()
                await page.click(self.one("nid-hint"))
                await page.until(lambda h=hint_text: str(self.value(h)).startswith("<b>"),
                                 "the Hint")
                played.hint_waits.append(time.monotonic() - asked)
                # The Hint's move as the page offers it: the coach's move first, a button
                # above the decision's own (the Hint names the move in words, never in
                # notation); a decision with one legal move has no such row.
                only = "(the only legal move)" in str(self.value(hint_text))
                move = await self._hinted(before, only)
                # The page's answer to a typed field while the server is busy (the echo).
                notation = self.one("nid-notation")
                sent = time.monotonic()
                await page.set(notation, value=" ")
                await page.until(lambda n=notation, t=sent: page.echoed.get(n, 0) >= t,
                                 "the echo")
                played.echoes.append(page.echoed[notation] - sent)
                await page.set(notation, value="")
                applied = time.monotonic()
                await page.click(move)
                await page.until(lambda b=before: self._moves() > b and self._state() != "wait",
                                 "the learner's next decision")
                played.bot_waits.append(time.monotonic() - applied)
                played.decisions += 1
            played.cpu_s = self._cpu() - cpu
        except (KernelLost, AssertionError) as exc:
            played.problem = f"{type(exc).__name__}: {exc}"
        finally:
            await page.close()
        return played


async def play(url: str, database: Path, args: argparse.Namespace) -> list[Played]:
    learners = [Learner(i, url, database, args.patience, args.bots, args.decisions,
                        args.seed + i) for i in range(args.learners)]
    return list(await asyncio.gather(*(learner.run() for learner in learners)))


def measure(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="bench-play-"))
    folder = tmp / "class"
    extra = ["--class-dir", str(folder), "--class-size", str(args.learners), "--spares", "1",
             "--coach-level", args.coach, "--coach-ahead", args.coach_ahead,
             "--live-charts", args.live_charts]
    env = {"NIDAVELLIR_TEACHER_PASSWORD": "bench-" + uuid.uuid4().hex[:8],
           "NIDAVELLIR_THINK_NICE": str(args.think_nice)}
    out: dict[str, Any] = {
        "learners": args.learners, "bots": args.bots, "coach": args.coach,
        "coach_ahead": args.coach_ahead, "live_charts": args.live_charts,
        "think_nice": args.think_nice, "decisions_per_game": args.decisions or "all",
        "cores": os.cpu_count(), "load_before": [round(x, 2) for x in os.getloadavg()]}
    server = None
    kept = True  # the class folder (the database, the server's log) is kept on a failure
    try:
        server = start_voila("notebooks", tmp, extra=extra, env=env)
        start = time.monotonic()
        wait_until(lambda: "*** The class can come in" in server.log(), "the class is ready",
                   args.patience)
        out["class_ready_s"] = round(time.monotonic() - start, 1)
        voila = psutil.Process(server.process.pid)
        before = voila.cpu_times()
        start = time.monotonic()
        played = asyncio.run(play(server.url, folder / "answers.sqlite", args))
        out["wall_s"] = round(time.monotonic() - start, 1)
        after = voila.cpu_times()
        out["server_cpu_s"] = round(after.user + after.system - before.user - before.system, 1)
        out["load_after"] = [round(x, 2) for x in os.getloadavg()]
        kept = any(p.problem for p in played)
    finally:
        try:
            if server is not None:
                stop_voila(server)
        finally:
            if kept:
                print(f"the class folder and the server's log are kept in {tmp}",
                      file=sys.stderr)
            else:
                shutil.rmtree(tmp, ignore_errors=True)
    games = [p for p in played if not p.problem]
    out["problems"] = [p.problem for p in played if p.problem]
    out["games_finished"] = sum(p.finished for p in games)
    out["decisions"] = sum(p.decisions for p in games)
    out["hint_wait_s"] = spread([w for p in games for w in p.hint_waits])
    out["bot_wait_s"] = spread([w for p in games for w in p.bot_waits])
    out["page_echo_s"] = spread([w for p in games for w in p.echoes])
    cpus = [p.cpu_s for p in games if p.decisions]
    out["kernel_cpu_s_per_learner"] = spread(cpus)
    per_decision = [p.cpu_s / p.decisions for p in games if p.decisions]
    out["kernel_cpu_s_per_decision"] = round(statistics.fmean(per_decision), 2) \
        if per_decision else None
    out["server_cpu_s_per_learner"] = round(out["server_cpu_s"] / max(1, len(games)), 2)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=10)
    parser.add_argument("--bots", default="medium", choices=[k for k in SEAT_INDEX
                                                             if k != "human"])
    parser.add_argument("--coach", default="coach", help="the coach's level (quick, coach, "
                        "deep, search@N)")
    parser.add_argument("--coach-ahead", choices=("on", "off"), default="on")
    parser.add_argument("--live-charts", choices=("on", "off"), default="on")
    parser.add_argument("--decisions", type=int, default=0,
                        help="play only each game's first K decisions (0: the whole game)")
    parser.add_argument("--think-nice", type=int, default=5,
                        help="the bots' and the coach's threads this much lower (0: as the "
                        "pages; NIDAVELLIR_THINK_NICE)")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--patience", type=float, default=3600.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.learners < 1 or args.decisions < 0:
        parser.error("--learners must be at least 1 and --decisions at least 0")
    out = measure(args)
    if args.json:
        print(json.dumps(out))
    else:
        for key, value in out.items():
            print(f"{key}: {value}")
    return 0 if not out["problems"] else 1


if __name__ == "__main__":
    sys.exit(main())
