"""The figures that must be the same in the pure-Python and the compiled build
(tests/test_compiled.py): the golden playthroughs, seeded games of every player count and
edition played to the end, record round trips and determinizations (the no-peek twins' raw
material) at positions of every decision kind, and the coach's seeded judgement of each.

``python tests/builds.py`` prints them as JSON (the test runs it in a fresh interpreter with
the other build); :func:`figures` computes them in this one.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # run as a script: the tests' helpers
    sys.path.insert(0, str(HERE))

from conformance import collect  # noqa: E402
from test_golden import GAMES, regenerate  # noqa: E402

from nidavellir import Game, compiled  # noqa: E402
from nidavellir.bots import play_game  # noqa: E402
from nidavellir.bots.judge import judge, no_cache  # noqa: E402

#: The coach's level for the judgements (small: the suite's budget is work, never seconds).
LEVEL = "search@20"


def _digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode("utf-8")).hexdigest()[:16]


def figures() -> dict[str, Any]:
    """Every figure, by name (the build that computed them under ``build``)."""
    out: dict[str, Any] = {"build": compiled.status().build}
    for players, expansions in GAMES:
        out[f"golden {players}p {expansions}"] = _digest(regenerate.render(players, expansions))
    for seed in range(6):
        for players in (2, 3, 4, 5):
            for exp in ((), ("thingvellir",)):
                bot = "heuristic" if seed % 2 else "random"
                g = play_game(players, bot, seed=seed, expansions=exp)
                out[f"game {bot} {players}p {exp} seed {seed}"] = _digest(
                    (g.state.fingerprint(), g.scores().totals, [e.to_dict() for e in g.events]))
    for kind, games in sorted(collect().items()):
        game = games[0]
        record = json.loads(json.dumps(game.to_record()))
        d = game.decision
        assert d is not None
        out[f"record {kind}"] = _digest(Game.from_record(record).state.fingerprint())
        out[f"twins {kind}"] = _digest([game.determinize(seat, seed=seat).state.fingerprint()
                                        for seat in range(game.config.players)])
        with no_cache():
            judgement = judge(game, level=LEVEL).to_dict()
        del judgement["seconds"]  # the time it took
        out[f"judgement {kind}"] = judgement
    return out


if __name__ == "__main__":
    print(json.dumps(figures(), sort_keys=True))
