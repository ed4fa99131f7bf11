"""The puzzle trainer's logic: a learner's rating and history, the next puzzle near it, one
attempt as one rated game, a class's ratings, and the chart of a rating over time.

**One attempt, one rated game** (Glicko-2, :mod:`.glicko`): the first answer to a puzzle
shown is rated, the learner against the puzzle; it counts as solved only when it is one
of the answers and no hint was taken before it. A hint, or a wrong first answer, is a loss;
a second try is not rated again (the attempt was lost already).

**A single learner** keeps their rating, the puzzles' ratings as their attempts moved them,
their history and their personal puzzles in one JSON file in the user's data folder
(:func:`data_dir`: the platform's, e.g. ``~/.local/share/nidavellir`` on Linux;
``NIDAVELLIR_DATA_DIR`` chooses another, as the tests do). A file that cannot be read is
left as it is and said so; the learner goes on in memory.

**A class** keeps its attempts in the class database: the ratings are computed from them
(:func:`class_ratings`), in the order they arrived, so an attempt sent twice (stored once)
is never rated twice.

Standard library only (plotly for :func:`rating_figure`).
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...i18n import _
from .fileformat import Puzzle, PuzzleFileError, parse_puzzle
from .glicko import Rating, attempt

if TYPE_CHECKING:
    import plotly.graph_objects as go

#: The environment variable that names the folder of the learner's file.
DATA_ENV = "NIDAVELLIR_DATA_DIR"
#: The learner's file in it.
LEARNER_FILE = "puzzles.json"
LEARNER_FORMAT, LEARNER_VERSION = "nidavellir-puzzle-learner", 1
#: The next puzzle is drawn from the unseen puzzles this many nearest the learner's rating.
NEAREST = 8
#: Filters: every edition, the base game only, Thingvellir only.
EDITIONS = ("all", "base", "thingvellir")


def data_dir() -> Path:
    """The user's data folder for the lab (``NIDAVELLIR_DATA_DIR`` when set, else the
    platform's user data folder)."""
    chosen = os.environ.get(DATA_ENV, "").strip()
    if chosen:
        return Path(chosen)
    try:
        from platformdirs import user_data_dir
    except ImportError:  # pragma: no cover - platformdirs comes with Jupyter
        return Path.home() / ".local" / "share" / "nidavellir"
    return Path(user_data_dir("nidavellir", appauthor=False))


class LearnerFileError(ValueError):
    """The learner's file cannot be read; it is left as it is."""


@dataclass(frozen=True)
class Attempt:
    """One rated attempt (or an unrated further try) at a puzzle."""

    puzzle: str
    at: float
    move: str
    solved: bool
    """The move is one of the answers."""
    rated: bool
    """The attempt's first answer (a further try is not rated)."""
    hinted: bool
    learner: Rating
    """The learner's rating after it."""
    puzzle_rating: Rating
    """The puzzle's rating after it."""
    learner_before: Rating
    puzzle_before: Rating

    @property
    def score(self) -> float:
        """What the rating counted: 1 solved at the first answer without a hint, else 0."""
        return 1.0 if self.solved and not self.hinted and self.rated else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"puzzle": self.puzzle, "at": self.at, "move": self.move,
                "solved": self.solved, "rated": self.rated, "hinted": self.hinted,
                "learner": self.learner.to_dict(True),
                "puzzle_rating": self.puzzle_rating.to_dict(True),
                "learner_before": self.learner_before.to_dict(True),
                "puzzle_before": self.puzzle_before.to_dict(True)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Attempt:
        return cls(puzzle=str(d["puzzle"]), at=float(d["at"]), move=str(d["move"]),
                   solved=bool(d["solved"]), rated=bool(d["rated"]), hinted=bool(d["hinted"]),
                   learner=Rating.from_dict(d["learner"]),
                   puzzle_rating=Rating.from_dict(d["puzzle_rating"]),
                   learner_before=Rating.from_dict(d["learner_before"]),
                   puzzle_before=Rating.from_dict(d["puzzle_before"]))


