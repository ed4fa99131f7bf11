"""The Game facade: the one object users, panels, bots and lessons touch.

>>> game = Game.new(players=3, seed=7)
>>> game.decision.kind
'bid'
>>> game.apply("bid 5 4 3")
>>> len(game.history)
1
>>> game.undo()
>>> len(game.history)
0
"""

from __future__ import annotations

import html
import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from . import cards as C
from . import coins as K
from . import events as ev
from .actions import Action, parse_action
from .determinize import BidModel, determinize_state
from .engine import Decision, Engine
from .errors import IllegalAction, InvalidNotation, NidavellirError, RecordError
from .i18n import _, labelled
from .observer import Observer, known_places
from .options import RuleOptions
from .rules.setup import new_state
from .scoring import PlayerTable, ScoreSheet, score_table
from .state import GameConfig, GameState

RECORD_FORMAT = "nidavellir-record"
RECORD_VERSION = 1
#: The format of a reviewed game before its review became a part of the record (read, and
#: migrated, by :func:`migrate_record`).
OLD_REVIEW_FORMAT = "nidavellir-review"


def migrate_record(data: Any) -> Any:
    """A record as this engine reads it: a reviewed game saved in the old format (``format:
    nidavellir-review``, versions 1 and 2: the record and the review side by side) becomes
    the record with its review as its ``review`` part; anything else is returned as it is
    (:meth:`Game.from_record` checks it)."""
    if not isinstance(data, Mapping) or data.get("format") != OLD_REVIEW_FORMAT:
        return data
    if data.get("version") not in (1, 2):
        raise RecordError(f"unsupported version {data.get('version')!r} of a reviewed game "
                          f"({OLD_REVIEW_FORMAT})", field="version")
    record = data.get("record")
    if not isinstance(record, Mapping):
        raise RecordError("missing or not an object", field="record")
    out = dict(record)
    out["review"] = {"level": data.get("level"), "decisions": data.get("review")}
    return out
#: The expansions a game may name: Thingvellir and any a plugin's cards bring.
SUPPORTED_EXPANSIONS = C.EXPANSIONS


