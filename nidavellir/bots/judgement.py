"""The coach's judgement of a decision as data and words: each option's figures, the order,
the comparison of two options and the reason why (made by :func:`nidavellir.bots.judge.judge`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import cards as C
from ..actions import Action
from ..events import origin
from ..i18n import _, count, number, percent_with_sign, with_sign
from ..i18n import percent as percent_of
from ..names import Phrase, score_line_in_sentence
from ..scoring import CATEGORIES, CATEGORY_LABELS
from .immediate import Immediate
from .paired import (
    Difference,
    Estimate,
    Sample,
    Stats,
    difference,
    hero_name,
    paired,
    part,
)


@dataclass
class OptionJudgement:
    """One option of the decision (a set of equivalent legal moves), judged."""

    action: Action
    visits: int
    """Iterations the search spent on it."""
    estimate: Estimate
    equivalent: list[Action] = field(default_factory=list)
    """Other legal moves that lead to the same position, judged with this one."""
    now: Immediate | None = None
    continuation: list[tuple[int, Action]] = field(default_factory=list)
    """The search's most visited line after this move: (player, action)."""
    win_gap: Difference = field(default_factory=lambda: Difference(0.0, 0.0))
    """The best option's chance to win less this one's (paired)."""
    points_gap: Difference = field(default_factory=lambda: Difference(0.0, 0.0))
    """The best option's expected final score less this one's (paired)."""

    @property
    def about_best(self) -> bool:
        """About as good as the recommended move (itself included): neither the chance to
        win nor the expected points differ from its by more than the noise
        (:mod:`.judge_order`)."""
        return not self.win_gap.clear and not self.points_gap.clear

    @property
    def verified(self) -> bool:
        """Every option is played out on the judgement's common games."""
        return True

    @property
    def actions(self) -> list[Action]:
        """The legal moves this option stands for."""
        return [self.action, *self.equivalent]

    @property
    def value(self) -> float:
        return self.estimate.value

    @property
    def score(self) -> float:
        return self.estimate.score

    @property
    def score_se(self) -> float:
        return self.estimate.score_se

    @property
    def win(self) -> float:
        return self.estimate.win

    @property
    def win_se(self) -> float:
        return self.estimate.win_se

    @property
    def margin(self) -> float:
        return self.estimate.margin

    @property
    def categories(self) -> dict[str, float]:
        return self.estimate.categories

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON)."""
        e = self.estimate
        out: dict[str, Any] = {
            "action": str(self.action), "equivalent": [str(a) for a in self.equivalent],
            "win": _num(e.win, 4), "win_se": _num(e.win_se, 4), "score": _num(e.score, 2),
            "score_se": _num(e.score_se, 2), "margin": _num(e.margin, 2),
            "value": _num(e.value, 4), "about_best": self.about_best,
            "win_gap": _num(self.win_gap.value, 4), "win_gap_se": _num(self.win_gap.se, 4),
            "points_gap": _num(self.points_gap.value, 2),
            "points_gap_se": _num(self.points_gap.se, 2),
            "visits": self.visits, "playouts": e.n,
            "categories": {k: _num(v, 2) for k, v in e.categories.items()},
            "distinctions": {k: _num(v, 3) for k, v in e.distinctions.items()},
            "continuation": [str(a) for _, a in self.continuation]}
        if self.now is not None:
            out["now"] = {"total": self.now.total, "parts": dict(self.now.parts),
                          "if_ended": self.now.if_ended, "majority": list(self.now.majority)}
        return out


def _num(x: float, digits: int) -> float | None:
    return None if x != x else round(x, digits)


def percent(x: float) -> str:
    """A chance as the coach writes it (``41%``, ``41 %`` in German and French)."""
    return percent_of(x)


def win_text(o: OptionJudgement, exact: bool = False) -> str:
    """``41% to win (± 3%), ≈286 points (± 2)`` (exact: no ±)."""
    if exact:
        # Translators: the coach's estimate of a move, "41% to win, 286 points".
        return _("{win} to win, {points} points").format(win=percent(o.win),
                                                        points=number(o.score))
    # Translators: the coach's estimate of a move with its margins, "41% to win (± 3%),
    # ≈286 points (± 2)".
    return _("{win} to win (± {win_se}), ≈{points} points (± {points_se})").format(
        win=percent(o.win), win_se=percent(o.win_se), points=number(o.score),
        points_se=number(o.score_se))


@dataclass
class Comparison:
    """The recommended move against another, from the paired games."""

    best: Action
    other: Action
    win: Difference
    """Chance to win more (paired)."""
    points: Difference
    """Expected final points more (paired)."""
    exact: bool
    why: list[str]
    """What favours the best move beyond the noise, largest first."""
    but: list[str]
    """What favours the other move beyond the noise."""
    best_words: str = ""
    """The best move in words (the decision's own, :meth:`Judgement.say`)."""
    other_words: str = ""
    why_data: list[dict[str, Any]] = field(default_factory=list)
    """:attr:`why` as data (:func:`reason_words` says each in the current language)."""
    but_data: list[dict[str, Any]] = field(default_factory=list)

    def to_data(self) -> dict[str, Any]:
        """The comparison as plain data, for a saved review: :func:`comparison_from_data`
        says it again in the reader's language."""
        return {"win": [self.win.value, self.win.se],
                "points": [self.points.value, self.points.se], "exact": self.exact,
                "why": [dict(x) for x in self.why_data],
                "but": [dict(x) for x in self.but_data]}

    @property
    def value(self) -> float:
        """The chance to win more (the currency of the order), never negative."""
        return max(0.0, self.win.value)

    def summary(self) -> str:
        """The difference in words, the currency of the order first, with how sure; a
        difference within the noise is said to be so, without a figure."""
        w, p = self.win, self.points
        if self.exact:
            if not w.clear and not p.clear:
                return _("exactly as good: the same final scores")
            if w.clear:
                # Translators: a move against another, played to the end: "exactly +5%
                # chance to win, +3 points at the end".
                return _("exactly {win} chance to win, {points} points at the end").format(
                    win=percent_with_sign(w.value), points=with_sign(p.value))
            return _("the same chance to win, exactly {points} points at the end").format(
                points=with_sign(p.value))
        if not w.clear and not p.clear:
            return _("about as good: the difference is within the noise")
        # Translators: a move against another: "+5% chance to win (± 2%)".
        win = (_("{win} chance to win (± {se})").format(win=percent_with_sign(w.value),
                                                       se=percent(w.se)) if w.clear
               else _("about as likely to win (within the noise)"))
        # Translators: a move against another: "+2.5 points at the end (± 0.8)".
        points = (_("{points} points at the end (± {se})").format(points=with_sign(p.value, 1),
                                                                  se=number(p.se, 1))
                  if p.clear else _("about the same points (within the noise)"))
        # Translators: the chance to win and the points of a comparison, one after the other.
        return _("{win}, {points}").format(win=win, points=points)

    def text(self) -> str:
        """One paragraph in words (no notation: the moves as the decision says them): which
        is better, by how much, why, and what speaks for the other."""
        best = self.best_words or str(self.best)
        other = self.other_words or str(self.other)
        # Translators: the coach's comparison of two moves, each in words ("Take the
        # warrior 7 rather than take the hunter: +5% chance to win (± 2%), ...").
        out = _("{best} rather than {other}: {summary}.").format(
            best=best, other=other[:1].lower() + other[1:], summary=self.summary())
        if self.why:
            # Translators: the reasons for the coach's move, after its comparison.
            out += _(" Why: {reasons}.").format(reasons=join_reasons(self.why))
        if self.but:
            # Translators: what speaks for the other move, after the reasons.
            out += _(" But: {reasons}.").format(reasons=join_reasons(self.but))
        return out


@dataclass
class Judgement:
    """Every option of a decision, judged from the deciding seat's knowledge."""

    player: int
    kind: str
    level: str
    seed: int
    iterations: int
    """The search's iterations (0: exact, or a forced move)."""
    playouts: int
    """Paired games per option."""
    seconds: float
    options: list[OptionJudgement]
    """The options in the one order: the recommended first."""
    win: list[float]
    """Each player's chance to win after the recommended move (they sum to 1)."""
    expected: list[float]
    """Each player's expected final score after the recommended move."""
    exact: bool = False
    """Every option was played to the end by enumeration: nothing hidden or random left."""
    key: str = ""
    """The position as the seat knows it, and the level (:func:`knowledge_key`)."""
    words: dict[str, str] = field(default_factory=dict)
    """Each legal move in words, as its decision says it to the deciding seat (notation
    to words: :meth:`say`)."""
    _samples: dict[Action, list[Sample]] = field(default_factory=dict, repr=False)
    _stats: dict[Action, Stats] = field(default_factory=dict, repr=False)
    _index: dict[Action, OptionJudgement] = field(default_factory=dict, repr=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> Judgement:
        """A judgement is shared by every surface and never changed once made, so a copy is
        itself: pandas deep-copies a frame's ``attrs`` (What-if's judgement) at every
        operation on it, which took seconds per table with the samples copied."""
        return self

    @property
    def best(self) -> Action:
        return self.options[0].action

    @property
    def about_best(self) -> list[OptionJudgement]:
        """The options about as good as the recommended move (it first): always the first
        options of the order."""
        return [o for o in self.options if o.about_best]

    @property
    def next_best(self) -> OptionJudgement | None:
        """The option the Hint compares the recommended move with: the first after the
        moves about as good (the runner-up when every option is about as good; None when
        there is one option)."""
        if len(self.options) < 2:
            return None
        return next((o for o in self.options[1:] if not o.about_best), self.options[1])

    @property
    def actions(self) -> list[OptionJudgement]:
        """The options (the name the search's analysis used)."""
        return self.options

    @property
    def continuation(self) -> list[tuple[int, Action]]:
        """The best move, then the search's most visited line after it."""
        return [(self.player, self.best), *self.options[0].continuation]

    def option(self, action: Action | str) -> OptionJudgement:
        """The option a legal move belongs to (an equivalent move gives its option)."""
        if isinstance(action, Action) and action in self._index:
            return self._index[action]
        key = str(action)
        for a, o in self._index.items():
            if str(a) == key:
                return o
        raise KeyError(f"{key!r} is not a legal action here")

    stats = option

    def say(self, action: Action | str) -> str:
        """A move in words for a learner ("Bid 0 on the Laughing Goblin, ..."): the
        decision's own sentence (:meth:`nidavellir.rules.base.Choice.say`); its notation
        where none was recorded."""
        return self.words.get(str(action)) or str(action)

    def rank(self, action: Action | str) -> int:
        """The place of a move's option in the order (1: the recommended)."""
        return self.options.index(self.option(action)) + 1

    def compare(self, other: Action | str | None = None) -> Comparison:
        """The best move against ``other`` (default: the next best move,
        :attr:`next_best`), with the reason why; ``other`` is named as given (an
        equivalent move as the player chose it, not the move that stands for its option)."""
        o = self.next_best if other is None else self.option(other)
        if o is None:
            raise ValueError("there is no other option to compare with")
        if o is self.options[0]:
            raise ValueError(f"{o.action} is the best move: compare it with another")
        named = o.action if other is None else self._option_action(other)
        return compare_options(self, self.options[0], o, named)

    def gaps(self, a: OptionJudgement | Action | str, b: OptionJudgement | Action | str
             ) -> tuple[Difference, Difference]:
        """Option ``a``'s chance to win and expected points less option ``b``'s, each a
        paired difference on the judgement's games with its standard error (0 when
        exact): the figures :mod:`.judge_order` compares."""
        oa = a if isinstance(a, OptionJudgement) else self.option(a)
        ob = b if isinstance(b, OptionJudgement) else self.option(b)
        out = []
        for figure in ("win", "score"):
            d = difference(part(self._stats.get(oa.action), self._samples[oa.action], figure),
                           part(self._stats.get(ob.action), self._samples[ob.action], figure))
            if self.exact:
                d.se = 0.0
            out.append(d)
        return out[0], out[1]

    def _option_action(self, action: Action | str) -> Action:
        """The legal move ``action`` names (one of an option's moves)."""
        if isinstance(action, Action):
            return action
        return next(a for a in self._index if str(a) == str(action))

    def headline(self) -> str:
        """The Hint in one line: the recommended move, or the moves about as good."""
        best = self.options[0]
        if self.exact:
            # Translators: the hint's best move, exactly judged ({move} is notation:
            # "take B (exact: 41% to win, 286 points)").
            return _("{move} (exact: {estimate})").format(move=best.action,
                                                          estimate=win_text(best, True))
        same = self.about_best
        if len(same) > 1:
            moves = ", ".join(str(o.action) for o in same[:6])
            if len(same) > 6:
                # Translators: a list of moves in notation cut after six ("take B, take W3
                # and 13 more").
                moves = count(len(same) - 6, "{moves} and {n} more", "{moves} and {n} more",
                              moves=moves)
            # Translators: the hint's headline when several moves are about as good;
            # {moves} and {move} are notation ("take M2, take W3"), {n} is at least 2.
            return count(len(same), "these {n} are about equally good: {moves} "
                         "(first: {move}, {estimate})",
                         "these {n} are about equally good: {moves} "
                         "(first: {move}, {estimate})",
                         moves=moves, move=best.action, estimate=win_text(best))
        return f"{best.action} ({win_text(best)})"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "player": self.player, "kind": self.kind, "level": self.level, "seed": self.seed,
            "iterations": self.iterations, "playouts": self.playouts, "exact": self.exact,
            "seconds": round(self.seconds, 3), "best": str(self.best),
            "about_best": [str(o.action) for o in self.about_best],
            "options": [o.to_dict() for o in self.options],
            "win": [round(w, 4) for w in self.win],
            "expected": [round(e, 2) for e in self.expected],
            "continuation": [[p, str(a)] for p, a in self.continuation]}
        if len(self.options) > 1:
            out["reason"] = self.compare().text()
        else:
            out["reason"] = _("the only legal move")
        return out


# ====================================================================== the reason why

def join_reasons(reasons: list[str]) -> str:
    """The coach's reasons one after the other, as the language separates them (French
    puts a narrow no-break space before «;»)."""
    out = reasons[0] if reasons else ""
    for reason in reasons[1:]:
        # Translators: two of the coach's reasons one after the other ("your warriors
        # +2.5 points; your miners -1.0 points"); French: a narrow no-break space before ;.
        out = _("{first}; {second}").format(first=out, second=reason)
    return out


def held_reason(verb: str, card: str, exact: bool, for_it: bool, share_a: float,
                 share_b: float) -> str:
    """A reason of the coach about a distinction held or a hero recruited at the end of
    the games played out (``verb``: "holds" or "recruits"), whole sentences per case."""
    share, instead = (share_a, share_b) if for_it else (share_b, share_a)
    # A distinction takes its article in a sentence ({card:acc}: «die Hand des Königs»);
    # anything else is named as it is.
    values = {"card": card if isinstance(card, Phrase) else Phrase(card),
              "share": percent(share), "instead": percent(instead)}
    if verb == "holds":
        if exact:
            # Translators: {card:acc} is the distinction with its article in the accusative.
            text = (_("it holds {card:acc} in the end") if for_it
                    else _("the other move holds {card:acc} in the end"))
        else:
            # Translators: a reason of the coach, "it holds King's Hand in 60% of the games
            # played out, instead of 20%".
            text = (_("it holds {card:acc} in {share} of the games played out, instead of "
                      "{instead}") if for_it
                    else _("the other move holds {card:acc} in {share} of the games played "
                           "out, instead of {instead}"))
    elif exact:
        text = (_("it recruits {card} in the end") if for_it
                else _("the other move recruits {card} in the end"))
    else:
        text = (_("it recruits {card} in {share} of the games played out, instead of "
                  "{instead}") if for_it
                else _("the other move recruits {card} in {share} of the games played out, "
                       "instead of {instead}"))
    return text.format(**values)


def reason_words(item: Mapping[str, Any]) -> str:
    """One of the coach's reasons, kept as data (:attr:`Comparison.why_data`), in the
    current language: a category's points (``{"line": "warriors", "points": 2.5}``), the
    other categories' (``{"rest": 1.2}``), a distinction held or a hero recruited at the end
    of the games played out (``{"held": "holds", "card": "Hunting Master", "exact": false,
    "for": true, "share": 0.6, "instead": 0.2}``). ValueError for anything else."""
    if not isinstance(item, Mapping):
        raise ValueError(f"not a reason: {item!r}")
    if "line" in item:
        line = item["line"]
        if not isinstance(line, str) or line not in CATEGORY_LABELS \
                or not _points(item.get("points")):
            raise ValueError(f"not a reason: {dict(item)!r}")
        # Translators: a reason of the coach: "your warriors +2.5 points".
        return _("your {line} {points} points").format(
            line=score_line_in_sentence(CATEGORY_LABELS[line]),
            points=with_sign(float(item["points"]), 1))
    if "rest" in item:
        if not _points(item["rest"]):
            raise ValueError(f"not a reason: {dict(item)!r}")
        return _("the other categories together {points} points").format(
            points=with_sign(float(item["rest"]), 1))
    held, card = item.get("held"), item.get("card")
    if isinstance(held, str) and held in HELD and isinstance(card, str) and card in HELD[held] \
            and isinstance(item.get("exact"), bool) and isinstance(item.get("for"), bool) \
            and _share(item.get("share")) and _share(item.get("instead")):
        share, instead = float(item["share"]), float(item["instead"])
        return held_reason(str(item["held"]), origin(str(item["card"])), item["exact"],
                           item["for"], *((share, instead) if item["for"]
                                          else (instead, share)))
    raise ValueError(f"not a reason: {dict(item)!r}")


def _finite(x: object) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def _points(x: object) -> bool:
    """A difference of points a game can have (its scores are below a thousand)."""
    return _finite(x) and abs(float(x)) < 1000  # type: ignore[arg-type]


def _share(x: object) -> bool:
    return _finite(x) and 0.0 <= float(x) <= 1.0  # type: ignore[arg-type]


#: The cards a "held" reason may name, as the judged games name them
#: (:func:`~nidavellir.bots.paired.sample`): the distinctions, the heroes (a plugin's too).
HELD: dict[str, set[str]] = {"holds": set(), "recruits": set()}


def _index_held(card: C.Card) -> None:
    if card.kind is C.Kind.DISTINCTION:
        HELD["holds"].add(card.name)
    elif card.kind is C.Kind.HERO:
        HELD["recruits"].add(hero_name(card))


C.each_card(_index_held)


def comparison_from_data(data: object, best: Action, other: Action, best_words: str = "",
                         other_words: str = "") -> Comparison:
    """A comparison saved as data (:meth:`Comparison.to_data`), its reasons said in the
    current language. ValueError names what is wrong with the data."""
    if not isinstance(data, Mapping):
        raise ValueError("must be an object")
    figures = []
    for key in ("win", "points"):
        pair = data.get(key)
        if not isinstance(pair, list) or len(pair) != 2 or not all(map(_finite, pair)):
            raise ValueError(f"{key}: must be [value, standard error]")
        figures.append(Difference(float(pair[0]), float(pair[1])))
    if not isinstance(data.get("exact"), bool):
        raise ValueError("exact: must be true or false")
    sides: list[list[dict[str, Any]]] = []
    for key in ("why", "but"):
        items = data.get(key)
        if not isinstance(items, list) or not all(isinstance(x, Mapping) for x in items):
            raise ValueError(f"{key}: must be a list of reasons")
        sides.append([dict(x) for x in items])
    return Comparison(best=best, other=other, win=figures[0], points=figures[1],
                      exact=data["exact"], why=[reason_words(x) for x in sides[0]],
                      but=[reason_words(x) for x in sides[1]], best_words=best_words,
                      other_words=other_words, why_data=sides[0], but_data=sides[1])


#: At most this many reasons for, and against, in a comparison.
MOST_REASONS = 3


def compare_options(judgement: Judgement, best: OptionJudgement, other: OptionJudgement,
                    named: Action | None = None) -> Comparison:
    """The recommended option against ``other`` on the judgement's paired games;
    ``named``: the move of ``other`` the comparison names (default: the one that stands
    for it)."""
    named = other.action if named is None else named
    sa = judgement._samples[best.action]
    sb = judgement._samples[other.action]
    st_a, st_b = judgement._stats.get(best.action), judgement._stats.get(other.action)

    def gap(figure: str) -> Difference:
        return difference(part(st_a, sa, figure), part(st_b, sb, figure))

    exact = judgement.exact
    win = gap("win")
    points = gap("score")
    if exact:
        win.se = points.se = 0.0
    if not win.clear and not points.clear:
        # About as good: no reason is given for a difference the noise explains.
        return Comparison(best=best.action, other=named, win=win, points=points,
                          exact=exact, why=[], but=[],
                          best_words=judgement.say(best.action),
                          other_words=judgement.say(named))
    why: list[dict[str, Any]] = []
    but: list[dict[str, Any]] = []
    if points.clear:
        # Where the points come from: the categories whose paired difference is beyond
        # the noise, largest first, and the others together, so that the figures add up to
        # the headline's points.
        listed = 0.0
        lines = []
        for cat in CATEGORIES:
            d = gap(cat)
            if exact:
                d.se = 0.0
            # A figure that reads "+0.0 points" says nothing and sides with nobody: only
            # differences beyond the noise that show in the one decimal written.
            if d.clear and round(d.value, 1) != 0:
                lines.append((d.value, cat))
                listed += d.value
        if lines:
            for value, cat in sorted(lines, key=lambda x: -abs(x[0])):
                (why if value > 0 else but).append({"line": cat, "points": value})
            rest = points.value - listed
            if round(rest, 1) != 0:
                (why if rest > 0 else but).append({"rest": rest})
    # Distinctions and heroes held at the end of the judged games (the engine's outcome of
    # those games: the cards the player owns when they end).
    held_lines: list[tuple[float, dict[str, Any]]] = []
    holders: tuple[tuple[str, Callable[[Sample], frozenset[str]]], ...] = (
        ("holds", lambda s: s.distinctions), ("recruits", lambda s: s.heroes))
    for verb, held in holders:
        for x in sorted({x for s in sa + sb for x in held(s)}):
            d = paired([float(x in held(s)) for s in sa], [float(x in held(s)) for s in sb])
            if exact:
                d.se = 0.0
            if not d.clear:
                continue
            share_a = sum(x in held(s) for s in sa) / len(sa)
            share_b = share_a - d.value
            # The other move is named as such, never in notation (its words open the
            # sentence: Comparison.text). "share": the share of the side the reason is for.
            for_it = d.value > 0
            held_lines.append((d.value, {
                "held": verb, "card": x, "exact": exact, "for": for_it,
                "share": share_a if for_it else share_b,
                "instead": share_b if for_it else share_a}))
    held_lines.sort(key=lambda x: -abs(x[0]))
    why += [t for v, t in held_lines if v > 0][:MOST_REASONS]
    but += [t for v, t in held_lines if v < 0][:MOST_REASONS]
    return Comparison(best=best.action, other=named, win=win, points=points,
                      exact=exact, why=[reason_words(x) for x in why],
                      but=[reason_words(x) for x in but],
                      best_words=judgement.say(best.action),
                      other_words=judgement.say(named), why_data=why, but_data=but)


__all__ = ["MOST_REASONS", "Comparison", "Judgement", "OptionJudgement", "compare_options",
           "comparison_from_data", "held_reason", "join_reasons", "percent", "reason_words",
           "win_text"]
