"""The answers as CSV, for a spreadsheet and back: every text cell safe from formula
injection, every number exact, and the files of earlier versions read as they are.
Standard library only.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from datetime import UTC, datetime

from .answers import Answer

CSV_COLUMNS = ("id", "time", "epoch", "student", "name", "question", "title", "kind", "answer",
               "exact", "exact_text", "uid", "run", "run_name", "step", "move")
#: The columns of the files written before position questions (read as they are).
CSV_COLUMNS_V3 = CSV_COLUMNS[:15]
#: The columns of the files written before lesson runs (read as they are).
CSV_COLUMNS_V2 = CSV_COLUMNS[:12]
#: The columns of the files written before answers had a page's id (read as they are).
CSV_COLUMNS_V1 = CSV_COLUMNS[:11]
#: What a spreadsheet may take for a formula at the start of a cell (OWASP, "CSV
#: injection"): such a text cell is written with a ``'`` before it, and so is one that
#: begins with ``'`` itself, so that reading drops exactly one.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def neutral(text: str) -> str:
    """A text cell a spreadsheet shows as text (:data:`FORMULA_START`)."""
    return "'" + text if text.startswith((*FORMULA_START, "'")) else text


def _unneutral(text: str) -> str:
    return text[1:] if text.startswith("'") else text


def answers_csv(answers: Iterable[Answer], run_names: dict[int, str] | None = None) -> str:
    """Answers as CSV: ``time`` in ISO 8601 (UTC) for people, ``epoch`` (seconds) and the
    numbers exactly (``repr``), every text cell :func:`neutral`, so that
    :func:`answers_from_csv` gives the same answers back and a spreadsheet runs nothing.
    ``run_names``: each run's name (its column ``run_name``)."""
    names = run_names or {}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for a in answers:
        when = datetime.fromtimestamp(a.at, UTC).isoformat(timespec="microseconds")
        writer.writerow([a.id if a.id is not None else "", when, repr(float(a.at)),
                         *(neutral(t) for t in (a.student, a.name, a.question, a.title,
                                                a.kind)),
                         repr(float(a.answer)),
                         "" if a.exact is None else repr(float(a.exact)),
                         neutral(a.exact_text), neutral(a.uid or ""),
                         "" if a.run is None else a.run,
                         neutral(names.get(a.run, "") if a.run is not None else ""),
                         "" if a.step is None else a.step, neutral(a.move or "")])
    return out.getvalue()


def answers_from_csv(text: str) -> list[Answer]:
    """The answers of a CSV written by :func:`answers_csv` (or by the lab before answers
    had ids, or before lesson runs; ValueError names the line)."""
    reader = csv.DictReader(io.StringIO(text))
    columns = tuple(reader.fieldnames or ())
    if columns not in (CSV_COLUMNS, CSV_COLUMNS_V3, CSV_COLUMNS_V2, CSV_COLUMNS_V1):
        raise ValueError(f"line 1: expected the columns {', '.join(CSV_COLUMNS)}")
    plain = columns == CSV_COLUMNS_V1  # written before cells were neutralised
    cell = (lambda t: t) if plain else _unneutral
    out = []
    for line, row in enumerate(reader, start=2):
        try:
            if None in row or any(v is None for v in row.values()):
                raise ValueError("the row has a different number of cells than the header")
            out.append(Answer(
                id=int(row["id"]) if row["id"] else None,
                at=float(row["epoch"]), student=cell(row["student"]),
                name=cell(row["name"]), question=cell(row["question"]),
                title=cell(row["title"]), kind=cell(row["kind"]),
                answer=float(row["answer"]),
                exact=float(row["exact"]) if row["exact"] else None,
                exact_text=cell(row["exact_text"]),
                uid=(cell(row["uid"]) or None) if not plain else None,
                run=int(row["run"]) if row.get("run") else None,
                step=int(row["step"]) if row.get("step") else None,
                move=cell(row["move"]) or None if row.get("move") else None))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"line {line}: {exc}") from None
    return out


__all__ = ["CSV_COLUMNS", "CSV_COLUMNS_V1", "CSV_COLUMNS_V2", "CSV_COLUMNS_V3",
           "FORMULA_START", "answers_csv", "answers_from_csv", "neutral"]
