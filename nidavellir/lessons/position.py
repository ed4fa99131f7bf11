"""Position steps: "What would you play here?" in a class lesson.

A step of a probability lesson with a ``position`` (docs/lessons.md, *Position steps*)
shows every student the same game position from one seat's view and asks them to choose
that seat's move. The position is a game record (the JSON the lab saves, ``Game.save``;
inline in the file, or a ``.json`` file beside it) and a decision number (numbered from 1,
as ``nidavellir hint --at`` and the review number them: the position before the record's
action N), or an inline game (``players``, ``seed``, ``actions``: the position after the
actions).

The file is checked when it is read (``nidavellir lesson check``): a record that cannot
be replayed, a decision number out of range, a seat that does not decide there is an
error at its line, in one sentence.

What a student sees is :meth:`PositionStep.view`: the deciding seat's observation only
(:meth:`nidavellir.game.Game.observation`: no other seat's face-down coin, no unseen card),
so two positions that differ only in what that seat cannot know show the same page. A
student's answer is a legal move of the position (:meth:`PositionStep.check_move`, which
says why another is refused); the coach's figures of every option come from
:func:`nidavellir.bots.judge.judge` (:meth:`PositionStep.judge`), worded in the reader's
language (:meth:`PositionStep.coach`); a class server judges each position once
(:class:`nidavellir.classroom.teacher.coach.PositionCoach`).

>>> from nidavellir.lessons.source import loads
>>> from nidavellir.lessons.probability import parse
>>> data, source = loads('''
... kind: probability
... key: demo
... title: Demo
... summary: One position.
... steps:
...   - key: first-bid
...     title: The first bid
...     situation: The game starts.
...     position: {game: {players: 3, seed: 7}, seat: 0}
...     question: What do you bid?
... ''')
>>> step = parse(data, source).steps[0]
>>> step.view()["taverns"][0]
['E8', 'B', 'H']
>>> step.check_move("bid 5 4 3")
'bid 5 4 3'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..actions import parse_action
from ..errors import IllegalAction, InvalidNotation, NidavellirError, RecordError
from ..game import Game
from ..i18n import _, count
from .source import Source, fields, integer, key_of, mapping, text, texts, where

if TYPE_CHECKING:
    from ..bots.judge import Judgement

STEP_FIELDS = ("key", "title", "situation", "position", "question")
STEP_OPTIONAL = ("explain",)
POSITION_OPTIONAL = ("record", "decision", "game", "seat", "level")
GAME_FIELDS = ("players", "seed")
GAME_OPTIONAL = ("expansions", "actions", "names")
#: The coach level a position step is judged at unless it names one (the Hint's).
DEFAULT_LEVEL = "coach"
#: The longest move a student's answer may be, in notation (a bid, a take, a hero...).
MOVE_MAX = 80


@dataclass(frozen=True)
class PositionStep:
    """One "What would you play here?" step: the position, the seat whose view is shown,
    the question, and what to say after the reveal."""

    key: str
    title: str
    situation: str
    """What the class is told of the position (Markdown)."""
    question: str
    """The question ("What do you bid?")."""
    seat: int
    """The deciding seat whose view every student sees (0 for the first)."""
    record: Mapping[str, Any]
    """The game record the position comes from (the JSON the lab saves)."""
    decision: int
    """The decision number: the position before the record's action ``decision``."""
    explain: str = ""
    """Optional: shown once the teacher reveals the coach's figures."""
    level: str = DEFAULT_LEVEL
    line: int = 0
    kind: str = "position"
    """What the step is (a probability step's ``kind`` is its question kind)."""
    answer_kind: str = "move"
    """What the student answers: a move (a probability step: a chance, a mean or a count)."""

    def game(self) -> Game:
        """The position, a new game each time (the caller may play on it)."""
        return position_game(self.record, self.decision)

    def legal_moves(self) -> list[str]:
        """The seat's legal moves in notation, in the engine's order."""
        return [str(a) for a in self.game().legal_actions()]

    def view(self, game: Game | None = None) -> dict[str, Any]:
        """The position as the seat sees it (plain data): its observation, with its legal
        moves, and the game so far as the seat may read it (others' bids face down).
        ``game``: the position's :meth:`game` where the caller has it already."""
        game = self.game() if game is None else game
        out = game.observation(self.seat)
        out["log"] = [game.action_text(i, self.seat) for i in range(len(game.history))]
        return out

    def check_move(self, move: Any) -> str:
        """The move in the engine's notation, or ValueError saying in one sentence why it
        is not an answer to this position."""
        if not isinstance(move, str) or not move.strip():
            # Translators: a student's answer to a position question that is not a move;
            # {title} is the step's title, {example} a move in notation.
            raise ValueError(_("an answer to {title} is a move in notation (e.g. {example}), "
                               "not {move}").format(title=repr(self.title),
                                                    example=repr(self.legal_moves()[0]),
                                                    move=repr(move)))
        if len(move) > MOVE_MAX:
            raise ValueError(_("a move is at most {n} characters in notation").format(
                n=MOVE_MAX))
        game = self.game()
        try:
            action = parse_action(move.strip())
        except InvalidNotation as exc:
            raise ValueError(_("{move} is not a move in notation: {problem}").format(
                move=repr(move.strip()), problem=exc)) from None
        legal = {str(a): a for a in game.legal_actions()}
        if str(action) in legal:
            return str(action)
        try:
            game.apply(action)
        except (IllegalAction, InvalidNotation) as exc:
            raise ValueError(_("{move} is not a legal move of this position: {problem}"
                               ).format(move=repr(move.strip()), problem=exc)) from None
        raise ValueError(_("{move} is not a legal move of this position").format(
            move=repr(move.strip())))

    def judge(self) -> Judgement:
        """The coach's judgement of the position (:func:`judge_position`)."""
        return judge_position(self.record, self.decision, self.level)

    def coach(self, judgement: Judgement | None = None) -> dict[str, Any]:
        """The coach's figures of every option, in the current language
        (:func:`coach_figures`; ``judgement``: :meth:`judge`'s, when made already)."""
        return coach_figures(self.record, self.decision, self.level, judgement)


