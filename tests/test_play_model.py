"""The Play tab's model without its widgets (issue 43, item 7): a plain object holds the game,
the seats, undo, the bots' turns on a runner's thread, the messages and the coach's
judgement; the widgets are views over it (``widgets.session.Console``, ``widgets.coach.Coach``)
and a process that never imports ipywidgets plays a whole game through it."""

from __future__ import annotations

import html
import json
import subprocess
import sys
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from types import TracebackType

import pytest

from nidavellir.bots import make_bot
from nidavellir.bots.judge import move_words
from nidavellir.play import Judging, MessageLog, Observable, Observed, Runner, Session

ROOT = Path(__file__).resolve().parent.parent

# A learner's whole game in a process where ipywidgets and traitlets cannot be imported: the
# bots think on the runner's thread, the learner follows the Hint at every decision, undoes
# one move on the way, and the score sheet ends the game.
WHOLE_GAME = r"""
import json, sys
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("ipywidgets", "traitlets", "widgets", "pandas", "plotly"):
            raise ImportError(name + " is blocked")
sys.meta_path.insert(0, Blocker())
from nidavellir.bots import make_bot
from nidavellir.play import Judging, Session
s = Session.from_config({"players": 3, "seats": ["human", "easy", "medium"], "seed": 11},
                        auto_forced=True, age_summaries=True, background=True)
coach = Judging(s, level="search@6")
versions, hints, undone = [], 0, False
s.observe(lambda c: versions.append(c["new"]), "version")
while not s.game.is_over:
    s.wait()
    if s.summary_age:
        s.read_summary()
        continue
    if s.game.is_over:
        break
    assert s.waiting_for_human, s.game.decision
    coach.ask_hint()
    coach.wait()
    hint = coach.hint
    assert hint is not None and hint is coach.current(), "the Hint speaks from the judgement"
    hints += 1
    assert s.submit(hint.best), s.console.last
    if hints == 5 and not undone:
        undone = s.undo()
print(json.dumps({"hints": hints, "undone": undone, "versions": len(versions),
                  "rising": versions == sorted(versions),
                  "totals": s.game.scores().totals,
                  "loaded": sorted(m for m in ("ipywidgets", "traitlets") if m in sys.modules)}))
"""


@pytest.mark.slow(reason="a whole game in a fresh interpreter, the Hint at every decision: "
                        "about 3 s of CPU")
