"""``nidavellir lesson list | check | show``: lesson files from the command line.

- ``list [--json] [--lessons DIR]``: every lesson with its kind (``walkthrough`` or
  ``probability``), key, title and file, the lab's first, then a teacher's folder; a file
  that fails its checks is listed with its error;
- ``check FILE...``: read and check each file (a walkthrough is replayed, a probability
  lesson's questions computed and placeholders checked); one ``FILE: ok (...)`` line per
  good file, one ``error: FILE:LINE: ...`` line per bad one; exit 2 when any is bad;
- ``show FILE``: the lesson as a learner meets it, in text: a walkthrough's steps with
  their moves, a probability lesson's situations, predictions, simulations (seeded, so
  the output is always the same) and explanations; a position step's position as its
  seat sees it, its question and the seat's legal moves.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..i18n import _, count
from . import Entry, LessonError, Library, check_languages, lesson_of, load

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def configure(parser: argparse.ArgumentParser) -> None:
    # Translators: `nidavellir lesson --help`: what comes after `lesson`.
    actions = _("list, check or show")
    sub = parser.add_subparsers(dest="lesson_command", metavar="ACTION", required=True,
                                help=actions)
    # Translators: `nidavellir lesson --help`: its actions' lines.
    what = _("every lesson: kind, key, title and file")
    listing = sub.add_parser("list", help=what, description=what)
    listing.add_argument("--json", action="store_true", help=_("one JSON list"))
    listing.add_argument("--lessons", metavar="DIR",
                         help=_("a teacher's folder of lesson files, listed after the lab's"))
    what = _("check lesson files (exit 2 when one is bad)")
    check = sub.add_parser("check", help=what, description=what)
    check.add_argument("files", nargs="+", metavar="FILE",
                       help=_("a lesson file (a translation file is checked with its "
                              "lesson)"))
    what = _("a lesson in text, step by step")
    show = sub.add_parser("show", help=what, description=what)
    show.add_argument("file", metavar="FILE", help=_("a lesson file"))


def run(args: argparse.Namespace) -> int:
    if args.lesson_command == "list":
        return run_list(args)
    if args.lesson_command == "check":
        return run_check(args.files)
    return run_show(args.file)


def _row(e: Entry) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": e.kind or "unknown", "key": e.key, "title": e.title,
                           "file": e.file, "builtin": e.builtin}
    if e.lesson is not None:
        out["steps"] = len(e.lesson.steps)
    if e.lesson is not None:
        out["language"] = e.lesson.language
        out["languages"] = list(e.lesson.languages)
    if e.error is not None:
        out["error"] = str(e.error)
    if e.translation_error is not None:
        out["translation_error"] = str(e.translation_error)
    return out


def run_list(args: argparse.Namespace) -> int:
    library = Library(folder=args.lessons if args.lessons is not None else None)
    if library.folder_error:
        print(_("error: {problem}").format(problem=library.folder_error), file=sys.stderr)
        return EXIT_BAD_INPUT
    rows = [_row(e) for e in library.entries()]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return EXIT_OK
    for row in rows:
        if "error" in row:
            state = _("error: {problem}").format(problem=row["error"])
        else:
            state = count(row["steps"], "{n} step", "{n} steps")
            state += "; " + ", ".join(row["languages"])
            if "translation_error" in row:
                # Translators: `lesson list`: a lesson shown in its own language, and why.
                state += "; " + _("not in this language: {problem}").format(
                    problem=row["translation_error"])
        print(f"{row['kind']:<12} {row['key']:<22} {row['title']:<36} {row['file']}  ({state})")
    return EXIT_OK


def run_check(files: list[str]) -> int:
    """Each file in its own language and in each language it declares (a translation file
    given here is checked with its lesson)."""
    bad = 0
    for file in files:
        try:
            lesson_file = lesson_of(file)
            lesson, errors = check_languages(lesson_file)
        except LessonError as exc:
            print(_("error: {problem}").format(problem=exc), file=sys.stderr)
            bad += 1
            continue
        for problem in errors:
            print(_("error: {problem}").format(problem=problem), file=sys.stderr)
        bad += bool(errors)
        if errors:
            continue
        n = len(lesson.steps)
        # Translators: `lesson check`'s line for a good file: "base.yaml: ok (walkthrough
        # “base”, 12 steps; en, de, fr)".
        print(count(n, "{file}: ok ({kind} “{key}”, {n} step; {languages})",
                    "{file}: ok ({kind} “{key}”, {n} steps; {languages})", file=file,
                    kind=lesson.kind, key=lesson.key, languages=", ".join(lesson.languages)))
    return EXIT_BAD_INPUT if bad else EXIT_OK


def run_show(file: str) -> int:
    from .position import PositionStep, position_text
    from .probability import ProbabilityLesson
    from .walkthrough import Walkthrough, WalkthroughLesson

    lesson = load(lesson_of(file))
    print(f"{lesson.title} ({lesson.kind}, {file})\n\n{lesson.summary}\n")

    def heading(index: int, n: int, title: str) -> str:
        # Translators: `lesson show`: "--- Step 2 of 12: The secret bid".
        return _("--- Step {index} of {n}: {title}").format(index=index, n=n, title=title)

    if isinstance(lesson, WalkthroughLesson):
        wt = Walkthrough(lesson)
        n = len(wt.steps)
        while True:
            step = wt.step
            print(f"{heading(wt.index + 1, n, step.title)}\n[{step.rule}]\n\n{step.text}")
            if step.move:
                print("\n" + _("Your move: {prompt}").format(prompt=wt.prompt()))
                # Translators: `lesson show`: the reason of a taught move (lower case in
                # the lesson's text), "Why: the explorer 9 is worth 9 points now."
                print(_("Why: {why}.").format(why=step.why))
                ok, said = wt.show_me()
                assert ok, said
                if said:
                    print(_("After it: {said}").format(said=said))
            print()
            if not wt.next():
                break
        if wt.game.is_over:
            print(wt.game.scores().to_text())
        return EXIT_OK
    assert isinstance(lesson, ProbabilityLesson)
    for i, pstep in enumerate(lesson.steps, start=1):
        if isinstance(pstep, PositionStep):
            print(f"{heading(i, len(lesson.steps), pstep.title)}\n\n{pstep.situation}\n")
            print(position_text(pstep))
            continue
        q = pstep.question()
        texts = pstep.texts()
        print(f"{heading(i, len(lesson.steps), pstep.title)}\n\n{texts['situation']}\n")
        print(_("Predict: {question}").format(question=texts["predict"]) + "\n")
        result = q.run(pstep.trials, pstep.seed, pstep.batches)
        explained = pstep.texts(q.simulation_facts(result))["explain"]
        print(count(pstep.trials, "Simulation: {n} run (seed {seed}).",
                    "Simulation: {n} runs (seed {seed}).", seed=pstep.seed) + "\n")
        print(f"{explained}\n")
    return EXIT_OK


__all__ = ["configure", "run"]
