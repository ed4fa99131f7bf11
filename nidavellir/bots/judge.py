"""The coach's one judgement of a decision: what every option is worth, and why.

Everything the lab tells a learner about a move's worth comes from :func:`judge`: the Hint,
the figures on the decision buttons, the win-chance bar, the What-if table, the game review,
``nidavellir hint`` and ``nidavellir review``. It reads only what the deciding seat may know
(every estimate starts from a determinization for that seat, :mod:`nidavellir.observer`).

**One judgement per position and level.** A judgement is a function of the position as the
deciding seat knows it and of the level, nothing else: it is seeded from that knowledge
(:func:`position_seed`) and budgeted in search iterations and playouts, never in seconds, so
the page, the command line and the review give the same figures for the same record,
decision and level on any machine under any load. Judgements are kept
(:func:`cached`): a position the Hint judged costs the review nothing more.

How the options are judged:

1. **Equivalent moves are judged once.** Moves that lead to the same position (the five
   Dwerg brothers, two Vidofnir orders that make the same coins, two bids that put the same
   coins on the same taverns) form one option, shown with one value (``equivalent``).
2. **Exact where it can be.** When nothing hidden or random can change the rest of the game
   and it is small enough, every option is played to the end by enumeration
   (:mod:`.exact`) and the judgement says so (``exact``).
3. Otherwise **the search** (:class:`~nidavellir.bots.tree.Searcher`, information-set MCTS)
   spends the level's iterations, then **every option is played out on the same games**:
   the same determinizations and the same random numbers for each option (common random
   numbers, as backgammon rollouts use the same dice for every move compared), each game
   continuing with the moves the search's tree prefers after that option and then the
   search's playout policy. The figures of an option are the means over these games, and
   the difference between two options is a paired difference, with its standard error.

**One order, one rule in both currencies** (:mod:`.judge_order`). No option is clearly
more likely to win than the recommended move, and among the options nobody clearly beats
on the chance to win (equal chances, within the noise) the recommended move has the most
expected points; the expected final score is shown beside the chance. The win bar is the
recommended move's chance to win, and every surface shows the options in the one order.

**Noise is never shown as signal.** An option whose chance to win and expected points
both differ from the recommended move's by no more than the noise (:data:`NOISE` standard
errors of the paired difference) is *about as good* (``about_best``): the Hint names every
such option instead of crowning one, and the review never calls it a mistake. These
options come first in the order, right after the recommended move, and the Hint's *next
best move* is the first option after them. The reason why (:meth:`Judgement.compare`)
lists only what differs beyond the noise: the score-sheet categories (with the rest, so
that the figures add up to the headline), the distinctions and heroes held at the end of
the judged games (read from the engine's own outcome of those games, never from a rule
written here).

Levels (:data:`LEVELS`): ``quick``, ``coach`` (the Hint, the buttons, What-if and the
review: about 1.2 s of one idle core with the compiled build, about 3 s in pure Python,
benchmarks/README.md), ``deep`` (Think longer); the bot levels ``hard`` and ``expert`` and
``search@BUDGET`` work too (a budget in seconds is converted to iterations at
:data:`ITERATIONS_PER_SECOND`).

>>> from nidavellir import Game
>>> game = Game.new(players=2, seed=3)
>>> j = judge(game, level="search@40")
>>> j.best == j.options[0].action and j.options[0].about_best
True
>>> any(o.win_gap.clear and o.win_gap.value < 0 for o in j.options)  # none more likely to win
False
"""

from __future__ import annotations

