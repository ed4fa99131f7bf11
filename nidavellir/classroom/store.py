"""The class's answers: one SQLite database in the class folder, written by every student.

Each student's dashboard (its own kernel, its own process) writes its predictions and
quiz answers to ``<class folder>/answers.sqlite``; the teacher page reads them. SQLite in
WAL mode lets any number of readers work beside one writer; writers wait for each other
(``busy_timeout``), and an answer is one short transaction, so 30 students answering at
once each wait a few milliseconds. Every write opens, writes and closes: no kernel keeps
the file open between answers.

An answer carries an id made on the student's page (``uid``): storing it again (a page
that sends what it kept after its kernel died) changes nothing, so a resend never counts
twice. The file is created readable and writable by its owner only.

What goes wrong says so (:class:`StoreError`, one clear sentence; ``public`` is the same
without the server's paths, for the students' pages) and never costs an answer already
stored:

- a **missing** folder is created; a folder that cannot be written is named;
- a **locked** database (another program holding it longer than the timeout) is
  reported; the caller keeps the answer and sends it again later
  (:class:`widgets.classroom.ClassLink` does);
- a **corrupt** file is never rewritten, repaired or replaced: it is reported, and stays
  as it is for whoever wants to rescue it.

The schema has a version (``meta.schema``); a file of an older version is brought up to
date by the steps of :data:`MIGRATIONS` the first time it is opened, so the answers of
an earlier class still open.

>>> import tempfile
>>> store = ClassStore(tempfile.mkdtemp())
>>> store.join("s1", "Ada")
0
>>> store.record(Answer(student="s1", name="Ada", question="counting/hunter", answer=0.4,
...                     exact=22 / 51, kind="probability", title="A hunter", uid="p1"))
Recorded(stored=['p1'], already=[], dropped=[])
>>> store.record(Answer(student="s1", name="Ada", question="counting/hunter", answer=0.4,
...                     kind="probability", uid="p1")).already  # sent again: no change
['p1']
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
import os
import re
import sqlite3
import statistics
import time
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

#: The database's file name in the class folder.
FILE_NAME = "answers.sqlite"
#: The class's secret beside it (:meth:`ClassStore.secret`).
KEY_NAME = "class.key"
#: Seconds a writer waits for another one before the database counts as locked.
DEFAULT_TIMEOUT = 10.0
KINDS = ("probability", "mean", "count")
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
#: Seconds since a student's page last gave a sign for the student to count as in the class.
PRESENT_S = 180.0

_BASE = """
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
#: The steps from one schema version to the next: ``MIGRATIONS[n - 1]`` brings a file of
#: version n to n + 1. A new file is made at version 1 and takes the same steps, so every
#: database has one history.
MIGRATIONS: tuple[str, ...] = (
    # 2: the page's id of each answer (unique: a resend is stored once); the class's
    # generation, raised by Clear (an answer kept on a page from before is not stored).
    """ALTER TABLE answers ADD COLUMN uid TEXT;
    CREATE UNIQUE INDEX answers_by_uid ON answers (uid);
    INSERT OR IGNORE INTO meta (key, value) VALUES ('generation', '0');""",
)
SCHEMA_VERSION = 1 + len(MIGRATIONS)


