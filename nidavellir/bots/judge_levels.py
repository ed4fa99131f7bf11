"""The coach's levels: how hard a judgement thinks, in work that does not depend on the
machine (search iterations and paired playouts), and their names in words (:mod:`.judge`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game import Game
from ..i18n import N_, _, count
from .tree import EXPERT_SECONDS, HARD_SECONDS

#: Search iterations per second on one core of the reference machine (the 2-core machine
#: of benchmarks/README.md, a 3-player game): a budget in seconds (``search@0.5s``, the bot
#: levels) is judged at this many iterations, so that it gives the same figures everywhere.
ITERATIONS_PER_SECOND = 1200


@dataclass(frozen=True)
class JudgeLevel:
    """How hard a judgement thinks, in work that does not depend on the machine: the
    search's iterations, then paired playouts shared out over the options."""

    name: str
    iterations: int
    """Search iterations (a decision with one legal move: none)."""
    playouts: int
    """Paired playouts in all, shared out equally over the options: every option is
    played out on the same games."""
    least: int = 8
    """Paired playouts per option at least (a bid has 60 options)."""
    most: int = 300
    """Paired playouts per option at most."""
    scaled: bool = False
    """``iterations`` and ``playouts`` are the budget of a 3-player opening; a position
    with fewer games' worth of rounds left gets more of them (:meth:`scale`), a longer one
    fewer, so that a judgement takes about the same time anywhere in a game (a playout's
    cost grows with the rounds left). ``search@N`` levels are not scaled."""

    def scale(self, game: Game) -> float:
        """How many times the reference budget a position gets: the player-rounds of a
        3-player opening over the position's player-rounds left, within
        :data:`SCALE_RANGE` (1 for an unscaled level). A function of the position only."""
        if not self.scaled:
            return 1.0
        s = game.state
        per_age = game.config.rounds_per_age
        left = per_age - max(s.round, 1) + 1 + (per_age if s.age == 1 else 0)
        low, high = SCALE_RANGE
        cost = left * game.config.players * (THINGVELLIR_COST if game.config.thingvellir
                                             else 1.0)
        return max(low, min(high, REFERENCE_ROUNDS / cost))

    def budget(self, game: Game, options: int) -> tuple[int, int]:
        """(search iterations, paired playouts per option) for ``options`` options at the
        position of ``game`` (one option, a forced move: no search, and an eighth of the
        playouts, only the position's outlook is wanted)."""
        k = self.scale(game)
        playouts = round(self.playouts * k)
        share = playouts // 8 if options <= 1 else playouts // options
        per_option = max(self.least, min(round(self.most * k), share))
        return (0 if options <= 1 else round(self.iterations * k)), per_option


#: Player-rounds left at a 3-player opening (two ages of four rounds): the reference of
#: the scaled levels' budgets.
REFERENCE_ROUNDS = 24
#: A round with Thingvellir (the camp, mercenaries, more heroes) costs a playout about
#: this much more than a base-game round (benchmarks/README.md, "The search's hot path").
THINGVELLIR_COST = 1.2
#: A position's budget is between these multiples of the reference.
SCALE_RANGE = (0.6, 2.5)


#: The coach's levels. ``coach`` answers the Hint, fills the buttons and the What-if table
#: and judges the review (about 1.2 s of one idle core of the reference machine with the
#: compiled build, at most about 1.7 s; benchmarks/README.md); ``deep`` thinks longer on
#: request; ``hard`` and ``expert`` are the bots' budgets (0.75 s and 3 s of search) as
#: iterations.
LEVELS: dict[str, JudgeLevel] = {
    "quick": JudgeLevel("quick", iterations=300, playouts=300, scaled=True),
    # The search of 0.7 of the first budget (800 iterations: the same agreement with expert
    # within one position of 80, 30% less CPU), and 7.4 times the paired playouts of the
    # coach before the compiled build (350): what the compiled build's speed buys in about
    # 1.2 s of one idle core, the paired gaps' standard errors halved (-51% / -56% on the
    # benchmark's positions: benchmarks/README.md, "The hot path without Python's generic
    # operations"). The pure-Python build takes about three times as long as it did at 350.
    # (``most`` does not bind at these budgets: two options get half the playouts each, a
    # forced move an eighth, both below it.)
    "coach": JudgeLevel("coach", iterations=560, playouts=2600, most=2200, scaled=True),
    # Thinking longer in every part: four times the coach's search, more paired playouts.
    "deep": JudgeLevel("deep", iterations=2400, playouts=3200, most=2400, scaled=True),
    "hard": JudgeLevel("hard", iterations=round(HARD_SECONDS * ITERATIONS_PER_SECOND),
                       playouts=900),
    "expert": JudgeLevel("expert", iterations=round(EXPERT_SECONDS * ITERATIONS_PER_SECOND),
                         playouts=2400, most=800),
}
DEFAULT_LEVEL = "coach"


