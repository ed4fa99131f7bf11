"""The puzzle file: one JSON object a line (docs/puzzles.md), read with checks that name the
line and the field, and written back the same way. Standard library only.

>>> text = '{"id": "p1"}'
>>> try:
...     parse_lines([text])
... except PuzzleFileError as exc:
...     print(exc)
line 1: field 'record' is missing (a game record whose last position is the puzzle's)
"""

from __future__ import annotations

import copy
import json
import math
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ...errors import NidavellirError, RecordError
from ...game import Game
from ...i18n import N_, _, language
from .glicko import Rating

#: The fields every puzzle has, with what each must be (the error says it).
REQUIRED: dict[str, str] = {
    # Translators: what each field of a puzzle file must be, in its error ("must be ...").
    "id": N_("an id (letters, digits, - or _)"),
    "record": N_("a game record whose last position is the puzzle's"),
    "seat": N_("the deciding seat (0 for the first)"),
    "answers": N_("the moves that solve it, in notation (a non-empty list)"),
    "runner_up": N_("the second-best move, in notation"),
    "gap": N_("the gap to the runner-up: an object with win and points"),
    "exact": N_("true or false"),
    "reason": N_("the coach's words: an object of languages (en, de, fr), or a text"),
    "themes": N_("a list of theme names"),
    "rating": N_("the puzzle's rating: an object with r, rd and sigma"),
    "source": N_("where it comes from: an object with seed and game, or record, and "
                 "decision"),
}
#: Optional fields (kept as they are): the decision's kind, how it is graded ("win" or
#: "points"), the share of the deals where the answer is best, deals per option, the
#: judge's figures of every option, the game's moves after the puzzle (the game it came
#: from), a personal puzzle's mark.
OPTIONAL = ("kind", "grading", "agreement", "deals", "options", "continuation", "personal",
            "level")
#: An id is short and plain.
ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
ID_MAX = 40


class PuzzleFileError(NidavellirError, ValueError):
    """A puzzle file (or one puzzle) is malformed: ``line`` and ``field`` say where."""

    def __init__(self, problem: str, line: int | None = None, field: str | None = None) -> None:
        self.line, self.field, self.problem = line, field, problem
        where = []
        if line is not None:
            where.append(_("line {line}").format(line=line))
        if field is not None:
            where.append(_("field {field}").format(field=repr(field)))
        super().__init__(f"{', '.join(where)}: {problem}" if where else problem)


@dataclass(frozen=True)
class Puzzle:
    """One puzzle of a file (docs/puzzles.md)."""

    id: str
    record: Mapping[str, Any]
    seat: int
    answers: tuple[str, ...]
    runner_up: str
    gap: Mapping[str, Any]
    exact: bool
    reason: Mapping[str, str]
    themes: tuple[str, ...]
    rating: Rating
    source: Mapping[str, Any]
    extra: Mapping[str, Any] = field(default_factory=dict)
    """The optional fields (:data:`OPTIONAL`)."""
    line: int = 0
    """The line it was read from (0: made in memory)."""

    @property
    def decision(self) -> int:
        """The decision's number (numbered from 1, as the review numbers them)."""
        return len(self.record.get("actions", ())) + 1

    @property
    def players(self) -> int:
        return int(self.record["config"]["players"])

    @property
    def expansions(self) -> tuple[str, ...]:
        return tuple(self.record["config"].get("expansions") or ())

    @property
    def thingvellir(self) -> bool:
        return "thingvellir" in self.expansions

    @property
    def kind(self) -> str:
        return str(self.extra.get("kind", ""))

    @property
    def grading(self) -> str:
        return str(self.extra.get("grading", "win"))

    @property
    def options(self) -> list[dict[str, Any]]:
        """The judge's figures of every option (the best first), as the file keeps them."""
        return [dict(o) for o in self.extra.get("options", ())]

    @property
    def continuation(self) -> list[str]:
        return [str(a) for a in self.extra.get("continuation", ())]

    @property
    def personal(self) -> bool:
        return bool(self.extra.get("personal"))

    def where(self) -> str:
        """The puzzle for a message: its id, and its line when read from a file."""
        if self.line:
            return _("puzzle {id} (line {line})").format(id=self.id, line=self.line)
        return _("puzzle {id}").format(id=self.id)

    def game(self) -> Game:
        """The puzzle's position (its record replayed), or PuzzleFileError saying in one
        sentence that the record does not replay."""
        try:
            game = Game.from_record(self.record)
        except (RecordError, ValueError) as exc:
            raise PuzzleFileError(_("{puzzle}: its record does not replay: {problem}").format(
                puzzle=self.where(), problem=exc), self.line or None, "record") from None
        decision = game.decision
        if decision is None:
            raise PuzzleFileError(_("{puzzle}: its record ends with the game over: nobody "
                                    "decides").format(puzzle=self.where()),
                                  self.line or None, "record")
        if decision.player != self.seat:
            raise PuzzleFileError(_("{puzzle}: seat {seat} does not decide at its position "
                                    "(seat {decider} does)").format(
                puzzle=self.where(), seat=self.seat, decider=decision.player),
                self.line or None, "seat")
        return game

    def full_game(self) -> Game:
        """The game it came from: the record and the moves played after the puzzle."""
        record = dict(self.record)
        record["actions"] = [*self.record.get("actions", ()), *self.continuation]
        try:
            return Game.from_record(record)
        except (RecordError, ValueError) as exc:
            raise PuzzleFileError(_("{puzzle}: the game it came from does not replay: "
                                    "{problem}").format(puzzle=self.where(), problem=exc),
                                  self.line or None, "continuation") from None

    def solves(self, move: str) -> bool:
        """Whether ``move`` (in notation) is one of the answers."""
        return move.strip() in self.answers

    def reason_text(self, code: str | None = None) -> str:
        """The coach's words in a language (the current one by default; English when the
        file has none in it)."""
        code = code or language()
        return str(self.reason.get(code) or self.reason.get("en") or "")

    def with_rating(self, rating: Rating) -> Puzzle:
        return replace(self, rating=rating)

    def to_dict(self) -> dict[str, Any]:
        """The puzzle as its line holds it (a copy: changing it changes no puzzle)."""
        out: dict[str, Any] = {
            "id": self.id, "seat": self.seat, "answers": list(self.answers),
            "runner_up": self.runner_up, "gap": dict(self.gap), "exact": self.exact,
            "reason": dict(self.reason), "themes": list(self.themes),
            "rating": self.rating.to_dict(), "source": dict(self.source)}
        out.update({k: self.extra[k] for k in OPTIONAL if k in self.extra})
        out["record"] = dict(self.record)
        return copy.deepcopy(out)


