"""The class's answers summed up for the teacher page and the projector: per question, who
answered what, the histogram's bins, the answers far off, the progress grid, the
students in the class now, and the projector's pseudonyms. Standard library only.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .answers import Answer, Student, label_of, person_of

#: Seconds since a student's page last gave a sign for the student to count as in the class.
PRESENT_S = 180.0


def bins(values: Sequence[float], kind: str, exact: float | None) -> list[dict[str, Any]]:
    """Ten bins for a histogram of ``values``: 0 to 1 for probabilities; otherwise from
    the smallest to the largest of the values that are not far off (:func:`far_off`) and
    the exact value. A value beyond the range is counted in the end bin, which says how
    many it holds that way (``beyond``)."""
    near = [v for v in values if v not in far_off(values, kind)]
    if kind == "probability":
        low, high = 0.0, 1.0
    else:
        points = near + ([exact] if exact is not None else [])
        if not points:
            return []
        low, high = min(points), max(points)
        if high - low < 1e-9:
            low, high = low - 0.5, high + 0.5
    width = (high - low) / 10
    out: list[dict[str, Any]] = [
        {"low": low + i * width, "high": low + (i + 1) * width, "count": 0, "beyond": 0}
        for i in range(10)]
    for v in values:
        # The small margin keeps 0.3 in the bin from 0.3 (0.3 / 0.1 is 2.9999999999999996).
        i = min(9, max(0, math.floor((v - low) / width + 1e-9)))
        out[i]["count"] += 1
        if v < low or v > high:
            out[i]["beyond"] += 1
    return out


def far_off(values: Sequence[float], kind: str) -> set[float]:
    """The answers far from the others (beyond three interquartile ranges from the
    middle half): left out of the class mean and shown in the histogram's end bins. A
    chance is never far off (its range is 0 to 1); with fewer than four answers none is."""
    if kind == "probability" or len(values) < 4:
        return set()
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    spread = max(q3 - q1, 1e-9 * max(1.0, abs(q1), abs(q3)))
    return {v for v in values if v < q1 - 3 * spread or v > q3 + 3 * spread}


def summarize(answers: Sequence[Answer], students: Sequence[Student],
              now: float | None = None, present_s: float = PRESENT_S) -> list[dict[str, Any]]:
    """The teacher page's data (see :meth:`ClassStore.summary`), counting students one way.

    - **A student** is a name (typed, compared without case or extra spaces), or a page
      (a browser) whose student typed none. An answer belongs to the student as named
      when it was given: a student who renames keeps their earlier answers under the
      name they were given with.
    - **In the class** is a student whose page gave a sign within ``present_s`` seconds
      (open pages tell their kernel every 30 s; a closed page stops).
    - Per question: *answered* is the students who answered it (each one's latest answer
      counts), *missing* the students in the class who have not (a page that answered
      under another name has answered), and *students* the two together.
    """
    now = time.time() if now is None else now
    here: dict[str, str] = {}  # who is in the class now -> how the page names them
    now_person: dict[str, str] = {}  # a page -> who it is now
    for s in sorted(students, key=lambda s: s.joined):
        now_person[s.student] = person_of(s.student, s.name)
        if now - s.seen <= present_s:
            here.setdefault(now_person[s.student], s.label)
    latest: dict[str, dict[str, Answer]] = {}
    pages: dict[str, set[str]] = {}  # question -> who answered it, as they are now
    for a in sorted(answers, key=lambda a: (a.at, a.id or 0)):
        latest.setdefault(a.question, {})[person_of(a.student, a.name)] = a
        pages.setdefault(a.question, set()).add(
            now_person.get(a.student, person_of(a.student, a.name)))
    order = sorted(latest, key=lambda q: -max(a.at for a in latest[q].values()))
    out = []
    for question in order:
        by_person = latest[question]
        last = max(by_person.values(), key=lambda a: (a.at, a.id or 0))
        moves = last.kind == "move"
        values = [] if moves else [a.answer for a in by_person.values()]
        outliers = far_off(values, last.kind)
        kept = [v for v in values if v not in outliers]
        missing = [label for who, label in here.items()
                   if who not in by_person and who not in pages[question]]
        item: dict[str, Any] = {
            "question": question, "title": last.title, "kind": last.kind,
            "exact": last.exact, "exact_text": last.exact_text,
            "answered": len(by_person), "students": len(by_person) + len(missing),
            "answers": [{"student": label_of(a.student, a.name), "answer": a.answer,
                         "id": a.id, "person": who, **({"move": a.move} if moves else {})}
                        for who, a in by_person.items()],
            "mean": sum(kept) / len(kept) if kept else None,
            "median": statistics.median(values) if values else None,
            "far_off": len(values) - len(kept),
            "bins": [] if moves else bins(values, last.kind, last.exact),
            "missing": missing,
        }
        if moves:
            # A position question: how many students chose each move (most chosen first,
            # then by the move's text); the coach's figures are the server's to add.
            chosen = Counter(a.move or "" for a in by_person.values())
            item["moves"] = [{"move": m, "count": n}
                             for m, n in sorted(chosen.items(), key=lambda x: (-x[1], x[0]))]
        out.append(item)
    return out


def progress_grid(reached: Sequence[tuple[str, str, int, float]], answers: Sequence[Answer],
                  students: Sequence[Student]) -> list[dict[str, Any]]:
    """:meth:`ClassStore.progress`'s cells from the steps reached (student, lesson, step,
    when) and the answers, one per student, lesson and step, sorted by student and step."""
    now_person = {s.student: (person_of(s.student, s.name), s.label) for s in students}
    cells: dict[tuple[str, str, int], dict[str, Any]] = {}

    def cell(student: str, name: str | None, lesson: str, step: int) -> dict[str, Any]:
        who, label = (now_person.get(student, (person_of(student, ""), label_of(student, "")))
                      if name is None else (person_of(student, name), label_of(student, name)))
        return cells.setdefault((who, lesson, step), {
            "student": label, "lesson": lesson, "step": step, "reached": None,
            "answer": None, "exact": None, "kind": None, "answered": None, "move": None})

    for student, lesson, step, at in reached:
        c = cell(student, None, lesson, int(step))
        c["reached"] = at if c["reached"] is None else min(c["reached"], at)
    for a in sorted(answers, key=lambda a: (a.at, a.id or 0)):
        if a.step is None:
            continue
        c = cell(a.student, a.name, a.question.split("/", 1)[0], a.step)
        c.update(answer=a.answer, exact=a.exact, kind=a.kind, answered=a.at, move=a.move)
        c["reached"] = a.at if c["reached"] is None else min(c["reached"], a.at)
    return sorted(cells.values(), key=lambda c: (c["student"].lower(), c["lesson"],
                                                 c["step"]))


#: Pseudonyms for the projector: dwarves of the Völuspá's list (the *Dvergatal*).
DWARVES = ("Motsognir", "Durin", "Nyi", "Nidi", "Nordri", "Sudri", "Austri", "Vestri",
           "Althjof", "Dvalin", "Nar", "Nain", "Niping", "Dain", "Bifur", "Bofur", "Bombur",
           "Nori", "An", "Anar", "Oin", "Mjodvitnir", "Veig", "Vindalf", "Thrain", "Thekk",
           "Thorin", "Thror", "Vit", "Lit", "Nyr", "Nyrad", "Regin", "Radsvid", "Fili", "Kili",
           "Fundin", "Nali", "Hepti", "Vili", "Hanar", "Sviur", "Frar", "Hornbori", "Fraeg",
           "Loni", "Aurvang", "Jari", "Eikinskjaldi", "Draupnir", "Dolgthrasir", "Har",
           "Haugspori", "Hlevang", "Gloin", "Dori", "Ori", "Duf", "Andvari", "Skirfir",
           "Virfir", "Skafid", "Ai", "Alf", "Yngvi", "Fjalar", "Frosti", "Fid", "Ginnar")


def pseudonym(person: str, key: bytes, taken: set[str] | frozenset[str] = frozenset()
              ) -> str:
    """A student's dwarf name on the projector (``Dvalin 42``): from an HMAC of who they
    are (:func:`summarize`'s person) with the class's key, so nobody can work back to the
    name; when another student of the class has it already (``taken``), the next one."""
    digest = hmac.new(key, person.encode(), hashlib.sha256).digest()
    n = int.from_bytes(digest[:8], "big")
    while True:
        name = f"{DWARVES[n % len(DWARVES)]} {n // len(DWARVES) % 90 + 10}"
        if name not in taken:
            return name
        n += 1


def pseudonyms(students: Sequence[Student], answers: Sequence[Answer], key: bytes
               ) -> dict[str, str]:
    """Every student's dwarf name (:func:`pseudonym`), given in the order they came into
    the class: a newcomer never changes an earlier student's, and no two share one."""
    order = [person_of(s.student, s.name) for s in sorted(students, key=lambda s: s.joined)]
    order += [person_of(a.student, a.name) for a in answers]
    out: dict[str, str] = {}
    for person in order:
        if person not in out:
            out[person] = pseudonym(person, key, set(out.values()))
    return out


def present(students: Sequence[Student], now: float | None = None,
            present_s: float = PRESENT_S) -> int:
    """How many students are in the class now (:func:`summarize`'s definition)."""
    now = time.time() if now is None else now
    return len({person_of(s.student, s.name) for s in students if now - s.seen <= present_s})


__all__ = ["DWARVES", "PRESENT_S", "bins", "far_off", "present", "progress_grid", "pseudonym",
           "pseudonyms", "summarize"]
