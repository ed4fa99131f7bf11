"""Walkthrough lessons: a scripted game on an explicit deal, explained step by step.

A walkthrough file (``kind: walkthrough``, docs/lessons.md) holds a **record** (a game
record without actions: ``config``, ``seed`` and the explicit ``deal``) and **steps**.
Each step has a ``title``, the ``rule`` it explains (the rulebook section, the ruling),
its ``text`` (Markdown, see :mod:`nidavellir.lessons.markup`), the ``actions`` the other
players (or "we, for you") play before it is shown and, when the learner acts, the
taught ``move`` (named once: the prompt is derived from it, :func:`prompt`), ``why``
this move, optional ``wrong`` hints for particular other moves, and what to say
``after`` it. The game's actions are the steps' actions and moves in order, so the text
and the game cannot drift apart: the file is checked by replaying it (an illegal move,
an unknown card, a move that is not the learner's decision is an error naming its line).

:class:`Walkthrough` plays a lesson (no widgets): it keeps the game at the position of
the current step, checks the learner's moves (the taught move, or a move with exactly
the same result, is accepted; any other gets an explanation and leaves the game
unchanged) and tells what changed.

>>> wt = Walkthrough.of("base")
>>> wt.step.key, wt.needs_move
('setup', False)
>>> wt.next()
True
>>> wt.step.key, wt.needs_move
('bid', True)
>>> wt.try_move("bid 5 3 0")[0]
False
>>> wt.try_move("bid 4 3 0")[0]
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import cards as C
from ..actions import Action, parse_action
from ..errors import IllegalAction, InvalidNotation, RecordError
from ..game import Game
from ..i18n import _
from ..tokens import parse_token
from .claims import ClaimError
from .claims import check as check_claim
from .claims import split as split_claim
from .source import (
    LessonError,
    Source,
    fields,
    integer,
    key_of,
    mapping,
    read,
    text,
    texts,
    unique_keys,
    where,
)
from .translation import declared, is_translation, localised, parse_own

LESSON_FIELDS = ("kind", "key", "title", "summary", "record", "steps")
LESSON_OPTIONAL = ("learner", "language", "languages")
STEP_FIELDS = ("key", "title", "rule", "text")
STEP_OPTIONAL = ("actions", "move", "why", "wrong", "after", "checks", "checks_after")
RECORD_FIELDS = ("config", "seed", "deal")
RECORD_OPTIONAL = ("format", "version")


@dataclass(frozen=True)
class Step:
    """One step of a walkthrough (texts are Markdown)."""

    key: str
    title: str
    rule: str
    text: str
    actions: tuple[str, ...] = ()
    move: str | None = None
    """The taught move in notation (canonical form), or None when the step only shows."""
    why: str = ""
    wrong: dict[str, str] = field(default_factory=dict)
    """Hints for particular other moves, by their notation (canonical form)."""
    after: str = ""
    line: int = 0
    checks: tuple[str, ...] = ()
    """Claims of the text about the position shown (:mod:`nidavellir.lessons.claims`)."""
    checks_after: tuple[str, ...] = ()
    """Claims about the position after the taught move."""


@dataclass(frozen=True)
class WalkthroughLesson:
    """A walkthrough read from its file."""

    key: str
    title: str
    summary: str
    learner: int
    base: dict[str, Any]
    """The record without actions (config, seed, deal)."""
    steps: tuple[Step, ...]
    file: str = ""
    key_line: int = 1
    kind: str = "walkthrough"
    language: str = "en"
    """The language of its texts (a translation's, once translated)."""
    languages: tuple[str, ...] = ("en",)
    """The languages the lesson comes in, the file's own first."""

    def record(self) -> dict[str, Any]:
        """The lesson's game as a record: the base with every step's actions and taught
        moves, in order (``Game.from_record`` replays it)."""
        actions: list[str] = []
        for step in self.steps:
            actions += step.actions
            if step.move:
                actions.append(step.move)
        return dict(self.base, actions=actions)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.base["config"].get("names") or ())


# ====================================================================== reading a file

