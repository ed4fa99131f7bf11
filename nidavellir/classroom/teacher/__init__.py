"""The teacher page: the class's answers, live, behind the teacher's own password.

``python -m nidavellir.serve --class-dir DIR`` with a teacher password (the
``NIDAVELLIR_TEACHER_PASSWORD`` variable or ``--teacher-password-file``; ``make run
CLASS_DIR=...``) serves, beside the dashboards, ``/teacher``:

- ``GET /teacher``: the teacher password form, or (with the teacher's cookie) the page:
  per question, how many students answered, the distribution of their latest answers
  against the exact value, the class mean, who has not answered yet; it asks
  ``/teacher/api/answers`` for fresh data every second;
- ``POST /teacher/login``: the password; a wrong one gets the form again (401) and no
  data; failures slow down and lock out per client address (:mod:`nidavellir.classroom.guard`): while an
  address waits its tries are refused (429) without being checked;
- ``POST /teacher/logout``: the session ends (its cookie is worth nothing after);
- ``GET /teacher/api/answers`` (JSON: the run in progress, the class's state, the runs),
  ``GET /teacher/api/lessons`` (the lessons and their steps), ``GET
  /teacher/answers.csv`` (every run's answers), ``GET /teacher/runs/<run>.csv`` (one
  run's);
- ``POST /teacher/api/record`` (with the session's token): a game record read for *Ask
  the class about a position*: its players and decisions (``44: Cai bids``), or 400 and
  one sentence;
- ``POST /teacher/control`` (with the session's token): the teacher leads the lesson:
  ``action`` is ``lock`` (``lesson``, ``step``), ``release``, ``pause``, ``resume``,
  ``reveal-mode`` (``question``, ``mode``: ``after`` or ``teacher``), ``reveal`` /
  ``hide`` (``question``), ``new-run`` (``name``), ``reopen`` / ``delete-run``
  (``run``), ``rename-run`` (``run``, ``name``), ``ask`` (``record``, ``decision``,
  ``seat``, ``question``: ask the class about a position of a game record), ``ask-again``
  (``position``), ``end-ask``; the answer is the class's new state. A
  request that is not one of these gets 400 and one sentence saying what was wrong (an
  unknown run 404); the students' kernels read the state from the database
  (:class:`~nidavellir.classroom.store.ClassState`).

Without the teacher's cookie every data address answers 403 and nothing else. The
password is kept only as a salted scrypt hash (:class:`~.auth.TeacherAuth`), checked in a thread
of its own so that no check holds up the server. The cookie names a session: signed (an
HMAC with a secret drawn when the server starts), ``HttpOnly``, ``SameSite=Strict``, valid
for ``session_hours`` (8) and until *Log out* or the server stops. The pages are sent
with ``Content-Security-Policy: frame-ancestors 'none'`` (no other site may frame them) and
``X-Content-Type-Options: nosniff``. The data come from the class's SQLite database
(:mod:`nidavellir.classroom.store`): a missing, locked or damaged database is reported on
the page in one sentence; nothing is ever written to a damaged one.

Voila has no option for extra pages, so the handlers come in through the identity
provider (:class:`~.handlers.ClassViewIdentityProvider`, the class password's provider with
the teacher's handlers added).

The modules: :mod:`.auth` (the teacher password and sessions), :mod:`.pages` (the pages and
their words), :mod:`.ask` (*Ask the class about a position*), :mod:`.data` (what the teacher
page and the projector show), :mod:`.coach` (the coach's figures of position questions,
judged once per server), :mod:`.handlers` (tornado's handlers and the identity provider).
Only :mod:`.handlers` needs tornado and Voila; the page files (``teacher.html``,
``projector.html``, ``teacher_login.html``, ``chart.js``) lie beside them.
"""
