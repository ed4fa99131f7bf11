"""Heroes: the recruitment loop, the hero decision, and one entry per hero.

FR "Recruter un·e Héros·ïne", "Capacités des cartes Héros·ïne" (p.14), FR Thingvellir
"Nouveaux Héros"; R4 (Khrad), R10 (Dagda / Bonfur), R12 (the recruitment loop), R13 (Thrud),
R17, R18, R22 (Holda), R21 (Uline).

Each hero's entry (:class:`HeroRules`) holds everything about that hero: its text and
source, why it may not be recruited, what recruiting it does, how it scores, and its
outlook for a learner. Adding a hero means its card in :mod:`nidavellir.cards` and its
entry here (plus, for a new kind of decision, its class beside the entry).

>>> from nidavellir import cards as C
>>> HEROES[C.HOURYA].source
'FR p.14 "Capacités des cartes Héros·ïne", HOURYA'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from .. import cards as C
from .. import coins as K
from .. import events as ev
from ..actions import CARD, Action, Syntax, interned
from ..cards import Card, Kind, Suit
from ..i18n import N_, _, count, pgettext
from ..names import card_name, class_with_article
from ..plugins import registers
from ..state import PlayerState
from .army import discardable_count, recruit_due
from .base import Choice, DecisionKind, Step, Table
from .cardrules import CardRules, Mark, ScoreLine, ScoreView, enter
from .controls import Control, HeroHall
from .decisions import (
    AndumiaChoice,
    ColumnDiscard,
    HoldaChoice,
    OlwynDouble,
    ThrudColumn,
    Transform,
    card_words,
)

_HEROES = "FR p.14 \"Capacités des cartes Héros·ïne\""
_TV_HEROES = "FR Thingvellir \"Capacités des cartes Héros-ïne\""


# ====================================================================== the recruitment loop

@dataclass(frozen=True, slots=True)
class HeroChoice(Choice):
    """Recruit a hero of the hall that ``player`` may recruit (FR "Recruter un·e
    Héros·ïne"); ``reason`` says what brought the recruit (a line, Gjallarhorn)."""

    reason: str = ev.LINE_COMPLETED
    kind: ClassVar[DecisionKind] = DecisionKind.HERO
    verbs: ClassVar[Mapping[str, Syntax]] = {"hero": CARD}
    group: ClassVar[str] = "heroes"
    control: ClassVar[Control] = HeroHall()
    tells_options: ClassVar[bool] = True

    def has_options(self, table: Table) -> bool:
        # Any hero without a condition in the hall can be recruited.
        return any(h not in _CONDITIONAL for h in table.state.hall)

    def legal(self, table: Table) -> list[Action]:
        p = table.state.players[self.player]
        return [HERO_ACTIONS[h] for h in table.state.hall if eligible(p, h)]

    def apply(self, table: Table, action: Action) -> None:
        s = table.state
        p = s.players[self.player]
        hero = action.args[0]
        assert isinstance(hero, Card)
        s.hall.remove(hero)
        p.heroes += 1
        if not table.quiet:
            table.emit(ev.HeroRecruited, player=p.seat, hero=hero)
        # The recruitment loop waits below on the stack and re-checks the lines afterwards.
        HEROES[hero].on_gain(table, p)

    def prompt(self, table: Table) -> str:
        # Translators: {reason} says what brought the recruit (a line, Gjallarhorn).
        return _("{reason}: recruit a hero").format(reason=ev.origin(self.reason))

    def why_illegal(self, table: Table, action: Action) -> str:
        hero = action.args[0]
        assert isinstance(hero, Card)
        if hero not in table.state.hall:
            return _("{hero} is not in the hero hall any more").format(hero=card_name(hero))
        reason = ineligible_reason(table.state.players[self.player], hero)
        if reason:
            return _("{hero} cannot be recruited: {reason}").format(hero=card_name(hero),
                                                                    reason=reason)
        return Choice.why_illegal(self, table, action)

    @classmethod
    def label(cls, action: Action) -> str:
        # Translators: a button: recruit this hero.
        return pgettext("button", "recruit")

    def say(self, table: Table, action: Action) -> str:
        hero = action.args[0]
        assert isinstance(hero, Card)
        return _("Recruit {hero}").format(hero=card_words(hero))


@dataclass(frozen=True, slots=True)
class Recruit(Step):
    """The recruitment loop (R12): while lines > heroes, recruit one; if no hero is
    eligible the recruit is lost (it comes back only when lines increase again)."""

    seat: int

    def run(self, table: Table) -> None:
        s = table.state
        p = s.players[self.seat]
        if recruit_due(p):
            if any(eligible(p, h) for h in s.hall):
                table.push(HERO_CHOICE[p.seat], RECRUIT[p.seat])
            else:
                p.lost_recruits += 1
                table.emit(ev.RecruitSkipped, player=p.seat)
                table.push(RECRUIT[p.seat])


#: One shared step per seat (steps are immutable values; the loop runs after every card),
#: and one hero choice per seat for a line's recruit.
RECRUIT: Final[tuple[Recruit, ...]] = tuple(Recruit(seat) for seat in C.SEATS)
HERO_CHOICE: Final[tuple[HeroChoice, ...]] = tuple(HeroChoice(seat) for seat in C.SEATS)


def ineligible_reason(p: PlayerState, hero: Card) -> str | None:
    """Why a hero cannot be recruited now, or None when it can."""
    return HEROES[hero].ineligible(p)


def eligible(p: PlayerState, hero: Card) -> bool:
    # A hero without a condition needs no question (the playouts ask at every hero choice);
    # an entry that writes its condition answers without a sentence, one that writes only
    # ``ineligible`` (a plugin's, written before ``eligible`` was) by its sentence's absence.
    asks = _CONDITIONAL.get(hero)
    if asks is None:
        return True
    return HEROES[hero].eligible(p) if asks else HEROES[hero].ineligible(p) is None


# ====================================================================== entries

class HeroRules(CardRules):
    """A hero: a class hero goes on its column (``discard_first``: Dagda's and Bonfur's
    discards come before Thrud's re-placement, DE "Führe zuerst diesen Effekt aus"), a
    neutral hero to the command zone (then its ``effect``)."""

    def on_gain(self, table: Table, p: PlayerState) -> None:
        card = self.card
        if card.suit is not None:
            table.place(p, card, card.suit, self.discard_first(p.seat))
            return
        p.command_zone.append(card)
        self.effect(table, p)

    def discard_first(self, seat: int) -> Choice | None:
        return None

    def effect(self, table: Table, p: PlayerState) -> None:
        """What recruiting a neutral hero does at once."""

    def eligible(self, p: PlayerState) -> bool:
        """Whether ``p`` may recruit the hero now: its condition (R10, Hourya's explorers),
        what the legal actions and the playouts ask, no sentence built. Always, unless the
        hero writes one."""
        return True

    def refusal(self, p: PlayerState) -> str:
        """Why ``p`` may not recruit the hero now (where :meth:`eligible` says no), in the
        reader's language; a hero with a condition says it."""
        return _("its condition is not met now (see its card)")

    def ineligible(self, p: PlayerState) -> str | None:
        """Why ``p`` cannot recruit the hero now, or None: :meth:`refusal` where
        :meth:`eligible` says no."""
        return None if self.eligible(p) else self.refusal(p)


class Dagda(HeroRules):
    def eligible(self, p: PlayerState) -> bool:
        return discardable_count(p, Suit.HUNTER) >= 2

    def refusal(self, p: PlayerState) -> str:
        n = discardable_count(p, Suit.HUNTER)
        # Translators: why Dagda cannot be recruited; {n} is 0 or 1.
        return count(n, "Dagda must discard the top card of 2 other columns, and you have "
                        "only {n} column whose top card is not a hero (R10)",
                     "Dagda must discard the top card of 2 other columns, and you have "
                     "only {n} columns whose top card is not a hero (R10)")

    def discard_first(self, seat: int) -> Choice | None:
        return ColumnDiscard(seat, 2, "Dagda", (Suit.HUNTER,))


class Bonfur(HeroRules):
    def eligible(self, p: PlayerState) -> bool:
        return discardable_count(p, Suit.BLACKSMITH) >= 1

    def refusal(self, p: PlayerState) -> str:
        return _("Bonfur must discard the top card of another column, and none of "
                 "yours has a non-hero card on top (R10)")

    def discard_first(self, seat: int) -> Choice | None:
        return ColumnDiscard(seat, 1, "Bonfur", (Suit.BLACKSMITH,))


class Hourya(HeroRules):
    def eligible(self, p: PlayerState) -> bool:
        return p.ranks[Suit.EXPLORER] >= C.HOURYA_REQUIRED_EXPLORER_RANKS

    def refusal(self, p: PlayerState) -> str:
        return _("Hourya needs {needed} explorer ranks (you have {n})").format(
            needed=C.HOURYA_REQUIRED_EXPLORER_RANKS, n=p.ranks[Suit.EXPLORER])


class Idunn(HeroRules):
    def score(self, view: ScoreView) -> Sequence[ScoreLine]:
        ranks = view.ranks[Suit.EXPLORER]
        words = count(ranks, "Idunn: +{bonus} × {n} explorer rank",
                      "Idunn: +{bonus} × {n} explorer ranks",
                      bonus=C.IDUNN_BONUS_PER_RANK) if view.words else ""
        return (("explorers", words, C.IDUNN_BONUS_PER_RANK * ranks),)

    def outlook(self, p: PlayerState) -> str:
        ranks = p.ranks[Suit.EXPLORER] + 1
        return count(ranks, "{bravery} + {per_rank} per explorer rank at the end: +{total} "
                            "with {n} explorer rank once she is in",
                     "{bravery} + {per_rank} per explorer rank at the end: +{total} with {n} "
                            "explorer ranks once she is in",
                     bravery=self.card.bravery_points, per_rank=C.IDUNN_BONUS_PER_RANK,
                     total=self.card.bravery_points + C.IDUNN_BONUS_PER_RANK * ranks)


#: The Dwerg brothers, each one card (a command zone holds each at most once).
_BROTHERS: Final = frozenset(C.DWERG_BROTHERS)


class Dwerg(HeroRules):
    """One of the five brothers: together they score by how many (``C.DWERG_POINTS``)."""

    score_order = 0  # the brothers' line comes first among the heroes

    def score(self, view: ScoreView) -> Sequence[ScoreLine]:
        owned = [c for c in view.owned if c in _BROTHERS]  # in the order owned
        if owned[0] is not self.card:  # one line for all the brothers, on the first one
            return ()
        words = count(len(owned), "Dwerg brothers: {n} recruited",
                      "Dwerg brothers: {n} recruited") if view.words else ""
        return (("heroes", words, C.DWERG_POINTS[len(owned)]),)

    def worth(self, p: PlayerState) -> float:
        return float(self._gain(p)[1])

    def outlook(self, p: PlayerState) -> str:
        owned, gain = self._gain(p)
        if owned == 0:
            return _("the first of the five brothers you recruit: +{gain} at the end").format(
                gain=gain)
        return count(owned, "with your {n} brother already recruited, this one adds +{gain} at "
                            "the end",
                     "with your {n} brothers already recruited, this one adds +{gain} at "
                            "the end", gain=gain)

    @staticmethod
    def _gain(p: PlayerState) -> tuple[int, int]:
        """(brothers ``p`` owns, the points one more adds)."""
        owned = len(_BROTHERS.intersection(p.command_zone))  # each brother is one card
        return owned, C.DWERG_POINTS[min(owned + 1, 5)] - C.DWERG_POINTS[owned]


class Astrid(HeroRules):
    def score(self, view: ScoreView) -> Sequence[ScoreLine]:
        top = view.top_coin
        words = _("Astrid: the highest coin, {coin}").format(coin=top) if view.words else ""
        return (("heroes", words, top),)

    def worth(self, p: PlayerState) -> float:
        coins = p.coins()  # coin codes sort by value
        return float(K.value(max(coins))) if coins else 0.0

    def outlook(self, p: PlayerState) -> str:
        high = int(self.worth(p))
        return _("scores your highest coin at the end: +{high} with your coin {high} "
                 "today").format(high=high)


class Grid(HeroRules):
    def effect(self, table: Table, p: PlayerState) -> None:
        table.push(Transform(p.seat, C.GRID_BONUS + table.jarika(p), "Grid"))


class Uline(HeroRules):
    def effect(self, table: Table, p: PlayerState) -> None:
        # Purse coins and face-down bids on taverns not yet revealed go back to her hand;
        # from now on (she stays in the command zone) she bids after each reveal.
        current = table.state.tavern
        p.hand.extend(p.purse)
        p.purse = []
        for t in C.TAVERN_INDICES:
            coin = p.bids[t]
            if coin is not None and (current is None or t > current):
                p.hand.append(coin)
                p.bids[t] = None
        p.hand.sort()


class Ylud(HeroRules):
    def outlook(self, p: PlayerState) -> str:
        top = max(Suit, key=lambda s: C.YLUD_BRAVERY[s])
        # Translators: Ylud's outlook; {a_class} is "a warrior".
        return _("placed in a column at the end of each age: up to +{points} points (as "
                 "{a_class}), and her rank may complete a line").format(
            points=C.YLUD_BRAVERY[top], a_class=class_with_article(top))


class Thrud(HeroRules):
    def on_gain(self, table: Table, p: PlayerState) -> None:
        # Placed at once in any column (R13).
        p.held.append(self.card)
        table.push(ThrudColumn(p.seat))

    def score(self, view: ScoreView) -> Sequence[ScoreLine]:
        return (("heroes", "Thrud", C.THRUD_POINTS),)

    def outlook(self, p: PlayerState) -> str:
        return _("placed in a column now (her rank counts); +{points} at the end, when she "
                 "goes to your command zone").format(points=C.THRUD_POINTS)


class Andumia(HeroRules):
    def effect(self, table: Table, p: PlayerState) -> None:
        table.push(AndumiaChoice(p.seat))


class Holda(HeroRules):
    def effect(self, table: Table, p: PlayerState) -> None:
        table.push(HoldaChoice(p.seat))


class Khrad(HeroRules):
    def effect(self, table: Table, p: PlayerState) -> None:
        table.push(Transform(p.seat, C.KHRAD_BONUS + table.jarika(p), "Khrad", lowest=True))


class Olwyn(HeroRules):
    def effect(self, table: Table, p: PlayerState) -> None:
        p.held.extend([C.OLWYN_DOUBLE] * C.OLWYN_DOUBLE_COUNT)
        table.push(OlwynDouble(p.seat, (), C.OLWYN_DOUBLE_COUNT))


class Zolkur(HeroRules):
    # He lies on the purse until the next trade, which gives up the lower coin
    # (:func:`nidavellir.rules.coinage.trade` spends the mark).
    mark = Mark()

    def effect(self, table: Table, p: PlayerState) -> None:
        p.marks[self.card] = True


_DWERG_TEXT = N_("One of the five Dwerg brothers, kept in your command zone. Together they "
                 "score {one}, {two}, {three}, {four} or {five} points for 1 to {brothers} "
                 "brothers.")
_DWERG_FACTS = dict(zip(("one", "two", "three", "four", "five"), C.DWERG_POINTS[1:], strict=True),
                    brothers=len(C.DWERG_BROTHERS))

_ENTRIES: tuple[HeroRules, ...] = (
    # ------------------------------------------------------------------ class heroes
    HeroRules(C.KRAAL, N_("Warrior hero: goes in your warrior column with {ranks} ranks, worth "
              "{bravery1} and {bravery2} bravery points."), f"{_HEROES}, KRAAL"),
    HeroRules(C.TARAH, N_("Warrior hero: goes in your warrior column with {ranks} rank worth "
              "{bravery} bravery points."), f"{_HEROES}, TARAH"),
    HeroRules(C.ARAL, N_("Hunter hero: goes in your hunter column with {ranks} ranks (hunters "
              "score ranks squared)."), f"{_HEROES}, ARAL"),
    Dagda(C.DAGDA, N_("Hunter hero with {ranks} ranks. When you recruit her, discard the top card "
          "of two other columns (two different columns, never a hero). She cannot be recruited "
          "if you cannot discard two such cards."), f"{_HEROES}, DAGDA; R10, R16"),
    HeroRules(C.AEGUR, N_("Blacksmith hero: goes in your blacksmith column with {ranks} ranks."),
              f"{_HEROES}, AËGUR"),
    Bonfur(C.BONFUR, N_("Blacksmith hero with {ranks} ranks. When you recruit him, discard the top "
           "card of one other column (never a hero). He cannot be recruited if no such card "
           "exists."), f"{_HEROES}, BONFUR; R10, R16"),
    HeroRules(C.ZORAL, N_("Miner hero: {ranks} ranks in your miner column worth {bravery1}, "
              "{bravery2} and {bravery3} points (miners score their points times their "
              "ranks)."), f"{_HEROES}, ZORAL"),
    HeroRules(C.LOKDUR, N_("Miner hero: {ranks} rank in your miner column worth {bravery} points."),
              f"{_HEROES}, LOKDUR"),
    Hourya(C.HOURYA, N_("Explorer hero: {ranks} rank worth {bravery} points in your explorer "
           "column. You may only recruit her with {needed} explorer ranks already in your army "
           "(Thrud and Ylud count there)."), f"{_HEROES}, HOURYA",
           needed=C.HOURYA_REQUIRED_EXPLORER_RANKS),
    Idunn(C.IDUNN, N_("Explorer hero: {ranks} rank in your explorer column worth {bravery} points "
          "plus {per_rank} per explorer rank at the end (hers included)."), f"{_HEROES}, IDUNN",
          per_rank=C.IDUNN_BONUS_PER_RANK),
    # ------------------------------------------------------------------ neutral heroes
    *(Dwerg(b, _DWERG_TEXT, f"{_HEROES}, DWERG", **_DWERG_FACTS) for b in C.DWERG_BROTHERS),
    HeroRules(C.SKAA, N_("Neutral hero: {points} points at the end of the game."),
              f"{_HEROES}, SKAA"),
    Astrid(C.ASTRID, N_("Neutral hero: at the end she scores the value of your highest coin."),
           f"{_HEROES}, ASTRID"),
    Grid(C.GRID, N_("Neutral hero: {points} points at the end, and when you recruit her you "
         "transform one of your coins by +{bonus} at once."), f"{_HEROES}, GRID; p.11",
         bonus=C.GRID_BONUS),
    Uline(C.ULINE, N_("Neutral hero: {points} points at the end. From now on you keep your coins "
          "in hand and put one face up on each tavern only after the others' bids are "
          "revealed; your trades take coins from your hand."), f"{_HEROES}, ULINE; R21"),
    Ylud(C.YLUD, N_("Neutral hero who joins your army: right after the last tavern of each age "
         "(before the distinctions of age 1 and before the final count) you place her in any "
         "column, where she counts as a dwarf of that class: {warrior} points as a warrior, "
         "{explorer} as an explorer, {miner} as a miner, a rank as a hunter or blacksmith. At "
         "the end of age 2 she may move."), f"{_HEROES}, YLUD; R8, R14",
         warrior=C.YLUD_BRAVERY[Suit.WARRIOR], explorer=C.YLUD_BRAVERY[Suit.EXPLORER],
         miner=C.YLUD_BRAVERY[Suit.MINER]),
    Thrud(C.THRUD, N_("Neutral hero placed in a column of your choice, where her rank counts. She "
          "is never covered: when a card goes on her column she is lifted and placed again "
          "(same or another column). At the end of age 2 she goes to your command zone and "
          "scores {points} points."), f"{_HEROES}, THRUD; R13, R14", points=C.THRUD_POINTS),
    # ------------------------------------------------------------------ Thingvellir heroes
    Andumia(C.ANDUMIA, N_("Thingvellir hero: {points} points at the end. When you recruit her, "
            "look through the discard and keep one card: a dwarf goes in your army, a Royal "
            "Offering transforms a coin."), f"{_TV_HEROES}, ANDUMIA; R17"),
    Holda(C.HOLDA, N_("Thingvellir hero: {points} points at the end. When you recruit her, take a "
          "mercenary or an artifact from the camp (this is not a camp visit for Fafnir "
          "Båleygr)."), f"{_TV_HEROES}, HOLDA; R17, R18, R22"),
    Khrad(C.KHRAD, N_("Thingvellir hero: {points} points at the end. When you recruit him, your "
          "lowest coin (not the exchange coin) is transformed by +{bonus}."),
          f"{_TV_HEROES}, KHRAD; R4", bonus=C.KHRAD_BONUS),
    HeroRules(C.JARIKA, N_("Thingvellir hero: {points} points at the end. Every later transform "
              "and trade of yours gets +{bonus} (a +{offering} offering becomes "
              "+{boosted})."), f"{_TV_HEROES}, JARIKA; R6", bonus=C.JARIKA_BONUS,
              offering=C.ROYAL_OFFERING_3.value,
              boosted=C.ROYAL_OFFERING_3.value + C.JARIKA_BONUS),
    Olwyn(C.OLWYN, N_("Thingvellir hero: {points} points at the end. He brings {doubles} doubles "
          "({double_points} points, {double_ranks} rank each) that you place at once in "
          "{doubles} different columns; they count as dwarves of those classes."),
          f"{_TV_HEROES}, OLWYN", doubles=C.OLWYN_DOUBLE_COUNT,
          double_points=C.OLWYN_DOUBLE.bravery_points, double_ranks=C.OLWYN_DOUBLE.ranks),
    Zolkur(C.ZOLKUR, N_("Thingvellir hero: {points} points at the end. He sits on your purse: "
           "your next trade gives up the lower purse coin instead of the higher one."),
           f"{_TV_HEROES}, ZOLKUR; R7, R21"),
)

#: Every hero's entry, by card.
HEROES: Final[dict[Card, HeroRules]] = {}
#: The heroes whose entry may refuse a recruit (the others are always eligible): True
#: where the entry writes its condition (``eligible``), False where it writes only the
#: sentence (``ineligible``).
_CONDITIONAL: Final[dict[Card, bool]] = {}
#: Each hero's recruit action (``hero X``).
HERO_ACTIONS: Final[dict[Card, Action]] = {}


@registers
def add_hero(entry: HeroRules) -> HeroRules:
    """Enter a hero's entry: the lab's own heroes below, a plugin's after its card
    (:func:`nidavellir.cards.add_card`; docs/engine.md, "A plugin")."""
    card = entry.card
    if card.kind is not Kind.HERO or card not in C.HEROES:
        raise ValueError(f"{card.token} is not a hero of the catalogue (add its card first: "
                         "nidavellir.cards.add_card)")
    enter(entry)
    HEROES[card] = entry
    writes_condition = type(entry).eligible is not HeroRules.eligible
    if writes_condition or type(entry).ineligible is not HeroRules.ineligible:
        _CONDITIONAL[card] = writes_condition
    HERO_ACTIONS[card] = interned("hero", (card,))
    return entry


for _entry in _ENTRIES:
    add_hero(_entry)

__all__ = ["HEROES", "RECRUIT", "HeroChoice", "HeroRules", "Recruit", "add_hero", "eligible",
           "ineligible_reason"]
