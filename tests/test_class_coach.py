"""The server's coach of position questions (nidavellir/classroom/teacher/coach.py): one
per server, bounded, each position judged once, two positions judged side by side.

The judge here is a fake whose judgements wait on events the test sets: every step of the
test waits for a state (an event, a finished judgement), never for a time.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

import pytest

from nidavellir import i18n
from nidavellir.classroom.teacher.coach import PositionCoach

#: Generous bounds on waits for states that come at once (only a broken coach hits them).
STUCK_S = 60.0


@dataclass(frozen=True)
class Step:
    """What the coach reads of a position step."""

    title: str
    record: dict[str, Any] = field(default_factory=dict)
    decision: int = 1
    level: str = "coach"


def step(name: str, decision: int = 1) -> Step:
    return Step(title=name, record={"seed": name}, decision=decision)


class FakeJudge:
    """A judge whose judgement of each position starts, says so, and ends only when the
    test lets it; it counts its judgements."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.started: dict[str, threading.Event] = {}
        self.release: dict[str, threading.Event] = {}
        self._lock = threading.Lock()

    def events(self, name: str) -> tuple[threading.Event, threading.Event]:
        with self._lock:
            return (self.started.setdefault(name, threading.Event()),
                    self.release.setdefault(name, threading.Event()))

    def judge(self, s: Step) -> dict[str, Any]:
        started, release = self.events(s.title)
        with self._lock:
            self.calls.append(s.title)
        started.set()
        assert release.wait(STUCK_S), f"{s.title} was never released"
        if s.title == "broken":
            raise RuntimeError("the search fell over")
        return {"best": f"best of {s.title}"}

    @staticmethod
    def word(judgement: dict[str, Any], s: Step) -> dict[str, Any]:
        return {"best": judgement["best"], "language": i18n.language()}


def test_two_positions_are_judged_side_by_side_and_each_once() -> None:
    fake = FakeJudge()
    coach = PositionCoach(judge=fake.judge, word=fake.word)
    a, b = step("a"), step("b")
    a_started, a_release = fake.events("a")
    b_started, b_release = fake.events("b")
    assert coach.figures(a) == {"pending": True}
    assert a_started.wait(STUCK_S)
    # Asked again while it is judged (another page, the projector): nothing new starts.
    assert coach.figures(a) == {"pending": True}
    # Another position is judged while the first still runs: it does not wait in line.
    assert coach.figures(b) == {"pending": True}
    assert b_started.wait(STUCK_S)
    assert not a_release.is_set()
    b_release.set()
    assert coach.wait(b, STUCK_S)["best"] == "best of b"
    assert coach.figures(a) == {"pending": True}  # a is still being judged
    a_release.set()
    assert coach.wait(a, STUCK_S)["best"] == "best of a"
    assert coach.figures(a)["best"] == "best of a"
    assert fake.calls == ["a", "b"]


def test_a_position_is_judged_once_and_worded_in_each_readers_language() -> None:
    fake = FakeJudge()
    coach = PositionCoach(judge=fake.judge, word=fake.word)
    fake.events("a")[1].set()
    with i18n.using("en"):
        assert coach.wait(step("a"), STUCK_S) == {"best": "best of a", "language": "en"}
    with i18n.using("de"):
        assert coach.figures(step("a")) == {"best": "best of a", "language": "de"}
    # The same position in another record's copy (same record, decision, level) is the same.
    assert coach.figures(Step(title="a again", record={"seed": "a"}))["best"] == "best of a"
    assert fake.calls == ["a"]
    # Another decision of the same record is another position.
    fake.events("a-2")[1].set()
    assert coach.wait(Step(title="a-2", record={"seed": "a"}, decision=2), STUCK_S)["best"] \
        == "best of a-2"


def test_the_coach_keeps_the_last_positions_asked_only() -> None:
    fake = FakeJudge()
    coach = PositionCoach(size=2, judge=fake.judge, word=fake.word)
    for name in ("a", "b", "c"):
        fake.events(name)[1].set()
    coach.wait(step("a"), STUCK_S)
    coach.wait(step("b"), STUCK_S)
    coach.figures(step("a"))  # asked again: b is now the one asked longest ago
    coach.wait(step("c"), STUCK_S)
    assert len(coach) == 2
    assert coach.figures(step("a"))["best"] == "best of a"  # kept
    assert coach.figures(step("b")) == {"pending": True}  # pushed out: judged again
    coach.wait(step("b"), STUCK_S)
    assert fake.calls == ["a", "b", "c", "b"]


def test_a_judgement_that_fails_says_why_and_is_not_tried_again_and_again(
        caplog: pytest.LogCaptureFixture) -> None:
    fake = FakeJudge()
    coach = PositionCoach(judge=fake.judge, word=fake.word)
    fake.events("broken")[1].set()
    assert coach.wait(step("broken"), STUCK_S) == {
        "error": "RuntimeError: the search fell over"}
    assert coach.figures(step("broken"))["error"].startswith("RuntimeError")
    assert fake.calls == ["broken"]
    assert "could not judge the position of broken" in caplog.text


def test_every_server_has_its_own_coach(tmp_path: Any) -> None:
    """The teacher page's handlers share one coach, made with them: two servers (two
    sets of handlers) never share figures, and nothing is kept at module level."""
    from nidavellir.classroom.store import ClassStore
    from nidavellir.classroom.teacher import coach as module
    from nidavellir.classroom.teacher.auth import TeacherAuth
    from nidavellir.classroom.teacher.handlers import teacher_handlers

    store = ClassStore(tmp_path)
    auth = TeacherAuth("secret-pw")
    first = [kw["coach"] for _p, _h, kw in teacher_handlers("/", store, auth)]
    second = [kw["coach"] for _p, _h, kw in teacher_handlers("/", store, auth)]
    assert all(c is first[0] for c in first) and all(c is second[0] for c in second)
    assert isinstance(first[0], PositionCoach) and first[0] is not second[0]
    assert not [v for v in vars(module).values() if isinstance(v, PositionCoach)]
