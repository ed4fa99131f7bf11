"""What the teacher decided, as every student's page follows it: the class's state (pace,
pause, reveal, the projector, the position asked), and the positions the teacher asks the
class about. Standard library only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ...i18n import _

#: When students see a question's simulation and exact answer: right after answering
#: (the lab's behaviour without a teacher), or once the teacher reveals it.
REVEAL_AFTER, REVEAL_TEACHER = "after", "teacher"
#: The "lesson" of the positions the teacher asks about from the teacher page: position
#: ``n`` is the question ``asked/p<n>``, its one step is 1.
ASKED = "asked"
#: The largest game record the teacher may ask about (a whole 5-player game with
#: Thingvellir is about 20 kB of JSON).
RECORD_MAX = 1_000_000
#: The longest question, situation and title of an asked position.
ASK_QUESTION_MAX = 200
ASK_SITUATION_MAX = 2000


#: The "lesson" of the puzzles the teacher assigns (:mod:`.puzzle_sets`): a puzzle of set
#: ``n`` is the question ``puzzles/s<n>-<puzzle id>``, its step its place in the set.
PUZZLES = "puzzles"


def asked_question(position: int) -> str:
    """The question id of the position the teacher asked as number ``position``."""
    return f"{ASKED}/p{position}"


@dataclass(frozen=True)
class AskedPosition:
    """A position the teacher asked the class about (:meth:`ClassStore.ask`): the game
    record, the decision number (the position before the record's action of that number),
    the seat whose view the class sees, the question, its title and what the class is told
    of it (Markdown)."""

    id: int
    run: int
    at: float
    record: dict[str, Any]
    decision: int
    seat: int
    question: str
    title: str
    situation: str = ""

    @property
    def question_id(self) -> str:
        return asked_question(self.id)

    def as_dict(self) -> dict[str, Any]:
        """The position as the teacher page lists it (without its record)."""
        return {"id": self.id, "run": self.run, "at": self.at, "decision": self.decision,
                "seat": self.seat, "question": self.question, "title": self.title,
                "question_id": self.question_id}


@dataclass(frozen=True)
class ClassState:
    """What the teacher decided, as every student's page follows it.

    - **pace**: free (``lock`` None), or locked at step ``lock`` of ``lesson``: a student
      may go back, not beyond, and an answer to a later step (or another lesson's) is
      refused;
    - **paused**: every page shows "Eyes on the teacher"; every answer is refused;
    - **reveal**: a question in ``teacher_led`` shows its simulation and exact answer only
      once it is in ``revealed``; the others right after answering;
    - **asked**: the position the teacher asks the class about now (its number,
      :class:`AskedPosition`; None: none): every student's page shows it, whatever the
      pace; an answer to another asked position is refused;
    - **puzzles**: the puzzle set the teacher assigned now (its number,
      :class:`~nidavellir.classroom.store.puzzle_sets.PuzzleSet`; None: none): every
      student's Puzzles tab serves it, whatever the pace; an answer to a set no longer
      assigned is refused;
    - ``run``: the lesson run answers go to; ``version`` the number of the change (it only
      goes up: a page that saw it has nothing newer to learn), ``at`` its time.
    """

    run: int = 1
    lesson: str | None = None
    lock: int | None = None
    paused: bool = False
    teacher_led: tuple[str, ...] = ()
    revealed: tuple[str, ...] = ()
    projected: str | None = None
    """The question the projector view shows (None: the locked step's, else the latest
    answered)."""
    names: bool = False
    """Whether the projector view shows each answer's pseudonym (never a real name)."""
    pins: tuple[int, ...] = ()
    """The answers pinned for the projector, in the order it shows them (their ids)."""
    asked: int | None = None
    """The position the teacher asks the class about now (:class:`AskedPosition`)."""
    puzzles: int | None = None
    """The puzzle set the teacher assigned now (its number)."""
    version: int = 0
    at: float = 0.0

    @classmethod
    def from_json(cls, text: str, version: int = 0, at: float = 0.0) -> ClassState:
        data = json.loads(text)
        lock, asked, puzzles = data.get("lock"), data.get("asked"), data.get("puzzles")
        return cls(run=int(data.get("run", 1)), lesson=data.get("lesson"),
                   lock=None if lock is None else int(lock), paused=bool(data.get("paused")),
                   teacher_led=tuple(data.get("teacher_led", ())),
                   revealed=tuple(data.get("revealed", ())), projected=data.get("projected"),
                   names=bool(data.get("names")),
                   pins=tuple(int(p) for p in data.get("pins", ())),
                   asked=None if asked is None else int(asked),
                   puzzles=None if puzzles is None else int(puzzles), version=version, at=at)

    def to_json(self) -> str:
        return json.dumps({"run": self.run, "lesson": self.lesson, "lock": self.lock,
                           "paused": self.paused, "teacher_led": list(self.teacher_led),
                           "revealed": list(self.revealed), "projected": self.projected,
                           "names": self.names, "pins": list(self.pins),
                           "asked": self.asked, "puzzles": self.puzzles}, sort_keys=True)

    def as_dict(self) -> dict[str, Any]:
        """The state as the pages read it (JSON)."""
        return {**json.loads(self.to_json()), "version": self.version, "at": self.at}

    def reveal_mode(self, question: str) -> str:
        return REVEAL_TEACHER if question in self.teacher_led else REVEAL_AFTER

    def shows_answer(self, question: str) -> bool:
        """Whether a student who answered ``question`` sees its simulation and exact value."""
        return question not in self.teacher_led or question in self.revealed

    def limit(self, lesson: str) -> int | None:
        """The last step of ``lesson`` a student may reach (1 for the first), or None when
        every step may be reached; 0 when the class is locked to another lesson."""
        if self.lock is None:
            return None
        return self.lock if lesson == self.lesson else 0

    def refusal(self, question: str, step: int | None) -> str | None:
        """Why an answer to ``question`` (``lesson/step``; its step's number) made in this
        state is refused, in one sentence; None when it is taken."""
        if self.paused:
            return _("the teacher paused the class: submit again when the lesson goes on "
                     "(eyes on the teacher)")
        lesson = question.split("/", 1)[0]
        if lesson == ASKED:
            # The position asked now is answered whatever the pace; another one no more.
            if self.asked is not None and question == asked_question(self.asked):
                return None
            return _("your teacher no longer asks about this position")
        if lesson == PUZZLES:
            # The set assigned now is answered whatever the pace; an ended one no more.
            if self.puzzles is not None and question.startswith(
                    f"{PUZZLES}/s{self.puzzles}-"):
                return None
            return _("your teacher no longer assigns these puzzles")
        if self.lock is None:
            return None
        if lesson != self.lesson:
            return _("the class is on step {lock} of the lesson {lesson!r}: {question!r} "
                     "waits for the teacher").format(lock=self.lock, lesson=self.lesson,
                                                     question=question)
        if step is None:
            return _("an answer to a step of {lesson!r} must say the step's number").format(
                lesson=lesson)
        if step > self.lock:
            return _("the class is locked at step {lock} of {lesson!r}: step {step} waits "
                     "for the teacher").format(lock=self.lock, lesson=lesson, step=step)
        return None


__all__ = ["ASKED", "ASK_QUESTION_MAX", "ASK_SITUATION_MAX", "AskedPosition", "ClassState",
           "PUZZLES", "RECORD_MAX", "REVEAL_AFTER", "REVEAL_TEACHER", "asked_question"]
