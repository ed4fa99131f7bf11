"""The teacher password and the sessions that prove it was typed (the teacher page's
module docstring): the password kept only as a salted scrypt hash, checked on a thread of
its own; a session's cookie signed with a secret of the class. With a class folder the
secret and the open sessions are kept in ``DIR/sessions.json``
(:class:`~nidavellir.classroom.sessions.SessionFile`): the teacher page survives a
restart of the server without the password typed again. Standard library only.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..sessions import SessionFile

#: The teacher's session cookie.
COOKIE = "nidavellir_teacher"
#: How long a teacher's session lasts without a Log out.
SESSION_HOURS = 8.0
#: scrypt's cost: about 50 ms and 16 MB a check (one thread checks all passwords).
SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}
#: Password checks run here, one at a time: a storm of them takes one core at most and
#: never the server's loop.
CHECKS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nidavellir-password")


class TeacherAuth:
    """The teacher password, kept as a salted hash, and the sessions that prove it was
    typed (module docstring)."""

    def __init__(self, password: str, session_hours: float = SESSION_HOURS,
                 clock: Any = time.time, kept: SessionFile | None = None) -> None:
        """``kept``: the class folder's session file, where the signing secret and the
        open sessions are kept across restarts (None: a secret drawn now, sessions in
        memory only)."""
        if len(password) < 4:
            raise ValueError("the teacher password needs at least 4 characters")
        self._salt = secrets.token_bytes(16)
        self._hash = self._derive(password)
        self.kept = kept
        self.secret = kept.teacher_secret() if kept is not None else secrets.token_bytes(32)
        self.lifetime = session_hours * 3600
        self.clock = clock
        # session id -> when it ends
        self._sessions: dict[str, int] = kept.teacher_sessions() if kept is not None else {}

    def _keep(self) -> None:
        if self.kept is not None:
            try:
                self.kept.keep_teacher_sessions(self._sessions)
            except OSError:
                pass  # the session holds until the server stops, as without a folder

    def _derive(self, password: str) -> bytes:
        return hashlib.scrypt(password.encode(), salt=self._salt, **SCRYPT)

    def check(self, typed: str) -> bool:
        """Whether ``typed`` is the password (slow on purpose: call it off the loop)."""
        return hmac.compare_digest(self._derive(typed), self._hash)

    def _sign(self, text: str) -> str:
        return hmac.new(self.secret, text.encode(), hashlib.sha256).hexdigest()

    def open_session(self) -> str:
        """A new session; returns its cookie's value (``id.end.signature``)."""
        now = self.clock()
        for sid, end in list(self._sessions.items()):
            if end <= now:
                del self._sessions[sid]
        sid = secrets.token_hex(16)
        end = int(now + self.lifetime)
        self._sessions[sid] = end
        self._keep()
        text = f"{sid}.{end}"
        return f"{text}.{self._sign(text)}"

    def session(self, cookie: str | None) -> str | None:
        """The session a cookie names, while it is open; None otherwise."""
        if not cookie or cookie.count(".") != 2:
            return None
        sid, end, signature = cookie.split(".")
        if not hmac.compare_digest(signature, self._sign(f"{sid}.{end}")):
            return None
        if self._sessions.get(sid) != (int(end) if end.isdigit() else None):
            return None
        if int(end) <= self.clock():
            self._sessions.pop(sid, None)
            self._keep()
            return None
        return sid

    def close_session(self, cookie: str | None) -> None:
        sid = self.session(cookie)
        if sid is not None:
            del self._sessions[sid]
            self._keep()

    def token(self, purpose: str, sid: str) -> str:
        """A token for one of the session's forms (Clear)."""
        return self._sign(f"{purpose}\0{sid}")


__all__ = ["CHECKS", "COOKIE", "SCRYPT", "SESSION_HOURS", "TeacherAuth"]