import hashlib
import math
import random
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from .. import cards as C
from ..actions import Action
from ..determinize import determinize_state, heuristic_bid_model
from ..engine import Engine
from ..game import Game
from ..i18n import N_, SOURCE, language, using
from ..observer import known_places
from .exact import solve
from .immediate import Immediate, immediate, immediates, sheet_if_ended
from .judge_levels import (
    DEFAULT_LEVEL,
    ITERATIONS_PER_SECOND,
    LEVEL_WORDS,
    LEVELS,
    JudgeLevel,
    fineness,
    level_words,
    parse_level,
)
from .judge_order import order
from .judgement import Comparison, Judgement, OptionJudgement, percent, win_text
from .paired import (
    NOISE,
    Difference,
    Estimate,
    Games,
    Sample,
    Stats,
    difference,
    estimate,
    part,
    sample,
)
from .playout import heuristic_policy
from .tree import Searcher, outcome

#: Progress callback: ``progress(done, total, what)`` with ``done <= total``.
Progress = Callable[[float, float, str], None]
#: The search's answer so far: ``leaning(move, share)``, the option its search visits most
#: after ``share`` (0 to 1) of its iterations: what a Hint still on its way can say
#: meanwhile (never a figure: the judgement's figures come from the games played after).
Leaning = Callable[[Action, float], None]


# ====================================================================== equivalent moves

def equivalent_groups(game: Game, actions: Sequence[Action], seed: int = 0
                      ) -> list[list[Action]]:
    """The legal moves grouped by the position they lead to (in the engine's order; the
    first of a group stands for it): each is applied to one determinization for the deciding
    seat and the states compared, the five Dwerg brothers counted as one card."""
    decision = game.decision
    assert decision is not None
    me = decision.player
    if len(actions) < 2:
        return [list(actions)]
    shown, purse = known_places(game.events, me)
    base = determinize_state(game.state, me, random.Random(seed), shown, purse,
                             heuristic_bid_model)
    groups: dict[object, list[Action]] = {}
    for a in actions:
        s = base.copy()
        Engine(s, quiet=True).apply(a, check=False)
        groups.setdefault(_canonical(s.fingerprint()[:-1]), []).append(a)
    return list(groups.values())


_DWERG_TOKENS = frozenset(c.token for c in C.DWERG_BROTHERS)


def _canonical(x: object) -> object:
    if isinstance(x, str):
        return "Dwerg" if x in _DWERG_TOKENS else x
    if isinstance(x, tuple):
        return tuple(_canonical(y) for y in x)
    return x


# ====================================================================== judging

def position_seed(game: Game, seat: int) -> int:
    """A seed for judging the position from what ``seat`` has seen (its log, with the other
    seats' bids face down): the same position gives the same judgement in every surface,
    and twin games that differ only in hidden information give the same seed."""
    text = "\n".join(known_log(game, seat)) + f"\n{seat}"
    return zlib.crc32(text.encode("utf-8"))


def known_log(game: Game, seat: int) -> list[str]:
    """What ``seat`` has seen, in the source language whatever the page's: a position's
    seed and key must not depend on the language it is shown in (a German and an English
    learner at the same position get the same figures)."""
    with using(SOURCE):
        return game.log(seat)


def knowledge_key(game: Game, level: str | JudgeLevel, seed: int | None = None) -> str:
    """The judgement's identity: the position as the deciding seat knows it (its log, the
    game's set-up), the level and the seed, and the language its words are in (a judgement
    keeps its moves in words: a German and an English page at one position each have
    theirs, with the same figures). Twin games that differ only in what the seat cannot
    see have the same key."""
    decision = game.decision
    if decision is None:
        raise ValueError("there is no decision to judge: the game is over")
    lvl = parse_level(level)
    budget = hashlib.sha256(f"level {lvl!r}\nseed {seed}".encode()).hexdigest()[:16]
    return f"{position_key(game)}|{budget}|{language()}"


def position_key(game: Game) -> str:
    """The position as the deciding seat knows it (its log, the game's set-up): the first
    part of :func:`knowledge_key`, shared by every level's judgement of the position."""
    decision = game.decision
    if decision is None:
        raise ValueError("there is no decision to judge: the game is over")
    seat = decision.player
    text = "\n".join([*known_log(game, seat), repr(game.config), f"seat {seat}"])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def judges(judgement: Judgement, game: Game) -> bool:
    """Whether ``judgement`` is of the decision on the table of ``game`` as its seat knows
    it (the position's part of its :func:`knowledge_key`, whatever its level, seed or
    language). A judgement without a key cannot tell, and is taken at its word."""
    if game.decision is None:
        return False
    if not judgement.key:
        return True
    return judgement.key.split("|", 1)[0] == position_key(game)