class StoreError(Exception):
    """The class database cannot be used right now; the message says why and what to do.
    ``public`` says the same without the server's paths (what a student's page shows)."""

    def __init__(self, message: str, public: str | None = None) -> None:
        super().__init__(message)
        self.public = public if public is not None else message


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
    before a Clear is not stored. Not stored itself."""


@dataclass(frozen=True)
class Student:
    student: str
    name: str
    joined: float
    seen: float

    @property
    def label(self) -> str:
        return self.name or f"anonymous ({self.student[:4]})"


@dataclass
class Recorded:
    """What :meth:`ClassStore.record` did with each answer, by ``uid``."""

    stored: list[str | None] = field(default_factory=list)
    already: list[str | None] = field(default_factory=list)
    """Stored before (sent again): nothing changed."""
    dropped: list[str | None] = field(default_factory=list)
    """Made before the class was cleared: not stored."""


def clean_name(text: str) -> str:
    """A typed name as it is stored: control characters out, runs of spaces as one."""
    kept = "".join(c for c in text if not unicodedata.category(c).startswith("C") or c in " \t\n")
    return " ".join(kept.split())


def _describe(exc: sqlite3.Error, path: Path, timeout: float) -> StoreError:
    text = str(exc)
    low = text.lower()
    if "locked" in low or "busy" in low:
        what = f"is locked by another program (it waited {timeout:.0f} s)"
    elif "not a database" in low or "malformed" in low or "corrupt" in low:
        what = (f"is damaged ({text}); it was left as it is: move it aside to start a "
                "new one")
    elif "readonly" in low or "read-only" in low:
        what = "is read-only"
    elif "unable to open" in low:
        return StoreError(f"cannot open the class database {path}: is its folder writable?",
                          "cannot open the class database: is its folder writable?")
    elif "no such table" in low or "no such column" in low:
        return StoreError(f"{path} is not the lab's class database ({text}); it was left as "
                          "it is: move it aside to start a new one",
                          "the class database is not the lab's")
    else:
        what = f"failed: {text}"
    return StoreError(f"the class database {path} {what}", f"the class database {what}")


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
                self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
                self._create_private()
            except OSError as exc:
                raise StoreError(f"cannot create the class folder {self.folder}: "
                                 f"{exc.strerror or exc}",
                                 f"cannot create the class folder: {exc.strerror or exc}"
                                 ) from None
        elif not self.path.exists():
            raise StoreError(f"no class database yet at {self.path}: nobody has answered",
                             "no class database yet: nobody has answered")
        try:
            conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise _describe(exc, self.path, self.timeout) from None
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
            self._prepare(conn)
            yield conn
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                conn.rollback()
            raise _describe(exc, self.path, self.timeout) from None
        finally:
            conn.close()

    def _create_private(self) -> None:
        """The file, readable by its owner only (SQLite gives its -wal and -shm files the
        same mode); an existing one of ours is made private too."""
        try:
            os.close(os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            st = self.path.stat()
            if st.st_mode & 0o077 and st.st_uid == os.getuid():
                os.chmod(self.path, st.st_mode & 0o700)

    @staticmethod
    def _version(conn: sqlite3.Connection) -> int:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = "
                                             "'table'")}
        if "meta" not in tables:
            if tables - {"sqlite_sequence"}:
                raise sqlite3.DatabaseError("no such table: meta")
            return 0
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        return int(row[0]) if row is not None else 0

    def _prepare(self, conn: sqlite3.Connection) -> None:
        """WAL and the tables at this version of the schema, once per file (a no-op when
        they are there). Changing the journal mode needs a moment alone with the file:
        when many kernels create the database at once it is retried until the timeout."""
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
                if str(mode).lower() != "wal":
                    conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = FULL")
                version = self._version(conn)
                if version > SCHEMA_VERSION:
                    raise StoreError(
                        f"the class database {self.path} was made by a newer version of the "
                        f"lab (schema {version}, this one knows {SCHEMA_VERSION}); it was "
                        "left as it is",
                        "the class database was made by a newer version of the lab")
                if version < SCHEMA_VERSION:
                    self._migrate(conn)
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc).lower() or time.monotonic() > deadline:
                    raise
                with contextlib.suppress(sqlite3.Error):
                    conn.rollback()
                time.sleep(0.02)

    def _migrate(self, conn: sqlite3.Connection) -> None:
        """Create the tables, or bring an older file up to date, in one transaction."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = self._version(conn)  # another process may have done it meanwhile
            if version == 0:
                _script(conn, _BASE)
                version = 1
            for step in MIGRATIONS[version - 1:]:
                _script(conn, step)
            conn.execute("UPDATE meta SET value = ? WHERE key = 'schema'",
                         (str(SCHEMA_VERSION),))
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise

    def secret(self) -> bytes:
        """The class's secret: 32 random bytes in ``class.key`` (readable by its owner
        only), made the first time it is asked for. The kernels sign the answers a page
        holds with it, so an answer a page sends again is one a lesson of this class made
        (:mod:`widgets.classroom`)."""
        path = self.folder / KEY_NAME
        for _attempt in range(2):
            try:
                return bytes.fromhex(path.read_text(encoding="ascii").strip())
            except FileNotFoundError:
                pass
            except (OSError, ValueError) as exc:
                raise StoreError(f"cannot read the class's key {path}: {exc}",
                                 "cannot read the class's key") from None
            try:
                self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
                # Written aside, then linked in place: a reader never sees half a key.
                part = path.with_name(f"{KEY_NAME}.{os.getpid()}.part")
                fd = os.open(part, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o600)
                with os.fdopen(fd, "w", encoding="ascii") as f:
                    f.write(os.urandom(32).hex() + "\n")
                try:
                    os.link(part, path)
                except FileExistsError:
                    pass  # another kernel made it meanwhile: theirs is the key
                finally:
                    part.unlink()
            except OSError as exc:
                raise StoreError(f"cannot make the class's key {path}: {exc.strerror or exc}",
                                 "cannot make the class's key") from None
        raise StoreError(f"cannot read the class's key {path}", "cannot read the class's key")

    # ------------------------------------------------------------------ writing

    def join(self, student: str, name: str = "") -> int:
        """A student's page is here (opened, still open, or its name changed); returns the
        class's generation (raised by :meth:`clear`)."""
        name = clean_name(name)
        _check_id(student, "student")
        _check_length(name, NAME_MAX, "name")
        now = time.time()
        with self._connect(write=True) as conn:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO students (student, name, joined, seen) VALUES "
                         "(?, ?, ?, ?) ON CONFLICT (student) DO UPDATE SET name = "
                         "excluded.name, seen = excluded.seen", (student, name, now, now))
            generation = _generation(conn)
            conn.execute("COMMIT")
        return generation

    def record(self, *answers: Answer) -> Recorded:
        """Store answers (one transaction: all or none). An answer whose ``uid`` is stored
        already changes nothing; one made before the class was cleared is not stored."""
        answers = tuple(_cleaned(a) for a in answers)
        for a in answers:
            _check(a)
        done = Recorded()
        if not answers:
            return done
        with self._connect(write=True) as conn:
            conn.execute("BEGIN IMMEDIATE")
            generation = _generation(conn)
            for a in answers:
                if a.generation is not None and a.generation < generation:
                    done.dropped.append(a.uid)
                    continue
                cursor = conn.execute(
                    "INSERT INTO answers (at, student, name, question, title, kind, answer, "
                    "exact, exact_text, uid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (uid) DO NOTHING",
                    (a.at, a.student, a.name, a.question, a.title, a.kind, float(a.answer),
                     a.exact, a.exact_text, a.uid))
                if cursor.rowcount == 0:
                    done.already.append(a.uid)
                    continue
                done.stored.append(a.uid)
                # A student met first through an answer joins with the answer's name; a
                # known one keeps their current name (an answer may be older than it).
                conn.execute("INSERT INTO students (student, name, joined, seen) VALUES "
                             "(?, ?, ?, ?) ON CONFLICT (student) DO UPDATE SET seen = "
                             "max(students.seen, excluded.seen)",
                             (a.student, a.name, a.at, a.at))
            conn.execute("COMMIT")
        return done

    def clear(self) -> int:
        """Forget every answer and student (a new class); returns the answers removed.
        The class's generation goes up: an answer a page kept from before is not stored."""
        with self._connect(write=True) as conn:
            conn.execute("BEGIN IMMEDIATE")
            count = int(conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0])
            conn.execute("DELETE FROM answers")
            conn.execute("DELETE FROM students")
            conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = "
                         "'generation'")
            conn.execute("COMMIT")
        return count

    # ------------------------------------------------------------------ reading

    def answers(self, question: str | None = None) -> list[Answer]:
        with self._connect(write=False) as conn:
            sql = ("SELECT student, question, answer, kind, name, title, exact, exact_text, at, "
                   "id, uid FROM answers")
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

    def generation(self) -> int:
        with self._connect(write=False) as conn:
            return _generation(conn)

    def summary(self, now: float | None = None, present_s: float = PRESENT_S
                ) -> list[dict[str, Any]]:
        """Per question (the most recently answered first): how many students answered,
        each one's latest answer, the distribution of those answers against the exact
        value, and who has not answered yet (:func:`summarize`)."""
        return summarize(self.answers(), self.students(), now, present_s)

    # ------------------------------------------------------------------ CSV

    def export_csv(self) -> str:
        """Every answer as CSV (a header line, then one row per answer, oldest first)."""
        return answers_csv(self.answers())


