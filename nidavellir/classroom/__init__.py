"""The classroom: everything the lab does to serve a class on one machine.

``python -m nidavellir.serve`` (``make run``) serves the notebooks to a class; this package
is all of it (docs/serving.md, docs/classroom.md):

- :mod:`.command`: the command line, its checks, and the lab's Voila's arguments;
- :mod:`.server`: the lab's Voila (compressed, cached pages, the first screen's scripts in
  one file, page kernels ready before the class and gone with their page);
- :mod:`.login` and :mod:`.guard`: the class password and the limits on failed logins;
- :mod:`.teacher`: the teacher page and the projector, behind the teacher's own password;
- :mod:`.store`: every student's answers in one SQLite file of the class folder.

This module, the store and the command line use the standard library only (a student's
kernel writes its answers through the store; the command line runs before Voila is
imported); the server and the teacher page are tornado, jupyter_server and Voila.

The class folder is given to the server (``--class-dir``) and reaches every student's
kernel through the ``NIDAVELLIR_CLASS_DIR`` variable: without it, answers stay on the
student's page and nothing is stored.
"""

from __future__ import annotations

import os

from .. import i18n
from .store import Answer, ClassStore, StoreError, Student

#: The environment variable naming the class folder (set by ``--class-dir``).
CLASS_DIR_ENV = "NIDAVELLIR_CLASS_DIR"
#: The environment variable of the class's language (set by ``--class-language``): the
#: teacher page and the projector speak it whatever their address or browser asks.
CLASS_LANGUAGE_ENV = "NIDAVELLIR_CLASS_LANGUAGE"
#: The environment variables the passwords come in by, never a command line, where every
#: user of the machine can read them: the command line puts them there (from its own
#: environment or a file), the lab's Voila takes them out at start, before any kernel
#: starts, so no kernel inherits them.
PASSWORD_ENV = "NIDAVELLIR_PASSWORD"
TEACHER_PASSWORD_ENV = "NIDAVELLIR_TEACHER_PASSWORD"


def class_store() -> ClassStore | None:
    """The class's store when the server runs a class (``NIDAVELLIR_CLASS_DIR``)."""
    folder = os.environ.get(CLASS_DIR_ENV, "").strip()
    return ClassStore(folder) if folder else None


def page_language(asked: str, accept_language: str) -> str:
    """A class page's language (the teacher pages', the class password page's): the
    class's (``--class-language``, the :data:`CLASS_LANGUAGE_ENV` variable) when the
    server fixes one, else the page's ``?lang=``, the browser's languages, the server's
    default (``--language``)."""
    fixed = os.environ.get(CLASS_LANGUAGE_ENV, "")
    if fixed and i18n.known(fixed):
        return fixed
    return i18n.choose(f"lang={asked}" if asked else "", accept_language,
                       os.environ.get(i18n.LANGUAGE_ENV, i18n.SOURCE))


__all__ = ["Answer", "CLASS_DIR_ENV", "CLASS_LANGUAGE_ENV", "ClassStore", "PASSWORD_ENV",
           "Student", "StoreError", "TEACHER_PASSWORD_ENV", "class_store", "page_language"]