@dataclass
class Learner:
    """A learner's rating, history and personal puzzles (module docs). ``path`` None:
    kept in memory only (a class's page: the server's data folder is nobody's)."""

    path: Path | None = None
    rating: Rating = field(default_factory=Rating)
    puzzles: dict[str, Rating] = field(default_factory=dict)
    """The puzzles' ratings as this learner's attempts moved them."""
    history: list[Attempt] = field(default_factory=list)
    personal: list[Puzzle] = field(default_factory=list)
    """Puzzles made from the learner's own mistakes (:mod:`.personal`)."""
    problem: str = ""
    """Why the file could not be read (the learner then goes on in memory)."""

    @classmethod
    def open(cls, path: str | Path | None = None) -> Learner:
        """The learner of ``path`` (default: the user's data folder's file); a new one
        when there is no file; an unreadable file is left as it is (``problem`` says why,
        and nothing is written to it)."""
        path = Path(path) if path is not None else data_dir() / LEARNER_FILE
        if not path.exists():
            return cls(path)
        try:
            return cls.loads(path.read_text(encoding="utf-8"), path)
        except (OSError, UnicodeDecodeError, LearnerFileError) as exc:
            return cls(None, problem=_("your puzzle history {path} cannot be read ({error}); "
                                       "it was left as it is and nothing is saved to it").format(
                path=path, error=exc))

    @classmethod
    def loads(cls, text: str, path: Path | None = None) -> Learner:
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("format") != LEARNER_FORMAT:
                raise LearnerFileError(_("not a puzzle history of the lab"))
            if data.get("version") != LEARNER_VERSION:
                raise LearnerFileError(_("version {version} is not one this lab reads").format(
                    version=data.get("version")))
            return cls(path, rating=Rating.from_dict(data["rating"]),
                       puzzles={str(k): Rating.from_dict(v)
                                for k, v in dict(data.get("puzzles", {})).items()},
                       history=[Attempt.from_dict(a) for a in data.get("history", [])],
                       personal=[parse_puzzle(p) for p in data.get("personal", [])])
        except LearnerFileError:
            raise
        except (ValueError, KeyError, TypeError, PuzzleFileError) as exc:
            raise LearnerFileError(str(exc)) from None

    def to_dict(self) -> dict[str, Any]:
        return {"format": LEARNER_FORMAT, "version": LEARNER_VERSION,
                "rating": self.rating.to_dict(True),
                "puzzles": {k: v.to_dict(True) for k, v in sorted(self.puzzles.items())},
                "history": [a.to_dict() for a in self.history],
                "personal": [p.to_dict() for p in self.personal]}

    def save(self) -> None:
        """Write the file (a temporary file renamed: never half a file); nothing without
        a path."""
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=self.path.name, suffix=".part", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(self.to_dict(), f, ensure_ascii=False)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    # ------------------------------------------------------------------ puzzles

    def rating_of(self, puzzle: Puzzle) -> Rating:
        """The puzzle's rating as this learner knows it (the file's, moved by their
        attempts)."""
        return self.puzzles.get(puzzle.id, puzzle.rating)

    def attempted(self) -> set[str]:
        return {a.puzzle for a in self.history}

    def answer(self, puzzle: Puzzle, move: str, hinted: bool = False,
               first: bool = True) -> Attempt:
        """The learner's answer to a puzzle shown: rated when it is the first answer of
        this showing (``first``), as solved only without a hint; saved."""
        solved = puzzle.solves(move)
        before, p_before = self.rating, self.rating_of(puzzle)
        if first:
            after, p_after = attempt(before, p_before, solved and not hinted)
            self.rating, self.puzzles[puzzle.id] = after, p_after
        else:
            after, p_after = before, p_before
        done = Attempt(puzzle=puzzle.id, at=time.time(), move=move, solved=solved, rated=first,
                       hinted=hinted, learner=after, puzzle_rating=p_after,
                       learner_before=before, puzzle_before=p_before)
        self.history.append(done)
        self.save()
        return done

    def add_personal(self, puzzles: Iterable[Puzzle]) -> int:
        """Keep puzzles made from the learner's mistakes (a puzzle kept already is not
        added twice); how many are new."""
        known = {p.id for p in self.personal}
        new = [p for p in puzzles if p.id not in known]
        self.personal.extend(new)
        if new:
            self.save()
        return len(new)


def matches(puzzle: Puzzle, theme: str | None = None, edition: str = "all") -> bool:
    """Whether a puzzle passes the filters: a theme (None: any), an edition
    (:data:`EDITIONS`)."""
    if theme and theme not in puzzle.themes:
        return False
    if edition == "base" and puzzle.thingvellir:
        return False
    return not (edition == "thingvellir" and not puzzle.thingvellir)


