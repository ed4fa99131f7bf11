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
import json
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ...i18n import _, number
from .answers import (
    ID,
    ID_MAX,
    NAME_MAX,
    QUESTION_MAX,
    STEP_MAX,
    TITLE_MAX,
    Answer,
    Student,
    check_answer,
    check_id,
    check_length,
    clean_name,
    cleaned,
)
from .export import answers_csv
from .puzzle_sets import PuzzleSet, puzzle_set, set_text
from .state import (
    ASK_QUESTION_MAX,
    ASK_SITUATION_MAX,
    RECORD_MAX,
    REVEAL_AFTER,
    REVEAL_TEACHER,
    AskedPosition,
    ClassState,
    asked_question,
)
from .summary import PRESENT_S, progress_grid, summarize

#: The database's file name in the class folder.
FILE_NAME = "answers.sqlite"
#: The class's secret beside it (:meth:`ClassStore.secret`).
KEY_NAME = "class.key"
#: Seconds a writer waits for another one before the database counts as locked.
DEFAULT_TIMEOUT = 10.0
#: A lesson run's name is typed by the teacher ("3b, Tuesday").
RUN_NAME_MAX = 60

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
    # 6: the puzzle sets the teacher assigned (a name, what chose them, the puzzles' lines
    # of the puzzle file), each in the lesson run it was assigned in; the class's state says
    # which one is assigned now.
    """CREATE TABLE puzzle_sets (id INTEGER PRIMARY KEY AUTOINCREMENT, run INTEGER NOT NULL,
        at REAL NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL, puzzles TEXT NOT NULL);
    CREATE INDEX puzzle_sets_by_run ON puzzle_sets (run, id);""",
)
SCHEMA_VERSION = 1 + len(MIGRATIONS)


class StoreError(Exception):
    """The class database cannot be used right now; the message says why and what to do.
    ``public`` says the same without the server's paths (what a student's page shows)."""

    def __init__(self, message: str, public: str | None = None) -> None:
        super().__init__(message)
        self.public = public if public is not None else message


@dataclass(frozen=True)
class Run:
    """One run of a lesson ("3b, Tuesday"): the answers given while it was in progress."""

    id: int
    name: str
    started: float
    answers: int = 0


class NoSuchRun(ValueError):
    """A lesson run the class database does not have."""


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
        check_id(student, "student")
        check_length(name, NAME_MAX, "name")
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
        answers = tuple(cleaned(a) for a in answers)
        for a in answers:
            check_answer(a)
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
        check_id(student, "student")
        check_id(lesson, "lesson")
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
        check_length(question, ASK_QUESTION_MAX, "question")
        check_length(title, TITLE_MAX, "title")
        check_length(situation, ASK_SITUATION_MAX, "situation")

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

    # ------------------------------------------------------------------ puzzle sets

    def assign_puzzles(self, name: str, spec: dict[str, Any],
                       puzzles: Sequence[dict[str, Any]]) -> ClassState:
        """Assign a set of puzzles (their lines of the puzzle file) to the class: kept in
        the run in progress, and assigned now (every student's Puzzles tab serves it).
        Which puzzles is the caller's to choose
        (:func:`nidavellir.classroom.teacher.puzzles.choose`); this checks what is stored."""
        name, spec_text, text = set_text(name, spec, puzzles)

        def change(conn: sqlite3.Connection, s: ClassState) -> ClassState:
            cursor = conn.execute(
                "INSERT INTO puzzle_sets (run, at, name, spec, puzzles) VALUES (?, ?, ?, ?, ?)",
                (s.run, time.time(), name, spec_text, text))
            return replace(s, puzzles=int(cursor.lastrowid or 0))
        return self._control(change)

    def end_puzzles(self) -> ClassState:
        """No set is assigned any more (the sets and their answers are kept)."""
        return self._control(lambda _c, s: replace(s, puzzles=None))

    def puzzle_sets(self, run: int | None = None) -> list[PuzzleSet]:
        """The puzzle sets assigned (in one run), the first first."""
        if not self.path.exists():
            return []
        sql = ("SELECT id, run, at, name, spec, puzzles FROM puzzle_sets"
               + (" WHERE run = ?" if run is not None else "") + " ORDER BY id")
        with self._connect(write=False) as conn:
            rows = conn.execute(sql, () if run is None else (run,)).fetchall()
        return [puzzle_set(row) for row in rows]

    def puzzle_set(self, number: int) -> PuzzleSet | None:
        """One puzzle set (None: there is none of that number)."""
        if not self.path.exists():
            return None
        with self._connect(write=False) as conn:
            row = conn.execute("SELECT id, run, at, name, spec, puzzles FROM puzzle_sets "
                               "WHERE id = ?", (number,)).fetchone()
        return None if row is None else puzzle_set(row)

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
                           paused=False, revealed=(), projected=None, pins=(), asked=None,
                           puzzles=None)
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
                           revealed=revealed, projected=None, pins=(), asked=None,
                           puzzles=None)
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
                conn.execute("DELETE FROM puzzle_sets WHERE run = ?", (run,))
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
    check_length(cleaned, RUN_NAME_MAX, "run's name")
    return cleaned


def _check_question(question: Any) -> None:
    if not isinstance(question, str) or not question or not question.isprintable():
        raise ValueError(_("a question is named by its id (printable text, lesson/step)"))
    check_length(question, QUESTION_MAX, "question")


def _generation(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
    return int(row[0]) if row is not None else 0


__all__ = ["ClassStore", "DEFAULT_TIMEOUT", "FILE_NAME", "KEY_NAME", "MIGRATIONS", "NoSuchRun",
           "Recorded", "Run", "SCHEMA_VERSION", "StoreError"]