def position_text(step: PositionStep) -> str:
    """The position as its seat sees it, in text (``nidavellir lesson show``): the
    decision, the taverns, every seat's army and coins as the seat may see them, the
    question and the legal moves."""
    from ..names import tavern_name

    v = step.view()
    me = v["players"][step.seat]
    # Translators: `nidavellir lesson show`: a position step's first line; {prompt} is the
    # decision in words.
    lines = [_("Decision {decision}: {name} (seat {seat}), age {age}, round {round}: "
               "{prompt}").format(decision=step.decision, name=me["name"], seat=step.seat,
                                  age=v["age"], round=v["round"],
                                  prompt=v["decision"]["prompt"])]
    # Translators: `lesson show`: a tavern without cards.
    empty = _("(empty)")
    for i, cards in enumerate(v["taverns"]):
        lines.append(f"  {tavern_name(i)}: {' '.join(cards) or empty}")
    for p in v["players"]:
        army = " ".join(f"{k}:{','.join(c)}" for k, c in p["army"].items() if c) or _(
            "no cards")
        hand = (" ".join(p["hand"]) if isinstance(p["hand"], list)
                else count(p["hand"], "{n} coin", "{n} coins"))
        # Translators: `lesson show`: a seat's line; {army} and {coins} are notation
        # (card and coin tokens), {hand} the coins in hand or how many.
        lines.append("  " + _("{name}: {army}; gem {gem}; coins {coins} (in hand: {hand})"
                              ).format(name=p["name"], army=army, gem=p["gem"],
                                       coins=" ".join(p["coins"]), hand=hand))
    moves = v.get("legal_actions", [])
    shown = ", ".join(moves[:6]) + (", ..." if len(moves) > 6 else "")
    # Translators: `lesson show`: the step's question, then how many legal moves and the
    # first of them in notation.
    lines.append("\n" + count(len(moves), "{question} ({n} legal move: {moves})",
                               "{question} ({n} legal moves: {moves})",
                               question=step.question, moves=shown) + "\n")
    return "\n".join(lines)


# ====================================================================== the position

def position_game(record: Mapping[str, Any], decision: int) -> Game:
    """The game of ``record`` at decision ``decision`` (before its action of that number)."""
    game = Game.from_record(record)
    game.undo_to(decision - 1)
    return game


def decisions(game: Game) -> int:
    """The last decision number of a replayed record: its actions, and one more when the
    game is not over (the decision it stops at)."""
    n = len(game.history)
    return n if game.is_over else n + 1


def judge_position(record: Mapping[str, Any], decision: int, level: str = DEFAULT_LEVEL
                   ) -> Judgement:
    """The coach's judgement of the position, from the deciding seat's knowledge only
    (:func:`nidavellir.bots.judge.judge`). Its numbers are the same in every language: a
    server judges each position once (:class:`nidavellir.classroom.teacher.coach.
    PositionCoach`) and words the figures for each reader (:func:`coach_figures`)."""
    from ..bots.judge import judge

    return judge(position_game(record, decision), level=level)


