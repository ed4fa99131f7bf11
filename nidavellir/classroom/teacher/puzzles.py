"""Puzzles for the class: the teacher assigns a set, every student's Puzzles tab serves it,
and the teacher sees who solved what.

- **Assign** (:func:`choose`, :func:`assign`): the puzzles of the shipped set with a theme,
  an edition and a rating range (the easiest first, as many as asked), or a list of
  puzzle ids, under a name; kept in the run in progress (the puzzles' lines are stored
  with the set: it never changes under the class) and assigned now
  (:meth:`~nidavellir.classroom.store.ClassStore.assign_puzzles`).
- **Who solved what** (:func:`puzzles_data`): per student and puzzle of the set, their first
  answer (✔ solved, ✘ not) and how many tries; each student's and each puzzle's rating in
  the class (Glicko-2 over the class's first answers, in the order they arrived:
  :func:`nidavellir.analysis.puzzles.trainer.class_ratings`).
- **The class's answers beside the judge's figures**: a set's puzzles are position
  questions of the teacher page (:func:`puzzle_steps`): the class's moves beside the judge's
  figures of every option, from the puzzle file (nothing is judged again), projected with
  pseudonyms.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...i18n import _, count, number
from ..store import ClassState, ClassStore, PuzzleSet, StoreError, person_of
from .ask import whole

#: Puzzles a set gets when the teacher does not say how many.
DEFAULT_COUNT = 10


def _catalogue() -> list[Any]:
    from ...analysis.puzzles import shipped

    return shipped()


def choose(form: Callable[[str], str], puzzles: list[Any] | None = None
           ) -> tuple[str, dict[str, Any], list[Any]]:
    """(name, spec, puzzles) of the teacher's form: ``ids`` (puzzle ids separated by commas
    or spaces) or ``theme`` / ``edition`` / ``low`` / ``high`` / ``count``; ValueError
    saying in one sentence what is wrong or that no puzzle matches."""
    from ...analysis.puzzles.trainer import EDITIONS, matches
    from ...bots.puzzle_themes import THEMES

    pool = _catalogue() if puzzles is None else puzzles
    name = form("name").strip()
    ids = [i for i in form("ids").replace(",", " ").split() if i]
    if ids:
        by_id = {p.id: p for p in pool}
        unknown = [i for i in ids if i not in by_id]
        if unknown:
            raise ValueError(_("no puzzle {ids} in the lab's puzzles").format(
                ids=", ".join(unknown[:5])))
        if len(set(ids)) != len(ids):
            raise ValueError(_("a puzzle is named twice in the list"))
        chosen = [by_id[i] for i in ids]
        return name or _("{n} chosen puzzles").format(n=len(chosen)), {"ids": ids}, chosen
    theme = form("theme").strip()
    if theme and theme not in THEMES:
        raise ValueError(_("there is no theme {theme!r}; known: {known}").format(
            theme=theme[:40], known=", ".join(THEMES)))
    edition = form("edition").strip() or "all"
    if edition not in EDITIONS:
        raise ValueError(_("an edition is one of {editions}, not {edition!r}").format(
            editions=", ".join(EDITIONS), edition=edition[:40]))
    low = whole(form("low") or "0", _("the lowest rating"))
    high = whole(form("high") or "4000", _("the highest rating"))
    n = whole(form("count") or str(DEFAULT_COUNT), _("a number of puzzles"))
    if low > high:
        raise ValueError(_("the lowest rating ({low}) is above the highest ({high})").format(
            low=low, high=high))
    if not 1 <= n <= 50:
        raise ValueError(_("a set holds 1 to 50 puzzles, not {n}").format(n=n))
    found = sorted((p for p in pool if matches(p, theme or None, edition)
                    and low <= p.rating.r <= high), key=lambda p: (p.rating.r, p.id))[:n]
    if not found:
        raise ValueError(_("no puzzle has this theme, edition and rating range: widen the "
                           "range or choose another theme"))
    spec = {"theme": theme, "edition": edition, "low": low, "high": high, "count": n}
    return name or _("{n} puzzles").format(n=len(found)), spec, found


def assign(store: ClassStore, form: Callable[[str], str]) -> ClassState:
    """Assign the set the teacher's form chooses (:func:`choose`)."""
    name, spec, puzzles = choose(form)
    return store.assign_puzzles(name, spec, [p.to_dict() for p in puzzles])


def set_puzzles(found: PuzzleSet) -> list[Any]:
    from ...analysis.puzzles import parse_puzzle

    return [parse_puzzle(p) for p in found.puzzles]


def puzzle_steps(store: ClassStore) -> dict[str, Any]:
    """The position step of every puzzle of every set assigned, by question id (their
    figures are the file's: :class:`nidavellir.lessons.puzzles.PuzzleStep`)."""
    from ...lessons.puzzles import puzzle_step

    try:
        sets = store.puzzle_sets()
    except StoreError:
        return {}
    out = {}
    for found in sets:
        for p in set_puzzles(found):
            out[found.question(p.id)] = puzzle_step(p, key=f"s{found.id}-{p.id}")
    return out


