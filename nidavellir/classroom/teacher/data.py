"""What the teacher page and the projector show, as JSON: per question of the run in
progress, the class's answers summed up (a position question's moves beside the coach's
figures), the class's state, its runs and its progress; the lessons the class can be led
through. Standard library only (with the lessons).
"""

from __future__ import annotations

import time
from typing import Any

from ... import i18n
from ...i18n import _, count
from ..store import (
    PRESENT_S,
    ClassState,
    ClassStore,
    StoreError,
    bins,
    present,
    pseudonyms,
    summarize,
)
from .ask import asked_steps
from .coach import PositionCoach
from .puzzles import puzzle_steps


def lessons_plan() -> list[dict[str, Any]]:
    """The probability lessons the class can be led through: key, title and steps (their
    number, question id and title), for the teacher's controls."""
    from ...lessons import Library

    out = []
    for lesson in Library().lessons("probability"):
        out.append({"key": lesson.key, "title": lesson.title,
                    "steps": [{"step": i + 1, "question": f"{lesson.key}/{step.key}",
                               "title": step.title} for i, step in enumerate(lesson.steps)]})
    return out


def position_steps() -> dict[str, Any]:
    """The position steps of the lessons the class can be led through, by question id
    (``lesson/step``)."""
    from ...lessons import Library
    from ...lessons.position import PositionStep

    return {f"{lesson.key}/{step.key}": step for lesson in Library().lessons("probability")
            for step in lesson.steps if isinstance(step, PositionStep)}


def with_coach(questions: list[dict[str, Any]], coach: PositionCoach | None,
               steps: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Each position question (kind ``move``) of a summary with its ``options``: the
    class's moves beside the coach's figures of every option
    (:func:`nidavellir.lessons.position.class_and_coach`), and ``coach``: the judgement's
    level, whether it is exact, its seconds, or ``pending`` / ``error``."""
    from ...lessons.position import class_and_coach

    if not any(q["kind"] == "move" for q in questions):
        return questions
    steps = position_steps() if steps is None else steps
    for q in questions:
        if q["kind"] != "move":
            continue
        step = steps.get(q["question"])
        figures = (coach.figures(step) if coach is not None and step is not None
                   else {"error": _("this position is in no lesson of the server")})
        q["coach"] = {k: v for k, v in figures.items() if k != "options"}
        q["options"] = class_and_coach(q.get("moves", []), figures)
    return questions


def titles(plan: list[dict[str, Any]] | None = None) -> dict[str, str]:
    """Each question's title in the current language (the reader's, not the language of
    the page that answered it): a lesson step's ``lesson: step`` (a position step's, the
    step's own title, as its page sends it)."""
    from ...lessons import Library
    from ...lessons.position import PositionStep

    out: dict[str, str] = {}
    for lesson in Library().lessons("probability"):
        for step in lesson.steps:
            key = f"{lesson.key}/{step.key}"
            out[key] = (step.title if isinstance(step, PositionStep)
                        else f"{lesson.title}: {step.title}")
    return out


def title_of(question: str, stored: str, known: dict[str, str]) -> str:
    """A question's title for the reader: the lesson's, in the reader's language, else the
    free lab's heading in it, else the title it was stored with (a position the teacher
    asked about: the teacher's own words)."""
    if question in known:
        return known[question]
    if question.startswith("lab/"):
        # Translators: the title of a free-lab question on the teacher page.
        return _("Free lab: {label}").format(label=question[len("lab/"):])
    return stored