def coach_figures(record: Mapping[str, Any], decision: int, level: str = DEFAULT_LEVEL,
                  judgement: Judgement | None = None) -> dict[str, Any]:
    """The coach's judgement of the position, as plain data: per option (every legal move,
    equivalent moves grouped), its chance to win and expected final score with their
    standard errors, whether it is about as good as the best, and its words in the current
    language; with the level, whether it is exact, and how many seconds the judgement took.
    ``judgement``: the position's (:func:`judge_position`) when it is made already, else it
    is made now."""
    from ..bots.judge import move_words

    game = position_game(record, decision)
    j = judgement if judgement is not None else judge_position(record, decision, level)
    # The moves as the decision says them to the deciding seat, in this language (the
    # judgement's own words are those of the language it was made in).
    said = move_words(game, [o.action for o in j.options])
    options = [{"move": str(o.action), "moves": [str(a) for a in o.actions],
                "words": said.get(str(o.action), str(o.action)), "win": o.win,
                "win_se": o.win_se, "score": o.score, "score_se": o.score_se,
                "about_best": o.about_best} for o in j.options]
    return {"level": j.level, "exact": j.exact, "seconds": j.seconds,
            "playouts": j.playouts, "iterations": j.iterations, "best": str(j.best),
            "options": options}


def class_and_coach(moves: list[dict[str, Any]], figures: Mapping[str, Any] | None
                    ) -> list[dict[str, Any]]:
    """The class's moves (``[{"move", "count"}]``, :func:`nidavellir.classroom.store.summarize`)
    beside the coach's figures of each option (:func:`coach_figures`), in the coach's
    order: every option, chosen or not, with how many students chose one of its moves
    (``count``); a move the figures do not know (none yet: the judgement runs) is a row
    of its own without figures, after them."""
    rows: list[dict[str, Any]] = []
    placed: set[str] = set()
    for o in (figures or {}).get("options", ()):
        count = sum(m["count"] for m in moves if m["move"] in o["moves"])
        placed.update(o["moves"])
        rows.append({**o, "count": count})
    for m in moves:
        if m["move"] not in placed:
            rows.append({"move": m["move"], "moves": [m["move"]], "words": "",
                         "count": m["count"], "win": None, "win_se": None, "score": None,
                         "score_se": None, "about_best": None})
    return rows


# ====================================================================== reading a file

def is_position(raw: Any) -> bool:
    """Whether a step of a lesson file is a position step (it has a ``position``)."""
    return isinstance(raw, dict) and "position" in raw


def parse_step(source: Source, raw: Any, path: tuple[Any, ...]) -> PositionStep:
    step = mapping(source, raw, path, _("a step"))
    fields(source, step, path, STEP_FIELDS, STEP_OPTIONAL)
    ppath = (*path, "position")
    spec = mapping(source, step["position"], ppath, _("a position (a record and a decision "
                                                      "number, or a game, and the seat)"))
    fields(source, spec, ppath, (), POSITION_OPTIONAL)
    if ("record" in spec) == ("game" in spec):
        if "record" in spec:
            # Translators: an error of a position step; record, game, decision, seat and
            # level are keys of a lesson file.
            message = _("{where} needs either a record (with a decision number) or a game "
                        "(players, seed and actions), not both")
        else:
            message = _("{where} needs either a record (with a decision number) or a game "
                        "(players, seed and actions), not neither")
        raise source.error(ppath, message.format(where=where(ppath)))
    if "record" in spec:
        record = _record(source, spec["record"], (*ppath, "record"))
        if "decision" not in spec:
            raise source.error(ppath, _("{where} has a record but no 'decision' (the "
                                        "decision number, 1 for the first, as the review "
                                        "numbers them)").format(where=where(ppath)))
    else:
        if "decision" in spec:
            raise source.error((*ppath, "decision"), _(
                "{where}: a game is the position after its actions; a decision number goes "
                "with a record").format(where=where((*ppath, "decision"))))
        record = _game_record(source, spec["game"], (*ppath, "game"))
    try:
        game = Game.from_record(record)
    except (RecordError, NidavellirError, ValueError) as exc:
        at = (*ppath, "record") if "record" in spec else (*ppath, "game")
        raise source.error(at, _("{where} cannot be replayed: {problem}").format(
            where=where(at), problem=exc)) from None
    last = decisions(game)
    if last < 1:
        raise source.error(ppath, _("{where}: the game is over before its first "
                                    "decision").format(where=where(ppath)))
    if "record" in spec:
        dpath = (*ppath, "decision")
        d = spec["decision"]
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= last:
            raise source.error(dpath, _("{where} must be a decision of the record, 1 to "
                                        "{last}, not {value}").format(
                where=where(dpath), last=last, value=repr(d)))
        decision = d
    else:
        if game.is_over:
            raise source.error((*ppath, "game"), _("{where}: the game is over after its "
                                                   "actions: nobody decides").format(
                where=where((*ppath, "game"))))
        decision = last
    game.undo_to(decision - 1)
    seat = _seat(source, spec, ppath, game, decision)
    level = text(source, spec, ppath, "level", DEFAULT_LEVEL)
    from ..bots.judge import parse_level

    try:
        parse_level(level)
    except ValueError as exc:
        raise source.error((*ppath, "level"), _("{where}: {problem}").format(
            where=where((*ppath, "level")), problem=exc)) from None
    return PositionStep(
        key=key_of(source, step["key"], (*path, "key")), title=text(source, step, path, "title"),
        situation=text(source, step, path, "situation"),
        question=text(source, step, path, "question"), seat=seat, record=record,
        decision=decision, explain=text(source, step, path, "explain", ""), level=level,
        line=source.line(path))


