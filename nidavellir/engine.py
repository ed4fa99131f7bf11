"""The rules engine: a stack of steps that runs until a player must decide.

The state holds ``tasks``, a stack of plain tuples. ``advance`` pops and runs
automatic steps (dealing, reveal, ordering, trades, gem exchange, distinctions,
scoring) until the top task is a decision; ``apply`` checks an action against that
decision's legal actions, runs it, and advances again. Each rule cites the
rulebook (FR = shared/seeds/003_..., section headings) or a ruling (R<n>).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import cards as C
from . import coins as K
from . import events as ev
from .actions import Action
from .cards import Card, Kind, Suit
from .errors import IllegalAction
from .rules import heroes as heroes_rules
from .rules import taverns as tavern_rules
from .rules import thingvellir as tv
from .scoring import PlayerTable, score_table
from .state import GameState, PlayerState, Task

W, H, M, B, E = C.SUITS


@dataclass(frozen=True)
class Decision:
    """Who must decide what now."""

    player: int
    kind: str
    prompt: str
    task: Task


class Engine:
    """Runs the rules on a GameState; holds the event list of the game."""

    def __init__(self, state: GameState, events: list[ev.Event] | None = None,
                 quiet: bool = False) -> None:
        self.state = state
        self.events: list[ev.Event] = events if events is not None else []
        self.quiet = quiet
        """No events at all (search playouts, which never read them)."""
        self._legal: list[Action] | None = None
        self._legal_set: frozenset[Action] | None = None

    # ------------------------------------------------------------------ helpers

    def emit(self, cls: Callable[..., ev.Event], **kw: Any) -> None:
        if self.quiet:
            return
        s = self.state
        self.events.append(cls(s.age, s.round, s.tavern, **kw))

    def push(self, *tasks: Task) -> None:
        """Push tasks so that the first one given runs first."""
        self.state.tasks.extend(reversed(tasks))

    def jarika(self, p: PlayerState) -> int:
        return C.JARIKA_BONUS if C.JARIKA in p.command_zone else 0

    # ------------------------------------------------------------------ decisions

    @property
    def decision(self) -> Decision | None:
        s = self.state
        if s.over or not s.tasks:
            return None
        task = s.tasks[-1]
        return Decision(player=task[1], kind=task[0], prompt=self._prompt(task), task=task)

    def _prompt(self, task: Task) -> str:
        """The decision in words; {tavern}, {bonus}, {reason} and {age} come from the task."""
        kind = task[0]
        fields: dict[str, object] = {"age": self.state.age}
        if kind in ("uline_bid", "pick", "tavern_discard"):
            fields["tavern"] = C.TAVERNS[task[2]]
        elif kind in ("transform", "discard"):
            fields["bonus"], fields["reason"] = task[2], task[3]
        elif kind == "army_discard":
            fields["reason"] = task[2]
        elif kind == "hero":
            fields["reason"] = task[2] if len(task) > 2 else "You completed a line"
        return _PROMPTS.get(kind, str(kind)).format(**fields)

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            d = self.state.tasks[-1] if self.state.tasks and not self.state.over else None
            self._legal = [] if d is None else _LEGAL[d[0]](self, d)
        return self._legal

    def is_legal(self, action: Action) -> bool:
        if self._legal_set is None:
            self._legal_set = frozenset(self.legal_actions())
        return action in self._legal_set

    def apply(self, action: Action, check: bool = True) -> None:
        """Run a decision; ``check=False`` is for actions taken from legal_actions()."""
        s = self.state
        if s.over:
            raise IllegalAction("the game is over")
        task = s.tasks[-1]
        if check and not self.is_legal(action):
            raise IllegalAction(self.why_illegal(task, action))
        s.tasks.pop()
        self._legal = None
        self._legal_set = None
        _APPLY[task[0]](self, task, action)
        self.advance()

    def why_illegal(self, task: Task, action: Action) -> str:
        kind = task[0]
        expected = _VERBS[kind]
        if action.verb not in expected:
            return (f"the decision is {kind!r} ({self._prompt(task)}): expected "
                    f"{' or '.join(expected)}, not {action.verb!r}")
        return _WHY.get(kind, _why_generic)(self, task, action)

    # ------------------------------------------------------------------ the loop

    def advance(self) -> None:
        s = self.state
        tasks = s.tasks
        self._legal = None
        self._legal_set = None
        while tasks and not s.over:
            name = tasks[-1][0]
            if name in _LEGAL:
                # A decision whose every option is moot is skipped (e.g. Dagda with
                # fewer discardable columns than expected after Thrud moved).
                if self.legal_actions():
                    return
                tasks.pop()
                self._legal = None
                continue
            task = tasks.pop()
            _AUTO[name](self, task)
        self._legal = None
        self._legal_set = None

    # ------------------------------------------------------------------ placing cards

    def place(self, p: PlayerState, card: Card, suit: Suit, then: Task | None = None) -> None:
        """Put a card on top of a column (FR "Placer une carte Nain·e dans son armée").

        Thrud is never covered: she is lifted, the card goes in, and she is placed
        again before the recruitment loop runs (R13). ``then`` (Dagda's / Bonfur's
        discards, R10) runs first: the hero's effect comes before Thrud's re-placement
        (DE "Führe zuerst diesen Effekt aus"), so Thrud cannot block a required discard.
        """
        col = p.army[suit]
        thrud_lifted = bool(col) and col[-1] is C.THRUD and card is not C.THRUD
        if thrud_lifted:
            p.remove_from_column(C.THRUD, suit)
            p.held.append(C.THRUD)
        p.add_to_column(card, suit)
        s = self.state
        if not self.quiet:
            self.events.append(ev.CardPlaced(s.age, s.round, s.tavern, p.seat, card, suit))
        # Runs in this order: ``then``, Thrud's re-placement, the recruitment loop. When
        # nothing comes first and no recruit is due, the loop has nothing to do (R12).
        if then is None and not thrud_lifted and not heroes_rules.recruit_due(p):
            return
        tasks = s.tasks
        tasks.append(("recruit", p.seat))
        if thrud_lifted:
            tasks.append(("thrud", p.seat))
        if then is not None:
            tasks.append(then)

    def discard_card(self, card: Card, player: int | None, reason: str) -> None:
        self.state.discard.append(card)
        self.emit(ev.CardDiscarded, player=player, card=card, reason=reason)

    # ------------------------------------------------------------------ coins

    def coin_places(self, p: PlayerState) -> list[tuple[str, int]]:
        """(place, coin) for every coin the player owns."""
        out = [("hand", c) for c in p.hand]
        out += [(f"T{i + 1}", c) for i, c in enumerate(p.bids) if c is not None]
        out += [("purse", c) for c in p.purse]
        return out

    def transform(self, p: PlayerState, label: str, place: str, bonus: int, reason: str) -> None:
        """Transform a coin where it lies (FR "Transformer une pièce"; R6)."""
        if place == "hand":
            where: list[int | None] | list[int] = p.hand
            coin = K.find(p.hand, label)
        elif place == "purse":
            where = p.purse
            coin = K.find(p.purse, label)
        else:
            where = p.bids
            coin = p.bids[int(place[1]) - 1]
        assert coin is not None and not K.is_exchange(coin)
        new = self.state.treasury.exchange(coin, K.value(coin) + bonus)
        if new is not None:
            where[where.index(coin)] = new
        self.emit(ev.CoinTransformed, player=p.seat, old=K.label(coin),
                  new=K.label(new if new is not None else coin), place=place, reason=reason)

    def trade(self, p: PlayerState, pool: list[int], a: int, b: int) -> None:
        """Trade two coins of ``pool`` for one of their sum (FR "Échanger des pièces"; R7)."""
        give, _keep = K.trade_pair(a, b, discard_lower=p.zolkur)
        # Zolkur goes back to the command zone after this one trade (FR "ZOLKUR").
        p.zolkur = False
        new = self.state.treasury.exchange(give, K.value(a) + K.value(b) + self.jarika(p))
        if new is not None:
            pool[pool.index(give)] = new
        self.emit(ev.CoinTraded, player=p.seat, coins=(K.label(a), K.label(b)),
                  given_up=K.label(give), new=K.label(new if new is not None else give))

    # ------------------------------------------------------------------ scoring view

    def final_tables(self) -> list[PlayerTable]:
        s = self.state
        tables = []
        for p, name in zip(s.players, s.config.names, strict=True):
            army = {suit: list(p.army[suit]) for suit in C.SUITS}
            cz = list(p.command_zone) + list(p.held)
            tables.append(PlayerTable(name=name, army=army, command_zone=cz,
                                      coins=[K.value(c) for c in p.coins()], gem=p.gem))
        return tables


# ====================================================================== legal actions

_ACTIONS: dict[tuple[str, tuple[object, ...]], Action] = {}


def _action(verb: str, args: tuple[object, ...]) -> Action:
    """One shared Action object per (verb, args): legal-action lists are rebuilt at every
    decision, and most of their actions were seen before."""
    key = (verb, args)
    found = _ACTIONS.get(key)
    if found is None:
        found = _ACTIONS[key] = Action(verb, args)
    return found


_BID_CACHE: dict[tuple[int, ...], list[Action]] = {}


def _legal_bid(eng: Engine, task: Task) -> list[Action]:
    """Every way to put 3 of the hand's coins on the taverns (at most 60), cached by
    hand: hands repeat a lot."""
    p = eng.state.players[task[1]]
    key = tuple(sorted(p.hand))
    cached = _BID_CACHE.get(key)
    if cached is None:
        labels = [K.label(c) for c in key]
        seen = dict.fromkeys(itertools.permutations(labels, 3))
        cached = [_action("bid", combo) for combo in seen]
        _BID_CACHE[key] = cached
    return cached


def _legal_uline_bid(eng: Engine, task: Task) -> list[Action]:
    p = eng.state.players[task[1]]
    return [_action("place", (lab,)) for lab in dict.fromkeys(K.label(c) for c in sorted(p.hand))]


_TAKE: dict[Card, Action] = {c: Action("take", (c,)) for c in C.ALL_CARDS}


def _legal_pick(eng: Engine, task: Task) -> list[Action]:
    s = eng.state
    actions = [_TAKE[c] for c in dict.fromkeys(s.taverns[task[2]])]
    if s.camp and tv.may_visit_camp(s, s.players[task[1]]):
        actions += [_action("camp", (c,)) for c in dict.fromkeys(s.camp)]
    return actions


def _legal_hero(eng: Engine, task: Task) -> list[Action]:
    p = eng.state.players[task[1]]
    return [_action("hero", (h,)) for h in eng.state.hall if heroes_rules.eligible(p, h)]


def _legal_column(verb: str) -> Callable[[Engine, Task], list[Action]]:
    actions = [Action(verb, (suit,)) for suit in C.SUITS]
    return lambda eng, task: actions


def _legal_transform(eng: Engine, task: Task) -> list[Action]:
    p = eng.state.players[task[1]]
    places = sorted(eng.coin_places(p), key=lambda pc: pc[1])
    if len(task) > 4 and task[4] == "lowest":
        places = tv.lowest_coins(p, places)
    out = dict.fromkeys(_action("transform", (K.label(c), place))
                        for place, c in places if not K.is_exchange(c))
    return list(out)


def _legal_discard(eng: Engine, task: Task) -> list[Action]:
    p = eng.state.players[task[1]]
    excluded = task[4]
    return [Action("discard", (suit,)) for suit in heroes_rules.discardable_columns(p)
            if suit not in excluded]


def _legal_pioneer(eng: Engine, task: Task) -> list[Action]:
    return [Action("keep", (c,)) for c in dict.fromkeys(eng.state.drawn)]


def _legal_uline_trade(eng: Engine, task: Task) -> list[Action]:
    p = eng.state.players[task[1]]
    labels = sorted((K.label(c) for c in p.hand), key=lambda lab: (int(lab.rstrip("*")), lab))
    pairs = dict.fromkeys(itertools.combinations(labels, 2))
    return [Action("trade", pair) for pair in pairs]


def _legal_tavern_discard(eng: Engine, task: Task) -> list[Action]:
    return [Action("drop", (c,)) for c in dict.fromkeys(eng.state.taverns[task[2]])]


def _legal_mercenary_order(eng: Engine, task: Task) -> list[Action]:
    return [Action("enlist", ("first",)), Action("enlist", ("last",))]


def _legal_mercenary(eng: Engine, task: Task) -> list[Action]:
    """Every unplaced mercenary, or only ``task[2]`` when one card must be placed at once
    (Holda's pick at the end of an age, R22)."""
    p = eng.state.players[task[1]]
    mercs = [task[2]] if len(task) > 2 else dict.fromkeys(tv.unplaced_mercenaries(p))
    return [Action("enlist", (m, suit)) for m in mercs for suit, _ in m.sides]


def _legal_olwyn(eng: Engine, task: Task) -> list[Action]:
    return [Action("double", (suit,)) for suit in C.SUITS if suit not in task[2]]


def _legal_andumia(eng: Engine, task: Task) -> list[Action]:
    return [Action("choose", (c,)) for c in dict.fromkeys(eng.state.discard)]


def _legal_holda(eng: Engine, task: Task) -> list[Action]:
    return [Action("choose", (c,)) for c in dict.fromkeys(eng.state.camp)]


def _legal_brisingamens(eng: Engine, task: Task) -> list[Action]:
    s = eng.state
    taken = task[3]
    if not s.discard and not taken:
        return []
    return [Action("choose", (c,)) for c in dict.fromkeys(s.discard)] + [Action("skip")]


def _legal_army_discard(eng: Engine, task: Task) -> list[Action]:
    p = eng.state.players[task[1]]
    return [Action("remove", (c, suit)) for c, suit in tv.army_discard_options(p, task[3])]


def _legal_vidofnir(eng: Engine, task: Task) -> list[Action]:
    p = eng.state.players[task[1]]
    return [Action("vidofnir", tuple(f"{lab}+{bonus}" for lab, bonus in option))
            for option in tv.vidofnir_options(p)]


_LEGAL: dict[str, Callable[[Engine, Task], list[Action]]] = {
    "bid": _legal_bid,
    "uline_bid": _legal_uline_bid,
    "pick": _legal_pick,
    "hero": _legal_hero,
    "thrud": _legal_column("thrud"),
    "ylud": _legal_column("ylud"),
    "transform": _legal_transform,
    "discard": _legal_discard,
    "pioneer": _legal_pioneer,
    "uline_trade": _legal_uline_trade,
    "tavern_discard": _legal_tavern_discard,
    "mercenary_order": _legal_mercenary_order,
    "mercenary": _legal_mercenary,
    "olwyn": _legal_olwyn,
    "andumia": _legal_andumia,
    "holda": _legal_holda,
    "brisingamens": _legal_brisingamens,
    "army_discard": _legal_army_discard,
    "vidofnir": _legal_vidofnir,
}

_PROMPTS: dict[str, str] = {
    "bid": "Bid: put one coin on each tavern, the other two go to your purse",
    "uline_bid": "Uline: put a coin of your hand face up on the {tavern}",
    "pick": "Take a card from the {tavern}",
    "hero": "{reason}: recruit a hero",
    "thrud": "Place Thrud in a column of your choice",
    "ylud": "End of age {age}: place Ylud in a column",
    "transform": "{reason}: choose a coin to transform by +{bonus}",
    "discard": "{reason}: discard the top card of another column",
    "pioneer": "Pioneer of the Kingdom: keep one of the three cards drawn",
    "uline_trade": "Uline: choose two coins of your hand to trade",
    "tavern_discard": "You visited the camp: discard one of the cards of the {tavern}",
    "mercenary_order": "Enlistment: you have the most mercenaries; place them first or last?",
    "mercenary": "Enlistment: place a mercenary in one of its two classes",
    "olwyn": "Olwyn: place one of his doubles (two different columns)",
    "andumia": "Andumia: keep one card of the discard",
    "holda": "Holda: take a mercenary or an artifact from the camp",
    "brisingamens": "Brisingamens: take a card from the discard (or skip)",
    "army_discard": "{reason}: discard a card from your army",
    "vidofnir": "Vidofnir & Vedrfölnir: transform your purse coins (+2 and +3)",
}

_VERBS: dict[str, tuple[str, ...]] = {
    "bid": ("bid",), "uline_bid": ("place",), "pick": ("take", "camp"), "hero": ("hero",),
    "thrud": ("thrud",), "ylud": ("ylud",), "transform": ("transform",),
    "discard": ("discard",), "pioneer": ("keep",), "uline_trade": ("trade",),
    "tavern_discard": ("drop",), "mercenary_order": ("enlist",), "mercenary": ("enlist",),
    "olwyn": ("double",), "andumia": ("choose",), "holda": ("choose",),
    "brisingamens": ("choose", "skip"), "army_discard": ("remove",), "vidofnir": ("vidofnir",),
}


# ====================================================================== why illegal

def _why_generic(eng: Engine, task: Task, action: Action) -> str:
    shown = ", ".join(str(a) for a in eng.legal_actions()[:8])
    return f"{action} is not possible now; legal: {shown}"


def _why_bid(eng: Engine, task: Task, action: Action) -> str:
    p = eng.state.players[task[1]]
    hand = sorted(K.label(c) for c in p.hand)
    wanted = [str(a) for a in action.args]
    for lab in wanted:
        if wanted.count(lab) > hand.count(lab):
            return f"you do not have coin {lab} to bid (your coins: {' '.join(hand)})"
    return _why_generic(eng, task, action)


def _why_pick(eng: Engine, task: Task, action: Action) -> str:
    s = eng.state
    tavern = s.taverns[task[2]]
    card = action.args[0]
    if action.verb == "camp":
        if card not in s.camp:
            return f"{card} is not in the camp"
        return ("only the tavern's winner (or the owner of Fafnir Båleygr when the winner "
                "did not) may take a camp card, once per tavern (FR Thingvellir)")
    shown = " ".join(c.token for c in tavern)
    return f"{card} is not in the {C.TAVERNS[task[2]]} (it holds {shown})"


def _why_hero(eng: Engine, task: Task, action: Action) -> str:
    hero = action.args[0]
    assert isinstance(hero, Card)
    if hero not in eng.state.hall:
        return f"{hero.name} is not in the hero hall any more"
    reason = heroes_rules.ineligible_reason(eng.state.players[task[1]], hero)
    return f"{hero.name} cannot be recruited: {reason}" if reason else \
        _why_generic(eng, task, action)


def _why_transform(eng: Engine, task: Task, action: Action) -> str:
    label, place = action.args
    if label in ("0", "3*"):
        return f"coin {label} is an exchange coin: it can never be transformed (FR p.11)"
    return f"you have no coin {label} in {place}"


def _why_discard(eng: Engine, task: Task, action: Action) -> str:
    suit = action.args[0]
    assert isinstance(suit, Suit)
    p = eng.state.players[task[1]]
    if suit in task[4]:
        return f"{task[3]} must discard from another column than {suit.column_name}"
    col = p.army[suit]
    if not col:
        return f"your {suit.column_name} column is empty"
    return f"the top card of your {suit.column_name} column is a hero, which is never discarded (R10)"


_WHY: dict[str, Callable[[Engine, Task, Action], str]] = {
    "bid": _why_bid, "pick": _why_pick, "hero": _why_hero, "transform": _why_transform,
    "discard": _why_discard,
}


# ====================================================================== applying decisions

def _apply_bid(eng: Engine, task: Task, action: Action) -> None:
    p = eng.state.players[task[1]]
    hand = sorted(p.hand)  # the gold coin first where values repeat
    labels = [K.label(c) for c in hand]
    for i, lab in enumerate(action.args):
        j = labels.index(str(lab))
        p.bids[i] = hand.pop(j)
        del labels[j]
    p.purse = hand
    p.hand = []
    eng.emit(ev.BidPlaced, player=p.seat)


def _apply_uline_bid(eng: Engine, task: Task, action: Action) -> None:
    p = eng.state.players[task[1]]
    coin = K.find(p.hand, str(action.args[0]))
    assert coin is not None
    p.hand.remove(coin)
    p.bids[task[2]] = coin


def _apply_pick(eng: Engine, task: Task, action: Action) -> None:
    s = eng.state
    p = s.players[task[1]]
    card = action.args[0]
    assert isinstance(card, Card)
    if action.verb == "camp":
        s.camp.remove(card)
        s.camp_visited = True
        # 2 players: the winner who goes to the camp also discards a tavern card (R19:
        # not the second player with Fafnir).
        if s.config.players == 2 and s.order and s.order[0] == p.seat:
            eng.push(("tavern_discard", p.seat, task[2]))
        take_card(eng, p, card, "camp")
        return
    s.taverns[task[2]].remove(card)
    take_card(eng, p, card, "tavern")


def take_card(eng: Engine, p: PlayerState, card: Card, source: str) -> None:
    """A dwarf goes into the army; a Royal Offering transforms a coin (FR "TOUR DE
    L'ELVALAND ACTIF-VE"), then goes face up to the discard (R2)."""
    s = eng.state
    if not eng.quiet:
        eng.events.append(ev.CardTaken(s.age, s.round, s.tavern, p.seat, card, source))
    kind = card.kind
    if kind is Kind.ROYAL_OFFERING:
        eng.discard_card(card, p.seat, "Royal Offering used")
        eng.push(("transform", p.seat, card.value + eng.jarika(p), card.name))
    elif kind is Kind.MERCENARY:
        # Mercenaries wait in the command zone until enlistment (FR p.24).
        p.command_zone.append(card)
    elif kind is Kind.ARTIFACT:
        tv.take_artifact(eng, p, card)
    elif kind is Kind.OLWYN_DOUBLE:
        p.held.append(card)
        # One double taken on its own (Andumia, Brisingamens): any column.
        eng.push(("olwyn", p.seat, (), 1))
    else:
        assert card.suit is not None
        eng.place(p, card, card.suit)


def _apply_hero(eng: Engine, task: Task, action: Action) -> None:
    s = eng.state
    p = s.players[task[1]]
    hero = action.args[0]
    assert isinstance(hero, Card)
    s.hall.remove(hero)
    p.heroes += 1
    eng.emit(ev.HeroRecruited, player=p.seat, hero=hero)
    heroes_rules.on_recruit(eng, p, hero)


def _apply_thrud(eng: Engine, task: Task, action: Action) -> None:
    p = eng.state.players[task[1]]
    suit = action.args[0]
    assert isinstance(suit, Suit)
    p.held.remove(C.THRUD)
    # Thrud herself never lifts Thrud; the recruitment loop is already on the stack.
    p.add_to_column(C.THRUD, suit)
    eng.emit(ev.CardPlaced, player=p.seat, card=C.THRUD, column=suit)


def _apply_ylud(eng: Engine, task: Task, action: Action) -> None:
    p = eng.state.players[task[1]]
    suit = action.args[0]
    assert isinstance(suit, Suit)
    current = p.column_of(C.YLUD)
    if current is suit:
        # R8: at the end of age 2 she may stay where she is.
        eng.emit(ev.CardPlaced, player=p.seat, card=C.YLUD, column=suit)
        return
    if current is not None:
        p.remove_from_column(C.YLUD, current)
    else:
        p.command_zone.remove(C.YLUD)
    # Marks the recruitments this placement starts (R22: Holda's mercenary is placed at once).
    eng.push(("ylud_placed", p.seat))
    eng.place(p, C.YLUD, suit)


def _apply_transform(eng: Engine, task: Task, action: Action) -> None:
    p = eng.state.players[task[1]]
    label, place = action.args
    eng.transform(p, str(label), str(place), task[2], task[3])


def _apply_discard(eng: Engine, task: Task, action: Action) -> None:
    p = eng.state.players[task[1]]
    suit = action.args[0]
    assert isinstance(suit, Suit)
    card = p.army[suit][-1]
    p.remove_from_column(card, suit)
    eng.discard_card(card, p.seat, task[3])
    remaining = task[2] - 1
    if remaining:
        eng.push(("discard", p.seat, remaining, task[3], task[4] + (suit,)))


def _apply_pioneer(eng: Engine, task: Task, action: Action) -> None:
    s = eng.state
    p = s.players[task[1]]
    card = action.args[0]
    assert isinstance(card, Card)
    s.drawn.remove(card)
    # The other two go back and the age-2 deck is shuffled (FR "Pionnier-ère du Royaume").
    s.decks[2].extend(s.drawn)
    s.drawn = []
    s.rng.shuffle(s.decks[2])
    take_card(eng, p, card, "Pioneer of the Kingdom")


def _apply_uline_trade(eng: Engine, task: Task, action: Action) -> None:
    p = eng.state.players[task[1]]
    a_label, b_label = (str(x) for x in action.args)
    a = K.find(p.hand, a_label)
    assert a is not None
    rest = list(p.hand)
    rest.remove(a)
    b = K.find(rest, b_label)
    assert b is not None
    eng.trade(p, p.hand, a, b)


def _apply_tavern_discard(eng: Engine, task: Task, action: Action) -> None:
    card = action.args[0]
    assert isinstance(card, Card)
    eng.state.taverns[task[2]].remove(card)
    eng.discard_card(card, task[1], "2 players: the camp was visited")


def _apply_mercenary_order(eng: Engine, task: Task, action: Action) -> None:
    order = list(task[2])
    if action.args[0] == "last":
        order = order[1:] + order[:1]
    eng.push(*[("enlist_more", seat) for seat in order])


def _apply_mercenary(eng: Engine, task: Task, action: Action) -> None:
    p = eng.state.players[task[1]]
    merc, suit = action.args
    assert isinstance(merc, Card) and isinstance(suit, Suit)
    p.command_zone.remove(merc)
    if len(task) == 2:  # an enlistment turn goes on until every mercenary is placed
        eng.push(("enlist_more", p.seat))
    eng.place(p, merc, suit)


def _apply_olwyn(eng: Engine, task: Task, action: Action) -> None:
    p = eng.state.players[task[1]]
    suit = action.args[0]
    assert isinstance(suit, Suit)
    p.held.remove(C.OLWYN_DOUBLE)
    # task[3]: doubles this effect still places. Other doubles in ``held`` belong to other
    # effects (a Brisingamens pick waiting to be resolved): they are not counted here.
    if task[3] > 1:
        # Olwyn's second double goes to a different column (FR "OLWYN").
        eng.push(("olwyn", p.seat, task[2] + (suit,), task[3] - 1))
    eng.place(p, C.OLWYN_DOUBLE, suit)


def _apply_andumia(eng: Engine, task: Task, action: Action) -> None:
    _take_from(eng, task, action, eng.state.discard, "Andumia")


def _apply_holda(eng: Engine, task: Task, action: Action) -> None:
    # Not a camp visit: Fafnir's owner may still go (R18).
    _take_from(eng, task, action, eng.state.camp, "Holda")
    card = action.args[0]
    assert isinstance(card, Card)
    if card.kind is Kind.MERCENARY and _placing_at_end_of_age(eng.state, task[1]):
        # R22: when placing Ylud or a mercenary at the end of an age recruits Holda, her
        # mercenary goes into the army at once (FR « Déroulement de la fin de chaque Age »:
        # « placez cette dernière immédiatement dans votre armée »), before the distinctions.
        eng.push(("mercenary", task[1], card))


def _placing_at_end_of_age(s: GameState, seat: int) -> bool:
    """Is ``seat`` in the recruitment chain of an end-of-age placement of Ylud or of a
    mercenary? Their scopes sit below the chain on the task stack."""
    return any(t[0] in ("ylud_placed", "enlist_more") and t[1] == seat for t in s.tasks)


def _take_from(eng: Engine, task: Task, action: Action, pile: list[Card], source: str) -> None:
    card = action.args[0]
    assert isinstance(card, Card)
    pile.remove(card)
    take_card(eng, eng.state.players[task[1]], card, source)


def _apply_brisingamens(eng: Engine, task: Task, action: Action) -> None:
    """Take up to 2 cards of the discard, then resolve them in the order taken (R17)."""
    s = eng.state
    seat, remaining, taken = task[1], task[2], task[3]
    if action.verb == "choose":
        card = action.args[0]
        assert isinstance(card, Card)
        s.discard.remove(card)
        # Held (visible in the player's hand) until every pick is made, then resolved.
        s.players[seat].held.append(card)
        taken = taken + (card,)
        remaining -= 1
        if remaining and s.discard:
            eng.push(("brisingamens", seat, remaining, taken))
            return
    eng.push(*[("resolve_card", seat, card, "Brisingamens") for card in taken])


def _apply_army_discard(eng: Engine, task: Task, action: Action) -> None:
    p = eng.state.players[task[1]]
    card, suit = action.args
    assert isinstance(card, Card) and isinstance(suit, Suit)
    p.remove_from_column(card, suit)
    eng.discard_card(card, p.seat, task[2])


def _apply_vidofnir(eng: Engine, task: Task, action: Action) -> None:
    p = eng.state.players[task[1]]
    place, pool = tv.vidofnir_pool(p)
    steps: list[tuple[int, int]] = []
    used: list[int] = []
    for arg in action.args:
        label, _, plus = str(arg).partition("+")
        index = next(i for i, c in enumerate(pool) if K.label(c) == label and i not in used
                     and not K.is_exchange(c))
        used.append(index)
        steps.append((index, int(plus)))
    for index, bonus in steps:
        coin = pool[index]
        new = eng.state.treasury.exchange(coin, K.value(coin) + bonus + eng.jarika(p))
        if new is not None:
            pool[index] = new
        eng.emit(ev.CoinTransformed, player=p.seat, old=K.label(coin),
                 new=K.label(new if new is not None else coin), place=place,
                 reason="Vidofnir & Vedrfölnir")


_APPLY: dict[str, Callable[[Engine, Task, Action], None]] = {
    "bid": _apply_bid, "uline_bid": _apply_uline_bid, "pick": _apply_pick,
    "hero": _apply_hero, "thrud": _apply_thrud, "ylud": _apply_ylud,
    "transform": _apply_transform, "discard": _apply_discard, "pioneer": _apply_pioneer,
    "uline_trade": _apply_uline_trade, "tavern_discard": _apply_tavern_discard,
    "mercenary_order": _apply_mercenary_order, "mercenary": _apply_mercenary,
    "olwyn": _apply_olwyn, "andumia": _apply_andumia, "holda": _apply_holda,
    "brisingamens": _apply_brisingamens, "army_discard": _apply_army_discard,
    "vidofnir": _apply_vidofnir,
}


# ====================================================================== automatic steps

def _round_start(eng: Engine, task: Task) -> None:
    """FR "Préparation du tour": Enter the Dwarves, then secret bids."""
    s = eng.state
    s.round += 1
    s.tavern = None
    if s.config.thingvellir:
        tv.refill_camp(eng)
    n = s.config.cards_per_tavern
    deck = s.decks[s.age]
    for t in range(3):
        s.taverns[t] = [deck.pop() for _ in range(n)]
    if not eng.quiet:
        eng.emit(ev.RoundStarted, taverns=tuple(tuple(t) for t in s.taverns))
    bidders = [("bid", p.seat) for p in s.players if not p.uline]
    eng.push(*bidders, ("reveal", 0), ("reveal", 1), ("reveal", 2), ("round_end",))


def _reveal(eng: Engine, task: Task) -> None:
    """FR "RÉVÉLATION DE LA MISE"; Uline bids face up after the reveal (FR "ULINE")."""
    s = eng.state
    t = task[1]
    s.tavern = t
    for p in s.players:
        if p.uline and p.bids[t] is None and p.hand:
            eng.push(("uline_bid", p.seat, t), ("order", t))
            return
    eng.push(("order", t))


def _order(eng: Engine, task: Task) -> None:
    s = eng.state
    t = task[1]
    order, ties = tavern_rules.turn_order(s.players, t)
    s.order = order
    s.ties = ties
    s.camp_visited = False
    if not eng.quiet:
        eng.emit(ev.BidsRevealed,
                 bids=tuple((i, K.label(s.players[i].bids[t] or 0)) for i in order),
                 order=tuple(order), ties=tuple(tuple(g) for g in ties))
    # Stacked so that they run pick, (trade), pick, (trade), ..., tavern_end. Only an
    # exchange coin bid here can lead to a trade: transforms never make one (FR p.11).
    tasks = s.tasks
    tasks.append(("tavern_end", t))
    players = s.players
    for i in reversed(order):
        coin = players[i].bids[t]
        if coin is not None and K.is_exchange(coin):
            tasks.append(("trade", i, t))
        tasks.append(("pick", i, t))


def _trade(eng: Engine, task: Task) -> None:
    """After the card and heroes: trade if the bid here is the exchange coin (FR
    "Échanger des pièces"). Uline trades two coins of her hand (FR "ULINE")."""
    s = eng.state
    p = s.players[task[1]]
    coin = p.bids[task[2]]
    if coin is None or not K.is_exchange(coin):
        return
    if p.uline:
        if len(p.hand) > 2:
            eng.push(("uline_trade", p.seat))
        elif len(p.hand) == 2:
            eng.trade(p, p.hand, p.hand[0], p.hand[1])
        return
    if len(p.purse) == 2:
        eng.trade(p, p.purse, p.purse[0], p.purse[1])


def _tavern_end(eng: Engine, task: Task) -> None:
    """Leftover cards are discarded face up; tied bidders exchange gems (FR "ÉCHANGE DE
    GEMMES"; R11)."""
    s = eng.state
    t = task[1]
    for card in s.taverns[t]:
        eng.discard_card(card, None, "left in the tavern")
    s.taverns[t] = []
    swaps = tavern_rules.exchange_gems(s.players, s.ties)
    if swaps:
        eng.emit(ev.GemsExchanged, swaps=tuple(swaps))
    s.order = []
    s.ties = []


def _round_end(eng: Engine, task: Task) -> None:
    """FR "Tour suivant": every coin goes back to its owner's hand."""
    s = eng.state
    for p in s.players:
        p.hand = sorted(p.hand + [c for c in p.bids if c is not None] + p.purse)
        p.bids = [None, None, None]
        p.purse = []
    s.tavern = None
    if s.round < s.config.rounds_per_age:
        eng.push(("round_start",))
    else:
        if s.decks[s.age]:
            raise AssertionError(f"age {s.age} ends with {len(s.decks[s.age])} cards in its deck")
        eng.push(("age_end",))


def _age_end(eng: Engine, task: Task) -> None:
    """End-of-age order (R14): age 1 Ylud then the distinctions; age 2 Ylud, Thrud to
    the command zone, final scoring."""
    s = eng.state
    eng.emit(ev.AgeEnded)
    if s.age == 1:
        eng.push(("enlistment",), ("ylud_step",), *[("distinction", i) for i in range(5)],
                 ("clear_camp",), ("start_age", 2))
    else:
        # R22: mercenaries gained after the enlistment step of age 2 are enlisted at once.
        eng.push(("enlistment",), ("ylud_step",), ("enlistment",), ("thrud_leaves",),
                 ("brisingamens_end",), ("game_end",))


def _ylud_step(eng: Engine, task: Task) -> None:
    """FR "YLUD L'IMPRÉVISIBLE": placed at the end of each age; may move at the end of
    age 2 (R8)."""
    for p in eng.state.players:
        if C.YLUD in p.command_zone or p.column_of(C.YLUD) is not None:
            eng.push(("ylud", p.seat))


def _distinction(eng: Engine, task: Task) -> None:
    """Troop evaluation (FR "Fin de l'Age 1"): strict majority of ranks (R23)."""
    s = eng.state
    i = task[1]
    card = C.DISTINCTIONS[i]
    suit = C.SUITS[i]
    ranks = [p.ranks[suit] for p in s.players]
    best = max(ranks)
    winners = [p for p, r in zip(s.players, ranks, strict=True) if r == best]
    if len(winners) != 1:
        eng.emit(ev.DistinctionAwarded, distinction=card, player=None, ranks=tuple(ranks))
        if card is C.PIONEER_OF_THE_KINGDOM:
            top = s.decks[2].pop()
            if s.config.options.pioneer_tie_to_box:
                s.box.append(top)
            else:
                eng.discard_card(top, None, "Pioneer of the Kingdom: nobody won it (R3)")
        return
    p = winners[0]
    p.command_zone.append(card)
    eng.emit(ev.DistinctionAwarded, distinction=card, player=p.seat, ranks=tuple(ranks))
    if card is C.KINGS_HAND:
        eng.push(("transform", p.seat, C.KINGS_HAND_BONUS + eng.jarika(p), card.name))
    elif card is C.HUNTING_MASTER:
        if K.EXCHANGE_COIN in p.hand:
            p.hand.remove(K.EXCHANGE_COIN)
            p.hand.append(K.HUNTER_COIN)
            p.hand.sort()
            eng.emit(ev.CoinSwapped, player=p.seat)
    elif card is C.CROWN_JEWELER:
        eng.emit(ev.GemReplaced, player=p.seat, old=p.gem)
        p.gem = C.GEM_6
    elif card is C.KINGS_GREAT_ARMORER:
        eng.place(p, C.SPECIAL_BLACKSMITH, B)
    elif card is C.PIONEER_OF_THE_KINGDOM:
        s.drawn = [s.decks[2].pop() for _ in range(C.PIONEER_DRAW)]
        eng.push(("pioneer", p.seat))


def _start_age(eng: Engine, task: Task) -> None:
    s = eng.state
    s.age = task[1]
    s.round = 0
    eng.push(("round_start",))


def _thrud_leaves(eng: Engine, task: Task) -> None:
    """FR "THRUD": at the end of age 2 she goes to the command zone (13 points)."""
    for p in eng.state.players:
        suit = p.column_of(C.THRUD)
        if suit is not None:
            p.remove_from_column(C.THRUD, suit)
            p.command_zone.append(C.THRUD)


def _game_end(eng: Engine, task: Task) -> None:
    s = eng.state
    s.over = True
    if not eng.quiet:
        sheet = score_table(eng.final_tables(), s.config.options)
        eng.emit(ev.GameEnded, totals=tuple(sheet.totals))


def _recruit(eng: Engine, task: Task) -> None:
    """The recruitment loop (R12): while lines > heroes, recruit one; if no hero is
    eligible the recruit is lost."""
    s = eng.state
    p = s.players[task[1]]
    if heroes_rules.recruit_due(p):
        if any(heroes_rules.eligible(p, h) for h in s.hall):
            eng.push(("hero", p.seat), ("recruit", p.seat))
        else:
            p.lost_recruits += 1
            eng.emit(ev.RecruitSkipped, player=p.seat)
            eng.push(("recruit", p.seat))


def _enlistment(eng: Engine, task: Task) -> None:
    """Mercenary enlistment (FR p.24; R14): most mercenaries first (ties by gem, no
    exchange); that player chooses to go first or last; each places all of theirs."""
    order = tv.enlistment_order(eng.state.players)
    if len(order) > 1:
        eng.push(("mercenary_order", order[0], tuple(order)))
    elif order:
        eng.push(("enlist_more", order[0]))


def _enlist_more(eng: Engine, task: Task) -> None:
    p = eng.state.players[task[1]]
    if tv.unplaced_mercenaries(p):
        eng.push(("mercenary", p.seat))


def _clear_camp(eng: Engine, task: Task) -> None:
    """After the age-1 distinctions the camp is cleared into the camp discard (R14, R15)."""
    s = eng.state
    s.camp_discard.extend(s.camp)
    s.camp_discard.extend(reversed(s.camp_decks[1]))
    s.camp = []
    s.camp_decks[1] = []


def _brisingamens_end(eng: Engine, task: Task) -> None:
    """Brisingamens: at the end of age 2 its owner discards a non-hero card (R14, R16)."""
    for p in eng.state.players:
        if C.BRISINGAMENS in p.command_zone and tv.army_discard_options(p, None):
            eng.push(("army_discard", p.seat, "Brisingamens", None))


def _resolve_card(eng: Engine, task: Task) -> None:
    p = eng.state.players[task[1]]
    p.held.remove(task[2])
    take_card(eng, p, task[2], task[3])


_AUTO: dict[str, Callable[[Engine, Task], None]] = {
    "round_start": _round_start, "reveal": _reveal, "order": _order, "trade": _trade,
    "tavern_end": _tavern_end, "round_end": _round_end, "age_end": _age_end,
    "ylud_step": _ylud_step, "distinction": _distinction, "start_age": _start_age,
    "thrud_leaves": _thrud_leaves, "game_end": _game_end, "recruit": _recruit,
    "enlistment": _enlistment, "enlist_more": _enlist_more, "clear_camp": _clear_camp,
    "brisingamens_end": _brisingamens_end, "resolve_card": _resolve_card,
    "ylud_placed": lambda eng, task: None,
}