def parse(data: Any, source: Source) -> WalkthroughLesson:
    """A :class:`WalkthroughLesson` from a file's YAML value; LessonError names the line."""
    data = mapping(source, data, (), _("a lesson"))
    fields(source, data, (), LESSON_FIELDS, LESSON_OPTIONAL)
    key = key_of(source, data["key"], ("key",))
    language, languages = declared(source, data)
    base = _record(source, data["record"])
    _check_cards(source, base)
    config = base.get("config")
    players = config.get("players") if isinstance(config, Mapping) else None
    if isinstance(players, int) and not isinstance(players, bool) and players in C.PLAYER_COUNTS:
        _check_deal(source, base, players)
    try:
        game = Game.from_record(dict(base, actions=[]))
    except (RecordError, ValueError) as exc:
        # Translators: an error of a walkthrough's file; {problem} is the engine's reason.
        raise source.error(("record",), _("the record does not set up a game: {problem}").format(
            problem=exc)) from None
    players = game.config.players
    learner = integer(source, data.get("learner", 0), ("learner",), 0, players - 1)
    raw_steps = data["steps"]
    if not isinstance(raw_steps, list) or not raw_steps:
        raise source.error(("steps",), _("steps must be a list of at least one step"))
    steps = [_step(source, raw, ("steps", i)) for i, raw in enumerate(raw_steps)]
    unique_keys(source, [(s.key, ("steps", i, "key")) for i, s in enumerate(steps)])
    steps = _replay(source, game, learner, steps)
    return WalkthroughLesson(key=key, title=text(source, data, (), "title"),
                             summary=text(source, data, (), "summary"), learner=learner,
                             base=base, steps=tuple(steps), file=source.file,
                             key_line=source.line(("key",)), language=language,
                             languages=languages)


def _record(source: Source, value: Any) -> dict[str, Any]:
    path = ("record",)
    record = mapping(source, value, path, _("a game record without actions (config, seed, "
                                            "deal)"))
    if "actions" in record:
        # Translators: record, actions, steps and moves name keys of a walkthrough's file.
        raise source.error((*path, "actions"), _("record.actions: the record's actions are "
                                                 "the steps' actions and moves; remove this "
                                                 "field"))
    fields(source, record, path, RECORD_FIELDS, RECORD_OPTIONAL)
    out = {"format": "nidavellir-record", "version": 1, **record}
    return out


def _decks(source: Source, base: Mapping[str, Any]) -> list[tuple[str, str, list[Any]]]:
    """(part, age, cards) of every deck the deal gives."""
    deal = base.get("deal")
    if not isinstance(deal, Mapping):
        raise source.error(("record", "deal"), _("record.deal must give the decks (ages, and "
                                                 "camp with Thingvellir) and the gems"))
    out = []
    for part in ("ages", "camp"):
        decks = deal.get(part)
        if decks is None:
            continue
        if not isinstance(decks, Mapping):
            raise source.error(("record", "deal", part), _("{where} must map each age (1, 2) "
                                                           "to its cards").format(
                where=f"record.deal.{part}"))
        for age_key, cards in decks.items():
            path = ("record", "deal", part, age_key)
            if str(age_key) not in ("1", "2") or not isinstance(cards, list):
                raise source.error(path, _("{where}: expected ages 1 and 2, each a list of "
                                           "cards").format(where=where(path)))
            out.append((part, str(age_key), cards))
    return out


def _check_cards(source: Source, base: Mapping[str, Any]) -> None:
    """Every card of the deal is a card of the game (named at its line)."""
    for part, age_key, cards in _decks(source, base):
        for i, token in enumerate(cards):
            path = ("record", "deal", part, age_key, i)
            try:
                parse_token(str(token))
            except (KeyError, ValueError) as exc:
                reason = exc.args[0] if exc.args else exc
                if isinstance(token, int):
                    # Translators: an unknown card of a walkthrough's deal, written as a
                    # number: {example} is how a Royal Offering is written ("+3").
                    message = _("unknown card {token} in {where} (a Royal Offering is written "
                                "in quotes: {example}): {reason}")
                else:
                    message = _("unknown card {token} in {where}: {reason}")
                raise source.error(path, message.format(
                    token=repr(token), where=where(path[:-1]), example='"+3"',
                    reason=reason)) from None


