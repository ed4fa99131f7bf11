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

from . import Entry, LessonError, Library, load

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="lesson_command", metavar="ACTION", required=True)
    listing = sub.add_parser("list", help="every lesson: kind, key, title and file",
                             description="every lesson: kind, key, title and file")
    listing.add_argument("--json", action="store_true", help="one JSON list")
    listing.add_argument("--lessons", metavar="DIR",
                         help="a teacher's folder of lesson files, listed after the lab's")
    check = sub.add_parser("check", help="check lesson files (exit 2 when one is bad)",
                           description="check lesson files (exit 2 when one is bad)")
    check.add_argument("files", nargs="+", metavar="FILE")
    show = sub.add_parser("show", help="a lesson in text, step by step",
                          description="a lesson in text, step by step")
    show.add_argument("file", metavar="FILE")


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
    if e.error is not None:
        out["error"] = str(e.error)
    return out


def run_list(args: argparse.Namespace) -> int:
    library = Library(folder=args.lessons if args.lessons is not None else None)
    if library.folder_error:
        print(f"error: {library.folder_error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    rows = [_row(e) for e in library.entries()]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return EXIT_OK
    for row in rows:
        state = f"error: {row['error']}" if "error" in row else f"{row['steps']} steps"
        print(f"{row['kind']:<12} {row['key']:<22} {row['title']:<36} {row['file']}  ({state})")
    return EXIT_OK


def run_check(files: list[str]) -> int:
    bad = 0
    for file in files:
        try:
            lesson = load(file)
        except LessonError as exc:
            print(f"error: {exc}", file=sys.stderr)
            bad += 1
            continue
        n = len(lesson.steps)
        print(f"{file}: ok ({lesson.kind} {lesson.key!r}, {n} step{'' if n == 1 else 's'})")
    return EXIT_BAD_INPUT if bad else EXIT_OK


def run_show(file: str) -> int:
    from .position import PositionStep, position_text
    from .probability import ProbabilityLesson
    from .walkthrough import Walkthrough, WalkthroughLesson

    lesson = load(file)
    print(f"{lesson.title} ({lesson.kind}, {file})\n\n{lesson.summary}\n")
    if isinstance(lesson, WalkthroughLesson):
        wt = Walkthrough(lesson)
        n = len(wt.steps)
        while True:
            step = wt.step
            print(f"--- Step {wt.index + 1} of {n}: {step.title}\n[{step.rule}]\n\n{step.text}")
            if step.move:
                print(f"\nYour move: {wt.prompt()}\nWhy: {step.why}.")
                ok, said = wt.show_me()
                assert ok, said
                if said:
                    print(f"After it: {said}")
            print()
            if not wt.next():
                break
        if wt.game.is_over:
            print(wt.game.scores().to_text())
        return EXIT_OK
    assert isinstance(lesson, ProbabilityLesson)
    for i, pstep in enumerate(lesson.steps, start=1):
        if isinstance(pstep, PositionStep):
            print(f"--- Step {i} of {len(lesson.steps)}: {pstep.title}\n\n{pstep.situation}\n")
            print(position_text(pstep))
            continue
        q = pstep.question()
        texts = pstep.texts()
        print(f"--- Step {i} of {len(lesson.steps)}: {pstep.title}\n\n{texts['situation']}\n\n"
              f"Predict: {texts['predict']}\n")
        result = q.run(pstep.trials, pstep.seed, pstep.batches)
        explained = pstep.texts(q.simulation_facts(result))["explain"]
        print(f"Simulation: {pstep.trials} runs (seed {pstep.seed}).\n\n{explained}\n")
    return EXIT_OK


__all__ = ["configure", "run"]
