"""Lessons in several languages: a lesson file, and one translation file per language.

A lesson is written in one language (``language:``, English when the file does not say) and
declares the languages it comes in (``languages: [en, de, fr]``). Each other language's texts
are in a file of their own beside the lesson, named ``KEY.LANG.yaml`` (``base.de.yaml``)::

    kind: translation
    lesson: base             # the lesson's key
    language: de
    names: {You: Du}         # a walkthrough's players as this language names them (optional)
    title: Das Grundspiel
    summary: ...
    steps:
      setup:                 # every step of the lesson, by its key
        title: ...
        rule: ...
        text: ...

A translation holds only texts (:data:`STEP_TEXTS`): the game, the moves, the checks and the
questions are the lesson's, the same in every language. It gives exactly the texts the
lesson's step has; a text a lesson fills from numbers uses the same placeholders as the
lesson's. :func:`translate` puts a translation's texts into the lesson's data, remembering
the file and line of each (:attr:`Source.files`), so that the lesson's own checks, run again
on the result, name the translation's line when one of its texts is wrong.

The pseudo-language (``qps``) needs no file: :func:`pseudo` wraps every text of the lesson
in ⟦…⟧ (notation in backticks kept), so that a page in it shows lesson texts as translated.

Standard library only (PyYAML is read by :mod:`.source`).
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .. import i18n
from ..i18n import _
from .markup import placeholders
from .source import LessonError, Source, fields, mapping, read, text, where

#: The texts of a lesson as a whole.
LESSON_TEXTS = ("title", "summary")
#: The texts of a step, by the kind of step (a probability lesson's step with a
#: ``position`` is a position step).
STEP_TEXTS: dict[str, tuple[str, ...]] = {
    "walkthrough": ("title", "rule", "text", "why", "wrong", "after"),
    "probability": ("title", "situation", "predict", "simulated", "explain"),
    "position": ("title", "situation", "question", "explain"),
}
#: Texts whose placeholders the lesson fills from numbers: a translation uses the same ones.
FILLED = {"probability": ("situation", "predict", "simulated", "explain")}
FIELDS = ("kind", "lesson", "language", "title", "summary", "steps")
OPTIONAL = ("names",)


def declared(source: Source, data: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
    """A lesson file's own language and the languages it declares (its own first)."""
    language = data.get("language", i18n.SOURCE)
    if language not in i18n.LANGUAGES:
        # Translators: language and languages are keys of a lesson file.
        raise source.error(("language",), _("language must be one of {languages}, not "
                                            "{language}").format(
            languages=", ".join(i18n.LANGUAGES), language=repr(language)))
    raw = data.get("languages", [language])
    if not isinstance(raw, list) or not raw:
        raise source.error(("languages",), _("languages must be a list such as {example}"
                                             ).format(example="[en, de, fr]"))
    out = [language]
    for i, code in enumerate(raw):
        if code not in i18n.LANGUAGES:
            raise source.error(("languages", i), _("{where} must be one of {languages}, "
                                                   "not {code}").format(
                where=where(("languages", i)), languages=", ".join(i18n.LANGUAGES),
                code=repr(code)))
        if code in out[1:]:
            raise source.error(("languages", i), _("languages: {code} is given twice").format(
                code=code))
        if code != language:
            out.append(code)
    if language not in raw:
        raise source.error(("languages",), _("languages must include the lesson's own "
                                             "language ({language})").format(
            language=language))
    return language, tuple(out)


def step_kind(lesson_kind: str, step: Any) -> str:
    if lesson_kind == "probability" and isinstance(step, dict) and "position" in step:
        return "position"
    return lesson_kind


def file_for(lesson_file: str | Path, key: str, language: str) -> Path:
    """Where a lesson's translation into ``language`` is: ``KEY.LANG.yaml`` beside it."""
    return Path(lesson_file).parent / f"{key}.{language}.yaml"