def next_puzzle(learner: Learner, puzzles: Sequence[Puzzle], theme: str | None = None,
                edition: str = "all", after: str | None = None) -> Puzzle | None:
    """The next puzzle for the learner: one of the :data:`NEAREST` puzzles nearest their
    rating (as the learner knows the puzzles' ratings) among those that pass the filters
    and that they have not tried yet (all of them once every one was tried), drawn by a
    generator seeded with their history (the same history, the same puzzle); never
    ``after`` (the one on screen) when there is another. None when no puzzle passes."""
    pool = [p for p in puzzles if matches(p, theme, edition)]
    if not pool:
        return None
    tried = learner.attempted()
    fresh = [p for p in pool if p.id not in tried] or pool
    if after is not None and len(fresh) > 1:
        fresh = [p for p in fresh if p.id != after]
    r = learner.rating.r
    fresh.sort(key=lambda p: (abs(learner.rating_of(p).r - r), p.id))
    near = fresh[:NEAREST]
    return random.Random(f"{len(learner.history)}/{r:.0f}").choice(near)


# ====================================================================== a class

@dataclass(frozen=True)
class ClassAttempt:
    """One student's rated attempt at a puzzle of a class's set (their first answer)."""

    person: str
    puzzle: str
    move: str
    solved: bool
    at: float


def class_attempts(puzzles: Sequence[Puzzle], answers: Iterable[Any], question: Any
                   ) -> list[ClassAttempt]:
    """The rated attempts of a class at its set's puzzles: each student's first answer to
    each puzzle, in the order the answers arrived. ``answers`` are the class database's
    (``person``, ``question``, ``move``, ``at`` read by attribute or key); ``question(p)``
    is a puzzle's question id."""
    by_question = {question(p): p for p in puzzles}
    seen: set[tuple[str, str]] = set()
    out = []
    for a in answers:
        def get(key: str, a: Any = a) -> Any:
            return a.get(key) if isinstance(a, Mapping) else getattr(a, key)

        puzzle = by_question.get(get("question"))
        move = get("move")
        if puzzle is None or move is None:
            continue
        person = str(get("person"))
        if (person, puzzle.id) in seen:
            continue  # a second try is not rated again
        seen.add((person, puzzle.id))
        out.append(ClassAttempt(person, puzzle.id, str(move), puzzle.solves(str(move)),
                                float(get("at"))))
    return out


def class_ratings(puzzles: Sequence[Puzzle], attempts: Sequence[ClassAttempt]
                  ) -> tuple[dict[str, Rating], dict[str, Rating]]:
    """Every student's and every puzzle's rating after the class's attempts, rated one
    after the other in the order they arrived (the students start new, the puzzles at
    their file's rating)."""
    people: dict[str, Rating] = {}
    rated = {p.id: p.rating for p in puzzles}
    for a in attempts:
        learner, puzzle = attempt(people.get(a.person, Rating()), rated[a.puzzle], a.solved)
        people[a.person], rated[a.puzzle] = learner, puzzle
    return people, rated


# ====================================================================== the chart

def rating_figure(history: Sequence[Attempt], title: str | None = None) -> go.Figure:
    """The learner's rating after each rated attempt, with its deviation as a band
    (± one RD); solved attempts marked."""
    import plotly.graph_objects as go

    rated = [a for a in history if a.rated]
    x = list(range(0, len(rated) + 1))
    start = rated[0].learner_before if rated else Rating()
    r = [start.r] + [a.learner.r for a in rated]
    rd = [start.rd] + [a.learner.rd for a in rated]
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=x + x[::-1], y=[v + d for v, d in zip(r, rd, strict=True)]
                             + [v - d for v, d in zip(r[::-1], rd[::-1], strict=True)],
                             fill="toself", line={"width": 0}, fillcolor="rgba(70,110,180,0.15)",
                             hoverinfo="skip", showlegend=False, name=_("± one deviation")))
    fig.add_trace(go.Scatter(x=x, y=r, mode="lines+markers", name=_("your rating"),
                             marker={"color": ["#466eb4"] + [
                                 "#2e8b57" if a.score else "#c0392b" for a in rated],
                                 "size": 7},
                             line={"color": "#466eb4"}))
    fig.update_layout(title=title or _("Your puzzle rating"), height=280,
                      margin={"l": 50, "r": 20, "t": 40, "b": 40},
                      xaxis_title=_("puzzles tried"), yaxis_title=_("rating"),
                      template="plotly_white", showlegend=False)
    return fig


__all__ = ["Attempt", "ClassAttempt", "DATA_ENV", "EDITIONS", "LEARNER_FILE", "Learner",
           "LearnerFileError", "NEAREST", "class_attempts", "class_ratings", "data_dir",
           "matches", "next_puzzle", "rating_figure"]
