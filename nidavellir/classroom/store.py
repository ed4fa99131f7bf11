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
Recorded(stored=['p1'], already=[], dropped=[], refused={})
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
import hashlib
import hmac
import io
import json
import math
import os
import re
import sqlite3
import statistics
import time
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..i18n import N_, _, number

#: The database's file name in the class folder.
FILE_NAME = "answers.sqlite"
#: The class's secret beside it (:meth:`ClassStore.secret`).
KEY_NAME = "class.key"
#: Seconds a writer waits for another one before the database counts as locked.
DEFAULT_TIMEOUT = 10.0
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
#: Seconds since a student's page last gave a sign for the student to count as in the class.
PRESENT_S = 180.0
#: A lesson run's name is typed by the teacher ("3b, Tuesday").
RUN_NAME_MAX = 60
#: When students see a question's simulation and exact answer: right after answering
#: (the lab's behaviour without a teacher), or once the teacher reveals it.
REVEAL_AFTER, REVEAL_TEACHER = "after", "teacher"
#: The most steps a lesson may have (a lock names one of them).
STEP_MAX = 999
#: The "lesson" of the positions the teacher asks about from the teacher page: position
#: ``n`` is the question ``asked/p<n>``, its one step is 1.
ASKED = "asked"
#: The largest game record the teacher may ask about (a whole 5-player game with
#: Thingvellir is about 20 kB of JSON).
RECORD_MAX = 1_000_000
#: The longest question, situation and title of an asked position.
ASK_QUESTION_MAX = 200
ASK_SITUATION_MAX = 2000

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
    # 3: lesson runs (each answer belongs to one; the answers stored before are the first
    # run's) and the teacher's controls, every change a row: the class's state at any
    # moment is the latest row before it (:class:`ClassState`). Each answer may say which
    # step of its lesson it answers (the pace's rules need it); each step a student reached,
    # when first (the teacher's progress grid).
    """CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,
        started REAL NOT NULL);
    INSERT INTO runs (id, name, started) VALUES (1, 'Run 1',
        COALESCE((SELECT MIN(at) FROM answers), CAST(strftime('%s', 'now') AS REAL)));
    ALTER TABLE answers ADD COLUMN run INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE answers ADD COLUMN step INTEGER;
    CREATE INDEX answers_by_run ON answers (run, id);
    CREATE TABLE controls (id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL,
        state TEXT NOT NULL);
    CREATE TABLE reached (student TEXT NOT NULL, run INTEGER NOT NULL, lesson TEXT NOT NULL,
        step INTEGER NOT NULL, at REAL NOT NULL, PRIMARY KEY (student, run, lesson, step));
    INSERT INTO controls (at, state) VALUES (0, '{"run": 1}');""",
    # 4: an answer to a position question ("What would you play here?") is a move, in
    # notation (its kind is 'move'; its number column holds 0). The answers before have
    # none.
    """ALTER TABLE answers ADD COLUMN move TEXT;""",
    # 5: the positions the teacher asked the class about from the teacher page (a game
    # record, a decision number, the seat whose view the class sees, the question), each
    # in the lesson run it was asked in; the class's state says which one is asked now.
    """CREATE TABLE positions (id INTEGER PRIMARY KEY AUTOINCREMENT, run INTEGER NOT NULL,
        at REAL NOT NULL, record TEXT NOT NULL, decision INTEGER NOT NULL,
        seat INTEGER NOT NULL, question TEXT NOT NULL, title TEXT NOT NULL,
        situation TEXT NOT NULL DEFAULT '');
    CREATE INDEX positions_by_run ON positions (run, id);""",
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
class Run:
    """One run of a lesson ("3b, Tuesday"): the answers given while it was in progress."""

    id: int
    name: str
    started: float
    answers: int = 0


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
    version: int = 0
    at: float = 0.0

    @classmethod
    def from_json(cls, text: str, version: int = 0, at: float = 0.0) -> ClassState:
        data = json.loads(text)
        lock, asked = data.get("lock"), data.get("asked")
        return cls(run=int(data.get("run", 1)), lesson=data.get("lesson"),
                   lock=None if lock is None else int(lock), paused=bool(data.get("paused")),
                   teacher_led=tuple(data.get("teacher_led", ())),
                   revealed=tuple(data.get("revealed", ())), projected=data.get("projected"),
                   names=bool(data.get("names")),
                   pins=tuple(int(p) for p in data.get("pins", ())),
                   asked=None if asked is None else int(asked), version=version, at=at)

    def to_json(self) -> str:
        return json.dumps({"run": self.run, "lesson": self.lesson, "lock": self.lock,
                           "paused": self.paused, "teacher_led": list(self.teacher_led),
                           "revealed": list(self.revealed), "projected": self.projected,
                           "names": self.names, "pins": list(self.pins),
                           "asked": self.asked}, sort_keys=True)

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


