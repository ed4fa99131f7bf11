"""Fit the search's horizon: the rest of the game after age 1, estimated from the position.

    python benchmarks/fit_horizon.py [--games 30000] [--workers 2]

A truncated playout (``hard+cut``, :mod:`nidavellir.bots.horizon`) stops when age 2 begins
and values the position by an estimate of each player's final score instead of playing age 2
out. This script makes that estimate: for every table size (2–5 players) and with and
without Thingvellir it plays ``--games`` games with the search's own playout policy
(:func:`~nidavellir.bots.playout.heuristic_policy`), records each player's features when age
2 begins (:func:`~nidavellir.bots.horizon.features`) and the points they went on to score,
fits the age-2 points by least squares on one half of the games, and fits the temperature of
the win chances (a softmax over the estimated totals) by likelihood on the same half. The
other half reports how good the estimate is (R², the winner found, the Brier score against a
uniform guess). It writes ``nidavellir/bots/horizon_fit.py`` (numpy is needed here, never by
the bots). Figures: benchmarks/README.md, "The search's hot path".
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

CONFIGS = [(n, t) for t in (False, True) for n in (2, 3, 4, 5)]
OUT = Path(__file__).resolve().parent.parent / "nidavellir" / "bots" / "horizon_fit.py"


def play(config: tuple[int, bool], games: int) -> tuple[list, list, list]:
    """(features, points when age 2 begins, final points) of every player of every game."""
    from nidavellir.bots.horizon import features
    from nidavellir.bots.playout import heuristic_policy
    from nidavellir.engine import Engine
    from nidavellir.game import Game
    from nidavellir.scoring import score_table, tables_of

    players, thingvellir = config
    expansions = ["thingvellir"] if thingvellir else []
    xs, nows, finals = [], [], []
    for g in range(games):
        s = Game.new(players=players, seed=1_000_000 + g, expansions=expansions).state
        eng = Engine(s, quiet=True)
        rng = random.Random(g)
        while s.age == 1:
            eng.apply(heuristic_policy(eng, rng), check=False)
        now = [p.total for p in score_table(tables_of(s), s.config.options, details=False).players]
        xs.append(features(s, now))
        nows.append(now)
        while not s.over:
            eng.apply(heuristic_policy(eng, rng), check=False)
        finals.append([p.total for p in
                       score_table(tables_of(s), s.config.options, details=False).players])
    return xs, nows, finals


def fit(config: tuple[int, bool], data: tuple[list, list, list]) -> dict:
    import numpy as np

    xs, nows, finals = data
    n = config[0]
    games = len(nows)
    X = np.array([row for game in xs for row in game], float)
    now = np.array(nows, float)
    final = np.array(finals, float)
    y = (final - now).ravel()
    half = games // 2
    beta, *_ = np.linalg.lstsq(X[:half * n], y[:half * n], rcond=None)
    est = now + (X @ beta).reshape(games, n)
    win = (final == final.max(1, keepdims=True)).astype(float)
    win /= win.sum(1, keepdims=True)

    def chances(tau: float, rows: slice) -> np.ndarray:
        z = est[rows] / tau
        z -= z.max(1, keepdims=True)
        p = np.exp(z)
        return p / p.sum(1, keepdims=True)

    fit_rows, test_rows = slice(0, half), slice(half, games)
    taus = np.arange(2.0, 40.0, 0.25)
    lls = [np.mean(np.sum(win[fit_rows] * np.log(chances(t, fit_rows) + 1e-12), 1)) for t in taus]
    tau = float(taus[int(np.argmax(lls))])
    resid = y[half * n:] - X[half * n:] @ beta
    p = chances(tau, test_rows)
    return {
        "beta": [round(float(b), 4) for b in beta], "tau": tau,
        "r2": float(1 - resid.var() / y[half * n:].var()), "sd": float(resid.std()),
        "winner": float(np.mean(est[test_rows].argmax(1) == final[test_rows].argmax(1))),
        "winner_now": float(np.mean(now[test_rows].argmax(1) == final[test_rows].argmax(1))),
        "brier": float(np.mean(np.sum((p - win[test_rows]) ** 2, 1))),
        "brier_uniform": float(np.mean(np.sum((1 / n - win[test_rows]) ** 2, 1))),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30_000, help="games per table (30000)")
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument("--out", type=Path, default=OUT, help=f"module to write ({OUT.name})")
    args = parser.parse_args(argv)
    if args.games < 100:
        parser.error(f"--games must be at least 100, not {args.games}")
    if args.workers < 1:
        parser.error(f"--workers must be at least 1, not {args.workers}")
    from nidavellir.bots.horizon import FEATURES

    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        played = list(pool.map(play, CONFIGS, [args.games] * len(CONFIGS)))
    fits = {c: fit(c, d) for c, d in zip(CONFIGS, played, strict=True)}
    print(f"{args.games} games per table, {time.perf_counter() - start:.0f} s")
    print("table              R²    resid sd  tau   winner (now)  Brier (uniform)")
    for (n, t), f in fits.items():
        print(f"{n} players{' T' if t else '  '}      {f['r2']:.3f}  {f['sd']:5.1f}  "
              f"{f['tau']:5.2f}  {f['winner']:.2f} ({f['winner_now']:.2f})  "
              f"{f['brier']:.3f} ({f['brier_uniform']:.3f})")
    lines = [
        '"""The horizon\'s estimate, fitted by benchmarks/fit_horizon.py (generated: do not',
        'edit; run the script again after a change to the playout policy or the features)."""',
        "",
        f"#: Features, in order: {', '.join(FEATURES)}.",
        "#: (players, thingvellir) -> (age-2 points per feature, softmax temperature of the",
        "#: win chances). Fitted on "
        f"{args.games // 2} games per table; R² of the age-2 points on the other half: "
        + ", ".join(f"{n}{'T' if t else ''} {f['r2']:.2f}" for (n, t), f in fits.items()) + ".",
        "COEFFICIENTS: dict[tuple[int, bool], tuple[tuple[float, ...], float]] = {",
    ]
    for (n, t), f in fits.items():
        beta = ", ".join(f"{b:g}" for b in f["beta"])
        lines.append(f"    ({n}, {t}): (({beta}), {f['tau']:g}),")
    lines.append("}")
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
