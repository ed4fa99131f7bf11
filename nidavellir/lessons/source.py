"""Reading a lesson file: YAML with the line of every value, and errors that name it.

A lesson file is one YAML mapping. :func:`read` returns its plain Python value (dicts,
lists, strings, numbers) and a :class:`Source` that knows the line of every value by its
path (``("steps", 3, "move")``), so a check deep inside a lesson can say
``lessons/mine.yaml:57: ...``. Duplicate keys are errors (YAML would keep the last one
silently). PyYAML is imported when a file is read, never at import time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import NidavellirError
from ..i18n import N_, _

Path_ = tuple[str | int, ...]


class LessonError(NidavellirError, ValueError):
    """A lesson file that cannot be used: ``FILE:LINE: what was expected``."""

    def __init__(self, file: str | Path, line: int, message: str) -> None:
        self.file = str(file)
        self.line = line
        self.message = message
        super().__init__(f"{self.file}:{line}: {message}")


@dataclass
class Source:
    """Where a lesson came from, and the line of each of its values."""

    file: str
    lines: dict[Path_, int] = field(default_factory=dict)
    block_texts: dict[Path_, int] = field(default_factory=dict)
    """The first line of each block text (``text: |``): its own lines follow from there."""
    files: dict[Path_, str] = field(default_factory=dict)
    """Values that come from another file (a translation's texts): their file, by path."""

    def file_of(self, path: Path_) -> str:
        """The file of the value at ``path``: a translation's for its texts."""
        return _nearest(self.files, path, self.file)

    def line(self, path: Path_) -> int:
        """The line of the value at ``path`` (or of its nearest parent that has one)."""
        return _nearest(self.lines, path, self.lines.get((), 1))

    def error(self, path: Path_, message: str) -> LessonError:
        return LessonError(self.file_of(path), self.line(path), message)

    def text_error(self, path: Path_, text: str, needle: str, message: str) -> LessonError:
        """An error at the line of ``needle`` inside the text at ``path`` (a block text's
        own line; the field's line otherwise)."""
        line = self.line(path)
        start = self.block_texts.get(tuple(path))
        at = text.find(needle)
        if start is not None and at >= 0:
            line = start + text.count("\n", 0, at)
        return LessonError(self.file_of(path), line, message)


def _nearest(found: Mapping[Path_, Any], path: Path_, default: Any) -> Any:
    """The value ``found`` has for ``path`` or its nearest parent, else ``default``."""
    path = tuple(path)
    while path:
        if path in found:
            return found[path]
        path = path[:-1]
    return default


def where(path: Path_) -> str:
    """A path as a reader names it: ``steps[3].move`` (the keys as the file writes them)."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    # Translators: a lesson file's error about the file as a whole ("the file must be ...").
    return out or _("the file")


def read(path: str | Path) -> tuple[Any, Source]:
    """The YAML value of the file at ``path`` and its :class:`Source` (LessonError when
    the file is missing, not UTF-8 or not YAML)."""
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        # Translators: the errors of `nidavellir lesson check` name a lesson file and a
        # line before the message ("lessons/mine.yaml:57: ..."); the keys, values and
        # notation they quote are as the file writes them.
        raise LessonError(file, 1, _("no such file")) from None
    except IsADirectoryError:
        raise LessonError(file, 1, _("a folder, not a lesson file")) from None
    except UnicodeDecodeError as exc:
        # Translators: {reason} is the decoder's own words (English).
        raise LessonError(file, 1, _("not UTF-8 text ({reason})").format(
            reason=exc.reason)) from None
    except OSError as exc:
        # Translators: {reason} is the system's own words.
        raise LessonError(file, 1, _("cannot read it: {reason}").format(
            reason=exc.strerror or exc)) from None
    return loads(text, file)


def loads(text: str, file: str = "<lesson>") -> tuple[Any, Source]:
    """Like :func:`read`, from text."""
    import yaml

    loader_class = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        node = yaml.compose(text, Loader=loader_class)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = exc.problem or exc.context or _("not valid YAML")
        # Translators: {problem} is the YAML reader's own words (English).
        raise LessonError(file, line, _("bad YAML: {problem}").format(problem=problem)) from None
    except yaml.YAMLError as exc:
        raise LessonError(file, 1, _("bad YAML: {problem}").format(problem=exc)) from None
    source = Source(file)
    if node is None:
        raise LessonError(file, 1, _("the file is empty: expected a lesson (kind, title, "
                                     "steps, ...)"))
    constructor = yaml.constructor.SafeConstructor()

    def convert(n: Any, path: Path_) -> Any:
        source.lines.setdefault(path, n.start_mark.line + 1)
        if isinstance(n, yaml.MappingNode):
            constructor.flatten_mapping(n)
            out: dict[Any, Any] = {}
            for key_node, value_node in n.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise LessonError(file, key_node.start_mark.line + 1,
                                      _("a key must be a plain word, not a list or a mapping"))
                key = constructor.construct_object(key_node)
                if isinstance(key, int | float) and not isinstance(key, bool):
                    key = str(key_node.value)  # "1:" as a key is the text 1 (ages, rounds)
                if not isinstance(key, str):
                    raise LessonError(file, key_node.start_mark.line + 1,
                                      _("a key must be a word, not {key}").format(key=repr(key)))
                if key in out:
                    raise LessonError(file, key_node.start_mark.line + 1,
                                      _("{where} is given twice").format(
                                          where=where((*path, key))))
                source.lines[(*path, key)] = value_node.start_mark.line + 1
                out[key] = convert(value_node, (*path, key))
            return out
        if isinstance(n, yaml.SequenceNode):
            return [convert(item, (*path, i)) for i, item in enumerate(n.value)]
        if getattr(n, "style", None) in ("|", ">"):
            source.block_texts[path] = n.start_mark.line + 2
        try:
            return constructor.construct_object(n)
        except yaml.YAMLError as exc:
            raise LessonError(file, n.start_mark.line + 1,
                              _("bad value: {problem}").format(problem=exc)) from None

    return convert(node, ()), source


# ---------------------------------------------------------------------- checking fields

def mapping(source: Source, value: Any, path: Path_, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        # Translators: {what} says what was expected ("a step"), {kind} what was found.
        raise source.error(path, _("{where} must be {what} (a mapping of fields), not "
                                   "{kind}").format(where=where(path), what=what,
                                                    kind=_kind(value)))
    return value


def fields(source: Source, value: Mapping[str, Any], path: Path_, required: Sequence[str],
           optional: Sequence[str] = ()) -> None:
    """Every required field is there and no field is unknown."""
    for name in required:
        if name not in value:
            if optional:
                # Translators: {name} is a field's key; {required} and {optional} list keys.
                message = _("{where} has no {name} (expected {required} and maybe "
                            "{optional})")
            else:
                message = _("{where} has no {name} (expected {required})")
            raise source.error(path, message.format(
                where=where(path), name=repr(name), required=_names(required),
                optional=_names(optional)))
    allowed = set(required) | set(optional)
    for name in value:
        if name not in allowed:
            raise source.error((*path, name), _("unknown field {name} in {where} (expected "
                                                "{fields})").format(
                name=repr(name), where=where(path), fields=_names(sorted(allowed))))


def text(source: Source, value: Mapping[str, Any], path: Path_, name: str,
         default: str | None = None) -> str:
    """The text field ``name`` (a string, or a number written plainly)."""
    if name not in value:
        if default is None:
            raise source.error(path, _("{where} has no {name}").format(where=where(path),
                                                                      name=repr(name)))
        return default
    v = value[name]
    if isinstance(v, bool) or v is None or isinstance(v, dict | list):
        raise source.error((*path, name), _("{where} must be text, not {kind}").format(
            where=where((*path, name)), kind=_kind(v)))
    out = str(v).strip()
    if not out and default is None:
        raise source.error((*path, name), _("{where} is empty").format(
            where=where((*path, name))))
    return out


def texts(source: Source, value: Any, path: Path_) -> list[str]:
    """A list of texts (e.g. the scripted actions of a step)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise source.error(path, _("{where} must be a list, not {kind}").format(
            where=where(path), kind=_kind(value)))
    out = []
    for i, item in enumerate(value):
        if isinstance(item, bool) or item is None or isinstance(item, dict | list):
            raise source.error((*path, i), _("{where} must be text, not {kind}").format(
                where=where((*path, i)), kind=_kind(item)))
        out.append(str(item).strip())
    return out


def integer(source: Source, value: Any, path: Path_, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise source.error(path, _("{where} must be a whole number from {low} to {high}, "
                                   "not {value}").format(where=where(path), low=low,
                                                         high=high, value=repr(value)))
    return value


def key_of(source: Source, value: Any, path: Path_) -> str:
    """A lesson's or step's key: lowercase letters, digits and - or _."""
    import re

    if not isinstance(value, str) or not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", value):
        raise source.error(path, _("{where} must be a short name of lowercase letters, "
                                   "digits, - and _ (e.g. first-bid), not {value}").format(
            where=where(path), value=repr(value)))
    return value


def unique_keys(source: Source, keys: Sequence[tuple[str, Path_]]) -> None:
    seen: dict[str, Path_] = {}
    for key, path in keys:
        if key in seen:
            raise source.error(path, _("the key {key} is used twice (first at line "
                                       "{line})").format(key=repr(key),
                                                         line=source.line(seen[key])))
        seen[key] = path


#: What a value of a lesson file is, in words (what a check found: "must be text, not a
#: list").
# Translators: the kinds of values a lesson file's check found ("... must be text, not a
# list").
_KINDS: dict[type, str] = {dict: N_("a mapping"), list: N_("a list"), str: N_("text"),
                           bool: N_("yes/no"), int: N_("a number"), float: N_("a number")}


def _kind(value: Any) -> str:
    if value is None:
        return _("empty")
    kind = _KINDS.get(type(value))
    return _(kind) if kind else type(value).__name__


def _names(names: Sequence[str]) -> str:
    return ", ".join(names)


Check = Callable[[Any, Source], Any]

__all__ = ["LessonError", "Source", "fields", "integer", "key_of", "loads", "mapping",
           "read", "text", "texts", "unique_keys", "where"]