def test_a_whole_game_is_played_through_the_model_without_any_widget() -> None:
    done = subprocess.run([sys.executable, "-c", WHOLE_GAME], capture_output=True, text=True,
                          cwd=ROOT, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["loaded"] == []
    assert result["undone"] is True
    assert result["hints"] > 20  # every decision of the learner, and the undone one again
    assert result["rising"] and result["versions"] > result["hints"]
    assert len(result["totals"]) == 3


class Counter(Observable):
    value: Observed[int] = Observed(0)
    name: Observed[str] = Observed("")


def test_observers_hear_each_change_once_and_only_changes() -> None:
    c = Counter()
    seen: list[tuple[str, object, object]] = []

    def handler(change: dict) -> None:
        seen.append((change["name"], change["old"], change["new"]))

    c.observe(handler, ["value", "name"])
    c.value = 1
    c.value = 1  # no change, nothing said
    c.name = "x"
    c.value += 1
    assert seen == [("value", 0, 1), ("name", "", "x"), ("value", 1, 2)]
    c.unobserve(handler, "value")
    c.value = 5
    assert seen[-1] == ("value", 1, 2)
    with pytest.raises(AttributeError, match="no observed value 'colour'"):
        c.observe(handler, "colour")
    assert Counter().value == 0  # the default, per instance


def test_the_message_log_keeps_the_newest_and_drops_errors_after_a_good_move() -> None:
    log = MessageLog(limit=3)
    told: list[int] = []
    log.observe(lambda c: told.append(len(c["new"])), "entries")
    for i in range(4):
        log.info(f"note {i}")
    log.error("bad")
    assert log.messages == ["note 2", "note 3", "Error: bad"] and log.last == "Error: bad"
    log.clear_errors()
    assert log.messages == ["note 2", "note 3"]
    assert told[-1] == 2


def test_the_runner_runs_one_piece_of_work_per_generation() -> None:
    release = threading.Event()
    runs: list[int] = []
    r = Runner("test")

    def work(n: int) -> None:
        runs.append(n)
        release.wait(10)

    assert r.start(1, lambda: work(1)) is True
    assert r.start(1, lambda: work(2)) is False  # already thinking about generation 1
    assert r.busy(1) and not r.busy(2)
    release.set()
    r.wait(10)
    assert runs == [1] and not r.busy()
    failures: list[BaseException] = []
    r2 = Runner("failing", on_error=failures.append)

    def failing() -> None:
        raise ZeroDivisionError("division by zero")

    r2.start(1, failing)
    r2.wait(10)
    assert [type(f) for f in failures] == [ZeroDivisionError]


def test_a_bot_move_thought_for_an_undone_position_never_lands() -> None:
    """The runner's thread checks its generation before it plays: an undo (or a new game)
    while a bot thinks leaves the game exactly where the undo put it."""
    s = Session.from_config({"players": 2, "seats": ["human", "hard"], "seed": 5},
                            background=True)
    thinking = threading.Event()
    s.observe(lambda c: thinking.set() if c["new"] else None, "thinking")
    assert s.submit("bid 5 4 3")
    assert thinking.wait(30)
    assert s.undo_to(0)
    s.wait()
    assert len(s.game.history) == 0
    assert s.waiting_for_human


def test_the_judgement_starts_when_the_decision_appears_and_is_dropped_when_it_goes() -> None:
    s = Session.from_config({"players": 2, "seats": ["human", "random"], "seed": 1})
    j = Judging(s, level="search@20")
    j.wait()
    first = j.current()
    assert first is not None and first.player == 0
    assert j.ask_hint() == "shown" and j.hint is first and j.hints == 1
    assert s.submit(first.best)
    assert j.hint is None  # the Hint of the position the game has left
    j.wait()
    assert j.current() is not None and j.current() is not first
    done = Session.from_config({"players": 2, "seats": ["random", "random"], "seed": 1})
    assert Judging(done).ask_hint() == "over"


def test_the_widgets_are_views_of_the_model() -> None:
    """The page's console shows the model's messages; the coach panel's figures are the
    model's judgement."""
    from widgets.app import play_app

    app = play_app(players=2, seats=["human", "random"], seed=1, bot_delay=0,
                   coach={"level": "search@20"})
    assert app.console.message_log is app.session.console
    app.session.submit("bid 9 9 9")
    assert "bid 9 9 9" in app.console.value
    app.coach.wait()
    assert app.coach.judgement is app.coach.judging.current() is not None
    app.coach.hint_button.click()
    assert app.coach.judging.hint is not None
    # The hint names its move as the decision says it to the learner (in words).
    best = app.coach.judging.hint.best
    game = app.session.game
    words = move_words(game, game.legal_actions()).get(str(best), str(best))
    assert html.escape(words, quote=False) in app.coach.hint_text.value


def test_instant_bots_land_together_and_a_thinking_bot_gets_its_frame() -> None:
    """With no pause between bot moves, the board is redrawn before a bot that searches (so
    that "thinking" shows over the position it thinks about), not after each move of an
    instant bot: a game of two random bots is two frames, not eighty (the page took minutes
    to draw them all). The final position is always told."""
    def frames(second: str) -> tuple[int, int]:
        s = Session.from_config({"players": 2, "seats": ["easy", "easy"], "seed": 5},
                                background=True, autoplay=False)
        if second == "search":
            s.bots[1] = make_bot("search", 1, iterations=5)
        told: list[int] = []
        s.observe(lambda c: told.append(c["new"]), "version")
        s.play_bots()
        s.wait()
        assert s.game.is_over
        return len(told), len(s.game.history)

    told, moves = frames("easy")
    assert told <= 2 and moves > 60
    told, moves = frames("search")
    assert told > moves // 3  # before each of the searching bot's moves


def test_a_coach_that_does_not_judge_ahead_judges_when_the_hint_asks() -> None:
    """``ahead=False`` (NIDAVELLIR_COACH_AHEAD=0): no judgement starts when a decision
    appears; the Hint asks for one, and it is the same judgement as the ahead coach's."""
    s = Session.from_config({"players": 2, "seats": ["human", "random"], "seed": 3})
    lazy = Judging(s, level="search@10", ahead=False)
    lazy.wait()
    assert lazy.judgement is None and lazy.progress is None
    assert lazy.ask_hint() == "thinking"
    lazy.wait()
    eager = Judging(Session.from_config({"players": 2, "seats": ["human", "random"],
                                         "seed": 3}), level="search@10")
    eager.wait()
    hint = lazy.hint
    assert hint is not None and hint is lazy.judgement and eager.judgement is not None
    assert [(str(o.action), o.win) for o in hint.options] == \
        [(str(o.action), o.win) for o in eager.judgement.options]


class _Interleaved:
    """The session's lock, with one thing done just before it is first taken: what the page
    does between the bots' thread reading the position and playing (no thread, no sleep)."""

    def __init__(self, lock: AbstractContextManager[object],
                 before: Callable[[], object] | None) -> None:
        self.lock = lock
        self.before = before

    def __enter__(self) -> object:
        before, self.before = self.before, None
        if before is not None:
            before()
        return self.lock.__enter__()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> bool | None:
        return self.lock.__exit__(kind, error, trace)


def _at_a_forced_move(monkeypatch: pytest.MonkeyPatch) -> tuple[Session, int]:
    """A background session whose human seat (0) has one legal move, and the index of an
    earlier decision of that seat to undo to."""
    import random

    s = Session.from_config({"players": 3, "seats": ["human", "random", "random"], "seed": 2},
                            auto_forced=True, background=True, autoplay=False)
    monkeypatch.setattr(s, "play_bots", lambda: None)  # the test plays the bots' part itself
    rng = random.Random(0)
    game = s.game
    while True:
        d = game.decision
        assert d is not None, "no forced move for the human seat in this game"
        legal = game.legal_actions()
        earlier = [i for i, (p, _a) in enumerate(game.history) if p == 0]
        if d.player == 0 and len(legal) == 1 and earlier:
            return s, earlier[-1]
        game.apply(rng.choice(legal))


def test_a_forced_move_after_an_undo_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots' thread plays a learner's only legal move; an undo comes between its reading
    of the position and its move: the move is not played in the undone position."""
    s, earlier = _at_a_forced_move(monkeypatch)
    generation = s._generation
    monkeypatch.setattr(s, "_lock", _Interleaved(s._lock, lambda: s.undo_to(earlier)))
    s._play_bots_now(generation)
    assert len(s.game.history) == earlier  # where the undo put it, and no further
    assert not s.forced
    assert s.waiting_for_human


def test_a_click_after_the_forced_move_landed_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The learner clicks the only legal move while the bots' thread plays it for them: the
    click, meant for the position before, is refused instead of landing on the next one."""
    s, _earlier = _at_a_forced_move(monkeypatch)
    game = s.game
    at = len(game.history)
    move = game.legal_actions()[0]
    monkeypatch.setattr(s, "_lock", _Interleaved(s._lock,
                                                 lambda: s._play_bots_now(s._generation)))
    assert not s.submit(move)
    assert s.forced == {at}  # the forced move landed once, for the learner
    assert "moved on" in s.error


def test_the_thinking_runs_lower_than_the_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    """A class server's bots and coach think at a lower priority than what a page waits
    for (Linux: per thread): a Runner's thread is NIDAVELLIR_THINK_NICE lower than the
    thread that started it; a bad value is the default."""
    import os

    from nidavellir.play.runner import THINK_NICE, THINK_NICE_VARIABLE, think_nice

    if not hasattr(os, "setpriority") or not hasattr(threading, "get_native_id"):
        pytest.skip("no per-thread priority on this system")
    mine = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    for value, expected in (("3", 3), ("0", 0), ("99", 19), ("nice", THINK_NICE)):
        monkeypatch.setenv(THINK_NICE_VARIABLE, value)
        assert think_nice() == expected
        seen: list[int] = []
        runner = Runner("think")

        def note(seen: list[int] = seen) -> None:
            seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))

        runner.start(0, note)
        runner.wait()
        assert seen == [min(19, mine + expected)], value
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == mine