def _check_deal(source: Source, base: Mapping[str, Any], players: int) -> None:
    """Each deck holds the box's cards for the player count (a lesson on an impossible
    deal would teach a wrong game), named at the deck's line."""
    for part, age_key, cards in _decks(source, base):
        path = ("record", "deal", part, age_key)
        dealt = Counter(parse_token(str(token)) for token in cards)
        box = Counter(C.age_deck(int(age_key), players) if part == "ages"
                      else C.camp_deck(int(age_key)))
        if dealt != box:
            # Translators: no card missing, or none too many, in a deck of a walkthrough.
            missing = ", ".join(c.token for c in (box - dealt).elements()) or _("none")
            extra = ", ".join(c.token for c in (dealt - box).elements()) or _("none")
            if part == "ages":
                # Translators: {missing} and {extra} are card tokens.
                message = _("the age-{age} deck must hold the box's cards for {players} "
                            "players: missing {missing}; extra {extra}")
            else:
                message = _("the camp-{age} deck must hold the box's cards for {players} "
                            "players: missing {missing}; extra {extra}")
            raise source.error(path, message.format(age=age_key, players=players,
                                                    missing=missing, extra=extra))


def _step(source: Source, raw: Any, path: tuple[Any, ...]) -> Step:
    step = mapping(source, raw, path, _("a step"))
    fields(source, step, path, STEP_FIELDS, STEP_OPTIONAL)
    actions = tuple(texts(source, step.get("actions"), (*path, "actions")))
    move = text(source, step, path, "move", "") or None
    why = text(source, step, path, "why", "")
    if move and not why:
        # Translators: move, why, wrong, after and checks_after are keys of a step.
        raise source.error((*path, "move"), _("{where} has a move but no 'why' (why this "
                                              "move: shown when the learner tries "
                                              "another)").format(where=where(path)))
    if not move:
        for name in ("why", "wrong", "after"):
            if name in step:
                raise source.error((*path, name), _("{where} needs a 'move' in the same "
                                                    "step").format(where=where((*path, name))))
    wrong_raw = step.get("wrong") or {}
    if not isinstance(wrong_raw, dict):
        raise source.error((*path, "wrong"), _("{where} must map moves to hints "
                                               "({example})").format(
            where=where((*path, "wrong")), example="take M1: The miner 1 is ..."))
    wrong: dict[str, str] = {}
    for other in wrong_raw:
        hpath = (*path, "wrong", other)
        try:
            canonical = str(parse_action(str(other)))
        except InvalidNotation as exc:
            raise source.error(hpath, _("a wrong-move hint for {move}, which is not a move: "
                                        "{problem}").format(move=repr(other),
                                                            problem=exc)) from None
        wrong[canonical] = text(source, wrong_raw, (*path, "wrong"), other)
    checks = tuple(texts(source, step.get("checks"), (*path, "checks")))
    checks_after = tuple(texts(source, step.get("checks_after"), (*path, "checks_after")))
    if checks_after and not move:
        raise source.error((*path, "checks_after"), _("{where} needs a 'move' in the same "
                                                      "step").format(
            where=where((*path, "checks_after"))))
    for name, claims in (("checks", checks), ("checks_after", checks_after)):
        for k, claim in enumerate(claims):
            try:
                split_claim(claim)
            except ClaimError as exc:
                raise source.error((*path, name, k), _("{where}: {problem}").format(
                    where=where((*path, name)), problem=exc)) from None
    return Step(key=key_of(source, step["key"], (*path, "key")),
                title=text(source, step, path, "title"), rule=text(source, step, path, "rule"),
                text=text(source, step, path, "text"), actions=actions, move=move, why=why,
                wrong=wrong, after=text(source, step, path, "after", ""),
                line=source.line(path), checks=checks, checks_after=checks_after)