class _Cache:
    """Judgements kept by :func:`knowledge_key` (the most recent :data:`CACHE_SIZE`), with
    one computation at a time per key (a second caller waits for the first)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[str, Judgement] = OrderedDict()
        self.running: dict[str, threading.Event] = {}
        self.lock = threading.Lock()
        self.enabled = True

    def get(self, key: str) -> Judgement | None:
        with self.lock:
            j = self.items.get(key)
            if j is not None:
                self.items.move_to_end(key)
            return j

    def put(self, j: Judgement) -> None:
        with self.lock:
            self.items[j.key] = j
            self.items.move_to_end(j.key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


#: Judgements kept in this process.
CACHE_SIZE = 256
_CACHE = _Cache(CACHE_SIZE)


def cached(game: Game, level: str | JudgeLevel = DEFAULT_LEVEL,
           seed: int | None = None) -> Judgement | None:
    """The judgement of the decision on the table at ``level`` if this process has made it,
    else None (nothing is computed)."""
    if game.decision is None or not _CACHE.enabled:
        return None
    return _CACHE.get(knowledge_key(game, level, seed))


def finest(game: Game) -> Judgement | None:
    """The finest judgement of the decision on the table that this process has made, at
    any level (a Think longer refines the Hint for every surface), in the current
    language, or None."""
    if game.decision is None or not _CACHE.enabled:
        return None
    prefix, words = position_key(game) + "|", "|" + language()
    with _CACHE.lock:
        found = [j for k, j in _CACHE.items.items()
                 if k.startswith(prefix) and k.endswith(words)]
    return max(found, key=lambda j: fineness(j.level), default=None)


def remember(judgement: Judgement) -> None:
    """Keep a judgement made elsewhere (a review's worker process) for this process."""
    if judgement.key and _CACHE.enabled:
        _CACHE.put(judgement)


@contextmanager
def no_cache() -> Iterator[None]:
    """Judge afresh inside the block (the consistency benchmark checks that a recomputed
    judgement equals the kept one)."""
    with _CACHE.lock:
        before = _CACHE.enabled
        _CACHE.enabled = False
    try:
        yield
    finally:
        with _CACHE.lock:
            _CACHE.enabled = before


def clear_cache() -> None:
    with _CACHE.lock:
        _CACHE.items.clear()


def judge(game: Game, level: str | JudgeLevel = DEFAULT_LEVEL, seed: int | None = None,
          progress: Progress | None = None, leaning: Leaning | None = None) -> Judgement:
    """Judge the decision on the table of ``game`` for the player who must take it (see the
    module docs): the same position (as that seat knows it), level and seed give the same
    judgement, computed once per process. ``seed``: default :func:`position_seed`;
    ``progress`` hears how far the judgement is; ``leaning`` what its search prefers so
    far (:data:`Leaning`; the judgement is the same with or without it)."""
    decision = game.decision
    if decision is None:
        raise ValueError("there is no decision to judge: the game is over")
    lvl = parse_level(level)
    key = knowledge_key(game, lvl, seed)
    if not _CACHE.enabled:
        return _judge(game, lvl, seed, progress, key, leaning)
    while True:
        with _CACHE.lock:
            found = _CACHE.items.get(key)
            if found is not None:
                _CACHE.items.move_to_end(key)
                if progress is not None:
                    progress(1.0, 1.0, N_("done"))
                return found
            waiting = _CACHE.running.get(key)
            if waiting is None:
                done = _CACHE.running[key] = threading.Event()
                break
        waiting.wait()  # the same judgement is being made in another thread
    try:
        j = _judge(game, lvl, seed, progress, key, leaning)
        _CACHE.put(j)
        return j
    finally:
        with _CACHE.lock:
            _CACHE.running.pop(key, None)
        done.set()


def _judge(game: Game, lvl: JudgeLevel, seed: int | None, progress: Progress | None,
           key: str, leaning: Leaning | None = None) -> Judgement:
    decision = game.decision
    assert decision is not None
    me = decision.player
    if seed is None:
        seed = position_seed(game, me)
    start = time.perf_counter()
    legal = game.legal_actions()
    groups = equivalent_groups(game, legal, seed)
    reps = [g[0] for g in groups]
    played = _play(game, lvl, reps, me, seed, progress, leaning)
    options = _ranked(played, reps, {g[0]: g[1:] for g in groups})
    win, expected = _outlook(game, me, options[0], played.samples[options[0].action])
    judgement = Judgement(
        player=me, kind=str(decision.kind), level=lvl.name, seed=seed,
        iterations=played.iterations, playouts=played.playouts, seconds=0.0, options=options,
        win=win, expected=expected, exact=played.exact, key=key,
        words=move_words(game, legal), _samples=played.samples, _stats=played.stats,
        _index={a: o for o in options for a in o.actions})
    nows = immediates(game, legal, seed)
    for o in options:
        o.now = nows[str(o.action)]
    judgement.seconds = time.perf_counter() - start
    if progress is not None:
        progress(1.0, 1.0, N_("done"))
    return judgement


@dataclass
class _Played:
    """Every option played: the judged games after each (``samples``), the search's
    statistics of each and the search itself (none for an exact judgement or one option)."""

    samples: dict[Action, list[Sample]]
    stats: dict[Action, Stats]
    searcher: Searcher | None
    iterations: int
    playouts: int
    exact: bool


def _play(game: Game, lvl: JudgeLevel, reps: list[Action], me: int, seed: int,
          progress: Progress | None, leaning: Leaning | None = None) -> _Played:
    """Play every option out: to the end by enumeration where nothing hidden or random is
    left (exact), else the level's search then the same paired games for each."""
    exact = solve(game, reps, seed) if len(reps) > 1 else None
    if exact is not None:
        return _Played({a: [sample(state, me)] for a, state in exact.items()}, {}, None, 0, 1,
                       True)
    iterations, n = lvl.budget(game, len(reps))
    searcher: Searcher | None = None
    stats: dict[Action, Stats] = {}
    if len(reps) > 1:
        searcher = Searcher(game, random.Random(seed), heuristic_policy,
                            heuristic_bid_model, root_actions=reps)
        stats = searcher.root_stats
        for done in range(1, iterations + 1):
            searcher.iterate()
            if done % 50 == 0:
                if progress is not None:
                    progress(0.6 * done / iterations, 1.0, N_("searching"))
                if leaning is not None:
                    visits = {a: searcher.visits(a) for a in reps}
                    leaning(max(reps, key=lambda a: visits[a]), done / iterations)
    master = random.Random(seed ^ 0x5DEECE66D)
    games = Games(game, me, [master.getrandbits(63) for _ in range(n)])
    samples = {}
    for i, a in enumerate(reps):
        samples[a] = games.run(a)
        if progress is not None:
            share = (i + 1) / len(reps)
            progress(0.6 + 0.4 * share if searcher else share, 1.0,
                     N_("playing every option out"))
    return _Played(samples, stats, searcher,
                   searcher.iterations if searcher is not None else 0, n, False)


def _ranked(played: _Played, reps: list[Action], same: dict[Action, list[Action]]
            ) -> list[OptionJudgement]:
    """Each option's figures, in the one order (:func:`.judge_order.order`: the
    recommended move, the moves about as good in both currencies, then the rest), with its
    paired gaps to the recommended move."""
    searcher, stats, samples = played.searcher, played.stats, played.samples
    options = []
    for a in reps:
        est = estimate(samples[a], stats.get(a), played.exact,
                       searcher.mean_reward(a) if searcher is not None else None)
        options.append(OptionJudgement(
            a, searcher.visits(a) if searcher is not None else 0, est, equivalent=same[a],
            continuation=searcher.continuation_from(a) if searcher is not None else []))

    def gap(a: OptionJudgement, b: OptionJudgement, figure: str) -> Difference:
        d = difference(part(stats.get(a.action), samples[a.action], figure),
                       part(stats.get(b.action), samples[b.action], figure))
        if played.exact:
            d.se = 0.0
        return d

    return order(options, gap, {a: i for i, a in enumerate(reps)})


def _outlook(game: Game, me: int, best: OptionJudgement, games: Sequence[Sample]
             ) -> tuple[list[float], list[float]]:
    """Each player's chance to win and expected final score after the recommended move: the
    deciding seat's are the option's figures; the others share the rest as they do in the
    paired games."""
    players = game.config.players
    played_out = [math.fsum(s.wins[i] for s in games) / len(games) for i in range(players)]
    rest = 1.0 - played_out[me]
    win = [best.win if i == me else
           (played_out[i] * (1.0 - best.win) / rest if rest > 1e-12
            else (1.0 - best.win) / (players - 1)) for i in range(players)]
    expected = [best.score if i == me else math.fsum(s.totals[i] for s in games) / len(games)
                for i in range(players)]
    return win, expected


def move_words(game: Game, legal: Sequence[Action]) -> dict[str, str]:
    """Each legal move as the decision says it to the deciding seat (its own coins and what
    everyone sees: the same knowledge as the judgement's), in the current language; a
    decision without words leaves its moves out (their notation stays)."""
    decision = game.decision
    assert decision is not None
    out = {}
    for action in legal:
        try:
            out[str(action)] = decision.task.say(game.engine, action)
        except NotImplementedError:  # a decision without words: its notation stays
            continue
    return out


def estimate_position(game: Game, viewer: int, playouts: int = 200, seed: int | None = None
                      ) -> tuple[list[float], list[float]]:
    """Each player's chance to win and expected final score from ``viewer``'s knowledge
    only: ``playouts`` games played to the end from determinizations for ``viewer`` with the
    judgement's playout policy (the win-chance bar while no decision of ``viewer``'s is
    judged: a bot is thinking)."""
    if game.is_over:
        raise ValueError("the game is over: its scores are final")
    if playouts < 1:
        raise ValueError(f"playouts must be at least 1, not {playouts!r}")
    if not isinstance(viewer, int) or not 0 <= viewer < game.config.players:
        raise ValueError(f"no player {viewer!r} in a {game.config.players}-player game")
    if seed is None:
        seed = position_seed(game, viewer)
    shown, purse = known_places(game.events, viewer)
    rng = random.Random(seed)
    n = game.config.players
    wins = [0.0] * n
    scores = [0.0] * n
    for _round in range(playouts):
        state = determinize_state(game.state, viewer, rng, shown, purse, heuristic_bid_model)
        Engine(state, quiet=True).play_out(heuristic_policy, rng)
        totals, w, _margins, _breakdowns = outcome(state)
        for i in range(n):
            wins[i] += w[i]
            scores[i] += totals[i]
    return [w / playouts for w in wins], [x / playouts for x in scores]


__all__ = ["DEFAULT_LEVEL", "ITERATIONS_PER_SECOND", "LEVELS", "LEVEL_WORDS", "NOISE", "Comparison",
           "Difference", "Estimate", "Immediate", "JudgeLevel", "Judgement", "OptionJudgement",
           "cached", "clear_cache", "equivalent_groups", "estimate_position", "finest",
           "fineness", "immediate", "immediates", "judge", "judges", "knowledge_key",
           "level_words", "no_cache",
           "parse_level", "percent", "position_key", "position_seed", "remember", "sheet_if_ended",
           "win_text"]