class Game:
    """A game of Nidavellir: decisions, legal actions, apply, undo, records."""

    _determinized = False
    """True for a copy made by :meth:`determinize` (it has no record)."""
    learners: tuple[int, ...] | None = None
    """The seats people played (indices), when the record says so (the Play tab saves
    them; ``nidavellir review`` reviews those seats by default); None: not said."""
    review: dict[str, Any] | None = None
    """The review the record was saved with (its ``review`` part, plain data:
    :func:`nidavellir.analysis.review.review_from_dict` reads it), or None. It changes
    nothing in the game; :meth:`to_record` does not write it (the review writes it,
    :func:`nidavellir.analysis.review.review_data`)."""

    def __init__(self, config: GameConfig, seed: int, deal: Mapping[str, Any] | None = None) -> None:
        self.config = config
        self.seed = seed
        self.deal = dict(deal) if deal else None
        self._initial = new_state(config, seed, self.deal)
        self._engine = Engine(self._initial.copy())
        self._engine.advance()
        self.history: list[tuple[int, Action]] = []
        """(player, action) for every decision taken, in order."""
        self._marks: list[int] = []
        """Number of events before each action of the history."""

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(cls, players: int = 3, seed: int = 0, expansions: Iterable[str] = (),
            names: Sequence[str] | None = None, options: RuleOptions | Mapping[str, bool] | None = None,
            deal: Mapping[str, Any] | None = None, **option_flags: bool) -> Game:
        """Start a game. ``options`` or keyword flags set rule options (R3, R9, R25)."""
        C.check_players(players)
        expansions = tuple(dict.fromkeys(e.lower() for e in expansions))
        for e in expansions:
            if e not in SUPPORTED_EXPANSIONS:
                raise ValueError(f"unknown expansion {e!r}; known: {', '.join(SUPPORTED_EXPANSIONS)}")
        if names is None:
            names = [f"Player {i + 1}" for i in range(players)]
        names = tuple(str(n) for n in names)
        if len(names) != players:
            raise ValueError(f"{players} players need {players} names, got {len(names)}")
        if len(set(names)) != len(names):
            raise ValueError(f"player names must differ: {list(names)}")
        if isinstance(options, RuleOptions):
            opts = options
        else:
            merged = dict(options or {})
            merged.update(option_flags)
            opts = RuleOptions.from_dict(merged)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"the seed must be an integer, not {seed!r}")
        config = GameConfig(players=players, names=names, expansions=expansions, options=opts)
        return cls(config, seed, deal)

    # ------------------------------------------------------------------ the decision API

    @property
    def state(self) -> GameState:
        """The full state (read it, never change it: use apply)."""
        return self._engine.state

    @property
    def events(self) -> list[ev.Event]:
        return self._engine.events

    @property
    def engine(self) -> Engine:
        """The rules engine: the one fast path for bots and simulations
        (:mod:`nidavellir.engine`). Read its state and legal actions; change the game only
        through :meth:`apply` / :meth:`apply_fast`."""
        return self._engine

    @property
    def decision(self) -> Decision | None:
        return self._engine.decision

    @property
    def to_play(self) -> int | None:
        """The seat that must decide now (None when the game is over): a cheap
        ``game.decision.player`` for bots and simulations."""
        return self._engine.to_play

    @property
    def is_over(self) -> bool:
        return self._engine.state.over

    @property
    def names(self) -> tuple[str, ...]:
        return self.config.names

    def legal_actions(self) -> list[Action]:
        return list(self._engine.legal_actions())

    def parse(self, text: str) -> Action:
        return parse_action(text)

    def apply(self, action: Action | str) -> None:
        """Apply an action (or its notation). Raises IllegalAction / InvalidNotation with
        the reason; the state is then unchanged."""
        if isinstance(action, str):
            action = parse_action(action)
        elif not isinstance(action, Action):
            raise InvalidNotation(f"expected an Action or its text notation, not {action!r}")
        eng = self._engine
        decision = eng.decision
        if decision is None:
            raise IllegalAction(_("the game is over: there is no decision to take"))
        if not eng.is_legal(action):
            # Translators: an illegal move refused, said to the learner's seat ("You") and
            # about another seat ({name}); {action} is the move in notation ("take W9"),
            # {why} the rule that forbids it.
            raise IllegalAction(ev.by(self.names[decision.player],
                                      _("You cannot {action}: {why}"),
                                      _("{name} cannot {action}: {why}"), action=action,
                                      why=eng.why_illegal(decision.task, action)))
        mark = len(eng.events)
        backup = eng.state.copy()
        try:
            eng.apply(action, check=False)  # checked just above, with the player's name
        except NidavellirError:
            self._restore(backup, mark)
            raise
        except Exception as exc:  # an engine bug must not leave a half-applied action
            self._restore(backup, mark)
            raise RuntimeError(f"internal error while applying {action}: {exc!r}") from exc
        self.history.append((decision.player, action))
        self._marks.append(mark)

    def _restore(self, backup: GameState, mark: int) -> None:
        self._engine = Engine(backup, self._engine.events[:mark])

    def apply_fast(self, action: Action) -> None:
        """apply() for bots and simulations: the action must come from legal_actions()."""
        eng = self._engine
        player = eng.to_play
        assert player is not None, "the game is over"
        self._marks.append(len(eng.events))
        eng.apply(action, check=False)
        self.history.append((player, action))

    def undo(self, steps: int = 1) -> None:
        """Go back ``steps`` decisions (unlimited: the game replays from its start)."""
        if steps < 0 or steps > len(self.history):
            raise IllegalAction(f"cannot undo {steps} decision(s): {len(self.history)} taken")
        if steps == 0:
            return
        keep = self.history[:-steps]
        self._replay([a for _, a in keep])

    def undo_to(self, index: int) -> None:
        """Go back to the state before decision ``index`` of the history."""
        self.undo(len(self.history) - index)

    def _replay(self, actions: Sequence[Action]) -> None:
        self._engine = Engine(self._initial.copy())
        self._engine.advance()
        self.history = []
        self._marks = []
        for a in actions:
            self.apply_fast(a)

    def clone(self, reshuffle_unseen: int | None = None) -> Game:
        """An independent copy (what-if branches, search).

        ``reshuffle_unseen=seed`` also reorders what nobody has seen (the age decks still
        to come and the camp decks) and reseeds the game's random generator. It keeps the
        other players' face-down bids: for an estimate that a seat may use, call
        :meth:`determinize` instead.
        """
        g = Game.__new__(Game)
        g.config = self.config
        g.seed = self.seed
        g.deal = self.deal
        g._initial = self._initial
        g._engine = Engine(self._engine.state.copy(), list(self._engine.events))
        g.history = list(self.history)
        g._marks = list(self._marks)
        g._determinized = self._determinized
        g.learners = self.learners
        if reshuffle_unseen is not None:
            rng = random.Random(reshuffle_unseen)
            state = g.state
            for decks in (state.decks, state.camp_decks):
                for age in sorted(decks):
                    if age >= state.age:
                        rng.shuffle(decks[age])
            state.rng.seed(rng.getrandbits(63))
        return g

    def determinize(self, viewer: int, seed: int,
                    bid_model: BidModel | None = None) -> Game:
        """An independent game consistent with everything ``viewer`` knows and nothing else
        (:mod:`nidavellir.determinize`): unseen age and camp decks (and a Pioneer draw that
        another player is choosing from) reshuffled, the other players' face-down bids and
        purses dealt again from their public coin sets by ``bid_model`` (default:
        :func:`~nidavellir.determinize.heuristic_bid_model`), the random generator reseeded.

        Two games with the same public history for ``viewer`` give identical determinizations
        for the same ``seed``. The copy starts at the current position: its history is empty
        (undo cannot go back before it) and it has no record.
        """
        self._check_seat(viewer)
        rng = random.Random(seed)
        shown, purse = known_places(self.events, viewer)
        state = determinize_state(self._engine.state, viewer, rng, shown, purse, bid_model)
        g = Game.__new__(Game)
        g.config = self.config
        g.seed = seed
        g.deal = None
        g._initial = state.copy()
        g._engine = Engine(state, list(self._engine.events))
        g._engine.advance()
        g.history = []
        g._marks = []
        g._determinized = True
        return g

    def _check_seat(self, player: int) -> None:
        if not isinstance(player, int) or isinstance(player, bool) \
                or not 0 <= player < self.config.players:
            raise ValueError(f"no player {player!r} in a {self.config.players}-player game")

    @property
    def event_marks(self) -> list[int]:
        """For each decision of the history, the number of events before it: the events
        that followed decision ``i`` are ``events[marks[i]:marks[i + 1]]``."""
        return list(self._marks)

    # ------------------------------------------------------------------ scores

    def tables(self) -> list[PlayerTable]:
        """Each player's table as the scorer sees it (cards held for a pending decision
        count in the command zone)."""
        return self._engine.final_tables()

    def scores(self) -> ScoreSheet:
        """The score sheet: final when the game is over, else of the table as it is now."""
        return score_table(self._engine.final_tables(), self.config.options)

    # ------------------------------------------------------------------ observation

    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may see: others' unrevealed bids, purses, hands and the deck
        order are hidden (plain data for panels and bots; :mod:`nidavellir.observer`)."""
        self._check_seat(player)
        return Observer(player).observe(self)

    # ------------------------------------------------------------------ log

    def action_text(self, index: int, viewer: int | None = None) -> str:
        """Decision ``index`` in notation as ``viewer`` may read it. While the game is on,
        another seat's bid lies face down (its coins and, by elimination, its purse):
        ``bid (face down)``. ``viewer=None`` shows every action (records, finished games);
        :data:`SPECTATOR` hides every seat's bids (:mod:`nidavellir.observer`)."""
        return Observer(viewer).action_text(self, index)

    def events_of(self, index: int) -> list[ev.Event]:
        """The events decision ``index`` (0-based) of the history led to, up to the next
        decision (the log's lines under it)."""
        marks = [*self._marks, len(self.events)]
        return self.events[marks[index]:marks[index + 1]]

    def history_words(self, viewer: int | None = None, start: int = 0) -> list[str]:
        """Decisions ``start`` to the last in words, as each decision said it to the player
        who took it (``Choice.say``: "Take the warrior 7"), in the current language, as
        ``viewer`` may read them (another seat's face-down bid stays face down, as in
        :meth:`action_text`); a decision without words keeps its notation. What a learner
        reads in the log and the status line: the notation stays the files' and the
        commands' (one replay of the game)."""
        out: list[str] = []
        if start >= len(self.history):
            return out
        observer = Observer(viewer)
        engine = Engine(self._initial.copy(), quiet=True)
        engine.advance()
        for i, (_player, action) in enumerate(self.history):
            if i >= start:
                shown = observer.action_text(self, i)
                decision = engine.decision
                if shown != str(action) or decision is None:
                    out.append(shown)  # face down
                else:
                    try:
                        out.append(decision.task.say(engine, action))
                    except NotImplementedError:
                        out.append(shown)
            engine.apply(action, check=False)
        return out

    def log(self, viewer: int | None = None, words: Sequence[str] | None = None) -> list[str]:
        """The game in plain words: each decision in notation (or in ``words``, one per
        decision: :meth:`history_words`, what the Play tab shows), numbered from 1 (as the
        review, Replay and ``nidavellir hint --at`` number them), then what followed (other
        seats' bids face down for ``viewer``, see :meth:`action_text`)."""
        lines: list[str] = []
        events = self.events
        marks = self._marks + [len(events)]
        for e in events[:marks[0]]:
            lines.append(e.describe(self.names))
        for i, (player, _action) in enumerate(self.history):
            said = words[i] if words is not None else self.action_text(i, viewer)
            lines.append(f"[{i + 1}] " + labelled(self.names[player], said))
            for e in events[marks[i]:marks[i + 1]]:
                lines.append("    " + e.describe(self.names))
        return lines

    # ------------------------------------------------------------------ records

    def to_record(self) -> dict[str, Any]:
        if self._determinized:
            raise RecordError("a determinized game (Game.determinize) has no record: its "
                              "start is not a dealt game")
        record: dict[str, Any] = {
            "format": RECORD_FORMAT, "version": RECORD_VERSION,
            "config": self.config.to_dict(), "seed": self.seed, "deal": self.deal,
            "actions": [str(a) for _, a in self.history],
        }
        if self.learners is not None:
            record["learners"] = list(self.learners)
        return record

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_record(), indent=1, ensure_ascii=False) + "\n",
                              encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Game:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError as exc:
            raise RecordError(f"{path} is not UTF-8 text: {exc.reason} at byte "
                              f"{exc.start}") from None
        except ValueError as exc:  # e.g. a NUL byte in the path
            raise RecordError(f"cannot read {path!r}: {exc}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path} is not JSON: {exc}") from None
        return cls.from_record(data)

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Game:
        """Replay a record (a reviewed game too: its ``review`` part is kept as
        :attr:`review`; the old reviewed-game format is migrated, :func:`migrate_record`);
        errors name the field or the action index and the reason."""
        if not isinstance(record, Mapping):
            raise RecordError("a record must be a JSON object")
        record = migrate_record(record)
        if record.get("format", RECORD_FORMAT) != RECORD_FORMAT:
            raise RecordError(f"not a {RECORD_FORMAT} file", field="format")
        version = record.get("version")
        if version != RECORD_VERSION:
            raise RecordError(f"unsupported version {version!r}; this engine reads "
                              f"version {RECORD_VERSION}", field="version")
        config = record.get("config")
        if not isinstance(config, Mapping):
            raise RecordError("missing or not an object", field="config")
        unknown = set(config) - {"players", "names", "expansions", "options"}
        if unknown:
            raise RecordError(f"unknown key(s) {sorted(unknown, key=str)}", field="config")
        checks: tuple[tuple[str, Callable[[Any], bool], str], ...] = (
                ("players", lambda v: isinstance(v, int) and not isinstance(v, bool),
                 "a player count (2 to 5)"),
                ("names", lambda v: v is None or (isinstance(v, list)
                                                  and all(isinstance(n, str) for n in v)),
                 "a list of player names"),
                ("expansions", lambda v: v is None or (isinstance(v, list)
                                                       and all(isinstance(e, str) for e in v)),
                 "a list of expansion names"),
                ("options", lambda v: v is None or isinstance(v, Mapping), "a mapping of rule options"))
        for key, ok, what in checks:
            if not ok(config.get(key)):
                raise RecordError(f"must be {what}, not {config.get(key)!r}",
                                  field=f"config.{key}")
        seed = record.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError(f"must be an integer, not {seed!r}", field="seed")
        actions = record.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError("must be a list of actions in notation", field="actions")
        review = record.get("review")
        if review is not None and not (isinstance(review, Mapping)
                                       and isinstance(review.get("decisions"), list)):
            raise RecordError("must be an object with a list of reviewed decisions "
                              "('decisions')", field="review")
        learners = record.get("learners")
        players = config.get("players")
        if learners is not None and not (
                isinstance(learners, list) and isinstance(players, int)
                and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < players
                        for x in learners) and len(set(learners)) == len(learners)):
            raise RecordError(f"must be a list of distinct seat indices (0 to players - 1), "
                              f"not {learners!r}", field="learners")
        try:
            game = cls.new(players=config.get("players"), seed=seed,  # type: ignore[arg-type]
                           expansions=config.get("expansions") or (),
                           names=config.get("names"), options=config.get("options"),
                           deal=record.get("deal"))
        except RecordError:
            raise
        except (ValueError, TypeError) as exc:
            raise RecordError(str(exc), field="config") from None
        for i, text in enumerate(actions):
            if not isinstance(text, str):
                raise RecordError(f"expected an action in notation, not {text!r}", index=i)
            try:
                game.apply(text)
            except (IllegalAction, InvalidNotation) as exc:
                raise RecordError(f"{text!r}: {exc}", index=i) from None
        if learners is not None:
            game.learners = tuple(sorted(learners))
        if review is not None:
            game.review = dict(review)
        return game

    # ------------------------------------------------------------------ display

    def _repr_html_(self) -> str:
        s = self.state
        esc = html.escape
        parts = [f"<div class='nidavellir-game'><b>Age {s.age}, round {s.round}</b>"]
        d = self.decision
        if d is not None:
            parts.append(f" — {esc(self.names[d.player])}: {esc(d.prompt)}")
        elif s.over:
            parts.append(" — game over")
        parts.append("<table><tr>" + "".join(f"<th>{esc(n)}</th>" for n in C.TAVERNS) + "</tr><tr>")
        for t in s.taverns:
            parts.append("<td>" + esc(" ".join(c.token for c in t)) + "</td>")
        parts.append("</tr></table><table><tr><th>Player</th><th>Gem</th>"
                     + "".join(f"<th>{suit.column_name}</th>" for suit in C.SUITS)
                     + "<th>Command zone</th><th>Coins</th></tr>")
        for p in s.players:
            cols = "".join(f"<td>{esc(' '.join(c.token for c in p.army[suit]))}</td>"
                           for suit in C.SUITS)
            parts.append(f"<tr><td>{esc(self.names[p.seat])}</td><td>{p.gem}</td>{cols}"
                         f"<td>{esc(' '.join(c.token for c in p.command_zone))}</td>"
                         f"<td>{esc(K.labels(sorted(p.coins())))}</td></tr>")
        parts.append("</table>")
        if s.over:
            parts.append(self.scores()._repr_html_())
        parts.append("</div>")
        return "".join(parts)

    def __repr__(self) -> str:
        d = self.decision
        where = "over" if d is None else f"{self.names[d.player]} to {d.kind}"
        return (f"<Game {self.config.players} players, seed {self.seed}, age {self.state.age} "
                f"round {self.state.round}, {where}>")
