"""Golden playthroughs with the Thingvellir expansion: one seeded game per player count.

The same format as regenerate.py (the base game's goldens): for every decision, who
decides what (player, kind, number of legal actions), the action chosen (seeded random
choice among the legal actions) and the events that followed; then the final table,
the camp discard and the score sheet. tests/test_golden_thingvellir.py regenerates the
text in memory and diffs it against the committed thingvellir_*.txt files. After an
intended rules change run ``python tests/golden/regenerate_thingvellir.py`` and commit
the new files.
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
SEED = 2024
EXPANSIONS = (C.THINGVELLIR,)


def path_for(players: int) -> Path:
    return HERE / f"thingvellir_{players}p.txt"


def render(players: int, seed: int = SEED) -> str:
    """The whole playthrough of one seeded Thingvellir game as text."""
    game = Game.new(players=players, seed=seed, expansions=EXPANSIONS)
    names = game.names
    rng = random.Random(seed)
    lines = [f"# Golden playthrough with Thingvellir: {players} players, seed {seed}, "
             "seeded random choices",
             "# Regenerate with `python tests/golden/regenerate_thingvellir.py` after an "
             "intended rules change.", ""]
    lines += [e.describe(names) for e in game.events]
    lines.append(f"Camp: {' | '.join(c.token for c in game.state.camp)}")
    while not game.is_over:
        decision = game.decision
        assert decision is not None
        legal = game.legal_actions()
        action = rng.choice(legal)
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
    lines.append(f"Camp left: {' | '.join(c.token for c in s.camp) or '-'}")
    lines.append(f"Camp discard: {' | '.join(c.token for c in s.camp_discard) or '-'}")
    lines.append(f"Dwarf discard: {' '.join(c.token for c in s.discard) or '-'}")
    lines.append("")
    lines.append("== Score sheet ==")
    lines.append(game.scores().to_text())
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    for players in PLAYER_COUNTS:
        path = path_for(players)
        text = render(players)
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
        else:
            print(f"unchanged {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