def _names_of(source: Source, value: str, path: tuple[Any, ...]) -> set[str]:
    try:
        return {name for name, _spec in placeholders(value)}
    except ValueError as exc:
        raise source.error(path, _("{where}: {problem}").format(where=where(path),
                                                               problem=exc)) from None


def _check_identity(t: Mapping[str, Any], data: Mapping[str, Any], tsource: Source,
                    language: str) -> None:
    """A translation says what it is, of which lesson, in which language: as its file's
    name says."""
    if t["kind"] != "translation":
        # Translators: kind, lesson and language are keys of a translation file;
        # translation is a value.
        raise tsource.error(("kind",), _("kind must be translation, not {kind}").format(
            kind=repr(t["kind"])))
    if t["lesson"] != data["key"]:
        raise tsource.error(("lesson",), _("lesson is {lesson}, but the file is named for "
                                           "the lesson {key}").format(
            lesson=repr(t["lesson"]), key=repr(data["key"])))
    if t["language"] != language:
        raise tsource.error(("language",), _("language is {language}, but the file is named "
                                             "for {named}").format(
            language=repr(t["language"]), named=repr(language)))


def _check_step_keys(steps: Mapping[str, Any], keys: list[str], tsource: Source) -> None:
    """The translation's steps are the lesson's (``keys``), in the lesson's order."""
    for k in steps:
        if k not in keys:
            raise tsource.error(("steps", k), _("{where}: the lesson has no step {key} (its "
                                                "steps: {keys})").format(
                where=f"steps.{k}", key=repr(k), keys=", ".join(keys)))
    order = [k for k in keys if k in steps]
    if order != list(steps):
        raise tsource.error(("steps",), _("steps: give them in the lesson's order "
                                          "({keys})").format(keys=", ".join(keys)))


def translate(data: Mapping[str, Any], source: Source, tdata: Any, tsource: Source,
              language: str) -> tuple[dict[str, Any], Source]:
    """The lesson's data with the translation's texts in place of its own, and a source
    that names the translation's file and line for each of them. ``data`` is a lesson that
    passed its checks; the translation's own mistakes (a step missing, a field too many, a
    placeholder that differs) raise LessonError at its line."""
    t = mapping(tsource, tdata, (), _("a translation (kind, lesson, language, title, "
                                      "summary, steps)"))
    fields(tsource, t, (), FIELDS, OPTIONAL)
    _check_identity(t, data, tsource, language)
    kind = data["kind"]
    out: dict[str, Any] = copy.deepcopy(dict(data))
    merged = Source(source.file, dict(source.lines), dict(source.block_texts),
                    dict(source.files))

    def put(lpath: tuple[Any, ...], tpath: tuple[Any, ...]) -> None:
        merged.files[lpath] = tsource.file
        merged.lines[lpath] = tsource.line(tpath)
        merged.block_texts.pop(lpath, None)
        if tpath in tsource.block_texts:
            merged.block_texts[lpath] = tsource.block_texts[tpath]

    def same_placeholders(original: str, value: str, tpath: tuple[Any, ...]) -> None:
        want, got = _names_of(source, original, tpath), _names_of(tsource, value, tpath)
        if want != got:
            extra = ", ".join("{" + n + "}" for n in sorted(got - want))
            missing = ", ".join("{" + n + "}" for n in sorted(want - got))
            said = "; ".join(x for x in (
                # Translators: the placeholders of a translated text that are not in the
                # lesson's ({extra}) and those it lacks ({missing}), quoted ("{n}, {seat}").
                extra and _("{extra} is not in the lesson's text").format(extra=extra),
                missing and _("{missing} is missing").format(missing=missing)) if x)
            raise tsource.error(tpath, _("{where}: the placeholders differ from the "
                                         "lesson's ({said})").format(where=where(tpath),
                                                                     said=said))

    for name in LESSON_TEXTS:
        out[name] = text(tsource, t, (), name)
        put((name,), (name,))
    steps = mapping(tsource, t["steps"], ("steps",), _("the steps' texts by step key"))
    _check_step_keys(steps, [s["key"] for s in data["steps"]], tsource)
    for i, raw in enumerate(data["steps"]):
        k = raw["key"]
        if k not in steps:
            # Translators: {language} is a language's code (de, fr).
            raise tsource.error(("steps",), _("steps has no {key}: the lesson's step {number} "
                                              "has no {language} text").format(
                key=repr(k), number=i + 1, language=language))
        tpath = ("steps", k)
        ts = mapping(tsource, steps[k], tpath, _("the step's texts"))
        skind = step_kind(kind, raw)
        wanted = [f for f in STEP_TEXTS[skind] if f in raw]
        fields(tsource, ts, tpath, wanted)
        for name in wanted:
            if name == "wrong":
                wrong = mapping(tsource, ts[name], (*tpath, name), _("the wrong moves' texts"))
                if sorted(wrong) != sorted(raw[name]):
                    raise tsource.error((*tpath, name), _(
                        "{where} must explain the lesson's wrong moves ({moves}), no "
                        "others").format(where=where((*tpath, name)),
                                         moves=", ".join(raw[name])))
                out["steps"][i][name] = {move: text(tsource, wrong, (*tpath, name), move)
                                         for move in raw[name]}
                for move in raw[name]:
                    put(("steps", i, name, move), (*tpath, name, move))
                put(("steps", i, name), (*tpath, name))
                continue
            value = text(tsource, ts, tpath, name)
            if name in FILLED.get(skind, ()):
                same_placeholders(str(raw[name]), value, (*tpath, name))
            out["steps"][i][name] = value
            put(("steps", i, name), (*tpath, name))
    if "names" in t:
        _rename(out, t["names"], tsource, kind)
    return out, merged