def _seat(source: Source, spec: Mapping[str, Any], ppath: tuple[Any, ...], game: Game,
          decision: int) -> int:
    d = game.decision
    assert d is not None
    if "seat" not in spec:
        return d.player
    spath = (*ppath, "seat")
    value = spec["seat"]
    names = list(game.names)
    if isinstance(value, str) and value in names:
        seat = names.index(value)
    elif isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        seat = value
    else:
        raise source.error(spath, _("{where} must be a seat from 0 to {last} or a player's "
                                    "name ({names}), not {value}").format(
            where=where(spath), last=len(names) - 1, names=", ".join(names),
            value=repr(value)))
    if seat != d.player:
        # Translators: {name} and {decider} are players of the position, {prompt} the
        # decision in words.
        raise source.error(spath, _("{where}: {name} (seat {seat}) does not decide at "
                                    "decision {decision}: {decider} (seat {decider_seat}) "
                                    "does ({prompt})").format(
            where=where(spath), name=names[seat], seat=seat, decision=decision,
            decider=names[d.player], decider_seat=d.player, prompt=d.prompt))
    return seat


def _record(source: Source, value: Any, path: tuple[Any, ...]) -> dict[str, Any]:
    """A record: a mapping in the file, or a ``.json`` file named relative to it."""
    if isinstance(value, dict):
        return value
    if not isinstance(value, str) or not value.strip():
        raise source.error(path, _("{where} must be a game record (a mapping) or the name "
                                   "of a record file (.json), not {value}").format(
            where=where(path), value=repr(value)))
    file = Path(source.file).parent / value.strip()
    named = repr(value.strip())
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise source.error(path, _("{where}: no record file {file} beside the lesson").format(
            where=where(path), file=named)) from None
    except (OSError, UnicodeDecodeError) as exc:
        # Translators: {problem} is the system's or the decoder's own words.
        raise source.error(path, _("{where}: cannot read {file}: {problem}").format(
            where=where(path), file=named, problem=exc)) from None
    except json.JSONDecodeError as exc:
        # Translators: {problem} is the JSON reader's own words (English).
        raise source.error(path, _("{where}: {file} is not JSON: {problem}").format(
            where=where(path), file=named, problem=exc)) from None
    if not isinstance(data, dict):
        raise source.error(path, _("{where}: {file} is not a game record (a JSON "
                                   "object)").format(where=where(path), file=named))
    return data


def _game_record(source: Source, value: Any, path: tuple[Any, ...]) -> dict[str, Any]:
    """An inline position (players, seed, actions) as the record it is."""
    from ..game import RECORD_FORMAT, RECORD_VERSION

    spec = mapping(source, value, path, _("a game (players, seed, and maybe expansions, "
                                          "names and actions)"))
    fields(source, spec, path, GAME_FIELDS, GAME_OPTIONAL)
    players = integer(source, spec["players"], (*path, "players"), 2, 5)
    seed = integer(source, spec["seed"], (*path, "seed"), 0, 2**63 - 1)
    config: dict[str, Any] = {"players": players,
                              "expansions": texts(source, spec.get("expansions"),
                                                  (*path, "expansions"))}
    if "names" in spec:
        config["names"] = texts(source, spec["names"], (*path, "names"))
    actions = texts(source, spec.get("actions"), (*path, "actions"))
    try:
        game = Game.new(players=players, seed=seed, expansions=config["expansions"],
                        names=config.get("names"))
    except ValueError as exc:
        raise source.error(path, _("{where} cannot be set up: {problem}").format(
            where=where(path), problem=exc)) from None
    for i, action in enumerate(actions):
        try:
            game.apply(action)
        except (InvalidNotation, IllegalAction) as exc:
            apath = (*path, "actions", i)
            raise source.error(apath, _("{where}: {move} cannot be played here: "
                                        "{problem}").format(
                where=where(apath), move=repr(action), problem=exc)) from None
    return {"format": RECORD_FORMAT, "version": RECORD_VERSION, "config": config,
            "seed": seed, "actions": actions}


