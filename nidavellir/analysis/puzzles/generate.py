"""``nidavellir puzzles generate`` and ``check``: puzzles mined from real games.

The generator plays seeded games between the lab's bots (each seat one of
:data:`BOT_MIX`; 2 to 5 players; half of them with Thingvellir) and reads saved records (a
learner's own games: the seats people played when the record says so), and keeps a
decision as a puzzle when it passes the only-move test (:func:`nidavellir.bots.puzzle.
verify`). Judging every decision at :data:`~nidavellir.bots.puzzle.DEALS` deals per option
would cost minutes per game, so each game is looked at in two steps:

1. the decisions, in an order shuffled by the game's seed (the puzzles come from the
   whole game, not only its end), each given the cheap first look
   (:func:`~nidavellir.bots.puzzle.prefilter`: a few deals per option, loose thresholds);
2. a decision the first look flags is verified in full; the game stops at
   ``per_game`` puzzles (one by default: Lichess keeps at most one per game) or
   :data:`MAX_VERIFIED` verifications.

Each game is one seeded job on the shared runner (:mod:`nidavellir.analysis.runner`: this
process, local processes, or a Dask cluster); the puzzles come out in game order, so the
same command gives the same file on any backend and any number of workers. A faster engine
makes it faster and changes nothing else: every budget is counted in deals, not seconds.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ... import i18n
from ...bots import derive_seed, make_bot, play_game
from ...bots.judge import position_key
from ...bots.puzzle import DEALS, Verdict, eligible, prefilter, verify
from ...bots.puzzle_themes import themes_of
from ...errors import RecordError
from ...game import Game
from ...i18n import N_, _, count
from ..runner import Backend, run_tasks
from .fileformat import Puzzle, PuzzleFileError, parse_puzzle, puzzle_line, read_puzzles
from .glicko import Rating, rate

#: The bots of the generated games, drawn for each seat (weakest first): mixed levels
#: make mixed positions, and a weak player's position often hides one clearly best move.
BOT_MIX = ("random", "greedy", "heuristic", "search@40")
#: Puzzles kept per game at most (Lichess: one).
PER_GAME = 1
#: Full verifications per game at most (the first look's false alarms cost one each).
MAX_VERIFIED = 6
#: The lab's bots that try each new puzzle once, with the ratings they are taken to have:
#: the puzzle's first rating (docs/puzzles.md, "Ratings"). ``random`` is counted by its
#: chance to find an answer (answers ÷ legal moves), the others by their move.
BOT_RATINGS: dict[str, Rating] = {"random": Rating(800.0, 100.0, 0.06),
                                  "greedy": Rating(1300.0, 100.0, 0.06),
                                  "heuristic": Rating(1500.0, 100.0, 0.06)}
#: The salt of the second set of deals every kept puzzle passes too.
STABLE_SALT = 1
EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2


# ====================================================================== one game

@dataclass
class Found:
    """What the generator found in one game or record: its puzzles (as their lines' data)
    and what it cost."""

    puzzles: list[dict[str, Any]] = field(default_factory=list)
    looked: int = 0
    """Decisions given the first look."""
    flagged: int = 0
    """Decisions the first look flagged."""
    verified: list[float] = field(default_factory=list)
    """CPU seconds of each full verification (the first set of deals)."""
    passed: int = 0
    """Verified decisions that passed on the first set of deals (then checked on a
    second)."""
    seconds: float = 0.0
    """CPU seconds of the whole job (the game's play included)."""
    error: str = ""


def game_spec(seed: int, index: int) -> tuple[int, int, tuple[str, ...], tuple[str, ...]]:
    """Game ``index`` of a run with master ``seed``: (its seed, players, expansions,
    bots), drawn from its own seed only."""
    own = derive_seed(seed, "puzzles", index)
    rng = random.Random(own)
    players = rng.randint(2, 5)
    expansions = ("thingvellir",) if rng.random() < 0.5 else ()
    bots = tuple(rng.choice(BOT_MIX) for _ in range(players))
    return own, players, expansions, bots


def position(record: Mapping[str, Any], index: int) -> tuple[Game, dict[str, Any]]:
    """The position before action ``index`` of a record, and its record."""
    prefix = dict(record)
    prefix["actions"] = list(record.get("actions", ()))[:index]
    return Game.from_record(prefix), prefix


def find(record: Mapping[str, Any], order_seed: int, source: Mapping[str, Any],
         seats: Sequence[int] | None = None, per_game: int = PER_GAME, deals: int = DEALS
         ) -> Found:
    """The puzzles of one game record (module docs): its decisions in an order shuffled by
    ``order_seed``, the first look, then the full test."""
    start = time.process_time()
    out = Found()
    actions = list(record.get("actions", ()))
    order = list(range(len(actions)))
    random.Random(order_seed).shuffle(order)
    for index in order:
        if len(out.puzzles) >= per_game or len(out.verified) >= MAX_VERIFIED:
            break
        game, prefix = position(record, index)
        decision = game.decision
        if decision is None or (seats is not None and decision.player not in seats) \
                or not eligible(game):
            continue
        out.looked += 1
        quick = prefilter(game)
        if quick is None or not quick.passed:
            continue
        out.flagged += 1
        t = time.process_time()
        verdict = verify(game, deals=deals)
        out.verified.append(time.process_time() - t)
        if not verdict.passed:
            continue
        out.passed += 1
        # Kept only if another set of deals keeps it too, with the same answers: a puzzle
        # whose test passes by the luck of its deals is noise (benchmarks/README.md).
        if _same(verdict, verify(game, deals=deals, salt=STABLE_SALT)):
            out.puzzles.append(make_puzzle(game, prefix, verdict,
                                           {**source, "decision": index + 1},
                                           actions[index:]))
    out.seconds = time.process_time() - start
    return out


def _same(verdict: Verdict, again: Verdict) -> bool:
    return again.passed and set(again.answers) == set(verdict.answers)


def make_puzzle(game: Game, record: Mapping[str, Any], verdict: Verdict,
                source: Mapping[str, Any], continuation: Sequence[str] = ()
                ) -> dict[str, Any]:
    """A verified decision as a puzzle's line (docs/puzzles.md): the record of its
    position, the answers, the gap, the themes, the coach's words in every language, the
    judge's figures of every option and its first rating."""
    j = verdict.judgement
    assert j is not None and verdict.passed
    reasons = {}
    for code in i18n.LANGUAGES:
        with i18n.using(code):
            reasons[code] = verdict.reason(game)
    options = [{"move": str(o.action), "moves": [str(a) for a in o.actions],
                "win": round(o.win, 4), "win_se": round(o.win_se, 4),
                "score": round(o.score, 2), "score_se": round(o.score_se, 2),
                "about_best": o.about_best}
               for o in j.options]
    data: dict[str, Any] = {
        "id": "p" + position_key(game)[:12], "seat": verdict.seat,
        "answers": verdict.answers, "runner_up": verdict.runner_up,
        "gap": verdict.gap_dict(), "exact": verdict.exact, "reason": reasons,
        "themes": themes_of(game, verdict), "rating": first_rating(game, verdict).to_dict(),
        "source": dict(source), "kind": verdict.kind, "grading": verdict.grading,
        "agreement": round(verdict.agreement, 3), "deals": verdict.deals,
        "level": j.level, "options": options, "continuation": list(continuation),
        "record": dict(record)}
    parse_puzzle(data)  # the generator writes nothing a reader would refuse
    return data


def first_rating(game: Game, verdict: Verdict) -> Rating:
    """A new puzzle's rating: Lichess's start (1500 / 500 / 0.09), then one rating period
    of games against the lab's bots (:data:`BOT_RATINGS`), each trying it from the seat's
    view (bots never peek)."""
    answers = set(verdict.answers)
    legal = game.legal_actions()
    games = [(BOT_RATINGS["random"], 1.0 - len(answers) / len(legal))]
    for name in ("greedy", "heuristic"):
        bot = make_bot(name, derive_seed(len(game.history), name))
        games.append((BOT_RATINGS[name], 0.0 if str(bot.choose(game.clone())) in answers
                      else 1.0))
    return rate(Rating(), games, clamp=True)


def _game_job(task: tuple[int, int, int, int]) -> Found:
    """One generated game (module level: it runs in worker processes)."""
    seed, index, per_game, deals = task
    own, players, expansions, bots = game_spec(seed, index)
    game = play_game(players, list(bots), seed=own, expansions=expansions)
    source = {"seed": seed, "game": index, "bots": list(bots)}
    return find(game.to_record(), own, source, per_game=per_game, deals=deals)


def _record_job(task: tuple[str, dict[str, Any], int, int, int]) -> Found:
    """One saved record: the decisions of the seats people played (all when the record
    does not say)."""
    name, record, seed, per_game, deals = task
    try:
        game = Game.from_record(record)
    except (RecordError, ValueError) as exc:
        return Found(error=_("{record} does not replay: {problem}").format(record=name,
                                                                          problem=exc))
    seats = list(game.learners) if game.learners is not None else None
    return find(game.to_record(), derive_seed(seed, "record", name), {"record": name},
                seats=seats, per_game=per_game, deals=deals)


def _job(task: tuple[Any, ...]) -> Found:
    return _game_job(task[1:]) if task[0] == "game" else _record_job(task[1:])


def read_records(folder: str | Path) -> list[tuple[str, dict[str, Any]]]:
    """The records of a folder (``*.json``, by name), or ValueError naming one that is not
    a record."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(_("{folder} is not a folder of game records").format(
            folder=repr(str(folder))))
    out = []
    for path in sorted(folder.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(_("{file} is not a game record: {problem}").format(
                file=path.name, problem=exc)) from None
        if not isinstance(data, dict):
            raise ValueError(_("{file} is not a game record (a JSON object)").format(
                file=path.name))
        out.append((path.name, data))
    return out


@dataclass
class Run:
    """A generator run's figures (printed at its end; benchmarks/README.md)."""

    games: int = 0
    records: int = 0
    puzzles: int = 0
    looked: int = 0
    flagged: int = 0
    verified: list[float] = field(default_factory=list)
    passed: int = 0
    cpu: float = 0.0
    wall: float = 0.0
    themes: Counter[str] = field(default_factory=Counter)
    tables: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)

    def add(self, found: Found) -> None:
        self.puzzles += len(found.puzzles)
        self.looked += found.looked
        self.flagged += found.flagged
        self.verified += found.verified
        self.passed += found.passed
        self.cpu += found.seconds
        if found.error:
            self.errors.append(found.error)
        for p in found.puzzles:
            self.themes.update(p["themes"])
            config = p["record"]["config"]
            edition = "Thingvellir" if "thingvellir" in (config.get("expansions") or ()) \
                else "base"
            self.tables[f"{config['players']}p {edition}"] += 1

    def to_dict(self) -> dict[str, Any]:
        v = self.verified
        return {"games": self.games, "records": self.records, "puzzles": self.puzzles,
                "per_1000_games": round(1000 * self.puzzles / self.games, 1)
                if self.games else None,
                "decisions_looked_at": self.looked, "flagged": self.flagged,
                "verified": len(v), "passed_first_deals": self.passed,
                "kept_of_verified": round(self.puzzles / len(v), 3)
                if v else None,
                "verify_seconds_mean": round(sum(v) / len(v), 3) if v else None,
                "verify_seconds_max": round(max(v), 3) if v else None,
                "cpu_seconds": round(self.cpu, 1), "wall_seconds": round(self.wall, 1),
                "themes": dict(sorted(self.themes.items())),
                "tables": dict(sorted(self.tables.items())), "errors": self.errors}


def check_arguments(games: int, per_game: int, deals: int) -> None:
    """ValueError naming the option that is wrong."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(_("{option} must be a whole number >= 0, not {value}").format(
            option="--games", value=repr(games)))
    if isinstance(per_game, bool) or not isinstance(per_game, int) or per_game < 1:
        raise ValueError(_("{option} must be at least 1, not {value}").format(
            option="--per-game", value=repr(per_game)))
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < DEALS:
        raise ValueError(_("{option} must be at least {least}, not {value}").format(
            option="--deals", least=DEALS, value=repr(deals)))


def generate(games: int, seed: int = 0, first: int = 0, records: Sequence[tuple[str, dict[
        str, Any]]] = (), per_game: int = PER_GAME, deals: int = DEALS,
             backend: Backend | None = None, progress: bool = False,
             stats: Run | None = None) -> Iterator[dict[str, Any]]:
    """The puzzles of games ``first`` … ``first + games - 1`` of the run with master
    ``seed``, then of ``records``, in that order (module docs); ``stats`` is filled in."""
    check_arguments(games, per_game, deals)
    run = stats if stats is not None else Run()
    tasks: list[tuple[Any, ...]] = [("game", seed, first + i, per_game, deals)
                                    for i in range(games)]
    tasks += [("record", name, data, seed, per_game, deals) for name, data in records]
    start = time.perf_counter()
    # Translators: the generator's progress bar counts games (and records).
    for task, found in zip(tasks, run_tasks(_job, tasks, backend=backend or Backend(),
                                            progress=progress, desc=N_("games"),
                                            unit=N_("game"), size=1), strict=True):
        if task[0] == "game":
            run.games += 1
        else:
            run.records += 1
        run.add(found)
        run.wall = time.perf_counter() - start
        yield from found.puzzles


# ====================================================================== check

def check(puzzle: Puzzle, deals: int | None = None) -> list[str]:
    """Why a puzzle no longer passes with the current engine and judge (empty: it
    passes): its record replays to its seat's decision, every answer is legal there, and
    the only-move test keeps it with the same answers."""
    try:
        game = puzzle.game()
    except PuzzleFileError as exc:
        return [exc.problem]
    legal = {str(a) for a in game.legal_actions()}
    problems = [_("{move} is not a legal move of its position").format(move=repr(a))
                for a in (*puzzle.answers, puzzle.runner_up) if a not in legal]
    if problems:
        return problems
    wanted = deals if deals is not None else int(puzzle.extra.get("deals") or DEALS)
    verdict = verify(game, deals=max(DEALS, wanted))
    if not verdict.passed:
        problems.append(_("the only-move test refuses it now: {why}").format(
            why=verdict.why_not()))
    elif set(verdict.answers) != set(puzzle.answers):
        problems.append(_("its answers are now {now}, not {then}").format(
            now=", ".join(verdict.answers), then=", ".join(puzzle.answers)))
    return problems


def _check_job(task: tuple[dict[str, Any], int | None]) -> list[str]:
    data, deals = task
    return check(parse_puzzle(data), deals)


def check_all(puzzles: Sequence[Puzzle], deals: int | None = None,
              backend: Backend | None = None, progress: bool = False
              ) -> list[tuple[Puzzle, list[str]]]:
    """Every puzzle with its problems (:func:`check`), in the file's order."""
    tasks = [(p.to_dict(), deals) for p in puzzles]
    results = run_tasks(_check_job, tasks, backend=backend or Backend(), progress=progress,
                        desc=N_("puzzles"), unit=N_("puzzle"), size=1)
    return list(zip(puzzles, results, strict=True))


def sample(puzzles: Sequence[Puzzle], n: int) -> list[Puzzle]:
    """``n`` puzzles spread evenly over the file (all when it has no more)."""
    if n >= len(puzzles):
        return list(puzzles)
    step = len(puzzles) / n
    return [puzzles[int(i * step)] for i in range(n)]


# ====================================================================== command line

def configure_parser(parser: argparse.ArgumentParser) -> None:
    """``nidavellir puzzles generate|check``."""
    from ..simulate import add_backend_arguments

    sub = parser.add_subparsers(dest="puzzles_command", metavar="COMMAND")
    gen = sub.add_parser("generate", help=_("mine puzzles from bot games and saved records"),
                         description=_("mine puzzles from bot games and saved records"))
    gen.add_argument("--games", type=int, default=100, metavar="N",
                     help=_("bot games to play and mine (default 100)"))
    gen.add_argument("--seed", type=int, default=0, help=_("the run's seed (default 0)"))
    gen.add_argument("--first", type=int, default=0, metavar="I",
                     help=_("the number of the first game (default 0): a run in parts gives "
                            "the same puzzles as one run"))
    gen.add_argument("--records", metavar="DIR",
                     help=_("also mine the game records (*.json) of this folder"))
    gen.add_argument("--per-game", type=int, default=PER_GAME, metavar="K",
                     help=_("puzzles kept per game at most (default {n})").format(n=PER_GAME))
    gen.add_argument("--deals", type=int, default=DEALS, metavar="D",
                     help=_("deals per option of the full test (default and least {n})"
                            ).format(n=DEALS))
    add_backend_arguments(gen, workers=1, workers_help="1")
    gen.add_argument("-o", "--out", required=True, metavar="FILE.jsonl",
                     help=_("the puzzle file to write"))
    gen.add_argument("--stats", metavar="FILE.json",
                     help=_("also write the run's figures (puzzles per game, seconds per "
                            "verification, themes) as JSON"))
    gen.add_argument("--no-progress", action="store_true", help=_("no progress bar"))
    chk = sub.add_parser("check", help=_("re-verify every puzzle of a file with the current "
                                         "judge"),
                         description=_("re-verify every puzzle of a file with the current "
                                       "judge"))
    chk.add_argument("file", metavar="FILE.jsonl", help=_("a puzzle file"))
    chk.add_argument("--sample", type=int, metavar="N",
                     help=_("check N puzzles spread over the file (default: all)"))
    chk.add_argument("--deals", type=int, default=None, metavar="D",
                     help=_("deals per option (default: the puzzle's own, at least {n})"
                            ).format(n=DEALS))
    add_backend_arguments(chk, workers=1, workers_help="1")
    chk.add_argument("--no-progress", action="store_true", help=_("no progress bar"))


def run(args: argparse.Namespace) -> int:
    command = getattr(args, "puzzles_command", None)
    try:
        if command == "generate":
            return _run_generate(args)
        if command == "check":
            return _run_check(args)
    except (ValueError, RecordError) as exc:
        print(_("error: {problem}").format(problem=exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    print(_("error: {problem}").format(problem=_("name a command: generate or check")),
          file=sys.stderr)
    return EXIT_BAD_INPUT


def _run_generate(args: argparse.Namespace) -> int:
    from ..simulate import backend_from

    backend = backend_from(args)
    out = Path(args.out)
    if out.suffix != ".jsonl":
        raise ValueError(_("cannot write {path}: a puzzle file ends in .jsonl").format(
            path=repr(str(out))))
    if not out.parent.is_dir():
        raise ValueError(_("cannot write {path}: no directory {folder}").format(
            path=repr(str(out)), folder=repr(str(out.parent))))
    if args.first < 0:
        raise ValueError(_("{option} must be a whole number >= 0, not {value}").format(
            option="--first", value=args.first))
    check_arguments(args.games, args.per_game, args.deals)
    records = read_records(args.records) if args.records else []
    stats = Run()
    part = out.with_name(out.name + ".part")
    written = 0
    try:
        with part.open("w", encoding="utf-8") as f:
            for puzzle in generate(args.games, args.seed, args.first, records, args.per_game,
                                   args.deals, backend, progress=not args.no_progress,
                                   stats=stats):
                f.write(puzzle_line(puzzle) + "\n")
                f.flush()
                written += 1
    except BaseException:
        part.unlink(missing_ok=True)  # an interrupted run leaves nothing half written
        raise
    part.replace(out)
    figures = stats.to_dict()
    if args.stats:
        Path(args.stats).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    print(count(written, "{n} puzzle written to {path}", "{n} puzzles written to {path}",
                path=str(out)))
    print(_("games {games}, records {records}; per 1,000 games {rate}; decisions looked at "
            "{looked}, flagged {flagged}, verified {verified} (mean {mean} s, at most {most} s "
            "of CPU each); {wall} s in all").format(
        games=figures["games"], records=figures["records"], rate=figures["per_1000_games"],
        looked=figures["decisions_looked_at"], flagged=figures["flagged"],
        verified=figures["verified"], mean=figures["verify_seconds_mean"],
        most=figures["verify_seconds_max"], wall=figures["wall_seconds"]))
    for error in stats.errors:
        print(_("error: {problem}").format(problem=error), file=sys.stderr)
    return EXIT_OK


def _run_check(args: argparse.Namespace) -> int:
    from ..simulate import backend_from

    backend = backend_from(args)
    puzzles = read_puzzles(args.file)
    if args.sample is not None:
        if args.sample < 1:
            raise ValueError(_("{option} must be at least 1, not {value}").format(
                option="--sample", value=args.sample))
        puzzles = sample(puzzles, args.sample)
    if args.deals is not None and args.deals < DEALS:
        raise ValueError(_("{option} must be at least {least}, not {value}").format(
            option="--deals", least=DEALS, value=args.deals))
    failed = 0
    for puzzle, problems in check_all(puzzles, args.deals, backend,
                                      progress=not args.no_progress):
        if problems:
            failed += 1
            print(_("{puzzle} no longer passes: {problems}").format(
                puzzle=puzzle.where(), problems="; ".join(problems)))
    if failed:
        print(count(failed, "{n} of {total} puzzle no longer passes.",
                    "{n} of {total} puzzles no longer pass.", total=len(puzzles)))
        return EXIT_FAILED
    print(count(len(puzzles), "{n} puzzle checked: it passes.",
                "{n} puzzles checked: every one passes."))
    return EXIT_OK


__all__ = ["BOT_MIX", "BOT_RATINGS", "Found", "MAX_VERIFIED", "PER_GAME", "Run", "check",
           "check_all", "check_arguments", "configure_parser", "find", "first_rating", "game_spec", "generate",
           "make_puzzle", "position", "read_records", "run", "sample"]
