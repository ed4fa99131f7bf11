"""The greedy bot: the best immediate score gain, so a game against the computer is
not silly.

- **pick / hero / any other decision**: every option is tried on a ``game.clone()``;
  the bot's own follow-up decisions (a hero recruited after a completed line, the
  transform of a Royal Offering, Thrud's column, Dagda's discards, ...) are resolved
  greedily one level further, then the bot's score total is compared. A small
  heuristic adds the value that only shows later: ranks in lagging classes bring the
  next line (and hero) closer; Ylud scores when she is placed at the end of the age;
  every Dwerg brother makes the next one worth more. Ties keep the engine's order of
  the legal actions, so the choice is deterministic.
- **bid**: decided from the visible taverns and the bot's own coins only (clone()
  copies the hidden bids, so cloning is not used here): the highest coin goes on the
  tavern holding the best card for the bot, the second on the next, and the exchange
  coin on the least useful tavern, so the two purse coins are traded up.
- **uline_bid**: Uline bids after the reveal: the smallest coin that beats the
  revealed bids on a valuable tavern, else the exchange coin or the lowest coin.
- Decisions with very many options of an unknown kind (a future Thingvellir
  decision) fall back to a seeded random choice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .. import cards as C
from .. import coins as K
from ..actions import Action
from ..cards import Card, Kind, Suit
from ..game import Game
from ..scoring import PlayerTable, own_table, score_player
from .base import legal_actions

#: Decisions a lookahead never resolves: they start a new turn, or (Pioneer of the
#: Kingdom) would show cards drawn from the hidden deck.
TURN_KINDS = frozenset({"bid", "uline_bid", "pick", "pioneer"})
#: Points per rank that brings a class up to the next line (a hero is worth ~10-17).
LINE_WEIGHT = 1.5
#: A completed line recruits a hero: its estimated worth when judging a bid.
HERO_ESTIMATE = 10.0
#: Value that shows only later: Ylud scores when placed at the end of an age (E: 11
#: points, W: 7); each Dwerg brother raises the worth of the next one.
HERO_BONUS: dict[Card, float] = {
    C.YLUD: 8.0,
    **{d: 4.0 for d in C.DWERG_BROTHERS},
}
#: Above this many options (an unknown decision kind), choose at random.
MAX_EVALUATED = 40
#: Follow-up decisions resolved in one lookahead.
MAX_FOLLOW_UPS = 8
def line_potential(ranks: Sequence[int]) -> float:
    """Ranks counted only up to one above the complete lines: progress to the next line."""
    target = min(ranks) + 1
    return LINE_WEIGHT * sum(min(r, target) for r in ranks)


class GreedyBot:
    """Chooses the option with the best immediate score gain (see the module docs)."""

    name = "greedy"

    def __init__(self, seed: int | None = 0, depth: int = 1) -> None:
        self.seed = seed
        self.depth = depth
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed!r})"

    # ------------------------------------------------------------------ choose

    def choose(self, game: Game) -> Action:
        decision = game.decision
        if decision is None:
            raise ValueError("there is no decision to take: the game is over")
        actions = legal_actions(game)
        if len(actions) == 1:
            return actions[0]
        me = decision.player
        if decision.kind == "bid":
            return self.choose_bid(game, me, actions)
        if decision.kind == "uline_bid":
            return self.choose_uline_bid(game, me, actions)
        if len(actions) > MAX_EVALUATED:
            return actions[self.rng.randrange(len(actions))]
        return best_action(game, me, actions, self.depth)

    # ------------------------------------------------------------------ bids

    def tavern_values(self, obs: dict[str, Any], me: int) -> list[float]:
        """The worth for this player of the best card in each tavern (visible cards only)."""
        table, others_warriors = _own_table(obs, me)
        base = _total(table, others_warriors)
        ranks = [obs["players"][me]["ranks"][s.letter] for s in C.SUITS]
        return [max((card_gain(table, others_warriors, base, ranks, C.card(t))
                     for t in tavern), default=0.0)
                for tavern in obs["taverns"]]

    def choose_bid(self, game: Game, me: int, actions: Sequence[Action]) -> Action:
        obs = game.observation(me)
        values = self.tavern_values(obs, me)
        # Most valuable tavern first; on equal worth the earlier tavern.
        order = sorted(range(len(values)), key=lambda t: (-values[t], t))
        hand: list[str] = list(obs["players"][me]["hand"])
        exchange = next((lab for lab in K.EXCHANGE_LABELS if lab in hand), None)
        if exchange is not None:
            hand.remove(exchange)
        hand.sort(key=K.label_value, reverse=True)
        bid: list[str] = ["", "", ""]
        bid[order[0]], bid[order[1]] = hand[0], hand[1]
        bid[order[2]] = exchange if exchange is not None else hand[2]
        action = Action("bid", tuple(bid))
        return action if action in actions else actions[0]

    def choose_uline_bid(self, game: Game, me: int, actions: Sequence[Action]) -> Action:
        obs = game.observation(me)
        t = obs["tavern"]
        value = self.tavern_values(obs, me)[t]
        labels = [str(a.args[0]) for a in actions]
        revealed = [p["bids"][t] for p in obs["players"] if p["seat"] != me]
        best_other = max((K.label_value(b) for b in revealed if b not in (None, "?")), default=-1)
        if value >= HERO_ESTIMATE / 2:
            winning = sorted((lab for lab in labels if K.label_value(lab) > best_other),
                             key=K.label_value)
            if winning:
                return Action("place", (winning[0],))
        low = next((lab for lab in K.EXCHANGE_LABELS if lab in labels), None)
        if low is None:
            low = min(labels, key=K.label_value)
        return Action("place", (low,))


# ---------------------------------------------------------------------- evaluation

def best_action(game: Game, me: int, actions: Sequence[Action], depth: int) -> Action:
    """The option with the highest evaluation; the first in the engine's order on ties."""
    best = actions[0]
    best_value = float("-inf")
    for action in actions:
        v = evaluate(game, action, me, depth)
        if v > best_value:
            best, best_value = action, v
    return best


