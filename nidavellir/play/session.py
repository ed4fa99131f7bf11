"""The Play tab's game: who plays which seat, the bots' turns, undo, the end-of-age
summaries and the messages about them, with no widget in it.

Views observe ``Session.version`` (bumped after every change) and re-render from
``game.observation(viewer)``; they change the game only through ``Session.submit`` /
``undo`` / ``undo_to`` / ``new_game``, which go through the engine's public ``apply`` path
and report every error in the session's :class:`~nidavellir.play.messages.MessageLog`.

>>> s = Session.from_config({"players": 2, "seats": ["human", "random"], "seed": 3})
>>> s.decision.kind, s.decision.player
('bid', 0)
>>> s.submit("bid 0 2 3")
True
>>> s.submit("bid 9 9 9")
False
>>> s.console.last.startswith("Error")
True
"""

from __future__ import annotations

import contextlib
import logging
import random
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from nidavellir import Action, Game
from nidavellir import events as ev
from nidavellir.bots import make_bot
from nidavellir.engine import Decision
from nidavellir.errors import IllegalAction, InvalidNotation
from nidavellir.i18n import N_, _, count, join, number, percent

from .messages import MessageLog
from .observable import Change, Observable, Observed
from .runner import Runner

LOG = logging.getLogger("nidavellir.play")
HUMAN = "human"
#: The levels offered in the seat menus, weakest first (nidavellir.bots.LEVELS).
LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")
#: Every bot name a seat accepts: the levels and the method names that keep working.
BOT_NAMES: tuple[str, ...] = (*LEVELS, "random", "greedy", "search", "montecarlo")
SEAT_KINDS: tuple[str, ...] = (HUMAN, *BOT_NAMES)
#: The level a method name stands for, for the seat menus.
LEVEL_OF: dict[str, str] = {"random": "easy", "greedy": "medium", "search": "hard"}
#: The seat menu: (label, value).
#: The labels are English, marked for the catalogues (``N_``): a view shows ``_(label)``.
SEAT_MENU: tuple[tuple[str, str], ...] = (
    # Translators: the seat menu of a new game; a level's name, then its method.
    (N_("human"), HUMAN), (N_("easy (random)"), "easy"), (N_("medium (greedy)"), "medium"),
    (N_("hard (search, <1 s a move)"), "hard"), (N_("expert (search, 3 s a move)"), "expert"),
    (N_("montecarlo (baseline)"), "montecarlo"))
#: What each seat of the menu means, in one line a learner reads (the setup card).
LEVEL_HELP: dict[str, str] = {
    # Translators: what each seat of the new-game menu means, one line each.
    HUMAN: N_("you decide (a second human may share the screen)"),
    "easy": N_("plays any legal move at random: a first opponent to learn the rules against"),
    "medium": N_("greedy: takes what scores most right now, never looks ahead"),
    "hard": N_("looks ahead: plays many possible games from what its seat can see, under "
               "a second a move"),
    "expert": N_("the same search, thinking about 3 seconds a move: the strongest opponent"),
    "montecarlo": N_("baseline: tries each move with random games to the end (the yardstick "
                     "the search is measured against; weaker than hard)"),
}


#: A seat's kind by name, for the reader (the keys are the seats' values).
LEVEL_NAMES: dict[str, str] = {
    # Translators: a seat's kind: a person, or a computer opponent's level or method.
    HUMAN: N_("human"), "easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard"),
    "expert": N_("expert"), "montecarlo": N_("montecarlo"), "random": N_("random"),
    "greedy": N_("greedy"), "search": N_("search")}


def default_name(seat: int) -> str:
    """A seat's name when nobody gave one, in the reader's language (seat 0: "Player 1")."""
    # Translators: the name of a seat nobody named; {n} counts from 1.
    return _("Player {n}").format(n=seat + 1)


def level_name(kind: str) -> str:
    """A seat's kind in the reader's language (``hard``: ``schwer``)."""
    return _(LEVEL_NAMES[kind]) if kind in LEVEL_NAMES else kind


def seat_label(name: str, kind: str) -> str:
    """A seat with its kind, as the console, the status and the menus name it:
    ``Bo (hard)``, ``Bo (schwer)``."""
    # Translators: a seat with its kind ({level}: "human", "hard", ...), e.g. "Bo (hard)".
    return _("{name} ({level})").format(name=name, level=level_name(kind))


