"""A puzzle's themes, found by rules that read the engine's own outcome, never by hand.

Each theme is one small rule (:data:`THEMES`) over what the engine did with the puzzle's
answer and with the runner-up (:class:`Outcome`): both moves applied to the same
determinization for the deciding seat (its knowledge only, seeded from it: twin positions
get the same themes), the events the engine emitted and the table after each; the judged
games of the verdict (who holds which distinction at their end, each score-sheet
category's points); and the judgement itself (exact, graded by points). A rule states what
it reads in one line; no rule restates a game rule.

==================  ===============================================================
theme               the rule
==================  ===============================================================
``line``            the answer completes a line of five (a hero follows); the
                    runner-up does not
``distinction``     in age 1, the answer changes who would hold a distinction if the
                    age ended now, or the player's share of a distinction at the end
                    of the judged games differs beyond the noise
``tie``             the answer makes or breaks a tie at the top of a class (a
                    majority) that the runner-up leaves as it is
``coins``           the answer transforms, trades or swaps a coin where the runner-up
                    does not (or otherwise), or takes a Royal Offering, or the decision
                    is about coins
``hero``            the answer recruits a hero the runner-up does not, or the decision
                    is a hero's effect
``artifact``        the answer takes an artifact, or the decision is an artifact's
                    effect, or the artifacts' points differ beyond the noise
``mercenary``       the answer takes or enlists a mercenary (its column)
``camp``            the answer and the runner-up differ in taking from the camp
                    rather than a tavern (Thingvellir)
``exact``           the endgame is worked out exactly (nothing hidden is left)
``points``          the win chance is settled: the answer wins points, not chances
==================  ===============================================================

>>> sorted(THEMES) == sorted(THEME_NAMES)
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .. import events as ev
from ..cards import SUITS, Kind, Suit
from ..game import Game
from ..i18n import N_
from ..rules.base import DecisionKind
from ..rules.flow import distinction_winner
from .paired import CATEGORY_INDEX, paired
from .puzzle import Verdict, puzzle_seed


@dataclass
class Played:
    """One move applied to the determinization: the events after it (every seat's, up to
    the seat's next decision or the end) and the table."""

    events: list[ev.Event]
    game: Game

    def mine(self, seat: int, kind: type[ev.Event]) -> list[ev.Event]:
        return [e for e in self.events if isinstance(e, kind)
                and getattr(e, "player", None) == seat]


@dataclass
class Outcome:
    """What the rules read: the position, the verdict, and the answer and the runner-up
    played on one determinization for the deciding seat."""

    game: Game
    seat: int
    kind: str
    verdict: Verdict
    before: Game
    best: Played
    runner: Played


def outcome(game: Game, verdict: Verdict, salt: int = 0) -> Outcome:
    """The engine's outcome of the verdict's answer and runner-up (module docs)."""
    decision = game.decision
    if decision is None or not verdict.answers or not verdict.runner_up:
        raise ValueError("themes need a decision with an answer and a runner-up")
    seat = decision.player
    base = game.determinize(seat, puzzle_seed(game, salt))

    def play(action: str) -> Played:
        branch = base.clone()
        mark = len(branch.events)
        branch.apply(action)
        return Played(list(branch.events[mark:]), branch)

    return Outcome(game=game, seat=seat, kind=str(decision.kind), verdict=verdict,
                   before=base, best=play(verdict.best), runner=play(verdict.runner_up))


# ====================================================================== the rules

def _line(o: Outcome) -> bool:
    before = o.before.state.players[o.seat].lines
    return (o.best.game.state.players[o.seat].lines > before
            >= o.runner.game.state.players[o.seat].lines)


def _holders(g: Game) -> list[int | None]:
    """Who would hold each distinction if age 1 ended now (the engine's rule)."""
    players = g.state.players
    return [distinction_winner([p.ranks[suit] for p in players]) for suit in SUITS]


def _distinction(o: Outcome) -> bool:
    if o.before.state.age != 1:
        return False
    if _holders(o.best.game) != _holders(o.runner.game):
        return True
    j, runner = o.verdict.judgement, o.verdict.runner
    if j is None or runner is None:
        return False
    a, b = j._samples[j.options[0].action], j._samples[runner.action]
    for name in sorted({d for s in a + b for d in s.distinctions}):
        d = paired([float(name in s.distinctions) for s in a],
                   [float(name in s.distinctions) for s in b])
        if (o.verdict.exact and abs(d.value) > 1e-9) or d.clear:
            return True
    return False


def _tied(g: Game, seat: int, suit: Suit) -> bool:
    ranks = [p.ranks[suit] for p in g.state.players]
    top = max(ranks)
    return top > 0 and ranks[seat] == top and ranks.count(top) > 1


def _tie(o: Outcome) -> bool:
    for suit in SUITS:
        before = _tied(o.before, o.seat, suit)
        after_best = _tied(o.best.game, o.seat, suit)
        if after_best != before and _tied(o.runner.game, o.seat, suit) == before:
            return True
    return False


_COIN_KINDS = frozenset({str(DecisionKind.TRANSFORM), str(DecisionKind.ULINE_TRADE),
                         str(DecisionKind.VIDOFNIR), str(DecisionKind.ULINE_BID)})


def _taken(p: Played, seat: int) -> list[ev.CardTaken]:
    return [e for e in p.mine(seat, ev.CardTaken) if isinstance(e, ev.CardTaken)]


def _coin_events(p: Played, seat: int) -> list[ev.Event]:
    return [e for kind in (ev.CoinTransformed, ev.CoinTraded, ev.CoinSwapped)
            for e in p.mine(seat, kind)]


def _coins(o: Outcome) -> bool:
    if o.kind in _COIN_KINDS:
        return True
    # The answer's own coin moves: a trade or transform that follows either move (the
    # reveal of the next tavern) is no part of the choice.
    if _coin_events(o.best, o.seat) != _coin_events(o.runner, o.seat):
        return True
    return any(e.card.kind is Kind.ROYAL_OFFERING for e in _taken(o.best, o.seat))


_HERO_KINDS = frozenset({str(DecisionKind.HERO), str(DecisionKind.THRUD),
                         str(DecisionKind.YLUD), str(DecisionKind.DISCARD),
                         str(DecisionKind.ULINE_BID), str(DecisionKind.ULINE_TRADE),
                         str(DecisionKind.ANDUMIA), str(DecisionKind.HOLDA),
                         str(DecisionKind.OLWYN), str(DecisionKind.PIONEER)})


def _hero(o: Outcome) -> bool:
    return o.kind in _HERO_KINDS or (o.best.mine(o.seat, ev.HeroRecruited)
                                     != o.runner.mine(o.seat, ev.HeroRecruited))


_ARTIFACT_KINDS = frozenset({str(DecisionKind.VIDOFNIR), str(DecisionKind.BRISINGAMENS),
                             str(DecisionKind.ARMY_DISCARD)})


def _artifact(o: Outcome) -> bool:
    if o.kind in _ARTIFACT_KINDS:
        return True
    if any(e.card.kind is Kind.ARTIFACT for e in _taken(o.best, o.seat)):
        return True
    j, runner = o.verdict.judgement, o.verdict.runner
    if j is None or runner is None:
        return False
    i = CATEGORY_INDEX["artifacts"]
    d = paired([float(s.breakdown[i]) for s in j._samples[j.options[0].action]],
               [float(s.breakdown[i]) for s in j._samples[runner.action]])
    return abs(d.value) >= 1.0 and (d.clear or o.verdict.exact)


_MERCENARY_KINDS = frozenset({str(DecisionKind.MERCENARY),
                              str(DecisionKind.MERCENARY_ORDER)})


def _mercenary(o: Outcome) -> bool:
    return o.kind in _MERCENARY_KINDS or any(
        e.card.kind is Kind.MERCENARY for e in _taken(o.best, o.seat))


def _from_camp(p: Played, seat: int) -> bool:
    return any(e.source == "camp" for e in _taken(p, seat))


def _camp(o: Outcome) -> bool:
    return o.kind == str(DecisionKind.PICK) and (
        _from_camp(o.best, o.seat) != _from_camp(o.runner, o.seat))


def _exact(o: Outcome) -> bool:
    return o.verdict.exact


def _points(o: Outcome) -> bool:
    return o.verdict.grading == "points"


#: The themes: name -> rule (module docs).
THEMES: dict[str, Callable[[Outcome], bool]] = {
    "line": _line, "distinction": _distinction, "tie": _tie, "coins": _coins,
    "hero": _hero, "artifact": _artifact, "mercenary": _mercenary, "camp": _camp,
    "exact": _exact, "points": _points,
}

#: The themes' names for a learner (the Puzzles tab's filter), in the catalogue.
THEME_NAMES: dict[str, str] = {
    # Translators: the themes of the puzzles (the Puzzles tab's filter).
    "line": N_("A line of five"), "distinction": N_("A distinction"),
    "tie": N_("A tie at a majority"), "coins": N_("Coins"), "hero": N_("A hero's effect"),
    "artifact": N_("An artifact"), "mercenary": N_("A mercenary's column"),
    "camp": N_("The camp"), "exact": N_("An exact endgame"),
    "points": N_("Every point counts"),
}


def themes_of(game: Game, verdict: Verdict, salt: int = 0) -> list[str]:
    """The themes of a verdict's puzzle (module docs), in the order of :data:`THEMES`."""
    o = outcome(game, verdict, salt)
    return [name for name, rule in THEMES.items() if rule(o)]


__all__ = ["THEMES", "THEME_NAMES", "Outcome", "Played", "outcome", "themes_of"]