def _check_claims(source: Source, game: Game, learner: int, step: Step,
                  path: tuple[Any, ...], name: str, claims: tuple[str, ...]) -> None:
    """Each claim of a step holds in the game, or an error names its line."""
    for k, claim in enumerate(claims):
        try:
            wrong = check_claim(game, claim, learner)
        except ClaimError as exc:
            raise source.error((*path, name, k), _("{where}: {problem}").format(
                where=_step_name(step), problem=exc)) from None
        if wrong is not None:
            # Translators: a walkthrough's check that does not hold: {claim} is quoted from
            # the file, {wrong} says what the game shows instead.
            raise source.error((*path, name, k), _("step {key} claims {claim}, but "
                                                   "{wrong}").format(
                key=repr(step.key), claim=repr(claim), wrong=wrong))


def _replay(source: Source, game: Game, learner: int, steps: list[Step]) -> list[Step]:
    """Play every step's actions and move, checking the step's claims on the way; the moves
    come back in canonical notation."""
    out = []
    for i, step in enumerate(steps):
        path = ("steps", i)
        for j, action in enumerate(step.actions):
            _apply(source, game, action, (*path, "actions", j), _step_name(step))
        _check_claims(source, game, learner, step, path, "checks", step.checks)
        move = step.move
        if move:
            mpath = (*path, "move")
            d = game.decision
            if d is None:
                raise source.error(mpath, _("step {key}: the game is over, there is no move "
                                            "to make").format(key=repr(step.key)))
            if d.player != learner:
                # Translators: {name} is a player of the walkthrough, {prompt} the decision.
                raise source.error(mpath, _("step {key}: the decision here is {name}'s "
                                            "({prompt}), not the learner's: play it in "
                                            "'actions' first").format(
                    key=repr(step.key), name=game.names[d.player], prompt=d.prompt))
            move = str(_apply(source, game, move, mpath, _step_name(step)))
            if move in step.wrong:
                raise source.error((*path, "wrong", move), _(
                    "step {key}: a wrong-move hint for the taught move {move}").format(
                    key=repr(step.key), move=move))
            _check_claims(source, game, learner, step, path, "checks_after",
                          step.checks_after)
        out.append(Step(step.key, step.title, step.rule, step.text, step.actions, move,
                        step.why, step.wrong, step.after, step.line, step.checks,
                        step.checks_after))
    return out


def _step_name(step: Step) -> str:
    # Translators: a walkthrough's step in an error, "step 'first-bid': ..."; {key} is
    # quoted from the file.
    return _("step {key}").format(key=repr(step.key))


def _apply(source: Source, game: Game, text_: str, path: tuple[Any, ...], who: str) -> Action:
    try:
        action = game.parse(text_)
    except InvalidNotation as exc:
        # Translators: {who} is the step ("step 'first-bid'"), {move} the move as written.
        raise source.error(path, _("{who}: {move} is not a move: {problem}").format(
            who=who, move=repr(text_), problem=exc)) from None
    try:
        game.apply(action)
    except IllegalAction as exc:
        d = game.decision
        if d:
            message = _("{who}: {move} is not allowed here ({name} to decide: {prompt}): "
                        "{problem}")
        else:
            message = _("{who}: {move} is not allowed here: {problem}")
        raise source.error(path, message.format(
            who=who, move=repr(text_), name=game.names[d.player] if d else "",
            prompt=d.prompt if d else "", problem=exc)) from None
    return action


# ====================================================================== the prompt

def prompt(move: str, game: Game, learner: int) -> str:
    """What to do, in words, derived from the taught ``move`` (Markdown): e.g. ``take
    E9`` -> "Take the explorer 9 (`take E9`)." ``game`` is at the position of the move;
    the decision's own words say it (:meth:`nidavellir.rules.base.Choice.say`, which reads
    only what the deciding player, the learner, may know)."""
    action = parse_action(move)
    d = game.decision
    if d is None or d.player != learner or action.verb not in d.task.verbs:
        raise ValueError(f"{move!r} is not a move of the learner's decision here")
    return f"{d.task.say(game.engine, action)} (`{move}`)."


# ====================================================================== playing a lesson

def _position(game: Game) -> tuple[Any, ...]:
    """Everything any seat may see, and the decision: two positions that agree here are
    the same position for every player."""
    return tuple(game.observation(p) for p in range(game.config.players))