class Bot(Protocol):
    def choose(self, game: Game) -> Action: ...


class Session(Observable):
    """A game with human and bot seats.

    ``seats[i]`` is ``"human"`` or a bot level (``easy``, ``medium``, ``hard``, ``expert``;
    the names ``random``, ``greedy``, ``search``, ``montecarlo`` work too). ``submit`` applies the
    current human decision then lets the bots play until the next human decision or
    the end of the game, pausing ``bot_delay`` seconds between bot moves so that a
    learner can follow. ``observers`` are called with the session after every change
    (the charts hook); views may also ``observe(handler, "version")`` (or ``"viewer"``,
    ``"error"``, ``"summary_age"``, ``"thinking"``).
    """

    version: Observed[int] = Observed(0)
    """Bumped after every change of the game or the seats."""
    viewer: Observed[int] = Observed(0)
    """Whose observation the views show."""
    error: Observed[str] = Observed("")
    """The last refused move, shown next to the decision's controls."""
    summary_age: Observed[int] = Observed(0)
    """The age whose end-of-age summary waits to be read (0: none)."""
    thinking: Observed[str] = Observed("")
    """Who is thinking now, and how far ("Bo (hard) is thinking… 40%"); empty when no bot
    thinks."""

    def __init__(self, game: Game, seats: Sequence[str] | None = None, *, viewer: int | None = None,
                 bot_delay: float = 0.0, console: MessageLog | None = None,
                 bot_seed: int | None = None, autoplay: bool = True, auto_forced: bool = False,
                 age_summaries: bool = False, background: bool = False) -> None:
        self.background = background
        """Bots think on the :class:`~nidavellir.play.runner.Runner`'s thread: the page stays
        free meanwhile."""
        self.follow_decider = True
        """The views show the seat of the human who must decide."""
        self._generation = 0
        """Bumped by every new game and undo: a bot move thought for an older position is
        dropped."""
        self._runner = Runner("nidavellir-bots", on_error=self._bots_failed)
        self._lock = threading.RLock()
        """Held while the game changes (a bot's move from the background, a click)."""
        self.auto_forced = auto_forced
        """Play a human's decision that has one legal action (and say so)."""
        self.age_summaries = age_summaries
        """Stop at the end of each age for a summary."""
        #: Ages whose summary was read (or that ended before the session began).
        self.summaries_read: dict[int, int] = {}
        """Ages whose summary was read, with the number of distinctions it showed then (a
        summary read during the distinctions comes again when more were awarded)."""
        #: History indices of the moves played for a human (the only legal one).
        self.forced: set[int] = set()
        self.console = console if console is not None else MessageLog()
        self.observers: list[Callable[[Session], None]] = []
        self.bot_delay = bot_delay
        """Seconds between two bot moves, so that a learner can follow."""
        self.game = game
        self.seats: list[str] = []
        self.bots: dict[int, Bot] = {}
        self._set_seats(game, seats, bot_seed)
        self.viewer = viewer if viewer is not None else self._default_viewer()
        self._quiet = False
        self.observe(self._viewer_changed, "viewer")
        self._mark_ages_read()
        if autoplay:
            # Nobody watches yet: the bots' opening moves need no pause.
            delay, self.bot_delay = self.bot_delay, 0.0
            try:
                self._play_bots_now(None)
            finally:
                self.bot_delay = delay

    # ------------------------------------------------------------------ creation

    @classmethod
    def from_config(cls, config: Mapping[str, Any], **kwargs: Any) -> Session:
        game, seats, bot_seed = cls._game_from_config(config)
        kwargs.setdefault("bot_delay", float(config.get("bot_delay", 0.0)))
        return cls(game, seats, bot_seed=bot_seed, **kwargs)

    @staticmethod
    def _game_from_config(config: Mapping[str, Any]) -> tuple[Game, list[str], int]:
        players = int(config.get("players", 3))
        seats = list(config.get("seats") or [HUMAN] + ["random"] * (players - 1))
        if len(seats) != players:
            raise ValueError(f"{players} players need {players} seat kinds, got {len(seats)}")
        for kind in seats:
            if kind not in SEAT_KINDS:
                raise ValueError(f"unknown seat kind {kind!r}: expected one of {SEAT_KINDS}")
        seed = int(config.get("seed", 0))
        expansions = tuple(config.get("expansions") or ())
        options = dict(config.get("options") or {})
        if config.get("first_game"):
            options["first_game"] = True
        # A game made on a page names its seats in the page's language ("Spieler 1").
        names = config.get("names") or [default_name(i) for i in range(players)]
        game = Game.new(players=players, seed=seed, names=list(names),
                        expansions=expansions, options=options, deal=config.get("deal"))
        return game, seats, int(config.get("bot_seed", seed))

    def _set_seats(self, game: Game, seats: Sequence[str] | None, bot_seed: int | None) -> None:
        n = game.config.players
        seats = list(seats) if seats is not None else [HUMAN] + ["random"] * (n - 1)
        if len(seats) != n:
            raise ValueError(f"{n} players need {n} seat kinds, got {len(seats)}")
        base = game.seed if bot_seed is None else bot_seed
        bots: dict[int, Bot] = {}
        for i, kind in enumerate(seats):
            if kind == HUMAN:
                continue
            if kind not in BOT_NAMES:
                raise ValueError(f"unknown seat kind {kind!r}: expected one of {SEAT_KINDS}")
            bots[i] = make_bot(kind, base * 10 + i)
        self.seats = seats
        self.bots = bots
        # A saved record says which seats people played: `nidavellir review` reviews those
        # by default, as the page's review does.
        game.learners = tuple(i for i, kind in enumerate(seats) if kind == HUMAN) or None

    def new_game(self, config: Mapping[str, Any]) -> bool:
        """Start a new game from a config (players, names, seats, seed, expansions,
        first_game, options, bot_delay). Errors go to the console; the current game
        stays when the new one cannot start."""
        try:
            game, seats, bot_seed = self._game_from_config(config)
        except (ValueError, TypeError) as exc:
            # Translators: the console, when a new game's set-up is refused ({reason}:
            # what was wrong with it).
            self.console.error(_("cannot start this game: {reason}").format(reason=exc))
            return False
        with self._lock:
            self._generation += 1  # a bot still thinking about the old game is ignored
            self.game = game
        self.thinking = ""
        self._set_seats(game, seats, bot_seed)
        if "bot_delay" in config:
            self.bot_delay = float(config["bot_delay"])
        self._quiet = True
        try:
            self.viewer = self._default_viewer()
        finally:
            self._quiet = False
        self.summaries_read = {}
        self.summary_age = 0
        self.error = ""
        self.forced = set()
        self.console.clear()
        players = ", ".join(seat_label(n, k) for n, k in zip(game.names, seats, strict=True))
        # Translators: the console's first line of a game ({players}: "Ada (human), Bo (hard)").
        self.console.info(_("New game, seed {seed}: {players}").format(seed=game.seed,
                                                                       players=players))
        self._after_change()
        return True

    def config(self) -> dict[str, Any]:
        """The current game's set-up as a :meth:`new_game` config (seats included)."""
        cfg = self.game.config
        return {"players": cfg.players, "names": list(cfg.names), "seats": list(self.seats),
                "seed": self.game.seed, "expansions": list(cfg.expansions),
                "options": cfg.options.to_dict(), "bot_delay": self.bot_delay}

    def play_again(self, seed: int | None = None) -> bool:
        """The same players, seats and rules, a new deal (a new random seed by default)."""
        if seed is None:
            seed = random.SystemRandom().randrange(1, 1_000_000)
            while seed == self.game.seed:
                seed = random.SystemRandom().randrange(1, 1_000_000)
        return self.new_game(dict(self.config(), seed=seed))

    # ------------------------------------------------------------------ queries

    @property
    def decision(self) -> Decision | None:
        return self.game.decision

    @property
    def humans(self) -> list[int]:
        return [i for i, k in enumerate(self.seats) if k == HUMAN]

    def is_human(self, seat: int) -> bool:
        return self.seats[seat] == HUMAN

    @property
    def waiting_for_human(self) -> bool:
        d = self.game.decision
        return d is not None and self.is_human(d.player)

    def observation(self) -> dict[str, Any]:
        return self.game.observation(self.viewer)

    def _default_viewer(self) -> int:
        d = self.game.decision
        if d is not None and self.is_human(d.player):
            return d.player
        humans = self.humans
        return humans[0] if humans else 0

    # ------------------------------------------------------------------ changes

    def submit(self, action: Action | str, offered: tuple[Game, int] | None = None) -> bool:
        """Apply ``action`` (an Action or its notation) for the current human decision,
        then let the bots play. Returns whether it was applied; errors are shown in the
        console and leave the game unchanged. ``offered``: the game and the number of
        decisions taken when the move was offered (a button's decision); a move offered
        for an earlier position or another game is refused, never played on this one."""
        game = self.game
        d = game.decision
        # The decision the move is for: the one it was offered at, else the one on now
        # (:meth:`_apply_current` refuses it once the game moved on).
        for_game, at = offered if offered is not None else (game, len(game.history))
        if d is None:
            self.console.error(_("the game is over: there is no decision to take"))
            return False
        if not self.is_human(d.player):
            # Translators: the console, when a move is made for a bot's seat ({seat}:
            # "Bo (hard)").
            self.console.error(_("it is {seat}'s turn: wait for the bots").format(
                seat=seat_label(game.names[d.player], self.seats[d.player])))
            return False
        text = action if isinstance(action, str) else str(action)
        try:
            if not self._apply_current(for_game, at, None, action):
                # Translators: a move that came when the game had moved on (a forced move,
                # an undo or a new game came first); {move}: what was clicked or typed.
                self.report_error(_("{move!r}: the game moved on before this move; choose "
                                    "again").format(move=text))
                return False
        except (IllegalAction, InvalidNotation) as exc:
            # Translators: a refused move: what was typed, then why.
            self.report_error(_("{move!r}: {reason}").format(move=text, reason=exc))
            return False
        except Exception as exc:  # engine bugs are shown, never swallowed
            # Translators: a move the engine failed on (a defect of the lab), then its
            # traceback for the developers.
            self.report_error(_("{move!r}: internal error {error}").format(
                move=text, error=f"{type(exc).__name__}: {exc}") + "\n"
                + traceback.format_exc(limit=3))
            return False
        self.error = ""
        self.console.clear_errors()
        self._after_change()
        return True

    def report_error(self, message: str) -> None:
        """A refused move: shown next to the decision's controls and in the console."""
        self.console.error(message)
        self.error = message  # the decision panel observes it: no redraw of everything

    # ------------------------------------------------------------------ end-of-age summaries

    def _mark_ages_read(self) -> None:
        """Ages that ended before this session began need no summary."""
        self.summaries_read = {a: self._awards(a) for a in (1, 2) if self._age_ending(a)}
        self.summary_age = 0

    def _check_summary(self) -> None:
        """The summary of an age waits for the human once its end has come to them: at the
        first human decision after the age's distinctions began (a King's Hand transform,
        the Pioneer's pick: the summary comes first, then the choice it explains), or once
        the next age (or the end of the game) is there."""
        if not self.age_summaries or not self.humans:
            return
        for age in (1, 2):
            if not self._age_ending(age) or self.summaries_read.get(age, 0) > self._awards(age):
                self.summaries_read.pop(age, None)  # undone back before what was read
        ended = [a for a in (1, 2) if self._age_summary_due(a) and self._unread(a)]
        self.summary_age = ended[0] if ended else 0

    def _awards(self, age: int) -> int:
        """How many distinctions were awarded at the end of ``age`` so far."""
        return sum(1 for e in self.game.events
                   if isinstance(e, ev.DistinctionAwarded) and e.age == age)

    def _unread(self, age: int) -> bool:
        read = self.summaries_read.get(age)
        return read is None or self._awards(age) > read

    def _age_ending(self, age: int) -> bool:
        """The end of ``age`` has come: the next age (or the game's end) is there, or, for
        age 1, its distinctions have begun (troop evaluation, FR "Fin de l'Age 1": a
        distinction awarded since the age ended; before them, enlistment and Ylud, the
        summary would have nothing to say yet)."""
        s = self.game.state
        if age < s.age or (age == 2 and s.over):
            return True
        if age != 1 or s.age != 1:
            return False
        for e in reversed(self.game.events):
            if isinstance(e, ev.DistinctionAwarded):
                return True
            if isinstance(e, ev.AgeEnded | ev.RoundStarted):
                return False
        return False

    def _age_summary_due(self, age: int) -> bool:
        """The summary of ``age`` is shown now: its end has come, and either the next age
        (or the game's end) is there or a human decides (a bot's move in between shows on
        the board; the summary waits for the human)."""
        if not self._age_ending(age):
            return False
        s = self.game.state
        if age < s.age or s.over:
            return True
        d = self.game.decision
        return d is not None and self.is_human(d.player)

    def read_summary(self) -> None:
        """The player has read the end-of-age summary: show the next decision."""
        if self.summary_age:
            self.summaries_read[self.summary_age] = self._awards(self.summary_age)
        self._check_summary()
        if not self.summary_age and self.auto_forced and self.waiting_for_human \
                and len(self.game.legal_actions()) == 1:
            self._changed()
            self.play_bots()  # the forced move that waited for the summary
            return
        self._changed()

    def play_bots(self) -> None:
        """Let bots decide until a human decision or the end of the game (with
        ``auto_forced``, a human decision with a single legal action is played too). With
        ``background``, they think in a thread: each move lands on the board as it is made,
        ``thinking`` says who thinks and how far, and the page answers clicks meanwhile."""
        d = self.game.decision
        if not self.background or d is None or self.is_human(d.player):
            self._play_bots_now(None)  # no bot to wait for: forced moves, the summary
            return
        generation = self._generation
        if self._runner.busy(generation):
            return  # already playing this position
        who = seat_label(self.game.names[d.player], self.seats[d.player])
        self.thinking = _("{who} is thinking…").format(who=who)
        self._runner.start(generation, lambda: self._play_in_background(generation))

    def wait(self, timeout: float = 300.0) -> None:
        """Wait until the bots have played (background bots; tests, notebooks)."""
        self._runner.wait(timeout)

    def _play_in_background(self, generation: int) -> None:
        try:
            self._play_bots_now(generation)
        finally:
            if generation == self._generation:
                self.thinking = ""

    def _bots_failed(self, exc: BaseException) -> None:
        self.console.error(_("the bots stopped: {error}").format(
            error=f"{type(exc).__name__}: {exc}"))

    def _stale(self, generation: int | None) -> bool:
        return generation is not None and generation != self._generation

    def _play_bots_now(self, generation: int | None) -> None:
        game = self.game
        while True:
            if self._stale(generation):
                return  # a new game or an undo: this thread's game is gone
            d = game.decision
            if d is None:
                break
            if self.is_human(d.player):
                played = self._play_forced(game, d, generation)
            else:
                played = self._play_bot(game, d, generation)
            if played is None:
                return  # the position it was played for is gone
            if not played:
                break
        if not self._stale(generation):
            self._settle(game, generation)

    def _apply_current(self, game: Game, at: int, generation: int | None,
                       action: Action | str) -> bool:
        """Apply ``action``, thought at decision ``at`` of ``game``, if the game is still
        there: checked and applied at once under the lock, so an undo, a new game or another
        move that came in between (from the page, or from the bots' thread) is never
        followed by a move thought for the position it replaced. False: dropped."""
        with self._lock:
            if self._stale(generation) or self.game is not game or len(game.history) != at:
                return False
            game.apply(action)
            return True

    def _play_forced(self, game: Game, d: Decision, generation: int | None) -> bool | None:
        """A human's decision: with ``auto_forced``, play its only legal move (and say so).
        True: played; False: the human decides; None: the position is gone."""
        if not self.auto_forced:
            return False
        legal = game.legal_actions()
        if len(legal) != 1 or self._summary_first():
            return False
        try:  # in words, as the decision says it to the player (never the notation)
            said = d.task.say(game.engine, legal[0])
        except NotImplementedError:
            said = str(legal[0])
        if not self._apply_current(game, len(game.history), generation, legal[0]):
            return None if self._stale(generation) or self.game is not game else True
        self.forced.add(len(game.history) - 1)
        self.console.info(ev.by(
            game.names[d.player],
            # Translators: a forced move the page played for the learner's own seat (named
            # You).
            _("Played for you: {move} (the only legal move: {prompt})"),
            # Translators: a forced move the page played for a human seat.
            _("Played for {name}: {move} (the only legal move: {prompt})"),
            move=said, prompt=d.prompt))
        return True

    def _play_bot(self, game: Game, d: Decision, generation: int | None) -> bool | None:
        """A bot's decision: it thinks (its progress shown) and plays; a bot that fails
        plays a safe legal move instead. True: played; False: no move could be played;
        None: the position is gone."""
        bot = self.bots[d.player]
        who = seat_label(game.names[d.player], self.seats[d.player])
        if generation is not None:
            self.thinking = _("{who} is thinking…").format(who=who)
            if hasattr(bot, "progress"):
                bot.progress = lambda f, who=who: self._progress(generation, who, f)
        if self.bot_delay > 0:
            time.sleep(self.bot_delay)
        at = len(game.history)
        try:
            if not self._apply_current(game, at, generation, bot.choose(game.clone())):
                return None
        except Exception as exc:
            # A bot that fails never takes the learner's game down: the seat plays a safe
            # legal move instead, and the error is logged and shown.
            with self._lock:
                if self._stale(generation) or len(game.history) != at:
                    return None
                if not self._fallback_move(d.player, exc):
                    return False
        finally:
            if hasattr(bot, "progress"):
                bot.progress = None
        after = game.decision
        if after is not None and not self.is_human(after.player) and (
                self.bot_delay > 0 or (generation is not None and self._thinks(after.player))):
            # Each bot move lands on the board as it is made, when there is time to see it:
            # with a pause between bot moves, or before a bot that thinks (its "thinking"
            # shows over the position it thinks about). Instant bots with no pause land
            # together: the page would draw frames nobody can see (a game of two random bots
            # took minutes of drawing on a busy machine). Not when a human decides next: the
            # end of the loop shows that, after checking for a summary (it comes before the
            # choice it explains, never after a flash of the choice). A rule of the seats,
            # not of the clock: the same frames on any machine.
            self._changed(generation)
        return True

    def _settle(self, game: Game, generation: int | None) -> None:
        """The bots have played: the views follow the human who decides, the summary waits
        if one is due, and the end of the game is said."""
        self.thinking = ""
        if self.follow_decider:
            d = game.decision
            if d is not None and self.is_human(d.player) and self.viewer != d.player:
                self._quiet = True
                try:
                    self.viewer = d.player
                finally:
                    self._quiet = False
        self._check_summary()
        self._changed(generation)
        if game.is_over and not self._stale(generation):
            sheet = game.scores()
            # Translators: the console's last line of a game ({scores}: "Ada 88, Bo 75";
            # {winners}: the sentence naming the winners).
            self.console.info(_("Game over: {scores}. {winners}").format(
                scores=", ".join(f"{p.name} {number(p.total)}" for p in sheet.players),
                winners=count(len(sheet.winners), "The winner: {names}.",
                              "The winners: {names}.", names=join(sheet.winners))))

    def _thinks(self, seat: int) -> bool:
        """``seat``'s bot searches (it reports its progress): its moves take time."""
        return hasattr(self.bots.get(seat), "progress")

    def _summary_first(self) -> bool:
        """A forced human move waits while its age's summary is due (the summary comes
        before the choice it explains)."""
        if not self.age_summaries:
            return False
        return self._age_summary_due(1) and self._unread(1)

    def _progress(self, generation: int, who: str, fraction: float) -> None:
        if generation == self._generation:
            # Translators: a bot's progress: "Bo (hard) is thinking… 40%".
            self.thinking = _("{who} is thinking… {done}").format(
                who=who, done=percent(min(max(fraction, 0.0), 1.0)))

    def _fallback_move(self, seat: int, exc: Exception) -> bool:
        """After ``seat``'s bot raised ``exc``: log it, then play the fast heuristic's move
        (or, if that fails too, the first legal move the engine accepts). False only when no
        legal move can be applied: the game cannot go on."""
        game = self.game
        who = seat_label(game.names[seat], self.seats[seat])
        LOG.error("%s (%s) failed at decision %d: %s", game.names[seat], self.seats[seat],
                  len(game.history), exc,
                  exc_info=(type(exc), exc, exc.__traceback__))
        candidates: list[Action] = []
        try:
            from nidavellir.bots import HeuristicBot

            candidates.append(HeuristicBot(len(game.history)).choose(game.clone()))
        except Exception:  # the fallback's own failure is logged with the first one
            LOG.exception("the heuristic fallback failed too")
        candidates += [a for a in game.legal_actions() if a not in candidates]
        for action in candidates:
            try:
                game.apply(action)
            except Exception:
                LOG.exception("fallback move %s failed", action)
                continue
            # Translators: the console, when a bot failed ({seat}: "Bo (hard)"; {error}:
            # the failure, for the developers; {move}: the move's notation).
            self.console.error(_("{seat} failed ({error}); it played a safe legal move "
                                 "instead: {move}. You can play on.").format(
                seat=who, error=f"{type(exc).__name__}: {exc}", move=action))
            return True
        self.console.error(_("{seat} failed ({error}) and no legal move could be played: "
                             "the game cannot go on (undo, or start a new game)").format(
            seat=who, error=f"{type(exc).__name__}: {exc}"))
        return False

    def undo(self) -> bool:
        """Go back to the previous human decision (before the bots' answers to it)."""
        for index in range(len(self.game.history) - 1, -1, -1):
            player, _action = self.game.history[index]
            if self.is_human(player) and index not in self.forced:
                return self.undo_to(index)
        self.console.error(_("nothing to undo: no human decision has been taken yet"))
        return False

    def undo_to(self, index: int) -> bool:
        """Go back to the state before decision ``index`` of the history; if that was a
        bot's decision, the bots play on to the next human decision."""
        history = self.game.history
        if not isinstance(index, int) or not 0 <= index < len(history):
            # Translators: {taken}: "3 decisions taken".
            self.console.error(_("cannot undo to decision {index!r}: {taken}").format(
                index=index, taken=count(len(history), "{n} decision taken",
                                         "{n} decisions taken")))
            return False
        player, _action = history[index]
        said = self.game.history_words(self.viewer, start=index)[0]
        try:
            with self._lock:
                self._generation += 1  # a bot thinking about a later position is ignored
                self.game.undo_to(index)
        except Exception as exc:
            self.console.error(_("undo failed: {error}").format(
                error=f"{type(exc).__name__}: {exc}"))
            return False
        self.thinking = ""
        # Translators: the console after an undo ({number}: the decision's number in the
        # log, from 1; {move}: the move in words).
        self.console.info(_("Undone back to before [{number}] {name}: {move}").format(
            number=index + 1, name=self.game.names[player], move=said))
        self.error = ""
        self.forced = {i for i in self.forced if i < index}
        self._check_summary()
        self._after_change()
        return True

    @contextlib.contextmanager
    def holding(self) -> Iterator[None]:
        """The game held still: no move (a click, a bot's) is applied until the block ends.
        What another thread draws for the position on the table (the coach's figures on
        the buttons) is checked and drawn inside, so that a move that comes meanwhile
        waits rather than leaving the drawing on the next decision."""
        with self._lock:
            yield

    def set_seat(self, seat: int, kind: str) -> None:
        """Hand a seat to a human or a bot mid-game."""
        self._set_seats(self.game, [kind if i == seat else k for i, k in enumerate(self.seats)],
                        None)
        self._changed()
        self.play_bots()

    def _after_change(self) -> None:
        d = self.game.decision
        if (self.bot_delay > 0 or self.background) and d is not None \
                and not self.is_human(d.player):
            self._changed()  # show the human's move before the bots' pause (or thoughts)
        self.play_bots()

    def _viewer_changed(self, change: Change) -> None:
        if not getattr(self, "_quiet", True):
            self._changed()

    def _changed(self, generation: int | None = None) -> None:
        """Tell the panels (and observers) that the game changed. From the bots' thread
        (``generation``), nothing is said for a game that a new game or an undo replaced;
        the panels redraw one at a time (a click and a bot's move never interleave)."""
        with self._lock:
            if self._stale(generation):
                return
            self._notify()

    def _notify(self) -> None:
        self.version += 1
        for observer in list(self.observers):
            try:
                observer(self)
            except Exception as exc:
                self.console.error(_("observer {observer!r} failed: {error}").format(
                    observer=getattr(observer, "__name__", observer),
                    error=f"{type(exc).__name__}: {exc}"))
