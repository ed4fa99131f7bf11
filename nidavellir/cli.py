"""The ``nidavellir`` command line.

Each subcommand is one entry of :data:`COMMANDS`: a help line, a function that adds
its arguments to its subparser, and a function that runs it and returns the exit code.
Adding a command (``replay``, ``simulate``, ...) means adding one entry.

Exit codes: 0 success, 2 bad input (argparse usage errors, unreadable files, invalid
scenarios); errors are one line ``error: <message>`` on stderr.

The human output is in the reader's language (:func:`language_of`): ``--language de`` before
the command, else the environment's locale as gettext reads it (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``: ``LANG=fr_FR.UTF-8``), else English. JSON output and notation
are the same in every language.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from . import i18n
from .analysis.simulate import configure_parser as configure_simulate
from .errors import NidavellirError
from .i18n import N_, _, count

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
                        help=_("a scenario file (.yaml, .yml or .json), see the README"))
    parser.add_argument("--json", action="store_true",
                        help=_("print one JSON object instead of the score sheet"))
    parser.add_argument("--hypothetical", action="store_true",
                        help=_("skip the checks of what is physically impossible (box counts, "
                               "coin availability, duplicates across the table)"))


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
        header.append(_("(hypothetical table: the box and coin checks were skipped)"))
    if header:
        print("\n".join(header) + "\n")
    print(sheet.to_text())
    return EXIT_OK


# --------------------------------------------------------------------------- replay

def _configure_replay(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="RECORD",
                        help=_("a game record (JSON, written by Game.save), see the README"))


def run_replay(args: argparse.Namespace) -> int:
    """``nidavellir replay RECORD``: the log, then the (final or current) score sheet; a
    reviewed game's review after them (the record's ``review`` part)."""
    from .game import Game

    game = Game.load(args.record)
    print("\n".join(game.log()))
    print()
    decision = game.decision
    if game.is_over or decision is None:
        print(count(len(game.history), "Game over after {n} decision.",
                    "Game over after {n} decisions.") + "\n")
    else:
        # Translators: {kind} is the decision's kind in notation (bid, pick, ...); {number}
        # is the decision about to be taken (as `nidavellir hint --at` numbers it).
        print(_("The record stops at decision {number}: {name} to {kind} ({prompt}).").format(
            number=len(game.history) + 1, name=game.names[decision.player],
            kind=decision.kind, prompt=decision.prompt))
        print(_("Score sheet of the table as it is now:") + "\n")
    print(game.scores().to_text())
    if game.review is not None:
        from .analysis.review import annotated_lines, headline, review_frame, summary

        frame = review_frame(game, game.review)
        print()
        # Translators: `nidavellir replay` of a reviewed game, above its review.
        print(_("The review saved with this game:"))
        print("\n".join(annotated_lines(frame, game)))
        print()
        for r in summary(frame).itertuples():
            print(headline(r))
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
    parser.add_argument("record", metavar="RECORD", help=_("a game record (JSON, Game.save)"))
    parser.add_argument("--at", type=int, metavar="N", default=None,
                        help=_("judge decision N (numbered from 1, as the review numbers them; "
                               "default: the record's last position, for an unfinished game)"))
    parser.add_argument("--level", default=None,
                        help=_("the coach's level: quick, coach (default), deep, hard, expert, "
                               "or search@BUDGET (e.g. search@400: the same answer every run)"))
    parser.add_argument("--seed", type=int, default=None,
                        help=_("a fixed seed (default: from the position as the seat sees it, "
                               "as the Hint and the review seed it)"))
    parser.add_argument("--json", action="store_true", help=_("print one JSON object"))


def run_hint(args: argparse.Namespace) -> int:
    """``nidavellir hint RECORD.json [--at N] [--level L] [--seed S] [--json]``: the coach's
    judgement of one decision of a record, from the deciding seat's knowledge only."""
    from .bots.judge import DEFAULT_LEVEL, judge, level_words, parse_level
    from .errors import RecordError
    from .game import Game

    try:
        level = parse_level(args.level or DEFAULT_LEVEL)
        game = Game.load(args.record)
        n = len(game.history)
        if args.at is None:
            if game.is_over:
                # Translators: an error of `nidavellir hint`; --at N is the option as typed.
                raise ValueError(_("{record} is a finished game: name a decision with --at N "
                                   "(1 to {last})").format(record=args.record, last=n))
            number = n + 1
        else:
            number = args.at
            last = n if game.is_over else n + 1
            if not 1 <= number <= last:
                # Translators: an error of `nidavellir hint`; --at is the option as typed.
                raise ValueError(_("--at must be a decision of the record, 1 to {last}, not "
                                   "{number}").format(last=last, number=number))
            game.undo_to(number - 1)
        judgement = judge(game, level=level, seed=args.seed)
    except (ValueError, RecordError) as exc:
        print(_("error: {problem}").format(problem=exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    data = judgement.to_dict()
    d = game.decision
    assert d is not None
    if args.json:
        print(json.dumps({"decision": number, "name": game.names[d.player], **data},
                         ensure_ascii=False))
        return EXIT_OK
    print(_("Decision {number}: {name}: {prompt}").format(number=number,
                                                          name=game.names[d.player],
                                                          prompt=d.prompt))
    if judgement.exact:
        how = _("exact: nothing hidden or random is left, every option played to the end")
    elif judgement.iterations:
        how = _("a search of {iterations} games, then every option played out on the same "
                "{playouts} deals").format(iterations=judgement.iterations,
                                           playouts=judgement.playouts)
    else:
        how = _("{playouts} games played out").format(playouts=judgement.playouts)
    # Translators: the hint command's second line; {level} is how hard the coach thought
    # ("its usual depth", "a search of 400 iterations").
    print(_("judged by the coach ({level}) from {name}'s knowledge ({how}; ★: about as good "
            "as the best, the difference within the noise)").format(
        level=level_words(judgement.level), name=game.names[d.player], how=how))
    # Translators: the columns of the hint command's table (option, chance to win, score).
    option, chance, score = _("option"), _("chance to win"), _("expected final score")
    print(f"  {option:<30} {chance:>15} {score:>21}")
    many = len(judgement.options) > 1
    for o in judgement.options:
        star = "★" if o.about_best and many else " "
        same = f" (= {', '.join(map(str, o.equivalent))})" if o.equivalent else ""
        if judgement.exact:
            win, score = i18n.percent(o.win), i18n.number(o.score)
        else:
            win = f"{i18n.percent(o.win)} ± {i18n.percent(o.win_se)}"
            score = f"{i18n.number(o.score, 1)} ± {i18n.number(o.score_se, 1)}"
        print(f"{star} {str(o.action):<30} {win:>15} {score:>21}{same}")
    print(_("Best: {headline}").format(headline=judgement.headline()))
    if data.get("reason"):
        print(data["reason"])
    return EXIT_OK


def run_simulate(args: argparse.Namespace) -> int:
    """``nidavellir simulate --games N --players P --bots B[,B...] --seed S --workers W
    --out FILE.csv|.parquet [--expansions thingvellir]``."""
    from .analysis.simulate import run

    return run(args)


def _configure_puzzles(parser: argparse.ArgumentParser) -> None:
    from .analysis.puzzles.generate import configure_parser

    configure_parser(parser)


def run_puzzles(args: argparse.Namespace) -> int:
    """``nidavellir puzzles generate|check``: see :mod:`nidavellir.analysis.puzzles`."""
    from .analysis.puzzles.generate import run

    return run(args)


def _configure_lesson(parser: argparse.ArgumentParser) -> None:
    from .lessons.cli import configure

    configure(parser)


def run_lesson(args: argparse.Namespace) -> int:
    """``nidavellir lesson list|check|show``: see :mod:`nidavellir.lessons.cli`."""
    from .lessons.cli import run

    return run(args)


#: The commands; their help lines are marked for the catalogue (``N_``) and translated
#: when the parser is built, in the command's language.
COMMANDS: dict[str, Command] = {
    # Translators: a command's line in `nidavellir --help`.
    "score": Command(N_("score a table from a scenario file"), _configure_score, run_score),
    "replay": Command(N_("replay a game record: its log and score sheet"), _configure_replay,
                      run_replay),
    "simulate": Command(N_("play many seeded games with bots; rows to CSV or Parquet"),
                        configure_simulate, run_simulate),
    "ladder": Command(N_("rank bots by seat-rotated games on common deals: win shares, Elo"),
                      _configure_ladder, run_ladder),
    "review": Command(N_("judge every decision of a recorded game: mistakes and better moves"),
                      _configure_review, run_review),
    "hint": Command(N_("the coach's judgement of one decision of a record, and why"),
                    _configure_hint, run_hint),
    "lesson": Command(N_("lesson files: list them, check them, show one step by step"),
                      _configure_lesson, run_lesson),
    "puzzles": Command(N_("puzzles from real games: generate a puzzle file, check one"),
                       _configure_puzzles, run_puzzles),
}


# --------------------------------------------------------------------------- entry point

#: The environment variables gettext reads for a language, in its order.
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


class UnknownLanguageError(NidavellirError):
    """``--language`` names a language the lab has no catalogue for."""


def language_of(argv: Sequence[str], environ: Mapping[str, str]) -> str:
    """The language of a command's human output: ``--language CODE`` (or
    ``--language=CODE``) of the command line, else the first of the environment's locale
    variables that is set (a locale such as ``de_DE.UTF-8``, or ``LANGUAGE``'s list
    ``fr:en``), when the lab has that language; else English. An unknown ``--language`` is
    an error; an unknown locale is not (it is the whole system's, not asked of the lab).

    >>> language_of(["--language", "fr", "score", "t.yaml"], {"LANG": "de_DE.UTF-8"})
    'fr'
    >>> language_of(["score"], {"LANG": "de_DE.UTF-8"}), language_of([], {"LANG": "C.UTF-8"})
    ('de', 'en')
    """
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--language" or arg.startswith("--language="):
            code = arg.partition("=")[2] if "=" in arg else (
                argv[i + 1] if i + 1 < len(argv) else "")
            code = code.strip().lower()
            if not i18n.known(code):
                # Translators: the error of an unknown --language; {code} is what was
                # typed, {languages} the codes the lab knows (en, de, fr).
                raise UnknownLanguageError(_("--language {code}: the lab speaks "
                                             "{languages}").format(
                    code=repr(code), languages=", ".join(i18n.LANGUAGES)))
            return code
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "")
        if not value:
            continue
        for tag in value.split(":"):
            code = tag.split(".")[0].split("@")[0].replace("_", "-").split("-")[0].lower()
            if code in i18n.LANGUAGES:
                return code
        return i18n.SOURCE  # gettext reads the first variable set, and only it
    return i18n.SOURCE


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help with its own words in the reader's language: "usage:" (the titles
    and ``-h``'s line are set by :class:`Parser`)."""

    def add_usage(self, usage: str | None, actions: Any, groups: Any,
                  prefix: str | None = None) -> None:
        # Translators: the first line of a command's --help, before its usage.
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


#: argparse's own messages, as Python's argparse writes them in English, each with the
#: lab's message for it. argparse words its messages with the standard library's gettext
#: and its own catalogue, not the lab's, so :meth:`Parser.error` finds the template a
#: message was made from and says it again in the reader's language, with the same values
#: (what was typed, the options' names: quoted as they are). A message argparse words
#: otherwise (another Python version) stays as argparse wrote it.
ARGPARSE_MESSAGES: tuple[tuple[str, str], ...] = (
    ("argument %(argument_name)s: %(message)s",
     # Translators: an error of the command line: {argument} is an option or an argument
     # as the help writes it (--at, FILE), {message} one of the errors below.
     N_("argument {argument}: {message}")),
    ("the following arguments are required: %s",
     # Translators: an error of the command line; {arguments} are names such as FILE.
     N_("the following arguments are required: {arguments}")),
    # Translators: an error of the command line; {arguments} are what was typed.
    ("unrecognized arguments: %s", N_("unrecognized arguments: {arguments}")),
    ("invalid choice: %(value)r (choose from %(choices)s)",
     # Translators: an error of the command line: {value} was typed, {choices} are the
     # words the command knows there.
     N_("invalid choice: {value} (choose from {choices})")),
    # Translators: an error of the command line: {type} is a type's name in code (int,
    # float), {value} what was typed.
    ("invalid %(type)s value: %(value)r", N_("invalid {type} value: {value}")),
    ("expected one argument", N_("expected one argument")),
    ("expected at most one argument", N_("expected at most one argument")),
    ("expected at least one argument", N_("expected at least one argument")),
    ("not allowed with argument %s", N_("not allowed with argument {argument}")),
    ("ignored explicit argument %r", N_("ignored explicit argument {value}")),
    ("ambiguous option: %(option)s could match %(matches)s",
     # Translators: an error of the command line: {option} was typed, {matches} are the
     # options it could be the start of.
     N_("ambiguous option: {option} could match {matches}")),
    ("one of the arguments %s is required", N_("one of the arguments {arguments} is required")),
    ("unexpected option string: %s", N_("unexpected option string: {option}")),
)
#: argparse's one message with a count (``nargs=3``): its English forms and the lab's.
_EXPECTED = re.compile(r"expected (\d+) arguments?")
_TEMPLATE_PART = re.compile(r"%(?:\((\w+)\))?[sr]")


def _template_pattern(template: str, message: str) -> tuple[re.Pattern[str], list[str]]:
    """A regular expression of an argparse template, its placeholders in order as named
    groups, and the lab's names for them (``message``'s placeholders, in the same order)."""
    ours = re.findall(r"\{(\w+)\}", message)
    pieces, last, n = [], 0, 0
    for match in _TEMPLATE_PART.finditer(template):
        pieces.append(re.escape(template[last:match.start()]))
        # The last placeholder takes the rest; an earlier one as little as it can.
        pieces.append(f"(?P<{ours[n]}>.+)" if match.end() == len(template)
                      else f"(?P<{ours[n]}>.+?)")
        last, n = match.end(), n + 1
    pieces.append(re.escape(template[last:]))
    return re.compile("".join(pieces), re.DOTALL), ours


_PATTERNS = [(_template_pattern(template, ours)[0], ours)
             for template, ours in ARGPARSE_MESSAGES]


def argparse_message(english: str) -> str:
    """An argparse error message in the reader's language (:data:`ARGPARSE_MESSAGES`).

    >>> with i18n.using("de"):
    ...     argparse_message("argument --at: invalid int value: 'y'")
    "Argument --at: ungültiger int-Wert: 'y'"
    >>> argparse_message("a message of the lab's own")
    "a message of the lab's own"
    """
    expected = _EXPECTED.fullmatch(english)
    if expected:
        n = int(expected.group(1))
        return count(n, "expected {n} argument", "expected {n} arguments")
    for pattern, ours in _PATTERNS:
        match = pattern.fullmatch(english)
        if match:
            values = match.groupdict()
            if "message" in values:
                values["message"] = argparse_message(values["message"])
            return _(ours).format(**values)
    return english


class Parser(argparse.ArgumentParser):
    """The lab's argument parser: argparse's own words in the reader's language, from the
    lab's catalogue (its usage line, its sections' titles, ``-h``'s line and its errors);
    a command's subparsers are of this class too (argparse makes them of their parent's).
    An error is still argparse's: the usage, then one line ``PROG: error: ...``, exit 2."""

    def __init__(self, *, add_help: bool = True,
                 formatter_class: type[argparse.HelpFormatter] = HelpFormatter,
                 **kwargs: Any) -> None:
        super().__init__(add_help=False, formatter_class=formatter_class, **kwargs)
        # Translators: the sections of a command's --help.
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        if add_help:
            self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                              help=_("show this help message and exit"))

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        # Translators: a usage error of the command line: {prog} is the command
        # (nidavellir hint), {message} what was wrong.
        self.exit(EXIT_BAD_INPUT, _("{prog}: error: {message}").format(
            prog=self.prog, message=argparse_message(message)) + "\n")


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser, its help in the current language (:func:`main` builds it
    in the command's)."""
    parser = Parser(prog="nidavellir", description=_(
        "The Nidavellir lab: score sheets and tools for Nidavellir + Thingvellir."))
    parser.add_argument("--language", metavar="CODE", choices=[*i18n.LANGUAGES, i18n.PSEUDO],
                        help=_("the language of the human output: {languages} (default: the "
                               "environment's locale, LANG; else en)").format(
                            languages=", ".join(i18n.LANGUAGES)))
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, command in COMMANDS.items():
        sub = subparsers.add_parser(name, help=_(command.help), description=_(command.help))
        command.configure(sub)
        sub.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    # An unknown --language is said in the environment's language.
    with i18n.using(language_of([], os.environ)):
        try:
            language = language_of(words, os.environ)
        except UnknownLanguageError as exc:
            print(_("error: {problem}").format(problem=exc), file=sys.stderr)
            return EXIT_BAD_INPUT
    # The command's own block: a caller (a test, a notebook) keeps its language after.
    with i18n.using(language):
        return _main(words)


def _main(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] | None = getattr(args, "run", None)
    if run is None:
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    try:
        return run(args)
    except NidavellirError as exc:
        # Translators: a command's error line: {problem} says what was wrong.
        print(_("error: {problem}").format(problem=exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # `nidavellir replay game.json | head`: the reader left; say nothing more.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