def _script(conn: sqlite3.Connection, sql: str) -> None:
    """Statements one by one (``executescript`` would commit the open transaction)."""
    for statement in sql.split(";"):
        if statement.strip():
            conn.execute(statement)


def _generation(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
    return int(row[0]) if row is not None else 0


def _check_id(value: str, what: str) -> None:
    if not isinstance(value, str) or not ID.fullmatch(value):
        raise ValueError(f"an answer's {what} id is 1 to {ID_MAX} letters, digits, - or _, "
                         f"not {str(value)[:80]!r}")


def _check_length(text: str, most: int, what: str) -> None:
    if len(text) > most:
        raise ValueError(f"a {what} is at most {most} characters (this one has {len(text)})")


def _cleaned(a: Answer) -> Answer:
    return a if a.name == clean_name(a.name) else replace(a, name=clean_name(a.name))


def check_value(value: Any, kind: str) -> float:
    """An answer's value as stored, or ValueError saying what is wrong: a chance is from 0
    to 1, a count from 0, a mean or count at most :data:`VALUE_MAX` in size."""
    if kind not in KINDS:
        raise ValueError(f"an answer's kind is one of {', '.join(KINDS)}, not {kind!r}")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"an answer must be a number, not {value!r}") from None
    if not math.isfinite(number):
        raise ValueError(f"an answer must be a number, not {value!r}")
    if kind == "probability" and not 0 <= number <= 1:
        raise ValueError(f"a chance is from 0 to 1, not {number!r}")
    if kind == "count" and number < 0:
        raise ValueError(f"a count is 0 or more, not {number!r}")
    if abs(number) > VALUE_MAX:
        raise ValueError(f"an answer is at most {VALUE_MAX:,.0f} in size, not {number!r}")
    return number


