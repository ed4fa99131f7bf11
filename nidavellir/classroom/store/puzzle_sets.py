"""The puzzle sets a teacher assigns to the class: each a name, what chose it (a theme and
a rating range, or a list of puzzle ids) and the puzzles themselves (their lines of the
puzzle file, so that a set in progress never changes under the class). Standard library
only.

A student's answer to a puzzle of set ``n`` is an answer like any other (kind ``move``,
held by the page until the database has it, stored once) to the question
``puzzles/s<n>-<puzzle id>`` (:func:`puzzle_question`), its step the puzzle's place in the
set (1 for the first).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...i18n import _
from .state import PUZZLES

#: The most puzzles one set may hold, and the longest set name.
SET_MAX = 50
SET_NAME_MAX = 60
#: The largest puzzle set kept (JSON): a puzzle's line is a few kB.
SET_TEXT_MAX = 1_000_000


def puzzle_question(set_id: int, puzzle_id: str) -> str:
    """The question id of a puzzle of set ``set_id``."""
    return f"{PUZZLES}/s{set_id}-{puzzle_id}"


@dataclass(frozen=True)
class PuzzleSet:
    """A set of puzzles the teacher assigned (:meth:`ClassStore.assign_puzzles`)."""

    id: int
    run: int
    at: float
    name: str
    spec: dict[str, Any]
    """What chose the puzzles: ``{"theme", "low", "high", "edition", "count"}`` or
    ``{"ids": [...]}``."""
    puzzles: list[dict[str, Any]]
    """The puzzles, as their lines of the puzzle file hold them, in the set's order."""

    def question(self, puzzle_id: str) -> str:
        return puzzle_question(self.id, puzzle_id)

    def as_dict(self) -> dict[str, Any]:
        """The set as the teacher page lists it (the puzzles by id)."""
        return {"id": self.id, "run": self.run, "at": self.at, "name": self.name,
                "spec": self.spec, "puzzles": [str(p.get("id")) for p in self.puzzles]}


def set_text(name: Any, spec: Any, puzzles: Any) -> tuple[str, str, str]:
    """A set as stored (its name, spec and puzzles as JSON), or ValueError saying in one
    sentence what is wrong."""
    if not isinstance(name, str) or not " ".join(name.split()):
        raise ValueError(_("a puzzle set needs a name (for example \"Lines, week 3\")"))
    name = " ".join(name.split())
    if len(name) > SET_NAME_MAX:
        raise ValueError(_("a set's name is at most {most} characters (this one has {n})"
                           ).format(most=SET_NAME_MAX, n=len(name)))
    if not isinstance(spec, Mapping):
        raise ValueError(_("a puzzle set says what chose its puzzles"))
    if not isinstance(puzzles, Sequence) or isinstance(puzzles, str) or not puzzles:
        raise ValueError(_("a puzzle set holds at least one puzzle"))
    if len(puzzles) > SET_MAX:
        raise ValueError(_("a puzzle set holds at most {most} puzzles, not {n}").format(
            most=SET_MAX, n=len(puzzles)))
    ids = [p.get("id") if isinstance(p, Mapping) else None for p in puzzles]
    if not all(isinstance(i, str) and i for i in ids) or len(set(ids)) != len(ids):
        raise ValueError(_("the puzzles of a set are puzzles of the file, each once"))
    try:
        text = json.dumps(list(puzzles), ensure_ascii=False, allow_nan=False)
        spec_text = json.dumps(dict(spec), ensure_ascii=False, allow_nan=False,
                               sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise ValueError(_("a puzzle set is plain JSON: {error}").format(error=exc)) from None
    if len(text) > SET_TEXT_MAX:
        raise ValueError(_("a puzzle set is at most {most} characters of JSON").format(
            most=SET_TEXT_MAX))
    return name, spec_text, text


def puzzle_set(row: Sequence[Any]) -> PuzzleSet:
    return PuzzleSet(id=int(row[0]), run=int(row[1]), at=float(row[2]), name=str(row[3]),
                     spec=json.loads(row[4]), puzzles=json.loads(row[5]))


__all__ = ["PUZZLES", "PuzzleSet", "SET_MAX", "SET_NAME_MAX", "puzzle_question", "puzzle_set",
           "set_text"]
