"""``python -m nidavellir.compiled [status | check | build]``: which build runs here, and
building it (:mod:`nidavellir.compiled`).

- ``status`` (the default): the build this interpreter runs, and why;
- ``check``: exit status 0 when the compiled build is current, 1 when not (and why);
- ``build``: compile when the build is missing or stale (``--force``: always); where mypyc
  or a C compiler is missing it says so and exits 0: the package runs as pure Python.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    from nidavellir import compiled
    from nidavellir.compiled import DEFAULT_OPT_LEVEL

    parser = argparse.ArgumentParser(prog="python -m nidavellir.compiled",
                                     description="The compiled build of the engine's hot path.")
    parser.add_argument("command", nargs="?", default="status",
                        choices=("status", "check", "build"))
    parser.add_argument("--force", action="store_true",
                        help="build even when the build is current")
    parser.add_argument("--opt-level", default=DEFAULT_OPT_LEVEL, choices=("0", "1", "2", "3"),
                        help="the C compiler's optimisation (default "
                             f"{DEFAULT_OPT_LEVEL}: as fast as 3, built in two thirds "
                             "of the time)")
    args = parser.parse_args(argv)
    found = compiled.check()
    if args.command == "status":
        running = compiled.status()
        print(f"this interpreter runs the {running.build} build: {running.reason}")
        if running.compiled != found.compiled:
            print(f"the build folder: {found}")
        return 0
    if args.command == "check":
        print(found)
        return 0 if found.compiled else 1
    from nidavellir.compiled.build import build, missing_tools

    if found.compiled and not args.force:
        print(f"compiled build: current ({len(found.modules)} modules), nothing to do")
        return 0
    why = missing_tools()
    if why is not None:
        print(f"compiled build: not built, {why}; the package runs as pure Python")
        return 0
    print(f"compiled build: compiling {len(compiled.MODULES)} modules with mypyc "
          f"({found.reason})", flush=True)
    start = time.perf_counter()
    try:
        built = build(opt_level=args.opt_level, force=args.force)
    except compiled.CompiledBuildError as e:
        print(f"compiled build failed: {e}", file=sys.stderr)
        return 1
    if built:
        print(f"compiled build: done in {time.perf_counter() - start:.0f} s, checked against "
              f"the pure Python ({compiled.build_dir()})")
    else:
        print("compiled build: current (another build has just made it), nothing to do")
    return 0


if __name__ == "__main__":
    sys.exit(main())
