"""What moved between two lock files: ``python requirements/moved.py OLD NEW``.

Prints one line per package whose pinned version changed, appeared or went, and a count;
`make upgrade` runs it after the suite. Standard library only (it runs before .venv exists).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def pins(path: Path) -> dict[str, str]:
    """Package name -> pinned version, from a lock in requirements format."""
    found: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = PIN.match(line)
        if match:
            found[match[1].lower()] = match[2]
    return found


def moved(old: dict[str, str], new: dict[str, str]) -> list[str]:
    lines = []
    for name in sorted(old.keys() | new.keys()):
        before, after = old.get(name), new.get(name)
        if before == after:
            continue
        if before is None:
            lines.append(f"  {name} {after} (new)")
        elif after is None:
            lines.append(f"  {name} {before} (gone)")
        else:
            lines.append(f"  {name} {before} -> {after}")
    return lines


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python requirements/moved.py OLD_LOCK NEW_LOCK", file=sys.stderr)
        return 2
    try:
        old, new = (pins(Path(a)) for a in argv)
    except OSError as exc:
        print(f"cannot read a lock file: {exc}", file=sys.stderr)
        return 2
    lines = moved(old, new)
    print(f"what moved: {len(lines)} of {len(new)} packages" + (":" if lines else ""))
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