def _rename(out: dict[str, Any], value: Any, tsource: Source, kind: str) -> None:
    """A walkthrough's players as the translation names them: in its record and in its
    steps' checks (a check names players as the record does)."""
    path = ("names",)
    if kind != "walkthrough":
        raise tsource.error(path, _("names: only a walkthrough has players to rename"))
    names = mapping(tsource, value, path, _("a mapping from the lesson's names to this "
                                            "language's ({example})").format(
        example="{You: Du}"))
    config = out["record"].get("config") or {}
    current = list(config.get("names") or [])
    for old, new in names.items():
        if old not in current:
            raise tsource.error((*path, old), _("names: the lesson has no player {name} (its "
                                                "players: {names})").format(
                name=repr(old), names=", ".join(current)))
        if not isinstance(new, str) or not new.strip() or new in current:
            raise tsource.error((*path, old), _("{where} must be a new name, not {new}").format(
                where=f"names.{old}", new=repr(new)))
    config["names"] = [names.get(n, n) for n in current]

    def swap(check: str) -> str:
        for old, new in names.items():
            check = re.sub(rf"(?<![\w\"]){re.escape(old)}(?![\w\"])", new, check)
        return check

    for step in out["steps"]:
        for field_ in ("checks", "checks_after"):
            if isinstance(step.get(field_), list):
                step[field_] = [swap(c) if isinstance(c, str) else c for c in step[field_]]


def _pseudo_text(value: str) -> str:
    """A text in the pseudo-language, by paragraph and list item (as Markdown reads it):
    list marks and notation in backticks kept."""

    def wrap(part: str) -> str:
        core = part.rstrip()
        pieces = re.split(r"(`[^`]*`)", core)
        inner = "".join(p if p.startswith("`") else i18n.PseudoTranslations.wrap(p)[1:-1]
                        for p in pieces)
        return f"⟦{inner}⟧{part[len(core):]}"

    out = []
    for block in re.split(r"(\n\s*\n)", value):
        if not block.strip() or block.isspace():
            out.append(block)
            continue
        items = re.split(r"(?m)^(\s*(?:- |\d+\. ))", block)
        if len(items) == 1:
            out.append(wrap(block))
            continue
        text_ = items[0] and wrap(items[0])
        for mark, item in zip(items[1::2], items[2::2], strict=True):
            tail = item[len(item.rstrip("\n")):]
            text_ += mark + wrap(item.rstrip("\n")) + tail
        out.append(text_)
    return "".join(out)


