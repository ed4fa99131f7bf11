"""What an answer may be: one student's answer to one question, who the student is, and
the checks the store makes before it keeps an answer (ids, lengths, values), each refusal
in one sentence of the current language. Standard library only.
"""

from __future__ import annotations

import math
import re
import time
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any

from ...i18n import N_, _, number

KINDS = ("probability", "mean", "count", "move")
#: The longest move in notation an answer to a position question may carry.
MOVE_MAX = 80
#: The longest texts an answer may carry (a name is typed by a student).
NAME_MAX = 40
QUESTION_MAX = 160
TITLE_MAX = 200
EXACT_TEXT_MAX = 80
#: Ids (a student's page, an answer) are letters, digits, ``-`` and ``_``.
ID_MAX = 64
ID = re.compile(rf"[A-Za-z0-9_-]{{1,{ID_MAX}}}")
#: The largest mean or count any answer may be (a question's own bounds, checked by the
#: lesson before it sends, are narrower).
VALUE_MAX = 1e9
#: The most steps a lesson may have (a lock names one of them).
STEP_MAX = 999


@dataclass(frozen=True)
class Answer:
    """One answer of one student to one question."""

    student: str
    """A random id per student's browser (no accounts)."""
    question: str
    """``lesson/step``, or ``lab/<the question>`` for the free lab's quiz."""
    answer: float
    kind: str = "probability"
    """What the answer is: a probability, a mean or a count."""
    name: str = ""
    """The name the student had typed when they answered (may be empty)."""
    title: str = ""
    exact: float | None = None
    exact_text: str = ""
    """The exact value as the lesson shows it (``22/51``)."""
    at: float = field(default_factory=time.time)
    id: int | None = None
    """The row's number in the database (the order answers arrived in)."""
    uid: str | None = None
    """The id the student's page gave the answer: the same answer sent twice is stored
    once."""
    generation: int | None = field(default=None, compare=False)
    """The class's generation when the answer was made (``None``: unknown); an answer from
    before a Clear (of a lab before lesson runs) is not stored. Not stored itself."""
    step: int | None = None
    """The step of its lesson the answer is to (1 for the first); ``None`` for the free
    lab's questions. A lock on the class's pace refuses the steps beyond it."""
    run: int | None = None
    """The lesson run the answer belongs to: the one in progress when it was made (set by
    the store; an answer read back says its run)."""
    move: str | None = None
    """An answer to a position question (kind ``move``): the move chosen, in notation
    (``answer`` is then 0). Whether it is legal there is the lesson's to say
    (:meth:`nidavellir.lessons.position.PositionStep.check_move`) before it is sent."""


@dataclass(frozen=True)
class Student:
    """A student of the class: their page's id, the name they typed (may be empty), when
    they joined and when their page last gave a sign."""

    student: str
    name: str
    joined: float
    seen: float

    @property
    def label(self) -> str:
        return label_of(self.student, self.name)


def person_of(student: str, name: str) -> str:
    """Who: a student who typed a name is that name (a page reloaded, or opened twice, is
    still one student); one who did not is their page."""
    name = " ".join(name.split()).lower()
    return f"name:{name}" if name else f"page:{student}"


def label_of(student: str, name: str) -> str:
    # Translators: a student who typed no name, on the teacher page; {page} is the first
    # letters of their page's id, e.g. "anonymous (p3x9)".
    return name or _("anonymous ({page})").format(page=student[:4])


def clean_name(text: str) -> str:
    """A typed name as it is stored: control characters out, runs of spaces as one."""
    kept = "".join(c for c in text if not unicodedata.category(c).startswith("C") or c in " \t\n")
    return " ".join(kept.split())


#: What an id that is not one says, by what it names (translated where it is raised).
_BAD_ID = {
    "student": N_("an answer's student id is 1 to {most} letters, digits, - or _, not "
                  "{value!r}"),
    "uid": N_("an answer's uid is 1 to {most} letters, digits, - or _, not {value!r}"),
    "lesson": N_("a lesson's id is 1 to {most} letters, digits, - or _, not {value!r}"),
}

#: What a text longer than the store keeps says, by what it is (whole sentences: the
#: noun's gender changes the rest in German and French).
_TOO_LONG = {
    "name": N_("a name is at most {most} characters (this one has {n})"),
    "run's name": N_("a run's name is at most {most} characters (this one has {n})"),
    "question": N_("a question is at most {most} characters (this one has {n})"),
    "title": N_("a title is at most {most} characters (this one has {n})"),
    "exact value's text": N_("an exact value's text is at most {most} characters (this one "
                             "has {n})"),
    "move": N_("a move is at most {most} characters (this one has {n})"),
    "situation": N_("a situation is at most {most} characters (this one has {n})"),
}


