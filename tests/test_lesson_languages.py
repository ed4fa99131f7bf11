"""Lessons in several languages (issue 46 item 5): a lesson declares its languages, each
other language's texts are a translation file beside it, ``lesson check`` checks every
declared language, a page shows the lesson in its language (docs/lessons.md, "Lessons in
several languages")."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from nidavellir import i18n
from nidavellir.lessons import (
    FILES,
    LessonError,
    Library,
    builtin,
    check_languages,
    entry,
    lesson_of,
    load,
)
from nidavellir.lessons.markup import fill
from nidavellir.lessons.probability import ProbabilityLesson
from nidavellir.lessons.translation import STEP_TEXTS, step_kind
from nidavellir.lessons.walkthrough import Walkthrough, WalkthroughLesson

SHIPPED = sorted([*FILES.glob("*/*.yaml")]) + sorted(
    (Path(__file__).resolve().parents[1] / "examples" / "lessons").glob("*.yaml"))
SHIPPED_LESSONS = [p for p in SHIPPED if len(p.name.split(".")) == 2]


def _tagged(data: dict[str, Any], tag: str) -> dict[str, Any]:
    """A complete translation of ``data`` whose every text starts with ``tag``."""
    out: dict[str, Any] = {"kind": "translation", "lesson": data["key"], "language": "de",
                           "title": f"{tag} {data['title']}", "summary": f"{tag} {data['summary']}",
                           "steps": {}}
    for step in data["steps"]:
        texts: dict[str, Any] = {}
        for name in STEP_TEXTS[step_kind(data["kind"], step)]:
            if name not in step:
                continue
            if name == "wrong":
                texts[name] = {move: f"{tag} {v}" for move, v in step[name].items()}
            else:
                texts[name] = f"{tag} {step[name]}"
        out["steps"][step["key"]] = texts
    return out


def _lesson(tmp_path: Path, name: str, *, languages: str = "[en, de]") -> tuple[Path, dict]:
    """A copy of a shipped lesson declaring ``languages``, and its data."""
    source = next(p for p in SHIPPED_LESSONS if p.name == name)
    text = source.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^languages:.*\n", "", text)
    text = re.sub(r"(?m)^(key: .*)$", rf"\1\nlanguages: {languages}", text, count=1)
    target = tmp_path / name
    target.write_text(text, encoding="utf-8")
    if (source.parent / "records").is_dir():
        shutil.copytree(source.parent / "records", tmp_path / "records")
    return target, yaml.safe_load(text)


def _write(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def test_a_walkthrough_in_its_translation_keeps_its_game_and_renames_its_players(tmp_path):
    lesson_file, data = _lesson(tmp_path, "base.yaml")
    tr = _tagged(data, "DE")
    tr["names"] = {"You": "Du"}
    _write(tmp_path / "base.de.yaml", tr)
    german = load(lesson_file, language="de")
    english = load(lesson_file, language="en")
    assert isinstance(german, WalkthroughLesson) and isinstance(english, WalkthroughLesson)
    assert german.language == "de" and english.language == "en"
    assert german.title == f"DE {english.title}"
    assert all(g.text == f"DE {e.text}" for g, e in zip(german.steps, english.steps, strict=True))
    assert all(g.wrong == {m: f"DE {t}" for m, t in e.wrong.items()}
               for g, e in zip(german.steps, english.steps, strict=True))
    # the same game: the same moves, the learner named as the translation names them
    assert german.record()["actions"] == english.record()["actions"]
    assert german.names == ("Du", "Bo", "Cy")
    wt = Walkthrough(german)
    assert wt.game.names[0] == "Du"
    # a language the lesson does not declare shows its own texts
    assert load(lesson_file, language="fr").title == english.title


def test_lesson_check_names_the_translations_line_for_each_mistake(tmp_path):
    lesson_file, data = _lesson(tmp_path, "base.yaml")
    tr = _tagged(data, "DE")
    first, second = list(tr["steps"])[:2]
    cases = []

    missing = {**tr, "steps": {k: v for k, v in tr["steps"].items() if k != second}}
    cases.append((missing, f"steps has no '{second}'"))
    extra = {**tr, "steps": {**tr["steps"], first: {**tr["steps"][first], "move": "bid 4 3 0"}}}
    cases.append((extra, "unknown field 'move'"))
    unknown = {**tr, "steps": {**tr["steps"], "nowhere": {"title": "x"}}}
    cases.append((unknown, "the lesson has no step 'nowhere'"))
    wrong_lesson = {**tr, "lesson": "heroes"}
    cases.append((wrong_lesson, "lesson is 'heroes'"))
    bad_name = {**tr, "names": {"Nobody": "Niemand"}}
    cases.append((bad_name, "the lesson has no player 'Nobody'"))
    for broken, said in cases:
        _write(tmp_path / "base.de.yaml", broken)
        _lesson_, errors = check_languages(lesson_file)
        assert len(errors) == 1, said
        assert errors[0].file.endswith("base.de.yaml") and errors[0].line > 1 or said.startswith(
            "steps has no"), (said, errors[0])
        assert said in errors[0].message, (said, errors[0])
        # the page still gets the lesson, in its own language, and says why
        e = entry(lesson_file, language="de")
        assert e.lesson is not None and e.lesson.language == "en"
        assert e.translation_error is not None and said in e.translation_error.message
    (tmp_path / "base.de.yaml").unlink()
    _lesson_, errors = check_languages(lesson_file)
    assert len(errors) == 1 and "no translation file base.de.yaml" in errors[0].message


def test_a_translations_mistakes_are_said_in_the_readers_language(tmp_path):
    """The errors of a translation file, in German and French: the file's keys, step keys
    and names quoted as the file writes them."""
    lesson_file, data = _lesson(tmp_path, "base.yaml", languages="[en, de, fr]")
    tr = _tagged(data, "DE")
    second = list(tr["steps"])[1]
    _write(tmp_path / "base.de.yaml", {**tr, "steps": {k: v for k, v in tr["steps"].items()
                                                        if k != second}})
    with i18n.using("de"):
        _lesson_, errors = check_languages(lesson_file)
    said = [e.message for e in errors]
    assert f"steps hat kein '{second}': Schritt 2 der Lektion hat keinen Text in de" in said
    assert ("diese Datei gibt es nicht: die Lektion 'base' gibt fr (Français) an, hat aber "
            "keine Übersetzungsdatei base.fr.yaml neben sich") in said, said
    _write(tmp_path / "base.de.yaml", {**tr, "names": {"Nobody": "Niemand"}})
    with i18n.using("fr"):
        _lesson_, errors = check_languages(lesson_file)
    said = [e.message for e in errors]
    assert ("names\xa0: la leçon n’a pas d’Elvaland 'Nobody' (ses Elvalands\xa0: You, Bo, "
            "Cy)") in said, said


def test_a_probability_translation_keeps_the_placeholders_and_numbers_read_in_its_language(
        tmp_path):
    lesson_file, data = _lesson(tmp_path, "01_counting.yaml")
    tr = _tagged(data, "DE")
    _write(tmp_path / "counting.de.yaml", tr)
    assert check_languages(lesson_file)[1] == []
    with i18n.using("de"):
        german = load(lesson_file)
    assert isinstance(german, ProbabilityLesson)
    step = german.steps[0]
    texts = step.texts({"estimate": 0.4321, "se": 0.01, "low": 0.41, "high": 0.45,
                        "trials": 2000, "z": 0.5})
    assert texts["simulated"].startswith("DE ")
    with i18n.using("de"):
        texts = step.texts({"estimate": 0.4321, "se": 0.01, "low": 0.41, "high": 0.45,
                            "trials": 2000, "z": 0.5})
    assert "43,2\u00a0%" in texts["simulated"] and "2.000" in texts["simulated"]
    # the question's own words are the translation's language: German hunters
    assert "Jäger" in german.steps[0].texts()["situation"]
    # a placeholder the lesson's text does not use is refused at the translation's line
    key = data["steps"][0]["key"]
    tr["steps"][key]["situation"] += " {nothing}"
    path = _write(tmp_path / "counting.de.yaml", tr)
    errors = check_languages(lesson_file)[1]
    assert len(errors) == 1 and errors[0].file == str(path)
    assert "{nothing} is not in the lesson's text" in errors[0].message
    line = path.read_text(encoding="utf-8").splitlines()[errors[0].line - 1]
    assert "situation" in line or "{nothing}" in line
    # the lesson's own checks run on the translated texts, at the translation's line: a
    # format that does not suit its number
    tr = _tagged(data, "DE")
    tr["steps"][key]["explain"] = tr["steps"][key]["explain"].replace("{answer:.1%}",
                                                                      "{answer:d}", 1)
    assert "{answer:d}" in tr["steps"][key]["explain"]
    path = _write(tmp_path / "counting.de.yaml", tr)
    errors = check_languages(lesson_file)[1]
    assert len(errors) == 1 and errors[0].file == str(path) and "{answer:d}" in errors[0].message


def test_numbers_in_a_lessons_text_are_the_languages():
    values = {"p": 0.4321, "n": 12345, "x": 0.1234567}
    text = "{p:.1%} {n:,} {x:.3f}"
    assert fill(text, values) == "43.2% 12,345 0.123"
    with i18n.using("de"):
        assert fill(text, values) == "43,2\u00a0% 12.345 0,123"
    with i18n.using("fr"):
        assert fill(text, values) == "43,2\u00a0% 12\u202f345 0,123"


def test_the_pseudo_language_wraps_every_lesson_text_and_keeps_notation():
    with i18n.using("qps"):
        lesson = builtin("base")
        counting = builtin("counting")
    assert lesson.language == "qps" and lesson.title.startswith("⟦")
    for step in lesson.steps:
        for name in ("title", "rule", "text", "why", "after"):
            value = getattr(step, name)
            outside = re.sub(r"⟦[^⟧]*⟧|`[^`]*`", "", value)
            assert not re.search(r"[A-Za-z]{2,}", outside), (step.key, name, value)
    assert "`bid 4 3 0`" in lesson.steps[1].text or "`" not in builtin("base").steps[1].text
    with i18n.using("qps"):
        situation = counting.steps[0].texts()["situation"]
    assert "36" in situation and "{" not in situation


def test_translation_files_are_not_lessons_and_lead_to_their_lesson(tmp_path):
    lesson_file, data = _lesson(tmp_path, "base.yaml")
    translation = _write(tmp_path / "base.de.yaml", _tagged(data, "DE"))
    library = Library(folder=tmp_path, builtin_lessons=False)
    assert [e.file for e in library.entries()] == [str(lesson_file)]
    assert lesson_of(translation) == lesson_file
    orphan = _write(tmp_path / "orphan.de.yaml", {**_tagged(data, "DE"), "lesson": "nothing"})
    with pytest.raises(LessonError, match="no lesson with the key 'nothing'"):
        lesson_of(orphan)


def test_lesson_check_command_checks_each_declared_language(tmp_path):
    lesson_file, data = _lesson(tmp_path, "01_counting.yaml")
    translation = _write(tmp_path / "counting.de.yaml", _tagged(data, "DE"))
    cmd = [sys.executable, "-m", "nidavellir", "lesson", "check"]
    ok = subprocess.run([*cmd, str(lesson_file), str(translation)], capture_output=True,
                        text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.count("ok (probability “counting”, 3 steps; en, de)") == 2
    tr = _tagged(data, "DE")
    del tr["steps"][data["steps"][1]["key"]]
    _write(translation, tr)
    bad = subprocess.run([*cmd, str(lesson_file)], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2
    assert "counting.de.yaml" in bad.stderr and "has no de text" in bad.stderr
    assert "Traceback" not in bad.stderr


@pytest.mark.parametrize("path", SHIPPED_LESSONS, ids=lambda p: p.name)
def test_every_shipped_lesson_comes_in_the_three_languages(path):
    lesson, errors = check_languages(path)
    assert lesson.languages == ("en", "de", "fr")
    assert errors == []
    for code in ("de", "fr"):
        translated = load(path, language=code)
        assert translated.language == code and translated.languages == lesson.languages
        assert translated.summary != lesson.summary