# ====================================================================== reading

def _need(data: Mapping[str, Any], key: str, line: int | None) -> Any:
    if key not in data:
        raise PuzzleFileError(_("field {field} is missing ({what})").format(
            field=repr(key), what=_(REQUIRED[key])), line)
    return data[key]


def _bad(key: str, value: Any, line: int | None) -> PuzzleFileError:
    shown = json.dumps(value, ensure_ascii=False)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return PuzzleFileError(_("must be {what}, not {value}").format(what=_(REQUIRED[key]),
                                                                   value=shown), line, key)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _figure(gap: Any, part: str, line: int | None) -> None:
    entry = gap.get(part) if isinstance(gap, Mapping) else None
    if not isinstance(entry, Mapping):
        raise PuzzleFileError(_("must have {part}: an object with value and se").format(
            part=repr(part)), line, "gap")
    for key in ("value", "se"):
        v = entry.get(key)
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise PuzzleFileError(_("{part}.{key} must be a number, not {value}").format(
                part=part, key=key, value=json.dumps(v)), line, "gap")


def parse_puzzle(data: Any, line: int | None = None) -> Puzzle:
    """One puzzle from its JSON object, checked field by field (PuzzleFileError naming
    the line and the field). The record is checked for its shape here; whether it replays
    is :meth:`Puzzle.game`'s to say."""
    if not isinstance(data, Mapping):
        raise PuzzleFileError(_("a puzzle is a JSON object, not {value}").format(
            value=type(data).__name__), line)
    unknown = sorted(set(data) - set(REQUIRED) - set(OPTIONAL), key=str)
    if unknown:
        raise PuzzleFileError(_("unknown field(s) {fields}").format(
            fields=", ".join(map(repr, unknown))), line)
    pid = _need(data, "id", line)
    if not isinstance(pid, str) or not pid or len(pid) > ID_MAX or set(pid) - ID_CHARS:
        raise _bad("id", pid, line)
    record = _need(data, "record", line)
    if not isinstance(record, Mapping) or not isinstance(record.get("config"), Mapping) \
            or not isinstance(record.get("actions", []), list):
        raise _bad("record", record, line)
    if not _is_int(record["config"].get("players")):
        raise PuzzleFileError(_("its config has no player count"), line, "record")
    seat = _need(data, "seat", line)
    if not _is_int(seat) or not 0 <= seat < int(record["config"]["players"]):
        raise _bad("seat", seat, line)
    answers = _need(data, "answers", line)
    if not isinstance(answers, list) or not answers or not all(
            isinstance(a, str) and a.strip() for a in answers):
        raise _bad("answers", answers, line)
    runner = _need(data, "runner_up", line)
    if not isinstance(runner, str) or not runner.strip():
        raise _bad("runner_up", runner, line)
    if runner in answers:
        raise PuzzleFileError(_("the runner-up {move} is one of the answers").format(
            move=repr(runner)), line, "runner_up")
    gap = _need(data, "gap", line)
    for part in ("win", "points"):
        _figure(gap, part, line)
    exact = _need(data, "exact", line)
    if not isinstance(exact, bool):
        raise _bad("exact", exact, line)
    reason = _need(data, "reason", line)
    if isinstance(reason, str):
        reason = {"en": reason}
    if not isinstance(reason, Mapping) or not isinstance(reason.get("en"), str) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in reason.items()):
        raise _bad("reason", reason, line)
    themes = _need(data, "themes", line)
    from ...bots.puzzle_themes import THEMES

    if not isinstance(themes, list) or not all(isinstance(t, str) for t in themes):
        raise _bad("themes", themes, line)
    strange = [t for t in themes if t not in THEMES]
    if strange:
        raise PuzzleFileError(_("unknown theme(s) {themes}; known: {known}").format(
            themes=", ".join(map(repr, strange)), known=", ".join(THEMES)), line, "themes")
    try:
        rating = Rating.from_dict(_need(data, "rating", line))
    except ValueError as exc:
        raise PuzzleFileError(str(exc), line, "rating") from None
    source = _need(data, "source", line)
    if not isinstance(source, Mapping) or not (
            ("seed" in source and "game" in source) or "record" in source) or not _is_int(
            source.get("decision")):
        raise _bad("source", source, line)
    extra = {k: data[k] for k in OPTIONAL if k in data}
    if "options" in extra and not (isinstance(extra["options"], list) and all(
            isinstance(o, Mapping) and isinstance(o.get("move"), str)
            for o in extra["options"])):
        raise PuzzleFileError(_("must be a list of objects with a move"), line, "options")
    if "continuation" in extra and not (isinstance(extra["continuation"], list) and all(
            isinstance(a, str) for a in extra["continuation"])):
        raise PuzzleFileError(_("must be a list of moves in notation"), line, "continuation")
    data = copy.deepcopy(dict(data))  # the puzzle keeps its own: the caller's may change
    extra = {k: data[k] for k in OPTIONAL if k in data}
    return Puzzle(id=pid, record=data["record"], seat=seat, answers=tuple(answers),
                  runner_up=runner, gap=data["gap"], exact=exact, reason=dict(reason),
                  themes=tuple(themes), rating=rating, source=data["source"], extra=extra,
                  line=line or 0)


