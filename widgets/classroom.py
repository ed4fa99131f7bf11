"""A student's link to the class: a name box, and every answer sent to the class's store.

In class mode (the server was given a class folder, ``NIDAVELLIR_CLASS_DIR``) the
probability lessons show a *Your name* box (optional: no accounts) and each prediction and
quiz answer goes to the class's SQLite database, where the teacher page reads it. Outside
class mode nothing is shown and nothing is stored.

An answer that cannot be stored (the database locked by another program, damaged, its
folder not writable) is kept on the page and sent again with the next answer or with
*Send again*; the lesson goes on, and the message says what went wrong.

>>> import tempfile
>>> from nidavellir.classroom import ClassStore
>>> link = ClassLink(ClassStore(tempfile.mkdtemp()), student="s1")
>>> link.name.value = "Ada"
>>> link.send("counting/hunter", "A hunter", 0.4, "probability", 22 / 51, "22/51")
True
>>> [(a.name, a.answer) for a in link.store.answers()]
[('Ada', 0.4)]
"""

from __future__ import annotations

import html
import uuid

import ipywidgets as W

from nidavellir.classroom import Answer, ClassStore, StoreError, class_store


class ClassLink:
    """The page's student and their answers on the way to the class's store."""

    def __init__(self, store: ClassStore | None = None, student: str | None = None,
                 *, from_environment: bool = True) -> None:
        self.store = store if store is not None else (class_store() if from_environment
                                                      else None)
        self.student = student or uuid.uuid4().hex[:12]
        self.pending: list[Answer] = []
        self.joined = False
        self.name = W.Text(description="Your name", placeholder="optional: for your teacher",
                           continuous_update=False, layout=W.Layout(width="320px"))
        self.name.add_class("nid-class-name")
        self.name.add_class("nid-label-80")
        self.name.observe(lambda _c: self.join(), "value")
        self.status = W.HTML()
        self.status.add_class("nid-class-status")
        self.retry = W.Button(description="Send again", layout=W.Layout(width="auto",
                                                                         display="none"))
        self.retry.add_class("nid-class-retry")
        self.retry.on_click(lambda _b: self.flush())
        note = W.HTML("<span class='nid-note'>Your predictions go to "
                      "your teacher's class view.</span>")
        self.widget = W.HBox([self.name, note, self.retry, self.status],
                             layout=W.Layout(align_items="center", flex_flow="row wrap",
                                             display="" if self.active else "none"))
        self.widget.add_class("nid-class-link")

    @property
    def active(self) -> bool:
        """Whether the page belongs to a class (answers are stored)."""
        return self.store is not None

    def join(self) -> bool:
        """Tell the class this student is here (with their name, when typed)."""
        if self.store is None:
            return False
        try:
            self.store.join(self.student, self.name.value)
        except StoreError as exc:
            self._say(f"⚠ Your teacher cannot see you yet: {exc}.", error=True)
            return False
        self.joined = True
        if not self.pending:
            self._say("")
        return True

    def send(self, question: str, title: str, answer: float, kind: str,
             exact: float | None = None, exact_text: str = "") -> bool:
        """Store one answer (with any kept from before); False when it had to be kept."""
        if self.store is None:
            return False
        self.pending.append(Answer(student=self.student, name=self.name.value.strip(),
                                   question=question, title=title, answer=float(answer),
                                   kind=kind, exact=exact, exact_text=exact_text))
        return self.flush()

    def flush(self) -> bool:
        """Send the answers kept on the page; says what happened."""
        if self.store is None or not self.pending:
            return True
        try:
            self.store.record(*self.pending)
        except StoreError as exc:
            n = len(self.pending)
            self._say(f"⚠ Not sent to your teacher: {exc}. Your answer{'s' if n > 1 else ''} "
                      f"({n}) {'are' if n > 1 else 'is'} kept on this page and sent with the "
                      "next one (or press Send again); the lesson goes on.", error=True)
            self.retry.layout.display = ""
            return False
        sent = len(self.pending)
        self.pending.clear()
        self.joined = True
        self.retry.layout.display = "none"
        self._say(f"✔ Sent to your teacher{f' ({sent} answers)' if sent > 1 else ''}.")
        return True

    def _say(self, message: str, error: bool = False) -> None:
        tone = "nid-bad" if error else "nid-good"
        self.status.value = (f"<span class='nid-text-small {tone}'>"
                             f"{html.escape(message)}</span>" if message else "")


__all__ = ["ClassLink"]
