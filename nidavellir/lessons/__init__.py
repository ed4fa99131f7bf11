"""Lessons as data: walkthroughs and probability lessons are YAML files, played by code.

A lesson file is one YAML mapping whose ``kind`` says what it is:

- ``walkthrough``: a scripted game explained step by step
  (:mod:`nidavellir.lessons.walkthrough`);
- ``probability``: situations of the game in words, a prediction, a simulation and the
  exact answer explained with its numbers (:mod:`nidavellir.lessons.probability`).

The lessons shipped with the lab are package data (``nidavellir/lessons/files/``); a
teacher's own lessons are the ``*.yaml`` files of a folder (``--lessons DIR``). Every
file is checked when it is read: an error names the file, the line and what was expected
(:class:`LessonError`, ``FILE:LINE: ...``). The schema and two complete small examples are
in docs/lessons.md.

>>> [lesson.key for lesson in Library().lessons("walkthrough")]
['base', 'heroes', 'thingvellir']
>>> builtin("heroes").title
'Heroes and the end of the game'
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..i18n import _
from .source import LessonError, Source, read

if TYPE_CHECKING:
    from .probability import ProbabilityLesson
    from .walkthrough import WalkthroughLesson

    Lesson = WalkthroughLesson | ProbabilityLesson

#: Where the lab's own lessons are (package data).
FILES = Path(__file__).resolve().parent / "files"
KINDS = ("walkthrough", "probability")
#: The environment variable naming a teacher's folder of lessons (set by ``--lessons``).
LESSONS_ENV = "NIDAVELLIR_LESSONS"


def load(path: str | os.PathLike[str], language: str | None = None) -> Lesson:
    """The lesson in the file at ``path``, checked (LessonError: ``FILE:LINE: ...``), in
    ``language`` (default: the current one, :func:`nidavellir.i18n.language`) where the
    lesson comes in it; in its own language otherwise, and where its translation fails its
    checks (``nidavellir lesson check`` names the mistake; :func:`translated` raises it)."""
    data, source = read(Path(path))
    lesson = parse_own(data, source)
    try:
        return translated(lesson, data, source, language)
    except LessonError:
        return lesson


def parse_own(data: Any, source: Source) -> Lesson:
    """The lesson of a file's data in its own language
    (:func:`.translation.parse_own`)."""
    from .translation import parse_own as own

    return own(data, source, from_data)  # type: ignore[no-any-return]


def translated(lesson: Lesson, data: Any, source: Source,
               language: str | None = None) -> Lesson:
    """``lesson`` (read from ``data``) in ``language`` (:func:`.translation.localised`:
    LessonError naming a declared translation's mistake)."""
    from .translation import localised

    return localised(lesson, data, source, from_data, language)  # type: ignore[no-any-return]


def lesson_of(path: str | os.PathLike[str]) -> Path:
    """The lesson file of ``path``: itself, or for a translation file the lesson beside it
    whose key it names (LessonError naming the translation's line when there is none)."""
    p = Path(path)
    if _kind_of(p) != "translation":
        return p
    data, source = read(p)
    key = data.get("lesson")
    for other in lesson_files(p.parent):
        if other != p and _kind_of(other) in KINDS:
            try:
                found, _source = read(other)
            except LessonError:
                continue
            if isinstance(found, dict) and found.get("key") == key:
                return other
    # Translators: an error of a lesson's translation file; {key} is quoted from it.
    raise source.error(("lesson",), _("no lesson with the key {key} in {folder}: a "
                                      "translation lies beside its lesson").format(
        key=repr(key), folder=p.parent))


def check_languages(path: str | os.PathLike[str]) -> tuple[Lesson, list[LessonError]]:
    """The lesson at ``path`` in its own language (LessonError when it fails), and the
    error of each declared language whose translation is missing or fails its checks."""
    data, source = read(Path(path))
    lesson = parse_own(data, source)
    errors = []
    for code in lesson.languages[1:]:
        try:
            translated(lesson, data, source, code)
        except LessonError as exc:
            errors.append(exc)
    return lesson, errors


def from_data(data: Any, source: Source) -> Lesson:
    if not isinstance(data, dict):
        raise source.error((), _("a lesson file is a mapping of fields (kind, key, title, "
                                 "...)"))
    kind = data.get("kind")
    if kind not in KINDS:
        if "kind" in data:
            # Translators: walkthrough and probability are values a lesson file writes.
            raise source.error(("kind",), _("kind must be walkthrough or probability, not "
                                            "{kind}").format(kind=repr(kind)))
        raise source.error((), _("kind must be walkthrough or probability (the file has "
                                 "none)"))
    if kind == "walkthrough":
        from . import walkthrough

        return walkthrough.parse(data, source)
    from . import probability

    return probability.parse(data, source)


@dataclass(frozen=True)
class Entry:
    """A lesson file as the lab lists it: its lesson, or the error that keeps it out."""

    file: str
    kind: str
    lesson: Any = None
    error: LessonError | None = None
    builtin: bool = False
    translation_error: LessonError | None = None
    """Why the lesson is shown in its own language, not the page's (a translation it
    declares is missing or fails its checks)."""

    @property
    def key(self) -> str:
        return self.lesson.key if self.lesson is not None else Path(self.file).stem

    @property
    def title(self) -> str:
        return self.lesson.title if self.lesson is not None else Path(self.file).name


def _stamp(p: Path) -> tuple[str, int, int]:
    try:
        stat = p.stat()
        return (str(p.resolve()), stat.st_mtime_ns, stat.st_size)
    except OSError:
        return (str(p), 0, 0)


_KINDS: dict[tuple[str, int, int], str] = {}


def _kind_of(path: Path) -> str:
    """The kind a file says it is (``""`` when it cannot be read that far; ``translation``
    for a lesson's translation)."""
    stamp = _stamp(path)
    if stamp not in _KINDS:
        try:
            data, _source = read(path)
        except LessonError:
            data = None
        kind = data.get("kind") if isinstance(data, dict) else None
        _KINDS[stamp] = kind if kind in (*KINDS, "translation") else ""
    return _KINDS[stamp]


#: Entries by the file's version, the lesson's language, the reader's (the errors' words)
#: and the versions of its translations.
_CACHE: dict[tuple[tuple[str, int, int], str, str, tuple[tuple[str, int, int], ...]],
             Entry] = {}


def entry(path: str | os.PathLike[str], builtin: bool = False,
          language: str | None = None) -> Entry:
    """The file's :class:`Entry` in ``language`` (default: the current one), read once per
    version of the file and of its translations, its errors in the reader's language."""
    from .. import i18n

    p = Path(path)
    code = language if language is not None else i18n.language()
    others = tuple(_stamp(t) for t in sorted(p.parent.glob(f"*.{code}.yaml")))
    key = (_stamp(p), code, i18n.language(), others)
    if key in _CACHE and _CACHE[key].builtin == builtin:
        return _CACHE[key]
    try:
        data, source = read(p)
        lesson = parse_own(data, source)
    except LessonError as exc:
        found = Entry(str(p), _kind_of(p), error=exc, builtin=builtin)
    else:
        try:
            found = Entry(str(p), lesson.kind, translated(lesson, data, source, code),
                          builtin=builtin)
        except LessonError as exc:
            found = Entry(str(p), lesson.kind, lesson, builtin=builtin,
                          translation_error=exc)
    _CACHE[key] = found
    return found


def warm(languages: Iterable[str] | None = None) -> int:
    """Read every lesson of the library (the lab's, and the teacher's folder the
    environment names) into the cache in each of ``languages`` (default: the server's, the
    ``NIDAVELLIR_LANGUAGE`` variable's, in which a preheated page is built), as a page in
    that language would read them; the number of entries read. A process that forks
    kernels (the class server's fork server) does it once for all of them: a kernel then
    starts with the lessons checked, a tenth of a second of its start (checking the
    walkthroughs' claims replays them); in one language, 0.17 s, as every language would
    hold up the server's first kernel by as much again. An edited file is read again where
    it is next needed: the cache is keyed by each file's version."""
    from .. import i18n

    if languages is None:
        languages = [i18n.choose(default=os.environ.get(i18n.LANGUAGE_ENV, i18n.SOURCE))]
    read = 0
    for code in languages:
        with i18n.using(code):
            read += len(Library().entries())
    return read


def lesson_files(folder: str | os.PathLike[str]) -> list[Path]:
    """The lesson files of a folder: ``*.yaml`` and ``*.yml``, by name."""
    base = Path(folder)
    return sorted([*base.glob("*.yaml"), *base.glob("*.yml")], key=lambda p: p.name)


class Library:
    """The lab's lessons, then a teacher's folder of lessons (``folder``, default: the
    ``NIDAVELLIR_LESSONS`` variable). A file that fails its checks is listed with its
    error; the others still work."""

    def __init__(self, folder: str | os.PathLike[str] | None = None,
                 builtin_lessons: bool = True) -> None:
        if folder is None:
            folder = os.environ.get(LESSONS_ENV) or None
        self.folder = Path(folder) if folder else None
        self.builtin_lessons = builtin_lessons
        self.folder_error = ""
        if self.folder is not None and not self.folder.is_dir():
            self.folder_error = _("{folder}: no such folder of lessons").format(
                folder=self.folder)

    def files(self, kind: str | None = None) -> list[tuple[Path, bool]]:
        """(file, built in) for every lesson file, the lab's first; with ``kind``, only
        the files of that kind (and the teacher's files whose kind cannot be read)."""
        found: list[tuple[Path, bool]] = []
        if self.builtin_lessons:
            for sub in KINDS:
                if kind in (None, sub):
                    found += [(p, True) for p in lesson_files(FILES / sub)
                              if _kind_of(p) != "translation"]
        if self.folder is not None and self.folder.is_dir():
            for p in lesson_files(self.folder):
                found_kind = _kind_of(p)
                if found_kind != "translation" and (kind is None or found_kind in (kind, "")):
                    found.append((p, False))
        return found

    def entries(self, kind: str | None = None) -> list[Entry]:
        """Every file's entry, the lab's first; a lesson whose key another file of the same
        kind already uses is listed with that error."""
        out: list[Entry] = []
        seen: dict[tuple[str, str], str] = {}
        for p, builtin_ in self.files(kind):
            e = entry(p, builtin_)
            if e.lesson is not None:
                first = seen.setdefault((e.kind, e.lesson.key), e.file)
                if first != e.file:
                    e = Entry(e.file, e.kind, error=LessonError(
                        e.file, getattr(e.lesson, "key_line", 1),
                        _("the key {key} is already used by {file}: choose another").format(
                            key=repr(e.lesson.key), file=first)), builtin=builtin_)
            out.append(e)
        return out

    def lessons(self, kind: str | None = None) -> list[Any]:
        """The lessons that passed their checks (of ``kind``), the lab's first."""
        return [e.lesson for e in self.entries(kind) if e.lesson is not None]

    def errors(self, kind: str | None = None) -> list[Entry]:
        return [e for e in self.entries(kind) if e.error is not None]

    def get(self, key: str, kind: str | None = None) -> Any:
        for e in self.entries(kind):
            if e.lesson is not None and e.lesson.key == key:
                return e.lesson
        known = ", ".join(e.lesson.key for e in self.entries(kind) if e.lesson is not None)
        raise ValueError(f"no {kind or ''} lesson {key!r}; choose one of {known}".replace(
            "no  lesson", "no lesson"))


def short_error(e: Entry) -> str:
    """An entry's error as a page shows it: ``file.yaml:LINE: ...`` (no folder)."""
    if e.error is None:
        return ""
    return f"{Path(e.error.file).name}:{e.error.line}: {e.error.message}"


def builtin(key: str, kind: str | None = None) -> Any:
    """One of the lab's own lessons by key (``"base"``, ``"heroes"``, ``"counting"``, ...)."""
    return Library(builtin_lessons=True, folder="").get(key, kind)


__all__ = ["FILES", "KINDS", "LESSONS_ENV", "Entry", "LessonError", "Library", "builtin",
           "check_languages", "entry", "lesson_of", "from_data", "lesson_files", "load",
           "short_error", "translated", "warm"]
