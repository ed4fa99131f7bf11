"""The class's answers: one SQLite database in the class folder, written by every student.

Each student's dashboard (its own kernel, its own process) writes its predictions and
quiz answers to ``<class folder>/answers.sqlite``; the teacher page reads them. SQLite in
WAL mode lets any number of readers work beside one writer; writers wait for each other
(``busy_timeout``), and an answer is one short transaction, so 30 students answering at
once each wait a few milliseconds. Every write opens, writes and closes: no kernel keeps
the file open between answers.

What goes wrong says so (:class:`StoreError`, one clear sentence) and never costs an
answer already stored:

- a **missing** folder is created; a folder that cannot be written is named;
- a **locked** database (another program holding it longer than the timeout) is
  reported; the caller keeps the answer and sends it again later
  (:class:`widgets.classroom.ClassLink` does);
- a **corrupt** file is never rewritten, repaired or replaced: it is reported, and stays
  as it is for whoever wants to rescue it.

>>> import tempfile
>>> store = ClassStore(tempfile.mkdtemp())
>>> store.join("s1", "Ada")
>>> store.record(Answer(student="s1", name="Ada", question="counting/hunter", answer=0.4,
...                     exact=22 / 51, kind="probability", title="A hunter"))
>>> [(a.name, a.answer) for a in store.answers()]
[('Ada', 0.4)]
>>> store.summary()[0]["answered"]
1
"""

from __future__ import annotations

import contextlib
import csv
import io
import math
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

#: The database's file name in the class folder.
FILE_NAME = "answers.sqlite"
SCHEMA_VERSION = "1"
#: Seconds a writer waits for another one before the database counts as locked.
DEFAULT_TIMEOUT = 10.0
KINDS = ("probability", "mean", "count")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', '1');
CREATE TABLE IF NOT EXISTS students (
    student TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', joined REAL NOT NULL,
    seen REAL NOT NULL);
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, student TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '', question TEXT NOT NULL, title TEXT NOT NULL DEFAULT '',
    kind TEXT NOT NULL, answer REAL NOT NULL, exact REAL, exact_text TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS answers_by_question ON answers (question, id);
"""


class StoreError(Exception):
    """The class database cannot be used right now; the message says why and what to do."""


@dataclass(frozen=True)
class Answer:
    """One answer of one student to one question."""

    student: str
    """A random id per dashboard page (no accounts)."""
    question: str
    """``lesson/step``, or ``lab/<the question>`` for the free lab's quiz."""
    answer: float
    kind: str = "probability"
    """What the answer is: a probability, a mean or a count."""
    name: str = ""
    """The name the student typed (may be empty)."""
    title: str = ""
    exact: float | None = None
    exact_text: str = ""
    """The exact value as the lesson shows it (``22/51``)."""
    at: float = field(default_factory=time.time)
    id: int | None = None


@dataclass(frozen=True)
class Student:
    student: str
    name: str
    joined: float
    seen: float

    @property
    def label(self) -> str:
        return self.name or f"anonymous ({self.student[:4]})"


def _describe(exc: sqlite3.Error, path: Path) -> str:
    text = str(exc)
    low = text.lower()
    if "locked" in low or "busy" in low:
        return (f"the class database {path} is locked by another program (it waited "
                f"{DEFAULT_TIMEOUT:.0f} s)")
    if "not a database" in low or "malformed" in low or "corrupt" in low:
        return (f"the class database {path} is damaged ({text}); it was left as it is: "
                "move it aside to start a new one")
    if "readonly" in low or "read-only" in low:
        return f"the class database {path} is read-only"
    if "unable to open" in low:
        return f"cannot open the class database {path}: is its folder writable?"
    if "no such table" in low:
        return (f"{path} is not the lab's class database ({text}); it was left as it is: "
                "move it aside to start a new one")
    return f"the class database {path} failed: {text}"