def check_id(value: str, what: str) -> None:
    if not isinstance(value, str) or not ID.fullmatch(value):
        raise ValueError(_(_BAD_ID[what]).format(most=ID_MAX, value=str(value)[:80]))


def check_length(text: str, most: int, what: str) -> None:
    if len(text) > most:
        raise ValueError(_(_TOO_LONG[what]).format(most=most, n=len(text)))


def cleaned(a: Answer) -> Answer:
    return a if a.name == clean_name(a.name) else replace(a, name=clean_name(a.name))


def check_value(value: Any, kind: str) -> float:
    """An answer's value as stored, or ValueError saying what is wrong: a chance is from 0
    to 1, a count from 0, a mean or count at most :data:`VALUE_MAX` in size."""
    if kind not in KINDS:
        raise ValueError(_("an answer's kind is one of {kinds}, not {kind!r}").format(
            kinds=", ".join(KINDS), kind=kind))
    try:
        number_ = float(value)
    except (TypeError, ValueError):
        raise ValueError(_("an answer must be a number, not {value!r}").format(
            value=value)) from None
    if not math.isfinite(number_):
        raise ValueError(_("an answer must be a number, not {value!r}").format(value=value))
    if kind == "probability" and not 0 <= number_ <= 1:
        raise ValueError(_("a chance is from 0 to 1, not {value!r}").format(value=number_))
    if kind == "move" and number_ != 0:
        raise ValueError(_("an answer that is a move holds 0 as its number, not "
                           "{value!r}").format(value=number_))
    if kind == "count" and number_ < 0:
        raise ValueError(_("a count is 0 or more, not {value!r}").format(value=number_))
    if abs(number_) > VALUE_MAX:
        raise ValueError(_("an answer is at most {most} in size, not {value!r}").format(
            most=number(VALUE_MAX), value=number_))
    return number_


def check_answer(a: Answer) -> None:
    """ValueError naming what the store would refuse in an answer."""
    _check(cleaned(a))


def _check(a: Answer) -> None:
    check_id(a.student, "student")
    if a.uid is not None:
        check_id(a.uid, "uid")
    if not a.question or not a.question.isprintable():
        raise ValueError(_("an answer needs a question (printable text)"))
    check_length(a.question, QUESTION_MAX, "question")
    check_length(a.title, TITLE_MAX, "title")
    check_length(a.exact_text, EXACT_TEXT_MAX, "exact value's text")
    check_length(a.name, NAME_MAX, "name")
    check_value(a.answer, a.kind)
    if a.kind == "move":
        if not isinstance(a.move, str) or not a.move.strip() or not a.move.isprintable():
            raise ValueError(_("an answer to a position question is a move in notation "
                               "(printable text), not {move!r}").format(move=a.move))
        check_length(a.move, MOVE_MAX, "move")
        if a.step is None:
            raise ValueError(_("an answer to a position question must say its step's "
                               "number"))
    elif a.move is not None:
        raise ValueError(_("only an answer to a position question is a move (this one's "
                           "kind is {kind!r})").format(kind=a.kind))
    if a.step is not None and (isinstance(a.step, bool) or not isinstance(a.step, int)
                               or not 1 <= a.step <= STEP_MAX):
        raise ValueError(_("an answer's step is a whole number from 1 to {most}, not "
                           "{step!r}").format(most=STEP_MAX, step=a.step))
    if a.exact is not None and not math.isfinite(float(a.exact)):
        raise ValueError(_("an exact value must be a number, not {value!r}").format(
            value=a.exact))
    if not math.isfinite(float(a.at)):
        raise ValueError(_("an answer's time must be a number, not {value!r}").format(
            value=a.at))


def move_answer(step: Any, lesson: str, number_: int, student: str, move: Any, name: str = "",
                uid: str | None = None, at: float | None = None) -> Answer:
    """A student's move in a position step (``step``, a
    :class:`~nidavellir.lessons.position.PositionStep`, number ``number_`` of ``lesson``)
    as the store takes it (kind ``move``); ValueError, in one sentence, for a move that is
    not legal there (:meth:`~nidavellir.lessons.position.PositionStep.check_move`). The
    store's own rules (pace, pause, ids) apply when it is recorded."""
    return Answer(student=student, question=f"{lesson}/{step.key}", answer=0.0, kind="move",
                  name=name, title=step.title, uid=uid, step=number_,
                  move=step.check_move(move), at=time.time() if at is None else at)


__all__ = ["Answer", "EXACT_TEXT_MAX", "ID", "ID_MAX", "KINDS", "MOVE_MAX", "NAME_MAX",
           "QUESTION_MAX", "STEP_MAX", "Student", "TITLE_MAX", "VALUE_MAX", "check_answer",
           "check_id", "check_length", "check_value", "clean_name", "cleaned", "label_of",
           "move_answer", "person_of"]