# ====================================================================== a position a teacher asks

def record_decisions(record: Any) -> list[dict[str, Any]]:
    """Every decision of a game record, replayed once: its number (1 for the first, as
    :func:`position_game` counts them), the deciding seat, its name, the decision's kind
    and the engine's prompt; the last is the one the record stops at when the game is not
    over. ValueError, in one sentence, for a record that does not replay (the teacher
    page's *Ask the class about a position*), in the current language."""

    if not isinstance(record, Mapping):
        raise ValueError(_("a game record is a JSON object (the file the lab saves), not "
                           "{what}").format(what=type(record).__name__))
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise ValueError(_("the record's 'actions' must be a list of moves in notation"))
    try:
        game = Game.from_record({**record, "actions": []})
        out = []
        for i, action in enumerate([*actions, None]):
            d = game.decision
            if d is None:
                if action is not None:
                    raise RecordError(_("action {n} comes after the end of the game").format(
                        n=i + 1))
                break
            out.append({"decision": i + 1, "seat": d.player, "name": game.names[d.player],
                        "kind": str(d.kind), "prompt": d.prompt})
            if action is not None:
                try:
                    game.apply(action)
                except (IllegalAction, InvalidNotation) as exc:
                    raise RecordError(_("action {n} ({action!r}) cannot be played: {error}"
                                        ).format(n=i + 1, action=action, error=exc)) from None
    except (RecordError, NidavellirError, ValueError, TypeError, KeyError) as exc:
        raise ValueError(_("the record cannot be replayed: {error}").format(error=exc)) \
            from None
    if not out:
        raise ValueError(_("the record's game is over before its first decision"))
    return out


def asked_step(record: Any, decision: Any, seat: Any = None, *, key: str, title: str,
               situation: str, question: str, level: str = DEFAULT_LEVEL) -> PositionStep:
    """The position step of a record and a decision number that a teacher asks the class
    about, checked as a lesson's is (:func:`parse_step`): the record replays, the decision
    is one of its decisions, ``seat`` (None: the deciding seat; else its number or its
    name) is the seat that decides there. ValueError, in one sentence (in the current
    language), otherwise."""

    found = record_decisions(record)
    if isinstance(decision, bool) or not isinstance(decision, int) or not (
            1 <= decision <= len(found)):
        raise ValueError(_("the decision must be a decision of the record, 1 to {last}, not "
                           "{decision!r}").format(last=len(found), decision=decision))
    d = found[decision - 1]
    names = list(Game.from_record({**record, "actions": []}).names)
    if seat is None:
        seat = d["seat"]
    elif isinstance(seat, str) and seat in names:
        seat = names.index(seat)
    elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(names):
        raise ValueError(_("the seat must be a seat from 0 to {last} or a player's name "
                           "({names}), not {seat!r}").format(last=len(names) - 1,
                                                            names=", ".join(names), seat=seat))
    if seat != d["seat"]:
        raise ValueError(_("{name} (seat {seat}) does not decide at decision {decision}: "
                           "{decider} (seat {decider_seat}) does ({prompt})").format(
            name=names[seat], seat=seat, decision=decision, decider=d["name"],
            decider_seat=d["seat"], prompt=d["prompt"]))
    if not question.strip():
        raise ValueError(_("the question must not be empty (e.g. 'What do you bid?')"))
    return PositionStep(key=key, title=title, situation=situation, question=question.strip(),
                        seat=seat, record=dict(record), decision=decision, level=level)


def asked_position_step(position: Any) -> PositionStep:
    """The position step of a position the teacher asked the class about, as the class
    store keeps it (:class:`nidavellir.classroom.store.AskedPosition`: checked by
    :func:`asked_step` when it was asked); its key is ``p<number>``."""
    return PositionStep(key=position.question_id.split("/", 1)[1], title=position.title,
                        situation=position.situation, question=position.question,
                        seat=position.seat, record=position.record, decision=position.decision)


__all__ = ["DEFAULT_LEVEL", "MOVE_MAX", "PositionStep", "asked_position_step", "asked_step", "class_and_coach",
           "coach_figures", "decisions", "judge_position", "record_decisions",
           "is_position", "parse_step", "position_game", "position_text"]
