"""Thingvellir's 12 artifacts, one entry each: what taking one does, how it scores, and its
outlook for a learner (FR Thingvellir "Les cartes Artefact"; R10, R14, R16-R21).

>>> from nidavellir import cards as C
>>> ARTIFACTS[C.SVALINN].text()
'Artifact: 5 points at the end for each hero you own.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .. import cards as C
from .. import coins as K
from ..cards import Card, Suit
from ..i18n import N_, _, count
from ..names import class_in_sentence
from ..state import PlayerState
from .army import LINE_WORTH, army_discard_options
from .base import Table
from .cardrules import CardRules, ScoreLine, ScoreView, enter
from .decisions import ArmyDiscard, BrisingamensChoice, Vidofnir
from .heroes import RECRUIT, HeroChoice
from .thingvellir import discard_exchange_coin

_ARTIFACTS = "FR Thingvellir \"Les cartes Artefact\""


class ArtifactRules(CardRules):
    """An artifact goes to the command zone; its immediate effect follows.

    ``worth`` (the bots' quick estimate of the points it brings by the end, see
    :meth:`CardRules.worth`) is its score-pad value with what the player owns today, plus
    what it is likely to add before the end; a card with no points of its own is worth what
    its effect buys (``flat``)."""

    flat = 4.0

    def worth(self, p: PlayerState) -> float:
        return float(self.card.points) if self.card.points else self.flat

    def on_gain(self, table: Table, p: PlayerState) -> None:
        p.command_zone.append(self.card)
        self.effect(table, p)

    def effect(self, table: Table, p: PlayerState) -> None:
        """What taking the artifact does at once."""


class Vegvisir(ArtifactRules):
    def on_gain(self, table: Table, p: PlayerState) -> None:
        table.place(p, self.card, Suit.EXPLORER)

    def outlook(self, p: PlayerState) -> str:
        # Translators: what a card will be worth (Vegvisir's outlook, beside its button).
        return _("an explorer rank worth {bravery} points, now").format(
            bravery=self.card.bravery_points)


class Draupnir(ArtifactRules):
    def worth(self, p: PlayerState) -> float:
        # One more coin of 15 or more is likely before the end.
        n = sum(1 for c in p.coins() if K.value(c) >= C.DRAUPNIR_MIN_COIN)
        return float(C.DRAUPNIR_POINTS * (n + 1))

    def score(self, view: ScoreView) -> Sequence[ScoreLine]:
        big = sum(1 for v in view.coins if v >= C.DRAUPNIR_MIN_COIN)
        words = count(big, "Draupnir: {n} coin of {least} or more",
                      "Draupnir: {n} coins of {least} or more",
                      least=C.DRAUPNIR_MIN_COIN) if view.words else ""
        return (("artifacts", words, C.DRAUPNIR_POINTS * big),)

    def outlook(self, p: PlayerState) -> str:
        n = sum(1 for c in p.coins() if K.value(c) >= C.DRAUPNIR_MIN_COIN)
        return count(n, "{points} points per coin of {least} or more at the end: +{total} with "
                        "your {n} such coin today",
                     "{points} points per coin of {least} or more at the end: +{total} with "
                        "your {n} such coins today",
                     points=C.DRAUPNIR_POINTS, least=C.DRAUPNIR_MIN_COIN,
                     total=C.DRAUPNIR_POINTS * n)


class Svalinn(ArtifactRules):
    def worth(self, p: PlayerState) -> float:
        # Heroes keep coming: count one more than today.
        return float(C.SVALINN_POINTS_PER_HERO * (p.heroes + 1))

    def score(self, view: ScoreView) -> Sequence[ScoreLine]:
        heroes = view.heroes
        words = count(heroes, "Svalinn: {n} hero", "Svalinn: {n} heroes") if view.words else ""
        return (("artifacts", words, C.SVALINN_POINTS_PER_HERO * heroes),)

    def outlook(self, p: PlayerState) -> str:
        n = p.heroes
        return count(n, "{points} points per hero at the end: +{total} with your {n} hero today",
                     "{points} points per hero at the end: +{total} with your {n} heroes today",
                     points=C.SVALINN_POINTS_PER_HERO, total=C.SVALINN_POINTS_PER_HERO * n)


class Megingjord(ArtifactRules):
    def worth(self, p: PlayerState) -> float:
        # 28 points, less the hero a later line would have recruited.
        return float(self.card.points) - LINE_WORTH

    def outlook(self, p: PlayerState) -> str:
        return _("+{points} at the end; from now on completed lines recruit no hero").format(
            points=self.card.points)


class VidofnirVedrfolnir(ArtifactRules):
    flat = 6.0  # +2 and +3 on two coins, and stronger bids with them

    def effect(self, table: Table, p: PlayerState) -> None:
        table.push(Vidofnir(p.seat))


class Brisingamens(ArtifactRules):
    flat = 6.0  # two cards of the discard, less a card of the army at the end

    def effect(self, table: Table, p: PlayerState) -> None:
        table.push(BrisingamensChoice(p.seat))


class Mjollnir(ArtifactRules):
    def worth(self, p: PlayerState) -> float:
        # The best class grows by a few ranks before the end.
        return float(C.MJOLLNIR_POINTS_PER_RANK * (max(p.ranks) + 2))

    def score(self, view: ScoreView) -> Sequence[ScoreLine]:
        # (No lambda over ``view``: mypyc cannot compile a closure in this class's methods.)
        best = max(C.SUITS, key=view.ranks.__getitem__)
        words = count(view.ranks[best], "Mjöllnir: {n} {card_class} rank",
                      "Mjöllnir: {n} {card_class} ranks",
                      card_class=class_in_sentence(best)) if view.words else ""
        return (("artifacts", words, C.MJOLLNIR_POINTS_PER_RANK * view.ranks[best]),)

    def outlook(self, p: PlayerState) -> str:
        best = max(p.ranks)
        return count(best, "{points} points per rank of your best class at the end: +{total} "
                           "with {n} rank today",
                     "{points} points per rank of your best class at the end: +{total} "
                           "with {n} ranks today",
                     points=C.MJOLLNIR_POINTS_PER_RANK, total=C.MJOLLNIR_POINTS_PER_RANK * best)


class Hofud(ArtifactRules):
    flat = 3.0  # no points of its own: it costs the others a warrior

    def effect(self, table: Table, p: PlayerState) -> None:
        s = table.state
        seat = p.seat
        others = [q for q in s.players[seat + 1:] + s.players[:seat]
                  if army_discard_options(q, Suit.WARRIOR)]
        table.push(*[ArmyDiscard(q.seat, "Höfud", Suit.WARRIOR) for q in others])


class Hrafnsmerki(ArtifactRules):
    def worth(self, p: PlayerState) -> float:
        n = len([c for c in p.cards() if c.kind is C.Kind.MERCENARY])
        return float(C.HRAFNSMERKI_POINTS_PER_MERCENARY * (n + 1))

    def score(self, view: ScoreView) -> Sequence[ScoreLine]:
        mercs = view.mercenaries
        words = count(mercs, "Hrafnsmerki: {n} mercenary",
                      "Hrafnsmerki: {n} mercenaries") if view.words else ""
        return (("artifacts", words, C.HRAFNSMERKI_POINTS_PER_MERCENARY * mercs),)

    def outlook(self, p: PlayerState) -> str:
        n = sum(1 for c in p.cards() if c.kind is C.Kind.MERCENARY)
        return count(n, "{points} points per mercenary at the end: +{total} with your {n} "
                        "mercenary today",
                     "{points} points per mercenary at the end: +{total} with your {n} "
                        "mercenaries today",
                     points=C.HRAFNSMERKI_POINTS_PER_MERCENARY,
                     total=C.HRAFNSMERKI_POINTS_PER_MERCENARY * n)


class Jarnglofi(ArtifactRules):
    def worth(self, p: PlayerState) -> float:
        # 24 points, less the trades the exchange coin would have made.
        return float(self.card.points) - 6.0

    def effect(self, table: Table, p: PlayerState) -> None:
        discard_exchange_coin(table, p)

    def outlook(self, p: PlayerState) -> str:
        return _("+{points} at the end; your exchange coin is discarded now").format(
            points=self.card.points)


class Gjallarhorn(ArtifactRules):
    def worth(self, p: PlayerState) -> float:
        return LINE_WORTH  # a hero now

    def effect(self, table: Table, p: PlayerState) -> None:
        # A hero now, whatever the lines, even with Megingjord (FR "GJALLARHORN").
        table.push(HeroChoice(p.seat, "Gjallarhorn"), RECRUIT[p.seat])


_ENTRIES: tuple[ArtifactRules, ...] = (
    ArtifactRules(C.FAFNIR_BALEYGR, N_("Artifact: when the highest bidder of a tavern did not go "
                  "to the camp, you may take a camp card on your turn instead of a tavern "
                  "card."), f"{_ARTIFACTS}, FAFNIR BÅLEYGR; R18, R19"),
    Draupnir(C.DRAUPNIR, N_("Artifact: {per_coin} points at the end for each of your coins "
             "worth {min_coin} or more."), f"{_ARTIFACTS}, DRAUPNIR",
             per_coin=C.DRAUPNIR_POINTS, min_coin=C.DRAUPNIR_MIN_COIN),
    Vegvisir(C.VEGVISIR, N_("Artifact that goes in your explorer column: {ranks} rank worth "
             "{bravery} points (it may complete a line)."), f"{_ARTIFACTS}, VEGVISIR"),
    Svalinn(C.SVALINN, N_("Artifact: {per_hero} points at the end for each hero you own."),
            f"{_ARTIFACTS}, SVALINN", per_hero=C.SVALINN_POINTS_PER_HERO),
    Megingjord(C.MEGINGJORD, N_("Artifact: {points} points at the end, but you can no longer recruit "
               "heroes by completing lines (Gjallarhorn still can)."),
               f"{_ARTIFACTS}, MEGINGJÖRD"),
    VidofnirVedrfolnir(C.VIDOFNIR_VEDRFOLNIR, N_("Artifact: at once, transform the two coins of "
                       "your purse, one by +{small} and the other by +{large} (by +{single} if "
                       "the other one is your exchange coin), in the order you choose."),
                       f"{_ARTIFACTS}, VIDOFNIR & VEDRFÖLNIR; p.11; R21",
                       small=C.VIDOFNIR_BONUSES[0], large=C.VIDOFNIR_BONUSES[1],
                       single=C.VIDOFNIR_SINGLE_BONUS),
    Brisingamens(C.BRISINGAMENS, N_("Artifact: at once, take two cards of the discard (dwarves "
                 "go in your army, offerings transform coins); at the end of age 2 you must "
                 "discard one card of your army that is not a hero."),
                 f"{_ARTIFACTS}, BRISINGAMENS; R14, R16, R17"),
    Mjollnir(C.MJOLLNIR, N_("Artifact: {per_rank} points at the end per rank of the class you "
             "choose (your best column)."), f"{_ARTIFACTS}, MJÖLLNIR",
             per_rank=C.MJOLLNIR_POINTS_PER_RANK),
    Hofud(C.HOFUD, N_("Artifact: at once, every other player discards a warrior of their army "
          "(not a hero)."), f"{_ARTIFACTS}, HÖFUD; R16"),
    Hrafnsmerki(C.HRAFNSMERKI, N_("Artifact: {per_mercenary} points at the end for each "
                "mercenary you own."), f"{_ARTIFACTS}, HRAFNSMERKI",
                per_mercenary=C.HRAFNSMERKI_POINTS_PER_MERCENARY),
    Jarnglofi(C.JARNGLOFI, N_("Artifact: {points} points at the end, but your exchange coin "
              "({exchange} or special {hunter}) is discarded at once; if it lay on a tavern not "
              "yet resolved you take no card there."), f"{_ARTIFACTS}, JÁRNGLÓFI; R20",
              exchange=C.EXCHANGE_COIN_VALUE, hunter=C.HUNTER_COIN_VALUE),
    Gjallarhorn(C.GJALLARHORN, N_("Artifact: recruit a hero at once, whatever your lines (even "
                "with Megingjord); the next hero needs more lines than heroes as usual."),
                f"{_ARTIFACTS}, GJALLARHORN; R10"),
)

#: Every artifact's entry, by card.
ARTIFACTS: Final[dict[Card, ArtifactRules]] = {e.card: e for e in _ENTRIES}
for _entry in _ENTRIES:
    enter(_entry)

__all__ = ["ARTIFACTS", "ArtifactRules"]
