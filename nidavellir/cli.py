"""The ``nidavellir`` command line.

Each subcommand is one entry of :data:`COMMANDS`: a help line, a function that adds
its arguments to its subparser, and a function that runs it and returns the exit code.
Adding a command (``replay``, ``simulate``, ...) means adding one entry.

Exit codes: 0 success, 2 bad input (argparse usage errors, unreadable files, invalid
scenarios); errors are one line ``error: <message>`` on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .analysis.simulate import configure_parser as configure_simulate
from .errors import NidavellirError

EXIT_OK = 0
EXIT_BAD_INPUT = 2


@dataclass(frozen=True)
class Command:
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


# --------------------------------------------------------------------------- score

def _configure_score(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE",
                        help="a scenario file (.yaml, .yml or .json), see the README")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object instead of the score sheet")
    parser.add_argument("--hypothetical", action="store_true",
                        help="skip the checks of what is physically impossible (box counts, "
                             "coin availability, duplicates across the table)")


def run_score(args: argparse.Namespace) -> int:
    """``nidavellir score FILE [--json] [--hypothetical]``."""
    from .scenario import load_scenario

    scenario = load_scenario(args.file, hypothetical=args.hypothetical)
    sheet = scenario.score()
    if args.json:
        data = sheet.to_dict()
        data["player_count"] = scenario.player_count
        data["expansions"] = list(scenario.expansions)
        data["hypothetical"] = scenario.hypothetical
        if scenario.title:
            data["title"] = scenario.title
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return EXIT_OK
    header = []
    if scenario.title:
        header.append(scenario.title)
    if scenario.hypothetical:
        header.append("(hypothetical table: the box and coin checks were skipped)")
    if header:
        print("\n".join(header) + "\n")
    print(sheet.to_text())
    return EXIT_OK


# --------------------------------------------------------------------------- replay

def _configure_replay(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="RECORD",
                        help="a game record (JSON, written by Game.save), see the README")


def run_replay(args: argparse.Namespace) -> int:
    """``nidavellir replay RECORD``: the log, then the (final or current) score sheet."""
    from .game import Game

    game = Game.load(args.record)
    print("\n".join(game.log()))
    print()
    decision = game.decision
    if game.is_over or decision is None:
        print(f"Game over after {len(game.history)} decisions.\n")
    else:
        print(f"The record stops at decision {len(game.history)}: "
              f"{game.names[decision.player]} to {decision.kind} ({decision.prompt}).")
        print("Score sheet of the table as it is now:\n")
    print(game.scores().to_text())
    return EXIT_OK


# --------------------------------------------------------------------------- simulate

def _configure_ladder(parser: argparse.ArgumentParser) -> None:
    from .analysis.ladder import configure_parser

    configure_parser(parser)


def run_ladder(args: argparse.Namespace) -> int:
    """``nidavellir ladder --bots A,B[,...] ...``: see :mod:`nidavellir.analysis.ladder`."""
    from .analysis.ladder import run

    return run(args)


def _configure_review(parser: argparse.ArgumentParser) -> None:
    from .analysis.review import configure_parser

    configure_parser(parser)


def run_review(args: argparse.Namespace) -> int:
    """``nidavellir review RECORD.json ...``: see :mod:`nidavellir.analysis.review`."""
    from .analysis.review import run

    return run(args)


# --------------------------------------------------------------------------- hint

def _configure_hint(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="RECORD", help="a game record (JSON, Game.save)")
    parser.add_argument("--at", type=int, metavar="N", default=None,
                        help="judge decision N (numbered from 1, as the review numbers them; "
                             "default: the record's last position, for an unfinished game)")
    parser.add_argument("--level", default=None,
                        help="the coach's level: quick, coach (default), deep, hard, expert, "
                             "or search@BUDGET (e.g. search@400: the same answer every run)")
    parser.add_argument("--seed", type=int, default=None,
                        help="a fixed seed (default: from the position as the seat sees it, "
                             "as the Hint and the review seed it)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run_hint(args: argparse.Namespace) -> int:
    """``nidavellir hint RECORD.json [--at N] [--level L] [--seed S] [--json]``: the coach's
    judgement of one decision of a record, from the deciding seat's knowledge only."""
    from .bots.judge import DEFAULT_LEVEL, judge, parse_level
    from .errors import RecordError
    from .game import Game

    try:
        level = parse_level(args.level or DEFAULT_LEVEL)
        game = Game.load(args.record)
        n = len(game.history)
        if args.at is None:
            if game.is_over:
                raise ValueError(f"{args.record} is a finished game: name a decision with "
                                 f"--at N (1 to {n})")
            number = n + 1
        else:
            number = args.at
            last = n if game.is_over else n + 1
            if not 1 <= number <= last:
                raise ValueError(f"--at must be a decision of the record, 1 to {last}, "
                                 f"not {number}")
            game.undo_to(number - 1)
        judgement = judge(game, level=level, seed=args.seed)
    except (ValueError, RecordError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    data = judgement.to_dict()
    d = game.decision
    assert d is not None
    if args.json:
        print(json.dumps({"decision": number, "name": game.names[d.player], **data},
                         ensure_ascii=False))
        return EXIT_OK
    print(f"Decision {number}: {game.names[d.player]}: {d.prompt}")
    if judgement.exact:
        how = ("exact: nothing hidden or random is left, every option played to the end")
    elif judgement.iterations:
        how = (f"a search of {judgement.iterations} games, then every option played out on "
               f"the same {judgement.playouts} deals")
    else:
        how = f"{judgement.playouts} games played out"
    print(f"judged at the {judgement.level} level from {game.names[d.player]}'s knowledge "
          f"({how}; ★: about as good as the best, the difference within the noise)")
    print(f"  {'option':<30} {'chance to win':>15} {'expected final score':>21}")
    many = len(judgement.options) > 1
    for o in judgement.options:
        star = "★" if o.about_best and many else " "
        same = f" (= {', '.join(map(str, o.equivalent))})" if o.equivalent else ""
        if judgement.exact:
            win, score = f"{o.win:.0%}", f"{o.score:.0f}"
        else:
            win, score = f"{o.win:.0%} ± {o.win_se:.0%}", f"{o.score:.1f} ± {o.score_se:.1f}"
        print(f"{star} {str(o.action):<30} {win:>15} {score:>21}{same}")
    print(f"Best: {judgement.headline()}")
    if data.get("reason"):
        print(data["reason"])
    return EXIT_OK


def run_simulate(args: argparse.Namespace) -> int:
    """``nidavellir simulate --games N --players P --bots B[,B...] --seed S --workers W
    --out FILE.csv|.parquet [--expansions thingvellir]``."""
    from .analysis.simulate import run

    return run(args)


def _configure_lesson(parser: argparse.ArgumentParser) -> None:
    from .lessons.cli import configure

    configure(parser)


def run_lesson(args: argparse.Namespace) -> int:
    """``nidavellir lesson list|check|show``: see :mod:`nidavellir.lessons.cli`."""
    from .lessons.cli import run

    return run(args)


COMMANDS: dict[str, Command] = {
    "score": Command("score a table from a scenario file", _configure_score, run_score),
    "replay": Command("replay a game record: its log and score sheet", _configure_replay,
                      run_replay),
    "simulate": Command("play many seeded games with bots; rows to CSV or Parquet",
                        configure_simulate, run_simulate),
    "ladder": Command("rank bots by seat-rotated games on common deals: win shares, Elo",
                      _configure_ladder, run_ladder),
    "review": Command("judge every decision of a recorded game: mistakes and better moves",
                      _configure_review, run_review),
    "hint": Command("the coach's judgement of one decision of a record, and why",
                    _configure_hint, run_hint),
    "lesson": Command("lesson files: list them, check them, show one step by step",
                      _configure_lesson, run_lesson),
}


# --------------------------------------------------------------------------- entry point

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nidavellir",
        description="The Nidavellir lab: score sheets and tools for Nidavellir + Thingvellir.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, command in COMMANDS.items():
        sub = subparsers.add_parser(name, help=command.help, description=command.help)
        command.configure(sub)
        sub.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] | None = getattr(args, "run", None)
    if run is None:
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    try:
        return run(args)
    except NidavellirError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # `nidavellir replay game.json | head`: the reader left; say nothing more.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