class ClassStore:
    """The answers of a class, in ``folder/answers.sqlite``."""

    def __init__(self, folder: str | Path, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.folder = Path(folder)
        self.path = self.folder / FILE_NAME
        self.timeout = timeout

    # ------------------------------------------------------------------ connections

    @contextlib.contextmanager
    def _connect(self, write: bool) -> Iterator[sqlite3.Connection]:
        """A connection for one transaction; StoreError for anything that goes wrong."""
        if write:
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the class folder {self.folder}: "
                                 f"{exc.strerror or exc}") from None
        elif not self.path.exists():
            raise StoreError(f"no class database yet at {self.path}: nobody has answered")
        try:
            conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(_describe(exc, self.path)) from None
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
            if write:
                self._prepare(conn)
            yield conn
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                conn.rollback()
            raise StoreError(_describe(exc, self.path)) from None
        finally:
            conn.close()

    def _prepare(self, conn: sqlite3.Connection) -> None:
        """WAL and the tables, once per file (a no-op when they are there). Changing the
        journal mode needs a moment alone with the file: when many kernels create the
        database at once it is retried until the timeout."""
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
                if str(mode).lower() != "wal":
                    conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = FULL")
                known = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND "
                                     "name = 'answers'").fetchone()
                if known is None:
                    # executescript commits first: the transaction is in the script.
                    conn.executescript("BEGIN IMMEDIATE;" + _SCHEMA + "COMMIT;")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc).lower() or time.monotonic() > deadline:
                    raise
                with contextlib.suppress(sqlite3.Error):
                    conn.rollback()
                time.sleep(0.02)

    # ------------------------------------------------------------------ writing

    def join(self, student: str, name: str = "") -> None:
        """A student opened the lessons (or changed their name)."""
        now = time.time()
        with self._connect(write=True) as conn:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO students (student, name, joined, seen) VALUES "
                         "(?, ?, ?, ?) ON CONFLICT (student) DO UPDATE SET name = "
                         "excluded.name, seen = excluded.seen", (student, name.strip(), now, now))
            conn.execute("COMMIT")

    def record(self, *answers: Answer) -> None:
        """Store answers (one transaction: all or none)."""
        for a in answers:
            _check(a)
        if not answers:
            return
        with self._connect(write=True) as conn:
            conn.execute("BEGIN IMMEDIATE")
            for a in answers:
                conn.execute("INSERT INTO answers (at, student, name, question, title, kind, "
                             "answer, exact, exact_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                             (a.at, a.student, a.name.strip(), a.question, a.title, a.kind,
                              float(a.answer), a.exact, a.exact_text))
                conn.execute("INSERT INTO students (student, name, joined, seen) VALUES "
                             "(?, ?, ?, ?) ON CONFLICT (student) DO UPDATE SET seen = "
                             "excluded.seen, name = CASE WHEN excluded.name = '' THEN "
                             "students.name ELSE excluded.name END",
                             (a.student, a.name.strip(), a.at, a.at))
            conn.execute("COMMIT")

    def clear(self) -> int:
        """Forget every answer and student (a new class); returns the answers removed."""
        with self._connect(write=True) as conn:
            conn.execute("BEGIN IMMEDIATE")
            count = int(conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0])
            conn.execute("DELETE FROM answers")
            conn.execute("DELETE FROM students")
            conn.execute("COMMIT")
        return count

    # ------------------------------------------------------------------ reading

    def answers(self, question: str | None = None) -> list[Answer]:
        with self._connect(write=False) as conn:
            sql = ("SELECT student, question, answer, kind, name, title, exact, exact_text, at, "
                   "id FROM answers")
            rows = (conn.execute(sql + " WHERE question = ? ORDER BY id", (question,))
                    if question is not None else conn.execute(sql + " ORDER BY id"))
            return [Answer(*row) for row in rows.fetchall()]

    def students(self) -> list[Student]:
        with self._connect(write=False) as conn:
            rows = conn.execute("SELECT student, name, joined, seen FROM students "
                                "ORDER BY joined").fetchall()
        return [Student(*row) for row in rows]

    def count(self) -> int:
        with self._connect(write=False) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0])

    def summary(self) -> list[dict[str, Any]]:
        """Per question (the most recently answered first): how many students answered,
        each one's latest answer, the distribution of those answers against the exact
        value, and who has not answered yet (:func:`summarize`)."""
        return summarize(self.answers(), self.students())

    # ------------------------------------------------------------------ CSV

    def export_csv(self) -> str:
        """Every answer as CSV (a header line, then one row per answer, oldest first)."""
        return answers_csv(self.answers())


def _check(a: Answer) -> None:
    if not a.student or not a.question:
        raise ValueError("an answer needs a student and a question")
    if a.kind not in KINDS:
        raise ValueError(f"an answer's kind is one of {', '.join(KINDS)}, not {a.kind!r}")
    if not math.isfinite(float(a.answer)):
        raise ValueError(f"an answer must be a number, not {a.answer!r}")


# ====================================================================== summaries

