"""The class view's data: every student's answers in one SQLite file of the class folder
(:mod:`nidavellir.classroom.store`), read by the teacher page
(:mod:`nidavellir.integrations.class_view`). Standard library only.

The class folder is given to the server (``--class-dir``) and reaches every student's
kernel through the ``NIDAVELLIR_CLASS_DIR`` variable: without it, answers stay on the
student's page and nothing is stored.
"""

from __future__ import annotations

import os

from .store import Answer, ClassStore, StoreError, Student

#: The environment variable naming the class folder (set by ``--class-dir``).
CLASS_DIR_ENV = "NIDAVELLIR_CLASS_DIR"
#: The environment variable of the class's language (set by ``--class-language``): the
#: teacher page and the projector speak it whatever their address or browser asks.
CLASS_LANGUAGE_ENV = "NIDAVELLIR_CLASS_LANGUAGE"


def class_store() -> ClassStore | None:
    """The class's store when the server runs a class (``NIDAVELLIR_CLASS_DIR``)."""
    folder = os.environ.get(CLASS_DIR_ENV, "").strip()
    return ClassStore(folder) if folder else None


__all__ = ["Answer", "CLASS_DIR_ENV", "CLASS_LANGUAGE_ENV", "ClassStore", "Student", "StoreError", "class_store"]