def pseudo(data: Mapping[str, Any]) -> dict[str, Any]:
    """The lesson's data with every text in the pseudo-language (the same placeholders;
    its ``language`` stays the lesson's: the pseudo-language is never declared)."""
    out: dict[str, Any] = copy.deepcopy(dict(data))

    def wrap(v: Any) -> Any:
        return _pseudo_text(str(v)) if isinstance(v, str | int | float) else v

    for name in LESSON_TEXTS:
        out[name] = wrap(out[name])
    for step in out["steps"]:
        for name in STEP_TEXTS[step_kind(out["kind"], step)]:
            if name not in step:
                continue
            if name == "wrong" and isinstance(step[name], dict):
                step[name] = {move: wrap(v) for move, v in step[name].items()}
            else:
                step[name] = wrap(step[name])
    return out


def read_translation(lesson_file: str | Path, key: str,
                     language: str) -> tuple[Any, Source]:
    """The translation file of a lesson (LessonError naming the file when there is none)."""
    path = file_for(lesson_file, key, language)
    if not path.is_file():
        raise LessonError(str(path), 1, _("no such file: the lesson {key} declares "
                                          "{language} ({name}) but has no translation file "
                                          "{file} beside it").format(
            key=repr(key), language=language, name=i18n.LANGUAGES[language], file=path.name))
    return read(path)


def is_translation(data: Any) -> bool:
    return isinstance(data, dict) and data.get("kind") == "translation"


Parse = Callable[[Any, Source], Any]


def parse_own(data: Any, source: Source, parse: Parse) -> Any:
    """The lesson of a file's data (``parse``: the lesson kinds' parser) in its own
    language: the words a question puts into its texts ("hunters") are the lesson's
    language's, whatever the page's; a LessonError is the reader's."""
    own = data.get("language") if isinstance(data, dict) else None
    code = own if own in i18n.LANGUAGES else i18n.SOURCE
    reader = i18n.language()
    try:
        with i18n.using(code):
            return parse(data, source)
    except LessonError as error:
        if reader == code:
            raise
        first = error
    # A mistake of the file is said in the reader's language (the lesson's own language is
    # its texts', not its author's errors'): the same checks again, in the reader's.
    with i18n.using(reader):
        try:
            parse(data, source)
        except LessonError as worded:
            raise worded from None
    raise first


def localised(lesson: Any, data: Any, source: Source, parse: Parse,
              language: str | None = None) -> Any:
    """``lesson`` (read from ``data``) in ``language`` (default: the current one): itself
    in its own language or one it does not declare; the pseudo-language's wrapped texts;
    else its translation file's texts, checked (LessonError naming the translation's
    line)."""
    code = language if language is not None else i18n.language()
    if code == lesson.language:
        return lesson
    if code == i18n.PSEUDO:
        with i18n.using(code):
            return dataclasses.replace(parse(pseudo(data), source), language=code)
    if code not in lesson.languages:
        return lesson
    tdata, tsource = read_translation(source.file, lesson.key, code)
    merged, msource = translate(data, source, tdata, tsource, code)
    with i18n.using(code):  # the words a question puts into the texts: this language's
        return dataclasses.replace(parse(merged, msource), language=code)


__all__ = ["FIELDS", "LESSON_TEXTS", "STEP_TEXTS", "declared", "file_for", "is_translation",
           "localised", "parse_own", "pseudo", "read_translation", "step_kind", "translate"]