def _person(student: str, name: str) -> str:
    """Who answered: a student who typed a name is that name (a page reloaded, or opened
    twice, is still one student); one who did not is their page."""
    name = " ".join(name.split()).lower()
    return f"name:{name}" if name else f"page:{student}"


def bins(values: Sequence[float], kind: str, exact: float | None) -> list[dict[str, Any]]:
    """Ten bins for a histogram of ``values``: 0 to 1 for probabilities; otherwise from
    the smallest to the largest of the values and the exact value."""
    if kind == "probability":
        low, high = 0.0, 1.0
    else:
        points = list(values) + ([exact] if exact is not None else [])
        if not points:
            return []
        low, high = min(points), max(points)
        if high - low < 1e-9:
            low, high = low - 0.5, high + 0.5
    width = (high - low) / 10
    out = [{"low": low + i * width, "high": low + (i + 1) * width, "count": 0}
           for i in range(10)]
    for v in values:
        # The small margin keeps 0.3 in the bin from 0.3 (0.3 / 0.1 is 2.9999999999999996).
        i = min(9, max(0, math.floor((v - low) / width + 1e-9))) if width > 0 else 0
        out[i]["count"] += 1
    return out


def summarize(answers: Sequence[Answer], students: Sequence[Student]) -> list[dict[str, Any]]:
    """The teacher page's data (see :meth:`ClassStore.summary`): per question, each
    student's latest answer (a student who typed a name is counted once by that name)."""
    person = {s.student: _person(s.student, s.name) for s in students}
    people: dict[str, str] = {}  # person -> how the page names them
    for s in students:
        people.setdefault(person[s.student], s.label)
    latest: dict[str, dict[str, Answer]] = {}
    for a in sorted(answers, key=lambda a: (a.id or 0, a.at)):
        who = person.get(a.student) or _person(a.student, a.name)
        people.setdefault(who, a.name or f"anonymous ({a.student[:4]})")
        latest.setdefault(a.question, {})[who] = a
    order = sorted(latest, key=lambda q: -max(a.id or 0 for a in latest[q].values()))
    out = []
    for question in order:
        by_person = latest[question]
        last = max(by_person.values(), key=lambda a: a.id or 0)
        values = [a.answer for a in by_person.values()]
        exact = last.exact
        out.append({
            "question": question, "title": last.title, "kind": last.kind,
            "exact": exact, "exact_text": last.exact_text,
            "answered": len(by_person), "students": len(people),
            "answers": [{"student": people[who], "answer": a.answer}
                        for who, a in by_person.items()],
            "mean": sum(values) / len(values) if values else None,
            "bins": bins(values, last.kind, exact),
            "missing": [label for who, label in people.items() if who not in by_person],
        })
    return out


# ====================================================================== CSV

CSV_COLUMNS = ("id", "time", "epoch", "student", "name", "question", "title", "kind", "answer",
               "exact", "exact_text")


def answers_csv(answers: Iterable[Answer]) -> str:
    """Answers as CSV: ``time`` in ISO 8601 (UTC) for people, ``epoch`` (seconds) and the
    numbers exactly (``repr``), so :func:`answers_from_csv` gives the same answers back."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for a in answers:
        when = datetime.fromtimestamp(a.at, UTC).isoformat(timespec="microseconds")
        writer.writerow([a.id if a.id is not None else "", when, repr(float(a.at)), a.student,
                         a.name, a.question,
                         a.title, a.kind, repr(float(a.answer)),
                         "" if a.exact is None else repr(float(a.exact)), a.exact_text])
    return out.getvalue()


def answers_from_csv(text: str) -> list[Answer]:
    """The answers of a CSV written by :func:`answers_csv` (ValueError names the line)."""
    reader = csv.DictReader(io.StringIO(text))
    if tuple(reader.fieldnames or ()) != CSV_COLUMNS:
        raise ValueError(f"line 1: expected the columns {', '.join(CSV_COLUMNS)}")
    out = []
    for line, row in enumerate(reader, start=2):
        try:
            out.append(Answer(
                id=int(row["id"]) if row["id"] else None,
                at=float(row["epoch"]), student=row["student"],
                name=row["name"], question=row["question"], title=row["title"],
                kind=row["kind"], answer=float(row["answer"]),
                exact=float(row["exact"]) if row["exact"] else None,
                exact_text=row["exact_text"]))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"line {line}: {exc}") from None
    return out


__all__ = ["Answer", "CSV_COLUMNS", "ClassStore", "FILE_NAME", "Student", "StoreError",
           "answers_csv", "answers_from_csv", "bins", "summarize"]
