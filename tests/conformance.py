"""One conformance check for every decision kind (issue 43, item 3; the idea of OpenSpiel's
``random_sim_test``).

For each kind of :data:`nidavellir.rules.base.CHOICES`, positions of it are reached from
seeded games: seeded random games of 2 to 5 players, base game and Thingvellir, and for
every hero a scripted game that recruits it (:func:`scripted.recruit_game`) and plays on,
so a hero's own decisions are reached whatever the seeds do. At each position, for every
legal action:

- the legal actions are distinct, and so are their texts and RL indices; a clone keeps the
  history and the options; every seat's observation tensor has the declared size;
- the text round trip: ``parse_action(str(a)) == a``;
- the record: the game after the action, saved as JSON and reopened, is the same game;
- the RL index round trip (:mod:`nidavellir.integrations.encoding`), and the legal mask;
- the learner's words: the prompt, the button label, the walkthrough phrase (a sentence,
  not the notation), and an action of the kind's verbs that is not legal here is refused
  with a reason, leaving the game as it was;
- the Play tab: the control the decision asks for is built (not the fallback), draws
  every legal action itself (none left to the "Other choices" buttons), and operating it
  for the action submits that action;

and for the position: every bot plays a legal action, and the twin (no-peek) check holds:
a determinization for the deciding seat offers the same decision, actions and words, and
one for any other seat shows that seat the same observation.

tests/test_conformance.py runs it for every kind; tests/test_plugin_hero.py runs it on a
copy of the lab with a made-up hero whose decision is a new kind.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable

from scripted import recruit_game

from nidavellir import Game, parse_action
from nidavellir import cards as C
from nidavellir.bots import make_bot
from nidavellir.errors import IllegalAction
from nidavellir.integrations.encoding import (
    ACTIONS,
    action_at,
    action_index,
    encode,
    legal_mask,
    observation_size,
)
from nidavellir.rules.base import CHOICES
from nidavellir.rules.heroes import HEROES
from widgets.controls import CONTROLS, Context, build_control

TV = (C.THINGVELLIR,)
#: Positions kept per kind.
PER_KIND = 2
#: Bots asked at every position (the search bots with tiny budgets).
BOTS = (("random", {}), ("greedy", {}), ("heuristic", {}), ("montecarlo", {"iterations": 4}),
        ("search", {"iterations": 4}))


def _visit(found: dict[str, list[Game]], game: Game) -> None:
    d = game.decision
    if d is not None:
        kept = found.setdefault(str(d.kind), [])
        if len(kept) < PER_KIND:
            kept.append(game.clone())


def _play_on(found: dict[str, list[Game]], game: Game, seed: int) -> None:
    rng = random.Random(seed)
    while not game.is_over:
        _visit(found, game)
        game.apply(rng.choice(game.legal_actions()))


def collect(kinds: Iterable[str] | None = None) -> dict[str, list[Game]]:
    """Positions of each kind (``kinds``: stop once these have :data:`PER_KIND` each)."""
    wanted = set(CHOICES) if kinds is None else set(kinds)
    found: dict[str, list[Game]] = {}

    def done() -> bool:
        return all(len(found.get(k, ())) >= PER_KIND for k in wanted)

    for hero in HEROES:
        game = recruit_game(hero)
        _visit(found, game)
        game.apply(f"hero {hero.token}")
        _play_on(found, game, seed=len(game.history))
        if done():
            return found
    for seed in range(40):
        for players, exp in ((3, TV), (2, TV), (4, TV), (5, ()), (3, ())):
            _play_on(found, Game.new(players=players, seed=seed, expansions=exp), seed)
        if done():
            break
    return found


def _fingerprint(game: Game) -> object:
    return game.state.fingerprint()


def check_position(game: Game) -> None:
    """Every check of the module docs at one position (AssertionError says which)."""
    d = game.decision
    assert d is not None
    kind, task = str(d.kind), d.task
    cls = type(task)
    where = f"{kind} at decision {len(game.history)} of {game.config.players} players"
    legal = list(game.legal_actions())
    texts = [str(a) for a in legal]
    assert legal, f"{where}: a decision without legal actions"
    assert len(set(legal)) == len(legal) and len(set(texts)) == len(texts), \
        f"{where}: legal actions repeat"
    assert d.prompt and d.prompt == task.prompt(game.engine), where
    # OpenSpiel's checks: a clone keeps the history, the tensor has its declared size.
    copy = game.clone()
    assert copy.history == game.history and copy.legal_actions() == legal, where
    for seat in range(game.config.players):
        assert len(encode(game.observation(seat))) == observation_size(), where
    # The text, the record, the RL index, the words.
    indices = [action_index(a) for a in legal]
    assert len(set(indices)) == len(indices), f"{where}: two actions share an RL index"
    mask = legal_mask(game)
    assert sum(mask) == len(legal) and all(mask[i] for i in indices), where
    for a, text in zip(legal, texts, strict=True):
        assert a.verb in cls.verbs, f"{where}: {text!r} uses a verb its class does not declare"
        assert parse_action(text) == a, f"{where}: {text!r} does not parse back"
        assert action_at(action_index(a)) == text, f"{where}: {text!r} has no RL round trip"
        after = game.clone()
        after.apply(a)
        record = json.loads(json.dumps(after.to_record()))
        assert _fingerprint(Game.from_record(record)) == _fingerprint(after), \
            f"{where}: {text!r}: the record does not reopen the same game"
        said = task.say(game.engine, a)
        assert said and said[0].isupper() and said != text and not said.endswith("."), \
            f"{where}: {text!r} has no sentence for a learner ({said!r})"
        assert cls.label(a).strip(), f"{where}: {text!r} has no button label"
    refused = next((t for t in ACTIONS if t.split()[0] in cls.verbs and t not in texts), None)
    if refused is not None:
        before = _fingerprint(game)
        try:
            game.apply(refused)
        except IllegalAction as exc:
            assert str(exc).strip(), f"{where}: {refused!r} refused without a reason"
        else:
            raise AssertionError(f"{where}: {refused!r} is not legal but was applied")
        assert _fingerprint(game) == before, f"{where}: a refused move changed the game"
    # The Play tab: the control the decision asks for, operated for each action.
    submitted: list[str] = []
    reported: list[str] = []
    ctx = Context(kind=d.kind, player=d.player, actions=legal, obs=game.observation(d.player),
                  submit=submitted.append, report=reported.append, game=None, prompt=d.prompt)
    control = build_control(ctx)
    assert type(control) is CONTROLS[type(cls.control)] and not reported, \
        f"{where}: the {cls.control!r} control did not build: {reported}"
    assert not control.extras, \
        f"{where}: the {cls.control!r} control does not draw {[b.description for b in control.extras]}"
    for a in legal:
        control.choose(a)
    assert submitted == texts, f"{where}: the Play tab submitted {submitted[:5]}…"
    control.close()
    # The bots.
    for name, options in BOTS:
        choice = make_bot(name, seed=1, **options).choose(game)
        assert choice in legal, f"{where}: the {name} bot played {choice}, not a legal action"
    # The twins: nothing the words or the options show depends on what a seat cannot see.
    twin = game.determinize(d.player, seed=7)
    td = twin.decision
    assert td is not None and td.kind == d.kind and td.prompt == d.prompt, where
    assert [str(a) for a in twin.legal_actions()] == texts, f"{where}: the options peek"
    assert [td.task.say(twin.engine, a) for a in twin.legal_actions()] == \
        [task.say(game.engine, a) for a in legal], f"{where}: the words peek"
    assert twin.observation(d.player) == game.observation(d.player), where
    for seat in range(game.config.players):
        if seat != d.player:
            other = game.determinize(seat, seed=seat)
            assert other.observation(seat) == game.observation(seat), \
                f"{where}: seat {seat} sees what it cannot know"