def parse_lines(lines: Iterable[str]) -> list[Puzzle]:
    """Puzzles from the lines of a file (blank lines skipped); the first problem raises
    PuzzleFileError naming its line (and field)."""
    out: list[Puzzle] = []
    seen: dict[str, int] = {}
    for n, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise PuzzleFileError(_("not JSON ({problem})").format(problem=exc.msg), n) from None
        puzzle = parse_puzzle(data, n)
        if puzzle.id in seen:
            raise PuzzleFileError(_("the id {id} is already on line {first}").format(
                id=repr(puzzle.id), first=seen[puzzle.id]), n, "id")
        seen[puzzle.id] = n
        out.append(puzzle)
    return out


def read_puzzles(path: str | Path) -> list[Puzzle]:
    """The puzzles of a file (PuzzleFileError naming the file, line and field)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PuzzleFileError(_("cannot read {path}: {problem}").format(
            path=path, problem=exc.strerror or exc)) from None
    except UnicodeDecodeError as exc:
        raise PuzzleFileError(_("{path} is not UTF-8 text ({problem})").format(
            path=path, problem=exc.reason)) from None
    try:
        return parse_lines(text.splitlines())
    except PuzzleFileError as exc:
        raise PuzzleFileError(f"{path}: {exc}") from None


def puzzle_line(puzzle: Puzzle | Mapping[str, Any]) -> str:
    data = puzzle.to_dict() if isinstance(puzzle, Puzzle) else dict(puzzle)
    return json.dumps(data, ensure_ascii=False, sort_keys=False, separators=(",", ":"))


def write_puzzles(path: str | Path, puzzles: Sequence[Puzzle | Mapping[str, Any]]) -> None:
    """Write a puzzle file at once (a temporary file renamed: a reader never sees half)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for p in puzzles:
                f.write(puzzle_line(p) + "\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


#: The puzzles shipped with the lab (generated by the command in docs/puzzles.md).
SHIPPED = Path(__file__).with_name("puzzles.jsonl")
_shipped: list[Puzzle] | None = None


def shipped() -> list[Puzzle]:
    """The shipped set (read once per process)."""
    global _shipped
    if _shipped is None:
        _shipped = read_puzzles(SHIPPED) if SHIPPED.exists() else []
    return list(_shipped)


__all__ = ["ID_MAX", "OPTIONAL", "REQUIRED", "SHIPPED", "Puzzle", "PuzzleFileError",
           "parse_lines", "parse_puzzle", "puzzle_line", "read_puzzles", "shipped",
           "write_puzzles"]