def check_answer(a: Answer) -> None:
    """ValueError naming what the store would refuse in an answer."""
    _check(_cleaned(a))


def _check(a: Answer) -> None:
    _check_id(a.student, "student")
    if a.uid is not None:
        _check_id(a.uid, "uid")
    if not a.question or not a.question.isprintable():
        raise ValueError("an answer needs a question (printable text)")
    _check_length(a.question, QUESTION_MAX, "question")
    _check_length(a.title, TITLE_MAX, "title")
    _check_length(a.exact_text, EXACT_TEXT_MAX, "exact value's text")
    _check_length(a.name, NAME_MAX, "name")
    check_value(a.answer, a.kind)
    if a.exact is not None and not math.isfinite(float(a.exact)):
        raise ValueError(f"an exact value must be a number, not {a.exact!r}")
    if not math.isfinite(float(a.at)):
        raise ValueError(f"an answer's time must be a number, not {a.at!r}")


# ====================================================================== summaries

def _person(student: str, name: str) -> str:
    """Who: a student who typed a name is that name (a page reloaded, or opened twice, is
    still one student); one who did not is their page."""
    name = " ".join(name.split()).lower()
    return f"name:{name}" if name else f"page:{student}"


def _label(student: str, name: str) -> str:
    return name or f"anonymous ({student[:4]})"


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
        now_person[s.student] = _person(s.student, s.name)
        if now - s.seen <= present_s:
            here.setdefault(now_person[s.student], s.label)
    latest: dict[str, dict[str, Answer]] = {}
    pages: dict[str, set[str]] = {}  # question -> who answered it, as they are now
    for a in sorted(answers, key=lambda a: (a.at, a.id or 0)):
        latest.setdefault(a.question, {})[_person(a.student, a.name)] = a
        pages.setdefault(a.question, set()).add(
            now_person.get(a.student, _person(a.student, a.name)))
    order = sorted(latest, key=lambda q: -max(a.at for a in latest[q].values()))
    out = []
    for question in order:
        by_person = latest[question]
        last = max(by_person.values(), key=lambda a: (a.at, a.id or 0))
        values = [a.answer for a in by_person.values()]
        outliers = far_off(values, last.kind)
        kept = [v for v in values if v not in outliers]
        missing = [label for who, label in here.items()
                   if who not in by_person and who not in pages[question]]
        out.append({
            "question": question, "title": last.title, "kind": last.kind,
            "exact": last.exact, "exact_text": last.exact_text,
            "answered": len(by_person), "students": len(by_person) + len(missing),
            "answers": [{"student": _label(a.student, a.name), "answer": a.answer}
                        for a in by_person.values()],
            "mean": sum(kept) / len(kept) if kept else None,
            "median": statistics.median(values) if values else None,
            "far_off": len(values) - len(kept),
            "bins": bins(values, last.kind, last.exact),
            "missing": missing,
        })
    return out