class NoSuchRun(ValueError):
    """A lesson run the class database does not have."""


@dataclass(frozen=True)
class Student:
    student: str
    name: str
    joined: float
    seen: float

    @property
    def label(self) -> str:
        return _label(self.student, self.name)


@dataclass
class Recorded:
    """What :meth:`ClassStore.record` did with each answer, by ``uid``."""

    stored: list[str | None] = field(default_factory=list)
    already: list[str | None] = field(default_factory=list)
    """Stored before (sent again): nothing changed."""
    dropped: list[str | None] = field(default_factory=list)
    """Made in a lesson run deleted since (or before a Clear of an earlier lab): not
    stored."""
    refused: dict[str | None, str] = field(default_factory=dict)
    """Made where the teacher's pace or pause did not allow it, with why: not stored."""


def clean_name(text: str) -> str:
    """A typed name as it is stored: control characters out, runs of spaces as one."""
    kept = "".join(c for c in text if not unicodedata.category(c).startswith("C") or c in " \t\n")
    return " ".join(kept.split())


def _describe(exc: sqlite3.Error, path: Path, timeout: float) -> StoreError:
    """What went wrong with the database, for the teacher (with its path) and for a
    student's page (``public``: without it), in the current language; SQLite's own text
    (English, for whoever rescues the file) as a placeholder."""
    text = str(exc)
    low = text.lower()
    if "locked" in low or "busy" in low:
        # Translators: {seconds} is how long the lab waited for the database, e.g. "10".
        return StoreError(
            _("the class database {path} is locked by another program (it waited {seconds} "
              "s)").format(path=path, seconds=number(timeout)),
            _("the class database is locked by another program (it waited {seconds} "
              "s)").format(seconds=number(timeout)))
    if "not a database" in low or "malformed" in low or "corrupt" in low:
        # Translators: {error} is SQLite's own message (English), e.g. "file is not a
        # database".
        return StoreError(
            _("the class database {path} is damaged ({error}); it was left as it is: move "
              "it aside to start a new one").format(path=path, error=text),
            _("the class database is damaged ({error}); it was left as it is: move it "
              "aside to start a new one").format(error=text))
    if "readonly" in low or "read-only" in low:
        return StoreError(_("the class database {path} is read-only").format(path=path),
                          _("the class database is read-only"))
    if "unable to open" in low:
        return StoreError(_("cannot open the class database {path}: is its folder "
                            "writable?").format(path=path),
                          _("cannot open the class database: is its folder writable?"))
    if "no such table" in low or "no such column" in low:
        return StoreError(_("{path} is not the lab's class database ({error}); it was left "
                            "as it is: move it aside to start a new one").format(
                                path=path, error=text),
                          _("the class database is not the lab's"))
    return StoreError(_("the class database {path} failed: {error}").format(path=path,
                                                                             error=text),
                      _("the class database failed: {error}").format(error=text))


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
                # Translators: {error} is the system's reason (English), e.g.
                # "Permission denied".
                raise StoreError(_("cannot create the class folder {folder}: {error}").format(
                                     folder=self.folder, error=exc.strerror or exc),
                                 _("cannot create the class folder: {error}").format(
                                     error=exc.strerror or exc)) from None
        elif not self.path.exists():
            raise StoreError(_("no class database yet at {path}: nobody has answered").format(
                path=self.path), _("no class database yet: nobody has answered"))
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
                        _("the class database {path} was made by a newer version of the lab "
                          "(schema {version}, this one knows {known}); it was left as it "
                          "is").format(path=self.path, version=version, known=SCHEMA_VERSION),
                        _("the class database was made by a newer version of the lab"))
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
                raise StoreError(_("cannot read the class's key {path}: {error}").format(
                    path=path, error=exc), _("cannot read the class's key")) from None
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
                raise StoreError(_("cannot make the class's key {path}: {error}").format(
                    path=path, error=exc.strerror or exc), _("cannot make the class's key")
                ) from None
        raise StoreError(_("cannot read the class's key {path}").format(path=path),
                         _("cannot read the class's key"))

    # ------------------------------------------------------------------ writing

    def join(self, student: str, name: str = "") -> int:
        """A student's page is here (opened, still open, or its name changed); returns the
        class's generation (raised by a Clear of a lab before lesson runs)."""
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
        already changes nothing. Each goes to the lesson run in progress when it was made
        (its ``at``), under the rules of that moment (:meth:`ClassState.refusal`): one
        made while the class was paused, or beyond its locked step, is refused, with why;
        one whose run was deleted since is dropped."""
        answers = tuple(_cleaned(a) for a in answers)
        for a in answers:
            _check(a)
        done = Recorded()
        if not answers:
            return done
        with self._connect(write=True) as conn:
            conn.execute("BEGIN IMMEDIATE")
            generation = _generation(conn)
            runs = {int(r[0]) for r in conn.execute("SELECT id FROM runs")}
            for a in answers:
                if a.generation is not None and a.generation < generation:
                    done.dropped.append(a.uid)
                    continue
                then = _state_at(conn, a.at)
                why = then.refusal(a.question, a.step)
                if why is not None:
                    done.refused[a.uid] = why
                    continue
                if then.run not in runs:
                    done.dropped.append(a.uid)
                    continue
                cursor = conn.execute(
                    "INSERT INTO answers (at, student, name, question, title, kind, answer, "
                    "exact, exact_text, uid, run, step, move) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
                    "?, ?, ?, ?, ?) ON CONFLICT (uid) DO NOTHING",
                    (a.at, a.student, a.name, a.question, a.title, a.kind, float(a.answer),
                     a.exact, a.exact_text, a.uid, then.run, a.step, a.move))
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

    def reach(self, student: str, lesson: str, step: int) -> None:
        """A student's page shows ``step`` (1 for the first) of ``lesson``: kept, with the
        time it first did, for the run in progress (the teacher's progress grid)."""
        _check_id(student, "student")
        _check_id(lesson, "lesson")
        if isinstance(step, bool) or not isinstance(step, int) or not 1 <= step <= STEP_MAX:
            raise ValueError(_("a step is a whole number from 1 to {most}, not {step!r}").format(
                most=STEP_MAX, step=step))
        with self._connect(write=True) as conn:
            conn.execute("BEGIN IMMEDIATE")
            run = _state_at(conn, None).run
            conn.execute("INSERT OR IGNORE INTO reached (student, run, lesson, step, at) "
                         "VALUES (?, ?, ?, ?, ?)", (student, run, lesson, step, time.time()))
            conn.execute("COMMIT")

    def progress(self, run: int | None = None) -> list[dict[str, Any]]:
        """The progress grid of a run (the one in progress by default): per student and
        step of a lesson, when the student first reached it and their latest answer to it
        (its value, the exact value, when). A student is counted as :func:`summarize`
        counts them (a name, or a page without one)."""
        run = self.state().run if run is None else run
        with self._connect(write=False) as conn:
            reached = conn.execute("SELECT student, lesson, step, at FROM reached WHERE "
                                   "run = ?", (run,)).fetchall()
        students = self.students()
        return progress_grid(reached, self.answers(run=run), students)

    # ------------------------------------------------------------------ the teacher's controls

    def state(self) -> ClassState:
        """The class's state now (the default, free and running, before any database)."""
        if not self.path.exists():
            return ClassState()
        with self._connect(write=False) as conn:
            return _state_at(conn, None)

    def _control(self, change: Any) -> ClassState:
        """One change of the state, ``change(conn, state) -> state`` (ValueError when it
        is refused), written as a new row in one transaction."""
        with self._connect(write=True) as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                now = _state_at(conn, None)
                new = change(conn, now)
                at = max(time.time(), now.at)  # the rows' times never go back
                cursor = conn.execute("INSERT INTO controls (at, state) VALUES (?, ?)",
                                      (at, new.to_json()))
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
        return replace(new, version=int(cursor.lastrowid or 0), at=at)

    def lock(self, lesson: str, step: int) -> ClassState:
        """Lock the class at ``step`` of ``lesson`` (1 for the first): students may go
        back, not beyond."""
        if not isinstance(lesson, str) or not ID.fullmatch(lesson):
            raise ValueError(_("a lesson's key is 1 to {most} letters, digits, - or _, not "
                               "{lesson!r}").format(most=ID_MAX, lesson=str(lesson)[:80]))
        if isinstance(step, bool) or not isinstance(step, int) or not 1 <= step <= STEP_MAX:
            raise ValueError(_("a step is a whole number from 1 to {most}, not {step!r}"
                               ).format(most=STEP_MAX, step=step))
        return self._control(lambda _c, s: replace(s, lesson=lesson, lock=step))

    def release(self) -> ClassState:
        """Every student goes at their own pace again."""
        return self._control(lambda _c, s: replace(s, lesson=None, lock=None))

    def pause(self) -> ClassState:
        return self._control(lambda _c, s: replace(s, paused=True))

    def resume(self) -> ClassState:
        return self._control(lambda _c, s: replace(s, paused=False))

    def set_reveal(self, question: str, mode: str) -> ClassState:
        """Whether students see ``question``'s simulation and exact answer right after
        answering (:data:`REVEAL_AFTER`) or when the teacher reveals it
        (:data:`REVEAL_TEACHER`)."""
        _check_question(question)
        if mode not in (REVEAL_AFTER, REVEAL_TEACHER):
            raise ValueError(_("a reveal mode is {after!r} or {teacher!r}, not {mode!r}").format(
                after=REVEAL_AFTER, teacher=REVEAL_TEACHER, mode=str(mode)[:40]))

        def change(_c: Any, s: ClassState) -> ClassState:
            led = [q for q in s.teacher_led if q != question]
            led += [question] if mode == REVEAL_TEACHER else []
            return replace(s, teacher_led=tuple(led))
        return self._control(change)

    def reveal(self, question: str, shown: bool = True) -> ClassState:
        """Show (or hide again) ``question``'s simulation and exact answer to the class."""
        _check_question(question)

        def change(_c: Any, s: ClassState) -> ClassState:
            kept = tuple(q for q in s.revealed if q != question)
            return replace(s, revealed=kept + ((question,) if shown else ()))
        return self._control(change)

    # ------------------------------------------------------------------ the projector

    def project(self, question: str | None) -> ClassState:
        """The question the projector view shows (None: the locked step's, or the one
        answered last)."""
        if question is not None:
            _check_question(question)
        return self._control(lambda _c, s: replace(s, projected=question))

    def show_names(self, shown: bool) -> ClassState:
        """Pseudonyms on the projector view (:func:`pseudonym`), or no names at all."""
        return self._control(lambda _c, s: replace(s, names=bool(shown)))

    def pin(self, answer: int) -> ClassState:
        """Pin an answer of the run in progress for the projector (after the others)."""
        def change(conn: sqlite3.Connection, s: ClassState) -> ClassState:
            row = conn.execute("SELECT run FROM answers WHERE id = ?", (answer,)).fetchone()
            if isinstance(answer, bool) or row is None or row[0] != s.run:
                raise ValueError(_("there is no answer {answer!r} in the run in progress"
                                   ).format(answer=answer))
            return replace(s, pins=tuple(p for p in s.pins if p != answer) + (answer,))
        return self._control(change)

    def unpin(self, answer: int) -> ClassState:
        return self._control(lambda _c, s: replace(s, pins=tuple(p for p in s.pins
                                                                 if p != answer)))

    def move_pin(self, answer: int, by: int) -> ClassState:
        """Move a pinned answer ``by`` places (-1: one to the left)."""
        def change(_c: Any, s: ClassState) -> ClassState:
            if answer not in s.pins:
                raise ValueError(_("the answer {answer!r} is not pinned").format(answer=answer))
            pins = [p for p in s.pins if p != answer]
            place = max(0, min(len(pins), s.pins.index(answer) + by))
            pins.insert(place, answer)
            return replace(s, pins=tuple(pins))
        return self._control(change)

    # ------------------------------------------------------------------ asked positions

    def ask(self, record: dict[str, Any], decision: int, seat: int, question: str,
            title: str, situation: str = "") -> ClassState:
        """Ask the class about a position: kept in the run in progress, and asked now
        (every student's page shows it; the projector projects it). Whether the record
        replays and the seat decides there is the caller's to check first
        (:func:`nidavellir.lessons.position.asked_step`); this checks what is stored."""
        text = _record_text(record)
        for value, what in ((decision, _("a decision")), (seat, _("a seat"))):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10**6:
                raise ValueError(_("{what} is a whole number, not {value!r}").format(
                    what=what, value=value))
        question, title = clean_name(question), clean_name(title)
        if not question:
            raise ValueError(_("the question must not be empty (e.g. 'What do you bid?')"))
        _check_length(question, ASK_QUESTION_MAX, "question")
        _check_length(title, TITLE_MAX, "title")
        _check_length(situation, ASK_SITUATION_MAX, "situation")

        def change(conn: sqlite3.Connection, s: ClassState) -> ClassState:
            cursor = conn.execute(
                "INSERT INTO positions (run, at, record, decision, seat, question, title, "
                "situation) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (s.run, time.time(), text, decision, seat, question, title, situation))
            n = int(cursor.lastrowid or 0)
            return replace(s, asked=n, projected=asked_question(n))
        return self._control(change)

    def ask_again(self, position: int) -> ClassState:
        """Ask again about a position asked earlier in the run in progress (its answers
        so far stay)."""
        def change(conn: sqlite3.Connection, s: ClassState) -> ClassState:
            row = conn.execute("SELECT run FROM positions WHERE id = ?",
                               (position,)).fetchone()
            if isinstance(position, bool) or row is None or row[0] != s.run:
                raise ValueError(_("there is no position {position!r} asked in the run in "
                                   "progress").format(position=position))
            return replace(s, asked=position, projected=asked_question(position))
        return self._control(change)

    def end_ask(self) -> ClassState:
        """The class goes back to its lesson (the position and its answers are kept)."""
        def change(_c: Any, s: ClassState) -> ClassState:
            projected = (None if s.asked is not None and s.projected == asked_question(s.asked)
                         else s.projected)
            return replace(s, asked=None, projected=projected)
        return self._control(change)

    def positions(self, run: int | None = None) -> list[AskedPosition]:
        """The positions asked (in one run), the first first."""
        if not self.path.exists():
            return []
        sql = ("SELECT id, run, at, record, decision, seat, question, title, situation FROM "
               "positions" + (" WHERE run = ?" if run is not None else "") + " ORDER BY id")
        with self._connect(write=False) as conn:
            rows = conn.execute(sql, () if run is None else (run,)).fetchall()
        return [_position(row) for row in rows]

    def position(self, position: int) -> AskedPosition | None:
        """One asked position (None: there is none of that number)."""
        if not self.path.exists():
            return None
        with self._connect(write=False) as conn:
            row = conn.execute("SELECT id, run, at, record, decision, seat, question, title, "
                               "situation FROM positions WHERE id = ?", (position,)).fetchone()
        return None if row is None else _position(row)

    # ------------------------------------------------------------------ lesson runs

    def runs(self) -> list[Run]:
        """Every lesson run, the first first, with its number of answers."""
        if not self.path.exists():
            return [Run(1, "Run 1", 0.0, 0)]
        with self._connect(write=False) as conn:
            rows = conn.execute(
                "SELECT r.id, r.name, r.started, COUNT(a.id) FROM runs r LEFT JOIN answers "
                "a ON a.run = r.id GROUP BY r.id ORDER BY r.id").fetchall()
        return [Run(int(i), str(n), float(t), int(c)) for i, n, t, c in rows]

    def new_run(self, name: str) -> ClassState:
        """A new lesson run named ``name``; the answers from now on go to it. The pace is
        free, nothing is paused or revealed (which questions wait for the teacher's reveal
        is kept: it is the lesson's plan)."""
        name = _run_name(name)

        def change(conn: sqlite3.Connection, s: ClassState) -> ClassState:
            cursor = conn.execute("INSERT INTO runs (name, started) VALUES (?, ?)",
                                  (name, time.time()))
            return replace(s, run=int(cursor.lastrowid or 0), lesson=None, lock=None,
                           paused=False, revealed=(), projected=None, pins=(), asked=None)
        return self._control(change)

    def reopen(self, run: int) -> ClassState:
        """Go on with an earlier run: the answers from now on go to it, with what it had
        revealed; the pace is free and nothing is paused."""
        def change(conn: sqlite3.Connection, s: ClassState) -> ClassState:
            _check_run(conn, run)
            revealed: tuple[str, ...] = ()
            for (text,) in conn.execute("SELECT state FROM controls ORDER BY id DESC"):
                old = ClassState.from_json(text)
                if old.run == run:
                    revealed = old.revealed
                    break
            return replace(s, run=run, lesson=None, lock=None, paused=False,
                           revealed=revealed, projected=None, pins=(), asked=None)
        return self._control(change)

    def rename_run(self, run: int, name: str) -> Run:
        name = _run_name(name)
        with self._connect(write=True) as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                _check_run(conn, run)
                conn.execute("UPDATE runs SET name = ? WHERE id = ?", (name, run))
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
        return next(r for r in self.runs() if r.id == run)

    def delete_run(self, run: int) -> int:
        """Delete a run and its answers (the one in progress cannot be: start or reopen
        another first); returns the answers deleted. An answer a page still keeps from
        that run is not stored afterwards."""
        with self._connect(write=True) as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                _check_run(conn, run)
                if _state_at(conn, None).run == run:
                    raise ValueError(_("run {run} is in progress: start a new run or "
                                       "reopen another before deleting it").format(run=run))
                count = conn.execute("DELETE FROM answers WHERE run = ?", (run,)).rowcount
                conn.execute("DELETE FROM positions WHERE run = ?", (run,))
                conn.execute("DELETE FROM runs WHERE id = ?", (run,))
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
        return int(count)

    # ------------------------------------------------------------------ reading

    def answers(self, question: str | None = None, run: int | None = None) -> list[Answer]:
        """The answers (of one question, of one run), in the order they arrived."""
        where, values = [], []
        for column, value in (("question", question), ("run", run)):
            if value is not None:
                where.append(f"{column} = ?")
                values.append(value)
        sql = ("SELECT student, question, answer, kind, name, title, exact, exact_text, at, "
               "id, uid, step, run, move FROM answers" + (" WHERE " + " AND ".join(where)
                                                    if where else "") + " ORDER BY id")
        with self._connect(write=False) as conn:
            rows = conn.execute(sql, values).fetchall()
        return [Answer(student=r[0], question=r[1], answer=r[2], kind=r[3], name=r[4],
                       title=r[5], exact=r[6], exact_text=r[7], at=r[8], id=r[9], uid=r[10],
                       step=r[11], run=r[12], move=r[13]) for r in rows]

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

    def summary(self, now: float | None = None, present_s: float = PRESENT_S,
                run: int | None = None) -> list[dict[str, Any]]:
        """Per question of a run (the one in progress by default; the most recently
        answered first): how many students answered, each one's latest answer, the
        distribution of those answers against the exact value, and who has not answered
        yet (:func:`summarize`)."""
        run = self.state().run if run is None else run
        return summarize(self.answers(run=run), self.students(), now, present_s)

    # ------------------------------------------------------------------ CSV

    def export_csv(self, run: int | None = None) -> str:
        """The answers of one run, or of every run (None), as CSV (a header line, then one
        row per answer, oldest first)."""
        if not self.path.exists():  # no answer yet: the first run, empty
            if run not in (None, 1):
                raise NoSuchRun(_("there is no lesson run {run!r} in the class database"
                                  ).format(run=run))
            return answers_csv([])
        if run is not None:
            with self._connect(write=False) as conn:
                _check_run(conn, run)
        names = {r.id: r.name for r in self.runs()}
        return answers_csv(self.answers(run=run), names)


def _script(conn: sqlite3.Connection, sql: str) -> None:
    """Statements one by one (``executescript`` would commit the open transaction)."""
    for statement in sql.split(";"):
        if statement.strip():
            conn.execute(statement)


def _state_at(conn: sqlite3.Connection, at: float | None) -> ClassState:
    """The class's state at the time ``at`` (now: None): the latest change made by then."""
    row = (conn.execute("SELECT id, at, state FROM controls ORDER BY id DESC LIMIT 1")
           if at is None else
           conn.execute("SELECT id, at, state FROM controls WHERE at <= ? ORDER BY id DESC "
                        "LIMIT 1", (at,))).fetchone()
    if row is None:
        return ClassState()
    return ClassState.from_json(row[2], version=int(row[0]), at=float(row[1]))


def _record_text(record: Any) -> str:
    """A game record as stored (JSON), or ValueError saying what is wrong with it."""
    if not isinstance(record, dict):
        raise ValueError(_("a game record is a JSON object (the file the lab saves)"))
    try:
        text = json.dumps(record, ensure_ascii=False, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(_("a game record is plain JSON: {error}").format(error=exc)) from None
    if len(text) > RECORD_MAX:
        raise ValueError(_("a game record is at most {most} characters of JSON (this one has "
                           "{n})").format(most=RECORD_MAX, n=len(text)))
    return text


def _position(row: Sequence[Any]) -> AskedPosition:
    return AskedPosition(id=int(row[0]), run=int(row[1]), at=float(row[2]),
                         record=json.loads(row[3]), decision=int(row[4]), seat=int(row[5]),
                         question=str(row[6]), title=str(row[7]), situation=str(row[8]))


def _check_run(conn: sqlite3.Connection, run: Any) -> None:
    if isinstance(run, bool) or not isinstance(run, int) or conn.execute(
            "SELECT 1 FROM runs WHERE id = ?", (run,)).fetchone() is None:
        raise NoSuchRun(_("there is no lesson run {run!r} in the class database").format(
            run=run))


def _run_name(name: Any) -> str:
    cleaned = clean_name(name) if isinstance(name, str) else ""
    if not cleaned:
        raise ValueError(_("a lesson run needs a name (for example \"3b, Tuesday\")"))
    _check_length(cleaned, RUN_NAME_MAX, "run's name")
    return cleaned


def _check_question(question: Any) -> None:
    if not isinstance(question, str) or not question or not question.isprintable():
        raise ValueError(_("a question is named by its id (printable text, lesson/step)"))
    _check_length(question, QUESTION_MAX, "question")


def _generation(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
    return int(row[0]) if row is not None else 0


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


def _check_id(value: str, what: str) -> None:
    if not isinstance(value, str) or not ID.fullmatch(value):
        raise ValueError(_(_BAD_ID[what]).format(most=ID_MAX, value=str(value)[:80]))


def _check_length(text: str, most: int, what: str) -> None:
    if len(text) > most:
        raise ValueError(_(_TOO_LONG[what]).format(most=most, n=len(text)))


def _cleaned(a: Answer) -> Answer:
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
    _check(_cleaned(a))


def _check(a: Answer) -> None:
    _check_id(a.student, "student")
    if a.uid is not None:
        _check_id(a.uid, "uid")
    if not a.question or not a.question.isprintable():
        raise ValueError(_("an answer needs a question (printable text)"))
    _check_length(a.question, QUESTION_MAX, "question")
    _check_length(a.title, TITLE_MAX, "title")
    _check_length(a.exact_text, EXACT_TEXT_MAX, "exact value's text")
    _check_length(a.name, NAME_MAX, "name")
    check_value(a.answer, a.kind)
    if a.kind == "move":
        if not isinstance(a.move, str) or not a.move.strip() or not a.move.isprintable():
            raise ValueError(_("an answer to a position question is a move in notation "
                               "(printable text), not {move!r}").format(move=a.move))
        _check_length(a.move, MOVE_MAX, "move")
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


# ====================================================================== summaries

def _person(student: str, name: str) -> str:
    """Who: a student who typed a name is that name (a page reloaded, or opened twice, is
    still one student); one who did not is their page."""
    name = " ".join(name.split()).lower()
    return f"name:{name}" if name else f"page:{student}"


def _label(student: str, name: str) -> str:
    # Translators: a student who typed no name, on the teacher page; {page} is the first
    # letters of their page's id, e.g. "anonymous (p3x9)".
    return name or _("anonymous ({page})").format(page=student[:4])


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
            "answers": [{"student": _label(a.student, a.name), "answer": a.answer,
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
    now_person = {s.student: (_person(s.student, s.name), s.label) for s in students}
    cells: dict[tuple[str, str, int], dict[str, Any]] = {}

    def cell(student: str, name: str | None, lesson: str, step: int) -> dict[str, Any]:
        who, label = (now_person.get(student, (_person(student, ""), _label(student, "")))
                      if name is None else (_person(student, name), _label(student, name)))
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
    order = [_person(s.student, s.name) for s in sorted(students, key=lambda s: s.joined)]
    order += [_person(a.student, a.name) for a in answers]
    out: dict[str, str] = {}
    for person in order:
        if person not in out:
            out[person] = pseudonym(person, key, set(out.values()))
    return out


def present(students: Sequence[Student], now: float | None = None,
            present_s: float = PRESENT_S) -> int:
    """How many students are in the class now (:func:`summarize`'s definition)."""
    now = time.time() if now is None else now
    return len({_person(s.student, s.name) for s in students if now - s.seen <= present_s})


# ====================================================================== CSV

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


__all__ = ["ASKED", "Answer", "AskedPosition", "CSV_COLUMNS", "CSV_COLUMNS_V3", "MOVE_MAX", "ClassState", "ClassStore", "FILE_NAME", "FORMULA_START",
           "KEY_NAME", "MIGRATIONS", "NAME_MAX", "NoSuchRun", "PRESENT_S", "REVEAL_AFTER",
           "REVEAL_TEACHER", "Recorded", "Run", "SCHEMA_VERSION", "StoreError", "Student",
           "answers_csv", "answers_from_csv", "asked_question", "bins", "check_answer", "check_value",
           "clean_name", "far_off", "neutral", "present", "progress_grid", "pseudonym",
           "pseudonyms",
           "summarize"]
