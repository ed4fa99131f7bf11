"""Golden playthroughs: one seeded game per player count, base game and Thingvellir,
every step dumped as text.

Each file shows, for every decision, who decides what (player, kind, number of
legal actions), the action chosen (seeded random choice among the legal actions),
and the events that followed, then the final table (with Thingvellir: what is left
in the camp, the camp discard and the dwarf discard) and the score sheet.
tests/test_golden.py regenerates the text in memory and diffs it against the
committed files, so any change of the rules shows up in review. After an intended
change run ``make golden`` (or ``python tests/golden/regenerate.py``): it writes the files,
prints the diff of each one that changed (cut to its first lines, with a count of the lines
removed and added) and ``unchanged`` for the others; commit the new files.
"""

from __future__ import annotations

import difflib
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


#: Lines of each file's diff shown when it changed (the rest is counted).
SHOWN = 40


def changes(old: str, new: str, name: str) -> list[str]:
    """What changed in one file, as a unified diff cut to :data:`SHOWN` lines, and a line
    counting the lines removed and added."""
    diff = list(difflib.unified_diff(old.splitlines(), new.splitlines(), f"a/{name}",
                                     f"b/{name}", lineterm="", n=1))
    removed = sum(1 for line in diff if line.startswith("-") and not line.startswith("---"))
    added = sum(1 for line in diff if line.startswith("+") and not line.startswith("+++"))
    shown = diff[:SHOWN]
    if len(diff) > SHOWN:
        shown.append(f"... {len(diff) - SHOWN} more lines of diff")
    return [*shown, f"{name}: {removed} lines removed, {added} added"]


def main(argv: list[str] | None = None) -> int:
    """Write every golden file; say what changed in each (nothing: ``unchanged``)."""
    changed = 0
    for expansions in EXPANSION_SETS:
        for players in PLAYER_COUNTS:
            path = path_for(players, expansions)
            text = render(players, expansions)
            old = path.read_text(encoding="utf-8") if path.exists() else ""
            if old != text:
                path.write_text(text, encoding="utf-8")
                print("\n".join(changes(old, text, path.name)))
                print(f"wrote {path.name}")
                changed += 1
            else:
                print(f"unchanged {path.name}")
    print(f"{changed} golden file(s) changed" if changed else "no golden file changed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