def parse_level(level: str | JudgeLevel) -> JudgeLevel:
    """A level by name (:data:`LEVELS`) or a search budget ``search@400`` / ``search@0.5s``
    (seconds are converted to iterations at :data:`ITERATIONS_PER_SECOND`). A budget of N
    plays N paired playouts shared out over the options, at least ``min(8, N // 2)`` (and
    2) per option.

    >>> parse_level("search@6").least, parse_level("search@20").least
    (3, 8)
    """
    if isinstance(level, JudgeLevel):
        return level
    if not isinstance(level, str):
        raise ValueError(f"a level is named by text, not {level!r}")
    key = level.strip().lower()
    if key in LEVELS:
        return LEVELS[key]
    name, at, _rest = key.partition("@")
    if name in ("search", "hard", "expert") and at:
        from . import parse_bot_spec

        _name, options = parse_bot_spec(key)
        iterations = options.get("iterations")
        if iterations is None:
            iterations = max(1, round(options["seconds"] * ITERATIONS_PER_SECOND))
        # A small budget stays small: at least 8 paired playouts per option would make
        # search@6 play 480 games for a bid of 60 options; it plays at least half its
        # budget per option (2 at the least: a paired difference needs two).
        least = min(JudgeLevel.least, max(2, iterations // 2))
        return JudgeLevel(key, iterations=iterations, playouts=iterations, least=least)
    # Translators: an error of a coach's level as typed (`nidavellir hint --level`, a lesson
    # file); the levels' names and the examples are notation.
    raise ValueError(_("unknown level {level}; known: {levels}, or {form} (e.g. {examples})"
                       ).format(level=repr(level), levels=", ".join(LEVELS),
                                form="search@BUDGET", examples="search@400, search@0.5s"))


#: The coach's levels in words, for the reader (an option's tooltip: "the coach (a quick
#: look): 41% chance to win").
LEVEL_WORDS: dict[str, str] = {
    # Translators: how hard the coach thought, in an option's tooltip "the coach ({level})".
    "quick": N_("a quick look"), "coach": N_("its usual depth"), "deep": N_("thinking longer"),
    "hard": N_("as hard as the hard bot"), "expert": N_("as hard as the expert bot")}


def level_words(level: str) -> str:
    """A judgement's level for the reader: a level of :data:`LEVELS` in words, a search
    budget (``search@400``) as its iterations.

    >>> level_words("coach"), level_words("search@40")
    ('its usual depth', 'a search of 40 iterations')
    """
    if level in LEVEL_WORDS:
        return _(LEVEL_WORDS[level])
    try:
        lvl = parse_level(level)
    except ValueError:
        return level  # a level this version does not know (a saved judgement): as written
    # Translators: how hard the coach thought: a search budget, in an option's tooltip.
    return count(lvl.iterations, "a search of {n} iteration", "a search of {n} iterations")


def fineness(level: str) -> int:
    """How fine a level is: its work at the reference position (search iterations and
    paired playouts); a finer judgement replaces a rougher one on every surface."""
    try:
        lvl = parse_level(level)
    except ValueError:
        return 0
    return lvl.iterations + lvl.playouts


__all__ = ["DEFAULT_LEVEL", "ITERATIONS_PER_SECOND", "LEVELS", "LEVEL_WORDS", "REFERENCE_ROUNDS",
           "SCALE_RANGE", "THINGVELLIR_COST", "JudgeLevel", "fineness", "level_words",
           "parse_level"]
