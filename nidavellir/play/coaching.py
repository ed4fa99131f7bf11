"""The coach's judgement of the decision on the table, without any widget.

One :class:`~nidavellir.bots.judge.Judgement` per position and level, from what the deciding
seat may know. It starts on its own thread the moment a human's decision appears, so that
the Hint finds it ready; a finer level (*Think longer*) replaces it; an answer for a position
the game has left is dropped. Every surface (the decision's buttons, the Hint, the
win-chance bar, What-if) reads :attr:`Judging.judgement` or is told of it through
:attr:`Judging.listeners`, so that two numbers on screen never disagree.

>>> from nidavellir.play.session import Session
>>> s = Session.from_config({"players": 2, "seats": ["human", "random"], "seed": 1})
>>> j = Judging(s, level="search@30")
>>> j.ask_hint(); j.wait()
'thinking'
>>> j.hints, j.hint is j.judgement, str(j.hint.best) in [str(a) for a in s.game.legal_actions()]
(1, True, True)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from nidavellir import Action, Game
from nidavellir.bots.judge import DEFAULT_LEVEL, Judgement, fineness
from nidavellir.i18n import _

from .observable import Change, Observable, Observed
from .runner import Workers
from .session import Session

Key = tuple[int, int, int]
#: The level of "Think longer".
DEEP_LEVEL = "deep"
#: Playouts behind the chances to win while no decision of a human is judged (a bot thinks).
ESTIMATE_PLAYOUTS = 200


def position_key(game: Game) -> Key:
    """The position on the table: the game, and the moves that led to it (an undo then
    another move reaches the same length but not the same position)."""
    return (id(game), len(game.history), hash(tuple(game.history)))


class _Stale(Exception):
    """A judgement of a position the game has left: stopped."""


class Judging(Observable):
    """The judgement of the human decision on the table of ``session``, at ``level`` as soon
    as the decision appears and at ``deep_level`` on request."""

    judgement: Observed[Judgement | None] = Observed(None)
    """The finest judgement of the position on the table (None: none yet)."""
    hints: Observed[int] = Observed(0)
    """Bumped each time a Hint is given (:attr:`hint` holds its judgement): a view shows it."""
    progress: Observed[tuple[float, str] | None] = Observed(None)
    """While a judgement is made: how far (0 to 1) and of what; None otherwise."""
    leaning: Observed[tuple[Action, float, str] | None] = Observed(None)
    """While a judgement of the position on the table searches: the move its search
    prefers so far, after what share of its search, in words (the Hint's answer so far:
    on a busy server the Hint says it before its figures are ready); None otherwise."""

    def __init__(self, session: Session, level: str = DEFAULT_LEVEL,
                 deep_level: str = DEEP_LEVEL, ahead: bool = True) -> None:
        self.session = session
        self.level = level
        self.deep_level = deep_level
        self.ahead = ahead
        """Judge each human decision the moment it appears, so that the Hint finds it ready
        and the buttons show their figures (the default); False: only when the Hint or
        *Think longer* asks (a class on a machine its learners' coaches would saturate:
        docs/serving.md)."""
        self.listeners: list[Callable[[Judgement], None]] = []
        """Called with every judgement adopted for the position (the decision's buttons,
        What-if): every surface shows the same one."""
        self.timings: dict[str, float] = {}
        """When the decision on the table appeared, its judgement was ready, the Hint was
        asked for and shown (``time.perf_counter()``; the consistency benchmark reads it)."""
        self.hint: Judgement | None = None
        """The judgement the Hint speaks from, once asked for and ready (None: no Hint for
        the position on the table)."""
        self.last_hint: Judgement | None = None
        """The last judgement a Hint spoke from (kept after the position moved on)."""
        self._judged_at: Key | None = None
        self._lock = threading.Lock()
        self._adopting = threading.RLock()
        self._pending: set[tuple[Key, str]] = set()
        self._hint_wanted: tuple[Key, str] | None = None
        self._workers = Workers("nidavellir-coach", on_error=self._failed)
        session.observe(self._changed, "version")
        self._changed(None)

    # ------------------------------------------------------------------ plumbing

    def _failed(self, exc: BaseException) -> None:
        self.progress = None
        self.session.console.error(_("coach: {error}").format(error=exc))

    def wait(self, timeout: float = 300.0) -> None:
        """Wait for the coach's work under way (tests, notebooks)."""
        self._workers.wait(timeout)

    def current(self) -> Judgement | None:
        """The judgement of the position on the table, if there is one yet."""
        judgement = self.judgement
        if judgement is not None and self._judged_at == position_key(self.session.game):
            return judgement
        return None

    def _mine(self) -> bool:
        d = self.session.game.decision
        return d is not None and self.session.is_human(d.player)

    def _changed(self, _change: Change | None) -> None:
        key = position_key(self.session.game)
        if self._judged_at != key:
            self._hint_wanted = None
            self._judged_at = None
            self.judgement = None
            self.hint = None
            self.leaning = None
        if (self.ahead and self._mine() and self.judgement is None
                and (key, self.level) not in self._pending):
            # The judgement starts when the decision appears: the Hint finds it ready.
            self.timings = {"decision": time.perf_counter()}
            self.judge(self.level)

    # ------------------------------------------------------------------ the judgement

    def judge(self, level: str) -> bool:
        """Judge the human decision on the table at ``level`` in the background; the result
        is adopted for every surface unless a finer one is already there. False when no
        human decides."""
        from nidavellir.bots.judge import judge

        session = self.session
        if not self._mine():
            return False
        key = position_key(session.game)
        position = session.game.clone()

        def progress(done: float, total: float, what: str) -> None:
            if position_key(session.game) != key:
                raise _Stale  # the game moved on: the judgement is not wanted any more
            self.progress = (done / total if total else 1.0, what)

        def leaning(move: Action, share: float) -> None:
            if position_key(session.game) != key or self.current() is not None:
                return  # the game moved on, or a judgement is there already
            from nidavellir.bots.judge import move_words

            words = move_words(position, [move]).get(str(move), str(move))
            self.leaning = (move, share, words)

        def work() -> None:
            try:
                judgement = judge(position, level=level, progress=progress, leaning=leaning)
            except _Stale:
                return
            finally:
                with self._lock:
                    self._pending.discard((key, level))
            # Checked and adopted with the game held still (the session's lock first, as
            # a move's redraw takes it, then the adoption's: one order, no deadlock): a
            # click that came between the check and the drawing drew this judgement on
            # the next decision's buttons.
            with session.holding():
                if position_key(session.game) != key:
                    return  # the game moved on: never show a judgement of an older position
                self.progress = None
                self._adopt(judgement, key)

        with self._lock:
            if (key, level) in self._pending:
                return True
            self._pending.add((key, level))
        self.progress = (0.0, "")
        self._workers.run(work)
        return True

    def _adopt(self, judgement: Judgement, key: Key) -> None:
        # Adopted and told to every surface at once: what the buttons, the Hint, the bar and
        # What-if show is always the judgement the coach holds.
        with self._adopting:
            current = self.judgement
            if current is not None and self._judged_at == key and \
                    fineness(current.level) > fineness(judgement.level):
                return  # a finer judgement is already there
            self._judged_at = key
            self.judgement = judgement
            self.leaning = None
            self.timings.setdefault("ready", time.perf_counter())
            for listener in list(self.listeners):
                try:
                    listener(judgement)
                except Exception as exc:
                    self.session.console.error(_("coach: {error}").format(error=exc))
            wanted = self._hint_wanted
            if wanted is not None and wanted[0] == key and \
                    fineness(judgement.level) >= fineness(wanted[1]):
                self._give_hint(judgement)

    # ------------------------------------------------------------------ the Hint

    def ask_hint(self, deeper: bool = False) -> str:
        """The player asks for the Hint (``deeper``: Think longer). Says what happens:
        ``"shown"`` (:attr:`hint` holds it now), ``"thinking"`` (it comes when judged),
        ``"over"`` (no decision left) or ``"not yours"`` (a bot decides)."""
        game = self.session.game
        d = game.decision
        if d is None:
            return "over"
        if not self.session.is_human(d.player):
            return "not yours"
        self.timings["hint_asked"] = time.perf_counter()
        level = self.deep_level if deeper else self.level
        key = position_key(game)
        self._hint_wanted = (key, level)
        current = self.current()
        if current is not None and fineness(current.level) >= fineness(level):
            self._give_hint(current)
            return "shown"
        self.judge(level)
        return "thinking"

    @property
    def settling(self) -> threading.RLock:
        """Held while a judgement is adopted and the Hint given (every surface told). A
        surface that finds no judgement or Hint and says "thinking…" holds it from the
        look to the words, so that the answer cannot land in between and be covered by
        them (it can come on the coach's thread at any moment, or inside the very call
        that asked for it)."""
        return self._adopting

    @property
    def hint_pending(self) -> bool:
        """Whether the Hint was asked for the position on the table and is not given yet
        (its judgement is on its way)."""
        wanted = self._hint_wanted
        return (wanted is not None and wanted[0] == position_key(self.session.game)
                and self.hint is None)

    def _give_hint(self, judgement: Judgement) -> None:
        self.last_hint = self.hint = judgement
        self.timings["hint_shown"] = time.perf_counter()
        self.hints += 1

    # ------------------------------------------------------------------ chances to win

    def estimate(self, viewer: int, done: Callable[[list[float], list[float]], None],
                 playouts: int = ESTIMATE_PLAYOUTS) -> None:
        """The chances to win and expected scores from what ``viewer`` can see, while no
        human decision is judged (a bot thinks): ``done(wins, expected)`` on the coach's
        thread, unless the position moved on or a judgement came meanwhile."""
        game = self.session.game
        key = position_key(game)
        position = game.clone()

        def work() -> None:
            from nidavellir.bots.judge import estimate_position

            wins, expected = estimate_position(position, viewer, playouts)
            with self._adopting:  # a judgement adopted meanwhile is never covered
                if position_key(self.session.game) != key or self.current() is not None:
                    return
                done(wins, expected)

        self._workers.run(work)


__all__ = ["DEEP_LEVEL", "ESTIMATE_PLAYOUTS", "Judging", "position_key"]
