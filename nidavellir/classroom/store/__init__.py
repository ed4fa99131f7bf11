"""The class's answers: one SQLite database in the class folder, written by every student's
kernel and read by the teacher page. Standard library only.

- :mod:`.answers`: what an answer may be, who the student is, and the checks;
- :mod:`.state`: what the teacher decided (pace, pause, reveal, the position asked);
- :mod:`.puzzle_sets`: the puzzle sets the teacher assigns;
- :mod:`.database`: the database itself (:class:`ClassStore`), its schema and migrations;
- :mod:`.summary`: the answers summed up for the teacher page and the projector;
- :mod:`.export`: the answers as CSV and back.

This module is the store's public face: every name below is importable from it.
"""

from __future__ import annotations

from .answers import (
    ID,
    KINDS,
    MOVE_MAX,
    NAME_MAX,
    Answer,
    Student,
    check_answer,
    check_value,
    clean_name,
    move_answer,
    person_of,
)
from .database import (
    FILE_NAME,
    KEY_NAME,
    MIGRATIONS,
    SCHEMA_VERSION,
    ClassStore,
    NoSuchRun,
    Recorded,
    Run,
    StoreError,
)
from .export import (
    CSV_COLUMNS,
    CSV_COLUMNS_V1,
    CSV_COLUMNS_V2,
    CSV_COLUMNS_V3,
    FORMULA_START,
    answers_csv,
    answers_from_csv,
    neutral,
)
from .puzzle_sets import PuzzleSet, puzzle_question
from .state import (
    ASKED,
    PUZZLES,
    RECORD_MAX,
    REVEAL_AFTER,
    REVEAL_TEACHER,
    AskedPosition,
    ClassState,
    asked_question,
)
from .summary import (
    DWARVES,
    PRESENT_S,
    bins,
    far_off,
    present,
    progress_grid,
    pseudonym,
    pseudonyms,
    summarize,
)

__all__ = ["ASKED", "Answer", "AskedPosition", "CSV_COLUMNS", "CSV_COLUMNS_V1",
           "CSV_COLUMNS_V2", "CSV_COLUMNS_V3", "ClassState",
           "ClassStore", "DWARVES", "FILE_NAME", "FORMULA_START", "ID", "KEY_NAME", "KINDS",
           "MIGRATIONS", "MOVE_MAX", "NAME_MAX", "NoSuchRun", "PRESENT_S", "RECORD_MAX",
           "REVEAL_AFTER", "REVEAL_TEACHER", "Recorded", "Run", "SCHEMA_VERSION", "StoreError",
           "Student", "answers_csv", "answers_from_csv", "asked_question", "bins",
           "check_answer", "check_value", "clean_name", "far_off", "move_answer", "neutral",
           "present", "progress_grid", "pseudonym", "pseudonyms", "summarize",
           "PUZZLES", "PuzzleSet", "person_of", "puzzle_question"]