def puzzles_data(store: ClassStore) -> dict[str, Any]:
    """What the teacher's puzzles page shows: the sets of the run in progress (the one
    assigned now first), and for each the grid of who solved what, with the class's
    ratings; the themes and editions the form offers."""
    from ...analysis.puzzles.trainer import class_attempts, class_ratings
    from ...bots.puzzle_themes import THEME_NAMES

    themes = [{"key": k, "name": _(v)} for k, v in THEME_NAMES.items()]
    editions = [{"key": "all", "name": _("both editions")},
                {"key": "base", "name": _("base game")},
                {"key": "thingvellir", "name": _("Thingvellir")}]
    base = {"themes": themes, "editions": editions, "sets": [], "assigned": None,
            "available": len(_catalogue())}
    if not store.path.exists():
        return {**base, "state": ClassState().as_dict()}
    try:
        state = store.state()
        sets = store.puzzle_sets(state.run)
        answers = store.answers(run=state.run)
        students = store.students()
    except StoreError as exc:
        return {**base, "error": _("The answers cannot be read: {error}.").format(error=exc)}
    names = {s.student: s.name for s in students}
    out = []
    for found in sorted(sets, key=lambda s: (s.id != state.puzzles, -s.id)):
        puzzles = set_puzzles(found)
        mine = [a for a in answers if a.question.startswith(f"puzzles/s{found.id}-")]
        rows: list[dict[str, Any]] = [
            {"person": person_of(a.student, a.name), "question": a.question, "move": a.move,
             "at": a.at, "label": a.name or names.get(a.student, "")
             or _("anonymous ({page})").format(page=a.student[:4])} for a in mine]
        attempts = class_attempts(puzzles, rows, lambda p, f=found: f.question(p.id))
        people, rated = class_ratings(puzzles, attempts)
        labels: dict[str, str] = {r["person"]: r["label"] for r in rows}
        tries: dict[tuple[str, str], int] = {}
        for r in rows:
            key = (str(r["person"]), str(r["question"]))
            tries[key] = tries.get(key, 0) + 1
        first = {(a.person, a.puzzle): a for a in attempts}
        grid = []
        for person in sorted(people, key=lambda x: (labels.get(x) or x).lower()):
            cells = []
            for p in puzzles:
                a = first.get((person, p.id))
                cells.append(None if a is None else {
                    "solved": a.solved, "move": a.move,
                    "tries": tries.get((person, found.question(p.id)), 0)})
            grid.append({"student": labels.get(person, person),
                         "rating": number(people[person].r),
                         "rd": number(people[person].rd), "cells": cells,
                         "solved": sum(1 for c in cells if c and c["solved"])})
        listed = []
        for p in puzzles:
            tried = [a for a in attempts if a.puzzle == p.id]
            listed.append({"id": p.id, "question": found.question(p.id),
                           "themes": [_(THEME_NAMES[t]) for t in p.themes],
                           "rating": number(p.rating.r), "class_rating": number(rated[p.id].r),
                           "players": p.players, "thingvellir": p.thingvellir,
                           "solved_text": count(len(tried), "{solved} of {n} solved it",
                                                "{solved} of {n} solved it",
                                                solved=sum(1 for a in tried if a.solved))})
        out.append({**found.as_dict(), "assigned": found.id == state.puzzles,
                    "puzzles": listed, "grid": grid,
                    "answered_text": count(len(people), "{n} student answered",
                                           "{n} students answered")})
    return {**base, "state": state.as_dict(), "sets": out, "assigned": state.puzzles}


def puzzles_words() -> dict[str, str]:
    """The words of the teacher's puzzles page, in the teacher's language."""
    return {
        "assign_title": _("Assign puzzles to the class"),
        "name": _("Name of the set"), "name_hint": _("e.g. Lines, week 3"),
        "theme": _("Theme"), "every_theme": _("every theme"), "edition": _("Edition"),
        "low": _("Rating from"), "high": _("to"), "count": _("How many"),
        "ids": _("…or a list of puzzle ids"), "assign": _("Assign"),
        "assigned": _("Assigned: every student's Puzzles tab serves it."),
        "end": _("End the puzzles"), "now": _("assigned now"),
        "sets_title": _("Puzzle sets of this run"), "no_sets": _("No puzzle set in this run yet."),
        "student": _("Student"), "rating": _("Class rating"), "solved": _("Solved"),
        "puzzle_rating": _("rated {rating} in the file, {class_rating} in the class"),
        "tries": _("{n} tries"), "back": _("Back to the class view"),
        "no_server": _("The server does not answer ({error})."),
        "legend": _("✔ solved at the first answer · ✘ not · the puzzle's answers and the "
                    "class's moves beside the judge's figures are on the class view, one "
                    "question per puzzle (Project this question puts it on the projector, "
                    "with pseudonyms)"),
        "available": _("{n} puzzles in the lab's set"),
    }


def form_of(data: Mapping[str, str]) -> Callable[[str], str]:
    """A form's field reader for :func:`choose` from a mapping (tests, scripts)."""
    return lambda key: str(data.get(key, ""))


__all__ = ["DEFAULT_COUNT", "assign", "choose", "form_of", "puzzle_steps", "puzzles_data",
           "puzzles_words", "set_puzzles"]