def evaluate(game: Game, action: Action, me: int, depth: int) -> float:
    """Score total of ``me`` after ``action`` (and, with depth, its follow-ups chosen
    greedily), plus the small heuristics for what counts only later."""
    branch = game.clone()
    branch.apply_fast(action)
    if depth > 0:
        for _ in range(MAX_FOLLOW_UPS):
            d = branch.decision
            if d is None or d.player != me or d.kind in TURN_KINDS:
                break
            options = legal_actions(branch)
            if len(options) == 1 or len(options) > MAX_EVALUATED:
                choice = options[0]
            else:
                choice = best_action(branch, me, options, depth - 1)
            branch.apply_fast(choice)
    value = float(branch.scores()[me].total)
    value += line_potential(branch.state.players[me].ranks)
    if action.verb == "hero":
        hero = action.args[0]
        if isinstance(hero, Card):
            value += HERO_BONUS.get(hero, 0.0)
    return value


def _own_table(obs: dict[str, Any], me: int) -> tuple[PlayerTable, int]:
    """This player's table from the observation, and the best warrior ranks of the others."""
    table = own_table(obs)
    others = max((p["ranks"][Suit.WARRIOR.letter] for p in obs["players"] if p["seat"] != me),
                 default=0)
    return table, others


def _total(table: PlayerTable, others_warriors: int) -> float:
    ranks = table.column_ranks(Suit.WARRIOR)
    breakdown, _ = score_player(table, warrior_bonus=ranks >= 1 and ranks >= others_warriors)
    return float(sum(breakdown.values()))


def card_gain(table: PlayerTable, others_warriors: int, base: float, ranks: Sequence[int],
              card: Card) -> float:
    """Estimated worth of taking ``card``: score gain, line progress, a hero if it completes
    a line. A Royal Offering is worth its coin bonus."""
    if card.kind is Kind.ROYAL_OFFERING:
        return float(card.value)
    if card.suit is None:
        return 0.0
    army = {s: list(col) for s, col in table.army.items()}
    army[card.suit].append(card)
    gain = _total(table.but(army=army), others_warriors) - base
    after = list(ranks)
    after[card.suit] += card.column_value(card.suit)[0]
    gain += line_potential(after) - line_potential(ranks)
    if min(after) > min(ranks):
        gain += HERO_ESTIMATE
    return gain
