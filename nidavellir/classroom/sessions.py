"""What keeps a class logged in across a restart of its server: the secrets that sign its
cookies and the teacher's open sessions, in the class folder.

A server that draws its signing secret afresh at each start logs everybody out when it
restarts: every student's page lands on the class password page and the teacher types
the teacher password again over stale data (issue 58). Jupyter Server keeps its secret in
a file for this reason (``cookie_secret_file``). The lab keeps, in ``DIR/sessions.json``
(the class folder, ``--class-dir``; the folder is the server user's only, ``0700``, and
the file ``0600``; never in the repository, whose ``.gitignore`` leaves ``/class/`` out):

- ``cookie``: the secret Voila signs the class password's login cookie with
  (tornado's ``cookie_secret``): a student who came in keeps coming in after a restart;
- ``teacher``: the secret the teacher's session cookies are signed with, and the sessions
  open (their id and when each ends): the teacher page and the projector reload onto the
  same session (*Log out* ends it, and removes it from the file).

The file is rewritten whole, aside and then renamed into place, so a reader never sees
half of it; a file that cannot be read (damaged, another program's) is set aside as
``sessions.json.damaged`` and a new one made (everybody logs in once more: nothing of the
class's answers depends on it). Without a class folder nothing is kept: a restart logs
everybody out.

Standard library only.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import threading
from pathlib import Path
from typing import Any

#: The file in the class folder.
FILE_NAME = "sessions.json"


class SessionFile:
    """``DIR/sessions.json`` (module docstring): read once, written on each change."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self.path = self.folder / FILE_NAME
        self._lock = threading.Lock()
        self._data: dict[str, Any] | None = None
        #: Why the file was set aside when it was read (a sentence for the log), or "".
        self.problem = ""

    def _read(self) -> dict[str, Any]:
        if self._data is not None:
            return self._data
        data: dict[str, Any] = {}
        try:
            text = self.path.read_text(encoding="utf-8")
            loaded = json.loads(text)
            if not isinstance(loaded, dict):
                raise ValueError("not a JSON object")
            data = loaded
        except FileNotFoundError:
            pass
        except (OSError, ValueError) as exc:
            self.problem = (f"{self.path} could not be read ({exc}); it was set aside as "
                            f"{self.path.name}.damaged and a new one made: everybody logs "
                            "in once more")
            with contextlib.suppress(OSError):
                os.replace(self.path, self.path.with_name(FILE_NAME + ".damaged"))
        self._data = data
        return data

    def _write(self) -> None:
        assert self._data is not None
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        part = self.path.with_name(f"{FILE_NAME}.{os.getpid()}.{threading.get_ident()}.part")
        fd = os.open(part, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(self._data, f, indent=1, sort_keys=True)
        os.replace(part, self.path)
        with contextlib.suppress(OSError):
            os.chmod(self.path, 0o600)  # a file made by an earlier server, perhaps wider

    def _secret(self, name: str) -> bytes:
        data = self._read()
        value = data.get(name)
        try:
            found = bytes.fromhex(value) if isinstance(value, str) else b""
        except ValueError:
            found = b""
        if len(found) >= 32:
            return found
        found = secrets.token_bytes(32)
        data[name] = found.hex()
        self._write()
        return found

    def cookie_secret(self) -> bytes:
        """The secret of the class password's login cookie (made the first time)."""
        with self._lock:
            return self._secret("cookie")

    def teacher_secret(self) -> bytes:
        """The secret of the teacher's session cookies (made the first time)."""
        with self._lock:
            return self._secret("teacher")

    def teacher_sessions(self) -> dict[str, int]:
        """The teacher's sessions kept: id -> when it ends (seconds since the epoch)."""
        with self._lock:
            kept = self._read().get("teacher_sessions")
            if not isinstance(kept, dict):
                return {}
            return {str(k): int(v) for k, v in kept.items()
                    if isinstance(k, str) and isinstance(v, int | float)}

    def keep_teacher_sessions(self, sessions: dict[str, int]) -> None:
        with self._lock:
            self._read()["teacher_sessions"] = dict(sessions)
            self._write()


__all__ = ["FILE_NAME", "SessionFile"]