class Walkthrough:
    """A walkthrough being played: the current step and the game at its position.

    Step ``i`` starts at ``start[i]`` decisions (after the previous steps' actions and
    moves), shows the game after its own scripted ``actions`` (``ready[i]``), and, when
    it has a ``move``, waits for it (``end[i] = ready[i] + 1``).
    """

    def __init__(self, lesson: WalkthroughLesson) -> None:
        self.lesson = lesson
        self.title = lesson.title
        self.steps = list(lesson.steps)
        self.record = lesson.record()
        self.learner = lesson.learner
        self.key = lesson.key
        self.game = Game.from_record(dict(self.record, actions=[]))
        self.actions: list[str] = list(self.record["actions"])
        self.start: list[int] = []
        self.ready: list[int] = []
        self.end: list[int] = []
        pos = 0
        for step in self.steps:
            self.start.append(pos)
            pos += len(step.actions)
            self.ready.append(pos)
            pos += 1 if step.move else 0
            self.end.append(pos)
        self.index = 0
        self.done = False
        """Whether the current step's move has been made."""
        self.made: set[int] = set()
        """Steps whose move the learner has made: Back shows them made, not undone."""
        self._goto(0)

    @classmethod
    def of(cls, key: str) -> Walkthrough:
        """One of the lab's walkthroughs by key (``base``, ``heroes``, ``thingvellir``), in
        the current language where it comes in it (ValueError naming the keys for an
        unknown one). (The library, :mod:`nidavellir.lessons`, imports this module: this
        reads the files itself.)"""
        folder = Path(__file__).resolve().parent / "files" / "walkthrough"
        keys = []
        for path in sorted(folder.glob("*.yaml")):
            data, source = read(path)
            if is_translation(data) or not isinstance(data, dict):
                continue
            if data.get("key") == key:
                own = parse_own(data, source, parse)
                try:
                    return cls(localised(own, data, source, parse))
                except LessonError:
                    return cls(own)  # `lesson check` names the translation's mistake
            keys.append(str(data.get("key")))
        raise ValueError(f"no walkthrough lesson {key!r}; choose one of " + ", ".join(keys))

    # ------------------------------------------------------------------ queries

    @property
    def step(self) -> Step:
        return self.steps[self.index]

    @property
    def needs_move(self) -> bool:
        return bool(self.step.move) and not self.done

    @property
    def can_back(self) -> bool:
        return self.index > 0

    @property
    def can_next(self) -> bool:
        return self.index < len(self.steps) - 1 and not self.needs_move

    @property
    def position(self) -> int:
        return len(self.game.history)

    def prompt(self) -> str:
        """The current step's move in words (Markdown), or "" for a step without one."""
        move = self.step.move
        if not move:
            return ""
        if self.done:  # the game is past the move: word it from the position before it
            before = self.game.clone()
            before.undo_to(self.ready[self.index])
            return prompt(move, before, self.learner)
        return prompt(move, self.game, self.learner)

    def changed_since(self) -> int:
        """The position the "what changed" view compares with: the previous step's
        decision point (so a step shows its scripted actions and the move before)."""
        if self.done:
            return self.ready[self.index]
        return self.ready[self.index - 1] if self.index > 0 else 0

    # ------------------------------------------------------------------ navigation

    def _goto(self, index: int) -> None:
        self.index = index
        self.done = index in self.made and bool(self.steps[index].move)
        target = self.end[index] if self.done else self.ready[index]
        # The history is always a prefix of the record: only taught moves are applied.
        have = len(self.game.history)
        if have <= target:
            for action in self.actions[have:target]:
                self.game.apply(action)
        else:
            self.game.undo_to(target)

    def next(self) -> bool:
        if not self.can_next:
            return False
        self._goto(self.index + 1)
        return True

    def back(self) -> bool:
        if not self.can_back:
            return False
        self._goto(self.index - 1)
        return True

    def follow_on(self) -> bool:
        """After a move: when the next step starts with the learner's move at once (no
        scripted actions before it, e.g. "Now choose a hero"), go there so that its
        controls show right away. Returns whether it moved on."""
        if not self.done or self.index >= len(self.steps) - 1:
            return False
        nxt = self.steps[self.index + 1]
        if nxt.actions or not nxt.move:
            return False
        return self.next()

    def goto(self, index: int) -> None:
        """Jump to step ``index`` (earlier moves are made as taught)."""
        if not 0 <= index < len(self.steps):
            raise ValueError(f"no step {index}: the walkthrough has {len(self.steps)}")
        self.made |= {i for i in range(index) if self.steps[i].move}
        self._goto(index)

    def restart(self) -> None:
        """Back to the first step with no move made."""
        self.made = set()
        self._goto(0)

    # ------------------------------------------------------------------ moves

    def check_move(self, text_: str) -> tuple[bool, str]:
        """Whether ``text_`` is the taught move (or one with the same result for every
        player), and the explanation (Markdown). Never changes the game."""
        step = self.step
        move = step.move
        if not move:
            return False, _("There is no move to make at this step: press Next.")
        if self.done:
            return False, _("You have made this step's move: press Next.")
        text_ = (text_ or "").strip()
        if not text_:
            return False, _("Type or click a move first.")
        try:
            action = self.game.parse(text_)
        except InvalidNotation as exc:
            # Translators: a walkthrough's answer to a typed move; {problem} says what in
            # the text was not understood.
            said = _("That is not a move the game understands: {problem}.").format(
                problem=str(exc).rstrip("."))
            return False, said.replace("?.", "?")  # "did you mean W9, E9?"
        taught = self.game.parse(move)
        if action == taught:
            return True, ""
        shown = str(action)
        branch = self.game.clone()
        try:
            branch.apply(action)
        except IllegalAction as exc:
            special = step.wrong.get(shown)
            if special:
                return False, special
            # Translators: a walkthrough's answer to a move the rules forbid (Markdown:
            # the moves in backquotes stay notation); {problem} is the rule, {why} the
            # step's reason for its move.
            return False, _("The rules do not allow `{move}`: {problem}. This step wants "
                            "`{taught}`: {why}.").format(move=shown, problem=exc,
                                                         taught=move, why=step.why)
        taught_branch = self.game.clone()
        taught_branch.apply(taught)
        if _position(branch) == _position(taught_branch):
            # Translators: a walkthrough accepts another move with the same result
            # (Markdown: the moves in backquotes stay notation).
            return True, _("`{move}` has the same result as `{taught}`.").format(
                move=shown, taught=move)
        special = step.wrong.get(shown)
        if special:
            return False, special
        # Translators: a walkthrough's answer to a legal move that is not the step's
        # (Markdown: the moves in backquotes stay notation); {why} is the step's reason.
        return False, _("`{move}` is a legal move, but it is not what this step teaches: "
                        "{why}. Play `{taught}`.").format(move=shown, why=step.why,
                                                          taught=move)

    def try_move(self, text_: str) -> tuple[bool, str]:
        """Make the move if it is the taught one (or has the same result); else explain
        (the game is unchanged). The game always records the taught move."""
        ok, message = self.check_move(text_)
        if not ok:
            return False, message
        assert self.step.move is not None
        self.game.apply(self.step.move)
        self.done = True
        self.made.add(self.index)
        return True, " ".join(m for m in (message, self.step.after) if m)

    def show_me(self) -> tuple[bool, str]:
        """Make the taught move for the learner."""
        move = self.step.move
        if not move or self.done:
            return False, _("There is no move to make at this step: press Next.")
        return self.try_move(move)

    # ------------------------------------------------------------------ what changed

    def events_since(self, position: int) -> list[str]:
        """Plain-language lines of what happened since decision ``position``."""
        g = self.game
        if position >= len(g.history):
            return []
        old = g.clone()
        old.undo_to(position)
        return [e.describe(g.names) for e in g.events[len(old.events):]]

    def observation_at(self, position: int) -> dict[str, Any]:
        old = self.game.clone()
        if position < len(old.history):
            old.undo_to(position)
        return old.observation(self.learner)


__all__ = ["Step", "Walkthrough", "WalkthroughLesson", "parse", "prompt"]
