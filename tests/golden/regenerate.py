"""Golden playthroughs: one seeded game per player count, base game and Thingvellir,
every step dumped as text.

Each file shows, for every decision, who decides what (player, kind, number of
legal actions), the action chosen (seeded random choice among the legal actions),
and the events that followed, then the final table (with Thingvellir: what is left
in the camp, the camp discard and the dwarf discard) and the score sheet.
tests/test_golden.py regenerates the text in memory and diffs it against the
committed files, so any change of the rules shows up in review. After an intended
change run ``make golden`` (or ``python tests/golden/regenerate.py``) and commit the
new files.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from nidavellir import cards as C
from nidavellir import coins as K
from nidavellir.game import Game

HERE = Path(__file__).resolve().parent
PLAYER_COUNTS = (2, 3, 4, 5)
EXPANSION_SETS: tuple[tuple[str, ...], ...] = ((), (C.THINGVELLIR,))
SEED = 2024


def path_for(players: int, expansions: tuple[str, ...] = ()) -> Path:
    prefix = "thingvellir" if C.THINGVELLIR in expansions else "playthrough"
    return HERE / f"{prefix}_{players}p.txt"


def render(players: int, expansions: tuple[str, ...] = (), seed: int = SEED) -> str:
    """The whole playthrough of one seeded game as text."""
    game = Game.new(players=players, seed=seed, expansions=expansions)
    names = game.names
    rng = random.Random(seed)
    thingvellir = C.THINGVELLIR in expansions
    title = " with Thingvellir" if thingvellir else ""
    lines = [f"# Golden playthrough{title}: {players} players, seed {seed}, "
             "seeded random choices",
             "# Regenerate with `make golden` after an intended rules change.", ""]
    lines += [e.describe(names) for e in game.events]
    if thingvellir:
        lines.append(f"Camp: {' | '.join(c.token for c in game.state.camp)}")
    while not game.is_over:
        decision = game.decision
        assert decision is not None
        legal = game.legal_actions()
        # Sorted, so that the golden files do not depend on the order of legal_actions().
        action = rng.choice(sorted(legal, key=str))
        mark = len(game.events)
        step = len(game.history)
        game.apply(action)
        lines.append("")
        lines.append(f"[{step}] {names[decision.player]} - {decision.kind} "
                     f"({len(legal)} legal): {decision.prompt}")
        lines.append(f"  > {action}")
        lines += ["    " + e.describe(names) for e in game.events[mark:]]
    s = game.state
    lines.append("")
    lines.append("== Final table ==")
    for p in s.players:
        army = " | ".join(f"{suit.letter}: {' '.join(c.token for c in p.army[suit]) or '-'}"
                          for suit in C.SUITS)
        lines.append(f"{names[p.seat]}: gem {p.gem}; coins {K.labels(sorted(p.coins()))}")
        lines.append(f"  army {army}")
        lines.append(f"  command zone: {' '.join(c.token for c in p.command_zone) or '-'}")
    if thingvellir:
        lines.append(f"Camp left: {' | '.join(c.token for c in s.camp) or '-'}")
        lines.append(f"Camp discard: {' | '.join(c.token for c in s.camp_discard) or '-'}")
        lines.append(f"Dwarf discard: {' '.join(c.token for c in s.discard) or '-'}")
    lines.append("")
    lines.append("== Score sheet ==")
    lines.append(game.scores().to_text())
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    for expansions in EXPANSION_SETS:
        for players in PLAYER_COUNTS:
            path = path_for(players, expansions)
            text = render(players, expansions)
            old = path.read_text(encoding="utf-8") if path.exists() else None
            if old != text:
                path.write_text(text, encoding="utf-8")
                print(f"wrote {path}")
            else:
                print(f"unchanged {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