def present(students: Sequence[Student], now: float | None = None,
            present_s: float = PRESENT_S) -> int:
    """How many students are in the class now (:func:`summarize`'s definition)."""
    now = time.time() if now is None else now
    return len({_person(s.student, s.name) for s in students if now - s.seen <= present_s})


# ====================================================================== CSV

CSV_COLUMNS = ("id", "time", "epoch", "student", "name", "question", "title", "kind", "answer",
               "exact", "exact_text", "uid")
#: The columns of the files written before answers had a page's id (read as they are).
CSV_COLUMNS_V1 = CSV_COLUMNS[:-1]
#: What a spreadsheet may take for a formula at the start of a cell (OWASP, "CSV
#: injection"): such a text cell is written with a ``'`` before it, and so is one that
#: begins with ``'`` itself, so that reading drops exactly one.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def neutral(text: str) -> str:
    """A text cell a spreadsheet shows as text (:data:`FORMULA_START`)."""
    return "'" + text if text.startswith((*FORMULA_START, "'")) else text


def _unneutral(text: str) -> str:
    return text[1:] if text.startswith("'") else text


def answers_csv(answers: Iterable[Answer]) -> str:
    """Answers as CSV: ``time`` in ISO 8601 (UTC) for people, ``epoch`` (seconds) and the
    numbers exactly (``repr``), every text cell :func:`neutral`, so that
    :func:`answers_from_csv` gives the same answers back and a spreadsheet runs nothing."""
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
                         neutral(a.exact_text), neutral(a.uid or "")])
    return out.getvalue()


def answers_from_csv(text: str) -> list[Answer]:
    """The answers of a CSV written by :func:`answers_csv` (or by the lab before answers
    had ids; ValueError names the line)."""
    reader = csv.DictReader(io.StringIO(text))
    columns = tuple(reader.fieldnames or ())
    if columns not in (CSV_COLUMNS, CSV_COLUMNS_V1):
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
                uid=(cell(row["uid"]) or None) if not plain else None))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"line {line}: {exc}") from None
    return out


__all__ = ["Answer", "CSV_COLUMNS", "ClassStore", "FILE_NAME", "FORMULA_START", "KEY_NAME",
           "MIGRATIONS", "NAME_MAX", "PRESENT_S", "Recorded", "SCHEMA_VERSION", "Student",
           "StoreError", "answers_csv", "answers_from_csv", "bins", "check_answer",
           "check_value", "clean_name", "far_off", "neutral", "present", "summarize"]