def class_data(store: ClassStore, now: float | None = None,
               present_s: float = PRESENT_S, coach: PositionCoach | None = None,
               steps: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the page shows: per question of the run in progress
    (:meth:`ClassStore.summary`), the totals (``students``: in the class now, counted as
    every question counts them), the class's state and its runs; or ``{"error": ...}``
    saying why there is nothing to show."""
    if not store.path.exists():
        return {"questions": [], "students": 0, "answers": 0, "present_minutes":
                present_s / 60, "state": ClassState().as_dict(),
                "runs": [_run(r) for r in store.runs()], "progress": [], "positions": [],
                "status": _status(0, 0, present_s),
                "note": _("No answer yet: the class database {path} is created with the "
                          "first one.").format(path=store.path)}
    now = time.time() if now is None else now
    try:
        state = store.state()
        answers = store.answers(run=state.run)
        students = store.students()
        runs = store.runs()
        grid = store.progress(state.run)
    except StoreError as exc:
        return {"error": _("The answers cannot be read: {error}. The students' pages keep "
                           "their answers and send them again.").format(error=exc)}
    asked = asked_steps(store)
    steps = {**(position_steps() if steps is None else steps), **asked,
             **puzzle_steps(store)}
    questions = with_coach(summarize(answers, students, now, present_s), coach, steps)
    positions = [p.as_dict() for p in store.positions(state.run)]
    known = titles()
    for q in questions:
        q["title"] = title_of(q["question"], q["title"], known)
        q["answered_text"] = count(q["answered"], "{n} of {total} answered",
                                   "{n} of {total} answered", total=i18n.number(q["students"]))
        q["far_off_text"] = (count(q["far_off"], "without {n} far-off answer",
                                   "without {n} far-off answers") if q.get("far_off") else "")
    in_class = present(students, now, present_s)
    return {"questions": questions, "positions": positions,
            "status": _status(in_class, len(answers), present_s),
            "students": present(students, now, present_s), "answers": len(answers),
            "present_minutes": present_s / 60, "state": state.as_dict(),
            "runs": [_run(r) for r in runs], "progress": grid}


def _status(students: int, answers: int, present_s: float) -> str:
    """The teacher page's status line; the page fills in ``{time}``."""
    return _("{students} · {answers} · updated {time}").format(
        students=count(students, "{n} student in the class (a page open in the last "
                       "{minutes} min)", "{n} students in the class (a page open in the last "
                       "{minutes} min)", minutes=i18n.number(present_s / 60)),
        answers=count(answers, "{n} answer", "{n} answers"), time="{time}")


#: The name the class database gave the first lesson run (schema 3): shown as every unnamed
#: run is, in the reader's language.
FIRST_RUN = "Run 1"


def run_name(run: Any) -> str:
    """A lesson run's name for the reader: as the teacher named it, or, for the run the
    database made by itself, ``Run 1`` in the reader's language."""
    if not run.name or (run.id == 1 and run.name == FIRST_RUN):
        # Translators: the name of a lesson run the teacher did not name.
        return _("Run {n}").format(n=i18n.number(run.id))
    return str(run.name)


def _run(run: Any) -> dict[str, Any]:
    """A run for the teacher page: its name and its answers counted in the reader's
    language; ``started`` None when it has not started (no database yet: no date)."""
    return {"id": run.id, "name": run_name(run),
            "started": run.started if run.started > 0 else None, "answers": run.answers,
            "answers_text": count(run.answers, "{n} answer", "{n} answers")}


#: The coach's first options a revealed position question shows on the projector beside
#: the options the class chose (all 60 bids would not fit the class's screen).
PROJECTOR_BEST = 3


def projector_data(store: ClassStore, plan: list[dict[str, Any]] | None = None,
                   now: float | None = None, coach: PositionCoach | None = None,
                   steps: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the projector view shows: the question (the one the teacher projects, else the
    locked step's, else the one answered last), the class's answers as bins, the exact
    value only once the teacher revealed it, pseudonyms only when the teacher shows them
    (never a name), and the pinned answers in their order. A position question shows the
    class's moves; once revealed, beside the coach's figures (the options the class chose
    and the coach's first :data:`PROJECTOR_BEST`)."""
    if not store.path.exists():
        return {"question": None, "pins": [], "names": False, "state": ClassState().as_dict()}
    try:
        state = store.state()
        answers = store.answers(run=state.run)
        students = store.students()
        summary = summarize(answers, students, now)
        dwarves = pseudonyms(students, answers, store.secret())
        asked = asked_steps(store)
    except StoreError as exc:
        return {"error": _("The answers cannot be read: {error}.").format(error=exc)}
    asked = {**asked, **puzzle_steps(store)}
    steps = {**(position_steps() if steps is None else steps), **asked}
    wanted = state.projected
    if wanted is None and state.lock is not None:
        lesson = next((entry for entry in (plan or []) if entry["key"] == state.lesson), None)
        if lesson is not None and state.lock <= len(lesson["steps"]):
            wanted = lesson["steps"][state.lock - 1]["question"]
    known = titles()
    for q in summary:
        q["title"] = title_of(q["question"], q["title"], known)
    found = next((q for q in summary if q["question"] == wanted), None) if wanted else (
        summary[0] if summary else None)
    question: dict[str, Any] | None = None
    if found is not None or wanted is not None:
        revealed = (found or {}).get("question", wanted) in state.revealed
        values = [a["answer"] for a in (found or {}).get("answers", [])]
        kind = (found or {}).get("kind", "move" if wanted in asked else "probability")
        exact = (found or {}).get("exact") if revealed else None
        question = {
            "question": (found or {}).get("question", wanted),
            "title": (found or {}).get("title") or (
                asked[wanted].title if wanted in asked else _title_in(plan, wanted)),
            "kind": kind, "answered": len(values), "revealed": revealed, "exact": exact,
            "answered_text": count(len(values), "{n} answer", "{n} answers"),
            "exact_text": (found or {}).get("exact_text", "") if revealed else "",
            "bins": bins(values, kind, exact),
            "answers": ([{"pseudonym": dwarves[a["person"]], "answer": a["answer"],
                          **({"move": a["move"]} if "move" in a else {})}
                         for a in found["answers"]] if state.names and found else []),
        }
        if kind == "move":
            question["bins"] = []
            question["options"] = []
        if kind == "move" and found is not None:
            if revealed:
                (judged,) = with_coach([dict(found)], coach, steps)
                question["coach"] = judged["coach"]
                question["options"] = [o for i, o in enumerate(judged["options"])
                                       if o["count"] or i < PROJECTOR_BEST]
            else:
                question["options"] = [{"move": m["move"], "moves": [m["move"]], "words": "",
                                        "count": m["count"], "win": None, "win_se": None,
                                        "score": None, "score_se": None, "about_best": None}
                                       for m in found.get("moves", [])]
    by_id = {a.id: a for a in answers}
    person = {a["id"]: a["person"] for q in summary for a in q["answers"]}
    pins = []
    for pin in state.pins:
        a = by_id.get(pin)
        if a is None:
            continue
        who = person.get(pin)
        pins.append({"id": pin, "answer": a.answer, "kind": a.kind,
                     "title": title_of(a.question, a.title, known),
                     "question": a.question,
                     "pseudonym": dwarves.get(who or "", "") if state.names else ""})
    return {"question": question, "pins": pins, "names": state.names,
            "state": state.as_dict()}


def _title_in(plan: list[dict[str, Any]] | None, question: str | None) -> str:
    for lesson in plan or []:
        for step in lesson["steps"]:
            if step["question"] == question:
                return f"{lesson['title']}: {step['title']}"
    return question or ""


__all__ = ["FIRST_RUN", "PROJECTOR_BEST", "class_data", "lessons_plan", "position_steps",
           "projector_data", "run_name", "title_of", "titles",
           "with_coach"]
